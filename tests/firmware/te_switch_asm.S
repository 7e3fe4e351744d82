/* te_switch_asm.S: the Thumb IRQ handler and SCTLR.TE access of
 * te_switch.c. */
    .syntax unified

    .bss
    .balign 4
    .global te_thumb_entries
te_thumb_entries:
    .word   0

    .text
    .thumb
    .global te_thumb_irq
    .type   te_thumb_irq, %function
te_thumb_irq:                       @ entered in Thumb state (TE = 1)
    push    {r0-r3, r12, lr}
    movw    r0, #:lower16:te_thumb_entries
    movt    r0, #:upper16:te_thumb_entries
    ldr     r1, [r0]
    adds    r1, r1, #1
    str     r1, [r0]
    bl      citcat_irq_dispatch
    pop     {r0-r3, r12, lr}
    subs    pc, lr, #4              @ to the state SPSR_irq.T says
    .size   te_thumb_irq, . - te_thumb_irq

    .arm
    .global te_set
    .type   te_set, %function
te_set:                             @ SCTLR.TE = r0 (0 or 1)
    mrc     p15, 0, r1, c1, c0, 0
    bic     r1, r1, #(1 << 30)
    orr     r1, r1, r0, lsl #30
    mcr     p15, 0, r1, c1, c0, 0
    bx      lr
    .size   te_set, . - te_set
