/* Fuzz target: the IMS reader never crashes, reads out of bounds or leaks,
 * and what it accepts is an image inside the configured RAM.
 * An input starting "CIMS" is read as a whole file; any other input is
 * [nrec byte][records] and is wrapped in a valid container (wrap.h) so the
 * memory-run decoder is reached despite the checksums. */
#include "ims.h"
#include "wrap.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void read_one(const uint8_t *buf, size_t len)
{
	struct citcat_ims ims;
	struct citcat_errinfo err = {0};
	if (citcat_ims_read_mem(buf, len, &ims, &err) != 0)
		return;
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
