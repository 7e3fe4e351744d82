/* Fuzz target: the itrace reader must never crash, hang or read out of
 * bounds, whatever the bytes. */
#include "itrace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct citcat_itrace_rec rec;
	struct citcat_itrace_reader *r;
	if (citcat_itrace_reader_open_mem(&r, data, size) == 0)
		while (citcat_itrace_next(r, &rec) == 1)
			;
	citcat_itrace_reader_close(r);
	return 0;
}
