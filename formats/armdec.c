/* The shared ARM A32 decoder: see armdec.h.  The one place outside the core
 * models that knows ARM encodings (through Capstone). */
#include "armdec.h"
#include "citcat.h"
#include <citcat/disasm.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int armdec_init(struct armdec *d)
{
	memset(d, 0, sizeof *d);
	if (cs_open(CS_ARCH_ARM, CS_MODE_ARM, &d->cs) != CS_ERR_OK)
		return CITCAT_ERR_UNSUPPORTED;
	d->open = 1;
	cs_option(d->cs, CS_OPT_DETAIL, CS_OPT_ON);
	if (!(d->insn = cs_malloc(d->cs))) {
		armdec_fini(d);
		return CITCAT_ERR_NOMEM;
	}
	if (cs_open(CS_ARCH_ARM, CS_MODE_THUMB, &d->cst) != CS_ERR_OK) {
		armdec_fini(d);
		return CITCAT_ERR_UNSUPPORTED;
	}
	d->open_t = 1;
	cs_option(d->cst, CS_OPT_DETAIL, CS_OPT_ON);
	if (!(d->insn_t = cs_malloc(d->cst))) {
		armdec_fini(d);
		return CITCAT_ERR_NOMEM;
	}
	return 0;
}

void armdec_fini(struct armdec *d)
{
	if (d->insn)
		cs_free(d->insn, 1);
	if (d->open)
		cs_close(&d->cs);
	if (d->insn_t)
		cs_free(d->insn_t, 1);
	if (d->open_t)
		cs_close(&d->cst);
	memset(d, 0, sizeof *d);
}

const cs_insn *armdec_decode(struct armdec *d, uint32_t pc, uint32_t word)
{
	uint8_t b[4] = {(uint8_t)word, (uint8_t)(word >> 8), (uint8_t)(word >> 16), (uint8_t)(word >> 24)};
	const uint8_t *p = b;
	size_t n = 4;
	uint64_t addr = pc;
	return cs_disasm_iter(d->cs, &p, &n, &addr, d->insn) ? d->insn : NULL;
}

const cs_insn *armdec_decode_isa(struct armdec *d, uint32_t pc, uint32_t word, unsigned size, int thumb)
{
	if (!thumb)
		return armdec_decode(d, pc, word);
	uint8_t b[4] = {(uint8_t)word, (uint8_t)(word >> 8), (uint8_t)(word >> 16), (uint8_t)(word >> 24)};
	const uint8_t *p = b;
	size_t n = size == 2 ? 2 : 4;
	uint64_t addr = pc;
	if (!cs_disasm_iter(d->cst, &p, &n, &addr, d->insn_t))
		return NULL;
	return d->insn_t->size == (size == 2 ? 2 : 4) ? d->insn_t : NULL; /* the whole word, no more, no less */
}

static int classify_insn(csh cs, const cs_insn *in, struct armdec_class *c);

int armdec_classify(struct armdec *d, uint32_t pc, uint32_t word, struct armdec_class *c)
{
	return armdec_classify_isa(d, pc, word, 4, 0, c);
}

int armdec_classify_isa(struct armdec *d, uint32_t pc, uint32_t word, unsigned size, int thumb,
			struct armdec_class *c)
{
	memset(c, 0, sizeof *c);
	const cs_insn *in;
	cs_insn *own = NULL;
	csh cs = thumb ? d->cst : d->cs;
	if (thumb) {
		/* Capstone's iterating decoder carries IT-block state from one
		 * call to the next (an IT makes the next instructions
		 * conditional); a class must be a function of (PC, word) alone,
		 * so Thumb words are classified by cs_disasm, which starts with
		 * no IT state (tests/test_thumb_formats.c) */
		uint8_t b[4] = {(uint8_t)word, (uint8_t)(word >> 8), (uint8_t)(word >> 16), (uint8_t)(word >> 24)};
		size_t n = cs_disasm(cs, b, size == 2 ? 2 : 4, pc, 1, &own);
		in = n == 1 && own->size == (size == 2 ? 2 : 4) ? own : NULL;
		if (!in && n)
			cs_free(own, n), own = NULL;
	} else {
		in = armdec_decode(d, pc, word);
	}
	int r = classify_insn(cs, in, c);
	if (own)
		cs_free(own, 1);
	return r;
}

static int classify_insn(csh cs, const cs_insn *in, struct armdec_class *c)
{
	if (!in)
		return 0; /* undefined: it does not branch (an exception would end the run) */
	c->decoded = 1;
	const cs_arm *a = &in->detail->arm;
	c->cond = a->cc != ARM_CC_AL && a->cc != ARM_CC_INVALID;
	cs_regs rd, wr;
	uint8_t nrd = 0, nwr = 0;
	if (cs_regs_access(cs, in, rd, &nrd, wr, &nwr) == CS_ERR_OK) {
		for (unsigned i = 0; i < nrd && c->nrd < ARMDEC_MAX_REGS; i++)
			c->rd[c->nrd++] = rd[i];
		for (unsigned i = 0; i < nwr && c->nwr < ARMDEC_MAX_REGS; i++)
			c->wr[c->nwr++] = wr[i];
	}
	int writes_pc = 0;
	for (unsigned i = 0; i < c->nwr; i++)
		writes_pc |= c->wr[i] == ARM_REG_PC;
	/* Thumb's table branches load the PC, but Capstone 4's register
	 * access lists leave the PC out of their writes (issue 35: ChampSim
	 * then flagged no branch) */
	if (in->id == ARM_INS_TBB || in->id == ARM_INS_TBH) {
		writes_pc = 1;
		if (c->nwr < ARMDEC_MAX_REGS)
			c->wr[c->nwr++] = ARM_REG_PC;
	}
	if ((in->id == ARM_INS_B || in->id == ARM_INS_BL) && a->op_count >= 1 && a->operands[0].type == ARM_OP_IMM) {
		c->flow = c->cond ? ARMDEC_DIRECT_C : ARMDEC_DIRECT_U;
		c->target = (uint32_t)a->operands[0].imm;
		c->link = in->id == ARM_INS_BL;
		return 1;
	}
	if (in->id == ARM_INS_BLX && a->op_count >= 1 && a->operands[0].type == ARM_OP_IMM) {
		c->flow = ARMDEC_THUMB;
		c->target = (uint32_t)a->operands[0].imm;
		c->link = 1;
		return 1;
	}
	if ((in->id == ARM_INS_CBZ || in->id == ARM_INS_CBNZ) && a->op_count >= 2 && a->operands[1].type == ARM_OP_IMM) {
		c->flow = ARMDEC_DIRECT_C;
		c->cond = 1;
		c->target = (uint32_t)a->operands[1].imm;
		return 1;
	}
	if (writes_pc) {
		c->flow = ARMDEC_INDIRECT;
		c->link = in->id == ARM_INS_BLX;
		/* exception return: the S bit with PC as destination (SUBS/MOVS PC, ...)
		 * or LDM with the ^ form, both of which write CPSR */
		for (unsigned i = 0; i < c->nwr; i++)
			c->exc_ret |= c->wr[i] == ARM_REG_CPSR;
		c->exc_ret |= a->update_flags && in->id != ARM_INS_BX;
		c->exc_ret |= a->usermode;
		int rd_sp = 0, wr_sp = 0;
		for (unsigned i = 0; i < c->nrd; i++)
			rd_sp |= c->rd[i] == ARM_REG_SP;
		for (unsigned i = 0; i < c->nwr; i++)
			wr_sp |= c->wr[i] == ARM_REG_SP;
		int from_lr = a->op_count >= 1 && a->operands[a->op_count - 1].type == ARM_OP_REG &&
			      a->operands[a->op_count - 1].reg == ARM_REG_LR &&
			      (in->id == ARM_INS_BX || in->id == ARM_INS_MOV);
		c->ret = !c->link && !c->exc_ret && (from_lr || (rd_sp && wr_sp));
	}
	return 1;
}

/* ---- the public disassembler (citcat/disasm.h) ---- */

struct citcat_disasm {
	struct armdec dec;
};

int citcat_disasm_open(struct citcat_disasm **d)
{
	if (!d)
		return CITCAT_ERR_INVAL;
	*d = calloc(1, sizeof **d);
	if (!*d)
		return CITCAT_ERR_NOMEM;
	int rc = armdec_init(&(*d)->dec);
	if (rc) {
		armdec_fini(&(*d)->dec);
		free(*d);
		*d = NULL;
	}
	return rc;
}

int citcat_disasm_insn(struct citcat_disasm *d, uint32_t pc, uint32_t word, unsigned size, int thumb,
		       char *mnemonic, size_t mn, char *operands, size_t on)
{
	if (!d || !mnemonic || !operands || !mn || !on)
		return CITCAT_ERR_INVAL;
	const cs_insn *in = armdec_decode_isa(&d->dec, pc, word, size == 2 ? 2 : 4, thumb);
	snprintf(mnemonic, mn, "%s", in ? in->mnemonic : "");
	snprintf(operands, on, "%s", in ? in->op_str : "");
	return in ? 0 : CITCAT_ERR_CORRUPT;
}

void citcat_disasm_close(struct citcat_disasm *d)
{
	if (!d)
		return;
	armdec_fini(&d->dec);
	free(d);
}
