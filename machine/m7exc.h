/* citcat's model of the Cortex-M7 (ARMv7-M) exception logic, on a Unicorn
 * engine opened with UC_CPU_ARM_CORTEX_M7 and UC_MODE_THUMB | UC_MODE_MCLASS:
 * the NVIC, SysTick, the SCB registers, exception entry (stacking), exception
 * return (unstacking) and faults.  Unicorn takes no M-profile exception
 * itself (tests/test_unicorn_m.c): it reports svc, bkpt, udf and EXC_RETURN
 * branches, and this module does what the core would.  Specified in
 * capture/TARGET-M7.md; meant to be shared unchanged by the capture model
 * and the replayer, as armcore.c is for the A-profile IRQ entry.
 *
 * Every memory access the exception logic makes (the eight stacking writes,
 * the eight unstacking reads, the vector read) goes through struct
 * m7exc_bus, the data side of the memory-system model, in the order the
 * spec states, so that they reach the D-cache and the CAT and replay call
 * for call.
 *
 * Internal module (not in the public API).  Plain struct, no allocation:
 * callers and tests keep it by value. */
#ifndef CITCAT_M7EXC_H
#define CITCAT_M7EXC_H

#include "citcat_m7_regs.h"
#include "m7excnum.h"

#include <citcat/target.h>
#include <stdint.h>
#include <unicorn/unicorn.h>

/* Exception numbers: formats/m7excnum.h (the formats check them too). */

/* Implemented priority bits: priority fields keep bits [7:8-M7EXC_PRIO_BITS]. */
#define M7EXC_PRIO_BITS 4
#define M7EXC_PRIO_MASK ((uint8_t)(0xffu << (8 - M7EXC_PRIO_BITS)))

/* The System Control Space (examples/bsp-m7/citcat_m7_regs.h, the map the firmware uses). */
#define M7EXC_SCS_BASE CITCAT_M7_SCS_BASE
#define M7EXC_SCS_SIZE CITCAT_M7_SCS_SIZE
#define M7EXC_CPUID 0x411FC270u /* ARM, variant 1, Cortex-M7 (0xC27), revision 0 */

/* EXC_RETURN values without floating-point state (the only ones the model
 * produces or accepts: FP context stacking is not modelled). */
#define M7EXC_RET_HANDLER 0xFFFFFFF1u
#define M7EXC_RET_THREAD_MSP 0xFFFFFFF9u
#define M7EXC_RET_THREAD_PSP 0xFFFFFFFDu

/* Faults the caller reports (m7exc_fault); each sets its CFSR bit. */
enum m7exc_fault {
	M7EXC_F_IACCVIOL,   /* MemManage: fetch from an execute-never address */
	M7EXC_F_IBUSERR,    /* BusFault: instruction fetch bus error */
	M7EXC_F_PRECISERR,  /* BusFault: data bus error, ADDR goes to BFAR */
	M7EXC_F_UNDEFINSTR, /* UsageFault: undefined instruction */
	M7EXC_F_INVSTATE,   /* UsageFault: EPSR.T = 0 */
	M7EXC_F_INVPC,      /* UsageFault: bad EXC_RETURN */
	M7EXC_F_UNALIGNED,  /* UsageFault: unaligned access with CCR.UNALIGN_TRP */
	M7EXC_F_DIVBYZERO,  /* UsageFault: division by 0 with CCR.DIV_0_TRP */
	M7EXC_F_BKPT        /* a bkpt with no debugger: HardFault, HFSR.DEBUGEVT */
};

/* Errors (negative), after which the core cannot go on; m->err_* say why. */
enum {
	M7EXC_E_UC = -1,        /* a Unicorn register access failed */
	M7EXC_E_BUS = -2,       /* a reset vector read failed (stacking, unstacking and vector
				 * read errors are vectored: STKERR, UNSTKERR, VECTTBL) */
	M7EXC_E_NOHANDLER = -3, /* the vector of the exception to take is 0 */
	M7EXC_E_VECTOR = -4,    /* the vector has bit 0 clear (not Thumb) */
	M7EXC_E_LOCKUP = -5     /* a fault at priority -1 or above (HardFault, NMI, FAULTMASK) */
};

/* The data side of the memory system: one aligned 32-bit access at ADDR.
 * Reads fill *VALUE.  Returns 0, or non-zero for a bus error. */
struct m7exc_bus {
	int (*access)(void *ctx, uint32_t addr, int write, uint32_t *value);
	void *ctx;
};

struct m7exc {
	uc_engine *uc;
	struct m7exc_bus bus;

	/* NVIC and system handler state, one bit per exception number */
	uint64_t pending, active;
	uint32_t irq_enable;          /* NVIC ISER/ICER, IRQ n at bit n */
	uint8_t prio[M7EXC_NEXC];     /* programmable priorities (4..15, IRQs), masked */

	/* SCB */
	uint32_t vtor, prigroup, scr, ccr, shcsr_ena, cfsr, hfsr, mmfar, bfar;
	/* the CFSR and HFSR bits set since the trace start point or the last
	 * NMI entry and not cleared since (m7exc_fault_status) */
	uint32_t cfsr_new, hfsr_new;

	/* SysTick */
	uint32_t st_csr, st_rvr, st_cvr;

	/* a precise bus error noted inside an MMIO callback, taken at the next
	 * boundary (m7exc_precise_note, m7exc_precise_take) */
	struct {
		int on;
		uint32_t pc, addr;
		uint32_t regs[15]; /* r0-r12, SP, LR when it was noted */
	} pf;

	/* ITSTATE (machine/thumb.h's 8-bit form) of the faulting instruction,
	 * stacked in xPSR's IT bits by the next m7exc_fault's entry (the caller
	 * sets it for a fault inside an IT block: Unicorn shows no IT bits
	 * there; 0 otherwise); cleared by m7exc_fault */
	uint8_t it_entry;
	/* the ITSTATE the last exception return unstacked (0: none; the
	 * caller's own IT tracking resumes inside the block when not 0) */
	uint8_t it_return;

	uint32_t entry_ret;           /* the return address stacked by the last entry */
	int reset_request;            /* AIRCR.SYSRESETREQ was written (not modelled: the caller stops) */

	/* the last error: exception number, PC (return address of the frame
	 * being made, or the faulting instruction), fault address, and what */
	int err_exc;
	uint32_t err_pc, err_addr;
	const char *err_what;
};

/* Reset state (TARGET-M7.md "Reset"): nothing pending or active, every
 * priority 0, VTOR 0, CCR.STKALIGN = 1, SysTick off.  Does not touch the
 * engine. */
void m7exc_init(struct m7exc *m, uc_engine *uc, struct m7exc_bus bus);

/* The core's reset: MSP from the vector table word at VTOR, PC from the next
 * (two bus reads), thread mode, privileged, xPSR = T only, masks clear.
 * Returns 0 or a negative M7EXC_E_*. */
int m7exc_reset_core(struct m7exc *m);

/* At the boundary before the instruction at EPC (from its code hook, which
 * then must not let it run, or between runs): takes the highest-priority
 * pending exception if it preempts the current execution priority.
 * Returns 1 taken (PC is now the handler's), 0 nothing, or a negative
 * M7EXC_E_*. */
int m7exc_boundary(struct m7exc *m, uint32_t epc);

/* The exception m7exc_boundary would take now (the highest-priority
 * eligible pending one, if it preempts), 0 for none, or a negative
 * M7EXC_E_*: what the capture records as an EXC event before taking it. */
int m7exc_next_entry(struct m7exc *m);

/* Whether some pending exception is eligible (an IRQ enabled in the NVIC,
 * or any other), whatever its priority: what wakes a WFI (TARGET-M7.md). */
int m7exc_any_eligible(const struct m7exc *m);

/* Takes exception EXC (2..M7EXC_NEXC-1) at the boundary before EPC whatever
 * the priorities say: the replayer's entry at a recorded EXC event.  As for
 * every entry: stacking writes that fail are lost and pend a derived
 * BusFault/HardFault (STKERR), a vector read that fails takes HardFault
 * instead (HFSR.VECTTBL), EXC staying pending (TARGET-M7.md).
 * Returns 1, or a negative M7EXC_E_*. */
int m7exc_enter(struct m7exc *m, int exc, uint32_t epc);

/* IT blocks: Unicorn can neither stop nor redirect inside one and shows no
 * ITSTATE (tests/test_unicorn_m.c), so exceptions are not taken there
 * (TARGET-M7.md).  If HW (the first halfword of the instruction at ADDR) is
 * an IT instruction, returns the address after its block (the instruction
 * lengths read from the code in the engine), else 0.  The caller skips
 * m7exc_boundary for addresses in (ADDR, end). */
uint32_t m7exc_it_block_end(uc_engine *uc, uint32_t addr, uint16_t hw);

/* Whether some pending exception would preempt now (cheap test). */
int m7exc_wants_entry(struct m7exc *m);

/* The svc just executed (UC_HOOK_INTR 2; RET_PC is the next instruction):
 * SVCall is taken at once, or escalates to HardFault when its priority does
 * not preempt.  Returns 1, or a negative M7EXC_E_*. */
int m7exc_svc(struct m7exc *m, uint32_t ret_pc);

/* The fault status for the exception EXC that could not be taken: what CAT
 * version 7 and isa 2 itraces record with a STOP of fault kind 11 (CAT.md,
 * STOP): the CFSR and HFSR bits set since the last mark (the trace start
 * point, m7exc_status_mark, or an NMI entry: a checkpoint's P_k) and not
 * cleared, and MMFAR and BFAR where those CFSR bits mark them valid, else
 * 0.  Not the registers' whole content: bits left from before the mark are
 * unknown to a replay that starts there, so the capture, the serial replay
 * and a segment's replay record the same status. */
void m7exc_fault_status(const struct m7exc *m, uint32_t exc, struct citcat_m7_fault *f);
/* Marks the trace start point for m7exc_fault_status (the capture at P). */
void m7exc_status_mark(struct m7exc *m);

/* A synchronous fault of the instruction at PC (ADDR: the data address for
 * PRECISERR): the fault's exception, or HardFault when that one is disabled
 * or cannot preempt (HFSR.FORCED), is taken at once with PC as return
 * address.  Returns 1, or a negative M7EXC_E_* (lockup, no handler). */
int m7exc_fault(struct m7exc *m, enum m7exc_fault f, uint32_t pc, uint32_t addr);

/* A precise data bus error that Unicorn cannot abandon: an access served by
 * an MMIO callback (a device register no device reads, a device read of
 * the wrong size or unaligned, an SCS access m7exc_scs_* refuses; TARGET-M7.md,
 * "BusFault (device and SCS bus errors)").  Called from that callback for
 * the instruction at PC accessing ADDR: the first call of the instruction
 * saves r0-r12, SP and LR (current in an MMIO callback, before the
 * instruction's destination and base write-back are written: pinned by
 * tests/test_unicorn_m_mmio.c); later ones (the rest of an ldm) change
 * nothing.  Returns the value the callback gives Unicorn for a read, PC | 1,
 * so that a load into PC branches back to the instruction and nothing
 * else changes mode.  The caller records nothing for the access. */
uint32_t m7exc_precise_note(struct m7exc *m, uint32_t pc, uint32_t addr);

/* At the next code hook or unmapped-access hook after m7exc_precise_note
 * (before anything else there): restores the saved registers and takes
 * m7exc_fault(M7EXC_F_PRECISERR, pc, addr) as for an unmapped access.
 * Returns what m7exc_fault returns, or 0 when nothing was noted. */
int m7exc_precise_take(struct m7exc *m);

/* An EXC_RETURN value EXC_RET was loaded into PC by the instruction at
 * INSN_PC (UC_HOOK_INTR 8: Unicorn reports PC = EXC_RET & ~1): exception
 * return with unstacking, or the fault the architecture takes instead (a
 * branch to 0xFFFFFFxx in thread mode: MemManage IACCVIOL; a bad value:
 * UsageFault INVPC; an unstacking read that fails: the return abandoned,
 * BusFault UNSTKERR).  Returns 0 returned, 1 a fault was taken, or a
 * negative M7EXC_E_*. */
int m7exc_return(struct m7exc *m, uint32_t exc_ret, uint32_t insn_pc);

/* Unicorn's UC_HOOK_INTR number INTNO, with PC the core's PC and INSN_PC
 * the instruction that raised it, as capture and replay both take it: 2
 * (svc) m7exc_svc(PC), 7 (bkpt) m7exc_fault(M7EXC_F_BKPT, INSN_PC), 8
 * (EXC_RETURN) m7exc_return(PC | 1, INSN_PC).  Their result into *RC and
 * 0, or -1 (nothing done) for any other number, which the caller reports. */
int m7exc_intr(struct m7exc *m, uint32_t intno, uint32_t pc, uint32_t insn_pc, int *rc);

/* Sets exception EXC (2..M7EXC_NEXC-1) pending, as hardware would (an IRQ
 * line's edge, ICSR.PENDSVSET ...). */
void m7exc_set_pending(struct m7exc *m, int exc);

/* An imprecise data bus error (a buffered store the bus refused: a write
 * to an unassigned device register, TARGET-M7.md "Faults"): CFSR.IMPRECISERR
 * (BFAR not valid), BusFault pending when it is enabled, else HardFault
 * pending with HFSR.FORCED.  Taken at a later boundary by the usual rules. */
void m7exc_imprecise(struct m7exc *m);

/* Advances SysTick by N clock cycles (the processor clock: TARGET-M7.md). */
void m7exc_systick_advance(struct m7exc *m, uint64_t n);
/* Cycles until SysTick next reaches 0 and can pend its exception
 * (UINT64_MAX: never without a register write). */
uint64_t m7exc_systick_due(const struct m7exc *m);

/* SCS register access at OFF (0 .. M7EXC_SCS_SIZE-1) of SIZE bytes (1, 2 or
 * 4; only the priority registers take 1 and 2).  Returns 0, or -1 for an
 * unassigned register or a wrong size (a bus error for the caller). */
int m7exc_scs_read(struct m7exc *m, uint32_t off, unsigned size, uint32_t *v);
int m7exc_scs_write(struct m7exc *m, uint32_t off, unsigned size, uint32_t v);

/* The execution priority now (ARMv7-M ExecutionPriority; 256 in thread
 * mode with nothing active or masked), or INT32_MIN on a Unicorn error. */
int m7exc_exec_priority(struct m7exc *m);

/* The SCS state a checkpoint's dump holds (TARGET-M7.md, "Checkpoints"):
 * the 16 registers the driver citcat_trace_ckpt reads, in slot order
 * (slots 23..38 of the IMS), at their SCS offsets. */
#define M7EXC_CKPT_NREGS 16
extern const uint16_t m7exc_ckpt_regs[M7EXC_CKPT_NREGS];

/* Sets the model's state at a checkpoint's start point P_k from the dumped
 * SCS registers V (in m7exc_ckpt_regs order): VTOR, PRIGROUP, CCR, the
 * fault enables, every programmable priority, and the active set (NMI, the
 * SHCSR active bits, IABR0); nothing pending.  Then each register is read
 * back from the model: returns 0 when all 16 read as dumped (SHCSR without
 * its pended bits, which are not loaded), else 1 + the index of the first
 * that does not (a reserved or read-only bit set, an AIRCR without its key
 * ...).  Does not touch the engine. */
int m7exc_load_ckpt(struct m7exc *m, const uint32_t v[M7EXC_CKPT_NREGS]);

/* "HardFault", "IRQ 3", ... (static storage for IRQs: not reentrant). */
const char *m7exc_name(int exc);

#endif
