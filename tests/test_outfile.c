/* common/outfile.c: which outputs are renamed into place and which are
 * written straight through (issue 15, defect 2), that nothing the outfile
 * did not create is ever removed or replaced, and that the errno of a
 * failure reaches the message.  Device nodes (mknod, root only: skipped with
 * a message otherwise), FIFOs and links are made in a scratch folder of the
 * test's own, never the system's /dev. */
#include "check.h"
#include "guard.h"
#include "input.h"
#include "outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

static char dir[] = "/tmp/citcat-outfile-XXXXXX";

static const char *at(const char *name)
{
	static char buf[4][256];
	static int k;
	k = (k + 1) % 4;
	snprintf(buf[k], sizeof buf[k], "%s/%s", dir, name);
	return buf[k];
}

/* Writes TEXT to PATH through an outfile and commits; returns the commit's code. */
static int put(const char *path, const char *text, struct citcat_errinfo *err)
{
	struct cc_outfile *o;
	int rc = cc_outfile_open(&o, path, 0, err);
	if (rc)
		return rc;
	cc_outfile_write(o, text, strlen(text));
	return cc_outfile_commit(o, err);
}

static int file_is(const char *path, const char *text)
{
	char buf[256];
	FILE *f = fopen(path, "rb");
	if (!f)
		return 0;
	size_t n = fread(buf, 1, sizeof buf, f);
	fclose(f);
	return n == strlen(text) && memcmp(buf, text, n) == 0;
}

/* No PATH.tmp-* is left in the scratch folder. */
static int no_temporaries(void)
{
	char cmd[300];
	snprintf(cmd, sizeof cmd, "ls -a %s | grep -q 'tmp-'", dir);
	return system(cmd) != 0;
}

static int is_chr(const char *path, unsigned maj, unsigned min)
{
	struct stat st;
	return lstat(path, &st) == 0 && S_ISCHR(st.st_mode) && major(st.st_rdev) == maj && minor(st.st_rdev) == min;
}

static void test_regular(void)
{
	struct citcat_errinfo err = {0};
	/* a new name, then a regular file replaced */
	CHECK_EQ(put(at("new"), "one", &err), 0);
	CHECK(file_is(at("new"), "one"));
	CHECK_EQ(put(at("new"), "two", &err), 0);
	CHECK(file_is(at("new"), "two"));
	/* abort keeps what was there and leaves nothing behind */
	struct cc_outfile *o;
	CHECK_EQ(cc_outfile_open(&o, at("new"), 0, &err), 0);
	cc_outfile_write(o, "three", 5);
	cc_outfile_abort(o);
	CHECK(file_is(at("new"), "two"));
	CHECK(no_temporaries());
	/* a link to a regular file stays a link; its target gets the bytes */
	CHECK_EQ(symlink("new", at("link")), 0);
	CHECK_EQ(put(at("link"), "four", &err), 0);
	struct stat st;
	CHECK(lstat(at("link"), &st) == 0 && S_ISLNK(st.st_mode));
	CHECK(file_is(at("new"), "four"));
	/* a dangling link is refused and left alone */
	CHECK_EQ(symlink("missing", at("dangling")), 0);
	CHECK_EQ(put(at("dangling"), "x", &err), CITCAT_ERR_IO);
	CHECK(strstr(err.msg, "No such file or directory") != NULL);
	CHECK(lstat(at("dangling"), &st) == 0 && S_ISLNK(st.st_mode));
	CHECK(access(at("missing"), F_OK) != 0);
	CHECK(no_temporaries());
}

static void test_refused(void)
{
	struct citcat_errinfo err = {0};
	struct cc_outfile *o = NULL;
	errno = 0;
	CHECK_EQ(cc_outfile_open(&o, "", 0, &err), CITCAT_ERR_IO);
	CHECK(strstr(err.msg, "No such file or directory") != NULL);
	CHECK_EQ(errno, ENOENT);
	CHECK(o == NULL);
	CHECK_EQ(mkdir(at("dir"), 0755), 0);
	CHECK_EQ(cc_outfile_open(&o, at("dir"), 0, &err), CITCAT_ERR_IO);
	CHECK(strstr(err.msg, "Is a directory") != NULL);
	CHECK_EQ(errno, EISDIR);
	CHECK_EQ(cc_outfile_open(&o, at("nodir/x"), 0, &err), CITCAT_ERR_IO);
	CHECK(strstr(err.msg, "No such file or directory") != NULL);
	struct stat st;
	CHECK(stat(at("dir"), &st) == 0 && S_ISDIR(st.st_mode));
	CHECK(no_temporaries());
}

static void test_fifo(void)
{
	struct citcat_errinfo err = {0};
	CHECK_EQ(mkfifo(at("fifo"), 0644), 0);
	/* a reader first, so the writer's open does not wait */
	int rd = open(at("fifo"), O_RDONLY | O_NONBLOCK);
	CHECK(rd >= 0);
	CHECK_EQ(put(at("fifo"), "through the fifo", &err), 0);
	char buf[64] = {0};
	CHECK_EQ(read(rd, buf, sizeof buf - 1), 16);
	CHECK(strcmp(buf, "through the fifo") == 0);
	close(rd);
	struct stat st;
	CHECK(lstat(at("fifo"), &st) == 0 && S_ISFIFO(st.st_mode));
	/* an aborted straight-through output is not removed */
	rd = open(at("fifo"), O_RDONLY | O_NONBLOCK);
	struct cc_outfile *o;
	CHECK_EQ(cc_outfile_open(&o, at("fifo"), 0, &err), 0);
	cc_outfile_abort(o);
	close(rd);
	CHECK(lstat(at("fifo"), &st) == 0 && S_ISFIFO(st.st_mode));
	CHECK(no_temporaries());
}

/* The final name turns into a FIFO between open and commit: not replaced. */
static void test_swapped(void)
{
	struct citcat_errinfo err = {0};
	struct cc_outfile *o;
	CHECK_EQ(cc_outfile_open(&o, at("swapped"), 0, &err), 0);
	cc_outfile_write(o, "late", 4);
	CHECK_EQ(mkfifo(at("swapped"), 0644), 0);
	CHECK_EQ(cc_outfile_commit(o, &err), CITCAT_ERR_IO);
	CHECK(strstr(err.msg, "no longer the regular file") != NULL);
	struct stat st;
	CHECK(lstat(at("swapped"), &st) == 0 && S_ISFIFO(st.st_mode));
	CHECK(no_temporaries());
}

static void test_devices(void)
{
	if (geteuid() != 0 || mknod(at("null"), S_IFCHR | 0666, makedev(1, 3)) != 0 ||
	    mknod(at("full"), S_IFCHR | 0666, makedev(1, 7)) != 0) {
		printf("test_outfile: skipping the device-node checks (mknod needs root)\n");
		return;
	}
	struct citcat_errinfo err = {0};
	CHECK_EQ(put(at("null"), "gone", &err), 0);
	CHECK(is_chr(at("null"), 1, 3));
	/* /dev/full: the write error is reported with its errno, through LZ4 too */
	for (int lz4 = 0; lz4 <= 1; lz4++) {
		struct cc_outfile *o;
		CHECK_EQ(cc_outfile_open(&o, at("full"), lz4, &err), 0);
		static char big[1 << 17];
		cc_outfile_write(o, big, sizeof big);
		errno = 0;
		CHECK_EQ(cc_outfile_commit(o, &err), CITCAT_ERR_IO);
		CHECK(strstr(err.msg, "No space left on device") != NULL);
		CHECK_EQ(errno, ENOSPC);
		CHECK(is_chr(at("full"), 1, 7));
	}
	/* a link to a device is written through and stays a link */
	CHECK_EQ(symlink("null", at("nulllink")), 0);
	CHECK_EQ(put(at("nulllink"), "gone", &err), 0);
	struct stat st;
	CHECK(lstat(at("nulllink"), &st) == 0 && S_ISLNK(st.st_mode));
	CHECK(is_chr(at("null"), 1, 3));
	/* abort on a device removes nothing */
	struct cc_outfile *o;
	CHECK_EQ(cc_outfile_open(&o, at("null"), 0, &err), 0);
	cc_outfile_abort(o);
	CHECK(is_chr(at("null"), 1, 3));
	CHECK(no_temporaries());
}

/* Issue 29: the file guard (guard.h) refuses an output that is an input
 * opened through the input layer, under any name, in either order; a file
 * the process wrote itself may be read and replaced again; a replaced file
 * keeps its mode; a FIFO recorded in a file is never opened; a FIFO the
 * user named is copied once and read as often as needed. */
static void test_guard(void)
{
	struct citcat_errinfo err = {0};
	CHECK_EQ(put(at("in.txt"), "input", &err), 0);
	CHECK_EQ(link(at("in.txt"), at("hard.txt")), 0);
	CHECK_EQ(symlink("in.txt", at("sym.txt")), 0);
	cc_guard_enable(1);
	struct cc_input *in;
	CHECK_EQ(cc_input_open(&in, at("in.txt"), &err), 0);
	cc_input_close(in); /* read whole, closed: still an input */
	CHECK_EQ(put(at("in.txt"), "over", &err), CITCAT_ERR_IO);
	CHECK(strstr(err.msg, "refusing to write over the input") != NULL);
	CHECK_EQ(put(at("hard.txt"), "over", &err), CITCAT_ERR_IO);
	CHECK_EQ(put(at("sym.txt"), "over", &err), CITCAT_ERR_IO);
	CHECK(file_is(at("in.txt"), "input"));
	/* the other order: an output being written, then the same file read */
	struct cc_outfile *o;
	CHECK_EQ(put(at("out.txt"), "first", &err), 0); /* committed: the process's own */
	CHECK_EQ(cc_input_open(&in, at("out.txt"), &err), 0);
	cc_input_close(in);
	CHECK_EQ(put(at("out.txt"), "second", &err), 0); /* its own file: replaced again */
	CHECK(file_is(at("out.txt"), "second"));
	CHECK_EQ(put(at("other.txt"), "x", &err), 0);
	CHECK_EQ(cc_outfile_open(&o, at("other.txt"), 0, &err), 0);
	CHECK_EQ(cc_input_open(&in, at("other.txt"), &err), CITCAT_ERR_IO); /* being replaced: not read */
	CHECK(strstr(err.msg, "which this command is writing") != NULL);
	cc_outfile_abort(o);
	CHECK_EQ(chmod(at("in.txt"), 0644), 0);
	CHECK_EQ(cc_outfile_open(&o, at("new.txt"), 0, &err), 0);
	struct cc_outfile *o2;
	CHECK_EQ(cc_outfile_open(&o2, at("new.txt"), 0, &err), CITCAT_ERR_IO); /* two outputs, one new name */
	CHECK(strstr(err.msg, "the same file as the output") != NULL);
	cc_outfile_abort(o);
	cc_guard_enable(0);
	cc_guard_reset();
	/* a replaced file keeps its mode */
	CHECK_EQ(put(at("m.txt"), "a", &err), 0);
	CHECK_EQ(chmod(at("m.txt"), 0600), 0);
	CHECK_EQ(put(at("m.txt"), "b", &err), 0);
	struct stat st;
	CHECK(stat(at("m.txt"), &st) == 0 && (st.st_mode & 07777) == 0600);
	/* a recorded path naming a FIFO: refused at once, never opened */
	CHECK_EQ(mkfifo(at("rec.fifo"), 0644), 0);
	int fd;
	CHECK_EQ(cc_input_open_fd(at("rec.fifo"), CC_IN_RECORDED, &fd, &err), CITCAT_ERR_IO);
	CHECK(strstr(err.msg, "FIFO, not opened") != NULL);
	/* a named FIFO: copied at its first open, read again by the second */
	pid_t pid = fork();
	if (pid == 0) {
		int w = open(at("rec.fifo"), O_WRONLY);
		ssize_t k = write(w, "fifo bytes", 10);
		_exit(k == 10 ? 0 : 1);
	}
	for (int pass = 0; pass < 2; pass++) {
		uint8_t b[16] = {0};
		CHECK_EQ(cc_input_open_flags(&in, at("rec.fifo"), CC_IN_RAW, &err), 0);
		CHECK_EQ(cc_input_read(in, b, sizeof b), 10);
		CHECK(memcmp(b, "fifo bytes", 10) == 0);
		cc_input_close(in);
	}
	int status;
	CHECK(waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0);
	CHECK(no_temporaries());
}

int main(void)
{
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	test_regular();
	test_refused();
	test_fifo();
	test_swapped();
	test_devices();
	test_guard();
	char cmd[300];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", dir);
	CHECK_DONE();
}
