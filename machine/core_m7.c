/* The Cortex-M7 core (TARGET-M7.md): Unicorn's ARMv7-M model with RAM, the
 * device window and the System Control Space, for the capture model and the
 * replayer alike. */
#include "core.h"
#include "m7exc.h"

uc_err core_open_m7(uc_engine **uc, uint32_t ram_base, uint32_t ram_size, uint8_t *ram, uint32_t dev_base,
		    uint32_t dev_size, uc_cb_mmio_read_t read, uc_cb_mmio_write_t write, uc_cb_mmio_read_t scs_read,
		    uc_cb_mmio_write_t scs_write, void *ctx)
{
	*uc = NULL;
	uc_err e = uc_open(UC_ARCH_ARM, UC_MODE_THUMB | UC_MODE_MCLASS, uc);
	if (!e)
		e = uc_ctl_set_cpu_model(*uc, UC_CPU_ARM_CORTEX_M7);
	if (!e)
		e = uc_mem_map_ptr(*uc, ram_base, ram_size, UC_PROT_ALL, ram);
	if (!e)
		e = read ? uc_mmio_map(*uc, dev_base, dev_size, read, ctx, write, ctx)
			 : uc_mem_map(*uc, dev_base, dev_size, UC_PROT_ALL);
	if (!e)
		e = scs_read ? uc_mmio_map(*uc, M7EXC_SCS_BASE, M7EXC_SCS_SIZE, scs_read, ctx, scs_write, ctx)
			     : uc_mem_map(*uc, M7EXC_SCS_BASE, M7EXC_SCS_SIZE, UC_PROT_ALL);
	if (e && *uc) {
		uc_close(*uc);
		*uc = NULL;
	}
	return e;
}

uc_err core_add_hooks_m7(uc_engine *uc, const struct core_hooks *h, uc_cb_hookinsn_invalid_t invalid, void *ctx,
			 uint32_t ram_base, uint32_t ram_size)
{
	uc_hook hk;
	uc_err e = core_add_hooks(uc, h, ctx, ram_base, ram_size);
	if (!e)
		e = uc_hook_add(uc, &hk, UC_HOOK_INSN_INVALID, invalid, ctx, 1, 0);
	return e;
}
