/* SDC-LSP: the paper's figure 4 worked example as a golden vector, round
 * trips of synthetic traces with interrupts through every variant and many
 * configurations, and the error paths. */
#include "check.h"
#include "itrace.h"
#include "outfile.h"
#include "sdclsp.h"
#include "sdclsp_synth.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "membuf.h"


/* ---- figure 4 ---- */

/* The loop of figure 4 at 0x020001f4 and the three instructions after it,
 * assembled with arm-none-eabi-as (objdump words). */
#define F4_BASE 0x020001f4u
static const uint32_t f4_words[12] = {
	0xe1a0110c, /* lsl r1, ip, #2   (mov r1, r12, lsl #2) */
	0xe7942001, /* ldr r2, [r4, r1] */
	0xe79e3001, /* ldr r3, [lr, r1] */
	0xe0203892, /* mla r0, r2, r8, r3 */
	0xe28cc001, /* add ip, ip, #1 */
	0xe35c0063, /* cmp ip, #99 */
	0xe0866000, /* add r6, r6, r0 */
	0xe7850001, /* str r0, [r5, r1] */
	0xdafffff6, /* ble 0x020001f4 */
	0xe1a00006, /* mov r0, r6 */
	0xe2877001, /* add r7, r7, #1 */
	0xe12fff1e, /* bx lr */
};

#define MAXREC 256
struct reclog {
	struct sdclsp_record r[MAXREC];
	int n;
};

static void log_rec(void *ctx, const struct sdclsp_record *r)
{
	struct reclog *l = ctx;
	if (l->n < MAXREC)
		l->r[l->n] = *r;
	l->n++;
}

/* Writes the figure 4 trace as an itrace file: 100 iterations, then the
 * fall-through instructions. */
static void write_f4_itrace(const char *path)
{
	struct citcat_itrace_writer *w;
	struct citcat_itrace_rec rec;
	memset(&rec, 0, sizeof rec);
	CHECK_EQ(citcat_itrace_writer_open(&w, path, CITCAT_ISA_ARM_A32), 0);
	for (int it = 0; it < 100; it++)
		for (int i = 0; i < 9; i++) {
			rec.pc = F4_BASE + 4u * i;
			rec.word = f4_words[i];
			CHECK_EQ(citcat_itrace_write(w, &rec), 0);
		}
	for (int i = 9; i < 12; i++) {
		rec.pc = F4_BASE + 4u * i;
		rec.word = f4_words[i];
		CHECK_EQ(citcat_itrace_write(w, &rec), 0);
	}
	CHECK_EQ(citcat_itrace_writer_close(w), 0);
}

static int encode_itrace(const char *path, const struct sdclsp_config *c, struct membuf *out, struct reclog *log)
{
	struct citcat_itrace_reader *r;
	static struct citcat_itrace_rec rec;
	struct sdclsp_encoder *e;
	int rc = citcat_itrace_reader_open(&r, path);
	CHECK_EQ(rc, 0);
	CHECK_EQ(sdclsp_encoder_alloc(&e, c, mem_sink, out), 0);
	if (log)
		sdclsp_encoder_set_record_cb(e, log_rec, log);
	while ((rc = citcat_itrace_next(r, &rec)) == 1)
		rc = rec.kind == CITCAT_REC_IRQ ? sdclsp_encode_irq(e, rec.pc) : sdclsp_encode_insn(e, rec.pc, rec.word);
	CHECK_EQ(rc, 0);
	CHECK_EQ(sdclsp_encoder_finish(e), 0);
	sdclsp_encoder_free(e);
	citcat_itrace_reader_close(r);
	return rc;
}

static void put_bits(char *s, size_t *n, uint32_t v, unsigned w)
{
	for (unsigned i = w; i-- > 0;)
		s[(*n)++] = (char)('0' + ((v >> i) & 1));
}

static void test_figure4(void)
{
	char path[] = "/tmp/citcat-f4-XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	close(fd);
	write_f4_itrace(path);

	/* The paper's assumptions: 16x4 SDC indexed by SA[7:4] xor SL[3:0]
	 * (shift 4), an LSP indexed by the previous SI (64 entries, history 1),
	 * and the SA sent on every SDC miss ("here we assume that we need to
	 * output the starting address"). */
	struct sdclsp_config c;
	struct citcat_errinfo err;
	CHECK_EQ(sdclsp_config_parse(&c, "sdclsp:b:16x4,64:shift=4:sa=always", &err), 0);
	static struct reclog log;
	struct membuf out = {0};
	log.n = 0;
	encode_itrace(path, &c, &out, &log);
	CHECK_EQ(log.n, 100);
	/* 1. h='0'; SI='000000'; (SA,SL)=(0x020001f4, 9) */
	CHECK_EQ(log.r[0].lsp_hit, 0);
	CHECK_EQ(log.r[0].si, 0);
	CHECK_EQ(log.r[0].sa_present, 1);
	CHECK_EQ(log.r[0].sa, F4_BASE);
	CHECK_EQ(log.r[0].sl, 9);
	CHECK_EQ(log.r[0].bits, 1 + 6 + 30 + 8);
	/* 2., 3. h='0'; SI='011000' (iSet 0x6 = 0xf ^ 9, iWay 0) */
	for (int i = 1; i <= 2; i++) {
		CHECK_EQ(log.r[i].lsp_hit, 0);
		CHECK_EQ(log.r[i].sdc_hit, 1);
		CHECK_EQ(log.r[i].si, 0x18);
		CHECK_EQ(log.r[i].bits, 7);
	}
	/* 4. .. 99. h='1' */
	for (int i = 3; i < 99; i++) {
		CHECK_EQ(log.r[i].lsp_hit, 1);
		CHECK_EQ(log.r[i].bits, 1);
	}
	/* 100. h='0'; SI='000000'; (SA,SL)=(0x020001f4, 12): the last stream runs
	 * on through the not-taken ble into the three instructions after it. */
	CHECK_EQ(log.r[99].lsp_hit, 0);
	CHECK_EQ(log.r[99].si, 0);
	CHECK_EQ(log.r[99].sa_present, 1);
	CHECK_EQ(log.r[99].sa, F4_BASE);
	CHECK_EQ(log.r[99].sl, 12);

	/* The exact bits: header, one block, the end block and the trailer. */
	static char want[256], got[256];
	size_t nw = 0;
	put_bits(want, &nw, 0, 7);
	put_bits(want, &nw, F4_BASE >> 2, 30);
	put_bits(want, &nw, 9 - 1, 8);
	put_bits(want, &nw, 0x18, 7);
	put_bits(want, &nw, 0x18, 7);
	for (int i = 0; i < 96; i++)
		put_bits(want, &nw, 1, 1);
	put_bits(want, &nw, 0, 7);
	put_bits(want, &nw, F4_BASE >> 2, 30);
	put_bits(want, &nw, 12 - 1, 8);
	CHECK_EQ(nw, 200);
	CHECK_EQ(out.len, SDCLSP_HEADER_LEN + 8 + 25 + 8 + SDCLSP_TRAILER_LEN);
	if (out.len >= SDCLSP_HEADER_LEN + 8 + 25) {
		const uint8_t *b = out.p + SDCLSP_HEADER_LEN;
		CHECK_EQ(b[0] | b[1] << 8 | b[2] << 16 | (uint32_t)b[3] << 24, 200);
		for (size_t i = 0; i < 200; i++)
			got[i] = (char)('0' + ((b[8 + i / 8] >> (7 - i % 8)) & 1));
		CHECK(memcmp(want, got, 200) == 0);
	}

	/* Decoding gives back the 903 addresses. */
	struct citcat_image *img;
	uint8_t bytes[48];
	for (int i = 0; i < 12; i++)
		for (int k = 0; k < 4; k++)
			bytes[4 * i + k] = (uint8_t)(f4_words[i] >> (8 * k));
	CHECK_EQ(citcat_image_alloc(&img), 0);
	CHECK_EQ(citcat_image_add(img, F4_BASE, bytes, sizeof bytes), 0);
	struct sdclsp_decoder *d;
	CHECK_EQ(sdclsp_decoder_open_mem(&d, out.p, out.len, img), 0);
	uint64_t pc;
	int n = 0, bad = 0, rc;
	while ((rc = sdclsp_decoder_next(d, &pc)) == 1) {
		uint32_t want_pc = n < 900 ? F4_BASE + 4u * (n % 9) : F4_BASE + 4u * (n - 900 + 9);
		bad += pc != want_pc;
		n++;
	}
	CHECK_EQ(rc, 0);
	CHECK_EQ(n, 903);
	CHECK_EQ(bad, 0);
	sdclsp_decoder_close(d);

	/* Without the figure's assumption the last SA is inferred from the ble:
	 * the 100th record is (-, SL), with the one-bit "SA present" flag 0. */
	CHECK_EQ(sdclsp_config_parse(&c, "sdclsp:b:16x4,64", &err), 0);
	out.len = 0;
	log.n = 0;
	encode_itrace(path, &c, &out, &log);
	CHECK_EQ(log.n, 100);
	CHECK_EQ(log.r[0].sa_present, 1);
	CHECK_EQ(log.r[0].bits, 45); /* no inference at the start: no flag */
	CHECK_EQ(log.r[99].sa_present, 0);
	CHECK_EQ(log.r[99].sl, 12);
	CHECK_EQ(log.r[99].bits, 1 + 6 + 1 + 8);

	/* eSDC-LSP: the 96 hits become a few adaptive run records. */
	CHECK_EQ(sdclsp_config_parse(&c, "sdclsp:e:16x4,64", &err), 0);
	out.len = 0;
	log.n = 0;
	encode_itrace(path, &c, &out, &log);
	uint32_t covered = 0;
	for (int i = 0; i < log.n && i < MAXREC; i++)
		covered += log.r[i].lsp_hit ? log.r[i].run : 0;
	CHECK_EQ(covered, 96);
	CHECK(log.n < 40);
	CHECK_EQ(sdclsp_decoder_open_mem(&d, out.p, out.len, img), 0);
	for (n = 0; (rc = sdclsp_decoder_next(d, &pc)) == 1; n++)
		;
	CHECK_EQ(rc, 0);
	CHECK_EQ(n, 903);
	sdclsp_decoder_close(d);

	citcat_image_free(img);
	free(out.p);
	unlink(path);
}

/* ---- round trips ---- */

static struct citcat_image *synth_image(void)
{
	static uint8_t bytes[SYNTH_WORDS * 4];
	struct citcat_image *img;
	synth_bytes(bytes);
	CHECK_EQ(citcat_image_alloc(&img), 0);
	CHECK_EQ(citcat_image_add(img, SYNTH_BASE, bytes, sizeof bytes), 0);
	return img;
}

/* Encodes N events of the walker with SPEC, decodes and compares. */
static void roundtrip(const char *spec, uint64_t seed, unsigned irq_rate, size_t n, const struct citcat_image *img,
		      int via_file_lz4)
{
	struct sdclsp_config c;
	struct citcat_errinfo err;
	int rc = sdclsp_config_parse(&c, spec, &err);
	CHECK_EQ(rc, 0);
	if (rc)
		return;
	struct membuf out = {0};
	struct sdclsp_encoder *e;
	struct cc_outfile *f = NULL;
	char path[] = "/tmp/citcat-rt-XXXXXX";
	if (via_file_lz4) {
		int fd = mkstemp(path);
		close(fd);
		CHECK_EQ(cc_outfile_open(&f, path, 1, &err), 0);
		CHECK_EQ(sdclsp_encoder_alloc(&e, &c, cc_outfile_sink, f), 0);
	} else {
		CHECK_EQ(sdclsp_encoder_alloc(&e, &c, mem_sink, &out), 0);
	}
	uint32_t *want = malloc(n * sizeof *want);
	size_t nw = 0, irqs = 0;
	struct synth_walk w;
	synth_init(&w, seed, irq_rate);
	for (size_t i = 0; i < n; i++) {
		uint32_t pc, word;
		if (synth_step(&w, &pc, &word)) {
			rc = sdclsp_encode_irq(e, pc);
			irqs++;
		} else {
			rc = sdclsp_encode_insn(e, pc, word);
			want[nw++] = pc;
		}
		if (rc)
			break;
	}
	CHECK_EQ(rc, 0);
	CHECK_EQ(sdclsp_encoder_finish(e), 0);
	struct sdclsp_stats stv = *sdclsp_encoder_stats(e), *st = &stv;
	CHECK_EQ(st->instructions, nw);
	CHECK_EQ(st->interrupts, irqs);
	CHECK_EQ(st->msdc_bits + st->hsdc_bits + st->hlsp_bits, st->bits);
	sdclsp_encoder_free(e);
	if (f)
		CHECK_EQ(cc_outfile_commit(f, &err), 0);

	struct sdclsp_decoder *d;
	if (via_file_lz4)
		rc = sdclsp_decoder_open(&d, path, img);
	else
		rc = sdclsp_decoder_open_mem(&d, out.p, out.len, img);
	CHECK_EQ(rc, 0);
	size_t k = 0, bad = 0;
	uint64_t pc;
	while (rc >= 0 && (rc = sdclsp_decoder_next(d, &pc)) == 1) {
		if (k < nw && pc != want[k] && !bad++)
			fprintf(stderr, "%s seed %llu: address %zu is 0x%llx, want 0x%x\n", spec,
				(unsigned long long)seed, k, (unsigned long long)pc, want[k]);
		k++;
	}
	if (rc < 0)
		fprintf(stderr, "%s: %s\n", spec, sdclsp_decoder_error(d)->msg);
	CHECK_EQ(rc, 0);
	CHECK_EQ(k, nw);
	CHECK_EQ(bad, 0);
	sdclsp_decoder_close(d);
	if (via_file_lz4) {
		struct sdclsp_stats s2;
		CHECK_EQ(sdclsp_read_summary(path, &c, &s2, &err), 0);
		CHECK_EQ(s2.instructions, nw);
		CHECK_EQ(s2.bits, st->bits);
		CHECK_EQ(sdclsp_probe(path), 1);
		unlink(path);
	}
	free(want);
	free(out.p);
}

static void test_roundtrips(void)
{
	static const char *specs[] = {
		"sdclsp:b", "sdclsp:e", "sdclsp:r",
		"sdclsp:b:8x4,32", "sdclsp:e:8x4,32", "sdclsp:r:8x4,32",
		"sdclsp:b:16x4,64", "sdclsp:e:64x4,256", "sdclsp:r:256x4,1024",
		"sdclsp:r:2x1,2", "sdclsp:e:64x1,64", "sdclsp:b:1x2,1",
		"sdclsp:r:32x4,128:repl=lru", "sdclsp:e:32x4,128:repl=fifo", "sdclsp:b:16x8,64:repl=fifo",
		"sdclsp:r:32x4,128:hist=3", "sdclsp:e:32x4,512:hist=2", "sdclsp:r:16x4,64:maxsl=16",
		"sdclsp:e:16x4,64:maxsl=1", "sdclsp:b:16x4,64:maxsl=65536", "sdclsp:r:32x4,128:shift=2",
		"sdclsp:e:32x4,128:u=20", "sdclsp:r:32x4,128:u=1", "sdclsp:e:32x4,128:sa=always",
		"sdclsp:r:32x4,128:u=29:sa=always",
	};
	struct citcat_image *img = synth_image();
	for (size_t i = 0; i < sizeof specs / sizeof *specs; i++)
		for (uint64_t seed = 1; seed <= 3; seed++)
			roundtrip(specs[i], seed, seed == 1 ? 0 : seed == 2 ? 97 : 7, 60000, img, 0);
	roundtrip("sdclsp:r", 9, 50, 300000, img, 1);
	roundtrip("sdclsp:b:8x4,32", 10, 0, 1, img, 1);
	roundtrip("sdclsp:e", 11, 0, 0, img, 1);
	citcat_image_free(img);
}

/* ---- errors ---- */

static void test_errors(void)
{
	struct sdclsp_config c;
	struct citcat_errinfo err;
	static const char *bad[] = {"sdc", "sdclspx", "sdclsp:q", "sdclsp:3x4,8", "sdclsp:32x3,128", "sdclsp:32x4,100",
				    "sdclsp:r:maxsl=0", "sdclsp:e:u=30", "sdclsp:b:hist=9", "sdclsp:1x1,1",
				    "sdclsp:repl=xyz", "sdclsp:32x4", "sdclsp::"};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		int rc = sdclsp_config_parse(&c, bad[i], &err);
		if (rc != CITCAT_ERR_INVAL)
			fprintf(stderr, "accepted '%s'\n", bad[i]);
		CHECK_EQ(rc, CITCAT_ERR_INVAL);
	}
	CHECK_EQ(sdclsp_config_parse(&c, "sdclsp", &err), 0);
	CHECK_EQ(c.variant, SDCLSP_R);
	CHECK_EQ(c.n_set, 32);
	CHECK_EQ(c.u, 12);
	CHECK_EQ(sdclsp_config_init(NULL, SDCLSP_B), CITCAT_ERR_INVAL);
	CHECK_EQ(sdclsp_config_init(&c, 7), CITCAT_ERR_INVAL);

	/* encoder argument errors */
	struct sdclsp_encoder *e;
	struct membuf out = {0};
	sdclsp_config_init(&c, SDCLSP_R);
	CHECK_EQ(sdclsp_encoder_alloc(&e, &c, mem_sink, &out), 0);
	CHECK_EQ(sdclsp_encode_insn(e, 0x8002, 0xe1a00000), CITCAT_ERR_INVAL);
	sdclsp_encoder_free(e);
	CHECK_EQ(sdclsp_encoder_alloc(&e, &c, mem_sink, &out), 0);
	CHECK_EQ(sdclsp_encode_insn(e, 0x8000, 0xfa000000), CITCAT_ERR_UNSUPPORTED); /* blx imm */
	sdclsp_encoder_free(e);
	c.n_set = 3;
	CHECK_EQ(sdclsp_encoder_alloc(&e, &c, mem_sink, &out), CITCAT_ERR_INVAL);
	sdclsp_encoder_free(NULL);

	/* a valid stream, then damaged copies of it */
	struct citcat_image *img = synth_image(), *empty;
	sdclsp_config_init(&c, SDCLSP_E);
	out.len = 0;
	CHECK_EQ(sdclsp_encoder_alloc(&e, &c, mem_sink, &out), 0);
	struct synth_walk w;
	synth_init(&w, 5, 30);
	for (int i = 0; i < 5000; i++) {
		uint32_t pc, word;
		if (synth_step(&w, &pc, &word))
			sdclsp_encode_irq(e, pc);
		else
			sdclsp_encode_insn(e, pc, word);
	}
	CHECK_EQ(sdclsp_encoder_finish(e), 0);
	sdclsp_encoder_free(e);

	struct sdclsp_decoder *d;
	uint64_t pc;
	int rc;
	uint8_t *copy = malloc(out.len);
	struct {
		size_t at;
		int val;
		size_t len;
		int want;
	} cases[] = {
		{0, 'X', out.len, CITCAT_ERR_MAGIC},
		{8, 2, out.len, CITCAT_ERR_VERSION},
		{20, 0xff, out.len, CITCAT_ERR_CHECKSUM},
		{SDCLSP_HEADER_LEN + 12, -1, out.len, CITCAT_ERR_CHECKSUM},
		{0, -2, out.len - 1, CITCAT_ERR_TRUNCATED},
		{0, -2, SDCLSP_HEADER_LEN + 20, CITCAT_ERR_TRUNCATED},
		{0, -2, 10, CITCAT_ERR_TRUNCATED},
		{0, -2, 0, CITCAT_ERR_EMPTY},
		{out.len - 5, -1, out.len, CITCAT_ERR_CHECKSUM},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		memcpy(copy, out.p, out.len);
		if (cases[i].val == -1)
			copy[cases[i].at] ^= 0x10;
		else if (cases[i].val >= 0)
			copy[cases[i].at] = (uint8_t)cases[i].val;
		rc = sdclsp_decoder_open_mem(&d, copy, cases[i].len, img);
		while (rc >= 0 && (rc = sdclsp_decoder_next(d, &pc)) == 1)
			;
		if (rc != cases[i].want)
			fprintf(stderr, "case %zu: %d (%s)\n", i, rc, sdclsp_decoder_error(d)->msg);
		CHECK_EQ(rc, cases[i].want);
		CHECK(sdclsp_decoder_error(d)->msg[0] != 0);
		sdclsp_decoder_close(d);
	}
	/* an image without the program */
	CHECK_EQ(citcat_image_alloc(&empty), 0);
	CHECK_EQ(sdclsp_decoder_open_mem(&d, out.p, out.len, empty), 0);
	CHECK_EQ(sdclsp_decoder_next(d, &pc), CITCAT_ERR_CORRUPT);
	CHECK(strstr(sdclsp_decoder_error(d)->msg, "not in the program image") != NULL);
	sdclsp_decoder_close(d);
	CHECK_EQ(sdclsp_decoder_open_mem(&d, out.p, out.len, NULL), CITCAT_ERR_INVAL);
	sdclsp_decoder_close(NULL);
	citcat_image_free(empty);
	citcat_image_free(img);
	free(copy);
	free(out.p);
}

int main(void)
{
	test_figure4();
	test_roundtrips();
	test_errors();
	CHECK_DONE();
}
