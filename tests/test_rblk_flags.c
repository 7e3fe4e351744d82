/* Where the block decoder takes the flags that decide a conditional
 * memory instruction (machine/replay_block.c flag_sources; replay/REPLAY.md
 * "Attribution with the flags of an earlier point").  Four A32 blocks, each
 * worked out by hand from the rule:
 *
 * A (counter's loop, shortened): 0 ldr r0,[r4]; 1 cmp r0,#1; 2 ldrcs
 *   r3,[sp,#24]; 3 ldr r2,[r4,#4]; 4 strcs r3,[sp,#24]; 5 cmp r2,#4096;
 *   6 ldrcs r3,[sp,#20]; 7 strcs r3,[sp,#20]; 8 cmp r5,r2; 9 b .
 *   - 2: the first flag write after it is 5, the unconditional ldr 3
 *     comes first: the flags at the access (NOW);
 *   - 4: after it the write 5 and then accesses 6, 7, none of them
 *     unconditional: its flags are those since the write 1, which the
 *     unconditional ldr 3 sees: RBLK_FS_AT + 3, and 3 is marked TAKE;
 *   - 6, 7: the next write (8) comes after the last access: NOW.
 *   The old rule (a write after a conditional access, then an access)
 *   made A run per instruction.
 * B: 0 ldrcs r3,[sp]; 1 cmp r3,#0; 2 ldr r1,[r4]; 3 b .
 *   - 0: the write 1, then the access 2 (unconditional, but after the
 *     write); nothing writes the flags before 0: the block's start (ENTRY).
 * C: 0 cmp r0,#1; 1 ldrcs r3,[sp]; 2 cmp r3,#0; 3 ldr r1,[r4]; 4 b .
 *   - 1: the write 0 before it, no unconditional access between 0 and 1:
 *     no source, the block runs per instruction (precise).
 * D: 0 ldrcs r3,[sp]; 1 ldr r1,[r4]; 2 cmp r1,#0; 3 b .
 *   - no write between a conditional access and a later access: the old
 *     rule takes it, FSNAP 0 (the capture's blocks are unchanged).
 * T (Thumb-2, counter_thumb's loop): 0 ittt cs; 1 ldrcs r3,[sp,#24];
 *   2 addcs r3,#1; 3 strcs r3,[sp,#24]; 4 ldr.w r3,[r4,#1796];
 *   5 cmp.w r3,#4096; 6 b .
 *   - rblk_decode_t32 counts the T16 addcs as a flag write, so the old
 *     rule made T run per instruction; inside an IT block it writes none
 *     (t16_sets_flags), so for 1 and 3 the first write after them is 5,
 *     after the unconditional ldr.w 4: both NOW, FSNAP RBLK_FS_RELAXED
 *     alone (with addcs a write, 1 would need the block's entry flags).
 * Then rblk_next_accessor_fs on A decides 4 on SNAP[3], not on the flags
 * now: with C set in the snapshot and clear now, 4 is the accessor; with C
 * clear in the snapshot and set now, it is 6 (decided on the flags now). */
#include "check.h"
#include "replay_block.h"

#include <string.h>

static const struct rblk *get(struct rblk_cache *c, uint32_t addr, const uint32_t *w, unsigned n)
{
	uint8_t code[64];
	for (unsigned i = 0; i < n; i++)
		cc_put32(code + 4 * i, w[i]);
	return rblk_get(c, addr, 4 * n, 0, code);
}

int main(void)
{
	struct rblk_cache c;
	CHECK_EQ(rblk_cache_init(&c, 4), 0);
	static const uint32_t a[] = {0xe5940000, 0xe3500001, 0x259d3018, 0xe5942004, 0x258d3018,
				     0xe3520a01, 0x259d3014, 0x258d3014, 0xe1550002, 0xeafffffe};
	const struct rblk *b = get(&c, 0x1000, a, 10);
	CHECK(b && !b->precise);
	CHECK_EQ(b->fsnap, RBLK_FS_RELAXED | RBLK_FS_SNAP);
	CHECK_EQ(b->fsrc[2], RBLK_FS_NOW);
	CHECK_EQ(b->fsrc[3], RBLK_FS_TAKE);
	CHECK_EQ(b->fsrc[4], RBLK_FS_AT + 3);
	CHECK_EQ(b->fsrc[6], RBLK_FS_NOW);
	CHECK_EQ(b->fsrc[7], RBLK_FS_NOW);
	CHECK_EQ(b->fsrc[0] & RBLK_FS_TAKE, 0);

	/* the accessor from 4 on: SNAP[3] decides 4, the flags now decide 6 */
	uc_engine *uc;
	CHECK_EQ(uc_open(UC_ARCH_ARM, UC_MODE_ARM, &uc), UC_ERR_OK);
	uint32_t snap[RBLK_MAX_INSNS] = {0}, cpsr_c = 0x200001d3, cpsr_nc = 0x000001d3;
	snap[3] = cpsr_c;
	CHECK_EQ(uc_reg_write(uc, UC_ARM_REG_CPSR, &cpsr_nc), UC_ERR_OK);
	CHECK_EQ(rblk_next_accessor_fs(b, 4, uc, 0, snap), 4);
	CHECK_EQ(rblk_next_accessor(b, 4, uc), -1); /* the old rule, on the flags now: none */
	snap[3] = cpsr_nc;
	CHECK_EQ(uc_reg_write(uc, UC_ARM_REG_CPSR, &cpsr_c), UC_ERR_OK);
	CHECK_EQ(rblk_next_accessor_fs(b, 4, uc, 0, snap), 6);
	CHECK_EQ(rblk_next_accessor(b, 4, uc), 4); /* the old rule would take 4 */
	uc_close(uc);

	static const uint32_t bb[] = {0x259d3000, 0xe3530000, 0xe5941000, 0xeafffffe};
	b = get(&c, 0x2000, bb, 4);
	CHECK(b && !b->precise);
	CHECK_EQ(b->fsnap, RBLK_FS_RELAXED | RBLK_FS_ENTRY);
	CHECK_EQ(b->fsrc[0], RBLK_FS_ENTRY);

	static const uint32_t cc[] = {0xe3500001, 0x259d3000, 0xe3530000, 0xe5941000, 0xeafffffe};
	b = get(&c, 0x3000, cc, 5);
	CHECK(b && b->precise && strstr(b->precise, "set the flags") != NULL);
	CHECK_EQ(b->fsnap, 0);

	static const uint32_t d[] = {0x259d3000, 0xe5941000, 0xe3510000, 0xeafffffe};
	b = get(&c, 0x4000, d, 4);
	CHECK(b && !b->precise);
	CHECK_EQ(b->fsnap, 0);

	static const uint8_t t[] = {0x22, 0xbf, 0x06, 0x9b, 0x01, 0x33, 0x06, 0x93, 0xd4,
				    0xf8, 0x04, 0x37, 0xb3, 0xf5, 0x80, 0x5f, 0xfe, 0xe7};
	b = rblk_get(&c, 0x5000, sizeof t, 1, t);
	CHECK(b && !b->precise);
	CHECK_EQ(b->n, 7);
	CHECK_EQ(b->fsnap, RBLK_FS_RELAXED);
	CHECK_EQ(b->fsrc[1], RBLK_FS_NOW);
	CHECK_EQ(b->fsrc[3], RBLK_FS_NOW);
	rblk_cache_fini(&c);
	CHECK_DONE();
}
