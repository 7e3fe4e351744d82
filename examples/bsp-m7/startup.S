/*
 * startup.S - CMSIS-style vector table, reset and the citcat interrupt
 * entry for the modelled Cortex-M7 target (capture/TARGET-M7.md).
 *
 * The vector table is at 0 (VTOR's reset value).  Word 0 is the initial MSP,
 * word 1 the reset handler; the others name the CMSIS handler symbols
 * (NMI_Handler, HardFault_Handler, ..., SysTick_Handler).  Those are weak
 * and undefined here (NMI_Handler excepted: it defaults to the checkpoint
 * handler below); a program defines the ones it wants as ordinary C
 * functions, and an undefined one is a 0 word, which the model reads as "no
 * handler" - taking that exception stops the capture with an error naming
 * it and the PC (a fault is reported, not hidden by a `b .` loop).
 *
 * IRQ 0..3 are the citcat interrupt controller's lines (timer, UART RX, DMA
 * done, software; TARGET.md): each vectors to citcat_m7_irq, which runs the
 * shared dispatcher (examples/bsp/crt.c: claim, acknowledge, call
 * citcat_irq_timer() ...), so programs keep their handlers and the
 * citcat_irq_enable_line() calls of the A target.  The NVIC enables for
 * 0..3 are set at reset; the controller's ENABLE register gates the lines.
 */
    .syntax unified
    .thumb

    .section .vectors, "a", %progbits
    .global _vectors
    .type   _vectors, %object
_vectors:
    .word   __msp_top               @  0 initial MSP
    .word   Reset_Handler           @  1 reset
    .word   NMI_Handler             @  2
    .word   HardFault_Handler       @  3
    .word   MemManage_Handler       @  4
    .word   BusFault_Handler        @  5
    .word   UsageFault_Handler      @  6
    .word   0, 0, 0, 0              @  7..10 reserved
    .word   SVC_Handler             @ 11
    .word   DebugMon_Handler        @ 12
    .word   0                       @ 13 reserved
    .word   PendSV_Handler          @ 14
    .word   SysTick_Handler         @ 15
    .word   citcat_m7_irq           @ 16 IRQ 0: timer
    .word   citcat_m7_irq           @ 17 IRQ 1: UART RX
    .word   citcat_m7_irq           @ 18 IRQ 2: DMA done
    .word   citcat_m7_irq           @ 19 IRQ 3: software
    .rept   28                      @ IRQ 4..31: no source
    .word   0
    .endr
    .size   _vectors, . - _vectors

    .weak   NMI_Handler, HardFault_Handler, MemManage_Handler, BusFault_Handler, UsageFault_Handler
    .thumb_set NMI_Handler, citcat_ckpt_entry @ the NMI carries the checkpoints (below)
    .weak   SVC_Handler, DebugMon_Handler, PendSV_Handler, SysTick_Handler

    .text
    .global Reset_Handler
    .type   Reset_Handler, %function
    .thumb_func
Reset_Handler:
    /* The model set MSP from word 0; thread mode, privileged, on MSP.
     * Interrupts stay masked (PRIMASK) until a program unmasks them, as on
     * the A target (citcat_irq_unmask() is `cpsie i` on both). */
    cpsid   i
    ldr     r0, =__bss_start__
    ldr     r1, =__bss_end__
    movs    r2, #0
1:  cmp     r0, r1
    bhs     2f
    str     r2, [r0], #4
    b       1b
2:  ldr     r0, =0xE000E100         @ NVIC ISER0
    movs    r1, #0xF
    str     r1, [r0]                @ IRQ 0..3 enabled
    movs    r0, #0
    mov     lr, r0
    bl      citcat_crt_main         @ constructors, driver, main, exit: never returns
    b       .
    .size   Reset_Handler, . - Reset_Handler

/*
 * The handler of IRQ 0..3: an ordinary AAPCS function (the core stacked
 * r0-r3, r12, lr, pc, xPSR).  If the interrupted instruction is the `b .`
 * of citcat_spin_until_irq, the stacked return address is moved past it,
 * so an interrupt ends that loop (as the A target's entry does).
 */
    .global citcat_m7_irq
    .type   citcat_m7_irq, %function
    .thumb_func
citcat_m7_irq:
    push    {r4, lr}                @ 8 bytes: the stack stays 8-byte aligned
    bl      citcat_irq_dispatch
    pop     {r4, lr}
    tst     lr, #4                  @ EXC_RETURN bit 2: the frame is on PSP
    ite     eq
    mrseq   r0, msp
    mrsne   r0, psp
    ldr     r1, [r0, #24]           @ stacked return address
    adr.w   r2, citcat_spin_point
    cmp     r1, r2
    itt     eq
    addeq   r1, r1, #2              @ resume after the 16-bit `b .`
    streq   r1, [r0, #24]
    bx      lr                      @ EXC_RETURN: exception return
    .size   citcat_m7_irq, . - citcat_m7_irq

    .global citcat_spin_until_irq
    .type   citcat_spin_until_irq, %function
    .thumb_func
citcat_spin_until_irq:
citcat_spin_point:
    b.n     citcat_spin_point       @ left only by an interrupt (see above)
    bx      lr
    .size   citcat_spin_until_irq, . - citcat_spin_until_irq

/*
 * The checkpoint handler (capture --checkpoint-every, TARGET-M7.md
 * "Checkpoints"), the default NMI_Handler: the capture takes the NMI at each
 * checkpoint, and this runs the CITCAT driver again, whose INV_I store is
 * the checkpoint's start point P_k and whose dump adds the SCS state (slots
 * 23..38).  r12 holds EXC_RETURN across the call: the driver keeps r12, and
 * the interrupted code's r12 is in the stacked frame.  CLREX before the
 * return: the exclusive monitor is no part of the state at P_k, so a
 * segment replayed on its own starts with it clear; clearing it here too
 * makes an interrupted LDREX/STREX pair retry alike in the capture and
 * every replay (examples/bsp/start.S, citcat_ckpt_entry; issue 36).
 * 4 instructions here plus the driver's 81.
 */
    .global citcat_ckpt_entry
    .type   citcat_ckpt_entry, %function
    .thumb_func
citcat_ckpt_entry:
    mov     r12, lr                 @ EXC_RETURN
    bl      citcat_trace_ckpt
    clrex                           @ the monitor is not part of P_k's state (above)
    bx      r12                     @ exception return
    .size   citcat_ckpt_entry, . - citcat_ckpt_entry
