/* The public face of common/'s files, guard, stop flag and escaping
 * (include/citcat/io.h, escape.h).  The library itself calls the cc_ functions; these
 * are what a program built on libcitcat (the CLI among them) calls.  A
 * struct citcat_outfile * is a struct cc_outfile * under its public name,
 * and likewise for inputs: the handles are opaque, so the casts only ever
 * convert a pointer back to the type it was made as. */
#include <citcat/escape.h>
#include <citcat/io.h>

#include "escape.h"
#include "guard.h"
#include "input.h"
#include "outfile.h"
#include "stop.h"

_Static_assert(CITCAT_OUT_PLAIN == CC_OUT_PLAIN && CITCAT_OUT_LZ4 == CC_OUT_LZ4 && CITCAT_OUT_ZSTD == CC_OUT_ZSTD &&
		       CITCAT_OUT_TVP == CC_OUT_TVP && CITCAT_OUT_NOSYNC == CC_OUT_NOSYNC,
	       "public output wrappers are outfile.h's");
_Static_assert(CITCAT_WRAP_NONE == CC_WRAP_NONE && CITCAT_WRAP_LZ4 == CC_WRAP_LZ4 && CITCAT_WRAP_ZSTD == CC_WRAP_ZSTD &&
		       CITCAT_WRAP_XZ == CC_WRAP_XZ && CITCAT_WRAP_TVP == CC_WRAP_TVP,
	       "public input wrappers are input.h's");
_Static_assert(CITCAT_IN_RECORDED == CC_IN_RECORDED && CITCAT_IN_RAW == CC_IN_RAW, "public input flags are input.h's");
_Static_assert(CITCAT_STDIN_SPOOL == CC_STDIN_SPOOL && CITCAT_STDIN_STREAM == CC_STDIN_STREAM,
	       "public stdin modes are input.h's");

#define OUT(o) ((struct cc_outfile *)(o))
#define COUT(o) ((const struct cc_outfile *)(o))
#define IN(i) ((struct cc_input *)(i))
#define CIN(i) ((const struct cc_input *)(i))

int citcat_outfile_open(struct citcat_outfile **o, const char *path, int wrap, struct citcat_errinfo *err)
{
	struct cc_outfile *f = NULL;
	int rc;

	if (!o)
		return citcat_errinfo_set(err, CITCAT_ERR_INVAL, 0, "citcat_outfile_open: no handle pointer");
	rc = cc_outfile_open(&f, path, wrap, err);
	*o = (struct citcat_outfile *)f;
	return rc;
}

int citcat_outfile_write(struct citcat_outfile *o, const void *buf, size_t len)
{
	return o ? cc_outfile_write(OUT(o), buf, len) : CITCAT_ERR_INVAL;
}

int citcat_outfile_sink(void *ctx, const void *buf, size_t len)
{
	return ctx ? cc_outfile_sink(ctx, buf, len) : CITCAT_ERR_INVAL;
}

uint64_t citcat_outfile_bytes(const struct citcat_outfile *o)
{
	return o ? cc_outfile_bytes(COUT(o)) : 0;
}

int citcat_outfile_commit(struct citcat_outfile *o, struct citcat_errinfo *err)
{
	return o ? cc_outfile_commit(OUT(o), err) : CITCAT_ERR_INVAL;
}

void citcat_outfile_abort(struct citcat_outfile *o)
{
	cc_outfile_abort(OUT(o));
}

int citcat_outfile_finish(struct citcat_outfile *o, int rc, const struct citcat_errinfo *werr,
			  struct citcat_errinfo *err)
{
	return o ? cc_outfile_finish(OUT(o), rc, werr, err) : CITCAT_ERR_INVAL;
}

int citcat_outfile_errinfo(const struct citcat_outfile *o, struct citcat_errinfo *err)
{
	return o ? cc_outfile_errinfo(COUT(o), err) : CITCAT_ERR_INVAL;
}

FILE *citcat_outfile_stream(struct citcat_outfile *o)
{
	return o ? cc_outfile_stream(OUT(o)) : NULL;
}

int citcat_outfile_take(struct citcat_outfile *o, uint8_t **buf, size_t *len)
{
	return o && buf && len ? cc_outfile_take(OUT(o), buf, len) : CITCAT_ERR_INVAL;
}

void citcat_outfile_commit_on_stop(int yes)
{
	cc_outfile_commit_on_stop(yes);
}

void citcat_outfile_remove_temps(void)
{
	cc_outfile_remove_temps();
}

int citcat_input_open(struct citcat_input **in, const char *path, unsigned flags, struct citcat_errinfo *err)
{
	struct cc_input *i = NULL;
	int rc;

	if (!in)
		return citcat_errinfo_set(err, CITCAT_ERR_INVAL, 0, "citcat_input_open: no handle pointer");
	rc = cc_input_open_flags(&i, path, flags, err);
	*in = (struct citcat_input *)i;
	return rc;
}

int citcat_input_open_mem(struct citcat_input **in, const void *buf, size_t len, struct citcat_errinfo *err)
{
	struct cc_input *i = NULL;
	int rc;

	if (!in)
		return citcat_errinfo_set(err, CITCAT_ERR_INVAL, 0, "citcat_input_open_mem: no handle pointer");
	rc = cc_input_open_mem(&i, buf, len, err);
	*in = (struct citcat_input *)i;
	return rc;
}

long citcat_input_read(struct citcat_input *in, void *buf, size_t n)
{
	return in ? cc_input_read(IN(in), buf, n) : CITCAT_ERR_INVAL;
}

long citcat_input_peek(struct citcat_input *in, const uint8_t **p, size_t n)
{
	return in && p ? cc_input_peek(IN(in), p, n) : CITCAT_ERR_INVAL;
}

int citcat_input_wrap(const struct citcat_input *in)
{
	return in ? cc_input_wrap(CIN(in)) : CITCAT_ERR_INVAL;
}

uint64_t citcat_input_offset(const struct citcat_input *in)
{
	return in ? cc_input_offset(CIN(in)) : 0;
}

const struct citcat_errinfo *citcat_input_error(const struct citcat_input *in)
{
	return in ? cc_input_error(CIN(in)) : NULL;
}

void citcat_input_close(struct citcat_input *in)
{
	cc_input_close(IN(in));
}

void citcat_input_stdin_mode(int mode)
{
	cc_input_stdin_mode(mode);
}

uint64_t citcat_input_stdin_bytes(void)
{
	return cc_input_stdin_bytes();
}

const char *citcat_wrap_name(int wrap)
{
	return cc_wrap_name(wrap);
}

int citcat_wrap_by_suffix(const char *path, size_t *stem_len)
{
	return path ? cc_wrap_by_suffix(path, stem_len) : CITCAT_WRAP_NONE;
}

void citcat_guard_enable(int on)
{
	cc_guard_enable(on);
}

int citcat_guard_check(const char *const *in, size_t nin, const char *const *out, size_t nout, size_t *which,
		       size_t *other)
{
	if ((!in && nin) || (!out && nout) || !which || !other)
		return CITCAT_ERR_INVAL;
	return cc_guard_check(in, nin, out, nout, which, other);
}

void citcat_stop_request(int sig)
{
	cc_stop_request(sig);
}

int citcat_stop_requested(void)
{
	return cc_stop_requested();
}

void citcat_stop_clear(void)
{
	cc_stop_clear();
}

_Static_assert((int)CITCAT_ESC_JSON == (int)CC_ESC_JSON && (int)CITCAT_ESC_CSV == (int)CC_ESC_CSV &&
		       (int)CITCAT_ESC_TEXT == (int)CC_ESC_TEXT,
	       "public escaping styles are escape.h's");

size_t citcat_escape(int style, const char *s, size_t len, char *out, size_t cap)
{
	if (style < CITCAT_ESC_JSON || style > CITCAT_ESC_TEXT || (!s && len) || (!out && cap)) {
		if (out && cap)
			out[0] = 0;
		return 0;
	}
	return cc_escape((enum cc_esc)style, s ? s : "", s ? len : 0, out, cap);
}
