/*
 * citcat_regs.h - the register map of the modelled CITCAT target.
 *
 * The one list of device bases, register addresses and bit values.  It is
 * used by both sides: the firmware (through citcat_target.h, built with
 * arm-none-eabi-gcc) and the host model (capture/dev_*.c, the device table
 * capture/devices.c, the bus, the IMS and AES extractors, the LVT trace
 * module), so the two cannot disagree; tests/test_regmap.c checks the
 * device table and capture/TARGET.md against it.  Plain macros only, valid
 * C for any target, and assembler-safe: a .S file (examples/bsp/citcat_driver.S)
 * may include it, where the C-only parts (<stdint.h>, the uint32_t casts)
 * are left out (GNU as reads the C `u` suffix of the constants itself).
 * Mirrors capture/TARGET.md (version 1).
 */
#ifndef CITCAT_REGS_H
#define CITCAT_REGS_H

#ifndef __ASSEMBLER__
#include <stdint.h>
#define CITCAT_REGS_U32(x)     ((uint32_t)(x))
#else
#define CITCAT_REGS_U32(x)     (x)
#endif

/* ---- memory map ------------------------------------------------------- */

#define CITCAT_RAM_BASE        0x00000000u
#define CITCAT_RAM_SIZE        0x01000000u /* 16 MiB, the model's default --ram */
#define CITCAT_DEV_BASE        0x40000000u
/* an address's offset in the device window (the model works in offsets) */
#define CITCAT_DEV_OFF(addr)   (CITCAT_REGS_U32(addr) - CITCAT_DEV_BASE)

/* System control */
#define CITCAT_SYSCTL_BASE     0x40000000u
#define CITCAT_SYSCTL_EXIT     (CITCAT_SYSCTL_BASE + 0x00u) /* W: end the run with this status */
#define CITCAT_SYSCTL_SCRATCH  (CITCAT_SYSCTL_BASE + 0x04u) /* RW: plain register */
#define CITCAT_SYSCTL_ID       (CITCAT_SYSCTL_BASE + 0x08u) /* R: CITCAT_SYSCTL_ID_VALUE */
#define CITCAT_SYSCTL_ID_VALUE 0xC17CA701u
#define CITCAT_SYSCTL_CLOCK_HZ (CITCAT_SYSCTL_BASE + 0x0Cu) /* R: nominal clock in Hz */

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

/* True random number generator: a second entropy source */
#define CITCAT_TRNG_BASE       0x40000800u
#define CITCAT_TRNG_DATA       (CITCAT_TRNG_BASE + 0x00u) /* R: take the ready value (0 if none) */
#define CITCAT_TRNG_STATUS     (CITCAT_TRNG_BASE + 0x04u) /* R */
#define CITCAT_TRNG_COUNT      (CITCAT_TRNG_BASE + 0x08u) /* R: values taken so far */
#define CITCAT_TRNG_ST_READY   0x1u /* a value is ready in DATA */
#define CITCAT_TRNG_DELAY      64u  /* cycles from a take (or reset) to the next ready value */

/* Trace module */
#define CITCAT_TRACE_BASE      0x40000F00u
#define CITCAT_TRACE_CMD       (CITCAT_TRACE_BASE + 0x00u)
#define CITCAT_TRACE_REG(k)    (CITCAT_TRACE_BASE + 0x40u + 4u * CITCAT_REGS_U32(k))
#define CITCAT_TRACE_DUMP_DONE (CITCAT_TRACE_BASE + 0xFCu)
#define CITCAT_TRACE_CMD_TRC1  0x54524331u /* 'TRC1' */
#define CITCAT_TRACE_CMD_STOP  0x53544F50u /* 'STOP' */
#define CITCAT_TRACE_NSLOTS    40u /* REG[0..38]: registers; REG[39]: SCTLR */

/* Checkpoint interrupt (capture --checkpoint-every, TARGET.md "Checkpoints"):
 * no register; the model takes it at an instruction boundary through the
 * FIQ vector and records it as interrupt line 15 in the CAT, AES and
 * itrace.  Checkpoint intervals below CITCAT_CKPT_MIN are refused. */
#define CITCAT_CKPT_LINE       15u
#define CITCAT_CKPT_VECTOR     0x0000001Cu
#define CITCAT_CKPT_MIN        1000u

#endif /* CITCAT_REGS_H */
