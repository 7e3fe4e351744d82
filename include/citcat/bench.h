/* libcitcat public API: the measurements behind `citcat bench` (issue 30).
 *
 * Each call runs one phase of the tool chain (a capture, an extraction, a
 * replay, the bare-Unicorn baseline, a DAF encoding) and returns its
 * figures: instructions, seconds, sizes.  Nothing is printed or judged; the
 * tables and JSON of `citcat bench` are the CLI's formatting of these
 * figures.  Times are wall-clock (CLOCK_MONOTONIC) unless a member says
 * otherwise, so they vary from run to run; every other figure is a
 * property of the run and the same each time.
 *
 * Result structs start with `size_t size`, which the caller sets to sizeof
 * the struct it was compiled with (as base.h's configuration structs): the
 * library fills min(size, its own size) bytes, so programs built against
 * an older header keep working.  A size smaller than the first version is
 * CITCAT_ERR_INVAL.
 *
 * Errors: a negative citcat_err code with ERR (when not NULL) filled.  Where
 * a result struct has ERR_PATH, it names the file the error concerns (the
 * ELF, the CAT, the IMS...), or is NULL when ERR's message is complete in
 * itself (it names its files). */
#ifndef CITCAT_PUBLIC_BENCH_H
#define CITCAT_PUBLIC_BENCH_H

#include <citcat/base.h>
#include <citcat/aes.h>
#include <citcat/capture.h>
#include <citcat/replay.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Flags of citcat_bench_capture and citcat_bench_replay. */
enum {
	/* Compress and write every file on the calling thread, as a
	 * single-threaded build would, instead of on the writer thread
	 * (the phases `bench all` marks '1 thread'). */
	CITCAT_BENCH_INLINE_WRITES = 1u << 0,
	/* citcat_bench_capture: take the target from the ELF as `citcat
	 * capture` chooses it (an ARMv7-M ELF runs on the Cortex-M7), instead
	 * of CFG->target.isa. */
	CITCAT_BENCH_TARGET_FROM_ELF = 1u << 1,
};

/* The version of the Unicorn library loaded at run time ("2.0.1"), into
 * BUF of N bytes (always terminated when N > 0).  Every ratio of a
 * benchmark is to this engine's bare run, and the engine's speed differs
 * between versions by up to 4x on the same firmware, so ratios compare only
 * between runs on one version.  Returns 0, or CITCAT_ERR_INVAL for a NULL
 * BUF or N = 0. */
CITCAT_API int citcat_bench_unicorn_version(char *buf, size_t n);

/* ---- capture and replay, timed ---- */

/* A timed capture: the run loop alone (uc_emu_start and the hooks it
 * calls) and the whole call; RES as citcat_capture_run fills it (its
 * SECONDS is the whole call). */
struct citcat_bench_capture {
	size_t size;      /* sizeof(struct citcat_bench_capture) */
	double run_s;     /* the run loop */
	double setup_s;   /* the rest: loading, set-up, closing files */
	unsigned isa;     /* the target the capture ran (CITCAT_TARGET_*) */
	struct citcat_capture_result res;
};

/* Captures ELF as citcat_capture_run(CFG, ELF, CAT_PATH, ORACLE_PATH) does
 * (same files, same bytes), timing its run loop; FLAGS: CITCAT_BENCH_*.
 * Returns 0 with *OUT filled, or a negative code (ERR says why; the error
 * concerns ELF). */
CITCAT_API int citcat_bench_capture(const struct citcat_capture_config *cfg, unsigned flags, const char *elf,
				    const char *cat_path, const char *oracle_path, struct citcat_bench_capture *out,
				    struct citcat_errinfo *err);

/* A timed replay: RUN_S from the replay's first progress call (its first
 * instruction) to its end, SETUP_S before that (opening the IMS and AES,
 * building the engine); RES as citcat_replay_run fills it (RES.seconds is
 * the replay's own measure of the whole run). */
struct citcat_bench_replay {
	size_t size; /* sizeof(struct citcat_bench_replay) */
	double run_s, setup_s;
	struct citcat_replay_result res;
};

/* Runs citcat_replay_run(CFG) timed; CFG->progress, if set, is still
 * called.  FLAGS: CITCAT_BENCH_INLINE_WRITES or 0.  Returns what
 * citcat_replay_run returns (CITCAT_ERR_DIVERGED: OUT->res.div says where;
 * other errors: ERR, and OUT->res.err_path names the file when not NULL);
 * *OUT is filled in every case but CITCAT_ERR_INVAL. */
CITCAT_API int citcat_bench_replay(const struct citcat_replay_config *cfg, unsigned flags,
				   struct citcat_bench_replay *out, struct citcat_errinfo *err);

/* ---- the bare baseline (bench/bench_bare.c) ----
 * The traced interval of a recorded run executed by plain Unicorn from the
 * IMS start state, on the recorded path: device reads fed from the AES,
 * interrupts and DMA applied at the instruction index the replayed itrace
 * has them, each executed WFI made a NOP; only uc_emu_start is timed
 * (capture/TARGET.md "Where the time goes", replay/REPLAY.md "The floor of
 * a hooked run"). */
enum citcat_bench_bare_kind {
	CITCAT_BENCH_BARE = 0,        /* no hooks */
	CITCAT_BENCH_BARE_HOOKS = 1,  /* an empty code hook on every instruction and memory hook on every
				       * RAM access: the ceiling of a per-instruction model */
	CITCAT_BENCH_BARE_FLOOR_BLOCK = 2, /* an empty block hook and memory hook: the block engines' floor */
	CITCAT_BENCH_BARE_FLOOR_MEM = 3,   /* the empty memory hook alone */
};

struct citcat_bench_bare {
	size_t size;           /* sizeof(struct citcat_bench_bare) */
	uint64_t insns;        /* instructions executed (= the itrace's) */
	uint64_t segments;     /* uc_emu_start calls */
	uint64_t irqs, dma;    /* applied between segments */
	uint64_t sync_entries; /* Cortex-M7: entries the core took itself in the run (svc) */
	uint64_t it_failed;    /* condition-failed IT-block instructions: in INSNS, not counted by Unicorn */
	uint64_t wfis;         /* distinct WFI addresses made NOPs */
	uint64_t dev_reads;    /* device reads served from the AES */
	uint64_t dev_reads_recorded; /* INPUT + COUNTER records in the AES */
	int path_ok;           /* every event PC matched and every device read was used */
	uint32_t first_bad_pc, want_pc; /* the first mismatch when !path_ok */
	double run_s;          /* time inside uc_emu_start only */
	double setup_s;        /* IMS load, RAM, engine */
	double outside_s;      /* reading the schedule, IRQ entries, DMA copies, the untimed path check */
};

/* Runs the baseline of kind KIND (enum citcat_bench_bare_kind) for the run
 * whose IMS, AES and replayed itrace (with its DMA records, as citcat
 * replay writes it) are given.  Returns 0 with *OUT filled, or a negative
 * code with ERR set (the error concerns IMS_PATH). */
CITCAT_API int citcat_bench_bare_run(unsigned kind, const char *ims_path, const char *aes_path,
				     const char *itrace_path, struct citcat_bench_bare *out, struct citcat_errinfo *err);

/* ---- the shared set-up: capture, then extract ---- */

/* A run captured into a directory and extracted there: the file names
 * (DIR/run.cat, run.ims, run.aes, run.itrace, oracle.itrace; the last two
 * for the caller's phases) and the figures of the preparation. */
struct citcat_bench_prep {
	size_t size; /* sizeof(struct citcat_bench_prep) */
	char cat[600], ims[600], aes[600], itr[600], orc[600];
	struct citcat_bench_capture cap; /* the capture to the CAT */
	uint32_t dev_base;               /* the device base of the IMS's target */
	double ims_s, aes_s;             /* extraction times: IMS extract + write; AES extract */
	struct citcat_aes_stats aes_stats;
	const char *err_path;            /* on an error: the file it concerns (ELF or one of the above) */
};

/* Captures ELF with CFG (the target taken from the ELF, as
 * CITCAT_BENCH_TARGET_FROM_ELF; CFG->target.isa is set to it, so further
 * captures with CFG run the same target) to DIR/run.cat, then, when the
 * run was traced, extracts DIR/run.ims and DIR/run.aes, timing each step.
 * Returns 0; 1 when the firmware never starts tracing (nothing left
 * behind); a negative code with ERR and OUT->err_path set (the files made
 * so far removed). */
CITCAT_API int citcat_bench_prepare(struct citcat_capture_config *cfg, const char *elf, const char *dir,
				    struct citcat_bench_prep *out, struct citcat_errinfo *err);

/* Removes every file of P that exists (CAT, IMS, AES, itrace, oracle). */
CITCAT_API void citcat_bench_prep_remove(const struct citcat_bench_prep *p);

/* Instructions of the replayed ITRACE from its start up to and including
 * the CITCAT driver's store to the trace module's DUMP_DONE register at
 * DEV_BASE (the tracing dilation of `bench replay`); 0 when there is none
 * or the itrace cannot be read. */
CITCAT_API uint64_t citcat_bench_driver_insns(const char *itrace, uint32_t dev_base);

/* ---- extraction figures (bench extract) ---- */

struct citcat_bench_extract {
	size_t size;        /* sizeof(struct citcat_bench_extract) */
	uint64_t insns;     /* traced instructions */
	uint64_t cat_bytes; /* the CAT file */
	uint64_t ims_mem;   /* the IMS's memory bytes */
	uint64_t ims_raw;   /* 4 bytes per register slot of the A target + ims_mem, as citcat info counts it */
	uint64_t ims_file;  /* the IMS file */
	double seconds;     /* citcat_ims_extract + citcat_ims_write + citcat_aes_extract */
	const char *err_path; /* on an error: ELF or the AES path */
};

/* Captures ELF with CFG to CAT_PATH (no oracle), then times the IMS
 * extraction to IMS_PATH and the AES extraction to AES_PATH.  Returns 0
 * with *OUT filled and the three files left for the caller (to measure and
 * remove); 1 when the run never reached a trace start point (the CAT
 * removed); a negative code with ERR and OUT->err_path set (the CAT and
 * IMS removed). */
CITCAT_API int citcat_bench_extract(const struct citcat_capture_config *cfg, const char *elf, const char *cat_path,
				    const char *ims_path, const char *aes_path, struct citcat_bench_extract *out,
				    struct citcat_errinfo *err);

/* ---- data-address filtering and the trace port (bench daf, trace-port) ---- */

/* The statistics of a DAF stream (formats/DAF.md). */
struct citcat_bench_daf_stats {
	uint64_t insns;                       /* instructions seen */
	uint64_t loads, stores;               /* executed memory-referencing instructions */
	uint64_t loads_traced, stores_traced; /* ... whose data address was traced */
	uint64_t cond_bits;                   /* executed bits of conditional memory instructions */
	uint64_t escapes;                     /* escape records (instructions the RVU does not model) */
	uint64_t records;                     /* instructions that consumed a record */
	uint64_t bits;                        /* record bits (what the trace port carries) */
	uint64_t entries, returns;            /* Cortex-M7: exception entries and returns */
	uint64_t fixes;                       /* Cortex-M7: instructions a fault cut short, corrected by their entry */
};

struct citcat_bench_daf {
	size_t size;        /* sizeof(struct citcat_bench_daf) */
	uint64_t insns;     /* instructions of the itrace */
	uint64_t mem_insns; /* instructions with at least one data access */
	uint64_t raw_bits;  /* 32 per memory-referencing instruction */
	uint64_t nexus_bits; /* a Nexus-like differential address: XOR with the previous one, 6-bit groups */
	struct citcat_bench_daf_stats raw, diff; /* DAF (raw addresses) and DAFDiff */
	uint64_t sdc_bits;  /* with CITCAT_BENCH_DAF_SDCLSP: the rSDC-LSP [32x4,128] stream's bits */
	double enc_s, dec_s; /* thread CPU seconds of DAFDiff encoding (to the file) and decoding */
	const char *err_path; /* on an error: the file it concerns, or NULL when the message names it */
};

enum {
	/* citcat_bench_daf: also count an rSDC-LSP stream of the flow */
	CITCAT_BENCH_DAF_SDCLSP = 1u << 0,
};

/* Encodes the itrace ITRACE as DAF (counted) and DAFDiff (written to
 * DAF_PATH, timed), writes the first data address of each
 * memory-referencing instruction to ADDR_PATH (32-bit little-endian; left
 * for the caller to compress and remove), then decodes DAF_PATH over the
 * itrace's flow (timed) and checks every decoded access against the itrace
 * (untimed).  FLAGS: CITCAT_BENCH_DAF_*.  Stops with
 * CITCAT_ERR_INTERRUPTED when citcat_stop_requested().  Returns 0 with
 * *OUT filled, or a negative code with ERR and OUT->err_path set (ADDR_PATH
 * removed). */
CITCAT_API int citcat_bench_daf(const char *itrace, const char *daf_path, const char *addr_path, unsigned flags,
				struct citcat_bench_daf *out, struct citcat_errinfo *err);

/* The sizes of one run's files on the trace port (bench trace-port). */
struct citcat_bench_port {
	size_t size;          /* sizeof(struct citcat_bench_port) */
	uint64_t cat_raw;     /* the CAT's records, decompressed */
	uint64_t cat_file, itrace_file, ims_file, aes_file; /* file bytes */
};

/* Measures CAT_PATH and ITRACE_PATH, extracts the IMS to IMS_PATH and the
 * AES to AES_PATH and measures them (the files are left for the caller to
 * remove).  Returns 0 with *OUT filled, or a negative code with ERR set
 * (the error concerns CAT_PATH); the sizes are filled in either case. */
CITCAT_API int citcat_bench_port_sizes(const char *cat_path, const char *itrace_path, const char *ims_path,
				       const char *aes_path, struct citcat_bench_port *out, struct citcat_errinfo *err);

#ifdef __cplusplus
}
#endif

#endif
