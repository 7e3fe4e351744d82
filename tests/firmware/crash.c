/*
 * crash - firmware that ends abnormally, one way per build (CRASH=N), for
 * the post-mortem tests (tests/postmortem.sh): the capture must close a
 * valid CAT and oracle with the stop reason, and the replay must reproduce
 * the run up to the faulting instruction exactly.
 *
 *   1 wild pointer: a load from 0x30000000, far above RAM (bus error, read)
 *   2 stack overflow: a recursion on a stack placed at the bottom of the
 *     address space (SP = 0x20, above the vectors), so its pushes run below
 *     address 0 into unmapped memory (bus error, write)
 *   3 undefined instruction: UDF #0
 *   4 hang: a `b .` loop, for --max-insns and for SIGINT
 *   5 no crash: exit value 7, for --exit-status and info --json
 *   6 a call into the device window, which is not executable (bus error,
 *     instruction fetch; the capture used to fail there and keep nothing)
 *
 * The faulting instruction (or the loop) carries the global label
 * crash_pc, so a test can find its address with nm.
 */
#include <stdint.h>
#include <stdio.h>

#include "citcat_target.h"

#ifndef CRASH
#error "build with -DCRASH=1..6"
#endif

#if CRASH == 2
/* Each frame pushes a word and recurses; noinline and the volatile keep the
 * compiler from turning it into a loop. */
static volatile uint32_t depth_limit = 0xffffffffu; /* never reached: keeps GCC from calling it infinite */

static uint32_t __attribute__((noinline)) dive(volatile uint32_t n)
{
    volatile uint32_t pad[4] = {n, n + 1, n + 2, n + 3};
    if (n == depth_limit)
        return 0;
    return dive(n + 1) + pad[n & 3];
}
#endif

int main(void)
{
    printf("crash %d\n", CRASH);
#if CRASH == 1
    uint32_t v;
    __asm__ volatile("ldr r1, =0x30000000\n"
                     ".global crash_pc\n"
                     "crash_pc: ldr %0, [r1]\n"
                     : "=r"(v) : : "r1", "memory");
    printf("read %u\n", (unsigned)v);
#elif CRASH == 2
    __asm__ volatile("mov sp, #0x20" ::: "memory");
    printf("%u\n", (unsigned)dive(1));
#elif CRASH == 3
    __asm__ volatile(".global crash_pc\n"
                     "crash_pc: .word 0xe7f000f0\n" ::: "memory");
#elif CRASH == 4
    __asm__ volatile(".global crash_pc\n"
                     "crash_pc: b crash_pc\n" ::: "memory");
#elif CRASH == 5
    printf("clock %lu\n", (unsigned long)citcat_clock_hz());
    return 7;
#elif CRASH == 6
    __asm__ volatile("ldr r3, =0x40000040\n"
                     ".global crash_pc\n"
                     "crash_pc: blx r3\n" ::: "r3", "lr", "memory");
#endif
    return 0;
}
