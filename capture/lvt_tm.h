/* The trace module's first-access load-value mode (formats/LVT.md), as the
 * capture model drives it: capture/target.c calls these from its hooks, only
 * inside the traced interval, after the memory system (machine/bus.c) has
 * handled the access, so the FA flags on the D-cache lines are up to date.
 * Internal to capture/. */
#ifndef CITCAT_LVT_TM_H
#define CITCAT_LVT_TM_H

#include "cache.h"
#include "lvt.h"

struct lvt_tm;

/* Opens PATH and gives the D-cache DC its FA flags (granule 1 << GRAN_SHIFT
 * bytes).  ELF is the firmware (its code ranges are hashed at P); RAM is the
 * core's flat RAM at address RAM_BASE.  RAW, when set, receives the value
 * bytes of every load of the interval (the unfiltered load-value trace, for
 * benchmarks).  On error fills ERR and leaves no file. */
int lvt_tm_open(struct lvt_tm **tm, const char *path, const struct citcat_target_config *cfg, unsigned gran_shift,
		const char *elf, struct cache *dc, const uint8_t *ram, void (*raw)(void *ctx, const uint8_t *b, unsigned n),
		void *raw_ctx, struct citcat_errinfo *err);
void lvt_tm_sync(struct lvt_tm *tm);                       /* the trace start point P */
void lvt_tm_load(struct lvt_tm *tm, uint32_t addr, unsigned size); /* a cached load, after its cache access */
void lvt_tm_store(struct lvt_tm *tm, uint32_t addr, unsigned size); /* a cached store, after its cache access */
void lvt_tm_uread(struct lvt_tm *tm, uint32_t value, unsigned size); /* an uncached (device or SCS) read of SIZE bytes */
void lvt_tm_uwrite(struct lvt_tm *tm, uint32_t dev_off, uint32_t value); /* an uncached write */
void lvt_tm_irq(struct lvt_tm *tm, unsigned line, uint32_t epc, uint64_t bcount);
void lvt_tm_dma(struct lvt_tm *tm, uint32_t addr, uint32_t len, uint64_t bcount, uint32_t pc);
void lvt_tm_stop(struct lvt_tm *tm, unsigned reason, uint64_t insns, uint64_t bcount);
/* Completes the file (0) or returns the first error met (ERR filled, no
 * file left).  Frees TM.  STATS (may be NULL) receives the totals. */
int lvt_tm_close(struct lvt_tm *tm, struct citcat_lvt_stats *stats, uint64_t *file_bytes, struct citcat_errinfo *err);
void lvt_tm_abort(struct lvt_tm *tm); /* accepts NULL */

#endif
