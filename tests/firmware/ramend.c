/*
 * ramend - a load and a store that straddle the end of RAM (32 MiB at 0,
 * --ram 32M: 0x01fffffe..0x02000001), issue 36 (capture/TARGET.md, "Accesses that
 * cross a line").  Such an access is a bus error of the whole access at the
 * first byte past RAM; nothing of it reaches the caches or the bus.  Before,
 * the model filled (write-back) or wrote through (write-through) a line
 * beyond RAM, reading past its RAM buffer, and the CAT could not be read.
 *
 * ARMv7-A (tests/ramend.sh): the core stops at the fault (exit status 3);
 * built with -DSTORE=1 the access is the store, else the load.
 * Cortex-M7: HardFault (BusFault disabled: escalated, HFSR.FORCED) with
 * CFSR = PRECISERR | BFARVALID and BFAR = 0x02000000, for the load and then
 * the store; the handler steps over each (16-bit) instruction.  Unicorn
 * 2.0.1 stores an unaligned word byte by byte when it crosses a page, so
 * the store's two bytes inside RAM are written before the fault: main
 * prints them, and the replay must reproduce them.
 */
#include <stdint.h>
#include <stdio.h>

#define END 0x02000000u /* captured with --ram 32M: RAM above the stack at 16 MiB */

#if defined(__ARM_ARCH_7M__) || defined(__ARM_ARCH_7EM__)
#include "citcat_m7.h"

static volatile uint32_t nfaults, cfsr, bfar;
void HardFault_Handler(void);
void ramend_exc(uint32_t *frame);
__attribute__((naked)) void HardFault_Handler(void) { __asm__ volatile("mov r0, sp\n b ramend_exc"); }
void ramend_exc(uint32_t *frame)
{
	cfsr |= CITCAT_REG(CITCAT_M7_SCB_CFSR);
	bfar = CITCAT_REG(CITCAT_M7_SCB_BFAR);
	CITCAT_REG(CITCAT_M7_SCB_CFSR) = CITCAT_REG(CITCAT_M7_SCB_CFSR); /* write 1 to clear */
	CITCAT_REG(CITCAT_M7_SCB_HFSR) = CITCAT_REG(CITCAT_M7_SCB_HFSR);
	nfaults++;
	frame[6] += 2; /* step over the 16-bit ldr/str */
}
#define LOW "l"
#else
#define LOW "r"
#endif

int main(void)
{
	uint32_t v = 0x5a;
	volatile uint8_t *ram = (volatile uint8_t *)(END - 2);
	ram[0] = 0xee;
	ram[1] = 0xff;
	printf("ramend: before %02x %02x\n", ram[0], ram[1]);
#if defined(__ARM_ARCH_7M__) || defined(__ARM_ARCH_7EM__) || !defined(STORE)
	__asm__ volatile("ldr %0, [%1]" : "+" LOW(v) : LOW(END - 2) : "memory");
#endif
#if defined(__ARM_ARCH_7M__) || defined(__ARM_ARCH_7EM__) || defined(STORE)
	__asm__ volatile("str %0, [%1]" : : LOW(0x11223344u), LOW(END - 2) : "memory");
#endif
#if defined(__ARM_ARCH_7M__) || defined(__ARM_ARCH_7EM__)
	printf("ramend: faults %lu cfsr %08lx bfar %08lx r0 %08lx after %02x %02x\n", (unsigned long)nfaults,
	       (unsigned long)cfsr, (unsigned long)bfar, (unsigned long)v, ram[0], ram[1]);
	return nfaults == 2 && cfsr == 0x8200u && bfar == END ? 0 : 1;
#else
	printf("ramend: not reached %08lx\n", (unsigned long)v); /* the capture stops at the fault */
	return 1;
#endif
}
