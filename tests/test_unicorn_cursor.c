/* The Unicorn 2.0.1 behaviour the replay cursor (replay/cursor.c,
 * replay/CURSOR.md) relies on.  If an update of Debian's libunicorn
 * changes one of them, this test says which.
 *
 *  1. A context saved with uc_context_save (in a code hook or between
 *     runs) and restored with uc_context_restore gives back every register
 *     the cursor shows: r0-r15, the CPSR, the banked SP/LR/SPSR of another
 *     mode (A target); xPSR, MSP, PSP, PRIMASK, BASEPRI, FAULTMASK and
 *     CONTROL (Cortex-M7).  The context is a few KiB (uc_context_size).
 *  2. A context saved in the code hook of an instruction, restored after
 *     the run went on, with the PC written (bit 0: Thumb), resumes at that
 *     instruction: it runs again and gives the same result.
 *  3. Inside an IT block the stop a code hook asks for takes effect only
 *     after the block (tests/test_unicorn_m.c); but a run started at an
 *     instruction inside the block, with the block's ITSTATE written into
 *     the CPSR (A target, Thumb) or xPSR (M7) IT bits, executes the rest
 *     of the block under that state: the condition-passed instruction runs
 *     (with its code hook), the condition-failed one does not (no code
 *     hook).  The IT bits read back as written.
 *  4. Bytes of code changed in the RAM the caller maps (uc_mem_map_ptr),
 *     then uc_ctl_remove_cache over them: the new code runs. */
#include "check.h"

#include <stdlib.h>
#include <string.h>
#include <unicorn/unicorn.h>

static uint32_t rd(uc_engine *uc, int r)
{
	uint32_t v = 0xdeadbeef;
	CHECK_EQ(uc_reg_read(uc, r, &v), UC_ERR_OK);
	return v;
}

static void wr(uc_engine *uc, int r, uint32_t v) { CHECK_EQ(uc_reg_write(uc, r, &v), UC_ERR_OK); }

#define UNTIL 0xFFFFFFF0u

static uint32_t codes[64], ncode, stop_at;
static uc_context *hook_ctx;
static uint32_t save_at;

static void hcode(uc_engine *uc, uint64_t a, uint32_t s, void *u)
{
	(void)s, (void)u;
	if (ncode < 64)
		codes[ncode++] = (uint32_t)a;
	if (a == save_at && hook_ctx)
		CHECK_EQ(uc_context_save(uc, hook_ctx), UC_ERR_OK);
	if (a == stop_at)
		uc_emu_stop(uc);
}

/* 0x200, Thumb: movs r0,#0; cmp r0,#0; itte eq; moveq r1,#1; moveq r2,#2;
 * movne r3,#3; movs r4,#4; b . */
static const uint16_t itprog[] = {0x2000, 0x2800, 0xbf06, 0x2101, 0x2202, 0x2303, 0x2404, 0xe7fe};
/* 0x300, Thumb: adds r5, r5, #1; adds r5, r5, #1; b . */
static const uint16_t addprog[] = {0x1c6d, 0x1c6d, 0xe7fe};

static uint8_t *ram;

static uc_engine *open_core(int m7)
{
	uc_engine *uc = NULL;
	if (m7) {
		CHECK_EQ(uc_open(UC_ARCH_ARM, UC_MODE_THUMB | UC_MODE_MCLASS, &uc), UC_ERR_OK);
		CHECK_EQ(uc_ctl_set_cpu_model(uc, UC_CPU_ARM_CORTEX_M7), UC_ERR_OK);
	} else {
		CHECK_EQ(uc_open(UC_ARCH_ARM, UC_MODE_ARM, &uc), UC_ERR_OK);
		CHECK_EQ(uc_ctl_set_cpu_model(uc, UC_CPU_ARM_CORTEX_A9), UC_ERR_OK);
	}
	memset(ram, 0, 1 << 20);
	CHECK_EQ(uc_mem_map_ptr(uc, 0, 1 << 20, UC_PROT_ALL, ram), UC_ERR_OK);
	memcpy(ram + 0x200, itprog, sizeof itprog);
	memcpy(ram + 0x300, addprog, sizeof addprog);
	uc_hook h;
	CHECK_EQ(uc_hook_add(uc, &h, UC_HOOK_CODE, hcode, NULL, 1, 0), UC_ERR_OK);
	if (m7)
		wr(uc, UC_ARM_REG_XPSR, 0x01000000u);
	else
		wr(uc, UC_ARM_REG_CPSR, 0x1d3u | 0x20u); /* SVC mode, I and F masked, Thumb */
	wr(uc, UC_ARM_REG_R3, 0x3000);
	return uc;
}

static void part1_context(int m7)
{
	uc_engine *uc = open_core(m7);
	uc_context *ctx;
	CHECK_EQ(uc_context_alloc(uc, &ctx), UC_ERR_OK);
	size_t size = uc_context_size(uc);
	CHECK(size > 1000 && size < 65536);
	static const int gpr[16] = {UC_ARM_REG_R0, UC_ARM_REG_R1, UC_ARM_REG_R2,  UC_ARM_REG_R3,
				    UC_ARM_REG_R4, UC_ARM_REG_R5, UC_ARM_REG_R6,  UC_ARM_REG_R7,
				    UC_ARM_REG_R8, UC_ARM_REG_R9, UC_ARM_REG_R10, UC_ARM_REG_R11,
				    UC_ARM_REG_R12, UC_ARM_REG_SP, UC_ARM_REG_LR, UC_ARM_REG_PC};
	uint32_t want[32], got[32];
	int n = 0;
	if (m7) {
		/* the specials in handler mode (QEMU's MSR ignores them unprivileged) */
		wr(uc, UC_ARM_REG_XPSR, 0x01000003u);
		wr(uc, UC_ARM_REG_MSP, 0x8000);
		wr(uc, UC_ARM_REG_PSP, 0x7000);
		wr(uc, UC_ARM_REG_PRIMASK, 1);
		wr(uc, UC_ARM_REG_BASEPRI, 0x40);
		wr(uc, UC_ARM_REG_FAULTMASK, 1);
		wr(uc, UC_ARM_REG_CONTROL, 2);
		wr(uc, UC_ARM_REG_XPSR, 0x81000000u); /* thread mode: SP is PSP */
	} else {
		wr(uc, UC_ARM_REG_CPSR, 0x1d2u); /* IRQ mode: its banked SP, LR, SPSR */
		wr(uc, UC_ARM_REG_SP, 0x9000);
		wr(uc, UC_ARM_REG_LR, 0x9004);
		wr(uc, UC_ARM_REG_SPSR, 0x1d3u);
		wr(uc, UC_ARM_REG_CPSR, 0x1d3u); /* back to SVC */
		wr(uc, UC_ARM_REG_SP, 0xa000);
	}
	for (int i = 0; i < 13; i++)
		wr(uc, gpr[i], 0x100u + (uint32_t)i);
	CHECK_EQ(uc_context_save(uc, ctx), UC_ERR_OK);
	for (int i = 0; i < 16; i++)
		want[n++] = rd(uc, gpr[i]);
	if (m7) {
		static const int sp[7] = {UC_ARM_REG_XPSR, UC_ARM_REG_MSP, UC_ARM_REG_PSP, UC_ARM_REG_PRIMASK,
					  UC_ARM_REG_BASEPRI, UC_ARM_REG_FAULTMASK, UC_ARM_REG_CONTROL};
		for (int i = 0; i < 7; i++)
			want[n++] = rd(uc, sp[i]);
		wr(uc, UC_ARM_REG_XPSR, 0x01000003u);
		wr(uc, UC_ARM_REG_MSP, 1);
		wr(uc, UC_ARM_REG_PSP, 2);
		wr(uc, UC_ARM_REG_PRIMASK, 0);
		wr(uc, UC_ARM_REG_BASEPRI, 0);
		wr(uc, UC_ARM_REG_FAULTMASK, 0);
		wr(uc, UC_ARM_REG_CONTROL, 0);
	} else {
		want[n++] = rd(uc, UC_ARM_REG_CPSR);
		wr(uc, UC_ARM_REG_CPSR, 0x1d2u);
		want[n++] = rd(uc, UC_ARM_REG_SP);
		want[n++] = rd(uc, UC_ARM_REG_LR);
		want[n++] = rd(uc, UC_ARM_REG_SPSR);
		wr(uc, UC_ARM_REG_SP, 1);
		wr(uc, UC_ARM_REG_LR, 2);
		wr(uc, UC_ARM_REG_SPSR, 0x1d0u);
		wr(uc, UC_ARM_REG_CPSR, 0x1d3u);
	}
	for (int i = 0; i < 16; i++)
		wr(uc, gpr[i], 0xdead0000u + (uint32_t)i);
	CHECK_EQ(uc_context_restore(uc, ctx), UC_ERR_OK);
	int k = 0;
	for (int i = 0; i < 16; i++)
		got[k++] = rd(uc, gpr[i]);
	if (m7) {
		static const int sp[7] = {UC_ARM_REG_XPSR, UC_ARM_REG_MSP, UC_ARM_REG_PSP, UC_ARM_REG_PRIMASK,
					  UC_ARM_REG_BASEPRI, UC_ARM_REG_FAULTMASK, UC_ARM_REG_CONTROL};
		for (int i = 0; i < 7; i++)
			got[k++] = rd(uc, sp[i]);
	} else {
		got[k++] = rd(uc, UC_ARM_REG_CPSR);
		wr(uc, UC_ARM_REG_CPSR, 0x1d2u);
		got[k++] = rd(uc, UC_ARM_REG_SP);
		got[k++] = rd(uc, UC_ARM_REG_LR);
		got[k++] = rd(uc, UC_ARM_REG_SPSR);
	}
	CHECK_EQ(k, n);
	for (int i = 0; i < n; i++)
		CHECK_EQ(got[i], want[i]);
	uc_context_free(ctx);
	uc_close(uc);
}

static void part2_resume(int m7)
{
	uc_engine *uc = open_core(m7);
	CHECK_EQ(uc_context_alloc(uc, &hook_ctx), UC_ERR_OK);
	wr(uc, UC_ARM_REG_R5, 10);
	ncode = 0;
	save_at = 0x302;
	stop_at = 0x304;
	CHECK_EQ(uc_emu_start(uc, 0x301, UNTIL, 0, 0), UC_ERR_OK);
	CHECK_EQ(rd(uc, UC_ARM_REG_R5), 12);
	/* back to the second adds, saved in its code hook: it runs again */
	CHECK_EQ(uc_context_restore(uc, hook_ctx), UC_ERR_OK);
	CHECK_EQ(rd(uc, UC_ARM_REG_R5), 11);
	wr(uc, UC_ARM_REG_PC, 0x303);
	save_at = 0;
	ncode = 0;
	CHECK_EQ(uc_emu_start(uc, 0x303, UNTIL, 0, 0), UC_ERR_OK);
	CHECK_EQ(rd(uc, UC_ARM_REG_R5), 12);
	CHECK_EQ(ncode, 2); /* 302 304 */
	CHECK_EQ(codes[0], 0x302);
	uc_context_free(hook_ctx);
	hook_ctx = NULL;
	uc_close(uc);
}

static void part3_it(int m7)
{
	uc_engine *uc = open_core(m7);
	int reg = m7 ? UC_ARM_REG_XPSR : UC_ARM_REG_CPSR;
	/* itte eq at 0x204 (firstcond eq, mask 0b0110): the second instruction
	 * of the block, moveq r2 at 0x208, has ITSTATE 0x0c; Z = 1 */
	uint32_t it = 0x0c;
	uint32_t psr = (rd(uc, reg) & ~0x0600fc00u) | 0x40000000u | ((it & 3u) << 25) | ((it >> 2) << 10);
	wr(uc, reg, psr);
	CHECK_EQ(rd(uc, reg) & 0x0600fc00u, ((it & 3u) << 25) | ((it >> 2) << 10));
	ncode = 0;
	stop_at = 0;
	CHECK_EQ(uc_emu_start(uc, 0x209, 0x20e, 0, 0), UC_ERR_OK);
	CHECK_EQ(rd(uc, UC_ARM_REG_R2), 2);      /* moveq ran */
	CHECK_EQ(rd(uc, UC_ARM_REG_R3), 0x3000); /* movne did not */
	CHECK_EQ(rd(uc, UC_ARM_REG_R4), 4);
	CHECK_EQ(ncode, 2); /* 208 20c: no hook for the condition-failed 20a */
	CHECK_EQ(codes[0], 0x208);
	CHECK_EQ(codes[1], 0x20c);
	uc_close(uc);
}

static void part4_code_change(void)
{
	uc_engine *uc = open_core(0);
	wr(uc, UC_ARM_REG_R5, 0);
	ncode = 0;
	stop_at = 0x304;
	CHECK_EQ(uc_emu_start(uc, 0x301, UNTIL, 0, 0), UC_ERR_OK);
	CHECK_EQ(rd(uc, UC_ARM_REG_R5), 2);
	/* adds r5, r5, #2 twice instead, behind Unicorn's back */
	static const uint16_t two[] = {0x1cad, 0x1cad};
	memcpy(ram + 0x300, two, sizeof two);
	CHECK_EQ(uc_ctl_remove_cache(uc, 0x300, 0x306), UC_ERR_OK);
	wr(uc, UC_ARM_REG_R5, 0);
	CHECK_EQ(uc_emu_start(uc, 0x301, UNTIL, 0, 0), UC_ERR_OK);
	CHECK_EQ(rd(uc, UC_ARM_REG_R5), 4);
	uc_close(uc);
}

int main(void)
{
	ram = aligned_alloc(4096, 1 << 20);
	for (int m7 = 0; m7 < 2; m7++) {
		part1_context(m7);
		part2_resume(m7);
		part3_it(m7);
	}
	part4_code_change();
	free(ram);
	CHECK_DONE();
}
