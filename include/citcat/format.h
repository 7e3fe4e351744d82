/* libcitcat public API: the format registry, one table of every file format
 * citcat reads or writes, with its name, suffixes and how to recognise it
 * by its first bytes.  `citcat info`, `convert` and `dump` find formats
 * here; no command types a magic number or a suffix of its own.
 *
 * Recognition looks through an outer LZ4/zstd/xz/TVP wrapper (<citcat/io.h>):
 * RUN.cat.zst is a CAT, RUN.pdats2.lz4 a PDATS II trace.
 *
 * The entries are static and owned by the library; the ids are stable
 * within a major version (new formats are added before CITCAT_FMT_COUNT). */
#ifndef CITCAT_PUBLIC_FORMAT_H
#define CITCAT_PUBLIC_FORMAT_H

#include <citcat/base.h>

#ifdef __cplusplus
extern "C" {
#endif

enum citcat_format_id {
	CITCAT_FMT_NONE = 0,
	CITCAT_FMT_CAT,
	CITCAT_FMT_ITRACE,
	CITCAT_FMT_IMS,
	CITCAT_FMT_AES,
	CITCAT_FMT_LVT,
	CITCAT_FMT_DAF,
	CITCAT_FMT_WET,
	CITCAT_FMT_DIN,
	CITCAT_FMT_XDIN,
	CITCAT_FMT_PDATS,
	CITCAT_FMT_PDATS2,
	CITCAT_FMT_SDCLSP,
	CITCAT_FMT_TEXT,
	CITCAT_FMT_CHAMPSIM,
	CITCAT_FMT_COUNT
};

#define CITCAT_FMT_SUFFIXES 3

struct citcat_format {
	int id;             /* enum citcat_format_id */
	const char *name;   /* --from/--to name ("itrace", "pdats2", ...) */
	const char *what;   /* a few words for messages and help */
	/* file-name suffixes, the canonical one first, NULL-terminated; an
	 * outer .lz4/.zst/.xz may follow any of them */
	const char *suffixes[CITCAT_FMT_SUFFIXES + 1];
	/* 1 when the N unwrapped bytes at HEAD (N may be short at the end of a
	 * small file) start a file of this format; NULL for formats not
	 * recognisable by contents (the text listing) */
	int (*sniff)(const uint8_t *head, size_t n);
	int addr_fmt;       /* enum citcat_addr_fmt for din/xdin/pdats/pdats2, else 0 */
	unsigned flags;     /* CITCAT_FMT_F_* */
};

/* Contents may not tell (a text format): the suffix may name it. */
#define CITCAT_FMT_F_SUFFIX_NAMES 1u

/* Bytes of the unwrapped head every sniff function is given when the file
 * has that many. */
#define CITCAT_FMT_HEAD 64

/* The entry for ID, or NULL. */
CITCAT_API const struct citcat_format *citcat_format_get(int id);
/* The entry named NAME; a ':' and options may follow the name
 * ("sdclsp:r:32x4,128").  NULL when none (or NAME is NULL). */
CITCAT_API const struct citcat_format *citcat_format_by_name(const char *name);
/* The entry whose suffix ends PATH, an outer .lz4/.zst/.xz allowed after
 * it (*WRAP, may be NULL, gets the CITCAT_WRAP_* that suffix asks for).
 * NULL when none (or PATH is NULL). */
CITCAT_API const struct citcat_format *citcat_format_by_suffix(const char *path, int *wrap);
/* The format N unwrapped bytes at HEAD start, or NULL (also for a NULL HEAD). */
CITCAT_API const struct citcat_format *citcat_format_sniff(const uint8_t *head, size_t n);
/* Opens PATH ("-": standard input) through the input layer and recognises
 * its format by contents.  Returns 0 and *F (NULL when the file is of no
 * known format; *WRAP, may be NULL, gets its outer CITCAT_WRAP_*), or an
 * error with ERR (may be NULL) filled: CITCAT_ERR_INVAL (NULL PATH or F),
 * _IO (cannot open, with the reason), _EMPTY, _UNSUPPORTED ("compressed
 * with X; decompress first"), or a wrapper error. */
CITCAT_API int citcat_format_detect(const char *path, const struct citcat_format **f, int *wrap,
				    struct citcat_errinfo *err);
/* The same on N bytes at BUF (a file's beginning: a wrapper cut short
 * there is not an error as long as its head decodes). */
CITCAT_API int citcat_format_detect_mem(const void *buf, size_t n, const struct citcat_format **f, int *wrap,
					struct citcat_errinfo *err);

#ifdef __cplusplus
}
#endif

#endif
