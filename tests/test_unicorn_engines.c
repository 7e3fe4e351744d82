/* Issue 31 / issue 36 part 2: what the replayer's block engine does with
 * Unicorn's translations (replay/REPLAY.md "Interrupts, DMA and the block
 * engine") rests on these behaviours of Debian's Unicorn 2.0.1, pinned
 * here.  Every check states what the engine does today; if an update
 * changes one, this test says which.
 *
 *  1. A range code hook is called only for instructions whose address lies
 *     in its range, from translations made after it was added; an
 *     instruction in two ranges gets two calls.
 *  2. uc_ctl_remove_cache(A, A + 1) drops the translations holding the
 *     byte at A and keeps one that starts after it.
 *  3. A cut made with until inside a block dropped first: the block hook
 *     reports the block up to the cut, the run stops there, and the
 *     translation up to the cut is gone afterwards.
 *  4. A block dropped, rewritten and stopped in its own block hook runs
 *     its new code when the run starts there again.
 *  5. Translation space is never reused: every translation made again
 *     takes new memory (RSS grows with drops and with code hooks added and
 *     deleted, not with runs of translated code), and one
 *     UC_CTL_TB_FLUSH makes the whole 1 GB code buffer resident.
 *  6. A new engine (uc_open) and uc_close cost no memory that stays.
 *  7. uc_context_save in one engine and uc_context_restore in another of
 *     the same model carry the CPU state: banked registers, SPSR, CP15
 *     (VBAR, SCTLR), Thumb state.
 */
#include "check.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unicorn/unicorn.h>

/* The RSS checks measure Unicorn's memory; a sanitizer's own (shadow,
 * quarantine) grows with every allocation, so they are skipped there. */
#if defined(__SANITIZE_ADDRESS__)
#define RSS_CHECKS 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RSS_CHECKS 0
#endif
#endif
#ifndef RSS_CHECKS
#define RSS_CHECKS 1
#endif

#define RAM (1u << 20)
static uint8_t *ram; /* mapped by pointer, as the replayer maps its RAM */

static uint32_t code_at[64], code_n;
static uint32_t block_at[64], block_size[64], block_n;
static uint32_t stop_block;               /* block hook: stop when a block starts here */
static const uint32_t *rewrite;           /* ... after dropping it and writing these words there */
static unsigned rewrite_n;

static void hcode(uc_engine *uc, uint64_t a, uint32_t s, void *u)
{
	(void)uc, (void)s, (void)u;
	if (code_n < 64)
		code_at[code_n++] = (uint32_t)a;
}

static void hblock(uc_engine *uc, uint64_t a, uint32_t s, void *u)
{
	(void)u;
	if (block_n < 64) {
		block_at[block_n] = (uint32_t)a;
		block_size[block_n++] = s;
	}
	if (stop_block && a == stop_block) {
		if (rewrite) {
			CHECK_EQ(uc_ctl_remove_cache(uc, a, a + s), UC_ERR_OK);
			memcpy(ram + a, rewrite, 4 * rewrite_n);
			rewrite = NULL;
		}
		stop_block = 0;
		uc_emu_stop(uc);
	}
}

static void hmem(uc_engine *uc, uc_mem_type t, uint64_t a, int s, int64_t v, void *u)
{
	(void)uc, (void)t, (void)a, (void)s, (void)v, (void)u;
}

static uc_engine *engine(void)
{
	uc_engine *uc;
	CHECK_EQ(uc_open(UC_ARCH_ARM, UC_MODE_ARM, &uc), UC_ERR_OK);
	CHECK_EQ(uc_ctl_set_cpu_model(uc, UC_CPU_ARM_CORTEX_A9), UC_ERR_OK);
	CHECK_EQ(uc_mem_map_ptr(uc, 0, RAM, UC_PROT_ALL, ram), UC_ERR_OK);
	uc_hook h;
	CHECK_EQ(uc_hook_add(uc, &h, UC_HOOK_BLOCK, hblock, NULL, 1, 0), UC_ERR_OK);
	CHECK_EQ(uc_hook_add(uc, &h, UC_HOOK_MEM_READ | UC_HOOK_MEM_WRITE, hmem, NULL, 0, RAM - 1), UC_ERR_OK);
	uint32_t r3 = 0x8000, sp = 0x9000;
	uc_reg_write(uc, UC_ARM_REG_R3, &r3);
	uc_reg_write(uc, UC_ARM_REG_SP, &sp);
	return uc;
}

static void put(uint32_t a, const uint32_t *w, unsigned n) { memcpy(ram + a, w, 4 * n); }

static uint32_t rd(uc_engine *uc, int r)
{
	uint32_t v = 0;
	uc_reg_read(uc, r, &v);
	return v;
}

/* Whether a translation of the block at START is cached: a run from START
 * with its exit at MID, inside the block, runs past MID to the udf only
 * when the translation made before (without the exit) is still there
 * (tests/test_unicorn_block.c part 4).  The probe itself drops what holds
 * MID - 1 (uc_emu_start's end). */
static int cached(uc_engine *uc, uint32_t start, uint32_t mid)
{
	uc_err e = uc_emu_start(uc, start, mid, 0, 0);
	uint32_t pc = rd(uc, UC_ARM_REG_PC);
	if (pc == mid) {
		CHECK_EQ(e, UC_ERR_OK);
		return 0;
	}
	CHECK_EQ(e, UC_ERR_INSN_INVALID);
	return 1;
}

static long rss_kb(void)
{
	long pages = 0, res = 0;
	FILE *f = fopen("/proc/self/statm", "r");
	if (f) {
		if (fscanf(f, "%ld %ld", &pages, &res) != 2)
			res = 0;
		fclose(f);
	}
	return res * 4;
}

/* 0x1000: add r0,r0,#1; ldr r2,[r3]; add r1,r1,#1; str r0,[r3,#4];
 * add r1,r1,#1; udf */
static const uint32_t blk[] = {0xe2800001, 0xe5932000, 0xe2811001, 0xe5830004, 0xe2811001, 0xe7f000f0};
/* 0x2000: mov r0,#1; mov r1,#2; mov r2,#3; mov r4,#4; udf */
static const uint32_t movs[] = {0xe3a00001, 0xe3a01002, 0xe3a02003, 0xe3a04004, 0xe7f000f0};
/* 0x2100: mov r0,#7; udf (the rewrite of 0x2000) */
static const uint32_t seven[] = {0xe3a00007, 0xe7f000f0};

static void range_hooks(void)
{
	uc_engine *uc = engine();
	put(0x1000, blk, 6);
	/* translated with no code hook, then a range hook [0x1004, 0x100c]
	 * added: the cached translation makes no call */
	CHECK_EQ(uc_emu_start(uc, 0x1000, 0x10000, 0, 0), UC_ERR_INSN_INVALID);
	uc_hook h1, h2;
	CHECK_EQ(uc_hook_add(uc, &h1, UC_HOOK_CODE, hcode, NULL, 0x1004, 0x100c), UC_ERR_OK);
	code_n = 0;
	CHECK_EQ(uc_emu_start(uc, 0x1000, 0x10000, 0, 0), UC_ERR_INSN_INVALID);
	CHECK_EQ(code_n, 0);
	/* dropped: one call for each instruction in the range, none outside */
	CHECK_EQ(uc_ctl_remove_cache(uc, 0x1000, 0x1018), UC_ERR_OK);
	code_n = 0;
	CHECK_EQ(uc_emu_start(uc, 0x1000, 0x10000, 0, 0), UC_ERR_INSN_INVALID);
	CHECK_EQ(code_n, 3);
	CHECK_EQ(code_at[0], 0x1004);
	CHECK_EQ(code_at[1], 0x1008);
	CHECK_EQ(code_at[2], 0x100c);
	/* a second range over 0x100c-0x1010: the instruction in both gets two
	 * calls (the replayer's ranges never overlap) */
	CHECK_EQ(uc_hook_add(uc, &h2, UC_HOOK_CODE, hcode, NULL, 0x100c, 0x1010), UC_ERR_OK);
	CHECK_EQ(uc_ctl_remove_cache(uc, 0x1000, 0x1018), UC_ERR_OK);
	code_n = 0;
	CHECK_EQ(uc_emu_start(uc, 0x1000, 0x10000, 0, 0), UC_ERR_INSN_INVALID);
	CHECK_EQ(code_n, 5);
	CHECK_EQ(code_at[2], 0x100c);
	CHECK_EQ(code_at[3], 0x100c);
	CHECK_EQ(code_at[4], 0x1010);
	uc_close(uc);
}

static void drops_and_cuts(void)
{
	uc_engine *uc = engine();
	put(0x2000, movs, 5);
	put(0x2100, seven, 2);
	/* 2. a block at 0x2000 and its tail at 0x2008, both translated; the
	 * drop of 0x2000's first byte takes the first and leaves the tail */
	CHECK_EQ(uc_emu_start(uc, 0x2000, 0x10000, 0, 0), UC_ERR_INSN_INVALID);
	CHECK_EQ(uc_emu_start(uc, 0x2008, 0x10000, 0, 0), UC_ERR_INSN_INVALID);
	CHECK_EQ(uc_ctl_remove_cache(uc, 0x2000, 0x2001), UC_ERR_OK);
	CHECK_EQ(cached(uc, 0x2000, 0x2004), 0);
	CHECK_EQ(cached(uc, 0x2008, 0x200c), 1);
	/* without the drop, the probe itself shows a translation cached */
	CHECK_EQ(uc_emu_start(uc, 0x2000, 0x10000, 0, 0), UC_ERR_INSN_INVALID);
	CHECK_EQ(cached(uc, 0x2000, 0x2008), 1);

	/* 3. the cut: the block dropped, a run with its exit at 0x2008 stops
	 * there, the block hook reporting 8 bytes; afterwards the translation
	 * up to the cut is gone, and a run with no exit runs the whole block */
	CHECK_EQ(uc_emu_start(uc, 0x2000, 0x10000, 0, 0), UC_ERR_INSN_INVALID);
	CHECK_EQ(uc_ctl_remove_cache(uc, 0x2000, 0x2001), UC_ERR_OK);
	uint32_t z = 0;
	uc_reg_write(uc, UC_ARM_REG_R1, &z);
	uc_reg_write(uc, UC_ARM_REG_R2, &z);
	uc_reg_write(uc, UC_ARM_REG_R4, &z);
	block_n = 0;
	CHECK_EQ(uc_emu_start(uc, 0x2000, 0x2008, 0, 0), UC_ERR_OK);
	CHECK_EQ(rd(uc, UC_ARM_REG_PC), 0x2008);
	CHECK_EQ(rd(uc, UC_ARM_REG_R1), 2);
	CHECK_EQ(rd(uc, UC_ARM_REG_R2), 0); /* mov r2,#3 at the cut: not run */
	CHECK_EQ(block_n, 1);
	CHECK_EQ(block_at[0], 0x2000);
	CHECK_EQ(block_size[0], 8);
	block_n = 0;
	CHECK_EQ(uc_emu_start(uc, 0x2000, 0x10000, 0, 0), UC_ERR_INSN_INVALID);
	CHECK_EQ(rd(uc, UC_ARM_REG_PC), 0x2010);
	CHECK_EQ(rd(uc, UC_ARM_REG_R4), 4);
	CHECK_EQ(block_n, 1);
	CHECK_EQ(block_size[0], 20);

	/* 4. in its own block hook the block is dropped, rewritten (mov r0,#7;
	 * udf) and the run stopped: the next run from there runs the new code */
	CHECK_EQ(uc_emu_start(uc, 0x2000, 0x10000, 0, 0), UC_ERR_INSN_INVALID);
	stop_block = 0x2000;
	rewrite = seven;
	rewrite_n = 2;
	CHECK_EQ(uc_emu_start(uc, 0x2000, 0x10000, 0, 0), UC_ERR_OK);
	CHECK_EQ(rd(uc, UC_ARM_REG_PC), 0x2000);
	CHECK_EQ(uc_emu_start(uc, 0x2000, 0x10000, 0, 0), UC_ERR_INSN_INVALID);
	CHECK_EQ(rd(uc, UC_ARM_REG_R0), 7);
	CHECK_EQ(rd(uc, UC_ARM_REG_PC), 0x2004);
	put(0x2000, movs, 5);
	uc_close(uc);
}

static void memory(void)
{
	put(0x1000, blk, 6);
	uc_engine *uc = engine();
	/* 5. runs of translated code take no memory */
	CHECK_EQ(uc_emu_start(uc, 0x1000, 0x10000, 0, 0), UC_ERR_INSN_INVALID);
	long r0 = rss_kb();
	for (int i = 0; i < 20000; i++)
		uc_emu_start(uc, 0x1000, 0x10000, 0, 0);
	long runs = rss_kb() - r0;
	/* the same block dropped and translated again each time */
	r0 = rss_kb();
	for (int i = 0; i < 8000; i++) {
		uc_ctl_remove_cache(uc, 0x1000, 0x1001);
		uc_emu_start(uc, 0x1000, 0x10000, 0, 0);
	}
	long drops = rss_kb() - r0;
	/* a code hook added, RAM's translations dropped, the block run, the
	 * hook deleted (which drops what it hooked), the block run again: the
	 * old mode change of the block engine */
	r0 = rss_kb();
	for (int i = 0; i < 2000; i++) {
		uc_hook h;
		uc_hook_add(uc, &h, UC_HOOK_CODE, hcode, NULL, 1, 0);
		uc_ctl_remove_cache(uc, 0, RAM);
		code_n = 0;
		uc_emu_start(uc, 0x1000, 0x10000, 0, 0);
		uc_hook_del(uc, h);
		uc_emu_start(uc, 0x1000, 0x10000, 0, 0);
	}
	long hooks = rss_kb() - r0;
	fprintf(stderr, "RSS growth: 20000 runs %ld KiB, 8000 drops %ld KiB, 2000 hook changes %ld KiB\n", runs, drops,
		hooks);
	if (RSS_CHECKS) {
		CHECK(runs < 512);
		CHECK(drops > 2048); /* about 0.5 KiB a translation here */
		CHECK(hooks > 1024);
	}
	uc_close(uc);

	/* 6. engines opened and closed leave no memory behind */
	r0 = rss_kb();
	for (int i = 0; i < 50; i++) {
		uc_engine *e = engine();
		uc_emu_start(e, 0x1000, 0x10000, 0, 0);
		uc_close(e);
	}
	long opens = rss_kb() - r0;
	fprintf(stderr, "RSS growth: 50 engines %ld KiB\n", opens);
	if (RSS_CHECKS)
		CHECK(opens < 8192);
}

/* 7.  At 0x3000 (A32, arm-none-eabi-as): set VBAR and SCTLR.TE, the IRQ
 * mode's SP, LR and SPSR, then go to Thumb state at 0x3100 (a udf there):
 *   mov r0,#0x40000; mcr p15,0,r0,c12,c0,0; mrc p15,0,r1,c1,c0,0;
 *   orr r1,r1,#0x40000000; mcr p15,0,r1,c1,c0,0; cps #0x12; mov sp,#0x7000;
 *   mov lr,#0x1200; add lr,lr,#0x68; mov r2,#0x1f; msr spsr_fsxc,r2;
 *   cps #0x13; ldr r4,=0x3101; bx r4
 * At 0x3200 (A32) they are read back: cps #0x12; mov r5,sp; mov r6,lr;
 *   mrs r7,spsr; cps #0x13; mrc p15,0,r8,c12,c0,0; mrc p15,0,r9,c1,c0,0; udf */
static const uint32_t ctx_prog[] = {
	0xe3a00701, 0xee0c0f10, 0xee111f10, 0xe3811101, 0xee011f10, 0xf1020012, 0xe3a0da07, 0xe3a0ec12,
	0xe28ee068, 0xe3a0201f, 0xe16ff002, 0xf1020013, 0xe59f4004, 0xe12fff14, 0xe7f000f0, 0x00003101,
};
static const uint16_t ctx_thumb[] = {0xde00};
static const uint32_t ctx_read[] = {0xf1020012, 0xe1a0500d, 0xe1a0600e, 0xe14f7000,
				    0xf1020013, 0xee1c8f10, 0xee119f10, 0xe7f000f0};

static void context(void)
{
	put(0x3000, ctx_prog, 16);
	memcpy(ram + 0x3100, ctx_thumb, 2);
	put(0x3200, ctx_read, 8);
	uc_engine *a = engine();
	uint32_t cpsr = 0x1d3; /* SVC, A32, IRQs masked */
	uc_reg_write(a, UC_ARM_REG_CPSR, &cpsr);
	uc_err e = uc_emu_start(a, 0x3000, 0x3100, 0, 0);
	CHECK_EQ(e, UC_ERR_OK);
	CHECK_EQ(rd(a, UC_ARM_REG_PC), 0x3100);
	CHECK_EQ(rd(a, UC_ARM_REG_CPSR) & 0x3f, 0x33); /* SVC, Thumb */
	uc_context *ctx = NULL;
	CHECK_EQ(uc_context_alloc(a, &ctx), UC_ERR_OK);
	CHECK_EQ(uc_context_save(a, ctx), UC_ERR_OK);
	uc_engine *b = engine();
	CHECK_EQ(uc_context_restore(b, ctx), UC_ERR_OK);
	uc_context_free(ctx);
	/* both run the reading code from A32 state; everything read is the same */
	for (int k = 0; k < 2; k++) {
		uc_engine *uc = k ? b : a;
		cpsr = rd(uc, UC_ARM_REG_CPSR) & ~0x20u;
		uc_reg_write(uc, UC_ARM_REG_CPSR, &cpsr);
		CHECK_EQ(uc_emu_start(uc, 0x3200, 0x10000, 0, 0), UC_ERR_INSN_INVALID);
		CHECK_EQ(rd(uc, UC_ARM_REG_R5), 0x7000);
		CHECK_EQ(rd(uc, UC_ARM_REG_R6), 0x1268);
		CHECK_EQ(rd(uc, UC_ARM_REG_R7) & 0x1f, 0x1f);
		CHECK_EQ(rd(uc, UC_ARM_REG_R8), 0x40000);
		CHECK_EQ(rd(uc, UC_ARM_REG_R9) >> 30 & 1, 1);
		CHECK_EQ(rd(uc, UC_ARM_REG_CPSR) & 0x1f, 0x13);
	}
	uc_close(a);
	uc_close(b);
}

/* One UC_CTL_TB_FLUSH makes the whole 1 GB code buffer resident (a second
 * CTest, test_unicorn_engines_flush, label slow: it touches 1 GB). */
static void flush(void)
{
	put(0x1000, blk, 6);
	uc_engine *uc = engine();
	CHECK_EQ(uc_emu_start(uc, 0x1000, 0x10000, 0, 0), UC_ERR_INSN_INVALID);
	long r0 = rss_kb();
	CHECK_EQ(uc_ctl(uc, UC_CTL_WRITE(UC_CTL_TB_FLUSH, 0)), UC_ERR_OK);
	long grown = rss_kb() - r0;
	fprintf(stderr, "RSS growth: 1 flush %ld KiB\n", grown);
	if (RSS_CHECKS)
		CHECK(grown > 512 * 1024);
	uc_close(uc);
}

int main(int argc, char **argv)
{
	ram = aligned_alloc(4096, RAM);
	if (!ram)
		return 2;
	memset(ram, 0, RAM);
	if (argc > 1 && strcmp(argv[1], "flush") == 0) {
		flush();
		free(ram);
		CHECK_DONE();
	}
	range_hooks();
	drops_and_cuts();
	memory();
	context();
	free(ram);
	CHECK_DONE();
}
