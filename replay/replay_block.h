/* The block engine's decoder (replay/REPLAY.md "Block-granular replay"):
 * each A32 or Thumb translation block Unicorn is about to run is decoded once into
 * what the replayer needs to retire its instructions without a code hook:
 * the words, how many memory-hook calls each makes when it executes, its
 * condition, and whether the block must run per instruction ("precise")
 * and why.  Cached by address, checked against RAM on every use.  Internal
 * to replay.c. */
#ifndef CITCAT_REPLAY_BLOCK_H
#define CITCAT_REPLAY_BLOCK_H

#include <stdint.h>

/* The most instructions one translation block holds (QEMU's TCG_MAX_INSNS). */
#define RBLK_MAX_INSNS 512

struct rblk {
	uint32_t addr, n;   /* start address, instructions */
	uint32_t size;      /* bytes (A32: 4 * n; Thumb: 2 or 4 each) */
	uint32_t thumb;     /* a Thumb block (T16/T32) */
	uint32_t cap;       /* allocated entries of the arrays (raw: 4 * cap bytes) */
	const char *precise; /* NULL, or why the block runs per instruction */
	uint8_t *raw;       /* the block's bytes, compared with RAM on every use */
	uint32_t *word;     /* the instruction words, as thumb_word_at reads them */
	uint8_t *nacc;      /* memory-hook calls of each when it executes */
	uint8_t *cond;      /* its condition (14: always; Thumb: from its IT block) */
	uint8_t *isz;       /* its size in bytes (2 or 4) */
	uint16_t *off;      /* its offset from ADDR */
};

struct rblk_cache {
	struct rblk *slot; /* direct-mapped by address */
	uint32_t mask;     /* slots - 1 */
	uint64_t decoded, hits;
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

int rblk_cache_init(struct rblk_cache *c, unsigned slots_log2);
void rblk_cache_fini(struct rblk_cache *c);

/* The decoded block of SIZE bytes at ADDR (Thumb when THUMB) whose bytes
 * are CODE, from the cache when its bytes still equal CODE, else decoded
 * now.  NULL when out of memory.  A block whose instructions do not fill
 * SIZE exactly, or that holds more than RBLK_MAX_INSNS, is PRECISE. */
const struct rblk *rblk_get(struct rblk_cache *c, uint32_t addr, uint32_t size, int thumb, const uint8_t *code);

#endif
