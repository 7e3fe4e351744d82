/* Address traces: opening and closing, buffered I/O (input through
 * common/input.h, which unwraps LZ4, zstd and xz; output through an optional
 * LZ4 or zstd frame), trailer and error handling, and the per-reference dispatch to the
 * format modules (a switch, not a chain of function pointers). */
#include "addr_int.h"
#include "input.h"
#include "outfile.h"
#include "tvp.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int set_err(struct citcat_errinfo *e, int code, uint64_t off, const char *fmt, va_list ap)
{
	e->code = code;
	e->offset = off;
	vsnprintf(e->msg, sizeof e->msg, fmt, ap);
	return code;
}

int addr_werr(struct citcat_addr_writer *w, int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	set_err(&w->err, code, UINT64_MAX, fmt, ap);
	va_end(ap);
	if (code != CITCAT_ERR_INVAL && code != CITCAT_ERR_LIMIT)
		w->failed = code; /* I/O state is unknown now: refuse further writes */
	return code;
}

int addr_rerr(struct citcat_addr_reader *r, int code, uint64_t off, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	set_err(&r->err, code, off, fmt, ap);
	va_end(ap);
	r->done = code;
	return code;
}

const char *citcat_addr_fmt_name(int fmt)
{
	switch (fmt) {
	case CITCAT_ADDR_DIN: return "din";
	case CITCAT_ADDR_XDIN: return "xdin";
	case CITCAT_ADDR_PDATS: return "pdats";
	case CITCAT_ADDR_PDATS2: return "pdats2";
	}
	return NULL;
}

int citcat_addr_fmt_parse(const char *name)
{
	for (int f = CITCAT_ADDR_DIN; f <= CITCAT_ADDR_PDATS2; f++)
		if (name && strcmp(name, citcat_addr_fmt_name(f)) == 0)
			return f;
	return 0;
}

static int is_hex(int c) { return (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'f'); }
static int is_blank(int c) { return c == ' ' || c == '\t' || c == '\r'; }

int citcat_addr_sniff(const uint8_t *h, size_t n)
{
	if (!h)
		return 0;
	if (n >= 4 && memcmp(h, PDATS_MAGIC, 4) == 0)
		return CITCAT_ADDR_PDATS;
	if (n >= 4 && memcmp(h, PDATS2_MAGIC, 4) == 0)
		return CITCAT_ADDR_PDATS2;
	if (cc_tvp_sniff_mode(h, n) == CC_TVP_TRACE) /* a TVP trace container: the format it holds */
		return n > 8 && h[8] >= CITCAT_ADDR_DIN && h[8] <= CITCAT_ADDR_PDATS2 ? h[8] : 0;
	size_t i = 0;
	while (i < n && (is_blank(h[i]) || h[i] == '\n'))
		i++;
	if (i + 2 >= n)
		return 0;
	int din = h[i] >= '0' && h[i] <= '4';
	int xdin = strchr("rwimcv", h[i]) != NULL && h[i];
	if (!(din || xdin) || !is_blank(h[i + 1]))
		return 0;
	i++;
	while (i < n && is_blank(h[i]))
		i++;
	if (i >= n || !is_hex(h[i]))
		return 0;
	return din ? CITCAT_ADDR_DIN : CITCAT_ADDR_XDIN;
}

/* ---- version 2's prediction tables ---- */

int addr_pred_init(struct addr_pred *p, int branches)
{
	p->size = malloc(ADDR_PRED_ENTRIES);
	if (branches) {
		p->run = malloc(ADDR_PRED_ENTRIES);
		p->target = malloc(ADDR_PRED_ENTRIES * sizeof *p->target);
		p->tvalid = malloc(ADDR_PRED_ENTRIES);
		p->taken = malloc(ADDR_PRED_ENTRIES);
	}
	return !p->size || (branches && (!p->run || !p->target || !p->tvalid || !p->taken)) ? CITCAT_ERR_NOMEM : 0;
}

void addr_pred_reset(struct addr_pred *p, unsigned shift, unsigned fixed, unsigned s1, int var)
{
	p->shift = shift;
	p->fixed = fixed;
	p->s1 = s1;
	p->s2 = 2 * s1;
	p->var = var;
	p->step = fixed;
	memset(p->size, 0, ADDR_PRED_ENTRIES);
	if (p->run) {
		memset(p->run, 0, ADDR_PRED_ENTRIES);
		memset(p->tvalid, 0, ADDR_PRED_ENTRIES);
		memset(p->taken, 0, ADDR_PRED_ENTRIES);
	}
}

void addr_pred_free(struct addr_pred *p)
{
	free(p->size);
	free(p->run);
	free(p->target);
	free(p->tvalid);
	free(p->taken);
	memset(p, 0, sizeof *p);
}

/* ---- writer ---- */

static int out_raw(struct citcat_addr_writer *w, const uint8_t *p, size_t n)
{
	int rc = cc_outfile_write(w->out, p, n);
	if (rc)
		return addr_werr(w, rc, "write failed: %s", rc == CITCAT_ERR_IO ? strerror(errno) : citcat_errstr(rc));
	return 0;
}

int addr_wflush(struct citcat_addr_writer *w)
{
	if (w->failed)
		return w->failed;
	if (!w->len)
		return 0;
	if (w->hashing)
		XXH32_update(&w->xh, w->buf, w->len);
	int rc = out_raw(w, w->buf, w->len);
	w->len = 0;
	return rc;
}

int addr_wflush_part(struct citcat_addr_writer *w, size_t upto)
{
	if (w->failed)
		return w->failed;
	if (w->hashing)
		XXH32_update(&w->xh, w->buf, upto);
	int rc = upto ? out_raw(w, w->buf, upto) : 0;
	memmove(w->buf, w->buf + upto, w->len - upto);
	w->len -= upto;
	return rc;
}

int citcat_addr_writer_open(struct citcat_addr_writer **out, const char *path, const struct citcat_addr_config *cfg)
{
	if (!out)
		return CITCAT_ERR_INVAL;
	*out = NULL;
	struct citcat_addr_writer *w = calloc(1, sizeof *w);
	if (!w)
		return CITCAT_ERR_NOMEM;
	*out = w;
	w->err.offset = UINT64_MAX;
	/* the caller's struct may be older or newer than ours (citcat/base.h) */
	struct citcat_addr_config cfgv;
	if (cc_config_from_user(&cfgv, sizeof cfgv, cfg, offsetof(struct citcat_addr_config, fmt) + sizeof cfgv.fmt) ||
	    !citcat_addr_fmt_name(cfgv.fmt))
		return addr_werr(w, CITCAT_ERR_INVAL, "bad writer configuration");
	cfg = &cfgv;
	w->fmt = cfg->fmt;
	w->bits = cfg->addr_bits ? cfg->addr_bits : 32;
	unsigned stride = cfg->istride ? cfg->istride : 4;
	if (w->bits != 32 && w->bits != 64)
		return addr_werr(w, CITCAT_ERR_INVAL, "address width must be 32 or 64 bits, not %u", w->bits);
	if (stride != 1 && stride != 2 && stride != 4 && stride != 8)
		return addr_werr(w, CITCAT_ERR_INVAL, "instruction stride must be 1, 2, 4 or 8, not %u", stride);
	w->ishift = stride == 1 ? 0 : stride == 2 ? 1 : stride == 4 ? 2 : 3;
	w->mask = w->bits == 64 ? UINT64_MAX : 0xffffffffu;
	if (w->fmt == CITCAT_ADDR_DIN || w->fmt == CITCAT_ADDR_XDIN)
		w->mask = UINT64_MAX; /* text carries any 64-bit address */
	w->lz4 = cfg->lz4;
	unsigned vmax = w->fmt == CITCAT_ADDR_PDATS2 ? PDATS2_VERSION : ADDR_VERSION;
	w->version = cfg->version ? cfg->version : vmax;
	if ((w->fmt == CITCAT_ADDR_PDATS || w->fmt == CITCAT_ADDR_PDATS2) &&
	    (w->version > vmax || (w->version == 1 && cfg->isizes)))
		return addr_werr(w, CITCAT_ERR_INVAL, "cannot write version %u%s", w->version,
				 w->version == 1 ? " with instructions of two sizes" : "");
	if (w->version >= 2 && (w->fmt == CITCAT_ADDR_PDATS || w->fmt == CITCAT_ADDR_PDATS2)) {
		int p2 = w->fmt == CITCAT_ADDR_PDATS2;
		if (addr_pred_init(&w->pred, p2))
			return addr_werr(w, CITCAT_ERR_NOMEM, "out of memory");
		if (p2)
			addr_pred_reset(&w->pred, w->ishift, stride, stride, cfg->isizes != 0);
		else
			addr_pred_reset(&w->pred, 1, 4, 2, cfg->isizes != 0);
	}
	w->zmru = 1; /* so that zone 0 is the less recently used one at the start */
	w->buf = malloc(ADDR_OUTBUF + ADDR_OUTSLACK);
	if (!w->buf)
		return addr_werr(w, CITCAT_ERR_NOMEM, "out of memory");
	w->to_mem = path == NULL;
	/* a TVP container: the model writes it (addr_tvp.c) into a plain file */
	int orc = cc_outfile_open(&w->out, path, w->lz4 == CC_OUT_TVP ? CC_OUT_PLAIN : w->lz4, &w->err);
	if (orc) {
		w->failed = orc;
		return orc;
	}
	if (w->lz4 == CC_OUT_TVP)
		return tvp_writer_open(w, stride, cfg->isizes != 0);
	if (w->fmt == CITCAT_ADDR_PDATS || w->fmt == CITCAT_ADDR_PDATS2) {
		XXH32_reset(&w->xh, 0);
		w->hashing = 1;
		memcpy(w->buf, w->fmt == CITCAT_ADDR_PDATS ? PDATS_MAGIC : PDATS2_MAGIC, 4);
		/* byte 6: PDATS II's stride, PDATS version 2's flags; byte 7:
		 * PDATS II version 2's and 3's flags (bit 0: instructions of two sizes) */
		uint8_t flags = w->version >= 2 && cfg->isizes ? 1 : 0;
		w->buf[4] = (uint8_t)w->version;
		w->buf[5] = (uint8_t)w->bits;
		w->buf[6] = w->fmt == CITCAT_ADDR_PDATS2 ? (uint8_t)stride : flags;
		w->buf[7] = w->fmt == CITCAT_ADDR_PDATS2 ? flags : 0;
		w->len = ADDR_HDR_LEN;
	}
	return 0;
}

int citcat_addr_put(struct citcat_addr_writer *w, const struct citcat_ref *ref)
{
	if (!w || !ref)
		return CITCAT_ERR_INVAL;
	if (w->failed)
		return w->failed;
	if (ref->type >= CITCAT_REF_NTYPES)
		return addr_werr(w, CITCAT_ERR_INVAL, "reference type %u does not exist", ref->type);
	if (ref->addr > w->mask)
		return addr_werr(w, CITCAT_ERR_LIMIT, "address 0x%llx does not fit a %u-bit file",
				 (unsigned long long)ref->addr, w->bits);
	if (w->tvp)
		return tvp_put(w, ref);
	switch (w->fmt) {
	case CITCAT_ADDR_PDATS2: return pdats2_put(w, ref);
	case CITCAT_ADDR_PDATS: return pdats_put(w, ref);
	default: return din_put(w, ref);
	}
}

int addr_write_trailer(struct citcat_addr_writer *w)
{
	if (addr_wflush(w))
		return w->err.code;
	w->hashing = 0;
	uint32_t h = XXH32_digest(&w->xh);
	cc_put64(w->buf, w->refs);
	cc_put32(w->buf + 8, h);
	w->len = ADDR_TRAILER_LEN;
	return addr_wflush(w);
}

static int writer_finish(struct citcat_addr_writer *w)
{
	if (w->failed)
		return w->failed;
	int rc = 0;
	if (w->tvp)
		rc = tvp_finish(w);
	else if (w->fmt == CITCAT_ADDR_PDATS)
		rc = pdats_finish(w);
	else if (w->fmt == CITCAT_ADDR_PDATS2)
		rc = pdats2_finish(w);
	if (!rc)
		rc = addr_wflush(w);
	return rc;
}

static void writer_free(struct citcat_addr_writer *w)
{
	cc_outfile_abort(w->out);
	addr_pred_free(&w->pred);
	tvp_model_free(w->tvp);
	free(w->buf);
	free(w->mem);
	free(w);
}

int citcat_addr_writer_finish(struct citcat_addr_writer *w)
{
	if (!w)
		return CITCAT_ERR_INVAL;
	if (w->finished)
		return w->finished < 0 ? w->finished : 0;
	int rc = writer_finish(w);
	struct cc_outfile *o = w->out;
	w->out = NULL;
	if (rc) {
		cc_outfile_abort(o);
	} else if (w->to_mem) {
		rc = cc_outfile_take(o, &w->mem, &w->memlen); /* kept until take */
	} else if ((rc = cc_outfile_commit(o, &w->err)) != 0) {
		w->failed = rc;
	}
	w->finished = rc ? rc : 1;
	if (rc)
		w->failed = rc;
	return rc;
}

int citcat_addr_writer_close(struct citcat_addr_writer *w)
{
	if (!w)
		return CITCAT_ERR_INVAL;
	int rc = w->to_mem ? CITCAT_ERR_INVAL : citcat_addr_writer_finish(w);
	if (w->to_mem || rc)
		citcat_addr_writer_abort(w);
	else
		writer_free(w);
	return rc;
}

int citcat_addr_writer_take(struct citcat_addr_writer *w, uint8_t **buf, size_t *len)
{
	if (!w || !buf || !len || !w->to_mem) {
		citcat_addr_writer_abort(w);
		return CITCAT_ERR_INVAL;
	}
	int rc = citcat_addr_writer_finish(w);
	if (!rc) {
		*buf = w->mem;
		*len = w->memlen;
		w->mem = NULL;
	}
	writer_free(w);
	return rc;
}

void citcat_addr_writer_abort(struct citcat_addr_writer *w)
{
	if (!w)
		return;
	writer_free(w);
}

const struct citcat_errinfo *citcat_addr_writer_error(const struct citcat_addr_writer *w) { return w ? &w->err : NULL; }
uint64_t citcat_addr_writer_payload_bytes(const struct citcat_addr_writer *w) { return w ? w->payload : 0; }
uint64_t citcat_addr_writer_refs(const struct citcat_addr_writer *w) { return w ? w->refs : 0; }

/* ---- reader ---- */

/* Reads stream bytes into DST (the input layer unwraps them); 0 at the end. */
static long stream_read(struct citcat_addr_reader *r, uint8_t *dst, size_t n)
{
	long k = cc_input_read(r->in, dst, n);
	if (k < 0) {
		r->err = *cc_input_error(r->in);
		r->done = (int)k;
	}
	return k;
}

long addr_record_bytes(struct citcat_addr_reader *r)
{
	long avail = r->end - r->pos;
	if (avail < ADDR_REC_MAX && (avail = addr_fill(r, ADDR_REC_MAX)) < 0)
		return avail;
	if (avail == 0)
		return addr_rerr(r, CITCAT_ERR_TRUNCATED, addr_roff(r), "records end without the end marker");
	return avail;
}

long addr_fill(struct citcat_addr_reader *r, size_t need)
{
	size_t avail = r->end - r->pos;
	if (avail >= need)
		return (long)avail;
	if (r->hashing && r->pos > r->hashed)
		XXH32_update(&r->xh, r->buf + r->hashed, r->pos - r->hashed);
	memmove(r->buf, r->buf + r->pos, avail);
	r->base += r->pos;
	r->pos = 0;
	r->hashed = 0;
	r->end = avail;
	while (r->end < need) {
		long k = stream_read(r, r->buf + r->end, ADDR_INBUF - r->end);
		if (k < 0)
			return k;
		if (k == 0)
			break;
		r->end += (size_t)k;
	}
	return (long)(r->end - r->pos);
}

void addr_hash_stop(struct citcat_addr_reader *r, size_t upto)
{
	if (r->hashing && upto > r->hashed)
		XXH32_update(&r->xh, r->buf + r->hashed, upto - r->hashed);
	r->hashed = upto;
	r->hashing = 0;
}

int addr_read_trailer(struct citcat_addr_reader *r)
{
	long n = addr_fill(r, ADDR_TRAILER_LEN + 1);
	if (n < 0)
		return (int)n;
	if (n < ADDR_TRAILER_LEN)
		return addr_rerr(r, CITCAT_ERR_TRUNCATED, addr_roff(r), "trailer cut short: %ld of %d bytes",
				 n, ADDR_TRAILER_LEN);
	const uint8_t *p = r->buf + r->pos;
	uint64_t count = cc_get64(p);
	uint32_t sum = cc_get32(p + 8);
	if (n > ADDR_TRAILER_LEN)
		return addr_rerr(r, CITCAT_ERR_CORRUPT, addr_roff(r) + ADDR_TRAILER_LEN, "data after the trailer");
	if (count != r->refs)
		return addr_rerr(r, CITCAT_ERR_CORRUPT, addr_roff(r),
				 "trailer counts %llu references but the records hold %llu",
				 (unsigned long long)count, (unsigned long long)r->refs);
	if (sum != XXH32_digest(&r->xh))
		return addr_rerr(r, CITCAT_ERR_CHECKSUM, addr_roff(r) + 8, "checksum mismatch");
	r->pos += ADDR_TRAILER_LEN;
	r->done = 1;
	return 0;
}

static int reader_start(struct citcat_addr_reader *r, int fmt, int orc)
{
	r->err.offset = UINT64_MAX;
	if (orc) {
		r->done = orc;
		return orc;
	}
	r->lz4 = cc_input_wrap(r->in);
	r->buf = malloc(ADDR_INBUF);
	if (!r->buf)
		return addr_rerr(r, CITCAT_ERR_NOMEM, UINT64_MAX, "out of memory");
	long n = addr_fill(r, 64);
	if (n < 0)
		return (int)n;
	if (n == 0)
		return addr_rerr(r, CITCAT_ERR_EMPTY, 0, "file is empty");
	int sniffed = citcat_addr_sniff(r->buf, (size_t)n);
	if (cc_tvp_sniff_mode(r->buf, (size_t)n) == CC_TVP_TRACE) { /* a TVP trace container (addr_tvp.c) */
		int rc = tvp_reader_open(r);
		if (!rc && fmt != CITCAT_ADDR_AUTO && fmt != r->fmt)
			rc = addr_rerr(r, CITCAT_ERR_MAGIC, 8, "a TVP container of a %s trace, not %s",
				       citcat_addr_fmt_name(r->fmt), citcat_addr_fmt_name(fmt));
		r->payload_start = addr_roff(r);
		return rc;
	}
	if (fmt == CITCAT_ADDR_AUTO)
		fmt = sniffed;
	if (!fmt)
		return addr_rerr(r, CITCAT_ERR_MAGIC, 0, "not a din, xdin, PDATS or PDATS II trace");
	r->fmt = fmt;
	r->mask = UINT64_MAX;
	r->bits = 64;
	if (fmt == CITCAT_ADDR_PDATS || fmt == CITCAT_ADDR_PDATS2) {
		const uint8_t *h = r->buf;
		if (n < ADDR_HDR_LEN)
			return addr_rerr(r, n >= 4 && sniffed == fmt ? CITCAT_ERR_TRUNCATED : CITCAT_ERR_MAGIC, 0,
					 "file header cut short");
		if (memcmp(h, fmt == CITCAT_ADDR_PDATS ? PDATS_MAGIC : PDATS2_MAGIC, 4) != 0)
			return addr_rerr(r, CITCAT_ERR_MAGIC, 0, "not a %s file (bad magic)",
					 fmt == CITCAT_ADDR_PDATS ? "PDATS" : "PDATS II");
		unsigned vmax = fmt == CITCAT_ADDR_PDATS2 ? PDATS2_VERSION : ADDR_VERSION;
		if (h[4] < 1 || h[4] > vmax)
			return addr_rerr(r, CITCAT_ERR_VERSION, 4, "unsupported version %u (this build reads 1 to %u)",
					 h[4], vmax);
		r->version = h[4];
		if (h[5] != 32 && h[5] != 64)
			return addr_rerr(r, CITCAT_ERR_CORRUPT, 5, "address width %u is neither 32 nor 64", h[5]);
		r->bits = h[5];
		r->mask = r->bits == 64 ? UINT64_MAX : 0xffffffffu;
		unsigned s = h[6], p2 = fmt == CITCAT_ADDR_PDATS2;
		/* the flags byte of versions 2 and 3 (bit 0: instructions of two
		 * sizes); reserved bytes and bits must be 0 */
		unsigned flags_at = p2 ? 7 : 6, flags = r->version >= 2 ? h[flags_at] : 0;
		if (p2) {
			if (s != 1 && s != 2 && s != 4 && s != 8)
				return addr_rerr(r, CITCAT_ERR_CORRUPT, 6, "instruction stride %u is not 1, 2, 4 or 8", s);
			r->ishift = s == 1 ? 0 : s == 2 ? 1 : s == 4 ? 2 : 3;
		}
		for (unsigned i = p2 ? 7 : 6; i < 8; i++) {
			unsigned allowed = i == flags_at && r->version >= 2 ? 1 : 0;
			if (h[i] & ~allowed)
				return addr_rerr(r, CITCAT_ERR_CORRUPT, i, "reserved header %s is %u, not 0",
						 allowed ? "bits" : "byte", h[i] & ~allowed);
		}
		if (r->version >= 2) {
			if (addr_pred_init(&r->pred, (int)p2))
				return addr_rerr(r, CITCAT_ERR_NOMEM, UINT64_MAX, "out of memory");
			if (p2)
				addr_pred_reset(&r->pred, r->ishift, s, s, flags & 1);
			else
				addr_pred_reset(&r->pred, 1, 4, 2, flags & 1);
		}
		XXH32_reset(&r->xh, 0);
		r->hashing = 1;
		r->pos = ADDR_HDR_LEN;
	}
	r->payload_start = addr_roff(r);
	return 0;
}

int citcat_addr_reader_open(struct citcat_addr_reader **out, const char *path, int fmt)
{
	if (!out)
		return CITCAT_ERR_INVAL;
	struct citcat_addr_reader *r = calloc(1, sizeof *r);
	*out = r;
	if (!r)
		return CITCAT_ERR_NOMEM;
	r->err.offset = UINT64_MAX;
	if (!path)
		return addr_rerr(r, CITCAT_ERR_INVAL, UINT64_MAX, "no path");
	return reader_start(r, fmt, cc_input_open(&r->in, path, &r->err));
}

int citcat_addr_reader_open_mem(struct citcat_addr_reader **out, const void *buf, size_t len, int fmt)
{
	if (!out)
		return CITCAT_ERR_INVAL;
	struct citcat_addr_reader *r = calloc(1, sizeof *r);
	*out = r;
	if (!r)
		return CITCAT_ERR_NOMEM;
	return reader_start(r, fmt, cc_input_open_mem(&r->in, buf, len, &r->err));
}

int citcat_addr_next(struct citcat_addr_reader *r, struct citcat_ref *ref)
{
	if (!r || !ref)
		return CITCAT_ERR_INVAL;
	if (r->rpos < r->rn) {
		*ref = r->rbuf[r->rpos++];
		r->refs++;
		return 1;
	}
	if (r->done)
		return r->done < 0 ? r->done : 0;
	if (r->tvp)
		return tvp_next(r, ref);
	switch (r->fmt) {
	case CITCAT_ADDR_PDATS2: return pdats2_next(r, ref);
	case CITCAT_ADDR_PDATS: return pdats_next(r, ref);
	default: return din_next(r, ref);
	}
}

int citcat_addr_reader_fmt(const struct citcat_addr_reader *r) { return r ? r->fmt : 0; }
int citcat_addr_reader_lz4(const struct citcat_addr_reader *r) { return r ? r->lz4 : 0; }
unsigned citcat_addr_reader_addr_bits(const struct citcat_addr_reader *r) { return r ? r->bits : 0; }
unsigned citcat_addr_reader_istride(const struct citcat_addr_reader *r) { return r ? 1u << r->ishift : 0; }
unsigned citcat_addr_reader_version(const struct citcat_addr_reader *r) { return r ? r->version : 0; }
int citcat_addr_reader_tvp(const struct citcat_addr_reader *r) { return r && r->tvp; }
uint64_t citcat_addr_reader_payload_bytes(const struct citcat_addr_reader *r)
{
	if (!r)
		return 0;
	return (r->payload_end ? r->payload_end : addr_roff(r)) - r->payload_start;
}
const struct citcat_errinfo *citcat_addr_reader_error(const struct citcat_addr_reader *r) { return r ? &r->err : NULL; }

void citcat_addr_reader_close(struct citcat_addr_reader *r)
{
	if (!r)
		return;
	cc_input_close(r->in);
	addr_pred_free(&r->pred);
	tvp_model_free(r->tvp);
	free(r->buf);
	free(r);
}
