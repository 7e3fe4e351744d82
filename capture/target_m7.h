/* The Cortex-M7 capture model (TARGET-M7.md, "Capture"): what
 * capture/target.c calls when the configuration's isa is 2.  Internal. */
#ifndef CITCAT_TARGET_M7_H
#define CITCAT_TARGET_M7_H

#include "core.h"
#include "m7entry.h"
#include "m7exc.h"

#include <citcat/itrace.h>

struct target;

struct m7cap {
	struct m7exc exc;
	uint64_t st_cycle;  /* the bus cycle SysTick has been advanced to */
	uint32_t lines;     /* the interrupt controller's output lines at the last boundary */
	struct m7entry entry; /* the oracle's entry record being collected (m7_bus) */
	int insn_in_it;     /* the instruction retired last lies inside an IT block */
	uint8_t it_at;      /* its ITSTATE (0 outside a block): stacked by its precise BusFault */
	int resume;         /* a BusFault was taken in the unmapped hook: the run goes on at the handler */
	int in_ckpt;        /* a checkpoint's NMI is active (TARGET-M7.md, Checkpoints) */
	uc_cb_eventmem_t unmapped_a; /* the A target's unmapped hook (fetches, and accesses in IT blocks) */
};

/* Allocates T->m7 and opens the M7 core with the device window (BARE: both
 * the window and the SCS plain memory, no model).  Returns a Unicorn error
 * (UC_ERR_NOMEM when the allocation failed). */
uc_err target_m7_open(struct target *t, int bare);

/* Adds the capture's hooks (H: the shared memory hooks) with the M7's code,
 * interrupt and invalid-instruction hooks. */
uc_err target_m7_add_hooks(struct target *t, struct core_hooks h);

/* The reset (TARGET-M7.md): SP and PC from the vector table.  Sets *PC to
 * the address to start at.  Returns 0 or a citcat error (recorded). */
int target_m7_reset(struct target *t, uint32_t *pc);

/* After uc_emu_start failed: 1 when that was the unmapped access of a
 * BusFault the model took (the run goes on at the handler), else 0.
 * Clears the flag. */
int target_m7_resume(struct target *t);

/* The address to restart uc_emu_start at (Thumb bit set). */
uint32_t target_m7_resume_pc(struct target *t);

/* Refuses firmware built for the other profile.  Returns 0 or a citcat error. */
int target_m7_check(struct target *t, const char *elf);

void target_m7_free(struct target *t);

#endif
