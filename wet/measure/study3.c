/* Issue 32 measurement (WET.md "Measured: the directions of issue 32"): estimated cost of the dependence and flow streams under segment-local adaptive models (node, outcomes, memory producers, control parents with a candidate set); usage: study3 RUN.dump [SEGMENT_INSNS] */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static inline double bcost(uint16_t *p, int b) {
	double pr = b ? (4096 - *p) / 4096.0 : *p / 4096.0;
	if (b) *p -= *p >> 4; else *p += (4096 - *p) >> 4;
	return -log2(pr);
}
#define HB 18
struct kst { uint32_t cand[4]; uint32_t key; uint32_t last; uint64_t lastprod; int64_t stride; uint32_t lastS; uint16_t p[8]; uint16_t hist; int used; };
static struct kst *tab;
static struct kst *kget(uint32_t key) {
	uint32_t h = (key * 2654435761u) >> (32 - HB);
	while (tab[h].used && tab[h].key != key) h = (h + 1) & ((1 << HB) - 1);
	if (!tab[h].used) { memset(&tab[h], 0, sizeof tab[h]); tab[h].used = 1; tab[h].key = key; for (int i = 0; i < 8; i++) tab[h].p[i] = 2048; }
	return &tab[h];
}
/* last instance per pc (segment-local) */
struct li { uint32_t pc; uint64_t idx1; };
static struct li *lt;
static uint64_t *lookup_last(uint32_t pc) {
	uint32_t h = (pc * 2654435761u) >> (32 - HB);
	while (lt[h].idx1 && lt[h].pc != pc) h = (h + 1) & ((1 << HB) - 1);
	lt[h].pc = pc; return &lt[h].idx1;
}
static uint16_t lenp[64][40];
static double lit_cost(uint64_t v, int c) {
	int nb = 0; while ((v >> nb) > 1) nb++;
	double x = 0;
	for (int i = 0; i < nb; i++) x += bcost(&lenp[c][i], 1);
	x += bcost(&lenp[c][nb], 0);
	return x + nb;
}
static void reset(void) {
	memset(tab, 0, sizeof(*tab) << HB); memset(lt, 0, sizeof(*lt) << HB);
	for (int i = 0; i < 64; i++) for (int j = 0; j < 40; j++) lenp[i][j] = 2048;
}
int main(int argc, char **argv) {
	uint64_t seg = argc > 2 ? strtoull(argv[2], 0, 0) : 65536;
	FILE *f = fopen(argv[1], "rb");
	tab = calloc(1 << HB, sizeof *tab); lt = calloc(1 << HB, sizeof *lt);
	uint32_t *pcs = malloc(sizeof(uint32_t) * 40000000);
	reset();
	uint64_t ninsn = 0, nnode = 0, nmem = 0, seg_start = 0, nseg = 1;
	double c_mem = 0, c_cd = 0, c_depn = 0, c_node = 0, c_cond = 0;
	uint64_t hitA = 0, hitB = 0, hitC = 0, hitD = 0, lit = 0, cdA = 0, cdD = 0, cd0 = 0, cdlit = 0;
	uint8_t h[12];
	uint32_t prevnode = 0, pprev = 0;
	while (fread(h, 1, 12, f) == 12) {
		if (h[0] == 0xee) {
			uint32_t id, n; memcpy(&id, h + 4, 4); memcpy(&n, h + 8, 4);
			if (ninsn - seg_start >= seg) { reset(); seg_start = ninsn; nseg++; prevnode = pprev = 0; }
			struct kst *k = kget(0x80000000u ^ (prevnode * 0x9E3779B1u) ^ (pprev * 0x85EBCA77u));
			int hit = k->last == id + 1;
			c_node += bcost(&k->p[0], hit);
			if (!hit) { struct kst *k2 = kget(0x40000000u ^ prevnode * 0x9E3779B1u); int h2 = k2->last == id + 1; c_node += bcost(&k2->p[0], h2); if (!h2) c_node += lit_cost(id + 1, 1); k2->last = id + 1; }
			k->last = id + 1;
			pprev = prevnode; prevnode = id; nnode++;
			continue;
		}
		uint32_t pc, cd; memcpy(&pc, h + 4, 4); memcpy(&cd, h + 8, 4);
		int nst = h[2];
		uint32_t dist[256]; uint8_t mem[256];
		for (int i = 0; i < nst; i++) { fread(&dist[i], 4, 1, f); fread(&mem[i], 1, 1, f); }
		uint8_t nr; fread(&nr, 1, 1, f);
		pcs[ninsn] = pc;
		if (h[1]) { struct kst *k = kget(0x20000000u ^ pc * 0x9E3779B1u); int b = h[1] == 1; c_cond += bcost(&k->p[(k->hist & 3)], b); k->hist = (k->hist << 1) | b; }
		int nm = 0;
		for (int i = 0; i < nst; i++) nm += mem[i] != 0;
		if (nr) {
			struct kst *kn = kget(0x10000000u ^ pc * 0x9E3779B1u);
			int same = (uint32_t)nm == kn->last;
			c_depn += bcost(&kn->p[0], same);
			if (!same) c_depn += lit_cost(nm + 1, 2);
			kn->last = nm;
			int o = 0;
			for (int i = 0; i < nst; i++) {
				if (!mem[i]) continue;
				nmem++;
				struct kst *k = kget(pc * 0x9E3779B1u + o * 0x01000193u); o++;
				uint64_t prod = ninsn - dist[i];
				uint32_t S = pcs[prod];
				double x = 0;
				uint64_t *ls = k->lastS ? lookup_last(k->lastS) : NULL;
				uint64_t predD = ls && *ls ? *ls - 1 : UINT64_MAX;
				int hD = prod == predD;
				x += bcost(&k->p[0], hD);
				if (hD) hitD++;
				else {
					int hA = dist[i] == k->last && prod != predD;
					x += bcost(&k->p[1], hA);
					if (hA) hitA++;
					else {
						int hB = k->lastprod && prod + 1 == k->lastprod;
						x += bcost(&k->p[2], hB);
						if (hB) hitB++;
						else {
							int hC = k->lastprod && (int64_t)(prod + 1) == (int64_t)k->lastprod + k->stride;
							x += bcost(&k->p[3], hC);
							if (hC) hitC++;
							else { lit++; x += lit_cost(dist[i], 3); }
						}
					}
				}
				c_mem += x;
				k->stride = k->lastprod ? (int64_t)(prod + 1) - (int64_t)k->lastprod : 0;
				k->last = dist[i]; k->lastprod = prod + 1; k->lastS = S;
			}
		}
		{
			struct kst *k = kget(0x08000000u ^ pc * 0x9E3779B1u);
			double x = 0;
			uint64_t par = cd ? ninsn - cd : UINT64_MAX;
			uint64_t best = 0;
			for (int c = 0; c < 4; c++) if (k->cand[c]) { uint64_t *ls = lookup_last(k->cand[c]); if (*ls > best) best = *ls; }
			uint64_t predD = best ? best - 1 : UINT64_MAX - 1;
			int hD = par == predD;
			x += bcost(&k->p[0], hD);
			if (hD) cdD++;
			else {
				int hA = cd == k->last;
				x += bcost(&k->p[1], hA);
				if (hA) cdA++;
				else if (!cd) { x += lit_cost(1, 4); cd0++; }
				else { x += lit_cost(cd + 1, 4); cdlit++; }
			}
			c_cd += x; k->last = cd;
			if (cd) { uint32_t S = pcs[par]; int have = 0; for (int c = 0; c < 4; c++) have |= k->cand[c] == S; if (!have) { memmove(k->cand + 1, k->cand, 3 * 4); k->cand[0] = S; } }
		}
		*lookup_last(pc) = ninsn + 1;
		ninsn++;
	}
	printf("%-10s seg %7lu: node %.3f cond %.3f memdepn %.3f memdep %.3f cdep %.3f => %.3f | mem hits D %lu A %lu B %lu C %lu lit %lu | cd D %lu A %lu 0 %lu lit %lu\n",
	       strrchr(argv[1], '/') + 1, seg, c_node / ninsn, c_cond / ninsn, c_depn / ninsn, c_mem / ninsn, c_cd / ninsn,
	       (c_node + c_cond + c_depn + c_mem + c_cd) / ninsn, hitD, hitA, hitB, hitC, lit, cdD, cdA, cd0, cdlit);
	return 0;
}
