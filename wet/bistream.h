/* Internal: bidirectional stream compression (WET paper, section 4).
 *
 * A block of up to WET_BLOCK_MAX 32-bit values is compressed with one of
 * four reversible predictor codecs, chosen per block by size:
 *   FCM      bidirectional finite-context-method predictor (order 2, one
 *            hashed table per direction, figure 5 of the paper)
 *   LASTN    bidirectional last-n predictor (n = 4): a value equal to one of
 *            the n context values is coded by its position in the context
 *   DFCM, DLASTN  the same on the differences x[j] - x[j-1]
 *   KFCM     FCM of order 1 whose context also holds the value's key (the
 *            statement that produced it, known to both directions)
 *   KSTRIDE  per-key last value + stride: a hit needs no undo information
 *            (the old last value is the value minus the stride), a miss
 *            keeps the old last value and stride
 * Every value has a key (0 when the stream has none); a cursor's caller
 * passes the key of the value it asks for.
 * A cursor holds the block as [FR][U][BL] (forward-compressed codes with
 * right context, the n uncompressed context values, backward-compressed
 * codes with left context) and moves one value forwards or backwards at the
 * same cost, re-coding the value it passes; it never holds the values
 * decompressed.  The stored form is the state with the context at the right
 * end (every value in FR form) plus the FR table then.  Byte layout:
 * WET.md, "Stream blocks". */
#ifndef CITCAT_WET_BISTREAM_H
#define CITCAT_WET_BISTREAM_H

#include <stddef.h>
#include <stdint.h>

#define WET_BLOCK_MAX (1u << 20)
#define WET_CTX 4 /* largest context */

enum wet_method { WET_M_FCM = 0, WET_M_LASTN = 1, WET_M_DFCM = 2, WET_M_DLASTN = 3, WET_M_KFCM = 4,
		  WET_M_KSTRIDE = 5, WET_M_COUNT };

struct wet_bits { /* a stack of bits */
	uint64_t *w;
	size_t n, cap; /* bits */
};
struct wet_vals { /* a stack of 32-bit values */
	uint32_t *v;
	size_t n, cap;
};

struct wet_cursor {
	unsigned method, order, kbits;
	uint32_t m;          /* values in the block */
	int64_t i;           /* the context window is [i, i+order) */
	int64_t p;           /* logical position: next() returns x[p] */
	uint32_t win[WET_CTX], wkey[WET_CTX];
	uint32_t cur;        /* delta methods: x[p-1] (x[-1] = 0) */
	struct wet_bits frb, blb;
	struct wet_vals frv, blv;
	uint32_t *frtb, *bltb, *frt2, *blt2;
};

/* Compresses X[0..M) into a freshly malloc'ed buffer (*OUT, *LEN) with the
 * smallest method.  Returns 0 or -1 (out of memory). */
int wet_block_encode(const uint32_t *x, const uint32_t *keys, uint32_t m, uint8_t **out, size_t *len, unsigned *method);
/* The same with one given method (tests).  KEYS may be NULL (all 0). */
int wet_block_encode_method(const uint32_t *x, const uint32_t *keys, uint32_t m, unsigned method, uint8_t **out,
			    size_t *len);

/* Loads a stored block into C, positioned at its end (p = m).  Returns 0,
 * -1 out of memory, or -2 malformed (*WHY says what, *AT the byte). */
int wet_cursor_load(struct wet_cursor *c, const uint8_t *buf, size_t len, const char **why, size_t *at);
void wet_cursor_fini(struct wet_cursor *c);
/* next: *V = x[p], p++ (KEY: the key of x[p]).  prev: *V = x[p-1], p--
 * (KEY: the key of x[p-1]).  Return 1, 0 at the block's end/start, -2 when
 * the codes are inconsistent (a corrupt block). */
int wet_cursor_next(struct wet_cursor *c, uint32_t key, uint32_t *v);
int wet_cursor_prev(struct wet_cursor *c, uint32_t key, uint32_t *v);
/* Moves to position 0 (backward steps); KEYS[j] is x[j]'s key (NULL: 0).
 * Returns 0 or -2. */
int wet_cursor_rewind(struct wet_cursor *c, const uint32_t *keys);

#endif
