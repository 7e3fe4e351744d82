/* The modelled target (TARGET.md) and its trace module: runs firmware on a
 * Unicorn ARM core with the cache/bus model and devices, and records the
 * cache-filtered address trace (CAT) and, optionally, the ground-truth
 * instruction trace. */
#ifndef CITCAT_CAPTURE_H
#define CITCAT_CAPTURE_H

#include "cat.h"
#include "lvt.h"

struct citcat_capture_config {
	size_t struct_size; /* sizeof(struct citcat_capture_config) */
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
	int bare; /* benchmark baseline: plain Unicorn, no hooks, no caches, no trace */
	/* First-access load-value trace (LVT.md): written to LVT_PATH when set,
	 * with FA flags of 1 << LVT_GRAN_SHIFT bytes (0 byte, 2 word).  LVT_RAW,
	 * when set, receives every load value of the traced interval (the
	 * unfiltered load-value trace, for benchmarks). */
	const char *lvt_path;
	unsigned lvt_gran_shift;
	void (*lvt_raw)(void *ctx, const uint8_t *bytes, unsigned n);
	void *lvt_raw_ctx;
	const char *daf_path; /* data-address filtering trace (formats/DAF.md), or NULL */
	int daf_raw;          /* DAF encoding: 0 DAFDiff, 1 raw addresses */
	/* The nominal clock the CLOCK_HZ register reports (TARGET.md), for
	 * firmware that turns cycles into seconds; 0 = CITCAT_CLOCK_HZ_DEFAULT.
	 * Timing in the model is in cycles either way. */
	uint32_t clock_hz;
};

#define CITCAT_CLOCK_HZ_DEFAULT 100000000u /* 100 MHz */

void citcat_capture_config_default(struct citcat_capture_config *c);

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
};

/* Runs the firmware ELF.  Writes the CAT to CAT_PATH (NULL: no CAT), the LVT
 * to CFG->lvt_path (when set) and the
 * ground-truth itrace to ORACLE_PATH (NULL: none).  Returns 0 when the run
 * ended, normally (EXIT, trace STOP) or abnormally (instruction limit,
 * fault, WFI deadlock, interrupted: RES->stop says which; CAT.md, STOP),
 * and the files were written; otherwise an error with details in ERR, and no
 * output files.  With an LVT or DAF trace, a fault or WFI deadlock is still
 * an error (CITCAT_ERR_TARGET), and with an LVT an interruption too
 * (CITCAT_ERR_INTERRUPTED): those formats cannot record them. */
int citcat_capture_run(const struct citcat_capture_config *cfg, const char *elf, const char *cat_path,
		       const char *oracle_path, struct citcat_capture_result *res, struct citcat_errinfo *err);

#endif
