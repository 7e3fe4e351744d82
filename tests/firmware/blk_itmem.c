/*
 * blk_itmem - memory instructions inside Thumb IT blocks, to RAM and to
 * device registers, under a timer: the capture's block engine runs blocks
 * that hold them (capture/TARGET.md "Memory instructions inside IT
 * blocks").  A device access traps out of a block run without the code hook
 * at its instruction, and the run goes on per instruction from there, in
 * the middle of its IT block: the rest of the IT block must run under the
 * IT state it had (the capture writes it into the CPSR), or a
 * condition-failed instruction after it would run, or a condition-passed
 * one would not.
 *
 * Each round takes one of four paths on two bits of a running sum, in
 * three blocks (each ends in a branch):
 *   ite eq: a cycle-counter read (device) or a RAM load, a block without
 *     a store under IT, which the block engine runs without the code hook
 *     until the device read traps;
 *   itt ne: a RAM add and store, or nothing;
 *   itte: a UART write (device) or not, every 64th round.
 * The last two have a store under IT: the block engine runs them per
 * instruction (a trapped store there does not stop Unicorn at once,
 * tests/test_unicorn_block.c part 13).
 * The ARM build assembles the same source without IT (conditional
 * execution), as a check of the same program.  A timer interrupt every 613
 * cycles lands before, between and after these blocks.
 *
 * Self-check: the RAM word holds what the rounds added (computed again in
 * C), exit 0 and "blk_itmem: OK".
 */
#include <stdint.h>
#include <stdio.h>

#include "citcat_target.h"

#define ROUNDS 3000u

static volatile uint32_t ticks;
void citcat_irq_timer(void) { ticks++; }

static volatile uint32_t word = 7;

int main(void)
{
    uint32_t sum = 1, check = 7, bad = 0;
    citcat_irq_enable_line(CITCAT_IRQ_TIMER);
    citcat_timer_start(613u);
    citcat_irq_unmask();
    for (uint32_t rep = 0; rep < ROUNDS; rep++) {
        uint32_t c = sum & 1u, d = (sum >> 1) & 1u, v, u = (rep & 63u) == 0 ? 0u : 1u, s = 0, ch;
        uint32_t before = word;
        __asm__ volatile(".syntax unified\n"
                         " cmp %[c], #0\n"
                         " ite eq\n"
                         " ldreq %[v], [%[dev]]\n" /* the cycle counter: device */
                         " ldrne %[v], [%[ram]]\n"
                         " b 1f\n" /* a block of its own: no store under IT in it */
                         "1:\n"
                         " cmp %[d], #0\n"
                         " itt ne\n"
                         " addne %[s], %[v], #1\n"
                         " strne %[s], [%[ram]]\n"
                         " b 2f\n"
                         "2:\n"
                         " cmp %[u], #0\n"
                         " itte eq\n"
                         " moveq %[ch], #46\n"
                         " streq %[ch], [%[uart]]\n" /* a UART byte: device */
                         " movne %[ch], #0\n"
                         : [v] "=&r"(v), [s] "+&r"(s), [ch] "=&r"(ch)
                         : [c] "r"(c), [d] "r"(d), [u] "r"(u), [dev] "r"(CITCAT_CYCLES_LO), [ram] "r"(&word),
                           [uart] "r"(CITCAT_UART_DATA)
                         : "cc", "memory");
        if (d) {
            check = v + 1u;
            bad += word != check || s != check;
        } else {
            bad += word != before;
        }
        if (c)
            bad += v != before; /* the RAM load */
        (void)ch;
        sum = sum * 33u + v + (rep << 3) + ticks;
    }
    citcat_irq_mask();
    citcat_timer_stop();
    printf("\nblk_itmem: %lu ticks, sum=0x%08lx %s\n", (unsigned long)ticks, (unsigned long)sum, bad ? "FAIL" : "OK");
    citcat_exit(bad ? 1u : 0u);
}
