/* Internal: dynamic control dependences for the WET (WET.md, "Control
 * dependences").  Two passes over the same run:
 *  1. wet_cd_irq / wet_cd_insn with PASS 1 recover the dynamic CFG of every
 *     function (statement-level nodes keyed by the function's entry PC and
 *     the statement's PC, a virtual EXIT per function);
 *     wet_cd_analyse() then computes post-dominators (Cooper, Harvey and
 *     Kennedy's iterative algorithm on the reverse CFG) and the static
 *     control dependences (Ferrante et al.: for a branch edge A -> B, every
 *     node on the post-dominator tree path from B up to ipdom(A), ipdom(A)
 *     excluded, is control dependent on A);
 *  2. the same calls with PASS 2 give each instance its dynamic control
 *     parent: the most recent instance, in the same activation, of a
 *     statement it is control dependent on; failing that, the call
 *     instruction of the activation (none for the first activation and for
 *     interrupt handlers).
 * Activations come from a shadow stack that both passes drive identically:
 * a call (BL, BLX; in Thumb also BL/BLX T1/T2 and BLX Rm) that executes
 * pushes one, an interrupt entry pushes one, and an instance at the top
 * activation's return address (the call's PC + its size, the interrupt's
 * EPC) with the processor mode and SP it had when
 * pushed pops it.  Memory is bounded by the static code and the call
 * depth, never by the run's length. */
#ifndef CITCAT_WET_CDEP_H
#define CITCAT_WET_CDEP_H

#include <stdint.h>

struct wet_cd;

int wet_cd_open(struct wet_cd **cd);
void wet_cd_close(struct wet_cd *cd);

/* The bits of the CPSR arguments below that are the processor mode
 * (default 0x1f, CPSR 4:0; the Cortex-M7 builder passes its own mode word,
 * WET.md "Cortex-M7"). */
void wet_cd_set_mode_mask(struct wet_cd *cd, uint32_t mask);

/* An interrupt entry with return address EPC, taken in mode CPSR with SP. */
int wet_cd_irq(struct wet_cd *cd, uint32_t epc, uint32_t cpsr, uint32_t sp);

/* Instance INDEX of the instruction WORD at PC; CPSR and SP are the state
 * before it (SP is not used for the first instance of an activation),
 * PASSED whether its condition held.  In pass 2, *PARENT is the control
 * parent's INDEX + 1 (0: none) and *CONT whether the instance continues
 * the Ball-Larus path of the previous one: the previous record is an
 * instance of the same activation (no interrupt entry, call or return in
 * between) and the CFG edge from it is not a back edge (a retreating edge
 * of a depth-first search from the function's entry).  Returns 0 or a
 * CITCAT_ERR_* code. */
int wet_cd_insn(struct wet_cd *cd, uint64_t index, uint32_t pc, uint32_t word, int passed, uint32_t cpsr,
		uint32_t sp, uint64_t *parent, int *cont);

/* The same for an instruction of SIZE bytes (2 or 4) in Thumb state when
 * THUMB (WORD: its bytes as a little-endian number, as the itrace records
 * it); a Thumb call returns to PC + SIZE.  THUMB = 0 is wet_cd_insn. */
int wet_cd_insn_isa(struct wet_cd *cd, uint64_t index, uint32_t pc, uint32_t word, unsigned size, int thumb,
		    int passed, uint32_t cpsr, uint32_t sp, uint64_t *parent, int *cont);

/* Ends pass 1: closes the open activations, computes the control
 * dependences and resets the shadow stack for pass 2. */
int wet_cd_analyse(struct wet_cd *cd);

/* Counts for reports: functions, CFG nodes, CFG edges, branch nodes,
 * static control-dependence pairs, back edges. */
void wet_cd_counts(const struct wet_cd *cd, uint64_t out[6]);

/* True when WORD is a call that links: BL, BLX (immediate or register). */
int wet_is_call(uint32_t word);
/* The same for a Thumb instruction of SIZE bytes: BL (T1), BLX immediate
 * (T2), BLX Rm (T1). */
int wet_is_call_thumb(uint32_t word, unsigned size);

#endif
