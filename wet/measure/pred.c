/* Issue 32 measurement: version 6 stream blocks under bistream-style predictor variants, 3 context sizes each, best per block (sizes: hit 1 bit, miss 1 + 32 bits, last-n hit 1 + log2 n bits); usage: pred RUN.streams */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static uint32_t T[1 << 12], T2[1 << 12];
static uint64_t fcm(const uint32_t *x, const uint32_t *key, uint32_t m, int order, int delta, int keyed, unsigned kb)
{
	memset(T, 0, sizeof T);
	uint64_t bits = 0; uint32_t ctx[8] = {0}, prev = 0;
	for (uint32_t j = 0; j < m; j++) {
		uint32_t v = delta ? x[j] - prev : x[j]; prev = x[j];
		uint32_t h = 0x811C9DC5u;
		for (int i = 0; i < order; i++) { h ^= ctx[i]; h *= 0x01000193u; h ^= h >> 13; }
		if (keyed) { h ^= key[j] * 0x9E3779B1u; h ^= h >> 15; h *= 0xC2B2AE3Du; }
		h = (h * 0x9E3779B1u) >> (32 - kb);
		bits += T[h] == v ? 1 : 33; T[h] = v;
		memmove(ctx + 1, ctx, 7 * 4); ctx[0] = v;
	}
	return bits;
}
static uint64_t lastn(const uint32_t *x, uint32_t m, int n, int delta)
{
	uint64_t bits = 0; uint32_t ctx[8] = {0}, prev = 0; int lb = n == 2 ? 1 : n == 4 ? 2 : 3;
	for (uint32_t j = 0; j < m; j++) {
		uint32_t v = delta ? x[j] - prev : x[j]; prev = x[j];
		int hit = 0; for (int i = 0; i < n; i++) hit |= ctx[i] == v;
		bits += hit ? 1 + lb : 33;
		memmove(ctx + 1, ctx, 7 * 4); ctx[0] = v;
	}
	return bits;
}
static uint64_t kstride(const uint32_t *x, const uint32_t *key, uint32_t m, unsigned kb)
{
	memset(T, 0, sizeof T); memset(T2, 0, sizeof T2); uint64_t bits = 0;
	for (uint32_t j = 0; j < m; j++) { uint32_t h = (key[j] * 0x9E3779B1u) >> (32 - kb); bits += T[h] + T2[h] == x[j] ? 1 : 65; if (T[h] + T2[h] != x[j]) T2[h] = x[j] - T[h]; T[h] = x[j]; }
	return bits;
}
int main(int argc, char **argv)
{
	FILE *f = fopen(argv[1], "rb");
	uint32_t k, n; static uint32_t x[1 << 21], key[1 << 21];
	uint64_t base[16] = {0}, ext[16] = {0};
	while (fread(&k, 4, 1, f) == 1 && fread(&n, 4, 1, f) == 1) {
		fread(x, 4, n, f); fread(key, 4, n, f);
		if (!n) continue;
		unsigned kb = 4; while (kb < 12 && (1u << kb) < n) kb++;
		uint64_t b6 = UINT64_MAX, be = UINT64_MAX, c;
		/* v6: FCM2 lastn4 DFCM2 Dlastn4 KFCM1 KSTRIDE */
		uint64_t v6[6] = {fcm(x, key, n, 2, 0, 0, kb), lastn(x, n, 4, 0), fcm(x, key, n, 2, 1, 0, kb), lastn(x, n, 4, 1), fcm(x, key, n, 1, 0, 1, kb), kstride(x, key, n, kb)};
		for (int i = 0; i < 6; i++) if (v6[i] < b6) b6 = v6[i];
		be = b6;
		for (int o = 1; o <= 3; o++) { if ((c = fcm(x, key, n, o, 0, 0, kb)) < be) be = c; if ((c = fcm(x, key, n, o, 1, 0, kb)) < be) be = c; if ((c = fcm(x, key, n, o, 0, 1, kb)) < be) be = c; if ((c = fcm(x, key, n, o, 1, 1, kb)) < be) be = c; }
		for (int q = 2; q <= 8; q *= 2) { if ((c = lastn(x, n, q, 0)) < be) be = c; if ((c = lastn(x, n, q, 1)) < be) be = c; }
		base[k] += b6; ext[k] += be;
	}
	static const char *nm[14] = {"node","cond","accn","akind","aaddr","aval","avalhi","uval","depn","dep","cdep","vpat","apat","avpat"};
	uint64_t tb = 0, te = 0;
	for (int i = 0; i < 14; i++) { tb += base[i]; te += ext[i]; }
	printf("%s: all streams v6 methods %.0f KB, with 3 context sizes each (FCM/DFCM/keyed 1-3, last-n and D-last-n 2/4/8): %.0f KB (%.3f)  [uval %.3f aval %.3f dep %.3f]\n", argv[1], tb / 8192.0, te / 8192.0, (double)te / tb,
	       (double)ext[7] / base[7], (double)ext[5] / base[5], (double)ext[9] / base[9]);
	return 0;
}
