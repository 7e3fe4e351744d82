/* The trace module's first-access mode: figure 2 of the data-trace-filtering
 * paper on the capture model's D-cache, plus what the paper leaves out and a
 * decoder needs to stay exact (interrupts and external writes at their
 * instruction boundary, device reads, the register dump at P). */
#include "lvt_tm.h"
#include "container.h"
#include "citcat_regs.h"
#include "fa.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define QUEUE_MAX 65536 /* records held back between P and the end of the register dump */
#define MAX_CODE 32

struct lvt_tm {
	struct citcat_lvt_writer *w;
	const char *path;
	struct cache *dc;
	const uint8_t *ram;
	uint32_t ram_base, ram_size;
	struct citcat_lvt_range code[MAX_CODE];
	int ncode;
	int synced, dumping, started, stopped;
	struct citcat_lvt_rec start;
	struct citcat_lvt_rec *q; /* records between P and DUMP_DONE, in order (grown on demand) */
	size_t nq, capq;
	struct citcat_lvt_stats st;
	void (*raw)(void *ctx, const uint8_t *b, unsigned n);
	void *raw_ctx;
	struct citcat_errinfo err;
};

static void tm_fail(struct lvt_tm *tm, int code, const char *fmt, const char *detail)
{
	if (tm->err.code)
		return;
	citcat_errinfo_set(&tm->err, code, UINT64_MAX, fmt, tm->path, detail);
}

static void put_rec(struct lvt_tm *tm, const struct citcat_lvt_rec *r)
{
	if (tm->err.code)
		return;
	if (tm->dumping) {
		if (tm->nq == tm->capq) {
			size_t cap = tm->capq ? 2 * tm->capq : 64;
			struct citcat_lvt_rec *q = cap <= QUEUE_MAX ? realloc(tm->q, cap * sizeof *q) : NULL;
			if (!q) {
				tm_fail(tm, CITCAT_ERR_LIMIT, "%s: %s", "more than 65536 records before the register dump completed");
				return;
			}
			tm->q = q;
			tm->capq = cap;
		}
		tm->q[tm->nq++] = *r;
		return;
	}
	int rc;
	if (r->kind == CITCAT_LVT_HIT)
		rc = citcat_lvt_put_hit(tm->w);
	else if (r->kind == CITCAT_LVT_VALUE)
		rc = citcat_lvt_put_value(tm->w, r->value, r->size);
	else
		rc = citcat_lvt_put_event(tm->w, r);
	if (rc)
		tm_fail(tm, rc, "%s: writing the LVT: %s", citcat_lvt_writer_error(tm->w)->msg);
}

int lvt_tm_open(struct lvt_tm **out, const char *path, const struct citcat_target_config *cfg, unsigned gran_shift,
		const char *elf, struct cache *dc, const uint8_t *ram, void (*raw)(void *ctx, const uint8_t *b, unsigned n),
		void *raw_ctx, struct citcat_errinfo *err)
{
	*out = NULL;
	struct lvt_tm *tm = calloc(1, sizeof *tm);
	if (!tm)
		return citcat_errinfo_set(err, CITCAT_ERR_NOMEM, UINT64_MAX, "out of memory");
	tm->path = path;
	tm->dc = dc;
	tm->ram = ram;
	tm->ram_base = cfg->ram_base;
	tm->ram_size = cfg->ram_size;
	tm->raw = raw;
	tm->raw_ctx = raw_ctx;
	int n = citcat_lvt_code_ranges(elf, tm->code, MAX_CODE, err);
	if (n < 0) {
		free(tm);
		return n;
	}
	if (n > MAX_CODE) {
		free(tm);
		return citcat_errinfo_set(err, CITCAT_ERR_LIMIT, UINT64_MAX, "%s: more than %d executable segments", elf, MAX_CODE);
	}
	tm->ncode = n;
	for (int i = 0; i < n; i++)
		if (tm->code[i].addr < tm->ram_base || (uint64_t)tm->code[i].addr + tm->code[i].len > (uint64_t)tm->ram_base + tm->ram_size) {
			free(tm);
			return citcat_errinfo_set(err, CITCAT_ERR_TARGET, UINT64_MAX, "%s: code segment outside RAM", elf);
		}
	int rc = cache_fa_enable(dc, gran_shift);
	if (rc) {
		free(tm);
		return citcat_errinfo_set(err, rc, UINT64_MAX, "%s: %s", path, citcat_errstr(rc));
	}
	rc = citcat_lvt_writer_open(&tm->w, path, cfg, gran_shift);
	if (rc) {
		free(tm);
		return citcat_errinfo_set(err, rc, UINT64_MAX, "%s", cc_writer_open_error()->msg);
	}
	*out = tm;
	return 0;
}

void lvt_tm_sync(struct lvt_tm *tm)
{
	tm->synced = 1;
	tm->dumping = 1;
	memset(&tm->st, 0, sizeof tm->st);
	memset(&tm->start, 0, sizeof tm->start);
	tm->start.kind = CITCAT_LVT_START;
	tm->start.code_hash = citcat_lvt_code_hash(tm->ram, tm->ram_base, tm->code, tm->ncode);
	/* replacement state the empty cache does not reset: the random policy's generator */
	tm->start.dc_rng = tm->dc->rng;
}

static void raw_value(struct lvt_tm *tm, uint64_t v, unsigned size)
{
	tm->st.loads++;
	tm->st.raw_bytes += size;
	if (tm->raw) {
		uint8_t b[8];
		for (unsigned i = 0; i < size; i++)
			b[i] = (uint8_t)(v >> (8 * i));
		tm->raw(tm->raw_ctx, b, size);
	}
}

void lvt_tm_load(struct lvt_tm *tm, uint32_t addr, unsigned size)
{
	/* the value the core is about to load: the model is coherent, so RAM holds it */
	uint64_t v = 0;
	const uint8_t *p = tm->ram + (addr - tm->ram_base);
	for (unsigned i = 0; i < size; i++)
		v |= (uint64_t)p[i] << (8 * i);
	raw_value(tm, v, size);
	int hit = fa_load_hit(tm->dc, addr, size);
	if (hit) { /* figure 2, line 4 */
		tm->st.hits++;
	} else { /* lines 6-8 (a miss cleared the new line's flags in the cache model) */
		tm->st.value_bytes += size;
		fa_mark(tm->dc, addr, size);
	}
	if (!tm->dumping && !tm->err.code) { /* the common case, without building a record */
		int rc = hit ? citcat_lvt_put_hit(tm->w) : citcat_lvt_put_value(tm->w, v, size);
		if (rc)
			tm_fail(tm, rc, "%s: writing the LVT: %s", citcat_lvt_writer_error(tm->w)->msg);
		return;
	}
	struct citcat_lvt_rec r = {.kind = (uint8_t)(hit ? CITCAT_LVT_HIT : CITCAT_LVT_VALUE), .size = (uint8_t)size, .value = v};
	put_rec(tm, &r);
}

void lvt_tm_store(struct lvt_tm *tm, uint32_t addr, unsigned size) { fa_mark(tm->dc, addr, size); }

void lvt_tm_uread(struct lvt_tm *tm, uint32_t value, unsigned size)
{
	raw_value(tm, value, size);
	tm->st.ureads++;
	tm->st.value_bytes += size;
	struct citcat_lvt_rec r = {.kind = CITCAT_LVT_VALUE, .size = (uint8_t)size, .value = value};
	put_rec(tm, &r);
}

void lvt_tm_uwrite(struct lvt_tm *tm, uint32_t off, uint32_t value)
{
	if (!tm->dumping)
		return;
	const uint32_t reg0 = CITCAT_DEV_OFF(CITCAT_TRACE_REG(0));
	if (off >= reg0 && off < reg0 + 4 * CITCAT_LVT_REGS) {
		tm->start.regs[(off - reg0) / 4] = value;
		return;
	}
	if (off == reg0 + 4 * CITCAT_LVT_REGS) { /* slot 39, SCTLR (TARGET.md): TE is what the decoder needs */
		tm->start.sctlr = value & CITCAT_LVT_SCTLR_TE;
		return;
	}
	if (off != CITCAT_DEV_OFF(CITCAT_TRACE_DUMP_DONE))
		return;
	/* DUMP_DONE: the START record goes first, then what was held back */
	tm->dumping = 0;
	tm->started = 1;
	put_rec(tm, &tm->start);
	for (size_t i = 0; i < tm->nq; i++)
		put_rec(tm, &tm->q[i]);
	tm->nq = 0;
}

void lvt_tm_irq(struct lvt_tm *tm, unsigned line, uint32_t epc, uint64_t bcount)
{
	tm->st.irqs++;
	struct citcat_lvt_rec r = {.kind = CITCAT_LVT_IRQ, .line = (uint8_t)line, .pc = epc, .bcount = bcount};
	put_rec(tm, &r);
}

void lvt_tm_dma(struct lvt_tm *tm, uint32_t addr, uint32_t len, uint64_t bcount, uint32_t pc)
{
	tm->st.dmas++;
	struct citcat_lvt_rec r = {.kind = CITCAT_LVT_DMA, .addr = addr, .len = len, .pc = pc, .bcount = bcount};
	put_rec(tm, &r);
}

void lvt_tm_stop(struct lvt_tm *tm, unsigned reason, uint64_t insns, uint64_t bcount)
{
	if (tm->stopped || !tm->synced)
		return;
	tm->stopped = 1;
	if (tm->dumping) {
		tm_fail(tm, CITCAT_ERR_TARGET, "%s: %s",
			"the trace stopped before the driver's register dump completed (no DUMP_DONE)");
		return;
	}
	tm->st.insns = insns;
	tm->st.bcount = bcount;
	tm->st.bits = citcat_lvt_writer_bits(tm->w);
	struct citcat_lvt_rec r = {.kind = CITCAT_LVT_STOP, .line = (uint8_t)reason, .bcount = bcount, .st = tm->st};
	put_rec(tm, &r);
}

int lvt_tm_close(struct lvt_tm *tm, struct citcat_lvt_stats *stats, uint64_t *file_bytes, struct citcat_errinfo *err)
{
	int rc = tm->err.code;
	if (!rc && tm->synced && !tm->stopped)
		tm_fail(tm, CITCAT_ERR_INTERNAL, "%s: %s", "the trace never stopped"), rc = tm->err.code;
	if (stats)
		*stats = tm->st;
	if (rc) {
		*err = tm->err;
		citcat_lvt_writer_abort(tm->w);
	} else {
		struct citcat_errinfo le = *citcat_lvt_writer_error(tm->w); /* an earlier write's failure */
		rc = citcat_lvt_writer_close(tm->w);
		if (rc)
			citcat_errinfo_set(err, rc, UINT64_MAX, "%s", le.code && le.msg[0] ? le.msg : cc_writer_open_error()->msg);
		struct stat sb;
		if (!rc && file_bytes && strcmp(tm->path, "-") != 0 && stat(tm->path, &sb) == 0)
			*file_bytes = (uint64_t)sb.st_size;
	}
	free(tm->q);
	free(tm);
	return rc;
}

void lvt_tm_abort(struct lvt_tm *tm)
{
	if (!tm)
		return;
	citcat_lvt_writer_abort(tm->w);
	free(tm->q);
	free(tm);
}
