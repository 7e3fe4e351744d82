/* libcitcat public API: the files of a program built on libcitcat, under
 * the rules the citcat tool follows (issue 29), so that a tool of your own
 * behaves as citcat's commands do:
 *
 * - Outputs appear only when complete (citcat_outfile_*): bytes go to a
 *   temporary file beside PATH, renamed onto PATH at commit, removed at
 *   abort, so a failed or interrupted run never leaves a partial file and
 *   never harms the file it would have replaced.  A replaced file keeps its
 *   mode and owner; a symbolic link is written through; a character device
 *   or FIFO is written straight through; PATH "-" is standard output.
 * - Inputs peel off an LZ4, zstd or xz wrapper, or a TVP container's mode 0,
 *   transparently (citcat_input_*), read "-" as standard input, refuse a
 *   directory, and stop at the stop flag.
 * - The same-file guard (off until citcat_guard_enable): no output may be
 *   one of the program's inputs or another of its outputs, whatever names
 *   they were given.
 * - The stop flag: a program's signal handler raises it; every long loop of
 *   the library (every read of an input, the replayers, the converters)
 *   then ends with CITCAT_ERR_INTERRUPTED, and its outputs are removed.
 *
 * Every function follows base.h's conventions: negative citcat_err codes,
 * errors in a struct citcat_errinfo naming the file and offset, no
 * printing, no exiting. */
#ifndef CITCAT_PUBLIC_IO_H
#define CITCAT_PUBLIC_IO_H

#include <citcat/base.h>

#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Output files ---------------------------------------------------- */

struct citcat_outfile;

/* Output wrappers (WRAP of citcat_outfile_open): plain bytes, one LZ4
 * frame (`lz4 -d` unwraps it), one zstd frame (`zstd -d`), a TVP container
 * in mode 0 (formats/TVP.md).  Or CITCAT_OUT_NOSYNC into WRAP for a scratch
 * file that is not fsync'ed at commit. */
#define CITCAT_OUT_PLAIN 0
#define CITCAT_OUT_LZ4 1
#define CITCAT_OUT_ZSTD 2
#define CITCAT_OUT_TVP 4
#define CITCAT_OUT_NOSYNC 0x100

/* Opens PATH for writing ("-": standard output; NULL: in memory, see
 * citcat_outfile_take).  Refuses (CITCAT_ERR_IO) a directory, a block
 * device, a socket, "", an unwritable file, and with the guard on an input
 * or another output of the program; an unknown WRAP is
 * CITCAT_ERR_UNSUPPORTED.  ERR (may be NULL) gets the detail. */
CITCAT_API int citcat_outfile_open(struct citcat_outfile **o, const char *path, int wrap,
				   struct citcat_errinfo *err);
/* Appends LEN bytes.  0 or an error code; errors are sticky and reported
 * with their reason by citcat_outfile_commit or citcat_outfile_errinfo. */
CITCAT_API int citcat_outfile_write(struct citcat_outfile *o, const void *buf, size_t len);
/* A byte sink with the signature the library's encoders take
 * (citcat_sdclsp_sink_fn and the like): CTX is the outfile. */
CITCAT_API int citcat_outfile_sink(void *ctx, const void *buf, size_t len);
/* Bytes handed to the file so far (after the wrapper's compression). */
CITCAT_API uint64_t citcat_outfile_bytes(const struct citcat_outfile *o);
/* Flushes, fsyncs, closes and renames into place; frees O.  On failure the
 * temporary file is removed and ERR says why ("writing PATH failed:
 * REASON").  After the stop flag went up, removes the file and fails with
 * CITCAT_ERR_INTERRUPTED unless citcat_outfile_commit_on_stop(1). */
CITCAT_API int citcat_outfile_commit(struct citcat_outfile *o, struct citcat_errinfo *err);
/* Removes the temporary file; frees O.  Accepts NULL. */
CITCAT_API void citcat_outfile_abort(struct citcat_outfile *o);
/* The close of a writer built on O: RC non-zero (the writer failed, WERR
 * says how, copied to ERR) removes the output, zero commits it.  Frees O.
 * Returns RC or citcat_outfile_commit's code. */
CITCAT_API int citcat_outfile_finish(struct citcat_outfile *o, int rc, const struct citcat_errinfo *werr,
				     struct citcat_errinfo *err);
/* After a failed write: fills ERR with the path and the first failed
 * write's reason and returns its code; 0 when O has no error. */
CITCAT_API int citcat_outfile_errinfo(const struct citcat_outfile *o, struct citcat_errinfo *err);
/* A stdio stream whose bytes go to O, for code that prints: fclose it
 * before committing or aborting O.  NULL when out of memory. */
CITCAT_API FILE *citcat_outfile_stream(struct citcat_outfile *o);
/* In-memory outfiles (PATH NULL): hands over the bytes (free them with
 * free()) and frees O. */
CITCAT_API int citcat_outfile_take(struct citcat_outfile *o, uint8_t **buf, size_t *len);
/* YES non-zero: commits go ahead after the stop flag went up (a capture,
 * whose output is valid up to an interruption). */
CITCAT_API void citcat_outfile_commit_on_stop(int yes);
/* Removes the temporary file of every output still being written.
 * Async-signal-safe: for a signal handler about to _exit. */
CITCAT_API void citcat_outfile_remove_temps(void);

/* ---- Input files ----------------------------------------------------- */

struct citcat_input;

/* Wrappers found around an input (citcat_input_wrap, citcat_wrap_*). */
#define CITCAT_WRAP_NONE 0
#define CITCAT_WRAP_LZ4 1
#define CITCAT_WRAP_ZSTD 2
#define CITCAT_WRAP_XZ 3
#define CITCAT_WRAP_TVP 4

/* FLAGS of citcat_input_open_flags. */
#define CITCAT_IN_RECORDED 2u /* a path recorded in a file: opened only when a regular file */
#define CITCAT_IN_RAW 4u      /* the bytes as stored: no wrapper is peeled off */

/* How "-" is read when standard input is a pipe: copied at its first open
 * into a temporary file (the default; every input that takes a file works
 * with it), or read as it comes, once (a command that streams its input). */
#define CITCAT_STDIN_SPOOL 0
#define CITCAT_STDIN_STREAM 1

/* Opens PATH ("-": standard input, which citcat_input_close leaves open).
 * CITCAT_ERR_IO (the reason), _UNSUPPORTED (a compressor citcat does not
 * read: "compressed with gzip; decompress first"), _NOMEM, _CORRUPT. */
CITCAT_API int citcat_input_open(struct citcat_input **in, const char *path, unsigned flags,
				 struct citcat_errinfo *err);
/* The same over LEN bytes at BUF, which must outlive the input. */
CITCAT_API int citcat_input_open_mem(struct citcat_input **in, const void *buf, size_t len,
				     struct citcat_errinfo *err);
/* Up to N bytes of the unwrapped stream: the count (fewer only at the end,
 * 0 at the end) or a negative error (sticky; citcat_input_error says
 * where). */
CITCAT_API long citcat_input_read(struct citcat_input *in, void *buf, size_t n);
/* Makes up to N (at most 64 KiB) bytes readable at *P without consuming
 * them: the count, or an error as citcat_input_read. */
CITCAT_API long citcat_input_peek(struct citcat_input *in, const uint8_t **p, size_t n);
/* The wrapper found (CITCAT_WRAP_*). */
CITCAT_API int citcat_input_wrap(const struct citcat_input *in);
/* Bytes of the unwrapped stream consumed so far. */
CITCAT_API uint64_t citcat_input_offset(const struct citcat_input *in);
/* The input's error (code, offset, message naming the file; code 0 while
 * there is none), or NULL for a NULL input. */
CITCAT_API const struct citcat_errinfo *citcat_input_error(const struct citcat_input *in);
/* Accepts NULL. */
CITCAT_API void citcat_input_close(struct citcat_input *in);
/* CITCAT_STDIN_SPOOL or CITCAT_STDIN_STREAM, before the first open of
 * "-". */
CITCAT_API void citcat_input_stdin_mode(int mode);
/* Standard input's size when it is a file or was copied into one; when
 * streamed, the bytes read from it so far. */
CITCAT_API uint64_t citcat_input_stdin_bytes(void);
/* "lz4", "zstd", "xz", "tvp", or NULL for CITCAT_WRAP_NONE or a bad
 * value. */
CITCAT_API const char *citcat_wrap_name(int wrap);
/* The wrapper a file name asks for by its last suffix (.lz4, .zst, .xz,
 * .tvp) or CITCAT_WRAP_NONE; *STEM_LEN (may be NULL) gets the length of
 * PATH without it. */
CITCAT_API int citcat_wrap_by_suffix(const char *path, size_t *stem_len);

/* ---- The same-file guard and the stop flag ---------------------------- */

/* Turns the guard on (ON non-zero) or off (the default).  When turned on
 * with standard output a regular file, that file counts as an output. */
CITCAT_API void citcat_guard_enable(int on);
/* Before a program opens anything, whether one of the NOUT outputs OUT
 * (NULL entries are skipped; "-" is standard output) is one of the NIN
 * inputs IN ("-": standard input) or an earlier output: by file identity
 * for names that exist (hard links, symbolic links, ./x and x), by
 * absolute name for new ones; a character device such as /dev/null never
 * clashes.  Returns 0 when all are distinct, 1 when OUT[*WHICH] is the
 * input IN[*OTHER], 2 when OUT[*WHICH] is the earlier output OUT[*OTHER],
 * CITCAT_ERR_INVAL for a NULL array with a non-zero count or a NULL WHICH
 * or OTHER.  The guard (citcat_guard_enable) checks the same at every open;
 * this lets a command refuse before it starts. */
CITCAT_API int citcat_guard_check(const char *const *in, size_t nin, const char *const *out, size_t nout,
				  size_t *which, size_t *other);
/* Raises the stop flag with SIG (non-zero).  Async-signal-safe. */
CITCAT_API void citcat_stop_request(int sig);
/* The value given to citcat_stop_request, or 0. */
CITCAT_API int citcat_stop_requested(void);
/* Lowers the flag. */
CITCAT_API void citcat_stop_clear(void);

#ifdef __cplusplus
}
#endif

#endif
