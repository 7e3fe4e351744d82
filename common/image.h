/* A sparse memory image: byte ranges at addresses.  Loaded from a firmware
 * ELF (its PT_LOAD segments) or built by the IMS extractor; used by the
 * capture model to load RAM and by decoders that need the program binary. */
#ifndef CITCAT_IMAGE_H
#define CITCAT_IMAGE_H

#include <citcat/image.h>

#include "citcat.h"

/* Internal: the public functions are in <citcat/image.h>. */

/* Where a firmware ELF may load, and how much work loading may take. */
#define CITCAT_ELF_MAX_SEGMENTS 64 /* PT_LOAD segments with a non-zero memory size */
struct citcat_elf_limits {
	uint64_t base, size;  /* the memory map: every segment byte must lie in [base, base + size) */
	const char *map_name; /* names that range in messages ("RAM"), or NULL */
	unsigned max_segments; /* 0: CITCAT_ELF_MAX_SEGMENTS */
	/* Polled while loading (may be NULL); non-zero stops with
	 * CITCAT_ERR_INTERRUPTED. */
	int (*stop)(void *ctx);
	void *stop_ctx;
};
/* Loads the PT_LOAD segments of a 32-bit little-endian ARM ELF executable
 * (file bytes, then zeros up to the segment's memory size) at their physical
 * addresses, and returns its entry point.  Every segment is checked before
 * anything is allocated: it must lie inside LIM's range (no wrap past
 * 4 GiB), no two may overlap, and there may be at most LIM->max_segments of
 * them; so memory and time are bounded by LIM->size whatever the file
 * claims.  Errors (ERR, if non-NULL, names the byte offset of the program
 * header at fault): CITCAT_ERR_IO, _EMPTY, _MAGIC, _UNSUPPORTED, _CORRUPT
 * (impossible sizes, overlap, no loadable segment), _LIMIT (outside the
 * range, too many segments), _TRUNCATED, _NOMEM, _INTERRUPTED.
 * citcat_image_load_elf (public) is this with the largest memory map the
 * target can have (RAM at 0, up to 1 GiB). */
int citcat_image_load_elf_limited(struct citcat_image *img, const char *path, const struct citcat_elf_limits *lim,
				  uint64_t *entry, struct citcat_errinfo *err);

#endif
