/*
 * citcat_driver.S - the CITCAT driver for the modelled target.
 *
 *   void citcat_trace_start(void);
 *   void citcat_trace_stop(void);
 *
 * Contract (capture/TARGET.md, "Trace module"): with IRQs masked, write TRC1
 * to the trace CMD register, CLEAN_INV_D, then INV_I.  The instruction
 * boundary right after the INV_I store is the trace start point P.  Then
 * store, with uncached stores to REG[0..38], the value every register had
 * at P, and SCTLR to REG[39], write DUMP_DONE = 40, and return with
 * everything restored.
 *
 * Why this order:
 *  - IRQs are masked first so nothing can run between arming the trace and
 *    finishing the dump: an interrupt there would change registers and
 *    caches behind the dump's back.
 *  - TRC1 comes before the cache maintenance so the write-backs of the
 *    CLEAN_INV_D are on the trace (harmless before P, and the memory image
 *    the replayer reconstructs is complete: every dirty line reaches RAM).
 *  - CLEAN_INV_D before INV_I: after INV_I the core fetches P from an empty
 *    I-cache; between CLEAN_INV_D and INV_I there is no data access, so at P
 *    both caches are empty and every location read after P reaches the bus
 *    the first time it is needed.
 *  - The dump only stores to the device window (uncached) and reads nothing
 *    but registers (mov/mrs/adr): from P until DUMP_DONE there is NO cached
 *    data access at all.  The only cached traffic in that window is the
 *    instruction fetch of the driver itself (I-cache fills of its own code,
 *    which the replayer needs anyway).  No literal pool is used after P:
 *    constants are built with movw/movt before P or are immediates.
 *  - The first data accesses after P are the pops of the saved registers
 *    after DUMP_DONE: ordinary D-cache fills of the stack, which the
 *    replayer reproduces from the register dump (SP) and the trace.
 *
 * Register values at P (what REG[k] receives):
 *   r0  = 0x40000F00 (trace module base, used as the store base)
 *   r1  = 0x54524331 ('TRC1', the value stored to CMD/CLEAN_INV_D/INV_I)
 *   r2  = the caller's r2
 *   r3  = the caller's CPSR (kept to restore mode and IRQ mask)
 *   r4..r12, r14 = the caller's
 *   r13 = the caller's SP - 16 (r0..r3 saved on the stack)
 *   r15 = address of P
 *   CPSR = the caller's CPSR with I = 1
 *   REG[39] = SCTLR (read with mrc; its TE bit says the state exceptions
 *   enter in, which the replayer restores from the IMS)
 * Banked registers are read by switching mode with `cps` (r0..r7 are not
 * banked, so r0 stays a valid base in every mode) and back with msr.
 * USR's SP/LR are read in SYS mode (same registers; USR could not return).
 *
 * Must be called from a privileged mode (the BSP runs main in SYS mode).
 * FIQ is not modelled; CPSR.F is left as it is.
 *
 * Cost (ARM instructions, counted from the disassembly, see README.md):
 *   citcat_trace_start: 10 before P (push .. INV_I store), 57 from P to
 *   the DUMP_DONE store inclusive, 3 after (msr, pop, bx): 70 in all.
 *   Device accesses: 3 commands + 40 REG stores + DUMP_DONE = 44 uncached
 *   writes.  Data-cache traffic: the 16-byte push (before P) and pop.
 *   citcat_trace_stop: 8 instructions, one uncached write.
 */

    .syntax unified
    .arm
    .text

#include "citcat_regs.h"

#define TRACE_BASE_LO   (CITCAT_TRACE_BASE & 0xFFFF)    /* 0x0F00 */
#define TRACE_BASE_HI   (CITCAT_TRACE_BASE >> 16)       /* 0x4000 */
/* trace module registers relative to its base */
#define CMD             (CITCAT_TRACE_CMD - CITCAT_TRACE_BASE)
#define REG(k)          (CITCAT_TRACE_REG(k) - CITCAT_TRACE_BASE)
#define DUMP_DONE       (CITCAT_TRACE_DUMP_DONE - CITCAT_TRACE_BASE)
#define NSLOTS          CITCAT_TRACE_NSLOTS
/* cache maintenance registers relative to the trace module base */
#define INV_I           (CITCAT_CACHE_INV_I - CITCAT_TRACE_BASE)        /* -0xE00 */
#define CLEAN_INV_D     (CITCAT_CACHE_CLEAN_INV_D - CITCAT_TRACE_BASE)  /* -0xDF8 */
/* command values, built with movw/movt (no literal pool) */
#define TRC1_LO         (CITCAT_TRACE_CMD_TRC1 & 0xFFFF)
#define TRC1_HI         (CITCAT_TRACE_CMD_TRC1 >> 16)
#define STOP_LO         (CITCAT_TRACE_CMD_STOP & 0xFFFF)
#define STOP_HI         (CITCAT_TRACE_CMD_STOP >> 16)

#define MODE_FIQ        0x11
#define MODE_IRQ        0x12
#define MODE_SVC        0x13
#define MODE_ABT        0x17
#define MODE_UND        0x1B
#define MODE_SYS        0x1F

    .global citcat_trace_start
    .type   citcat_trace_start, %function
    .balign 32
citcat_trace_start:
    push    {r0-r3}                 @ the registers the driver changes
    mrs     r3, cpsr                @ caller's mode and IRQ mask
    cpsid   i                       @ no IRQ from here to the end of the dump
    movw    r0, #TRACE_BASE_LO
    movt    r0, #TRACE_BASE_HI      @ r0 = trace module base (no literal pool)
    movw    r1, #TRC1_LO
    movt    r1, #TRC1_HI             @ r1 = 'TRC1'
    str     r1, [r0, #CMD]          @ arm the trace: recording starts
    str     r1, [r0, #CLEAN_INV_D]  @ write back dirty D lines, invalidate D
    str     r1, [r0, #INV_I]        @ invalidate I: the next boundary is P
    .global citcat_trace_point
citcat_trace_point:                 @ P
    str     r0, [r0, #REG(0)]
    str     r1, [r0, #REG(1)]
    str     r2, [r0, #REG(2)]
    str     r3, [r0, #REG(3)]
    str     r4, [r0, #REG(4)]
    str     r5, [r0, #REG(5)]
    str     r6, [r0, #REG(6)]
    str     r7, [r0, #REG(7)]
    str     r8, [r0, #REG(8)]
    str     r9, [r0, #REG(9)]
    str     r10, [r0, #REG(10)]
    str     r11, [r0, #REG(11)]
    str     r12, [r0, #REG(12)]
    str     sp, [r0, #REG(13)]
    str     lr, [r0, #REG(14)]
    adr     r1, citcat_trace_point  @ r1 already dumped: reuse it
    str     r1, [r0, #REG(15)]      @ r15 = P
    mrs     r2, cpsr                @ r2 already dumped; flags unchanged since P
    str     r2, [r0, #REG(16)]
    cps     #MODE_SYS               @ SP/LR of SYS are those of USR
    str     sp, [r0, #REG(17)]
    str     lr, [r0, #REG(18)]
    cps     #MODE_SVC
    str     sp, [r0, #REG(19)]
    str     lr, [r0, #REG(20)]
    mrs     r1, spsr
    str     r1, [r0, #REG(21)]
    cps     #MODE_IRQ
    str     sp, [r0, #REG(22)]
    str     lr, [r0, #REG(23)]
    mrs     r1, spsr
    str     r1, [r0, #REG(24)]
    cps     #MODE_ABT
    str     sp, [r0, #REG(25)]
    str     lr, [r0, #REG(26)]
    mrs     r1, spsr
    str     r1, [r0, #REG(27)]
    cps     #MODE_UND
    str     sp, [r0, #REG(28)]
    str     lr, [r0, #REG(29)]
    mrs     r1, spsr
    str     r1, [r0, #REG(30)]
    cps     #MODE_FIQ               @ r8..r12 are banked in FIQ mode
    str     r8, [r0, #REG(31)]
    str     r9, [r0, #REG(32)]
    str     r10, [r0, #REG(33)]
    str     r11, [r0, #REG(34)]
    str     r12, [r0, #REG(35)]
    str     sp, [r0, #REG(36)]
    str     lr, [r0, #REG(37)]
    mrs     r1, spsr
    str     r1, [r0, #REG(38)]
    mrc     p15, 0, r1, c1, c0, 0   @ SCTLR: a register read, no data access
    str     r1, [r0, #REG(39)]
    msr     cpsr_c, r2              @ back to the mode at P, IRQs still masked
    mov     r1, #NSLOTS
    str     r1, [r0, #DUMP_DONE]    @ the dump is complete
    msr     cpsr_c, r3              @ the caller's IRQ mask
    pop     {r0-r3}
    bx      lr
    .size   citcat_trace_start, . - citcat_trace_start

    .global citcat_trace_stop
    .type   citcat_trace_stop, %function
citcat_trace_stop:
    push    {r0, r1}
    movw    r0, #TRACE_BASE_LO
    movt    r0, #TRACE_BASE_HI
    movw    r1, #STOP_LO
    movt    r1, #STOP_HI             @ 'STOP'
    str     r1, [r0, #CMD]
    pop     {r0, r1}
    bx      lr
    .size   citcat_trace_stop, . - citcat_trace_stop
