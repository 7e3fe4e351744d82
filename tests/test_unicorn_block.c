/* Issue 14 part 2: what a block-granular replayer (UC_HOOK_BLOCK and memory
 * hooks, no code hook) would rely on in Debian's Unicorn 2.0.1, pinned
 * before anything is built on it (replay/REPLAY.md "Block-granular replay:
 * what Unicorn gives").  Every check states what the engine does today; if
 * an update changes one, this test says which. */
#include "check.h"
#include "replay_block.h"

#include <string.h>
#include <unicorn/unicorn.h>

/* A32 at 0x100:
 *   0x100 mov r0,#5        0x104 cmp r0,#5        0x108 ldr r2,[r3]
 *   0x10c mov r0,#7        0x110 cmp r0,#8        0x114 ldrne r4,[r3,#4]
 *   0x118 ldreq r5,[r3,#8] 0x11c str r0,[r3,#12]  0x120 udf
 * A32 at 0x200: mov r1,#1; b 0x300.  At 0x300: mov r2,#2; udf. */
static const uint32_t arm_prog[] = {0xe3a00005, 0xe3500005, 0xe5932000, 0xe3a00007, 0xe3500008,
				    0x15934004, 0x05935008, 0xe583000c, 0xe7f000f0};
static const uint32_t arm_jump[] = {0xe3a01001, 0xea00003d};
static const uint32_t arm_tgt[] = {0xe3a02002, 0xe7f000f0};
/* The same in T32 at 0x400 (arm-none-eabi-as):
 *   0x400 movs r0,#5  0x402 cmp r0,#5  0x404 ldr r2,[r3]  0x406 movs r0,#7
 *   0x408 cmp r0,#8   0x40a ite ne     0x40c ldrne r4,[r3,#4]
 *   0x40e ldreq r5,[r3,#8]             0x410 str r0,[r3,#12]  0x412 udf */
/* A32 at 0x500: ldm r3,{r4,r5,r6}; ldrd r4,r5,[r3]; ldr r4,[r3,#1];
 * push {r4,r5}; udf */
/* A32 at 0x700: mov r0,#5; cmp r0,#5; ldr r2,[r6] (r6: the MMIO window);
 * mov r0,#7; cmp r0,#8; str r0,[r6,#4]; udf */
static const uint32_t mmio_prog[] = {0xe3a00005, 0xe3500005, 0xe5962000, 0xe3a00007, 0xe3500008, 0xe5860004, 0xe7f000f0};
static uint32_t rd(uc_engine *uc, int r);
static uint32_t mmio_cpsr[2], mmio_r0[2];
static int n_mmio;

static uint64_t mmio_rd(uc_engine *uc, uint64_t off, unsigned size, void *u)
{
	(void)off, (void)size, (void)u;
	if (n_mmio < 2) {
		mmio_cpsr[n_mmio] = rd(uc, UC_ARM_REG_CPSR);
		mmio_r0[n_mmio++] = rd(uc, UC_ARM_REG_R0);
	}
	return 0x55;
}

static void mmio_wr(uc_engine *uc, uint64_t off, unsigned size, uint64_t v, void *u)
{
	(void)off, (void)size, (void)v, (void)u;
	if (n_mmio < 2) {
		mmio_cpsr[n_mmio] = rd(uc, UC_ARM_REG_CPSR);
		mmio_r0[n_mmio++] = rd(uc, UC_ARM_REG_R0);
	}
}

/* A32 at 0x600: subs r0,r0,#1; bne 0x600; udf */
static const uint32_t loop_prog[] = {0xe2500001, 0x1afffffd, 0xe7f000f0};
static const uint32_t multi_prog[] = {0xe8930070, 0xe1c340d0, 0xe5934001, 0xe92d0030, 0xe7f000f0};
/* T16/T32 at 0x800 (arm-none-eabi-as): ldmia.w r3,{r4,r5,r6}; ldrd r4,r5,[r3];
 * push {r4,r5}; pop {r4,r5}; movs r0,#0; tbb [r3,r0] (the byte 0x11 at
 * 0x1000: to 0x80e + 4 + 2 * 0x11 = 0x834). */
static const uint16_t thumb_multi[] = {0xe893, 0x0070, 0xe9d3, 0x4500, 0xb430, 0xbc30, 0x2000, 0xe8d3, 0xf000};
/* A32 at 0xa00: ldr r2,[r3]; mrc p15,0,r4,c9,c12,0 (PMCR); mov r1,#9; udf.
 * A32 at 0xb00: mov r1,#1; smc #0; mov r1,#2; udf. */
static const uint32_t pmcr_prog[] = {0xe5932000, 0xee194f1c, 0xe3a01009, 0xe7f000f0};
static const uint32_t smc_prog[] = {0xe3a01001, 0xe1600070, 0xe3a01002, 0xe7f000f0};
static uint32_t intr_no, intr_pc;
/* A32 at 0xc00: mov r0,#1; bx r1.  At 0xc10: mov r0,#1; mov pc,r1.  At
 * 0xc20: mov r0,#1; ldr pc,[r3,#16] (0xd01 there).  Thumb at 0xd00:
 * movs r2,#2; udf. */
static const uint32_t bx_prog[] = {0xe3a00001, 0xe12fff11, 0, 0, 0xe3a00001, 0xe1a0f001, 0, 0, 0xe3a00001, 0xe593f010};
static const uint16_t bx_tgt[] = {0x2202, 0xde00};
static uint32_t t_at[4];
static int n_t;

static void hblock_t(uc_engine *uc, uint64_t a, uint32_t s, void *u)
{
	(void)a, (void)s, (void)u;
	if (n_t < 4)
		t_at[n_t++] = rd(uc, UC_ARM_REG_CPSR) >> 5 & 1;
}

static void hintr(uc_engine *uc, uint32_t intno, void *u)
{
	(void)u;
	intr_no = intno;
	uc_reg_read(uc, UC_ARM_REG_PC, &intr_pc);
	uc_emu_stop(uc);
}

static const uint16_t thumb_prog[] = {0x2005, 0x2805, 0x681a, 0x2007, 0x2808,
				      0xbf14, 0x685c, 0x689d, 0x60d8, 0xde00};

#define MAXREC 16
struct rec {
	int type;
	uint32_t addr, size, pc, r0, r2, r4, cpsr;
};
static struct rec recs[MAXREC];
static int n_recs;
static uint32_t blocks[MAXREC];
static int n_blocks;
static uint32_t block_size[MAXREC];
static uint32_t stop_at; /* block hook: uc_emu_stop when a block starts here */
static int n_code, stop_nth, stop_seen; /* stop_nth: stop at the stop_nth start of stop_at only */

static void hcode(uc_engine *uc, uint64_t a, uint32_t s, void *u)
{
	(void)uc, (void)a, (void)s, (void)u;
	n_code++;
}

static uint32_t rd(uc_engine *uc, int r)
{
	uint32_t v = 0;
	uc_reg_read(uc, r, &v);
	return v;
}

static void hmem(uc_engine *uc, uc_mem_type t, uint64_t a, int s, int64_t v, void *u)
{
	(void)v, (void)u;
	if (n_recs >= MAXREC)
		return;
	struct rec *r = &recs[n_recs++];
	r->type = t;
	r->addr = (uint32_t)a;
	r->size = (uint32_t)s;
	r->pc = rd(uc, UC_ARM_REG_PC);
	r->r0 = rd(uc, UC_ARM_REG_R0);
	r->r2 = rd(uc, UC_ARM_REG_R2);
	r->r4 = rd(uc, UC_ARM_REG_R4);
	r->cpsr = rd(uc, UC_ARM_REG_CPSR);
}

static void hblock(uc_engine *uc, uint64_t a, uint32_t s, void *u)
{
	(void)u;
	if (n_blocks < MAXREC) {
		block_size[n_blocks] = s;
		blocks[n_blocks++] = (uint32_t)a;
	}
	if (stop_at && a == stop_at && (!stop_nth || ++stop_seen == stop_nth))
		uc_emu_stop(uc);
}

static uc_engine *setup(void)
{
	uc_engine *uc;
	CHECK_EQ(uc_open(UC_ARCH_ARM, UC_MODE_ARM, &uc), UC_ERR_OK);
	uc_ctl_set_cpu_model(uc, UC_CPU_ARM_CORTEX_A9);
	uc_mem_map(uc, 0, 1 << 20, UC_PROT_ALL);
	uc_mem_write(uc, 0x100, arm_prog, sizeof arm_prog);
	uc_mem_write(uc, 0x200, arm_jump, sizeof arm_jump);
	uc_mem_write(uc, 0x300, arm_tgt, sizeof arm_tgt);
	uc_mem_write(uc, 0x400, thumb_prog, sizeof thumb_prog);
	uc_mem_write(uc, 0x500, multi_prog, sizeof multi_prog);
	uc_mem_write(uc, 0x600, loop_prog, sizeof loop_prog);
	uc_mem_write(uc, 0x700, mmio_prog, sizeof mmio_prog);
	uc_mem_write(uc, 0x800, thumb_multi, sizeof thumb_multi);
	uc_mem_write(uc, 0xa00, pmcr_prog, sizeof pmcr_prog);
	uc_mem_write(uc, 0xb00, smc_prog, sizeof smc_prog);
	uc_mem_write(uc, 0xc00, bx_prog, sizeof bx_prog);
	uc_mem_write(uc, 0xd00, bx_tgt, sizeof bx_tgt);
	CHECK_EQ(uc_mmio_map(uc, 0x100000, 0x1000, mmio_rd, NULL, mmio_wr, NULL), UC_ERR_OK);
	uint32_t data[4] = {0x11, 0x22, 0x33, 0x44};
	uc_mem_write(uc, 0x1000, data, sizeof data);
	uc_hook h;
	CHECK_EQ(uc_hook_add(uc, &h, UC_HOOK_BLOCK, hblock, NULL, 1, 0), UC_ERR_OK);
	CHECK_EQ(uc_hook_add(uc, &h, UC_HOOK_MEM_READ | UC_HOOK_MEM_WRITE, hmem, NULL, 1, 0), UC_ERR_OK);
	return uc;
}

static void reset_regs(uc_engine *uc)
{
	uint32_t z = 0, r3 = 0x1000;
	for (int r = UC_ARM_REG_R0; r <= UC_ARM_REG_R7; r++)
		uc_reg_write(uc, r, &z);
	uc_reg_write(uc, UC_ARM_REG_R3, &r3);
	n_recs = n_blocks = 0;
}

#define NZCV(c) ((c) >> 28)

/* The memory-hook records of arm_prog / thumb_prog starting at `base`. */
static void check_state_at_access(uint32_t base)
{
	/* three accesses: the ldr, the ldrne (taken), the str; the ldreq whose
	 * condition fails makes no access and no hook call */
	CHECK_EQ(n_recs, 3);
	CHECK_EQ(recs[0].type, UC_MEM_READ);
	CHECK_EQ(recs[0].addr, 0x1000);
	CHECK_EQ(recs[1].type, UC_MEM_READ);
	CHECK_EQ(recs[1].addr, 0x1004);
	CHECK_EQ(recs[2].type, UC_MEM_WRITE);
	CHECK_EQ(recs[2].addr, 0x100c);
	/* PC is the block start in every one (no code hook) */
	for (int i = 0; i < 3; i++)
		CHECK_EQ(recs[i].pc, base);
	/* R0-R14 are current at the access: r0 written by the instruction
	 * before, not yet by the one after; the load's own destination is not
	 * yet written (r2 = 0 at the ldr); at the str, r4 holds the value the
	 * ldrne loaded */
	CHECK_EQ(recs[0].r0, 5);
	CHECK_EQ(recs[0].r2, 0);
	CHECK_EQ(recs[1].r0, 7);
	CHECK_EQ(recs[1].r2, 0x11);
	CHECK_EQ(recs[1].r4, 0);
	CHECK_EQ(recs[2].r4, 0x22);
	/* and so are the flags: cmp r0,#5 with r0 = 5 gives Z and C; cmp r0,#8
	 * with r0 = 7 gives N alone (borrow: C clear) */
	CHECK_EQ(NZCV(recs[0].cpsr), 0x6);
	CHECK_EQ(NZCV(recs[1].cpsr), 0x8);
	CHECK_EQ(NZCV(recs[2].cpsr), 0x8);
}

/* 9. (the capture's block engine, capture/TARGET.md "The block engine")
 * A data access to nothing, with no code hook and an unmapped-access hook
 * that returns false: uc_emu_start fails with UC_ERR_READ_UNMAPPED or
 * UC_ERR_WRITE_UNMAPPED, the PC is stale (the block's start, as in a
 * memory hook: the capture takes the accessor from the decoded block), the
 * instructions before it in the block have run, the accessor has written
 * no register (neither a load's destination nor a writeback base), and no
 * later one has run.  After the window is mapped as MMIO, a run from that
 * PC executes the instruction once, with its writeback.  The same after an
 * MMIO window is unmapped (uc_mem_unmap) and mapped again.
 *   0x800 mov r2,#9   0x804 ldr r0,[r1],#4   0x808 mov r3,#1   0x80c udf
 *   0x900 mov r2,#9   0x904 str r0,[r1,#4]!  0x908 mov r3,#1   0x90c udf */
static const uint32_t trap_ld[] = {0xe3a02009, 0xe4910004, 0xe3a03001, 0xe7f000f0};
static const uint32_t trap_st[] = {0xe3a02009, 0xe5a10004, 0xe3a03001, 0xe7f000f0};
static int n_unmapped, n_trap_mmio, n_stop_mmio;
static uint32_t trap_wval;

static bool hunmapped(uc_engine *uc, uc_mem_type t, uint64_t a, int s, int64_t v, void *u)
{
	(void)uc, (void)t, (void)a, (void)s, (void)v, (void)u;
	n_unmapped++;
	return false;
}

static uint64_t trap_rd(uc_engine *uc, uint64_t off, unsigned size, void *u)
{
	(void)uc, (void)off, (void)size, (void)u;
	n_trap_mmio++;
	return 0x77;
}

static void trap_wr(uc_engine *uc, uint64_t off, unsigned size, uint64_t v, void *u)
{
	(void)uc, (void)off, (void)size, (void)u;
	n_trap_mmio++;
	trap_wval = (uint32_t)v;
}

/* A Cortex-A9 engine in MODE with 1 MiB of RAM at 0 and hunmapped */
static uc_engine *trap_engine(uc_mode mode)
{
	uc_engine *uc;
	uc_hook h;
	CHECK_EQ(uc_open(UC_ARCH_ARM, mode, &uc), UC_ERR_OK);
	uc_ctl_set_cpu_model(uc, UC_CPU_ARM_CORTEX_A9);
	uc_mem_map(uc, 0, 1 << 20, UC_PROT_ALL);
	CHECK_EQ(uc_hook_add(uc, &h, UC_HOOK_MEM_UNMAPPED, hunmapped, NULL, 1, 0), UC_ERR_OK);
	return uc;
}

/* 9's programs at 0x800 and 0x900 in UC, r0 = 0x1234, r1 the window, r2
 * and r3 = 0 */
static void trap_setup(uc_engine *uc)
{
	uc_mem_write(uc, 0x800, trap_ld, sizeof trap_ld);
	uc_mem_write(uc, 0x900, trap_st, sizeof trap_st);
	uint32_t r0 = 0x1234, r1 = 0x40000000, z = 0;
	uc_reg_write(uc, UC_ARM_REG_R0, &r0);
	uc_reg_write(uc, UC_ARM_REG_R1, &r1);
	uc_reg_write(uc, UC_ARM_REG_R2, &z);
	uc_reg_write(uc, UC_ARM_REG_R3, &z);
}

/* After a run of 9's program at BASE stopped at its access: the PC is the
 * block's start, the MOV before it ran, the access wrote no register
 * (neither r0 nor the writeback of r1), the MOV after it did not run */
static void trap_check_abandoned(uc_engine *uc, uint32_t base)
{
	CHECK_EQ(rd(uc, UC_ARM_REG_PC), base);
	CHECK_EQ(rd(uc, UC_ARM_REG_R2), 9);
	CHECK_EQ(rd(uc, UC_ARM_REG_R0), 0x1234);
	CHECK_EQ(rd(uc, UC_ARM_REG_R1), 0x40000000);
	CHECK_EQ(rd(uc, UC_ARM_REG_R3), 0);
}

static void trap_case(uint32_t base, uc_err want, int load)
{
	uc_engine *uc = trap_engine(UC_MODE_ARM);
	uc_hook h;
	CHECK_EQ(uc_hook_add(uc, &h, UC_HOOK_BLOCK, hblock, NULL, 1, 0), UC_ERR_OK);
	/* the window mapped, then unmapped, as the capture switches modes */
	CHECK_EQ(uc_mmio_map(uc, 0x40000000, 0x1000, trap_rd, NULL, trap_wr, NULL), UC_ERR_OK);
	CHECK_EQ(uc_mem_unmap(uc, 0x40000000, 0x1000), UC_ERR_OK);
	trap_setup(uc);
	n_unmapped = n_trap_mmio = 0;
	CHECK_EQ(uc_emu_start(uc, base, base + 0x10, 0, 0), want);
	CHECK_EQ(n_unmapped, 1);
	trap_check_abandoned(uc, base);
	/* the window as MMIO again, the cache of RAM dropped, and on from the PC */
	CHECK_EQ(uc_mmio_map(uc, 0x40000000, 0x1000, trap_rd, NULL, trap_wr, NULL), UC_ERR_OK);
	CHECK_EQ(uc_ctl_remove_cache(uc, 0, 1 << 20), UC_ERR_OK);
	CHECK_EQ(uc_emu_start(uc, base + 4, base + 0xc, 0, 0), UC_ERR_OK);
	CHECK_EQ(n_trap_mmio, 1);
	CHECK_EQ(n_unmapped, 1);
	CHECK_EQ(rd(uc, UC_ARM_REG_R0), load ? 0x77 : 0x1234);
	CHECK_EQ(rd(uc, UC_ARM_REG_R1), 0x40000004);
	CHECK_EQ(rd(uc, UC_ARM_REG_R3), 1);
	if (!load)
		CHECK_EQ(trap_wval, 0x1234);
	uc_close(uc);
}

/* Runs PROG (LEN bytes at BASE) from BEGIN in UC (trap_engine, or
 * mmio_stop_engine of part 14), r0, r1, r3 and r4 = 0 and r2 the device
 * address: uc_emu_start returns WANT after one call of the unmapped hook or
 * MMIO callback (*CALLS), the PC is then PC, r1 (a load's destination) R1
 * and r4 (the ADDS or ADD after the access: run or not) R4, and the MOV r3
 * is not reached. */
static void cond_run(uc_engine *uc, uint32_t base, const void *prog, size_t len, uint32_t begin, uc_err want,
		     const int *calls, uint32_t pc, uint32_t r1, uint32_t r4)
{
	uc_mem_write(uc, base, prog, len);
	uint32_t r2 = 0x40000000, z = 0;
	uc_reg_write(uc, UC_ARM_REG_R0, &z);
	uc_reg_write(uc, UC_ARM_REG_R1, &z);
	uc_reg_write(uc, UC_ARM_REG_R2, &r2);
	uc_reg_write(uc, UC_ARM_REG_R3, &z);
	uc_reg_write(uc, UC_ARM_REG_R4, &z);
	n_unmapped = n_stop_mmio = 0;
	CHECK_EQ(uc_emu_start(uc, begin, base + 0x100, 0, 0), want);
	CHECK_EQ(*calls, 1);
	CHECK_EQ(rd(uc, UC_ARM_REG_PC), pc);
	CHECK_EQ(rd(uc, UC_ARM_REG_R1), r1);
	CHECK_EQ(rd(uc, UC_ARM_REG_R4), r4);
	CHECK_EQ(rd(uc, UC_ARM_REG_R3), 0);
	uc_close(uc);
}

/* 13. (the capture's block engine with memory instructions inside IT
 * blocks, capture/TARGET.md "Memory instructions inside IT blocks") The
 * same trap in Thumb, no code hook, an unmapped-access hook that returns
 * false.  An unconditional STR, and a LDR inside an IT block whose
 * condition passes, stop as in 9: the PC is the block's start and no later
 * instruction has run (so do A32's conditional ones: a32_cond_trap_case).
 * But a STR inside an IT block does not stop there:
 * Unicorn runs the rest of the translation block (the ADDS and the B after
 * it), uc_emu_start fails only at the next block, with the PC there.  So the
 * capture never runs a block with a store inside an IT block without the
 * code hook (rblk_t32_may_write, it_store).  Each program at 0xa00 (r0 =
 * 0, r2 = an unmapped address): CMP r0,#0; IT EQ (or NOP); the access;
 * ADDS r4,#1; B to 0xa0c; (NOP); 0xa0c MOVS r3,#1; UDF.  Run in UC, a
 * Thumb engine, with cond_run's expectations (CALLS .. R4). */
static void it_run(uc_engine *uc, const int *calls, uint16_t it, uint16_t acc, uc_err want, uint32_t pc, uint32_t r1,
		   uint32_t r4)
{
	uint16_t prog[] = {0x2800, it, acc, 0x3401, 0xe000, 0xbf00, 0x2301, 0xde00};
	cond_run(uc, 0xa00, prog, sizeof prog, 0xa01, want, calls, pc, r1, r4);
}

static void it_trap_case(uint16_t it, uint16_t acc, uc_err want, uint32_t pc, uint32_t r4)
{
	it_run(trap_engine(UC_MODE_THUMB), &n_unmapped, it, acc, want, pc, 0, r4);
}

/* 13 in A32, which the block engine relies on for its conditional memory
 * instructions: a conditional store (STREQ, condition passing) and a
 * conditional load trap at once, as the unconditional ones of 9 do: PC at
 * the block's start, the ADD after them not run.  At 0xb00 (r0 = 0, r2 =
 * an unmapped address): CMP r0,#0; the access; ADD r4,r4,#1; B to 0xb10;
 * 0xb10 MOV r3,#1; UDF.  Run in UC, an A32 engine: one call (CALLS), the
 * run returns WANT with PC 0xb00 and r1 and r4 untouched. */
static void a32_cond_run(uc_engine *uc, const int *calls, uint32_t acc, uc_err want)
{
	uint32_t prog[] = {0xe3500000, acc, 0xe2844001, 0xeaffffff, 0xe3a03001, 0xe7f000f0};
	cond_run(uc, 0xb00, prog, sizeof prog, 0xb00, want, calls, 0xb00, 0, 0);
}

static void a32_cond_trap_case(uint32_t acc, uc_err want)
{
	a32_cond_run(trap_engine(UC_MODE_ARM), &n_unmapped, acc, want);
}

/* 14. (the capture's block engine making device accesses in place:
 * capture/target.c cblk_mmio_read and cblk_mmio_write, capture/TARGET.md
 * "Device reads in the block engine") The device window mapped as MMIO in an engine with no code
 * hook, and uc_emu_stop called from the MMIO callback.  In A32, and
 * in Thumb outside an IT block, this abandons the accessor as the
 * unmapped trap of 9 does, but uc_emu_start returns UC_ERR_OK: the PC is
 * the block's start, the instructions before it have run, it has written
 * no register (neither a load's destination nor a writeback base), no
 * later one has run, and a run from it executes it once.  Inside an IT
 * block it does not abandon: a load there writes its register, a store
 * there is made, and Unicorn runs the rest of the translation block (the
 * ADDS and the B), stopping at the next one (0xa0c).  So a capture that
 * answered device reads in its block engine could turn back to per
 * instruction only outside IT blocks.  The programs are those of 9 and 13,
 * with the window MMIO-mapped; mmio_stop makes the callbacks stop. */
static int mmio_stop;

static uint64_t stop_rd(uc_engine *uc, uint64_t off, unsigned size, void *u)
{
	(void)off, (void)size, (void)u;
	n_stop_mmio++;
	if (mmio_stop)
		uc_emu_stop(uc);
	return 0x77;
}

static void stop_wr(uc_engine *uc, uint64_t off, unsigned size, uint64_t v, void *u)
{
	(void)off, (void)size, (void)v, (void)u;
	n_stop_mmio++;
	if (mmio_stop)
		uc_emu_stop(uc);
}

/* trap_engine's engine with a block hook and the window at 0x40000000 as
 * MMIO (stop_rd, stop_wr) */
static uc_engine *mmio_stop_engine(uc_mode mode)
{
	uc_engine *uc = trap_engine(mode);
	uc_hook h;
	CHECK_EQ(uc_hook_add(uc, &h, UC_HOOK_BLOCK, hblock, NULL, 1, 0), UC_ERR_OK);
	CHECK_EQ(uc_mmio_map(uc, 0x40000000, 0x1000, stop_rd, NULL, stop_wr, NULL), UC_ERR_OK);
	return uc;
}

/* 9's programs (BASE 0x800: ldr r0,[r1],#4; 0x900: str r0,[r1,#4]!) */
static void mmio_stop_case(uint32_t base, int load)
{
	uc_engine *uc = mmio_stop_engine(UC_MODE_ARM);
	trap_setup(uc);
	mmio_stop = 1;
	n_stop_mmio = 0;
	CHECK_EQ(uc_emu_start(uc, base, base + 0x10, 0, 0), UC_ERR_OK);
	CHECK_EQ(n_stop_mmio, 1);
	trap_check_abandoned(uc, base);
	/* on from the accessor, the callbacks not stopping: it runs once */
	mmio_stop = 0;
	CHECK_EQ(uc_emu_start(uc, base + 4, base + 0xc, 0, 0), UC_ERR_OK);
	CHECK_EQ(n_stop_mmio, 2);
	CHECK_EQ(rd(uc, UC_ARM_REG_R0), load ? 0x77 : 0x1234);
	CHECK_EQ(rd(uc, UC_ARM_REG_R1), 0x40000004);
	CHECK_EQ(rd(uc, UC_ARM_REG_R3), 1);
	uc_close(uc);
}

/* 13's programs with the window MMIO-mapped and the callbacks stopping */
static void it_mmio_stop_case(uint16_t it, uint16_t acc, uint32_t pc, uint32_t r1, uint32_t r4)
{
	mmio_stop = 1;
	it_run(mmio_stop_engine(UC_MODE_THUMB), &n_stop_mmio, it, acc, UC_ERR_OK, pc, r1, r4);
}

static void a32_cond_mmio_stop_case(uint32_t acc)
{
	mmio_stop = 1;
	a32_cond_run(mmio_stop_engine(UC_MODE_ARM), &n_stop_mmio, acc, UC_ERR_OK);
}

int main(void)
{
	uc_engine *uc = setup();

	/* 1. A32: registers and NZCV are current in a memory hook without a
	 * code hook; the whole run is one block. */
	reset_regs(uc);
	CHECK_EQ(uc_emu_start(uc, 0x100, 0x120, 0, 0), UC_ERR_OK);
	CHECK_EQ(n_blocks, 1);
	CHECK_EQ(blocks[0], 0x100);
	check_state_at_access(0x100);
	CHECK_EQ(rd(uc, UC_ARM_REG_R5), 0);

	/* 2. T32 with an IT block: the same, block start 0x400 (the Thumb bit
	 * is not part of the PC read). */
	reset_regs(uc);
	CHECK_EQ(uc_emu_start(uc, 0x400 | 1, 0x412, 0, 0), UC_ERR_OK);
	CHECK_EQ(n_blocks, 1);
	CHECK_EQ(blocks[0], 0x400);
	check_state_at_access(0x400);
	CHECK_EQ(rd(uc, UC_ARM_REG_R5), 0);
	CHECK_EQ(rd(uc, UC_ARM_REG_PC), 0x412);

	/* 3. uc_emu_stop in a block hook stops before the block's first
	 * instruction (the hook is emitted in front of gen_tb_start's exit
	 * check): PC is the block start, nothing of it ran. */
	uint32_t cpsr = 0x1d3; /* back to A32 */
	uc_reg_write(uc, UC_ARM_REG_CPSR, &cpsr);
	reset_regs(uc);
	stop_at = 0x300;
	CHECK_EQ(uc_emu_start(uc, 0x200, 0x304, 0, 0), UC_ERR_OK);
	CHECK_EQ(rd(uc, UC_ARM_REG_PC), 0x300);
	CHECK_EQ(rd(uc, UC_ARM_REG_R1), 1);
	CHECK_EQ(rd(uc, UC_ARM_REG_R2), 0);
	/* again with both blocks already translated */
	reset_regs(uc);
	CHECK_EQ(uc_emu_start(uc, 0x200, 0x304, 0, 0), UC_ERR_OK);
	CHECK_EQ(rd(uc, UC_ARM_REG_PC), 0x300);
	CHECK_EQ(rd(uc, UC_ARM_REG_R1), 1);
	CHECK_EQ(rd(uc, UC_ARM_REG_R2), 0);
	/* ... and for the very first block of a uc_emu_start */
	reset_regs(uc);
	stop_at = 0x200;
	CHECK_EQ(uc_emu_start(uc, 0x200, 0x304, 0, 0), UC_ERR_OK);
	CHECK_EQ(rd(uc, UC_ARM_REG_PC), 0x200);
	CHECK_EQ(rd(uc, UC_ARM_REG_R1), 0);
	/* with the stop lifted the run goes on from there */
	stop_at = 0;
	CHECK_EQ(uc_emu_start(uc, 0x200, 0x304, 0, 0), UC_ERR_OK);
	CHECK_EQ(rd(uc, UC_ARM_REG_R1), 1);
	CHECK_EQ(rd(uc, UC_ARM_REG_R2), 2);
	CHECK_EQ(rd(uc, UC_ARM_REG_PC), 0x304);

	/* 4. Stopping inside a block that is already translated.  The block
	 * 0x100..0x124 is translated by a run that ends at the udf (no exit
	 * inside it; UC_ERR_INSN_INVALID). */
	reset_regs(uc);
	CHECK_EQ(uc_emu_start(uc, 0x100, 0x500, 0, 0), UC_ERR_INSN_INVALID);
	CHECK_EQ(rd(uc, UC_ARM_REG_PC), 0x120);
	/* `until` is compiled into the translation (translate.c checks
	 * uc_addr_is_exit while translating), so an exit inside a cached block is
	 * run past: the run goes on to the udf. */
	reset_regs(uc);
	CHECK_EQ(uc_emu_start(uc, 0x100, 0x10c, 0, 0), UC_ERR_INSN_INVALID);
	CHECK_EQ(rd(uc, UC_ARM_REG_PC), 0x120);
	CHECK_EQ(n_recs, 3);
	/* After uc_ctl_remove_cache of the block the exit holds exactly.  (At
	 * its end every uc_emu_start invalidates the block holding until - 1,
	 * cpus.c resume_all_vcpus, so the code there is retranslated next time.) */
	reset_regs(uc);
	CHECK_EQ(uc_emu_start(uc, 0x100, 0x500, 0, 0), UC_ERR_INSN_INVALID);
	reset_regs(uc);
	CHECK_EQ(uc_ctl_remove_cache(uc, 0x100, 0x124), UC_ERR_OK);
	CHECK_EQ(uc_emu_start(uc, 0x100, 0x10c, 0, 0), UC_ERR_OK);
	CHECK_EQ(rd(uc, UC_ARM_REG_PC), 0x10c);
	CHECK_EQ(rd(uc, UC_ARM_REG_R0), 5);
	CHECK_EQ(n_recs, 1);
	/* An instruction count is no better: uc_emu_start adds its count code
	 * hook without dropping translations made before, so the cached block
	 * (no code hook in it) runs whole and the count is ignored; the memory
	 * hook's PC is still the block start. */
	reset_regs(uc);
	CHECK_EQ(uc_emu_start(uc, 0x100, 0x500, 0, 0), UC_ERR_INSN_INVALID);
	reset_regs(uc);
	CHECK_EQ(uc_emu_start(uc, 0x100, 0x500, 0, 3), UC_ERR_INSN_INVALID);
	CHECK_EQ(rd(uc, UC_ARM_REG_PC), 0x120);
	CHECK_EQ(n_recs, 3);
	CHECK_EQ(recs[0].pc, 0x100);
	/* With the block dropped first the count stops exactly, mid-block, and
	 * the memory hook's PC is the instruction's own (the count's code hook
	 * syncs it). */
	reset_regs(uc);
	CHECK_EQ(uc_ctl_remove_cache(uc, 0x100, 0x124), UC_ERR_OK);
	CHECK_EQ(uc_emu_start(uc, 0x100, 0x500, 0, 3), UC_ERR_OK);
	CHECK_EQ(rd(uc, UC_ARM_REG_PC), 0x10c);
	CHECK_EQ(n_recs, 1);
	CHECK_EQ(recs[0].pc, 0x108);
	/* 5. Access counts a decoded block would carry: one hook call per word
	 * of LDM (3) and LDRD (2), in ascending address order, also for PUSH
	 * (the lowest address first); an unaligned LDR (SCTLR.A = 0) is one
	 * 4-byte call at its unaligned address, not split. */
	reset_regs(uc);
	uint32_t sp = 0x2000;
	uc_reg_write(uc, UC_ARM_REG_SP, &sp);
	CHECK_EQ(uc_emu_start(uc, 0x500, 0x510, 0, 0), UC_ERR_OK);
	static const uint32_t want_addr[] = {0x1000, 0x1004, 0x1008, 0x1000, 0x1004, 0x1001, 0x1ff8, 0x1ffc};
	CHECK_EQ(n_recs, 8);
	for (int k = 0; k < 8 && k < n_recs; k++) {
		CHECK_EQ(recs[k].type, k < 6 ? UC_MEM_READ : UC_MEM_WRITE);
		CHECK_EQ(recs[k].addr, want_addr[k]);
		CHECK_EQ(recs[k].size, 4);
		CHECK_EQ(recs[k].pc, 0x500);
	}

	/* 6. What the block engine's mode change relies on (replay.c,
	 * blk_global).  With a code hook added and the translations flushed,
	 * every instruction gets its code hook, and uc_emu_stop in the block
	 * hook still stops before the block (none of its code hooks run), also
	 * for a block that loops to itself (0x600: subs r0; bne 0x600).  Here
	 * the PC is then the block's start, but in sha256's polling loop (an
	 * ldr from the device window, ands, bne to itself) replayed with the
	 * code hook it was the bne's address: the replayer does not read the PC
	 * after such a stop, it resumes at the address the block hook was given. */
	uc_hook ch;
	n_code = 0;
	CHECK_EQ(uc_hook_add(uc, &ch, UC_HOOK_CODE, hcode, NULL, 1, 0), UC_ERR_OK);
	CHECK_EQ(uc_ctl(uc, UC_CTL_WRITE(UC_CTL_TB_FLUSH, 0)), UC_ERR_OK);
	reset_regs(uc);
	stop_at = 0x300;
	CHECK_EQ(uc_emu_start(uc, 0x200, 0x304, 0, 0), UC_ERR_OK);
	CHECK_EQ(n_code, 2);
	CHECK_EQ(rd(uc, UC_ARM_REG_R1), 1);
	CHECK_EQ(rd(uc, UC_ARM_REG_R2), 0);
	CHECK_EQ(rd(uc, UC_ARM_REG_PC), 0x300);
	reset_regs(uc);
	uint32_t three = 3;
	uc_reg_write(uc, UC_ARM_REG_R0, &three);
	stop_at = 0x600;
	stop_nth = 2; /* the second time the loop's block starts */
	n_code = 0;
	CHECK_EQ(uc_emu_start(uc, 0x600, 0x60c, 0, 0), UC_ERR_OK);
	CHECK_EQ(n_code, 2);
	CHECK_EQ(rd(uc, UC_ARM_REG_R0), 2);
	stop_nth = 0;
	/* and back: the code hook deleted and the translations flushed, the
	 * block runs with no code hook call */
	stop_at = 0;
	CHECK_EQ(uc_hook_del(uc, ch), UC_ERR_OK);
	CHECK_EQ(uc_ctl(uc, UC_CTL_WRITE(UC_CTL_TB_FLUSH, 0)), UC_ERR_OK);
	n_code = 0;
	CHECK_EQ(uc_emu_start(uc, 0x300, 0x304, 0, 0), UC_ERR_OK);
	CHECK_EQ(n_code, 0);
	CHECK_EQ(rd(uc, UC_ARM_REG_R2), 2);
	/* 8. Device accesses (uc_mmio_map, not hooked by the RAM memory
	 * hooks): in the MMIO callbacks too, with no code hook, R0-R14 and NZCV
	 * are those in front of the accessing instruction (the block engine
	 * attributes device accesses as memory-hook calls). */
	CHECK_EQ(uc_ctl(uc, UC_CTL_WRITE(UC_CTL_TB_FLUSH, 0)), UC_ERR_OK);
	reset_regs(uc);
	uint32_t r6 = 0x100000;
	uc_reg_write(uc, UC_ARM_REG_R6, &r6);
	CHECK_EQ(uc_emu_start(uc, 0x700, 0x718, 0, 0), UC_ERR_OK);
	CHECK_EQ(n_mmio, 2);
	CHECK_EQ(mmio_r0[0], 5);
	CHECK_EQ(NZCV(mmio_cpsr[0]), 0x6);
	CHECK_EQ(mmio_r0[1], 7);
	CHECK_EQ(NZCV(mmio_cpsr[1]), 0x8);
	CHECK_EQ(rd(uc, UC_ARM_REG_R2), 0x55);
	/* 7. The block hook's size is the block's bytes, its last instruction
	 * included (the block engine retires size / 4 instructions): arm_prog
	 * is one block of nine instructions ending in the udf. */
	reset_regs(uc);
	n_blocks = 0;
	CHECK_EQ(uc_emu_start(uc, 0x100, 0x500, 0, 0), UC_ERR_INSN_INVALID);
	CHECK_EQ(n_blocks, 1);
	CHECK_EQ(block_size[0], 0x24);
	/* 9. Thumb blocks (the block engine decodes them, replay_block.c):
	 * one hook call per register of LDM.W, PUSH and POP, two for LDRD, one
	 * byte read for TBB's table, in order; the block is one of 18 bytes,
	 * the TBB last; and rblk_decode_t32 gives each instruction these
	 * counts. */
	reset_regs(uc);
	uc_reg_write(uc, UC_ARM_REG_SP, &sp);
	CHECK_EQ(uc_emu_start(uc, 0x801, 0x834, 0, 0), UC_ERR_OK);
	static const uint32_t t_addr[] = {0x1000, 0x1004, 0x1008, 0x1000, 0x1004, 0x1ff8, 0x1ffc, 0x1ff8, 0x1ffc, 0x1000};
	CHECK_EQ(n_recs, 10);
	for (int k = 0; k < 10 && k < n_recs; k++) {
		CHECK_EQ(recs[k].type, k == 5 || k == 6 ? UC_MEM_WRITE : UC_MEM_READ);
		CHECK_EQ(recs[k].addr, t_addr[k]);
		CHECK_EQ(recs[k].size, k == 9 ? 1 : 4);
	}
	CHECK_EQ(rd(uc, UC_ARM_REG_PC), 0x834);
	CHECK(n_blocks >= 1);
	CHECK_EQ(blocks[0], 0x800);
	CHECK_EQ(block_size[0], 18);
	static const unsigned t_nacc[] = {3, 2, 2, 2, 0, 1};
	for (unsigned k = 0, off = 0; k < 6; k++) {
		unsigned sz = (thumb_multi[off / 2] >> 11) >= 0x1d ? 4 : 2, nacc = 99;
		uint32_t w = thumb_multi[off / 2] | (sz == 4 ? (uint32_t)thumb_multi[off / 2 + 1] << 16 : 0);
		const char *why;
		CHECK_EQ(rblk_decode_t32(w, sz, &nacc, &why) & RBLK_PRECISE, 0);
		CHECK_EQ(nacc, t_nacc[k]);
		off += sz;
	}
	/* 10. CPU exceptions inside a block run without a code hook (capture/
	 * target.c, cblk_undef).  An instruction undefined only when it runs
	 * (PMCR read in User mode, PMUSERENR.EN = 0: the access check is a
	 * helper call) stops the run with UC_ERR_INSN_INVALID in the middle of
	 * its block: the PC is its own, the instructions before it executed,
	 * those after it not, and the block hook gave the whole block. */
	reset_regs(uc);
	uint32_t cpsr_svc = rd(uc, UC_ARM_REG_CPSR), cpsr_usr = (cpsr_svc & ~0x1fu) | 0x10;
	uc_reg_write(uc, UC_ARM_REG_CPSR, &cpsr_usr);
	CHECK_EQ(rd(uc, UC_ARM_REG_CPSR) & 0x1f, 0x10);
	CHECK_EQ(uc_emu_start(uc, 0xa00, 0xa10, 0, 0), UC_ERR_INSN_INVALID);
	CHECK_EQ(rd(uc, UC_ARM_REG_PC), 0xa04);
	CHECK_EQ(rd(uc, UC_ARM_REG_R2), 0x11);
	CHECK_EQ(rd(uc, UC_ARM_REG_R1), 0);
	CHECK_EQ(n_recs, 1);
	CHECK(n_blocks >= 1);
	CHECK_EQ(blocks[0], 0xa00);
	CHECK_EQ(block_size[0], 0x10);
	uc_reg_write(uc, UC_ARM_REG_CPSR, &cpsr_svc);
	/* SMC raises EXCP_SMC (13) through the interrupt hook with the PC
	 * already past it, where a later instruction of the block would be:
	 * so the decoder makes it (and HVC) precise, and the block runs per
	 * instruction. */
	reset_regs(uc);
	uc_hook ih;
	CHECK_EQ(uc_hook_add(uc, &ih, UC_HOOK_INTR, hintr, NULL, 1, 0), UC_ERR_OK);
	CHECK_EQ(uc_emu_start(uc, 0xb00, 0xb10, 0, 0), UC_ERR_OK);
	CHECK_EQ(intr_no, 13);
	CHECK_EQ(intr_pc, 0xb08);
	CHECK_EQ(rd(uc, UC_ARM_REG_R1), 1);
	CHECK_EQ(uc_hook_del(uc, ih), UC_ERR_OK);
	{
		unsigned nacc;
		const char *why;
		CHECK(rblk_decode_a32(0xe1600070, &nacc, &why) & RBLK_PRECISE);
		CHECK(rblk_decode_a32(0xe1400070, &nacc, &why) & RBLK_PRECISE);
		CHECK_EQ(rblk_decode_a32(0xe12fff1e, &nacc, &why) & RBLK_PRECISE, 0); /* bx lr */
	}
	/* 11. The state (CPSR.T) changes only at the last instruction of a
	 * translation block: BX, an ALU write and a load of the PC interwork
	 * and end their block, and the next block starts in Thumb (the capture's
	 * block hook reads CPSR only after a block whose last instruction might
	 * change it, machine/replay_block.h rblk_keeps_a32). */
	{
		uc_hook bt;
		CHECK_EQ(uc_hook_add(uc, &bt, UC_HOOK_BLOCK, hblock_t, NULL, 1, 0), UC_ERR_OK);
		static const uint32_t starts[] = {0xc00, 0xc10, 0xc20};
		uint32_t tgt = 0xd01;
		uc_mem_write(uc, 0x1010, &tgt, 4);
		for (int k = 0; k < 3; k++) {
			reset_regs(uc);
			uc_reg_write(uc, UC_ARM_REG_R1, &tgt);
			uc_reg_write(uc, UC_ARM_REG_CPSR, &cpsr_svc);
			n_t = 0;
			CHECK_EQ(uc_emu_start(uc, starts[k], 0xd10, 0, 0), UC_ERR_INSN_INVALID);
			CHECK_EQ(n_blocks, 2);
			CHECK_EQ(blocks[0], starts[k]);
			CHECK_EQ(block_size[0], 8);
			CHECK_EQ(blocks[1], 0xd00);
			CHECK_EQ(n_t, 2);
			CHECK_EQ(t_at[0], 0);
			CHECK_EQ(t_at[1], 1);
			CHECK_EQ(rd(uc, UC_ARM_REG_R2), 2);
		}
		CHECK_EQ(uc_hook_del(uc, bt), UC_ERR_OK);
	}
	/* 12. The per-block data rblk_get works out once (TARGET.md "The
	 * block engine", session 12): the memory-hook call total, a store
	 * inside an IT block (stop 45: a load there is no reason), and
	 * rblk_keeps_state.  By hand: IT EQ; LDR r2,[r3] (in the IT block, 1
	 * call); MOVS r0,#0; B . : 1 call, a load in an IT block, ends in a
	 * branch that keeps Thumb.  With STR r2,[r3] for the LDR: a store in
	 * the IT block.  With MOVS r1,#1 for the IT: the same without IT.  A32
	 * LDM r3,{r4-r6} (3); LDR r4,[r3,#1] (1); BX lr: 4 calls, may leave
	 * A32. */
	{
		struct rblk_cache bc;
		CHECK_EQ(rblk_cache_init(&bc, 4), 0);
		static const uint16_t t_it[] = {0xbf08, 0x681a, 0x2000, 0xe7fe};
		static const uint16_t t_no[] = {0x2101, 0x681a, 0x2000, 0xe7fe};
		static const uint16_t t_st[] = {0xbf08, 0x601a, 0x2000, 0xe7fe};
		static const uint32_t a_blk[] = {0xe8930070, 0xe5934001, 0xe12fff1e};
		/* rblk_t32_may_write by hand (a T32 word is its first halfword
		 * in bits 15:0): the stores, then the loads */
		static const struct {
			uint32_t w;
			unsigned size, wr;
		} mw[] = {{0x6011, 2, 1},	{0x7011, 2, 1},	     {0x8011, 2, 1},	  {0x9101, 2, 1},     {0x5011, 2, 1},
			  {0x5211, 2, 1},	{0x5411, 2, 1},	     {0xc006, 2, 1},	  {0xb510, 2, 1},     {0x1000f8c2, 4, 1},
			  {0x1000f882, 4, 1},	{0x0006e882, 4, 1},  {0x2300e9c2, 4, 1},  {0x6811, 2, 0},     {0x7811, 2, 0},
			  {0x8811, 2, 0},	{0x9901, 2, 0},	     {0x5611, 2, 0},	  {0x5811, 2, 0},     {0x5e11, 2, 0},
			  {0xc806, 2, 0},	{0xbd10, 2, 0},	     {0x4901, 2, 0},	  {0x1000f8d2, 4, 0}, {0x1000f892, 4, 0},
			  {0x0006e892, 4, 0},	{0x2300e9d2, 4, 0},  {0xf001e8d0, 4, 0}};
		for (size_t k = 0; k < sizeof mw / sizeof mw[0]; k++)
			CHECK_EQ((unsigned)rblk_t32_may_write(mw[k].w, mw[k].size), mw[k].wr);
		const struct rblk *b = rblk_get(&bc, 0x2000, sizeof t_it, 1, (const uint8_t *)t_it);
		CHECK(b != NULL && !b->precise);
		CHECK_EQ(b->n, 4);
		CHECK_EQ(b->nacc_total, 1);
		CHECK_EQ(b->it_store, 0);
		CHECK_EQ(b->keeps, 1);
		b = rblk_get(&bc, 0x2000, sizeof t_st, 1, (const uint8_t *)t_st); /* same slot, new bytes */
		CHECK(b != NULL && !b->precise);
		CHECK_EQ(b->nacc_total, 1);
		CHECK_EQ(b->it_store, 1);
		b = rblk_get(&bc, 0x2000, sizeof t_no, 1, (const uint8_t *)t_no);
		CHECK(b != NULL && !b->precise);
		CHECK_EQ(b->nacc_total, 1);
		CHECK_EQ(b->it_store, 0);
		CHECK_EQ(b->keeps, 1);
		b = rblk_get(&bc, 0x3000, sizeof a_blk, 0, (const uint8_t *)a_blk);
		CHECK(b != NULL && !b->precise);
		CHECK_EQ(b->n, 3);
		CHECK_EQ(b->nacc_total, 4);
		CHECK_EQ(b->it_store, 0);
		CHECK_EQ(b->keeps, 0);
		rblk_cache_fini(&bc);
	}
	uc_close(uc);
	trap_case(0x800, UC_ERR_READ_UNMAPPED, 1);
	trap_case(0x900, UC_ERR_WRITE_UNMAPPED, 0);
	it_trap_case(0xbf00, 0x6011, UC_ERR_WRITE_UNMAPPED, 0xa00, 0); /* nop; str r1,[r2] */
	it_trap_case(0xbf08, 0x6811, UC_ERR_READ_UNMAPPED, 0xa00, 0);  /* it eq; ldreq r1,[r2] */
	it_trap_case(0xbf08, 0x6011, UC_ERR_WRITE_UNMAPPED, 0xa0c, 1); /* it eq; streq r1,[r2] */
	a32_cond_trap_case(0x05821000, UC_ERR_WRITE_UNMAPPED);	       /* streq r1,[r2] */
	a32_cond_trap_case(0x05921000, UC_ERR_READ_UNMAPPED);	       /* ldreq r1,[r2] */
	mmio_stop_case(0x800, 1);
	mmio_stop_case(0x900, 0);
	it_mmio_stop_case(0xbf00, 0x6011, 0xa00, 0, 0);	   /* nop; str r1,[r2]: abandoned */
	it_mmio_stop_case(0xbf00, 0x6811, 0xa00, 0, 0);	   /* nop; ldr r1,[r2]: abandoned */
	it_mmio_stop_case(0xbf08, 0x6811, 0xa0c, 0x77, 1); /* it eq; ldreq r1,[r2]: loads, runs on */
	it_mmio_stop_case(0xbf08, 0x6011, 0xa0c, 0, 1);	   /* it eq; streq r1,[r2]: stores, runs on */
	a32_cond_mmio_stop_case(0x05821000);		   /* streq r1,[r2]: abandoned */
	a32_cond_mmio_stop_case(0x05921000);		   /* ldreq r1,[r2]: abandoned */
	CHECK_DONE();
}
