/* The tool's half of the format registry (<citcat/format.h>): what each
 * command does with a format, indexed by the registry's id.  The library's
 * table says what a format is and how to recognise it; this one says which
 * function describes it (info).  NULL: the command does not handle it.
 * Conversion and dumping are the library's (citcat_convert,
 * citcat_dump_open: <citcat/convert.h>). */
#ifndef CITCAT_FORMATS_CLI_H
#define CITCAT_FORMATS_CLI_H

#include "cli.h"
#include <citcat/format.h>

struct cli_format {
	/* citcat info PATH [--json] */
	int (*info)(const char *path, const struct citcat_format *f, int json);
};

/* The entry for F (never NULL; all-NULL for a format no command handles). */
const struct cli_format *cli_format(const struct citcat_format *f);

/* Recognises PATH ("-": standard input, whose head is put back) by its
 * contents, through any outer wrapper; for a format whose contents may not
 * tell (din/xdin text), by its suffix.  Returns 0 with *F (NULL: of no known
 * format), or prints why PATH cannot be read (cannot open and the reason,
 * empty, "compressed with X; decompress first", a corrupt wrapper) and
 * returns EXIT_USAGE. */
int cli_detect(const char *path, const struct citcat_format **f);

/* The format version PATH ("-": standard input, whose head is put back)
 * carries, read from its unwrapped header (common/CONTAINER.md for the
 * container kinds, PDATS.md, PDATS2.md, SDCLSP.md), for `citcat info`:
 * a reader may accept older versions than the one citcat writes.  -1 when
 * it cannot be read or F's format has no version (din/xdin text). */
int cli_file_version(const char *path, const struct citcat_format *f);

#endif
