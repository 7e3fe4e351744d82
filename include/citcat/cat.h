/* libcitcat public API: the cache-filtered address trace (CAT), what the
 * trace module records on the bus below the caches.  Byte layout:
 * formats/CAT.md in the sources (installed with the format specs). */
#ifndef CITCAT_PUBLIC_CAT_H
#define CITCAT_PUBLIC_CAT_H

#include <citcat/base.h>
#include <citcat/target.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CITCAT_CAT_VERSION 8     /* written; readers accept 2 to 8 (CAT.md, Version changes) */
#define CITCAT_CAT_MIN_VERSION 2 /* the oldest version readers accept */

enum citcat_cat_kind {
	CITCAT_CAT_FILL_I = 1,    /* line fill into the I-cache: addr, data[line] */
	CITCAT_CAT_FILL_D = 2,    /* line fill into the D-cache */
	CITCAT_CAT_WRITEBACK = 3, /* dirty D line written back: addr, data[line] */
	CITCAT_CAT_WRITE = 4,     /* write-through store: addr, size, value */
	CITCAT_CAT_UREAD = 5,     /* uncached read: addr, size, value */
	CITCAT_CAT_UWRITE = 6,    /* uncached write: addr, size, value */
	CITCAT_CAT_DMA = 7,       /* DMA transfer: addr, data[len], bcount, pc */
	CITCAT_CAT_IRQ = 8,       /* interrupt taken: line, pc = EPC, bcount */
	CITCAT_CAT_START = 9,     /* recording armed (CMD = TRC1) */
	CITCAT_CAT_SYNC = 10,     /* trace start point P: pc = P */
	CITCAT_CAT_STOP = 11,     /* recording ended: reason, totals */
	CITCAT_CAT_CKPT = 12,     /* segment start point P_k (version 5): pc = P_k, insns, bcount, repl_state */
	CITCAT_CAT_EXC = 13,      /* version 5, Cortex-M7 (isa 2): exception taken at a boundary: value = exception
				   * number (IRQ n = 16 + n, SysTick 15), pc = EPC, bcount */
	CITCAT_CAT_KINDS = 14
};

enum citcat_stop_reason {
	CITCAT_STOP_EXIT = 0,     /* firmware wrote EXIT */
	CITCAT_STOP_COMMAND = 1,  /* trace CMD = STOP */
	CITCAT_STOP_LIMIT = 2,    /* --max-insns reached */
	/* abnormal ends (CAT version 3): the trace is valid up to them */
	CITCAT_STOP_FAULT = 3,        /* the core faulted: enum citcat_fault_kind, PC, address */
	CITCAT_STOP_WFI_DEADLOCK = 4, /* WFI with no interrupt source that could wake it */
	CITCAT_STOP_INTERRUPTED = 5,  /* the capture was stopped from outside (SIGINT/SIGTERM) */
	CITCAT_STOP_REASONS = 6
};

/* What faulted (CAT.md, STOP).  The faulting instruction is counted in the
 * STOP's instruction total when it was fetched (every kind but FETCH and
 * THUMB); its PC is the fault PC. */
enum citcat_fault_kind {
	CITCAT_FAULT_READ = 1,      /* data read of an unmapped address */
	CITCAT_FAULT_WRITE = 2,     /* data write to an unmapped address */
	CITCAT_FAULT_FETCH = 3,     /* instruction fetch outside RAM (address = PC) */
	CITCAT_FAULT_DEV_READ = 4,  /* read of an unassigned device register, or not 4 bytes */
	CITCAT_FAULT_DEV_WRITE = 5, /* write of an unassigned device register, or not 4 bytes */
	CITCAT_FAULT_UNDEF = 6,     /* undefined instruction */
	CITCAT_FAULT_SVC = 7,       /* supervisor call (the target has no SVC handler model) */
	CITCAT_FAULT_BKPT = 8,      /* breakpoint instruction */
	CITCAT_FAULT_ABORT = 9,     /* another exception (prefetch or data abort); address = 0 */
	CITCAT_FAULT_THUMB = 10,    /* a branch into Thumb state (address = PC) */
	CITCAT_FAULT_EXCEPTION = 11, /* Cortex-M7 (CAT version 5): an exception that cannot be taken (vector 0 or not
				      * Thumb, lockup, SYSRESETREQ); address = the exception number */
	CITCAT_FAULT_KINDS = 12
};

/* "exit", "command", "insn-limit", "fault", "wfi-deadlock", "interrupted";
 * "?" otherwise (static storage). */
CITCAT_API const char *citcat_stop_reason_name(unsigned reason);
/* "bus error (read)", "undefined instruction", ...; "?" otherwise (static storage). */
CITCAT_API const char *citcat_fault_kind_name(unsigned kind);

struct citcat_cat_event {
	uint8_t kind;
	uint8_t size;  /* UREAD/UWRITE: 1, 2, 4; WRITE: 1, 2, 3, 4, 8 (3 and 8 from version 8; CAT.md) */
	uint8_t line;  /* IRQ line; STOP: reason */
	uint32_t addr; /* FILL/WB/WRITE/UREAD/UWRITE/DMA; STOP FAULT: fault address */
	uint64_t value; /* STOP FAULT: enum citcat_fault_kind; EXC: the exception number */
	uint32_t len;          /* FILL/WB/DMA bytes */
	const uint8_t *data;   /* FILL/WB/DMA (valid until the next event) */
	uint64_t bcount;       /* DMA/IRQ/EXC: branch counter; STOP: total branches; CKPT: branch counter at P_k */
	uint32_t pc;           /* DMA/IRQ/EXC: boundary (EPC); SYNC: P; CKPT: P_k; STOP FAULT: fault PC */
	uint64_t insns;        /* STOP: instructions retired in the traced interval; CKPT: retired since P */
	uint64_t cycle;        /* bus-cycle timestamp (0 when not recorded); STOP: cycles */
	uint32_t repl_state[2];/* SYNC, CKPT: I- and D-cache random-replacement generator at P (P_k)
				* (0 for a cache whose policy is not random) */
};

/* The name of an event kind ("fill-i", ...), or "?" (static storage). */
CITCAT_API const char *citcat_cat_kind_name(unsigned kind);

struct citcat_cat_writer;
struct citcat_cat_reader;

/* Creates the CAT PATH ("-" = stdout) for a target configured as CFG; the
 * file is written under a temporary name and renamed by close.  Returns 0,
 * CITCAT_ERR_INVAL (NULL W or CFG, a configuration the format cannot hold),
 * _NOMEM or _IO (errno kept).  Failure convention of base.h: *W holds the
 * error when it could be allocated; abort it in every case. */
CITCAT_API int citcat_cat_writer_open(struct citcat_cat_writer **w, const char *path,
				      const struct citcat_target_config *cfg);
/* The firmware a CAT was captured from (version 4 metadata, CAT.md): the
 * ELF's absolute path and its GNU build id, so that later commands can find
 * its symbols and check it is still the same file. */
#define CITCAT_CAT_ELF_PATH_MAX 4095
#define CITCAT_CAT_BUILD_ID_MAX 64
struct citcat_cat_elf {
	char path[CITCAT_CAT_ELF_PATH_MAX + 1]; /* absolute, NUL-terminated; "" when not recorded */
	uint8_t build_id[CITCAT_CAT_BUILD_ID_MAX];
	uint8_t build_id_len; /* 0: the ELF had no build id */
};
/* As citcat_cat_writer_open, recording the firmware ELF_PATH (made
 * absolute; NULL records nothing) and its build id.  An ELF whose path
 * cannot be resolved or whose build id cannot be read is recorded with
 * what could be found (the capture itself reads the ELF first). */
CITCAT_API int citcat_cat_writer_open_elf(struct citcat_cat_writer **w, const char *path,
					  const struct citcat_target_config *cfg, const char *elf_path);
/* The firmware recorded in the CAT R reads, or NULL when it records none
 * (versions 2 and 3, or written without).  Owned by R. */
CITCAT_API const struct citcat_cat_elf *citcat_cat_elf(const struct citcat_cat_reader *r);
/* Appends one event.  Returns 0, CITCAT_ERR_INVAL (NULL argument, bad kind
 * or size, an IRQ line above 15) or _IO; details in citcat_cat_writer_error. */
CITCAT_API int citcat_cat_write(struct citcat_cat_writer *w, const struct citcat_cat_event *ev);
/* The Cortex-M7 fault status the STOP of fault kind 11 records (version
 * 7; written with the STOP, so set it before writing that event; all 0
 * when never set).  F->exc must be the STOP's fault address.  Returns 0,
 * or CITCAT_ERR_INVAL for NULL arguments or an isa 1 CAT. */
CITCAT_API int citcat_cat_writer_m7_fault(struct citcat_cat_writer *w, const struct citcat_m7_fault *f);
/* Completes the file, renames it into place and frees W.  Returns 0 or an
 * error (the output is then removed).  CITCAT_ERR_INVAL for NULL. */
CITCAT_API int citcat_cat_writer_close(struct citcat_cat_writer *w);
/* Drops the file being written and frees W.  Accepts NULL. */
CITCAT_API void citcat_cat_writer_abort(struct citcat_cat_writer *w);
/* The writer's last error (owned by W), or NULL for a NULL W. */
CITCAT_API const struct citcat_errinfo *citcat_cat_writer_error(const struct citcat_cat_writer *w);
/* Bytes written so far (0 for NULL). */
CITCAT_API uint64_t citcat_cat_writer_bytes(const struct citcat_cat_writer *w);

/* Opens the CAT PATH ("-" = stdin), or LEN bytes at BUF (which must outlive
 * the reader), and reads its header.  Returns 0, CITCAT_ERR_INVAL (NULL R),
 * _NOMEM, _IO, _EMPTY, _MAGIC, _VERSION, _TRUNCATED, _CHECKSUM, _CORRUPT.
 * Failure convention of base.h: *R holds the error when it could be
 * allocated; close it in every case. */
CITCAT_API int citcat_cat_reader_open(struct citcat_cat_reader **r, const char *path);
CITCAT_API int citcat_cat_reader_open_mem(struct citcat_cat_reader **r, const void *buf, size_t len);
/* The target configuration from the header (owned by R), or NULL for NULL. */
CITCAT_API const struct citcat_target_config *citcat_cat_config(const struct citcat_cat_reader *r);
/* Reads the next event into *EV.  Returns 1, 0 at the end (after the last
 * chunk's checksum was verified), or an error: CITCAT_ERR_INVAL (NULL
 * argument), _TRUNCATED, _CHECKSUM, _CORRUPT, _LIMIT, _IO (details in
 * citcat_cat_reader_error).  EV->data stays valid until the next call. */
CITCAT_API int citcat_cat_next(struct citcat_cat_reader *r, struct citcat_cat_event *ev);
/* After citcat_cat_next returned a STOP of fault kind 11 from a version 7
 * CAT: fills *F with the Cortex-M7 fault status it records and returns 1;
 * otherwise (no such STOP read, an older version) returns 0 and zeroes *F.
 * CITCAT_ERR_INVAL for NULL arguments. */
CITCAT_API int citcat_cat_m7_fault(const struct citcat_cat_reader *r, struct citcat_m7_fault *f);
/* Before the first citcat_cat_next: makes the reader start at segment K's
 * checkpoint (K >= 1; the CKPT event that starts it is the next event),
 * passing over the chunks before it by their headers alone (CAT.md,
 * version 6: every CKPT starts a marked chunk), without decoding them.
 * Returns 1 when so positioned lazily (the next citcat_cat_next returns
 * the CKPT, or 0 when the file has fewer segments), 0 when the file cannot
 * seek (a version 5 CAT, or K = 0: read from the start and count), or
 * CITCAT_ERR_INVAL (NULL R, or events already read). */
CITCAT_API int citcat_cat_reader_seek_segment(struct citcat_cat_reader *r, uint64_t k);
/* File offset of the chunk holding the last event (for progress; 0 for NULL). */
CITCAT_API uint64_t citcat_cat_reader_offset(const struct citcat_cat_reader *r);
/* Size of the file (0 when unknown, e.g. a pipe, or for NULL). */
CITCAT_API uint64_t citcat_cat_reader_file_size(const struct citcat_cat_reader *r);
/* The reader's last error (owned by R), or NULL for a NULL R. */
CITCAT_API const struct citcat_errinfo *citcat_cat_reader_error(const struct citcat_cat_reader *r);
/* Frees R.  Accepts NULL. */
CITCAT_API void citcat_cat_reader_close(struct citcat_cat_reader *r);

/* ---- What `citcat info` says about a CAT ---- */

/* The figures of a CAT (citcat_cat_reader_info).  Size-versioned: set SIZE
 * to sizeof(struct citcat_cat_info) before the call; members are only ever
 * appended. */
struct citcat_cat_info {
	size_t size;
	unsigned version;   /* the file's format version (CAT.md) */
	uint64_t events[CITCAT_CAT_KINDS];       /* events per kind (enum citcat_cat_kind) */
	uint64_t before_start[CITCAT_CAT_KINDS]; /* of those, recorded before the trace start point (SYNC) */
	uint64_t insns, branches, cycles; /* the STOP's counters (0 without a STOP) */
	uint64_t dma_bytes;  /* bytes the DMA events move */
	uint64_t file_bytes; /* the file's size (citcat_cat_reader_file_size) */
	int stop;            /* the STOP's reason (enum citcat_stop_reason), or -1: no STOP */
	int has_exit_value;  /* 1: the firmware wrote EXIT while traced and the STOP's reason is EXIT */
	int32_t exit_value;  /* then the value it wrote */
	uint32_t sync_pc;    /* the trace start point's PC (0 without a SYNC) */
	uint32_t repl_state[2]; /* the SYNC's I- and D-cache replacement states */
	uint32_t fault_kind, fault_pc, fault_addr; /* the STOP's value, PC and address */
	int has_m7_fault;    /* 1: the STOP carries the Cortex-M7's fault status */
	struct citcat_m7_fault m7_fault;
};

/* Reads the rest of the CAT R (normally all of it, right after the open)
 * and fills INFO with its figures; the configuration and the recorded
 * firmware stay with R (citcat_cat_config, citcat_cat_elf).  PROGRESS (may
 * be NULL) is called after every 16,384th event with the file offset
 * reached and the file's size; non-zero from it stops with
 * CITCAT_ERR_INTERRUPTED.  Returns 0, CITCAT_ERR_INVAL (NULL R or INFO, or
 * INFO->size smaller than the first version of the struct) or the
 * reader's error (citcat_cat_reader_error says where). */
CITCAT_API int citcat_cat_reader_info(struct citcat_cat_reader *r, struct citcat_cat_info *info,
				      int (*progress)(void *ctx, uint64_t done, uint64_t total), void *ctx);

/* The number of segments of the CAT at PATH (replay/SEGMENTS.md): the
 * checkpoints (CKPT events) after its trace start point (SYNC), plus one;
 * a CAT captured without checkpoints has one.  *N is 0 when the CAT has no
 * trace start point (nothing can be replayed from it).  STOP (may be NULL)
 * is polled every 65,536 events; non-zero stops with
 * CITCAT_ERR_INTERRUPTED.  Returns 0 or an error with ERR (may be NULL)
 * filled; a NULL PATH or N is CITCAT_ERR_INVAL. */
CITCAT_API int citcat_cat_segments(const char *path, uint64_t *n, int (*stop)(void *ctx), void *stop_ctx,
				   struct citcat_errinfo *err);

#ifdef __cplusplus
}
#endif

#endif
