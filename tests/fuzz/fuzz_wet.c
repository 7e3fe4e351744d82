/* Fuzz target: the WET reader (open; walks of the stored blocks both ways;
 * a walk with accesses, which replays the embedded IMS and AES; slices)
 * must never crash, hang or read out of bounds, whatever the bytes.
 * Mutated bytes almost never pass the checksums, so when the first input
 * byte is odd the rest is "resealed" first: the header and footer
 * checksums, the graph and index hashes, the embedded IMS's and AES's
 * hashes and every block hash the index names (where their offsets fit)
 * are recomputed, so the parsers, the range decoder and the models behind
 * them get the mutated content (WET.md version 7). */
#include "bytes.h"
#include <citcat/wet.h>

#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void rehash(uint8_t *b, size_t n, uint8_t *field, uint64_t off, uint64_t len)
{
	if (off <= n && len <= n - off)
		cc_put64(field, XXH64(b + off, len, 0));
}

static void reseal(uint8_t *b, size_t n)
{
	if (n < 16 + 64)
		return;
	cc_put32(b + 12, XXH32(b, 12, 0));
	uint8_t *f = b + n - 64;
	uint64_t goff = cc_get64(f), glen = cc_get64(f + 8), ioff = cc_get64(f + 16), ilen = cc_get64(f + 24);
	uint64_t fo = n - 64;
	if (ioff <= fo && ilen <= fo - ioff && ilen >= 96) {
		uint8_t *x = b + ioff;
		rehash(b, n, x + 48, cc_get64(x + 32), cc_get64(x + 40));
		rehash(b, n, x + 72, cc_get64(x + 56), cc_get64(x + 64));
		uint32_t ns = cc_get32(x + 24), nb = cc_get32(x + 28);
		uint64_t per = 40 + 24 * (uint64_t)nb;
		for (uint64_t s = 0; nb <= 64 && s < ns && 96 + (s + 1) * per <= ilen; s++)
			for (uint32_t k = 0; k < nb; k++) {
				uint8_t *e = x + 96 + s * per + 40 + 24 * k;
				rehash(b, n, e + 16, cc_get64(e), cc_get32(e + 8));
			}
		cc_put64(f + 40, XXH64(x, ilen, 0));
	}
	if (goff <= fo && glen <= fo - goff)
		cc_put64(f + 32, XXH64(b + goff, glen, 0));
	cc_put32(f + 56, XXH32(f, 56, 0));
}

static int count_cb(void *ctx, const struct citcat_wet_insn *in)
{
	(*(uint64_t *)ctx)++;
	return *(uint64_t *)ctx > 2000000; /* bound the work per input */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!size)
		return 0;
	uint8_t *b = malloc(size);
	if (!b)
		return 0;
	memcpy(b, data + 1, size - 1);
	if (data[0] & 1)
		reseal(b, size - 1);
	struct citcat_wet *w;
	if (citcat_wet_open_mem(&w, b, size - 1) == 0) {
		uint64_t n = 0;
		for (int back = 0; back < 2; back++) {
			struct citcat_wet_walk wk = {.backward = back, .what = CITCAT_WET_W_DEP, .from = 0, .to = UINT64_MAX,
						     .cb = count_cb, .ctx = &n};
			citcat_wet_walk(w, &wk);
		}
		struct citcat_wet_info info;
		citcat_wet_info(w, &info);
		if (info.insns && info.insns < 100000) {
			/* the replay: accesses forwards, register results on odd inputs */
			n = 0;
			struct citcat_wet_walk wk = {.what = CITCAT_WET_W_ACC | (data[0] & 2 ? CITCAT_WET_W_VAL : 0),
						     .backward = (data[0] & 4) != 0, .from = 0, .to = UINT64_MAX, .cb = count_cb,
						     .ctx = &n};
			citcat_wet_walk(w, &wk);
			n = 0;
			citcat_wet_slice(w, info.insns - 1, 0, count_cb, &n, NULL, NULL);
			n = 0;
			citcat_wet_slice(w, 0, 1, count_cb, &n, NULL, NULL);
		}
	}
	citcat_wet_close(w);
	free(b);
	return 0;
}
