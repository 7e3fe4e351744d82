/* Record dumpers: see dump.h and DUMP.md.  Each walks its file with the
 * format's own streaming reader, so a dump checks exactly what a reader
 * checks, and turns each record into named fields; the CLI prints them. */
#include "dump.h"
#include "addr.h"
#include "aesfile.h"
#include "cat.h"
#include "daf.h"
#include "imsfile.h"
#include "itrace.h"
#include "lvt.h"
#include "sdclsp.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROGRESS_EVERY 4096u

/* ---- the record walker shared by every dumper ----
 *
 * A dumper is a record source: a NEXT callback that reads the record
 * numbered W->N and, when FILL is set, puts its kind and fields in W->R.
 * The walker decides which records are handed out (--from, --count), calls
 * the sink, reports progress, and stops reading after the COUNT-th record.
 * Pull-style readers are walked by walk_run; push-style ones (the IMS's run
 * callback) call walk_step once per record themselves. */

struct walk;
/* Reads the next record into W (fields only when FILL): 1, 0 at the end of
 * the file, or an error (the source's error function then says more).  May
 * add to W->N the records it skipped in one step (FILL unset). */
typedef int (*walk_next_fn)(void *ctx, struct walk *w, int fill);
/* The source's error details, or NULL (for a failed open too). */
typedef const struct citcat_errinfo *(*walk_error_fn)(void *ctx);

struct walk {
	const struct citcat_dump_opts *o;
	const struct citcat_dump_sink *s;
	uint64_t n;   /* number of the record being read */
	uint64_t out; /* records handed out */
	int src_err;  /* the last error came from the source, not the sink */
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

#define WALK_END 1

/* One record: NEXT reads it, the sink gets it when it is one to hand out;
 * progress now and then.  0 to go on, WALK_END at the end of the file, or
 * an error. */
static int walk_step(struct walk *w, walk_next_fn next, void *ctx)
{
	int fill = w->n >= w->o->from;
	w->r.rec = w->n;
	w->r.n = 0;
	int rc = next(ctx, w, fill);
	if (rc <= 0) {
		w->src_err = rc < 0;
		return rc < 0 ? rc : WALK_END;
	}
	if (w->s->progress && w->n && w->n % PROGRESS_EVERY == 0 && (rc = w->s->progress(w->s->ctx, w->n)) != 0)
		return rc;
	w->n++;
	if (!fill)
		return 0;
	w->out++;
	return w->s->record(w->s->ctx, &w->r);
}

/* For sources that read much between two records (a DAF's flow may run
 * millions of instructions without one): progress, and so Ctrl-C, every
 * 65536 calls. */
static int walk_poll(struct walk *w, uint32_t *calls)
{
	if ((++*calls & 0xffffu) || !w->s->progress)
		return 0;
	return w->s->progress(w->s->ctx, w->n);
}

static void copy_err(struct citcat_errinfo *err, const struct citcat_errinfo *e)
{
	if (err && e && e->code)
		*err = *e;
}

/* The whole walk over a pull-style source whose reader was opened with
 * OPEN_RC: 0 when the records asked for went out, or an error with ERR
 * filled from the source when it came from there. */
static int walk_run(int open_rc, const struct citcat_dump_opts *o, const struct citcat_dump_sink *s,
		    const struct citcat_dump_schema *sc, walk_next_fn next, walk_error_fn error, void *ctx,
		    struct citcat_errinfo *err)
{
	struct walk w;
	int rc = open_rc;
	if (!rc)
		rc = walk_begin(&w, o, s, sc);
	else
		w.src_err = 1;
	while (!rc && !walk_done(&w))
		rc = walk_step(&w, next, ctx);
	if (rc < 0 && w.src_err)
		copy_err(err, error(ctx));
	return rc < 0 ? rc : 0;
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
       CC_INSNS, CC_CYCLES, CC_CFSR, CC_HFSR, CC_MMFAR, CC_BFAR, CC_DATA, CC_N };
static const char *const cat_cols[CC_N] = {"rec",	  "kind",  "cycle",  "addr", "size", "value", "len",
					   "line",	  "bcount", "pc",     "gi",   "gd",	 "reason", "insns",
					   "cycles", "cfsr",  "hfsr",   "mmfar", "bfar", "data"};

struct cat_src {
	struct citcat_cat_reader *r;
	int ts; /* the CAT records timestamps */
	struct citcat_cat_event ev;
};

static const struct citcat_errinfo *cat_error(void *ctx)
{
	return citcat_cat_reader_error(((struct cat_src *)ctx)->r);
}

static int cat_next(void *ctx, struct walk *w, int fill)
{
	struct cat_src *c = ctx;
	const struct citcat_cat_event *e = &c->ev;
	int rc = citcat_cat_next(c->r, &c->ev);
	if (rc <= 0 || !fill)
		return rc;
	w->r.kind = citcat_cat_kind_name(e->kind);
	if (c->ts && e->kind != CITCAT_CAT_STOP) /* STOP's cycle field holds its total (cat.h) */
		fu(w, CC_CYCLE, e->cycle);
	switch (e->kind) {
	case CITCAT_CAT_FILL_I:
	case CITCAT_CAT_FILL_D:
	case CITCAT_CAT_WRITEBACK:
		fx(w, CC_ADDR, e->addr, 8);
		fu(w, CC_LEN, e->len);
		fb(w, CC_DATA, e->data, e->len);
		break;
	case CITCAT_CAT_WRITE:
	case CITCAT_CAT_UREAD:
	case CITCAT_CAT_UWRITE:
		fx(w, CC_ADDR, e->addr, 8);
		fu(w, CC_SIZE, e->size);
		fx(w, CC_VALUE, e->value, 2u * e->size);
		break;
	case CITCAT_CAT_DMA:
		fx(w, CC_ADDR, e->addr, 8);
		fu(w, CC_LEN, e->len);
		fu(w, CC_BCOUNT, e->bcount);
		fx(w, CC_PC, e->pc, 8);
		fb(w, CC_DATA, e->data, e->len);
		break;
	case CITCAT_CAT_IRQ:
		fu(w, CC_LINE, e->line);
		fu(w, CC_BCOUNT, e->bcount);
		fx(w, CC_PC, e->pc, 8);
		break;
	case CITCAT_CAT_EXC: /* Cortex-M7: the exception number in the line column */
		fu(w, CC_LINE, e->value);
		fu(w, CC_BCOUNT, e->bcount);
		fx(w, CC_PC, e->pc, 8);
		break;
	case CITCAT_CAT_SYNC:
	case CITCAT_CAT_CKPT:
		fx(w, CC_PC, e->pc, 8);
		if (e->kind == CITCAT_CAT_CKPT) {
			fu(w, CC_INSNS, e->insns);
			fu(w, CC_BCOUNT, e->bcount);
		}
		fx(w, CC_GI, e->repl_state[0], 8);
		fx(w, CC_GD, e->repl_state[1], 8);
		break;
	case CITCAT_CAT_STOP:
		fu(w, CC_BCOUNT, e->bcount);
		fs(w, CC_REASON, stop_name(e->line));
		fu(w, CC_INSNS, e->insns);
		fu(w, CC_CYCLES, e->cycle);
		if (e->line == CITCAT_STOP_FAULT) { /* the fault kind, its PC and address */
			fu(w, CC_VALUE, e->value);
			fx(w, CC_PC, e->pc, 8);
			fx(w, CC_ADDR, e->addr, 8);
			struct citcat_m7_fault f; /* version 7: the Cortex-M7 fault status */
			if (citcat_cat_m7_fault(c->r, &f) == 1) {
				fx(w, CC_CFSR, f.cfsr, 8);
				fx(w, CC_HFSR, f.hfsr, 8);
				if (f.cfsr & CITCAT_M7_CFSR_MMARVALID)
					fx(w, CC_MMFAR, f.mmfar, 8);
				if (f.cfsr & CITCAT_M7_CFSR_BFARVALID)
					fx(w, CC_BFAR, f.bfar, 8);
			}
		}
		break;
	default: /* START */
		break;
	}
	return 1;
}

int citcat_dump_cat(const char *path, const struct citcat_dump_opts *o, const struct citcat_dump_sink *s,
		    struct citcat_errinfo *err)
{
	struct cat_src c = {0};
	int rc = citcat_cat_reader_open(&c.r, path);
	struct citcat_dump_schema sc = {"cat", CITCAT_CAT_VERSION, CC_N, cat_cols};
	if (!rc)
		c.ts = citcat_cat_config(c.r)->timestamps != 0;
	rc = walk_run(rc, o, s, &sc, cat_next, cat_error, &c, err);
	citcat_cat_reader_close(c.r);
	return rc;
}

/* ---- itrace ---- */

enum { IC_INSN = 2, IC_PC, IC_WORD, IC_SIZE, IC_ISA, IC_LINE, IC_ACC, IC_N };
static const char *const itrace_cols[IC_N] = {"rec", "kind", "insn", "pc", "word", "size", "isa", "line", "accesses"};

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

struct itrace_src {
	struct citcat_itrace_reader *r;
	uint64_t insn; /* instructions before the record */
	struct citcat_itrace_rec rec;
	char acc[CITCAT_ITRACE_MAX_ACC * 48];
};

static const struct citcat_errinfo *itrace_error(void *ctx)
{
	return citcat_itrace_reader_error(((struct itrace_src *)ctx)->r);
}

static int itrace_next(void *ctx, struct walk *w, int fill)
{
	struct itrace_src *d = ctx;
	int rc = citcat_itrace_next(d->r, &d->rec);
	if (rc <= 0)
		return rc;
	int is_insn = d->rec.kind == CITCAT_REC_INSN;
	uint64_t insn = d->insn;
	d->insn += (uint64_t)is_insn;
	if (!fill)
		return 1;
	/* an interrupt entry's insn is the index of the handler's first instruction */
	fu(w, IC_INSN, insn);
	fx(w, IC_PC, d->rec.pc, 8);
	if (is_insn) {
		w->r.kind = "insn";
		/* version 3: each instruction's size and state (a version 2 file
		 * reads as A32, 4 bytes: ITRACE.md); the word as wide as it is */
		fx(w, IC_WORD, d->rec.word, d->rec.size == 2 ? 4 : 8);
		fu(w, IC_SIZE, d->rec.size);
		fs(w, IC_ISA, d->rec.thumb ? "thumb" : "arm");
		if (d->rec.n_acc) {
			format_accesses(&d->rec, d->acc, sizeof d->acc);
			fs(w, IC_ACC, d->acc);
		}
	} else if (d->rec.kind == CITCAT_REC_DMA) {
		/* a DMA transfer at this boundary (ITRACE.md): PC its first
		 * byte, WORD its length */
		w->r.kind = "dma";
		fu(w, IC_LINE, d->rec.word);
	} else if (d->rec.kind == CITCAT_REC_STOP) {
		/* the abnormal end (ITRACE.md): LINE the stop reason; for a
		 * fault, the kind and address in the accesses column */
		w->r.kind = "stop";
		fu(w, IC_LINE, d->rec.line);
		if (d->rec.line == CITCAT_STOP_FAULT) {
			int n = snprintf(d->acc, sizeof d->acc, "fault%u@0x%08x", d->rec.word, d->rec.fault_addr);
			struct citcat_m7_fault f; /* the Cortex-M7 fault status (ITRACE.md) */
			if (n > 0 && citcat_itrace_m7_fault(d->r, &f) == 1) {
				n += snprintf(d->acc + n, sizeof d->acc - (size_t)n, ";cfsr=0x%08x;hfsr=0x%08x", f.cfsr, f.hfsr);
				if (f.cfsr & CITCAT_M7_CFSR_MMARVALID)
					n += snprintf(d->acc + n, sizeof d->acc - (size_t)n, ";mmfar=0x%08x", f.mmfar);
				if (f.cfsr & CITCAT_M7_CFSR_BFARVALID)
					snprintf(d->acc + n, sizeof d->acc - (size_t)n, ";bfar=0x%08x", f.bfar);
			}
			fs(w, IC_ACC, d->acc);
		}
	} else {
		w->r.kind = "irq";
		fu(w, IC_LINE, d->rec.line);
		if (d->rec.n_acc) { /* a Cortex-M7 entry's stacking and vector read (ITRACE.md, isa 2) */
			format_accesses(&d->rec, d->acc, sizeof d->acc);
			fs(w, IC_ACC, d->acc);
		}
	}
	return 1;
}

int citcat_dump_itrace(const char *path, const struct citcat_dump_opts *o, const struct citcat_dump_sink *s,
		       struct citcat_errinfo *err)
{
	struct itrace_src *d = calloc(1, sizeof *d);
	if (!d)
		return CITCAT_ERR_NOMEM;
	int rc = citcat_itrace_reader_open(&d->r, path);
	if (!rc)
		citcat_itrace_reader_dma(d->r, 1); /* every record, DMA transfers too */
	struct citcat_dump_schema sc = {"itrace", CITCAT_ITRACE_VERSION, IC_N, itrace_cols};
	rc = walk_run(rc, o, s, &sc, itrace_next, itrace_error, d, err);
	citcat_itrace_reader_close(d->r);
	free(d);
	return rc;
}

/* ---- AES ---- */

enum { AC_REPEAT = 2, AC_LINE, AC_BCOUNT, AC_PC, AC_ADDR, AC_SIZE, AC_VALUE, AC_LEN, AC_INSNS, AC_REASON, AC_DATA,
       AC_N };
static const char *const aes_cols[AC_N] = {"rec", "kind", "repeat", "line", "bcount", "pc", "addr", "size",
					   "value", "len", "insns", "reason", "data"};

struct aes_src {
	const struct citcat_dump_opts *o;
	struct citcat_aes_reader *r;
	struct citcat_aes_rec rec;
};

static const struct citcat_errinfo *aes_error(void *ctx) { return citcat_aes_reader_error(((struct aes_src *)ctx)->r); }

static int aes_next(void *ctx, struct walk *w, int fill)
{
	struct aes_src *a = ctx;
	const struct citcat_aes_rec *rec = &a->rec;
	int rc = citcat_aes_next(a->r, &a->rec);
	if (rc <= 0)
		return rc;
	/* A REPEAT's copies are records of their own (numbered), printed as
	 * one line; the first copy comes with the REPEAT's bytes, the others
	 * with none (citcat_aes_last_raw). */
	size_t rawlen;
	const uint8_t *raw = citcat_aes_last_raw(a->r, &rawlen);
	int copy = rawlen == 0 || (raw[0] & 7) == 6;
	uint64_t pend = citcat_aes_pending_repeats(a->r);
	if (!fill && pend && w->n + pend < a->o->from) {
		/* the whole run lies before FROM: skip it without reading
		 * the copies one by one (their number is only bounded by the
		 * instruction count the file claims) */
		w->n += citcat_aes_skip_repeats(a->r);
		return 1;
	}
	if (!fill)
		return 1;
	w->r.kind = citcat_aes_kind_name(rec->kind);
	if (copy) {
		/* the run of copies from this one on is one line (DUMP.md): the
		 * output is bounded by the file's bytes, whatever count a REPEAT
		 * claims; numbering goes on as if each copy had a line */
		uint64_t left = a->o->count - w->out - 1, more = pend < left ? pend : left;
		if (more == pend)
			citcat_aes_skip_repeats(a->r);
		w->n += more;
		w->out += more;
		fu(w, AC_REPEAT, 1 + more);
	}
	switch (rec->kind) {
	case CITCAT_AES_IRQ:
		fu(w, AC_LINE, rec->line);
		fu(w, AC_BCOUNT, rec->bcount);
		fx(w, AC_PC, rec->pc, 8);
		break;
	case CITCAT_AES_DMA:
		fu(w, AC_BCOUNT, rec->bcount);
		fx(w, AC_PC, rec->pc, 8);
		fx(w, AC_ADDR, rec->addr, 8);
		fu(w, AC_LEN, rec->len);
		fb(w, AC_DATA, rec->data, rec->len);
		break;
	case CITCAT_AES_END:
		fu(w, AC_BCOUNT, rec->bcount);
		fu(w, AC_INSNS, rec->insns);
		fs(w, AC_REASON, stop_name(rec->line));
		if (rec->line == CITCAT_STOP_FAULT) {
			fu(w, AC_VALUE, rec->value);
			fx(w, AC_PC, rec->pc, 8);
			fx(w, AC_ADDR, rec->addr, 8);
		}
		break;
	default: /* INPUT, OUTPUT, COUNTER */
		fx(w, AC_ADDR, rec->addr, 8);
		fu(w, AC_SIZE, rec->size);
		fx(w, AC_VALUE, rec->value, 2u * rec->size);
		break;
	}
	return 1;
}

int citcat_dump_aes(const char *path, const struct citcat_dump_opts *o, const struct citcat_dump_sink *s,
		    struct citcat_errinfo *err)
{
	struct aes_src a = {.o = o};
	int rc = citcat_aes_reader_open(&a.r, path);
	struct citcat_dump_schema sc = {"aes", CITCAT_AES_VERSION, AC_N, aes_cols};
	rc = walk_run(rc, o, s, &sc, aes_next, aes_error, &a, err);
	citcat_aes_reader_close(a.r);
	return rc;
}

/* ---- IMS ---- */

enum { MC_REG = 2, MC_ADDR, MC_LEN, MC_VALUE, MC_DATA, MC_N };
static const char *const ims_cols[MC_N] = {"rec", "kind", "reg", "addr", "len", "value", "data"};
static const char *const slot_names[ARM_SLOTS] = {
	"r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9", "r10", "r11", "r12", "sp", "lr", "pc", "cpsr",
	"sp_usr", "lr_usr", "sp_svc", "lr_svc", "spsr_svc", "sp_irq", "lr_irq", "spsr_irq", "sp_abt", "lr_abt",
	"spsr_abt", "sp_und", "lr_und", "spsr_und", "r8_fiq", "r9_fiq", "r10_fiq", "r11_fiq", "r12_fiq", "sp_fiq",
	"lr_fiq", "spsr_fiq"};
/* The Cortex-M7's dump slots (IMS.md; slots 23..38 are 0 there and not listed). */
#define M7_SLOTS 23
static const char *const m7_slot_names[M7_SLOTS] = {
	"r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9", "r10", "r11", "r12", "sp", "lr", "pc", "xpsr",
	"msp", "psp", "primask", "basepri", "faultmask", "control"};

struct ims_dump {
	struct walk w;
	const struct citcat_dump_opts *o;
	const struct citcat_dump_sink *s;
	struct citcat_ims *ims;
	int begun, stopped;
	int slot;         /* register record being walked */
	uint64_t addr;    /* memory run being walked */
	const uint8_t *data;
	size_t len;
};

static int ims_reg_next(void *ctx, struct walk *w, int fill)
{
	struct ims_dump *d = ctx;
	if (fill) {
		int m7 = d->ims->cfg.isa == CITCAT_TARGET_CORTEX_M7;
		w->r.kind = "reg";
		if (m7)
			fs(w, MC_REG, m7_slot_names[d->slot]);
		else
			fs(w, MC_REG, d->slot < ARM_SLOTS ? slot_names[d->slot] : "sctlr");
		fx(w, MC_VALUE, d->slot < ARM_SLOTS ? d->ims->regs.slot[d->slot] : d->ims->sctlr, 8);
	}
	return 1;
}

static int ims_mem_next(void *ctx, struct walk *w, int fill)
{
	struct ims_dump *d = ctx;
	if (fill) {
		w->r.kind = "mem";
		fx(w, MC_ADDR, d->addr, 8);
		fu(w, MC_LEN, d->len);
		fb(w, MC_DATA, d->data, d->len);
	}
	return 1;
}

/* The registers at P are records 0..38 (dump-slot order) and SCTLR (39) on
 * the ARMv7-A target, records 0..22 on the M7, then one record per memory
 * run.  They go out from the first run's callback, after the
 * metadata was read and checked, or at the end when there is no run. */
static int ims_regs(struct ims_dump *d)
{
	int rc;
	static const struct citcat_dump_schema sc = {"ims", CITCAT_IMS_VERSION, MC_N, ims_cols};
	d->begun = 1;
	if ((rc = walk_begin(&d->w, d->o, d->s, &sc)) != 0)
		return rc;
	int nregs = d->ims->cfg.isa == CITCAT_TARGET_CORTEX_M7 ? M7_SLOTS : ARM_SLOTS + 1;
	for (d->slot = 0; d->slot < nregs && !walk_done(&d->w); d->slot++)
		if ((rc = walk_step(&d->w, ims_reg_next, d)) != 0)
			return rc;
	return 0;
}

static int ims_run(void *ctx, uint64_t addr, const uint8_t *data, size_t n)
{
	struct ims_dump *d = ctx;
	int rc;
	if (!d->begun && (rc = ims_regs(d)) != 0)
		return rc;
	if (walk_done(&d->w)) {
		d->stopped = 1;
		return CITCAT_ERR_EOF; /* enough records: stop reading */
	}
	d->addr = addr;
	d->data = data;
	d->len = n;
	return walk_step(&d->w, ims_mem_next, d);
}

/* The IMS's format checks (imsfile.h, citcat_ims_read_runs): the exception
 * model's check of an M7 checkpoint's SCS slots 23..38, which the dump does
 * not list, is the public reader's (ims/ims.c), above formats/. */
int citcat_dump_ims(const char *path, const struct citcat_dump_opts *o, const struct citcat_dump_sink *s,
		    struct citcat_errinfo *err)
{
	struct citcat_ims ims = {0};
	struct ims_dump d = {.o = o, .s = s, .ims = &ims};
	struct citcat_errinfo e = {0};
	int rc = citcat_ims_read_runs(path, &ims, ims_run, &d, &e);
	if (rc == CITCAT_ERR_EOF && d.stopped)
		rc = 0;
	else if (rc < 0)
		copy_err(err, &e);
	if (!rc && !d.begun)
		rc = ims_regs(&d);
	citcat_ims_fini(&ims);
	return rc;
}

/* ---- address traces ---- */

enum { RC_ADDR = 2, RC_SIZE, RC_N };
static const char *const addr_cols[RC_N] = {"rec", "kind", "addr", "size"};
static const char *const ref_names[CITCAT_REF_NTYPES] = {"read", "write", "ifetch", "misc", "flush", "copyback", "invalidate"};

struct addr_src {
	struct citcat_addr_reader *r;
	struct citcat_ref ref;
};

static const struct citcat_errinfo *addr_error(void *ctx)
{
	return citcat_addr_reader_error(((struct addr_src *)ctx)->r);
}

static int addr_next(void *ctx, struct walk *w, int fill)
{
	struct addr_src *a = ctx;
	int rc = citcat_addr_next(a->r, &a->ref);
	if (rc <= 0 || !fill)
		return rc;
	w->r.kind = a->ref.type < CITCAT_REF_NTYPES ? ref_names[a->ref.type] : "?";
	fx(w, RC_ADDR, a->ref.addr, 8);
	if (a->ref.size)
		fu(w, RC_SIZE, a->ref.size);
	return 1;
}

int citcat_dump_addr(const char *path, const struct citcat_dump_opts *o, const struct citcat_dump_sink *s,
		     struct citcat_errinfo *err)
{
	struct addr_src a = {0};
	int rc = citcat_addr_reader_open(&a.r, path, CITCAT_ADDR_AUTO);
	int fmt = rc ? 0 : citcat_addr_reader_fmt(a.r);
	struct citcat_dump_schema sc = {citcat_addr_fmt_name(fmt), fmt == CITCAT_ADDR_PDATS || fmt == CITCAT_ADDR_PDATS2,
					RC_N, addr_cols};
	rc = walk_run(rc, o, s, &sc, addr_next, addr_error, &a, err);
	citcat_addr_reader_close(a.r);
	return rc;
}

/* ---- dumpers that need the program flow or image ----
 *
 * An LVT's value widths and a DAF record's presence and meaning come from
 * the instruction being executed, and an SDC-LSP stream's records decode
 * only with the program image (DUMP.md).  The LVT and DAF dumpers walk an
 * itrace of the same run beside the file (OPTS->ITRACE) and take from it
 * which record comes next; a record that does not fit the flow stops the
 * dump with CITCAT_ERR_CORRUPT. */

struct flow {
	const char *path;
	struct citcat_itrace_reader *it;
	struct citcat_itrace_rec rec;
	struct citcat_errinfo err; /* an error that is not the dumped file's reader's */
};

/* An error of the flow's reader (E, may be NULL), in F->ERR naming its file. */
static int flow_fail(struct flow *f, int rc, const struct citcat_errinfo *e)
{
	const char *msg = e && e->msg[0] ? e->msg : citcat_errstr(rc);
	if (e && e->offset != UINT64_MAX)
		return citcat_errinfo_set(&f->err, rc, UINT64_MAX, "the flow %s: offset %llu: %s", f->path,
					  (unsigned long long)e->offset, msg);
	return citcat_errinfo_set(&f->err, rc, UINT64_MAX, "the flow %s: %s", f->path, msg);
}

static int flow_open(struct flow *f, const struct citcat_dump_opts *o, const char *what)
{
	if (!o || o->size < sizeof *o || !o->itrace)
		return citcat_errinfo_set(&f->err, CITCAT_ERR_INVAL, UINT64_MAX,
					  "%s records decode only against the program flow: an itrace of the same run "
					  "is needed",
					  what);
	f->path = o->itrace;
	int rc = citcat_itrace_reader_open(&f->it, o->itrace);
	return rc ? flow_fail(f, rc, citcat_itrace_reader_error(f->it)) : 0;
}

/* The next record of the flow: 1, 0 at its end, or an error (in F->ERR,
 * naming the flow's file). */
static int flow_next(struct flow *f)
{
	int rc = citcat_itrace_next(f->it, &f->rec);
	return rc < 0 ? flow_fail(f, rc, citcat_itrace_reader_error(f->it)) : rc;
}

/* ---- LVT ---- */

enum { LC_INSN = 2, LC_PC, LC_ADDR, LC_SIZE, LC_VALUE, LC_LINE, LC_BCOUNT, LC_LEN, LC_REASON, LC_INSNS, LC_HASH,
       LC_RNG, LC_BITS, LC_N };
static const char *const lvt_cols[LC_N] = {"rec",   "kind",   "insn", "pc",     "addr",  "size", "value", "line",
					   "bcount", "len", "reason", "insns", "hash", "rng",   "bits"};

struct lvt_src {
	struct citcat_lvt_reader *r;
	struct flow f;
	int state;     /* 0: START next, 1: walking the flow, 2: STOP read */
	int serving;   /* F.REC is an instruction (1) or a Cortex-M7 exception entry (2) whose loads are being
			* served */
	uint32_t acc;  /* its next access */
	uint64_t insn; /* index of F.REC (instructions of the flow before it) */
	uint32_t polls;
	int m7; /* the flow is a Cortex-M7 trace (isa 2) */
	struct citcat_lvt_rec rec;
};

static const struct citcat_errinfo *lvt_error(void *ctx)
{
	struct lvt_src *l = ctx;
	return l->f.err.code ? &l->f.err : citcat_lvt_reader_error(l->r);
}

static const char *lvt_kind(unsigned k)
{
	static const char *const names[] = {"?", "hit", "value", "irq", "dma", "start", "stop"};
	return k < sizeof names / sizeof names[0] ? names[k] : "?";
}

/* The record just read (GOT 1), the next one (GOT 2: peeked, not read) or
 * the end of the records (GOT 0) is not the one the flow asks for (WANT). */
static int lvt_mismatch(struct lvt_src *l, int got, const char *want)
{
	uint64_t off = UINT64_MAX, bit = 0;
	char what[80] = "the end of the records";
	if (got) {
		citcat_lvt_reader_pos(l->r, &off, &bit);
		snprintf(what, sizeof what, "a %s record %s bit %llu of the chunk", lvt_kind(l->rec.kind),
			 got == 1 ? "at" : "after the one at", (unsigned long long)bit);
	}
	return citcat_errinfo_set(&l->f.err, CITCAT_ERR_CORRUPT, off,
				  "%s where the flow %s has %s at instruction %llu (pc 0x%08x): not the same run, or "
				  "one of them is damaged",
				  what, l->f.path, want, (unsigned long long)l->insn, (unsigned)l->f.rec.pc);
}

/* Reads the record the flow asks for: a load of SIZE bytes, or an event
 * (SIZE 0) of kind EV; WANT names it for messages. */
static int lvt_read(struct lvt_src *l, unsigned size, int ev, const char *want)
{
	int rc = size ? 0 : citcat_lvt_peek(l->r);
	if (!size && (rc == CITCAT_LVT_HIT || rc == CITCAT_LVT_VALUE)) { /* a load where the flow has none */
		l->rec.kind = (uint8_t)rc;
		return lvt_mismatch(l, 2, want);
	}
	if (rc >= 0)
		rc = citcat_lvt_next(l->r, size, &l->rec);
	if (rc < 0)
		return rc;
	if (rc == 0)
		return lvt_mismatch(l, 0, want);
	int ok = size ? l->rec.kind == CITCAT_LVT_HIT || l->rec.kind == CITCAT_LVT_VALUE : l->rec.kind == ev;
	if (ok && ev == CITCAT_LVT_IRQ)
		ok = l->rec.line == l->f.rec.line && l->rec.pc == l->f.rec.pc;
	if (ok && ev == CITCAT_LVT_DMA)
		ok = l->rec.addr == l->f.rec.pc && l->rec.len == l->f.rec.word;
	return ok ? 1 : lvt_mismatch(l, 1, want);
}

static int lvt_next(void *ctx, struct walk *w, int fill)
{
	struct lvt_src *l = ctx;
	const struct citcat_lvt_rec *e = &l->rec;
	int rc;
	if (l->state == 0) { /* the first record is START (the reader checks) */
		if ((rc = citcat_lvt_next(l->r, 0, &l->rec)) <= 0)
			return rc; /* 0: no trace start point was reached, no records */
		l->state = 1;
		if (fill) {
			w->r.kind = "start";
			fu(w, LC_INSN, 0);
			fx(w, LC_PC, e->regs[15], 8);
			fx(w, LC_HASH, e->code_hash, 16);
			fx(w, LC_RNG, e->dc_rng, 8);
		}
		return 1;
	}
	if (l->state == 2) /* after STOP: the reader checks that nothing follows */
		return citcat_lvt_next(l->r, 0, &l->rec);
	for (;;) {
		while (l->serving && l->acc < l->f.rec.n_acc && l->f.rec.acc[l->acc].write)
			l->acc++;
		if (l->serving && l->acc < l->f.rec.n_acc) {
			const struct citcat_access *a = &l->f.rec.acc[l->acc++];
			char want[64];
			snprintf(want, sizeof want, "a %u-byte load of 0x%08llx", a->size, (unsigned long long)a->addr);
			if ((rc = lvt_read(l, a->size, 0, want)) < 0)
				return rc;
			if (fill) {
				w->r.kind = lvt_kind(e->kind);
				fu(w, LC_INSN, l->insn);
				fx(w, LC_PC, l->f.rec.pc, 8);
				fx(w, LC_ADDR, a->addr, 8);
				fu(w, LC_SIZE, a->size);
				if (e->kind == CITCAT_LVT_VALUE)
					fx(w, LC_VALUE, e->value, 2u * e->size);
			}
			return 1;
		}
		if (l->serving) {
			if (l->serving == 1) /* an entry's vector read is no instruction */
				l->insn++;
			l->serving = 0;
		}
		if ((rc = walk_poll(w, &l->polls)) != 0 || (rc = flow_next(&l->f)) < 0)
			return rc;
		if (rc == 0) {
			if ((rc = lvt_read(l, 0, CITCAT_LVT_STOP, "its end")) < 0)
				return rc;
			l->state = 2;
			if (fill) {
				w->r.kind = "stop";
				fu(w, LC_BCOUNT, e->st.bcount);
				fs(w, LC_REASON, stop_name(e->line));
				fu(w, LC_INSNS, e->st.insns);
				fu(w, LC_BITS, e->st.bits);
			}
			return 1;
		}
		switch (l->f.rec.kind) {
		case CITCAT_REC_INSN:
			l->serving = 1;
			l->acc = 0;
			continue;
		case CITCAT_REC_IRQ:
			/* a Cortex-M7 entry carries its stacking writes and its
			 * vector read, whose record follows the IRQ record's; a
			 * synchronous one (SVC, a fault) has no IRQ record, so its
			 * vector read's record comes first (LVT.md, "The Cortex-M7") */
			if (l->f.rec.n_acc) {
				l->serving = 2;
				l->acc = 0;
				if (!l->m7)
					return citcat_errinfo_set(&l->f.err, CITCAT_ERR_CORRUPT, UINT64_MAX,
								  "the flow %s: an interrupt entry with accesses in an "
								  "ARMv7-A trace",
								  l->f.path);
				if ((rc = citcat_lvt_peek(l->r)) == CITCAT_LVT_HIT || rc == CITCAT_LVT_VALUE)
					continue;
			}
			if ((rc = lvt_read(l, 0, CITCAT_LVT_IRQ, "an interrupt entry")) < 0)
				return rc;
			if (fill) {
				w->r.kind = "irq";
				fu(w, LC_INSN, l->insn);
				fx(w, LC_PC, e->pc, 8);
				fu(w, LC_LINE, e->line);
				fu(w, LC_BCOUNT, e->bcount);
			}
			return 1;
		case CITCAT_REC_DMA:
			if ((rc = lvt_read(l, 0, CITCAT_LVT_DMA, "a DMA transfer")) < 0)
				return rc;
			if (fill) {
				w->r.kind = "dma";
				fu(w, LC_INSN, l->insn);
				fx(w, LC_PC, e->pc, 8);
				fx(w, LC_ADDR, e->addr, 8);
				fu(w, LC_BCOUNT, e->bcount);
				fu(w, LC_LEN, e->len);
			}
			return 1;
		default: /* the itrace's abnormal end: an LVT has no record of it */
			continue;
		}
	}
}

int citcat_dump_lvt(const char *path, const struct citcat_dump_opts *o, const struct citcat_dump_sink *s,
		    struct citcat_errinfo *err)
{
	struct lvt_src *l = calloc(1, sizeof *l);
	if (!l)
		return CITCAT_ERR_NOMEM;
	int rc = flow_open(&l->f, o, "LVT");
	if (!rc)
		citcat_itrace_reader_dma(l->f.it, 1); /* the LVT places DMA transfers */
	if (!rc)
		l->m7 = citcat_itrace_isa(l->f.it) == CITCAT_ISA_ARMV7M;
	if (!rc)
		rc = citcat_lvt_reader_open(&l->r, path);
	struct citcat_dump_schema sc = {"lvt", CITCAT_LVT_VERSION, LC_N, lvt_cols};
	rc = walk_run(rc, o, s, &sc, lvt_next, lvt_error, l, err);
	citcat_lvt_reader_close(l->r);
	citcat_itrace_reader_close(l->f.it);
	free(l);
	return rc;
}

/* ---- DAF ---- */

enum { DC_INSN = 2, DC_PC, DC_EXEC, DC_ADDR, DC_ACC, DC_INSNS, DC_N };
static const char *const daf_cols[DC_N] = {"rec", "kind", "insn", "pc", "executed", "addr", "accesses", "insns"};

struct daf_src {
	struct citcat_daf_decoder *d;
	struct flow f;
	struct citcat_itrace_rec out;
	uint64_t insn;
	uint32_t polls;
	int ended;
	char acc[CITCAT_ITRACE_MAX_ACC * 24];
	/* the Cortex-M7: an instruction whose rebuilt accesses differ from the
	 * flow's until the entry that follows corrects it (DAF.md, "The Cortex-M7") */
	int pending;
	uint64_t pending_insn;
	struct citcat_itrace_rec last, truth;
};

static const struct citcat_errinfo *daf_error(void *ctx)
{
	struct daf_src *a = ctx;
	return a->f.err.code ? &a->f.err : citcat_daf_decoder_error(a->d);
}

/* "r4@0x00200000;w4@...": direction, size, address (a DAF carries no values). */
static void format_refs(const struct citcat_itrace_rec *rec, char *buf, size_t cap)
{
	size_t k = 0;
	buf[0] = 0;
	for (uint32_t i = 0; i < rec->n_acc && k < cap; i++) {
		const struct citcat_access *a = &rec->acc[i];
		int n = snprintf(buf + k, cap - k, "%s%c%u@0x%08llx", i ? ";" : "", a->write ? 'w' : 'r', a->size,
				 (unsigned long long)a->addr);
		if (n < 0)
			break;
		k += (size_t)n;
	}
}

static int daf_next(void *ctx, struct walk *w, int fill)
{
	struct daf_src *a = ctx;
	int rc;
	if (a->ended)
		return 0;
	for (;;) {
		if ((rc = walk_poll(w, &a->polls)) != 0 || (rc = flow_next(&a->f)) < 0)
			return rc;
		if (rc == 0) { /* the end chunk: the flow's instruction count */
			if (a->pending) {
				citcat_errinfo_set(&a->f.err, CITCAT_ERR_CORRUPT, UINT64_MAX,
						   "instruction %llu: the accesses rebuilt from the DAF differ from the flow %s's",
						   (unsigned long long)a->pending_insn, a->f.path);
				return CITCAT_ERR_CORRUPT;
			}
			if ((rc = citcat_daf_decode_entry(a->d, &a->out, NULL)) != 0)
				return rc < 0 ? rc : CITCAT_ERR_CORRUPT;
			if ((rc = citcat_daf_decoder_finish(a->d)) < 0)
				return rc;
			a->ended = 1;
			if (fill) {
				w->r.kind = "end";
				fu(w, DC_INSNS, a->insn);
			}
			return 1;
		}
		const struct citcat_itrace_rec *fr = &a->f.rec;
		struct citcat_daf_stats b = *citcat_daf_decoder_stats(a->d);
		if (fr->kind == CITCAT_REC_IRQ && citcat_daf_decoder_m7(a->d)) {
			if ((rc = citcat_daf_decode_entry(a->d, &a->out, a->pending ? &a->last : NULL)) < 0)
				return rc;
			int same = rc == 1 && a->out.line == fr->line && a->out.n_acc == fr->n_acc;
			for (uint32_t i = 0; same && i < fr->n_acc; i++)
				same = a->out.acc[i].addr == fr->acc[i].addr && a->out.acc[i].size == fr->acc[i].size &&
				       a->out.acc[i].write == fr->acc[i].write;
			if (a->pending && same) {
				same = a->last.n_acc == a->truth.n_acc;
				for (uint32_t i = 0; same && i < a->truth.n_acc; i++)
					same = a->last.acc[i].addr == a->truth.acc[i].addr && a->last.acc[i].write == a->truth.acc[i].write;
			}
			if (!same) {
				citcat_errinfo_set(&a->f.err, CITCAT_ERR_CORRUPT, UINT64_MAX,
						   "exception entry before instruction %llu: the entry rebuilt from the DAF (or the "
						   "instruction it corrects) differs from the flow %s's: not the same run, or one of "
						   "them is damaged", (unsigned long long)a->insn, a->f.path);
				return CITCAT_ERR_CORRUPT;
			}
			a->pending = 0;
			if (!fill)
				return 1;
			w->r.kind = citcat_daf_decoder_stats(a->d)->fixes != b.fixes ? "entry+fix" : "entry";
			fu(w, DC_INSN, a->insn);
			fx(w, DC_PC, fr->line, 2);
			if (a->out.n_acc) {
				format_refs(&a->out, a->acc, sizeof a->acc);
				fs(w, DC_ACC, a->acc);
			}
			return 1;
		}
		if (fr->kind != CITCAT_REC_INSN)
			continue;
		if (a->pending) {
			citcat_errinfo_set(&a->f.err, CITCAT_ERR_CORRUPT, UINT64_MAX,
					   "instruction %llu: the accesses rebuilt from the DAF differ from the flow %s's: not "
					   "the same run, or one of them is damaged", (unsigned long long)a->pending_insn, a->f.path);
			return CITCAT_ERR_CORRUPT;
		}
		if ((rc = citcat_daf_decode_isa(a->d, fr->pc, fr->word, fr->size ? fr->size : 4, fr->thumb, &a->out)) < 0)
			return rc;
		const struct citcat_daf_stats *n = citcat_daf_decoder_stats(a->d);
		uint64_t insn = a->insn++;
		/* the rebuilt accesses must be the flow's: else the two are not of
		 * the same run */
		int same = a->out.n_acc == fr->n_acc;
		for (uint32_t i = 0; same && i < fr->n_acc; i++)
			same = a->out.acc[i].addr == fr->acc[i].addr && a->out.acc[i].size == fr->acc[i].size &&
			       a->out.acc[i].write == fr->acc[i].write;
		if (!same && citcat_daf_decoder_m7(a->d)) { /* an entry may correct it */
			a->pending = 1;
			a->pending_insn = insn;
			a->last = a->out;
			a->truth = *fr;
		} else if (!same) {
			citcat_errinfo_set(&a->f.err, CITCAT_ERR_CORRUPT, UINT64_MAX,
					   "instruction %llu (pc 0x%08x): the accesses rebuilt from the DAF differ from "
					   "the flow %s's: not the same run, or one of them is damaged",
					   (unsigned long long)insn, (unsigned)fr->pc, a->f.path);
			return CITCAT_ERR_CORRUPT;
		}
		if (n->records == b.records)
			continue; /* inferred: no record */
		if (!fill)
			return 1;
		int traced = n->loads_traced + n->stores_traced != b.loads_traced + b.stores_traced;
		fu(w, DC_INSN, insn);
		fx(w, DC_PC, fr->pc, 8);
		if (n->escapes != b.escapes) {
			w->r.kind = "escape";
		} else if (n->returns != b.returns || (!a->out.n_acc && n->cond_bits == b.cond_bits)) {
			w->r.kind = "return"; /* the M7's return record (returned, or not) */
		} else if (n->cond_bits != b.cond_bits) {
			w->r.kind = "cond";
			fu(w, DC_EXEC, a->out.n_acc != 0);
			if (traced)
				fx(w, DC_ADDR, a->out.acc[0].addr, 8);
		} else {
			w->r.kind = "addr";
			fx(w, DC_ADDR, a->out.acc[0].addr, 8);
		}
		if (a->out.n_acc) {
			format_refs(&a->out, a->acc, sizeof a->acc);
			fs(w, DC_ACC, a->acc);
		}
		return 1;
	}
}

int citcat_dump_daf(const char *path, const struct citcat_dump_opts *o, const struct citcat_dump_sink *s,
		    struct citcat_errinfo *err)
{
	struct daf_src *a = calloc(1, sizeof *a);
	if (!a)
		return CITCAT_ERR_NOMEM;
	int rc = flow_open(&a->f, o, "DAF");
	if (!rc)
		rc = citcat_daf_decoder_open(&a->d, path);
	struct citcat_dump_schema sc = {"daf", CITCAT_DAF_VERSION, DC_N, daf_cols};
	rc = walk_run(rc, o, s, &sc, daf_next, daf_error, a, err);
	citcat_daf_decoder_close(a->d);
	citcat_itrace_reader_close(a->f.it);
	free(a);
	return rc;
}

/* ---- SDC-LSP ---- */

enum { SC_REPEAT = 2, SC_RUN, SC_INSN, SC_PC, SC_SL, SC_SI, SC_SENT, SC_N };
static const char *const sdc_cols[SC_N] = {"rec", "kind", "repeat", "run", "insn", "pc", "sl", "si", "sa_sent"};

struct sdc_src {
	struct sdclsp_decoder *d;
	struct sdclsp_dec_stream st;
	int have; /* ST is a stream not handed out yet */
	uint32_t polls;
	struct citcat_errinfo err;
};

static const struct citcat_errinfo *sdc_error(void *ctx)
{
	struct sdc_src *c = ctx;
	return c->err.code ? &c->err : sdclsp_decoder_error(c->d);
}

static void sdc_stream(void *ctx, const struct sdclsp_dec_stream *st)
{
	struct sdc_src *c = ctx;
	c->st = *st;
	c->have = 1;
}

static int sdc_next(void *ctx, struct walk *w, int fill)
{
	struct sdc_src *c = ctx;
	while (!c->have) { /* instructions inside a stream read no record */
		uint64_t pc;
		int rc = walk_poll(w, &c->polls);
		if (rc || (rc = sdclsp_decoder_next(c->d, &pc)) <= 0)
			return rc;
	}
	c->have = 0;
	if (!fill)
		return 1;
	static const char *const kinds[] = {"?", "lsp_hit", "sdc_hit", "sdc_miss"};
	const struct sdclsp_dec_stream *st = &c->st;
	w->r.kind = kinds[st->kind];
	if (st->copy)
		fu(w, SC_REPEAT, 1);
	else if (st->kind == SDCLSP_DEC_LSP_HIT)
		fu(w, SC_RUN, st->run);
	fu(w, SC_INSN, st->insn);
	fx(w, SC_PC, st->sa, 8);
	fu(w, SC_SL, st->sl);
	if (st->kind != SDCLSP_DEC_SDC_MISS)
		fu(w, SC_SI, st->si);
	else
		fu(w, SC_SENT, st->sa_sent);
	return 1;
}

int citcat_dump_sdclsp(const char *path, const struct citcat_dump_opts *o, const struct citcat_dump_sink *s,
		       struct citcat_errinfo *err)
{
	struct sdc_src c = {0};
	int rc;
	if (!o || o->size < sizeof *o || !o->image) {
		rc = citcat_errinfo_set(&c.err, CITCAT_ERR_INVAL, UINT64_MAX,
					"an SDC-LSP stream decodes only with the program image");
	} else if ((rc = sdclsp_decoder_open(&c.d, path, o->image)) == 0) {
		sdclsp_decoder_set_stream_cb(c.d, sdc_stream, &c);
	}
	struct citcat_dump_schema sc = {"sdclsp", SDCLSP_VERSION, SC_N, sdc_cols};
	rc = walk_run(rc, o, s, &sc, sdc_next, sdc_error, &c, err);
	sdclsp_decoder_close(c.d);
	return rc;
}
