/*
 * m7ckpt_nmi.c - firmware with its own NMI_Handler (tests/m7ckpt.sh usage):
 * the NMI is the checkpoints' on the Cortex-M7 (capture/TARGET-M7.md,
 * "Checkpoints"), so capturing this with --checkpoint-every must stop with
 * an error at the first checkpoint, whose NMI returns without the driver.
 */
#include "citcat_m7.h"

static volatile unsigned nmis;

void NMI_Handler(void) { nmis++; }

int main(void)
{
	for (volatile unsigned i = 0; i < 3000; i++)
		;
	return (int)nmis;
}
