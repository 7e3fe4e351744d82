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
#include "cat.h"
#include "ims.h"
#include "itrace.h"
#include "outfile.h"
#include "replay.h"
#include "symbols.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define REPORT_BUCKETS 1000
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
	uint64_t totals[EV_KINDS], dacc, irq_by_line[16];
	uint64_t cat_count[EV_KINDS], cat_before[EV_KINDS]; /* in the CAT file; before its SYNC */
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
		n += varint_len(ev->bcount - r->bcount) + varint_len(zz((int64_t)ev->pc - (int64_t)r->pc));
		r->bcount = ev->bcount;
		r->pc = ev->pc;
		break;
	}
	if (r->cfg.timestamps)
		n += 2; /* a cycle delta: typically two varint bytes */
	return n;
}

static int obs_bus(void *ctx, const struct citcat_cat_event *ev)
{
	struct report *r = ctx;
	if (ev->kind < 1 || ev->kind >= EV_KINDS)
		return 0;
	struct bucket *b = cur_bucket(r);
	b->ev[ev->kind]++;
	r->totals[ev->kind]++;
	b->cat_raw += cat_raw_bytes(r, ev);
	b->aes_raw += r->aes_per[ev->kind];
	if (ev->kind == CITCAT_CAT_FILL_I)
		r->pend_i++;
	else if (ev->kind == CITCAT_CAT_FILL_D)
		r->pend_d++;
	else if (ev->kind == CITCAT_CAT_DMA)
		b->dma_bytes += ev->len;
	else if (ev->kind == CITCAT_CAT_IRQ)
		r->irq_by_line[ev->line & 15]++;
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
	struct cc_outfile *out;
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
	if (!p->failed && cc_outfile_write(p->out, buf, (size_t)n))
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
	put(p, "<svg id=\"%s\" width=\"%d\" height=\"%zu\">", id, W, 20 * n + 10);
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

static void write_page(struct page *p, struct report *r, const char *cat, const char *elf, const struct density *d,
		       size_t nd)
{
	put(p, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>citcat report: ");
	put_escaped(p, cat);
	put(p, "</title>\n<style>body{font-family:sans-serif;margin:20px;max-width:1000px}h2{font-size:16px;margin:18px 0 4px}"
	       "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 8px;text-align:right}"
	       "td:first-child,th:first-child{text-align:left}.k{display:inline-block;width:10px;height:10px;margin:0 3px 0 10px}"
	       "svg{display:block}</style></head><body>\n");
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
	for (int k = 1; k < EV_KINDS; k++)
		put(p, "<span class=\"k\" style=\"background:%s\"></span>%s %llu", kind_colors[k], kind_names[k],
		    (unsigned long long)r->cat_count[k]);
	put(p, "</div><p style=\"font-size:12px\">Counts are the CAT's; events before the trace start point (the "
	       "driver's register dump) are not drawn:");
	for (int k = 1; k < EV_KINDS; k++)
		if (r->cat_before[k])
			put(p, " %s %llu;", kind_names[k], (unsigned long long)r->cat_before[k]);
	put(p, "</p>\n<svg id=\"bus-events\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\"", W, H, W, H);
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

	/* 2. interrupts and DMA: events per bucket as two strips */
	put(p, "<h2>Interrupts and DMA transfers over the run</h2>\n");
	put(p, "<svg id=\"timeline\" width=\"%d\" height=\"90\" data-irq=\"%llu\" data-dma=\"%llu\">", W,
	    (unsigned long long)r->totals[CITCAT_CAT_IRQ], (unsigned long long)r->totals[CITCAT_CAT_DMA]);
	uint64_t mi = 1, md = 1;
	for (unsigned i = 0; i < r->nb; i++) {
		if (r->b[i].ev[CITCAT_CAT_IRQ] > mi)
			mi = r->b[i].ev[CITCAT_CAT_IRQ];
		if (r->b[i].ev[CITCAT_CAT_DMA] > md)
			md = r->b[i].ev[CITCAT_CAT_DMA];
	}
	put(p, "<text x=\"0\" y=\"24\" font-size=\"12\">irq %llu</text><text x=\"0\" y=\"64\" font-size=\"12\">dma %llu</text>",
	    (unsigned long long)r->totals[CITCAT_CAT_IRQ], (unsigned long long)r->totals[CITCAT_CAT_DMA]);
	for (unsigned i = 0; i < r->nb; i++) {
		const struct bucket *b = &r->b[i];
		if (b->ev[CITCAT_CAT_IRQ])
			put(p, "<rect class=\"irq\" x=\"%.1f\" y=\"%.1f\" width=\"%.2f\" height=\"%.1f\" fill=\"#ff9da7\"/>", bx(r, i),
			    34 - 30.0 * (double)b->ev[CITCAT_CAT_IRQ] / (double)mi, bx(r, i + 1) - bx(r, i),
			    30.0 * (double)b->ev[CITCAT_CAT_IRQ] / (double)mi);
		if (b->ev[CITCAT_CAT_DMA])
			put(p, "<rect class=\"dma\" x=\"%.1f\" y=\"%.1f\" width=\"%.2f\" height=\"%.1f\" fill=\"#b07aa1\"/>", bx(r, i),
			    74 - 30.0 * (double)b->ev[CITCAT_CAT_DMA] / (double)md, bx(r, i + 1) - bx(r, i),
			    30.0 * (double)b->ev[CITCAT_CAT_DMA] / (double)md);
	}
	put(p, "</svg><p>Interrupts by line:");
	for (int l = 0; l < 16; l++)
		if (r->irq_by_line[l])
			put(p, " line %d: %llu;", l, (unsigned long long)r->irq_by_line[l]);
	put(p, "</p>\n");

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
			put(p, "<p>%llu instructions outside any sized function symbol.</p>\n",
			    (unsigned long long)r->nofunc.insns);
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
		const struct density *d, size_t nd)
{
	struct page p = {0}, q = {0};
	struct citcat_errinfo err;
	if (cc_outfile_open(&p.out, path, 0, &err))
		return cli_errinfo(path, &err);
	if (csv && cc_outfile_open(&q.out, csv, 0, &err)) {
		cc_outfile_abort(p.out);
		return cli_errinfo(csv, &err);
	}
	write_page(&p, r, cat, elf, d, nd);
	if (csv)
		write_csv(&q, r);
	if (p.failed || q.failed) {
		cc_outfile_abort(p.out);
		if (csv)
			cc_outfile_abort(q.out);
		return cli_fail("%s: writing failed: %s", p.failed ? path : csv, strerror(p.failed ? p.failed : q.failed));
	}
	if (cc_outfile_commit(p.out, &err)) {
		if (csv)
			cc_outfile_abort(q.out);
		return cli_errinfo(path, &err);
	}
	if (csv && cc_outfile_commit(q.out, &err))
		return cli_errinfo(csv, &err);
	return 0;
}

/* ---- the command ---- */

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
	while ((rc = citcat_cat_next(cr, &ev)) == 1) {
		if (ev.kind == CITCAT_CAT_SYNC)
			synced = 1;
		if (ev.kind >= 1 && ev.kind < EV_KINDS) {
			r->cat_count[ev.kind]++;
			r->cat_before[ev.kind] += !synced;
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
	static const char *const tnames[] = {"run.ims", "run.aes", "run.pdats2", "run.sdc"};
	char ims_path[4200], aes_path[4200], p2_path[4200], sdc_path[4200];
	snprintf(ims_path, sizeof ims_path, "%s/run.ims", d);
	snprintf(aes_path, sizeof aes_path, "%s/run.aes", d);
	snprintf(p2_path, sizeof p2_path, "%s/run.pdats2", d);
	snprintf(sdc_path, sizeof sdc_path, "%s/run.sdc", d);
	int status = EXIT_USAGE;
	struct citcat_ims ims;
	memset(&ims, 0, sizeof ims);
	struct citcat_errinfo err = {0};
	struct citcat_ims_stats ist;
	struct citcat_aes_stats ast;
	struct aes_sizes az;
	struct cli_progress pr;
	cli_progress_init(&pr, "report");
	double t0 = cli_now();
	if (count_cat(cat, &r))
		goto done;
	if (citcat_ims_extract(cat, &ims, &ist, NULL, NULL, &err) || citcat_ims_write(&ims, ims_path, &err)) {
		cli_errinfo(cat, &err);
		goto done;
	}
	if (citcat_aes_extract(cat, aes_path, &ast, NULL, NULL, &err)) {
		cli_errinfo(cat, &err);
		goto done;
	}
	if (aes_measure(aes_path, &az, &err)) {
		cli_errinfo(aes_path, &err);
		goto done;
	}
	r.cfg = ims.cfg;
	r.total = ims.id.insns;
	r.nb = (unsigned)(r.total < nb ? (r.total ? r.total : 1) : nb);
	r.bsize = r.total ? (r.total + r.nb - 1) / r.nb : 1;
	r.nb = (unsigned)((r.total + r.bsize - 1) / r.bsize);
	if (!r.nb)
		r.nb = 1;
	r.b = calloc(r.nb, sizeof *r.b);
	r.seen_line = ims.cfg.dcache.line < ims.cfg.icache.line ? ims.cfg.dcache.line : ims.cfg.icache.line;
	if (!r.seen_line)
		r.seen_line = 32;
	r.seen_n = ims.cfg.ram_size / r.seen_line;
	r.seen = calloc(r.seen_n / 8 + 1, 1);
	if (!r.b || !r.seen) {
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
	c.ims_path = ims_path;
	c.aes_path = aes_path;
	c.verify_cat = cat;
	c.oracle = itrace;
	c.observer = &obs;
	c.bus = obs_bus;
	c.bus_ctx = &r;
	c.progress = progress_cb;
	c.progress_ctx = &pr;
	struct citcat_replay_result res;
	int rc = citcat_replay_run(&c, &res, &err);
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
		const char *ep = res.err_path == ims_path ? cat : res.err_path == aes_path ? cat : res.err_path;
		cli_errinfo(ep ? ep : "report", &err);
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
		struct convert_opts co = {.lz4 = 1};
		dens[nd++] = (struct density){"itrace", file_bytes(itrace)};
		if (addr_convert(itrace, "itrace", p2_path, "pdats2", &co) == 0)
			dens[nd++] = (struct density){"PDATS II (LZ4)", file_bytes(p2_path)};
		struct convert_opts so = {.lz4 = -1};
		if (sdclsp_convert(itrace, "itrace", sdc_path, "sdclsp", &so) == 0)
			dens[nd++] = (struct density){"SDC-LSP (flow only)", file_bytes(sdc_path)};
	}
	status = emit(out, csv, &r, cat, elf, dens, nd);
	if (!status && !cli_quiet)
		fprintf(stderr, "citcat report: %llu instructions in %u buckets, %s written in %.2f s\n",
			(unsigned long long)r.insn, r.nb, out, cli_now() - t0);
done:
	citcat_ims_fini(&ims);
	rm_tmp(d, tnames, sizeof tnames / sizeof *tnames);
	citcat_symbols_close(r.syms);
	free(r.b);
	free(r.seen);
	free(r.f);
	free(r.fslot);
	return status;
}
