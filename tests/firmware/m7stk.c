/*
 * m7stk.c - stacking, unstacking and vector-read bus errors on the Cortex-M7
 * (capture/TARGET-M7.md, "Stacking, unstacking and vector-read errors";
 * tests/m7stk.sh).  Captured with --ram 32M (RAM 0 .. 0x01FFFFFF; the
 * BSP's MSP stays at 0x01000000).  Every value is worked out by hand:
 *
 * (a) STKERR: thread mode on PSP = 0x30000000 (nothing below it), `svc` at
 *     m7stk_svc: the eight stacking writes at 0x2FFFFFE0.. fail and are
 *     lost, SVC_Handler is entered anyway (PSP = 0x2FFFFFE0) and a BusFault
 *     becomes pending (enabled, priority 0 below SVCall's 0x80), taken at
 *     the handler's first instruction: the BusFault handler reads
 *     CFSR = STKERR (bit 12) = 0x00001000, HFSR = 0, its stacked return
 *     address = SVC_Handler, stacked xPSR IPSR = 11.
 * (b) UNSTKERR: SVC_Handler returns (bx lr at m7stk_ret, EXC_RETURN
 *     0xFFFFFFFD) and the unstacking read at PSP = 0x2FFFFFE0 fails: the
 *     return is abandoned, BusFault taken with return address = m7stk_ret,
 *     CFSR = UNSTKERR (bit 11) = 0x00000800, IPSR stacked 11, PSP still
 *     0x2FFFFFE0.  The handler points PSP at a good frame returning to
 *     m7stk_back, and the bx lr, run again, returns there.
 * (d) STKERR and UNSTKERR in part: the same on PSP = 0x02000010, 16 bytes
 *     past the end of RAM, with r2 = 0x22 and r3 = 0x33: the frame at
 *     0x01FFFFF0 (8-byte aligned, no padding) gets its first four words,
 *     r0 = 0x02000010, r1 = CONTROL (SPSEL set: 0x00000002), r2, r3, in RAM
 *     and loses r12, LR, PC and xPSR at 0x02000000..0x0200000C; BusFault
 *     STKERR as in (a), PSP = 0x01FFFFF0.  The return reads r0..r3 and fails
 *     at the fifth word, 0x02000000: UNSTKERR as in (b), PSP unchanged.
 * (c) VECTTBL: VTOR = 0x01FFFF80 (a copy of vectors 0..31 at the top of
 *     RAM), IRQ 16 (exception 32) enabled and pended: its vector at
 *     0x02000000 cannot be read, so HardFault is taken on the same frame
 *     with HFSR = VECTTBL (bit 1) = 0x00000002, CFSR = 0, and IRQ 16 stays
 *     pending (ISPR bit 16 set, as read by the handler), which clears it.
 * Exits 0 when all checks pass, else the number of failures.
 */
#include <stdio.h>
#include <string.h>

#include "citcat_m7.h"

#define BAD_PSP 0x30000000u
#define PART_PSP 0x02000010u /* RAM ends at 0x02000000 (--ram 32M) */
#define PART_FRAME 0x01FFFFF0u
#define TOP_TABLE 0x01FFFF80u

extern char m7stk_svc[], m7stk_ret[], m7stk_back[];
void SVC_Handler(void);
void BusFault_Handler(void);
void HardFault_Handler(void);
void m7stk_bf(uint32_t *frame);
void m7stk_hf(uint32_t *frame);
void m7stk_run(uint32_t psp);

static volatile uint32_t bf_n, bf_cfsr[4], bf_hfsr[4], bf_pc[4], bf_ipsr[4], bf_psp[4];
static volatile uint32_t hf_n, hf_hfsr, hf_cfsr, hf_ispr, hf_ipsr, svc_n;
static uint32_t good_frame[8] __attribute__((aligned(8)));
static int failures;

static void check(int ok, const char *what, uint32_t got, uint32_t want)
{
	if (!ok) {
		printf("FAIL %s: 0x%08lx, want 0x%08lx\n", what, (unsigned long)got, (unsigned long)want);
		failures++;
	}
}
#define CHECK_EQ(what, got, want) check((uint32_t)(got) == (uint32_t)(want), what, (uint32_t)(got), (uint32_t)(want))

__attribute__((naked)) void BusFault_Handler(void) { __asm__ volatile("mov r0, sp\n b m7stk_bf"); }
__attribute__((naked)) void HardFault_Handler(void) { __asm__ volatile("mov r0, sp\n b m7stk_hf"); }
/* counts, then returns: the bx lr is the exception return of (b) */
__attribute__((naked)) void SVC_Handler(void)
{
	__asm__ volatile("ldr r0, =svc_n\n ldr r1, [r0]\n adds r1, #1\n str r1, [r0]\n"
			 ".global m7stk_ret\n m7stk_ret: bx lr\n .ltorg");
}

void m7stk_bf(uint32_t *frame)
{
	uint32_t psp, ipsr, n = bf_n;
	__asm__ volatile("mrs %0, psp" : "=r"(psp));
	__asm__ volatile("mrs %0, ipsr" : "=r"(ipsr));
	if (n < 4) {
		bf_cfsr[n] = CITCAT_REG(CITCAT_M7_SCB_CFSR);
		bf_hfsr[n] = CITCAT_REG(CITCAT_M7_SCB_HFSR);
		bf_pc[n] = frame[6];
		bf_ipsr[n] = (frame[7] & 0x1ffu) | (ipsr << 16);
		bf_psp[n] = psp;
	}
	CITCAT_REG(CITCAT_M7_SCB_CFSR) = CITCAT_REG(CITCAT_M7_SCB_CFSR); /* write 1 to clear */
	if (n == 1 || n == 3) { /* UNSTKERR: a good frame for the return run again */
		memset(good_frame, 0, sizeof good_frame);
		good_frame[6] = (uint32_t)m7stk_back & ~1u;
		good_frame[7] = 0x01000000u;
		__asm__ volatile("msr psp, %0" ::"r"(good_frame));
	}
	bf_n = n + 1;
}

void m7stk_hf(uint32_t *frame)
{
	uint32_t ipsr;
	(void)frame;
	__asm__ volatile("mrs %0, ipsr" : "=r"(ipsr));
	hf_ipsr = ipsr;
	hf_hfsr = CITCAT_REG(CITCAT_M7_SCB_HFSR);
	hf_cfsr = CITCAT_REG(CITCAT_M7_SCB_CFSR);
	hf_ispr = CITCAT_REG(CITCAT_M7_NVIC_ISPR);
	CITCAT_REG(CITCAT_M7_SCB_HFSR) = hf_hfsr;
	CITCAT_REG(CITCAT_M7_SCB_VTOR) = 0;
	CITCAT_REG(CITCAT_M7_NVIC_ICER) = 1u << 16;
	CITCAT_REG(CITCAT_M7_NVIC_ICPR) = 1u << 16;
	hf_n++;
}

/* thread mode on PSP = r0, svc, back on MSP (r4-r7 and lr kept on MSP).
 * Before the svc it spins 2000 instructions on that PSP without touching
 * the stack: a checkpoint due there (m7stk.sh, --checkpoint-every 1000)
 * must wait, its NMI frame would not be in RAM (TARGET-M7.md, Checkpoints). */
__attribute__((naked, noinline)) void m7stk_run(uint32_t psp __attribute__((unused)))
{
	__asm__ volatile("push {r4-r7, lr}\n"
			 "msr psp, r0\n mrs r1, control\n orr r1, r1, #2\n msr control, r1\n isb\n"
			 "movw r2, #1000\n 1: subs r2, #1\n bne 1b\n" /* 2000 instructions on PSP, no stack use */
			 "movs r2, #0x22\n movs r3, #0x33\n"
			 ".global m7stk_svc\n m7stk_svc: svc #0\n"
			 ".global m7stk_back\n .thumb_func\n m7stk_back: mrs r1, control\n bic r1, r1, #2\n"
			 "msr control, r1\n isb\n pop {r4-r7, pc}");
}

int main(void)
{
	CITCAT_REG(CITCAT_M7_SCB_SHCSR) |= 1u << (CITCAT_M7_SHCSR_ENA_SHIFT + 1); /* BUSFAULTENA */
	CITCAT_REG(CITCAT_M7_SCB_SHPR + 4) = 0x80u << 24;                        /* SVCall 0x80 */
	__asm__ volatile("cpsie i" ::: "memory");

	m7stk_run(BAD_PSP);
	CHECK_EQ("svc handler runs", svc_n, 1);
	CHECK_EQ("bus faults", bf_n, 2);
	CHECK_EQ("STKERR CFSR", bf_cfsr[0], 0x00001000u);
	CHECK_EQ("STKERR HFSR", bf_hfsr[0], 0);
	CHECK_EQ("STKERR return address", bf_pc[0], (uint32_t)SVC_Handler & ~1u);
	CHECK_EQ("STKERR IPSR (stacked | now << 16)", bf_ipsr[0], 11u | (5u << 16));
	CHECK_EQ("STKERR PSP", bf_psp[0], BAD_PSP - 0x20u);
	CHECK_EQ("UNSTKERR CFSR", bf_cfsr[1], 0x00000800u);
	CHECK_EQ("UNSTKERR HFSR", bf_hfsr[1], 0);
	CHECK_EQ("UNSTKERR return address", bf_pc[1], (uint32_t)m7stk_ret & ~1u);
	CHECK_EQ("UNSTKERR IPSR (stacked | now << 16)", bf_ipsr[1], 11u | (5u << 16));
	CHECK_EQ("UNSTKERR PSP", bf_psp[1], BAD_PSP - 0x20u);

	volatile uint32_t *part = (volatile uint32_t *)PART_FRAME;
	for (int i = 0; i < 4; i++)
		part[i] = 0xdeadbeefu;
	m7stk_run(PART_PSP);
	CHECK_EQ("part: svc handler runs", svc_n, 2);
	CHECK_EQ("part: bus faults", bf_n, 4);
	CHECK_EQ("part: STKERR CFSR", bf_cfsr[2], 0x00001000u);
	CHECK_EQ("part: STKERR return address", bf_pc[2], (uint32_t)SVC_Handler & ~1u);
	CHECK_EQ("part: STKERR PSP", bf_psp[2], PART_FRAME);
	CHECK_EQ("part: stacked r0", part[0], PART_PSP);
	CHECK_EQ("part: stacked r1 (CONTROL)", part[1], 2);
	CHECK_EQ("part: stacked r2", part[2], 0x22);
	CHECK_EQ("part: stacked r3", part[3], 0x33);
	CHECK_EQ("part: UNSTKERR CFSR", bf_cfsr[3], 0x00000800u);
	CHECK_EQ("part: UNSTKERR return address", bf_pc[3], (uint32_t)m7stk_ret & ~1u);
	CHECK_EQ("part: UNSTKERR PSP", bf_psp[3], PART_FRAME);

	volatile uint32_t *from = (volatile uint32_t *)CITCAT_REG(CITCAT_M7_SCB_VTOR); /* 0 */
	for (uint32_t i = 0; i < 32; i++) /* entries 0..31 */
		((volatile uint32_t *)TOP_TABLE)[i] = from[i];
	CITCAT_REG(CITCAT_M7_SCB_VTOR) = TOP_TABLE;
	CITCAT_REG(CITCAT_M7_NVIC_ISER) = 1u << 16;
	CITCAT_REG(CITCAT_M7_NVIC_ISPR) = 1u << 16;
	__asm__ volatile("dsb\n isb" ::: "memory");
	CHECK_EQ("VECTTBL HardFaults", hf_n, 1);
	CHECK_EQ("VECTTBL HFSR", hf_hfsr, 0x00000002u);
	CHECK_EQ("VECTTBL CFSR", hf_cfsr, 0);
	CHECK_EQ("VECTTBL IPSR", hf_ipsr, 3);
	CHECK_EQ("VECTTBL IRQ 16 still pending", hf_ispr, 1u << 16);
	CHECK_EQ("HFSR cleared", CITCAT_REG(CITCAT_M7_SCB_HFSR), 0);
	printf("m7stk: %d failures\n", failures);
	return failures;
}
