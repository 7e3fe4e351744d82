/* The native full instruction trace ("itrace"): every retired instruction
 * with its PC, instruction word and data accesses (address, size, value,
 * direction), and every interrupt entry.  Written by `citcat capture
 * --oracle` (ground truth) and by `citcat replay`; read by `citcat convert`.
 * Byte layout: ITRACE.md beside this file. */
#ifndef CITCAT_ITRACE_H
#define CITCAT_ITRACE_H

#include "citcat.h"

#define CITCAT_ITRACE_VERSION 2 /* 2: uncached flag per access, DMA records (ITRACE.md) */
#define CITCAT_ITRACE_MAX_ACC 64 /* data accesses one instruction may make */

enum citcat_isa {
	CITCAT_ISA_ARM_A32 = 1,
};

enum citcat_rec_kind {
	CITCAT_REC_INSN = 0, /* a retired instruction */
	CITCAT_REC_IRQ = 1,  /* an interrupt entry, between two instructions */
	CITCAT_REC_DMA = 2,  /* a DMA transfer into RAM, between two instructions */
};

#define CITCAT_ITRACE_MAX_DMA 4096 /* bytes one DMA record may name */

struct citcat_access {
	uint64_t addr;
	uint64_t value; /* little-endian value of SIZE bytes */
	uint8_t size;   /* 1, 2, 4 or 8 */
	uint8_t write;  /* 0 read, 1 write */
	uint8_t uncached; /* 1: an uncached device-window access (never in a cache); 0: cacheable RAM */
};

/* One itrace record.  For CITCAT_REC_INSN: PC, WORD and the accesses in
 * program order.  For CITCAT_REC_IRQ: LINE is the interrupt line and PC the
 * EPC, the address of the first instruction not executed (where the
 * interrupted program resumes); the next record is the first instruction of
 * the handler.  For CITCAT_REC_DMA: PC is the first byte the transfer
 * wrote and WORD its length in bytes (1..CITCAT_ITRACE_MAX_DMA); it lies at
 * the instruction boundary where the DMA engine wrote RAM (after the
 * instruction before it, before an interrupt entry at the same boundary).
 * Readers hand DMA records out only when asked (citcat_itrace_reader_dma). */
struct citcat_itrace_rec {
	uint8_t kind;
	uint8_t line;
	uint32_t word;
	uint64_t pc;
	uint32_t n_acc;
	struct citcat_access acc[CITCAT_ITRACE_MAX_ACC];
};

struct citcat_itrace_writer;
struct citcat_itrace_reader;

/* Opens PATH for writing ("-" = stdout); see cc_writer_open for the
 * temporary-file behaviour.  Returns 0 or an error code. */
int citcat_itrace_writer_open(struct citcat_itrace_writer **w, const char *path, enum citcat_isa isa);
/* Appends one record.  Returns 0 or an error code (details in _error). */
int citcat_itrace_write(struct citcat_itrace_writer *w, const struct citcat_itrace_rec *rec);
/* Completes the file; frees W.  Returns 0 or an error code. */
int citcat_itrace_writer_close(struct citcat_itrace_writer *w);
/* Drops the file being written; frees W.  Accepts NULL. */
void citcat_itrace_writer_abort(struct citcat_itrace_writer *w);
const struct citcat_errinfo *citcat_itrace_writer_error(const struct citcat_itrace_writer *w);
uint64_t citcat_itrace_writer_bytes(const struct citcat_itrace_writer *w);

/* Opens an itrace for reading ("-" = stdin).  On failure *R may still be
 * set so that the error can be read; close it in every case. */
int citcat_itrace_reader_open(struct citcat_itrace_reader **r, const char *path);
int citcat_itrace_reader_open_mem(struct citcat_itrace_reader **r, const void *buf, size_t len);
/* Reads the next record into *REC.  Returns 1, 0 at the end, or an error.
 * DMA records are skipped unless citcat_itrace_reader_dma(R, 1) was called:
 * most consumers (listings, address traces of the core, WET) want the
 * core's instructions and interrupt entries only. */
int citcat_itrace_next(struct citcat_itrace_reader *r, struct citcat_itrace_rec *rec);
/* Asks for (WANT 1) or skips (0, the default) DMA records. */
void citcat_itrace_reader_dma(struct citcat_itrace_reader *r, int want);
enum citcat_isa citcat_itrace_isa(const struct citcat_itrace_reader *r);
const struct citcat_errinfo *citcat_itrace_reader_error(const struct citcat_itrace_reader *r);
void citcat_itrace_reader_close(struct citcat_itrace_reader *r);

/* True when two records are equal (accesses compared in order, with their
 * uncached flags). */
int citcat_itrace_rec_equal(const struct citcat_itrace_rec *a, const struct citcat_itrace_rec *b);

#endif
