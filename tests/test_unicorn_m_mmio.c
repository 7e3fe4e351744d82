/* The Unicorn 2.0.1 behaviours the Cortex-M7's device and SCS BusFaults
 * rely on (m7exc_precise_note / m7exc_precise_take, capture/target_m7.c,
 * replay/replay_m7.c; TARGET-M7.md "BusFault (device and SCS bus errors)"),
 * on UC_CPU_ARM_CORTEX_M7 in UC_MODE_THUMB | UC_MODE_MCLASS with a
 * uc_mmio_map region:
 *  - an MMIO read callback cannot fail the access: the instruction
 *    completes with the value the callback returns;
 *  - inside the callback the registers are current: PC is the instruction's
 *    address, its destination and a post-indexed base are not yet written
 *    (so saving them there and writing them back at the next code hook
 *    undoes the instruction);
 *  - an ldm's earlier registers are written before the callback of a later
 *    word (the partial state the unmapped path leaves too);
 *  - a load into PC that returns the instruction's own address | 1
 *    branches back to it (its code hook runs again, nothing else), while 0
 *    (T clear) ends uc_emu_start with UC_ERR_INSN_INVALID (INVSTATE): why the
 *    callback returns PC | 1;
 *  - uc_emu_stop called in the callback of a load inside an IT block
 *    does not stop there: the rest of the block runs (a condition-passed
 *    moveq executes, with its code hook), and the run ends only at the
 *    code hook of the first instruction after the block, before it
 *    executes.  Why a device or SCS bus error inside an IT block still
 *    stops the capture: the block's later instructions would have run,
 *    their stores and flag writes included, before the fault could be
 *    taken (TARGET-M7.md, "IT blocks and bus errors"). */
#include "check.h"

#include <unicorn/unicorn.h>

static uc_engine *uc;

static uint32_t rd(int r)
{
	uint32_t v = 0xdeadbeef;
	CHECK_EQ(uc_reg_read(uc, r, &v), UC_ERR_OK);
	return v;
}

static void wr(int r, uint32_t v) { CHECK_EQ(uc_reg_write(uc, r, &v), UC_ERR_OK); }

static struct {
	unsigned n, ncode;
	uint32_t off[4], pc[4], r0[4], r1[4], r2[4];
	uint32_t code[8];
	uint32_t ret;
} seen;

static int stop_in_read; /* the read callback calls uc_emu_stop (and the code hook never does) */

static uint64_t mread(uc_engine *u, uint64_t off, unsigned size, void *x)
{
	(void)size, (void)x;
	if (seen.n < 4) {
		seen.off[seen.n] = (uint32_t)off;
		seen.pc[seen.n] = rd(UC_ARM_REG_PC);
		seen.r0[seen.n] = rd(UC_ARM_REG_R0);
		seen.r1[seen.n] = rd(UC_ARM_REG_R1);
		seen.r2[seen.n] = rd(UC_ARM_REG_R2);
	}
	seen.n++;
	if (stop_in_read)
		uc_emu_stop(u);
	return seen.ret;
}

static void hcode(uc_engine *u, uint64_t a, uint32_t s, void *x)
{
	(void)s, (void)x;
	if (seen.ncode < 8)
		seen.code[seen.ncode] = (uint32_t)a;
	if (++seen.ncode >= 2 && !stop_in_read)
		uc_emu_stop(u);
}

static void reset(uint32_t r0, uint32_t ret)
{
	seen.n = seen.ncode = 0;
	seen.ret = ret;
	wr(UC_ARM_REG_R0, r0);
	wr(UC_ARM_REG_R1, 0x11);
	wr(UC_ARM_REG_R2, 0x22);
}

int main(void)
{
	/* 0 f850 2b04  ldr.w r2, [r0], #4
	 * 4 c806       ldmia r0!, {r1, r2}
	 * 6 f8d0 f000  ldr.w pc, [r0]
	 * a bf00       nop */
	static const uint16_t prog[] = {0xf850, 0x2b04, 0xc806, 0xf8d0, 0xf000, 0xbf00, 0xbf00, 0xbf00};
	uc_hook h;
	CHECK_EQ(uc_open(UC_ARCH_ARM, UC_MODE_THUMB | UC_MODE_MCLASS, &uc), UC_ERR_OK);
	CHECK_EQ(uc_ctl_set_cpu_model(uc, UC_CPU_ARM_CORTEX_M7), UC_ERR_OK);
	CHECK_EQ(uc_mem_map(uc, 0, 1 << 20, UC_PROT_ALL), UC_ERR_OK);
	CHECK_EQ(uc_mem_write(uc, 0, prog, sizeof prog), UC_ERR_OK);
	CHECK_EQ(uc_mmio_map(uc, 0x40000000u, 0x10000, mread, NULL, NULL, NULL), UC_ERR_OK);
	CHECK_EQ(uc_hook_add(uc, &h, UC_HOOK_CODE, hcode, NULL, 1, 0), UC_ERR_OK);
	wr(UC_ARM_REG_XPSR, 0x01000000u);
	wr(UC_ARM_REG_SP, 0x1000);

	/* ldr.w post-indexed: in the callback nothing written yet; after it
	 * the load and the write-back are made (the next code hook sees them) */
	reset(0x40000000u, 0x55);
	CHECK_EQ(uc_emu_start(uc, 0x1, 0xFFFFFFF0u, 0, 0), UC_ERR_OK);
	CHECK_EQ(seen.n, 1);
	CHECK_EQ(seen.off[0], 0);
	CHECK_EQ(seen.pc[0], 0);
	CHECK_EQ(seen.r0[0], 0x40000000u);
	CHECK_EQ(seen.r2[0], 0x22);
	CHECK_EQ(seen.code[1], 4);
	CHECK_EQ(rd(UC_ARM_REG_R2), 0x55);
	CHECK_EQ(rd(UC_ARM_REG_R0), 0x40000004u);

	/* ldm: r1 is written before the second word's callback; r0 after */
	reset(0x40000010u, 0x66);
	CHECK_EQ(uc_emu_start(uc, 0x5, 0xFFFFFFF0u, 0, 0), UC_ERR_OK);
	CHECK_EQ(seen.n, 2);
	CHECK_EQ(seen.off[1], 0x14);
	CHECK_EQ(seen.pc[1], 4);
	CHECK_EQ(seen.r1[0], 0x11);
	CHECK_EQ(seen.r1[1], 0x66);
	CHECK_EQ(seen.r2[1], 0x22);
	CHECK_EQ(seen.r0[1], 0x40000010u);
	CHECK_EQ(rd(UC_ARM_REG_R0), 0x40000018u);

	/* ldr.w pc returning its own address | 1: back to it, its code hook again */
	reset(0x40000020u, 0x7);
	CHECK_EQ(uc_emu_start(uc, 0x7, 0xFFFFFFF0u, 0, 0), UC_ERR_OK);
	CHECK_EQ(seen.n, 1);
	CHECK_EQ(seen.ncode, 2);
	CHECK_EQ(seen.code[0], 6);
	CHECK_EQ(seen.code[1], 6);
	CHECK_EQ(rd(UC_ARM_REG_XPSR) & (1u << 24), 1u << 24);

	/* returning 0 instead: T clear, the next instruction is INVSTATE */
	reset(0x40000020u, 0);
	CHECK_EQ(uc_emu_start(uc, 0x7, 0xFFFFFFF0u, 0, 0), UC_ERR_INSN_INVALID);

	/* 0x40 2800 cmp r0, #0;  0x42 bf06 itte eq;  0x44 6820 ldreq r0, [r4];
	 * 0x46 2101 moveq r1, #1;  0x48 2202 movne r2, #2;  0x4a 2303 movs r3, #3 */
	static const uint16_t blk[] = {0x2800, 0xbf06, 0x6820, 0x2101, 0x2202, 0x2303, 0xbf00, 0xbf00};
	CHECK_EQ(uc_mem_write(uc, 0x40, blk, sizeof blk), UC_ERR_OK);
	stop_in_read = 1;
	reset(0, 0x99);
	wr(UC_ARM_REG_R3, 0x33);
	wr(UC_ARM_REG_R4, 0x40000000u);
	wr(UC_ARM_REG_XPSR, 0x01000000u);
	CHECK_EQ(uc_emu_start(uc, 0x41, 0xFFFFFFF0u, 0, 0), UC_ERR_OK);
	CHECK_EQ(seen.n, 1);
	CHECK_EQ(seen.pc[0], 0x44);
	CHECK_EQ(rd(UC_ARM_REG_R0), 0x99);
	CHECK_EQ(rd(UC_ARM_REG_R1), 1);    /* the moveq after the read ran */
	CHECK_EQ(rd(UC_ARM_REG_R2), 0x22); /* the movne failed */
	CHECK_EQ(rd(UC_ARM_REG_R3), 0x33); /* stopped before the movs after the block */
	CHECK_EQ(rd(UC_ARM_REG_PC), 0x4a);
	CHECK_EQ(seen.ncode, 5);
	CHECK_EQ(seen.code[3], 0x46); /* the moveq's hook */
	CHECK_EQ(seen.code[4], 0x4a); /* the stop comes after this hook */
	uc_close(uc);
	CHECK_DONE();
}
