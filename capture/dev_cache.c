/* Cache-maintenance registers (TARGET.md): the operations themselves are
 * done by the memory system (machine/bus.c sees every uncached write); here
 * INV_I marks the trace start point. */
#include "target_int.h"

#define R(reg) ((uint32_t)(CITCAT_CACHE_##reg - CITCAT_CACHE_BASE))

static int cache_write(struct target *t, uint32_t off, uint32_t v)
{
	switch (off) {
	case R(INV_I):
		if (t->recording && !t->synced)
			t->sync_pending = 1; /* trace start point: after this store */
		return 0;
	case R(INV_D): case R(CLEAN_INV_D): case R(CLEAN_D): return 0; /* done by the bus */
	}
	return -1;
}

static int cache_writable(uint32_t off)
{
	return off == R(INV_I) || off == R(INV_D) || off == R(CLEAN_INV_D) || off == R(CLEAN_D);
}

const struct device dev_cache = {"cache", CITCAT_DEV_OFF(CITCAT_CACHE_BASE), 0x100, NULL, cache_write, NULL, NULL, NULL,
				 cache_writable, NULL, NULL, 0};
