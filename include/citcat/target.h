/* libcitcat public API: the configuration of the modelled target (memory
 * map, caches, bus penalties, device-input seed), as recorded in a CAT and
 * an IMS.  Behaviour of the target: capture/TARGET.md in the sources. */
#ifndef CITCAT_PUBLIC_TARGET_H
#define CITCAT_PUBLIC_TARGET_H

#include <citcat/base.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The modelled core (the configuration's isa field): TARGET.md, TARGET-M7.md. */
enum citcat_target_isa {
	CITCAT_TARGET_ARMV7A = 1, /* ARMv7-A (Cortex-A9 model), ARM and Thumb state */
	CITCAT_TARGET_CORTEX_M7 = 2, /* ARMv7-M Cortex-M7 (CAT version 5 on) */
};
/* Cache replacement policies. */
enum citcat_repl {
	CITCAT_REPL_LRU = 0,
	CITCAT_REPL_FIFO = 1,
	CITCAT_REPL_PLRU = 2, /* MRU-bit pseudo-LRU */
	CITCAT_REPL_RANDOM = 3,
};

/* Geometry and policy of one cache. */
struct citcat_cache_config {
	uint32_t size, ways, line; /* bytes, ways, bytes per line */
	uint8_t repl;              /* enum citcat_repl */
	uint8_t write_through;     /* D-cache: 1 = write-through, no write-allocate */
	uint32_t seed;             /* random replacement: generator state at reset (0 means 0x9E3779B9) */
};

/* The target configuration a replayer needs to re-simulate the bus. */
struct citcat_target_config {
	uint32_t isa; /* enum citcat_target_isa: 1 = the ARMv7-A target (A32/Thumb), 2 = Cortex-M7 (ARMv7-M) */
	uint32_t ram_base, ram_size;
	uint32_t dev_base, dev_size;
	struct citcat_cache_config icache, dcache;
	uint32_t pen_miss, pen_wb, pen_uncached;
	uint32_t timestamps; /* events carry bus-cycle timestamps */
	uint64_t seed;       /* device-input seed (informational) */
	uint32_t dma_interval, dma_burst, uart_rate; /* informational */
};

/* The device window of the modelled SoC. */
#define CITCAT_DEV_BASE 0x40000000u
#define CITCAT_DEV_SIZE 0x10000u

/* Fills C with the default target (TARGET.md).  No effect when C is NULL. */
CITCAT_API void citcat_target_config_default(struct citcat_target_config *c);

/* Checks a cache configuration against the rules the CAT header and the
 * cache model share (TARGET.md): lines a power of two from 8 to 256
 * bytes, 1 to 64 ways, a power-of-two number of sets, at most 64 MiB, a
 * known replacement policy.  Returns 0, or CITCAT_ERR_INVAL with *WHY
 * (when WHY is not NULL) set to a static sentence naming the broken rule;
 * CITCAT_ERR_INVAL for a NULL C (*WHY untouched). */
CITCAT_API int citcat_cache_config_check(const struct citcat_cache_config *c, const char **why);

/* The Cortex-M7's fault status when its run ended with an exception that
 * could not be taken (fault kind 11): the System Control Block's fault
 * status bits (ARMv7-M ARM, B3.2.15-B3.2.18) set since the trace start
 * point (or the last checkpoint) and not cleared, and the fault address
 * register they mark valid.  CAT version 7
 * records it with the STOP (CAT.md, STOP), an isa 2 itrace with its
 * abnormal end (ITRACE.md); capture and replay derive it from the same
 * exception model, and replay --oracle checks it. */
struct citcat_m7_fault {
	uint32_t exc;   /* the exception that could not be taken (the STOP's fault address) */
	uint32_t cfsr;  /* CFSR bits: MMFSR (bits 7..0), BFSR (15..8), UFSR (31..16) */
	uint32_t hfsr;  /* HFSR bits: VECTTBL (bit 1), FORCED (30), DEBUGEVT (31) */
	uint32_t mmfar; /* MMFAR when CFSR.MMARVALID (bit 7), else 0 */
	uint32_t bfar;  /* BFAR when CFSR.BFARVALID (bit 15), else 0: the data address of a precise BusFault */
};
#define CITCAT_M7_CFSR_MMARVALID (1u << 7)
#define CITCAT_M7_CFSR_BFARVALID (1u << 15)

/* Writes F as text into BUF (N bytes, always terminated): the exception's
 * name, the HFSR and CFSR bits set by name, and the fault address register
 * that is valid, e.g. "HardFault FORCED PRECISERR, BFAR 0x80000094" or
 * "BusFault PRECISERR, BFAR 0x30000004".  Returns the length snprintf
 * would have written, or CITCAT_ERR_INVAL for a NULL F or BUF. */
CITCAT_API int citcat_m7_fault_describe(const struct citcat_m7_fault *f, char *buf, size_t n);
/* The name of a Cortex-M7 exception number: "NMI", "HardFault", ...,
 * "SysTick", "IRQ" for 16 and above (the caller adds n - 16), "?" for
 * a reserved number (static storage). */
CITCAT_API const char *citcat_m7_exception_name(unsigned exc);

#ifdef __cplusplus
}
#endif

#endif
