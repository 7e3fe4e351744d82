/* Internal: the register validation unit (RVU) of data-address filtering
 * (DAF.md), shared unchanged by the trace module (capture side) and the
 * software debugger (decoder side), so the two cannot drift apart.
 *
 * The RVU keeps a valid bit per ARM general-purpose register r0..r14 (r15
 * is always known: the debugger has the program flow).  It also keeps the
 * register values: the hardware unit would need only the bits, but the
 * debugger's partial replay needs the values, and keeping them on the
 * capture side lets the encoder check every address it filters against
 * the address the core really used.
 *
 * Use per retired instruction:
 *   daf_rvu_begin(r, pc, word, &s)   classify, apply non-memory effects;
 *                                    s.need tells which record is needed
 *   (read or write the record)
 *   daf_rvu_end(r, &s, executed, da) apply the memory instruction's effects
 *                                    (recovery of address registers,
 *                                    write-back, loaded registers invalid)
 * daf_rvu_accesses() expands a memory instruction's data address into the
 * accesses the core makes (what the din lists). */
#ifndef CITCAT_DAF_RVU_H
#define CITCAT_DAF_RVU_H

#include "itrace.h"
#include <stdint.h>

#define DAF_IRQ_VECTOR 0x18u /* TARGET.md: VBAR = 0, IRQ vector */
#define DAF_ALL_REGS 0x7fffu /* r0..r14 */

struct daf_rvu {
	uint32_t valid; /* bit n: rn is valid (n = 0..14) */
	uint32_t r[16];
	uint8_t it;     /* ITSTATE as the flow's IT instructions set it (machine/thumb.h); 0 outside IT blocks */
	uint8_t blx_imm; /* A32 BLX (immediate) writes LR (DAF version 2); 0: an escape (version 1) */
	/* the Cortex-M7 (DAF.md, "The Cortex-M7"; version 3, ISA 3) */
	uint8_t m7;      /* no IRQ vector rule; CPS, SVC no effect; MSR invalidates SP only */
	uint8_t vtor_ok; /* VTOR known (from a traced vector address), until a write to it */
	uint32_t vtor;
	uint32_t depth;  /* active exceptions: entries less exception returns (0: thread mode) */
};

/* What an instruction needs from the DAF record stream (DAF.md, records). */
enum daf_need {
	DAF_NEED_NONE = 0,   /* nothing: a non-memory instruction or an inferable address */
	DAF_NEED_ADDR = 1,   /* an address field */
	DAF_NEED_COND = 2,   /* an executed bit, then an address field if executed and ADDR_KNOWN is 0 */
	DAF_NEED_ESCAPE = 3, /* an escape: the instruction's whole access list */
};

enum daf_memop {
	DAF_MEM_NONE = 0,
	DAF_MEM_SINGLE = 1, /* LDR/STR(B/H/SB/SH/D) */
	DAF_MEM_MULTI = 2,  /* LDM/STM */
	DAF_MEM_ESCAPE = 3, /* anything the RVU does not model */
};

struct daf_step {
	uint32_t pc, word;
	uint8_t memop;   /* enum daf_memop */
	uint8_t need;    /* enum daf_need */
	uint8_t load;    /* 1 load, 0 store (SINGLE, MULTI) */
	uint8_t addr_known;
	uint32_t addr;   /* the data address when ADDR_KNOWN */
	/* decoded memory operation */
	uint8_t thumb;   /* T32: r15 reads as pc + 4 (Align(pc + 4, 4) as a base) */
	uint8_t pc_raw;  /* T32 TBB/TBH: r15 as the base is pc + 4, not aligned */
	uint8_t rn, rt, rm, size, count; /* size of each access; count of accesses */
	uint8_t pre, up, wback, off_known, off_inv; /* off_inv: offset register recoverable by inversion */
	uint8_t rot;     /* ROR amount for inverting a rotated offset register (0 = none) */
	uint32_t off;    /* offset magnitude when OFF_KNOWN */
	uint32_t start_adj; /* MULTI: DA = Rn + start_adj (mod 2^32) */
	uint16_t list;   /* MULTI: register list; SINGLE: registers loaded */
};

void daf_rvu_reset(struct daf_rvu *r);
/* Classifies WORD at PC, applies every effect of a non-memory instruction,
 * and fills S.  Never fails: an instruction the RVU does not model is an
 * escape (it invalidates every register, see DAF.md). */
void daf_rvu_begin(struct daf_rvu *r, uint32_t pc, uint32_t word, struct daf_step *s);
/* The same for an instruction of SIZE bytes (2 or 4) in Thumb state when
 * THUMB (WORD as the itrace records it: the first halfword in bits 15..0);
 * THUMB = 0 is daf_rvu_begin (SIZE 4).  DAF.md, "T32". */
void daf_rvu_begin_isa(struct daf_rvu *r, uint32_t pc, uint32_t word, unsigned size, int thumb, struct daf_step *s);
/* Applies the effects of a memory instruction (SINGLE, MULTI, ESCAPE)
 * given whether it executed and its data address DA (the address of its
 * first access).  No-op for other instructions. */
void daf_rvu_end(struct daf_rvu *r, const struct daf_step *s, int executed, uint32_t da);
/* The accesses a SINGLE or MULTI instruction makes from data address DA, in
 * the order the core makes them (address, size, direction; value 0).
 * Returns their number (at most 16). */
unsigned daf_rvu_accesses(const struct daf_step *s, uint32_t da, struct citcat_access *acc);
/* ---- the Cortex-M7 (DAF.md, "The Cortex-M7") ---- */
#define DAF_M7_VTOR 0xE000ED08u /* SCB VTOR: a write to it forgets the known VTOR */

/* The stacking frame on an entry with SP = SP (CCR.STKALIGN = 1). */
static inline uint32_t daf_m7_frame(uint32_t sp) { return (sp - 0x20u) & ~(sp & 4u); }
/* 1 when the Thumb instruction WORD (SIZE bytes) may load EXC_RETURN into
 * the PC: BX Rm, POP with the PC, LDM/LDMDB with the PC, LDR to the PC. */
int daf_m7_ret_candidate(uint32_t word, unsigned size);
/* An exception entry whose frame (the stacking base) is FRAME when FRAME_OK:
 * R0-R12 keep their values; from handler mode SP = FRAME and LR = 0xFFFFFFF1
 * are valid, from thread mode (the stack used is not known) both become
 * invalid; ITSTATE 0; one more active exception. */
void daf_rvu_m7_entry(struct daf_rvu *r, uint32_t frame, int frame_ok);
/* An exception return (after the returning instruction's own effects):
 * R0-R3, R12, SP, LR invalid; ITSTATE 0; one active exception less. */
void daf_rvu_m7_return(struct daf_rvu *r);
/* The data accesses an instruction or entry made: a write to VTOR forgets it. */
void daf_rvu_m7_scan(struct daf_rvu *r, const struct citcat_access *acc, unsigned n);

/* 1 when the instruction is conditional (condition field not AL). */
static inline int daf_is_conditional(uint32_t word) { return (word >> 28) < 0xE; }

#endif
