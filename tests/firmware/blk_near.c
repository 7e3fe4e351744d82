/*
 * blk_near - long blocks without memory accesses, run with their I-lines
 * cold and warm, under a timer whose interrupts land at every phase of
 * them: the capture's block engine runs a block without the code hook only
 * when no device event can fall due inside it (capture/target.c
 * cblk_qualify, TARGET.md "How near an event a block runs"), and a block
 * that makes no access leaves no slack in that bound but its own
 * instruction fetches.
 *
 * COLD is 96 ALU instructions in a row (12 I-lines in A32 and in Thumb,
 * where each is 32-bit), no load or store, so the bound is 96 cycles plus
 * one I-line fill for each line the block spans, or none when all of
 * them are in the I-cache.  Two rounds in three invalidate the I-cache
 * first (each of the 12 lines then misses: about 240 cycles more than the
 * instructions' own), the third runs it warm.  The timer's period (997
 * cycles) is prime to a round's length, so its interrupts fall before,
 * inside and after the block in turn.  A bound that left out the fills of
 * cold lines, or called cold lines cached, would let the block run past an
 * interrupt and enter it later than --engine insn does: another CAT
 * (tests/capture_engines.sh compares the two engines byte for byte).
 *
 * Self-check: exit 0 and "blk_near: OK" only when every call returned
 * what its code computes.
 */
#include <stdint.h>
#include <stdio.h>

#include "citcat_target.h"

#define ROUNDS 900u
#define TICK 997u

static volatile uint32_t ticks;
void citcat_irq_timer(void) { ticks++; }

/* x + 3 * 96, in 96 instructions without a memory access (A32, or 32-bit
 * Thumb-2 ADD.W: the unified syntax's ADD without S outside an IT block) */
__attribute__((noinline, aligned(64))) static uint32_t cold(uint32_t x)
{
    __asm__ volatile(".rept 96\n add %0, %0, #3\n .endr" : "+r"(x));
    return x;
}

int main(void)
{
    uint32_t bad = 0, sum = 1;
    citcat_irq_enable_line(CITCAT_IRQ_TIMER);
    citcat_timer_start(TICK);
    citcat_irq_unmask();
    for (uint32_t rep = 0; rep < ROUNDS; rep++) {
        if (rep % 3u != 2u)
            citcat_cache_inv_i();
        uint32_t x = sum & 0xffffu, r = cold(x);
        bad += r != x + 3u * 96u;
        sum = sum * 33u + r;
    }
    citcat_irq_mask();
    citcat_timer_stop();
    printf("blk_near: %lu ticks, sum=0x%08lx %s\n", (unsigned long)ticks, (unsigned long)sum, bad ? "FAIL" : "OK");
    citcat_exit(bad ? 1u : 0u);
}
