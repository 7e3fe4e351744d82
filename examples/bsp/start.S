/*
 * start.S - vector table, reset handler and IRQ entry for the modelled target.
 *
 * The vector base is fixed at 0 (TARGET.md).  Only IRQ and the checkpoint
 * interrupt (through the FIQ vector) are modelled: every other exception
 * stops the capture with an error, so those vectors just park the core
 * (they exist so a stray exception on real hardware does not run into code).
 *
 * CITCAT_BSP_THUMB_EXCEPTIONS (a compile definition, e.g. the THUMB_EXCEPTIONS
 * option of citcat_add_firmware): the reset code sets SCTLR.TE = 1, so every
 * exception is entered in Thumb state (TARGET.md, IRQ entry).  The IRQ and
 * FIQ vectors (0x18, 0x1C) and their handlers are then Thumb-2 code; the
 * reset vector and the rest stay ARM (reset is entered in ARM state, from the
 * ELF entry point).  Without it (the default) TE keeps its reset value 0 and
 * everything here is ARM.
 */

    .syntax unified
    .arm

#define MODE_FIQ        0x11
#define MODE_IRQ        0x12
#define MODE_SVC        0x13
#define MODE_ABT        0x17
#define MODE_UND        0x1B
#define MODE_SYS        0x1F

    .section .vectors, "ax", %progbits
    .global _vectors
_vectors:
    b       _reset                  @ 0x00 reset
    b       .                       @ 0x04 undefined instruction (not modelled)
    b       .                       @ 0x08 SVC (not modelled)
    b       .                       @ 0x0C prefetch abort (not modelled)
    b       .                       @ 0x10 data abort (not modelled)
    b       .                       @ 0x14 reserved
#ifdef CITCAT_BSP_THUMB_EXCEPTIONS
    .thumb                          @ entered in Thumb state: SCTLR.TE = 1
    b.w     citcat_irq_entry        @ 0x18 IRQ
    b.w     citcat_ckpt_entry       @ 0x1C FIQ: the checkpoint interrupt
    .arm
#else
    b       citcat_irq_entry        @ 0x18 IRQ
    b       citcat_ckpt_entry       @ 0x1C FIQ: the checkpoint interrupt
#endif

    .text
    .global _reset
    .type   _reset, %function
_reset:
    /* Every mode gets its own stack, set from the linker script.  IRQs and
     * FIQs stay masked (the `cps` forms below do not change I/F; the mask
     * is set explicitly) until a program unmasks them. */
    cpsid   if
#ifdef CITCAT_BSP_THUMB_EXCEPTIONS
    mrc     p15, 0, r0, c1, c0, 0   @ SCTLR
    orr     r0, r0, #(1 << 30)      @ TE: exceptions are taken in Thumb state
    mcr     p15, 0, r0, c1, c0, 0
#endif
    cps     #MODE_IRQ
    ldr     sp, =__irq_stack_top
    cps     #MODE_FIQ
    ldr     sp, =__fiq_stack_top
    cps     #MODE_ABT
    ldr     sp, =__abt_stack_top
    cps     #MODE_UND
    ldr     sp, =__und_stack_top
    cps     #MODE_SVC
    ldr     sp, =__svc_stack_top
    cps     #MODE_SYS               @ main runs privileged, on the usr/sys stack
    ldr     sp, =__sys_stack_top
    mov     fp, #0
    mov     lr, #0
    /* Zero .bss word by word (the linker script aligns it to 8). */
    ldr     r0, =__bss_start__
    ldr     r1, =__bss_end__
    mov     r2, #0
    mov     r3, #0
1:  cmp     r0, r1
    stmialo r0!, {r2, r3}
    blo     1b
    bl      citcat_crt_main         @ constructors, driver, main, exit: never returns
    b       .
    .size   _reset, . - _reset

/*
 * IRQ entry.  The model enters with SPSR_irq = CPSR, mode IRQ, I = A = 1,
 * LR_irq = EPC + 4, PC = 0x18.  The handler runs on the IRQ stack and does
 * not nest; it saves the AAPCS caller-saved registers (C saves the rest),
 * 24 bytes so the stack stays 8-byte aligned, and returns with
 * `subs pc, lr, #4`, which also restores CPSR from SPSR_irq.
 *
 * If the interrupted instruction is the `b .` in citcat_spin_until_irq,
 * the return address is moved past it, so an interrupt breaks that loop.
 */
    .global citcat_irq_entry
    .type   citcat_irq_entry, %function
#ifdef CITCAT_BSP_THUMB_EXCEPTIONS
    /* The same in Thumb-2 (entered in Thumb state, SCTLR.TE = 1): LR_irq is
     * EPC + 4 in either state, and `subs pc, lr, #4` returns to the state
     * SPSR_irq.T holds.  The `b .` is ARM code below, so its return address
     * is built with movw/movt (no adr across states). */
    .thumb
citcat_irq_entry:
    push    {r0-r3, r12, lr}
    bl      citcat_irq_dispatch     @ the linker makes it blx for ARM C code
    ldr     r0, [sp, #20]           @ stacked LR_irq = EPC + 4
    movw    r1, #:lower16:(citcat_spin_point + 4)
    movt    r1, #:upper16:(citcat_spin_point + 4)
    cmp     r0, r1
    itt     eq
    addeq   r0, r0, #4              @ resume after the `b .`
    streq   r0, [sp, #20]
    pop     {r0-r3, r12, lr}
    subs    pc, lr, #4
    .arm
#else
citcat_irq_entry:
    push    {r0-r3, r12, lr}
    bl      citcat_irq_dispatch
    ldr     r0, [sp, #20]           @ stacked LR_irq = EPC + 4
    adr     r1, citcat_spin_point + 4
    cmp     r0, r1
    addeq   r0, r0, #4              @ resume after the `b .`
    streq   r0, [sp, #20]
    pop     {r0-r3, r12, lr}
    subs    pc, lr, #4
#endif
    .size   citcat_irq_entry, . - citcat_irq_entry

    .global citcat_spin_until_irq
    .type   citcat_spin_until_irq, %function
citcat_spin_until_irq:
citcat_spin_point:
    b       citcat_spin_point       @ left only by an interrupt (see above)
    bx      lr
    .size   citcat_spin_until_irq, . - citcat_spin_until_irq

/*
 * Checkpoint interrupt entry (capture --checkpoint-every; TARGET.md,
 * Checkpoints).  The model enters through the FIQ vector whatever CPSR.I
 * and CPSR.F, with SPSR_fiq = CPSR, mode FIQ, I = F = A = 1,
 * LR_fiq = EPC + 4.  The handler runs the CITCAT driver again, so the
 * trace module sees a new start point (the driver's INV_I store) with both
 * caches empty and a full register dump: the next segment starts like the
 * first.  The driver runs in ABT mode (unused otherwise, with its own
 * stack): outside FIQ mode r8..r12 are the common registers, so dump slots
 * 8..12 hold the interrupted code's values and slots 31..38 the FIQ bank
 * with LR_fiq and SPSR_fiq.  Every register is restored; `subs pc, lr, #4`
 * returns to EPC with CPSR from SPSR_fiq.  CLREX before it: the exclusive
 * monitor is no part of the state at P_k (Unicorn keeps it where no dump
 * reaches), so a segment replayed on its own starts with it clear while the
 * capture ran on with the interrupted code's LDREX; clearing it in both
 * makes that code's STREX fail and retry alike, as after any context
 * switch (issue 36: a checkpoint between LDREXH and STREXH diverged).
 * Cost: 7 instructions here plus the driver's 70 (the same 7 in Thumb-2
 * with CITCAT_BSP_THUMB_EXCEPTIONS; the call to the ARM driver is a blx).
 */
    .global citcat_ckpt_entry
    .type   citcat_ckpt_entry, %function
#ifdef CITCAT_BSP_THUMB_EXCEPTIONS
    .thumb
#endif
citcat_ckpt_entry:
    cps     #MODE_ABT               @ I, F, A stay set
    push    {r0, lr}                @ LR_abt (r0 keeps the stack 8-byte aligned)
    bl      citcat_trace_start      @ the driver: TRC1, CLEAN_INV_D, INV_I, dump
    pop     {r0, lr}
    clrex                           @ the monitor is not part of P_k's state (above)
    cps     #MODE_FIQ
    subs    pc, lr, #4
    .arm
    .size   citcat_ckpt_entry, . - citcat_ckpt_entry
