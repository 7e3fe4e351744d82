/* Segment bundles: one IMS (version 3) or AES (version 4) file holding every
 * segment of a checkpointed capture, each a complete single-segment
 * container (a "member"), followed by an index that locates each member so
 * that a reader opens one segment without decoding the others.  Byte
 * layout: common/SEGIDX.md. */
#ifndef CITCAT_SEGIDX_H
#define CITCAT_SEGIDX_H

#include "citcat.h"
#include "container.h"

#define CC_SEGIDX_HEAD 16      /* bundle header bytes */
#define CC_SEGIDX_TRAILER 16   /* trailer bytes at the end of the file */
#define CC_SEGIDX_ENTRY 32     /* bytes per index entry */
#define CC_SEGIDX_MAX 1048576u /* most segments a reader accepts */

/* Where segment K starts in the whole traced run: instructions retired and
 * the branch count at its start point (0 and 0 for segment 0). */
struct cc_segidx_entry {
	uint64_t offset, length; /* the member's bytes in the file */
	uint64_t insns, bcount;
};

struct cc_segidx;

/* Opens PATH, a file of MAGIC.  When it is a bundle (its header carries
 * BUNDLE_VERSION) the index is read and checked and *SX is set; the file's
 * unwrapped bytes are mapped (a plain file directly, standard input or a
 * wrapped file through an unlinked temporary copy), so memory stays bounded.
 * When it is not a bundle, *SX is NULL and 0 is returned: the caller reads
 * PATH as the single-segment file it is.  Errors (CITCAT_ERR_*) carry the
 * file offset of the bad field in ERR. */
int cc_segidx_open(struct cc_segidx **sx, const char *path, const char magic[CC_MAGIC_LEN], uint16_t bundle_version,
		   struct citcat_errinfo *err);
/* The same over LEN bytes at BUF (which must outlive the handle); a buffer
 * that is not a bundle gives a handle with one member, the whole buffer. */
int cc_segidx_open_mem(struct cc_segidx **sx, const void *buf, size_t len, const char magic[CC_MAGIC_LEN],
		       uint16_t bundle_version, struct citcat_errinfo *err);
/* Segments in the file (1 for a single-segment file). */
uint64_t cc_segidx_count(const struct cc_segidx *sx);
/* Whether the file is a bundle (has an index). */
int cc_segidx_is_bundle(const struct cc_segidx *sx);
/* Member K: its bytes (valid until close) and index entry.  K out of range
 * is CITCAT_ERR_INVAL ("the file holds N segments"). */
int cc_segidx_member(const struct cc_segidx *sx, uint64_t k, const uint8_t **p, size_t *len,
		     struct cc_segidx_entry *e, struct citcat_errinfo *err);
/* Accepts NULL. */
void cc_segidx_close(struct cc_segidx *sx);

/* Writes a bundle to PATH (through common/outfile.c, so nothing is left on
 * failure): header with MAGIC and BUNDLE_VERSION, the N files MEMBERS[k]
 * copied in order, the index (E[k].insns and .bcount; offsets and lengths
 * are filled in) and the trailer; with N = 1 the one member alone, the
 * single-segment file.  Returns 0 or an error with ERR set. */
int cc_segidx_write(const char *path, const char magic[CC_MAGIC_LEN], uint16_t bundle_version, uint64_t n,
		    const char *const *members, const struct cc_segidx_entry *e, struct citcat_errinfo *err);

/* The number of segments in PATH (MAGIC, BUNDLE_VERSION) into *N: its
 * members when it is a bundle, else 1; 0 on error.  Returns 0 or an error
 * with ERR set. */
int cc_segidx_segments(const char *path, const char magic[CC_MAGIC_LEN], uint16_t bundle_version, uint64_t *n,
		       struct citcat_errinfo *err);

/* cc_segidx_write of the N members cc_segidx_member_path names in the
 * scratch directory DIR: how ims.c and aes.c finish a bundle. */
int cc_segidx_write_scratch(const char *path, const char magic[CC_MAGIC_LEN], uint16_t bundle_version, uint64_t n,
			    const char *dir, const struct cc_segidx_entry *e, struct citcat_errinfo *err);

/* A scratch directory for members, under $TMPDIR or /tmp, into BUF
 * (capacity N); 0 or CITCAT_ERR_IO with ERR set.  cc_segidx_scratch_free
 * removes it and the NFILES members PATH_FN named in it. */
int cc_segidx_scratch(char *buf, size_t n, struct citcat_errinfo *err);
void cc_segidx_member_path(char *buf, size_t n, const char *dir, uint64_t k);
void cc_segidx_scratch_free(const char *dir, uint64_t nfiles);

#endif
