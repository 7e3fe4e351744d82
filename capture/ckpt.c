/* Segment checkpoints (TARGET.md, "Checkpoints").  With
 * citcat_capture_config.checkpoint_every = N, the trace module raises the
 * checkpoint interrupt once N instructions have retired since the last
 * trace start point (P, or the start point of the previous checkpoint) and
 * no register dump is in progress.  It is taken at that instruction
 * boundary, before any IRQ and whatever CPSR.I and CPSR.F, through the FIQ
 * vector; the BSP's handler runs the CITCAT driver again, whose INV_I store
 * is the checkpoint's start point. */
#include "ckpt.h"

#include "armcore.h"
#include "target_int.h"

#define ARM_CPSR_F (1u << 6)

_Static_assert(CITCAT_CKPT_MIN == CITCAT_CHECKPOINT_MIN, "citcat_regs.h and citcat/capture.h agree");

int arm_take_ckpt(uc_engine *uc, uint32_t epc)
{
	/* like an FIQ: mode FIQ; I, F and A set; Thumb state when SCTLR.TE = 1
	 * (TARGET.md, "Checkpoints") */
	return arm_take_exception(uc, epc, ARM_MODE_FIQ, ARM_CPSR_I | ARM_CPSR_F | ARM_CPSR_A, CITCAT_CKPT_VECTOR);
}

int ckpt_config(struct target *t)
{
	uint64_t n = t->cfg->checkpoint_every;
	if (!n)
		return 0;
	if (n < CITCAT_CKPT_MIN)
		return target_fail(t, CITCAT_ERR_INVAL, "a checkpoint interval of %llu instructions is below the minimum %u",
				   (unsigned long long)n, CITCAT_CKPT_MIN);
	if (t->lvt || t->daf)
		return target_fail(t, CITCAT_ERR_INVAL, "checkpoints cannot be combined with an LVT or DAF trace");
	return 0;
}

int ckpt_due(const struct target *t)
{
	if (!t->synced || t->faulted || t->failed)
		return 0;
	return !t->ckpt_busy && t->traced_insns - t->ckpt_seg_start >= t->cfg->checkpoint_every;
}

int ckpt_boundary(struct target *t, uint32_t a)
{
	if (!ckpt_due(t))
		return 0;
	target_flush_oracle(t);
	bus_irq(&t->bus, CITCAT_CKPT_LINE, a, t->bcount);
	if (t->oracle) {
		struct citcat_itrace_rec irq = {.kind = CITCAT_REC_IRQ, .line = (uint8_t)CITCAT_CKPT_LINE, .pc = a};
		if (citcat_itrace_write(t->oracle, &irq)) {
			target_fail(t, CITCAT_ERR_IO, "writing the oracle trace");
			return 1;
		}
	}
	if (arm_take_ckpt(t->uc, a)) {
		target_fail(t, CITCAT_ERR_UNICORN, "checkpoint interrupt entry failed");
		return 1;
	}
	t->after_exception = 1;
	t->ckpt_busy = 1;
	t->ckpt_count++;
	return 1;
}

void ckpt_point(struct target *t, uint32_t a)
{
	t->ckpt_point_pending = 0;
	if (!t->synced || t->faulted || t->failed)
		return;
	t->ckpt_seg_start = t->traced_insns;
	/* the oracle starts a new chunk here, after the INV_I store's record,
	 * as the replayer's itrace does (ITRACE.md, "Chunks") */
	target_flush_oracle(t);
	if (t->oracle && citcat_itrace_writer_cut(t->oracle)) {
		target_fail(t, CITCAT_ERR_IO, "writing the oracle trace");
		return;
	}
	/* recorded where SYNC is, before the boundary's device events, so that
	 * a DMA at P_k belongs to the segment it starts (CAT.md, CKPT) */
	struct citcat_cat_event ev = {.kind = CITCAT_CAT_CKPT, .pc = a, .insns = t->traced_insns, .bcount = t->bcount,
				      .repl_state = {cache_repl_state(&t->bus.ic), cache_repl_state(&t->bus.dc)}};
	bus_marker(&t->bus, &ev);
}

void ckpt_uwrite(struct target *t, uint32_t off)
{
	if (!t->cfg->checkpoint_every || !t->recording)
		return;
	if (off == CITCAT_DEV_OFF(CITCAT_CACHE_INV_I)) {
		if (!t->synced)
			t->ckpt_busy = 1; /* the first start point: its dump follows */
		else if (t->ckpt_busy)
			t->ckpt_point_pending = 1; /* the checkpoint's start point: after this store */
	} else if (off == CITCAT_DEV_OFF(CITCAT_TRACE_DUMP_DONE)) {
		t->ckpt_busy = 0;
	}
}
