/* The process's file guard: see guard.h. */
#include "guard.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { G_FREE, G_INPUT, G_OUTPUT, G_STDOUT, G_OWN };

struct gent {
	dev_t dev;
	ino_t ino;
	int kind, exists; /* exists: (dev, ino) name a file; else NAME is a new name */
	char *path;       /* as given */
	char *name;       /* outputs: the absolute name (directory resolved) */
	struct gent *next;
};

#define BUCKETS 4096u
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static int enabled;
static struct gent *bucket[BUCKETS]; /* existing files, by (dev, ino) */
static struct gent *fresh;           /* outputs under new names */

static unsigned hash(dev_t d, ino_t i) { return (unsigned)((uint64_t)d * 0x9e3779b97f4a7c15ull ^ (uint64_t)i) % BUCKETS; }

/* The absolute name PATH would have (its directory resolved), or NULL. */
static char *abs_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path)) : strdup(".");
	char *real = dir ? realpath(dir, NULL) : NULL, *name = NULL;
	if (real && asprintf(&name, "%s/%s", real, slash ? slash + 1 : path) < 0)
		name = NULL;
	free(dir);
	free(real);
	return name;
}

/* Whether entry E still names the file it was noted for. */
static int still(const struct gent *e)
{
	if (e->kind != G_INPUT || strcmp(e->path, "-") == 0)
		return 1;
	struct stat st;
	return stat(e->path, &st) == 0 && st.st_dev == e->dev && st.st_ino == e->ino;
}

static struct gent *add(int kind, const char *path, const struct stat *st, char *name)
{
	struct gent *e = calloc(1, sizeof *e);
	if (!e || !(e->path = strdup(path))) {
		free(e);
		free(name);
		return NULL;
	}
	e->kind = kind;
	e->name = name;
	if (st) {
		e->exists = 1;
		e->dev = st->st_dev;
		e->ino = st->st_ino;
		unsigned h = hash(st->st_dev, st->st_ino);
		e->next = bucket[h];
		bucket[h] = e;
	} else {
		e->next = fresh;
		fresh = e;
	}
	return e;
}

static const char *shown(const char *path, int kind) { return kind == G_STDOUT ? "standard output" : path; }

void cc_guard_enable(int on)
{
	pthread_mutex_lock(&mu);
	enabled = on != 0;
	struct stat st;
	if (enabled && fstat(1, &st) == 0 && S_ISREG(st.st_mode))
		add(G_STDOUT, "-", &st, NULL);
	pthread_mutex_unlock(&mu);
}

int cc_guard_enabled(void) { return enabled; }

int cc_guard_input(const char *path, int fd, struct citcat_errinfo *err)
{
	struct stat st;
	if (!enabled || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
		return 0;
	pthread_mutex_lock(&mu);
	int rc = 0, known = 0;
	for (struct gent *e = bucket[hash(st.st_dev, st.st_ino)]; e; e = e->next) {
		if (e->kind == G_FREE || e->dev != st.st_dev || e->ino != st.st_ino)
			continue;
		if (e->kind == G_OUTPUT || e->kind == G_STDOUT) {
			rc = citcat_errinfo_set(err, CITCAT_ERR_IO, UINT64_MAX,
						"%s: refusing to read it: it is also %s%s, which this command is writing (the same file)",
						strcmp(path, "-") ? path : "standard input", e->kind == G_OUTPUT ? "the output " : "",
						shown(e->path, e->kind));
			break;
		}
		known |= strcmp(e->path, path) == 0 || e->kind == G_OWN; /* a file this command wrote is its own */
	}
	if (!rc && !known)
		add(G_INPUT, path, &st, NULL);
	pthread_mutex_unlock(&mu);
	return rc;
}

int cc_guard_output(const char *path, const struct stat *st, void **token, struct citcat_errinfo *err)
{
	*token = NULL;
	if (!enabled)
		return 0;
	if (st && !S_ISREG(st->st_mode))
		return 0;
	char *name = abs_name(path);
	pthread_mutex_lock(&mu);
	int rc = 0;
	for (struct gent *e = st ? bucket[hash(st->st_dev, st->st_ino)] : fresh; e && !rc; e = e->next) {
		if (e->kind == G_FREE)
			continue;
		if (st ? e->dev != st->st_dev || e->ino != st->st_ino : e->kind != G_OUTPUT || !name || !e->name ||
							   strcmp(name, e->name) != 0)
			continue;
		if (e->kind == G_INPUT && still(e))
			rc = citcat_errinfo_set(err, CITCAT_ERR_IO, UINT64_MAX,
						"%s: refusing to write over the input %s (the same file)", path,
						strcmp(e->path, "-") ? e->path : "standard input");
		else if (e->kind == G_OUTPUT || e->kind == G_STDOUT)
			rc = citcat_errinfo_set(err, CITCAT_ERR_IO, UINT64_MAX,
						"%s: the same file as %s%s; give each output its own", path,
						e->kind == G_OUTPUT ? "the output " : "", shown(e->path, e->kind));
	}
	if (!rc)
		*token = add(G_OUTPUT, path, st, name);
	else
		free(name);
	pthread_mutex_unlock(&mu);
	return rc;
}

void cc_guard_own(const char *path)
{
	struct stat st;
	if (!enabled || stat(path, &st) != 0 || !S_ISREG(st.st_mode))
		return;
	pthread_mutex_lock(&mu);
	for (struct gent *e = bucket[hash(st.st_dev, st.st_ino)]; e; e = e->next)
		if (e->dev == st.st_dev && e->ino == st.st_ino && (e->kind == G_INPUT || e->kind == G_OWN))
			e->kind = G_OWN; /* an input noted before of the same file can no longer be it */
	add(G_OWN, path, &st, NULL);
	pthread_mutex_unlock(&mu);
}

void cc_guard_output_done(void *token)
{
	if (!token)
		return;
	struct gent *t = token;
	pthread_mutex_lock(&mu);
	struct gent **p = t->exists ? &bucket[hash(t->dev, t->ino)] : &fresh;
	while (*p && *p != t)
		p = &(*p)->next;
	if (*p)
		*p = t->next;
	pthread_mutex_unlock(&mu);
	free(t->path);
	free(t->name);
	free(t);
}

void cc_guard_reset(void)
{
	pthread_mutex_lock(&mu);
	for (unsigned b = 0; b <= BUCKETS; b++) {
		struct gent **head = b < BUCKETS ? &bucket[b] : &fresh;
		while (*head) {
			struct gent *e = *head;
			*head = e->next;
			free(e->path);
			free(e->name);
			free(e);
		}
	}
	pthread_mutex_unlock(&mu);
}

/* What PATH would read or overwrite: "-" by descriptor FD.  0 when it
 * exists. */
static int identify(const char *path, int fd, struct stat *st)
{
	return strcmp(path, "-") == 0 ? fstat(fd, st) : stat(path, st);
}

int cc_guard_check(const char *const *in, size_t nin, const char *const *out, size_t nout, size_t *which,
		   size_t *other)
{
	for (size_t i = 0; i < nout; i++) {
		struct stat so;
		if (!out[i])
			continue;
		if (identify(out[i], 1, &so) != 0) {
			/* a new name: only another output can be the same one */
			char *a = abs_name(out[i]);
			for (size_t j = 0; a && j < i; j++) {
				char *b = out[j] ? abs_name(out[j]) : NULL;
				int same = b && strcmp(a, b) == 0;
				free(b);
				if (same) {
					free(a);
					*which = i;
					*other = j;
					return 2;
				}
			}
			free(a);
			continue;
		}
		if (S_ISCHR(so.st_mode))
			continue; /* a device that stores nothing, such as /dev/null */
		for (size_t j = 0; j < nin + i; j++) {
			const char *o = j < nin ? in[j] : out[j - nin];
			struct stat s2;
			if (!o || identify(o, j < nin ? 0 : 1, &s2) != 0)
				continue;
			if (so.st_dev == s2.st_dev && so.st_ino == s2.st_ino) {
				*which = i;
				*other = j < nin ? j : j - nin;
				return j < nin ? 1 : 2;
			}
		}
	}
	return 0;
}
