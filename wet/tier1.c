/* Which instructions read memory (tier1.h). */
#include "tier1.h"

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
