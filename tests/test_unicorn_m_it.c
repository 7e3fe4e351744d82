/* What Unicorn 2.0.1 allows for resuming inside an IT block on the
 * Cortex-M7 (UC_CPU_ARM_CORTEX_M7, UC_MODE_THUMB | UC_MODE_MCLASS): the
 * facts a BusFault inside an IT block relies on (m7exc's it_entry and
 * it_return, capture/target_m7.c it_resume; TARGET-M7.md, "IT blocks and
 * bus errors").  Pinned:
 *  - XPSR written with IT bits (IT[1:0] at 26:25, IT[7:2] at 15:10) reads
 *    back with them;
 *  - uc_emu_start at an instruction in the middle of an IT block, with the
 *    ITSTATE of that instruction in XPSR, runs the rest of the block
 *    conditionally: with the condition true the instruction executes, with
 *    it false it gets no code hook and does nothing;
 *  - the same when XPSR and PC are written in a code hook outside the block
 *    (as an exception entry or a redirect would), and in the interrupt hook
 *    of an EXC_RETURN branch (interrupt 8, as m7exc_return writes the
 *    unstacked xPSR and PC): the run goes on inside the block, conditionally.
 *  - an instruction fetch from nothing inside a block (ittt ne running off
 *    the end of the mapped memory, both movne condition-failed): no code
 *    hook for the failed instructions, the unmapped hook reports
 *    UC_MEM_FETCH_UNMAPPED with the address and PC both on the instruction
 *    that could not be fetched, and uc_emu_start fails with
 *    UC_ERR_FETCH_UNMAPPED: what an IBUSERR inside an IT block relies on
 *    (the boundary at PC retires the failed ones first).
 * Not pinned here (test_unicorn_m.c has it): inside a block a code hook
 * reads no IT bits, and cannot stop or redirect before the block ends. */
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
	unsigned n;
	uint32_t code[8];
	uint32_t xpsr; /* written with PC = 0x7 at 0x20's code hook or at interrupt 8 */
	int redirect;
} seen;

static void hcode(uc_engine *u, uint64_t a, uint32_t s, void *x)
{
	(void)u, (void)s, (void)x;
	if (seen.n < 8)
		seen.code[seen.n] = (uint32_t)a;
	seen.n++;
	if (a == 0x20 && seen.redirect) {
		wr(UC_ARM_REG_XPSR, seen.xpsr);
		wr(UC_ARM_REG_PC, 0x7);
	}
}

static struct {
	int n, type;
	uint32_t addr, pc;
} un;

static bool hunmapped(uc_engine *u, uc_mem_type type, uint64_t addr, int size, int64_t value, void *x)
{
	(void)u, (void)size, (void)value, (void)x;
	un.n++;
	un.type = type;
	un.addr = (uint32_t)addr;
	un.pc = rd(UC_ARM_REG_PC);
	return false;
}

static void hintr(uc_engine *u, uint32_t intno, void *x)
{
	(void)u, (void)x;
	CHECK_EQ(intno, 8);
	wr(UC_ARM_REG_XPSR, seen.xpsr);
	wr(UC_ARM_REG_PC, 0x7);
}

/* ITSTATE 0x18 (ite eq after its first instruction: the movne's) with Z */
static uint32_t xpsr_it(int z)
{
	const uint32_t it = 0x18;
	return 0x01000000u | (z ? 0x40000000u : 0) | ((it & 3u) << 25) | ((it >> 2) << 10);
}

int main(void)
{
	/* 0 2800 cmp r0, #0;  2 bf0c ite eq;  4 2101 moveq r1, #1;
	 * 6 2102 movne r1, #2;  8 2209 movs r2, #9;  a e7fe b .
	 * 20 2301 movs r3, #1 (its code hook redirects)
	 * 40 4770 bx lr (EXC_RETURN in handler mode) */
	static const uint16_t prog[] = {0x2800, 0xbf0c, 0x2101, 0x2102, 0x2209, 0xe7fe};
	static const uint16_t at20[] = {0x2301, 0xe7fe}, at40[] = {0x4770, 0xe7fe};
	uc_hook h;
	CHECK_EQ(uc_open(UC_ARCH_ARM, UC_MODE_THUMB | UC_MODE_MCLASS, &uc), UC_ERR_OK);
	CHECK_EQ(uc_ctl_set_cpu_model(uc, UC_CPU_ARM_CORTEX_M7), UC_ERR_OK);
	CHECK_EQ(uc_mem_map(uc, 0, 1 << 20, UC_PROT_ALL), UC_ERR_OK);
	CHECK_EQ(uc_mem_write(uc, 0, prog, sizeof prog), UC_ERR_OK);
	CHECK_EQ(uc_mem_write(uc, 0x20, at20, sizeof at20), UC_ERR_OK);
	CHECK_EQ(uc_mem_write(uc, 0x40, at40, sizeof at40), UC_ERR_OK);
	CHECK_EQ(uc_hook_add(uc, &h, UC_HOOK_CODE, hcode, NULL, 1, 0), UC_ERR_OK);
	CHECK_EQ(uc_hook_add(uc, &h, UC_HOOK_INTR, hintr, NULL, 1, 0), UC_ERR_OK);

	for (int z = 0; z < 2; z++) {
		/* started there */
		wr(UC_ARM_REG_XPSR, xpsr_it(z));
		CHECK_EQ(rd(UC_ARM_REG_XPSR), xpsr_it(z));
		wr(UC_ARM_REG_R1, 0x77);
		seen.n = 0;
		seen.redirect = 0;
		CHECK_EQ(uc_emu_start(uc, 0x7, 0xa, 0, 0), UC_ERR_OK);
		CHECK_EQ(rd(UC_ARM_REG_R1), z ? 0x77 : 2);
		CHECK_EQ(seen.n, z ? 1 : 2); /* movne's hook only when it runs */
		CHECK_EQ(seen.code[0], z ? 8 : 6);
		CHECK_EQ(rd(UC_ARM_REG_R2), 9);

		/* from a code hook outside the block */
		wr(UC_ARM_REG_XPSR, 0x01000000u);
		wr(UC_ARM_REG_R1, 0x77);
		wr(UC_ARM_REG_R3, 0x55);
		seen.xpsr = xpsr_it(z);
		seen.n = 0;
		seen.redirect = 1;
		CHECK_EQ(uc_emu_start(uc, 0x21, 0xa, 0, 0), UC_ERR_OK);
		CHECK_EQ(rd(UC_ARM_REG_R1), z ? 0x77 : 2);
		CHECK_EQ(rd(UC_ARM_REG_R3), 0x55); /* the redirected movs r3 did not run */
		CHECK_EQ(seen.code[1], z ? 8 : 6);

		/* from the EXC_RETURN interrupt hook */
		wr(UC_ARM_REG_XPSR, 0x01000003u); /* handler mode, HardFault */
		wr(UC_ARM_REG_LR, 0xFFFFFFF9u);
		wr(UC_ARM_REG_R1, 0x77);
		seen.n = 0;
		seen.redirect = 0;
		CHECK_EQ(uc_emu_start(uc, 0x41, 0xa, 0, 0), UC_ERR_OK);
		CHECK_EQ(rd(UC_ARM_REG_R1), z ? 0x77 : 2);
		CHECK_EQ(seen.code[0], 0x40);
		CHECK_EQ(seen.code[1], z ? 8 : 6);
		CHECK_EQ(rd(UC_ARM_REG_XPSR) & 0x1ffu, 0); /* thread mode */
	}

	/* 0xffff8 2800 cmp r0, #0;  0xffffa bf1e ittt ne;  0xffffc 2101 movne r1, #1;
	 * 0xffffe 2202 movne r2, #2;  0x100000: nothing mapped */
	static const uint16_t atend[] = {0x2800, 0xbf1e, 0x2101, 0x2202};
	CHECK_EQ(uc_mem_write(uc, 0xffff8, atend, sizeof atend), UC_ERR_OK);
	CHECK_EQ(uc_hook_add(uc, &h, UC_HOOK_MEM_UNMAPPED, hunmapped, NULL, 1, 0), UC_ERR_OK);
	wr(UC_ARM_REG_XPSR, 0x01000000u);
	wr(UC_ARM_REG_R0, 0);
	wr(UC_ARM_REG_R1, 0x77);
	wr(UC_ARM_REG_R2, 0x77);
	seen.n = 0;
	seen.redirect = 0;
	CHECK_EQ(uc_emu_start(uc, 0xffff9, 0xFFFFFFF0u, 0, 0), UC_ERR_FETCH_UNMAPPED);
	CHECK_EQ(seen.n, 2); /* cmp and ittt: none for the failed movne */
	CHECK_EQ(seen.code[1], 0xffffa);
	CHECK_EQ(un.n, 1);
	CHECK_EQ(un.type, UC_MEM_FETCH_UNMAPPED);
	CHECK_EQ(un.addr, 0x100000);
	CHECK_EQ(un.pc, 0x100000);
	CHECK_EQ(rd(UC_ARM_REG_R1), 0x77);
	CHECK_EQ(rd(UC_ARM_REG_R2), 0x77);
	uc_close(uc);
	CHECK_DONE();
}
