/* citcat: constructing instruction traces from cache-filtered address traces.
 *
 * Internal header of libcitcat.  The public part (status codes, struct
 * citcat_errinfo, the conventions every function follows) is
 * <citcat/base.h>; this adds what only the library and its tools use.
 */
#ifndef CITCAT_H
#define CITCAT_H

#include <citcat/base.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

/* Fills E (when not NULL) with CODE, OFFSET and a formatted message;
 * returns CODE, so that `return citcat_errinfo_set(...)` reads naturally. */
int citcat_errinfo_set(struct citcat_errinfo *e, int code, uint64_t offset, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* First error wins: when E holds no error yet (code 0), fills it like
 * citcat_errinfo_set from FMT and AP; either way returns E's code, so a
 * later failure never hides the first one.  E must not be NULL. */
int citcat_errinfo_vfirst(struct citcat_errinfo *e, int code, uint64_t offset, const char *fmt, va_list ap)
	__attribute__((format(printf, 4, 0)));

/* Copies a caller's configuration struct USER (which starts with its
 * `size_t size`) into DST of DST_SIZE bytes with libipt's
 * pt_config_from_user rules: min(user size, DST_SIZE) bytes are copied, the
 * rest of DST is zeroed, and DST's size becomes the size copied.  Returns 0,
 * or CITCAT_ERR_INVAL for a NULL USER or a size below MIN_SIZE (the first
 * version of the struct). */
int cc_config_from_user(void *dst, size_t dst_size, const void *user, size_t min_size);

/* The start of a function that reports into an optional errinfo: ERR, or
 * DUMMY when ERR is NULL, cleared (no error, offset UINT64_MAX). */
struct citcat_errinfo *cc_errinfo_start(struct citcat_errinfo *err, struct citcat_errinfo *dummy);

/* The start of a run (replay, LVT decoding, WET building): *ERR as
 * cc_errinfo_start leaves it, and the caller's result struct RES
 * (RES_SIZE bytes) cleared.  Returns CITCAT_ERR_INVAL for a NULL RES. */
int cc_run_start(struct citcat_errinfo **err, struct citcat_errinfo *dummy, void *res, size_t res_size);

#endif
