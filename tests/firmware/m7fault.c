/*
 * m7fault.c - precise data bus errors on the Cortex-M7 (capture/TARGET-M7.md,
 * Faults; tests/m7fault.sh).  A load from and a store to unmapped addresses
 * vector to BusFault with BusFault enabled (SHCSR.BUSFAULTENA), and escalate
 * to HardFault (HFSR.FORCED) with it disabled or masked by BASEPRI.  The
 * handlers read CFSR, BFAR and HFSR through the SCS, check the stacked frame
 * (R0 = the value the faulting load would have replaced, R1 = the address,
 * return address = the faulting instruction), clear the status bits and step
 * over the 16-bit faulting instruction.  Every value is worked out by hand:
 *   CFSR = PRECISERR (bit 9) | BFARVALID (bit 15) = 0x00008200
 *   BFAR = the address accessed, HFSR = FORCED (bit 30) when escalated.
 * Then a call (blx) to an unmapped Thumb address: an instruction fetch bus
 * error, IBUSERR, vectored to BusFault at the first instruction that cannot
 * be fetched: CFSR = IBUSERR (bit 8) = 0x00000100 (BFAR not valid), the
 * stacked return address = the unmapped address, the stacked LR = the
 * return address of the blx, xPSR.T = 1; the handler returns to the caller
 * (PC = LR), as if the call had returned with r0 unchanged.
 * The address of the first load is chosen by a value read from the SCS
 * (CPUID), so that the replay tampering test (tests/m7fault.sh) can make it
 * a RAM address through the AES.  Exits 0 when all checks pass, else the
 * number of failures.
 */
#include <stdio.h>

#include "citcat_m7.h"

#define BAD_LOAD 0x30000004u  /* nothing there (TARGET-M7.md, Memory map) */
#define BAD_STORE 0x50000008u /* between the device window and the SCS */
#define BAD_CODE 0x30000100u  /* nothing there either */

extern char m7fault_ld[], m7fault_st[], m7fault_call[];
void BusFault_Handler(void);
void HardFault_Handler(void);
void m7fault_exc(uint32_t *frame);

static volatile uint32_t got_ipsr, got_cfsr, got_bfar, got_hfsr, got_r0, got_r1, got_lr, got_pc, got_xpsr, nfaults;
static volatile int fetch_fault; /* the handler returns to the caller (PC = LR) */
static volatile uint32_t ram_word = 0x12345678u;
static int failures;

static void check(int ok, const char *what, uint32_t got, uint32_t want)
{
	if (!ok) {
		printf("FAIL %s: 0x%08lx, want 0x%08lx\n", what, (unsigned long)got, (unsigned long)want);
		failures++;
	}
}
#define CHECK_EQ(what, got, want) check((uint32_t)(got) == (uint32_t)(want), what, (uint32_t)(got), (uint32_t)(want))

/* Both handlers: r0 = the frame (thread mode runs on MSP here). */
__attribute__((naked)) void BusFault_Handler(void) { __asm__ volatile("mov r0, sp\n b m7fault_exc"); }
__attribute__((naked)) void HardFault_Handler(void) { __asm__ volatile("mov r0, sp\n b m7fault_exc"); }

void m7fault_exc(uint32_t *frame)
{
	uint32_t ipsr;
	__asm__ volatile("mrs %0, ipsr" : "=r"(ipsr));
	got_ipsr = ipsr;
	got_cfsr = CITCAT_REG(CITCAT_M7_SCB_CFSR);
	got_bfar = CITCAT_REG(CITCAT_M7_SCB_BFAR);
	got_hfsr = CITCAT_REG(CITCAT_M7_SCB_HFSR);
	got_r0 = frame[0];
	got_r1 = frame[1];
	got_lr = frame[5];
	got_pc = frame[6];
	got_xpsr = frame[7];
	CITCAT_REG(CITCAT_M7_SCB_CFSR) = got_cfsr; /* write 1 to clear */
	CITCAT_REG(CITCAT_M7_SCB_HFSR) = got_hfsr;
	nfaults++;
	if (fetch_fault)
		frame[6] = frame[5] & ~1u; /* back to the caller of the unmapped address */
	else
		frame[6] += 2; /* step over the 16-bit ldr/str */
}

/* ldr r0, [r1] with r0 = 0x5a beforehand: returns what r0 holds after it */
__attribute__((noinline)) static uint32_t load(uint32_t addr)
{
	uint32_t v;
	__asm__ volatile("mov r1, %1\n movs r0, #0x5a\n"
			 ".global m7fault_ld\n m7fault_ld: ldr r0, [r1]\n"
			 "mov %0, r0"
			 : "=r"(v) : "r"(addr) : "r0", "r1", "memory");
	return v;
}

__attribute__((noinline)) static void store(uint32_t addr)
{
	__asm__ volatile("mov r1, %0\n movs r0, #0x7b\n"
			 ".global m7fault_st\n m7fault_st: str r0, [r1]"
			 :: "r"(addr) : "r0", "r1", "memory");
}

/* blx r1 to an unmapped Thumb address, r0 = 0x3c beforehand: returns r0 */
__attribute__((noinline)) static uint32_t call(uint32_t addr)
{
	uint32_t v;
	__asm__ volatile("mov r1, %1\n movs r0, #0x3c\n"
			 ".global m7fault_call\n m7fault_call: blx r1\n"
			 "mov %0, r0"
			 : "=r"(v) : "r"(addr) : "r0", "r1", "r2", "r3", "r12", "lr", "memory");
	return v;
}

static void expect(const char *what, uint32_t ipsr, uint32_t hfsr, uint32_t addr, uint32_t r0, const char *insn)
{
	char w[64];
	snprintf(w, sizeof w, "%s: faults", what);
	CHECK_EQ(w, nfaults, 1);
	snprintf(w, sizeof w, "%s: IPSR", what);
	CHECK_EQ(w, got_ipsr, ipsr);
	snprintf(w, sizeof w, "%s: CFSR", what);
	CHECK_EQ(w, got_cfsr, 0x00008200u);
	snprintf(w, sizeof w, "%s: BFAR", what);
	CHECK_EQ(w, got_bfar, addr);
	snprintf(w, sizeof w, "%s: HFSR", what);
	CHECK_EQ(w, got_hfsr, hfsr);
	snprintf(w, sizeof w, "%s: stacked R0", what);
	CHECK_EQ(w, got_r0, r0);
	snprintf(w, sizeof w, "%s: stacked R1", what);
	CHECK_EQ(w, got_r1, addr);
	snprintf(w, sizeof w, "%s: stacked return address", what);
	CHECK_EQ(w, got_pc, (uint32_t)insn);
	snprintf(w, sizeof w, "%s: CFSR cleared", what);
	CHECK_EQ(w, CITCAT_REG(CITCAT_M7_SCB_CFSR), 0);
	nfaults = 0;
}

int main(void)
{
	/* PRIMASK (set by the BSP's startup) would keep BusFault from
	 * preempting: execution priority 0, an escalation to HardFault */
	citcat_irq_unmask();
	/* BusFault enabled: the load does not complete (r0 keeps 0x5a) */
	citcat_m7_enable_faults();
	uint32_t bad = CITCAT_REG(CITCAT_M7_SCB_CPUID) == 0x411FC270u ? BAD_LOAD : (uint32_t)&ram_word;
	uint32_t v = load(bad);
	CHECK_EQ("load result", v, 0x5a);
	expect("BusFault load", 5, 0, BAD_LOAD, 0x5a, m7fault_ld);
	store(BAD_STORE);
	expect("BusFault store", 5, 0, BAD_STORE, 0x7b, m7fault_st);

	/* IBUSERR: the fetch at BAD_CODE fails; nothing there executes */
	fetch_fault = 1;
	v = call(BAD_CODE | 1u);
	fetch_fault = 0;
	CHECK_EQ("call result", v, 0x3c);
	CHECK_EQ("IBUSERR: faults", nfaults, 1);
	CHECK_EQ("IBUSERR: IPSR", got_ipsr, 5);
	CHECK_EQ("IBUSERR: CFSR", got_cfsr, 0x00000100u);
	CHECK_EQ("IBUSERR: HFSR", got_hfsr, 0);
	CHECK_EQ("IBUSERR: stacked R0", got_r0, 0x3c);
	CHECK_EQ("IBUSERR: stacked R1", got_r1, BAD_CODE | 1u);
	CHECK_EQ("IBUSERR: stacked return address", got_pc, BAD_CODE);
	CHECK_EQ("IBUSERR: stacked LR", got_lr, (uint32_t)m7fault_call + 2u + 1u);
	CHECK_EQ("IBUSERR: stacked xPSR.T", got_xpsr & (1u << 24), 1u << 24);
	CHECK_EQ("IBUSERR: CFSR cleared", CITCAT_REG(CITCAT_M7_SCB_CFSR), 0);
	nfaults = 0;

	/* BusFault masked: priority 8 does not preempt BASEPRI 4: HardFault */
	citcat_m7_set_system_priority(CITCAT_M7_EXC_BUSFAULT, 8);
	citcat_m7_set_basepri(4);
	v = load(BAD_LOAD);
	CHECK_EQ("masked load result", v, 0x5a);
	citcat_m7_set_basepri(0);
	expect("masked BusFault", 3, CITCAT_M7_HFSR_FORCED, BAD_LOAD, 0x5a, m7fault_ld);

	/* BusFault disabled: HardFault, FORCED */
	CITCAT_REG(CITCAT_M7_SCB_SHCSR) &= ~(2u << CITCAT_M7_SHCSR_ENA_SHIFT);
	store(BAD_STORE);
	expect("disabled BusFault", 3, CITCAT_M7_HFSR_FORCED, BAD_STORE, 0x7b, m7fault_st);

	v = load((uint32_t)&ram_word);
	CHECK_EQ("a mapped load after the faults", v, 0x12345678u);
	printf("m7fault: %d failures\n", failures);
	return failures;
}
