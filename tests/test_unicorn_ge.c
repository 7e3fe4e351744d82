/* What Unicorn 2.0.1 does with the GE bits of the Cortex-M7's xPSR
 * (UC_CPU_ARM_CORTEX_M7, UC_MODE_THUMB | UC_MODE_MCLASS): the facts
 * core_m7_write_xpsr (machine/core_m7.c) relies on, and the cause of two
 * defects found by issue 36's campaign (a segment starting at a checkpoint
 * with GE clear; an exception return keeping the handler's GE).  Pinned,
 * each by what SEL r0, r1, r2 selects (byte i from r1 when GE[i], else from
 * r2) and by what UC_ARM_REG_XPSR reads back:
 *  - UC_ARM_REG_XPSR written with GE[3:0] (bits 19:16) leaves GE as it was,
 *    both to set and to clear it; N Z C V Q are written;
 *  - UC_ARM_REG_APSR_NZCVQG writes GE (and the flags), and does not touch
 *    the EPSR's T bit;
 *  - core_m7_write_xpsr writes the whole of it. */
#include "check.h"
#include "core.h"

#include <unicorn/unicorn.h>

static uc_engine *uc;

static uint32_t rd(int r)
{
	uint32_t v = 0xdeadbeef;
	CHECK_EQ(uc_reg_read(uc, r, &v), UC_ERR_OK);
	return v;
}

static void wr(int r, uint32_t v) { CHECK_EQ(uc_reg_write(uc, r, &v), UC_ERR_OK); }

/* run SEL r0, r1, r2 at 0 (and stop at the b . after it); r0 */
static uint32_t sel(void)
{
	wr(UC_ARM_REG_R0, 0);
	wr(UC_ARM_REG_R1, 0x11223344u);
	wr(UC_ARM_REG_R2, 0xaabbccddu);
	CHECK_EQ(uc_emu_start(uc, 0 | 1, 4, 0, 0), UC_ERR_OK);
	return rd(UC_ARM_REG_R0);
}

#define GE(x) (((x) >> 16) & 0xfu)

int main(void)
{
	/* 0 faa1 f082 sel r0, r1, r2;  4 e7fe b . */
	static const uint16_t prog[] = {0xfaa1, 0xf082, 0xe7fe};
	const uint32_t t = 0x01000000u;
	CHECK_EQ(uc_open(UC_ARCH_ARM, UC_MODE_THUMB | UC_MODE_MCLASS, &uc), UC_ERR_OK);
	CHECK_EQ(uc_ctl_set_cpu_model(uc, UC_CPU_ARM_CORTEX_M7), UC_ERR_OK);
	CHECK_EQ(uc_mem_map(uc, 0, 1 << 20, UC_PROT_ALL), UC_ERR_OK);
	CHECK_EQ(uc_mem_write(uc, 0, prog, sizeof prog), UC_ERR_OK);

	/* from reset GE is clear: SEL takes every byte from r2 */
	CHECK_EQ(sel(), 0xaabbccddu);

	/* XPSR with GE = 0101 and N Z: the flags are written, GE is not */
	wr(UC_ARM_REG_XPSR, t | 0xc0000000u | 0x00050000u);
	CHECK_EQ(rd(UC_ARM_REG_XPSR) & 0xf8000000u, 0xc0000000u);
	CHECK_EQ(GE(rd(UC_ARM_REG_XPSR)), 0u);
	CHECK_EQ(sel(), 0xaabbccddu);

	/* APSR_NZCVQG writes GE: 0101 selects bytes 0 and 2 from r1 */
	wr(UC_ARM_REG_APSR_NZCVQG, 0x00050000u);
	CHECK_EQ(GE(rd(UC_ARM_REG_XPSR)), 5u);
	CHECK_EQ(rd(UC_ARM_REG_XPSR) & t, t); /* still Thumb */
	CHECK_EQ(sel(), 0xaa22cc44u);

	/* XPSR with GE clear leaves it set */
	wr(UC_ARM_REG_XPSR, t);
	CHECK_EQ(GE(rd(UC_ARM_REG_XPSR)), 5u);
	CHECK_EQ(sel(), 0xaa22cc44u);

	/* core_m7_write_xpsr writes it: clear, then 1010 */
	CHECK_EQ(core_m7_write_xpsr(uc, t), UC_ERR_OK);
	CHECK_EQ(GE(rd(UC_ARM_REG_XPSR)), 0u);
	CHECK_EQ(sel(), 0xaabbccddu);
	CHECK_EQ(core_m7_write_xpsr(uc, t | 0x20000000u | 0x000a0000u), UC_ERR_OK);
	CHECK_EQ(rd(UC_ARM_REG_XPSR) & 0xf80f0000u, 0x200a0000u);
	CHECK_EQ(sel(), 0x11bb33ddu);

	uc_close(uc);
	CHECK_DONE();
}
