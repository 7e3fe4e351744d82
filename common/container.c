/* Chunked container: see CONTAINER.md. */

#include "container.h"
#include "bytes.h"
#include "input.h"
#include "outfile.h"

#include <errno.h>
#include <lz4.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#define XXH_STATIC_LINKING_ONLY
#include <xxhash.h>

#define HDR_FIXED 16
#define CHUNK_HDR 24
#define END_LEN 24


struct cc_reader {
	struct cc_input *in; /* the file or buffer, any outer wrapper peeled off */
	char magic[CC_MAGIC_LEN + 1];
	uint16_t version;
	uint8_t *meta;
	uint32_t meta_len;
	uint8_t *raw, *stored;
	size_t rawcap, storedcap;
	uint64_t pos;          /* file offset of the next unread byte */
	uint64_t chunk_off;    /* file offset of the current chunk's payload */
	uint64_t file_size;
	uint64_t total_rec, total_raw;
	int done;
	int in_failed; /* the input layer failed: its error stands */
	struct citcat_errinfo err;
	uint8_t hdr[CHUNK_HDR]; /* the current chunk's header */
	uint32_t allowed;       /* cflags bits allowed: CC_CHUNK_LZ4, and CC_CHUNK_MARK when the kind says */
	uint64_t skip_marks;    /* cc_reader_skip_to_mark: marked chunks still to reach */
};

#define werr(w, code, ...) citcat_errinfo_set(&(w)->err, code, UINT64_MAX, __VA_ARGS__)
/* A failed read of the input layer (a corrupt or truncated compressed
 * wrapper, an I/O error) keeps its own error rather than the reader's
 * "file ends inside ..." that follows it. */
#define rerr(r, ecode, off, ...) \
	((r)->in_failed ? (r)->err.code : citcat_errinfo_set(&(r)->err, ecode, off, __VA_ARGS__))

static void bg_start(struct cc_writer *w);
static int bg_wait(struct cc_writer *w);

static int wwrite(struct cc_writer *w, const void *p, size_t n)
{
	if (cc_outfile_write(w->out, p, n)) {
		struct citcat_errinfo oe = {0}; /* "PATH: writing failed: REASON" */
		int rc = cc_outfile_errinfo(w->out, &oe);
		return werr(w, rc ? rc : CITCAT_ERR_IO, "%s", oe.msg[0] ? oe.msg : "write failed");
	}
	w->bytes += n;
	return 0;
}

/* The detail of this thread's last cc_writer_open or cc_writer_close
 * failure. */
static __thread struct citcat_errinfo open_err;
const struct citcat_errinfo *cc_writer_open_error(void) { return &open_err; }
void cc_writer_keep_error(const struct citcat_errinfo *e)
{
	if (e && e->code)
		open_err = *e;
}

int cc_writer_open(struct cc_writer **out, const char *path, const char magic[CC_MAGIC_LEN],
		   uint16_t version, const void *meta, uint32_t meta_len, size_t chunk_size)
{
	citcat_errinfo_set(&open_err, CITCAT_ERR_INVAL, UINT64_MAX, "bad arguments");
	*out = NULL;
	if (!path || !magic || meta_len > CC_META_MAX || (meta_len && !meta) || chunk_size > CC_CHUNK_MAX)
		return CITCAT_ERR_INVAL;
	struct cc_writer *w = calloc(1, sizeof *w);
	if (!w)
		return CITCAT_ERR_NOMEM;
	w->cap = chunk_size ? chunk_size : CC_DEFAULT_CHUNK;
	w->buf = malloc(w->cap);
	w->zcap = (size_t)LZ4_compressBound((int)w->cap);
	w->zbuf = malloc(w->zcap);
	if (!w->buf || !w->zbuf)
		goto nomem;
	/* RUN.cat.zst / RUN.cat.lz4: the whole file in an outer frame, which
	 * the input layer peels off again */
	int wrap = cc_wrap_by_suffix(path, NULL);
	int orc = cc_outfile_open(&w->out, path, wrap == CC_WRAP_XZ ? CC_OUT_PLAIN : wrap, &open_err);
	if (orc) {
		int e = errno;
		cc_writer_abort(w);
		errno = e;
		return orc;
	}
	uint8_t hdr[HDR_FIXED];
	memcpy(hdr, magic, CC_MAGIC_LEN);
	cc_put16(hdr + 8, version);
	cc_put16(hdr + 10, 0);
	cc_put32(hdr + 12, meta_len);
	XXH32_state_t *st = XXH32_createState();
	if (!st)
		goto nomem;
	XXH32_reset(st, 0);
	XXH32_update(st, hdr, sizeof hdr);
	if (meta_len)
		XXH32_update(st, meta, meta_len);
	uint8_t ck[4];
	cc_put32(ck, XXH32_digest(st));
	XXH32_freeState(st);
	if (wwrite(w, hdr, sizeof hdr) || wwrite(w, meta, meta_len) || wwrite(w, ck, 4)) {
		int e = w->err.code;
		cc_writer_abort(w);
		return e;
	}
	if (cc_writer_threads)
		bg_start(w);
	*out = w;
	return 0;
nomem:
	cc_writer_abort(w);
	return CITCAT_ERR_NOMEM;
}

/* Compresses, checksums and writes one chunk of LEN raw bytes at RAW
 * holding NREC records (CONTAINER.md).  Runs on the caller's thread or on
 * the writer's compression thread; it touches only ZBUF, OUT, BYTES and the
 * error ERR it is given. */
static int write_chunk(struct cc_writer *w, const uint8_t *raw, size_t len, uint32_t nrec, uint32_t mark,
		       struct citcat_errinfo *err)
{
	int z = LZ4_compress_default((const char *)raw, (char *)w->zbuf, (int)len, (int)w->zcap);
	const uint8_t *payload = raw;
	uint32_t stored = (uint32_t)len, cflags = mark;
	if (z > 0 && (size_t)z < len) {
		payload = w->zbuf;
		stored = (uint32_t)z;
		cflags |= CC_CHUNK_LZ4;
	}
	uint8_t h[CHUNK_HDR];
	memcpy(h, "BLK", 4);
	cc_put32(h + 4, (uint32_t)len);
	cc_put32(h + 8, stored);
	cc_put32(h + 12, nrec);
	cc_put32(h + 16, cflags);
	XXH32_state_t st;
	XXH32_reset(&st, 0);
	XXH32_update(&st, h, 20);
	XXH32_update(&st, payload, stored);
	cc_put32(h + 20, XXH32_digest(&st));
	if (cc_outfile_write(w->out, h, sizeof h) || cc_outfile_write(w->out, payload, stored)) {
		struct citcat_errinfo oe = {0};
		int rc = cc_outfile_errinfo(w->out, &oe);
		return citcat_errinfo_set(err, rc ? rc : CITCAT_ERR_IO, UINT64_MAX, "%s", oe.msg[0] ? oe.msg : "write failed");
	}
	w->bytes += sizeof h + stored;
	return 0;
}

/* ---- the compression thread ----
 * A bounded queue of one chunk: while the thread compresses and writes the
 * chunk it was handed (PEND), the encoder fills the other buffer.  Handing
 * over the next chunk waits for the previous one, so at most two chunks
 * are in memory.  The bytes written are exactly those of the inline path;
 * an error of the thread is reported at the next hand-over, flush or
 * close (with its errno), and the file is then removed as usual. */
int cc_writer_threads = 1;

struct cc_writer_bg {
	pthread_t th;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	uint8_t *spare;      /* the buffer the encoder fills next */
	const uint8_t *pend; /* the chunk being written, when PENDING */
	size_t pend_len;
	uint32_t pend_nrec, pend_mark;
	int pending, quit;
	struct citcat_errinfo err; /* the thread's first error */
	int err_errno;
};

static void *bg_main(void *arg)
{
	struct cc_writer *w = arg;
	struct cc_writer_bg *bg = w->bg;
	pthread_mutex_lock(&bg->mu);
	for (;;) {
		while (!bg->pending && !bg->quit)
			pthread_cond_wait(&bg->cv, &bg->mu);
		if (!bg->pending)
			break;
		pthread_mutex_unlock(&bg->mu);
		struct citcat_errinfo e = {0};
		int rc = bg->err.code ? 0 : write_chunk(w, bg->pend, bg->pend_len, bg->pend_nrec, bg->pend_mark, &e);
		int en = errno;
		pthread_mutex_lock(&bg->mu);
		if (rc && !bg->err.code) {
			bg->err = e;
			bg->err_errno = en;
		}
		bg->pending = 0;
		pthread_cond_broadcast(&bg->cv);
	}
	pthread_mutex_unlock(&bg->mu);
	return NULL;
}

/* Waits until the thread is idle; takes over its error.  Returns W's error. */
static int bg_wait(struct cc_writer *w)
{
	struct cc_writer_bg *bg = w->bg;
	pthread_mutex_lock(&bg->mu);
	while (bg->pending)
		pthread_cond_wait(&bg->cv, &bg->mu);
	if (bg->err.code && !w->err.code) {
		w->err = bg->err;
		errno = bg->err_errno;
	}
	pthread_mutex_unlock(&bg->mu);
	return w->err.code;
}

static void bg_stop(struct cc_writer *w)
{
	struct cc_writer_bg *bg = w->bg;
	if (!bg)
		return;
	pthread_mutex_lock(&bg->mu);
	bg->quit = 1;
	pthread_cond_broadcast(&bg->cv);
	pthread_mutex_unlock(&bg->mu);
	pthread_join(bg->th, NULL);
	pthread_mutex_destroy(&bg->mu);
	pthread_cond_destroy(&bg->cv);
	free(bg->spare);
	free(bg);
	w->bg = NULL;
}

int cc_thread_start(pthread_t *th, pthread_mutex_t *mu, pthread_cond_t *cv, void *(*fn)(void *), void *arg)
{
	pthread_mutex_init(mu, NULL);
	pthread_cond_init(cv, NULL);
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	int prc = pthread_create(th, NULL, fn, arg);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (prc) {
		pthread_mutex_destroy(mu);
		pthread_cond_destroy(cv);
	}
	return prc;
}

static void bg_start(struct cc_writer *w)
{
	struct cc_writer_bg *bg = calloc(1, sizeof *bg);
	if (!bg || !(bg->spare = malloc(w->cap))) {
		free(bg);
		return; /* no thread: chunks are written inline */
	}
	w->bg = bg;
	if (cc_thread_start(&bg->th, &bg->mu, &bg->cv, bg_main, w)) {
		free(bg->spare);
		free(bg);
		w->bg = NULL;
	}
}

/* Ends the chunk being built: hands it to the thread (WAIT 0 returns at
 * once) or writes it inline. */
static int end_chunk(struct cc_writer *w, int wait)
{
	if (w->err.code)
		return w->err.code;
	if (w->len) {
		if (w->bg) {
			if (bg_wait(w))
				return w->err.code;
			struct cc_writer_bg *bg = w->bg;
			pthread_mutex_lock(&bg->mu);
			bg->pend = w->buf;
			bg->pend_len = w->len;
			bg->pend_nrec = w->nrec;
			bg->pend_mark = w->mark;
			bg->pending = 1;
			w->buf = bg->spare;
			bg->spare = (uint8_t *)bg->pend;
			pthread_cond_broadcast(&bg->cv);
			pthread_mutex_unlock(&bg->mu);
		} else if (write_chunk(w, w->buf, w->len, w->nrec, w->mark, &w->err)) {
			return w->err.code;
		}
		w->total_rec += w->nrec;
		w->total_raw += w->len;
		w->len = 0;
		w->nrec = 0;
		w->mark = 0;
	}
	return wait && w->bg ? bg_wait(w) : 0;
}

int cc_writer_flush(struct cc_writer *w) { return end_chunk(w, 1); }

int cc_writer_mark(struct cc_writer *w)
{
	if (end_chunk(w, 0))
		return w->err.code;
	w->mark = CC_CHUNK_MARK;
	return 0;
}

int cc_writer_put_stored(struct cc_writer *w, const struct cc_stored_chunk *c)
{
	if (end_chunk(w, 1))
		return w->err.code;
	if (wwrite(w, c->hdr, CHUNK_HDR) || wwrite(w, c->payload, c->stored))
		return w->err.code;
	w->total_rec += c->nrec;
	w->total_raw += c->raw_len;
	return 0;
}

void cc_writer_inline(struct cc_writer *w)
{
	if (w && w->bg) {
		bg_wait(w);
		bg_stop(w);
	}
}

uint8_t *cc_writer_reserve(struct cc_writer *w, size_t n)
{
	if (n > w->cap) {
		werr(w, CITCAT_ERR_LIMIT, "record of %zu bytes exceeds the chunk size", n);
		return NULL;
	}
	if (w->cap - w->len < n && end_chunk(w, 0))
		return NULL;
	if (w->err.code)
		return NULL;
	w->reserved = n;
	return w->buf + w->len;
}

void cc_writer_commit(struct cc_writer *w, size_t n, uint32_t nrec)
{
	if (n > w->reserved)
		n = w->reserved; /* caller bug; never overrun the buffer */
	w->len += n;
	w->nrec += nrec;
	w->reserved = 0;
}

static void writer_free(struct cc_writer *w)
{
	bg_stop(w);
	free(w->buf);
	free(w->zbuf);
	free(w);
}

int cc_writer_close(struct cc_writer *w)
{
	if (!w)
		return CITCAT_ERR_INVAL;
	if (w->bg)
		bg_wait(w); /* idle, whatever the error, before OUT is closed */
	int rc = cc_writer_flush(w);
	if (!rc) {
		uint8_t e[END_LEN];
		memcpy(e, "END", 4);
		cc_put64(e + 4, w->total_rec);
		cc_put64(e + 12, w->total_raw);
		cc_put32(e + 20, XXH32(e, 20, 0));
		rc = wwrite(w, e, sizeof e);
	}
	if (rc) {
		struct citcat_errinfo oe = {0};
		if (cc_outfile_errinfo(w->out, &oe)) /* the write that failed, with its reason */
			w->err = oe;
		cc_outfile_abort(w->out);
	} else if ((rc = cc_outfile_commit(w->out, &w->err)) != 0)
		w->err.code = rc;
	if (rc) /* for callers whose writer is gone with it */
		open_err = w->err.msg[0] ? w->err : (struct citcat_errinfo){rc, UINT64_MAX, "write failed"};
	int e = errno; /* the reason of a failed write, for the caller's message */
	writer_free(w);
	errno = e;
	return rc;
}

void cc_writer_abort(struct cc_writer *w)
{
	if (!w)
		return;
	bg_stop(w); /* the thread may be writing to OUT */
	cc_outfile_abort(w->out);
	writer_free(w);
}

const struct citcat_errinfo *cc_writer_error(const struct cc_writer *w) { return &w->err; }
uint64_t cc_writer_bytes(const struct cc_writer *w)
{
	if (w->bg) /* the chunk in flight is counted once it is written */
		bg_wait((struct cc_writer *)w);
	return w->bytes + w->len;
}
size_t cc_writer_chunk_used(const struct cc_writer *w) { return w->len; }

/* ---- reader ---- */

/* Reads exactly N bytes; returns 0, or 1 when the input ended first. */
static int rread(struct cc_reader *r, void *p, size_t n, size_t *got)
{
	long k = cc_input_read(r->in, p, n);
	if (k < 0) {
		r->err = *cc_input_error(r->in);
		k = 0; /* the caller's truncation error gives way to this one (rerr) */
		r->in_failed = 1;
	}
	r->pos += (size_t)k;
	if (got)
		*got = (size_t)k;
	return (size_t)k == n ? 0 : 1;
}

static int reader_start(struct cc_reader *r, const char magic[CC_MAGIC_LEN], uint16_t max_version)
{
	uint8_t hdr[HDR_FIXED];
	size_t got;
	if (rread(r, hdr, sizeof hdr, &got)) {
		if (got == 0)
			return rerr(r, CITCAT_ERR_EMPTY, 0, "file is empty");
		if (memcmp(hdr + 4, "\r\n\x1a\n", got > 8 ? 4 : (got > 4 ? got - 4 : 0)) != 0 ||
		    (magic && memcmp(hdr, magic, got < 4 ? got : 4) != 0))
			return rerr(r, CITCAT_ERR_MAGIC, 0, "not a citcat %s file", magic ? "container of this kind" : "container");
		return rerr(r, CITCAT_ERR_TRUNCATED, r->pos, "file ends inside the %d-byte header", HDR_FIXED);
	}
	if (memcmp(hdr + 4, "\r\n\x1a\n", 4) != 0)
		return rerr(r, CITCAT_ERR_MAGIC, 0, "not a citcat file (bad magic)");
	memcpy(r->magic, hdr, CC_MAGIC_LEN);
	r->magic[CC_MAGIC_LEN] = 0;
	if (magic && memcmp(hdr, magic, CC_MAGIC_LEN) != 0)
		return rerr(r, CITCAT_ERR_MAGIC, 0, "wrong kind of file: magic '%.4s', expected '%.4s'", (const char *)hdr, magic);
	r->version = cc_get16(hdr + 8);
	if (r->version == 0 || r->version > max_version)
		return rerr(r, CITCAT_ERR_VERSION, 8, "format version %u is not supported (this build reads up to %u)",
			    r->version, max_version);
	r->meta_len = cc_get32(hdr + 12);
	if (r->meta_len > CC_META_MAX)
		return rerr(r, CITCAT_ERR_LIMIT, 12, "metadata length %u is absurd (limit %u)", r->meta_len, CC_META_MAX);
	r->meta = malloc(r->meta_len + 1);
	if (!r->meta)
		return rerr(r, CITCAT_ERR_NOMEM, 12, "out of memory");
	if (rread(r, r->meta, r->meta_len, NULL))
		return rerr(r, CITCAT_ERR_TRUNCATED, r->pos, "file ends inside the header metadata");
	uint8_t ck[4];
	if (rread(r, ck, 4, NULL))
		return rerr(r, CITCAT_ERR_TRUNCATED, r->pos, "file ends inside the header checksum");
	XXH32_state_t st;
	XXH32_reset(&st, 0);
	XXH32_update(&st, hdr, sizeof hdr);
	XXH32_update(&st, r->meta, r->meta_len);
	if (XXH32_digest(&st) != cc_get32(ck))
		return rerr(r, CITCAT_ERR_CHECKSUM, r->pos - 4, "header checksum mismatch");
	/* Reserved for later versions: a reader of this one cannot know what a
	 * set flag would change (CONTAINER.md). */
	if (cc_get16(hdr + 10) != 0)
		return rerr(r, CITCAT_ERR_CORRUPT, 10, "reserved header flags 0x%04x are set", cc_get16(hdr + 10));
	return 0;
}

static int reader_alloc(struct cc_reader **out, struct cc_reader **r)
{
	*out = NULL;
	*r = calloc(1, sizeof **r);
	return *r ? 0 : CITCAT_ERR_NOMEM;
}

int cc_reader_open(struct cc_reader **out, const char *path, const char magic[CC_MAGIC_LEN],
		   uint16_t max_version)
{
	struct cc_reader *r;
	if (!path)
		return CITCAT_ERR_INVAL;
	if (reader_alloc(out, &r))
		return CITCAT_ERR_NOMEM;
	*out = r;
	int rc = cc_input_open(&r->in, path, &r->err);
	if (rc)
		return rc;
	r->file_size = cc_input_size(r->in);
	return reader_start(r, magic, max_version);
}

int cc_reader_open_mem(struct cc_reader **out, const void *buf, size_t len,
		       const char magic[CC_MAGIC_LEN], uint16_t max_version)
{
	struct cc_reader *r;
	if (reader_alloc(out, &r))
		return CITCAT_ERR_NOMEM;
	*out = r;
	int rc = cc_input_open_mem(&r->in, buf, len, &r->err);
	if (rc)
		return rc;
	r->file_size = cc_input_size(r->in);
	return reader_start(r, magic, max_version);
}

void cc_reader_close(struct cc_reader *r)
{
	if (!r)
		return;
	cc_input_close(r->in);
	free(r->meta);
	free(r->raw);
	free(r->stored);
	free(r);
}

const char *cc_reader_magic(const struct cc_reader *r) { return r->magic; }
uint16_t cc_reader_version(const struct cc_reader *r) { return r->version; }
const uint8_t *cc_reader_meta(const struct cc_reader *r, uint32_t *len)
{
	*len = r->meta_len;
	return r->meta;
}
uint64_t cc_reader_chunk_offset(const struct cc_reader *r) { return r->chunk_off; }
void cc_reader_allow_mark(struct cc_reader *r) { r->allowed |= CC_CHUNK_MARK; }
int cc_reader_chunk_marked(const struct cc_reader *r) { return (cc_get32(r->hdr + 16) & CC_CHUNK_MARK) != 0; }
void cc_reader_skip_to_mark(struct cc_reader *r, uint64_t k) { r->skip_marks = k; }
uint64_t cc_reader_file_size(const struct cc_reader *r) { return r->file_size; }
const struct citcat_errinfo *cc_reader_error(const struct cc_reader *r) { return &r->err; }

int cc_reader_fail(struct cc_reader *r, int code, size_t pos, const char *fmt, ...)
{
	char m[160];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(m, sizeof m, fmt, ap);
	va_end(ap);
	return rerr(r, code, r->chunk_off, "%s (payload byte %zu of the chunk at file offset %llu)", m, pos,
		    (unsigned long long)r->chunk_off);
}

int cc_reader_fail_at(struct cc_reader *r, int code, uint64_t off, const char *fmt, ...)
{
	char m[sizeof r->err.msg];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(m, sizeof m, fmt, ap);
	va_end(ap);
	return rerr(r, code, off, "%s", m);
}

static int grow(uint8_t **p, size_t *cap, size_t n)
{
	if (*cap >= n)
		return 0;
	uint8_t *q = realloc(*p, n);
	if (!q)
		return -1;
	*p = q;
	*cap = n;
	return 0;
}

int cc_cursor_next(struct cc_reader *r, struct cc_cursor *c)
{
	while (c->p == c->end) {
		if (c->base && c->seen != c->nrec)
			return cc_reader_fail(r, CITCAT_ERR_CORRUPT, (size_t)(c->end - c->base),
					      "the chunk holds %u records, its header says %u", c->seen, c->nrec);
		size_t len;
		int rc = cc_reader_next_chunk(r, &c->base, &len, &c->nrec);
		if (rc <= 0)
			return rc;
		c->p = c->base;
		c->end = c->base + len;
		c->seen = 0;
		if (c->p != c->end) {
			c->seen = 1;
			return 2;
		}
	}
	c->seen++;
	return 1;
}

static int next_chunk(struct cc_reader *r, const uint8_t **data, size_t *len, uint32_t *nrec, int decompress);

int cc_reader_next_chunk(struct cc_reader *r, const uint8_t **data, size_t *len, uint32_t *nrec)
{
	return next_chunk(r, data, len, nrec, 1);
}

int cc_reader_next_stored(struct cc_reader *r, struct cc_stored_chunk *c)
{
	const uint8_t *data;
	size_t len;
	uint32_t nrec;
	int rc = next_chunk(r, &data, &len, &nrec, 0);
	if (rc == 1) {
		c->hdr = r->hdr;
		c->payload = r->stored;
		c->stored = cc_get32(r->hdr + 8);
		c->raw_len = (uint32_t)len;
		c->nrec = nrec;
		c->offset = r->chunk_off - CHUNK_HDR;
	}
	return rc;
}

static int next_chunk1(struct cc_reader *r, const uint8_t **data, size_t *len, uint32_t *nrec, int decompress);

static int next_chunk(struct cc_reader *r, const uint8_t **data, size_t *len, uint32_t *nrec, int decompress)
{
	int rc;
	while ((rc = next_chunk1(r, data, len, nrec, decompress)) == 3)
		;
	return rc;
}

/* One chunk header (and, unless it is skipped, its payload): 1 loaded, 3
 * skipped (cc_reader_skip_to_mark), 0 at the end marker, or an error. */
static int next_chunk1(struct cc_reader *r, const uint8_t **data, size_t *len, uint32_t *nrec, int decompress)
{
	if (r->err.code)
		return r->err.code;
	if (r->done)
		return 0;
	uint8_t h[CHUNK_HDR];
	uint64_t start = r->pos;
	size_t got;
	if (rread(r, h, 4, &got))
		return rerr(r, CITCAT_ERR_TRUNCATED, start,
			    got == 0 ? "file ends without its end marker" : "file ends inside a chunk tag");
	if (memcmp(h, "END", 4) == 0) {
		if (rread(r, h + 4, END_LEN - 4, NULL))
			return rerr(r, CITCAT_ERR_TRUNCATED, start, "file ends inside the end marker");
		if (XXH32(h, 20, 0) != cc_get32(h + 20))
			return rerr(r, CITCAT_ERR_CHECKSUM, start, "end marker checksum mismatch");
		if (cc_get64(h + 4) != r->total_rec || cc_get64(h + 12) != r->total_raw)
			return rerr(r, CITCAT_ERR_CORRUPT, start, "end marker totals (%llu records) disagree with the chunks read (%llu)",
				    (unsigned long long)cc_get64(h + 4), (unsigned long long)r->total_rec);
		uint8_t extra;
		if (!rread(r, &extra, 1, NULL) || r->in_failed)
			return rerr(r, CITCAT_ERR_CORRUPT, start + END_LEN, "unexpected data after the end marker");
		r->done = 1;
		return 0;
	}
	if (memcmp(h, "BLK", 4) != 0)
		return rerr(r, CITCAT_ERR_CORRUPT, start, "expected a chunk or end marker, found bytes %02x %02x %02x %02x",
			    h[0], h[1], h[2], h[3]);
	if (rread(r, h + 4, CHUNK_HDR - 4, NULL))
		return rerr(r, CITCAT_ERR_TRUNCATED, start, "file ends inside a chunk header");
	uint32_t raw_len = cc_get32(h + 4), stored = cc_get32(h + 8), n = cc_get32(h + 12), cflags = cc_get32(h + 16);
	if (raw_len == 0 || raw_len > CC_CHUNK_MAX)
		return rerr(r, CITCAT_ERR_LIMIT, start + 4, "chunk raw length %u is out of range (1..%u)", raw_len, CC_CHUNK_MAX);
	if (cflags & ~(CC_CHUNK_LZ4 | r->allowed))
		return rerr(r, CITCAT_ERR_CORRUPT, start + 16, "unknown chunk flags 0x%x", cflags);
	if ((!(cflags & 1) && stored != raw_len) || stored > (uint32_t)LZ4_compressBound((int)raw_len) || stored == 0)
		return rerr(r, CITCAT_ERR_CORRUPT, start + 8, "chunk stored length %u is inconsistent with raw length %u", stored, raw_len);
	if (r->file_size && start + CHUNK_HDR + stored > r->file_size)
		return rerr(r, CITCAT_ERR_TRUNCATED, start, "chunk of %u bytes runs past the end of the file", stored);
	if (r->skip_marks && !((cflags & CC_CHUNK_MARK) && r->skip_marks == 1)) {
		/* cc_reader_skip_to_mark: not the chunk sought; pass over it */
		if (cflags & CC_CHUNK_MARK)
			r->skip_marks--;
		long long k = cc_input_skip(r->in, stored);
		if (k < 0) {
			r->err = *cc_input_error(r->in);
			r->in_failed = 1;
			return r->err.code;
		}
		r->pos += (uint64_t)k;
		if ((uint64_t)k != stored)
			return rerr(r, CITCAT_ERR_TRUNCATED, start, "file ends inside a chunk payload");
		r->total_rec += n;
		r->total_raw += raw_len;
		return 3; /* next_chunk goes on with the next one */
	}
	r->skip_marks = 0;
	if (grow(&r->stored, &r->storedcap, stored) || grow(&r->raw, &r->rawcap, raw_len))
		return rerr(r, CITCAT_ERR_NOMEM, start, "out of memory for a %u-byte chunk", raw_len);
	if (rread(r, r->stored, stored, NULL))
		return rerr(r, CITCAT_ERR_TRUNCATED, start, "file ends inside a chunk payload");
	XXH32_state_t st;
	XXH32_reset(&st, 0);
	XXH32_update(&st, h, 20);
	XXH32_update(&st, r->stored, stored);
	if (XXH32_digest(&st) != cc_get32(h + 20))
		return rerr(r, CITCAT_ERR_CHECKSUM, start, "chunk checksum mismatch (corrupted data)");
	r->chunk_off = start + CHUNK_HDR;
	memcpy(r->hdr, h, CHUNK_HDR);
	const uint8_t *out = r->stored;
	if ((cflags & 1) && decompress) {
		int d = LZ4_decompress_safe((const char *)r->stored, (char *)r->raw, (int)stored, (int)raw_len);
		if (d != (int)raw_len)
			return rerr(r, CITCAT_ERR_CORRUPT, r->chunk_off, "chunk payload does not decompress to its stated size");
		out = r->raw;
	}
	r->total_rec += n;
	r->total_raw += raw_len;
	*data = out;
	*len = raw_len;
	*nrec = n;
	return 1;
}

/* ---- record streams ---- */

int cc_stream_open(void **out, const struct cc_stream_kind *k, const char *path, const void *buf, size_t len)
{
	void *obj = calloc(1, k->size);
	*out = obj;
	if (!obj)
		return CITCAT_ERR_NOMEM;
	struct cc_reader **cr = obj; /* the first member */
	struct citcat_errinfo *err = (struct citcat_errinfo *)((char *)obj + k->err_offset);
	int rc = path ? cc_reader_open(cr, path, k->magic, k->version) : cc_reader_open_mem(cr, buf, len, k->magic, k->version);
	if (rc) {
		*err = *cc_reader_error(*cr);
		return rc;
	}
	return k->init ? k->init(obj) : 0;
}

void cc_stream_close(void *reader)
{
	if (!reader)
		return;
	cc_reader_close(*(struct cc_reader **)reader);
	free(reader);
}

int cc_stream_writer_end(void *writer, int rc)
{
	struct cc_writer *cw = *(struct cc_writer **)writer;
	if (rc)
		cc_writer_abort(cw);
	else
		rc = cc_writer_close(cw);
	free(writer);
	return rc;
}

void cc_stream_writer_abort(void *writer)
{
	if (!writer)
		return;
	cc_writer_abort(*(struct cc_writer **)writer);
	free(writer);
}

int cc_stream_next(struct cc_reader *r, struct cc_cursor *c, struct citcat_errinfo *err)
{
	int rc = cc_cursor_next(r, c);
	if (rc < 0)
		*err = *cc_reader_error(r);
	return rc;
}

int cc_stream_bad(struct cc_reader *r, const struct cc_cursor *c, struct citcat_errinfo *err, const uint8_t *at,
		  const char *what_kind, const char *what)
{
	int rc = cc_reader_fail(r, CITCAT_ERR_CORRUPT, (size_t)(at - c->base), "%s: %s", what_kind, what);
	*err = *cc_reader_error(r);
	return rc;
}
