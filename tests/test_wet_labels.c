/* Shared labels (WET version 4, WET.md "Shared labels"): a WET written by
 * hand, byte by byte from the spec, whose producers are worked out by hand;
 * then the same file with each kind of bad reference, each of which the
 * reader must refuse as corrupt, naming the offset of the block at fault;
 * and (version 6) the node table with each kind of bad per-statement
 * instruction set, IT state, word or address, refused at its byte.
 *
 * The run: two basic-block nodes, A at 0x1000 and B at 0x1004.
 *   INDEX 0  A  0x1000  mov r0, #1       (e3a00001)
 *   INDEX 1  B  0x1004  add r1, r0, r0   (e0801000)  r0 from 0: non-local
 *   INDEX 2  B  0x1008  add r2, r0, r1   (e0802001)  r1 from 1: local (inferred)
 *                                                    r0 from 0: non-local
 * Both non-local edges of B's execution have producer 0, so they share one
 * label: the first (INDEX 1) holds it, 2 x (1 - 0) = 2; the second names
 * label ordinal 0: 2 x 0 + 1 = 1.  dep = [2, 1] (keys WET_KEY(0x1004, 0),
 * WET_KEY(0x1008, 0)), depn = [0, 1, 1].
 * Expected producers, nearest first: 0: none; 1: {0}; 2: {1, 0}. */
#include "bistream.h"
#include "bytes.h"
#include "defuse.h"
#include "wet_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#define NS CITCAT_WET_NSTREAMS
#define REQ(c, ...) do { if (!(c)) { fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #c); \
	fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); return 1; } } while (0)

struct spec {
	uint32_t v[NS][8], k[NS][8], n[NS];
};

static void put(struct spec *s, unsigned st, uint32_t key, uint32_t v)
{
	s->k[st][s->n[st]] = key;
	s->v[st][s->n[st]++] = v;
}

/* The good run's streams. */
static void good(struct spec *s)
{
	memset(s, 0, sizeof *s);
	put(s, CITCAT_WET_S_NODE, 0, 0);
	put(s, CITCAT_WET_S_NODE, 0, 1);
	for (uint32_t i = 0; i < 3; i++) {
		put(s, CITCAT_WET_S_ACCN, 0x1000 + 4 * i, 0);
		put(s, CITCAT_WET_S_DEPN, 0x1000 + 4 * i, i ? 1 : 0);
		put(s, CITCAT_WET_S_CDEP, 0x1000 + 4 * i, 0);
	}
	put(s, CITCAT_WET_S_DEP, WET_KEY(0x1004, 0), 2);
	put(s, CITCAT_WET_S_DEP, WET_KEY(0x1008, 0), 1);
}

/* Writes the WET of S into BUF (header, blocks, graph, index, footer);
 * OFF[k]: each stream block's offset.  Returns the length. */
static size_t write_wet(const struct spec *s, uint8_t *buf, uint64_t *off, unsigned version)
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
	cc_put32(p, 2);
	p += 4;
	static const uint32_t words[3] = {0xe3a00001u, 0xe0801000u, 0xe0802001u};
	for (unsigned i = 0; i < 2; i++) {
		p[0] = WET_NODE_BLOCK;
		p[1] = p[2] = p[3] = 0;
		cc_put32(p + 4, i ? 0x1004 : 0x1000);
		cc_put32(p + 8, i ? 2 : 1);
		p += 12;
		for (unsigned k = 0; k < (i ? 2u : 1u); k++, p += 6) { /* word, A32, IT state 0 (version 6) */
			cc_put32(p, words[i + k]);
			p[4] = p[5] = 0;
		}
	}
	uint64_t goff = (uint64_t)(g - buf), glen = (uint64_t)(p - g);
	uint8_t *x = p;
	cc_put64(p, 3);
	cc_put64(p + 8, 2);
	cc_put64(p + 16, 0);
	cc_put32(p + 24, 1);
	cc_put32(p + 28, NS);
	p += WET_IDX_HDR;
	cc_put64(p, 0);
	cc_put64(p + 8, 1);
	cc_put32(p + 16, 3);
	cc_put32(p + 20, 2);
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
	uint64_t n;
	uint64_t dep[3][4];
	uint32_t ndep[3];
};

static int cb(void *ctx, const struct citcat_wet_insn *in)
{
	struct got *g = ctx;
	if (in->index < 3) {
		g->ndep[in->index] = in->n_dep;
		for (uint32_t i = 0; i < in->n_dep && i < 4; i++)
			g->dep[in->index][i] = in->dep[i];
	}
	g->n++;
	return 0;
}

static uint8_t buf[8192];

/* Walks the WET of S both ways; returns the first error (0: none) and its
 * offset in *AT. */
static int run(const struct spec *s, uint64_t *off, uint64_t *at, struct got *g)
{
	size_t n = write_wet(s, buf, off, WET_VERSION);
	struct citcat_wet *w;
	int rc = citcat_wet_open_mem(&w, buf, n);
	for (int back = 0; back < 2 && !rc; back++) {
		memset(g, 0, sizeof *g);
		struct citcat_wet_walk wk = {.backward = back, .what = CITCAT_WET_W_DEP, .from = 0, .to = UINT64_MAX,
					     .cb = cb, .ctx = g};
		rc = citcat_wet_walk(w, &wk);
	}
	*at = citcat_wet_error(w)->offset;
	citcat_wet_close(w);
	return rc;
}

static int bad(const char *what, const struct spec *s, unsigned stream)
{
	uint64_t off[NS], at;
	struct got g;
	int rc = run(s, off, &at, &g);
	REQ(rc == CITCAT_ERR_CORRUPT, "%s: got %d, expected corrupt", what, rc);
	REQ(at == off[stream], "%s: error at offset %llu, expected the %s block at %llu", what, (unsigned long long)at,
	    citcat_wet_stream_name(stream), (unsigned long long)off[stream]);
	return 0;
}

/* Version 6's node table: the good file with graph byte PV[2i] (from the
 * graph's start) set to PV[2i + 1], i < N, the footer's checksums
 * resealed, must be refused as corrupt at graph byte WANT, the message
 * holding MSG.  The graph: N (4 bytes), node 0 (12-byte header at 4, its
 * statement at 16: word, ISA at 20, IT at 21), node 1 (header at 22, start
 * address at 26, statements at 34 and 40: ISA at 38 and 44, IT at 39 and
 * 45). */
static int graph_bad(const char *what, const size_t *pv, unsigned n, size_t want, const char *msg)
{
	struct spec s;
	uint64_t off[NS];
	good(&s);
	size_t len = write_wet(&s, buf, off, WET_VERSION);
	uint8_t *f = buf + len - WET_FOOT_LEN;
	uint64_t goff = cc_get64(f), glen = cc_get64(f + 8);
	for (unsigned i = 0; i < n; i++)
		buf[goff + pv[2 * i]] = (uint8_t)pv[2 * i + 1];
	cc_put64(f + 32, XXH64(buf + goff, glen, 0));
	cc_put32(f + 56, XXH32(f, 56, 0));
	struct citcat_wet *w;
	int rc = citcat_wet_open_mem(&w, buf, len);
	uint64_t got = citcat_wet_error(w)->offset;
	REQ(rc == CITCAT_ERR_CORRUPT && got == goff + want && strstr(citcat_wet_error(w)->msg, msg),
	    "%s: got %d at graph byte %lld (%s), expected corrupt at %zu", what, rc, (long long)(got - goff),
	    citcat_wet_error(w)->msg, want);
	citcat_wet_close(w);
	return 0;
}

int main(void)
{
	struct spec s;
	uint64_t off[NS], at;
	struct got g;

	/* the good file: the producers worked out above, both ways */
	good(&s);
	REQ(run(&s, off, &at, &g) == 0, "the hand-written WET does not read");
	REQ(g.n == 3, "%llu instances", (unsigned long long)g.n);
	REQ(g.ndep[0] == 0, "instance 0 has %u producers", g.ndep[0]);
	REQ(g.ndep[1] == 1 && g.dep[1][0] == 0, "instance 1: producers %u", g.ndep[1]);
	REQ(g.ndep[2] == 2 && g.dep[2][0] == 1 && g.dep[2][1] == 0, "instance 2: producers %u (%llu, %llu)", g.ndep[2],
	    (unsigned long long)g.dep[2][0], (unsigned long long)g.dep[2][1]);

	/* a reference to a label not created yet (B.0 names label ordinal 0) */
	good(&s);
	s.v[CITCAT_WET_S_DEP][0] = 1;
	if (bad("a label named before it is created", &s, CITCAT_WET_S_DEP))
		return 1;
	/* a reference past the labels created (one label, B.1 names ordinal 1) */
	good(&s);
	s.v[CITCAT_WET_S_DEP][1] = 3;
	if (bad("label ordinal 1 of 1", &s, CITCAT_WET_S_DEP))
		return 1;
	/* a label reaching before the segment's reach: 2 back from INDEX 1 */
	good(&s);
	s.v[CITCAT_WET_S_DEP][0] = 4;
	if (bad("a label before the reach", &s, CITCAT_WET_S_DEP))
		return 1;
	/* a label of zero: the consumer itself */
	good(&s);
	s.v[CITCAT_WET_S_DEP][0] = 0;
	if (bad("label 0", &s, CITCAT_WET_S_DEP))
		return 1;
	/* one instance naming the same label twice (producers not distinct) */
	good(&s);
	s.v[CITCAT_WET_S_DEPN][2] = 2;
	put(&s, CITCAT_WET_S_DEP, WET_KEY(0x1008, 1), 1);
	if (bad("one producer twice", &s, CITCAT_WET_S_DEP))
		return 1;
	/* B.1 holding a label for INDEX 1 (2 x (2 - 1)), its local producer
	 * through r1: a stored copy of a local edge */
	good(&s);
	s.v[CITCAT_WET_S_DEP][1] = 2;
	if (bad("a stored local edge", &s, CITCAT_WET_S_DEP))
		return 1;
	/* more stored producers than an instruction can have */
	good(&s);
	s.v[CITCAT_WET_S_DEPN][0] = 256;
	if (bad("256 stored producers", &s, CITCAT_WET_S_DEPN))
		return 1;
	/* a value no edge reads: one too many in dep */
	good(&s);
	put(&s, CITCAT_WET_S_DEP, WET_KEY(0x1008, 1), 2);
	if (bad("an extra dep value", &s, CITCAT_WET_S_DEP))
		return 1;

	/* version 6's per-statement fields (WET.md, "Graph"), each refused at
	 * its byte; the last two: node 1 made Thumb 32-bit */
	if (graph_bad("instruction set 3", (const size_t[]){20, 3}, 1, 20, "instruction set") ||
	    graph_bad("an A32 statement with an IT state", (const size_t[]){21, 0x18}, 1, 21, "IT state") ||
	    graph_bad("a basic block turning Thumb 32-bit", (const size_t[]){44, WET_ISA_T32}, 1, 44, "changes instruction set") ||
	    graph_bad("a Thumb 16-bit word above 0xffff", (const size_t[]){38, WET_ISA_T16}, 1, 34, "16-bit") ||
	    graph_bad("an A32 block at 0x1006", (const size_t[]){26, 0x06}, 1, 34, "address") ||
	    graph_bad("IT state 0x10 (bits 3:0 zero)", (const size_t[]){38, WET_ISA_T32, 44, WET_ISA_T32, 45, 0x10}, 3, 45,
		      "invalid IT state") ||
	    graph_bad("an IT state the statement before does not leave",
		      (const size_t[]){38, WET_ISA_T32, 44, WET_ISA_T32, 45, 0x18}, 3, 45, "does not follow"))
		return 1;

	/* version 3 is refused at the version field */
	good(&s);
	size_t n = write_wet(&s, buf, off, 3);
	struct citcat_wet *w;
	int rc = citcat_wet_open_mem(&w, buf, n);
	REQ(rc == CITCAT_ERR_VERSION && citcat_wet_error(w)->offset == 8, "version 3: %d at %llu", rc,
	    (unsigned long long)citcat_wet_error(w)->offset);
	citcat_wet_close(w);
	printf("test_wet_labels: ok\n");
	return 0;
}
