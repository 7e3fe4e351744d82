/* ARM register def/use sets (see defuse.h). */
#include "defuse.h"

#include "armdec.h"

#include <stdlib.h>
#include <string.h>

struct wet_decoder {
	struct armdec a; /* the shared decoder (formats/armdec.h) */
};

int wet_decoder_open(struct wet_decoder **d)
{
	*d = calloc(1, sizeof **d);
	if (!*d)
		return -1;
	if (armdec_init(&(*d)->a)) {
		free(*d);
		*d = NULL;
		return -1;
	}
	return 0;
}

void wet_decoder_close(struct wet_decoder *d)
{
	if (!d)
		return;
	armdec_fini(&d->a);
	free(d);
}

static void add(uint8_t *set, uint8_t *n, unsigned r)
{
	for (unsigned i = 0; i < *n; i++)
		if (set[i] == r)
			return;
	if (*n < WET_DU_MAX)
		set[(*n)++] = (uint8_t)r;
}

/* Capstone register -> logical register, or -1 (PC, anything else). */
static int logical(unsigned reg)
{
	if (reg >= ARM_REG_R0 && reg <= ARM_REG_R12)
		return (int)(reg - ARM_REG_R0);
	switch (reg) {
	case ARM_REG_SP: return 13;
	case ARM_REG_LR: return 14;
	case ARM_REG_CPSR: case ARM_REG_APSR: case ARM_REG_APSR_NZCV: return WET_R_FLAGS;
	case ARM_REG_SPSR: return WET_R_SPSR;
	default: return -1;
	}
}

void wet_decode(struct wet_decoder *d, uint32_t pc, uint32_t word, struct wet_du *du)
{
	memset(du, 0, sizeof *du);
	du->cond = (uint8_t)(word >> 28);
	if (du->cond != 14 && du->cond != 15)
		add(du->use, &du->nuse, WET_R_FLAGS);
	const cs_insn *insn = armdec_decode(&d->a, pc, word);
	if (!insn)
		return;
	/* the whole access lists (armdec_classify keeps at most ARMDEC_MAX_REGS) */
	cs_regs rr, wr;
	uint8_t nr = 0, nw = 0;
	if (cs_regs_access(d->a.cs, insn, rr, &nr, wr, &nw) == CS_ERR_OK) {
		for (unsigned i = 0; i < nr; i++)
			if (logical(rr[i]) >= 0)
				add(du->use, &du->nuse, (unsigned)logical(rr[i]));
		for (unsigned i = 0; i < nw; i++)
			if (logical(wr[i]) >= 0)
				add(du->def, &du->ndef, (unsigned)logical(wr[i]));
	}
	int writes_pc = 0;
	for (unsigned i = 0; i < nw; i++)
		writes_pc |= wr[i] == ARM_REG_PC;
	if (insn->detail->arm.update_flags && !writes_pc)
		add(du->def, &du->ndef, WET_R_FLAGS);
	int spsr = (word >> 22) & 1;
	if ((word & 0x0FBF0FFFu) == 0x010F0000u) /* MRS Rd, CPSR/SPSR */
		add(du->use, &du->nuse, spsr ? WET_R_SPSR : WET_R_FLAGS);
	int msr_reg = (word & 0x0FB0FFF0u) == 0x0120F000u, msr_imm = (word & 0x0FB0F000u) == 0x0320F000u;
	if ((msr_reg || msr_imm) && (word & 0x000F0000u)) { /* MSR with a field mask (not a hint) */
		if (spsr)
			add(du->def, &du->ndef, WET_R_SPSR);
		else if (word & 0x00080000u) /* the flags field */
			add(du->def, &du->ndef, WET_R_FLAGS);
		if (msr_reg)
			add(du->use, &du->nuse, word & 15u);
	}
	/* MRC/MCR (coprocessor register transfers; the CITCAT driver reads SCTLR
	 * with MRC): Capstone's access lists leave Rt out.  MRC writes Rt, or
	 * the flags for Rt = 15 (APSR_nzcv); MCR reads Rt. */
	if ((word & 0x0F000010u) == 0x0E000010u && du->cond != 15) {
		unsigned rt = (word >> 12) & 15u;
		if (word & 0x00100000u)
			add(du->def, &du->ndef, rt == 15 ? WET_R_FLAGS : rt);
		else if (rt != 15)
			add(du->use, &du->nuse, rt);
	}
	/* A32 LDREXD/STREXD name Rt alone and mean the pair Rt, Rt + 1:
	 * Capstone's access lists leave Rt + 1 out (issue 36's campaign: the
	 * WET reference saw LDREXD change r3 outside its def set) */
	if ((word & 0x0FF00FFFu) == 0x01B00F9Fu && du->cond != 15) { /* LDREXD Rt, Rt2, [Rn] */
		unsigned rt = (word >> 12) & 15u;
		add(du->def, &du->ndef, rt);
		if (rt < 14)
			add(du->def, &du->ndef, rt + 1);
	}
	if ((word & 0x0FF00FF0u) == 0x01A00F90u && du->cond != 15) { /* STREXD Rd, Rt, Rt2, [Rn] */
		unsigned rt = word & 15u;
		add(du->use, &du->nuse, rt);
		if (rt < 14)
			add(du->use, &du->nuse, rt + 1);
		add(du->def, &du->ndef, (word >> 12) & 15u);
	}
	/* exception returns: SUBS/MOVS PC, ... and LDM ..., {.., pc}^ copy SPSR to CPSR */
	int dp_s_pc = (word & 0x0C10F000u) == 0x0010F000u && ((word >> 21) & 0xC) != 0x8;
	int ldm_pc_s = (word & 0x0E508000u) == 0x08508000u;
	if (dp_s_pc || ldm_pc_s) {
		add(du->use, &du->nuse, WET_R_SPSR);
		add(du->def, &du->ndef, WET_R_FLAGS);
	}
}

unsigned wet_it_next(unsigned it, uint32_t word, unsigned size, int thumb)
{
	uint32_t hw = word & 0xffff;
	if (thumb && size == 2 && (hw & 0xFF00) == 0xBF00 && (hw & 15))
		return hw & 0xff; /* IT: firstcond and mask */
	if (!(it & 7))
		return 0;
	return (it & 0xe0) | ((it << 1) & 0x1f);
}

/* 16-bit Thumb instructions that set the flags outside an IT block and not
 * inside one (the "S" forms of ARMv7-A's 16-bit data processing): shifts
 * by immediate, ADD/SUB register and 3-bit immediate, MOV/ADD/SUB 8-bit
 * immediate (not CMP), and the data-processing group except TST, CMP,
 * CMN. */
static int t16_sets_flags_outside_it(uint32_t hw)
{
	if ((hw & 0xC000) == 0x0000) /* 00xxxx: shift imm, add/sub, mov/cmp/add/sub imm8 */
		return (hw & 0xF800) != 0x2800; /* CMP imm8 */
	if ((hw & 0xFC00) == 0x4000) { /* 010000 oooo: data processing */
		unsigned op = (hw >> 6) & 15;
		return op != 8 && op != 10 && op != 11; /* TST, CMP, CMN */
	}
	return 0;
}

unsigned wet_cond_isa(uint32_t word, unsigned size, int thumb, unsigned itstate)
{
	if (!thumb)
		return word >> 28;
	uint32_t hw1 = word & 0xffff, hw2 = word >> 16;
	if (itstate & 15)
		return (itstate >> 4) & 15;
	if (size == 2 && (hw1 & 0xF000) == 0xD000 && ((hw1 >> 8) & 15) < 14)
		return (hw1 >> 8) & 15; /* B<c> T1 */
	if (size == 4 && (hw1 & 0xF800) == 0xF000 && (hw2 & 0xD000) == 0x8000 && ((hw1 >> 6) & 15) < 14)
		return (hw1 >> 6) & 15; /* B<c> T3 */
	return 14;
}

void wet_decode_isa(struct wet_decoder *d, uint32_t pc, uint32_t word, unsigned size, int thumb, unsigned itstate,
		    struct wet_du *du)
{
	if (!thumb) {
		wet_decode(d, pc, word, du);
		return;
	}
	memset(du, 0, sizeof *du);
	uint32_t hw1 = word & 0xffff, hw2 = word >> 16;
	unsigned it = itstate & 0xff;
	du->cond = (uint8_t)wet_cond_isa(word, size, 1, itstate);
	if (du->cond != 14 && du->cond != 15)
		add(du->use, &du->nuse, WET_R_FLAGS);
	if (size == 2 && (hw1 & 0xFF00) == 0xBF00 && (hw1 & 15))
		return; /* IT */
	if (size == 2 && (hw1 & 0xFFE8) == 0xB660 && (hw1 & 3)) { /* CPS: M-profile PRIMASK (I), FAULTMASK (F) */
		if (hw1 & 2)
			add(du->sdef, &du->nsdef, WET_SYS_PRIMASK);
		if (hw1 & 1)
			add(du->sdef, &du->nsdef, WET_SYS_FAULTMASK);
	}
	/* M-profile MRS/MSR name a special register in SYSm (hw2 7:0); an
	 * A-profile one has SYSm 0 (or, banked, bit 5 set): 1..0x1f are
	 * M-profile alone */
	unsigned sysm = hw2 & 0xff;
	if (size == 4 && sysm && sysm < 0x20 && (hw2 & 0xF000) == 0x8000 &&
	    ((hw1 & 0xFFFF) == 0xF3EF || (hw1 & 0xFFF0) == 0xF380)) {
		int mrs = hw1 == 0xF3EF;
		int s = sysm == 8 ? WET_SYS_MSP : sysm == 9 ? WET_SYS_PSP : sysm == 16 ? WET_SYS_PRIMASK
			: sysm == 17 || sysm == 18 ? WET_SYS_BASEPRI : sysm == 19 ? WET_SYS_FAULTMASK
			: sysm == 20 ? WET_SYS_CONTROL : -1;
		if (mrs) {
			add(du->def, &du->ndef, (hw2 >> 8) & 15);
			if (sysm < 8 && !(sysm & 4)) /* APSR included */
				add(du->use, &du->nuse, WET_R_FLAGS);
			if (s >= 0)
				add(du->suse, &du->nsuse, (unsigned)s);
		} else {
			add(du->use, &du->nuse, hw1 & 15);
			if (sysm < 8 && !(sysm & 4) && (hw2 & 0x0800)) /* APSR_nzcvq */
				add(du->def, &du->ndef, WET_R_FLAGS);
			if (sysm == 18) /* BASEPRI_MAX writes only when it raises the priority */
				add(du->suse, &du->nsuse, WET_SYS_BASEPRI);
			if (s >= 0)
				add(du->sdef, &du->nsdef, (unsigned)s);
		}
		return;
	}
	const cs_insn *insn = armdec_decode_isa(&d->a, pc, word, size, 1);
	if (!insn)
		return;
	cs_regs rr, wr;
	uint8_t nr = 0, nw = 0;
	if (cs_regs_access(d->a.cst, insn, rr, &nr, wr, &nw) == CS_ERR_OK) {
		for (unsigned i = 0; i < nr; i++) /* the flags too: ADC, SBC, RRX */
			if (logical(rr[i]) >= 0)
				add(du->use, &du->nuse, (unsigned)logical(rr[i]));
		for (unsigned i = 0; i < nw; i++)
			if (logical(wr[i]) >= 0 && logical(wr[i]) != WET_R_FLAGS)
				add(du->def, &du->ndef, (unsigned)logical(wr[i]));
	}
	/* the flags are written through update_flags or the write list, but
	 * a 16-bit S form sets them outside an IT block only */
	int writes_pc = 0, writes_flags = 0;
	for (unsigned i = 0; i < nw; i++) {
		writes_pc |= wr[i] == ARM_REG_PC;
		writes_flags |= logical(wr[i]) == WET_R_FLAGS;
	}
	int sets = insn->detail->arm.update_flags || writes_flags;
	if (size == 2 && t16_sets_flags_outside_it(hw1))
		sets = !(it & 15);
	if (sets && !writes_pc)
		add(du->def, &du->ndef, WET_R_FLAGS);
	if (size == 4) {
		if ((hw1 & 0xFFEF) == 0xF3EF && (hw2 & 0xF0FF) == 0x8000) /* MRS Rd, CPSR/SPSR */
			add(du->use, &du->nuse, (hw1 >> 4) & 1 ? WET_R_SPSR : WET_R_FLAGS);
		if ((hw1 & 0xFFE0) == 0xF380 && (hw2 & 0xF0FF) == 0x8000 && (hw2 & 0x0F00)) { /* MSR with a mask */
			if ((hw1 >> 4) & 1)
				add(du->def, &du->ndef, WET_R_SPSR);
			else if (hw2 & 0x0800)
				add(du->def, &du->ndef, WET_R_FLAGS);
			add(du->use, &du->nuse, hw1 & 15);
		}
		if (hw1 == 0xF3DE && (hw2 & 0xFF00) == 0x8F00) { /* SUBS PC, LR, #imm: an exception return */
			add(du->use, &du->nuse, WET_R_SPSR);
			add(du->def, &du->ndef, WET_R_FLAGS);
		}
	}
}

int wet_cond_passed(unsigned cond, uint32_t cpsr)
{
	int n = (cpsr >> 31) & 1, z = (cpsr >> 30) & 1, c = (cpsr >> 29) & 1, v = (cpsr >> 28) & 1;
	switch (cond) {
	case 0: return z;
	case 1: return !z;
	case 2: return c;
	case 3: return !c;
	case 4: return n;
	case 5: return !n;
	case 6: return v;
	case 7: return !v;
	case 8: return c && !z;
	case 9: return !c || z;
	case 10: return n == v;
	case 11: return n != v;
	case 12: return !z && n == v;
	case 13: return z || n != v;
	default: return 1;
	}
}

/* banks: 0 usr/sys, 1 svc, 2 irq, 3 abt, 4 und, 5 fiq */
static unsigned bank(uint32_t cpsr)
{
	switch (cpsr & 0x1f) {
	case 0x13: return 1;
	case 0x12: return 2;
	case 0x17: return 3;
	case 0x1b: return 4;
	case 0x11: return 5;
	default: return 0;
	}
}

unsigned wet_phys(unsigned r, uint32_t cpsr)
{
	unsigned b = bank(cpsr);
	if (r < 13)
		return r;
	if (r == 13 || r == 14)
		return 13 + 2 * b + (r - 13); /* 13..24 */
	if (r == WET_R_FLAGS)
		return 25;
	return b ? 25 + b : 25; /* SPSR: 26..30; user/system mode has none (reads the flags' slot) */
}

unsigned wet_local_producers(const struct wet_du *du, int passed, uint32_t pos, const uint16_t *def, uint64_t *out)
{
	static const uint8_t flags_only[1] = {WET_R_FLAGS};
	const uint8_t *use = passed ? du->use : flags_only;
	unsigned nuse = passed ? du->nuse : 1, n = 0;
	for (unsigned i = 0; i < nuse; i++) {
		unsigned r = use[i];
		if (r > WET_R_FLAGS || r == 13 || r == 14 || !def[r] || def[r] > pos)
			continue; /* SP and LR are banked: a mode change inside a node would move them */
		uint64_t d = pos - (def[r] - 1u);
		int dup = 0;
		for (unsigned q = 0; q < n; q++)
			dup |= out[q] == d;
		if (!dup)
			out[n++] = d;
	}
	return n;
}
