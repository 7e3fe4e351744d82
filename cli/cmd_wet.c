/* citcat wet: build a whole execution trace (WET) while replaying, and
 * query it.  The fixed text forms (one PC per line; INDEX PC ADDRESS SIZE
 * VALUE per access; one INDEX per line for slices) are for scripts. */
#include "cli.h"
#include "wet.h"
#include "outfile.h"

#include <errno.h>

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static const char wet_help[] =
	"usage: citcat wet RUN.ims RUN.aes -o RUN.wet [--nodes path|bb] [--seg-insns N] [--segment K] [--json]\n"
	"       citcat wet query RUN.wet QUERY [--json] [-o OUT]\n\n"
	"Builds the whole execution trace (WET) of a run while replaying it from its\n"
	"IMS and AES: the control flow as node executions (paths or basic blocks)\n"
	"with timestamps, every register result, memory address and value, every\n"
	"data dependence (registers, flags, memory; interrupt entries included) and\n"
	"every dynamic control dependence (post-dominators of each function's dynamic\n"
	"CFG; the run is replayed twice), each stream compressed with bidirectional\n"
	"predictors (WET.md).\n"
	"  --nodes path|bb  node kind: Ball-Larus paths of each function's dynamic CFG\n"
	"                   (default) or basic blocks (runs of consecutive addresses)\n"
	"  --seg-insns N    instructions per WET segment (default 65536)\n"
	"  --segment K      the WET of segment K of a checkpointed capture's IMS and\n"
	"                   AES bundles (the run between checkpoints K and K + 1, as\n"
	"                   citcat replay --segment K regenerates it; WET.md)\n"
	"Queries (INDEX = the instruction's position in the itrace, interrupt entries\n"
	"not counted, from 0; timestamps number node executions from 1; RUN.wet may be\n"
	"compressed whole, .lz4/.zst/.xz, or - for standard input):\n"
	"  --cf [--backward] [--range T1:T2]   control flow: one PC per line (0x%08x)\n"
	"  --loads [--pc PC]                  INDEX PC ADDRESS SIZE VALUE per load\n"
	"  --addrs [--pc PC]                  the same for loads and stores\n"
	"  --slice INDEX                      backward WET slice (data and control\n"
	"                                     dependences): instruction indices,\n"
	"                                     ascending, one per line\n"
	"  --forward-slice INDEX              forward WET slice, likewise\n"
	"  --info                             sizes per stream\n"
	"  --check                            read and check every block, both ways\n"
	"Exit status: 0 ok; 1 the replay diverged; 2 usage or input error.\n";

static int progress_cb(void *ctx, uint64_t done, uint64_t total)
{
	cli_progress_update(ctx, done, total, "insn");
	return cli_interrupted();
}

static int seg_progress(void *ctx, uint64_t done, uint64_t total)
{
	cli_progress_update(ctx, done, total, "segment");
	return cli_interrupted();
}

static void print_sizes(FILE *f, const struct citcat_wet_stream_size *s, uint64_t insns, int json)
{
	uint64_t tot = 0;
	for (unsigned k = 0; k < CITCAT_WET_NSTREAMS; k++)
		tot += s[k].bytes;
	if (json) {
		fprintf(f, "\"streams\": {");
		for (unsigned k = 0; k < CITCAT_WET_NSTREAMS; k++)
			fprintf(f, "%s\"%s\": {\"values\": %" PRIu64 ", \"raw_bytes\": %" PRIu64 ", \"bytes\": %" PRIu64
				   ", \"methods\": [%" PRIu64 ", %" PRIu64 ", %" PRIu64 ", %" PRIu64 ", %" PRIu64 ", %" PRIu64 "]}",
				k ? ", " : "", citcat_wet_stream_name(k), s[k].values, 4 * s[k].values, s[k].bytes, s[k].method[0],
				s[k].method[1], s[k].method[2], s[k].method[3], s[k].method[4], s[k].method[5]);
		fprintf(f, "}, \"stream_bytes\": %" PRIu64 ", \"bits_per_insn\": %.4f", tot,
			insns ? 8.0 * (double)tot / (double)insns : 0.0);
		return;
	}
	fprintf(f, "%-8s %12s %12s %12s %8s %10s\n", "stream", "values", "raw bytes", "stored", "raw/st", "bits/insn");
	for (unsigned k = 0; k < CITCAT_WET_NSTREAMS; k++)
		fprintf(f, "%-8s %12" PRIu64 " %12" PRIu64 " %12" PRIu64 " %8.2f %10.4f\n", citcat_wet_stream_name(k),
			s[k].values, 4 * s[k].values, s[k].bytes, s[k].bytes ? 4.0 * (double)s[k].values / (double)s[k].bytes : 0.0,
			insns ? 8.0 * (double)s[k].bytes / (double)insns : 0.0);
	fprintf(f, "%-8s %12s %12s %12" PRIu64 " %8s %10.4f\n", "total", "", "", tot, "",
		insns ? 8.0 * (double)tot / (double)insns : 0.0);
}

static int cmd_wet_build(int argc, char **argv)
{
	struct citcat_wet_build_config c;
	citcat_wet_build_config_default(&c);
	const char *pos[2] = {NULL, NULL};
	int npos = 0, json = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		uint64_t v;
		if (cli_is_help(a)) {
			fputs(wet_help, stdout);
			return EXIT_OK;
		} else if (strcmp(a, "-o") == 0 && i + 1 < argc) {
			c.out_path = argv[++i];
		} else if (strcmp(a, "--nodes") == 0 && i + 1 < argc) {
			if (strcmp(argv[++i], "bb") == 0)
				c.node_kind = CITCAT_WET_NODES_BB;
			else if (strcmp(argv[i], "path") == 0)
				c.node_kind = CITCAT_WET_NODES_PATH;
			else
				return cli_usage_error("wet", "--nodes %s: 'path' or 'bb'", argv[i]);
		} else if (strcmp(a, "--seg-insns") == 0 && i + 1 < argc) {
			if (cli_parse_u64(argv[++i], &v) || v < 1 || v > (1u << 19))
				return cli_usage_error("wet", "--seg-insns: a number from 1 to 524288");
			c.seg_insns = (uint32_t)v;
		} else if (strcmp(a, "--segment") == 0 && i + 1 < argc) {
			if (cli_parse_u64(argv[++i], &v) || v >= UINT32_MAX)
				return cli_usage_error("wet", "bad segment number '%s'", argv[i]);
			c.capture_segment = v + 1;
		} else if (strcmp(a, "--json") == 0) {
			json = 1;
		} else if (a[0] == '-' && a[1]) {
			return cli_usage_error("wet", "unknown or incomplete option '%s'", a);
		} else if (npos < 2) {
			pos[npos++] = a;
		} else {
			return cli_usage_error("wet", "unexpected argument '%s'", a);
		}
	}
	if (npos != 2 || !c.out_path)
		return cli_usage_error("wet", "need RUN.ims RUN.aes -o RUN.wet");
	if (strcmp(c.out_path, "-") == 0)
		return cli_usage_error("wet", "a WET is read by seeking: -o needs a file name");
	c.ims_path = pos[0];
	c.aes_path = pos[1];
	struct cli_progress pr;
	cli_progress_init(&pr, "wet");
	c.progress = progress_cb;
	c.progress_ctx = &pr;
	struct citcat_wet_build_result res;
	struct citcat_errinfo err;
	int rc = citcat_wet_build(&c, &res, &err);
	cli_progress_done(&pr);
	if (rc == CITCAT_ERR_DIVERGED) {
		const struct citcat_divergence *d = &res.replay.div;
		fprintf(stderr, "citcat wet: the replay DIVERGED: %s check failed at instruction #%llu (pc 0x%08x)\n"
				"  expected: %s\n  found:    %s\n",
			d->check, (unsigned long long)d->insn_index, d->pc, d->expected, d->found);
		return EXIT_CHECK;
	}
	if (rc) {
		if (!err.msg[0])
			snprintf(err.msg, sizeof err.msg, "%s", citcat_errstr(rc));
		return cli_errinfo(res.replay.err_path ? res.replay.err_path : c.out_path, &err);
	}
	double mips = res.seconds > 0 ? (double)res.insns / res.seconds / 1e6 : 0.0;
	if (json) {
		printf("{\"insns\": %" PRIu64 ", \"irqs\": %" PRIu64 ", \"node_execs\": %" PRIu64 ", \"nodes\": %" PRIu64
		       ", \"segments\": %" PRIu64 ", \"deps\": %" PRIu64 ", \"file_bytes\": %" PRIu64 ", \"graph_bytes\": %" PRIu64
		       ", \"index_bytes\": %" PRIu64 ", \"seconds\": %.3f, \"minsn_per_s\": %.3f, \"cdeps\": %" PRIu64
		       ", \"cfg\": {\"functions\": %" PRIu64 ", \"nodes\": %" PRIu64 ", \"edges\": %" PRIu64 ", \"branches\": %" PRIu64
		       ", \"control_deps\": %" PRIu64 ", \"back_edges\": %" PRIu64 "}, \"node_stmts\": %" PRIu64 ", \"local_deps\": %" PRIu64
		       ", \"regvals\": %" PRIu64 ", \"tuples\": %" PRIu64 ", \"groups\": %" PRIu64 ", \"dep_labels\": %" PRIu64 ", \"acc_tier1_segments\": [%" PRIu64 ", %" PRIu64 "], ",
		       res.insns, res.irqs, res.node_execs, res.nodes, res.segments, res.deps, res.file_bytes, res.graph_bytes,
		       res.index_bytes, res.seconds, mips, res.cdeps, res.cfg[0], res.cfg[1], res.cfg[2], res.cfg[3], res.cfg[4], res.cfg[5], res.node_stmts, res.local_deps,
		       res.regvals, res.tuples, res.groups, res.dep_labels, res.acc_tier1[0], res.acc_tier1[1]);
		print_sizes(stdout, res.stream, res.insns, 1);
		printf("}\n");
	} else if (!cli_quiet) {
		fprintf(stderr,
			"citcat wet: %" PRIu64 " instructions, %" PRIu64 " interrupts, %" PRIu64 " node executions of %" PRIu64
			" nodes, %" PRIu64 " data dependences (%" PRIu64 " local, unlabelled; the rest under %" PRIu64 " shared labels), %" PRIu64
			" control dependences (%" PRIu64 " functions, %" PRIu64
			" branches); %" PRIu64 " bytes (%.3f bits/insn) in %.2f s (%.2f Minsn/s)\n",
			res.insns, res.irqs, res.node_execs, res.nodes, res.deps, res.local_deps, res.dep_labels, res.cdeps, res.cfg[0], res.cfg[3], res.file_bytes,
			res.insns ? 8.0 * (double)res.file_bytes / (double)res.insns : 0.0, res.seconds, mips);
	}
	return EXIT_OK;
}

struct qctx {
	FILE *out;
	int json, loads, has_pc, first;
	uint32_t pc;
	uint64_t n;
	FILE *tmp; /* backward slice: indices, descending */
	int tmp_failed; /* errno of a failed write to TMP */
};

static int cf_cb(void *ctx, const struct citcat_wet_insn *in)
{
	struct qctx *q = ctx;
	if (q->json)
		fprintf(q->out, "%s%u", q->first++ ? ", " : "", in->pc);
	else
		fprintf(q->out, "0x%08x\n", in->pc);
	q->n++;
	return 0;
}

static int acc_cb(void *ctx, const struct citcat_wet_insn *in)
{
	struct qctx *q = ctx;
	if (q->has_pc && in->pc != q->pc)
		return 0;
	for (uint32_t k = 0; k < in->n_acc; k++) {
		if (q->loads && in->acc[k].write)
			continue;
		if (q->json)
			fprintf(q->out, "%s{\"index\": %" PRIu64 ", \"pc\": %u, \"addr\": %u, \"size\": %u, \"write\": %u, \"value\": %" PRIu64 "}",
				q->first++ ? ", " : "", in->index, in->pc, in->acc[k].addr, in->acc[k].size, in->acc[k].write,
				in->acc[k].value);
		else
			fprintf(q->out, "%" PRIu64 " 0x%08x 0x%08x %u 0x%" PRIx64 "\n", in->index, in->pc, in->acc[k].addr,
				in->acc[k].size, in->acc[k].value);
		q->n++;
	}
	return 0;
}

static int count_cb(void *ctx, const struct citcat_wet_insn *in)
{
	((struct qctx *)ctx)->n++;
	return 0;
}

static int slice_cb(void *ctx, const struct citcat_wet_insn *in)
{
	struct qctx *q = ctx;
	q->n++;
	if (q->json) {
		fprintf(q->out, "%s{\"index\": %" PRIu64 ", \"pc\": %u, \"ts\": %" PRIu64 ", \"deps\": [", q->first++ ? ", " : "",
			in->index, in->pc, in->ts);
		for (uint32_t i = 0; i < in->n_dep; i++)
			fprintf(q->out, "%s%" PRIu64, i ? ", " : "", in->dep[i]);
		if (in->has_ctrl)
			fprintf(q->out, "], \"ctrl\": %" PRIu64 "}", in->ctrl);
		else
			fprintf(q->out, "], \"ctrl\": null}");
		return 0;
	}
	if (q->tmp) {
		if (fwrite(&in->index, sizeof in->index, 1, q->tmp) == 1)
			return 0;
		q->tmp_failed = errno ? errno : EIO;
		return CITCAT_ERR_IO;
	}
	fprintf(q->out, "%" PRIu64 "\n", in->index);
	return 0;
}

/* Prints the backward slice's indices (written descending) ascending. */
static int print_reversed(FILE *tmp, FILE *out, uint64_t n)
{
	uint64_t buf[4096];
	while (n) {
		uint64_t k = n < 4096 ? n : 4096;
		n -= k;
		if (fseeko(tmp, (off_t)(n * sizeof buf[0]), SEEK_SET) || fread(buf, sizeof buf[0], k, tmp) != k)
			return -1;
		while (k--)
			fprintf(out, "%" PRIu64 "\n", buf[k]);
	}
	return 0;
}

static int cmd_wet_query(int argc, char **argv)
{
	const char *path = NULL, *out_path = NULL;
	int json = 0, backward = 0, query = 0; /* 1 cf 2 loads 3 addrs 4 slice 5 fslice 6 info */
	uint64_t t1 = 0, t2 = UINT64_MAX, index = 0, pcv = 0;
	int has_pc = 0;
	for (int i = 2; i < argc; i++) {
		const char *a = argv[i];
		if (cli_is_help(a)) {
			fputs(wet_help, stdout);
			return EXIT_OK;
		} else if (strcmp(a, "--cf") == 0) {
			query = 1;
		} else if (strcmp(a, "--loads") == 0) {
			query = 2;
		} else if (strcmp(a, "--addrs") == 0) {
			query = 3;
		} else if ((strcmp(a, "--slice") == 0 || strcmp(a, "--forward-slice") == 0) && i + 1 < argc) {
			query = a[2] == 's' ? 4 : 5;
			if (cli_parse_u64(argv[++i], &index))
				return cli_usage_error("wet query", "%s: not an instruction index: '%s'", a, argv[i]);
		} else if (strcmp(a, "--info") == 0) {
			query = 6;
		} else if (strcmp(a, "--check") == 0) {
			query = 7;
		} else if (strcmp(a, "--backward") == 0) {
			backward = 1;
		} else if (strcmp(a, "--json") == 0) {
			json = 1;
		} else if (strcmp(a, "--pc") == 0 && i + 1 < argc) {
			if (cli_parse_u64(argv[++i], &pcv) || pcv > UINT32_MAX)
				return cli_usage_error("wet query", "--pc: not an address: '%s'", argv[i]);
			has_pc = 1;
		} else if (strcmp(a, "--range") == 0 && i + 1 < argc) {
			char *colon = strchr(argv[++i], ':');
			if (!colon)
				return cli_usage_error("wet query", "--range T1:T2");
			*colon = 0;
			if ((*argv[i] && cli_parse_u64(argv[i], &t1)) || (colon[1] && cli_parse_u64(colon + 1, &t2)) || t1 > t2)
				return cli_usage_error("wet query", "--range T1:T2 with T1 <= T2");
		} else if (strcmp(a, "-o") == 0 && i + 1 < argc) {
			out_path = argv[++i];
		} else if (a[0] == '-' && a[1]) {
			return cli_usage_error("wet query", "unknown or incomplete option '%s'", a);
		} else if (!path) {
			path = a;
		} else {
			return cli_usage_error("wet query", "unexpected argument '%s'", a);
		}
	}
	if (!path || !query)
		return cli_usage_error("wet query", "need RUN.wet and one of --cf, --loads, --addrs, --slice, --forward-slice, --info, --check");
	if (backward && query != 1)
		return cli_usage_error("wet query", "--backward goes with --cf");
	if (has_pc && query != 2 && query != 3)
		return cli_usage_error("wet query", "--pc goes with --loads or --addrs");
	struct citcat_wet *w;
	int rc = citcat_wet_open(&w, path);
	if (rc) {
		int e = cli_errinfo(path, citcat_wet_error(w));
		citcat_wet_close(w);
		return e;
	}
	/* the answer goes through an outfile (common/outfile.h): never over
	 * the WET or another input, complete or not at all */
	FILE *out = stdout;
	struct cc_outfile *of = NULL;
	struct citcat_errinfo oerr = {0};
	if (out_path && strcmp(out_path, "-") &&
	    (cc_outfile_open(&of, out_path, 0, &oerr) || !(out = cc_outfile_stream(of)))) {
		if (of)
			citcat_errinfo_set(&oerr, CITCAT_ERR_NOMEM, UINT64_MAX, "out of memory");
		cc_outfile_abort(of);
		citcat_wet_close(w);
		return cli_errinfo(out_path, &oerr);
	}
	static char obuf[1 << 16];
	setvbuf(out, obuf, _IOFBF, sizeof obuf);
	struct qctx q = {.out = out, .json = json, .loads = query == 2, .has_pc = has_pc, .pc = (uint32_t)pcv};
	struct cli_progress pr;
	cli_progress_init(&pr, "query");
	double t0 = cli_now();
	static const char *const names[] = {"", "cf", "loads", "addrs", "slice", "forward-slice", "info", "check"};
	if (json && query < 6)
		fprintf(out, "{\"query\": \"%s\", \"%s\": [", names[query],
			query == 1 ? "pcs" : query <= 3 ? "accesses" : "instances");
	if (query == 6) {
		struct citcat_wet_info in;
		citcat_wet_info(w, &in);
		if (json) {
			fprintf(out, "{\"insns\": %" PRIu64 ", \"node_execs\": %" PRIu64 ", \"irqs\": %" PRIu64 ", \"nodes\": %" PRIu64
				     ", \"segments\": %" PRIu64 ", \"file_bytes\": %" PRIu64 ", ",
				in.insns, in.node_execs, in.irqs, in.nodes, in.segments, in.file_bytes);
			print_sizes(out, in.stream, in.insns, 1);
			fprintf(out, "}\n");
		} else {
			fprintf(out, "%" PRIu64 " instructions, %" PRIu64 " node executions (timestamps), %" PRIu64
				     " interrupts, %" PRIu64 " nodes, %" PRIu64 " segments, %" PRIu64 " bytes\n",
				in.insns, in.node_execs, in.irqs, in.nodes, in.segments, in.file_bytes);
			print_sizes(out, in.stream, in.insns, 0);
		}
	} else if (query == 7) {
		for (int back = 0; back < 2 && !rc; back++) {
			struct citcat_wet_walk wk = {.backward = back, .what = CITCAT_WET_W_ACC | CITCAT_WET_W_DEP | CITCAT_WET_W_VAL,
						     .from = 0, .to = UINT64_MAX, .cb = count_cb, .ctx = &q,
						     .progress = seg_progress, .progress_ctx = &pr};
			rc = citcat_wet_walk(w, &wk);
		}
		if (!rc)
			fprintf(out, "%s: every block checks out (%" PRIu64 " instances read forwards and backwards)\n", path, q.n);
	} else if (query <= 3) {
		struct citcat_wet_walk wk = {.backward = backward, .by_index = 0, .what = query == 1 ? 0 : CITCAT_WET_W_ACC,
					     .from = t1, .to = t2, .cb = query == 1 ? cf_cb : acc_cb, .ctx = &q,
					     .progress = seg_progress, .progress_ctx = &pr};
		rc = citcat_wet_walk(w, &wk);
	} else {
		if (query == 4 && !json && !(q.tmp = tmpfile())) {
			q.tmp_failed = errno;
			rc = CITCAT_ERR_IO;
		}
		if (!rc)
			rc = citcat_wet_slice(w, index, query == 5, slice_cb, &q, seg_progress, &pr);
		if (!rc && q.tmp && print_reversed(q.tmp, out, q.n))
			rc = CITCAT_ERR_IO;
		if (q.tmp)
			fclose(q.tmp);
	}
	if (json && query < 6)
		fprintf(out, "]}\n");
	cli_progress_done(&pr);
	double dt = cli_now() - t0;
	int werr = fflush(out) != 0 || ferror(out), e = errno;
	if (out != stdout)
		werr |= fclose(out) != 0;
	int ret = EXIT_OK;
	if (rc == CITCAT_ERR_IO && !citcat_wet_error(w)->code)
		ret = cli_fail("%s: writing the answer failed: %s", q.tmp_failed ? "a temporary file" : out_path ? out_path : "standard output",
			       strerror(q.tmp_failed ? q.tmp_failed : e));
	else if (rc)
		ret = cli_errinfo(path, citcat_wet_error(w));
	else if (werr && !of)
		ret = cli_fail("writing standard output failed: %s", strerror(e));
	if (of && ret == EXIT_OK && cc_outfile_commit(of, &oerr))
		ret = cli_errinfo(out_path, &oerr);
	else if (of && ret != EXIT_OK)
		cc_outfile_abort(of);
	if (ret == EXIT_OK && query < 6)
		cli_note("wet query", "%" PRIu64 " %s in %.3f s", q.n, query == 1 ? "PCs" : query <= 3 ? "accesses" : "instances",
			 dt);
	citcat_wet_close(w);
	return ret;
}

int cmd_wet(int argc, char **argv)
{
	if (argc >= 2 && strcmp(argv[1], "query") == 0)
		return cmd_wet_query(argc, argv);
	return cmd_wet_build(argc, argv);
}
