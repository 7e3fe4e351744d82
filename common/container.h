/* The citcat container: the chunked, LZ4-compressed, checksummed file layout
 * shared by the CAT, the native instruction trace (itrace), the IMS and the
 * AES.  See CONTAINER.md beside this file for the byte layout.
 *
 * A container holds a kind-specific metadata block and a sequence of records
 * grouped into chunks.  Records never span chunks, so a record decoder works
 * on one decompressed chunk at a time and memory stays bounded by the chunk
 * size whatever the length of the file. */
#ifndef CITCAT_CONTAINER_H
#define CITCAT_CONTAINER_H

#include "citcat.h"
#include <stdio.h>

#define CC_MAGIC_LEN 8
#define CC_CHUNK_MAX (64u << 20)     /* largest raw chunk a reader accepts */
#define CC_META_MAX (1u << 20)       /* largest metadata block              */
#define CC_DEFAULT_CHUNK (1u << 20)

struct cc_reader;
struct cc_outfile;

/* The writer's state is visible only so that record encoders can reserve
 * space with the inline fast path below; treat it as opaque otherwise. */
struct cc_writer {
	struct cc_outfile *out;
	uint8_t *buf;   /* raw chunk being built */
	size_t cap, len;
	uint32_t nrec;
	uint8_t *zbuf;  /* compressed chunk */
	size_t zcap;
	uint64_t bytes, total_rec, total_raw;
	size_t reserved;
	struct citcat_errinfo err;
};


/* Writer.  The file is written to PATH.tmp-XXXXXX and renamed to PATH by
 * cc_writer_close, so a failed or aborted run never leaves a partial file.
 * PATH "-" writes to standard output (no rename possible).
 * CHUNK_SIZE is the raw chunk size (0 = default).  Returns 0 or an error. */
int cc_writer_open(struct cc_writer **w, const char *path, const char magic[CC_MAGIC_LEN],
		   uint16_t version, const void *meta, uint32_t meta_len, size_t chunk_size);

/* Returns a pointer where up to N bytes of the next record(s) may be written,
 * flushing the current chunk first if fewer than N bytes are free; NULL on
 * error (see cc_writer_error).  N must not exceed the chunk size. */
uint8_t *cc_writer_reserve(struct cc_writer *w, size_t n);
/* Commits N bytes written at the last reserve, holding NREC records. */
void cc_writer_commit(struct cc_writer *w, size_t n, uint32_t nrec);

/* Inline fast paths of reserve and commit for per-record hot loops. */
static inline uint8_t *cc_writer_reserve_fast(struct cc_writer *w, size_t n)
{
	if (w->cap - w->len >= n && !w->err.code) {
		w->reserved = n;
		return w->buf + w->len;
	}
	return cc_writer_reserve(w, n);
}
static inline void cc_writer_commit_fast(struct cc_writer *w, size_t n, uint32_t nrec)
{
	w->len += n;
	w->nrec += nrec;
	w->reserved = 0;
}
/* Ends the current chunk now (used to give a reader early access). */
int cc_writer_flush(struct cc_writer *w);
/* Flushes, writes the end marker, closes and renames into place. Frees W. */
int cc_writer_close(struct cc_writer *w);
/* Discards everything written: the temporary file is removed. Frees W.
 * Accepts NULL. */
void cc_writer_abort(struct cc_writer *w);
const struct citcat_errinfo *cc_writer_error(const struct cc_writer *w);
uint64_t cc_writer_bytes(const struct cc_writer *w); /* file bytes so far */
/* Raw bytes already in the chunk being built (0 right after a flush). */
size_t cc_writer_chunk_used(const struct cc_writer *w);

/* Reader.  MAGIC is the expected magic (NULL: accept any valid container,
 * the caller checks cc_reader_magic).  Fails with CITCAT_ERR_EMPTY,
 * _MAGIC, _VERSION (version above MAX_VERSION), _TRUNCATED, _CHECKSUM. */
int cc_reader_open(struct cc_reader **r, const char *path, const char magic[CC_MAGIC_LEN],
		   uint16_t max_version);
/* Same on an in-memory buffer (used by fuzz targets); the buffer must
 * outlive the reader. */
int cc_reader_open_mem(struct cc_reader **r, const void *buf, size_t len,
		       const char magic[CC_MAGIC_LEN], uint16_t max_version);
void cc_reader_close(struct cc_reader *r);
const char *cc_reader_magic(const struct cc_reader *r);
uint16_t cc_reader_version(const struct cc_reader *r);
const uint8_t *cc_reader_meta(const struct cc_reader *r, uint32_t *len);
/* Loads the next chunk.  Returns 1 and sets DATA/LEN/NREC (valid until the
 * next call), 0 at the end marker (after checking the totals), or an error. */
int cc_reader_next_chunk(struct cc_reader *r, const uint8_t **data, size_t *len, uint32_t *nrec);
/* A cursor over the records of a container, for record decoders.  Call
 * cc_cursor_next before decoding each record: it returns 1 when the next
 * record starts at C->P (and C->BASE..C->END is its chunk's payload), 2 when
 * that record is the first of a new chunk (reset per-chunk delta state), 0
 * at the end of the file, or an error.  At each chunk's end it checks that
 * the chunk held as many records as its header says.  Start zeroed. */
struct cc_cursor {
	const uint8_t *p, *base, *end;
	uint32_t nrec, seen;
};
int cc_cursor_next(struct cc_reader *r, struct cc_cursor *c);

/* File offset of the payload of the current chunk (for error messages:
 * an error at byte K of a chunk's decompressed payload is reported as
 * "chunk at file offset X, payload byte K"). */
uint64_t cc_reader_chunk_offset(const struct cc_reader *r);
uint64_t cc_reader_file_size(const struct cc_reader *r);
const struct citcat_errinfo *cc_reader_error(const struct cc_reader *r);
/* Records a decoding error found by a record decoder at payload byte POS of
 * the current chunk; returns CODE. */
int cc_reader_fail(struct cc_reader *r, int code, size_t pos, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* Records an error at file offset OFF (a header or metadata field); returns CODE. */
int cc_reader_fail_at(struct cc_reader *r, int code, uint64_t off, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#endif
