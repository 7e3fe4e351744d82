/* The modelled SoC (TARGET.md): Unicorn runs the core; a code hook at every
 * instruction does what the hardware does at instruction boundaries (device
 * time, interrupts, WFI, instruction fetch into the I-cache, the branch
 * counter), memory hooks feed data accesses to the D-cache, and the device
 * window is Unicorn MMIO served by the device models.
 *
 * Unicorn 2.0.1 behaviours this file relies on (see tests/test_unicorn.c):
 *  - a code hook runs before its instruction; writing PC or calling
 *    uc_emu_stop there means the instruction does not execute;
 *  - uc_emu_stop inside a memory hook or MMIO callback abandons the
 *    instruction and re-executes it later (its hooks fire twice), so those
 *    callbacks only set flags that the next code hook acts on;
 *  - the PC read inside a memory hook is only right when a code hook is
 *    installed (without one it is the start of the translation block), so
 *    accesses are attributed by the code hook's address instead;
 *  - a translation block is in one state (ARM or Thumb) and its block hook
 *    runs before the code hooks of its instructions, so CPSR.T is read once
 *    per block (struct core_hooks, block_thumb), not per instruction;
 *    the state changes only at a block's last instruction, so the block
 *    engine skips even that read after a block whose last instruction
 *    cannot change it (tests/test_unicorn_block.c part 11, rblk_keeps_state);
 *  - WFI makes uc_emu_start return, so WFI is modelled in the code hook;
 *  - Unicorn does not take IRQs itself: arm_take_irq does the entry. */
#include "armcore.h"
#include "ckpt.h"
#include "core.h"
#include "replay_block.h"
#include "image.h"
#include "container.h"
#include "input.h"
#include "itrace.h"
#include "target_int.h"
#include "target_m7.h"
#include "thumb.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unicorn/unicorn.h>
#include <unistd.h>

int target_fail(struct target *t, int code, const char *fmt, ...)
{
	if (t->failed)
		return t->err->code;
	va_list ap;
	va_start(ap, fmt);
	citcat_errinfo_vfirst(t->err, code, UINT64_MAX, fmt, ap);
	va_end(ap);
	t->failed = 1;
	if (t->uc) /* failures before the engine exists (loading) stop nothing */
		uc_emu_stop(t->uc);
	return code;
}

#define fail target_fail /* the name the call sites below use */

/* ---- trace module ---- */

static void sink_event(void *ctx, const struct citcat_cat_event *ev)
{
	struct target *t = ctx;
	if (!t->recording)
		return;
	t->rec_counts[ev->kind]++;
	if (t->cfg->on_event && !t->failed) {
		int rc = t->cfg->on_event(t->cfg->event_ctx, ev);
		if (rc) {
			fail(t, rc < 0 ? rc : CITCAT_ERR_INTERRUPTED, "the event sink stopped the capture");
			return;
		}
	}
	if (!t->cat)
		return;
	if (citcat_cat_write(t->cat, ev))
		fail(t, citcat_cat_writer_error(t->cat)->code, "writing the CAT: %s", citcat_cat_writer_error(t->cat)->msg);
}

static void flush_oracle(struct target *t)
{
	if (t->cur_valid && t->daf && citcat_daf_write_isa(t->daf, t->cur.pc, t->cur.word, t->cur.size ? t->cur.size : 4,
							  t->cur.thumb, t->cur.acc, t->cur.n_acc))
		fail(t, citcat_daf_writer_error(t->daf)->code, "DAF trace: %s", citcat_daf_writer_error(t->daf)->msg);
	if (t->cur_valid && t->oracle && citcat_itrace_write(t->oracle, &t->cur))
		fail(t, CITCAT_ERR_IO, "writing the oracle trace: %s", citcat_itrace_writer_error(t->oracle)->msg);
	t->cur_valid = 0;
}

void target_flush_oracle(struct target *t) { flush_oracle(t); }

static void trace_stop(struct target *t, int reason)
{
	if (!t->recording)
		return;
	flush_oracle(t);
	if (t->lvt && t->synced)
		lvt_tm_stop(t->lvt, (unsigned)reason, t->traced_insns, t->bcount);
	struct citcat_cat_event ev = {.kind = CITCAT_CAT_STOP, .line = (uint8_t)reason, .insns = t->traced_insns,
				      .bcount = t->bcount};
	if (reason == CITCAT_STOP_FAULT) {
		ev.value = t->fault_kind;
		ev.pc = t->fault_pc;
		ev.addr = t->fault_addr;
		if (t->m7 && t->fault_kind == CITCAT_FAULT_EXCEPTION) {
			/* the fault status registers go with the STOP (CAT.md version 7, ITRACE.md) */
			m7exc_fault_status(&t->m7->exc, t->fault_addr, &t->m7_fault);
			t->has_m7_fault = 1;
			if (t->cat)
				citcat_cat_writer_m7_fault(t->cat, &t->m7_fault);
			if (t->oracle)
				citcat_itrace_writer_m7_fault(t->oracle, &t->m7_fault);
		}
	}
	/* an abnormal end is the itrace's last record (formats/ITRACE.md, STOP) */
	if (reason >= CITCAT_STOP_FAULT && t->synced && t->oracle) {
		struct citcat_itrace_rec end = {.kind = CITCAT_REC_STOP, .line = (uint8_t)reason, .pc = t->stop_pc,
						.word = reason == CITCAT_STOP_FAULT ? t->fault_kind : 0,
						.fault_addr = reason == CITCAT_STOP_FAULT ? t->fault_addr : 0};
		if (citcat_itrace_write(t->oracle, &end))
			fail(t, CITCAT_ERR_IO, "writing the oracle trace: %s", citcat_itrace_writer_error(t->oracle)->msg);
	}
	bus_marker(&t->bus, &ev);
	t->recording = 0;
	t->ended = 1;
	t->synced = 0;
}

/* The core faulted (CAT.md, STOP): end the trace validly here and stop the
 * run.  What the instruction would still have done is dropped (the hooks
 * return early once FAULTED is set).  The LVT and DAF trace modules have no
 * way to record an abnormal end, so with them a fault stays an error. */
static void fault(struct target *t, unsigned kind, uint32_t pc, uint32_t addr, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
static void fault(struct target *t, unsigned kind, uint32_t pc, uint32_t addr, const char *fmt, ...)
{
	if (t->failed || t->faulted)
		return;
	if (t->lvt || t->daf) {
		char msg[200];
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(msg, sizeof msg, fmt, ap);
		va_end(ap);
		fail(t, CITCAT_ERR_TARGET, "%s", msg);
		return;
	}
	t->faulted = 1;
	t->fault_kind = kind;
	t->fault_pc = t->stop_pc = pc;
	t->fault_addr = addr;
	t->stop_reason = CITCAT_STOP_FAULT;
	trace_stop(t, CITCAT_STOP_FAULT);
	t->stop_request = 1;
	uc_emu_stop(t->uc);
}

/* ---- devices ---- */

/* The device whose event is due first (the first in table order on a tie). */
static void recompute_next(struct target *t)
{
	uint64_t n = UINT64_MAX;
	const struct device *nd = NULL;
	for (unsigned i = 0; i < t->n_ev_dev; i++) {
		uint64_t e = t->ev_dev[i]->next_event(t);
		if (e < n)
			n = e, nd = t->ev_dev[i];
	}
	t->next_event = n;
	t->next_dev = nd;
	t->loud_stale = 1; /* and what makes a device read loud may have changed */
}

/* LOUD_MIN again (struct target), after a device's state changed. */
static void cblk_loud_update(struct target *t)
{
	uint64_t lm = UINT64_MAX;
	for (unsigned i = 0; i < t->n_loud_dev; i++) {
		const struct device *d = t->loud_dev[i];
		uint64_t dl = 0;
		if ((!d->loud_reads || d->loud_reads(t, &dl)) && dl < lm)
			lm = dl;
	}
	t->loud_min = lm;
	t->loud_stale = 0;
}

/* Runs every device event due at or before the current cycle, in time order. */
static void devices_advance(struct target *t, uint32_t pc)
{
	uint64_t now = t->bus.cycle;
	while (!t->failed) {
		recompute_next(t);
		if (t->next_event > now)
			return;
		t->next_dev->fire(t, now, pc);
	}
}

static void devices_init(struct target *t)
{
	for (unsigned i = 0; i < target_ndevices; i++) {
		const struct device *d = target_devices[i];
		for (uint32_t p = d->base >> 8; p <= (d->base + d->size - 1) >> 8 && p < 256; p++)
			t->dev_at[p] = d;
		if (d->next_event && t->n_ev_dev < sizeof t->ev_dev / sizeof *t->ev_dev)
			t->ev_dev[t->n_ev_dev++] = d;
		if (d->read && d->loud_reads != target_no_loud_reads && t->n_loud_dev < sizeof t->loud_dev / sizeof *t->loud_dev)
			t->loud_dev[t->n_loud_dev++] = d;
	}
}

/* The device whose registers hold the window offset OFF, or NULL. */
static inline const struct device *dev_of(const struct target *t, uint32_t off)
{
	return off < CITCAT_DEV_SIZE ? t->dev_at[off >> 8] : NULL;
}

static uint32_t dev_read(struct target *t, uint32_t off)
{
	const struct citcat_target_config *c = &t->cfg->target;
	const struct device *d = dev_of(t, off);
	uint32_t v = 0;
	if (d && d->read && d->read(t, off - d->base, &v) == 0)
		return v;
	fault(t, CITCAT_FAULT_DEV_READ, t->last_pc, c->dev_base + off, "bus error: read of unassigned device register 0x%08x",
	      c->dev_base + off);
	return 0;
}

/* The device whose registers hold OFF in the static table (no target
 * needed: the replayers ask too), or NULL. */
static const struct device *dev_static(uint32_t off)
{
	for (unsigned i = 0; i < target_ndevices; i++)
		if (off - target_devices[i]->base < target_devices[i]->size)
			return target_devices[i];
	return NULL;
}

/* Decided before the write reaches the bus, so that a write the device
 * refuses is a bus error rather than an UWRITE in the CAT. */
int target_dev_writable(uint32_t off)
{
	const struct device *d = dev_static(off);
	return d && d->writable && d->writable(off - d->base);
}

int target_dev_readable(uint32_t off)
{
	const struct device *d = dev_static(off);
	return d && d->readable && d->readable(off - d->base);
}

#define dev_writable target_dev_writable /* the name the call site below uses */

static void dev_write(struct target *t, uint32_t off, uint32_t v)
{
	const struct citcat_target_config *c = &t->cfg->target;
	const struct device *d = dev_of(t, off);
	if (d && d->write && d->write(t, off - d->base, v) == 0)
		return;
	fault(t, CITCAT_FAULT_DEV_WRITE, t->last_pc, c->dev_base + off, "bus error: write of unassigned device register 0x%08x", c->dev_base + off);
}

static void oracle_access(struct target *t, uint32_t addr, unsigned size, int write, uint64_t value, int uncached)
{
	if (!t->cur_valid)
		return;
	if (t->cur.n_acc >= CITCAT_ITRACE_MAX_ACC) {
		fail(t, CITCAT_ERR_LIMIT, "instruction at 0x%08x made more than %d data accesses", (uint32_t)t->cur.pc,
		     CITCAT_ITRACE_MAX_ACC);
		return;
	}
	core_record_access(&t->cur, addr, size, write, value, uncached);
}

static uint64_t mmio_read(uc_engine *uc, uint64_t off, unsigned size, void *ctx)
{
	struct target *t = ctx;
	uint32_t addr = t->cfg->target.dev_base + (uint32_t)off;
	if (t->faulted)
		return 0;
	if (size != 4 || (off & 3)) {
		fault(t, CITCAT_FAULT_DEV_READ, t->last_pc, addr, "bus error: %u-byte read of device register 0x%08x", size,
		      addr);
		return 0;
	}
	uint32_t v = dev_read(t, (uint32_t)off);
	if (t->faulted)
		return 0;
	bus_uncached(&t->bus, addr, 4, 0, v);
	if (t->lvt && t->synced)
		lvt_tm_uread(t->lvt, v, 4);
	oracle_access(t, addr, 4, 0, v, 1);
	recompute_next(t); /* a read can schedule device work (UART RX) */
	return v;
}

static void mmio_write(uc_engine *uc, uint64_t off, unsigned size, uint64_t value, void *ctx)
{
	struct target *t = ctx;
	uint32_t addr = t->cfg->target.dev_base + (uint32_t)off;
	if (t->faulted)
		return;
	if (t->m7 && (size != 4 || (off & 3) || !dev_writable((uint32_t)off))) {
		/* the M7's buffered store: an imprecise BusFault, the write
		 * dropped, whatever its size (TARGET-M7.md, Faults) */
		m7exc_imprecise(&t->m7->exc);
		return;
	}
	if (size != 4 || (off & 3) || !dev_writable((uint32_t)off)) {
		fault(t, CITCAT_FAULT_DEV_WRITE, t->last_pc, addr,
		      size != 4 || (off & 3) ? "bus error: %u-byte write of device register 0x%08x"
					     : "bus error: %u-byte write of unassigned device register 0x%08x",
		      size, addr);
		return;
	}
	bus_uncached(&t->bus, addr, 4, 1, (uint32_t)value);
	if (t->lvt && t->synced)
		lvt_tm_uwrite(t->lvt, (uint32_t)off, (uint32_t)value);
	oracle_access(t, addr, 4, 1, (uint32_t)value, 1);
	dev_write(t, (uint32_t)off, (uint32_t)value);
	ckpt_uwrite(t, (uint32_t)off);
	recompute_next(t);
}

/* ---- core hooks ---- */

static inline __attribute__((always_inline)) int cblk_attribute(struct target *t);
static int cblk_unmapped(struct target *t, uc_mem_type type, uint32_t a);

/* Two engines (TARGET.md "Two engines"): the granules of [A, A + SIZE)
 * hold code an engine translated.  Every translation block either engine
 * enters is marked: hook_block marks those run per instruction and those it
 * stops in front of, cblk_qualify those it decodes (a block run without the
 * code hook is one cblk_qualify decoded, now or when its bytes were last
 * different). */
static void cblk_mark(struct target *t, uint32_t a, uint32_t size)
{
	if (t->blk_cgran)
		core_gran_mark(t->blk_cgran, t->ram_size, a - t->ram_base, size);
}

/* Bytes [OFF, OFF + LEN) of RAM (offsets) were written, by a store of the
 * running engine or a DMA transfer: the running engine drops what it
 * translated of them itself (Unicorn's store check; core_code_changed),
 * the other one, when they hold code (BLK_CGRAN), as it takes over. */
static inline void cblk_touched(struct target *t, uint32_t off, uint32_t len)
{
	if (t->blk_uc[0] && core_gran_any(t->blk_cgran, t->ram_size, off, len))
		core_dirty_add(&t->blk_dirty[t->uc == t->blk_uc[0]], off, len); /* the other engine's */
}

/* The bus's code_changed under the block engine: bus_dma wrote [ADDR,
 * ADDR + LEN) of RAM behind Unicorn's back. */
static void cblk_code_changed(void *ctx, uint32_t addr, uint32_t len)
{
	struct target *t = ctx;
	core_code_changed(t->uc, addr, len);
	cblk_touched(t, addr - t->ram_base, len);
}

static void hook_mem(uc_engine *uc, uc_mem_type type, uint64_t addr, int size, int64_t value, void *ctx)
{
	struct target *t = ctx;
	if (__builtin_expect(core_past_ram((uint32_t)addr, (unsigned)size, t->ram_base, t->ram_size), 0))
		return; /* a bus error, reported by the unmapped hook (core.h) */
	if (t->faulted)
		return;
	if (!t->blk_precise && !cblk_attribute(t))
		return;
	int w = type == UC_MEM_WRITE;
	if (w && t->blk && (uint32_t)addr < t->blk->addr + t->blk->size && (uint32_t)addr + (uint32_t)size > t->blk->addr)
		t->blk_code_written = 1; /* cblk_retire_run reads the rest of the block from RAM */
	if (w)
		cblk_touched(t, (uint32_t)addr - t->ram_base, (uint32_t)size);
	uint64_t v = (uint64_t)value;
	if (size < 8)
		v &= (1ull << (8 * size)) - 1;
	bus_data(&t->bus, (uint32_t)addr, (unsigned)size, w, v);
	if (t->lvt && t->synced)
		(w ? lvt_tm_store : lvt_tm_load)(t->lvt, (uint32_t)addr, (unsigned)size);
	oracle_access(t, (uint32_t)addr, (unsigned)size, w, v, 0);
}

static bool hook_unmapped(uc_engine *uc, uc_mem_type type, uint64_t addr, int size, int64_t value, void *ctx)
{
	struct target *t = ctx;
	uint32_t a = (uint32_t)addr;
	if (!t->blk_precise && cblk_unmapped(t, type, a))
		return false; /* a device access: on per instruction (cblk_switch) */
	if (type == UC_MEM_FETCH_UNMAPPED || type == UC_MEM_FETCH_PROT) { /* PROT: the device window (core_add_hooks) */
		/* no code hook ran for A: apply the branch-counter rule to it here,
		 * as hook_code does for every address it sees */
		if (t->synced && a != t->expect_pc && !t->after_exception && !t->faulted && !t->failed)
			t->bcount++;
		fault(t, CITCAT_FAULT_FETCH, a, a, "bus error: instruction fetch of unmapped address 0x%08x", a);
	} else {
		int w = type == UC_MEM_WRITE_UNMAPPED;
		fault(t, w ? CITCAT_FAULT_WRITE : CITCAT_FAULT_READ, t->last_pc, a,
		      "bus error: %s of unmapped address 0x%08x (pc 0x%08x)", w ? "write" : "read", a, t->last_pc);
	}
	return false;
}

static void hook_intr(uc_engine *uc, uint32_t intno, void *ctx)
{
	struct target *t = ctx;
	if (!t->blk_precise && !t->faulted && !t->failed) {
		/* which instruction of the block raised it is not known */
		fail(t, CITCAT_ERR_INTERNAL,
		     "the block engine met CPU exception %u inside the block at 0x%08x (capture with --engine insn)", intno,
		     t->blk ? t->blk->addr : 0);
		return;
	}
	/* Unicorn's ARM exception numbers (qemu/target/arm/cpu.h): 1 EXCP_UDEF,
	 * 2 EXCP_SWI, 7 EXCP_BKPT; the others are aborts */
	unsigned kind = intno == 1 ? CITCAT_FAULT_UNDEF : intno == 2 ? CITCAT_FAULT_SVC : intno == 7 ? CITCAT_FAULT_BKPT
														  : CITCAT_FAULT_ABORT;
	fault(t, kind, t->last_pc, 0, "exception %u at pc 0x%08x", intno, t->last_pc);
}

static void take_sync(struct target *t, uint32_t pc)
{
	t->sync_pending = 0;
	t->synced = 1;
	if (t->m7) /* the fault status the STOP records counts from here (m7exc_fault_status) */
		m7exc_status_mark(&t->m7->exc);
	t->bcount = 0;
	t->traced_insns = 0;
	/* the trace module records the caches' random-replacement generators */
	struct citcat_cat_event ev = {.kind = CITCAT_CAT_SYNC, .pc = pc, .repl_state = {cache_repl_state(&t->bus.ic),
											cache_repl_state(&t->bus.dc)}};
	bus_marker(&t->bus, &ev);
	if (t->lvt)
		lvt_tm_sync(t->lvt);
}

/* The cycle of the next device event that can raise an interrupt line the
 * controller has enabled, UINT64_MAX when none can: nothing can then wake a
 * sleeping core (enabling a line takes an instruction).  Each device says
 * which of its events can (struct device, next_wakeup). */
static uint64_t next_wakeup(const struct target *t)
{
	uint64_t n = UINT64_MAX;
	for (unsigned i = 0; i < target_ndevices; i++)
		if (target_devices[i]->next_wakeup) {
			uint64_t w = target_devices[i]->next_wakeup(t);
			if (w < n)
				n = w;
		}
	return n;
}

/* The A target's wake-up (struct target_wake): an enabled interrupt line
 * pending; the next event that could raise one. */
static int a_awake(struct target *t) { return (t->intc_pending & t->intc_enable) != 0; }
static uint64_t a_next(struct target *t) { return next_wakeup(t); }
static void a_detail(struct target *t)
{
	snprintf(t->stop_detail, sizeof t->stop_detail, "lines enabled 0x%x; timer %s, DMA %s, UART input %s",
		 t->intc_enable, t->timer_on && t->timer_period ? "running" : "stopped",
		 t->dma_status & 1 ? (t->dma_irq ? "active" : "active without interrupt") : "idle",
		 !t->uart_in || t->uart_rx_eof ? "none left" : t->uart_irq ? "pending" : "without interrupt");
}
static void a_advance(struct target *t) { devices_advance(t, t->expect_pc); /* the boundary after the WFI */ }
static const struct target_wake a_wake = {a_awake, a_next, a_detail, a_advance};

/* Sleeps until the target's wake-up condition holds (W; the A target's:
 * an enabled interrupt line pending).  Each step runs the device events
 * due at the next event that could wake the core, or at the next DMA burst
 * before it (bursts move data, and the last one may raise the DMA line);
 * timer ticks in between are batched by devices_advance.  A sleep retires
 * no instructions, so it does not count against --max-insns (checked again
 * at the next instruction); it ends by itself, since it is only entered
 * when a wake-up is certain, and it polls the progress callback so a
 * signal stops it. */
int target_wfi_sleep(struct target *t, uint32_t pc, const struct target_wake *w)
{
	for (uint64_t steps = 1; !w->awake(t); steps++) {
		recompute_next(t);
		uint64_t at = w->next(t);
		if (at == UINT64_MAX) {
			w->detail(t);
			if (t->lvt || t->daf)
				return fail(t, CITCAT_ERR_TARGET,
					    "WFI at 0x%08x can never wake: no enabled interrupt line has a source that can raise it "
					    "(%s)", pc, t->stop_detail);
			/* the end of the run: the WFI is its last instruction */
			t->stop_reason = CITCAT_STOP_WFI_DEADLOCK;
			t->stop_pc = pc;
			trace_stop(t, CITCAT_STOP_WFI_DEADLOCK);
			t->stop_request = 1;
			uc_emu_stop(t->uc);
			return -1;
		}
		if ((t->dma_status & 1) && t->dma_next < at)
			at = t->dma_next;
		if (at > t->bus.cycle)
			t->bus.cycle = at;
		w->advance(t);
		if (t->failed)
			return -1;
		if ((steps & 0xffff) == 0 && t->cfg->progress && t->cfg->progress(t->cfg->progress_ctx, t->insns)) {
			/* the WFI retires asleep; the next boundary ends the run */
			t->interrupt_pending = 1;
			return 0;
		}
	}
	return 0;
}

/* The instruction at A (SIZE bytes, WORD as thumb_word_at reads it, THUMB
 * state) retires: fetch, count, open its oracle record.  Returns 0, or -1
 * when the model cannot record it. */
/* inlined into the code hook: a call per instruction cost 10% of a capture
 * (perf, sha256_long) */
static inline __attribute__((always_inline)) int retire(struct target *t, uint32_t a, unsigned size, uint32_t word,
							int thumb)
{
	thumb_ifetch(&t->bus, a, size);
	t->bus.cycle++;
	t->insns++;
	t->expect_pc = a + size;
	t->last_pc = a;
	t->itstate = thumb_is_it(word, size) ? (uint8_t)(word & 0xff) : thumb_it_advance(t->itstate);
	if (t->synced) {
		t->traced_insns++;
		if (t->oracle || t->daf) {
			core_record_insn(&t->cur, a, word, size, thumb);
			t->cur_valid = 1;
		}
	}
	return 0;
}

/* Unicorn runs no code hook for an instruction of an IT block whose
 * condition fails (tests/test_unicorn_thumb.c); architecturally it retires
 * as a no-op.  At the boundary before A, retire every such instruction from
 * expect_pc on: those of the current IT block whose condition fails with the
 * flags as they are (a failed instruction changes none). */
static void it_skipped(struct target *t, uint32_t a)
{
	uint32_t cpsr; /* the flags: CPSR, xPSR on the Cortex-M7 */
	uc_reg_read(t->uc, t->m7 ? UC_ARM_REG_XPSR : UC_ARM_REG_CPSR, &cpsr);
	while (t->itstate && a != t->expect_pc && !t->failed && !thumb_cond_passed(t->itstate >> 4, cpsr)) {
		uint32_t pc = t->expect_pc, off = pc - t->ram_base;
		uint16_t hw;
		if (off >= t->ram_size || t->ram_size - off < 2)
			break;
		memcpy(&hw, t->ram + off, 2);
		unsigned size = thumb_size(hw);
		if (t->ram_size - off < size) /* straddles the end of RAM: the fetch faults */
			break;
		if (retire(t, pc, size, thumb_word_at(t->ram + off, size), 1))
			return;
		flush_oracle(t);
	}
}

/* The start of every instruction boundary, on both targets (hook_code and
 * target_m7.c's code hook): the previous instruction has retired, so close
 * its oracle record, retire the condition-failed instructions of an IT block
 * and apply the branch-counter rule (TARGET.md) to where execution went;
 * then the trace module's pending stop, trace start and checkpoint start.
 * Returns 1 when the run ends here (the firmware's exit). */
static inline __attribute__((always_inline)) int boundary_begin(struct target *t, uint32_t a)
{
	if (__builtin_expect(t->stop_request | t->failed, 0)) {
		/* the run has ended, but Unicorn went on: a stop requested in a
		 * hook that also wrote PC is lost (tests/test_unicorn.c), e.g. an
		 * M7 lockup found after the entry's register writes */
		uc_emu_stop(t->uc);
		return 1;
	}
	if (t->cur_valid)
		flush_oracle(t);
	if (t->itstate && !t->after_exception)
		it_skipped(t, a);
	if (t->synced && core_branched(a, t->expect_pc, t->after_exception))
		t->bcount++;
	t->after_exception = 0;
	if (t->stop_pending) {
		t->stop_pending = 0;
		trace_stop(t, t->stop_reason);
		if (t->stop_reason == CITCAT_STOP_EXIT) {
			t->stop_request = 1;
			uc_emu_stop(t->uc);
			return 1;
		}
	}
	if (t->sync_pending)
		take_sync(t, a);
	if (t->ckpt_point_pending)
		ckpt_point(t, a);
	return 0;
}

/* The same for target_m7.c; hook_code inlines it (a call per instruction
 * cost 9% of a capture: perf, sha256_long). */
int target_boundary_begin(struct target *t, uint32_t a) { return boundary_begin(t, a); }

/* Firmware built without the BSP (TARGET.md, "Before the trace start
 * point"): before any trace start point, an unconditional branch to itself
 * (B . in A32, T16 or T32) that no interrupt can leave - they are masked
 * (MASKED), or W says none can ever be taken - never reaches one: the run
 * fails with a message that points to the BSP, instead of spinning until it
 * is killed.  Returns 1 then. */
int target_spin_check(struct target *t, uint32_t a, uint32_t word, unsigned size, int thumb, int masked,
		      const struct target_wake *w)
{
	int self = thumb ? (size == 2 ? word == 0xe7feu : word == 0xbffef7ffu) : word == 0xeafffffeu;
	if (!self)
		return 0;
	if (!masked) {
		recompute_next(t);
		if (w->awake(t) || w->next(t) != UINT64_MAX)
			return 0;
	}
	target_fail(t, CITCAT_ERR_TARGET,
		    "spins at 0x%08x before any trace start point (a branch to itself; %s): built without the citcat BSP, "
		    "which calls the trace driver? (examples/README.md)",
		    a, masked ? "interrupts masked" : "no interrupt source");
	return 1;
}

static void hook_code(uc_engine *uc, uint64_t address, uint32_t size, void *ctx)
{
	struct target *t = ctx;
	uint32_t a = (uint32_t)address;

	if (boundary_begin(t, a))
		return;
	if (t->interrupt_pending && t->lvt) { /* the LVT has no stop reason for it (LVT.md): no output */
		fail(t, CITCAT_ERR_INTERRUPTED, "interrupted after %llu instructions", (unsigned long long)t->insns);
		return;
	}
	if ((t->cfg->max_insns && t->insns >= t->cfg->max_insns) || t->interrupt_pending) {
		t->stop_reason = t->interrupt_pending ? CITCAT_STOP_INTERRUPTED : CITCAT_STOP_LIMIT;
		t->stop_pc = a;
		trace_stop(t, t->stop_reason);
		t->stop_request = 1;
		uc_emu_stop(uc);
		return;
	}
	if (t->bus.cycle >= t->next_event)
		devices_advance(t, a);
	if (t->cfg->checkpoint_every && !t->itstate && ckpt_boundary(t, a)) /* not inside an IT block either */
		return;
	if ((t->intc_pending & t->intc_enable) && !t->itstate) { /* never inside an IT block (TARGET.md) */
		uint32_t cpsr;
		uc_reg_read(uc, UC_ARM_REG_CPSR, &cpsr);
		if (!(cpsr & ARM_CPSR_I)) {
			uint32_t m = t->intc_pending & t->intc_enable, line = 0;
			while (!(m & (1u << line)))
				line++;
			bus_irq(&t->bus, line, a, t->bcount);
			if (t->lvt && t->synced)
				lvt_tm_irq(t->lvt, line, a, t->bcount);
			if (t->oracle && t->synced) {
				struct citcat_itrace_rec irq = {.kind = CITCAT_REC_IRQ, .line = (uint8_t)line, .pc = a};
				if (citcat_itrace_write(t->oracle, &irq))
					fail(t, CITCAT_ERR_IO, "writing the oracle trace");
			}
			if (arm_take_irq(uc, a))
				fail(t, CITCAT_ERR_UNICORN, "IRQ entry failed");
			t->after_exception = 1;
			return; /* the instruction at A does not execute now */
		}
	}
	if (a - t->ram_base >= t->ram_size || t->ram_size - (a - t->ram_base) < size) {
		fault(t, CITCAT_FAULT_FETCH, a, a, "instruction fetch outside RAM at 0x%08x", a);
		return;
	}
	uint32_t off = a - t->ram_base, word = thumb_word_at(t->ram + off, size);
	int thumb = thumb_state_in(a, size, t->block_thumb), in_it = t->itstate != 0;
	if (!t->synced && !t->ended) { /* before the trace start point: a spin nothing can leave? */
		uint32_t cpsr;
		uc_reg_read(uc, UC_ARM_REG_CPSR, &cpsr);
		if (target_spin_check(t, a, word, size, thumb, (cpsr & ARM_CPSR_I) != 0, &a_wake))
			return;
	}
	if (retire(t, a, size, word, thumb))
		return;
	if (thumb ? thumb_is_wfi(word, size) : core_is_wfi(word)) {
		if (thumb ? in_it : (word >> 28) != 0xE) {
			fail(t, CITCAT_ERR_TARGET, "conditional WFI at 0x%08x is not supported", a);
			return;
		}
		if (target_wfi_sleep(t, a, &a_wake))
			return;
		thumb_wfi_retire(uc, a, size, thumb); /* WFI retires; skip Unicorn's halt */
	}
	if (t->cfg->progress && (t->insns & 0xfffff) == 0) {
		t->blk_prog_mark = t->insns >> 20;
		if (t->cfg->progress(t->cfg->progress_ctx, t->insns))
			t->interrupt_pending = 1; /* the run ends at the next boundary, with a valid trace */
	}
}

/* ---- the block engine (TARGET.md "The block engine") ---- */

/* The bus fetches and cycles of N A32 instructions from A on, as N
 * retires would make them: one bus_ifetch per I-line the run touches (the
 * others, for the same line as the fetch before, return at once with no
 * effect), each line's instructions adding their cycles after its fetch
 * and before the next line's.  An aligned A32 word never straddles an
 * I-line.  Returns the address after the run. */
static inline __attribute__((always_inline)) uint32_t cblk_fetch_a32(struct target *t, uint32_t a, uint32_t n)
{
	uint32_t shift = t->bus.iline_shift;
	while (n) {
		bus_ifetch(&t->bus, a);
		uint32_t k = ((((a >> shift) + 1) << shift) - a) / 4; /* from A to its line's end */
		if (k > n)
			k = n;
		t->bus.cycle += k;
		a += 4 * k;
		n -= k;
	}
	return a;
}

/* The instructions FROM..TO-1 of the decoded block B retire, as hook_code
 * retires them at boundaries where nothing is due (cblk_qualify checked
 * that): the oracle record of the previous instruction closes, the
 * branch-counter rule (inside a block execution is sequential, so only its
 * first instruction can be a branch target; applied at each run's first),
 * then retire.  The word is read from RAM at retirement, as hook_code reads
 * it before the instruction runs: the same value, also when a store of the
 * block changed a later instruction of it (Unicorn runs the old one in both
 * engines). */
static void cblk_retire_records(struct target *t, const struct rblk *b, uint32_t from, uint32_t to);

static inline __attribute__((always_inline)) void cblk_retire_run(struct target *t, const struct rblk *b,
								  uint32_t from, uint32_t to)
{
	if (from >= to)
		return;
	if (b->thumb | (t->oracle != NULL)) {
		cblk_retire_records(t, b, from, to);
		return;
	}
	uint32_t a = b->addr + 4 * from;
	if (t->cur_valid)
		flush_oracle(t);
	if (t->synced && core_branched(a, t->expect_pc, t->after_exception))
		t->bcount++;
	t->after_exception = 0;
	/* no records (A32, no oracle; the LVT and DAF take the insn engine):
	 * what retire does, with the counters set once for the run, since
	 * nothing the bus calls while fetching reads them (sink_event, the
	 * CAT); the fetches one per I-line (cblk_fetch_a32) */
	a = cblk_fetch_a32(t, a, to - from);
	t->insns += to - from;
	if (t->synced)
		t->traced_insns += to - from;
	t->expect_pc = a;
	t->last_pc = a - 4;
	t->itstate = 0;
}

/* cblk_retire_run with records (the oracle) or in Thumb: as hook_code
 * retires, instruction by instruction. */
static void cblk_retire_records(struct target *t, const struct rblk *b, uint32_t from, uint32_t to)
{
	uint32_t a = b->addr + (b->thumb ? b->off[from] : 4 * from);
	if (t->cur_valid)
		flush_oracle(t);
	if (t->synced && core_branched(a, t->expect_pc, t->after_exception))
		t->bcount++;
	t->after_exception = 0;
	/* only the oracle takes records (the block engine refuses the LVT,
	 * the DAF, checkpoints and the M7) and the block's words are RAM's
	 * (no store of this execution wrote into it): the records of
	 * FROM..TO-2 have no accesses (only the last instruction of a run can
	 * make them) and go to the writer in one call, the same bytes as one
	 * citcat_itrace_write each (itrace_write_blk, with the block's
	 * memo of the word table); the bus fetches,
	 * counters and ITSTATE advance as retire's would (in A32 one fetch
	 * per I-line, as cblk_retire_run), and the
	 * last record stays open for the accesses */
	if (t->oracle && t->synced && !t->daf && !t->blk_code_written && to - from > 1) {
		uint32_t a0 = a;
		if (b->thumb) {
			for (uint32_t i = from; i < to; i++) {
				a = b->addr + b->off[i];
				unsigned sz = b->isz[i];
				thumb_ifetch(&t->bus, a, sz);
				t->bus.cycle++;
				t->itstate = thumb_is_it(b->word[i], sz) ? (uint8_t)(b->word[i] & 0xff) : thumb_it_advance(t->itstate);
			}
		} else {
			/* A32: one bus_ifetch per I-line, as cblk_retire_run
			 * (the same-line fetches between have no effect), and
			 * the ITSTATE advances as each A32 instruction's would */
			a = cblk_fetch_a32(t, a, to - from);
			a -= 4; /* the last instruction */
			for (uint32_t i = from; i < to && t->itstate; i++)
				t->itstate = thumb_it_advance(t->itstate);
		}
		unsigned sz = b->thumb ? b->isz[to - 1] : 4;
		t->insns += to - from;
		t->traced_insns += to - from;
		t->expect_pc = a + sz;
		t->last_pc = a;
		struct itrace_blk ib = rblk_itrace(b);
		int rc = itrace_write_blk(t->oracle, &ib, a0, from, to - 1 - from);
		if (rc)
			fail(t, CITCAT_ERR_IO, "writing the oracle trace: %s", citcat_itrace_writer_error(t->oracle)->msg);
		core_record_insn(&t->cur, a, b->word[to - 1], sz, b->thumb);
		t->cur_valid = 1;
		return;
	}
	if (b->thumb) {
		/* T16 and T32: retire as hook_code does, the ITSTATE included;
		 * an instruction of an IT block whose condition fails retires in
		 * its place too, as it_skipped retires it at the next boundary
		 * (it makes no access, so no data access lies between) */
		for (uint32_t i = from; i < to; i++) {
			if (t->cur_valid)
				flush_oracle(t);
			a = b->addr + b->off[i];
			/* the decoded word equals RAM's unless a store of this block
			 * execution wrote into the block (blk_code_written) */
			uint32_t w = t->blk_code_written ? thumb_word_at(t->ram + (a - t->ram_base), b->isz[i]) : b->word[i];
			retire(t, a, b->isz[i], w, 1);
		}
		return;
	}
	for (uint32_t i = from; i < to; i++, a += 4) {
		if (t->cur_valid)
			flush_oracle(t);
		retire(t, a, 4, thumb_word_at(t->ram + (a - t->ram_base), 4), 0);
	}
}

/* The next instruction of the current block, from BLK_NEXT, that makes a
 * memory access (rblk_next_accessor); -1: none.  The first memory
 * instruction found is taken here when it is unconditional (most are), with
 * no call and no CPSR read; a conditional one is left to
 * rblk_next_accessor, which reads the flags, or in a block with FSNAP to
 * rblk_next_accessor_fs, which decides each on the flags its FSRC names
 * (as the replayer's blk_attribute). */
static inline int cblk_next_accessor(struct target *t)
{
	const struct rblk *b = t->blk;
	if (!b)
		return -1;
	for (uint32_t i = t->blk_next; i < b->n; i++)
		if (b->nacc[i])
			return b->cond[i] == 14			? (int)i
			       : (b->fsnap & ~RBLK_FS_RELAXED) ? rblk_next_accessor_fs(b, i, t->uc, t->blk_fs_entry, t->blk_fs_snap)
							       : rblk_next_accessor(b, i, t->uc);
	return -1;
}

/* The calls the instruction retired last still has to make: BLK_ACC_LEFT,
 * or with a schedule the entries for it still ahead of the cursor. */
static uint32_t cblk_left(const struct target *t)
{
	return t->blk_acc_left + rblk_sched_owed(t->blk_pos, t->blk_end, t->blk_next);
}

/* B becomes the current block (NULL: none), its attribution starting. */
static inline void cblk_set(struct target *t, const struct rblk *b)
{
	t->blk = b;
	t->blk_next = 0;
	t->blk_acc_left = 0;
	t->blk_pos = t->blk_end = NULL;
	if (b && b->sched_ok && b->nacc_total) { /* no schedule: NULL, never NULL + 0 (UB) */
		t->blk_pos = b->sched;
		t->blk_end = b->sched + b->nacc_total;
	} else if (b && (b->fsnap & RBLK_FS_ENTRY)) {
		/* (a block with FSNAP has a conditional memory instruction, so no
		 * schedule) the flags at the block's start, for the conditional
		 * memory instructions decided on them (FSRC): the block hook runs
		 * in front of the block */
		uc_reg_read(t->uc, UC_ARM_REG_CPSR, &t->blk_fs_entry);
	}
}

/* A memory-hook call in the current block: it belongs to the instruction
 * retired last while that has calls left, else to the next accessor, and
 * every instruction up to that one retires first, so that its I-fetch comes
 * after the previous instruction's data accesses and before its own, as
 * with a code hook.  Returns 0 after an internal error (a call the decoded
 * block does not account for: never a guess).  When every memory
 * instruction of the block is unconditional (most blocks), the instruction
 * a call belongs to is the next entry of the block's schedule: one load
 * through the cursor held in the target, no scan (session 13); a call past
 * the schedule's end takes the scan below, which finds no accessor and
 * fails as before. */
static inline __attribute__((always_inline)) int cblk_attribute(struct target *t)
{
	if (t->blk_pos != t->blk_end) {
		uint32_t i = *t->blk_pos++;
		if (i >= t->blk_next) {
			cblk_retire_run(t, t->blk, t->blk_next, i + 1);
			t->blk_next = i + 1;
		}
		return 1;
	}
	if (t->blk_acc_left) {
		t->blk_acc_left--;
		return 1;
	}
	int i = cblk_next_accessor(t);
	if (i < 0) {
		fail(t, CITCAT_ERR_INTERNAL, "the block engine cannot account for a memory access in the block at 0x%08x",
		     t->blk ? t->blk->addr : 0);
		return 0;
	}
	/* the flags a later conditional one is decided on (FSRC): now, at the
	 * first access of I, before I and what follows run */
	if ((t->blk->fsnap & RBLK_FS_SNAP) && (t->blk->fsrc[i] & RBLK_FS_TAKE))
		uc_reg_read(t->uc, UC_ARM_REG_CPSR, &t->blk_fs_snap[i]);
	cblk_retire_run(t, t->blk, t->blk_next, (uint32_t)i + 1);
	t->blk_next = (uint32_t)i + 1;
	t->blk_acc_left = t->blk->nacc[i] - 1u;
	return 1;
}

/* The current block ran to its end: its remaining instructions retire. */
static inline __attribute__((always_inline)) void cblk_finish(struct target *t)
{
	const struct rblk *b = t->blk;
	if (!b)
		return;
	cblk_retire_run(t, b, t->blk_next, b->n);
	uint32_t left = cblk_left(t);
	cblk_set(t, NULL);
	if (left)
		fail(t, CITCAT_ERR_INTERNAL, "the block at 0x%08x made %u memory accesses fewer than decoded", b->addr,
		     left);
}

/* An access to nothing in block mode (hook_unmapped), or a device access
 * the block engine does not make in place (cblk_mmio_read,
 * cblk_mmio_write: before any side effect, the instruction abandoned with
 * its registers unwritten, tests/test_unicorn_block.c parts 9 and 14):
 * the instructions before it retire, and the run goes on per instruction
 * from it (cblk_switch), where the access reaches the device models as
 * with the insn engine.  A fetch from the window (UC_MEM_FETCH_PROT) ends
 * the block and goes on per instruction at the fetch, which faults there.
 * Returns 1 for those; 0 for an access outside the window, attributed
 * here, which hook_unmapped then reports as the insn engine does. */
static int cblk_unmapped(struct target *t, uc_mem_type type, uint32_t a)
{
	if (t->faulted || t->failed)
		return 0;
	int dev = a - t->cfg->target.dev_base < t->cfg->target.dev_size;
	if (type == UC_MEM_FETCH_UNMAPPED || type == UC_MEM_FETCH_PROT) {
		cblk_finish(t);
		if (!dev)
			return 0;
		/* the state the fetch is made in (a branch may have changed it) */
		uint32_t cpsr;
		uc_reg_read(t->uc, UC_ARM_REG_CPSR, &cpsr);
		t->blk_switch_pc = a | ((cpsr >> 5) & 1);
	} else if (!dev) {
		cblk_attribute(t);
		return 0;
	} else {
		if (cblk_left(t)) {
			/* the instruction made a RAM access already: re-running it
			 * per instruction would repeat that on the bus */
			fail(t, CITCAT_ERR_UNSUPPORTED,
			     "the instruction at 0x%08x accessed RAM and then the device window, which the block engine "
			     "does not take (capture with --engine insn)", t->last_pc);
			return 1;
		}
		int i = cblk_next_accessor(t);
		if (i < 0) {
			fail(t, CITCAT_ERR_INTERNAL, "the block engine cannot account for a device access in the block at 0x%08x",
			     t->blk ? t->blk->addr : 0);
			return 1;
		}
		cblk_retire_run(t, t->blk, t->blk_next, (uint32_t)i);
		t->blk_switch_pc = t->blk->thumb ? (t->blk->addr + t->blk->off[i]) | 1 : t->blk->addr + 4 * (uint32_t)i;
		cblk_set(t, NULL);
		t->blk_hold = 1; /* the block from it runs per instruction (hook_block) */
	}
	t->blk_want_switch = 1;
	return 1;
}

/* The most cycles block B can take (cblk_qualify's bound, without the
 * room for a change back). */
static uint64_t cblk_most(const struct target *t, const struct rblk *b)
{
	uint32_t sh = t->bus.iline_shift, lines = ((b->addr + b->size - 1) >> sh) - (b->addr >> sh) + 1;
	return b->n + (uint64_t)b->nacc_total * t->blk_pen_acc + (uint64_t)lines * t->blk_pen_line;
}

/* The most cycles from a device read made by an instruction inside an IT
 * block of B (IT_LOAD) to B's last instruction boundary L, where the insn
 * engine last looks at the device events inside B (hook_code: the events
 * due, then the instruction's fetch and cycle): the read's own penalty,
 * the other calls of the first such instruction (IT_FIRST), and for each
 * instruction after it but before L its cycle and calls, and the I-lines
 * they reach after the one IT_FIRST starts in.  A read by a later
 * instruction inside an IT block lies closer to L. */
static uint64_t cblk_it_tail_of(const struct target *t, const struct rblk *b)
{
	uint32_t f = b->it_first, l = b->n - 1, sh = t->bus.iline_shift;
	uint64_t pu = t->cfg->target.pen_uncached;
	if (b->it_tail_acc == RBLK_TAIL_MANY) /* more calls than counted: loud whenever a read is */
		return UINT64_MAX - 1;
	if (f >= l) /* no boundary after the read: the other calls bound it */
		return pu + (uint64_t)b->it_tail_acc * t->blk_pen_acc;
	uint32_t lines = ((b->addr + b->off[l] - 1) >> sh) - ((b->addr + b->off[f]) >> sh);
	return pu + (b->it_tail_insns - 1u) + (uint64_t)(b->it_tail_acc - b->nacc[l]) * t->blk_pen_acc +
	       (uint64_t)lines * t->blk_pen_line;
}

/* cblk_it_tail_of, worked out once a decode: the block's IT_MEMO holds it
 * plus one, or UINT32_MAX for UINT32_MAX - 1 or more (taken as that many
 * cycles and more: loud whenever a read is).  The slots are the cache's
 * own, writable memory (struct rblk, IT_MEMO). */
static inline uint64_t cblk_it_tail(const struct target *t, const struct rblk *b)
{
	uint32_t m = b->it_memo;
	if (!m) {
		uint64_t v = cblk_it_tail_of(t, b);
		m = v < UINT32_MAX - 1 ? (uint32_t)v + 1 : UINT32_MAX;
		((struct rblk *)b)->it_memo = m;
	}
	return m == UINT32_MAX ? UINT64_MAX - 1 : m - 1u;
}

/* The cycles a block must leave before the next event to be worth a
 * change from per instruction (cblk_qualify; the change back costs about
 * what CBLK_SWITCH_INSNS instructions run as blocks gain). */
#define CBLK_LEAVE_ROOM 80

/* Whether every I-line the block of SIZE bytes at A spans is in the
 * I-cache now: then none of its instruction fetches can miss.  While a
 * block runs without the code hook nothing but its own fetches touches the
 * I-cache (data accesses reach the D-cache only; DMA, which invalidates
 * I-lines, and a device access, which can invalidate the whole I-cache,
 * never happen inside it: DMA is a device event cblk_qualify keeps out of
 * the block, and a device access moves the run to per instruction at its
 * instruction, cblk_unmapped), and a hit evicts nothing under any
 * replacement policy. */
static int cblk_ilines_cached(const struct target *t, uint32_t a, uint32_t size)
{
	uint32_t sh = t->bus.iline_shift;
	for (uint32_t ln = a >> sh; ln <= (a + size - 1) >> sh; ln++)
		if (!cache_probe(&t->bus.ic, ln, NULL))
			return 0;
	return 1;
}

/* The block of SIZE bytes at A, about to run, when it can run without the
 * code hook: ITSTATE 0 in front of it, within RAM, decodable
 * (replay_block.h: no "precise" kind; in Thumb also no store inside an IT
 * block: a device store there does not stop Unicorn at once,
 * tests/test_unicorn_block.c part 13, so the instructions after it would
 * run without the code hook; a device load there traps and the run goes
 * on per instruction inside the IT block, cblk_it_resume), and nothing
 * that hook_code does at a boundary can be due at any of its boundaries:
 * no trace stop, start or checkpoint point pending, no interrupt request
 * or enabled interrupt line pending, no --max-insns, and the next device
 * event beyond the cycle the block can reach at most (below; until stop 45
 * every instruction at its worst I-fetch, TARGET.md "How near an event a
 * block runs").  NULL: it runs per instruction. */
static const struct rblk *cblk_qualify(struct target *t, uint32_t a, uint32_t size)
{
	int thumb = t->block_thumb;
	if (t->insns < t->blk_hold_until || t->itstate || !size || (size & (thumb ? 1 : 3)) ||
	    size > 4 * RBLK_MAX_INSNS)
		return NULL;
	if (t->stop_request | t->failed | t->faulted | t->stop_pending | t->sync_pending | t->ckpt_point_pending |
	    t->interrupt_pending)
		return NULL;
	if (t->intc_pending & t->intc_enable)
		return NULL;
	uint32_t n = thumb ? size / 2 : size / 4, off = a - t->ram_base; /* n: at most, in Thumb */
	if (t->cfg->max_insns && t->insns + n >= t->cfg->max_insns)
		return NULL;
	if (off >= t->ram_size || t->ram_size - off < size)
		return NULL;
	uint64_t hits = t->blk_cache->hits;
	const struct rblk *b = rblk_get_inline(t->blk_cache, a, size, thumb, t->ram + off);
	if (!b) {
		fail(t, CITCAT_ERR_NOMEM, "out of memory");
		return NULL;
	}
	if (t->blk_cache->hits == hits) /* decoded now */
		cblk_mark(t, a, size);
	/* one test for the three (most blocks have none): a block that runs
	 * per instruction (PRECISE), a store inside an IT block (rblk_get
	 * worked it out; TARGET.md "Memory instructions inside IT blocks"),
	 * or a load there while a device read by it could be loud, which an
	 * MMIO callback could not turn back (cblk_mmio_read) */
	if (b->gate) {
		if (b->gate & (RBLK_GATE_PRECISE | RBLK_GATE_IT_STORE))
			return NULL;
		if (t->loud_stale)
			cblk_loud_update(t);
		if (t->loud_min != UINT64_MAX && t->loud_min <= cblk_it_tail(t, b))
			return NULL;
	}
	n = b->n;
	if (t->next_event < t->bus.cycle)
		return NULL;
	uint64_t room = t->next_event - t->bus.cycle;
	/* far from the event (most blocks): what the bound below comes to at
	 * most, with at most 16 memory-hook calls an instruction (an LDM of 16
	 * registers) and one I-line more than instructions (Thumb) */
	if (room > n * t->blk_far_insn + t->blk_far_block)
		return b;
	/* the most cycles the block can take: one an instruction, each
	 * memory-hook call at its worst (BLK_PEN_ACC), and since the block
	 * runs sequentially each I-line it spans reaches the I-cache at most
	 * once (bus_ifetch: a fetch from the line fetched last changes
	 * nothing; a T32 instruction across two lines fetches each once), a
	 * fill after writing back the dirty D lines it overlaps
	 * (BLK_PEN_LINE), or none when all its lines are cached now
	 * (cblk_ilines_cached); leaving per instruction for a block also
	 * wants room for what the change back costs (CBLK_LEAVE_ROOM) */
	uint64_t most = n + (uint64_t)b->nacc_total * t->blk_pen_acc +
			(t->blk_precise && !t->blk_sim_in ? CBLK_LEAVE_ROOM : 0);
	uint32_t sh = t->bus.iline_shift, lines = ((a + size - 1) >> sh) - (a >> sh) + 1;
	if (most + lines * t->blk_pen_line < room)
		return b;
	if (most >= room || !cblk_ilines_cached(t, a, size))
		return NULL;
	return b;
}

/* What a change to per instruction and back costs, in instructions run
 * as blocks (cblk_switch; measured: TARGET.md "Two engines"). */
#define CBLK_SWITCH_INSNS 80
#define CBLK_WINDOW (1u << 15)
/* A simulated window ends early, from this many instructions on, once its
 * blocks paid twice over for its changes and one more (cblk_window) */
#define CBLK_SIM_EARLY 256

/* At the end of each window of CBLK_WINDOW instructions, whether its
 * blocks paid for its changes: a change costs two moves of the CPU state,
 * the restart of the run and the block it was for run per instruction,
 * about what CBLK_SWITCH_INSNS instructions gain as blocks.  When the
 * blocks ran fewer than that many per change (a device-polling loop:
 * counter), the next 2^20 instructions run per instruction, twice as many
 * each time it happens again (up to 2^30), so that such a run pays a
 * bounded number of bursts.  Under auto the window after a back-off, and
 * the first of the run, only simulate the blocks (cblk_sim): the run
 * changes engine only after a window whose blocks would have paid, so a
 * run that keeps changing never pays for the changes or for opening
 * engine 0.  A simulated window whose blocks clearly pay ends early
 * (CBLK_SIM_EARLY), so that a run whose blocks pay from the start runs
 * per instruction for a few hundred instructions, not a whole window
 * (TARGET.md "Simulated windows"). */
static void cblk_window(struct target *t)
{
	uint64_t w = t->insns - t->blk_win_start;
	if (w <= CBLK_WINDOW &&
	    (!t->blk_sim || w < CBLK_SIM_EARLY || t->blk_win_binsns < 2 * CBLK_SWITCH_INSNS * (t->blk_win_n + 1)))
		return;
	if (t->blk_win_binsns < CBLK_SWITCH_INSNS * t->blk_win_n) {
		t->blk_hold_until = t->insns + ((uint64_t)1 << (20 + t->blk_hold_n));
		if (t->blk_hold_n < 10)
			t->blk_hold_n++;
		t->blk_sim = t->cfg->engine == CITCAT_CAPTURE_ENGINE_AUTO;
		/* a simulated window starts when the hold ends; under --engine
		 * block the first change after it ends the window (a probe of
		 * one block, as before stop 50) */
		t->blk_win_start = t->blk_sim ? t->blk_hold_until : t->insns;
	} else {
		t->blk_sim = 0;
		t->blk_win_start = t->insns;
	}
	t->blk_sim_in = 0;
	t->blk_win_n = t->blk_win_binsns = 0;
}

/* A simulated window (cblk_window): B is the block about to run per
 * instruction, the one cblk_qualify let run without the code hook, or
 * NULL.  The simulated run enters blocks at a B and leaves them at a
 * NULL, which counts as a change; its blocks count their instructions.
 * Held (blk_hold_until), nothing is counted. */
static void cblk_sim(struct target *t, const struct rblk *b)
{
	if (t->insns < t->blk_hold_until)
		return;
	if (b) {
		t->blk_sim_in = 1;
		t->blk_win_binsns += b->n;
	} else if (t->blk_sim_in) {
		t->blk_sim_in = 0;
		t->blk_win_n++;
	}
	cblk_window(t);
}

static void hook_block(uc_engine *uc, uint64_t address, uint32_t size, void *ctx)
{
	struct target *t = ctx;
	if (t->blk && t->blk_keeps_state) {
		/* the block before ran without the code hook to here (a stop,
		 * trap or mode change in between clears BLK) and its last
		 * instruction cannot change the state: no CPSR read */
		t->block_thumb = (uint8_t)t->blk->thumb;
	} else {
		uint32_t cpsr;
		uc_reg_read(uc, UC_ARM_REG_CPSR, &cpsr);
		t->block_thumb = (uint8_t)((cpsr >> 5) & 1); /* as core.c's block hook */
	}
	if (t->failed | t->stop_request | t->faulted)
		return;
	if (!t->synced && !t->ended && (size == 2 || size == 4) && (uint32_t)address - t->ram_base < t->ram_size &&
	    t->ram_size - ((uint32_t)address - t->ram_base) >= size) {
		/* a block of one instruction before the trace start point: a spin? */
		uint32_t word = thumb_word_at(t->ram + ((uint32_t)address - t->ram_base), size), cpsr;
		uc_reg_read(uc, UC_ARM_REG_CPSR, &cpsr);
		if (target_spin_check(t, (uint32_t)address, word, size, t->block_thumb, (cpsr & ARM_CPSR_I) != 0, &a_wake))
			return;
	}
	if (!t->blk_precise) {
		cblk_finish(t);
		/* the progress callback at the first block after each 2^20
		 * instructions (hook_code calls it at the multiple itself) */
		if (t->cfg->progress && (t->insns >> 20) != t->blk_prog_mark) {
			t->blk_prog_mark = t->insns >> 20;
			if (t->cfg->progress(t->cfg->progress_ctx, t->insns))
				t->interrupt_pending = 1;
		}
		if (t->failed)
			return;
	}
	const struct rblk *b = t->blk_hold ? NULL : cblk_qualify(t, (uint32_t)address, size);
	t->blk_hold = 0;
	if (t->failed)
		return;
	if (t->blk_precise || !b)
		cblk_mark(t, (uint32_t)address, size);
	if (t->blk_sim) { /* auto: work out what blocks would do, run per instruction */
		cblk_sim(t, b);
		return;
	}
	if ((b != NULL) == t->blk_precise) {
		/* stop before the block runs (tests/test_unicorn_block.c) and
		 * change mode: cblk_switch */
		t->blk_want_switch = 1;
		t->blk_switch_pc = (uint32_t)address | t->block_thumb;
		uc_emu_stop(uc);
		return;
	}
	if (b) {
		cblk_set(t, b);
		t->blk_win_binsns += b->n;
		t->blk_keeps_state = b->keeps;
		t->blk_code_written = 0;
		t->blk_blocks++;
	}
}

/* The instruction a device access in the current block belongs to
 * (cblk_attribute's), and in *LEFT the calls the instruction retired last
 * still has to make. */
static int cblk_accessor_now(struct target *t, uint32_t *left)
{
	*left = cblk_left(t);
	return *left ? (int)t->blk_next - 1 : t->blk_pos != t->blk_end ? (int)*t->blk_pos : cblk_next_accessor(t);
}

/* Engine 0's device window (TARGET.md "Device reads in the block engine").
 * A read the device answers quietly (struct device's loud_reads: no
 * interrupt line pending and no device event within the block's bound,
 * cblk_most, and cblk_qualify let the block run only with the next event
 * beyond it), by an instruction that makes no other memory access (an LDR,
 * not an LDM), is attributed to its instruction, which retires those
 * before it and itself as the code hook would, and then made as the insn
 * engine makes it (mmio_read), in the middle of the block.  Any other
 * access turns the run back to per instruction from its instruction:
 * uc_emu_stop in an MMIO callback abandons the instruction, none of its
 * registers written (tests/test_unicorn_block.c part 14), and since the
 * read is its first access, nothing of it reached the bus or a device
 * (an LDM whose first read was made here could not go back).  Not inside
 * a Thumb IT block, where the instruction completes and the translation
 * block runs on: a block with a store there never runs here, one with a
 * load only while no read by such an instruction can be loud
 * (cblk_qualify, cblk_it_tail), and every read in it is made in place, a
 * read the device does not serve faulting as with the insn engine
 * (mmio_read; the run ends there, and nothing the rest of the translation
 * block does is recorded). */
static uint64_t cblk_mmio_read(uc_engine *uc, uint64_t off, unsigned size, void *ctx)
{
	struct target *t = ctx;
	uint32_t o = (uint32_t)off;
	const struct device *d = dev_of(t, o);
	int here = 0;
	if (!t->faulted && !t->failed && t->blk) {
		const struct rblk *b = t->blk;
		uint32_t left;
		int i = cblk_accessor_now(t, &left);
		if (i >= 0 && b->it_load && rblk_in_it(b, (uint32_t)i))
			here = 1; /* inside an IT block: cblk_qualify found no such read loud */
		else if (i >= 0 && !left && b->nacc[i] == 1 && size == 4 && !(o & 3) && d && d->read && d->readable &&
			 d->readable(o - d->base)) {
			uint64_t dl = 0, m = d->loud_reads ? d->loud_reads(t, &dl) : UINT64_MAX;
			here = !(m >> ((o - d->base) >> 2) & 1) || dl > cblk_most(t, b);
		}
	}
	if (here) {
		if (!cblk_attribute(t)) {
			uc_emu_stop(uc);
			return 0;
		}
		return mmio_read(uc, off, size, ctx);
	}
	if (t->faulted || t->failed || cblk_unmapped(t, UC_MEM_READ_UNMAPPED, t->cfg->target.dev_base + o))
		uc_emu_stop(uc);
	return 0;
}

/* A write the device declares quiet (struct device's quiet_writes), by an
 * instruction with one memory-hook call, is made in place as the insn
 * engine makes it (mmio_write), after its instruction is attributed; any
 * other turns the run back to per instruction from its instruction, as a
 * loud read does (cblk_mmio_read).  No store inside an IT block gets here:
 * a block with one never runs without the code hook (it_store). */
static void cblk_mmio_write(uc_engine *uc, uint64_t off, unsigned size, uint64_t value, void *ctx)
{
	struct target *t = ctx;
	uint32_t o = (uint32_t)off, left;
	const struct device *d = dev_of(t, o);
	if (!t->faulted && !t->failed && t->blk && size == 4 && !(o & 3) && d &&
	    (d->quiet_writes >> ((o - d->base) >> 2) & 1) && dev_writable(o)) {
		int i = cblk_accessor_now(t, &left);
		if (i >= 0 && !left && t->blk->nacc[i] == 1) {
			if (cblk_attribute(t))
				mmio_write(uc, off, size, value, ctx);
			else
				uc_emu_stop(uc);
			return;
		}
	}
	if (t->faulted || t->failed || cblk_unmapped(t, UC_MEM_WRITE_UNMAPPED, t->cfg->target.dev_base + o))
		uc_emu_stop(uc);
}

/* Opens engine 0, the one of blocks: the same RAM (ours, by pointer) and
 * hooks as engine 1 but no code hook, and the device window mapped with
 * its own callbacks (cblk_mmio_read, cblk_mmio_write: a device access is
 * made in place or turns back to per instruction; until stop 49 the
 * window was unmapped and every device access turned back). */
static uc_err cblk_open0(struct target *t)
{
	const struct citcat_target_config *c = &t->cfg->target;
	struct core_hooks h = {NULL, hook_mem, UC_HOOK_MEM_WRITE | UC_HOOK_MEM_READ_AFTER, hook_unmapped, hook_intr, NULL};
	uc_engine *uc = NULL;
	uc_hook bh;
	uc_err e = core_open(&uc, t->ram_base, t->ram_size, t->ram, c->dev_base, c->dev_size, cblk_mmio_read,
			     cblk_mmio_write, t);
	if (!e)
		e = core_add_hooks(uc, &h, t, t->ram_base, t->ram_size);
	if (!e)
		e = uc_hook_add(uc, &bh, UC_HOOK_BLOCK, hook_block, t, 1, 0);
	if (!e)
		e = uc_context_alloc(t->uc, &t->blk_ctx);
	if (e) {
		if (uc)
			uc_close(uc);
		return e;
	}
	t->blk_uc[0] = uc;
	t->blk_dirty[0] = t->blk_dirty[1] = (struct core_dirty){UINT32_MAX, 0};
	return UC_ERR_OK;
}

/* The run moves to engine K: the whole CPU state (uc_context_save and
 * _restore across two engines of one model: tests/test_unicorn_engines.c
 * part 7), after K dropped its translations of what was written into code
 * since it last ran (BLK_DIRTY). */
static uc_err cblk_move(struct target *t, int k)
{
	uc_err e = core_move(t->uc, t->blk_uc[k], t->blk_ctx, t->ram_base, &t->blk_dirty[k]);
	if (!e)
		t->uc = t->blk_uc[k];
	return e;
}

/* The run goes on per instruction inside an IT block, at the instruction
 * whose device access trapped (cblk_unmapped) or at a translation block
 * that starts inside one: the CPSR's IT bits get the IT state the model
 * retired to (ITSTATE), and the run started there executes the rest of the
 * IT block under it (tests/test_unicorn_cursor.c part 3).  Unicorn keeps
 * the IT state in its translated code, and what the moved context holds
 * of it after a trap is not what the instruction needs (TARGET.md "Memory
 * instructions inside IT blocks"). */
static uc_err cblk_it_resume(struct target *t)
{
	uint32_t cpsr, it = t->itstate;
	uc_err e = uc_reg_read(t->uc, UC_ARM_REG_CPSR, &cpsr);
	if (e)
		return e;
	cpsr = arm_psr_set_it(cpsr, (uint8_t)it);
	return uc_reg_write(t->uc, UC_ARM_REG_CPSR, &cpsr);
}

/* After uc_emu_start returned: the mode change a hook asked for, made by
 * moving the run to the other engine (TARGET.md "Two engines": each keeps
 * its translations; until stop 44 one engine changed mode, the code hook
 * and the device window in or out and every translation of RAM dropped).
 * The run goes on at the address the hook gave (the PC Unicorn reports is
 * stale there).  A run that keeps changing mode stays per instruction for
 * a while (blk_hold_until).  Returns 0, or an error code. */
static int cblk_switch(struct target *t, uint32_t *pc)
{
	t->blk_want_switch = 0;
	uc_err e;
	if (t->blk_precise) {
		e = t->blk_uc[0] ? UC_ERR_OK : cblk_open0(t);
		if (!e)
			e = cblk_move(t, 0);
		t->blk_precise = 0;
	} else {
		cblk_set(t, NULL);
		e = cblk_move(t, 1);
		if (!e && t->itstate)
			e = cblk_it_resume(t);
		t->blk_precise = 1;
		t->blk_switches++;
		t->blk_win_n++;
		cblk_window(t);
	}
	*pc = t->blk_switch_pc;
	if (e)
		return fail(t, CITCAT_ERR_UNICORN, "changing the capture engine's mode failed: %s", uc_strerror(e));
	return 0;
}

/* Unicorn stopped at an undefined instruction in block mode.  The PC is
 * the instruction's own (QEMU sets it before raising the exception): one
 * undefined when translated ends its translation block, one found
 * undefined only when it runs (a coprocessor register's access check: PMCR
 * read in User mode) can lie anywhere in it, its block's later instructions
 * not executed (tests/test_unicorn_block.c, part 10).  Either way the
 * block's instructions up to it retire, as the code hook would have
 * retired them (the instruction itself included: the code hook runs before
 * it), so the fault is the insn engine's.  It must be an instruction of the
 * block not yet retired, with no memory-hook call of its own expected.
 * Returns 0, or -1 after an internal error. */
static int cblk_undef(struct target *t, uint32_t pc)
{
	const struct rblk *b = t->blk;
	uint32_t k = UINT32_MAX;
	if (b && pc - b->addr < b->size) {
		if (!b->thumb)
			k = (pc - b->addr) & 3 ? UINT32_MAX : (pc - b->addr) / 4;
		else
			for (uint32_t i = 0; i < b->n; i++)
				if (b->off[i] == pc - b->addr)
					k = i;
	}
	if (k == UINT32_MAX || k < t->blk_next || cblk_left(t)) {
		fail(t, CITCAT_ERR_INTERNAL, "the block engine lost the undefined instruction at 0x%08x", pc);
		return -1;
	}
	cblk_retire_run(t, b, t->blk_next, k + 1);
	cblk_set(t, NULL);
	return 0;
}

/* Why the block engine does not take this run, or NULL when it does. */
static const char *cblk_refusal(const struct target *t)
{
	if (t->cfg->target.isa == CITCAT_TARGET_CORTEX_M7)
		return "a Cortex-M7 run (Thumb only: per instruction)";
	if (t->cfg->lvt_path)
		return "an LVT trace";
	if (t->cfg->daf_path)
		return "a DAF trace";
	if (t->cfg->checkpoint_every)
		return "segment checkpoints";
	return NULL;
}

/* ---- shared with the Cortex-M7 model (target_int.h) ---- */

void target_trace_stop(struct target *t, int reason) { trace_stop(t, reason); }
void target_fault(struct target *t, unsigned kind, uint32_t pc, uint32_t addr, const char *msg)
{
	fault(t, kind, pc, addr, "%s", msg);
}
void target_recompute_next(struct target *t) { recompute_next(t); }
void target_devices_advance(struct target *t, uint32_t pc) { devices_advance(t, pc); }
uint64_t target_next_wakeup(const struct target *t) { return next_wakeup(t); }
int target_retire(struct target *t, uint32_t a, unsigned size, uint32_t word, int thumb)
{
	return retire(t, a, size, word, thumb);
}
void target_oracle_access(struct target *t, uint32_t addr, unsigned size, int write, uint64_t value, int uncached)
{
	oracle_access(t, addr, size, write, value, uncached);
}
uint64_t target_mmio_read(uc_engine *uc, uint64_t off, unsigned size, void *ctx) { return mmio_read(uc, off, size, ctx); }
void target_mmio_write(uc_engine *uc, uint64_t off, unsigned size, uint64_t value, void *ctx)
{
	mmio_write(uc, off, size, value, ctx);
}

void citcat_capture_config_default(struct citcat_capture_config *c)
{
	if (!c)
		return;
	memset(c, 0, sizeof *c);
	c->size = sizeof *c;
	c->engine = CITCAT_CAPTURE_ENGINE_AUTO;
	citcat_target_config_default(&c->target);
}

static int open_input(struct target *t, const char *path, FILE **f, const char *what)
{
	if (!path)
		return 0;
	/* the input rules (common/input.h): "-" is standard input, read as a
	 * stream; a FIFO the user named is read as one */
	struct citcat_errinfo e;
	int fd, rc = cc_input_open_fd(path, CC_IN_STREAM_FD, &fd, &e);
	if (!rc && !(*f = fdopen(fd, "rb"))) {
		close(fd);
		rc = citcat_errinfo_set(&e, CITCAT_ERR_NOMEM, UINT64_MAX, "out of memory");
	}
	if (rc) { /* the input layer's "cannot open: REASON" said the capture's way */
		const char *why = strncmp(e.msg, "cannot open: ", 13) == 0 || strncmp(e.msg, "cannot read: ", 13) == 0 ? e.msg + 13 : e.msg;
		return citcat_errinfo_set(t->err, rc, UINT64_MAX, "%s: cannot open %s: %s", path, what, why);
	}
	return 0;
}

static int load_stop(void *ctx)
{
	const struct target *t = ctx;
	return t->cfg->progress && t->cfg->progress(t->cfg->progress_ctx, 0);
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int citcat_capture_run(const struct citcat_capture_config *cfg, const char *elf, const char *cat_path,
		       const char *oracle_path, struct citcat_capture_result *res, struct citcat_errinfo *err)
{
	return cc_capture_run_bench(cfg, NULL, elf, cat_path, oracle_path, res, err);
}

int cc_capture_run_bench(const struct citcat_capture_config *ucfg, const struct cc_capture_bench *bench,
			 const char *elf, const char *cat_path, const char *oracle_path,
			 struct citcat_capture_result *res, struct citcat_errinfo *err)
{
	struct citcat_errinfo dummy;
	int rc0 = cc_run_start(&err, &dummy, res, sizeof *res);
	if (rc0)
		return rc0;
	res->exit_code = -1;
	/* the caller's struct may be older or newer than ours (citcat/base.h) */
	struct citcat_capture_config cfgv;
	const struct citcat_capture_config *cfg = &cfgv;
	if (!elf || cc_config_from_user(&cfgv, sizeof cfgv, ucfg, offsetof(struct citcat_capture_config, target) +
						  sizeof cfgv.target))
		return citcat_errinfo_set(err, CITCAT_ERR_INVAL, UINT64_MAX,
					  "no firmware or a bad capture configuration");
	static const struct cc_capture_bench no_bench;
	if (!bench)
		bench = &no_bench;
	struct target *t = calloc(1, sizeof *t);
	if (!t)
		return CITCAT_ERR_NOMEM;
	t->cfg = cfg;
	t->bare = bench->bare;
	t->err = err;
	t->exit_code = -1;
	t->ram_base = cfg->target.ram_base;
	t->ram_size = cfg->target.ram_size;
	t->rng_dma = cfg->target.seed ^ 0x444d41u;
	t->rng_entropy = cfg->target.seed ^ 0x524e47u;
	int rc = 0;
	struct citcat_image *img = NULL;
	double t0 = now_s();

	/* nothing is allocated for the firmware before every segment has been
	 * checked against RAM (citcat_image_load_elf_limited) */
	if (!(t->ram = core_ram_alloc(t->ram_size))) {
		rc = CITCAT_ERR_NOMEM;
		goto out;
	}
	uint64_t entry;
	struct citcat_elf_limits lim = {.base = t->ram_base, .size = t->ram_size, .map_name = "RAM",
					.stop = load_stop, .stop_ctx = t};
	if ((rc = citcat_image_alloc(&img)) || (rc = citcat_image_load_elf_limited(img, elf, &lim, &entry, err))) {
		if (err->msg[0] == 0)
			snprintf(err->msg, sizeof err->msg, "%s", citcat_errstr(rc));
		goto out;
	}
	for (size_t i = 0; i < citcat_image_segments(img); i++) {
		uint64_t addr, len;
		const uint8_t *data;
		citcat_image_segment(img, i, &addr, &len, &data);
		if (addr < t->ram_base || addr + len > (uint64_t)t->ram_base + t->ram_size) {
			rc = fail(t, CITCAT_ERR_TARGET, "%s: segment at 0x%08llx (%llu bytes) lies outside RAM", elf,
				  (unsigned long long)addr, (unsigned long long)len);
			goto out;
		}
		memcpy(t->ram + (addr - t->ram_base), data, (size_t)len);
	}
	if ((rc = open_input(t, cfg->uart_in, &t->uart_in, "UART input")) ||
	    (rc = open_input(t, cfg->dma_in, &t->dma_in, "DMA input")) ||
	    (rc = open_input(t, cfg->entropy_in, &t->entropy_in, "entropy input")))
		goto out;
	t->uart_next = cfg->target.uart_rate;
	devices_init(t);
	if ((rc = target_m7_check(t, elf))) /* the profile the ELF was built for (TARGET-M7.md) */
		goto out;

	t->blk_precise = 1;
	if (cfg->engine > CITCAT_CAPTURE_ENGINE_AUTO) {
		rc = fail(t, CITCAT_ERR_INVAL, "unknown capture engine %u", cfg->engine);
		goto out;
	}
	if (cfg->engine != CITCAT_CAPTURE_ENGINE_INSN && !t->bare) {
		const char *why = cblk_refusal(t);
		if (why && cfg->engine == CITCAT_CAPTURE_ENGINE_BLOCK) {
			rc = fail(t, CITCAT_ERR_UNSUPPORTED,
				  "the block engine does not take this run: %s (the insn or auto engine does)", why);
			goto out;
		}
		t->blk_engine = !why;
		/* auto's first window is simulated (cblk_window) */
		t->blk_sim = t->blk_engine && cfg->engine == CITCAT_CAPTURE_ENGINE_AUTO;
	}
	if (t->blk_engine) {
		const struct citcat_target_config *tc = &cfg->target;
		if (!(t->blk_cache = malloc(sizeof *t->blk_cache)) || rblk_cache_init(t->blk_cache, 12)) {
			free(t->blk_cache);
			t->blk_cache = NULL;
			rc = fail(t, CITCAT_ERR_NOMEM, "out of memory");
			goto out;
		}
		/* the most cycles (bus.c) an I-line fetch adds: a fill after
		 * writing back every dirty D line it overlaps; one memory-hook
		 * call: two lines (unaligned), each a fill after a dirty
		 * eviction, or a write-through store */
		uint64_t dl = tc->dcache.line ? tc->dcache.line : 1;
		t->blk_pen_line = (uint64_t)tc->pen_miss + (tc->icache.line / dl + 1) * tc->pen_wb;
		t->blk_pen_acc = 2 * ((uint64_t)tc->pen_miss + tc->pen_wb);
		/* or a device read made in the block (cblk_mmio_read) */
		if (t->blk_pen_acc < tc->pen_uncached)
			t->blk_pen_acc = tc->pen_uncached;
		t->blk_far_insn = 1 + 16 * t->blk_pen_acc + t->blk_pen_line;
		t->blk_far_block = t->blk_pen_line + CBLK_LEAVE_ROOM;
	}

	/* the baseline (bare): the device window is plain memory */
	int m7 = cfg->target.isa == CITCAT_TARGET_CORTEX_M7;
	uc_err ue = m7 ? target_m7_open(t, t->bare)
		       : core_open(&t->uc, t->ram_base, t->ram_size, t->ram, cfg->target.dev_base, cfg->target.dev_size,
				   t->bare ? NULL : mmio_read, mmio_write, t);
	if (ue) {
		rc = fail(t, CITCAT_ERR_UNICORN, "Unicorn set-up failed: %s", uc_strerror(ue));
		goto out;
	}
	if (!t->bare) {
		struct bus_sink sink = {sink_event, t};
		if ((rc = bus_init(&t->bus, &cfg->target, t->ram, sink))) {
			fail(t, rc, "bad cache configuration");
			goto out;
		}
		t->bus.code_changed = core_code_changed;
		t->bus.code_ctx = t->uc;
		if (t->blk_engine) { /* two engines (cblk_switch): the bus reaches both */
			t->bus.code_changed = cblk_code_changed;
			t->bus.code_ctx = t;
		}
		if (cat_path && (rc = citcat_cat_writer_open_elf(&t->cat, cat_path, &cfg->target, elf))) {
			fail(t, rc, "%s: cannot create the CAT: %s", cat_path, rc == CITCAT_ERR_IO ? strerror(errno) : citcat_errstr(rc));
			goto out;
		}
		if (cfg->lvt_path && (rc = lvt_tm_open(&t->lvt, cfg->lvt_path, &cfg->target, cfg->lvt_gran_shift, elf,
						       &t->bus.dc, t->ram, bench->lvt_raw, bench->lvt_raw_ctx, err))) {
			t->failed = 1;
			goto out;
		}
		if (oracle_path && (rc = citcat_itrace_writer_open(&t->oracle, oracle_path,
									m7 ? CITCAT_ISA_ARMV7M : CITCAT_ISA_ARM_A32))) {
			fail(t, rc, "%s: cannot create the oracle trace: %s", oracle_path, rc == CITCAT_ERR_IO ? strerror(errno) : citcat_errstr(rc));
			goto out;
		}
		if (cfg->daf_path &&
		    (rc = citcat_daf_writer_open_isa(&t->daf, cfg->daf_path, cfg->daf_raw ? CITCAT_DAF_RAW : CITCAT_DAF_DIFF, m7))) {
			fail(t, rc, "%s", cc_writer_open_error()->msg);
			goto out;
		}
		struct core_hooks hooks = {hook_code, hook_mem,
					   UC_HOOK_MEM_WRITE | UC_HOOK_MEM_READ_AFTER, /* with or without an oracle: core.h */
					   hook_unmapped, hook_intr, m7 ? NULL : &t->block_thumb};
		if (t->blk_engine) /* the block hook keeps block_thumb itself; this engine
				    * (1) runs per instruction, with the window mapped,
				    * and engine 0 opens at the first block (cblk_switch) */
			hooks.block_thumb = NULL;
		ue = m7 ? target_m7_add_hooks(t, hooks) : core_add_hooks(t->uc, &hooks, t, t->ram_base, t->ram_size);
		uc_hook bh;
		if (!ue && t->blk_engine)
			ue = uc_hook_add(t->uc, &bh, UC_HOOK_BLOCK, hook_block, t, 1, 0);
		if (t->blk_engine) {
			t->blk_uc[1] = t->uc;
			if (!(t->blk_cgran = calloc(1, t->ram_size / 64 / 8 + 1))) {
				rc = fail(t, CITCAT_ERR_NOMEM, "out of memory");
				goto out;
			}
		}
		if (ue) {
			rc = fail(t, CITCAT_ERR_UNICORN, "Unicorn hook set-up failed: %s", uc_strerror(ue));
			goto out;
		}
	}
	uint32_t pc = (uint32_t)entry;
	if (m7 && (rc = target_m7_reset(t, &pc))) /* the M7 starts from its vector table */
		goto out;
	if ((rc = ckpt_config(t)))
		goto out;
	recompute_next(t);
	double t_run = now_s();
	while (!t->failed && !t->stop_request) {
		if (t->bare) {
			/* Baseline for benchmarks: the same image on plain Unicorn for
			 * MAX_INSNS instructions, with no hooks, caches or devices
			 * (device registers read as memory, so the firmware's path
			 * differs after its first device access).  Unicorn counts with
			 * an internal per-instruction hook, which costs about 10%. */
			ue = uc_emu_start(t->uc, pc, CORE_UNTIL, 0, cfg->max_insns);
			t->stop_request = 1;
			t->insns = cfg->max_insns;
			if (ue)
				rc = fail(t, CITCAT_ERR_UNICORN, "bare run stopped early: %s", uc_strerror(ue));
			break;
		}
		ue = uc_emu_start(t->uc, pc, CORE_UNTIL, 0, 0);
		if (t->blk_engine && !t->blk_precise && !t->failed && !t->faulted && !t->stop_request &&
		    !t->blk_want_switch) {
			/* the block running when Unicorn stopped by itself */
			if (ue == UC_ERR_INSN_INVALID) {
				uint32_t upc;
				uc_reg_read(t->uc, UC_ARM_REG_PC, &upc);
				cblk_undef(t, upc);
			} else {
				cblk_finish(t);
			}
		}
		if (t->failed || t->faulted)
			break;
		if (t->blk_want_switch && !t->stop_request) {
			if (cblk_switch(t, &pc))
				break;
			continue;
		}
		if (m7 && ue && target_m7_resume(t)) { /* a BusFault taken (target_m7.c) */
			pc = target_m7_resume_pc(t);
			continue;
		}
		if (ue == UC_ERR_INSN_INVALID) { /* Unicorn stops at an undefined instruction itself */
			uc_reg_read(t->uc, UC_ARM_REG_PC, &pc);
			fault(t, CITCAT_FAULT_UNDEF, pc, 0, "undefined instruction at pc 0x%08x", pc);
			break;
		}
		if (ue) {
			uc_reg_read(t->uc, UC_ARM_REG_PC, &pc);
			rc = fail(t, CITCAT_ERR_UNICORN, "emulation stopped at pc 0x%08x: %s", pc, uc_strerror(ue));
			break;
		}
		pc = m7 ? target_m7_resume_pc(t) : thumb_resume_pc(t->uc);
		/* Unicorn ends a run, with no error and no code hook, when the PC
		 * reaches the until address; restarting there would loop forever
		 * and never see the stop flag (found by fuzz_replay, then fuzz_elf).
		 * The address lies above any RAM, so the core would fetch from
		 * nothing: the bus error of hook_unmapped. */
		if ((pc & ~1u) == CORE_UNTIL) {
			pc &= ~1u;
			if (t->synced && pc != t->expect_pc && !t->after_exception)
				t->bcount++; /* as hook_unmapped for a fetch */
			fault(t, CITCAT_FAULT_FETCH, pc, pc, "bus error: instruction fetch of unmapped address 0x%08x", pc);
			break;
		}
	}
	if (bench->run_seconds)
		*bench->run_seconds = now_s() - t_run;
	if (t->failed) {
		rc = err->code;
		goto out;
	}
	if (!t->bare) {
		trace_stop(t, t->stop_reason);
		res->traced = t->ended;
	}
	res->exit_code = t->exit_code;
	res->stop = t->stop_reason;
	res->fault_kind = t->fault_kind;
	res->fault_pc = t->fault_pc;
	res->fault_addr = t->fault_addr;
	res->has_m7_fault = t->has_m7_fault;
	res->m7_fault = t->m7_fault;
	res->stop_pc = t->stop_pc;
	memcpy(res->stop_detail, t->stop_detail, sizeof res->stop_detail);
	res->insns = t->insns;
	res->traced_insns = t->traced_insns;
	res->cycles = t->bus.cycle;
	res->blk_blocks = t->blk_blocks;
	res->blk_free_at_stop = t->blk_engine && t->insns >= t->blk_hold_until && !t->blk_hold && !t->blk_sim;
	if (t->lvt) {
		rc = lvt_tm_close(t->lvt, &res->lvt, &res->lvt_bytes, err);
		t->lvt = NULL;
		if (rc) {
			t->failed = 1;
			goto out;
		}
	}
	if (t->cat) {
		rc = citcat_cat_writer_close(t->cat);
		t->cat = NULL;
		if (rc) {
			fail(t, rc, "%s: writing the CAT failed: %s", cat_path, rc == CITCAT_ERR_IO ? strerror(errno) : citcat_errstr(rc));
			goto out;
		}
		struct stat st;
		if (strcmp(cat_path, "-") != 0 && stat(cat_path, &st) == 0)
			res->cat_bytes = (uint64_t)st.st_size;
	}
	if (t->oracle) {
		rc = citcat_itrace_writer_close(t->oracle);
		t->oracle = NULL;
		if (rc) {
			fail(t, rc, "%s: writing the oracle trace failed: %s", oracle_path, rc == CITCAT_ERR_IO ? strerror(errno) : citcat_errstr(rc));
			goto out;
		}
	}
	if (t->daf) {
		struct citcat_errinfo de = *citcat_daf_writer_error(t->daf); /* an earlier write's failure */
		rc = citcat_daf_writer_close(t->daf);
		t->daf = NULL;
		if (rc) {
			fail(t, rc, "%s", de.code && de.msg[0] ? de.msg : cc_writer_open_error()->msg);
			goto out;
		}
	}
out:
	res->seconds = now_s() - t0;
	for (int k = 0; k < CITCAT_CAT_KINDS; k++)
		res->events[k] = t->rec_counts[k];
	citcat_cat_writer_abort(t->cat);
	citcat_itrace_writer_abort(t->oracle);
	lvt_tm_abort(t->lvt);
	citcat_daf_writer_abort(t->daf);
	if (t->bus.ic.tag)
		bus_fini(&t->bus);
	if (t->blk_uc[0]) /* the engine not running */
		uc_close(t->uc == t->blk_uc[0] ? t->blk_uc[1] : t->blk_uc[0]);
	if (t->uc)
		uc_close(t->uc);
	if (t->blk_ctx)
		uc_context_free(t->blk_ctx);
	free(t->blk_cgran);
	target_m7_free(t);
	if (t->uart_in)
		fclose(t->uart_in);
	if (t->dma_in)
		fclose(t->dma_in);
	if (t->entropy_in)
		fclose(t->entropy_in);
	citcat_image_free(img);
	if (t->blk_cache) {
		rblk_cache_fini(t->blk_cache);
		free(t->blk_cache);
	}
	core_ram_free(t->ram, t->ram_size);
	free(t);
	return rc;
}
