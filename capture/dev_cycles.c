/* Cycle counter (TARGET.md): reading LO latches HI. */
#include "target_int.h"

#define R(reg) ((uint32_t)(CITCAT_CYCLES_##reg - CITCAT_CYCLES_BASE))

static int cycles_read(struct target *t, uint32_t off, uint32_t *v)
{
	switch (off) {
	case R(LO):
		t->cycles_hi_latch = (uint32_t)(t->bus.cycle >> 32);
		*v = (uint32_t)t->bus.cycle;
		return 0;
	case R(HI): *v = t->cycles_hi_latch; return 0;
	}
	return -1;
}

/* the offsets cycles_read serves (struct device's readable) */
static int cycles_readable(uint32_t off)
{
	return off == R(LO) || off == R(HI);
}

const struct device dev_cycles = {"cycles", CITCAT_DEV_OFF(CITCAT_CYCLES_BASE), 0x100, cycles_read, NULL, NULL, NULL, NULL,
				  NULL, cycles_readable, target_no_loud_reads, 0};
