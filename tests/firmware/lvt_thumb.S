/*
 * lvt_thumb.S - hand-written Thumb-2 loads for the LVT and DAF tests on
 * Thumb code (tests/lvt_thumb.sh).  Built with the BSP like an example
 * (THUMB).  lvt_thumb_main.c holds the C reference.
 *
 *   uint32_t lvt_thumb_mix(uint32_t *tab, uint32_t n)
 *     per iteration: conditional loads in IT blocks whose condition passes
 *     and fails (16- and 32-bit LDR, LDRD), PC-relative literal loads of
 *     every width (LDR 16- and 32-bit, at word and halfword addresses, one
 *     backwards; LDRH, LDRSB, LDRD literal; one in an IT block), LDM, a
 *     PUSH/POP pair, TBB (a byte load from the code), a store and the byte
 *     and halfword loads of what it stored.
 */
    .syntax unified
    .text
    .thumb

    .balign 4
.Lback:
    .word   0x5a5a5a5a              @ read backwards (LDR.W literal, U = 0)

    .global lvt_thumb_mix
    .type   lvt_thumb_mix, %function
    .thumb_func
lvt_thumb_mix:
    push    {r4-r7, lr}
    movs    r4, #0                  @ acc
    movs    r5, #0                  @ i
1:  and     r6, r5, #3
    cmp     r6, #1
    ite     eq
    ldreq   r7, [r0, #4]            @ 16-bit, passes when i & 3 == 1
    ldrne.w r7, [r0, #8]            @ 32-bit, fails when i & 3 == 1
    add     r4, r4, r7
    cmp     r6, #2
    ittt    hi                      @ i & 3 == 3
    ldrdhi  r2, r3, [r0, #16]
    addhi   r4, r4, r2
    eorhi   r4, r4, r3
    nop                             @ shifts what follows by a halfword
    ldr     r2, .Llit_a             @ 16-bit literal
    add     r4, r4, r2
    ldr.w   r3, .Llit_b             @ 32-bit literal
    eors    r4, r3
    ldr     r2, .Llit_a             @ 16-bit literal, the other alignment
    eors    r4, r2
    ldrh    r2, .Llit_c             @ LDRH literal
    add     r4, r4, r2
    ldrsb   r2, .Llit_d             @ LDRSB literal
    add     r4, r4, r2
    ldrd    r2, r3, .Llit_e         @ LDRD literal
    add     r4, r4, r2
    add     r4, r4, r3
    cmp     r6, #0
    itt     ne
    ldrne   r2, .Llit_a             @ literal in an IT block: fails when i & 3 == 0
    addne   r4, r4, r2
    ldm.w   r0, {r2, r3, r7}        @ tab[0..2]
    add     r4, r4, r2
    add     r4, r4, r3
    add     r4, r4, r7
    ldr.w   r2, .Lback
    eor     r4, r4, r2
    push    {r4, r5}
    pop     {r2, r3}
    adds    r4, r2, r3              @ acc += i
    tbb     [pc, r6]
.Ltbl:
    .byte   (.Lc0 - .Ltbl) / 2, (.Lc1 - .Ltbl) / 2, (.Lc2 - .Ltbl) / 2, (.Lc3 - .Ltbl) / 2
.Lc0:
    adds    r4, #1
    b       .Lend
.Lc1:
    adds    r4, #2
    b       .Lend
.Lc2:
    adds    r4, #3
    b       .Lend
.Lc3:
    adds    r4, #5
.Lend:
    str     r4, [r0, #60]           @ tab[15]
    ldrb    r2, [r0, #61]
    ldrsh.w r3, [r0, #62]
    add     r4, r4, r2
    eor     r4, r4, r3
    ldrh    r2, [r0, #6]            @ the top half of tab[1]
    add     r4, r4, r2
    adds    r5, #1
    cmp     r5, r1
    bne     1b
    mov     r0, r4
    pop     {r4-r7, pc}
    .balign 4
.Llit_a:
    .word   0x11223344
.Llit_b:
    .word   0x0badf00d
.Llit_c:
    .word   0x8001fffe              @ LDRH reads 0xfffe
.Llit_d:
    .word   0x000000f0              @ LDRSB reads -16
.Llit_e:
    .word   0x01020304, 0x10203040
    .size   lvt_thumb_mix, . - lvt_thumb_mix
