/* citcat_bench_formats (<citcat/convert.h>), the measurement behind
 * `citcat bench formats`: din, PDATS, PDATS II and their second tiers
 * written and read back from memory, beside lz4, gzip, zstd and xz run on
 * the same trace as din text.  The tool prints the figures.  Moved from
 * cli/addr_cli.c, messages unchanged. */
#include "convert_int.h"

#include "addr.h"
#include "outfile.h"
#include "registry.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* A synthetic ARM-like reference stream: a main loop calling functions whose
 * basic blocks load and store around a descending stack and a heap, with
 * push/pop multiples, table walks and occasional interrupts. */
static size_t synth_refs(struct citcat_ref *v, size_t n, uint64_t seed)
{
	size_t k = 0;
	uint64_t x = seed * 0x9e3779b97f4a7c15ull + 1;
#define RND() (x ^= x << 13, x ^= x >> 7, x ^= x << 17, x)
#define EMIT(t, a, s)                                                           \
	do {                                                                    \
		if (k == n)                                                     \
			return k;                                               \
		v[k].type = (t), v[k].addr = (a), v[k].size = (s), k++;         \
	} while (0)
	uint64_t sp = 0x20008000, heap = 0x20000400, pc;
	for (;;) {
		unsigned fn = (unsigned)(RND() % 16);
		uint64_t base = 0x8000 + fn * 0x400;
		/* prologue: push {r4-r7, lr} */
		pc = base;
		EMIT(2, pc, 4);
		for (int i = 0; i < 5; i++)
			EMIT(1, sp - 20 + 4u * (unsigned)i, 4);
		sp -= 20;
		unsigned iters = 2 + (unsigned)(RND() % 40);
		uint64_t p = heap + (RND() % 256) * 4;
		for (unsigned it = 0; it < iters; it++) {
			pc = base + 4;
			unsigned len = 3 + (unsigned)(fn % 7);
			for (unsigned i = 0; i < len; i++) {
				EMIT(2, pc, 4);
				pc += 4;
				unsigned r = (unsigned)(RND() % 8);
				if (r == 0) {
					EMIT(0, p, 4);
					p += 4;
				} else if (r == 1)
					EMIT(1, p + 0x100, 4);
				else if (r == 2)
					EMIT(0, sp + 4u * (RND() % 5), 4);
				else if (r == 3 && (RND() % 4) == 0)
					EMIT(0, 0x9000 + (RND() % 64) * 4, 4); /* literal pool / table */
			}
			EMIT(2, pc, 4); /* the loop branch */
			if ((RND() % 512) == 0) { /* an interrupt handler */
				EMIT(2, 0x18, 4);
				for (int i = 0; i < 4; i++)
					EMIT(1, 0x20007f00 + 4u * (unsigned)i, 4);
				for (int i = 0; i < 6; i++)
					EMIT(2, 0x7000 + 4u * (unsigned)i, 4);
				EMIT(0, 0x40001000, 4);
				for (int i = 0; i < 4; i++)
					EMIT(0, 0x20007f00 + 4u * (unsigned)i, 4);
			}
		}
		/* epilogue: pop {r4-r7, pc} */
		EMIT(2, pc + 4, 4);
		for (int i = 0; i < 5; i++)
			EMIT(0, sp + 4u * (unsigned)i, 4);
		sp += 20;
		heap = 0x20000400 + (RND() % 16) * 0x100;
	}
#undef RND
#undef EMIT
}

/* CPU seconds, not wall time: on a shared machine the wall clock measures
 * the other processes.  citcat's own formats run in this process; the
 * tools (xz, zstd...) in children, counted when they have been waited for. */
static double cpu_self(void)
{
	struct timespec t;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}
static double cpu_children(void)
{
	struct rusage u;
	getrusage(RUSAGE_CHILDREN, &u);
	return (double)u.ru_utime.tv_sec + (double)u.ru_utime.tv_usec * 1e-6 + (double)u.ru_stime.tv_sec +
	       (double)u.ru_stime.tv_usec * 1e-6;
}

static int bench_one(struct cv *cv, const struct citcat_ref *v, size_t n, int fmt, int lz4, const char *tmp,
		     struct citcat_bench_format_row *row)
{
	struct citcat_addr_config cfg = {sizeof cfg, fmt, 32, 4, lz4, 0, 0};
	for (size_t i = 0; i < n; i++)
		if (v[i].addr > 0xffffffffu) {
			cfg.addr_bits = 64;
			break;
		}
	struct citcat_addr_writer *w;
	double t0 = cpu_self();
	if (citcat_addr_writer_open(&w, tmp, &cfg)) {
		int e = cv_file(cv, tmp, citcat_addr_writer_error(w));
		citcat_addr_writer_abort(w);
		return e;
	}
	for (size_t i = 0; i < n; i++)
		if (citcat_addr_put(w, &v[i])) {
			int e = cv_file(cv, tmp, citcat_addr_writer_error(w));
			citcat_addr_writer_abort(w);
			return e;
		}
	if (citcat_addr_writer_finish(w)) {
		int e = cv_file(cv, tmp, citcat_addr_writer_error(w));
		citcat_addr_writer_abort(w);
		return e;
	}
	citcat_addr_writer_close(w);
	row->enc = cpu_self() - t0;
	struct stat st;
	row->bytes = stat(tmp, &st) == 0 ? (uint64_t)st.st_size : 0;
	struct citcat_addr_reader *r;
	struct citcat_ref ref;
	uint64_t got = 0, sum = 0;
	t0 = cpu_self();
	int rc = citcat_addr_reader_open(&r, tmp, fmt);
	if (!rc)
		while ((rc = citcat_addr_next(r, &ref)) == 1)
			got++, sum += ref.addr;
	row->dec = cpu_self() - t0;
	if (rc < 0 || got != n) {
		rc = cv_file(cv, tmp, citcat_addr_reader_error(r));
		citcat_addr_reader_close(r);
		return rc;
	}
	citcat_addr_reader_close(r);
	(void)sum;
	return 0;
}

static int bench_tool(const char *cmd, const char *din, const char *tmp, struct citcat_bench_format_row *row)
{
	char line[2048];
	snprintf(line, sizeof line, "%s < '%s' > '%s' 2>/dev/null", cmd, din, tmp);
	double t0 = cpu_children();
	int rc = system(line);
	row->enc = cpu_children() - t0;
	struct stat st;
	row->bytes = rc == 0 && stat(tmp, &st) == 0 ? (uint64_t)st.st_size : 0;
	if (rc != 0)
		return -1;
	const char *dcmd = strncmp(cmd, "lz4", 3) == 0 ? "lz4 -dc" : strncmp(cmd, "gzip", 4) == 0 ? "gzip -dc"
			   : strncmp(cmd, "zstd", 4) == 0 ? "zstd -dc" : "xz -dc";
	snprintf(line, sizeof line, "%s < '%s' > /dev/null 2>/dev/null", dcmd, tmp);
	t0 = cpu_children();
	rc = system(line);
	row->dec = cpu_children() - t0;
	unlink(tmp);
	return rc == 0 ? 0 : -1;
}

static int load_refs(struct cv *cv, const char *path, struct citcat_ref **v, size_t *n)
{
	const struct citcat_format *f;
	int rc = cv_detect(cv, path, &f);
	if (rc)
		return rc;
	if (!f || (f->id != CITCAT_FMT_ITRACE && !f->addr_fmt))
		return cv_msg(cv, CITCAT_ERR_MAGIC, "%s: offset 0: not an itrace or address trace", path);
	const char *fmt = f->name;
	struct ref_source s;
	rc = cv_src_open(cv, &s, path, fmt, 1, 0); /* the core's references, as before itrace v2 */
	size_t cap = 1 << 20;
	*n = 0;
	*v = rc ? NULL : malloc(cap * sizeof **v);
	if (!rc && !*v)
		rc = cv_msg(cv, CITCAT_ERR_NOMEM, "out of memory");
	while (!rc) {
		if (*n == cap) {
			struct citcat_ref *nv = realloc(*v, 2 * cap * sizeof **v);
			if (!nv) {
				rc = cv_msg(cv, CITCAT_ERR_NOMEM, "out of memory");
				break;
			}
			*v = nv;
			cap *= 2;
		}
		int e = cv_src_next(&s, &(*v)[*n]);
		if (e < 0)
			rc = cv_file(cv, path, cv_src_error(&s));
		if (e <= 0)
			break;
		(*n)++;
	}
	cv_src_close(&s);
	return rc;
}


int citcat_bench_formats(const char *path, uint64_t nsynth, struct citcat_bench_formats *out,
			 struct citcat_convert_result *res, struct citcat_errinfo *err)
{
	struct citcat_convert_result local;
	struct cv cv;
	cv_init(&cv, &local, err);
	if (!out || out->size < sizeof *out || (res && res->size < sizeof *res) || (!path && !nsynth))
		return citcat_errinfo_set(err, CITCAT_ERR_INVAL, UINT64_MAX, "%s",
					  !out ? "NULL argument" : !path && !nsynth ? "no references" : "size too small");
	out->refs = 0;
	out->nrows = 0;
	const char *tdir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	char tmp[512], din[512];
	snprintf(tmp, sizeof tmp, "%s/citcat-bench-%d.out", tdir, (int)getpid());
	snprintf(din, sizeof din, "%s/citcat-bench-%d.din", tdir, (int)getpid());
	struct citcat_ref *v = NULL;
	size_t n = 0;
	int rc = 0;
	if (path) {
		if ((rc = load_refs(&cv, path, &v, &n)))
			goto done;
	} else {
		n = (size_t)nsynth;
		if (!(v = malloc(n * sizeof *v))) {
			rc = cv_msg(&cv, CITCAT_ERR_NOMEM, "out of memory");
			goto done;
		}
		n = synth_refs(v, n, 1);
	}
	struct citcat_bench_format_row *rows = out->rows;
	int nr = 0;
	static const struct { const char *name; int fmt, lz4; } fm[] = {
		{"din", CITCAT_ADDR_DIN, 0}, {"pdats", CITCAT_ADDR_PDATS, 0}, {"pdats+lz4", CITCAT_ADDR_PDATS, 1},
		{"pdats2", CITCAT_ADDR_PDATS2, 0}, {"pdats2+lz4", CITCAT_ADDR_PDATS2, CC_OUT_LZ4},
		{"pdats2+zstd", CITCAT_ADDR_PDATS2, CC_OUT_ZSTD}, {"pdats2.tvp", CITCAT_ADDR_PDATS2, CC_OUT_TVP},
	};
	for (size_t k = 0; k < sizeof fm / sizeof *fm && !rc; k++) {
		rows[nr].name = fm[k].name;
		rc = bench_one(&cv, v, n, fm[k].fmt, fm[k].lz4, k == 0 ? din : tmp, &rows[nr]);
		nr++;
	}
	unlink(tmp);
	static const char *tools[][2] = {{"din|lz4", "lz4 -c"}, {"din|gzip -9", "gzip -9c"},
					 {"din|zstd -19 --long", "zstd -19 --long -T1 -c"}, {"din|xz -9", "xz -9 -T1 -c"}};
	for (size_t k = 0; k < 4 && !rc; k++) {
		rows[nr].name = tools[k][0];
		if (bench_tool(tools[k][1], din, tmp, &rows[nr]) == 0)
			nr++;
	}
	unlink(din);
	out->refs = n;
	out->nrows = rc ? 0 : nr;
done:
	free(v);
	if (res) {
		local.size = res->size;
		*res = local;
	}
	return rc;
}
