/* libcitcat public API: the asynchronous event schedule (AES): what the
 * replayer needs, besides the IMS, to stay on track.  One record stream in
 * the order the events happened: interrupts and DMA transfers positioned at
 * an instruction boundary (branch count, PC), and the device input queue,
 * output log and cycle-counter history in program order.  Byte layout:
 * AES.md. */
#ifndef CITCAT_PUBLIC_AES_H
#define CITCAT_PUBLIC_AES_H

#include <citcat/base.h>
#include <citcat/target.h>
#include <citcat/trace_id.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CITCAT_AES_VERSION 3 /* one segment, written; readers accept 1 to 3 (AES.md, Version changes) */
#define CITCAT_AES_SEG_VERSION 4 /* a segment bundle: version-3 members behind an index (common/SEGIDX.md) */

enum citcat_aes_kind {
	CITCAT_AES_IRQ = 0,     /* interrupt: line, pc = EPC, bcount */
	CITCAT_AES_DMA = 1,     /* DMA transfer: addr, data[len], at boundary (bcount, pc) */
	CITCAT_AES_INPUT = 2,   /* uncached read (device input queue): addr, size, value */
	CITCAT_AES_OUTPUT = 3,  /* uncached write (device output log): addr, size, value */
	CITCAT_AES_COUNTER = 4, /* cycle-counter read: addr, size, value */
	CITCAT_AES_END = 5,     /* end of the traced interval: insns, bcount, stop reason */
	CITCAT_AES_KINDS = 6
};

struct citcat_aes_rec {
	uint8_t kind;
	uint8_t line; /* IRQ: line, or on the Cortex-M7 (isa 2) the exception number; END: stop reason */
	uint8_t size;
	uint32_t addr;
	uint32_t pc;
	uint64_t value;
	uint64_t bcount;
	uint32_t len;
	const uint8_t *data; /* DMA; valid until the next read */
	uint64_t insns;      /* END */
	/* END with CITCAT_STOP_FAULT: VALUE is the fault kind (enum
	 * citcat_fault_kind), PC the fault PC and ADDR the fault address */
};

/* The name of a record kind ("irq", ...), or "?" (static storage). */
CITCAT_API const char *citcat_aes_kind_name(unsigned kind);

/* 1 when ADDR (in the device window of CFG) is the cycle counter, else 0
 * (also for a NULL CFG). */
CITCAT_API int citcat_aes_is_counter(const struct citcat_target_config *cfg, uint32_t addr);

struct citcat_aes_writer;
struct citcat_aes_reader;

/* Creates the AES PATH ("-" = stdout) of the traced interval ID of a
 * target configured as CFG (temporary name, renamed by close).  Returns 0,
 * CITCAT_ERR_INVAL (NULL W, ID or CFG), _NOMEM or _IO (errno kept).  Failure
 * convention of base.h: *W holds the error when it could be allocated
 * (citcat_aes_writer_error); abort it in every case. */
CITCAT_API int citcat_aes_writer_open(struct citcat_aes_writer **w, const char *path,
				      const struct citcat_trace_id *id, const struct citcat_target_config *cfg);
/* Appends one record.  Returns 0, CITCAT_ERR_INVAL (NULL argument, a record
 * the format cannot hold) or an I/O error (details in
 * citcat_aes_writer_error). */
CITCAT_API int citcat_aes_write(struct citcat_aes_writer *w, const struct citcat_aes_rec *rec);
/* Completes the file, renames it into place and frees W.  Returns 0 or an
 * error (the output is then removed).  CITCAT_ERR_INVAL for NULL. */
CITCAT_API int citcat_aes_writer_close(struct citcat_aes_writer *w);
/* Drops the file being written; frees W.  Accepts NULL. */
CITCAT_API void citcat_aes_writer_abort(struct citcat_aes_writer *w);
/* The writer's last error (owned by W), or NULL for NULL. */
CITCAT_API const struct citcat_errinfo *citcat_aes_writer_error(const struct citcat_aes_writer *w);

/* Opens the AES PATH ("-" = stdin), or LEN bytes at BUF (which must outlive
 * the reader).  Returns 0, CITCAT_ERR_INVAL (NULL R), _NOMEM, _IO, _EMPTY,
 * _MAGIC, _VERSION, _TRUNCATED, _CHECKSUM, _CORRUPT.  Failure convention of
 * base.h: *R holds the error when it could be allocated; close it in every
 * case. */
CITCAT_API int citcat_aes_reader_open(struct citcat_aes_reader **r, const char *path);
CITCAT_API int citcat_aes_reader_open_mem(struct citcat_aes_reader **r, const void *buf, size_t len);
/* Opens segment SEGMENT of the AES PATH through its index (a bundle,
 * common/SEGIDX.md; segment 0 of a single-segment file), without decoding
 * the others.  citcat_aes_reader_open on a bundle of several segments is
 * CITCAT_ERR_INVAL; so is a SEGMENT the file does not hold.  Error offsets
 * count from the start of the file. */
CITCAT_API int citcat_aes_reader_open_segment(struct citcat_aes_reader **r, const char *path, uint64_t segment);
/* The number of segments in the AES file PATH (1 unless a bundle). */
CITCAT_API int citcat_aes_segments(const char *path, uint64_t *n, struct citcat_errinfo *err);
/* The trace id from the header (owned by R), or NULL for NULL. */
CITCAT_API const struct citcat_trace_id *citcat_aes_trace_id(const struct citcat_aes_reader *r);
/* Reads the next record into *REC.  Returns 1, 0 at the end, or an error:
 * CITCAT_ERR_INVAL (NULL argument), _TRUNCATED, _CHECKSUM, _CORRUPT, _LIMIT,
 * _IO.  REC->data stays valid until the next call. */
CITCAT_API int citcat_aes_next(struct citcat_aes_reader *r, struct citcat_aes_rec *rec);
/* Copies of the record just returned that a REPEAT record still stands for
 * (0 when none, or for NULL).  citcat_aes_skip_repeats returns the same
 * number and drops them, so the next citcat_aes_next returns the record
 * after the run.  A REPEAT count is bounded only by the instruction count
 * the file itself claims, so a caller that merely counts records adds this
 * number instead of reading every copy: its work then follows the file's
 * size, not the counts written in it. */
CITCAT_API uint64_t citcat_aes_pending_repeats(const struct citcat_aes_reader *r);
CITCAT_API uint64_t citcat_aes_skip_repeats(struct citcat_aes_reader *r);
/* The reader's last error (owned by R), or NULL for NULL. */
CITCAT_API const struct citcat_errinfo *citcat_aes_reader_error(const struct citcat_aes_reader *r);
/* Frees R.  Accepts NULL. */
CITCAT_API void citcat_aes_reader_close(struct citcat_aes_reader *r);

struct citcat_aes_stats {
	uint64_t records[CITCAT_AES_KINDS];
	uint64_t dma_bytes;
};

/* Streams through the CAT at CAT_PATH and writes its AES to OUT_PATH, in
 * bounded memory.  ST (may be NULL) receives record counts; PROGRESS as for
 * citcat_ims_extract.  Returns 0 or an error (CITCAT_ERR_INVAL for a NULL
 * path, the CAT reader's and the writer's errors); ERR (may be NULL) says
 * which file, where and why.  No output is left on failure. */
CITCAT_API int citcat_aes_extract(const char *cat_path, const char *out_path, struct citcat_aes_stats *st,
				  int (*progress)(void *ctx, uint64_t done, uint64_t total), void *pctx,
				  struct citcat_errinfo *err);
/* The same for segment SEGMENT of a checkpointed CAT (replay/SEGMENTS.md,
 * citcat_ims_extract_segment): the segment's events with branch counts
 * relative to its start point, ended by an END record (reason insn-limit at
 * the next CKPT, the CAT's STOP for the last segment) with the segment's
 * counts.  CITCAT_ERR_INVAL when the CAT has no segment SEGMENT. */
CITCAT_API int citcat_aes_extract_segment(const char *cat_path, uint64_t segment, const char *out_path,
					  struct citcat_aes_stats *st,
					  int (*progress)(void *ctx, uint64_t done, uint64_t total), void *pctx,
					  struct citcat_errinfo *err);
/* Every segment of the CAT (one without checkpoints) into OUT_PATH: a
 * version-3 AES for one segment (byte-identical to citcat_aes_extract's), a
 * version-4 segment bundle otherwise, each member as
 * citcat_aes_extract_segment would write it.  Two passes over the CAT,
 * members through a scratch directory under $TMPDIR (or /tmp).  *NSEG (may
 * be NULL) gets the segment count. */
CITCAT_API int citcat_aes_extract_all(const char *cat_path, const char *out_path, uint64_t *nseg,
				      struct citcat_aes_stats *st,
				      int (*progress)(void *ctx, uint64_t done, uint64_t total), void *pctx,
				      struct citcat_errinfo *err);

/* The figures of an AES file (what `citcat info` prints for one): per
 * record kind (CITCAT_AES_*), the records (each copy of a repeated one
 * counted), their encoded bytes, and those bytes through an LZ4 frame of
 * their own (the "compressed" column of the thesis's figure 5); the
 * instructions the END record gives, the DMA bytes, the file's size (for
 * "-", standard input's bytes read), its trace id and target
 * (CITCAT_TARGET_*). */
struct citcat_aes_sizes {
	uint64_t count[CITCAT_AES_KINDS], raw[CITCAT_AES_KINDS], z[CITCAT_AES_KINDS];
	uint64_t insns, dma_bytes, file_bytes;
	struct citcat_trace_id id;
	uint32_t isa;
};

/* Reads the AES PATH ("-" = stdin; a single segment) through and fills
 * *SZ (caller-owned), in bounded memory.  Polls the stop flag
 * (citcat_stop_requested, <citcat/io.h>): CITCAT_ERR_INTERRUPTED.  Returns
 * 0, CITCAT_ERR_INVAL for a NULL PATH or SZ, or the reader's error (ERR,
 * may be NULL, says where). */
CITCAT_API int citcat_aes_measure(const char *path, struct citcat_aes_sizes *sz, struct citcat_errinfo *err);

#ifdef __cplusplus
}
#endif

#endif
