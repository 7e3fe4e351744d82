/* Fuzz target: the LVT reader never crashes, reads out of bounds or leaks.
 * An input starting "CLVT" is read as a whole file; any other input is
 * [nrec byte][size byte][records] and is wrapped in a valid container
 * (wrap.h; nrec's bit 7 selects the Cortex-M7 configuration) so the bit-stream decoder is reached despite the checksums.  The
 * load sizes the reader is told cycle through 1, 2, 4 and 8 from the size
 * byte, as a decoder's loads would. */
#include "lvt.h"
#include "wrap.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void read_all(const uint8_t *buf, size_t len, uint8_t sizes)
{
	struct citcat_lvt_reader *r = NULL;
	if (citcat_lvt_reader_open_mem(&r, buf, len) == 0) {
		struct citcat_lvt_rec e;
		for (unsigned i = 0; i < 1000000; i++) {
			int k = citcat_lvt_peek(r);
			if (k <= 0)
				break;
			unsigned n = 1u << ((sizes >> (2 * (i & 3))) & 3);
			if (citcat_lvt_next(r, k == CITCAT_LVT_HIT || k == CITCAT_LVT_VALUE ? n : 0, &e) != 1)
				break;
			if (e.kind == CITCAT_LVT_VALUE && n < 8 && (e.value >> (8 * n)))
				abort(); /* a value wider than the load */
		}
	}
	citcat_lvt_reader_close(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size >= 4 && memcmp(data, "CLVT", 4) == 0) {
		read_all(data, size, 0xe4);
		return 0;
	}
	if (size < 2)
		return 0;
	uint8_t meta[CITCAT_LVT_META_LEN] = {0};
	struct citcat_target_config cfg;
	citcat_target_config_default(&cfg);
	if (data[0] & 0x80) /* the Cortex-M7: 6-bit exception numbers in IRQ records */
		cfg.isa = CITCAT_TARGET_CORTEX_M7;
	citcat_target_config_encode(&cfg, meta);
	size_t len;
	uint8_t *b = wrap_container("CLVT\r\n\x1a\n", CITCAT_LVT_VERSION, meta, sizeof meta, data + 2, size - 2, data[0] & 0x7f, &len);
	if (b)
		read_all(b, len, data[1]);
	free(b);
	return 0;
}
