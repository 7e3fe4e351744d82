/* Tier 1 for access addresses and values (WET version 5, WET.md "Tier 1
 * for access addresses and values"): a WET written by hand, byte by byte
 * from the spec, whose pattern and unique-value streams are worked out by
 * hand below; the reader must return the accesses both ways, from the
 * tier-1 form, the plain form and a mix; then each kind of bad pattern,
 * which it must refuse as corrupt, naming the offset of the block (or the
 * index entry) at fault; and versions 4 and 5 are refused at the version field.
 *
 * The run: one basic-block node A at 0x1000 holding
 *   ldm r1, {r0, r2}   (e8910005)  two 4-byte reads per execution
 * executed three times (INDEX 0, 1, 2; timestamps 1, 2, 3).  Its accesses
 * have keys k0 = WET_KEY(0x1000, 0) = 0x1000 (the first read) and
 * k1 = WET_KEY(0x1000, 1) = 0x01001193 (the second):
 *   INDEX 0: k0 0x2000 = 7, k1 0x2004 = 7
 *   INDEX 1: k0 0x2008 = 9, k1 0x200c = 7
 *   INDEX 2: k0 0x2000 = 7, k1 0x2004 = 9
 * Addresses, per key in access order: k0 0x2000 new (ordinal 0), k1 0x2004
 * new (0), k0 0x2008 new (1), k1 0x200c new (1), k0 0x2000 = ordinal 0 of
 * k0, k1 0x2004 = ordinal 0 of k1:
 *   apat  = [0, 0, 0, 0, 1, 1]
 *   aaddr = [0x2000, 0x2004, 0x2008, 0x200c] (keys k0, k1, k0, k1)
 * Values: k0 7 new (0), k1 7 new (0: another key), k0 9 new (1), k1 7 =
 * ordinal 0 of k1, k0 7 = ordinal 0 of k0, k1 9 new (1):
 *   avpat = [0, 0, 0, 1, 1, 0]
 *   aval  = [7, 7, 9, 9] (keys k0, k1, k0, k1)
 * Register results (r0, r2 in the decoder's def order; one value group of
 * key WET_KEY(0x1000, 0)): (7, 7), (9, 7), (7, 9), all new: vpat = [0, 0,
 * 0], uval = [7, 7, 9, 7, 7, 9].  No producers (r1 and the memory were
 * never written), no control parents. */
#include "bistream.h"
#include "bytes.h"
#include "wet_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#define NS CITCAT_WET_NSTREAMS
#define REQ(c, ...) do { if (!(c)) { fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #c); \
	fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); return 1; } } while (0)

#define PC 0x1000u
#define K0 WET_KEY(PC, 0)
#define K1 WET_KEY(PC, 1)

struct spec {
	uint32_t v[NS][8], k[NS][8], n[NS];
};

static void put(struct spec *s, unsigned st, uint32_t key, uint32_t v)
{
	s->k[st][s->n[st]] = key;
	s->v[st][s->n[st]++] = v;
}

static const uint32_t addr[6] = {0x2000, 0x2004, 0x2008, 0x200c, 0x2000, 0x2004};
static const uint32_t val[6] = {7, 7, 9, 7, 7, 9};

/* The run's streams: addresses in tier-1 form when TA, else plain; the
 * values likewise with TV. */
static void good(struct spec *s, int ta, int tv)
{
	memset(s, 0, sizeof *s);
	for (uint32_t i = 0; i < 3; i++) {
		put(s, CITCAT_WET_S_NODE, 0, 0);
		put(s, CITCAT_WET_S_ACCN, PC, 2);
		put(s, CITCAT_WET_S_DEPN, PC, 0);
		put(s, CITCAT_WET_S_CDEP, PC, 0);
		put(s, CITCAT_WET_S_VPAT, WET_KEY(PC, 0), 0);
		put(s, CITCAT_WET_S_UVAL, WET_KEY(PC, 0), val[2 * i]);
		put(s, CITCAT_WET_S_UVAL, WET_KEY(PC, 1), val[2 * i + 1]);
	}
	for (uint32_t a = 0; a < 6; a++)
		put(s, CITCAT_WET_S_AKIND, a & 1 ? K1 : K0, 4);
	static const uint32_t apat[6] = {0, 0, 0, 0, 1, 1}, aaddr[4] = {0x2000, 0x2004, 0x2008, 0x200c};
	static const uint32_t avpat[6] = {0, 0, 0, 1, 1, 0}, aval[4] = {7, 7, 9, 9};
	for (uint32_t a = 0; a < 6; a++) {
		uint32_t key = a & 1 ? K1 : K0;
		if (ta)
			put(s, CITCAT_WET_S_APAT, key, apat[a]);
		else
			put(s, CITCAT_WET_S_AADDR, key, addr[a]);
		if (tv)
			put(s, CITCAT_WET_S_AVPAT, key, avpat[a]);
		else
			put(s, CITCAT_WET_S_AVAL, key, val[a]);
	}
	for (uint32_t u = 0; u < 4; u++) {
		if (ta)
			put(s, CITCAT_WET_S_AADDR, u & 1 ? K1 : K0, aaddr[u]);
		if (tv)
			put(s, CITCAT_WET_S_AVAL, u & 1 ? K1 : K0, aval[u]);
	}
}

/* Writes the WET of S into BUF (header, blocks, graph, index, footer);
 * OFF[k]: each stream block's offset, *IDX the segment's index entry.
 * Returns the length. */
static size_t write_wet(const struct spec *s, uint8_t *buf, uint64_t *off, uint64_t *idx, unsigned version)
{
	uint8_t *p = buf;
	memcpy(p, WET_MAGIC, 8);
	cc_put16(p + 8, (uint16_t)version);
	cc_put16(p + 10, 0);
	cc_put32(p + 12, XXH32(p, 12, 0));
	p += WET_HDR_LEN;
	uint32_t len[NS];
	uint64_t hash[NS];
	for (unsigned k = 0; k < NS; k++) {
		uint8_t *b;
		size_t n;
		unsigned m;
		if (wet_block_encode(s->v[k], s->k[k], s->n[k], &b, &n, &m))
			abort();
		off[k] = (uint64_t)(p - buf);
		memcpy(p, b, n);
		len[k] = (uint32_t)n;
		hash[k] = XXH64(b, n, 0);
		free(b);
		p += n;
	}
	uint8_t *g = p;
	cc_put32(p, 1);
	p += 4;
	p[0] = WET_NODE_BLOCK;
	p[1] = p[2] = p[3] = 0;
	cc_put32(p + 4, PC);
	cc_put32(p + 8, 1);
	cc_put32(p + 12, 0xe8910005u);
	p[16] = p[17] = 0; /* A32, IT state 0 (version 6) */
	p += 18;
	uint64_t goff = (uint64_t)(g - buf), glen = (uint64_t)(p - g);
	uint8_t *x = p;
	cc_put64(p, 3);
	cc_put64(p + 8, 3);
	cc_put64(p + 16, 0);
	cc_put32(p + 24, 1);
	cc_put32(p + 28, NS);
	p += WET_IDX_HDR;
	*idx = (uint64_t)(p - buf);
	cc_put64(p, 0);
	cc_put64(p + 8, 1);
	cc_put32(p + 16, 3);
	cc_put32(p + 20, 3);
	cc_put64(p + 24, 0);
	p += WET_SEG_HDR;
	for (unsigned k = 0; k < NS; k++, p += WET_SEG_STREAM) {
		cc_put64(p, off[k]);
		cc_put32(p + 8, len[k]);
		cc_put32(p + 12, s->n[k]);
		cc_put64(p + 16, hash[k]);
	}
	uint64_t ioff = (uint64_t)(x - buf), ilen = (uint64_t)(p - x);
	memset(p, 0, WET_FOOT_LEN);
	cc_put64(p, goff);
	cc_put64(p + 8, glen);
	cc_put64(p + 16, ioff);
	cc_put64(p + 24, ilen);
	cc_put64(p + 32, XXH64(g, glen, 0));
	cc_put64(p + 40, XXH64(x, ilen, 0));
	memcpy(p + 48, WET_FOOT_MAGIC, 8);
	cc_put32(p + 56, XXH32(p, 56, 0));
	p += WET_FOOT_LEN;
	return (size_t)(p - buf);
}

struct got {
	uint64_t n, bad;
	int back;
};

static int cb(void *ctx, const struct citcat_wet_insn *in)
{
	struct got *g = ctx;
	uint64_t want = g->back ? 2 - g->n : g->n;
	g->n++;
	if (in->index != want || in->n_acc != 2) {
		g->bad++;
		return 0;
	}
	for (uint32_t k = 0; k < 2; k++)
		if (in->acc[k].addr != addr[2 * want + k] || in->acc[k].value != val[2 * want + k] || in->acc[k].size != 4 ||
		    in->acc[k].write)
			g->bad++;
	return 0;
}

static uint8_t buf[8192];

/* Walks the WET of S both ways, with the accesses alone and with every
 * stream; returns the first error (0: none) and its offset in *AT. */
static int run(const struct spec *s, uint64_t *off, uint64_t *idx, uint64_t *at, struct got *g)
{
	size_t n = write_wet(s, buf, off, idx, WET_VERSION);
	struct citcat_wet *w;
	int rc = citcat_wet_open_mem(&w, buf, n);
	for (int i = 0; i < 4 && !rc; i++) {
		memset(g, 0, sizeof *g);
		g->back = i & 1;
		struct citcat_wet_walk wk = {.backward = i & 1,
					     .what = i < 2 ? CITCAT_WET_W_ACC
						     : CITCAT_WET_W_ACC | CITCAT_WET_W_DEP | CITCAT_WET_W_VAL,
					     .from = 0, .to = UINT64_MAX, .cb = cb, .ctx = g};
		rc = citcat_wet_walk(w, &wk);
		if (!rc && (g->n != 3 || g->bad))
			rc = -1000 - i;
	}
	*at = citcat_wet_error(w)->offset;
	citcat_wet_close(w);
	return rc;
}

static int bad(const char *what, const struct spec *s, unsigned stream)
{
	uint64_t off[NS], idx, at;
	struct got g;
	int rc = run(s, off, &idx, &at, &g);
	REQ(rc == CITCAT_ERR_CORRUPT, "%s: got %d, expected corrupt", what, rc);
	uint64_t want = stream < NS ? off[stream] : idx;
	REQ(at == want, "%s: error at offset %llu, expected %llu", what, (unsigned long long)at, (unsigned long long)want);
	return 0;
}

int main(void)
{
	struct spec s;
	uint64_t off[NS], idx, at;
	struct got g;

	/* the good files: tier 1 for both, for either, for neither */
	for (int f = 0; f < 4; f++) {
		good(&s, f & 1, f >> 1);
		int rc = run(&s, off, &idx, &at, &g);
		REQ(rc == 0, "form %d (addresses %s, values %s) does not read: %d", f, f & 1 ? "tier 1" : "plain",
		    f >> 1 ? "tier 1" : "plain", rc);
	}

	/* a pattern naming an ordinal the key does not have yet: k0's third
	 * address names ordinal 2 (it has 0 and 1) */
	good(&s, 1, 1);
	s.v[CITCAT_WET_S_APAT][4] = 3;
	if (bad("ordinal 2 of 2", &s, CITCAT_WET_S_APAT))
		return 1;
	/* the first access naming a value before any is stored: avpat = [1,
	 * 0, 0, 1, 0, 0], so the new values are k1 7, k0 9, k0 7, k1 9 (the
	 * unique stream written to match, so that only the reference is bad) */
	good(&s, 1, 1);
	s.v[CITCAT_WET_S_AVPAT][0] = 1;
	s.v[CITCAT_WET_S_AVPAT][4] = 0;
	s.n[CITCAT_WET_S_AVAL] = 0;
	put(&s, CITCAT_WET_S_AVAL, K1, 7);
	put(&s, CITCAT_WET_S_AVAL, K0, 9);
	put(&s, CITCAT_WET_S_AVAL, K0, 7);
	put(&s, CITCAT_WET_S_AVAL, K1, 9);
	if (bad("a value named before it is stored", &s, CITCAT_WET_S_AVPAT))
		return 1;
	/* k1's second value names k0's ordinal 1 (k1 has only ordinal 0) */
	good(&s, 1, 1);
	s.v[CITCAT_WET_S_AVPAT][3] = 2;
	if (bad("another key's ordinal", &s, CITCAT_WET_S_AVPAT))
		return 1;
	/* one new value more than the unique stream holds */
	good(&s, 1, 1);
	s.v[CITCAT_WET_S_APAT][5] = 0;
	if (bad("a new address the unique stream lacks", &s, CITCAT_WET_S_AADDR))
		return 1;
	/* one unique value more than the patterns create */
	good(&s, 1, 1);
	put(&s, CITCAT_WET_S_AVAL, K0, 11);
	if (bad("a unique value no pattern creates", &s, CITCAT_WET_S_AVAL))
		return 1;
	/* a pattern stream that is neither empty nor one value per access */
	good(&s, 1, 1);
	s.n[CITCAT_WET_S_APAT]--;
	if (bad("5 patterns for 6 accesses", &s, NS))
		return 1;
	/* the plain form with a value missing */
	good(&s, 0, 0);
	s.n[CITCAT_WET_S_AVAL]--;
	if (bad("5 plain values for 6 accesses", &s, NS))
		return 1;
	/* more unique values than accesses */
	good(&s, 1, 1);
	for (int i = 0; i < 3; i++)
		put(&s, CITCAT_WET_S_AADDR, K0, 0x3000u + (uint32_t)i);
	if (bad("7 unique addresses for 6 accesses", &s, NS))
		return 1;

	/* versions 4 and 5 are refused at the version field, by name (5: its
	 * node table has no instruction sets and IT states) */
	good(&s, 0, 0);
	for (unsigned v = 4; v <= 5; v++) {
		size_t n = write_wet(&s, buf, off, &idx, v);
		struct citcat_wet *w;
		int rc = citcat_wet_open_mem(&w, buf, n);
		char want[32];
		snprintf(want, sizeof want, "WET version %u", v);
		REQ(rc == CITCAT_ERR_VERSION && citcat_wet_error(w)->offset == 8 && strstr(citcat_wet_error(w)->msg, want),
		    "version %u: %d at %llu (%s)", v, rc, (unsigned long long)citcat_wet_error(w)->offset, citcat_wet_error(w)->msg);
		citcat_wet_close(w);
	}
	printf("test_wet_acc: ok\n");
	return 0;
}
