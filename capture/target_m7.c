/* The Cortex-M7 capture model (TARGET-M7.md, "Capture"): the same caches,
 * bus, devices and trace module as the A target (capture/target.c), with
 * citcat's exception model (machine/m7exc.c) in place of the IRQ entry.
 * One code hook per instruction, as on the A target; this file keeps the
 * M7's boundary work apart from the A target's hot path.
 *
 * Unicorn 2.0.1 behaviours relied on (tests/test_unicorn_m.c): it takes no
 * M-profile exception itself and reports svc (interrupt 2), bkpt (7) and a
 * branch to an EXC_RETURN value (8, PC = the value without bit 0) through
 * UC_HOOK_INTR, undefined instructions through UC_HOOK_INSN_INVALID; a PC
 * written in a code hook or in those hooks is where execution goes on. */
#include "target_m7.h"
#include "ckpt.h"
#include "elfprofile.h"
#include "target_int.h"
#include "thumb.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint32_t rd(struct target *t, int reg)
{
	uint32_t v = 0;
	uc_reg_read(t->uc, reg, &v);
	return v;
}

/* A negative m7exc result: the capture stops.  An exception that cannot be
 * taken is an abnormal end (fault kind 11, CAT.md); a model or bus failure
 * an error. */
static void m7_error(struct target *t, int rc)
{
	const struct m7exc *m = &t->m7->exc;
	char msg[120];
	const char *what = m->err_what ? m->err_what : "";
	if (rc == M7EXC_E_NOHANDLER || rc == M7EXC_E_VECTOR || rc == M7EXC_E_LOCKUP) {
		snprintf(msg, sizeof msg, "%s%s%s%s at pc 0x%08x",
			 rc == M7EXC_E_LOCKUP ? "lockup: " : "", m7exc_name(m->err_exc), what[0] ? " " : "", what,
			 m->err_pc);
		snprintf(t->stop_detail, sizeof t->stop_detail, "%.120s%s",
			 msg, rc == M7EXC_E_NOHANDLER ? ", no handler (vector 0)"
			      : rc == M7EXC_E_VECTOR ? ", vector without the Thumb bit" : "");
		target_fault(t, CITCAT_FAULT_EXCEPTION, m->err_pc, (uint32_t)m->err_exc, t->stop_detail);
		return;
	}
	if (rc == M7EXC_E_BUS) { /* the reset vectors outside RAM (VTOR): a data bus error */
		int w = strstr(what, "write") != NULL;
		snprintf(t->stop_detail, sizeof t->stop_detail, "%s: %s at 0x%08x", m7exc_name(m->err_exc), what,
			 m->err_addr);
		target_fault(t, w ? CITCAT_FAULT_WRITE : CITCAT_FAULT_READ, m->err_pc, m->err_addr, t->stop_detail);
		return;
	}
	target_fail(t, CITCAT_ERR_UNICORN, "Cortex-M7 exception model: %s %s at pc 0x%08x (address 0x%08x)",
		    m7exc_name(m->err_exc), what, m->err_pc, m->err_addr);
}

/* The data side for the exception model (struct m7exc_bus): one aligned
 * word through the D-cache, as a load or store of the core would be.  The
 * oracle gets it as an access of the entry record once a stacking write was
 * seen, else of the instruction that retired last (an exception return's
 * unstacking). */
static int m7_bus(void *ctx, uint32_t addr, int write, uint32_t *v)
{
	struct target *t = ctx;
	struct m7cap *m = t->m7;
	uint32_t off = addr - t->ram_base;
	if (write)
		m7entry_write(&m->entry);
	if ((addr & 3) || off >= t->ram_size || t->ram_size - off < 4)
		return -1; /* STKERR, UNSTKERR, VECTTBL: no bus event, no oracle access */
	if (!write)
		memcpy(v, t->ram + off, 4);
	if (t->bus.ic.tag) /* not before the bus exists (the bare baseline has none) */
		bus_data(&t->bus, addr, 4, write, *v);
	if (write && uc_mem_write(t->uc, addr, v, 4)) /* drops any translation of the word too */
		return -1;
	/* the LVT (LVT.md, "The Cortex-M7"): a stacking write sets the FA flags
	 * as a store does, with no record; the vector and unstacking reads are
	 * loads, one record each */
	if (t->lvt && t->synced)
		(write ? lvt_tm_store : lvt_tm_load)(t->lvt, addr, 4);
	if (!m7entry_access(&m->entry, addr, write, *v))
		target_oracle_access(t, addr, 4, write, *v, 0);
	return 0;
}

/* An exception return that unstacked a nonzero ITSTATE (a BusFault taken
 * inside an IT block, TARGET-M7.md "IT blocks and bus errors"): Unicorn
 * goes on inside the block; the model's own tracking resumes there too.
 * The return is a branch when the return address X is not its
 * fall-through, counted now; then expect_pc = X and ITSTATE = the
 * unstacked one, so that the next boundary retires the condition-failed
 * instructions from X on (it_skipped) and counts no branch of its own. */
static void it_resume(struct target *t)
{
	uint32_t x = rd(t, UC_ARM_REG_PC) & ~1u;
	if (t->synced && core_branched(x, t->expect_pc, t->after_exception))
		t->bcount++;
	t->expect_pc = x;
	t->itstate = t->m7->exc.it_return;
}

/* After an m7exc call that returned RC: on an entry (1, or 1 from a return
 * that faulted), the oracle's entry record follows the record of the
 * instruction that retired last, and the next boundary is not a branch. */
static void collect_end(struct target *t, int rc)
{
	struct m7cap *m = t->m7;
	int entered = m7entry_end(&m->entry);
	if (rc < 0) {
		m7_error(t, rc);
		return;
	}
	if (!entered) { /* a plain exception return */
		if (m->exc.it_return)
			it_resume(t);
		return;
	}
	t->after_exception = 1;
	t->itstate = 0;
	target_flush_oracle(t);
	const struct citcat_itrace_rec *r =
		t->synced && (t->oracle || t->daf) ? m7entry_record(&m->entry, t->uc, m->exc.entry_ret) : NULL;
	if (r && t->oracle && citcat_itrace_write(t->oracle, r))
		target_fail(t, CITCAT_ERR_IO, "writing the oracle trace: %s", citcat_itrace_writer_error(t->oracle)->msg);
	/* the DAF (formats/DAF.md, "The Cortex-M7"): the entry at its boundary */
	if (r && t->daf && citcat_daf_write_entry(t->daf, r->line, r->acc, r->n_acc))
		target_fail(t, citcat_daf_writer_error(t->daf)->code, "DAF trace: %s", citcat_daf_writer_error(t->daf)->msg);
}

/* The interrupt controller's output line n drives NVIC IRQ n (TARGET-M7.md,
 * NVIC): while asserted it holds IRQ n pending unless IRQ n is active; when
 * it falls, IRQ n's pending bit is cleared.  Lines that never rose leave
 * the pending bits software set (ISPR, STIR) alone. */
static void wire_lines(struct target *t)
{
	struct m7cap *m = t->m7;
	uint32_t asserted = t->intc_pending & t->intc_enable, fell = m->lines & ~asserted;
	m->lines = asserted;
	uint64_t set = (uint64_t)asserted << M7EXC_IRQ0, clr = (uint64_t)fell << M7EXC_IRQ0;
	m->exc.pending = (m->exc.pending & ~clr) | (set & ~m->exc.active);
}

static void systick_catch_up(struct target *t)
{
	struct m7cap *m = t->m7;
	if (t->bus.cycle > m->st_cycle) {
		m7exc_systick_advance(&m->exc, t->bus.cycle - m->st_cycle);
		m->st_cycle = t->bus.cycle;
	}
}

/* WFI (TARGET-M7.md, Capture; the loop is target.c's target_wfi_sleep):
 * sleeps until some pending exception is eligible, whatever the masks.
 * Each step goes to the next device event that can raise a line both
 * controllers enable, the next DMA burst, or the next SysTick event with
 * TICKINT. */
static int m7_awake(struct target *t) { return m7exc_any_eligible(&t->m7->exc); }

static uint64_t m7_next(struct target *t)
{
	struct m7cap *m = t->m7;
	uint64_t at = (t->intc_enable & m->exc.irq_enable) ? target_next_wakeup(t) : UINT64_MAX;
	uint64_t due = (m->exc.st_csr & (CITCAT_M7_SYST_ENABLE | CITCAT_M7_SYST_TICKINT)) == (CITCAT_M7_SYST_ENABLE | CITCAT_M7_SYST_TICKINT) ? m7exc_systick_due(&m->exc) : UINT64_MAX;
	if (due != UINT64_MAX && t->bus.cycle + due < at)
		at = t->bus.cycle + due;
	return at;
}

static void m7_detail(struct target *t)
{
	struct m7cap *m = t->m7;
	snprintf(t->stop_detail, sizeof t->stop_detail,
		 "lines enabled 0x%x, NVIC enabled 0x%x; timer %s, DMA %s, SysTick %s", t->intc_enable,
		 m->exc.irq_enable, t->timer_on && t->timer_period ? "running" : "stopped",
		 t->dma_status & 1 ? "active" : "idle",
		 (m->exc.st_csr & 3) == 3 ? "running" : (m->exc.st_csr & 1) ? "running without TICKINT" : "off");
}

static void m7_advance(struct target *t)
{
	systick_catch_up(t);
	target_devices_advance(t, t->expect_pc); /* the boundary after the WFI */
	wire_lines(t);
}

static const struct target_wake m7_wake = {m7_awake, m7_next, m7_detail, m7_advance};

/* Checkpoints (TARGET-M7.md, "Checkpoints"): at the boundary A, when one is
 * due (ckpt.c) and the execution priority is 0 or above, the NMI is taken
 * as any recorded exception (an EXC event with value 2, the oracle's entry
 * record) and the BSP's handler runs the driver, whose INV_I store is the
 * start point P_k (ckpt_uwrite, ckpt_point as on the A target).  Returns 1
 * when it took the NMI here (the instruction at A does not execute now).
 * Also checks that a checkpoint's NMI ran the driver before it returned. */
static int in_ram(const struct target *t, uint32_t addr, uint32_t len)
{
	uint32_t off = addr - t->ram_base;
	return off < t->ram_size && t->ram_size - off >= len;
}

/* Whether the checkpoint's NMI entry would make every access: the eight
 * stacking words on the stack in use (SP as the entry takes it: 8-byte
 * aligned below SP, m7exc's take) and the NMI vector at VTOR + 8 in RAM.
 * When not (a thread stack pointing past RAM), the NMI would lock up a run
 * that would not have: the checkpoint waits (TARGET-M7.md, Checkpoints). */
static int m7_ckpt_frame_ok(struct target *t)
{
	uint32_t sp = rd(t, UC_ARM_REG_SP);
	uint32_t frame = (sp - 0x20u) & ~7u; /* CCR.STKALIGN is always 1 on the M7 */
	return (sp & 3) == 0 && in_ram(t, frame, 0x20) && in_ram(t, t->m7->exc.vtor + 4u * M7EXC_NMI, 4);
}

static int m7_ckpt(struct target *t, uint32_t a)
{
	struct m7cap *m = t->m7;
	if (m->in_ckpt && !(m->exc.active & (1ull << M7EXC_NMI))) {
		m->in_ckpt = 0;
		if (t->ckpt_busy) {
			target_fail(t, CITCAT_ERR_TARGET,
				    "the checkpoint's NMI handler returned (before pc 0x%08x) without running the CITCAT driver: "
				    "checkpoints on the Cortex-M7 need the BSP's NMI handler (citcat_ckpt_entry, examples/bsp-m7); "
				    "firmware that defines NMI_Handler cannot be checkpointed",
				    a);
			return 1;
		}
	}
	if (!ckpt_due(t))
		return 0;
	int ep = m7exc_exec_priority(&m->exc);
	if (ep == INT_MIN) {
		target_fail(t, CITCAT_ERR_UNICORN, "checkpoint at pc 0x%08x: register read failed", a);
		return 1;
	}
	if (ep < 0)
		return 0; /* HardFault or the firmware's NMI active, or FAULTMASK: the checkpoint waits */
	if (!m7_ckpt_frame_ok(t))
		return 0; /* its stacking or vector read would fail at priority -2: it waits */
	struct citcat_cat_event ev = {.kind = CITCAT_CAT_EXC, .value = M7EXC_NMI, .pc = a, .bcount = t->bcount};
	bus_marker(&t->bus, &ev);
	m7entry_start(&m->entry);
	int rc = m7exc_enter(&m->exc, M7EXC_NMI, a);
	if (rc == M7EXC_E_NOHANDLER || rc == M7EXC_E_VECTOR) {
		m7entry_end(&m->entry);
		target_fail(t, CITCAT_ERR_TARGET,
			    "checkpoint at pc 0x%08x: the NMI vector (VTOR + 8) is %s; checkpoints on the Cortex-M7 need "
			    "the BSP's NMI handler (citcat_ckpt_entry): rebuild the firmware with the current examples/bsp-m7",
			    a, rc == M7EXC_E_NOHANDLER ? "0" : "not a Thumb address");
		return 1;
	}
	collect_end(t, rc);
	t->ckpt_busy = 1;
	t->ckpt_count++;
	m->in_ckpt = 1;
	return 1;
}

/* The precise BusFault noted by an MMIO callback of the instruction that
 * retired last (m7exc_precise_note: m7_dev_read, scs_read, scs_write),
 * taken at the first hook after it, before anything else there: the
 * registers the instruction wrote restored, then as for an unmapped access
 * (hook_unmapped_m7): the instruction keeps its record, the entry follows. */
static void take_precise(struct target *t)
{
	struct m7cap *m = t->m7;
	m7entry_start(&m->entry);
	int rc = m7exc_precise_take(&m->exc);
	collect_end(t, rc);
}

static void hook_code_m7(uc_engine *uc, uint64_t address, uint32_t size, void *ctx)
{
	struct target *t = ctx;
	struct m7cap *m = t->m7;
	uint32_t a = (uint32_t)address;

	if (m->exc.pf.on && !t->faulted && !t->failed) { /* a device or SCS bus error of the last instruction */
		take_precise(t);
		return; /* the instruction at A does not execute now (A is the fault's handler or the stop) */
	}
	if (target_boundary_begin(t, a)) /* as on the A target (target.c) */
		return;
	if ((t->cfg->max_insns && t->insns >= t->cfg->max_insns) || t->interrupt_pending) {
		t->stop_reason = t->interrupt_pending ? CITCAT_STOP_INTERRUPTED : CITCAT_STOP_LIMIT;
		t->stop_pc = a;
		target_trace_stop(t, t->stop_reason);
		t->stop_request = 1;
		uc_emu_stop(uc);
		return;
	}
	if (m->exc.reset_request) {
		snprintf(t->stop_detail, sizeof t->stop_detail, "AIRCR.SYSRESETREQ (reset is not modelled) before pc 0x%08x", a);
		target_fault(t, CITCAT_FAULT_EXCEPTION, a, M7EXC_RESET, t->stop_detail);
		return;
	}
	systick_catch_up(t);
	if (t->bus.cycle >= t->next_event)
		target_devices_advance(t, a);
	wire_lines(t);
	if (t->failed)
		return;
	if (t->cfg->checkpoint_every && !t->itstate && m7_ckpt(t, a)) /* before any other exception */
		return;
	if (m->exc.pending && !t->itstate) { /* never inside an IT block (TARGET-M7.md) */
		int n = m7exc_next_entry(&m->exc);
		if (n < 0) {
			m7_error(t, n);
			return;
		}
		if (n > 0) {
			struct citcat_cat_event ev = {.kind = CITCAT_CAT_EXC, .value = (uint64_t)n, .pc = a,
						      .bcount = t->bcount};
			bus_marker(&t->bus, &ev);
			if (t->lvt && t->synced)
				lvt_tm_irq(t->lvt, (unsigned)n, a, t->bcount);
			m7entry_start(&m->entry);
			int rc = m7exc_boundary(&m->exc, a);
			collect_end(t, rc);
			return; /* the instruction at A does not execute now */
		}
	}
	if (a - t->ram_base >= t->ram_size || t->ram_size - (a - t->ram_base) < size) {
		target_fault(t, CITCAT_FAULT_FETCH, a, a, "instruction fetch outside RAM");
		return;
	}
	uint32_t word = thumb_word_at(t->ram + (a - t->ram_base), size);
	int in_it = t->itstate != 0;
	/* before the trace start point: a spin nothing can leave (target.c);
	 * the masks do not count here, only whether anything can ever be pending */
	if (!t->synced && !t->ended && target_spin_check(t, a, word, size, 1, 0, &m7_wake))
		return;
	m->insn_in_it = in_it;
	m->it_at = t->itstate;
	if (target_retire(t, a, size, word, 1))
		return;
	if (thumb_is_wfi(word, size)) {
		if (in_it) {
			target_fail(t, CITCAT_ERR_TARGET, "conditional WFI at 0x%08x is not supported", a);
			return;
		}
		if (target_wfi_sleep(t, a, &m7_wake))
			return;
		thumb_wfi_retire(uc, a, size, 1);
	}
	if (t->cfg->progress && (t->insns & 0xfffff) == 0 && t->cfg->progress(t->cfg->progress_ctx, t->insns))
		t->interrupt_pending = 1;
}

static void hook_intr_m7(uc_engine *uc, uint32_t intno, void *ctx)
{
	struct target *t = ctx;
	struct m7cap *m = t->m7;
	if (t->faulted || t->failed) {
		uc_emu_stop(uc); /* again: Unicorn may have dropped the first (boundary_begin) */
		return;
	}
	uint32_t pc = rd(t, UC_ARM_REG_PC);
	int rc;
	m7entry_start(&m->entry);
	if (m7exc_intr(&m->exc, intno, pc, t->last_pc, &rc)) {
		m7entry_end(&m->entry);
		target_fault(t, CITCAT_FAULT_ABORT, t->last_pc, 0, "unexpected Cortex-M7 exception from Unicorn");
		return;
	}
	collect_end(t, rc);
}

/* An access to an unmapped address (nothing in RAM, the device window or
 * the SCS: TARGET-M7.md, Faults), a BusFault taken here; m->resume tells
 * the run loop to go on at the handler (Unicorn abandons the instruction
 * and uc_emu_start fails: tests/test_unicorn_m_fault.c).
 *  - A data access: PRECISERR of the instruction at last_pc, which does not
 *    complete.
 *  - An instruction fetch: IBUSERR of the instruction at PC (Unicorn leaves
 *    PC on it; ADDR is the halfword it could not fetch, PC + 2 for a 32-bit
 *    instruction straddling the end of RAM), which does not execute and has
 *    no record.  No code hook ran for it, so its boundary is begun here, as
 *    the code hook would: the previous record closed, the branch-counter
 *    rule applied; no event is sampled there (the handler's first
 *    instruction is the next boundary).
 * Inside an IT block either stacks the faulting instruction's ITSTATE (a
 * data access: it_at; a fetch: the ITSTATE once its boundary has retired
 * the condition-failed instructions before it), and the return resumes in
 * the block (it_resume; TARGET-M7.md, "IT blocks and bus errors"). */
static bool hook_unmapped_m7(uc_engine *uc, uc_mem_type type, uint64_t addr, int size, int64_t value, void *ctx)
{
	struct target *t = ctx;
	struct m7cap *m = t->m7;
	if (t->faulted || t->failed)
		return m->unmapped_a(uc, type, addr, size, value, ctx);
	if (m->resume && type != UC_MEM_FETCH_UNMAPPED)
		return false; /* the same store again: Unicorn's byte loop of a store crossing a page runs on after
			       * its first byte outside RAM (tests/ramend.sh); its BusFault is taken */
	if (m->exc.pf.on) { /* an ldm or stm that ran from a device or the SCS into nothing: the first error */
		take_precise(t);
		m->resume = !t->faulted && !t->failed;
		return false;
	}
	if (type == UC_MEM_FETCH_UNMAPPED) {
		uint32_t pc = rd(t, UC_ARM_REG_PC) & ~1u;
		if (target_boundary_begin(t, pc)) { /* the firmware's exit, due here: the loop ends */
			m->resume = 1;
			return false;
		}
		/* inside an IT block: the boundary retired the condition-failed
		 * instructions before PC, so ITSTATE is the faulting one's */
		m->exc.it_entry = t->itstate;
		m7entry_start(&m->entry);
		int rc = m7exc_fault(&m->exc, M7EXC_F_IBUSERR, pc, 0);
		collect_end(t, rc);
		m->resume = rc > 0 && !t->faulted && !t->failed;
		return false;
	}
	m7entry_start(&m->entry);
	m->exc.it_entry = m->it_at; /* inside an IT block: its ITSTATE is stacked */
	int rc = m7exc_fault(&m->exc, M7EXC_F_PRECISERR, t->last_pc, (uint32_t)addr);
	collect_end(t, rc);
	m->resume = rc > 0 && !t->faulted && !t->failed;
	return false;
}

int target_m7_resume(struct target *t)
{
	int r = t->m7->resume;
	t->m7->resume = 0;
	return r;
}

static bool hook_invalid_m7(uc_engine *uc, void *ctx)
{
	struct target *t = ctx;
	struct m7cap *m = t->m7;
	if (t->faulted || t->failed)
		return false;
	m7entry_start(&m->entry);
	int rc = m7exc_fault(&m->exc, M7EXC_F_UNDEFINSTR, t->last_pc, 0);
	collect_end(t, rc);
	return rc >= 0;
}

/* A read of the device window: one no device serves (target_dev_readable,
 * the static table every replayer asks too), or not 4 bytes aligned, is a
 * precise BusFault of the instruction (m7exc_precise_note, taken at the
 * next hook); inside an IT block it stops the capture as on the A target
 * (TARGET-M7.md, "BusFault (device and SCS bus errors)"). */
static uint64_t m7_dev_read(uc_engine *uc, uint64_t off, unsigned size, void *ctx)
{
	struct target *t = ctx;
	struct m7cap *m = t->m7;
	if (!t->faulted && !t->failed && !m->insn_in_it &&
	    (m->exc.pf.on || size != 4 || (off & 3) || !target_dev_readable((uint32_t)off)))
		return m7exc_precise_note(&m->exc, t->last_pc, t->cfg->target.dev_base + (uint32_t)off);
	return target_mmio_read(uc, off, size, ctx);
}

/* A write after a noted precise fault of the same instruction is not made. */
static void m7_dev_write(uc_engine *uc, uint64_t off, unsigned size, uint64_t value, void *ctx)
{
	struct target *t = ctx;
	if (t->m7->exc.pf.on)
		return;
	target_mmio_write(uc, off, size, value, ctx);
}

static uint64_t scs_read(uc_engine *uc, uint64_t off, unsigned size, void *ctx)
{
	struct target *t = ctx;
	struct m7cap *m = t->m7;
	uint32_t addr = M7EXC_SCS_BASE + (uint32_t)off, v = 0;
	if (t->faulted)
		return 0;
	if (!t->failed && !m->insn_in_it && m->exc.pf.on)
		return m7exc_precise_note(&m->exc, t->last_pc, addr);
	if (m7exc_scs_read(&m->exc, (uint32_t)off, size, &v)) {
		if (!t->failed && !m->insn_in_it) /* a precise BusFault (TARGET-M7.md) */
			return m7exc_precise_note(&m->exc, t->last_pc, addr);
		target_fault(t, CITCAT_FAULT_DEV_READ, t->last_pc, addr, "bus error: SCS read");
		return 0;
	}
	bus_uncached(&t->bus, addr, size, 0, v);
	if (t->lvt && t->synced) /* a device read: always traced (LVT.md) */
		lvt_tm_uread(t->lvt, v, size);
	target_oracle_access(t, addr, size, 0, v, 1);
	return v;
}

static void scs_write(uc_engine *uc, uint64_t off, unsigned size, uint64_t value, void *ctx)
{
	struct target *t = ctx;
	uint32_t addr = M7EXC_SCS_BASE + (uint32_t)off, v = (uint32_t)value;
	if (t->faulted || t->m7->exc.pf.on)
		return;
	/* an SCS write has no bus effect of its own, so it is made first: a
	 * refused one is a precise BusFault with no UWRITE (the SCS is
	 * strongly ordered, not buffered: TARGET-M7.md), inside an IT block a
	 * stop as for a device register */
	if (m7exc_scs_write(&t->m7->exc, (uint32_t)off, size, v)) {
		if (!t->failed && !t->m7->insn_in_it) {
			m7exc_precise_note(&t->m7->exc, t->last_pc, addr);
			return;
		}
		target_fault(t, CITCAT_FAULT_DEV_WRITE, t->last_pc, addr, "bus error: SCS write");
		return;
	}
	bus_uncached(&t->bus, addr, size, 1, v);
	target_oracle_access(t, addr, size, 1, v, 1);
}

uc_err target_m7_open(struct target *t, int bare)
{
	t->m7 = calloc(1, sizeof *t->m7);
	if (!t->m7)
		return UC_ERR_NOMEM;
	const struct citcat_target_config *c = &t->cfg->target;
	uc_err e = core_open_m7(&t->uc, t->ram_base, t->ram_size, t->ram, c->dev_base, c->dev_size,
				bare ? NULL : m7_dev_read, m7_dev_write, bare ? NULL : scs_read, scs_write, t);
	if (!e)
		m7exc_init(&t->m7->exc, t->uc, (struct m7exc_bus){m7_bus, t});
	return e;
}

uc_err target_m7_add_hooks(struct target *t, struct core_hooks h)
{
	h.code = hook_code_m7;
	h.intr = hook_intr_m7;
	t->m7->unmapped_a = h.unmapped;
	h.unmapped = hook_unmapped_m7;
	return core_add_hooks_m7(t->uc, &h, hook_invalid_m7, t, t->ram_base, t->ram_size);
}

int target_m7_reset(struct target *t, uint32_t *pc)
{
	int rc = m7exc_reset_core(&t->m7->exc);
	if (rc < 0) {
		const struct m7exc *m = &t->m7->exc;
		return target_fail(t, CITCAT_ERR_TARGET,
				   "Cortex-M7 reset: %s (vector table word at 0x%08x): no vector table at 0? citcat's BSP "
				   "(examples/bsp-m7) places one there",
				   m->err_what ? m->err_what : "failed", m->err_addr);
	}
	*pc = rd(t, UC_ARM_REG_PC) | 1u;
	return 0;
}

uint32_t target_m7_resume_pc(struct target *t) { return rd(t, UC_ARM_REG_PC) | 1u; }

int target_m7_check(struct target *t, const char *elf)
{
	int prof = cc_elf_arm_profile(elf);
	int m7 = t->cfg->target.isa == CITCAT_TARGET_CORTEX_M7;
	if (m7 && (prof == 'A' || prof == 'R'))
		return target_fail(t, CITCAT_ERR_TARGET,
				   "%s is built for the ARMv7-%c profile; capture it with --target armv7-a, not cortex-m7",
				   elf, prof);
	if (!m7 && prof == 'M')
		return target_fail(t, CITCAT_ERR_TARGET,
				   "%s is built for the M profile (Cortex-M); capture it with --target cortex-m7", elf);
	return 0;
}

void target_m7_free(struct target *t)
{
	free(t->m7);
	t->m7 = NULL;
}
