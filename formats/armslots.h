/* The ARM core's register-dump slots as citcat's files carry them: the
 * trace module's dump in the CAT (TARGET.md) and the IMS's register slots
 * (IMS.md), with SCTLR.TE, the one SCTLR bit the IMS keeps.  A fact of the
 * formats, so it lives here; machine/armcore.h, the core wrappers, includes
 * it.  Internal module (not in the public API). */
#ifndef CITCAT_ARMSLOTS_H
#define CITCAT_ARMSLOTS_H

#define ARM_SCTLR_TE (1u << 30)

/* The register-dump slots of the trace module (TARGET.md). */
enum {
	ARM_SLOT_R0 = 0, ARM_SLOT_PC = 15, ARM_SLOT_CPSR = 16,
	ARM_SLOT_SP_USR = 17, ARM_SLOT_LR_USR, ARM_SLOT_SP_SVC, ARM_SLOT_LR_SVC, ARM_SLOT_SPSR_SVC,
	ARM_SLOT_SP_IRQ, ARM_SLOT_LR_IRQ, ARM_SLOT_SPSR_IRQ, ARM_SLOT_SP_ABT, ARM_SLOT_LR_ABT,
	ARM_SLOT_SPSR_ABT, ARM_SLOT_SP_UND, ARM_SLOT_LR_UND, ARM_SLOT_SPSR_UND,
	ARM_SLOT_R8_FIQ, ARM_SLOT_SP_FIQ = 36, ARM_SLOT_LR_FIQ, ARM_SLOT_SPSR_FIQ,
	ARM_SLOTS = 39,
	/* The driver's dump has one slot more than the register state: SCTLR
	 * (slot 39), carried in the IMS apart from the registers (IMS.md). */
	ARM_SLOT_SCTLR = 39, ARM_DUMP_SLOTS = 40
};

#endif
