/* Internal: tier-1 value compression (WET paper, section 3.2; WET.md,
 * "Tier 1: unique values and patterns").  The register results of a node's
 * statements are split into groups by the node inputs they depend on; per
 * segment, each group's tuple of results in one node execution is stored
 * once (the unique values) and every execution names its tuple (the
 * pattern).  The grouping is a function of the node's statements alone, so
 * the builder and the reader compute it alike. */
#ifndef CITCAT_WET_TIER1_H
#define CITCAT_WET_TIER1_H

#include "defuse.h"

#include <stdint.h>

#define WET_GROUP_NONE 0xffffu

/* Whether WORD (an A32 instruction) reads memory, for the grouping: a
 * load's results are a node input of their own (WET.md). */
int wet_is_load(uint32_t word);
/* The same for an instruction of SIZE bytes (2 or 4) in Thumb state when
 * THUMB (WORD: its bytes as a little-endian number); THUMB = 0 is
 * wet_is_load.  PLD/PLI read nothing into a register and are no loads. */
int wet_is_load_isa(uint32_t word, unsigned size, int thumb);

/* Groups the statements DU[k] (words WORDS[k]), k < N <= 1024, of one node:
 * GROUP[k] is statement k's group, WET_GROUP_NONE when it has no register
 * result (ndef 0).  Returns the number of groups, or -1 (out of memory). */
int wet_value_groups(const struct wet_du *const *du, const uint32_t *words, uint32_t n, uint16_t *group);
/* The same for statements of the instruction sets ISA[k] (WET_ISA_*,
 * defuse.h; NULL: all A32), the loads by wet_is_load_isa. */
int wet_value_groups_isa(const struct wet_du *const *du, const uint32_t *words, const uint8_t *isa, uint32_t n,
			 uint16_t *group);

#endif
