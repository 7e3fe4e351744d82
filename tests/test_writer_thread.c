/* common/container.c's compression thread (issue 14): a file written with
 * the thread is byte for byte the file written inline, over many chunks of
 * compressible and incompressible records; cc_writer_bytes counts the chunk
 * in flight once written, as inline; an abort with a chunk in flight leaves
 * nothing; and a write error of the thread (EFBIG past RLIMIT_FSIZE)
 * reaches the caller by close at the latest, with its errno, and leaves no
 * file. */
#include "check.h"
#include "container.h"
#include "scratch_dir.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char magic[CC_MAGIC_LEN] = "CTWT\r\n\x1a\n"; /* the container's magic form */

/* Writes NREC records (sizes 1..300, every fourth run of 64 records random,
 * the rest repetitive) to PATH with 4 KiB chunks; records cc_writer_bytes
 * after every 1000 records into BYTES.  Returns close's code. */
static int write_file(const char *path, int nrec, uint64_t *bytes, int abort_midway)
{
	struct cc_writer *w;
	int rc = cc_writer_open(&w, path, magic, 1, "m", 1, 4096);
	if (rc)
		return rc;
	uint32_t x = 12345;
	for (int i = 0; i < nrec; i++) {
		size_t n = 1 + (size_t)(i * 7919 % 300);
		uint8_t *p = cc_writer_reserve(w, n);
		if (!p) {
			int e = cc_writer_error(w)->code, en = errno;
			cc_writer_abort(w);
			errno = en;
			return e;
		}
		for (size_t j = 0; j < n; j++) {
			x = x * 1103515245u + 12345u;
			p[j] = (i / 64) % 4 == 3 ? (uint8_t)(x >> 16) : (uint8_t)(i + j % 5);
		}
		cc_writer_commit(w, n, 1);
		if (bytes && i % 1000 == 999)
			bytes[i / 1000] = cc_writer_bytes(w);
		if (abort_midway && i == nrec / 2) {
			cc_writer_abort(w);
			return 0;
		}
	}
	return cc_writer_close(w);
}

static long file_size(const char *path)
{
	struct stat st;
	return stat(path, &st) ? -1 : (long)st.st_size;
}

int main(void)
{
	CHECK(scratch_make("/tmp/citcat-wthread-XXXXXX"));
	enum { N = 20000 };
	static uint64_t b_thr[N / 1000], b_inl[N / 1000];
	cc_writer_threads = 1;
	CHECK_EQ(write_file(scratch_at("thr"), N, b_thr, 0), 0);
	cc_writer_threads = 0;
	CHECK_EQ(write_file(scratch_at("inl"), N, b_inl, 0), 0);
	cc_writer_threads = 1;
	CHECK(file_size(scratch_at("inl")) > 20 * 4096 / 2); /* many chunks */
	CHECK(scratch_same_files(scratch_at("thr"), scratch_at("inl")));
	for (int i = 0; i < N / 1000; i++)
		CHECK_EQ(b_thr[i], b_inl[i]);

	/* it reads back: every record, in order */
	struct cc_reader *r;
	CHECK_EQ(cc_reader_open(&r, scratch_at("thr"), magic, 1), 0);
	const uint8_t *data;
	size_t len, total = 0;
	uint32_t nrec, recs = 0;
	int got;
	while ((got = cc_reader_next_chunk(r, &data, &len, &nrec)) == 1) {
		total += len;
		recs += nrec;
	}
	CHECK_EQ(got, 0);
	CHECK_EQ(recs, N);
	size_t want = 0;
	for (int i = 0; i < N; i++)
		want += 1 + (size_t)(i * 7919 % 300);
	CHECK_EQ(total, want);
	cc_reader_close(r);

	/* an abort with chunks in flight leaves no file */
	remove(scratch_at("thr"));
	remove(scratch_at("inl"));
	CHECK_EQ(write_file(scratch_at("ab"), N, NULL, 1), 0);
	CHECK_EQ(scratch_entries(), 0);

	/* the thread's write error (EFBIG) reaches the caller, with its errno */
	struct rlimit old;
	CHECK_EQ(scratch_limit_fsize(64 * 1024, &old), 0);
	errno = 0;
	int rc = write_file(scratch_at("big"), N, NULL, 0);
	int e = errno;
	setrlimit(RLIMIT_FSIZE, &old);
	CHECK_EQ(rc, CITCAT_ERR_IO);
	CHECK_EQ(e, EFBIG);
	CHECK_EQ(scratch_entries(), 0);
	rmdir(scratch_dir);
	CHECK_DONE();
}
