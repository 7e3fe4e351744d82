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

#include "ims.h" /* and cat.h: the CAT and IMS input conventions below */

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

/* Reads PAYLOAD wrapped in a container (MAGIC, VERSION, META) with
 * READ_ALL, which returns the records it read: first with a record count
 * of 1, then, when that differs, with the count the first read returned,
 * so that the second read reaches the end marker when every record
 * decoded.  Returns 0, or -1 out of memory. */
static inline int wrap_read_twice(const char magic[8], uint16_t version, const uint8_t *meta, uint32_t meta_len,
				  const uint8_t *payload, size_t len, uint32_t (*read_all)(const uint8_t *, size_t))
{
	uint32_t nrec = 1;
	size_t blen;
	for (int pass = 0; pass < 2; pass++) {
		uint8_t *b = wrap_container(magic, version, meta, meta_len, payload, len, nrec, &blen);
		if (!b)
			return -1;
		uint32_t n = read_all(b, blen);
		free(b);
		if (n == nrec || !n)
			break;
		nrec = n;
	}
	return 0;
}

/* The metadata of a wrapped input for TARGET (0 the A target, 1 the
 * Cortex-M7) into META (at most WRAP_META_MAX bytes), with *REC, *LEN the
 * records of DATA; returns the metadata length. */
#define WRAP_META_MAX 128
typedef uint32_t (*wrap_meta_fn)(int target, const uint8_t *data, size_t size, uint8_t *meta, const uint8_t **rec,
				 size_t *len);

/* The records of DATA read as the A target's, then as the Cortex-M7's
 * (wrap_read_twice for each; META_FN makes each one's metadata). */
static inline void wrap_read_both_targets(const char magic[8], uint16_t version, const uint8_t *data, size_t size,
					  wrap_meta_fn meta_fn, uint32_t (*read_all)(const uint8_t *, size_t))
{
	for (int target = 0; target < 2; target++) {
		uint8_t meta[WRAP_META_MAX] = {0};
		const uint8_t *rec;
		size_t len;
		uint32_t meta_len = meta_fn(target, data, size, meta, &rec, &len);
		if (wrap_read_twice(magic, version, meta, meta_len, rec, len, read_all))
			return;
	}
}

/* The CAT targets' wrapped input (fuzz_cat.c, fuzz_roundtrip_cat.c):
 * [configuration byte][records].  The configuration byte: bit 0
 * timestamps, bits 2..1 the I-cache line and bits 4..3 the D-cache line
 * (32, 16, 64 or 8 bytes), so that 0 is the default target.  Fills META
 * with that configuration and points *REC, *LEN at the records. */
static inline void wrap_cat_input(const uint8_t *data, size_t size, uint32_t isa, uint8_t meta[CITCAT_TARGET_META_LEN],
				  const uint8_t **rec, size_t *len)
{
	static const uint32_t lines[4] = {32, 16, 64, 8};
	struct citcat_target_config cfg;
	citcat_target_config_default(&cfg);
	unsigned sel = size ? data[0] : 0;
	cfg.timestamps = sel & 1;
	cfg.icache.line = lines[(sel >> 1) & 3];
	cfg.dcache.line = lines[(sel >> 3) & 3];
	cfg.isa = isa;
	citcat_target_config_encode(&cfg, meta);
	*rec = size ? data + 1 : data;
	*len = size ? size - 1 : 0;
}

/* The IMS targets' wrapped input (fuzz_ims.c, fuzz_roundtrip_ims.c):
 * [nrec byte][memory runs] in a container whose metadata is the default
 * target configuration with 1 MiB RAM at 0x100000, trace id and registers
 * zero, replacement states 0 (LRU caches).  Returns the malloc'ed
 * container and its length. */
static inline uint8_t *wrap_ims_input(const uint8_t *data, size_t size, size_t *out_len)
{
	uint8_t meta[CITCAT_IMS_META_LEN] = {0};
	struct citcat_target_config cfg;
	citcat_target_config_default(&cfg);
	cfg.ram_base = 0x100000;
	cfg.ram_size = 0x100000;
	citcat_target_config_encode(&cfg, meta);
	return wrap_container("CIMS\r\n\x1a\n", CITCAT_IMS_VERSION, meta, sizeof meta, size ? data + 1 : data,
			      size ? size - 1 : 0, size ? data[0] : 0, out_len);
}

#endif
