/* The itrace writer's encoder thread and chunk cuts (formats/itrace.c,
 * issue 14): a file written through the thread is byte for byte the file
 * written inline, over many chunks and queue hand-overs; it reads back
 * record for record; each citcat_itrace_writer_cut ends a chunk exactly
 * there (and a cut on an empty chunk adds none); an abort with batches in
 * flight leaves nothing; and a write error of the thread (EFBIG past
 * RLIMIT_FSIZE) reaches the caller with its errno and a file offset, and
 * leaves no file. */
#include "check.h"
#include "container.h"
#include "scratch_dir.h"
#include "itrace.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>


enum { N = 400000 };
/* record indices before which the writer cuts (two at one place: the
 * second cut finds an empty chunk) */
static const int cuts[] = {0, 1, 777, 777, 150000, 150001, 399999};

/* Record I of the test trace (deterministic): instructions with 0..3
 * accesses, an occasional branch, IRQ and DMA. */
static void make(int i, struct citcat_itrace_rec *r, uint64_t *pc)
{
	uint32_t x = (uint32_t)i * 2654435761u;
	memset(r, 0, sizeof *r);
	if (i % 5003 == 17) {
		r->kind = CITCAT_REC_DMA;
		r->pc = 0x80000 + (x & 0xfc0);
		r->word = 64;
		return;
	}
	if (i % 4001 == 9) {
		r->kind = CITCAT_REC_IRQ;
		r->line = 5;
		r->pc = *pc;
		*pc = 0x18;
		return;
	}
	if (x % 7 == 0)
		*pc = 0x1000 + (x >> 8) % 0x4000 * 4;
	r->kind = CITCAT_REC_INSN;
	r->pc = *pc;
	r->word = 0xe5900000u | (uint32_t)((*pc >> 2) & 0xfff);
	r->size = 4;
	r->n_acc = (x >> 3) % 4;
	for (uint32_t k = 0; k < r->n_acc; k++) {
		r->acc[k].addr = 0x40000 + ((x >> 5) % 4096) * 4 + k * 4;
		r->acc[k].size = 4;
		r->acc[k].write = (x >> 20) & 1;
		r->acc[k].value = (x >> 16) % 5 == 0 ? x * 40503u : k;
	}
	*pc += 4;
}

/* Writes the test trace to PATH (cutting at CUTS); stops after ABORT_AT
 * records with an abort when it is not 0.  Returns close's code, the
 * writer's error in *ERR. */
static int write_file(const char *path, int abort_at, struct citcat_errinfo *err)
{
	struct citcat_itrace_writer *w;
	static struct citcat_itrace_rec r;
	uint64_t pc = 0x1000;
	int rc = citcat_itrace_writer_open(&w, path, CITCAT_ISA_ARM_A32);
	size_t c = 0;
	for (int i = 0; i < N && !rc; i++) {
		while (c < sizeof cuts / sizeof cuts[0] && cuts[c] == i && !rc) {
			rc = citcat_itrace_writer_cut(w);
			c++;
		}
		if (abort_at && i == abort_at) {
			citcat_itrace_writer_abort(w);
			return 0;
		}
		make(i, &r, &pc);
		if (!rc)
			rc = citcat_itrace_write(w, &r);
	}
	if (rc) {
		int en = errno;
		*err = *citcat_itrace_writer_error(w);
		citcat_itrace_writer_abort(w);
		errno = en;
		return rc;
	}
	return citcat_itrace_writer_close(w);
}

int main(void)
{
	struct citcat_errinfo err = {0};
	CHECK(scratch_make("/tmp/citcat-itthr-XXXXXX"));
	itrace_encoder_thread = 1; /* off by default (formats/itrace.h); tested here */
	cc_writer_threads = 1;
	CHECK_EQ(write_file(scratch_at("thr"), 0, &err), 0);
	cc_writer_threads = 0;
	CHECK_EQ(write_file(scratch_at("inl"), 0, &err), 0);
	cc_writer_threads = 1;
	CHECK(scratch_same_files(scratch_at("thr"), scratch_at("inl")));

	/* it reads back record for record */
	struct citcat_itrace_reader *rd;
	static struct citcat_itrace_rec got, want;
	uint64_t pc = 0x1000;
	CHECK_EQ(citcat_itrace_reader_open(&rd, scratch_at("thr")), 0);
	citcat_itrace_reader_dma(rd, 1);
	int i = 0, k;
	while ((k = citcat_itrace_next(rd, &got)) == 1 && i < N) {
		make(i++, &want, &pc);
		if (!citcat_itrace_rec_equal(&got, &want)) {
			CHECK(!"record differs");
			break;
		}
	}
	CHECK_EQ(k, 0);
	CHECK_EQ(i, N);
	citcat_itrace_reader_close(rd);

	/* every cut is a chunk boundary; the other chunks are full-size ones */
	struct cc_reader *cr;
	CHECK_EQ(cc_reader_open(&cr, scratch_at("thr"), "CITR\r\n\x1a\n", CITCAT_ITRACE_VERSION), 0);
	const uint8_t *data;
	size_t len;
	uint32_t nrec;
	uint64_t pos = 0;
	int chunks = 0;
	size_t c = 1; /* a cut at 0 makes no chunk boundary */
	while ((k = cc_reader_next_chunk(cr, &data, &len, &nrec)) == 1) {
		CHECK(nrec > 0);
		pos += nrec;
		chunks++;
		while (c < sizeof cuts / sizeof cuts[0] && (uint64_t)cuts[c] < pos)
			c++;
		if (c < sizeof cuts / sizeof cuts[0] && (uint64_t)cuts[c] == pos)
			c++; /* this chunk ends at a cut */
		else if (pos != N)
			CHECK(len > (1u << 20) - 2000); /* ended because it was full */
	}
	CHECK_EQ(k, 0);
	CHECK_EQ(pos, N);
	CHECK_EQ(c, sizeof cuts / sizeof cuts[0]);
	CHECK(chunks >= 6); /* the 5 distinct non-zero cuts, plus full chunks */
	cc_reader_close(cr);
	remove(scratch_at("thr"));
	remove(scratch_at("inl"));

	/* an abort with batches in flight leaves no file */
	CHECK_EQ(write_file(scratch_at("ab"), N / 2, &err), 0);
	CHECK_EQ(scratch_entries(), 0);

	/* the thread's write error (EFBIG) reaches the caller with its errno
	 * and the file offset where the failed write began */
	struct rlimit old;
	CHECK_EQ(scratch_limit_fsize(1 << 20, &old), 0);
	errno = 0;
	memset(&err, 0, sizeof err);
	int rc = write_file(scratch_at("big"), 0, &err);
	int e = errno;
	setrlimit(RLIMIT_FSIZE, &old);
	CHECK_EQ(rc, CITCAT_ERR_IO);
	CHECK_EQ(e, EFBIG);
	CHECK_EQ(err.code, CITCAT_ERR_IO);
	/* the output is buffered: the chunk being written when the kernel
	 * refused lies past the limit, within the file's few MiB */
	CHECK(err.offset >= (1u << 20) && err.offset < (16u << 20));
	CHECK_EQ(scratch_entries(), 0);
	rmdir(scratch_dir);
	CHECK_DONE();
}
