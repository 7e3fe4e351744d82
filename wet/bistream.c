/* Bidirectional predictor codecs (see bistream.h and WET.md).  The cursor
 * is the paper's figure 5 generalised to any context-coded predictor: a
 * value passes from FR form to BL form (or back) through the uncompressed
 * context window, and every code is undone exactly by the opposite move, so
 * the sequence of states is the same whichever way the block is walked. */
#include "bistream.h"
#include "bytes.h"
#include "grow.h"

#include <stdlib.h>
#include <string.h>

static const unsigned method_order[WET_M_COUNT] = {2, 4, 2, 4, 1, 1};

static int is_fcm(unsigned m) { return m == WET_M_FCM || m == WET_M_DFCM || m == WET_M_KFCM; }
static int has_table(unsigned m) { return is_fcm(m) || m == WET_M_KSTRIDE; }
static int is_delta(unsigned m) { return m == WET_M_DFCM || m == WET_M_DLASTN; }

static int bits_push(struct wet_bits *b, unsigned bit)
{
	if (b->n == b->cap) { /* CAP counts bits: grow the 64-bit words */
		size_t words = b->cap / 64;
		if (cc_grow(&b->w, &words, words + 1, sizeof *b->w, 16, SIZE_MAX / 64))
			return -1;
		b->cap = words * 64;
	}
	uint64_t m = 1ull << (b->n & 63);
	if (bit)
		b->w[b->n >> 6] |= m;
	else
		b->w[b->n >> 6] &= ~m;
	b->n++;
	return 0;
}

static int bits_pop(struct wet_bits *b)
{
	if (!b->n)
		return -2;
	b->n--;
	return (int)((b->w[b->n >> 6] >> (b->n & 63)) & 1);
}

static int vals_push(struct wet_vals *s, uint32_t v)
{
	if (cc_grow(&s->v, &s->cap, s->n + 1, sizeof *s->v, 256, SIZE_MAX))
		return -1;
	s->v[s->n++] = v;
	return 0;
}

static int vals_pop(struct wet_vals *s, uint32_t *v)
{
	if (!s->n)
		return -2;
	*v = s->v[--s->n];
	return 0;
}

/* CTX is nearest value first. */
static inline uint32_t fcm_hash(const uint32_t *ctx, unsigned kbits)
{
	uint32_t h = ctx[0] * 0x9E3779B1u;
	h ^= (ctx[1] * 0x85EBCA77u) >> 7 | (ctx[1] * 0x85EBCA77u) << 25;
	h ^= h >> 15;
	h *= 0xC2B2AE3Du;
	return h >> (32 - kbits);
}

static inline uint32_t key_hash(uint32_t key, uint32_t c0, unsigned kbits)
{
	uint32_t h = key * 0x9E3779B1u ^ c0 * 0x85EBCA77u;
	h ^= h >> 15;
	h *= 0xC2B2AE3Du;
	h ^= h >> 13;
	return h >> (32 - kbits);
}

static inline uint32_t table_index(const struct wet_cursor *c, const uint32_t *ctx, uint32_t key)
{
	if (c->method == WET_M_KFCM)
		return key_hash(key, ctx[0], c->kbits);
	if (c->method == WET_M_KSTRIDE)
		return key_hash(key, 0, c->kbits);
	return fcm_hash(ctx, c->kbits);
}

/* Codes V (key KEY) with context CTX (nearest first) onto the stack B/S
 * with tables T (and T2, the strides). */
static int code_push(const struct wet_cursor *c, uint32_t *t, uint32_t *t2, struct wet_bits *b, struct wet_vals *s,
		     const uint32_t *ctx, uint32_t key, uint32_t v)
{
	if (c->method == WET_M_KSTRIDE) {
		uint32_t idx = table_index(c, ctx, key), last = t[idx], st = t2[idx];
		t[idx] = v;
		if (last + st == v)
			return bits_push(b, 1);
		if (vals_push(s, last) || vals_push(s, st))
			return -1;
		t2[idx] = v - last;
		return bits_push(b, 0);
	}
	if (is_fcm(c->method)) {
		uint32_t idx = table_index(c, ctx, key);
		if (t[idx] == v)
			return bits_push(b, 1);
		if (vals_push(s, t[idx]))
			return -1;
		t[idx] = v;
		return bits_push(b, 0);
	}
	for (unsigned k = 0; k < c->order; k++)
		if (ctx[k] == v) {
			if (bits_push(b, (k >> 1) & 1) || bits_push(b, k & 1))
				return -1;
			return bits_push(b, 1);
		}
	if (vals_push(s, v))
		return -1;
	return bits_push(b, 0);
}

/* Undoes code_push: pops the code of the value with context CTX, key KEY. */
static int code_pop(const struct wet_cursor *c, uint32_t *t, uint32_t *t2, struct wet_bits *b, struct wet_vals *s,
		    const uint32_t *ctx, uint32_t key, uint32_t *v)
{
	int f = bits_pop(b);
	if (f < 0)
		return -2;
	if (c->method == WET_M_KSTRIDE) {
		uint32_t idx = table_index(c, ctx, key);
		*v = t[idx];
		if (f) {
			t[idx] = *v - t2[idx];
			return 0;
		}
		if (vals_pop(s, &t2[idx]) || vals_pop(s, &t[idx]))
			return -2;
		return 0;
	}
	if (is_fcm(c->method)) {
		uint32_t idx = table_index(c, ctx, key);
		*v = t[idx];
		if (!f && vals_pop(s, &t[idx]))
			return -2;
		return 0;
	}
	if (f) {
		int lo = bits_pop(b), hi = bits_pop(b);
		if (lo < 0 || hi < 0)
			return -2;
		*v = ctx[(unsigned)(hi << 1 | lo)];
		return 0;
	}
	return vals_pop(s, v) ? -2 : 0;
}

/* Window [i, i+n) -> [i+1, i+n+1).  RAW, when not NULL, supplies x[i+n]
 * (initial compression) instead of the BL codes. */
static int advance(struct wet_cursor *c, const uint32_t *raw, uint32_t key)
{
	unsigned n = c->order;
	int64_t j = c->i + n; /* entering value, key KEY */
	uint32_t nv = 0, ctx[WET_CTX];
	if (j < (int64_t)c->m) {
		if (raw) {
			nv = raw[j];
		} else {
			for (unsigned k = 0; k < n; k++)
				ctx[k] = c->win[n - 1 - k];
			int rc = code_pop(c, c->bltb, c->blt2, &c->blb, &c->blv, ctx, key, &nv);
			if (rc)
				return rc;
		}
	} else {
		key = 0;
	}
	if (c->i >= 0 && c->i < (int64_t)c->m) { /* leaving value x[i] -> FR */
		for (unsigned k = 0; k + 1 < n; k++)
			ctx[k] = c->win[k + 1];
		ctx[n - 1] = nv;
		int rc = code_push(c, c->frtb, c->frt2, &c->frb, &c->frv, ctx, c->wkey[0], c->win[0]);
		if (rc)
			return rc;
	}
	for (unsigned k = 0; k + 1 < n; k++) {
		c->win[k] = c->win[k + 1];
		c->wkey[k] = c->wkey[k + 1];
	}
	c->win[n - 1] = nv;
	c->wkey[n - 1] = key;
	c->i++;
	return 0;
}

/* Window [i, i+n) -> [i-1, i+n-1). */
static int retreat(struct wet_cursor *c, uint32_t key)
{
	unsigned n = c->order;
	uint32_t nv = 0, ctx[WET_CTX];
	if (c->i - 1 >= 0) { /* entering value x[i-1], key KEY */
		int rc = code_pop(c, c->frtb, c->frt2, &c->frb, &c->frv, c->win, key, &nv);
		if (rc)
			return rc;
	} else {
		key = 0;
	}
	int64_t j = c->i + n - 1; /* leaving value -> BL */
	if (j >= 0 && j < (int64_t)c->m) {
		for (unsigned k = 0; k + 1 < n; k++)
			ctx[k] = c->win[n - 2 - k];
		ctx[n - 1] = nv;
		int rc = code_push(c, c->bltb, c->blt2, &c->blb, &c->blv, ctx, c->wkey[n - 1], c->win[n - 1]);
		if (rc)
			return rc;
	}
	for (unsigned k = n - 1; k > 0; k--) {
		c->win[k] = c->win[k - 1];
		c->wkey[k] = c->wkey[k - 1];
	}
	c->win[0] = nv;
	c->wkey[0] = key;
	c->i--;
	return 0;
}

static int cursor_setup(struct wet_cursor *c, unsigned method, uint32_t m)
{
	memset(c, 0, sizeof *c);
	c->method = method;
	c->order = method_order[method];
	c->m = m;
	if (has_table(method)) {
		unsigned k = 4;
		while (k < 12 && (1u << k) < m)
			k++;
		c->kbits = k;
		c->frtb = calloc((size_t)1 << k, sizeof *c->frtb);
		c->bltb = calloc((size_t)1 << k, sizeof *c->bltb);
		if (!c->frtb || !c->bltb)
			return -1;
		if (method == WET_M_KSTRIDE) {
			c->frt2 = calloc((size_t)1 << k, sizeof *c->frt2);
			c->blt2 = calloc((size_t)1 << k, sizeof *c->blt2);
			if (!c->frt2 || !c->blt2)
				return -1;
		}
	}
	return 0;
}

void wet_cursor_fini(struct wet_cursor *c)
{
	free(c->frb.w);
	free(c->blb.w);
	free(c->frv.v);
	free(c->blv.v);
	free(c->frtb);
	free(c->bltb);
	free(c->frt2);
	free(c->blt2);
	memset(c, 0, sizeof *c);
}

int wet_block_encode_method(const uint32_t *x, const uint32_t *keys, uint32_t m, unsigned method, uint8_t **out,
			    size_t *len)
{
	struct wet_cursor c;
	uint32_t *d = NULL;
	int rc = -1;
	if (method >= WET_M_COUNT || m > WET_BLOCK_MAX || cursor_setup(&c, method, m))
		goto done;
	const uint32_t *src = x;
	if (is_delta(method)) {
		if (!(d = malloc((m ? m : 1) * sizeof *d)))
			goto done;
		for (uint32_t j = 0; j < m; j++)
			d[j] = x[j] - (j ? x[j - 1] : 0);
		src = d;
	}
	c.i = -(int64_t)c.order;
	while (c.i < (int64_t)m) {
		int64_t j = c.i + c.order;
		if (advance(&c, src, keys && j < (int64_t)m ? keys[j] : 0))
			goto done;
	}
	size_t nt = 0, ntab = c.frt2 ? 2 : c.kbits ? 1 : 0;
	uint32_t *tabs[2] = {c.frtb, c.frt2};
	for (size_t q = 0; q < ntab; q++)
		for (size_t k = 0; k < ((size_t)1 << c.kbits); k++)
			nt += tabs[q][k] != 0;
	size_t tlen = ntab * (((size_t)1 << c.kbits) / 8) + 4 * nt;
	size_t n = 20 + (c.frb.n + 7) / 8 + 4 * c.frv.n + tlen;
	uint8_t *b = calloc(1, n);
	if (!b)
		goto done;
	b[0] = (uint8_t)method;
	b[1] = (uint8_t)c.order;
	b[2] = (uint8_t)c.kbits;
	cc_put32(b + 4, m);
	cc_put32(b + 8, is_delta(method) && m ? x[m - 1] : 0);
	cc_put32(b + 12, (uint32_t)c.frb.n);
	cc_put32(b + 16, (uint32_t)c.frv.n);
	uint8_t *p = b + 20;
	for (size_t k = 0; k < c.frb.n; k++)
		p[k >> 3] |= (uint8_t)(((c.frb.w[k >> 6] >> (k & 63)) & 1) << (k & 7));
	p += (c.frb.n + 7) / 8;
	for (size_t k = 0; k < c.frv.n; k++, p += 4)
		cc_put32(p, c.frv.v[k]);
	for (size_t q = 0; q < ntab; q++) {
		uint8_t *bm = p;
		p += ((size_t)1 << c.kbits) / 8;
		for (size_t k = 0; k < ((size_t)1 << c.kbits); k++)
			if (tabs[q][k]) {
				bm[k >> 3] |= (uint8_t)(1u << (k & 7));
				cc_put32(p, tabs[q][k]);
				p += 4;
			}
	}
	*out = b;
	*len = n;
	rc = 0;
done:
	free(d);
	wet_cursor_fini(&c);
	return rc;
}

/* As in the paper, every method compresses the first values and the best
 * so far is chosen for the whole block. */
#define WET_TRIAL 16384

int wet_block_encode(const uint32_t *x, const uint32_t *keys, uint32_t m, uint8_t **out, size_t *len, unsigned *method)
{
	*out = NULL;
	uint32_t trial = m < WET_TRIAL ? m : WET_TRIAL;
	for (unsigned k = 0; k < WET_M_COUNT; k++) {
		uint8_t *b;
		size_t n;
		if (wet_block_encode_method(x, keys, trial, k, &b, &n)) {
			free(*out);
			*out = NULL;
			return -1;
		}
		if (!*out || n < *len) {
			free(*out);
			*out = b;
			*len = n;
			*method = k;
		} else {
			free(b);
		}
	}
	if (trial < m) {
		free(*out);
		*out = NULL;
		return wet_block_encode_method(x, keys, m, *method, out, len);
	}
	return 0;
}

#define BAD(w, a) do { *why = (w); *at = (a); wet_cursor_fini(c); return -2; } while (0)

int wet_cursor_load(struct wet_cursor *c, const uint8_t *buf, size_t len, const char **why, size_t *at)
{
	memset(c, 0, sizeof *c);
	if (len < 20)
		BAD("stream block shorter than its header", len);
	unsigned method = buf[0];
	if (method >= WET_M_COUNT)
		BAD("unknown stream method", 0);
	if (buf[1] != method_order[method])
		BAD("context size does not match the method", 1);
	if (buf[3])
		BAD("reserved byte is not zero", 3);
	uint32_t m = cc_get32(buf + 4);
	if (m > WET_BLOCK_MAX)
		BAD("block holds more values than allowed", 4);
	if (cursor_setup(c, method, m))
		return -1;
	if (buf[2] != c->kbits)
		BAD("table size does not match the block length", 2);
	uint32_t last = cc_get32(buf + 8), nbits = cc_get32(buf + 12), nvals = cc_get32(buf + 16);
	if (!is_delta(method) && last)
		BAD("last value set for a non-differential method", 8);
	/* every value costs at least one bit, at most 33 */
	if (nbits < m || nbits > 3ull * m || nvals > 2ull * m)
		BAD("code counts impossible for the block length", 12);
	size_t ntab = c->frt2 ? 2 : c->kbits ? 1 : 0;
	/* a KSTRIDE miss keeps two values */
	if (nvals > (c->frt2 ? 2ull : 1ull) * m)
		BAD("code counts impossible for the block length", 16);
	size_t need = 20 + ((size_t)nbits + 7) / 8 + 4 * (size_t)nvals + ntab * (((size_t)1 << c->kbits) / 8);
	if (need > len)
		BAD("stream block is truncated", len);
	const uint8_t *p = buf + 20;
	c->frb.cap = ((size_t)nbits + 63) / 64 * 64 + 64;
	c->frb.w = calloc(c->frb.cap / 64, 8);
	c->frv.cap = (size_t)nvals + 1;
	c->frv.v = malloc(c->frv.cap * sizeof *c->frv.v);
	if (!c->frb.w || !c->frv.v) {
		wet_cursor_fini(c);
		return -1;
	}
	for (size_t k = 0; k < nbits; k++)
		c->frb.w[k >> 6] |= (uint64_t)((p[k >> 3] >> (k & 7)) & 1) << (k & 63);
	if ((nbits & 7) && (p[nbits >> 3] >> (nbits & 7)))
		BAD("padding bits are not zero", (size_t)(p - buf) + (nbits >> 3));
	c->frb.n = nbits;
	p += ((size_t)nbits + 7) / 8;
	for (size_t k = 0; k < nvals; k++, p += 4)
		c->frv.v[k] = cc_get32(p);
	c->frv.n = nvals;
	uint32_t *tabs[2] = {c->frtb, c->frt2};
	for (size_t q = 0; q < ntab; q++) {
		const uint8_t *bm = p;
		if ((size_t)(p - buf) + ((size_t)1 << c->kbits) / 8 > len)
			BAD("stream block is truncated", len);
		p += ((size_t)1 << c->kbits) / 8;
		for (size_t k = 0; k < ((size_t)1 << c->kbits); k++)
			if ((bm[k >> 3] >> (k & 7)) & 1) {
				if ((size_t)(p - buf) + 4 > len)
					BAD("stream block is truncated", len);
				tabs[q][k] = cc_get32(p);
				if (!tabs[q][k])
					BAD("table entry marked present holds zero", (size_t)(p - buf));
				p += 4;
			}
	}
	if ((size_t)(p - buf) != len)
		BAD("stream block has trailing bytes", (size_t)(p - buf));
	c->i = m;
	c->p = m;
	c->cur = last;
	return 0;
}

int wet_cursor_next(struct wet_cursor *c, uint32_t key, uint32_t *v)
{
	if (c->p >= (int64_t)c->m)
		return 0;
	while (c->p >= c->i + (int64_t)c->order)
		if (advance(c, NULL, key))
			return -2;
	uint32_t y = c->win[c->p - c->i];
	if (is_delta(c->method))
		y = c->cur += y;
	*v = y;
	c->p++;
	return 1;
}

int wet_cursor_prev(struct wet_cursor *c, uint32_t key, uint32_t *v)
{
	if (c->p <= 0)
		return 0;
	while (c->p - 1 < c->i)
		if (retreat(c, key))
			return -2;
	uint32_t y = c->win[c->p - 1 - c->i];
	if (is_delta(c->method)) {
		*v = c->cur;
		c->cur -= y;
	} else {
		*v = y;
	}
	c->p--;
	if (c->p == 0 && c->i <= 0 && (c->frb.n || c->frv.n || (is_delta(c->method) && c->cur)))
		return -2; /* codes left over: the block is not what it claims */
	return 1;
}

int wet_cursor_rewind(struct wet_cursor *c, const uint32_t *keys)
{
	uint32_t v;
	int rc;
	while ((rc = wet_cursor_prev(c, keys && c->p > 0 ? keys[c->p - 1] : 0, &v)) == 1)
		;
	return rc;
}
