/* Turns a real IMS/AES pair into a fuzz_replay recipe (replay_recipe.h), the
 * seeds of tests/fuzz/corpus/replay.  Usage:
 *   replay_recipe RUN.ims RUN.aes OUT.recipe [FLAGS]
 * Memory stretches of one repeated byte become fill runs and consecutive
 * equal device records REPEAT records, which keeps the seeds small.
 *
 * The checked-in seeds (each must replay exactly: test
 * fuzz_replay_seeds_exact) were made from the examples with
 *   citcat capture build/examples/EX.elf -o EX.cat --seed 1 --max-insns N [OPTS]
 *   citcat ims EX.cat -o EX.ims && citcat aes EX.cat -o EX.aes
 *   replay_recipe EX.ims EX.aes tests/fuzz/corpus/replay/exact_EX FLAGS
 * idle: N 12000, FLAGS 0 (interrupts); sched: N 12000, FLAGS 1; counter:
 * N 2500, FLAGS 1 (device input, counter reads); crc32: N 17500, FLAGS 0,
 * OPTS --dma-burst 64 --dma-interval 400 --dcache-write wt (DMA);
 * sched_random: sched with OPTS --icache 512:2:32:random --dcache
 * 512:2:32:random (generator states at P). */
#include "aes.h"
#include "ims.h"
#include "replay_recipe.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint8_t *buf;
static size_t len, cap;

static void put(uint64_t v, unsigned bytes)
{
	if (len + bytes > cap) {
		cap = cap ? 2 * cap : 65536;
		buf = realloc(buf, cap);
		if (!buf)
			exit(2);
	}
	for (unsigned i = 0; i < bytes; i++)
		buf[len++] = (uint8_t)(v >> (8 * i));
}

static void put_bytes(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		put(p[i], 1);
}

static unsigned size_code(unsigned size) { return size == 1 ? 0 : size == 2 ? 1 : 2; }

static int is_queue(unsigned k) { return k == CITCAT_AES_INPUT || k == CITCAT_AES_OUTPUT || k == CITCAT_AES_COUNTER; }

int main(int argc, char **argv)
{
	if (argc < 4) {
		fprintf(stderr, "usage: replay_recipe RUN.ims RUN.aes OUT.recipe [FLAGS]\n");
		return 2;
	}
	struct citcat_ims ims;
	struct citcat_errinfo err;
	if (citcat_ims_read(argv[1], &ims, &err)) {
		fprintf(stderr, "%s: %s\n", argv[1], err.msg);
		return 2;
	}
	if (ims.id.insns > UINT32_MAX) {
		fprintf(stderr, "%s: the interval is too long for a recipe\n", argv[1]);
		return 2;
	}
	put(argc > 4 ? strtoul(argv[4], NULL, 0) : 0, 1);
	uint8_t meta[CITCAT_TARGET_META_LEN];
	citcat_target_config_encode(&ims.cfg, meta);
	put_bytes(meta, sizeof meta);
	put(ims.id.insns, 4);
	for (int i = 0; i < ARM_SLOTS; i++)
		put(ims.regs.slot[i], 4);
	put(ims.repl_state[0], 4);
	put(ims.repl_state[1], 4);

	/* memory runs: count first, patched in afterwards */
	size_t nruns_at = len, nruns = 0;
	put(0, 2);
	for (size_t s = 0; s < citcat_image_segments(ims.memory); s++) {
		uint64_t addr, n;
		const uint8_t *p;
		citcat_image_segment(ims.memory, s, &addr, &n, &p);
		for (uint64_t o = 0; o < n;) {
			uint64_t same = 1;
			while (o + same < n && same < 0x7fff && p[o + same] == p[o])
				same++;
			uint64_t off = addr - ims.cfg.ram_base + o;
			if (same >= 8) {
				put(off, 4);
				put(same | 0x8000, 2);
				put(p[o], 1);
				o += same;
			} else { /* a literal run up to the next stretch of 8 equal bytes */
				uint64_t e = o;
				while (e < n && e - o < 0x7fff) {
					uint64_t k = 1;
					while (e + k < n && k < 8 && p[e + k] == p[e])
						k++;
					if (k >= 8)
						break;
					e++;
				}
				put(off, 4);
				put(e - o, 2);
				put_bytes(p + o, e - o);
				o = e;
			}
			nruns++;
		}
	}
	if (nruns > 0xffff) {
		fprintf(stderr, "%s: too many memory runs for a recipe\n", argv[1]);
		return 2;
	}
	buf[nruns_at] = (uint8_t)nruns;
	buf[nruns_at + 1] = (uint8_t)(nruns >> 8);

	struct citcat_aes_reader *r;
	struct citcat_aes_rec rec, last = {0};
	int rc = citcat_aes_reader_open(&r, argv[2]);
	uint64_t repeat = 0;
	while (rc == 0 && (rc = citcat_aes_next(r, &rec)) == 1) {
		rc = 0;
		if (is_queue(rec.kind) && is_queue(last.kind) && rec.kind == last.kind && rec.addr == last.addr &&
		    rec.size == last.size && rec.value == last.value && repeat < 0x10000) {
			repeat++;
			continue;
		}
		if (repeat) {
			put(RK_REPEAT, 1);
			put(repeat - 1, 2);
			repeat = 0;
		}
		put(rec.kind, 1);
		switch (rec.kind) {
		case CITCAT_AES_IRQ:
			put(rec.line, 1);
			put(rec.pc, 4);
			put(rec.bcount, 4);
			break;
		case CITCAT_AES_DMA:
			put(rec.addr, 4);
			put(rec.pc, 4);
			put(rec.bcount, 4);
			put(rec.len - 1, 2);
			put_bytes(rec.data, rec.len);
			break;
		case CITCAT_AES_END:
			put(rec.insns, 4);
			put(rec.bcount, 4);
			put(rec.line, 1);
			break;
		default:
			put(rec.addr, 4);
			put(size_code(rec.size), 1);
			put(rec.value, 4);
		}
		if (rec.bcount > UINT32_MAX || rec.insns > UINT32_MAX) {
			fprintf(stderr, "%s: a branch count too large for a recipe\n", argv[2]);
			return 2;
		}
		last = rec;
	}
	if (rc) {
		fprintf(stderr, "%s: %s: %s\n", argv[2], citcat_errstr(rc), citcat_aes_reader_error(r)->msg);
		return 2;
	}
	citcat_aes_reader_close(r);
	if (repeat) {
		put(RK_REPEAT, 1);
		put(repeat - 1, 2);
	}
	FILE *f = fopen(argv[3], "wb");
	if (!f || fwrite(buf, 1, len, f) != len || fclose(f)) {
		fprintf(stderr, "%s: cannot write\n", argv[3]);
		return 2;
	}
	citcat_ims_fini(&ims);
	free(buf);
	return 0;
}
