#include "core.h"

#include <sys/mman.h>

uint8_t *core_ram_alloc(uint32_t size)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	return p == MAP_FAILED ? NULL : p;
}

void core_ram_free(uint8_t *ram, uint32_t size)
{
	if (ram)
		munmap(ram, size);
}

uc_err core_open(uc_engine **uc, uint32_t ram_base, uint32_t ram_size, uint8_t *ram, uint32_t dev_base,
		 uint32_t dev_size, uc_cb_mmio_read_t read, uc_cb_mmio_write_t write, void *ctx)
{
	*uc = NULL;
	uc_err e = uc_open(UC_ARCH_ARM, UC_MODE_ARM, uc);
	if (!e)
		e = uc_ctl_set_cpu_model(*uc, UC_CPU_ARM_CORTEX_A9);
	if (!e)
		e = uc_mem_map_ptr(*uc, ram_base, ram_size, UC_PROT_ALL, ram);
	if (!e)
		e = read ? uc_mmio_map(*uc, dev_base, dev_size, read, ctx, write, ctx)
			 : uc_mem_map(*uc, dev_base, dev_size, UC_PROT_ALL);
	if (e && *uc) {
		uc_close(*uc);
		*uc = NULL;
	}
	return e;
}

/* A translation block is in one state, and its block hook runs before the
 * code hooks of its instructions (tests/test_unicorn_thumb.c). */
static void hook_block_state(uc_engine *uc, uint64_t address, uint32_t size, void *ctx)
{
	uint32_t cpsr;
	uc_reg_read(uc, UC_ARM_REG_CPSR, &cpsr);
	*(uint8_t *)ctx = (uint8_t)((cpsr >> 5) & 1);
}

uc_err core_add_hooks(uc_engine *uc, const struct core_hooks *h, void *ctx, uint32_t ram_base, uint32_t ram_size)
{
	uc_hook hk;
	uint64_t rb = ram_base, re = (uint64_t)ram_base + ram_size - 1;
	uc_err e = h->code ? uc_hook_add(uc, &hk, UC_HOOK_CODE, h->code, ctx, 1, 0) : UC_ERR_OK;
	if (!e)
		e = uc_hook_add(uc, &hk, h->mem_types, h->mem, ctx, rb, re);
	if (!e)
		e = uc_hook_add(uc, &hk, UC_HOOK_MEM_UNMAPPED | UC_HOOK_MEM_FETCH_PROT, h->unmapped, ctx, 1, 0);
	if (!e)
		e = uc_hook_add(uc, &hk, UC_HOOK_INTR, h->intr, ctx, 1, 0);
	if (!e && h->block_thumb)
		e = uc_hook_add(uc, &hk, UC_HOOK_BLOCK, hook_block_state, h->block_thumb, 1, 0);
	return e;
}

void core_code_changed(void *uc, uint32_t addr, uint32_t len)
{
	uc_ctl_remove_cache(uc, addr, (uint64_t)addr + len);
}

uc_err core_move(uc_engine *from, uc_engine *to, uc_context *ctx, uint32_t ram_base, struct core_dirty *d)
{
	uc_err e = uc_context_save(from, ctx);
	if (!e)
		e = uc_context_restore(to, ctx);
	if (!e && d->hi > d->lo) {
		e = uc_ctl_remove_cache(to, (uint64_t)ram_base + d->lo, (uint64_t)ram_base + d->hi);
		d->lo = UINT32_MAX;
		d->hi = 0;
	}
	return e;
}
