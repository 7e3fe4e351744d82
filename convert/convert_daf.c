/* FLOW --daf RUN.daf of citcat_convert: the data accesses rebuilt from a
 * DAF trace (formats/DAF.md) over the program flow, an itrace (checked
 * against its accesses) or an SDC-LSP stream with its program image: the
 * debugger's partial replay.  Moved from cli/daf_cli.c, messages
 * unchanged.  Format and RVU work is in formats/daf.h. */
#include "convert_int.h"

#include "addr.h"
#include "citcat_m7_regs.h"
#include "daf.h"
#include "itrace.h"
#include "sdclsp.h"
#include "stop.h"

#include <stdlib.h>
#include <string.h>

/* The program flow: PC and word of each retired instruction. */
struct flow {
	const char *path;
	struct citcat_itrace_reader *it; /* itrace: also the ground truth to verify against */
	struct citcat_itrace_rec *rec;
	struct sdclsp_decoder *sd;
	struct citcat_image *img;
	struct citcat_ims ims;
	int entries; /* the DAF is the Cortex-M7's: hand out the itrace's entry records */
	/* which data accesses are uncached (device registers), as the itrace
	 * marks them: over an SDC-LSP flow, by address from the run's
	 * configuration (the IMS's, else the target's defaults) */
	uint32_t dev_base, dev_size;
	int keep_uncached; /* --uncached */
	struct cv *v;
};

/* Marks R's accesses uncached as TRUTH's (an itrace record with the same
 * accesses), else by address: the device window, and the Cortex-M7's
 * system control space (capture/TARGET-M7.md). */
static void mark_uncached(const struct flow *f, struct citcat_itrace_rec *r, const struct citcat_itrace_rec *truth)
{
	for (uint32_t i = 0; i < r->n_acc; i++) {
		uint32_t a = (uint32_t)r->acc[i].addr;
		r->acc[i].uncached = truth && i < truth->n_acc ? truth->acc[i].uncached
				     : a - f->dev_base < f->dev_size || (f->entries && a - CITCAT_M7_SCS_BASE < CITCAT_M7_SCS_SIZE);
	}
}

/* 1 with PC, WORD, SIZE and THUMB (the state), 0 at the end, or a
 * negative code (reported). */
static int flow_next(struct flow *f, uint64_t *pc, uint32_t *word, unsigned *size, int *thumb)
{
	int rc;
	if (f->it) {
		/* an itrace's Cortex-M7 exception entries come out too (kind IRQ in f->rec) when asked */
		while ((rc = citcat_itrace_next(f->it, f->rec)) == 1 && f->rec->kind != CITCAT_REC_INSN &&
		       !(f->entries && f->rec->kind == CITCAT_REC_IRQ))
			;
		if (rc < 0)
			return cv_file(f->v, f->path, citcat_itrace_reader_error(f->it));
		*pc = f->rec->pc;
		*word = f->rec->word;
		*size = f->rec->size ? f->rec->size : 4;
		*thumb = f->rec->thumb;
		return rc;
	}
	rc = sdclsp_decoder_next_isa(f->sd, pc, size, thumb);
	if (rc < 0)
		return cv_file(f->v, f->path, sdclsp_decoder_error(f->sd));
	if (rc == 1) {
		uint8_t b[4] = {0};
		if (citcat_image_read(f->img, *pc, b, *size) < 0)
			return cv_msg(f->v, CITCAT_ERR_CORRUPT, "%s: instruction at 0x%08llx is not in the program image",
				      f->path, (unsigned long long)*pc);
		*word = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
	}
	return rc;
}

static void flow_close(struct flow *f)
{
	citcat_itrace_reader_close(f->it);
	free(f->rec);
	sdclsp_decoder_close(f->sd);
	cv_free_image(f->img, &f->ims);
}

static int flow_open(struct cv *v, struct flow *f, const char *in, const char *from, const struct citcat_convert_config *o)
{
	memset(f, 0, sizeof *f);
	f->v = v;
	f->path = in;
	f->keep_uncached = o->uncached;
	f->dev_base = CITCAT_DEV_BASE;
	f->dev_size = CITCAT_DEV_SIZE;
	if (strcmp(from, "itrace") == 0) {
		if (o->image) /* it would be ignored: say so rather than accept anything */
			return cv_usage(v, "--image goes with an SDC-LSP flow, which it decodes; the itrace %s "
							  "holds every instruction word itself: leave --image out", in);
		if (!(f->rec = malloc(sizeof *f->rec)))
			return cv_msg(v, CITCAT_ERR_NOMEM, "out of memory");
		if (citcat_itrace_reader_open(&f->it, in) < 0)
			return cv_file(v, in, citcat_itrace_reader_error(f->it));
		return 0;
	}
	if (strncmp(from, "sdclsp", 6) != 0)
		return cv_usage(v, "--daf needs the program flow from an itrace or an SDC-LSP stream, not %s",
				       from);
	if (!o->image)
		return cv_usage(v, "decoding %s needs --image RUN.ims or --image FIRMWARE.elf", in);
	int rc = cv_load_image(v, o->image, &f->img, &f->ims);
	if (rc)
		return rc;
	if (f->ims.memory) { /* an IMS: the run's own device window */
		f->dev_base = f->ims.cfg.dev_base;
		f->dev_size = f->ims.cfg.dev_size;
	}
	if (sdclsp_decoder_open(&f->sd, in, f->img) < 0)
		return cv_file(v, in, sdclsp_decoder_error(f->sd));
	return 0;
}

static int same(const struct citcat_itrace_rec *a, const struct citcat_itrace_rec *b)
{
	if (a->n_acc != b->n_acc)
		return 0;
	for (uint32_t i = 0; i < a->n_acc; i++)
		if (a->acc[i].addr != b->acc[i].addr || a->acc[i].size != b->acc[i].size || a->acc[i].write != b->acc[i].write)
			return 0;
	return 1;
}

static void print_accesses(struct cv *v, const char *what, const struct citcat_itrace_rec *r)
{
	cv_check_append(v, "  %s:", what);
	if (!r->n_acc)
		cv_check_append(v, " no data access");
	for (uint32_t i = 0; i < r->n_acc && i < 8; i++)
		cv_check_append(v, " %c%u 0x%08llx", r->acc[i].write ? 'W' : 'R', r->acc[i].size,
				(unsigned long long)r->acc[i].addr);
	cv_check_append(v, "%s\n", r->n_acc > 8 ? " ..." : "");
}

/* The data references of R (no fetch); uncached ones only with --uncached,
 * as convert RUN.itrace does (DIN.md). */
static int put_refs(struct cv *v, struct citcat_addr_writer *w, const char *out, const struct citcat_itrace_rec *r, int keep_uncached)
{
	for (uint32_t i = 0; i < r->n_acc; i++) {
		if (r->acc[i].uncached && !keep_uncached)
			continue;
		struct citcat_ref ref = {.addr = r->acc[i].addr, .size = r->acc[i].size,
					 .type = r->acc[i].write ? CITCAT_REF_WRITE : CITCAT_REF_READ};
		if (citcat_addr_put(w, &ref))
			return cv_file(v, out, citcat_addr_writer_error(w));
	}
	return 0;
}

/* Instruction N's rebuilt record REC: checked against TRUTH (the itrace's,
 * when the flow is one), then its fetch and data references. */
static int put_insn(const struct flow *f, struct citcat_addr_writer *w, const char *out, const char *in, const char *daf,
		    uint64_t n, struct citcat_itrace_rec *rec, const struct citcat_itrace_rec *truth)
{
	struct cv *v = f->v;
	if (truth && !same(rec, truth)) {
		v->res->msg[0] = 0;
		cv_check_append(v, "%s: instruction %llu at 0x%08llx (word %08x): the data accesses rebuilt from %s "
				"differ from the trace's\n", in, (unsigned long long)n, (unsigned long long)rec->pc, rec->word, daf);
		print_accesses(v, "rebuilt", rec);
		print_accesses(v, "itrace ", truth);
		return cv_check_done(v);
	}
	struct citcat_ref ref = {.addr = rec->pc, .size = rec->size ? rec->size : 4, .type = CITCAT_REF_IFETCH};
	if (citcat_addr_put(w, &ref))
		return cv_file(f->v, out, citcat_addr_writer_error(w));
	mark_uncached(f, rec, truth);
	return put_refs(f->v, w, out, rec, f->keep_uncached);
}

int cv_daf(struct cv *v)
{
	const char *in = v->in, *from = v->from, *out = v->out, *to = v->to;
	const struct citcat_convert_config *o = &v->c;
	int fmt = citcat_addr_fmt_parse(to);
	if (!fmt)
		return cv_usage(v, "FLOW --daf converts to din, xdin, pdats or pdats2, not %s", to);
	struct flow f;
	struct citcat_daf_decoder *d = NULL;
	struct citcat_addr_writer *w = NULL;
	struct citcat_itrace_rec *rec = malloc(sizeof *rec);
	int status = rec ? flow_open(v, &f, in, from, o) : cv_msg(v, CITCAT_ERR_NOMEM, "out of memory");
	if (status)
		goto done;
	if (citcat_daf_decoder_open(&d, o->daf) < 0) {
		status = cv_file(v, o->daf, citcat_daf_decoder_error(d));
		goto done;
	}
	struct citcat_addr_config ac = {.size = sizeof ac, .fmt = fmt, .lz4 = cv_out_wrap(v)};
	if (citcat_addr_writer_open(&w, out, &ac) < 0) {
		status = cv_file(v, out, citcat_addr_writer_error(w));
		goto done;
	}
	uint64_t pc = 0, n = 0;
	uint32_t word = 0;
	unsigned size = 4;
	int rc = 0, thumb = 0;
	f.entries = citcat_daf_decoder_m7(d);
	/* the instruction decoded last is written at the next boundary, after the
	 * first exception entry there, which may correct its accesses (a fault
	 * cut it short: DAF.md, "The Cortex-M7"); over an itrace, TRUTH keeps its
	 * record */
	struct citcat_itrace_rec *ent = malloc(sizeof *ent), *truth = f.it ? malloc(sizeof *truth) : NULL;
	int have_last = 0;
	if (!ent || (f.it && !truth)) {
		status = cv_msg(v, CITCAT_ERR_NOMEM, "out of memory");
		goto loop_done;
	}
	for (;;) {
		rc = flow_next(&f, &pc, &word, &size, &thumb);
		if (rc < 0)
			break;
		int irq = rc == 1 && f.it && f.rec->kind == CITCAT_REC_IRQ, e;
		/* the Cortex-M7: the exception entries at this boundary, data accesses with no fetch
		 * (DIN.md); over an itrace each is checked against the itrace's entry record */
		while ((e = citcat_daf_decode_entry(d, ent, have_last ? rec : NULL)) != 0) {
			if (e < 0) {
				status = cv_file(v, o->daf, citcat_daf_decoder_error(d));
				break;
			}
			if (have_last && (status = put_insn(&f, w, out, in, o->daf, n - 1, rec, truth)))
				break;
			have_last = 0;
			if (f.it && (!irq || ent->line != f.rec->line || !same(ent, f.rec))) {
				v->res->msg[0] = 0;
				cv_check_append(v, "%s: before instruction %llu: the exception entry rebuilt from %s (exception %u) "
						"differs from the trace's\n", in, (unsigned long long)n, o->daf, ent->line);
				print_accesses(v, "rebuilt", ent);
				if (irq)
					print_accesses(v, "itrace ", f.rec);
				else
					cv_check_append(v, "  itrace : no exception entry here\n");
				status = cv_check_done(v);
				break;
			}
			mark_uncached(&f, ent, irq ? f.rec : NULL);
			if ((status = put_refs(v, w, out, ent, f.keep_uncached)))
				break;
			if (irq)
				break; /* one itrace entry record, one DAF entry */
		}
		if (status)
			break;
		if (irq && e == 0) {
			v->res->msg[0] = 0;
			cv_check_append(v, "%s: before instruction %llu: the trace has an exception entry (exception %u) "
					"that %s does not", in, (unsigned long long)n, f.rec->line, o->daf);
			status = cv_check_done(v);
			break;
		}
		if (irq)
			continue;
		if (have_last && (status = put_insn(&f, w, out, in, o->daf, n - 1, rec, truth)))
			break;
		have_last = 0;
		if (rc == 0)
			break;
		if (citcat_daf_decode_isa(d, pc, word, size, thumb, rec) < 0) {
			status = cv_file(v, o->daf, citcat_daf_decoder_error(d));
			break;
		}
		if (truth)
			memcpy(truth, f.rec, sizeof *truth);
		have_last = 1;
		if ((++n & 0xfffff) == 0) {
			cv_progress(v, "decoding", n, "insn");
			if (cc_stop_requested()) {
				status = cv_msg(v, CITCAT_ERR_INTERRUPTED, "interrupted");
				break;
			}
		}
	}
loop_done:
	free(ent);
	free(truth);
	if (!status && rc < 0)
		status = rc;
	if (!status && citcat_daf_decoder_finish(d) < 0)
		status = cv_file(v, o->daf, citcat_daf_decoder_error(d));
	if (!status && citcat_addr_writer_finish(w) < 0)
		status = cv_file(v, out, citcat_addr_writer_error(w));
done:
	if (status)
		citcat_addr_writer_abort(w);
	else if (citcat_addr_writer_close(w) < 0)
		status = cv_file(v, out, citcat_addr_writer_error(w));
	citcat_daf_decoder_close(d);
	if (rec)
		flow_close(&f);
	free(rec);
	return status;
}
