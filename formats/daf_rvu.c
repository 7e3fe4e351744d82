/* The register validation unit and partial register replay of DAF: see
 * daf_rvu.h and the rules in DAF.md.  The instruction classes follow the
 * ARMv7-A ARM's A32 decoding tables (A5.1-A5.7); any encoding not listed
 * here is an escape, so an unmodelled instruction costs bits, never
 * exactness. */
#include "daf_rvu.h"

#include <string.h>

static inline int vld(const struct daf_rvu *r, unsigned n) { return n == 15 || ((r->valid >> n) & 1); }
static inline uint32_t val(const struct daf_rvu *r, unsigned n, uint32_t pc) { return n == 15 ? pc + 8 : r->r[n]; }
static inline uint32_t ror32(uint32_t v, unsigned k) { k &= 31; return k ? (v >> k) | (v << (32 - k)) : v; }

/* Writes register D: valid with value V when OK, otherwise invalid.  PC
 * writes are branches: the flow trace covers them. */
static void wr(struct daf_rvu *r, unsigned d, uint32_t v, int ok)
{
	if (d == 15)
		return;
	if (ok) {
		r->valid |= 1u << d;
		r->r[d] = v;
	} else {
		r->valid &= ~(1u << d);
	}
}

static void inval(struct daf_rvu *r, unsigned d) { wr(r, d, 0, 0); }

void daf_rvu_reset(struct daf_rvu *r) { memset(r, 0, sizeof *r); }

/* Immediate shift; 0 for RRX, which needs the carry flag (never known). */
static int shift_imm(uint32_t v, unsigned type, unsigned amt, uint32_t *out)
{
	switch (type) {
	case 0: *out = v << amt; return 1;
	case 1: *out = amt ? v >> amt : 0; return 1;
	case 2: *out = amt ? (uint32_t)((int32_t)v >> amt) : (uint32_t)((int32_t)v >> 31); return 1;
	default:
		if (!amt)
			return 0;
		*out = ror32(v, amt);
		return 1;
	}
}

static uint32_t shift_reg(uint32_t v, unsigned type, uint32_t s)
{
	s &= 0xff;
	switch (type) {
	case 0: return s >= 32 ? 0 : v << s;
	case 1: return s >= 32 ? 0 : v >> s;
	case 2: return s >= 32 ? (uint32_t)((int32_t)v >> 31) : (uint32_t)((int32_t)v >> s);
	default: return ror32(v, s);
	}
}

static void escape(struct daf_step *s)
{
	s->memop = DAF_MEM_ESCAPE;
	s->need = DAF_NEED_ESCAPE;
}

/* ---- non-memory classes ---- */

static void data_processing(struct daf_rvu *r, const struct daf_step *s, int al)
{
	uint32_t w = s->word, pc = s->pc, op2;
	unsigned opc = (w >> 21) & 15, sbit = (w >> 20) & 1, rn = (w >> 16) & 15, rd = (w >> 12) & 15;
	int ok = al;
	if (opc >= 8 && opc <= 11)
		return; /* TST TEQ CMP CMN: flags only, never tracked */
	if (rd == 15 && sbit) { /* exception return: CPSR from SPSR, registers banked */
		r->valid = 0;
		return;
	}
	if (w & (1u << 25)) {
		op2 = ror32(w & 0xff, ((w >> 8) & 15) * 2);
	} else if (!(w & 0x10)) {
		unsigned rm = w & 15;
		ok = ok && vld(r, rm) && shift_imm(val(r, rm, pc), (w >> 5) & 3, (w >> 7) & 31, &op2);
	} else {
		unsigned rm = w & 15, rs = (w >> 8) & 15;
		ok = ok && vld(r, rm) && vld(r, rs);
		op2 = ok ? shift_reg(val(r, rm, pc), (w >> 5) & 3, val(r, rs, pc)) : 0;
	}
	uint32_t a = 0, res = 0;
	if (opc != 13 && opc != 15) { /* MOV and MVN have no Rn */
		ok = ok && vld(r, rn);
		a = val(r, rn, pc);
	}
	switch (opc) {
	case 0: res = a & op2; break;
	case 1: res = a ^ op2; break;
	case 2: res = a - op2; break;
	case 3: res = op2 - a; break;
	case 4: res = a + op2; break;
	case 12: res = a | op2; break;
	case 13: res = op2; break;
	case 14: res = a & ~op2; break;
	case 15: res = ~op2; break;
	default: ok = 0; break; /* ADC SBC RSC need the carry flag */
	}
	wr(r, rd, res, ok);
}

static void multiply(struct daf_rvu *r, const struct daf_step *s, int al)
{
	uint32_t w = s->word, pc = s->pc;
	unsigned op = (w >> 21) & 7, rdhi = (w >> 16) & 15, rdlo = (w >> 12) & 15, rs = (w >> 8) & 15, rm = w & 15;
	int ok = al && vld(r, rm) && vld(r, rs);
	uint32_t m = val(r, rm, pc), n = val(r, rs, pc);
	switch (op) {
	case 0: wr(r, rdhi, m * n, ok); return;                                   /* MUL */
	case 1: wr(r, rdhi, m * n + val(r, rdlo, pc), ok && vld(r, rdlo)); return;  /* MLA */
	case 3: wr(r, rdhi, val(r, rdlo, pc) - m * n, ok && vld(r, rdlo)); return;  /* MLS */
	default: break;
	}
	uint64_t p;
	if (op == 6 || op == 7)
		p = (uint64_t)((int64_t)(int32_t)m * (int64_t)(int32_t)n);
	else
		p = (uint64_t)m * n;
	if (op == 2 || op == 5 || op == 7) { /* UMAAL, UMLAL, SMLAL read RdLo and RdHi */
		ok = ok && vld(r, rdlo) && vld(r, rdhi);
		uint64_t lo = val(r, rdlo, pc), hi = val(r, rdhi, pc);
		p += op == 2 ? lo + hi : (hi << 32 | lo);
	}
	if (op == 4 || op == 6 || op == 2 || op == 5 || op == 7) {
		wr(r, rdlo, (uint32_t)p, ok);
		wr(r, rdhi, (uint32_t)(p >> 32), ok);
	} else {
		inval(r, rdhi);
		inval(r, rdlo);
	}
}

/* Media instructions (A5.4): extends, bit fields, byte reversal. 0 when not modelled. */
static int media(struct daf_rvu *r, const struct daf_step *s, int al)
{
	uint32_t w = s->word, pc = s->pc;
	unsigned rd = (w >> 12) & 15, rn = (w >> 16) & 15, rm = w & 15;
	uint32_t x = val(r, rm, pc), res;
	int ok = al && vld(r, rm);
	if ((w & 0x0F8003F0u) == 0x06800070u) {
		/* SXTB/SXTH/UXTB/UXTH and their accumulating forms (op 010, 011, 110, 111) */
		unsigned op = (w >> 20) & 7;
		if (op != 2 && op != 3 && op != 6 && op != 7)
			return 0; /* SXTB16, UXTB16, saturation */
		x = ror32(x, ((w >> 10) & 3) * 8);
		switch (op) {
		case 2: res = (uint32_t)(int32_t)(int8_t)x; break;
		case 3: res = (uint32_t)(int32_t)(int16_t)x; break;
		case 6: res = x & 0xff; break;
		default: res = x & 0xffff; break;
		}
		if (rn != 15) {
			ok = ok && vld(r, rn);
			res += val(r, rn, pc);
		}
		wr(r, rd, res, ok);
		return 1;
	}
	if ((w & 0x0FFF0FF0u) == 0x06BF0F30u) { /* REV */
		res = (x >> 24) | ((x >> 8) & 0xff00) | ((x << 8) & 0xff0000) | (x << 24);
		wr(r, rd, res, ok);
		return 1;
	}
	if ((w & 0x0FFF0FF0u) == 0x06BF0FB0u) { /* REV16 */
		res = ((x >> 8) & 0x00ff00ffu) | ((x << 8) & 0xff00ff00u);
		wr(r, rd, res, ok);
		return 1;
	}
	if ((w & 0x0FA00070u) == 0x07A00050u) { /* SBFX (bit 22 = 0) / UBFX (bit 22 = 1) */
		unsigned lsb = (w >> 7) & 31, wm1 = (w >> 16) & 31;
		if (lsb + wm1 > 31)
			return 0;
		uint32_t f = (x >> lsb) & (wm1 == 31 ? 0xffffffffu : ((1u << (wm1 + 1)) - 1));
		if (!(w & (1u << 22)) && wm1 < 31 && (f >> wm1) & 1)
			f |= ~((1u << (wm1 + 1)) - 1);
		wr(r, rd, f, ok);
		return 1;
	}
	if ((w & 0x0FE00070u) == 0x07C00010u) { /* BFC (Rm = 15) / BFI */
		unsigned lsb = (w >> 7) & 31, msb = (w >> 16) & 31;
		if (msb < lsb)
			return 0;
		uint32_t mask = (msb - lsb == 31 ? 0xffffffffu : ((1u << (msb - lsb + 1)) - 1)) << lsb;
		uint32_t ins = rm == 15 ? 0 : x << lsb;
		ok = al && vld(r, rd) && (rm == 15 || vld(r, rm));
		wr(r, rd, (val(r, rd, pc) & ~mask) | (ins & mask), ok);
		return 1;
	}
	return 0;
}

/* ---- memory classes ---- */

/* Fills the offset fields of a single load/store from its register offset. */
/* Base, transfer register and P/U/W addressing of a single load/store word W
 * (A5.3 and the extra load/stores of A5.2.8 share the layout). */
static void ls_regs(struct daf_step *s, uint32_t w, unsigned p, unsigned wb)
{
	s->rn = (w >> 16) & 15;
	s->rt = (w >> 12) & 15;
	s->pre = (uint8_t)p;
	s->up = (w >> 23) & 1;
	s->wback = (uint8_t)(wb || !p);
}

static void reg_offset(const struct daf_rvu *r, struct daf_step *s, unsigned type, unsigned amt)
{
	uint32_t x;
	s->off_known = vld(r, s->rm) && shift_imm(val(r, s->rm, s->pc), type, amt, &x);
	s->off = s->off_known ? x : 0;
	/* invertible offset functions: no shift, or a rotation (DAF.md) */
	s->off_inv = s->rm != 15 && s->rm != s->rn && ((type == 0 && amt == 0) || (type == 3 && amt != 0));
	s->rot = type == 3 ? (uint8_t)amt : 0;
}

/* The base register's value: r15 reads as pc + 8 in ARM state and, as the
 * base of a literal load, Align(pc + 4, 4) in Thumb state. */
static inline uint32_t base_val(const struct daf_rvu *r, const struct daf_step *s)
{
	return s->rn == 15 && s->thumb ? (s->pc + 4) & (s->pc_raw ? ~0u : ~3u) : val(r, s->rn, s->pc);
}

static void single_addr(const struct daf_rvu *r, struct daf_step *s)
{
	s->memop = DAF_MEM_SINGLE;
	uint32_t b = base_val(r, s);
	if (s->pre)
		s->addr_known = vld(r, s->rn) && s->off_known;
	else
		s->addr_known = vld(r, s->rn);
	s->addr = s->pre ? (s->up ? b + s->off : b - s->off) : b;
}

static void multi_addr(const struct daf_rvu *r, struct daf_step *s)
{
	uint32_t w = s->word, n = (uint32_t)__builtin_popcount(w & 0xffff);
	unsigned pu = (w >> 23) & 3;
	s->memop = DAF_MEM_MULTI;
	s->list = (uint16_t)w;
	s->count = (uint8_t)n;
	s->size = 4;
	s->load = (w >> 20) & 1;
	s->rn = (w >> 16) & 15;
	s->wback = (w >> 21) & 1;
	s->up = (w >> 23) & 1;
	s->off = 4 * n;
	/* DA (start address) = Rn + adj: DA (P=0 U=0) 4 - 4n, IA 0, DB -4n, IB 4 */
	switch (pu) {
	case 0: s->start_adj = 4 - 4 * n; break;
	case 1: s->start_adj = 0; break;
	case 2: s->start_adj = 0 - 4 * n; break;
	default: s->start_adj = 4; break;
	}
	s->addr_known = vld(r, s->rn);
	s->addr = val(r, s->rn, s->pc) + s->start_adj;
}

static void t32_begin(struct daf_rvu *r, uint32_t pc, uint32_t w, unsigned size, struct daf_step *s);

void daf_rvu_begin_isa(struct daf_rvu *r, uint32_t pc, uint32_t w, unsigned size, int thumb, struct daf_step *s)
{
	if (!thumb) {
		daf_rvu_begin(r, pc, w, s);
		return;
	}
	memset(s, 0, sizeof *s);
	s->pc = pc;
	s->word = size == 2 ? w & 0xffff : w;
	s->thumb = 1;
	if (pc == DAF_IRQ_VECTOR && !r->m7) {
		r->valid = 0;
		r->it = 0;
	}
	t32_begin(r, pc, s->word, size, s);
}

void daf_rvu_begin(struct daf_rvu *r, uint32_t pc, uint32_t w, struct daf_step *s)
{
	memset(s, 0, sizeof *s);
	s->pc = pc;
	s->word = w;
	r->it = 0; /* ARM state: no IT block */
	/* The exception control signal (DAF.md): the IRQ entry banks SP and LR
	 * and the handler's first instruction is at the vector. */
	if (pc == DAF_IRQ_VECTOR)
		r->valid = 0;
	unsigned cond = w >> 28, op1 = (w >> 20) & 31;
	int al = cond == 0xE;
	if (cond == 0xF) {
		if ((w & 0xFF30F000u) == 0xF510F000u || (w & 0xFF30F010u) == 0xF710F000u ||
		    (w & 0xFF70F000u) == 0xF450F000u || (w & 0xFF70F010u) == 0xF650F000u)
			return; /* PLD, PLDW, PLI: hints, no access */
		if ((w & 0xFFFFFF00u) == 0xF57FF000u)
			return; /* CLREX, DSB, DMB, ISB */
		if ((w & 0xFE000000u) == 0xFA000000u && r->blx_imm) { /* BLX (immediate), to Thumb (version 2) */
			wr(r, 14, pc + 4, 1);
			return;
		}
		escape(s);
		return;
	}
	switch ((w >> 25) & 7) {
	case 0:
		if ((w & 0x90) == 0x90) {
			if ((w & 0xF0) == 0x90) {
				if (w & (1u << 24)) { /* SWP, LDREX, STREX... */
					escape(s);
					return;
				}
				multiply(r, s, al);
				return;
			}
			/* extra load/store (A5.2.8) */
			unsigned p = (w >> 24) & 1, wb = (w >> 21) & 1, l = (w >> 20) & 1, op2 = (w >> 5) & 3;
			if (!p && wb) { /* LDRHT and friends */
				escape(s);
				return;
			}
			ls_regs(s, w, p, wb);
			if (w & (1u << 22)) {
				s->off_known = 1;
				s->off = ((w >> 4) & 0xf0) | (w & 15);
			} else {
				s->rm = w & 15;
				reg_offset(r, s, 0, 0);
			}
			s->count = 1;
			if (op2 == 1) { /* STRH / LDRH */
				s->load = (uint8_t)l;
				s->size = 2;
			} else if (l) { /* LDRSB / LDRSH */
				s->load = 1;
				s->size = op2 == 2 ? 1 : 2;
			} else { /* LDRD (op2 = 2) / STRD (3) */
				if (s->rt & 1 || s->rt == 14) {
					escape(s);
					return;
				}
				s->load = op2 == 2;
				s->size = 4;
				s->count = 2;
			}
			if (s->load)
				s->list = (uint16_t)(s->count == 2 ? 3u << s->rt : 1u << s->rt);
			single_addr(r, s);
			break;
		}
		if ((op1 & 0x19) == 0x10) { /* miscellaneous (A5.2.12) */
			if (w & 0x80) { /* halfword multiplies */
				escape(s);
				return;
			}
			unsigned o2 = (w >> 4) & 7, op = (w >> 21) & 3, rd = (w >> 12) & 15;
			if (o2 == 0 && !(op & 1)) { /* MRS */
				inval(r, rd);
				return;
			}
			if (o2 == 0) { /* MSR (register): may change mode */
				r->valid = 0;
				return;
			}
			if (o2 == 1 && op == 1)
				return; /* BX */
			if (o2 == 1 && op == 3) { /* CLZ */
				unsigned rm = w & 15;
				uint32_t x = val(r, rm, pc);
				wr(r, rd, x ? (uint32_t)__builtin_clz(x) : 32, al && vld(r, rm));
				return;
			}
			if (o2 == 3 && op == 1) { /* BLX (register) */
				wr(r, 14, pc + 4, al);
				return;
			}
			escape(s);
			return;
		}
		data_processing(r, s, al);
		return;
	case 1:
		if (op1 == 0x10 || op1 == 0x14) { /* MOVW, MOVT */
			unsigned rd = (w >> 12) & 15;
			uint32_t imm = ((w >> 4) & 0xf000) | (w & 0xfff);
			if (op1 == 0x10)
				wr(r, rd, imm, al);
			else
				wr(r, rd, (val(r, rd, pc) & 0xffff) | imm << 16, al && vld(r, rd));
			return;
		}
		if ((op1 & 0x1B) == 0x12) {
			if (op1 == 0x12 && ((w >> 16) & 15) == 0)
				return; /* NOP, YIELD, WFE, WFI, SEV, DBG */
			r->valid = 0; /* MSR (immediate): may change mode */
			return;
		}
		data_processing(r, s, al);
		return;
	case 2:
	case 3: {
		if ((w & (1u << 25)) && (w & 0x10)) {
			if (!media(r, s, al))
				escape(s);
			return;
		}
		unsigned p = (w >> 24) & 1, wb = (w >> 21) & 1;
		if (!p && wb) { /* LDRT, STRT, LDRBT, STRBT */
			escape(s);
			return;
		}
		ls_regs(s, w, p, wb);
		s->load = (w >> 20) & 1;
		s->size = (w & (1u << 22)) ? 1 : 4;
		s->count = 1;
		if (w & (1u << 25)) {
			s->rm = w & 15;
			reg_offset(r, s, (w >> 5) & 3, (w >> 7) & 31);
		} else {
			s->off_known = 1;
			s->off = w & 0xfff;
		}
		if (s->load)
			s->list = (uint16_t)(1u << s->rt);
		single_addr(r, s);
		break;
	}
	case 4:
		if ((w & (1u << 22)) || !(w & 0xffff)) { /* user registers / exception return, empty list */
			escape(s);
			return;
		}
		multi_addr(r, s);
		break;
	case 5:
		if (w & (1u << 24))
			wr(r, 14, pc + 4, al); /* BL */
		return;
	default: /* coprocessor, SVC */
		escape(s);
		return;
	}
	/* a memory instruction */
	if (!al)
		s->need = DAF_NEED_COND;
	else
		s->need = s->addr_known ? DAF_NEED_NONE : DAF_NEED_ADDR;
}

/* ---- T32 (Thumb-2; DAF.md, "T32") ----
 *
 * The classes follow the ARMv7-A ARM's Thumb decoding tables (A6.2 for the
 * 16-bit encodings, A6.3 for the 32-bit ones).  WORD holds the first
 * halfword in bits 15..0 and, for a 32-bit instruction, the second in bits
 * 31..16.  In T32 a register read as an operand of data processing is
 * valid only for r0..r14 (r15 as an operand is modelled only where listed);
 * the condition of an instruction is the IT block's, which the RVU follows
 * from the flow's IT instructions (both sides see the same flow). */

static inline int tvld(const struct daf_rvu *r, unsigned n) { return n < 15 && ((r->valid >> n) & 1); }

/* ThumbExpandImm (A6.3.2): the value only (the carry is never tracked). */
static uint32_t thumb_expand_imm(uint32_t imm12)
{
	uint32_t v = imm12 & 0xff;
	if (!(imm12 & 0xc00)) {
		switch ((imm12 >> 8) & 3) {
		case 0: return v;
		case 1: return v << 16 | v;
		case 2: return v << 24 | v << 8;
		default: return v << 24 | v << 16 | v << 8 | v;
		}
	}
	return ror32(0x80 | (imm12 & 0x7f), (imm12 >> 7) & 31);
}

/* The data-processing operations shared by the modified-immediate (A6.3.1)
 * and the shifted-register (A6.3.11) classes: OP is bits 8..5 of the first
 * halfword.  Rd = 15 is TST, TEQ, CMN or CMP (flags only). */
static void t32_dp(struct daf_rvu *r, unsigned op, unsigned rn, unsigned rd, uint32_t op2, int ok)
{
	uint32_t a = 0, res = 0;
	int has_n = !((op == 2 || op == 3) && rn == 15); /* ORR/ORN with Rn = 15: MOV/MVN */
	if (has_n) {
		ok = ok && tvld(r, rn);
		a = ok ? r->r[rn] : 0;
	}
	switch (op) {
	case 0: res = a & op2; break;
	case 1: res = a & ~op2; break;
	case 2: res = a | op2; break;
	case 3: res = a | ~op2; break;
	case 4: res = a ^ op2; break;
	case 8: res = a + op2; break;
	case 13: res = a - op2; break;
	case 14: res = op2 - a; break;
	default: ok = 0; break; /* ADC SBC (carry), PKHBT/PKHTB */
	}
	wr(r, rd, res, ok);
}

/* A single load or store (LDR/STR, B, H, SB, SH) at base RN, transfer
 * register RT; SIZE in bytes; the addressing fields set by the caller. */
static void t32_single(const struct daf_rvu *r, struct daf_step *s, unsigned rn, unsigned rt, unsigned size, int load)
{
	s->rn = (uint8_t)rn;
	s->rt = (uint8_t)rt;
	s->size = (uint8_t)size;
	s->count = 1;
	s->load = (uint8_t)load;
	if (load)
		s->list = (uint16_t)(1u << rt);
	single_addr(r, s);
}

/* LDM/STM (increment after when UP, else decrement before) of LIST at RN. */
static void t32_multi(const struct daf_rvu *r, struct daf_step *s, unsigned rn, unsigned list, int load, int up, int wback)
{
	unsigned n = (unsigned)__builtin_popcount(list);
	s->memop = DAF_MEM_MULTI;
	s->list = (uint16_t)list;
	s->count = (uint8_t)n;
	s->size = 4;
	s->load = (uint8_t)load;
	s->rn = (uint8_t)rn;
	s->wback = (uint8_t)wback;
	s->up = (uint8_t)up;
	s->off = 4 * n;
	s->start_adj = up ? 0 : 0 - 4 * n;
	s->addr_known = tvld(r, rn);
	s->addr = r->r[rn] + s->start_adj;
}

/* 16-bit encodings (A6.2).  0: a memory instruction (S filled), 1: done. */
static int t16(struct daf_rvu *r, uint32_t pc, uint32_t hw, struct daf_step *s, int al)
{
	unsigned lo = hw & 7, mid = (hw >> 3) & 7, r8 = (hw >> 8) & 7;
	uint32_t x = 0;
	switch (hw >> 12) {
	case 0:
	case 1:
		if ((hw & 0xf800) == 0x1800) { /* ADD/SUB (register, 3-bit immediate) */
			uint32_t b = (hw & 0x400) ? (uint32_t)((hw >> 6) & 7) : r->r[(hw >> 6) & 7];
			int ok = al && tvld(r, mid) && ((hw & 0x400) || tvld(r, (hw >> 6) & 7));
			wr(r, lo, (hw & 0x200) ? r->r[mid] - b : r->r[mid] + b, ok);
			return 1;
		}
		/* LSL, LSR, ASR (immediate); LSL #0 is MOV */
		wr(r, lo, shift_imm(r->r[mid], (hw >> 11) & 3, (hw >> 6) & 31, &x) ? x : 0, al && tvld(r, mid));
		return 1;
	case 2:
	case 3: { /* MOV, CMP, ADD, SUB (8-bit immediate) */
		unsigned op = (hw >> 11) & 3;
		uint32_t imm = hw & 0xff;
		if (op == 0)
			wr(r, r8, imm, al);
		else if (op != 1)
			wr(r, r8, op == 2 ? r->r[r8] + imm : r->r[r8] - imm, al && tvld(r, r8));
		return 1;
	}
	case 4:
		if ((hw & 0xfc00) == 0x4000) { /* data processing (A6.2.2) */
			unsigned op = (hw >> 6) & 15;
			uint32_t d = r->r[lo], m = r->r[mid];
			int okd = al && tvld(r, lo), okm = al && tvld(r, mid);
			switch (op) {
			case 0: wr(r, lo, d & m, okd && okm); break;
			case 1: wr(r, lo, d ^ m, okd && okm); break;
			case 2: wr(r, lo, shift_reg(d, 0, m), okd && okm); break;
			case 3: wr(r, lo, shift_reg(d, 1, m), okd && okm); break;
			case 4: wr(r, lo, shift_reg(d, 2, m), okd && okm); break;
			case 7: wr(r, lo, shift_reg(d, 3, m), okd && okm); break;
			case 9: wr(r, lo, 0 - m, okm); break; /* RSB #0 (NEG) */
			case 12: wr(r, lo, d | m, okd && okm); break;
			case 13: wr(r, lo, d * m, okd && okm); break;
			case 14: wr(r, lo, d & ~m, okd && okm); break;
			case 15: wr(r, lo, ~m, okm); break;
			case 8: case 10: case 11: break; /* TST CMP CMN: flags only */
			default: inval(r, lo); break;    /* ADC SBC: carry */
			}
			return 1;
		}
		if ((hw & 0xfc00) == 0x4400) { /* special data, branch and exchange (A6.2.3) */
			unsigned op = (hw >> 8) & 3, rm = (hw >> 3) & 15, rd = ((hw >> 4) & 8) | lo;
			uint32_t m = rm == 15 ? pc + 4 : r->r[rm];
			int okm = al && (rm == 15 || tvld(r, rm));
			if (op == 0) /* ADD (register), Rd may be SP; Rd = PC is a branch */
				wr(r, rd, (rd == 15 ? 0 : r->r[rd]) + m, okm && tvld(r, rd));
			else if (op == 2) /* MOV (register) */
				wr(r, rd, m, okm);
			else if (op == 3 && (hw & 0x80)) /* BLX (register) */
				wr(r, 14, (pc + 2) | 1, al);
			return 1; /* CMP, BX */
		}
		/* LDR (literal) */
		s->off_known = 1;
		s->off = (hw & 0xff) * 4;
		s->pre = s->up = 1;
		t32_single(r, s, 15, r8, 4, 1);
		return 0;
	case 5: { /* load/store, register offset */
		static const uint8_t sz[8] = {4, 2, 1, 1, 4, 2, 1, 2};
		unsigned op = (hw >> 9) & 7;
		s->pre = s->up = 1;
		s->rm = (hw >> 6) & 7;
		s->rn = (uint8_t)mid;
		reg_offset(r, s, 0, 0);
		t32_single(r, s, mid, lo, sz[op], op >= 3);
		return 0;
	}
	case 6:
	case 7: /* LDR/STR, LDRB/STRB (immediate) */
	case 8: { /* LDRH/STRH (immediate) */
		unsigned size = (hw >> 12) == 8 ? 2 : (hw & 0x1000) ? 1 : 4;
		s->off_known = s->pre = s->up = 1;
		s->off = ((hw >> 6) & 31) * size;
		t32_single(r, s, mid, lo, size, (hw >> 11) & 1);
		return 0;
	}
	case 9: /* LDR/STR (SP-relative) */
		s->off_known = s->pre = s->up = 1;
		s->off = (hw & 0xff) * 4;
		t32_single(r, s, 13, r8, 4, (hw >> 11) & 1);
		return 0;
	case 10: /* ADR; ADD (SP plus immediate) */
		if (hw & 0x800)
			wr(r, r8, r->r[13] + (hw & 0xff) * 4, al && tvld(r, 13));
		else
			wr(r, r8, ((pc + 4) & ~3u) + (hw & 0xff) * 4, al);
		return 1;
	case 11: /* miscellaneous (A6.2.5) */
		if ((hw & 0xff00) == 0xb000) { /* ADD/SUB (SP plus immediate) */
			uint32_t imm = (hw & 0x7f) * 4;
			wr(r, 13, (hw & 0x80) ? r->r[13] - imm : r->r[13] + imm, al && tvld(r, 13));
			return 1;
		}
		if ((hw & 0xf500) == 0xb100) /* CBZ, CBNZ */
			return 1;
		if ((hw & 0xff00) == 0xb200) { /* SXTH SXTB UXTH UXTB */
			uint32_t m = r->r[mid];
			static const uint32_t mask[4] = {0xffff, 0xff, 0xffff, 0xff};
			unsigned op = (hw >> 6) & 3;
			uint32_t v = m & mask[op];
			if (op == 0)
				v = (uint32_t)(int32_t)(int16_t)v;
			else if (op == 1)
				v = (uint32_t)(int32_t)(int8_t)v;
			wr(r, lo, v, al && tvld(r, mid));
			return 1;
		}
		if ((hw & 0xfe00) == 0xb400 || (hw & 0xfe00) == 0xbc00) { /* PUSH, POP */
			int load = (hw >> 11) & 1;
			unsigned list = (hw & 0xff) | ((hw & 0x100) ? (load ? 0x8000u : 0x4000u) : 0);
			if (!list)
				break;
			t32_multi(r, s, 13, list, load, load, 1);
			return 0;
		}
		if ((hw & 0xffe8) == 0xb660) { /* CPS: may change mode (only the masks on the M7) */
			if (!r->m7)
				r->valid = 0;
			return 1;
		}
		if ((hw & 0xff00) == 0xba00 && ((hw >> 6) & 3) != 2) { /* REV, REV16, REVSH */
			uint32_t m = r->r[mid], v;
			unsigned op = (hw >> 6) & 3;
			if (op == 0)
				v = (m >> 24) | ((m >> 8) & 0xff00) | ((m << 8) & 0xff0000) | (m << 24);
			else if (op == 1)
				v = ((m >> 8) & 0x00ff00ffu) | ((m << 8) & 0xff00ff00u);
			else
				v = (uint32_t)(int32_t)(int16_t)(((m >> 8) & 0xff) | ((m & 0xff) << 8));
			wr(r, lo, v, al && tvld(r, mid));
			return 1;
		}
		if ((hw & 0xff00) == 0xbf00) /* IT (followed in daf_rvu_begin_isa), hints */
			return 1;
		break;
	case 12: { /* LDM, STM */
		unsigned list = hw & 0xff, load = (hw >> 11) & 1, in = (list >> r8) & 1;
		if (!list || (!load && in))
			break;
		t32_multi(r, s, r8, list, (int)load, 1, load ? !in : 1);
		return 0;
	}
	case 13:
		if ((hw & 0xff00) == 0xdf00 && r->m7)
			return 1; /* SVC on the M7: no register changes (the entry follows) */
		if ((hw & 0xfe00) == 0xde00) /* UDF, SVC */
			break;
		return 1; /* B<c> */
	case 14:
		if (!(hw & 0x800))
			return 1; /* B */
		break;
	default:
		break;
	}
	escape(s);
	return 1;
}

/* Loads and stores of one item, 32-bit (A6.3.7 to A6.3.10). */
static int t32_ls_single(struct daf_rvu *r, uint32_t hw1, uint32_t hw2, struct daf_step *s)
{
	unsigned sign = (hw1 >> 8) & 1, szc = (hw1 >> 5) & 3, load = (hw1 >> 4) & 1, rn = hw1 & 15, rt = hw2 >> 12;
	if (szc == 3 || (sign && (!load || szc == 2)))
		return 0;
	if (rt == 15 && (!load || szc != 2)) /* PLD, PLI, hints; a store of the PC */
		return 0;
	if (rt == 13 && szc != 2)
		return 0;
	if (rn == 15) { /* literal */
		if (!load)
			return 0;
		s->off_known = s->pre = 1;
		s->up = (hw1 >> 7) & 1;
		s->off = hw2 & 0xfff;
	} else if (hw1 & 0x80) { /* 12-bit immediate */
		s->off_known = s->pre = s->up = 1;
		s->off = hw2 & 0xfff;
	} else if (hw2 & 0x800) { /* 8-bit immediate: P U W */
		unsigned p = (hw2 >> 10) & 1, u = (hw2 >> 9) & 1, w = (hw2 >> 8) & 1;
		if ((p && u && !w) || (!p && !w)) /* unprivileged (LDRT...), undefined */
			return 0;
		if (w && rn == rt)
			return 0;
		s->off_known = 1;
		s->pre = (uint8_t)p;
		s->up = (uint8_t)u;
		s->wback = (uint8_t)w; /* post-indexed forms have W = 1 */
		s->off = hw2 & 0xff;
	} else if (!(hw2 & 0xfc0)) { /* register, LSL #0..3 */
		s->rm = hw2 & 15;
		if (s->rm == 13 || s->rm == 15)
			return 0;
		s->pre = s->up = 1;
		s->rn = (uint8_t)rn;
		reg_offset(r, s, 0, (hw2 >> 4) & 3);
	} else {
		return 0;
	}
	t32_single(r, s, rn, rt, 1u << szc, (int)load);
	return 1;
}

static void t32_begin(struct daf_rvu *r, uint32_t pc, uint32_t w, unsigned size, struct daf_step *s)
{
	uint8_t it = r->it;
	int al = it == 0 || (it >> 4) == 0xE;
	uint32_t hw1 = w & 0xffff, hw2 = w >> 16;
	/* the next instruction's ITSTATE (ARMv7-A ARM, A2.5.2) */
	if (size == 2 && (hw1 & 0xff00) == 0xbf00 && (hw1 & 15))
		r->it = (uint8_t)hw1;
	else
		r->it = (it & 7) == 0 ? 0 : (uint8_t)((it & 0xe0) | ((it << 1) & 0x1f));
	if (size == 2) {
		if (t16(r, pc, hw1, s, al))
			return;
		goto memory;
	}
	unsigned rn = hw1 & 15, rd = (hw2 >> 8) & 15;
	if ((hw1 & 0xfe00) == 0xf800) { /* loads and stores of one item */
		if (!t32_ls_single(r, hw1, hw2, s)) {
			escape(s);
			return;
		}
		goto memory;
	}
	if ((hw1 & 0xfe40) == 0xe840 && (hw1 & 0x120)) { /* LDRD, STRD (immediate) */
		unsigned rt = hw2 >> 12, rt2 = (hw2 >> 8) & 15, p = (hw1 >> 8) & 1, wb = (hw1 >> 5) & 1,
			 load = (hw1 >> 4) & 1;
		if (rt == 13 || rt == 15 || rt2 == 13 || rt2 == 15 || (load && rt == rt2) || (wb && (rn == rt || rn == rt2)) ||
		    (rn == 15 && (!p || wb || !load))) {
			escape(s);
			return;
		}
		s->off_known = 1;
		s->pre = (uint8_t)p;
		s->up = (hw1 >> 7) & 1;
		s->wback = (uint8_t)wb;
		s->off = (hw2 & 0xff) * 4;
		t32_single(r, s, rn, rt, 4, (int)load);
		s->count = 2;
		if (load)
			s->list = (uint16_t)(1u << rt | 1u << rt2);
		single_addr(r, s);
		goto memory;
	}
	if ((hw1 & 0xfff0) == 0xe8d0 && (hw2 & 0xffe0) == 0xf000) { /* TBB, TBH: a load at Rn + (Rm << H), to the PC */
		unsigned h = (hw2 >> 4) & 1;
		s->rm = hw2 & 15;
		if (s->rm == 13 || s->rm == 15 || rn == 13) {
			escape(s);
			return;
		}
		s->pre = s->up = 1;
		s->rn = (uint8_t)rn;
		s->pc_raw = 1; /* the table base PC reads pc + 4, not aligned */
		reg_offset(r, s, 0, h);
		t32_single(r, s, rn, 15, 1u << h, 1);
		s->list = 0;
		goto memory;
	}
	if ((hw1 & 0xfe40) == 0xe800) { /* LDM, STM (A6.3.5) */
		unsigned op = (hw1 >> 7) & 3, wb = (hw1 >> 5) & 1, load = (hw1 >> 4) & 1, list = hw2;
		if ((op != 1 && op != 2) || rn == 15 || (list & 0x2000) || __builtin_popcount(list) < 2 ||
		    (!load && (list & 0x8000)) || (load && (list & 0xc000) == 0xc000) || (wb && ((list >> rn) & 1))) {
			escape(s);
			return;
		}
		t32_multi(r, s, rn, list, (int)load, op == 1, (int)wb);
		goto memory;
	}
	if ((hw1 & 0xf800) == 0xf000 && (hw2 & 0x8000)) { /* branches and miscellaneous control (A6.3.4) */
		if (hw2 & 0x4000) { /* BL, BLX (immediate) */
			wr(r, 14, (pc + 4) | 1, al);
			return;
		}
		if ((hw2 & 0x1000) || (hw1 & 0x380) != 0x380)
			return; /* B, B<c> */
		if ((hw1 & 0x7e0) == 0x380) { /* MSR: may change mode (on the M7: MSP, PSP or CONTROL.SPSEL) */
			if (r->m7)
				inval(r, 13);
			else
				r->valid = 0;
			return;
		}
		if (hw1 == 0xf3af) { /* hints; CPS may change mode */
			if (hw2 & 0x700)
				r->valid = 0;
			return;
		}
		if (hw1 == 0xf3bf && ((hw2 >> 4) & 15) >= 2 && ((hw2 >> 4) & 15) <= 6 && ((hw2 >> 4) & 15) != 3)
			return; /* CLREX, DSB, DMB, ISB */
		if ((hw1 & 0xffe0) == 0xf3e0) { /* MRS */
			inval(r, rd);
			return;
		}
		escape(s); /* BXJ, SUBS PC, LR (exception return), SMC, UDF... */
		return;
	}
	if ((hw1 & 0xfa00) == 0xf000 && !(hw2 & 0x8000)) { /* data processing (modified immediate) */
		uint32_t imm12 = ((hw1 >> 10) & 1) << 11 | ((hw2 >> 12) & 7) << 8 | (hw2 & 0xff);
		t32_dp(r, (hw1 >> 5) & 15, rn, rd, thumb_expand_imm(imm12), al);
		return;
	}
	if ((hw1 & 0xfa00) == 0xf200 && !(hw2 & 0x8000)) { /* data processing (plain binary immediate) */
		unsigned op = (hw1 >> 4) & 31, lsb = ((hw2 >> 12) & 7) << 2 | ((hw2 >> 6) & 3), hi = hw2 & 31;
		uint32_t imm12 = ((hw1 >> 10) & 1) << 11 | ((hw2 >> 12) & 7) << 8 | (hw2 & 0xff);
		uint32_t x = r->r[rn];
		int okn = al && tvld(r, rn);
		switch (op) {
		case 0: /* ADDW; ADR (Rn = PC) */
		case 10: /* SUBW; ADR */
			if (rn == 15)
				x = (pc + 4) & ~3u, okn = al;
			wr(r, rd, op ? x - imm12 : x + imm12, okn);
			return;
		case 4: /* MOVW */
			wr(r, rd, (hw1 & 15) << 12 | imm12, al);
			return;
		case 12: /* MOVT */
			wr(r, rd, (r->r[rd] & 0xffff) | ((hw1 & 15) << 12 | imm12) << 16, al && tvld(r, rd));
			return;
		case 20: /* SBFX */
		case 28: /* UBFX */
			if (lsb + hi > 31) {
				inval(r, rd);
				return;
			}
			x = (x >> lsb) & (hi == 31 ? 0xffffffffu : ((1u << (hi + 1)) - 1));
			if (op == 20 && hi < 31 && ((x >> hi) & 1))
				x |= ~((1u << (hi + 1)) - 1);
			wr(r, rd, x, okn);
			return;
		case 22: { /* BFI; BFC (Rn = PC) */
			if (hi < lsb) {
				inval(r, rd);
				return;
			}
			uint32_t mask = (hi - lsb == 31 ? 0xffffffffu : ((1u << (hi - lsb + 1)) - 1)) << lsb;
			uint32_t ins = rn == 15 ? 0 : x << lsb;
			wr(r, rd, (r->r[rd] & ~mask) | (ins & mask), al && tvld(r, rd) && (rn == 15 || okn));
			return;
		}
		default: /* SSAT, USAT */
			inval(r, rd);
			return;
		}
	}
	if ((hw1 & 0xfe00) == 0xea00) { /* data processing (shifted register) */
		unsigned rm = hw2 & 15, type = (hw2 >> 4) & 3, amt = ((hw2 >> 12) & 7) << 2 | ((hw2 >> 6) & 3);
		uint32_t op2 = 0;
		int ok = al && tvld(r, rm) && shift_imm(r->r[rm], type, amt, &op2);
		t32_dp(r, (hw1 >> 5) & 15, rn, rd, op2, ok);
		return;
	}
	if ((hw1 & 0xff00) == 0xfa00) { /* data processing (register): writes Rd only (A6.3.12) */
		uint32_t m = r->r[hw2 & 15], v;
		int okm = al && tvld(r, hw2 & 15);
		if (!(hw1 & 0x80) && (hw2 & 0xf0f0) == 0xf000) { /* LSL LSR ASR ROR (register) */
			wr(r, rd, shift_reg(r->r[rn], (hw1 >> 5) & 3, m), okm && tvld(r, rn));
			return;
		}
		if (!(hw1 & 0x80) && (hw2 & 0xf080) == 0xf080 && ((hw1 >> 4) & 7) != 2 && ((hw1 >> 4) & 7) != 3 &&
		    ((hw1 >> 4) & 7) <= 5) { /* SXT(A)H UXT(A)H SXT(A)B UXT(A)B */
			unsigned op = (hw1 >> 4) & 7;
			v = ror32(m, ((hw2 >> 4) & 3) * 8);
			switch (op) {
			case 0: v = (uint32_t)(int32_t)(int16_t)v; break;
			case 1: v &= 0xffff; break;
			case 4: v = (uint32_t)(int32_t)(int8_t)v; break;
			default: v &= 0xff; break;
			}
			if (rn != 15) {
				okm = okm && tvld(r, rn);
				v += r->r[rn];
			}
			wr(r, rd, v, okm);
			return;
		}
		if ((hw1 & 0xfff0) == 0xfa90 && (hw2 & 0xf0f0) == 0xf080) { /* REV */
			wr(r, rd, (m >> 24) | ((m >> 8) & 0xff00) | ((m << 8) & 0xff0000) | (m << 24), okm);
			return;
		}
		if ((hw1 & 0xfff0) == 0xfa90 && (hw2 & 0xf0f0) == 0xf090) { /* REV16 */
			wr(r, rd, ((m >> 8) & 0x00ff00ffu) | ((m << 8) & 0xff00ff00u), okm);
			return;
		}
		if ((hw1 & 0xfff0) == 0xfab0 && (hw2 & 0xf0f0) == 0xf080) { /* CLZ */
			wr(r, rd, m ? (uint32_t)__builtin_clz(m) : 32, okm);
			return;
		}
		inval(r, rd); /* parallel and saturating arithmetic, RBIT, REVSH, SEL, UXTB16... */
		return;
	}
	if ((hw1 & 0xff80) == 0xfb00) { /* multiply, multiply accumulate (A6.3.16): writes Rd only */
		unsigned ra = hw2 >> 12, rm = hw2 & 15, op2 = (hw2 >> 4) & 3;
		int ok = al && tvld(r, rn) && tvld(r, rm);
		uint32_t p = r->r[rn] * r->r[rm];
		if ((hw1 & 0x70) == 0 && op2 == 0 && ra == 15)
			wr(r, rd, p, ok); /* MUL */
		else if ((hw1 & 0x70) == 0 && op2 == 0)
			wr(r, rd, p + r->r[ra], ok && tvld(r, ra)); /* MLA */
		else if ((hw1 & 0x70) == 0 && op2 == 1)
			wr(r, rd, r->r[ra] - p, ok && tvld(r, ra)); /* MLS */
		else
			inval(r, rd);
		return;
	}
	if ((hw1 & 0xff80) == 0xfb80) { /* long multiply, divide (A6.3.17): writes RdLo (hw2 bits 15..12) and RdHi */
		unsigned op1 = (hw1 >> 4) & 7, op2 = (hw2 >> 4) & 15, lo = hw2 >> 12, hi = rd, rm = hw2 & 15;
		int ok = al && tvld(r, rn) && tvld(r, rm);
		uint32_t a = r->r[rn], b = r->r[rm];
		uint64_t prod = op1 == 0 || op1 == 4 ? (uint64_t)((int64_t)(int32_t)a * (int64_t)(int32_t)b) : (uint64_t)a * b;
		if (op2 == 0 && (op1 == 4 || op1 == 6)) { /* SMLAL, UMLAL */
			ok = ok && tvld(r, lo) && tvld(r, hi);
			prod += (uint64_t)r->r[hi] << 32 | r->r[lo];
		} else if (op1 == 6 && op2 == 6) { /* UMAAL */
			ok = ok && tvld(r, lo) && tvld(r, hi);
			prod += (uint64_t)r->r[lo] + r->r[hi];
		} else if (!(op2 == 0 && (op1 == 0 || op1 == 2))) { /* not SMULL, UMULL */
			inval(r, lo);
			inval(r, hi);
			return;
		}
		if (lo == hi) {
			inval(r, lo);
			return;
		}
		wr(r, lo, (uint32_t)prod, ok);
		wr(r, hi, (uint32_t)(prod >> 32), ok);
		return;
	}
	escape(s); /* exclusives, table branches, coprocessor, RFE/SRS, everything else */
	return;
memory:
	s->need = !al ? DAF_NEED_COND : s->addr_known ? DAF_NEED_NONE : DAF_NEED_ADDR;
}

void daf_rvu_end(struct daf_rvu *r, const struct daf_step *s, int executed, uint32_t da)
{
	if (s->memop == DAF_MEM_ESCAPE) {
		r->valid = 0;
		return;
	}
	if (s->memop == DAF_MEM_NONE || !executed)
		return;
	unsigned rn = s->rn;
	uint32_t base;
	if (s->memop == DAF_MEM_MULTI) {
		base = da - s->start_adj; /* recovers Rn when it was invalid (no-op otherwise) */
		wr(r, rn, base, 1);
		if (s->wback)
			wr(r, rn, s->up ? base + s->off : base - s->off, 1);
		if (s->load)
			for (unsigned i = 0; i < 15; i++)
				if ((s->list >> i) & 1)
					inval(r, i);
		return;
	}
	if (s->pre) {
		if (s->off_known) {
			base = s->up ? da - s->off : da + s->off;
			wr(r, rn, base, 1); /* Rn = DA -/+ offset */
		} else if (vld(r, rn) && s->off_inv) {
			uint32_t b = val(r, rn, s->pc), off = s->up ? da - b : b - da;
			wr(r, s->rm, ror32(off, 32 - s->rot), 1); /* Rm = f^-1(+-(DA - Rn)) */
		}
		if (s->wback)
			wr(r, rn, da, 1);
	} else {
		wr(r, rn, da, 1); /* post-indexed: DA is Rn */
		wr(r, rn, s->up ? da + s->off : da - s->off, s->off_known);
	}
	for (unsigned i = 0; i < 15; i++)
		if ((s->list >> i) & 1)
			inval(r, i);
}

unsigned daf_rvu_accesses(const struct daf_step *s, uint32_t da, struct citcat_access *acc)
{
	unsigned n = s->count;
	for (unsigned i = 0; i < n; i++) {
		acc[i].addr = (uint32_t)(da + 4 * i);
		acc[i].size = s->size;
		acc[i].write = !s->load;
		acc[i].value = 0;
	}
	return n;
}

/* ---- the Cortex-M7 ---- */

int daf_m7_ret_candidate(uint32_t w, unsigned size)
{
	if (size == 2)
		return (w & 0xff87) == 0x4700 /* BX Rm */ || (w & 0xff00) == 0xbd00 /* POP {..., pc} */;
	uint32_t hw1 = w & 0xffff, hw2 = w >> 16;
	if (((hw1 & 0xffd0) == 0xe890 || (hw1 & 0xffd0) == 0xe910) && (hw2 & 0x8000))
		return 1; /* LDM (IA), LDMDB, POP.W with the PC */
	return (hw1 & 0xff70) == 0xf850 && (hw2 >> 12) == 15; /* LDR (immediate, register, literal) to the PC */
}

void daf_rvu_m7_entry(struct daf_rvu *r, uint32_t frame, int frame_ok)
{
	if (r->depth && frame_ok) { /* handler mode: the frame is on MSP, which stays the SP */
		wr(r, 13, frame, 1);
		wr(r, 14, 0xFFFFFFF1u, 1);
	} else {
		inval(r, 13);
		inval(r, 14);
	}
	r->it = 0;
	r->depth++;
}

void daf_rvu_m7_return(struct daf_rvu *r)
{
	r->valid &= ~(0xfu | 1u << 12 | 1u << 13 | 1u << 14);
	r->it = 0;
	if (r->depth)
		r->depth--;
}

void daf_rvu_m7_scan(struct daf_rvu *r, const struct citcat_access *acc, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		if (acc[i].write && acc[i].addr < DAF_M7_VTOR + 4 && acc[i].addr + acc[i].size > DAF_M7_VTOR)
			r->vtor_ok = 0;
}
