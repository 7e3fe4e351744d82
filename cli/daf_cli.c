/* Data-address filtering on the command line: `convert FLOW --daf RUN.daf`
 * (the debugger's partial replay, program flow from an itrace or from an
 * SDC-LSP stream with the program image) and `bench daf` (Table 4 of the
 * paper).  Format and RVU work is in formats/daf.h. */
#include "addr.h"
#include "cli.h"
#include "citcat_m7_regs.h"
#include "formats_cli.h"
#include "daf.h"
#include "image.h"
#include "ims.h"
#include "itrace.h"
#include "sdclsp.h"

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

/* 1 with PC, WORD, SIZE and THUMB (the state), 0 at the end, or an exit
 * status (already printed). */
static int flow_next(struct flow *f, uint64_t *pc, uint32_t *word, unsigned *size, int *thumb)
{
	int rc;
	if (f->it) {
		/* an itrace's Cortex-M7 exception entries come out too (kind IRQ in f->rec) when asked */
		while ((rc = citcat_itrace_next(f->it, f->rec)) == 1 && f->rec->kind != CITCAT_REC_INSN &&
		       !(f->entries && f->rec->kind == CITCAT_REC_IRQ))
			;
		if (rc < 0)
			return -cli_errinfo(f->path, citcat_itrace_reader_error(f->it));
		*pc = f->rec->pc;
		*word = f->rec->word;
		*size = f->rec->size ? f->rec->size : 4;
		*thumb = f->rec->thumb;
		return rc;
	}
	rc = sdclsp_decoder_next_isa(f->sd, pc, size, thumb);
	if (rc < 0)
		return -cli_errinfo(f->path, sdclsp_decoder_error(f->sd));
	if (rc == 1) {
		uint8_t b[4] = {0};
		if (citcat_image_read(f->img, *pc, b, *size) < 0)
			return -cli_fail("%s: instruction at 0x%08llx is not in the program image", f->path,
					 (unsigned long long)*pc);
		*word = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
	}
	return rc;
}

static void flow_close(struct flow *f)
{
	citcat_itrace_reader_close(f->it);
	free(f->rec);
	sdclsp_decoder_close(f->sd);
	if (f->ims.memory)
		citcat_ims_fini(&f->ims); /* owns IMG */
	else
		citcat_image_free(f->img);
}

static int flow_open(struct flow *f, const char *in, const char *from, const struct convert_opts *o)
{
	memset(f, 0, sizeof *f);
	f->path = in;
	f->keep_uncached = o->uncached;
	f->dev_base = CITCAT_DEV_BASE;
	f->dev_size = CITCAT_DEV_SIZE;
	if (strcmp(from, "itrace") == 0) {
		if (o->image) /* it would be ignored: say so rather than accept anything */
			return cli_usage_error("convert", "--image goes with an SDC-LSP flow, which it decodes; the itrace %s "
							  "holds every instruction word itself: leave --image out", in);
		if (!(f->rec = malloc(sizeof *f->rec)))
			return cli_fail("out of memory");
		if (citcat_itrace_reader_open(&f->it, in) < 0)
			return cli_errinfo(in, citcat_itrace_reader_error(f->it));
		return 0;
	}
	if (strncmp(from, "sdclsp", 6) != 0)
		return cli_usage_error("convert", "--daf needs the program flow from an itrace or an SDC-LSP stream, not %s",
				       from);
	if (!o->image)
		return cli_usage_error("convert", "decoding %s needs --image RUN.ims or --image FIRMWARE.elf", in);
	int rc = sdclsp_load_image(o->image, &f->img, &f->ims);
	if (rc)
		return rc;
	if (f->ims.memory) { /* an IMS: the run's own device window */
		f->dev_base = f->ims.cfg.dev_base;
		f->dev_size = f->ims.cfg.dev_size;
	}
	if (sdclsp_decoder_open(&f->sd, in, f->img) < 0)
		return cli_errinfo(in, sdclsp_decoder_error(f->sd));
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

static void print_accesses(const char *what, const struct citcat_itrace_rec *r)
{
	fprintf(stderr, "  %s:", what);
	if (!r->n_acc)
		fprintf(stderr, " no data access");
	for (uint32_t i = 0; i < r->n_acc && i < 8; i++)
		fprintf(stderr, " %c%u 0x%08llx", r->acc[i].write ? 'W' : 'R', r->acc[i].size,
			(unsigned long long)r->acc[i].addr);
	fprintf(stderr, "%s\n", r->n_acc > 8 ? " ..." : "");
}

/* The data references of R (no fetch); uncached ones only with --uncached,
 * as convert RUN.itrace does (DIN.md). */
static int put_refs(struct citcat_addr_writer *w, const char *out, const struct citcat_itrace_rec *r, int keep_uncached)
{
	for (uint32_t i = 0; i < r->n_acc; i++) {
		if (r->acc[i].uncached && !keep_uncached)
			continue;
		struct citcat_ref ref = {.addr = r->acc[i].addr, .size = r->acc[i].size,
					 .type = r->acc[i].write ? CITCAT_REF_WRITE : CITCAT_REF_READ};
		if (citcat_addr_put(w, &ref))
			return cli_errinfo(out, citcat_addr_writer_error(w));
	}
	return 0;
}

/* Instruction N's rebuilt record REC: checked against TRUTH (the itrace's,
 * when the flow is one), then its fetch and data references. */
static int put_insn(const struct flow *f, struct citcat_addr_writer *w, const char *out, const char *in, const char *daf,
		    uint64_t n, struct citcat_itrace_rec *rec, const struct citcat_itrace_rec *truth)
{
	if (truth && !same(rec, truth)) {
		fprintf(stderr, "citcat: %s: instruction %llu at 0x%08llx (word %08x): the data accesses rebuilt from %s "
			"differ from the trace's\n", in, (unsigned long long)n, (unsigned long long)rec->pc, rec->word, daf);
		print_accesses("rebuilt", rec);
		print_accesses("itrace ", truth);
		return EXIT_CHECK;
	}
	struct citcat_ref ref = {.addr = rec->pc, .size = rec->size ? rec->size : 4, .type = CITCAT_REF_IFETCH};
	if (citcat_addr_put(w, &ref))
		return cli_errinfo(out, citcat_addr_writer_error(w));
	mark_uncached(f, rec, truth);
	return put_refs(w, out, rec, f->keep_uncached);
}

int daf_convert(const char *in, const char *from, const char *out, const char *to, const struct convert_opts *o)
{
	int fmt = citcat_addr_fmt_parse(to);
	if (!fmt)
		return cli_usage_error("convert", "FLOW --daf converts to din, xdin, pdats or pdats2, not %s", to);
	struct flow f;
	struct citcat_daf_decoder *d = NULL;
	struct citcat_addr_writer *w = NULL;
	struct citcat_itrace_rec *rec = malloc(sizeof *rec);
	int status = rec ? flow_open(&f, in, from, o) : cli_fail("out of memory");
	if (status)
		goto done;
	if (citcat_daf_decoder_open(&d, o->daf) < 0) {
		status = cli_errinfo(o->daf, citcat_daf_decoder_error(d));
		goto done;
	}
	struct citcat_addr_config ac = {.size = sizeof ac, .fmt = fmt, .lz4 = cli_out_wrap(out, o->lz4)};
	if (citcat_addr_writer_open(&w, out, &ac) < 0) {
		status = cli_errinfo(out, citcat_addr_writer_error(w));
		goto done;
	}
	uint64_t pc = 0, n = 0;
	uint32_t word = 0;
	unsigned size = 4;
	int rc = 0, thumb = 0;
	struct cli_progress pr;
	cli_progress_init(&pr, "decoding");
	f.entries = citcat_daf_decoder_m7(d);
	/* the instruction decoded last is written at the next boundary, after the
	 * first exception entry there, which may correct its accesses (a fault
	 * cut it short: DAF.md, "The Cortex-M7"); over an itrace, TRUTH keeps its
	 * record */
	struct citcat_itrace_rec *ent = malloc(sizeof *ent), *truth = f.it ? malloc(sizeof *truth) : NULL;
	int have_last = 0;
	if (!ent || (f.it && !truth)) {
		status = cli_fail("out of memory");
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
				status = cli_errinfo(o->daf, citcat_daf_decoder_error(d));
				break;
			}
			if (have_last && (status = put_insn(&f, w, out, in, o->daf, n - 1, rec, truth)))
				break;
			have_last = 0;
			if (f.it && (!irq || ent->line != f.rec->line || !same(ent, f.rec))) {
				fprintf(stderr, "citcat: %s: before instruction %llu: the exception entry rebuilt from %s (exception %u) "
					"differs from the trace's\n", in, (unsigned long long)n, o->daf, ent->line);
				print_accesses("rebuilt", ent);
				if (irq)
					print_accesses("itrace ", f.rec);
				else
					fprintf(stderr, "  itrace : no exception entry here\n");
				status = EXIT_CHECK;
				break;
			}
			mark_uncached(&f, ent, irq ? f.rec : NULL);
			if ((status = put_refs(w, out, ent, f.keep_uncached)))
				break;
			if (irq)
				break; /* one itrace entry record, one DAF entry */
		}
		if (status)
			break;
		if (irq && e == 0) {
			fprintf(stderr, "citcat: %s: before instruction %llu: the trace has an exception entry (exception %u) "
				"that %s does not\n", in, (unsigned long long)n, f.rec->line, o->daf);
			status = EXIT_CHECK;
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
			status = cli_errinfo(o->daf, citcat_daf_decoder_error(d));
			break;
		}
		if (truth)
			memcpy(truth, f.rec, sizeof *truth);
		have_last = 1;
		if ((++n & 0xfffff) == 0) {
			cli_progress_update(&pr, n, 0, "insn");
			if (cli_interrupted()) {
				status = cli_fail("interrupted");
				break;
			}
		}
	}
loop_done:
	free(ent);
	free(truth);
	cli_progress_done(&pr);
	if (!status && rc < 0)
		status = -rc;
	if (!status && citcat_daf_decoder_finish(d) < 0)
		status = cli_errinfo(o->daf, citcat_daf_decoder_error(d));
	if (!status && citcat_addr_writer_finish(w) < 0)
		status = cli_errinfo(out, citcat_addr_writer_error(w));
done:
	if (status)
		citcat_addr_writer_abort(w);
	else if (citcat_addr_writer_close(w) < 0)
		status = cli_errinfo(out, citcat_addr_writer_error(w));
	citcat_daf_decoder_close(d);
	if (rec)
		flow_close(&f);
	free(rec);
	return status;
}
