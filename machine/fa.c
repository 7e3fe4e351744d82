#include "fa.h"

#include <stddef.h>

/* One step of the walk over [a, end) line by line: the line number of A in
 * *LN, its cache slot (or -1) in *SLOT; returns where the part inside that
 * line stops. */
static inline uint64_t fa_line_step(const struct cache *dc, uint64_t a, uint64_t end, uint32_t *ln, long *slot)
{
	*ln = (uint32_t)a >> dc->line_shift;
	uint64_t lend = ((uint64_t)*ln + 1) << dc->line_shift;
	*slot = cache_slot(dc, *ln);
	return end < lend ? end : lend;
}

/* Walks the part of [addr, addr + size) inside each line it touches (at most
 * two for the accesses the core makes, but any span works). */
int fa_load_hit(const struct cache *dc, uint32_t addr, unsigned size)
{
	uint32_t lmask = dc->cfg.line - 1, gs = dc->fa_shift;
	uint64_t end = (uint64_t)addr + size;
	for (uint64_t a = addr; a < end;) {
		uint32_t ln;
		long slot;
		uint64_t stop = fa_line_step(dc, a, end, &ln, &slot);
		if (slot < 0)
			return 0;
		const uint64_t *f = dc->fa + (size_t)slot * dc->fa_words;
		/* every granule touched, partly or whole */
		for (uint32_t g = ((uint32_t)a & lmask) >> gs, gl = ((uint32_t)(stop - 1) & lmask) >> gs; g <= gl; g++)
			if (!((f[g >> 6] >> (g & 63)) & 1))
				return 0;
		a = stop;
	}
	return 1;
}

void fa_mark(struct cache *dc, uint32_t addr, unsigned size)
{
	uint32_t gs = dc->fa_shift, gsz = 1u << gs;
	uint64_t end = (uint64_t)addr + size;
	for (uint64_t a = addr; a < end;) {
		uint32_t ln;
		long slot;
		uint64_t stop = fa_line_step(dc, a, end, &ln, &slot);
		if (slot >= 0) {
			uint64_t *f = dc->fa + (size_t)slot * dc->fa_words;
			/* only granules covered whole: [ceil(a), floor(stop)) in granules */
			uint32_t lo = (uint32_t)(a - ((uint64_t)ln << dc->line_shift));
			uint32_t hi = (uint32_t)(stop - ((uint64_t)ln << dc->line_shift));
			for (uint32_t g = (lo + gsz - 1) >> gs; g < hi >> gs; g++)
				f[g >> 6] |= 1ull << (g & 63);
		}
		a = stop;
	}
}
