/* What Unicorn 2.0.1 does in Thumb state, pinned for the capture model and
 * the replayer (machine/thumb.h, TARGET.md "CPU"), and the IRQ entry from
 * Thumb state (machine/armcore.c) against values worked out by hand.
 *
 * Found (Debian's libunicorn 2.0.1):
 *  - uc_emu_start's begin address selects the state by bit 0; a write of
 *    the PC does too (an even PC switches to ARM state, whatever CPSR.T);
 *    a CPSR write with T = 1 switches to Thumb state.
 *  - Code hooks get the even address and the size (2 or 4); the PC read in
 *    a hook is that address; CPSR.T reads 1 there.
 *  - An instruction of an IT block whose condition fails gets NO code hook,
 *    and CPSR.IT reads 0 in the hooks inside an IT block: Unicorn keeps
 *    ITSTATE in its translated code.  The model follows ITSTATE itself.
 *  - The until address is compared with the PC without the Thumb bit.
 *  - WFI in Thumb state ends uc_emu_start with the PC after it, as in ARM.
 *  - bx/blx interwork both ways.
 *  - SCTLR (CP15 c1, c0, 0) reads and writes through UC_ARM_REG_CP_REG
 *    (uc_arm_cp_reg, cp 15, crn 1, crm 0, opc1 0, opc2 0); TE (bit 30) is 0
 *    at reset, a write through the interface is what the guest's MRC then
 *    reads, and the guest's MCR is what the interface then reads: capture
 *    and replay read the live value the same way (arm_sctlr_te).
 *    Unicorn never looks at TE itself (it takes no exceptions for us):
 *    arm_take_exception sets CPSR.T = TE and writes the vector with bit 0
 *    set, since an even PC write would switch back to ARM state. */
#include "armcore.h"
#include "check.h"
#include "thumb.h"

#include <string.h>
#include <unicorn/unicorn.h>

/* Thumb at 0x1000 (arm-none-eabi-as -mcpu=cortex-a9):
 *  1000 2001      movs r0, #1
 *  1002 f241 2134 movw r1, #0x1234
 *  1006 2801      cmp r0, #1
 *  1008 bf0c      ite eq
 *  100a 2207      moveq r2, #7
 *  100c 2209      movne r2, #9      (condition fails: no code hook)
 *  100e 1c53      adds r3, r2, #1
 *  1010 bf30      wfi
 *  1012 2606      movs r6, #6
 *  1014 4720      bx r4             (r4 = 0x1040: to ARM)
 *  1016 e7fe      b .
 * ARM at 0x1040: mov r5, #5; bx lr (lr = 0x1017: back to Thumb at 0x1016)
 * ARM at 0x0018 (IRQ vector): mov r7, #0x77; subs pc, lr, #4 */
static const uint8_t thumb_code[] = {0x01, 0x20, 0x41, 0xf2, 0x34, 0x21, 0x01, 0x28, 0x0c, 0xbf, 0x07, 0x22,
				     0x09, 0x22, 0x53, 0x1c, 0x30, 0xbf, 0x06, 0x26, 0x20, 0x47, 0xfe, 0xe7};
static const uint32_t arm_code[] = {0xe3a05005, 0xe12fff1e};
static const uint32_t vec_code[] = {0xe3a07077, 0xe25ef004};

static uint32_t seen_a[64], seen_size[64], seen_pc[64], seen_cpsr[64];
static unsigned nseen;
static int irq_at_1002, irq_taken;
static uint32_t irq_epc; /* another boundary to take the IRQ at (0: none) */
static uint32_t h_lr, h_spsr, h_cpsr;

static uint32_t rd(uc_engine *uc, int r)
{
	uint32_t v;
	uc_reg_read(uc, r, &v);
	return v;
}

static void hcode(uc_engine *uc, uint64_t a, uint32_t s, void *u)
{
	(void)u;
	if (nseen < 64) {
		seen_a[nseen] = (uint32_t)a;
		seen_size[nseen] = s;
		seen_pc[nseen] = rd(uc, UC_ARM_REG_PC);
		seen_cpsr[nseen] = rd(uc, UC_ARM_REG_CPSR);
		nseen++;
	}
	if (a == 0x18) {
		h_lr = rd(uc, UC_ARM_REG_LR);
		h_spsr = rd(uc, UC_ARM_REG_SPSR);
		h_cpsr = rd(uc, UC_ARM_REG_CPSR);
	}
	if (irq_at_1002 && a == 0x1002 && !irq_taken) {
		irq_taken = 1;
		CHECK_EQ(arm_take_irq(uc, 0x1002), 0);
	}
	if (irq_epc && a == irq_epc && !irq_taken) {
		irq_taken = 1;
		CHECK_EQ(arm_take_irq(uc, irq_epc), 0);
	}
	if (a == 0x1016)
		uc_emu_stop(uc);
}

/* Issue 14: a block hook's view of the state (blk_*), checked in every
 * code hook of that block against CPSR.T there (blk_bad counts misses). */
static uint32_t blk_a, blk_size, blk_t, blk_hooks;
static unsigned blk_bad, blk_codes;

static void hblock(uc_engine *uc, uint64_t a, uint32_t s, void *u)
{
	(void)u;
	blk_a = (uint32_t)a;
	blk_size = s;
	blk_t = (rd(uc, UC_ARM_REG_CPSR) >> 5) & 1;
	blk_hooks++;
}

static void hcode_blk(uc_engine *uc, uint64_t a, uint32_t s, void *u)
{
	(void)s;
	(void)u;
	blk_codes++;
	if (((rd(uc, UC_ARM_REG_CPSR) >> 5) & 1) != blk_t || a < blk_a || a >= (uint64_t)blk_a + blk_size)
		blk_bad++;
	if (a == 0x1016)
		uc_emu_stop(uc);
}

static uc_engine *setup(void)
{
	uc_engine *uc;
	uc_open(UC_ARCH_ARM, UC_MODE_ARM, &uc);
	uc_ctl_set_cpu_model(uc, UC_CPU_ARM_CORTEX_A9);
	uc_mem_map(uc, 0, 1 << 20, UC_PROT_ALL);
	uc_mem_write(uc, 0x1000, thumb_code, sizeof thumb_code);
	uc_mem_write(uc, 0x1040, arm_code, sizeof arm_code);
	uc_mem_write(uc, 0x18, vec_code, sizeof vec_code);
	uint32_t r4 = 0x1040, lr = 0x1017;
	uc_reg_write(uc, UC_ARM_REG_R4, &r4);
	uc_reg_write(uc, UC_ARM_REG_LR, &lr);
	uc_hook h;
	uc_hook_add(uc, &h, UC_HOOK_CODE, hcode, NULL, 1, 0);
	nseen = 0;
	return uc;
}

static int seen(uint32_t a)
{
	for (unsigned i = 0; i < nseen; i++)
		if (seen_a[i] == a)
			return (int)i;
	return -1;
}

int main(void)
{
	/* Thumb execution from an odd begin address; hook addresses, sizes,
	 * PC and CPSR.T in hooks; the skipped condition-failed IT instruction;
	 * WFI ending the run with the PC after it. */
	uc_engine *uc = setup();
	CHECK_EQ(uc_emu_start(uc, 0x1001, 0x2000, 0, 0), UC_ERR_OK);
	CHECK_EQ(rd(uc, UC_ARM_REG_PC), 0x1012); /* stopped by the WFI at 0x1010 */
	CHECK_EQ(rd(uc, UC_ARM_REG_R2), 7);
	CHECK_EQ(rd(uc, UC_ARM_REG_R3), 8);
	static const uint32_t want_a[] = {0x1000, 0x1002, 0x1006, 0x1008, 0x100a, 0x100e, 0x1010};
	static const uint32_t want_s[] = {2, 4, 2, 2, 2, 2, 2};
	CHECK_EQ(nseen, 7); /* 0x100c (movne, condition fails) has no hook */
	for (unsigned i = 0; i < 7 && i < nseen; i++) {
		CHECK_EQ(seen_a[i], want_a[i]);
		CHECK_EQ(seen_size[i], want_s[i]);
		CHECK_EQ(seen_pc[i], want_a[i]);
		CHECK(seen_cpsr[i] & ARM_CPSR_T);
		CHECK_EQ(seen_size[i], thumb_size((uint16_t)(thumb_code[want_a[i] - 0x1000] |
							    thumb_code[want_a[i] - 0x1000 + 1] << 8)));
	}
	/* inside the IT block (0x100a) CPSR.IT (bits 26..25, 15..10) reads 0 */
	CHECK_EQ(seen_cpsr[4] & 0x0600fc00u, 0);
	CHECK(seen(0x100c) < 0);
	/* the PC read after the run has no Thumb bit; CPSR.T says the state */
	CHECK(rd(uc, UC_ARM_REG_CPSR) & ARM_CPSR_T);
	CHECK_EQ(thumb_resume_pc(uc), 0x1013);
	/* continue: bx r4 to ARM, bx lr back to Thumb */
	nseen = 0;
	CHECK_EQ(uc_emu_start(uc, thumb_resume_pc(uc), 0x2000, 0, 0), UC_ERR_OK);
	CHECK_EQ(rd(uc, UC_ARM_REG_R6), 6);
	CHECK_EQ(rd(uc, UC_ARM_REG_R5), 5);
	int i = seen(0x1040);
	CHECK(i >= 0);
	if (i >= 0) {
		CHECK_EQ(seen_size[i], 4);
		CHECK(!(seen_cpsr[i] & ARM_CPSR_T));
	}
	i = seen(0x1016);
	CHECK(i >= 0);
	if (i >= 0) {
		CHECK_EQ(seen_size[i], 2);
		CHECK(seen_cpsr[i] & ARM_CPSR_T);
	}
	/* register writes: CPSR.T = 1 switches to Thumb; an even PC write
	 * switches back to ARM; an odd one to Thumb */
	uint32_t c = rd(uc, UC_ARM_REG_CPSR) & ~ARM_CPSR_T, pc = 0x1000;
	uc_reg_write(uc, UC_ARM_REG_CPSR, &c);
	CHECK(!(rd(uc, UC_ARM_REG_CPSR) & ARM_CPSR_T));
	c |= ARM_CPSR_T;
	uc_reg_write(uc, UC_ARM_REG_CPSR, &c);
	CHECK(rd(uc, UC_ARM_REG_CPSR) & ARM_CPSR_T);
	uc_reg_write(uc, UC_ARM_REG_PC, &pc);
	CHECK(!(rd(uc, UC_ARM_REG_CPSR) & ARM_CPSR_T));
	pc = 0x1001;
	uc_reg_write(uc, UC_ARM_REG_PC, &pc);
	CHECK(rd(uc, UC_ARM_REG_CPSR) & ARM_CPSR_T);
	CHECK_EQ(rd(uc, UC_ARM_REG_PC), 0x1000);
	uc_close(uc);

	/* The until address is compared without the Thumb bit: an even until
	 * ends a Thumb run there. */
	uc = setup();
	CHECK_EQ(uc_emu_start(uc, 0x1001, 0x1008, 0, 0), UC_ERR_OK);
	CHECK_EQ(rd(uc, UC_ARM_REG_PC), 0x1008);
	CHECK_EQ(seen(0x1008), -1);
	uc_close(uc);

	/* IRQ entry from Thumb state at EPC 0x1002 (a 32-bit instruction), by
	 * hand: CPSR there is 0x000001F3 (SVC, T, A I F masked bits as at
	 * reset, flags cleared by movs r0,#1).  SPSR_irq = 0x000001F3 (T kept);
	 * CPSR = 0x000001D2 (IRQ mode, ARM state, A I F set); LR_irq = EPC + 4
	 * = 0x1006; PC = 0x18.  The handler's subs pc, lr, #4 returns to
	 * 0x1002 in Thumb state, and the interrupted instruction runs then. */
	uc = setup();
	irq_at_1002 = 1;
	uint32_t cpsr0 = 0x000001d3; /* SVC, A I F set, ARM; flags 0 */
	uc_reg_write(uc, UC_ARM_REG_CPSR, &cpsr0);
	CHECK_EQ(uc_emu_start(uc, 0x1001, 0x2000, 0, 0), UC_ERR_OK); /* to the WFI */
	CHECK_EQ(h_lr, 0x1006);
	CHECK_EQ(h_spsr, 0x000001f3);
	CHECK_EQ(h_cpsr, 0x000001d2);
	i = seen(0x18);
	CHECK(i >= 0);
	if (i >= 0 && i + 2 < (int)nseen) {
		CHECK_EQ(seen_size[i], 4);
		CHECK_EQ(seen_a[i + 2], 0x1002); /* back at EPC after mov r7; subs pc */
		CHECK_EQ(seen_size[i + 2], 4);
		CHECK(seen_cpsr[i + 2] & ARM_CPSR_T);
		CHECK_EQ(seen_cpsr[i + 2] & 0x1f, 0x13);
	}
	CHECK_EQ(rd(uc, UC_ARM_REG_R7), 0x77);
	CHECK_EQ(rd(uc, UC_ARM_REG_R1), 0x1234);
	CHECK_EQ(rd(uc, UC_ARM_REG_R2), 7);
	uc_close(uc);

	/* SCTLR through the CP-register interface, and the guest's view of it. */
	uc = setup();
	uc_arm_cp_reg sc = {.cp = 15, .crn = 1, .crm = 0, .opc1 = 0, .opc2 = 0};
	CHECK_EQ(uc_reg_read(uc, UC_ARM_REG_CP_REG, &sc), UC_ERR_OK);
	uint64_t sctlr0 = sc.val;
	CHECK_EQ(sctlr0 & ARM_SCTLR_TE, 0); /* reset: exceptions in ARM state */
	CHECK_EQ(arm_sctlr_te(uc), 0);
	CHECK_EQ(arm_set_sctlr_te(uc, 1), 0);
	CHECK_EQ(arm_sctlr_te(uc), 1);
	CHECK_EQ(uc_reg_read(uc, UC_ARM_REG_CP_REG, &sc), UC_ERR_OK);
	CHECK_EQ(sc.val, sctlr0 | ARM_SCTLR_TE); /* no other bit changed */
	/* ARM at 0x1100: mrc p15,0,r0,c1,c0,0; bic r0,r0,#TE; mcr p15,0,r0,c1,c0,0 */
	static const uint32_t mcr_code[] = {0xee110f10, 0xe3c00101, 0xee010f10};
	uc_mem_write(uc, 0x1100, mcr_code, sizeof mcr_code);
	CHECK_EQ(uc_emu_start(uc, 0x1100, 0x1104, 0, 0), UC_ERR_OK); /* the MRC sees the interface's write */
	CHECK_EQ(rd(uc, UC_ARM_REG_R0), (uint32_t)(sctlr0 | ARM_SCTLR_TE));
	CHECK_EQ(uc_emu_start(uc, 0x1104, 0x110c, 0, 0), UC_ERR_OK); /* the MCR clears TE */
	CHECK_EQ(arm_sctlr_te(uc), 0);
	CHECK_EQ(arm_set_sctlr_te(uc, 0), 0);
	CHECK_EQ(arm_sctlr_te(uc), 0);
	uc_close(uc);

	/* IRQ entry with SCTLR.TE = 1 (handlers in Thumb state), from Thumb
	 * state at EPC 0x1002, by hand: CPSR there 0x000001F3 as above.
	 * SPSR_irq = 0x000001F3 (T kept); CPSR = 0x000001F2 (IRQ mode, A I F
	 * set, T = TE = 1); LR_irq = EPC + 4 = 0x1006; PC = 0x18 in Thumb
	 * state, where the handler is Thumb-2:
	 *   0018 2777      movs r7, #0x77
	 *   001a f3de 8f04 subs pc, lr, #4   (back to 0x1002, Thumb, SVC) */
	static const uint8_t tvec_code[] = {0x77, 0x27, 0xde, 0xf3, 0x04, 0x8f};
	uc = setup();
	uc_mem_write(uc, 0x18, tvec_code, sizeof tvec_code);
	CHECK_EQ(arm_set_sctlr_te(uc, 1), 0);
	irq_at_1002 = 0;
	irq_taken = 0;
	irq_epc = 0x1002;
	uc_reg_write(uc, UC_ARM_REG_CPSR, &cpsr0);
	CHECK_EQ(uc_emu_start(uc, 0x1001, 0x2000, 0, 0), UC_ERR_OK); /* to the WFI */
	CHECK_EQ(irq_taken, 1);
	CHECK_EQ(h_lr, 0x1006);
	CHECK_EQ(h_spsr, 0x000001f3);
	CHECK_EQ(h_cpsr, 0x000001f2);
	i = seen(0x18);
	CHECK(i >= 0);
	if (i >= 0 && i + 2 < (int)nseen) {
		CHECK_EQ(seen_size[i], 2); /* a 16-bit Thumb instruction at the vector */
		CHECK(seen_cpsr[i] & ARM_CPSR_T);
		CHECK_EQ(seen_a[i + 1], 0x1a);
		CHECK_EQ(seen_size[i + 1], 4);
		CHECK_EQ(seen_a[i + 2], 0x1002); /* back at EPC, Thumb, SVC */
		CHECK_EQ(seen_size[i + 2], 4);
		CHECK(seen_cpsr[i + 2] & ARM_CPSR_T);
		CHECK_EQ(seen_cpsr[i + 2] & 0x1f, 0x13);
	}
	CHECK_EQ(rd(uc, UC_ARM_REG_R7), 0x77);
	CHECK_EQ(rd(uc, UC_ARM_REG_R1), 0x1234);
	CHECK_EQ(rd(uc, UC_ARM_REG_R2), 7);
	uc_close(uc);

	/* ... and from ARM state, at EPC 0x1044 (the bx lr of the ARM code),
	 * by hand: CPSR there 0x000001D3 (SVC, ARM, A I F; mov r5 sets no
	 * flags).  SPSR_irq = 0x000001D3; CPSR = 0x000001F2 (Thumb: TE);
	 * LR_irq = 0x1048 (EPC + 4 in ARM state too); the Thumb handler's subs
	 * pc, lr, #4 returns to 0x1044 in ARM state, whose bx lr (lr = 0x1017)
	 * goes to Thumb 0x1016. */
	uc = setup();
	uc_mem_write(uc, 0x18, tvec_code, sizeof tvec_code);
	CHECK_EQ(arm_set_sctlr_te(uc, 1), 0);
	irq_taken = 0;
	irq_epc = 0x1044;
	h_lr = h_spsr = h_cpsr = 0;
	uc_reg_write(uc, UC_ARM_REG_CPSR, &cpsr0);
	CHECK_EQ(uc_emu_start(uc, 0x1040, 0x2000, 0, 0), UC_ERR_OK); /* stops at 0x1016 */
	CHECK_EQ(irq_taken, 1);
	CHECK_EQ(h_lr, 0x1048);
	CHECK_EQ(h_spsr, 0x000001d3);
	CHECK_EQ(h_cpsr, 0x000001f2);
	i = seen(0x18);
	CHECK(i >= 0);
	if (i >= 0 && i + 2 < (int)nseen) {
		CHECK_EQ(seen_size[i], 2);
		CHECK_EQ(seen_a[i + 2], 0x1044); /* back at EPC, ARM, SVC */
		CHECK_EQ(seen_size[i + 2], 4);
		CHECK(!(seen_cpsr[i + 2] & ARM_CPSR_T));
		CHECK_EQ(seen_cpsr[i + 2] & 0x1f, 0x13);
	}
	CHECK_EQ(rd(uc, UC_ARM_REG_R5), 5);
	CHECK_EQ(rd(uc, UC_ARM_REG_R7), 0x77);
	CHECK(seen(0x1016) >= 0);
	irq_epc = 0;
	uc_close(uc);

	/* Issue 14 (machine/thumb.h, thumb_state): a translation block is in
	 * one state, and its block hook runs before the code hook of each of
	 * its instructions, so CPSR.T read once in the block hook is the state
	 * of every instruction of the block: across the Thumb IT block, the
	 * WFI, bx to ARM and bx back to Thumb. */
	uc = setup();
	uc_hook hb, hc;
	CHECK_EQ(uc_hook_add(uc, &hb, UC_HOOK_BLOCK, hblock, NULL, 1, 0), UC_ERR_OK);
	CHECK_EQ(uc_hook_add(uc, &hc, UC_HOOK_CODE, hcode_blk, NULL, 1, 0), UC_ERR_OK);
	CHECK_EQ(uc_emu_start(uc, 0x1001, 0x2000, 0, 0), UC_ERR_OK); /* to the WFI */
	CHECK_EQ(uc_emu_start(uc, thumb_resume_pc(uc), 0x2000, 0, 0), UC_ERR_OK); /* bx to ARM, back, stop at 0x1016 */
	CHECK_EQ(rd(uc, UC_ARM_REG_R5), 5);
	CHECK_EQ(blk_bad, 0);
	CHECK(blk_hooks >= 3); /* Thumb, ARM, Thumb again */
	CHECK(blk_codes > blk_hooks);
	CHECK_EQ(blk_t, 1);    /* the last block (0x1016) is Thumb */
	uc_close(uc);

	/* The helpers against the architecture's tables. */
	CHECK_EQ(thumb_size(0xe7fe), 2);
	CHECK_EQ(thumb_size(0xe800), 4);
	CHECK_EQ(thumb_size(0xf241), 4);
	CHECK_EQ(thumb_size(0xbf0c), 2);
	CHECK(thumb_is_it(0xbf0c, 2));
	CHECK(!thumb_is_it(0xbf00, 2)); /* nop */
	CHECK(!thumb_is_it(0xbf30, 2)); /* wfi */
	CHECK(thumb_is_wfi(0xbf30, 2));
	CHECK(thumb_is_wfi(0x8003f3af, 4));
	/* ITE EQ: 0x0c -> after the first instruction 0x18 (NE, mask 1000),
	 * then 0 */
	CHECK_EQ(thumb_it_advance(0x0c), 0x18);
	CHECK_EQ(thumb_it_advance(0x18), 0);
	/* ITTT GT: firstcond 1100, mask 0010 (three instructions): 0xc2 */
	CHECK_EQ(thumb_it_advance(0xc2), 0xc4);
	CHECK_EQ(thumb_it_advance(0xc4), 0xc8);
	CHECK_EQ(thumb_it_advance(0xc8), 0);
	CHECK(thumb_cond_passed(0, 0x40000000));  /* EQ, Z */
	CHECK(!thumb_cond_passed(1, 0x40000000)); /* NE, Z */
	CHECK(thumb_cond_passed(12, 0x00000000)); /* GT: Z = 0, N = V */
	CHECK(!thumb_cond_passed(12, 0x80000000)); /* GT: N != V */
	CHECK(!thumb_cond_passed(13, 0x90000000)); /* LE: N = V = 1, Z = 0 is GT */
	CHECK(thumb_cond_passed(13, 0x50000000));  /* LE: Z = 1 */
	CHECK_DONE();
}
