/* Internal: the models of one WET segment (version 7; WET.md "Segment
 * blocks").  The builder and the reader run the same code on the same
 * inputs, the builder with encoders, the reader with decoders, so what the
 * reader can work out itself costs (almost) nothing and only what it
 * cannot is coded:
 *  - node: the node id of every node execution, predicted from the one or
 *    two before it;
 *  - cond: the condition outcome of every conditional instance, and the
 *    segment's events (the register bank before an instance where the
 *    reader would not expect it, Cortex-M7 exception returns, memory read
 *    by an instruction that is no load);
 *  - dep: the data producers: the register ones follow exactly from the
 *    statements, the outcomes and the events (the register model below,
 *    the builder's and the reader's alike; only the last writer of a
 *    register before the segment is coded, when the segment first reads
 *    it), the memory ones are coded against per-access predictors (the
 *    producer's statement's latest instance, the same distance, the same
 *    producer, the producer plus a stride, else the value);
 *  - cdep: the control parent, predicted as the latest instance of the
 *    statements that were the statement's parent before in the segment.
 * Every model starts afresh at a segment's first instance, so a segment
 * decodes alone, in bounded memory. */
#ifndef CITCAT_WET_SEGCODE_H
#define CITCAT_WET_SEGCODE_H

#include "defuse.h"
#include "rc.h"

#include <stdint.h>

enum { WET_B_NODE, WET_B_COND, WET_B_DEP, WET_B_CDEP, WET_NBLOCKS };

/* A statement of the node table, with what the models read of it. */
struct wet_stmt {
	uint32_t pc, word;
	uint8_t isa, it;
	uint8_t conditional; /* its condition is not 14 or 15: a cond value per instance */
	uint8_t load;        /* it reads memory when its condition holds (wet_is_load_isa) */
	uint32_t node;       /* its node */
	struct wet_du du;
};

/* A node of the node table. */
struct wet_node {
	uint8_t kind, line;  /* WET_NODE_*; interrupt line or exception number (kind IRQ) */
	uint32_t pc, n;      /* start address or EPC; statements */
	uint32_t first;      /* its first statement in the statement table */
};

/* Events (WET.md "Events"), each at an instance of the segment (its
 * position from 0). */
enum { WET_EV_BANK = 0, WET_EV_EXCRET = 1, WET_EV_MEMREAD = 2 };
struct wet_event {
	uint32_t pos;
	uint8_t type;
	uint32_t val; /* BANK: the bank (0..5; M7: 1 when the stack in use is the PSP); EXCRET: 1 returns to the PSP */
};

/* The register model: the last writer (INDEX + 1, 0: none) of every
 * physical location (defuse.h), the register bank in use, and on the
 * Cortex-M7 the last instance's writes (a fault taken at it undoes them).
 * Locations the segment has not written or read yet are unknown to the
 * reader: the first read codes the writer (the builder's W holds the
 * truth throughout). */
#define WET_RM_UNDO (WET_DU_MAX + 16)
struct wet_regm {
	int m7;
	uint64_t w[WET_NPHYS];
	uint64_t known;      /* bit per location */
	uint32_t bank;       /* A: 0 usr/sys, 1 svc, 2 irq, 3 abt, 4 und, 5 fiq; M7: 1 PSP in use */
	int last_insn;       /* the last record was an instance (M7) */
	uint32_t last_pc;
	unsigned nundo;
	uint8_t undo_ph[WET_RM_UNDO];
	uint64_t undo_w[WET_RM_UNDO];
	uint8_t undo_known[WET_RM_UNDO];
};

/* Per-statement state of the models (generation-tagged: stale entries are
 * fresh ones). */
struct wet_sc_st {
	uint32_t gen;
	uint64_t last;        /* its latest instance in the segment, INDEX + 1 */
	uint8_t hist;         /* cond: the last two outcomes */
	wet_prob pc4[4];      /* cond */
	uint16_t mcount;      /* memory producers last time */
	wet_prob pmc;
	uint32_t cand[4];     /* cdep: statements of its control parents in the segment, latest first (+1, 0 none) */
	uint64_t cdist;       /* cdep: INDEX distance to its parent last time, 0 none */
	wet_prob pcd[4];
};

/* Per memory access (statement, ordinal) state, hashed. */
struct wet_sc_key {
	uint32_t gen, key;
	uint64_t lastprod;   /* INDEX + 1, 0 none */
	uint64_t lastdist;
	int64_t stride;
	uint32_t lasts;      /* the last producer's statement + 1 (0: before the segment) */
	wet_prob p[6];
};

struct wet_sc_n1 {
	uint32_t gen, pred; /* pred: node id + 1 */
	wet_prob p;
};
struct wet_sc_n2 {
	uint32_t gen, tag, pred;
	wet_prob p;
};

#define WET_SC_KEYBITS 14
#define WET_SC_N2BITS 12

/* The models of a segment. */
struct wet_sc {
	int enc, m7;
	const struct wet_stmt *st;  /* the statement table (the builder's grows: set before each call) */
	const struct wet_node *nd;
	uint32_t nnodes, nstmts;
	uint64_t first;             /* INDEX of the segment's first instance */
	uint32_t gen;
	struct wet_rc rc[WET_NBLOCKS];
	struct wet_regm rm;
	/* per statement / node state, grown to the tables' sizes */
	struct wet_sc_st *sst;
	size_t sst_cap;
	struct wet_sc_n1 *n1;
	size_t n1_cap;
	struct wet_sc_n2 n2[1u << WET_SC_N2BITS];
	struct wet_sc_key keys[1u << WET_SC_KEYBITS];
	uint32_t prev, pprev; /* the last two node ids + 1 of the segment */
	/* the statement of each instance of the segment so far (+1), for the
	 * predictors that name a producer's statement */
	uint32_t *istmt;
	size_t istmt_cap;
	/* value models */
	struct wet_gamma g_node, g_evn, g_evgap, g_evval, g_reg, g_mcount, g_mlit, g_mdelta, g_cdlit;
	wet_prob p_n2, p_n1, p_evtype[4], p_msign, p_cdnone[2];
	int corrupt; /* a decoder found an impossible value */
	const char *why;
	unsigned bad_block; /* in which block (WET_B_*) */
	/* counts for the build report */
	uint64_t n_reg_init, n_mem, n_mem_hit, n_cd, n_cd_hit;
};

/* Sets up SC for an encoder (ENC) or a decoder; M7: the Cortex-M7
 * register model.  Returns 0 or -1 (out of memory). */
int wet_sc_open(struct wet_sc *sc, int enc, int m7);
void wet_sc_close(struct wet_sc *sc);
/* Makes room for NSTMTS statements and NNODES nodes (tables ST and ND).
 * Returns 0 or -1. */
int wet_sc_tables(struct wet_sc *sc, const struct wet_stmt *st, uint32_t nstmts, const struct wet_node *nd,
		  uint32_t nnodes);
/* Starts a segment whose first instance is FIRST: every model afresh (the
 * builder's register model keeps its truth), the encoders emptied.  A
 * decoder's blocks are set with wet_rc_dec_init on sc->rc[] afterwards. */
int wet_sc_begin(struct wet_sc *sc, uint64_t first, uint32_t n_insns);

/* node: the next node execution's node id (ID: the encoder's value). */
uint32_t wet_sc_node(struct wet_sc *sc, uint32_t id);
/* cond: the events of the segment (the encoder's *N of EV; a decoder
 * fills EV, of capacity CAP, and *N), then each conditional instance's
 * outcome in order (wet_sc_cond). */
int wet_sc_events(struct wet_sc *sc, struct wet_event *ev, uint32_t *n, uint32_t cap, uint32_t n_insns);
int wet_sc_cond(struct wet_sc *sc, uint32_t stmt, int passed);

/* An interrupt or exception entry (node ND) between two instances.  On
 * the Cortex-M7, STACKED (may be NULL; the builder's) receives the writers
 * a full stacking copies to its eight words: R0-R3, R12, LR, none (the
 * return address), the flags. */
void wet_sc_irq(struct wet_sc *sc, const struct wet_node *nd, uint64_t *stacked);

/* One instance INDEX of statement STMT (dep and cdep): its condition
 * PASSED, register bank BANK before it, EXCRET (an M7 exception return:
 * 1 to the MSP, 2 to the PSP; 0 none), MEMREAD (the events say it reads
 * memory though it is no load).  An encoder takes the true memory
 * producers MEM[0..NMEM) (distinct, any order; those that are also
 * register producers are dropped) and the true control parent PARENT
 * (INDEX + 1, 0 none).  PROD (room for 256; at most 255) receives the producers,
 * nearest first, *NPROD their number, *PAR the parent (INDEX + 1).  An
 * encoder's *NEED_EV is set when the instance has memory producers the
 * events do not announce (the caller adds a MEMREAD event).  Returns 0,
 * or -1 when the producers are more than 256 (encoder) or a decoded value
 * is impossible (sc->why). */
int wet_sc_insn(struct wet_sc *sc, uint32_t stmt, uint64_t index, int passed, uint32_t bank, unsigned excret,
		int memread, const uint64_t *mem, uint32_t nmem, uint64_t parent, uint64_t *prod, uint32_t *nprod,
		uint64_t *par, int *need_ev);

/* Ends an encoder's segment: blocks in sc->rc[k].buf[0 .. n).  0 or -1. */
int wet_sc_finish(struct wet_sc *sc);

/* Whether any decoder read past its block. */
int wet_sc_overrun(const struct wet_sc *sc);

#endif
