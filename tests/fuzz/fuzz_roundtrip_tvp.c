/* Round-trip fuzz target for TVP (formats/TVP_MODEL.md): whatever din or
 * xdin text parses, written as a TVP container of din, xdin, PDATS II (32-
 * or 64-bit) or PDATS, must decode to exactly the references written (type,
 * address, and xdin's sizes as xdin writes them: unknown, 0, as 4).  The
 * first byte picks the format. */
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
	static const int fmts[] = {CITCAT_ADDR_DIN, CITCAT_ADDR_XDIN, CITCAT_ADDR_PDATS2, CITCAT_ADDR_PDATS};
	unsigned sel = size ? data[0] : 0;
	int fmt = fmts[sel & 3], in_fmt = fmt == CITCAT_ADDR_XDIN ? CITCAT_ADDR_XDIN : CITCAT_ADDR_DIN;
	struct citcat_addr_config cfg = {sizeof cfg, fmt, sel & 4 ? 64 : 32, 4, 4 /* CC_OUT_TVP */, 0, 0};
	if (citcat_addr_reader_open_mem(&r, data, size, in_fmt) || citcat_addr_writer_open(&w, NULL, &cfg))
		goto out;
	int rc;
	while ((rc = citcat_addr_next(r, &ref)) == 1)
		if (citcat_addr_put(w, &ref))
			goto out; /* too wide for 32 bits, or a type the format lacks */
	if (rc < 0)
		goto out;
	rc = citcat_addr_writer_take(w, &enc, &len);
	w = NULL;
	if (rc)
		abort();
	citcat_addr_reader_close(r);
	if (citcat_addr_reader_open_mem(&r, data, size, in_fmt) || citcat_addr_reader_open_mem(&r2, enc, len, fmt))
		abort();
	for (;;) {
		int a = citcat_addr_next(r, &ref), b = citcat_addr_next(r2, &back);
		if (a != b)
			abort();
		if (a != 1)
			break;
		if (ref.type != back.type || ref.addr != back.addr ||
		    (fmt == CITCAT_ADDR_XDIN && (ref.size ? ref.size : 4) != back.size)) /* xdin prints 0 as 4 (DIN.md) */
			abort();
	}
out:
	citcat_addr_writer_abort(w);
	citcat_addr_reader_close(r);
	citcat_addr_reader_close(r2);
	free(enc);
	return 0;
}
