/*
 * condflags - conditional loads and stores decided on flags that a later
 * compare in the same block overwrites (replay/REPLAY.md "Attribution with
 * the flags of an earlier point"; machine/replay_block.c flag_sources).
 *
 * Each iteration runs, in one translation block:
 *   ldr x,[a]; cmp x,lim; ldr y,[a,#4]; strcs x,[d]; cmp y,lim;
 *   ldrcs t,[d,#4]; strcc y,[d,#8]
 * so the strcs is decided on the first compare's flags, which the block
 * engine takes when the ldr of y is attributed (a snapshot), and then
 *   b 1f; 1: strhi x,[d,#12]; cmp t,lim; ldr u,[d,#16]
 * whose strhi opens a block and is decided on the flags at its start.
 * x and y are drawn so that every combination of the two compares occurs.
 * Then cf2 (one call per element, under a periodic timer interrupt whose
 * cuts land all over it, so that its blocks also start in the middle):
 *   a conditional STM decided on the flags at an LDM (AT u, u an LDM);
 *   a conditional STM opening a block (ENTRY, several accesses);
 *   a conditional store decided on the flags at a load, then a compare
 *   on the opposite condition, made when the store is not (in Thumb a CMP
 *   inside the IT block), then a conditional load;
 *   a conditional store decided on the flags at a load, then a SUBS (in
 *   Thumb the 16-bit one, outside an IT block), then a conditional store
 *   decided on the SUBS's flags.
 * Prints a checksum of what the stores left, which the C model below
 * recomputes: "condflags: ok SUM TICKS" or "condflags: FAIL ...".
 */
#include <stdint.h>
#include <stdio.h>

#include "citcat_target.h"

#define N 512

static uint32_t src[N + 1];
static uint32_t dst[N][5];

static uint32_t lcg(uint32_t *s)
{
	*s = *s * 1664525u + 1013904223u;
	return *s >> 8;
}

__attribute__((noinline)) static void run(uint32_t lim)
{
	for (unsigned i = 0; i < N; i++) {
		uint32_t x, y, t = 7, u;
		const uint32_t *a = &src[i];
		uint32_t *d = dst[i];
		/* the IT instructions make the Thumb-2 build; in ARM code the
		 * assembler (unified syntax) only checks them against the
		 * conditions that follow and emits nothing */
		__asm__ volatile("ldr %[x], [%[a]]\n\t"
				 "cmp %[x], %[lim]\n\t"
				 "ldr %[y], [%[a], #4]\n\t"
				 "it cs\n\t"
				 "strcs %[x], [%[d]]\n\t"
				 "cmp %[y], %[lim]\n\t"
				 "ite cs\n\t"
				 "ldrcs %[t], [%[d], #4]\n\t"
				 "strcc %[y], [%[d], #8]\n\t"
				 "b 1f\n"
				 "1:\n\t"
				 "it hi\n\t"
				 "strhi %[x], [%[d], #12]\n\t"
				 "cmp %[t], %[lim]\n\t"
				 "ldr %[u], [%[d], #16]\n\t"
				 : [x] "=&r"(x), [y] "=&r"(y), [t] "+&r"(t), [u] "=&r"(u)
				 : [a] "r"(a), [d] "r"(d), [lim] "r"(lim)
				 : "cc", "memory");
		d[16 / 4] = u + t; /* keeps u and t, and the word the last ldr reads changes */
	}
}

/* cf2(a, d, lim): the patterns listed above, on x = a[0], y = a[1] and
 * d[0..11] (the C model in main says what each store leaves).  As in run,
 * one sequence builds both: the assembler picks the 32-bit Thumb-2
 * encodings where the 16-bit ones do not fit (the LDM and STMs without
 * writeback, r8, ADD without S outside an IT block). */
void cf2(const uint32_t *a, uint32_t *d, uint32_t lim);
#if defined(__thumb__)
#define CF2_ISA ".thumb\n\t.thumb_func\n"
#else
#define CF2_ISA ".arm\n"
#endif
__asm__(".syntax unified\n\t.text\n\t.align 2\n\t.global cf2\n\t.type cf2, %function\n\t" CF2_ISA
	"cf2:\n\t"
	"push {r4-r8, lr}\n\t"
	"ldr r3, [r0]\n\t"
	"cmp r3, r2\n\t"
	"ldm r0, {r4, r5}\n\t" /* u: an LDM */
	"it cs\n\t"
	"stmcs r1, {r4, r5}\n\t" /* AT u */
	"cmp r5, r2\n\t"
	"ite cs\n\t"
	"ldrcs r6, [r1, #8]\n\t"
	"movcc r6, #7\n\t"
	"it cc\n\t"
	"strcc r5, [r1, #12]\n\t"
	"add r7, r1, #16\n\t"
	"b 1f\n"
	"1:\n\t"
	"it hi\n\t"
	"stmhi r7, {r3, r6}\n\t" /* ENTRY */
	"cmp r6, r2\n\t"
	"ldr r8, [r1, #24]\n\t"
	"add r8, r8, r6\n\t"
	"str r8, [r1, #24]\n\t"
	"cmp r3, r2\n\t"
	"ldr r4, [r0, #4]\n\t" /* u */
	"ite cs\n\t"
	"strcs r3, [r1, #28]\n\t" /* AT u */
	"cmpcc r4, r2\n\t"	   /* a flag write (in Thumb inside the IT block) when the strcs is not made */
	"ite cs\n\t"
	"ldrcs r5, [r1, #32]\n\t"
	"movcc r5, #5\n\t"
	"str r5, [r1, #44]\n\t"
	"cmp r3, r2\n\t"
	"ldr r6, [r1]\n\t" /* u */
	"it cs\n\t"
	"strcs r6, [r1, #36]\n\t" /* AT u */
	"subs r7, r4, r2\n\t"	  /* in Thumb 16-bit, outside an IT block: a flag write */
	"it cs\n\t"
	"strcs r7, [r1, #40]\n\t"
	"pop {r4-r8, pc}\n\t"
	".size cf2, . - cf2\n");

#define N2 256
static uint32_t dst2[N2][12];
static volatile uint32_t ticks;

void citcat_irq_timer(void) { ticks++; }

int main(void)
{
	uint32_t s = 12345, lim = 1u << 23;
	for (unsigned i = 0; i <= N; i++)
		src[i] = lcg(&s); /* 24-bit values: about half of them >= lim */
	for (unsigned i = 0; i < N; i++)
		for (unsigned k = 0; k < 5; k++)
			dst[i][k] = 1000 + i * 5 + k;
	run(lim);
	for (unsigned i = 0; i < N2; i++)
		for (unsigned k = 0; k < 12; k++)
			dst2[i][k] = 5000 + i * 12 + k;
	/* a period of no whole number of cf2's calls: the cuts move */
	citcat_irq_enable_line(CITCAT_IRQ_TIMER);
	citcat_timer_start(157);
	citcat_irq_unmask();
	for (unsigned i = 0; i < N2; i++)
		cf2(&src[i], dst2[i], lim);
	citcat_irq_mask();
	citcat_timer_stop();
	/* the C model of the stores */
	uint32_t sum = 0, bad = 0, seen = 0;
	for (unsigned i = 0; i < N; i++) {
		uint32_t x = src[i], y = src[i + 1], w[5];
		for (unsigned k = 0; k < 5; k++)
			w[k] = 1000 + i * 5 + k;
		uint32_t t = 7;
		if (x >= lim)
			w[0] = x;
		if (y >= lim)
			t = w[1];
		else
			w[2] = y;
		if (y > lim) /* strhi after cmp y,lim */
			w[3] = x;
		w[4] = w[4] + t;
		seen |= (x >= lim ? 1u : 2u) << (y >= lim ? 0 : 2);
		for (unsigned k = 0; k < 5; k++) {
			bad += dst[i][k] != w[k];
			sum = sum * 31 + dst[i][k];
		}
	}
	for (unsigned i = 0; i < N2; i++) {
		uint32_t x = src[i], y = src[i + 1], w[12], r5, r6;
		for (unsigned k = 0; k < 12; k++)
			w[k] = 5000 + i * 12 + k;
		if (x >= lim) {
			w[0] = x;
			w[1] = y;
		}
		r6 = y >= lim ? w[2] : 7;
		if (y < lim)
			w[3] = y;
		if (y > lim) {
			w[4] = x;
			w[5] = r6;
		}
		w[6] += r6;
		if (x >= lim)
			w[7] = x;
		r5 = x >= lim || y >= lim ? w[8] : 5;
		w[11] = r5;
		if (x >= lim)
			w[9] = w[0];
		if (y >= lim)
			w[10] = y - lim;
		for (unsigned k = 0; k < 12; k++) {
			bad += dst2[i][k] != w[k];
			sum = sum * 31 + dst2[i][k];
		}
	}
	if (bad || seen != 0xf || ticks < 16) {
		printf("condflags: FAIL %lu words differ, combinations 0x%lx, %lu ticks\n", (unsigned long)bad,
		       (unsigned long)seen, (unsigned long)ticks);
		return 1;
	}
	printf("condflags: ok %08lx %lu\n", (unsigned long)sum, (unsigned long)ticks);
	return 0;
}
