/* Issue 32 measurement: how often a node execution's whole dependence tuple repeats an earlier one of the same node in its segment; usage: repeat RUN.dump */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>
#define HB 20
static uint64_t *tabh; static uint32_t *tabg;
int main(int argc, char **argv) {
	FILE *f = fopen(argv[1], "rb");
	tabh = calloc(1 << HB, 8); tabg = calloc(1 << HB, 4);
	uint8_t h[12]; uint32_t gen = 1;
	uint64_t ninsn = 0, segstart = 0, nexec = 0, rep = 0, repinsn = 0, curn = 0;
	uint32_t buf[300000]; size_t bn = 0; uint32_t curid = ~0u; int have = 0;
	uint64_t edges_in_rep = 0, edges = 0, curedges = 0;
	#define CLOSE() do { if (have) { nexec++; uint64_t hv = XXH64(buf, bn * 4, curid); uint32_t s = hv >> (64 - HB); int found = 0; \
		while (tabg[s] == gen) { if (tabh[s] == hv) { found = 1; break; } s = (s + 1) & ((1 << HB) - 1); } \
		if (found) { rep++; repinsn += curn; edges_in_rep += curedges; } else { tabg[s] = gen; tabh[s] = hv; } edges += curedges; } } while (0)
	while (fread(h, 1, 12, f) == 12) {
		if (h[0] == 0xee) {
			CLOSE();
			uint32_t id; memcpy(&id, h + 4, 4);
			if (ninsn - segstart >= 65536) { gen++; segstart = ninsn; }
			curid = id; bn = 0; curn = 0; have = 1; curedges = 0;
			continue;
		}
		uint32_t cd; memcpy(&cd, h + 8, 4);
		int nst = h[2];
		buf[bn++] = cd; buf[bn++] = nst | (h[1] << 16);
		for (int i = 0; i < nst; i++) { uint32_t d; uint8_t m; fread(&d, 4, 1, f); fread(&m, 1, 1, f); buf[bn++] = d; }
		curedges += nst + (cd != 0);
		uint8_t nr; fread(&nr, 1, 1, f);
		ninsn++; curn++;
	}
	CLOSE();
	printf("%-12s node execs %lu, repeating an earlier tuple of the segment: %lu (%.1f%%), instances %.1f%%, stored edges+cdeps %.1f%%\n",
	       strrchr(argv[1], '/') + 1, nexec, rep, 100.0 * rep / nexec, 100.0 * repinsn / ninsn, 100.0 * edges_in_rep / edges);
	return 0;
}
