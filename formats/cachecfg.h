/* The rules a cache configuration of the CAT header obeys (CAT.md "Target
 * configuration"): properties of the format, checked by its reader and
 * writer and by the cache model (machine/cache.c) that runs a configuration.
 * Internal module (not in the public API). */
#ifndef CITCAT_CACHECFG_H
#define CITCAT_CACHECFG_H

#include <citcat/target.h>
#include <stdint.h>

/* Checks a configuration; returns 0 or a negative code, and a reason. */
int cache_config_check(const struct citcat_cache_config *c, const char **why);

/* Is S a possible generator state for a cache configured as CFG (nonzero
 * for random replacement, whose xorshift never reaches 0; 0 otherwise)?
 * 1 or 0. */
int cache_repl_state_valid(const struct citcat_cache_config *cfg, uint32_t s);

#endif
