/* Internal: which instructions read memory, for the WET's models
 * (WET.md "Segment blocks": the memory producers of an instance are coded
 * when its statement is a load).  Until version 7 this file also grouped a
 * node's statements for tier-1 compression of register results, which the
 * WET no longer stores (the name stayed). */
#ifndef CITCAT_WET_TIER1_H
#define CITCAT_WET_TIER1_H

#include "defuse.h"

#include <stdint.h>

/* Whether WORD (an A32 instruction) reads memory. */
int wet_is_load(uint32_t word);
/* The same for an instruction of SIZE bytes (2 or 4) in Thumb state when
 * THUMB (WORD: its bytes as a little-endian number); THUMB = 0 is
 * wet_is_load.  PLD/PLI read nothing into a register and are no loads. */
int wet_is_load_isa(uint32_t word, unsigned size, int thumb);

#endif
