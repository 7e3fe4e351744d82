/* The LVT decoder (figure 3 of the data-trace-filtering paper, made exact):
 * a Unicorn core starts from the registers the LVT's START record carries,
 * runs the binary's code, and serves every load from the trace: an FA hit
 * from its software D-cache (RAM where the FA flags are set), a traced value
 * from the record, which then fills RAM and sets the flags.  The D-cache is
 * the shared model (capture/bus.c, capture/cache.c), driven with the same
 * data accesses, cache-maintenance writes and external invalidations as in
 * the capture, so its lines and flags are the trace module's at every load,
 * which makes the header bit a check in both directions.
 *
 * The hook structure mirrors replay/replay.c (and capture/target.c); the
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

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unicorn/unicorn.h>

#define MAX_CODE 32

struct lreplayer {
	const struct citcat_lvt_replay_config *cfg;
	struct citcat_replay_result *res;
	struct citcat_errinfo *err;
	uc_engine *uc;
	struct citcat_target_config tcfg;
	struct bus bus;
	uint8_t *ram;
	uint8_t *known; /* bitmap: the decoder knows the byte's current value */
	uint8_t *dmaw;  /* bitmap: last written by DMA (for the report) */
	uint8_t *xpage; /* per 4 KiB page of RAM: an instruction was fetched from it */
	uint32_t ram_base, ram_size;

	struct citcat_lvt_reader *lvt;
	struct citcat_lvt_rec ev; /* lookahead: the next record when it is an event */
	int ev_valid;

	struct citcat_itrace_reader *orc;
	struct citcat_itrace_writer *out;

	uint64_t bcount, insns, cur_index;
	uint32_t expect_pc, cur_pc;
	int after_exception, done, failed;
	struct citcat_itrace_rec cur, orec;
	int cur_valid;
	uint32_t hist_pc[CITCAT_REPLAY_HISTORY], hist_word[CITCAT_REPLAY_HISTORY];
};

static inline int kbit(const uint8_t *m, uint32_t i) { return (m[i >> 3] >> (i & 7)) & 1; }
static inline void kset(uint8_t *m, uint32_t i) { m[i >> 3] |= (uint8_t)(1u << (i & 7)); }
static inline void kclr(uint8_t *m, uint32_t i) { m[i >> 3] &= (uint8_t)~(1u << (i & 7)); }

static void diverge(struct lreplayer *p, const char *check, const char *expected, const char *found_fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void diverge(struct lreplayer *p, const char *check, const char *expected, const char *found_fmt, ...)
{
	if (p->failed)
		return;
	p->failed = 1;
	p->res->diverged = 1;
	va_list ap;
	va_start(ap, found_fmt);
	replay_divergence_fill(&p->res->div, check, p->cur_index, p->bcount, p->cur_pc, expected, p->insns, p->hist_pc,
			       p->hist_word, found_fmt, ap);
	va_end(ap);
	if (p->uc)
		uc_emu_stop(p->uc);
}

static int fail(struct lreplayer *p, const char *path, int code, uint64_t off, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

static int fail(struct lreplayer *p, const char *path, int code, uint64_t off, const char *fmt, ...)
{
	if (!p->failed) {
		va_list ap;
		va_start(ap, fmt);
		p->err->code = code;
		p->err->offset = off;
		vsnprintf(p->err->msg, sizeof p->err->msg, fmt, ap);
		va_end(ap);
		p->res->err_path = path;
		p->failed = 2;
		if (p->uc)
			uc_emu_stop(p->uc);
	}
	return code;
}

/* The LVT is unusable where the decoder reads it: keep the reader's error
 * (file offset and payload byte) and add the instruction that consumed it. */
static void lvt_error(struct lreplayer *p)
{
	if (p->failed)
		return;
	const struct citcat_errinfo *e = citcat_lvt_reader_error(p->lvt);
	*p->err = *e;
	if (p->insns) {
		size_t n = strlen(p->err->msg);
		snprintf(p->err->msg + n, sizeof p->err->msg - n, ", read at instruction #%llu (pc 0x%08x)",
			 (unsigned long long)p->cur_index, p->cur_pc);
	}
	p->res->err_path = p->cfg->lvt_path;
	p->failed = 2;
	if (p->uc)
		uc_emu_stop(p->uc);
}

static void input_error(struct lreplayer *p, const char *path, const struct citcat_errinfo *e)
{
	if (p->failed)
		return;
	*p->err = *e;
	p->res->err_path = path;
	p->failed = 2;
	if (p->uc)
		uc_emu_stop(p->uc);
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
		fail(p, p->cfg->lvt_path, CITCAT_ERR_TRUNCATED, UINT64_MAX, "%s: the LVT ends without its STOP record",
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

static void oracle_compare(struct lreplayer *p, const struct citcat_itrace_rec *r)
{
	int rc = citcat_itrace_next(p->orc, &p->orec);
	if (rc < 0) {
		input_error(p, p->cfg->oracle, citcat_itrace_reader_error(p->orc));
		return;
	}
	p->res->oracle_records++;
	char want[200], got[200];
	if (replay_oracle_differs(rc, &p->orec, r, want, got))
		diverge(p, "instruction trace", want, "%s", got);
}

static void emit_record(struct lreplayer *p, const struct citcat_itrace_rec *r)
{
	if (p->out && citcat_itrace_write(p->out, r))
		fail(p, p->cfg->out_path, CITCAT_ERR_IO, UINT64_MAX, "%s: %s", p->cfg->out_path,
		     citcat_itrace_writer_error(p->out)->msg);
	if (p->orc && !p->failed)
		oracle_compare(p, r);
}

static void add_access(struct lreplayer *p, uint32_t addr, unsigned size, int write, uint64_t value, int uncached)
{
	if (!p->cur_valid || p->cur.n_acc >= CITCAT_ITRACE_MAX_ACC)
		return;
	core_record_access(&p->cur, addr, size, write, value, uncached);
}

static void sink_event(void *ctx, const struct citcat_cat_event *ev)
{
	struct lreplayer *p = ctx;
	p->res->bus_events++;
}

/* A load record where an event is due means the event was missed. */
static int event_pending(struct lreplayer *p, const char *what)
{
	if (!p->ev_valid)
		return 0;
	char exp[200];
	snprintf(exp, sizeof exp, "a record for this %s", what);
	if (p->ev.kind == CITCAT_LVT_STOP)
		diverge(p, "LVT stream", exp, "the STOP record (after %llu instructions)", (unsigned long long)p->ev.st.insns);
	else
		diverge(p, "LVT stream", exp, "an %s record for branch %llu, pc 0x%08x, not applied before it",
			ev_name(p->ev.kind), (unsigned long long)p->ev.bcount, p->ev.pc);
	return 1;
}

static void hook_mem(uc_engine *uc, uc_mem_type type, uint64_t addr, int size, int64_t value, void *ctx)
{
	struct lreplayer *p = ctx;
	if (p->failed)
		return;
	uint32_t a = (uint32_t)addr, off = a - p->ram_base;
	unsigned n = (unsigned)size;
	uint8_t *m = p->ram + off;
	if (type == UC_MEM_WRITE) {
		uint64_t v = (uint64_t)value;
		if (n < 8)
			v &= (1ull << (8 * n)) - 1;
		for (unsigned i = 0; i < n; i++) {
			kset(p->known, off + i);
			kclr(p->dmaw, off + i);
		}
		bus_data(&p->bus, a, n, 1, v);
		fa_mark(&p->bus.dc, a, n); /* figure 3, lines 13-15 */
		add_access(p, a, n, 1, v, 0);
		return;
	}
	if (event_pending(p, "load"))
		return;
	bus_data(&p->bus, a, n, 0, 0);
	int hit = fa_load_hit(&p->bus.dc, a, n);
	struct citcat_lvt_rec r;
	if (citcat_lvt_next(p->lvt, n, &r) != 1) {
		if (!citcat_lvt_reader_error(p->lvt)->code)
			fail(p, p->cfg->lvt_path, CITCAT_ERR_TRUNCATED, UINT64_MAX, "%s: the LVT ends inside the interval",
			     p->cfg->lvt_path);
		lvt_error(p);
		return;
	}
	char exp[200];
	if (r.kind == CITCAT_LVT_HIT) {
		if (!hit) { /* figure 3, line 7 */
			snprintf(exp, sizeof exp, "a traced value (not every FA flag of the %u bytes at 0x%08x is set)", n, a);
			diverge(p, "LVT first access", exp, "an FA hit (header bit 1)");
			return;
		}
	} else if (r.kind == CITCAT_LVT_VALUE) {
		if (hit) {
			snprintf(exp, sizeof exp, "an FA hit (every FA flag of the %u bytes at 0x%08x is set)", n, a);
			diverge(p, "LVT first access", exp, "a traced value 0x%llx (header bit 0)", (unsigned long long)r.value);
			return;
		}
		/* a byte whose value the decoder knows must agree with the trace */
		for (unsigned i = 0; i < n; i++) {
			uint8_t b = (uint8_t)(r.value >> (8 * i));
			if (kbit(p->known, off + i) && m[i] != b) {
				snprintf(exp, sizeof exp, "byte 0x%02x at 0x%08x (from the binary's code or a store since P)", m[i], a + i);
				diverge(p, "LVT value", exp, "a traced value 0x%llx with byte 0x%02x there", (unsigned long long)r.value, b);
				return;
			}
		}
		int changed = 0;
		for (unsigned i = 0; i < n; i++) {
			uint8_t b = (uint8_t)(r.value >> (8 * i));
			changed |= m[i] != b;
			m[i] = b;
			kset(p->known, off + i);
			kclr(p->dmaw, off + i);
		}
		/* RAM changed behind Unicorn's back: a translation block that ran
		 * past the known code over these bytes must not be reused */
		if (changed && (p->xpage[off >> 12] || p->xpage[(off + n - 1) >> 12]))
			core_code_changed(p->uc, a, n);
		fa_mark(&p->bus.dc, a, n); /* figure 3, lines 9-11 */
	} else {
		diverge(p, "LVT stream", "a load record", "an %s record", ev_name(r.kind));
		return;
	}
	uint64_t v = 0;
	for (unsigned i = 0; i < n; i++)
		v |= (uint64_t)m[i] << (8 * i);
	add_access(p, a, n, 0, v, 0);
	fetch_event(p);
}

static uint64_t mmio_read(uc_engine *uc, uint64_t off, unsigned size, void *ctx)
{
	struct lreplayer *p = ctx;
	uint32_t addr = p->tcfg.dev_base + (uint32_t)off;
	if (p->failed || event_pending(p, "device read"))
		return 0;
	struct citcat_lvt_rec r;
	if (citcat_lvt_next(p->lvt, size, &r) != 1) {
		lvt_error(p);
		return 0;
	}
	if (r.kind != CITCAT_LVT_VALUE) {
		diverge(p, "LVT stream", "a traced value (device reads are always traced)", "an %s record",
			r.kind == CITCAT_LVT_HIT ? "FA hit" : ev_name(r.kind));
		return 0;
	}
	bus_uncached(&p->bus, addr, size, 0, r.value);
	add_access(p, addr, size, 0, r.value, 1);
	fetch_event(p);
	return r.value;
}

static void mmio_write(uc_engine *uc, uint64_t off, unsigned size, uint64_t value, void *ctx)
{
	struct lreplayer *p = ctx;
	uint32_t addr = p->tcfg.dev_base + (uint32_t)off;
	if (size < 8)
		value &= (1ull << (8 * size)) - 1;
	if (p->failed)
		return;
	bus_uncached(&p->bus, addr, size, 1, value); /* cache maintenance takes effect here */
	add_access(p, addr, size, 1, value, 1);
}

static inline void close_record(struct lreplayer *p)
{
	if (!p->cur_valid)
		return;
	p->cur_valid = 0;
	emit_record(p, &p->cur);
}

/* Applies the events due at this boundary; returns 1 when an interrupt was taken. */
static int apply_events(struct lreplayer *p, uint32_t a)
{
	while (p->ev_valid && (p->ev.kind == CITCAT_LVT_IRQ || p->ev.kind == CITCAT_LVT_DMA)) {
		const struct citcat_lvt_rec *e = &p->ev;
		if (e->bcount != p->bcount || e->pc != a) {
			if (e->bcount < p->bcount) {
				char exp[200];
				snprintf(exp, sizeof exp, "an %s at branch %llu, pc 0x%08x", ev_name(e->kind),
					 (unsigned long long)e->bcount, e->pc);
				diverge(p, e->kind == CITCAT_LVT_IRQ ? "interrupt schedule" : "DMA schedule", exp,
					"branch %llu passed without reaching pc 0x%08x", (unsigned long long)e->bcount, e->pc);
			}
			return 0;
		}
		if (e->kind == CITCAT_LVT_DMA) {
			if (e->addr < p->ram_base || (uint64_t)e->addr + e->len > (uint64_t)p->ram_base + p->ram_size ||
			    (e->addr >> p->bus.dline_shift) != ((e->addr + e->len - 1) >> p->bus.dline_shift)) {
				fail(p, p->cfg->lvt_path, CITCAT_ERR_CORRUPT, UINT64_MAX,
				     "%s: external write to 0x%08x (%u bytes) outside RAM or across a D-cache line", p->cfg->lvt_path,
				     e->addr, e->len);
				return 0;
			}
			/* the line's FA flags go with it (figure 2, external invalidation);
			 * the bytes are now unknown: the LVT does not carry DMA data */
			cache_invalidate_line(&p->bus.dc, e->addr >> p->bus.dline_shift);
			for (uint32_t i = 0; i < e->len; i++) {
				kclr(p->known, e->addr - p->ram_base + i);
				kset(p->dmaw, e->addr - p->ram_base + i);
			}
			core_code_changed(p->uc, e->addr, e->len);
			struct citcat_itrace_rec dma = {.kind = CITCAT_REC_DMA, .pc = e->addr, .word = e->len};
			emit_record(p, &dma);
			p->res->dma++;
			fetch_event(p);
			continue;
		}
		uint32_t cpsr;
		uc_reg_read(p->uc, UC_ARM_REG_CPSR, &cpsr);
		if (cpsr & ARM_CPSR_I) {
			diverge(p, "interrupt schedule", "interrupts enabled (CPSR.I = 0) for the recorded interrupt",
				"CPSR 0x%08x with interrupts masked", cpsr);
			return 0;
		}
		struct citcat_itrace_rec irq = {.kind = CITCAT_REC_IRQ, .line = e->line, .pc = a};
		emit_record(p, &irq);
		if (arm_take_irq(p->uc, a))
			fail(p, NULL, CITCAT_ERR_UNICORN, UINT64_MAX, "IRQ entry failed");
		p->res->irqs++;
		p->after_exception = 1;
		fetch_event(p);
		return 1;
	}
	return 0;
}

static int known_range(struct lreplayer *p, uint32_t addr, unsigned size)
{
	uint32_t off = addr - p->ram_base;
	for (unsigned i = 0; i < size; i++)
		if (!kbit(p->known, off + i))
			return 0;
	return 1;
}

static void hook_code(uc_engine *uc, uint64_t address, uint32_t size, void *ctx)
{
	struct lreplayer *p = ctx;
	uint32_t a = (uint32_t)address;
	if (p->failed)
		return;
	close_record(p);
	if (core_branched(a, p->expect_pc, p->after_exception))
		p->bcount++;
	p->after_exception = 0;
	p->cur_pc = a;
	p->cur_index = p->insns;
	if (p->ev_valid && p->ev.kind == CITCAT_LVT_STOP && p->insns == p->ev.st.insns) {
		if (p->bcount != p->ev.bcount) {
			char exp[200];
			snprintf(exp, sizeof exp, "branch count %llu at the end of the interval", (unsigned long long)p->ev.bcount);
			diverge(p, "LVT stream", exp, "%llu", (unsigned long long)p->bcount);
			return;
		}
		p->done = 1;
		uc_emu_stop(uc);
		return;
	}
	if (p->ev_valid && (p->ev.pc == a || p->ev.bcount < p->bcount) && (apply_events(p, a) || p->failed))
		return;
	if (size != 4 || a - p->ram_base >= p->ram_size) {
		diverge(p, "instruction fetch", "an ARM instruction in RAM", size != 4 ? "Thumb state at 0x%08x" : "a fetch from 0x%08x", a);
		return;
	}
	if (!known_range(p, a, 4)) {
		uint32_t o = a - p->ram_base;
		int dma = kbit(p->dmaw, o) || kbit(p->dmaw, o + 1) || kbit(p->dmaw, o + 2) || kbit(p->dmaw, o + 3);
		diverge(p, "memory image", "an instruction from the binary's code or stored by the core",
			dma ? "a fetch from 0x%08x, which DMA wrote: the LVT does not carry DMA data"
			    : "a fetch from 0x%08x, outside the binary's code and never stored by the core since P", a);
		return;
	}
	uint32_t word;
	memcpy(&word, p->ram + (a - p->ram_base), 4);
	p->xpage[(a - p->ram_base) >> 12] = 1;
	unsigned k = (unsigned)(p->insns % CITCAT_REPLAY_HISTORY);
	p->hist_pc[k] = a;
	p->hist_word[k] = word;
	p->insns++;
	p->expect_pc = a + 4;
	p->cur.kind = CITCAT_REC_INSN;
	p->cur.pc = a;
	p->cur.word = word;
	p->cur.n_acc = 0;
	p->cur_valid = 1;
	if (core_is_wfi(word))
		core_wfi_retire(uc, a); /* the wake-up is the next interrupt record */
	if (p->cfg->progress && (p->insns & 0xfffff) == 0 && p->cfg->progress(p->cfg->progress_ctx, p->insns, 0))
		fail(p, NULL, CITCAT_ERR_INTERRUPTED, UINT64_MAX, "interrupted after %llu instructions", (unsigned long long)p->insns);
}

static bool hook_unmapped(uc_engine *uc, uc_mem_type type, uint64_t addr, int size, int64_t value, void *ctx)
{
	diverge(ctx, "memory map", "accesses within RAM and the device window", "an access to unmapped 0x%08llx",
		(unsigned long long)addr);
	return false;
}

static void hook_intr(uc_engine *uc, uint32_t intno, void *ctx)
{
	diverge(ctx, "exception", "no exception other than the recorded interrupts", "exception %u (SVC, undefined or abort)", intno);
}

void citcat_lvt_replay_config_default(struct citcat_lvt_replay_config *c)
{
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
		rc = citcat_image_load_elf(img, cfg->image_path, &entry, p->err);
	if (rc) {
		if (!p->err->msg[0])
			citcat_errinfo_set(p->err, rc, UINT64_MAX, "%s", citcat_errstr(rc));
		p->res->err_path = cfg->image_path;
		p->failed = 2;
		citcat_image_free(img);
		return rc;
	}
	for (size_t i = 0; i < citcat_image_segments(img); i++) {
		uint64_t addr, len;
		const uint8_t *data;
		citcat_image_segment(img, i, &addr, &len, &data);
		if (addr < p->ram_base || addr + len > (uint64_t)p->ram_base + p->ram_size) {
			citcat_image_free(img);
			return fail(p, cfg->image_path, CITCAT_ERR_CORRUPT, UINT64_MAX, "%s: segment at 0x%08llx lies outside RAM",
				    cfg->image_path, (unsigned long long)addr);
		}
		memcpy(p->ram + (addr - p->ram_base), data, (size_t)len);
	}
	citcat_image_free(img);
	struct citcat_lvt_range code[MAX_CODE];
	struct citcat_errinfo e = {0};
	int n = citcat_lvt_code_ranges(cfg->image_path, code, MAX_CODE, &e);
	if (n < 0 || n > MAX_CODE) {
		if (n > MAX_CODE)
			citcat_errinfo_set(&e, CITCAT_ERR_LIMIT, UINT64_MAX, "more than %d executable segments", MAX_CODE);
		input_error(p, cfg->image_path, &e);
		return p->err->code;
	}
	for (int i = 0; i < n; i++) {
		if (code[i].addr < p->ram_base || (uint64_t)code[i].addr + code[i].len > (uint64_t)p->ram_base + p->ram_size)
			return fail(p, cfg->image_path, CITCAT_ERR_CORRUPT, UINT64_MAX, "%s: code outside RAM", cfg->image_path);
		for (uint32_t b = 0; b < code[i].len; b++)
			kset(p->known, code[i].addr - p->ram_base + b);
	}
	if (citcat_lvt_code_hash(p->ram, p->ram_base, code, n) != want_hash)
		return fail(p, cfg->image_path, CITCAT_ERR_CORRUPT, UINT64_MAX,
			    "%s is not the firmware %s was recorded from, or its code changed before the trace start point "
			    "(code hash differs)", cfg->image_path, cfg->lvt_path);
	return 0;
}

int citcat_lvt_replay_run(const struct citcat_lvt_replay_config *cfg, struct citcat_replay_result *res,
			  struct citcat_errinfo *err)
{
	struct citcat_errinfo dummy;
	if (!err)
		err = &dummy;
	memset(err, 0, sizeof *err);
	memset(res, 0, sizeof *res);
	if (!cfg || cfg->size != sizeof *cfg || !cfg->lvt_path || !cfg->image_path)
		return CITCAT_ERR_INVAL;
	struct lreplayer *p = calloc(1, sizeof *p);
	if (!p)
		return CITCAT_ERR_NOMEM;
	p->cfg = cfg;
	p->res = res;
	p->err = err;
	double t0 = replay_now_s();
	int rc = 0;
	struct citcat_lvt_rec start;

	if ((rc = citcat_lvt_reader_open(&p->lvt, cfg->lvt_path))) {
		input_error(p, cfg->lvt_path, citcat_lvt_reader_error(p->lvt));
		goto out;
	}
	p->tcfg = *citcat_lvt_config(p->lvt);
	p->ram_base = p->tcfg.ram_base;
	p->ram_size = p->tcfg.ram_size;
	rc = citcat_lvt_next(p->lvt, 0, &start);
	if (rc < 0) {
		input_error(p, cfg->lvt_path, citcat_lvt_reader_error(p->lvt));
		goto out;
	}
	if (rc == 0) {
		rc = fail(p, cfg->lvt_path, CITCAT_ERR_EMPTY, UINT64_MAX,
			  "%s holds no traced interval (the firmware never reached a trace start point)", cfg->lvt_path);
		goto out;
	}
	rc = 0;
	if (cfg->oracle && (rc = citcat_itrace_reader_open(&p->orc, cfg->oracle))) {
		input_error(p, cfg->oracle, citcat_itrace_reader_error(p->orc));
		goto out;
	}
	if (p->orc) /* DMA records are compared too */
		citcat_itrace_reader_dma(p->orc, 1);
	p->ram = aligned_alloc(4096, p->ram_size);
	p->known = calloc(1, p->ram_size / 8 + 1);
	p->dmaw = calloc(1, p->ram_size / 8 + 1);
	p->xpage = calloc(1, p->ram_size / 4096 + 1);
	if (!p->ram || !p->known || !p->dmaw || !p->xpage) {
		rc = fail(p, NULL, CITCAT_ERR_NOMEM, UINT64_MAX, "out of memory");
		goto out;
	}
	memset(p->ram, 0, p->ram_size);
	if ((rc = load_binary(p, start.code_hash)))
		goto out;
	struct bus_sink sink = {sink_event, p};
	if ((rc = bus_init(&p->bus, &p->tcfg, p->ram, sink)) || (rc = cache_fa_enable(&p->bus.dc, citcat_lvt_gran_shift(p->lvt)))) {
		fail(p, cfg->lvt_path, rc, UINT64_MAX, "%s: unusable cache configuration", cfg->lvt_path);
		goto out;
	}
	p->bus.dc.rng = start.dc_rng;
	uc_err ue = core_open(&p->uc, p->ram_base, p->ram_size, p->ram, p->tcfg.dev_base, p->tcfg.dev_size, mmio_read,
			      mmio_write, p);
	/* MEM_READ, before the read: the hook puts the value where the core loads it */
	struct core_hooks hooks = {hook_code, hook_mem, UC_HOOK_MEM_WRITE | UC_HOOK_MEM_READ, hook_unmapped, hook_intr};
	if (!ue)
		ue = core_add_hooks(p->uc, &hooks, p, p->ram_base, p->ram_size);
	struct arm_state regs;
	memcpy(regs.slot, start.regs, sizeof regs.slot);
	if (!ue)
		ue = (uc_err)arm_set_state(p->uc, &regs);
	if (ue) {
		rc = fail(p, NULL, CITCAT_ERR_UNICORN, UINT64_MAX, "Unicorn set-up failed: %s", uc_strerror(ue));
		goto out;
	}
	if (cfg->out_path && (rc = citcat_itrace_writer_open(&p->out, cfg->out_path, CITCAT_ISA_ARM_A32))) {
		fail(p, cfg->out_path, rc, UINT64_MAX, "%s: cannot create the instruction trace", cfg->out_path);
		goto out;
	}
	fetch_event(p);
	p->expect_pc = regs.slot[ARM_SLOT_PC];
	uint32_t pc = p->expect_pc;
	while (!p->failed && !p->done) {
		ue = uc_emu_start(p->uc, pc, CORE_UNTIL, 0, 0);
		if (p->failed || p->done)
			break;
		uc_reg_read(p->uc, UC_ARM_REG_PC, &pc);
		if (ue) {
			diverge(p, "execution", "the recorded run to continue", "Unicorn stopped at 0x%08x: %s", pc, uc_strerror(ue));
			break;
		}
	}
	if (!p->failed) {
		/* nothing may follow STOP, up to the container's end marker */
		int k = citcat_lvt_peek(p->lvt);
		if (k < 0)
			lvt_error(p);
		else if (k > 0)
			fail(p, cfg->lvt_path, CITCAT_ERR_CORRUPT, UINT64_MAX, "%s: records follow the STOP record", cfg->lvt_path);
	}
	if (!p->failed && p->orc) {
		int r2 = citcat_itrace_next(p->orc, &p->orec);
		if (r2 == 1)
			diverge(p, "instruction trace", "more instructions (the oracle goes on)", "the end of the replay");
		else if (r2 < 0)
			input_error(p, cfg->oracle, citcat_itrace_reader_error(p->orc));
	}
	if (p->failed == 1) {
		rc = CITCAT_ERR_DIVERGED;
	} else if (p->failed) {
		rc = err->code ? err->code : CITCAT_ERR_INTERNAL;
	} else if (p->out) {
		rc = citcat_itrace_writer_close(p->out);
		p->out = NULL;
		if (rc)
			fail(p, cfg->out_path, rc, UINT64_MAX, "%s: writing the instruction trace failed", cfg->out_path);
	}
out:
	if (p->failed == 2 && !rc)
		rc = err->code ? err->code : CITCAT_ERR_INTERNAL;
	res->insns = p->insns;
	res->seconds = replay_now_s() - t0;
	citcat_itrace_writer_abort(p->out);
	citcat_itrace_reader_close(p->orc);
	citcat_lvt_reader_close(p->lvt);
	if (p->uc)
		uc_close(p->uc);
	if (p->bus.ic.tag)
		bus_fini(&p->bus);
	free(p->ram);
	free(p->known);
	free(p->dmaw);
	free(p->xpage);
	free(p);
	return rc;
}
