/* din / xdin / PDATS / PDATS II command-line glue: `info` and the printing
 * of `bench formats`.  All format work is in formats/addr.h; conversion and
 * the measurement are library calls (<citcat/convert.h>). */
#include "cli.h"
#include "formats_cli.h"
#include <citcat/addr.h>
#include <citcat/convert.h>
#include <citcat/io.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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
	int f = citcat_addr_reader_fmt(r), wrap = citcat_addr_reader_lz4(r), lz4 = wrap == CITCAT_WRAP_LZ4;
	/* a TVP model holds the trace itself: its format version is the reader's, not byte 4 */
	int tvp_model = wrap == CITCAT_WRAP_TVP && citcat_addr_reader_tvp(r);
	if (tvp_model)
		version = f == CITCAT_ADDR_PDATS || f == CITCAT_ADDR_PDATS2 ? (int)citcat_addr_reader_version(r) : -1;
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
		if (wrap)
			printf(", \"wrap\": \"%s\"%s", citcat_wrap_name(wrap), tvp_model ? ", \"tvp_model\": true" : "");
		if (version >= 0)
			printf(", \"version\": %d", version);
		printf("}\n");
		return EXIT_OK;
	}
	static const char *names[] = {[CITCAT_ADDR_DIN] = "Dinero din text", [CITCAT_ADDR_XDIN] = "Dinero IV xdin text",
				      [CITCAT_ADDR_PDATS] = "PDATS", [CITCAT_ADDR_PDATS2] = "PDATS II"};
	printf("%s: %s address trace%s", path, names[f],
	       lz4 ? " in an LZ4 frame" : wrap == CITCAT_WRAP_ZSTD ? " in a zstd frame" : wrap == CITCAT_WRAP_XZ ? " in an xz stream"
	       : wrap != CITCAT_WRAP_TVP ? "" : tvp_model ? " in a TVP container (value-prediction model, formats/TVP_MODEL.md)"
	       : " in a TVP container (LZMA2 blocks)");
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

static double mrefs(uint64_t n, double s) { return s > 0 ? (double)n / s / 1e6 : 0.0; }
/* Speed in megabytes of din text per second, whatever the format: the din
 * row's size over the time, so every row compares with a tool run on the din. */
static double dinmb(uint64_t din_bytes, double s) { return s > 0 ? (double)din_bytes / s / 1e6 : 0.0; }

static const char bench_help[] =
	"usage: citcat bench formats [FILE...] [--refs N] [--json]\n\n"
	"For din, PDATS and PDATS II, PDATS II's second tiers (LZ4, zstd, TVP: formats/TVP_MODEL.md):\n"
	"encode and decode speed (million references per second, megabytes of din per second) and\n"
	"density (references per byte), beside lz4, gzip -9, zstd -19 --long and xz -9 applied to the\n"
	"same trace as din text.  Speeds are in CPU time (the tools': their processes').\n"
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
	/* totals over all traces, by row name (a missing tool skips a row) */
	struct citcat_bench_format_row tot[16];
	int ntot = 0;
	uint64_t tot_refs = 0;
	if (json)
		printf("{\"traces\": [");
	for (int fi = 0; fi < (nfiles ? nfiles : 1); fi++) {
		const char *label = nfiles ? files[fi] : "synthetic";
		struct citcat_bench_formats bf = {.size = sizeof bf};
		struct citcat_convert_result res = {.size = sizeof res};
		struct citcat_errinfo err;
		if (citcat_bench_formats(nfiles ? files[fi] : NULL, nsynth, &bf, &res, &err) < 0)
			return res.what == CITCAT_CONVERT_FILE ? cli_errinfo(res.file, &err) : cli_fail("%s", res.msg);
		struct citcat_bench_format_row *rows = bf.rows;
		int nr = bf.nrows;
		size_t n = (size_t)bf.refs;
		tot_refs += n;
		for (int k = 0; k < nr; k++) {
			int t = 0;
			while (t < ntot && strcmp(tot[t].name, rows[k].name) != 0)
				t++;
			if (t == ntot) {
				if (ntot == 16)
					continue;
				tot[ntot++] = (struct citcat_bench_format_row){rows[k].name, 0, 0, 0};
			}
			tot[t].enc += rows[k].enc;
			tot[t].dec += rows[k].dec;
			tot[t].bytes += rows[k].bytes;
		}
		if (json) {
			printf("%s{\"trace\": \"%s\", \"refs\": %zu, \"formats\": [", fi ? ", " : "", label, n);
			for (int k = 0; k < nr; k++)
				printf("%s{\"name\": \"%s\", \"bytes\": %llu, \"refs_per_byte\": %.4f, "
				       "\"encode_mrefs_per_s\": %.2f, \"decode_mrefs_per_s\": %.2f, "
				       "\"encode_din_mb_per_s\": %.2f, \"decode_din_mb_per_s\": %.2f}",
				       k ? ", " : "", rows[k].name, (unsigned long long)rows[k].bytes,
				       rows[k].bytes ? (double)n / (double)rows[k].bytes : 0.0, mrefs(n, rows[k].enc),
				       mrefs(n, rows[k].dec), dinmb(rows[0].bytes, rows[k].enc), dinmb(rows[0].bytes, rows[k].dec));
			printf("]}");
		} else {
			printf("%s: %zu references, %llu bytes of din\n", label, n, (unsigned long long)rows[0].bytes);
			printf("  %-20s %12s %10s %11s %11s %10s %10s\n", "format", "bytes", "refs/byte", "enc Mref/s",
			       "dec Mref/s", "enc MB/s", "dec MB/s");
			for (int k = 0; k < nr; k++)
				printf("  %-20s %12llu %10.3f %11.1f %11.1f %10.1f %10.1f\n", rows[k].name,
				       (unsigned long long)rows[k].bytes,
				       rows[k].bytes ? (double)n / (double)rows[k].bytes : 0.0, mrefs(n, rows[k].enc),
				       mrefs(n, rows[k].dec), dinmb(rows[0].bytes, rows[k].enc), dinmb(rows[0].bytes, rows[k].dec));
			printf("  (speeds in CPU time; MB/s: megabytes of din text per second; din|TOOL: the tool run\n"
			       "   on the din text, its CPU time including its process start and the shell's)\n");
		}
	}
	if (json) {
		printf("], \"total\": {\"refs\": %llu, \"formats\": [", (unsigned long long)tot_refs);
		for (int k = 0; k < ntot; k++)
			printf("%s{\"name\": \"%s\", \"bytes\": %llu, \"refs_per_byte\": %.4f, "
			       "\"encode_mrefs_per_s\": %.2f, \"decode_mrefs_per_s\": %.2f, "
			       "\"encode_din_mb_per_s\": %.2f, \"decode_din_mb_per_s\": %.2f}",
			       k ? ", " : "", tot[k].name, (unsigned long long)tot[k].bytes,
			       tot[k].bytes ? (double)tot_refs / (double)tot[k].bytes : 0.0, mrefs(tot_refs, tot[k].enc),
			       mrefs(tot_refs, tot[k].dec), dinmb(tot[0].bytes, tot[k].enc), dinmb(tot[0].bytes, tot[k].dec));
		printf("]}}\n");
	} else if (nfiles > 1) {
		printf("total over %d traces: %llu references\n", nfiles, (unsigned long long)tot_refs);
		printf("  %-20s %12s %10s %11s %11s %10s %10s\n", "format", "bytes", "refs/byte", "enc Mref/s",
		       "dec Mref/s", "enc MB/s", "dec MB/s");
		for (int k = 0; k < ntot; k++)
			printf("  %-20s %12llu %10.3f %11.1f %11.1f %10.1f %10.1f\n", tot[k].name,
			       (unsigned long long)tot[k].bytes,
			       tot[k].bytes ? (double)tot_refs / (double)tot[k].bytes : 0.0, mrefs(tot_refs, tot[k].enc),
			       mrefs(tot_refs, tot[k].dec), dinmb(tot[0].bytes, tot[k].enc), dinmb(tot[0].bytes, tot[k].dec));
	}
	return EXIT_OK;
}
