/* Round-trip fuzz target: whatever din text parses, din -> PDATS II -> din
 * must give back the same references (type and address), and the PDATS II
 * file must decode to exactly those references.  Odd first byte: 64-bit
 * variant with LZ4.  The last byte plus the length picks the writer: bit 0
 * instructions of two sizes from the start (stride 2, a Thumb writer),
 * bits 1-2 the version (0 and 3: version 3; 2; 1, then one size). */
#include "addr.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct citcat_addr_reader *r = NULL, *r2 = NULL;
	struct citcat_addr_writer *w = NULL;
	struct citcat_ref ref, back;
	uint8_t *enc = NULL;
	size_t len = 0;
	int wide = size && (data[0] & 1);
	unsigned sel = size ? data[size - 1] + (unsigned)size : 0, version = (sel >> 1) & 3;
	int isizes = (sel & 1) && version != 1;
	struct citcat_addr_config cfg = {sizeof cfg, CITCAT_ADDR_PDATS2, wide ? 64 : 32, isizes ? 2 : 4, wide, version, isizes};
	if (citcat_addr_reader_open_mem(&r, data, size, CITCAT_ADDR_DIN) || citcat_addr_writer_open(&w, NULL, &cfg))
		goto out;
	int rc;
	while ((rc = citcat_addr_next(r, &ref)) == 1)
		if (citcat_addr_put(w, &ref))
			goto out; /* an address wider than 32 bits in the 32-bit variant */
	if (rc < 0)
		goto out;
	rc = citcat_addr_writer_take(w, &enc, &len);
	w = NULL;
	if (rc)
		abort();
	citcat_addr_reader_close(r);
	if (citcat_addr_reader_open_mem(&r, data, size, CITCAT_ADDR_DIN) ||
	    citcat_addr_reader_open_mem(&r2, enc, len, CITCAT_ADDR_PDATS2))
		abort();
	for (;;) {
		int a = citcat_addr_next(r, &ref), b = citcat_addr_next(r2, &back);
		if (a != b)
			abort();
		if (a != 1)
			break;
		if (ref.type != back.type || ref.addr != back.addr)
			abort();
	}
out:
	citcat_addr_writer_abort(w);
	citcat_addr_reader_close(r);
	citcat_addr_reader_close(r2);
	free(enc);
	return 0;
}
