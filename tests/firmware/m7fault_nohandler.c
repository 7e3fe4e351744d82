/*
 * m7fault_nohandler.c - a precise BusFault with BusFault enabled but no
 * handler (the BSP leaves the vector 0): the capture stops (exit status 3)
 * naming BusFault, PRECISERR and the PC of the load at m7fault_ld
 * (tests/m7fault.sh).
 */
#include <stdio.h>

#include "citcat_m7.h"

int main(void)
{
	citcat_irq_unmask(); /* PRIMASK would escalate it to HardFault */
	citcat_m7_enable_faults();
	printf("before the fault\n");
	__asm__ volatile("ldr r1, =0x30000004\n .global m7fault_ld\n m7fault_ld: ldr r0, [r1]" ::: "r0", "r1", "memory");
	printf("after the fault\n");
	return 0;
}
