/* citcat's Cortex-M7 exception model (machine/m7exc.c, TARGET-M7.md) run
 * on Unicorn with small hand-written Thumb programs: nested preemption,
 * stacking with and without alignment padding (frame words worked out by
 * hand below), PRIMASK and BASEPRI, SysTick, SVC on the process stack,
 * return through bx lr and pop {pc}, faults with and without a handler,
 * lockup, an interrupt pended inside an IT block, and the SCS registers.
 *
 * The harness is what the capture model will do (TARGET-M7.md): a code
 * hook advances SysTick by one cycle (here: one per code hook, so cycle
 * numbers are hook numbers) and takes a pending exception at the boundary
 * unless that is inside an IT block (m7exc_it_block_end);
 * the interrupt hook hands svc (2), EXC_RETURN (8) and bkpt (7) to the
 * model; UC_HOOK_INSN_INVALID hands it udf; the SCS is Unicorn MMIO served
 * by m7exc_scs_*; a store to 0x40000000 ends the run with its value.  The
 * model's memory accesses go through bus_access below, which logs them.
 *
 * The program (arm-none-eabi-as -mcpu=cortex-m7 -mthumb; its image is the
 * rows of `image` below):
 *
 *  .syntax unified
 *  .thumb
 *  .org 0
 *  .word 0x8000          @ 0 initial MSP
 *  .word 0x101           @ 1 reset -> nest
 *  .word 0               @ 2 NMI
 *  .word 0               @ 3 HardFault (none)
 *  .word 0,0,0x301       @ 4 MemManage, 5 BusFault, 6 UsageFault
 *  .word 0,0,0,0
 *  .word 0x321           @ 11 SVCall
 *  .word 0,0
 *  .word 0               @ 14 PendSV
 *  .word 0x341           @ 15 SysTick
 *  .word 0x201           @ 16 IRQ0
 *  .word 0x221           @ 17 IRQ1
 *  .org 0x100
 * nest:                  @ IRQ0 prio 0x80, IRQ1 prio 0x40, both enabled; pend IRQ0
 *  ldr r4, =0xE000E100
 *  ldr r5, =3
 *  str r5, [r4]          @ ISER0 = 3
 *  ldr r4, =0xE000E400
 *  ldr r5, =0x4080
 *  str r5, [r4]          @ IPR0: IRQ0 0x80, IRQ1 0x40
 *  ldr r4, =0xE000E200
 *  ldr r5, =1
 *  str r5, [r4]          @ ISPR0 = 1: IRQ0 pending, taken before the next instruction
 *  ldr r6, =0x66         @ return address of IRQ0's frame
 * exit:
 *  ldr r4, =0x40000000
 *  str r6, [r4]          @ EXIT
 *  b .
 *  .ltorg
 *  .org 0x180
 * masks:                 @ the same priorities; PRIMASK then BASEPRI hold them off
 *  ldr r4, =0xE000E100
 *  ldr r5, =3
 *  str r5, [r4]
 *  ldr r4, =0xE000E400
 *  ldr r5, =0x4080
 *  str r5, [r4]
 *  cpsid i
 *  ldr r4, =0xE000E200
 *  ldr r5, =1
 *  str r5, [r4]          @ IRQ0 pending, masked by PRIMASK
 *  ldr r5, =0x80
 *  msr basepri, r5       @ BASEPRI 0x80: IRQ0 (0x80) stays masked
 *  cpsie i               @ boundary after this: nothing taken
 *  ldr r6, =0x77
 *  ldr r5, =2
 *  str r5, [r4]          @ IRQ1 (0x40) pending: taken here, preempts BASEPRI
 *  ldr r5, =0
 *  msr basepri, r5       @ IRQ0 now taken at the next boundary
 *  ldr r6, =0x78
 *  b exit
 *  .ltorg
 *  .org 0x200
 * irq0:
 *  push {lr}             @ MSP 0x7FE0 -> 0x7FDC: IRQ1's frame needs padding
 *  ldr r4, =0xE000E200
 *  ldr r5, =2
 *  str r5, [r4]          @ IRQ1 pending: preempts (0x40 < 0x80)
 *  ldr r8, =0x88
 *  pop {pc}              @ EXC_RETURN 0xFFFFFFF9 through pop {pc}
 *  .ltorg
 *  .org 0x220
 * irq1:
 *  ldr r7, =7
 *  mov r9, sp
 *  bx lr                 @ EXC_RETURN 0xFFFFFFF1 through bx lr
 *  .ltorg
 *  .org 0x300
 * usagefault:            @ skip the faulting 16-bit instruction: stacked PC += 2
 *  ldr r0, [sp, #24]
 *  adds r0, #2
 *  str r0, [sp, #24]
 *  ldr r10, =0x5a
 *  bx lr
 *  .ltorg
 *  .org 0x320
 * svcall:
 *  mrs r10, psp
 *  ldr r11, [r10, #24]   @ the stacked return address
 *  bx lr
 *  .ltorg
 *  .org 0x340
 * systick:
 *  adds r7, #1
 *  bx lr
 *  .org 0x380
 * fault:                 @ UsageFault enabled or not by the test; udf then exit
 *  udf #1
 *  ldr r6, =0x99
 *  b exit
 *  .ltorg
 *  .org 0x3a0
 * svc_psp:               @ thread mode on the PSP: svc stacks there
 *  ldr r4, =0x6000
 *  msr psp, r4
 *  ldr r4, =2
 *  msr control, r4
 *  isb
 *  svc #5
 *  ldr r6, =0x55
 *  b exit
 *  .ltorg
 *  .org 0x3e0
 * tick:                  @ SysTick every 10 cycles; wait for 3 ticks
 *  ldr r4, =0xE000E010
 *  ldr r5, =9
 *  str r5, [r4, #4]      @ RVR 9
 *  ldr r5, =0
 *  str r5, [r4, #8]      @ CVR 0
 *  ldr r5, =7
 *  str r5, [r4]          @ CSR: ENABLE TICKINT CLKSOURCE
 * 1: cmp r7, #3
 *  bne 1b
 *  ldr r5, =0
 *  str r5, [r4]
 *  ldr r6, [r4]          @ COUNTFLAG is set
 *  b exit
 *  .ltorg
 *  .org 0x480
 * itirq:                 @ IRQ0 becomes pending inside an IT block
 *  ldr r4, =0xE000E100
 *  mov.w r5, #1
 *  str r5, [r4]          @ ISER0: IRQ0 enabled
 *  ldr r4, =0xE000E200
 *  cmp r5, r5            @ Z set
 *  itt eq
 *  streq r5, [r4]        @ ISPR0: IRQ0 pending, inside the block
 *  moveq.w r6, #0x61     @ 32-bit, still inside: no entry before it
 *  mov.w r6, #0x62       @ IRQ0 is taken before this one
 *  b exit
 *  .ltorg
 */
#include "check.h"
#include "m7exc.h"

#include <string.h>
#include <unicorn/unicorn.h>

static const struct {
	uint32_t addr;
	uint8_t b[16];
} image[] = {
	{0x000, {0x00, 0x80, 0x00, 0x00, 0x01, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00}},
	{0x010, {0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00}},
	{0x020, {0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x21, 0x03, 0x00, 0x00}},
	{0x030, {0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x41, 0x03, 0x00, 0x00}},
	{0x040, {0x01, 0x02, 0x00, 0x00, 0x21, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00}},
	{0x100, {0x08, 0x4c, 0x4f, 0xf0, 0x03, 0x05, 0x25, 0x60, 0x07, 0x4c, 0x4f, 0xf4, 0x81, 0x45, 0x25, 0x60}},
	{0x110, {0x06, 0x4c, 0x4f, 0xf0, 0x01, 0x05, 0x25, 0x60, 0x4f, 0xf0, 0x66, 0x06, 0x4f, 0xf0, 0x80, 0x44}},
	{0x120, {0x26, 0x60, 0xfe, 0xe7, 0x00, 0xe1, 0x00, 0xe0, 0x00, 0xe4, 0x00, 0xe0, 0x00, 0xe2, 0x00, 0xe0}},
	{0x180, {0x0e, 0x4c, 0x4f, 0xf0, 0x03, 0x05, 0x25, 0x60, 0x0d, 0x4c, 0x4f, 0xf4, 0x81, 0x45, 0x25, 0x60}},
	{0x190, {0x72, 0xb6, 0x0c, 0x4c, 0x4f, 0xf0, 0x01, 0x05, 0x25, 0x60, 0x4f, 0xf0, 0x80, 0x05, 0x85, 0xf3}},
	{0x1a0, {0x11, 0x88, 0x62, 0xb6, 0x4f, 0xf0, 0x77, 0x06, 0x4f, 0xf0, 0x02, 0x05, 0x25, 0x60, 0x4f, 0xf0}},
	{0x1b0, {0x00, 0x05, 0x85, 0xf3, 0x11, 0x88, 0x4f, 0xf0, 0x78, 0x06, 0xaf, 0xe7, 0x00, 0xe1, 0x00, 0xe0}},
	{0x1c0, {0x00, 0xe4, 0x00, 0xe0, 0x00, 0xe2, 0x00, 0xe0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00}},
	{0x200, {0x00, 0xb5, 0x03, 0x4c, 0x4f, 0xf0, 0x02, 0x05, 0x25, 0x60, 0x4f, 0xf0, 0x88, 0x08, 0x00, 0xbd}},
	{0x210, {0x00, 0xe2, 0x00, 0xe0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00}},
	{0x220, {0x4f, 0xf0, 0x07, 0x07, 0xe9, 0x46, 0x70, 0x47, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00}},
	{0x300, {0x06, 0x98, 0x02, 0x30, 0x06, 0x90, 0x4f, 0xf0, 0x5a, 0x0a, 0x70, 0x47, 0x00, 0x00, 0x00, 0x00}},
	{0x320, {0xef, 0xf3, 0x09, 0x8a, 0xda, 0xf8, 0x18, 0xb0, 0x70, 0x47, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00}},
	{0x340, {0x01, 0x37, 0x70, 0x47, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00}},
	{0x380, {0x01, 0xde, 0x4f, 0xf0, 0x99, 0x06, 0xc9, 0xe6, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00}},
	{0x3a0, {0x4f, 0xf4, 0xc0, 0x44, 0x84, 0xf3, 0x09, 0x88, 0x4f, 0xf0, 0x02, 0x04, 0x84, 0xf3, 0x14, 0x88}},
	{0x3b0, {0xbf, 0xf3, 0x6f, 0x8f, 0x05, 0xdf, 0x4f, 0xf0, 0x55, 0x06, 0xaf, 0xe6, 0x00, 0x00, 0x00, 0x00}},
	{0x3e0, {0x08, 0x4c, 0x4f, 0xf0, 0x09, 0x05, 0x65, 0x60, 0x4f, 0xf0, 0x00, 0x05, 0xa5, 0x60, 0x4f, 0xf0}},
	{0x3f0, {0x07, 0x05, 0x25, 0x60, 0x03, 0x2f, 0xfd, 0xd1, 0x4f, 0xf0, 0x00, 0x05, 0x25, 0x60, 0x26, 0x68}},
	{0x400, {0x8c, 0xe6, 0x00, 0x00, 0x10, 0xe0, 0x00, 0xe0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00}},
	{0x480, {0x06, 0x4c, 0x4f, 0xf0, 0x01, 0x05, 0x25, 0x60, 0x05, 0x4c, 0xad, 0x42, 0x04, 0xbf, 0x25, 0x60}},
	{0x490, {0x4f, 0xf0, 0x61, 0x06, 0x4f, 0xf0, 0x62, 0x06, 0x40, 0xe6, 0x00, 0x00, 0x00, 0xe1, 0x00, 0xe0}},
	{0x4a0, {0x00, 0xe2, 0x00, 0xe0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00}},
};

#define RAM_SIZE 0x100000u
#define EXIT_ADDR 0x40000000u

struct access {
	uint32_t addr, value;
	int write;
};

static struct h {
	uc_engine *uc;
	struct m7exc m;
	struct access log[128];
	unsigned n_log;
	uint32_t entry_exc[16], entry_epc[16];
	uint64_t entry_hook[16];
	unsigned n_entries;
	uint64_t hooks;
	uint32_t last_pc, hook_at_3f4;
	uint32_t it_addr, it_end; /* the IT block being executed: no entry in (it_addr, it_end) */
	int done, err, bad_intr;
	uint32_t exit_code;
} h;

static uint32_t rd(int reg)
{
	uint32_t v = 0;
	uc_reg_read(h.uc, reg, &v);
	return v;
}

static void wr(int reg, uint32_t v) { uc_reg_write(h.uc, reg, &v); }

static int bus_access(void *ctx, uint32_t addr, int write, uint32_t *v)
{
	(void)ctx;
	if (addr > RAM_SIZE - 4 || (addr & 3))
		return -1;
	if (h.n_log < 128)
		h.log[h.n_log++] = (struct access){addr, write ? *v : 0, write};
	uc_err e = write ? uc_mem_write(h.uc, addr, v, 4) : uc_mem_read(h.uc, addr, v, 4);
	if (!write && h.n_log <= 128)
		h.log[h.n_log - 1].value = *v;
	return e != UC_ERR_OK;
}

static void failed(int rc)
{
	h.err = rc;
	uc_emu_stop(h.uc);
}

static void hcode(uc_engine *uc, uint64_t a, uint32_t size, void *u)
{
	(void)size, (void)u;
	h.hooks++;
	if (h.hooks > 100000) {
		failed(1000);
		return;
	}
	if (a == 0x3f4 && !h.hook_at_3f4)
		h.hook_at_3f4 = (uint32_t)h.hooks;
	h.last_pc = (uint32_t)a;
	m7exc_systick_advance(&h.m, 1);
	if (a > h.it_addr && a < h.it_end)
		return; /* inside an IT block: exceptions wait for its end */
	uint16_t hw = 0;
	uc_mem_read(uc, a, &hw, 2);
	uint32_t end = m7exc_it_block_end(uc, (uint32_t)a, hw);
	if (end) {
		h.it_addr = (uint32_t)a;
		h.it_end = end;
	}
	int rc = m7exc_boundary(&h.m, (uint32_t)a);
	if (rc < 0)
		failed(rc);
	else if (rc == 1 && h.n_entries < 16) {
		h.entry_exc[h.n_entries] = rd(UC_ARM_REG_IPSR);
		h.entry_epc[h.n_entries] = (uint32_t)a;
		h.entry_hook[h.n_entries++] = h.hooks;
	}
	(void)uc;
}

static void hintr(uc_engine *uc, uint32_t intno, void *u)
{
	(void)uc, (void)u;
	int rc;
	uint32_t pc = rd(UC_ARM_REG_PC);
	if (intno == 2)
		rc = m7exc_svc(&h.m, pc);
	else if (intno == 8)
		rc = m7exc_return(&h.m, pc | 1u, h.last_pc);
	else if (intno == 7)
		rc = m7exc_fault(&h.m, M7EXC_F_BKPT, pc, 0);
	else {
		h.bad_intr = (int)intno;
		rc = -100;
	}
	if (rc < 0)
		failed(rc);
}

static bool hinvalid(uc_engine *uc, void *u)
{
	(void)uc, (void)u;
	int rc = m7exc_fault(&h.m, M7EXC_F_UNDEFINSTR, rd(UC_ARM_REG_PC), 0);
	if (rc < 0) {
		h.err = rc;
		return false; /* uc_emu_start fails: the run ends */
	}
	return true; /* ends uc_emu_start at the handler; the loop restarts it */
}

static uint64_t scs_read(uc_engine *uc, uint64_t off, unsigned size, void *u)
{
	(void)uc, (void)u;
	uint32_t v = 0;
	if (m7exc_scs_read(&h.m, (uint32_t)off, size, &v))
		failed(2000);
	return v;
}

static void scs_write(uc_engine *uc, uint64_t off, unsigned size, uint64_t v, void *u)
{
	(void)uc, (void)u;
	if (m7exc_scs_write(&h.m, (uint32_t)off, size, (uint32_t)v))
		failed(2001);
}

static uint64_t exit_read(uc_engine *uc, uint64_t off, unsigned size, void *u)
{
	(void)uc, (void)off, (void)size, (void)u;
	failed(3000);
	return 0;
}

static void exit_write(uc_engine *uc, uint64_t off, unsigned size, uint64_t v, void *u)
{
	(void)off, (void)size, (void)u;
	h.exit_code = (uint32_t)v;
	h.done = 1;
	uc_emu_stop(uc);
}

/* A fresh engine, the image loaded, the model reset (MSP 0x8000 from the
 * vector table), then PC moved to START and r0-r3, r12, lr, the flags set
 * to values the frames below are checked against. */
static void setup(uint32_t start)
{
	memset(&h, 0, sizeof h);
	CHECK_EQ(uc_open(UC_ARCH_ARM, UC_MODE_THUMB | UC_MODE_MCLASS, &h.uc), UC_ERR_OK);
	CHECK_EQ(uc_ctl_set_cpu_model(h.uc, UC_CPU_ARM_CORTEX_M7), UC_ERR_OK);
	CHECK_EQ(uc_mem_map(h.uc, 0, RAM_SIZE, UC_PROT_ALL), UC_ERR_OK);
	CHECK_EQ(uc_mmio_map(h.uc, M7EXC_SCS_BASE, M7EXC_SCS_SIZE, scs_read, NULL, scs_write, NULL), UC_ERR_OK);
	CHECK_EQ(uc_mmio_map(h.uc, EXIT_ADDR, 0x1000, exit_read, NULL, exit_write, NULL), UC_ERR_OK);
	for (unsigned i = 0; i < sizeof image / sizeof *image; i++)
		uc_mem_write(h.uc, image[i].addr, image[i].b, 16);
	uc_hook hk;
	CHECK_EQ(uc_hook_add(h.uc, &hk, UC_HOOK_CODE, hcode, NULL, 1, 0), UC_ERR_OK);
	CHECK_EQ(uc_hook_add(h.uc, &hk, UC_HOOK_INTR, hintr, NULL, 1, 0), UC_ERR_OK);
	CHECK_EQ(uc_hook_add(h.uc, &hk, UC_HOOK_INSN_INVALID, hinvalid, NULL, 1, 0), UC_ERR_OK);
	m7exc_init(&h.m, h.uc, (struct m7exc_bus){bus_access, NULL});
	CHECK_EQ(m7exc_reset_core(&h.m), 0);
	CHECK_EQ(rd(UC_ARM_REG_PC), 0x100);
	CHECK_EQ(rd(UC_ARM_REG_SP), 0x8000);
	CHECK_EQ(rd(UC_ARM_REG_MSP), 0x8000);
	CHECK_EQ(h.n_log, 2); /* the reset reads: words 0 and 4 */
	CHECK_EQ(h.log[0].addr, 0);
	CHECK_EQ(h.log[1].addr, 4);
	h.n_log = 0;
	wr(UC_ARM_REG_PC, start | 1u);
	wr(UC_ARM_REG_R0, 0xA0);
	wr(UC_ARM_REG_R1, 0xA1);
	wr(UC_ARM_REG_R2, 0xA2);
	wr(UC_ARM_REG_R3, 0xA3);
	wr(UC_ARM_REG_R12, 0xAC);
	wr(UC_ARM_REG_LR, 0xA14E);
	wr(UC_ARM_REG_XPSR, 0x21000000u); /* C set, T, thread mode */
}

static void run(void)
{
	for (int restarts = 0; !h.done && !h.err && restarts < 100; restarts++) {
		uc_err e = uc_emu_start(h.uc, rd(UC_ARM_REG_PC) | 1u, 0xFFFFFFF0u, 0, 0);
		if (e != UC_ERR_OK && !h.err)
			h.err = 4000 + (int)e;
	}
}

/* The model's accesses from log[AT]: N words at ADDR.. ascending. */
static void check_words(unsigned at, uint32_t addr, int write, const uint32_t *w, unsigned n, int line)
{
	for (unsigned i = 0; i < n; i++) {
		const struct access *a = &h.log[at + i];
		if (at + i >= h.n_log || a->addr != addr + 4 * i || a->write != write || a->value != w[i]) {
			fprintf(stderr, "line %d: access %u: want %s 0x%08x = 0x%08x, got %s 0x%08x = 0x%08x\n", line,
				at + i, write ? "W" : "R", addr + 4 * i, w[i], a->write ? "W" : "R", a->addr, a->value);
			check_failures++;
		}
	}
}

static void check_vector(unsigned at, uint32_t addr, uint32_t value)
{
	CHECK_EQ(h.log[at].addr, addr);
	CHECK_EQ(h.log[at].write, 0);
	CHECK_EQ(h.log[at].value, value);
}

static void test_nesting(void)
{
	setup(0x100);
	run();
	CHECK_EQ(h.err, 0);
	CHECK_EQ(h.done, 1);
	CHECK_EQ(h.exit_code, 0x66);
	CHECK_EQ(h.n_entries, 2);
	CHECK_EQ(h.entry_exc[0], 16); /* IRQ0 before 0x118, the instruction after the ISPR store */
	CHECK_EQ(h.entry_epc[0], 0x118);
	CHECK_EQ(h.entry_exc[1], 17); /* IRQ1 preempts IRQ0 before 0x20a */
	CHECK_EQ(h.entry_epc[1], 0x20a);
	CHECK_EQ(h.n_log, 34);
	/* IRQ0 from thread mode: SP 0x8000 is 8-byte aligned, no padding:
	 * frame at 0x8000 - 0x20 = 0x7FE0; R0-R3, R12, LR as set up, the
	 * return address 0x118, xPSR = C | T | IPSR 0 = 0x21000000 (bit 9 clear). */
	static const uint32_t f0[8] = {0xA0, 0xA1, 0xA2, 0xA3, 0xAC, 0xA14E, 0x118, 0x21000000u};
	check_words(0, 0x7FE0, 1, f0, 8, __LINE__);
	check_vector(8, 16 * 4, 0x201);
	/* IRQ1 inside IRQ0: push {lr} left MSP = 0x7FE0 - 4 = 0x7FDC, bit 2
	 * set: padding.  Frame at (0x7FDC - 0x20) & ~4 = 0x7FB8; LR is IRQ0's
	 * EXC_RETURN 0xFFFFFFF9, return address 0x20a, xPSR = C | T | IPSR 16
	 * | bit 9 (padded) = 0x21000210. */
	static const uint32_t f1[8] = {0xA0, 0xA1, 0xA2, 0xA3, 0xAC, 0xFFFFFFF9u, 0x20a, 0x21000210u};
	check_words(9, 0x7FB8, 1, f1, 8, __LINE__);
	check_vector(17, 17 * 4, 0x221);
	/* IRQ1's bx lr (0xFFFFFFF1, to handler mode) unstacks its frame;
	 * IRQ0's pop {pc} (0xFFFFFFF9, to thread on MSP) unstacks the first. */
	check_words(18, 0x7FB8, 0, f1, 8, __LINE__);
	check_words(26, 0x7FE0, 0, f0, 8, __LINE__);
	CHECK_EQ(rd(UC_ARM_REG_R9), 0x7FB8); /* IRQ1 saw SP = its frame */
	CHECK_EQ(rd(UC_ARM_REG_R7), 7);
	CHECK_EQ(rd(UC_ARM_REG_R8), 0x88);
	CHECK_EQ(rd(UC_ARM_REG_SP), 0x8000); /* padding undone: 0x7FB8 + 0x24 = 0x7FDC, then 0x8000 */
	CHECK_EQ(rd(UC_ARM_REG_R0), 0xA0);
	CHECK_EQ(rd(UC_ARM_REG_R3), 0xA3);
	CHECK_EQ(rd(UC_ARM_REG_R12), 0xAC);
	CHECK_EQ(rd(UC_ARM_REG_LR), 0xA14E);
	CHECK_EQ(rd(UC_ARM_REG_XPSR), 0x21000000u);
	CHECK_EQ(h.m.active, 0);
	CHECK_EQ(h.m.pending, 0);
	uc_close(h.uc);
}

static void test_masks(void)
{
	setup(0x180);
	run();
	CHECK_EQ(h.err, 0);
	CHECK_EQ(h.exit_code, 0x78);
	/* PRIMASK holds IRQ0 off, then BASEPRI 0x80 (IRQ0's own priority:
	 * group 0x80 does not preempt 0x80); IRQ1 (0x40) gets through before
	 * 0x1ae; clearing BASEPRI lets IRQ0 in before 0x1b6, which nests IRQ1. */
	CHECK_EQ(h.n_entries, 3);
	CHECK_EQ(h.entry_exc[0], 17);
	CHECK_EQ(h.entry_epc[0], 0x1ae);
	CHECK_EQ(h.entry_exc[1], 16);
	CHECK_EQ(h.entry_epc[1], 0x1b6);
	CHECK_EQ(h.entry_exc[2], 17);
	CHECK_EQ(h.entry_epc[2], 0x20a);
	uc_close(h.uc);

	/* AIRCR.PRIGROUP 7: one group for all priorities, so IRQ1 no longer
	 * preempts IRQ0 (it waits for IRQ0's return and is taken then). */
	setup(0x100);
	CHECK_EQ(m7exc_scs_write(&h.m, 0xD0C, 4, 0x05FA0700u), 0);
	run();
	CHECK_EQ(h.err, 0);
	CHECK_EQ(h.exit_code, 0x66);
	CHECK_EQ(h.n_entries, 2);
	CHECK_EQ(h.entry_exc[1], 17);
	CHECK_EQ(h.entry_epc[1], 0x118); /* no tail-chaining: taken at the return address, after unstacking */
	uc_close(h.uc);
}

static void test_systick(void)
{
	setup(0x3e0);
	run();
	CHECK_EQ(h.err, 0);
	/* CSR read after the ticks: COUNTFLAG (bit 16) and CLKSOURCE (bit 2),
	 * ENABLE cleared by the store before. */
	CHECK_EQ(h.exit_code, 0x00010004u);
	CHECK_EQ(h.n_entries, 3);
	for (unsigned i = 0; i < 3; i++)
		CHECK_EQ(h.entry_exc[i], M7EXC_SYSTICK);
	/* The hook at 0x3f4 is the first cycle after the enabling store:
	 * CVR 0 reloads to RVR 9; nine more cycles count it to 0, which pends
	 * SysTick, taken at that boundary: hook 0x3f4 + 9.  Then every
	 * RVR + 1 = 10 cycles. */
	CHECK_EQ(h.entry_hook[0], h.hook_at_3f4 + 9);
	CHECK_EQ(h.entry_hook[1], h.entry_hook[0] + 10);
	CHECK_EQ(h.entry_hook[2], h.entry_hook[1] + 10);
	CHECK_EQ(rd(UC_ARM_REG_R7), 3);
	uc_close(h.uc);
}

static void test_svc_psp(void)
{
	setup(0x3a0);
	run();
	CHECK_EQ(h.err, 0);
	CHECK_EQ(h.exit_code, 0x55);
	/* thread mode on the PSP (0x6000, aligned): the frame goes to
	 * 0x6000 - 0x20 = 0x5FE0, return address 0x3b6 (after the svc), LR
	 * 0xFFFFFFFD; the handler runs on MSP and reads the frame through PSP. */
	CHECK_EQ(rd(UC_ARM_REG_R10), 0x5FE0);
	CHECK_EQ(rd(UC_ARM_REG_R11), 0x3b6);
	CHECK_EQ(h.log[0].addr, 0x5FE0);
	CHECK_EQ(h.log[6].value, 0x3b6);
	check_vector(8, 11 * 4, 0x321);
	CHECK_EQ(h.log[9].addr, 0x5FE0); /* unstacked from the PSP */
	CHECK_EQ(h.log[9].write, 0);
	CHECK_EQ(rd(UC_ARM_REG_CONTROL) & 2, 2);
	CHECK_EQ(rd(UC_ARM_REG_SP), 0x6000);
	CHECK_EQ(rd(UC_ARM_REG_PSP), 0x6000);
	CHECK_EQ(rd(UC_ARM_REG_MSP), 0x8000);
	uc_close(h.uc);
}

static void test_faults(void)
{
	/* UsageFault disabled (SHCSR): escalates to HardFault, whose vector
	 * is 0: the run stops, naming HardFault and the udf's PC.  The frame
	 * was pushed (8 writes) before the vector read found 0. */
	setup(0x380);
	run();
	CHECK_EQ(h.err, M7EXC_E_NOHANDLER);
	CHECK_EQ(h.m.err_exc, M7EXC_HARDFAULT);
	CHECK_EQ(h.m.err_pc, 0x380);
	CHECK(h.m.err_what && strcmp(h.m.err_what, "UNDEFINSTR") == 0);
	CHECK_EQ(h.m.hfsr, 1u << 30);    /* FORCED */
	CHECK_EQ(h.m.cfsr, 1u << 16);    /* UNDEFINSTR */
	CHECK_EQ(h.n_log, 9);
	check_vector(8, 3 * 4, 0);
	CHECK_EQ(strcmp(m7exc_name(M7EXC_HARDFAULT), "HardFault"), 0);
	CHECK_EQ(strcmp(m7exc_name(M7EXC_IRQ0 + 5), "IRQ 5"), 0);
	uc_close(h.uc);

	/* Enabled: the UsageFault handler gets the udf's address as return
	 * address, moves it on by 2 and returns. */
	setup(0x380);
	CHECK_EQ(m7exc_scs_write(&h.m, 0xD24, 4, 1u << 18), 0);
	run();
	CHECK_EQ(h.err, 0);
	CHECK_EQ(h.exit_code, 0x99);
	CHECK_EQ(rd(UC_ARM_REG_R10), 0x5a);
	CHECK_EQ(h.log[6].addr, 0x7FF8);
	CHECK_EQ(h.log[6].value, 0x380);
	check_vector(8, 6 * 4, 0x301);
	CHECK_EQ(h.m.hfsr, 0);
	uint32_t v = 0;
	CHECK_EQ(m7exc_scs_read(&h.m, 0xD2A, 2, &v), 0); /* UFSR */
	CHECK_EQ(v, 1);
	CHECK_EQ(m7exc_scs_write(&h.m, 0xD2A, 2, 1), 0); /* write 1 to clear */
	CHECK_EQ(h.m.cfsr, 0);
	uc_close(h.uc);

	/* A fault inside HardFault: lockup. */
	setup(0x380);
	static const uint32_t hf = 0x381; /* HardFault handler = the udf itself */
	uc_mem_write(h.uc, 3 * 4, &hf, 4);
	run();
	CHECK_EQ(h.err, M7EXC_E_LOCKUP);
	CHECK_EQ(h.m.err_pc, 0x380);
	CHECK_EQ(rd(UC_ARM_REG_IPSR), M7EXC_HARDFAULT);
	uc_close(h.uc);

	/* EXC_RETURN in thread mode: a branch into the execute-never region,
	 * MemManage IACCVIOL (disabled: HardFault, no handler). */
	setup(0x100);
	wr(UC_ARM_REG_XPSR, 0x01000000u);
	CHECK_EQ(m7exc_return(&h.m, 0xFFFFFFF9u, 0x100), M7EXC_E_NOHANDLER);
	CHECK_EQ(h.m.cfsr, 1u);
	CHECK_EQ(h.m.err_pc, 0xFFFFFFF8u);
	uc_close(h.uc);

	/* EXC_RETURN with nothing active: UsageFault INVPC. */
	setup(0x100);
	wr(UC_ARM_REG_XPSR, 0x01000010u);
	CHECK_EQ(m7exc_return(&h.m, 0xFFFFFFF9u, 0x226), M7EXC_E_NOHANDLER);
	CHECK_EQ(h.m.cfsr, 1u << 18);
	CHECK_EQ(h.m.err_pc, 0x226);
	uc_close(h.uc);
}

static void test_it_block(void)
{
	/* IRQ0 is pended by the first instruction of the itt block (0x48e);
	 * the boundary before 0x490 is inside the block, so the entry waits
	 * for 0x494, the first instruction after it (TARGET-M7.md). */
	setup(0x480);
	run();
	CHECK_EQ(h.err, 0);
	CHECK_EQ(h.exit_code, 0x62);
	CHECK_EQ(h.n_entries, 1);
	CHECK_EQ(h.entry_exc[0], 16);
	CHECK_EQ(h.entry_epc[0], 0x494);
	CHECK_EQ(h.log[6].value, 0x494); /* the stacked return address */
	CHECK_EQ(h.log[7].value & 0x0600fc00u, 0); /* no IT state stacked */
	/* the block's extent from the code: itt at 0x48c covers a 16-bit and
	 * a 32-bit instruction: 0x48e + 2 + 4 = 0x494 */
	CHECK_EQ(m7exc_it_block_end(h.uc, 0x48c, 0xbf04), 0x494);
	CHECK_EQ(m7exc_it_block_end(h.uc, 0x48c, 0xbf08), 0x490); /* it: one instruction */
	CHECK_EQ(m7exc_it_block_end(h.uc, 0x48c, 0xbf01), 0x49a); /* itttt: four (2 + 4 + 4 + 2) */
	CHECK_EQ(m7exc_it_block_end(h.uc, 0x48c, 0xbf00), 0);     /* nop */
	CHECK_EQ(m7exc_it_block_end(h.uc, 0x48c, 0xbf30), 0);     /* wfi */
	CHECK_EQ(m7exc_it_block_end(h.uc, 0x48c, 0x4770), 0);     /* bx lr */
	uc_close(h.uc);
}

static void test_scs(void)
{
	setup(0x100);
	uint32_t v = 0;
	CHECK_EQ(m7exc_scs_read(&h.m, 0xD00, 4, &v), 0);
	CHECK_EQ(v, M7EXC_CPUID);
	CHECK_EQ(m7exc_scs_read(&h.m, 0xD00, 1, &v), -1); /* CPUID is word-only */
	CHECK_EQ(m7exc_scs_read(&h.m, 0xE00, 4, &v), -1); /* unassigned */
	CHECK_EQ(m7exc_scs_read(&h.m, 0x402, 4, &v), -1); /* misaligned */
	CHECK_EQ(m7exc_scs_read(&h.m, 0xD14, 4, &v), 0);
	CHECK_EQ(v, 0x00040200u); /* CCR: BP, STKALIGN */
	CHECK_EQ(m7exc_scs_write(&h.m, 0xD14, 4, 0), 0);
	CHECK_EQ(h.m.ccr & (1u << 9), 1u << 9); /* STKALIGN is RO 1 on the M7 */
	/* priorities: byte writes keep the top 4 bits */
	CHECK_EQ(m7exc_scs_write(&h.m, 0x405, 1, 0xFF), 0);
	CHECK_EQ(h.m.prio[M7EXC_IRQ0 + 5], 0xF0);
	CHECK_EQ(m7exc_scs_read(&h.m, 0x404, 4, &v), 0);
	CHECK_EQ(v, 0x0000F000u);
	CHECK_EQ(m7exc_scs_write(&h.m, 0xD23, 1, 0x20), 0); /* SHPR3 top byte: SysTick */
	CHECK_EQ(h.m.prio[M7EXC_SYSTICK], 0x20);
	CHECK_EQ(m7exc_scs_write(&h.m, 0xD1F, 1, 0x10), 0); /* SHPR2 top byte: SVCall */
	CHECK_EQ(h.m.prio[M7EXC_SVCALL], 0x10);
	/* AIRCR: ignored without the key; reads back VECTKEYSTAT */
	CHECK_EQ(m7exc_scs_write(&h.m, 0xD0C, 4, 0x00000500u), 0);
	CHECK_EQ(h.m.prigroup, 0);
	CHECK_EQ(m7exc_scs_write(&h.m, 0xD0C, 4, 0x05FA0500u), 0);
	CHECK_EQ(m7exc_scs_read(&h.m, 0xD0C, 4, &v), 0);
	CHECK_EQ(v, 0xFA050500u);
	/* ICSR: PendSV set, seen as VECTPENDING 14; STIR pends IRQ 3 */
	CHECK_EQ(m7exc_scs_write(&h.m, 0xD04, 4, 1u << 28), 0);
	CHECK_EQ(m7exc_scs_read(&h.m, 0xD04, 4, &v), 0);
	CHECK_EQ(v, (1u << 28) | (14u << 12) | (1u << 11));
	CHECK_EQ(m7exc_scs_write(&h.m, 0xD04, 4, 1u << 27), 0);
	CHECK_EQ(m7exc_scs_write(&h.m, 0xF00, 4, 3), 0);
	CHECK_EQ(m7exc_scs_read(&h.m, 0x200, 4, &v), 0);
	CHECK_EQ(v, 8);
	CHECK_EQ(m7exc_scs_read(&h.m, 0xD04, 4, &v), 0);
	CHECK_EQ(v, (1u << 22) | (1u << 11)); /* ISRPENDING; VECTPENDING counts enabled ones only */
	CHECK_EQ(m7exc_scs_write(&h.m, 0x100, 4, 8), 0);
	CHECK_EQ(m7exc_scs_read(&h.m, 0xD04, 4, &v), 0);
	CHECK_EQ(v, (1u << 22) | (19u << 12) | (1u << 11)); /* VECTPENDING IRQ3 = 19 */
	/* VTOR keeps bits 31:7 */
	CHECK_EQ(m7exc_scs_write(&h.m, 0xD08, 4, 0x12345), 0);
	CHECK_EQ(h.m.vtor, 0x12300u);
	/* SysTick: RVR is 24 bits; CVR writes clear; CALIB NOREF | SKEW */
	CHECK_EQ(m7exc_scs_write(&h.m, 0x014, 4, 0xFFFFFFFFu), 0);
	CHECK_EQ(h.m.st_rvr, 0x00FFFFFFu);
	CHECK_EQ(m7exc_scs_read(&h.m, 0x01C, 4, &v), 0);
	CHECK_EQ(v, 0xC0000000u);
	CHECK_EQ(m7exc_systick_due(&h.m), UINT64_MAX); /* not enabled */
	CHECK_EQ(m7exc_scs_write(&h.m, 0x010, 4, 1), 0);
	CHECK_EQ(m7exc_systick_due(&h.m), 0x01000000u); /* from CVR 0: reload, then RVR decrements */
	m7exc_systick_advance(&h.m, 5);
	CHECK_EQ(h.m.st_cvr, 0x00FFFFFFu - 4);
	CHECK_EQ(m7exc_systick_due(&h.m), 0x00FFFFFFu - 4);
	/* a long step over whole periods: same state as stepping one by one */
	m7exc_systick_advance(&h.m, (uint64_t)0x01000000u * 3 + 0x00FFFFFFu - 4);
	CHECK_EQ(h.m.st_cvr, 0);
	CHECK(h.m.st_csr & (1u << 16));
	CHECK_EQ(h.m.pending & (1ull << M7EXC_SYSTICK), 0); /* TICKINT off */
	uc_close(h.uc);
}

/* Stacking, unstacking and vector-read bus errors (TARGET-M7.md, "Stacking,
 * unstacking and vector-read errors"), called directly; RAM ends at
 * RAM_SIZE = 0x100000, nothing above it. */
static void test_bus_errors(void)
{
	static const uint32_t pendsv = 0x101, hardfault = 0x201;
	/* STKERR: MSP with nothing below; PendSV is still entered (only its
	 * vector read is made), HardFault FORCED becomes pending (BusFault is
	 * disabled), and its own entry fails the same way: lockup. */
	setup(0x100);
	uc_mem_write(h.uc, 14 * 4, &pendsv, 4);
	uc_mem_write(h.uc, 3 * 4, &hardfault, 4);
	wr(UC_ARM_REG_MSP, 0x00200000u);
	CHECK_EQ(m7exc_enter(&h.m, M7EXC_PENDSV, 0x100), 1);
	CHECK_EQ(h.n_log, 1);
	check_vector(0, 14 * 4, pendsv);
	CHECK_EQ(rd(UC_ARM_REG_IPSR), M7EXC_PENDSV);
	CHECK_EQ(rd(UC_ARM_REG_MSP), 0x001FFFE0u);
	CHECK_EQ(h.m.cfsr, 1u << 12);
	CHECK_EQ(h.m.hfsr, 1u << 30);
	CHECK_EQ(h.m.pending, 1ull << M7EXC_HARDFAULT);
	CHECK_EQ(h.m.entry_ret, 0x100);
	CHECK_EQ(m7exc_boundary(&h.m, 0x100), M7EXC_E_LOCKUP);
	CHECK(h.m.err_what && strcmp(h.m.err_what, "STKERR") == 0);
	CHECK_EQ(h.m.err_exc, M7EXC_HARDFAULT);
	CHECK_EQ(h.n_log, 2);
	check_vector(1, 3 * 4, hardfault);
	uc_close(h.uc);

	/* VECTTBL: a table whose entry 32 (IRQ 16) lies past the end of RAM:
	 * HardFault on the same frame (its vector at VTOR + 12), HFSR.VECTTBL,
	 * IRQ 16 not active and still pending. */
	setup(0x100);
	uc_mem_write(h.uc, 0xFFF80u + 3 * 4, &hardfault, 4);
	CHECK_EQ(m7exc_scs_write(&h.m, 0xD08, 4, 0xFFF80u), 0);
	CHECK_EQ(m7exc_enter(&h.m, M7EXC_IRQ0 + 16, 0x104), 1);
	CHECK_EQ(h.n_log, 9);
	check_vector(8, 0xFFF80u + 3 * 4, hardfault);
	CHECK_EQ(rd(UC_ARM_REG_IPSR), M7EXC_HARDFAULT);
	CHECK_EQ(h.m.hfsr, 1u << 1);
	CHECK_EQ(h.m.cfsr, 0);
	CHECK_EQ(h.m.active, 1ull << M7EXC_HARDFAULT);
	CHECK_EQ(h.m.pending, 1ull << (M7EXC_IRQ0 + 16));
	/* ... and a HardFault vector that cannot be read either: lockup */
	h.m.vtor = 0x00200000u;
	h.m.active = 0;
	wr(UC_ARM_REG_XPSR, 0x01000000u);
	CHECK_EQ(m7exc_enter(&h.m, M7EXC_PENDSV, 0x104), M7EXC_E_LOCKUP);
	CHECK(h.m.err_what && strcmp(h.m.err_what, "VECTTBL") == 0);
	uc_close(h.uc);

	/* UNSTKERR: PendSV returns to thread mode on a PSP with nothing there:
	 * the return is abandoned (PendSV stays active, PSP unchanged) and
	 * HardFault FORCED is taken at the returning instruction, stacked on
	 * MSP. */
	setup(0x100);
	uc_mem_write(h.uc, 14 * 4, &pendsv, 4);
	uc_mem_write(h.uc, 3 * 4, &hardfault, 4);
	CHECK_EQ(m7exc_enter(&h.m, M7EXC_PENDSV, 0x100), 1);
	wr(UC_ARM_REG_PSP, 0x00200000u);
	h.n_log = 0;
	CHECK_EQ(m7exc_return(&h.m, 0xFFFFFFFDu, 0x10a), 1);
	CHECK_EQ(h.m.cfsr, 1u << 11);
	CHECK_EQ(h.m.hfsr, 1u << 30);
	CHECK_EQ(rd(UC_ARM_REG_IPSR), M7EXC_HARDFAULT);
	CHECK_EQ(rd(UC_ARM_REG_PSP), 0x00200000u);
	CHECK_EQ(h.m.active, (1ull << M7EXC_HARDFAULT) | (1ull << M7EXC_PENDSV));
	CHECK_EQ(h.n_log, 9); /* no unstacking read made, the eight stacking writes, the vector */
	CHECK_EQ(h.log[6].value, 0x10a);
	CHECK_EQ(h.log[0].addr, 0x7FC0u);
	check_vector(8, 3 * 4, hardfault);
	uc_close(h.uc);
}

/* A checkpoint's SCS state (TARGET-M7.md, Checkpoints): the values the
 * checkpoint driver reads, in m7exc_ckpt_regs order, loaded and read back.
 * Worked out by hand: SHCSR 0x00070888 = the three fault enables, SysTick
 * (bit 11), SVCall (7) and UsageFault (3) active; IABR0 0xC0 = IRQ 6 and 7
 * active; SHPR3 0xC0E00000 = PendSV 0xE0, SysTick 0xC0. */
static void test_load_ckpt(void)
{
	uint32_t v[M7EXC_CKPT_NREGS] = {0x00003200u, 0xFA050400u, 0x00040210u, 0x00070888u, 0x00100000u,
					0x40000000u, 0xC0E00000u, 0x000000C0u, 0, 0x20800000u};
	struct m7exc m;
	m7exc_init(&m, NULL, (struct m7exc_bus){NULL, NULL});
	CHECK_EQ(m7exc_ckpt_regs[0], 0xD08);
	CHECK_EQ(m7exc_ckpt_regs[7], 0x300);
	CHECK_EQ(m7exc_ckpt_regs[15], 0x41C);
	CHECK_EQ(m7exc_load_ckpt(&m, v), 0);
	CHECK_EQ(m.vtor, 0x3200u);
	CHECK_EQ(m.prigroup, 4);
	CHECK_EQ(m.ccr, 0x00040210u);
	CHECK_EQ(m.shcsr_ena, 7);
	CHECK_EQ(m.prio[M7EXC_USAGEFAULT], 0x10);
	CHECK_EQ(m.prio[M7EXC_SVCALL], 0x40);
	CHECK_EQ(m.prio[M7EXC_PENDSV], 0xE0);
	CHECK_EQ(m.prio[M7EXC_SYSTICK], 0xC0);
	CHECK_EQ(m.prio[M7EXC_IRQ0 + 6], 0x80);
	CHECK_EQ(m.prio[M7EXC_IRQ0 + 7], 0x20);
	uint64_t want = (1ull << M7EXC_NMI) | (1ull << M7EXC_USAGEFAULT) | (1ull << M7EXC_SVCALL) |
			(1ull << M7EXC_SYSTICK) | (1ull << (M7EXC_IRQ0 + 6)) | (1ull << (M7EXC_IRQ0 + 7));
	CHECK_EQ(m.active, want);
	CHECK_EQ(m.pending, 0);
	/* what no SCS register reads: 1 + the index of the first such value */
	uint32_t bad[M7EXC_CKPT_NREGS];
	memcpy(bad, v, sizeof bad);
	bad[0] = 0x3240; /* VTOR bits 6:0 */
	CHECK_EQ(m7exc_load_ckpt(&m, bad), 1);
	memcpy(bad, v, sizeof bad);
	bad[1] = 0x05FA0400; /* AIRCR reads 0xFA05 in 31:16 */
	CHECK_EQ(m7exc_load_ckpt(&m, bad), 2);
	memcpy(bad, v, sizeof bad);
	bad[2] = 0x00040214; /* CCR bit 2 is not writable */
	CHECK_EQ(m7exc_load_ckpt(&m, bad), 3);
	memcpy(bad, v, sizeof bad);
	bad[3] |= 1u << 4; /* SHCSR bit 4 reserved */
	CHECK_EQ(m7exc_load_ckpt(&m, bad), 4);
	memcpy(bad, v, sizeof bad);
	bad[9] = 0x20810000; /* IPR1: a priority's low 4 bits */
	CHECK_EQ(m7exc_load_ckpt(&m, bad), 10);
	memcpy(bad, v, sizeof bad);
	bad[3] |= 1u << 14; /* BUSFAULTPENDED: pending is not loaded, not compared */
	CHECK_EQ(m7exc_load_ckpt(&m, bad), 0);
}

/* An imprecise BusFault (a dropped device write): IMPRECISERR, BFARVALID
 * clear; HardFault FORCED pending with BusFault disabled, BusFault pending
 * with it enabled, whatever its priority; nothing taken. */
static void test_imprecise(void)
{
	struct m7exc m;
	uint32_t v = 0;
	m7exc_init(&m, NULL, (struct m7exc_bus){NULL, NULL});
	m7exc_imprecise(&m);
	CHECK_EQ(m.cfsr, 0x400u);
	CHECK_EQ(m.hfsr, 1u << 30);
	CHECK_EQ(m.pending, 1ull << M7EXC_HARDFAULT);
	CHECK_EQ(m7exc_scs_read(&m, 0xD28, 4, &v), 0); /* CFSR */
	CHECK_EQ(v, 0x400u);
	m7exc_init(&m, NULL, (struct m7exc_bus){NULL, NULL});
	m.shcsr_ena = 2; /* BUSFAULTENA */
	m.prio[M7EXC_BUSFAULT] = 0xF0;
	m7exc_imprecise(&m);
	CHECK_EQ(m.cfsr, 0x400u);
	CHECK_EQ(m.hfsr, 0);
	CHECK_EQ(m.pending, 1ull << M7EXC_BUSFAULT);
}

int main(void)
{
	test_imprecise();
	test_load_ckpt();
	test_nesting();
	test_masks();
	test_systick();
	test_svc_psp();
	test_faults();
	test_it_block();
	test_scs();
	test_bus_errors();
	CHECK_DONE();
}
