/* The input layer: one byte source for every citcat reader.  It reads a
 * path, standard input ("-") or a memory buffer, and peels off an outer
 * compression wrapper transparently: an LZ4 frame (liblz4's frame API), a
 * zstd frame (libzstd) or an xz stream (liblzma), each possibly several
 * concatenated as their command-line tools allow.  What is inside is any
 * citcat file (RUN.cat.zst, RUN.pdats2.lz4, RUN.din.xz).
 *
 * Streaming: decoding is incremental through two buffers of CC_INPUT_BUF
 * bytes (plus the decompressor's own window: up to 128 MiB for zstd, the
 * library default limit, and at most CC_INPUT_XZ_MEMLIMIT for xz), never
 * the whole file.
 *
 * Offsets: reads and cc_input_offset count bytes of the unwrapped stream,
 * so a reader's error offsets mean the same with or without a wrapper.  An
 * error in the wrapper itself (corrupt or truncated compressed data) names
 * the offset in the compressed file.
 *
 * A file compressed with something citcat does not read (gzip, bzip2, zip,
 * 7-Zip, lzip, compress, LZ4's legacy format) is refused at open with
 * CITCAT_ERR_UNSUPPORTED and the message "compressed with X; decompress
 * first".
 *
 * The rules every input follows (issue 29), whichever reader opens it:
 * - Kinds of file.  A directory is refused.  A path the user gave may name
 *   a FIFO (read once, exactly as standard input below: its open waits for
 *   a writer, and Ctrl-C ends the wait) or a character device (read as a
 *   stream).  A reader that seeks or maps (CC_IN_FILE: ELF files, WETs,
 *   segment bundles) takes a regular file, a FIFO or "-" (both copied
 *   first), and refuses a device, before opening it.  A path recorded
 *   inside a file (CC_IN_RECORDED: the firmware a CAT names) is opened only
 *   when it names a regular file: its kind is checked first, and the open
 *   cannot block, so a crafted file cannot make citcat wait on a FIFO or
 *   open a device.
 * - Standard input ("-") and FIFOs.  When it is a regular file (`< FILE`), every open
 *   of "-" reads it from its start, with an offset of its own, as often as
 *   a command needs.  When it is a pipe (or a FIFO, a terminal), it is
 *   copied at its first open into an unlinked temporary file in $TMPDIR
 *   (default /tmp) that then stands for it, so "-" works for every input
 *   that takes a file, those read twice or by seeking included; a command
 *   that reads its input once as a stream asks for streaming instead
 *   (cc_input_stdin_mode): the pipe is read as it comes, nothing is
 *   copied, and only its first CC_INPUT_STDIN_REPLAY bytes can be read
 *   again (recognising the format, then reading it).
 * - Same file.  Every regular file opened is noted by the file guard
 *   (guard.h): an input that is an output the command is writing is
 *   refused, and so is an output that is an input.
 * - Stop.  Every read polls the process's stop flag (stop.h), and a read
 *   that a signal interrupts (EINTR) is resumed unless the flag is up:
 *   then the input fails with CITCAT_ERR_INTERRUPTED ("interrupted"), so a
 *   reader blocked on a pipe or a FIFO stops at Ctrl-C like a busy one.
 * - Size.  Decoding is incremental (above); readers bound what they
 *   allocate by what the file holds, not by what its header claims. */
#ifndef CITCAT_INPUT_H
#define CITCAT_INPUT_H

#include "citcat.h"

#define CC_INPUT_BUF (64u << 10)
#define CC_INPUT_STDIN_REPLAY (256u << 10)

/* How an input is opened (cc_input_open_flags, cc_input_open_fd). */
#define CC_IN_FILE 1u     /* read by seeking or mapping: a regular file only */
#define CC_IN_RECORDED 2u /* a path recorded in a file, not given by the user */
#define CC_IN_RAW 4u      /* the bytes as stored: no wrapper is peeled off */
#define CC_IN_STREAM_FD 8u /* cc_input_open_fd: a descriptor read as a stream (not CC_IN_FILE) */

/* Standard input handling for the process (see the rules above). */
#define CC_STDIN_SPOOL 0  /* default: a pipe is copied at its first open */
#define CC_STDIN_STREAM 1 /* a pipe is read as it comes, once */
#define CC_INPUT_XZ_MEMLIMIT (256u << 20)

enum cc_wrap {
	CC_WRAP_NONE = 0,
	CC_WRAP_LZ4 = 1,  /* LZ4 frame, magic 04 22 4d 18 */
	CC_WRAP_ZSTD = 2, /* zstd frame, magic 28 b5 2f fd */
	CC_WRAP_XZ = 3,   /* xz stream, magic fd 37 7a 58 5a 00 */
	CC_WRAP_TVP = 4,  /* TVP container, magic 89 54 56 50 (common/TVP.md): mode 0 is unwrapped,
			   * mode 1 (an address-trace model) passes through for formats/addr.c */
};

struct cc_input;

/* Opens PATH ("-" = standard input, not closed by cc_input_close).  Fails
 * with CITCAT_ERR_IO (cannot open: the reason), _UNSUPPORTED (a compressor
 * citcat does not read), _NOMEM, or a wrapper error (_CORRUPT) when the
 * first bytes of a wrapper are already bad.  An empty file opens; its first
 * read returns 0.  ERR (may be NULL) gets the detail. */
int cc_input_open(struct cc_input **in, const char *path, struct citcat_errinfo *err);
/* The same under FLAGS (CC_IN_*). */
int cc_input_open_flags(struct cc_input **in, const char *path, unsigned flags, struct citcat_errinfo *err);
/* For readers that need a descriptor (seek, mmap, libelf): a read-only
 * descriptor of PATH in *FD (the caller closes it), under the rules above
 * with CC_IN_FILE implied ("-": standard input, copied first when it is a
 * pipe), unless FLAGS has CC_IN_STREAM_FD: then a FIFO or device the user
 * named is opened too, and "-" in a streaming command is standard input
 * itself (read once).  0 or an error (ERR filled, *FD -1). */
int cc_input_open_fd(const char *path, unsigned flags, int *fd, struct citcat_errinfo *err);
/* CC_STDIN_SPOOL or CC_STDIN_STREAM, before the first open of "-". */
void cc_input_stdin_mode(int mode);
/* The size of standard input when it is a file (or was copied into one),
 * from where it stood at its first open; when streamed, the bytes read
 * from it so far (its size once a reader reached its end). */
uint64_t cc_input_stdin_bytes(void);
/* The same over LEN bytes at BUF, which must outlive the input. */
int cc_input_open_mem(struct cc_input **in, const void *buf, size_t len, struct citcat_errinfo *err);
/* Reads up to N bytes of the unwrapped stream into BUF.  Returns the bytes
 * read (fewer than N only at the end of the stream; 0 at the end) or a
 * negative error (even when bytes came before it): _IO, _CORRUPT (bad compressed data), _TRUNCATED (the
 * wrapper ends inside a frame), _LIMIT (xz needs more memory than allowed),
 * _NOMEM; cc_input_error has the detail.  Errors are sticky. */
long cc_input_read(struct cc_input *in, void *buf, size_t n);
/* Skips N bytes of the unwrapped stream as cc_input_read would consume
 * them, without copying: a plain regular file or a buffer seeks (never past
 * its end), a wrapper or a pipe reads and drops.  Returns the bytes skipped
 * (fewer than N only at the end) or a negative error as cc_input_read. */
long long cc_input_skip(struct cc_input *in, uint64_t n);
/* Makes up to N (at most CC_INPUT_BUF) bytes of the unwrapped stream
 * readable at *P without consuming them; returns how many (fewer only at
 * the end or before an error, which the next read returns instead of any
 * bytes) or an error as cc_input_read. */
long cc_input_peek(struct cc_input *in, const uint8_t **p, size_t n);
/* The wrapper found (enum cc_wrap). */
int cc_input_wrap(const struct cc_input *in);
/* Size of the unwrapped stream when known without reading it (a plain
 * regular file or memory buffer), else 0. */
uint64_t cc_input_size(const struct cc_input *in);
/* Bytes of the unwrapped stream consumed so far. */
uint64_t cc_input_offset(const struct cc_input *in);
const struct citcat_errinfo *cc_input_error(const struct cc_input *in);
/* Accepts NULL. */
void cc_input_close(struct cc_input *in);

/* "lz4", "zstd", "xz", "tvp" or NULL (CC_WRAP_NONE or a bad value). */
const char *cc_wrap_name(int wrap);
/* The wrapper the first N bytes start, or CC_WRAP_NONE. */
int cc_wrap_sniff(const uint8_t *head, size_t n);
/* The name of a compressor citcat does not read whose magic starts HEAD
 * ("gzip", "bzip2", ...), or NULL. */
const char *cc_wrap_foreign(const uint8_t *head, size_t n);
/* The wrapper a file name asks for by its last suffix (.lz4, .zst, .xz, .tvp),
 * or CC_WRAP_NONE; *STEM_LEN (may be NULL) gets the length of PATH without
 * that suffix. */
int cc_wrap_by_suffix(const char *path, size_t *stem_len);

#endif
