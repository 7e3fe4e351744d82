/* The Cortex-M7 part of the replayer (replay_m7.h).  Every m7exc call is
 * the capture model's (capture/target_m7.c) at the same point of the same
 * instruction, and the model's memory accesses go through the same D-side
 * path (bus_data, then the RAM write), so the regenerated bus trace and the
 * oracle's entry records match the recorded ones access for access. */
#include "replay_m7.h"
#include "target_int.h"

#include <stdio.h>
#include <string.h>

#define XPSR_IPSR 0x1ffu

static uint32_t rd(uc_engine *uc, int reg)
{
	uint32_t v = 0;
	uc_reg_read(uc, reg, &v);
	return v;
}

int replay_m7_set_state(uc_engine *uc, const struct arm_state *regs)
{
	static const int gpr[13] = {UC_ARM_REG_R0, UC_ARM_REG_R1, UC_ARM_REG_R2, UC_ARM_REG_R3, UC_ARM_REG_R4,
				    UC_ARM_REG_R5, UC_ARM_REG_R6, UC_ARM_REG_R7, UC_ARM_REG_R8, UC_ARM_REG_R9,
				    UC_ARM_REG_R10, UC_ARM_REG_R11, UC_ARM_REG_R12};
	/* the special registers go through QEMU's MSR, which ignores them
	 * unprivileged (tests/test_unicorn_m.c): write them in handler mode,
	 * where CONTROL takes every bit without swapping SP */
	const struct {
		int reg;
		unsigned slot;
	} special[] = {{UC_ARM_REG_MSP, M7_SLOT_MSP},
		       {UC_ARM_REG_PSP, M7_SLOT_PSP},
		       {UC_ARM_REG_PRIMASK, M7_SLOT_PRIMASK},
		       {UC_ARM_REG_BASEPRI, M7_SLOT_BASEPRI},
		       {UC_ARM_REG_FAULTMASK, M7_SLOT_FAULTMASK},
		       {UC_ARM_REG_CONTROL, M7_SLOT_CONTROL}};
	uint32_t handler = (1u << 24) | 1u, v;
	if (uc_reg_write(uc, UC_ARM_REG_XPSR, &handler))
		return -1;
	for (unsigned i = 0; i < sizeof special / sizeof *special; i++)
		if (uc_reg_write(uc, special[i].reg, &regs->slot[special[i].slot]))
			return -1;
	/* the dumped mode: SP becomes MSP or PSP as CONTROL.SPSEL says; GE too
	 * (a checkpoint in code that ran UADD8 or SEL, e.g. newlib's strlen) */
	if (core_m7_write_xpsr(uc, regs->slot[M7_SLOT_XPSR]))
		return -1;
	for (int i = 0; i < 13; i++)
		if (uc_reg_write(uc, gpr[i], &regs->slot[i]))
			return -1;
	v = regs->slot[M7_SLOT_PC] | 1u;
	if (uc_reg_write(uc, UC_ARM_REG_LR, &regs->slot[M7_SLOT_LR]) || uc_reg_write(uc, UC_ARM_REG_PC, &v))
		return -1;
	return rd(uc, UC_ARM_REG_SP) != regs->slot[M7_SLOT_SP] || rd(uc, UC_ARM_REG_CONTROL) != regs->slot[M7_SLOT_CONTROL];
}

/* The data side for the exception model, as the capture's m7_bus: one
 * aligned word through the D-cache; a read needs bytes the IMS holds or the
 * run wrote.  Accesses go to the entry record once a stacking write was
 * seen, else to the record of the instruction being retired (an exception
 * return's unstacking). */
static int m7_bus(void *ctx, uint32_t addr, int write, uint32_t *v)
{
	struct replay_m7 *m = ctx;
	struct replay_core *c = m->c;
	uint32_t off = addr - c->ram_base;
	if (c->failed || c->done)
		return -1;
	if (write)
		m7entry_write(&m->entry);
	if ((addr & 3) || off >= c->ram_size || c->ram_size - off < 4)
		return -1; /* STKERR, UNSTKERR, VECTTBL as the capture */
	if (!write && m->ops.load) { /* the LVT decoder: the value is the trace's */
		bus_data(&c->bus, addr, 4, 0, 0);
		if (m->ops.load(m->ops.ctx, addr, v))
			return -1;
		if (!m7entry_access(&m->entry, addr, write, *v))
			replay_add_access(c, addr, 4, write, *v, 0);
		return 0;
	}
	if (!write) {
		if (!replay_known_range(c, addr, 4)) {
			replay_diverge(c, "memory image", "an exception frame or vector the IMS holds",
				       "a 4-byte read of 0x%08x, which the IMS does not hold", addr);
			return -1;
		}
		memcpy(v, c->ram + off, 4);
	}
	/* a store reaches the model (or, with the model thread, the log with
	 * its value for the thread's RAM copy) before RAM, as Unicorn's own */
	bus_data(&c->bus, addr, 4, write, *v);
	if (m->ops.access)
		m->ops.access(m->ops.ctx, addr, write);
	if (write) {
		if (uc_mem_write(c->uc, addr, v, 4)) /* drops any translation of the word too */
			return -1;
		for (unsigned i = 0; i < 4; i++)
			replay_kset(c->known, off + i);
		if (m->ops.store)
			m->ops.store(m->ops.ctx, addr);
	}
	if (!m7entry_access(&m->entry, addr, write, *v))
		replay_add_access(c, addr, 4, write, *v, 0);
	return 0;
}

int replay_m7_open(struct replay_m7 *m, struct replay_core *c, const char *ims_path, uint32_t dev_base,
		   uint32_t dev_size, uc_cb_mmio_read_t read, uc_cb_mmio_write_t write, uc_cb_mmio_read_t scs_read,
		   uc_cb_mmio_write_t scs_write, const struct core_hooks *h, uc_cb_hookinsn_invalid_t invalid, void *ctx,
		   const struct arm_state *regs)
{
	m->c = c;
	/* a segment that starts at a checkpoint: in its NMI, with the SCS state
	 * (slots 23..38, TARGET-M7.md "Checkpoints"; the IMS reader checked it) */
	int ckpt = (regs->slot[M7_SLOT_XPSR] & XPSR_IPSR) == M7EXC_NMI && regs->slot[M7_SLOT_SCS + 2] != 0; /* CCR */
	if ((regs->slot[M7_SLOT_XPSR] & XPSR_IPSR) && !ckpt)
		return replay_fail(c, NULL, CITCAT_ERR_UNSUPPORTED, UINT64_MAX,
				   "%s: the trace starts in handler mode (exception %u active at P); the Cortex-M7 replay "
				   "starts in thread mode with no exception active (call citcat_trace_start from thread mode)",
				   ims_path, regs->slot[M7_SLOT_XPSR] & XPSR_IPSR);
	uc_err ue = core_open_m7(&c->uc, c->ram_base, c->ram_size, c->ram, dev_base, dev_size, read, write, scs_read,
				 scs_write, ctx);
	if (!ue)
		ue = core_add_hooks_m7(c->uc, h, invalid, ctx, c->ram_base, c->ram_size);
	if (ue)
		return replay_fail(c, NULL, CITCAT_ERR_UNICORN, UINT64_MAX, "Unicorn set-up failed: %s", uc_strerror(ue));
	m7exc_init(&m->exc, c->uc, (struct m7exc_bus){m7_bus, m});
	if (ckpt && m7exc_load_ckpt(&m->exc, &regs->slot[M7_SLOT_SCS]))
		return replay_fail(c, NULL, CITCAT_ERR_CORRUPT, UINT64_MAX,
				   "%s: the checkpoint's SCS state (register slots 23..38) does not load", ims_path);
	m->ckpt = ckpt;
	int rc = replay_m7_set_state(c->uc, regs);
	if (rc < 0)
		return replay_fail(c, NULL, CITCAT_ERR_UNICORN, UINT64_MAX, "Unicorn: setting the Cortex-M7 registers failed");
	if (rc)
		return replay_fail(c, NULL, CITCAT_ERR_CORRUPT, UINT64_MAX,
				   "%s: the register dump is inconsistent (SP 0x%08x is not the MSP or PSP that CONTROL "
				   "0x%x selects, or CONTROL does not hold)",
				   ims_path, regs->slot[M7_SLOT_SP], regs->slot[M7_SLOT_CONTROL]);
	c->expect_pc = regs->slot[M7_SLOT_PC] & ~1u;
	return 0;
}

/* After an m7exc call that returned RC, as the capture's collect_end: an
 * exception that cannot be taken is the recorded end or a divergence; an
 * entry's record follows the record of the instruction retired last, and
 * the next boundary is not a branch. */
static void collect_end(struct replay_m7 *m, int rc)
{
	struct replay_core *c = m->c;
	int entered = m7entry_end(&m->entry);
	if (c->failed || c->done)
		return;
	if (rc < 0) {
		const struct m7exc *x = &m->exc;
		if ((rc == M7EXC_E_NOHANDLER || rc == M7EXC_E_VECTOR || rc == M7EXC_E_LOCKUP) &&
		    m->ops.fault(m->ops.ctx, CITCAT_FAULT_EXCEPTION, x->err_pc, (uint32_t)x->err_exc))
			return;
		/* the reset vectors outside RAM: the capture's data bus error (target_m7.c, m7_error) */
		if (rc == M7EXC_E_BUS &&
		    m->ops.fault(m->ops.ctx, x->err_what && strstr(x->err_what, "write") ? CITCAT_FAULT_WRITE : CITCAT_FAULT_READ,
				 x->err_pc, x->err_addr))
			return;
		replay_diverge(c, "exception", "the exception to be taken as recorded", "%s %s at pc 0x%08x (%s)",
			       m7exc_name(x->err_exc), x->err_what ? x->err_what : "", x->err_pc,
			       rc == M7EXC_E_NOHANDLER ? "no handler"
			       : rc == M7EXC_E_VECTOR ? "vector not Thumb"
			       : rc == M7EXC_E_LOCKUP ? "lockup"
						      : "the exception model failed");
		return;
	}
	if (!entered) { /* a plain exception return */
		if (m->exc.it_return) { /* into an IT block: as the capture's it_resume */
			uint32_t x = rd(c->uc, UC_ARM_REG_PC) & ~1u;
			if (core_branched(x, c->expect_pc, c->after_exception))
				c->bcount++;
			c->expect_pc = x;
			c->itstate = m->exc.it_return;
		}
		return;
	}
	c->after_exception = 1;
	c->itstate = 0;
	m->ops.close(m->ops.ctx);
	const struct citcat_itrace_rec *r = m7entry_record(&m->entry, c->uc, m->exc.entry_ret);
	if (r)
		m->ops.emit(m->ops.ctx, r);
}

int replay_m7_enter(struct replay_m7 *m, int exc, uint32_t a)
{
	struct replay_core *c = m->c;
	struct citcat_cat_event ev = {.kind = CITCAT_CAT_EXC, .value = (uint64_t)exc, .pc = a, .bcount = c->bcount};
	bus_marker(&c->bus, &ev);
	if (c->failed)
		return 0;
	c->irq_seen = 1;
	c->irq_line = (unsigned)exc;
	c->irq_epc = a;
	c->irq_index = c->insns;
	m7entry_start(&m->entry);
	int rc = m7exc_enter(&m->exc, exc, a);
	collect_end(m, rc);
	if (rc < 0 || c->failed)
		return 0;
	c->res->irqs++;
	return 1;
}

void replay_m7_intr(struct replay_m7 *m, uint32_t intno)
{
	struct replay_core *c = m->c;
	if (c->failed || c->done) {
		uc_emu_stop(c->uc); /* again, as hook_code does */
		return;
	}
	uint32_t pc = rd(c->uc, UC_ARM_REG_PC);
	int rc;
	m7entry_start(&m->entry);
	if (m7exc_intr(&m->exc, intno, pc, c->cur_pc, &rc)) {
		m7entry_end(&m->entry);
		if (!m->ops.fault(m->ops.ctx, CITCAT_FAULT_ABORT, c->cur_pc, 0))
			replay_diverge(c, "exception", "the recorded run to continue", "Unicorn exception %u at 0x%08x",
				       intno, c->cur_pc);
		return;
	}
	collect_end(m, rc);
}

int replay_m7_unmapped(struct replay_m7 *m, uc_mem_type type, uint32_t addr)
{
	struct replay_core *c = m->c;
	if (c->failed || c->done)
		return 0;
	if (c->resume && type != UC_MEM_FETCH_UNMAPPED)
		return 1; /* the same store again, as in the capture (target_m7.c, hook_unmapped_m7) */
	if (m->exc.pf.on) { /* an ldm or stm that ran from a device or the SCS into nothing: the first error */
		replay_m7_precise_take(m);
		c->resume = !c->failed && !c->done;
		return 1;
	}
	if (type == UC_MEM_FETCH_UNMAPPED) {
		/* IBUSERR of the instruction at PC, as the capture model takes it
		 * (capture/target_m7.c, hook_unmapped_m7): its boundary begun here
		 * (no code hook ran for it), no event sampled there; inside an IT
		 * block the condition-failed instructions before it retired first
		 * and its ITSTATE stacked */
		uint32_t pc = 0;
		uc_reg_read(c->uc, UC_ARM_REG_PC, &pc);
		pc &= ~1u;
		m->ops.close(m->ops.ctx);
		if (c->itstate && !c->after_exception)
			m->ops.skipped(m->ops.ctx, pc);
		if (c->failed || c->done)
			return 1;
		replay_boundary(c, pc);
		m->exc.it_entry = c->itstate;
		m7entry_start(&m->entry);
		int rc = m7exc_fault(&m->exc, M7EXC_F_IBUSERR, pc, 0);
		collect_end(m, rc);
		c->resume = rc > 0 && !c->failed && !c->done;
		return 1;
	}
	m7entry_start(&m->entry);
	m->exc.it_entry = c->it_at; /* inside an IT block: its ITSTATE is stacked */
	int rc = m7exc_fault(&m->exc, M7EXC_F_PRECISERR, c->cur_pc, addr);
	collect_end(m, rc);
	c->resume = rc > 0 && !c->failed && !c->done;
	return 1;
}

/* ---- precise device and SCS bus errors (TARGET-M7.md, "BusFault (device
 * and SCS bus errors)"), as the capture's m7_dev_read, scs_read, scs_write
 * and take_precise (capture/target_m7.c) ---- */

int replay_m7_precise_on(const struct replay_m7 *m) { return m->exc.pf.on; }

static int precise_ok(const struct replay_m7 *m)
{
	return !m->c->failed && !m->c->done && !m->c->insn_in_it;
}

int replay_m7_dev_read_fault(struct replay_m7 *m, uint32_t off, unsigned size, uint32_t addr, uint64_t *v)
{
	if (!precise_ok(m) || !(m->exc.pf.on || size != 4 || (off & 3) || !target_dev_readable(off)))
		return 0;
	*v = m7exc_precise_note(&m->exc, m->c->cur_pc, addr);
	return 1;
}

int replay_m7_scs_read_fault(struct replay_m7 *m, uint32_t off, unsigned size, uint64_t *v)
{
	if (!precise_ok(m))
		return 0;
	if (!m->exc.pf.on) {
		struct m7exc probe = m->exc; /* the capture's read, without its effects (COUNTFLAG) */
		uint32_t w;
		if (!m7exc_scs_read(&probe, off, size, &w))
			return 0;
	}
	*v = m7exc_precise_note(&m->exc, m->c->cur_pc, M7EXC_SCS_BASE + off);
	return 1;
}

int replay_m7_scs_write_fault(struct replay_m7 *m, uint32_t off)
{
	if (!precise_ok(m))
		return 0;
	m7exc_precise_note(&m->exc, m->c->cur_pc, M7EXC_SCS_BASE + off);
	return 1;
}

int replay_m7_precise_take(struct replay_m7 *m)
{
	if (!m->exc.pf.on)
		return 0;
	if (m->c->failed || m->c->done) {
		m->exc.pf.on = 0;
		return 0;
	}
	m7entry_start(&m->entry);
	int rc = m7exc_precise_take(&m->exc);
	collect_end(m, rc);
	return 1;
}

int replay_m7_invalid(struct replay_m7 *m)
{
	struct replay_core *c = m->c;
	if (c->failed || c->done)
		return 0;
	m7entry_start(&m->entry);
	int rc = m7exc_fault(&m->exc, M7EXC_F_UNDEFINSTR, c->cur_pc, 0);
	collect_end(m, rc);
	return rc >= 0 && !c->failed && !c->done;
}

int replay_m7_scs_write(struct replay_m7 *m, uint32_t off, unsigned size, uint32_t v)
{
	return m7exc_scs_write(&m->exc, off, size, v) ? -1 : 0;
}

static int scs_differs(struct replay_m7 *m, uint32_t off, unsigned size, uint32_t v, uint32_t *model)
{
	uint32_t mask;
	if (off == 0xD08 || off == 0xD0C || off == 0xD14) /* VTOR, AIRCR (PRIGROUP), CCR */
		mask = 0xFFFFFFFFu;
	else if (off == 0xD24) /* SHCSR: the fault enables and active bits (the pended bits are not kept at P) */
		mask = (7u << 16) | 0xD8Bu;
	else if (off == 0x300) /* IABR0: exact from P (nothing active) or P_k (TARGET-M7.md, Checkpoints) */
		mask = 0xFFFFFFFFu;
	else if ((off >= 0xD18 && off < 0xD24) || (off >= 0x400 && off < 0x420)) /* SHPR1-3, IPR0-7 */
		mask = size == 4 ? 0xFFFFFFFFu : (1u << (8 * size)) - 1;
	else
		return 0;
	if (m7exc_scs_read(&m->exc, off, size, model))
		return 0; /* a refused read is the recorded end or a divergence already */
	return ((*model ^ v) & mask) != 0;
}

void replay_m7_scs_check(struct replay_m7 *m, uint32_t off, unsigned size, uint32_t v)
{
	struct replay_core *c = m->c;
	uint32_t model;
	if (c->failed || c->done || !scs_differs(m, off, size, v, &model))
		return;
	replay_diverge(c, "SCS state",
		       m->ckpt ? "the value the replay's exception model holds (from the segment's checkpoint, "
				 "whose SCS state lacks it?)"
			       : "the value the replay's exception model holds (set before P?)",
		       "0x%08x read from 0x%08x, the model holds 0x%08x", v, M7EXC_SCS_BASE + off, model);
}

int replay_m7_dev_write_dropped(struct replay_m7 *m, uint32_t off, unsigned size)
{
	if (m->exc.pf.on)
		return 1; /* after a precise fault of the same instruction: not made */
	if (off >= CITCAT_DEV_SIZE) /* not the SCS */
		return 0;
	if (size == 4 && !(off & 3) && target_dev_writable(off))
		return 0;
	m7exc_imprecise(&m->exc);
	return 1;
}
