/*
 * ckpt - checkpoints against interrupts (capture/TARGET.md, Checkpoints;
 * tests/checkpoint.sh irq).
 *
 * Line 15 of the interrupt controller is the checkpoint's: ENABLE and SET
 * ignore its bit.  The program writes all ones to ENABLE and sets bit 15
 * with SET, and exits with status 1 if ENABLE or PENDING then shows it.
 * Then it computes with the timer interrupting every 3000 cycles and IRQ
 * handlers long enough that checkpoints land inside them (IRQ mode, I = 1),
 * and once more with IRQs masked; exit 0 and "ckpt: OK" when all is well.
 */
#include <stdint.h>
#include <stdio.h>

#include "citcat_target.h"

static volatile uint32_t ticks, acc;

void citcat_irq_timer(void)
{
    for (uint32_t i = 0; i < 50; i++) /* a long handler */
        acc = acc * 33u + i;
    ticks++;
}

static uint32_t work(uint32_t n)
{
    uint32_t h = 2166136261u;
    for (uint32_t i = 0; i < n; i++)
        h = (h ^ i) * 16777619u;
    return h;
}

int main(void)
{
    CITCAT_REG(CITCAT_INTC_ENABLE) = 0xFFFFFFFFu;
    CITCAT_REG(CITCAT_INTC_SET) = 1u << 15;
    uint32_t en = CITCAT_REG(CITCAT_INTC_ENABLE), pend = CITCAT_REG(CITCAT_INTC_PENDING);
    CITCAT_REG(CITCAT_INTC_ENABLE) = 0;
    if ((en | pend) & (1u << 15)) {
        printf("ckpt: line 15 visible (ENABLE 0x%08lx PENDING 0x%08lx)\n", (unsigned long)en, (unsigned long)pend);
        return 1;
    }
    CITCAT_REG(CITCAT_INTC_ACK) = 0xFFFFFFFFu;
    citcat_irq_enable_line(CITCAT_IRQ_TIMER);
    CITCAT_REG(CITCAT_TIMER_PERIOD) = 3000;
    CITCAT_REG(CITCAT_TIMER_CTRL) = 1;
    citcat_irq_unmask();
    uint32_t h = work(20000);
    citcat_irq_mask();
    CITCAT_REG(CITCAT_TIMER_CTRL) = 0;
    h ^= work(10000);
    printf("ckpt: %lu ticks, %08lx OK\n", (unsigned long)ticks, (unsigned long)h);
    return ticks ? 0 : 2;
}
