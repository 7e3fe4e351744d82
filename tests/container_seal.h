/* Test helpers that edit a citcat container's header or metadata and keep
 * it well formed (tests/container_retag.c, tests/m7rep_edit.c): the whole
 * file read into memory, the header checksum redone (common/CONTAINER.md:
 * hcheck, XXH32 seed 0 of the 16-byte header and the metadata, stored
 * little-endian after them), the file written back. */
#ifndef CITCAT_TESTS_CONTAINER_SEAL_H
#define CITCAT_TESTS_CONTAINER_SEAL_H

#include <stdio.h>
#include <stdlib.h>
#include <xxhash.h>

struct container_buf {
	unsigned char *b;
	unsigned long n;    /* file size */
	unsigned long meta; /* metadata length (header bytes 12..15) */
};

/* Reads PATH whole.  Returns 0, or -1 (nothing left allocated) when it
 * cannot be read or is too short for its header, metadata and header
 * checksum. */
static inline int container_read(const char *path, struct container_buf *c)
{
	FILE *f = fopen(path, "rb");
	c->b = NULL;
	if (!f)
		return -1;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	rewind(f);
	c->b = malloc(n > 0 ? (size_t)n : 1);
	int bad = !c->b || n < 20 || fread(c->b, 1, (size_t)n, f) != (size_t)n;
	fclose(f);
	if (!bad) {
		c->n = (unsigned long)n;
		c->meta = c->b[12] | c->b[13] << 8 | (unsigned long)c->b[14] << 16 | (unsigned long)c->b[15] << 24;
		bad = 16 + c->meta + 4 > c->n;
	}
	if (bad) {
		free(c->b);
		c->b = NULL;
		return -1;
	}
	return 0;
}

/* Redoes the header checksum and writes the file to PATH; frees the
 * buffer.  Returns 0 or -1. */
static inline int container_seal_write(const char *path, struct container_buf *c)
{
	unsigned h = XXH32(c->b, 16 + c->meta, 0);
	for (int i = 0; i < 4; i++)
		c->b[16 + c->meta + i] = (unsigned char)(h >> (8 * i));
	FILE *f = fopen(path, "wb");
	int bad = !f || fwrite(c->b, 1, c->n, f) != c->n;
	if (f && fclose(f))
		bad = 1;
	free(c->b);
	c->b = NULL;
	return bad ? -1 : 0;
}

#endif
