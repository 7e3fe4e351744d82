/* libcitcat public API: the modelled target (TARGET.md) and its trace
 * module: runs firmware on an emulated ARM core with the cache/bus model and
 * devices, and records the cache-filtered address trace (CAT), optionally
 * the ground-truth instruction trace, and hands every CAT event to an
 * in-memory sink. */
#ifndef CITCAT_PUBLIC_CAPTURE_H
#define CITCAT_PUBLIC_CAPTURE_H

#include <citcat/base.h>
#include <citcat/cat.h>
#include <citcat/target.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Receives every CAT event of the traced interval, in order, whether or not
 * a CAT file is written.  EV (and EV->data) is valid during the call only.
 * Returns 0 to go on; non-zero stops the run (no output files are left)
 * with that code when it is a negative citcat_err code, else with
 * CITCAT_ERR_INTERRUPTED. */
typedef int (*citcat_event_sink_fn)(void *ctx, const struct citcat_cat_event *ev);

/* Configuration of a capture; citcat_capture_config_default fills it.  The
 * size rules of base.h apply: SIZE must cover at least TARGET; members a
 * caller's (older) struct lacks are taken as zero. */
struct citcat_capture_config {
	size_t size; /* sizeof(struct citcat_capture_config) */
	struct citcat_target_config target;
	const char *uart_in;    /* RX input file, or NULL */
	const char *dma_in;     /* DMA input file, or NULL for the seeded generator */
	const char *entropy_in; /* RANDOM register input file, or NULL for the generator */
	uint64_t max_insns;     /* stop after this many retired instructions (0 = no limit) */
	/* UART transmit bytes go here (the library never prints itself). */
	void (*uart_tx)(void *ctx, uint8_t byte);
	void *uart_ctx;
	/* Called about every million instructions (and while loading the ELF);
	 * a non-zero return ends the run at the next instruction boundary with
	 * stop reason CITCAT_STOP_INTERRUPTED and valid output files (during
	 * loading: CITCAT_ERR_INTERRUPTED, no output files). */
	int (*progress)(void *ctx, uint64_t insns);
	void *progress_ctx;
	/* First-access load-value trace (formats/LVT.md): written to LVT_PATH
	 * when set, with FA flags of 1 << LVT_GRAN_SHIFT bytes (0 byte, 2 word). */
	const char *lvt_path;
	unsigned lvt_gran_shift;
	const char *daf_path; /* data-address filtering trace (formats/DAF.md), or NULL */
	int daf_raw;          /* DAF encoding: 0 DAFDiff, 1 raw addresses */
	/* In-memory consumer of the CAT events (NULL: none), called with
	 * EVENT_CTX; see citcat_event_sink_fn. */
	citcat_event_sink_fn on_event;
	void *event_ctx;
	/* The nominal clock the CLOCK_HZ register reports (TARGET.md), for
	 * firmware that turns cycles into seconds; 0 = CITCAT_CLOCK_HZ_DEFAULT.
	 * Timing in the model is in cycles either way. */
	uint32_t clock_hz;
	/* Segment checkpoints (capture/TARGET.md, Checkpoints): the checkpoint
	 * interrupt once this many instructions have retired since the last
	 * trace start point (0 = none; otherwise at least 1000; not with an
	 * LVT or DAF trace). */
	uint64_t checkpoint_every;
	/* Which engine runs the core (capture/TARGET.md "The block engine"):
	 * CITCAT_CAPTURE_ENGINE_INSN (0, a code hook on every instruction),
	 * _BLOCK (whole A32 translation blocks without one where nothing can
	 * be due inside them; a run it does not take is refused with
	 * CITCAT_ERR_UNSUPPORTED) or _AUTO (block where it takes the run, else
	 * insn; what citcat_capture_config_default sets).  _AUTO runs blocks
	 * only after a window of instructions whose blocks would have paid for
	 * their changes of engine (TARGET.md "Simulated windows"), so a run
	 * that keeps changing never opens the block engine.  The outputs are
	 * byte-identical with every engine. */
	unsigned engine;
};

enum { CITCAT_CAPTURE_ENGINE_INSN = 0, CITCAT_CAPTURE_ENGINE_BLOCK = 1, CITCAT_CAPTURE_ENGINE_AUTO = 2 };

#define CITCAT_CHECKPOINT_MIN 1000u /* the smallest checkpoint interval */

#define CITCAT_CLOCK_HZ_DEFAULT 100000000u /* 100 MHz */

/* Fills C with the defaults (default target, no inputs, no limit, no
 * callbacks) and sets C->size.  No effect when C is NULL. */
CITCAT_API void citcat_capture_config_default(struct citcat_capture_config *c);

/* The ARM architecture profile the ELF at PATH was built for, from its
 * build attributes (Tag_CPU_arch_profile of .ARM.attributes): 'A', 'R',
 * 'M' or 'S'; 0 when it has no ARM build attributes or none naming the
 * profile (also for a file that is no ELF: the capture's loader reports
 * that better); a negative code when the file cannot be opened or PATH is
 * NULL (CITCAT_ERR_INVAL).  `citcat capture` picks the Cortex-M7 target for
 * 'M' when no --target is given (TARGET-M7.md). */
CITCAT_API int citcat_elf_arm_profile(const char *path);

/* Totals of the first-access load-value trace module (formats/LVT.md). */
struct citcat_lvt_stats {
	uint64_t insns;       /* instructions retired in the traced interval */
	uint64_t bcount;      /* branch counter at the end */
	uint64_t loads;       /* load records: cached loads (per register) and uncached reads */
	uint64_t hits;        /* of which FA hits */
	uint64_t ureads;      /* of which uncached (device) reads, always traced */
	uint64_t value_bytes; /* bytes of load values traced */
	uint64_t raw_bytes;   /* bytes of every load value (the unfiltered load-value trace) */
	uint64_t irqs, dmas;  /* event records */
	uint64_t bits;        /* bits of every record before STOP (chunk padding aside) */
};

struct citcat_capture_result {
	int exit_code;           /* value written to EXIT (-1 if none) */
	int stop;                /* enum citcat_stop_reason of the run */
	/* CITCAT_STOP_FAULT: what faulted (enum citcat_fault_kind), the PC of
	 * the faulting instruction (for a fetch fault: the address fetched) and
	 * the address accessed (0 when none) */
	uint32_t fault_kind, fault_pc, fault_addr;
	/* abnormal ends: the PC where the run ended (the faulting instruction,
	 * the WFI of a deadlock, the next instruction for a limit or interrupt) */
	uint32_t stop_pc;
	char stop_detail[160]; /* CITCAT_STOP_WFI_DEADLOCK: the interrupt sources, as text */
	int traced;              /* a trace start point was reached */
	uint64_t insns;          /* instructions retired in all */
	uint64_t traced_insns;   /* instructions retired in the traced interval */
	uint64_t cycles;
	uint64_t events[CITCAT_CAT_KINDS]; /* CAT events recorded per kind */
	uint64_t cat_bytes;
	double seconds;
	struct citcat_lvt_stats lvt; /* with an LVT: the trace module's totals */
	uint64_t lvt_bytes;          /* the LVT file's size */
	/* the block engine (capture/TARGET.md "The block engine"; 0 under
	 * --engine insn): blocks it ran without the code hook, and whether its
	 * back-off (a stretch run per instruction after frequent mode
	 * switches) was over when the run stopped, so that the code at the
	 * stop ran as blocks unless the decoder itself asked for per
	 * instruction (tests/capture_engines.sh checks it for blk_exc) */
	uint64_t blk_blocks;
	int blk_free_at_stop;
	/* a Cortex-M7 run ended by an exception that could not be taken (fault
	 * kind 11): its fault status registers, as the CAT records them */
	int has_m7_fault;
	struct citcat_m7_fault m7_fault;
};

/* Runs the firmware ELF.  Writes the CAT to CAT_PATH (NULL: no CAT; "-" =
 * stdout), the LVT and DAF traces when configured, and the ground-truth
 * itrace to ORACLE_PATH (NULL: none); hands each CAT event to CFG->on_event
 * when set.  Output files are written under temporary names and renamed
 * when complete.  RES (caller-owned) receives the totals.
 * Returns 0 when the run ended, normally (EXIT, trace STOP) or abnormally
 * (instruction limit, fault, WFI deadlock, interrupted: RES->stop says which;
 * CAT.md, STOP), and the files were written; otherwise an error and no
 * output files.  With an LVT or DAF trace, a fault or WFI deadlock is still
 * an error (CITCAT_ERR_TARGET), and with an LVT an interruption too
 * (CITCAT_ERR_INTERRUPTED): those formats cannot record them.  Errors:
 * CITCAT_ERR_INVAL (NULL CFG, ELF or RES, CFG->size too small), _NOMEM,
 * _IO, the ELF loader's errors (citcat_image_load_elf), _TARGET (the
 * firmware stopped abnormally: bus error, undefined instruction, ...),
 * _UNICORN, _INTERRUPTED (progress asked to stop), or the sink's code.
 * ERR (may be NULL, caller-owned) names the file, offset and reason. */
CITCAT_API int citcat_capture_run(const struct citcat_capture_config *cfg, const char *elf, const char *cat_path,
				  const char *oracle_path, struct citcat_capture_result *res,
				  struct citcat_errinfo *err);

/* citcat_capture_run(CFG, ELF, CAT_PATH, ORACLE_PATH) with an LVT
 * (CFG->lvt_path set), which also hands every load value of the traced
 * interval, as the trace module sees it before the first-access filter
 * (the unfiltered load-value trace, in load order, each value's bytes
 * little-endian), to RAW with RAW_CTX: what the LVT's filtering and
 * compression are measured against (`citcat bench lvt`).  RAW may be NULL.
 * Returns what citcat_capture_run returns; CITCAT_ERR_INVAL too for a CFG
 * without an LVT. */
CITCAT_API int citcat_capture_run_lvt_raw(const struct citcat_capture_config *cfg, const char *elf,
					  const char *cat_path, const char *oracle_path,
					  void (*raw)(void *raw_ctx, const uint8_t *bytes, unsigned n), void *raw_ctx,
					  struct citcat_capture_result *res, struct citcat_errinfo *err);

#ifdef __cplusplus
}
#endif

#endif
