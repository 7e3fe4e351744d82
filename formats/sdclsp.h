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
 * Internal header: the public declarations are in <citcat/sdclsp.h> under
 * citcat_ names; the short sdclsp_ spellings below alias them for the
 * library and tools, and the benchmark-only hooks stay here, unexported.
 *
 * Return values follow citcat.h: negative citcat_err codes, details in the
 * object's citcat_errinfo. */
#ifndef CITCAT_SDCLSP_H
#define CITCAT_SDCLSP_H

#include <citcat/sdclsp.h>

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

/* Internal spellings of the public names. */
#define sdclsp_variant citcat_sdclsp_variant
#define SDCLSP_B CITCAT_SDCLSP_B
#define SDCLSP_E CITCAT_SDCLSP_E
#define SDCLSP_R CITCAT_SDCLSP_R
#define sdclsp_repl citcat_sdclsp_repl
#define SDCLSP_REPL_MRU CITCAT_SDCLSP_REPL_MRU
#define SDCLSP_REPL_LRU CITCAT_SDCLSP_REPL_LRU
#define SDCLSP_REPL_FIFO CITCAT_SDCLSP_REPL_FIFO
#define SDCLSP_FLAG_SA_ALWAYS CITCAT_SDCLSP_FLAG_SA_ALWAYS
#define sdclsp_config citcat_sdclsp_config
#define sdclsp_config_init citcat_sdclsp_config_init
#define sdclsp_config_parse citcat_sdclsp_config_parse
#define sdclsp_config_check citcat_sdclsp_config_check
#define sdclsp_variant_name citcat_sdclsp_variant_name
#define sdclsp_stats citcat_sdclsp_stats
#define sdclsp_sink_fn citcat_sdclsp_sink_fn
#define sdclsp_encoder citcat_sdclsp_encoder
#define sdclsp_encoder_alloc citcat_sdclsp_encoder_alloc
#define sdclsp_encoder_free citcat_sdclsp_encoder_free
#define sdclsp_encode_insn citcat_sdclsp_encode_insn
#define sdclsp_encode_insn_isa citcat_sdclsp_encode_insn_isa
#define sdclsp_encode_irq citcat_sdclsp_encode_irq
#define sdclsp_encoder_finish citcat_sdclsp_encoder_finish
#define sdclsp_encoder_stats citcat_sdclsp_encoder_stats
#define sdclsp_encoder_error citcat_sdclsp_encoder_error
#define sdclsp_decoder citcat_sdclsp_decoder
#define sdclsp_decoder_open citcat_sdclsp_decoder_open
#define sdclsp_decoder_open_mem citcat_sdclsp_decoder_open_mem
#define sdclsp_decoder_next citcat_sdclsp_decoder_next
#define sdclsp_decoder_next_isa citcat_sdclsp_decoder_next_isa
#define sdclsp_decoder_config citcat_sdclsp_decoder_config
#define sdclsp_decoder_error citcat_sdclsp_decoder_error
#define sdclsp_decoder_close citcat_sdclsp_decoder_close
#define sdclsp_read_summary citcat_sdclsp_read_summary
#define sdclsp_read_summary_stop citcat_sdclsp_read_summary_stop
#define sdclsp_is_magic citcat_sdclsp_is_magic
#define sdclsp_probe citcat_sdclsp_probe

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

typedef void (*sdclsp_record_fn)(void *ctx, const struct sdclsp_record *rec);
/* Benchmarks and tests only (not exported): every record as emitted. */
void sdclsp_encoder_set_record_cb(struct sdclsp_encoder *e, sdclsp_record_fn fn, void *ctx);
/* Benchmarks only (not exported): called with every stream descriptor the
 * stream detector produces; INFERABLE is 1 when the decoder can infer SA
 * (benchmarks feed the filtered descriptor sequence (SA/-, SL) to
 * general-purpose compressors). */
typedef void (*sdclsp_stream_fn)(void *ctx, uint32_t sa, uint32_t sl, int inferable);
void sdclsp_encoder_set_stream_cb(struct sdclsp_encoder *e, sdclsp_stream_fn fn, void *ctx);

/* citcat dump only (not exported): every stream descriptor the decoder
 * reads, as it reads it (before the stream's first instruction is handed
 * out by sdclsp_decoder_next). */
enum { SDCLSP_DEC_LSP_HIT = 1, SDCLSP_DEC_SDC_HIT = 2, SDCLSP_DEC_SDC_MISS = 3 };
struct sdclsp_dec_stream {
	uint8_t kind;    /* SDCLSP_DEC_*: the record class the stream came from */
	uint8_t copy;    /* 1: a later stream of an e/r LSP-hit run record (no bits of its own) */
	uint8_t sa_sent; /* SDC miss: 1 when the record carries the SA */
	uint32_t run;    /* the LSP-hit record that was read: streams it covers (b: 1) */
	uint32_t si, sa, sl;
	uint64_t insn;   /* instructions before the stream */
};
typedef void (*sdclsp_dec_stream_fn)(void *ctx, const struct sdclsp_dec_stream *s);
void sdclsp_decoder_set_stream_cb(struct sdclsp_decoder *d, sdclsp_dec_stream_fn fn, void *ctx);

/* Write an encoder's output with common/outfile.h (cc_outfile_sink), which
 * handles the temporary name and the optional LZ4 frame. */

#endif
