/* Segment bundles (SEGIDX.md). */
#include "segidx.h"
#include "bytes.h"
#include "input.h"
#include "outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

/* The smallest member: a container header with no metadata, its checksum,
 * no chunk and the end marker (CONTAINER.md). */
#define MEMBER_MIN (16 + 4 + 24)

struct cc_segidx {
	const uint8_t *base;
	size_t size;
	void *map; /* munmap on close, when not NULL */
	size_t map_len;
	int bundle;
	uint64_t n;
	struct cc_segidx_entry *e;
};

uint64_t cc_segidx_count(const struct cc_segidx *sx) { return sx ? sx->n : 0; }
int cc_segidx_is_bundle(const struct cc_segidx *sx) { return sx && sx->bundle; }

void cc_segidx_close(struct cc_segidx *sx)
{
	if (!sx)
		return;
	if (sx->map)
		munmap(sx->map, sx->map_len);
	free(sx->e);
	free(sx);
}

static int is_bundle_head(const uint8_t *b, size_t len, const char magic[CC_MAGIC_LEN], uint16_t version)
{
	return b && len >= 10 && memcmp(b, magic, CC_MAGIC_LEN) == 0 && cc_get16(b + 8) == version;
}

/* Reads and checks the header, trailer and index of the SIZE bytes at B. */
static int parse(struct cc_segidx *sx, struct citcat_errinfo *err)
{
	const uint8_t *b = sx->base;
	uint64_t size = sx->size;
	if (size < CC_SEGIDX_HEAD + CC_SEGIDX_TRAILER + 16)
		return citcat_errinfo_set(err, CITCAT_ERR_TRUNCATED, size,
					  "segment bundle of %llu bytes is too short for its header, index and trailer",
					  (unsigned long long)size);
	if (cc_get16(b + 10))
		return citcat_errinfo_set(err, CITCAT_ERR_CORRUPT, 10, "reserved bundle header flags 0x%04x are set",
					  cc_get16(b + 10));
	if (XXH32(b, 12, 0) != cc_get32(b + 12))
		return citcat_errinfo_set(err, CITCAT_ERR_CHECKSUM, 12, "bundle header checksum mismatch");
	const uint8_t *t = b + size - CC_SEGIDX_TRAILER;
	uint64_t toff = size - CC_SEGIDX_TRAILER;
	if (memcmp(t, "SIDX", 4) != 0)
		return citcat_errinfo_set(err, CITCAT_ERR_TRUNCATED, toff,
					  "no segment index trailer at the end of the file (truncated?)");
	if (XXH32(t, 12, 0) != cc_get32(t + 12))
		return citcat_errinfo_set(err, CITCAT_ERR_CHECKSUM, toff + 12, "segment index trailer checksum mismatch");
	uint64_t ioff = cc_get64(t + 4);
	if (ioff < CC_SEGIDX_HEAD + MEMBER_MIN || ioff > toff - 16)
		return citcat_errinfo_set(err, CITCAT_ERR_CORRUPT, toff + 4,
					  "segment index offset %llu lies outside the file (%llu..%llu)", (unsigned long long)ioff,
					  (unsigned long long)(CC_SEGIDX_HEAD + MEMBER_MIN), (unsigned long long)(toff - 16));
	const uint8_t *x = b + ioff;
	if (memcmp(x, "SIX", 4) != 0)
		return citcat_errinfo_set(err, CITCAT_ERR_CORRUPT, ioff, "no segment index at file offset %llu",
					  (unsigned long long)ioff);
	uint64_t n = cc_get32(x + 4);
	if (n == 0 || n > CC_SEGIDX_MAX)
		return citcat_errinfo_set(err, CITCAT_ERR_CORRUPT, ioff + 4, "segment count %llu is out of range (1..%u)",
					  (unsigned long long)n, CC_SEGIDX_MAX);
	if (cc_get32(x + 8))
		return citcat_errinfo_set(err, CITCAT_ERR_CORRUPT, ioff + 8, "reserved segment index field is 0x%08x, not 0",
					  cc_get32(x + 8));
	if (ioff + 12 + n * CC_SEGIDX_ENTRY + 4 != toff)
		return citcat_errinfo_set(err, CITCAT_ERR_CORRUPT, ioff + 4,
					  "segment count %llu disagrees with the index's length (%llu bytes before the trailer)",
					  (unsigned long long)n, (unsigned long long)(toff - ioff));
	uint64_t ilen = 12 + n * CC_SEGIDX_ENTRY;
	if (XXH32(x, ilen, 0) != cc_get32(x + ilen))
		return citcat_errinfo_set(err, CITCAT_ERR_CHECKSUM, ioff + ilen, "segment index checksum mismatch");
	if (!(sx->e = calloc(n, sizeof *sx->e)))
		return citcat_errinfo_set(err, CITCAT_ERR_NOMEM, ioff + 4, "out of memory for %llu index entries",
					  (unsigned long long)n);
	uint64_t next = CC_SEGIDX_HEAD;
	for (uint64_t k = 0; k < n; k++) {
		const uint8_t *q = x + 12 + k * CC_SEGIDX_ENTRY;
		uint64_t qo = ioff + 12 + k * CC_SEGIDX_ENTRY;
		struct cc_segidx_entry *e = &sx->e[k];
		e->offset = cc_get64(q);
		e->length = cc_get64(q + 8);
		e->insns = cc_get64(q + 16);
		e->bcount = cc_get64(q + 24);
		if (e->offset != next)
			return citcat_errinfo_set(err, CITCAT_ERR_CORRUPT, qo,
						  "segment %llu starts at file offset %llu, not %llu where the previous one ends "
						  "(segments must follow each other without gaps or overlap)",
						  (unsigned long long)k, (unsigned long long)e->offset, (unsigned long long)next);
		if (e->length < MEMBER_MIN || e->length > ioff - e->offset)
			return citcat_errinfo_set(err, CITCAT_ERR_CORRUPT, qo + 8,
						  "segment %llu's length %llu runs past the index at %llu (or is below %u)",
						  (unsigned long long)k, (unsigned long long)e->length, (unsigned long long)ioff,
						  MEMBER_MIN);
		next = e->offset + e->length;
		if (k == 0 ? e->insns || e->bcount : e->insns <= sx->e[k - 1].insns || e->bcount < sx->e[k - 1].bcount)
			return citcat_errinfo_set(err, CITCAT_ERR_CORRUPT, qo + 16,
						  k == 0 ? "segment 0 does not start at instruction 0 and branch count 0"
							 : "segment %llu's start (instruction %llu, branch count %llu) is not after "
							   "segment %llu's",
						  (unsigned long long)k, (unsigned long long)e->insns, (unsigned long long)e->bcount,
						  (unsigned long long)(k - 1));
	}
	if (next != ioff)
		return citcat_errinfo_set(err, CITCAT_ERR_CORRUPT, ioff + 12 + (n - 1) * CC_SEGIDX_ENTRY + 8,
					  "the last segment ends at file offset %llu, not at the index (%llu)",
					  (unsigned long long)next, (unsigned long long)ioff);
	sx->n = n;
	sx->bundle = 1;
	return 0;
}

int cc_segidx_open_mem(struct cc_segidx **out, const void *buf, size_t len, const char magic[CC_MAGIC_LEN],
		       uint16_t version, struct citcat_errinfo *err)
{
	*out = NULL;
	struct cc_segidx *sx = calloc(1, sizeof *sx);
	if (!sx)
		return citcat_errinfo_set(err, CITCAT_ERR_NOMEM, UINT64_MAX, "out of memory");
	sx->base = buf;
	sx->size = len;
	if (!is_bundle_head(buf, len, magic, version)) {
		sx->n = 1;
		*out = sx;
		return 0;
	}
	int rc = parse(sx, err);
	if (rc) {
		cc_segidx_close(sx);
		return rc;
	}
	*out = sx;
	return 0;
}

/* Copies the unwrapped stream IN into an unlinked temporary file; its
 * descriptor, or -1 with ERR set. */
static int spill(struct cc_input *in, struct citcat_errinfo *err)
{
	const char *dir = getenv("TMPDIR");
	char name[4096];
	snprintf(name, sizeof name, "%s/citcat-bundle-XXXXXX", dir && *dir ? dir : "/tmp");
	int fd = mkstemp(name);
	if (fd < 0) {
		citcat_errinfo_set(err, CITCAT_ERR_IO, UINT64_MAX, "cannot create a temporary file in %s: %s",
				   dir && *dir ? dir : "/tmp", strerror(errno));
		return -1;
	}
	unlink(name);
	static const size_t bufsz = 1u << 16;
	uint8_t *b = malloc(bufsz);
	long k;
	while (b && (k = cc_input_read(in, b, bufsz)) > 0)
		if (write(fd, b, (size_t)k) != k) {
			citcat_errinfo_set(err, CITCAT_ERR_IO, UINT64_MAX, "writing a temporary file failed: %s", strerror(errno));
			free(b);
			close(fd);
			return -1;
		}
	if (!b || k < 0) {
		if (b)
			*err = *cc_input_error(in);
		else
			citcat_errinfo_set(err, CITCAT_ERR_NOMEM, UINT64_MAX, "out of memory");
		free(b);
		close(fd);
		return -1;
	}
	free(b);
	return fd;
}

static int is_regular(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

int cc_segidx_open(struct cc_segidx **out, const char *path, const char magic[CC_MAGIC_LEN], uint16_t version,
		   struct citcat_errinfo *err)
{
	*out = NULL;
	if (!path)
		return citcat_errinfo_set(err, CITCAT_ERR_INVAL, UINT64_MAX, "no path");
	struct citcat_errinfo dummy;
	if (!err)
		err = &dummy;
	struct cc_input *in;
	/* a source read once ("-", a FIFO: the input layer may have copied
	 * it, but a streaming command reads it as it comes) goes through a
	 * copy of its own below */
	int stdin_ = strcmp(path, "-") == 0 || !is_regular(path);
	int rc = cc_input_open(&in, path, err);
	if (rc) /* the caller's own open reports it again, the same way; not an interruption, nor a source read once */
		return stdin_ || rc == CITCAT_ERR_INTERRUPTED ? rc : 0;
	const uint8_t *head;
	long got = cc_input_peek(in, &head, 10);
	if (got < 0 && (stdin_ || got == CITCAT_ERR_INTERRUPTED)) {
		*err = *cc_input_error(in);
		cc_input_close(in);
		return (int)got;
	}
	if (got < 0 || (!is_bundle_head(head, (size_t)got, magic, version) && !stdin_)) {
		/* not a bundle: read by path as before */
		cc_input_close(in);
		return 0;
	}
	int fd = -1;
	struct stat pst; /* a plain regular file is mapped; anything else is copied first */
	if (cc_input_wrap(in) == CC_WRAP_NONE && !stdin_ && stat(path, &pst) == 0 && S_ISREG(pst.st_mode)) {
		rc = cc_input_open_fd(path, CC_IN_FILE, &fd, err);
	} else if ((fd = spill(in, err)) < 0) {
		rc = err->code ? err->code : CITCAT_ERR_IO;
	}
	cc_input_close(in);
	if (rc)
		return rc;
	struct stat st;
	if (fstat(fd, &st) || st.st_size <= 0) {
		close(fd);
		return citcat_errinfo_set(err, CITCAT_ERR_EMPTY, 0, "file is empty");
	}
	void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (m == MAP_FAILED)
		return citcat_errinfo_set(err, CITCAT_ERR_IO, UINT64_MAX, "cannot map the file: %s", strerror(errno));
	struct cc_segidx *sx;
	if ((rc = cc_segidx_open_mem(&sx, m, (size_t)st.st_size, magic, version, err))) {
		munmap(m, (size_t)st.st_size);
		return rc;
	}
	sx->map = m;
	sx->map_len = (size_t)st.st_size;
	*out = sx;
	return 0;
}

int cc_segidx_member(const struct cc_segidx *sx, uint64_t k, const uint8_t **p, size_t *len, struct cc_segidx_entry *e,
		     struct citcat_errinfo *err)
{
	if (!sx || k >= sx->n)
		return citcat_errinfo_set(err, CITCAT_ERR_INVAL, UINT64_MAX, "the file holds %llu segment%s, no segment %llu",
					  (unsigned long long)cc_segidx_count(sx), cc_segidx_count(sx) == 1 ? "" : "s",
					  (unsigned long long)k);
	struct cc_segidx_entry whole = {0, sx->size, 0, 0};
	const struct cc_segidx_entry *m = sx->bundle ? &sx->e[k] : &whole;
	*p = sx->base + m->offset;
	*len = (size_t)m->length;
	if (e)
		*e = *m;
	return 0;
}

int cc_segidx_write(const char *path, const char magic[CC_MAGIC_LEN], uint16_t version, uint64_t n,
		    const char *const *members, const struct cc_segidx_entry *ein, struct citcat_errinfo *err)
{
	if (!path || !n || n > CC_SEGIDX_MAX || !members || !ein)
		return citcat_errinfo_set(err, CITCAT_ERR_INVAL, UINT64_MAX, "bad segment bundle arguments");
	int wrap = cc_wrap_by_suffix(path, NULL);
	struct cc_outfile *o;
	int rc = cc_outfile_open(&o, path, wrap == CC_WRAP_XZ ? CC_OUT_PLAIN : wrap, err);
	if (rc)
		return rc;
	size_t ilen = 12 + (size_t)n * CC_SEGIDX_ENTRY;
	uint8_t *idx = calloc(1, ilen + 4), *buf = malloc(1u << 16);
	uint8_t h[CC_SEGIDX_HEAD], t[CC_SEGIDX_TRAILER];
	if (!idx || !buf) {
		rc = citcat_errinfo_set(err, CITCAT_ERR_NOMEM, UINT64_MAX, "out of memory");
		goto fail;
	}
	memcpy(h, magic, CC_MAGIC_LEN);
	cc_put16(h + 8, version);
	cc_put16(h + 10, 0);
	cc_put32(h + 12, XXH32(h, 12, 0));
	if (n > 1 && (rc = cc_outfile_write(o, h, sizeof h)))
		goto wfail;
	uint64_t off = CC_SEGIDX_HEAD;
	memcpy(idx, "SIX", 4);
	cc_put32(idx + 4, (uint32_t)n);
	for (uint64_t k = 0; k < n; k++) {
		struct cc_input *f;
		struct citcat_errinfo ie;
		if ((rc = cc_input_open_flags(&f, members[k], CC_IN_RAW, &ie))) {
			rc = citcat_errinfo_set(err, rc, UINT64_MAX, "%s: %s", members[k], ie.msg);
			goto fail;
		}
		uint64_t len = 0;
		long got;
		while ((got = cc_input_read(f, buf, 1u << 16)) > 0) {
			if ((rc = cc_outfile_write(o, buf, (size_t)got))) {
				cc_input_close(f);
				goto wfail;
			}
			len += (uint64_t)got;
		}
		if (got < 0) {
			rc = citcat_errinfo_set(err, (int)got, UINT64_MAX, "%s: %s", members[k], cc_input_error(f)->msg);
			cc_input_close(f);
			goto fail;
		}
		cc_input_close(f);
		uint8_t *q = idx + 12 + k * CC_SEGIDX_ENTRY;
		cc_put64(q, off);
		cc_put64(q + 8, len);
		cc_put64(q + 16, ein[k].insns);
		cc_put64(q + 24, ein[k].bcount);
		off += len;
	}
	cc_put32(idx + ilen, XXH32(idx, ilen, 0));
	if (n == 1) /* one segment: the single-segment file alone (SEGIDX.md) */
		goto done;
	if ((rc = cc_outfile_write(o, idx, ilen + 4)))
		goto wfail;
	memcpy(t, "SIDX", 4);
	cc_put64(t + 4, off);
	cc_put32(t + 12, XXH32(t, 12, 0));
	if ((rc = cc_outfile_write(o, t, sizeof t)))
		goto wfail;
done:
	free(idx);
	free(buf);
	return cc_outfile_commit(o, err);
wfail:
	rc = citcat_errinfo_set(err, rc, UINT64_MAX, "writing %s failed: %s", path,
				rc == CITCAT_ERR_IO ? strerror(errno) : citcat_errstr(rc));
fail:
	free(idx);
	free(buf);
	cc_outfile_abort(o);
	return rc;
}

int cc_segidx_segments(const char *path, const char magic[CC_MAGIC_LEN], uint16_t version, uint64_t *n,
		       struct citcat_errinfo *err)
{
	struct cc_segidx *sx;
	int rc = cc_segidx_open(&sx, path, magic, version, err);
	*n = rc ? 0 : sx ? cc_segidx_count(sx) : 1;
	cc_segidx_close(sx);
	return rc;
}

int cc_segidx_write_scratch(const char *path, const char magic[CC_MAGIC_LEN], uint16_t version, uint64_t n,
			    const char *dir, const struct cc_segidx_entry *e, struct citcat_errinfo *err)
{
	const char **paths = calloc(n, sizeof *paths);
	char *names = calloc(n, 4300);
	int rc = paths && names ? 0 : citcat_errinfo_set(err, CITCAT_ERR_NOMEM, UINT64_MAX, "out of memory");
	for (uint64_t k = 0; !rc && k < n; k++) {
		cc_segidx_member_path(names + 4300 * k, 4300, dir, k);
		paths[k] = names + 4300 * k;
	}
	if (!rc)
		rc = cc_segidx_write(path, magic, version, n, paths, e, err);
	free(paths);
	free(names);
	return rc;
}

int cc_segidx_scratch(char *buf, size_t n, struct citcat_errinfo *err)
{
	const char *dir = getenv("TMPDIR");
	snprintf(buf, n, "%s/citcat-seg-XXXXXX", dir && *dir ? dir : "/tmp");
	if (!mkdtemp(buf))
		return citcat_errinfo_set(err, CITCAT_ERR_IO, UINT64_MAX, "cannot create a scratch directory %s: %s", buf,
					  strerror(errno));
	return 0;
}

void cc_segidx_member_path(char *buf, size_t n, const char *dir, uint64_t k)
{
	snprintf(buf, n, "%s/%06llu.seg", dir, (unsigned long long)k);
}

void cc_segidx_scratch_free(const char *dir, uint64_t nfiles)
{
	char p[4200];
	for (uint64_t k = 0; k < nfiles; k++) {
		cc_segidx_member_path(p, sizeof p, dir, k);
		remove(p);
	}
	rmdir(dir);
}
