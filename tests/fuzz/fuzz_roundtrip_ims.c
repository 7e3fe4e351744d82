/* Round-trip fuzz target of the IMS encoder (roundtrip.h): read, write (E1),
 * read E1 to the same state (configuration, trace id, registers,
 * replacement states, memory byte for byte), write again (E2), E1 == E2
 * byte for byte.  Inputs as for fuzz_ims.c: a whole file ("CIMS"), or
 * [nrec byte][runs] wrapped in a container with the default target
 * configuration (1 MiB RAM at 0x100000). */
#include "ims.h"
#include "roundtrip.h"
#include "wrap.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int same_memory(const struct citcat_image *a, const struct citcat_image *b)
{
	size_t n = citcat_image_segments(a);
	if (n != citcat_image_segments(b))
		return 0;
	for (size_t i = 0; i < n; i++) {
		uint64_t aa, al, ba, bl;
		const uint8_t *ad, *bd;
		citcat_image_segment(a, i, &aa, &al, &ad);
		citcat_image_segment(b, i, &ba, &bl, &bd);
		if (aa != ba || al != bl || memcmp(ad, bd, al) != 0)
			return 0;
	}
	return 1;
}

static void round_trip(const uint8_t *buf, size_t len)
{
	struct citcat_ims a, b;
	struct citcat_errinfo e;
	if (citcat_ims_read_mem(buf, len, &a, &e) != 0)
		return;
	char *e1 = fuzz_path("e1.ims"), *e2 = fuzz_path("e2.ims");
	if (citcat_ims_write(&a, e1, &e) != 0)
		rt_fail("the writer refused a state the reader returned");
	if (citcat_ims_read(e1, &b, &e) != 0)
		rt_fail("E1 does not read back");
	if (memcmp(&a.cfg, &b.cfg, sizeof a.cfg) != 0 || a.id.hash != b.id.hash || a.id.start_pc != b.id.start_pc ||
	    a.id.insns != b.id.insns || memcmp(&a.regs, &b.regs, sizeof a.regs) != 0 ||
	    a.repl_state[0] != b.repl_state[0] || a.repl_state[1] != b.repl_state[1] || !same_memory(a.memory, b.memory))
		rt_fail("E1 reads back to another state");
	if (citcat_ims_write(&b, e2, &e) != 0)
		rt_fail("writing E2 failed");
	rt_same_files(e1, e2);
	citcat_ims_fini(&a);
	citcat_ims_fini(&b);
	free(e1);
	free(e2);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size >= 4 && memcmp(data, "CIMS", 4) == 0) {
		round_trip(data, size);
		return 0;
	}
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
		round_trip(b, len);
	free(b);
	return 0;
}
