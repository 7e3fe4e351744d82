/* The asynchronous event schedule (AES): what the replayer needs, besides
 * the IMS, to stay on track.  One record stream in the order the events
 * happened: interrupts and DMA transfers positioned at an instruction
 * boundary (branch count, PC), and the device input queue, output log and
 * cycle-counter history in program order.  Byte layout: AES.md. */
#ifndef CITCAT_AES_H
#define CITCAT_AES_H

#include "citcat.h"
#include "ims.h"

#define CITCAT_AES_VERSION 2 /* written; readers accept 1 and 2 (AES.md, Version changes) */

enum citcat_aes_kind {
	CITCAT_AES_IRQ = 0,     /* interrupt: line, pc = EPC, bcount */
	CITCAT_AES_DMA = 1,     /* DMA transfer: addr, data[len], at boundary (bcount, pc) */
	CITCAT_AES_INPUT = 2,   /* uncached read (device input queue): addr, size, value */
	CITCAT_AES_OUTPUT = 3,  /* uncached write (device output log): addr, size, value */
	CITCAT_AES_COUNTER = 4, /* cycle-counter read: addr, size, value */
	CITCAT_AES_END = 5,     /* end of the traced interval: insns, bcount, stop reason */
	CITCAT_AES_KINDS = 6
};

struct citcat_aes_rec {
	uint8_t kind;
	uint8_t line; /* IRQ line; END: stop reason (enum citcat_stop_reason) */
	uint8_t size;
	uint32_t addr;
	uint32_t pc;
	uint64_t value;
	uint64_t bcount;
	uint32_t len;
	const uint8_t *data; /* DMA; valid until the next read */
	uint64_t insns;      /* END */
	/* END with CITCAT_STOP_FAULT: VALUE is the fault kind (enum
	 * citcat_fault_kind), PC the fault PC and ADDR the fault address */
};

const char *citcat_aes_kind_name(unsigned kind);

/* Is ADDR (in the device window of CFG) the cycle counter? */
int citcat_aes_is_counter(const struct citcat_target_config *cfg, uint32_t addr);

struct citcat_aes_writer;
struct citcat_aes_reader;

int citcat_aes_writer_open(struct citcat_aes_writer **w, const char *path, const struct citcat_trace_id *id,
			   const struct citcat_target_config *cfg);
int citcat_aes_write(struct citcat_aes_writer *w, const struct citcat_aes_rec *rec);
int citcat_aes_writer_close(struct citcat_aes_writer *w);
void citcat_aes_writer_abort(struct citcat_aes_writer *w);
const struct citcat_errinfo *citcat_aes_writer_error(const struct citcat_aes_writer *w);

/* On failure *R may be set so the error can be read; close it always. */
int citcat_aes_reader_open(struct citcat_aes_reader **r, const char *path);
int citcat_aes_reader_open_mem(struct citcat_aes_reader **r, const void *buf, size_t len);
const struct citcat_trace_id *citcat_aes_trace_id(const struct citcat_aes_reader *r);
/* Next record: 1, 0 at the end, or an error. */
int citcat_aes_next(struct citcat_aes_reader *r, struct citcat_aes_rec *rec);
/* The encoded bytes of the last record read (a repeat record for the first
 * copy of a run, nothing for the further copies), for per-kind size
 * accounting.  Valid until the next read. */
const uint8_t *citcat_aes_last_raw(const struct citcat_aes_reader *r, size_t *len);
/* Copies of the record just returned that a REPEAT record still stands for
 * (0 when none).  citcat_aes_skip_repeats returns the same number and drops
 * them, so the next citcat_aes_next returns the record after the run.  A
 * REPEAT count is bounded only by the instruction count the file itself
 * claims, so a caller that merely counts records adds this number instead
 * of reading every copy: its work then follows the file's size, not the
 * counts written in it. */
uint64_t citcat_aes_pending_repeats(const struct citcat_aes_reader *r);
uint64_t citcat_aes_skip_repeats(struct citcat_aes_reader *r);
const struct citcat_errinfo *citcat_aes_reader_error(const struct citcat_aes_reader *r);
void citcat_aes_reader_close(struct citcat_aes_reader *r);

struct citcat_aes_stats {
	uint64_t records[CITCAT_AES_KINDS];
	uint64_t dma_bytes;
};

/* Streams through a CAT and writes its AES to OUT_PATH, in bounded memory.
 * PROGRESS as for citcat_ims_extract. */
int citcat_aes_extract(const char *cat_path, const char *out_path, struct citcat_aes_stats *st,
		       int (*progress)(void *ctx, uint64_t done, uint64_t total), void *pctx,
		       struct citcat_errinfo *err);

#endif
