/*
 * m7wild.c - a Cortex-M7 program that crashes on a wild pointer while
 * SysTick interrupts it (issue 35: the firmware engineer's crash, for the
 * report's summary and every tool on a crashed run; tests/report_crash.sh).
 *
 * It sums a linked list 400 times with SysTick running (its handler counts
 * ticks), prints, then breaks one link to point at 0x80000090, outside
 * every memory region, and walks the list again.  The load through the
 * wild pointer is a precise BusFault; BusFault is not enabled (SHCSR), so
 * it escalates to HardFault, which has no handler (the BSP leaves the
 * vector 0): the capture stops with HardFault FORCED PRECISERR and BFAR
 * 0x80000090 (CFSR 0x8200, HFSR 0x40000000).
 */
#include <stdint.h>
#include <stdio.h>

#include "citcat_m7.h"

#define WILD 0x80000090u

struct node {
	struct node *next;
	uint32_t val;
};

static volatile uint32_t ticks;
void SysTick_Handler(void) { ticks++; }

static struct node pool[64];

static uint32_t walk(const struct node *n)
{
	uint32_t s = 0;
	while (n) {
		s += n->val;
		n = n->next;
	}
	return s;
}

int main(void)
{
	citcat_irq_unmask();
	citcat_m7_systick_start(5000, 1);
	for (int i = 0; i < 64; i++) {
		pool[i].val = (uint32_t)i * 3u;
		pool[i].next = i < 63 ? &pool[i + 1] : 0;
	}
	uint32_t total = 0;
	for (int r = 0; r < 400; r++)
		total += walk(&pool[r % 64]);
	printf("total %u after %u ticks\n", (unsigned)total, (unsigned)ticks);
	pool[40].next = (struct node *)WILD; /* the wild pointer */
	total += walk(pool);
	printf("not reached %u\n", (unsigned)total);
	return 0;
}
