#include "outfile.h"
#include "guard.h"
#include "stop.h"
#include "tvp.h"

#include <errno.h>
#include <fcntl.h>
#include <lz4frame.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#define LZ4_PIECE (64u << 10)

struct cc_outfile {
	FILE *f;
	char *path, *tmp;
	uint8_t *mem; /* in-memory output */
	size_t memlen, memcap;
	int to_mem;
	LZ4F_cctx *cctx;
	ZSTD_CCtx *zctx;
	struct cc_tvp_bytes *tvp;
	uint8_t *zbuf;
	size_t zcap;
	uint64_t bytes;
	int error;
	int direct;   /* written straight through: a device, a FIFO, /dev/stdout */
	int err_errno; /* errno of the first failed write */
	int sync;     /* fsync before the rename (CC_OUT_NOSYNC unset) */
	int replacing; /* the final name was a regular file at open: */
	dev_t dev;     /* ... this one */
	ino_t ino;
	void *guard;   /* guard.h token */
};

static int raw(struct cc_outfile *o, const void *p, size_t n)
{
	if (o->error)
		return o->error;
	if (!n)
		return 0; /* zstd steps may produce nothing; no copy to a NULL buffer */
	if (o->to_mem) {
		if (o->memlen + n > o->memcap) {
			size_t cap = o->memcap ? o->memcap : 4096;
			while (cap < o->memlen + n)
				cap *= 2;
			uint8_t *m = realloc(o->mem, cap);
			if (!m)
				return o->error = CITCAT_ERR_NOMEM;
			o->mem = m;
			o->memcap = cap;
		}
		memcpy(o->mem + o->memlen, p, n);
		o->memlen += n;
	} else if (n && fwrite(p, 1, n, o->f) != n) {
		o->err_errno = errno;
		return o->error = CITCAT_ERR_IO;
	}
	o->bytes += n;
	return 0;
}

/* Fills ERR and leaves errno at E, for callers that report strerror(errno). */
static int oerr(struct citcat_errinfo *err, int e, const char *fmt, const char *path)
{
	citcat_errinfo_set(err, CITCAT_ERR_IO, UINT64_MAX, fmt, path, strerror(e));
	errno = e;
	return CITCAT_ERR_IO;
}

/* Where PATH leads: 0 with *ST filled when it exists (through symbolic
 * links), 1 when it does not exist yet, or an error. */
static int classify(const char *path, struct stat *st, struct citcat_errinfo *err)
{
	if (!*path)
		return oerr(err, ENOENT, "%s: cannot create: %s (an empty name)", path);
	if (stat(path, st) == 0)
		return 0;
	int e = errno;
	struct stat lst;
	if (e == ENOENT && lstat(path, &lst) == 0)
		return oerr(err, ENOENT, "%s: cannot create: %s (a dangling symbolic link, not followed)", path);
	if (e == ENOENT)
		return 1;
	return oerr(err, e, "%s: cannot create: %s", path);
}

/* A regular file that is also this process's standard output or error, as
 * /dev/stdout, /proc/self/fd/1 or a link to them lead to when the shell
 * redirected to a file: written through that descriptor's file (appending,
 * so a shell's `>>` holds), never renamed onto.  Paths under /dev/fd and
 * /proc are treated the same way whatever file they reach. */
static int descriptor_file(const char *path, const struct stat *st)
{
	if (strncmp(path, "/dev/std", 8) == 0 || strncmp(path, "/dev/fd/", 8) == 0 || strncmp(path, "/proc/", 6) == 0)
		return 1;
	for (int fd = 1; fd <= 2; fd++) {
		struct stat s2;
		if (fstat(fd, &s2) == 0 && s2.st_dev == st->st_dev && s2.st_ino == st->st_ino)
			return 1;
	}
	return 0;
}

/* The temporary files being written, for cc_outfile_remove_temps (a second
 * Ctrl-C): slots set once the file exists, cleared before its name is freed.
 * Atomic so that outfiles opened on other threads may share the table. */
#define LIVE_TEMPS 64
static char *live_temps[LIVE_TEMPS];

static void temp_live(char *tmp)
{
	for (int i = 0; i < LIVE_TEMPS; i++) {
		char *none = NULL;
		if (__atomic_compare_exchange_n(&live_temps[i], &none, tmp, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
			return;
	}
	/* more than LIVE_TEMPS at once: this one is not removed by a forced abort */
}

static void temp_gone(char *tmp)
{
	for (int i = 0; tmp && i < LIVE_TEMPS; i++) {
		char *p = tmp;
		__atomic_compare_exchange_n(&live_temps[i], &p, NULL, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
	}
}

void cc_outfile_remove_temps(void)
{
	for (int i = 0; i < LIVE_TEMPS; i++) {
		char *p = __atomic_load_n(&live_temps[i], __ATOMIC_SEQ_CST);
		if (p)
			unlink(p);
	}
}

/* Opens the file-system output PATH: straight through for character
 * devices, FIFOs and descriptor paths; otherwise a temporary file beside
 * the final regular file, renamed at commit.  A symbolic link to a regular
 * file is written through: the link must be one the kernel lets this
 * process follow and write through (fs.protected_symlinks, the target's
 * permissions: checked with faccessat), and the temporary file goes beside
 * the link's target, which it replaces; the link stays.  A replaced file
 * keeps its mode and owner (when the owner cannot be kept, it is not
 * replaced). */
static int open_path(struct cc_outfile *o, const char *path, struct citcat_errinfo *err)
{
	struct stat st;
	int rc = classify(path, &st, err);
	if (rc < 0)
		return rc;
	if (!(o->path = strdup(path)))
		return citcat_errinfo_set(err, CITCAT_ERR_NOMEM, UINT64_MAX, "out of memory");
	if (rc == 0 && S_ISDIR(st.st_mode))
		return oerr(err, EISDIR, "%s: cannot write: %s", path);
	int exists = rc == 0;
	if (exists && (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode) || (S_ISREG(st.st_mode) && descriptor_file(path, &st)))) {
		/* O_APPEND: a descriptor path to a regular file keeps its
		 * shell's truncation or append; devices and FIFOs ignore it */
		int fd;
		while ((fd = open(path, O_WRONLY | O_APPEND | O_NOCTTY | O_CLOEXEC)) < 0 && errno == EINTR)
			if (cc_stop_requested()) /* a FIFO's open waits for a reader */
				return citcat_errinfo_set(err, CITCAT_ERR_INTERRUPTED, UINT64_MAX, "%s: interrupted", path);
		if (fd < 0 || !(o->f = fdopen(fd, "ab"))) {
			int e = errno;
			if (fd >= 0)
				close(fd);
			return oerr(err, e, "%s: cannot open: %s", path);
		}
		o->direct = 1;
		return 0;
	}
	if (exists && !S_ISREG(st.st_mode))
		return oerr(err, EINVAL, "%s: cannot write: %s (not a regular file, character device or FIFO)", path);
	/* not an input, not another output (a descriptor path above writes
	 * through standard output's own file: the guard notes that one) */
	if ((rc = cc_guard_output(path, exists ? &st : NULL, &o->guard, err)) < 0)
		return rc;
	if (exists && faccessat(AT_FDCWD, path, W_OK, AT_EACCESS) != 0)
		return oerr(err, errno, "%s: cannot write: %s", path);
	/* a regular file or a new name: rename onto the file itself, so a
	 * symbolic link keeps pointing at the new contents */
	struct stat lst;
	if (exists && lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode)) {
		char *real = realpath(path, NULL);
		if (!real)
			return oerr(err, errno, "%s: cannot resolve: %s", path);
		free(o->path);
		o->path = real;
	}
	if (exists) {
		o->replacing = 1;
		o->dev = st.st_dev;
		o->ino = st.st_ino;
	}
	if (asprintf(&o->tmp, "%s.tmp-XXXXXX", o->path) < 0) {
		o->tmp = NULL;
		return citcat_errinfo_set(err, CITCAT_ERR_NOMEM, UINT64_MAX, "out of memory");
	}
	int fd = mkostemp(o->tmp, O_CLOEXEC), e = 0;
	const char *why = "%s: cannot create: %s";
	if (fd >= 0 && exists) {
		/* the replaced file's owner, then its mode (a chown clears
		 * set-id bits); a file whose owner cannot be kept stays */
		if ((st.st_uid != geteuid() || st.st_gid != getegid()) && fchown(fd, st.st_uid, st.st_gid) != 0) {
			e = errno;
			why = "%s: cannot keep its owner: %s; not replacing it";
		} else if (fchmod(fd, st.st_mode & 07777) != 0) {
			e = errno;
			why = "%s: cannot keep its mode: %s; not replacing it";
		}
	} else if (fd >= 0) { /* mkstemp makes 0600; give a new file the usual mode */
		mode_t um = umask(0);
		umask(um);
		fchmod(fd, 0666 & ~um);
	}
	if (fd < 0 || e || !(o->f = fdopen(fd, "wb"))) {
		e = e ? e : errno;
		if (fd >= 0) {
			close(fd);
			unlink(o->tmp);
		}
		free(o->tmp);
		o->tmp = NULL;
		return oerr(err, e, why, path);
	}
	temp_live(o->tmp);
	return 0;
}

static int tvp_sink(void *ctx, const void *buf, size_t len) { return raw(ctx, buf, len); }

/* Starts a zstd frame (default level, content checksum) in O. */
static int start_zstd(struct cc_outfile *o)
{
	o->zcap = ZSTD_CStreamOutSize();
	o->zbuf = malloc(o->zcap);
	if (!o->zbuf || !(o->zctx = ZSTD_createCCtx()))
		return CITCAT_ERR_NOMEM;
	if (ZSTD_isError(ZSTD_CCtx_setParameter(o->zctx, ZSTD_c_compressionLevel, ZSTD_CLEVEL_DEFAULT)) ||
	    ZSTD_isError(ZSTD_CCtx_setParameter(o->zctx, ZSTD_c_checksumFlag, 1)))
		return CITCAT_ERR_INTERNAL;
	return 0;
}

/* Feeds LEN bytes (END: and ends the frame) through the zstd context. */
static int zstd_feed(struct cc_outfile *o, const void *buf, size_t len, int end)
{
	ZSTD_inBuffer in = {buf, len, 0};
	for (;;) {
		ZSTD_outBuffer ob = {o->zbuf, o->zcap, 0};
		size_t left = ZSTD_compressStream2(o->zctx, &ob, &in, end ? ZSTD_e_end : ZSTD_e_continue);
		if (ZSTD_isError(left))
			return o->error = CITCAT_ERR_INTERNAL;
		if (raw(o, o->zbuf, ob.pos))
			return o->error;
		if (end ? left == 0 : in.pos == in.size)
			return 0;
	}
}

int cc_outfile_open(struct cc_outfile **out, const char *path, int wrap, struct citcat_errinfo *err)
{
	*out = NULL;
	struct cc_outfile *o = calloc(1, sizeof *o);
	if (!o)
		return citcat_errinfo_set(err, CITCAT_ERR_NOMEM, UINT64_MAX, "out of memory");
	o->sync = !(wrap & CC_OUT_NOSYNC);
	wrap &= ~CC_OUT_NOSYNC;
	if (!path) {
		o->to_mem = 1;
	} else if (strcmp(path, "-") == 0) {
		o->f = stdout;
	} else {
		int rc = open_path(o, path, err);
		if (rc) {
			cc_outfile_abort(o);
			return rc;
		}
	}
	if (wrap == CC_OUT_ZSTD) {
		int rc = start_zstd(o);
		if (rc) {
			cc_outfile_abort(o);
			return citcat_errinfo_set(err, rc, UINT64_MAX, "cannot start a zstd frame: %s", citcat_errstr(rc));
		}
	} else if (wrap == CC_OUT_LZ4) {
		LZ4F_preferences_t prefs;
		memset(&prefs, 0, sizeof prefs);
		prefs.frameInfo.blockSizeID = LZ4F_max64KB;
		prefs.frameInfo.contentChecksumFlag = LZ4F_contentChecksumEnabled;
		o->zcap = LZ4F_compressBound(LZ4_PIECE, &prefs) + LZ4F_HEADER_SIZE_MAX;
		o->zbuf = malloc(o->zcap);
		if (!o->zbuf || LZ4F_isError(LZ4F_createCompressionContext(&o->cctx, LZ4F_VERSION))) {
			cc_outfile_abort(o);
			return citcat_errinfo_set(err, CITCAT_ERR_NOMEM, UINT64_MAX, "out of memory");
		}
		size_t n = LZ4F_compressBegin(o->cctx, o->zbuf, o->zcap, &prefs);
		if (LZ4F_isError(n) || raw(o, o->zbuf, n)) {
			cc_outfile_abort(o);
			return citcat_errinfo_set(err, CITCAT_ERR_IO, UINT64_MAX, "%s: cannot write", path ? path : "(memory)");
		}
	} else if (wrap == CC_OUT_TVP) {
		int rc = cc_tvp_bytes_writer_open(&o->tvp, tvp_sink, o, err);
		if (rc) {
			cc_outfile_abort(o);
			return rc;
		}
	} else if (wrap) {
		cc_outfile_abort(o);
		return citcat_errinfo_set(err, CITCAT_ERR_UNSUPPORTED, UINT64_MAX, "output wrapper %d is not supported", wrap);
	}
	*out = o;
	return 0;
}

int cc_outfile_write(struct cc_outfile *o, const void *buf, size_t len)
{
	if (o->error)
		return o->error;
	if (o->zctx)
		return zstd_feed(o, buf, len, 0);
	if (o->tvp)
		return o->error ? o->error : (o->error = cc_tvp_bytes_write(o->tvp, buf, len));
	if (!o->cctx)
		return raw(o, buf, len);
	const uint8_t *p = buf;
	while (len) {
		size_t piece = len < LZ4_PIECE ? len : LZ4_PIECE;
		size_t n = LZ4F_compressUpdate(o->cctx, o->zbuf, o->zcap, p, piece, NULL);
		if (LZ4F_isError(n))
			return o->error = CITCAT_ERR_INTERNAL;
		if (raw(o, o->zbuf, n))
			return o->error;
		p += piece;
		len -= piece;
	}
	return 0;
}

int cc_outfile_sink(void *ctx, const void *buf, size_t len) { return cc_outfile_write(ctx, buf, len); }
uint64_t cc_outfile_bytes(const struct cc_outfile *o) { return o->bytes; }

static int end_frame(struct cc_outfile *o)
{
	if (!o->error && o->tvp)
		o->error = cc_tvp_bytes_finish(o->tvp);
	if (!o->error && o->zctx)
		return zstd_feed(o, NULL, 0, 1);
	if (!o->error && o->cctx) {
		size_t n = LZ4F_compressEnd(o->cctx, o->zbuf, o->zcap, NULL);
		if (LZ4F_isError(n))
			o->error = CITCAT_ERR_INTERNAL;
		else
			raw(o, o->zbuf, n);
	}
	return o->error;
}

static void outfile_free(struct cc_outfile *o)
{
	temp_gone(o->tmp);
	cc_guard_output_done(o->guard);
	LZ4F_freeCompressionContext(o->cctx);
	ZSTD_freeCCtx(o->zctx);
	cc_tvp_bytes_free(o->tvp);
	free(o->zbuf);
	free(o->mem);
	free(o->path);
	free(o->tmp);
	free(o);
}

/* The final name must still be the regular file it was at open (or absent
 * when it was new) when the rename happens: something may have put a
 * device, a link or another file there meanwhile. */
static int still_renamable(const struct cc_outfile *o)
{
	struct stat st;
	if (lstat(o->path, &st) == 0)
		return S_ISREG(st.st_mode) && (!o->replacing || (st.st_dev == o->dev && st.st_ino == o->ino)) ? 0 : EEXIST;
	return errno == ENOENT ? 0 : errno;
}

static int commit_on_stop;
void cc_outfile_commit_on_stop(int yes) { commit_on_stop = yes; }

int cc_outfile_commit(struct cc_outfile *o, struct citcat_errinfo *err)
{
	if (!o)
		return CITCAT_ERR_INVAL;
	int rc = end_frame(o), e = rc == CITCAT_ERR_IO ? o->err_errno : 0;
	const char *name = o->path ? o->path : "standard output";
	if (!rc && o->tmp && !o->direct && cc_stop_requested() && !commit_on_stop) /* interrupted: nothing replaced */
		rc = citcat_errinfo_set(err, CITCAT_ERR_INTERRUPTED, UINT64_MAX, "%s: not written: interrupted", name);
	if (rc && rc != CITCAT_ERR_INTERRUPTED)
		citcat_errinfo_set(err, rc, UINT64_MAX, "%s: writing failed: %s", name,
				   rc == CITCAT_ERR_IO ? strerror(e) : citcat_errstr(rc));
	if (o->f == stdout) {
		if (fflush(stdout) != 0 && !rc)
			rc = oerr(err, e = errno, "%s: writing failed: %s", name);
	} else if (o->f) {
		/* the bytes reach the disk before the name does (fsync policy,
		 * outfile.h): after a crash the name holds the old file or the
		 * new one, never a part */
		if (!rc && !o->direct && o->sync && (fflush(o->f) != 0 || fsync(fileno(o->f)) != 0))
			rc = oerr(err, e = errno, "%s: writing failed: %s", name);
		if (fclose(o->f) != 0 && !rc)
			rc = oerr(err, e = errno, "%s: writing failed: %s", name);
		o->f = NULL;
		if (!o->direct) {
			int why;
			if (!rc && (why = still_renamable(o)) != 0)
				rc = oerr(err, e = why, "%s: not replacing it: %s (it is no longer the regular file it was: it changed while citcat wrote)", name);
			if (!rc && rename(o->tmp, o->path) != 0)
				rc = oerr(err, e = errno, "%s: cannot rename into place: %s", name);
			if (!rc)
				cc_guard_own(o->path);
			if (rc)
				unlink(o->tmp);
		}
	} else if (o->to_mem && !rc) {
		rc = citcat_errinfo_set(err, CITCAT_ERR_INVAL, UINT64_MAX, "in-memory output must be taken, not committed");
	}
	outfile_free(o);
	if (e)
		errno = e; /* for callers that report strerror(errno) */
	return rc;
}

int cc_outfile_take(struct cc_outfile *o, uint8_t **buf, size_t *len)
{
	if (!o || !o->to_mem) {
		cc_outfile_abort(o);
		return CITCAT_ERR_INVAL;
	}
	int rc = end_frame(o);
	if (!rc) {
		*buf = o->mem;
		*len = o->memlen;
		o->mem = NULL;
	}
	outfile_free(o);
	return rc;
}

void cc_outfile_abort(struct cc_outfile *o)
{
	if (!o)
		return;
	if (o->f == stdout)
		fflush(stdout);
	else if (o->f)
		fclose(o->f);
	if (o->tmp && !o->direct) /* never remove what this outfile did not create */
		unlink(o->tmp);
	outfile_free(o);
}

int cc_outfile_finish(struct cc_outfile *o, int rc, const struct citcat_errinfo *werr, struct citcat_errinfo *err)
{
	if (!rc)
		return cc_outfile_commit(o, err);
	if (err)
		*err = *werr;
	cc_outfile_abort(o);
	return rc;
}

/* ---- a stdio stream over an outfile ---- */

static ssize_t cookie_write(void *c, const char *buf, size_t n)
{
	struct cc_outfile *o = c;
	if (cc_outfile_write(o, buf, n)) {
		errno = o->err_errno ? o->err_errno : EIO;
		return -1;
	}
	return (ssize_t)n;
}

FILE *cc_outfile_stream(struct cc_outfile *o)
{
	cookie_io_functions_t io = {NULL, cookie_write, NULL, NULL};
	return o ? fopencookie(o, "w", io) : NULL;
}

int cc_outfile_errinfo(const struct cc_outfile *o, struct citcat_errinfo *err)
{
	if (!o || !o->error)
		return 0;
	const char *name = o->path ? o->path : o->to_mem ? "(memory)" : "standard output";
	return citcat_errinfo_set(err, o->error, UINT64_MAX, "%s: writing failed: %s", name,
				  o->error == CITCAT_ERR_IO ? strerror(o->err_errno ? o->err_errno : EIO) : citcat_errstr(o->error));
}
