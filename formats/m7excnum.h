/* The Cortex-M7's exception numbers (ARMv7-M B1.5.2) as citcat's files carry
 * them: the CAT's EXC events, the LVT's exception records (LVT.md) and the
 * IPSR of a checkpoint's xPSR.  A fact of the architecture the formats
 * check, so it lives here; machine/m7exc.h, the exception model, includes
 * it.  Internal module (not in the public API). */
#ifndef CITCAT_M7EXCNUM_H
#define CITCAT_M7EXCNUM_H

/* IRQ n is M7EXC_IRQ0 + n. */
enum {
	M7EXC_RESET = 1,
	M7EXC_NMI = 2,
	M7EXC_HARDFAULT = 3,
	M7EXC_MEMMANAGE = 4,
	M7EXC_BUSFAULT = 5,
	M7EXC_USAGEFAULT = 6,
	M7EXC_SVCALL = 11,
	M7EXC_DEBUGMON = 12,
	M7EXC_PENDSV = 14,
	M7EXC_SYSTICK = 15,
	M7EXC_IRQ0 = 16,
	M7EXC_NIRQ = 32, /* external interrupt lines modelled (ICTR.INTLINESNUM = 0) */
	M7EXC_NEXC = M7EXC_IRQ0 + M7EXC_NIRQ
};

#endif
