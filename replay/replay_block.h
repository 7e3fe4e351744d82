/* The block engine's decoder (replay/REPLAY.md "Block-granular replay"):
 * each A32 translation block Unicorn is about to run is decoded once into
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
	uint32_t addr, n;   /* start address, instructions (A32: 4 bytes each) */
	uint32_t cap;       /* allocated entries of the arrays */
	const char *precise; /* NULL, or why the block runs per instruction */
	uint32_t *word;     /* the instruction words, as thumb_word_at reads them */
	uint8_t *nacc;      /* memory-hook calls of each when it executes */
	uint8_t *cond;      /* its condition field (14: always) */
};

struct rblk_cache {
	struct rblk *slot; /* direct-mapped by address */
	uint32_t mask;     /* slots - 1 */
	uint64_t decoded, hits;
};

/* Flags of one decoded A32 instruction (rblk_decode_a32). */
enum { RBLK_SETS_FLAGS = 1, RBLK_PRECISE = 2 };

/* Decodes the A32 WORD: its memory-hook calls when it executes (*NACC) and
 * RBLK_* flags; *WHY says why when RBLK_PRECISE is set.  Conservative: an
 * instruction it cannot account for exactly is PRECISE, one that may write
 * NZCV is SETS_FLAGS. */
int rblk_decode_a32(uint32_t word, unsigned *nacc, const char **why);

int rblk_cache_init(struct rblk_cache *c, unsigned slots_log2);
void rblk_cache_fini(struct rblk_cache *c);

/* The decoded block of N A32 instructions at ADDR whose bytes are CODE
 * (4 * N bytes), from the cache when its words still equal CODE, else
 * decoded now.  NULL when out of memory. */
const struct rblk *rblk_get(struct rblk_cache *c, uint32_t addr, uint32_t n, const uint8_t *code);

#endif
