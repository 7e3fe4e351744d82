/*
 * counter - poll the cycle counter, entropy, sensor, timer and interrupt
 * controller registers in a loop.
 *
 * Exercises: a stream of uncached device reads whose values the replayer
 * must take from the trace (they cannot be recomputed), the 64-bit cycle
 * counter's LO/HI latch, a running timer polled without interrupts
 * (PENDING/ACK with the line disabled), SYSCTL SCRATCH and ID.
 *
 * Self-check: the cycle counter strictly increases and HI:LO is consistent,
 * the sensor is 12-bit, the timer's TICKS matches the cycles elapsed, the
 * interrupt controller latches and acknowledges, SCRATCH reads back what
 * was written and ID is 0xC17CA701.  Random values are only summarised.
 */
#include <stdint.h>
#include <stdio.h>

#include "citcat_target.h"

#ifndef SCALE
#define SCALE 1
#endif

#define ITER (20000u * (SCALE))
#define TIMER_PERIOD 5000u

int main(void)
{
    int failed = 0;
    uint32_t ones = 0, sensor_min = 0xFFFFFFFFu, sensor_max = 0, bad_sensor = 0, not_increasing = 0;
    uint32_t expiries_seen = 0;

    if (citcat_sysctl_id() != CITCAT_SYSCTL_ID_VALUE) {
        printf("counter: ID 0x%08lx\n", (unsigned long)citcat_sysctl_id());
        failed = 1;
    }
    CITCAT_REG(CITCAT_SYSCTL_SCRATCH) = 0xA5A5F00Du;
    if (CITCAT_REG(CITCAT_SYSCTL_SCRATCH) != 0xA5A5F00Du) {
        printf("counter: SCRATCH does not read back\n");
        failed = 1;
    }

    /* Software-raised line with the line disabled: latches, never taken. */
    CITCAT_REG(CITCAT_INTC_ENABLE) = 0;
    citcat_irq_raise(CITCAT_IRQ_SOFT);
    if (!(CITCAT_REG(CITCAT_INTC_PENDING) & (1u << CITCAT_IRQ_SOFT)) ||
        CITCAT_REG(CITCAT_INTC_CLAIM) != CITCAT_INTC_NONE) {
        printf("counter: SET/PENDING/CLAIM wrong\n");
        failed = 1;
    }
    citcat_irq_ack(CITCAT_IRQ_SOFT);

    uint64_t start = citcat_cycles();
    citcat_timer_start(TIMER_PERIOD);
    uint64_t prev = start;
    for (uint32_t i = 0; i < ITER; i++) {
        uint64_t now = citcat_cycles();
        if (now <= prev)
            not_increasing++;
        prev = now;
        uint32_t s = citcat_sensor();
        if (s > 0xFFFu)
            bad_sensor++;
        if (s < sensor_min)
            sensor_min = s;
        if (s > sensor_max)
            sensor_max = s;
        uint32_t r = citcat_random();
        ones += (uint32_t)__builtin_popcount(r);
        if (CITCAT_REG(CITCAT_INTC_PENDING) & (1u << CITCAT_IRQ_TIMER)) {
            expiries_seen++;
            citcat_irq_ack(CITCAT_IRQ_TIMER);
        }
    }
    uint32_t ticks = citcat_timer_ticks();
    uint64_t elapsed = citcat_cycles() - start;
    citcat_timer_stop();
    citcat_irq_ack(CITCAT_IRQ_TIMER);

    if (not_increasing) {
        printf("counter: cycle counter did not increase %lu times\n", (unsigned long)not_increasing);
        failed = 1;
    }
    if (bad_sensor) {
        printf("counter: %lu sensor readings above 12 bits\n", (unsigned long)bad_sensor);
        failed = 1;
    }
    /* The timer started after `start`, so ticks <= elapsed / period; it was
     * started within a few hundred cycles of `start`, so not much fewer. */
    if ((uint64_t)ticks * TIMER_PERIOD > elapsed || ((uint64_t)ticks + 2) * TIMER_PERIOD < elapsed) {
        printf("counter: %lu timer ticks in %lu cycles\n", (unsigned long)ticks, (unsigned long)elapsed);
        failed = 1;
    }
    if (expiries_seen == 0 || expiries_seen > ticks) {
        printf("counter: saw %lu expiries of %lu\n", (unsigned long)expiries_seen, (unsigned long)ticks);
        failed = 1;
    }
    printf("counter: %lu iterations, %lu cycles, %lu ticks, sensor %lu..%lu, random ones %lu %s\n",
           (unsigned long)ITER, (unsigned long)elapsed, (unsigned long)ticks, (unsigned long)sensor_min,
           (unsigned long)sensor_max, (unsigned long)ones, failed ? "FAIL" : "OK");
    return failed;
}
