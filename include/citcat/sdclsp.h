/* libcitcat public API: SDC-LSP program-flow trace streams (Milenkovic,
 * Uzelac, Milenkovic, Burtscher: "Caches and Predictors for Real-time,
 * Unobtrusive, and Cost-Effective Program Tracing in Embedded Systems").
 *
 * An encoder turns the instruction sequence of an itrace (PC and instruction
 * word of every retired instruction, plus interrupt entries) into a bit
 * stream of stream-descriptor-cache (SDC) and last-stream-predictor (LSP)
 * events; a decoder rebuilds the exact instruction address sequence from that
 * stream and the program image.  Byte and bit layout: SDCLSP.md.
 *
 * Return values follow base.h: negative citcat_err codes, details in the
 * object's citcat_errinfo; a NULL handle is CITCAT_ERR_INVAL. */
#ifndef CITCAT_PUBLIC_SDCLSP_H
#define CITCAT_PUBLIC_SDCLSP_H

#include <citcat/base.h>
#include <citcat/image.h>

#ifdef __cplusplus
extern "C" {
#endif

enum citcat_sdclsp_variant {
	CITCAT_SDCLSP_B = 1, /* bSDC-LSP: table 2 records */
	CITCAT_SDCLSP_E = 2, /* eSDC-LSP: + LVSA on miss records, adaptive one-length counter */
	CITCAT_SDCLSP_R = 3, /* rSDC-LSP: + upper SA bits only in a per-stream LVSA, not in the SDC */
};

enum citcat_sdclsp_repl {
	CITCAT_SDCLSP_REPL_MRU = 0,  /* pseudo-LRU with MRU bits (default) */
	CITCAT_SDCLSP_REPL_LRU = 1,
	CITCAT_SDCLSP_REPL_FIFO = 2,
};

/* Flags of the configuration. */
#define CITCAT_SDCLSP_FLAG_SA_ALWAYS 1u /* every SDC miss carries the SA (the paper's figure 4 assumption) */

/* Everything the decoder needs besides the program image; it is stored in
 * the stream header.  Initialise with citcat_sdclsp_config_init. */
struct citcat_sdclsp_config {
	size_t size;      /* sizeof(struct citcat_sdclsp_config) */
	uint8_t variant;  /* enum citcat_sdclsp_variant */
	uint8_t repl;     /* enum citcat_sdclsp_repl */
	uint8_t flags;    /* CITCAT_SDCLSP_FLAG_* */
	uint8_t shift;    /* set index = ((SA >> shift) ^ SL) & (n_set - 1); 0..31 */
	uint8_t u;        /* LVSA width in upper address bits (e, r); 1..29 */
	uint8_t hist;     /* LSP history depth, 1..8 */
	uint32_t n_set;   /* power of two, 1..65536 */
	uint32_t n_way;   /* power of two, 1..256; n_set * n_way >= 2, <= 65536 */
	uint32_t n_p;     /* LSP entries, power of two, 1..65536 */
	uint32_t max_sl;  /* longest stream, 1..65536 */
	uint8_t isa;      /* CITCAT_SDCLSP_ISA_*; 0 is A32 (callers that predate Thumb) */
};

/* Instruction sets (SDCLSP.md, "Thumb"): A32 only (SA fields hold SA[31:2]),
 * or ARMv7 A32 and Thumb (stream addresses carry the state in bit 0, SA
 * fields hold all 32 bits). */
enum { CITCAT_SDCLSP_ISA_A32 = 1, CITCAT_SDCLSP_ISA_ARMV7 = 2 };

/* Defaults of VARIANT: [32x4, 128], shift 4, MRU, history 1, max SL 256,
 * u = 14 for e and 12 for r (unused by b).  Returns 0, CITCAT_ERR_INVAL
 * (NULL C, unknown variant). */
CITCAT_API int citcat_sdclsp_config_init(struct citcat_sdclsp_config *c, enum citcat_sdclsp_variant variant);
/* Parses "sdclsp[:b|e|r][:SETSxWAYS,NP]" (variant default r); also accepts
 * extra ":key=value" items: shift, u, maxsl, hist, repl=mru|lru|fifo,
 * sa=always.  Returns 0 or CITCAT_ERR_INVAL with a message in ERR (may be
 * NULL). */
CITCAT_API int citcat_sdclsp_config_parse(struct citcat_sdclsp_config *c, const char *spec,
					  struct citcat_errinfo *err);
/* Checks every field; 0 or CITCAT_ERR_INVAL with a message in ERR (may be NULL). */
CITCAT_API int citcat_sdclsp_config_check(const struct citcat_sdclsp_config *c, struct citcat_errinfo *err);
/* "b", "e", "r" or "?" (static storage). */
CITCAT_API const char *citcat_sdclsp_variant_name(int variant);

/* Counters kept by the encoder (and written in the trailer). */
struct citcat_sdclsp_stats {
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

/* Where encoded bytes go: returns 0 or a negative code (which the encoder
 * then returns). */
typedef int (*citcat_sdclsp_sink_fn)(void *ctx, const void *buf, size_t len);

struct citcat_sdclsp_encoder;

/* Creates an encoder in *E (the configuration is copied) and writes the
 * header at once through SINK (NULL: count only, nothing written).  Returns
 * 0, CITCAT_ERR_INVAL (NULL E or C, a bad configuration), _NOMEM, or the
 * sink's error; *E is NULL on failure.  Free it with
 * citcat_sdclsp_encoder_free. */
CITCAT_API int citcat_sdclsp_encoder_alloc(struct citcat_sdclsp_encoder **e, const struct citcat_sdclsp_config *c,
					   citcat_sdclsp_sink_fn sink, void *ctx);
/* Frees E.  Accepts NULL. */
CITCAT_API void citcat_sdclsp_encoder_free(struct citcat_sdclsp_encoder *e);
/* Feeds one retired ARM A32 instruction.  Returns 0, CITCAT_ERR_UNSUPPORTED
 * for a BLX to Thumb, CITCAT_ERR_INVAL for a NULL E or a PC above 32 bits or
 * not word aligned, or the sink's error. */
CITCAT_API int citcat_sdclsp_encode_insn(struct citcat_sdclsp_encoder *e, uint64_t pc, uint32_t word);
/* The same for an instruction of SIZE bytes in Thumb state when THUMB (as
 * an itrace record gives them); Thumb needs CITCAT_SDCLSP_ISA_ARMV7
 * (otherwise CITCAT_ERR_UNSUPPORTED). */
CITCAT_API int citcat_sdclsp_encode_insn_isa(struct citcat_sdclsp_encoder *e, uint64_t pc, uint32_t word,
					      unsigned size, int thumb);
/* Feeds an interrupt entry (between the last instruction executed and the
 * first handler instruction).  EPC is only checked, the stream is cut.
 * Returns 0 or an error as for citcat_sdclsp_encode_insn. */
CITCAT_API int citcat_sdclsp_encode_irq(struct citcat_sdclsp_encoder *e, uint64_t epc);
/* Ends the last stream, writes the end block and the trailer.  Returns 0
 * or an error (CITCAT_ERR_INVAL for NULL, the sink's error). */
CITCAT_API int citcat_sdclsp_encoder_finish(struct citcat_sdclsp_encoder *e);
/* The encoder's counters and last error (owned by E), or NULL for NULL. */
CITCAT_API const struct citcat_sdclsp_stats *citcat_sdclsp_encoder_stats(const struct citcat_sdclsp_encoder *e);
CITCAT_API const struct citcat_errinfo *citcat_sdclsp_encoder_error(const struct citcat_sdclsp_encoder *e);

struct citcat_sdclsp_decoder;

/* Opens a stream (plain or in an LZ4/zstd/xz wrapper) from PATH ("-" = stdin) or LEN
 * bytes at BUF (which must outlive the decoder); IMG (borrowed, must outlive
 * the decoder) supplies the instruction words.  Returns 0, CITCAT_ERR_INVAL
 * (NULL D or IMG), _NOMEM, _IO, _EMPTY, _MAGIC, _VERSION, _TRUNCATED,
 * _CHECKSUM, _CORRUPT.  Failure convention of base.h: *D holds the error
 * when it could be allocated; close it in every case. */
CITCAT_API int citcat_sdclsp_decoder_open(struct citcat_sdclsp_decoder **d, const char *path,
					  const struct citcat_image *img);
CITCAT_API int citcat_sdclsp_decoder_open_mem(struct citcat_sdclsp_decoder **d, const void *buf, size_t len,
					      const struct citcat_image *img);
/* Next instruction address: 1 and *PC, 0 at the end (after the trailer's
 * counts were checked), or an error: CITCAT_ERR_INVAL (NULL argument),
 * _CORRUPT (impossible record, address not in the image, counts differ),
 * _TRUNCATED, _CHECKSUM, _UNSUPPORTED. */
CITCAT_API int citcat_sdclsp_decoder_next(struct citcat_sdclsp_decoder *d, uint64_t *pc);
/* The same, with the instruction's size in bytes and state (1 Thumb). */
CITCAT_API int citcat_sdclsp_decoder_next_isa(struct citcat_sdclsp_decoder *d, uint64_t *pc, unsigned *size,
					      int *thumb);
/* The stream's configuration and the decoder's last error (owned by D), or
 * NULL for NULL. */
CITCAT_API const struct citcat_sdclsp_config *citcat_sdclsp_decoder_config(const struct citcat_sdclsp_decoder *d);
CITCAT_API const struct citcat_errinfo *citcat_sdclsp_decoder_error(const struct citcat_sdclsp_decoder *d);
/* Frees D.  Accepts NULL. */
CITCAT_API void citcat_sdclsp_decoder_close(struct citcat_sdclsp_decoder *d);

/* Reads the header and the trailer of a stream without decoding it (the
 * blocks are skipped, their checksums checked).  Fills C and S (the
 * baseline fields and interrupts are zero).  Returns 0 or an error as for
 * the decoder (CITCAT_ERR_INVAL for a NULL argument; ERR may be NULL).  The
 * _stop variant polls STOP (CTX) after every block: non-zero stops with
 * CITCAT_ERR_INTERRUPTED. */
CITCAT_API int citcat_sdclsp_read_summary(const char *path, struct citcat_sdclsp_config *c,
					  struct citcat_sdclsp_stats *s, struct citcat_errinfo *err);
CITCAT_API int citcat_sdclsp_read_summary_stop(const char *path, struct citcat_sdclsp_config *c,
					       struct citcat_sdclsp_stats *s, int (*stop)(void *ctx), void *ctx,
					       struct citcat_errinfo *err);

/* 1 when HEAD (N bytes) starts a stream or an LZ4 frame (then the caller
 * cannot tell what is inside without decompressing; see
 * citcat_sdclsp_probe), else 0. */
CITCAT_API int citcat_sdclsp_is_magic(const uint8_t *head, size_t n);
/* 1 when PATH holds an SDC-LSP stream, plain or LZ4-framed; 0 otherwise. */
CITCAT_API int citcat_sdclsp_probe(const char *path);

#ifdef __cplusplus
}
#endif

#endif
