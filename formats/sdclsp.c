/* SDC-LSP configuration, encoder (stream detector, SDC, LSP, record
 * encoder) and output file.  Layout: SDCLSP.md. */
#include "sdclsp_model.h"
#include "bytes.h"

#include <errno.h>
#include <lz4frame.h>
#include <stdarg.h>
#include <stdio.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#define XXH_STATIC_LINKING_ONLY
#include <xxhash.h>


static int is_pow2(uint32_t v) { return v && !(v & (v - 1)); }

const char *sdclsp_variant_name(int variant)
{
	switch (variant) {
	case SDCLSP_B: return "b";
	case SDCLSP_E: return "e";
	case SDCLSP_R: return "r";
	default: return "?";
	}
}

int sdclsp_config_init(struct sdclsp_config *c, enum sdclsp_variant variant)
{
	if (!c || variant < SDCLSP_B || variant > SDCLSP_R)
		return CITCAT_ERR_INVAL;
	memset(c, 0, sizeof *c);
	c->size = sizeof *c;
	c->variant = (uint8_t)variant;
	c->repl = SDCLSP_REPL_MRU;
	c->shift = 4;
	c->u = variant == SDCLSP_R ? 12 : 14;
	c->hist = 1;
	c->n_set = 32;
	c->n_way = 4;
	c->n_p = 128;
	c->max_sl = 256;
	return 0;
}

int sdclsp_config_check(const struct sdclsp_config *c, struct citcat_errinfo *err)
{
	if (!c || c->size < sizeof *c)
		return citcat_errinfo_set(err, CITCAT_ERR_INVAL, UINT64_MAX, "configuration structure too small");
	if (c->variant < SDCLSP_B || c->variant > SDCLSP_R)
		return citcat_errinfo_set(err, CITCAT_ERR_INVAL, UINT64_MAX, "unknown variant %u", c->variant);
	if (c->repl > SDCLSP_REPL_FIFO)
		return citcat_errinfo_set(err, CITCAT_ERR_INVAL, UINT64_MAX, "unknown replacement policy %u", c->repl);
	if (c->flags & ~SDCLSP_FLAG_SA_ALWAYS)
		return citcat_errinfo_set(err, CITCAT_ERR_INVAL, UINT64_MAX, "unknown flags 0x%x", c->flags);
	if (!is_pow2(c->n_set) || c->n_set > 65536 || !is_pow2(c->n_way) || c->n_way > 256 ||
	    (uint64_t)c->n_set * c->n_way < 2 || (uint64_t)c->n_set * c->n_way > 65536)
		return citcat_errinfo_set(err, CITCAT_ERR_INVAL, UINT64_MAX,
			       "SDC %ux%u: sets and ways must be powers of two, 2..65536 entries", c->n_set,
			       c->n_way);
	if (!is_pow2(c->n_p) || c->n_p > 65536)
		return citcat_errinfo_set(err, CITCAT_ERR_INVAL, UINT64_MAX, "LSP size %u: a power of two up to 65536",
			       c->n_p);
	if (c->shift > 31 || c->u < 1 || c->u > 29 || c->hist < 1 || c->hist > SDCLSP_MAX_HIST)
		return citcat_errinfo_set(err, CITCAT_ERR_INVAL, UINT64_MAX, "shift %u, u %u or history %u out of range",
			       c->shift, c->u, c->hist);
	if (c->isa > CITCAT_SDCLSP_ISA_ARMV7)
		return citcat_errinfo_set(err, CITCAT_ERR_INVAL, UINT64_MAX, "unknown ISA %u", c->isa);
	if (c->max_sl < 1 || c->max_sl > SDCLSP_MAX_SL_LIMIT)
		return citcat_errinfo_set(err, CITCAT_ERR_INVAL, UINT64_MAX, "maximum stream length %u not in 1..%u",
			       c->max_sl, SDCLSP_MAX_SL_LIMIT);
	return 0;
}

static int parse_u32(const char *s, const char *end, uint32_t *out)
{
	uint64_t v = 0;
	if (s == end)
		return -1;
	for (; s < end; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		v = v * 10 + (uint64_t)(*s - '0');
		if (v > 0xffffffffu)
			return -1;
	}
	*out = (uint32_t)v;
	return 0;
}

int sdclsp_config_parse(struct sdclsp_config *c, const char *spec, struct citcat_errinfo *err)
{
	if (!c || !spec || strncmp(spec, "sdclsp", 6) != 0 || (spec[6] && spec[6] != ':'))
		return citcat_errinfo_set(err, CITCAT_ERR_INVAL, UINT64_MAX, "'%s': expected sdclsp[:b|e|r][:SETSxWAYS,NP]",
			       spec ? spec : "");
	enum sdclsp_variant v = SDCLSP_R;
	const char *p = spec + 6;
	for (const char *q = p; *q; q++) /* the variant first: it sets the defaults */
		if (q[0] == ':' && (q[1] == 'b' || q[1] == 'e' || q[1] == 'r') && (q[2] == ':' || !q[2]))
			v = q[1] == 'b' ? SDCLSP_B : q[1] == 'e' ? SDCLSP_E : SDCLSP_R;
	sdclsp_config_init(c, v);
	while (*p == ':') {
		const char *t = p + 1, *end = strchr(t, ':');
		if (!end)
			end = t + strlen(t);
		size_t n = (size_t)(end - t);
		const char *x = memchr(t, 'x', n), *comma = memchr(t, ',', n), *eq = memchr(t, '=', n);
		uint32_t a, b, np;
		if (n == 1 && (*t == 'b' || *t == 'e' || *t == 'r')) {
			/* done above */
		} else if (x && comma && x < comma && !eq && parse_u32(t, x, &a) == 0 &&
			   parse_u32(x + 1, comma, &b) == 0 && parse_u32(comma + 1, end, &np) == 0) {
			c->n_set = a;
			c->n_way = b;
			c->n_p = np;
		} else if (eq) {
			size_t kl = (size_t)(eq - t);
			uint32_t val = 0;
			int num = parse_u32(eq + 1, end, &val) == 0;
			if (kl == 5 && !memcmp(t, "shift", 5) && num && val < 256)
				c->shift = (uint8_t)val;
			else if (kl == 1 && *t == 'u' && num && val < 256)
				c->u = (uint8_t)val;
			else if (kl == 5 && !memcmp(t, "maxsl", 5) && num)
				c->max_sl = val;
			else if (kl == 4 && !memcmp(t, "hist", 4) && num && val < 256)
				c->hist = (uint8_t)val;
			else if (kl == 4 && !memcmp(t, "repl", 4) && end - eq == 4 && !memcmp(eq + 1, "mru", 3))
				c->repl = SDCLSP_REPL_MRU;
			else if (kl == 4 && !memcmp(t, "repl", 4) && end - eq == 4 && !memcmp(eq + 1, "lru", 3))
				c->repl = SDCLSP_REPL_LRU;
			else if (kl == 4 && !memcmp(t, "repl", 4) && end - eq == 5 && !memcmp(eq + 1, "fifo", 4))
				c->repl = SDCLSP_REPL_FIFO;
			else if (kl == 2 && !memcmp(t, "sa", 2) && end - eq == 7 && !memcmp(eq + 1, "always", 6))
				c->flags |= SDCLSP_FLAG_SA_ALWAYS;
			else
				return citcat_errinfo_set(err, CITCAT_ERR_INVAL, UINT64_MAX, "'%s': bad item '%.*s'", spec,
					       (int)n, t);
		} else {
			return citcat_errinfo_set(err, CITCAT_ERR_INVAL, UINT64_MAX, "'%s': bad item '%.*s'", spec, (int)n, t);
		}
		p = end;
	}
	return sdclsp_config_check(c, err);
}

/* ---- encoder ---- */

struct sdclsp_encoder {
	struct sdc_model m;
	struct sdc_classifier cls;
	sdclsp_sink_fn sink;
	void *ctx;
	sdclsp_record_fn rec_fn;
	void *rec_ctx;
	sdclsp_stream_fn stream_fn;
	void *stream_ctx;
	struct sdclsp_stats st;
	struct citcat_errinfo err;
	int failed, finished;
	/* bit writer: NACC < 8 pending bits in the low end of ACC */
	uint64_t acc;
	unsigned nacc;
	uint8_t *buf;
	size_t pos;
	/* stream detector */
	int open, have_pending, s_has_infer, s_explicit, infer_valid;
	uint32_t sa, sl, infer;
	uint32_t ppc, ptarget; /* stream addresses (bit 0: Thumb) */
	uint8_t pkind, psize;
	int armv7;         /* CITCAT_SDCLSP_ISA_ARMV7 (SDCLSP.md, "Thumb") */
	unsigned sa_shift; /* SA fields hold SA >> sa_shift: 2 (A32), 0 (ARMv7) */
	/* LSP-hit run (e, r) */
	uint32_t run;
	uint32_t run_sa, run_sl, run_si;
	uint32_t nexs_prev;
};

static int enc_fail(struct sdclsp_encoder *e, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int enc_fail(struct sdclsp_encoder *e, int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	e->err.code = code;
	e->err.offset = UINT64_MAX;
	vsnprintf(e->err.msg, sizeof e->err.msg, fmt, ap);
	va_end(ap);
	e->failed = code;
	return code;
}

/* 0 when E can take another event, else the error to return (and keep). */
static int enc_usable(struct sdclsp_encoder *e)
{
	if (!e)
		return CITCAT_ERR_INVAL;
	if (e->failed)
		return e->failed;
	if (e->finished)
		return enc_fail(e, CITCAT_ERR_INVAL, "encoder already finished");
	return 0;
}

static int emit_block(struct sdclsp_encoder *e, uint32_t nbits)
{
	uint8_t h[8];
	size_t len = (nbits + 7) / 8;
	cc_put32(h, nbits);
	cc_put32(h + 4, XXH32(e->buf, len, 0));
	if (!e->sink)
		return 0;
	int rc = e->sink(e->ctx, h, 8);
	if (rc == 0 && len)
		rc = e->sink(e->ctx, e->buf, len);
	if (rc < 0)
		return enc_fail(e, rc, "cannot write the stream");
	return 0;
}

static inline int put(struct sdclsp_encoder *e, uint32_t v, unsigned n)
{
	e->st.bits += n;
	e->acc = (e->acc << n) | v;
	e->nacc += n;
	while (e->nacc >= 8) {
		e->nacc -= 8;
		e->buf[e->pos++] = (uint8_t)(e->acc >> e->nacc);
		if (e->pos == SDCLSP_BLOCK_MAX) {
			int rc = emit_block(e, SDCLSP_BLOCK_MAX * 8);
			e->pos = 0;
			if (rc < 0)
				return rc;
		}
	}
	return 0;
}

int sdclsp_encoder_alloc(struct sdclsp_encoder **ep, const struct sdclsp_config *c, sdclsp_sink_fn sink, void *ctx)
{
	if (!ep)
		return CITCAT_ERR_INVAL;
	*ep = NULL;
	/* the caller's struct may be newer than ours (citcat/base.h); every
	 * member of this first version is required */
	struct sdclsp_config cv;
	if (cc_config_from_user(&cv, sizeof cv, c, offsetof(struct sdclsp_config, max_sl) + sizeof cv.max_sl) ||
	    sdclsp_config_check(&cv, NULL) < 0)
		return CITCAT_ERR_INVAL;
	c = &cv;
	struct sdclsp_encoder *e = calloc(1, sizeof *e);
	if (!e)
		return CITCAT_ERR_NOMEM;
	e->buf = malloc(SDCLSP_BLOCK_MAX);
	int rc = e->buf ? sdc_model_init(&e->m, c) : CITCAT_ERR_NOMEM;
	if (rc == 0 && (rc = sdc_classifier_init(&e->cls)) < 0)
		sdc_model_fini(&e->m);
	e->armv7 = c->isa == CITCAT_SDCLSP_ISA_ARMV7;
	e->cls.armv7 = e->armv7;
	e->sa_shift = e->armv7 ? 0 : 2;
	if (rc < 0) {
		free(e->buf);
		free(e);
		return rc;
	}
	e->sink = sink;
	e->ctx = ctx;
	uint8_t h[SDCLSP_HEADER_LEN] = {0};
	memcpy(h, SDCLSP_MAGIC, 8);
	cc_put16(h + 8, SDCLSP_VERSION);
	h[10] = c->variant;
	h[11] = c->repl;
	h[12] = e->armv7 ? CITCAT_SDCLSP_ISA_ARMV7 : CITCAT_SDCLSP_ISA_A32;
	h[13] = c->flags;
	cc_put32(h + 14, c->n_set);
	cc_put32(h + 18, c->n_way);
	cc_put32(h + 22, c->n_p);
	h[26] = c->shift;
	h[27] = c->u;
	cc_put32(h + 28, c->max_sl);
	h[32] = c->hist;
	cc_put32(h + 36, XXH32(h, 36, 0));
	if (sink && (rc = sink(ctx, h, sizeof h)) < 0) {
		sdclsp_encoder_free(e);
		return rc;
	}
	*ep = e;
	return 0;
}

void sdclsp_encoder_free(struct sdclsp_encoder *e)
{
	if (!e)
		return;
	sdc_model_fini(&e->m);
	sdc_classifier_fini(&e->cls);
	free(e->buf);
	free(e);
}

void sdclsp_encoder_set_record_cb(struct sdclsp_encoder *e, sdclsp_record_fn fn, void *ctx)
{
	if (!e)
		return;
	e->rec_fn = fn;
	e->rec_ctx = ctx;
}

void sdclsp_encoder_set_stream_cb(struct sdclsp_encoder *e, sdclsp_stream_fn fn, void *ctx)
{
	if (!e)
		return;
	e->stream_fn = fn;
	e->stream_ctx = ctx;
}

const struct sdclsp_stats *sdclsp_encoder_stats(const struct sdclsp_encoder *e) { return e ? &e->st : NULL; }
const struct citcat_errinfo *sdclsp_encoder_error(const struct sdclsp_encoder *e) { return e ? &e->err : NULL; }

static void report(struct sdclsp_encoder *e, int lsp_hit, int sdc_hit, int sa_present, uint32_t si, uint32_t sa,
		   uint32_t sl, uint32_t run, uint64_t bits)
{
	struct sdclsp_record r = {(uint8_t)lsp_hit, (uint8_t)sdc_hit, (uint8_t)sa_present, si, sa, sl, run,
				  (uint32_t)bits};
	e->rec_fn(e->rec_ctx, &r);
}

/* Emits the pending LSP-hit run (e, r): '1' + (run - 1) in aolc_bits bits. */
static int flush_run(struct sdclsp_encoder *e)
{
	if (!e->run)
		return 0;
	uint64_t b0 = e->st.bits;
	int rc = put(e, 1, 1);
	if (rc == 0)
		rc = put(e, e->run - 1, e->m.aolc_bits);
	e->st.hlsp_bits += e->st.bits - b0;
	if (e->rec_fn)
		report(e, 1, 1, 0, e->run_si, e->run_sa, e->run_sl, e->run, e->st.bits - b0);
	sdc_aolc_update(&e->m, e->run);
	e->run = 0;
	return rc;
}

static unsigned nexs_groups(uint32_t d)
{
	unsigned g = 1;
	while (d >> (6 * g) && g < 5)
		g++;
	return g;
}

/* The SDC, LSP and record encoder for one stream descriptor. */
static int process_stream(struct sdclsp_encoder *e, uint32_t sa, uint32_t sl)
{
	struct sdc_model *m = &e->m;
	const struct sdclsp_config *c = &m->cfg;
	int rc = 0;
	int has_infer = e->s_has_infer, explicit_sa = e->s_explicit;
	e->st.streams++;
	int inferable = has_infer && e->infer == sa;
	if (!inferable)
		e->st.explicit_sa++;
	unsigned sab = 32 - e->sa_shift; /* SA field width */
	e->st.fbase_bits += sab + m->sl_bits;
	e->st.base_bits += m->sl_bits + (inferable ? 0 : sab);
	e->st.nexs_bits += m->sl_bits + (inferable ? 0 : 8 * nexs_groups((sa ^ e->nexs_prev) >> e->sa_shift));
	e->nexs_prev = sa;
	if (e->stream_fn)
		e->stream_fn(e->stream_ctx, sa, sl, inferable);

	int force = 0;
	unsigned lowbits = sab - c->u;
	if (c->variant == SDCLSP_R) {
		uint32_t up = sa >> (32 - c->u);
		force = up != m->lvsa;
		m->lvsa = up;
	}
	uint32_t set = sdc_set_of(m, sa, sl), si = 0;
	int i = sdc_lookup(m, set, sa, sl);
	if (i >= 0 && !force) {
		si = (uint32_t)i;
		e->st.sdc_hits++;
		sdc_touch(m, si);
	} else if (i >= 0) {
		sdc_touch(m, (uint32_t)i);
	} else {
		sdc_insert(m, set, sa, sl);
	}
	uint32_t p = sdc_lsp_index(m);
	if (si && m->lsp[p] == si) {
		e->st.lsp_hits++;
		if (c->variant == SDCLSP_B) {
			rc = put(e, 1, 1);
			e->st.hlsp_bits++;
			if (e->rec_fn)
				report(e, 1, 1, 0, si, sa, sl, 1, 1);
		} else {
			e->run_si = si;
			e->run_sa = sa;
			e->run_sl = sl;
			if (++e->run == 1u << m->aolc_bits)
				rc = flush_run(e);
		}
	} else {
		if ((rc = flush_run(e)) < 0)
			return rc;
		uint64_t b0 = e->st.bits;
		put(e, 0, 1);
		put(e, si, m->si_bits);
		if (si) {
			e->st.hsdc_bits += e->st.bits - b0;
		} else {
			if (has_infer && !(c->flags & SDCLSP_FLAG_SA_ALWAYS))
				put(e, (uint32_t)explicit_sa, 1);
			if (explicit_sa) {
				uint32_t up = sa >> (32 - c->u);
				if (c->variant == SDCLSP_B) {
					put(e, sa >> e->sa_shift, sab);
				} else if (c->variant == SDCLSP_E ? up == m->lvsa : !force) {
					put(e, 1, 1);
					put(e, (sa >> e->sa_shift) & ((1u << lowbits) - 1), lowbits);
				} else {
					put(e, 0, 1);
					put(e, sa >> e->sa_shift, sab);
					if (c->variant == SDCLSP_E)
						m->lvsa = up;
				}
			}
			rc = put(e, sl - 1, m->sl_bits);
			e->st.msdc_bits += e->st.bits - b0;
		}
		if (e->rec_fn)
			report(e, 0, si != 0, !si && explicit_sa, si, sa, sl, 0, e->st.bits - b0);
		m->lsp[p] = si;
	}
	sdc_hist_push(m, si);
	if (e->failed)
		return e->failed;
	return rc;
}

/* Ends the open stream after the pending instruction and records what the
 * decoder will infer for the next stream's SA. */
static int end_stream(struct sdclsp_encoder *e)
{
	switch (e->pkind) {
	case SDC_DIRECT_U:
	case SDC_DIRECT_C:
		e->infer_valid = 1;
		e->infer = e->ptarget;
		break;
	case SDC_PLAIN:
		e->infer_valid = 1;
		e->infer = e->ppc + e->psize;
		break;
	default:
		e->infer_valid = 0;
		break;
	}
	e->open = 0;
	e->have_pending = 0;
	return process_stream(e, e->sa, e->sl);
}

int sdclsp_encode_insn(struct sdclsp_encoder *e, uint64_t pc, uint32_t word)
{
	return sdclsp_encode_insn_isa(e, pc, word, 4, 0);
}

int sdclsp_encode_insn_isa(struct sdclsp_encoder *e, uint64_t pc, uint32_t word, unsigned size, int thumb)
{
	int rc = enc_usable(e);
	if (rc)
		return rc;
	if (thumb && !e->armv7)
		return enc_fail(e, CITCAT_ERR_UNSUPPORTED,
				"Thumb instruction at 0x%llx: this stream is A32 only (ISA 1; Thumb needs ISA 2)",
				(unsigned long long)pc);
	if (pc > 0xffffffffu || (pc & (thumb ? 1 : 3)) || (thumb ? size != 2 && size != 4 : size != 4))
		return enc_fail(e, CITCAT_ERR_INVAL, "instruction address 0x%llx (%u bytes, %s) is not a 32-bit ARM address",
				(unsigned long long)pc, size, thumb ? "Thumb" : "ARM");
	uint32_t a = (uint32_t)pc | (thumb ? 1u : 0u); /* the stream address */
	if (e->have_pending) {
		uint32_t cont = e->pkind == SDC_DIRECT_U ? e->ptarget : e->ppc + e->psize;
		if ((a != cont || e->sl == e->m.cfg.max_sl) && (rc = end_stream(e)) < 0)
			return rc;
	}
	const struct sdc_cls_entry *ce = sdc_classify_isa(&e->cls, a, word, size);
	if (!ce)
		return enc_fail(e, CITCAT_ERR_NOMEM, "out of memory");
	if (ce->kind == SDC_UNSUPPORTED)
		return enc_fail(e, CITCAT_ERR_UNSUPPORTED, "BLX to Thumb at 0x%08x: only ARM A32 is supported", a);
	if (!e->open) {
		e->open = 1;
		e->sa = a;
		e->sl = 0;
		e->s_has_infer = e->infer_valid;
		e->s_explicit = (e->m.cfg.flags & SDCLSP_FLAG_SA_ALWAYS) || !e->infer_valid || e->infer != a;
	}
	e->sl++;
	e->have_pending = 1;
	e->ppc = a;
	e->psize = (uint8_t)size;
	e->pkind = ce->kind;
	e->ptarget = ce->target;
	e->st.instructions++;
	return 0;
}

int sdclsp_encode_irq(struct sdclsp_encoder *e, uint64_t epc)
{
	int rc = enc_usable(e);
	if (rc)
		return rc;
	e->st.interrupts++;
	rc = 0;
	/* The interrupted stream ends at the last instruction executed.  The
	 * decoder cannot see the interrupt, so the handler's SA is compared with
	 * the decoder's usual inference from that instruction: it differs (and
	 * is sent) unless the handler happens to start exactly there. */
	if (e->open)
		rc = end_stream(e);
	return rc;
}

int sdclsp_encoder_finish(struct sdclsp_encoder *e)
{
	if (!e)
		return CITCAT_ERR_INVAL;
	if (e->failed)
		return e->failed;
	if (e->finished)
		return 0;
	e->finished = 1;
	int rc = 0;
	if (e->open)
		rc = end_stream(e);
	if (rc == 0)
		rc = flush_run(e);
	if (rc < 0)
		return rc;
	uint32_t nbits = (uint32_t)(e->pos * 8 + e->nacc);
	if (e->nacc)
		e->buf[e->pos++] = (uint8_t)(e->acc << (8 - e->nacc));
	if (nbits && (rc = emit_block(e, nbits)) < 0)
		return rc;
	e->pos = 0;
	e->nacc = 0;
	if ((rc = emit_block(e, 0)) < 0)
		return rc;
	uint8_t t[SDCLSP_TRAILER_LEN];
	const struct sdclsp_stats *s = &e->st;
	uint64_t v[8] = {s->instructions, s->streams, s->bits, s->sdc_hits, s->lsp_hits,
			 s->msdc_bits, s->hsdc_bits, s->hlsp_bits};
	for (int i = 0; i < 8; i++)
		cc_put64(t + 8 * i, v[i]);
	cc_put32(t + 64, XXH32(t, 64, 0));
	if (e->sink && (rc = e->sink(e->ctx, t, sizeof t)) < 0)
		return enc_fail(e, rc, "cannot write the stream");
	return 0;
}

