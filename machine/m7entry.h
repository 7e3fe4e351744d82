/* The oracle's record of a Cortex-M7 exception entry (TARGET-M7.md, "The
 * oracle itrace"), built the same way by the capture model
 * (capture/target_m7.c) and the replayer (replay/replay_m7.c), as the A
 * target's instruction records are (core_record_insn).
 *
 * Around every m7exc call that may take an exception: m7entry_start, then
 * each access of the model's data side goes through m7entry_access (from
 * the first stacking write on, the accesses are the entry's; before it,
 * an exception return's unstacking reads, they are the retired
 * instruction's, which the caller records), then m7entry_end says whether
 * an entry was made, and m7entry_record gives its record.  Internal. */
#ifndef CITCAT_M7ENTRY_H
#define CITCAT_M7ENTRY_H

#include "core.h"

#include <citcat/itrace.h>
#include <stdint.h>
#include <unicorn/unicorn.h>

struct m7entry {
	int collect;  /* inside an m7exc call */
	int in_entry; /* ... and a stacking write was seen */
	struct citcat_itrace_rec rec;
};

static inline void m7entry_start(struct m7entry *e)
{
	e->collect = 1;
	e->in_entry = 0;
	e->rec.n_acc = 0;
}

/* A stacking write is about to be made (it may fail: STKERR): from now on
 * the accesses are the entry's. */
static inline void m7entry_write(struct m7entry *e)
{
	if (e->collect)
		e->in_entry = 1;
}

/* A 32-bit access of the exception model: 1 when it belongs to the entry
 * record (recorded there), 0 when the caller records it with the
 * instruction retired last. */
static inline int m7entry_access(struct m7entry *e, uint32_t addr, int write, uint32_t v)
{
	if (e->collect && write)
		e->in_entry = 1;
	if (!(e->collect && e->in_entry))
		return 0;
	if (e->rec.n_acc < CITCAT_ITRACE_MAX_ACC)
		core_record_access(&e->rec, addr, 4, write, v, 0);
	return 1;
}

/* After the m7exc call: whether an entry was made (stacking writes
 * happened).  The caller then, unless the call failed: marks the next
 * boundary as not a branch, clears its IT state, closes the record of the
 * instruction retired last, and writes m7entry_record's record. */
static inline int m7entry_end(struct m7entry *e)
{
	e->collect = 0;
	return e->in_entry;
}

/* The entry record of the exception now active (IPSR read from UC): the
 * exception number, the stacked return address RET (m7exc's entry_ret),
 * the stacking writes that succeeded (all eight unless STKERR) and the
 * vector read(s) that succeeded (the HardFault vector after a VECTTBL);
 * NULL when the entry made no access through this record. */
static inline const struct citcat_itrace_rec *m7entry_record(struct m7entry *e, uc_engine *uc, uint32_t ret)
{
	uint32_t xpsr = 0;
	if (e->rec.n_acc == 0)
		return NULL;
	uc_reg_read(uc, UC_ARM_REG_XPSR, &xpsr);
	e->rec.kind = CITCAT_REC_IRQ;
	e->rec.line = (uint8_t)(xpsr & 0x3f);
	e->rec.pc = ret;
	return &e->rec;
}

#endif
