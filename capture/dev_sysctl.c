/* System control (TARGET.md): EXIT, SCRATCH, ID. */
#include "target_int.h"

#define R(reg) ((uint32_t)(CITCAT_SYSCTL_##reg - CITCAT_SYSCTL_BASE))

static int sysctl_read(struct target *t, uint32_t off, uint32_t *v)
{
	switch (off) {
	case R(SCRATCH): *v = t->scratch; return 0;
	case R(ID): *v = CITCAT_SYSCTL_ID_VALUE; return 0;
	case R(CLOCK_HZ): *v = t->cfg->clock_hz ? t->cfg->clock_hz : CITCAT_CLOCK_HZ_DEFAULT; return 0;
	}
	return -1;
}

static int sysctl_write(struct target *t, uint32_t off, uint32_t v)
{
	switch (off) {
	case R(EXIT):
		t->exit_code = (int)v;
		t->stop_pending = 1;
		t->stop_reason = CITCAT_STOP_EXIT;
		return 0;
	case R(SCRATCH): t->scratch = v; return 0;
	}
	return -1;
}

static int sysctl_writable(uint32_t off)
{
	return off == R(EXIT) || off == R(SCRATCH);
}

/* the offsets sysctl_read serves (struct device's readable) */
static int sysctl_readable(uint32_t off)
{
	return off == R(SCRATCH) || off == R(ID) || off == R(CLOCK_HZ);
}

const struct device dev_sysctl = {"sysctl", CITCAT_DEV_OFF(CITCAT_SYSCTL_BASE), 0x100, sysctl_read, sysctl_write, NULL, NULL,
				  NULL, sysctl_writable, sysctl_readable, target_no_loud_reads, 1ull << (R(SCRATCH) / 4)};
