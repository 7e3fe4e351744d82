/* What the IMS/AES replayer (replay.c) and the LVT decoder (lvt_replay.c)
 * do alike: the run state of replay_int.h, its divergence and error
 * reports, the regenerated itrace and the oracle check, the engine's
 * set-up and release. */
#include "replay_int.h"
#include "armcore.h"
#include "ckpt.h"
#include "itrace.h"
#include "replay_block.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void replay_divergence_fill(struct citcat_divergence *d, const char *check, uint64_t index, uint64_t bcount,
			    uint32_t pc, const char *expected, uint64_t insns, const uint32_t *hist_pc,
			    const uint32_t *hist_word, const uint8_t *hist_size, const uint8_t *hist_thumb,
			    const char *found_fmt, va_list ap)
{
	d->check = check;
	d->insn_index = index;
	d->bcount = bcount;
	d->pc = pc;
	snprintf(d->expected, sizeof d->expected, "%s", expected);
	vsnprintf(d->found, sizeof d->found, found_fmt, ap);
	unsigned n = insns < CITCAT_REPLAY_HISTORY ? (unsigned)insns : CITCAT_REPLAY_HISTORY;
	d->nhist = n;
	for (unsigned i = 0; i < n; i++) {
		uint64_t idx = insns - n + i;
		unsigned k = (unsigned)(idx % CITCAT_REPLAY_HISTORY);
		d->hist_pc[i] = hist_pc[k];
		d->hist_word[i] = hist_word[k];
		d->hist_size[i] = hist_size[k];
		d->hist_thumb[i] = hist_thumb[k];
		d->hist_index[i] = idx;
	}
}

int replay_oracle_differs(int rc, const struct citcat_itrace_rec *want, const struct citcat_itrace_rec *got,
			  char want_text[200], char got_text[200])
{
	if (rc == 1 && citcat_itrace_rec_equal(got, want))
		return 0;
	const struct citcat_itrace_rec *v[2] = {want, got};
	char *s[2] = {want_text, got_text};
	for (int i = 0; i < 2; i++) {
		if (i == 0 && rc == 0) {
			snprintf(want_text, 200, "the end of the trace");
			continue;
		}
		if (v[i]->kind == CITCAT_REC_IRQ) {
			snprintf(s[i], 200, "interrupt line %u, EPC 0x%08llx", v[i]->line, (unsigned long long)v[i]->pc);
		} else if (v[i]->kind == CITCAT_REC_DMA) {
			snprintf(s[i], 200, "DMA transfer of %u bytes to 0x%08llx", v[i]->word, (unsigned long long)v[i]->pc);
		} else if (v[i]->kind == CITCAT_REC_STOP) {
			snprintf(s[i], 200, "%s at 0x%08llx (fault kind %u, address 0x%08x)", citcat_stop_reason_name(v[i]->line),
				 (unsigned long long)v[i]->pc, v[i]->word, v[i]->fault_addr);
		} else {
			int n = snprintf(s[i], 200, "0x%08llx: %08x", (unsigned long long)v[i]->pc, v[i]->word);
			for (uint32_t k = 0; k < v[i]->n_acc && n < 180; k++)
				n += snprintf(s[i] + n, (size_t)(200 - n), " %c%u[0x%llx]=0x%llx", v[i]->acc[k].write ? 'W' : 'R',
					      v[i]->acc[k].size, (unsigned long long)v[i]->acc[k].addr,
					      (unsigned long long)v[i]->acc[k].value);
		}
	}
	return 1;
}

/* The register file for the report: r0..r12, sp, lr, pc and the CPSR. */
static void snapshot_regs(struct replay_core *c, struct citcat_divergence *d)
{
	int regids[17] = {UC_ARM_REG_R0, UC_ARM_REG_R1, UC_ARM_REG_R2, UC_ARM_REG_R3, UC_ARM_REG_R4,
				       UC_ARM_REG_R5, UC_ARM_REG_R6, UC_ARM_REG_R7, UC_ARM_REG_R8, UC_ARM_REG_R9,
				       UC_ARM_REG_R10, UC_ARM_REG_R11, UC_ARM_REG_R12, UC_ARM_REG_SP, UC_ARM_REG_LR,
				       UC_ARM_REG_PC, UC_ARM_REG_CPSR};
	uint32_t v[17];
	void *vp[17];
	if (c->itrace_isa == CITCAT_ISA_ARMV7M) /* the CPSR reads A-profile bits on the M-class core */
		regids[16] = UC_ARM_REG_XPSR;
	for (int i = 0; i < 17; i++)
		vp[i] = &v[i];
	if (c->uc && uc_reg_read_batch(c->uc, regids, vp, 17) == UC_ERR_OK) {
		d->have_regs = 1;
		memcpy(d->regs, v, sizeof d->regs);
		d->cpsr = v[16];
		d->m_profile = c->itrace_isa == CITCAT_ISA_ARMV7M;
	}
	d->have_irq = c->irq_seen;
	d->irq_line = c->irq_line;
	d->irq_epc = c->irq_epc;
	d->irq_index = c->irq_index;
}

void replay_begin(struct replay_core *c, struct citcat_replay_result *res, struct citcat_errinfo *err,
		  const char *oracle_path, const char *out_path)
{
	c->res = res;
	c->err = err;
	c->oracle_path = oracle_path;
	c->out_path = out_path;
	c->t0 = replay_now_s();
}

void replay_diverge(struct replay_core *c, const char *check, const char *expected, const char *found_fmt, ...)
{
	if (c->failed)
		return;
	c->failed = 1;
	c->res->diverged = 1;
	/* cur_index, not insns: once the instruction has started (a data
	 * access, a device read, its record being closed) that already counts it */
	if (c->hist_sync)
		c->hist_sync(c);
	va_list ap;
	va_start(ap, found_fmt);
	replay_divergence_fill(&c->res->div, check, c->cur_index, c->bcount, c->cur_pc, expected, c->insns, c->hist_pc,
			       c->hist_word, c->hist_size, c->hist_thumb, found_fmt, ap);
	va_end(ap);
	if (c->snapshot)
		snapshot_regs(c, &c->res->div);
	if (c->uc)
		uc_emu_stop(c->uc);
}

int replay_fail(struct replay_core *c, const char *path, int code, uint64_t off, const char *fmt, ...)
{
	if (c->failed)
		return code;
	va_list ap;
	va_start(ap, fmt);
	citcat_errinfo_vfirst(c->err, code, off, fmt, ap);
	va_end(ap);
	c->res->err_path = path;
	c->failed = 2;
	if (c->uc)
		uc_emu_stop(c->uc);
	return code;
}

void replay_input_error(struct replay_core *c, const char *path, const struct citcat_errinfo *e)
{
	if (c->failed)
		return;
	*c->err = *e;
	c->res->err_path = path;
	c->failed = 2;
	if (c->uc)
		uc_emu_stop(c->uc);
}

/* After a checkpoint's entry: at its INV_I store, the segment's start
 * point follows, and the itrace starts a new chunk there, as the segment's
 * own replay does (ITRACE.md "Chunks", replay/SEGMENTS.md "Merge"). */
static void ckpt_cut(struct replay_core *c, const struct citcat_itrace_rec *r)
{
	for (uint32_t i = 0; i < r->n_acc; i++)
		if (r->acc[i].write && r->acc[i].addr == CITCAT_CACHE_INV_I) {
			c->ckpt_cut = 0;
			if (c->out && citcat_itrace_writer_cut(c->out))
				replay_fail(c, NULL, CITCAT_ERR_IO, UINT64_MAX, "%s: %s", c->out_path,
					    citcat_itrace_writer_error(c->out)->msg);
			return;
		}
}

/* A STOP of fault kind 11: the oracle's M7 fault status must be the
 * replay's (both from the exception model at the same point). */
static void oracle_m7_fault(struct replay_core *c)
{
	struct citcat_m7_fault of;
	if (citcat_itrace_m7_fault(c->orc, &of) != 1 || !c->has_m7_fault)
		return;
	if (memcmp(&of, &c->m7_fault, sizeof of) == 0)
		return;
	char want[200], got[200];
	citcat_m7_fault_describe(&of, want, sizeof want);
	citcat_m7_fault_describe(&c->m7_fault, got, sizeof got);
	replay_diverge(c, "instruction trace", want, "%s (the Cortex-M7 fault status at the stop)", got);
}

void replay_output(struct replay_core *c, const struct citcat_itrace_rec *r)
{
	if (c->out && r->kind == CITCAT_REC_STOP && c->has_m7_fault)
		citcat_itrace_writer_m7_fault(c->out, &c->m7_fault);
	if (c->out && citcat_itrace_write(c->out, r))
		replay_fail(c, NULL, CITCAT_ERR_IO, UINT64_MAX, "%s: %s", c->out_path, citcat_itrace_writer_error(c->out)->msg);
	if (c->ckpt_cut && r->kind == CITCAT_REC_INSN)
		ckpt_cut(c, r);
	if (!c->orc || c->failed)
		return;
	int rc = citcat_itrace_next(c->orc, &c->orec);
	if (rc < 0) {
		replay_input_error(c, c->oracle_path, citcat_itrace_reader_error(c->orc));
		return;
	}
	c->res->oracle_records++;
	char want[200], got[200];
	if (replay_oracle_differs(rc, &c->orec, r, want, got))
		replay_diverge(c, "instruction trace", want, "%s", got);
	else if (r->kind == CITCAT_REC_STOP)
		oracle_m7_fault(c);
}

void replay_output_blk(struct replay_core *c, const struct rblk *b, uint32_t pc, uint32_t from, uint32_t n)
{
	struct itrace_blk ib = rblk_itrace(b);
	if (c->out && itrace_write_blk(c->out, &ib, pc, from, n))
		replay_fail(c, NULL, CITCAT_ERR_IO, UINT64_MAX, "%s: %s", c->out_path, citcat_itrace_writer_error(c->out)->msg);
}

int replay_fetch_in_ram(struct replay_core *c, uint32_t a, uint32_t size, int arm_only)
{
	if (arm_only && size != 4) {
		replay_diverge(c, "instruction fetch", "an ARM instruction in RAM", "Thumb state at 0x%08x", a);
		return 0;
	}
	if (a - c->ram_base < c->ram_size && c->ram_size - (a - c->ram_base) >= size)
		return 1;
	replay_diverge(c, "instruction fetch", "an instruction in RAM", "a fetch from 0x%08x", a);
	return 0;
}

void replay_event_missed(struct replay_core *c, int is_irq, const char *what, uint64_t bcount, uint32_t pc)
{
	if (bcount >= c->bcount)
		return;
	char exp[200];
	snprintf(exp, sizeof exp, "%s at branch %llu, pc 0x%08x", what, (unsigned long long)bcount, pc);
	replay_diverge(c, is_irq ? "interrupt schedule" : "DMA schedule", exp,
		       "branch %llu passed without reaching pc 0x%08x", (unsigned long long)bcount, pc);
}

int replay_irq_enabled(struct replay_core *c, unsigned line)
{
	uint32_t cpsr;
	uc_reg_read(c->uc, UC_ARM_REG_CPSR, &cpsr);
	if (!(cpsr & ARM_CPSR_I) || line == CITCAT_CKPT_LINE) /* a checkpoint ignores CPSR.I (capture/ckpt.h) */
		return 1;
	replay_diverge(c, "interrupt schedule", "interrupts enabled (CPSR.I = 0) for the recorded interrupt",
		       "CPSR 0x%08x with interrupts masked", cpsr);
	return 0;
}

void replay_enter_irq(struct replay_core *c, unsigned line, uint32_t a)
{
	c->irq_seen = 1;
	c->irq_line = line;
	c->irq_epc = a;
	c->irq_index = c->insns;
	if ((line == CITCAT_CKPT_LINE ? arm_take_ckpt : arm_take_irq)(c->uc, a))
		replay_fail(c, NULL, CITCAT_ERR_UNICORN, UINT64_MAX, "IRQ entry failed");
	c->res->irqs++;
	c->after_exception = 1;
	c->ckpt_cut |= line == CITCAT_CKPT_LINE;
}

int replay_open_itraces(struct replay_core *c)
{
	int rc;
	if (c->oracle_path && (rc = citcat_itrace_reader_open(&c->orc, c->oracle_path))) {
		replay_input_error(c, c->oracle_path, citcat_itrace_reader_error(c->orc));
		return rc;
	}
	if (c->orc) /* DMA records are compared too */
		citcat_itrace_reader_dma(c->orc, 1);
	if (c->out_path && (rc = itrace_writer_open_segment(&c->out, c->out_path, c->itrace_isa ? c->itrace_isa : CITCAT_ISA_ARM_A32,
							    c->itrace_segment)))
		return replay_fail(c, NULL, rc, UINT64_MAX, "%s: cannot create the instruction trace: %s", c->out_path,
				   rc == CITCAT_ERR_IO ? strerror(errno) : citcat_errstr(rc));
	return 0;
}

int replay_open_core(struct replay_core *c, uint32_t dev_base, uint32_t dev_size, uc_cb_mmio_read_t mmio_read,
		     uc_cb_mmio_write_t mmio_write, const struct core_hooks *hooks, void *ctx,
		     const struct arm_state *regs, int te)
{
	uc_err ue = core_open(&c->uc, c->ram_base, c->ram_size, c->ram, dev_base, dev_size, mmio_read, mmio_write, ctx);
	if (!ue)
		ue = core_add_hooks(c->uc, hooks, ctx, c->ram_base, c->ram_size);
	if (!ue)
		ue = (uc_err)arm_set_state(c->uc, regs);
	if (!ue)
		ue = (uc_err)arm_set_sctlr_te(c->uc, te);
	if (ue)
		return replay_fail(c, NULL, CITCAT_ERR_UNICORN, UINT64_MAX, "Unicorn set-up failed: %s", uc_strerror(ue));
	c->expect_pc = regs->slot[ARM_SLOT_PC] & ~1u;
	return 0;
}

void replay_run(struct replay_core *c, replay_fault_fn fault)
{
	uint32_t cpsr;
	uc_reg_read(c->uc, UC_ARM_REG_CPSR, &cpsr);
	uint32_t pc = c->expect_pc | ((cpsr >> 5) & 1); /* bit 0 of the start address selects the state */
	if (c->start_here) { /* a session resumes where the core stands (replay_sess.h) */
		c->start_here = 0;
		pc = thumb_resume_pc(c->uc);
	}
	while (!c->failed && !c->done) {
		uint32_t until = c->until ? c->until : CORE_UNTIL;
		c->until = 0; /* for this run only */
		uc_err ue = uc_emu_start(c->uc, pc, until, 0, 0);
		if (c->failed || c->done)
			break;
		pc = thumb_resume_pc(c->uc);
		if (!ue && c->between && c->between(c, &pc)) {
			if (c->failed)
				break;
			continue;
		}
		if (ue && c->resume) { /* an M7 BusFault taken in the unmapped hook (replay_m7.c) */
			c->resume = 0;
			continue;
		}
		if (ue == UC_ERR_INSN_INVALID && fault && fault(c, CITCAT_FAULT_UNDEF, pc & ~1u, 0))
			break; /* as the capture model: Unicorn stops at an undefined instruction */
		if (ue) {
			replay_diverge(c, "execution", "the recorded run to continue", "Unicorn stopped at 0x%08x: %s", pc,
				       uc_strerror(ue));
			break;
		}
		/* Unicorn ends a run, without an error or a code hook, when the PC
		 * reaches the until address: restarting there would loop forever
		 * (found by fuzz_replay).  It lies above RAM, so it is a fetch. */
		if ((pc & ~1u) == CORE_UNTIL) {
			pc &= ~1u;
			replay_boundary(c, pc); /* as the hooks for a fetch from nothing */
			if (!fault || !fault(c, CITCAT_FAULT_FETCH, pc, pc))
				replay_diverge(c, "instruction fetch", "an instruction in RAM", "a fetch from 0x%08x", pc);
			break;
		}
	}
}

void replay_oracle_end(struct replay_core *c)
{
	if (c->failed || !c->orc)
		return;
	int rc = citcat_itrace_next(c->orc, &c->orec);
	if (rc == 1)
		replay_diverge(c, "instruction trace", "more instructions (the oracle goes on)", "the end of the replay");
	else if (rc < 0)
		replay_input_error(c, c->oracle_path, citcat_itrace_reader_error(c->orc));
}

int replay_finish(struct replay_core *c)
{
	if (c->failed == 1)
		return CITCAT_ERR_DIVERGED;
	if (c->failed)
		return c->err->code ? c->err->code : CITCAT_ERR_INTERNAL;
	if (!c->out)
		return 0;
	int rc = citcat_itrace_writer_close(c->out);
	c->out = NULL;
	if (rc)
		replay_fail(c, NULL, rc, UINT64_MAX, "%s: writing the instruction trace failed: %s", c->out_path,
			    rc == CITCAT_ERR_IO ? strerror(errno) : citcat_errstr(rc));
	return rc;
}

void replay_fini(struct replay_core *c)
{
	c->res->insns = c->insns;
	c->res->seconds = replay_now_s() - c->t0;
	citcat_itrace_writer_abort(c->out);
	c->out = NULL;
	citcat_itrace_reader_close(c->orc);
	c->orc = NULL;
	if (c->uc)
		uc_close(c->uc);
	c->uc = NULL;
	if (c->bus.ic.tag)
		bus_fini(&c->bus);
}

int replay_it_failed_next(const struct replay_core *c, uint32_t a, uint32_t cpsr, uint32_t *pc, unsigned *size,
			  uint32_t *word)
{
	if (!c->itstate || a == c->expect_pc || c->failed || thumb_cond_passed(c->itstate >> 4, cpsr))
		return 0;
	uint32_t at = c->expect_pc, off = at - c->ram_base;
	uint16_t hw;
	if (off >= c->ram_size || c->ram_size - off < 2 || !replay_known_range(c, at, 2))
		return 0;
	memcpy(&hw, c->ram + off, 2);
	unsigned n = thumb_size(hw);
	if (c->ram_size - off < n || !replay_known_range(c, at, n))
		return 0;
	*pc = at;
	*size = n;
	*word = thumb_word_at(c->ram + off, n);
	return 1;
}
