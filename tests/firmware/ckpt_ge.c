/*
 * ckpt_ge - the GE bits of the APSR (CPSR on the A target) across
 * checkpoints and interrupts (issue 36; capture/TARGET-M7.md "Checkpoints",
 * tests/ckpt_ge.sh).  Each round sets GE with UADD8 (ckpt_ge_set), runs 40
 * no-ops and selects bytes by GE with SEL (ckpt_ge_use), checked against a
 * C model of both; a timer interrupt every 777 cycles runs a UADD8 of its
 * own.  Two defects of the Cortex-M7 model (Unicorn 2.0.1's XPSR register
 * write leaves GE as it was):
 *  - a segment that starts at a checkpoint began with GE clear: the
 *    checkpoint handler's dump of xPSR (and any SEL after it) differed from
 *    the capture's (found in strsearch_m7: newlib's SIMD string routines);
 *  - an exception return kept the handler's GE instead of the stacked
 *    xPSR's: the interrupted code's SEL used the handler's GE (this program
 *    printed a FAIL count on the M7).
 * Prints "ckpt_ge: N ticks, sum XXXXXXXX OK" and exits 0.
 */
#include <stdint.h>
#include <stdio.h>

#include "citcat_target.h"

#define ROUNDS 300u

static volatile uint32_t ticks;
static volatile uint32_t hsum;

void citcat_irq_timer(void)
{
	uint32_t x, t = ticks++;
	/* the handler's own GE, different from the interrupted code's */
	__asm__ volatile("uadd8 %0, %1, %2" : "=r"(x) : "r"(t * 0x9e3779b9u), "r"(~t * 0x85ebca6bu));
	hsum += x;
}

/* SEL after UADD8 A, B: byte i from X when A[i] + B[i] >= 256, else from Y */
static uint32_t sel_model(uint32_t a, uint32_t b, uint32_t x, uint32_t y)
{
	uint32_t r = 0;
	for (unsigned i = 0; i < 32; i += 8) {
		uint32_t s = ((a >> i) & 0xffu) + ((b >> i) & 0xffu);
		r |= ((s >= 256u ? x : y) >> i & 0xffu) << i;
	}
	return r;
}

int main(void)
{
	uint32_t a = 0x12345678u, sum = 0, bad = 0;
	citcat_irq_enable_line(CITCAT_IRQ_TIMER);
	citcat_timer_start(777);
	citcat_irq_unmask();
	for (uint32_t i = 0; i < ROUNDS; i++) {
		a = a * 1664525u + 1013904223u;
		uint32_t b = (a >> 7) ^ (i * 0x01030507u), x = 0xa5a5a5a5u ^ i, y = 0x3c3c3c3cu, s, r;
		__asm__ volatile(".global ckpt_ge_set\nckpt_ge_set:\n uadd8 %0, %2, %3\n"
				 ".rept 40\n nop\n .endr\n"
				 ".global ckpt_ge_use\nckpt_ge_use:\n sel %1, %4, %5"
				 : "=&r"(s), "=&r"(r)
				 : "r"(a), "r"(b), "r"(x), "r"(y));
		(void)s;
		bad += r != sel_model(a, b, x, y);
		sum = (sum ^ r) * 0x01000193u;
	}
	citcat_irq_mask();
	citcat_timer_stop();
	if (bad || !ticks) {
		printf("ckpt_ge: FAIL %lu of %u rounds, %lu ticks\n", (unsigned long)bad, ROUNDS, (unsigned long)ticks);
		return 1;
	}
	printf("ckpt_ge: %lu ticks, sum %08lx OK\n", (unsigned long)ticks, (unsigned long)sum);
	return 0;
}
