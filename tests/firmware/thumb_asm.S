/*
 * thumb_asm.S - hand-written Thumb-2 and interworking code for the Thumb
 * tests (tests/thumb.cmake, thumb_check.sh).  Built with the BSP like an
 * example (THUMB); this file picks its state per function.
 *
 *   uint32_t thumb_it_loop(uint32_t n)    IT blocks (ITETE, ITTT) whose
 *       conditions pass and fail, 16- and 32-bit instructions inside them
 *   uint32_t thumb_wide_loop(uint32_t n)  a loop of 32-bit Thumb
 *       instructions only
 *   uint32_t arm_mid(uint32_t x)          ARM code called from Thumb C,
 *       calling Thumb with blx imm (leaf returns with pop {pc}) and blx reg
 *       (leaf returns with bx lr), returning to Thumb with ARM pop {pc}
 * thumb_main.c holds the C reference of each.
 */
    .syntax unified
    .text

    .thumb
    .global thumb_it_loop
    .type   thumb_it_loop, %function
    .thumb_func
    .balign 4
thumb_it_loop:
    push    {r4, lr}
    movs    r1, #0                  @ acc
    movs    r2, #0                  @ i
1:  and     r3, r2, #3              @ 32-bit
    cmp     r3, #1
    itete   eq
    addeq   r1, r1, #1              @ 16-bit
    addne.w r1, r1, #3              @ 32-bit
    eoreq   r1, r1, r2, lsl #2      @ 32-bit
    subne   r1, r1, #1              @ 16-bit
    cmp     r3, #2
    ittt    hi
    addhi.w r1, r1, r2
    movhi   r4, r1
    eorhi   r1, r4, #0x55
    adds    r2, #1
    cmp     r2, r0
    bne     1b
    mov     r0, r1
    pop     {r4, pc}                @ return by a load to the PC
    .size   thumb_it_loop, . - thumb_it_loop

    .global thumb_wide_loop
    .type   thumb_wide_loop, %function
    .thumb_func
    .balign 4
thumb_wide_loop:
    mov.w   r1, #0
    mov.w   r2, #0
2:  add.w   r1, r1, r2
    eor.w   r1, r1, r1, ror #7
    add.w   r2, r2, #1
    cmp.w   r2, r0
    bne.w   2b
    mov.w   r0, r1
    bx      lr
    .size   thumb_wide_loop, . - thumb_wide_loop

    .type   thumb_leaf, %function
    .thumb_func
thumb_leaf:                         @ 2x + 5, returns with pop {pc}
    push    {r7, lr}
    lsls    r0, r0, #1
    adds    r0, #5
    pop     {r7, pc}
    .size   thumb_leaf, . - thumb_leaf

    .type   thumb_leaf2, %function
    .thumb_func
thumb_leaf2:                        @ x ^ 0x1200, returns with bx lr
    eor     r0, r0, #0x1200
    bx      lr
    .size   thumb_leaf2, . - thumb_leaf2

    .arm
    .global arm_mid
    .type   arm_mid, %function
    .balign 4
arm_mid:                            @ ((2x + 5) + x) ^ 0x1200
    push    {r4, lr}
    mov     r4, r0
    blx     thumb_leaf              @ ARM -> Thumb, immediate
    add     r0, r0, r4
    movw    r1, #:lower16:thumb_leaf2
    movt    r1, #:upper16:thumb_leaf2   @ bit 0 set: a Thumb function
    blx     r1                      @ ARM -> Thumb, register
    pop     {r4, pc}                @ ARM -> Thumb caller by a load to the PC
    .size   arm_mid, . - arm_mid
