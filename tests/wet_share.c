/* Measurement for issue 10 (WET.md, "Measured: sharing across
 * statements"): how many dependence labels cross-statement sharing (paper
 * section 3.3, figure 4b) could remove beyond what version 4 shares.
 * Prints numbers, never passes or fails; not a CTest test.
 *
 *   wet_share RUN.wet [SEG_INSNS]
 *
 * Walks the WET forwards with its dependences.  A *cross-node edge* is an
 * edge whose producer lies in another node execution (the paper's
 * non-local edges; edges inside one node execution are local or, in
 * version 4, stored only for SP/LR and conditional definitions).  Its
 * *static edge* is (producer PC, consumer PC); its label the timestamp
 * pair <t_producer, t_consumer>.  Per segment (SEG_INSNS instructions,
 * default 65536, the builder's default), as the file stores its streams:
 *   v4:    edges whose producer instance an earlier edge of the same
 *          consumer node execution names (version 4 stores a reference);
 *   pair:  edges, not v4, whose timestamp pair an earlier edge of the same
 *          consumer node execution holds (a label of the timestamp pair
 *          alone, as figure 4b, could be shared);
 *   table: edges, not v4, in a static edge's label sequence equal to that
 *          of another static edge earlier in the segment (a static edge
 *          table naming the first could drop the whole sequence).
 * Memory: one segment's edges, plus 8 bytes per node execution for the
 * producers' timestamps and 4 per instruction for their PCs. */
#include "wet_tool.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

struct edge {
	uint64_t key;  /* producer PC << 32 | consumer PC */
	uint64_t seq;  /* order in the segment */
	uint32_t tp, tc;
	int v4;
};

struct run {
	uint64_t hash;
	size_t first, len;
};

static struct {
	uint32_t *start; /* first INDEX of each node execution with instructions, ascending */
	uint32_t *sts;   /* its timestamp (interrupt entries take timestamps too) */
	uint64_t nstart, capstart;
	uint64_t pcs_cap;
	uint32_t *pc;    /* PC of each INDEX (producers' PCs) */
	struct edge *e;
	size_t ne, cape;
	uint64_t seg_insns, seg;
	uint64_t cur_ts;
	uint64_t named[4096], npairs;
	uint64_t pairs[4096];
	size_t nnamed;
	uint64_t edges, local, v4, pair, table, segs;
	int oom;
} S;

static uint64_t ts_of(uint64_t index)
{
	uint64_t lo = 0, hi = S.nstart; /* last start <= index */
	while (hi - lo > 1) {
		uint64_t mid = (lo + hi) / 2;
		if (S.start[mid] <= index)
			lo = mid;
		else
			hi = mid;
	}
	return S.sts[lo];
}

static int cmp_edge(const void *a, const void *b)
{
	const struct edge *x = a, *y = b;
	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int cmp_run(const void *a, const void *b)
{
	const struct run *x = a, *y = b;
	if (x->hash != y->hash)
		return x->hash < y->hash ? -1 : 1;
	if (x->len != y->len)
		return x->len < y->len ? -1 : 1;
	return x->first < y->first ? -1 : x->first > y->first;
}

static int same_run(const struct run *a, const struct run *b)
{
	if (a->len != b->len)
		return 0;
	for (size_t i = 0; i < a->len; i++) {
		const struct edge *x = &S.e[a->first + i], *y = &S.e[b->first + i];
		if (x->tp != y->tp || x->tc != y->tc)
			return 0;
	}
	return 1;
}

static void flush_segment(void)
{
	if (!S.ne)
		return;
	S.segs++;
	qsort(S.e, S.ne, sizeof *S.e, cmp_edge);
	size_t nr = 0;
	struct run *r = malloc(S.ne * sizeof *r);
	if (!r) {
		S.oom = 1;
		return;
	}
	for (size_t i = 0; i < S.ne;) {
		size_t j = i;
		XXH3_state_t *h = XXH3_createState();
		XXH3_64bits_reset(h);
		while (j < S.ne && S.e[j].key == S.e[i].key) {
			uint32_t p[2] = {S.e[j].tp, S.e[j].tc};
			XXH3_64bits_update(h, p, sizeof p);
			j++;
		}
		r[nr++] = (struct run){XXH3_64bits_digest(h), i, j - i};
		XXH3_freeState(h);
		i = j;
	}
	/* the first run of each group (by position of its first edge) keeps
	 * its labels; every other equal run could name it */
	qsort(r, nr, sizeof *r, cmp_run);
	for (size_t i = 0; i < nr;) {
		size_t j = i + 1;
		while (j < nr && r[j].hash == r[i].hash && r[j].len == r[i].len)
			j++;
		for (size_t k = i + 1; k < j; k++)
			if (same_run(&r[k], &r[i]))
				for (size_t m = 0; m < r[k].len; m++)
					S.table += !S.e[r[k].first + m].v4;
		i = j;
	}
	free(r);
	S.ne = 0;
}

static int cb(void *ctx, const struct citcat_wet_insn *in)
{
	(void)ctx;
	if (in->index >= S.pcs_cap) {
		uint64_t n = S.pcs_cap ? 2 * S.pcs_cap : 1 << 20;
		while (n <= in->index)
			n *= 2;
		uint32_t *p = realloc(S.pc, n * sizeof *p);
		if (!p)
			return S.oom = 1;
		S.pc = p;
		S.pcs_cap = n;
	}
	S.pc[in->index] = in->pc;
	if (in->ts != S.cur_ts) {
		if (S.nstart == S.capstart) {
			uint64_t n = S.capstart ? 2 * S.capstart : 1 << 16;
			uint32_t *p = realloc(S.start, n * sizeof *p);
			if (!p)
				return S.oom = 1;
			S.start = p;
			p = realloc(S.sts, n * sizeof *p);
			if (!p)
				return S.oom = 1;
			S.sts = p;
			S.capstart = n;
		}
		S.sts[S.nstart] = (uint32_t)in->ts;
		S.start[S.nstart++] = (uint32_t)in->index;
		S.cur_ts = in->ts;
		S.nnamed = S.npairs = 0;
	}
	if (in->index / S.seg_insns != S.seg) {
		flush_segment();
		S.seg = in->index / S.seg_insns;
	}
	for (uint32_t d = 0; d < in->n_dep; d++) {
		uint64_t p = in->dep[d];
		uint64_t tp = ts_of(p);
		S.edges++;
		if (tp == in->ts) {
			S.local++;
			continue;
		}
		int v4 = 0, pair = 0;
		for (size_t k = 0; k < S.nnamed; k++)
			v4 |= S.named[k] == p;
		for (size_t k = 0; k < S.npairs; k++)
			pair |= S.pairs[k] == tp;
		if (!v4 && S.nnamed < 4096)
			S.named[S.nnamed++] = p;
		if (!pair && S.npairs < 4096)
			S.pairs[S.npairs++] = tp;
		S.v4 += v4;
		S.pair += !v4 && pair;
		if (S.ne == S.cape) {
			size_t n = S.cape ? 2 * S.cape : 1 << 16;
			struct edge *e = realloc(S.e, n * sizeof *e);
			if (!e)
				return S.oom = 1;
			S.e = e;
			S.cape = n;
		}
		S.e[S.ne] = (struct edge){(uint64_t)S.pc[p] << 32 | in->pc, S.ne, (uint32_t)tp, (uint32_t)in->ts, v4};
		S.ne++;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct citcat_wet *w = wet_tool_open(argc, argv, "wet_share", &S.seg_insns);
	if (!w || wet_tool_walk(w, argv[1], CITCAT_WET_W_DEP, cb, flush_segment, &S.oom))
		return 2;
	uint64_t cross = S.edges - S.local;
	printf("%s: %" PRIu64 " edges, %" PRIu64 " inside a node execution, %" PRIu64 " cross-node in %" PRIu64
	       " segments\n",
	       argv[1], S.edges, S.local, cross, S.segs);
	printf("  v4 (same producer instance): %" PRIu64 " (%.1f%%)\n", S.v4, 100.0 * S.v4 / (cross ? cross : 1));
	printf("  pair (same timestamp pair, not v4): %" PRIu64 " (%.1f%%)\n", S.pair, 100.0 * S.pair / (cross ? cross : 1));
	printf("  table (sequence equal to another static edge's, not v4): %" PRIu64 " (%.1f%%)\n", S.table,
	       100.0 * S.table / (cross ? cross : 1));
	citcat_wet_close(w);
	free(S.start);
	free(S.sts);
	free(S.pc);
	free(S.e);
	return 0;
}
