/* Cache first-access (FA) tracking (formats/LVT.md, "First-access flags";
 * figures 2 and 3 of the data-trace-filtering paper).  The flags live on the
 * D-cache lines of the shared cache model (struct cache, cache_fa_enable);
 * these two rules are all the trace module and the decoder do with them, so
 * both run the same code.  Internal module. */
#ifndef CITCAT_FA_H
#define CITCAT_FA_H

#include "cache.h"

/* After the cache access of a load of SIZE bytes at ADDR: 1 when every
 * granule the load touches is flagged in a resident line (an FA hit: the
 * value can be inferred), 0 otherwise.  Changes nothing. */
int fa_load_hit(const struct cache *dc, uint32_t addr, unsigned size);

/* After the cache access of a traced load or of a store of SIZE bytes at
 * ADDR: sets the flags of every granule the access covers whole, in lines
 * that are resident (a write-through store that missed sets nothing).  With
 * word granules a byte or halfword access sets no flag. */
void fa_mark(struct cache *dc, uint32_t addr, unsigned size);

#endif
