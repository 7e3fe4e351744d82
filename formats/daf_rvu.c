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

static void single_addr(const struct daf_rvu *r, struct daf_step *s)
{
	s->memop = DAF_MEM_SINGLE;
	uint32_t b = val(r, s->rn, s->pc);
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

void daf_rvu_begin(struct daf_rvu *r, uint32_t pc, uint32_t w, struct daf_step *s)
{
	memset(s, 0, sizeof *s);
	s->pc = pc;
	s->word = w;
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
