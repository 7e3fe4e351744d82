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
	/* metadata: default target configuration (1 MiB RAM at 0x100000),
	 * trace id, registers, replacement states */
	uint8_t meta[CITCAT_IMS_META_LEN] = {0}; /* LRU caches: replacement states 0 */
	struct citcat_target_config cfg;
	citcat_target_config_default(&cfg);
	cfg.ram_base = 0x100000;
	cfg.ram_size = 0x100000;
	citcat_target_config_encode(&cfg, meta);
	size_t len;
	uint8_t *b = wrap_container("CIMS\r\n\x1a\n", CITCAT_IMS_VERSION, meta, sizeof meta, size ? data + 1 : data,
				    size ? size - 1 : 0, size ? data[0] : 0, &len);
	if (b)
		read_one(b, len);
	free(b);
	return 0;
}
