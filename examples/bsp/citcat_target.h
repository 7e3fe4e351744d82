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

/* ---- memory map ------------------------------------------------------- */

#define CITCAT_RAM_BASE        0x00000000u
#define CITCAT_RAM_SIZE        0x01000000u /* 16 MiB, the model's default --ram */
#define CITCAT_DEV_BASE        0x40000000u

#define CITCAT_REG(addr)       (*(volatile uint32_t *)(uintptr_t)(addr))

/* System control */
#define CITCAT_SYSCTL_BASE     0x40000000u
#define CITCAT_SYSCTL_EXIT     (CITCAT_SYSCTL_BASE + 0x00u) /* W: end the run with this status */
#define CITCAT_SYSCTL_SCRATCH  (CITCAT_SYSCTL_BASE + 0x04u) /* RW: plain register */
#define CITCAT_SYSCTL_ID       (CITCAT_SYSCTL_BASE + 0x08u) /* R: CITCAT_SYSCTL_ID_VALUE */
#define CITCAT_SYSCTL_ID_VALUE 0xC17CA701u

/* Cache maintenance (any value written triggers the operation) */
#define CITCAT_CACHE_BASE        0x40000100u
#define CITCAT_CACHE_INV_I       (CITCAT_CACHE_BASE + 0x00u)
#define CITCAT_CACHE_INV_D       (CITCAT_CACHE_BASE + 0x04u)
#define CITCAT_CACHE_CLEAN_INV_D (CITCAT_CACHE_BASE + 0x08u)
#define CITCAT_CACHE_CLEAN_D     (CITCAT_CACHE_BASE + 0x0Cu)

/* Interrupt controller */
#define CITCAT_INTC_BASE       0x40000200u
#define CITCAT_INTC_PENDING    (CITCAT_INTC_BASE + 0x00u) /* R  */
#define CITCAT_INTC_ENABLE     (CITCAT_INTC_BASE + 0x04u) /* RW */
#define CITCAT_INTC_ACK        (CITCAT_INTC_BASE + 0x08u) /* W: clear bits written as 1 */
#define CITCAT_INTC_CLAIM      (CITCAT_INTC_BASE + 0x0Cu) /* R: lowest pending&enabled line or ~0 */
#define CITCAT_INTC_SET        (CITCAT_INTC_BASE + 0x10u) /* W: set bits written as 1 */
#define CITCAT_INTC_NONE       0xFFFFFFFFu

/* Interrupt lines */
#define CITCAT_IRQ_TIMER       0u
#define CITCAT_IRQ_UART_RX     1u
#define CITCAT_IRQ_DMA_DONE    2u
#define CITCAT_IRQ_SOFT        3u
#define CITCAT_IRQ_LINES       4u

/* Timer */
#define CITCAT_TIMER_BASE      0x40000300u
#define CITCAT_TIMER_PERIOD    (CITCAT_TIMER_BASE + 0x00u) /* RW: cycles between expiries, 0 = stopped */
#define CITCAT_TIMER_CTRL      (CITCAT_TIMER_BASE + 0x04u) /* RW: bit 0 enable */
#define CITCAT_TIMER_REMAIN    (CITCAT_TIMER_BASE + 0x08u) /* R  */
#define CITCAT_TIMER_TICKS     (CITCAT_TIMER_BASE + 0x0Cu) /* R: expiries so far */
#define CITCAT_TIMER_CTRL_EN   0x1u

/* UART */
#define CITCAT_UART_BASE       0x40000400u
#define CITCAT_UART_DATA       (CITCAT_UART_BASE + 0x00u)
#define CITCAT_UART_STATUS     (CITCAT_UART_BASE + 0x04u)
#define CITCAT_UART_CTRL       (CITCAT_UART_BASE + 0x08u)
#define CITCAT_UART_ST_RXAVAIL 0x1u /* a received byte can be read */
#define CITCAT_UART_ST_TXREADY 0x2u /* always 1 in the model */
#define CITCAT_UART_ST_RXEND   0x4u /* the RX input is exhausted */
#define CITCAT_UART_CTRL_RXIRQ 0x1u /* raise line 1 when a byte arrives */

/* DMA engine */
#define CITCAT_DMA_BASE        0x40000500u
#define CITCAT_DMA_DST         (CITCAT_DMA_BASE + 0x00u)
#define CITCAT_DMA_LEN         (CITCAT_DMA_BASE + 0x04u)
#define CITCAT_DMA_CTRL        (CITCAT_DMA_BASE + 0x08u)
#define CITCAT_DMA_STATUS      (CITCAT_DMA_BASE + 0x0Cu)
#define CITCAT_DMA_COUNT       (CITCAT_DMA_BASE + 0x10u)
#define CITCAT_DMA_CTRL_START  0x1u
#define CITCAT_DMA_CTRL_IRQ    0x2u
#define CITCAT_DMA_ST_BUSY     0x1u
#define CITCAT_DMA_ST_DONE     0x2u
#define CITCAT_DMA_ST_SHORT    0x4u /* input ended before LEN bytes */

/* Cycle counter */
#define CITCAT_CYCLES_BASE     0x40000600u
#define CITCAT_CYCLES_LO       (CITCAT_CYCLES_BASE + 0x00u) /* reading latches HI */
#define CITCAT_CYCLES_HI       (CITCAT_CYCLES_BASE + 0x04u)

/* Entropy and sensor */
#define CITCAT_ENTROPY_BASE    0x40000700u
#define CITCAT_ENTROPY_RANDOM  (CITCAT_ENTROPY_BASE + 0x00u)
#define CITCAT_ENTROPY_SENSOR  (CITCAT_ENTROPY_BASE + 0x04u) /* 12-bit reading */

/* Trace module */
#define CITCAT_TRACE_BASE      0x40000F00u
#define CITCAT_TRACE_CMD       (CITCAT_TRACE_BASE + 0x00u)
#define CITCAT_TRACE_REG(k)    (CITCAT_TRACE_BASE + 0x40u + 4u * (uint32_t)(k))
#define CITCAT_TRACE_DUMP_DONE (CITCAT_TRACE_BASE + 0xFCu)
#define CITCAT_TRACE_CMD_TRC1  0x54524331u /* 'TRC1' */
#define CITCAT_TRACE_CMD_STOP  0x53544F50u /* 'STOP' */
#define CITCAT_TRACE_NSLOTS    39u

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
