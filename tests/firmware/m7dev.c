/*
 * m7dev.c - device and SCS bus errors on the Cortex-M7 (capture/TARGET-M7.md,
 * "BusFault (device and SCS bus errors)"; tests/m7dev.sh).  Loads from
 * device registers no device reads, device reads of the wrong size, and
 * refused SCS accesses are precise BusFaults of the instruction: it does
 * not complete (its destination and base write-back unchanged; an ldm keeps
 * the registers loaded before the failing word, as for an unmapped
 * address), CFSR = PRECISERR | BFARVALID = 0x00008200, BFAR = the address
 * of the access that failed, the stacked return address = the instruction.
 * A device write of the wrong size is imprecise: dropped, CFSR = IMPRECISERR
 * = 0x00000400, BFAR unchanged, taken at the next boundary (return address
 * = the next instruction).  Every value is worked out by hand:
 *  ldr   r0, [0x40000000]       SYSCTL EXIT is write-only: BFAR 0x40000000, r0 keeps 0x5a
 *  ldr.w r2, [r1], #4           r1 = 0x40000010 (in SYSCTL, no register): r2 keeps 0x22, r1 not written back
 *  ldrb  r0, [0x40000008]       SYSCTL ID, a byte: BFAR 0x40000008
 *  ldm   r1!, {r2, r3}          r1 = 0x4000000C: CLOCK_HZ (read, r2 = its value), then 0x40000010 fails:
 *                               BFAR 0x40000010, r3 keeps 0x33, r1 not written back
 *  ldr.w pc, [0x40000000]       no branch: the handler steps over it
 *  ldr.w sp, [0x40000000]       SP unchanged
 *  ldr   r0, [0xE000ED40]       an SCS register citcat does not model: BFAR 0xE000ED40
 *  strh  r0, [0xE000ED08]       VTOR is word-only: BFAR 0xE000ED08, VTOR stays 0
 *  strb  r0, [0x40000004]       SYSCTL SCRATCH, a byte: imprecise, SCRATCH keeps 0x5c5c5c5c
 *  ldr   r0, [0x40000000]       BusFault disabled: HardFault, HFSR = FORCED = 0x40000000
 * Exits 0 when all checks pass, else the number of failures.  Built with
 * -DM7DEV_NOHANDLER (m7dev_nohandler.elf) it has no fault handlers: the
 * first ldr stops the capture ("BusFault PRECISERR ..., no handler").
 */
#include <stdio.h>

#include "citcat_m7.h"

#define SCS_UNMODELLED 0xE000ED40u /* ID_PFR0: not in citcat's SCS */

extern char m7dev_ldr[], m7dev_post[], m7dev_byte[], m7dev_ldm[], m7dev_pc[], m7dev_sp[], m7dev_scsr[],
	m7dev_scsw[], m7dev_strb[];
void BusFault_Handler(void);
void HardFault_Handler(void);
void m7dev_exc(uint32_t *frame);

static volatile uint32_t got_ipsr, got_cfsr, got_bfar, got_hfsr, got_r[4], got_pc, nfaults, step;
volatile uint32_t m7dev_after[4]; /* r0..r3 after the instruction (stored by the test functions) */
static int failures;

static void check(int ok, const char *what, uint32_t got, uint32_t want)
{
	if (!ok) {
		printf("FAIL %s: 0x%08lx, want 0x%08lx\n", what, (unsigned long)got, (unsigned long)want);
		failures++;
	}
}
#define CHECK_EQ(what, got, want) check((uint32_t)(got) == (uint32_t)(want), what, (uint32_t)(got), (uint32_t)(want))

#ifndef M7DEV_NOHANDLER /* without: the first fault stops the capture (m7dev.sh) */
__attribute__((naked)) void BusFault_Handler(void) { __asm__ volatile("mov r0, sp\n b m7dev_exc"); }
__attribute__((naked)) void HardFault_Handler(void) { __asm__ volatile("mov r0, sp\n b m7dev_exc"); }
#endif

void m7dev_exc(uint32_t *frame)
{
	uint32_t ipsr;
	__asm__ volatile("mrs %0, ipsr" : "=r"(ipsr));
	got_ipsr = ipsr;
	got_cfsr = CITCAT_REG(CITCAT_M7_SCB_CFSR);
	got_bfar = CITCAT_REG(CITCAT_M7_SCB_BFAR);
	got_hfsr = CITCAT_REG(CITCAT_M7_SCB_HFSR);
	for (int i = 0; i < 4; i++)
		got_r[i] = frame[i];
	got_pc = frame[6];
	CITCAT_REG(CITCAT_M7_SCB_CFSR) = got_cfsr; /* write 1 to clear */
	CITCAT_REG(CITCAT_M7_SCB_HFSR) = got_hfsr;
	nfaults++;
	frame[6] += step; /* over the faulting instruction (0: imprecise, already past it) */
}

/* Each test: r1 = ADDR, r0 = 0x5a, r2 = 0x22, r3 = 0x33, the instruction
 * at LABEL, then r0..r3 to m7dev_after. */
#define TEST(fn, label, insn)                                                                                  \
	__attribute__((naked, noinline)) static void fn(uint32_t addr __attribute__((unused)))                \
	{                                                                                                       \
		__asm__ volatile("push {r4, lr}\n mov r1, r0\n movs r0, #0x5a\n movs r2, #0x22\n movs r3, #0x33\n" \
				 ".global " #label "\n" #label ": " insn "\n"                                     \
				 "ldr r4, =m7dev_after\n stm r4, {r0-r3}\n pop {r4, pc}\n .ltorg");              \
	}
TEST(t_ldr, m7dev_ldr, "ldr r0, [r1]")
TEST(t_post, m7dev_post, "ldr.w r2, [r1], #4")
TEST(t_byte, m7dev_byte, "ldrb r0, [r1]")
TEST(t_ldm, m7dev_ldm, "ldm r1!, {r2, r3}")
TEST(t_pc, m7dev_pc, "ldr.w pc, [r1]")
TEST(t_scsr, m7dev_scsr, "ldr r0, [r1]")
TEST(t_scsw, m7dev_scsw, "strh r0, [r1]")
TEST(t_strb, m7dev_strb, "strb r0, [r1]\n nop")
/* ldr.w sp: r3 = 0x33 at the instruction, then r3 = SP after - SP before */
__attribute__((naked, noinline)) static void t_sp(uint32_t addr __attribute__((unused)))
{
	__asm__ volatile("push {r4, lr}\n mov r1, r0\n movs r0, #0x5a\n movs r2, #0x22\n movs r3, #0x33\n mov r12, sp\n"
			 ".global m7dev_sp\n m7dev_sp: ldr.w sp, [r1]\n"
			 "mov r3, sp\n sub r3, r3, r12\n ldr r4, =m7dev_after\n stm r4, {r0-r3}\n pop {r4, pc}\n .ltorg");
}

/* a check of case WHAT, field FIELD with index I (< 0: none); the message
 * is made only on failure (snprintf per check made m7dev 30 times longer) */
static void check2(const char *what, const char *field, int i, uint32_t got, uint32_t want)
{
	if (got != want) {
		if (i >= 0)
			printf("FAIL %s: %s%d: 0x%08lx, want 0x%08lx\n", what, field, i, (unsigned long)got, (unsigned long)want);
		else
			printf("FAIL %s: %s: 0x%08lx, want 0x%08lx\n", what, field, (unsigned long)got, (unsigned long)want);
		failures++;
	}
}

static void expect(const char *what, uint32_t ipsr, uint32_t cfsr, uint32_t hfsr, uint32_t bfar, const char *insn,
		   const uint32_t want_r[4])
{
	check2(what, "faults", -1, nfaults, 1);
	check2(what, "IPSR", -1, got_ipsr, ipsr);
	check2(what, "CFSR", -1, got_cfsr, cfsr);
	check2(what, "BFAR", -1, got_bfar, bfar);
	check2(what, "HFSR", -1, got_hfsr, hfsr);
	check2(what, "stacked return address", -1, got_pc, (uint32_t)insn);
	for (int i = 0; i < 4; i++) {
		check2(what, "stacked r", i, got_r[i], want_r[i]);
		check2(what, "after: r", i, m7dev_after[i], want_r[i]);
	}
	check2(what, "CFSR cleared", -1, CITCAT_REG(CITCAT_M7_SCB_CFSR), 0);
	nfaults = 0;
}

int main(void)
{
	citcat_irq_unmask(); /* PRIMASK would make every BusFault a HardFault */
	citcat_m7_enable_faults();
	const uint32_t precise = 0x00008200u;

	step = 2;
	t_ldr(CITCAT_SYSCTL_EXIT);
	expect("ldr EXIT", 5, precise, 0, CITCAT_SYSCTL_EXIT, m7dev_ldr,
	       (const uint32_t[]){0x5a, CITCAT_SYSCTL_EXIT, 0x22, 0x33});
	step = 4;
	t_post(CITCAT_SYSCTL_BASE + 0x10u);
	expect("ldr.w post-indexed", 5, precise, 0, CITCAT_SYSCTL_BASE + 0x10u, m7dev_post,
	       (const uint32_t[]){0x5a, CITCAT_SYSCTL_BASE + 0x10u, 0x22, 0x33});
	step = 2;
	t_byte(CITCAT_SYSCTL_ID);
	expect("ldrb ID", 5, precise, 0, CITCAT_SYSCTL_ID, m7dev_byte,
	       (const uint32_t[]){0x5a, CITCAT_SYSCTL_ID, 0x22, 0x33});
	uint32_t hz = CITCAT_REG(CITCAT_SYSCTL_CLOCK_HZ);
	t_ldm(CITCAT_SYSCTL_CLOCK_HZ);
	expect("ldm CLOCK_HZ, next", 5, precise, 0, CITCAT_SYSCTL_CLOCK_HZ + 4u, m7dev_ldm,
	       (const uint32_t[]){0x5a, CITCAT_SYSCTL_CLOCK_HZ, hz, 0x33});
	step = 4;
	t_pc(CITCAT_SYSCTL_EXIT);
	expect("ldr.w pc", 5, precise, 0, CITCAT_SYSCTL_EXIT, m7dev_pc,
	       (const uint32_t[]){0x5a, CITCAT_SYSCTL_EXIT, 0x22, 0x33});
	t_sp(CITCAT_SYSCTL_EXIT);
	CHECK_EQ("ldr.w sp: SP unchanged", m7dev_after[3], 0);
	m7dev_after[3] = 0x33; /* r3 after was the difference; the stacked r3 is 0x33 */
	expect("ldr.w sp", 5, precise, 0, CITCAT_SYSCTL_EXIT, m7dev_sp,
	       (const uint32_t[]){0x5a, CITCAT_SYSCTL_EXIT, 0x22, 0x33});
	step = 2;
	t_scsr(SCS_UNMODELLED);
	expect("SCS read", 5, precise, 0, SCS_UNMODELLED, m7dev_scsr,
	       (const uint32_t[]){0x5a, SCS_UNMODELLED, 0x22, 0x33});
	t_scsw(CITCAT_M7_SCB_VTOR);
	expect("SCS strh VTOR", 5, precise, 0, CITCAT_M7_SCB_VTOR, m7dev_scsw,
	       (const uint32_t[]){0x5a, CITCAT_M7_SCB_VTOR, 0x22, 0x33});
	CHECK_EQ("VTOR unchanged", CITCAT_REG(CITCAT_M7_SCB_VTOR), 0);

	/* imprecise: the strb completes, the BusFault follows at the next
	 * boundary (the nop); BFAR keeps the SCS write's address */
	CITCAT_REG(CITCAT_SYSCTL_SCRATCH) = 0x5c5c5c5cu;
	step = 0;
	t_strb(CITCAT_SYSCTL_SCRATCH);
	expect("strb SCRATCH", 5, 0x00000400u, 0, CITCAT_M7_SCB_VTOR, m7dev_strb + 2,
	       (const uint32_t[]){0x5a, CITCAT_SYSCTL_SCRATCH, 0x22, 0x33});
	CHECK_EQ("SCRATCH unchanged", CITCAT_REG(CITCAT_SYSCTL_SCRATCH), 0x5c5c5c5cu);

	/* BusFault disabled: HardFault, FORCED */
	CITCAT_REG(CITCAT_M7_SCB_SHCSR) &= ~(2u << CITCAT_M7_SHCSR_ENA_SHIFT);
	step = 2;
	t_ldr(CITCAT_SYSCTL_EXIT);
	expect("disabled BusFault", 3, precise, CITCAT_M7_HFSR_FORCED, CITCAT_SYSCTL_EXIT, m7dev_ldr,
	       (const uint32_t[]){0x5a, CITCAT_SYSCTL_EXIT, 0x22, 0x33});
	printf("m7dev: %d failures\n", failures);
	return failures;
}
