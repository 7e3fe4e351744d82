/* Fuzz target: the IMS reader never crashes, reads out of bounds or leaks,
 * and what it accepts is an image inside the configured RAM.
 * An input starting "CIMS" is read as a whole file (and segments 0..2 of a
 * segment bundle through its index, SEGIDX.md); any other input is
 * [nrec byte][records] and is wrapped in a valid container (wrap.h) so the
 * memory-run decoder is reached despite the checksums. */
#include "ims.h"
#include "wrap.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* WHICH < 0: the file's only segment; else segment WHICH of a bundle
 * (common/SEGIDX.md) */
static void read_seg(const uint8_t *buf, size_t len, int which)
{
	struct citcat_ims ims;
	struct citcat_errinfo err = {0};
	if ((which < 0 ? citcat_ims_read_mem(buf, len, &ims, &err)
		     : citcat_ims_read_segment_mem(buf, len, (uint64_t)which, &ims, &err)) != 0) {
		citcat_ims_fini(&ims);
		return;
	}
	uint64_t end = (uint64_t)ims.cfg.ram_base + ims.cfg.ram_size;
	size_t n = citcat_image_segments(ims.memory);
	for (size_t i = 0; i < n; i++) {
		uint64_t addr, seg;
		const uint8_t *p;
		citcat_image_segment(ims.memory, i, &addr, &seg, &p);
		if (addr < ims.cfg.ram_base || addr + seg > end)
			abort(); /* the reader promised runs inside RAM */
	}
	citcat_ims_fini(&ims);
}

static void read_one(const uint8_t *buf, size_t len)
{
	for (int k = -1; k < 3; k++)
		read_seg(buf, len, k);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size >= 4 && memcmp(data, "CIMS", 4) == 0) {
		read_one(data, size);
		return 0;
	}
	size_t len;
	uint8_t *b = wrap_ims_input(data, size, &len);
	if (b)
		read_one(b, len);
	free(b);
	return 0;
}
