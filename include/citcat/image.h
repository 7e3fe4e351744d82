/* libcitcat public API: a sparse memory image (byte ranges at addresses),
 * loaded from a firmware ELF or held by an IMS.  Decoders that rebuild
 * instruction addresses (SDC-LSP) read the program's code from one. */
#ifndef CITCAT_PUBLIC_IMAGE_H
#define CITCAT_PUBLIC_IMAGE_H

#include <citcat/base.h>

#ifdef __cplusplus
extern "C" {
#endif

struct citcat_image;

/* Creates an empty image in *IMG.  Returns 0, CITCAT_ERR_INVAL (NULL IMG)
 * or _NOMEM (*IMG is then NULL).  Free it with citcat_image_free. */
CITCAT_API int citcat_image_alloc(struct citcat_image **img);
/* Frees IMG and what it holds.  Accepts NULL. */
CITCAT_API void citcat_image_free(struct citcat_image *img);
/* Copies LEN bytes at ADDR into the image; bytes already present are
 * overwritten.  Returns 0, CITCAT_ERR_INVAL (NULL argument, a range past
 * 2^64) or _NOMEM. */
CITCAT_API int citcat_image_add(struct citcat_image *img, uint64_t addr, const void *data, size_t len);
/* Loads the PT_LOAD segments of a 32-bit little-endian ARM ELF executable
 * (RAM at 0, up to 1 GiB) and returns its entry point in *ENTRY (may be
 * NULL).  Returns 0, CITCAT_ERR_INVAL (NULL IMG or PATH), _IO, _EMPTY,
 * _MAGIC, _UNSUPPORTED, _CORRUPT, _LIMIT, _TRUNCATED or _NOMEM; ERR (may be
 * NULL, caller-owned) then names the byte offset at fault. */
CITCAT_API int citcat_image_load_elf(struct citcat_image *img, const char *path, uint64_t *entry,
				     struct citcat_errinfo *err);
/* Copies LEN bytes at ADDR to BUF.  Returns 0 when every byte is present,
 * CITCAT_ERR_EOF when any is missing (BUF then holds zeros for those),
 * CITCAT_ERR_INVAL for a NULL argument. */
CITCAT_API int citcat_image_read(const struct citcat_image *img, uint64_t addr, void *buf, size_t len);
/* Number of segments, sorted by address, non-overlapping and non-adjacent
 * (0 for NULL). */
CITCAT_API size_t citcat_image_segments(const struct citcat_image *img);
/* Segment I: its address, length and bytes (owned by IMG, valid until it
 * changes).  No effect for NULL or I out of range. */
CITCAT_API void citcat_image_segment(const struct citcat_image *img, size_t i, uint64_t *addr, uint64_t *len,
				     const uint8_t **data);
/* Bytes held in all (0 for NULL). */
CITCAT_API uint64_t citcat_image_bytes(const struct citcat_image *img);

#ifdef __cplusplus
}
#endif

#endif
