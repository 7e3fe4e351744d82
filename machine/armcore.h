/* ARM core state helpers shared by the capture model and the replayer:
 * the architectural IRQ entry and whole-state register transfer (including
 * the banked registers of every mode) on a Unicorn ARM engine. */
#ifndef CITCAT_ARMCORE_H
#define CITCAT_ARMCORE_H

#include <stdint.h>
#include <unicorn/unicorn.h>

#include <citcat/ims.h>

#include "armslots.h" /* ARM_SLOT_*, ARM_SCTLR_TE: the dump slots the IMS carries */

#define ARM_MODE_USR 0x10
#define ARM_MODE_FIQ 0x11
#define ARM_MODE_IRQ 0x12
#define ARM_MODE_SVC 0x13
#define ARM_MODE_ABT 0x17
#define ARM_MODE_UND 0x1b
#define ARM_MODE_SYS 0x1f
#define ARM_CPSR_I (1u << 7)
#define ARM_CPSR_A (1u << 8)
#define ARM_CPSR_T (1u << 5)
#define ARM_IRQ_VECTOR 0x18u
/* ITSTATE's place in the CPSR (and the M-profile xPSR): IT[1:0] at bits
 * 26:25, IT[7:2] at bits 15:10 */
#define ARM_PSR_IT_MASK 0x0600fc00u

/* PSR with its IT bits replaced by the IT state IT */
static inline uint32_t arm_psr_set_it(uint32_t psr, uint8_t it)
{
	return (psr & ~ARM_PSR_IT_MASK) | (uint32_t)(it & 3u) << 25 | (uint32_t)(it >> 2) << 10;
}

/* A full register state in dump-slot order: the IMS's public struct
 * citcat_regs, under its internal name. */
#define arm_state citcat_regs
_Static_assert(ARM_SLOTS == CITCAT_REG_SLOTS, "register slots of the IMS");

/* Takes an IRQ at the boundary before the instruction at EPC, exactly as
 * the architecture does (TARGET.md).  Must be called from a code hook of the
 * instruction at EPC (which then does not execute) or between runs.
 * Returns 0 or a Unicorn error. */
int arm_take_irq(uc_engine *uc, uint32_t epc);
/* The entry both arm_take_irq and the checkpoint entry (capture/ckpt.h) make:
 * SPSR_<MODE> = CPSR; CPSR.M = MODE, MASKS (I/F/A bits) set, CPSR.T =
 * SCTLR.TE as the engine holds it now, IT and J cleared; LR_<MODE> = EPC + 4;
 * PC = VECTOR (in Thumb state when TE = 1).  Returns 0 or a Unicorn error. */
int arm_take_exception(uc_engine *uc, uint32_t epc, uint32_t mode, uint32_t masks, uint32_t vector);

/* SCTLR.TE (bit 30): exceptions are taken in Thumb state.  Reads the live
 * value (CP15 c1, c0, 0 through UC_ARM_REG_CP_REG), which an MCR in the
 * firmware changes in the capture and the replay alike. */
int arm_sctlr_te(uc_engine *uc);
/* Sets SCTLR.TE to TE (0 or 1), keeping the other bits as the engine has
 * them (its reset value unless the firmware wrote SCTLR): the IMS carries TE
 * only (IMS.md).  Returns 0 or a Unicorn error. */
int arm_set_sctlr_te(uc_engine *uc, int te);

/* Loads every register of S into the engine (banked ones by switching
 * modes), ending in S's CPSR with PC = slot 15 (in Thumb state when
 * CPSR.T is set). */
int arm_set_state(uc_engine *uc, const struct arm_state *s);
/* Reads the full state (PC = current PC). */
int arm_get_state(uc_engine *uc, struct arm_state *s);

#endif
