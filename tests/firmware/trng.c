/*
 * trng - take values from the true random number generator (TARGET.md,
 * 0x40000800) while timer interrupts arrive, and check them against the
 * spec.  Captured with --seed 1 (tests/CMakeLists.txt, device_trng).
 *
 * Self-check (exit 0 and "trng: OK" only when all hold):
 *  - value k equals output k + 1 of splitmix64 seeded with 1 ^ 0x54524E47,
 *    computed here independently of the model (the spec's formula);
 *  - right after a take STATUS is clear, DATA reads 0 and takes nothing;
 *  - no value is ready sooner than 64 cycles after the previous take;
 *  - COUNT counts the takes.
 */
#include <stdint.h>
#include <stdio.h>

#include "citcat_target.h"

#define VALUES 600u
#define SEED 1u

static volatile uint32_t ticks;

void citcat_irq_timer(void) { ticks++; }

static uint64_t splitmix64(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

int main(void)
{
    uint32_t wrong = 0, early = 0, not_clear = 0;
    uint64_t ref = (uint64_t)SEED ^ 0x54524E47u;

    citcat_irq_enable_line(CITCAT_IRQ_TIMER);
    citcat_timer_start(3000u);
    citcat_irq_unmask();
    uint64_t before = 0;
    for (uint32_t k = 0; k < VALUES; k++) {
        /* wait for a value, then take it and look at once, a few
         * cycles after the take */
        while (!(citcat_trng_status() & CITCAT_TRNG_ST_READY))
            ;
        uint32_t cpsr = citcat_irq_save(); /* no handler between the take and the look */
        uint64_t now = citcat_cycles(); /* before this take, after the previous one's ready */
        uint32_t v = CITCAT_REG(CITCAT_TRNG_DATA);
        if ((citcat_trng_status() & CITCAT_TRNG_ST_READY) || CITCAT_REG(CITCAT_TRNG_DATA) != 0)
            not_clear++;
        citcat_irq_restore(cpsr);
        if (v != (uint32_t)splitmix64(&ref))
            wrong++;
        /* the previous take came after BEFORE was read, and this value was
         * ready only DELAY cycles after that take */
        if (k > 0 && now - before < CITCAT_TRNG_DELAY)
            early++;
        before = now;
    }
    citcat_irq_mask();
    citcat_timer_stop();
    uint32_t count = citcat_trng_count();
    int failed = wrong || early || not_clear || count != VALUES || ticks == 0;
    printf("trng: %lu values, %lu wrong, %lu early, %lu not cleared, COUNT %lu, %lu ticks %s\n",
           (unsigned long)VALUES, (unsigned long)wrong, (unsigned long)early, (unsigned long)not_clear,
           (unsigned long)count, (unsigned long)ticks, failed ? "FAIL" : "OK");
    return failed;
}
