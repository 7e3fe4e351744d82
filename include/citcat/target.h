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

#ifdef __cplusplus
}
#endif

#endif
