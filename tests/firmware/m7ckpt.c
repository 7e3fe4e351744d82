/*
 * m7ckpt.c - exception state for Cortex-M7 checkpoints (tests/m7ckpt.sh,
 * capture/TARGET-M7.md "Checkpoints").  Everything the checkpoint's SCS
 * dump carries is away from its reset value and changes under the
 * checkpoints: a vector table in RAM (VTOR), PRIGROUP 4, CCR.DIV_0_TRP, the
 * fault enables, programmed priorities, and nesting four deep: SysTick
 * (priority 12) pends IRQ 6 (8), which calls svc (SVCall 4), whose handler
 * pends IRQ 7 (2) and runs a udf (UsageFault 1).  Every handler spins, so
 * checkpoints land at every depth.  Thread code runs stretches under
 * BASEPRI and under FAULTMASK (where checkpoints wait).  Exits 0 when the
 * counts are right, else the number of failures.
 */
#include <stdio.h>

#include "citcat_m7.h"

#define ROUNDS 12

static uint32_t vectors[64] __attribute__((aligned(256)));
volatile uint32_t m7ckpt_faults;
static volatile uint32_t ticks, n6, n7, nsvc, npendsv;
static int failures;

static void spin(unsigned n)
{
	for (volatile unsigned i = 0; i < n; i++)
		;
}

void SysTick_Handler(void)
{
	ticks++;
	spin(40);
	CITCAT_REG(CITCAT_M7_NVIC_STIR) = 6; /* priority 8 preempts SysTick's 12 */
	spin(40);
	if (ticks % 4 == 0)
		citcat_m7_pend_sv();
}

void PendSV_Handler(void)
{
	npendsv++;
	spin(60);
}

static void irq6(void)
{
	n6++;
	spin(30);
	__asm__ volatile("svc #1" ::: "memory"); /* SVCall 4 preempts IRQ 6's 8 */
	spin(30);
}

static void irq7(void)
{
	n7++;
	spin(30);
}

void SVC_Handler(void)
{
	nsvc++;
	spin(30);
	CITCAT_REG(CITCAT_M7_NVIC_STIR) = 7; /* priority 2 preempts SVCall's 4 */
	spin(10);
	__asm__ volatile("udf #1" ::: "memory"); /* UsageFault (1) preempts */
	spin(30);
}

/* steps over the 16-bit udf in the stacked return address */
__attribute__((naked)) void UsageFault_Handler(void)
{
	__asm__ volatile("tst lr, #4\n"
			 "ite eq\n"
			 "mrseq r0, msp\n"
			 "mrsne r0, psp\n"
			 "ldr r1, [r0, #24]\n"
			 "adds r1, r1, #2\n"
			 "str r1, [r0, #24]\n"
			 "ldr r1, =m7ckpt_faults\n"
			 "ldr r2, [r1]\n"
			 "adds r2, r2, #1\n"
			 "str r2, [r1]\n"
			 "bx lr\n");
}

static void check(const char *what, uint32_t got, uint32_t want)
{
	if (got != want) {
		printf("FAIL %s: %lu, want %lu\n", what, (unsigned long)got, (unsigned long)want);
		failures++;
	}
}

int main(void)
{
	for (int i = 0; i < 48; i++) /* the NMI (the checkpoints') included */
		vectors[i] = ((volatile uint32_t *)0)[i];
	vectors[16 + 6] = (uint32_t)irq6;
	vectors[16 + 7] = (uint32_t)irq7;
	CITCAT_REG(CITCAT_M7_SCB_VTOR) = (uint32_t)vectors;
	citcat_m7_set_priority_grouping(4);
	CITCAT_REG(CITCAT_M7_SCB_CCR) |= 1u << 4; /* DIV_0_TRP: not used, but dumped */
	citcat_m7_enable_faults();
	citcat_m7_set_system_priority(CITCAT_M7_EXC_SYSTICK, 12);
	citcat_m7_set_system_priority(CITCAT_M7_EXC_PENDSV, 14);
	citcat_m7_set_system_priority(CITCAT_M7_EXC_SVCALL, 4);
	citcat_m7_set_system_priority(CITCAT_M7_EXC_USAGEFAULT, 1);
	citcat_m7_nvic_set_priority(6, 8);
	citcat_m7_nvic_set_priority(7, 2);
	citcat_m7_nvic_enable(6);
	citcat_m7_nvic_enable(7);
	citcat_irq_unmask();

	citcat_m7_systick_start(19999, 1); /* the handler chain, with cold caches after a checkpoint, fits well within */
	while (ticks < ROUNDS) {
		spin(20);
		citcat_m7_set_basepri(12); /* SysTick masked for a while */
		spin(20);
		citcat_m7_set_basepri(0);
	}
	citcat_m7_systick_stop();
	__asm__ volatile("cpsid f" ::: "memory"); /* FAULTMASK: checkpoints wait */
	spin(400);
	__asm__ volatile("cpsie f" ::: "memory");

	check("SysTick", ticks, ROUNDS);
	check("IRQ 6", n6, ROUNDS);
	check("SVCall", nsvc, ROUNDS);
	check("IRQ 7", n7, ROUNDS);
	check("UsageFault", m7ckpt_faults, ROUNDS);
	check("PendSV", npendsv, ROUNDS / 4);
	printf("m7ckpt: %d failures\n", failures);
	return failures;
}
