/* IMS and AES extraction from hand-built CATs: the cases that are easy to get
 * wrong (a byte's first appearance, DMA and interrupt positions, the device
 * input queue and its run-length records, warm caches before the trace
 * start point, the register dump) and the extraction errors. */
#include "aes.h"
#include "cat.h"
#include "check.h"
#include "ims.h"

#include <dirent.h>
#include <string.h>
#include <unistd.h>

#define P 0x0200u          /* trace start point of every hand-built CAT */
#define DEV 0x40000000u
#define SLOT(k) (DEV + 0xF40u + 4u * (k))
#define DUMP_DONE (DEV + 0xFFCu)

static char dir[] = "/tmp/citcat-test-extract-XXXXXX";
static char cat_path[512], ims_path[512], aes_path[512];
static struct citcat_cat_writer *w;

static void ev(const struct citcat_cat_event *e) { CHECK_EQ(citcat_cat_write(w, e), 0); }

static void line_ev(uint8_t kind, uint32_t addr, const uint8_t *data)
{
	struct citcat_cat_event e = {.kind = kind, .addr = addr, .len = 32, .data = data};
	ev(&e);
}

static void dev_ev(uint8_t kind, uint32_t addr, uint8_t size, uint64_t value)
{
	struct citcat_cat_event e = {.kind = kind, .addr = addr, .size = size, .value = value};
	ev(&e);
}

static void dma_ev(uint32_t addr, uint32_t len, const uint8_t *data, uint64_t bcount, uint32_t pc)
{
	struct citcat_cat_event e = {.kind = CITCAT_CAT_DMA, .addr = addr, .len = len, .data = data, .bcount = bcount, .pc = pc};
	ev(&e);
}

static void irq_ev(uint8_t line, uint64_t bcount, uint32_t pc)
{
	struct citcat_cat_event e = {.kind = CITCAT_CAT_IRQ, .line = line, .bcount = bcount, .pc = pc};
	ev(&e);
}

/* Slot 39 is SCTLR: Unicorn's Cortex-A9 reset value 0x00C50078 with TE set;
 * the IMS keeps TE (0x40000000) only. */
static uint32_t reg_value(int k)
{
	return k == ARM_SLOT_PC ? P : k == ARM_SLOT_SCTLR ? 0x40c50078u : 0x1000u + 0x11u * (uint32_t)k;
}

enum { DUMP_FULL = 0, DUMP_NO_DONE = 1, DUMP_MISSING_SLOT = 2, DUMP_BAD_PC = 4, DUMP_NONE = 8, DUMP_OLD = 16 };

/* START, SYNC at P, the register dump (variant DUMP), as the driver makes them. */
static void begin(int dump, int wt)
{
	struct citcat_target_config cfg;
	citcat_target_config_default(&cfg);
	cfg.ram_size = 1u << 20;
	cfg.icache.line = cfg.dcache.line = 32;
	cfg.dcache.write_through = (uint8_t)wt;
	CHECK_EQ(citcat_cat_writer_open(&w, cat_path, &cfg), 0);
	struct citcat_cat_event e = {.kind = CITCAT_CAT_START};
	ev(&e);
	dev_ev(CITCAT_CAT_UWRITE, DEV + 0x108, 4, 0x54524331); /* CLEAN_INV_D */
	dev_ev(CITCAT_CAT_UWRITE, DEV + 0x100, 4, 0x54524331); /* INV_I */
	if (dump & DUMP_NONE)
		return;
	struct citcat_cat_event s = {.kind = CITCAT_CAT_SYNC, .pc = P};
	ev(&s);
	for (int k = 0; k < ((dump & DUMP_OLD) ? ARM_SLOTS : ARM_DUMP_SLOTS); k++) { /* DUMP_OLD: no SCTLR */
		if ((dump & DUMP_MISSING_SLOT) && k == 38)
			continue;
		uint32_t v = reg_value(k);
		if ((dump & DUMP_BAD_PC) && k == ARM_SLOT_PC)
			v = P + 4;
		dev_ev(CITCAT_CAT_UWRITE, SLOT(k), 4, v);
	}
	if (!(dump & DUMP_NO_DONE))
		dev_ev(CITCAT_CAT_UWRITE, DUMP_DONE, 4, (dump & DUMP_OLD) ? ARM_SLOTS : ARM_DUMP_SLOTS);
}

static void end_cat(int with_stop, uint64_t insns, uint64_t branches)
{
	if (with_stop) {
		struct citcat_cat_event e = {.kind = CITCAT_CAT_STOP, .line = CITCAT_STOP_EXIT, .insns = insns,
					     .bcount = branches, .cycle = insns * 2};
		ev(&e);
	}
	CHECK_EQ(citcat_cat_writer_close(w), 0);
	w = NULL;
}

static int extract_ims(struct citcat_ims *ims, struct citcat_ims_stats *st, struct citcat_errinfo *err)
{
	memset(err, 0, sizeof *err);
	return citcat_ims_extract(cat_path, ims, st, NULL, NULL, err);
}

static int extract_aes(struct citcat_aes_stats *st, struct citcat_errinfo *err)
{
	memset(err, 0, sizeof *err);
	unlink(aes_path);
	return citcat_aes_extract(cat_path, aes_path, st, NULL, NULL, err);
}

/* Reads the AES back into REC (at most MAX records); returns the count. */
static int read_aes(struct citcat_aes_rec *rec, int max, size_t *raw_len, uint8_t *raw_kind, uint8_t dma_copy[][64])
{
	struct citcat_aes_reader *r;
	int n = 0, rc;
	CHECK_EQ(citcat_aes_reader_open(&r, aes_path), 0);
	while ((rc = citcat_aes_next(r, &rec[n < max ? n : max - 1])) == 1) {
		if (n < max) {
			size_t len;
			const uint8_t *raw = citcat_aes_last_raw(r, &len);
			if (raw_len)
				raw_len[n] = len;
			if (raw_kind)
				raw_kind[n] = len ? raw[0] & 7 : 0xff;
			if (dma_copy && rec[n].kind == CITCAT_AES_DMA && rec[n].len <= 64) {
				memcpy(dma_copy[n], rec[n].data, rec[n].len);
				rec[n].data = NULL;
			}
		}
		n++;
	}
	CHECK_EQ(rc, 0);
	citcat_aes_reader_close(r);
	return n;
}

static int present(const struct citcat_ims *ims, uint32_t addr, uint8_t *v)
{
	uint8_t b;
	int rc = citcat_image_read(ims->memory, addr, &b, 1);
	if (v)
		*v = b;
	return rc == 0;
}

static int file_exists(const char *p) { return access(p, F_OK) == 0; }

/* No file of DIR other than the CAT (temporary outputs included). */
static int only_cat_left(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int others = 0;
	while (d && (e = readdir(d)))
		if (e->d_name[0] != '.' && strcmp(e->d_name, "run.cat") != 0)
			others++;
	if (d)
		closedir(d);
	return others == 0;
}

static uint8_t pat(int which, int i) { return (uint8_t)(which * 0x40 + i); }

/* A DMA transfer into a line before the line's first fill: the transferred
 * bytes were never read at their initial value and stay out of the IMS; the
 * rest of the line comes from the fill.  The AES holds the transfer at its
 * instruction boundary. */
static void test_dma_before_fill(void)
{
	uint8_t dma[8], line[32];
	for (int i = 0; i < 8; i++)
		dma[i] = (uint8_t)(0xD0 + i);
	for (int i = 0; i < 32; i++)
		line[i] = i >= 8 && i < 16 ? dma[i - 8] : pat(1, i);
	begin(DUMP_FULL, 0);
	dma_ev(0x1008, 8, dma, 5, 0x520);
	line_ev(CITCAT_CAT_FILL_D, 0x1000, line);
	end_cat(1, 100, 10);

	struct citcat_ims ims;
	struct citcat_ims_stats st;
	struct citcat_errinfo err;
	CHECK_EQ(extract_ims(&ims, &st, &err), 0);
	for (int i = 0; i < 32; i++) {
		uint8_t v;
		int in = present(&ims, 0x1000u + (uint32_t)i, &v);
		if (i >= 8 && i < 16) {
			CHECK(!in);
		} else {
			CHECK(in);
			CHECK_EQ(v, pat(1, i));
		}
	}
	CHECK_EQ(citcat_image_bytes(ims.memory), 24);
	CHECK_EQ(st.bytes_dma_first, 8);
	CHECK_EQ(st.lines_filled, 1);
	citcat_ims_fini(&ims);

	struct citcat_aes_stats ast;
	CHECK_EQ(extract_aes(&ast, &err), 0);
	struct citcat_aes_rec rec[8];
	uint8_t copy[8][64];
	/* the dump's 40 outputs, the DMA, END */
	CHECK_EQ(ast.records[CITCAT_AES_DMA], 1);
	CHECK_EQ(ast.dma_bytes, 8);
	struct citcat_aes_reader *r;
	CHECK_EQ(citcat_aes_reader_open(&r, aes_path), 0);
	int n = 0, rc;
	struct citcat_aes_rec x;
	while ((rc = citcat_aes_next(r, &x)) == 1) {
		if (x.kind == CITCAT_AES_OUTPUT)
			continue;
		if (n < 8) {
			rec[n] = x;
			if (x.kind == CITCAT_AES_DMA)
				memcpy(copy[n], x.data, x.len);
		}
		n++;
	}
	CHECK_EQ(rc, 0);
	citcat_aes_reader_close(r);
	CHECK_EQ(n, 2);
	CHECK_EQ(rec[0].kind, CITCAT_AES_DMA);
	CHECK_EQ(rec[0].addr, 0x1008);
	CHECK_EQ(rec[0].len, 8);
	CHECK_EQ(rec[0].bcount, 5);
	CHECK_EQ(rec[0].pc, 0x520);
	CHECK(memcmp(copy[0], dma, 8) == 0);
	CHECK_EQ(rec[1].kind, CITCAT_AES_END);
	CHECK_EQ(rec[1].insns, 100);
	CHECK_EQ(rec[1].bcount, 10);
	CHECK_EQ(rec[1].line, CITCAT_STOP_EXIT);
}

/* A line evicted dirty and filled again: the IMS keeps the first fill's data,
 * not the re-fill's (which shows what the core wrote). */
static void test_refill_after_writeback(void)
{
	uint8_t a[32], b[32];
	for (int i = 0; i < 32; i++) {
		a[i] = pat(1, i);
		b[i] = (uint8_t)~pat(1, i);
	}
	begin(DUMP_FULL, 0);
	line_ev(CITCAT_CAT_FILL_D, 0x2000, a);
	line_ev(CITCAT_CAT_WRITEBACK, 0x2000, b);
	line_ev(CITCAT_CAT_FILL_D, 0x2000, b);
	line_ev(CITCAT_CAT_FILL_I, 0x2000, b);
	line_ev(CITCAT_CAT_WRITEBACK, 0x2040, b); /* (impossible, but a write-back is never a source) */
	end_cat(1, 50, 3);
	struct citcat_ims ims;
	struct citcat_ims_stats st;
	struct citcat_errinfo err;
	CHECK_EQ(extract_ims(&ims, &st, &err), 0);
	uint8_t got[32];
	CHECK_EQ(citcat_image_read(ims.memory, 0x2000, got, 32), 0);
	CHECK(memcmp(got, a, 32) == 0);
	CHECK(!present(&ims, 0x2040, NULL));
	CHECK_EQ(citcat_image_bytes(ims.memory), 32);
	CHECK_EQ(st.lines_filled, 1);
	citcat_ims_fini(&ims);
}

/* Interrupts (and a DMA transfer) inside a `b .` loop at 0x300: every
 * iteration is a taken branch, so only the branch count tells the
 * iterations apart; the AES must keep it and the EPC exactly, whatever the
 * size of the numbers and the sign of the PC deltas. */
static void test_irq_in_loop(void)
{
	static const struct { uint8_t line; uint64_t bcount; uint32_t pc; } irqs[] = {
		{0, 1000000, 0x300}, {3, 1000007, 0x300}, {1, 1000007, 0x100}, {2, (1ull << 40) + 3, 0xfffffffc},
		{15, (1ull << 40) + 3, 0x0}};
	uint8_t dma[4] = {1, 2, 3, 4};
	begin(DUMP_FULL, 0);
	for (size_t i = 0; i < 3; i++)
		irq_ev(irqs[i].line, irqs[i].bcount, irqs[i].pc);
	dma_ev(0x8000, 4, dma, 1000008, 0x300);
	for (size_t i = 3; i < 5; i++)
		irq_ev(irqs[i].line, irqs[i].bcount, irqs[i].pc);
	end_cat(1, 3000000, (1ull << 40) + 5);
	struct citcat_aes_stats ast;
	struct citcat_errinfo err;
	CHECK_EQ(extract_aes(&ast, &err), 0);
	CHECK_EQ(ast.records[CITCAT_AES_IRQ], 5);
	struct citcat_aes_rec rec[64];
	int n = read_aes(rec, 64, NULL, NULL, NULL), k = 0;
	CHECK_EQ(n, 41 + 5 + 1 + 1); /* 40 dump slots + DUMP_DONE are outputs */
	for (int i = 0; i < n && i < 64; i++) {
		if (rec[i].kind == CITCAT_AES_OUTPUT)
			continue;
		if (k == 3) {
			CHECK_EQ(rec[i].kind, CITCAT_AES_DMA);
			CHECK_EQ(rec[i].bcount, 1000008);
			CHECK_EQ(rec[i].pc, 0x300);
			CHECK_EQ(rec[i].addr, 0x8000);
		} else if (k < 6) {
			int j = k < 3 ? k : k - 1;
			CHECK_EQ(rec[i].kind, CITCAT_AES_IRQ);
			CHECK_EQ(rec[i].line, irqs[j].line);
			CHECK(rec[i].bcount == irqs[j].bcount);
			CHECK_EQ(rec[i].pc, irqs[j].pc);
		} else {
			CHECK_EQ(rec[i].kind, CITCAT_AES_END);
			CHECK(rec[i].bcount == (1ull << 40) + 5);
		}
		k++;
	}
	CHECK_EQ(k, 7);
}

/* The device input queue: a register whose value changes between reads
 * gives both values in order; a run of identical reads (a polling loop)
 * becomes one REPEAT record and expands back to the exact count. */
static void test_device_reads(void)
{
	enum { RUN = 1000 };
	begin(DUMP_FULL, 0);
	dev_ev(CITCAT_CAT_UREAD, DEV + 0x404, 4, 0);   /* UART STATUS: nothing yet */
	dev_ev(CITCAT_CAT_UREAD, DEV + 0x404, 4, 1);   /* a byte arrived */
	dev_ev(CITCAT_CAT_UREAD, DEV + 0x400, 4, 'A'); /* DATA */
	for (int i = 0; i < RUN; i++)
		dev_ev(CITCAT_CAT_UREAD, DEV + 0x404, 4, 0);
	dev_ev(CITCAT_CAT_UREAD, DEV + 0x404, 4, 5);
	dev_ev(CITCAT_CAT_UREAD, DEV + 0x400, 1, 'B'); /* a byte-wide read */
	end_cat(1, 9000, 3000);
	struct citcat_aes_stats ast;
	struct citcat_errinfo err;
	CHECK_EQ(extract_aes(&ast, &err), 0);
	CHECK_EQ(ast.records[CITCAT_AES_INPUT], 3 + RUN + 2);
	static struct citcat_aes_rec rec[2000];
	static size_t raw_len[2000];
	static uint8_t raw_kind[2000];
	int n = read_aes(rec, 2000, raw_len, raw_kind, NULL);
	CHECK_EQ(n, 41 + 3 + RUN + 2 + 1);
	const int first = 41; /* after the dump's outputs (40 slots, DUMP_DONE) */
	static const uint64_t want_head[3] = {0, 1, 'A'};
	for (int i = 0; i < 3; i++) {
		CHECK_EQ(rec[first + i].kind, CITCAT_AES_INPUT);
		CHECK_EQ(rec[first + i].value, want_head[i]);
		CHECK_EQ(rec[first + i].size, 4);
	}
	CHECK_EQ(rec[first].addr, DEV + 0x404);
	CHECK_EQ(rec[first + 2].addr, DEV + 0x400);
	int repeat_records = 0, silent = 0;
	for (int i = first + 3; i < first + 3 + RUN; i++) {
		CHECK_EQ(rec[i].kind, CITCAT_AES_INPUT);
		CHECK_EQ(rec[i].addr, DEV + 0x404);
		CHECK_EQ(rec[i].value, 0);
		repeat_records += raw_len[i] && raw_kind[i] == 6;
		silent += raw_len[i] == 0;
	}
	/* the first read of the run is a record of its own, the other 999 are one REPEAT */
	CHECK(raw_len[first + 3] > 0 && raw_kind[first + 3] == CITCAT_AES_INPUT);
	CHECK_EQ(raw_kind[first + 4], 6);
	CHECK_EQ(repeat_records, 1);
	CHECK_EQ(silent, RUN - 2);
	CHECK(raw_len[first + 4] <= 3); /* kind byte + varint 999 */
	CHECK_EQ(rec[first + 3 + RUN].value, 5);
	CHECK(raw_len[first + 3 + RUN] > 0);
	CHECK_EQ(rec[first + 4 + RUN].value, 'B');
	CHECK_EQ(rec[first + 4 + RUN].size, 1);
	CHECK_EQ(rec[n - 1].kind, CITCAT_AES_END);
}

/* Cycle-counter reads (LO and HI) go to the counter history, other device
 * reads to the input queue, device writes to the output log. */
static void test_counter(void)
{
	begin(DUMP_FULL, 0);
	dev_ev(CITCAT_CAT_UREAD, DEV + 0x600, 4, 100);
	dev_ev(CITCAT_CAT_UREAD, DEV + 0x604, 4, 0);
	dev_ev(CITCAT_CAT_UREAD, DEV + 0x700, 4, 0xdeadbeef); /* RANDOM: input */
	dev_ev(CITCAT_CAT_UREAD, DEV + 0x600, 4, 150);
	dev_ev(CITCAT_CAT_UREAD, DEV + 0x600, 4, 0xfffffff0);
	dev_ev(CITCAT_CAT_UREAD, DEV + 0x600, 4, 5); /* wrapped */
	dev_ev(CITCAT_CAT_UREAD, DEV + 0x604, 4, 1);
	dev_ev(CITCAT_CAT_UWRITE, DEV + 0x400, 4, 'x');
	end_cat(1, 9000, 3000);
	struct citcat_aes_stats ast;
	struct citcat_errinfo err;
	CHECK_EQ(extract_aes(&ast, &err), 0);
	CHECK_EQ(ast.records[CITCAT_AES_COUNTER], 6);
	CHECK_EQ(ast.records[CITCAT_AES_INPUT], 1);
	CHECK_EQ(ast.records[CITCAT_AES_OUTPUT], 42); /* 40 dump slots, DUMP_DONE, 'x' */
	struct citcat_aes_rec rec[64];
	int n = read_aes(rec, 64, NULL, NULL, NULL);
	CHECK_EQ(n, 41 + 8 + 1);
	static const struct { uint8_t kind; uint32_t off; uint64_t value; } want[] = {
		{CITCAT_AES_COUNTER, 0x600, 100}, {CITCAT_AES_COUNTER, 0x604, 0},
		{CITCAT_AES_INPUT, 0x700, 0xdeadbeef}, {CITCAT_AES_COUNTER, 0x600, 150},
		{CITCAT_AES_COUNTER, 0x600, 0xfffffff0}, {CITCAT_AES_COUNTER, 0x600, 5},
		{CITCAT_AES_COUNTER, 0x604, 1}, {CITCAT_AES_OUTPUT, 0x400, 'x'}};
	for (int i = 0; i < 8; i++) {
		CHECK_EQ(rec[41 + i].kind, want[i].kind);
		CHECK_EQ(rec[41 + i].addr, DEV + want[i].off);
		CHECK(rec[41 + i].value == want[i].value);
	}
	CHECK(citcat_aes_is_counter(&(struct citcat_target_config){.dev_base = DEV}, DEV + 0x604));
	CHECK(!citcat_aes_is_counter(&(struct citcat_target_config){.dev_base = DEV}, DEV + 0x608));
	CHECK(!citcat_aes_is_counter(&(struct citcat_target_config){.dev_base = DEV}, DEV + 0x5fc));
}

/* Tracing that starts after initialisation with warm caches: whatever the
 * trace module recorded between START and SYNC (the driver's clean: fills,
 * write-backs, device accesses, even a DMA transfer and an interrupt) must
 * not leak into the IMS or the AES; the memory at P is what fills after P
 * show. */
static void test_warm_start(void)
{
	uint8_t x[32], y[32], d[8] = {9, 9, 9, 9, 9, 9, 9, 9};
	for (int i = 0; i < 32; i++) {
		x[i] = pat(2, i);
		y[i] = pat(3, i);
	}
	struct citcat_target_config cfg;
	citcat_target_config_default(&cfg);
	cfg.ram_size = 1u << 20;
	CHECK_EQ(citcat_cat_writer_open(&w, cat_path, &cfg), 0);
	struct citcat_cat_event e = {.kind = CITCAT_CAT_START};
	ev(&e);
	line_ev(CITCAT_CAT_FILL_D, 0x3000, x);
	line_ev(CITCAT_CAT_FILL_I, 0x3100, x);
	line_ev(CITCAT_CAT_WRITEBACK, 0x3000, y);
	dev_ev(CITCAT_CAT_WRITE, 0x3300, 4, 7);
	dev_ev(CITCAT_CAT_UREAD, DEV + 0x700, 4, 1234);
	dev_ev(CITCAT_CAT_UREAD, DEV + 0x600, 4, 99);
	dev_ev(CITCAT_CAT_UWRITE, SLOT(3), 4, 0xbad); /* not the dump: before P */
	dma_ev(0x3200, 8, d, 1, 0x100);
	irq_ev(0, 2, 0x104);
	dev_ev(CITCAT_CAT_UWRITE, DEV + 0x108, 4, 0x54524331);
	dev_ev(CITCAT_CAT_UWRITE, DEV + 0x100, 4, 0x54524331);
	struct citcat_cat_event s = {.kind = CITCAT_CAT_SYNC, .pc = P};
	ev(&s);
	for (int k = 0; k < ARM_DUMP_SLOTS; k++)
		dev_ev(CITCAT_CAT_UWRITE, SLOT(k), 4, reg_value(k));
	dev_ev(CITCAT_CAT_UWRITE, DUMP_DONE, 4, ARM_DUMP_SLOTS);
	line_ev(CITCAT_CAT_FILL_D, 0x3000, y);
	end_cat(1, 70, 7);

	struct citcat_ims ims;
	struct citcat_ims_stats st;
	struct citcat_errinfo err;
	CHECK_EQ(extract_ims(&ims, &st, &err), 0);
	uint8_t got[32];
	CHECK_EQ(citcat_image_read(ims.memory, 0x3000, got, 32), 0);
	CHECK(memcmp(got, y, 32) == 0);
	CHECK(!present(&ims, 0x3100, NULL));
	CHECK(!present(&ims, 0x3200, NULL));
	CHECK(!present(&ims, 0x3300, NULL));
	CHECK_EQ(citcat_image_bytes(ims.memory), 32);
	CHECK_EQ(st.bytes_dma_first + st.bytes_write_first, 0);
	CHECK_EQ(ims.regs.slot[3], reg_value(3));
	citcat_ims_fini(&ims);

	struct citcat_aes_stats ast;
	CHECK_EQ(extract_aes(&ast, &err), 0);
	CHECK_EQ(ast.records[CITCAT_AES_IRQ], 0);
	CHECK_EQ(ast.records[CITCAT_AES_DMA], 0);
	CHECK_EQ(ast.records[CITCAT_AES_INPUT], 0);
	CHECK_EQ(ast.records[CITCAT_AES_COUNTER], 0);
	CHECK_EQ(ast.records[CITCAT_AES_OUTPUT], 41); /* the dump only: 40 slots, DUMP_DONE */
	CHECK_EQ(ast.records[CITCAT_AES_END], 1);
}

/* Write-through stores that reach a byte before any fill: left out. */
static void test_write_through_first(void)
{
	uint8_t line[32];
	for (int i = 0; i < 32; i++)
		line[i] = pat(1, i);
	begin(DUMP_FULL, 1);
	dev_ev(CITCAT_CAT_WRITE, 0x4004, 4, 0x11223344);
	dev_ev(CITCAT_CAT_WRITE, 0x401f, 1, 0x55);
	line_ev(CITCAT_CAT_FILL_D, 0x4000, line);
	dev_ev(CITCAT_CAT_WRITE, 0x4000, 4, 0x66); /* after the fill: no effect */
	end_cat(1, 70, 7);
	struct citcat_ims ims;
	struct citcat_ims_stats st;
	struct citcat_errinfo err;
	CHECK_EQ(extract_ims(&ims, &st, &err), 0);
	CHECK_EQ(st.bytes_write_first, 5);
	CHECK_EQ(citcat_image_bytes(ims.memory), 27);
	uint8_t v;
	CHECK(present(&ims, 0x4000, &v) && v == pat(1, 0));
	CHECK(present(&ims, 0x4003, &v) && v == pat(1, 3));
	CHECK(!present(&ims, 0x4004, NULL) && !present(&ims, 0x4007, NULL) && !present(&ims, 0x401f, NULL));
	CHECK(present(&ims, 0x4008, &v) && v == pat(1, 8));
	citcat_ims_fini(&ims);
}

/* The register dump: the first write to each slot holds the value at P
 * (later writes, e.g. after DUMP_DONE, are the program's business). */
static void test_register_dump(void)
{
	begin(DUMP_NO_DONE, 0);
	dev_ev(CITCAT_CAT_UWRITE, SLOT(5), 4, 0xbbbb); /* second write to slot 5 */
	dev_ev(CITCAT_CAT_UWRITE, DUMP_DONE, 4, ARM_DUMP_SLOTS);
	dev_ev(CITCAT_CAT_UWRITE, SLOT(6), 4, 0xcccc); /* after DUMP_DONE */
	end_cat(1, 70, 7);
	struct citcat_ims ims;
	struct citcat_ims_stats st;
	struct citcat_errinfo err;
	CHECK_EQ(extract_ims(&ims, &st, &err), 0);
	for (int k = 0; k < ARM_SLOTS; k++)
		CHECK_EQ(ims.regs.slot[k], reg_value(k));
	CHECK_EQ(ims.id.start_pc, P);
	CHECK_EQ(ims.id.insns, 70);
	CHECK_EQ(ims.sctlr, 0x40000000u); /* slot 39: TE kept, the other bits dropped (IMS.md) */
	/* IMS file round trip */
	CHECK_EQ(citcat_ims_write(&ims, ims_path, &err), 0);
	struct citcat_ims back;
	CHECK_EQ(citcat_ims_read(ims_path, &back, &err), 0);
	CHECK(memcmp(&back.regs, &ims.regs, sizeof ims.regs) == 0);
	CHECK_EQ(back.sctlr, 0x40000000u);
	CHECK(back.id.hash == ims.id.hash && back.id.start_pc == P && back.id.insns == 70);
	CHECK_EQ(back.cfg.ram_size, 1u << 20);
	CHECK_EQ(citcat_image_bytes(back.memory), 0);
	citcat_ims_fini(&back);
	citcat_ims_fini(&ims);
	unlink(ims_path);

	static const struct { int dump; const char *msg; } bad[] = {
		{DUMP_NO_DONE, "DUMP_DONE missing"},
		{DUMP_MISSING_SLOT, "39 of 40 slots"},
		{DUMP_OLD, "39 slots and no SCTLR (slot 39)"}, /* a driver from before IMS version 4 */
		{DUMP_BAD_PC, "is not the trace start point"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		begin(bad[i].dump, 0);
		end_cat(1, 70, 7);
		CHECK_EQ(extract_ims(&ims, &st, &err), CITCAT_ERR_CORRUPT);
		CHECK(strstr(err.msg, bad[i].msg) != NULL);
		CHECK(ims.memory == NULL);
	}
}

/* The trace id ties an IMS to the AES of the same CAT; two CATs that differ
 * only in their totals get different ids. */
static void test_trace_id(void)
{
	struct citcat_ims ims;
	struct citcat_ims_stats st;
	struct citcat_errinfo err;
	struct citcat_aes_stats ast;
	uint64_t hash[2];
	for (int i = 0; i < 2; i++) {
		begin(DUMP_FULL, 0);
		end_cat(1, 1000, 100 + (uint64_t)i);
		CHECK_EQ(extract_ims(&ims, &st, &err), 0);
		CHECK_EQ(extract_aes(&ast, &err), 0);
		struct citcat_aes_reader *r;
		CHECK_EQ(citcat_aes_reader_open(&r, aes_path), 0);
		const struct citcat_trace_id *id = citcat_aes_trace_id(r);
		CHECK(id->hash == ims.id.hash);
		CHECK_EQ(id->start_pc, P);
		CHECK_EQ(id->insns, 1000);
		citcat_aes_reader_close(r);
		hash[i] = ims.id.hash;
		citcat_ims_fini(&ims);
	}
	CHECK(hash[0] != hash[1]);
}

/* CATs the extractors must refuse, leaving no AES file behind. */
static void test_errors(void)
{
	struct citcat_ims ims;
	struct citcat_ims_stats st;
	struct citcat_errinfo err;
	struct citcat_aes_stats ast;
	uint8_t line[32] = {0};

	/* no SYNC: the firmware never ran the driver */
	begin(DUMP_NONE, 0);
	end_cat(1, 10, 1);
	CHECK_EQ(extract_ims(&ims, &st, &err), CITCAT_ERR_CORRUPT);
	CHECK(strstr(err.msg, "no trace start point") != NULL);
	CHECK_EQ(extract_aes(&ast, &err), CITCAT_ERR_CORRUPT);
	CHECK(strstr(err.msg, "no trace start point") != NULL);
	CHECK(!file_exists(aes_path));
	CHECK(only_cat_left());

	/* no STOP */
	begin(DUMP_FULL, 0);
	end_cat(0, 0, 0);
	CHECK_EQ(extract_ims(&ims, &st, &err), CITCAT_ERR_TRUNCATED);
	CHECK(strstr(err.msg, "no STOP") != NULL);
	CHECK_EQ(extract_aes(&ast, &err), CITCAT_ERR_TRUNCATED);
	CHECK(!file_exists(aes_path));
	CHECK(only_cat_left());

	/* a second SYNC; events after STOP; a fill outside RAM */
	begin(DUMP_FULL, 0);
	struct citcat_cat_event s = {.kind = CITCAT_CAT_SYNC, .pc = P};
	ev(&s);
	end_cat(1, 10, 1);
	CHECK_EQ(extract_ims(&ims, &st, &err), CITCAT_ERR_CORRUPT);
	CHECK(strstr(err.msg, "second trace start point") != NULL);

	begin(DUMP_FULL, 0);
	struct citcat_cat_event stop = {.kind = CITCAT_CAT_STOP, .insns = 10, .bcount = 1};
	ev(&stop);
	line_ev(CITCAT_CAT_FILL_D, 0x100, line);
	end_cat(0, 0, 0);
	CHECK_EQ(extract_ims(&ims, &st, &err), CITCAT_ERR_CORRUPT);
	CHECK(strstr(err.msg, "after the STOP") != NULL);

	begin(DUMP_FULL, 0);
	line_ev(CITCAT_CAT_FILL_D, (1u << 20) - 0x20 + 0x20, line); /* just past the 1 MiB RAM */
	end_cat(1, 10, 1);
	CHECK_EQ(extract_ims(&ims, &st, &err), CITCAT_ERR_CORRUPT);
	CHECK(strstr(err.msg, "outside RAM") != NULL);

	/* not a CAT */
	CHECK(citcat_ims_extract(ims_path, &ims, &st, NULL, NULL, &err) < 0);
	CHECK(citcat_aes_extract(ims_path, aes_path, &ast, NULL, NULL, &err) < 0);
	CHECK(!file_exists(aes_path));
}

static int stop_now(void *ctx, uint64_t done, uint64_t total)
{
	(*(int *)ctx)++;
	return 1;
}

/* A caller that stops a long extraction gets CITCAT_ERR_INTERRUPTED and no
 * output (the AES writer's temporary file is removed). */
static void test_interrupt(void)
{
	begin(DUMP_FULL, 0);
	for (int i = 0; i < 70000; i++)
		dev_ev(CITCAT_CAT_UREAD, DEV + 0x700, 4, (uint32_t)i * 2654435761u);
	end_cat(1, 200000, 1);
	struct citcat_ims ims;
	struct citcat_errinfo err = {0};
	int calls = 0;
	CHECK_EQ(citcat_ims_extract(cat_path, &ims, NULL, stop_now, &calls, &err), CITCAT_ERR_INTERRUPTED);
	CHECK_EQ(calls, 1);
	memset(&err, 0, sizeof err);
	CHECK_EQ(citcat_aes_extract(cat_path, aes_path, NULL, stop_now, &calls, &err), CITCAT_ERR_INTERRUPTED);
	CHECK_EQ(calls, 2);
	CHECK(!file_exists(aes_path));
	CHECK(only_cat_left());
	/* and without interruption every one of them is in the queue */
	struct citcat_aes_stats ast;
	CHECK_EQ(extract_aes(&ast, &err), 0);
	CHECK_EQ(ast.records[CITCAT_AES_INPUT], 70000);
}

/* Segments (replay/SEGMENTS.md): SYNC at P, a fill of 0x1000 (0xAA), an IRQ
 * at branch 5; a CKPT at P (insns 100, branch 9) with its own dump (r0 =
 * 0x77), the line filled again (0xBB: its value at P_1), a DMA at branch 12
 * and the STOP (150 instructions, 20 branches).  Segment 1: its registers,
 * the second fill's bytes, the DMA at 12 - 9 = 3, END 50 / 11; segment 0:
 * the first fill, the IRQ at 5, END insn-limit 100 / 9; no segment 2. */
static void test_segments(void)
{
	uint8_t a[32], b[32], d[8];
	memset(a, 0xAA, sizeof a);
	memset(b, 0xBB, sizeof b);
	memset(d, 0xDD, sizeof d);
	begin(DUMP_FULL, 0);
	line_ev(CITCAT_CAT_FILL_D, 0x1000, a);
	irq_ev(3, 5, 0x300);
	struct citcat_cat_event ck = {.kind = CITCAT_CAT_CKPT, .pc = P, .insns = 100, .bcount = 9};
	ev(&ck);
	for (int k = 0; k < ARM_DUMP_SLOTS; k++)
		dev_ev(CITCAT_CAT_UWRITE, SLOT(k), 4, k == 0 ? 0x77 : k == ARM_SLOT_SCTLR ? 0x00c50078u : reg_value(k));
	dev_ev(CITCAT_CAT_UWRITE, DUMP_DONE, 4, ARM_DUMP_SLOTS);
	line_ev(CITCAT_CAT_FILL_D, 0x1000, b);
	dma_ev(0x2000, 8, d, 12, 0x304);
	end_cat(1, 150, 20);

	struct citcat_ims ims, whole;
	struct citcat_errinfo err = {0};
	CHECK_EQ(citcat_ims_extract_segment(cat_path, 1, &ims, NULL, NULL, NULL, &err), 0);
	uint8_t got[32] = {0};
	CHECK_EQ(citcat_image_read(ims.memory, 0x1000, got, 32), 0);
	CHECK(got[0] == 0xBB && got[31] == 0xBB);
	CHECK(ims.regs.slot[0] == 0x77 && ims.regs.slot[ARM_SLOT_PC] == P && ims.id.insns == 50 && ims.id.start_pc == P);
	CHECK_EQ(extract_ims(&whole, NULL, &err), 0);
	CHECK(whole.id.insns == 150 && whole.id.hash != ims.id.hash && whole.regs.slot[0] == reg_value(0));
	CHECK_EQ(ims.sctlr, 0);            /* each segment has its own SCTLR: TE was cleared before P_1 */
	CHECK_EQ(whole.sctlr, 0x40000000u); /* the dump at P */
	CHECK_EQ(citcat_image_read(whole.memory, 0x1000, got, 32), 0);
	CHECK(got[0] == 0xAA);
	struct citcat_ims seg0;
	CHECK_EQ(citcat_ims_extract_segment(cat_path, 0, &seg0, NULL, NULL, NULL, &err), 0);
	CHECK(seg0.id.insns == 100 && seg0.id.hash != whole.id.hash && seg0.id.hash != ims.id.hash);

	struct citcat_aes_rec rec[64];
	unlink(aes_path);
	CHECK_EQ(citcat_aes_extract_segment(cat_path, 1, aes_path, NULL, NULL, NULL, &err), 0);
	int n = read_aes(rec, 64, NULL, NULL, NULL);
	int i = 0;
	while (i < n && rec[i].kind == CITCAT_AES_OUTPUT)
		i++; /* the dump's 40 writes */
	CHECK(n == i + 2 && rec[i].kind == CITCAT_AES_DMA && rec[i].bcount == 3 && rec[i].pc == 0x304 &&
	      rec[i + 1].kind == CITCAT_AES_END && rec[i + 1].insns == 50 && rec[i + 1].bcount == 11 &&
	      rec[i + 1].line == CITCAT_STOP_EXIT);
	struct citcat_aes_reader *r;
	CHECK_EQ(citcat_aes_reader_open(&r, aes_path), 0);
	CHECK(citcat_aes_trace_id(r)->hash == ims.id.hash);
	citcat_aes_reader_close(r);
	unlink(aes_path);
	CHECK_EQ(citcat_aes_extract_segment(cat_path, 0, aes_path, NULL, NULL, NULL, &err), 0);
	n = read_aes(rec, 64, NULL, NULL, NULL);
	i = 0;
	while (i < n && rec[i].kind == CITCAT_AES_OUTPUT)
		i++;
	CHECK(n == i + 2 && rec[i].kind == CITCAT_AES_IRQ && rec[i].bcount == 5 && rec[i].line == 3 &&
	      rec[i + 1].kind == CITCAT_AES_END && rec[i + 1].insns == 100 && rec[i + 1].bcount == 9 &&
	      rec[i + 1].line == CITCAT_STOP_LIMIT);
	CHECK_EQ(citcat_aes_reader_open(&r, aes_path), 0);
	CHECK(citcat_aes_trace_id(r)->hash == seg0.id.hash);
	citcat_aes_reader_close(r);
	struct citcat_ims none;
	CHECK_EQ(citcat_ims_extract_segment(cat_path, 2, &none, NULL, NULL, NULL, &err), CITCAT_ERR_INVAL);
	CHECK(strstr(err.msg, "2 segments") != NULL);
	citcat_ims_fini(&none);
	unlink(aes_path);
	CHECK_EQ(citcat_aes_extract_segment(cat_path, 2, aes_path, NULL, NULL, NULL, &err), CITCAT_ERR_INVAL);
	CHECK(access(aes_path, F_OK) != 0);
	citcat_ims_fini(&ims);
	citcat_ims_fini(&whole);
	citcat_ims_fini(&seg0);
}

int main(void)
{
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(cat_path, sizeof cat_path, "%s/run.cat", dir);
	snprintf(ims_path, sizeof ims_path, "%s/run.ims", dir);
	snprintf(aes_path, sizeof aes_path, "%s/run.aes", dir);
	test_dma_before_fill();
	test_refill_after_writeback();
	test_irq_in_loop();
	test_device_reads();
	test_counter();
	test_warm_start();
	test_write_through_first();
	test_register_dump();
	test_trace_id();
	test_errors();
	test_interrupt();
	test_segments();
	unlink(cat_path);
	unlink(ims_path);
	unlink(aes_path);
	rmdir(dir);
	CHECK_DONE();
}
