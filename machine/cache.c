#include "cache.h"
#include "citcat.h"

#include <stdlib.h>
#include <string.h>

int cache_init(struct cache *c, const struct citcat_cache_config *cfg)
{
	const char *why;
	memset(c, 0, sizeof *c);
	if (cache_config_check(cfg, &why))
		return CITCAT_ERR_INVAL;
	c->cfg = *cfg;
	c->ways = cfg->ways;
	c->nsets = cfg->size / (cfg->ways * cfg->line);
	c->set_mask = c->nsets - 1;
	while ((1u << c->line_shift) < cfg->line)
		c->line_shift++;
	size_t n = (size_t)c->nsets * c->ways;
	c->tag = calloc(n, sizeof *c->tag);
	c->valid = calloc(n, 1);
	c->dirty = calloc(n, 1);
	c->mru = calloc(n, 1);
	c->stamp = calloc(n, sizeof *c->stamp);
	c->last_way = calloc(c->nsets, 1);
	c->rng = cfg->seed ? cfg->seed : 0x9e3779b9u;
	if (!c->tag || !c->valid || !c->dirty || !c->mru || !c->stamp || !c->last_way) {
		cache_fini(c);
		return CITCAT_ERR_NOMEM;
	}
	return 0;
}

void cache_fini(struct cache *c)
{
	free(c->tag);
	free(c->valid);
	free(c->dirty);
	free(c->mru);
	free(c->stamp);
	free(c->last_way);
	free(c->fa);
	memset(c, 0, sizeof *c);
}

/* MRU-bit pseudo-LRU: a way's bit is set when it is used; when that would
 * set every bit of the set, the others are cleared.  The victim is the
 * lowest way whose bit is clear. */
static void plru_touch(struct cache *c, size_t base, uint32_t w)
{
	c->mru[base + w] = 1;
	for (uint32_t i = 0; i < c->ways; i++)
		if (!c->mru[base + i])
			return;
	for (uint32_t i = 0; i < c->ways; i++)
		c->mru[base + i] = i == w;
}

/* One step of the random-replacement generator (TARGET.md). */
static uint32_t cache_xorshift32(uint32_t x)
{
	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return x;
}

static uint32_t victim(struct cache *c, size_t base)
{
	for (uint32_t w = 0; w < c->ways; w++)
		if (!c->valid[base + w])
			return w;
	uint32_t v = 0;
	switch (c->cfg.repl) {
	case CITCAT_REPL_LRU:
	case CITCAT_REPL_FIFO:
		for (uint32_t w = 1; w < c->ways; w++)
			if (c->stamp[base + w] < c->stamp[base + v])
				v = w;
		return v;
	case CITCAT_REPL_PLRU:
		for (uint32_t w = 0; w < c->ways; w++)
			if (!c->mru[base + w])
				return w;
		return 0;
	default:
		/* the generator steps only here: a victim among a full set */
		c->rng = cache_xorshift32(c->rng);
		return c->rng % c->ways;
	}
}

void cache_access(struct cache *c, uint32_t ln, int is_write, int allocate, int mark_dirty, struct cache_res *r)
{
	if (cache_hit_last(c, ln, is_write && mark_dirty)) {
		r->hit = 1;
		r->evicted_dirty = 0;
		return;
	}
	uint32_t set = ln & c->set_mask;
	size_t base = (size_t)set * c->ways;
	c->clock++;
	for (uint32_t w = 0; w < c->ways; w++) {
		if (c->valid[base + w] && c->tag[base + w] == ln) {
			c->hits++;
			if (c->cfg.repl == CITCAT_REPL_LRU)
				c->stamp[base + w] = c->clock;
			else if (c->cfg.repl == CITCAT_REPL_PLRU)
				plru_touch(c, base, w);
			if (is_write && mark_dirty)
				c->dirty[base + w] = 1;
			c->last_way[set] = (uint8_t)w;
			r->hit = 1;
			r->evicted_dirty = 0;
			return;
		}
	}
	c->misses++;
	r->hit = 0;
	r->evicted_dirty = 0;
	if (!allocate)
		return;
	uint32_t w = victim(c, base);
	if (c->valid[base + w] && c->dirty[base + w]) {
		r->evicted_dirty = 1;
		r->victim_line = c->tag[base + w];
	}
	c->valid[base + w] = 1;
	c->tag[base + w] = ln;
	c->dirty[base + w] = (uint8_t)(mark_dirty != 0);
	c->stamp[base + w] = c->clock;
	c->last_way[set] = (uint8_t)w;
	if (c->cfg.repl == CITCAT_REPL_PLRU)
		plru_touch(c, base, w);
	if (c->fa) /* a newly filled line: its first-access flags clear */
		memset(c->fa + (base + w) * c->fa_words, 0, c->fa_words * sizeof *c->fa);
}

static long find(const struct cache *c, uint32_t ln)
{
	size_t base = (size_t)(ln & c->set_mask) * c->ways;
	for (uint32_t w = 0; w < c->ways; w++)
		if (c->valid[base + w] && c->tag[base + w] == ln)
			return (long)(base + w);
	return -1;
}

int cache_probe(const struct cache *c, uint32_t ln, int *dirty)
{
	long i = find(c, ln);
	if (dirty)
		*dirty = i >= 0 && c->dirty[i];
	return i >= 0;
}

int cache_invalidate_line(struct cache *c, uint32_t ln)
{
	long i = find(c, ln);
	if (i < 0)
		return 0;
	int d = c->dirty[i];
	c->valid[i] = 0;
	c->dirty[i] = 0;
	c->mru[i] = 0;
	if (c->fa)
		memset(c->fa + (size_t)i * c->fa_words, 0, c->fa_words * sizeof *c->fa);
	return d;
}

void cache_clean_line(struct cache *c, uint32_t ln)
{
	long i = find(c, ln);
	if (i >= 0)
		c->dirty[i] = 0;
}

void cache_invalidate_all(struct cache *c)
{
	size_t n = (size_t)c->nsets * c->ways;
	memset(c->valid, 0, n);
	memset(c->dirty, 0, n);
	memset(c->mru, 0, n);
	if (c->fa)
		memset(c->fa, 0, n * c->fa_words * sizeof *c->fa);
}

void cache_clean_all(struct cache *c, int invalidate, void (*fn)(void *ctx, uint32_t ln), void *ctx)
{
	size_t n = (size_t)c->nsets * c->ways;
	for (size_t i = 0; i < n; i++) {
		if (c->valid[i] && c->dirty[i]) {
			fn(ctx, c->tag[i]);
			c->dirty[i] = 0;
		}
	}
	if (invalidate)
		cache_invalidate_all(c);
}

uint32_t cache_repl_state(const struct cache *c) { return c->cfg.repl == CITCAT_REPL_RANDOM ? c->rng : 0; }

int cache_set_repl_state(struct cache *c, uint32_t s)
{
	if (!cache_repl_state_valid(&c->cfg, s))
		return CITCAT_ERR_INVAL;
	if (c->cfg.repl == CITCAT_REPL_RANDOM)
		c->rng = s;
	return 0;
}

int cache_fa_enable(struct cache *c, unsigned shift)
{
	if ((shift != 0 && shift != 2) || (c->cfg.line >> shift) == 0)
		return CITCAT_ERR_INVAL;
	size_t n = (size_t)c->nsets * c->ways;
	uint32_t words = ((c->cfg.line >> shift) + 63) / 64;
	uint64_t *fa = calloc(n * words, sizeof *fa);
	if (!fa)
		return CITCAT_ERR_NOMEM;
	free(c->fa);
	c->fa = fa;
	c->fa_words = words;
	c->fa_shift = shift;
	return 0;
}

long cache_slot(const struct cache *c, uint32_t ln) { return find(c, ln); }
