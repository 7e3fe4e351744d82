/*
 * lvt_thumb_main - lvt_thumb_mix (lvt_thumb.S) against its C reference,
 * with a fast timer interrupting it (interrupts land in Thumb code between
 * the loads, never inside an IT block: TARGET.md).  Self-check: every
 * result equals its reference and interrupts were taken.
 */
#include <stdint.h>
#include <stdio.h>

#include "citcat_target.h"

uint32_t lvt_thumb_mix(uint32_t *tab, uint32_t n);

static volatile uint32_t ticks;

void citcat_irq_timer(void) { ticks++; }

static uint32_t ref_mix(volatile uint32_t *tab, uint32_t n)
{
    uint32_t acc = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t r6 = i & 3;
        acc += r6 == 1 ? tab[1] : tab[2];
        if (r6 == 3) {
            acc += tab[4];
            acc ^= tab[5];
        }
        acc += 0x11223344u;
        acc ^= 0x0badf00du;
        acc ^= 0x11223344u;
        acc += 0xfffeu;
        acc += (uint32_t)-16;
        acc += 0x01020304u + 0x10203040u;
        if (r6 != 0)
            acc += 0x11223344u;
        acc += tab[0] + tab[1] + tab[2];
        acc ^= 0x5a5a5a5au;
        acc += i;
        acc += r6 == 0 ? 1 : r6 == 1 ? 2 : r6 == 2 ? 3 : 5;
        tab[15] = acc;
        acc += (acc >> 8) & 0xffu;
        acc ^= (uint32_t)(int32_t)(int16_t)(tab[15] >> 16);
        acc += tab[1] >> 16;
    }
    return acc;
}

static uint32_t tab[16];

int main(void)
{
    int failed = 0;
    for (uint32_t k = 0; k < 16; k++)
        tab[k] = 0x9e3779b9u * (k + 1);
    citcat_irq_enable_line(CITCAT_IRQ_TIMER);
    citcat_timer_start(173); /* odd and short: lands on every kind of boundary */
    citcat_irq_unmask();
    for (uint32_t k = 0; k < 24; k++) {
        uint32_t n = 50 + 7 * k;
        uint32_t got = lvt_thumb_mix(tab, n), want = ref_mix(tab, n);
        if (got != want) {
            printf("lvt_thumb: mix(%lu) = 0x%08lx, want 0x%08lx\n", (unsigned long)n, (unsigned long)got,
                   (unsigned long)want);
            failed = 1;
        }
    }
    citcat_irq_mask();
    citcat_timer_stop();
    if (ticks < 20) {
        printf("lvt_thumb: only %lu interrupts\n", (unsigned long)ticks);
        failed = 1;
    }
    printf("lvt_thumb: %lu interrupts %s\n", (unsigned long)ticks, failed ? "FAILED" : "OK");
    return failed;
}
