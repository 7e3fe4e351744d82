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
 * reset at a chunk, uninitialised bytes), fails one of the two. */
#ifndef CITCAT_FUZZ_ROUNDTRIP_H
#define CITCAT_FUZZ_ROUNDTRIP_H

#include "tmpdir.h"

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

#endif
