#include "armcore.h"

int arm_take_exception(uc_engine *uc, uint32_t epc, uint32_t mode, uint32_t masks, uint32_t vector)
{
	uint32_t cpsr, ncpsr, lr = epc + 4, pc = vector;
	uc_err e = uc_reg_read(uc, UC_ARM_REG_CPSR, &cpsr);
	/* MODE; MASKS set; T = SCTLR.TE (the live value: firmware may change it
	 * at any time); IT and J cleared; flags, E and other masks kept */
	ncpsr = (cpsr & ~(0x1fu | ARM_CPSR_T | ARM_PSR_IT_MASK | (1u << 24))) | mode | masks;
	if (arm_sctlr_te(uc)) {
		ncpsr |= ARM_CPSR_T;
		pc |= 1; /* a PC write sets the state from bit 0 (tests/test_unicorn_thumb.c) */
	}
	if (!e)
		e = uc_reg_write(uc, UC_ARM_REG_CPSR, &ncpsr); /* switches to the mode's bank */
	if (!e)
		e = uc_reg_write(uc, UC_ARM_REG_SPSR, &cpsr);
	if (!e)
		e = uc_reg_write(uc, UC_ARM_REG_LR, &lr);
	if (!e)
		e = uc_reg_write(uc, UC_ARM_REG_PC, &pc);
	return (int)e;
}

int arm_take_irq(uc_engine *uc, uint32_t epc)
{
	/* mode IRQ; I and A set; F kept */
	return arm_take_exception(uc, epc, ARM_MODE_IRQ, ARM_CPSR_I | ARM_CPSR_A, ARM_IRQ_VECTOR);
}

int arm_sctlr_te(uc_engine *uc)
{
	uc_arm_cp_reg r = {.cp = 15, .crn = 1, .crm = 0, .opc1 = 0, .opc2 = 0};
	if (uc_reg_read(uc, UC_ARM_REG_CP_REG, &r))
		return 0;
	return (int)((r.val >> 30) & 1);
}

int arm_set_sctlr_te(uc_engine *uc, int te)
{
	uc_arm_cp_reg r = {.cp = 15, .crn = 1, .crm = 0, .opc1 = 0, .opc2 = 0};
	uc_err e = uc_reg_read(uc, UC_ARM_REG_CP_REG, &r);
	if (e)
		return (int)e;
	r.val = (r.val & ~(uint64_t)ARM_SCTLR_TE) | (te ? ARM_SCTLR_TE : 0);
	return (int)uc_reg_write(uc, UC_ARM_REG_CP_REG, &r);
}

static uc_err wr(uc_engine *uc, int reg, uint32_t v) { return uc_reg_write(uc, reg, &v); }

/* Unicorn switches register banks on CPSR writes (checked by test_armcore). */
static const struct {
	uint32_t mode;
	int sp, lr, spsr; /* slots, -1 none */
} banks[] = {
	{ARM_MODE_SYS, ARM_SLOT_SP_USR, ARM_SLOT_LR_USR, -1},
	{ARM_MODE_SVC, ARM_SLOT_SP_SVC, ARM_SLOT_LR_SVC, ARM_SLOT_SPSR_SVC},
	{ARM_MODE_IRQ, ARM_SLOT_SP_IRQ, ARM_SLOT_LR_IRQ, ARM_SLOT_SPSR_IRQ},
	{ARM_MODE_ABT, ARM_SLOT_SP_ABT, ARM_SLOT_LR_ABT, ARM_SLOT_SPSR_ABT},
	{ARM_MODE_UND, ARM_SLOT_SP_UND, ARM_SLOT_LR_UND, ARM_SLOT_SPSR_UND},
	{ARM_MODE_FIQ, ARM_SLOT_SP_FIQ, ARM_SLOT_LR_FIQ, ARM_SLOT_SPSR_FIQ},
};

int arm_set_state(uc_engine *uc, const struct arm_state *s)
{
	uc_err e = 0;
	for (unsigned i = 0; i < sizeof banks / sizeof *banks && !e; i++) {
		e = wr(uc, UC_ARM_REG_CPSR, 0x1c0u | banks[i].mode);
		if (!e)
			e = wr(uc, UC_ARM_REG_SP, s->slot[banks[i].sp]);
		if (!e)
			e = wr(uc, UC_ARM_REG_LR, s->slot[banks[i].lr]);
		if (!e && banks[i].spsr >= 0)
			e = wr(uc, UC_ARM_REG_SPSR, s->slot[banks[i].spsr]);
		if (!e && banks[i].mode == ARM_MODE_FIQ)
			for (int r = 0; r < 5 && !e; r++)
				e = wr(uc, UC_ARM_REG_R8 + r, s->slot[ARM_SLOT_R8_FIQ + r]);
	}
	if (!e)
		e = wr(uc, UC_ARM_REG_CPSR, s->slot[ARM_SLOT_CPSR]);
	for (int r = 0; r < 13 && !e; r++)
		e = wr(uc, UC_ARM_REG_R0 + r, s->slot[r]);
	if (!e)
		e = wr(uc, UC_ARM_REG_SP, s->slot[13]);
	if (!e)
		e = wr(uc, UC_ARM_REG_LR, s->slot[14]);
	/* a PC write sets the state from bit 0 (tests/test_unicorn_thumb.c) */
	if (!e)
		e = wr(uc, UC_ARM_REG_PC, (s->slot[ARM_SLOT_PC] & ~1u) | ((s->slot[ARM_SLOT_CPSR] >> 5) & 1));
	return (int)e;
}

int arm_get_state(uc_engine *uc, struct arm_state *s)
{
	uc_err e = 0;
	uint32_t cpsr, v;
	e = uc_reg_read(uc, UC_ARM_REG_CPSR, &cpsr);
	for (int r = 0; r < 13 && !e; r++)
		e = uc_reg_read(uc, UC_ARM_REG_R0 + r, &s->slot[r]);
	if (!e)
		e = uc_reg_read(uc, UC_ARM_REG_SP, &s->slot[13]);
	if (!e)
		e = uc_reg_read(uc, UC_ARM_REG_LR, &s->slot[14]);
	if (!e)
		e = uc_reg_read(uc, UC_ARM_REG_PC, &s->slot[15]);
	s->slot[ARM_SLOT_CPSR] = cpsr;
	for (unsigned i = 0; i < sizeof banks / sizeof *banks && !e; i++) {
		e = wr(uc, UC_ARM_REG_CPSR, 0x1c0u | banks[i].mode);
		if (!e)
			e = uc_reg_read(uc, UC_ARM_REG_SP, &s->slot[banks[i].sp]);
		if (!e)
			e = uc_reg_read(uc, UC_ARM_REG_LR, &s->slot[banks[i].lr]);
		if (!e && banks[i].spsr >= 0)
			e = uc_reg_read(uc, UC_ARM_REG_SPSR, &v), s->slot[banks[i].spsr] = v;
		if (!e && banks[i].mode == ARM_MODE_FIQ)
			for (int r = 0; r < 5 && !e; r++)
				e = uc_reg_read(uc, UC_ARM_REG_R8 + r, &s->slot[ARM_SLOT_R8_FIQ + r]);
	}
	if (!e)
		e = wr(uc, UC_ARM_REG_CPSR, cpsr);
	return (int)e;
}
