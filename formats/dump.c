/* Record dumpers: see dump.h and DUMP.md.  Each walks its file with the
 * format's own streaming reader, so a dump checks exactly what a reader
 * checks, and turns each record into named fields; the CLI prints them. */
#include "dump.h"
#include "addr.h"
#include "aes.h"
#include "cat.h"
#include "ims.h"
#include "itrace.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROGRESS_EVERY 4096u

/* The walk shared by every dumper: which records to hand out, and when to
 * stop. */
struct walk {
	const struct citcat_dump_opts *o;
	const struct citcat_dump_sink *s;
	uint64_t n;   /* number of the record being read */
	uint64_t out; /* records handed out */
	struct citcat_dump_rec r;
};

static int walk_begin(struct walk *w, const struct citcat_dump_opts *o, const struct citcat_dump_sink *s,
		      const struct citcat_dump_schema *sc)
{
	memset(w, 0, sizeof *w);
	w->o = o;
	w->s = s;
	if (!o || o->size < sizeof *o || !s || !s->record)
		return CITCAT_ERR_INVAL;
	return s->begin ? s->begin(s->ctx, sc) : 0;
}

/* True once COUNT records were handed out: the dumper stops reading. */
static int walk_done(const struct walk *w) { return w->out >= w->o->count; }

/* Is record W->N one to hand out?  Also reports progress. */
static int walk_want(struct walk *w, int *rc)
{
	*rc = 0;
	if (w->s->progress && w->n && w->n % PROGRESS_EVERY == 0)
		*rc = w->s->progress(w->s->ctx, w->n);
	if (*rc)
		return 0;
	if (w->n < w->o->from)
		return 0;
	w->r.rec = w->n;
	w->r.n = 0;
	return 1;
}

static int walk_emit(struct walk *w)
{
	w->out++;
	return w->s->record(w->s->ctx, &w->r);
}

static void fu(struct walk *w, unsigned col, uint64_t v)
{
	w->r.f[w->r.n++] = (struct citcat_dump_field){.col = (uint8_t)col, .type = CITCAT_DUMP_UINT, .u = v};
}
static void fx(struct walk *w, unsigned col, uint64_t v, unsigned width)
{
	w->r.f[w->r.n++] = (struct citcat_dump_field){.col = (uint8_t)col, .type = CITCAT_DUMP_HEX, .width = (uint8_t)width, .u = v};
}
static void fs(struct walk *w, unsigned col, const char *s)
{
	w->r.f[w->r.n++] = (struct citcat_dump_field){.col = (uint8_t)col, .type = CITCAT_DUMP_STR, .s = s};
}
static void fb(struct walk *w, unsigned col, const uint8_t *d, size_t len)
{
	w->r.f[w->r.n++] = (struct citcat_dump_field){.col = (uint8_t)col, .type = CITCAT_DUMP_BYTES, .data = d, .len = len};
}

/* "exit", "command", "insn-limit", "fault", "wfi-deadlock", "interrupted" */
static const char *stop_name(unsigned r) { return citcat_stop_reason_name(r); }

/* ---- CAT ---- */

enum { CC_CYCLE = 2, CC_ADDR, CC_SIZE, CC_VALUE, CC_LEN, CC_LINE, CC_BCOUNT, CC_PC, CC_GI, CC_GD, CC_REASON,
       CC_INSNS, CC_CYCLES, CC_DATA, CC_N };
static const char *const cat_cols[CC_N] = {"rec", "kind", "cycle", "addr", "size", "value", "len", "line",
					   "bcount", "pc", "gi", "gd", "reason", "insns", "cycles", "data"};

int citcat_dump_cat(const char *path, const struct citcat_dump_opts *o, const struct citcat_dump_sink *s,
		    struct citcat_errinfo *err)
{
	struct citcat_cat_reader *r;
	int rc = citcat_cat_reader_open(&r, path);
	if (rc) {
		if (err && r)
			*err = *citcat_cat_reader_error(r);
		citcat_cat_reader_close(r);
		return rc;
	}
	int ts = citcat_cat_config(r)->timestamps != 0;
	struct citcat_dump_schema sc = {"cat", CITCAT_CAT_VERSION, CC_N, cat_cols};
	struct walk w;
	struct citcat_cat_event ev;
	if ((rc = walk_begin(&w, o, s, &sc)) != 0)
		goto out;
	for (; !walk_done(&w); w.n++) {
		if ((rc = citcat_cat_next(r, &ev)) <= 0) {
			if (rc < 0 && err)
				*err = *citcat_cat_reader_error(r);
			break;
		}
		if (!walk_want(&w, &rc)) {
			if (rc)
				break;
			continue;
		}
		w.r.kind = citcat_cat_kind_name(ev.kind);
		if (ts && ev.kind != CITCAT_CAT_STOP) /* STOP's cycle field holds its total (cat.h) */
			fu(&w, CC_CYCLE, ev.cycle);
		switch (ev.kind) {
		case CITCAT_CAT_FILL_I:
		case CITCAT_CAT_FILL_D:
		case CITCAT_CAT_WRITEBACK:
			fx(&w, CC_ADDR, ev.addr, 8);
			fu(&w, CC_LEN, ev.len);
			fb(&w, CC_DATA, ev.data, ev.len);
			break;
		case CITCAT_CAT_WRITE:
		case CITCAT_CAT_UREAD:
		case CITCAT_CAT_UWRITE:
			fx(&w, CC_ADDR, ev.addr, 8);
			fu(&w, CC_SIZE, ev.size);
			fx(&w, CC_VALUE, ev.value, 2u * ev.size);
			break;
		case CITCAT_CAT_DMA:
			fx(&w, CC_ADDR, ev.addr, 8);
			fu(&w, CC_LEN, ev.len);
			fu(&w, CC_BCOUNT, ev.bcount);
			fx(&w, CC_PC, ev.pc, 8);
			fb(&w, CC_DATA, ev.data, ev.len);
			break;
		case CITCAT_CAT_IRQ:
			fu(&w, CC_LINE, ev.line);
			fu(&w, CC_BCOUNT, ev.bcount);
			fx(&w, CC_PC, ev.pc, 8);
			break;
		case CITCAT_CAT_SYNC:
			fx(&w, CC_PC, ev.pc, 8);
			fx(&w, CC_GI, ev.repl_state[0], 8);
			fx(&w, CC_GD, ev.repl_state[1], 8);
			break;
		case CITCAT_CAT_STOP:
			fu(&w, CC_BCOUNT, ev.bcount);
			fs(&w, CC_REASON, stop_name(ev.line));
			fu(&w, CC_INSNS, ev.insns);
			fu(&w, CC_CYCLES, ev.cycle);
			if (ev.line == CITCAT_STOP_FAULT) { /* the fault kind, its PC and address */
				fu(&w, CC_VALUE, ev.value);
				fx(&w, CC_PC, ev.pc, 8);
				fx(&w, CC_ADDR, ev.addr, 8);
			}
			break;
		default: /* START */
			break;
		}
		if ((rc = walk_emit(&w)) != 0)
			break;
	}
out:
	citcat_cat_reader_close(r);
	return rc < 0 ? rc : 0;
}

/* ---- itrace ---- */

enum { IC_INSN = 2, IC_PC, IC_WORD, IC_LINE, IC_ACC, IC_N };
static const char *const itrace_cols[IC_N] = {"rec", "kind", "insn", "pc", "word", "line", "accesses"};

/* "w4@0x40000f40=0x54524331;r1@...": direction, size, address, value. */
static void format_accesses(const struct citcat_itrace_rec *rec, char *buf, size_t cap)
{
	size_t k = 0;
	buf[0] = 0;
	for (uint32_t i = 0; i < rec->n_acc && k < cap; i++) {
		const struct citcat_access *a = &rec->acc[i];
		int n = snprintf(buf + k, cap - k, "%s%c%u%s@0x%08llx=0x%0*llx", i ? ";" : "", a->write ? 'w' : 'r', a->size,
				 a->uncached ? "u" : "", (unsigned long long)a->addr, 2 * a->size,
				 (unsigned long long)a->value);
		if (n < 0)
			break;
		k += (size_t)n;
	}
}

struct itrace_dump {
	struct citcat_itrace_rec rec;
	char acc[CITCAT_ITRACE_MAX_ACC * 48];
};

int citcat_dump_itrace(const char *path, const struct citcat_dump_opts *o, const struct citcat_dump_sink *s,
		       struct citcat_errinfo *err)
{
	struct citcat_itrace_reader *r;
	int rc = citcat_itrace_reader_open(&r, path);
	if (rc) {
		if (err && r)
			*err = *citcat_itrace_reader_error(r);
		citcat_itrace_reader_close(r);
		return rc;
	}
	citcat_itrace_reader_dma(r, 1); /* every record, DMA transfers too */
	struct itrace_dump *d = malloc(sizeof *d);
	struct citcat_dump_schema sc = {"itrace", CITCAT_ITRACE_VERSION, IC_N, itrace_cols};
	struct walk w;
	uint64_t insn = 0;
	if (!d) {
		rc = CITCAT_ERR_NOMEM;
		goto out;
	}
	if ((rc = walk_begin(&w, o, s, &sc)) != 0)
		goto out;
	for (; !walk_done(&w); w.n++) {
		if ((rc = citcat_itrace_next(r, &d->rec)) <= 0) {
			if (rc < 0 && err)
				*err = *citcat_itrace_reader_error(r);
			break;
		}
		int is_insn = d->rec.kind == CITCAT_REC_INSN;
		if (!walk_want(&w, &rc)) {
			insn += (uint64_t)is_insn;
			if (rc)
				break;
			continue;
		}
		/* an interrupt entry's insn is the index of the handler's first instruction */
		fu(&w, IC_INSN, insn);
		fx(&w, IC_PC, d->rec.pc, 8);
		if (is_insn) {
			w.r.kind = "insn";
			fx(&w, IC_WORD, d->rec.word, 8);
			if (d->rec.n_acc) {
				format_accesses(&d->rec, d->acc, sizeof d->acc);
				fs(&w, IC_ACC, d->acc);
			}
			insn++;
		} else if (d->rec.kind == CITCAT_REC_DMA) {
			/* a DMA transfer at this boundary (ITRACE.md): PC its first
			 * byte, WORD its length */
			w.r.kind = "dma";
			fu(&w, IC_LINE, d->rec.word);
		} else if (d->rec.kind == CITCAT_REC_STOP) {
			/* the abnormal end (ITRACE.md): LINE the stop reason; for a
			 * fault, the kind and address in the accesses column */
			w.r.kind = "stop";
			fu(&w, IC_LINE, d->rec.line);
			if (d->rec.line == CITCAT_STOP_FAULT) {
				snprintf(d->acc, sizeof d->acc, "fault%u@0x%08x", d->rec.word, d->rec.fault_addr);
				fs(&w, IC_ACC, d->acc);
			}
		} else {
			w.r.kind = "irq";
			fu(&w, IC_LINE, d->rec.line);
		}
		if ((rc = walk_emit(&w)) != 0)
			break;
	}
out:
	free(d);
	citcat_itrace_reader_close(r);
	return rc < 0 ? rc : 0;
}

/* ---- AES ---- */

enum { AC_REPEAT = 2, AC_LINE, AC_BCOUNT, AC_PC, AC_ADDR, AC_SIZE, AC_VALUE, AC_LEN, AC_INSNS, AC_REASON, AC_DATA,
       AC_N };
static const char *const aes_cols[AC_N] = {"rec", "kind", "repeat", "line", "bcount", "pc", "addr", "size",
					   "value", "len", "insns", "reason", "data"};

int citcat_dump_aes(const char *path, const struct citcat_dump_opts *o, const struct citcat_dump_sink *s,
		    struct citcat_errinfo *err)
{
	struct citcat_aes_reader *r;
	int rc = citcat_aes_reader_open(&r, path);
	if (rc) {
		if (err && r)
			*err = *citcat_aes_reader_error(r);
		citcat_aes_reader_close(r);
		return rc;
	}
	struct citcat_dump_schema sc = {"aes", CITCAT_AES_VERSION, AC_N, aes_cols};
	struct walk w;
	struct citcat_aes_rec rec;
	if ((rc = walk_begin(&w, o, s, &sc)) != 0)
		goto out;
	for (; !walk_done(&w); w.n++) {
		if ((rc = citcat_aes_next(r, &rec)) <= 0) {
			if (rc < 0 && err)
				*err = *citcat_aes_reader_error(r);
			break;
		}
		/* A REPEAT's copies are records of their own (numbered, one line
		 * each); the first copy comes with the REPEAT's bytes, the others
		 * with none (citcat_aes_last_raw). */
		size_t rawlen;
		const uint8_t *raw = citcat_aes_last_raw(r, &rawlen);
		int copy = rawlen == 0 || (raw[0] & 7) == 6;
		uint64_t pend = citcat_aes_pending_repeats(r);
		if (w.n < o->from && pend && w.n + pend < o->from) {
			/* the whole run lies before FROM: skip it without reading
			 * the copies one by one (their number is only bounded by the
			 * instruction count the file claims) */
			w.n += citcat_aes_skip_repeats(r);
			continue;
		}
		if (!walk_want(&w, &rc)) {
			if (rc)
				break;
			continue;
		}
		w.r.kind = citcat_aes_kind_name(rec.kind);
		if (copy)
			fu(&w, AC_REPEAT, 1);
		switch (rec.kind) {
		case CITCAT_AES_IRQ:
			fu(&w, AC_LINE, rec.line);
			fu(&w, AC_BCOUNT, rec.bcount);
			fx(&w, AC_PC, rec.pc, 8);
			break;
		case CITCAT_AES_DMA:
			fu(&w, AC_BCOUNT, rec.bcount);
			fx(&w, AC_PC, rec.pc, 8);
			fx(&w, AC_ADDR, rec.addr, 8);
			fu(&w, AC_LEN, rec.len);
			fb(&w, AC_DATA, rec.data, rec.len);
			break;
		case CITCAT_AES_END:
			fu(&w, AC_BCOUNT, rec.bcount);
			fu(&w, AC_INSNS, rec.insns);
			fs(&w, AC_REASON, stop_name(rec.line));
			if (rec.line == CITCAT_STOP_FAULT) {
				fu(&w, AC_VALUE, rec.value);
				fx(&w, AC_PC, rec.pc, 8);
				fx(&w, AC_ADDR, rec.addr, 8);
			}
			break;
		default: /* INPUT, OUTPUT, COUNTER */
			fx(&w, AC_ADDR, rec.addr, 8);
			fu(&w, AC_SIZE, rec.size);
			fx(&w, AC_VALUE, rec.value, 2u * rec.size);
			break;
		}
		if ((rc = walk_emit(&w)) != 0)
			break;
	}
out:
	citcat_aes_reader_close(r);
	return rc < 0 ? rc : 0;
}

/* ---- IMS ---- */

enum { MC_REG = 2, MC_ADDR, MC_LEN, MC_VALUE, MC_DATA, MC_N };
static const char *const ims_cols[MC_N] = {"rec", "kind", "reg", "addr", "len", "value", "data"};
static const char *const slot_names[ARM_SLOTS] = {
	"r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9", "r10", "r11", "r12", "sp", "lr", "pc", "cpsr",
	"sp_usr", "lr_usr", "sp_svc", "lr_svc", "spsr_svc", "sp_irq", "lr_irq", "spsr_irq", "sp_abt", "lr_abt",
	"spsr_abt", "sp_und", "lr_und", "spsr_und", "r8_fiq", "r9_fiq", "r10_fiq", "r11_fiq", "r12_fiq", "sp_fiq",
	"lr_fiq", "spsr_fiq"};

struct ims_dump {
	struct walk w;
	const struct citcat_dump_opts *o;
	const struct citcat_dump_sink *s;
	struct citcat_ims *ims;
	int begun, stopped;
};

/* The registers at P are records 0..38 (dump-slot order), then one record
 * per memory run.  They go out from the first run's callback, after the
 * metadata was read and checked, or at the end when there is no run. */
static int ims_regs(struct ims_dump *d)
{
	int rc;
	struct walk *w = &d->w;
	static const struct citcat_dump_schema sc = {"ims", CITCAT_IMS_VERSION, MC_N, ims_cols};
	d->begun = 1;
	if ((rc = walk_begin(w, d->o, d->s, &sc)) != 0)
		return rc;
	for (int k = 0; k < ARM_SLOTS && !walk_done(w); k++, w->n++) {
		if (!walk_want(w, &rc)) {
			if (rc)
				return rc;
			continue;
		}
		w->r.kind = "reg";
		fs(w, MC_REG, slot_names[k]);
		fx(w, MC_VALUE, d->ims->regs.slot[k], 8);
		if ((rc = walk_emit(w)) != 0)
			return rc;
	}
	return 0;
}

static int ims_run(void *ctx, uint64_t addr, const uint8_t *data, size_t n)
{
	struct ims_dump *d = ctx;
	struct walk *w = &d->w;
	int rc;
	if (!d->begun && (rc = ims_regs(d)) != 0)
		return rc;
	if (walk_done(w)) {
		d->stopped = 1;
		return CITCAT_ERR_EOF; /* enough records: stop reading */
	}
	if (!walk_want(w, &rc)) {
		w->n++;
		return rc;
	}
	w->r.kind = "mem";
	fx(w, MC_ADDR, addr, 8);
	fu(w, MC_LEN, n);
	fb(w, MC_DATA, data, n);
	w->n++;
	return walk_emit(w);
}

int citcat_dump_ims(const char *path, const struct citcat_dump_opts *o, const struct citcat_dump_sink *s,
		    struct citcat_errinfo *err)
{
	struct citcat_ims ims = {0};
	struct ims_dump d = {.o = o, .s = s, .ims = &ims};
	struct citcat_errinfo e = {0};
	int rc = citcat_ims_read_runs(path, &ims, ims_run, &d, &e);
	if (rc == CITCAT_ERR_EOF && d.stopped)
		rc = 0;
	else if (rc < 0 && e.code && err)
		*err = e;
	if (!rc && !d.begun)
		rc = ims_regs(&d);
	citcat_ims_fini(&ims);
	return rc;
}

/* ---- address traces ---- */

enum { RC_ADDR = 2, RC_SIZE, RC_N };
static const char *const addr_cols[RC_N] = {"rec", "kind", "addr", "size"};
static const char *const ref_names[CITCAT_REF_NTYPES] = {"read", "write", "ifetch", "misc", "flush", "copyback", "invalidate"};

int citcat_dump_addr(const char *path, const struct citcat_dump_opts *o, const struct citcat_dump_sink *s,
		     struct citcat_errinfo *err)
{
	struct citcat_addr_reader *r;
	int rc = citcat_addr_reader_open(&r, path, CITCAT_ADDR_AUTO);
	if (rc) {
		if (err && r)
			*err = *citcat_addr_reader_error(r);
		citcat_addr_reader_close(r);
		return rc;
	}
	int fmt = citcat_addr_reader_fmt(r);
	struct citcat_dump_schema sc = {citcat_addr_fmt_name(fmt), fmt == CITCAT_ADDR_PDATS || fmt == CITCAT_ADDR_PDATS2,
					RC_N, addr_cols};
	struct walk w;
	struct citcat_ref ref;
	if ((rc = walk_begin(&w, o, s, &sc)) != 0)
		goto out;
	for (; !walk_done(&w); w.n++) {
		if ((rc = citcat_addr_next(r, &ref)) <= 0) {
			if (rc < 0 && err)
				*err = *citcat_addr_reader_error(r);
			break;
		}
		if (!walk_want(&w, &rc)) {
			if (rc)
				break;
			continue;
		}
		w.r.kind = ref.type < CITCAT_REF_NTYPES ? ref_names[ref.type] : "?";
		fx(&w, RC_ADDR, ref.addr, 8);
		if (ref.size)
			fu(&w, RC_SIZE, ref.size);
		if ((rc = walk_emit(&w)) != 0)
			break;
	}
out:
	citcat_addr_reader_close(r);
	return rc < 0 ? rc : 0;
}
