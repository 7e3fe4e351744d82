/*
 * thumb_main - the hand-written Thumb tests (thumb_asm.S) against their C
 * references, with a fast timer interrupting them all over: inside IT
 * blocks (where the model defers the interrupt to the block's end,
 * TARGET.md), inside the stream of 32-bit instructions, in ARM code and
 * across the interworking calls.  Self-check: every result equals its
 * reference and interrupts were taken.
 */
#include <stdint.h>
#include <stdio.h>

#include "citcat_target.h"

uint32_t thumb_it_loop(uint32_t n);
uint32_t thumb_wide_loop(uint32_t n);
uint32_t arm_mid(uint32_t x);

static volatile uint32_t ticks;

void citcat_irq_timer(void) { ticks++; }

static uint32_t ref_it_loop(uint32_t n)
{
    uint32_t acc = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t r3 = i & 3;
        if (r3 == 1) {
            acc += 1;
            acc ^= i << 2;
        } else {
            acc += 3;
            acc -= 1;
        }
        if (r3 > 2) {
            acc += i;
            acc ^= 0x55;
        }
    }
    return acc;
}

static uint32_t ref_wide_loop(uint32_t n)
{
    uint32_t acc = 0;
    for (uint32_t i = 0; i < n; i++) {
        acc += i;
        acc ^= (acc >> 7) | (acc << 25);
    }
    return acc;
}

int main(void)
{
    int failed = 0;
    citcat_irq_enable_line(CITCAT_IRQ_TIMER);
    citcat_timer_start(301); /* odd and short (the handler takes about 150 cycles): lands on every kind of boundary */
    citcat_irq_unmask();
    for (uint32_t k = 0; k < 20; k++) {
        uint32_t n = 200 + 7 * k;
        if (thumb_it_loop(n) != ref_it_loop(n)) {
            printf("thumb: it_loop(%lu) = 0x%08lx, want 0x%08lx\n", (unsigned long)n,
                   (unsigned long)thumb_it_loop(n), (unsigned long)ref_it_loop(n));
            failed = 1;
        }
        if (thumb_wide_loop(n) != ref_wide_loop(n)) {
            printf("thumb: wide_loop(%lu) wrong\n", (unsigned long)n);
            failed = 1;
        }
        if (arm_mid(n) != ((3 * n + 5) ^ 0x1200u)) {
            printf("thumb: arm_mid(%lu) = 0x%08lx\n", (unsigned long)n, (unsigned long)arm_mid(n));
            failed = 1;
        }
    }
    /* many interworking calls, so interrupts land in ARM code too */
    uint32_t sum = 0, want = 0;
    for (uint32_t j = 0; j < 2000; j++) {
        sum += arm_mid(j);
        want += (3 * j + 5) ^ 0x1200u;
    }
    if (sum != want) {
        printf("thumb: arm_mid sum 0x%08lx, want 0x%08lx\n", (unsigned long)sum, (unsigned long)want);
        failed = 1;
    }
    citcat_irq_mask();
    citcat_timer_stop();
    if (ticks < 100) {
        printf("thumb: only %lu interrupts\n", (unsigned long)ticks);
        failed = 1;
    }
    printf("thumb: %lu interrupts %s\n", (unsigned long)ticks, failed ? "FAILED" : "OK");
    return failed;
}
