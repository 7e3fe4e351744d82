/* The input layer: see input.h. */
#include "input.h"
#include "guard.h"
#include "stop.h"
#include "tvp.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <unistd.h>
#include <lz4frame.h>
#include <lzma.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zstd.h>
#include <zstd_errors.h>

struct pipe_src;
struct cc_input {
	int fd;        /* the file read, or -1 */
	struct pipe_src *pipe; /* a source read once that this input streams (see below) */
	size_t head_pos;       /* PIPE: bytes of its kept head read */
	const uint8_t *mem;
	size_t memlen, mempos;
	int wrap;
	/* compressed bytes: ibuf[ipos..ilen), ibuf[0] at file offset ibase */
	uint8_t *ibuf;
	size_t ipos, ilen;
	uint64_t ibase;
	int ieof;
	int frame_open; /* a wrapper frame is begun and not yet ended */
	LZ4F_dctx *lz4;
	ZSTD_DStream *zstd;
	lzma_stream xz;
	int xz_init;
	struct cc_tvp_bytes *tvp; /* TVP mode 0; tvp_trace: a mode-1 container, passed through */
	int tvp_trace;
	/* unwrapped bytes peeked but not consumed: obuf[opos..olen) */
	uint8_t *obuf;
	size_t opos, olen;
	uint64_t pos;  /* unwrapped bytes consumed */
	uint64_t size; /* unwrapped size when known, else 0 */
	int failed;
	int seekable; /* a regular file: skips seek */
	int raw;      /* CC_IN_RAW */
	struct citcat_errinfo err;
};

static const struct {
	const char *name;
	uint8_t len;
	uint8_t magic[6];
} foreign[] = {
	{"gzip", 2, {0x1f, 0x8b}},
	{"compress (.Z)", 2, {0x1f, 0x9d}},
	{"bzip2", 3, {'B', 'Z', 'h'}},
	{"zip", 4, {'P', 'K', 3, 4}},
	{"7-Zip", 6, {'7', 'z', 0xbc, 0xaf, 0x27, 0x1c}},
	{"lzip", 4, {'L', 'Z', 'I', 'P'}},
	{"lz4 (legacy format, lz4 -l)", 4, {0x02, 0x21, 0x4c, 0x18}},
};

const char *cc_wrap_name(int wrap)
{
	switch (wrap) {
	case CC_WRAP_LZ4: return "lz4";
	case CC_WRAP_ZSTD: return "zstd";
	case CC_WRAP_XZ: return "xz";
	case CC_WRAP_TVP: return "tvp";
	}
	return NULL;
}

int cc_wrap_sniff(const uint8_t *h, size_t n)
{
	if (n >= 4 && memcmp(h, "\x04\x22\x4d\x18", 4) == 0)
		return CC_WRAP_LZ4;
	if (n >= 4 && memcmp(h, "\x28\xb5\x2f\xfd", 4) == 0)
		return CC_WRAP_ZSTD;
	if (n >= 6 && memcmp(h, "\xfd" "7zXZ\0", 6) == 0)
		return CC_WRAP_XZ;
	if (cc_tvp_sniff_mode(h, n) >= 0)
		return CC_WRAP_TVP;
	return CC_WRAP_NONE;
}

const char *cc_wrap_foreign(const uint8_t *h, size_t n)
{
	for (size_t i = 0; i < sizeof foreign / sizeof *foreign; i++)
		if (n >= foreign[i].len && memcmp(h, foreign[i].magic, foreign[i].len) == 0)
			return foreign[i].name;
	return NULL;
}

int cc_wrap_by_suffix(const char *path, size_t *stem_len)
{
	static const struct {
		const char *suf;
		int wrap;
	} t[] = {{".lz4", CC_WRAP_LZ4}, {".zst", CC_WRAP_ZSTD}, {".xz", CC_WRAP_XZ}, {".tvp", CC_WRAP_TVP}};
	size_t n = path ? strlen(path) : 0;
	if (stem_len)
		*stem_len = n;
	for (size_t i = 0; i < sizeof t / sizeof *t; i++) {
		size_t k = strlen(t[i].suf);
		if (n > k && strcmp(path + n - k, t[i].suf) == 0) {
			if (stem_len)
				*stem_len = n - k;
			return t[i].wrap;
		}
	}
	return CC_WRAP_NONE;
}

static int fail(struct cc_input *in, int code, uint64_t off, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	in->err.code = code;
	in->err.offset = off;
	vsnprintf(in->err.msg, sizeof in->err.msg, fmt, ap);
	va_end(ap);
	in->failed = code;
	return code;
}

/* ---- standard input and FIFOs: sources that can be read only once ----
 *
 * One table for the process, an entry per source: standard input ("-"),
 * and each FIFO a path names (by st_dev, st_ino).  Standard input that is
 * a regular file (a shell's `< FILE`) is read again from its start offset
 * by every open, each with an offset of its own.  Anything else (a pipe, a
 * terminal, a FIFO) is copied at its first open into an unlinked temporary
 * file that then stands for it (spooling), unless the command asked for
 * streaming: then the first open reads the source itself, and its first
 * CC_INPUT_STDIN_REPLAY bytes are kept, so that a later open (the reader
 * after the format was recognised) reads them again and goes on with the
 * source.  A reader that needs a file (CC_IN_FILE) spools it first. */
enum { SI_UNKNOWN, SI_FILE, SI_STREAM };
struct pipe_src {
	int used, is_stdin;
	dev_t dev; /* a FIFO's */
	ino_t ino;
	int fd;    /* the source (fd 0, the FIFO), or the spooled copy; -1 before the first open */
	int kind;
	off_t start;              /* SI_FILE: where reading starts */
	uint8_t *head;            /* SI_STREAM: the source's first bytes */
	size_t len;               /* bytes in HEAD */
	int lost;                 /* SI_STREAM: bytes beyond HEAD were consumed */
	struct cc_input *owner;   /* SI_STREAM: the input reading the source now */
	uint64_t read;            /* SI_STREAM: bytes read from the source */
};
#define PIPE_SRCS 16
static pthread_mutex_t si_mu = PTHREAD_MUTEX_INITIALIZER;
static int si_mode = CC_STDIN_SPOOL;
static struct pipe_src srcs[PIPE_SRCS];

void cc_input_stdin_mode(int mode) { si_mode = mode; }

uint64_t cc_input_stdin_bytes(void)
{
	pthread_mutex_lock(&si_mu);
	uint64_t n = 0;
	struct stat st;
	for (int i = 0; i < PIPE_SRCS; i++) {
		struct pipe_src *p = &srcs[i];
		if (!p->used || !p->is_stdin)
			continue;
		n = p->read;
		if (p->kind == SI_FILE && fstat(p->fd, &st) == 0)
			n = (uint64_t)st.st_size > (uint64_t)p->start ? (uint64_t)st.st_size - (uint64_t)p->start : 0;
	}
	pthread_mutex_unlock(&si_mu);
	return n;
}

static int stop_err(struct citcat_errinfo *err)
{
	int s = cc_stop_requested();
	return citcat_errinfo_set(err, CITCAT_ERR_INTERRUPTED, UINT64_MAX, "interrupted (%s)",
				  s == 2 ? "SIGINT" : s == 15 ? "SIGTERM" : s == 1 ? "SIGHUP" : "stop requested");
}

/* read(2) with the stop flag polled: the bytes, 0 at the end, -1 with
 * errno, or -2 when a stop was requested (a signal that arrived while
 * blocked interrupts the read with EINTR: the flag then tells). */
static ssize_t read_polled(int fd, void *buf, size_t n)
{
	for (;;) {
		if (cc_stop_requested())
			return -2;
		ssize_t k = read(fd, buf, n);
		if (k >= 0 || errno != EINTR)
			return k;
	}
}

static const char *src_name(const struct pipe_src *p) { return p->is_stdin ? "standard input" : "the FIFO"; }

/* Copies source P (NHEAD bytes already read into HEAD first, then what is
 * left of P->fd) into an unlinked temporary file, which becomes P's. */
static int src_spool(struct pipe_src *p, const uint8_t *head, size_t nhead, struct citcat_errinfo *err)
{
	const char *dir = getenv("TMPDIR");
	if (!dir || !*dir)
		dir = "/tmp";
	char name[4096];
	snprintf(name, sizeof name, "%s/citcat-input-XXXXXX", dir);
	int fd = mkostemp(name, O_CLOEXEC);
	if (fd < 0)
		return citcat_errinfo_set(err, CITCAT_ERR_IO, UINT64_MAX,
					  "cannot copy %s (read more than once, or by seeking) to %s: %s", src_name(p), dir,
					  strerror(errno));
	unlink(name);
	uint8_t *b = malloc(CC_INPUT_BUF);
	int rc = b ? 0 : citcat_errinfo_set(err, CITCAT_ERR_NOMEM, UINT64_MAX, "out of memory");
	const uint8_t *q = head;
	ssize_t k = (ssize_t)nhead;
	while (!rc) {
		for (ssize_t done = 0; done < k && !rc;) {
			ssize_t w = write(fd, q + done, (size_t)(k - done));
			if (w < 0 && errno == EINTR && !cc_stop_requested())
				continue;
			if (w <= 0)
				rc = citcat_errinfo_set(err, CITCAT_ERR_IO, UINT64_MAX, "copying %s to a temporary file in %s failed: %s",
							src_name(p), dir, strerror(w < 0 ? errno : ENOSPC));
			done += w > 0 ? w : 0;
		}
		if (rc || (k = read_polled(p->fd, b, CC_INPUT_BUF)) == 0)
			break;
		if (k == -2)
			rc = stop_err(err);
		else if (k < 0)
			rc = citcat_errinfo_set(err, CITCAT_ERR_IO, UINT64_MAX, "reading %s failed: %s", src_name(p), strerror(errno));
		q = b;
	}
	free(b);
	if (rc) {
		close(fd);
		return rc;
	}
	if (!p->is_stdin)
		close(p->fd); /* the FIFO: the copy stands for it from now on */
	p->fd = fd;
	p->kind = SI_FILE;
	p->start = 0;
	free(p->head);
	p->head = NULL;
	p->len = 0;
	return 0;
}

/* A descriptor of its own on P's regular file, at its start. */
static int src_reopen(const struct pipe_src *p, struct citcat_errinfo *err)
{
	char proc[64];
	snprintf(proc, sizeof proc, "/proc/self/fd/%d", p->fd);
	int fd = open(proc, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		fd = fcntl(p->fd, F_DUPFD_CLOEXEC, 3); /* no /proc: shares the offset, but readers take turns */
	if (fd < 0 || lseek(fd, p->start, SEEK_SET) < 0) {
		int e = errno;
		if (fd >= 0)
			close(fd);
		return citcat_errinfo_set(err, CITCAT_ERR_IO, UINT64_MAX, "cannot read %s again: %s", src_name(p), strerror(e));
	}
	return fd;
}

/* Opens source P for IN (NULL: a descriptor is wanted): a descriptor >= 0,
 * or STDIN_STREAM_FD when IN reads the source itself, or an error.  PATH:
 * the FIFO's path (its first open), NULL for standard input. */
#define STDIN_STREAM_FD (-1000)
static int src_open(struct pipe_src *p, const char *path, struct cc_input *in, unsigned flags, struct citcat_errinfo *err)
{
	int rc = 0;
	if (p->kind == SI_UNKNOWN) {
		struct stat st;
		if (path) { /* a FIFO's open waits for a writer; Ctrl-C ends the wait */
			while ((p->fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY)) < 0 && errno == EINTR)
				if (cc_stop_requested())
					return stop_err(err);
			if (p->fd < 0)
				return citcat_errinfo_set(err, CITCAT_ERR_IO, UINT64_MAX, "cannot open: %s", strerror(errno));
		} else {
			p->fd = 0;
		}
		if (fstat(p->fd, &st) != 0)
			rc = citcat_errinfo_set(err, CITCAT_ERR_IO, UINT64_MAX, "cannot read %s: %s", src_name(p), strerror(errno));
		else if (S_ISDIR(st.st_mode))
			rc = citcat_errinfo_set(err, CITCAT_ERR_IO, UINT64_MAX, "cannot read %s: %s", src_name(p), strerror(EISDIR));
		else if (S_ISREG(st.st_mode)) {
			p->kind = SI_FILE;
			off_t at = lseek(p->fd, 0, SEEK_CUR);
			p->start = at > 0 ? at : 0;
		} else if (si_mode == CC_STDIN_STREAM && !(flags & CC_IN_FILE)) {
			p->kind = SI_STREAM;
		} else {
			rc = src_spool(p, NULL, 0, err);
		}
		if (rc && path && p->fd >= 0) {
			close(p->fd);
			p->fd = -1;
		}
		if (rc)
			return rc;
	}
	if (p->kind == SI_STREAM && !in && !(flags & CC_IN_FILE)) {
		/* a descriptor to stream: the source itself, once */
		if (p->lost || p->owner || p->len)
			return citcat_errinfo_set(err, CITCAT_ERR_IO, UINT64_MAX,
						  "%s (a pipe) was read already and cannot be read again here: give a file", src_name(p));
		if ((rc = fcntl(p->fd, F_DUPFD_CLOEXEC, 3)) < 0)
			return citcat_errinfo_set(err, CITCAT_ERR_IO, UINT64_MAX, "cannot read %s: %s", src_name(p), strerror(errno));
		p->lost = 1;
		return rc;
	}
	if (p->kind == SI_STREAM && (flags & CC_IN_FILE)) { /* a reader that needs a file after one that streamed */
		if (p->lost || p->owner)
			return citcat_errinfo_set(err, CITCAT_ERR_IO, UINT64_MAX,
						  "%s (a pipe) was read already and cannot be read again here: give a file", src_name(p));
		if ((rc = src_spool(p, p->head, p->len, err)))
			return rc;
	}
	if (p->kind == SI_STREAM) {
		if (p->owner || p->lost)
			return citcat_errinfo_set(err, CITCAT_ERR_IO, UINT64_MAX,
						  "%s (a pipe) %s and cannot be read again: give a file", src_name(p),
						  p->owner ? "is being read already" : "was read already");
		p->owner = in;
		in->pipe = p;
		return STDIN_STREAM_FD;
	}
	return src_reopen(p, err);
}

/* The table entry of "-" (DEV, INO unused) or of the FIFO (DEV, INO). */
static struct pipe_src *src_find(int is_stdin, dev_t dev, ino_t ino)
{
	for (int i = 0; i < PIPE_SRCS; i++)
		if (srcs[i].used && srcs[i].is_stdin == is_stdin && (is_stdin || (srcs[i].dev == dev && srcs[i].ino == ino)))
			return &srcs[i];
	for (int i = 0; i < PIPE_SRCS; i++)
		if (!srcs[i].used) {
			srcs[i] = (struct pipe_src){.used = 1, .is_stdin = is_stdin, .dev = dev, .ino = ino, .fd = -1};
			return &srcs[i];
		}
	return NULL;
}

static int pipe_open(int is_stdin, const char *path, const struct stat *st, struct cc_input *in, unsigned flags,
		     struct citcat_errinfo *err)
{
	pthread_mutex_lock(&si_mu);
	struct pipe_src *p = src_find(is_stdin, st ? st->st_dev : 0, st ? st->st_ino : 0);
	int rc = p ? src_open(p, is_stdin ? NULL : path, in, flags, err)
		   : citcat_errinfo_set(err, CITCAT_ERR_LIMIT, UINT64_MAX, "too many FIFOs open at once");
	pthread_mutex_unlock(&si_mu);
	return rc;
}

/* Streaming a source: the kept head first, then the source. */
static long pipe_read(struct cc_input *in, uint8_t *dst, size_t n)
{
	pthread_mutex_lock(&si_mu);
	struct pipe_src *p = in->pipe;
	long k;
	if (in->head_pos < p->len) {
		k = (long)(p->len - in->head_pos < n ? p->len - in->head_pos : n);
		memcpy(dst, p->head + in->head_pos, (size_t)k);
		in->head_pos += (size_t)k;
	} else {
		ssize_t r = read_polled(p->fd, dst, n);
		p->read += r > 0 ? (uint64_t)r : 0;
		if (r > 0 && !p->lost && p->len + (size_t)r <= CC_INPUT_STDIN_REPLAY) {
			uint8_t *h = p->head ? p->head : malloc(CC_INPUT_STDIN_REPLAY);
			if (h) {
				p->head = h;
				memcpy(p->head + p->len, dst, (size_t)r);
				p->len += (size_t)r;
				in->head_pos = p->len;
			} else {
				p->lost = 1;
			}
		} else if (r > 0) {
			p->lost = 1;
		}
		k = r == -2 ? -2 : r < 0 ? -1 : (long)r;
	}
	pthread_mutex_unlock(&si_mu);
	return k;
}

/* Raw bytes from the file or buffer: the count (0 at the end) or an error.
 * The stop flag (stop.h) is polled before every read. */
static long raw_read(struct cc_input *in, uint8_t *dst, size_t n)
{
	if (cc_stop_requested()) {
		stop_err(&in->err);
		in->failed = CITCAT_ERR_INTERRUPTED;
		return CITCAT_ERR_INTERRUPTED;
	}
	if (in->mem) {
		size_t k = in->memlen - in->mempos < n ? in->memlen - in->mempos : n;
		memcpy(dst, in->mem + in->mempos, k);
		in->mempos += k;
		return (long)k;
	}
	long k = in->pipe ? pipe_read(in, dst, n) : (long)read_polled(in->fd, dst, n);
	if (k == -2) {
		stop_err(&in->err);
		in->failed = CITCAT_ERR_INTERRUPTED;
		return CITCAT_ERR_INTERRUPTED;
	}
	if (k < 0)
		return fail(in, CITCAT_ERR_IO, UINT64_MAX, "read failed: %s", strerror(errno));
	return k;
}

/* Tops up the compressed buffer when it is empty; returns 0 or an error. */
static int refill(struct cc_input *in)
{
	if (in->ipos < in->ilen || in->ieof)
		return 0;
	in->ibase += in->ilen;
	in->ipos = in->ilen = 0;
	long k = raw_read(in, in->ibuf, CC_INPUT_BUF);
	if (k < 0)
		return (int)k;
	in->ilen = (size_t)k;
	if (k == 0)
		in->ieof = 1;
	return 0;
}

static int wrap_corrupt(struct cc_input *in, const char *why)
{
	return fail(in, CITCAT_ERR_CORRUPT, in->ibase + in->ipos,
		    "%s-compressed data is corrupt: %s (after %llu decompressed bytes)", cc_wrap_name(in->wrap), why,
		    (unsigned long long)(in->pos + (in->olen - in->opos)));
}

static int wrap_truncated(struct cc_input *in)
{
	return fail(in, CITCAT_ERR_TRUNCATED, in->ibase + in->ipos, "the %s-compressed file ends inside a frame (truncated)",
		    cc_wrap_name(in->wrap));
}

/* One decompression step into DST: output bytes, 0 at the clean end of the
 * wrapped stream, or an error. */
static long unwrap(struct cc_input *in, uint8_t *dst, size_t cap)
{
	if (in->wrap == CC_WRAP_TVP) {
		long k = cc_tvp_bytes_read(in->tvp, dst, cap);
		if (k < 0)
			in->err = *cc_tvp_bytes_error(in->tvp), in->failed = (int)k;
		return k;
	}
	for (;;) {
		int rc = refill(in);
		if (rc)
			return rc;
		size_t sn = in->ilen - in->ipos, dn = cap;
		if (!sn && !in->frame_open && in->wrap != CC_WRAP_XZ)
			return 0;
		size_t used;
		if (in->wrap == CC_WRAP_LZ4) {
			size_t ret = LZ4F_decompress(in->lz4, dst, &dn, in->ibuf + in->ipos, &sn, NULL);
			if (LZ4F_isError(ret))
				return wrap_corrupt(in, LZ4F_getErrorName(ret));
			used = sn;
			in->frame_open = ret != 0;
		} else if (in->wrap == CC_WRAP_ZSTD) {
			ZSTD_inBuffer ib = {in->ibuf + in->ipos, sn, 0};
			ZSTD_outBuffer ob = {dst, cap, 0};
			size_t ret = ZSTD_decompressStream(in->zstd, &ob, &ib);
			if (ZSTD_isError(ret)) {
				if (ZSTD_getErrorCode(ret) == ZSTD_error_frameParameter_windowTooLarge)
					return fail(in, CITCAT_ERR_LIMIT, in->ibase + in->ipos,
						    "zstd frame needs a window above the 128 MiB this build allows");
				return wrap_corrupt(in, ZSTD_getErrorName(ret));
			}
			used = ib.pos;
			dn = ob.pos;
			in->frame_open = ret != 0;
		} else {
			if (!in->frame_open)
				return 0;
			in->xz.next_in = in->ibuf + in->ipos;
			in->xz.avail_in = sn;
			in->xz.next_out = dst;
			in->xz.avail_out = cap;
			lzma_ret ret = lzma_code(&in->xz, in->ieof ? LZMA_FINISH : LZMA_RUN);
			used = sn - in->xz.avail_in;
			dn = cap - in->xz.avail_out;
			in->ipos += used;
			if (ret == LZMA_STREAM_END)
				in->frame_open = 0;
			else if (ret == LZMA_BUF_ERROR)
				return wrap_truncated(in);
			else if (ret == LZMA_MEMLIMIT_ERROR)
				return fail(in, CITCAT_ERR_LIMIT, in->ibase + in->ipos,
					    "xz stream needs more than the %u MiB of memory this build allows",
					    CC_INPUT_XZ_MEMLIMIT >> 20);
			else if (ret == LZMA_MEM_ERROR)
				return fail(in, CITCAT_ERR_NOMEM, UINT64_MAX, "out of memory for the xz decoder");
			else if (ret != LZMA_OK)
				return wrap_corrupt(in, ret == LZMA_FORMAT_ERROR ? "not an xz stream"
						   : ret == LZMA_OPTIONS_ERROR ? "unsupported options"
						   : "data error");
			if (dn)
				return (long)dn;
			continue;
		}
		in->ipos += used;
		if (dn)
			return (long)dn;
		if (!used && in->ipos == in->ilen && in->ieof)
			return wrap_truncated(in); /* frame open, no input left, nothing produced */
	}
}

/* Bytes of the stream into DST: unwrapped, or straight from the source. */
static long produce(struct cc_input *in, uint8_t *dst, size_t cap)
{
	if (in->failed)
		return in->failed;
	if (in->wrap == CC_WRAP_NONE) {
		/* the bytes sniffed at open come first */
		if (in->ipos < in->ilen) {
			size_t k = in->ilen - in->ipos < cap ? in->ilen - in->ipos : cap;
			memcpy(dst, in->ibuf + in->ipos, k);
			in->ipos += k;
			return (long)k;
		}
		return raw_read(in, dst, cap);
	}
	return unwrap(in, dst, cap);
}

long cc_input_read(struct cc_input *in, void *buf, size_t n)
{
	uint8_t *dst = buf;
	size_t got = 0;
	if (in->failed)
		return in->failed;
	while (got < n) {
		long k;
		if (in->opos < in->olen) {
			k = (long)(in->olen - in->opos < n - got ? in->olen - in->opos : n - got);
			memcpy(dst + got, in->obuf + in->opos, (size_t)k);
			in->opos += (size_t)k;
		} else if ((k = produce(in, dst + got, n - got)) <= 0) {
			if (k < 0)
				return k; /* a broken stream: its error, not the bytes before it */
			break;
		}
		got += (size_t)k;
	}
	in->pos += got;
	return (long)got;
}

long long cc_input_skip(struct cc_input *in, uint64_t n)
{
	uint64_t done = 0;
	if (in->failed)
		return in->failed;
	/* what is buffered first: peeked bytes, then the bytes sniffed at open */
	size_t k = in->olen - in->opos < n ? in->olen - in->opos : (size_t)n;
	in->opos += k;
	done += k;
	if (in->wrap == CC_WRAP_NONE && done < n) {
		k = in->ilen - in->ipos < n - done ? in->ilen - in->ipos : (size_t)(n - done);
		in->ipos += k;
		done += k;
	}
	/* a plain regular file or memory: seek, but never past the end (the
	 * caller's reads then find the truncation where it is) */
	if (in->wrap == CC_WRAP_NONE && done < n && in->size) {
		uint64_t left = in->size > in->pos + done ? in->size - in->pos - done : 0, step = n - done < left ? n - done : left;
		if (in->mem) {
			in->mempos += (size_t)step;
			done += step;
		} else if (in->seekable && step <= (uint64_t)INT64_MAX && lseek(in->fd, (off_t)step, SEEK_CUR) >= 0) {
			done += step;
		}
	}
	uint8_t buf[4096];
	while (done < n) { /* a wrapper or a pipe: read and drop */
		long r = cc_input_read(in, buf, n - done < sizeof buf ? (size_t)(n - done) : sizeof buf);
		if (r < 0)
			return r;
		if (r == 0)
			return (long long)done;
		done += (uint64_t)r;
		in->pos -= (uint64_t)r; /* counted below with the rest */
	}
	in->pos += done;
	return (long long)done;
}

long cc_input_peek(struct cc_input *in, const uint8_t **p, size_t n)
{
	if (in->failed)
		return in->failed;
	if (n > CC_INPUT_BUF)
		n = CC_INPUT_BUF;
	if (in->olen - in->opos < n) {
		memmove(in->obuf, in->obuf + in->opos, in->olen - in->opos);
		in->olen -= in->opos;
		in->opos = 0;
		while (in->olen < n) {
			long k = produce(in, in->obuf + in->olen, CC_INPUT_BUF - in->olen);
			if (k < 0 && in->olen == in->opos)
				return k;
			if (k < 0)
				break; /* what came before the error is readable; the error follows it */
			if (k == 0)
				break;
			in->olen += (size_t)k;
		}
	}
	*p = in->obuf + in->opos;
	return (long)(in->olen - in->opos < n ? in->olen - in->opos : n);
}

/* TVP's source: the compressed bytes (common/tvp.h). */
static long tvp_source(void *ctx, uint8_t *buf, size_t n)
{
	struct cc_input *in = ctx;
	size_t got = 0;
	while (got < n) {
		int rc = refill(in);
		size_t k = in->ilen - in->ipos < n - got ? in->ilen - in->ipos : n - got;
		if (rc || !k)
			return rc ? rc : (long)got;
		memcpy(buf + got, in->ibuf + in->ipos, k);
		in->ipos += k;
		got += k;
	}
	return (long)got;
}

static int start(struct cc_input *in)
{
	in->ibuf = malloc(CC_INPUT_BUF);
	in->obuf = malloc(CC_INPUT_BUF);
	if (!in->ibuf || !in->obuf)
		return fail(in, CITCAT_ERR_NOMEM, UINT64_MAX, "out of memory");
	/* the first bytes decide the wrapper; they stay in ibuf */
	while (in->ilen < 6 && !in->ieof) {
		long k = raw_read(in, in->ibuf + in->ilen, 6 - in->ilen);
		if (k < 0)
			return (int)k;
		if (k == 0)
			in->ieof = 1;
		in->ilen += (size_t)k;
	}
	if (in->raw) {
		in->wrap = CC_WRAP_NONE;
		if (in->mem)
			in->size = in->memlen;
		return 0;
	}
	const char *other = cc_wrap_foreign(in->ibuf, in->ilen);
	if (other)
		return fail(in, CITCAT_ERR_UNSUPPORTED, 0, "compressed with %s; decompress first", other);
	in->wrap = cc_wrap_sniff(in->ibuf, in->ilen);
	if (in->wrap == CC_WRAP_TVP && cc_tvp_sniff_mode(in->ibuf, in->ilen) == CC_TVP_TRACE)
		in->wrap = CC_WRAP_NONE, in->tvp_trace = 1; /* formats/addr.c reads it */
	in->frame_open = in->wrap != CC_WRAP_NONE;
	if (in->wrap == CC_WRAP_NONE) {
		if (in->mem)
			in->size = in->memlen;
		return 0;
	}
	in->ieof = 0; /* a 6-byte read hit the end only if the file is that short; read again to see */
	in->size = 0;
	if (in->wrap == CC_WRAP_LZ4) {
		if (LZ4F_isError(LZ4F_createDecompressionContext(&in->lz4, LZ4F_VERSION)))
			return fail(in, CITCAT_ERR_NOMEM, UINT64_MAX, "cannot create an LZ4 decoder");
	} else if (in->wrap == CC_WRAP_ZSTD) {
		if (!(in->zstd = ZSTD_createDStream()))
			return fail(in, CITCAT_ERR_NOMEM, UINT64_MAX, "cannot create a zstd decoder");
	} else if (in->wrap == CC_WRAP_TVP) {
		int rc = cc_tvp_bytes_reader_open(&in->tvp, tvp_source, in, &in->err);
		return rc ? (in->failed = rc) : 0;
	} else {
		lzma_stream init = LZMA_STREAM_INIT;
		in->xz = init;
		if (lzma_stream_decoder(&in->xz, CC_INPUT_XZ_MEMLIMIT, LZMA_CONCATENATED) != LZMA_OK)
			return fail(in, CITCAT_ERR_NOMEM, UINT64_MAX, "cannot create an xz decoder");
		in->xz_init = 1;
	}
	return 0;
}

static int opened(struct cc_input **out, struct cc_input *in, struct citcat_errinfo *err)
{
	int rc = start(in);
	if (rc) {
		if (err)
			*err = in->err;
		cc_input_close(in);
		return rc;
	}
	*out = in;
	return 0;
}

/* What a file type is called in messages. */
static const char *type_name(mode_t m)
{
	return S_ISFIFO(m) ? "a FIFO" : S_ISCHR(m) ? "a character device" : S_ISBLK(m) ? "a block device"
	       : S_ISSOCK(m) ? "a socket" : S_ISDIR(m) ? "a directory" : "not a regular file";
}

/* The descriptor of input PATH under the rules of input.h (FLAGS), with *ST
 * its status; IN (may be NULL) is the input that will stream standard input
 * itself when STDIN_STREAM_FD comes back.  >= 0, STDIN_STREAM_FD or an
 * error. */
static int open_checked(const char *path, unsigned flags, struct cc_input *in, struct stat *st,
			struct citcat_errinfo *err)
{
	int fd, piped = 0;
	if (strcmp(path, "-") == 0) {
		if (flags & CC_IN_RECORDED)
			return citcat_errinfo_set(err, CITCAT_ERR_IO, UINT64_MAX, "'-' is not a file name here");
		fd = pipe_open(1, NULL, NULL, in, flags, err);
		piped = 1;
	} else if (stat(path, st) == 0 && S_ISFIFO(st->st_mode) && !(flags & CC_IN_RECORDED)) {
		/* a FIFO the user named: read once, like standard input */
		fd = pipe_open(0, path, st, in, flags, err);
		piped = 1;
	}
	if (piped) {
		if (fd == STDIN_STREAM_FD) {
			memset(st, 0, sizeof *st);
			st->st_mode = S_IFIFO;
			return fd;
		}
		if (fd < 0)
			return fd;
	} else {
		/* the file's kind first, so that nothing but a regular file is
		 * ever opened when the rules ask for one (opening a FIFO blocks,
		 * opening a device may act) */
		if (stat(path, st) != 0)
			return citcat_errinfo_set(err, CITCAT_ERR_IO, UINT64_MAX, "cannot open: %s", strerror(errno));
		if (S_ISDIR(st->st_mode))
			return citcat_errinfo_set(err, CITCAT_ERR_IO, UINT64_MAX, "cannot read: %s", strerror(EISDIR));
		if (!S_ISREG(st->st_mode) && (flags & CC_IN_RECORDED))
			return citcat_errinfo_set(err, CITCAT_ERR_IO, UINT64_MAX,
						  "%s, not opened: a path recorded in a file is read only when it names a "
						  "regular file", type_name(st->st_mode));
		if (!S_ISREG(st->st_mode) && (flags & CC_IN_FILE))
			return citcat_errinfo_set(err, CITCAT_ERR_IO, UINT64_MAX,
						  "%s: this input is read by seeking, so it must be a regular file (or a FIFO or "
						  "-, which are then copied)", type_name(st->st_mode));
		for (;;) {
			fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY |
					(flags & (CC_IN_RECORDED | CC_IN_FILE) ? O_NONBLOCK : 0)); /* never waits on a FIFO swapped in */
			if (fd >= 0 || errno != EINTR)
				break;
			if (cc_stop_requested()) /* a FIFO's open waits for a writer */
				return stop_err(err);
		}
		if (fd < 0)
			return citcat_errinfo_set(err, CITCAT_ERR_IO, UINT64_MAX, "cannot open: %s", strerror(errno));
	}
	struct stat now;
	if (fstat(fd, &now) != 0) {
		int e = errno;
		close(fd);
		return citcat_errinfo_set(err, CITCAT_ERR_IO, UINT64_MAX, "cannot read: %s", strerror(e));
	}
	if (!piped && (flags & (CC_IN_RECORDED | CC_IN_FILE)) &&
	    (!S_ISREG(now.st_mode) || now.st_dev != st->st_dev || now.st_ino != st->st_ino)) {
		close(fd); /* replaced between the stat and the open */
		return citcat_errinfo_set(err, CITCAT_ERR_IO, UINT64_MAX, "changed while being opened: %s",
					  type_name(now.st_mode));
	}
	if (!piped && (flags & (CC_IN_RECORDED | CC_IN_FILE)))
		fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	*st = now;
	int rc = cc_guard_input(path, fd, err);
	if (rc) {
		close(fd);
		return rc;
	}
	return fd;
}

int cc_input_open_fd(const char *path, unsigned flags, int *fd, struct citcat_errinfo *err)
{
	*fd = -1;
	if (!path)
		return citcat_errinfo_set(err, CITCAT_ERR_INVAL, UINT64_MAX, "no path");
	struct stat st;
	int k = open_checked(path, flags & CC_IN_STREAM_FD ? flags : flags | CC_IN_FILE, NULL, &st, err);
	if (k < 0)
		return k;
	*fd = k;
	return 0;
}

int cc_input_open_flags(struct cc_input **out, const char *path, unsigned flags, struct citcat_errinfo *err)
{
	if (!out)
		return CITCAT_ERR_INVAL;
	*out = NULL;
	if (!path)
		return citcat_errinfo_set(err, CITCAT_ERR_INVAL, UINT64_MAX, "no path");
	struct cc_input *in = calloc(1, sizeof *in);
	if (!in)
		return citcat_errinfo_set(err, CITCAT_ERR_NOMEM, UINT64_MAX, "out of memory");
	in->err.offset = UINT64_MAX;
	in->raw = (flags & CC_IN_RAW) != 0;
	struct stat st;
	int fd = open_checked(path, flags, in, &st, err);
	if (fd < 0 && fd != STDIN_STREAM_FD) {
		int e = errno;
		free(in);
		errno = e;
		return fd;
	}
	in->fd = fd == STDIN_STREAM_FD ? -1 : fd;
	if (S_ISREG(st.st_mode)) {
		off_t at = lseek(in->fd, 0, SEEK_CUR);
		in->size = (uint64_t)st.st_size > (uint64_t)(at > 0 ? at : 0) ? (uint64_t)st.st_size - (uint64_t)(at > 0 ? at : 0) : 0;
		in->seekable = 1;
	}
	return opened(out, in, err);
}

int cc_input_open(struct cc_input **out, const char *path, struct citcat_errinfo *err)
{
	return cc_input_open_flags(out, path, 0, err);
}

int cc_input_open_mem(struct cc_input **out, const void *buf, size_t len, struct citcat_errinfo *err)
{
	static const uint8_t empty;
	if (!out)
		return CITCAT_ERR_INVAL;
	*out = NULL;
	if (!buf && len) /* (NULL, 0) is an empty input; a NULL buffer with bytes is a caller mistake */
		return citcat_errinfo_set(err, CITCAT_ERR_INVAL, UINT64_MAX, "NULL buffer of %zu bytes", len);
	struct cc_input *in = calloc(1, sizeof *in);
	if (!in)
		return citcat_errinfo_set(err, CITCAT_ERR_NOMEM, UINT64_MAX, "out of memory");
	in->err.offset = UINT64_MAX;
	in->fd = -1;
	in->mem = buf ? buf : &empty;
	in->memlen = buf ? len : 0;
	return opened(out, in, err);
}

int cc_input_wrap(const struct cc_input *in) { return in->tvp_trace ? CC_WRAP_TVP : in->wrap; }
uint64_t cc_input_size(const struct cc_input *in) { return in->wrap == CC_WRAP_NONE ? in->size : 0; }
uint64_t cc_input_offset(const struct cc_input *in) { return in->pos; }
const struct citcat_errinfo *cc_input_error(const struct cc_input *in) { return &in->err; }

void cc_input_close(struct cc_input *in)
{
	if (!in)
		return;
	if (in->fd >= 0 && !in->mem)
		close(in->fd);
	if (in->pipe) {
		pthread_mutex_lock(&si_mu);
		if (in->pipe->owner == in)
			in->pipe->owner = NULL;
		pthread_mutex_unlock(&si_mu);
	}
	LZ4F_freeDecompressionContext(in->lz4);
	ZSTD_freeDStream(in->zstd);
	if (in->xz_init)
		lzma_end(&in->xz);
	cc_tvp_bytes_free(in->tvp);
	free(in->ibuf);
	free(in->obuf);
	free(in);
}
