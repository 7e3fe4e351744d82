/* The Unicorn core, set up and driven once for every user: the capture
 * model (capture/target.c), the IMS/AES replayer and the LVT decoder
 * (replay/), and the bare baselines of the benchmarks.  What the modelled
 * hardware does at instruction boundaries (TARGET.md) and that every one of
 * them must do alike lives here: the engine and its memory map, the hook
 * set, the branch-counter rule, WFI retirement and dropping translations of
 * code that changed behind the core.  Internal module. */
#ifndef CITCAT_CORE_H
#define CITCAT_CORE_H

#include <citcat/itrace.h>

#include <stdint.h>
#include <unicorn/unicorn.h>

/* WFI (A32, any condition field): (word & CORE_WFI_MASK) == CORE_INSN_WFI. */
#define CORE_INSN_WFI 0x0320F003u
#define CORE_WFI_MASK 0x0FFFFFFFu
/* The until address of every uc_emu_start: above any RAM, so reaching it is
 * a fetch from nothing (Unicorn ends the run there with no error and no code
 * hook; the caller reports it). */
#define CORE_UNTIL 0xFFFFFFFCu

/* Opens an ARMv7-A core (Unicorn's Cortex-A9 model, ARM state) with RAM_SIZE
 * bytes of the caller's RAM (4 KiB aligned, outliving the engine) mapped at
 * RAM_BASE, and the device window at DEV_BASE: MMIO served by READ and WRITE
 * (CTX passed to both; WRITE may be NULL only with READ), or plain memory
 * when READ is NULL.  On failure *UC is closed and NULL.  Returns a
 * Unicorn error. */
uc_err core_open(uc_engine **uc, uint32_t ram_base, uint32_t ram_size, uint8_t *ram, uint32_t dev_base,
		 uint32_t dev_size, uc_cb_mmio_read_t read, uc_cb_mmio_write_t write, void *ctx);

/* As core_open, for the Cortex-M7 (TARGET-M7.md, capture/core_m7.c):
 * UC_CPU_ARM_CORTEX_M7 in UC_MODE_THUMB | UC_MODE_MCLASS, and the System
 * Control Space (M7EXC_SCS_BASE) served by SCS_READ and SCS_WRITE (plain
 * memory when SCS_READ is NULL). */
uc_err core_open_m7(uc_engine **uc, uint32_t ram_base, uint32_t ram_size, uint8_t *ram, uint32_t dev_base,
		    uint32_t dev_size, uc_cb_mmio_read_t read, uc_cb_mmio_write_t write, uc_cb_mmio_read_t scs_read,
		    uc_cb_mmio_write_t scs_write, void *ctx);

/* The hook set of a modelled run, all with context CTX: CODE before every
 * instruction, MEM on data accesses within RAM (MEM_TYPES, e.g.
 * UC_HOOK_MEM_WRITE | UC_HOOK_MEM_READ), UNMAPPED on accesses to nothing,
 * INTR on CPU exceptions (CODE may be NULL: none, the replayer's block
 * engine adds it when it needs it).  BLOCK_THUMB (NULL: none) is where a block hook
 * keeps CPSR.T of the translation block about to run, read once per block
 * instead of once per instruction (capture/thumb.h, thumb_state_in).
 * Returns a Unicorn error. */
struct core_hooks {
	uc_cb_hookcode_t code;
	uc_cb_hookmem_t mem;
	int mem_types;
	uc_cb_eventmem_t unmapped;
	uc_cb_hookintr_t intr;
	uint8_t *block_thumb;
};
uc_err core_add_hooks(uc_engine *uc, const struct core_hooks *h, void *ctx, uint32_t ram_base, uint32_t ram_size);
/* core_add_hooks plus INVALID on undefined instructions (the M7 takes a
 * UsageFault there instead of stopping). */
uc_err core_add_hooks_m7(uc_engine *uc, const struct core_hooks *h, uc_cb_hookinsn_invalid_t invalid, void *ctx,
			 uint32_t ram_base, uint32_t ram_size);

/* The branch-counter rule (TARGET.md): at the boundary before the
 * instruction at A, the previous one counts as a branch when execution did
 * not continue at EXPECT_PC (its address + 4), unless what came between was
 * an exception entry (AFTER_EXCEPTION). */
static inline int core_branched(uint32_t a, uint32_t expect_pc, int after_exception)
{
	return a != expect_pc && !after_exception;
}

static inline int core_is_wfi(uint32_t word) { return (word & CORE_WFI_MASK) == CORE_INSN_WFI; }

/* A WFI at A retires (its sleep is the caller's): continue at A + 4 instead
 * of Unicorn's halt, which would end uc_emu_start.  Call from the code hook
 * of the WFI. */
static inline uc_err core_wfi_retire(uc_engine *uc, uint32_t a)
{
	uint32_t next = a + 4;
	return uc_reg_write(uc, UC_ARM_REG_PC, &next);
}

/* RAM at [ADDR, ADDR + LEN) changed behind the core (a DMA transfer, a
 * value the decoder put there): drop any translation of it, or old code
 * would run on.  UC is the engine (a struct bus code_changed callback takes
 * it as its context).  Done for every change: cheap where no code lies. */
void core_code_changed(void *uc, uint32_t addr, uint32_t len);

/* Appends the data access (ADDR, SIZE, WRITE, VALUE, UNCACHED) to the
 * instruction record R, which the caller has checked has room for it
 * (n_acc < CITCAT_ITRACE_MAX_ACC): the capture oracle and both replayers
 * record accesses alike. */
static inline void core_record_access(struct citcat_itrace_rec *r, uint32_t addr, unsigned size, int write,
				      uint64_t value, int uncached)
{
	struct citcat_access *a = &r->acc[r->n_acc++];
	a->addr = addr;
	a->size = (uint8_t)size;
	a->write = (uint8_t)write;
	a->value = value;
	a->uncached = (uint8_t)uncached;
}

/* Starts R as the record of the instruction WORD at A (SIZE bytes, Thumb
 * state when THUMB), with no accesses yet: the capture oracle and both
 * replayers start their records alike. */
static inline void core_record_insn(struct citcat_itrace_rec *r, uint32_t a, uint32_t word, unsigned size, int thumb)
{
	r->kind = CITCAT_REC_INSN;
	r->pc = a;
	r->word = word;
	r->size = (uint8_t)size;
	r->thumb = (uint8_t)thumb;
	r->n_acc = 0;
}

#endif
