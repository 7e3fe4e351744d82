/* Entropy and sensor (TARGET.md). */
#include "target_int.h"

#define R(reg) ((uint32_t)(CITCAT_ENTROPY_##reg - CITCAT_ENTROPY_BASE))

static int entropy_read(struct target *t, uint32_t off, uint32_t *v)
{
	const struct citcat_target_config *c = &t->cfg->target;
	switch (off) {
	case R(RANDOM):
		if (t->entropy_in) {
			uint8_t b[4] = {0, 0, 0, 0};
			if (fread(b, 1, 4, t->entropy_in) == 0) {
				rewind(t->entropy_in);
				if (fread(b, 1, 4, t->entropy_in) == 0) {
					*v = 0;
					return 0;
				}
			}
			*v = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
			return 0;
		}
		*v = (uint32_t)splitmix(&t->rng_entropy);
		return 0;
	case R(SENSOR): {
		/* a slow triangle wave plus a little seeded noise, 12 bits */
		uint64_t ph = (t->bus.cycle >> 12) + (c->seed & 0xfff);
		uint32_t tri = (uint32_t)(ph % 2048);
		tri = tri < 1024 ? tri : 2047 - tri;
		*v = (1500 + tri + (uint32_t)((ph * 2654435761u) >> 29)) & 0xfff;
		return 0;
	}
	}
	return -1;
}

/* the offsets entropy_read serves (struct device's readable) */
static int entropy_readable(uint32_t off)
{
	return off == R(RANDOM) || off == R(SENSOR);
}

const struct device dev_entropy = {"entropy", CITCAT_DEV_OFF(CITCAT_ENTROPY_BASE), 0x100, entropy_read, NULL, NULL, NULL,
				   NULL, NULL, entropy_readable, target_no_loud_reads, 0};
