/* Internal: byte-by-byte little-endian access and LEB128 varints.
 * Every on-disk format of citcat is read and written through these; no
 * struct is ever written to disk as-is. */
#ifndef CITCAT_BYTES_H
#define CITCAT_BYTES_H

#include <stdint.h>
#include <stddef.h>
#include <string.h>

static inline void cc_put16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
static inline void cc_put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); p[2] = (uint8_t)(v >> 16); p[3] = (uint8_t)(v >> 24);
}
static inline void cc_put64(uint8_t *p, uint64_t v) { cc_put32(p, (uint32_t)v); cc_put32(p + 4, (uint32_t)(v >> 32)); }
static inline uint16_t cc_get16(const uint8_t *p) { return (uint16_t)(p[0] | (p[1] << 8)); }
static inline uint32_t cc_get32(const uint8_t *p)
{
	return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}
static inline uint64_t cc_get64(const uint8_t *p) { return cc_get32(p) | ((uint64_t)cc_get32(p + 4) << 32); }

/* Unsigned LEB128: 7 bits a byte, low groups first, high bit = more.  At
 * most 10 bytes for 64 bits.  Returns bytes written. */
static inline size_t cc_put_uvar(uint8_t *p, uint64_t v)
{
	size_t n = 0;
	while (v >= 0x80) {
		p[n++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	p[n++] = (uint8_t)v;
	return n;
}

/* Reads a LEB128 value from [*pp, end).  Returns 0 on success, -1 when the
 * input ends inside the value, -2 when it has more than 64 significant bits. */
static inline int cc_get_uvar(const uint8_t **pp, const uint8_t *end, uint64_t *out)
{
	const uint8_t *p = *pp;
	uint64_t v = 0;
	unsigned shift = 0;
	for (;;) {
		if (p >= end)
			return -1;
		uint8_t b = *p++;
		if (shift == 63 && (b & 0x7e))
			return -2;
		v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80))
			break;
		shift += 7;
		if (shift > 63)
			return -2;
	}
	*pp = p;
	*out = v;
	return 0;
}

static inline uint64_t cc_zigzag(int64_t v) { return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63); }
static inline int64_t cc_unzigzag(uint64_t v) { return (int64_t)(v >> 1) ^ -(int64_t)(v & 1); }
/* BASE plus the zigzag delta V into *OUT; -1 (nothing stored) when the sum
 * leaves the 32-bit address space.  Writers only produce deltas that land
 * inside it; any other would overflow a signed sum or alias an address. */
static inline int cc_add_delta32(uint32_t base, uint64_t v, uint32_t *out)
{
	int64_t d = cc_unzigzag(v);
	if (d < -(int64_t)base || d > (int64_t)UINT32_MAX - (int64_t)base)
		return -1;
	*out = (uint32_t)((int64_t)base + d);
	return 0;
}

#define CC_UVAR_MAX 10

#endif
