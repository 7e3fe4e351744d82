/* The block engine's A32 decoder and block cache (replay_block.h). */
#include "replay_block.h"
#include "bytes.h"
#include "core.h"
#include "thumb.h"

#include <stdlib.h>
#include <string.h>

int rblk_decode_a32(uint32_t w, unsigned *nacc, const char **why)
{
	unsigned cond = w >> 28, op = (w >> 25) & 7;
	*nacc = 0;
	*why = NULL;
	if (cond == 0xF) {
		*why = "an unconditional-space instruction (PLD, SRS, RFE, BLX, NEON)";
		return RBLK_PRECISE;
	}
	switch (op) {
	case 0:
		if ((w & 0x90) == 0x90) {
			unsigned sh = (w >> 5) & 3;
			if (sh == 0) {
				if (((w >> 24) & 0xF) == 0) /* multiplies */
					return (w & (1u << 20)) ? RBLK_SETS_FLAGS : 0;
				*why = "a swap or exclusive access";
				return RBLK_PRECISE;
			}
			/* extra loads and stores: LDRD and STRD are two calls */
			*nacc = (sh >= 2 && !(w & (1u << 20))) ? 2 : 1;
			return 0;
		}
		if ((w & 0x01900000) == 0x01000000) { /* miscellaneous: MSR, MRS, BX, CLZ, BKPT, ... */
			if ((w & 0x0FF000F0) == 0x01200070) {
				*why = "a breakpoint";
				return RBLK_PRECISE;
			}
			/* exception-generating, like SVC: SMC reaches the interrupt
			 * hook with the PC already past it (tests/
			 * test_unicorn_block.c part 10), so without a code hook it
			 * could not be told from the next instruction; HVC (undefined
			 * on the Cortex-A9) likewise on a core that has it */
			if ((w & 0x0FF000F0) == 0x01600070 || (w & 0x0FF000F0) == 0x01400070) {
				*why = "an SMC or HVC";
				return RBLK_PRECISE;
			}
			return RBLK_SETS_FLAGS; /* MSR may write NZCV */
		}
		return (w & (1u << 20)) ? RBLK_SETS_FLAGS : 0;
	case 1:
		if ((w & 0x01900000) == 0x01000000) { /* MOVW, MOVT, MSR immediate, hints */
			if ((w & 0x0FFFFF00) == 0x0320F000 && (w & 0xFF) != 0) {
				*why = core_is_wfi(w) ? "a WFI" : "a hint other than NOP";
				return RBLK_PRECISE;
			}
			return RBLK_SETS_FLAGS;
		}
		return (w & (1u << 20)) ? RBLK_SETS_FLAGS : 0;
	case 2:
		*nacc = 1;
		return 0;
	case 3:
		if (!(w & 0x10)) {
			*nacc = 1;
			return 0;
		}
		if ((w & 0x0FF000F0) == 0x07F000F0) {
			*why = "an undefined instruction";
			return RBLK_PRECISE;
		}
		return 0; /* media instructions */
	case 4:
		if (w & (1u << 22)) {
			*why = "an LDM or STM of user registers or with exception return";
			return RBLK_PRECISE;
		}
		if (!(w & 0xFFFF)) {
			*why = "an LDM or STM with an empty register list";
			return RBLK_PRECISE;
		}
		*nacc = (unsigned)__builtin_popcount(w & 0xFFFF);
		return 0;
	case 5:
		return 0; /* B, BL */
	case 6:
		*why = "a coprocessor (VFP) load or store";
		return RBLK_PRECISE;
	default:
		if (w & (1u << 24)) {
			*why = "an SVC";
			return RBLK_PRECISE;
		}
		return RBLK_SETS_FLAGS; /* CDP, MCR, MRC (VMRS APSR_nzcv) */
	}
}

/* T16 (ARM ARM A6.2): the loads and stores make one call each, PUSH, POP,
 * LDM and STM one per register; T32 (A6.3): single loads and stores one,
 * LDRD/STRD two, LDM/STM one per register, TBB/TBH one (the table read).
 * An IT instruction makes none; decode() gives the instructions of its
 * block their condition.  What it cannot account for, or what changes the
 * state the block engine relies on, is PRECISE: hints other
 * than NOP (WFI among them), CPS, SETEND, BKPT, UDF, SVC, exclusives,
 * SRS/RFE, exception return, coprocessor, VFP and NEON instructions,
 * preloads, and unallocated space. */
int rblk_decode_t32(uint32_t w, unsigned size, unsigned *nacc, const char **why)
{
	*nacc = 0;
	*why = NULL;
	uint32_t hw = w & 0xFFFF;
	if (size == 2) {
		if ((hw & 0xF800) == 0x4800 || (hw & 0xF000) == 0x5000 || (hw & 0xE000) == 0x6000 ||
		    (hw & 0xF000) == 0x8000 || (hw & 0xF000) == 0x9000) {
			*nacc = 1; /* LDR literal, register, immediate, SP-relative */
			return 0;
		}
		if ((hw & 0xF000) == 0xB000) { /* miscellaneous 16-bit instructions */
			if ((hw & 0xF600) == 0xB400) { /* PUSH, POP */
				*nacc = (unsigned)__builtin_popcount(hw & 0x1FF);
				if (!*nacc) {
					*why = "a PUSH or POP with an empty register list";
					return RBLK_PRECISE;
				}
				return 0;
			}
			if ((hw & 0xFFE8) == 0xB660 || (hw & 0xFFF7) == 0xB650) {
				*why = "a CPS or SETEND";
				return RBLK_PRECISE;
			}
			if ((hw & 0xFF00) == 0xBE00) {
				*why = "a breakpoint";
				return RBLK_PRECISE;
			}
			if ((hw & 0xFF00) == 0xBF00 && (hw & 0xF))
				return 0; /* IT: decode() gives the instructions it covers their condition */
			if ((hw & 0xFF00) == 0xBF00 && hw != 0xBF00) {
				*why = hw == 0xBF30 ? "a WFI" : "a hint other than NOP";
				return RBLK_PRECISE;
			}
			return 0; /* ADD/SUB SP, CBZ/CBNZ, extends, REV, NOP */
		}
		if ((hw & 0xF000) == 0xC000) { /* LDM, STM */
			*nacc = (unsigned)__builtin_popcount(hw & 0xFF);
			if (!*nacc) {
				*why = "an LDM or STM with an empty register list";
				return RBLK_PRECISE;
			}
			return 0;
		}
		if ((hw & 0xFE00) == 0xDE00) {
			*why = (hw & 0x100) ? "an SVC" : "an undefined instruction";
			return RBLK_PRECISE;
		}
		/* shifts, add, subtract, compare, move, data processing (they set
		 * the flags outside IT blocks; conservatively also inside), BX/BLX,
		 * B<c>, B */
		return hw < 0x4800 ? RBLK_SETS_FLAGS : 0;
	}
	uint32_t hw2 = w >> 16, op1 = (hw >> 11) & 3;
	if (op1 == 1) {
		if ((hw & 0xFE40) == 0xE800) { /* load/store multiple */
			unsigned op = (hw >> 7) & 3;
			if (op == 0 || op == 3) {
				*why = "an SRS or RFE";
				return RBLK_PRECISE;
			}
			*nacc = (unsigned)__builtin_popcount(hw2);
			if (!*nacc) {
				*why = "an LDM or STM with an empty register list";
				return RBLK_PRECISE;
			}
			return 0;
		}
		if ((hw & 0xFE40) == 0xE840) { /* dual, exclusive, table branch */
			unsigned o1 = (hw >> 7) & 3, o2 = (hw >> 4) & 3, o3 = (hw2 >> 4) & 0xF;
			if (o1 == 1 && o2 == 1 && (o3 == 0 || o3 == 1)) {
				*nacc = 1; /* TBB, TBH */
				return 0;
			}
			if ((o1 == 0 && o2 < 2) || (o1 == 1 && o2 < 2)) {
				*why = "an exclusive access";
				return RBLK_PRECISE;
			}
			*nacc = 2; /* LDRD, STRD */
			return 0;
		}
		if ((hw & 0xFE00) == 0xEA00) /* data processing (shifted register) */
			return (hw & 0x10) ? RBLK_SETS_FLAGS : 0;
		*why = "a coprocessor, VFP or NEON instruction";
		return RBLK_PRECISE;
	}
	if (op1 == 2) {
		if (!(hw2 & 0x8000)) /* data processing (modified immediate: S bit; plain binary immediate) */
			return !(hw & 0x0200) && (hw & 0x10) ? RBLK_SETS_FLAGS : 0;
		if (hw2 & 0x5000)
			return 0; /* B.W, BL, BLX (immediate) */
		unsigned op = (hw >> 4) & 0x7F;
		if ((op & 0x38) != 0x38)
			return 0; /* B<c>.W */
		if (op == 0x38 || op == 0x39)
			return RBLK_SETS_FLAGS; /* MSR */
		if (op == 0x3E || op == 0x3F)
			return 0; /* MRS */
		if (op == 0x3A && (hw2 & 0x7FF) == 0)
			return 0; /* NOP.W */
		if (op == 0x3B && ((hw2 >> 4) & 0xF) >= 2 && ((hw2 >> 4) & 0xF) <= 6 && ((hw2 >> 4) & 0xF) != 3)
			return 0; /* CLREX, DSB, DMB, ISB */
		*why = op == 0x3A ? (thumb_is_wfi(w, 4) ? "a WFI" : "a hint other than NOP")
				  : "a system instruction (CPS, BXJ, exception return, SMC, UDF)";
		return RBLK_PRECISE;
	}
	/* op1 == 3 */
	if ((hw & 0xFE00) == 0xF800) { /* load and store single */
		unsigned load = (hw >> 4) & 1, sz = (hw >> 5) & 3, sgn = (hw >> 8) & 1, rt = hw2 >> 12;
		if (!load && sgn) {
			*why = "a NEON element load or store";
			return RBLK_PRECISE;
		}
		if (sz == 3 || (sgn && sz == 2)) {
			*why = "an undefined load or store";
			return RBLK_PRECISE;
		}
		if (load && rt == 15 && sz < 2) {
			*why = "a preload (PLD, PLI)";
			return RBLK_PRECISE;
		}
		*nacc = 1;
		return 0;
	}
	if ((hw & 0xFF00) == 0xFA00) /* data processing (register): the shifts have an S bit */
		return (hw & 0x10) ? RBLK_SETS_FLAGS : 0;
	if ((hw & 0xFF00) == 0xFB00)
		return 0; /* multiplies, divides */
	*why = "a coprocessor, VFP or NEON instruction";
	return RBLK_PRECISE;
}

/* Bytes a slot's arrays take per entry of CAP: WORD 4, OFF and FSRC 2,
 * RAW 2 (a Thumb block's CAP halfwords), NACC, COND and ISZ 1. */
#define RBLK_SLOT_BYTES 13

int rblk_cache_init(struct rblk_cache *c, unsigned slots_log2)
{
	memset(c, 0, sizeof *c);
	c->slot = calloc((size_t)1 << slots_log2, sizeof *c->slot);
	c->used = calloc(((size_t)1 << slots_log2) / 64 + 1, sizeof *c->used);
	if (!c->slot || !c->used) {
		free(c->slot);
		free(c->used);
		c->slot = NULL;
		c->used = NULL;
		return -1;
	}
	c->mask = (1u << slots_log2) - 1;
	return 0;
}

void rblk_cache_fini(struct rblk_cache *c)
{
	/* only the slots that hold arrays: reading every slot to find them
	 * faulted in all of the table's pages at the end of a short run */
	if (c->slot && c->used)
		for (uint32_t k = 0; k <= c->mask / 64; k++)
			for (uint64_t m = c->used[k]; m; m &= m - 1) {
				struct rblk *b = &c->slot[64 * k + (uint32_t)__builtin_ctzll(m)];
				free(b->word);
				free(b->sched);
			}
	free(c->slot);
	free(c->used);
	c->slot = NULL;
	c->used = NULL;
}

/* Whether the T16 instruction HW, which rblk_decode_t32 counts as one
 * that may write the flags, does, IN_IT inside an IT block (ARM ARM
 * A6.2: the 16-bit data-processing instructions that write the flags
 * outside an IT block do not inside one, except CMP, CMN and TST; ADD and
 * MOV of high registers never do, CMP of high registers always does). */
static int t16_sets_flags(uint16_t hw, int in_it)
{
	if ((hw & 0xfc00) == 0x4400) /* special data processing */
		return (hw & 0xff00) == 0x4500;
	if (!in_it || hw >= 0x4400)
		return 1;
	return (hw & 0xf800) == 0x2800 /* CMP imm8 */ || (hw & 0xffc0) == 0x4200 /* TST */ ||
	       (hw & 0xffc0) == 0x4280 /* CMP */ || (hw & 0xffc0) == 0x42c0 /* CMN */;
}

/* Where each conditional memory instruction k of the decoded block B gets
 * the flags that decide it, when a flag write follows one (decode):
 * the scan of rblk_next_accessor runs at the first access made at or
 * after k, by instruction m, and reads the flags there; they are k's when
 * no flag write lies between k and m.  m comes no later than the first
 * unconditional memory instruction after k, which always accesses.  So:
 * - RBLK_FS_NOW when the first flag write after k comes after that
 *   unconditional one, or after the block's last memory instruction;
 * - else RBLK_FS_ENTRY when no flag write comes before k (the flags at
 *   the block's start are k's);
 * - else RBLK_FS_AT + u, u the last unconditional memory instruction
 *   between the last flag write before k and k: the flags when u's first
 *   access is attributed are k's (nothing writes them in between; u's own
 *   access comes before the instruction after it runs);
 * - else the block runs per instruction (returns 1).
 * An instruction that both accesses memory and may write the flags also
 * makes it run per instruction.  SETS: RBLK_SETS_FLAGS of each, made
 * exact here for the T16 instructions (t16_sets_flags). */
static int flag_sources(struct rblk *b, uint8_t *sets)
{
	uint32_t n = b->n, last_mem = 0;
	for (uint32_t i = 0; i < n; i++) {
		if (b->thumb && b->isz[i] == 2 && sets[i])
			sets[i] = (uint8_t)t16_sets_flags((uint16_t)b->word[i], b->cond[i] != 14);
		b->fsrc[i] = RBLK_FS_NOW;
		if (b->nacc[i]) {
			last_mem = i;
			if (sets[i])
				return 1;
		}
	}
	uint8_t need = 0;
	for (uint32_t k = 0; k < n; k++) {
		if (!b->nacc[k] || b->cond[k] == 14)
			continue;
		uint32_t j1 = k + 1, u1 = k + 1;
		while (j1 < n && !sets[j1])
			j1++;
		while (u1 < n && !(b->nacc[u1] && b->cond[u1] == 14))
			u1++;
		if (j1 >= n || j1 > last_mem || u1 < j1)
			continue; /* RBLK_FS_NOW */
		uint32_t j0 = k; /* the last flag write before k, or k: none */
		while (j0 > 0 && !sets[j0 - 1])
			j0--;
		if (j0 == 0) {
			b->fsrc[k] = RBLK_FS_ENTRY;
			need |= RBLK_FS_ENTRY;
			continue;
		}
		/* the write is j0 - 1; an unconditional access in (j0 - 1, k) */
		uint32_t u0 = k;
		while (u0 > j0 && !(b->nacc[u0 - 1] && b->cond[u0 - 1] == 14))
			u0--;
		if (u0 == j0)
			return 1;
		b->fsrc[k] = (uint16_t)(RBLK_FS_AT + (u0 - 1));
		b->fsrc[u0 - 1] |= RBLK_FS_TAKE;
		need |= RBLK_FS_SNAP;
	}
	b->fsnap = need | RBLK_FS_RELAXED;
	return 0;
}

int rblk_t32_may_write(uint32_t w, unsigned size)
{
	uint32_t hw = w & 0xFFFF;
	if (size == 2) {
		if ((hw & 0xF800) == 0x4800)
			return 0; /* LDR literal */
		if ((hw & 0xF000) == 0x5000)
			return ((hw >> 9) & 7) < 3; /* register offset: STR, STRH, STRB; then the loads */
		if ((hw & 0xE000) == 0x6000 || (hw & 0xF000) == 0x8000 || (hw & 0xF000) == 0x9000 ||
		    (hw & 0xF000) == 0xC000 || (hw & 0xF600) == 0xB400)
			return !(hw & 0x0800); /* immediate, halfword, SP-relative, LDM/STM, PUSH/POP: L = bit 11 */
		return 1;
	}
	if ((hw & 0xFE40) == 0xE800 || (hw & 0xFE40) == 0xE840 || (hw & 0xFE00) == 0xF800)
		return !(hw & 0x0010); /* multiple; dual and TBB/TBH; single: L = bit 4 */
	return 1;
}

/* Decodes the block into B (its arrays large enough: SIZE / 2 entries). */
static void decode(struct rblk *b, uint32_t addr, uint32_t size, int thumb, const uint8_t *code)
{
	b->addr = addr;
	b->size = size;
	b->thumb = (uint32_t)thumb;
	b->n = 0;
	b->precise = NULL;
	b->wt_memo = 0;
	b->it_memo = 0;
	b->it_store = 0;
	b->it_load = 0;
	b->it_first = UINT16_MAX;
	b->it_tail_insns = b->it_tail_acc = 0;
	uint32_t tail_acc = 0;
	b->fsnap = 0;
	memcpy(b->raw, code, size);
	/* A conditional memory instruction is decided at the access by the
	 * flags then current, which are the ones it saw only when nothing in
	 * between wrote them (REPLAY.md "Attribution"); in Thumb blocks the
	 * conditional ones are those of IT blocks. */
	int cond_mem_seen = 0;
	uint32_t last_mem = 0, flag_after_cond = UINT32_MAX, i = 0;
	uint8_t it = 0; /* ITSTATE in front of the instruction (Thumb) */
	uint8_t sets[RBLK_MAX_INSNS]; /* RBLK_SETS_FLAGS of each */
	for (uint32_t off = 0; off < size; i++) {
		unsigned nacc, isz = 4;
		const char *why;
		int f;
		if (thumb) {
			uint16_t hw;
			memcpy(&hw, code + off, 2);
			isz = thumb_size(hw);
			if (off + isz > size) {
				b->precise = "an instruction beyond the block's end";
				return;
			}
		}
		if (i >= RBLK_MAX_INSNS) {
			b->precise = "more instructions than a translation block holds";
			return;
		}
		uint32_t w = thumb_word_at(code + off, isz);
		f = thumb ? rblk_decode_t32(w, isz, &nacc, &why) : rblk_decode_a32(w, &nacc, &why);
		b->word[i] = w;
		b->isz[i] = (uint8_t)isz;
		b->off[i] = (uint16_t)off;
		b->nacc[i] = (uint8_t)nacc;
		sets[i] = (f & RBLK_SETS_FLAGS) != 0;
		b->cond[i] = thumb ? (it ? (uint8_t)(it >> 4) : 14) : (uint8_t)(w >> 28);
		if (it && nacc) {
			if (rblk_t32_may_write(w, isz))
				b->it_store = 1;
			else
				b->it_load = 1;
			if (b->it_first == UINT16_MAX) {
				b->it_first = (uint16_t)i;
				tail_acc = nacc - 1; /* its accesses after its first */
			}
		}
		if (b->it_first != UINT16_MAX && b->it_first < i) {
			b->it_tail_insns++;
			tail_acc += nacc;
		}
		b->it_tail_acc = (uint16_t)(tail_acc < RBLK_TAIL_MANY ? tail_acc : RBLK_TAIL_MANY);
		if (thumb)
			it = thumb_is_it(w, isz) ? (uint8_t)(w & 0xff) : thumb_it_advance(it);
		b->n = i + 1;
		off += isz;
		if (f & RBLK_PRECISE) {
			b->precise = why;
			return;
		}
		if (nacc) {
			last_mem = i;
			if (b->cond[i] != 14)
				cond_mem_seen = 1;
		}
		if ((f & RBLK_SETS_FLAGS) && cond_mem_seen && flag_after_cond == UINT32_MAX)
			flag_after_cond = i;
	}
	if (flag_after_cond < last_mem && flag_sources(b, sets))
		b->precise = "an instruction that may set the flags between a conditional memory instruction and a later access";
	/* the next block would start inside the IT block, whose state Unicorn
	 * keeps in translated code only: a mode change there would lose it */
	if (it)
		b->precise = "an IT block that goes on past the block's end";
}

const struct rblk *rblk_get(struct rblk_cache *c, uint32_t addr, uint32_t size, int thumb, const uint8_t *code)
{
	struct rblk *b = &c->slot[(addr >> 1) & c->mask];
	if (b->raw && b->addr == addr && b->size == size && b->thumb == (uint32_t)thumb &&
	    cc_same_bytes(b->raw, code, size)) {
		c->hits++;
		return b;
	}
	uint32_t need = (size + 1) / 2;
	if (need > b->cap) {
		/* the arrays of up to CAP instructions in one allocation: the
		 * 4-byte, then the 2-byte, then the 1-byte ones */
		uint32_t cap = need < 16 ? 16 : need;
		uint8_t *m = realloc(b->word, (size_t)cap * RBLK_SLOT_BYTES);
		if (!m) {
			b->size = 0; /* never matches */
			return NULL;
		}
		uint32_t si = (uint32_t)(b - c->slot);
		c->used[si / 64] |= 1ull << (si % 64);
		b->word = (uint32_t *)m;
		b->off = (uint16_t *)(m + (size_t)cap * 4);
		b->fsrc = b->off + cap;
		b->raw = (uint8_t *)(b->fsrc + cap);
		b->nacc = b->raw + (size_t)cap * 2;
		b->cond = b->nacc + cap;
		b->isz = b->cond + cap;
		b->cap = cap;
	}
	decode(b, addr, size, thumb, code);
	/* the block engines' per-block data, once instead of at every run */
	uint32_t tot = 0;
	int al = 1; /* every memory instruction unconditional */
	for (uint32_t i = 0; i < b->n; i++) {
		tot += b->nacc[i];
		if (b->nacc[i] && b->cond[i] != 14)
			al = 0;
	}
	b->nacc_total = tot;
	b->keeps = (uint8_t)rblk_keeps_state(b);
	b->gate = (uint8_t)((b->precise ? RBLK_GATE_PRECISE : 0) | (b->it_store ? RBLK_GATE_IT_STORE : 0) |
			    (b->it_load ? RBLK_GATE_IT_LOAD : 0));
	b->sched_ok = 0;
	if (al && !b->precise) {
		if (tot > b->sched_cap) {
			uint16_t *s = realloc(b->sched, (size_t)tot * sizeof *s);
			if (!s) {
				b->size = 0; /* never matches */
				return NULL;
			}
			b->sched = s;
			b->sched_cap = tot;
		}
		for (uint32_t i = 0, k = 0; i < b->n; i++)
			for (unsigned j = 0; j < b->nacc[i]; j++)
				b->sched[k++] = (uint16_t)i;
		b->sched_ok = 1;
	}
	c->decoded++;
	return b;
}

/* rblk_next_accessor, and with FS rblk_next_accessor_fs: the flags of a
 * conditional memory instruction from FSRC (ENTRY, SNAP) or UC's now. */
static inline int next_accessor(const struct rblk *b, uint32_t from, uc_engine *uc, int fs, uint32_t entry,
				const uint32_t *snap)
{
	uint32_t cpsr = 0;
	int have_cpsr = 0;
	for (uint32_t i = from; i < b->n; i++) {
		if (!b->nacc[i])
			continue;
		if (b->cond[i] != 14) {
			unsigned src = fs ? b->fsrc[i] & RBLK_FS_SRC : RBLK_FS_NOW;
			uint32_t fl;
			if (src == RBLK_FS_NOW) {
				if (!have_cpsr) {
					uc_reg_read(uc, UC_ARM_REG_CPSR, &cpsr);
					have_cpsr = 1;
				}
				fl = cpsr;
			} else {
				fl = src == RBLK_FS_ENTRY ? entry : snap[src - RBLK_FS_AT];
			}
			if (!thumb_cond_passed(b->cond[i], fl))
				continue;
		}
		return (int)i;
	}
	return -1;
}

int rblk_next_accessor_fs(const struct rblk *b, uint32_t from, uc_engine *uc, uint32_t entry, const uint32_t *snap)
{
	return next_accessor(b, from, uc, 1, entry, snap);
}

int rblk_next_accessor(const struct rblk *b, uint32_t from, uc_engine *uc)
{
	return next_accessor(b, from, uc, 0, 0, NULL);
}
