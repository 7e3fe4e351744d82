/* TVP (trace value prediction) containers: common/TVP.md.
 *
 * A TVP file is a header and blocks of streams, each stream group packed
 * by one LZMA2 coder (liblzma) that persists from block to block, flushed
 * at every block's end so a block decodes on its own bytes and what came
 * before.  Mode 0 holds any file's bytes (one stream): the input layer
 * unwraps it like an LZ4, zstd or xz frame, and the output layer writes it
 * (RUN.cat.tvp).  Mode 1 holds an address trace as the streams of the
 * value-prediction model of formats/TVP_MODEL.md, which the address-trace
 * reader and writer (formats/addr.c) code themselves: the input layer
 * hands a mode-1 file's bytes over as they are.
 *
 * Streaming: a writer keeps one block of raw streams (up to
 * CC_TVP_BLOCK_MAX bytes each) and its coders; a reader one block and its
 * decoders (dictionaries at most CC_TVP_DICT_MAX bytes). */
#ifndef CITCAT_TVP_H
#define CITCAT_TVP_H

#include "citcat.h"

#define CC_TVP_MAGIC "\x89TVP"
#define CC_TVP_VERSION 1
#define CC_TVP_HDR_LEN 20
#define CC_TVP_BYTES 0 /* mode 0: a file's bytes */
#define CC_TVP_TRACE 1 /* mode 1: an address trace (formats/TVP_MODEL.md) */
#define CC_TVP_GROUPS 2
#define CC_TVP_STREAMS 8
#define CC_TVP_BLOCK_MAX (1u << 20)   /* raw bytes of one stream in one block */
#define CC_TVP_DICT_MAX (64u << 20)   /* the largest dictionary a reader accepts */

/* The 20-byte header's fields (TVP.md). */
struct cc_tvp_header {
	unsigned mode;
	unsigned dict_log[CC_TVP_GROUPS]; /* 0: the group is not used */
	uint8_t desc[8];                  /* mode 1: the trace descriptor; mode 0: zero */
};

/* How a writer packs one group: LZMA2 preset (0..9) with these changes. */
struct cc_tvp_group_opts {
	unsigned preset;
	unsigned dict_log;       /* dictionary 2^dict_log bytes, 12..26 */
	unsigned lc, lp, pb;     /* literal context / position bits */
	unsigned nice_len;       /* 0: the preset's */
	int fast;                /* LZMA_MODE_FAST and the hc4 match finder */
};

/* ---- writing ---- */

struct cc_tvp_writer;
typedef int (*cc_tvp_sink)(void *ctx, const void *buf, size_t len);

/* Starts a container for MODE (DESC for mode 1) written to SINK, NGROUPS (1
 * or 2) groups packed as OPTS say.  The header is written with the first
 * block (or the end).  Returns 0 or an error (ERR, may be NULL, gets the
 * detail). */
int cc_tvp_writer_open(struct cc_tvp_writer **w, unsigned mode, const uint8_t desc[8], unsigned ngroups,
		       const struct cc_tvp_group_opts *opts, cc_tvp_sink sink, void *ctx, struct citcat_errinfo *err);
/* Writes a block: COUNT (> 0: bytes in mode 0, references in mode 1) and
 * NS raw streams RAW[s] of LEN[s] bytes (at most CC_TVP_BLOCK_MAX each),
 * stream s packed in group GROUP[s] (streams of a group in stream order).
 * LAST: no block follows (a first block that is also the last gets
 * dictionaries no larger than its data). */
int cc_tvp_write_block(struct cc_tvp_writer *w, uint64_t count, unsigned ns, const uint8_t *const *raw,
		       const size_t *len, const unsigned *group, int last);
/* Writes the end block with the total count; the container is complete. */
int cc_tvp_write_end(struct cc_tvp_writer *w, uint64_t total);
const struct citcat_errinfo *cc_tvp_writer_error(const struct cc_tvp_writer *w);
/* Accepts NULL. */
void cc_tvp_writer_free(struct cc_tvp_writer *w);

/* ---- reading ---- */

struct cc_tvp_reader;
/* Reads up to N bytes of the container into BUF: the count (0 at its end)
 * or a negative error, with the detail already known to the caller. */
typedef long (*cc_tvp_source)(void *ctx, uint8_t *buf, size_t n);

/* Parses and checks the 20-byte header at HEAD (sniffed: the magic is
 * there).  Returns 0 with *H filled, or CITCAT_ERR_VERSION / _CORRUPT /
 * _CHECKSUM / _LIMIT (a dictionary above CC_TVP_DICT_MAX) with ERR set at
 * the field's offset. */
int cc_tvp_parse_header(const uint8_t *head, struct cc_tvp_header *h, struct citcat_errinfo *err);
/* Starts reading the blocks after the header H (already consumed from SRC,
 * whose next byte is at container offset CC_TVP_HDR_LEN). */
int cc_tvp_reader_open(struct cc_tvp_reader **r, const struct cc_tvp_header *h, cc_tvp_source src, void *ctx,
		       struct citcat_errinfo *err);
/* Reads the next block: returns 1 with *COUNT and its NS raw streams in
 * RAW[s], LEN[s] (valid until the next call; NS must be the mode's count),
 * 0 at the end block (*COUNT then the total), or an error: _TRUNCATED,
 * _CORRUPT, _CHECKSUM, _NOMEM, or the source's (*_error has it, with the
 * container offset of the block). */
int cc_tvp_read_block(struct cc_tvp_reader *r, unsigned ns, const unsigned *group, uint64_t *count,
		      const uint8_t **raw, size_t *len);
/* Container offset of the next block (for a model's error offsets). */
uint64_t cc_tvp_reader_offset(const struct cc_tvp_reader *r);
const struct citcat_errinfo *cc_tvp_reader_error(const struct cc_tvp_reader *r);
/* Accepts NULL. */
void cc_tvp_reader_free(struct cc_tvp_reader *r);

/* ---- mode 0 through the input and output layers ---- */

/* The mode byte of a TVP container whose first N bytes are at H, or -1
 * when H is not one. */
int cc_tvp_sniff_mode(const uint8_t *h, size_t n);

/* The writer's packing of mode 0: LZMA2 preset 6, 8 MiB dictionary. */
extern const struct cc_tvp_group_opts cc_tvp_bytes_opts;

/* A file's bytes in a mode-0 container, both ways. */
struct cc_tvp_bytes;
int cc_tvp_bytes_writer_open(struct cc_tvp_bytes **b, cc_tvp_sink sink, void *ctx, struct citcat_errinfo *err);
int cc_tvp_bytes_write(struct cc_tvp_bytes *b, const void *buf, size_t len);
/* The last block and the end block. */
int cc_tvp_bytes_finish(struct cc_tvp_bytes *b);
/* Reads and checks the header from SRC (container offset 0). */
int cc_tvp_bytes_reader_open(struct cc_tvp_bytes **b, cc_tvp_source src, void *ctx, struct citcat_errinfo *err);
/* Up to CAP bytes of the file into DST: the count, 0 at the end (the end
 * block checked), or an error (cc_tvp_bytes_error has it). */
long cc_tvp_bytes_read(struct cc_tvp_bytes *b, uint8_t *dst, size_t cap);
const struct citcat_errinfo *cc_tvp_bytes_error(const struct cc_tvp_bytes *b);
void cc_tvp_bytes_free(struct cc_tvp_bytes *b);

#endif
