/*
 * te_switch - firmware that changes SCTLR.TE after the trace start point
 * (TARGET.md, IRQ entry: TE is read live at each exception entry).
 *
 * Built ARM with the default BSP (TE = 0 at P, ARM vectors): five timer
 * interrupts enter citcat_irq_entry in ARM state.  Then, with IRQs masked,
 * the program rewrites the IRQ vector at 0x18 as the Thumb-2
 * `ldr.w pc, [pc, #0]` (which loads the word at 0x1C, the unused FIQ vector:
 * no checkpoints here) pointing at te_thumb_irq, and sets TE = 1 with mcr:
 * five more interrupts enter in Thumb state.  Then TE = 0 and the ARM vector
 * again: five more in ARM state.  The capture and the replay (which starts
 * from TE = 0 in the IMS) must both follow the mcr.
 *
 * Self-check: te_thumb_irq counted exactly the interrupts taken while TE = 1
 * (it runs only when the entry was made in Thumb state: in ARM state the
 * vector's halfwords f8df f000 are no branch to it), and every tick was
 * served.
 */
#include <stdint.h>
#include <stdio.h>

#include "citcat_target.h"

#define PERIOD_CYCLES 4000u

extern uint32_t _vectors[];            /* start.S, at 0 */
extern void te_thumb_irq(void);        /* te_switch_asm.S, Thumb */
extern void te_set(uint32_t te);       /* te_switch_asm.S: SCTLR.TE = te */
extern volatile uint32_t te_thumb_entries;

static volatile uint32_t ticks;

void citcat_irq_timer(void) { ticks++; }

static void wait_ticks(uint32_t n)
{
    uint32_t until = ticks + n;
    citcat_irq_unmask();
    while (ticks < until)
        citcat_wfi();
    citcat_irq_mask();
}

int main(void)
{
    uint32_t arm_vec = _vectors[6], fiq_vec = _vectors[7];

    citcat_irq_enable_line(CITCAT_IRQ_TIMER);
    citcat_timer_start(PERIOD_CYCLES);
    wait_ticks(5);
    uint32_t before = ticks;

    _vectors[6] = 0xf000f8dfu;                     /* Thumb: ldr.w pc, [pc, #0] */
    _vectors[7] = (uint32_t)(uintptr_t)&te_thumb_irq; /* bit 0 set: Thumb */
    te_set(1);
    wait_ticks(5);
    uint32_t during = ticks - before;

    te_set(0);
    _vectors[6] = arm_vec;
    _vectors[7] = fiq_vec;
    wait_ticks(5);
    citcat_timer_stop();

    int ok = during >= 5 && te_thumb_entries == during && ticks >= 15;
    printf("te_switch: %lu ticks, %lu entered in Thumb state (%lu while TE = 1): %s\n", (unsigned long)ticks,
           (unsigned long)te_thumb_entries, (unsigned long)during, ok ? "OK" : "FAILED");
    return ok ? 0 : 1;
}
