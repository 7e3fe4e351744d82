/* Property tests of the bidirectional stream codecs (wet/bistream.c): for
 * random and structured streams, every method, random forward/backward
 * walks return the original values at every step, a block re-encodes to
 * the same bytes, and damaged blocks are refused or detected, never crash.
 * Also the tier-1 value groups (wet/tier1.c) on hand-worked nodes: the
 * example of the paper's figure 3 and the load classification.
 * Usage: test_wet_stream [STREAM.u32le ...] (extra real streams, optional) */
#include "bistream.h"
#include "tier1.h"
#define REQ(c) do { if (!(c)) { fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #c); return 1; } } while (0)

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng = 0x2545F4914F6CDD1Dull;
static uint32_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng >> 11);
}

static int walk(const uint32_t *x, const uint32_t *key, uint32_t m, unsigned method, unsigned steps)
{
	uint8_t *b;
	size_t n;
	REQ(wet_block_encode_method(x, key, m, method, &b, &n) == 0);
	struct wet_cursor c;
	const char *why;
	size_t at;
	REQ(wet_cursor_load(&c, b, n, &why, &at) == 0);
	int64_t p = m;
	uint32_t v;
	for (unsigned s = 0; s < steps; s++) {
		int back = (rnd() % 3) != 0 ? (s & 64) == 0 : (int)(rnd() & 1);
		int rc = back ? wet_cursor_prev(&c, p ? key[p - 1] : 0, &v) : wet_cursor_next(&c, p < (int64_t)m ? key[p] : 0, &v);
		if (back) {
			if (p == 0) {
				REQ(rc == 0);
			} else {
				REQ(rc == 1);
				REQ(v == x[p - 1]);
				p--;
			}
		} else {
			if (p == (int64_t)m) {
				REQ(rc == 0);
			} else {
				REQ(rc == 1);
				REQ(v == x[p]);
				p++;
			}
		}
	}
	/* whole walks: back to the start, forward to the end */
	REQ(wet_cursor_rewind(&c, key) == 0);
	for (uint32_t j = 0; j < m; j++) {
		REQ(wet_cursor_next(&c, key[j], &v) == 1);
		REQ(v == x[j]);
	}
	REQ(wet_cursor_next(&c, 0, &v) == 0);
	for (uint32_t j = m; j-- > 0;) {
		REQ(wet_cursor_prev(&c, key[j], &v) == 1);
		REQ(v == x[j]);
	}
	wet_cursor_fini(&c);
	/* damage: flip a byte; loading or walking may fail, never crash, and a
	 * walk that succeeds with different values is allowed only if the load
	 * accepted it (the file's checksum is what catches that) */
	if (n > 20) {
		b[20 + rnd() % (n - 20)] ^= (uint8_t)(1u << (rnd() % 8));
		if (wet_cursor_load(&c, b, n, &why, &at) == 0) {
			int rc;
			while ((rc = wet_cursor_prev(&c, c.p > 0 ? key[c.p - 1] : 0, &v)) == 1)
				;
			if (rc == 0)
				while ((rc = wet_cursor_next(&c, c.p < (int64_t)m ? key[c.p] : 0, &v)) == 1)
					;
			REQ(rc == 0 || rc == -2);
			wet_cursor_fini(&c);
		}
		REQ(wet_cursor_load(&c, b, n - 1, &why, &at) != 0);
	}
	free(b);
	return 0;
}

static uint32_t keys[70000];

static int all_methods(const uint32_t *x, uint32_t m)
{
	for (unsigned k = 0; k < WET_M_COUNT; k++)
		if (walk(x, keys, m, k, 4 * m + 50))
			return 1;
	uint8_t *b;
	size_t n;
	unsigned meth;
	REQ(wet_block_encode(x, keys, m, &b, &n, &meth) == 0);
	free(b);
	return 0;
}

/* A statement with uses USE and defs DEF (logical registers, -1 ends). */
static struct wet_du du_of(unsigned cond, const int *use, const int *def)
{
	struct wet_du d;
	memset(&d, 0, sizeof d);
	d.cond = (uint8_t)cond;
	for (; *use >= 0; use++)
		d.use[d.nuse++] = (uint8_t)*use;
	for (; *def >= 0; def++)
		d.def[d.ndef++] = (uint8_t)*def;
	return d;
}

static int tier1_groups(void)
{
	/* loads and stores by their encodings (WET.md, "Tier 1") */
	static const struct { uint32_t w; int load; } ld[] = {
		{0xe5910000u, 1}, /* ldr r0, [r1] */       {0xe5810000u, 0}, /* str r0, [r1] */
		{0xe7910002u, 1}, /* ldr r0, [r1, r2] */   {0xe6d10012u, 0}, /* media (bit 4): usat-like space */
		{0xe8bd8010u, 1}, /* pop {r4, pc} */       {0xe92d4010u, 0}, /* push {r4, lr} */
		{0xe1d100b0u, 1}, /* ldrh r0, [r1] */      {0xe1c100b0u, 0}, /* strh r0, [r1] */
		{0xe1d100d0u, 1}, /* ldrsb r0, [r1] */     {0xe1c100d0u, 1}, /* ldrd r0, [r1] */
		{0xe1c100f0u, 0}, /* strd r0, [r1] */      {0xe0000291u, 0}, /* mul r0, r1, r2 */
		{0xe1020091u, 1}, /* swp r0, r1, [r2] */   {0xe1910f9fu, 1}, /* ldrex r0, [r1] */
		{0xe1820f91u, 0}, /* strex r0, r1, [r2] */ {0xe0810002u, 0}, /* add r0, r1, r2 */
		{0xf5d1f000u, 0}, /* pld [r1] */           {0xed910a00u, 1}, /* vldr s0, [r1] */
	};
	for (unsigned i = 0; i < sizeof ld / sizeof ld[0]; i++)
		if (wet_is_load(ld[i].w) != ld[i].load) {
			fprintf(stderr, "wet_is_load(0x%08x) != %d\n", ld[i].w, ld[i].load);
			return 1;
		}
	/* figure 3 of the paper, in ARM: x is loaded in the node, u (r1) and v
	 * (r2) come from outside; the statements computed from x and u form
	 * one group, those from x and v another, and the load of x joins the
	 * first (its inputs are a subset of both) */
	enum { N = 9 };
	static const int u_r9[] = {9, -1}, d_r0[] = {0, -1}, u_r0r1[] = {0, 1, -1}, d_r3[] = {3, -1},
			 u_r0r2[] = {0, 2, -1}, d_r4[] = {4, -1}, u_r3r0[] = {3, 0, -1}, d_r5[] = {5, -1},
			 u_r4r2[] = {4, 2, -1}, d_r6[] = {6, -1}, u_r5[] = {5, -1}, d_fl[] = {WET_R_FLAGS, -1},
			 u_r6r7[] = {6, 7, -1}, none[] = {-1}, u_fl[] = {WET_R_FLAGS, -1}, d_r8[] = {8, -1},
			 u_r8[] = {8, -1}, d_r10[] = {10, -1};
	struct wet_du d[N] = {
		du_of(14, u_r9, d_r0),   /* ldr r0, [r9]     x          {r9, L0} */
		du_of(14, u_r0r1, d_r3), /* add r3, r0, r1   f(x, u)    {r9, L0, r1} */
		du_of(14, u_r0r2, d_r4), /* add r4, r0, r2   g(x, v)    {r9, L0, r2} */
		du_of(14, u_r3r0, d_r5), /* mul r5, r3, r0   f(x, u) */
		du_of(14, u_r4r2, d_r6), /* sub r6, r4, r2   g(x, v) */
		du_of(14, u_r5, d_fl),   /* cmp r5, #0       flags from f */
		du_of(14, u_r6r7, none), /* str r6, [r7]     no result */
		du_of(0, u_fl, d_r8),    /* moveq r8, #1     uses the flags: f's inputs */
	};
	static const uint32_t words[N] = {0xe5990000u, 0xe0803001u, 0xe0804002u, 0xe0050093u, 0xe0446002u,
					  0xe3550000u, 0xe5876000u, 0x03a08001u, 0xe288a000u};
	static const uint16_t want[N - 1] = {0, 0, 1, 0, 1, 0, WET_GROUP_NONE, 0};
	const struct wet_du *dp[N];
	uint16_t g[N];
	for (unsigned k = 0; k < N; k++)
		dp[k] = &d[k];
	REQ(wet_value_groups(dp, words, N - 1, g) == 2);
	for (unsigned k = 0; k < N - 1; k++)
		if (g[k] != want[k]) {
			fprintf(stderr, "statement %u: group %u, expected %u\n", k, g[k], want[k]);
			return 1;
		}
	/* add r10, r8, #0 after the conditional move: r8 may still be the
	 * node's input, so its inputs are {r8, r9, L0, r1}, a proper superset
	 * of f's: the groups become g (x, v; with the load, first maximal in
	 * order) and f plus the move and the add */
	d[8] = du_of(14, u_r8, d_r10);
	static const uint16_t want2[N] = {0, 1, 0, 1, 0, 1, WET_GROUP_NONE, 1, 1};
	REQ(wet_value_groups(dp, words, N, g) == 2);
	for (unsigned k = 0; k < N; k++)
		if (g[k] != want2[k]) {
			fprintf(stderr, "statement %u: group %u, expected %u (conditional def)\n", k, g[k], want2[k]);
			return 1;
		}
	/* one statement depending on everything: a single group */
	static const int u_r3r4[] = {3, 4, -1};
	d[6] = du_of(14, u_r3r4, d_r6); /* add r6, r3, r4: {r9, L0, r1, r2} */
	static const uint16_t want3[N - 1] = {0, 0, 0, 0, 0, 0, 0, 0};
	REQ(wet_value_groups(dp, words, N - 1, g) == 1);
	for (unsigned k = 0; k < N - 1; k++)
		REQ(g[k] == want3[k]);
	printf("tier-1 groups: as worked by hand\n");
	return 0;
}

int main(int argc, char **argv)
{
	if (tier1_groups())
		return 1;
	static uint32_t x[70000];
	/* keys: a statement-like pattern (a loop of 5 keys), some random */
	for (uint32_t j = 0; j < 70000; j++)
		keys[j] = j % 97 == 0 ? rnd() : 0x1000 + 4 * (j % 5);
	uint32_t lens[] = {0, 1, 2, 3, 5, 17, 1000, 70000};
	for (unsigned li = 0; li < sizeof lens / sizeof lens[0]; li++) {
		uint32_t m = lens[li];
		for (unsigned kind = 0; kind < 6; kind++) {
			for (uint32_t j = 0; j < m; j++) {
				switch (kind) {
				case 0: x[j] = rnd(); break;                          /* random */
				case 1: x[j] = rnd() % 4; break;                      /* few values */
				case 2: x[j] = 0x1000 + 4 * j; break;                 /* stride */
				case 3: x[j] = (uint32_t[]){7, 9, 7, 3, 0}[j % 5]; break; /* pattern */
				case 4: x[j] = j % 37 == 0 ? rnd() : (j ? x[j - 1] : 0); break; /* runs */
				default: x[j] = (j % 5) * 1000 + (j / 5) * (j % 5); /* per-key strides */
				}
			}
			if (all_methods(x, m)) {
				fprintf(stderr, "failed: length %u kind %u\n", m, kind);
				return 1;
			}
		}
	}
	/* real streams given on the command line (little-endian u32 files) */
	for (int a = 1; a < argc; a++) {
		FILE *f = fopen(argv[a], "rb");
		REQ(f != NULL);
		uint32_t m = 0;
		uint8_t q[4];
		while (m < 70000 && fread(q, 1, 4, f) == 4)
			x[m++] = (uint32_t)q[0] | (uint32_t)q[1] << 8 | (uint32_t)q[2] << 16 | (uint32_t)q[3] << 24;
		fclose(f);
		if (all_methods(x, m))
			return 1;
	}
	printf("bidirectional streams: all walks exact\n");
	return 0;
}
