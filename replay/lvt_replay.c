/* The LVT decoder (figure 3 of the data-trace-filtering paper, made exact):
 * a Unicorn core starts from the registers the LVT's START record carries,
 * runs the binary's code, and serves every load from the trace: an FA hit
 * from its software D-cache (RAM where the FA flags are set), a traced value
 * from the record, which then fills RAM and sets the flags.  The D-cache is
 * the shared model (machine/bus.c, machine/cache.c), driven with the same
 * data accesses, cache-maintenance writes and external invalidations as in
 * the capture, so its lines and flags are the trace module's at every load,
 * which makes the header bit a check in both directions.
 *
 * The hook structure mirrors replay/replay.c (and capture/target.c), whose
 * run state, reports and set-up it shares (replay_int.h); the
 * Unicorn behaviours relied on are pinned by tests/test_unicorn.c, in
 * particular that a write to RAM in a READ hook changes the value loaded. */
#include "lvt_replay.h"
#include "replay_int.h"
#include "armcore.h"
#include "bus.h"
#include "core.h"
#include "fa.h"
#include "image.h"
#include "itrace.h"
#include "lvt.h"
#include "replay_m7.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unicorn/unicorn.h>

#define MAX_CODE 32

struct lreplayer {
	struct replay_core c; /* first: the hooks' context is either */
	const struct citcat_lvt_replay_config *cfg;
	struct citcat_target_config tcfg;
	uint8_t *dmaw;  /* bitmap: last written by DMA (for the report) */
	uint8_t *xpage; /* per 4 KiB page of RAM: an instruction was fetched from it */

	struct citcat_lvt_reader *lvt;
	struct citcat_lvt_rec ev; /* lookahead: the next record when it is an event */
	int ev_valid;
	struct replay_m7 *m7; /* the Cortex-M7 (LVT.md, "The Cortex-M7"), else NULL */
};


/* The LVT is unusable where the decoder reads it: keep the reader's error
 * (file offset and payload byte) and add the instruction that consumed it. */
static void lvt_error(struct lreplayer *p)
{
	if (p->c.failed)
		return;
	const struct citcat_errinfo *e = citcat_lvt_reader_error(p->lvt);
	*p->c.err = *e;
	if (p->c.insns) {
		size_t n = strlen(p->c.err->msg);
		snprintf(p->c.err->msg + n, sizeof p->c.err->msg - n, ", read at instruction #%llu (pc 0x%08x)",
			 (unsigned long long)p->c.cur_index, p->c.cur_pc);
	}
	p->c.res->err_path = p->cfg->lvt_path;
	p->c.failed = 2;
	if (p->c.uc)
		uc_emu_stop(p->c.uc);
}

/* Loads the next record into the lookahead when it is an event. */
static void fetch_event(struct lreplayer *p)
{
	p->ev_valid = 0;
	int k = citcat_lvt_peek(p->lvt);
	if (k < 0) {
		lvt_error(p);
		return;
	}
	if (k == 0) {
		replay_fail(&p->c, p->cfg->lvt_path, CITCAT_ERR_TRUNCATED, UINT64_MAX, "%s: the LVT ends without its STOP record",
		     p->cfg->lvt_path);
		return;
	}
	if (k == CITCAT_LVT_HIT || k == CITCAT_LVT_VALUE)
		return;
	if (citcat_lvt_next(p->lvt, 0, &p->ev) != 1) {
		lvt_error(p);
		return;
	}
	p->ev_valid = 1;
}

static const char *ev_name(unsigned k)
{
	return k == CITCAT_LVT_IRQ ? "interrupt" : k == CITCAT_LVT_DMA ? "external write (DMA)" : k == CITCAT_LVT_STOP ? "STOP" : "START";
}

static void sink_event(void *ctx, const struct citcat_cat_event *ev)
{
	struct lreplayer *p = ctx;
	p->c.res->bus_events++;
}

/* A load record where an event is due means the event was missed. */
static int event_pending(struct lreplayer *p, const char *what)
{
	if (!p->ev_valid)
		return 0;
	char exp[200];
	snprintf(exp, sizeof exp, "a record for this %s", what);
	if (p->ev.kind == CITCAT_LVT_STOP)
		replay_diverge(&p->c, "LVT stream", exp, "the STOP record (after %llu instructions)", (unsigned long long)p->ev.st.insns);
	else
		replay_diverge(&p->c, "LVT stream", exp, "an %s record for branch %llu, pc 0x%08x, not applied before it",
			ev_name(p->ev.kind), (unsigned long long)p->ev.bcount, p->ev.pc);
	return 1;
}

static int serve_load(struct lreplayer *p, uint32_t a, unsigned n);

static void hook_mem(uc_engine *uc, uc_mem_type type, uint64_t addr, int size, int64_t value, void *ctx)
{
	struct lreplayer *p = ctx;
	if (type == UC_MEM_READ && core_read_echo(&p->c.rsplit, (uint32_t)addr, (unsigned)size))
		return; /* not an access: Unicorn's echo of a page-crossing load (core.h) */
	if (__builtin_expect(core_past_ram((uint32_t)addr, (unsigned)size, p->c.ram_base, p->c.ram_size), 0))
		return; /* a bus error, reported by the unmapped hook (core.h) */
	if (p->c.failed)
		return;
	uint32_t a = (uint32_t)addr, off = a - p->c.ram_base;
	unsigned n = (unsigned)size;
	uint8_t *m = p->c.ram + off;
	if (type == UC_MEM_WRITE) {
		uint64_t v = (uint64_t)value;
		if (n < 8)
			v &= (1ull << (8 * n)) - 1;
		for (unsigned i = 0; i < n; i++) {
			replay_kset(p->c.known, off + i);
			replay_kclr(p->dmaw, off + i);
		}
		bus_data(&p->c.bus, a, n, 1, v);
		fa_mark(&p->c.bus.dc, a, n); /* figure 3, lines 13-15 */
		replay_add_access(&p->c, a, n, 1, v, 0);
		return;
	}
	bus_data(&p->c.bus, a, n, 0, 0);
	if (serve_load(p, a, n))
		return;
	uint64_t v = 0;
	for (unsigned i = 0; i < n; i++)
		v |= (uint64_t)m[i] << (8 * i);
	replay_add_access(&p->c, a, n, 0, v, 0);
}

/* A cached load of N bytes at A, after its D-cache access: its record, an
 * FA hit checked against the decoder's flags or a value put in RAM.
 * Returns 0, or -1 when the run failed. */
static int serve_load(struct lreplayer *p, uint32_t a, unsigned n)
{
	uint32_t off = a - p->c.ram_base;
	uint8_t *m = p->c.ram + off;
	if (event_pending(p, "load"))
		return -1;
	int hit = fa_load_hit(&p->c.bus.dc, a, n);
	struct citcat_lvt_rec r;
	if (citcat_lvt_next(p->lvt, n, &r) != 1) {
		if (!citcat_lvt_reader_error(p->lvt)->code)
			replay_fail(&p->c, p->cfg->lvt_path, CITCAT_ERR_TRUNCATED, UINT64_MAX, "%s: the LVT ends inside the interval",
			     p->cfg->lvt_path);
		lvt_error(p);
		return -1;
	}
	char exp[200];
	if (r.kind == CITCAT_LVT_HIT) {
		if (!hit) { /* figure 3, line 7 */
			snprintf(exp, sizeof exp, "a traced value (not every FA flag of the %u bytes at 0x%08x is set)", n, a);
			replay_diverge(&p->c, "LVT first access", exp, "an FA hit (header bit 1)");
			return -1;
		}
	} else if (r.kind == CITCAT_LVT_VALUE) {
		if (hit) {
			snprintf(exp, sizeof exp, "an FA hit (every FA flag of the %u bytes at 0x%08x is set)", n, a);
			replay_diverge(&p->c, "LVT first access", exp, "a traced value 0x%llx (header bit 0)", (unsigned long long)r.value);
			return -1;
		}
		/* a byte whose value the decoder knows must agree with the trace */
		for (unsigned i = 0; i < n; i++) {
			uint8_t b = (uint8_t)(r.value >> (8 * i));
			if (replay_kbit(p->c.known, off + i) && m[i] != b) {
				snprintf(exp, sizeof exp, "byte 0x%02x at 0x%08x (from the binary's code or a store since P)", m[i], a + i);
				replay_diverge(&p->c, "LVT value", exp, "a traced value 0x%llx with byte 0x%02x there", (unsigned long long)r.value, b);
				return -1;
			}
		}
		int changed = 0;
		for (unsigned i = 0; i < n; i++) {
			uint8_t b = (uint8_t)(r.value >> (8 * i));
			changed |= m[i] != b;
			m[i] = b;
			replay_kset(p->c.known, off + i);
			replay_kclr(p->dmaw, off + i);
		}
		/* RAM changed behind Unicorn's back: a translation block that ran
		 * past the known code over these bytes must not be reused */
		if (changed && (p->xpage[off >> 12] || p->xpage[(off + n - 1) >> 12]))
			core_code_changed(p->c.uc, a, n);
		fa_mark(&p->c.bus.dc, a, n); /* figure 3, lines 9-11 */
	} else {
		replay_diverge(&p->c, "LVT stream", "a load record", "an %s record", ev_name(r.kind));
		return -1;
	}
	fetch_event(p);
	return p->c.failed ? -1 : 0;
}

/* A device (or SCS) read of SIZE bytes at ADDR: always traced. */
static uint64_t traced_read(struct lreplayer *p, uint32_t addr, unsigned size)
{
	if (p->c.failed || event_pending(p, "device read"))
		return 0;
	struct citcat_lvt_rec r;
	if (citcat_lvt_next(p->lvt, size, &r) != 1) {
		lvt_error(p);
		return 0;
	}
	if (r.kind != CITCAT_LVT_VALUE) {
		replay_diverge(&p->c, "LVT stream", "a traced value (device reads are always traced)", "an %s record",
			r.kind == CITCAT_LVT_HIT ? "FA hit" : ev_name(r.kind));
		return 0;
	}
	bus_uncached(&p->c.bus, addr, size, 0, r.value);
	replay_add_access(&p->c, addr, size, 0, r.value, 1);
	fetch_event(p);
	return r.value;
}

static uint64_t mmio_read(uc_engine *uc, uint64_t off, unsigned size, void *ctx)
{
	struct lreplayer *p = ctx;
	uint32_t addr = p->tcfg.dev_base + (uint32_t)off;
	uint64_t pf;
	if (p->m7 && !p->c.failed && replay_m7_dev_read_fault(p->m7, (uint32_t)off, size, addr, &pf))
		return pf; /* a precise BusFault, as in the capture: no record */
	return traced_read(p, addr, size);
}

static void mmio_write(uc_engine *uc, uint64_t off, unsigned size, uint64_t value, void *ctx)
{
	struct lreplayer *p = ctx;
	uint32_t addr = p->tcfg.dev_base + (uint32_t)off;
	if (size < 8)
		value &= (1ull << (8 * size)) - 1;
	if (p->c.failed)
		return;
	if (p->m7 && replay_m7_dev_write_dropped(p->m7, (uint32_t)off, size))
		return; /* dropped by the M7's bus, as in the capture */
	bus_uncached(&p->c.bus, addr, size, 1, value); /* cache maintenance takes effect here */
	replay_add_access(&p->c, addr, size, 1, value, 1);
}

static inline void close_record(struct lreplayer *p)
{
	if (!p->c.cur_valid)
		return;
	p->c.cur_valid = 0;
	replay_output(&p->c, &p->c.cur);
}

/* Applies the events due at this boundary; returns 1 when an interrupt was taken. */
static int apply_events(struct lreplayer *p, uint32_t a)
{
	while (p->ev_valid && (p->ev.kind == CITCAT_LVT_IRQ || p->ev.kind == CITCAT_LVT_DMA)) {
		const struct citcat_lvt_rec *e = &p->ev;
		if (e->bcount != p->c.bcount || e->pc != a) {
			char what[40];
			snprintf(what, sizeof what, "an %s", ev_name(e->kind));
			replay_event_missed(&p->c, e->kind == CITCAT_LVT_IRQ, what, e->bcount, e->pc);
			return 0;
		}
		if (e->kind == CITCAT_LVT_DMA) {
			if (e->addr < p->c.ram_base || (uint64_t)e->addr + e->len > (uint64_t)p->c.ram_base + p->c.ram_size ||
			    (e->addr >> p->c.bus.dline_shift) != ((e->addr + e->len - 1) >> p->c.bus.dline_shift)) {
				replay_fail(&p->c, p->cfg->lvt_path, CITCAT_ERR_CORRUPT, UINT64_MAX,
				     "%s: external write to 0x%08x (%u bytes) outside RAM or across a D-cache line", p->cfg->lvt_path,
				     e->addr, e->len);
				return 0;
			}
			/* the line's FA flags go with it (figure 2, external invalidation);
			 * the bytes are now unknown: the LVT does not carry DMA data */
			cache_invalidate_line(&p->c.bus.dc, e->addr >> p->c.bus.dline_shift);
			for (uint32_t i = 0; i < e->len; i++) {
				replay_kclr(p->c.known, e->addr - p->c.ram_base + i);
				replay_kset(p->dmaw, e->addr - p->c.ram_base + i);
			}
			core_code_changed(p->c.uc, e->addr, e->len);
			struct citcat_itrace_rec dma = {.kind = CITCAT_REC_DMA, .pc = e->addr, .word = e->len};
			replay_output(&p->c, &dma);
			p->c.res->dma++;
			fetch_event(p);
			continue;
		}
		if (p->c.itstate) { /* the trace module takes none there (TARGET.md) */
			replay_diverge(&p->c, "interrupt schedule", "an interrupt outside IT blocks (TARGET.md)",
				       "an interrupt recorded inside an IT block (ITSTATE 0x%02x)", p->c.itstate);
			return 0;
		}
		if (p->m7) { /* the exception the capture took: its vector read is the next record */
			int exc = e->line;
			fetch_event(p);
			return !p->c.failed && replay_m7_enter(p->m7, exc, a);
		}
		if (!replay_irq_enabled(&p->c, e->line))
			return 0;
		struct citcat_itrace_rec irq = {.kind = CITCAT_REC_IRQ, .line = e->line, .pc = a};
		replay_output(&p->c, &irq);
		replay_enter_irq(&p->c, e->line, a);
		fetch_event(p);
		return 1;
	}
	return 0;
}

/* The condition-failed instructions of an IT block, which Unicorn runs no
 * code hook for and which make no data access (so consume no record), as
 * the capture model retires them (capture/target.c, it_skipped); never past
 * the instruction count of STOP. */
static void it_skipped(struct lreplayer *p, uint32_t a)
{
	uint32_t cpsr, pc, word;
	unsigned size;
	uc_reg_read(p->c.uc, UC_ARM_REG_CPSR, &cpsr);
	while (!(p->ev_valid && p->ev.kind == CITCAT_LVT_STOP && p->c.insns == p->ev.st.insns) &&
	       replay_it_failed_next(&p->c, a, cpsr, &pc, &size, &word)) {
		replay_retire(&p->c, pc, size, word, 1);
		close_record(p);
	}
}

static void hook_code(uc_engine *uc, uint64_t address, uint32_t size, void *ctx)
{
	struct lreplayer *p = ctx;
	uint32_t a = (uint32_t)address;
	if (p->c.failed || p->c.done) {
		uc_emu_stop(uc); /* again: see replay.c's hook_code */
		return;
	}
	if (p->m7 && replay_m7_precise_take(p->m7)) /* a device or SCS bus error of the last instruction */
		return;
	close_record(p);
	if (p->c.itstate && !p->c.after_exception)
		it_skipped(p, a);
	replay_boundary(&p->c, a);
	if (p->ev_valid && p->ev.kind == CITCAT_LVT_STOP && p->c.insns == p->ev.st.insns) {
		if (p->c.bcount != p->ev.bcount) {
			char exp[200];
			snprintf(exp, sizeof exp, "branch count %llu at the end of the interval", (unsigned long long)p->ev.bcount);
			replay_diverge(&p->c, "LVT stream", exp, "%llu", (unsigned long long)p->c.bcount);
			return;
		}
		p->c.done = 1;
		uc_emu_stop(uc);
		return;
	}
	if (p->ev_valid && (p->ev.pc == a || p->ev.bcount < p->c.bcount) && (apply_events(p, a) || p->c.failed))
		return;
	if (!replay_fetch_in_ram(&p->c, a, size, 0))
		return;
	if (!replay_known_range(&p->c, a, size)) {
		uint32_t o = a - p->c.ram_base;
		int dma = 0;
		for (uint32_t i = 0; i < size; i++)
			dma |= replay_kbit(p->dmaw, o + i);
		replay_diverge(&p->c, "memory image", "an instruction from the binary's code or stored by the core",
			dma ? "a fetch from 0x%08x, which DMA wrote: the LVT does not carry DMA data"
			    : "a fetch from 0x%08x, outside the binary's code and never stored by the core since P", a);
		return;
	}
	uint32_t word = thumb_word_at(p->c.ram + (a - p->c.ram_base), size);
	int thumb = thumb_state_in(a, size, p->c.block_thumb);
	p->xpage[(a - p->c.ram_base) >> 12] = 1;
	p->xpage[(a + size - 1 - p->c.ram_base) >> 12] = 1;
	replay_retire(&p->c, a, size, word, thumb);
	if (thumb ? thumb_is_wfi(word, size) : core_is_wfi(word))
		thumb_wfi_retire(uc, a, size, thumb); /* the wake-up is the next interrupt record */
	if (p->cfg->progress && (p->c.insns & 0xfffff) == 0 && p->cfg->progress(p->cfg->progress_ctx, p->c.insns, 0))
		replay_fail(&p->c, NULL, CITCAT_ERR_INTERRUPTED, UINT64_MAX, "interrupted after %llu instructions", (unsigned long long)p->c.insns);
}

static bool hook_unmapped(uc_engine *uc, uc_mem_type type, uint64_t addr, int size, int64_t value, void *ctx)
{
	struct lreplayer *p = ctx;
	if (p->m7 && replay_m7_unmapped(p->m7, type, (uint32_t)addr)) /* a BusFault (replay_m7.c) */
		return false;
	replay_diverge(ctx, "memory map", "accesses within RAM and the device window", "an access to unmapped 0x%08llx",
		(unsigned long long)addr);
	return false;
}

static void hook_intr(uc_engine *uc, uint32_t intno, void *ctx)
{
	struct lreplayer *p = ctx;
	if (p->m7) {
		replay_m7_intr(p->m7, intno);
		return;
	}
	replay_diverge(ctx, "exception", "no exception other than the recorded interrupts", "exception %u (SVC, undefined or abort)", intno);
}

/* ---- the Cortex-M7 (LVT.md, "The Cortex-M7"; replay_m7.c) ---- */

/* SCS reads are device reads (always traced); the registers the exception
 * model depends on are checked against it, as in the AES replay. */
static uint64_t scs_read(uc_engine *uc, uint64_t off, unsigned size, void *ctx)
{
	struct lreplayer *p = ctx;
	uint64_t pf;
	if (!p->c.failed && replay_m7_scs_read_fault(p->m7, (uint32_t)off, size, &pf))
		return pf; /* a precise BusFault, as in the capture: no record */
	uint32_t v = (uint32_t)traced_read(p, M7EXC_SCS_BASE + (uint32_t)off, size);
	replay_m7_scs_check(p->m7, (uint32_t)off, size, v);
	return v;
}

/* The model's register write first, as in the capture. */
static void scs_write(uc_engine *uc, uint64_t off, unsigned size, uint64_t value, void *ctx)
{
	struct lreplayer *p = ctx;
	uint32_t addr = M7EXC_SCS_BASE + (uint32_t)off;
	if (p->c.failed || p->c.done || replay_m7_precise_on(p->m7))
		return;
	if (replay_m7_scs_write(p->m7, (uint32_t)off, size, (uint32_t)value)) {
		if (replay_m7_scs_write_fault(p->m7, (uint32_t)off))
			return; /* a precise BusFault, as in the capture */
		replay_diverge(&p->c, "SCS write", "an SCS write the model accepts",
			       "a %u-byte write of 0x%llx to 0x%08x, a bus error", size, (unsigned long long)value, addr);
		return;
	}
	bus_uncached(&p->c.bus, addr, size, 1, value);
	replay_add_access(&p->c, addr, size, 1, value, 1);
}

static bool hook_invalid_m7(uc_engine *uc, void *ctx)
{
	struct lreplayer *p = ctx;
	return replay_m7_invalid(p->m7);
}

static void m7_close(void *ctx) { close_record(ctx); }
static void m7_skipped(void *ctx, uint32_t a) { it_skipped(ctx, a); }
static void m7_emit(void *ctx, const struct citcat_itrace_rec *r)
{
	struct lreplayer *p = ctx;
	replay_output(&p->c, r);
}
/* the LVT has no abnormal end (a fault stops its capture with an error) */
static int m7_fault(void *ctx, unsigned kind, uint32_t pc, uint32_t addr) { return 0; }
static int m7_load(void *ctx, uint32_t addr, uint32_t *v)
{
	struct lreplayer *p = ctx;
	if (serve_load(p, addr, 4))
		return -1;
	memcpy(v, p->c.ram + (addr - p->c.ram_base), 4);
	return 0;
}
static void m7_store(void *ctx, uint32_t addr)
{
	struct lreplayer *p = ctx;
	for (unsigned i = 0; i < 4; i++)
		replay_kclr(p->dmaw, addr - p->c.ram_base + i);
	fa_mark(&p->c.bus.dc, addr, 4);
}

void citcat_lvt_replay_config_default(struct citcat_lvt_replay_config *c)
{
	if (!c)
		return;
	memset(c, 0, sizeof *c);
	c->size = sizeof *c;
}

/* RAM from the binary; only its code counts as known, and it must be the
 * code the capture ran (the START record's hash of it at P). */
static int load_binary(struct lreplayer *p, uint64_t want_hash)
{
	const struct citcat_lvt_replay_config *cfg = p->cfg;
	struct citcat_image *img = NULL;
	uint64_t entry;
	int rc = citcat_image_alloc(&img);
	if (!rc)
		rc = citcat_image_load_elf(img, cfg->image_path, &entry, p->c.err);
	if (rc) {
		if (!p->c.err->msg[0])
			citcat_errinfo_set(p->c.err, rc, UINT64_MAX, "%s", citcat_errstr(rc));
		p->c.res->err_path = cfg->image_path;
		p->c.failed = 2;
		citcat_image_free(img);
		return rc;
	}
	for (size_t i = 0; i < citcat_image_segments(img); i++) {
		uint64_t addr, len;
		const uint8_t *data;
		citcat_image_segment(img, i, &addr, &len, &data);
		if (addr < p->c.ram_base || addr + len > (uint64_t)p->c.ram_base + p->c.ram_size) {
			citcat_image_free(img);
			return replay_fail(&p->c, cfg->image_path, CITCAT_ERR_CORRUPT, UINT64_MAX, "%s: segment at 0x%08llx lies outside RAM",
				    cfg->image_path, (unsigned long long)addr);
		}
		memcpy(p->c.ram + (addr - p->c.ram_base), data, (size_t)len);
	}
	citcat_image_free(img);
	struct citcat_lvt_range code[MAX_CODE];
	struct citcat_errinfo e = {0};
	int n = citcat_lvt_code_ranges(cfg->image_path, code, MAX_CODE, &e);
	if (n < 0 || n > MAX_CODE) {
		if (n > MAX_CODE)
			citcat_errinfo_set(&e, CITCAT_ERR_LIMIT, UINT64_MAX, "more than %d executable segments", MAX_CODE);
		replay_input_error(&p->c, cfg->image_path, &e);
		return p->c.err->code;
	}
	for (int i = 0; i < n; i++) {
		if (code[i].addr < p->c.ram_base || (uint64_t)code[i].addr + code[i].len > (uint64_t)p->c.ram_base + p->c.ram_size)
			return replay_fail(&p->c, cfg->image_path, CITCAT_ERR_CORRUPT, UINT64_MAX, "%s: code outside RAM", cfg->image_path);
		for (uint32_t b = 0; b < code[i].len; b++)
			replay_kset(p->c.known, code[i].addr - p->c.ram_base + b);
	}
	if (citcat_lvt_code_hash(p->c.ram, p->c.ram_base, code, n) != want_hash)
		return replay_fail(&p->c, cfg->image_path, CITCAT_ERR_CORRUPT, UINT64_MAX,
			    "%s is not the firmware %s was recorded from, or its code changed before the trace start point "
			    "(code hash differs)", cfg->image_path, cfg->lvt_path);
	return 0;
}

int citcat_lvt_replay_run(const struct citcat_lvt_replay_config *ucfg, struct citcat_replay_result *res,
			  struct citcat_errinfo *err)
{
	struct citcat_errinfo dummy;
	int rc = cc_run_start(&err, &dummy, res, sizeof *res);
	if (rc)
		return rc;
	/* the caller's struct may be older or newer than ours (citcat/base.h) */
	struct citcat_lvt_replay_config cfgv;
	const struct citcat_lvt_replay_config *cfg = &cfgv;
	if (cc_config_from_user(&cfgv, sizeof cfgv, ucfg, offsetof(struct citcat_lvt_replay_config, image_path) +
							 sizeof cfgv.image_path) ||
	    !cfg->lvt_path || !cfg->image_path)
		return citcat_errinfo_set(err, CITCAT_ERR_INVAL, UINT64_MAX,
					  "bad LVT decoder configuration (LVT and ELF required)");
	struct lreplayer *p = calloc(1, sizeof *p);
	if (!p)
		return CITCAT_ERR_NOMEM;
	p->cfg = cfg;
	replay_begin(&p->c, res, err, cfg->oracle, cfg->out_path);
	struct citcat_lvt_rec start;

	if ((rc = citcat_lvt_reader_open(&p->lvt, cfg->lvt_path))) {
		replay_input_error(&p->c, cfg->lvt_path, citcat_lvt_reader_error(p->lvt));
		goto out;
	}
	p->tcfg = *citcat_lvt_config(p->lvt);
	p->c.ram_base = p->tcfg.ram_base;
	p->c.ram_size = p->tcfg.ram_size;
	rc = citcat_lvt_next(p->lvt, 0, &start);
	if (rc < 0) {
		replay_input_error(&p->c, cfg->lvt_path, citcat_lvt_reader_error(p->lvt));
		goto out;
	}
	if (rc == 0) {
		rc = replay_fail(&p->c, cfg->lvt_path, CITCAT_ERR_EMPTY, UINT64_MAX,
			  "%s holds no traced interval (the firmware never reached a trace start point)", cfg->lvt_path);
		goto out;
	}
	rc = 0;
	if (p->tcfg.isa == CITCAT_TARGET_CORTEX_M7)
		p->c.itrace_isa = CITCAT_ISA_ARMV7M;
	if ((rc = replay_open_itraces(&p->c)))
		goto out;
	p->c.ram = core_ram_alloc(p->c.ram_size);
	p->c.known = calloc(1, p->c.ram_size / 8 + 1);
	p->dmaw = calloc(1, p->c.ram_size / 8 + 1);
	p->xpage = calloc(1, p->c.ram_size / 4096 + 1);
	if (!p->c.ram || !p->c.known || !p->dmaw || !p->xpage) {
		rc = replay_fail(&p->c, NULL, CITCAT_ERR_NOMEM, UINT64_MAX, "out of memory");
		goto out;
	}
	if ((rc = load_binary(p, start.code_hash)))
		goto out;
	struct bus_sink sink = {sink_event, p};
	if ((rc = bus_init(&p->c.bus, &p->tcfg, p->c.ram, sink)) || (rc = cache_fa_enable(&p->c.bus.dc, citcat_lvt_gran_shift(p->lvt)))) {
		replay_fail(&p->c, cfg->lvt_path, rc, UINT64_MAX, "%s: unusable cache configuration", cfg->lvt_path);
		goto out;
	}
	p->c.bus.dc.rng = start.dc_rng;
	/* MEM_READ, before the read: the hook puts the value where the core loads it */
	struct core_hooks hooks = {hook_code, hook_mem, UC_HOOK_MEM_WRITE | UC_HOOK_MEM_READ, hook_unmapped, hook_intr,
				   p->tcfg.isa == CITCAT_TARGET_CORTEX_M7 ? NULL : &p->c.block_thumb};
	struct arm_state regs;
	memcpy(regs.slot, start.regs, sizeof regs.slot);
	if (p->tcfg.isa == CITCAT_TARGET_CORTEX_M7) {
		if (!(p->m7 = calloc(1, sizeof *p->m7))) {
			rc = replay_fail(&p->c, NULL, CITCAT_ERR_NOMEM, UINT64_MAX, "out of memory");
			goto out;
		}
		p->m7->ops = (struct replay_m7_ops){m7_close, m7_emit, m7_fault, p, m7_load, m7_store, m7_skipped, NULL};
		if ((rc = replay_m7_open(p->m7, &p->c, cfg->lvt_path, p->tcfg.dev_base, p->tcfg.dev_size, mmio_read,
					 mmio_write, scs_read, scs_write, &hooks, hook_invalid_m7, p, &regs)))
			goto out;
		p->c.block_thumb = 1; /* always Thumb: no block hook on the M7 */
	} else if ((rc = replay_open_core(&p->c, p->tcfg.dev_base, p->tcfg.dev_size, mmio_read, mmio_write, &hooks, p,
					  &regs, (start.sctlr & CITCAT_LVT_SCTLR_TE) != 0))) {
		goto out;
	}
	fetch_event(p);
	replay_run(&p->c, NULL);
	if (!p->c.failed) {
		/* nothing may follow STOP, up to the container's end marker */
		int k = citcat_lvt_peek(p->lvt);
		if (k < 0)
			lvt_error(p);
		else if (k > 0)
			replay_fail(&p->c, cfg->lvt_path, CITCAT_ERR_CORRUPT, UINT64_MAX, "%s: records follow the STOP record", cfg->lvt_path);
	}
	replay_oracle_end(&p->c);
	rc = replay_finish(&p->c);
out:
	if (p->c.failed == 2 && !rc)
		rc = err->code ? err->code : CITCAT_ERR_INTERNAL;
	replay_fini(&p->c);
	citcat_lvt_reader_close(p->lvt);
	core_ram_free(p->c.ram, p->c.ram_size);
	free(p->c.known);
	free(p->dmaw);
	free(p->xpage);
	free(p->m7);
	free(p);
	return rc;
}
