#include "cachecfg.h"
#include "citcat.h"

static int is_pow2(uint32_t v) { return v && !(v & (v - 1)); }

int cache_config_check(const struct citcat_cache_config *c, const char **why)
{
	if (!is_pow2(c->line) || c->line < 8 || c->line > 256)
		return *why = "line size must be a power of two from 8 to 256", CITCAT_ERR_INVAL;
	if (c->ways < 1 || c->ways > 64)
		return *why = "ways must be from 1 to 64", CITCAT_ERR_INVAL;
	if (c->size % (c->ways * c->line) || !is_pow2(c->size / (c->ways * c->line)))
		return *why = "size / (ways * line) must be a power-of-two number of sets", CITCAT_ERR_INVAL;
	if (c->size > (64u << 20))
		return *why = "cache larger than 64 MiB", CITCAT_ERR_INVAL;
	if (c->repl > CITCAT_REPL_RANDOM)
		return *why = "unknown replacement policy", CITCAT_ERR_INVAL;
	return 0;
}

int cache_repl_state_valid(const struct citcat_cache_config *cfg, uint32_t s)
{
	/* xorshift never leaves or reaches 0 */
	return cfg->repl == CITCAT_REPL_RANDOM ? s != 0 : s == 0;
}

int citcat_cache_config_check(const struct citcat_cache_config *c, const char **why)
{
	const char *w;
	if (!c)
		return CITCAT_ERR_INVAL;
	int rc = cache_config_check(c, &w);
	if (rc && why)
		*why = w;
	return rc;
}
