/* profile_golden.S - code for tests/test_profile.c (never run): its line numbers are stated there */
        .syntax unified
        .arm
        .text
        .global main
        .type main, %function
main:
        bl      leaf            @ 0x1000, line 8
        bl      leaf            @ 0x1004, line 9
        b       .               @ 0x1008, line 10
        .size main, . - main
        .global leaf
        .type leaf, %function
leaf:
        ldr     r0, [r1]        @ 0x100c, line 15
        bx      lr              @ 0x1010, line 16
        .size leaf, . - leaf
        .global irq
        .type irq, %function
irq:
        subs    pc, lr, #4      @ 0x1014, line 21
        .size irq, . - irq
