/*
 * m7imp.c - imprecise BusFaults on the Cortex-M7 (capture/TARGET-M7.md,
 * Faults; tests/m7imp.sh).  A 4-byte store to a device register no device
 * accepts (SYSCTL ID, read-only) is dropped by the bus and raises an
 * imprecise BusFault, taken at the next boundary (an EXC event): the store
 * completes, its return address is the instruction after it.  Worked out
 * by hand:
 *   CFSR = IMPRECISERR (bit 10) = 0x00000400 (BFARVALID clear)
 *   HFSR = 0, IPSR = 5 with BusFault enabled; HFSR = FORCED (bit 30) and
 *   IPSR = 3 (HardFault) with it disabled;
 *   the stacked return address = m7imp_after (the nop after the str);
 *   SYSCTL ID still reads CITCAT_SYSCTL_ID_VALUE (the write is lost).
 * With M7IMP_MASKED (the m7imp_masked build) BusFault has priority 8 and
 * BASEPRI is 4 at the store: the BusFault stays pending (no fault yet after
 * the store and the instructions after it) and is taken at the boundary
 * after the msr that clears BASEPRI, return address m7imp_unmasked (the nop
 * after that msr), IPSR 5, HFSR 0 (not escalated: an asynchronous fault
 * waits for its priority).
 * Exits 0 when all checks pass, else the number of failures.
 */
#include <stdio.h>

#include "citcat_m7.h"

extern char m7imp_after[], m7imp_unmasked[];
void BusFault_Handler(void);
void HardFault_Handler(void);
void m7imp_exc(uint32_t *frame);

static volatile uint32_t got_ipsr, got_cfsr, got_hfsr, got_pc, nfaults;
static int failures;

static void check(int ok, const char *what, uint32_t got, uint32_t want)
{
	if (!ok) {
		printf("FAIL %s: 0x%08lx, want 0x%08lx\n", what, (unsigned long)got, (unsigned long)want);
		failures++;
	}
}
#define CHECK_EQ(what, got, want) check((uint32_t)(got) == (uint32_t)(want), what, (uint32_t)(got), (uint32_t)(want))

__attribute__((naked)) void BusFault_Handler(void) { __asm__ volatile("mov r0, sp\n b m7imp_exc"); }
__attribute__((naked)) void HardFault_Handler(void) { __asm__ volatile("mov r0, sp\n b m7imp_exc"); }

void m7imp_exc(uint32_t *frame)
{
	uint32_t ipsr;
	__asm__ volatile("mrs %0, ipsr" : "=r"(ipsr));
	got_ipsr = ipsr;
	got_cfsr = CITCAT_REG(CITCAT_M7_SCB_CFSR);
	got_hfsr = CITCAT_REG(CITCAT_M7_SCB_HFSR);
	got_pc = frame[6];
	CITCAT_REG(CITCAT_M7_SCB_CFSR) = got_cfsr; /* write 1 to clear */
	CITCAT_REG(CITCAT_M7_SCB_HFSR) = got_hfsr;
	nfaults++;
}

/* str r0, [r1]: the write to a read-only register, then a nop */
__attribute__((noinline)) static void store(uint32_t addr, uint32_t v)
{
	__asm__ volatile("mov r1, %0\n mov r0, %1\n str r0, [r1]\n"
			 ".global m7imp_after\n m7imp_after: nop"
			 :: "r"(addr), "r"(v) : "r0", "r1", "memory");
}

static void expect(const char *what, uint32_t ipsr, uint32_t hfsr, const char *ret)
{
	char w[64];
	snprintf(w, sizeof w, "%s: faults", what);
	CHECK_EQ(w, nfaults, 1);
	snprintf(w, sizeof w, "%s: IPSR", what);
	CHECK_EQ(w, got_ipsr, ipsr);
	snprintf(w, sizeof w, "%s: CFSR", what);
	CHECK_EQ(w, got_cfsr, 0x00000400u);
	snprintf(w, sizeof w, "%s: HFSR", what);
	CHECK_EQ(w, got_hfsr, hfsr);
	snprintf(w, sizeof w, "%s: stacked return address", what);
	CHECK_EQ(w, got_pc, (uint32_t)ret);
	snprintf(w, sizeof w, "%s: the write is lost", what);
	CHECK_EQ(w, CITCAT_REG(CITCAT_SYSCTL_ID), CITCAT_SYSCTL_ID_VALUE);
	snprintf(w, sizeof w, "%s: CFSR cleared", what);
	CHECK_EQ(w, CITCAT_REG(CITCAT_M7_SCB_CFSR), 0);
	nfaults = 0;
}

int main(void)
{
	citcat_irq_unmask();
	citcat_m7_enable_faults();
#ifdef M7IMP_MASKED
	citcat_m7_set_system_priority(CITCAT_M7_EXC_BUSFAULT, 8);
	citcat_m7_set_basepri(4);
	store(CITCAT_SYSCTL_ID, 0x9abcu);
	CHECK_EQ("masked: no fault while BASEPRI masks it", nfaults, 0);
	__asm__ volatile("msr basepri, %0\n .global m7imp_unmasked\n m7imp_unmasked: nop" ::"r"(0u) : "memory");
	expect("masked BusFault", 5, 0, m7imp_unmasked);
#else
	store(CITCAT_SYSCTL_ID, 0x1234u);
	expect("BusFault", 5, 0, m7imp_after);
	/* BusFault disabled: HardFault, FORCED */
	CITCAT_REG(CITCAT_M7_SCB_SHCSR) &= ~(2u << CITCAT_M7_SHCSR_ENA_SHIFT);
	store(CITCAT_SYSCTL_ID, 0x5678u);
	expect("disabled BusFault", 3, CITCAT_M7_HFSR_FORCED, m7imp_after);
#endif
	printf("m7imp: %d failures\n", failures);
	return failures;
}
