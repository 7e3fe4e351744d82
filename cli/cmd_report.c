/* citcat report: one self-contained HTML page (inline SVG, no script, no
 * network) describing a run, and optionally the same series as CSV.
 *
 * Where each bus event falls in the instruction stream is not in the CAT
 * (only interrupts and DMA carry a position), so the report replays the run
 * (IMS + AES extracted from the CAT into a temporary directory) with the
 * replayer's observer, and verifies the regenerated bus trace against the
 * CAT while doing so: every number on the page is a replayed, checked one.
 * Memory stays bounded whatever the run's length: the IMS names the
 * instruction count up front, so the run is cut into at most REPORT_BUCKETS
 * buckets of equal size before it starts; per-function tables grow with
 * the ELF's functions only. */
#include "cli.h"
#include <citcat/itrace.h>
#include <citcat/cat.h>
#include <citcat/ims.h>
#include <citcat/io.h>
#include <citcat/listing.h>
#include <citcat/replay.h>
#include <citcat/symbols.h>

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define REPORT_BUCKETS 1000
#define TAIL 12 /* records of the run's end listed in the summary */
#define EV_KINDS 9 /* CAT kinds 1..8 (FILL_I .. IRQ) */

static const char report_help[] =
	"usage: citcat report RUN.cat -o REPORT.html [--itrace RUN.itrace] [--elf FW.elf] [--csv OUT.csv]\n"
	"                     [--buckets N]\n\n"
	"Writes one self-contained HTML page (inline SVG, no script, no network) about a\n"
	"run: bus events per instruction bucket stacked by kind, the interrupt and DMA\n"
	"timeline, CAT and IMS+AES bits per instruction over the run, I- and D-cache miss\n"
	"rates, the top functions by instructions and by misses (with --elf), and the\n"
	"density of the formats.  The run is replayed from the CAT's IMS and AES and the\n"
	"regenerated bus trace verified against the CAT on the way (exit 1 if it differs).\n"
	"  -o FILE          the HTML page ('-' for standard output)\n"
	"  --itrace FILE    the run's instruction trace: also compared with the replay, and\n"
	"                   its size (and PDATS II and SDC-LSP conversions) in the density table\n"
	"  --elf FILE       the firmware ELF: function names and source lines\n"
	"  --csv FILE       the per-bucket series as CSV\n"
	"  --buckets N      points per series (default and maximum 1000)\n";

static const char *const kind_names[EV_KINDS] = {"", "fill_i", "fill_d", "writeback", "write", "uread", "uwrite", "dma", "irq"};
static const char *const kind_colors[EV_KINDS] = {"", "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948",
						  "#b07aa1", "#ff9da7"};

struct bucket {
	uint64_t insns, ev[EV_KINDS], dacc, ims_lines, dma_bytes;
	double cat_raw, aes_raw;
};

struct fstat {
	uint64_t start;
	const char *name;
	uint64_t insns, imiss, dmiss;
};

struct report {
	uint64_t total, bsize, insn;
	unsigned nb;
	struct bucket *b;
	struct citcat_target_config cfg;
	/* CAT raw-size model (CAT.md's delta state) */
	uint32_t mem, dev, pc;
	uint64_t bcount;
	/* lines first filled (the IMS holds their bytes) */
	uint8_t *seen;
	uint32_t seen_line, seen_n;
	double aes_per[EV_KINDS]; /* AES raw bytes per bus event of that kind */
	/* misses of the instruction being executed, attributed at its record */
	unsigned pend_i, pend_d;
	struct citcat_symbols *syms;
	struct fstat *f;
	size_t nf, capf;
	size_t *fslot; /* open hash over f by function start */
	size_t fslots;
	struct fstat nofunc;
	/* interrupts by line (A target) or exception number (Cortex-M7: EXC
	 * events, counted with the IRQ kind) */
	uint64_t totals[EV_KINDS], dacc, irq_by_line[512];
	uint64_t cat_count[EV_KINDS], cat_before[EV_KINDS]; /* in the CAT file; before its SYNC */
	int m7;                                             /* the CAT's target is the Cortex-M7 */
	/* how the run ended (the CAT's STOP), for the summary */
	int have_stop, have_exit, has_m7f;
	struct citcat_cat_event stop;
	struct citcat_m7_fault m7f;
	int32_t exit_value;
	uint32_t sync_pc;
	struct citcat_cat_elf elf;
	int have_elf;
	/* the last interrupt or exception entry the replay made */
	int irq_seen;
	unsigned irq_line;
	uint64_t irq_epc, irq_index;
	/* the last records, for the listing of the run's end */
	struct citcat_itrace_rec *tail;
	uint64_t ntail, tail_first_insn[TAIL];
	int nomem;
	struct citcat_errinfo oerr;
};

static struct bucket *cur_bucket(struct report *r)
{
	uint64_t k = r->insn / r->bsize;
	return &r->b[k < r->nb ? k : r->nb - 1];
}

static unsigned varint_len(uint64_t v)
{
	unsigned n = 1;
	while (v >= 0x80) {
		v >>= 7;
		n++;
	}
	return n;
}

static uint64_t zz(int64_t v) { return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63); }

/* The bytes CAT.md's layout gives the event before compression (the delta
 * state is kept across chunks, which the writer resets: a slight
 * overestimate at each 1 MiB chunk start). */
static unsigned cat_raw_bytes(struct report *r, const struct citcat_cat_event *ev)
{
	unsigned n = 1;
	switch (ev->kind) {
	case CITCAT_CAT_FILL_I: case CITCAT_CAT_FILL_D: case CITCAT_CAT_WRITEBACK:
		n += varint_len(zz((int64_t)ev->addr - (int64_t)r->mem)) + ev->len;
		r->mem = ev->addr + ev->len;
		break;
	case CITCAT_CAT_WRITE:
		n += varint_len(zz((int64_t)ev->addr - (int64_t)r->mem)) + varint_len(ev->value);
		r->mem = ev->addr + ev->size;
		break;
	case CITCAT_CAT_UREAD: case CITCAT_CAT_UWRITE:
		n += varint_len(zz((int64_t)ev->addr - (int64_t)r->dev)) + varint_len(ev->value);
		r->dev = ev->addr;
		break;
	case CITCAT_CAT_DMA:
		n += varint_len(zz((int64_t)ev->addr - (int64_t)r->mem)) + varint_len(ev->len) +
		     varint_len(ev->bcount - r->bcount) + varint_len(zz((int64_t)ev->pc - (int64_t)r->pc)) + ev->len;
		r->mem = ev->addr + ev->len;
		r->bcount = ev->bcount;
		r->pc = ev->pc;
		break;
	case CITCAT_CAT_IRQ:
	case CITCAT_CAT_EXC:
		n += varint_len(ev->bcount - r->bcount) + varint_len(zz((int64_t)ev->pc - (int64_t)r->pc));
		if (ev->kind == CITCAT_CAT_EXC)
			n += varint_len(ev->value);
		r->bcount = ev->bcount;
		r->pc = ev->pc;
		break;
	}
	if (r->cfg.timestamps)
		n += 2; /* a cycle delta: typically two varint bytes */
	return n;
}

/* The kind an event is counted under: a Cortex-M7 exception (EXC) with the
 * interrupts (IRQ), 0 for a kind the report does not draw. */
static int drawn_kind(const struct citcat_cat_event *ev)
{
	if (ev->kind == CITCAT_CAT_EXC)
		return CITCAT_CAT_IRQ;
	return ev->kind >= 1 && ev->kind < EV_KINDS ? ev->kind : 0;
}

static int obs_bus(void *ctx, const struct citcat_cat_event *ev)
{
	struct report *r = ctx;
	int kind = drawn_kind(ev);
	if (!kind)
		return 0;
	struct bucket *b = cur_bucket(r);
	b->ev[kind]++;
	r->totals[kind]++;
	b->cat_raw += cat_raw_bytes(r, ev);
	b->aes_raw += r->aes_per[kind];
	if (ev->kind == CITCAT_CAT_FILL_I)
		r->pend_i++;
	else if (ev->kind == CITCAT_CAT_FILL_D)
		r->pend_d++;
	else if (ev->kind == CITCAT_CAT_DMA)
		b->dma_bytes += ev->len;
	else if (ev->kind == CITCAT_CAT_IRQ)
		r->irq_by_line[ev->line & 15]++;
	else if (ev->kind == CITCAT_CAT_EXC)
		r->irq_by_line[ev->value & 511]++;
	if ((ev->kind == CITCAT_CAT_FILL_I || ev->kind == CITCAT_CAT_FILL_D) && r->seen) {
		uint32_t i = (ev->addr - r->cfg.ram_base) / r->seen_line;
		if (i < r->seen_n && !((r->seen[i >> 3] >> (i & 7)) & 1)) {
			r->seen[i >> 3] |= (uint8_t)(1u << (i & 7));
			b->ims_lines++;
		}
	}
	return 0;
}

static struct fstat *func_of(struct report *r, uint64_t pc)
{
	struct citcat_symloc loc;
	if (!r->syms || citcat_symbols_lookup(r->syms, pc, &loc) <= 0 || !loc.func)
		return &r->nofunc;
	if (r->nf * 2 >= r->fslots) { /* grow the hash (functions of one ELF: bounded) */
		size_t ns = r->fslots ? r->fslots * 2 : 1024;
		size_t *nsl = malloc(ns * sizeof *nsl);
		if (!nsl) {
			r->nomem = 1;
			return &r->nofunc;
		}
		for (size_t i = 0; i < ns; i++)
			nsl[i] = SIZE_MAX;
		for (size_t k = 0; k < r->nf; k++) {
			size_t h = (size_t)(r->f[k].start * 0x9e3779b97f4a7c15ull >> 20) & (ns - 1);
			while (nsl[h] != SIZE_MAX)
				h = (h + 1) & (ns - 1);
			nsl[h] = k;
		}
		free(r->fslot);
		r->fslot = nsl;
		r->fslots = ns;
	}
	size_t h = (size_t)(loc.func_start * 0x9e3779b97f4a7c15ull >> 20) & (r->fslots - 1);
	while (r->fslot[h] != SIZE_MAX) {
		if (r->f[r->fslot[h]].start == loc.func_start)
			return &r->f[r->fslot[h]];
		h = (h + 1) & (r->fslots - 1);
	}
	if (r->nf == r->capf) {
		size_t nc = r->capf ? r->capf * 2 : 256;
		struct fstat *nf = realloc(r->f, nc * sizeof *nf);
		if (!nf) {
			r->nomem = 1;
			return &r->nofunc;
		}
		r->f = nf;
		r->capf = nc;
	}
	r->f[r->nf] = (struct fstat){.start = loc.func_start, .name = loc.func};
	r->fslot[h] = r->nf;
	return &r->f[r->nf++];
}

static int obs_record(void *ctx, const struct citcat_itrace_rec *rec, const uint32_t regs[CITCAT_OBS_NREGS])
{
	struct report *r = ctx;
	if (r->tail) { /* the run's last records, for the summary's listing */
		r->tail_first_insn[r->ntail % TAIL] = r->insn;
		r->tail[r->ntail++ % TAIL] = *rec;
	}
	if (rec->kind == CITCAT_REC_IRQ) {
		r->irq_seen = 1;
		r->irq_line = rec->line;
		r->irq_epc = rec->pc;
		r->irq_index = r->insn; /* the handler's first instruction */
	}
	if (rec->kind != CITCAT_REC_INSN)
		return 0; /* an interrupt entry: its misses go to the handler's first instruction */
	struct bucket *b = cur_bucket(r);
	b->insns++;
	for (uint32_t k = 0; k < rec->n_acc; k++)
		if (rec->acc[k].addr < CITCAT_DEV_BASE) {
			b->dacc++;
			r->dacc++;
		}
	if (r->syms) {
		struct fstat *f = func_of(r, rec->pc);
		f->insns++;
		f->imiss += r->pend_i;
		f->dmiss += r->pend_d;
	}
	r->pend_i = r->pend_d = 0;
	r->insn++;
	if (r->nomem)
		return citcat_errinfo_set(&r->oerr, CITCAT_ERR_NOMEM, UINT64_MAX, "out of memory");
	return 0;
}

static int progress_cb(void *ctx, uint64_t done, uint64_t total)
{
	cli_progress_update(ctx, done, total, "insn");
	return cli_interrupted();
}

static long long file_bytes(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 ? (long long)st.st_size : -1;
}

/* ---- output ---- */

struct page {
	struct citcat_outfile *out;
	int failed;
};

static void put(struct page *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(struct page *p, const char *fmt, ...)
{
	char buf[4096];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof buf)
		n = sizeof buf - 1;
	if (!p->failed && citcat_outfile_write(p->out, buf, (size_t)n))
		p->failed = errno ? errno : EIO;
}

static void put_escaped(struct page *p, const char *s)
{
	for (; *s; s++) {
		if (*s == '<')
			put(p, "&lt;");
		else if (*s == '>')
			put(p, "&gt;");
		else if (*s == '&')
			put(p, "&amp;");
		else if (*s == '"')
			put(p, "&quot;");
		else
			put(p, "%c", *s);
	}
}

#define W 960
#define H 220
#define ML 60 /* left margin for the axis labels */
#define MB 24

static void axis(struct page *p, double ymax, const char *ylabel, uint64_t total)
{
	put(p, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#333\"/>", ML, H - MB, W, H - MB);
	put(p, "<line x1=\"%d\" y1=\"4\" x2=\"%d\" y2=\"%d\" stroke=\"#333\"/>", ML, ML, H - MB);
	put(p, "<text x=\"%d\" y=\"12\" font-size=\"11\" text-anchor=\"end\">%.4g</text>", ML - 4, ymax);
	put(p, "<text x=\"%d\" y=\"%d\" font-size=\"11\" text-anchor=\"end\">0</text>", ML - 4, H - MB);
	put(p, "<text x=\"4\" y=\"%d\" font-size=\"11\" transform=\"rotate(-90 10 %d)\">%s</text>", H / 2 + 30, H / 2,
	    ylabel);
	put(p, "<text x=\"%d\" y=\"%d\" font-size=\"11\">0</text>", ML, H - 6);
	put(p, "<text x=\"%d\" y=\"%d\" font-size=\"11\" text-anchor=\"end\">%llu instructions</text>", W, H - 6,
	    (unsigned long long)total);
}

static double bx(const struct report *r, unsigned i) { return ML + (double)(W - ML) * i / r->nb; }

/* A line chart of up to two series; VAL(i, s) gives series S at bucket I. */
static void line_chart(struct page *p, const struct report *r, const char *id, const char *ylabel, int nser,
		       const char *const *names, const char *const *colors, double (*val)(const struct report *, unsigned, int),
		       const double *totals)
{
	double ymax = 0;
	for (unsigned i = 0; i < r->nb; i++)
		for (int s = 0; s < nser; s++)
			if (val(r, i, s) > ymax)
				ymax = val(r, i, s);
	if (ymax <= 0)
		ymax = 1;
	put(p, "<svg id=\"%s\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\"", id, W, H, W, H);
	for (int s = 0; s < nser; s++)
		put(p, " data-%s=\"%.6g\"", names[s], totals[s]);
	put(p, ">");
	axis(p, ymax, ylabel, r->total);
	for (int s = 0; s < nser; s++) {
		put(p, "<polyline class=\"series\" data-series=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" points=\"",
		    names[s], colors[s]);
		for (unsigned i = 0; i < r->nb; i++)
			put(p, "%.1f,%.1f ", (bx(r, i) + bx(r, i + 1)) / 2, H - MB - (H - MB - 8) * val(r, i, s) / ymax);
		put(p, "\"/>");
		put(p, "<text x=\"%d\" y=\"%d\" font-size=\"12\" fill=\"%s\">%s: %.4g over the run</text>", ML + 10 + 260 * s,
		    16, colors[s], names[s], totals[s]);
	}
	put(p, "</svg>\n");
}

static double v_bits(const struct report *r, unsigned i, int s)
{
	const struct bucket *b = &r->b[i];
	return b->insns ? 8.0 * (s ? b->aes_raw : b->cat_raw) / (double)b->insns : 0;
}

static double v_miss(const struct report *r, unsigned i, int s)
{
	const struct bucket *b = &r->b[i];
	if (s == 0)
		return b->insns ? (double)b->ev[CITCAT_CAT_FILL_I] / (double)b->insns : 0;
	return b->dacc ? (double)b->ev[CITCAT_CAT_FILL_D] / (double)b->dacc : 0;
}

static int cmp_insns(const void *a, const void *b)
{
	const struct fstat *x = a, *y = b;
	return x->insns < y->insns ? 1 : x->insns > y->insns ? -1 : strcmp(x->name, y->name);
}

static int cmp_misses(const void *a, const void *b)
{
	const struct fstat *x = a, *y = b;
	uint64_t mx = x->imiss + x->dmiss, my = y->imiss + y->dmiss;
	return mx < my ? 1 : mx > my ? -1 : strcmp(x->name, y->name);
}

static void func_table(struct page *p, struct report *r, const char *id, int by_misses)
{
	qsort(r->f, r->nf, sizeof *r->f, by_misses ? cmp_misses : cmp_insns);
	size_t n = r->nf < 15 ? r->nf : 15;
	uint64_t top = n ? (by_misses ? r->f[0].imiss + r->f[0].dmiss : r->f[0].insns) : 1;
	if (!top)
		top = 1;
	put(p, "<svg id=\"%s\" width=\"%d\" height=\"%zu\" viewBox=\"0 0 %d %zu\">", id, W, 20 * n + 10, W, 20 * n + 10);
	for (size_t i = 0; i < n; i++) {
		const struct fstat *f = &r->f[i];
		uint64_t v = by_misses ? f->imiss + f->dmiss : f->insns;
		put(p, "<text x=\"0\" y=\"%zu\" font-size=\"12\">", 20 * i + 15);
		put_escaped(p, f->name);
		put(p, "</text><rect class=\"bar\" data-function=\"");
		put_escaped(p, f->name);
		put(p, "\" data-value=\"%llu\" x=\"220\" y=\"%zu\" width=\"%.1f\" height=\"14\" fill=\"%s\"/>",
		    (unsigned long long)v, 20 * i + 4, 1 + 500.0 * (double)v / (double)top, by_misses ? "#e15759" : "#4e79a7");
		if (by_misses)
			put(p, "<text x=\"730\" y=\"%zu\" font-size=\"12\">%llu (I %llu, D %llu)</text>", 20 * i + 15,
			    (unsigned long long)v, (unsigned long long)f->imiss, (unsigned long long)f->dmiss);
		else
			put(p, "<text x=\"730\" y=\"%zu\" font-size=\"12\">%llu (%.1f%%)</text>", 20 * i + 15, (unsigned long long)v,
			    100.0 * (double)v / (double)(r->insn ? r->insn : 1));
	}
	put(p, "</svg>\n");
}

struct density {
	const char *name;
	long long bytes;
};

static const char *const repl_names[] = {"LRU", "FIFO", "PLRU", "random"};

/* "0xPC func+0xOFF (file:line)" into BUF, HTML-escaped by the caller. */
static const char *where(const struct report *r, uint64_t pc, char *buf, size_t n)
{
	return cli_describe_pc(r->syms, pc, buf, n);
}

/* The name of an interrupt line (A target) or Cortex-M7 exception number. */
static const char *irq_name(const struct report *r, unsigned line, char *buf, size_t n)
{
	if (!r->m7)
		snprintf(buf, n, "interrupt line %u", line);
	else if (line >= 16)
		snprintf(buf, n, "IRQ %u (exception %u)", line - 16, line);
	else
		snprintf(buf, n, "%s (exception %u)", citcat_m7_exception_name(line), line);
	return buf;
}

static void cache_text(char *buf, size_t n, const char *what, const struct citcat_cache_config *c, int dside)
{
	snprintf(buf, n, "%s %u KiB, %u-way, %u-byte lines, %s%s", what, c->size / 1024, c->ways, c->line,
		 c->repl < 4 ? repl_names[c->repl] : "?", dside ? (c->write_through ? ", write-through" : ", write-back") : "");
}

static void kv(struct page *p, const char *key, const char *id, const char *value)
{
	put(p, "<tr%s%s%s><th>%s</th><td>", id ? " id=\"" : "", id ? id : "", id ? "\"" : "", key);
	put_escaped(p, value);
	put(p, "</td></tr>\n");
}

/* The summary at the top: how the run ended (stop reason, fault, where,
 * the last interrupt, the exit value), what ran and on which target
 * (instructions, caches, seed, firmware), and for an abnormal end the
 * last instructions as the listing gives them (TAIL_TEXT, may be NULL). */
static void summary(struct page *p, const struct report *r, const char *tail_text)
{
	const struct citcat_cat_event *st = &r->stop;
	char buf[4608], pcb[320];
	put(p, "<section id=\"run-summary\" data-stop=\"%s\"", r->have_stop ? citcat_stop_reason_name(st->line) : "none");
	if (r->have_exit)
		put(p, " data-exit-value=\"%d\"", (int)r->exit_value);
	if (r->have_stop && st->line == CITCAT_STOP_FAULT)
		put(p, " data-fault-kind=\"%u\" data-fault-pc=\"%u\" data-fault-addr=\"%u\"", (unsigned)st->value, st->pc,
		    st->addr);
	if (r->has_m7f)
		put(p, " data-cfsr=\"%u\" data-hfsr=\"%u\"", r->m7f.cfsr, r->m7f.hfsr);
	if (r->irq_seen)
		put(p, " data-last-irq=\"%u\" data-last-irq-insn=\"%llu\"", r->irq_line, (unsigned long long)r->irq_index);
	put(p, " data-insns=\"%llu\" data-seed=\"%llu\">\n<h2>How the run ended</h2>\n<table class=\"kv\">\n",
	    (unsigned long long)r->insn, (unsigned long long)r->cfg.seed);
	if (!r->have_stop) {
		kv(p, "stopped by", "stop", "no STOP event: the CAT ends without one");
	} else if (st->line == CITCAT_STOP_FAULT) {
		snprintf(buf, sizeof buf, "a fault: %s", citcat_fault_kind_name((unsigned)st->value));
		kv(p, "stopped by", "stop", buf);
		if (r->has_m7f)
			citcat_m7_fault_describe(&r->m7f, buf, sizeof buf);
		else if (st->value == CITCAT_FAULT_EXCEPTION)
			snprintf(buf, sizeof buf, "%s", irq_name(r, st->addr, pcb, sizeof pcb));
		else
			snprintf(buf, sizeof buf, "address 0x%08x", st->addr);
		kv(p, "fault", "fault", buf);
		kv(p, "at", "fault-pc", where(r, st->pc, pcb, sizeof pcb));
	} else {
		static const char *const why[] = {"the firmware's exit (EXIT)", "the trace module's STOP command",
						  "the instruction limit (--max-insns)", "a fault",
						  "a WFI that nothing can wake (deadlock)",
						  "an interrupted capture (SIGINT, SIGTERM or SIGHUP)"};
		kv(p, "stopped by", "stop", st->line < 6 ? why[st->line] : "?");
	}
	if (r->have_exit) {
		snprintf(buf, sizeof buf, "%d", (int)r->exit_value);
		kv(p, "exit value", "exit-value", buf);
	} else if (r->have_stop && st->line == CITCAT_STOP_EXIT) {
		kv(p, "exit value", "exit-value", "not recorded (the EXIT write came before the trace start point)");
	} else {
		kv(p, "exit value", "exit-value", "none: the firmware did not exit");
	}
	if (r->irq_seen) {
		char name[64];
		snprintf(buf, sizeof buf, "%s, entered before instruction #%llu (%llu before the end), returning to %s",
			 irq_name(r, r->irq_line, name, sizeof name), (unsigned long long)r->irq_index,
			 (unsigned long long)(r->insn - r->irq_index), where(r, r->irq_epc, pcb, sizeof pcb));
		kv(p, "last interrupt", "last-irq", buf);
	} else {
		kv(p, "last interrupt", "last-irq", r->m7 ? "none: no exception was taken" : "none: no interrupt was taken");
	}
	snprintf(buf, sizeof buf, "%llu instructions, %llu branches, %llu cycles from the trace start point %s",
		 (unsigned long long)r->insn, (unsigned long long)st->bcount, (unsigned long long)st->cycle,
		 where(r, r->sync_pc, pcb, sizeof pcb));
	kv(p, "run", "run", buf);
	char ic[128], dc[128];
	cache_text(ic, sizeof ic, "I-cache", &r->cfg.icache, 0);
	cache_text(dc, sizeof dc, "D-cache", &r->cfg.dcache, 1);
	snprintf(buf, sizeof buf, "%s; %s; %s; RAM 0x%08x + %u KiB; penalties: miss %u, write-back %u, uncached %u cycles",
		 r->m7 ? "Cortex-M7 (ARMv7-M)" : "ARMv7-A (ARM and Thumb-2)", ic, dc, r->cfg.ram_base, r->cfg.ram_size / 1024,
		 r->cfg.pen_miss, r->cfg.pen_wb, r->cfg.pen_uncached);
	kv(p, "target", "target", buf);
	snprintf(buf, sizeof buf, "%llu (device input; capture --seed)", (unsigned long long)r->cfg.seed);
	kv(p, "seed", "seed", buf);
	if (r->have_elf) {
		char id[2 * CITCAT_CAT_BUILD_ID_MAX + 1] = "none";
		for (unsigned i = 0; i < r->elf.build_id_len; i++)
			snprintf(id + 2 * i, 3, "%02x", r->elf.build_id[i]);
		snprintf(buf, sizeof buf, "%s (build id %s)", r->elf.path, id);
		kv(p, "firmware", "firmware", buf);
	}
	put(p, "</table>\n");
	if (tail_text && tail_text[0]) {
		put(p, "<h2>The last instructions</h2>\n<pre id=\"last-insns\">");
		put_escaped(p, tail_text);
		put(p, "</pre>\n");
	}
	put(p, "</section>\n");
}

static void write_page(struct page *p, struct report *r, const char *cat, const char *elf, const struct density *d,
		       size_t nd, const char *tail_text)
{
	put(p, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>citcat report: ");
	put_escaped(p, cat);
	/* the charts scale with the page (viewBox, width 100%) */
	put(p, "</title>\n<style>body{font-family:sans-serif;margin:20px}h2{font-size:16px;margin:18px 0 4px}"
	       "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 8px;text-align:right}"
	       "td:first-child,th:first-child{text-align:left}.k{display:inline-block;width:10px;height:10px;margin:0 3px 0 10px}"
	       "svg{display:block;width:100%%;height:auto}table.kv th{text-align:left;background:#f4f4f4;font-weight:normal}"
	       "table.kv td{text-align:left}#run-summary{border-left:4px solid #4e79a7;padding-left:12px}"
	       "#run-summary[data-stop=fault]{border-color:#e15759}pre{font-size:12px;overflow-x:auto}table.kv th{white-space:nowrap}"
	       "</style></head><body>\n");
	put(p, "<h1 style=\"font-size:20px\">citcat report: ");
	put_escaped(p, cat);
	put(p, "</h1>\n<p id=\"summary\" data-instructions=\"%llu\" data-buckets=\"%u\" data-bucket-insns=\"%llu\">"
	       "%llu instructions, replayed from the CAT's IMS and AES and verified against the CAT event for event; "
	       "%u buckets of %llu instructions.",
	    (unsigned long long)r->insn, r->nb, (unsigned long long)r->bsize, (unsigned long long)r->insn, r->nb,
	    (unsigned long long)r->bsize);
	if (elf) {
		put(p, " Symbols: ");
		put_escaped(p, elf);
		put(p, ".");
	}
	put(p, "</p>\n");
	summary(p, r, tail_text);

	/* 1. bus events per bucket, stacked by kind */
	double ymax = 1;
	for (unsigned i = 0; i < r->nb; i++) {
		double s = 0;
		for (int k = 1; k < EV_KINDS; k++)
			s += (double)r->b[i].ev[k];
		if (s > ymax)
			ymax = s;
	}
	put(p, "<h2>Bus events per %llu instructions, by kind</h2><div>", (unsigned long long)r->bsize);
	for (int k = 1; k < EV_KINDS; k++) /* the kinds the run has (irq: the M7's exceptions too) */
		if (r->cat_count[k])
			put(p, "<span class=\"k\" style=\"background:%s\"></span>%s %llu", kind_colors[k],
			    k == CITCAT_CAT_IRQ && r->m7 ? "exceptions" : kind_names[k], (unsigned long long)r->cat_count[k]);
	put(p, "</div>");
	uint64_t before = 0;
	for (int k = 1; k < EV_KINDS; k++)
		before += r->cat_before[k];
	if (before) {
		put(p, "<p style=\"font-size:12px\">Counts are the CAT's; events before the trace start point (the "
		       "driver's register dump) are not drawn:");
		for (int k = 1; k < EV_KINDS; k++)
			if (r->cat_before[k])
				put(p, " %s %llu;", kind_names[k], (unsigned long long)r->cat_before[k]);
		put(p, "</p>");
	}
	put(p, "\n<svg id=\"bus-events\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\"", W, H, W, H);
	for (int k = 1; k < EV_KINDS; k++)
		put(p, " data-%s=\"%llu\" data-drawn-%s=\"%llu\"", kind_names[k], (unsigned long long)r->cat_count[k],
		    kind_names[k], (unsigned long long)r->totals[k]);
	put(p, ">");
	axis(p, ymax, "events", r->total);
	for (int k = 1; k < EV_KINDS; k++) {
		put(p, "<g class=\"kind\" data-kind=\"%s\" fill=\"%s\">", kind_names[k], kind_colors[k]);
		for (unsigned i = 0; i < r->nb; i++) {
			if (!r->b[i].ev[k])
				continue;
			double below = 0;
			for (int j = 1; j < k; j++)
				below += (double)r->b[i].ev[j];
			double y0 = H - MB - (H - MB - 8) * below / ymax, hh = (H - MB - 8) * (double)r->b[i].ev[k] / ymax;
			put(p, "<rect x=\"%.1f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\"/>", bx(r, i), y0 - hh,
			    bx(r, i + 1) - bx(r, i), hh);
		}
		put(p, "</g>");
	}
	put(p, "</svg>\n");

	/* 2. interrupts (the Cortex-M7's exceptions) and DMA: one strip each
	 * the run has; no section when it has neither */
	uint64_t nirq = r->totals[CITCAT_CAT_IRQ], ndma = r->totals[CITCAT_CAT_DMA];
	if (nirq || ndma) {
		const char *what = r->m7 ? "Exceptions" : "Interrupts";
		put(p, "<h2>%s%s over the run</h2>\n", nirq ? what : "", nirq && ndma ? " and DMA transfers" : ndma ? "DMA transfers" : "");
		int strips = (nirq != 0) + (ndma != 0);
		put(p, "<svg id=\"timeline\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" data-irq=\"%llu\" data-dma=\"%llu\">",
		    W, 40 * strips + 10, W, 40 * strips + 10, (unsigned long long)nirq, (unsigned long long)ndma);
		int y = 0;
		for (int s = 0; s < 2; s++) {
			int kind = s ? CITCAT_CAT_DMA : CITCAT_CAT_IRQ;
			uint64_t tot = s ? ndma : nirq, m = 1;
			if (!tot)
				continue;
			for (unsigned i = 0; i < r->nb; i++)
				if (r->b[i].ev[kind] > m)
					m = r->b[i].ev[kind];
			put(p, "<text x=\"0\" y=\"%d\" font-size=\"12\">%s %llu</text>", y + 24,
			    s ? "dma" : r->m7 ? "exc" : "irq", (unsigned long long)tot);
			for (unsigned i = 0; i < r->nb; i++) {
				const struct bucket *b = &r->b[i];
				if (b->ev[kind])
					put(p, "<rect class=\"%s\" x=\"%.1f\" y=\"%.1f\" width=\"%.2f\" height=\"%.1f\" fill=\"%s\"/>",
					    s ? "dma" : "irq", bx(r, i), y + 34 - 30.0 * (double)b->ev[kind] / (double)m,
					    bx(r, i + 1) - bx(r, i), 30.0 * (double)b->ev[kind] / (double)m, kind_colors[kind]);
			}
			y += 40;
		}
		put(p, "</svg>");
		if (nirq) {
			put(p, "<p>%s:", r->m7 ? "Exceptions by number" : "Interrupts by line");
			char name[64];
			for (unsigned l = 0; l < 512; l++)
				if (r->irq_by_line[l])
					put(p, " %s: %llu;", irq_name(r, l, name, sizeof name), (unsigned long long)r->irq_by_line[l]);
			put(p, "</p>");
		}
		put(p, "\n");
	}

	/* 3. bits per instruction */
	double cat_tot = 0, aes_tot = 0;
	for (unsigned i = 0; i < r->nb; i++) {
		cat_tot += r->b[i].cat_raw;
		aes_tot += r->b[i].aes_raw;
	}
	static const char *const bnames[2] = {"cat", "ims_aes"}, *const bcolors[2] = {"#4e79a7", "#59a14f"};
	double btot[2] = {r->insn ? 8.0 * cat_tot / (double)r->insn : 0, r->insn ? 8.0 * aes_tot / (double)r->insn : 0};
	put(p, "<h2>Bits per instruction over the run (file bytes spread over the buckets, see the notes)</h2>\n");
	line_chart(p, r, "bits", "bits/insn", 2, bnames, bcolors, v_bits, btot);

	/* 4. miss rates */
	static const char *const mnames[2] = {"icache_miss", "dcache_miss"}, *const mcolors[2] = {"#4e79a7", "#f28e2b"};
	double mtot[2] = {r->insn ? (double)r->totals[CITCAT_CAT_FILL_I] / (double)r->insn : 0,
			  r->dacc ? (double)r->totals[CITCAT_CAT_FILL_D] / (double)r->dacc : 0};
	put(p, "<h2>Cache miss rates (I: line fills per instruction fetch; D: fills per cacheable data access)</h2>\n");
	line_chart(p, r, "miss-rates", "miss rate", 2, mnames, mcolors, v_miss, mtot);

	/* 5. functions */
	if (r->syms) {
		put(p, "<h2>Top functions by instructions</h2>\n");
		func_table(p, r, "top-insns", 0);
		put(p, "<h2>Top functions by cache misses (line fills while they ran)</h2>\n");
		func_table(p, r, "top-misses", 1);
		if (r->nofunc.insns)
			put(p, "<p id=\"outside-functions\" data-insns=\"%llu\">%llu instructions outside any sized function "
			       "symbol.</p>\n",
			    (unsigned long long)r->nofunc.insns, (unsigned long long)r->nofunc.insns);
	}

	/* 6. density */
	put(p, "<h2>Format density for this run</h2>\n<table id=\"density\"><tr><th>format</th><th>bytes</th>"
	       "<th>bits per instruction</th></tr>\n");
	for (size_t i = 0; i < nd; i++)
		put(p, "<tr data-format=\"%s\" data-bytes=\"%lld\"><td>%s</td><td>%lld</td><td>%.3f</td></tr>\n", d[i].name,
		    d[i].bytes, d[i].name, d[i].bytes, r->insn ? 8.0 * (double)d[i].bytes / (double)r->insn : 0.0);
	put(p, "</table>\n<p style=\"font-size:12px;color:#555\">Notes: bus-event positions come from the replay "
	       "(verified against the CAT). Bits per instruction over time: the CAT's and the IMS+AES files' bytes are "
	       "spread over the buckets in proportion to each event's raw size (CAT.md layout) and, for the IMS, the "
	       "lines first filled there; the sums are the files' sizes. Misses of an instruction count for its "
	       "function; an interrupt entry's for the handler's first instruction.</p>\n</body></html>\n");
}

static void write_csv(struct page *p, const struct report *r)
{
	put(p, "first_insn,insns");
	for (int k = 1; k < EV_KINDS; k++)
		put(p, ",%s", kind_names[k]);
	put(p, ",dma_bytes,data_accesses,cat_bits_per_insn,ims_aes_bits_per_insn,icache_miss_rate,dcache_miss_rate\n");
	for (unsigned i = 0; i < r->nb; i++) {
		const struct bucket *b = &r->b[i];
		put(p, "%llu,%llu", (unsigned long long)(i * r->bsize), (unsigned long long)b->insns);
		for (int k = 1; k < EV_KINDS; k++)
			put(p, ",%llu", (unsigned long long)b->ev[k]);
		put(p, ",%llu,%llu,%.6f,%.6f,%.6f,%.6f\n", (unsigned long long)b->dma_bytes, (unsigned long long)b->dacc,
		    v_bits(r, i, 0), v_bits(r, i, 1), v_miss(r, i, 0), v_miss(r, i, 1));
	}
}

/* Both outputs are written in full before either is renamed into place. */
static int emit(const char *path, const char *csv, struct report *r, const char *cat, const char *elf,
		const struct density *d, size_t nd, const char *tail_text)
{
	struct page p = {0}, q = {0};
	struct citcat_errinfo err;
	if (citcat_outfile_open(&p.out, path, CITCAT_OUT_PLAIN, &err))
		return cli_errinfo(path, &err);
	if (csv && citcat_outfile_open(&q.out, csv, CITCAT_OUT_PLAIN, &err)) {
		citcat_outfile_abort(p.out);
		return cli_errinfo(csv, &err);
	}
	write_page(&p, r, cat, elf, d, nd, tail_text);
	if (csv)
		write_csv(&q, r);
	if (p.failed || q.failed) {
		citcat_outfile_abort(p.out);
		if (csv)
			citcat_outfile_abort(q.out);
		return cli_fail("%s: writing failed: %s", p.failed ? path : csv, strerror(p.failed ? p.failed : q.failed));
	}
	if (citcat_outfile_commit(p.out, &err)) {
		if (csv)
			citcat_outfile_abort(q.out);
		return cli_errinfo(path, &err);
	}
	if (csv && citcat_outfile_commit(q.out, &err))
		return cli_errinfo(csv, &err);
	return 0;
}

/* ---- the command ---- */

/* The run's last records (R->tail) and its abnormal end as the listing
 * gives them (formats/listing.h, with symbols), written to PATH and read
 * back without the listing's header: malloc'd text, or NULL. */
static char *tail_listing(struct report *r, const char *path)
{
	struct citcat_listing_writer *w;
	struct citcat_errinfo err;
	if (!r->tail || !r->ntail ||
	    citcat_listing_writer_open(&w, path, r->m7 ? CITCAT_ISA_ARMV7M : CITCAT_ISA_ARM_A32, &err))
		return NULL;
	citcat_listing_set_symbols(w, r->syms);
	uint64_t n = r->ntail < TAIL ? r->ntail : TAIL, first = r->ntail - n;
	int indexed = 0, rc = 0;
	const struct citcat_itrace_rec *last = NULL;
	for (uint64_t i = first; i < r->ntail && !rc; i++) {
		const struct citcat_itrace_rec *rec = &r->tail[i % TAIL];
		if (rec->kind == CITCAT_REC_INSN && !indexed) {
			citcat_listing_set_index(w, r->tail_first_insn[i % TAIL]);
			indexed = 1;
		}
		if (rec->kind == CITCAT_REC_INSN)
			last = rec;
		rc = citcat_listing_write(w, rec);
	}
	/* the end the CAT's STOP records (ITRACE.md, Abnormal end) */
	const struct citcat_cat_event *st = &r->stop;
	struct citcat_itrace_rec end = {.kind = CITCAT_REC_STOP, .line = st->line};
	if (r->have_stop && st->line == CITCAT_STOP_FAULT) {
		end.pc = st->pc;
		end.word = (uint32_t)st->value;
		end.fault_addr = st->addr;
		if (r->has_m7f)
			citcat_listing_set_m7_fault(w, &r->m7f);
	} else if (r->have_stop && st->line == CITCAT_STOP_WFI_DEADLOCK && last) {
		end.pc = last->pc;
	} else {
		end.kind = CITCAT_REC_INSN; /* nothing to add */
	}
	if (!rc && end.kind == CITCAT_REC_STOP)
		rc = citcat_listing_write(w, &end);
	citcat_listing_set_symbols(w, NULL);
	if (rc || citcat_listing_writer_close(w, &err)) {
		if (rc)
			citcat_listing_writer_abort(w);
		return NULL;
	}
	FILE *f = fopen(path, "rb"); /* our own temporary file */
	if (!f)
		return NULL;
	size_t cap = 1 << 16, len = 0;
	char *text = malloc(cap), line[4096];
	while (text && fgets(line, sizeof line, f)) {
		if (line[0] == '#')
			continue; /* the listing's header */
		size_t k = strlen(line);
		if (len + k + 1 > cap)
			break;
		memcpy(text + len, line, k);
		len += k;
	}
	fclose(f);
	if (text)
		text[len] = 0;
	return text;
}

/* The CAT's events per kind, and how many come before its SYNC. */
static int count_cat(const char *path, struct report *r)
{
	struct citcat_cat_reader *cr;
	int rc = citcat_cat_reader_open(&cr, path);
	if (rc) {
		cli_errinfo(path, citcat_cat_reader_error(cr));
		citcat_cat_reader_close(cr);
		return EXIT_USAGE;
	}
	struct citcat_cat_event ev;
	int synced = 0;
	uint64_t n = 0;
	const struct citcat_target_config *cfg = citcat_cat_config(cr);
	r->m7 = cfg->isa == CITCAT_TARGET_CORTEX_M7;
	const struct citcat_cat_elf *e = citcat_cat_elf(cr);
	if (e && e->path[0]) {
		r->elf = *e;
		r->have_elf = 1;
	}
	int32_t last_exit_write = 0;
	int have_exit_write = 0;
	while ((rc = citcat_cat_next(cr, &ev)) == 1) {
		if (ev.kind == CITCAT_CAT_SYNC) {
			synced = 1;
			r->sync_pc = ev.pc;
		}
		int kind = drawn_kind(&ev);
		if (kind) {
			r->cat_count[kind]++;
			r->cat_before[kind] += !synced;
		}
		if (ev.kind == CITCAT_CAT_UWRITE && ev.addr == cfg->dev_base) { /* the firmware's EXIT write (TARGET.md) */
			last_exit_write = (int32_t)(uint32_t)ev.value;
			have_exit_write = 1;
		} else if (ev.kind == CITCAT_CAT_STOP && !r->have_stop) {
			r->have_stop = 1;
			r->stop = ev;
			r->stop.data = NULL;
			r->has_m7f = citcat_cat_m7_fault(cr, &r->m7f) == 1;
			if (ev.line == CITCAT_STOP_EXIT && have_exit_write) {
				r->have_exit = 1;
				r->exit_value = last_exit_write;
			}
		}
		if ((++n & 0x3fff) == 0 && cli_interrupted()) {
			citcat_cat_reader_close(cr);
			return cli_fail("report: interrupted; no output written");
		}
	}
	if (rc < 0) {
		cli_errinfo(path, citcat_cat_reader_error(cr));
		citcat_cat_reader_close(cr);
		return EXIT_USAGE;
	}
	citcat_cat_reader_close(cr);
	return 0;
}


static void rm_tmp(char *dir, const char *const *names, size_t n)
{
	char path[4200];
	for (size_t i = 0; i < n; i++) {
		snprintf(path, sizeof path, "%s/%s", dir, names[i]);
		unlink(path);
	}
	rmdir(dir);
}

int cmd_report(int argc, char **argv)
{
	const char *cat = NULL, *out = NULL, *itrace = NULL, *elf = NULL, *csv = NULL;
	uint64_t nb = REPORT_BUCKETS;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (cli_is_help(a)) {
			fputs(report_help, stdout);
			return EXIT_OK;
		} else if (strcmp(a, "-o") == 0 && i + 1 < argc) {
			out = argv[++i];
		} else if (strcmp(a, "--itrace") == 0 && i + 1 < argc) {
			itrace = argv[++i];
		} else if (strcmp(a, "--elf") == 0 && i + 1 < argc) {
			elf = argv[++i];
		} else if (strcmp(a, "--csv") == 0 && i + 1 < argc) {
			csv = argv[++i];
		} else if (strcmp(a, "--buckets") == 0 && i + 1 < argc) {
			if (cli_parse_u64(argv[++i], &nb) || nb == 0 || nb > REPORT_BUCKETS)
				return cli_usage_error("report", "bad bucket count '%s' (1..%d)", argv[i], REPORT_BUCKETS);
		} else if (a[0] == '-' && a[1]) {
			return cli_usage_error("report", "unknown or incomplete option '%s'", a);
		} else if (!cat) {
			cat = a;
		} else {
			return cli_usage_error("report", "unexpected argument '%s'", a);
		}
	}
	if (!cat || !out)
		return cli_usage_error("report", "need RUN.cat and -o REPORT.html");
	const char *ins[] = {cat, itrace, elf}, *outs[] = {out, csv};
	if (cli_check_distinct(ins, 3, outs, 2))
		return EXIT_USAGE;

	struct report r = {0};
	static char recorded[4096];
	if (elf && cli_open_symbols(elf, &r.syms))
		return EXIT_USAGE;
	if (!elf && !cli_symbols_from_cat(cat, &r.syms, recorded, sizeof recorded) && r.syms)
		elf = recorded; /* the firmware the CAT records, build id checked */
	const char *tmpdir = getenv("TMPDIR");
	char dirbuf[4096];
	snprintf(dirbuf, sizeof dirbuf, "%s/citcat-report-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
	char *d = mkdtemp(dirbuf);
	if (!d) {
		citcat_symbols_close(r.syms);
		return cli_fail("cannot make a temporary directory: %s", strerror(errno));
	}
	static const char *const tnames[] = {"run.pdats2", "run.sdc", "tail.txt"};
	char p2_path[4200], sdc_path[4200], tail_path[4200];
	char *tail_text = NULL;
	snprintf(tail_path, sizeof tail_path, "%s/tail.txt", d);
	snprintf(p2_path, sizeof p2_path, "%s/run.pdats2", d);
	snprintf(sdc_path, sizeof sdc_path, "%s/run.sdc", d);
	int status = EXIT_USAGE;
	struct citcat_cat_replay *h = NULL;
	struct citcat_errinfo err = {0};
	struct citcat_aes_sizes az;
	struct cli_progress pr;
	cli_progress_init(&pr, "report");
	double t0 = cli_now();
	if (count_cat(cat, &r))
		goto done;
	if (citcat_cat_replay_open(&h, cat, d, &err)) {
		cli_errinfo(cat, &err);
		goto done;
	}
	const struct citcat_ims *ims = citcat_cat_replay_ims(h);
	const char *ims_path = citcat_cat_replay_ims_path(h), *aes_path = citcat_cat_replay_aes_path(h);
	if (citcat_aes_measure(aes_path, &az, &err)) {
		cli_errinfo(aes_path, &err);
		goto done;
	}
	r.cfg = ims->cfg;
	r.total = ims->id.insns;
	r.nb = (unsigned)(r.total < nb ? (r.total ? r.total : 1) : nb);
	r.bsize = r.total ? (r.total + r.nb - 1) / r.nb : 1;
	r.nb = (unsigned)((r.total + r.bsize - 1) / r.bsize);
	if (!r.nb)
		r.nb = 1;
	r.b = calloc(r.nb, sizeof *r.b);
	r.seen_line = ims->cfg.dcache.line < ims->cfg.icache.line ? ims->cfg.dcache.line : ims->cfg.icache.line;
	if (!r.seen_line)
		r.seen_line = 32;
	r.seen_n = ims->cfg.ram_size / r.seen_line;
	r.seen = calloc(r.seen_n / 8 + 1, 1);
	r.tail = calloc(TAIL, sizeof *r.tail);
	if (!r.b || !r.seen || !r.tail) {
		cli_fail("out of memory");
		goto done;
	}
	/* AES raw bytes per bus event of the kind that carries the record */
	{
		double ev_in = (double)(az.raw[CITCAT_AES_INPUT] + az.raw[CITCAT_AES_COUNTER]);
		uint64_t n_in = az.count[CITCAT_AES_INPUT] + az.count[CITCAT_AES_COUNTER];
		r.aes_per[CITCAT_CAT_IRQ] = az.count[CITCAT_AES_IRQ] ? (double)az.raw[CITCAT_AES_IRQ] / (double)az.count[CITCAT_AES_IRQ] : 0;
		r.aes_per[CITCAT_CAT_DMA] = az.count[CITCAT_AES_DMA] ? (double)az.raw[CITCAT_AES_DMA] / (double)az.count[CITCAT_AES_DMA] : 0;
		r.aes_per[CITCAT_CAT_UREAD] = n_in ? ev_in / (double)n_in : 0;
		r.aes_per[CITCAT_CAT_UWRITE] =
			az.count[CITCAT_AES_OUTPUT] ? (double)az.raw[CITCAT_AES_OUTPUT] / (double)az.count[CITCAT_AES_OUTPUT] : 0;
	}
	struct citcat_replay_observer obs = {.ctx = &r, .record = obs_record, .obs_err = &r.oerr};
	struct citcat_replay_config c;
	citcat_replay_config_default(&c);
	c.oracle = itrace;
	c.observer = &obs;
	c.bus = obs_bus;
	c.bus_ctx = &r;
	c.progress = progress_cb;
	c.progress_ctx = &pr;
	struct citcat_replay_result res;
	int rc = citcat_cat_replay_run(h, &c, &res, &err);
	cli_progress_done(&pr);
	if (rc == CITCAT_ERR_DIVERGED) {
		fprintf(stderr, "citcat report: the replay diverged (%s check at instruction #%llu): expected %s, found %s\n",
			res.div.check, (unsigned long long)res.div.insn_index, res.div.expected, res.div.found);
		status = EXIT_CHECK;
		goto done;
	}
	if (rc) {
		if (!err.msg[0])
			snprintf(err.msg, sizeof err.msg, "%s", citcat_errstr(rc));
		cli_errinfo(res.err_path ? res.err_path : "report", &err);
		goto done;
	}
	/* Every CAT event after the start point was regenerated at its place:
	 * the drawn counts and the CAT's must agree (a bug here otherwise). */
	for (int k = 1; k < EV_KINDS; k++)
		if (r.totals[k] + r.cat_before[k] != r.cat_count[k]) {
			cli_fail("report: %llu %s events replayed, but the CAT holds %llu after its start point (internal error)",
				 (unsigned long long)r.totals[k], kind_names[k],
				 (unsigned long long)(r.cat_count[k] - r.cat_before[k]));
			goto done;
		}
	/* Spread the files' bytes over the buckets (their sums become the sizes). */
	long long cat_b = file_bytes(cat), ims_b = file_bytes(ims_path), aes_b = file_bytes(aes_path);
	double craw = 0, araw = 0;
	uint64_t lines = 0;
	for (unsigned i = 0; i < r.nb; i++) {
		craw += r.b[i].cat_raw;
		araw += r.b[i].aes_raw;
		lines += r.b[i].ims_lines;
	}
	for (unsigned i = 0; i < r.nb; i++) {
		struct bucket *b = &r.b[i];
		b->cat_raw = craw > 0 ? (double)cat_b * b->cat_raw / craw : 0;
		b->aes_raw = (araw > 0 ? (double)aes_b * b->aes_raw / araw : 0) +
			     (lines ? (double)ims_b * (double)b->ims_lines / (double)lines : 0);
	}
	struct density dens[8];
	size_t nd = 0;
	dens[nd++] = (struct density){"CAT", cat_b};
	dens[nd++] = (struct density){"IMS", ims_b};
	dens[nd++] = (struct density){"AES", aes_b};
	dens[nd++] = (struct density){"IMS+AES", ims_b + aes_b};
	if (itrace) {
		struct convert_opts co = {.lz4 = 1, .scratch = 1}; /* its DMA warning would name a temporary file */
		dens[nd++] = (struct density){"itrace", file_bytes(itrace)};
		if (addr_convert(itrace, "itrace", p2_path, "pdats2", &co) == 0)
			dens[nd++] = (struct density){"PDATS II (LZ4)", file_bytes(p2_path)};
		struct convert_opts so = {.lz4 = -1};
		if (sdclsp_convert(itrace, "itrace", sdc_path, "sdclsp", &so) == 0)
			dens[nd++] = (struct density){"SDC-LSP (flow only)", file_bytes(sdc_path)};
	}
	/* an abnormal end (or a limit): the last instructions, as the listing shows them */
	if (r.have_stop && r.stop.line >= CITCAT_STOP_LIMIT)
		tail_text = tail_listing(&r, tail_path);
	status = emit(out, csv, &r, cat, elf, dens, nd, tail_text);
	if (!status && !cli_quiet)
		fprintf(stderr, "citcat report: %llu instructions in %u buckets, %s written in %.2f s\n",
			(unsigned long long)r.insn, r.nb, out, cli_now() - t0);
done:
	free(tail_text);
	free(r.tail);
	citcat_cat_replay_close(h);
	rm_tmp(d, tnames, sizeof tnames / sizeof *tnames);
	citcat_symbols_close(r.syms);
	free(r.b);
	free(r.seen);
	free(r.f);
	free(r.fslot);
	return status;
}
