/* common/container.c's compression thread (issue 14): a file written with
 * the thread is byte for byte the file written inline, over many chunks of
 * compressible and incompressible records; cc_writer_bytes counts the chunk
 * in flight once written, as inline; an abort with a chunk in flight leaves
 * nothing; and a write error of the thread (EFBIG past RLIMIT_FSIZE)
 * reaches the caller by close at the latest, with its errno, and leaves no
 * file. */
#include "check.h"
#include "container.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[] = "/tmp/citcat-wthread-XXXXXX";
static const char magic[CC_MAGIC_LEN] = "CTWT\r\n\x1a\n"; /* the container's magic form */

static const char *at(const char *name)
{
	static char buf[4][256];
	static int k;
	k = (k + 1) % 4;
	snprintf(buf[k], sizeof buf[k], "%s/%s", dir, name);
	return buf[k];
}

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

static int same_files(const char *a, const char *b)
{
	FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
	int same = fa && fb;
	while (same) {
		int ca = fgetc(fa), cb = fgetc(fb);
		if (ca != cb)
			same = 0;
		if (ca == EOF || cb == EOF)
			break;
	}
	if (fa)
		fclose(fa);
	if (fb)
		fclose(fb);
	return same;
}

static int entries(void)
{
	DIR *d = opendir(dir);
	int n = 0;
	struct dirent *e;
	while (d && (e = readdir(d)))
		n += e->d_name[0] != '.';
	if (d)
		closedir(d);
	return n;
}

int main(void)
{
	CHECK(mkdtemp(dir) != NULL);
	enum { N = 20000 };
	static uint64_t b_thr[N / 1000], b_inl[N / 1000];
	cc_writer_threads = 1;
	CHECK_EQ(write_file(at("thr"), N, b_thr, 0), 0);
	cc_writer_threads = 0;
	CHECK_EQ(write_file(at("inl"), N, b_inl, 0), 0);
	cc_writer_threads = 1;
	CHECK(file_size(at("inl")) > 20 * 4096 / 2); /* many chunks */
	CHECK(same_files(at("thr"), at("inl")));
	for (int i = 0; i < N / 1000; i++)
		CHECK_EQ(b_thr[i], b_inl[i]);

	/* it reads back: every record, in order */
	struct cc_reader *r;
	CHECK_EQ(cc_reader_open(&r, at("thr"), magic, 1), 0);
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
	remove(at("thr"));
	remove(at("inl"));
	CHECK_EQ(write_file(at("ab"), N, NULL, 1), 0);
	CHECK_EQ(entries(), 0);

	/* the thread's write error (EFBIG) reaches the caller, with its errno */
	signal(SIGXFSZ, SIG_IGN);
	struct rlimit old, lim;
	getrlimit(RLIMIT_FSIZE, &old);
	lim = old;
	lim.rlim_cur = 64 * 1024;
	CHECK_EQ(setrlimit(RLIMIT_FSIZE, &lim), 0);
	errno = 0;
	int rc = write_file(at("big"), N, NULL, 0);
	int e = errno;
	setrlimit(RLIMIT_FSIZE, &old);
	CHECK_EQ(rc, CITCAT_ERR_IO);
	CHECK_EQ(e, EFBIG);
	CHECK_EQ(entries(), 0);
	rmdir(dir);
	CHECK_DONE();
}
