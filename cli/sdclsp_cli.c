/* SDC-LSP command-line glue: `info` and `bench sdclsp` (conversion to and
 * from .sdc streams is citcat_convert, <citcat/convert.h>). */
#include "cli.h"
#include "formats_cli.h"
#include <citcat/bench.h>
#include <citcat/sdclsp.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int stop_requested(void *ctx) { return cli_interrupted(); }

static double ratio(uint64_t a, uint64_t b) { return b ? (double)a / (double)b : 0.0; }

int sdclsp_info(const char *path, int json)
{
	int version = cli_file_version(path, citcat_format_get(CITCAT_FMT_SDCLSP)); /* before "-" is read */
	struct citcat_sdclsp_config c;
	struct citcat_sdclsp_stats s;
	struct citcat_errinfo err;
	if (citcat_sdclsp_read_summary_stop(path, &c, &s, stop_requested, NULL, &err) < 0)
		return cli_errinfo(path, &err);
	static const char *repl[] = {"mru", "lru", "fifo"};
	if (json) {
		printf("{\"kind\": \"sdclsp\", \"version\": %d, \"variant\": \"%s\", \"n_set\": %u, \"n_way\": %u, \"n_p\": %u, "
		       "\"shift\": %u, \"u\": %u, \"max_sl\": %u, \"history\": %u, \"replacement\": \"%s\", "
		       "\"sa_always\": %s, \"instructions\": %llu, \"streams\": %llu, \"bits\": %llu, "
		       "\"hr_sdc\": %.6f, \"hr_lsp\": %.6f, \"bits_per_instruction\": %.6f, "
		       "\"msdc\": %.6f, \"hsdc\": %.6f, \"hlsp\": %.6f}\n",
		       version, citcat_sdclsp_variant_name(c.variant), c.n_set, c.n_way, c.n_p, c.shift, c.u, c.max_sl, c.hist,
		       repl[c.repl], (c.flags & CITCAT_SDCLSP_FLAG_SA_ALWAYS) ? "true" : "false",
		       (unsigned long long)s.instructions, (unsigned long long)s.streams, (unsigned long long)s.bits,
		       ratio(s.sdc_hits, s.streams), ratio(s.lsp_hits, s.streams), ratio(s.bits, s.instructions),
		       ratio(s.msdc_bits, s.bits), ratio(s.hsdc_bits, s.bits), ratio(s.hlsp_bits, s.bits));
	} else {
		printf("%s: SDC-LSP stream (v%d), %sSDC-LSP [%ux%u, %u], shift %u, u %u, max SL %u, history %u, %s%s\n",
		       path, version, citcat_sdclsp_variant_name(c.variant), c.n_set, c.n_way, c.n_p, c.shift, c.u, c.max_sl, c.hist,
		       repl[c.repl], (c.flags & CITCAT_SDCLSP_FLAG_SA_ALWAYS) ? ", SA on every miss" : "");
		printf("  instructions  %llu\n  streams       %llu (avg SL %.2f)\n  bits          %llu (%.4f per instruction)\n",
		       (unsigned long long)s.instructions, (unsigned long long)s.streams,
		       ratio(s.instructions, s.streams), (unsigned long long)s.bits, ratio(s.bits, s.instructions));
		printf("  hit rates     SDC %.4f, LSP %.4f\n", ratio(s.sdc_hits, s.streams), ratio(s.lsp_hits, s.streams));
		printf("  output share  mSDCt %.1f%%, hSDCt %.1f%%, hLSPt %.1f%%\n", 100 * ratio(s.msdc_bits, s.bits),
		       100 * ratio(s.hsdc_bits, s.bits), 100 * ratio(s.hlsp_bits, s.bits));
	}
	return EXIT_OK;
}

/* ---- bench: the figures are citcat_bench_sdclsp's (<citcat/bench.h>) ---- */

#define NSIZES CITCAT_BENCH_SDCLSP_SIZES
static const uint32_t bench_sets[NSIZES] = {8, 16, 32, 64, 128, 256}; /* 8 << k */

struct bench_row {
	uint64_t insns, streams, fbase, base, nexs;
	long gzip, xz;
	uint64_t bits[3][NSIZES], sdc[3][NSIZES], lsp[3][NSIZES];
	double enc_mips, dec_mips;
};

static int bench_one(const char *path, struct bench_row *row)
{
	struct citcat_bench_sdclsp b = {.size = sizeof b};
	struct citcat_errinfo err;
	memset(row, 0, sizeof *row);
	char dpath[] = "/tmp/citcat-bench-XXXXXX";
	int fd = mkstemp(dpath); /* a name of our own, replaced by the library's outfile */
	if (fd >= 0)
		close(fd);
	int rc = citcat_bench_sdclsp(path, fd >= 0 ? dpath : NULL, &b, &err);
	if (rc < 0) {
		if (fd >= 0)
			unlink(dpath);
		return b.err_path ? cli_errinfo(b.err_path, &err) : cli_fail("%s", err.msg);
	}
	row->insns = b.insns;
	row->streams = b.streams;
	row->fbase = b.fbase_bits;
	row->base = b.base_bits;
	row->nexs = b.nexs_bits;
	memcpy(row->bits, b.bits, sizeof row->bits);
	memcpy(row->sdc, b.sdc_hits, sizeof row->sdc);
	memcpy(row->lsp, b.lsp_hits, sizeof row->lsp);
	row->enc_mips = b.enc_s > 0 ? b.insns / b.enc_s / 1e6 : 0;
	row->dec_mips = b.dec_s > 0 ? b.insns / b.dec_s / 1e6 : 0;
	if (fd >= 0) {
		row->gzip = cli_compressed_size("gzip -1 -c", dpath);
		row->xz = cli_compressed_size("xz -9 -c", dpath);
		unlink(dpath);
	}
	return 0;
}

static void bench_print(const char *name, const struct bench_row *r, int json, int first)
{
	static const char vn[3] = {'b', 'e', 'r'};
	double n = r->insns ? (double)r->insns : 1;
	if (json) {
		printf("%s{\"file\": \"%s\", \"instructions\": %llu, \"streams\": %llu, \"fbase\": %.4f, \"base\": %.4f, "
		       "\"nexs\": %.4f, \"gzip1\": %.4f, \"xz9\": %.4f, \"encode_mips\": %.1f, \"decode_mips\": %.1f, "
		       "\"configs\": [",
		       first ? "" : ", ", name, (unsigned long long)r->insns, (unsigned long long)r->streams,
		       r->fbase / n, r->base / n, r->nexs / n, r->gzip * 8 / n, r->xz * 8 / n, r->enc_mips,
		       r->dec_mips);
		for (int s = 0; s < NSIZES; s++) {
			printf("%s{\"sdc\": \"%ux4\", \"lsp\": %u", s ? ", " : "", bench_sets[s], bench_sets[s] * 4);
			for (int v = 0; v < 3; v++)
				printf(", \"%c\": {\"bits_per_instruction\": %.4f, \"hr_sdc\": %.4f, \"hr_lsp\": %.4f}",
				       vn[v], r->bits[v][s] / n, ratio(r->sdc[v][s], r->streams),
				       ratio(r->lsp[v][s], r->streams));
			printf("}");
		}
		printf("]}");
		return;
	}
	printf("%s: %llu instructions, %llu streams (avg SL %.1f)\n", name, (unsigned long long)r->insns,
	       (unsigned long long)r->streams, ratio(r->insns, r->streams));
	printf("  baselines bits/ins: fBASE %.3f  BASE %.3f  NEXS %.3f  gzip -1 %.3f  xz -9 %.3f\n", r->fbase / n,
	       r->base / n, r->nexs / n, r->gzip * 8 / n, r->xz * 8 / n);
	printf("  %-14s %9s %9s %9s %8s %8s\n", "[SDC, LSP]", "bSDC-LSP", "eSDC-LSP", "rSDC-LSP", "hrSDC", "hrLSP");
	for (int s = 0; s < NSIZES; s++) {
		char cfg[32];
		snprintf(cfg, sizeof cfg, "[%ux4, %u]", bench_sets[s], bench_sets[s] * 4);
		printf("  %-14s %9.4f %9.4f %9.4f %8.4f %8.4f\n", cfg, r->bits[0][s] / n, r->bits[1][s] / n,
		       r->bits[2][s] / n, ratio(r->sdc[0][s], r->streams), ratio(r->lsp[0][s], r->streams));
	}
	printf("  speed rSDC-LSP [32x4, 128]: encode %.1f, decode %.1f million instructions/s\n", r->enc_mips,
	       r->dec_mips);
}

int sdclsp_bench(int argc, char **argv)
{
	int json = 0, nfiles = 0, status = 0;
	for (int i = 1; i < argc; i++) {
		if (cli_is_help(argv[i])) {
			printf("usage: citcat bench sdclsp FILE.itrace... [--json]\n\n"
			       "Bits per instruction of bSDC-, eSDC- and rSDC-LSP for [8x4, 32] .. [256x4, 1024]\n"
			       "beside fBASE, BASE, NEXS and gzip -1 / xz -9 of the (SA/-, SL) sequence; hit rates\n"
			       "(of bSDC-LSP); encode and decode speed of rSDC-LSP [32x4, 128].  The last row sums\n"
			       "all files (weighted by instruction count).\n");
			return EXIT_OK;
		} else if (strcmp(argv[i], "--json") == 0) {
			json = 1;
		} else if (argv[i][0] == '-') {
			return cli_usage_error("bench", "unknown option '%s'", argv[i]);
		} else {
			nfiles++;
		}
	}
	if (!nfiles)
		return cli_usage_error("bench", "bench sdclsp needs itrace files (no example traces are built in yet)");
	struct bench_row tot, r;
	memset(&tot, 0, sizeof tot);
	double enc = 0, dec = 0;
	int first = 1;
	if (json)
		printf("{\"files\": [");
	for (int i = 1; i < argc; i++) {
		if (argv[i][0] == '-')
			continue;
		if ((status = bench_one(argv[i], &r)) != 0)
			break;
		bench_print(argv[i], &r, json, first);
		first = 0;
		tot.insns += r.insns;
		tot.streams += r.streams;
		tot.fbase += r.fbase;
		tot.base += r.base;
		tot.nexs += r.nexs;
		tot.gzip += r.gzip;
		tot.xz += r.xz;
		for (int v = 0; v < 3; v++)
			for (int s = 0; s < NSIZES; s++) {
				tot.bits[v][s] += r.bits[v][s];
				tot.sdc[v][s] += r.sdc[v][s];
				tot.lsp[v][s] += r.lsp[v][s];
			}
		enc += r.insns / r.enc_mips;
		dec += r.insns / r.dec_mips;
	}
	tot.enc_mips = enc > 0 ? tot.insns / enc : 0;
	tot.dec_mips = dec > 0 ? tot.insns / dec : 0;
	if (json) {
		printf("], \"total\": ");
		bench_print("total", &tot, 1, 1);
		printf("}\n");
	} else if (!status && nfiles > 1) {
		bench_print("total", &tot, 0, 1);
	}
	return status;
}
