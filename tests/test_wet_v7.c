/* WET version 7 (WET.md "Segment blocks", "Version changes"):
 *  1. The register model, on runs worked by hand: the producers an
 *     instance gets from its statements alone (local and non-local alike),
 *     the writers from before a segment (coded at the segment's first read
 *     of each register, none when never written), an A-target interrupt
 *     entry (SPSR_irq takes the flags' writer, LR_irq has none), a
 *     condition that failed (the flags alone), memory producers merged
 *     nearest first, and on the Cortex-M7 a fault at the last instance
 *     (its writes undone) and an exception return to the PSP (R0-R3, R12,
 *     LR, the flags, the PSP defined).  Each run is coded, decoded, and
 *     both sides must give the hand-worked producers.
 *  2. Files: a version 6 header is refused at offset 8 naming the version;
 *     a bad magic, header checksum and reserved bytes are refused at their
 *     bytes.
 *  3. With a WET given (test_wet_v7 FLAGGED.wet: a fuzz seed, one flag
 *     byte then the file): it opens and replays (a walk with accesses); a
 *     segment's record hash changed (and the index resealed) makes the
 *     replay walk fail naming that segment at its node block's offset; a
 *     byte of the embedded IMS changed is refused at the IMS's offset
 *     (checksum), and with the IMS's hash resealed the replayer's own
 *     error comes back naming the embedded IMS. */
#include "bytes.h"
#include "segcode.h"
#include <citcat/wet.h>
#include "wet_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#define REQ(c, ...) do { if (!(c)) { fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #c); \
	fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); exit(1); } } while (0)

struct step {        /* an instance, or an entry (stmt < 0: -line) */
	int stmt;
	int passed;
	uint32_t bank;
	unsigned excret;
	uint64_t mem[2]; /* memory producers, INDEX + 1 (0: none) */
	uint64_t want[8]; /* the hand-worked producers, nearest first, INDEX + 1 (0 ends) */
};

static struct wet_stmt st[16];
static struct wet_node nd[4];

static void stmt(struct wet_decoder *dec, int i, uint32_t pc, uint32_t word, int thumb)
{
	struct wet_stmt *s = &st[i];
	memset(s, 0, sizeof *s);
	s->pc = pc;
	s->word = word;
	s->isa = thumb ? (word >> 16 ? WET_ISA_T32 : WET_ISA_T16) : WET_ISA_A32;
	wet_decode_isa(dec, pc, word, wet_isa_size(s->isa), thumb, 0, &s->du);
	s->conditional = s->du.cond != 14 && s->du.cond != 15;
	s->load = 1; /* memory producers may be coded for every instance here */
}

/* Codes STEPS (N of them) as a segment from FIRST with the true writers
 * before it TRUTH[], decodes it, and checks both against the hand-worked
 * producers. */
static void run(const char *name, int m7, uint64_t first, const uint64_t *truth, const struct step *steps, unsigned n)
{
	struct wet_sc e, d;
	REQ(wet_sc_open(&e, 1, m7) == 0 && wet_sc_tables(&e, st, 16, nd, 4) == 0, "open");
	REQ(wet_sc_open(&d, 0, m7) == 0 && wet_sc_tables(&d, st, 16, nd, 4) == 0, "open");
	memcpy(e.rm.w, truth, sizeof e.rm.w);
	REQ(wet_sc_begin(&e, first, 64) == 0, "begin");
	uint64_t got[64][8];
	uint32_t ngot[64];
	uint64_t index = first;
	for (int pass = 0; pass < 2; pass++) {
		struct wet_sc *sc = pass ? &d : &e;
		index = first;
		for (unsigned i = 0; i < n; i++) {
			const struct step *s = &steps[i];
			if (s->stmt < 0) {
				struct wet_node x = {WET_NODE_IRQ, (uint8_t)-s->stmt, st[steps[i - 1].stmt].pc, 0, 0};
				wet_sc_irq(sc, &x, NULL);
				continue;
			}
			uint64_t prod[256], par;
			uint32_t np, nmem = 0;
			int need = 0;
			while (nmem < 2 && s->mem[nmem])
				nmem++;
			REQ(wet_sc_insn(sc, (uint32_t)s->stmt, index, s->passed, s->bank, s->excret, 0, s->mem, nmem, 0, prod,
					&np, &par, &need) == 0, "%s: instance %llu: %s", name, (unsigned long long)index,
			    sc->why ? sc->why : "encoder");
			if (pass == 0) {
				memcpy(got[i], prod, np * sizeof prod[0]);
				ngot[i] = np;
			} else {
				REQ(np == ngot[i] && !memcmp(prod, got[i], np * sizeof prod[0]), "%s: instance %llu decodes otherwise",
				    name, (unsigned long long)index);
			}
			uint32_t nw = 0;
			while (nw < 8 && s->want[nw])
				nw++;
			REQ(np == nw, "%s: instance %llu has %u producers, hand-worked %u", name, (unsigned long long)index, np, nw);
			for (uint32_t k = 0; k < np; k++)
				REQ(prod[k] == s->want[k] - 1, "%s: instance %llu: producer %u is %llu, hand-worked %llu", name,
				    (unsigned long long)index, k, (unsigned long long)prod[k], (unsigned long long)s->want[k] - 1);
			index++;
		}
		if (!pass) {
			REQ(wet_sc_finish(&e) == 0, "finish");
			REQ(wet_sc_begin(&d, first, 64) == 0, "begin");
			for (unsigned k = 0; k < WET_NBLOCKS; k++)
				REQ(wet_rc_dec_init(&d.rc[k], e.rc[k].buf, e.rc[k].n) == 0, "block");
		}
	}
	REQ(!wet_sc_overrun(&d), "%s: overrun", name);
	wet_sc_close(&e);
	wet_sc_close(&d);
	printf("%s: %u records, producers as worked by hand, both ways\n", name, n);
}

/* A WET header of VERSION with its checksum. */
static void header(uint8_t *h, unsigned version)
{
	memset(h, 0, 96);
	memcpy(h, WET_MAGIC, 8);
	cc_put16(h + 8, (uint16_t)version);
	cc_put32(h + 12, XXH32(h, 12, 0));
}

static void refused(const char *name, const uint8_t *b, size_t n, int code, uint64_t off, const char *msg)
{
	struct citcat_wet *w;
	int rc = citcat_wet_open_mem(&w, b, n);
	const struct citcat_errinfo *e = citcat_wet_error(w);
	REQ(rc == code && e->offset == off && strstr(e->msg, msg), "%s: code %d offset %llu '%s'", name, rc,
	    (unsigned long long)e->offset, e->msg);
	printf("%s: refused at offset %llu: %s\n", name, (unsigned long long)off, e->msg);
	citcat_wet_close(w);
}

static int count_cb(void *ctx, const struct citcat_wet_insn *in)
{
	(*(uint64_t *)ctx)++;
	return 0;
}

static uint8_t *slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	REQ(f != NULL, "cannot open %s", path);
	static uint8_t buf[1 << 20];
	*n = fread(buf, 1, sizeof buf, f);
	fclose(f);
	uint8_t *b = malloc(*n);
	REQ(b && *n > 1, "%s", path);
	memcpy(b, buf + 1, --*n); /* the flag byte */
	return b;
}

/* The index's and footer's hashes after an edit of the file B (N bytes). */
static void reseal(uint8_t *b, size_t n)
{
	uint8_t *f = b + n - 64;
	uint64_t ioff = cc_get64(f + 16), ilen = cc_get64(f + 24);
	cc_put64(f + 40, XXH64(b + ioff, ilen, 0));
	cc_put32(f + 56, XXH32(f, 56, 0));
}

/* A walk with accesses over B: its code and error. */
static int replay_walk(const uint8_t *b, size_t n, uint64_t *seen, struct citcat_errinfo *e)
{
	struct citcat_wet *w;
	int rc = citcat_wet_open_mem(&w, b, n);
	*seen = 0;
	if (!rc) {
		struct citcat_wet_walk wk = {.what = CITCAT_WET_W_ACC, .from = 0, .to = UINT64_MAX, .cb = count_cb, .ctx = seen};
		rc = citcat_wet_walk(w, &wk);
	}
	*e = *citcat_wet_error(w);
	citcat_wet_close(w);
	return rc;
}

static void files(const char *path)
{
	size_t n;
	uint8_t *b = slurp(path, &n), *c = malloc(n);
	REQ(c != NULL, "out of memory");
	uint64_t seen;
	struct citcat_errinfo e;
	int rc = replay_walk(b, n, &seen, &e);
	REQ(rc == 0 && seen > 0, "%s: the replay walk: %d %s", path, rc, e.msg);
	const uint8_t *x = b + cc_get64(b + n - 64 + 16);
	uint32_t ns = cc_get32(x + 24);
	REQ(ns >= 2, "%s: %u segments, the test wants 2 or more", path, ns);
	/* segment 1's record hash */
	memcpy(c, b, n);
	uint8_t *e1 = c + (x - b) + 96 + WET_SEG_ENTRY;
	cc_put64(e1 + 32, cc_get64(e1 + 32) ^ 1);
	reseal(c, n);
	rc = replay_walk(c, n, &seen, &e);
	REQ(rc == CITCAT_ERR_CORRUPT && strstr(e.msg, "does not reproduce segment 1") && e.offset == cc_get64(e1 + 40),
	    "a changed record hash: %d at %llu '%s'", rc, (unsigned long long)e.offset, e.msg);
	printf("record hash of segment 1 changed: refused at offset %llu: %s\n", (unsigned long long)e.offset, e.msg);
	/* a byte of the embedded IMS: its checksum, then the replayer */
	uint64_t ims = cc_get64(x + 32), imsn = cc_get64(x + 40);
	memcpy(c, b, n);
	c[ims + imsn / 2] ^= 0x40;
	rc = replay_walk(c, n, &seen, &e);
	REQ(rc == CITCAT_ERR_CHECKSUM && e.offset == ims && strstr(e.msg, "embedded IMS"), "a changed IMS: %d at %llu '%s'", rc,
	    (unsigned long long)e.offset, e.msg);
	printf("a byte of the embedded IMS changed: refused at offset %llu: %s\n", (unsigned long long)e.offset, e.msg);
	uint8_t *cx = c + (x - b);
	cc_put64(cx + 48, XXH64(c + ims, imsn, 0));
	reseal(c, n);
	rc = replay_walk(c, n, &seen, &e);
	REQ(rc != 0 && strstr(e.msg, "embedded IMS") && e.offset >= ims && e.offset < ims + imsn,
	    "a changed IMS, resealed: %d at %llu '%s'", rc, (unsigned long long)e.offset, e.msg);
	printf("the same, its hash resealed: the replayer refuses it at offset %llu: %s\n", (unsigned long long)e.offset, e.msg);
	free(b);
	free(c);
}

int main(int argc, char **argv)
{
	struct wet_decoder *dec;
	REQ(wet_decoder_open(&dec) == 0, "capstone");
	/* A32 statements */
	stmt(dec, 0, 0x1000, 0xe3a00001, 0); /* mov r0, #1 */
	stmt(dec, 1, 0x1004, 0xe0801000, 0); /* add r1, r0, r0 */
	stmt(dec, 2, 0x1008, 0xe0802001, 0); /* add r2, r0, r1 */
	stmt(dec, 3, 0x100c, 0xe1530002, 0); /* cmp r3, r2 */
	stmt(dec, 4, 0x1010, 0x03a04002, 0); /* moveq r4, #2 */
	stmt(dec, 5, 0x1014, 0xe5913004, 0); /* ldr r3, [r1, #4] */
	stmt(dec, 6, 0x2000, 0xe14f0000, 0); /* mrs r0, spsr */
	stmt(dec, 7, 0x2004, 0xe1a0000e, 0); /* mov r0, lr */
	stmt(dec, 8, 0x2008, 0xe1a0000d, 0); /* mov r0, sp */
	/* Thumb statements for the M7 */
	stmt(dec, 9, 0x3000, 0x2001, 1);  /* movs r0, #1 */
	stmt(dec, 10, 0x3002, 0x1c41, 1); /* adds r1, r0, #1 */
	stmt(dec, 11, 0x3004, 0x4770, 1); /* bx lr */
	stmt(dec, 12, 0x3006, 0x4668, 1); /* mov r0, sp */
	stmt(dec, 13, 0x3008, 0x4603, 1); /* mov r3, r0 */
	stmt(dec, 14, 0x300a, 0x460a, 1); /* mov r2, r1 */
	uint64_t none[WET_NPHYS] = {0};
	/* INDEX 0 mov r0: none; 1 add r1: r0 <- 0; 2 add r2: r1 <- 1, r0 <- 0;
	 * 3 cmp r3, r2: r2 <- 2 (r3 never written); 4 moveq (failed): the
	 * flags <- 3; 5 ldr r3: r1 <- 1, the word <- memory producer 2 (the
	 * instance that also wrote r2 counts once: 2, 1) */
	const struct step a[] = {
		{0, 1, 1, 0, {0}, {0}},
		{1, 1, 1, 0, {0}, {1}},
		{2, 1, 1, 0, {0}, {2, 1}},
		{3, 1, 1, 0, {0}, {3}},
		{4, 0, 1, 0, {0}, {4}},
		{5, 1, 1, 0, {3, 2}, {3, 2}},
		/* an interrupt: SPSR_irq <- the flags' writer (3), LR_irq none;
		 * 6 mrs r0, spsr in IRQ mode: SPSR_irq <- 3; 7 mov r0, lr: none;
		 * 8 mov r0, sp: SP_irq, never written: none */
		{-5, 0, 0, 0, {0}, {0}},
		{6, 1, 2, 0, {0}, {4}},
		{7, 1, 2, 0, {0}, {0}},
		{8, 1, 2, 0, {0}, {0}},
	};
	run("A target, from reset", 0, 0, none, a, sizeof a / sizeof a[0]);
	/* the same run from INDEX 1000 with writers before the segment: r3 by
	 * 900 (the cmp reads it), SP_irq by 950 (IRQ mode is bank 2: physical
	 * 17), the flags by 998 (the moveq still reads the cmp's at 1003) */
	uint64_t tr[WET_NPHYS] = {0};
	tr[3] = 901;
	tr[17] = 951;
	tr[25] = 999;
	const struct step b[] = {
		{0, 1, 1, 0, {0}, {0}},
		{1, 1, 1, 0, {0}, {1001}},
		{2, 1, 1, 0, {0}, {1002, 1001}},
		{3, 1, 1, 0, {0}, {1003, 901}},
		{4, 0, 1, 0, {0}, {1004}},
		{5, 1, 1, 0, {0}, {1002}},
		{-5, 0, 0, 0, {0}, {0}},
		{6, 1, 2, 0, {0}, {1004}},
		{7, 1, 2, 0, {0}, {0}},
		{8, 1, 2, 0, {0}, {951}},
	};
	run("A target, a later segment", 0, 1000, tr, b, sizeof b / sizeof b[0]);
	/* Cortex-M7: 0 movs r0, #1; 1 adds r1, r0 (r0 <- 0); a UsageFault
	 * (exception 6) taken at 1 (EPC its PC): its write of r1 and the flags
	 * is undone; 2 mov r2, r1 in the handler: r1 never written (the undone
	 * write does not count); 3 mov r3, r0: r0 <- 0; 4 adds r1, r0: r0 <- 0;
	 * 5 bx lr, an exception return to the PSP: reads LR (the entry's:
	 * none), defines R0-R3, R12, LR, the flags, the PSP; 6 mov r0, sp in
	 * thread mode on the PSP: PSP <- 5; 7 mov r3, r0: r0 <- 6 */
	uint64_t m7t[WET_NPHYS] = {0};
	const struct step c[] = {
		{9, 1, 0, 0, {0}, {0}},
		{10, 1, 0, 0, {0}, {1}},
		{-6, 0, 0, 0, {0}, {0}},
		{14, 1, 0, 0, {0}, {0}},
		{13, 1, 0, 0, {0}, {1}},
		{10, 1, 0, 0, {0}, {1}},
		{11, 1, 0, 2, {0}, {0}},
		{12, 1, 1, 0, {0}, {6}},
		{13, 1, 1, 0, {0}, {7}},
	};
	/* the fault's EPC is the PC of the instance before it (stmt 10) */
	run("Cortex-M7: a fault undone, an exception return to the PSP", 1, 0, m7t, c, sizeof c / sizeof c[0]);
	wet_decoder_close(dec);

	/* files */
	uint8_t h[96];
	header(h, 6);
	refused("version 6", h, sizeof h, CITCAT_ERR_VERSION, 8, "WET version 6");
	header(h, 7);
	h[3] ^= 1;
	refused("bad magic", h, sizeof h, CITCAT_ERR_MAGIC, 0, "not a WET");
	header(h, 7);
	h[12] ^= 1;
	refused("header checksum", h, sizeof h, CITCAT_ERR_CHECKSUM, 12, "checksum");
	header(h, 7);
	h[10] = 1;
	cc_put32(h + 12, XXH32(h, 12, 0));
	refused("reserved header bytes", h, sizeof h, CITCAT_ERR_CORRUPT, 10, "reserved");
	header(h, 7);
	refused("no footer", h, sizeof h, CITCAT_ERR_TRUNCATED, 96 - 64 + 48, "no footer");
	if (argc > 1)
		files(argv[1]);
	return 0;
}
