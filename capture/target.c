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
 *  - WFI makes uc_emu_start return, so WFI is modelled in the code hook;
 *  - Unicorn does not take IRQs itself: arm_take_irq does the entry. */
#include "armcore.h"
#include "bus.h"
#include "capture.h"
#include "daf.h"
#include "image.h"
#include "itrace.h"
#include "lvt_tm.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unicorn/unicorn.h>

#define TRC_START 0x54524331u
#define TRC_STOP 0x53544F50u
#define INSN_WFI 0x0320F003u

enum { DEV_SYS = 0x000, DEV_CACHE = 0x100, DEV_INTC = 0x200, DEV_TIMER = 0x300, DEV_UART = 0x400,
       DEV_DMA = 0x500, DEV_CYCLES = 0x600, DEV_ENTROPY = 0x700, DEV_TRACE = 0xF00 };

struct target {
	uc_engine *uc;
	const struct citcat_capture_config *cfg;
	struct bus bus;
	uint8_t *ram;
	uint32_t ram_base, ram_size;

	/* trace module */
	struct citcat_cat_writer *cat;
	struct citcat_itrace_writer *oracle;
	struct lvt_tm *lvt; /* first-access load-value mode (LVT.md), or NULL */
	struct citcat_daf_writer *daf; /* DAF mode (formats/DAF.md): fed like the oracle */
	int recording, synced, sync_pending, stop_pending, ended;
	uint64_t bcount, traced_insns;
	uint32_t expect_pc; /* address + 4 of the last retired instruction */
	int after_exception;

	/* core */
	uint64_t insns;
	int stop_request, exit_code, stop_reason;
	struct citcat_itrace_rec cur;
	int cur_valid;

	/* devices */
	uint32_t intc_pending, intc_enable;
	uint32_t timer_period, timer_on, timer_ticks;
	uint64_t timer_next;
	FILE *uart_in;
	int uart_rx_avail, uart_rx_eof, uart_irq;
	uint8_t uart_rx_byte;
	uint64_t uart_next;
	FILE *dma_in, *entropy_in;
	uint32_t dma_dst, dma_len, dma_count, dma_status, dma_irq;
	uint64_t dma_next;
	uint32_t cycles_hi_latch, scratch;
	uint64_t rec_counts[CITCAT_CAT_KINDS]; /* events recorded in the CAT */
	uint64_t rng_dma, rng_entropy;
	uint64_t next_event;

	struct citcat_errinfo *err;
	int failed;
};

static int fail(struct target *t, int code, const char *fmt, ...)
{
	if (t->failed)
		return t->err->code;
	va_list ap;
	va_start(ap, fmt);
	t->err->code = code;
	t->err->offset = UINT64_MAX;
	vsnprintf(t->err->msg, sizeof t->err->msg, fmt, ap);
	va_end(ap);
	t->failed = 1;
	if (t->uc) /* failures before the engine exists (loading) stop nothing */
		uc_emu_stop(t->uc);
	return code;
}

static uint64_t splitmix(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* ---- trace module ---- */

static void sink_event(void *ctx, const struct citcat_cat_event *ev)
{
	struct target *t = ctx;
	if (!t->recording)
		return;
	t->rec_counts[ev->kind]++;
	if (!t->cat)
		return;
	if (citcat_cat_write(t->cat, ev))
		fail(t, citcat_cat_writer_error(t->cat)->code, "writing the CAT: %s", citcat_cat_writer_error(t->cat)->msg);
}

static void flush_oracle(struct target *t)
{
	if (t->cur_valid && t->daf && citcat_daf_write(t->daf, t->cur.pc, t->cur.word, t->cur.acc, t->cur.n_acc))
		fail(t, citcat_daf_writer_error(t->daf)->code, "DAF trace: %s", citcat_daf_writer_error(t->daf)->msg);
	if (t->cur_valid && t->oracle && citcat_itrace_write(t->oracle, &t->cur))
		fail(t, CITCAT_ERR_IO, "writing the oracle trace: %s", citcat_itrace_writer_error(t->oracle)->msg);
	t->cur_valid = 0;
}

static void trace_stop(struct target *t, int reason)
{
	if (!t->recording)
		return;
	flush_oracle(t);
	if (t->lvt && t->synced)
		lvt_tm_stop(t->lvt, (unsigned)reason, t->traced_insns, t->bcount);
	struct citcat_cat_event ev = {.kind = CITCAT_CAT_STOP, .line = (uint8_t)reason, .insns = t->traced_insns,
				      .bcount = t->bcount};
	bus_marker(&t->bus, &ev);
	t->recording = 0;
	t->ended = 1;
	t->synced = 0;
}

/* A DMA transfer may overwrite code Unicorn has translated: drop any
 * translation of the range.  Done for every transfer: it is cheap where no
 * code lies (about 4% on the DMA-heaviest example), and tracking "pages with
 * code" per instruction missed blocks translated but pre-empted by an
 * interrupt before their first instruction ran. */
static void code_changed(void *ctx, uint32_t addr, uint32_t len)
{
	struct target *t = ctx;
	uc_ctl_remove_cache(t->uc, addr, addr + len);
}

/* ---- devices ---- */

static void recompute_next(struct target *t)
{
	uint64_t n = UINT64_MAX;
	if (t->timer_on && t->timer_period && t->timer_next < n)
		n = t->timer_next;
	if ((t->dma_status & 1) && t->dma_next < n)
		n = t->dma_next;
	if (t->uart_in && !t->uart_rx_avail && !t->uart_rx_eof && t->uart_next < n)
		n = t->uart_next;
	t->next_event = n;
}

static void dma_burst(struct target *t, uint32_t pc)
{
	const struct citcat_target_config *c = &t->cfg->target;
	uint32_t left = t->dma_len - t->dma_count, addr = t->dma_dst + t->dma_count;
	uint32_t to_line = c->dcache.line - (addr & (c->dcache.line - 1));
	uint32_t n = c->dma_burst < left ? c->dma_burst : left;
	if (n > to_line)
		n = to_line;
	uint8_t buf[256];
	if (t->dma_in) {
		n = (uint32_t)fread(buf, 1, n, t->dma_in);
	} else {
		for (uint32_t i = 0; i < n; i += 8) {
			uint64_t v = splitmix(&t->rng_dma);
			memcpy(buf + i, &v, n - i < 8 ? n - i : 8);
		}
	}
	if (n) {
		if (addr < t->ram_base || (uint64_t)addr + n > (uint64_t)t->ram_base + t->ram_size) {
			fail(t, CITCAT_ERR_TARGET, "DMA destination 0x%08x is outside RAM", addr);
			return;
		}
		bus_dma(&t->bus, addr, buf, n, t->bcount, pc);
		if (t->oracle && t->synced) {
			/* after the instruction before this boundary (a WFI still open while asleep) */
			flush_oracle(t);
			struct citcat_itrace_rec dma = {.kind = CITCAT_REC_DMA, .pc = addr, .word = n};
			if (citcat_itrace_write(t->oracle, &dma))
				fail(t, CITCAT_ERR_IO, "writing the oracle trace");
		}
		if (t->lvt && t->synced)
			lvt_tm_dma(t->lvt, addr, n, t->bcount, pc);
		t->dma_count += n;
	}
	if (n == 0 || t->dma_count == t->dma_len) {
		t->dma_status = 2 | (n == 0 ? 4 : 0);
		if (t->dma_irq)
			t->intc_pending |= 1u << 2;
	} else {
		t->dma_next += c->dma_interval;
	}
}

static void uart_arrive(struct target *t)
{
	int ch = fgetc(t->uart_in);
	if (ch == EOF) {
		t->uart_rx_eof = 1;
		return;
	}
	t->uart_rx_byte = (uint8_t)ch;
	t->uart_rx_avail = 1;
	if (t->uart_irq)
		t->intc_pending |= 1u << 1;
}

/* Runs every device event due at or before the current cycle, in time order. */
static void devices_advance(struct target *t, uint32_t pc)
{
	uint64_t now = t->bus.cycle;
	while (!t->failed) {
		recompute_next(t);
		if (t->next_event > now)
			return;
		uint64_t at = t->next_event;
		if (t->timer_on && t->timer_period && t->timer_next == at) {
			/* every tick due by now at once: a tick only counts and sets
			 * line 0, which commutes with the other devices' events, so
			 * the state is the same as ticking one by one (and a long
			 * sleep costs one step per wake-up source, not per tick) */
			uint64_t k = (now - t->timer_next) / t->timer_period + 1;
			t->timer_ticks += (uint32_t)k;
			t->intc_pending |= 1u;
			t->timer_next += k * t->timer_period;
		} else if ((t->dma_status & 1) && t->dma_next == at) {
			dma_burst(t, pc);
		} else {
			uart_arrive(t);
		}
	}
}

static uint32_t dev_read(struct target *t, uint32_t off)
{
	const struct citcat_target_config *c = &t->cfg->target;
	switch (off) {
	case DEV_SYS + 0x04: return t->scratch;
	case DEV_SYS + 0x08: return 0xC17CA701u;
	case DEV_INTC + 0x00: return t->intc_pending;
	case DEV_INTC + 0x04: return t->intc_enable;
	case DEV_INTC + 0x0C: {
		uint32_t m = t->intc_pending & t->intc_enable;
		for (uint32_t i = 0; i < 32; i++)
			if (m & (1u << i))
				return i;
		return 0xFFFFFFFFu;
	}
	case DEV_TIMER + 0x00: return t->timer_period;
	case DEV_TIMER + 0x04: return t->timer_on;
	case DEV_TIMER + 0x08:
		return t->timer_on && t->timer_period ? (uint32_t)(t->timer_next - t->bus.cycle) : 0;
	case DEV_TIMER + 0x0C: return t->timer_ticks;
	case DEV_UART + 0x00:
		if (!t->uart_rx_avail)
			return 0;
		t->uart_rx_avail = 0;
		t->uart_next = t->bus.cycle + c->uart_rate;
		return t->uart_rx_byte;
	case DEV_UART + 0x04:
		return (uint32_t)t->uart_rx_avail | 2u | (t->uart_in && t->uart_rx_eof && !t->uart_rx_avail ? 4u : 0u) |
		       (!t->uart_in ? 4u : 0u);
	case DEV_UART + 0x08: return t->uart_irq;
	case DEV_DMA + 0x00: return t->dma_dst;
	case DEV_DMA + 0x04: return t->dma_len;
	case DEV_DMA + 0x0C: return t->dma_status;
	case DEV_DMA + 0x10: return t->dma_count;
	case DEV_CYCLES + 0x00:
		t->cycles_hi_latch = (uint32_t)(t->bus.cycle >> 32);
		return (uint32_t)t->bus.cycle;
	case DEV_CYCLES + 0x04: return t->cycles_hi_latch;
	case DEV_ENTROPY + 0x00:
		if (t->entropy_in) {
			uint8_t b[4] = {0, 0, 0, 0};
			if (fread(b, 1, 4, t->entropy_in) == 0) {
				rewind(t->entropy_in);
				if (fread(b, 1, 4, t->entropy_in) == 0)
					return 0;
			}
			return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
		}
		return (uint32_t)splitmix(&t->rng_entropy);
	case DEV_ENTROPY + 0x04: {
		/* a slow triangle wave plus a little seeded noise, 12 bits */
		uint64_t ph = (t->bus.cycle >> 12) + (c->seed & 0xfff);
		uint32_t tri = (uint32_t)(ph % 2048);
		tri = tri < 1024 ? tri : 2047 - tri;
		return (1500 + tri + (uint32_t)((ph * 2654435761u) >> 29)) & 0xfff;
	}
	}
	fail(t, CITCAT_ERR_TARGET, "bus error: read of unassigned device register 0x%08x", c->dev_base + off);
	return 0;
}

static void dev_write(struct target *t, uint32_t off, uint32_t v)
{
	const struct citcat_target_config *c = &t->cfg->target;
	switch (off) {
	case DEV_SYS + 0x00:
		t->exit_code = (int)v;
		t->stop_pending = 1;
		t->stop_reason = CITCAT_STOP_EXIT;
		return;
	case DEV_SYS + 0x04: t->scratch = v; return;
	case DEV_CACHE + 0x00:
		if (t->recording && !t->synced)
			t->sync_pending = 1; /* trace start point: after this store */
		return;
	case DEV_CACHE + 0x04: case DEV_CACHE + 0x08: case DEV_CACHE + 0x0C: return; /* done by the bus */
	case DEV_INTC + 0x04: t->intc_enable = v; return;
	case DEV_INTC + 0x08: t->intc_pending &= ~v; return;
	case DEV_INTC + 0x10: t->intc_pending |= v; return;
	case DEV_TIMER + 0x00: t->timer_period = v; t->timer_next = t->bus.cycle + v; return;
	case DEV_TIMER + 0x04:
		if ((v & 1) && !t->timer_on)
			t->timer_next = t->bus.cycle + t->timer_period;
		t->timer_on = v & 1;
		return;
	case DEV_UART + 0x00:
		if (t->cfg->uart_tx)
			t->cfg->uart_tx(t->cfg->uart_ctx, (uint8_t)v);
		return;
	case DEV_UART + 0x08: t->uart_irq = v & 1; return;
	case DEV_DMA + 0x00: t->dma_dst = v; return;
	case DEV_DMA + 0x04: t->dma_len = v; return;
	case DEV_DMA + 0x08:
		t->dma_irq = (v >> 1) & 1;
		if ((v & 1) && !(t->dma_status & 1)) {
			t->dma_count = 0;
			t->dma_status = t->dma_len ? 1 : 2;
			t->dma_next = t->bus.cycle + c->dma_interval;
			if (!t->dma_len && t->dma_irq)
				t->intc_pending |= 1u << 2;
		}
		return;
	case DEV_TRACE + 0x00:
		if (v == TRC_START && !t->recording && !t->ended) {
			t->recording = 1;
			struct citcat_cat_event ev = {.kind = CITCAT_CAT_START};
			bus_marker(&t->bus, &ev);
		} else if (v == TRC_STOP && t->recording) {
			t->stop_pending = 1;
			t->stop_reason = CITCAT_STOP_COMMAND;
		}
		return;
	}
	if (off >= DEV_TRACE + 0x40 && off <= DEV_TRACE + 0xFC)
		return; /* register dump slots: recorded as uncached writes */
	fail(t, CITCAT_ERR_TARGET, "bus error: write of unassigned device register 0x%08x", c->dev_base + off);
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
	struct citcat_access *a = &t->cur.acc[t->cur.n_acc++];
	a->addr = addr;
	a->size = (uint8_t)size;
	a->write = (uint8_t)write;
	a->value = value;
	a->uncached = (uint8_t)uncached;
}

static uint64_t mmio_read(uc_engine *uc, uint64_t off, unsigned size, void *ctx)
{
	struct target *t = ctx;
	if (size != 4 || (off & 3)) {
		fail(t, CITCAT_ERR_TARGET, "bus error: %u-byte read of device register 0x%08x", size,
		     t->cfg->target.dev_base + (uint32_t)off);
		return 0;
	}
	uint32_t v = dev_read(t, (uint32_t)off);
	uint32_t addr = t->cfg->target.dev_base + (uint32_t)off;
	bus_uncached(&t->bus, addr, 4, 0, v);
	if (t->lvt && t->synced)
		lvt_tm_uread(t->lvt, v);
	oracle_access(t, addr, 4, 0, v, 1);
	recompute_next(t); /* a read can schedule device work (UART RX) */
	return v;
}

static void mmio_write(uc_engine *uc, uint64_t off, unsigned size, uint64_t value, void *ctx)
{
	struct target *t = ctx;
	uint32_t addr = t->cfg->target.dev_base + (uint32_t)off;
	if (size != 4 || (off & 3)) {
		fail(t, CITCAT_ERR_TARGET, "bus error: %u-byte write of device register 0x%08x", size, addr);
		return;
	}
	bus_uncached(&t->bus, addr, 4, 1, (uint32_t)value);
	if (t->lvt && t->synced)
		lvt_tm_uwrite(t->lvt, (uint32_t)off, (uint32_t)value);
	oracle_access(t, addr, 4, 1, (uint32_t)value, 1);
	dev_write(t, (uint32_t)off, (uint32_t)value);
	recompute_next(t);
}

/* ---- core hooks ---- */

static void hook_mem(uc_engine *uc, uc_mem_type type, uint64_t addr, int size, int64_t value, void *ctx)
{
	struct target *t = ctx;
	int w = type == UC_MEM_WRITE;
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
	uint32_t pc;
	uc_reg_read(uc, UC_ARM_REG_PC, &pc);
	fail(t, CITCAT_ERR_TARGET, "bus error: %s of unmapped address 0x%08llx (near pc 0x%08x)",
	     type == UC_MEM_FETCH_UNMAPPED ? "instruction fetch" : type == UC_MEM_WRITE_UNMAPPED ? "write" : "read",
	     (unsigned long long)addr, pc);
	return false;
}

static void hook_intr(uc_engine *uc, uint32_t intno, void *ctx)
{
	struct target *t = ctx;
	uint32_t pc;
	uc_reg_read(uc, UC_ARM_REG_PC, &pc);
	fail(t, CITCAT_ERR_TARGET, "unsupported exception %u (SVC, undefined instruction or abort) near pc 0x%08x", intno, pc);
}

static void take_sync(struct target *t, uint32_t pc)
{
	t->sync_pending = 0;
	t->synced = 1;
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
 * sleeping core (enabling a line takes an instruction).  The timer raises
 * line 0 at every tick, the UART line 1 when a byte arrives with its RX
 * interrupt on, the DMA line 2 when the transfer ends with its interrupt
 * on (and a transfer always ends: its length is finite, and the input
 * stream's end or a destination outside RAM end it early). */
static uint64_t next_wakeup(const struct target *t)
{
	uint64_t n = UINT64_MAX;
	if ((t->intc_enable & 1u) && t->timer_on && t->timer_period && t->timer_next < n)
		n = t->timer_next;
	if ((t->intc_enable & 4u) && t->dma_irq && (t->dma_status & 1) && t->dma_next < n)
		n = t->dma_next;
	if ((t->intc_enable & 2u) && t->uart_irq && t->uart_in && !t->uart_rx_avail && !t->uart_rx_eof &&
	    t->uart_next < n)
		n = t->uart_next;
	return n;
}

/* Sleeps until an enabled interrupt line is pending.  Each step runs the
 * device events due at the next event that could wake the core, or at the
 * next DMA burst before it (bursts move data, and the last one may raise
 * the DMA line); timer ticks in between are batched by devices_advance.  A
 * sleep retires no instructions, so it does not count against --max-insns
 * (checked again at the next instruction); it ends by itself, since it is
 * only entered when a wake-up is certain, and it polls the progress
 * callback so a signal stops it. */
static int wfi_sleep(struct target *t, uint32_t pc)
{
	for (uint64_t steps = 1; !(t->intc_pending & t->intc_enable); steps++) {
		recompute_next(t);
		uint64_t wake = next_wakeup(t), at = wake;
		if (wake == UINT64_MAX)
			return fail(t, CITCAT_ERR_TARGET,
				    "WFI at 0x%08x can never wake: no enabled interrupt line has a source that can raise it "
				    "(lines enabled 0x%x; timer %s, DMA %s, UART input %s)",
				    pc, t->intc_enable, t->timer_on && t->timer_period ? "running" : "stopped",
				    t->dma_status & 1 ? (t->dma_irq ? "active" : "active without interrupt") : "idle",
				    !t->uart_in || t->uart_rx_eof ? "none left" : t->uart_irq ? "pending" : "without interrupt");
		if ((t->dma_status & 1) && t->dma_next < at)
			at = t->dma_next;
		if (at > t->bus.cycle)
			t->bus.cycle = at;
		devices_advance(t, pc + 4);
		if (t->failed)
			return -1;
		if ((steps & 0xffff) == 0 && t->cfg->progress && t->cfg->progress(t->cfg->progress_ctx, t->insns))
			return fail(t, CITCAT_ERR_INTERRUPTED, "interrupted after %llu instructions, asleep in WFI at 0x%08x",
				    (unsigned long long)t->insns, pc);
	}
	return 0;
}

static void hook_code(uc_engine *uc, uint64_t address, uint32_t size, void *ctx)
{
	struct target *t = ctx;
	uint32_t a = (uint32_t)address;

	/* The previous instruction has retired: close its oracle record and
	 * apply the branch-counter rule (TARGET.md) to where execution went. */
	if (t->cur_valid)
		flush_oracle(t);
	if (t->synced) {
		if (a != t->expect_pc && !t->after_exception)
			t->bcount++;
	}
	t->after_exception = 0;
	if (t->stop_pending) {
		t->stop_pending = 0;
		trace_stop(t, t->stop_reason);
		if (t->stop_reason == CITCAT_STOP_EXIT) {
			t->stop_request = 1;
			uc_emu_stop(uc);
			return;
		}
	}
	if (t->sync_pending)
		take_sync(t, a);
	if (t->cfg->max_insns && t->insns >= t->cfg->max_insns) {
		trace_stop(t, CITCAT_STOP_LIMIT);
		t->stop_reason = CITCAT_STOP_LIMIT;
		t->stop_request = 1;
		uc_emu_stop(uc);
		return;
	}
	if (t->bus.cycle >= t->next_event)
		devices_advance(t, a);
	if (t->intc_pending & t->intc_enable) {
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
	if (size != 4 || a - t->ram_base >= t->ram_size) {
		fail(t, CITCAT_ERR_TARGET, size != 4 ? "Thumb code at 0x%08x: the target runs ARM (A32) state only"
						     : "instruction fetch outside RAM at 0x%08x", a);
		return;
	}
	bus_ifetch(&t->bus, a);
	uint32_t off = a - t->ram_base, word;
	memcpy(&word, t->ram + off, 4);
	t->bus.cycle++;
	t->insns++;
	t->expect_pc = a + 4;
	if (t->synced) {
		t->traced_insns++;
		if (t->oracle || t->daf) {
			t->cur.kind = CITCAT_REC_INSN;
			t->cur.pc = a;
			t->cur.word = word;
			t->cur.n_acc = 0;
			t->cur_valid = 1;
		}
	}
	if ((word & 0x0FFFFFFFu) == INSN_WFI) {
		if ((word >> 28) != 0xE) {
			fail(t, CITCAT_ERR_TARGET, "conditional WFI at 0x%08x is not supported", a);
			return;
		}
		if (wfi_sleep(t, a))
			return;
		uint32_t next = a + 4; /* WFI retires; skip Unicorn's halt */
		uc_reg_write(uc, UC_ARM_REG_PC, &next);
	}
	if (t->cfg->progress && (t->insns & 0xfffff) == 0 && t->cfg->progress(t->cfg->progress_ctx, t->insns))
		fail(t, CITCAT_ERR_INTERRUPTED, "interrupted after %llu instructions", (unsigned long long)t->insns);
}

void citcat_capture_config_default(struct citcat_capture_config *c)
{
	memset(c, 0, sizeof *c);
	c->struct_size = sizeof *c;
	citcat_target_config_default(&c->target);
}

static int open_input(struct target *t, const char *path, FILE **f, const char *what)
{
	if (!path)
		return 0;
	*f = fopen(path, "rb");
	struct stat st;
	int e = !*f ? errno : fstat(fileno(*f), &st) != 0 ? errno : S_ISDIR(st.st_mode) ? EISDIR : 0;
	if (e) { /* a directory opens, then reads as empty: refuse it */
		if (*f)
			fclose(*f);
		*f = NULL;
		t->err->code = CITCAT_ERR_IO;
		t->err->offset = UINT64_MAX;
		snprintf(t->err->msg, sizeof t->err->msg, "%s: cannot open %s: %s", path, what, strerror(e));
		return CITCAT_ERR_IO;
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
	struct citcat_errinfo dummy;
	if (!err)
		err = &dummy;
	memset(err, 0, sizeof *err);
	memset(res, 0, sizeof *res);
	res->exit_code = -1;
	if (!cfg || cfg->struct_size != sizeof *cfg || !elf)
		return CITCAT_ERR_INVAL;
	struct target *t = calloc(1, sizeof *t);
	if (!t)
		return CITCAT_ERR_NOMEM;
	t->cfg = cfg;
	t->err = err;
	t->exit_code = -1;
	t->ram_base = cfg->target.ram_base;
	t->ram_size = cfg->target.ram_size;
	t->rng_dma = cfg->target.seed ^ 0x444d41u;
	t->rng_entropy = cfg->target.seed ^ 0x524e47u;
	int rc = 0;
	struct citcat_image *img = NULL;
	uc_hook hk;
	double t0 = now_s();

	/* nothing is allocated for the firmware before every segment has been
	 * checked against RAM (citcat_image_load_elf_limited) */
	t->ram = aligned_alloc(4096, t->ram_size);
	if (!t->ram) {
		rc = CITCAT_ERR_NOMEM;
		goto out;
	}
	memset(t->ram, 0, t->ram_size);
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

	uc_err ue = uc_open(UC_ARCH_ARM, UC_MODE_ARM, &t->uc);
	if (!ue)
		ue = uc_ctl_set_cpu_model(t->uc, UC_CPU_ARM_CORTEX_A9);
	if (!ue)
		ue = uc_mem_map_ptr(t->uc, t->ram_base, t->ram_size, UC_PROT_ALL, t->ram);
	if (!ue && !cfg->bare)
		ue = uc_mmio_map(t->uc, cfg->target.dev_base, cfg->target.dev_size, mmio_read, t, mmio_write, t);
	if (!ue && cfg->bare) /* baseline: the device window is plain memory */
		ue = uc_mem_map(t->uc, cfg->target.dev_base, cfg->target.dev_size, UC_PROT_ALL);
	if (ue) {
		rc = fail(t, CITCAT_ERR_UNICORN, "Unicorn set-up failed: %s", uc_strerror(ue));
		goto out;
	}
	if (!cfg->bare) {
		struct bus_sink sink = {sink_event, t};
		if ((rc = bus_init(&t->bus, &cfg->target, t->ram, sink))) {
			fail(t, rc, "bad cache configuration");
			goto out;
		}
		t->bus.code_changed = code_changed;
		t->bus.code_ctx = t;
		if (cat_path && (rc = citcat_cat_writer_open(&t->cat, cat_path, &cfg->target))) {
			fail(t, rc, "%s: cannot create the CAT: %s", cat_path, rc == CITCAT_ERR_IO ? strerror(errno) : citcat_errstr(rc));
			goto out;
		}
		if (cfg->lvt_path && (rc = lvt_tm_open(&t->lvt, cfg->lvt_path, &cfg->target, cfg->lvt_gran_shift, elf,
						       &t->bus.dc, t->ram, cfg->lvt_raw, cfg->lvt_raw_ctx, err))) {
			t->failed = 1;
			goto out;
		}
		if (oracle_path && (rc = citcat_itrace_writer_open(&t->oracle, oracle_path, CITCAT_ISA_ARM_A32))) {
			fail(t, rc, "%s: cannot create the oracle trace: %s", oracle_path, rc == CITCAT_ERR_IO ? strerror(errno) : citcat_errstr(rc));
			goto out;
		}
		if (cfg->daf_path &&
		    (rc = citcat_daf_writer_open(&t->daf, cfg->daf_path, cfg->daf_raw ? CITCAT_DAF_RAW : CITCAT_DAF_DIFF))) {
			fail(t, rc, "%s: cannot create the DAF trace: %s", cfg->daf_path, citcat_errstr(rc));
			goto out;
		}
		uint64_t rb = t->ram_base, re = (uint64_t)t->ram_base + t->ram_size - 1;
		ue = uc_hook_add(t->uc, &hk, UC_HOOK_CODE, hook_code, t, 1, 0);
		if (!ue)
			ue = uc_hook_add(t->uc, &hk, UC_HOOK_MEM_WRITE | (t->oracle ? UC_HOOK_MEM_READ_AFTER : UC_HOOK_MEM_READ),
					 hook_mem, t, rb, re);
		if (!ue)
			ue = uc_hook_add(t->uc, &hk, UC_HOOK_MEM_UNMAPPED, hook_unmapped, t, 1, 0);
		if (!ue)
			ue = uc_hook_add(t->uc, &hk, UC_HOOK_INTR, hook_intr, t, 1, 0);
		if (ue) {
			rc = fail(t, CITCAT_ERR_UNICORN, "Unicorn hook set-up failed: %s", uc_strerror(ue));
			goto out;
		}
	}
	uint32_t pc = (uint32_t)entry;
	recompute_next(t);
	while (!t->failed && !t->stop_request) {
		if (cfg->bare) {
			/* Baseline for benchmarks: the same image on plain Unicorn for
			 * MAX_INSNS instructions, with no hooks, caches or devices
			 * (device registers read as memory, so the firmware's path
			 * differs after its first device access).  Unicorn counts with
			 * an internal per-instruction hook, which costs about 10%. */
			ue = uc_emu_start(t->uc, pc, 0xFFFFFFFCu, 0, cfg->max_insns);
			t->stop_request = 1;
			t->insns = cfg->max_insns;
			if (ue)
				rc = fail(t, CITCAT_ERR_UNICORN, "bare run stopped early: %s", uc_strerror(ue));
			break;
		}
		ue = uc_emu_start(t->uc, pc, 0xFFFFFFFCu, 0, 0);
		if (t->failed)
			break;
		if (ue) {
			uc_reg_read(t->uc, UC_ARM_REG_PC, &pc);
			rc = fail(t, CITCAT_ERR_UNICORN, "emulation stopped at pc 0x%08x: %s", pc, uc_strerror(ue));
			break;
		}
		uc_reg_read(t->uc, UC_ARM_REG_PC, &pc);
		/* Unicorn ends a run, with no error and no code hook, when the PC
		 * reaches the until address; restarting there would loop forever
		 * and never see the stop flag (found by fuzz_replay, then fuzz_elf).
		 * The address lies above any RAM, so the core would fetch from
		 * nothing: the bus error of hook_unmapped. */
		if (pc == 0xFFFFFFFCu) {
			rc = fail(t, CITCAT_ERR_TARGET, "bus error: instruction fetch of unmapped address 0x%08x", pc);
			break;
		}
	}
	if (t->failed) {
		rc = err->code;
		goto out;
	}
	if (!cfg->bare) {
		trace_stop(t, t->stop_reason);
		res->traced = t->ended;
	}
	res->exit_code = t->exit_code;
	res->stop = t->stop_reason;
	res->insns = t->insns;
	res->traced_insns = t->traced_insns;
	res->cycles = t->bus.cycle;
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
		rc = citcat_daf_writer_close(t->daf);
		t->daf = NULL;
		if (rc) {
			fail(t, rc, "%s: writing the DAF trace failed", cfg->daf_path);
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
	if (t->uc)
		uc_close(t->uc);
	if (t->uart_in)
		fclose(t->uart_in);
	if (t->dma_in)
		fclose(t->dma_in);
	if (t->entropy_in)
		fclose(t->entropy_in);
	citcat_image_free(img);
	free(t->ram);
	free(t);
	return rc;
}
