/*
 * citcat_m7_regs.h - the System Control Space of the modelled Cortex-M7
 * (capture/TARGET-M7.md): the one list of SysTick, NVIC and SCB register
 * addresses and the bit values both sides use.  The firmware includes it
 * through citcat_m7.h; the host model's exception logic (machine/m7exc.c)
 * decodes its register offsets with these names, so the two cannot
 * disagree.  Plain macros only, valid C for any target and assembler-safe
 * as examples/bsp/citcat_regs.h is (GNU as reads the `u` suffix itself).
 */
#ifndef CITCAT_M7_REGS_H
#define CITCAT_M7_REGS_H

#define CITCAT_M7_SCS_BASE   0xE000E000u
#define CITCAT_M7_SCS_SIZE   0x1000u
/* a register's offset in the SCS (the model works in offsets) */
#define CITCAT_M7_SCS_OFF(addr) ((addr) - CITCAT_M7_SCS_BASE)

#define CITCAT_M7_ICTR       0xE000E004u /* RO 0: 32 interrupt lines */
#define CITCAT_M7_ACTLR      0xE000E008u /* RAZ/WI */
#define CITCAT_M7_SYST_CSR   0xE000E010u
#define CITCAT_M7_SYST_RVR   0xE000E014u /* 24 bits */
#define CITCAT_M7_SYST_CVR   0xE000E018u /* any write clears it */
#define CITCAT_M7_SYST_CALIB 0xE000E01Cu
#define CITCAT_M7_NVIC_ISER  0xE000E100u /* word n: IRQs 32n..32n+31 (only word 0 implemented) */
#define CITCAT_M7_NVIC_ICER  0xE000E180u
#define CITCAT_M7_NVIC_ISPR  0xE000E200u
#define CITCAT_M7_NVIC_ICPR  0xE000E280u
#define CITCAT_M7_NVIC_IABR  0xE000E300u /* RO */
#define CITCAT_M7_NVIC_IPR   0xE000E400u /* one byte per IRQ */
#define CITCAT_M7_SCB_CPUID  0xE000ED00u
#define CITCAT_M7_SCB_ICSR   0xE000ED04u
#define CITCAT_M7_SCB_VTOR   0xE000ED08u
#define CITCAT_M7_SCB_AIRCR  0xE000ED0Cu
#define CITCAT_M7_SCB_SCR    0xE000ED10u
#define CITCAT_M7_SCB_CCR    0xE000ED14u
#define CITCAT_M7_SCB_SHPR   0xE000ED18u /* byte n: exception n + 4 (SHPR1..3: 0xD18, 0xD1C, 0xD20) */
#define CITCAT_M7_SCB_SHCSR  0xE000ED24u
#define CITCAT_M7_SCB_CFSR   0xE000ED28u
#define CITCAT_M7_SCB_HFSR   0xE000ED2Cu
#define CITCAT_M7_SCB_MMFAR  0xE000ED34u
#define CITCAT_M7_SCB_BFAR   0xE000ED38u
#define CITCAT_M7_SCB_AFSR   0xE000ED3Cu
#define CITCAT_M7_NVIC_STIR  0xE000EF00u /* WO: write n to pend IRQ n */

/* SysTick CSR */
#define CITCAT_M7_SYST_ENABLE    (1u << 0)
#define CITCAT_M7_SYST_TICKINT   (1u << 1)
#define CITCAT_M7_SYST_CLKSOURCE (1u << 2) /* RO 1: the processor clock */
#define CITCAT_M7_SYST_COUNTFLAG (1u << 16)
/* ICSR */
#define CITCAT_M7_ICSR_NMIPENDSET (1u << 31)
#define CITCAT_M7_ICSR_PENDSVSET  (1u << 28)
#define CITCAT_M7_ICSR_PENDSVCLR  (1u << 27)
#define CITCAT_M7_ICSR_PENDSTSET  (1u << 26)
#define CITCAT_M7_ICSR_PENDSTCLR  (1u << 25)
/* AIRCR */
#define CITCAT_M7_AIRCR_VECTKEY     0x05FA0000u
#define CITCAT_M7_AIRCR_SYSRESETREQ (1u << 2)
/* SHCSR: MEMFAULTENA, BUSFAULTENA, USGFAULTENA */
#define CITCAT_M7_SHCSR_ENA_SHIFT 16
/* CFSR */
#define CITCAT_M7_CFSR_UNDEFINSTR (1u << 16)
/* HFSR */
#define CITCAT_M7_HFSR_FORCED   (1u << 30)
#define CITCAT_M7_HFSR_DEBUGEVT (1u << 31)

#endif /* CITCAT_M7_REGS_H */
