/* Timer (TARGET.md): each expiry latches line 0. */
#include "target_int.h"

#define R(reg) ((uint32_t)(CITCAT_TIMER_##reg - CITCAT_TIMER_BASE))

static int timer_read(struct target *t, uint32_t off, uint32_t *v)
{
	switch (off) {
	case R(PERIOD): *v = t->timer_period; return 0;
	case R(CTRL): *v = t->timer_on; return 0;
	case R(REMAIN):
		*v = t->timer_on && t->timer_period ? (uint32_t)(t->timer_next - t->bus.cycle) : 0;
		return 0;
	case R(TICKS): *v = t->timer_ticks; return 0;
	}
	return -1;
}

static int timer_write(struct target *t, uint32_t off, uint32_t v)
{
	switch (off) {
	case R(PERIOD): t->timer_period = v; t->timer_next = t->bus.cycle + v; return 0;
	case R(CTRL):
		if ((v & 1) && !t->timer_on)
			t->timer_next = t->bus.cycle + t->timer_period;
		t->timer_on = v & 1;
		return 0;
	}
	return -1;
}

static uint64_t timer_next_event(const struct target *t)
{
	return t->timer_on && t->timer_period ? t->timer_next : UINT64_MAX;
}

/* every tick due by now at once: a tick only counts and sets line 0, which
 * commutes with the other devices' events, so the state is the same as
 * ticking one by one (and a long sleep costs one step per wake-up source,
 * not per tick) */
static void timer_fire(struct target *t, uint64_t now, uint32_t pc)
{
	uint64_t k = (now - t->timer_next) / t->timer_period + 1;
	t->timer_ticks += (uint32_t)k;
	t->intc_pending |= 1u << CITCAT_IRQ_TIMER;
	t->timer_next += k * t->timer_period;
}

/* line 0 at every tick */
static uint64_t timer_next_wakeup(const struct target *t)
{
	return (t->intc_enable & (1u << CITCAT_IRQ_TIMER)) ? timer_next_event(t) : UINT64_MAX;
}

static int timer_writable(uint32_t off)
{
	return off == R(PERIOD) || off == R(CTRL);
}

/* the offsets timer_read serves (struct device's readable) */
static int timer_readable(uint32_t off)
{
	return off == R(PERIOD) || off == R(CTRL) || off == R(REMAIN) || off == R(TICKS);
}

const struct device dev_timer = {"timer", CITCAT_DEV_OFF(CITCAT_TIMER_BASE), 0x100, timer_read, timer_write,
				 timer_next_event, timer_fire, timer_next_wakeup, timer_writable, timer_readable, target_no_loud_reads, 0};
