#include "bus.h"

#include <string.h>

int bus_init(struct bus *b, const struct citcat_target_config *cfg, uint8_t *ram, struct bus_sink sink)
{
	memset(b, 0, sizeof *b);
	int rc = cache_init(&b->ic, &cfg->icache);
	if (rc)
		return rc;
	rc = cache_init(&b->dc, &cfg->dcache);
	if (rc) {
		cache_fini(&b->ic);
		return rc;
	}
	b->cfg = *cfg;
	b->ram = ram;
	b->ram_base = cfg->ram_base;
	b->ram_size = cfg->ram_size;
	b->iline_shift = b->ic.line_shift;
	b->dline_shift = b->dc.line_shift;
	b->sink = sink;
	return 0;
}

void bus_fini(struct bus *b)
{
	cache_fini(&b->ic);
	cache_fini(&b->dc);
}

static void emit(struct bus *b, struct citcat_cat_event *ev)
{
	ev->cycle = b->cycle;
	b->sink.event(b->sink.ctx, ev);
}

static void emit_line(struct bus *b, unsigned kind, uint32_t addr, uint32_t len)
{
	struct citcat_cat_event ev = {.kind = (uint8_t)kind, .addr = addr, .len = len, .data = b->ram + (addr - b->ram_base)};
	emit(b, &ev);
}

static void writeback_line(struct bus *b, uint32_t dln)
{
	b->cycle += b->cfg.pen_wb;
	emit_line(b, CITCAT_CAT_WRITEBACK, dln << b->dline_shift, b->cfg.dcache.line);
}

static void wb_cb(void *ctx, uint32_t ln) { writeback_line(ctx, ln); }

void bus_ifetch_slow(struct bus *b, uint32_t addr)
{
	uint32_t ln = addr >> b->iline_shift;
	struct cache_res r;
	if (b->mode != BUS_MODEL) {
		b->last_iline = ln;
		b->last_iline_valid = 1;
		return;
	}
	cache_access(&b->ic, ln, 0, 1, 0, &r);
	b->last_iline = ln;
	b->last_iline_valid = 1;
	if (r.hit)
		return;
	/* The I side snoops the D cache: dirty D lines overlapping the I line
	 * are written back before the fill (TARGET.md, Caches). */
	uint32_t iaddr = ln << b->iline_shift, ilen = b->cfg.icache.line;
	for (uint32_t a = iaddr & ~(b->cfg.dcache.line - 1); a < iaddr + ilen; a += b->cfg.dcache.line) {
		int dirty;
		uint32_t dln = a >> b->dline_shift;
		if (cache_probe(&b->dc, dln, &dirty) && dirty) {
			writeback_line(b, dln);
			cache_clean_line(&b->dc, dln);
		}
	}
	b->cycle += b->cfg.pen_miss;
	emit_line(b, CITCAT_CAT_FILL_I, iaddr, ilen);
}

static void data_line(struct bus *b, uint32_t ln, int is_write, uint32_t addr, unsigned size, uint64_t value)
{
	struct cache_res r;
	int wt = b->cfg.dcache.write_through;
	cache_access(&b->dc, ln, is_write, !(is_write && wt), is_write && !wt, &r);
	if (r.hit && !(is_write && wt))
		return;
	if (!r.hit && !(is_write && wt)) {
		if (r.evicted_dirty)
			writeback_line(b, r.victim_line);
		b->cycle += b->cfg.pen_miss;
		emit_line(b, CITCAT_CAT_FILL_D, ln << b->dline_shift, b->cfg.dcache.line);
		return;
	}
	/* write-through store: to the bus whether or not it hit */
	b->cycle += b->cfg.pen_wb;
	struct citcat_cat_event ev = {.kind = CITCAT_CAT_WRITE, .addr = addr, .size = (uint8_t)size, .value = value};
	emit(b, &ev);
}

void bus_data_slow(struct bus *b, uint32_t addr, unsigned size, int is_write, uint64_t value)
{
	if (b->mode != BUS_MODEL)
		return;
	uint32_t first = addr >> b->dline_shift, last = (addr + size - 1) >> b->dline_shift;
	if (first == last) {
		data_line(b, first, is_write, addr, size, value);
		return;
	}
	/* An unaligned access spanning two lines: lower line first; in
	 * write-through mode the store is split at the line boundary. */
	uint32_t split = last << b->dline_shift;
	unsigned lo = split - addr;
	data_line(b, first, is_write, addr, lo, value & ((1ull << (8 * lo)) - 1));
	data_line(b, last, is_write, split, size - lo, value >> (8 * lo));
}

void bus_uncached(struct bus *b, uint32_t addr, unsigned size, int is_write, uint64_t value)
{
	if (b->mode != BUS_MODEL) {
		if (b->mode == BUS_LOG)
			bus_log_put2(b, BUS_EV_UNCACHED | size << 8 | (unsigned)is_write << 12, addr, value);
		/* the one piece of model state kept without the model */
		if (is_write && addr - b->cfg.dev_base == BUS_INV_I)
			b->last_iline_valid = 0;
		return;
	}
	b->cycle += b->cfg.pen_uncached;
	struct citcat_cat_event ev = {.kind = (uint8_t)(is_write ? CITCAT_CAT_UWRITE : CITCAT_CAT_UREAD), .addr = addr,
				      .size = (uint8_t)size, .value = value};
	emit(b, &ev);
	if (!is_write || (addr - b->cfg.dev_base) < BUS_CACHECTL || (addr - b->cfg.dev_base) > BUS_CLEAN_D)
		return;
	switch (addr - b->cfg.dev_base) {
	case BUS_INV_I:
		cache_invalidate_all(&b->ic);
		b->last_iline_valid = 0;
		break;
	case BUS_INV_D:
		cache_invalidate_all(&b->dc);
		break;
	case BUS_CLEAN_INV_D:
		cache_clean_all(&b->dc, 1, wb_cb, b);
		break;
	case BUS_CLEAN_D:
		cache_clean_all(&b->dc, 0, wb_cb, b);
		break;
	}
}

void bus_dma(struct bus *b, uint32_t addr, const uint8_t *data, uint32_t len, uint64_t bcount, uint32_t pc)
{
	uint32_t dln = addr >> b->dline_shift;
	if (b->mode == BUS_MODEL && cache_invalidate_line(&b->dc, dln))
		writeback_line(b, dln);
	for (uint32_t a = addr & ~(b->cfg.icache.line - 1); a < addr + len; a += b->cfg.icache.line) {
		uint32_t iln = a >> b->iline_shift;
		if (b->mode == BUS_MODEL)
			cache_invalidate_line(&b->ic, iln);
		if (b->last_iline_valid && b->last_iline == iln)
			b->last_iline_valid = 0;
	}
	if (b->mode == BUS_MODEL) {
		struct citcat_cat_event ev = {.kind = CITCAT_CAT_DMA, .addr = addr, .len = len, .data = data, .bcount = bcount, .pc = pc};
		emit(b, &ev);
	} else if (b->mode == BUS_LOG && !*b->log_halt) {
		/* DMA: {addr, kind | len << 8}, {bcount}, {pc, 0}, then the
		 * bytes, 8 a slot (at most 4096: the AES's limit, 515 slots) */
		unsigned need = 3 + (len + 7) / 8;
		if ((size_t)(b->log_end - b->log_pos) < need)
			b->log_full(b, need);
		struct bus_log_ev *e = b->log_pos;
		e[0] = (struct bus_log_ev){addr, BUS_EV_DMA | len << 8};
		e[1] = (struct bus_log_ev){(uint32_t)bcount, (uint32_t)(bcount >> 32)};
		e[2] = (struct bus_log_ev){pc, 0};
		memcpy(&e[3], data, len);
		b->log_pos += need;
	}
	memcpy(b->ram + (addr - b->ram_base), data, len);
	if (b->code_changed)
		b->code_changed(b->code_ctx, addr, len);
}

void bus_irq(struct bus *b, unsigned line, uint32_t epc, uint64_t bcount)
{
	if (b->mode != BUS_MODEL) {
		if (b->mode == BUS_LOG) /* {epc, kind | line << 8}, {bcount} */
			bus_log_put2(b, BUS_EV_IRQ | line << 8, epc, bcount);
		return;
	}
	struct citcat_cat_event ev = {.kind = CITCAT_CAT_IRQ, .line = (uint8_t)line, .pc = epc, .bcount = bcount};
	emit(b, &ev);
}

void bus_marker(struct bus *b, struct citcat_cat_event *ev)
{
	if (b->mode == BUS_MODEL) {
		emit(b, ev);
	} else if (b->mode == BUS_LOG && !*b->log_halt) {
		/* only the Cortex-M7's exception entry (replay_m7.c) is a marker
		 * a replay reports: {pc, kind}, {bcount}, {exception number} */
		if (b->log_end - b->log_pos < 3)
			b->log_full(b, 3);
		b->log_pos[0] = (struct bus_log_ev){ev->pc, BUS_EV_EXC};
		b->log_pos[1] = (struct bus_log_ev){(uint32_t)ev->bcount, (uint32_t)(ev->bcount >> 32)};
		b->log_pos[2] = (struct bus_log_ev){(uint32_t)ev->value, (uint32_t)(ev->value >> 32)};
		b->log_pos += 3;
	}
}
