/*
 * m7lock.c - lockups on the Cortex-M7 from the stacking and vector-read
 * errors (capture/TARGET-M7.md, "Stacking, unstacking and vector-read
 * errors"; tests/m7lock.sh).  Captured with --ram 32M (RAM 0 .. 0x01FFFFFF).
 * Built twice: M7LOCK_STKERR selects the case.
 *
 * VECTTBL (default): VTOR = 0x02000000, the end of RAM, so no vector can be
 *   read.  IRQ 16 (exception 32) enabled and pended at m7lock_pend (its
 *   `str` to ISPR): at the next boundary the entry stacks eight words on
 *   MSP, its vector read at 0x02000080 fails, and HardFault's own at
 *   0x0200000C fails too: a lockup.  The capture stops (exit status 3) with
 *   "lockup: IRQ16 VECTTBL at pc P", P the return address = the
 *   instruction after the store, STOP reason 3, fault kind 11, address 32.
 * STKERR: thread mode on PSP = 0x30000000 (nothing below it), FAULTMASK
 *   set (execution priority -1), NMI pended: NMI (priority -2) preempts, its
 *   eight stacking writes on PSP all fail, and the derived BusFault, at
 *   execution priority -2 with NMI active, cannot be taken or escalated: a
 *   lockup, "lockup: NMI STKERR at pc P", address 2.
 * The firmware prints "before the lockup" and nothing after.
 */
#include <stdio.h>

#include "citcat_m7.h"

void NMI_Handler(void);
void HardFault_Handler(void);
void NMI_Handler(void) { printf("NMI handler ran\n"); }
void HardFault_Handler(void) { printf("HardFault handler ran\n"); }

int main(void)
{
	printf("before the lockup\n");
#ifdef M7LOCK_STKERR
	__asm__ volatile("ldr r0, =0x30000000\n msr psp, r0\n mrs r1, control\n orr r1, r1, #2\n msr control, r1\n isb\n"
			 "ldr r0, =0xE000ED04\n mov r1, #0x80000000\n"
			 ".global m7lock_pend\n m7lock_pend: str r1, [r0]\n"
			 "dsb\n isb\n nop\n b 1f\n .ltorg\n 1:" ::: "r0", "r1", "memory");
#else
	citcat_irq_unmask(); /* the BSP's startup leaves PRIMASK set */
	CITCAT_REG(CITCAT_M7_NVIC_ISER) = 1u << 16;
	__asm__ volatile("dsb\n isb" ::: "memory");
	__asm__ volatile("ldr r0, =0xE000ED08\n mov r1, #0x02000000\n str r1, [r0]\n dsb\n isb\n"
			 "ldr r0, =0xE000E200\n mov r1, #0x10000\n"
			 ".global m7lock_pend\n m7lock_pend: str r1, [r0]\n"
			 "dsb\n isb\n nop\n b 1f\n .ltorg\n 1:" ::: "r0", "r1", "memory");
#endif
	printf("after the lockup\n");
	return 0;
}
