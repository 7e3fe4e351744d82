/* TVP containers: see tvp.h and TVP.md. */
#include "tvp.h"
#include "bytes.h"

#include <lzma.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define XXH_STATIC_LINKING_ONLY
#include <xxhash.h>

#define TVP_END_LEN 16 /* u32 0, u64 total, u32 XXH32 */

const struct cc_tvp_group_opts cc_tvp_bytes_opts = {6, 23, 3, 0, 2, 0, 0};

static int set_err(struct citcat_errinfo *e, int code, uint64_t off, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int set_err(struct citcat_errinfo *e, int code, uint64_t off, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	if (e) {
		e->code = code;
		e->offset = off;
		vsnprintf(e->msg, sizeof e->msg, fmt, ap);
	}
	va_end(ap);
	return code;
}

/* Grows *BUF to at least N bytes. */
static int grow(uint8_t **buf, size_t *cap, size_t n)
{
	if (*cap >= n)
		return 0;
	size_t c = *cap ? *cap : 4096;
	while (c < n)
		c *= 2;
	uint8_t *b = realloc(*buf, c);
	if (!b)
		return CITCAT_ERR_NOMEM;
	*buf = b;
	*cap = c;
	return 0;
}

/* ---- writer ---- */

struct cc_tvp_writer {
	cc_tvp_sink sink;
	void *ctx;
	unsigned mode, ngroups;
	int started; /* header written, coders made (at the first block or the end) */
	struct cc_tvp_group_opts opts[CC_TVP_GROUPS];
	uint8_t desc[8];
	lzma_stream z[CC_TVP_GROUPS];
	int zinit[CC_TVP_GROUPS];
	uint8_t *pack[CC_TVP_GROUPS];
	size_t packcap[CC_TVP_GROUPS], packlen[CC_TVP_GROUPS];
	int failed;
	struct citcat_errinfo err;
};

static int wfail(struct cc_tvp_writer *w, int code, const char *what)
{
	w->failed = code;
	return set_err(&w->err, code, UINT64_MAX, "TVP: %s", what);
}

static int wsink(struct cc_tvp_writer *w, const void *p, size_t n)
{
	int rc = w->sink(w->ctx, p, n);
	if (rc) {
		w->failed = rc;
		set_err(&w->err, rc, UINT64_MAX, "TVP: write failed: %s", citcat_errstr(rc));
	}
	return rc;
}

int cc_tvp_writer_open(struct cc_tvp_writer **out, unsigned mode, const uint8_t desc[8], unsigned ngroups,
		       const struct cc_tvp_group_opts *opts, cc_tvp_sink sink, void *ctx, struct citcat_errinfo *err)
{
	*out = NULL;
	if (ngroups < 1 || ngroups > CC_TVP_GROUPS || mode > CC_TVP_TRACE)
		return set_err(err, CITCAT_ERR_INVAL, UINT64_MAX, "TVP: bad writer configuration");
	for (unsigned g = 0; g < ngroups; g++) {
		lzma_options_lzma lo;
		if (opts[g].dict_log < 12 || opts[g].dict_log > 26 || lzma_lzma_preset(&lo, opts[g].preset))
			return set_err(err, CITCAT_ERR_INVAL, UINT64_MAX, "TVP: bad group options");
	}
	struct cc_tvp_writer *w = calloc(1, sizeof *w);
	if (!w)
		return set_err(err, CITCAT_ERR_NOMEM, UINT64_MAX, "out of memory");
	w->sink = sink;
	w->ctx = ctx;
	w->mode = mode;
	w->ngroups = ngroups;
	memcpy(w->opts, opts, ngroups * sizeof *opts);
	if (desc)
		memcpy(w->desc, desc, 8);
	*out = w;
	return 0;
}

/* Writes the header and makes the coders.  LAST_RAW (the raw bytes of each
 * group when the first block is also the last, else NULL): a dictionary
 * larger than all the data would only cost memory and time, so it shrinks
 * to the data (at least 4 KiB). */
static int start(struct cc_tvp_writer *w, const size_t *last_raw)
{
	uint8_t h[CC_TVP_HDR_LEN] = {0};
	memcpy(h, CC_TVP_MAGIC, 4);
	h[4] = CC_TVP_VERSION;
	h[5] = (uint8_t)w->mode;
	for (unsigned g = 0; g < w->ngroups; g++) {
		const struct cc_tvp_group_opts *o = &w->opts[g];
		unsigned dl = o->dict_log;
		while (last_raw && dl > 12 && ((size_t)1 << (dl - 1)) >= last_raw[g])
			dl--;
		lzma_options_lzma lo;
		lzma_lzma_preset(&lo, o->preset);
		lo.dict_size = 1u << dl;
		lo.lc = o->lc;
		lo.lp = o->lp;
		lo.pb = o->pb;
		if (o->nice_len)
			lo.nice_len = o->nice_len;
		if (o->fast) {
			lo.mode = LZMA_MODE_FAST;
			lo.mf = LZMA_MF_HC4;
		}
		lzma_filter f[2] = {{LZMA_FILTER_LZMA2, &lo}, {LZMA_VLI_UNKNOWN, NULL}};
		lzma_stream init = LZMA_STREAM_INIT;
		w->z[g] = init;
		lzma_ret ret = lzma_raw_encoder(&w->z[g], f);
		if (ret != LZMA_OK)
			return wfail(w, ret == LZMA_MEM_ERROR ? CITCAT_ERR_NOMEM : CITCAT_ERR_INTERNAL,
				     "cannot start an LZMA2 encoder");
		w->zinit[g] = 1;
		h[6 + g] = (uint8_t)dl;
	}
	memcpy(h + 8, w->desc, 8);
	cc_put32(h + 16, XXH32(h, 16, 0));
	w->started = 1;
	return wsink(w, h, sizeof h);
}

/* Packs RAW into group G's buffer (appending); FLUSH ends the chunk. */
static int pack(struct cc_tvp_writer *w, unsigned g, const uint8_t *raw, size_t n, int flush)
{
	lzma_stream *z = &w->z[g];
	z->next_in = raw;
	z->avail_in = n;
	for (;;) {
		if (grow(&w->pack[g], &w->packcap[g], w->packlen[g] + 65536))
			return wfail(w, CITCAT_ERR_NOMEM, "out of memory");
		z->next_out = w->pack[g] + w->packlen[g];
		z->avail_out = w->packcap[g] - w->packlen[g];
		lzma_ret ret = lzma_code(z, flush ? LZMA_SYNC_FLUSH : LZMA_RUN);
		w->packlen[g] = w->packcap[g] - z->avail_out;
		if (ret == LZMA_STREAM_END || (!flush && ret == LZMA_OK && z->avail_in == 0))
			return 0;
		if (ret != LZMA_OK)
			return wfail(w, ret == LZMA_MEM_ERROR ? CITCAT_ERR_NOMEM : CITCAT_ERR_INTERNAL, "LZMA2 encoder failed");
	}
}

int cc_tvp_write_block(struct cc_tvp_writer *w, uint64_t count, unsigned ns, const uint8_t *const *raw,
		       const size_t *len, const unsigned *group, int last)
{
	if (w->failed)
		return w->failed;
	if (!count || count > UINT32_MAX || ns > CC_TVP_STREAMS)
		return wfail(w, CITCAT_ERR_INVAL, "bad block");
	uint8_t h[4 + 4 * CC_TVP_STREAMS + 4 * CC_TVP_GROUPS + 4];
	size_t k = 0;
	cc_put32(h, (uint32_t)count);
	k += 4;
	XXH32_state_t xs;
	XXH32_reset(&xs, 0);
	size_t graw[CC_TVP_GROUPS] = {0};
	for (unsigned s = 0; s < ns; s++) {
		if (len[s] > CC_TVP_BLOCK_MAX || group[s] >= w->ngroups)
			return wfail(w, CITCAT_ERR_INVAL, "bad block stream");
		cc_put32(h + k, (uint32_t)len[s]);
		k += 4;
		graw[group[s]] += len[s];
	}
	if (!w->started && start(w, last ? graw : NULL))
		return w->failed;
	for (unsigned g = 0; g < w->ngroups; g++) {
		w->packlen[g] = 0;
		if (!graw[g])
			continue;
		for (unsigned s = 0; s < ns; s++)
			if (group[s] == g && len[s] && pack(w, g, raw[s], len[s], 0))
				return w->failed;
		if (pack(w, g, NULL, 0, 1))
			return w->failed;
	}
	for (unsigned g = 0; g < w->ngroups; g++) {
		cc_put32(h + k, (uint32_t)w->packlen[g]);
		k += 4;
	}
	XXH32_update(&xs, h, k);
	for (unsigned g = 0; g < w->ngroups; g++)
		XXH32_update(&xs, w->pack[g], w->packlen[g]);
	for (unsigned g = 0; g < w->ngroups; g++)
		for (unsigned s = 0; s < ns; s++)
			if (group[s] == g && len[s])
				XXH32_update(&xs, raw[s], len[s]);
	cc_put32(h + k, XXH32_digest(&xs));
	k += 4;
	if (wsink(w, h, k))
		return w->failed;
	for (unsigned g = 0; g < w->ngroups; g++)
		if (w->packlen[g] && wsink(w, w->pack[g], w->packlen[g]))
			return w->failed;
	return 0;
}

int cc_tvp_write_end(struct cc_tvp_writer *w, uint64_t total)
{
	static const size_t none[CC_TVP_GROUPS];
	if (w->failed)
		return w->failed;
	if (!w->started && start(w, none))
		return w->failed;
	uint8_t e[TVP_END_LEN];
	cc_put32(e, 0);
	cc_put64(e + 4, total);
	cc_put32(e + 12, XXH32(e, 12, 0));
	return wsink(w, e, sizeof e);
}

const struct citcat_errinfo *cc_tvp_writer_error(const struct cc_tvp_writer *w) { return &w->err; }

void cc_tvp_writer_free(struct cc_tvp_writer *w)
{
	if (!w)
		return;
	for (unsigned g = 0; g < CC_TVP_GROUPS; g++) {
		if (w->zinit[g])
			lzma_end(&w->z[g]);
		free(w->pack[g]);
	}
	free(w);
}

/* ---- reader ---- */

struct cc_tvp_reader {
	cc_tvp_source src;
	void *ctx;
	struct cc_tvp_header h;
	unsigned ngroups;
	lzma_stream z[CC_TVP_GROUPS];
	int zinit[CC_TVP_GROUPS];
	uint8_t *raw[CC_TVP_GROUPS];
	size_t rawcap[CC_TVP_GROUPS];
	uint8_t *pack;
	size_t packcap;
	uint64_t off; /* container offset of the next byte */
	int failed, done;
	struct citcat_errinfo err;
};

static int rfail(struct cc_tvp_reader *r, int code, uint64_t off, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int rfail(struct cc_tvp_reader *r, int code, uint64_t off, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	r->err.code = code;
	r->err.offset = off;
	int n = snprintf(r->err.msg, sizeof r->err.msg, "TVP: ");
	vsnprintf(r->err.msg + n, sizeof r->err.msg - (size_t)n, fmt, ap);
	va_end(ap);
	r->failed = code;
	return code;
}

/* Exactly N bytes from the source, else TRUNCATED (WHAT names them). */
static int rget(struct cc_tvp_reader *r, uint8_t *buf, size_t n, uint64_t at, const char *what)
{
	size_t got = 0;
	while (got < n) {
		long k = r->src(r->ctx, buf + got, n - got);
		if (k < 0) {
			r->failed = (int)k;
			r->err.code = (int)k;
			return (int)k; /* the source's detail is the caller's */
		}
		if (k == 0)
			return rfail(r, CITCAT_ERR_TRUNCATED, at, "the file ends inside %s", what);
		got += (size_t)k;
	}
	r->off += n;
	return 0;
}

int cc_tvp_parse_header(const uint8_t *p, struct cc_tvp_header *h, struct citcat_errinfo *err)
{
	memset(h, 0, sizeof *h);
	if (p[4] != CC_TVP_VERSION)
		return set_err(err, CITCAT_ERR_VERSION, 4, "TVP: unsupported version %u (this build reads %u)", p[4],
			       CC_TVP_VERSION);
	if (XXH32(p, 16, 0) != cc_get32(p + 16))
		return set_err(err, CITCAT_ERR_CHECKSUM, 16, "TVP: header checksum mismatch");
	if (p[5] > CC_TVP_TRACE)
		return set_err(err, CITCAT_ERR_CORRUPT, 5, "TVP: mode %u is not 0 or 1", p[5]);
	h->mode = p[5];
	unsigned ng = h->mode == CC_TVP_BYTES ? 1 : 2;
	for (unsigned g = 0; g < CC_TVP_GROUPS; g++) {
		unsigned d = p[6 + g];
		if (g >= ng ? d != 0 : (d < 12 || d > 30))
			return set_err(err, CITCAT_ERR_CORRUPT, 6 + g, "TVP: bad dictionary size 2^%u", d);
		if (d && (1ull << d) > CC_TVP_DICT_MAX)
			return set_err(err, CITCAT_ERR_LIMIT, 6 + g, "TVP: dictionary of %llu MiB, above the %u MiB this build allows",
				       (1ull << d) >> 20, CC_TVP_DICT_MAX >> 20);
		h->dict_log[g] = d;
	}
	memcpy(h->desc, p + 8, 8);
	if (h->mode == CC_TVP_BYTES)
		for (unsigned i = 0; i < 8; i++)
			if (h->desc[i])
				return set_err(err, CITCAT_ERR_CORRUPT, 8 + i, "TVP: reserved header byte is %u, not 0", h->desc[i]);
	return 0;
}

int cc_tvp_reader_open(struct cc_tvp_reader **out, const struct cc_tvp_header *h, cc_tvp_source src, void *ctx,
		       struct citcat_errinfo *err)
{
	*out = NULL;
	struct cc_tvp_reader *r = calloc(1, sizeof *r);
	if (!r)
		return set_err(err, CITCAT_ERR_NOMEM, UINT64_MAX, "out of memory");
	r->src = src;
	r->ctx = ctx;
	r->h = *h;
	r->ngroups = h->mode == CC_TVP_BYTES ? 1 : 2;
	r->off = CC_TVP_HDR_LEN;
	r->err.offset = UINT64_MAX;
	for (unsigned g = 0; g < r->ngroups; g++) {
		lzma_options_lzma lo;
		lzma_lzma_preset(&lo, 0);
		lo.dict_size = 1u << h->dict_log[g];
		lzma_filter f[2] = {{LZMA_FILTER_LZMA2, &lo}, {LZMA_VLI_UNKNOWN, NULL}};
		lzma_stream init = LZMA_STREAM_INIT;
		r->z[g] = init;
		if (lzma_raw_decoder(&r->z[g], f) != LZMA_OK) {
			cc_tvp_reader_free(r);
			return set_err(err, CITCAT_ERR_NOMEM, UINT64_MAX, "TVP: cannot start an LZMA2 decoder");
		}
		r->zinit[g] = 1;
	}
	*out = r;
	return 0;
}

int cc_tvp_read_block(struct cc_tvp_reader *r, unsigned ns, const unsigned *group, uint64_t *count,
		      const uint8_t **raw, size_t *len)
{
	if (r->failed)
		return r->failed;
	if (r->done)
		return 0;
	uint64_t at = r->off;
	uint8_t h[4 + 4 * CC_TVP_STREAMS + 4 * CC_TVP_GROUPS + 4];
	if (rget(r, h, 4, at, "a block header (no end block)"))
		return r->failed;
	uint32_t n = cc_get32(h);
	if (n == 0) {
		if (rget(r, h + 4, TVP_END_LEN - 4, at, "the end block"))
			return r->failed;
		if (XXH32(h, 12, 0) != cc_get32(h + 12))
			return rfail(r, CITCAT_ERR_CHECKSUM, at + 12, "end block checksum mismatch");
		uint8_t extra;
		long k = r->src(r->ctx, &extra, 1);
		if (k < 0) {
			r->failed = (int)k;
			return (int)k;
		}
		if (k > 0)
			return rfail(r, CITCAT_ERR_CORRUPT, r->off, "data after the end block");
		*count = cc_get64(h + 4);
		r->done = 1;
		return 0;
	}
	size_t hl = 4 + 4 * (size_t)ns + 4 * r->ngroups + 4;
	if (rget(r, h + 4, hl - 4, at, "a block header"))
		return r->failed;
	size_t graw[CC_TVP_GROUPS] = {0}, gpack[CC_TVP_GROUPS];
	for (unsigned s = 0; s < ns; s++) {
		len[s] = cc_get32(h + 4 + 4 * s);
		if (len[s] > CC_TVP_BLOCK_MAX)
			return rfail(r, CITCAT_ERR_CORRUPT, at + 4 + 4 * s, "stream of %zu bytes in a block (at most %u)", len[s],
				     CC_TVP_BLOCK_MAX);
		graw[group[s]] += len[s];
	}
	for (unsigned g = 0; g < r->ngroups; g++) {
		gpack[g] = cc_get32(h + 4 + 4 * ns + 4 * g);
		/* LZMA2 never grows data by more than a few bytes per 64 KiB */
		if (gpack[g] > graw[g] + graw[g] / 16 + 64 || (!graw[g] && gpack[g]) || (graw[g] && !gpack[g]))
			return rfail(r, CITCAT_ERR_CORRUPT, at + 4 + 4 * ns + 4 * g, "packed length %zu for %zu bytes",
				     gpack[g], graw[g]);
	}
	uint32_t sum = cc_get32(h + hl - 4);
	XXH32_state_t xs;
	XXH32_reset(&xs, 0);
	XXH32_update(&xs, h, hl - 4);
	for (unsigned g = 0; g < r->ngroups; g++) {
		if (!graw[g])
			continue;
		uint64_t gat = r->off;
		if (grow(&r->pack, &r->packcap, gpack[g]) || grow(&r->raw[g], &r->rawcap[g], graw[g]))
			return rfail(r, CITCAT_ERR_NOMEM, UINT64_MAX, "out of memory");
		if (rget(r, r->pack, gpack[g], gat, "packed streams"))
			return r->failed;
		XXH32_update(&xs, r->pack, gpack[g]);
		lzma_stream *z = &r->z[g];
		z->next_in = r->pack;
		z->avail_in = gpack[g];
		z->next_out = r->raw[g];
		z->avail_out = graw[g];
		lzma_ret ret = lzma_code(z, LZMA_RUN);
		if (ret == LZMA_MEM_ERROR)
			return rfail(r, CITCAT_ERR_NOMEM, UINT64_MAX, "out of memory for the LZMA2 decoder");
		if (ret != LZMA_OK || z->avail_out || z->avail_in)
			return rfail(r, CITCAT_ERR_CORRUPT, gat, "LZMA2 data of group %u is corrupt (%zu of %zu bytes decoded)", g,
				     graw[g] - z->avail_out, graw[g]);
	}
	for (unsigned g = 0; g < r->ngroups; g++)
		if (graw[g])
			XXH32_update(&xs, r->raw[g], graw[g]);
	if (XXH32_digest(&xs) != sum)
		return rfail(r, CITCAT_ERR_CHECKSUM, at + hl - 4, "block checksum mismatch");
	size_t pos[CC_TVP_GROUPS] = {0};
	for (unsigned s = 0; s < ns; s++) {
		unsigned g = group[s];
		raw[s] = r->raw[g] ? r->raw[g] + pos[g] : (const uint8_t *)"";
		pos[g] += len[s];
	}
	*count = n;
	return 1;
}

uint64_t cc_tvp_reader_offset(const struct cc_tvp_reader *r) { return r->off; }
const struct citcat_errinfo *cc_tvp_reader_error(const struct cc_tvp_reader *r) { return &r->err; }

void cc_tvp_reader_free(struct cc_tvp_reader *r)
{
	if (!r)
		return;
	for (unsigned g = 0; g < CC_TVP_GROUPS; g++) {
		if (r->zinit[g])
			lzma_end(&r->z[g]);
		free(r->raw[g]);
	}
	free(r->pack);
	free(r);
}

/* ---- mode 0: a file's bytes ---- */

struct cc_tvp_bytes {
	struct cc_tvp_writer *w;
	struct cc_tvp_reader *r;
	uint8_t *buf; /* writer: the block being filled */
	size_t len;
	const uint8_t *raw; /* reader: the block being read */
	size_t pos, rlen;
	uint64_t total;
	int failed;
	struct citcat_errinfo err;
};

static const unsigned bytes_group[1] = {0};

int cc_tvp_sniff_mode(const uint8_t *h, size_t n)
{
	return n >= 6 && memcmp(h, CC_TVP_MAGIC, 4) == 0 ? h[5] : -1;
}

int cc_tvp_bytes_writer_open(struct cc_tvp_bytes **out, cc_tvp_sink sink, void *ctx, struct citcat_errinfo *err)
{
	*out = NULL;
	struct cc_tvp_bytes *b = calloc(1, sizeof *b);
	if (!b || !(b->buf = malloc(CC_TVP_BLOCK_MAX))) {
		free(b);
		return set_err(err, CITCAT_ERR_NOMEM, UINT64_MAX, "out of memory");
	}
	int rc = cc_tvp_writer_open(&b->w, CC_TVP_BYTES, NULL, 1, &cc_tvp_bytes_opts, sink, ctx, err);
	if (rc) {
		cc_tvp_bytes_free(b);
		return rc;
	}
	*out = b;
	return 0;
}

static int bytes_block(struct cc_tvp_bytes *b, int last)
{
	if (!b->len)
		return 0;
	const uint8_t *raw = b->buf;
	int rc = cc_tvp_write_block(b->w, b->len, 1, &raw, &b->len, bytes_group, last);
	b->total += b->len;
	b->len = 0;
	return rc;
}

int cc_tvp_bytes_write(struct cc_tvp_bytes *b, const void *buf, size_t len)
{
	const uint8_t *p = buf;
	while (len) {
		size_t k = CC_TVP_BLOCK_MAX - b->len < len ? CC_TVP_BLOCK_MAX - b->len : len;
		memcpy(b->buf + b->len, p, k);
		b->len += k;
		p += k;
		len -= k;
		if (b->len == CC_TVP_BLOCK_MAX) {
			int rc = bytes_block(b, 0);
			if (rc)
				return rc;
		}
	}
	return 0;
}

int cc_tvp_bytes_finish(struct cc_tvp_bytes *b)
{
	int rc = bytes_block(b, 1);
	return rc ? rc : cc_tvp_write_end(b->w, b->total);
}

int cc_tvp_bytes_reader_open(struct cc_tvp_bytes **out, cc_tvp_source src, void *ctx, struct citcat_errinfo *err)
{
	*out = NULL;
	struct cc_tvp_bytes *b = calloc(1, sizeof *b);
	if (!b)
		return set_err(err, CITCAT_ERR_NOMEM, UINT64_MAX, "out of memory");
	uint8_t h[CC_TVP_HDR_LEN];
	size_t got = 0;
	while (got < sizeof h) {
		long k = src(ctx, h + got, sizeof h - got);
		if (k < 0) {
			free(b);
			return (int)k;
		}
		if (k == 0) {
			free(b);
			return set_err(err, CITCAT_ERR_TRUNCATED, got, "TVP: header cut short");
		}
		got += (size_t)k;
	}
	struct cc_tvp_header th;
	int rc = cc_tvp_parse_header(h, &th, err);
	if (!rc && th.mode != CC_TVP_BYTES)
		rc = set_err(err, CITCAT_ERR_CORRUPT, 5, "TVP: not a byte container");
	if (!rc)
		rc = cc_tvp_reader_open(&b->r, &th, src, ctx, err);
	if (rc) {
		cc_tvp_bytes_free(b);
		return rc;
	}
	*out = b;
	return 0;
}

long cc_tvp_bytes_read(struct cc_tvp_bytes *b, uint8_t *dst, size_t cap)
{
	if (b->failed)
		return b->failed;
	while (b->pos == b->rlen) {
		uint64_t n;
		size_t len;
		int rc = cc_tvp_read_block(b->r, 1, bytes_group, &n, &b->raw, &len);
		if (rc < 0) {
			b->err = *cc_tvp_reader_error(b->r);
			return b->failed = rc;
		}
		if (rc == 0) {
			if (n != b->total) {
				set_err(&b->err, CITCAT_ERR_CORRUPT, cc_tvp_reader_offset(b->r) - 12,
					"TVP: the end block counts %llu bytes, the blocks hold %llu", (unsigned long long)n,
					(unsigned long long)b->total);
				return b->failed = CITCAT_ERR_CORRUPT;
			}
			return 0;
		}
		if (n != len) {
			set_err(&b->err, CITCAT_ERR_CORRUPT, UINT64_MAX, "TVP: a block counts %llu bytes and holds %zu",
				(unsigned long long)n, len);
			return b->failed = CITCAT_ERR_CORRUPT;
		}
		b->pos = 0;
		b->rlen = len;
		b->total += len;
	}
	size_t k = b->rlen - b->pos < cap ? b->rlen - b->pos : cap;
	memcpy(dst, b->raw + b->pos, k);
	b->pos += k;
	return (long)k;
}

const struct citcat_errinfo *cc_tvp_bytes_error(const struct cc_tvp_bytes *b) { return &b->err; }

void cc_tvp_bytes_free(struct cc_tvp_bytes *b)
{
	if (!b)
		return;
	cc_tvp_writer_free(b->w);
	cc_tvp_reader_free(b->r);
	free(b->buf);
	free(b);
}
