/* citcat plan / citcat merge: segment-parallel replay of a CAT captured with
 * --checkpoint-every (replay/SEGMENTS.md).  plan writes one shell command
 * per segment (extract it, replay it, verify it against its slice of the
 * CAT); merge joins the segments' itraces into the serial one. */
#include "cli.h"
#include <citcat/io.h>

#include <citcat/cat.h>
#include <citcat/itrace.h>

#include <citcat/ims.h>
#include <citcat/aes.h>
#include <citcat/replay.h>

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char plan_help[] =
	"usage: citcat plan RUN.ims RUN.aes -o JOBS.txt [--verify RUN.cat] [--prefix P] [--citcat PATH]\n"
	"       citcat plan RUN.cat -o JOBS.txt [--prefix P] [--citcat PATH]\n\n"
	"RUN.ims RUN.aes (citcat ims/aes of a CAT captured with --checkpoint-every, which\n"
	"hold every segment behind an index): one line per segment,\n"
	"citcat replay RUN.ims RUN.aes --segment K [--verify RUN.cat] -o P.K.itrace -q,\n"
	"each opening its segment through the index (default P: RUN without .ims).\n"
	"RUN.cat: "
	"one shell command per segment of a CAT captured with --checkpoint-every\n"
	"(replay/SEGMENTS.md): segment K is extracted (citcat ims/aes --segment K) and\n"
	"replayed on its own with --verify against its slice of the CAT, into\n"
	"P.K.itrace (K zero-padded to 6 digits, so that P.*.itrace sorts in order).\n"
	"The lines are independent: run them with GNU parallel (also across machines\n"
	"with --sshlogin), as a Slurm job array or with make -j, then join the outputs\n"
	"with citcat merge P.*.itrace -o RUN.itrace.  A CAT without checkpoints has one\n"
	"segment.\n"
	"  --prefix P     output stem (default: RUN without .cat)\n"
	"  --citcat PATH  the citcat command the lines run (default: citcat)\n";

static const char merge_help[] =
	"usage: citcat merge SEG0.itrace SEG1.itrace ... -o OUT.itrace [--check]\n\n"
	"Joins the itraces of consecutive segments (citcat plan; replay --segment) into\n"
	"one itrace, byte-identical to the serial replay's, by copying their compressed\n"
	"chunks (each chunk's checksum and each file's totals are checked; nothing is\n"
	"re-encoded).  At each seam the earlier segment must end at a checkpoint's start\n"
	"point and the later one start at the PC after it; only the last input may end\n"
	"with an abnormal-end record (fault, WFI deadlock, interrupted).\n"
	"  --check   also decode every record of every input (replay/SEGMENTS.md)\n";

/* Single-quotes S for sh into OUT (capacity N); 0, or -1 when too long. */
static int sh_quote(const char *s, char *out, size_t n)
{
	size_t k = 0;
	if (n < 3)
		return -1;
	out[k++] = '\'';
	for (; *s; s++) {
		const char *piece = *s == '\'' ? "'\\''" : NULL;
		size_t len = piece ? 4 : 1;
		if (k + len + 2 > n)
			return -1;
		if (piece)
			memcpy(out + k, piece, len);
		else
			out[k] = *s;
		k += len;
	}
	out[k++] = '\'';
	out[k] = 0;
	return 0;
}

static int seg_stop(void *ctx)
{
	(void)ctx;
	return cli_interrupted();
}

/* Counts the segments (citcat_cat_segments): the CKPT events after the
 * SYNC, plus one.  An exit status. */
static int count_segments(const char *cat, uint64_t *n)
{
	struct citcat_errinfo e = {0};
	int rc = citcat_cat_segments(cat, n, seg_stop, NULL, &e);
	if (rc == CITCAT_ERR_INTERRUPTED) {
		fprintf(stderr, "citcat: plan: interrupted\n");
		return EXIT_USAGE;
	}
	if (rc)
		return cli_errinfo(cat, &e);
	if (!*n) {
		fprintf(stderr, "citcat: %s: the CAT has no trace start point\n", cat);
		return EXIT_USAGE;
	}
	return 0;
}

/* The segment count of the bundles IMS and AES (common/SEGIDX.md) into *N;
 * the two must agree.  An exit status. */
static int bundle_segments(const char *ims, const char *aes, uint64_t *n)
{
	uint64_t na;
	struct citcat_errinfo e = {0};
	if (citcat_ims_segments(ims, n, &e))
		return cli_errinfo(ims, &e);
	if (citcat_aes_segments(aes, &na, &e))
		return cli_errinfo(aes, &e);
	if (*n != na) {
		fprintf(stderr, "citcat: %s holds %llu segments, %s %llu: not from the same capture\n", ims,
			(unsigned long long)*n, aes, (unsigned long long)na);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

/* plan's output stem into STEM (capacity 4096): PREFIX, else IN without
 * SUFFIX.  An exit status. */
static int plan_stem(char stem[4096], const char *prefix, const char *in, const char *suffix)
{
	size_t sl = prefix ? strlen(prefix) : strlen(in) - (cli_has_suffix(in, suffix) ? 4 : 0);
	if (sl + 1 > 4096)
		return cli_usage_error("plan", "the output stem is too long");
	memcpy(stem, prefix ? prefix : in, sl);
	stem[sl] = 0;
	return EXIT_OK;
}

/* The quoted paths a plan line names: the tool, the inputs, and for the
 * bundles form the " --verify 'CAT'" option or "". */
struct plan_quoted {
	const char *qt, *qi, *qa, *qv;
};

/* Formats segment K's plan line into LINE (capacity CAP); QS is the quoted
 * 'STEM.K without its closing quote.  The line's length. */
typedef int (*plan_line_fn)(char *line, size_t cap, uint64_t k, const char *qs, const struct plan_quoted *q);

/* Writes the N lines FMT makes (segments 0..N-1 of STEM) to OUT, all or
 * nothing.  An exit status. */
static int write_plan(const char *out, const char *stem, uint64_t n, plan_line_fn fmt, const struct plan_quoted *q)
{
	struct citcat_outfile *o;
	struct citcat_errinfo e = {0};
	int rc;
	if ((rc = citcat_outfile_open(&o, out, CITCAT_OUT_PLAIN, &e)))
		return cli_errinfo(out, &e);
	char line[4 * 8500], qs[4200 + 20];
	for (uint64_t k = 0; k < n && !rc; k++) {
		char seg[4200];
		snprintf(seg, sizeof seg, "%s.%06llu", stem, (unsigned long long)k);
		if (sh_quote(seg, qs, sizeof qs)) {
			citcat_outfile_abort(o);
			return cli_usage_error("plan", "a path is too long");
		}
		qs[strlen(qs) - 1] = 0; /* 'STEM.K: the suffixes go inside the quotes */
		int len = fmt(line, sizeof line, k, qs, q);
		rc = citcat_outfile_write(o, line, (size_t)len);
	}
	if (rc) {
		citcat_outfile_abort(o);
		fprintf(stderr, "citcat: %s: write failed\n", out);
		return EXIT_USAGE;
	}
	if (citcat_outfile_commit(o, &e))
		return cli_errinfo(out, &e);
	return EXIT_OK;
}

static int bundles_line(char *line, size_t cap, uint64_t k, const char *qs, const struct plan_quoted *q)
{
	return snprintf(line, cap, "%s replay %s %s --segment %llu%s -o %s.itrace' -q\n", q->qt, q->qi, q->qa,
			(unsigned long long)k, q->qv, qs);
}

static int cat_line(char *line, size_t cap, uint64_t k, const char *qs, const struct plan_quoted *q)
{
	const char *qt = q->qt, *qc = q->qi;
	return snprintf(line, cap,
			"%s ims %s --segment %llu -o %s.ims' && %s aes %s --segment %llu -o %s.aes' && "
			"%s replay %s.ims' %s.aes' --segment %llu --verify %s -o %s.itrace' -q\n",
			qt, qc, (unsigned long long)k, qs, qt, qc, (unsigned long long)k, qs, qt, qs, qs,
			(unsigned long long)k, qc, qs);
}

/* Whether PATH can be written into a job line: a regular file (the jobs
 * read it again, later, elsewhere), not "-" or a FIFO. */
static int plan_file(const char *path)
{
	struct stat st;
	return strcmp(path, "-") != 0 && stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* plan RUN.ims RUN.aes: one replay --segment K line per segment of the
 * bundles (common/SEGIDX.md), each opening its segment through the index. */
static int plan_bundles(const char *ims, const char *aes, const char *verify, const char *out, const char *prefix,
			const char *tool)
{
	const char *files[] = {ims, aes, verify};
	for (int k = 0; k < 3; k++)
		if (files[k] && !plan_file(files[k]))
			return cli_usage_error("plan", "%s: the inputs must be regular files (every job reads them again), not "
						       "standard input or a FIFO", files[k]);
	const char *ins[] = {ims, aes, verify};
	if (cli_check_distinct(ins, verify ? 3 : 2, &out, 1))
		return EXIT_USAGE;
	uint64_t n;
	int rc = bundle_segments(ims, aes, &n);
	if (rc)
		return rc;
	char stem[4096];
	if ((rc = plan_stem(stem, prefix, ims, ".ims")))
		return rc;
	char qt[4200], qi[4200], qa[4200], qv[4300] = "";
	if (sh_quote(tool, qt, sizeof qt) || sh_quote(ims, qi, sizeof qi) || sh_quote(aes, qa, sizeof qa) ||
	    (verify && (sh_quote(verify, qv + 10, sizeof qv - 10) || (memcpy(qv, " --verify ", 10), 0))))
		return cli_usage_error("plan", "a path is too long");
	struct plan_quoted q = {qt, qi, qa, qv};
	if ((rc = write_plan(out, stem, n, bundles_line, &q)))
		return rc;
	if (!cli_quiet)
		fprintf(stderr, "citcat plan: %llu segment%s; then citcat merge %s.*.itrace -o OUT.itrace\n", (unsigned long long)n,
		n == 1 ? "" : "s", stem);
	return EXIT_OK;
}

int cmd_plan(int argc, char **argv)
{
	const char *cat = NULL, *aes = NULL, *out = NULL, *prefix = NULL, *tool = "citcat", *verify = NULL;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (cli_is_help(a)) {
			fputs(plan_help, stdout);
			return EXIT_OK;
		} else if (strcmp(a, "-o") == 0 && i + 1 < argc) {
			out = argv[++i];
		} else if (strcmp(a, "--prefix") == 0 && i + 1 < argc) {
			prefix = argv[++i];
		} else if (strcmp(a, "--citcat") == 0 && i + 1 < argc) {
			tool = argv[++i];
		} else if (strcmp(a, "--verify") == 0 && i + 1 < argc) {
			verify = argv[++i];
		} else if (a[0] == '-' && a[1]) {
			return cli_usage_error("plan", "unknown or incomplete option '%s'", a);
		} else if (!cat) {
			cat = a;
		} else if (!aes) {
			aes = a;
		} else {
			return cli_usage_error("plan", "unexpected argument '%s'", a);
		}
	}
	if (!cat || !out)
		return cli_usage_error("plan", "need RUN.ims RUN.aes (or RUN.cat) and -o JOBS.txt");
	if (aes)
		return plan_bundles(cat, aes, verify, out, prefix, tool);
	if (verify)
		return cli_usage_error("plan", "--verify goes with RUN.ims RUN.aes (the RUN.cat form verifies against RUN.cat)");
	if (!plan_file(cat))
		return cli_usage_error("plan", "%s: the CAT must be a regular file (every job reads it again), not standard "
					       "input or a FIFO", cat);
	if (cli_check_distinct(&cat, 1, &out, 1))
		return EXIT_USAGE;
	char stem[4096];
	int rc = plan_stem(stem, prefix, cat, ".cat");
	if (rc)
		return rc;
	uint64_t n;
	if ((rc = count_segments(cat, &n)))
		return rc;
	char qt[4200], qc[4200];
	if (sh_quote(tool, qt, sizeof qt) || sh_quote(cat, qc, sizeof qc))
		return cli_usage_error("plan", "a path is too long");
	struct plan_quoted q = {qt, qc, NULL, NULL};
	if ((rc = write_plan(out, stem, n, cat_line, &q)))
		return rc;
	if (!cli_quiet)
		fprintf(stderr, "citcat plan: %llu segment%s\n", (unsigned long long)n, n == 1 ? "" : "s");
	return EXIT_OK;
}

/* Joins the itraces IN[0..NIN) into OUT (merge_help; citcat_itrace_merge
 * splices their chunks); an exit status. */
static int merge_check(const char *const *in, int nin, const char *out, uint64_t *nrec_out, int check)
{
	struct citcat_itrace_merge_result res;
	struct citcat_errinfo err;
	size_t at;
	int rc = citcat_itrace_merge(in, (size_t)nin, out, check, seg_stop, NULL, &res, &err, &at);
	if (rc == CITCAT_ERR_INTERRUPTED) {
		fprintf(stderr, "citcat: merge: interrupted\n");
		return EXIT_USAGE;
	}
	if (rc)
		return cli_errinfo(at < (size_t)nin ? in[at] : out, &err);
	*nrec_out = res.records;
	return EXIT_OK;
}

static int merge_files(const char *const *in, int nin, const char *out, uint64_t *nrec_out)
{
	return merge_check(in, nin, out, nrec_out, 0);
}

int cmd_merge(int argc, char **argv)
{
	const char *out = NULL;
	const char **in = calloc((size_t)argc + 1, sizeof *in);
	int nin = 0, check = 0;
	if (!in) {
		fprintf(stderr, "citcat: merge: out of memory\n");
		return EXIT_USAGE;
	}
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (cli_is_help(a)) {
			fputs(merge_help, stdout);
			free(in);
			return EXIT_OK;
		} else if (strcmp(a, "-o") == 0 && i + 1 < argc) {
			out = argv[++i];
		} else if (strcmp(a, "--check") == 0) {
			check = 1;
		} else if (a[0] == '-' && a[1]) {
			free(in);
			return cli_usage_error("merge", "unknown or incomplete option '%s'", a);
		} else {
			in[nin++] = a;
		}
	}
	if (!nin || !out) {
		free(in);
		return cli_usage_error("merge", "need the segments' itraces and -o OUT.itrace");
	}
	if (cli_check_distinct(in, (size_t)nin, &out, 1)) {
		free(in);
		return EXIT_USAGE;
	}
	uint64_t nrec = 0;
	int rc = merge_check(in, nin, out, &nrec, check);
	free(in);
	if (rc == EXIT_OK)
		if (!cli_quiet)
			fprintf(stderr, "citcat merge: %llu records from %d segment%s\n", (unsigned long long)nrec, nin,
			nin == 1 ? "" : "s");
	return rc;
}

/* ---- citcat replay RUN.cat --jobs N ---- */

struct seg_jobs {
	const char *cat, *verify, *dir;
	const char *ims, *aes; /* segment bundles (common/SEGIDX.md), or NULL: extract from CAT */
	unsigned engine;       /* CITCAT_REPLAY_ENGINE_*, the same for every segment */
	unsigned model_thread; /* CITCAT_REPLAY_MODEL_* (replay_jobs_files) */
	uint64_t nseg;
	uint64_t next;  /* the next segment to take (atomic) */
	int failed;     /* a segment failed: the others stop (atomic) */
	int *rc;        /* per segment */
	struct citcat_errinfo *err;
	struct citcat_replay_result *res;
};

static int jobs_stop(void *ctx, uint64_t a, uint64_t b)
{
	struct seg_jobs *j = ctx;
	(void)a, (void)b;
	return cli_interrupted() || __atomic_load_n(&j->failed, __ATOMIC_SEQ_CST);
}

static void seg_path(char *buf, size_t n, const struct seg_jobs *j, uint64_t k, const char *ext)
{
	snprintf(buf, n, "%s/%06llu.%s", j->dir, (unsigned long long)k, ext);
}

/* One thread: takes segments in turn; each is extracted into the scratch
 * directory and replayed with its own Unicorn instance (citcat_replay_run
 * keeps its state in its own replayer). */
static void *seg_worker(void *arg)
{
	struct seg_jobs *j = arg;
	char ims_path[4200], aes_path[4200], out_path[4200];
	for (;;) {
		uint64_t k = __atomic_fetch_add(&j->next, 1, __ATOMIC_SEQ_CST);
		if (k >= j->nseg || __atomic_load_n(&j->failed, __ATOMIC_SEQ_CST))
			break;
		seg_path(ims_path, sizeof ims_path, j, k, "ims");
		seg_path(aes_path, sizeof aes_path, j, k, "aes");
		seg_path(out_path, sizeof out_path, j, k, "itrace");
		struct citcat_ims ims;
		struct citcat_errinfo *err = &j->err[k];
		int rc = 0;
		if (!j->ims) {
			rc = citcat_ims_extract_segment(j->cat, k, &ims, NULL, jobs_stop, j, err);
			if (!rc)
				rc = citcat_ims_write(&ims, ims_path, err);
			citcat_ims_fini(&ims);
			if (!rc)
				rc = citcat_aes_extract_segment(j->cat, k, aes_path, NULL, jobs_stop, j, err);
		}
		if (!rc) {
			struct citcat_replay_config c;
			citcat_replay_config_default(&c);
			c.ims_path = j->ims ? j->ims : ims_path;
			c.aes_path = j->aes ? j->aes : aes_path;
			c.segment = j->ims ? k + 1 : 0; /* through the bundles' index */
			c.out_path = out_path;
			c.verify_cat = j->verify;
			c.verify_segment = k + 1;
			c.progress = jobs_stop;
			c.progress_ctx = j;
			c.engine = j->engine;
			c.model_thread = j->model_thread;
			rc = citcat_replay_run(&c, &j->res[k], err);
		}
		if (!j->ims) {
			remove(ims_path);
			remove(aes_path);
		}
		j->rc[k] = rc;
		if (rc)
			__atomic_store_n(&j->failed, 1, __ATOMIC_SEQ_CST);
	}
	return NULL;
}

/* Compares the files A and B byte for byte: 0 when equal, else EXIT_CHECK
 * with the first differing offset reported. */
static int same_bytes(const char *a, const char *b)
{
	struct citcat_errinfo e = {0};
	uint64_t off = 0;
	int which = 0;
	int rc = citcat_file_compare(a, b, &off, &e, &which);
	if (rc < 0)
		return cli_errinfo(which ? b : a, &e);
	if (rc) {
		fprintf(stderr, "citcat replay: the merged instruction trace differs from the oracle %s at byte %llu%s\n", b,
			(unsigned long long)off, rc == 2 ? " (one ends there)" : "");
		return EXIT_CHECK;
	}
	return 0;
}

int replay_jobs(const char *cat, unsigned njobs, const char *out, const char *verify, unsigned engine, int quiet)
{
	return replay_jobs_files(cat, NULL, NULL, njobs, out, verify, NULL, engine, quiet);
}

int replay_jobs_files(const char *cat, const char *ims, const char *aes, unsigned njobs, const char *out,
		      const char *verify, const char *oracle, unsigned engine, int quiet)
{
	struct seg_jobs j = {.cat = cat, .verify = verify, .ims = ims, .aes = aes, .engine = engine};
	/* with several segment replays at once, each keeps its model inline:
	 * they already fill the cores (REPLAY.md "session 12: the model thread") */
	j.model_thread = njobs > 1 ? CITCAT_REPLAY_MODEL_INLINE : cli_model_thread();
	int rc;
	if ((rc = ims ? bundle_segments(ims, aes, &j.nseg) : count_segments(cat, &j.nseg)))
		return rc;
	const char *tmp = getenv("TMPDIR");
	char dir[4096];
	snprintf(dir, sizeof dir, "%s/citcat-seg-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		perror("citcat: replay --jobs: scratch directory");
		return EXIT_USAGE;
	}
	j.dir = dir;
	j.rc = calloc(j.nseg, sizeof *j.rc);
	j.err = calloc(j.nseg, sizeof *j.err);
	j.res = calloc(j.nseg, sizeof *j.res);
	char **paths = calloc(j.nseg, sizeof *paths);
	pthread_t *th = calloc(njobs, sizeof *th);
	unsigned started = 0;
	int status = EXIT_OK;
	if (!j.rc || !j.err || !j.res || !paths || !th) {
		fprintf(stderr, "citcat: replay --jobs: out of memory\n");
		status = EXIT_USAGE;
		goto out;
	}
	double t0 = cli_now();
	for (; started < njobs && started < j.nseg; started++)
		if (pthread_create(&th[started], NULL, seg_worker, &j))
			break;
	if (!started)
		seg_worker(&j);
	for (unsigned i = 0; i < started; i++)
		pthread_join(th[i], NULL);
	double t1 = cli_now();
	/* the first segment that failed on its own; the others were stopped */
	for (uint64_t k = 0; k < j.nseg && status == EXIT_OK; k++) {
		if (j.rc[k] == CITCAT_ERR_DIVERGED) {
			const struct citcat_divergence *d = &j.res[k].div;
			fprintf(stderr, "citcat replay: DIVERGED in segment %llu: %s check failed at its instruction #%llu "
				"(branch count %llu, pc 0x%08x)\n  expected: %s\n  found:    %s\n",
				(unsigned long long)k, d->check, (unsigned long long)d->insn_index,
				(unsigned long long)d->bcount, d->pc, d->expected, d->found);
			fprintf(stderr, "  (replay the segment alone for the full report: citcat plan, line %llu)\n",
				(unsigned long long)k + 1);
			status = EXIT_CHECK;
		} else if (j.rc[k] && j.rc[k] != CITCAT_ERR_INTERRUPTED) {
			fprintf(stderr, "citcat: segment %llu: ", (unsigned long long)k);
			status = cli_errinfo(j.res[k].err_path ? j.res[k].err_path : cat ? cat : ims, &j.err[k]);
		}
	}
	if (status == EXIT_OK && (j.failed || cli_interrupted())) {
		fprintf(stderr, "citcat: replay: interrupted\n");
		status = EXIT_USAGE;
	}
	uint64_t insns = 0, nrec = 0;
	if (status == EXIT_OK) {
		for (uint64_t k = 0; k < j.nseg; k++) {
			insns += j.res[k].insns;
			if (!(paths[k] = malloc(4200))) {
				status = EXIT_USAGE;
				break;
			}
			seg_path(paths[k], 4200, &j, k, "itrace");
		}
		/* --oracle: the merged itrace, written to the scratch directory
		 * without -o, equals the ground truth byte for byte */
		char mpath[4200];
		snprintf(mpath, sizeof mpath, "%s/merged.itrace", dir);
		const char *mout = out ? out : oracle ? mpath : NULL;
		if (status == EXIT_OK && mout)
			status = merge_files((const char *const *)paths, (int)j.nseg, mout, &nrec);
		if (status == EXIT_OK && oracle)
			status = same_bytes(mout, oracle);
		remove(mpath);
	}
	if (status == EXIT_OK && !quiet)
		fprintf(stderr, "citcat replay: %llu instructions in %llu segments on %u threads in %.2f s, merged in %.2f s%s\n",
			(unsigned long long)insns, (unsigned long long)j.nseg, started ? started : 1, t1 - t0,
			cli_now() - t1, verify ? "; every segment's bus trace verified" : "");
	if (status == EXIT_OK && !quiet && oracle)
		fprintf(stderr, "citcat replay: the merged instruction trace equals the oracle\n");
out:
	for (uint64_t k = 0; k < j.nseg; k++) {
		char p[4200];
		seg_path(p, sizeof p, &j, k, "itrace");
		remove(p);
		if (paths)
			free(paths[k]);
	}
	rmdir(dir);
	free(paths);
	free(th);
	free(j.rc);
	free(j.err);
	free(j.res);
	return status;
}
