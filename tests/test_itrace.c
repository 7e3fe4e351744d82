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

int main(void)
{
	char path[] = "/tmp/citcat-test-itrace-XXXXXX";
	int fd = mkstemp(path);
	close(fd);
	test_stop_record(path);
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
	buf[8] = 1;
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

	free(buf);
	unlink(bad);
	unlink(path);
	CHECK_DONE();
}
