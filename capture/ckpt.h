/* Segment checkpoints (capture --checkpoint-every, TARGET.md "Checkpoints"):
 * the checkpoint interrupt's entry, shared by the capture model and the
 * replayer, and the trace module's checkpoint logic in the model. */
#ifndef CITCAT_CKPT_H
#define CITCAT_CKPT_H

#include <stdint.h>
#include <unicorn/unicorn.h>

#include "citcat_regs.h"

/* Takes the checkpoint interrupt at the boundary before the instruction at
 * EPC (TARGET.md, Checkpoints): SPSR_fiq = CPSR; mode FIQ; I, F, A set; T,
 * IT, J cleared; LR_fiq = EPC + 4; PC = CITCAT_CKPT_VECTOR.  Called like
 * arm_take_irq.  Returns 0 or a Unicorn error. */
int arm_take_ckpt(uc_engine *uc, uint32_t epc);

struct target;

/* Model side (capture/ckpt.c).  ckpt_config checks the configuration once
 * before the run (0 or an error recorded with target_fail).  ckpt_boundary
 * runs at every instruction boundary A before interrupts are considered and
 * returns 1 when it took the checkpoint there (the instruction at A does
 * not execute now).  ckpt_uwrite sees every device write the core made. */
int ckpt_config(struct target *t);
/* Whether a checkpoint is due at this boundary (synced, N instructions
 * since the last start point, no dump in progress); the M7's entry
 * (target_m7.c) adds its own conditions. */
int ckpt_due(const struct target *t);
int ckpt_boundary(struct target *t, uint32_t a);
void ckpt_uwrite(struct target *t, uint32_t off);
/* At the boundary A after the checkpoint's INV_I store (ckpt_point_pending),
 * where take_sync would run: starts the segment count and records the CAT's
 * CKPT event (P_k = A, instructions since P, branch counter, generators). */
void ckpt_point(struct target *t, uint32_t a);

#endif
