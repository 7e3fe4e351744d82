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

/* A core's RAM: SIZE bytes of anonymous memory, 4 KiB aligned, whose zero
 * pages come from the kernel as a run first touches them.  Clearing RAM up
 * front made every run touch all of it (16 MiB by default: 4,096 page
 * faults, most of a short capture's CPU time; capture/TARGET.md "Short
 * runs"), and a RAM size read from a header (the replayers') costs nothing
 * until it is used: no swap is reserved for it (MAP_NORESERVE; issue 29, a
 * 1 GiB claim took 1 GB).  NULL when it cannot be had.  Every RAM of the
 * capture and the replayers comes from here; core_ram_free releases it. */
uint8_t *core_ram_alloc(uint32_t size);

/* Releases RAM of SIZE bytes from core_ram_alloc (NULL: nothing). */
void core_ram_free(uint8_t *ram, uint32_t size);

/* Opens an ARMv7-A core (Unicorn's Cortex-A9 model, ARM state) with RAM_SIZE
 * bytes of the caller's RAM (4 KiB aligned, outliving the engine) mapped at
 * RAM_BASE, and the device window at DEV_BASE: MMIO served by READ and WRITE
 * (CTX passed to both; WRITE may be NULL only with READ), or plain memory
 * when READ is NULL.  On failure *UC is closed and NULL.  Returns a
 * Unicorn error. */
uc_err core_open(uc_engine **uc, uint32_t ram_base, uint32_t ram_size, uint8_t *ram, uint32_t dev_base,
		 uint32_t dev_size, uc_cb_mmio_read_t read, uc_cb_mmio_write_t write, void *ctx);

/* As core_open, for the Cortex-M7 (TARGET-M7.md, machine/core_m7.c):
 * UC_CPU_ARM_CORTEX_M7 in UC_MODE_THUMB | UC_MODE_MCLASS, and the System
 * Control Space (M7EXC_SCS_BASE) served by SCS_READ and SCS_WRITE (plain
 * memory when SCS_READ is NULL). */
uc_err core_open_m7(uc_engine **uc, uint32_t ram_base, uint32_t ram_size, uint8_t *ram, uint32_t dev_base,
		    uint32_t dev_size, uc_cb_mmio_read_t read, uc_cb_mmio_write_t write, uc_cb_mmio_read_t scs_read,
		    uc_cb_mmio_write_t scs_write, void *ctx);

/* The hook set of a modelled run, all with context CTX: CODE before every
 * instruction, MEM on data accesses within RAM (MEM_TYPES, e.g.
 * UC_HOOK_MEM_WRITE | UC_HOOK_MEM_READ), UNMAPPED on accesses to nothing
 * and on a fetch from the device window (mapped but not executable: type
 * UC_MEM_FETCH_PROT, a bus error of the fetch as UC_MEM_FETCH_UNMAPPED is;
 * without the hook Unicorn stops the run with UC_ERR_FETCH_PROT, and the
 * capture used to fail there and keep nothing.  The Cortex-M7 never gets
 * it: its default memory map makes the window execute-never, a prefetch
 * abort first), INTR on CPU exceptions (CODE may be NULL: none, the replayer's block
 * engine adds it when it needs it).  BLOCK_THUMB (NULL: none) is where a block hook
 * keeps CPSR.T of the translation block about to run, read once per block
 * instead of once per instruction (machine/thumb.h, thumb_state_in).
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

/* Write the Cortex-M7's whole xPSR: N Z C V Q, GE[3:0], the IPSR and the
 * EPSR (T, IT).  Unicorn 2.0.1's UC_ARM_REG_XPSR leaves GE as it was
 * (UC_ARM_REG_APSR_NZCVQG writes the flags and GE alone; pinned by
 * tests/test_unicorn_ge.c), so a segment started with GE clear and an
 * exception return kept the handler's GE (issue 36).  Returns a Unicorn
 * error. */
uc_err core_m7_write_xpsr(uc_engine *uc, uint32_t xpsr);

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

/* Unicorn 2.0.1's guest page (uc_ctl_get_page_size, both cores) and what
 * its UC_HOOK_MEM_READ does with a load that crosses one
 * (tests/test_unicorn_split.c): an unaligned load of SIZE bytes at A whose
 * bytes lie in two pages is reported three times, first as itself (A, SIZE),
 * then as the two aligned loads of SIZE bytes that make it up, at
 * A & ~(SIZE - 1) and the next SIZE bytes (load_helper's
 * do_unaligned_access reads them through the hooked path).  Those two are
 * no accesses of the core: a memory model, an oracle, a trace module or a
 * block engine's attribution that took them would see two loads too many,
 * and bytes the instruction never reads.  UC_HOOK_MEM_READ_AFTER reports
 * the load once, and a store crossing a page is one UC_HOOK_MEM_WRITE call
 * (the byte loop below it is not hooked).  An access crossing a D-cache
 * line but no page is reported once either way.
 *
 * The capture and the AES replayer hook reads with READ_AFTER, with or
 * without an oracle or an output (before issue 36 they took READ without
 * one): a load that faults after its READ call (an unaligned LDREX aborts
 * after it, tests/test_unicorn_split.c) is then never an access, and a
 * capture with --oracle records the same CAT as one without.  The LVT
 * decoder must hook READ (it puts the traced value in RAM before the core
 * reads it), so it calls core_read_echo first and drops the call when it
 * says so; it never meets the faulting load (the LVT refuses faults on the
 * A target, and the M7 stops at that abort). */
#define CORE_PAGE 1024u
struct core_rsplit {
	uint32_t next;  /* the address of the echo expected next */
	uint8_t left;   /* echoes still expected (0..2) */
	uint8_t size;   /* their size */
};

/* For a UC_MEM_READ hook call (A, SIZE): 1 when it is one of Unicorn's two
 * echoes of the page-crossing load before it (drop it), else 0 (an access;
 * a page-crossing one arms the filter for its two echoes).  S starts
 * zeroed.  Never call it for READ_AFTER or write calls: a genuine load of
 * the aligned word after a page-crossing one would be taken for an echo. */
static inline int core_read_echo(struct core_rsplit *s, uint32_t a, unsigned size)
{
	if (__builtin_expect(s->left != 0, 0)) {
		if (a == s->next && size == s->size) {
			s->next += size;
			s->left--;
			return 1;
		}
		s->left = 0; /* the echoes did not come (the load faulted): forget them */
	}
	if (__builtin_expect((a & (CORE_PAGE - 1)) + size > CORE_PAGE, 0)) {
		s->left = 2;
		s->next = a & ~(size - 1);
		s->size = (uint8_t)size;
	}
	return 0;
}

/* A memory-hook call (A, SIZE) for an access that starts in RAM
 * [BASE, BASE + RAM_SIZE) and runs past its end: Unicorn reports it (its
 * hooks are bound by the start address) before it faults on the part
 * outside, through the unmapped hook (or, with RAM ending at the device
 * window, reads or writes that part as a device register).  Such an access
 * is a bus error of the whole access (TARGET.md, "Accesses that cross a
 * line"): the hook drops it, so that nothing of it reaches the cache model,
 * the oracle or a trace module, as for an access outside RAM; before, the
 * model filled or wrote through a line beyond RAM (read past the RAM
 * buffer) and the CAT could not be read. */
static inline int core_past_ram(uint32_t a, unsigned size, uint32_t base, uint32_t ram_size)
{
	return a - base > ram_size - size;
}

/* RAM at [ADDR, ADDR + LEN) changed behind the core (a DMA transfer, a
 * value the decoder put there): drop any translation of it, or old code
 * would run on.  UC is the engine (a struct bus code_changed callback takes
 * it as its context).  Done for every change: cheap where no code lies. */
void core_code_changed(void *uc, uint32_t addr, uint32_t len);

/* Two engines on one RAM (mapped by pointer into both), the run moved
 * between them (capture/TARGET.md and replay/REPLAY.md "Two engines").
 * Unicorn drops an engine's translation when that engine stores into it,
 * not when the other one does (tests/test_unicorn_engines.c part 8), so
 * each side keeps a bitmap of the 64-byte granules of RAM holding code
 * either engine translated (core_gran_mark), and a write into a marked
 * granule goes into the engine not running's dirty range
 * (core_gran_any, core_dirty_add), which core_move drops from it before it
 * takes over.  Offsets are into RAM, RAM_SIZE bytes. */
struct core_dirty {
	uint32_t lo, hi; /* [LO, HI): nothing when HI <= LO */
};

/* The bits of granules G0..G1 when both lie in one byte of the map.  A
 * block of at most 512 bytes spans one byte of the map or two, each marked
 * with one mask, without the loop: a held run marks every block it runs
 * (capture/target.c hook_block; counter's three polling blocks span 3 to 5
 * granules, and two of them cross a byte). */
static inline uint8_t core_gran_bits(uint32_t g0, uint32_t g1)
{
	return (uint8_t)((0xFFu << (g0 & 7)) & (0xFFu >> (7 - (g1 & 7))));
}

static inline void core_gran_mark(uint8_t *map, uint32_t ram_size, uint32_t off, uint32_t len)
{
	if (!len || off >= ram_size)
		return;
	if (len > ram_size - off)
		len = ram_size - off;
	uint32_t g0 = off >> 6, g1 = (off + len - 1) >> 6;
	if ((g0 >> 3) == (g1 >> 3)) {
		map[g0 >> 3] |= core_gran_bits(g0, g1);
		return;
	}
	if ((g1 >> 3) == (g0 >> 3) + 1) { /* across two bytes of the map */
		map[g0 >> 3] |= core_gran_bits(g0, g0 | 7);
		map[g1 >> 3] |= core_gran_bits(g1 & ~7u, g1);
		return;
	}
	for (uint32_t g = g0; g <= g1; g++)
		map[g >> 3] |= (uint8_t)(1u << (g & 7));
}

static inline int core_gran_any(const uint8_t *map, uint32_t ram_size, uint32_t off, uint32_t len)
{
	if (!len || off >= ram_size)
		return 0;
	if (len > ram_size - off)
		len = ram_size - off;
	/* no shortcut as in core_gran_mark: an access spans one granule or
	 * two, and the loop was cheaper than the masks (measured: matmul) */
	for (uint32_t g = off >> 6; g <= (off + len - 1) >> 6; g++)
		if (map[g >> 3] >> (g & 7) & 1)
			return 1;
	return 0;
}

static inline void core_dirty_add(struct core_dirty *d, uint32_t off, uint32_t len)
{
	if (off < d->lo)
		d->lo = off;
	if (off + len > d->hi)
		d->hi = off + len;
}

/* Moves the CPU state from FROM to TO (uc_context_save and _restore
 * through CTX: the whole CPUARMState up to its breakpoints, pinned across
 * two engines of one model in tests/test_unicorn_engines.c part 7), after
 * TO dropped its translations of the dirty range D of RAM at RAM_BASE,
 * which is emptied.  Returns a Unicorn error. */
uc_err core_move(uc_engine *from, uc_engine *to, uc_context *ctx, uint32_t ram_base, struct core_dirty *d);

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
