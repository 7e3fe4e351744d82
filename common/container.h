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
#include <pthread.h>
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
	struct cc_writer_bg *bg; /* the compression thread, or NULL (container.c) */
	uint32_t mark;           /* CC_CHUNK_MARK when the chunk being built is marked */
};

/* Chunk flags (CONTAINER.md, Chunk): bit 0 LZ4, bit 1 the kind's mark. */
#define CC_CHUNK_LZ4 1u
#define CC_CHUNK_MARK 2u

/* Whether writers opened from now on compress and write their full chunks
 * on a second thread (1, the default) or inline (0).  The file's bytes are
 * the same either way; the benchmarks switch it to compare. */
extern int cc_writer_threads;


/* Writer.  The file is written to PATH.tmp-XXXXXX and renamed to PATH by
 * cc_writer_close, so a failed or aborted run never leaves a partial file.
 * PATH "-" writes to standard output (no rename possible).
 * CHUNK_SIZE is the raw chunk size (0 = default).  Returns 0 or an error. */
/* Why this thread's last cc_writer_open or cc_writer_close failed (the
 * writer is gone then), path and reason included
 * ("cannot create X: No space left on device", "X: refusing to write over
 * the input Y (the same file)"): for the callers' messages. */
const struct citcat_errinfo *cc_writer_open_error(void);
/* Makes E what cc_writer_open_error returns (a format's writer keeps its
 * failure there before it frees itself). */
void cc_writer_keep_error(const struct citcat_errinfo *e);
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
/* A chunk as stored in the file (CONTAINER.md, Chunk): its 24-byte header
 * HDR, the STORED payload bytes (LZ4 or raw, as cflags says), and the
 * header's fields; OFFSET is the chunk's file offset.  Valid until the next
 * call on its reader. */
struct cc_stored_chunk {
	const uint8_t *hdr, *payload;
	uint32_t stored, raw_len, nrec;
	uint64_t offset;
};
/* Copies chunk C into W as it is (its header, checksum and payload: no
 * decompression), after ending the chunk being built.  The end marker's
 * totals count it.  Returns 0 or W's error. */
int cc_writer_put_stored(struct cc_writer *w, const struct cc_stored_chunk *c);
/* Stops W's compression thread, if any: from now on full chunks are
 * compressed and written inline by whichever one thread drives W (the
 * itrace writer's encoder thread, formats/itrace.c).  The bytes are the
 * same either way. */
void cc_writer_inline(struct cc_writer *w);
/* Starts a writer's helper thread: initialises MU and CV, then runs FN(ARG)
 * on a new thread *TH that blocks every signal (it inherits the mask set
 * here), so Ctrl-C and SIGTERM reach the caller's thread as before.  On
 * failure MU and CV are destroyed again and nonzero is returned: the
 * caller then works without the thread.  (The container's compression
 * thread and the itrace writer's encoder thread, formats/itrace.c.) */
int cc_thread_start(pthread_t *th, pthread_mutex_t *mu, pthread_cond_t *cv, void *(*fn)(void *), void *arg);
/* Ends the current chunk now (used to give a reader early access). */
int cc_writer_flush(struct cc_writer *w);
/* Ends the current chunk (without waiting for the compression thread) and
 * marks the next one: its cflags get CC_CHUNK_MARK, which only kinds that
 * define it may use (the CAT's segment starts, CAT.md).  Returns 0 or W's
 * error. */
int cc_writer_mark(struct cc_writer *w);
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
/* Lets the chunks of this file carry CC_CHUNK_MARK (the kind defines it
 * for this version); without it a reader rejects the flag as reserved. */
void cc_reader_allow_mark(struct cc_reader *r);
/* Whether the chunk loaded last carries CC_CHUNK_MARK. */
int cc_reader_chunk_marked(const struct cc_reader *r);
/* Makes the next cc_reader_next_chunk (or cursor step) skip forward to the
 * K-th marked chunk from here (K >= 1) and load that one: the chunks before
 * it are passed over by their headers, which are checked, their payloads
 * skipped unread (seeking in a plain file) and unchecked, their records
 * counted for the end marker's totals.  At the end marker first, that call
 * returns 0 as usual.  For opening a long file at a mark (a segment). */
void cc_reader_skip_to_mark(struct cc_reader *r, uint64_t k);
/* cc_reader_next_chunk without the decompression: the chunk's header and
 * stored payload into *C, once its header fields and checksum are checked
 * (the end marker's totals at the end, as there).  For splicing chunks into
 * another file (cc_writer_put_stored). */
int cc_reader_next_stored(struct cc_reader *r, struct cc_stored_chunk *c);
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

/* cc_cursor_next for a reader object whose errors go to ERR: a reader error
 * is kept there (the next calls return it). */
int cc_stream_next(struct cc_reader *r, struct cc_cursor *c, struct citcat_errinfo *err);
/* A corrupt record at AT in the cursor's chunk payload: records "WHAT_KIND:
 * WHAT" at that position (cc_reader_fail) into ERR and returns its code. */
int cc_stream_bad(struct cc_reader *r, const struct cc_cursor *c, struct citcat_errinfo *err, const uint8_t *at,
		  const char *what_kind, const char *what);

/* In a record decoder whose locals are P and END (the cursor in the
 * payload), START (where the record began) and V (a uint64_t), and whose
 * bad(r, at, what) records a corrupt record: read a varint into V, or a
 * zigzag delta from BASE that must land in the 32-bit address space
 * (cc_add_delta32) into DST; a failure returns bad()'s code. */
#define CC_GETV(v, what)                            \
	do {                                        \
		if (cc_get_uvar(&p, end, &(v)))     \
			return bad(r, start, what); \
	} while (0)
#define CC_GETD(dst, base, what)                                                       \
	do {                                                                           \
		CC_GETV(v, what);                                                      \
		if (cc_add_delta32((base), v, &(dst)))                                 \
			return bad(r, start, "delta leaves the 32-bit address space"); \
	} while (0)

/* Record streams: the reader and writer objects of the container kinds
 * (CAT, itrace, AES, LVT) are structs whose FIRST member is their struct
 * cc_reader * (or struct cc_writer *).  Their open, close and set-up are the
 * same for every kind and live here.
 *
 * A reader kind: MAGIC and the highest VERSION read; the object's SIZE and
 * the offset of its struct citcat_errinfo (ERR_OFFSET); INIT, when not NULL,
 * checks the metadata (cc_reader_meta) once the container is open and
 * returns 0 or an error it has set in the object's errinfo. */
struct cc_stream_kind {
	const char *magic;
	uint16_t version;
	size_t size, err_offset;
	int (*init)(void *reader);
};
/* Allocates a zeroed reader object into *OUT and opens PATH, or when PATH is
 * NULL the LEN bytes at BUF (which must outlive the reader).  Returns 0 or
 * an error; the object's errinfo says why, and *OUT is set whatever the
 * result (NULL only when out of memory): free it with cc_stream_close. */
int cc_stream_open(void **out, const struct cc_stream_kind *k, const char *path, const void *buf, size_t len);
/* Closes and frees a reader object.  Accepts NULL. */
void cc_stream_close(void *reader);
/* Defines a kind's public PREFIX_open(TYPE **, path), PREFIX_open_mem(TYPE
 * **, buf, len) and PREFIX_close(TYPE *) over its struct cc_stream_kind. */
#define CC_STREAM_READER_FUNCS(prefix, type, kind)                                  \
	int prefix##_open(type **out, const char *path)                             \
	{                                                                           \
		void *r_;                                                           \
		if (!out)                                                           \
			return CITCAT_ERR_INVAL;                                    \
		int rc_ = cc_stream_open(&r_, (kind), path, NULL, 0);               \
		*out = r_;                                                          \
		return rc_;                                                         \
	}                                                                           \
	int prefix##_open_mem(type **out, const void *buf, size_t len)              \
	{                                                                           \
		void *r_;                                                           \
		if (!out)                                                           \
			return CITCAT_ERR_INVAL;                                    \
		int rc_ = cc_stream_open(&r_, (kind), NULL, buf, len);              \
		*out = r_;                                                          \
		return rc_;                                                         \
	}                                                                           \
	void prefix##_close(type *r) { cc_stream_close(r); }
/* Ends a writer object (not NULL): with RC 0 finishes the file
 * (cc_writer_close) and returns its result, otherwise discards it
 * (cc_writer_abort) and returns RC.  Frees the object. */
int cc_stream_writer_end(void *writer, int rc);
/* Discards a writer object's file and frees it.  Accepts NULL. */
void cc_stream_writer_abort(void *writer);

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
