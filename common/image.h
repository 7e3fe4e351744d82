/* A sparse memory image: byte ranges at addresses.  Loaded from a firmware
 * ELF (its PT_LOAD segments) or built by the IMS extractor; used by the
 * capture model to load RAM and by decoders that need the program binary. */
#ifndef CITCAT_IMAGE_H
#define CITCAT_IMAGE_H

#include "citcat.h"

struct citcat_image;

int citcat_image_alloc(struct citcat_image **img);
void citcat_image_free(struct citcat_image *img);
/* Copies LEN bytes at ADDR into the image; bytes already present are
 * overwritten.  Returns 0 or an error code. */
int citcat_image_add(struct citcat_image *img, uint64_t addr, const void *data, size_t len);
/* Loads the PT_LOAD segments of a 32-bit little-endian ARM ELF executable
 * (file bytes, then zeros up to the segment's memory size) at their physical
 * addresses, and returns its entry point.  On error fills ERR (if non-NULL). */
int citcat_image_load_elf(struct citcat_image *img, const char *path, uint64_t *entry,
			  struct citcat_errinfo *err);
/* Copies LEN bytes at ADDR to BUF.  Returns 0 when every byte is present,
 * CITCAT_ERR_EOF when any is missing (BUF then holds zeros for those). */
int citcat_image_read(const struct citcat_image *img, uint64_t addr, void *buf, size_t len);
/* Segments, sorted by address, non-overlapping and non-adjacent (adjacent
 * ranges are merged). */
size_t citcat_image_segments(const struct citcat_image *img);
void citcat_image_segment(const struct citcat_image *img, size_t i, uint64_t *addr, uint64_t *len,
			  const uint8_t **data);
uint64_t citcat_image_bytes(const struct citcat_image *img);

#endif
