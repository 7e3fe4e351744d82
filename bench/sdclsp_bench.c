/* citcat_bench_sdclsp (<citcat/bench.h>): the figures of `citcat bench
 * sdclsp`, the paper's table of bits per instruction over SDC and LSP sizes
 * for the three variants, beside the baselines of its section 4.1, and the
 * encode and decode speed of rSDC-LSP [32x4, 128].
 *
 * The itrace is read into memory once, before anything is timed: a
 * benchmark's input, not a stream (its size is the caller's choice). */
#include "bench_int.h"
#include "sdclsp.h"
#include "outfile.h"
#include "stop.h"
#include <citcat/bench.h>
#include <citcat/itrace.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FAIL(code, ...) (r->err_path = NULL, citcat_errinfo_set(err, code, UINT64_MAX, __VA_ARGS__))

struct trace {
	uint32_t *pc, *word; /* word == 0 and pc odd: an interrupt entry (EPC = pc & ~1) */
	uint8_t *sz;         /* an instruction's size, + 8 in Thumb state */
	size_t n, cap;
	uint64_t insns;
	int thumb;           /* some instruction is in Thumb state: CITCAT_SDCLSP_ISA_ARMV7 */
};

static int trace_load(const char *path, struct trace *t, struct citcat_bench_sdclsp *r, struct citcat_errinfo *err)
{
	struct citcat_itrace_reader *rd;
	struct citcat_itrace_rec rec;
	int rc = citcat_itrace_reader_open(&rd, path);
	while (rc == 0 && (rc = citcat_itrace_next(rd, &rec)) == 1) {
		rc = 0;
		if (rec.kind == CITCAT_REC_STOP)
			continue;
		if ((t->n & 0xFFFF) == 0 && cc_stop_requested()) {
			citcat_itrace_reader_close(rd);
			return FAIL(CITCAT_ERR_INTERRUPTED, "interrupted");
		}
		if (t->n == t->cap) {
			size_t nc = t->cap ? 2 * t->cap : 1 << 16;
			uint32_t *a = realloc(t->pc, nc * 4);
			if (a)
				t->pc = a;
			uint32_t *b = a ? realloc(t->word, nc * 4) : NULL;
			if (b)
				t->word = b;
			uint8_t *z = b ? realloc(t->sz, nc) : NULL;
			if (!z) {
				citcat_itrace_reader_close(rd);
				return FAIL(CITCAT_ERR_NOMEM, "out of memory");
			}
			t->sz = z;
			t->cap = nc;
		}
		if (rec.kind == CITCAT_REC_IRQ) {
			t->pc[t->n] = (uint32_t)rec.pc | 1;
			t->sz[t->n] = 0;
			t->word[t->n++] = 0;
		} else {
			t->pc[t->n] = (uint32_t)rec.pc;
			t->sz[t->n] = (uint8_t)((rec.size ? rec.size : 4) | (rec.thumb ? 8 : 0));
			t->thumb |= rec.thumb;
			t->word[t->n++] = rec.word;
			t->insns++;
		}
	}
	if (rc < 0) {
		r->err_path = path;
		rc = bench_errinfo_copy(err, citcat_itrace_reader_error(rd));
	}
	citcat_itrace_reader_close(rd);
	return rc < 0 ? rc : 0;
}

/* The image a decoder needs, rebuilt from the words the trace executed
 * (an open-addressed set of the PCs already added). */
static int trace_image(const struct trace *t, struct citcat_image **img)
{
	size_t cap = 1 << 12, used = 0;
	uint32_t *set = calloc(cap, 4);
	*img = NULL;
	if (!set || citcat_image_alloc(img) < 0) {
		free(set);
		return CITCAT_ERR_NOMEM;
	}
	for (size_t i = 0; i < t->n; i++) {
		uint32_t pc = t->pc[i];
		if (pc & 1)
			continue;
		size_t h = (pc * 0x9E3779B1u >> 8) & (cap - 1);
		while (set[h] && set[h] != pc + 1)
			h = (h + 1) & (cap - 1);
		if (set[h])
			continue;
		set[h] = pc + 1;
		uint8_t b[4] = {(uint8_t)t->word[i], (uint8_t)(t->word[i] >> 8), (uint8_t)(t->word[i] >> 16),
				(uint8_t)(t->word[i] >> 24)};
		int rc = citcat_image_add(*img, pc, b, t->sz[i] & 7u);
		if (rc < 0) {
			free(set);
			return rc;
		}
		if (++used * 2 > cap) { /* grow */
			uint32_t *ns = calloc(cap * 2, 4);
			if (!ns) {
				free(set);
				return CITCAT_ERR_NOMEM;
			}
			for (size_t k = 0; k < cap; k++)
				if (set[k]) {
					size_t g = ((set[k] - 1) * 0x9E3779B1u >> 8) & (2 * cap - 1);
					while (ns[g])
						g = (g + 1) & (2 * cap - 1);
					ns[g] = set[k];
				}
			free(set);
			set = ns;
			cap *= 2;
		}
	}
	free(set);
	return 0;
}

/* The (SA/-, SL) descriptor sequence for the general-purpose compressors:
 * 6 bytes per stream, SA zero where the decoder infers it. */
static void desc_sink(void *ctx, uint32_t sa, uint32_t sl, int inferable)
{
	uint8_t b[6] = {0};
	if (!inferable)
		b[0] = (uint8_t)sa, b[1] = (uint8_t)(sa >> 8), b[2] = (uint8_t)(sa >> 16), b[3] = (uint8_t)(sa >> 24);
	b[4] = (uint8_t)sl;
	b[5] = (uint8_t)(sl >> 8);
	fwrite(b, 1, 6, ctx);
}

static int run_encoder(const struct trace *t, const struct sdclsp_config *c, sdclsp_sink_fn sink, void *ctx,
		       FILE *desc, struct sdclsp_stats *st)
{
	struct sdclsp_encoder *e;
	int rc = sdclsp_encoder_alloc(&e, c, sink, ctx);
	if (rc < 0)
		return rc;
	if (desc)
		sdclsp_encoder_set_stream_cb(e, desc_sink, desc);
	for (size_t i = 0; i < t->n && rc == 0; i++)
		rc = (t->pc[i] & 1)  ? sdclsp_encode_irq(e, t->pc[i] & ~1u)
		     : t->thumb ? sdclsp_encode_insn_isa(e, t->pc[i], t->word[i], t->sz[i] & 7u, t->sz[i] >> 3)
				  : sdclsp_encode_insn(e, t->pc[i], t->word[i]);
	if (rc == 0)
		rc = sdclsp_encoder_finish(e);
	if (st)
		*st = *sdclsp_encoder_stats(e);
	sdclsp_encoder_free(e);
	return rc;
}

static int measure(const char *itrace, const char *desc_path, const struct trace *t, struct citcat_bench_sdclsp *r,
		   int *committed, struct citcat_errinfo *err)
{
	struct cc_outfile *dout = NULL;
	FILE *desc = NULL;
	int rc = 0;
	if (desc_path) {
		if ((rc = cc_outfile_open(&dout, desc_path, CC_OUT_PLAIN | CC_OUT_NOSYNC, err)) != 0) {
			r->err_path = desc_path;
			return rc;
		}
		if (!(desc = cc_outfile_stream(dout))) {
			cc_outfile_abort(dout);
			return FAIL(CITCAT_ERR_IO, "%s: cannot write", desc_path);
		}
	}
	for (int v = 0; v < 3; v++)
		for (int s = 0; s < CITCAT_BENCH_SDCLSP_SIZES; s++) {
			struct sdclsp_config c;
			struct sdclsp_stats st;
			sdclsp_config_init(&c, (enum sdclsp_variant)(SDCLSP_B + v));
			if (t->thumb)
				c.isa = CITCAT_SDCLSP_ISA_ARMV7;
			c.n_set = 8u << s;
			c.n_p = c.n_set * 4;
			if (cc_stop_requested()) {
				rc = FAIL(CITCAT_ERR_INTERRUPTED, "interrupted");
				goto out;
			}
			if ((rc = run_encoder(t, &c, NULL, NULL, v == 0 && s == 0 ? desc : NULL, &st)) < 0) {
				r->err_path = itrace;
				citcat_errinfo_set(err, rc, UINT64_MAX, "%s", citcat_errstr(rc));
				goto out;
			}
			r->bits[v][s] = st.bits;
			r->sdc_hits[v][s] = st.sdc_hits;
			r->lsp_hits[v][s] = st.lsp_hits;
			r->streams = st.streams;
			r->fbase_bits = st.fbase_bits;
			r->base_bits = st.base_bits;
			r->nexs_bits = st.nexs_bits;
		}
	if (desc) {
		int bad = fclose(desc) != 0;
		desc = NULL;
		if (bad) {
			cc_outfile_abort(dout);
			rc = FAIL(CITCAT_ERR_IO, "%s: write failed", desc_path);
		} else if ((rc = cc_outfile_commit(dout, err)) != 0) {
			r->err_path = desc_path;
		} else {
			*committed = 1;
		}
		dout = NULL;
		if (rc)
			goto out;
	}
	/* speed: rSDC-LSP [32x4, 128] into memory and back, best of three */
	struct sdclsp_config c;
	struct citcat_image *img = NULL;
	sdclsp_config_init(&c, SDCLSP_R);
	if (t->thumb)
		c.isa = CITCAT_SDCLSP_ISA_ARMV7;
	if ((rc = trace_image(t, &img)) < 0) {
		citcat_image_free(img);
		rc = FAIL(rc, "out of memory");
		goto out;
	}
	r->enc_s = r->dec_s = 0;
	for (int k = 0; k < 3 && rc == 0; k++) {
		struct cc_outfile *mo;
		uint8_t *mp = NULL;
		size_t ml = 0;
		if ((rc = cc_outfile_open(&mo, NULL, 0, NULL)) < 0) {
			rc = FAIL(CITCAT_ERR_NOMEM, "out of memory");
			break;
		}
		double t0 = bench_now();
		int erc = run_encoder(t, &c, cc_outfile_sink, mo, NULL, NULL);
		int trc = cc_outfile_take(mo, &mp, &ml);
		double t1 = bench_now();
		struct sdclsp_decoder *d = NULL;
		uint64_t pc, n = 0;
		int drc = erc < 0 ? erc : trc < 0 ? trc : sdclsp_decoder_open_mem(&d, mp, ml, img);
		while (drc >= 0 && (drc = sdclsp_decoder_next(d, &pc)) == 1)
			n++;
		double t2 = bench_now();
		if (drc < 0 || n != t->insns) {
			const struct citcat_errinfo *de = d ? sdclsp_decoder_error(d) : NULL;
			rc = FAIL(drc < 0 ? drc : CITCAT_ERR_CORRUPT, "%s: round trip failed: %s", itrace,
				  de && de->code ? de->msg : drc < 0 ? citcat_errstr(drc) : "instruction counts differ");
		} else {
			if (k == 0 || t1 - t0 < r->enc_s)
				r->enc_s = t1 - t0;
			if (k == 0 || t2 - t1 < r->dec_s)
				r->dec_s = t2 - t1;
		}
		sdclsp_decoder_close(d);
		free(mp);
	}
	citcat_image_free(img);
out:
	if (desc) {
		fclose(desc);
		cc_outfile_abort(dout);
	}
	return rc;
}

int citcat_bench_sdclsp(const char *itrace, const char *desc_path, struct citcat_bench_sdclsp *out,
			struct citcat_errinfo *err)
{
	if (!itrace || !out)
		return citcat_errinfo_set(err, CITCAT_ERR_INVAL, UINT64_MAX, "NULL argument");
	if (out->size < sizeof *out) /* the first version: anything smaller is wrong */
		return citcat_errinfo_set(err, CITCAT_ERR_INVAL, UINT64_MAX, "a too small result size");
	struct citcat_bench_sdclsp o;
	memset(&o, 0, sizeof o);
	o.size = sizeof o;
	struct trace t;
	memset(&t, 0, sizeof t);
	struct citcat_bench_sdclsp *r = &o;
	int committed = 0;
	int rc = trace_load(itrace, &t, r, err);
	o.insns = t.insns;
	if (rc == 0)
		rc = measure(itrace, desc_path, &t, &o, &committed, err);
	if (rc && committed)
		remove(desc_path); /* ours: written by this call */
	free(t.pc);
	free(t.word);
	free(t.sz);
	if (bench_out_fill(out, &o, sizeof o))
		return citcat_errinfo_set(err, CITCAT_ERR_INVAL, UINT64_MAX, "a too small result size");
	return rc;
}
