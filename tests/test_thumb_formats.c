/* Thumb in the formats (issue 11): itrace version 3 records with their
 * size and state, byte by byte against ITRACE.md worked by hand; version 2
 * files still read as A32; the writer's checks; the shared decoder's
 * classification independent of Capstone's IT-block state; the listing's
 * Thumb lines. */
#include "armdec.h"
#include "check.h"
#include "container.h"
#include "itrace.h"
#include "listing.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static struct citcat_itrace_rec insn(uint64_t pc, uint32_t word, unsigned size, int thumb)
{
	struct citcat_itrace_rec r;
	memset(&r, 0, sizeof r);
	r.kind = CITCAT_REC_INSN;
	r.pc = pc;
	r.word = word;
	r.size = (uint8_t)size;
	r.thumb = (uint8_t)thumb;
	return r;
}

static uint8_t *slurp(const char *path, long *n)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	*n = ftell(f);
	fseek(f, 0, SEEK_SET);
	uint8_t *b = malloc((size_t)*n + 1);
	if (b && fread(b, 1, (size_t)*n, f) != (size_t)*n) {
		free(b);
		b = NULL;
	}
	fclose(f);
	return b;
}

static int find(const uint8_t *buf, long n, const uint8_t *want, size_t len)
{
	for (long i = 0; i + (long)len <= n; i++)
		if (memcmp(buf + i, want, len) == 0)
			return 1;
	return 0;
}

int main(void)
{
	char path[] = "/tmp/citcat_thumb_fmt_XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	close(fd);

	/* itrace v3: movs r0,#1 (T16) at 0x1000, movw r1,#0x1234 (T32) at
	 * 0x1002, mov r0,#1 (A32) at 0x2000, the T16 at 0x1000 again. */
	struct citcat_itrace_rec v[4] = {insn(0x1000, 0x2001, 2, 1), insn(0x1002, 0x2134f241u, 4, 1),
					 insn(0x2000, 0xe3a00001u, 4, 0), insn(0x1000, 0x2001, 2, 1)};
	struct citcat_itrace_writer *w;
	CHECK_EQ(citcat_itrace_writer_open(&w, path, CITCAT_ISA_ARM_A32), 0);
	for (int i = 0; i < 4; i++)
		CHECK_EQ(citcat_itrace_write(w, &v[i]), 0);
	/* the writer's checks: a Thumb size other than 2/4, an A32 size 2, a
	 * 2-byte word above 16 bits, a state other than 0/1 */
	struct citcat_itrace_rec bad = insn(0x3000, 0x2001, 3, 1);
	CHECK_EQ(citcat_itrace_write(w, &bad), CITCAT_ERR_INVAL);
	bad = insn(0x3000, 0x2001, 2, 0);
	CHECK_EQ(citcat_itrace_write(w, &bad), CITCAT_ERR_INVAL);
	bad = insn(0x3000, 0x12001, 2, 1);
	CHECK_EQ(citcat_itrace_write(w, &bad), CITCAT_ERR_INVAL);
	bad = insn(0x3000, 0x2001, 2, 2);
	CHECK_EQ(citcat_itrace_write(w, &bad), CITCAT_ERR_INVAL);
	CHECK_EQ(citcat_itrace_writer_close(w), 0);

	struct citcat_itrace_reader *r;
	CHECK_EQ(citcat_itrace_reader_open(&r, path), 0);
	struct citcat_itrace_rec got;
	for (int i = 0; i < 4; i++) {
		CHECK_EQ(citcat_itrace_next(r, &got), 1);
		CHECK(citcat_itrace_rec_equal(&got, &v[i]));
		CHECK_EQ(got.size, v[i].size);
		CHECK_EQ(got.thumb, v[i].thumb);
	}
	CHECK_EQ(citcat_itrace_next(r, &got), 0);
	citcat_itrace_reader_close(r);
	/* size and state take part in equality */
	struct citcat_itrace_rec a = v[1];
	a.thumb = 0;
	CHECK(!citcat_itrace_rec_equal(&a, &v[1]));

	/* The payload by hand (ITRACE.md, version 3):
	 *  30 (p, w, 0 accesses), zz(0x1000) = 0x2000 = ULEB 80 40, ISA 01, 01 20
	 *  10 (w; pc = next_pc 0x1002), ISA 02, 41 f2 34 21 (first halfword low)
	 *  30, zz(0x2000 - 0x1006) = 0x1ff4 = ULEB f4 3f, ISA 00, 01 00 a0 e3
	 *  20 (p; word from the table: slot 0x400, apart from 0x1002's 0xc00
	 *     and 0x2000's 0x800), zz(0x1000 - 0x2004) = 0x2007 = ULEB 87 40 */
	static const uint8_t want[] = {0x30, 0x80, 0x40, 0x01, 0x01, 0x20, 0x10, 0x02, 0x41, 0xf2, 0x34, 0x21, 0x30,
				       0xf4, 0x3f, 0x00, 0x01, 0x00, 0xa0, 0xe3, 0x20, 0x87, 0x40};
	long n = 0;
	uint8_t *buf = slurp(path, &n);
	CHECK(buf != NULL);
	if (buf) {
		CHECK(find(buf, n, want, sizeof want));
		CHECK_EQ(buf[8] | buf[9] << 8, 3); /* container version (CONTAINER.md: u16 at 8) */
	}
	free(buf);

	/* A version 2 file (hand-built container, ITRACE.md version 2: no ISA
	 * byte) reads as A32, size 4: mov r0,#1 at 0x100, then 0x104 from
	 * next_pc. */
	struct cc_writer *cw;
	uint8_t meta[8] = {CITCAT_ISA_ARM_A32, 0, 0, 0, 0, 0, 0, 0};
	CHECK_EQ(cc_writer_open(&cw, path, "CITR\r\n\x1a\n", 2, meta, sizeof meta, 0), 0);
	static const uint8_t v2[] = {0x30, 0x80, 0x04, 0x01, 0x00, 0xa0, 0xe3, 0x10, 0x02, 0x10, 0xa0, 0xe3};
	uint8_t *p = cc_writer_reserve(cw, sizeof v2);
	CHECK(p != NULL);
	if (p) {
		memcpy(p, v2, sizeof v2);
		cc_writer_commit(cw, sizeof v2, 2);
	}
	CHECK_EQ(cc_writer_close(cw), 0);
	CHECK_EQ(citcat_itrace_reader_open(&r, path), 0);
	CHECK_EQ(citcat_itrace_next(r, &got), 1);
	CHECK_EQ(got.pc, 0x100);
	CHECK_EQ(got.word, 0xe3a00001u);
	CHECK_EQ(got.size, 4);
	CHECK_EQ(got.thumb, 0);
	CHECK_EQ(citcat_itrace_next(r, &got), 1);
	CHECK_EQ(got.pc, 0x104);
	CHECK_EQ(got.word, 0xe3a01002u);
	CHECK_EQ(got.size, 4);
	CHECK_EQ(citcat_itrace_next(r, &got), 0);
	citcat_itrace_reader_close(r);

	/* Classification of Thumb words is a function of (pc, word): after an
	 * IT decoded by the iterating decoder, a b.w still classifies as
	 * direct unconditional; beq (T1) as direct conditional; cbz as
	 * conditional; blx imm from Thumb switches state; bx lr is a return;
	 * pop {pc} an indirect return. */
	struct armdec d;
	CHECK_EQ(armdec_init(&d), 0);
	struct armdec_class c;
	CHECK(armdec_decode_isa(&d, 0x100, 0xbf0c, 2, 1) != NULL); /* ite eq */
	CHECK_EQ(armdec_classify_isa(&d, 0x102, 0xb800f000u, 4, 1, &c), 1); /* b.w 0x106 */
	CHECK_EQ(c.flow, ARMDEC_DIRECT_U);
	CHECK_EQ(c.target, 0x106);
	CHECK_EQ(armdec_classify_isa(&d, 0x200, 0xd0fe, 2, 1, &c), 1); /* beq . */
	CHECK_EQ(c.flow, ARMDEC_DIRECT_C);
	CHECK_EQ(c.target, 0x200);
	CHECK_EQ(armdec_classify_isa(&d, 0x200, 0xb108, 2, 1, &c), 1); /* cbz r0, 0x206 */
	CHECK_EQ(c.flow, ARMDEC_DIRECT_C);
	CHECK_EQ(c.target, 0x206);
	CHECK_EQ(armdec_classify_isa(&d, 0x200, 0x4770, 2, 1, &c), 1); /* bx lr */
	CHECK_EQ(c.flow, ARMDEC_INDIRECT);
	CHECK(c.ret);
	CHECK_EQ(armdec_classify_isa(&d, 0x200, 0xbd80, 2, 1, &c), 1); /* pop {r7, pc} */
	CHECK_EQ(c.flow, ARMDEC_INDIRECT);
	CHECK(c.ret);
	CHECK_EQ(armdec_classify_isa(&d, 0x200, 0xe800f000u, 4, 1, &c), 1); /* blx 0x204 (ARM) */
	CHECK_EQ(c.flow, ARMDEC_THUMB);
	CHECK(c.link);
	/* A32 unchanged: b . */
	CHECK_EQ(armdec_classify(&d, 0x300, 0xeafffffe, &c), 1);
	CHECK_EQ(c.flow, ARMDEC_DIRECT_U);
	CHECK_EQ(c.target, 0x300);
	armdec_fini(&d);

	/* The listing: Thumb words in memory order, Capstone in Thumb mode. */
	struct citcat_listing_writer *lw;
	struct citcat_errinfo err;
	CHECK_EQ(citcat_listing_writer_open(&lw, path, CITCAT_ISA_ARM_A32, &err), 0);
	for (int i = 0; i < 3; i++)
		CHECK_EQ(citcat_listing_write(lw, &v[i]), 0);
	CHECK_EQ(citcat_listing_writer_close(lw, &err), 0);
	buf = slurp(path, &n);
	CHECK(buf != NULL);
	if (buf) {
		buf[n] = 0;
		CHECK(strstr((char *)buf, "00001000  2001      movs    r0, #1") != NULL);
		CHECK(strstr((char *)buf, "00001002  f2412134  movw    r1, #0x1234") != NULL);
		CHECK(strstr((char *)buf, "00002000  e3a00001  mov     r0, #1") != NULL);
	}
	free(buf);
	unlink(path);
	CHECK_DONE();
}
