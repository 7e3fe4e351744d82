/* libcitcat public API: address traces: Dinero text (din, xdin), PDATS and PDATS II.
 *
 * All four formats carry the same thing, a sequence of memory references
 * (type + address, and for xdin a size), so they share one reader and one
 * writer handle; the format is chosen when the handle is opened.  Byte
 * layouts: DIN.md, PDATS.md and PDATS2.md beside this file.
 *
 * Streaming: a reader hands out one reference per call into caller memory
 * and a writer takes one reference per call; memory stays bounded (a few
 * 64 KiB buffers) whatever the length of the trace.
 *
 * Errors: functions return 0 / 1 or a negative citcat_err; the details
 * (code, byte offset, message) are in the handle's citcat_errinfo.  A NULL
 * handle or required argument is CITCAT_ERR_INVAL (accessors return 0 or
 * NULL); *_open follows the failure convention of base.h.  For a
 * file wrapped in an LZ4 frame, offsets count bytes of the unwrapped
 * stream. */
#ifndef CITCAT_PUBLIC_ADDR_H
#define CITCAT_PUBLIC_ADDR_H

#include <citcat/base.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Reference types.  0..4 are Dinero's traditional din labels; 5 and 6 are
 * Dinero IV's extended copy-back and invalidate.  The values are the PDATS
 * 3-bit type field. */
enum citcat_ref_type {
	CITCAT_REF_READ = 0,   /* din 0, xdin r */
	CITCAT_REF_WRITE = 1,  /* din 1, xdin w */
	CITCAT_REF_IFETCH = 2, /* din 2, xdin i */
	CITCAT_REF_MISC = 3,   /* din 3 (escape), xdin m */
	CITCAT_REF_FLUSH = 4,  /* din 4 (flush); no xdin label */
	CITCAT_REF_COPYB = 5,  /* xdin c; no din label */
	CITCAT_REF_INVAL = 6,  /* xdin v; no din label */
	CITCAT_REF_NTYPES = 7,
};

struct citcat_ref {
	uint64_t addr;
	uint32_t size; /* bytes; 0 = unknown (din, PDATS and PDATS II carry no size) */
	uint8_t type;  /* enum citcat_ref_type */
};

enum citcat_addr_fmt {
	CITCAT_ADDR_AUTO = 0, /* reader only: from the first bytes */
	CITCAT_ADDR_DIN = 1,
	CITCAT_ADDR_XDIN = 2,
	CITCAT_ADDR_PDATS = 3,
	CITCAT_ADDR_PDATS2 = 4,
};

/* Writer configuration.  Starts with its own size (base.h rules: SIZE must
 * cover at least FMT; members an older struct lacks read as zero). */
struct citcat_addr_config {
	size_t size;          /* sizeof(struct citcat_addr_config) */
	int fmt;              /* enum citcat_addr_fmt, not AUTO */
	unsigned addr_bits;   /* PDATS/PDATS II: 32 or 64 (0 = 32) */
	unsigned istride;     /* PDATS II: default instruction stride 1, 2, 4, 8 (0 = 4) */
	int lz4;              /* wrap the output: 1 an LZ4 frame, 2 a zstd frame (CC_OUT_*) */
	unsigned version;     /* the version to write: PDATS 1 or 2, PDATS II 1, 2 or 3 (0 = the latest) */
	int isizes;           /* PDATS/PDATS II version 2 and up: instructions of two sizes (istride and twice
			       * it: Thumb-2) from the first reference; 0 = of one size until a fetch
			       * shows otherwise (the writer then switches by itself) */
};

struct citcat_addr_writer;
struct citcat_addr_reader;

/* Names a format ("din", "xdin", "pdats", "pdats2"; static storage); NULL
 * for a bad value. */
CITCAT_API const char *citcat_addr_fmt_name(int fmt);
/* The format of a name, or 0 (also for NULL). */
CITCAT_API int citcat_addr_fmt_parse(const char *name);
/* Guesses the format from the first N bytes of a file (an LZ4 frame is
 * looked through only as far as its magic: returns PDATS/PDATS2 from the
 * suffix-less frame only when the caller unwraps it).  Returns a format or 0
 * (also for a NULL HEAD). */
CITCAT_API int citcat_addr_sniff(const uint8_t *head, size_t n);

/* Opens PATH for writing ("-" = stdout).  The file is written under a
 * temporary name and renamed by close, so an error never leaves a partial
 * file.  PATH NULL writes to memory (see citcat_addr_writer_take).  The
 * configuration is copied.  Returns 0, CITCAT_ERR_INVAL (NULL W, bad
 * configuration), _NOMEM or _IO.  Failure convention of base.h: *W holds
 * the error when it could be allocated; abort it in every case. */
CITCAT_API int citcat_addr_writer_open(struct citcat_addr_writer **w, const char *path,
				       const struct citcat_addr_config *cfg);
/* Appends one reference.  Returns 0, CITCAT_ERR_INVAL (bad type for the
 * format: e.g. flush in xdin), CITCAT_ERR_LIMIT (address wider than the
 * file's address width), or CITCAT_ERR_IO; CITCAT_ERR_INVAL for NULL. */
CITCAT_API int citcat_addr_put(struct citcat_addr_writer *w, const struct citcat_ref *ref);
/* Completes the file (end marker, trailer, LZ4 end mark) and renames it
 * into place; W stays valid so that an error can be read, and must still be
 * closed (or taken).  Returns 0 or an error (the output is then removed). */
CITCAT_API int citcat_addr_writer_finish(struct citcat_addr_writer *w);
/* Finishes the file if that was not done yet and frees W.  Returns 0 or an
 * error (the output is then removed). */
CITCAT_API int citcat_addr_writer_close(struct citcat_addr_writer *w);
/* Like close for a memory writer: hands the whole file to the caller in
 * *BUF (the caller owns it: free() it), *LEN bytes.  Frees W.  Returns 0
 * or an error (CITCAT_ERR_INVAL for a NULL argument or a file writer). */
CITCAT_API int citcat_addr_writer_take(struct citcat_addr_writer *w, uint8_t **buf, size_t *len);
/* Drops the output; frees W.  Accepts NULL. */
CITCAT_API void citcat_addr_writer_abort(struct citcat_addr_writer *w);
/* The writer's last error (owned by W), or NULL for NULL. */
CITCAT_API const struct citcat_errinfo *citcat_addr_writer_error(const struct citcat_addr_writer *w);
/* Bytes of the record stream so far, not counting file header, end marker
 * and trailer (before LZ4).  PDATS keeps its last record open until
 * finish, so the total is final only after citcat_addr_writer_finish. */
CITCAT_API uint64_t citcat_addr_writer_payload_bytes(const struct citcat_addr_writer *w);
/* References written so far. */
CITCAT_API uint64_t citcat_addr_writer_refs(const struct citcat_addr_writer *w);

/* Opens PATH ("-" = stdin) or a memory buffer (which must outlive the
 * reader) for reading.  FMT AUTO recognises the format by its first bytes;
 * an LZ4/zstd/xz wrapper is peeled off (common/input.h).  Fails with CITCAT_ERR_INVAL
 * (NULL R), _NOMEM, _EMPTY, _MAGIC, _VERSION, _TRUNCATED, _IO.  Failure
 * convention of base.h: *R holds the error when it could be allocated;
 * close it in every case. */
CITCAT_API int citcat_addr_reader_open(struct citcat_addr_reader **r, const char *path, int fmt);
CITCAT_API int citcat_addr_reader_open_mem(struct citcat_addr_reader **r, const void *buf, size_t len, int fmt);
/* Reads the next reference into *REF.  Returns 1, 0 at the end (after the
 * trailer's count and checksum were verified), or an error:
 * CITCAT_ERR_INVAL (NULL argument), _TRUNCATED, _CORRUPT, _CHECKSUM, _LIMIT,
 * _IO. */
CITCAT_API int citcat_addr_next(struct citcat_addr_reader *r, struct citcat_ref *ref);
/* The file's format, its outer wrapper (0 none, 1 LZ4, 2 zstd, 3 xz, 4 TVP),
 * its address width and its instruction stride at the start (0 for NULL). */
CITCAT_API int citcat_addr_reader_fmt(const struct citcat_addr_reader *r);
CITCAT_API int citcat_addr_reader_lz4(const struct citcat_addr_reader *r);
CITCAT_API unsigned citcat_addr_reader_addr_bits(const struct citcat_addr_reader *r);
CITCAT_API unsigned citcat_addr_reader_istride(const struct citcat_addr_reader *r);
/* The file's format version: PDATS 1 or 2, PDATS II 1 to 3, din and xdin 0
 * (0 for NULL). */
CITCAT_API unsigned citcat_addr_reader_version(const struct citcat_addr_reader *r);
/* 1 when the file is a TVP container holding the trace as a value-prediction
 * model (common/TVP.md, formats/TVP_MODEL.md); 0 otherwise and for NULL.
 * (citcat_addr_reader_lz4 then returns 4, the TVP wrapper.) */
CITCAT_API int citcat_addr_reader_tvp(const struct citcat_addr_reader *r);
/* Record-stream bytes consumed so far (header and trailer excluded). */
CITCAT_API uint64_t citcat_addr_reader_payload_bytes(const struct citcat_addr_reader *r);
/* The reader's last error (owned by R), or NULL for NULL. */
CITCAT_API const struct citcat_errinfo *citcat_addr_reader_error(const struct citcat_addr_reader *r);
/* Frees R.  Accepts NULL. */
CITCAT_API void citcat_addr_reader_close(struct citcat_addr_reader *r);

#ifdef __cplusplus
}
#endif

#endif
