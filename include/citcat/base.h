/* libcitcat public API: status codes, error information, the export macro.
 *
 * Conventions of every public function:
 *  - Functions return int: negative is a citcat_err code, zero or positive
 *    is success and may carry a value (1 = "an item was read", a count).
 *  - A NULL handle (or a NULL required pointer argument) is a caller mistake:
 *    CITCAT_ERR_INVAL from functions returning int; a NULL or zero result
 *    from accessors; no effect for close/free/abort.
 *  - Objects are opaque handles.  Every NAME_open / NAME_open_mem(&h, ...),
 *    reader or writer, follows one failure convention: it returns a
 *    negative code and sets *h (when h is not NULL) either to NULL - a NULL
 *    required argument, or no memory for the object - or to a handle that
 *    holds the error (read it with NAME_error: code, file offset, a message
 *    naming the file), and the caller releases *h with the matching
 *    close/abort in every case; those accept NULL.  Functions that take a
 *    struct citcat_errinfo * fill it instead (when not NULL).
 *  - Configuration structs start with a `size_t size` member that the
 *    caller sets to sizeof the struct it was compiled with (NAME_default()
 *    does it).  The library copies min(size, its own size) bytes and treats
 *    the members it knows but the caller did not as zero, so programs built
 *    against older or newer headers keep working (libipt's
 *    pt_config_from_user).  A size smaller than the first version of the
 *    struct is CITCAT_ERR_INVAL.
 *  - The library never prints and never exits. */
#ifndef CITCAT_PUBLIC_BASE_H
#define CITCAT_PUBLIC_BASE_H

#include <stddef.h>
#include <stdint.h>

#include <citcat/version.h>

/* Marks the functions libcitcat exports; the library is built with hidden
 * visibility, so everything else stays internal. */
#if defined(__GNUC__)
#define CITCAT_API __attribute__((visibility("default")))
#else
#define CITCAT_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

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

/* A human-readable description of a status code (never NULL; static
 * storage, not to be freed). */
CITCAT_API const char *citcat_errstr(int code);

/* The library's version, "MAJOR.MINOR.PATCH" (static storage): compare with
 * CITCAT_VERSION_STRING to detect a header/library mismatch. */
CITCAT_API const char *citcat_version(void);

/* Detail of the last error of a reader or writer: the code, the byte
 * offset in the file it concerns (or UINT64_MAX when no offset applies),
 * and a message naming what was wrong.  Owned by the object that filled it
 * (or by the caller, where a function takes a struct citcat_errinfo *). */
struct citcat_errinfo {
	int code;
	uint64_t offset;
	char msg[200];
};

/* Fills E (when not NULL) with CODE, OFFSET and a printf-formatted
 * message (a program built on libcitcat reporting its own errors the way
 * the library does).  Returns CODE. */
CITCAT_API int citcat_errinfo_set(struct citcat_errinfo *e, int code, uint64_t offset, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 4, 5)))
#endif
	;

#ifdef __cplusplus
}
#endif

#endif
