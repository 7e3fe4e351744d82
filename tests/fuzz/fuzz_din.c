/* Fuzz target: the din/xdin reader must never crash, hang or read out of
 * bounds, whatever the bytes. */
#include "addr.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct citcat_addr_reader *r;
	struct citcat_ref ref;
	int fmt = size && (data[0] & 1) ? CITCAT_ADDR_XDIN : CITCAT_ADDR_DIN;
	if (citcat_addr_reader_open_mem(&r, data, size, fmt) == 0)
		while (citcat_addr_next(r, &ref) == 1)
			;
	citcat_addr_reader_close(r);
	return 0;
}
