/* Measurement for issue 10 (WET.md, "Measured: tier 1 for access
 * values"): what the paper's first tier (section 3.2: unique values plus a
 * pattern) would do to the access value and address streams, coded with
 * the file's own second tier.  Prints numbers, never passes or fails; not
 * a CTest test.
 *
 *   wet_tier1_acc RUN.wet [SEG_INSNS]
 *
 * Walks the WET forwards with its accesses and rebuilds, per segment
 * (SEG_INSNS instructions, default 65536, the builder's default), the
 * aval and aaddr streams as the builder stores them (values with their
 * keys WET_KEY(PC, access ordinal)), then codes with wet_block_encode:
 *   stored:  the stream itself (this must equal the file's bytes: a check
 *            that the rebuilt streams are the file's);
 *   tier 1:  per key (static access), each value the segment has not had
 *            for that key before goes to a unique-value stream (keyed),
 *            and a pattern stream (keyed) holds 0 for it, else the
 *            ordinal + 1 of the equal earlier value of that key: the
 *            register results' uval/vpat scheme with one statement a group;
 *   best:    per segment the smaller of the two, plus one byte for the
 *            choice;
 *   v5:      what version 5 stores (WET.md, "Tier 1 for access addresses
 *            and values"): per segment the tier-1 form when it is shorter
 *            than the plain block plus an empty pattern block, else both;
 *            this must equal the file's bytes of aaddr + apat (aval +
 *            avpat) when the file is version 5.
 * On a version 5 file "stored" is what version 4 would have stored. */
#include "bistream.h"
#include "wet.h"
#include "wet_int.h"
#include "wet_tool.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct vec {
	uint32_t *v, *k;
	size_t n, cap;
};

static int push(struct vec *s, uint32_t v, uint32_t k)
{
	if (s->n == s->cap) {
		size_t n = s->cap ? 2 * s->cap : 1 << 16;
		uint32_t *a = realloc(s->v, n * sizeof *a), *b;
		if (!a)
			return -1;
		s->v = a;
		b = realloc(s->k, n * sizeof *b);
		if (!b)
			return -1;
		s->k = b;
		s->cap = n;
	}
	s->v[s->n] = v;
	s->k[s->n++] = k;
	return 0;
}

static struct {
	uint64_t seg_insns, seg;
	struct vec val, addr;
	uint64_t stored[2], t1[2], best[2], v5[2], uniq[2], vals[2], segs;
	int oom;
} S;

static uint64_t enc(const uint32_t *x, const uint32_t *k, size_t m)
{
	uint64_t tot = 0;
	for (size_t i = 0; i < m; i += WET_BLOCK_MAX) { /* m <= WET_BLOCK_MAX in practice */
		uint32_t n = (uint32_t)(m - i < WET_BLOCK_MAX ? m - i : WET_BLOCK_MAX);
		uint8_t *out = NULL;
		size_t len = 0;
		unsigned method;
		if (wet_block_encode(x + i, k + i, n, &out, &len, &method)) {
			S.oom = 1;
			return 0;
		}
		free(out);
		tot += len;
	}
	if (!m) { /* an empty block is stored too */
		uint8_t *out = NULL;
		size_t len = 0;
		unsigned method;
		if (wet_block_encode(x, k, 0, &out, &len, &method))
			S.oom = 1;
		free(out);
		tot += len;
	}
	return tot;
}

static uint64_t mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ull;
	return x ^ (x >> 33);
}

static void tier1(int s, const struct vec *v)
{
	size_t cap = 16;
	while (cap < 4 * (v->n + 1))
		cap *= 2;
	/* (key, value) -> ordinal + 1; key -> count (value slot unused) */
	uint64_t *hk = calloc(cap, sizeof *hk), *ck = calloc(cap, sizeof *ck);
	uint32_t *hv = calloc(cap, sizeof *hv), *cv = calloc(cap, sizeof *cv);
	struct vec pat = {0}, uni = {0};
	if (!hk || !ck || !hv || !cv) {
		S.oom = 1;
		goto out;
	}
	for (size_t i = 0; i < v->n; i++) {
		uint32_t key = v->k[i], x = v->v[i];
		uint64_t kx = (uint64_t)key << 32 | x, h = mix(kx) & (cap - 1);
		while (hv[h] && hk[h] != kx)
			h = (h + 1) & (cap - 1);
		if (hv[h]) {
			if (push(&pat, hv[h], key))
				S.oom = 1;
			continue;
		}
		uint64_t c = mix(key ^ 0x9e3779b97f4a7c15ull) & (cap - 1);
		while (cv[c] && ck[c] != key)
			c = (c + 1) & (cap - 1);
		ck[c] = key;
		cv[c]++; /* the new value's ordinal + 1 */
		hk[h] = kx;
		hv[h] = cv[c];
		if (push(&pat, 0, key) || push(&uni, x, key))
			S.oom = 1;
	}
	uint64_t st = enc(v->v, v->k, v->n), t = enc(pat.v, pat.k, pat.n) + enc(uni.v, uni.k, uni.n);
	S.stored[s] += st;
	S.t1[s] += t;
	S.best[s] += 1 + (t < st ? t : st);
	uint64_t empty = enc(NULL, NULL, 0);
	S.v5[s] += t < st + empty ? t : st + empty;
	S.uniq[s] += uni.n;
	S.vals[s] += v->n;
out:
	free(hk);
	free(ck);
	free(hv);
	free(cv);
	free(pat.v);
	free(pat.k);
	free(uni.v);
	free(uni.k);
}

static void flush(void)
{
	S.segs++;
	tier1(0, &S.val);
	tier1(1, &S.addr);
	S.val.n = S.addr.n = 0;
}

/* the last segment's flush, after a walk that did not run out of memory */
static void flush_unless_oom(void)
{
	if (!S.oom)
		flush();
}

static int cb(void *ctx, const struct citcat_wet_insn *in)
{
	(void)ctx;
	if (in->index / S.seg_insns != S.seg) {
		flush();
		S.seg = in->index / S.seg_insns;
	}
	for (uint32_t k = 0; k < in->n_acc; k++) {
		uint32_t key = WET_KEY(in->pc, k);
		if (push(&S.val, (uint32_t)in->acc[k].value, key) || push(&S.addr, in->acc[k].addr, key))
			return S.oom = 1;
	}
	return S.oom;
}

int main(int argc, char **argv)
{
	struct citcat_wet *w = wet_tool_open(argc, argv, "wet_tier1_acc", &S.seg_insns);
	if (!w)
		return 2;
	struct citcat_wet_info info;
	citcat_wet_info(w, &info);
	if (wet_tool_walk(w, argv[1], CITCAT_WET_W_ACC, cb, flush_unless_oom, &S.oom))
		return 2;
	static const char *const name[2] = {"aval", "aaddr"};
	static const unsigned sid[2] = {CITCAT_WET_S_AVAL, CITCAT_WET_S_AADDR};
	printf("%s: %" PRIu64 " instructions, %" PRIu64 " segments rebuilt (file: %" PRIu64 ")\n", argv[1], info.insns,
	       S.segs, info.segments);
	static const unsigned pid[2] = {CITCAT_WET_S_AVPAT, CITCAT_WET_S_APAT};
	for (int s = 0; s < 2; s++) {
		uint64_t f = info.stream[sid[s]].bytes + info.stream[pid[s]].bytes;
		printf("  %-5s version 5: file %" PRIu64 " bytes with its patterns, rebuilt %" PRIu64 " (%s)\n", name[s], f,
		       S.v5[s], f == S.v5[s] ? "equal" : "DIFFERS");
	}
	for (int s = 0; s < 2; s++)
		printf("  %-5s %" PRIu64 " values, %" PRIu64 " unique per key and segment (%.1f%%); file %" PRIu64
		       " bytes, rebuilt %" PRIu64 " (%s), tier 1 %" PRIu64 " (%.3f), best per segment %" PRIu64
		       " (%.3f); %.3f -> %.3f bits/insn\n",
		       name[s], S.vals[s], S.uniq[s], 100.0 * S.uniq[s] / (S.vals[s] ? S.vals[s] : 1),
		       info.stream[sid[s]].bytes, S.stored[s], info.stream[pid[s]].values ? "version 5 file: not comparable"
		       : S.stored[s] == info.stream[sid[s]].bytes ? "equal" : "DIFFERS",
		       S.t1[s], (double)S.t1[s] / (S.stored[s] ? S.stored[s] : 1), S.best[s],
		       (double)S.best[s] / (S.stored[s] ? S.stored[s] : 1), 8.0 * S.stored[s] / (info.insns ? info.insns : 1),
		       8.0 * S.best[s] / (info.insns ? info.insns : 1));
	citcat_wet_close(w);
	free(S.val.v);
	free(S.val.k);
	free(S.addr.v);
	free(S.addr.k);
	return 0;
}
