/* Set-associative cache model (tags and state only; data lives in the flat
 * RAM the core sees, which is exact because the target is coherent: see
 * TARGET.md).  Shared unchanged by the capture model and the replayer, which
 * re-simulates the caches to regenerate the bus trace.  Internal module: it
 * works by value so tests keep it on the stack. */
#ifndef CITCAT_CACHE_H
#define CITCAT_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include <citcat/target.h>
#include "cachecfg.h" /* cache_config_check, cache_repl_state_valid: the format's rules */

/* enum citcat_repl and struct citcat_cache_config are public: <citcat/target.h>. */

struct cache {
	struct citcat_cache_config cfg;
	uint32_t nsets, ways, line_shift, set_mask;
	uint32_t *tag;   /* line number (addr >> line_shift) per set*ways */
	uint8_t *valid, *dirty, *mru;
	uint64_t *stamp; /* LRU: last use; FIFO: fill time */
	uint8_t *last_way; /* per set: the way its last access hit or filled */
	uint64_t clock;
	uint32_t rng;    /* random replacement generator (TARGET.md, "Random replacement") */
	uint64_t hits, misses;
	/* First-access flags (formats/LVT.md), NULL unless cache_fa_enable was
	 * called: FA_WORDS 64-bit words per slot (set * ways + way), one bit per
	 * granule of 1 << FA_SHIFT bytes, cleared whenever the slot is filled
	 * or invalidated. */
	uint64_t *fa;
	uint32_t fa_words, fa_shift;
};

int cache_init(struct cache *c, const struct citcat_cache_config *cfg);
void cache_fini(struct cache *c);

/* Result of an access. */
struct cache_res {
	int hit;
	int evicted_dirty;    /* miss only: a dirty victim must be written back */
	uint32_t victim_line; /* its line number */
};

/* Looks up line number LN (address >> line_shift).  On a hit, updates the
 * replacement state and, for a write in write-back mode, sets dirty.  On a
 * miss with ALLOCATE, chooses a victim, reports whether it was dirty, and
 * installs LN (dirty when MARK_DIRTY).  Without ALLOCATE a miss changes
 * nothing. */
void cache_access(struct cache *c, uint32_t ln, int is_write, int allocate, int mark_dirty, struct cache_res *r);
/* cache_access's hit on the way its set used last, for inline callers:
 * when LN is in that way, does what cache_access does for the hit (sets
 * dirty when MARK_DIRTY) and returns 1; else changes nothing and returns 0.
 * Exact for every policy, because that way needs no replacement update:
 * its LRU stamp is already the newest of its set (stamps are compared only
 * within a set), a PLRU touch of the way touched last changes no bit, and
 * FIFO and random ignore hits. */
static inline int cache_hit_last(struct cache *c, uint32_t ln, int mark_dirty)
{
	uint32_t set = ln & c->set_mask;
	size_t i = (size_t)set * c->ways + c->last_way[set];
	if (!c->valid[i] || c->tag[i] != ln)
		return 0;
	c->clock++;
	c->hits++;
	if (mark_dirty)
		c->dirty[i] = 1;
	return 1;
}
/* Present?  Does not touch the replacement state; DIRTY (may be NULL) gets
 * whether the line is dirty. */
int cache_probe(const struct cache *c, uint32_t ln, int *dirty);
/* Invalidates line LN if present; returns 1 if it was present and dirty. */
int cache_invalidate_line(struct cache *c, uint32_t ln);
void cache_clean_line(struct cache *c, uint32_t ln);
void cache_invalidate_all(struct cache *c);
/* Walks dirty lines set by set, way by way, calling FN with each line
 * number; marks them clean (and invalid when INVALIDATE). */
void cache_clean_all(struct cache *c, int invalidate, void (*fn)(void *ctx, uint32_t ln), void *ctx);
/* Gives every line first-access flags of granule 1 << SHIFT bytes (0 byte,
 * 2 word), all clear.  Returns 0 or CITCAT_ERR_NOMEM / _INVAL. */
int cache_fa_enable(struct cache *c, unsigned shift);
/* Slot (set * ways + way) holding line LN, or -1.  No state change. */
long cache_slot(const struct cache *c, uint32_t ln);

/* The random-replacement generator, a 32-bit xorshift (TARGET.md, "Random
 * replacement").  It is the only replacement state that survives
 * invalidation, so the trace module records it at the trace start point P
 * and the replayer loads it there.  For any other policy the cache has no
 * generator and its state is defined as 0. */
uint32_t cache_repl_state(const struct cache *c);
/* Loads a recorded state; CITCAT_ERR_INVAL when it is not valid for C. */
int cache_set_repl_state(struct cache *c, uint32_t s);

#endif
