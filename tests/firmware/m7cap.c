/*
 * m7cap.c - Cortex-M7 exceptions under capture (tests/m7cap.sh): SysTick,
 * PendSV, SVC, nested preemption (IRQ 6 pends the higher-priority IRQ 7,
 * which preempts it), exception entry with and without the 4-byte
 * alignment pad, return through pop {pc} and bx lr, and a UsageFault with a
 * handler.  Every stacked word is checked against the value worked out by
 * hand from what frame_test (m7cap_asm.S) put in the registers; the script
 * checks the same words in the oracle's entry records.  Exits 0 when all
 * checks pass, else the number of failures.
 */
#include <stdio.h>

#include "citcat_m7.h"

void frame_test(uint32_t *top, unsigned pad);
void irq_pop_handler(void);
void irq_bx_handler(void);
void udf_here(void);
void m7cap_exc(uint32_t *frame, uint32_t exc_return);
void SysTick_Handler(void);
void PendSV_Handler(void);
void SVC_Handler(void);
extern char frame_epc[], udf_insn[];

uint32_t frame_after[8];
static uint32_t vectors[64] __attribute__((aligned(256)));
static uint32_t stack_area[64] __attribute__((aligned(8)));
static volatile uint32_t ticks, pendsvs, svcs, faults;
static volatile uint32_t frame_words[8], frame_addr, frame_exc_return;
static volatile int log_[8], nlog;
static volatile uint32_t ret6, ret7;
static int failures;

static inline uint32_t ipsr(void)
{
	uint32_t v;
	__asm__ volatile("mrs %0, ipsr" : "=r"(v));
	return v;
}

static void check(int ok, const char *what, uint32_t got, uint32_t want)
{
	if (!ok) {
		printf("FAIL %s: 0x%08lx, want 0x%08lx\n", what, (unsigned long)got, (unsigned long)want);
		failures++;
	}
}
#define CHECK_EQ(what, got, want) check((uint32_t)(got) == (uint32_t)(want), what, (uint32_t)(got), (uint32_t)(want))

/* Every handler stub of m7cap_asm.S lands here, FRAME the stacked frame. */
void m7cap_exc(uint32_t *frame, uint32_t exc_return)
{
	switch (ipsr()) {
	case 16 + 4: /* frame_test's IRQs */
	case 16 + 5:
		for (int i = 0; i < 8; i++)
			frame_words[i] = frame[i];
		frame_addr = (uint32_t)frame;
		frame_exc_return = exc_return;
		break;
	case 16 + 6: /* priority 8: pends IRQ 7 (4), which preempts at once */
		ret6 = exc_return;
		log_[nlog++] = 6;
		CITCAT_REG(CITCAT_M7_NVIC_STIR) = 7;
		log_[nlog++] = -6;
		break;
	case 16 + 7:
		ret7 = exc_return;
		log_[nlog++] = 7;
		log_[nlog++] = -7;
		break;
	case 6: /* UsageFault: step over the 16-bit udf */
		faults++;
		frame[6] += 2;
		break;
	}
}

void SysTick_Handler(void) { ticks++; }
void PendSV_Handler(void) { pendsvs++; }
void SVC_Handler(void) { svcs++; }

static void one_frame(unsigned irq, unsigned pad)
{
	uint32_t *top = stack_area + 64;
	citcat_m7_nvic_set_pending(irq); /* taken at frame_epc, after cpsie i */
	frame_test(top, pad);
	uint32_t want_frame = pad ? (uint32_t)top - 0x28 : (uint32_t)top - 0x20;
	static const uint32_t regs[6] = {0x11111111, 0x22222222, 0x33333333, 0x44444444, 0xCCCCCCCC, 0x5555AAAB};
	char what[48];
	snprintf(what, sizeof what, "IRQ %u pad %u frame address", irq, pad);
	CHECK_EQ(what, frame_addr, want_frame);
	for (int i = 0; i < 6; i++) {
		snprintf(what, sizeof what, "IRQ %u pad %u stacked word %d", irq, pad, i);
		CHECK_EQ(what, frame_words[i], regs[i]);
		snprintf(what, sizeof what, "IRQ %u pad %u restored register %d", irq, pad, i);
		CHECK_EQ(what, frame_after[1 + i], regs[i]);
	}
	snprintf(what, sizeof what, "IRQ %u pad %u return address", irq, pad);
	CHECK_EQ(what, frame_words[6], (uint32_t)frame_epc);
	snprintf(what, sizeof what, "IRQ %u pad %u stacked xPSR", irq, pad);
	CHECK_EQ(what, frame_words[7], 0xA1000000u | pad << 9); /* N, C, T; bit 9 the pad */
	snprintf(what, sizeof what, "IRQ %u pad %u EXC_RETURN", irq, pad);
	CHECK_EQ(what, frame_exc_return, 0xFFFFFFF9u); /* from thread mode on MSP */
	snprintf(what, sizeof what, "IRQ %u pad %u SP after return", irq, pad);
	CHECK_EQ(what, frame_after[0], (uint32_t)top - 4 * pad);
	snprintf(what, sizeof what, "IRQ %u pad %u APSR after return", irq, pad);
	CHECK_EQ(what, frame_after[7] & 0xF8000000u, 0xA0000000u);
}

int main(void)
{
	/* a vector table of our own (VTOR), with the stubs on IRQ 4..7 */
	for (int i = 0; i < 48; i++)
		vectors[i] = ((volatile uint32_t *)0)[i];
	vectors[16 + 4] = (uint32_t)irq_pop_handler;
	vectors[16 + 5] = (uint32_t)irq_bx_handler;
	vectors[16 + 6] = (uint32_t)irq_pop_handler;
	vectors[16 + 7] = (uint32_t)irq_bx_handler;
	vectors[6] = (uint32_t)irq_pop_handler;
	CITCAT_REG(CITCAT_M7_SCB_VTOR) = (uint32_t)vectors;
	for (unsigned irq = 4; irq < 8; irq++)
		citcat_m7_nvic_enable(irq);

	/* stacking with and without the pad; return through pop {pc} and bx lr */
	citcat_irq_mask();
	one_frame(4, 0);
	one_frame(4, 1);
	one_frame(5, 0);
	one_frame(5, 1);
	citcat_irq_unmask();

	/* nested preemption: IRQ 7 (priority 4) preempts IRQ 6 (8) */
	citcat_m7_nvic_set_priority(6, 8);
	citcat_m7_nvic_set_priority(7, 4);
	citcat_m7_nvic_set_pending(6);
	__asm__ volatile("dsb\n isb" ::: "memory");
	CHECK_EQ("nesting log length", nlog, 4);
	CHECK_EQ("nesting: IRQ 6 enters first", log_[0], 6);
	CHECK_EQ("nesting: IRQ 7 preempts", log_[1], 7);
	CHECK_EQ("nesting: IRQ 7 returns", log_[2], -7);
	CHECK_EQ("nesting: IRQ 6 ends last", log_[3], -6);
	CHECK_EQ("IRQ 6 EXC_RETURN (thread, MSP)", ret6, 0xFFFFFFF9u);
	CHECK_EQ("IRQ 7 EXC_RETURN (handler)", ret7, 0xFFFFFFF1u);

	/* SysTick: 10 ticks of 2000 cycles, sleeping in WFI */
	citcat_m7_systick_start(1999, 1);
	while (ticks < 10)
		__asm__ volatile("wfi");
	citcat_m7_systick_stop();
	CHECK_EQ("SysTick ticks", ticks, 10);

	/* PendSV, SVC, a UsageFault with a handler */
	citcat_m7_pend_sv();
	__asm__ volatile("dsb\n isb" ::: "memory");
	CHECK_EQ("PendSV taken", pendsvs, 1);
	__asm__ volatile("svc #3" ::: "memory");
	CHECK_EQ("SVC taken", svcs, 1);
	citcat_m7_enable_faults();
	udf_here();
	CHECK_EQ("UsageFault taken", faults, 1);
	CHECK_EQ("CFSR.UNDEFINSTR", CITCAT_REG(CITCAT_M7_SCB_CFSR) & (1u << 16), 1u << 16);

	printf("m7cap: %d failures\n", failures);
	return failures;
}
