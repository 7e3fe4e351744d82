/* SDC-LSP conversions of citcat_convert: an itrace to an SDC-LSP stream
 * (formats/SDCLSP.md) and a stream back to din with its program image.
 * Moved from cli/sdclsp_cli.c, messages unchanged. */
#include "convert_int.h"

#include "addr.h"
#include "input.h"
#include "itrace.h"
#include "outfile.h"
#include "sdclsp.h"
#include "stop.h"
#include <citcat/io.h>

#include <stdlib.h>
#include <string.h>

static int stop_requested(void *ctx) { return cc_stop_requested(); }

/* The program image: an IMS (its memory image, which holds every
 * instruction the traced run executed) or a firmware ELF. */
int cv_load_image(struct cv *v, const char *path, struct citcat_image **img, struct citcat_ims *ims)
{
	uint8_t head[8];
	struct citcat_errinfo err = {0};
	long n = -1;
	struct citcat_input *inp;
	/* raw, through the input layer: standard input's bytes are read again */
	if (citcat_input_open(&inp, path, CITCAT_IN_RAW, &err) == 0) {
		n = citcat_input_read(inp, head, sizeof head);
		citcat_input_close(inp);
	}
	if (n < 0)
		return cv_msg(v, CITCAT_ERR_IO, "%s: cannot open", path);
	if (n == 8 && memcmp(head, "CIMS\r\n\x1a\n", 8) == 0) {
		int rc = citcat_ims_read(path, ims, &err);
		if (rc < 0)
			return cv_file(v, path, &err);
		*img = ims->memory;
		return 0;
	}
	if (citcat_image_alloc(img) < 0)
		return cv_msg(v, CITCAT_ERR_NOMEM, "out of memory");
	uint64_t entry;
	struct citcat_elf_limits lim = {.size = 1u << 30, .map_name = "the largest RAM the target can have",
					.stop = stop_requested};
	if (citcat_image_load_elf_limited(*img, path, &lim, &entry, &err) < 0) {
		citcat_image_free(*img);
		*img = NULL;
		return cv_file(v, path, &err);
	}
	return 0;
}

void cv_free_image(struct citcat_image *img, struct citcat_ims *ims)
{
	if (ims->memory)
		citcat_ims_fini(ims); /* owns IMG */
	else
		citcat_image_free(img);
}

/* One encoding pass with instruction set ISA; 1 (nothing written, nothing
 * reported) when an A32 pass meets Thumb code in a file that can be read
 * again. */
static int encode_pass(struct cv *v, int isa)
{
	const char *in = v->in, *out = v->out;
	struct sdclsp_config c;
	struct citcat_errinfo err;
	if (sdclsp_config_parse(&c, v->to, &err) < 0)
		return cv_usage(v, "%s", err.msg);
	c.isa = (uint8_t)isa;
	struct citcat_itrace_reader *r;
	int rc = citcat_itrace_reader_open(&r, in);
	if (rc < 0) {
		rc = cv_file(v, in, citcat_itrace_reader_error(r));
		citcat_itrace_reader_close(r);
		return rc;
	}
	int lz4 = cv_out_wrap(v);
	struct cc_outfile *f;
	struct sdclsp_encoder *e = NULL;
	if (cc_outfile_open(&f, out, lz4, &err) < 0) {
		citcat_itrace_reader_close(r);
		return cv_file(v, out, &err);
	}
	if ((rc = sdclsp_encoder_alloc(&e, &c, cc_outfile_sink, f)) < 0) {
		citcat_itrace_reader_close(r);
		cc_outfile_abort(f);
		return cv_msg(v, rc, "%s: %s", out, citcat_errstr(rc));
	}
	static struct citcat_itrace_rec rec;
	uint64_t n = 0;
	while ((rc = citcat_itrace_next(r, &rec)) == 1) {
		if (rec.kind == CITCAT_REC_STOP)
			continue; /* an abnormal end: no program flow */
		if (rec.kind == CITCAT_REC_INSN && rec.thumb && isa != CITCAT_SDCLSP_ISA_ARMV7 && strcmp(in, "-") != 0) {
			rc = -2000; /* Thumb code: redo as an ARMv7 stream (SDCLSP.md, "Thumb") */
			break;
		}
		rc = rec.kind == CITCAT_REC_IRQ ? sdclsp_encode_irq(e, rec.pc)
						: sdclsp_encode_insn_isa(e, rec.pc, rec.word, rec.size, rec.thumb);
		if (rc < 0)
			break;
		if ((++n & 0xfffff) == 0)
			cv_progress(v, "encoding", n, "rec");
		if ((n & 0x3fff) == 0 && cc_stop_requested()) {
			rc = CITCAT_ERR_INTERRUPTED;
			break;
		}
	}
	if (rc == 0)
		rc = sdclsp_encoder_finish(e);
	int status = 0;
	if (rc == -2000) {
		cc_outfile_abort(f);
		status = 1;
	} else if (rc == CITCAT_ERR_INTERRUPTED) {
		status = cv_msg(v, rc, "convert: interrupted after %llu records; no output written", (unsigned long long)n);
		cc_outfile_abort(f);
	} else if (rc < 0) {
		struct citcat_errinfo oe = {0};
		if (cc_outfile_errinfo(f, &oe)) /* the output failed: its path and reason */
			status = cv_file(v, out, &oe);
		else if (citcat_itrace_reader_error(r)->code || !sdclsp_encoder_error(e)->msg[0])
			status = cv_file(v, in, citcat_itrace_reader_error(r)->code ? citcat_itrace_reader_error(r)
					 : (citcat_errinfo_set(&oe, rc, UINT64_MAX, "%s", citcat_errstr(rc)), &oe));
		else
			status = cv_file(v, in, sdclsp_encoder_error(e));
		cc_outfile_abort(f);
	} else if (cc_outfile_commit(f, &err) < 0) {
		status = cv_file(v, out, &err);
	}
	sdclsp_encoder_free(e);
	citcat_itrace_reader_close(r);
	return status;
}

/* Decodes to Dinero din (instruction fetches only) with the din writer. */
static int decode_file(struct cv *v)
{
	const char *in = v->in, *out = v->out;
	if (strcmp(v->to, "din") != 0)
		return cv_usage(v, "an SDC-LSP stream converts to din only, not %s", v->to);
	if (!v->c.image)
		return cv_usage(v, "decoding %s needs --image RUN.ims or --image FIRMWARE.elf", in);
	struct citcat_image *img = NULL;
	struct citcat_ims ims = {0};
	int status = cv_load_image(v, v->c.image, &img, &ims);
	if (status)
		return status;
	struct sdclsp_decoder *d;
	struct citcat_addr_writer *w = NULL;
	int rc = sdclsp_decoder_open(&d, in, img);
	if (rc < 0) {
		status = cv_file(v, in, sdclsp_decoder_error(d));
		goto done;
	}
	struct citcat_addr_config ac = {.size = sizeof ac, .fmt = CITCAT_ADDR_DIN};
	if ((rc = citcat_addr_writer_open(&w, out, &ac)) < 0) {
		status = cv_file(v, out, citcat_addr_writer_error(w));
		goto done;
	}
	uint64_t pc, n = 0;
	unsigned isize;
	int ithumb;
	while ((rc = sdclsp_decoder_next_isa(d, &pc, &isize, &ithumb)) == 1) {
		struct citcat_ref ref = {.addr = pc, .size = isize, .type = CITCAT_REF_IFETCH};
		if ((rc = citcat_addr_put(w, &ref)) < 0)
			break;
		if ((++n & 0xfffff) == 0)
			cv_progress(v, "decoding", n, "insn");
		if ((n & 0x3fff) == 0 && cc_stop_requested()) {
			rc = CITCAT_ERR_INTERRUPTED;
			break;
		}
	}
	if (rc == CITCAT_ERR_INTERRUPTED)
		status = cv_msg(v, rc, "convert: interrupted after %llu instructions; no output written",
				(unsigned long long)n);
	else if (rc < 0)
		status = citcat_addr_writer_error(w)->code ? cv_file(v, out, citcat_addr_writer_error(w))
							    : cv_file(v, in, sdclsp_decoder_error(d));
	else if ((rc = citcat_addr_writer_finish(w)) < 0)
		status = cv_file(v, out, citcat_addr_writer_error(w));
done:
	if (status)
		citcat_addr_writer_abort(w);
	else
		citcat_addr_writer_close(w);
	sdclsp_decoder_close(d);
	cv_free_image(img, &ims);
	return status;
}

int cv_sdclsp(struct cv *v)
{
	if (strncmp(v->to, "sdclsp", 6) == 0) {
		if (strcmp(v->from, "itrace") != 0)
			return cv_usage(v, "SDC-LSP streams are made from an itrace, not %s", v->from);
		int rc = encode_pass(v, CITCAT_SDCLSP_ISA_A32);
		return rc == 1 ? encode_pass(v, CITCAT_SDCLSP_ISA_ARMV7) : rc;
	}
	return decode_file(v);
}
