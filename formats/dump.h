/* Record dumpers: the records of a CAT, itrace, AES, IMS or address trace
 * (din, xdin, PDATS, PDATS II) handed one at a time, as named fields, to a
 * caller's sink.  The library never prints: `citcat dump` (cli/cmd_dump.c)
 * turns the fields into text, CSV or JSON Lines.  The columns of each kind
 * and what each record means: DUMP.md beside this file.
 *
 * Every dumper has the same signature (path + options + sink + error), so a
 * format table can hold them.  They stream: memory stays bounded by one
 * chunk (or one record) whatever the file's length, and records before
 * OPTS->FROM are decoded but not handed out. */
#ifndef CITCAT_DUMP_H
#define CITCAT_DUMP_H

#include "citcat.h"
#include <citcat/convert.h>

/* The record, schema and sink types are public: <citcat/convert.h>
 * (citcat_dump_open / citcat_dump_run pick the dumper by the file's format). */

struct citcat_dump_opts {
	size_t size;    /* sizeof(struct citcat_dump_opts) */
	uint64_t from;  /* first record number handed out */
	uint64_t count; /* records handed out at most (UINT64_MAX: all) */
	/* LVT and DAF: the program flow, an itrace of the same run (the
	 * capture's --oracle, or the one `citcat replay` regenerated), whose
	 * instructions tell which record comes next; NULL: none (the dumper
	 * then fails with CITCAT_ERR_INVAL; DUMP.md) */
	const char *itrace;
	/* SDC-LSP: the program image the stream decodes against (borrowed);
	 * NULL: none (CITCAT_ERR_INVAL) */
	const struct citcat_image *image;
};

/* Each returns 0 when the records asked for were handed out (a dump that
 * stops after COUNT records does not read the rest of the file, so a
 * corruption after them goes unnoticed), the sink's code, or a reader's
 * error with ERR filled (file offset and message). */
typedef int (*citcat_dump_fn)(const char *path, const struct citcat_dump_opts *opts,
			      const struct citcat_dump_sink *sink, struct citcat_errinfo *err);
int citcat_dump_cat(const char *path, const struct citcat_dump_opts *opts, const struct citcat_dump_sink *sink,
		    struct citcat_errinfo *err);
int citcat_dump_itrace(const char *path, const struct citcat_dump_opts *opts, const struct citcat_dump_sink *sink,
		       struct citcat_errinfo *err);
int citcat_dump_aes(const char *path, const struct citcat_dump_opts *opts, const struct citcat_dump_sink *sink,
		    struct citcat_errinfo *err);
int citcat_dump_ims(const char *path, const struct citcat_dump_opts *opts, const struct citcat_dump_sink *sink,
		    struct citcat_errinfo *err);
/* din, xdin, PDATS or PDATS II, plain or in an LZ4 frame, recognised by
 * their first bytes as citcat_addr_reader_open does. */
int citcat_dump_addr(const char *path, const struct citcat_dump_opts *opts, const struct citcat_dump_sink *sink,
		     struct citcat_errinfo *err);

/* LVT and DAF: the records in the order OPTS->ITRACE's instructions consume
 * them (DUMP.md); CITCAT_ERR_INVAL without OPTS->ITRACE, CITCAT_ERR_CORRUPT
 * when a record does not fit the flow (not the same run). */
int citcat_dump_lvt(const char *path, const struct citcat_dump_opts *o, const struct citcat_dump_sink *s,
		    struct citcat_errinfo *err);
int citcat_dump_daf(const char *path, const struct citcat_dump_opts *o, const struct citcat_dump_sink *s,
		    struct citcat_errinfo *err);
/* SDC-LSP: one record per stream, decoded with OPTS->IMAGE (CITCAT_ERR_INVAL
 * without it). */
int citcat_dump_sdclsp(const char *path, const struct citcat_dump_opts *o, const struct citcat_dump_sink *s,
		       struct citcat_errinfo *err);

#endif
