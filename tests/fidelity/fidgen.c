/* fidgen - a generator of random test firmware for what Csmith does not
 * produce (issue 36, tests/fidelity/README.md): unaligned loads and stores
 * across D-cache lines and Unicorn's 1 KiB pages, LDM/STM and LDRD/STRD
 * across lines, exclusive load/store pairs (and SWP and LDREXD/STREXD on
 * the ARMv7-A target), device accesses mixed with cached ones in one basic
 * block, cache maintenance, self-modifying code followed by cache
 * maintenance and a call, and the APSR's GE bits live across a load
 * (UADD8 ... SEL).
 *
 *   fidgen SEED > prog.c
 *
 * The program is one C file for both board-support packages (ARM, Thumb-2,
 * Cortex-M7): every access is inline assembly valid in A32 and T32 (the
 * ARMv7-A-only ones have a plain C twin on the M7 with the same effect).
 * It keeps a byte-wise shadow of its buffer in plain C, checks every load
 * against it, mixes every value into a checksum and prints
 * "checksum = XXXXXXXX" and exits 0, or prints "fidgen: FAIL n" and exits 1
 * when a load or the final buffer differs from the shadow.  The checksum is
 * the same on the three targets and under every cache configuration,
 * interrupt and DMA load (what the campaign checks).
 *
 * Deterministic: the same SEED gives the same program on any host. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

static uint64_t rs;
static uint32_t rnd(void) /* splitmix64, high half */
{
	uint64_t z = (rs += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return (uint32_t)((z ^ (z >> 31)) >> 32);
}
static uint32_t pick(uint32_t n) { return rnd() % n; }

#define BUF 8192u

/* an offset a few bytes before a boundary: a line (16..128 bytes) or a
 * 1 KiB page, so that an access of SIZE bytes crosses it (BACK 1..SIZE-1),
 * or anywhere (aligned to ALIGN) */
static uint32_t crossing(unsigned size, unsigned align)
{
	static const uint32_t bnd[] = {16, 32, 64, 128, 1024};
	uint32_t b = bnd[pick(5)], k = 1 + pick(BUF / b - 1), back;
	if (align >= size || pick(4) == 0) /* aligned accesses: just below or on the boundary */
		back = align * (1 + pick(size / align + 1));
	else
		back = 1 + pick(size - 1);
	uint32_t off = k * b - back;
	off &= ~(align - 1);
	if (off + size + 16 > BUF)
		off = 64;
	return off;
}

static const char *prologue =
	"#include <stdint.h>\n"
	"#include <stdio.h>\n"
	"#include \"citcat_target.h\"\n"
	"\n"
	"#if defined(__ARM_ARCH_7M__) || defined(__ARM_ARCH_7EM__)\n"
	"#define FID_M7 1\n"
	"#else\n"
	"#define FID_M7 0\n"
	"#endif\n"
	"#define BUF 8192u\n"
	"static uint8_t fb[BUF] __attribute__((aligned(4096)));\n"
	"static uint8_t sh[BUF];\n"
	"static uint32_t sum = 0x811c9dc5u, bad;\n"
	"static void mix(uint32_t v) { sum = (sum ^ v) * 0x01000193u; }\n"
	"static void sh_put(uint32_t off, uint64_t v, unsigned n)\n"
	"{\n"
	"\tfor (unsigned i = 0; i < n; i++)\n"
	"\t\tsh[off + i] = (uint8_t)(v >> (8 * i));\n"
	"}\n"
	"static uint64_t sh_get(uint32_t off, unsigned n)\n"
	"{\n"
	"\tuint64_t v = 0;\n"
	"\tfor (unsigned i = 0; i < n; i++)\n"
	"\t\tv |= (uint64_t)sh[off + i] << (8 * i);\n"
	"\treturn v;\n"
	"}\n"
	"static void got(uint32_t off, uint64_t v, unsigned n)\n"
	"{\n"
	"\tbad += v != sh_get(off, n);\n"
	"\tmix((uint32_t)v ^ (uint32_t)(v >> 32) ^ off);\n"
	"}\n"
	"__attribute__((noinline)) static void st32(uint32_t o, uint32_t v)\n"
	"{ __asm__ volatile(\"str %1, [%0]\" : : \"r\"(fb + o), \"r\"(v) : \"memory\"); sh_put(o, v, 4); }\n"
	"__attribute__((noinline)) static void st16(uint32_t o, uint32_t v)\n"
	"{ __asm__ volatile(\"strh %1, [%0]\" : : \"r\"(fb + o), \"r\"(v) : \"memory\"); sh_put(o, v, 2); }\n"
	"__attribute__((noinline)) static void st8(uint32_t o, uint32_t v)\n"
	"{ __asm__ volatile(\"strb %1, [%0]\" : : \"r\"(fb + o), \"r\"(v) : \"memory\"); sh_put(o, v, 1); }\n"
	"__attribute__((noinline)) static void ld32(uint32_t o)\n"
	"{ uint32_t v; __asm__ volatile(\"ldr %0, [%1]\" : \"=r\"(v) : \"r\"(fb + o) : \"memory\"); got(o, v, 4); }\n"
	"__attribute__((noinline)) static void ld16(uint32_t o)\n"
	"{ uint32_t v; __asm__ volatile(\"ldrh %0, [%1]\" : \"=r\"(v) : \"r\"(fb + o) : \"memory\"); got(o, v, 2); }\n"
	"__attribute__((noinline)) static void lds16(uint32_t o)\n"
	"{ int32_t v; __asm__ volatile(\"ldrsh %0, [%1]\" : \"=r\"(v) : \"r\"(fb + o) : \"memory\");\n"
	"  got(o, (uint16_t)v, 2); bad += v != (int16_t)sh_get(o, 2); }\n"
	"/* four, three or two words with one STM/LDM (fixed registers r1-r3, r12) */\n"
	"__attribute__((noinline)) static void stm4(uint32_t o, uint32_t a, uint32_t b, uint32_t c, uint32_t d)\n"
	"{\n"
	"\tregister uint32_t r1 __asm__(\"r1\") = a, r2 __asm__(\"r2\") = b, r3 __asm__(\"r3\") = c, r12 __asm__(\"r12\") = d;\n"
	"\t__asm__ volatile(\"stm %0, {r1, r2, r3, r12}\" : : \"r\"(fb + o), \"r\"(r1), \"r\"(r2), \"r\"(r3), \"r\"(r12) : \"memory\");\n"
	"\tsh_put(o, a, 4); sh_put(o + 4, b, 4); sh_put(o + 8, c, 4); sh_put(o + 12, d, 4);\n"
	"}\n"
	"__attribute__((noinline)) static void stm2(uint32_t o, uint32_t a, uint32_t b)\n"
	"{\n"
	"\tregister uint32_t r2 __asm__(\"r2\") = a, r3 __asm__(\"r3\") = b;\n"
	"\t__asm__ volatile(\"stm %0, {r2, r3}\" : : \"r\"(fb + o), \"r\"(r2), \"r\"(r3) : \"memory\");\n"
	"\tsh_put(o, a, 4); sh_put(o + 4, b, 4);\n"
	"}\n"
	"__attribute__((noinline)) static void ldm4(uint32_t o)\n"
	"{\n"
	"\tregister uint32_t r1 __asm__(\"r1\"), r2 __asm__(\"r2\"), r3 __asm__(\"r3\"), r12 __asm__(\"r12\");\n"
	"\t__asm__ volatile(\"ldm %4, {r1, r2, r3, r12}\" : \"=&r\"(r1), \"=&r\"(r2), \"=&r\"(r3), \"=&r\"(r12) : \"r\"(fb + o) : \"memory\");\n"
	"\tgot(o, r1, 4); got(o + 4, r2, 4); got(o + 8, r3, 4); got(o + 12, r12, 4);\n"
	"}\n"
	"__attribute__((noinline)) static void ldm3(uint32_t o)\n"
	"{\n"
	"\tregister uint32_t r1 __asm__(\"r1\"), r2 __asm__(\"r2\"), r3 __asm__(\"r3\");\n"
	"\t__asm__ volatile(\"ldm %3, {r1, r2, r3}\" : \"=&r\"(r1), \"=&r\"(r2), \"=&r\"(r3) : \"r\"(fb + o) : \"memory\");\n"
	"\tgot(o, r1, 4); got(o + 4, r2, 4); got(o + 8, r3, 4);\n"
	"}\n"
	"__attribute__((noinline)) static void strd_(uint32_t o, uint32_t a, uint32_t b)\n"
	"{\n"
	"\tregister uint32_t r2 __asm__(\"r2\") = a, r3 __asm__(\"r3\") = b;\n"
	"\t__asm__ volatile(\"strd r2, r3, [%0]\" : : \"r\"(fb + o), \"r\"(r2), \"r\"(r3) : \"memory\");\n"
	"\tsh_put(o, a, 4); sh_put(o + 4, b, 4);\n"
	"}\n"
	"__attribute__((noinline)) static void ldrd_(uint32_t o)\n"
	"{\n"
	"\tregister uint32_t r2 __asm__(\"r2\"), r3 __asm__(\"r3\");\n"
	"\t__asm__ volatile(\"ldrd r2, r3, [%2]\" : \"=&r\"(r2), \"=&r\"(r3) : \"r\"(fb + o) : \"memory\");\n"
	"\tgot(o, r2, 4); got(o + 4, r3, 4);\n"
	"}\n"
	"/* exclusive read-modify-write: LDREX/STREX (word, halfword, byte) */\n"
	"__attribute__((noinline)) static void exw(uint32_t o, uint32_t d)\n"
	"{\n"
	"\tuint32_t v, f;\n"
	"\tdo {\n"
	"\t\t__asm__ volatile(\"ldrex %0, [%1]\" : \"=&r\"(v) : \"r\"(fb + o) : \"memory\");\n"
	"\t\tv += d;\n"
	"\t\t__asm__ volatile(\"strex %0, %1, [%2]\" : \"=&r\"(f) : \"r\"(v), \"r\"(fb + o) : \"memory\");\n"
	"\t} while (f);\n"
	"\tgot(o, v - d, 4); sh_put(o, v, 4); mix(v);\n"
	"}\n"
	"__attribute__((noinline)) static void exh(uint32_t o, uint32_t d)\n"
	"{\n"
	"\tuint32_t v, f;\n"
	"\tdo {\n"
	"\t\t__asm__ volatile(\"ldrexh %0, [%1]\" : \"=&r\"(v) : \"r\"(fb + o) : \"memory\");\n"
	"\t\tv = (v + d) & 0xffff;\n"
	"\t\t__asm__ volatile(\"strexh %0, %1, [%2]\" : \"=&r\"(f) : \"r\"(v), \"r\"(fb + o) : \"memory\");\n"
	"\t} while (f);\n"
	"\tgot(o, (v - d) & 0xffff, 2); sh_put(o, v, 2); mix(v);\n"
	"}\n"
	"__attribute__((noinline)) static void exb(uint32_t o, uint32_t d)\n"
	"{\n"
	"\tuint32_t v, f;\n"
	"\tdo {\n"
	"\t\t__asm__ volatile(\"ldrexb %0, [%1]\" : \"=&r\"(v) : \"r\"(fb + o) : \"memory\");\n"
	"\t\tv = (v + d) & 0xff;\n"
	"\t\t__asm__ volatile(\"strexb %0, %1, [%2]\" : \"=&r\"(f) : \"r\"(v), \"r\"(fb + o) : \"memory\");\n"
	"\t} while (f);\n"
	"\tgot(o, (v - d) & 0xff, 1); sh_put(o, v, 1); mix(v);\n"
	"}\n"
	"/* LDREXD/STREXD and SWP on the ARMv7-A target; the same effect in C on the M7 */\n"
	"__attribute__((noinline)) static void exd(uint32_t o, uint32_t a, uint32_t b)\n"
	"{\n"
	"#if !FID_M7\n"
	"\tregister uint32_t r2 __asm__(\"r2\"), r3 __asm__(\"r3\");\n"
	"\tuint32_t f;\n"
	"\tdo {\n"
	"\t\t__asm__ volatile(\"ldrexd r2, r3, [%2]\" : \"=&r\"(r2), \"=&r\"(r3) : \"r\"(fb + o) : \"memory\");\n"
	"\t\tr2 ^= a; r3 ^= b;\n"
	"\t\t__asm__ volatile(\"strexd %0, r2, r3, [%1]\" : \"=&r\"(f) : \"r\"(fb + o), \"r\"(r2), \"r\"(r3) : \"memory\");\n"
	"\t} while (f);\n"
	"\tgot(o, r2 ^ a, 4); got(o + 4, r3 ^ b, 4);\n"
	"#else\n"
	"\tgot(o, sh_get(o, 4), 4); got(o + 4, sh_get(o + 4, 4), 4);\n"
	"\tfor (int i = 0; i < 8; i++)\n"
	"\t\tfb[o + i] ^= (uint8_t)((i < 4 ? a : b) >> (8 * (i & 3)));\n"
	"#endif\n"
	"\tsh_put(o, (uint32_t)sh_get(o, 4) ^ a, 4); sh_put(o + 4, (uint32_t)sh_get(o + 4, 4) ^ b, 4);\n"
	"}\n"
	"__attribute__((noinline)) static void swp_(uint32_t o, uint32_t v)\n"
	"{\n"
	"\tuint32_t old;\n"
	"#if !FID_M7 && !defined(__thumb__)\n"
	"\t__asm__ volatile(\"swp %0, %1, [%2]\" : \"=&r\"(old) : \"r\"(v), \"r\"(fb + o) : \"memory\");\n"
	"#else\n"
	"\t__asm__ volatile(\"ldr %0, [%1]\" : \"=&r\"(old) : \"r\"(fb + o) : \"memory\");\n"
	"\t__asm__ volatile(\"str %0, [%1]\" : : \"r\"(v), \"r\"(fb + o) : \"memory\");\n"
	"#endif\n"
	"\tgot(o, old, 4); sh_put(o, v, 4);\n"
	"}\n"
	"/* device reads (constant registers into the checksum, the cycle counter\n"
	" * not) between cached accesses of one block; cache maintenance */\n"
	"__attribute__((noinline)) static void dev(uint32_t o, uint32_t v, unsigned k)\n"
	"{\n"
	"\tuint32_t a, b, c;\n"
	"\t__asm__ volatile(\"str %3, [%4]\\n ldr %0, [%5]\\n ldr %1, [%4]\\n ldr %2, [%6]\"\n"
	"\t\t\t : \"=&r\"(a), \"=&r\"(b), \"=&r\"(c)\n"
	"\t\t\t : \"r\"(v), \"r\"(fb + o), \"r\"(CITCAT_SYSCTL_ID), \"r\"(CITCAT_CYCLES_LO) : \"memory\");\n"
	"\tsh_put(o, v, 4);\n"
	"\tgot(o, b, 4);\n"
	"\tmix(a);\n"
	"\t(void)c;\n"
	"\tif (k == 1) citcat_cache_clean_d();\n"
	"\tif (k == 2) citcat_cache_clean_inv_d();\n"
	"\tif (k == 3) citcat_cache_inv_i();\n"
	"}\n"
	"/* the APSR's GE bits live across a load and a few instructions: UADD8\n"
	" * sets them, SEL uses them, checked against a C model of both (a\n"
	" * checkpoint or an interrupt in between must keep them: tests/ckpt_ge.sh) */\n"
	"__attribute__((noinline)) static void ge_(uint32_t o, uint32_t v)\n"
	"{\n"
	"\tuint32_t a = (uint32_t)sh_get(o, 4), x = v ^ 0x5a5a5a5au, y = ~v, s, b, r, m = 0;\n"
	"\t__asm__ volatile(\"uadd8 %0, %3, %4\\n ldr %1, [%5]\\n .rept 6\\n nop\\n .endr\\n sel %2, %6, %7\"\n"
	"\t\t\t : \"=&r\"(s), \"=&r\"(b), \"=&r\"(r)\n"
	"\t\t\t : \"r\"(a), \"r\"(v), \"r\"(fb + o), \"r\"(x), \"r\"(y) : \"memory\");\n"
	"\t(void)s;\n"
	"\tgot(o, b, 4);\n"
	"\tfor (unsigned i = 0; i < 32; i += 8)\n"
	"\t\tm |= ((((a >> i) & 0xffu) + ((v >> i) & 0xffu) >= 256u ? x : y) >> i & 0xffu) << i;\n"
	"\tbad += r != m;\n"
	"\tmix(r);\n"
	"}\n"
	"/* self-modifying code: a function written into RAM (r0 = r0 + IMM, or\n"
	" * r0 = IMM), the D-cache cleaned, the I-cache invalidated, then called */\n"
	"#if FID_M7 || defined(__thumb__)\n"
	"static uint16_t code[8] __attribute__((aligned(64)));\n"
	"#else\n"
	"static uint32_t code[8] __attribute__((aligned(64)));\n"
	"#endif\n"
	"__attribute__((noinline)) static void smc(uint32_t imm, int add, int maint)\n"
	"{\n"
	"#if FID_M7 || defined(__thumb__)\n"
	"\tcode[0] = (uint16_t)((add ? 0x3000u : 0x2000u) | (imm & 0xff)); /* adds/movs r0, #imm */\n"
	"\tcode[1] = 0x4770u; /* bx lr */\n"
	"\tuint32_t (*f)(uint32_t) = (uint32_t (*)(uint32_t))((uintptr_t)code | 1u);\n"
	"#else\n"
	"\tcode[0] = (add ? 0xe2800000u : 0xe3a00000u) | (imm & 0xff); /* add r0, r0, #imm / mov r0, #imm */\n"
	"\tcode[1] = 0xe12fff1eu; /* bx lr */\n"
	"\tuint32_t (*f)(uint32_t) = (uint32_t (*)(uint32_t))(uintptr_t)code;\n"
	"#endif\n"
	"\tif (maint) {\n"
	"\t\tcitcat_cache_clean_d();\n"
	"\t\tcitcat_cache_inv_i();\n"
	"\t}\n"
	"\t__asm__ volatile(\"dsb\\n isb\" ::: \"memory\");\n"
	"\tuint32_t x = sum & 0xffffu;\n"
	"\tuint32_t r = f(x);\n"
	"\tbad += r != (add ? x + (imm & 0xff) : (imm & 0xff));\n"
	"\tmix(r);\n"
	"}\n"
	"\n";

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: fidgen SEED > prog.c\n");
		return 2;
	}
	uint64_t seed = strtoull(argv[1], NULL, 0);
	rs = seed * 0x2545f4914f6cdd1dull + 1;
	uint64_t ge_rs = seed * 0x9e3779b97f4a7c15ull + 0x632be59bd9b4e019ull;
	unsigned nops = 40 + pick(120), reps = 2 + pick(12);
	printf("/* fidgen %" PRIu64 ": %u operations, %u rounds (tests/fidelity/fidgen.c) */\n", seed, nops, reps);
	fputs(prologue, stdout);
	printf("int main(void)\n{\n\tfor (uint32_t i = 0; i < BUF; i++)\n\t\tst8(i, i * 7u + %uu);\n", pick(256));
	printf("\tfor (uint32_t rep = 0; rep < %uu; rep++) {\n", reps);
	for (unsigned n = 0; n < nops; n++) {
		uint32_t v = rnd(), w = rnd();
		switch (pick(16)) {
		case 0: case 1: case 2:
			printf("\t\tst32(%uu, 0x%08xu ^ rep);\n", crossing(4, 1), v);
			break;
		case 3:
			printf("\t\tst16(%uu, 0x%04xu ^ rep);\n", crossing(2, 1), v & 0xffff);
			break;
		case 4: case 5:
			printf("\t\tld32(%uu);\n", crossing(4, 1));
			break;
		case 6:
			printf("\t\t%s(%uu);\n", pick(2) ? "ld16" : "lds16", crossing(2, 1));
			break;
		case 7:
			printf("\t\tstm4(%uu, 0x%08xu, rep, 0x%08xu, sum);\n", crossing(16, 4), v, w);
			break;
		case 8:
			if (pick(2))
				printf("\t\tstm2(%uu, 0x%08xu ^ rep, sum);\n", crossing(8, 4), v);
			else
				printf("\t\t%s(%uu);\n", pick(2) ? "ldm4" : "ldm3", crossing(16, 4));
			break;
		case 9:
			if (pick(2))
				printf("\t\tstrd_(%uu, sum, 0x%08xu);\n", crossing(8, 4), v);
			else
				printf("\t\tldrd_(%uu);\n", crossing(8, 4));
			break;
		case 10:
			switch (pick(3)) {
			case 0: printf("\t\texw(%uu, 0x%xu + rep);\n", crossing(4, 4), v & 0xfff); break;
			case 1: printf("\t\texh(%uu, 0x%xu + rep);\n", crossing(2, 2), v & 0xff); break;
			default: printf("\t\texb(%uu, 0x%xu + rep);\n", crossing(1, 1), v & 0x7f); break;
			}
			break;
		case 11:
			if (pick(2))
				printf("\t\texd(%uu, 0x%08xu, 0x%08xu ^ rep);\n", crossing(8, 8), v, w);
			else
				printf("\t\tswp_(%uu, 0x%08xu + rep);\n", crossing(4, 4), v);
			break;
		case 12: case 13:
			printf("\t\tdev(%uu, 0x%08xu ^ rep, %u);\n", crossing(4, 1), v, pick(6));
			break;
		case 14:
			printf("\t\tsmc(%uu + rep, %u, %u);\n", v & 0x7f, pick(2), pick(4) != 0);
			break;
		default:
			printf("\t\tst8(%uu, 0x%02xu);\n\t\tld32(%uu);\n", crossing(1, 1), v & 0xff, crossing(4, 1));
			break;
		}
		/* GE live across a load (ge_), from a generator of its own, so
		 * that every other operation of a seed stays what it was */
		uint64_t main_rs = rs;
		rs = ge_rs;
		if (pick(6) == 0)
			printf("\t\tge_(%uu, 0x%08xu ^ rep);\n", crossing(4, 1), rnd());
		ge_rs = rs;
		rs = main_rs;
	}
	printf("\t}\n");
	printf("\tfor (uint32_t i = 0; i < BUF; i++) {\n\t\tbad += fb[i] != sh[i];\n\t\tmix(fb[i]);\n\t}\n");
	printf("\tif (bad) {\n\t\tprintf(\"fidgen: FAIL %%lu\\n\", (unsigned long)bad);\n\t\treturn 1;\n\t}\n");
	printf("\tprintf(\"checksum = %%08lX\\n\", (unsigned long)sum);\n\treturn 0;\n}\n");
	return 0;
}
