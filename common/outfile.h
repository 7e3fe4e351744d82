/* An output file that appears only when complete: bytes go to PATH.tmp-XXXXXX
 * and the file is renamed to PATH on commit, or removed on abort, so a failed
 * or interrupted run never leaves a partial file.  That holds when PATH is a
 * new name or a regular file (through a symbolic link: the temporary file
 * goes beside the link's target and the link stays).  A character device, a
 * FIFO, or a descriptor path (/dev/stdout, /dev/fd/N, /proc/...) is written
 * straight through instead and never renamed onto or removed, so a failed
 * run may leave partial output there; a directory, a block device, a
 * socket, a dangling symbolic link and "" are refused with the reason
 * (strerror) in the message.  PATH "-" writes to standard output; PATH NULL
 * collects the bytes in memory (cc_outfile_take).  With WRAP CC_OUT_LZ4,
 * everything written is wrapped in one standard LZ4 frame (64 KiB blocks,
 * content checksum), so `lz4 -d` unwraps it; with CC_OUT_ZSTD in one zstd
 * frame (default level 3, content checksum), so `zstd -d` unwraps it.
 * common/input.h peels both off again.  Used by every citcat writer. */
#ifndef CITCAT_OUTFILE_H
#define CITCAT_OUTFILE_H

#include "citcat.h"

struct cc_outfile;

/* Output wrappers (the values of enum cc_wrap in input.h; 1 was the old
 * "lz4" flag, so 0/1 keep their meaning). */
#define CC_OUT_PLAIN 0
#define CC_OUT_LZ4 1
#define CC_OUT_ZSTD 2
#define CC_OUT_TVP 4 /* a TVP container, mode 0 (common/TVP.md); address-trace writers write mode 1 themselves */

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
/* Removes the temporary file of every outfile still being written (up to
 * 64 at once), leaving the outfiles themselves alone.  Async-signal-safe:
 * for a signal handler that is about to _exit (the CLI's second Ctrl-C). */
void cc_outfile_remove_temps(void);

#endif
