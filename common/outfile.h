/* The one output path (issue 29): every file citcat writes goes through an
 * outfile, which appears only when complete.  Bytes go to PATH.tmp-XXXXXX
 * in PATH's directory and the file is renamed to PATH on commit, or removed
 * on abort, so a failed, interrupted or disk-full run never leaves a
 * partial file and never harms the file it would have replaced.
 *
 * The rules, for every command:
 * - Same file.  An output that is one of the command's inputs (any name:
 *   hard link, symbolic link, ./x, standard input redirected from it) or
 *   another of its outputs is refused before a byte is written, whatever
 *   the order the files are opened in (guard.h; on in the CLI).
 * - Replacing.  The replaced file keeps its mode and owner (a 0600 file
 *   stays 0600); when its owner cannot be kept (another user's file in a
 *   directory this user may write) it is not replaced.  An existing file
 *   must be writable by this process (access(2) rules), as with `>`.
 * - Symbolic links.  A link to a regular file is written through: the
 *   kernel must let this process follow it and write its target (so
 *   fs.protected_symlinks applies, checked with faccessat, which follows
 *   the link as open does); the new contents replace the target (the
 *   temporary file goes beside the target), the link stays a link.  A
 *   dangling link is refused (it would create a file where the link
 *   points).  The final name must still be the file it was at open when
 *   the rename happens, else nothing is replaced.
 * - Special files.  A character device, a FIFO, or a descriptor path
 *   (/dev/stdout, /dev/fd/N, /proc/...) is written straight through and
 *   never renamed onto or removed, so a failed run may leave partial
 *   output there; a directory, a block device, a socket and "" are refused
 *   with the reason (strerror) in the message.  PATH "-" writes to
 *   standard output; PATH NULL collects the bytes in memory
 *   (cc_outfile_take).
 * - fsync policy.  On commit the temporary file is flushed and fsync'ed
 *   before the rename, so after a crash the name holds the old file or
 *   the whole new one, never a part; the directory is not fsync'ed (the
 *   rename itself may be lost in a crash: the old file is then still
 *   there).  Scratch files a command removes itself skip the fsync
 *   (CC_OUT_NOSYNC).
 * - Errors carry the path and the reason: "writing PATH failed: No space
 *   left on device".
 *
 * With WRAP CC_OUT_LZ4, everything written is wrapped in one standard LZ4
 * frame (64 KiB blocks, content checksum), so `lz4 -d` unwraps it; with
 * CC_OUT_ZSTD in one zstd frame (default level 3, content checksum), so
 * `zstd -d` unwraps it.  common/input.h peels both off again. */
#ifndef CITCAT_OUTFILE_H
#define CITCAT_OUTFILE_H

#include "citcat.h"

#include <stdio.h>

struct cc_outfile;

/* Output wrappers (the values of enum cc_wrap in input.h; 1 was the old
 * "lz4" flag, so 0/1 keep their meaning). */
#define CC_OUT_PLAIN 0
#define CC_OUT_LZ4 1
#define CC_OUT_ZSTD 2
#define CC_OUT_TVP 4 /* a TVP container, mode 0 (common/TVP.md); address-trace writers write mode 1 themselves */
/* Or'ed into WRAP: a scratch file, not fsync'ed at commit. */
#define CC_OUT_NOSYNC 0x100

/* Returns 0 or an error (ERR, if non-NULL, gets the detail); an unknown
 * WRAP is CITCAT_ERR_UNSUPPORTED. */
int cc_outfile_open(struct cc_outfile **o, const char *path, int wrap, struct citcat_errinfo *err);
/* Appends LEN bytes.  Returns 0 or an error code (sticky). */
int cc_outfile_write(struct cc_outfile *o, const void *buf, size_t len);
/* A byte-sink adapter with the signature encoders take: CTX is the outfile. */
int cc_outfile_sink(void *ctx, const void *buf, size_t len);
/* Bytes handed to the file so far (after LZ4, when framing). */
uint64_t cc_outfile_bytes(const struct cc_outfile *o);
/* Ends the frame, flushes, closes and renames into place; frees O.  On
 * failure the temporary file is removed.  Write errors (the first one's
 * errno) and close errors are reported here with their reason.  The rename
 * is refused if the final name has meanwhile become anything but a regular
 * file. */
int cc_outfile_commit(struct cc_outfile *o, struct citcat_errinfo *err);
/* Once the process's stop flag is up (common/stop.h: SIGINT, SIGTERM,
 * SIGHUP in the CLI) a commit removes the temporary file and fails with
 * CITCAT_ERR_INTERRUPTED, so an interrupted command replaces nothing,
 * whatever it does with the signal; YES non-zero (capture, whose outputs
 * are valid up to an interruption) commits as usual. */
void cc_outfile_commit_on_stop(int yes);
/* In-memory outfiles: ends the frame and hands over the bytes (free them
 * with free()); frees O. */
int cc_outfile_take(struct cc_outfile *o, uint8_t **buf, size_t *len);
/* Removes the temporary file (nothing is removed for straight-through
 * outputs); frees O.  Accepts NULL. */
void cc_outfile_abort(struct cc_outfile *o);
/* The close of a writer built on O: with RC non-zero (the writer failed;
 * WERR says how, copied to ERR, which may be NULL) the output is removed,
 * otherwise committed.  Frees O.  Returns RC or cc_outfile_commit's code. */
int cc_outfile_finish(struct cc_outfile *o, int rc, const struct citcat_errinfo *werr, struct citcat_errinfo *err);
/* After a failed cc_outfile_write: fills ERR with "PATH: writing failed:
 * REASON" (the first failed write's errno) and returns the error code; 0
 * when O has none. */
int cc_outfile_errinfo(const struct cc_outfile *o, struct citcat_errinfo *err);
/* A stdio stream whose bytes go to O (fopencookie), for code that prints:
 * fclose it (which flushes into O) before committing or aborting O.  A
 * write error of O makes the stream's writes fail with O's errno.  NULL
 * when out of memory. */
FILE *cc_outfile_stream(struct cc_outfile *o);
/* Removes the temporary file of every outfile still being written (up to
 * 64 at once), leaving the outfiles themselves alone.  Async-signal-safe:
 * for a signal handler that is about to _exit (the CLI's second Ctrl-C). */
void cc_outfile_remove_temps(void);

#endif
