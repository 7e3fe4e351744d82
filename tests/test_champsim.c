/* ChampSim export: hand-worked 64-byte records (CHAMPSIM.md) for a few known
 * instructions, through the writer, plain and xz; the branch types ChampSim
 * infers from them (its inc/instruction.h rules, restated here). */
#include "champsim.h"
#include "check.h"

#include <lzma.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct want {
	uint64_t ip;
	uint8_t is_branch, taken, dst[2], src[4];
	uint64_t dmem[2], smem[4];
};

static void put(uint8_t *p, const struct want *w)
{
	memset(p, 0, 64);
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(w->ip >> (8 * i));
	p[8] = w->is_branch;
	p[9] = w->taken;
	memcpy(p + 10, w->dst, 2);
	memcpy(p + 12, w->src, 4);
	for (int k = 0; k < 2; k++)
		for (int i = 0; i < 8; i++)
			p[16 + 8 * k + i] = (uint8_t)(w->dmem[k] >> (8 * i));
	for (int k = 0; k < 4; k++)
		for (int i = 0; i < 8; i++)
			p[32 + 8 * k + i] = (uint8_t)(w->smem[k] >> (8 * i));
}

/* ChampSim's branch-type inference (inc/instruction.h), restated. */
static const char *champsim_type(const uint8_t *rec)
{
	const uint8_t *dst = rec + 10, *src = rec + 12;
	int wsp = 0, wip = 0, rsp = 0, rfl = 0, rip = 0, roth = 0;
	for (int i = 0; i < 2; i++)
		wsp |= dst[i] == 6, wip |= dst[i] == 26;
	for (int i = 0; i < 4; i++) {
		rsp |= src[i] == 6, rfl |= src[i] == 25, rip |= src[i] == 26;
		roth |= src[i] && src[i] != 6 && src[i] != 25 && src[i] != 26;
	}
	if (!rsp && !rfl && wip && !roth)
		return "direct_jump";
	if (!rsp && !rip && !rfl && wip && roth)
		return "indirect";
	if (!rsp && rip && !wsp && wip && (rfl || roth))
		return "conditional";
	if (rsp && rip && wsp && wip && !rfl && !roth)
		return "direct_call";
	if (rsp && rip && wsp && wip && !rfl && roth)
		return "indirect_call";
	if (rsp && !rip && wsp && wip)
		return "return";
	if (wip)
		return "other";
	return "not_branch";
}

static struct citcat_itrace_rec insn(uint32_t pc, uint32_t word)
{
	struct citcat_itrace_rec r;
	memset(&r, 0, sizeof r);
	r.kind = CITCAT_REC_INSN;
	r.pc = pc;
	r.word = word;
	return r;
}

static uint8_t *slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	uint8_t *b = malloc(1 << 20);
	*n = fread(b, 1, 1 << 20, f);
	fclose(f);
	return b;
}

int main(void)
{
	/* The run: 0x100 bl 0x200; 0x200 ldr r3, [r6, #4]; 0x204 str r0, [sp, #-4]!;
	 * a device read (uncached, left out); 0x208 cmp r3, #0; 0x20c beq 0x300
	 * (taken); 0x300 bne 0x400 (not taken); 0x304 bx lr, then an interrupt
	 * entry with EPC 0x104 (where the return went: taken); 0x18 mov r1, r2,
	 * the handler's first and the last (no successor). */
	struct citcat_itrace_rec v[10];
	int n = 0;
	v[n++] = insn(0x100, 0xeb00003e);
	v[n] = insn(0x200, 0xe5963004);
	v[n].n_acc = 1;
	v[n++].acc[0] = (struct citcat_access){0x2004, 0x55, 4, 0, 0};
	v[n] = insn(0x204, 0xe52d0004);
	v[n].n_acc = 1;
	v[n++].acc[0] = (struct citcat_access){0x7ffc, 0x1, 4, 1, 0};
	v[n] = insn(0x208, 0xe3530000);
	v[n].n_acc = 1; /* not what cmp does; an uncached access is left out whatever it is */
	v[n++].acc[0] = (struct citcat_access){0x40000700, 0x1, 4, 0, 1};
	v[n++] = insn(0x20c, 0x0a00003b);
	v[n++] = insn(0x300, 0x1a00003e);
	v[n++] = insn(0x304, 0xe12fff1e);
	v[n++] = insn(0x18, 0xe1a01002); /* the interrupt handler's first */
	static const struct want want[] = {
		{0x100, 1, 1, {26, 6}, {26, 6, 0, 0}, {0, 0}, {0, 0, 0, 0}},    /* bl: direct call */
		{0x200, 0, 0, {3, 0}, {65, 0, 0, 0}, {0, 0}, {0x2004, 0, 0, 0}}, /* ldr: r6 -> 65 */
		{0x204, 0, 0, {13, 0}, {13, 67, 0, 0}, {0x7ffc, 0}, {0, 0, 0, 0}}, /* str: r0 -> 67, sp 13 */
		{0x208, 0, 0, {64, 0}, {3, 0, 0, 0}, {0, 0}, {0, 0, 0, 0}},     /* cmp: flags 64 */
		{0x20c, 1, 1, {26, 0}, {26, 25, 0, 0}, {0, 0}, {0, 0, 0, 0}},   /* beq taken */
		{0x300, 1, 0, {26, 0}, {26, 25, 0, 0}, {0, 0}, {0, 0, 0, 0}},   /* bne not taken */
		{0x304, 1, 1, {26, 6}, {6, 0, 0, 0}, {0, 0}, {0, 0, 0, 0}},     /* bx lr: return */
		{0x18, 0, 0, {1, 0}, {2, 0, 0, 0}, {0, 0}, {0, 0, 0, 0}},       /* mov, last */
	};
	static const char *types[] = {"direct_call", "not_branch", "not_branch", "not_branch",
				      "conditional", "conditional", "return", "not_branch"};
	char path[] = "/tmp/citcat-test-champsim-XXXXXX";
	int fd = mkstemp(path);
	close(fd);
	for (int xz = 0; xz < 2; xz++) {
		struct citcat_champsim_writer *w;
		struct citcat_errinfo err;
		CHECK_EQ(citcat_champsim_writer_open(&w, path, xz, 0, &err), 0);
		for (int i = 0; i < n; i++) {
			CHECK_EQ(citcat_champsim_write(w, &v[i]), 0);
			if (i == 6) { /* an interrupt entry right after the return, EPC = where it went */
				struct citcat_itrace_rec irq;
				memset(&irq, 0, sizeof irq);
				irq.kind = CITCAT_REC_IRQ;
				irq.pc = 0x104;
				CHECK_EQ(citcat_champsim_write(w, &irq), 0);
				irq.kind = CITCAT_REC_DMA; /* ignored */
				irq.pc = 0x3000;
				irq.word = 8;
				CHECK_EQ(citcat_champsim_write(w, &irq), 0);
			}
		}
		const struct citcat_champsim_stats *st = citcat_champsim_writer_stats(w);
		CHECK_EQ(st->irqs, 1);
		CHECK_EQ(citcat_champsim_writer_close(w, &err), 0);
		size_t len = 0;
		uint8_t *got = slurp(path, &len), *plain = got;
		if (xz && got) { /* decode the .xz stream */
			plain = malloc(1 << 20);
			size_t inpos = 0, outpos = 0;
			uint64_t memlimit = UINT64_MAX;
			CHECK_EQ(lzma_stream_buffer_decode(&memlimit, 0, NULL, got, &inpos, len, plain, &outpos, 1 << 20), LZMA_OK);
			len = outpos;
		}
		CHECK_EQ(len, 64u * (unsigned)n);
		for (int i = 0; plain && i < n && (size_t)(64 * i) < len; i++) {
			uint8_t exp[64];
			put(exp, &want[i]);
			if (memcmp(plain + 64 * i, exp, 64) != 0) {
				fprintf(stderr, "record %d (pc 0x%llx) differs:\n got ", i, (unsigned long long)want[i].ip);
				for (int k = 0; k < 16; k++)
					fprintf(stderr, " %02x", plain[64 * i + k]);
				fprintf(stderr, "\nwant ");
				for (int k = 0; k < 16; k++)
					fprintf(stderr, " %02x", exp[k]);
				fprintf(stderr, "\n");
				CHECK(!"record differs");
			}
			CHECK(strcmp(champsim_type(plain + 64 * i), types[i]) == 0);
		}
		if (plain != got)
			free(plain);
		free(got);
	}
	unlink(path);
	CHECK_DONE();
}
