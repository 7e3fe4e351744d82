/*
 * m7cap_nohandler.c - a UsageFault with no handler on the Cortex-M7: the
 * BSP leaves the fault vectors 0, so the undefined instruction at
 * m7cap_udf escalates to HardFault, which has no handler either, and the
 * capture stops (exit status 3) naming HardFault, UNDEFINSTR and the PC
 * (tests/m7cap.sh).
 */
#include <stdio.h>

#include "citcat_m7.h"

int main(void)
{
	printf("before the fault\n");
	__asm__ volatile(".global m7cap_udf\nm7cap_udf: udf #1" ::: "memory");
	printf("after the fault\n");
	return 0;
}
