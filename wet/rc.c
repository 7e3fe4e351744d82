/* The WET's range coder (rc.h; WET.md, "Second tier: the range coder"). */
#include "rc.h"

#include <stdlib.h>
#include <string.h>

static void put_byte(struct wet_rc *r, uint8_t b)
{
	if (r->n == r->cap) {
		size_t nc = r->cap ? 2 * r->cap : 4096;
		uint8_t *p = realloc(r->buf, nc);
		if (!p) {
			r->nomem = 1;
			return;
		}
		r->buf = p;
		r->cap = nc;
	}
	r->buf[r->n++] = b;
}

void wet_rc_shift_low(struct wet_rc *r)
{
	if ((uint32_t)r->low < 0xFF000000u || (r->low >> 32) != 0) {
		uint8_t carry = (uint8_t)(r->low >> 32), t = r->cache;
		do {
			put_byte(r, (uint8_t)(t + carry));
			t = 0xFF;
		} while (--r->cache_size);
		r->cache = (uint8_t)(r->low >> 24);
	}
	r->cache_size++;
	r->low = (r->low & 0x00FFFFFFu) << 8;
}

void wet_rc_enc_init(struct wet_rc *r)
{
	r->enc = 1;
	r->range = 0xFFFFFFFFu;
	r->low = 0;
	r->cache = 0;
	r->cache_size = 1;
	r->n = 0;
	r->nomem = 0;
}

int wet_rc_enc_finish(struct wet_rc *r)
{
	for (int i = 0; i < 5; i++)
		wet_rc_shift_low(r);
	return r->nomem ? -1 : 0;
}

void wet_rc_free(struct wet_rc *r)
{
	free(r->buf);
	r->buf = NULL;
	r->n = r->cap = 0;
}

int wet_rc_dec_init(struct wet_rc *r, const uint8_t *in, size_t len)
{
	memset(r, 0, sizeof *r);
	r->enc = 0;
	r->in = in;
	r->len = len;
	r->range = 0xFFFFFFFFu;
	if (len < 5 || in[0] != 0)
		return -1;
	r->pos = 1;
	for (int i = 0; i < 4; i++)
		r->code = r->code << 8 | wet_rc_byte(r);
	return 0;
}

void wet_gamma_init(struct wet_gamma *g)
{
	wet_prob_init(g->len, WET_GAMMA_LEN);
	wet_prob_init(&g->mant[0][0], sizeof g->mant / sizeof g->mant[0][0]);
}

uint64_t wet_rc_gamma(struct wet_rc *r, struct wet_gamma *g, uint64_t v)
{
	unsigned e = 0;
	if (r->enc) {
		e = 63u - (unsigned)__builtin_clzll(v + 1); /* v + 1 >= 1 */
		for (unsigned i = 0; i < e; i++)
			wet_rc_bit(r, &g->len[i], 1);
		if (e < 64)
			wet_rc_bit(r, &g->len[e], 0);
	} else {
		while (e < 64 && wet_rc_bit(r, &g->len[e], 0))
			e++;
		if (e == 64)
			return UINT64_MAX;
	}
	/* the bits below the leading one: the first few modelled */
	uint64_t x = r->enc ? v + 1 : 0, m = 1;
	unsigned k = e < WET_GAMMA_MBITS ? e : WET_GAMMA_MBITS, ctx = 1;
	for (unsigned i = 0; i < k; i++) {
		int b = wet_rc_bit(r, &g->mant[e][ctx & ((1u << WET_GAMMA_MBITS) - 1)], (int)((x >> (e - 1 - i)) & 1));
		m = m << 1 | (uint64_t)b;
		ctx = ctx << 1 | (unsigned)b;
	}
	unsigned rest = e - k;
	if (rest)
		m = m << rest | wet_rc_direct(r, x, rest);
	return m - 1;
}
