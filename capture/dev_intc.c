/* Interrupt controller (TARGET.md).  The core's IRQ input,
 * (PENDING & ENABLE) != 0, is sampled by the code hook in capture/target.c. */
#include "target_int.h"

#define R(reg) ((uint32_t)(CITCAT_INTC_##reg - CITCAT_INTC_BASE))

/* The lines firmware can enable and set: 0..14.  The CAT's IRQ event has a
 * 4-bit line field (CAT.md), and line CITCAT_CKPT_LINE (15) is the
 * checkpoint interrupt's (TARGET.md, Checkpoints): ENABLE and SET ignore
 * every other bit, so PENDING & ENABLE only ever has lines the CAT carries
 * as themselves.  (Bits 16..31 used to be kept and their interrupts
 * recorded as line & 15: another line's.) */
#define INTC_LINES (((1u << 16) - 1) & ~(1u << CITCAT_CKPT_LINE))

static int intc_read(struct target *t, uint32_t off, uint32_t *v)
{
	switch (off) {
	case R(PENDING): *v = t->intc_pending; return 0;
	case R(ENABLE): *v = t->intc_enable; return 0;
	case R(CLAIM): {
		uint32_t m = t->intc_pending & t->intc_enable;
		for (uint32_t i = 0; i < 32; i++)
			if (m & (1u << i)) {
				*v = i;
				return 0;
			}
		*v = CITCAT_INTC_NONE;
		return 0;
	}
	}
	return -1;
}

static int intc_write(struct target *t, uint32_t off, uint32_t v)
{
	switch (off) {
	case R(ENABLE): t->intc_enable = v & INTC_LINES; return 0;
	case R(ACK): t->intc_pending &= ~v; return 0;
	case R(SET): t->intc_pending |= v & INTC_LINES; return 0;
	}
	return -1;
}

static int intc_writable(uint32_t off)
{
	return off == R(ENABLE) || off == R(ACK) || off == R(SET);
}

/* the offsets intc_read serves (struct device's readable) */
static int intc_readable(uint32_t off)
{
	return off == R(PENDING) || off == R(ENABLE) || off == R(CLAIM);
}

const struct device dev_intc = {"intc", CITCAT_DEV_OFF(CITCAT_INTC_BASE), 0x100, intc_read, intc_write, NULL, NULL, NULL,
				intc_writable, intc_readable, target_no_loud_reads, 0};
