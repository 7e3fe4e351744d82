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
 * Prints a checksum of what the stores left, which the C model below
 * recomputes: "condflags: ok SUM" or "condflags: FAIL ...".
 */
#include <stdint.h>
#include <stdio.h>

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

int main(void)
{
	uint32_t s = 12345, lim = 1u << 23;
	for (unsigned i = 0; i <= N; i++)
		src[i] = lcg(&s); /* 24-bit values: about half of them >= lim */
	for (unsigned i = 0; i < N; i++)
		for (unsigned k = 0; k < 5; k++)
			dst[i][k] = 1000 + i * 5 + k;
	run(lim);
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
	if (bad || seen != 0xf) {
		printf("condflags: FAIL %lu words differ, combinations 0x%lx\n", (unsigned long)bad, (unsigned long)seen);
		return 1;
	}
	printf("condflags: ok %08lx\n", (unsigned long)sum);
	return 0;
}
