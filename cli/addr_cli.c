/* din / xdin / PDATS / PDATS II command-line glue: format detection,
 * `convert`, `info` and `bench formats`.  All format work is in
 * formats/addr.h; this file parses, prints and times. */
#include "addr.h"
#include "cli.h"
#include "formats_cli.h"
#include "input.h"
#include "itrace.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- reference sources: an itrace or an address trace ---- */

struct ref_source {
	struct citcat_itrace_reader *it;
	struct citcat_addr_reader *ar;
	struct citcat_itrace_rec *rec;
	uint32_t next_acc; /* index into rec->acc; n_acc + 1 = instruction not yet given */
	int have_rec;
	int uncached;      /* give uncached (device) accesses too */
	int dma;           /* give DMA transfers as copy-back + invalidate pairs */
	uint64_t dma_at;   /* DMA record being given: next address, end, and whether its */
	uint64_t dma_end;  /* invalidate (1) or copy-back (0) comes next */
	int dma_inval;
	uint64_t dma_dropped, dma_dropped_bytes; /* DMA transfers left out (not DMA) */
	int saw_thumb;     /* a Thumb instruction was given (issue 11) */
};

/* UNCACHED: keep uncached accesses; DMA: turn DMA records into references
 * (DIN.md, "From an itrace"). */
static int src_open(struct ref_source *s, const char *path, const char *fmt, int uncached, int dma)
{
	memset(s, 0, sizeof *s);
	if (strcmp(fmt, "itrace") == 0) {
		s->rec = malloc(sizeof *s->rec);
		if (!s->rec)
			return cli_fail("out of memory");
		if (citcat_itrace_reader_open(&s->it, path))
			return cli_errinfo(path, citcat_itrace_reader_error(s->it));
		s->uncached = uncached;
		s->dma = dma;
		citcat_itrace_reader_dma(s->it, 1); /* left out unless DMA, but counted */
		return 0;
	}
	int f = citcat_addr_fmt_parse(fmt);
	if (!f)
		return cli_fail("%s: cannot read format '%s' (want itrace, din, xdin, pdats or pdats2)", path, fmt);
	if (citcat_addr_reader_open(&s->ar, path, f))
		return cli_errinfo(path, citcat_addr_reader_error(s->ar));
	return 0;
}

/* 1 with *REF filled, 0 at the end, negative on error (already known to S). */
static int src_next(struct ref_source *s, struct citcat_ref *ref)
{
	if (s->ar)
		return citcat_addr_next(s->ar, ref);
	for (;;) {
		if (s->dma_at < s->dma_end) {
			/* A DMA transfer snoops every cache line it overlaps: write
			 * back if dirty, then invalidate.  Dinero applies c and v to
			 * the one block holding the address, so the range goes out
			 * in 8-byte granules (the smallest line size): exact for any
			 * geometry. */
			uint64_t next = (s->dma_at | 7) + 1;
			if (next > s->dma_end)
				next = s->dma_end;
			ref->addr = s->dma_at;
			ref->size = (uint32_t)(next - s->dma_at);
			ref->type = s->dma_inval ? CITCAT_REF_INVAL : CITCAT_REF_COPYB;
			if (s->dma_inval)
				s->dma_at = next;
			s->dma_inval ^= 1;
			return 1;
		}
		if (s->have_rec) {
			struct citcat_itrace_rec *r = s->rec;
			if (s->next_acc == 0) {
				s->next_acc = 1;
				ref->type = CITCAT_REF_IFETCH;
				ref->addr = r->pc;
				ref->size = r->size ? r->size : 4; /* the instruction's size (DIN.md) */
				s->saw_thumb |= r->thumb;
				return 1;
			}
			while (!s->uncached && s->next_acc <= r->n_acc && r->acc[s->next_acc - 1].uncached)
				s->next_acc++;
			if (s->next_acc <= r->n_acc) {
				const struct citcat_access *a = &r->acc[s->next_acc++ - 1];
				ref->type = a->write ? CITCAT_REF_WRITE : CITCAT_REF_READ;
				ref->addr = a->addr;
				ref->size = a->size;
				return 1;
			}
			s->have_rec = 0;
		}
		int rc = citcat_itrace_next(s->it, s->rec);
		if (rc <= 0)
			return rc;
		if (s->rec->kind == CITCAT_REC_INSN) {
			s->have_rec = 1;
			s->next_acc = 0;
		} else if (s->rec->kind == CITCAT_REC_IRQ) {
			/* an A-target IRQ entry has no access and makes no reference;
			 * a Cortex-M7 entry's stacking writes and vector read are data
			 * accesses through the D-cache, with no fetch (DIN.md) */
			if (s->rec->n_acc) {
				s->have_rec = 1;
				s->next_acc = 1;
			}
		} else if (s->rec->kind == CITCAT_REC_DMA && !s->dma) {
			s->dma_dropped++;
			s->dma_dropped_bytes += s->rec->word;
		} else if (s->rec->kind == CITCAT_REC_DMA) {
			s->dma_at = s->rec->pc;
			s->dma_end = s->rec->pc + s->rec->word;
			s->dma_inval = 0;
		}
	}
}

static const struct citcat_errinfo *src_error(const struct ref_source *s)
{
	return s->ar ? citcat_addr_reader_error(s->ar) : citcat_itrace_reader_error(s->it);
}

static void src_close(struct ref_source *s)
{
	citcat_addr_reader_close(s->ar);
	citcat_itrace_reader_close(s->it);
	free(s->rec);
}

/* One conversion pass.  Returns EXIT_OK, EXIT_USAGE, or -1 when the output
 * needs 64-bit addresses (nothing printed, nothing left behind). */
static int convert_pass(const char *in, const char *from, const char *out, const struct citcat_addr_config *cfg,
			int uncached)
{
	struct ref_source s;
	/* DMA transfers go to xdin only, the format with sizes that Dinero IV
	 * reads exactly (DIN.md, "From an itrace") */
	int rc = src_open(&s, in, from, uncached, cfg->fmt == CITCAT_ADDR_XDIN);
	if (rc) {
		src_close(&s);
		return rc;
	}
	struct citcat_addr_writer *w;
	if (citcat_addr_writer_open(&w, out, cfg)) {
		rc = cli_errinfo(out, citcat_addr_writer_error(w));
		citcat_addr_writer_abort(w);
		src_close(&s);
		return rc;
	}
	struct citcat_ref ref;
	struct cli_progress pr;
	uint64_t n = 0;
	cli_progress_init(&pr, "converting");
	while ((rc = src_next(&s, &ref)) == 1) {
		if (s.saw_thumb && cfg->istride == 4 && cfg->fmt == CITCAT_ADDR_PDATS2 && strcmp(in, "-") != 0) {
			/* Thumb code: redo with the 2-byte stride (PDATS2.md) */
			citcat_addr_writer_abort(w);
			src_close(&s);
			cli_progress_done(&pr);
			return -2;
		}
		int e = citcat_addr_put(w, &ref);
		if (e) {
			if (e == CITCAT_ERR_LIMIT && cfg->addr_bits == 32 && strcmp(in, "-") != 0) {
				rc = -1;
			} else {
				const struct citcat_errinfo *ei = citcat_addr_writer_error(w);
				fprintf(stderr, "citcat: %s: reference %llu: %s\n", out, (unsigned long long)n, ei->msg);
				rc = EXIT_USAGE;
			}
			citcat_addr_writer_abort(w);
			src_close(&s);
			cli_progress_done(&pr);
			return rc;
		}
		if ((++n & 0xfffff) == 0)
			cli_progress_update(&pr, n, 0, "ref");
		if ((n & 0x3fff) == 0 && cli_interrupted()) {
			rc = CITCAT_ERR_INTERRUPTED;
			break;
		}
	}
	cli_progress_done(&pr);
	if (rc == CITCAT_ERR_INTERRUPTED) {
		citcat_addr_writer_abort(w);
		src_close(&s);
		return cli_fail("convert: interrupted after %llu references; no output written", (unsigned long long)n);
	}
	if (rc < 0) {
		rc = cli_errinfo(in, src_error(&s));
		citcat_addr_writer_abort(w);
		src_close(&s);
		return rc;
	}
	uint64_t dropped = s.dma_dropped, dropped_bytes = s.dma_dropped_bytes;
	src_close(&s);
	if (citcat_addr_writer_finish(w)) {
		rc = cli_errinfo(out, citcat_addr_writer_error(w));
		citcat_addr_writer_abort(w);
		return rc;
	}
	citcat_addr_writer_close(w);
	if (dropped) /* a cache simulator fed this misses what the DMA engine did to the caches */
		fprintf(stderr,
			"citcat convert: warning: %s leaves out the %llu DMA transfers (%llu bytes) of %s: %s cannot "
			"say that a DMA engine wrote memory, so a cache simulator fed it (Dinero IV) keeps lines the "
			"transfers invalidated and counts other fills than the CAT; xdin carries them (-o RUN.xdin, "
			"formats/DIN.md)\n",
			out, (unsigned long long)dropped, (unsigned long long)dropped_bytes, in, citcat_addr_fmt_name(cfg->fmt));
	return EXIT_OK;
}

int addr_convert(const char *in, const char *from, const char *out, const char *to, const struct convert_opts *o)
{
	int tf = citcat_addr_fmt_parse(to);
	if (!tf)
		return cli_fail("cannot convert to '%s' (want din, xdin, pdats or pdats2)", to);
	if (strcmp(from, "itrace") != 0 && !citcat_addr_fmt_parse(from))
		return cli_fail("conversion from %s to %s is not available", from, to);
	struct citcat_addr_config cfg = {sizeof cfg, tf, 32, 4, 0};
	cfg.lz4 = cli_out_wrap(out, o ? o->lz4 : -1);
	int uncached = o && o->uncached;
	int rc = convert_pass(in, from, out, &cfg, uncached);
	if (rc == -2) { /* Thumb instructions: redo with stride 2 */
		cfg.istride = 2;
		rc = convert_pass(in, from, out, &cfg, uncached);
	}
	if (rc == -1) { /* an address above 4 GiB: redo as the 64-bit variant */
		cfg.addr_bits = 64;
		rc = convert_pass(in, from, out, &cfg, uncached);
	}
	return rc < 0 ? EXIT_USAGE : rc;
}

int addr_info(const char *path, const char *fmt, int json)
{
	int version = cli_file_version(path, citcat_format_by_name(fmt)); /* before "-" is read; din: -1 */
	struct citcat_addr_reader *r;
	if (citcat_addr_reader_open(&r, path, citcat_addr_fmt_parse(fmt))) {
		int rc = cli_errinfo(path, citcat_addr_reader_error(r));
		citcat_addr_reader_close(r);
		return rc;
	}
	uint64_t by_type[CITCAT_REF_NTYPES] = {0}, refs = 0;
	struct citcat_ref ref;
	int rc;
	while ((rc = citcat_addr_next(r, &ref)) == 1) {
		by_type[ref.type]++;
		if ((++refs & 0x3fff) == 0 && cli_interrupted()) {
			citcat_addr_reader_close(r);
			return cli_fail("info: interrupted");
		}
	}
	if (rc < 0) {
		rc = cli_errinfo(path, citcat_addr_reader_error(r));
		citcat_addr_reader_close(r);
		return rc;
	}
	int f = citcat_addr_reader_fmt(r), wrap = citcat_addr_reader_lz4(r), lz4 = wrap == CC_WRAP_LZ4;
	uint64_t payload = citcat_addr_reader_payload_bytes(r);
	unsigned bits = citcat_addr_reader_addr_bits(r), stride = citcat_addr_reader_istride(r);
	citcat_addr_reader_close(r);
	struct stat st;
	long long size = stat(path, &st) == 0 ? (long long)st.st_size : -1;
	const char *kind = f == CITCAT_ADDR_XDIN ? "din" : citcat_addr_fmt_name(f);
	uint64_t other = refs - by_type[0] - by_type[1] - by_type[2];
	double rpb = payload ? (double)refs / (double)payload : 0.0;
	double rpf = size > 0 ? (double)refs / (double)size : 0.0;
	if (json) {
		printf("{\"kind\": \"%s\", \"format\": \"%s\", \"lz4\": %s, \"refs\": %llu, \"reads\": %llu, "
		       "\"writes\": %llu, \"ifetches\": %llu, \"other\": %llu, \"payload_bytes\": %llu, "
		       "\"refs_per_byte\": %.4f, \"file_bytes\": %lld, \"refs_per_file_byte\": %.4f",
		       kind, citcat_addr_fmt_name(f), lz4 ? "true" : "false", (unsigned long long)refs,
		       (unsigned long long)by_type[0], (unsigned long long)by_type[1], (unsigned long long)by_type[2],
		       (unsigned long long)other, (unsigned long long)payload, rpb, size, rpf);
		if (f == CITCAT_ADDR_PDATS || f == CITCAT_ADDR_PDATS2)
			printf(", \"addr_bits\": %u", bits);
		if (f == CITCAT_ADDR_PDATS2)
			printf(", \"istride\": %u", stride);
		if (version >= 0)
			printf(", \"version\": %d", version);
		printf("}\n");
		return EXIT_OK;
	}
	static const char *names[] = {[CITCAT_ADDR_DIN] = "Dinero din text", [CITCAT_ADDR_XDIN] = "Dinero IV xdin text",
				      [CITCAT_ADDR_PDATS] = "PDATS", [CITCAT_ADDR_PDATS2] = "PDATS II"};
	printf("%s: %s address trace%s", path, names[f],
	       lz4 ? " in an LZ4 frame" : wrap == CC_WRAP_ZSTD ? " in a zstd frame" : wrap == CC_WRAP_XZ ? " in an xz stream" : "");
	if (f == CITCAT_ADDR_PDATS || f == CITCAT_ADDR_PDATS2)
		printf(", %u-bit addresses", bits);
	if (f == CITCAT_ADDR_PDATS2)
		printf(", instruction stride %u", stride);
	if (version >= 0)
		printf(", version %d", version);
	printf("\n  references        %llu\n", (unsigned long long)refs);
	printf("  instruction fetch %llu\n  data reads        %llu\n  data writes       %llu\n",
	       (unsigned long long)by_type[2], (unsigned long long)by_type[0], (unsigned long long)by_type[1]);
	if (other)
		printf("  other             %llu\n", (unsigned long long)other);
	printf("  payload bytes     %llu (%.3f references per byte)\n", (unsigned long long)payload, rpb);
	printf("  file bytes        %lld (%.3f references per byte)\n", size, rpf);
	return EXIT_OK;
}

/* ---- bench formats ---- */

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

struct bench_row {
	const char *name;
	double enc, dec; /* seconds */
	uint64_t bytes;
};

static double mrefs(uint64_t n, double s) { return s > 0 ? (double)n / s / 1e6 : 0.0; }

static int bench_one(const struct citcat_ref *v, size_t n, int fmt, int lz4, const char *tmp, struct bench_row *row)
{
	struct citcat_addr_config cfg = {sizeof cfg, fmt, 32, 4, lz4};
	for (size_t i = 0; i < n; i++)
		if (v[i].addr > 0xffffffffu) {
			cfg.addr_bits = 64;
			break;
		}
	struct citcat_addr_writer *w;
	double t0 = cli_now();
	if (citcat_addr_writer_open(&w, tmp, &cfg)) {
		cli_errinfo(tmp, citcat_addr_writer_error(w));
		citcat_addr_writer_abort(w);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		if (citcat_addr_put(w, &v[i])) {
			cli_errinfo(tmp, citcat_addr_writer_error(w));
			citcat_addr_writer_abort(w);
			return -1;
		}
	if (citcat_addr_writer_finish(w)) {
		cli_errinfo(tmp, citcat_addr_writer_error(w));
		citcat_addr_writer_abort(w);
		return -1;
	}
	citcat_addr_writer_close(w);
	row->enc = cli_now() - t0;
	struct stat st;
	row->bytes = stat(tmp, &st) == 0 ? (uint64_t)st.st_size : 0;
	struct citcat_addr_reader *r;
	struct citcat_ref ref;
	uint64_t got = 0, sum = 0;
	t0 = cli_now();
	int rc = citcat_addr_reader_open(&r, tmp, fmt);
	if (!rc)
		while ((rc = citcat_addr_next(r, &ref)) == 1)
			got++, sum += ref.addr;
	row->dec = cli_now() - t0;
	if (rc < 0 || got != n) {
		cli_errinfo(tmp, citcat_addr_reader_error(r));
		citcat_addr_reader_close(r);
		return -1;
	}
	citcat_addr_reader_close(r);
	(void)sum;
	return 0;
}

static int bench_tool(const char *cmd, const char *din, const char *tmp, struct bench_row *row)
{
	char line[2048];
	snprintf(line, sizeof line, "%s < '%s' > '%s' 2>/dev/null", cmd, din, tmp);
	double t0 = cli_now();
	int rc = system(line);
	row->enc = cli_now() - t0;
	struct stat st;
	row->bytes = rc == 0 && stat(tmp, &st) == 0 ? (uint64_t)st.st_size : 0;
	if (rc != 0)
		return -1;
	const char *dcmd = strncmp(cmd, "lz4", 3) == 0 ? "lz4 -dc" : strncmp(cmd, "gzip", 4) == 0 ? "gzip -dc"
			   : strncmp(cmd, "zstd", 4) == 0 ? "zstd -dc" : "xz -dc";
	snprintf(line, sizeof line, "%s < '%s' > /dev/null 2>/dev/null", dcmd, tmp);
	t0 = cli_now();
	rc = system(line);
	row->dec = cli_now() - t0;
	unlink(tmp);
	return rc == 0 ? 0 : -1;
}

static int load_refs(const char *path, struct citcat_ref **v, size_t *n)
{
	const struct citcat_format *f;
	if (cli_detect(path, &f))
		return EXIT_USAGE;
	if (!f || (f->id != CITCAT_FMT_ITRACE && !f->addr_fmt))
		return cli_fail("%s: offset 0: not an itrace or address trace", path);
	const char *fmt = f->name;
	struct ref_source s;
	int rc = src_open(&s, path, fmt, 1, 0); /* the core's references, as before itrace v2 */
	size_t cap = 1 << 20;
	*n = 0;
	*v = rc ? NULL : malloc(cap * sizeof **v);
	if (!rc && !*v)
		rc = cli_fail("out of memory");
	while (!rc) {
		if (*n == cap) {
			struct citcat_ref *nv = realloc(*v, 2 * cap * sizeof **v);
			if (!nv) {
				rc = cli_fail("out of memory");
				break;
			}
			*v = nv;
			cap *= 2;
		}
		int e = src_next(&s, &(*v)[*n]);
		if (e < 0)
			rc = cli_errinfo(path, src_error(&s));
		if (e <= 0)
			break;
		(*n)++;
	}
	src_close(&s);
	return rc;
}

static const char bench_help[] =
	"usage: citcat bench formats [FILE...] [--refs N] [--json]\n\n"
	"For din, xdin, PDATS and PDATS II, with and without LZ4: encode and decode\n"
	"speed (million references per second) and density (references per byte),\n"
	"beside lz4, gzip -9, zstd -19 and xz -9 applied to the same trace as din text.\n"
	"FILE: itrace or address traces; without files a synthetic trace of N\n"
	"references (default 4M) is used.  Prints numbers; never fails on time.\n";

int addr_bench(int argc, char **argv)
{
	int json = 0;
	uint64_t nsynth = 4u << 20;
	const char *files[64];
	int nfiles = 0;
	for (int i = 1; i < argc; i++) {
		if (cli_is_help(argv[i])) {
			fputs(bench_help, stdout);
			return EXIT_OK;
		} else if (strcmp(argv[i], "--json") == 0) {
			json = 1;
		} else if (strcmp(argv[i], "--refs") == 0 && i + 1 < argc) {
			if (cli_parse_size(argv[++i], &nsynth) || !nsynth || nsynth > (1u << 30))
				return cli_usage_error("bench formats", "bad --refs '%s'", argv[i]);
		} else if (argv[i][0] == '-' && argv[i][1]) {
			return cli_usage_error("bench formats", "unknown option '%s'", argv[i]);
		} else if (nfiles < 64) {
			files[nfiles++] = argv[i];
		}
	}
	const char *tdir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	char tmp[512], din[512];
	snprintf(tmp, sizeof tmp, "%s/citcat-bench-%d.out", tdir, (int)getpid());
	snprintf(din, sizeof din, "%s/citcat-bench-%d.din", tdir, (int)getpid());
	/* totals over all traces, by row name (a missing tool skips a row) */
	struct bench_row tot[16];
	int ntot = 0;
	uint64_t tot_refs = 0;
	if (json)
		printf("{\"traces\": [");
	for (int fi = 0; fi < (nfiles ? nfiles : 1); fi++) {
		struct citcat_ref *v = NULL;
		size_t n = 0;
		const char *label = nfiles ? files[fi] : "synthetic";
		if (nfiles) {
			if (load_refs(files[fi], &v, &n)) {
				free(v);
				return EXIT_USAGE;
			}
		} else {
			n = (size_t)nsynth;
			if (!(v = malloc(n * sizeof *v)))
				return cli_fail("out of memory");
			n = synth_refs(v, n, 1);
		}
		struct bench_row rows[16];
		int nr = 0, err = 0;
		static const struct { const char *name; int fmt, lz4; } fm[] = {
			{"din", CITCAT_ADDR_DIN, 0}, {"pdats", CITCAT_ADDR_PDATS, 0}, {"pdats+lz4", CITCAT_ADDR_PDATS, 1},
			{"pdats2", CITCAT_ADDR_PDATS2, 0}, {"pdats2+lz4", CITCAT_ADDR_PDATS2, 1},
		};
		for (size_t k = 0; k < sizeof fm / sizeof *fm && !err; k++) {
			rows[nr].name = fm[k].name;
			err = bench_one(v, n, fm[k].fmt, fm[k].lz4, k == 0 ? din : tmp, &rows[nr]);
			nr++;
		}
		unlink(tmp);
		static const char *tools[][2] = {{"din|lz4", "lz4 -c"}, {"din|gzip -9", "gzip -9c"},
						 {"din|zstd -19", "zstd -19 -T1 -c"}, {"din|xz -9", "xz -9 -T1 -c"}};
		for (size_t k = 0; k < 4 && !err; k++) {
			rows[nr].name = tools[k][0];
			if (bench_tool(tools[k][1], din, tmp, &rows[nr]) == 0)
				nr++;
		}
		unlink(din);
		free(v);
		if (err)
			return EXIT_USAGE;
		tot_refs += n;
		for (int k = 0; k < nr; k++) {
			int t = 0;
			while (t < ntot && strcmp(tot[t].name, rows[k].name) != 0)
				t++;
			if (t == ntot) {
				if (ntot == 16)
					continue;
				tot[ntot++] = (struct bench_row){rows[k].name, 0, 0, 0};
			}
			tot[t].enc += rows[k].enc;
			tot[t].dec += rows[k].dec;
			tot[t].bytes += rows[k].bytes;
		}
		if (json) {
			printf("%s{\"trace\": \"%s\", \"refs\": %zu, \"formats\": [", fi ? ", " : "", label, n);
			for (int k = 0; k < nr; k++)
				printf("%s{\"name\": \"%s\", \"bytes\": %llu, \"refs_per_byte\": %.4f, "
				       "\"encode_mrefs_per_s\": %.2f, \"decode_mrefs_per_s\": %.2f}",
				       k ? ", " : "", rows[k].name, (unsigned long long)rows[k].bytes,
				       rows[k].bytes ? (double)n / (double)rows[k].bytes : 0.0, mrefs(n, rows[k].enc),
				       mrefs(n, rows[k].dec));
			printf("]}");
		} else {
			printf("%s: %zu references\n", label, n);
			printf("  %-14s %12s %10s %12s %12s\n", "format", "bytes", "refs/byte", "enc Mref/s", "dec Mref/s");
			for (int k = 0; k < nr; k++)
				printf("  %-14s %12llu %10.3f %12.1f %12.1f\n", rows[k].name,
				       (unsigned long long)rows[k].bytes,
				       rows[k].bytes ? (double)n / (double)rows[k].bytes : 0.0, mrefs(n, rows[k].enc),
				       mrefs(n, rows[k].dec));
			printf("  (din|TOOL: the tool run on the din text; its speeds include the din text I/O only as a pipe)\n");
		}
	}
	if (json) {
		printf("], \"total\": {\"refs\": %llu, \"formats\": [", (unsigned long long)tot_refs);
		for (int k = 0; k < ntot; k++)
			printf("%s{\"name\": \"%s\", \"bytes\": %llu, \"refs_per_byte\": %.4f, "
			       "\"encode_mrefs_per_s\": %.2f, \"decode_mrefs_per_s\": %.2f}",
			       k ? ", " : "", tot[k].name, (unsigned long long)tot[k].bytes,
			       tot[k].bytes ? (double)tot_refs / (double)tot[k].bytes : 0.0, mrefs(tot_refs, tot[k].enc),
			       mrefs(tot_refs, tot[k].dec));
		printf("]}}\n");
	} else if (nfiles > 1) {
		printf("total over %d traces: %llu references\n", nfiles, (unsigned long long)tot_refs);
		printf("  %-14s %12s %10s %12s %12s\n", "format", "bytes", "refs/byte", "enc Mref/s", "dec Mref/s");
		for (int k = 0; k < ntot; k++)
			printf("  %-14s %12llu %10.3f %12.1f %12.1f\n", tot[k].name, (unsigned long long)tot[k].bytes,
			       tot[k].bytes ? (double)tot_refs / (double)tot[k].bytes : 0.0, mrefs(tot_refs, tot[k].enc),
			       mrefs(tot_refs, tot[k].dec));
	}
	return EXIT_OK;
}
