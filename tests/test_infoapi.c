/* The public calls behind `info`, `plan`, `merge` and capture's option
 * checks (issue 30 phase B), on small files written here with the public
 * writers; every expected figure is counted by hand from the records
 * written.  Public headers only.
 * Usage: test_infoapi SCRATCH_DIR */
#include <citcat/citcat.h>

#include "check.h"

#include <stdio.h>
#include <string.h>

static char dir[3000];

static const char *at(const char *name)
{
	static char p[4][3100];
	static int k;
	k = (k + 1) & 3;
	snprintf(p[k], sizeof p[k], "%s/%s", dir, name);
	return p[k];
}

static int stop_now(void *ctx, uint64_t done, uint64_t total)
{
	(void)done, (void)total;
	++*(int *)ctx;
	return 1;
}

/* An A32 itrace: instructions at 0x100, 0x104, 0x10c, 0x110 (two of them
 * 4 bytes after the one before), a read, a write and an uncached read; an
 * interrupt entry; two DMA transfers of 16 and 8 bytes; a read fault at
 * 0x110, address 0x30000000. */
static void itrace_figures(void)
{
	struct citcat_itrace_writer *w;
	CHECK_EQ(citcat_itrace_writer_open(&w, at("a.itrace"), CITCAT_ISA_ARM_A32), 0);
	static struct citcat_itrace_rec r;
	const uint64_t pcs[4] = {0x100, 0x104, 0x10c, 0x110};
	for (int i = 0; i < 4; i++) {
		memset(&r, 0, sizeof r);
		r.kind = CITCAT_REC_INSN;
		r.pc = pcs[i];
		r.word = 0xe1a00000; /* mov r0, r0 */
		r.size = 4;
		if (i == 1) {
			r.n_acc = 2;
			r.acc[0] = (struct citcat_access){.addr = 0x2000, .size = 4, .value = 1};
			r.acc[1] = (struct citcat_access){.addr = 0x2004, .size = 4, .value = 2, .write = 1};
		}
		if (i == 2) {
			r.n_acc = 1;
			r.acc[0] = (struct citcat_access){.addr = CITCAT_DEV_BASE + 8, .size = 4, .uncached = 1};
		}
		CHECK_EQ(citcat_itrace_write(w, &r), 0);
		if (i == 0) {
			memset(&r, 0, sizeof r);
			r.kind = CITCAT_REC_DMA, r.pc = 0x3000, r.word = 16;
			CHECK_EQ(citcat_itrace_write(w, &r), 0);
			r.pc = 0x3010, r.word = 8;
			CHECK_EQ(citcat_itrace_write(w, &r), 0);
			memset(&r, 0, sizeof r);
			r.kind = CITCAT_REC_IRQ, r.line = 2, r.pc = 0x104;
			CHECK_EQ(citcat_itrace_write(w, &r), 0);
		}
	}
	memset(&r, 0, sizeof r);
	r.kind = CITCAT_REC_STOP, r.line = CITCAT_STOP_FAULT, r.pc = 0x114, r.word = CITCAT_FAULT_READ;
	r.fault_addr = 0x30000000;
	CHECK_EQ(citcat_itrace_write(w, &r), 0);
	CHECK_EQ(citcat_itrace_writer_close(w), 0);

	struct citcat_itrace_reader *rd;
	CHECK_EQ(citcat_itrace_reader_open(&rd, at("a.itrace")), 0);
	struct citcat_itrace_info f = {.size = sizeof f};
	int rc = citcat_itrace_reader_info(rd, &f, NULL, NULL);
	CHECK_EQ(rc, 0);
	if (rc)
		fprintf(stderr, "%s\n", citcat_itrace_reader_error(rd)->msg);
	CHECK_EQ(f.size, sizeof f);
	CHECK_EQ(f.version, 3);
	CHECK_EQ(f.isa, CITCAT_ISA_ARM_A32);
	CHECK_EQ(f.insns, 4);
	CHECK_EQ(f.sequential, 2);
	CHECK_EQ(f.irqs, 1);
	CHECK_EQ(f.reads, 2);
	CHECK_EQ(f.writes, 1);
	CHECK_EQ(f.uncached, 1);
	CHECK_EQ(f.dma, 2);
	CHECK_EQ(f.dma_bytes, 24);
	CHECK_EQ(f.stopped, 1);
	CHECK_EQ(f.stop_reason, CITCAT_STOP_FAULT);
	CHECK_EQ(f.stop_pc, 0x114);
	CHECK_EQ(f.fault_kind, CITCAT_FAULT_READ);
	CHECK_EQ(f.fault_addr, 0x30000000);
	CHECK_EQ(f.has_m7_fault, 0);
	citcat_itrace_reader_close(rd);

	/* a struct of a smaller (older) size is filled up to its size only */
	CHECK_EQ(citcat_itrace_reader_open(&rd, at("a.itrace")), 0);
	struct {
		struct citcat_itrace_info f;
		uint64_t guard;
	} big;
	memset(&big, 0xa5, sizeof big);
	big.f.size = sizeof big.f;
	CHECK_EQ(citcat_itrace_reader_info(rd, &big.f, NULL, NULL), 0);
	CHECK(big.guard == 0xa5a5a5a5a5a5a5a5ull);
	citcat_itrace_reader_close(rd);
	CHECK_EQ(citcat_itrace_reader_open(&rd, at("a.itrace")), 0);
	struct citcat_itrace_info small = {.size = 8};
	CHECK_EQ(citcat_itrace_reader_info(rd, &small, NULL, NULL), CITCAT_ERR_INVAL);
	citcat_itrace_reader_close(rd);

	/* the same file byte for byte; one byte changed; a prefix */
	uint64_t off = 99;
	int which = -1;
	CHECK_EQ(citcat_file_compare(at("a.itrace"), at("a.itrace"), &off, NULL, NULL), 0);
	FILE *in = fopen(at("a.itrace"), "rb"), *b = fopen(at("b.itrace"), "wb"), *c = fopen(at("c.itrace"), "wb");
	int ch;
	long n = 0;
	while ((ch = fgetc(in)) != EOF) {
		fputc(n == 20 ? ch ^ 1 : ch, b);
		if (n < 30)
			fputc(ch, c);
		n++;
	}
	fclose(in), fclose(b), fclose(c);
	CHECK_EQ(citcat_file_compare(at("a.itrace"), at("b.itrace"), &off, NULL, NULL), 1);
	CHECK_EQ(off, 20);
	CHECK_EQ(citcat_file_compare(at("a.itrace"), at("c.itrace"), &off, NULL, NULL), 2);
	CHECK_EQ(off, 30);
	struct citcat_errinfo e;
	CHECK(citcat_file_compare(at("a.itrace"), at("none.itrace"), &off, &e, &which) < 0);
	CHECK_EQ(which, 1);
	CHECK(strstr(e.msg, "No such file") != NULL);
}

/* A CAT: START, an uncached write of 7 to EXIT (the device window's first
 * register) and a DMA of 16 bytes before the trace start point, SYNC at
 * 0x8000, two checkpoints, an IRQ, STOP with reason EXIT. */
static void cat_figures(void)
{
	struct citcat_target_config tc;
	citcat_target_config_default(&tc);
	struct citcat_cat_writer *w;
	CHECK_EQ(citcat_cat_writer_open(&w, at("a.cat"), &tc), 0);
	static const uint8_t data[16];
	struct citcat_cat_event ev[] = {
		{.kind = CITCAT_CAT_START},
		{.kind = CITCAT_CAT_UWRITE, .size = 4, .addr = tc.dev_base, .value = 7},
		{.kind = CITCAT_CAT_DMA, .addr = tc.ram_base + 0x100, .len = 16, .data = data},
		{.kind = CITCAT_CAT_SYNC, .pc = 0x8000},
		{.kind = CITCAT_CAT_CKPT, .pc = 0x8100, .insns = 100, .bcount = 10},
		{.kind = CITCAT_CAT_IRQ, .line = 1, .pc = 0x8104, .bcount = 12},
		{.kind = CITCAT_CAT_CKPT, .pc = 0x8200, .insns = 200, .bcount = 20},
		{.kind = CITCAT_CAT_STOP, .line = CITCAT_STOP_EXIT, .insns = 300, .bcount = 30, .cycle = 0},
	};
	for (size_t i = 0; i < sizeof ev / sizeof ev[0]; i++) {
		int rc = citcat_cat_write(w, &ev[i]);
		CHECK_EQ(rc, 0);
		if (rc)
			fprintf(stderr, "event %zu: %s\n", i, citcat_cat_writer_error(w)->msg);
	}
	CHECK_EQ(citcat_cat_writer_close(w), 0);

	struct citcat_cat_reader *r;
	CHECK_EQ(citcat_cat_reader_open(&r, at("a.cat")), 0);
	struct citcat_cat_info f = {.size = sizeof f};
	int rc = citcat_cat_reader_info(r, &f, NULL, NULL);
	CHECK_EQ(rc, 0);
	if (rc)
		fprintf(stderr, "%s\n", citcat_cat_reader_error(r)->msg);
	CHECK_EQ(f.events[CITCAT_CAT_START], 1);
	CHECK_EQ(f.events[CITCAT_CAT_CKPT], 2);
	CHECK_EQ(f.events[CITCAT_CAT_IRQ], 1);
	CHECK_EQ(f.before_start[CITCAT_CAT_UWRITE], 1);
	CHECK_EQ(f.before_start[CITCAT_CAT_DMA], 1);
	CHECK_EQ(f.before_start[CITCAT_CAT_CKPT], 0);
	CHECK_EQ(f.dma_bytes, 16);
	CHECK_EQ(f.sync_pc, 0x8000);
	CHECK_EQ(f.stop, CITCAT_STOP_EXIT);
	CHECK_EQ(f.insns, 300);
	CHECK_EQ(f.branches, 30);
	CHECK_EQ(f.has_exit_value, 1);
	CHECK_EQ(f.exit_value, 7);
	CHECK(f.file_bytes > 0 && f.file_bytes == citcat_cat_reader_file_size(r));
	citcat_cat_reader_close(r);

	/* two checkpoints after the SYNC: three segments */
	uint64_t n = 0;
	CHECK_EQ(citcat_cat_segments(at("a.cat"), &n, NULL, NULL, NULL), 0);
	CHECK_EQ(n, 3);
	struct citcat_errinfo e;
	CHECK(citcat_cat_segments(at("none.cat"), &n, NULL, NULL, &e) < 0);

	/* PROGRESS asking to stop: after 16,384 events, not before */
	int calls = 0;
	CHECK_EQ(citcat_cat_reader_open(&r, at("a.cat")), 0);
	CHECK_EQ(citcat_cat_reader_info(r, &f, stop_now, &calls), 0);
	CHECK_EQ(calls, 0);
	citcat_cat_reader_close(r);
}

static void capture_checks(void)
{
	struct citcat_cache_config c = {.size = 8192, .ways = 4, .line = 32, .repl = CITCAT_REPL_LRU};
	const char *why = NULL;
	CHECK_EQ(citcat_cache_config_check(&c, &why), 0);
	CHECK(why == NULL);
	c.line = 24;
	CHECK_EQ(citcat_cache_config_check(&c, &why), CITCAT_ERR_INVAL);
	CHECK(why && strstr(why, "line size") != NULL);
	c.line = 32, c.size = 3 * 4 * 32; /* three sets */
	CHECK_EQ(citcat_cache_config_check(&c, NULL), CITCAT_ERR_INVAL);
	CHECK(citcat_elf_arm_profile(at("none.elf")) < 0);  /* cannot be opened */
	CHECK_EQ(citcat_elf_arm_profile(at("a.cat")), 0); /* no ARM build attributes */
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: test_infoapi SCRATCH_DIR\n");
		return 2;
	}
	snprintf(dir, sizeof dir, "%s", argv[1]);
	itrace_figures();
	cat_figures();
	capture_checks();
	CHECK_DONE();
}
