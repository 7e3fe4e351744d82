/* True random number generator (TARGET.md): a second entropy source with a
 * readiness delay.  A value becomes ready CITCAT_TRNG_DELAY cycles after
 * the previous one was taken (after reset for the first); value k (from 0)
 * is output k + 1 of a splitmix64 generator seeded with seed ^ 'TRNG', so
 * the device's whole state is zero at reset. */
#include "target_int.h"

#define R(reg) ((uint32_t)(CITCAT_TRNG_##reg - CITCAT_TRNG_BASE))

static int trng_read(struct target *t, uint32_t off, uint32_t *v)
{
	switch (off) {
	case R(DATA):
		if (!t->trng_ready) {
			*v = 0;
			return 0;
		}
		*v = t->trng_value;
		t->trng_ready = 0;
		t->trng_count++;
		t->trng_taken_at = t->bus.cycle;
		return 0;
	case R(STATUS): *v = t->trng_ready ? CITCAT_TRNG_ST_READY : 0; return 0;
	case R(COUNT): *v = t->trng_count; return 0;
	}
	return -1;
}

static uint64_t trng_next_event(const struct target *t)
{
	return t->trng_ready ? UINT64_MAX : t->trng_taken_at + CITCAT_TRNG_DELAY;
}

static void trng_fire(struct target *t, uint64_t now, uint32_t pc)
{
	uint64_t s = (t->cfg->target.seed ^ 0x54524e47u) + (uint64_t)t->trng_count * 0x9e3779b97f4a7c15ull;
	t->trng_value = (uint32_t)splitmix(&s);
	t->trng_ready = 1;
}

/* the offsets trng_read serves (struct device's readable) */
static int trng_readable(uint32_t off)
{
	return off == R(DATA) || off == R(STATUS) || off == R(COUNT);
}

/* struct device's loud_reads: a read of DATA while a value is ready takes
 * it and brings the next one CITCAT_TRNG_DELAY cycles on (trng_read) */
static uint64_t trng_loud_reads(const struct target *t, uint64_t *delay)
{
	*delay = CITCAT_TRNG_DELAY;
	return t->trng_ready ? 1ull << (R(DATA) / 4) : 0;
}

const struct device dev_trng = {"trng", CITCAT_DEV_OFF(CITCAT_TRNG_BASE), 0x100, trng_read, NULL, trng_next_event,
				trng_fire, NULL, NULL, trng_readable, trng_loud_reads, 0};
