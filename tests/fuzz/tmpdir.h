/* Helper for fuzz targets whose library entry points take file paths (the
 * ELF loader, the capture model, the replayer): one private scratch
 * directory per process (mkdtemp under $TMPDIR or /tmp), removed with its
 * files at exit, and a way to put the fuzz input into a file there. */
#ifndef CITCAT_FUZZ_TMPDIR_H
#define CITCAT_FUZZ_TMPDIR_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char fuzz_dir[4096];

static inline void fuzz_dir_remove(void)
{
	DIR *d = opendir(fuzz_dir);
	struct dirent *e;
	char p[4096 + 256];
	while (d && (e = readdir(d))) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		snprintf(p, sizeof p, "%s/%s", fuzz_dir, e->d_name);
		unlink(p);
	}
	if (d)
		closedir(d);
	rmdir(fuzz_dir);
}

/* The path of NAME in the scratch directory (a static buffer per call site
 * is the caller's business: this returns a fresh malloc'ed string). */
static inline char *fuzz_path(const char *name)
{
	if (!fuzz_dir[0]) {
		const char *t = getenv("TMPDIR");
		snprintf(fuzz_dir, sizeof fuzz_dir, "%s/citcat-fuzz-XXXXXX", t && *t ? t : "/tmp");
		if (!mkdtemp(fuzz_dir))
			abort(); /* no scratch space: the harness cannot run at all */
		atexit(fuzz_dir_remove);
	}
	size_t n = strlen(fuzz_dir) + strlen(name) + 2;
	char *p = malloc(n);
	if (!p)
		abort();
	snprintf(p, n, "%s/%s", fuzz_dir, name);
	return p;
}

/* Writes LEN bytes to PATH (replacing it); aborts when it cannot, since the
 * harness would otherwise test a stale file. */
static inline void fuzz_write_file(const char *path, const void *data, size_t len)
{
	FILE *f = fopen(path, "wb");
	if (!f || (len && fwrite(data, 1, len, f) != len) || fclose(f) != 0)
		abort();
}

static inline int fuzz_exists(const char *path) { return access(path, F_OK) == 0; }

#endif
