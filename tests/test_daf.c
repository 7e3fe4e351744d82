/* Data-address filtering: the RVU rules (the paper's Table 3 example and the
 * ARM addressing modes of its section 3.2), the writer/decoder round trip in
 * both encodings, the exact bit layout of DAFDiff, and tampering reported
 * at the instruction that consumes the damaged record. */
#include "check.h"
#include "container.h"
#include "daf.h"
#include "daf_rvu.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* One instruction of a hand-made run: PC, word, and its accesses. */
struct insn {
	uint32_t pc, word;
	uint32_t n;
	struct citcat_access acc[4];
};

#define R(a, s) {.addr = (a), .size = (s), .write = 0}
#define W(a, s) {.addr = (a), .size = (s), .write = 1}

/* Steps the RVU over one instruction as the trace module does; returns 1
 * when its data address would be traced. */
static int rvu_step(struct daf_rvu *r, const struct insn *in)
{
	struct daf_step s;
	daf_rvu_begin(r, in->pc, in->word, &s);
	int traced = s.need == DAF_NEED_ADDR || s.need == DAF_NEED_ESCAPE ||
		     (s.need == DAF_NEED_COND && in->n && !s.addr_known);
	daf_rvu_end(r, &s, in->n > 0, in->n ? (uint32_t)in->acc[0].addr : 0);
	return traced;
}

#define V(n) (1u << (n))

/* Table 3: five instructions, all registers invalid at first.
 * MOV R1,#0 / LDR R5,[R2,#5] / ADD R4,R2,R1 / LDR R8,[R2,R1] / MOV R2,R7,
 * with R2 = 0x2000 on the core.  Expected (paper): TDA N, Y, N, N, N;
 * R1.V; R2.V R5.I; R4.V; R8.I; R2.I; the debugger sets R1 = 0,
 * R2 = DA - 5, R4 = R2 + R1. */
static const struct insn table3[] = {
	{0x100, 0xe3a01000, 0, {{0}}},            /* mov r1, #0 */
	{0x104, 0xe5925005, 1, {R(0x2005, 4)}},   /* ldr r5, [r2, #5] */
	{0x108, 0xe0824001, 0, {{0}}},            /* add r4, r2, r1 */
	{0x10c, 0xe7928001, 1, {R(0x2000, 4)}},   /* ldr r8, [r2, r1] */
	{0x110, 0xe1a02007, 0, {{0}}},            /* mov r2, r7 */
};

static void test_table3(void)
{
	struct daf_rvu r;
	daf_rvu_reset(&r);
	static const int tda[5] = {0, 1, 0, 0, 0};
	static const uint32_t valid_after[5] = {V(1), V(1) | V(2), V(1) | V(2) | V(4), V(1) | V(2) | V(4),
						V(1) | V(4)};
	for (int i = 0; i < 5; i++) {
		CHECK(rvu_step(&r, &table3[i]) == tda[i]);
		CHECK(r.valid == valid_after[i]);
	}
	CHECK(r.r[1] == 0);
	CHECK(r.r[4] == 0x2000); /* R4 = R2 + R1, R2 = DA - 5 */
}

static char tmpdir[] = "/tmp/test_daf-XXXXXX";

/* Writes RUN with ENC into a file; returns its path (static). */
static const char *write_run(const struct insn *run, size_t n, int enc, struct citcat_daf_stats *st)
{
	static char path[128];
	snprintf(path, sizeof path, "%s/run%d.daf", tmpdir, enc);
	struct citcat_daf_writer *w;
	CHECK(citcat_daf_writer_open(&w, path, enc) == 0);
	for (size_t i = 0; i < n; i++) {
		int rc = citcat_daf_write(w, run[i].pc, run[i].word, run[i].acc, run[i].n);
		if (rc)
			fprintf(stderr, "write %zu: %s\n", i, citcat_daf_writer_error(w)->msg);
		CHECK(rc == 0);
	}
	if (st)
		*st = *citcat_daf_writer_stats(w);
	CHECK(citcat_daf_writer_close(w) == 0);
	return path;
}

/* Decodes PATH over RUN's flow and compares every access.  Returns the
 * index of the first instruction that failed or differs, or -1 when all
 * match and the end checks pass (-2 when only the end check failed). */
static long decode_run(const char *path, const uint8_t *buf, size_t len, const struct insn *run, size_t n)
{
	struct citcat_daf_decoder *d;
	static struct citcat_itrace_rec rec;
	int rc = buf ? citcat_daf_decoder_open_mem(&d, buf, len) : citcat_daf_decoder_open(&d, path);
	CHECK(rc == 0);
	long bad = -1;
	for (size_t i = 0; i < n && bad < 0; i++) {
		if (citcat_daf_decode(d, run[i].pc, run[i].word, &rec) != 1) {
			bad = (long)i;
			break;
		}
		if (rec.n_acc != run[i].n)
			bad = (long)i;
		for (uint32_t k = 0; bad < 0 && k < rec.n_acc; k++)
			if (rec.acc[k].addr != run[i].acc[k].addr || rec.acc[k].size != run[i].acc[k].size ||
			    rec.acc[k].write != run[i].acc[k].write)
				bad = (long)i;
	}
	if (bad < 0 && citcat_daf_decoder_finish(d) != 0)
		bad = -2;
	citcat_daf_decoder_close(d);
	return bad;
}

static void test_table3_roundtrip(void)
{
	struct citcat_daf_stats st;
	const char *p = write_run(table3, 5, CITCAT_DAF_RAW, &st);
	CHECK(st.loads == 2 && st.loads_traced == 1 && st.stores == 0);
	CHECK(st.records == 1 && st.bits == 32); /* one raw address */
	CHECK(decode_run(p, NULL, 0, table3, 5) == -1);
	p = write_run(table3, 5, CITCAT_DAF_DIFF, &st);
	CHECK(st.bits == 18); /* 0x2005 ^ 0: two 8-bit chunks with their header bits */
	CHECK(decode_run(p, NULL, 0, table3, 5) == -1);
}

/* Section 3.2: offsets, shifts, indexing, multiple transfers, conditions,
 * escapes and the IRQ vector. */
static const struct insn modes[] = {
	/* register offset, no shift: base invalid, offset r1 valid -> traced, r2 recovered */
	{0x200, 0xe3a01010, 0, {{0}}},              /* mov r1, #16 */
	{0x204, 0xe7923001, 1, {R(0x3010, 4)}},     /* ldr r3, [r2, r1]   traced; r2 = 0x3000 */
	{0x208, 0xe7924001, 1, {R(0x3010, 4)}},     /* ldr r4, [r2, r1]   inferred */
	/* base valid, offset invalid (no shift) -> traced, offset recovered */
	{0x20c, 0xe7925006, 1, {R(0x3040, 4)}},     /* ldr r5, [r2, r6]   traced; r6 = 0x40 */
	{0x210, 0xe7825006, 1, {W(0x3040, 4)}},     /* str r5, [r2, r6]   inferred */
	/* offset shifted left (not invertible) -> r7 stays invalid */
	{0x214, 0xe7925107, 1, {R(0x3080, 4)}},     /* ldr r5, [r2, r7, lsl #2] traced */
	{0x218, 0xe7925107, 1, {R(0x3080, 4)}},     /* same: traced again */
	/* auto-indexing (pre, writeback) */
	{0x21c, 0xe5b98004, 1, {R(0x4004, 4)}},     /* ldr r8, [r9, #4]!  traced; r9 = 0x4004 */
	{0x220, 0xe5b98004, 1, {R(0x4008, 4)}},     /* inferred */
	/* post-indexing with an invalid offset register: base invalid afterwards */
	{0x224, 0xe699800a, 1, {R(0x4008, 4)}},     /* ldr r8, [r9], r10  inferred (DA = r9) */
	{0x228, 0xe5998000, 1, {R(0x4108, 4)}},     /* ldr r8, [r9]       traced (r9 invalid) */
	/* halfword and byte, immediate post-index */
	{0x22c, 0xe0d910b2, 1, {R(0x4108, 2)}},     /* ldrh r1, [r9], #2  inferred */
	{0x230, 0xe4c91001, 1, {W(0x410a, 1)}},     /* strb r1, [r9], #1  inferred */
	/* LDRD / STRD */
	{0x234, 0xe1c900d0, 2, {R(0x410b, 4), R(0x410f, 4)}}, /* ldrd r0, r1, [r9] inferred */
	/* STMDB sp!, {r4, lr} with sp invalid: start address traced, sp recovered */
	{0x238, 0xe92d4010, 2, {W(0x7ff8, 4), W(0x7ffc, 4)}},
	/* LDMIA sp!, {r4, r5}: inferred from the recovered sp */
	{0x23c, 0xe8bd0030, 2, {R(0x7ff8, 4), R(0x7ffc, 4)}},
	/* conditional load, not executed then executed (flags never tracked) */
	{0x240, 0x15991000, 0, {{0}}},              /* ldrne r1, [r9]  not executed */
	{0x244, 0x05991000, 1, {R(0x410b, 4)}},     /* ldreq r1, [r9]  executed, address inferred */
	{0x248, 0x05931000, 1, {R(0x5000, 4)}},     /* ldreq r1, [r3]  executed, r3 invalid: traced */
	/* an instruction the RVU does not model: an escape (swp), all invalid */
	{0x24c, 0xe1090091, 2, {R(0x410b, 4), W(0x410b, 4)}}, /* swp r0, r1, [r9] */
	{0x250, 0xe5990000, 1, {R(0x410b, 4)}},     /* ldr r0, [r9]  traced after the escape */
	/* the IRQ vector invalidates everything: r9 was recovered above */
	{0x018, 0xe5990000, 1, {R(0x410b, 4)}},     /* ldr r0, [r9] at 0x18: traced */
	/* PC-relative load: always inferred */
	{0x01c, 0xe59f0004, 1, {R(0x28, 4)}},       /* ldr r0, [pc, #4] */
};
#define NMODES (sizeof modes / sizeof *modes)

static void test_modes(void)
{
	static const int tda[NMODES] = {0, 1, 0, 1, 0, 1, 1, 1, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1, 0};
	struct daf_rvu r;
	daf_rvu_reset(&r);
	for (size_t i = 0; i < NMODES; i++) {
		int t = rvu_step(&r, &modes[i]);
		if (t != tda[i])
			fprintf(stderr, "modes[%zu] at 0x%x: traced %d, want %d\n", i, modes[i].pc, t, tda[i]);
		CHECK(t == tda[i]);
		if (i == 3)
			CHECK((r.valid & V(6)) && r.r[6] == 0x40); /* offset register recovered */
		if (i == 6)
			CHECK(!(r.valid & V(7))); /* lsl #2 is not invertible */
		if (i == 14)
			CHECK((r.valid & V(13)) && r.r[13] == 0x7ff8); /* sp = DA after the push's write-back */
		if (i == 19)
			CHECK(r.valid == 0); /* escape */
	}
	struct citcat_daf_stats st;
	for (int enc = CITCAT_DAF_RAW; enc <= CITCAT_DAF_DIFF; enc++) {
		const char *p = write_run(modes, NMODES, enc, &st);
		CHECK(st.escapes == 1 && st.cond_bits == 3);
		CHECK(decode_run(p, NULL, 0, modes, NMODES) == -1);
	}
}

/* The writer refuses accesses its model of the instruction does not make. */
static void test_model_check(void)
{
	struct citcat_daf_writer *w;
	CHECK(citcat_daf_writer_open(&w, NULL, CITCAT_DAF_DIFF) == 0);
	struct citcat_access a[2] = {R(0x1000, 2)};
	CHECK(citcat_daf_write(w, 0x100, 0xe5912000, a, 1) == CITCAT_ERR_UNSUPPORTED); /* ldr: 4 bytes, not 2 */
	citcat_daf_writer_abort(w);
	CHECK(citcat_daf_writer_open(&w, NULL, CITCAT_DAF_DIFF) == 0);
	CHECK(citcat_daf_write(w, 0x100, 0xe3a01000, a, 1) == CITCAT_ERR_UNSUPPORTED); /* mov makes no access */
	citcat_daf_writer_abort(w);
	CHECK(citcat_daf_writer_open(&w, NULL, 7) == CITCAT_ERR_INVAL);
}

/* ---- tampering ---- */

/* Pointer chasing (ldr r0, [r0]): every address is traced, so the record
 * layout is known: DAFDiff groups of XOR with the previous address. */
#define NCHASE 40
static struct insn chase[NCHASE];

static void make_chase(void)
{
	uint32_t a = 0x10000;
	for (int i = 0; i < NCHASE; i++) {
		chase[i] = (struct insn){.pc = 0x1000 + 4u * (uint32_t)i, .word = 0xe5900000, .n = 1, .acc = {R(a, 4)}};
		a += (uint32_t)(i * 0x3456 + 4);
	}
}

/* Rebuilds the DAF file with chunk payloads changed by EDIT (record
 * payload, its bit length and record count), checksums recomputed. */
struct bits {
	uint8_t b[4096];
	size_t n;
};
static int getb(const struct bits *s, size_t i) { return (s->b[i >> 3] >> (7 - (i & 7))) & 1; }
static void setb(struct bits *s, size_t i, int v)
{
	s->b[i >> 3] = (uint8_t)((s->b[i >> 3] & ~(0x80 >> (i & 7))) | (v ? 0x80 >> (i & 7) : 0));
}

static uint8_t *rewrite(const char *path, void (*edit)(struct bits *, uint32_t *nrec, long arg), long arg,
			size_t *len)
{
	struct cc_reader *r;
	struct cc_writer *w;
	char out[160];
	snprintf(out, sizeof out, "%s/tampered.daf", tmpdir);
	CHECK(cc_reader_open(&r, path, NULL, CITCAT_DAF_VERSION) == 0);
	uint32_t mlen;
	const uint8_t *m = cc_reader_meta(r, &mlen);
	uint8_t meta[8];
	CHECK(mlen == sizeof meta);
	memcpy(meta, m, sizeof meta);
	unsigned version = cc_reader_version(r);
	if (edit == NULL) { /* restamp: version ARG >> 8, ISA byte ARG & 0xff */
		version = (unsigned)arg >> 8;
		meta[0] = (uint8_t)arg;
	}
	CHECK(cc_writer_open(&w, out, cc_reader_magic(r), (uint16_t)version, meta, mlen, 1 << 16) == 0);
	const uint8_t *p;
	size_t n;
	uint32_t nrec;
	while (cc_reader_next_chunk(r, &p, &n, &nrec) == 1) {
		static struct bits s;
		CHECK(n <= sizeof s.b);
		memset(&s, 0, sizeof s);
		memcpy(s.b, p, n);
		s.n = 8 * n;
		if (nrec && edit)
			edit(&s, &nrec, arg);
		size_t nb = (s.n + 7) / 8;
		uint8_t *q = cc_writer_reserve(w, nb);
		CHECK(q != NULL);
		memcpy(q, s.b, nb);
		cc_writer_commit(w, nb, nrec);
		CHECK(cc_writer_flush(w) == 0);
	}
	cc_reader_close(r);
	CHECK(cc_writer_close(w) == 0);
	FILE *f = fopen(out, "rb");
	CHECK(f != NULL);
	uint8_t *buf = malloc(1 << 16);
	*len = fread(buf, 1, 1 << 16, f);
	fclose(f);
	remove(out);
	return buf;
}

/* Bit position of record K's first group in the chunk (after the 9-bit
 * first-instruction field). */
static size_t record_pos(long k)
{
	size_t pos = 9;
	uint32_t prev = 0;
	for (long i = 0; i < k; i++) {
		uint32_t x = (uint32_t)chase[i].acc[0].addr ^ prev;
		prev = (uint32_t)chase[i].acc[0].addr;
		do {
			pos += 9;
			x >>= 8;
		} while (x);
	}
	return pos;
}

static void flip_header(struct bits *s, uint32_t *nrec, long k)
{
	size_t pos = record_pos(k);
	setb(s, pos, !getb(s, pos));
}

static void drop_record(struct bits *s, uint32_t *nrec, long k)
{
	size_t from = record_pos(k), to = record_pos(k + 1);
	static struct bits t;
	memset(&t, 0, sizeof t);
	size_t j = 0;
	for (size_t i = 0; i < s->n; i++)
		if (i < from || i >= to)
			setb(&t, j++, getb(s, i));
	(void)j;
	t.n = record_pos(NCHASE) - (to - from); /* the records' bits; the writer pads with zeros */
	*s = t;
	(*nrec)--;
}

static void test_tamper(void)
{
	make_chase();
	const char *p = write_run(chase, NCHASE, CITCAT_DAF_DIFF, NULL);
	CHECK(decode_run(p, NULL, 0, chase, NCHASE) == -1);
	for (long k = 0; k < NCHASE; k += 7) {
		size_t len;
		uint8_t *buf = rewrite(p, flip_header, k, &len);
		long at = decode_run(NULL, buf, len, chase, NCHASE);
		if (at != k)
			fprintf(stderr, "flipped header bit of record %ld reported at %ld\n", k, at);
		CHECK(at == k);
		free(buf);
		buf = rewrite(p, drop_record, k, &len);
		at = decode_run(NULL, buf, len, chase, NCHASE);
		if (at != k)
			fprintf(stderr, "dropped record %ld reported at %ld\n", k, at);
		CHECK(at == k);
		free(buf);
	}
	/* with no ground truth, a dropped record still fails: the flow runs out of records */
	size_t len;
	uint8_t *buf = rewrite(p, drop_record, 5, &len);
	struct citcat_daf_decoder *d;
	static struct citcat_itrace_rec rec;
	CHECK(citcat_daf_decoder_open_mem(&d, buf, len) == 0);
	int rc = 1;
	long i;
	for (i = 0; i < NCHASE && rc == 1; i++)
		rc = citcat_daf_decode(d, chase[i].pc, chase[i].word, &rec);
	CHECK(rc == CITCAT_ERR_CORRUPT && i == NCHASE);
	CHECK(strstr(citcat_daf_decoder_error(d)->msg, "instruction 39 at 0x0000109c") != NULL);
	citcat_daf_decoder_close(d);
	free(buf);
}

/* ---- T32 (DAF.md, "T32") ---- */

struct tinsn {
	uint32_t pc, word;
	uint8_t size, thumb;
	uint32_t n;
	struct citcat_access acc[4];
};

/* A Thumb run worked out by hand (r2 = 0x3000 and sp = 0x8000 on the core;
 * every register invalid at first). */
static const struct tinsn trun[] = {
	{0x200, 0x2140, 2, 1, 0, {{0}}},                            /* movs r1, #0x40       r1 valid */
	{0x202, 0x4a02, 2, 1, 1, {R(0x20c, 4)}},                    /* ldr r2, [pc, #8]     Align(0x206, 4) + 8: inferred */
	{0x204, 0x6853, 2, 1, 1, {R(0x3004, 4)}},                   /* ldr r3, [r2, #4]     r2 loaded: traced, r2 recovered */
	{0x206, 0x4001f852, 4, 1, 1, {R(0x3040, 4)}},               /* ldr.w r4, [r2, r1]   inferred */
	{0x20a, 0xbf08, 2, 1, 0, {{0}}},                            /* it eq */
	{0x20c, 0x6815, 2, 1, 0, {{0}}},                            /* ldreq r5, [r2]       condition failed: executed bit 0 */
	{0x20e, 0x6702e9d2, 4, 1, 2, {R(0x3008, 4), R(0x300c, 4)}}, /* ldrd r6, r7, [r2, #8]  inferred */
	{0x212, 0xb510, 2, 1, 2, {W(0x7ff8, 4), W(0x7ffc, 4)}},     /* push {r4, lr}        sp invalid: traced, recovered */
	{0x214, 0xbd10, 2, 1, 2, {R(0x7ff8, 4), R(0x7ffc, 4)}},     /* pop {r4, pc}         inferred; sp = 0x8000 */
	{0x300, 0xf001e8df, 4, 1, 1, {R(0x344, 1)}},                /* tbb [pc, r1]         pc + 4 + 0x40 (not aligned): inferred */
	{0x304, 0x9801, 2, 1, 1, {R(0x8004, 4)}},                   /* ldr r0, [sp, #4]     inferred */
	{0x306, 0xf800f000, 4, 1, 0, {{0}}},                        /* bl                   lr = 0x30b */
	{0x30a, 0x0c0bf85e, 4, 1, 1, {R(0x300, 4)}},                /* ldr.w r0, [lr, #-11] inferred */
	{0x018, 0xe5990000, 4, 0, 1, {R(0x410b, 4)}},               /* ARM ldr r0, [r9] at the IRQ vector: traced */
};
#define NTRUN (sizeof trun / sizeof *trun)

static void test_t32(void)
{
	static const int tda[NTRUN] = {0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1};
	struct daf_rvu r;
	daf_rvu_reset(&r);
	for (size_t i = 0; i < NTRUN; i++) {
		struct daf_step st;
		daf_rvu_begin_isa(&r, trun[i].pc, trun[i].word, trun[i].size, trun[i].thumb, &st);
		int t = st.need == DAF_NEED_ADDR || st.need == DAF_NEED_ESCAPE ||
			(st.need == DAF_NEED_COND && trun[i].n && !st.addr_known);
		if (t != tda[i] || (i == 5 && st.need != DAF_NEED_COND))
			fprintf(stderr, "trun[%zu] at 0x%x: traced %d (need %u), want %d\n", i, trun[i].pc, t, st.need, tda[i]);
		CHECK(t == tda[i]);
		CHECK(st.need != DAF_NEED_ESCAPE);
		if (st.addr_known && trun[i].n)
			CHECK(st.addr == trun[i].acc[0].addr);
		daf_rvu_end(&r, &st, trun[i].n > 0, trun[i].n ? (uint32_t)trun[i].acc[0].addr : 0);
		if (i == 2)
			CHECK((r.valid & V(2)) && r.r[2] == 0x3000);
		if (i == 8)
			CHECK((r.valid & V(13)) && r.r[13] == 0x8000 && !(r.valid & V(4)));
		if (i == 11)
			CHECK((r.valid & V(14)) && r.r[14] == 0x30b);
	}
	/* round trip through the file, both encodings, and a version 1 file */
	static char path[128];
	snprintf(path, sizeof path, "%s/run1.daf", tmpdir);
	for (int enc = CITCAT_DAF_RAW; enc <= CITCAT_DAF_DIFF; enc++) {
		struct citcat_daf_writer *w;
		CHECK(citcat_daf_writer_open(&w, path, enc) == 0);
		for (size_t i = 0; i < NTRUN; i++)
			CHECK(citcat_daf_write_isa(w, trun[i].pc, trun[i].word, trun[i].size, trun[i].thumb, trun[i].acc,
						   trun[i].n) == 0);
		CHECK(citcat_daf_writer_stats(w)->cond_bits == 1 && citcat_daf_writer_stats(w)->loads_traced == 2);
		CHECK(citcat_daf_writer_close(w) == 0);
		struct citcat_daf_decoder *d;
		static struct citcat_itrace_rec rec;
		CHECK(citcat_daf_decoder_open(&d, path) == 0);
		for (size_t i = 0; i < NTRUN; i++) {
			CHECK(citcat_daf_decode_isa(d, trun[i].pc, trun[i].word, trun[i].size, trun[i].thumb, &rec) == 1);
			CHECK(rec.n_acc == trun[i].n && rec.size == trun[i].size && rec.thumb == trun[i].thumb);
			for (uint32_t k = 0; k < rec.n_acc && k < trun[i].n; k++)
				CHECK(rec.acc[k].addr == trun[i].acc[k].addr && rec.acc[k].size == trun[i].acc[k].size &&
				      rec.acc[k].write == trun[i].acc[k].write);
		}
		CHECK(citcat_daf_decoder_finish(d) == 0);
		citcat_daf_decoder_close(d);
	}
	/* the same bytes stamped version 1 (A32 rules only): a Thumb instruction is refused */
	size_t len;
	uint8_t *buf = rewrite(path, NULL, 1 << 8 | 1, &len);
	struct citcat_daf_decoder *d;
	static struct citcat_itrace_rec rec;
	CHECK(citcat_daf_decoder_open_mem(&d, buf, len) == 0);
	CHECK(citcat_daf_decode_isa(d, trun[0].pc, trun[0].word, 2, 1, &rec) == CITCAT_ERR_CORRUPT);
	CHECK(strstr(citcat_daf_decoder_error(d)->msg, "version 1") != NULL);
	citcat_daf_decoder_close(d);
	free(buf);
	/* the ISA byte must match the version: 1 in version 2 and 2 in version 1 are refused at offset 16 */
	for (long a = 0; a < 2; a++) {
		buf = rewrite(path, NULL, a ? (1 << 8 | 2) : (2 << 8 | 1), &len);
		CHECK(citcat_daf_decoder_open_mem(&d, buf, len) == CITCAT_ERR_CORRUPT);
		CHECK(citcat_daf_decoder_error(d)->offset == 16);
		citcat_daf_decoder_close(d);
		free(buf);
	}
}

/* A version 1 file (A32 only, as citcat wrote before Thumb) still decodes;
 * its A32 BLX (immediate) stays an escape there, as version 1 wrote it. */
static void test_version1(void)
{
	const char *p = write_run(table3, 5, CITCAT_DAF_DIFF, NULL);
	size_t len;
	uint8_t *buf = rewrite(p, NULL, 1 << 8 | 1, &len);
	CHECK(decode_run(NULL, buf, len, table3, 5) == -1);
	free(buf);
	struct daf_rvu r;
	struct daf_step st;
	daf_rvu_reset(&r);
	daf_rvu_begin(&r, 0x100, 0xfa000010, &st); /* blx #imm */
	CHECK(st.need == DAF_NEED_ESCAPE);
	r.blx_imm = 1;
	daf_rvu_begin(&r, 0x100, 0xfa000010, &st);
	CHECK(st.need == DAF_NEED_NONE && (r.valid & V(14)) && r.r[14] == 0x104);
}

/* ---- the Cortex-M7 (DAF.md, "The Cortex-M7") ---- */

/* Four Thumb instructions and two exception entries, all registers invalid
 * at first, SP = 0x20001004 and VTOR = 0 on the core:
 *   0  0x100 push {r4, lr}   writes 0x20000ffc, 0x20001000: SP unknown, so
 *                            the address is traced; it gives SP = 0x20000ffc
 *   E1 SysTick (15)          SP bit 2 is set, so the frame is
 *                            (0x20000ffc - 0x20) & ~4 = 0x20000fd8: eight
 *                            writes 0x20000fd8..0x20000ff4, derived from SP;
 *                            VTOR unknown: the vector address 0x3c is traced
 *                            (VTOR = 0x3c - 4 * 15 = 0 from then on); from
 *                            thread mode, so SP and LR become invalid
 *   1  0x200 bx lr           in handler mode: a return record, returned;
 *                            SP invalid, so the frame address is traced;
 *                            eight reads 0x20000fd8..0x20000ff4
 *   2  0x102 push {r4, lr}   SP invalid after the return: traced again
 *   E2 PendSV (14)           frame derived from SP, vector 0x38 from VTOR:
 *                            no address at all
 *   3  0x200 bx lr           as 1
 * The record chunk, raw encoding, worked by hand (DAF.md, Chunks):
 *   first 0            1 00000000
 *   nexc 2             1 00000010
 *   E1 at boundary 1   1 00000001  001111     (delta 1, exception 15)
 *   E2 at boundary 3   1 00000010  001110     (delta 2, exception 14)
 *   insn 0             0x20000ffc (32 bits)
 *   E1                 0 (no correction) 1 (modelled) 0x0000003c
 *   insn 1             1 (returned) 0x20000fd8
 *   insn 2             0x20000ffc
 *   E2                 0 1
 *   insn 3             1 0x20000fd8
 * 214 bits, 2 bits of padding: 27 bytes, 6 records. */
static const uint8_t m7_payload[27] = {0x80, 0x40, 0xa0, 0x27, 0xc0, 0x8e, 0x20, 0x00, 0x0f, 0xfc, 0x40, 0x00, 0x00, 0x0f,
				       0x24, 0x00, 0x01, 0xfb, 0x04, 0x00, 0x01, 0xff, 0x8c, 0x80, 0x00, 0x3f, 0x60};

struct m7ev {
	int exc; /* 0: an instruction */
	uint32_t pc, word;
	unsigned size, n;
	struct citcat_access acc[10];
};

#define FRAME_W(f) W(f, 4), W(f + 4, 4), W(f + 8, 4), W(f + 12, 4), W(f + 16, 4), W(f + 20, 4), W(f + 24, 4), W(f + 28, 4)
#define FRAME_R(f) R(f, 4), R(f + 4, 4), R(f + 8, 4), R(f + 12, 4), R(f + 16, 4), R(f + 20, 4), R(f + 24, 4), R(f + 28, 4)

static const struct m7ev m7run[] = {
	{0, 0x100, 0xb510, 2, 2, {W(0x20000ffc, 4), W(0x20001000, 4)}},
	{15, 0, 0, 0, 9, {FRAME_W(0x20000fd8), R(0x3c, 4)}},
	{0, 0x200, 0x4770, 2, 8, {FRAME_R(0x20000fd8)}},
	{0, 0x102, 0xb510, 2, 2, {W(0x20000ffc, 4), W(0x20001000, 4)}},
	{14, 0, 0, 0, 9, {FRAME_W(0x20000fd8), R(0x38, 4)}},
	{0, 0x200, 0x4770, 2, 8, {FRAME_R(0x20000fd8)}},
};
#define NM7 (sizeof m7run / sizeof *m7run)

static const char *write_m7(const struct m7ev *run, size_t n, int enc)
{
	static char path[160];
	snprintf(path, sizeof path, "%s/m7.daf", tmpdir);
	struct citcat_daf_writer *w;
	CHECK(citcat_daf_writer_open_isa(&w, path, enc, 1) == 0);
	for (size_t i = 0; i < n; i++) {
		int rc = run[i].exc ? citcat_daf_write_entry(w, (unsigned)run[i].exc, run[i].acc, run[i].n)
				    : citcat_daf_write_isa(w, run[i].pc, run[i].word, run[i].size, 1, run[i].acc, run[i].n);
		if (rc)
			fprintf(stderr, "m7 write %zu: %s\n", i, citcat_daf_writer_error(w)->msg);
		CHECK(rc == 0);
	}
	CHECK(citcat_daf_writer_stats(w)->entries == 2 && citcat_daf_writer_stats(w)->returns == 2);
	CHECK(citcat_daf_writer_close(w) == 0);
	return path;
}

/* Decodes RUN's flow (its instructions) from BUF; checks every instruction
 * and entry; returns 0, or the first error code. */
static int decode_m7(const uint8_t *buf, size_t len, const struct m7ev *run, size_t n, struct citcat_daf_decoder **out)
{
	static struct citcat_itrace_rec rec, ent;
	struct citcat_daf_decoder *d;
	int rc = citcat_daf_decoder_open_mem(&d, buf, len);
	*out = d;
	if (rc)
		return rc;
	CHECK(citcat_daf_decoder_m7(d) == 1);
	size_t i = 0;
	for (;;) {
		while ((rc = citcat_daf_decode_entry(d, &ent, NULL)) == 1) {
			CHECK(i < n && run[i].exc == ent.line && ent.n_acc == run[i].n);
			for (unsigned k = 0; i < n && k < ent.n_acc && k < run[i].n; k++)
				CHECK(ent.acc[k].addr == run[i].acc[k].addr && ent.acc[k].write == run[i].acc[k].write);
			i++;
		}
		if (rc < 0)
			return rc;
		if (i == n)
			break;
		CHECK(run[i].exc == 0);
		if ((rc = citcat_daf_decode_isa(d, run[i].pc, run[i].word, run[i].size, 1, &rec)) != 1)
			return rc;
		CHECK(rec.n_acc == run[i].n);
		for (unsigned k = 0; k < rec.n_acc && k < run[i].n; k++)
			CHECK(rec.acc[k].addr == run[i].acc[k].addr && rec.acc[k].write == run[i].acc[k].write &&
			      rec.acc[k].size == run[i].acc[k].size);
		i++;
	}
	return citcat_daf_decoder_finish(d);
}

static void edit_exc(struct bits *s, uint32_t *nrec, long arg)
{
	(void)nrec;
	for (int k = 0; k < 6; k++) /* E1's exception number, bits 27..32 of the payload */
		setb(s, 27 + (size_t)k, (int)((arg >> (5 - k)) & 1));
}

static void test_m7(void)
{
	const char *p = write_m7(m7run, NM7, CITCAT_DAF_RAW);
	/* the bytes: the container's first chunk holds the payload worked out above */
	struct cc_reader *r;
	const uint8_t *q;
	size_t n;
	uint32_t nrec;
	CHECK(cc_reader_open(&r, p, NULL, CITCAT_DAF_VERSION) == 0);
	uint32_t mlen;
	const uint8_t *m = cc_reader_meta(r, &mlen);
	CHECK(cc_reader_version(r) == 3 && mlen == 8 && m[0] == 3 && m[1] == CITCAT_DAF_RAW && (m[4] | m[5] | m[6] | m[7]) == 0);
	CHECK(cc_reader_next_chunk(r, &q, &n, &nrec) == 1);
	CHECK(nrec == 6 && n == sizeof m7_payload && memcmp(q, m7_payload, n) == 0);
	CHECK(cc_reader_next_chunk(r, &q, &n, &nrec) == 1);
	CHECK(nrec == 0 && n == 2 && q[0] == 0x82 && q[1] == 0x00); /* the end chunk: 4 instructions */
	cc_reader_close(r);
	/* the decoder rebuilds every access, in both encodings */
	size_t len;
	struct citcat_daf_decoder *d;
	uint8_t *buf = rewrite(p, NULL, 3 << 8 | 3, &len);
	CHECK(decode_m7(buf, len, m7run, NM7, &d) == 0);
	CHECK(citcat_daf_decoder_stats(d)->entries == 2 && citcat_daf_decoder_stats(d)->returns == 2);
	citcat_daf_decoder_close(d);
	free(buf);
	p = write_m7(m7run, NM7, CITCAT_DAF_DIFF);
	buf = rewrite(p, NULL, 3 << 8 | 3, &len);
	CHECK(decode_m7(buf, len, m7run, NM7, &d) == 0);
	citcat_daf_decoder_close(d);
	free(buf);
	/* E1 numbered 1 (not an exception an entry can have): refused when the
	 * chunk is opened, at the byte of the payload holding that field */
	p = write_m7(m7run, NM7, CITCAT_DAF_RAW);
	buf = rewrite(p, edit_exc, 1, &len);
	CHECK(decode_m7(buf, len, m7run, NM7, &d) == CITCAT_ERR_CORRUPT);
	CHECK(strstr(citcat_daf_decoder_error(d)->msg, "has number 1") != NULL);
	/* the chunk's file offset (a 16-byte header, 8 bytes of metadata, 4, the
	 * chunk header's 24) and the payload byte: bits 32..39 hold the number's end */
	CHECK(citcat_daf_decoder_error(d)->offset == 52);
	CHECK(strstr(citcat_daf_decoder_error(d)->msg, "payload byte 4 of the chunk at file offset 52") != NULL);
	citcat_daf_decoder_close(d);
	free(buf);
	/* ISA 3 in a version 2 file, and a non-zero vector field: refused at their offsets */
	buf = rewrite(p, NULL, 2 << 8 | 3, &len);
	CHECK(citcat_daf_decoder_open_mem(&d, buf, len) == CITCAT_ERR_CORRUPT);
	CHECK(citcat_daf_decoder_error(d)->offset == 16);
	citcat_daf_decoder_close(d);
	free(buf);
	/* the writer: an entry on an ARMv7-A writer, an ARM-state instruction on the M7's */
	struct citcat_daf_writer *w;
	CHECK(citcat_daf_writer_open(&w, NULL, CITCAT_DAF_DIFF) == 0);
	CHECK(citcat_daf_write_entry(w, 15, m7run[1].acc, 9) == CITCAT_ERR_INVAL);
	citcat_daf_writer_abort(w);
	CHECK(citcat_daf_writer_open_isa(&w, NULL, CITCAT_DAF_DIFF, 1) == 0);
	CHECK(citcat_daf_write(w, 0x100, 0xe3a01000, NULL, 0) == CITCAT_ERR_INVAL);
	citcat_daf_writer_abort(w);
}

static void test_bad_files(void)
{
	struct citcat_daf_decoder *d;
	CHECK(citcat_daf_decoder_open_mem(&d, "", 0) == CITCAT_ERR_EMPTY);
	citcat_daf_decoder_close(d);
	CHECK(citcat_daf_decoder_open_mem(&d, "CITR\r\n\x1a\n", 8) == CITCAT_ERR_MAGIC);
	citcat_daf_decoder_close(d);
	/* flow longer than the file's instruction count */
	const char *p = write_run(table3, 3, CITCAT_DAF_DIFF, NULL);
	CHECK(decode_run(p, NULL, 0, table3, 5) == -2);
	CHECK(decode_run(p, NULL, 0, table3, 2) == -2);
	CHECK(decode_run(p, NULL, 0, table3, 3) == -1);
}

int main(void)
{
	CHECK(mkdtemp(tmpdir) != NULL);
	test_table3();
	test_table3_roundtrip();
	test_modes();
	test_model_check();
	test_tamper();
	test_t32();
	test_version1();
	test_bad_files();
	test_m7();
	char path[160];
	snprintf(path, sizeof path, "%s/m7.daf", tmpdir);
	remove(path);
	for (int e = 1; e <= 2; e++) {
		snprintf(path, sizeof path, "%s/run%d.daf", tmpdir, e);
		remove(path);
	}
	rmdir(tmpdir);
	CHECK_DONE();
}
