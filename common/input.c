/* The input layer: see input.h. */
#include "input.h"
#include "tvp.h"

#include <errno.h>
#include <lz4frame.h>
#include <lzma.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zstd.h>
#include <zstd_errors.h>

struct cc_input {
	FILE *f;
	int own_f;
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
	__attribute__((format(printf, 4, 5)));
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

/* Raw bytes from the file or buffer: the count (0 at the end) or an error. */
static long raw_read(struct cc_input *in, uint8_t *dst, size_t n)
{
	if (in->mem) {
		size_t k = in->memlen - in->mempos < n ? in->memlen - in->mempos : n;
		memcpy(dst, in->mem + in->mempos, k);
		in->mempos += k;
		return (long)k;
	}
	size_t k = fread(dst, 1, n, in->f);
	if (k < n && ferror(in->f))
		return fail(in, CITCAT_ERR_IO, UINT64_MAX, "read failed: %s", strerror(errno));
	return (long)k;
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
		} else if (step <= (uint64_t)INT64_MAX && fseeko(in->f, (off_t)step, SEEK_CUR) == 0) {
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

int cc_input_open(struct cc_input **out, const char *path, struct citcat_errinfo *err)
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
	if (strcmp(path, "-") == 0) {
		in->f = stdin;
	} else if (!(in->f = fopen(path, "rb"))) {
		int e = errno;
		free(in);
		citcat_errinfo_set(err, CITCAT_ERR_IO, UINT64_MAX, "cannot open: %s", strerror(e));
		errno = e;
		return CITCAT_ERR_IO;
	} else {
		in->own_f = 1;
		struct stat st;
		if (fstat(fileno(in->f), &st) == 0 && S_ISDIR(st.st_mode)) {
			fclose(in->f);
			free(in);
			return citcat_errinfo_set(err, CITCAT_ERR_IO, UINT64_MAX, "cannot read: %s", strerror(EISDIR));
		}
		if (S_ISREG(st.st_mode))
			in->size = (uint64_t)st.st_size;
	}
	return opened(out, in, err);
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
	if (in->own_f)
		fclose(in->f);
	LZ4F_freeDecompressionContext(in->lz4);
	ZSTD_freeDStream(in->zstd);
	if (in->xz_init)
		lzma_end(&in->xz);
	cc_tvp_bytes_free(in->tvp);
	free(in->ibuf);
	free(in->obuf);
	free(in);
}
