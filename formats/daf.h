/* Data-address filtering (DAF): the data-address trace of a trace module
 * with a register validation unit, and the software debugger that undoes
 * the filtering by partial register replay (Uzelac and Milenkovic's "data
 * address filtering through partial program replay").  Byte and bit
 * layout, and the RVU rules: DAF.md beside this file.
 *
 * The writer is the trace module's output side: fed every retired
 * instruction (PC, word, the data accesses the core made), it traces only
 * what the debugger cannot infer.  The decoder is the debugger: fed the
 * program flow (PC and word of every retired instruction, from an itrace or
 * an SDC-LSP stream and the program image), it rebuilds every instruction's
 * data accesses (address, size, direction).
 *
 * Return values follow citcat.h: negative citcat_err codes, details in the
 * object's citcat_errinfo. */
#ifndef CITCAT_DAF_H
#define CITCAT_DAF_H

#include "citcat.h"
#include "itrace.h"

#define CITCAT_DAF_VERSION 3 /* versions 1 (A32 only) and 2 (ARMv7-A) are still read */

enum citcat_daf_encoding {
	CITCAT_DAF_RAW = 1,  /* traced addresses as 32 bits */
	CITCAT_DAF_DIFF = 2, /* DAFDiff: XOR with the previous traced address in 8-bit chunks */
};

struct citcat_daf_stats {
	uint64_t insns;                       /* instructions seen */
	uint64_t loads, stores;               /* executed memory-referencing instructions */
	uint64_t loads_traced, stores_traced; /* ... whose data address was traced */
	uint64_t cond_bits;                   /* executed bits of conditional memory instructions */
	uint64_t escapes;                     /* escape records (instructions the RVU does not model) */
	uint64_t records;                     /* instructions that consumed a record */
	uint64_t bits;                        /* record bits (what the trace port carries) */
	uint64_t entries, returns;            /* Cortex-M7: exception entries and returns */
	uint64_t fixes;                       /* Cortex-M7: instructions a fault cut short, corrected by their entry */
};

struct citcat_daf_writer;

/* Opens PATH for writing ("-" = stdout; NULL = count only, nothing written,
 * for benchmarks).  The file is written under a temporary name and renamed
 * by close.  Returns 0 or an error code; on failure *W may still be set so
 * that the error can be read: abort it. */
int citcat_daf_writer_open(struct citcat_daf_writer **w, const char *path, int encoding);
/* The same for the Cortex-M7 when M7 (DAF.md, "The Cortex-M7"): every
 * instruction is Thumb, and every exception entry is fed to
 * citcat_daf_write_entry at its place in the flow. */
int citcat_daf_writer_open_isa(struct citcat_daf_writer **w, const char *path, int encoding, int m7);
/* One retired instruction: PC, WORD and the data accesses the core made, in
 * order.  CITCAT_ERR_UNSUPPORTED when the accesses differ from what the RVU
 * model of that instruction says (the message names PC and word);
 * CITCAT_ERR_INTERNAL when an address the RVU infers differs from the real
 * one (a bug); CITCAT_ERR_IO. */
int citcat_daf_write(struct citcat_daf_writer *w, uint64_t pc, uint32_t word, const struct citcat_access *acc,
		     uint32_t n_acc);
/* The same for an instruction of SIZE bytes (2 or 4) in Thumb state when
 * THUMB, WORD as the itrace records it; THUMB = 0 (SIZE 4) is
 * citcat_daf_write. */
int citcat_daf_write_isa(struct citcat_daf_writer *w, uint64_t pc, uint32_t word, unsigned size, int thumb,
			 const struct citcat_access *acc, uint32_t n_acc);
/* Cortex-M7: the exception entry EXC (2..63) at the boundary before the
 * next instruction (after the one that raised it, if synchronous), with the
 * accesses it made (the itrace's entry record: the stacking writes, then
 * the vector read).  CITCAT_ERR_INVAL on a writer that is not the M7's. */
int citcat_daf_write_entry(struct citcat_daf_writer *w, unsigned exc, const struct citcat_access *acc, uint32_t n_acc);
/* Writes the end chunk and renames the file into place; frees W.  Returns
 * 0 or an error (the output is then removed). */
int citcat_daf_writer_close(struct citcat_daf_writer *w);
/* Drops the output; frees W.  Accepts NULL. */
void citcat_daf_writer_abort(struct citcat_daf_writer *w);
const struct citcat_errinfo *citcat_daf_writer_error(const struct citcat_daf_writer *w);
const struct citcat_daf_stats *citcat_daf_writer_stats(const struct citcat_daf_writer *w);

struct citcat_daf_decoder;

/* Opens a DAF file ("-" = stdin) or memory buffer (which must outlive the
 * decoder).  Fails with _EMPTY, _MAGIC, _VERSION, _TRUNCATED, _CHECKSUM,
 * _CORRUPT (bad metadata).  On failure *D may still be set so that the error
 * can be read; close it in every case. */
int citcat_daf_decoder_open(struct citcat_daf_decoder **d, const char *path);
int citcat_daf_decoder_open_mem(struct citcat_daf_decoder **d, const void *buf, size_t len);
int citcat_daf_decoder_encoding(const struct citcat_daf_decoder *d);
/* The next retired instruction of the flow, PC and WORD: fills REC (kind
 * INSN, pc, word, the data accesses with value 0).  Errors name the
 * instruction (index and PC) that consumed the bad or missing record:
 * _CORRUPT, _TRUNCATED, _LIMIT, _CHECKSUM, _IO. */
int citcat_daf_decode(struct citcat_daf_decoder *d, uint64_t pc, uint32_t word, struct citcat_itrace_rec *rec);
/* The same for an instruction of SIZE bytes in Thumb state when THUMB (REC
 * also gets SIZE and THUMB).  A Thumb instruction in the flow of a version 1
 * file (A32 rules only) is _CORRUPT. */
int citcat_daf_decode_isa(struct citcat_daf_decoder *d, uint64_t pc, uint32_t word, unsigned size, int thumb,
			  struct citcat_itrace_rec *rec);
/* Cortex-M7 (0 on other files): at each instruction boundary, before the
 * instruction (and once more at the end of the flow), call this until it
 * returns 0: 1 fills REC with an exception entry of that boundary (kind IRQ,
 * LINE the exception number, PC 0: the return address is not recorded, the
 * stacking writes and the vector read); or an error as for decode.  LAST is
 * the record decode gave for the instruction before this boundary (NULL if
 * none): when a fault cut that instruction short, the first entry after it
 * replaces LAST's accesses with the ones it really made, so write LAST out
 * only after this call. */
int citcat_daf_decode_entry(struct citcat_daf_decoder *d, struct citcat_itrace_rec *rec, struct citcat_itrace_rec *last);
/* 1 when the file is a Cortex-M7 DAF (ISA 3). */
int citcat_daf_decoder_m7(const struct citcat_daf_decoder *d);
/* At the end of the flow: checks that every record was consumed and that
 * the file's instruction count equals the flow's.  0 or an error. */
int citcat_daf_decoder_finish(struct citcat_daf_decoder *d);
const struct citcat_daf_stats *citcat_daf_decoder_stats(const struct citcat_daf_decoder *d);
const struct citcat_errinfo *citcat_daf_decoder_error(const struct citcat_daf_decoder *d);
void citcat_daf_decoder_close(struct citcat_daf_decoder *d);

#endif
