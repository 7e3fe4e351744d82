/* The block engine's A32 decoder and block cache (replay_block.h). */
#include "replay_block.h"
#include "core.h"

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

int rblk_cache_init(struct rblk_cache *c, unsigned slots_log2)
{
	memset(c, 0, sizeof *c);
	c->slot = calloc((size_t)1 << slots_log2, sizeof *c->slot);
	if (!c->slot)
		return -1;
	c->mask = (1u << slots_log2) - 1;
	return 0;
}

void rblk_cache_fini(struct rblk_cache *c)
{
	if (c->slot)
		for (uint32_t i = 0; i <= c->mask; i++) {
			free(c->slot[i].word);
			free(c->slot[i].nacc);
			free(c->slot[i].cond);
		}
	free(c->slot);
	c->slot = NULL;
}

/* Decodes the block into B (its arrays large enough). */
static void decode(struct rblk *b, uint32_t addr, uint32_t n, const uint8_t *code)
{
	b->addr = addr;
	b->n = n;
	b->precise = NULL;
	memcpy(b->word, code, (size_t)n * 4);
	/* A conditional memory instruction is decided at the access by the
	 * flags then current, which are the ones it saw only when nothing in
	 * between wrote them (REPLAY.md "Attribution"). */
	int cond_mem_seen = 0;
	uint32_t last_mem = 0, flag_after_cond = UINT32_MAX;
	for (uint32_t i = 0; i < n; i++) {
		unsigned nacc;
		const char *why;
		int f = rblk_decode_a32(b->word[i], &nacc, &why);
		b->nacc[i] = (uint8_t)nacc;
		b->cond[i] = (uint8_t)(b->word[i] >> 28);
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
	if (flag_after_cond < last_mem)
		b->precise = "an instruction that may set the flags between a conditional memory instruction and a later access";
}

const struct rblk *rblk_get(struct rblk_cache *c, uint32_t addr, uint32_t n, const uint8_t *code)
{
	struct rblk *b = &c->slot[(addr >> 2) & c->mask];
	if (b->word && b->addr == addr && b->n == n && memcmp(b->word, code, (size_t)n * 4) == 0) {
		c->hits++;
		return b;
	}
	if (n > b->cap) {
		uint32_t cap = n < 16 ? 16 : n;
		uint32_t *w = realloc(b->word, (size_t)cap * sizeof *w);
		if (w)
			b->word = w;
		uint8_t *na = realloc(b->nacc, cap), *co = w && na ? realloc(b->cond, cap) : NULL;
		if (na)
			b->nacc = na;
		if (co)
			b->cond = co;
		if (!w || !na || !co) {
			b->n = 0; /* never matches */
			return NULL;
		}
		b->cap = cap;
	}
	decode(b, addr, n, code);
	c->decoded++;
	return b;
}
