/* The one bare-Unicorn baseline every benchmark compares against (issue 14,
 * part 1): the traced interval of a recorded run, executed by plain Unicorn
 * with no hooks, from the same start state, on the recorded path.
 *
 *  - Start: the IMS registers and memory at the trace start point P.
 *  - Device reads: the AES's INPUT and COUNTER values in order (MMIO
 *    callback; device writes are dropped).
 *  - Interrupts and DMA transfers: applied at the instruction index where
 *    the recorded run had them (taken from the replayed itrace, which
 *    carries IRQ and DMA records between its instructions), so idle loops
 *    spin exactly as long as they did when recorded.  The run is split into
 *    segments at those indices (uc_emu_start with a count); between
 *    segments the IRQ entry (arm_take_irq) or the DMA copy is done untimed.
 *  - WFI: each WFI the itrace shows executing is made a NOP in the bare RAM
 *    before the segment that runs it (Unicorn would end uc_emu_start at a
 *    WFI); it retires as one instruction, as in the model.
 *  - Only uc_emu_start is timed (RUN_S); loading the IMS, mapping RAM,
 *    reading the itrace and the AES between segments is SETUP_S and
 *    OUTSIDE_S.
 *  - The path is checked: before each interrupt or DMA, the PC Unicorn
 *    stopped at must be the one the itrace recorded there (PATH_OK), and
 *    every recorded device read must have been consumed.
 *  - Unicorn counts only instructions it runs a code hook for, and it runs
 *    none for a condition-failed instruction of an IT block, which the
 *    itrace records (TARGET.md, CPU).  So a second, untimed engine (the
 *    shadow) runs each segment first with a code hook that matches every
 *    instruction against the itrace, record for record (a full path
 *    check), and gives the timed run the count Unicorn will make
 *    (IT_FAILED: the difference).  The shadow's time is OUTSIDE_S.
 *  - The Cortex-M7 (isa 2): the 23-slot register dump restored as the
 *    replayer does (replay_m7_set_state), SCS reads fed from the AES and
 *    SCS writes given to citcat's exception model (machine/m7exc.c), each
 *    scheduled exception (an AES IRQ record: exception number, boundary
 *    PC) entered between segments by m7exc_enter, untimed, as the A
 *    target's IRQ entry is; svc and exception returns (EXC_RETURN loaded
 *    into PC) are what the core does inside the run, so an interrupt hook
 *    (no per-instruction cost) does them, timed, with m7exc.  Stacking and
 *    unstacking go straight to RAM (no caches in the baseline).  The
 *    itrace's entry records of svc are told from the scheduled ones by the
 *    next AES IRQ record (same exception number and PC): SYNC_ENTRIES.
 *
 * Unicorn's instruction count is itself an internal per-instruction hook
 * (about 10% of a bare run, TARGET.md "Where the time goes"), so this
 * baseline is slightly slower than Unicorn with no count at all; the
 * ratios against it are correspondingly a little flattering.  Internal. */
#ifndef CITCAT_BENCH_BARE_H
#define CITCAT_BENCH_BARE_H

#include "citcat.h"

#include <stddef.h>
#include <stdint.h>

struct cc_bare_result {
	uint64_t insns;      /* instructions executed (= the itrace's) */
	uint64_t segments;   /* uc_emu_start calls */
	uint64_t irqs, dma;  /* applied between segments */
	uint64_t sync_entries; /* M7: entries the core took itself in the run (svc) */
	uint64_t it_failed;  /* condition-failed IT-block instructions: in INSNS, not counted by Unicorn */
	uint64_t wfis;       /* distinct WFI addresses made NOPs */
	uint64_t dev_reads;  /* device reads served from the AES */
	uint64_t dev_reads_recorded; /* INPUT + COUNTER records in the AES */
	int path_ok;         /* every event PC matched and every device read was used */
	uint32_t first_bad_pc, want_pc; /* the first mismatch when !path_ok */
	double run_s;        /* time inside uc_emu_start only */
	double setup_s;      /* IMS load, RAM, engine */
	double outside_s;    /* reading the schedule, IRQ entries, DMA copies */
};

/* Runs the baseline for the run whose IMS, AES and replayed itrace (with
 * DMA records, as citcat replay writes it) are given.  Returns 0 with *R
 * filled, or a negative CITCAT_ERR_* with ERR set. */
int cc_bare_run(const char *ims_path, const char *aes_path, const char *itrace_path, struct cc_bare_result *r,
		struct citcat_errinfo *err);

/* The same run with an empty UC_HOOK_CODE on every instruction and an empty
 * memory hook on every RAM access, as the capture model and the replayer
 * install them: what Unicorn's per-instruction and per-access hook dispatch
 * alone costs, so the ceiling of any model built on those hooks (TARGET.md
 * "Where the time goes").  Same results as cc_bare_run. */
int cc_bare_run_hooked(const char *ims_path, const char *aes_path, const char *itrace_path, struct cc_bare_result *r,
		       struct citcat_errinfo *err);

/* The same run with only an empty memory hook on every RAM access, and,
 * when BLOCK, an empty UC_HOOK_BLOCK on every translation block: what the
 * block engines (capture --engine block, replay's block engine) cannot
 * avoid paying, since they see every data access but not every
 * instruction; the floor of any model that drives a data cache from
 * Unicorn 2.0.1's hooks (replay/REPLAY.md "The floor of a hooked run").
 * Same results as cc_bare_run. */
int cc_bare_run_floor(const char *ims_path, const char *aes_path, const char *itrace_path, int block,
		      struct cc_bare_result *r, struct citcat_errinfo *err);

/* The version of the Unicorn library loaded at run time ("2.0.1"), into
 * BUF of N bytes.  Every ratio of a benchmark is to this engine's bare run,
 * and the engine's own speed differs between versions by up to 4x on the
 * same firmware (Unicorn 2.0.1 checks every guest store for translated
 * code, fixed in 2.1.0: capture/TARGET.md, "The block engine", session
 * 12), so ratios compare only between runs on one version. */
void cc_unicorn_version(char *buf, size_t n);

#endif
