/*
 * gdbcrash.c - firmware for citcat gdb's tests (tests/gdb.sh) and its
 * walkthrough (docs/DEBUGGING.md): a run that crashes, one way per build
 * (CRASH=N), on the ARMv7-A target (ARM or Thumb) and on the Cortex-M7
 * (GDBCRASH_M7, with BusFault enabled and no handler, so that the capture
 * stops at the fault).  Every value below is worked out by hand:
 *
 *   weigh(1000, 7): sum = 1007, prod = 7000, returns 1007 ^ 7000 = 6327
 *   (0x3EF ^ 0x1B58 = 0x18B7); main passes it to report(1, 6327), whose
 *   caller main has the locals base = 1000, step = 7, w = 6327.
 *
 *   CRASH=1, a wild pointer: collect(rec.samples, count) with count = 9
 *   writes nine samples into an array of eight, 0x30000000 + 4 * i: the
 *   ninth (i = 8) lands on rec.out, the pointer right after the array,
 *   which becomes 0x30000020.  store_result() then stores 6327 through it:
 *   a write to an unmapped address (a bus error; on the M7 a precise
 *   BusFault with no handler).
 *
 *   CRASH=2, a smashed stack: parse() copies msg_words = 12 words of
 *   0x30000001 into a buffer of four on its stack: past the buffer they
 *   overwrite the registers parse() saved, its return address among them,
 *   so that parse() returns to 0x30000000 (Thumb): an instruction fetch
 *   from nothing (on the M7 a BusFault, IBUSERR, with no handler).
 *
 *   CRASH=0: no crash; main returns 3 (the exit status).
 */
#include <stdint.h>
#include <stdio.h>

#include "citcat_target.h"
#ifdef GDBCRASH_M7
#include "citcat_m7.h"
#endif

#ifndef CRASH
#error "build with -DCRASH=0..2"
#endif

struct record {
	uint32_t samples[8];
	uint32_t *out; /* where store_result() puts the result */
};

struct record rec;
uint32_t result;
volatile uint32_t count = 9;      /* one sample too many */
volatile uint32_t msg_words = 12; /* a message longer than parse()'s buffer */
const volatile uint32_t msg[12] = {0x30000001u, 0x30000001u, 0x30000001u, 0x30000001u, 0x30000001u, 0x30000001u,
				   0x30000001u, 0x30000001u, 0x30000001u, 0x30000001u, 0x30000001u, 0x30000001u};

uint32_t __attribute__((noinline)) weigh(uint32_t a, uint32_t b)
{
	volatile uint32_t sum = a + b, prod = a * b;
	return sum ^ prod;
}

void __attribute__((noinline)) report(uint32_t code, uint32_t value)
{
	printf("report %lu %lu\n", (unsigned long)code, (unsigned long)value);
}

void __attribute__((noinline)) collect(uint32_t *dst, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		dst[i] = 0x30000000u + 4u * i; /* i = 8: past samples[7], onto rec.out */
}

void __attribute__((noinline)) store_result(uint32_t v)
{
	*rec.out = v;
}

void __attribute__((noinline)) use(uint32_t *b)
{
	__asm__ volatile("" : : "r"(b) : "memory");
}

void __attribute__((noinline)) parse(void)
{
	uint32_t buf[4];
	for (uint32_t i = 0; i < msg_words; i++)
		buf[i] = msg[i]; /* i >= 4: over the saved registers and the return address */
	use(buf);
}

int main(void)
{
#ifdef GDBCRASH_M7
	citcat_irq_unmask();       /* PRIMASK would escalate a fault to HardFault */
	citcat_m7_enable_faults(); /* BusFault taken, and with no handler the capture stops there */
#endif
	volatile uint32_t base = 1000, step = 7;
	volatile uint32_t w = weigh(base, step);
	report(1, w);
	rec.out = &result;
#if CRASH == 1
	collect(rec.samples, count);
	store_result(w); /* through rec.out, now 0x30000020 */
#elif CRASH == 2
	parse(); /* returns to 0x30000000 */
#endif
	return 3;
}
