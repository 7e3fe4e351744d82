/*
 * straddle - accesses that cross a D-cache line or one of Unicorn's 1 KiB
 * pages (issue 36; capture/TARGET.md, "Accesses that cross a line").  One
 * source for the ARM, Thumb-2 and Cortex-M7 builds (tests/fidelity.cmake),
 * captured with 32- and 64-byte lines, LRU and PLRU, write-back and
 * write-through by tests/straddle.sh.
 *
 * Every access is an instruction of its own (inline asm), so the compiler
 * can neither merge nor split it:
 *  - 4-byte stores at line offsets 61, 62, 63 (a 64-byte line: pieces of
 *    3 + 1, 2 + 2, 1 + 3 bytes in write-through mode) and 29, 30, 31 (the
 *    same for 32-byte lines), 2-byte stores at 31 and 63;
 *  - the same loads, and loads and stores across each 1 KiB page boundary
 *    of the buffer (Unicorn reports a page-crossing load three times to
 *    UC_HOOK_MEM_READ; machine/core.h, core_read_echo);
 *  - packed structures stored at odd offsets, as the benchmark did;
 *  - STM/LDM of four words across a line; STRD/LDRD across a line;
 *  - on the ARMv7-A target an 8-byte STREXD (an 8-byte WRITE in
 *    write-through mode) and LDREX/STREX increments.
 * Self-check: a byte-wise shadow copy (written with single-byte stores)
 * must equal the buffer, and every load must return what the shadow says;
 * prints "straddle: OK <checksum>" and exits 0, else "straddle: FAIL".
 * The checksum is the same on every target and cache configuration.
 */
#include <stdint.h>
#include <stdio.h>

#define BUF 8192u
static uint8_t buf[BUF] __attribute__((aligned(4096)));
static uint8_t shadow[BUF];
static uint32_t bad;

static inline void st32(uint32_t off, uint32_t v)
{
	__asm__ volatile("str %1, [%0]" : : "r"(buf + off), "r"(v) : "memory");
	for (int i = 0; i < 4; i++)
		shadow[off + i] = (uint8_t)(v >> (8 * i));
}
static inline void st16(uint32_t off, uint32_t v)
{
	__asm__ volatile("strh %1, [%0]" : : "r"(buf + off), "r"(v) : "memory");
	shadow[off] = (uint8_t)v;
	shadow[off + 1] = (uint8_t)(v >> 8);
}
static inline uint32_t want(uint32_t off, unsigned n)
{
	uint32_t v = 0;
	for (unsigned i = 0; i < n; i++)
		v |= (uint32_t)shadow[off + i] << (8 * i);
	return v;
}
static inline uint32_t ld32(uint32_t off)
{
	uint32_t v;
	__asm__ volatile("ldr %0, [%1]" : "=r"(v) : "r"(buf + off) : "memory");
	bad += v != want(off, 4);
	return v;
}
static inline uint32_t ld16(uint32_t off)
{
	uint32_t v;
	__asm__ volatile("ldrh %0, [%1]" : "=r"(v) : "r"(buf + off) : "memory");
	bad += v != want(off, 2);
	return v;
}

struct __attribute__((packed)) rec {
	uint8_t tag;
	uint32_t a;
	uint16_t b;
	uint32_t c;
};

int main(void)
{
	uint32_t sum = 0, k = 1;
	/* line crossings: 32- and 64-byte lines, every split of a word */
	for (uint32_t base = 0x100; base < 0x400; base += 0x80)
		for (uint32_t o = 29; o < 64; o += (o == 31 ? 30 : 1)) {
			st32(base + o, 0x01020304u * k++);
			sum += ld32(base + o);
		}
	for (uint32_t base = 0x400 + 0x40; base < 0x800; base += 0x40) {
		st16(base + 31, 0xa000u + k);
		st16(base + 63, 0xb000u + k++);
		sum += ld16(base + 31) + ld16(base + 63);
	}
	/* page crossings (1 KiB), each split, stores then loads */
	for (uint32_t p = 0x400; p < BUF; p += 0x400) {
		st32(p - 3, 0xc0c1c2c3u ^ p);
		sum += ld32(p - 3) + ld32(p - 2) + ld32(p - 1) + ld16(p - 1);
		st16(p - 1, 0xd0d1u ^ p);
		st32(p - 2, 0xe0e1e2e3u ^ p);
		st32(p - 1, 0xf0f1f2f3u ^ p);
		sum += ld32(p - 3) + ld32(p - 2) + ld32(p - 1) + ld16(p - 1) + ld32(p - 4) + ld32(p);
	}
	/* packed structures at odd offsets (the compiler's own unaligned code) */
	volatile struct rec *r;
	for (uint32_t i = 0; i < 40; i++) {
		uint32_t off = 0x1000 + 11 * i + (i & 1);
		r = (volatile struct rec *)(buf + off);
		r->tag = (uint8_t)i;
		r->a = 0x11111111u * i;
		r->b = (uint16_t)(i * 77);
		r->c = ~i;
		for (uint32_t j = 0; j < sizeof(struct rec); j++)
			shadow[off + j] = j == 0 ? (uint8_t)i
					  : j < 5 ? (uint8_t)((0x11111111u * i) >> (8 * (j - 1)))
					  : j < 7 ? (uint8_t)((i * 77) >> (8 * (j - 5)))
						  : (uint8_t)(~i >> (8 * (j - 7)));
	}
	for (uint32_t i = 0; i < 40; i++) {
		r = (volatile struct rec *)(buf + 0x1000 + 11 * i + (i & 1));
		sum += r->a ^ r->b ^ r->c;
	}
	/* STM/LDM of four words across a line, at each word offset before it */
	for (uint32_t o = 4; o <= 12; o += 4) {
		uint8_t *p = buf + 0x1800 - o;
		register uint32_t r1 __asm__("r1") = 0x31000000u + o, r2 __asm__("r2") = 0x32000000u + o;
		register uint32_t r3 __asm__("r3") = 0x33000000u + o, r12 __asm__("r12") = 0x3c000000u + o;
		__asm__ volatile("stm %0, {r1, r2, r3, r12}" : : "r"(p), "r"(r1), "r"(r2), "r"(r3), "r"(r12) : "memory");
		uint32_t w[4] = {r1, r2, r3, r12};
		for (int i = 0; i < 16; i++)
			shadow[0x1800 - o + i] = (uint8_t)(w[i / 4] >> (8 * (i % 4)));
		__asm__ volatile("ldm %4, {r1, r2, r3, r12}" : "=&r"(r1), "=&r"(r2), "=&r"(r3), "=&r"(r12) : "r"(p) : "memory");
		bad += r1 != w[0] || r2 != w[1] || r3 != w[2] || r12 != w[3];
		sum += r1 + r2 + r3 + r12;
	}
	/* STRD/LDRD across a line (word-aligned) */
	{
		register uint32_t lo __asm__("r2") = 0x44332211u, hi __asm__("r3") = 0x88776655u;
		uint8_t *p = buf + 0x1900 - 4;
		__asm__ volatile("strd r2, r3, [%0]" : : "r"(p), "r"(lo), "r"(hi) : "memory");
		for (int i = 0; i < 8; i++)
			shadow[0x1900 - 4 + i] = (uint8_t)(0x8877665544332211ull >> (8 * i));
		__asm__ volatile("ldrd r2, r3, [%2]" : "=&r"(lo), "=&r"(hi) : "r"(p) : "memory");
		bad += lo != 0x44332211u || hi != 0x88776655u;
		sum += lo ^ hi;
	}
	/* exclusives: LDREX/STREX increments; on the A target an 8-byte STREXD */
	{
		uint32_t *c = (uint32_t *)(buf + 0x1a00), v, fail;
		for (int i = 0; i < 5; i++) {
			do {
				__asm__ volatile("ldrex %0, [%1]" : "=&r"(v) : "r"(c) : "memory");
				v += 3;
				__asm__ volatile("strex %0, %1, [%2]" : "=&r"(fail) : "r"(v), "r"(c) : "memory");
			} while (fail);
		}
		for (int i = 0; i < 4; i++)
			shadow[0x1a00 + i] = (uint8_t)(15u >> (8 * i));
#if !defined(__ARM_ARCH_7M__) && !defined(__ARM_ARCH_7EM__)
		register uint32_t lo __asm__("r2"), hi __asm__("r3");
		uint8_t *d = buf + 0x1a08;
		do {
			__asm__ volatile("ldrexd r2, r3, [%2]" : "=&r"(lo), "=&r"(hi) : "r"(d) : "memory");
			lo = 0xcafef00du;
			hi = 0x0badc0deu;
			__asm__ volatile("strexd %0, r2, r3, [%1]" : "=&r"(fail) : "r"(d), "r"(lo), "r"(hi) : "memory");
		} while (fail);
#endif
		for (int i = 0; i < 8; i++)
			shadow[0x1a08 + i] = (uint8_t)(0x0badc0decafef00dull >> (8 * i));
#if defined(__ARM_ARCH_7M__) || defined(__ARM_ARCH_7EM__)
		for (int i = 0; i < 8; i++) /* the same bytes, by plain stores */
			buf[0x1a08 + i] = shadow[0x1a08 + i];
#endif
		sum += *c;
	}
	/* the whole buffer, byte by byte, against the shadow */
	for (uint32_t i = 0; i < BUF; i++) {
		bad += buf[i] != shadow[i];
		sum = sum * 31 + buf[i];
	}
	printf("straddle: %s %08lx\n", bad ? "FAIL" : "OK", (unsigned long)sum);
	return bad != 0;
}
