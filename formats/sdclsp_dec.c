/* SDC-LSP decoder: rebuilds the instruction address sequence from a stream
 * and the program image, and the summary reader used by `citcat info`. */
#include "sdclsp_model.h"
#include "bytes.h"
#include "input.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define XXH_STATIC_LINKING_ONLY
#include <xxhash.h>

#define LZ4_MAGIC 0x184D2204u

struct sdclsp_decoder {
	struct cc_input *in; /* the file or buffer, any outer wrapper peeled off */
	struct sdc_model m;
	struct sdc_classifier cls;
	int have_model, have_cls;
	const struct citcat_image *img;
	struct citcat_errinfo err;
	int failed, done;
	/* bit reader */
	uint8_t *blk;
	size_t blk_pos;
	uint64_t blk_bits_left, blk_off;
	int end_seen;
	uint64_t acc;
	unsigned nacc;
	uint64_t trailer[8];
	/* replay */
	uint32_t cur, remaining, runs_left; /* cur: a stream address (bit 0: Thumb) */
	int infer_valid;
	uint32_t infer;
	unsigned sa_shift; /* SA fields hold SA >> sa_shift: 2 (ISA 1), 0 (ISA 2) */
	uint64_t n_insn, n_streams;
	sdclsp_dec_stream_fn stream_cb; /* citcat dump: every stream descriptor read */
	void *stream_ctx;
};

static int dec_fail(struct sdclsp_decoder *d, int code, uint64_t off, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int dec_fail(struct sdclsp_decoder *d, int code, uint64_t off, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	d->err.code = code;
	d->err.offset = off;
	vsnprintf(d->err.msg, sizeof d->err.msg, fmt, ap);
	va_end(ap);
	d->failed = code;
	return code;
}

/* The input layer's error (I/O, a corrupt or truncated wrapper) stands. */
static int input_fail(struct sdclsp_decoder *d)
{
	d->err = *cc_input_error(d->in);
	return d->failed = d->err.code;
}

static int read_exact(struct sdclsp_decoder *d, uint8_t *buf, size_t n, const char *what)
{
	uint64_t off = cc_input_offset(d->in);
	long k = cc_input_read(d->in, buf, n);
	if (k < 0)
		return input_fail(d);
	if ((size_t)k < n)
		return dec_fail(d, CITCAT_ERR_TRUNCATED, off, "file ends inside the %s", what);
	return 0;
}

static int parse_header(struct sdclsp_decoder *d, struct sdclsp_config *c)
{
	uint8_t h[SDCLSP_HEADER_LEN];
	long k = cc_input_read(d->in, h, sizeof h);
	if (k == 0)
		return dec_fail(d, CITCAT_ERR_EMPTY, 0, "empty file");
	if (k < 0)
		return input_fail(d);
	if (k < 8 || memcmp(h, SDCLSP_MAGIC, 8) != 0)
		return dec_fail(d, CITCAT_ERR_MAGIC, 0, "not an SDC-LSP stream");
	if ((size_t)k < sizeof h)
		return dec_fail(d, CITCAT_ERR_TRUNCATED, (uint64_t)k, "file ends inside the header");
	if (cc_get16(h + 8) != SDCLSP_VERSION)
		return dec_fail(d, CITCAT_ERR_VERSION, 8, "version %u not supported (expected %u)", cc_get16(h + 8),
				SDCLSP_VERSION);
	if (XXH32(h, 36, 0) != cc_get32(h + 36))
		return dec_fail(d, CITCAT_ERR_CHECKSUM, 36, "header checksum mismatch");
	if (h[12] != CITCAT_SDCLSP_ISA_A32 && h[12] != CITCAT_SDCLSP_ISA_ARMV7)
		return dec_fail(d, CITCAT_ERR_UNSUPPORTED, 12, "ISA %u not supported", h[12]);
	for (int i = 33; i < 36; i++)
		if (h[i])
			return dec_fail(d, CITCAT_ERR_CORRUPT, (uint64_t)i, "reserved header byte %d is 0x%02x, not 0", i, h[i]);
	memset(c, 0, sizeof *c);
	c->size = sizeof *c;
	c->variant = h[10];
	c->repl = h[11];
	c->flags = h[13];
	c->isa = h[12];
	c->n_set = cc_get32(h + 14);
	c->n_way = cc_get32(h + 18);
	c->n_p = cc_get32(h + 22);
	c->shift = h[26];
	c->u = h[27];
	c->max_sl = cc_get32(h + 28);
	c->hist = h[32];
	struct citcat_errinfo e;
	if (sdclsp_config_check(c, &e) < 0)
		return dec_fail(d, CITCAT_ERR_CORRUPT, 10, "bad configuration: %s", e.msg);
	return 0;
}

static int dec_open(struct sdclsp_decoder *d, const struct citcat_image *img, int model)
{
	int rc;
	struct sdclsp_config c;
	if ((rc = parse_header(d, &c)) < 0)
		return rc;
	d->blk = malloc(SDCLSP_BLOCK_MAX);
	if (!d->blk)
		return dec_fail(d, CITCAT_ERR_NOMEM, UINT64_MAX, "out of memory");
	d->m.cfg = c;
	d->sa_shift = c.isa == CITCAT_SDCLSP_ISA_ARMV7 ? 0 : 2;
	if (model) {
		if ((rc = sdc_model_init(&d->m, &c)) < 0)
			return dec_fail(d, rc, UINT64_MAX, "out of memory");
		d->have_model = 1;
		if ((rc = sdc_classifier_init(&d->cls)) < 0)
			return dec_fail(d, rc, UINT64_MAX, "cannot start Capstone");
		d->have_cls = 1;
		d->cls.armv7 = c.isa == CITCAT_SDCLSP_ISA_ARMV7;
	}
	d->img = img;
	return 0;
}

int sdclsp_decoder_open(struct sdclsp_decoder **dp, const char *path, const struct citcat_image *img)
{
	if (!dp)
		return CITCAT_ERR_INVAL;
	*dp = NULL;
	if (!path || !img)
		return CITCAT_ERR_INVAL;
	struct sdclsp_decoder *d = calloc(1, sizeof *d);
	if (!(*dp = d))
		return CITCAT_ERR_NOMEM;
	int rc = cc_input_open(&d->in, path, &d->err);
	if (rc)
		return d->failed = rc;
	return dec_open(d, img, 1);
}

int sdclsp_decoder_open_mem(struct sdclsp_decoder **dp, const void *buf, size_t len, const struct citcat_image *img)
{
	if (!dp)
		return CITCAT_ERR_INVAL;
	*dp = NULL;
	if ((!buf && len) || !img)
		return CITCAT_ERR_INVAL;
	struct sdclsp_decoder *d = calloc(1, sizeof *d);
	if (!(*dp = d))
		return CITCAT_ERR_NOMEM;
	int rc = cc_input_open_mem(&d->in, buf, len, &d->err);
	if (rc)
		return d->failed = rc;
	return dec_open(d, img, 1);
}

void sdclsp_decoder_close(struct sdclsp_decoder *d)
{
	if (!d)
		return;
	cc_input_close(d->in);
	if (d->have_model)
		sdc_model_fini(&d->m);
	if (d->have_cls)
		sdc_classifier_fini(&d->cls);
	free(d->blk);
	free(d);
}

void sdclsp_decoder_set_stream_cb(struct sdclsp_decoder *d, sdclsp_dec_stream_fn fn, void *ctx)
{
	d->stream_cb = fn;
	d->stream_ctx = ctx;
}

const struct sdclsp_config *sdclsp_decoder_config(const struct sdclsp_decoder *d) { return d ? &d->m.cfg : NULL; }
const struct citcat_errinfo *sdclsp_decoder_error(const struct sdclsp_decoder *d) { return d ? &d->err : NULL; }

/* Loads the next block, or the trailer after the end block. */
static int load_block(struct sdclsp_decoder *d)
{
	uint8_t h[8];
	int rc;
	d->blk_off = cc_input_offset(d->in);
	if ((rc = read_exact(d, h, 8, "block header")) < 0)
		return rc;
	uint32_t nbits = cc_get32(h);
	if (nbits == 0) {
		uint8_t t[SDCLSP_TRAILER_LEN], extra;
		uint64_t off = cc_input_offset(d->in);
		if ((rc = read_exact(d, t, sizeof t, "trailer")) < 0)
			return rc;
		if (XXH32(t, 64, 0) != cc_get32(t + 64))
			return dec_fail(d, CITCAT_ERR_CHECKSUM, off, "trailer checksum mismatch");
		for (int i = 0; i < 8; i++)
			d->trailer[i] = cc_get64(t + 8 * i);
		long k = cc_input_read(d->in, &extra, 1);
		if (k < 0)
			return input_fail(d);
		if (k != 0)
			return dec_fail(d, CITCAT_ERR_CORRUPT, cc_input_offset(d->in), "data after the trailer");
		d->end_seen = 1;
		return 0;
	}
	if (nbits > SDCLSP_BLOCK_MAX * 8u)
		return dec_fail(d, CITCAT_ERR_CORRUPT, d->blk_off, "block of %u bits exceeds the limit", nbits);
	size_t len = (nbits + 7) / 8;
	if ((rc = read_exact(d, d->blk, len, "block")) < 0)
		return rc;
	if (XXH32(d->blk, len, 0) != cc_get32(h + 4))
		return dec_fail(d, CITCAT_ERR_CHECKSUM, d->blk_off, "block checksum mismatch");
	d->blk_pos = 0;
	d->blk_bits_left = nbits;
	return 0;
}

/* 1 when another bit follows, 0 at the end of the record stream. */
static int bits_more(struct sdclsp_decoder *d)
{
	while (!d->nacc && !d->blk_bits_left) {
		if (d->end_seen)
			return 0;
		int rc = load_block(d);
		if (rc < 0)
			return rc;
	}
	return 1;
}

static inline int get_bits(struct sdclsp_decoder *d, unsigned n, uint32_t *v)
{
	while (d->nacc < n) {
		if (!d->blk_bits_left) {
			int rc = d->end_seen ? 0 : load_block(d);
			if (rc < 0)
				return rc;
			if (!d->blk_bits_left)
				return dec_fail(d, CITCAT_ERR_TRUNCATED, d->blk_off, "the stream ends inside a record");
		}
		unsigned p = d->blk_bits_left < 8 ? (unsigned)d->blk_bits_left : 8;
		d->acc = (d->acc << p) | (uint64_t)(d->blk[d->blk_pos++] >> (8 - p));
		d->nacc += p;
		d->blk_bits_left -= p;
	}
	d->nacc -= n;
	*v = n ? (uint32_t)(d->acc >> d->nacc) & (uint32_t)((1ull << n) - 1) : 0;
	return 0;
}

static int hit_stream(struct sdclsp_decoder *d, uint32_t si, uint32_t *sa, uint32_t *sl)
{
	struct sdc_model *m = &d->m;
	if (si == 0 || si >= m->cfg.n_set * m->cfg.n_way || !m->valid[si])
		return dec_fail(d, CITCAT_ERR_CORRUPT, d->blk_off, "stream index %u names no SDC entry", si);
	*sa = m->tag_sa[si];
	if (m->cfg.variant == SDCLSP_R)
		*sa |= m->lvsa << (32 - m->cfg.u);
	*sl = m->tag_sl[si];
	sdc_touch(m, si);
	return 0;
}

/* Reads (or takes from the pending LSP-hit run) the next stream; 1, 0 at
 * the end, or an error.  Mirrors process_stream of the encoder. */
static int next_stream(struct sdclsp_decoder *d)
{
	struct sdc_model *m = &d->m;
	const struct sdclsp_config *c = &m->cfg;
	uint32_t sa = 0, sl = 0, si = 0, v = 0;
	struct sdclsp_dec_stream info = {.kind = SDCLSP_DEC_LSP_HIT, .insn = d->n_insn};
	int rc;
	if (d->runs_left) {
		info.copy = 1;
		d->runs_left--;
		si = m->lsp[sdc_lsp_index(m)];
		if ((rc = hit_stream(d, si, &sa, &sl)) < 0)
			return rc;
		goto done;
	}
	if ((rc = bits_more(d)) <= 0)
		return rc;
	if ((rc = get_bits(d, 1, &v)) < 0)
		return rc;
	if (v) {
		uint32_t run = 1;
		if (c->variant != SDCLSP_B) {
			if ((rc = get_bits(d, m->aolc_bits, &run)) < 0)
				return rc;
			run++;
			sdc_aolc_update(m, run);
		}
		info.run = run;
		d->runs_left = run - 1;
		si = m->lsp[sdc_lsp_index(m)];
		if ((rc = hit_stream(d, si, &sa, &sl)) < 0)
			return rc;
		goto done;
	}
	uint32_t p = sdc_lsp_index(m);
	if ((rc = get_bits(d, m->si_bits, &si)) < 0)
		return rc;
	if (si) {
		info.kind = SDCLSP_DEC_SDC_HIT;
		if ((rc = hit_stream(d, si, &sa, &sl)) < 0)
			return rc;
	} else {
		uint32_t explicit_sa = 1;
		info.kind = SDCLSP_DEC_SDC_MISS;
		if (d->infer_valid && !(c->flags & SDCLSP_FLAG_SA_ALWAYS) && (rc = get_bits(d, 1, &explicit_sa)) < 0)
			return rc;
		if (explicit_sa) {
			uint32_t s = 1, x = 0;
			if (c->variant != SDCLSP_B && (rc = get_bits(d, 1, &s)) < 0)
				return rc;
			if (c->variant != SDCLSP_B && s) {
				if ((rc = get_bits(d, 32u - d->sa_shift - c->u, &x)) < 0)
					return rc;
				sa = (m->lvsa << (32 - c->u)) | (x << d->sa_shift);
			} else {
				if ((rc = get_bits(d, 32u - d->sa_shift, &x)) < 0)
					return rc;
				sa = x << d->sa_shift;
				if (c->variant == SDCLSP_E)
					m->lvsa = sa >> (32 - c->u);
			}
		} else {
			sa = d->infer;
		}
		info.sa_sent = (uint8_t)explicit_sa;
		if ((rc = get_bits(d, m->sl_bits, &sl)) < 0)
			return rc;
		if (++sl > c->max_sl)
			return dec_fail(d, CITCAT_ERR_CORRUPT, d->blk_off, "stream length %u above the maximum %u", sl,
					c->max_sl);
		if (c->variant == SDCLSP_R)
			m->lvsa = sa >> (32 - c->u);
		uint32_t set = sdc_set_of(m, sa, sl);
		int i = sdc_lookup(m, set, sa, sl);
		if (i >= 0)
			sdc_touch(m, (uint32_t)i);
		else
			sdc_insert(m, set, sa, sl);
	}
	m->lsp[p] = si;
done:
	if (d->stream_cb) {
		info.si = si;
		info.sa = sa;
		info.sl = sl;
		d->stream_cb(d->stream_ctx, &info);
	}
	sdc_hist_push(m, si);
	d->cur = sa;
	d->remaining = sl;
	d->n_streams++;
	return 1;
}

int sdclsp_decoder_next(struct sdclsp_decoder *d, uint64_t *pc)
{
	unsigned size;
	int thumb;
	return sdclsp_decoder_next_isa(d, pc, &size, &thumb);
}

int sdclsp_decoder_next_isa(struct sdclsp_decoder *d, uint64_t *pc, unsigned *size, int *thumb)
{
	if (!d || !pc || !size || !thumb)
		return CITCAT_ERR_INVAL;
	if (d->failed)
		return d->failed;
	if (d->done)
		return 0;
	while (!d->remaining) {
		int rc = next_stream(d);
		if (rc < 0)
			return rc;
		if (rc == 0) {
			if (d->trailer[0] != d->n_insn || d->trailer[1] != d->n_streams)
				return dec_fail(d, CITCAT_ERR_CORRUPT, UINT64_MAX,
						"decoded %llu instructions in %llu streams, the trailer says %llu in %llu",
						(unsigned long long)d->n_insn, (unsigned long long)d->n_streams,
						(unsigned long long)d->trailer[0], (unsigned long long)d->trailer[1]);
			d->done = 1;
			return 0;
		}
	}
	uint32_t a = d->cur, t = a & 1, ia = a & ~1u; /* stream address, state, instruction address */
	if (t && d->sa_shift)
		return dec_fail(d, CITCAT_ERR_CORRUPT, d->blk_off, "Thumb address 0x%08x in an A32 stream", a);
	const struct sdc_cls_entry *e = sdc_cls_find(&d->cls, a);
	if (!e) {
		/* the image is walked by decoded size: a Thumb instruction's first
		 * halfword says whether a second one follows */
		uint8_t w[4] = {0};
		unsigned n = 4;
		if (t) {
			if (citcat_image_read(d->img, ia, w, 2) != 0)
				return dec_fail(d, CITCAT_ERR_CORRUPT, d->blk_off,
						"instruction address 0x%08x is not in the program image", ia);
			n = (cc_get16(w) >> 11) >= 0x1d ? 4 : 2;
		}
		if (citcat_image_read(d->img, ia, w, n) != 0)
			return dec_fail(d, CITCAT_ERR_CORRUPT, d->blk_off,
					"instruction address 0x%08x is not in the program image", ia);
		if (!(e = sdc_classify_isa(&d->cls, a, n == 2 ? cc_get16(w) : cc_get32(w), n)))
			return dec_fail(d, CITCAT_ERR_NOMEM, UINT64_MAX, "out of memory");
	}
	if (e->kind == SDC_UNSUPPORTED)
		return dec_fail(d, CITCAT_ERR_UNSUPPORTED, d->blk_off, "BLX to Thumb at 0x%08x", a);
	if (--d->remaining) {
		d->cur = e->kind == SDC_DIRECT_U ? e->target : a + e->size;
	} else {
		d->infer_valid = e->kind != SDC_INDIRECT;
		d->infer = e->kind == SDC_PLAIN ? a + e->size : e->target;
	}
	d->n_insn++;
	*pc = ia;
	*size = e->size;
	*thumb = (int)t;
	return 1;
}

int sdclsp_read_summary(const char *path, struct sdclsp_config *c, struct sdclsp_stats *st, struct citcat_errinfo *err)
{
	return sdclsp_read_summary_stop(path, c, st, NULL, NULL, err);
}

int sdclsp_read_summary_stop(const char *path, struct sdclsp_config *c, struct sdclsp_stats *st,
			     int (*stop)(void *ctx), void *ctx, struct citcat_errinfo *err)
{
	if (!path || !c || !st)
		return CITCAT_ERR_INVAL;
	struct sdclsp_decoder *d = calloc(1, sizeof *d);
	int rc = 0;
	if (!d)
		return CITCAT_ERR_NOMEM;
	if ((rc = cc_input_open(&d->in, path, &d->err)) == 0 && (rc = dec_open(d, NULL, 0)) == 0)
		while (!d->end_seen && (rc = load_block(d)) == 0)
			if (stop && stop(ctx)) {
				rc = dec_fail(d, CITCAT_ERR_INTERRUPTED, UINT64_MAX, "interrupted");
				break;
			}
	if (rc == 0) {
		*c = d->m.cfg;
		memset(st, 0, sizeof *st);
		st->instructions = d->trailer[0];
		st->streams = d->trailer[1];
		st->bits = d->trailer[2];
		st->sdc_hits = d->trailer[3];
		st->lsp_hits = d->trailer[4];
		st->msdc_bits = d->trailer[5];
		st->hsdc_bits = d->trailer[6];
		st->hlsp_bits = d->trailer[7];
	} else if (err) {
		*err = d->err;
	}
	sdclsp_decoder_close(d);
	return rc;
}

int sdclsp_is_magic(const uint8_t *head, size_t n)
{
	if (!head)
		return 0;
	if (n >= 8 && memcmp(head, SDCLSP_MAGIC, 8) == 0)
		return 1;
	return n >= 4 && cc_get32(head) == LZ4_MAGIC;
}

int sdclsp_probe(const char *path)
{
	if (!path)
		return 0;
	struct sdclsp_decoder *d = calloc(1, sizeof *d);
	struct sdclsp_config c;
	int ok = 0;
	if (!d)
		return 0;
	if (cc_input_open(&d->in, path, NULL) == 0)
		ok = parse_header(d, &c) == 0;
	sdclsp_decoder_close(d);
	return ok;
}
