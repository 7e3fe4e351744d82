/* libcitcat public API: the replay cursor.  A replayed run that can be
 * positioned at any instant and moved forwards and backwards, for
 * debuggers (citcat gdb), tests and IDE front ends (replay/CURSOR.md).
 *
 * The instant is an instruction count.  Instant N is the state after N
 * instructions retired and after the events due at the boundary before
 * instruction N were applied (DMA transfers, an interrupt entry): the PC
 * is the address of instruction N of the regenerated itrace, which is an
 * interrupt handler's first instruction when an entry came between.
 * Instant 0 is the trace start point P (with the events due before the
 * first instruction applied).
 *
 * Every answer is the replay's: registers and memory as the exact
 * replay had them at that instant.  Moving backwards re-executes from the
 * nearest earlier snapshot.  Snapshots (registers, the RAM pages written
 * since the previous snapshot, the replayer's device and AES state) are
 * taken while the run moves forwards into new ground, and kept within a
 * memory budget (CITCAT_CURSOR_BUDGET_DEFAULT unless configured), which
 * is never exceeded: when it is full, snapshots are thinned (the one whose
 * neighbours are closest goes), so backwards motion gets slower, never
 * wrong.
 *
 * A cursor is used from one thread at a time. */
#ifndef CITCAT_PUBLIC_CURSOR_H
#define CITCAT_PUBLIC_CURSOR_H

#include <citcat/base.h>
#include <citcat/replay.h>

#ifdef __cplusplus
extern "C" {
#endif

/* 256 MiB of snapshots by default; at least CITCAT_CURSOR_BUDGET_MIN. */
#define CITCAT_CURSOR_BUDGET_DEFAULT (256ull << 20)
#define CITCAT_CURSOR_BUDGET_MIN (1ull << 20)
/* A snapshot every 2^20 instructions moving forwards, unless the budget
 * thins them. */
#define CITCAT_CURSOR_INTERVAL_DEFAULT (1ull << 20)

struct citcat_cursor;

/* Configuration; citcat_cursor_config_default fills it.  The size rules
 * of base.h apply: SIZE must cover at least CAT_PATH. */
struct citcat_cursor_config {
	size_t size;          /* sizeof(struct citcat_cursor_config) */
	const char *ims_path; /* the run's IMS and AES (both, or neither and CAT_PATH) */
	const char *aes_path;
	const char *cat_path; /* or its CAT: the IMS and AES are extracted by the cursor */
	/* Bytes of snapshots at most (0: CITCAT_CURSOR_BUDGET_DEFAULT); less
	 * than CITCAT_CURSOR_BUDGET_MIN is CITCAT_ERR_INVAL. */
	uint64_t budget;
	/* Instructions between the snapshots taken moving forwards (0:
	 * CITCAT_CURSOR_INTERVAL_DEFAULT). */
	uint64_t interval;
	/* Polled about every 65536 instructions of a long motion: non-zero
	 * stops it where it is (CITCAT_CURSOR_INTERRUPTED).  NULL: never. */
	int (*interrupt)(void *ctx);
	void *interrupt_ctx;
	/* Progress of the extraction from CAT_PATH (bytes read, CAT size), as
	 * citcat_ims_extract's; non-zero stops it (CITCAT_ERR_INTERRUPTED). */
	int (*progress)(void *ctx, uint64_t done, uint64_t total);
	void *progress_ctx;
	/* A seek that goes back to a snapshot and then re-executes more than
	 * CHAIN instructions leaves snapshots halfway, then halfway again, down
	 * to CHAIN before its end, so that the steps backwards which follow
	 * re-execute little (0: CITCAT_CURSOR_CHAIN_DEFAULT; UINT64_MAX: never). */
	uint64_t chain;
};
#define CITCAT_CURSOR_CHAIN_DEFAULT 4096

/* Fills C with the defaults and sets C->size.  No effect when C is NULL. */
CITCAT_API void citcat_cursor_config_default(struct citcat_cursor_config *c);

/* Opens a cursor at instant 0 of the run CFG names.  Returns 0, or an
 * error: CITCAT_ERR_INVAL (NULL argument, a too small CFG->size, neither
 * or both of IMS + AES and a CAT, a budget below the minimum), the errors
 * of reading and extracting the inputs, CITCAT_ERR_DIVERGED when the run
 * does not replay from its first instruction.  Failure convention of
 * base.h: *CUR holds the error when it could be allocated
 * (citcat_cursor_error); close it in every case. */
CITCAT_API int citcat_cursor_open(struct citcat_cursor **cur, const struct citcat_cursor_config *cfg);
/* Frees CUR.  Accepts NULL. */
CITCAT_API void citcat_cursor_close(struct citcat_cursor *cur);
/* The last error (owned by CUR): code, offset in the file it concerns and a
 * message naming it; NULL for NULL. */
CITCAT_API const struct citcat_errinfo *citcat_cursor_error(const struct citcat_cursor *cur);
/* Where and how the replay differed from the recording when a motion
 * ended with CITCAT_CURSOR_DIVERGED (owned by CUR); NULL when it has not. */
CITCAT_API const struct citcat_divergence *citcat_cursor_divergence(const struct citcat_cursor *cur);

/* What the run is. */
struct citcat_cursor_info {
	uint32_t isa;         /* CITCAT_TARGET_ARMV7A or CITCAT_TARGET_CORTEX_M7 */
	uint64_t insns;       /* instructions in the run (the IMS's and the AES END's count) */
	uint64_t events;      /* AES records before the END: interrupts, DMA transfers, device reads and writes */
	unsigned stop_reason; /* how the recording ended: enum citcat_stop_reason */
	unsigned fault;       /* CITCAT_STOP_FAULT: enum citcat_fault_kind, with its PC and address */
	uint32_t fault_pc, fault_addr;
	int have_exit;        /* the firmware wrote the EXIT register: EXIT_VALUE is the last value */
	uint32_t exit_value;
	uint32_t ram_base, ram_size, dev_base, dev_size;
	/* The last instant of the history: INSNS, or INSNS - 1 when the last
	 * instruction faulted (the history ends before it); UINT64_MAX until
	 * the cursor has been there (or a divergence ended it earlier). */
	uint64_t last;
};
CITCAT_API int citcat_cursor_info(const struct citcat_cursor *cur, struct citcat_cursor_info *info);

/* Replaces the interrupt callback of the configuration (a server
 * polling its client, say).  Returns 0 or CITCAT_ERR_INVAL. */
CITCAT_API int citcat_cursor_set_interrupt(struct citcat_cursor *cur, int (*interrupt)(void *ctx), void *ctx);

/* The current instant (0 for NULL). */
CITCAT_API uint64_t citcat_cursor_now(const struct citcat_cursor *cur);

/* Where the cursor stands. */
struct citcat_cursor_when {
	uint64_t insn;       /* the instant */
	uint64_t bcount;     /* the trace module's branch count there */
	uint64_t next_event; /* the first AES record not yet applied or consumed (its number) */
	/* The capture's bus cycle bounds the instant lies between: the
	 * timestamps of the CAT events behind the last AES record applied or
	 * consumed (the trace start point's when none) and the next one (the
	 * STOP's after the last).  Only for a cursor opened from a CAT that
	 * records timestamps (HAVE_CYCLES 1): the IMS and AES hold no time.
	 * The CAT is read up to there for it. */
	int have_cycles;
	uint64_t cycle_lo, cycle_hi;
};
CITCAT_API int citcat_cursor_when(const struct citcat_cursor *cur, struct citcat_cursor_when *w);

/* The register file at the instant. */
struct citcat_cursor_regs {
	uint32_t r[16]; /* r0-r12, SP, LR, PC (the address of the next instruction, bit 0 clear) */
	/* A target: the CPSR (T and the IT bits as the instruction at PC
	 * sees them) and the SPSR of the mode (0 in User and System mode).
	 * Cortex-M7: xPSR in CPSR (IT bits included), and the special
	 * registers. */
	uint32_t cpsr, spsr;
	uint32_t msp, psp, primask, basepri, faultmask, control;
	/* Cortex-M7: the fault status the exception model holds (SCB CFSR,
	 * HFSR, MMFAR, BFAR), which a memory read of the SCS does not give */
	uint32_t cfsr, hfsr, mmfar, bfar;
	int m_profile; /* the Cortex-M7 */
	int thumb;     /* the instruction at PC is a Thumb one */
};
CITCAT_API int citcat_cursor_regs(const struct citcat_cursor *cur, struct citcat_cursor_regs *regs);

/* What the memory at an address is, for a debugger. */
enum citcat_cursor_mem {
	CITCAT_CURSOR_MEM_RAM = 0,     /* RAM whose value the run knows */
	CITCAT_CURSOR_MEM_UNKNOWN = 1, /* RAM no input gave a value: not in the IMS, never written */
	CITCAT_CURSOR_MEM_DEVICE = 2,  /* the device window: no replayable value */
	CITCAT_CURSOR_MEM_SCS = 3,     /* the Cortex-M7's System Control Space: the same */
	CITCAT_CURSOR_MEM_NONE = 4     /* nothing is mapped there */
};

/* Reads up to LEN bytes from ADDR as they were at the instant into BUF;
 * *GOT (not NULL) gets how many, from ADDR on, up to the first byte that
 * is not known RAM.  Returns the kind of that byte (enum
 * citcat_cursor_mem; CITCAT_CURSOR_MEM_RAM when all LEN were read), or
 * CITCAT_ERR_INVAL.  Nothing reaches a device. */
CITCAT_API int citcat_cursor_read(const struct citcat_cursor *cur, uint32_t addr, void *buf, size_t len, size_t *got);

/* Breakpoints and watchpoints, kept by the cursor (nothing is written into
 * the replayed memory).  ON: 1 sets, 0 clears (a breakpoint or watchpoint
 * set twice needs two clears).  Returns 0, CITCAT_ERR_INVAL (LEN 0 or
 * wrapping, a bad KIND), CITCAT_ERR_LIMIT (more than 1024 of either),
 * CITCAT_ERR_EOF (clearing one that is not set). */
enum { CITCAT_CURSOR_WATCH_READ = 1, CITCAT_CURSOR_WATCH_WRITE = 2, CITCAT_CURSOR_WATCH_ACCESS = 3 };
CITCAT_API int citcat_cursor_break(struct citcat_cursor *cur, uint32_t addr, int on);
CITCAT_API int citcat_cursor_watch(struct citcat_cursor *cur, uint32_t addr, uint32_t len, unsigned kind, int on);

/* Why a motion stopped. */
enum citcat_cursor_reason {
	CITCAT_CURSOR_STEP = 0,        /* it went where it was asked (a step, a seek) */
	CITCAT_CURSOR_BREAK = 1,       /* a breakpoint: ADDR is the next instruction */
	CITCAT_CURSOR_WATCH = 2,       /* a watched range is accessed by the step next in the motion's direction */
	CITCAT_CURSOR_EVENT = 3,       /* an interrupt entry or DMA transfer has just happened (EVENT) */
	CITCAT_CURSOR_BEGIN = 4,       /* backwards: instant 0, the start of the history */
	CITCAT_CURSOR_END = 5,         /* forwards: the last instant (info's LAST) */
	CITCAT_CURSOR_INTERRUPTED = 6, /* the interrupt callback asked */
	CITCAT_CURSOR_DIVERGED = 7     /* the replay differed from the recording: the history ends before it */
};
struct citcat_cursor_stop {
	unsigned reason;  /* enum citcat_cursor_reason */
	uint64_t insn;    /* the instant now */
	uint32_t addr;    /* BREAK: the breakpoint; WATCH: an address accessed in the watched range; EVENT: the
			   * DMA address or the interrupt's return address */
	unsigned watch;   /* WATCH: the kind of the watchpoint (CITCAT_CURSOR_WATCH_*) */
	unsigned access;  /* WATCH: the access, CITCAT_CURSOR_WATCH_READ or _WRITE */
	uint64_t event;   /* EVENT: the AES record number */
};

/* Motions.  Each fills STOP (not NULL) and returns 0, or an error
 * (CITCAT_ERR_INVAL, an input error met while replaying; the cursor then
 * stays where it was when it can).
 *
 * citcat_cursor_seek: to instant INSN (beyond the history: to its end,
 * CITCAT_CURSOR_END).  Breakpoints, watchpoints and events do not stop it.
 *
 * citcat_cursor_run: forwards (BACKWARD 0) or backwards until a
 * breakpoint's instruction is next (not counting the instant it starts
 * at), a watched range is accessed (forwards: it stops before the step that
 * makes the access, that is at the instruction making it, so that this
 * step is next; backwards: before reversing over it, that is after the
 * access: possibly where it starts, when the step behind it made one), an
 * event has just happened (with CITCAT_CURSOR_RUN_EVENTS; backwards: one
 * before the starting instant), or an end of the history.  With
 * CITCAT_CURSOR_RUN_STEP at most one instruction: a single step, which
 * stops before an access to a watched range as the run does (it then stays
 * where it is).  A DMA transfer and an interrupt entry belong to the step
 * that ends at their instant; a debugger steps over them as over an
 * instruction. */
enum { CITCAT_CURSOR_RUN_EVENTS = 1, CITCAT_CURSOR_RUN_STEP = 2 };
CITCAT_API int citcat_cursor_seek(struct citcat_cursor *cur, uint64_t insn, struct citcat_cursor_stop *stop);
CITCAT_API int citcat_cursor_run(struct citcat_cursor *cur, int backward, unsigned flags,
				 struct citcat_cursor_stop *stop);

/* The AES records, numbered from 0 in file order, with the instant each
 * shows at: an interrupt entry or DMA transfer the instant right after it
 * (an entry: the handler's first instruction), a device read or write the
 * instant of the instruction that makes it. */
struct citcat_cursor_event {
	uint64_t index; /* the record number */
	uint64_t insn;  /* the instant */
	unsigned kind;  /* enum citcat_aes_kind */
	unsigned line;  /* IRQ: the line (the exception number on the Cortex-M7) */
	uint32_t addr;  /* DMA: the destination; device reads and writes: the register */
	uint32_t pc;    /* IRQ, DMA: the instruction before which it happened */
	uint32_t len;   /* DMA: bytes; device reads and writes: the size */
	uint64_t value; /* device reads and writes: the value */
};
/* Fills up to N events from record FROM on into EV (*GOT, not NULL, gets
 * how many: fewer at the end of the run).  The cursor replays to find their
 * instants and comes back: its instant is unchanged.  Returns 0 or an
 * error. */
CITCAT_API int citcat_cursor_events(struct citcat_cursor *cur, uint64_t from, struct citcat_cursor_event *ev, size_t n,
				    size_t *got);

/* Snapshot use. */
struct citcat_cursor_usage {
	uint64_t budget, used, peak; /* bytes */
	uint64_t snapshots;          /* kept now */
	uint64_t taken, dropped;     /* taken moving forwards, and thinned since */
	uint64_t first, last;        /* the instants of the oldest and the newest */
	uint64_t interval;           /* the configured spacing */
	uint64_t restores;           /* snapshots restored for a motion */
	uint64_t replayed;           /* instructions executed again after a restore */
};
CITCAT_API int citcat_cursor_usage(const struct citcat_cursor *cur, struct citcat_cursor_usage *u);

#ifdef __cplusplus
}
#endif

#endif
