/* Writes a small hand-built itrace exercising every part of the text
 * listing: accesses of 1, 2, 4 and 8 bytes, reads and writes, an interrupt
 * entry, an instruction with more accesses than fit in the record header's
 * count, a word Capstone cannot decode, and jumps.
 * Usage: listing_gen OUT.itrace */
#include "itrace.h"

#include <stdio.h>
#include <string.h>

static struct citcat_itrace_writer *w;
static int failed;

static void insn(uint32_t pc, uint32_t word, unsigned n, const struct citcat_access *acc)
{
	static struct citcat_itrace_rec r;
	memset(&r, 0, sizeof r);
	r.kind = CITCAT_REC_INSN;
	r.pc = pc;
	r.word = word;
	r.n_acc = n;
	if (n)
		memcpy(r.acc, acc, n * sizeof *acc);
	failed |= citcat_itrace_write(w, &r) != 0;
}

static void irq(unsigned line, uint32_t epc)
{
	static struct citcat_itrace_rec r;
	memset(&r, 0, sizeof r);
	r.kind = CITCAT_REC_IRQ;
	r.line = (uint8_t)line;
	r.pc = epc;
	failed |= citcat_itrace_write(w, &r) != 0;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: listing_gen OUT.itrace\n");
		return 2;
	}
	if (citcat_itrace_writer_open(&w, argv[1], CITCAT_ISA_ARM_A32)) {
		fprintf(stderr, "listing_gen: cannot create %s\n", argv[1]);
		return 1;
	}
	insn(0x100, 0xe3a00a02, 0, NULL); /* mov r0, #0x2000 */
	struct citcat_access d8[] = {{0x2000, 0x1122334455667788ull, 8, 0, 0}};
	insn(0x104, 0xe1c020d0, 1, d8); /* ldrd r2, r3, [r0] */
	struct citcat_access b1[] = {{0x2000, 0x7f, 1, 1, 0}};
	insn(0x108, 0xe5c01000, 1, b1); /* strb r1, [r0] */
	struct citcat_access h2[] = {{0x2002, 0xbeef, 2, 0, 0}};
	insn(0x10c, 0xe1d010b2, 1, h2); /* ldrh r1, [r0, #2] */
	irq(3, 0x110);
	insn(0x18, 0xea000018, 0, NULL); /* b 0x80 */
	struct citcat_access m16[16];
	for (unsigned k = 0; k < 16; k++)
		m16[k] = (struct citcat_access){0xfff0 + 4 * k, 0x1000 + k, 4, 0, 0};
	m16[15].value = 0x110;
	insn(0x80, 0xe89dffff, 16, m16); /* ldm sp, {r0-pc} */
	struct citcat_access dev[] = {{0x40000700, 0xdeadbeef, 4, 0, 1}, {0x40000004, 0xdeadbeef, 4, 1, 1}};
	insn(0x110, 0xe5913000, 2, dev); /* ldr r3, [r1]; (a second access, as a swp would make) */
	insn(0x114, 0xffffffff, 0, NULL); /* not an instruction Capstone decodes */
	insn(0x200, 0xe320f003, 0, NULL); /* wfi */
	insn(0x204, 0xeafffffe, 0, NULL); /* b . */
	if (failed || citcat_itrace_writer_close(w)) {
		fprintf(stderr, "listing_gen: writing %s failed\n", argv[1]);
		return 1;
	}
	return 0;
}
