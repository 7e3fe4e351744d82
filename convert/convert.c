/* citcat_convert (<citcat/convert.h>): picks the source and target formats
 * through the format registry (formats/registry.h) and runs the converter
 * that owns them: the address traces (din, xdin, PDATS, PDATS II) from an
 * itrace or from each other here, the text listing and the ChampSim export
 * here, SDC-LSP in convert_sdclsp.c, the DAF rebuild in convert_daf.c.
 * Moved from the tool (cli/addr_cli.c, convert_text.c, convert_champsim.c,
 * cmd_convert.c), messages unchanged. */
#include "convert_int.h"

#include "addr.h"
#include "champsim.h"
#include "input.h"
#include "itrace.h"
#include "listing.h"
#include "outfile.h"
#include "registry.h"
#include "stop.h"
#include <citcat/io.h>
#include <citcat/symbols.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- errors ---- */

static void set_err(struct cv *v, int code, const char *msg)
{
	citcat_errinfo_set(v->err, code, UINT64_MAX, "%s", msg);
}

void cv_init(struct cv *v, struct citcat_convert_result *local, struct citcat_errinfo *err)
{
	memset(v, 0, sizeof *v);
	memset(local, 0, sizeof *local);
	v->res = local;
	v->err = err;
	if (err)
		memset(err, 0, sizeof *err);
}

int cv_file(struct cv *v, const char *file, const struct citcat_errinfo *e)
{
	v->res->what = CITCAT_CONVERT_FILE;
	v->res->file = file;
	snprintf(v->res->msg, sizeof v->res->msg, "%s", e->msg);
	int code = e->code < 0 ? e->code : CITCAT_ERR_IO;
	if (v->err) {
		*v->err = *e;
		v->err->code = code;
	}
	return code;
}

int cv_msg(struct cv *v, int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(v->res->msg, sizeof v->res->msg, fmt, ap);
	va_end(ap);
	v->res->what = CITCAT_CONVERT_MESSAGE;
	v->res->file = NULL;
	set_err(v, code, v->res->msg);
	return code;
}

int cv_usage(struct cv *v, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(v->res->msg, sizeof v->res->msg, fmt, ap);
	va_end(ap);
	v->res->what = CITCAT_CONVERT_REQUEST;
	v->res->file = NULL;
	set_err(v, CITCAT_ERR_INVAL, v->res->msg);
	return CITCAT_ERR_INVAL;
}

void cv_check_append(struct cv *v, const char *fmt, ...)
{
	size_t k = strlen(v->res->msg);
	va_list ap;
	va_start(ap, fmt);
	if (k < sizeof v->res->msg)
		vsnprintf(v->res->msg + k, sizeof v->res->msg - k, fmt, ap);
	va_end(ap);
}

int cv_check_done(struct cv *v)
{
	size_t k = strlen(v->res->msg);
	if (k && v->res->msg[k - 1] == '\n')
		v->res->msg[k - 1] = 0;
	v->res->what = CITCAT_CONVERT_CHECK;
	v->res->file = NULL;
	set_err(v, CITCAT_ERR_DIVERGED, v->res->msg);
	return CITCAT_ERR_DIVERGED;
}

void cv_progress(struct cv *v, const char *what, uint64_t n, const char *unit)
{
	if (v->c.progress)
		v->c.progress(v->c.ctx, what, n, unit);
}

int cv_out_wrap(const struct cv *v)
{
	if (v->c.wrap > 0)
		return v->c.wrap;
	int w = cc_wrap_by_suffix(v->out, NULL);
	return w == CC_WRAP_LZ4 ? CC_OUT_LZ4 : w == CC_WRAP_ZSTD ? CC_OUT_ZSTD : w == CC_WRAP_TVP ? CC_OUT_TVP : CC_OUT_PLAIN;
}

/* ---- reference sources: an itrace or an address trace ---- */


/* UNCACHED: keep uncached accesses; DMA: turn DMA records into references
 * (DIN.md, "From an itrace"). */
int cv_src_open(struct cv *v, struct ref_source *s, const char *path, const char *fmt, int uncached, int dma)
{
	memset(s, 0, sizeof *s);
	if (strcmp(fmt, "itrace") == 0) {
		s->rec = malloc(sizeof *s->rec);
		if (!s->rec)
			return cv_msg(v, CITCAT_ERR_NOMEM, "out of memory");
		if (citcat_itrace_reader_open(&s->it, path))
			return cv_file(v, path, citcat_itrace_reader_error(s->it));
		s->uncached = uncached;
		s->dma = dma;
		citcat_itrace_reader_dma(s->it, 1); /* left out unless DMA, but counted */
		return 0;
	}
	int f = citcat_addr_fmt_parse(fmt);
	if (!f)
		return cv_msg(v, CITCAT_ERR_INVAL, "%s: cannot read format '%s' (want itrace, din, xdin, pdats or pdats2)",
			      path, fmt);
	if (citcat_addr_reader_open(&s->ar, path, f))
		return cv_file(v, path, citcat_addr_reader_error(s->ar));
	return 0;
}

/* 1 with *REF filled, 0 at the end, negative on error (already known to S). */
int cv_src_next(struct ref_source *s, struct citcat_ref *ref)
{
	if (s->ar)
		return citcat_addr_next(s->ar, ref);
	for (;;) {
		if (s->dma_at < s->dma_end) {
			/* A DMA transfer snoops every cache line it overlaps: write
			 * back if dirty, then invalidate.  Dinero applies c and v to
			 * the one block holding the address, so the range goes out
			 * in 8-byte granules (the smallest line size): exact for any
			 * geometry. */
			uint64_t next = (s->dma_at | 7) + 1;
			if (next > s->dma_end)
				next = s->dma_end;
			ref->addr = s->dma_at;
			ref->size = (uint32_t)(next - s->dma_at);
			ref->type = s->dma_inval ? CITCAT_REF_INVAL : CITCAT_REF_COPYB;
			if (s->dma_inval)
				s->dma_at = next;
			s->dma_inval ^= 1;
			return 1;
		}
		if (s->have_rec) {
			struct citcat_itrace_rec *r = s->rec;
			if (s->next_acc == 0) {
				s->next_acc = 1;
				ref->type = CITCAT_REF_IFETCH;
				ref->addr = r->pc;
				ref->size = r->size ? r->size : 4; /* the instruction's size (DIN.md) */
				return 1;
			}
			while (!s->uncached && s->next_acc <= r->n_acc && r->acc[s->next_acc - 1].uncached)
				s->next_acc++;
			if (s->next_acc <= r->n_acc) {
				const struct citcat_access *a = &r->acc[s->next_acc++ - 1];
				ref->type = a->write ? CITCAT_REF_WRITE : CITCAT_REF_READ;
				ref->addr = a->addr;
				ref->size = a->size;
				return 1;
			}
			s->have_rec = 0;
		}
		int rc = citcat_itrace_next(s->it, s->rec);
		if (rc <= 0)
			return rc;
		if (s->rec->kind == CITCAT_REC_INSN) {
			s->have_rec = 1;
			s->next_acc = 0;
		} else if (s->rec->kind == CITCAT_REC_IRQ) {
			/* an A-target IRQ entry has no access and makes no reference;
			 * a Cortex-M7 entry's stacking writes and vector read are data
			 * accesses through the D-cache, with no fetch (DIN.md) */
			if (s->rec->n_acc) {
				s->have_rec = 1;
				s->next_acc = 1;
			}
		} else if (s->rec->kind == CITCAT_REC_DMA && !s->dma) {
			s->dma_dropped++;
			s->dma_dropped_bytes += s->rec->word;
		} else if (s->rec->kind == CITCAT_REC_DMA) {
			s->dma_at = s->rec->pc;
			s->dma_end = s->rec->pc + s->rec->word;
			s->dma_inval = 0;
		}
	}
}

const struct citcat_errinfo *cv_src_error(const struct ref_source *s)
{
	return s->ar ? citcat_addr_reader_error(s->ar) : citcat_itrace_reader_error(s->it);
}

void cv_src_close(struct ref_source *s)
{
	citcat_addr_reader_close(s->ar);
	citcat_itrace_reader_close(s->it);
	free(s->rec);
}

/* ---- address traces ---- */

/* One conversion pass.  Returns 0, a negative code (reported), or 1 when
 * the output needs 64-bit addresses (nothing reported, nothing left behind). */
static int convert_pass(struct cv *v, const struct citcat_addr_config *cfg)
{
	const char *in = v->in, *out = v->out;
	struct ref_source s;
	/* DMA transfers go to xdin only, the format with sizes that Dinero IV
	 * reads exactly (DIN.md, "From an itrace") */
	int rc = cv_src_open(v, &s, in, v->from, v->c.uncached, cfg->fmt == CITCAT_ADDR_XDIN);
	if (rc) {
		cv_src_close(&s);
		return rc;
	}
	struct citcat_addr_writer *w;
	if (citcat_addr_writer_open(&w, out, cfg)) {
		rc = cv_file(v, out, citcat_addr_writer_error(w));
		citcat_addr_writer_abort(w);
		cv_src_close(&s);
		return rc;
	}
	struct citcat_ref ref;
	uint64_t n = 0;
	while ((rc = cv_src_next(&s, &ref)) == 1) {
		int e = citcat_addr_put(w, &ref);
		if (e) {
			if (e == CITCAT_ERR_LIMIT && cfg->addr_bits == 32 && strcmp(in, "-") != 0) {
				rc = 1;
			} else {
				const struct citcat_errinfo *ei = citcat_addr_writer_error(w);
				rc = cv_msg(v, e, "%s: reference %llu: %s", out, (unsigned long long)n, ei->msg);
			}
			citcat_addr_writer_abort(w);
			cv_src_close(&s);
			return rc;
		}
		if ((++n & 0xfffff) == 0)
			cv_progress(v, "converting", n, "ref");
		if ((n & 0x3fff) == 0 && cc_stop_requested()) {
			rc = CITCAT_ERR_INTERRUPTED;
			break;
		}
	}
	if (rc == CITCAT_ERR_INTERRUPTED) {
		citcat_addr_writer_abort(w);
		cv_src_close(&s);
		return cv_msg(v, CITCAT_ERR_INTERRUPTED, "convert: interrupted after %llu references; no output written",
			      (unsigned long long)n);
	}
	if (rc < 0) {
		rc = cv_file(v, in, cv_src_error(&s));
		citcat_addr_writer_abort(w);
		cv_src_close(&s);
		return rc;
	}
	v->res->dma_dropped = s.dma_dropped;
	v->res->dma_dropped_bytes = s.dma_dropped_bytes;
	cv_src_close(&s);
	if (citcat_addr_writer_finish(w)) {
		rc = cv_file(v, out, citcat_addr_writer_error(w));
		citcat_addr_writer_abort(w);
		return rc;
	}
	citcat_addr_writer_close(w);
	return 0;
}

static int cv_addr(struct cv *v)
{
	int tf = citcat_addr_fmt_parse(v->to);
	if (!tf)
		return cv_msg(v, CITCAT_ERR_INVAL, "cannot convert to '%s' (want din, xdin, pdats or pdats2)", v->to);
	if (strcmp(v->from, "itrace") != 0 && !citcat_addr_fmt_parse(v->from))
		return cv_msg(v, CITCAT_ERR_INVAL, "conversion from %s to %s is not available", v->from, v->to);
	struct citcat_addr_config cfg = {sizeof cfg, tf, 32, 4, 0, 0, 0};
	cfg.lz4 = cv_out_wrap(v);
	int rc = convert_pass(v, &cfg);
	if (rc == 1) { /* an address above 4 GiB: redo as the 64-bit variant */
		cfg.addr_bits = 64;
		rc = convert_pass(v, &cfg);
		if (rc == 1) /* cannot happen at 64 bits */
			rc = cv_msg(v, CITCAT_ERR_LIMIT, "%s: %s", v->out, citcat_errstr(CITCAT_ERR_LIMIT));
	}
	return rc;
}

/* ---- the text listing (formats/listing.h) ---- */

/* Streams record by record; with ELF the listing carries function+offset
 * and file:line, and FROM_INSN/COUNT, FUNCTION and the pc range list a part
 * of the trace with its own instruction numbers (reading stops once COUNT
 * instructions are listed). */
static int cv_text(struct cv *v)
{
	const char *in = v->in, *out = v->out;
	const struct citcat_convert_config *o = &v->c;
	if (strcmp(v->from, "itrace") != 0)
		return cv_msg(v, CITCAT_ERR_INVAL, "%s: a text listing is made from an itrace, not from %s", in, v->from);
	if (o->function && !o->elf)
		return cv_usage(v, "--function NAME needs --elf FIRMWARE.elf");
	struct citcat_symbols *syms = NULL;
	struct citcat_errinfo err;
	if (o->elf) {
		if (citcat_symbols_open(&syms, o->elf, &err))
			return cv_file(v, o->elf, &err);
		const char *w = citcat_symbols_warning(syms);
		if (w && o->warn)
			o->warn(o->ctx, o->elf, w);
	}
	int ranged = o->pc_range;
	uint64_t lo = o->pc_lo, hi = o->pc_hi;
	if (o->function) {
		uint64_t flo, fhi;
		if (citcat_symbols_function(syms, o->function, &flo, &fhi) != 1) {
			citcat_symbols_close(syms);
			return cv_msg(v, CITCAT_ERR_INVAL, "%s: no function named '%s'", o->elf, o->function);
		}
		/* with --pc as well: the intersection */
		if (!ranged || flo > lo)
			lo = flo;
		if (!ranged || fhi < hi)
			hi = fhi;
		ranged = 1;
	}
	struct citcat_itrace_reader *r;
	if (citcat_itrace_reader_open(&r, in)) {
		int rc = cv_file(v, in, citcat_itrace_reader_error(r));
		citcat_itrace_reader_close(r);
		citcat_symbols_close(syms);
		return rc;
	}
	struct citcat_listing_writer *w;
	if (citcat_listing_writer_open(&w, out, citcat_itrace_isa(r), &err)) {
		citcat_itrace_reader_close(r);
		citcat_symbols_close(syms);
		return cv_file(v, out, &err);
	}
	citcat_listing_set_symbols(w, syms);
	static struct citcat_itrace_rec rec;
	uint64_t n = 0, index = 0, listed = 0, next_listed = 0;
	int rc;
	while ((rc = citcat_itrace_next(r, &rec)) == 1) {
		int insn = rec.kind == CITCAT_REC_INSN;
		/* an interrupt entry is listed in the window, and with an address
		 * range when its return address lies inside */
		int want = index >= o->from_insn && (!ranged || (rec.pc >= lo && rec.pc < hi));
		if (want) {
			if (insn && index != next_listed)
				citcat_listing_set_index(w, index);
			struct citcat_m7_fault m7f;
			if (rec.kind == CITCAT_REC_STOP && citcat_itrace_m7_fault(r, &m7f) == 1)
				citcat_listing_set_m7_fault(w, &m7f);
			if (citcat_listing_write(w, &rec)) {
				err = *citcat_listing_writer_error(w);
				citcat_listing_writer_abort(w);
				citcat_itrace_reader_close(r);
				citcat_symbols_close(syms);
				return cv_file(v, out, &err);
			}
			if (insn) {
				next_listed = index + 1;
				if (++listed == o->count)
					break;
			}
		}
		index += insn;
		if ((++n & 0xfffff) == 0) {
			cv_progress(v, "convert", n, "rec");
			if (cc_stop_requested()) {
				rc = CITCAT_ERR_INTERRUPTED;
				break;
			}
		}
	}
	citcat_symbols_close(syms);
	citcat_listing_set_symbols(w, NULL);
	if (rc < 0) {
		citcat_listing_writer_abort(w);
		if (rc == CITCAT_ERR_INTERRUPTED)
			rc = cv_msg(v, rc, "convert: interrupted; no output written");
		else
			rc = cv_file(v, in, citcat_itrace_reader_error(r));
		citcat_itrace_reader_close(r);
		return rc;
	}
	citcat_itrace_reader_close(r);
	if (citcat_listing_writer_close(w, &err))
		return cv_file(v, out, &err);
	return 0;
}

/* ---- the ChampSim export (formats/champsim.c, CHAMPSIM.md) ---- */

static int has_suffix(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);
	return a >= b && strcmp(s + a - b, suf) == 0;
}

static int cv_champsim(struct cv *v)
{
	const char *in = v->in, *out = v->out;
	if (strcmp(v->from, "itrace") != 0)
		return cv_msg(v, CITCAT_ERR_INVAL, "%s: a ChampSim trace is made from an itrace, not from %s", in, v->from);
	struct citcat_itrace_reader *r;
	if (citcat_itrace_reader_open(&r, in)) {
		int rc = cv_file(v, in, citcat_itrace_reader_error(r));
		citcat_itrace_reader_close(r);
		return rc;
	}
	struct citcat_champsim_writer *w;
	struct citcat_errinfo err;
	int xz = has_suffix(out, ".xz");
	if (citcat_champsim_writer_open(&w, out, xz, v->c.uncached, &err)) {
		citcat_itrace_reader_close(r);
		return cv_file(v, out, &err);
	}
	static struct citcat_itrace_rec rec;
	uint64_t n = 0;
	int rc;
	while ((rc = citcat_itrace_next(r, &rec)) == 1) {
		if (citcat_champsim_write(w, &rec)) {
			err = *citcat_champsim_writer_error(w);
			citcat_champsim_writer_abort(w);
			citcat_itrace_reader_close(r);
			/* a record the writer cannot take is the input's; a failed
			 * write the output's */
			return cv_file(v, err.code == CITCAT_ERR_INVAL ? in : out, &err);
		}
		if ((++n & 0xfffff) == 0) {
			cv_progress(v, "convert", n, "rec");
			if (cc_stop_requested()) {
				rc = CITCAT_ERR_INTERRUPTED;
				break;
			}
		}
	}
	if (rc < 0) {
		citcat_champsim_writer_abort(w);
		if (rc == CITCAT_ERR_INTERRUPTED)
			rc = cv_msg(v, rc, "convert: interrupted; no output written");
		else
			rc = cv_file(v, in, citcat_itrace_reader_error(r));
		citcat_itrace_reader_close(r);
		return rc;
	}
	citcat_itrace_reader_close(r);
	if (citcat_champsim_writer_close(w, &err))
		return cv_file(v, out, &err);
	return 0;
}

/* ---- dispatch ---- */

/* The converter of each format: the target format's is used when it is not
 * the generic address-trace one, else the source format's. */
typedef int (*conv_fn)(struct cv *v);
static const conv_fn conv_table[CITCAT_FMT_COUNT] = {
	[CITCAT_FMT_ITRACE] = cv_addr, [CITCAT_FMT_DIN] = cv_addr,     [CITCAT_FMT_XDIN] = cv_addr,
	[CITCAT_FMT_PDATS] = cv_addr,  [CITCAT_FMT_PDATS2] = cv_addr,  [CITCAT_FMT_SDCLSP] = cv_sdclsp,
	[CITCAT_FMT_TEXT] = cv_text,   [CITCAT_FMT_CHAMPSIM] = cv_champsim,
};

static conv_fn conv_of(const struct citcat_format *f)
{
	return f && f->id > 0 && f->id < CITCAT_FMT_COUNT ? conv_table[f->id] : NULL;
}

/* Standard input is read once: its head is peeked (and put back for the
 * reader that follows) and recognised in memory.  Enough for any wrapper
 * whose first block decodes within that much. */
#define STDIN_HEAD (256u << 10)

/* The format of PATH by its contents, else (a text format) by its suffix;
 * *F NULL when neither tells. */
int cv_detect(struct cv *v, const char *path, const struct citcat_format **f)
{
	struct citcat_errinfo err = {0};
	int rc;
	*f = NULL;
	if (strcmp(path, "-") == 0) {
		uint8_t *head = malloc(STDIN_HEAD);
		long n = -1;
		struct citcat_input *inp;
		if (head && citcat_input_open(&inp, path, CITCAT_IN_RAW, &err) == 0) {
			n = citcat_input_read(inp, head, STDIN_HEAD);
			citcat_input_close(inp);
		}
		int stop = cc_stop_requested() != 0;
		rc = n < 0 ? citcat_errinfo_set(&err, stop ? CITCAT_ERR_INTERRUPTED : CITCAT_ERR_IO, UINT64_MAX, "%s",
						stop ? "interrupted" : "cannot read standard input")
			   : citcat_format_detect_mem(head, (size_t)n, f, NULL, &err);
		free(head);
	} else {
		rc = citcat_format_detect(path, f, NULL, &err);
	}
	if (rc)
		return cv_file(v, path, &err);
	if (!*f) {
		const struct citcat_format *s = citcat_format_by_suffix(path, NULL);
		if (s && (s->flags & CITCAT_FMT_F_SUFFIX_NAMES))
			*f = s;
	}
	return 0;
}

void citcat_convert_config_default(struct citcat_convert_config *c)
{
	if (!c)
		return;
	memset(c, 0, sizeof *c);
	c->size = sizeof *c;
}

int citcat_convert(const char *in, const char *out, const struct citcat_convert_config *cfg,
		   struct citcat_convert_result *res, struct citcat_errinfo *err)
{
	struct citcat_convert_result local;
	struct cv v;
	cv_init(&v, &local, err);
	if (res && res->size < offsetof(struct citcat_convert_result, dma_dropped_bytes) + sizeof(uint64_t)) {
		res = NULL;
		if (err)
			citcat_errinfo_set(err, CITCAT_ERR_INVAL, UINT64_MAX, "struct citcat_convert_result: size too small");
		return CITCAT_ERR_INVAL;
	}
	if (!in || !out || !cfg || cfg->size < offsetof(struct citcat_convert_config, ctx) + sizeof(void *))
		return citcat_errinfo_set(err, CITCAT_ERR_INVAL, UINT64_MAX, "%s",
					  !in || !out || !cfg ? "NULL argument" : "struct citcat_convert_config: size too small");
	memcpy(&v.c, cfg, cfg->size < sizeof v.c ? cfg->size : sizeof v.c);
	v.in = in;
	v.out = out;
	v.from = v.c.from;
	v.to = v.c.to;
	int rc = 0;
	if (!v.from) {
		const struct citcat_format *f;
		if ((rc = cv_detect(&v, in, &f)))
			goto done;
		if (!f && !(f = citcat_format_by_suffix(in, NULL))) {
			rc = cv_usage(&v, "cannot tell the format of %s; use --from", in);
			goto done;
		}
		v.from = f->name;
	}
	const struct citcat_format *tf = v.to ? citcat_format_by_name(v.to) : citcat_format_by_suffix(out, NULL);
	if (!v.to && !tf) {
		rc = cv_usage(&v, "cannot tell the output format from '%s'; use --to", out);
		goto done;
	}
	if (!v.to)
		v.to = tf->name;
	local.from = v.from;
	local.to = v.to;
	if (cc_wrap_by_suffix(out, NULL) == CC_WRAP_XZ && v.c.wrap <= 0 && strcmp(v.to, "champsim") != 0) {
		rc = cv_usage(&v, "citcat writes LZ4 (.lz4), zstd (.zst) and TVP (.tvp) but not xz: '%s'", out);
		goto done;
	}
	if (v.c.daf) {
		rc = cv_daf(&v);
		goto done;
	}
	if (strcmp(v.to, "text") != 0 && (v.c.elf || v.c.function || v.c.from_insn || v.c.count || v.c.pc_range)) {
		rc = cv_usage(&v, "--elf, --function, --from-insn, --count and --pc are for --to text");
		goto done;
	}
	conv_fn conv = conv_of(tf);
	if (!conv || conv == cv_addr)
		conv = conv_of(citcat_format_by_name(v.from));
	rc = (conv ? conv : cv_addr)(&v);
done:
	if (res) {
		size_t keep = res->size < sizeof local ? res->size : sizeof local;
		local.size = res->size;
		memcpy(res, &local, keep);
	}
	return rc;
}
