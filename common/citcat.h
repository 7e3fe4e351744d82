/* citcat: constructing instruction traces from cache-filtered address traces.
 *
 * Common definitions shared by every component of libcitcat: status codes,
 * the error-information record readers fill in, and version numbers.
 *
 * Conventions (all components):
 *  - Functions return int: negative is a citcat_err code, zero or positive
 *    is success and may carry a value (a count, a "more data" flag).
 *  - The library never prints and never exits; the command-line tool does.
 *  - Objects are opaque handles created by the open or alloc functions and released by
 *    the matching close or free function, which accepts NULL.
 */
#ifndef CITCAT_H
#define CITCAT_H

#include <stddef.h>
#include <stdint.h>

#define CITCAT_VERSION_STRING "0.1.0"

/* Status codes.  New codes are only ever appended. */
enum citcat_err {
	CITCAT_OK = 0,
	CITCAT_ERR_INVAL = -1,     /* caller mistake: bad argument            */
	CITCAT_ERR_NOMEM = -2,     /* allocation failed                       */
	CITCAT_ERR_IO = -3,        /* read/write/open failed (errno kept)     */
	CITCAT_ERR_MAGIC = -4,     /* not a file of the expected kind         */
	CITCAT_ERR_VERSION = -5,   /* unsupported format version              */
	CITCAT_ERR_TRUNCATED = -6, /* file ends early                         */
	CITCAT_ERR_CHECKSUM = -7,  /* checksum mismatch: corrupted data       */
	CITCAT_ERR_CORRUPT = -8,   /* malformed content                       */
	CITCAT_ERR_LIMIT = -9,     /* a size or count beyond the format's limit */
	CITCAT_ERR_EMPTY = -10,    /* empty file                              */
	CITCAT_ERR_UNICORN = -11,  /* the Unicorn engine reported an error    */
	CITCAT_ERR_TARGET = -12,   /* the modelled target stopped abnormally  */
	CITCAT_ERR_DIVERGED = -13, /* replay diverged from the recording      */
	CITCAT_ERR_UNSUPPORTED = -14, /* valid input that this build cannot handle */
	CITCAT_ERR_INTERNAL = -15, /* a bug in libcitcat                      */
	CITCAT_ERR_EOF = -16,      /* no more items (where not an error)      */
	CITCAT_ERR_INTERRUPTED = -17, /* the caller asked to stop (e.g. a signal) */
};

/* A human-readable description of a status code (never NULL). */
const char *citcat_errstr(int code);

/* Detail of the last error of a reader or writer: the code, the byte
 * offset in the file it concerns (or UINT64_MAX when no offset applies),
 * and a message naming what was wrong.  Owned by the object that filled it. */
struct citcat_errinfo {
	int code;
	uint64_t offset;
	char msg[200];
};

/* Fills E (when not NULL) with CODE, OFFSET and a formatted message;
 * returns CODE, so that `return citcat_errinfo_set(...)` reads naturally. */
int citcat_errinfo_set(struct citcat_errinfo *e, int code, uint64_t offset, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#endif
