/* libcitcat public API: the native full instruction trace ("itrace"):
 * every retired instruction with its PC, instruction word and data accesses
 * (address, size, value, direction), and every interrupt entry.  Written by
 * capture (the ground truth) and by the replayer.  Byte layout: ITRACE.md. */
#ifndef CITCAT_PUBLIC_ITRACE_H
#define CITCAT_PUBLIC_ITRACE_H

#include <citcat/base.h>
#include <citcat/target.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CITCAT_ITRACE_VERSION 3 /* 3: instruction size and state per record; 2: uncached flags, DMA records (ITRACE.md) */
#define CITCAT_ITRACE_MAX_ACC 64 /* data accesses one instruction may make */

enum citcat_isa {
	CITCAT_ISA_ARM_A32 = 1, /* ARMv7-A: A32 and Thumb */
	CITCAT_ISA_ARMV7M = 2,  /* Cortex-M7 (ARMv7-M): Thumb only; entries carry their accesses (ITRACE.md) */
};

enum citcat_rec_kind {
	CITCAT_REC_INSN = 0, /* a retired instruction */
	CITCAT_REC_IRQ = 1,  /* an interrupt entry, between two instructions */
	CITCAT_REC_STOP = 2, /* an abnormal end (fault, WFI deadlock, interrupted): the last record */
	CITCAT_REC_DMA = 3,  /* a DMA transfer into RAM, between two instructions */
};

#define CITCAT_ITRACE_MAX_DMA 4096 /* bytes one DMA record may name */

struct citcat_access {
	uint64_t addr;
	uint64_t value; /* little-endian value of SIZE bytes */
	uint8_t size;   /* 1, 2, 4 or 8 */
	uint8_t write;  /* 0 read, 1 write */
	uint8_t uncached; /* 1: an uncached device-window access (never in a cache); 0: cacheable RAM */
};

/* One itrace record.  For CITCAT_REC_INSN: PC, WORD, SIZE, THUMB and the
 * accesses in program order.  WORD holds the instruction's SIZE bytes as a
 * little-endian number (a 32-bit Thumb instruction has its first halfword
 * in bits 15..0); SIZE is 4 (A32 or 32-bit Thumb) or 2 (16-bit Thumb);
 * THUMB is 1 for Thumb state.  Readers always set both; writers take
 * SIZE = 0 as 4 (A32 producers that predate version 3).  For CITCAT_REC_IRQ: LINE is the interrupt line and PC the
 * EPC, the address of the first instruction not executed (where the
 * interrupted program resumes); the next record is the first instruction of
 * the handler.  In an isa 2 (Cortex-M7) trace it is any exception entry:
 * LINE is the exception number (2..63), PC the stacked return address, and
 * the accesses are the entry's stacking writes and vector read (N_ACC must
 * be 0 in an isa 1 trace).
 * For CITCAT_REC_DMA: PC is the first byte the transfer wrote and WORD its
 * length in bytes (1..CITCAT_ITRACE_MAX_DMA); it lies at the instruction
 * boundary where the DMA engine wrote RAM (after the instruction before it,
 * before an interrupt entry at the same boundary).  Readers hand DMA records
 * out only when asked (citcat_itrace_reader_dma).
 * For CITCAT_REC_STOP: LINE is the stop reason (enum citcat_stop_reason,
 * CITCAT_STOP_FAULT or later), PC where the run ended (the faulting
 * instruction or fetch address, the WFI of a deadlock, the first instruction
 * not executed when interrupted), and for a fault WORD the fault kind (enum
 * citcat_fault_kind) and FAULT_ADDR the address accessed (both 0 otherwise).
 * ITRACE.md, "Abnormal end". */
struct citcat_itrace_rec {
	uint8_t kind;
	uint8_t line;
	uint8_t size;  /* CITCAT_REC_INSN: 2 or 4 bytes */
	uint8_t thumb; /* CITCAT_REC_INSN: 1 in Thumb state, 0 in ARM state */
	uint32_t word;
	uint64_t pc;
	uint32_t fault_addr;
	uint32_t n_acc;
	struct citcat_access acc[CITCAT_ITRACE_MAX_ACC];
};

struct citcat_itrace_writer;
struct citcat_itrace_reader;

/* Creates PATH ("-" = stdout); the file is written under a temporary name
 * and renamed by close.  Returns 0, CITCAT_ERR_INVAL (NULL W, unknown ISA),
 * _NOMEM or _IO (errno kept).  Failure convention of base.h: *W holds the
 * error when it could be allocated; abort it in every case. */
CITCAT_API int citcat_itrace_writer_open(struct citcat_itrace_writer **w, const char *path, enum citcat_isa isa);
/* Appends one record.  Returns 0, CITCAT_ERR_INVAL (NULL argument, more
 * than CITCAT_ITRACE_MAX_ACC accesses, bad kind) or an I/O error (details in
 * citcat_itrace_writer_error). */
CITCAT_API int citcat_itrace_write(struct citcat_itrace_writer *w, const struct citcat_itrace_rec *rec);
/* The Cortex-M7 fault status the STOP of fault kind 11 records in an isa 2
 * trace (ITRACE.md, "Abnormal end"; all 0 when never set): set it before
 * writing that record.  Returns 0, or CITCAT_ERR_INVAL for NULL arguments
 * or an isa 1 writer. */
CITCAT_API int citcat_itrace_writer_m7_fault(struct citcat_itrace_writer *w, const struct citcat_m7_fault *f);
/* Ends the chunk being built here, if it holds a record: the next record
 * starts a new chunk (ITRACE.md, "Chunks").  The replayer cuts at each
 * segment start of a checkpointed run so that the segments' own itraces
 * splice into the serial one (citcat merge).  Returns 0, CITCAT_ERR_INVAL
 * for NULL, or the writer's error. */
CITCAT_API int citcat_itrace_writer_cut(struct citcat_itrace_writer *w);
/* Completes the file, renames it into place and frees W.  Returns 0 or an
 * error (the output is then removed).  CITCAT_ERR_INVAL for NULL. */
CITCAT_API int citcat_itrace_writer_close(struct citcat_itrace_writer *w);
/* Drops the file being written; frees W.  Accepts NULL. */
CITCAT_API void citcat_itrace_writer_abort(struct citcat_itrace_writer *w);
/* The writer's last error (owned by W), or NULL for NULL. */
CITCAT_API const struct citcat_errinfo *citcat_itrace_writer_error(const struct citcat_itrace_writer *w);
/* Bytes written so far (0 for NULL). */
CITCAT_API uint64_t citcat_itrace_writer_bytes(const struct citcat_itrace_writer *w);

/* Opens an itrace PATH ("-" = stdin) or LEN bytes at BUF (which must
 * outlive the reader).  Returns 0, CITCAT_ERR_INVAL (NULL R), _NOMEM, _IO,
 * _EMPTY, _MAGIC, _VERSION, _TRUNCATED, _CHECKSUM, _CORRUPT.  Failure
 * convention of base.h: *R holds the error when it could be allocated;
 * close it in every case. */
CITCAT_API int citcat_itrace_reader_open(struct citcat_itrace_reader **r, const char *path);
CITCAT_API int citcat_itrace_reader_open_mem(struct citcat_itrace_reader **r, const void *buf, size_t len);
/* Reads the next record into *REC (caller-owned, reused for the whole
 * run).  Returns 1, 0 at the end, or an error: CITCAT_ERR_INVAL (NULL
 * argument), _TRUNCATED, _CHECKSUM, _CORRUPT, _LIMIT, _IO.  DMA records are
 * skipped unless citcat_itrace_reader_dma(R, 1) was called: most consumers
 * (listings, address traces of the core, WET) want the core's instructions
 * and interrupt entries only. */
CITCAT_API int citcat_itrace_next(struct citcat_itrace_reader *r, struct citcat_itrace_rec *rec);
/* Asks for (WANT 1) or skips (0, the default) DMA records.  No effect for NULL. */
CITCAT_API void citcat_itrace_reader_dma(struct citcat_itrace_reader *r, int want);
/* The file's ISA (0 for NULL). */
CITCAT_API enum citcat_isa citcat_itrace_isa(const struct citcat_itrace_reader *r);
/* After citcat_itrace_next returned a STOP of fault kind 11 (isa 2): fills
 * *F with the Cortex-M7 fault status it records and returns 1; otherwise
 * (no such record read, a trace from before the status was recorded:
 * ITRACE.md, "Abnormal end") returns 0 and zeroes *F.  CITCAT_ERR_INVAL for
 * NULL arguments. */
CITCAT_API int citcat_itrace_m7_fault(const struct citcat_itrace_reader *r, struct citcat_m7_fault *f);
/* The reader's last error (owned by R), or NULL for NULL. */
CITCAT_API const struct citcat_errinfo *citcat_itrace_reader_error(const struct citcat_itrace_reader *r);
/* Frees R.  Accepts NULL. */
CITCAT_API void citcat_itrace_reader_close(struct citcat_itrace_reader *r);

/* 1 when two records are equal (accesses compared in order, with their
 * uncached flags), else 0 (also
 * when either is NULL). */
CITCAT_API int citcat_itrace_rec_equal(const struct citcat_itrace_rec *a, const struct citcat_itrace_rec *b);

/* ---- What `citcat info` says about an itrace ---- */

/* The figures of an itrace (citcat_itrace_reader_info).  Size-versioned:
 * set SIZE to sizeof(struct citcat_itrace_info) before the call; members
 * are only ever appended. */
struct citcat_itrace_info {
	size_t size;
	unsigned version;    /* the file's format version (ITRACE.md) */
	enum citcat_isa isa;
	uint64_t insns;      /* instruction records */
	uint64_t sequential; /* of which at the PC 4 bytes after the one before */
	uint64_t irqs;       /* interrupt entries */
	uint64_t reads, writes; /* data accesses of the instructions */
	uint64_t uncached;   /* of those, to the device window */
	uint64_t dma, dma_bytes; /* DMA transfer records and the bytes they move */
	int stopped;         /* 1: the run ended abnormally (a CITCAT_REC_STOP) */
	unsigned stop_reason; /* then: enum citcat_stop_reason (cat.h) */
	uint64_t stop_pc;
	uint32_t fault_kind, fault_addr; /* for CITCAT_STOP_FAULT: enum citcat_fault_kind, address */
	int has_m7_fault;    /* 1: the stop carries the Cortex-M7's fault status */
	struct citcat_m7_fault m7_fault;
};

/* Reads the rest of the itrace R (normally all of it, right after the open;
 * DMA records are turned on) and fills INFO with its figures.  PROGRESS
 * (may be NULL) is called after every 16,384th instruction with the count
 * so far and 0; non-zero from it stops with CITCAT_ERR_INTERRUPTED.
 * Returns 0, CITCAT_ERR_INVAL (NULL R or INFO, or INFO->size smaller than
 * the first version of the struct) or the reader's error
 * (citcat_itrace_reader_error says where).  The file's size is the
 * caller's to find (the name it opened; standard input's bytes). */
CITCAT_API int citcat_itrace_reader_info(struct citcat_itrace_reader *r, struct citcat_itrace_info *info,
					 int (*progress)(void *ctx, uint64_t done, uint64_t total), void *ctx);

/* ---- Segments of a checkpointed run (replay/SEGMENTS.md) ----
 * A CAT captured with checkpoints is replayed segment by segment
 * (citcat_cat_segments counts them; citcat_replay_config.segment picks
 * one); the segments' itraces are then joined into the serial one. */

/* Totals of citcat_itrace_merge. */
struct citcat_itrace_merge_result {
	uint64_t records; /* records of the output */
	uint64_t chunks;  /* chunks copied */
	uint64_t checked; /* records decoded by the CHECK pass (0 without it) */
};

/* Joins the itraces IN[0..NIN) of consecutive segments into OUT,
 * byte-identical to the serial replay's itrace, by copying their
 * compressed chunks as stored (formats/ITRACE.md "Chunks"): the header
 * of IN[0] (itrace version 3, every input's metadata the same), every
 * chunk of each input in turn, and an end marker with the totals.  Each
 * chunk's header and checksum and each input's end marker are checked as
 * read; at each seam the earlier input must end with a checkpoint's INV_I
 * store and no abnormal end, and the later one start at the PC after it;
 * the inputs' segment numbers must be all zero or consecutive.  With
 * CHECK non-zero every input is also decoded record by record.  STOP (may
 * be NULL) is polled once per chunk; non-zero stops with
 * CITCAT_ERR_INTERRUPTED.  Returns 0 (RES filled) or an error: ERR (may
 * be NULL) says what, and *ERR_INPUT (may be NULL) the index of the input
 * it is about, NIN for the output; OUT is then not left behind.  A NULL
 * IN, OUT or RES, or NIN 0, is CITCAT_ERR_INVAL. */
CITCAT_API int citcat_itrace_merge(const char *const *in, size_t nin, const char *out, int check,
				   int (*stop)(void *ctx), void *stop_ctx, struct citcat_itrace_merge_result *res,
				   struct citcat_errinfo *err, size_t *err_input);

/* Compares the files A and B byte for byte as stored (no wrapper is
 * peeled off): how a merged itrace is checked against the serial replay's
 * (citcat replay --jobs --oracle).  Returns 0 when equal; 1 when they
 * differ, *OFFSET (may be NULL) the first differing byte; 2 when one ends
 * where the other goes on, *OFFSET its length; or an error with ERR (may
 * be NULL) and *ERR_FILE (may be NULL) 0 for A, 1 for B.  A NULL A or B is
 * CITCAT_ERR_INVAL. */
CITCAT_API int citcat_file_compare(const char *a, const char *b, uint64_t *offset, struct citcat_errinfo *err,
				   int *err_file);

#ifdef __cplusplus
}
#endif

#endif
