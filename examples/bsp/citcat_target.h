/*
 * citcat_target.h - registers and helpers of the modelled CITCAT target.
 *
 * Mirrors capture/TARGET.md (version 1).  Every device register is 32 bits
 * wide and must be accessed with 32-bit loads and stores: byte or halfword
 * accesses, and accesses to unassigned offsets, stop the capture.  Device
 * accesses are never cached; each one is an uncached read or write on the
 * bus and costs the "uncached" penalty.
 *
 * All helpers are static inline so a program that does not use a device does
 * not touch it.
 */
#ifndef CITCAT_TARGET_H
#define CITCAT_TARGET_H

#include <stdint.h>

#include "citcat_regs.h"

#define CITCAT_REG(addr)       (*(volatile uint32_t *)(uintptr_t)(addr))

/* ---- the CITCAT driver (citcat_driver.S) ------------------------------ */

/*
 * Start tracing: arm the trace module, clean+invalidate the D-cache,
 * invalidate the I-cache (the instruction after that store is the trace
 * start point P) and dump the registers as they were at P into the trace
 * module's REG slots.  Preserves every register, the mode and the caller's
 * IRQ mask.  Must be called from a privileged mode (SYS, SVC, IRQ ...).
 * The BSP calls it before main() unless the program uses
 * CITCAT_DEFER_TRACE_START (below).
 */
void citcat_trace_start(void);

/* Stop recording (CMD = STOP).  Optional: EXIT also stops the recording. */
void citcat_trace_stop(void);

/*
 * Put this once at file scope in a program that wants to start tracing
 * itself (for example after initialisation) by calling citcat_trace_start():
 *
 *     CITCAT_DEFER_TRACE_START;
 *
 * It defines the symbol citcat_defer_trace_start, which the BSP's reset code
 * looks for (a weak reference) to skip the call at boot.
 */
#define CITCAT_DEFER_TRACE_START const unsigned char citcat_defer_trace_start = 1

/* ---- interrupts -------------------------------------------------------- */

/*
 * C-level interrupt handlers, one per line.  The BSP defines each of them
 * weak; the default disables its line in ENABLE so an unexpected interrupt
 * cannot storm.  A program overrides one simply by defining a function of
 * that name.  Handlers run in IRQ mode on the IRQ stack with IRQs masked,
 * after the line has been acknowledged (so an event arriving during the
 * handler latches again and is not lost).
 */
void citcat_irq_timer(void);
void citcat_irq_uart_rx(void);
void citcat_irq_dma_done(void);
void citcat_irq_soft(void);

/*
 * Spin in a `b .` loop until an interrupt is taken: the BSP's IRQ entry
 * notices that it interrupted this loop and resumes after it.  IRQs must be
 * unmasked and some enabled line must be able to fire, or this never ends.
 */
void citcat_spin_until_irq(void);

static inline void citcat_irq_unmask(void) { __asm__ volatile("cpsie i" ::: "memory"); }
static inline void citcat_irq_mask(void) { __asm__ volatile("cpsid i" ::: "memory"); }

/* Mask IRQs and return the previous CPSR, for citcat_irq_restore(). */
static inline uint32_t citcat_irq_save(void)
{
    uint32_t cpsr;
    __asm__ volatile("mrs %0, cpsr\n\tcpsid i" : "=r"(cpsr)::"memory");
    return cpsr;
}

static inline void citcat_irq_restore(uint32_t cpsr)
{
    if (!(cpsr & 0x80u))
        __asm__ volatile("cpsie i" ::: "memory");
}

static inline void citcat_irq_enable_line(unsigned line)
{
    CITCAT_REG(CITCAT_INTC_ENABLE) |= 1u << line;
}

static inline void citcat_irq_disable_line(unsigned line)
{
    CITCAT_REG(CITCAT_INTC_ENABLE) &= ~(1u << line);
}

static inline void citcat_irq_ack(unsigned line) { CITCAT_REG(CITCAT_INTC_ACK) = 1u << line; }

/* Raise a software interrupt (line 3, or any line, for testing). */
static inline void citcat_irq_raise(unsigned line) { CITCAT_REG(CITCAT_INTC_SET) = 1u << line; }

/*
 * Wait for interrupt.  The core sleeps until an enabled line is pending,
 * whatever CPSR.I: with IRQs masked, WFI is a race-free "wait for event"
 * (check a condition with IRQs masked, then WFI, then unmask).  WFI when
 * nothing can wake the core stops the capture with an error.
 */
static inline void citcat_wfi(void) { __asm__ volatile("wfi" ::: "memory"); }

/* ---- system control --------------------------------------------------- */

__attribute__((noreturn)) static inline void citcat_exit(uint32_t status)
{
    CITCAT_REG(CITCAT_SYSCTL_EXIT) = status;
    for (;;)
        ;
}

static inline uint32_t citcat_sysctl_id(void) { return CITCAT_REG(CITCAT_SYSCTL_ID); }

/* The target's nominal clock in Hz (capture --clock-hz, default 100 MHz):
 * seconds = citcat_cycles() / citcat_clock_hz(). */
static inline uint32_t citcat_clock_hz(void) { return CITCAT_REG(CITCAT_SYSCTL_CLOCK_HZ); }

/* ---- UART -------------------------------------------------------------- */

/* TX is always ready in the model, so no status poll (saves a device read). */
static inline void citcat_uart_putc(char c) { CITCAT_REG(CITCAT_UART_DATA) = (uint8_t)c; }

static inline void citcat_uart_puts(const char *s)
{
    while (*s)
        citcat_uart_putc(*s++);
}

static inline uint32_t citcat_uart_status(void) { return CITCAT_REG(CITCAT_UART_STATUS); }

/* Take the received byte (0 if none: check citcat_uart_status() first). */
static inline int citcat_uart_getc_now(void) { return (int)(CITCAT_REG(CITCAT_UART_DATA) & 0xFFu); }

/* Blocking read by polling: the next byte, or -1 once the input is exhausted. */
static inline int citcat_uart_getc(void)
{
    for (;;) {
        uint32_t st = citcat_uart_status();
        if (st & CITCAT_UART_ST_RXAVAIL)
            return citcat_uart_getc_now();
        if (st & CITCAT_UART_ST_RXEND)
            return -1;
    }
}

static inline void citcat_uart_rx_irq(int on)
{
    CITCAT_REG(CITCAT_UART_CTRL) = on ? CITCAT_UART_CTRL_RXIRQ : 0u;
}

/* ---- cycle counter, entropy, sensor ---------------------------------- */

static inline uint32_t citcat_cycles32(void) { return CITCAT_REG(CITCAT_CYCLES_LO); }

static inline uint64_t citcat_cycles(void)
{
    uint32_t lo = CITCAT_REG(CITCAT_CYCLES_LO); /* latches HI */
    uint32_t hi = CITCAT_REG(CITCAT_CYCLES_HI);
    return ((uint64_t)hi << 32) | lo;
}

static inline uint32_t citcat_random(void) { return CITCAT_REG(CITCAT_ENTROPY_RANDOM); }
static inline uint32_t citcat_sensor(void) { return CITCAT_REG(CITCAT_ENTROPY_SENSOR); }

/* ---- true random number generator ------------------------------------ */

static inline uint32_t citcat_trng_status(void) { return CITCAT_REG(CITCAT_TRNG_STATUS); }
static inline uint32_t citcat_trng_count(void) { return CITCAT_REG(CITCAT_TRNG_COUNT); }

/* Wait by polling STATUS until a value is ready, then take it (the next one
 * is ready CITCAT_TRNG_DELAY cycles later). */
static inline uint32_t citcat_trng_read(void)
{
    while (!(citcat_trng_status() & CITCAT_TRNG_ST_READY))
        ;
    return CITCAT_REG(CITCAT_TRNG_DATA);
}

/* ---- DMA ----------------------------------------------------------------- */

/*
 * Start a transfer of len bytes from the DMA input stream to dst.  With
 * irq != 0, line 2 is raised on completion.  The engine snoops the caches,
 * so no cache maintenance is needed around a transfer; do not touch the
 * destination until the transfer is done.
 */
static inline void citcat_dma_start(void *dst, uint32_t len, int irq)
{
    CITCAT_REG(CITCAT_DMA_DST) = (uint32_t)(uintptr_t)dst;
    CITCAT_REG(CITCAT_DMA_LEN) = len;
    CITCAT_REG(CITCAT_DMA_CTRL) = CITCAT_DMA_CTRL_START | (irq ? CITCAT_DMA_CTRL_IRQ : 0u);
}

static inline uint32_t citcat_dma_status(void) { return CITCAT_REG(CITCAT_DMA_STATUS); }
static inline uint32_t citcat_dma_count(void) { return CITCAT_REG(CITCAT_DMA_COUNT); }

/*
 * True once a completed transfer stopped short because the DMA input
 * (--dma-in FILE) ended.  Every later start completes at its first step
 * with COUNT 0 (and raises line 2 again if asked): restart only after a
 * full-length completion, never unconditionally from the DMA-done handler,
 * or the zero-length completions follow each other for the rest of the run
 * (capture/TARGET.md, DMA engine).
 */
static inline int citcat_dma_input_ended(void)
{
    return (citcat_dma_status() & (CITCAT_DMA_ST_BUSY | CITCAT_DMA_ST_SHORT)) == CITCAT_DMA_ST_SHORT;
}

/* Wait by polling STATUS; returns the number of bytes transferred. */
static inline uint32_t citcat_dma_wait(void)
{
    while (citcat_dma_status() & CITCAT_DMA_ST_BUSY)
        ;
    return citcat_dma_count();
}

/* ---- timer --------------------------------------------------------------- */

/* Start the timer with the given period in cycles (restarts a full period). */
static inline void citcat_timer_start(uint32_t period)
{
    CITCAT_REG(CITCAT_TIMER_CTRL) = 0;
    CITCAT_REG(CITCAT_TIMER_PERIOD) = period;
    CITCAT_REG(CITCAT_TIMER_CTRL) = CITCAT_TIMER_CTRL_EN;
}

static inline void citcat_timer_stop(void) { CITCAT_REG(CITCAT_TIMER_CTRL) = 0; }
static inline uint32_t citcat_timer_ticks(void) { return CITCAT_REG(CITCAT_TIMER_TICKS); }
static inline uint32_t citcat_timer_remain(void) { return CITCAT_REG(CITCAT_TIMER_REMAIN); }

/* ---- cache maintenance ---------------------------------------------------- */

/* The model is coherent (I-fetch and DMA snoop the D-cache); these exist for
 * experiments with cache behaviour, not for correctness. */
static inline void citcat_cache_inv_i(void) { CITCAT_REG(CITCAT_CACHE_INV_I) = 0; }
static inline void citcat_cache_clean_inv_d(void) { CITCAT_REG(CITCAT_CACHE_CLEAN_INV_D) = 0; }
static inline void citcat_cache_clean_d(void) { CITCAT_REG(CITCAT_CACHE_CLEAN_D) = 0; }
/* Drops dirty data: everything written since the last clean is lost. */
static inline void citcat_cache_inv_d(void) { CITCAT_REG(CITCAT_CACHE_INV_D) = 0; }

#endif /* CITCAT_TARGET_H */
