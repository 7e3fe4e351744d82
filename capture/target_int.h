/* The capture model's internal state, shared by capture/target.c (the core
 * hooks, the trace module, the run) and the device files capture/dev_*.c.
 * Not part of the library's API. */
#ifndef CITCAT_TARGET_INT_H
#define CITCAT_TARGET_INT_H

#include "bus.h"
#include "capture.h"
#include "citcat_regs.h"
#include "core.h"
#include "daf.h"
#include "itrace.h"
#include "lvt_tm.h"
#include "replay_block.h"

#include <stdio.h>
#include <unicorn/unicorn.h>

struct target;
struct rblk_cache;
struct rblk;

/* One device of the target (TARGET.md "Devices"): a block of registers at
 * BASE (an offset in the device window, a multiple of 0x100) of SIZE bytes,
 * and its behaviour.  OFF is relative to BASE.  NULL members: the device has
 * no such behaviour.
 *  - read: returns 0 with *V set, or -1 for an unassigned register (a bus
 *    error, reported by the caller);
 *  - write: returns 0, or -1 for an unassigned register;
 *  - next_event: the cycle of the device's next own event (UINT64_MAX none);
 *  - fire: runs that event, due now (PC: the boundary it happens at);
 *  - next_wakeup: the cycle of the next event that can raise an interrupt
 *    line the controller has enabled (UINT64_MAX none): what can end a WFI.
 * Events due at the same cycle fire in table order. */
struct device {
	const char *name;
	uint32_t base, size;
	int (*read)(struct target *t, uint32_t off, uint32_t *v);
	int (*write)(struct target *t, uint32_t off, uint32_t v);
	uint64_t (*next_event)(const struct target *t);
	void (*fire)(struct target *t, uint64_t now, uint32_t pc);
	uint64_t (*next_wakeup)(const struct target *t);
	/* Whether a 4-byte write of offset OFF is accepted (write returns 0
	 * there), asked before the write is recorded; NULL: no register is
	 * writable.  tests/test_regmap.c probes every offset against write. */
	int (*writable)(uint32_t off);
	/* Whether a 4-byte read of offset OFF is served (read returns 0
	 * there), asked by the Cortex-M7 before the read (a precise BusFault
	 * otherwise); NULL: no register is readable.  tests/test_regmap.c
	 * probes every offset against read. */
	int (*readable)(uint32_t off);
	/* The reads that are loud now: bit K set when a read of offset 4 K
	 * would bring a device event *DELAY cycles after it (a UART's DATA
	 * with a byte waiting starts the wait for the next one), or make an
	 * interrupt line pending at once (*DELAY 0).  The block engine answers
	 * the other reads of READABLE offsets, and these while *DELAY exceeds
	 * the cycles left in the block, in the middle of the block (TARGET.md
	 * "Device reads in the block engine").  NULL with READ set: every
	 * read may be loud at once. */
	uint64_t (*loud_reads)(const struct target *t, uint64_t *delay);
	/* The writes that change nothing a device event, an interrupt line or
	 * the run's end depends on: bit K for offset 4 K (the UART's DATA, a
	 * byte out; the system controller's SCRATCH).  The block engine makes
	 * them in the middle of a block (TARGET.md "Device reads in the block
	 * engine"); any other write turns back to per instruction. */
	uint64_t quiet_writes;
};

/* Whether the device window offset OFF (4-byte aligned) is a register some
 * device accepts a write of: the table's writable members. */
int target_dev_writable(uint32_t off);

/* Whether the device window offset OFF (4-byte aligned) is a register some
 * device serves a read of: the table's readable members. */
int target_dev_readable(uint32_t off);

/* struct device's loud_reads for a device none of whose reads touches an
 * interrupt line or a device event: 0 (capture/devices.c). */
uint64_t target_no_loud_reads(const struct target *t, uint64_t *delay);

/* The device table (capture/devices.c). */
extern const struct device *const target_devices[];
extern const unsigned target_ndevices;

/* One file per device. */
extern const struct device dev_sysctl, dev_cache, dev_intc, dev_timer, dev_uart, dev_dma, dev_cycles, dev_entropy,
	dev_trng, dev_trace;

struct target {
	uc_engine *uc;
	const struct citcat_capture_config *cfg;
	int bare; /* benchmark baseline (struct cc_capture_bench) */
	struct bus bus;
	uint8_t *ram;
	uint32_t ram_base, ram_size;

	/* trace module */
	struct citcat_cat_writer *cat;
	struct citcat_itrace_writer *oracle;
	struct lvt_tm *lvt; /* first-access load-value mode (LVT.md), or NULL */
	struct citcat_daf_writer *daf; /* DAF mode (formats/DAF.md): fed like the oracle */
	int recording, synced, sync_pending, stop_pending, ended;
	uint64_t bcount, traced_insns;
	uint32_t expect_pc; /* address + size of the last retired instruction */
	int after_exception;
	/* segment checkpoints (capture/ckpt.c) */
	uint64_t ckpt_seg_start, ckpt_count;
	int ckpt_busy, ckpt_point_pending;
	uint8_t itstate; /* ITSTATE after the last retired instruction (machine/thumb.h) */
	uint8_t block_thumb; /* CPSR.T of the running translation block (struct core_hooks) */

	/* core */
	uint64_t insns;
	int stop_request, exit_code, stop_reason;
	/* abnormal ends (CAT.md, STOP): the trace is closed validly there */
	int faulted, interrupt_pending;
	uint32_t fault_kind, fault_pc, fault_addr, stop_pc;
	int has_m7_fault;                /* the Cortex-M7 ended by fault kind 11: M7_FAULT holds its status */
	struct citcat_m7_fault m7_fault;
	uint32_t last_pc; /* the instruction executing (its code hook's address) */
	char stop_detail[160];
	struct citcat_itrace_rec cur;
	int cur_valid;

	/* devices */
	uint32_t intc_pending, intc_enable;
	uint32_t timer_period, timer_on, timer_ticks;
	uint64_t timer_next;
	FILE *uart_in;
	int uart_rx_avail, uart_rx_eof, uart_irq;
	uint8_t uart_rx_byte;
	uint64_t uart_next;
	FILE *dma_in, *entropy_in;
	uint32_t dma_dst, dma_len, dma_count, dma_status, dma_irq;
	uint64_t dma_next;
	uint32_t cycles_hi_latch, scratch;
	uint64_t trng_taken_at; /* cycle of the last DATA read with a value ready (0: reset) */
	uint32_t trng_count, trng_value;
	int trng_ready;
	uint64_t rec_counts[CITCAT_CAT_KINDS]; /* events recorded in the CAT */
	uint64_t rng_dma, rng_entropy;
	uint64_t next_event;
	const struct device *next_dev;    /* whose event is at next_event */
	const struct device *dev_at[256]; /* by (offset >> 8) in the device window */
	const struct device *ev_dev[16];  /* the devices with events, in table order */
	unsigned n_ev_dev;
	const struct device *loud_dev[16]; /* the devices whose reads can be loud (struct device's loud_reads) */
	unsigned n_loud_dev;
	/* the least *DELAY of a loud read now (UINT64_MAX: none), worked out
	 * again when LOUD_STALE, which every change of a device's state sets
	 * (recompute_next) */
	uint64_t loud_min;
	int loud_stale;

	/* the block engine (TARGET.md "The block engine"): BLK_PRECISE when
	 * the code hook is installed and the device window mapped (always so
	 * under the insn engine); otherwise the current block BLK retires from
	 * BLK_NEXT as its accesses come (BLK_ACC_LEFT more calls belong to the
	 * instruction retired last) and at the next block hook */
	int blk_engine, blk_precise, blk_want_switch;
	int blk_hold; /* the next block runs per instruction: it starts at a device access */
	uint32_t blk_switch_pc, blk_next, blk_acc_left;
	/* the flags the conditional memory instructions of a block with FSNAP
	 * are decided on (replay_block.h FSRC; replay/REPLAY.md "Attribution
	 * with the flags of an earlier point"): the CPSR at the block's start,
	 * and at the first access of each instruction marked RBLK_FS_TAKE */
	uint32_t blk_fs_entry, blk_fs_snap[RBLK_MAX_INSNS];
	/* Two engines (TARGET.md "Two engines"): BLK_UC[1] runs per
	 * instruction (the code hook, the device window mapped), BLK_UC[0],
	 * opened at the first change to blocks, runs blocks (no code hook,
	 * the window mapped with cblk_mmio_read and cblk_mmio_write); UC is
	 * the one running, and a change of mode
	 * moves the CPU state (BLK_CTX) instead of dropping every translation
	 * of RAM.  BLK_CGRAN: a bit per 64-byte granule of RAM that holds code
	 * either engine translated; BLK_DIRTY[k]: the RAM offsets written
	 * into such granules since engine k last ran, dropped from it as it
	 * takes over (a store of one engine does not reach the other's
	 * translations: tests/test_unicorn_engines.c part 8). */
	void *blk_uc[2];
	uc_context *blk_ctx;
	uint8_t *blk_cgran;
	struct core_dirty blk_dirty[2];
	struct rblk_cache *blk_cache;
	const struct rblk *blk;
	/* the current block's cursor in its attribution schedule (rblk
	 * sched): the entries of the memory-hook calls still to come, both
	 * NULL when BLK has none (no block, or a conditional memory
	 * instruction: then BLK_ACC_LEFT and the scan of cblk_attribute) */
	const uint16_t *blk_pos, *blk_end;
	int blk_keeps_state; /* BLK's last instruction cannot change the state (rblk_keeps_state, replay_block.h) */
	int blk_code_written; /* a store of BLK's execution wrote into BLK's bytes */
	uint64_t blk_switches, blk_prog_mark, blk_blocks;
	/* switches since BLK_WIN_START (instructions), and the instructions
	 * of the blocks run without the code hook since (at most: a device
	 * access ends one early); per instruction until BLK_HOLD_UNTIL when
	 * the blocks did not pay for the switches (cblk_switch) */
	uint64_t blk_win_start, blk_win_n, blk_win_binsns, blk_hold_until;
	unsigned blk_hold_n; /* back-offs so far (cblk_switch) */
	/* auto: the windows run per instruction that only work out what the
	 * blocks would have run (BLK_SIM; BLK_SIM_IN: the simulated run is
	 * in a block now), before engine 0 first opens and after each
	 * back-off (cblk_sim) */
	uint8_t blk_sim, blk_sim_in;
	uint64_t blk_pen_line, blk_pen_acc; /* cycle bounds: one I-line fetch, one access (cblk_qualify) */
	uint64_t blk_far_insn, blk_far_block; /* the bound of a block of N: at most N x the first + the second */

	struct citcat_errinfo *err;
	int failed;
	struct m7cap *m7; /* the Cortex-M7 model (capture/target_m7.c), NULL on the A target */
};

/* Records the first failure (message formatted like printf) and stops the
 * core.  Returns CODE (or the first failure's code). */
int target_fail(struct target *t, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Closes the oracle record of the instruction that retired last (so that a
 * record at this boundary, e.g. a DMA transfer, follows it). */
void target_flush_oracle(struct target *t);

/* What the Cortex-M7 model (capture/target_m7.c) shares with the A target's
 * (capture/target.c): the trace module, the devices, the retirement of an
 * instruction and the device window's MMIO callbacks. */
void target_trace_stop(struct target *t, int reason);
void target_fault(struct target *t, unsigned kind, uint32_t pc, uint32_t addr, const char *msg);
int target_boundary_begin(struct target *t, uint32_t a);
void target_recompute_next(struct target *t);
void target_devices_advance(struct target *t, uint32_t pc);
uint64_t target_next_wakeup(const struct target *t);
/* WFI: what wakes the target's core (target_wfi_sleep). */
struct target_wake {
	int (*awake)(struct target *t);       /* an exception/interrupt can be taken now: stop sleeping */
	uint64_t (*next)(struct target *t);   /* the cycle of the next event that can wake it (UINT64_MAX: none) */
	void (*detail)(struct target *t);     /* why it cannot wake, into t->stop_detail */
	void (*advance)(struct target *t);    /* the devices (and timers) at the new cycle */
};
/* Sleeps at the WFI at PC until W says awake.  Returns 0 awake (or
 * interrupted), -1 the run ended (a WFI deadlock) or failed. */
int target_wfi_sleep(struct target *t, uint32_t pc, const struct target_wake *w);
/* Before the trace start point: fails the run (returns 1) when the
 * instruction at A (WORD, SIZE, THUMB) is a branch to itself that no
 * interrupt can leave (MASKED, or none W can wake with). */
int target_spin_check(struct target *t, uint32_t a, uint32_t word, unsigned size, int thumb, int masked,
		      const struct target_wake *w);
int target_retire(struct target *t, uint32_t a, unsigned size, uint32_t word, int thumb);
void target_oracle_access(struct target *t, uint32_t addr, unsigned size, int write, uint64_t value, int uncached);
uint64_t target_mmio_read(uc_engine *uc, uint64_t off, unsigned size, void *ctx);
void target_mmio_write(uc_engine *uc, uint64_t off, unsigned size, uint64_t value, void *ctx);

static inline uint64_t splitmix(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

#endif
