/* A test's scratch directory and the checks on it that the writer-thread
 * tests share (test_writer_thread.c, test_itrace_thread.c): paths inside
 * it, byte-for-byte file comparison, the count of files left, and a
 * RLIMIT_FSIZE for provoking EFBIG. */
#ifndef CITCAT_TESTS_SCRATCH_DIR_H
#define CITCAT_TESTS_SCRATCH_DIR_H

#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

static char scratch_dir[256];

/* Makes the directory from TEMPLATE (ending in XXXXXX); 0 when it failed. */
static int scratch_make(const char *template)
{
	snprintf(scratch_dir, sizeof scratch_dir, "%s", template);
	return mkdtemp(scratch_dir) != NULL;
}

/* SCRATCH_DIR/NAME, in one of four rotating buffers. */
static const char *scratch_at(const char *name)
{
	static char buf[4][320];
	static int k;
	k = (k + 1) % 4;
	snprintf(buf[k], sizeof buf[k], "%s/%s", scratch_dir, name);
	return buf[k];
}

/* 1 when the files A and B both open and hold the same bytes. */
static int scratch_same_files(const char *a, const char *b)
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

/* How many entries (other than dot files) the directory holds. */
static int scratch_entries(void)
{
	DIR *d = opendir(scratch_dir);
	int n = 0;
	struct dirent *e;
	while (d && (e = readdir(d)))
		n += e->d_name[0] != '.';
	if (d)
		closedir(d);
	return n;
}

/* Ignores SIGXFSZ and lowers RLIMIT_FSIZE to BYTES, the old limit into
 * *OLD (for setrlimit afterwards); setrlimit's result. */
static int scratch_limit_fsize(rlim_t bytes, struct rlimit *old)
{
	signal(SIGXFSZ, SIG_IGN);
	getrlimit(RLIMIT_FSIZE, old);
	struct rlimit lim = *old;
	lim.rlim_cur = bytes;
	return setrlimit(RLIMIT_FSIZE, &lim);
}

#endif
