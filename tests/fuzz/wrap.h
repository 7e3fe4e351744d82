/* Helper for the record-decoder fuzz targets: mutated bytes almost never
 * pass the container's checksums, so most inputs would stop at the header.
 * wrap_container() builds a valid container (header with META, one stored
 * chunk holding PAYLOAD as its records, end marker) so libFuzzer reaches the
 * kind's record decoder.  Returns a malloc'ed buffer and its length. */
#ifndef CITCAT_FUZZ_WRAP_H
#define CITCAT_FUZZ_WRAP_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

static void wrap_put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint8_t *wrap_container(const char magic[8], uint16_t version, const uint8_t *meta, uint32_t meta_len,
			       const uint8_t *payload, size_t len, uint32_t nrec, size_t *out_len)
{
	size_t hlen = 16 + meta_len + 4, clen = len ? 24 + len : 0;
	size_t total = hlen + clen + 24;
	uint8_t *b = calloc(1, total);
	if (!b)
		return NULL;
	memcpy(b, magic, 8);
	b[8] = (uint8_t)version;
	b[9] = (uint8_t)(version >> 8);
	wrap_put32(b + 12, meta_len);
	memcpy(b + 16, meta, meta_len);
	wrap_put32(b + 16 + meta_len, XXH32(b, 16 + meta_len, 0));
	uint8_t *c = b + hlen;
	if (len) { /* a chunk has at least one byte */
		memcpy(c, "BLK", 4);
		wrap_put32(c + 4, (uint32_t)len);
		wrap_put32(c + 8, (uint32_t)len);
		wrap_put32(c + 12, nrec);
		wrap_put32(c + 16, 0); /* stored, not compressed */
		memcpy(c + 24, payload, len);
		XXH32_state_t *st = XXH32_createState();
		XXH32_reset(st, 0);
		XXH32_update(st, c, 20);
		XXH32_update(st, c + 24, len);
		wrap_put32(c + 20, XXH32_digest(st));
		XXH32_freeState(st);
	}
	uint8_t *e = b + hlen + clen;
	memcpy(e, "END", 4);
	wrap_put32(e + 4, len ? nrec : 0);
	wrap_put32(e + 12, (uint32_t)len);
	wrap_put32(e + 20, XXH32(e, 20, 0));
	*out_len = total;
	return b;
}

#endif
