/*
 * m7cap_asm.S - the exception entries of tests/firmware/m7cap.c whose
 * stacked words are worked out by hand (tests/m7cap.sh): frame_test puts
 * known values in every stacked register, then unmasks interrupts with an
 * IRQ pending, so the entry happens at the boundary frame_epc; two handler
 * stubs return through pop {r4, pc} (irq_pop_ret) and bx lr (irq_bx_ret).
 */
    .syntax unified
    .cpu    cortex-m7
    .thumb
    .text

@ void frame_test(uint32_t *top, unsigned pad)
@ SP = top - 4 * pad (top 8-aligned: pad 1 makes SP bit 2 set), r0 = 0x11111111,
@ r1 = 0x22222222, r2 = 0x33333333, r3 = 0x44444444, r12 = 0xCCCCCCCC,
@ lr = 0x5555AAAB, APSR = N C (0xA0000000); then cpsie i.  The IRQ pending
@ is taken before frame_epc.  Afterwards frame_after[] holds SP, r0-r3,
@ r12, lr as they were after the return.
    .global frame_test, frame_epc
    .type   frame_test, %function
    .thumb_func
frame_test:
    push    {r4-r7, lr}
    mov     r7, sp
    lsls    r1, r1, #2
    subs    r0, r0, r1
    mov     sp, r0
    ldr     r4, =0xA0000000
    msr     APSR_nzcvq, r4
    ldr     r0, =0x11111111
    ldr     r1, =0x22222222
    ldr     r2, =0x33333333
    ldr     r3, =0x44444444
    ldr     r4, =0xCCCCCCCC
    mov     r12, r4
    ldr     r4, =0x5555AAAB
    mov     lr, r4
    cpsie   i
frame_epc:
    cpsid   i
    ldr     r5, =frame_after
    mov     r4, sp
    str     r4, [r5]
    str     r0, [r5, #4]
    str     r1, [r5, #8]
    str     r2, [r5, #12]
    str     r3, [r5, #16]
    mov     r4, r12
    str     r4, [r5, #20]
    mov     r4, lr
    str     r4, [r5, #24]
    mrs     r4, apsr
    str     r4, [r5, #28]
    mov     sp, r7
    pop     {r4-r7, pc}
    .size   frame_test, . - frame_test

@ Handler stubs: m7cap_exc(frame, EXC_RETURN) does the work (m7cap.c).
    .global irq_pop_handler, irq_pop_ret, irq_bx_handler, irq_bx_ret
    .type   irq_pop_handler, %function
    .thumb_func
irq_pop_handler:
    push    {r4, lr}
    add     r0, sp, #8
    mov     r1, lr
    bl      m7cap_exc
irq_pop_ret:
    pop     {r4, pc}                @ exception return through pop {pc}
    .size   irq_pop_handler, . - irq_pop_handler

    .type   irq_bx_handler, %function
    .thumb_func
irq_bx_handler:
    push    {r4, lr}
    add     r0, sp, #8
    mov     r1, lr
    bl      m7cap_exc
    pop     {r4, lr}
irq_bx_ret:
    bx      lr                      @ exception return through bx lr
    .size   irq_bx_handler, . - irq_bx_handler

@ void udf_here(void): an undefined instruction (UsageFault UNDEFINSTR);
@ the UsageFault handler steps the stacked return address over it.
    .global udf_here, udf_insn
    .type   udf_here, %function
    .thumb_func
udf_here:
udf_insn:
    udf     #0
    bx      lr
    .size   udf_here, . - udf_here

    .pool
