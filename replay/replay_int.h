/* Internal to the replayers (replay.c, lvt_replay.c): not installed.
 *
 * Both replayers drive a Unicorn core through the same hook structure
 * (machine/core.h) and keep the same run state: the instruction being
 * retired and its itrace record, the branch counter, a history ring for the
 * divergence report, the regenerated itrace and the oracle it is compared
 * with.  That state and what acts on it alone live here, once, as struct
 * replay_core, the first member of each replayer's own struct; the checks
 * that differ (the AES schedule, the LVT's load values) stay in each
 * replayer. */
#ifndef CITCAT_REPLAY_INT_H
#define CITCAT_REPLAY_INT_H

#include "replay.h"
#include "bus.h"
#include "armcore.h"
#include "core.h"
#include "thumb.h"

#include <stdarg.h>
#include <stdint.h>
#include <time.h>
#include <unicorn/unicorn.h>

struct replay_core {
	struct citcat_replay_result *res;
	struct citcat_errinfo *err;
	uc_engine *uc;
	struct bus bus;
	uint8_t *ram, *known; /* RAM and a bitmap of the bytes whose value is known */
	uint32_t ram_base, ram_size;
	struct core_rsplit rsplit; /* the LVT decoder's READ hook: echoes of a page-crossing load (core.h) */

	struct citcat_itrace_reader *orc; /* the oracle, or NULL */
	struct citcat_itrace_writer *out; /* the regenerated itrace, or NULL */
	const char *oracle_path, *out_path;

	uint64_t bcount, insns;
	uint64_t cur_index; /* index of the instruction at cur_pc */
	uint32_t expect_pc, cur_pc;
	uint8_t itstate; /* ITSTATE after the last retired instruction (machine/thumb.h) */
	uint8_t insn_in_it; /* the last retired instruction lies inside an IT block */
	uint8_t it_at;      /* its ITSTATE (0 outside a block; the Cortex-M7's BusFault stacks it) */
	uint8_t resume; /* uc_emu_start failed after a hook took an exception: go on (replay_run) */
	uint8_t last_size, last_thumb; /* of the last retired instruction */
	uint8_t block_thumb; /* CPSR.T of the running translation block (struct core_hooks) */
	/* failed: 1 a divergence (res->div), 2 an error (err, res->err_path) */
	int after_exception, done, failed;
	struct citcat_itrace_rec cur, orec; /* the record being built; the oracle's */
	int cur_valid;
	/* the Cortex-M7's fault status of a STOP of fault kind 11 being
	 * written (the itrace records it, ITRACE.md; checked against the
	 * oracle's) */
	int has_m7_fault;
	struct citcat_m7_fault m7_fault;
	uint32_t hist_pc[CITCAT_REPLAY_HISTORY], hist_word[CITCAT_REPLAY_HISTORY];
	uint8_t hist_size[CITCAT_REPLAY_HISTORY], hist_thumb[CITCAT_REPLAY_HISTORY];
	/* Brings the history ring up to date before it is read (NULL: it
	 * always is): the block engine writes its instructions' entries only
	 * when something reads them (replay.c, hist_sync).  Called by
	 * replay_diverge and by every other reader of the ring. */
	void (*hist_sync)(struct replay_core *c);
	/* a divergence also records the register file and the last interrupt
	 * entry (irq_*, kept by the replayer) when snapshot is set */
	int snapshot;
	int irq_seen;
	unsigned irq_line;
	uint32_t irq_epc;
	uint64_t irq_index;
	double t0; /* when the run began (replay_now_s) */
	enum citcat_isa itrace_isa; /* of the regenerated itrace; 0 is CITCAT_ISA_ARM_A32 */
	uint32_t itrace_segment;    /* K + 1 when it is segment K's (ITRACE.md, Metadata), else 0 */
	int ckpt_cut; /* a checkpoint was entered: cut the itrace's chunk after its INV_I store (replay_output) */
	/* Called by replay_run when uc_emu_start returned without an error
	 * before the run is done (NULL: none); 1 when it stopped on purpose and
	 * the run goes on at *PC (the block engine's mode change; bit 0 selects
	 * Thumb state). */
	int (*between)(struct replay_core *c, uint32_t *pc);
	/* replay_run starts at the core's PC and state, not EXPECT_PC (a
	 * replay session resuming, replay_sess.h); cleared by replay_run */
	uint8_t start_here;
	/* the next run's until address (0: CORE_UNTIL), for that run only: the
	 * block engine's cut in front of an interrupt inside a block */
	uint32_t until;
};

static inline int replay_kbit(const uint8_t *m, uint32_t i) { return (m[i >> 3] >> (i & 7)) & 1; }
static inline void replay_kset(uint8_t *m, uint32_t i) { m[i >> 3] |= (uint8_t)(1u << (i & 7)); }
static inline void replay_kclr(uint8_t *m, uint32_t i) { m[i >> 3] &= (uint8_t)~(1u << (i & 7)); }

/* Marks the SIZE bytes at RAM offset OFF known. */
static inline void replay_kset_range(uint8_t *m, uint32_t off, unsigned size)
{
	if ((off & 7) + size <= 8) { /* within one bitmap byte: one mask */
		m[off >> 3] |= (uint8_t)(((1u << size) - 1) << (off & 7));
		return;
	}
	for (unsigned i = 0; i < size; i++)
		replay_kset(m, off + i);
}

/* Whether every byte of [ADDR, ADDR + SIZE) (within RAM) is known. */
static inline int replay_known_range(const struct replay_core *c, uint32_t addr, unsigned size)
{
	uint32_t off = addr - c->ram_base;
	if ((off & 7) + size <= 8) { /* within one bitmap byte: one mask test */
		unsigned m = ((1u << size) - 1) << (off & 7);
		return (c->known[off >> 3] & m) == m;
	}
	for (unsigned i = 0; i < size; i++)
		if (!replay_kbit(c->known, off + i))
			return 0;
	return 1;
}

/* Starts the run state: results in RES, errors in ERR, the oracle and the
 * regenerated itrace at these paths (either may be NULL). */
void replay_begin(struct replay_core *c, struct citcat_replay_result *res, struct citcat_errinfo *err,
		  const char *oracle_path, const char *out_path);

/* Records the first divergence (at the instruction at cur_pc: the check,
 * the expected text, FOUND_FMT formatted) and stops the core; nothing once
 * the run has failed. */
void replay_diverge(struct replay_core *c, const char *check, const char *expected, const char *found_fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Records the first error (CODE at file offset OFF in PATH, which may be
 * NULL when the message names the file) and stops the core.  Returns CODE. */
int replay_fail(struct replay_core *c, const char *path, int code, uint64_t off, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

/* An input file at PATH is unusable: keep its reader's error E. */
void replay_input_error(struct replay_core *c, const char *path, const struct citcat_errinfo *e);

/* Adds a data access to the record of the instruction being retired. */
static inline void replay_add_access(struct replay_core *c, uint32_t addr, unsigned size, int write, uint64_t value,
				     int uncached)
{
	if (!c->cur_valid || c->cur.n_acc >= CITCAT_ITRACE_MAX_ACC)
		return;
	core_record_access(&c->cur, addr, size, write, value, uncached);
}

/* Writes record R to the regenerated itrace and compares it with the
 * oracle's next one. */
void replay_output(struct replay_core *c, const struct citcat_itrace_rec *r);
/* replay_output of the records, without accesses, of the decoded block B's
 * instructions FROM..FROM+N-1, the first at PC, when only the itrace takes
 * records (no oracle, no checkpoint cut pending): one call to the writer
 * (itrace_write_blk, with the block's memo of the word table). */
struct rblk;
void replay_output_blk(struct replay_core *c, const struct rblk *b, uint32_t pc, uint32_t from, uint32_t n);

/* The instruction boundary before the instruction at A: the branch-counter
 * rule, and A becomes the current instruction. */
static inline void replay_boundary(struct replay_core *c, uint32_t a)
{
	if (core_branched(a, c->expect_pc, c->after_exception))
		c->bcount++;
	c->after_exception = 0;
	c->cur_pc = a;
	c->cur_index = c->insns;
}

/* The instruction at A (SIZE bytes as Unicorn reports it) must lie in RAM,
 * and be an ARM one when ARM_ONLY (no replayer asks since the LVT decoder runs
 * Thumb code too: LVT.md); otherwise
 * reports the divergence and returns 0. */
int replay_fetch_in_ram(struct replay_core *c, uint32_t a, uint32_t size, int arm_only);

/* The next condition-failed instruction of the current IT block, at
 * C->expect_pc, before the boundary at A (Unicorn runs no code hook for it:
 * tests/test_unicorn_thumb.c); CPSR holds the flags.  Returns 1 with its
 * address, size and word in *PC, *SIZE, *WORD, or 0 when there is none
 * (no IT block, execution went on at A, the condition holds, or its bytes
 * are not in the memory image).  The caller retires it (which advances the
 * IT state) and asks again: replay.c and lvt_replay.c, as the capture
 * model's it_skipped (capture/target.c). */
int replay_it_failed_next(const struct replay_core *c, uint32_t a, uint32_t cpsr, uint32_t *pc, unsigned *size,
			  uint32_t *word);

/* Retires the instruction WORD at A (SIZE bytes, in Thumb state when THUMB):
 * the history ring, the counters, the IT state and a new record (closed at
 * the next boundary). */
/* Instruction N (0-based) enters the history ring the divergence report shows. */
static inline void replay_hist_put(struct replay_core *c, uint64_t n, uint32_t a, unsigned size, uint32_t word, int thumb)
{
	unsigned k = (unsigned)(n % CITCAT_REPLAY_HISTORY);
	c->hist_pc[k] = a;
	c->hist_word[k] = word;
	c->hist_size[k] = (uint8_t)size;
	c->hist_thumb[k] = (uint8_t)thumb;
}

static inline void replay_retire(struct replay_core *c, uint32_t a, unsigned size, uint32_t word, int thumb)
{
	replay_hist_put(c, c->insns, a, size, word, thumb);
	c->insns++;
	c->expect_pc = a + size;
	c->it_at = c->itstate;
	c->insn_in_it = c->itstate != 0;
	c->itstate = thumb_is_it(word, size) ? (uint8_t)(word & 0xff) : thumb_it_advance(c->itstate);
	c->last_size = (uint8_t)size;
	c->last_thumb = (uint8_t)thumb;
	core_record_insn(&c->cur, a, word, size, thumb);
	c->cur_valid = 1;
}

/* An asynchronous event (IS_IRQ: an interrupt, else a DMA transfer) was due
 * at branch BCOUNT, pc PC: when that boundary has been passed, reports the
 * divergence.  WHAT names it ("an interrupt", ...). */
void replay_event_missed(struct replay_core *c, int is_irq, const char *what, uint64_t bcount, uint32_t pc);

/* Before taking a recorded interrupt: with interrupts masked, reports the
 * divergence and returns 0. */
int replay_irq_enabled(struct replay_core *c, unsigned line);

/* Takes the recorded interrupt on LINE at the boundary before A (its
 * record already written): the exception entry, remembered for the
 * divergence report. */
void replay_enter_irq(struct replay_core *c, unsigned line, uint32_t a);

/* Opens the oracle (DMA records compared too) and the regenerated itrace
 * when their paths are set.  Returns 0 or the error (recorded). */
int replay_open_itraces(struct replay_core *c);

/* The ARMv7-A engine with the replayer's MMIO callbacks and HOOKS (context
 * CTX), started from REGS with SCTLR.TE = TE (the state exception entries
 * take from P on; TARGET.md, IRQ entry; the firmware may change it later).
 * Returns 0 or the error (recorded). */
int replay_open_core(struct replay_core *c, uint32_t dev_base, uint32_t dev_size, uc_cb_mmio_read_t mmio_read,
		     uc_cb_mmio_write_t mmio_write, const struct core_hooks *hooks, void *ctx,
		     const struct arm_state *regs, int te);

/* Whether the replayer reproduces a recorded fault of KIND at PC (address
 * ADDR) here: it then ends the run and returns 1. */
typedef int (*replay_fault_fn)(struct replay_core *c, unsigned kind, uint32_t pc, uint32_t addr);

/* Runs the core from expect_pc until the run is done or has failed.  When
 * Unicorn stops on its own (an undefined instruction, the until address)
 * that is a divergence unless FAULT (may be NULL) reproduces it. */
void replay_run(struct replay_core *c, replay_fault_fn fault);

/* After the run: the oracle must end with it. */
void replay_oracle_end(struct replay_core *c);

/* The run's result code: CITCAT_ERR_DIVERGED, the recorded error, or 0 once
 * the regenerated itrace is complete. */
int replay_finish(struct replay_core *c);

/* Sets the result's instruction count and run time, and releases the
 * engine, the bus, the itrace reader and writer (a written itrace that was
 * not finished is removed). */
void replay_fini(struct replay_core *c);

/* Fills D with a divergence found at instruction INDEX (branch count BCOUNT,
 * PC): the check, the expected text, FOUND_FMT formatted with AP, and the
 * last min(INSNS, CITCAT_REPLAY_HISTORY) instructions from the ring
 * HIST_PC/HIST_WORD, indexed by instruction number modulo its size. */
void replay_divergence_fill(struct citcat_divergence *d, const char *check, uint64_t index, uint64_t bcount,
			    uint32_t pc, const char *expected, uint64_t insns, const uint32_t *hist_pc,
			    const uint32_t *hist_word, const uint8_t *hist_size, const uint8_t *hist_thumb,
			    const char *found_fmt, va_list ap);

/* The instruction-trace check: RC is what citcat_itrace_next returned for
 * the oracle's next record WANT (1 a record, 0 its end), GOT the regenerated
 * record.  Returns 0 when they are equal; otherwise 1 with both described
 * in WANT_TEXT and GOT_TEXT for the divergence report. */
int replay_oracle_differs(int rc, const struct citcat_itrace_rec *want, const struct citcat_itrace_rec *got,
			  char want_text[200], char got_text[200]);

/* Monotonic seconds, for the result's run time. */
static inline double replay_now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

#endif
