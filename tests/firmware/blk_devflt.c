/*
 * blk_devflt - device accesses the capture's block engine must not make in
 * the middle of a block, quiet writes it makes there, and a run that ends
 * on a device bus error (capture/TARGET.md "Device reads in the block
 * engine"):
 *   - every 64th round, in a block of its own, an LDM of three timer
 *     registers (CTRL, REMAIN, TICKS): a read by an instruction with more
 *     than one access turns back to per instruction at its first, since a
 *     later access that had to turn back could not undo the reads made;
 *   - every round, in another block, a read of the entropy source (quiet,
 *     but each read takes the next value: a read made twice shows in every
 *     later value) and, inside an IT block in the Thumb build, of the
 *     cycle counter;
 *   - every round, in a third block, inside an IT block in the Thumb
 *     build, a read of the UART's DATA (loud when a byte is waiting: the
 *     next one arrives --uart-rate cycles later and raises line 1) with
 *     one instruction and no access after it in the block; with
 *     "--uart-rate 100" and a device read costing more than that, the
 *     insn engine takes the interrupt before that instruction;
 *   - every round, in a fourth block, writes: a character to the UART's
 *     DATA and a value to SCRATCH (quiet: made in the middle of the
 *     block) and SCRATCH read back; every 16th round, in a block of its
 *     own, the interrupt controller's SET of the soft line (enabled: the
 *     insn engine takes its interrupt before the ADD after it, so the
 *     block engine must turn back);
 *   - in the last round (which makes the LDM too) the run ends on a bus
 *     error: in the ARM build the LDM starts at the cycle counter's HI,
 *     whose next register is unassigned (a quiet read, then one no device
 *     serves); in the Thumb build the read inside the IT block is of that
 *     unassigned register.
 * A timer interrupt every 20011 cycles lands before, between and after the
 * blocks.
 *
 * The test (capture_engines_smc) compares the block engine's CAT, oracle
 * and UART output and exit status with the insn engine's, byte for byte:
 * both must stop on the fault (exit 3) at the same instruction.  With
 * "--penalty miss=0,wb=0,uncached=2000" a block's device reads are most of
 * its cycles, which the engine's bound for a block must count, and the
 * bound for what follows a read inside an IT block too.  Captured with the
 * UART input of uartline (--uart-in).
 */
#include <stdint.h>
#include <stdio.h>

#include "citcat_target.h"

#define ROUNDS 3000u

static volatile uint32_t ticks, rx_irqs, softs;
void citcat_irq_timer(void) { ticks++; }
void citcat_irq_uart_rx(void) { rx_irqs++; }
void citcat_irq_soft(void) { softs++; }

_Static_assert(CITCAT_INTC_SET - CITCAT_SYSCTL_BASE == 0x210 && CITCAT_SYSCTL_SCRATCH - CITCAT_SYSCTL_BASE == 0x004 &&
                   CITCAT_TIMER_CTRL - CITCAT_SYSCTL_BASE == 0x304 && CITCAT_CYCLES_HI - CITCAT_SYSCTL_BASE == 0x604 &&
                   CITCAT_CYCLES_LO - CITCAT_SYSCTL_BASE == 0x600 && CITCAT_ENTROPY_RANDOM - CITCAT_SYSCTL_BASE == 0x700,
               "the offsets the asm uses");

int main(void)
{
    uint32_t sum = 0;
    citcat_irq_enable_line(CITCAT_IRQ_TIMER);
    citcat_irq_enable_line(CITCAT_IRQ_UART_RX);
    citcat_irq_enable_line(CITCAT_IRQ_SOFT);
    citcat_uart_rx_irq(1);
    citcat_timer_start(20011u);
    citcat_irq_unmask();
    for (uint32_t rep = 0; rep < ROUNDS; rep++) {
        int last = rep == ROUNDS - 1;
        uint32_t ldm_base = CITCAT_TIMER_CTRL, it_addr = CITCAT_CYCLES_LO, a, b, c, rnd, cy = 0, ch = 0, k = 0;
#ifdef __thumb__
        if (last)
            it_addr = CITCAT_CYCLES_HI + 4u; /* unassigned */
#else
        if (last)
            ldm_base = CITCAT_CYCLES_HI; /* HI, then an unassigned register */
#endif
        a = b = c = 0;
        if ((rep & 63u) == 0 || last) /* rarely, so that the rest runs as blocks */
            __asm__ volatile(".syntax unified\n"
                             " ldm %[lb], {r4, r5, r6}\n"
                             " mov %[a], r4\n"
                             " mov %[b], r5\n"
                             " mov %[c], r6\n"
                             " b 1f\n"
                             "1:\n"
                             : [a] "=&r"(a), [b] "=&r"(b), [c] "=&r"(c)
                             : [lb] "r"(ldm_base)
                             : "r4", "r5", "r6", "memory");
        __asm__ volatile(".syntax unified\n"
                         " ldr %[rnd], [%[dev], #0x700]\n"
                         " cmp %[ia], #0\n"
                         " it ne\n"
                         " ldrne %[cy], [%[ia]]\n"
                         " b 2f\n"
                         "2:\n"
                         : [rnd] "=&r"(rnd), [cy] "+&r"(cy)
                         : [ia] "r"(it_addr), [dev] "r"(CITCAT_SYSCTL_BASE)
                         : "cc", "memory");
        __asm__ volatile(".syntax unified\n"
                         " cmp %[dev], #0\n"
                         " it ne\n"
                         " ldrne %[ch], [%[dev], #0x400]\n"
                         " add %[k], %[k], #1\n"
                         " b 3f\n"
                         "3:\n"
                         : [ch] "+&r"(ch), [k] "+&r"(k)
                         : [dev] "r"(CITCAT_SYSCTL_BASE)
                         : "cc", "memory");
        /* writes: the UART's DATA (a character out) and SCRATCH, which
         * the block engine makes in place, then SCRATCH read back; every
         * 16th round also the controller's SET of the soft line (enabled),
         * whose interrupt the insn engine takes before the ADD after it */
        uint32_t out = 'a' + rep % 26u, sc, soft = 1u << CITCAT_IRQ_SOFT;
        __asm__ volatile(".syntax unified\n"
                         " str %[out], [%[dev], #0x400]\n"
                         " str %[rnd], [%[dev], #0x004]\n"
                         " ldr %[sc], [%[dev], #0x004]\n"
                         " add %[k], %[k], #1\n"
                         " b 4f\n"
                         "4:\n"
                         : [sc] "=&r"(sc), [k] "+&r"(k)
                         : [out] "r"(out), [rnd] "r"(rnd), [dev] "r"(CITCAT_SYSCTL_BASE)
                         : "memory");
        if ((rep & 15u) == 0)
            __asm__ volatile(".syntax unified\n"
                             " str %[soft], [%[dev], #0x210]\n"
                             " add %[k], %[k], #1\n"
                             " b 5f\n"
                             "5:\n"
                             : [k] "+&r"(k)
                             : [soft] "r"(soft), [dev] "r"(CITCAT_SYSCTL_BASE)
                             : "memory");
        sum = sum * 31u + a + b * 3u + c * 5u + rnd * 7u + cy + ch + k + sc;
    }
    /* not reached: the last round ends on a bus error */
    citcat_irq_mask();
    printf("\nblk_devflt: %lu ticks, %lu RX interrupts, sum %lu: no bus error\n", (unsigned long)ticks,
           (unsigned long)rx_irqs, (unsigned long)sum);
    citcat_exit(1u);
}
