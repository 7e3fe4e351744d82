/* The device table of the modelled target (TARGET.md "Devices").  Adding a
 * device: its own capture/dev_NAME.c (registers and behaviour, a struct
 * device), one line here, its state in struct target (target_int.h), its
 * registers in examples/bsp/citcat_regs.h and its section in TARGET.md.
 *
 * The order is the order in which events due at the same cycle fire: the
 * timer before the DMA engine before the UART. */
#include "target_int.h"

const struct device *const target_devices[] = {
	&dev_sysctl, &dev_cache, &dev_intc, &dev_timer, &dev_dma, &dev_uart, &dev_cycles, &dev_entropy, &dev_trng,
	&dev_trace,
};
const unsigned target_ndevices = sizeof target_devices / sizeof *target_devices;

uint64_t target_no_loud_reads(const struct target *t, uint64_t *delay)
{
	(void)t;
	*delay = UINT64_MAX;
	return 0;
}
