/*
 * blk_exc - a CPU exception inside straight-line A32 code that the capture's
 * block engine runs without the code hook (capture/TARGET.md "The block
 * engine", Faults), one kind per build (BLKEXC=N), for tests/capture_engines.sh:
 * both engines must end the run with the same fault and write the same CAT
 * and oracle.
 *
 *   1 SMC #0 after a load and a store of the same block (Unicorn raises its
 *     exception with the PC after it): the block runs per instruction
 *   2 an MRC of PMCR in User mode with PMUSERENR.EN = 0, undefined only when
 *     it runs, in the middle of a block (its later instructions not run)
 *
 * A loop of some 1.2 M instructions comes first, so that the block engine's
 * back-off after the mode changes of the start-up code (its device
 * accesses: 2^20 instructions per instruction) has ended and the block
 * holding the exception runs without the code hook: without the session 11
 * fix both builds then stop with an internal error (checked at 180000
 * iterations; 20000 are too few).  No printf before it, whose UART writes
 * would lengthen the back-off.  capture_engines.sh checks from the
 * capture's summary that the back-off was over at the stop.
 */
#include <stdint.h>
#include <stdio.h>

#include "citcat_target.h"

#ifndef BLKEXC
#error "build with -DBLKEXC=1..2"
#endif

volatile uint32_t buf[4] = {1, 2, 3, 4};

int main(void)
{
    for (volatile uint32_t i = 0; i < 200000; i++)
        ;
    uint32_t r;
    __asm__ volatile("mov r1, %1\n"
#if BLKEXC == 2
                     "cps #0x10\n"
                     "b 1f\n"
                     "1:\n"
#endif
                     "ldr r2, [r1]\n"
                     "str r2, [r1, #4]\n"
                     "add r2, r2, #1\n"
#if BLKEXC == 1
                     ".global crash_pc\n"
                     "crash_pc: .word 0xe1600070\n" /* smc #0 */
#else
                     ".global crash_pc\n"
                     "crash_pc: mrc p15, 0, r3, c9, c12, 0\n"
#endif
                     "str r2, [r1, #8]\n"
                     "add %0, r2, #3\n"
                     "ldr r2, [r1, #12]\n"
                     : "=r"(r) : "r"(buf) : "r1", "r2", "r3", "memory");
    printf("not reached %u\n", (unsigned)r);
    return 0;
}
