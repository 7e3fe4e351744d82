/* The replayer driven step by step: what the replay cursor (cursor.c,
 * replay/CURSOR.md) needs from replay.c, which owns struct replayer.
 * Internal to replay/.
 *
 * A session is the IMS/AES replayer on the insn engine (a code hook before
 * every instruction), the memory-system model off, with a few calls into
 * the session (struct replay_sess_hooks) at the points where the cursor
 * must look: the boundary before each instruction retires (where it may
 * pause the run), every data access, every DMA transfer, and every AES
 * record applied.  replay.c runs it (replay_sess_run); the cursor keeps
 * everything else: snapshots, breakpoints, watchpoints, the instant.
 *
 * The instant N of a run is the state after N instructions retired and
 * after the events due at the boundary before instruction N (DMA
 * transfers, an interrupt entry) were applied: the register file shows PC
 * = the address of instruction N (an interrupt handler's first instruction
 * when an entry came between).  The pause point is in the code hook of
 * instruction N, after its boundary's checks and events, just before it
 * retires; for a condition-failed instruction of an IT block (which gets
 * no code hook) in it_skipped, just before it retires there. */
#ifndef CITCAT_REPLAY_SESS_H
#define CITCAT_REPLAY_SESS_H

#include "replay_int.h"
#include "m7entry.h"
#include "m7exc.h"

#include <citcat/aes.h>
#include <citcat/ims.h>

struct replayer;

struct replay_sess_hooks {
	void *ctx;
	/* The boundary before the instruction at A is reached, with the
	 * instruction count at or beyond replay_sess_set_at's value, or A passing the
	 * breakpoint filter; SKIPPED: A is a condition-failed instruction of an
	 * IT block, retired without a code hook of its own.  Returns 1 when the
	 * session pauses here: it has set the core's done flag and stopped
	 * Unicorn (replay_sess_pause), and the hook returns without retiring. */
	int (*boundary)(void *ctx, uint32_t a, int skipped);
	/* A data access of SIZE bytes at ADDR in RAM by the core (from its
	 * memory hook, before a write is made). */
	void (*mem)(void *ctx, uint32_t addr, unsigned size, int write);
	/* A 4-byte access at ADDR by the Cortex-M7's exception model
	 * (stacking, unstacking, vector reads), before a write is made. */
	void (*model)(void *ctx, uint32_t addr, int write);
	/* A DMA transfer wrote LEN bytes at ADDR (after the write). */
	void (*dma)(void *ctx, uint32_t addr, uint32_t len);
	/* The AES record REC, number INDEX (0 = the first record of the file),
	 * has been applied (an interrupt, a DMA transfer) or consumed (a device
	 * read or write), at the instruction count C->insns of the moment. */
	void (*event)(void *ctx, const struct citcat_aes_rec *rec, uint64_t index);
};

/* What a snapshot keeps of the replayer, besides the engine's context
 * (uc_context_save) and RAM: the run state of struct replay_core, the
 * bus's state outside the model, the AES position and the Cortex-M7's
 * exception model. */
struct replay_sess_state {
	uint64_t bcount, insns, cur_index;
	uint32_t expect_pc, cur_pc;
	uint8_t itstate, insn_in_it, it_at, last_size, last_thumb, block_thumb;
	int after_exception;
	int irq_seen;
	unsigned irq_line;
	uint32_t irq_epc;
	uint64_t irq_index;
	uint32_t hist_pc[CITCAT_REPLAY_HISTORY], hist_word[CITCAT_REPLAY_HISTORY];
	uint8_t hist_size[CITCAT_REPLAY_HISTORY], hist_thumb[CITCAT_REPLAY_HISTORY];
	uint64_t cycle;
	uint32_t last_iline;
	int last_iline_valid;
	uint64_t aes_count; /* AES records read (the lookahead is number aes_count - 1) */
	int fault_seen;
	uint64_t irqs, dma;
	int m7;
	struct m7exc exc;
	struct m7entry entry;
	/* the next code hook is this state's instruction, which then retires
	 * at once (a pause before an executed instruction; 0 before a
	 * condition-failed one, which gets no code hook) */
	int resume;
};

/* Opens a session on the run of IMS (taken over: *IMS is zeroed, its
 * memory the session's) and the AES at AES_PATH, or when AES_BUF is not
 * NULL the AES_LEN bytes there (which must outlive the session).  NAMES
 * for messages: IMS_NAME, AES_NAME.  RES and ERR (caller-owned, outliving
 * the session) get divergences and errors.  Returns 0 with *OUT set, or an
 * error (ERR says why; *OUT NULL). */
int replay_sess_open(struct replayer **out, struct citcat_ims *ims, const char *ims_name, const char *aes_name,
		     const char *aes_path, const void *aes_buf, size_t aes_len, const struct replay_sess_hooks *hooks,
		     struct citcat_replay_result *res, struct citcat_errinfo *err);
void replay_sess_close(struct replayer *p);

struct replay_core *replay_sess_core(struct replayer *p);
const struct citcat_ims *replay_sess_ims(const struct replayer *p);
/* The Cortex-M7's exception model, or NULL on the A target. */
const struct m7exc *replay_sess_m7(const struct replayer *p);

/* The boundary hook runs once the instruction count reaches AT
 * (UINT64_MAX: never); BPF (NULL: none) is the breakpoint filter, 512
 * bytes: an instruction at A also runs it when bit (A >> 1) & 4095 is set. */
void replay_sess_set_at(struct replayer *p, uint64_t at);
void replay_sess_set_bpf(struct replayer *p, const uint8_t *bpf);

/* From a boundary hook: stop Unicorn before the instruction (the core's
 * done flag is set, so every hook is inert until replay_sess_run returns,
 * which may be after the end of an IT block: Unicorn takes a stop there
 * only after the block).  RESUME: the next code hook is this instruction's,
 * and it goes straight to retiring it (not for a SKIPPED boundary, whose
 * instruction gets no code hook). */
void replay_sess_pause(struct replayer *p, int resume);

/* Runs from the core's current PC (and Thumb state) until the run pauses,
 * ends or fails (C->done, C->failed). */
void replay_sess_run(struct replayer *p);

/* The run's state now / back to S (the AES reader repositioned: read on,
 * or opened again and read to S's record when behind; its errors are
 * recorded as any).  Returns 0 or the error. */
void replay_sess_save(const struct replayer *p, struct replay_sess_state *s);
int replay_sess_restore(struct replayer *p, const struct replay_sess_state *s);

/* The AES's END record and facts a debugger shows, read once through a
 * second reader: *END, the number of records before it (*NEVENTS), and
 * the last value written to the EXIT register (*EXIT_VALUE, *HAVE_EXIT).
 * Returns 0 or the reader's error (recorded). */
int replay_sess_end_record(struct replayer *p, struct citcat_aes_rec *end, uint64_t *nevents, uint32_t *exit_value,
			   int *have_exit);

/* After the run ended (C->done): the checks of a replay's end (the END
 * record next, its instruction and branch counts, a recorded fault
 * reproduced); a difference is a divergence.  Returns 0 or
 * CITCAT_ERR_DIVERGED. */
int replay_sess_end_check(struct replayer *p);

#endif
