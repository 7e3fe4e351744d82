/* Helpers for the encoder round-trip fuzz targets (fuzz_roundtrip_*.c),
 * after lz4's ossfuzz/round_trip_*_fuzzer.c.  Each target decodes its
 * input; when every record decodes, it encodes the records with the
 * library's writer (file E1), decodes E1 again, asserting the same records,
 * encodes those (E2) and asserts E1 == E2 byte for byte.
 *
 * Why E1 == E2 and not input == E1: the decoders accept encodings the
 * writers never produce (over-long LEB128 varints, explicit fields the
 * writer would leave implied, stored chunks the writer would compress,
 * another chunking), so an input is not in general the canonical encoding
 * of its records.  The writers' output is canonical: a function of the
 * records alone.  So decode(E1) must give the records back exactly and
 * encode(decode(E1)) must give E1 back exactly; a writer that dropped or
 * changed information, or depended on anything but the records (state not
 * reset at a chunk, uninitialised bytes), fails one of the two.
 *
 * The loop is the same for every kind, so it lives here once: a target
 * describes its reader and writer in a struct rt_codec (callbacks over
 * void pointers) and calls rt_fuzz(), which round-trips a whole file
 * (starting with the kind's magic) as it is and wraps any other input's
 * bytes as the records of one container chunk (wrap.h), the record count
 * taken from a first read. */
#ifndef CITCAT_FUZZ_ROUNDTRIP_H
#define CITCAT_FUZZ_ROUNDTRIP_H

#include "tmpdir.h"
#include "wrap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Reads PATH whole (aborts when it cannot: the harness would test nothing). */
static inline uint8_t *rt_slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		abort();
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	rewind(f);
	uint8_t *b = malloc(n > 0 ? (size_t)n : 1);
	if (!b || n < 0 || fread(b, 1, (size_t)n, f) != (size_t)n)
		abort();
	fclose(f);
	*len = (size_t)n;
	return b;
}

/* Aborts unless files A and B hold the same bytes. */
static inline void rt_same_files(const char *a, const char *b)
{
	size_t la, lb;
	uint8_t *x = rt_slurp(a, &la), *y = rt_slurp(b, &lb);
	if (la != lb || memcmp(x, y, la) != 0) {
		fprintf(stderr, "round trip: re-encoding the decoded records changed the bytes (%zu vs %zu)\n", la, lb);
		abort();
	}
	free(x);
	free(y);
}

static inline void rt_fail(const char *what)
{
	fprintf(stderr, "round trip: %s\n", what);
	abort();
}

/* One record stream: its reader, its writer, and record equality. */
struct rt_codec {
	const char *e1, *e2; /* names of the two encodings in the scratch directory */
	size_t rec_size;     /* bytes of one record as next() fills it */
	int (*open_mem)(void **r, const void *buf, size_t len);
	int (*open_file)(void **r, const char *path);
	int (*next)(void *r, void *rec); /* 1 a record, 0 the end, < 0 an error */
	void (*close)(void *r);
	/* a writer for the records of R, with R's header properties */
	int (*writer_open)(void **w, const char *path, void *r);
	int (*write)(void *w, const void *rec);
	int (*writer_close)(void *w);
	void (*writer_abort)(void *w);
	int (*same)(const void *a, const void *b);
	/* optional: the two readers' header properties agree */
	int (*same_header)(void *a, void *b);
	/* optional: after the Nth record of R, nonzero gives up on this input
	 * (too many records to go through one by one) */
	int (*too_many)(void *r, long n);
	/* optional: what the container's record count counts once after a
	 * record (e.g. skip the copies of an AES REPEAT) */
	void (*count_one)(void *r);
};

static inline void *rt_rec(const struct rt_codec *c)
{
	void *p = calloc(1, c->rec_size);
	if (!p)
		abort();
	return p;
}

/* Writes every record of BUF to PATH; the number of records, or -1 when
 * BUF does not decode to its end (nothing to round-trip). */
static inline long rt_encode(const struct rt_codec *c, const uint8_t *buf, size_t len, const char *path)
{
	void *r = NULL, *w = NULL, *rec = rt_rec(c);
	long n = 0;
	int rc = c->open_mem(&r, buf, len);
	if (rc == 0 && c->writer_open(&w, path, r) != 0)
		rt_fail("cannot create the output (or the writer refuses the reader's properties)");
	while (rc == 0 && (rc = c->next(r, rec)) == 1) {
		rc = 0;
		n++;
		if (c->too_many && c->too_many(r, n)) {
			rc = -1;
			break;
		}
		if (c->write(w, rec) != 0)
			rt_fail("the writer refused a record the reader returned");
	}
	c->close(r);
	free(rec);
	if (rc < 0) {
		c->writer_abort(w);
		return -1;
	}
	if (c->writer_close(w) != 0)
		rt_fail("closing the output failed");
	return n;
}

/* decode, encode (E1), decode(E1) == decode(input), encode again (E2),
 * E1 == E2 byte for byte. */
static inline void rt_round_trip(const struct rt_codec *c, const uint8_t *buf, size_t len)
{
	char *e1 = fuzz_path(c->e1), *e2 = fuzz_path(c->e2);
	long n = rt_encode(c, buf, len, e1);
	if (n >= 0) {
		void *a = NULL, *b = NULL, *ra = rt_rec(c), *rb = rt_rec(c);
		if (c->open_mem(&a, buf, len) || c->open_file(&b, e1))
			rt_fail("reopening failed");
		if (c->same_header && !c->same_header(a, b))
			rt_fail("E1 has another header");
		int ka, kb;
		do {
			ka = c->next(a, ra);
			kb = c->next(b, rb);
			if (ka != kb || (ka == 1 && !c->same(ra, rb)))
				rt_fail("E1 decodes to other records");
		} while (ka == 1);
		c->close(a);
		c->close(b);
		free(ra);
		free(rb);
		size_t l1;
		uint8_t *b1 = rt_slurp(e1, &l1);
		if (rt_encode(c, b1, l1, e2) != n)
			rt_fail("E1 does not decode to its end");
		free(b1);
		rt_same_files(e1, e2);
	}
	free(e1);
	free(e2);
}

/* The records BUF decodes to before its first error. */
static inline uint32_t rt_count(const struct rt_codec *c, const uint8_t *buf, size_t len)
{
	void *r = NULL, *rec = rt_rec(c);
	uint32_t n = 0;
	if (c->open_mem(&r, buf, len) == 0)
		while (c->next(r, rec) == 1) {
			if (c->count_one)
				c->count_one(r);
			n++;
		}
	c->close(r);
	free(rec);
	return n;
}

/* The fuzz entry: DATA starting with the first 4 bytes of MAGIC is a whole
 * file; otherwise PAYLOAD (LEN bytes, usually DATA itself) becomes the
 * records of a container with VERSION and META, the chunk's record count
 * taken from a first read of it (inputs with no record are skipped). */
static inline void rt_fuzz(const struct rt_codec *c, const uint8_t *data, size_t size, const char magic[8],
			   uint16_t version, const uint8_t *meta, uint32_t meta_len, const uint8_t *payload, size_t len)
{
	if (size >= 4 && memcmp(data, magic, 4) == 0) {
		rt_round_trip(c, data, size);
		return;
	}
	size_t blen;
	uint8_t *b = wrap_container(magic, version, meta, meta_len, payload, len, 1, &blen);
	uint32_t n = b ? rt_count(c, b, blen) : 0;
	free(b);
	if (!n)
		return;
	b = wrap_container(magic, version, meta, meta_len, payload, len, n, &blen);
	if (b)
		rt_round_trip(c, b, blen);
	free(b);
}

#endif
