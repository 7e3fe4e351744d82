/*
 * blk_devrd - device reads inside blocks, quiet and loud, inside and
 * outside Thumb IT blocks, under a timer: the capture's block engine
 * answers a quiet read in the middle of a block and turns back to per
 * instruction for a loud one (capture/TARGET.md "Device reads in the block
 * engine").  Captured with the UART input of uartline (--uart-in), so that
 * a received byte is often waiting.
 *
 * Each round, in blocks of their own (each ends in a branch):
 *   - outside IT: the UART's STATUS and the TRNG's STATUS (quiet);
 *   - inside an IT block on RXAVAIL: the UART's DATA (loud: the byte taken
 *     and the wait for the next one started) and the cycle counter, or else
 *     the cycle counter and a RAM load;
 *   - every 64th round, inside an IT block on the TRNG's READY: its DATA
 *     (loud) or its COUNT,
 *     then 70 instructions and its STATUS again in the same block: ready
 *     again when a take came first (64 cycles), which a block run past the
 *     take without the event would read as not ready.
 * The Thumb build's loads under IT put those blocks under the engine's rule
 * for them (run as blocks only while no read is loud); the ARM build
 * assembles the same source as conditional execution.  A timer interrupt
 * every 20011 cycles lands before, between and after the blocks.
 *
 * The test (capture_engines_smc) compares the block engine's CAT, oracle
 * and UART output with the insn engine's, byte for byte.  Self-check: the
 * cycle counter grows from round to round, the RAM load reads what was
 * stored, the TRNG's COUNT is at least the non-zero values taken; exit 0
 * and "blk_devrd: OK".
 */
#include <stdint.h>
#include <stdio.h>

#include "citcat_target.h"

#define ROUNDS 4000u

static volatile uint32_t ticks;
void citcat_irq_timer(void) { ticks++; }

static volatile uint32_t word = 11;

_Static_assert(CITCAT_UART_DATA - CITCAT_SYSCTL_BASE == 0x400 && CITCAT_UART_STATUS - CITCAT_SYSCTL_BASE == 0x404 &&
                   CITCAT_CYCLES_LO - CITCAT_SYSCTL_BASE == 0x600 && CITCAT_TRNG_DATA - CITCAT_SYSCTL_BASE == 0x800 &&
                   CITCAT_TRNG_STATUS - CITCAT_SYSCTL_BASE == 0x804 && CITCAT_TRNG_COUNT - CITCAT_SYSCTL_BASE == 0x808,
               "the offsets the asm uses");

int main(void)
{
    uint32_t sum = 0, bytes = 0, takes = 0, readies = 0, bad = 0, last_cycles = 0;
    citcat_irq_enable_line(CITCAT_IRQ_TIMER);
    citcat_timer_start(20011u);
    citcat_irq_unmask();
    for (uint32_t rep = 0; rep < ROUNDS; rep++) {
        uint32_t ust, tst, ch = 0, cy = 0, r = 0, tv2 = 0, cnt = 0, t2 = 0;
        __asm__ volatile(".syntax unified\n"
                         " ldr %[ust], [%[dev], #0x404]\n" /* quiet */
                         " ldr %[tst], [%[dev], #0x804]\n" /* quiet */
                         " b 1f\n"
                         "1:\n"
                         " tst %[ust], #1\n"
                         " itte ne\n"
                         " ldrne %[ch], [%[dev], #0x400]\n" /* loud: a byte is waiting */
                         " ldrne %[cy], [%[dev], #0x600]\n"
                         " ldreq %[cy], [%[dev], #0x600]\n"
                         " ldr %[r], [%[ram]]\n"
                         " b 2f\n"
                         "2:\n"
                         : [ust] "=&r"(ust), [tst] "=&r"(tst), [ch] "+&r"(ch), [cy] "+&r"(cy), [r] "=&r"(r)
                         : [dev] "r"(CITCAT_SYSCTL_BASE), [ram] "r"(&word)
                         : "cc", "memory");
        if ((rep & 63u) == 0) /* rarely, so that the rest runs as blocks */
            __asm__ volatile(".syntax unified\n"
                         " ldr %[tst], [%[dev], #0x804]\n"
                         " tst %[tst], #1\n"
                         " ite ne\n"
                         " ldrne %[tv2], [%[dev], #0x800]\n" /* loud: a value is ready */
                         " ldreq %[cnt], [%[dev], #0x808]\n"
                         " .rept 70\n"
                         " add %[cnt], %[cnt], #1\n" /* no flags: the block stays a block */
                         " .endr\n"
                         " ldr %[t2], [%[dev], #0x804]\n" /* ready again 64 cycles after a take */
                         " b 3f\n"
                         "3:\n"
                         : [tst] "=&r"(tst), [tv2] "+&r"(tv2), [cnt] "+&r"(cnt), [t2] "=&r"(t2)
                         /* the device window's base: the UART at 0x400, the cycle
                          * counter at 0x600, the TRNG at 0x800 (citcat_regs.h) */
                         : [dev] "r"(CITCAT_SYSCTL_BASE), [ram] "r"(&word)
                         : "cc", "memory");
        if (ust & CITCAT_UART_ST_RXAVAIL) {
            sum += ch;
            bytes++;
        }
        if (tv2)
            takes++;
        readies += t2 & CITCAT_TRNG_ST_READY;
        if (cy <= last_cycles && rep)
            bad++;
        last_cycles = cy;
        bad += r != word;
        word = word * 3u + cy + ticks;
    }
    citcat_irq_mask();
    citcat_timer_stop();
    bad += CITCAT_REG(CITCAT_TRNG_COUNT) < takes; /* a value of 0 is possible but not counted as a take here */
    printf("\nblk_devrd: %lu ticks, %lu bytes, sum %lu, %lu takes, %lu ready %s\n", (unsigned long)ticks,
           (unsigned long)bytes, (unsigned long)sum, (unsigned long)takes, (unsigned long)readies, bad ? "FAIL" : "OK");
    citcat_exit(bad ? 1u : 0u);
}
