/* The Unicorn 2.0.1 behaviours the Cortex-M7 BusFault relies on
 * (capture/target_m7.c hook_unmapped_m7, replay/replay_m7.c, TARGET-M7.md
 * Faults), on UC_CPU_ARM_CORTEX_M7 in UC_MODE_THUMB | UC_MODE_MCLASS:
 *  - a data access to an unmapped address calls UC_HOOK_MEM_UNMAPPED
 *    (READ_UNMAPPED / WRITE_UNMAPPED, the address and size) after the code
 *    hook of the instruction; returning false ends uc_emu_start with
 *    UC_ERR_READ_UNMAPPED / UC_ERR_WRITE_UNMAPPED and PC on the faulting
 *    instruction;
 *  - the instruction does not complete: its destination register and a
 *    post-indexed base keep their values, the next instruction does not
 *    run, and the flags set by the instruction before it are in xPSR;
 *  - an ldm whose second word faults has written its first register (the
 *    base is not written back): partial state the capture and the replay
 *    both see, as ARMv7-M allows for an abandoned ldm;
 *  - uc_emu_start can be started again after the error, at another PC;
 *  - a PC the unmapped hook writes (the exception model's vector) is the
 *    PC uc_emu_start leaves: the run loop restarts there;
 *  - an instruction fetch from an unmapped address (IBUSERR) calls the hook
 *    with UC_MEM_FETCH_UNMAPPED and no code hook for that instruction; PC
 *    is the instruction's address in the hook and after uc_emu_start
 *    (UC_ERR_FETCH_UNMAPPED): the branch target, or for a 32-bit
 *    instruction whose second halfword lies past the end of memory, its
 *    first halfword (the hook's address is then the halfword after it). */
#include "check.h"

#include <string.h>
#include <unicorn/unicorn.h>

static uint32_t rd(uc_engine *uc, int r)
{
	uint32_t v = 0xdeadbeef;
	CHECK_EQ(uc_reg_read(uc, r, &v), UC_ERR_OK);
	return v;
}

static void wr(uc_engine *uc, int r, uint32_t v) { CHECK_EQ(uc_reg_write(uc, r, &v), UC_ERR_OK); }

static struct {
	int type, size, n;
	uint32_t addr, pc_code, pc_hook;
	uint32_t redirect; /* a PC the unmapped hook writes (0: none) */
} seen;

static bool hunmapped(uc_engine *uc, uc_mem_type type, uint64_t addr, int size, int64_t value, void *u)
{
	(void)value, (void)u;
	uc_reg_read(uc, UC_ARM_REG_PC, &seen.pc_hook);
	seen.type = type;
	seen.addr = (uint32_t)addr;
	seen.size = size;
	seen.n++;
	if (seen.redirect) {
		uint32_t pc = seen.redirect;
		uc_reg_write(uc, UC_ARM_REG_PC, &pc);
	}
	return false;
}

static void hcode(uc_engine *uc, uint64_t a, uint32_t s, void *u)
{
	(void)uc, (void)s, (void)u;
	seen.pc_code = (uint32_t)a;
}

#define UNTIL 0xFFFFFFF0u

int main(void)
{
	/* 100 2107       movs r1, #7
	 * 102 2907       cmp  r1, #7          Z, C
	 * 104 f850 2b04  ldr.w r2, [r0], #4   r0 unmapped
	 * 108 2303       movs r3, #3
	 * 10a 6001       str  r1, [r0]
	 * 10c c806       ldmia r0!, {r1, r2}
	 * 10e e7fe       b . */
	static const uint16_t prog[] = {0x2107, 0x2907, 0xf850, 0x2b04, 0x2303, 0x6001, 0xc806, 0xe7fe};
	uc_engine *uc = NULL;
	uc_hook h;
	CHECK_EQ(uc_open(UC_ARCH_ARM, UC_MODE_THUMB | UC_MODE_MCLASS, &uc), UC_ERR_OK);
	CHECK_EQ(uc_ctl_set_cpu_model(uc, UC_CPU_ARM_CORTEX_M7), UC_ERR_OK);
	CHECK_EQ(uc_mem_map(uc, 0, 1 << 20, UC_PROT_ALL), UC_ERR_OK);
	CHECK_EQ(uc_mem_write(uc, 0x100, prog, sizeof prog), UC_ERR_OK);
	CHECK_EQ(uc_hook_add(uc, &h, UC_HOOK_MEM_UNMAPPED, hunmapped, NULL, 1, 0), UC_ERR_OK);
	CHECK_EQ(uc_hook_add(uc, &h, UC_HOOK_CODE, hcode, NULL, 1, 0), UC_ERR_OK);
	wr(uc, UC_ARM_REG_XPSR, 0x01000000u);
	wr(uc, UC_ARM_REG_R0, 0x20000000u);
	wr(uc, UC_ARM_REG_R2, 0x22);
	wr(uc, UC_ARM_REG_R3, 0x33);

	/* the load */
	CHECK_EQ(uc_emu_start(uc, 0x101, UNTIL, 0, 0), UC_ERR_READ_UNMAPPED);
	CHECK_EQ(seen.n, 1);
	CHECK_EQ(seen.type, UC_MEM_READ_UNMAPPED);
	CHECK_EQ(seen.addr, 0x20000000u);
	CHECK_EQ(seen.size, 4);
	CHECK_EQ(seen.pc_code, 0x104);            /* its code hook ran */
	CHECK_EQ(rd(uc, UC_ARM_REG_PC), 0x104);   /* PC on it */
	CHECK_EQ(rd(uc, UC_ARM_REG_R2), 0x22);    /* no load */
	CHECK_EQ(rd(uc, UC_ARM_REG_R0), 0x20000000u); /* no write-back */
	CHECK_EQ(rd(uc, UC_ARM_REG_R3), 0x33);    /* the next did not run */
	CHECK_EQ(rd(uc, UC_ARM_REG_XPSR) & 0xF0000000u, 0x60000000u); /* Z C of the cmp */

	/* the store, started again after the error */
	CHECK_EQ(uc_emu_start(uc, 0x10b, UNTIL, 0, 0), UC_ERR_WRITE_UNMAPPED);
	CHECK_EQ(seen.n, 2);
	CHECK_EQ(seen.type, UC_MEM_WRITE_UNMAPPED);
	CHECK_EQ(seen.addr, 0x20000000u);
	CHECK_EQ(rd(uc, UC_ARM_REG_PC), 0x10a);

	/* ldm: the first word (0xffffc) is RAM, the second (0x100000) nothing */
	uint32_t w = 0xabcd;
	CHECK_EQ(uc_mem_write(uc, 0xffffc, &w, 4), UC_ERR_OK);
	wr(uc, UC_ARM_REG_R0, 0xffffc);
	wr(uc, UC_ARM_REG_R1, 0x11);
	CHECK_EQ(uc_emu_start(uc, 0x10d, UNTIL, 0, 0), UC_ERR_READ_UNMAPPED);
	CHECK_EQ(seen.addr, 0x100000u);
	CHECK_EQ(rd(uc, UC_ARM_REG_PC), 0x10c);
	CHECK_EQ(rd(uc, UC_ARM_REG_R1), 0xabcd); /* written */
	CHECK_EQ(rd(uc, UC_ARM_REG_R2), 0x22);
	CHECK_EQ(rd(uc, UC_ARM_REG_R0), 0xffffc);

	/* a PC written in the hook is where the run stopped */
	seen.redirect = 0x109;
	wr(uc, UC_ARM_REG_R0, 0x20000000u);
	CHECK_EQ(uc_emu_start(uc, 0x10b, UNTIL, 0, 0), UC_ERR_WRITE_UNMAPPED);
	CHECK_EQ(rd(uc, UC_ARM_REG_PC), 0x108);
	seen.redirect = 0;

	/* and it runs on at another PC */
	CHECK_EQ(uc_emu_start(uc, 0x109, UNTIL, 0, 1), UC_ERR_OK);
	CHECK_EQ(rd(uc, UC_ARM_REG_R3), 3);

	/* IBUSERR: 0x200 movs r1, #7; 0x202 bx r4 (r4 = 0x20000001, unmapped) */
	static const uint16_t jump[] = {0x2107, 0x4720};
	CHECK_EQ(uc_mem_write(uc, 0x200, jump, sizeof jump), UC_ERR_OK);
	wr(uc, UC_ARM_REG_R4, 0x20000001u);
	seen.n = 0;
	CHECK_EQ(uc_emu_start(uc, 0x201, UNTIL, 0, 0), UC_ERR_FETCH_UNMAPPED);
	CHECK_EQ(seen.n, 1);
	CHECK_EQ(seen.type, UC_MEM_FETCH_UNMAPPED);
	CHECK_EQ(seen.addr, 0x20000000u);
	CHECK_EQ(seen.pc_hook, 0x20000000u);
	CHECK_EQ(seen.pc_code, 0x202);                 /* the bx's code hook ran, none for the target */
	CHECK_EQ(rd(uc, UC_ARM_REG_PC), 0x20000000u);
	CHECK_EQ(rd(uc, UC_ARM_REG_XPSR) & (1u << 24), 1u << 24); /* T kept */

	/* a 32-bit ldr.w at 0xffffe whose second halfword is past the end */
	static const uint16_t tail[] = {0x2107, 0xf850};
	CHECK_EQ(uc_mem_write(uc, 0xffffc, tail, sizeof tail), UC_ERR_OK);
	CHECK_EQ(uc_emu_start(uc, 0xffffd, UNTIL, 0, 0), UC_ERR_FETCH_UNMAPPED);
	CHECK_EQ(seen.addr, 0x100000u);
	CHECK_EQ(seen.pc_hook, 0xffffeu);
	CHECK_EQ(seen.pc_code, 0xffffcu);
	CHECK_EQ(rd(uc, UC_ARM_REG_PC), 0xffffeu);

	/* the vector written in the hook is where the run goes on */
	seen.redirect = 0x109;
	CHECK_EQ(uc_emu_start(uc, 0x201, UNTIL, 0, 0), UC_ERR_FETCH_UNMAPPED);
	CHECK_EQ(rd(uc, UC_ARM_REG_PC), 0x108);
	seen.redirect = 0;
	CHECK_EQ(uc_emu_start(uc, 0x109, UNTIL, 0, 1), UC_ERR_OK);
	uc_close(uc);
	CHECK_DONE();
}
