/*
 * m7_smoke.c - a Cortex-M7 firmware for tests/m7_run.c: newlib nano printf
 * and libm through the M7 BSP, the CITCAT driver's dump, SysTick with a
 * CMSIS handler, SVC, and a citcat interrupt-controller line delivered
 * through the NVIC to the shared dispatcher (citcat_irq_soft).  Exits 0 when
 * everything it counted is as expected.
 */
#include <math.h>
#include <stdio.h>

#include "citcat_m7.h"

static volatile uint32_t ticks, svcs, soft;

void SysTick_Handler(void);
void SVC_Handler(void);
void SysTick_Handler(void) { ticks++; }
void SVC_Handler(void) { svcs++; }
void citcat_irq_soft(void) { soft++; }

int main(void)
{
    volatile double x = 2.0;
    printf("m7 sqrt(2) = %ld\n", lround(sqrt(x) * 1e6)); /* 1414214 */

    citcat_irq_unmask();
    citcat_m7_set_system_priority(CITCAT_M7_EXC_SYSTICK, 2);
    citcat_m7_systick_start(999, 1); /* every 1000 cycles */
    while (ticks < 5)
        ;
    citcat_m7_systick_stop();

    __asm__ volatile("svc #1" ::: "memory");

    citcat_irq_enable_line(CITCAT_IRQ_SOFT);
    citcat_irq_raise(CITCAT_IRQ_SOFT);
    while (!soft)
        ;
    printf("ticks %lu svc %lu soft %lu\n", (unsigned long)ticks, (unsigned long)svcs, (unsigned long)soft);
    return ticks == 5 && svcs == 1 && soft == 1 ? 0 : 1;
}
