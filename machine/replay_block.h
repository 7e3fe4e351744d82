/* The block engine's decoder (replay/REPLAY.md "Block-granular replay"):
 * each A32 or Thumb translation block Unicorn is about to run is decoded once into
 * what the replayer needs to retire its instructions without a code hook:
 * the words, how many memory-hook calls each makes when it executes, its
 * condition, and whether the block must run per instruction ("precise")
 * and why.  Cached by address, checked against RAM on every use.  Used by
 * the replayer's block engine (replay.c) and the capture's (capture/target.c,
 * TARGET.md "The block engine"). */
#ifndef CITCAT_REPLAY_BLOCK_H
#define CITCAT_REPLAY_BLOCK_H

#include "bytes.h"
#include "itrace.h"
#include "thumb.h"

#include <stdint.h>
#include <unicorn/unicorn.h>

/* The most instructions one translation block holds (QEMU's TCG_MAX_INSNS). */
#define RBLK_MAX_INSNS 512

struct rblk {
	uint32_t addr, n;   /* start address, instructions */
	uint32_t size;      /* bytes (A32: 4 * n; Thumb: 2 or 4 each) */
	uint32_t thumb;     /* a Thumb block (T16/T32) */
	uint32_t cap;       /* allocated entries of the arrays (raw: 2 * cap bytes), one allocation at WORD */
	const char *precise; /* NULL, or why the block runs per instruction */
	uint8_t *raw;       /* the block's bytes, compared with RAM on every use */
	uint32_t *word;     /* the instruction words, as thumb_word_at reads them */
	uint8_t *nacc;      /* memory-hook calls of each when it executes */
	uint8_t *cond;      /* its condition (14: always; Thumb: from its IT block) */
	uint8_t *isz;       /* its size in bytes (2 or 4) */
	uint16_t *off;      /* its offset from ADDR */
	/* Where the flags come from that decide a conditional memory
	 * instruction (rblk_next_accessor_fs; REPLAY.md "Attribution with
	 * the flags of an earlier point"): FSNAP 0, the flags at the access
	 * (the rule of rblk_next_accessor); else FSRC[i] & RBLK_FS_SRC of a
	 * conditional memory instruction i is RBLK_FS_NOW, RBLK_FS_ENTRY (the
	 * flags at the block's start) or RBLK_FS_AT + u (the flags when
	 * instruction u's first access is attributed), and FSRC[u] has
	 * RBLK_FS_TAKE for every such u.  FSNAP: 0 when the rule of
	 * rblk_next_accessor alone takes the block; else RBLK_FS_RELAXED, |
	 * RBLK_FS_ENTRY when an entry is needed, | RBLK_FS_SNAP when a
	 * snapshot is (the
	 * capture runs such a block per instruction, as before). */
	uint16_t *fsrc;
	uint8_t fsnap;
	/* worked out once by rblk_get, for the block engines' per-block checks */
	uint8_t it_store;   /* Thumb: an instruction inside an IT block that may write memory (rblk_t32_may_write) */
	uint8_t it_load;    /* Thumb: a memory instruction inside an IT block that only reads */
	uint8_t keeps;      /* rblk_keeps_state, worked out once */
	uint32_t nacc_total; /* memory-hook calls of all N instructions */
	/* with IT_LOAD: the first memory instruction inside an IT block, the
	 * instructions after it, and the memory-hook calls after its first
	 * call (RBLK_TAIL_MANY: that many or more).  Which instructions lie
	 * inside IT blocks: rblk_in_it.  (16 bits each, so that the struct
	 * stays 128 bytes: the cache's slots are indexed by a shift and fill
	 * fewer lines of the host's caches.) */
	uint16_t it_first, it_tail_insns, it_tail_acc;
	/* the block engines' attribution schedule (capture/TARGET.md "The
	 * block engine", session 13; replay/REPLAY.md "session 13: the
	 * attribution schedule in the replayer"): when SCHED_OK (every memory instruction of the
	 * block unconditional), SCHED[k] is the index of the instruction the
	 * k-th memory-hook call of an execution belongs to, NACC_TOTAL entries
	 * (each instruction's index NACC times, in order) */
	uint8_t sched_ok;
	uint8_t gate; /* RBLK_GATE_*: PRECISE set, IT_STORE, IT_LOAD (one test for the three) */
	uint16_t *sched;
	uint32_t sched_cap; /* allocated entries of SCHED */
	/* the capture's memo of what it works out from the fields above for a
	 * block with IT_LOAD (cblk_it_tail; 0: not yet): the capture keeps it
	 * through the cache's const pointers as the itrace writer keeps
	 * WT_MEMO, decode zeroes it */
	uint32_t it_memo;
	/* the itrace writer's memo of its word table for this block
	 * (itrace_write_blk): the writer keeps it up to date through the
	 * cache's const pointers (the slots are the cache's own, writable
	 * memory), decode zeroes it */
	uint64_t wt_memo;
};

enum { RBLK_TAIL_MANY = 0xffff };
enum { RBLK_GATE_PRECISE = 1, RBLK_GATE_IT_STORE = 2, RBLK_GATE_IT_LOAD = 4 };
_Static_assert(RBLK_MAX_INSNS < 0xffff, "it_first and it_tail_insns hold an instruction index");

/* Whether instruction I of the Thumb block B lies inside an IT block: the
 * last IT instruction before it, if any, covers it (an IT block holds at
 * most four; a block never starts inside one in the engines that ask, and
 * an IT instruction starts a new state as in rblk_get's decode).  COND
 * cannot tell: an instruction of an IT AL block has condition 14. */
static inline int rblk_in_it(const struct rblk *b, uint32_t i)
{
	for (uint32_t p = i; p-- > 0 && i - p <= 4;)
		if (thumb_is_it(b->word[p], b->isz[p])) {
			uint8_t it = (uint8_t)(b->word[p] & 0xff);
			for (uint32_t k = p + 1; k < i; k++)
				it = thumb_it_advance(it);
			return it != 0;
		}
	return 0;
}

/* Block B as the itrace writer reads it (formats/itrace.h). */
static inline struct itrace_blk rblk_itrace(const struct rblk *b)
{
	return (struct itrace_blk){b->addr, b->word, b->thumb ? b->isz : NULL, b->n, (uint64_t *)&b->wt_memo};
}

struct rblk_cache {
	struct rblk *slot; /* direct-mapped by address */
	uint64_t *used;    /* a bit per slot whose arrays are allocated (one allocation at WORD) */
	uint32_t mask;     /* slots - 1 */
	uint64_t decoded, hits;
};

/* FSRC values (NOW, ENTRY, AT + u; SRC their mask, TAKE a flag) and FSNAP
 * bits (ENTRY, SNAP, RELAXED) */
enum {
	RBLK_FS_NOW = 0,
	RBLK_FS_ENTRY = 1,
	RBLK_FS_AT = 2,
	RBLK_FS_SNAP = 2,
	RBLK_FS_RELAXED = 4,
	RBLK_FS_SRC = 0x3ff,
	RBLK_FS_TAKE = 0x8000
};

/* Flags of one decoded instruction (rblk_decode_a32, rblk_decode_t32). */
enum { RBLK_SETS_FLAGS = 1, RBLK_PRECISE = 2 };

/* Decodes the A32 WORD: its memory-hook calls when it executes (*NACC) and
 * RBLK_* flags; *WHY says why when RBLK_PRECISE is set.  Conservative: an
 * instruction it cannot account for exactly is PRECISE, one that may write
 * NZCV is SETS_FLAGS. */
int rblk_decode_a32(uint32_t word, unsigned *nacc, const char **why);

/* The same for the Thumb instruction WORD of SIZE bytes (2: T16; 4: T32,
 * the first halfword in bits 0-15, as thumb_word_at reads it).  An IT
 * instruction makes no calls (decode gives the instructions it covers their
 * condition); SETS_FLAGS is conservative as for A32 (every T16 data
 * processing instruction, T32 ones with the S bit, MSR). */
int rblk_decode_t32(uint32_t word, unsigned size, unsigned *nacc, const char **why);
/* Whether the Thumb memory instruction WORD (SIZE bytes; rblk_decode_t32
 * gave it memory-hook calls) may write memory: 0 only for the loads (LDR*,
 * LDM, POP, LDRD, TBB/TBH), 1 for the stores and anything else. */
int rblk_t32_may_write(uint32_t word, unsigned size);

int rblk_cache_init(struct rblk_cache *c, unsigned slots_log2);
void rblk_cache_fini(struct rblk_cache *c);

/* The decoded block of SIZE bytes at ADDR (Thumb when THUMB) whose bytes
 * are CODE, from the cache when its bytes still equal CODE, else decoded
 * now.  NULL when out of memory.  A block whose instructions do not fill
 * SIZE exactly, or that holds more than RBLK_MAX_INSNS, is PRECISE. */
const struct rblk *rblk_get(struct rblk_cache *c, uint32_t addr, uint32_t size, int thumb, const uint8_t *code);

/* The schedule entries from POS (up to END) that still belong to the
 * instruction retired last, NEXT - 1 (none when NEXT is 0): the calls it
 * still owes when a block engine reads its block's schedule (the capture's
 * cblk_left, the replayer's blk_left). */
static inline uint32_t rblk_sched_owed(const uint16_t *pos, const uint16_t *end, uint32_t next)
{
	uint32_t n = 0;
	if (next)
		for (; pos != end && *pos == next - 1; pos++)
			n++;
	return n;
}

/* rblk_get with its hit inline (the same test), for the capture's block
 * hook, where the call cost more than the compare (capture/TARGET.md "The
 * block engine", session 13); a miss calls rblk_get, which tests again. */
static inline const struct rblk *rblk_get_inline(struct rblk_cache *c, uint32_t addr, uint32_t size, int thumb,
						 const uint8_t *code)
{
	struct rblk *b = &c->slot[(addr >> 1) & c->mask];
	if (b->raw && b->addr == addr && b->size == size && b->thumb == (uint32_t)thumb &&
	    cc_same_bytes(b->raw, code, size)) {
		c->hits++;
		return b;
	}
	return rblk_get(c, addr, size, thumb, code);
}

/* The index of the first instruction of B from FROM on that makes a memory
 * access: a memory instruction whose condition holds on UC's flags now
 * (CPSR, read only when a condition needs it; current in a memory hook,
 * tests/test_unicorn_block.c, and the decoder makes a block precise when a
 * flag write could lie between).  -1: none.  Both block engines attribute
 * a memory-hook call to it. */
int rblk_next_accessor(const struct rblk *b, uint32_t from, uc_engine *uc);

/* rblk_next_accessor for a block with FSNAP set: each conditional memory
 * instruction is decided on the flags FSRC names: UC's now, ENTRY (the
 * CPSR at the block's start) or SNAP[u] (the CPSR when instruction u's
 * first access was attributed; the caller takes it for each u marked
 * RBLK_FS_TAKE).  Only the replayer uses it: the capture runs such a
 * block per instruction. */
int rblk_next_accessor_fs(const struct rblk *b, uint32_t from, uc_engine *uc, uint32_t entry, const uint32_t *snap);

/* Whether the A32 instruction W, the last of a block, certainly leaves the
 * core in A32 state.  Only an instruction that writes the PC from a
 * register or memory (BX, BLX, a load or LDM of the PC, a data-processing
 * instruction with Rd = PC, exception returns) or the CPSR can change it,
 * and Unicorn ends a translation block at each of them
 * (tests/test_unicorn_block.c part 11), so inside a block the state never
 * changes.  Conservative: B and BL keep it; the miscellaneous group (BX,
 * BLX, MSR, ERET, ...) and anything with PC in bits 12-15 or 16-19, or an
 * LDM/STM with PC in its list, might not. */
static inline int rblk_keeps_a32(uint32_t w)
{
	unsigned op = (w >> 25) & 7;
	if (op == 5)
		return 1; /* B, BL (BLX immediate is in the unconditional space: precise) */
	if (op <= 1 && (w & 0x01900000) == 0x01000000)
		return 0;
	if (op == 4 && (w & 0x8000))
		return 0;
	return ((w >> 12) & 0xF) != 15 && ((w >> 16) & 0xF) != 15;
}

/* The same for the Thumb instruction W of SIZE bytes, the last of a Thumb
 * block: whether it certainly leaves the core in Thumb state.  T16: B,
 * B<c>, CBZ/CBNZ, and the groups whose register fields cannot name the PC
 * (shifts, add, subtract, compare and move of low registers, data
 * processing, loads and stores, ADR, ADD/SUB SP, PUSH, LDM/STM, extends,
 * REV), but not the special data instructions and BX/BLX (0x44xx-0x47xx)
 * nor POP (which can load the PC); T32: B.W, B<c>.W and BL, not BLX
 * (immediate), which changes to A32; any other T32 instruction might. */
static inline int rblk_keeps_thumb(uint32_t w, unsigned size)
{
	uint32_t hw = w & 0xFFFF;
	if (size == 2) {
		if (hw < 0x4400 || (hw >= 0x4800 && hw < 0xB000) || (hw >= 0xC000 && hw < 0xDE00) ||
		    (hw >= 0xE000 && hw < 0xE800))
			return 1;
		if ((hw & 0xF000) == 0xB000) /* miscellaneous: all but POP, BKPT, hints, IT, CPS/SETEND */
			return (hw & 0xFE00) != 0xBC00 && (hw & 0xFF00) != 0xBE00 && (hw & 0xFF00) != 0xBF00 &&
			       (hw & 0xFFE0) != 0xB660 && (hw & 0xFFF0) != 0xB650;
		return 0;
	}
	uint32_t hw2 = w >> 16;
	if ((hw & 0xF800) != 0xF000 || !(hw2 & 0x8000))
		return 0;
	switch (hw2 & 0x5000) {
	case 0x1000: /* B.W (T4) */
	case 0x5000: /* BL */
		return 1;
	case 0x0000: /* B<c>.W (T3), unless its cond field is 111x (control instructions) */
		return ((hw >> 7) & 7) != 7;
	default: /* BLX (immediate): to A32 */
		return 0;
	}
}

/* Whether block B's last instruction certainly leaves the core in the state
 * B ran in (rblk_keeps_a32, rblk_keeps_thumb).  Both block engines skip the
 * block hook's CPSR read after such a block when nothing ran in between. */
static inline int rblk_keeps_state(const struct rblk *b)
{
	return b->n && (b->thumb ? rblk_keeps_thumb(b->word[b->n - 1], b->isz[b->n - 1]) : rblk_keeps_a32(b->word[b->n - 1]));
}

#endif
