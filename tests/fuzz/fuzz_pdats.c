/* Fuzz target: the PDATS reader must never crash, hang or read out of
 * bounds, whatever the bytes. */
#include "addr.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct citcat_addr_reader *r;
	struct citcat_ref ref;
	int fmt = CITCAT_ADDR_PDATS;
	if (citcat_addr_reader_open_mem(&r, data, size, fmt) == 0)
		while (citcat_addr_next(r, &ref) == 1)
			;
	citcat_addr_reader_close(r);
	return 0;
}
