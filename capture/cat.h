/* The cache-filtered address trace (CAT): what the trace module records on
 * the bus below the caches.  Byte layout: CAT.md beside this file. */
#ifndef CITCAT_CAT_H
#define CITCAT_CAT_H

#include "cache.h"
#include "citcat.h"

#define CITCAT_CAT_VERSION 2 /* readers accept this version only (CAT.md, Version changes) */

/* The target configuration a replayer needs to re-simulate the bus. */
struct citcat_target_config {
	uint32_t isa; /* 1 = ARM A32 */
	uint32_t ram_base, ram_size;
	uint32_t dev_base, dev_size;
	struct citcat_cache_config icache, dcache;
	uint32_t pen_miss, pen_wb, pen_uncached;
	uint32_t timestamps; /* events carry bus-cycle timestamps */
	uint64_t seed;       /* device-input seed (informational) */
	uint32_t dma_interval, dma_burst, uart_rate; /* informational */
};

#define CITCAT_DEV_BASE 0x40000000u
#define CITCAT_DEV_SIZE 0x10000u

void citcat_target_config_default(struct citcat_target_config *c);

enum citcat_cat_kind {
	CITCAT_CAT_FILL_I = 1,    /* line fill into the I-cache: addr, data[line] */
	CITCAT_CAT_FILL_D = 2,    /* line fill into the D-cache */
	CITCAT_CAT_WRITEBACK = 3, /* dirty D line written back: addr, data[line] */
	CITCAT_CAT_WRITE = 4,     /* write-through store: addr, size, value */
	CITCAT_CAT_UREAD = 5,     /* uncached read: addr, size, value */
	CITCAT_CAT_UWRITE = 6,    /* uncached write: addr, size, value */
	CITCAT_CAT_DMA = 7,       /* DMA transfer: addr, data[len], bcount, pc */
	CITCAT_CAT_IRQ = 8,       /* interrupt taken: line, pc = EPC, bcount */
	CITCAT_CAT_START = 9,     /* recording armed (CMD = TRC1) */
	CITCAT_CAT_SYNC = 10,     /* trace start point P: pc = P */
	CITCAT_CAT_STOP = 11,     /* recording ended: reason, totals */
	CITCAT_CAT_KINDS = 12
};

enum citcat_stop_reason {
	CITCAT_STOP_EXIT = 0,     /* firmware wrote EXIT */
	CITCAT_STOP_COMMAND = 1,  /* trace CMD = STOP */
	CITCAT_STOP_LIMIT = 2,    /* --max-insns reached */
};

struct citcat_cat_event {
	uint8_t kind;
	uint8_t size;  /* UREAD/UWRITE/WRITE: 1, 2, 4 */
	uint8_t line;  /* IRQ line; STOP: reason */
	uint32_t addr; /* FILL/WB/WRITE/UREAD/UWRITE/DMA */
	uint64_t value;
	uint32_t len;          /* FILL/WB/DMA bytes */
	const uint8_t *data;   /* FILL/WB/DMA (valid until the next event) */
	uint64_t bcount;       /* DMA/IRQ: branch counter; STOP: total branches */
	uint32_t pc;           /* DMA/IRQ: boundary (EPC); SYNC: P */
	uint64_t insns;        /* STOP: instructions retired in the traced interval */
	uint64_t cycle;        /* bus-cycle timestamp (0 when not recorded); STOP: cycles */
	uint32_t repl_state[2];/* SYNC: I- and D-cache random-replacement generator at P
				* (0 for a cache whose policy is not random) */
};

const char *citcat_cat_kind_name(unsigned kind);

struct citcat_cat_writer;
struct citcat_cat_reader;

int citcat_cat_writer_open(struct citcat_cat_writer **w, const char *path, const struct citcat_target_config *cfg);
int citcat_cat_write(struct citcat_cat_writer *w, const struct citcat_cat_event *ev);
int citcat_cat_writer_close(struct citcat_cat_writer *w);
void citcat_cat_writer_abort(struct citcat_cat_writer *w);
const struct citcat_errinfo *citcat_cat_writer_error(const struct citcat_cat_writer *w);
uint64_t citcat_cat_writer_bytes(const struct citcat_cat_writer *w);

/* On failure *R may be set so the error can be read; close it always. */
int citcat_cat_reader_open(struct citcat_cat_reader **r, const char *path);
int citcat_cat_reader_open_mem(struct citcat_cat_reader **r, const void *buf, size_t len);
const struct citcat_target_config *citcat_cat_config(const struct citcat_cat_reader *r);
/* Next event: 1, 0 at the end, or an error.  Data pointers stay valid until
 * the next call. */
int citcat_cat_next(struct citcat_cat_reader *r, struct citcat_cat_event *ev);
/* File offset of the chunk holding the last event (for progress). */
uint64_t citcat_cat_reader_offset(const struct citcat_cat_reader *r);
uint64_t citcat_cat_reader_file_size(const struct citcat_cat_reader *r);
const struct citcat_errinfo *citcat_cat_reader_error(const struct citcat_cat_reader *r);
void citcat_cat_reader_close(struct citcat_cat_reader *r);

/* Metadata codec, shared with the IMS format which carries the same
 * configuration.  CITCAT_TARGET_META_LEN bytes. */
#define CITCAT_TARGET_META_LEN 96
void citcat_target_config_encode(const struct citcat_target_config *c, uint8_t *out);
/* The byte offset (within the 96 bytes at IN) of the first reserved byte or
 * flag bit that is not zero, with *WHY naming it, or -1 when all are zero
 * (CAT.md, "Metadata").  citcat_target_config_decode rejects them too; this
 * gives readers the offset to report. */
int citcat_target_config_reserved(const uint8_t *in, const char **why);
/* Returns 0, or an error with *WHY naming the bad field. */
int citcat_target_config_decode(const uint8_t *in, size_t len, struct citcat_target_config *c, const char **why);

#endif
