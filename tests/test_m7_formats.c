/* The Cortex-M7 parts of the CAT (version 5: isa 2, the EXC event, fault
 * kind 11; formats/CAT.md) and of the itrace (isa 2: exception-entry
 * records with their accesses; formats/ITRACE.md): round trips, records
 * decoded from bytes worked out by hand, and every combination the specs
 * call malformed refused by the writers and the readers. */
#include "cat.h"
#include "check.h"
#include "fuzz/wrap.h"

#include <citcat/itrace.h>

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define CAT_MAGIC "CCAT\r\n\x1a\n"
#define ITR_MAGIC "CITR\r\n\x1a\n"

static struct citcat_target_config cfg_isa(uint32_t isa)
{
	struct citcat_target_config c;
	citcat_target_config_default(&c);
	c.isa = isa;
	return c;
}

/* Reads every event of a one-chunk CAT of VERSION with the configuration of
 * ISA and PAYLOAD (NREC events); returns the first error, else the number
 * of events read, the last in *LAST. */
static int read_cat(uint32_t isa, uint16_t version, const uint8_t *payload, size_t len, uint32_t nrec,
		    struct citcat_cat_event *last)
{
	struct citcat_target_config c = cfg_isa(isa);
	uint8_t meta[CITCAT_TARGET_META_LEN];
	citcat_target_config_encode(&c, meta);
	size_t n;
	uint8_t *b = wrap_container(CAT_MAGIC, version, meta, sizeof meta, payload, len, nrec, &n);
	struct citcat_cat_reader *r = NULL;
	int rc = citcat_cat_reader_open_mem(&r, b, n), k = 0;
	while (rc == 0 && (rc = citcat_cat_next(r, last)) == 1)
		k++, rc = 0;
	citcat_cat_reader_close(r);
	free(b);
	return rc < 0 ? rc : k;
}

static void cat_tests(void)
{
	/* EXC worked out by hand: h = 13 (no flags), exception 15, branch
	 * count delta 3, zz(0x100 - 0) = 0x200 = LEB 80 04; then IRQ n = 19 at
	 * 0x0F8: delta 2, zz(0xF8 - 0x100) = zz(-8) = 15 */
	static const uint8_t exc[] = {0x0D, 0x0F, 0x03, 0x80, 0x04, 0x0D, 0x13, 0x02, 0x0F};
	struct citcat_cat_event e;
	CHECK_EQ(read_cat(2, 5, exc, 5, 1, &e), 1);
	CHECK_EQ(e.kind, CITCAT_CAT_EXC);
	CHECK_EQ(e.value, 15);
	CHECK_EQ(e.bcount, 3);
	CHECK_EQ(e.pc, 0x100);
	CHECK_EQ(read_cat(2, 5, exc, sizeof exc, 2, &e), 2);
	CHECK_EQ(e.value, 19);
	CHECK_EQ(e.bcount, 5);
	CHECK_EQ(e.pc, 0xF8);
	/* malformed: EXC in an isa 1 CAT, in a version 4 file (isa 2 needs 5),
	 * reserved flags, exception numbers 1 and 512, IRQ in an isa 2 CAT */
	CHECK_EQ(read_cat(1, 5, exc, 5, 1, &e), CITCAT_ERR_CORRUPT);
	CHECK_EQ(read_cat(2, 4, exc, 5, 1, &e), CITCAT_ERR_CORRUPT);
	static const uint8_t flags[] = {0x1D, 0x0F, 0x03, 0x00}, one[] = {0x0D, 0x01, 0x03, 0x00},
			     big[] = {0x0D, 0x80, 0x04, 0x03, 0x00}, irq[] = {0x08, 0x03, 0x00};
	CHECK_EQ(read_cat(2, 5, flags, sizeof flags, 1, &e), CITCAT_ERR_CORRUPT);
	CHECK_EQ(read_cat(2, 5, one, sizeof one, 1, &e), CITCAT_ERR_CORRUPT);
	CHECK_EQ(read_cat(2, 5, big, sizeof big, 1, &e), CITCAT_ERR_CORRUPT);
	CHECK_EQ(read_cat(2, 5, irq, sizeof irq, 1, &e), CITCAT_ERR_CORRUPT);
	CHECK_EQ(read_cat(1, 5, irq, sizeof irq, 1, &e), 1);
	/* STOP fault kind 11 (reason 3 in the flags): insns 1, bcount 0,
	 * cycles 2, kind 11, pc 0x40, exception 3; the M7's only */
	static const uint8_t stop11[] = {0x3B, 0x01, 0x00, 0x02, 0x0B, 0x40, 0x03};
	CHECK_EQ(read_cat(2, 5, stop11, sizeof stop11, 1, &e), 1);
	CHECK_EQ(e.value, CITCAT_FAULT_EXCEPTION);
	CHECK_EQ(e.pc, 0x40);
	CHECK_EQ(e.addr, 3);
	CHECK_EQ(read_cat(1, 5, stop11, sizeof stop11, 1, &e), CITCAT_ERR_CORRUPT);

	/* the writer: a round trip on isa 2, and what it refuses */
	char path[] = "/tmp/test_m7_formats_XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	close(fd);
	struct citcat_target_config c2 = cfg_isa(2), c1 = cfg_isa(1);
	struct citcat_cat_writer *w = NULL;
	CHECK_EQ(citcat_cat_writer_open(&w, path, &c2), 0);
	struct citcat_cat_event ev = {.kind = CITCAT_CAT_EXC, .value = 47, .pc = 0x1234, .bcount = 99};
	CHECK_EQ(citcat_cat_write(w, &ev), 0);
	struct citcat_cat_event bad = ev;
	bad.value = 1;
	CHECK_EQ(citcat_cat_write(w, &bad), CITCAT_ERR_INVAL);
	bad.value = 512;
	CHECK_EQ(citcat_cat_write(w, &bad), CITCAT_ERR_INVAL);
	bad = (struct citcat_cat_event){.kind = CITCAT_CAT_IRQ, .line = 1, .pc = 4};
	CHECK_EQ(citcat_cat_write(w, &bad), CITCAT_ERR_INVAL);
	/* a checkpoint (TARGET-M7.md, Checkpoints): legal on the M7 too */
	struct citcat_cat_event ck = {.kind = CITCAT_CAT_CKPT, .pc = 0x3c4, .insns = 20012, .bcount = 4565};
	CHECK_EQ(citcat_cat_write(w, &ck), 0);
	CHECK_EQ(citcat_cat_writer_close(w), 0);
	struct citcat_cat_reader *r = NULL;
	CHECK_EQ(citcat_cat_reader_open(&r, path), 0);
	CHECK_EQ(citcat_cat_config(r)->isa, 2);
	struct citcat_cat_event got;
	CHECK_EQ(citcat_cat_next(r, &got), 1);
	CHECK_EQ(got.kind, CITCAT_CAT_EXC);
	CHECK_EQ(got.value, 47);
	CHECK_EQ(got.pc, 0x1234);
	CHECK_EQ(got.bcount, 99);
	CHECK_EQ(citcat_cat_next(r, &got), 1);
	CHECK_EQ(got.kind, CITCAT_CAT_CKPT);
	CHECK_EQ(got.pc, 0x3c4);
	CHECK_EQ(got.insns, 20012);
	CHECK_EQ(got.bcount, 4565);
	CHECK_EQ(citcat_cat_next(r, &got), 0);
	citcat_cat_reader_close(r);
	w = NULL;
	CHECK_EQ(citcat_cat_writer_open(&w, path, &c1), 0);
	CHECK_EQ(citcat_cat_write(w, &ev), CITCAT_ERR_INVAL); /* EXC on the A target */
	bad = (struct citcat_cat_event){.kind = CITCAT_CAT_STOP, .line = CITCAT_STOP_FAULT, .value = CITCAT_FAULT_EXCEPTION};
	CHECK_EQ(citcat_cat_write(w, &bad), CITCAT_ERR_INVAL);
	citcat_cat_writer_abort(w);
	unlink(path);
}

static int read_itr(uint8_t isa, const uint8_t *payload, size_t len, uint32_t nrec, struct citcat_itrace_rec *last)
{
	uint8_t meta[8] = {isa};
	size_t n;
	uint8_t *b = wrap_container(ITR_MAGIC, CITCAT_ITRACE_VERSION, meta, sizeof meta, payload, len, nrec, &n);
	struct citcat_itrace_reader *r = NULL;
	int rc = citcat_itrace_reader_open_mem(&r, b, n), k = 0;
	while (rc == 0 && (rc = citcat_itrace_next(r, last)) == 1)
		k++, rc = 0;
	citcat_itrace_reader_close(r);
	free(b);
	return rc < 0 ? rc : k;
}

static void itrace_tests(void)
{
	/* an entry worked out by hand: h = 0x40 | 15 (SysTick), EPC 0x104 =
	 * LEB 84 02, one access: a = 0x80 (write) | 2 << 5 (4 bytes) = 0xC0,
	 * address zz(0xFF0 - 0) = 0x1FE0 = LEB E0 3F, value 0x11111111 */
	static const uint8_t entry[] = {0x4F, 0x84, 0x02, 0x01, 0xC0, 0xE0, 0x3F, 0x11, 0x11, 0x11, 0x11};
	struct citcat_itrace_rec rec;
	CHECK_EQ(read_itr(2, entry, sizeof entry, 1, &rec), 1);
	CHECK_EQ(rec.kind, CITCAT_REC_IRQ);
	CHECK_EQ(rec.line, 15);
	CHECK_EQ(rec.pc, 0x104);
	CHECK_EQ(rec.n_acc, 1);
	CHECK_EQ(rec.acc[0].addr, 0xFF0);
	CHECK_EQ(rec.acc[0].write, 1);
	CHECK_EQ(rec.acc[0].size, 4);
	CHECK_EQ(rec.acc[0].value, 0x11111111);
	/* the same bytes in an isa 1 trace: an interrupt record of line 15 with
	 * no accesses, then garbage (0x84 0x02 is no record) */
	CHECK(read_itr(1, entry, sizeof entry, 1, &rec) < 0);
	/* malformed in isa 2: exception number 1; an A32 word (ISA code 0) */
	static const uint8_t exc1[] = {0x41, 0x84, 0x02, 0x00}, a32[] = {0x10, 0x00, 0x00, 0x00, 0xA0, 0xE3};
	CHECK(read_itr(2, exc1, sizeof exc1, 1, &rec) < 0);
	CHECK(read_itr(2, a32, sizeof a32, 1, &rec) < 0);
	CHECK_EQ(read_itr(1, a32, sizeof a32, 1, &rec), 1);
	/* STOP fault kind 11: isa 2 only (h = 0xC0 | 3, pc 0x40, kind 11, address 3) */
	static const uint8_t stop11[] = {0xC3, 0x40, 0x0B, 0x03};
	CHECK_EQ(read_itr(2, stop11, sizeof stop11, 1, &rec), 1);
	CHECK_EQ(rec.word, CITCAT_FAULT_EXCEPTION);
	CHECK(read_itr(1, stop11, sizeof stop11, 1, &rec) < 0);

	/* the writer: round trip of an isa 2 trace; refusals */
	char path[] = "/tmp/test_m7_formats_XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	close(fd);
	static struct citcat_itrace_rec in[3], out;
	in[0] = (struct citcat_itrace_rec){.kind = CITCAT_REC_INSN, .pc = 0x100, .word = 0xb510, .size = 2, .thumb = 1};
	in[1] = (struct citcat_itrace_rec){.kind = CITCAT_REC_IRQ, .line = 16, .pc = 0x102, .n_acc = 9};
	for (int i = 0; i < 8; i++)
		in[1].acc[i] = (struct citcat_access){.addr = 0x3000 + 4u * (unsigned)i, .value = 0x1000u + (unsigned)i,
						      .size = 4, .write = 1};
	in[1].acc[8] = (struct citcat_access){.addr = 0x40, .value = 0xe3, .size = 4};
	in[2] = (struct citcat_itrace_rec){.kind = CITCAT_REC_INSN, .pc = 0xe2, .word = 0xf846f000, .size = 4, .thumb = 1};
	struct citcat_itrace_writer *w = NULL;
	CHECK_EQ(citcat_itrace_writer_open(&w, path, CITCAT_ISA_ARMV7M), 0);
	for (int i = 0; i < 3; i++)
		CHECK_EQ(citcat_itrace_write(w, &in[i]), 0);
	struct citcat_itrace_rec bad = {.kind = CITCAT_REC_INSN, .pc = 0x200, .word = 0xe3a00000, .size = 4};
	CHECK_EQ(citcat_itrace_write(w, &bad), CITCAT_ERR_INVAL); /* A32 on the M7 */
	bad = (struct citcat_itrace_rec){.kind = CITCAT_REC_IRQ, .line = 1, .pc = 0x200};
	CHECK_EQ(citcat_itrace_write(w, &bad), CITCAT_ERR_INVAL); /* exception number 1 */
	CHECK_EQ(citcat_itrace_writer_close(w), 0);
	struct citcat_itrace_reader *r = NULL;
	CHECK_EQ(citcat_itrace_reader_open(&r, path), 0);
	CHECK_EQ(citcat_itrace_isa(r), CITCAT_ISA_ARMV7M);
	for (int i = 0; i < 3; i++) {
		CHECK_EQ(citcat_itrace_next(r, &out), 1);
		CHECK(citcat_itrace_rec_equal(&in[i], &out));
	}
	CHECK_EQ(citcat_itrace_next(r, &out), 0);
	citcat_itrace_reader_close(r);
	/* an entry whose accesses differ is not equal */
	out = in[1];
	out.acc[6].value ^= 2;
	CHECK(!citcat_itrace_rec_equal(&in[1], &out));
	w = NULL;
	CHECK_EQ(citcat_itrace_writer_open(&w, path, CITCAT_ISA_ARM_A32), 0);
	CHECK_EQ(citcat_itrace_write(w, &in[1]), CITCAT_ERR_INVAL); /* accesses on an A-target interrupt */
	bad = (struct citcat_itrace_rec){.kind = CITCAT_REC_STOP, .line = CITCAT_STOP_FAULT, .pc = 4,
					 .word = CITCAT_FAULT_EXCEPTION};
	CHECK_EQ(citcat_itrace_write(w, &bad), CITCAT_ERR_INVAL);
	citcat_itrace_writer_abort(w);
	CHECK_EQ(citcat_itrace_writer_open(&w, path, (enum citcat_isa)3), CITCAT_ERR_INVAL);
	citcat_itrace_writer_abort(w);
	unlink(path);
}

int main(void)
{
	cat_tests();
	itrace_tests();
	CHECK_DONE();
}
