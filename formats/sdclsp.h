/* SDC-LSP program-flow trace streams (Milenkovic, Uzelac, Milenkovic,
 * Burtscher: "Caches and Predictors for Real-time, Unobtrusive, and
 * Cost-Effective Program Tracing in Embedded Systems").
 *
 * An encoder turns the instruction sequence of an itrace (PC and instruction
 * word of every retired instruction, plus interrupt entries) into a bit
 * stream of stream-descriptor-cache (SDC) and last-stream-predictor (LSP)
 * events; a decoder rebuilds the exact instruction address sequence from that
 * stream and the program image.  Byte and bit layout: SDCLSP.md beside this
 * file.
 *
 * Both sides keep the same model (SDC, LSP, history, LVSA, AOLC) and update
 * it through the same code, so they cannot drift apart.
 *
 * Return values follow citcat.h: negative citcat_err codes, details in the
 * object's citcat_errinfo. */
#ifndef CITCAT_SDCLSP_H
#define CITCAT_SDCLSP_H

#include "citcat.h"
#include "image.h"

#define SDCLSP_VERSION 1
#define SDCLSP_MAGIC "CSDC\r\n\x1a\n"
#define SDCLSP_HEADER_LEN 40
#define SDCLSP_TRAILER_LEN 68
#define SDCLSP_BLOCK_MAX 65536 /* largest block payload, bytes */
#define SDCLSP_MAX_SL_LIMIT 65536
#define SDCLSP_MAX_HIST 8
#define SDCLSP_AOLC_MAX_BITS 8

enum sdclsp_variant {
	SDCLSP_B = 1, /* bSDC-LSP: table 2 records */
	SDCLSP_E = 2, /* eSDC-LSP: + LVSA on miss records, adaptive one-length counter */
	SDCLSP_R = 3, /* rSDC-LSP: + upper SA bits only in a per-stream LVSA, not in the SDC */
};

enum sdclsp_repl {
	SDCLSP_REPL_MRU = 0,  /* pseudo-LRU with MRU bits (default) */
	SDCLSP_REPL_LRU = 1,
	SDCLSP_REPL_FIFO = 2,
};

/* Flags of the configuration. */
#define SDCLSP_FLAG_SA_ALWAYS 1u /* every SDC miss carries the SA (the paper's figure 4 assumption) */

/* Everything the decoder needs besides the program image; it is stored in
 * the stream header.  Initialise with sdclsp_config_init. */
struct sdclsp_config {
	size_t size;      /* sizeof(struct sdclsp_config) */
	uint8_t variant;  /* enum sdclsp_variant */
	uint8_t repl;     /* enum sdclsp_repl */
	uint8_t flags;    /* SDCLSP_FLAG_* */
	uint8_t shift;    /* set index = ((SA >> shift) ^ SL) & (n_set - 1); 0..31 */
	uint8_t u;        /* LVSA width in upper address bits (e, r); 1..29 */
	uint8_t hist;     /* LSP history depth, 1..SDCLSP_MAX_HIST */
	uint32_t n_set;   /* power of two, 1..65536 */
	uint32_t n_way;   /* power of two, 1..256; n_set * n_way >= 2, <= 65536 */
	uint32_t n_p;     /* LSP entries, power of two, 1..65536 */
	uint32_t max_sl;  /* longest stream, 1..SDCLSP_MAX_SL_LIMIT */
};

/* Defaults of VARIANT: [32x4, 128], shift 4, MRU, history 1, max SL 256,
 * u = 14 for e and 12 for r (unused by b). */
int sdclsp_config_init(struct sdclsp_config *c, enum sdclsp_variant variant);
/* Parses "sdclsp[:b|e|r][:SETSxWAYS,NP]" (variant default r); also accepts
 * extra ":key=value" items: shift, u, maxsl, hist, repl=mru|lru|fifo,
 * sa=always.  Returns 0 or CITCAT_ERR_INVAL with a message in ERR. */
int sdclsp_config_parse(struct sdclsp_config *c, const char *spec, struct citcat_errinfo *err);
/* Checks every field; 0 or CITCAT_ERR_INVAL with a message in ERR. */
int sdclsp_config_check(const struct sdclsp_config *c, struct citcat_errinfo *err);
const char *sdclsp_variant_name(int variant); /* "b", "e", "r" or "?" */

/* Counters kept by the encoder (and written in the trailer). */
struct sdclsp_stats {
	uint64_t instructions; /* instructions encoded */
	uint64_t streams;      /* stream descriptors */
	uint64_t interrupts;   /* interrupt records seen (not stored in the file) */
	uint64_t bits;         /* bits of the record stream */
	uint64_t sdc_hits;     /* streams that hit in the SDC */
	uint64_t lsp_hits;     /* streams that hit in the LSP (hence the SDC) */
	uint64_t msdc_bits;    /* bits of LSP-miss SDC-miss records (mSDCt) */
	uint64_t hsdc_bits;    /* bits of LSP-miss SDC-hit records (hSDCt) */
	uint64_t hlsp_bits;    /* bits of LSP-hit records (hLSPt) */
	/* Baselines of section 4.1 over the same descriptor sequence (encoder
	 * only, not stored): fBASE (SA, SL) always; BASE (SA/-, SL); NEXS. */
	uint64_t fbase_bits, base_bits, nexs_bits;
	uint64_t explicit_sa;  /* streams whose SA the decoder cannot infer */
};

/* One record as emitted, for tests and tools (see sdclsp_encoder_set_record_cb). */
struct sdclsp_record {
	uint8_t lsp_hit;   /* 1: h = '1' (b: one stream; e/r: RUN streams) */
	uint8_t sdc_hit;   /* LSP miss: 1 when SI != 0 */
	uint8_t sa_present; /* SDC miss: the SA field is in the record */
	uint32_t si;       /* stream index (0 on an SDC miss) */
	uint32_t sa, sl;   /* the descriptor (also for hits) */
	uint32_t run;      /* e/r LSP-hit run records: streams covered */
	uint32_t bits;     /* record length in bits */
};

/* Where encoded bytes go: returns 0 or a negative code. */
typedef int (*sdclsp_sink_fn)(void *ctx, const void *buf, size_t len);
typedef void (*sdclsp_record_fn)(void *ctx, const struct sdclsp_record *rec);

struct sdclsp_encoder;

/* Creates an encoder writing the header at once through SINK (NULL: count
 * only, nothing written; used by benchmarks).  Returns 0 or an error. */
int sdclsp_encoder_alloc(struct sdclsp_encoder **e, const struct sdclsp_config *c, sdclsp_sink_fn sink,
			 void *ctx);
void sdclsp_encoder_free(struct sdclsp_encoder *e);
void sdclsp_encoder_set_record_cb(struct sdclsp_encoder *e, sdclsp_record_fn fn, void *ctx);
/* Called with every stream descriptor the stream detector produces;
 * INFERABLE is 1 when the decoder can infer SA (benchmarks feed the
 * filtered descriptor sequence (SA/-, SL) to general-purpose compressors). */
typedef void (*sdclsp_stream_fn)(void *ctx, uint32_t sa, uint32_t sl, int inferable);
void sdclsp_encoder_set_stream_cb(struct sdclsp_encoder *e, sdclsp_stream_fn fn, void *ctx);
/* Feeds one retired ARM A32 instruction.  CITCAT_ERR_UNSUPPORTED for a BLX
 * to Thumb; CITCAT_ERR_INVAL for a PC above 32 bits or not word aligned. */
int sdclsp_encode_insn(struct sdclsp_encoder *e, uint64_t pc, uint32_t word);
/* Feeds an interrupt entry (between the last instruction executed and the
 * first handler instruction).  EPC is only checked, the stream is cut. */
int sdclsp_encode_irq(struct sdclsp_encoder *e, uint64_t epc);
/* Ends the last stream, writes the end block and the trailer. */
int sdclsp_encoder_finish(struct sdclsp_encoder *e);
const struct sdclsp_stats *sdclsp_encoder_stats(const struct sdclsp_encoder *e);
const struct citcat_errinfo *sdclsp_encoder_error(const struct sdclsp_encoder *e);

/* Write an encoder's output with common/outfile.h (cc_outfile_sink), which
 * handles the temporary name and the optional LZ4 frame. */

struct sdclsp_decoder;

/* Opens a stream (plain or in an LZ4/zstd/xz wrapper) from PATH ("-" = stdin) or
 * memory; IMG (borrowed, must outlive the decoder) supplies the instruction
 * words.  On failure *D may still be set so that the error can be read;
 * close it in every case. */
int sdclsp_decoder_open(struct sdclsp_decoder **d, const char *path, const struct citcat_image *img);
int sdclsp_decoder_open_mem(struct sdclsp_decoder **d, const void *buf, size_t len,
			    const struct citcat_image *img);
/* Next instruction address: 1 and *PC, 0 at the end (after the trailer's
 * counts were checked), or an error: _CORRUPT (impossible record, address
 * not in the image, counts differ), _TRUNCATED, _CHECKSUM, _UNSUPPORTED. */
int sdclsp_decoder_next(struct sdclsp_decoder *d, uint64_t *pc);
const struct sdclsp_config *sdclsp_decoder_config(const struct sdclsp_decoder *d);
const struct citcat_errinfo *sdclsp_decoder_error(const struct sdclsp_decoder *d);
void sdclsp_decoder_close(struct sdclsp_decoder *d);

/* Reads the header and the trailer of a stream without decoding it (the
 * blocks are skipped, their checksums checked).  Fills C and S (the
 * baseline fields and interrupts are zero). */
int sdclsp_read_summary(const char *path, struct sdclsp_config *c, struct sdclsp_stats *s,
			struct citcat_errinfo *err);
/* The same, polling STOP (CTX) after every block: non-zero stops with
 * CITCAT_ERR_INTERRUPTED. */
int sdclsp_read_summary_stop(const char *path, struct sdclsp_config *c, struct sdclsp_stats *s,
			     int (*stop)(void *ctx), void *ctx, struct citcat_errinfo *err);

/* True when HEAD (N bytes) starts a stream or an LZ4 frame (then the caller
 * cannot tell what is inside without decompressing; see sdclsp_probe). */
int sdclsp_is_magic(const uint8_t *head, size_t n);
/* 1 when PATH holds an SDC-LSP stream, plain or LZ4-framed; 0 otherwise. */
int sdclsp_probe(const char *path);

#endif
