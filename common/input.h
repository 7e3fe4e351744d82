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
 * first". */
#ifndef CITCAT_INPUT_H
#define CITCAT_INPUT_H

#include "citcat.h"

#define CC_INPUT_BUF (64u << 10)
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
