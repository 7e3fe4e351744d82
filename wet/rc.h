/* Internal: the WET's second tier (version 7): an adaptive binary range
 * coder, the LZMA kind (a 32-bit range, carries through a cached byte),
 * with 15-bit probabilities that follow what they code.  Every value is
 * coded as binary decisions with an adaptive probability each; the models
 * that choose those probabilities (segcode.c) are shared by the builder and
 * the reader, so a decision costs what its predictability says: a
 * prediction that always holds costs about a thousandth of a bit, where the
 * paper's bidirectional codes cost one bit per value at least.
 *
 * One struct wet_rc either encodes (into a growing buffer) or decodes
 * (from a block); the model code calls the same functions in both
 * directions: an encoder codes the value it is given and returns it, a
 * decoder ignores that argument and returns what it decoded.  A decoder
 * never reads outside its block: past the end it reads zeros and counts
 * them (wet_rc_dec_overrun), and the caller refuses the block.  Byte
 * layout: WET.md, "Second tier: the range coder". */
#ifndef CITCAT_WET_RC_H
#define CITCAT_WET_RC_H

#include <stddef.h>
#include <stdint.h>

#define WET_P_BITS 15
#define WET_P_ONE (1u << WET_P_BITS)
#define WET_P_HALF (WET_P_ONE / 2)
#define WET_P_SHIFT 5 /* adaptation: p moves by 1/32 of the way */

typedef uint16_t wet_prob; /* probability that the bit is 0, in units of 2^-15 */

struct wet_rc {
	int enc;
	uint32_t range;
	/* encoder */
	uint64_t low;
	uint8_t cache;
	uint64_t cache_size;
	uint8_t *buf;
	size_t n, cap;
	int nomem;
	/* decoder */
	const uint8_t *in;
	size_t len, pos;
	uint32_t code;
	uint64_t over; /* bytes read past the end */
};

/* Starts an encoder (its buffer is reused across blocks). */
void wet_rc_enc_init(struct wet_rc *r);
/* Ends the block: its bytes are r->buf[0 .. r->n).  Returns 0 or -1 (out
 * of memory while coding). */
int wet_rc_enc_finish(struct wet_rc *r);
void wet_rc_free(struct wet_rc *r);
/* Starts a decoder on LEN bytes at IN.  Returns 0, or -1 when the block
 * cannot be one (shorter than 5 bytes, or its first byte is not 0). */
int wet_rc_dec_init(struct wet_rc *r, const uint8_t *in, size_t len);
/* Whether the decoder read past the block's end (a corrupt block). */
static inline int wet_rc_dec_overrun(const struct wet_rc *r) { return r->over != 0; }

void wet_rc_shift_low(struct wet_rc *r);

static inline void wet_prob_init(wet_prob *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		p[i] = WET_P_HALF;
}

static inline uint8_t wet_rc_byte(struct wet_rc *r)
{
	if (r->pos < r->len)
		return r->in[r->pos++];
	r->over++;
	return 0;
}

/* Codes BIT (encoder) or decodes one (decoder) with probability *P, which
 * then moves towards what was coded.  Returns the bit. */
static inline int wet_rc_bit(struct wet_rc *r, wet_prob *p, int bit)
{
	uint32_t bound = (r->range >> WET_P_BITS) * *p;
	if (r->enc) {
		if (!bit) {
			r->range = bound;
			*p = (wet_prob)(*p + ((WET_P_ONE - *p) >> WET_P_SHIFT));
		} else {
			r->low += bound;
			r->range -= bound;
			*p = (wet_prob)(*p - (*p >> WET_P_SHIFT));
		}
		while (r->range < (1u << 24)) {
			r->range <<= 8;
			wet_rc_shift_low(r);
		}
		return bit;
	}
	if (r->code < bound) {
		r->range = bound;
		*p = (wet_prob)(*p + ((WET_P_ONE - *p) >> WET_P_SHIFT));
		bit = 0;
	} else {
		r->code -= bound;
		r->range -= bound;
		*p = (wet_prob)(*p - (*p >> WET_P_SHIFT));
		bit = 1;
	}
	while (r->range < (1u << 24)) {
		r->range <<= 8;
		r->code = r->code << 8 | wet_rc_byte(r);
	}
	return bit;
}

/* N bits of V with probability one half each, most significant first. */
static inline uint64_t wet_rc_direct(struct wet_rc *r, uint64_t v, unsigned n)
{
	uint64_t out = 0;
	while (n--) {
		r->range >>= 1;
		unsigned b;
		if (r->enc) {
			b = (unsigned)(v >> n) & 1;
			if (b)
				r->low += r->range;
			if (r->range < (1u << 24)) {
				r->range <<= 8;
				wet_rc_shift_low(r);
			}
		} else {
			b = r->code >= r->range;
			if (b)
				r->code -= r->range;
			if (r->range < (1u << 24)) {
				r->range <<= 8;
				r->code = r->code << 8 | wet_rc_byte(r);
			}
		}
		out = out << 1 | b;
	}
	return out;
}

/* A bit-tree over values of NBITS bits (P: 2^NBITS probabilities). */
static inline uint32_t wet_rc_tree(struct wet_rc *r, wet_prob *p, unsigned nbits, uint32_t v)
{
	uint32_t m = 1;
	for (unsigned i = nbits; i-- > 0;)
		m = m << 1 | (uint32_t)wet_rc_bit(r, &p[m], (int)((v >> i) & 1));
	return m - (1u << nbits);
}

/* An unsigned value of up to 64 bits, Elias-gamma style: the length of
 * V + 1 in unary with a probability per position, then its bits below
 * the leading one, the first WET_GAMMA_MBITS of them modelled per length,
 * the rest direct. */
#define WET_GAMMA_LEN 65
#define WET_GAMMA_MBITS 2
struct wet_gamma {
	wet_prob len[WET_GAMMA_LEN];
	wet_prob mant[WET_GAMMA_LEN][1u << WET_GAMMA_MBITS];
};
void wet_gamma_init(struct wet_gamma *g);
/* Codes V (< 2^64 - 1).  A decoder returns UINT64_MAX for a length past 64
 * bits (a corrupt block). */
uint64_t wet_rc_gamma(struct wet_rc *r, struct wet_gamma *g, uint64_t v);

#endif
