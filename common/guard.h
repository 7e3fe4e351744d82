/* The process's file guard (issue 29): no output of a command may be one of
 * its inputs or another of its outputs, whatever names they were given
 * (hard links, symbolic links, ./x and x, standard input or output
 * redirected to the file).  Every input the input layer opens (input.h:
 * cc_input_open, cc_input_open_fd) is noted by (st_dev, st_ino) and path;
 * every output the output layer opens (outfile.h) is checked against them
 * and against the outputs still being written, and an input opened while an
 * output is being written is checked against that output, so the order in
 * which a command opens its files does not matter.  Inputs stay noted after
 * they are closed (a command may read a file whole, then write): an entry
 * counts while its path still names the same file, and not for a file the
 * command wrote itself (cc_guard_own).  Only regular files are
 * noted: devices and FIFOs store nothing that could be lost.
 *
 * Off until cc_guard_enable: the CLI turns it on for every command; a
 * library user that reads and rewrites one file on purpose leaves it off. */
#ifndef CITCAT_GUARD_H
#define CITCAT_GUARD_H

#include "citcat.h"

#include <sys/stat.h>

/* Turns the guard on (ON non-zero) or off.  When turned on with standard
 * output a regular file, that file counts as an output being written. */
void cc_guard_enable(int on);
int cc_guard_enabled(void);
/* Notes the input PATH ("-": standard input) opened as descriptor FD.
 * Refuses (CITCAT_ERR_IO, ERR filled) an input that is an output being
 * written. */
int cc_guard_input(const char *path, int fd, struct citcat_errinfo *err);
/* Before writing PATH: ST is the file it names now (NULL: a new name).
 * Refuses an output that is a noted input or another output being written;
 * otherwise notes it and sets *TOKEN for cc_guard_output_done. */
int cc_guard_output(const char *path, const struct stat *st, void **token, struct citcat_errinfo *err);
/* The output of TOKEN is committed or abandoned (accepts NULL). */
void cc_guard_output_done(void *token);
/* PATH is a file this process has just written whole (an outfile's
 * commit): reading it later and replacing it again is allowed, since
 * nothing the user had is lost (a benchmark's scratch file, replay --jobs'
 * segments). */
void cc_guard_own(const char *path);
/* Before a command opens anything: whether one of the NOUT outputs OUT
 * (NULL entries skipped; "-" is standard output) is one of the NIN inputs
 * IN ("-": standard input) or an earlier output, by (st_dev, st_ino) for
 * files that exist and by absolute name for new ones; character devices
 * never clash.  0: all distinct; 1: OUT[*WHICH] is IN[*OTHER]; 2:
 * OUT[*WHICH] is OUT[*OTHER]. */
int cc_guard_check(const char *const *in, size_t nin, const char *const *out, size_t nout, size_t *which,
		   size_t *other);
/* Forgets every input and output (for tests). */
void cc_guard_reset(void);

#endif
