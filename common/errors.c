#include "citcat.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int citcat_errinfo_set(struct citcat_errinfo *e, int code, uint64_t offset, const char *fmt, ...)
{
	if (e && !fmt) {
		e->code = code;
		e->offset = offset;
		e->msg[0] = 0;
	} else if (e) {
		va_list ap;
		va_start(ap, fmt);
		e->code = code;
		e->offset = offset;
		vsnprintf(e->msg, sizeof e->msg, fmt, ap);
		va_end(ap);
	}
	return code;
}

int citcat_errinfo_vfirst(struct citcat_errinfo *e, int code, uint64_t offset, const char *fmt, va_list ap)
{
	if (!e->code) {
		e->code = code;
		e->offset = offset;
		vsnprintf(e->msg, sizeof e->msg, fmt, ap);
	}
	return e->code;
}

struct citcat_errinfo *cc_errinfo_start(struct citcat_errinfo *err, struct citcat_errinfo *dummy)
{
	if (!err)
		err = dummy;
	memset(err, 0, sizeof *err);
	err->offset = UINT64_MAX;
	return err;
}

int cc_run_start(struct citcat_errinfo **err, struct citcat_errinfo *dummy, void *res, size_t res_size)
{
	*err = cc_errinfo_start(*err, dummy);
	if (!res)
		return citcat_errinfo_set(*err, CITCAT_ERR_INVAL, UINT64_MAX, "no result struct");
	memset(res, 0, res_size);
	return 0;
}

const char *citcat_errstr(int code)
{
	switch (code) {
	case CITCAT_OK: return "success";
	case CITCAT_ERR_INVAL: return "invalid argument";
	case CITCAT_ERR_NOMEM: return "out of memory";
	case CITCAT_ERR_IO: return "input/output error";
	case CITCAT_ERR_MAGIC: return "not a file of the expected kind (bad magic)";
	case CITCAT_ERR_VERSION: return "unsupported format version";
	case CITCAT_ERR_TRUNCATED: return "file is truncated";
	case CITCAT_ERR_CHECKSUM: return "checksum mismatch (corrupted data)";
	case CITCAT_ERR_CORRUPT: return "malformed data";
	case CITCAT_ERR_LIMIT: return "size or count beyond the format's limits";
	case CITCAT_ERR_EMPTY: return "file is empty";
	case CITCAT_ERR_UNICORN: return "Unicorn engine error";
	case CITCAT_ERR_TARGET: return "target stopped abnormally";
	case CITCAT_ERR_DIVERGED: return "replay diverged from the recording";
	case CITCAT_ERR_UNSUPPORTED: return "unsupported";
	case CITCAT_ERR_INTERNAL: return "internal error";
	case CITCAT_ERR_EOF: return "end of data";
	case CITCAT_ERR_INTERRUPTED: return "interrupted";
	}
	return "unknown error";
}

const char *citcat_version(void) { return CITCAT_VERSION_STRING; }

int cc_config_from_user(void *dst, size_t dst_size, const void *user, size_t min_size)
{
	size_t size;
	if (!user)
		return CITCAT_ERR_INVAL;
	memcpy(&size, user, sizeof size);
	if (size < min_size || size < sizeof size)
		return CITCAT_ERR_INVAL;
	/* members the caller's (newer) struct has and we do not are ignored;
	 * members it lacks (an older struct) read as zero */
	if (size > dst_size)
		size = dst_size;
	memcpy(dst, user, size);
	memset((uint8_t *)dst + size, 0, dst_size - size);
	memcpy(dst, &size, sizeof size);
	return 0;
}
