/*
 * m7it.c - a precise BusFault inside an IT block on the Cortex-M7
 * (capture/TARGET-M7.md, "IT blocks and bus errors"; tests/m7it.sh).  The
 * entry stacks the faulting instruction's ITSTATE in xPSR's IT bits (IT[1:0]
 * at 26:25, IT[7:2] at 15:10), and the exception return resumes inside the
 * block with the ITSTATE the frame holds.  Every value is worked out by hand:
 *
 * (a) cmp r0, r0 (Z = 1); itet eq (0xbf0a: ITSTATE 0x0a at its first
 *     instruction); ldreq r2, [r1] with r1 = 0x30000000 (nothing there):
 *     BusFault, CFSR = 0x00008200, BFAR = 0x30000000, stacked return
 *     address = m7it_a, stacked IT bits = 0x04000800 (0x0a: IT[1:0] = 2,
 *     IT[7:2] = 2).  The handler steps over it as the architecture wants:
 *     PC + 2 and ITSTATE advanced to 0x14 (IT bits 0x00001400: the movne's
 *     NE).  Back in the block: movne r4, #4 fails (r4 keeps 0x44), moveq
 *     r3, #3 runs (r3 = 3), r2 keeps 0x22.
 * (b) ite eq (0xbf0c: ITSTATE 0x0c); ldreq r2, [r1] faults the same way,
 *     stacked IT bits 0x00000c00; the handler points the stacked r1 at
 *     ram_word and returns to the ldreq itself with its ITSTATE: it runs
 *     again, conditionally, and loads 0x12345678; movne r4, #4 fails.
 * (c) An instruction fetch bus error inside an IT block: section .m7it_end,
 *     linked at the last 8 bytes of RAM (tests/m7fault.cmake), holds nop,
 *     ittt ne (0xbf1e) at RAM_END - 6, movne r1, #1 and movne r2, #2.  The
 *     outermost frame's saved registers (it never returns) overwrote them,
 *     so the program writes the image's bytes back there first (the image
 *     stays what runs, as the DAF's image path needs) and restores the
 *     stack's after.  With Z = 1 (cmp r0, r0) a bx there runs the it, both
 *     movne fail (no code hook: retired at the fault), and the third
 *     instruction's fetch at RAM_END = 0x01000000 (link.ld's 16 MiB) is
 *     IBUSERR: CFSR = 0x00000100, stacked return address 0x01000000, stacked
 *     IT bits 0x00001800 (ITSTATE 0x18 after two ITAdvances of 0x1e: IT[1:0]
 *     = 0, IT[7:2] = 6).  The handler returns to m7it_c_back with the IT
 *     bits cleared; r1 and r2 keep 0x11 and 0x22.
 * Exits 0 when all checks pass, else the number of failures.
 */
#include <stdio.h>

#include "citcat_m7.h"

#define BAD 0x30000000u
#define IT_BITS 0x0600FC00u
#define RAM_END 0x01000000u

extern char m7it_a[], m7it_b[], m7it_c_back[];
extern uint32_t m7it_end[2];
__asm__(".section .m7it_end, \"aw\", %progbits\n .global m7it_end\n .thumb\n"
	"m7it_end: .hword 0xbf00, 0xbf1e, 0x2101, 0x2202\n .previous");
void BusFault_Handler(void);
void m7it_exc(uint32_t *frame);

static volatile uint32_t got_cfsr, got_bfar, got_pc, got_it, nfaults, mode;
volatile uint32_t m7it_after[3]; /* r2, r3, r4 after the block */
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

__attribute__((naked)) void BusFault_Handler(void) { __asm__ volatile("mov r0, sp\n b m7it_exc"); }

void m7it_exc(uint32_t *frame)
{
	got_cfsr = CITCAT_REG(CITCAT_M7_SCB_CFSR);
	got_bfar = CITCAT_REG(CITCAT_M7_SCB_BFAR);
	got_pc = frame[6];
	got_it = frame[7] & IT_BITS;
	CITCAT_REG(CITCAT_M7_SCB_CFSR) = got_cfsr;
	nfaults++;
	if (mode == 1) { /* step over: PC + 2, ITSTATE advanced (ARMv7-M ITAdvance) */
		uint32_t x = frame[7], it = ((x >> 25) & 3u) | (((x >> 10) & 0x3fu) << 2);
		it = (it & 7u) == 0 ? 0 : (it & 0xe0u) | ((it << 1) & 0x1fu);
		frame[7] = (x & ~IT_BITS) | ((it & 3u) << 25) | ((it >> 2) << 10);
		frame[6] += 2;
	} else if (mode == 2) { /* retry with a good address */
		frame[1] = (uint32_t)&ram_word;
	} else { /* out of the block at RAM's end */
		frame[6] = (uint32_t)m7it_c_back & ~1u;
		frame[7] &= ~IT_BITS;
	}
}

__attribute__((naked, noinline)) static void t_a(uint32_t addr __attribute__((unused)))
{
	__asm__ volatile("push {r4, lr}\n mov r1, r0\n movs r2, #0x22\n movs r3, #0x33\n movs r4, #0x44\n"
			 "cmp r0, r0\n itet eq\n"
			 ".global m7it_a\n m7it_a: ldreq r2, [r1]\n movne r4, #4\n moveq r3, #3\n"
			 "ldr r0, =m7it_after\n stm r0, {r2-r4}\n pop {r4, pc}\n .ltorg");
}

__attribute__((naked, noinline)) static void t_b(uint32_t addr __attribute__((unused)))
{
	__asm__ volatile("push {r4, lr}\n mov r1, r0\n movs r2, #0x22\n movs r3, #0x33\n movs r4, #0x44\n"
			 "cmp r0, r0\n ite eq\n"
			 ".global m7it_b\n m7it_b: ldreq r2, [r1]\n movne r4, #4\n"
			 "ldr r0, =m7it_after\n stm r0, {r2-r4}\n pop {r4, pc}\n .ltorg");
}

__attribute__((naked, noinline)) static void t_c(void)
{
	__asm__ volatile("push {r4, lr}\n movs r1, #0x11\n movs r2, #0x22\n ldr r3, =0x00fffffb\n"
			 "cmp r0, r0\n bx r3\n"
			 ".global m7it_c_back\n m7it_c_back: ldr r0, =m7it_after\n stm r0, {r1-r3}\n pop {r4, pc}\n .ltorg");
}

int main(void)
{
	citcat_irq_unmask();
	citcat_m7_enable_faults();

	mode = 1;
	t_a(BAD);
	CHECK_EQ("a: faults", nfaults, 1);
	CHECK_EQ("a: CFSR", got_cfsr, 0x00008200u);
	CHECK_EQ("a: BFAR", got_bfar, BAD);
	CHECK_EQ("a: stacked return address", got_pc, (uint32_t)m7it_a);
	CHECK_EQ("a: stacked IT bits", got_it, 0x04000800u);
	CHECK_EQ("a: r2 (ldreq did not complete)", m7it_after[0], 0x22);
	CHECK_EQ("a: r3 (moveq ran)", m7it_after[1], 3);
	CHECK_EQ("a: r4 (movne failed)", m7it_after[2], 0x44);

	nfaults = 0;
	mode = 2;
	t_b(BAD);
	CHECK_EQ("b: faults", nfaults, 1);
	CHECK_EQ("b: CFSR", got_cfsr, 0x00008200u);
	CHECK_EQ("b: BFAR", got_bfar, BAD);
	CHECK_EQ("b: stacked return address", got_pc, (uint32_t)m7it_b);
	CHECK_EQ("b: stacked IT bits", got_it, 0x00000c00u);
	CHECK_EQ("b: r2 (ldreq ran again)", m7it_after[0], 0x12345678u);
	CHECK_EQ("b: r3", m7it_after[1], 0x33);
	CHECK_EQ("b: r4 (movne failed)", m7it_after[2], 0x44);
	nfaults = 0;
	mode = 3;
	volatile uint32_t *top = m7it_end;
	CHECK_EQ("c: .m7it_end's address", (uint32_t)m7it_end, RAM_END - 8);
	uint32_t save0 = top[0], save1 = top[1];
	top[0] = 0xbf1ebf00u; /* nop; ittt ne at RAM_END - 6 */
	top[1] = 0x22022101u; /* movne r1, #1; movne r2, #2 */
	__asm__ volatile("dsb\n isb" ::: "memory");
	t_c();
	top[0] = save0;
	top[1] = save1;
	CHECK_EQ("c: faults", nfaults, 1);
	CHECK_EQ("c: CFSR", got_cfsr, 0x00000100u);
	CHECK_EQ("c: stacked return address", got_pc, RAM_END);
	CHECK_EQ("c: stacked IT bits", got_it, 0x00001800u);
	CHECK_EQ("c: r1 (movne failed)", m7it_after[0], 0x11);
	CHECK_EQ("c: r2 (movne failed)", m7it_after[1], 0x22);
	printf("m7it: %d failures\n", failures);
	return failures;
}
