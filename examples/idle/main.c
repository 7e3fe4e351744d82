/*
 * idle - sleep in WFI between timer interrupts, then spin in a `b .` loop
 * that only an interrupt ends.
 *
 * Exercises: WFI with IRQs unmasked (the core sleeps, cycles pass, no
 * instruction retires, then the interrupt is taken right after the WFI),
 * the BSP's citcat_spin_until_irq() (a `b .` loop the IRQ entry resumes
 * after: the branch counter counts every iteration), timer register reads.
 *
 * Self-check: the handler ran once per expiry (it compares the timer's
 * TICKS with its own count), each sleep and each spin ended with at least
 * one new tick, and the cycles that passed cover the ticks counted.
 */
#include <stdint.h>
#include <stdio.h>

#include "citcat_target.h"

#define PERIOD_CYCLES 20000u
#define SLEEPS 40u
#define SPINS 10u

static volatile uint32_t ticks, missed;

void citcat_irq_timer(void)
{
    ticks++;
    if (citcat_timer_ticks() != ticks)
        missed++;
}

int main(void)
{
    int failed = 0;
    uint32_t woke_without_tick = 0;

    uint64_t start = citcat_cycles();
    citcat_irq_enable_line(CITCAT_IRQ_TIMER);
    citcat_timer_start(PERIOD_CYCLES);
    citcat_irq_unmask();

    for (uint32_t i = 0; i < SLEEPS; i++) {
        uint32_t before = ticks;
        citcat_wfi();
        if (ticks == before) /* the interrupt is taken before the next instruction */
            woke_without_tick++;
    }
    for (uint32_t i = 0; i < SPINS; i++) {
        uint32_t before = ticks;
        citcat_spin_until_irq();
        if (ticks == before)
            woke_without_tick++;
    }

    citcat_irq_mask();
    uint32_t hw = citcat_timer_ticks();
    citcat_timer_stop();
    uint64_t elapsed = citcat_cycles() - start;

    if (woke_without_tick) {
        printf("idle: %lu wake-ups without a tick\n", (unsigned long)woke_without_tick);
        failed = 1;
    }
    if (missed || hw != ticks) {
        printf("idle: handler saw %lu ticks, timer %lu, %lu mismatches\n", (unsigned long)ticks,
               (unsigned long)hw, (unsigned long)missed);
        failed = 1;
    }
    if (ticks != SLEEPS + SPINS || elapsed < (uint64_t)ticks * PERIOD_CYCLES) {
        printf("idle: %lu ticks in %lu cycles\n", (unsigned long)ticks, (unsigned long)elapsed);
        failed = 1;
    }
    printf("idle: %lu ticks, %lu cycles %s\n", (unsigned long)ticks, (unsigned long)elapsed,
           failed ? "FAIL" : "OK");
    return failed;
}
