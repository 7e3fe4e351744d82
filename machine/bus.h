/* The memory system below the core: split L1 caches, the bus, and what the
 * trace module sees on it.  The capture model drives it from the running
 * core; the replayer drives it with the same calls in the same order, which
 * is how it regenerates the bus trace.  Every bus transaction is reported to
 * a sink as a CAT event.  Internal module shared by capture/ and replay/. */
#ifndef CITCAT_BUS_H
#define CITCAT_BUS_H

#include "cache.h"
#include "cat.h"
#include "citcat_regs.h"

/* Offsets in the device window handled by the memory system itself: the
 * cache-maintenance registers (citcat_regs.h). */
#define BUS_CACHECTL CITCAT_DEV_OFF(CITCAT_CACHE_BASE)
#define BUS_INV_I CITCAT_DEV_OFF(CITCAT_CACHE_INV_I)
#define BUS_INV_D CITCAT_DEV_OFF(CITCAT_CACHE_INV_D)
#define BUS_CLEAN_INV_D CITCAT_DEV_OFF(CITCAT_CACHE_CLEAN_INV_D)
#define BUS_CLEAN_D CITCAT_DEV_OFF(CITCAT_CACHE_CLEAN_D)

struct bus_sink {
	/* Called for every bus transaction, in bus order. */
	void (*event)(void *ctx, const struct citcat_cat_event *ev);
	void *ctx;
};

/* Who reads the model (struct bus, MODE): the capture and a replay that
 * compares or hands out the bus trace drive it (BUS_MODEL); a replay whose
 * output nothing reads switches it off (BUS_OFF, replay/REPLAY.md "When the
 * memory-system model runs"): then no cache is touched and no event is
 * reported, only the effects outside the model remain (bus_dma's RAM write
 * and translation flush) and the I-line of the last fetch is kept as the
 * model keeps it, so a caller's same-line test still filters. */
enum { BUS_MODEL = 0, BUS_OFF = 1, BUS_LOG = 2 };

/* BUS_LOG: the replay's model thread (replay/model_pipe.h).  The bus
 * functions touch no cache and report nothing; each call that would reach
 * the model is appended, in call order, to a batch of 8-byte slots
 * [LOG_POS, LOG_END), to be replayed on another struct bus in BUS_MODEL
 * mode by another thread (model_pipe.c decodes the slots; the layout per
 * kind is in model_pipe.c's head comment).  The common calls take one
 * slot: an I-line fetch and a cached load {address, kind | size << 8}; a
 * cached store takes a second for its value (the consumer writes it into
 * its RAM copy).  The I-line of the last fetch is kept as in BUS_OFF, so
 * the fetches written are exactly those that reach bus_ifetch_line in the
 * model.  When a batch lacks room, LOG_FULL hands it over and points
 * LOG_POS/LOG_END at the next one with at least NEED free slots.  Nothing
 * is written while *LOG_HALT is non-zero (the replay has failed: events
 * after that point would be compared by nobody inline either). */
struct bus_log_ev {
	uint32_t addr; /* or a value's low half, or 8 bytes of DMA data with INFO */
	uint32_t info; /* BUS_EV_* in bits 0-7, then per kind (model_pipe.c) */
};
enum { BUS_EV_END = 0, BUS_EV_IFETCH, BUS_EV_DATA, BUS_EV_UNCACHED, BUS_EV_DMA, BUS_EV_IRQ, BUS_EV_EXC };

struct bus {
	struct cache ic, dc;
	uint8_t *ram;           /* flat RAM the core sees */
	uint32_t ram_base, ram_size;
	uint32_t iline_shift, dline_shift;
	uint32_t last_iline;    /* I-line of the previous fetch (skip repeat lookups) */
	int last_iline_valid;
	struct bus_sink sink;
	struct citcat_target_config cfg;
	uint64_t cycle;         /* cycles: 1 per instruction (added by the caller) + penalties */
	/* Called after a DMA write or maintenance changes memory the core may
	 * have translated (the capture model flushes Unicorn's code cache). */
	void (*code_changed)(void *ctx, uint32_t addr, uint32_t len);
	void *code_ctx;
	uint8_t mode; /* BUS_MODEL (bus_init), BUS_OFF or BUS_LOG, set by the owner before the first call */
	/* BUS_LOG only */
	struct bus_log_ev *log_pos, *log_end;
	void (*log_full)(struct bus *b, unsigned need);
	void *log_ctx;
	const int *log_halt;
};

/* BUS_LOG: one slot {ADDR, INFO}, and with VALUE2 a second one holding
 * VALUE {low half, high half} (model_pipe.c has the layout per kind). */
static inline void bus_log_put(struct bus *b, uint32_t info, uint32_t addr)
{
	if (*b->log_halt)
		return;
	if (b->log_pos == b->log_end)
		b->log_full(b, 1);
	*b->log_pos++ = (struct bus_log_ev){addr, info};
}
static inline void bus_log_put2(struct bus *b, uint32_t info, uint32_t addr, uint64_t value)
{
	if (*b->log_halt)
		return;
	if (b->log_end - b->log_pos < 2)
		b->log_full(b, 2);
	struct bus_log_ev *e = b->log_pos;
	e[0] = (struct bus_log_ev){addr, info};
	e[1] = (struct bus_log_ev){(uint32_t)value, (uint32_t)(value >> 32)};
	b->log_pos = e + 2;
}

int bus_init(struct bus *b, const struct citcat_target_config *cfg, uint8_t *ram, struct bus_sink sink);
void bus_fini(struct bus *b);

/* Instruction fetch of the 4-byte instruction at ADDR (in RAM). */
void bus_ifetch_slow(struct bus *b, uint32_t addr);
/* A fetch from another I-line than the last one: a hit on the way its set
 * used last inline (cache_hit_last), else bus_ifetch_slow. */
static inline void bus_ifetch_line(struct bus *b, uint32_t addr)
{
	uint32_t ln = addr >> b->iline_shift;
	/* the mode first: outside BUS_MODEL the caches stay empty, and a
	 * lookup in them would cost the replay's thread a miss per call */
	if (__builtin_expect(b->mode != BUS_MODEL, 0)) {
		b->last_iline = ln;
		b->last_iline_valid = 1;
		if (b->mode == BUS_LOG)
			bus_log_put(b, BUS_EV_IFETCH, addr);
		return;
	}
	if (cache_hit_last(&b->ic, ln, 0)) {
		b->last_iline = ln;
		b->last_iline_valid = 1;
		return;
	}
	bus_ifetch_slow(b, addr);
}
static inline void bus_ifetch(struct bus *b, uint32_t addr)
{
	if (b->last_iline_valid && (addr >> b->iline_shift) == b->last_iline)
		return; /* same line as the last fetch: a hit that changes no state */
	bus_ifetch_line(b, addr);
}

/* A cached data access of SIZE bytes at ADDR (in RAM) by the core; VALUE is
 * the stored value for writes (used in write-through mode). */
void bus_data_slow(struct bus *b, uint32_t addr, unsigned size, int is_write, uint64_t value);
static inline void bus_data(struct bus *b, uint32_t addr, unsigned size, int is_write, uint64_t value)
{
	/* the common case inline: within one line, a hit on the way its set
	 * used last, and not a write-through store (which goes to the bus) */
	/* the mode first, as in bus_ifetch_line */
	if (__builtin_expect(b->mode != BUS_MODEL, 0)) {
		if (b->mode == BUS_LOG) { /* a load's value: the model does not read it */
			if (is_write)
				bus_log_put2(b, BUS_EV_DATA | size << 8 | 1u << 12, addr, value);
			else
				bus_log_put(b, BUS_EV_DATA | size << 8, addr);
		}
		return;
	}
	uint32_t ln = addr >> b->dline_shift;
	int wt_store = is_write && b->cfg.dcache.write_through;
	if (!wt_store && ln == (addr + size - 1) >> b->dline_shift && cache_hit_last(&b->dc, ln, is_write))
		return;
	bus_data_slow(b, addr, size, is_write, value);
}

/* An uncached access to the device window (the core's read value or written
 * value).  Cache-maintenance commands take effect here, after the event. */
void bus_uncached(struct bus *b, uint32_t addr, unsigned size, int is_write, uint64_t value);

/* A DMA write of LEN bytes (within one D line) at ADDR, at the instruction
 * boundary (BCOUNT, PC): snoops both caches (writing back a dirty D line),
 * reports the transfer, then writes RAM. */
void bus_dma(struct bus *b, uint32_t addr, const uint8_t *data, uint32_t len, uint64_t bcount, uint32_t pc);

/* Reports an interrupt taken at boundary (BCOUNT, EPC). */
void bus_irq(struct bus *b, unsigned line, uint32_t epc, uint64_t bcount);

/* Reports a marker event (START, SYNC, STOP) built by the caller. */
void bus_marker(struct bus *b, struct citcat_cat_event *ev);

#endif
