/* The replayer (chapter 3 of the CITCAT thesis, the seven-step procedure):
 * initialise a Unicorn core from the IMS, execute, and at every instruction
 * boundary consult the AES for an interrupt or DMA transfer due exactly
 * there (branch count and PC both equal); uncached reads take the next
 * value of the device input queue (or counter history), uncached writes are
 * checked against the output log.  The memory system (machine/bus.c) is
 * driven call for call as in the capture model, so the bus trace it reports
 * can be compared with the recorded CAT; when nothing reads that bus trace
 * (no CAT, no bus callback) it is not driven at all (BUS_OFF, REPLAY.md
 * "When the memory-system model runs").
 *
 * The hook structure mirrors capture/target.c on purpose; the Unicorn
 * behaviours it relies on are listed there and pinned by tests/test_unicorn.c.
 * In particular a divergence found inside a memory hook or MMIO callback
 * calls uc_emu_stop there, which abandons the instruction: harmless, since
 * the run ends. */
#include "replay.h"
#include "replay_int.h"
#include "replay_m7.h"
#include "replay_block.h"
#include "replay_sess.h"
#include "aes.h"
#include "armcore.h"
#include "bus.h"
#include "bytes.h"
#include "cat_feed.h"
#include "model_pipe.h"
#include "ckpt.h"
#include "core.h"
#include "ims.h"
#include "itrace.h"
#include "thumb.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unicorn/unicorn.h>

#define EVQ_CAP 256 /* events looked ahead (a power of 2) */
#define HR_MAX 256  /* blocks with a code hook of their own, at most */
#define HMEMO 256   /* tb_hooked's answers kept */
#define HSPAN 16    /* blk_retire_run's spans kept for the history ring (hist_push; a power of 2) */
enum { STOP_NONE, STOP_HOOK, STOP_EVENT, STOP_UNTIL, STOP_GLOBAL, STOP_INSN, STOP_AGAIN };
/* Instructions auto judges at a time (blk_window); tests shorten it. */
unsigned replay_auto_window = 1u << 20;
/* Unicorn 2.0.1 calls the one code hook it has straight from translated
 * code; with two or more it calls helper_uc_tracecode, which walks them all
 * for every instruction (its gen_uc_tracecode, include/tcg/tcg-op.h:
 * hooks_count == 1 inlines the call; REPLAY.md "Blocks with a code hook
 * of their own, and auto's start").  Measured on counter, 12 range hooks: 172 host
 * instructions an instruction in the helper, about 50 + 10 per hook, where
 * a block saves 140-190 an instruction over the insn engine (--verify, the
 * corpus).  Yet there, with half its instructions under those hooks, the
 * code hook over everything still cost more than the blocks (546 M host
 * instructions against 533 M: it adds the block hook's calls and drops
 * every translation), so an instruction under one of NHR >= 2 range hooks
 * counts half the helper's weight, (NHR + 5) / 30 of an instruction's
 * saving, on top of saving none.  In fifteenths of an instruction. */
#define BLK_HELPER_W(nhr) ((nhr) >= 2 ? ((uint64_t)(nhr) + 5) / 2 : 0)


struct replayer {
	struct replay_core c; /* first: the hooks' context is either */
	const struct citcat_replay_config *cfg;
	struct citcat_ims ims;

	struct citcat_aes_reader *aes;
	struct citcat_aes_rec next; /* lookahead */
	int next_valid;
	int next_async;             /* next is an interrupt or DMA record */
	uint64_t total;             /* instructions in the traced interval */

	int64_t cat_seg; /* the --verify CAT's segment (-1: the whole trace) */

	int fault_seen; /* the recorded fault was reproduced (AES END, CITCAT_STOP_FAULT) */

	/* The model thread (model_pipe.h, REPLAY.md "session 12: the model
	 * thread"): C.BUS logs, MBUS (the model, on the thread, over its own
	 * copy of RAM, MRAM) compares with the CAT in pipe_sink; PIPE_EVENTS
	 * counts its events.  REDO: the thread found a difference or could not
	 * read the CAT, so the run is made again inline for the report. */
	struct model_pipe *pipe;
	int use_pipe; /* pipe_wanted */
	int mbus_init;
	uint8_t *mram;
	int redo;
	/* The run made again inline (REDO): a stop request (progress) is not
	 * taken before instruction QUIET_UNTIL, the first run's own count when
	 * it stopped, nor while the CAT's trace id is checked, so that the
	 * difference the thread found is reached and reported as inline, where
	 * it is found before a later Ctrl-C (REPLAY.md "session 13") */
	int redo_run;
	uint64_t quiet_until;
	struct replay_m7 *m7; /* the Cortex-M7 (isa 2), else NULL */

	/* The block engine (REPLAY.md "Block-granular replay").  PRECISE: the
	 * code hook is installed and every instruction retires in hook_code,
	 * always so under the insn engine; otherwise the current block BLK
	 * retires from BLK_NEXT as its accesses come (ACC_LEFT more calls
	 * belong to the instruction retired last) and at the next block hook. */
	int block;        /* the block engine runs */
	int records;      /* someone takes the itrace records (output, oracle, callbacks) */
	int seq_out;      /* only the itrace takes them, and no model runs (blk_retire_run) */
	int precise;
	/* How the block engine runs what it cannot run as a block, without
	 * dropping translations at every event (REPLAY.md "Interrupts, DMA and
	 * the block engine"): the block hook stops the core in front of a
	 * block for one of STOP_* (STOP_WHY, at SWITCH_PC, the block SWITCH_SIZE
	 * bytes long) and blk_between acts on it.  A block that must run per
	 * instruction gets a code hook of its own over its bytes (HR: NHR
	 * ranges, HGRAN a bit per 64-byte granule of RAM that one touches),
	 * kept for the rest of the run; an interrupt due in a block is entered
	 * between blocks, at a cut made with uc_emu_start's until (UNTIL_PC)
	 * when it lies inside one (once the second engine is open, UC2 below,
	 * by running the block up to it there); a DMA transfer inside a block
	 * is applied at its boundary as the block retires (BLK_EV: the index of
	 * the next one in BLK).  GLOBAL: the second engine, with its code
	 * hook over everything, runs every block per instruction, up to
	 * instruction DEGRADED_UNTIL (or, CUT2, until the cut it came for is
	 * passed). */
	int stop_why;
	uint32_t switch_size, until_pc;
	int until_on;
	uint64_t hold_insns; /* no event stop again at this boundary (blk_plan) */
	int global;
	uint64_t degraded_until, degrade_len;
	/* auto's choice (blk_window): the window of instructions from
	 * WIN_START, the interrupts entered at a cut inside a block in it,
	 * the instructions run by a code hook of a block's own (WIN_HOOKED;
	 * their helper calls weigh BLK_HELPER_W of the ranges now in) */
	int policy;
	uint64_t win_start, win_cuts, win_hooked;
	/* translations the stops above made Unicorn redo since its engine was
	 * opened: past replay_renew_after, blk_renew opens a new one */
	uint64_t churn;
	struct core_hooks hooks; /* the engine's hooks, for blk_renew */
	/* The second engine (REPLAY.md "Two engines"): UC2, opened at the
	 * first need (blk_open2), runs every block per instruction with a code
	 * hook over everything and translations of its own, so that running
	 * per instruction for a while (GLOBAL) or up to an interrupt's cut
	 * inside a block (CUT2) drops none of UC1's, the engine of blocks.
	 * P->C.UC is the one running; SWCTX carries the CPU state across
	 * (blk_switch).  DIRTY[k]: the RAM offsets written since engine k (0:
	 * UC1, 1: UC2) last ran that may hold code it translated
	 * (code_touched), dropped from it as it takes over (core_move).  CUTS:
	 * the interrupts entered at a cut inside a block so far. */
	uc_engine *uc1, *uc2;
	uc_context *swctx;
	struct core_dirty dirty[2];
	uint64_t cuts;
	int cut2;
	struct hrange {
		uint32_t lo, end;
		uc_hook h;
	} *hr;
	unsigned nhr, hr_cap;
	uint8_t *hgran;
	struct hmemo {
		uint32_t a, size;
		unsigned nhr;
		int h;
	} hmemo[HMEMO];
	uint32_t blk_ev;
	/* the flags at the current block's start and at the first access of
	 * each instruction marked RBLK_FS_TAKE (blk_set, blk_attribute) */
	uint32_t fs_entry, fs_snap[RBLK_MAX_INSNS];
	uint32_t dma_lo, dma_hi; /* what the transfers blk_retire_ev made wrote, from DMA_LO to DMA_HI */
	struct rblk_cache bcache;
	/* blk_qualify's proof that a cached block's bytes still are RAM's,
	 * without comparing them (code_touched says why it is exact; REPLAY.md
	 * "The load hooks' cost"): CGRAN a bit per 64-byte granule of RAM that
	 * holds bytes of a block verified in BCACHE, CODE_GEN the count of
	 * writes into a marked granule (from 1), BVER[slot] the CODE_GEN at
	 * which the slot's bytes were last equal to RAM's (0: never).  Only
	 * with the block engine (BLOCK). */
	uint8_t *cgran;
	uint64_t code_gen;
	uint64_t *bver;
	/* BHK[slot]: NHR + 1 when tb_hooked answered 0 (no code-hook call)
	 * for the slot's block with NHR ranges, else 0 (blk_cached) */
	unsigned *bhk;
	const struct rblk *blk;
	uint32_t blk_next, acc_left;
	/* The history ring's entries of the instructions blk_retire_run
	 * retired, not written yet (hist_sync): HSPAN_N spans, the last
	 * HSPAN of them kept, each instructions FROM..TO-1 of a block in
	 * BCACHE, the first instruction number N0 */
	struct hspan {
		const struct rblk *b;
		uint32_t from, to;
		uint64_t n0;
	} hspan[HSPAN];
	uint64_t hspan_n;
	/* BLK's cursor in its attribution schedule (rblk sched), both NULL
	 * when it has none (then ACC_LEFT and blk_attribute's scan) */
	const uint16_t *blk_pos, *blk_end;
	int blk_keeps; /* BLK's last instruction cannot change the state (rblk_keeps_state) */
	int blk_fast;  /* nothing takes the records: BLK retires in blk_retire_arm (1, A32) or blk_retire_tv (2, Thumb) */
	uint64_t prog_mark;
	uint32_t switch_pc; /* where the block hook stopped (bit 0: Thumb) */
	/* a second reader of the AES, read ahead into EVQ: the interrupt and
	 * DMA records not applied yet, in order (device records between them
	 * are the main reader's), EVQ_N of them from EVQ_HEAD, up to the AES's
	 * end (EVQ_EOF) */
	struct citcat_aes_reader *scan;
	struct ev_ahead {
		uint64_t bcount;
		uint32_t pc, addr, len;
		int irq;
	} evq[EVQ_CAP];
	unsigned evq_head, evq_n;
	int evq_eof;

	/* Written by the model thread during the run (when there is one), so
	 * kept off the cache lines of the replay's own fields: the --verify
	 * CAT (cat_feed.h): its events read so far, whether its start (SYNC,
	 * or the segment's start marker) and end (STOP, or the next marker)
	 * were among them; the model thread's bus and its event count. */
	char pad0[64];
	struct cat_feed *cat;
	uint64_t cat_read;
	int cat_synced, cat_stopped;
	uint64_t pipe_events;
	struct bus mbus;
	char pad1[64];

	/* A session (replay_sess.h, the replay cursor), else NULL: its
	 * boundary hook runs from instruction SESS_AT on, or at an address
	 * the breakpoint filter SESS_BPF passes; SESS_RESUME: the next code
	 * hook is the paused instruction's, which retires at once. */
	const struct replay_sess_hooks *sess;
	uint64_t sess_at;
	const uint8_t *sess_bpf;
	int sess_resume;
	uint64_t aes_count; /* AES records read by the main reader */
	const void *aes_buf; /* the session's AES in memory (NULL: cfg->aes_path) */
	size_t aes_len;
	struct citcat_replay_config sess_cfg;
};


/* The next event of the --verify CAT (cat_feed.c: read, decoded and hashed
 * into its trace id from SYNC to STOP inclusive, as the extractors do, on
 * the feed's thread).  *EV is valid until the next call. */
static inline int cat_next(struct replayer *p, const struct citcat_cat_event **ev)
{
	int rc = cat_feed_next(p->cat, ev, &p->cat_synced, &p->cat_stopped);
	p->cat_read += rc == 1;
	return rc;
}

/* The caller's progress callback: whether it asks the replay to stop
 * (Ctrl-C in the CLI); not taken in the run made again before the point the
 * first run reached (QUIET_UNTIL). */
static int stop_asked(struct replayer *p)
{
	return p->cfg->progress(p->cfg->progress_ctx, p->c.insns, p->total) &&
	       !(p->redo_run && p->c.insns <= p->quiet_until);
}

/* The K-th interrupt or DMA record not applied yet (0: the next), read
 * ahead by the scan reader; NULL after the last.  The scan reader's errors
 * are the main reader's to report. */
static const struct ev_ahead *evq_at(struct replayer *p, unsigned k)
{
	while (k >= p->evq_n && !p->evq_eof && p->evq_n < EVQ_CAP) {
		struct citcat_aes_rec r;
		if (!p->scan || citcat_aes_next(p->scan, &r) != 1 || r.kind == CITCAT_AES_END) {
			p->evq_eof = 1;
			break;
		}
		if (r.kind != CITCAT_AES_DMA && r.kind != CITCAT_AES_IRQ) {
			/* a queue record's copies (REPEAT) are no events: drop
			 * them without reading them one by one */
			citcat_aes_skip_repeats(p->scan);
			continue;
		}
		struct ev_ahead *e = &p->evq[(p->evq_head + p->evq_n++) & (EVQ_CAP - 1)];
		*e = (struct ev_ahead){r.bcount, r.pc, r.addr, r.len, r.kind == CITCAT_AES_IRQ};
	}
	return k < p->evq_n ? &p->evq[(p->evq_head + k) & (EVQ_CAP - 1)] : NULL;
}

/* The main reader applied the next interrupt or DMA record. */
static void evq_pop(struct replayer *p)
{
	if (evq_at(p, 0)) { /* read it first when nothing was read ahead yet */
		p->evq_head = (p->evq_head + 1) & (EVQ_CAP - 1);
		p->evq_n--;
	}
}

static void next_aes(struct replayer *p)
{
	if (p->sess && p->next_valid) /* the lookahead has been applied or consumed */
		p->sess->event(p->sess->ctx, &p->next, p->aes_count - 1);
	int rc = citcat_aes_next(p->aes, &p->next);
	p->aes_count += rc == 1;
	p->next_valid = rc == 1;
	p->next_async = rc == 1 && (p->next.kind == CITCAT_AES_DMA || p->next.kind == CITCAT_AES_IRQ);
	if (rc < 0) {
		replay_input_error(&p->c, p->cfg->aes_path, citcat_aes_reader_error(p->aes));
	} else if (rc == 0) {
		replay_fail(&p->c, NULL, CITCAT_ERR_TRUNCATED, UINT64_MAX, "%s: the AES ends without its END record", p->cfg->aes_path);
	}
}

static void describe_event(char *buf, size_t n, const struct citcat_cat_event *e)
{
	switch (e->kind) {
	case CITCAT_CAT_FILL_I: case CITCAT_CAT_FILL_D: case CITCAT_CAT_WRITEBACK:
		snprintf(buf, n, "%s 0x%08x", citcat_cat_kind_name(e->kind), e->addr);
		break;
	case CITCAT_CAT_WRITE: case CITCAT_CAT_UREAD: case CITCAT_CAT_UWRITE:
		snprintf(buf, n, "%s 0x%08x size %u value 0x%llx", citcat_cat_kind_name(e->kind), e->addr, e->size,
			 (unsigned long long)e->value);
		break;
	case CITCAT_CAT_DMA:
		snprintf(buf, n, "dma 0x%08x len %u at branch %llu pc 0x%08x", e->addr, e->len,
			 (unsigned long long)e->bcount, e->pc);
		break;
	case CITCAT_CAT_IRQ:
		snprintf(buf, n, "irq line %u at branch %llu epc 0x%08x", e->line, (unsigned long long)e->bcount, e->pc);
		break;
	case CITCAT_CAT_EXC:
		snprintf(buf, n, "exception %llu at branch %llu epc 0x%08x", (unsigned long long)e->value,
			 (unsigned long long)e->bcount, e->pc);
		break;
	default:
		snprintf(buf, n, "%s", citcat_cat_kind_name(e->kind));
	}
}

static void observe_failed(struct replayer *p, int rc);

/* For the report of a bus event whose data differ: where the first
 * differing byte is, and the recorded and regenerated bytes around it. */
static void keep_data_diff(struct citcat_divergence *d, const struct citcat_cat_event *want,
			   const struct citcat_cat_event *got)
{
	uint32_t n = want->len < got->len ? want->len : got->len, off = 0;
	while (off < n && want->data[off] == got->data[off])
		off++;
	d->have_data = 1;
	d->data_addr = want->addr;
	d->data_len = want->len;
	d->data_off = off;
	d->data_win = off & ~15u;
	d->data_n = n - d->data_win < 64 ? n - d->data_win : 64;
	memcpy(d->data_expected, want->data + d->data_win, d->data_n);
	memcpy(d->data_found, got->data + d->data_win, d->data_n);
}

/* --verify: the regenerated bus transaction EV against the next recorded
 * one (everything but timestamps).  Returns 0 when they are equal; else
 * *REC is the recorded event (NULL when the CAT could not be read, *RC
 * then the reader's result, or when it ended) and *DATA_DIFFERS says
 * whether only the bytes differ.  The events are described (snprintf)
 * only for a divergence report: doing it for every event was a fifth of
 * --verify (REPLAY.md). */
static int bus_compare(struct replayer *p, const struct citcat_cat_event *ev, const struct citcat_cat_event **recp,
		       int *rcp, int *data_differs)
{
	const struct citcat_cat_event *rec;
	int rc;
	do
		rc = cat_next(p, &rec);
	while (rc == 1 && !p->cat_stopped &&
	       (rec->kind == CITCAT_CAT_START || rec->kind == CITCAT_CAT_SYNC || rec->kind == CITCAT_CAT_CKPT));
	*rcp = rc;
	*recp = NULL;
	*data_differs = 0;
	if (rc < 0 || rc == 0 || rec->kind == CITCAT_CAT_STOP || p->cat_stopped) /* an error, the end of the trace or segment */
		return 1;
	*recp = rec;
	int same = rec->kind == ev->kind && rec->addr == ev->addr;
	if (same) {
		switch (ev->kind) {
		case CITCAT_CAT_FILL_I: case CITCAT_CAT_FILL_D: case CITCAT_CAT_WRITEBACK: case CITCAT_CAT_DMA:
			same = rec->len == ev->len && cc_same_bytes(rec->data, ev->data, ev->len) &&
			       (ev->kind != CITCAT_CAT_DMA || (rec->bcount == ev->bcount && rec->pc == ev->pc));
			*data_differs = !same;
			break;
		case CITCAT_CAT_WRITE: case CITCAT_CAT_UREAD: case CITCAT_CAT_UWRITE:
			same = rec->size == ev->size && rec->value == ev->value;
			break;
		case CITCAT_CAT_IRQ:
			same = rec->line == ev->line && rec->bcount == ev->bcount && rec->pc == ev->pc;
			break;
		case CITCAT_CAT_EXC:
			same = rec->value == ev->value && rec->bcount == ev->bcount && rec->pc == ev->pc;
			break;
		}
	}
	return !same;
}

/* The inline sink: the bus callback, then the CAT, a difference reported
 * at once (the replay's state is the instruction's). */
static void sink_event(void *ctx, const struct citcat_cat_event *ev)
{
	struct replayer *p = ctx;
	p->c.res->bus_events++;
	if (p->cfg->bus && !p->c.failed) {
		int orc = p->cfg->bus(p->cfg->bus_ctx, ev);
		if (orc) {
			if (p->cfg->observer)
				observe_failed(p, orc);
			else
				replay_fail(&p->c, NULL, orc, UINT64_MAX, "the bus observer stopped the replay");
		}
	}
	if (!p->cat || p->c.failed)
		return;
	const struct citcat_cat_event *rec;
	int rc, data_differs;
	if (!bus_compare(p, ev, &rec, &rc, &data_differs))
		return;
	char got[200], want[200];
	if (rc < 0) {
		replay_input_error(&p->c, p->cfg->verify_cat, citcat_cat_reader_error(cat_feed_reader(p->cat)));
		return;
	}
	describe_event(got, sizeof got, ev);
	if (!rec) {
		replay_diverge(&p->c, "bus trace", "no more bus events (the recording has ended)", "%s", got);
		return;
	}
	describe_event(want, sizeof want, rec);
	if (data_differs)
		snprintf(got + strlen(got), sizeof got - strlen(got), " (different data)");
	replay_diverge(&p->c, "bus trace", want, "%s", got);
	if (data_differs)
		keep_data_diff(&p->c.res->div, rec, ev);
}

/* The model thread's sink (MBUS): the same compare; at the first
 * difference or error the thread stops, and the run is made again inline,
 * which reports it from the replay's state at that point (REDO). */
static void pipe_sink(void *ctx, const struct citcat_cat_event *ev)
{
	struct replayer *p = ctx;
	p->pipe_events++;
	const struct citcat_cat_event *rec;
	int rc, data_differs;
	if (bus_compare(p, ev, &rec, &rc, &data_differs))
		model_pipe_fail(p->pipe);
}

/* On the replay's thread, at a hand-over after the model thread stopped:
 * the replay stops too (its outcome is replaced by the inline run's). */
static void pipe_stopped(void *ctx)
{
	struct replayer *p = ctx;
	if (p->c.failed)
		return;
	p->c.failed = 1;
	if (p->c.uc)
		uc_emu_stop(p->c.uc);
}

static const int obs_regs[CITCAT_OBS_NREGS] = {
	UC_ARM_REG_R0, UC_ARM_REG_R1, UC_ARM_REG_R2, UC_ARM_REG_R3, UC_ARM_REG_R4, UC_ARM_REG_R5,
	UC_ARM_REG_R6, UC_ARM_REG_R7, UC_ARM_REG_R8, UC_ARM_REG_R9, UC_ARM_REG_R10, UC_ARM_REG_R11,
	UC_ARM_REG_R12, UC_ARM_REG_SP, UC_ARM_REG_LR, UC_ARM_REG_PC, UC_ARM_REG_CPSR, UC_ARM_REG_SPSR};
/* The Cortex-M7 has no CPSR or SPSR: those slots hold xPSR and CONTROL
 * (replay.h), which say the mode and the stack in use. */
static const int obs_regs_m7[CITCAT_OBS_NREGS] = {
	UC_ARM_REG_R0, UC_ARM_REG_R1, UC_ARM_REG_R2, UC_ARM_REG_R3, UC_ARM_REG_R4, UC_ARM_REG_R5,
	UC_ARM_REG_R6, UC_ARM_REG_R7, UC_ARM_REG_R8, UC_ARM_REG_R9, UC_ARM_REG_R10, UC_ARM_REG_R11,
	UC_ARM_REG_R12, UC_ARM_REG_SP, UC_ARM_REG_LR, UC_ARM_REG_PC, UC_ARM_REG_XPSR, UC_ARM_REG_CONTROL};

/* The observer's register file (CITCAT_OBS_* slots); 0 or Unicorn's error. */
static int obs_read(struct replayer *p, uint32_t regs[CITCAT_OBS_NREGS])
{
	void *vals[CITCAT_OBS_NREGS];
	for (int i = 0; i < CITCAT_OBS_NREGS; i++)
		vals[i] = &regs[i];
	return uc_reg_read_batch(p->c.uc, (int *)(p->m7 ? obs_regs_m7 : obs_regs), vals, CITCAT_OBS_NREGS) != UC_ERR_OK;
}

/* The observer's error stops the run like an input error. */
static void observe_failed(struct replayer *p, int rc)
{
	const struct citcat_errinfo *e = p->cfg->observer->obs_err;
	if (e && e->code)
		replay_fail(&p->c, NULL, rc, e->offset, "%s", e->msg);
	else
		replay_fail(&p->c, NULL, rc, UINT64_MAX, "the observer stopped the replay");
}

static void observe(struct replayer *p, const struct citcat_itrace_rec *r)
{
	const struct citcat_replay_observer *o = p->cfg->observer;
	uint32_t regs[CITCAT_OBS_NREGS];
	if (!o->record || p->c.failed)
		return;
	if (obs_read(p, regs)) {
		replay_fail(&p->c, NULL, CITCAT_ERR_UNICORN, UINT64_MAX, "reading the registers failed");
		return;
	}
	int rc = o->record(o->ctx, r, regs);
	if (rc)
		observe_failed(p, rc);
}

static inline void emit_record(struct replayer *p, const struct citcat_itrace_rec *r)
{
	if (p->cfg->on_record && !p->c.failed && r->kind != CITCAT_REC_DMA) {
		int rc = p->cfg->on_record(p->cfg->record_ctx, r);
		if (rc)
			replay_fail(&p->c, NULL, rc < 0 ? rc : CITCAT_ERR_INTERRUPTED, UINT64_MAX,
			     "the record callback stopped the replay");
	}
	if (p->cfg->observer && r->kind != CITCAT_REC_STOP && r->kind != CITCAT_REC_DMA) /* observers see executed core records only */
		observe(p, r);
	replay_output(&p->c, r);
}

static int expected_fault(struct replayer *p, unsigned kind, uint32_t pc, uint32_t addr);

static int blk_attribute(struct replayer *p);
static void blk_finish(struct replayer *p);

/* Bytes [OFF, OFF + LEN) of RAM (offsets) are about to change, or have
 * just changed: when a block verified in BCACHE may hold one of them, every
 * slot must be compared with RAM again (CODE_GEN).
 *
 * Why blk_qualify may skip rblk_get's byte compare when the slot's BVER
 * equals CODE_GEN (exact): BVER is set to CODE_GEN right after rblk_get
 * compared or decoded the slot from RAM and blk_qualify marked the block's
 * granules in CGRAN; marks are never cleared.  So the compare can only
 * find a difference after a write into a marked granule, and every write
 * into this replayer's RAM (P->C.RAM, mapped by pointer into Unicorn) once
 * the block cache exists (replay_once: after load_memory) comes here
 * first:
 * - the core's stores: hook_mem, whose UC_HOOK_MEM_WRITE covers all of
 *   RAM in every engine Unicorn runs (core_add_hooks, also after
 *   blk_renew), per-instruction stretches too; Unicorn calls it in front
 *   of the store, before the next block hook.  The replay's exactness
 *   already rests on it seeing every store (the data cache model, the
 *   known-bytes bitmap); a call for a store that then does not happen (a
 *   fault, a failed STREX) only costs a compare;
 * - DMA transfers: bus_dma, the only writer of the AES's transfers
 *   (async_events_at), calls bus.code_changed, ram_changed here;
 * - nothing else writes P->C.RAM while the block engine runs: the IMS is
 *   loaded before (load_memory; a segment starts from its own checkpoint
 *   IMS, the redo run from a new replayer), the model thread writes its
 *   own copy (MRAM), the Cortex-M7's uc_mem_write (replay_m7.c) and the
 *   cursor's restores and undo (cursor.c) run on replayers without the
 *   block engine (block_refusal; the session is insn only), and the GDB
 *   server refuses memory writes. */
static inline void code_touched(struct replayer *p, uint32_t off, uint32_t len)
{
	if (!p->cgran || !core_gran_any(p->cgran, p->c.ram_size, off, len))
		return;
	p->code_gen++;
	/* the engine not running may have translated these bytes (CGRAN also
	 * marks every translation block either runs: cgran_mark): it drops
	 * them as it takes over.  The running one drops its own (Unicorn's
	 * store check; ram_changed for a transfer) */
	if (p->uc2)
		core_dirty_add(&p->dirty[p->c.uc != p->uc2], off, len < p->c.ram_size - off ? len : p->c.ram_size - off);
}

/* Marks the granules of the translation block [A, A + SIZE) in CGRAN: with
 * two engines a write there must reach the one not running (code_touched).
 * A block run without code hook was marked when blk_qualify verified it;
 * hook_block marks every other block either engine runs. */
static void cgran_mark(struct replayer *p, uint32_t a, uint32_t size)
{
	core_gran_mark(p->cgran, p->c.ram_size, a - p->c.ram_base, size);
}

/* The bus's code_changed (replay_once): bus_dma wrote [ADDR, ADDR + LEN)
 * of RAM behind Unicorn's back (a DMA transfer the AES records). */
static void ram_changed(void *ctx, uint32_t addr, uint32_t len)
{
	struct replayer *p = ctx;
	core_code_changed(p->c.uc, addr, len);
	code_touched(p, addr - p->c.ram_base, len);
}

/* The memory hook (hook_mem_blk under the block engine). */
__attribute__((noinline)) static void hook_mem(uc_engine *uc, uc_mem_type type, uint64_t addr, int size, int64_t value, void *ctx)
{
	struct replayer *p = ctx;
	if (type == UC_MEM_WRITE) /* first: whatever the hook does with it below */
		code_touched(p, (uint32_t)addr - p->c.ram_base, (uint32_t)size);
	/* Loads are hooked twice under the block engine (replay_once; a run
	 * that never leaves the insn engine hooks READ_AFTER only).  The precise engine takes the
	 * call after the load (UC_HOOK_MEM_READ_AFTER), as the capture does
	 * (core.h: Unicorn's READ call comes three times for a load crossing a
	 * page, and before an unaligned LDREX that then aborts).  The block
	 * engine takes the call in front of it (UC_HOOK_MEM_READ), less the
	 * page-crossing echoes (core_read_echo): its attribution applies a DMA
	 * transfer due at a boundary inside the block before the loads after
	 * that boundary read RAM (blk_retire_ev). */
	if (type == UC_MEM_READ) {
		if (p->precise || core_read_echo(&p->c.rsplit, (uint32_t)addr, (unsigned)size))
			return;
	} else if (type == UC_MEM_READ_AFTER) {
		if (!p->precise)
			return;
		type = UC_MEM_READ;
	}
	if (__builtin_expect(core_past_ram((uint32_t)addr, (unsigned)size, p->c.ram_base, p->c.ram_size), 0))
		return; /* a bus error, reported by the unmapped hook (core.h) */
	if (p->sess) /* also while paused (done): the session undoes such writes */
		p->sess->mem(p->sess->ctx, (uint32_t)addr, (unsigned)size, type == UC_MEM_WRITE);
	if (p->c.done) /* after a reproduced fault: the instruction ends there */
		return;
	if (!p->precise && !blk_attribute(p))
		return;
	int w = type == UC_MEM_WRITE;
	uint64_t v = (uint64_t)value;
	if (size < 8)
		v &= (1ull << (8 * size)) - 1;
	uint32_t a = (uint32_t)addr, off = a - p->c.ram_base;
	if (w) {
		replay_kset_range(p->c.known, off, (unsigned)size);
	} else if (!replay_known_range(&p->c, a, (unsigned)size)) {
		replay_diverge(&p->c, "memory image", "a read of memory the IMS holds", "a %d-byte read of 0x%08x, which the IMS does not hold",
			size, a);
		return;
	} else if (p->records) {
		/* in front of the load the value it will read is RAM's now
		 * (tests/test_unicorn.c); after it, RAM still holds it */
		const uint8_t *q = p->c.ram + off;
		v = size == 1 ? q[0] : size == 2 ? cc_get16(q) : size == 4 ? cc_get32(q) : cc_get64(q);
	}
	bus_data(&p->c.bus, a, (unsigned)size, w, v);
	/* the access goes into the instruction's record only for those who
	 * take the records: nothing else reads it (--verify alone) */
	if (p->records)
		replay_add_access(&p->c, a, (unsigned)size, w, v, 0);
}

/* The block engine's memory hook: the calls hook_mem returns from at once
 * (a load's second call, the one of the engine not running: every load
 * under the block engine) return here, before hook_mem's prologue, which
 * cost them more than the test (callgrind: ~10 host instructions a
 * load).  The insn engine hooks hook_mem itself (replay_once). */
static void hook_mem_blk(uc_engine *uc, uc_mem_type type, uint64_t addr, int size, int64_t value, void *ctx)
{
	const struct replayer *p = ctx;
	if (type == UC_MEM_READ_AFTER ? !p->precise : type == UC_MEM_READ && p->precise)
		return;
	hook_mem(uc, type, addr, size, value, ctx);
}

static uint64_t mmio_read(uc_engine *uc, uint64_t off, unsigned size, void *ctx)
{
	struct replayer *p = ctx;
	uint32_t addr = p->ims.cfg.dev_base + (uint32_t)off;
	int counter = citcat_aes_is_counter(&p->ims.cfg, addr);
	unsigned want_kind = counter ? CITCAT_AES_COUNTER : CITCAT_AES_INPUT;
	if (!p->precise && !p->c.failed && !p->c.done && !blk_attribute(p))
		return 0;
	if (p->c.failed || p->c.done)
		return 0;
	uint64_t pf;
	if (p->m7 && off < p->ims.cfg.dev_size && replay_m7_dev_read_fault(p->m7, (uint32_t)off, size, addr, &pf))
		return pf; /* a precise BusFault, as in the capture: no input, no access */
	if (expected_fault(p, CITCAT_FAULT_DEV_READ, p->c.cur_pc, addr))
		return 0;
	if (!p->next_valid || p->next.kind != want_kind || p->next.addr != addr || p->next.size != size) {
		char exp[200];
		if (p->next_valid && (p->next.kind == CITCAT_AES_INPUT || p->next.kind == CITCAT_AES_COUNTER))
			snprintf(exp, sizeof exp, "a %u-byte %s read of 0x%08x", p->next.size,
				 citcat_aes_kind_name(p->next.kind), p->next.addr);
		else
			snprintf(exp, sizeof exp, "the next event to be a %s record, not a device read",
				 p->next_valid ? citcat_aes_kind_name(p->next.kind) : "(none)");
		replay_diverge(&p->c, counter ? "counter history" : "device input queue", exp, "a %u-byte read of 0x%08x", size, addr);
		return 0;
	}
	uint64_t v = p->next.value;
	next_aes(p);
	bus_uncached(&p->c.bus, addr, size, 0, v);
	replay_add_access(&p->c, addr, size, 0, v, 1);
	return v;
}

static void mmio_write(uc_engine *uc, uint64_t off, unsigned size, uint64_t value, void *ctx)
{
	struct replayer *p = ctx;
	uint32_t addr = p->ims.cfg.dev_base + (uint32_t)off;
	if (size < 8)
		value &= (1ull << (8 * size)) - 1;
	if (!p->precise && !p->c.failed && !p->c.done && !blk_attribute(p))
		return;
	if (p->c.failed || p->c.done)
		return;
	if (p->m7 && replay_m7_dev_write_dropped(p->m7, (uint32_t)off, size))
		return; /* the capture dropped it too: no output record, no access */
	if (expected_fault(p, CITCAT_FAULT_DEV_WRITE, p->c.cur_pc, addr))
		return;
	if (!p->next_valid || p->next.kind != CITCAT_AES_OUTPUT || p->next.addr != addr || p->next.size != size ||
	    p->next.value != value) {
		char exp[200];
		if (p->next_valid && p->next.kind == CITCAT_AES_OUTPUT)
			snprintf(exp, sizeof exp, "a %u-byte write of 0x%llx to 0x%08x", p->next.size,
				 (unsigned long long)p->next.value, p->next.addr);
		else
			snprintf(exp, sizeof exp, "the next event to be a %s record, not a device write",
				 p->next_valid ? citcat_aes_kind_name(p->next.kind) : "(none)");
		replay_diverge(&p->c, "device output log", exp, "a %u-byte write of 0x%llx to 0x%08x", size, (unsigned long long)value, addr);
		return;
	}
	next_aes(p);
	bus_uncached(&p->c.bus, addr, size, 1, value); /* a cache-maintenance command changes the model only */
	replay_add_access(&p->c, addr, size, 1, value, 1);
}

static inline void close_record(struct replayer *p)
{
	if (!p->c.cur_valid)
		return;
	p->c.cur_valid = 0;
	emit_record(p, &p->c.cur);
}

/* The run's abnormal end (ITRACE.md, STOP): the last record. */
static void emit_stop(struct replayer *p, unsigned reason, uint32_t pc, unsigned fault, uint32_t addr)
{
	struct citcat_itrace_rec end = {.kind = CITCAT_REC_STOP, .line = (uint8_t)reason, .pc = pc, .word = fault,
					.fault_addr = addr};
	if (p->m7 && reason == CITCAT_STOP_FAULT && fault == CITCAT_FAULT_EXCEPTION) {
		/* the fault status registers, as the capture recorded them (ITRACE.md) */
		m7exc_fault_status(&p->m7->exc, addr, &p->c.m7_fault);
		p->c.has_m7_fault = 1;
	}
	emit_record(p, &end);
}

/* A fault at PC (the instruction executing, or for a fetch the address
 * fetched): when the AES's END record is exactly this fault after exactly
 * these instructions, the replay has reproduced the recorded end (CAT.md,
 * STOP): close the faulting instruction's record, add the STOP record and
 * end the run.  Returns 0 when it is not the recorded fault (the caller
 * reports the divergence it would report anyway). */
static int expected_fault(struct replayer *p, unsigned kind, uint32_t pc, uint32_t addr)
{
	const struct citcat_aes_rec *e = &p->next;
	if (p->c.failed || p->c.done || !p->next_valid || e->kind != CITCAT_AES_END || e->line != CITCAT_STOP_FAULT ||
	    e->value != kind || e->pc != pc || e->addr != addr || e->insns != p->c.insns)
		return 0;
	close_record(p);
	emit_stop(p, CITCAT_STOP_FAULT, pc, kind, addr);
	p->fault_seen = 1;
	p->c.done = 1;
	uc_emu_stop(p->c.uc);
	return 1;
}

/* expected_fault for replay_run, whose core is the replayer's first member. */
static int run_fault(struct replay_core *c, unsigned kind, uint32_t pc, uint32_t addr)
{
	return expected_fault((struct replayer *)c, kind, pc, addr);
}

/* Applies the AES events due at this boundary: DMA transfers and at most one
 * interrupt (none when DMA_ONLY: the block engine's transfers inside a block,
 * blk_retire_ev).  Returns 1 when an interrupt was taken. */
static int async_events_at(struct replayer *p, uint32_t a, int dma_only)
{
	while (p->next_valid && (p->next.kind == CITCAT_AES_DMA || (p->next.kind == CITCAT_AES_IRQ && !dma_only))) {
		if (p->next.bcount != p->c.bcount || p->next.pc != a) {
			int irq = p->next.kind == CITCAT_AES_IRQ;
			replay_event_missed(&p->c, irq, irq ? "an interrupt" : "a DMA transfer", p->next.bcount, p->next.pc);
			return 0;
		}
		if (p->next.kind == CITCAT_AES_DMA) {
			const struct citcat_aes_rec *d = &p->next;
			if (d->addr < p->c.ram_base || (uint64_t)d->addr + d->len > (uint64_t)p->c.ram_base + p->c.ram_size) {
				replay_fail(&p->c, NULL, CITCAT_ERR_CORRUPT, UINT64_MAX, "%s: DMA transfer to 0x%08x lies outside RAM", p->cfg->aes_path, d->addr);
				return 0;
			}
			bus_dma(&p->c.bus, d->addr, d->data, d->len, d->bcount, d->pc);
			if (p->sess)
				p->sess->dma(p->sess->ctx, d->addr, d->len);
			struct citcat_itrace_rec dma = {.kind = CITCAT_REC_DMA, .pc = d->addr, .word = d->len};
			emit_record(p, &dma);
			int orc = p->cfg->observer && p->cfg->observer->dma ? p->cfg->observer->dma(p->cfg->observer->ctx, d->addr, d->len) : 0;
			if (orc)
				observe_failed(p, orc);
			for (uint32_t i = 0; i < d->len; i++)
				replay_kset(p->c.known, d->addr - p->c.ram_base + i);
			p->c.res->dma++;
			next_aes(p);
			if (p->block)
				evq_pop(p);
			continue;
		}
		if (p->c.itstate) {
			replay_diverge(&p->c, "interrupt schedule", "an interrupt outside IT blocks (TARGET.md)",
				       "an interrupt recorded inside an IT block (ITSTATE 0x%02x)", p->c.itstate);
			return 0;
		}
		if (p->m7) { /* the entry the capture made (TARGET-M7.md) */
			int exc = p->next.line;
			next_aes(p);
			return replay_m7_enter(p->m7, exc, a);
		}
		if (!replay_irq_enabled(&p->c, p->next.line))
			return 0;
		unsigned line = p->next.line;
		bus_irq(&p->c.bus, line, a, p->c.bcount);
		struct citcat_itrace_rec irq = {.kind = CITCAT_REC_IRQ, .line = (uint8_t)line, .pc = a};
		emit_record(p, &irq);
		replay_enter_irq(&p->c, line, a);
		next_aes(p);
		if (p->block)
			evq_pop(p);
		return 1;
	}
	return 0;
}

static int async_events(struct replayer *p, uint32_t a) { return async_events_at(p, a, 0); }

/* The instruction at A (SIZE bytes, WORD, THUMB state) retires, as in the
 * capture model (capture/target.c, retire). */
static void retire(struct replayer *p, uint32_t a, unsigned size, uint32_t word, int thumb)
{
	thumb_ifetch(&p->c.bus, a, size);
	replay_retire(&p->c, a, size, word, thumb);
	p->c.bus.cycle++;
}

/* ---- the block engine (REPLAY.md "Block-granular replay") ---- */

/* A memory-hook call (or MMIO callback) in the current block: it belongs to
 * the instruction retired last while that has calls left, else to the next
 * memory instruction whose condition holds on the flags now (current in a
 * memory hook: tests/test_unicorn_block.c); every instruction up to it
 * retires first, so its fetch precedes the access on the bus (REPLAY.md
 * "Bus order").  Returns 0 after a divergence. */
static inline void close_record(struct replayer *p);

/* The history ring under the block engine.  blk_retire_run does not write
 * an entry per instruction: it notes the span it retires (hist_push: block
 * B's instructions FROM..TO-1, the first numbered P->C.INSNS), and the
 * entries are written when the ring is read (hist_flush, through
 * C.HIST_SYNC: a divergence report, the WFI-deadlock check, the end of the
 * run; a session, whose save copies the ring, never runs the block
 * engine).  The ring then holds what per-instruction
 * writes would have left: entry K is written only for an instruction K
 * already retired (K < INSNS) among the last CITCAT_REPLAY_HISTORY
 * (K >= INSNS - CITCAT_REPLAY_HISTORY), and such a K's slot was never
 * written by an instruction after K (that one would be numbered K +
 * CITCAT_REPLAY_HISTORY or more, not retired yet), so spans and the
 * entries hook_code writes directly may be written in any order.  A span
 * dropped from the HSPAN kept is older than HSPAN - 1 complete spans of
 * at least one instruction each, so none of its instructions is among the
 * last CITCAT_REPLAY_HISTORY.  The spans point into the block cache:
 * blk_qualify flushes them before rblk_get may decode a slot again, and
 * the run's end flushes them before the cache goes. */
static inline void hist_push(struct replayer *p, const struct rblk *b, uint32_t from, uint32_t to)
{
	p->hspan[p->hspan_n++ & (HSPAN - 1)] = (struct hspan){b, from, to, p->c.insns};
}

static void hist_flush(struct replayer *p)
{
	struct replay_core *c = &p->c;
	uint64_t lo = c->insns > CITCAT_REPLAY_HISTORY ? c->insns - CITCAT_REPLAY_HISTORY : 0;
	uint64_t k0 = p->hspan_n > HSPAN ? p->hspan_n - HSPAN : 0;
	for (uint64_t k = k0; k < p->hspan_n; k++) {
		const struct hspan *h = &p->hspan[k & (HSPAN - 1)];
		const struct rblk *b = h->b;
		for (uint32_t i = h->from; i < h->to; i++) {
			uint64_t n = h->n0 + (i - h->from);
			if (n >= lo && n < c->insns)
				replay_hist_put(c, n, b->addr + b->off[i], b->thumb ? b->isz[i] : 4, b->word[i], (int)b->thumb);
		}
	}
	p->hspan_n = 0;
}

/* C.HIST_SYNC of a replayer with the block engine */
static void hist_sync(struct replay_core *c) { hist_flush((struct replayer *)c); }

/* blk_retire_run for a Thumb block, from the boundary before FROM on: one
 * instruction at a time (a T32 instruction may straddle an I-line:
 * thumb_ifetch), with the same per-instruction state as hook_code's
 * steps, the IT state followed as replay_retire does.  The instructions of
 * an IT block whose condition fails retire here too, in order, as
 * hook_code's it_skipped retires them (their branch-counter check is void:
 * they follow their predecessor). */
static void blk_retire_thumb(struct replayer *p, const struct rblk *b, uint32_t from, uint32_t to)
{
	struct replay_core *c = &p->c;
	struct citcat_itrace_rec *r = &c->cur;
	uint32_t a = 0;
	unsigned sz = 2;
	if (p->seq_out && !c->ckpt_cut && to - from > 1) {
		/* as blk_retire_run: only the itrace takes the records and no
		 * model runs, so the records of FROM..TO-2 (without accesses) go
		 * to the writer in one call */
		for (uint32_t i = from; i < to; i++) {
			a = b->addr + b->off[i];
			sz = b->isz[i];
			c->bus.cycle++;
			c->insns++;
			c->insn_in_it = c->itstate != 0;
			c->itstate = thumb_is_it(b->word[i], sz) ? (uint8_t)(b->word[i] & 0xff) : thumb_it_advance(c->itstate);
		}
		core_record_insn(r, a, b->word[to - 1], sz, 1);
		replay_output_blk(c, b, b->addr + b->off[from], from, to - 1 - from);
		from = to; /* the loop below has nothing left to do */
	}
	for (uint32_t i = from; i < to; i++) {
		a = b->addr + b->off[i];
		sz = b->isz[i];
		if (i > from) { /* close_record and replay_boundary */
			if (p->records)
				emit_record(p, r);
			c->cur_pc = a;
			c->cur_index = c->insns;
		}
		core_record_insn(r, a, b->word[i], sz, 1);
		thumb_ifetch(&c->bus, a, sz);
		c->bus.cycle++;
		c->insns++;
		c->insn_in_it = c->itstate != 0;
		c->itstate = thumb_is_it(b->word[i], sz) ? (uint8_t)(b->word[i] & 0xff) : thumb_it_advance(c->itstate);
	}
	c->cur_pc = a;
	c->cur_index = c->insns - 1;
	c->expect_pc = a + sz;
	c->last_size = (uint8_t)sz;
	c->last_thumb = 1;
	c->cur_valid = 1;
}

/* The state after a run of A32 instructions of a block retired, the last
 * one at A (WORD): what hook_code's retire of it would have left, its
 * record built (later accesses of the block go to it). */
static inline void a32_run_end(struct replay_core *c, uint32_t a, uint32_t word)
{
	c->cur_pc = a;
	c->cur_index = c->insns - 1;
	c->expect_pc = a + 4;
	c->insn_in_it = 0;
	c->itstate = 0;
	c->last_size = 4;
	c->last_thumb = 0;
	core_record_insn(&c->cur, a, word, 4, 0);
	c->cur_valid = 1;
}

/* blk_retire_run of an A32 block when nothing takes the records (--verify
 * alone), its most common case, in a function of its own (small, so its
 * calls cost little): the same steps in the same order, with the I-lines
 * the run enters computed rather than walked a line at a time.  Its first
 * instruction, then the first of each I-line it enters (I-lines hold at
 * least 8 bytes, cache.c), are fetched with CUR_PC, CUR_INDEX and INSNS
 * their own and the cycle count they would see; the history ring's
 * entries are hist_push's. */
__attribute__((noinline)) static void blk_retire_arm(struct replayer *p, const struct rblk *b, uint32_t from, uint32_t to)
{
	struct replay_core *c = &p->c;
	struct bus *bus = &c->bus;
	uint32_t a = b->addr + b->off[from], sh = bus->iline_shift, step = 1u << sh, cnt = to - from, done = 0;
	replay_boundary(c, a);
	c->cur_valid = 0;
	hist_push(p, b, from, to);
	uint64_t n0 = c->insns;
	if (!bus->last_iline_valid || (a >> sh) != bus->last_iline)
		bus_ifetch_line(bus, a);
	for (uint32_t la = (a | (step - 1)) + 1; la - a < 4 * cnt; la += step) {
		uint32_t k = (la - a) >> 2; /* instructions of the run before LA */
		bus->cycle += k - done;
		done = k;
		if (!bus->last_iline_valid || (la >> sh) != bus->last_iline) {
			c->cur_pc = la;
			c->cur_index = c->insns = n0 + k;
			bus_ifetch_line(bus, la);
		}
	}
	bus->cycle += cnt - done;
	c->insns = n0 + cnt;
	a32_run_end(c, a + 4 * (cnt - 1), b->word[to - 1]);
}

/* blk_retire_thumb when nothing takes the records (--verify alone), as
 * blk_retire_arm is for A32: the same per-instruction state at every fetch
 * that can reach the bus (thumb_ifetch's, from another I-line than the
 * last one fetched, or a T32 instruction's second line): CUR_PC,
 * CUR_INDEX, INSNS, the IT state and the cycle count; the record is built
 * for the last instruction only (nothing reads the others'), the history
 * ring's entries are hist_push's. */
__attribute__((noinline)) static void blk_retire_tv(struct replayer *p, const struct rblk *b, uint32_t from, uint32_t to)
{
	struct replay_core *c = &p->c;
	struct bus *bus = &c->bus;
	uint32_t sh = bus->iline_shift, a = b->addr + b->off[from], sz = 2;
	replay_boundary(c, a);
	c->cur_valid = 0;
	hist_push(p, b, from, to);
	uint64_t n = c->insns;
	uint8_t it = c->itstate, in_it = c->insn_in_it;
	for (uint32_t i = from; i < to; i++) {
		a = b->addr + b->off[i];
		sz = b->isz[i];
		if (!bus->last_iline_valid || (a >> sh) != bus->last_iline || ((a + sz - 1) >> sh) != bus->last_iline) {
			c->cur_pc = a;
			c->cur_index = c->insns = n;
			c->itstate = it;
			c->insn_in_it = in_it;
			thumb_ifetch(bus, a, sz);
		}
		bus->cycle++;
		n++;
		in_it = it != 0;
		uint32_t w = b->word[i];
		it = thumb_is_it(w, sz) ? (uint8_t)(w & 0xff) : thumb_it_advance(it);
	}
	c->insns = n;
	c->itstate = it;
	c->insn_in_it = in_it;
	c->cur_pc = a;
	c->cur_index = n - 1;
	c->expect_pc = a + sz;
	c->last_size = (uint8_t)sz;
	c->last_thumb = 1;
	core_record_insn(&c->cur, a, b->word[to - 1], sz, 1);
	c->cur_valid = 1;
}

/* The decoded block B's instructions FROM..TO-1 retire, in one step with
 * the effect of hook_code's steps on each (close_record, replay_boundary,
 * retire), in the same order: inside a block execution is sequential, so
 * only the first instruction can be a branch target (one branch-counter
 * check) and the IT state stays 0 (blk_qualify); an aligned A32
 * instruction never straddles an I-line, so only the first instruction of
 * the run and each one that starts a new I-line can reach the bus (the
 * fetches between are bus_ifetch's same-line hits, which change nothing),
 * at the cycle count they would see (one cycle an instruction).  What a
 * divergence report reads (cur_pc, cur_index, insns, the history ring) is
 * the per-instruction state at every fetch that reaches the bus and at
 * every record.  With records (an itrace, an oracle, a callback) each
 * instruction's record is emitted before the next one's fetch, as
 * close_record would; without (--verify alone) only the last one's is
 * built, since later accesses go to it (for A32 that is blk_retire_arm,
 * and for Thumb blk_retire_tv, which blk_retire_one calls instead of this
 * function). */
static void blk_retire_run(struct replayer *p, const struct rblk *b, uint32_t from, uint32_t to)
{
	if (from >= to)
		return;
	struct replay_core *c = &p->c;
	struct bus *bus = &c->bus;
	uint32_t a = b->addr + b->off[from], sh = bus->iline_shift;
	if (p->records)
		close_record(p);
	replay_boundary(c, a);
	c->cur_valid = 0;
	hist_push(p, b, from, to); /* the ring's entries of FROM..TO-1, written when read */
	if (b->thumb) {
		blk_retire_thumb(p, b, from, to);
		return;
	}
	if (p->seq_out && !c->ckpt_cut && to - from > 1) {
		/* only the itrace takes the records, and no fetch reaches a bus
		 * (so no divergence can be found inside the run): the records
		 * of FROM..TO-2 are complete (accesses go to the last one) and
		 * go to the writer in one call, the same bytes */
		uint32_t a0 = a;
		c->insns += to - from;
		a += 4 * (to - from);
		bus->cycle += to - from;
		replay_output_blk(c, b, a0, from, to - 1 - from);
	} else {
		struct citcat_itrace_rec *r = &c->cur;
		core_record_insn(r, a, b->word[from], 4, 0);
		for (uint32_t i = from; i < to; i++, a += 4) {
			if (i > from) { /* close_record and replay_boundary */
				emit_record(p, r);
				c->cur_pc = a;
				c->cur_index = c->insns;
				r->pc = a;
				r->word = b->word[i];
				r->n_acc = 0;
			}
			if (!bus->last_iline_valid || (a >> sh) != bus->last_iline)
				bus_ifetch_line(bus, a);
			bus->cycle++;
			c->insns++;
		}
	}
	a32_run_end(c, a - 4, b->word[to - 1]);
}

static int async_events_at(struct replayer *p, uint32_t a, int dma_only);

/* The index in B of the instruction at PC, or UINT32_MAX when none starts
 * there. */
static uint32_t blk_index(const struct rblk *b, uint32_t pc)
{
	uint32_t off = pc - b->addr;
	if (off >= b->size)
		return UINT32_MAX;
	for (uint32_t i = 0; i < b->n; i++)
		if (b->off[i] == off)
			return i;
	return UINT32_MAX;
}

/* The index of the boundary in the current block B, after instruction
 * FROM - 1, where the next DMA record applies, or UINT32_MAX: a record at
 * the block's branch count whose PC is an instruction of B at or after
 * FROM.  Interrupts never lie there (blk_plan stops in front of them). */
static uint32_t blk_next_dma(struct replayer *p, const struct rblk *b, uint32_t from)
{
	const struct ev_ahead *e = evq_at(p, 0);
	if (!e || e->irq || e->bcount != p->c.bcount)
		return UINT32_MAX;
	uint32_t k = blk_index(b, e->pc);
	return k != UINT32_MAX && k >= from ? k : UINT32_MAX;
}

/* blk_retire_run of the current block B's FROM..TO-1, or blk_retire_arm or
 * blk_retire_tv when one takes them (BLK_FAST, blk_set) */
static inline void blk_retire_one(struct replayer *p, const struct rblk *b, uint32_t from, uint32_t to)
{
	if (p->blk_fast) {
		if (from < to) {
			if (p->blk_fast == 1)
				blk_retire_arm(p, b, from, to);
			else
				blk_retire_tv(p, b, from, to);
		}
	} else
		blk_retire_run(p, b, from, to);
}

/* blk_retire_run of B's FROM..TO-1 with the DMA transfers due at
 * boundaries among them applied in their place (BLK_EV, planned by
 * blk_plan): before the instruction at the transfer's PC retires, the
 * instruction before it closes, the boundary's branch-counter rule is
 * applied and the transfer is made, as hook_code does at that boundary.
 * Since the memory hooks run in front of the access (UC_HOOK_MEM_READ and
 * _WRITE), every access of an instruction after the boundary sees the
 * transfer's bytes, and none before it does (tests/test_unicorn.c).  The
 * instructions without accesses between cannot tell. */
static void blk_retire_ev(struct replayer *p, const struct rblk *b, uint32_t from, uint32_t to)
{
	while (p->blk_ev < to && !p->c.failed) {
		uint32_t k = p->blk_ev, a = b->addr + b->off[k];
		const struct ev_ahead *e = evq_at(p, 0);
		if (e) { /* the bytes it writes (blk_finish's caller checks them) */
			p->dma_lo = e->addr < p->dma_lo ? e->addr : p->dma_lo;
			p->dma_hi = e->addr + e->len > p->dma_hi ? e->addr + e->len : p->dma_hi;
		}
		blk_retire_one(p, b, from, k);
		from = k;
		close_record(p);
		replay_boundary(&p->c, a);
		async_events_at(p, a, 1);
		p->c.expect_pc = a; /* blk_retire_run applies the boundary again: no second branch */
		p->c.res->blk_dma_inline++;
		p->blk_ev = blk_next_dma(p, b, k + 1);
	}
	if (!p->c.failed)
		blk_retire_one(p, b, from, to);
}

static inline void blk_retire(struct replayer *p, const struct rblk *b, uint32_t from, uint32_t to)
{
	if (p->blk_ev < to)
		blk_retire_ev(p, b, from, to);
	else
		blk_retire_one(p, b, from, to);
}

/* B becomes the current block (NULL: none), its attribution starting. */
static inline void blk_set(struct replayer *p, const struct rblk *b)
{
	p->blk = b;
	p->blk_fast = b && !p->records ? 1 + (int)b->thumb : 0;
	p->blk_next = 0;
	p->acc_left = 0;
	p->blk_pos = p->blk_end = NULL;
	if (b && b->sched_ok && b->nacc_total) { /* no schedule: NULL, never NULL + 0 (UB) */
		p->blk_pos = b->sched;
		p->blk_end = b->sched + b->nacc_total;
	}
	/* the flags at the block's start, for the conditional memory
	 * instructions decided on them (replay_block.h FSRC): the block hook
	 * runs in front of the block */
	if (b && (b->fsnap & RBLK_FS_ENTRY))
		uc_reg_read(p->c.uc, UC_ARM_REG_CPSR, &p->fs_entry);
}

/* With a schedule (every memory instruction of the block unconditional)
 * the call's instruction is its next entry, as in the capture
 * (capture/target.c cblk_attribute); a call past its end takes the scan,
 * which finds no accessor and reports the divergence as before. */
static int blk_attribute(struct replayer *p)
{
	if (p->blk_pos != p->blk_end) {
		uint32_t i = *p->blk_pos++;
		if (i >= p->blk_next) {
			blk_retire(p, p->blk, p->blk_next, i + 1);
			p->blk_next = i + 1;
		}
		return 1;
	}
	if (p->acc_left) {
		p->acc_left--;
		return 1;
	}
	const struct rblk *b = p->blk;
	if (b) {
		/* the next memory instruction whose condition holds on the
		 * flags now; everything up to it retires */
		int i = -1;
		for (uint32_t k = p->blk_next; k < b->n; k++)
			if (b->nacc[k]) { /* an unconditional one here, else rblk_next_accessor decides */
				i = b->cond[k] == 14		    ? (int)k
				    : (b->fsnap & ~RBLK_FS_RELAXED) ? rblk_next_accessor_fs(b, k, p->c.uc, p->fs_entry, p->fs_snap)
								    : rblk_next_accessor(b, k, p->c.uc);
				break;
			}
		/* the flags a later conditional one is decided on (FSRC): now,
		 * at the first access of I, before I and what follows run */
		if (i >= 0 && (b->fsnap & RBLK_FS_SNAP) && (b->fsrc[i] & RBLK_FS_TAKE))
			uc_reg_read(p->c.uc, UC_ARM_REG_CPSR, &p->fs_snap[i]);
		if (i >= 0) {
			blk_retire(p, b, p->blk_next, (uint32_t)i + 1);
			p->blk_next = (uint32_t)i + 1;
			p->acc_left = b->nacc[i] - 1u;
			return 1;
		}
		blk_retire(p, b, p->blk_next, b->n);
		p->blk_next = b->n;
	}
	replay_diverge(&p->c, "block engine", "a memory instruction of the decoded block for this access",
		       "an access after the block's last one (block 0x%08x)", b ? b->addr : 0);
	return 0;
}

/* The current block ran to its end: its remaining instructions retire. */
static void blk_finish(struct replayer *p)
{
	const struct rblk *b = p->blk;
	if (!b)
		return;
	blk_retire(p, b, p->blk_next, b->n);
	uint32_t left = p->acc_left + rblk_sched_owed(p->blk_pos, p->blk_end, p->blk_next);
	blk_set(p, NULL);
	p->blk_ev = UINT32_MAX;
	if (left)
		replay_diverge(&p->c, "block engine", "every memory-hook call the decoded block accounts for",
			       "%u fewer (block 0x%08x)", left, b->addr);
}

/* The block of SIZE bytes at A, about to run, when it can run without a code
 * hook as far as the block itself goes: A32 or Thumb (outside IT blocks), in
 * known RAM, decodable, and neither the end of the interval nor --max-insns
 * inside it (the AES's events are blk_plan's).  NULL: it runs per
 * instruction. */
static const struct rblk *blk_qualify(struct replayer *p, uint32_t a, uint32_t size)
{
	int thumb = p->c.block_thumb;
	if (p->c.itstate || !size || (thumb ? (size | a) & 1 : (size | a) & 3))
		return NULL;
	uint32_t off = a - p->c.ram_base;
	if (off >= p->c.ram_size || p->c.ram_size - off < size)
		return NULL;
	/* known bytes never become unknown in this replayer: once decoded from
	 * known bytes, a block stays known */
	uint32_t slot = (a >> 1) & p->bcache.mask;
	const struct rblk *b = &p->bcache.slot[slot];
	int same = b->raw && b->addr == a && b->size == size && b->thumb == (uint32_t)thumb;
	if (same && p->bver[slot] == p->code_gen) {
		p->bcache.hits++; /* no write reached its bytes since (code_touched) */
	} else {
		if (!same)
			for (uint32_t i = 0; i < size; i += 4)
				if (!replay_known_range(&p->c, a + i, size - i < 4 ? size - i : 4))
					return NULL;
		hist_flush(p); /* rblk_get may decode the slot a span points into again */
		b = rblk_get(&p->bcache, a, size, thumb, p->c.ram + off);
		if (!b) {
			p->bver[slot] = 0;
			replay_fail(&p->c, NULL, CITCAT_ERR_NOMEM, UINT64_MAX, "out of memory");
			return NULL;
		}
		core_gran_mark(p->cgran, p->c.ram_size, off, size);
		p->bver[slot] = p->code_gen;
		p->bhk[slot] = 0;
	}
	if (b->precise || p->c.insns + b->n >= p->total || (p->cfg->max_insns && p->c.insns + b->n >= p->cfg->max_insns))
		return NULL;
	return b;
}

/* The common case of hook_block's tb_hooked and blk_qualify in one look:
 * the block of SIZE bytes at A is the one in its cache slot, no write
 * reached its bytes since it was last equal to RAM's (BVER), tb_hooked
 * answered 0 for it with as many ranges as now (BHK: ranges are only ever
 * added), and blk_qualify's other conditions hold; then the block, which
 * tb_hooked and blk_qualify would give, else NULL (ask them).  The checks
 * blk_qualify made of A and SIZE alone (alignment, inside RAM, known
 * bytes) held when the slot took this block, and do not change. */
static inline const struct rblk *blk_cached(struct replayer *p, uint32_t a, uint32_t size)
{
	uint32_t slot = (a >> 1) & p->bcache.mask;
	const struct rblk *b = &p->bcache.slot[slot];
	if (p->bhk[slot] != p->nhr + 1 || b->addr != a || b->size != size || b->thumb != p->c.block_thumb ||
	    p->bver[slot] != p->code_gen || p->c.itstate || !b->raw || b->precise || p->c.insns + b->n >= p->total ||
	    (p->cfg->max_insns && p->c.insns + b->n >= p->cfg->max_insns))
		return NULL;
	p->bcache.hits++;
	return b;
}

/* What the AES asks of block B at A, about to run at branch count BC: 0
 * when it runs as a block, *EV the index of the first DMA transfer due
 * inside it (UINT32_MAX: none), applied as it retires (blk_retire_ev);
 * else the stop the block hook makes in front of it: STOP_EVENT for an
 * interrupt due at A, STOP_UNTIL for one due inside B (at P->UNTIL_PC), and
 * STOP_HOOK, so that B runs per instruction, for what only hook_code
 * handles as the insn engine does: a record whose boundary was passed
 * (hook_code reports it), one at a PC that is no instruction of B, a
 * transfer into B's own bytes, an interrupt that did not enter at the
 * event stop made at this very boundary (HOLD_INSNS), or more records
 * inside B than are read ahead. */
static int blk_plan(struct replayer *p, const struct rblk *b, uint32_t a, uint64_t bc, uint32_t *ev)
{
	*ev = UINT32_MAX;
	for (unsigned k = 0;; k++) {
		if (k == EVQ_CAP)
			return STOP_HOOK;
		const struct ev_ahead *e = evq_at(p, k);
		if (!e || e->bcount > bc || (e->bcount == bc && e->pc - a >= b->size && e->pc >= a))
			return 0; /* later records are later still */
		if (e->bcount < bc || e->pc < a)
			return STOP_HOOK;
		if (e->irq) {
			if (e->pc == a)
				return p->hold_insns == p->c.insns + 1 ? STOP_HOOK : STOP_EVENT;
			if (blk_index(b, e->pc) == UINT32_MAX)
				return STOP_HOOK;
			p->until_pc = e->pc;
			return STOP_UNTIL;
		}
		uint32_t i = blk_index(b, e->pc);
		if (i == UINT32_MAX || (e->addr < a + b->size && a < e->addr + e->len))
			return STOP_HOOK;
		if (*ev == UINT32_MAX)
			*ev = i;
	}
}

/* Whether the translation block [A, A + SIZE) has code-hook calls: 0 none
 * (no range of a per-block hook touches it), 1 on every byte, 2 on some.
 * The exact answer is kept in HMEMO until a range is added. */
static int tb_hooked(struct replayer *p, uint32_t a, uint32_t size)
{
	uint32_t off = a - p->c.ram_base;
	if (!p->nhr || off >= p->c.ram_size || p->c.ram_size - off < size)
		return p->nhr ? 2 : 0; /* outside RAM nothing runs as a block */
	/* the memo first: ranges are only ever added, so an answer for the
	 * same NHR stands (the granule scan cost a block ~50 host
	 * instructions; REPLAY.md "The load hooks' cost") */
	struct hmemo *m = &p->hmemo[(a >> 1) & (HMEMO - 1)];
	if (m->a == a && m->size == size && m->nhr == p->nhr)
		return m->h;
	if (!core_gran_any(p->hgran, p->c.ram_size, off, size)) {
		*m = (struct hmemo){a, size, p->nhr, 0};
		return 0;
	}
	/* the bytes from A on that the ranges cover without a gap */
	uint32_t pos = a, end = a + size;
	int touched = 0;
	for (int grew = 1; grew && pos < end;) {
		grew = 0;
		for (unsigned i = 0; i < p->nhr; i++) {
			const struct hrange *r = &p->hr[i];
			if (r->lo < end && a < r->end)
				touched = 1;
			if (r->lo <= pos && pos < r->end) {
				pos = r->end;
				grew = 1;
			}
		}
	}
	*m = (struct hmemo){a, size, p->nhr, pos >= end ? 1 : touched ? 2 : 0};
	return m->h;
}

static void hook_code(uc_engine *uc, uint64_t address, uint32_t size, void *ctx);

/* The per-block code hooks' callback: hook_code, unless the code hook over
 * everything (GLOBAL) is in as well, which calls it. */
static void hook_code_range(uc_engine *uc, uint64_t address, uint32_t size, void *ctx)
{
	struct replayer *p = ctx;
	if (!p->global) {
		p->win_hooked++;
		hook_code(uc, address, size, ctx);
	}
}

/* Once the second engine is open (blk_cut2) a cut costs two moves of the
 * CPU state and the block up to it and the first of the handler run per
 * instruction: 100 instructions, from where the engines break even on
 * blk_smc_irq, a cut every ~110 instructions, where blocks still won by 6%
 * (--verify) and 2% (-o --oracle) (REPLAY.md "Two engines"). */
#define BLK_CUT2_COST 100

/* What an interrupt entered at a cut inside a block costs auto, in
 * instructions (blk_window): the cut makes Unicorn translate about four
 * blocks again (the block up to the cut, the block itself, the blocks that
 * overlap its first byte or the byte before the cut), against what a block
 * saves per instruction over the insn engine.  Set from where the engines
 * break even, measured (REPLAY.md "Auto's cut cost, measured again"): with
 * --verify alone or the itrace alone (seq_out) the block engine still wins
 * at one cut in 3,300 instructions (irqdma, irqdma_big), so a cut counts
 * 2,500; when records are compared or taken one by one the engines are
 * within noise there, and a cut keeps counting 25,000. */
static uint64_t blk_cut_cost(const struct replayer *p)
{
	if (p->uc2)
		return BLK_CUT2_COST;
	return !p->records || p->seq_out ? 2500 : 25000;
}

/* Auto's choice at the end of a window of replay_auto_window instructions
 * run with blocks: 1 when what blocks cost in it (the interrupts entered
 * at cuts, blk_cut_cost; the helper calls of the range hooks,
 * BLK_HELPER_W) is more than what its instructions run as blocks saved
 * (its instructions less those under range hooks); then the code
 * hook over everything runs the next DEGRADE_LEN instructions, twice as
 * many each time in a row (up to 2^26, so that a run whose interrupts thin
 * out, a DMA stream that ended, gets its blocks back within a second or
 * two), after which blocks are tried again; a window that pays halves it. */
static int blk_window(struct replayer *p)
{
	uint64_t n = p->c.insns - p->win_start, hooked = p->win_hooked < n ? p->win_hooked : n;
	uint64_t cost = 15 * p->win_cuts * blk_cut_cost(p) + hooked * BLK_HELPER_W(p->nhr);
	p->win_start = p->c.insns;
	p->win_cuts = p->win_hooked = 0;
	if (cost <= 15 * (n - hooked)) {
		if (p->degrade_len > replay_auto_window)
			p->degrade_len /= 2;
		return 0;
	}
	p->degraded_until = p->c.insns + p->degrade_len;
	if (p->degrade_len < (1u << 26))
		p->degrade_len *= 2;
	return 1;
}

static void hook_block(uc_engine *uc, uint64_t address, uint32_t size, void *ctx)
{
	struct replayer *p = ctx;
	if (!p->blk || !p->blk_keeps) {
		uint32_t cpsr;
		uc_reg_read(uc, UC_ARM_REG_CPSR, &cpsr);
		p->c.block_thumb = (uint8_t)((cpsr >> 5) & 1); /* as core.c's block hook */
	}
	/* else the block before ran without the code hook up to here and its
	 * last instruction cannot change the state (rblk_keeps_state; Unicorn
	 * ends a block at any that can, tests/test_unicorn_block.c part 11):
	 * BLOCK_THUMB, that block's state, stays.  BLK is set only for a block
	 * run without code hook and cleared by everything that can come in
	 * between: blk_finish at the next block hook, an exception (hook_intr)
	 * or a fetch fault (hook_unmapped).  Every stop of the block hook
	 * comes after blk_finish below, a block with code-hook calls never
	 * sets BLK, and every other stop of a run ends the replay
	 * (replay_run), so a block run always starts with BLK clear */
	if (p->c.failed || p->c.done) {
		uc_emu_stop(uc);
		return;
	}
	uint32_t a = (uint32_t)address, ev = UINT32_MAX;
	int why = STOP_NONE;
	const struct rblk *b = NULL;
	if (!p->precise) {
		p->dma_lo = UINT32_MAX;
		p->dma_hi = 0;
		blk_finish(p);
		if (p->dma_lo < a + size && a < p->dma_hi) {
			/* a transfer at the end of the block before wrote into this
			 * one, whose translation Unicorn has already taken: stop in
			 * front of it and start again there (the transfer dropped
			 * the translation, core_code_changed) */
			why = STOP_AGAIN;
		}
	}
	if (p->c.failed)
		return;
	if (!why && p->global) {
		/* the second engine, where every block has the code hook's
		 * calls: back to blocks when the window is over (or the cut it
		 * came for passed) and this one can run as a block */
		p->precise = 1;
		cgran_mark(p, a, size);
		if (p->c.insns < p->degraded_until || !(b = blk_qualify(p, a, size)) || tb_hooked(p, a, size) ||
		    blk_plan(p, b, a, p->c.bcount + (uint64_t)core_branched(a, p->c.expect_pc, p->c.after_exception), &ev))
			return;
		why = STOP_GLOBAL;
		if (!p->cut2) {
			p->win_start = p->c.insns;
			p->win_cuts = p->win_hooked = 0;
		}
	} else if (!why && p->policy && p->c.insns - p->win_start >= replay_auto_window && blk_window(p)) {
		why = STOP_INSN;
	} else if (!why) {
		int h = (b = blk_cached(p, a, size)) != NULL ? 0 : tb_hooked(p, a, size);
		if (!b)
			cgran_mark(p, a, size);
		if (h == 1) { /* a block with a code hook of its own: hook_code does it all */
			p->precise = 1;
			return;
		}
		if (!b && !h && (b = blk_qualify(p, a, size)) != NULL)
			p->bhk[(a >> 1) & p->bcache.mask] = p->nhr + 1;
		if (b) {
			uint64_t bc = p->c.bcount + (uint64_t)core_branched(a, p->c.expect_pc, p->c.after_exception);
			/* the next record beyond this block's branch count: nothing due */
			if (p->evq_n ? p->evq[p->evq_head].bcount <= bc : !p->evq_eof)
				why = blk_plan(p, b, a, bc, &ev);
		} else
			why = STOP_HOOK;
		if (p->c.failed)
			return;
	}
	if (why) {
		cgran_mark(p, a, size);
		/* stop before the block runs (tests/test_unicorn_block.c):
		 * blk_between acts */
		p->stop_why = why;
		p->switch_pc = a | p->c.block_thumb;
		p->switch_size = size;
		uc_emu_stop(uc);
		return;
	}
	p->precise = 0;
	blk_set(p, b);
	p->blk_ev = ev;
	p->blk_keeps = b->keeps;
	p->c.res->blk_blocks++;
	if (p->cfg->progress && (p->c.insns >> 20) != p->prog_mark) {
		p->prog_mark = p->c.insns >> 20;
		if (stop_asked(p))
			replay_fail(&p->c, NULL, CITCAT_ERR_INTERRUPTED, UINT64_MAX, "interrupted after %llu instructions",
				    (unsigned long long)p->c.insns);
	}
}

static void it_skipped(struct replayer *p, uint32_t a);

/* A code hook of its own over [LO, END), which no range has yet. */
static uc_err blk_hook_range(struct replayer *p, uint32_t lo, uint32_t end)
{
	if (p->nhr == p->hr_cap) {
		unsigned cap = p->hr_cap ? 2 * p->hr_cap : 16;
		struct hrange *n = realloc(p->hr, cap * sizeof *n);
		if (!n)
			return UC_ERR_NOMEM;
		p->hr = n;
		p->hr_cap = cap;
	}
	uc_hook h;
	uc_err e = uc_hook_add(p->c.uc, &h, UC_HOOK_CODE, hook_code_range, p, lo, (uint64_t)end - 1);
	if (e)
		return e;
	p->hr[p->nhr++] = (struct hrange){lo, end, h};
	core_gran_mark(p->hgran, p->c.ram_size, lo - p->c.ram_base, end - lo);
	return UC_ERR_OK;
}

/* Gives the block at A, SIZE bytes, code-hook calls on every instruction:
 * a range hook over each stretch of its bytes no range covers yet (Unicorn
 * emits the hook's calls for an instruction when a range holds its address
 * as it translates, and calls every hook whose range holds it, so the
 * ranges never overlap: tests/test_unicorn_block.c part 12), then drops
 * the translations that overlap it, so that it runs per instruction from
 * now on.  With too many such blocks the code hook over everything takes
 * over for the rest of the run (blk_between). */
static uc_err blk_hook(struct replayer *p, uint32_t a, uint32_t size)
{
	if (!p->hgran && !(p->hgran = calloc(1, p->c.ram_size / 64 / 8 + 1)))
		return UC_ERR_NOMEM;
	uint32_t pos = a, end = a + size;
	while (pos < end) {
		uint32_t next = end; /* the start of the next range after POS */
		int in = 0;
		for (unsigned i = 0; i < p->nhr; i++) {
			const struct hrange *r = &p->hr[i];
			if (r->lo <= pos && pos < r->end) {
				pos = r->end;
				in = 1;
				break;
			}
			if (r->lo > pos && r->lo < next)
				next = r->lo;
		}
		if (in)
			continue;
		uc_err e = blk_hook_range(p, pos, next);
		if (e)
			return e;
		pos = next;
	}
	p->c.res->blk_hooks++;
	return uc_ctl_remove_cache(p->c.uc, a, (uint64_t)a + size);
}

static uint64_t mmio_read(uc_engine *uc, uint64_t off, unsigned size, void *ctx);
static void mmio_write(uc_engine *uc, uint64_t off, unsigned size, uint64_t value, void *ctx);

/* Opens the second engine: the same RAM (ours, mapped by pointer), device
 * window and hooks as the first, with the code hook over everything and
 * only the load call after the access (every instruction in it is run by
 * hook_code: hook_mem's precise path), and the block hook, which brings
 * the run back to the first engine (hook_block's GLOBAL path). */
static uc_err blk_open2(struct replayer *p)
{
	struct core_hooks h = p->hooks;
	h.code = hook_code;
	h.mem = hook_mem;
	h.mem_types = UC_HOOK_MEM_WRITE | UC_HOOK_MEM_READ_AFTER;
	h.block_thumb = NULL;
	uc_hook bh;
	uc_err e = core_open(&p->uc2, p->c.ram_base, p->c.ram_size, p->c.ram, p->ims.cfg.dev_base, p->ims.cfg.dev_size,
			     mmio_read, mmio_write, p);
	if (!e)
		e = core_add_hooks(p->uc2, &h, p, p->c.ram_base, p->c.ram_size);
	if (!e)
		e = uc_hook_add(p->uc2, &bh, UC_HOOK_BLOCK, hook_block, p, 1, 0);
	if (!e)
		e = uc_context_alloc(p->uc1, &p->swctx);
	p->dirty[0] = p->dirty[1] = (struct core_dirty){UINT32_MAX, 0};
	return e;
}

/* Hands the run to the second engine (TO2) or back to the first, between
 * two runs: the whole CPU state (uc_context_save and _restore across two
 * engines: tests/test_unicorn_engines.c part 7), after the new one dropped
 * its translations of what was written since it last ran (DIRTY: a store
 * of the other engine does not reach them, part 8). */
static uc_err blk_switch(struct replayer *p, int to2)
{
	uc_engine *to = to2 ? p->uc2 : p->uc1;
	if (to == p->c.uc)
		return UC_ERR_OK;
	uc_err e = core_move(p->c.uc, to, p->swctx, p->c.ram_base, &p->dirty[to2]);
	if (!e)
		p->c.uc = to;
	p->c.res->blk_flushes++;
	return e;
}

/* Whether an interrupt due at a cut inside a block is entered in the
 * second engine (1) rather than by cutting the block in the first (0:
 * Unicorn translates the block up to the cut, drops it at the end of the
 * run and translates the whole block again, and a block or two around it,
 * ~160 K host instructions more than a cut in the second engine on irqdma).
 * Opening the second engine and its first translations cost about as much
 * as 70 such cuts (~7 M host instructions for uc_open and the set-up, the
 * rest translating what it runs), so it opens only when, at the rate of
 * cuts so far, BLK_CUTS_AHEAD more are to come in the run, judged from the
 * (REPLAY_CUTS_OPEN + 1)th on: a short run with a few dozen interrupts
 * keeps one engine (measured: REPLAY.md "Two engines"). */
#define BLK_CUTS_AHEAD 96
unsigned replay_cuts_open = 16;
static int blk_cut2(struct replayer *p)
{
	if (p->uc2)
		return 1;
	if (++p->cuts <= replay_cuts_open || p->c.insns >= p->total)
		return 0;
	return (double)p->cuts * (double)(p->total - p->c.insns) >= (double)BLK_CUTS_AHEAD * (double)p->c.insns;
}

/* Every block per instruction (ON: the second engine, opened at the first
 * call) or back to blocks (the first).  Neither drops a translation: each
 * engine keeps its own (REPLAY.md "Two engines"). */
static uc_err blk_global(struct replayer *p, int on)
{
	uc_err e = on && !p->uc2 ? blk_open2(p) : UC_ERR_OK;
	if (!e)
		e = blk_switch(p, on);
	if (!e)
		p->global = on;
	p->cut2 = 0;
	return e;
}

unsigned replay_renew_after = 8192;

/* Replaces Unicorn's engine by a new one in the same state.  Unicorn 2.0.1
 * never reuses the code buffer space of a translation it dropped: every
 * translation made again takes new space, up to its 1 GB buffer, whose
 * flush then touches all of it (tests/test_unicorn_engines.c; REPLAY.md
 * "Interrupts, DMA and the block engine").  The stops above make it
 * translate again (CHURN counts it), so after REPLAY_RENEW_AFTER such
 * translations the engine is closed and a new one opened with the same
 * RAM (ours, mapped by pointer), device window, hooks and per-block code
 * hooks, and the CPU state of the old one (uc_context_save and _restore:
 * the whole CPUARMState up to its breakpoints, every banked register,
 * CP15 and the IT state; pinned across two engines in
 * tests/test_unicorn_engines.c).  Called between two runs only. */
static uc_err blk_renew(struct replayer *p)
{
	uc_context *ctx = NULL;
	uc_engine *old = p->c.uc, *uc = NULL;
	uc_hook h;
	uc_err e = uc_context_alloc(old, &ctx);
	if (!e)
		e = uc_context_save(old, ctx);
	if (!e)
		e = core_open(&uc, p->c.ram_base, p->c.ram_size, p->c.ram, p->ims.cfg.dev_base, p->ims.cfg.dev_size, mmio_read,
			      mmio_write, p);
	if (!e)
		e = core_add_hooks(uc, &p->hooks, p, p->c.ram_base, p->c.ram_size);
	if (!e)
		e = uc_hook_add(uc, &h, UC_HOOK_BLOCK, hook_block, p, 1, 0);
	for (unsigned i = 0; !e && i < p->nhr; i++)
		e = uc_hook_add(uc, &p->hr[i].h, UC_HOOK_CODE, hook_code_range, p, p->hr[i].lo, (uint64_t)p->hr[i].end - 1);
	if (!e)
		e = uc_context_restore(uc, ctx);
	if (ctx)
		uc_context_free(ctx);
	if (e) {
		if (uc)
			uc_close(uc);
		return e;
	}
	uc_close(old);
	p->c.uc = p->uc1 = uc; /* the bus's code_ctx is P (ram_changed) */
	p->churn = 0;
	p->c.res->blk_renewals++;
	return UC_ERR_OK;
}

/* The instruction boundary at A, reached between two blocks with no code
 * hook running (the block hook's stop in front of the block at A, or
 * uc_emu_start's until inside one): what hook_code does there before the
 * instruction, in the same order, the events due there applied.  *PC is
 * where the run goes on: the interrupt's vector when one was entered, else
 * A again, with the boundary marked done (EXPECT_PC = A, so that the
 * branch counter does not count it twice) and HOLD_INSNS set, so that an
 * interrupt that did not enter is left to hook_code (blk_plan). */
static void blk_event_boundary(struct replayer *p, uint32_t a, uint32_t *pc)
{
	close_record(p);
	if (p->c.itstate && !p->c.after_exception)
		it_skipped(p, a);
	replay_boundary(&p->c, a);
	int entered = 0;
	if (p->next_async && (p->next.pc == a || p->next.bcount < p->c.bcount))
		entered = async_events(p, a);
	if (p->c.failed)
		return;
	if (entered) {
		p->c.res->blk_irq_stops++;
		*pc = thumb_resume_pc(p->c.uc);
		return;
	}
	p->c.expect_pc = a;
	p->hold_insns = p->c.insns + 1;
	*pc = a | p->c.block_thumb;
}

/* After uc_emu_start returned (replay_run): the block hook's stop
 * (STOP_WHY), or the cut at UNTIL_PC reached.  Returns 1 when the run goes
 * on at *PC. */
static int blk_between(struct replay_core *c, uint32_t *pc)
{
	struct replayer *p = (struct replayer *)c;
	int why = p->stop_why, until_on = p->until_on;
	uint32_t a = p->switch_pc & ~1u;
	uc_err e = UC_ERR_OK;
	p->stop_why = STOP_NONE;
	p->until_on = 0;
	switch (why) {
	case STOP_NONE:
		if (!until_on || (*pc & ~1u) != p->until_pc)
			return 0;
		/* the cut inside the block: its instructions up to the
		 * interrupt's boundary ran */
		if (!p->precise)
			blk_finish(p);
		if (!c->failed)
			blk_event_boundary(p, p->until_pc, pc);
		return 1;
	case STOP_EVENT:
		*pc = p->switch_pc;
		blk_event_boundary(p, a, pc);
		return 1;
	case STOP_UNTIL:
		p->win_cuts++;
		if (blk_cut2(p)) {
			/* the block up to the cut runs per instruction in the
			 * second engine, hook_code enters the interrupt there,
			 * and the first block after that can run as one goes
			 * back (hook_block's GLOBAL path) */
			e = blk_global(p, 1);
			p->cut2 = 1;
			p->degraded_until = 0;
			p->c.res->blk_irq_stops++;
			*pc = p->switch_pc;
			break;
		}
		/* a stop position inside a translated block is ignored
		 * (tests/test_unicorn_block.c part 4): drop the block (the
		 * translations that hold its first byte: those of its tail,
		 * after the cut, stay), and Unicorn translates it again up to
		 * the cut; at its end uc_emu_start drops that translation
		 * itself (tests/test_unicorn_engines.c) */
		e = uc_ctl_remove_cache(c->uc, a, (uint64_t)a + 1);
		p->churn += 2; /* the cut, and the block once more afterwards */
		c->until = p->until_pc;
		p->until_on = 1;
		*pc = p->switch_pc;
		break;
	case STOP_HOOK:
		p->churn += 2;
		e = p->nhr < HR_MAX ? blk_hook(p, a, p->switch_size) : blk_global(p, 1);
		if (p->global)
			p->degraded_until = UINT64_MAX; /* for the rest of the run */
		*pc = p->switch_pc;
		break;
	case STOP_GLOBAL:
		e = blk_global(p, 0);
		*pc = p->switch_pc;
		break;
	case STOP_INSN:
		e = blk_global(p, 1);
		*pc = p->switch_pc;
		break;
	case STOP_AGAIN:
		*pc = p->switch_pc;
		break;
	}
	if (!e && p->churn > replay_renew_after && !p->global)
		e = blk_renew(p);
	/* the PC after a stop in a block hook is the block's start only without
	 * a code hook (tests/test_unicorn_block.c): go on where it stopped */
	if (e)
		replay_fail(c, NULL, CITCAT_ERR_UNICORN, UINT64_MAX, "changing the replay engine's mode failed: %s",
			    uc_strerror(e));
	return 1;
}

/* The condition-failed instructions of an IT block that Unicorn ran no code
 * hook for, as in the capture model (capture/target.c, it_skipped). */
static void it_skipped(struct replayer *p, uint32_t a)
{
	uint32_t cpsr, pc, word;
	unsigned size;
	uc_reg_read(p->c.uc, UC_ARM_REG_CPSR, &cpsr);
	while (p->c.insns != p->total && replay_it_failed_next(&p->c, a, cpsr, &pc, &size, &word)) {
		if (p->sess && p->c.insns >= p->sess_at && p->sess->boundary(p->sess->ctx, pc, 1))
			return; /* paused before it (replay_sess.h) */
		retire(p, pc, size, word, 1);
		close_record(p);
	}
}

static void hook_code(uc_engine *uc, uint64_t address, uint32_t size, void *ctx)
{
	struct replayer *p = ctx;
	uint32_t a = (uint32_t)address;
	if (p->c.failed || p->c.done) {
		/* again: a PC write after the stop (the IRQ entry that follows a
		 * divergence found in bus_irq) makes Unicorn resume, and the run
		 * would go on forever with every hook returning here */
		uc_emu_stop(uc);
		return;
	}
	if (p->sess_resume) { /* a session resumes at its pause point (replay_sess.h) */
		p->sess_resume = 0;
		goto resume;
	}
	if (p->m7 && replay_m7_precise_take(p->m7)) /* a device or SCS bus error of the last instruction */
		return;
	close_record(p);
	if (p->c.itstate && !p->c.after_exception)
		it_skipped(p, a);
	if (p->sess && p->c.done)
		return; /* paused in it_skipped */
	replay_boundary(&p->c, a);
	if (p->c.insns == p->total) {
		/* the end of the traced interval; an abnormal one is reproduced
		 * or checked here when it lies at this boundary (CAT.md, STOP) */
		if (p->m7 && p->next_async && p->next.kind == CITCAT_AES_IRQ && p->next.pc == a &&
		    p->next.bcount == p->c.bcount) {
			/* the capture took an exception here that could not be taken
			 * (a lockup, no handler: TARGET-M7.md), which ended the run;
			 * the model finds the same and matches the END's fault */
			async_events(p, a);
			if (p->c.failed || p->c.done)
				return;
		}
		const struct citcat_aes_rec *e = p->next_valid && p->next.kind == CITCAT_AES_END ? &p->next : NULL;
		if (e && e->line == CITCAT_STOP_FAULT && (e->value == CITCAT_FAULT_FETCH || e->value == CITCAT_FAULT_THUMB)) {
			int real = e->value == CITCAT_FAULT_THUMB ? size != 4 : a - p->c.ram_base >= p->c.ram_size;
			if (!real || !expected_fault(p, (unsigned)e->value, a, a)) {
				char exp[200];
				snprintf(exp, sizeof exp, "%s at 0x%08x", citcat_fault_kind_name((unsigned)e->value), e->pc);
				replay_diverge(&p->c, "fault", exp, "%s at 0x%08x", real ? "the fault" : "an instruction", a);
			}
			return;
		}
		if (e && e->line == CITCAT_STOP_WFI_DEADLOCK) {
			if (p->c.hist_sync)
				p->c.hist_sync(&p->c);
			unsigned k = (unsigned)((p->c.insns + CITCAT_REPLAY_HISTORY - 1) % CITCAT_REPLAY_HISTORY);
			if (!p->c.insns || !(p->c.last_thumb ? thumb_is_wfi(p->c.hist_word[k], p->c.last_size) : core_is_wfi(p->c.hist_word[k]))) {
				replay_diverge(&p->c, "stop", "a WFI as the last instruction (the recording ended asleep)",
					"the last instruction is not a WFI");
				return;
			}
			close_record(p);
			emit_stop(p, CITCAT_STOP_WFI_DEADLOCK, p->c.hist_pc[k], 0, 0);
		} else if (e && e->line == CITCAT_STOP_INTERRUPTED) {
			emit_stop(p, CITCAT_STOP_INTERRUPTED, a, 0, 0);
		}
		p->c.done = 1;
		uc_emu_stop(uc);
		return;
	}
	if (p->cfg->max_insns && p->c.insns >= p->cfg->max_insns) {
		replay_fail(&p->c, NULL, CITCAT_ERR_LIMIT, UINT64_MAX,
		     "stopped at the instruction limit after %llu of the %llu instructions the IMS claims; every check held "
		     "that far, but the replay is incomplete, so no output is left",
		     (unsigned long long)p->c.insns, (unsigned long long)p->total);
		return;
	}
	/* The AES is consulted only when its next record could be due here, or
	 * its boundary has been passed (a divergence async_events reports). */
	if (p->next_async && (p->next.pc == a || p->next.bcount < p->c.bcount) && (async_events(p, a) || p->c.failed))
		return;
	if (!replay_fetch_in_ram(&p->c, a, size, 0))
		return;
	if (!replay_known_range(&p->c, a, size)) {
		replay_diverge(&p->c, "memory image", "an instruction the IMS holds", "a fetch from 0x%08x, which the IMS does not hold", a);
		return;
	}
	if (p->sess &&
	    (p->c.insns >= p->sess_at || (p->sess_bpf && ((p->sess_bpf[(a >> 4) & 511] >> ((a >> 1) & 7)) & 1))) &&
	    p->sess->boundary(p->sess->ctx, a, 0))
		return; /* paused before it (replay_sess.h) */
resume:;
	uint32_t word = thumb_word_at(p->c.ram + (a - p->c.ram_base), size);
	int thumb = thumb_state_in(a, size, p->c.block_thumb);
	retire(p, a, size, word, thumb);
	if (thumb ? thumb_is_wfi(word, size) : core_is_wfi(word))
		thumb_wfi_retire(uc, a, size, thumb); /* the wake-up is in the AES */
	if (p->cfg->progress && (p->c.insns & 0xfffff) == 0 && stop_asked(p))
		replay_fail(&p->c, NULL, CITCAT_ERR_INTERRUPTED, UINT64_MAX, "interrupted after %llu instructions", (unsigned long long)p->c.insns);
}

static bool hook_unmapped(uc_engine *uc, uc_mem_type type, uint64_t addr, int size, int64_t value, void *ctx)
{
	struct replayer *p = ctx;
	uint32_t a = (uint32_t)addr;
	if (p->c.done)
		return false;
	int fetch = type == UC_MEM_FETCH_UNMAPPED || type == UC_MEM_FETCH_PROT; /* PROT: the device window (core.h) */
	if (!p->precise) { /* the block engine: the instructions before it ran */
		if (fetch)
			blk_finish(p);
		else
			blk_attribute(p);
	}
	if (fetch) {
		/* no code hook ran for A: the branch-counter rule, as in hook_code
		 * (and as the capture model applies it to such a fetch) */
		replay_boundary(&p->c, a);
		if (expected_fault(p, CITCAT_FAULT_FETCH, a, a))
			return false;
	} else if (expected_fault(p, type == UC_MEM_WRITE_UNMAPPED ? CITCAT_FAULT_WRITE : CITCAT_FAULT_READ, p->c.cur_pc,
				  a)) {
		return false;
	}
	replay_diverge(&p->c, "memory map", "accesses within RAM and the device window", "an access to unmapped 0x%08llx",
		(unsigned long long)addr);
	return false;
}

static void hook_intr(uc_engine *uc, uint32_t intno, void *ctx)
{
	struct replayer *p = ctx;
	if (p->m7) {
		replay_m7_intr(p->m7, intno);
		return;
	}
	if (!p->precise)
		blk_finish(p);
	/* the capture model's mapping (capture/target.c, hook_intr) */
	unsigned kind = intno == 1 ? CITCAT_FAULT_UNDEF : intno == 2 ? CITCAT_FAULT_SVC : intno == 7 ? CITCAT_FAULT_BKPT
														  : CITCAT_FAULT_ABORT;
	if (expected_fault(p, kind, p->c.cur_pc, 0))
		return;
	replay_diverge(&p->c, "exception", "no exception other than the recorded interrupts", "exception %u (SVC, undefined or abort)", intno);
}

/* ---- the Cortex-M7 (replay_m7.c) ---- */

/* SCS accesses are device accesses (TARGET-M7.md, Capture): reads take the
 * AES's input queue, writes are checked against its output log, through
 * mmio_read and mmio_write at the SCS address. */
static uint64_t scs_read(uc_engine *uc, uint64_t off, unsigned size, void *ctx)
{
	struct replayer *p = ctx;
	uint64_t v;
	if (!p->c.failed && !p->c.done && replay_m7_scs_read_fault(p->m7, (uint32_t)off, size, &v))
		return v; /* a precise BusFault, as in the capture: no input, no access */
	v = mmio_read(uc, (uint32_t)(M7EXC_SCS_BASE + (uint32_t)off - p->ims.cfg.dev_base), size, ctx);
	replay_m7_scs_check(p->m7, (uint32_t)off, size, (uint32_t)v);
	return v;
}

/* The model's register write comes first, as in the capture: a refused one
 * is a bus error (the recorded end, or a divergence). */
static void scs_write(uc_engine *uc, uint64_t off, unsigned size, uint64_t value, void *ctx)
{
	struct replayer *p = ctx;
	uint32_t addr = M7EXC_SCS_BASE + (uint32_t)off;
	if (p->c.failed || p->c.done || replay_m7_precise_on(p->m7))
		return;
	if (replay_m7_scs_write(p->m7, (uint32_t)off, size, (uint32_t)value)) {
		if (replay_m7_scs_write_fault(p->m7, (uint32_t)off))
			return; /* a precise BusFault, as in the capture */
		if (!expected_fault(p, CITCAT_FAULT_DEV_WRITE, p->c.cur_pc, addr))
			replay_diverge(&p->c, "device output log", "an SCS write the model accepts",
				       "a %u-byte write of 0x%llx to 0x%08x, a bus error", size, (unsigned long long)value, addr);
		return;
	}
	mmio_write(uc, (uint32_t)(addr - p->ims.cfg.dev_base), size, value, ctx);
}

static bool hook_invalid_m7(uc_engine *uc, void *ctx)
{
	struct replayer *p = ctx;
	return replay_m7_invalid(p->m7);
}

/* An unmapped access on the M7: a BusFault (replay_m7.c), else as on the A
 * target. */
static bool hook_unmapped_m7(uc_engine *uc, uc_mem_type type, uint64_t addr, int size, int64_t value, void *ctx)
{
	struct replayer *p = ctx;
	if (replay_m7_unmapped(p->m7, type, (uint32_t)addr))
		return false;
	return hook_unmapped(uc, type, addr, size, value, ctx);
}

static void m7_close(void *ctx) { close_record(ctx); }
static void m7_skipped(void *ctx, uint32_t a) { it_skipped(ctx, a); }
static void m7_emit(void *ctx, const struct citcat_itrace_rec *r) { emit_record(ctx, r); }
static int m7_fault(void *ctx, unsigned kind, uint32_t pc, uint32_t addr) { return expected_fault(ctx, kind, pc, addr); }

void citcat_replay_config_default(struct citcat_replay_config *c)
{
	if (!c)
		return;
	memset(c, 0, sizeof *c);
	c->size = sizeof *c;
	c->engine = CITCAT_REPLAY_ENGINE_AUTO; /* REPLAY.md "Which engine replays what" */
}

/* The IMS's bytes into RAM (a copy of the replay's: the model thread's). */
static void load_copy(struct replayer *p, uint8_t *ram)
{
	size_t n = citcat_image_segments(p->ims.memory);
	for (size_t i = 0; i < n; i++) {
		uint64_t addr, len;
		const uint8_t *data;
		citcat_image_segment(p->ims.memory, i, &addr, &len, &data);
		memcpy(ram + (addr - p->c.ram_base), data, (size_t)len); /* load_memory checked the range */
	}
}

/* Loads the IMS into RAM and the known-bytes bitmap. */
static int load_memory(struct replayer *p)
{
	size_t n = citcat_image_segments(p->ims.memory);
	for (size_t i = 0; i < n; i++) {
		uint64_t addr, len;
		const uint8_t *data;
		citcat_image_segment(p->ims.memory, i, &addr, &len, &data);
		if (addr < p->c.ram_base || addr + len > (uint64_t)p->c.ram_base + p->c.ram_size)
			return replay_fail(&p->c, NULL, CITCAT_ERR_CORRUPT, UINT64_MAX, "%s: memory at 0x%08llx lies outside RAM", p->cfg->ims_path,
				    (unsigned long long)addr);
		memcpy(p->c.ram + (addr - p->c.ram_base), data, (size_t)len);
		for (uint64_t b = 0; b < len; b++)
			replay_kset(p->c.known, (uint32_t)(addr - p->c.ram_base + b));
	}
	return 0;
}

/* --verify: a CAT of another capture with the same configuration and start
 * point passes the checks made before the replay, and would then be reported
 * as a divergence.  Its trace id tells: read it to its STOP (after a
 * divergence the rest is still unread) and compare the id with the IMS's.
 * A different id replaces the divergence with an input error. */
static void check_cat_id(struct replayer *p)
{
	const struct citcat_cat_event *ev;
	int r = 1;
	while (!p->cat_stopped && (r = cat_next(p, &ev)) == 1)
		if ((p->cat_read & 0xffff) == 0 && p->cfg->progress && stop_asked(p) && !p->redo_run) {
			p->c.failed = 0;
			replay_fail(&p->c, NULL, CITCAT_ERR_INTERRUPTED, UINT64_MAX, "interrupted");
			return;
		}
	if (r < 0) {
		p->c.failed = 0;
		p->c.res->diverged = 0;
		replay_input_error(&p->c, p->cfg->verify_cat, citcat_cat_reader_error(cat_feed_reader(p->cat)));
		return;
	}
	struct citcat_trace_id id;
	const struct cat_feed_id *f = cat_feed_id(p->cat);
	citcat_trace_id_make(citcat_cat_config(cat_feed_reader(p->cat)), f->start, f->insns, f->bcount, f->hash, &id);
	if (p->cat_stopped && id.hash == p->ims.id.hash)
		return;
	p->c.failed = 0;
	p->c.res->diverged = 0;
	replay_fail(&p->c, NULL, CITCAT_ERR_CORRUPT, UINT64_MAX, "%s is not the CAT %s was extracted from (trace id %016llx, expected %016llx)",
	     p->cfg->verify_cat, p->cfg->ims_path, p->cat_stopped ? (unsigned long long)id.hash : 0ull,
	     (unsigned long long)p->ims.id.hash);
}

/* Why the block engine does not take this run, or NULL when it does
 * (REPLAY.md "Block-granular replay": what it covers).  A run that ends in
 * a fault is taken: the faulting instruction never runs in a block
 * (blk_qualify and blk_cached refuse a block that reaches the end of the
 * interval), so the fault happens per instruction, in hook_code, where the
 * insn engine reproduces it (REPLAY.md "Runs that end in a fault").  No
 * input is read here: until stop 43 the AES was read once more for its END
 * record, a whole pass over it. */
static const char *block_refusal(struct replayer *p)
{
	if (p->ims.cfg.isa == CITCAT_TARGET_CORTEX_M7)
		return "the Cortex-M7 (Thumb code and its exception model) is replayed per instruction only";
	if (p->cfg->observer)
		return "an observer needs the registers after every instruction";
	return NULL;
}

/* Whether the run takes the model thread (REPLAY.md "session 12: the
 * model thread"): a --verify CAT is the model's one reader (no bus or
 * record callback, no observer: they would see the replay's state ahead
 * of the model's), and the model is busy enough (AUTO) or the caller asks
 * for the thread.  Either target: the Cortex-M7's exception model writes
 * its stacking into RAM after a bus_data store, which logs the value for
 * the thread's RAM copy like any store (REPLAY.md "session 13"). */
static int pipe_wanted(struct replayer *p, int inline_only)
{
	const struct citcat_replay_config *cfg = p->cfg;
	if (inline_only || cfg->model_thread == CITCAT_REPLAY_MODEL_INLINE || !cfg->verify_cat || cfg->bus ||
	    cfg->on_record || cfg->observer)
		return 0;
	/* AUTO: the thread's hand-over costs the replay's thread about as much
	 * per access as the inline model's common hit; it pays where the
	 * model has much more to do (misses, compares: a CAT of 0.41 byte
	 * per instruction on matmul_long, a gain; 0.035 on sha256_long, a
	 * loss).  A segment's CAT is the whole file, so its density is
	 * overstated and a segment takes the thread more readily. */
	struct stat st;
	return cfg->model_thread == CITCAT_REPLAY_MODEL_THREAD ||
	       (stat(cfg->verify_cat, &st) == 0 && (uint64_t)st.st_size * 10 >= p->total);
}

/* Starts the model thread (pipe_wanted), or leaves the model inline when
 * the thread cannot be had. */
static void pipe_open(struct replayer *p)
{
	if (!(p->mram = core_ram_alloc(p->c.ram_size)))
		return;
	load_copy(p, p->mram);
	struct bus_sink sink = {pipe_sink, p};
	if (bus_init(&p->mbus, &p->ims.cfg, p->mram, sink))
		return; /* cannot happen: the replay's bus took the same configuration */
	p->mbus_init = 1;
	cache_set_repl_state(&p->mbus.ic, p->ims.repl_state[0]);
	cache_set_repl_state(&p->mbus.dc, p->ims.repl_state[1]);
	if (model_pipe_start(&p->pipe, &p->c.bus, &p->mbus, &p->c.failed, pipe_stopped, p))
		p->pipe = NULL;
}

/* One run; INLINE_ONLY: the run made again after the thread found a
 * difference at or before instruction *REACHED (set by the first run when
 * it asks for the second, *REDO). */
static int replay_once(const struct citcat_replay_config *ucfg, struct citcat_replay_result *res,
		       struct citcat_errinfo *err, int inline_only, int *redo, uint64_t *reached)
{
	struct citcat_errinfo dummy;
	int rc0 = cc_run_start(&err, &dummy, res, sizeof *res);
	if (rc0)
		return rc0;
	/* the caller's struct may be older or newer than ours (citcat/base.h) */
	struct citcat_replay_config cfgv;
	const struct citcat_replay_config *cfg = &cfgv;
	if (cc_config_from_user(&cfgv, sizeof cfgv, ucfg, offsetof(struct citcat_replay_config, aes_path) +
							 sizeof cfgv.aes_path) ||
	    !cfg->ims_path || !cfg->aes_path)
		return citcat_errinfo_set(err, CITCAT_ERR_INVAL, UINT64_MAX,
					  "bad replay configuration (IMS and AES required)");
	struct replayer *p = calloc(1, sizeof *p);
	if (!p)
		return CITCAT_ERR_NOMEM;
	p->cfg = cfg;
	p->redo_run = inline_only;
	p->quiet_until = *reached;
	replay_begin(&p->c, res, err, cfg->oracle, cfg->out_path);
	p->c.snapshot = 1;
	int rc = 0;

	if ((rc = cfg->segment ? citcat_ims_read_segment(cfg->ims_path, cfg->segment - 1, &p->ims, err)
			       : citcat_ims_read(cfg->ims_path, &p->ims, err))) {
		res->err_path = cfg->ims_path;
		goto out;
	}
	p->c.ram_base = p->ims.cfg.ram_base;
	p->c.ram_size = p->ims.cfg.ram_size;
	if ((rc = cfg->segment ? citcat_aes_reader_open_segment(&p->aes, cfg->aes_path, cfg->segment - 1)
			       : citcat_aes_reader_open(&p->aes, cfg->aes_path))) {
		replay_input_error(&p->c, cfg->aes_path, citcat_aes_reader_error(p->aes));
		goto out;
	}
	const struct citcat_trace_id *aid = citcat_aes_trace_id(p->aes);
	if (aid->hash != p->ims.id.hash) {
		rc = replay_fail(&p->c, NULL, CITCAT_ERR_CORRUPT, UINT64_MAX,
			  "%s and %s come from different captures (trace ids %016llx and %016llx)", cfg->ims_path,
			  cfg->aes_path, (unsigned long long)p->ims.id.hash, (unsigned long long)aid->hash);
		goto out;
	}
	if (citcat_aes_isa(p->aes) != p->ims.cfg.isa) {
		rc = replay_fail(&p->c, NULL, CITCAT_ERR_CORRUPT, UINT64_MAX,
				 "%s and %s are for different targets (%s and %s)", cfg->ims_path, cfg->aes_path,
				 p->ims.cfg.isa == CITCAT_TARGET_CORTEX_M7 ? "Cortex-M7" : "ARMv7-A",
				 citcat_aes_isa(p->aes) == CITCAT_TARGET_CORTEX_M7 ? "Cortex-M7" : "ARMv7-A");
		goto out;
	}
	p->total = p->ims.id.insns;
	if (cfg->verify_cat) {
		struct citcat_cat_reader *cr = NULL;
		if ((rc = citcat_cat_reader_open(&cr, cfg->verify_cat))) {
			replay_input_error(&p->c, cfg->verify_cat, citcat_cat_reader_error(cr));
			citcat_cat_reader_close(cr);
			goto out;
		}
		/* read, decoded and hashed on a second thread from here on */
		p->cat_seg = (int64_t)cfg->verify_segment - 1;
		/* with the model thread, that thread reads the CAT too: a third
		 * thread cost more CPU than it saved on two cores (REPLAY.md) */
		p->use_pipe = pipe_wanted(p, inline_only);
		if ((rc = cat_feed_open_ex(&p->cat, cr, p->cat_seg, !p->use_pipe))) {
			replay_fail(&p->c, NULL, rc, UINT64_MAX, "out of memory");
			goto out;
		}
		/* the CAT must be the one the IMS came from; skip to its start point */
		const struct citcat_cat_event *ev = NULL;
		uint32_t start = 0, repl[2] = {0, 0};
		while ((rc = cat_next(p, &ev)) == 1 && !p->cat_synced)
			;
		if (rc == 1) {
			start = ev->pc;
			repl[0] = ev->repl_state[0];
			repl[1] = ev->repl_state[1];
		}
		if (rc < 0) {
			replay_input_error(&p->c, cfg->verify_cat, citcat_cat_reader_error(cat_feed_reader(p->cat)));
			goto out;
		}
		if (rc != 1 || start != p->ims.id.start_pc || repl[0] != p->ims.repl_state[0] || repl[1] != p->ims.repl_state[1] ||
		    memcmp(citcat_cat_config(cr), &p->ims.cfg, sizeof p->ims.cfg) != 0) {
			rc = replay_fail(&p->c, NULL, CITCAT_ERR_CORRUPT, UINT64_MAX, "%s is not the CAT %s was extracted from", cfg->verify_cat,
				  cfg->ims_path);
			goto out;
		}
		rc = 0;
	}
	/* a segment's itrace says which (merge checks the order) */
	p->c.itrace_segment = cfg->verify_segment <= UINT32_MAX ? (uint32_t)cfg->verify_segment : 0;
	if (p->ims.cfg.isa == CITCAT_TARGET_CORTEX_M7)
		p->c.itrace_isa = CITCAT_ISA_ARMV7M;
	if ((rc = replay_open_itraces(&p->c)))
		goto out;
	p->c.ram = core_ram_alloc(p->c.ram_size);
	p->c.known = calloc(1, p->c.ram_size / 8 + 1);
	if (!p->c.ram || !p->c.known) {
		rc = replay_fail(&p->c, NULL, CITCAT_ERR_NOMEM, UINT64_MAX, "out of memory");
		goto out;
	}
	if ((rc = load_memory(p)))
		goto out;
	struct bus_sink sink = {sink_event, p};
	if ((rc = bus_init(&p->c.bus, &p->ims.cfg, p->c.ram, sink))) {
		replay_fail(&p->c, NULL, rc, UINT64_MAX, "%s: unusable cache configuration", cfg->ims_path);
		goto out;
	}
	/* the random-replacement generators as the trace module recorded them
	 * at P (TARGET.md): the caches are empty, but the generators are not
	 * reset by invalidation */
	if (cache_set_repl_state(&p->c.bus.ic, p->ims.repl_state[0]) || cache_set_repl_state(&p->c.bus.dc, p->ims.repl_state[1])) {
		rc = replay_fail(&p->c, NULL, CITCAT_ERR_CORRUPT, UINT64_MAX, "%s: replacement state does not fit the cache policy", cfg->ims_path);
		goto out;
	}
	if (cfg->engine > CITCAT_REPLAY_ENGINE_AUTO) {
		rc = replay_fail(&p->c, NULL, CITCAT_ERR_INVAL, UINT64_MAX, "unknown replay engine %u", cfg->engine);
		goto out;
	}
	p->records = cfg->out_path || cfg->oracle || cfg->on_record || cfg->observer;
	/* REPLAY.md "When the memory-system model runs" */
	int no_model = !cfg->verify_cat && !cfg->bus && !cfg->always_model;
	if (no_model)
		p->c.bus.mode = BUS_OFF;
	p->seq_out = no_model && cfg->out_path && !cfg->oracle && !cfg->on_record && !cfg->observer;
	if (cfg->engine != CITCAT_REPLAY_ENGINE_INSN) {
		const char *why = block_refusal(p);
		if (why && cfg->engine == CITCAT_REPLAY_ENGINE_BLOCK) {
			rc = replay_fail(&p->c, NULL, CITCAT_ERR_UNSUPPORTED, UINT64_MAX,
					 "the block engine does not take this run: %s (the insn or auto engine does)", why);
			goto out;
		}
		p->block = !why;
		/* auto starts with blocks and judges them by what they cost,
		 * window by window (blk_window).  It no longer guesses from the
		 * AES's interrupt count, which foretold the cuts badly
		 * (uartline: 244 interrupts not after a WFI, 19 of them
		 * entered at a cut; the insn engine it chose did 17% more
		 * work).  A run shorter than a window stays with blocks: a
		 * switch drops every translation, which a short run does not
		 * win back (uartline_thumb: 141 M host instructions with a
		 * switch after 2^16 instructions, 115 M without) */
		p->policy = cfg->engine == CITCAT_REPLAY_ENGINE_AUTO;
	}
	p->precise = !p->block;
	if (p->block && (cfg->segment ? citcat_aes_reader_open_segment(&p->scan, cfg->aes_path, cfg->segment - 1)
				      : citcat_aes_reader_open(&p->scan, cfg->aes_path))) {
		replay_input_error(&p->c, cfg->aes_path, citcat_aes_reader_error(p->scan));
		rc = p->c.err->code;
		goto out;
	}
	p->blk_ev = UINT32_MAX;
	p->code_gen = 1;
	if (p->block)
		p->c.hist_sync = hist_sync;
	if (p->block && (rblk_cache_init(&p->bcache, 12) || !(p->bver = calloc((size_t)p->bcache.mask + 1, sizeof *p->bver)) ||
			 !(p->bhk = calloc((size_t)p->bcache.mask + 1, sizeof *p->bhk)) ||
			 !(p->cgran = calloc(1, p->c.ram_size / 64 / 8 + 1)))) {
		rc = replay_fail(&p->c, NULL, CITCAT_ERR_NOMEM, UINT64_MAX, "out of memory");
		goto out;
	}
	/* loads are hooked twice under the block engine: in front of the
	 * access for its blocks, after it for its per-instruction stretches
	 * (hook_mem says why).  A run that never leaves the insn engine (insn,
	 * the Cortex-M7, auto's short or interrupt-dense runs) takes only the
	 * call after it: the call in front would return at once, and Unicorn
	 * 2.0.1 makes each hooked type cost about 54 host instructions a load
	 * (REPLAY.md "The load hooks' cost") */
	struct core_hooks hooks = {hook_code, p->block ? hook_mem_blk : hook_mem,
				   UC_HOOK_MEM_WRITE | UC_HOOK_MEM_READ_AFTER | (p->block ? UC_HOOK_MEM_READ : 0),
				   hook_unmapped, hook_intr,
				   p->ims.cfg.isa == CITCAT_TARGET_CORTEX_M7 ? NULL : &p->c.block_thumb};
	if (p->ims.cfg.isa == CITCAT_TARGET_CORTEX_M7) {
		if (!(p->m7 = calloc(1, sizeof *p->m7))) {
			rc = replay_fail(&p->c, NULL, CITCAT_ERR_NOMEM, UINT64_MAX, "out of memory");
			goto out;
		}
		p->m7->ops = (struct replay_m7_ops){m7_close, m7_emit, m7_fault, p, NULL, NULL, m7_skipped, NULL};
		hooks.unmapped = hook_unmapped_m7;
		if ((rc = replay_m7_open(p->m7, &p->c, cfg->ims_path, p->ims.cfg.dev_base, p->ims.cfg.dev_size, mmio_read,
					 mmio_write, scs_read, scs_write, &hooks, hook_invalid_m7, p, &p->ims.regs)))
			goto out;
	} else {
		if (p->block) { /* no code hook until a block needs one (blk_between) */
			hooks.code = NULL;
			hooks.block_thumb = NULL;
		}
		p->hooks = hooks;
		if ((rc = replay_open_core(&p->c, p->ims.cfg.dev_base, p->ims.cfg.dev_size, mmio_read, mmio_write, &hooks,
					   p, &p->ims.regs, (p->ims.sctlr & ARM_SCTLR_TE) != 0)))
			goto out;
		uc_hook bh;
		if (p->block && uc_hook_add(p->c.uc, &bh, UC_HOOK_BLOCK, hook_block, p, 1, 0)) {
			rc = replay_fail(&p->c, NULL, CITCAT_ERR_UNICORN, UINT64_MAX, "Unicorn set-up failed: block hook");
			goto out;
		}
		if (p->block)
			p->c.between = blk_between;
		p->uc1 = p->c.uc;
		p->win_start = 0;
		p->degrade_len = replay_auto_window;
	}
	if (p->m7)
		p->c.block_thumb = 1; /* always Thumb: no block hook on the M7 (hook_code's thumb_state_in) */
	/* bus_dma writes RAM behind Unicorn's back, as in the capture model */
	p->c.bus.code_changed = ram_changed;
	p->c.bus.code_ctx = p;
	if (cfg->observer && cfg->observer->start) {
		uint32_t regs[CITCAT_OBS_NREGS];
		if (obs_read(p, regs) || (rc = cfg->observer->start(cfg->observer->ctx, regs))) {
			observe_failed(p, rc ? rc : CITCAT_ERR_UNICORN);
			rc = err->code;
			goto out;
		}
	}
	next_aes(p);
	if (cfg->progress && stop_asked(p))
		replay_fail(&p->c, NULL, CITCAT_ERR_INTERRUPTED, UINT64_MAX, "interrupted before the first instruction");
	if (p->use_pipe)
		pipe_open(p);
	replay_run(&p->c, run_fault);
	if (p->c.hist_sync) /* before the block cache goes, and for the checks below */
		p->c.hist_sync(&p->c);
	if (p->pipe) {
		/* every event logged has been compared once the thread is done */
		int bad = model_pipe_finish(p->pipe);
		p->pipe = NULL;
		res->bus_events = p->pipe_events;
		if (bad) {
			p->redo = 1;
			*reached = p->c.insns;
			rc = CITCAT_ERR_DIVERGED;
			goto out;
		}
	}
	if (!p->c.failed) {
		/* the run is complete: every record must have been used */
		if (!p->next_valid || p->next.kind != CITCAT_AES_END)
			replay_diverge(&p->c, "event schedule", "the END record", "unused %s record(s) remain",
				p->next_valid ? citcat_aes_kind_name(p->next.kind) : "?");
		else if (p->next.insns != p->c.insns)
			replay_diverge(&p->c, "event schedule", "the END record's instruction count", "%llu instructions",
				(unsigned long long)p->c.insns);
		else if (p->next.bcount != p->c.bcount)
			replay_diverge(&p->c, "event schedule", "the END record's branch count", "%llu branches",
				(unsigned long long)p->c.bcount);
		else if (p->next.line == CITCAT_STOP_FAULT && !p->fault_seen) {
			char exp[200];
			snprintf(exp, sizeof exp, "%s at 0x%08x, address 0x%08x", citcat_fault_kind_name((unsigned)p->next.value),
				 p->next.pc, p->next.addr);
			replay_diverge(&p->c, "fault", exp, "no fault");
		}
	}
	if (!p->c.failed) {
		/* read past the END record to the container's end marker, so a
		 * truncated or extended AES is not taken as complete */
		struct citcat_aes_rec extra;
		int r2 = citcat_aes_next(p->aes, &extra);
		if (r2 < 0)
			replay_input_error(&p->c, cfg->aes_path, citcat_aes_reader_error(p->aes));
		else if (r2 == 1)
			replay_fail(&p->c, NULL, CITCAT_ERR_CORRUPT, UINT64_MAX, "%s: records follow the END record", cfg->aes_path);
	}
	replay_oracle_end(&p->c);
	if (!p->c.failed && p->cat) {
		const struct citcat_cat_event *ev;
		int r2 = cat_next(p, &ev);
		if (r2 == 1 && !p->cat_stopped) { /* not the STOP, nor the segment's end marker */
			char want[200];
			describe_event(want, sizeof want, ev);
			replay_diverge(&p->c, "bus trace", want, "the end of the replay");
		} else if (r2 < 0) {
			replay_input_error(&p->c, cfg->verify_cat, citcat_cat_reader_error(cat_feed_reader(p->cat)));
		}
		/* the rest of the CAT (after STOP) up to its end marker */
		while (!p->c.failed && r2 == 1 && p->cat_seg < 0 && (r2 = cat_next(p, &ev)) == 1)
			;
		if (!p->c.failed && r2 < 0)
			replay_input_error(&p->c, cfg->verify_cat, citcat_cat_reader_error(cat_feed_reader(p->cat)));
		/* the Cortex-M7 fault status the STOP records (CAT version 7): the
		 * replay's exception model must have come to the same registers */
		struct citcat_m7_fault cf;
		if (!p->c.failed && p->cat_stopped && p->c.has_m7_fault &&
		    citcat_cat_m7_fault(cat_feed_reader(p->cat), &cf) == 1 && memcmp(&cf, &p->c.m7_fault, sizeof cf) != 0) {
			char want[200], got[200];
			citcat_m7_fault_describe(&cf, want, sizeof want);
			citcat_m7_fault_describe(&p->c.m7_fault, got, sizeof got);
			replay_diverge(&p->c, "bus trace", want, "%s (the Cortex-M7 fault status at the stop)", got);
		}
	}
	if (p->cat && p->c.failed != 2)
		check_cat_id(p);
	rc = replay_finish(&p->c);
out:
	if (p->pipe) /* not reached: the thread is finished right after the run */
		model_pipe_finish(p->pipe);
	*redo = p->redo;
	if (p->uc2) /* the engine not running; replay_fini closes the other */
		uc_close(p->c.uc == p->uc2 ? p->uc1 : p->uc2);
	if (p->swctx)
		uc_context_free(p->swctx);
	replay_fini(&p->c);
	if (p->mbus_init)
		bus_fini(&p->mbus);
	core_ram_free(p->mram, p->c.ram_size);
	cat_feed_close(p->cat);
	citcat_aes_reader_close(p->aes);
	citcat_ims_fini(&p->ims);
	free(p->m7);
	rblk_cache_fini(&p->bcache);
	free(p->bver);
	free(p->bhk);
	free(p->cgran);
	free(p->hr);
	free(p->hgran);
	citcat_aes_reader_close(p->scan);
	core_ram_free(p->c.ram, p->c.ram_size);
	free(p->c.known);
	free(p);
	return rc;
}

int citcat_replay_run(const struct citcat_replay_config *ucfg, struct citcat_replay_result *res,
		      struct citcat_errinfo *err)
{
	int redo = 0;
	uint64_t reached = 0;
	int rc = replay_once(ucfg, res, err, 0, &redo, &reached);
	/* the model thread found a difference (or the CAT's error): the
	 * inline run finds it again, reports it from the replay's own state at
	 * that point and stops there (REPLAY.md "session 12: the model thread") */
	if (redo) {
		__atomic_fetch_add(&model_pipe_redos, 1, __ATOMIC_RELAXED);
		rc = replay_once(ucfg, res, err, 1, &redo, &reached);
	}
	return rc;
}

/* ---- a session: the replayer driven step by step (replay_sess.h), for
 * the replay cursor (cursor.c, replay/CURSOR.md).  The insn engine, the
 * memory-system model off; the set-up is replay_once's for that case. ---- */

static void sess_m7_access(void *ctx, uint32_t addr, int write)
{
	struct replayer *p = ctx;
	p->sess->model(p->sess->ctx, addr, write);
}

/* Opens a reader of the session's AES into *R; its error is recorded. */
static int sess_open_aes(struct replayer *p, struct citcat_aes_reader **r)
{
	int rc = p->aes_buf ? citcat_aes_reader_open_mem(r, p->aes_buf, p->aes_len)
			    : citcat_aes_reader_open(r, p->cfg->aes_path);
	if (rc) {
		replay_input_error(&p->c, p->cfg->aes_path, citcat_aes_reader_error(*r));
		citcat_aes_reader_close(*r);
		*r = NULL;
	}
	return rc;
}

void replay_sess_close(struct replayer *p)
{
	if (!p)
		return;
	replay_fini(&p->c);
	citcat_aes_reader_close(p->aes);
	citcat_ims_fini(&p->ims);
	free(p->m7);
	core_ram_free(p->c.ram, p->c.ram_size);
	free(p->c.known);
	free(p);
}

int replay_sess_open(struct replayer **out, struct citcat_ims *ims, const char *ims_name, const char *aes_name,
		     const char *aes_path, const void *aes_buf, size_t aes_len, const struct replay_sess_hooks *hooks,
		     struct citcat_replay_result *res, struct citcat_errinfo *err)
{
	*out = NULL;
	memset(res, 0, sizeof *res);
	memset(err, 0, sizeof *err);
	struct replayer *p = calloc(1, sizeof *p);
	if (!p) {
		citcat_ims_fini(ims);
		return citcat_errinfo_set(err, CITCAT_ERR_NOMEM, UINT64_MAX, "out of memory");
	}
	citcat_replay_config_default(&p->sess_cfg);
	p->sess_cfg.engine = CITCAT_REPLAY_ENGINE_INSN;
	p->sess_cfg.ims_path = ims_name;
	p->sess_cfg.aes_path = aes_path ? aes_path : aes_name;
	p->cfg = &p->sess_cfg;
	p->aes_buf = aes_buf;
	p->aes_len = aes_len;
	p->sess_at = UINT64_MAX;
	replay_begin(&p->c, res, err, NULL, NULL);
	p->c.snapshot = 1;
	p->ims = *ims;
	memset(ims, 0, sizeof *ims);
	p->c.ram_base = p->ims.cfg.ram_base;
	p->c.ram_size = p->ims.cfg.ram_size;
	int rc;
	if ((rc = sess_open_aes(p, &p->aes)))
		goto out;
	const struct citcat_trace_id *aid = citcat_aes_trace_id(p->aes);
	if (aid->hash != p->ims.id.hash) {
		rc = replay_fail(&p->c, NULL, CITCAT_ERR_CORRUPT, UINT64_MAX,
				 "%s and %s come from different captures (trace ids %016llx and %016llx)", ims_name,
				 aes_name, (unsigned long long)p->ims.id.hash, (unsigned long long)aid->hash);
		goto out;
	}
	if (citcat_aes_isa(p->aes) != p->ims.cfg.isa) {
		rc = replay_fail(&p->c, NULL, CITCAT_ERR_CORRUPT, UINT64_MAX, "%s and %s are for different targets",
				 ims_name, aes_name);
		goto out;
	}
	p->total = p->ims.id.insns;
	int m7 = p->ims.cfg.isa == CITCAT_TARGET_CORTEX_M7;
	if (m7)
		p->c.itrace_isa = CITCAT_ISA_ARMV7M;
	p->c.ram = core_ram_alloc(p->c.ram_size);
	p->c.known = calloc(1, p->c.ram_size / 8 + 1);
	if (!p->c.ram || !p->c.known) {
		rc = replay_fail(&p->c, NULL, CITCAT_ERR_NOMEM, UINT64_MAX, "out of memory");
		goto out;
	}
	if ((rc = load_memory(p)))
		goto out;
	struct bus_sink sink = {sink_event, p};
	if ((rc = bus_init(&p->c.bus, &p->ims.cfg, p->c.ram, sink))) {
		replay_fail(&p->c, NULL, rc, UINT64_MAX, "%s: unusable cache configuration", ims_name);
		goto out;
	}
	if (cache_set_repl_state(&p->c.bus.ic, p->ims.repl_state[0]) ||
	    cache_set_repl_state(&p->c.bus.dc, p->ims.repl_state[1])) {
		rc = replay_fail(&p->c, NULL, CITCAT_ERR_CORRUPT, UINT64_MAX,
				 "%s: replacement state does not fit the cache policy", ims_name);
		goto out;
	}
	p->c.bus.mode = BUS_OFF;
	p->precise = 1;
	/* the cursor runs the insn engine only: loads after the access (hook_mem) */
	struct core_hooks h = {hook_code, hook_mem, UC_HOOK_MEM_WRITE | UC_HOOK_MEM_READ_AFTER, hook_unmapped, hook_intr,
			       m7 ? NULL : &p->c.block_thumb};
	if (m7) {
		if (!(p->m7 = calloc(1, sizeof *p->m7))) {
			rc = replay_fail(&p->c, NULL, CITCAT_ERR_NOMEM, UINT64_MAX, "out of memory");
			goto out;
		}
		p->m7->ops = (struct replay_m7_ops){m7_close, m7_emit, m7_fault, p, NULL, NULL, m7_skipped, sess_m7_access};
		h.unmapped = hook_unmapped_m7;
		if ((rc = replay_m7_open(p->m7, &p->c, ims_name, p->ims.cfg.dev_base, p->ims.cfg.dev_size, mmio_read,
					 mmio_write, scs_read, scs_write, &h, hook_invalid_m7, p, &p->ims.regs)))
			goto out;
		p->c.block_thumb = 1;
	} else if ((rc = replay_open_core(&p->c, p->ims.cfg.dev_base, p->ims.cfg.dev_size, mmio_read, mmio_write, &h, p,
					  &p->ims.regs, (p->ims.sctlr & ARM_SCTLR_TE) != 0))) {
		goto out;
	}
	p->c.bus.code_changed = core_code_changed;
	p->c.bus.code_ctx = p->c.uc;
	p->sess = hooks;
	next_aes(p);
	if (p->c.failed) {
		rc = err->code ? err->code : CITCAT_ERR_INTERNAL;
		goto out;
	}
	*out = p;
	return 0;
out:
	if (!rc)
		rc = CITCAT_ERR_INTERNAL;
	replay_sess_close(p);
	return rc;
}

struct replay_core *replay_sess_core(struct replayer *p) { return &p->c; }
const struct citcat_ims *replay_sess_ims(const struct replayer *p) { return &p->ims; }
const struct m7exc *replay_sess_m7(const struct replayer *p) { return p->m7 ? &p->m7->exc : NULL; }
void replay_sess_set_at(struct replayer *p, uint64_t at) { p->sess_at = at; }
void replay_sess_set_bpf(struct replayer *p, const uint8_t *bpf) { p->sess_bpf = bpf; }

void replay_sess_pause(struct replayer *p, int resume)
{
	p->c.done = 1;
	p->sess_resume = resume;
	uc_emu_stop(p->c.uc);
}

void replay_sess_run(struct replayer *p)
{
	p->c.start_here = 1;
	replay_run(&p->c, run_fault);
}

void replay_sess_save(const struct replayer *p, struct replay_sess_state *s)
{
	const struct replay_core *c = &p->c;
	memset(s, 0, sizeof *s);
	s->bcount = c->bcount;
	s->insns = c->insns;
	s->cur_index = c->cur_index;
	s->expect_pc = c->expect_pc;
	s->cur_pc = c->cur_pc;
	s->itstate = c->itstate;
	s->insn_in_it = c->insn_in_it;
	s->it_at = c->it_at;
	s->last_size = c->last_size;
	s->last_thumb = c->last_thumb;
	s->block_thumb = c->block_thumb;
	s->after_exception = c->after_exception;
	s->irq_seen = c->irq_seen;
	s->irq_line = c->irq_line;
	s->irq_epc = c->irq_epc;
	s->irq_index = c->irq_index;
	memcpy(s->hist_pc, c->hist_pc, sizeof s->hist_pc);
	memcpy(s->hist_word, c->hist_word, sizeof s->hist_word);
	memcpy(s->hist_size, c->hist_size, sizeof s->hist_size);
	memcpy(s->hist_thumb, c->hist_thumb, sizeof s->hist_thumb);
	s->cycle = c->bus.cycle;
	s->last_iline = c->bus.last_iline;
	s->last_iline_valid = c->bus.last_iline_valid;
	s->aes_count = p->aes_count;
	s->fault_seen = p->fault_seen;
	s->irqs = c->res->irqs;
	s->dma = c->res->dma;
	if (p->m7) {
		s->m7 = 1;
		s->exc = p->m7->exc;
		s->entry = p->m7->entry;
	}
	s->resume = p->sess_resume;
}

/* The main AES reader to the state where K records have been read (the
 * lookahead is record K - 1): read on, or from the start again when it is
 * past that. */
static int sess_aes_to(struct replayer *p, uint64_t k)
{
	if (k < p->aes_count) {
		citcat_aes_reader_close(p->aes);
		p->aes = NULL;
		p->aes_count = 0;
		int rc = sess_open_aes(p, &p->aes);
		if (rc)
			return rc;
	}
	while (p->aes_count < k) {
		int rc = citcat_aes_next(p->aes, &p->next);
		if (rc < 0) {
			replay_input_error(&p->c, p->cfg->aes_path, citcat_aes_reader_error(p->aes));
			return rc;
		}
		if (rc == 0)
			return replay_fail(&p->c, NULL, CITCAT_ERR_TRUNCATED, UINT64_MAX,
					   "%s: the AES ends without its END record", p->cfg->aes_path);
		p->aes_count++;
	}
	p->next_valid = k > 0;
	p->next_async = p->next_valid && (p->next.kind == CITCAT_AES_DMA || p->next.kind == CITCAT_AES_IRQ);
	return 0;
}

int replay_sess_restore(struct replayer *p, const struct replay_sess_state *s)
{
	struct replay_core *c = &p->c;
	c->bcount = s->bcount;
	c->insns = s->insns;
	c->cur_index = s->cur_index;
	c->expect_pc = s->expect_pc;
	c->cur_pc = s->cur_pc;
	c->itstate = s->itstate;
	c->insn_in_it = s->insn_in_it;
	c->it_at = s->it_at;
	c->last_size = s->last_size;
	c->last_thumb = s->last_thumb;
	c->block_thumb = s->block_thumb;
	c->after_exception = s->after_exception;
	c->irq_seen = s->irq_seen;
	c->irq_line = s->irq_line;
	c->irq_epc = s->irq_epc;
	c->irq_index = s->irq_index;
	memcpy(c->hist_pc, s->hist_pc, sizeof s->hist_pc);
	memcpy(c->hist_word, s->hist_word, sizeof s->hist_word);
	memcpy(c->hist_size, s->hist_size, sizeof s->hist_size);
	memcpy(c->hist_thumb, s->hist_thumb, sizeof s->hist_thumb);
	c->bus.cycle = s->cycle;
	c->bus.last_iline = s->last_iline;
	c->bus.last_iline_valid = s->last_iline_valid;
	c->res->irqs = s->irqs;
	c->res->dma = s->dma;
	c->cur_valid = 0;
	c->resume = 0;
	c->done = 0;
	c->failed = 0;
	c->res->diverged = 0;
	p->fault_seen = s->fault_seen;
	p->sess_resume = s->resume;
	if (p->m7 && s->m7) {
		p->m7->exc = s->exc;
		p->m7->entry = s->entry;
	}
	int rc = sess_aes_to(p, s->aes_count);
	if (rc)
		return rc;
	return 0;
}

int replay_sess_end_record(struct replayer *p, struct citcat_aes_rec *end, uint64_t *nevents, uint32_t *exit_value,
			   int *have_exit)
{
	struct citcat_aes_reader *r = NULL;
	int rc = sess_open_aes(p, &r);
	if (rc)
		return rc;
	uint32_t exit_addr = p->ims.cfg.dev_base + CITCAT_DEV_OFF(CITCAT_SYSCTL_EXIT);
	struct citcat_aes_rec rec;
	*nevents = 0;
	*have_exit = 0;
	memset(end, 0, sizeof *end);
	while ((rc = citcat_aes_next(r, &rec)) == 1) {
		if (rec.kind == CITCAT_AES_END) {
			*end = rec;
			end->data = NULL;
			break;
		}
		++*nevents;
		if (rec.kind == CITCAT_AES_OUTPUT && rec.addr == exit_addr) {
			*exit_value = (uint32_t)rec.value;
			*have_exit = 1;
		}
	}
	if (rc < 0)
		replay_input_error(&p->c, p->cfg->aes_path, citcat_aes_reader_error(r));
	else if (rc == 0)
		rc = replay_fail(&p->c, NULL, CITCAT_ERR_TRUNCATED, UINT64_MAX, "%s: the AES ends without its END record",
				 p->cfg->aes_path);
	else
		rc = 0;
	citcat_aes_reader_close(r);
	return rc;
}

int replay_sess_end_check(struct replayer *p)
{
	if (!p->c.failed) { /* as replay_once after the run */
		if (!p->next_valid || p->next.kind != CITCAT_AES_END)
			replay_diverge(&p->c, "event schedule", "the END record", "unused %s record(s) remain",
				       p->next_valid ? citcat_aes_kind_name(p->next.kind) : "?");
		else if (p->next.insns != p->c.insns)
			replay_diverge(&p->c, "event schedule", "the END record's instruction count", "%llu instructions",
				       (unsigned long long)p->c.insns);
		else if (p->next.bcount != p->c.bcount)
			replay_diverge(&p->c, "event schedule", "the END record's branch count", "%llu branches",
				       (unsigned long long)p->c.bcount);
		else if (p->next.line == CITCAT_STOP_FAULT && !p->fault_seen) {
			char exp[200];
			snprintf(exp, sizeof exp, "%s at 0x%08x, address 0x%08x",
				 citcat_fault_kind_name((unsigned)p->next.value), p->next.pc, p->next.addr);
			replay_diverge(&p->c, "fault", exp, "no fault");
		}
	}
	if (!p->c.failed) {
		struct citcat_aes_rec extra;
		int r2 = citcat_aes_next(p->aes, &extra);
		if (r2 < 0)
			replay_input_error(&p->c, p->cfg->aes_path, citcat_aes_reader_error(p->aes));
		else if (r2 == 1)
			replay_fail(&p->c, NULL, CITCAT_ERR_CORRUPT, UINT64_MAX, "%s: records follow the END record",
				    p->cfg->aes_path);
	}
	if (p->c.failed == 1)
		return CITCAT_ERR_DIVERGED;
	if (p->c.failed)
		return p->c.err->code ? p->c.err->code : CITCAT_ERR_INTERNAL;
	return 0;
}
