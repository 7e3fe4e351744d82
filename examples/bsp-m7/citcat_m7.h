/*
 * citcat_m7.h - Cortex-M7 helpers for the modelled target
 * (capture/TARGET-M7.md): NVIC, SysTick, SCB, the PRIMASK/BASEPRI masks,
 * and the register layout of the CITCAT driver's dump.
 *
 * The citcat devices (UART, timer, DMA, ...) and their helpers are the A
 * target's, from citcat_target.h, which this header includes; of its
 * interrupt helpers, citcat_irq_mask()/citcat_irq_unmask() (cpsid/cpsie i:
 * PRIMASK here) and the line helpers work on both targets, while
 * citcat_irq_save()/citcat_irq_restore() read CPSR and are A-only: use
 * citcat_m7_irq_save()/citcat_m7_irq_restore() here.
 *
 * CMSIS names: handlers are the CMSIS ones (SysTick_Handler, SVC_Handler,
 * HardFault_Handler, ...), defined by the program as plain C functions.
 */
#ifndef CITCAT_M7_H
#define CITCAT_M7_H

#include <stdint.h>

#include "citcat_target.h"

/* ---- the driver's register dump (citcat_driver_m7.S) ------------------ */

enum {
    CITCAT_M7_SLOT_R0 = 0,       /* r0..r12: slots 0..12 */
    CITCAT_M7_SLOT_SP = 13,      /* the stack pointer in use */
    CITCAT_M7_SLOT_LR = 14,
    CITCAT_M7_SLOT_PC = 15,      /* the trace start point P */
    CITCAT_M7_SLOT_XPSR = 16,    /* APSR | IPSR | T */
    CITCAT_M7_SLOT_MSP = 17,
    CITCAT_M7_SLOT_PSP = 18,
    CITCAT_M7_SLOT_PRIMASK = 19,
    CITCAT_M7_SLOT_BASEPRI = 20,
    CITCAT_M7_SLOT_FAULTMASK = 21,
    CITCAT_M7_SLOT_CONTROL = 22,
    CITCAT_M7_NSLOTS = 23,       /* the value citcat_trace_start writes to DUMP_DONE */
    /* the checkpoint's dump (citcat_trace_ckpt, TARGET-M7.md "Checkpoints"):
     * the SCS registers, then DUMP_DONE = 39 */
    CITCAT_M7_SLOT_VTOR = 23,
    CITCAT_M7_SLOT_AIRCR = 24,
    CITCAT_M7_SLOT_CCR = 25,
    CITCAT_M7_SLOT_SHCSR = 26,
    CITCAT_M7_SLOT_SHPR1 = 27,   /* SHPR1..3: slots 27..29 */
    CITCAT_M7_SLOT_IABR0 = 30,
    CITCAT_M7_SLOT_IPR0 = 31,    /* IPR0..7: slots 31..38 */
    CITCAT_M7_NSLOTS_CKPT = 39
};

/* ---- System Control Space ---------------------------------------------- */

#include "citcat_m7_regs.h" /* the register addresses, shared with the model (machine/m7exc.c) */

#define CITCAT_M7_REG8(addr) (*(volatile uint8_t *)(uintptr_t)(addr))

/* Exception numbers of the system handlers (for the priority helper). */
enum {
    CITCAT_M7_EXC_MEMMANAGE = 4, CITCAT_M7_EXC_BUSFAULT = 5, CITCAT_M7_EXC_USAGEFAULT = 6,
    CITCAT_M7_EXC_SVCALL = 11, CITCAT_M7_EXC_PENDSV = 14, CITCAT_M7_EXC_SYSTICK = 15
};

/* ---- NVIC -------------------------------------------------------------- */

/* IRQ n (0..31) of the model; 0..3 are the citcat interrupt controller's
 * lines, enabled in the NVIC at reset by the BSP. */
static inline void citcat_m7_nvic_enable(unsigned irq) { CITCAT_REG(CITCAT_M7_NVIC_ISER) = 1u << irq; }
static inline void citcat_m7_nvic_disable(unsigned irq) { CITCAT_REG(CITCAT_M7_NVIC_ICER) = 1u << irq; }
static inline void citcat_m7_nvic_set_pending(unsigned irq) { CITCAT_REG(CITCAT_M7_NVIC_ISPR) = 1u << irq; }
static inline void citcat_m7_nvic_clear_pending(unsigned irq) { CITCAT_REG(CITCAT_M7_NVIC_ICPR) = 1u << irq; }

/* Priority 0 (highest) .. 15: the model implements 4 bits (7:4). */
static inline void citcat_m7_nvic_set_priority(unsigned irq, unsigned prio)
{
    CITCAT_M7_REG8(CITCAT_M7_NVIC_IPR + irq) = (uint8_t)(prio << 4);
}

static inline void citcat_m7_set_system_priority(unsigned exc, unsigned prio)
{
    CITCAT_M7_REG8(CITCAT_M7_SCB_SHPR + exc - 4u) = (uint8_t)(prio << 4);
}

/* AIRCR.PRIGROUP (0..7): group priority = bits 7:PRIGROUP+1. */
static inline void citcat_m7_set_priority_grouping(unsigned g)
{
    CITCAT_REG(CITCAT_M7_SCB_AIRCR) = CITCAT_M7_AIRCR_VECTKEY | ((g & 7u) << 8);
}

/* Enable the MemManage, BusFault and UsageFault exceptions (otherwise
 * their faults escalate to HardFault). */
static inline void citcat_m7_enable_faults(void) { CITCAT_REG(CITCAT_M7_SCB_SHCSR) |= 7u << CITCAT_M7_SHCSR_ENA_SHIFT; }

static inline void citcat_m7_pend_sv(void) { CITCAT_REG(CITCAT_M7_SCB_ICSR) = CITCAT_M7_ICSR_PENDSVSET; }

/* ---- SysTick ------------------------------------------------------------ */

/* Every RELOAD + 1 cycles (RELOAD 1..0xFFFFFF), with the SysTick exception
 * when IRQ != 0 (SysTick_Handler). */
static inline void citcat_m7_systick_start(uint32_t reload, int irq)
{
    CITCAT_REG(CITCAT_M7_SYST_CSR) = 0;
    CITCAT_REG(CITCAT_M7_SYST_RVR) = reload;
    CITCAT_REG(CITCAT_M7_SYST_CVR) = 0;
    CITCAT_REG(CITCAT_M7_SYST_CSR) = 5u | (irq ? 2u : 0u); /* ENABLE, CLKSOURCE, TICKINT */
}

static inline void citcat_m7_systick_stop(void) { CITCAT_REG(CITCAT_M7_SYST_CSR) = 0; }
static inline uint32_t citcat_m7_systick_value(void) { return CITCAT_REG(CITCAT_M7_SYST_CVR); }

/* ---- masks ---------------------------------------------------------------- */

/* Mask interrupts (PRIMASK) and return the previous PRIMASK. */
static inline uint32_t citcat_m7_irq_save(void)
{
    uint32_t pm;
    __asm__ volatile("mrs %0, primask\n\tcpsid i" : "=r"(pm)::"memory");
    return pm;
}

static inline void citcat_m7_irq_restore(uint32_t pm)
{
    if (!(pm & 1u))
        __asm__ volatile("cpsie i" ::: "memory");
}

/* BASEPRI: mask priorities PRIO (0..15) and lower; 0 masks nothing. */
static inline void citcat_m7_set_basepri(unsigned prio)
{
    uint32_t v = (prio & 15u) << 4;
    __asm__ volatile("msr basepri, %0" ::"r"(v) : "memory");
}

#endif /* CITCAT_M7_H */
