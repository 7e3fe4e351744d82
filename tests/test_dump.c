/* The library's record dumpers (formats/dump.h) on hand-built files: record
 * numbering, --from/--count selection, REPEAT copies in an AES (one record
 * each, marked, and skipped without being read one by one when they lie
 * before FROM), a sink that stops the dump, and errors. */
#include "aes.h"
#include "check.h"
#include "container.h"
#include "dump.h"
#include "itrace.h"
#include "lvt.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

struct coll {
	char lines[64][160];
	int n;
	int stop_after; /* the sink returns an error after this many (0: never) */
	const struct citcat_dump_schema *sc;
};

static int c_begin(void *ctx, const struct citcat_dump_schema *sc)
{
	((struct coll *)ctx)->sc = sc;
	return 0;
}

/* "REC KIND col=value ...", values in decimal or 0x-hex as the type says. */
static int c_record(void *ctx, const struct citcat_dump_rec *r)
{
	struct coll *c = ctx;
	if (c->stop_after && c->n >= c->stop_after)
		return CITCAT_ERR_INTERRUPTED;
	if (c->n >= 64)
		return CITCAT_ERR_LIMIT;
	char *p = c->lines[c->n++];
	size_t cap = 160, k = (size_t)snprintf(p, cap, "%llu %s", (unsigned long long)r->rec, r->kind);
	for (size_t i = 0; i < r->n && k < cap; i++) {
		const struct citcat_dump_field *f = &r->f[i];
		const char *name = c->sc->cols[f->col];
		if (f->type == CITCAT_DUMP_HEX)
			k += (size_t)snprintf(p + k, cap - k, " %s=0x%0*llx", name, f->width, (unsigned long long)f->u);
		else if (f->type == CITCAT_DUMP_UINT)
			k += (size_t)snprintf(p + k, cap - k, " %s=%llu", name, (unsigned long long)f->u);
		else if (f->type == CITCAT_DUMP_STR)
			k += (size_t)snprintf(p + k, cap - k, " %s=%s", name, f->s);
		else
			k += (size_t)snprintf(p + k, cap - k, " %s=%zu bytes", name, f->len);
	}
	return 0;
}

static const char *flow_path; /* --itrace for the LVT dumper */

static int dump(citcat_dump_fn fn, const char *path, uint64_t from, uint64_t count, struct coll *c)
{
	memset(c->lines, 0, sizeof c->lines);
	c->n = 0;
	struct citcat_dump_opts o = {.size = sizeof o, .from = from, .count = count, .itrace = flow_path};
	struct citcat_dump_sink s = {c_begin, c_record, NULL, c};
	struct citcat_errinfo e = {0};
	return fn(path, &o, &s, &e);
}

#define LINE(c, i, text) CHECK(strcmp((c)->lines[i], text) == 0 || (fprintf(stderr, "line %d: '%s'\n", i, (c)->lines[i]), 0))

/* An AES of: OUTPUT 0x40000f40 = 5, then 5 identical INPUT reads of
 * 0x4000050c = 1 (the writer makes one record and a REPEAT of 4), then an
 * IRQ and END. */
static void test_aes(const char *path)
{
	struct citcat_target_config cfg;
	citcat_target_config_default(&cfg);
	struct citcat_trace_id id = {1, 0x44, 100};
	struct citcat_aes_writer *w;
	CHECK_EQ(citcat_aes_writer_open(&w, path, &id, &cfg), 0);
	struct citcat_aes_rec out = {.kind = CITCAT_AES_OUTPUT, .size = 4, .addr = 0x40000f40, .value = 5};
	struct citcat_aes_rec in = {.kind = CITCAT_AES_INPUT, .size = 4, .addr = 0x4000050c, .value = 1};
	struct citcat_aes_rec irq = {.kind = CITCAT_AES_IRQ, .line = 3, .bcount = 7, .pc = 0x100};
	struct citcat_aes_rec end = {.kind = CITCAT_AES_END, .line = 1, .bcount = 9, .insns = 100};
	CHECK_EQ(citcat_aes_write(w, &out), 0);
	for (int i = 0; i < 5; i++)
		CHECK_EQ(citcat_aes_write(w, &in), 0);
	CHECK_EQ(citcat_aes_write(w, &irq), 0);
	CHECK_EQ(citcat_aes_write(w, &end), 0);
	CHECK_EQ(citcat_aes_writer_close(w), 0);

	struct coll c = {0};
	CHECK_EQ(dump(citcat_dump_aes, path, 0, UINT64_MAX, &c), 0);
	CHECK_EQ(c.n, 5);
	CHECK(strcmp(c.sc->format, "aes") == 0);
	LINE(&c, 0, "0 output addr=0x40000f40 size=4 value=0x00000005");
	LINE(&c, 1, "1 input addr=0x4000050c size=4 value=0x00000001");
	/* the REPEAT's 4 copies, records 2..5, on one line (issue 29) */
	LINE(&c, 2, "2 input repeat=4 addr=0x4000050c size=4 value=0x00000001");
	LINE(&c, 3, "6 irq line=3 bcount=7 pc=0x00000100");
	LINE(&c, 4, "7 end bcount=9 insns=100 reason=command");
	/* FROM inside the run: numbering continues over the copies */
	CHECK_EQ(dump(citcat_dump_aes, path, 4, 2, &c), 0);
	CHECK_EQ(c.n, 1);
	LINE(&c, 0, "4 input repeat=2 addr=0x4000050c size=4 value=0x00000001");
	/* COUNT ending inside the run: the line stands for what is left */
	CHECK_EQ(dump(citcat_dump_aes, path, 1, 3, &c), 0);
	CHECK_EQ(c.n, 2);
	LINE(&c, 1, "2 input repeat=2 addr=0x4000050c size=4 value=0x00000001");
	CHECK_EQ(dump(citcat_dump_aes, path, 3, UINT64_MAX, &c), 0);
	CHECK_EQ(c.n, 3);
	LINE(&c, 0, "3 input repeat=3 addr=0x4000050c size=4 value=0x00000001");
	LINE(&c, 1, "6 irq line=3 bcount=7 pc=0x00000100");
	/* FROM past the run: the copies are skipped in one step */
	CHECK_EQ(dump(citcat_dump_aes, path, 6, UINT64_MAX, &c), 0);
	CHECK_EQ(c.n, 2);
	LINE(&c, 0, "6 irq line=3 bcount=7 pc=0x00000100");
	/* FROM past the end: nothing, no error */
	CHECK_EQ(dump(citcat_dump_aes, path, 100, UINT64_MAX, &c), 0);
	CHECK_EQ(c.n, 0);
	/* a sink error stops the dump and is returned */
	c.stop_after = 3;
	CHECK_EQ(dump(citcat_dump_aes, path, 0, UINT64_MAX, &c), CITCAT_ERR_INTERRUPTED);
	CHECK_EQ(c.n, 3);
	c.stop_after = 0;
}

/* An AES whose metadata claims 2^62 instructions and whose REPEAT claims
 * 2^62 - 1 copies, 129 bytes or so (issue 29, defect 5): the dump is five
 * lines, at once, not 2^62. */
static void test_aes_huge_repeat(const char *path)
{
	struct citcat_target_config cfg;
	citcat_target_config_default(&cfg);
	struct citcat_trace_id id = {1, 0x44, 1ull << 62};
	struct citcat_aes_writer *w;
	CHECK_EQ(citcat_aes_writer_open(&w, path, &id, &cfg), 0);
	struct citcat_aes_rec in = {.kind = CITCAT_AES_INPUT, .size = 4, .addr = 0x4000050c, .value = 1};
	CHECK_EQ(citcat_aes_write(w, &in), 0);
	CHECK_EQ(citcat_aes_write(w, &in), 0); /* a REPEAT of 1, patched below */
	struct citcat_aes_rec end = {.kind = CITCAT_AES_END, .line = 1, .bcount = 9, .insns = 1ull << 62};
	CHECK_EQ(citcat_aes_write(w, &end), 0);
	CHECK_EQ(citcat_aes_writer_close(w), 0);
	/* the same records again, the REPEAT's count made 2^62 - 1 by hand */
	struct cc_reader *r;
	const uint8_t *data;
	size_t len;
	uint32_t nrec, ml;
	CHECK_EQ(cc_reader_open(&r, path, "CAES\r\n\x1a\n", CITCAT_AES_VERSION), 0);
	uint8_t meta[256];
	const uint8_t *m = cc_reader_meta(r, &ml);
	CHECK(ml <= sizeof meta);
	memcpy(meta, m, ml);
	CHECK_EQ(cc_reader_next_chunk(r, &data, &len, &nrec), 1);
	uint8_t pay[256];
	size_t k = 0, n = 0;
	CHECK(len < 200);
	while (k < len && !(data[k] == 6 && k + 1 < len && data[k + 1] == 1)) /* REPEAT, count 1 */
		pay[n++] = data[k++];
	CHECK(k < len);
	pay[n++] = 6;
	for (uint64_t v = (1ull << 62) - 1; v >= 0x80; v >>= 7)
		pay[n++] = (uint8_t)(v | 0x80);
	pay[n++] = 0x3f;
	for (k += 2; k < len; k++)
		pay[n++] = data[k];
	uint16_t version = cc_reader_version(r);
	cc_reader_close(r);
	struct cc_writer *cw;
	CHECK_EQ(cc_writer_open(&cw, path, "CAES\r\n\x1a\n", version, meta, ml, 4096), 0);
	uint8_t *b = cc_writer_reserve(cw, n);
	memcpy(b, pay, n);
	cc_writer_commit(cw, n, nrec);
	CHECK_EQ(cc_writer_close(cw), 0);
	struct coll c = {0};
	CHECK_EQ(dump(citcat_dump_aes, path, 0, UINT64_MAX, &c), 0);
	CHECK_EQ(c.n, 3);
	LINE(&c, 1, "1 input repeat=4611686018427387903 addr=0x4000050c size=4 value=0x00000001");
	LINE(&c, 2, "4611686018427387904 end bcount=9 insns=4611686018427387904 reason=command");
}

/* An itrace of an instruction, an interrupt entry and the handler's first
 * instruction: the entry's insn is the handler's index. */
static void test_itrace(const char *path)
{
	struct citcat_itrace_writer *w;
	CHECK_EQ(citcat_itrace_writer_open(&w, path, CITCAT_ISA_ARM_A32), 0);
	static struct citcat_itrace_rec r;
	memset(&r, 0, sizeof r);
	r.kind = CITCAT_REC_INSN;
	r.pc = 0x100;
	r.word = 0xe5810040;
	r.n_acc = 2;
	r.acc[0] = (struct citcat_access){0x2000, 0xab, 1, 0, 0};
	r.acc[1] = (struct citcat_access){0x2004, 0x1122334455667788ull, 8, 1, 0};
	CHECK_EQ(citcat_itrace_write(w, &r), 0);
	struct citcat_itrace_rec irq = {.kind = CITCAT_REC_IRQ, .line = 2, .pc = 0x104};
	CHECK_EQ(citcat_itrace_write(w, &irq), 0);
	memset(&r, 0, sizeof r);
	r.pc = 0x18;
	r.word = 0xea000036;
	CHECK_EQ(citcat_itrace_write(w, &r), 0);
	/* the handler in Thumb state (itrace version 3): a 16-bit instruction
	 * (push {r4, lr}: 0xb510) and a 32-bit one (ldr.w r0, [r1, #4]:
	 * 0xf8d1 0x0004, first halfword in the low bits, ITRACE.md) */
	memset(&r, 0, sizeof r);
	r.pc = 0x1000;
	r.thumb = 1;
	r.size = 2;
	r.word = 0xb510;
	CHECK_EQ(citcat_itrace_write(w, &r), 0);
	r.pc = 0x1002;
	r.size = 4;
	r.word = 0x0004f8d1;
	CHECK_EQ(citcat_itrace_write(w, &r), 0);
	CHECK_EQ(citcat_itrace_writer_close(w), 0);
	struct coll c = {0};
	CHECK_EQ(dump(citcat_dump_itrace, path, 0, UINT64_MAX, &c), 0);
	CHECK_EQ(c.n, 5);
	LINE(&c, 0, "0 insn insn=0 pc=0x00000100 word=0xe5810040 size=4 isa=arm "
		    "accesses=r1@0x00002000=0xab;w8@0x00002004=0x1122334455667788");
	LINE(&c, 1, "1 irq insn=1 pc=0x00000104 line=2");
	LINE(&c, 2, "2 insn insn=1 pc=0x00000018 word=0xea000036 size=4 isa=arm");
	LINE(&c, 3, "3 insn insn=2 pc=0x00001000 word=0xb510 size=2 isa=thumb");
	LINE(&c, 4, "4 insn insn=3 pc=0x00001002 word=0x0004f8d1 size=4 isa=thumb");
	/* the instruction index counts the records skipped before FROM */
	CHECK_EQ(dump(citcat_dump_itrace, path, 2, 1, &c), 0);
	LINE(&c, 0, "2 insn insn=1 pc=0x00000018 word=0xea000036 size=4 isa=arm");
}

/* An itrace flow of: 0x100 loading 0x2000, 0x104 storing then loading
 * 0x2004, an interrupt entry (EPC 0x108, line 2), 0x18; NLOADS2 = 0 drops
 * the second load (a flow that does not fit the LVT). */
static void write_flow(const char *path, int nloads2)
{
	struct citcat_itrace_writer *w;
	CHECK_EQ(citcat_itrace_writer_open(&w, path, CITCAT_ISA_ARM_A32), 0);
	static struct citcat_itrace_rec r;
	memset(&r, 0, sizeof r);
	r.pc = 0x100;
	r.word = 0xe5910000;
	r.n_acc = 1;
	r.acc[0] = (struct citcat_access){0x2000, 0xdeadbeef, 4, 0, 0};
	CHECK_EQ(citcat_itrace_write(w, &r), 0);
	r.pc = 0x104;
	r.n_acc = 1 + (uint32_t)nloads2;
	r.acc[0] = (struct citcat_access){0x2004, 7, 4, 1, 0};
	r.acc[1] = (struct citcat_access){0x2004, 7, 4, 0, 0};
	CHECK_EQ(citcat_itrace_write(w, &r), 0);
	struct citcat_itrace_rec irq = {.kind = CITCAT_REC_IRQ, .line = 2, .pc = 0x108};
	CHECK_EQ(citcat_itrace_write(w, &irq), 0);
	memset(&r, 0, sizeof r);
	r.pc = 0x18;
	r.word = 0xea000036;
	CHECK_EQ(citcat_itrace_write(w, &r), 0);
	CHECK_EQ(citcat_itrace_writer_close(w), 0);
}

/* An LVT of that run: START (P = 0x100), the first load's value, an FA hit
 * for the load after the store, the interrupt, STOP.  Its records come out
 * in flow order with the instruction index of the load or boundary. */
static void test_lvt(const char *dir)
{
	char lvt[4200], flow[4200], bad[4200];
	snprintf(lvt, sizeof lvt, "%s/t.lvt", dir);
	snprintf(flow, sizeof flow, "%s/flow.itrace", dir);
	snprintf(bad, sizeof bad, "%s/bad.itrace", dir);
	struct citcat_target_config cfg;
	citcat_target_config_default(&cfg);
	struct citcat_lvt_writer *w;
	CHECK_EQ(citcat_lvt_writer_open(&w, lvt, &cfg, 0), 0);
	struct citcat_lvt_rec start = {.kind = CITCAT_LVT_START, .code_hash = 0x1122334455667788ull, .dc_rng = 9};
	start.regs[15] = 0x100;
	CHECK_EQ(citcat_lvt_put_event(w, &start), 0);
	CHECK_EQ(citcat_lvt_put_value(w, 0xdeadbeef, 4), 0);
	CHECK_EQ(citcat_lvt_put_hit(w), 0);
	struct citcat_lvt_rec irq = {.kind = CITCAT_LVT_IRQ, .line = 2, .bcount = 1, .pc = 0x108};
	CHECK_EQ(citcat_lvt_put_event(w, &irq), 0);
	struct citcat_lvt_rec stop = {.kind = CITCAT_LVT_STOP, .line = CITCAT_STOP_COMMAND};
	stop.st = (struct citcat_lvt_stats){.insns = 3, .bcount = 2, .loads = 2, .hits = 1, .value_bytes = 4,
					    .raw_bytes = 8, .irqs = 1};
	CHECK_EQ(citcat_lvt_put_event(w, &stop), 0);
	CHECK_EQ(citcat_lvt_writer_close(w), 0);
	write_flow(flow, 1);
	write_flow(bad, 0);

	struct coll c = {0};
	flow_path = flow;
	CHECK_EQ(dump(citcat_dump_lvt, lvt, 0, UINT64_MAX, &c), 0);
	CHECK_EQ(c.n, 5);
	CHECK(strcmp(c.sc->format, "lvt") == 0);
	LINE(&c, 0, "0 start insn=0 pc=0x00000100 hash=0x1122334455667788 rng=0x00000009");
	LINE(&c, 1, "1 value insn=0 pc=0x00000100 addr=0x00002000 size=4 value=0xdeadbeef");
	LINE(&c, 2, "2 hit insn=1 pc=0x00000104 addr=0x00002004 size=4");
	/* the entry's insn is the handler's first instruction, as in the itrace */
	LINE(&c, 3, "3 irq insn=2 pc=0x00000108 line=2 bcount=1");
	CHECK(strncmp(c.lines[4], "4 stop bcount=2 reason=command insns=3 bits=", 44) == 0);
	CHECK_EQ(dump(citcat_dump_lvt, lvt, 2, 1, &c), 0);
	CHECK_EQ(c.n, 1);
	LINE(&c, 0, "2 hit insn=1 pc=0x00000104 addr=0x00002004 size=4");
	/* a flow without the second load: the hit is left over where the flow
	 * has the interrupt */
	flow_path = bad;
	struct citcat_dump_opts o = {.size = sizeof o, .count = UINT64_MAX, .itrace = bad};
	struct citcat_dump_sink s = {c_begin, c_record, NULL, &c};
	struct citcat_errinfo e = {0};
	c.n = 0;
	CHECK_EQ(citcat_dump_lvt(lvt, &o, &s, &e), CITCAT_ERR_CORRUPT);
	CHECK(strstr(e.msg, "a hit record") && strstr(e.msg, "an interrupt entry at instruction 2"));
	CHECK_EQ(c.n, 2); /* START and the value went out before */
	/* no flow: a caller mistake, said so */
	o.itrace = NULL;
	memset(&e, 0, sizeof e);
	CHECK_EQ(citcat_dump_lvt(lvt, &o, &s, &e), CITCAT_ERR_INVAL);
	CHECK(strstr(e.msg, "program flow") != NULL);
	CHECK_EQ(citcat_dump_daf(lvt, &o, &s, &e), CITCAT_ERR_INVAL);
	CHECK_EQ(citcat_dump_sdclsp(lvt, &o, &s, &e), CITCAT_ERR_INVAL);
	flow_path = NULL;
	unlink(lvt);
	unlink(flow);
	unlink(bad);
}

static void test_errors(const char *dir)
{
	struct coll c = {0};
	char p[4200];
	snprintf(p, sizeof p, "%s/missing", dir);
	CHECK_EQ(dump(citcat_dump_cat, p, 0, UINT64_MAX, &c), CITCAT_ERR_IO);
	CHECK_EQ(dump(citcat_dump_ims, p, 0, UINT64_MAX, &c), CITCAT_ERR_IO);
	snprintf(p, sizeof p, "%s/t.aes", dir);
	/* an AES is not a CAT */
	CHECK_EQ(dump(citcat_dump_cat, p, 0, UINT64_MAX, &c), CITCAT_ERR_MAGIC);
	/* options without their size are a caller mistake */
	struct citcat_dump_opts o = {.size = 0, .count = UINT64_MAX};
	struct citcat_dump_sink s = {c_begin, c_record, NULL, &c};
	CHECK_EQ(citcat_dump_aes(p, &o, &s, NULL), CITCAT_ERR_INVAL);
}

int main(void)
{
	char dir[] = "/tmp/citcat-test-dump-XXXXXX";
	if (!mkdtemp(dir))
		return 1;
	char a[4200], i[4200];
	snprintf(a, sizeof a, "%s/t.aes", dir);
	snprintf(i, sizeof i, "%s/t.itrace", dir);
	test_aes(a);
	test_aes_huge_repeat(a);
	test_itrace(i);
	test_errors(dir);
	test_lvt(dir);
	unlink(a);
	unlink(i);
	rmdir(dir);
	CHECK_DONE();
}
