/* itrace and container: round trip, canonical encoding, chunk boundaries, and
 * every kind of bad input. */
#include "check.h"
#include "container.h"
#include "itrace.h"

#include <string.h>
#include <unistd.h>
#include <xxhash.h>

static struct citcat_itrace_rec mk(uint64_t pc, uint32_t word, unsigned nacc, uint64_t base)
{
	struct citcat_itrace_rec r;
	memset(&r, 0, sizeof r);
	r.kind = CITCAT_REC_INSN;
	r.pc = pc;
	r.word = word;
	r.n_acc = nacc;
	for (unsigned i = 0; i < nacc; i++) {
		r.acc[i].addr = base + 4 * i;
		r.acc[i].size = (uint8_t)(i % 3 == 2 ? 1 : 4);
		r.acc[i].write = (uint8_t)(i & 1);
		r.acc[i].value = 0x11223344u * (i + 1);
		r.acc[i].value &= r.acc[i].size == 1 ? 0xff : 0xffffffff;
	}
	return r;
}

static long file_size(const char *p)
{
	FILE *f = fopen(p, "rb");
	if (!f)
		return -1;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fclose(f);
	return n;
}

static int read_all(const char *path, unsigned long *count, struct citcat_errinfo *e)
{
	struct citcat_itrace_reader *r;
	static struct citcat_itrace_rec rec;
	int rc = citcat_itrace_reader_open(&r, path);
	*count = 0;
	if (rc == 0)
		while ((rc = citcat_itrace_next(r, &rec)) == 1)
			(*count)++;
	if (e)
		*e = *citcat_itrace_reader_error(r);
	citcat_itrace_reader_close(r);
	return rc;
}

/* The abnormal-end record (ITRACE.md): hand-encoded bytes as the writer
 * makes them and the reader takes them, and the values it must refuse. */
static void test_stop_record(const char *path)
{
	struct citcat_itrace_writer *w;
	CHECK_EQ(citcat_itrace_writer_open(&w, path, CITCAT_ISA_ARM_A32), 0);
	static struct citcat_itrace_rec rec, got;
	memset(&rec, 0, sizeof rec);
	rec.kind = CITCAT_REC_STOP;
	rec.line = 2; /* an instruction limit has no record */
	CHECK_EQ(citcat_itrace_write(w, &rec), CITCAT_ERR_INVAL);
	rec.line = 3; /* a fault needs a kind */
	CHECK_EQ(citcat_itrace_write(w, &rec), CITCAT_ERR_INVAL);
	rec.word = 6;
	rec.pc = 0x4a4;
	CHECK_EQ(citcat_itrace_write(w, &rec), 0);
	CHECK_EQ(citcat_itrace_writer_close(w), 0);
	/* h = 0xc3 (11, reason 3); PC 0x4a4 = a4 09; kind 6; address 0 */
	static const uint8_t want[] = {0xc3, 0xa4, 0x09, 0x06, 0x00};
	uint8_t file[256];
	FILE *f = fopen(path, "rb");
	size_t n = fread(file, 1, sizeof file, f);
	fclose(f);
	size_t at = 16 + 8 + 4 + 24; /* header, metadata, its checksum, chunk header */
	CHECK(n >= at + sizeof want && memcmp(file + at, want, sizeof want) == 0);
	struct citcat_itrace_reader *r;
	CHECK_EQ(citcat_itrace_reader_open(&r, path), 0);
	CHECK_EQ(citcat_itrace_next(r, &got), 1);
	CHECK(got.kind == CITCAT_REC_STOP && got.line == 3 && got.pc == 0x4a4 && got.word == 6 && got.fault_addr == 0);
	CHECK(citcat_itrace_rec_equal(&got, &rec));
	CHECK_EQ(citcat_itrace_next(r, &got), 0);
	citcat_itrace_reader_close(r);
	/* an interrupted run: no fault fields */
	CHECK_EQ(citcat_itrace_writer_open(&w, path, CITCAT_ISA_ARM_A32), 0);
	memset(&rec, 0, sizeof rec);
	rec.kind = CITCAT_REC_STOP;
	rec.line = 5;
	rec.pc = 0x10;
	rec.fault_addr = 4;
	CHECK_EQ(citcat_itrace_write(w, &rec), CITCAT_ERR_INVAL);
	rec.fault_addr = 0;
	CHECK_EQ(citcat_itrace_write(w, &rec), 0);
	CHECK_EQ(citcat_itrace_writer_close(w), 0);
	CHECK_EQ(citcat_itrace_reader_open(&r, path), 0);
	CHECK_EQ(citcat_itrace_next(r, &got), 1);
	CHECK(got.kind == CITCAT_REC_STOP && got.line == 5 && got.pc == 0x10);
	citcat_itrace_reader_close(r);
}

/* Hand-made payloads the writer never makes (issue 29, defect 12): an
 * instruction after an abnormal end, and an instruction whose PC delta
 * reaches 2^64 - 1 (the empty word-table slot's PC) without a word, in a
 * Cortex-M7 trace.
 * The reader returns nothing after the STOP and nothing for that PC: it
 * reports the record, at its offset. */
static void raw_itrace(const char *path, uint8_t isa, const uint8_t *payload, size_t n, uint32_t nrec)
{
	struct cc_writer *cw;
	uint8_t meta[8] = {isa, 0, 0, 0, 0, 0, 0, 0};
	CHECK_EQ(cc_writer_open(&cw, path, "CITR\r\n\x1a\n", CITCAT_ITRACE_VERSION, meta, sizeof meta, 4096), 0);
	uint8_t *b = cc_writer_reserve(cw, n);
	CHECK(b != NULL);
	memcpy(b, payload, n);
	cc_writer_commit(cw, n, nrec);
	CHECK_EQ(cc_writer_close(cw), 0);
}

static void test_after_stop(const char *path)
{
	static struct citcat_itrace_rec got;
	struct citcat_itrace_reader *r;
	/* STOP interrupted at 0x10 (c5 10), then an A32 instruction at 0x10
	 * with its word: h = 0x30, zz(0x10) = 20, ISA 0, word */
	static const uint8_t after[] = {0xc5, 0x10, 0x30, 0x20, 0x00, 0x00, 0x00, 0xa0, 0xe1};
	raw_itrace(path, CITCAT_ISA_ARM_A32, after, sizeof after, 2);
	CHECK_EQ(citcat_itrace_reader_open(&r, path), 0);
	CHECK_EQ(citcat_itrace_next(r, &got), 1);
	CHECK_EQ(got.kind, CITCAT_REC_STOP);
	CHECK_EQ(citcat_itrace_next(r, &got), CITCAT_ERR_CORRUPT);
	CHECK(strstr(citcat_itrace_reader_error(r)->msg, "after the STOP") != NULL);
	CHECK(strstr(citcat_itrace_reader_error(r)->msg, "payload byte 2 ") != NULL); /* the record after the STOP */
	CHECK_EQ(citcat_itrace_next(r, &got), CITCAT_ERR_CORRUPT); /* sticky */
	citcat_itrace_reader_close(r);
	/* isa 2: h = 0x20 (explicit PC, word from the table), zz(-1) = 01 */
	static const uint8_t wide[] = {0x20, 0x01};
	raw_itrace(path, CITCAT_ISA_ARMV7M, wide, sizeof wide, 1);
	CHECK_EQ(citcat_itrace_reader_open(&r, path), 0);
	CHECK_EQ(citcat_itrace_next(r, &got), CITCAT_ERR_CORRUPT);
	CHECK(strstr(citcat_itrace_reader_error(r)->msg, "word omitted but not known") != NULL);
	citcat_itrace_reader_close(r);
}

/* Version 2: the uncached flag, DMA records (handed out only when asked),
 * their byte encoding and their reserved bits. */
static void test_v2(const char *path)
{
	struct citcat_itrace_writer *w;
	static struct citcat_itrace_rec a, b, d, got;
	a = mk(0x100, 0xe5913000, 2, 0x40000700);
	a.acc[1].uncached = 1;
	b = mk(0x104, 0xe5900000, 1, 0x2000);
	memset(&d, 0, sizeof d);
	d.kind = CITCAT_REC_DMA;
	d.pc = 0x3008;
	d.word = 8;
	CHECK_EQ(citcat_itrace_writer_open(&w, path, CITCAT_ISA_ARM_A32), 0);
	CHECK_EQ(citcat_itrace_write(w, &a), 0);
	CHECK_EQ(citcat_itrace_write(w, &d), 0);
	CHECK_EQ(citcat_itrace_write(w, &b), 0);
	d.word = 0; /* a DMA record of 0 or more than 4096 bytes is refused */
	CHECK_EQ(citcat_itrace_write(w, &d), CITCAT_ERR_INVAL);
	d.word = 4097;
	CHECK_EQ(citcat_itrace_write(w, &d), CITCAT_ERR_INVAL);
	d.word = 8;
	CHECK_EQ(citcat_itrace_writer_close(w), 0);

	struct citcat_itrace_reader *r;
	/* by default the DMA record is skipped */
	CHECK_EQ(citcat_itrace_reader_open(&r, path), 0);
	CHECK_EQ(citcat_itrace_next(r, &got), 1);
	CHECK(citcat_itrace_rec_equal(&got, &a));
	CHECK_EQ(got.acc[0].uncached, 0);
	CHECK_EQ(got.acc[1].uncached, 1);
	CHECK_EQ(citcat_itrace_next(r, &got), 1);
	CHECK(citcat_itrace_rec_equal(&got, &b));
	CHECK_EQ(citcat_itrace_next(r, &got), 0);
	citcat_itrace_reader_close(r);
	/* asked for, it comes between the two instructions */
	CHECK_EQ(citcat_itrace_reader_open(&r, path), 0);
	citcat_itrace_reader_dma(r, 1);
	CHECK_EQ(citcat_itrace_next(r, &got), 1);
	CHECK_EQ(citcat_itrace_next(r, &got), 1);
	CHECK_EQ(got.kind, CITCAT_REC_DMA);
	CHECK_EQ(got.pc, 0x3008);
	CHECK_EQ(got.word, 8);
	CHECK(citcat_itrace_rec_equal(&got, &d));
	CHECK_EQ(citcat_itrace_next(r, &got), 1);
	CHECK(citcat_itrace_rec_equal(&got, &b));
	CHECK_EQ(citcat_itrace_next(r, &got), 0);
	citcat_itrace_reader_close(r);
	/* the uncached flag takes part in equality */
	struct citcat_itrace_rec a2 = a;
	a2.acc[1].uncached = 0;
	CHECK(!citcat_itrace_rec_equal(&a, &a2));

	/* The payload bytes, by hand (ITRACE.md): instruction a = 0x30 (p, w,
	 * 2 accesses), zz(0x100) = 0x200 as ULEB128 80 04, ISA code 00 (A32,
	 * version 3) and the word, then
	 * access 0 read 4 bytes at 0x40000700: 0x40, zz = 0x80000e00 as
	 * ULEB128 80 9c 80 80 08, value 44 33 22 11; access 1 write 4 bytes,
	 * uncached, sequential: 0xc0 | 0x10 | 0x08 = 0xd8, value 88 66 44 22.
	 * Then the DMA record: 80, ULEB128(0x3008) = 88 60, ULEB128(8) = 08. */
	long size = file_size(path);
	CHECK(size > 0);
	if (size <= 0)
		return;
	uint8_t *buf = malloc((size_t)size);
	FILE *f = fopen(path, "rb");
	CHECK(fread(buf, 1, (size_t)size, f) == (size_t)size);
	fclose(f);
	static const uint8_t want[] = {0x32, 0x80, 0x04, 0x00, 0x00, 0x30, 0x91, 0xe5, 0x40, 0x80, 0x9c, 0x80, 0x80, 0x08,
				       0x44, 0x33, 0x22, 0x11, 0xd8, 0x88, 0x66, 0x44, 0x22, 0x80, 0x88, 0x60, 0x08};
	size_t at = 0;
	for (long i = 0; i + (long)sizeof want <= size; i++)
		if (memcmp(buf + i, want, sizeof want) == 0)
			at = (size_t)i;
	CHECK(at != 0); /* the chunk payload (stored raw: too small to compress) holds exactly these bytes */
	/* Reserved bits set, checksum recomputed: the DMA record's bits 5..0,
	 * an access byte's bit 2; both are named as reserved. */
	size_t c0 = 16 + 8 + 4; /* header, 8 bytes of metadata, header checksum */
	static const size_t spots[2] = {23, 18};
	static const uint8_t flips[2] = {0x01, 0x04};
	for (int k = 0; k < 2 && at && memcmp(buf + c0, "BLK", 3) == 0; k++) {
		uint8_t *h = buf + c0;
		uint32_t stored = (uint32_t)h[8] | (uint32_t)h[9] << 8 | (uint32_t)h[10] << 16 | (uint32_t)h[11] << 24;
		buf[at + spots[k]] ^= flips[k];
		uint8_t save[4];
		memcpy(save, h + 20, 4);
		uint32_t ck = XXH32(h, 20, 0);
		XXH32_state_t *st = XXH32_createState();
		XXH32_reset(st, 0);
		XXH32_update(st, h, 20);
		XXH32_update(st, h + 24, stored);
		ck = XXH32_digest(st);
		XXH32_freeState(st);
		for (int i = 0; i < 4; i++)
			h[20 + i] = (uint8_t)(ck >> (8 * i));
		FILE *g = fopen(path, "wb");
		fwrite(buf, 1, (size_t)size, g);
		fclose(g);
		unsigned long cnt;
		struct citcat_errinfo e;
		CHECK_EQ(read_all(path, &cnt, &e), CITCAT_ERR_CORRUPT);
		CHECK(strstr(e.msg, "reserved") != NULL);
		buf[at + spots[k]] ^= flips[k];
		memcpy(h + 20, save, 4);
	}
	free(buf);
	unlink(path);
}

/* Reads the raw payload of the only chunk of the itrace at PATH into OUT
 * (at most CAP bytes); returns its length. */
static size_t only_chunk(const char *path, uint8_t *out, size_t cap)
{
	struct cc_reader *r;
	const uint8_t *d;
	size_t len = 0;
	uint32_t nrec;
	CHECK_EQ(cc_reader_open(&r, path, "CITR\r\n\x1a\n", CITCAT_ITRACE_VERSION), 0);
	CHECK_EQ(cc_reader_next_chunk(r, &d, &len, &nrec), 1);
	CHECK(len <= cap);
	memcpy(out, d, len < cap ? len : cap);
	CHECK_EQ(cc_reader_next_chunk(r, &d, &len, &nrec) == 0 ? 0 : 1, 0);
	cc_reader_close(r);
	return len;
}

/* The writer's instruction fast path (issue 14): hand-encoded bytes of
 * instruction records with accesses of every size, a sequential and an
 * uncached access, a 16- and a 32-bit Thumb word, a word-table hit after a
 * backward jump and a count extension (ITRACE.md, Instruction); and an
 * invalid record between them (an access of 3 bytes after valid ones, an
 * A32 size of 2, 65 accesses) is refused and changes nothing: the file is
 * the same without it. */
static void test_insn_bytes(const char *path)
{
	static struct citcat_itrace_rec a, b, c, d, e, bad;
	memset(&a, 0, sizeof a);
	a.kind = CITCAT_REC_INSN;
	a.pc = 0x100;
	a.word = 0xe5901000u;
	a.n_acc = 4;
	a.acc[0] = (struct citcat_access){0x2000, 0xab, 1, 0, 0};
	a.acc[1] = (struct citcat_access){0x2001, 0x1234, 2, 1, 0};
	a.acc[2] = (struct citcat_access){0x1000, 0xdeadbeefu, 4, 0, 1};
	a.acc[3] = (struct citcat_access){0x1004, 0x0102030405060708ull, 8, 1, 0};
	b = (struct citcat_itrace_rec){.kind = CITCAT_REC_INSN, .pc = 0x104, .word = 0x4770, .size = 2, .thumb = 1};
	c = (struct citcat_itrace_rec){.kind = CITCAT_REC_INSN, .pc = 0x106, .word = 0xf8d0f000u, .size = 4, .thumb = 1};
	d = a; /* back to 0x100: the word table still holds its word */
	d.n_acc = 0;
	memset(&e, 0, sizeof e);
	e.kind = CITCAT_REC_INSN;
	e.pc = 0x104; /* ARM now: the table's Thumb entry for 0x104 does not match */
	e.word = 0xe1a00000u;
	e.n_acc = 16;
	for (unsigned i = 0; i < 16; i++) /* from last_addr 0x100c on: each sequential */
		e.acc[i] = (struct citcat_access){0x100c + i, i, 1, 0, 0};
	static const uint8_t want[] = {
		/* a: h 0x34 (p, w, 4 accesses); zigzag(0x100) = 0x200; ISA 0; word */
		0x34, 0x80, 0x04, 0x00, 0x00, 0x10, 0x90, 0xe5,
		/* read 1 at 0x2000 (zigzag 0x4000); write 2, sequential (0x2001) */
		0x00, 0x80, 0x80, 0x01, 0xab, 0xb0, 0x34, 0x12,
		/* uncached read 4 at 0x1000: zigzag(0x1000 - 0x2003) = 0x2005 */
		0x48, 0x85, 0x40, 0xef, 0xbe, 0xad, 0xde,
		/* write 8, sequential (0x1004) */
		0xf0, 0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01,
		/* b: h 0x10 (next_pc 0x104); ISA 1; 2 bytes */
		0x10, 0x01, 0x70, 0x47,
		/* c: h 0x10; ISA 2; 4 bytes, first halfword low */
		0x10, 0x02, 0x00, 0xf0, 0xd0, 0xf8,
		/* d: h 0x20, zigzag(0x100 - 0x10a) = 19; the table has the word */
		0x20, 0x13,
		/* e: h 0x1f (w, count 15 + ULEB 1); ISA 0; word; 16 sequential reads of 1 byte */
		0x1f, 0x00, 0x00, 0x00, 0xa0, 0xe1, 0x01,
		0x10, 0, 0x10, 1, 0x10, 2, 0x10, 3, 0x10, 4, 0x10, 5, 0x10, 6, 0x10, 7,
		0x10, 8, 0x10, 9, 0x10, 10, 0x10, 11, 0x10, 12, 0x10, 13, 0x10, 14, 0x10, 15,
	};
	uint8_t got[512];
	for (int with_bad = 0; with_bad < 2; with_bad++) {
		struct citcat_itrace_writer *w;
		CHECK_EQ(citcat_itrace_writer_open(&w, path, CITCAT_ISA_ARM_A32), 0);
		const struct citcat_itrace_rec *seq[] = {&a, &b, &c, &d, &e};
		for (unsigned k = 0; k < 5; k++) {
			if (with_bad) {
				bad = *seq[k];
				bad.pc += 0x40; /* would change next_pc, the table and last_addr */
				bad.n_acc = 3;
				bad.acc[0] = (struct citcat_access){0x9000, 1, 4, 0, 0};
				bad.acc[1] = (struct citcat_access){0x9004, 2, 8, 1, 0};
				bad.acc[2] = (struct citcat_access){0x9010, 3, 3, 0, 0};
				CHECK_EQ(citcat_itrace_write(w, &bad), CITCAT_ERR_INVAL);
				bad.acc[2].size = 4;
				bad.thumb = 0;
				bad.size = 2;
				CHECK_EQ(citcat_itrace_write(w, &bad), CITCAT_ERR_INVAL);
				bad.size = 4;
				bad.n_acc = CITCAT_ITRACE_MAX_ACC + 1;
				CHECK_EQ(citcat_itrace_write(w, &bad), CITCAT_ERR_INVAL);
			}
			CHECK_EQ(citcat_itrace_write(w, seq[k]), 0);
		}
		CHECK_EQ(citcat_itrace_writer_close(w), 0);
		size_t n = only_chunk(path, got, sizeof got);
		CHECK_EQ(n, sizeof want);
		CHECK(n == sizeof want && memcmp(got, want, n) == 0);
	}
}

int main(void)
{
	char path[] = "/tmp/citcat-test-itrace-XXXXXX";
	int fd = mkstemp(path);
	close(fd);
	test_stop_record(path);
	test_insn_bytes(path);
	const unsigned long N = 300000; /* spans several 1 MiB chunks */
	struct citcat_itrace_writer *w;
	CHECK_EQ(citcat_itrace_writer_open(&w, path, CITCAT_ISA_ARM_A32), 0);
	static struct citcat_itrace_rec rec, got;
	for (unsigned long i = 0; i < N; i++) {
		if (i % 1000 == 999) {
			memset(&rec, 0, sizeof rec);
			rec.kind = CITCAT_REC_IRQ;
			rec.line = (uint8_t)(i % 3);
			rec.pc = 0x1000 + 4 * (i % 50);
		} else {
			rec = mk(0x1000 + 4 * (i % 50), 0xe5900000u + (uint32_t)(i % 50), (unsigned)(i % 7 == 0 ? 16 + i % 40 : i % 3),
				 0x20000 + 8 * (i % 97));
		}
		CHECK_EQ(citcat_itrace_write(w, &rec), 0);
	}
	CHECK_EQ(citcat_itrace_writer_close(w), 0);

	/* Round trip, record for record. */
	struct citcat_itrace_reader *r;
	CHECK_EQ(citcat_itrace_reader_open(&r, path), 0);
	unsigned long n = 0;
	int rc;
	while ((rc = citcat_itrace_next(r, &got)) == 1) {
		unsigned long i = n++;
		if (i % 1000 == 999) {
			CHECK_EQ(got.kind, CITCAT_REC_IRQ);
			CHECK_EQ(got.line, i % 3);
			CHECK_EQ(got.pc, 0x1000 + 4 * (i % 50));
		} else {
			struct citcat_itrace_rec want = mk(0x1000 + 4 * (i % 50), 0xe5900000u + (uint32_t)(i % 50),
							   (unsigned)(i % 7 == 0 ? 16 + i % 40 : i % 3), 0x20000 + 8 * (i % 97));
			if (!citcat_itrace_rec_equal(&got, &want)) {
				CHECK(!"record differs");
				break;
			}
		}
	}
	CHECK_EQ(rc, 0);
	CHECK_EQ(n, N);
	citcat_itrace_reader_close(r);

	/* Corruption: flip one byte in the middle of a chunk payload -> checksum error. */
	long size = file_size(path);
	CHECK(size > 100000);
	FILE *f = fopen(path, "rb");
	char *buf = malloc((size_t)size);
	CHECK(fread(buf, 1, (size_t)size, f) == (size_t)size);
	fclose(f);
	struct citcat_errinfo e;
	unsigned long cnt;
	char bad[] = "/tmp/citcat-test-bad-XXXXXX";
	fd = mkstemp(bad);
	close(fd);
#define WRITE_BAD(len)                                    \
	do {                                              \
		FILE *g = fopen(bad, "wb");               \
		fwrite(buf, 1, (size_t)(len), g);         \
		fclose(g);                                \
	} while (0)
	buf[size / 2] ^= 0x40;
	WRITE_BAD(size);
	CHECK_EQ(read_all(bad, &cnt, &e), CITCAT_ERR_CHECKSUM);
	CHECK(e.offset != UINT64_MAX && e.offset < (uint64_t)size);
	buf[size / 2] ^= 0x40;
	/* Truncation anywhere -> truncated error (never a silent short read). */
	WRITE_BAD(size - 1);
	CHECK_EQ(read_all(bad, &cnt, &e), CITCAT_ERR_TRUNCATED);
	WRITE_BAD(size / 3);
	CHECK_EQ(read_all(bad, &cnt, &e), CITCAT_ERR_TRUNCATED);
	WRITE_BAD(10);
	CHECK_EQ(read_all(bad, &cnt, &e), CITCAT_ERR_TRUNCATED);
	/* Empty. */
	WRITE_BAD(0);
	CHECK_EQ(read_all(bad, &cnt, &e), CITCAT_ERR_EMPTY);
	/* Wrong magic, wrong kind, wrong version. */
	buf[0] = 'X';
	WRITE_BAD(size);
	CHECK_EQ(read_all(bad, &cnt, &e), CITCAT_ERR_MAGIC);
	memcpy(buf, "CCAT", 4);
	WRITE_BAD(size);
	CHECK_EQ(read_all(bad, &cnt, &e), CITCAT_ERR_MAGIC);
	memcpy(buf, "CITR", 4);
	buf[8] = 9;
	WRITE_BAD(size);
	CHECK_EQ(read_all(bad, &cnt, &e), CITCAT_ERR_VERSION);
	buf[8] = CITCAT_ITRACE_VERSION;
	/* Version 1 (no uncached flags, no DMA records) is refused, saying so. */
	{
		struct cc_writer *cw;
		uint8_t meta[8] = {CITCAT_ISA_ARM_A32, 0, 0, 0, 0, 0, 0, 0};
		CHECK_EQ(cc_writer_open(&cw, bad, "CITR\r\n\x1a\n", 1, meta, sizeof meta, 4096), 0);
		CHECK_EQ(cc_writer_close(cw), 0);
		CHECK_EQ(read_all(bad, &cnt, &e), CITCAT_ERR_UNSUPPORTED);
		CHECK(strstr(e.msg, "version 1") != NULL);
	}
	/* Trailing garbage after the end marker. */
	{
		FILE *g = fopen(bad, "wb");
		fwrite(buf, 1, (size_t)size, g);
		fputc(0, g);
		fclose(g);
		CHECK_EQ(read_all(bad, &cnt, &e), CITCAT_ERR_CORRUPT);
	}
	/* A chunk whose header claims one record more than its payload holds
	 * (checksum recomputed, so only the count is wrong). */
	{
		size_t c0 = 16 + 8 + 4; /* header, 8 bytes of metadata, header checksum */
		CHECK(memcmp(buf + c0, "BLK", 4) == 0);
		uint8_t *h = (uint8_t *)buf + c0;
		uint32_t nrec = (uint32_t)h[12] | (uint32_t)h[13] << 8 | (uint32_t)h[14] << 16 | (uint32_t)h[15] << 24;
		uint32_t stored = (uint32_t)h[8] | (uint32_t)h[9] << 8 | (uint32_t)h[10] << 16 | (uint32_t)h[11] << 24;
		nrec++;
		for (int i = 0; i < 4; i++)
			h[12 + i] = (uint8_t)(nrec >> (8 * i));
		XXH32_state_t *st = XXH32_createState();
		XXH32_reset(st, 0);
		XXH32_update(st, h, 20);
		XXH32_update(st, h + 24, stored);
		uint32_t ck = XXH32_digest(st);
		XXH32_freeState(st);
		uint8_t save[4];
		memcpy(save, h + 20, 4);
		for (int i = 0; i < 4; i++)
			h[20 + i] = (uint8_t)(ck >> (8 * i));
		WRITE_BAD(size);
		CHECK_EQ(read_all(bad, &cnt, &e), CITCAT_ERR_CORRUPT);
		CHECK(strstr(e.msg, "records") != NULL);
		nrec--;
		for (int i = 0; i < 4; i++)
			h[12 + i] = (uint8_t)(nrec >> (8 * i));
		memcpy(h + 20, save, 4);
	}
	/* Text file. */
	{
		FILE *g = fopen(bad, "wb");
		fputs("2 0x1000\n0 0x2000\n", g);
		fclose(g);
		CHECK_EQ(read_all(bad, &cnt, &e), CITCAT_ERR_MAGIC);
	}
	/* An aborted writer leaves no file. */
	char gone[] = "/tmp/citcat-test-gone-XXXXXX";
	fd = mkstemp(gone);
	close(fd);
	unlink(gone);
	CHECK_EQ(citcat_itrace_writer_open(&w, gone, CITCAT_ISA_ARM_A32), 0);
	rec = mk(0x100, 1, 1, 0x200);
	CHECK_EQ(citcat_itrace_write(w, &rec), 0);
	citcat_itrace_writer_abort(w);
	CHECK(access(gone, F_OK) != 0);
	test_v2(bad);
	test_after_stop(bad);

	free(buf);
	unlink(bad);
	unlink(path);
	CHECK_DONE();
}
