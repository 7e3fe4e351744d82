/* The Cortex-M7 exception model (m7exc.h, TARGET-M7.md).  The pseudo-code
 * followed is ARMv7-M's (DDI 0403E, B1.5): ExecutionPriority, PushStack +
 * ExceptionTaken, ExceptionReturn + PopStack, with the choices TARGET-M7.md
 * states where the architecture leaves one (access order, no tail-chaining,
 * how a bad EXC_RETURN is handled).
 *
 * Unicorn facts used (tests/test_unicorn_m.c): writing XPSR/IPSR changes
 * mode and swaps SP like the hardware; CONTROL, MSP, PSP, PRIMASK, BASEPRI,
 * FAULTMASK go through QEMU's MRS/MSR with their privilege check, so they
 * are written in handler mode (privileged), where a CONTROL write takes
 * every bit without swapping SP; a PC written must be odd (Thumb). */
#include "m7exc.h"

/* an SCS register's offset, by its name in the shared map (citcat_m7_regs.h) */
#define R(name) CITCAT_M7_SCS_OFF(CITCAT_M7_##name)

#include <limits.h>
#include <stdio.h>
#include <string.h>

#define BIT(e) (1ull << (e))

#define XPSR_T (1u << 24)
#define XPSR_ALIGN (1u << 9)
#define XPSR_KEEP 0xF80F0000u /* N Z C V Q and GE: what exception entry keeps */
#define XPSR_IT 0x0600FC00u   /* IT[1:0] at 26:25, IT[7:2] at 15:10 */

static uint32_t it_to_xpsr(uint8_t it) { return ((uint32_t)(it & 3u) << 25) | ((uint32_t)(it >> 2) << 10); }
static uint8_t it_from_xpsr(uint32_t x) { return (uint8_t)(((x >> 25) & 3u) | (((x >> 10) & 0x3fu) << 2)); }
#define CONTROL_NPRIV 1u
#define CONTROL_SPSEL 2u
#define CONTROL_FPCA 4u

#define CCR_NONBASETHRDENA (1u << 0)
#define CCR_STKALIGN (1u << 9)
#define CCR_RESET 0x00040200u    /* BP (RO 1), STKALIGN (RO 1 on the M7) */
#define CCR_WRITABLE 0x0003011Bu /* IC DC BFHFNMIGN DIV_0_TRP UNALIGN_TRP USERSETMPEND NONBASETHRDENA */

#define SHCSR_ENA_SHIFT CITCAT_M7_SHCSR_ENA_SHIFT /* MEMFAULTENA, BUSFAULTENA, USGFAULTENA: bits 16..18 */

#define HFSR_FORCED CITCAT_M7_HFSR_FORCED
#define HFSR_DEBUGEVT CITCAT_M7_HFSR_DEBUGEVT

#define ST_ENABLE CITCAT_M7_SYST_ENABLE
#define ST_TICKINT CITCAT_M7_SYST_TICKINT
#define ST_CLKSOURCE CITCAT_M7_SYST_CLKSOURCE
#define ST_COUNTFLAG CITCAT_M7_SYST_COUNTFLAG
#define ST_CALIB 0xC0000000u /* NOREF, SKEW, TENMS 0 */

void m7exc_init(struct m7exc *m, uc_engine *uc, struct m7exc_bus bus)
{
	memset(m, 0, sizeof *m);
	m->uc = uc;
	m->bus = bus;
	m->ccr = CCR_RESET;
}

static int rd(struct m7exc *m, int reg, uint32_t *v)
{
	return uc_reg_read(m->uc, reg, v) ? M7EXC_E_UC : 0;
}

static int wr(struct m7exc *m, int reg, uint32_t v)
{
	return uc_reg_write(m->uc, reg, &v) ? M7EXC_E_UC : 0;
}

static int fail(struct m7exc *m, int code, int exc, uint32_t pc, uint32_t addr, const char *what)
{
	m->err_exc = exc;
	m->err_pc = pc;
	m->err_addr = addr;
	m->err_what = what;
	return code;
}

static int exc_prio(const struct m7exc *m, int e)
{
	return e == M7EXC_RESET ? -3 : e == M7EXC_NMI ? -2 : e == M7EXC_HARDFAULT ? -1 : m->prio[e];
}

/* the group priority of priority P under AIRCR.PRIGROUP */
static int group(const struct m7exc *m, int p)
{
	if (p < 0)
		return p;
	int gv = 2 << m->prigroup;
	return p - p % gv;
}

/* PRIMASK, BASEPRI and FAULTMASK read 0 through MRS when unprivileged
 * (thread mode, CONTROL.nPRIV = 1), though they still act: read them from
 * handler mode for that moment. */
static int read_masks(struct m7exc *m, uint32_t *pm, uint32_t *bp, uint32_t *fm)
{
	uint32_t xpsr, control;
	int e = rd(m, UC_ARM_REG_XPSR, &xpsr);
	if (!e)
		e = rd(m, UC_ARM_REG_CONTROL, &control);
	int window = !e && (xpsr & 0x1ff) == 0 && (control & CONTROL_NPRIV);
	if (window)
		e = wr(m, UC_ARM_REG_XPSR, xpsr | 1u);
	if (!e)
		e = rd(m, UC_ARM_REG_PRIMASK, pm);
	if (!e)
		e = rd(m, UC_ARM_REG_BASEPRI, bp);
	if (!e)
		e = rd(m, UC_ARM_REG_FAULTMASK, fm);
	if (window && !e)
		e = wr(m, UC_ARM_REG_XPSR, xpsr);
	return e;
}

int m7exc_exec_priority(struct m7exc *m)
{
	int high = 256, boosted = 256;
	for (int e = 1; e < M7EXC_NEXC; e++)
		if ((m->active & BIT(e)) && group(m, exc_prio(m, e)) < high)
			high = group(m, exc_prio(m, e));
	uint32_t pm, bp, fm;
	if (read_masks(m, &pm, &bp, &fm))
		return INT_MIN;
	if (bp & M7EXC_PRIO_MASK)
		boosted = group(m, (int)(bp & M7EXC_PRIO_MASK));
	if (pm & 1)
		boosted = 0;
	if (fm & 1)
		boosted = -1;
	return high < boosted ? high : boosted;
}

/* The pending exception to take next: lowest priority value, then lowest
 * number; IRQs only when enabled.  -1 none. */
static int best_pending(const struct m7exc *m)
{
	int best = -1, bp = INT_MAX;
	for (int e = 2; e < M7EXC_NEXC; e++) {
		if (!(m->pending & BIT(e)))
			continue;
		if (e >= M7EXC_IRQ0 && !(m->irq_enable & (1u << (e - M7EXC_IRQ0))))
			continue;
		if (exc_prio(m, e) < bp) {
			bp = exc_prio(m, e);
			best = e;
		}
	}
	return best;
}

static int bus(struct m7exc *m, uint32_t addr, int write, uint32_t *v, int exc, uint32_t pc)
{
	if (m->bus.access(m->bus.ctx, addr, write, v))
		return fail(m, M7EXC_E_BUS, exc, pc, addr, write ? "stacking write failed" : "exception read failed");
	return 0;
}

#define CFSR_IMPRECISERR (1u << 10)
#define CFSR_UNSTKERR (1u << 11)
#define CFSR_STKERR (1u << 12)
#define HFSR_VECTTBL (1u << 1)

static int take_sync(struct m7exc *m, int exc, uint32_t pc, uint32_t addr, const char *what);

/* The fault status bits set, into the registers and into those set since
 * the last mark (m7exc_fault_status) */
static inline void set_cfsr(struct m7exc *m, uint32_t bits)
{
	m->cfsr |= bits;
	m->cfsr_new |= bits;
}

static inline void set_hfsr(struct m7exc *m, uint32_t bits)
{
	m->hfsr |= bits;
	m->hfsr_new |= bits;
}

/* A derived BusFault (STKERR) after an entry that has been made: pending
 * BusFault when it is enabled and its group priority is below the
 * execution priority now (the entered exception active), else pending
 * HardFault (HFSR.FORCED), else (execution priority -1 or lower) lockup.
 * Taken at the next boundary, the handler's first instruction, by the usual
 * rules (TARGET-M7.md, "Stacking, unstacking and vector-read errors"). */
static int derive_stkerr(struct m7exc *m, int exc, uint32_t ret)
{
	set_cfsr(m, CFSR_STKERR);
	int ep = m7exc_exec_priority(m);
	if (ep == INT_MIN)
		return fail(m, M7EXC_E_UC, exc, ret, 0, "register read failed");
	if ((m->shcsr_ena & (1u << (M7EXC_BUSFAULT - M7EXC_MEMMANAGE))) && group(m, exc_prio(m, M7EXC_BUSFAULT)) < ep) {
		m->pending |= BIT(M7EXC_BUSFAULT);
		return 1;
	}
	if (ep <= -1)
		return fail(m, M7EXC_E_LOCKUP, exc, ret, 0, "STKERR");
	set_hfsr(m, HFSR_FORCED);
	m->pending |= BIT(M7EXC_HARDFAULT);
	return 1;
}

void m7exc_imprecise(struct m7exc *m)
{
	set_cfsr(m, CFSR_IMPRECISERR);
	if (m->shcsr_ena & (1u << (M7EXC_BUSFAULT - M7EXC_MEMMANAGE))) {
		m->pending |= BIT(M7EXC_BUSFAULT);
		return;
	}
	set_hfsr(m, HFSR_FORCED);
	m->pending |= BIT(M7EXC_HARDFAULT);
}

/* Exception entry: PushStack then the vector read, then ExceptionTaken.
 * A stacking write that fails is lost and the entry goes on (STKERR, a
 * derived BusFault); a vector read that fails takes HardFault instead
 * (HFSR.VECTTBL) on the same frame, and a failing HardFault vector read is
 * a lockup. */
static int take(struct m7exc *m, int exc, uint32_t ret)
{
	/* an NMI (the checkpoint's, whose start point P_k a segment's replay
	 * starts from) begins the fault status anew (m7exc_fault_status) */
	if (exc == M7EXC_NMI)
		m7exc_status_mark(m);
	static const int saved[6] = {UC_ARM_REG_R0, UC_ARM_REG_R1, UC_ARM_REG_R2,
				     UC_ARM_REG_R3, UC_ARM_REG_R12, UC_ARM_REG_LR};
	uint32_t w[8], xpsr, sp, control, vec;
	int e = rd(m, UC_ARM_REG_XPSR, &xpsr);
	if (!e)
		e = rd(m, UC_ARM_REG_SP, &sp);
	if (!e)
		e = rd(m, UC_ARM_REG_CONTROL, &control);
	for (int i = 0; i < 6 && !e; i++)
		e = rd(m, saved[i], &w[i]);
	if (e)
		return fail(m, e, exc, ret, 0, "register read failed");
	int thread = (xpsr & 0x1ff) == 0;
	uint32_t exc_ret = !thread ? M7EXC_RET_HANDLER
				   : (control & CONTROL_SPSEL) ? M7EXC_RET_THREAD_PSP : M7EXC_RET_THREAD_MSP;
	uint32_t pad = (m->ccr & CCR_STKALIGN) && (sp & 4) ? 1u : 0u;
	uint32_t frame = (sp - 0x20u) & ~(pad << 2);
	w[6] = ret & ~1u;
	w[7] = (xpsr & ~(XPSR_ALIGN | XPSR_IT)) | it_to_xpsr(m->it_entry) | (pad << 9);
	m->it_entry = 0;
	int stkerr = 0;
	m->entry_ret = w[6];
	for (int i = 0; i < 8; i++)
		if (m->bus.access(m->bus.ctx, frame + 4u * (uint32_t)i, 1, &w[i]))
			stkerr = 1; /* the word is lost */
	int taken = exc;
	if (m->bus.access(m->bus.ctx, m->vtor + 4u * (uint32_t)exc, 0, &vec)) {
		/* VECTTBL: HardFault on this frame; EXC stays as it was (pending) */
		int ep = m7exc_exec_priority(m); /* before the entry: HardFault must preempt */
		if (ep == INT_MIN)
			return fail(m, M7EXC_E_UC, exc, ret, 0, "register read failed");
		if (exc == M7EXC_HARDFAULT || ep <= -1 ||
		    m->bus.access(m->bus.ctx, m->vtor + 4u * M7EXC_HARDFAULT, 0, &vec))
			return fail(m, M7EXC_E_LOCKUP, exc, ret, m->vtor + 4u * (uint32_t)exc, "VECTTBL");
		set_hfsr(m, HFSR_VECTTBL);
		taken = M7EXC_HARDFAULT;
	}
	if (vec == 0)
		return fail(m, M7EXC_E_NOHANDLER, taken, ret, m->vtor + 4u * (uint32_t)taken, "no handler");
	if (!(vec & 1))
		return fail(m, M7EXC_E_VECTOR, taken, ret, m->vtor + 4u * (uint32_t)taken, "vector not Thumb");

	e = wr(m, UC_ARM_REG_SP, frame); /* the stack in use */
	if (!e) /* handler mode: SP becomes MSP */
		e = wr(m, UC_ARM_REG_XPSR, (xpsr & XPSR_KEEP) | XPSR_T | (uint32_t)taken);
	if (!e)
		e = wr(m, UC_ARM_REG_CONTROL, control & ~(CONTROL_SPSEL | CONTROL_FPCA));
	if (!e)
		e = wr(m, UC_ARM_REG_LR, exc_ret);
	if (!e)
		e = wr(m, UC_ARM_REG_PC, vec);
	if (e)
		return fail(m, e, taken, ret, 0, "register write failed");
	if (taken == exc)
		m->pending &= ~BIT(exc);
	m->active |= BIT(taken);
	return stkerr ? derive_stkerr(m, taken, ret) : 1;
}

int m7exc_wants_entry(struct m7exc *m)
{
	if (!m->pending)
		return 0;
	int b = best_pending(m);
	return b >= 0 && group(m, exc_prio(m, b)) < m7exc_exec_priority(m);
}

int m7exc_next_entry(struct m7exc *m)
{
	if (!m->pending)
		return 0;
	int b = best_pending(m);
	if (b < 0)
		return 0;
	int ep = m7exc_exec_priority(m);
	if (ep == INT_MIN)
		return fail(m, M7EXC_E_UC, b, 0, 0, "register read failed");
	return group(m, exc_prio(m, b)) < ep ? b : 0;
}

int m7exc_any_eligible(const struct m7exc *m) { return m->pending && best_pending(m) >= 0; }

int m7exc_enter(struct m7exc *m, int exc, uint32_t epc)
{
	if (exc < 2 || exc >= M7EXC_NEXC)
		return fail(m, M7EXC_E_UC, exc, epc, 0, "exception number out of range");
	m->err_what = NULL;
	m->pending |= BIT(exc);
	return take(m, exc, epc);
}

int m7exc_boundary(struct m7exc *m, uint32_t epc)
{
	int b = m7exc_next_entry(m);
	return b > 0 ? take(m, b, epc) : b;
}

uint32_t m7exc_it_block_end(uc_engine *uc, uint32_t addr, uint16_t hw)
{
	if ((hw & 0xff00u) != 0xbf00u || (hw & 0xfu) == 0)
		return 0; /* not IT (mask 0: a hint such as nop, wfi) */
	unsigned mask = hw & 0xfu, n = 4;
	while (!(mask & 1)) { /* the lowest set bit of the mask ends the block */
		mask >>= 1;
		n--;
	}
	uint32_t a = addr + 2;
	for (unsigned i = 0; i < n; i++) {
		uint16_t h;
		if (uc_mem_read(uc, a, &h, 2))
			return a;
		a += (h >> 11) >= 0x1d ? 4u : 2u; /* 0b11101, 0b11110, 0b11111: 32-bit */
	}
	return a;
}

void m7exc_set_pending(struct m7exc *m, int exc)
{
	if (exc >= 2 && exc < M7EXC_NEXC)
		m->pending |= BIT(exc);
}

/* Takes synchronous exception EXC now, or HardFault (FORCED) when it is
 * disabled or cannot preempt; lockup when HardFault cannot either. */
static int take_sync(struct m7exc *m, int exc, uint32_t pc, uint32_t addr, const char *what)
{
	int ep = m7exc_exec_priority(m);
	if (ep == INT_MIN)
		return fail(m, M7EXC_E_UC, exc, pc, addr, what);
	if (exc != M7EXC_HARDFAULT) {
		int enabled = exc == M7EXC_SVCALL || (m->shcsr_ena & (1u << (exc - M7EXC_MEMMANAGE)));
		if (!enabled || group(m, exc_prio(m, exc)) >= ep) {
			exc = M7EXC_HARDFAULT;
			set_hfsr(m, HFSR_FORCED);
		}
	}
	if (exc == M7EXC_HARDFAULT && ep <= -1)
		return fail(m, M7EXC_E_LOCKUP, exc, pc, addr, what);
	m->pending |= BIT(exc);
	int e = take(m, exc, pc);
	if (e < 0 && !m->err_what)
		m->err_what = what;
	return e;
}

int m7exc_svc(struct m7exc *m, uint32_t ret_pc)
{
	return take_sync(m, M7EXC_SVCALL, ret_pc, 0, "svc");
}

int m7exc_intr(struct m7exc *m, uint32_t intno, uint32_t pc, uint32_t insn_pc, int *rc)
{
	switch (intno) {
	case 2: /* svc: PC is the next instruction */
		*rc = m7exc_svc(m, pc);
		return 0;
	case 7: /* bkpt */
		*rc = m7exc_fault(m, M7EXC_F_BKPT, insn_pc, 0);
		return 0;
	case 8: /* EXC_RETURN loaded into PC by the instruction at INSN_PC */
		*rc = m7exc_return(m, pc | 1u, insn_pc);
		return 0;
	default:
		return -1;
	}
}

void m7exc_fault_status(const struct m7exc *m, uint32_t exc, struct citcat_m7_fault *f)
{
	f->exc = exc;
	f->cfsr = m->cfsr_new;
	f->hfsr = m->hfsr_new;
	f->mmfar = m->cfsr_new & CITCAT_M7_CFSR_MMARVALID ? m->mmfar : 0;
	f->bfar = m->cfsr_new & CITCAT_M7_CFSR_BFARVALID ? m->bfar : 0;
}

void m7exc_status_mark(struct m7exc *m)
{
	m->cfsr_new = 0;
	m->hfsr_new = 0;
}

int m7exc_fault(struct m7exc *m, enum m7exc_fault f, uint32_t pc, uint32_t addr)
{
	static const struct {
		int exc;
		uint32_t cfsr;
		const char *name;
	} kinds[] = {
		[M7EXC_F_IACCVIOL] = {M7EXC_MEMMANAGE, 1u << 0, "IACCVIOL"},
		[M7EXC_F_IBUSERR] = {M7EXC_BUSFAULT, 1u << 8, "IBUSERR"},
		[M7EXC_F_PRECISERR] = {M7EXC_BUSFAULT, (1u << 9) | (1u << 15), "PRECISERR"},
		[M7EXC_F_UNDEFINSTR] = {M7EXC_USAGEFAULT, 1u << 16, "UNDEFINSTR"},
		[M7EXC_F_INVSTATE] = {M7EXC_USAGEFAULT, 1u << 17, "INVSTATE"},
		[M7EXC_F_INVPC] = {M7EXC_USAGEFAULT, 1u << 18, "INVPC"},
		[M7EXC_F_UNALIGNED] = {M7EXC_USAGEFAULT, 1u << 24, "UNALIGNED"},
		[M7EXC_F_DIVBYZERO] = {M7EXC_USAGEFAULT, 1u << 25, "DIVBYZERO"},
		[M7EXC_F_BKPT] = {M7EXC_HARDFAULT, 0, "BKPT"},
	};
	if ((unsigned)f >= sizeof kinds / sizeof *kinds)
		return fail(m, M7EXC_E_UC, 0, pc, addr, "unknown fault");
	m->err_what = NULL;
	set_cfsr(m, kinds[f].cfsr);
	if (f == M7EXC_F_PRECISERR)
		m->bfar = addr;
	if (f == M7EXC_F_BKPT)
		set_hfsr(m, HFSR_DEBUGEVT);
	int e = take_sync(m, kinds[f].exc, pc, addr, kinds[f].name);
	m->it_entry = 0;
	if (e < 0)
		m->err_what = kinds[f].name;
	return e;
}

static const int pf_regs[15] = {UC_ARM_REG_R0, UC_ARM_REG_R1, UC_ARM_REG_R2,  UC_ARM_REG_R3,  UC_ARM_REG_R4,
				UC_ARM_REG_R5, UC_ARM_REG_R6, UC_ARM_REG_R7,  UC_ARM_REG_R8,  UC_ARM_REG_R9,
				UC_ARM_REG_R10, UC_ARM_REG_R11, UC_ARM_REG_R12, UC_ARM_REG_SP, UC_ARM_REG_LR};

uint32_t m7exc_precise_note(struct m7exc *m, uint32_t pc, uint32_t addr)
{
	if (!m->pf.on) {
		m->pf.on = 1;
		m->pf.pc = pc & ~1u;
		m->pf.addr = addr;
		for (int i = 0; i < 15; i++)
			uc_reg_read(m->uc, pf_regs[i], &m->pf.regs[i]);
	}
	return m->pf.pc | 1u;
}

int m7exc_precise_take(struct m7exc *m)
{
	if (!m->pf.on)
		return 0;
	m->pf.on = 0;
	for (int i = 0; i < 15; i++)
		if (uc_reg_write(m->uc, pf_regs[i], &m->pf.regs[i]))
			return fail(m, M7EXC_E_UC, M7EXC_BUSFAULT, m->pf.pc, m->pf.addr, "register write failed");
	return m7exc_fault(m, M7EXC_F_PRECISERR, m->pf.pc, m->pf.addr);
}

static unsigned popcount64(uint64_t v)
{
	unsigned n = 0;
	for (; v; v &= v - 1)
		n++;
	return n;
}

int m7exc_return(struct m7exc *m, uint32_t exc_ret, uint32_t insn_pc)
{
	static const int restored[6] = {UC_ARM_REG_R0, UC_ARM_REG_R1, UC_ARM_REG_R2,
					UC_ARM_REG_R3, UC_ARM_REG_R12, UC_ARM_REG_LR};
	uint32_t xpsr, control, frame, w[8];
	m->it_return = 0;
	int e = rd(m, UC_ARM_REG_XPSR, &xpsr);
	if (!e)
		e = rd(m, UC_ARM_REG_CONTROL, &control);
	if (e)
		return fail(m, e, 0, insn_pc, exc_ret, "register read failed");
	int cur = (int)(xpsr & 0x1ff);
	if (cur == 0) /* thread mode: a branch into the execute-never system region */
		return m7exc_fault(m, M7EXC_F_IACCVIOL, exc_ret & ~1u, 0);
	int to_handler = exc_ret == M7EXC_RET_HANDLER, to_psp = exc_ret == M7EXC_RET_THREAD_PSP;
	unsigned nactive = popcount64(m->active);
	if ((exc_ret != M7EXC_RET_HANDLER && exc_ret != M7EXC_RET_THREAD_MSP && exc_ret != M7EXC_RET_THREAD_PSP) ||
	    cur >= M7EXC_NEXC || !(m->active & BIT(cur)) || (to_handler && nactive < 2) ||
	    (!to_handler && nactive > 1 && !(m->ccr & CCR_NONBASETHRDENA)))
		return m7exc_fault(m, M7EXC_F_INVPC, insn_pc, 0);

	if ((e = rd(m, to_psp ? UC_ARM_REG_PSP : UC_ARM_REG_MSP, &frame)))
		return fail(m, e, cur, insn_pc, 0, "register read failed");
	for (int i = 0; i < 8; i++)
		if (m->bus.access(m->bus.ctx, frame + 4u * (uint32_t)i, 0, &w[i])) {
			/* UNSTKERR: the return is abandoned (nothing restored,
			 * the exception stays active), a fault of the returning
			 * instruction */
			m->err_what = NULL;
			set_cfsr(m, CFSR_UNSTKERR);
			int r = take_sync(m, M7EXC_BUSFAULT, insn_pc, 0, "UNSTKERR");
			if (r < 0)
				m->err_what = "UNSTKERR";
			return r;
		}
	uint32_t ipsr = w[7] & 0x1ff;
	if (to_handler != (ipsr != 0)) /* the frame does not match the return */
		return m7exc_fault(m, M7EXC_F_INVPC, insn_pc, 0);

	m->active &= ~BIT(cur);
	uint32_t sp = frame + 0x20u + ((w[7] & XPSR_ALIGN) && (m->ccr & CCR_STKALIGN) ? 4u : 0u);
	if (cur != M7EXC_NMI)
		e = wr(m, UC_ARM_REG_FAULTMASK, 0);
	if (!e) /* still handler mode: every bit taken, no swap */
		e = wr(m, UC_ARM_REG_CONTROL, (control & ~CONTROL_SPSEL) | (to_psp ? CONTROL_SPSEL : 0u));
	if (!e)
		e = wr(m, to_psp ? UC_ARM_REG_PSP : UC_ARM_REG_MSP, sp);
	if (!e) /* the mode of the frame; SP follows SPSEL */
		e = wr(m, UC_ARM_REG_XPSR, w[7] & ~XPSR_ALIGN);
	for (int i = 0; i < 6 && !e; i++)
		e = wr(m, restored[i], w[i]);
	if (!e)
		e = wr(m, UC_ARM_REG_PC, w[6] | 1u);
	if (e)
		return fail(m, e, cur, insn_pc, 0, "register write failed");
	if (!(w[7] & XPSR_T))
		return m7exc_fault(m, M7EXC_F_INVSTATE, w[6] & ~1u, 0);
	m->it_return = it_from_xpsr(w[7]); /* Unicorn resumes inside the block (tests/test_unicorn_m_it.c) */
	return 0;
}

int m7exc_reset_core(struct m7exc *m)
{
	uint32_t msp, pc;
	int e = bus(m, m->vtor, 0, &msp, M7EXC_RESET, 0);
	if (!e)
		e = bus(m, m->vtor + 4, 0, &pc, M7EXC_RESET, 0);
	if (e)
		return e;
	if (pc == 0)
		return fail(m, M7EXC_E_NOHANDLER, M7EXC_RESET, 0, m->vtor + 4, "no reset vector");
	if (!(pc & 1))
		return fail(m, M7EXC_E_VECTOR, M7EXC_RESET, 0, m->vtor + 4, "vector not Thumb");
	e = wr(m, UC_ARM_REG_XPSR, XPSR_T | 1u); /* privileged for the writes below */
	if (!e)
		e = wr(m, UC_ARM_REG_CONTROL, 0);
	if (!e)
		e = wr(m, UC_ARM_REG_PRIMASK, 0);
	if (!e)
		e = wr(m, UC_ARM_REG_BASEPRI, 0);
	if (!e)
		e = wr(m, UC_ARM_REG_FAULTMASK, 0);
	if (!e)
		e = wr(m, UC_ARM_REG_PSP, 0);
	if (!e)
		e = wr(m, UC_ARM_REG_XPSR, XPSR_T);
	if (!e)
		e = wr(m, UC_ARM_REG_MSP, msp & ~3u);
	if (!e)
		e = wr(m, UC_ARM_REG_LR, 0xFFFFFFFFu);
	if (!e)
		e = wr(m, UC_ARM_REG_PC, pc);
	if (e)
		return fail(m, e, M7EXC_RESET, pc, 0, "register write failed");
	return 0;
}

/* ---- SysTick ---- */

void m7exc_systick_advance(struct m7exc *m, uint64_t n)
{
	if (!(m->st_csr & ST_ENABLE))
		return;
	while (n) {
		if (m->st_cvr == 0) { /* reload on the clock after reaching 0 */
			if (m->st_rvr == 0)
				return; /* RVR 0: the counter stays at 0 (disabled on the next wrap) */
			m->st_cvr = m->st_rvr;
			n--;
			continue;
		}
		if (n < m->st_cvr) {
			m->st_cvr -= (uint32_t)n;
			return;
		}
		n -= m->st_cvr;
		m->st_cvr = 0;
		m->st_csr |= ST_COUNTFLAG;
		if (m->st_csr & ST_TICKINT)
			m->pending |= BIT(M7EXC_SYSTICK);
		/* whole periods (reload + RVR decrements) that also end at 0:
		 * the same state as stepping them one by one */
		uint64_t per = (uint64_t)m->st_rvr + 1;
		if (n >= per)
			n %= per;
	}
}

uint64_t m7exc_systick_due(const struct m7exc *m)
{
	if (!(m->st_csr & ST_ENABLE))
		return UINT64_MAX;
	if (m->st_cvr)
		return m->st_cvr;
	return m->st_rvr ? (uint64_t)m->st_rvr + 1 : UINT64_MAX;
}

/* ---- SCS registers ---- */

static uint32_t shcsr(const struct m7exc *m)
{
	static const struct {
		int exc;
		unsigned act, pend; /* bit numbers; 32: none */
	} map[] = {
		{M7EXC_MEMMANAGE, 0, 13}, {M7EXC_BUSFAULT, 1, 14}, {M7EXC_USAGEFAULT, 3, 12}, {M7EXC_SVCALL, 7, 15},
		{M7EXC_DEBUGMON, 8, 32},  {M7EXC_PENDSV, 10, 32},  {M7EXC_SYSTICK, 11, 32},
	};
	uint32_t v = m->shcsr_ena << SHCSR_ENA_SHIFT;
	for (unsigned i = 0; i < sizeof map / sizeof *map; i++) {
		if (m->active & BIT(map[i].exc))
			v |= 1u << map[i].act;
		if (map[i].pend < 32 && (m->pending & BIT(map[i].exc)))
			v |= 1u << map[i].pend;
	}
	return v;
}

static uint32_t prio_word(const struct m7exc *m, int first)
{
	uint32_t v = 0;
	for (int i = 0; i < 4; i++)
		if (first + i < M7EXC_NEXC)
			v |= (uint32_t)m->prio[first + i] << (8 * i);
	return v;
}

static void set_prio_word(struct m7exc *m, int first, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		if (first + i < M7EXC_NEXC)
			m->prio[first + i] = (uint8_t)(v >> (8 * i)) & M7EXC_PRIO_MASK;
}

static int read_word(struct m7exc *m, uint32_t off, uint32_t *v)
{
	uint32_t irqs = (uint32_t)(m->pending >> M7EXC_IRQ0);
	if (off >= R(NVIC_ISER) && off < R(NVIC_IABR) + 0x20) { /* ISER ICER ISPR ICPR IABR: word 0 real, 1..7 RAZ */
		unsigned word = (off & 0x7f) >> 2;
		if ((off & 0x7f) >= 0x20)
			return -1;
		uint32_t act = (uint32_t)(m->active >> M7EXC_IRQ0);
		uint32_t val = off < R(NVIC_ISPR) ? m->irq_enable : off < R(NVIC_IABR) ? irqs : act;
		*v = word == 0 ? val : 0;
		return 0;
	}
	if (off >= R(NVIC_IPR) && off < R(NVIC_IPR) + 0xF0) { /* IPR */
		int first = M7EXC_IRQ0 + (int)(off - R(NVIC_IPR));
		*v = first < M7EXC_NEXC ? prio_word(m, first) : 0;
		return 0;
	}
	switch (off) {
	case R(ICTR): *v = 0; return 0; /* ICTR: 32 lines */
	case R(ACTLR): *v = 0; return 0; /* ACTLR */
	case R(SYST_CSR): {
		*v = m->st_csr | ST_CLKSOURCE;
		m->st_csr &= ~ST_COUNTFLAG; /* reading clears it */
		return 0;
	}
	case R(SYST_RVR): *v = m->st_rvr; return 0;
	case R(SYST_CVR): *v = m->st_cvr; return 0;
	case R(SYST_CALIB): *v = ST_CALIB; return 0;
	case R(SCB_CPUID): *v = M7EXC_CPUID; return 0;
	case R(SCB_ICSR): {
		uint32_t xpsr = 0;
		if (rd(m, UC_ARM_REG_XPSR, &xpsr))
			return -1;
		int b = best_pending(m);
		*v = (xpsr & 0x1ff) | (popcount64(m->active) <= 1 ? 1u << 11 : 0) |
		     (b > 0 ? (uint32_t)b << 12 : 0) | (irqs ? 1u << 22 : 0) |
		     (m->pending & BIT(M7EXC_SYSTICK) ? CITCAT_M7_ICSR_PENDSTSET : 0) |
		     (m->pending & BIT(M7EXC_PENDSV) ? CITCAT_M7_ICSR_PENDSVSET : 0) |
		     (m->pending & BIT(M7EXC_NMI) ? CITCAT_M7_ICSR_NMIPENDSET : 0);
		return 0;
	}
	case R(SCB_VTOR): *v = m->vtor; return 0;
	case R(SCB_AIRCR): *v = 0xFA050000u | (m->prigroup << 8); return 0;
	case R(SCB_SCR): *v = m->scr; return 0;
	case R(SCB_CCR): *v = m->ccr; return 0;
	case R(SCB_SHPR): *v = prio_word(m, 4); return 0;
	case R(SCB_SHPR) + 4: *v = prio_word(m, 8); return 0;
	case R(SCB_SHPR) + 8: *v = prio_word(m, 12); return 0;
	case R(SCB_SHCSR): *v = shcsr(m); return 0;
	case R(SCB_CFSR): *v = m->cfsr; return 0;
	case R(SCB_HFSR): *v = m->hfsr; return 0;
	case R(SCB_MMFAR): *v = m->mmfar; return 0;
	case R(SCB_BFAR): *v = m->bfar; return 0;
	case R(SCB_AFSR): *v = 0; return 0; /* AFSR */
	}
	return -1;
}

static int write_word(struct m7exc *m, uint32_t off, uint32_t v)
{
	if (off >= R(NVIC_ISER) && off < R(NVIC_IABR)) {
		if ((off & 0x7f) >= 0x20)
			return -1;
		if ((off & 0x7f) != 0)
			return 0; /* lines 32.. not implemented: WI */
		uint64_t bits = (uint64_t)v << M7EXC_IRQ0;
		switch (off >> 7) {
		case 2: m->irq_enable |= v; break;  /* ISER */
		case 3: m->irq_enable &= ~v; break; /* ICER */
		case 4: m->pending |= bits; break;  /* ISPR */
		case 5: m->pending &= ~bits; break; /* ICPR */
		}
		return 0;
	}
	if (off >= R(NVIC_IABR) && off < R(NVIC_IABR) + 0x20)
		return 0; /* IABR: read-only */
	if (off >= R(NVIC_IPR) && off < R(NVIC_IPR) + 0xF0) {
		int first = M7EXC_IRQ0 + (int)(off - R(NVIC_IPR));
		set_prio_word(m, first, v);
		return 0;
	}
	switch (off) {
	case R(ICTR): case R(ACTLR): case R(SYST_CALIB): case R(SCB_CPUID): case R(SCB_AFSR): return 0; /* RO / WI */
	case R(SYST_CSR): m->st_csr = (m->st_csr & ST_COUNTFLAG) | (v & (ST_ENABLE | ST_TICKINT)); return 0;
	case R(SYST_RVR): m->st_rvr = v & 0x00FFFFFFu; return 0;
	case R(SYST_CVR): m->st_cvr = 0; m->st_csr &= ~ST_COUNTFLAG; return 0;
	case R(SCB_ICSR):
		if (v & CITCAT_M7_ICSR_NMIPENDSET)
			m->pending |= BIT(M7EXC_NMI);
		if (v & CITCAT_M7_ICSR_PENDSVSET)
			m->pending |= BIT(M7EXC_PENDSV);
		if (v & CITCAT_M7_ICSR_PENDSVCLR)
			m->pending &= ~BIT(M7EXC_PENDSV);
		if (v & CITCAT_M7_ICSR_PENDSTSET)
			m->pending |= BIT(M7EXC_SYSTICK);
		if (v & CITCAT_M7_ICSR_PENDSTCLR)
			m->pending &= ~BIT(M7EXC_SYSTICK);
		return 0;
	case R(SCB_VTOR): m->vtor = v & 0xFFFFFF80u; return 0;
	case R(SCB_AIRCR):
		if ((v & 0xFFFF0000u) != CITCAT_M7_AIRCR_VECTKEY)
			return 0; /* wrong key: ignored */
		m->prigroup = (v >> 8) & 7;
		if (v & CITCAT_M7_AIRCR_SYSRESETREQ)
			m->reset_request = 1;
		return 0;
	case R(SCB_SCR): m->scr = v & 0x16u; return 0;
	case R(SCB_CCR): m->ccr = (CCR_RESET & ~CCR_WRITABLE) | (v & CCR_WRITABLE); return 0;
	case R(SCB_SHPR): set_prio_word(m, 4, v); return 0;
	case R(SCB_SHPR) + 4: set_prio_word(m, 8, v); return 0;
	case R(SCB_SHPR) + 8: set_prio_word(m, 12, v); return 0;
	case R(SCB_SHCSR): m->shcsr_ena = (v >> SHCSR_ENA_SHIFT) & 7; return 0;
	case R(SCB_CFSR): m->cfsr &= ~v; m->cfsr_new &= ~v; return 0;
	case R(SCB_HFSR): m->hfsr &= ~v; m->hfsr_new &= ~v; return 0;
	case R(SCB_MMFAR): m->mmfar = v; return 0;
	case R(SCB_BFAR): m->bfar = v; return 0;
	case R(NVIC_STIR):
		if ((v & 0x1ff) < M7EXC_NIRQ)
			m->pending |= BIT(M7EXC_IRQ0 + (v & 0x1ff));
		return 0;
	}
	return -1;
}

/* byte and halfword access: the priority registers and CFSR */
static int narrow_ok(uint32_t off)
{
	return (off >= R(NVIC_IPR) && off < R(NVIC_IPR) + 0xF0) || (off >= R(SCB_SHPR) && off < R(SCB_CFSR) + 4);
}

int m7exc_scs_read(struct m7exc *m, uint32_t off, unsigned size, uint32_t *v)
{
	if (off >= M7EXC_SCS_SIZE || (size != 1 && size != 2 && size != 4) || (off & (size - 1)) ||
	    (size != 4 && !narrow_ok(off)))
		return -1;
	uint32_t w;
	if (read_word(m, off & ~3u, &w))
		return -1;
	*v = size == 4 ? w : (w >> (8 * (off & 3))) & (size == 1 ? 0xffu : 0xffffu);
	return 0;
}

int m7exc_scs_write(struct m7exc *m, uint32_t off, unsigned size, uint32_t v)
{
	if (off >= M7EXC_SCS_SIZE || (size != 1 && size != 2 && size != 4) || (off & (size - 1)) ||
	    (size != 4 && !narrow_ok(off)))
		return -1;
	if (size == 4)
		return write_word(m, off, v);
	uint32_t sh = 8 * (off & 3), mask = (size == 1 ? 0xffu : 0xffffu) << sh;
	if (off >= R(SCB_CFSR)) /* CFSR: write-1-to-clear, the other bytes 0 */
		return write_word(m, off & ~3u, (v << sh) & mask);
	uint32_t w;
	if (read_word(m, off & ~3u, &w))
		return -1;
	return write_word(m, off & ~3u, (w & ~mask) | ((v << sh) & mask));
}

const char *m7exc_name(int exc)
{
	static const char *const names[16] = {"thread", "Reset", "NMI", "HardFault", "MemManage", "BusFault",
					       "UsageFault", "exception 7", "exception 8", "exception 9",
					       "exception 10", "SVCall", "DebugMonitor", "exception 13",
					       "PendSV", "SysTick"};
	static char buf[16];
	if (exc >= 0 && exc < 16)
		return names[exc];
	snprintf(buf, sizeof buf, "IRQ %d", exc - M7EXC_IRQ0);
	return buf;
}

/* ---- checkpoints (TARGET-M7.md, "Checkpoints") ---- */

const uint16_t m7exc_ckpt_regs[M7EXC_CKPT_NREGS] = {
	R(SCB_VTOR), R(SCB_AIRCR), R(SCB_CCR), R(SCB_SHCSR), R(SCB_SHPR), R(SCB_SHPR) + 4, R(SCB_SHPR) + 8,
	R(NVIC_IABR), R(NVIC_IPR), R(NVIC_IPR) + 4, R(NVIC_IPR) + 8, R(NVIC_IPR) + 12, R(NVIC_IPR) + 16,
	R(NVIC_IPR) + 20, R(NVIC_IPR) + 24, R(NVIC_IPR) + 28};

int m7exc_load_ckpt(struct m7exc *m, const uint32_t v[M7EXC_CKPT_NREGS])
{
	static const struct {
		int exc;
		unsigned act;
	} shcsr_act[] = {{M7EXC_MEMMANAGE, 0}, {M7EXC_BUSFAULT, 1}, {M7EXC_USAGEFAULT, 3}, {M7EXC_SVCALL, 7},
			 {M7EXC_DEBUGMON, 8},  {M7EXC_PENDSV, 10}, {M7EXC_SYSTICK, 11}};
	m->pending = 0;
	m->active = BIT(M7EXC_NMI) | ((uint64_t)v[7] << M7EXC_IRQ0);
	for (unsigned i = 0; i < sizeof shcsr_act / sizeof *shcsr_act; i++)
		if (v[3] & (1u << shcsr_act[i].act))
			m->active |= BIT(shcsr_act[i].exc);
	for (int i = 0; i < M7EXC_CKPT_NREGS; i++) {
		uint32_t w = v[i];
		if (m7exc_ckpt_regs[i] == R(SCB_AIRCR)) /* written with VECTKEY, PRIGROUP only */
			w = CITCAT_M7_AIRCR_VECTKEY | (w & 0x700u);
		if (m7exc_ckpt_regs[i] != R(NVIC_IABR) && write_word(m, m7exc_ckpt_regs[i], w))
			return 1 + i;
	}
	for (int i = 0; i < M7EXC_CKPT_NREGS; i++) {
		uint32_t r, mask = m7exc_ckpt_regs[i] == R(SCB_SHCSR) ? ~0xF000u : ~0u; /* not the pended bits */
		if (read_word(m, m7exc_ckpt_regs[i], &r) || ((r ^ v[i]) & mask))
			return 1 + i;
	}
	return 0;
}
