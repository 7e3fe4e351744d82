/* The first-access load-value trace (LVT): what the trace module's
 * first-access mode sends through the trace port, filtered by the FA flags
 * of the D-cache (machine/fa.h).  Byte and bit layout: LVT.md beside this
 * file.  The stream is a bit stream; a load's record carries its value only
 * when the FA flags could not vouch for it, and the value's width is the
 * load's, which the decoder knows from the instruction it executes, so a
 * reader must be told the size of the load it reads a record for. */
#ifndef CITCAT_LVT_H
#define CITCAT_LVT_H

#include <citcat/capture.h>
#include <citcat/lvt.h>

#include "cat.h"

#define CITCAT_LVT_VERSION 2
#define CITCAT_LVT_META_LEN 100
#define CITCAT_LVT_REGS 39
#define CITCAT_LVT_SCTLR_TE (1u << 30) /* the one SCTLR bit START keeps (version 2) */

enum citcat_lvt_kind {
	CITCAT_LVT_HIT = 1,   /* '1': an FA hit, the value is inferred */
	CITCAT_LVT_VALUE = 2, /* '01' + the load's value */
	CITCAT_LVT_IRQ = 3,   /* interrupt taken at boundary (bcount, pc = EPC) */
	CITCAT_LVT_DMA = 4,   /* external write (DMA) of len bytes at addr, at boundary (bcount, pc) */
	CITCAT_LVT_START = 5, /* the registers at the trace start point and the code hash */
	CITCAT_LVT_STOP = 6,  /* the end of the traced interval, with totals */
};

/* Totals the trace module keeps (struct citcat_lvt_stats, public in
 * <citcat/capture.h>); the STOP record carries them. */

struct citcat_lvt_rec {
	uint8_t kind;   /* enum citcat_lvt_kind */
	uint8_t line;   /* IRQ: line (0..15), on the Cortex-M7 the exception number (2..47); STOP: enum citcat_stop_reason */
	uint8_t size;   /* VALUE: bytes (1..8), as the reader was told */
	uint64_t value; /* VALUE */
	uint64_t bcount;
	uint32_t pc;          /* IRQ: EPC; DMA: next instruction */
	uint32_t addr, len;   /* DMA */
	uint32_t regs[CITCAT_LVT_REGS]; /* START: register-dump slots (TARGET.md), r15 = P */
	uint32_t sctlr;       /* START, version 2: SCTLR at P, TE (bit 30) only; 0 on the Cortex-M7 and in version 1 */
	uint64_t code_hash;   /* START: XXH64 of the code bytes at P (LVT.md) */
	uint32_t dc_rng;      /* START: the D-cache's random-replacement state at P */
	struct citcat_lvt_stats st; /* STOP */
};

struct citcat_lvt_writer;
struct citcat_lvt_reader;

/* GRAN_SHIFT: FA-flag granule, 0 = byte, 2 = 32-bit word. */
int citcat_lvt_writer_open(struct citcat_lvt_writer **w, const char *path, const struct citcat_target_config *cfg,
			   unsigned gran_shift);
/* The same, writing format VERSION (1 or 2; 1 for the ARMv7-A only, its
 * START without SCTLR): so that tests read true files of the older
 * version, not relabelled ones. */
int lvt_writer_open_version(struct citcat_lvt_writer **w, const char *path, const struct citcat_target_config *cfg,
			    unsigned gran_shift, unsigned version);
/* One load record: an FA hit, or a value of SIZE bytes (1..8). */
int citcat_lvt_put_hit(struct citcat_lvt_writer *w);
int citcat_lvt_put_value(struct citcat_lvt_writer *w, uint64_t value, unsigned size);
/* An IRQ, DMA, START or STOP record.  STOP ends the stream (in a chunk of
 * its own, so readers can find it without decoding the loads); its
 * st.bits is filled in by the writer. */
int citcat_lvt_put_event(struct citcat_lvt_writer *w, const struct citcat_lvt_rec *rec);
/* Bits written so far (chunk padding aside). */
uint64_t citcat_lvt_writer_bits(const struct citcat_lvt_writer *w);
int citcat_lvt_writer_close(struct citcat_lvt_writer *w);
void citcat_lvt_writer_abort(struct citcat_lvt_writer *w);
const struct citcat_errinfo *citcat_lvt_writer_error(const struct citcat_lvt_writer *w);

/* On failure *R may be set so the error can be read; close it always. */
int citcat_lvt_reader_open(struct citcat_lvt_reader **r, const char *path);
int citcat_lvt_reader_open_mem(struct citcat_lvt_reader **r, const void *buf, size_t len);
const struct citcat_target_config *citcat_lvt_config(const struct citcat_lvt_reader *r);
unsigned citcat_lvt_gran_shift(const struct citcat_lvt_reader *r);
/* Kind of the next record without consuming it: > 0, 0 at the end of the
 * file, or an error. */
int citcat_lvt_peek(struct citcat_lvt_reader *r);
/* Reads the next record: 1, 0 at the end of the file, or an error.  SIZE is
 * the byte size of the load the caller is serving (1..8), or 0 when it is
 * not at a load, in which case a VALUE record is an error. */
int citcat_lvt_next(struct citcat_lvt_reader *r, unsigned size, struct citcat_lvt_rec *rec);
/* Where the last record read starts: file offset of its chunk's header and
 * its bit within the chunk's decompressed payload. */
void citcat_lvt_reader_pos(const struct citcat_lvt_reader *r, uint64_t *chunk_offset, uint64_t *bit);
const struct citcat_errinfo *citcat_lvt_reader_error(const struct citcat_lvt_reader *r);
void citcat_lvt_reader_close(struct citcat_lvt_reader *r);

/* What a reader can tell without the program: the configuration, the START
 * and STOP records, the container's sizes.  Reads the whole file (checksums,
 * totals) but decodes only the first and last chunks. */
struct citcat_lvt_summary {
	struct citcat_target_config cfg;
	unsigned gran_shift;
	int has_start;
	struct citcat_lvt_rec start, stop;
	uint64_t file_bytes;    /* the file as stored (LZ4 chunks, header, end marker) */
	uint64_t payload_bytes; /* the record stream as the trace port sends it (chunk padding included) */
	uint64_t chunks;
};
int citcat_lvt_summary(const char *path, struct citcat_lvt_summary *s, struct citcat_errinfo *err);

/* The code the decoder takes from the binary: the PT_LOAD segments of ELF
 * marked executable (PF_X), their file bytes only.  Fills up to MAX ranges;
 * returns how many there are, or an error (ERR says why). */
struct citcat_lvt_range {
	uint32_t addr, len;
};
int citcat_lvt_code_ranges(const char *elf, struct citcat_lvt_range *out, int max, struct citcat_errinfo *err);
/* XXH64 over the bytes of RANGES in MEM (mem[0] is address BASE), in order,
 * each range preceded by its address and length as 4-byte little-endian. */
uint64_t citcat_lvt_code_hash(const uint8_t *mem, uint32_t base, const struct citcat_lvt_range *ranges, int n);

#endif
