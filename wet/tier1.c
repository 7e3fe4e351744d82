/* Value groups of a node for tier-1 compression (tier1.h, WET.md). */
#include "tier1.h"

#include <stdlib.h>
#include <string.h>

int wet_is_load(uint32_t word)
{
	unsigned l = (word >> 20) & 1;
	if (word >> 28 == 15)
		return 0; /* the unconditional space (PLD, RFE, ...): no register result from memory */
	switch ((word >> 25) & 7) {
	case 2: return (int)l;                     /* LDR/LDRB immediate offset */
	case 3: return word & 0x10 ? 0 : (int)l;   /* register offset; bit 4 set: media instructions */
	case 4: return (int)l;                     /* LDM */
	case 6: return (int)l;                     /* LDC, VLDR, VLDM */
	case 0:
		if ((word & 0x90) != 0x90)
			return 0;
		if (word & 0x60) /* extra loads/stores: LDRH, LDRSB, LDRSH; LDRD has L = 0, op 2 */
			return l || (word & 0x60) == 0x40;
		return (word >> 24) & 1 ? (word >> 23 & 1 ? (int)l : 1) : 0; /* LDREX*, SWP; multiplies */
	default: return 0;
	}
}

static int t32_is_load(uint32_t hw1, uint32_t hw2)
{
	if (!(hw1 & 0x0010))
		return 0; /* L (bit 20) clear: a store, or no memory access */
	if ((hw1 & 0xFE00) == 0xE800)
		return 1; /* LDM, POP.W, LDRD, LDREX*, TBB/TBH, RFE */
	if ((hw1 & 0xFE00) == 0xF800) /* single loads; byte/halfword ones with Rt = PC are PLD/PLI hints */
		return (hw1 & 0x0060) == 0x0040 || (hw2 >> 12) != 15;
	if ((hw1 & 0xEE00) == 0xEC00)
		return (hw1 & 0xFFE0) != 0xEC40 && (hw1 & 0xFFE0) != 0xFC40; /* LDC, VLDR, VLDM; not MRRC */
	return 0;
}

int wet_is_load_isa(uint32_t word, unsigned size, int thumb)
{
	if (!thumb)
		return wet_is_load(word);
	if (size == 4)
		return t32_is_load(word & 0xffff, word >> 16);
	uint32_t hw = word & 0xffff;
	if ((hw & 0xF800) == 0x4800)
		return 1; /* LDR literal */
	if ((hw & 0xF000) == 0x5000)
		return ((hw >> 9) & 7) >= 3; /* register offset: LDRSB, LDR, LDRH, LDRB, LDRSH */
	if ((hw & 0xE000) == 0x6000 || (hw & 0xE000) == 0x8000 || (hw & 0xF000) == 0xC000)
		return (hw >> 11) & 1; /* LDR/LDRB/LDRH immediate, LDR SP-relative, LDM */
	return (hw & 0xFE00) == 0xBC00; /* POP */
}

/* Sets of node inputs: bit r (r < 17) the value of logical register r
 * entering the node, bit 17 + k the memory read by statement k. */
#define NLOG (WET_R_SPSR + 1)

static int subset(const uint64_t *a, const uint64_t *b, unsigned w)
{
	for (unsigned i = 0; i < w; i++)
		if (a[i] & ~b[i])
			return 0;
	return 1;
}

int wet_value_groups(const struct wet_du *const *du, const uint32_t *words, uint32_t n, uint16_t *group)
{
	return wet_value_groups_isa(du, words, NULL, n, group);
}

int wet_value_groups_isa(const struct wet_du *const *du, const uint32_t *words, const uint8_t *isa, uint32_t n,
			 uint16_t *group)
{
	unsigned w = (NLOG + n + 63) / 64;
	uint64_t *reg = calloc((size_t)NLOG * w, sizeof *reg), *set = calloc((size_t)n * w + 1, sizeof *set);
	uint32_t *cand = malloc((n + 1) * sizeof *cand) /* 1: maximal */, *cgroup = malloc((n + 1) * sizeof *cgroup);
	uint16_t *of = malloc((n + 1) * sizeof *of);
	int ng = -1;
	if (!reg || !set || !cand || !cgroup || !of)
		goto out;
	for (unsigned r = 0; r < NLOG; r++)
		reg[r * w + r / 64] |= 1ull << (r % 64);
	/* each statement's inputs: those of the registers it reads, plus its own
	 * memory read; a definition under a condition keeps the old inputs too */
	uint32_t nc = 0;
	for (uint32_t k = 0; k < n; k++) {
		uint64_t *s = set + (size_t)nc * w;
		memset(s, 0, w * sizeof *s);
		if (isa ? wet_is_load_isa(words[k], wet_isa_size(isa[k]), isa[k] != WET_ISA_A32) : wet_is_load(words[k]))
			s[(NLOG + k) / 64] |= 1ull << ((NLOG + k) % 64);
		for (unsigned i = 0; i < du[k]->nuse; i++)
			for (unsigned j = 0; j < w; j++)
				s[j] |= reg[du[k]->use[i] * w + j];
		int always = du[k]->cond >= 14;
		for (unsigned i = 0; i < du[k]->ndef; i++)
			for (unsigned j = 0; j < w; j++)
				reg[du[k]->def[i] * w + j] = always ? s[j] : reg[du[k]->def[i] * w + j] | s[j];
		group[k] = WET_GROUP_NONE;
		if (!du[k]->ndef)
			continue;
		/* candidates: the distinct input sets, in order of first statement */
		uint32_t c = 0;
		while (c < nc && memcmp(set + (size_t)c * w, s, w * sizeof *s))
			c++;
		if (c == nc)
			nc++;
		of[k] = (uint16_t)c;
	}
	/* a candidate whose set is a proper subset of another's is merged into
	 * the first maximal candidate holding it; the maximal ones are the
	 * groups, numbered in candidate order */
	ng = 0;
	for (uint32_t c = 0; c < nc; c++) {
		int maximal = 1;
		for (uint32_t d = 0; d < nc && maximal; d++)
			if (d != c && subset(set + (size_t)c * w, set + (size_t)d * w, w))
				maximal = 0; /* distinct sets: subset means proper subset */
		cand[c] = (uint32_t)maximal;
		cgroup[c] = maximal ? (uint32_t)ng++ : UINT32_MAX;
	}
	for (uint32_t c = 0; c < nc; c++)
		for (uint32_t d = 0; d < nc && cgroup[c] == UINT32_MAX; d++)
			if (cand[d] && subset(set + (size_t)c * w, set + (size_t)d * w, w))
				cgroup[c] = cgroup[d];
	for (uint32_t k = 0; k < n; k++)
		if (du[k]->ndef)
			group[k] = (uint16_t)cgroup[of[k]];
out:
	free(reg);
	free(set);
	free(cand);
	free(cgroup);
	free(of);
	return ng;
}
