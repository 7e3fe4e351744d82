/* IMS and AES file formats: writer/reader round trips over many chunks
 * (delta state and value tables reset at every chunk, REPEAT runs, DMA data
 * up to 4096 bytes, memory runs split at 4096 bytes), caller mistakes, and
 * bad files giving the right error and offset. */
#include "aes.h"
#include "bytes.h"
#include "check.h"
#include "container.h"
#include "ims.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

static uint64_t rng_state;
static uint64_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static long file_size(const char *p)
{
	FILE *f = fopen(p, "rb");
	if (!f)
		return -1;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fclose(f);
	return n;
}

static int chunks(const char *path)
{
	struct cc_reader *r;
	const uint8_t *d;
	size_t len;
	uint32_t nrec;
	int n = 0;
	if (cc_reader_open(&r, path, NULL, UINT16_MAX) == 0)
		while (cc_reader_next_chunk(r, &d, &len, &nrec) == 1)
			n++;
	cc_reader_close(r);
	return n;
}

/* The I-th record of a deterministic stream (DATA receives DMA bytes). */
struct gen {
	uint64_t bcount;
	struct citcat_aes_rec last;
	int run; /* identical queue records still to emit */
};

static void gen_next(struct gen *g, struct citcat_aes_rec *r, uint8_t *data, int last)
{
	static const uint32_t devs[] = {0x40000404, 0x40000400, 0x40000700, 0x40000704, 0x40000300, 0x40000f40};
	if (g->run > 0) {
		g->run--;
		*r = g->last;
		return;
	}
	memset(r, 0, sizeof *r);
	if (last) {
		r->kind = CITCAT_AES_END;
		r->insns = 123456789012ull;
		r->bcount = g->bcount;
		r->line = CITCAT_STOP_LIMIT;
		return;
	}
	uint64_t x = rnd();
	unsigned pick = (unsigned)(x % 100);
	g->bcount += (x >> 8) % 50;
	if (pick < 5) {
		r->kind = CITCAT_AES_IRQ;
		r->line = (uint8_t)((x >> 20) & 15);
		r->bcount = g->bcount;
		r->pc = (uint32_t)(rnd() & ~3u);
	} else if (pick < 12) {
		r->kind = CITCAT_AES_DMA;
		r->len = 1 + (uint32_t)((x >> 24) % 4096);
		r->addr = (uint32_t)rnd();
		r->bcount = g->bcount;
		r->pc = (uint32_t)(rnd() & 0xfffc);
		for (uint32_t i = 0; i < r->len; i++)
			data[i] = (uint8_t)rnd();
		r->data = data;
	} else {
		r->kind = (uint8_t)(CITCAT_AES_INPUT + (x >> 30) % 3);
		r->size = (uint8_t)(1u << ((x >> 34) % 3));
		r->addr = (x >> 40) % 8 ? devs[(x >> 44) % 6] : (uint32_t)rnd();
		if (r->kind == CITCAT_AES_COUNTER)
			r->addr = 0x40000600 + 4 * (uint32_t)((x >> 45) & 1);
		uint64_t mask = r->size == 4 ? 0xffffffffu : r->size == 2 ? 0xffffu : 0xffu;
		r->value = (x >> 50) % 3 ? rnd() & mask : (x >> 52) & 3 & mask; /* often small, often equal */
		if ((x >> 56) % 100 == 0)
			g->run = (int)(rnd() % ((x >> 60) ? 40 : 5000)); /* polling loops */
		g->last = *r;
	}
}

static int same(const struct citcat_aes_rec *a, const struct citcat_aes_rec *b)
{
	if (a->kind != b->kind)
		return 0;
	switch (a->kind) {
	case CITCAT_AES_IRQ:
		return a->line == b->line && a->bcount == b->bcount && a->pc == b->pc;
	case CITCAT_AES_DMA:
		return a->addr == b->addr && a->len == b->len && a->bcount == b->bcount && a->pc == b->pc &&
		       memcmp(a->data, b->data, a->len) == 0;
	case CITCAT_AES_END:
		return a->insns == b->insns && a->bcount == b->bcount && a->line == b->line;
	default:
		return a->addr == b->addr && a->size == b->size && a->value == b->value;
	}
}

static void test_aes_roundtrip(const char *path)
{
	enum { N = 400000 };
	static uint8_t data[4096];
	struct citcat_trace_id id = {.hash = 0x0123456789abcdefull, .start_pc = 0x368, .insns = 123456789012ull};
	struct citcat_target_config cfg;
	citcat_target_config_default(&cfg);
	struct citcat_aes_writer *w;
	CHECK_EQ(citcat_aes_writer_open(&w, path, &id, &cfg), 0);
	struct citcat_aes_rec bad = {.kind = CITCAT_AES_KINDS};
	CHECK_EQ(citcat_aes_write(w, &bad), CITCAT_ERR_INVAL);
	bad = (struct citcat_aes_rec){.kind = CITCAT_AES_DMA, .len = 0, .data = data};
	CHECK_EQ(citcat_aes_write(w, &bad), CITCAT_ERR_INVAL);
	bad.len = 4097;
	CHECK_EQ(citcat_aes_write(w, &bad), CITCAT_ERR_INVAL);
	rng_state = 88172645463325252ull;
	struct gen g = {0};
	uint64_t counts[CITCAT_AES_KINDS] = {0};
	for (int i = 0; i <= N; i++) {
		struct citcat_aes_rec r;
		gen_next(&g, &r, data, i == N);
		counts[r.kind]++;
		if (citcat_aes_write(w, &r)) {
			CHECK(0);
			break;
		}
	}
	CHECK_EQ(citcat_aes_writer_close(w), 0);
	long size = file_size(path);
	CHECK(chunks(path) >= 3);

	struct citcat_aes_reader *r;
	CHECK_EQ(citcat_aes_reader_open(&r, path), 0);
	const struct citcat_trace_id *rid = citcat_aes_trace_id(r);
	CHECK(rid->hash == id.hash && rid->start_pc == id.start_pc && rid->insns == id.insns);
	rng_state = 88172645463325252ull;
	memset(&g, 0, sizeof g);
	int n = 0, rc;
	uint64_t got_counts[CITCAT_AES_KINDS] = {0}, raw_total = 0;
	struct citcat_aes_rec got;
	while ((rc = citcat_aes_next(r, &got)) == 1) {
		struct citcat_aes_rec want;
		gen_next(&g, &want, data, n == N);
		if (!same(&got, &want)) {
			fprintf(stderr, "AES record %d (kind %u, want %u) differs\n", n, got.kind, want.kind);
			CHECK(0);
			break;
		}
		size_t len;
		citcat_aes_last_raw(r, &len);
		raw_total += len;
		got_counts[got.kind]++;
		n++;
	}
	CHECK_EQ(rc, 0);
	CHECK_EQ(n, N + 1);
	for (int k = 0; k < CITCAT_AES_KINDS; k++)
		CHECK_EQ(got_counts[k], counts[k]);
	CHECK(raw_total > (uint64_t)size / 2); /* the raw bytes are the records' own */
	citcat_aes_reader_close(r);

	/* Bad files: the right code, and the offset of the problem. */
	FILE *f = fopen(path, "rb");
	uint8_t *buf = malloc((size_t)size);
	CHECK(fread(buf, 1, (size_t)size, f) == (size_t)size);
	fclose(f);
	struct {
		size_t len;
		int at, val, code;
		uint64_t off;
	} cases[] = {
		{0, -1, 0, CITCAT_ERR_EMPTY, 0},
		{20, -1, 0, CITCAT_ERR_TRUNCATED, UINT64_MAX},
		{(size_t)size - 5, -1, 0, CITCAT_ERR_TRUNCATED, UINT64_MAX},
		{(size_t)size, 8, CITCAT_AES_SEG_VERSION + 1, CITCAT_ERR_VERSION, 8},
		{(size_t)size, 1, 'I', CITCAT_ERR_MAGIC, 0},
		{(size_t)size, (int)(size / 2), -2, CITCAT_ERR_CHECKSUM, UINT64_MAX},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		uint8_t saved = 0;
		if (cases[i].at >= 0) {
			saved = buf[cases[i].at];
			buf[cases[i].at] = cases[i].val == -2 ? (uint8_t)(saved ^ 0x10) : (uint8_t)cases[i].val;
		}
		int code = citcat_aes_reader_open_mem(&r, buf, cases[i].len);
		while (code == 0 && (code = citcat_aes_next(r, &got)) == 1)
			code = 0;
		CHECK_EQ(citcat_aes_reader_error(r)->code, code);
		if (code != cases[i].code) {
			fprintf(stderr, "AES bad case %zu: code %d, want %d (%s)\n", i, code, cases[i].code,
				citcat_aes_reader_error(r)->msg);
			CHECK(0);
		}
		if (cases[i].off != UINT64_MAX)
			CHECK_EQ(citcat_aes_reader_error(r)->offset, cases[i].off);
		else
			CHECK(citcat_aes_reader_error(r)->offset != UINT64_MAX);
		citcat_aes_reader_close(r);
		if (cases[i].at >= 0)
			buf[cases[i].at] = saved;
	}
	free(buf);
}

static void test_ims_roundtrip(const char *path)
{
	struct citcat_ims ims;
	memset(&ims, 0, sizeof ims);
	citcat_target_config_default(&ims.cfg);
	ims.cfg.ram_base = 0x10000000;
	ims.cfg.ram_size = 16u << 20;
	ims.id = (struct citcat_trace_id){.hash = 0xfeedfacecafebeefull, .start_pc = 0x10000368, .insns = 1ull << 33};
	for (int k = 0; k < ARM_SLOTS; k++)
		ims.regs.slot[k] = 0x9e3779b9u * (uint32_t)(k + 1);
	ims.cfg.dcache.repl = CITCAT_REPL_RANDOM; /* I-cache LRU: state 0 */
	ims.repl_state[1] = 0xfffffffeu;
	CHECK_EQ(citcat_image_alloc(&ims.memory), 0);
	rng_state = 0x2545F4914F6CDD1Dull;
	static uint8_t data[9000];
	uint64_t addr = ims.cfg.ram_base, total = 0;
	int runs = 0;
	while (runs < 1500) {
		uint32_t len = 1 + (uint32_t)(rnd() % 9000);
		for (uint32_t i = 0; i < len; i++)
			data[i] = (uint8_t)rnd();
		CHECK_EQ(citcat_image_add(ims.memory, addr, data, len), 0);
		total += len;
		runs++;
		addr += len + 1 + rnd() % 3000;
	}
	/* the last bytes of RAM */
	uint8_t tail[5] = {1, 2, 3, 4, 5};
	CHECK_EQ(citcat_image_add(ims.memory, ims.cfg.ram_base + ims.cfg.ram_size - 5, tail, 5), 0);
	total += 5;
	CHECK(addr < (uint64_t)ims.cfg.ram_base + ims.cfg.ram_size - 10);
	struct citcat_errinfo err = {0};
	CHECK_EQ(citcat_ims_write(&ims, path, &err), 0);
	CHECK(chunks(path) >= 4);

	struct citcat_ims back;
	CHECK_EQ(citcat_ims_read(path, &back, &err), 0);
	CHECK(memcmp(&back.regs, &ims.regs, sizeof ims.regs) == 0);
	CHECK(back.id.hash == ims.id.hash && back.id.start_pc == ims.id.start_pc && back.id.insns == ims.id.insns);
	CHECK(back.repl_state[0] == 0 && back.repl_state[1] == 0xfffffffeu && back.cfg.dcache.repl == CITCAT_REPL_RANDOM);
	CHECK(back.cfg.ram_base == ims.cfg.ram_base && back.cfg.ram_size == ims.cfg.ram_size &&
	      back.cfg.dcache.size == ims.cfg.dcache.size && back.cfg.pen_miss == ims.cfg.pen_miss);
	CHECK_EQ(citcat_image_bytes(back.memory), total);
	size_t ns = citcat_image_segments(ims.memory);
	CHECK_EQ(citcat_image_segments(back.memory), ns);
	for (size_t i = 0; i < ns && i < citcat_image_segments(back.memory); i++) {
		uint64_t a1, l1, a2, l2;
		const uint8_t *d1, *d2;
		citcat_image_segment(ims.memory, i, &a1, &l1, &d1);
		citcat_image_segment(back.memory, i, &a2, &l2, &d2);
		if (a1 != a2 || l1 != l2 || memcmp(d1, d2, l1) != 0) {
			fprintf(stderr, "IMS segment %zu differs\n", i);
			CHECK(0);
			break;
		}
	}
	citcat_ims_fini(&back);

	/* in memory, and bad copies */
	long size = file_size(path);
	uint8_t *buf = malloc((size_t)size);
	FILE *f = fopen(path, "rb");
	CHECK(fread(buf, 1, (size_t)size, f) == (size_t)size);
	fclose(f);
	CHECK_EQ(citcat_ims_read_mem(buf, (size_t)size, &back, &err), 0);
	CHECK_EQ(citcat_image_bytes(back.memory), total);
	citcat_ims_fini(&back);
	CHECK_EQ(citcat_ims_read_mem(buf, (size_t)size / 2, &back, &err), CITCAT_ERR_TRUNCATED);
	CHECK(err.offset != UINT64_MAX);
	CHECK(back.memory == NULL);
	buf[size / 3] ^= 4;
	CHECK_EQ(citcat_ims_read_mem(buf, (size_t)size, &back, &err), CITCAT_ERR_CHECKSUM);
	buf[size / 3] ^= 4;
	buf[8] = 9;
	CHECK_EQ(citcat_ims_read_mem(buf, (size_t)size, &back, &err), CITCAT_ERR_VERSION);
	CHECK_EQ(err.offset, 8);
	buf[8] = CITCAT_IMS_VERSION;
	memcpy(buf, "CAES", 4);
	CHECK_EQ(citcat_ims_read_mem(buf, (size_t)size, &back, &err), CITCAT_ERR_MAGIC);
	CHECK_EQ(err.offset, 0);
	CHECK_EQ(citcat_ims_read_mem(buf, 0, &back, &err), CITCAT_ERR_EMPTY);
	free(buf);
	citcat_ims_fini(&ims);

	/* no memory at all */
	ims.memory = NULL;
	CHECK_EQ(citcat_ims_write(&ims, path, &err), 0);
	CHECK_EQ(citcat_ims_read(path, &back, &err), 0);
	CHECK_EQ(citcat_image_bytes(back.memory), 0);
	citcat_ims_fini(&back);
	citcat_ims_fini(NULL);
}

/* Containers with the IMS magic but wrong contents: the reader names the
 * field and the offset. */
static void test_ims_bad_content(const char *path)
{
	struct citcat_ims ims;
	struct citcat_errinfo err;
	uint8_t meta[CITCAT_IMS_META_LEN] = {0};
	struct citcat_target_config cfg;
	citcat_target_config_default(&cfg);
	cfg.ram_size = 1u << 20;
	citcat_target_config_encode(&cfg, meta);

	/* a CAT's 96-byte metadata under the IMS magic */
	struct cc_writer *w;
	CHECK_EQ(cc_writer_open(&w, path, "CIMS\r\n\x1a\n", CITCAT_IMS_VERSION, meta, 96, 0), 0);
	CHECK_EQ(cc_writer_close(w), 0);
	CHECK_EQ(citcat_ims_read(path, &ims, &err), CITCAT_ERR_CORRUPT);
	CHECK_EQ(err.offset, 12);
	CHECK(strstr(err.msg, "284") != NULL);

	/* version 1 (272 bytes of metadata, no replacement state) is refused
	 * at its version field, before the metadata is looked at */
	CHECK_EQ(cc_writer_open(&w, path, "CIMS\r\n\x1a\n", 1, meta, 272, 0), 0);
	CHECK_EQ(cc_writer_close(w), 0);
	CHECK_EQ(citcat_ims_read(path, &ims, &err), CITCAT_ERR_VERSION);
	CHECK_EQ(err.offset, 8);
	CHECK(strstr(err.msg, "version 1 is not supported") != NULL);
	/* version 2 (280 bytes, no SCTLR) and version 3 (a bundle of version-2
	 * members) likewise (IMS.md, Version changes) */
	for (unsigned v = 2; v <= 3; v++) {
		CHECK_EQ(cc_writer_open(&w, path, "CIMS\r\n\x1a\n", (uint16_t)v, meta, 280, 0), 0);
		CHECK_EQ(cc_writer_close(w), 0);
		CHECK_EQ(citcat_ims_read(path, &ims, &err), CITCAT_ERR_VERSION);
		CHECK_EQ(err.offset, 8);
		CHECK(strstr(err.msg, v == 2 ? "version 2 is not supported" : "version 3 is not supported") != NULL);
	}

	/* SCTLR (metadata offset 280, file offset 296): TE alone is read; any
	 * other bit, and TE on the Cortex-M7, is refused there; the writer
	 * refuses the same values. */
	static const struct { uint32_t isa, sctlr; int rc; } sc[] = {
		{1, 0x40000000u, 0},
		{1, 0, 0},
		{1, 0x40c50078u, CITCAT_ERR_CORRUPT}, /* a raw SCTLR: the IMS carries TE only */
		{1, 0x00000001u, CITCAT_ERR_CORRUPT},
		{1, 0x80000000u, CITCAT_ERR_CORRUPT},
		{2, 0x40000000u, CITCAT_ERR_CORRUPT}, /* the M7 has no SCTLR */
	};
	for (size_t i = 0; i < sizeof sc / sizeof *sc; i++) {
		struct citcat_target_config c2 = cfg;
		c2.isa = (uint8_t)sc[i].isa;
		uint8_t m2[CITCAT_IMS_META_LEN] = {0};
		citcat_target_config_encode(&c2, m2);
		cc_put32(m2 + CITCAT_IMS_META_SCTLR, sc[i].sctlr);
		CHECK_EQ(cc_writer_open(&w, path, "CIMS\r\n\x1a\n", CITCAT_IMS_VERSION, m2, sizeof m2, 0), 0);
		CHECK_EQ(cc_writer_close(w), 0);
		CHECK_EQ(citcat_ims_read(path, &ims, &err), sc[i].rc);
		if (sc[i].rc) {
			CHECK_EQ(err.offset, 296);
			CHECK(strstr(err.msg, "SCTLR") != NULL);
		} else {
			CHECK_EQ(ims.sctlr, sc[i].sctlr);
		}
		citcat_ims_fini(&ims);
		struct citcat_ims w2 = {.cfg = c2, .sctlr = sc[i].sctlr};
		CHECK_EQ(citcat_ims_write(&w2, path, &err), sc[i].rc ? CITCAT_ERR_INVAL : 0);
	}

	/* replacement states that do not fit the policies (IMS.md, offsets
	 * 272 and 276 of the metadata) */
	static const struct { uint8_t irepl, drepl; uint32_t gi, gd; uint64_t off; } st[] = {
		{CITCAT_REPL_LRU, CITCAT_REPL_LRU, 1, 0, 16 + 272},       /* a state without a generator */
		{CITCAT_REPL_PLRU, CITCAT_REPL_FIFO, 0, 0x80000000u, 16 + 276},
		{CITCAT_REPL_RANDOM, CITCAT_REPL_LRU, 0, 0, 16 + 272},    /* 0 for random */
		{CITCAT_REPL_LRU, CITCAT_REPL_RANDOM, 0, 0, 16 + 276},
	};
	for (size_t i = 0; i < sizeof st / sizeof *st; i++) {
		struct citcat_target_config c2 = cfg;
		c2.icache.repl = st[i].irepl;
		c2.dcache.repl = st[i].drepl;
		uint8_t m2[CITCAT_IMS_META_LEN] = {0};
		citcat_target_config_encode(&c2, m2);
		cc_put32(m2 + 272, st[i].gi);
		cc_put32(m2 + 276, st[i].gd);
		CHECK_EQ(cc_writer_open(&w, path, "CIMS\r\n\x1a\n", CITCAT_IMS_VERSION, m2, sizeof m2, 0), 0);
		CHECK_EQ(cc_writer_close(w), 0);
		CHECK_EQ(citcat_ims_read(path, &ims, &err), CITCAT_ERR_CORRUPT);
		CHECK_EQ(err.offset, st[i].off);
		CHECK(strstr(err.msg, "replacement state") != NULL);
		/* and the writer will not make such a file */
		struct citcat_ims bad = {.cfg = c2, .repl_state = {st[i].gi, st[i].gd}};
		CHECK_EQ(citcat_ims_write(&bad, path, &err), CITCAT_ERR_INVAL);
	}
	/* every state fits random: 1 and 0xFFFFFFFF */
	{
		struct citcat_target_config c2 = cfg;
		c2.icache.repl = CITCAT_REPL_RANDOM;
		c2.dcache.repl = CITCAT_REPL_RANDOM;
		uint8_t m2[CITCAT_IMS_META_LEN] = {0};
		citcat_target_config_encode(&c2, m2);
		cc_put32(m2 + 272, 1);
		cc_put32(m2 + 276, 0xffffffffu);
		CHECK_EQ(cc_writer_open(&w, path, "CIMS\r\n\x1a\n", CITCAT_IMS_VERSION, m2, sizeof m2, 0), 0);
		CHECK_EQ(cc_writer_close(w), 0);
		CHECK_EQ(citcat_ims_read(path, &ims, &err), 0);
		CHECK(ims.repl_state[0] == 1 && ims.repl_state[1] == 0xffffffffu);
		citcat_ims_fini(&ims);
	}

	/* a run outside RAM; a chunk whose record count is wrong */
	static const struct { uint8_t rec[8]; size_t len; uint32_t nrec; const char *msg; } cases[] = {
		{{0x80, 0x80, 0x40, 4, 1, 2, 3, 4}, 8, 1, "outside RAM"}, /* at 1 MiB */
		{{0x10, 2, 1, 2, 0, 0, 0, 0}, 4, 2, "header says 2"},
		{{0x10, 0, 0, 0, 0, 0, 0, 0}, 2, 1, "malformed"}, /* zero-length run */
		{{0x10, 9, 1, 2, 0, 0, 0, 0}, 4, 1, "malformed"}, /* data cut short */
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		CHECK_EQ(cc_writer_open(&w, path, "CIMS\r\n\x1a\n", CITCAT_IMS_VERSION, meta, sizeof meta, 0), 0);
		uint8_t *b = cc_writer_reserve(w, cases[i].len);
		memcpy(b, cases[i].rec, cases[i].len);
		cc_writer_commit(w, cases[i].len, cases[i].nrec);
		CHECK_EQ(cc_writer_close(w), 0);
		CHECK_EQ(citcat_ims_read(path, &ims, &err), CITCAT_ERR_CORRUPT);
		if (!strstr(err.msg, cases[i].msg)) {
			fprintf(stderr, "IMS bad case %zu: '%s' lacks '%s'\n", i, err.msg, cases[i].msg);
			CHECK(0);
		}
		CHECK_EQ(err.offset, 16 + sizeof meta + 4 + 24); /* the chunk payload */
	}
}

/* A REPEAT longer than the traced interval is refused: each copy needs an
 * instruction of its own, and an unbounded count would let a few bytes
 * expand to 2^63 records. */
static void test_aes_repeat_bound(const char *path)
{
	uint8_t meta[32] = {0};
	meta[12] = 10; /* insns = 10 */
	static const uint8_t recs[][8] = {
		{0x02, 0x00, 0x07, 0x06, 9}, /* INPUT at 0, value 7; 9 more: 10 in all */
		{0x02, 0x00, 0x07, 0x06, 11},
	};
	for (int i = 0; i < 2; i++) {
		struct cc_writer *w;
		size_t len = 5;
		CHECK_EQ(cc_writer_open(&w, path, "CAES\r\n\x1a\n", 1, meta, sizeof meta, 0), 0);
		memcpy(cc_writer_reserve(w, len), recs[i], len);
		cc_writer_commit(w, len, 2);
		CHECK_EQ(cc_writer_close(w), 0);
		struct citcat_aes_reader *r;
		struct citcat_aes_rec rec;
		CHECK_EQ(citcat_aes_reader_open(&r, path), 0);
		int n = 0, rc;
		while ((rc = citcat_aes_next(r, &rec)) == 1)
			n++;
		if (i == 0) {
			CHECK_EQ(rc, 0);
			CHECK_EQ(n, 10);
		} else {
			CHECK_EQ(rc, CITCAT_ERR_CORRUPT);
			CHECK(strstr(citcat_aes_reader_error(r)->msg, "repeat count exceeds") != NULL);
		}
		citcat_aes_reader_close(r);
	}
}

/* Regression (issue 15 review): a hostile IMS of adjacent 1-byte memory runs
 * made every run copy the whole merged segment again, 10^12 bytes for a few
 * MB of runs.  4 Mi one-byte runs in address order, then a few out of order
 * and overlapping, must build the right image (the quadratic version would
 * copy about 8 TB here and never finish under the test's timeout). */
static void test_image_many_adjacent_runs(void)
{
	struct citcat_image *img = NULL;
	CHECK_EQ(citcat_image_alloc(&img), 0);
	if (!img)
		return;
	const uint32_t n = 4u << 20, base = 0x1000;
	int rc = 0;
	for (uint32_t i = 0; i < n && !rc; i++) {
		uint8_t b = (uint8_t)(i * 7 + 1);
		rc = citcat_image_add(img, base + i, &b, 1);
	}
	CHECK_EQ(rc, 0);
	uint8_t before[4] = {0xa0, 0xa1, 0xa2, 0xa3}, over[3] = {0xb0, 0xb1, 0xb2};
	CHECK_EQ(citcat_image_add(img, base - 4, before, 4), 0);   /* touches the front */
	CHECK_EQ(citcat_image_add(img, base + 100, over, 3), 0);   /* inside */
	CHECK_EQ(citcat_image_add(img, base + n - 1, over, 3), 0); /* across the end */
	CHECK_EQ(citcat_image_segments(img), 1);
	CHECK_EQ(citcat_image_bytes(img), (uint64_t)n + 4 + 2);
	uint8_t got[8];
	CHECK_EQ(citcat_image_read(img, base - 4, got, 8), 0);
	CHECK(got[0] == 0xa0 && got[3] == 0xa3 && got[4] == 1 && got[5] == 8 && got[7] == 22);
	CHECK_EQ(citcat_image_read(img, base + 99, got, 5), 0);
	CHECK(got[0] == (uint8_t)(99 * 7 + 1) && got[1] == 0xb0 && got[3] == 0xb2 && got[4] == (uint8_t)(103 * 7 + 1));
	CHECK_EQ(citcat_image_read(img, base + n - 2, got, 4), 0);
	CHECK(got[0] == (uint8_t)((n - 2) * 7 + 1) && got[1] == 0xb0 && got[3] == 0xb2);
	citcat_image_free(img);
}

/* The Cortex-M7's SCS slots 23..38 (IMS.md, "The Cortex-M7"): the format
 * (formats/imsfile.c) refuses them nonzero outside the checkpoint's NMI;
 * whether the exception model reads them back as written is the check the
 * public reader and writer add (ims/ims.c, m7exc_load_ckpt).  The streaming
 * reader of formats/ (citcat_ims_read_runs, the dump's) makes the format's
 * checks only. */
static int count_runs(void *ctx, uint64_t addr, const uint8_t *data, size_t n)
{
	(void)addr, (void)data, (void)n;
	++*(int *)ctx;
	return 0;
}

static void test_ims_m7_scs(const char *path)
{
	struct citcat_errinfo err;
	struct citcat_ims w = {0}, r;
	citcat_target_config_default(&w.cfg);
	w.cfg.isa = CITCAT_ISA_M7;
	w.regs.slot[M7_SLOT_SCS] = 0x100; /* VTOR; AIRCR (slot 24) 0, which reads back as 0xFA05xxxx */
	for (int nmi = 0; nmi <= 1; nmi++) {
		w.regs.slot[M7_SLOT_XPSR] = nmi ? 2 : 0;
		int slot = nmi ? M7_SLOT_SCS + 1 : M7_SLOT_SCS;
		const char *why = nmi ? "not a value the SCS register reads" : "does not start in the checkpoint's NMI";
		char want[32];
		snprintf(want, sizeof want, "slot %d", slot);
		/* the public writer refuses either; the format's writer only the first */
		CHECK_EQ(citcat_ims_write(&w, path, &err), CITCAT_ERR_INVAL);
		CHECK(strstr(err.msg, want) && strstr(err.msg, why));
		CHECK_EQ(citcat_ims_file_write(&w, path, NULL, &err), nmi ? 0 : CITCAT_ERR_INVAL);
		if (!nmi)
			continue;
		CHECK_EQ(citcat_ims_read(path, &r, &err), CITCAT_ERR_CORRUPT);
		CHECK(strstr(err.msg, want) && strstr(err.msg, why));
		CHECK_EQ(err.offset, 16 + 116 + 4 * (uint64_t)slot);
		citcat_ims_fini(&r);
		int runs = 0;
		CHECK_EQ(citcat_ims_read_runs(path, &r, count_runs, &runs, &err), 0);
		CHECK_EQ(r.regs.slot[M7_SLOT_SCS], 0x100);
		citcat_ims_fini(&r);
		/* the same slots made right for the model: AIRCR with its key, CCR
		 * with its read-only ones (BP, STKALIGN; TARGET-M7.md) */
		w.regs.slot[M7_SLOT_SCS + 1] = 0xFA050000u;
		w.regs.slot[M7_SLOT_SCS + 2] = 0x00040200u;
		CHECK_EQ(citcat_ims_write(&w, path, &err), 0);
		CHECK_EQ(citcat_ims_read(path, &r, &err), 0);
		CHECK_EQ(r.regs.slot[M7_SLOT_SCS + 1], 0xFA050000u);
		citcat_ims_fini(&r);
	}
}

int main(void)
{
	char path[] = "/tmp/citcat-test-extract-formats-XXXXXX";
	int fd = mkstemp(path);
	if (fd < 0)
		return 1;
	close(fd);
	test_aes_roundtrip(path);
	test_ims_roundtrip(path);
	test_ims_bad_content(path);
	test_ims_m7_scs(path);
	test_aes_repeat_bound(path);
	test_image_many_adjacent_runs();
	unlink(path);
	CHECK_DONE();
}
