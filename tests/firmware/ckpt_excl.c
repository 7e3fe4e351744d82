/*
 * ckpt_excl - checkpoints that land between an LDREX and its STREX (issue
 * 36, found by the fidelity campaign; capture/TARGET.md "Checkpoints", the
 * exclusive monitor).  Each round increments a counter with LDREX, 40
 * no-ops, STREX, so that most checkpoints (tests/ckpt_excl.sh captures with
 * --checkpoint-every 1003) interrupt a pair.  The monitor is no
 * part of the state at a segment's start point: before the BSP's
 * checkpoint handler cleared it (CLREX), the capture's STREX succeeded
 * after the checkpoint while the segment, replayed on its own, began with
 * the monitor clear, failed the STREX and retried: one branch more, and the
 * segment's replay diverged at the next checkpoint.
 * Prints "ckpt_excl: N retries, counter 600" (3 x 200 rounds) and exits 0.
 */
#include <stdint.h>
#include <stdio.h>

#define ROUNDS 200u

static volatile uint32_t counter;
static uint32_t retries;

int main(void)
{
	for (uint32_t i = 0; i < ROUNDS; i++) {
		uint32_t v, fail;
		do {
			__asm__ volatile(".global ckpt_excl_ldrex\nckpt_excl_ldrex:\n ldrex %0, [%1]" : "=&r"(v) : "r"(&counter) : "memory");
			v += 3;
			__asm__ volatile(".rept 40\n nop\n .endr" ::: "memory");
			__asm__ volatile(".global ckpt_excl_strex\nckpt_excl_strex:\n strex %0, %1, [%2]" : "=&r"(fail) : "r"(v), "r"(&counter)
					 : "memory");
			retries += fail != 0;
		} while (fail);
	}
	printf("ckpt_excl: %lu retries, counter %lu\n", (unsigned long)retries, (unsigned long)counter);
	return counter != 3 * ROUNDS;
}
