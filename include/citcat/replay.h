/* libcitcat public API: the replayer: regenerates the complete instruction
 * trace of a traced interval from its IMS and AES alone (no firmware, no
 * device model, no timing), and proves it exact by re-simulating the caches
 * to regenerate the bus trace (compared with the recorded CAT) and,
 * optionally, by comparing the instruction trace with the ground truth.
 * The records can go to an itrace file, to an in-memory callback, or both. */
#ifndef CITCAT_PUBLIC_REPLAY_H
#define CITCAT_PUBLIC_REPLAY_H

#include <citcat/base.h>
#include <citcat/itrace.h>

struct citcat_cat_event;

#ifdef __cplusplus
extern "C" {
#endif

struct citcat_replay_observer;

/* Receives every regenerated itrace record in trace order (instructions,
 * interrupt entries and an abnormal end; DMA records are left out, as
 * itrace readers leave them out by default).  REC is valid
 * during the call only.  Returns 0 to go on; non-zero stops the run (no
 * output file is left) with that code when it is a negative citcat_err
 * code, else with CITCAT_ERR_INTERRUPTED. */
typedef int (*citcat_record_fn)(void *ctx, const struct citcat_itrace_rec *rec);

/* Configuration of a replay; citcat_replay_config_default fills it.  The
 * size rules of base.h apply: SIZE must cover at least AES_PATH; members a
 * caller's (older) struct lacks are taken as zero. */
struct citcat_replay_config {
	size_t size;            /* sizeof(struct citcat_replay_config) */
	const char *ims_path;   /* required */
	const char *aes_path;   /* required */
	const char *out_path;   /* regenerated itrace, or NULL */
	const char *verify_cat; /* recorded CAT to compare the bus trace with, or NULL */
	const char *oracle;     /* ground-truth itrace to compare with, or NULL */
	/* Called once before the first instruction (INSNS = 0, TOTAL = the
	 * length the IMS claims), then about every million instructions;
	 * non-zero stops the run with CITCAT_ERR_INTERRUPTED. */
	int (*progress)(void *ctx, uint64_t insns, uint64_t total);
	void *progress_ctx;
	/* Stop after this many instructions when the traced interval is longer
	 * (0: no limit): citcat_replay_run then returns CITCAT_ERR_LIMIT, and no
	 * output file is left, since the trace would be incomplete.  A claimed
	 * length can be legitimate and still take hours (a long loop with no
	 * events costs a few bytes of AES). */
	uint64_t max_insns;
	/* Optional observer (NULL: none, no cost), for analyses that need what a
	 * trace file lacks.  Called for every record in trace order: for an
	 * instruction, REGS holds the register file after it (CITCAT_OBS_*
	 * slots: r0-r12, SP, LR and SPSR of the mode then, PC, CPSR); for an
	 * interrupt entry, REGS is the state before the entry.  On the
	 * Cortex-M7 (isa 2) the CPSR slot holds xPSR and the SPSR slot
	 * CONTROL; an exception entry's REGS is the state after it, and so is
	 * the REGS of the instruction a synchronous entry follows (SVC, a
	 * fault: the entry is made before that instruction's record).  Non-zero stops
	 * the run with that error code (OBS_ERR, if set, says why). */
	const struct citcat_replay_observer *observer;
	/* In-memory consumer of the records (NULL: none), called with
	 * RECORD_CTX before the record is written or compared; see
	 * citcat_record_fn. */
	citcat_record_fn on_record;
	void *record_ctx;
	/* Optional (NULL: none): each regenerated bus event (CAT kinds FILL_I
	 * .. IRQ) in bus order, with BUS_CTX; the ones an instruction makes
	 * (its fetch, its data accesses) come before its observer record.
	 * Non-zero stops the run like the observer's (OBS_ERR says why when
	 * the observer is set). */
	int (*bus)(void *bus_ctx, const struct citcat_cat_event *ev);
	void *bus_ctx;
	/* With VERIFY_CAT: 0 when the IMS and AES cover the whole traced
	 * interval; K + 1 when they are segment K of it
	 * (citcat_ims_extract_segment, replay/SEGMENTS.md): the bus trace is
	 * then compared with the CAT's slice from the segment's start marker
	 * (SYNC or the K-th CKPT) to its end (the next CKPT or the STOP). */
	uint64_t verify_segment;
	/* 0: the IMS and AES files' only segment; K + 1: segment K of IMS and
	 * AES segment bundles (common/SEGIDX.md), opened through their index
	 * (citcat_ims_read_segment, citcat_aes_reader_open_segment).  Set
	 * VERIFY_SEGMENT to the same value to verify it against its slice. */
	uint64_t segment;
	/* Which engine replays (replay/REPLAY.md "Block-granular replay"):
	 * CITCAT_REPLAY_ENGINE_INSN (0, a code hook on every instruction),
	 * _BLOCK (a block hook, per instruction only where needed; a run it
	 * does not take is refused with CITCAT_ERR_UNSUPPORTED and the reason),
	 * _AUTO (_BLOCK when it takes the run, else _INSN).  The output is the
	 * same with every engine.  citcat_replay_config_default sets _AUTO; a
	 * configuration zeroed by hand, or from a caller built before this
	 * field existed, has 0, _INSN. */
	unsigned engine;
	/* The memory-system model (the I/D caches and the bus, machine/bus.c)
	 * runs when something reads its output: VERIFY_CAT or BUS set.  Else
	 * it is skipped, which changes no record, no output byte and no check
	 * (replay/REPLAY.md, "When the memory-system model runs"), only
	 * RES->bus_events (then 0).  ALWAYS_MODEL non-zero drives it anyway
	 * (its events then go nowhere), for tests and timing. */
	unsigned always_model;
	/* With VERIFY_CAT (and no BUS, ON_RECORD or OBSERVER), on either
	 * target (the Cortex-M7 since session 13), the memory-system model and the compare with the CAT can run
	 * on a second thread fed by the replay's.  CITCAT_REPLAY_MODEL_AUTO
	 * (0, the default) takes the thread when the CAT holds at least 0.1
	 * byte per instruction of the run (a model busy enough to be worth
	 * moving); CITCAT_REPLAY_MODEL_THREAD takes it always,
	 * CITCAT_REPLAY_MODEL_INLINE never.  The model runs inline when the
	 * thread cannot be started.  Results, reports and outputs are the same
	 * either way (replay/REPLAY.md "session 12: the model thread",
	 * "session 13: the model thread"). */
	unsigned model_thread;
};

enum { CITCAT_REPLAY_MODEL_AUTO = 0, CITCAT_REPLAY_MODEL_INLINE = 1, CITCAT_REPLAY_MODEL_THREAD = 2 };

enum { CITCAT_REPLAY_ENGINE_INSN = 0, CITCAT_REPLAY_ENGINE_BLOCK = 1, CITCAT_REPLAY_ENGINE_AUTO = 2 };

enum { CITCAT_OBS_SP = 13, CITCAT_OBS_LR = 14, CITCAT_OBS_PC = 15, CITCAT_OBS_CPSR = 16, CITCAT_OBS_SPSR = 17,
       CITCAT_OBS_NREGS = 18 };

struct citcat_replay_observer {
	void *ctx;
	int (*record)(void *ctx, const struct citcat_itrace_rec *rec, const uint32_t regs[CITCAT_OBS_NREGS]);
	/* a DMA transfer wrote LEN bytes at ADDR before the next record */
	int (*dma)(void *ctx, uint32_t addr, uint32_t len);
	/* the initial register file, before the first record */
	int (*start)(void *ctx, const uint32_t regs[CITCAT_OBS_NREGS]);
	struct citcat_errinfo *obs_err;
};

/* Fills C with the defaults (no paths, no checks, no callbacks) and sets
 * C->size.  No effect when C is NULL. */
CITCAT_API void citcat_replay_config_default(struct citcat_replay_config *c);

#define CITCAT_REPLAY_HISTORY 8

/* Where and how the replay first differed from the recording. */
struct citcat_divergence {
	const char *check;     /* "bus trace", "instruction trace", "device input", ... (static) */
	uint64_t insn_index;   /* instructions retired before it (0 = the first) */
	uint64_t bcount;       /* branch counter there */
	uint32_t pc;           /* the instruction at which it was found */
	char expected[200];
	char found[200];
	/* the last instructions before it, oldest first; the last one is the
	 * instruction at insn_index itself when the divergence was found after
	 * it had been fetched (in its data accesses or its trace record) */
	unsigned nhist;
	uint32_t hist_pc[CITCAT_REPLAY_HISTORY], hist_word[CITCAT_REPLAY_HISTORY];
	uint64_t hist_index[CITCAT_REPLAY_HISTORY];
	uint8_t hist_size[CITCAT_REPLAY_HISTORY];  /* 2 or 4 bytes */
	uint8_t hist_thumb[CITCAT_REPLAY_HISTORY]; /* 1: decoded in Thumb state */
	/* the register file of the core when it was found (in a data access:
	 * during the instruction at pc); have_regs is 0 when it was not read */
	int have_regs;
	uint32_t regs[16]; /* r0..r12, sp, lr, pc */
	uint32_t cpsr;   /* the CPSR; on a Cortex-M (m_profile) the xPSR */
	int m_profile;   /* the core is the Cortex-M7 (CITCAT_ISA_ARMV7M) */
	/* the last interrupt entry before it: line, return address (EPC) and
	 * instructions retired before the entry; have_irq is 0 when none */
	int have_irq;
	unsigned irq_line;
	uint32_t irq_epc;
	uint64_t irq_index;
	/* a bus event with different data (a line fill, write-back or DMA
	 * transfer at data_addr, data_len bytes recorded): data_off is the byte
	 * offset of the first difference, and the data_n bytes from offset
	 * data_win (a multiple of 16 at most 16 before data_off) of the recorded
	 * and regenerated data are kept; have_data is 0 for other divergences */
	int have_data;
	uint32_t data_addr, data_len, data_off, data_win, data_n;
	uint8_t data_expected[64], data_found[64];
};

struct citcat_replay_result {
	uint64_t insns;           /* instructions replayed */
	uint64_t irqs, dma;       /* asynchronous events applied */
	uint64_t bus_events;      /* regenerated bus transactions (compared, with verify); 0 when
				   * the model did not run (always_model) */
	uint64_t oracle_records;  /* records compared with the oracle */
	double seconds;
	int diverged;
	struct citcat_divergence div;
	/* on an input error: the configured path of the file it concerns
	 * (ERR's offset is in that file), or NULL when the message names it */
	const char *err_path;
	/* The block engine (replay/REPLAY.md "Interrupts, DMA and the block
	 * engine", "Two engines"): translation blocks run without the code
	 * hook; interrupts due while blocks run entered at a block's start or
	 * at a cut inside one (made in the engine of blocks, or by running the
	 * block up to it in the second, per-instruction engine); DMA transfers
	 * applied inside a block as it retired; blocks given a code hook of
	 * their own (they run per instruction); moves of the run between the
	 * engine of blocks and the per-instruction one, either way
	 * (BLK_FLUSHES, so named when such a move dropped every translation of
	 * RAM); times the engine of blocks was replaced by a new one in the
	 * same state, to bound its memory.  All 0 under the insn engine. */
	uint64_t blk_blocks, blk_irq_stops, blk_dma_inline, blk_hooks, blk_flushes, blk_renewals;
};

/* Runs the replay; RES (caller-owned) receives the totals.  Returns 0 when
 * it completed and every requested check held; CITCAT_ERR_DIVERGED when a
 * check failed (RES->div says where, and no output file is left);
 * CITCAT_ERR_LIMIT when it stopped at CFG->max_insns (the checks held that
 * far; no output file is left); CITCAT_ERR_INVAL for a NULL CFG or RES, a
 * missing IMS or AES path or a too small CFG->size; the code a callback
 * returned; CITCAT_ERR_INTERRUPTED; another error for unusable input (ERR,
 * may be NULL, says which file and where). */
CITCAT_API int citcat_replay_run(const struct citcat_replay_config *cfg, struct citcat_replay_result *res,
				 struct citcat_errinfo *err);

/* Replaying a CAT by its name: the IMS and AES are extracted from it
 * (citcat_ims_extract, citcat_aes_extract) into files in a directory, and
 * the run is replayed from them with the CAT itself as the bus trace it is
 * verified against.  citcat_cat_replay_open extracts; the IMS it holds
 * tells the target and the interval's length before the run;
 * citcat_cat_replay_run replays (any number of times);
 * citcat_cat_replay_close removes the files.  A handle is used by one
 * thread at a time. */
struct citcat_cat_replay;
struct citcat_ims;

/* Extracts the IMS and AES of the CAT at CAT_PATH (a whole traced
 * interval, no segments) into DIR/run.ims and DIR/run.aes (DIR must exist;
 * NULL: a temporary directory of its own under $TMPDIR, else /tmp, removed
 * on close).  Returns 0 and *H; CITCAT_ERR_INVAL for a NULL H or CAT_PATH;
 * or the extraction's error (ERR, may be NULL, says where in the CAT), *H
 * then NULL and no file left. */
CITCAT_API int citcat_cat_replay_open(struct citcat_cat_replay **h, const char *cat_path, const char *dir,
				      struct citcat_errinfo *err);

/* The extracted initial machine state (owned by H): the target
 * configuration (cfg), the interval's trace id and length (id.insns).
 * NULL for NULL. */
CITCAT_API const struct citcat_ims *citcat_cat_replay_ims(const struct citcat_cat_replay *h);

/* The names of the extracted IMS and AES files (owned by H, there until
 * close), for their sizes or a closer look.  NULL for NULL. */
CITCAT_API const char *citcat_cat_replay_ims_path(const struct citcat_cat_replay *h);
CITCAT_API const char *citcat_cat_replay_aes_path(const struct citcat_cat_replay *h);

/* citcat_replay_run with CFG (NULL: citcat_replay_config_default's) whose
 * IMS_PATH, AES_PATH and VERIFY_CAT are set to the extracted files and the
 * CAT: the records go to CFG's output file and callbacks, the bus trace is
 * verified against the CAT.  Returns citcat_replay_run's codes, and
 * CITCAT_ERR_INVAL for a NULL H or RES or a CFG whose size is too small.
 * On an input error in the extracted files RES->err_path names the CAT
 * (a string owned by H). */
CITCAT_API int citcat_cat_replay_run(struct citcat_cat_replay *h, const struct citcat_replay_config *cfg,
				     struct citcat_replay_result *res, struct citcat_errinfo *err);

/* Removes the extracted files (and the directory made for them) and frees
 * H.  Accepts NULL. */
CITCAT_API void citcat_cat_replay_close(struct citcat_cat_replay *h);

/* The LVT decoder (replay/REPLAY.md, "The LVT decoder"): regenerates the
 * complete instruction trace of a traced interval from the first-access
 * load-value trace (formats/LVT.md) and the program binary alone.
 * citcat_lvt_replay_config_default fills the configuration; the size rules
 * of base.h apply (SIZE must cover at least IMAGE_PATH). */
struct citcat_lvt_replay_config {
	size_t size;            /* sizeof(struct citcat_lvt_replay_config) */
	const char *lvt_path;   /* required */
	const char *image_path; /* the firmware ELF, required: code only is taken from it */
	const char *out_path;   /* regenerated itrace, or NULL */
	const char *oracle;     /* ground-truth itrace to compare with, or NULL */
	/* Called about every million instructions; non-zero stops the run. */
	int (*progress)(void *ctx, uint64_t insns, uint64_t total);
	void *progress_ctx;
};

/* Fills C with the defaults (no output, no oracle, no progress).  Accepts
 * NULL (no effect). */
CITCAT_API void citcat_lvt_replay_config_default(struct citcat_lvt_replay_config *c);

/* Runs the decoder.  Returns 0 when the interval was regenerated and every
 * check held (RES->insns instructions; RES->oracle_records compared);
 * CITCAT_ERR_DIVERGED when a check failed (RES->div says where: the
 * instruction index, branch count and PC; no output file is left);
 * CITCAT_ERR_INVAL for a NULL CFG or RES or a missing LVT or ELF path;
 * another error for unusable input (ERR, may be NULL, says which file,
 * RES->err_path names it, and where). */
CITCAT_API int citcat_lvt_replay_run(const struct citcat_lvt_replay_config *cfg, struct citcat_replay_result *res,
				     struct citcat_errinfo *err);

#ifdef __cplusplus
}
#endif

#endif
