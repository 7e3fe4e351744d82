/* citcat bench daf (the paper's Table 4 for our target) and citcat bench
 * trace-port (what every way citcat can trace a run costs on the trace
 * port).  Each firmware is captured once in this process (CAT and oracle
 * itrace in a temporary directory, seed 1); an .itrace argument is used as
 * it is (bench daf only).  Numbers are printed, never judged. */
#include "cli.h"
#include <citcat/bench.h>

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef CITCAT_DEFAULT_EXAMPLE_DATA_DIR
#define CITCAT_DEFAULT_EXAMPLE_DATA_DIR "examples/data"
#endif

struct run {
	const char *name;
	uint64_t insns, mem_insns, raw_bits, nexus_bits, gzip_bytes;
	struct citcat_bench_daf_stats raw, diff;
	double enc_s, dec_s;
	/* trace-port figures (bench trace-port) */
	uint64_t cat_raw, cat_file, ims_file, aes_file, itrace_file, sdc_bits;
	uint64_t lvt_bits; /* the LVT's record bits, same capture and D-cache (capture/LVT.md) */
	long din_xz;
};

/* Measures the itrace IT into R (bench/daf_bench.c: DAF, DAFDiff, the
 * baselines, with SDC an rSDC-LSP count; encode and decode timed, every
 * access checked), then the address file under gzip -1. */
static int measure(const char *itrace, const char *daf_path, const char *addr_path, int sdc, struct run *r)
{
	struct citcat_bench_daf d = {.size = sizeof d};
	struct citcat_errinfo err = {0};
	if (citcat_bench_daf(itrace, daf_path, addr_path, sdc ? CITCAT_BENCH_DAF_SDCLSP : 0, &d, &err))
		return d.err_path ? cli_errinfo(d.err_path, &err) : cli_fail("%s", err.msg);
	r->insns = d.insns;
	r->mem_insns = d.mem_insns;
	r->raw_bits = d.raw_bits;
	r->nexus_bits = d.nexus_bits;
	r->raw = d.raw;
	r->diff = d.diff;
	r->sdc_bits = d.sdc_bits;
	r->enc_s = d.enc_s;
	r->dec_s = d.dec_s;
	r->gzip_bytes = (uint64_t)cli_compressed_size("gzip -1 -c", addr_path);
	remove(addr_path);
	return 0;
}

static void discard(void *ctx, uint8_t b) {}

struct opts {
	int json, port, xz;
	struct citcat_capture_config c;
	const char *uart_in;
};

/* Captures ELF (or takes an itrace) and measures it into R. */
static int run_one(const char *file, const char *uart_in, const struct opts *o, const char *dir, struct run *r)
{
	char cat[600], itrace[600], daf[600], addr[600], ims[600], aes[600], din[600], lvt[600];
	snprintf(lvt, sizeof lvt, "%s/run.lvt", dir);
	snprintf(cat, sizeof cat, "%s/run.cat", dir);
	snprintf(itrace, sizeof itrace, "%s/run.itrace", dir);
	snprintf(daf, sizeof daf, "%s/run.daf", dir);
	snprintf(addr, sizeof addr, "%s/run.addr", dir);
	snprintf(ims, sizeof ims, "%s/run.ims", dir);
	snprintf(aes, sizeof aes, "%s/run.aes", dir);
	snprintf(din, sizeof din, "%s/run.din", dir);
	const char *src = file;
	int status = 0;
	if (!cli_has_suffix(file, ".itrace")) {
		struct citcat_capture_config c = o->c;
		c.uart_in = uart_in;
		if (o->port)
			c.lvt_path = lvt; /* the LVT of the same run, at the configured D-cache */
		struct citcat_bench_capture bc = {.size = sizeof bc};
		struct citcat_errinfo err = {0};
		/* the target from the ELF, as citcat capture chooses it */
		if (citcat_bench_capture(&c, CITCAT_BENCH_TARGET_FROM_ELF, file, o->port ? cat : NULL, itrace, &bc, &err))
			return cli_errinfo(file, &err);
		if (!bc.res.traced) {
			remove(cat);
			remove(itrace);
			remove(lvt);
			return cli_fail("%s never reached a trace start point", file);
		}
		if (o->port) {
			r->lvt_bits = bc.res.lvt.bits;
		}
		src = itrace;
	} else if (o->port) {
		return cli_fail("bench trace-port: %s: give firmware, not an itrace (the CAT is needed)", file);
	}
	status = measure(src, daf, addr, o->port, r);
	if (!status && o->port) {
		struct citcat_bench_port ps = {.size = sizeof ps};
		struct citcat_errinfo err = {0};
		if (citcat_bench_port_sizes(cat, itrace, ims, aes, &ps, &err))
			status = cli_errinfo(cat, &err);
		r->cat_file = ps.cat_file;
		r->cat_raw = ps.cat_raw;
		r->itrace_file = ps.itrace_file;
		r->ims_file = ps.ims_file;
		r->aes_file = ps.aes_file;
		r->din_xz = -1;
		if (!status && o->xz) {
			struct convert_opts co = {.image = NULL, .lz4 = 0};
			if (!(status = addr_convert(itrace, "itrace", din, "din", &co)))
				r->din_xz = cli_compressed_size("xz -9 -c", din);
		}
	}
	remove(cat);
	remove(itrace);
	remove(daf);
	remove(ims);
	remove(aes);
	remove(din);
	remove(lvt);
	return status;
}

static double per(uint64_t a, uint64_t b) { return b ? (double)a / (double)b : 0.0; }
static double filt(uint64_t traced, uint64_t all) { return all ? 1.0 - (double)traced / (double)all : 0.0; }

/* Table 4's row for R. */
struct row4 {
	double ld, st, tot, daf, dafd, r_daf, r_dafd, r_nexus, r_gzip;
};

static struct row4 row4(const struct run *r)
{
	struct row4 w;
	const struct citcat_bench_daf_stats *s = &r->diff;
	w.ld = filt(s->loads_traced, s->loads);
	w.st = filt(s->stores_traced, s->stores);
	w.tot = filt(s->loads_traced + s->stores_traced, s->loads + s->stores);
	w.daf = per(r->raw.bits, r->insns);
	w.dafd = per(r->diff.bits, r->insns);
	w.r_daf = per(r->raw_bits, r->raw.bits);
	w.r_dafd = per(r->raw_bits, r->diff.bits);
	w.r_nexus = per(r->raw_bits, r->nexus_bits);
	w.r_gzip = per(r->raw_bits, 8 * r->gzip_bytes);
	return w;
}

static void print4(const char *name, const struct row4 *w, const struct run *r, int json, int first)
{
	if (json) {
		printf("%s{\"firmware\": \"%s\", \"instructions\": %llu, \"loads\": %llu, \"stores\": %llu, "
		       "\"filtering\": {\"ld\": %.4f, \"st\": %.4f, \"total\": %.4f}, "
		       "\"bits_per_instruction\": {\"daf\": %.4f, \"dafdiff\": %.4f}, "
		       "\"compression_ratio\": {\"daf\": %.3f, \"dafdiff\": %.3f, \"nexus\": %.3f, \"gzip1\": %.3f}, "
		       "\"cond_bits\": %llu, \"escapes\": %llu, \"exceptions\": %llu, \"encode_minsn_s\": %.1f, "
		       "\"decode_minsn_s\": %.1f}",
		       first ? "" : ", ", name, (unsigned long long)r->insns, (unsigned long long)r->diff.loads,
		       (unsigned long long)r->diff.stores, w->ld, w->st, w->tot, w->daf, w->dafd, w->r_daf, w->r_dafd,
		       w->r_nexus, w->r_gzip, (unsigned long long)r->diff.cond_bits, (unsigned long long)r->diff.escapes,
		       (unsigned long long)r->diff.entries, r->enc_s > 0 ? (double)r->insns / r->enc_s / 1e6 : 0.0,
		       r->dec_s > 0 ? (double)r->insns / r->dec_s / 1e6 : 0.0);
		return;
	}
	printf("%-14s %5.2f %5.2f %5.2f  %6.2f %6.2f  %8.2f %8.2f %6.2f %7.2f", name, w->ld, w->st, w->tot, w->daf,
	       w->dafd, w->r_daf, w->r_dafd, w->r_nexus, w->r_gzip);
	if (r)
		printf("  %11llu %7.1f %7.1f", (unsigned long long)r->insns,
		       r->enc_s > 0 ? (double)r->insns / r->enc_s / 1e6 : 0.0,
		       r->dec_s > 0 ? (double)r->insns / r->dec_s / 1e6 : 0.0);
	printf("\n");
}

static void print_port(const struct run *r, int json, int first)
{
	double n = (double)r->insns;
	double sdc = (double)r->sdc_bits / n;
	double xz = r->din_xz >= 0 ? 8.0 * (double)r->din_xz / n : -1;
	if (json) {
		printf("%s{\"firmware\": \"%s\", \"instructions\": %llu, \"bits_per_instruction\": {\"cat_raw\": %.5f, "
		       "\"cat_lz4\": %.5f, \"ims_aes\": %.5f, \"lvt\": %.5f, \"daf\": %.5f, \"dafdiff\": %.5f, "
		       "\"rsdclsp\": %.5f, \"daf_rsdclsp\": %.5f, \"dafdiff_rsdclsp\": %.5f, \"itrace\": %.5f, ",
		       first ? "" : ", ", r->name, (unsigned long long)r->insns, 8.0 * (double)r->cat_raw / n,
		       8.0 * (double)r->cat_file / n, 8.0 * (double)(r->ims_file + r->aes_file) / n,
		       (double)r->lvt_bits / n, (double)r->raw.bits / n, (double)r->diff.bits / n, sdc, sdc + (double)r->raw.bits / n,
		       sdc + (double)r->diff.bits / n, 8.0 * (double)r->itrace_file / n);
		if (xz >= 0)
			printf("\"din_xz9\": %.5f}}", xz);
		else
			printf("\"din_xz9\": null}}");
		return;
	}
	printf("%-14s %11llu %8.4f %8.4f %8.4f %7.4f %7.4f %7.4f %7.4f %8.4f %8.4f %8.3f", r->name,
	       (unsigned long long)r->insns, 8.0 * (double)r->cat_raw / n, 8.0 * (double)r->cat_file / n,
	       8.0 * (double)(r->ims_file + r->aes_file) / n, (double)r->lvt_bits / n, (double)r->raw.bits / n, (double)r->diff.bits / n,
	       sdc, sdc + (double)r->raw.bits / n, sdc + (double)r->diff.bits / n, 8.0 * (double)r->itrace_file / n);
	if (xz >= 0)
		printf(" %8.4f\n", xz);
	else
		printf(" %8s\n", "-");
}

static const char daf_help[] =
	"usage: citcat bench daf [FIRMWARE.elf|RUN.itrace...] [--json] [--seed N] [--uart-in F] [--max-insns N]\n\n"
	"Data-address filtering (formats/DAF.md) in the layout of the paper's Table 4:\n"
	"filtering rates for loads, stores and all memory-referencing instructions;\n"
	"DAF (raw addresses) and DAFDiff trace-port bits per instruction; compression\n"
	"ratios of DAF, DAFDiff, a Nexus-like differential encoding and gzip -1 against\n"
	"the raw address trace (32 bits per memory-referencing instruction).  Also the\n"
	"encode (DAFDiff writer, to a file) and decode (partial replay over the itrace's\n"
	"flow) speed in M instructions per CPU second; every decoded access is checked\n"
	"(outside the timing).  Firmware is\n"
	"captured in this process (seed 1).  With no files, the built-in examples.\n";

static const char port_help[] =
	"usage: citcat bench trace-port [FIRMWARE.elf...] [--json] [--no-xz] [--seed N] [--uart-in F] [--max-insns N]\n\n"
	"Runs each firmware once and prints, in bits per traced instruction, what each\n"
	"way of tracing it costs on the trace port (formats/TRACEPORTS.md): the CAT\n"
	"(raw records and the LZ4 container file), IMS+AES files, the first-access LVT\n"
	"(record bits, same run and D-cache), DAF and DAFDiff alone and with rSDC-LSP [32x4,128], the full itrace\n"
	"file, and the din under xz -9 (--no-xz skips it: slow on long runs).\n"
	"With no files, the built-in examples.\n";

static int bench_common(int argc, char **argv, int port)
{
	struct opts o;
	memset(&o, 0, sizeof o);
	o.port = port;
	o.xz = 1;
	citcat_capture_config_default(&o.c);
	o.c.target.seed = 1;
	o.c.uart_tx = discard;
	const char *cmd = port ? "bench trace-port" : "bench daf";
	const char *files[256];
	int nfiles = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (cli_is_help(a)) {
			fputs(port ? port_help : daf_help, stdout);
			return EXIT_OK;
		} else if (strcmp(a, "--json") == 0) {
			o.json = 1;
		} else if (port && strcmp(a, "--no-xz") == 0) {
			o.xz = 0;
		} else if (strcmp(a, "--seed") == 0 && i + 1 < argc) {
			if (cli_parse_u64(argv[++i], &o.c.target.seed))
				return cli_usage_error(cmd, "bad seed '%s'", argv[i]);
		} else if (strcmp(a, "--max-insns") == 0 && i + 1 < argc) {
			if (cli_parse_count(argv[++i], &o.c.max_insns) || !o.c.max_insns)
				return cli_usage_error(cmd, "bad instruction count '%s'", argv[i]);
		} else if (strcmp(a, "--uart-in") == 0 && i + 1 < argc) {
			o.uart_in = argv[++i];
		} else if (a[0] == '-') {
			return cli_usage_error(cmd, "unknown or incomplete option '%s'", a);
		} else if (nfiles < 256) {
			files[nfiles++] = a;
		}
	}
	static char uart_default[512];
	int defaults = nfiles == 0;
	if (defaults) {
		nfiles = cli_default_examples(files, 16, 0);
		if (!nfiles)
			return cli_fail("%s: no firmware given and no built examples found (set CITCAT_EXAMPLES_DIR)", cmd);
	}
	snprintf(uart_default, sizeof uart_default, "%s/uartline.txt", CITCAT_DEFAULT_EXAMPLE_DATA_DIR);
	char dir[] = "/tmp/citcat-bench-daf-XXXXXX";
	if (!mkdtemp(dir))
		return cli_fail("%s: cannot create a temporary directory", cmd);
	struct run *all = calloc((size_t)nfiles, sizeof *all);
	int rc = all ? 0 : cli_fail("out of memory");
	if (o.json)
		printf("{\"benchmark\": \"%s\", \"runs\": [", port ? "trace-port" : "daf");
	else if (port)
		printf("bits per traced instruction on the trace port\n%-14s %11s %8s %8s %8s %7s %7s %7s %7s %8s %8s %8s "
		       "%8s\n", "firmware", "insns", "CAT raw", "CAT LZ4", "IMS+AES", "LVT", "DAF", "DAFDiff", "rSDC",
		       "DAF+rSDC", "Diff+rSDC", "itrace", "din xz9");
	else
		printf("%-14s %5s %5s %5s  %6s %6s  %8s %8s %6s %7s  %11s %7s %7s\n", "", "LD", "ST", "Total", "DAF",
		       "DAFDif", "DAF", "DAFDif", "Nexus", "gzip-1", "insns", "enc M/s", "dec M/s");
	if (!o.json && !port)
		printf("%-14s %-17s  %-13s  %-33s\n", "firmware", "filtering rates", "bits/insn", "compression ratio");
	for (int k = 0; k < nfiles && !rc; k++) {
		struct run *r = &all[k];
		const char *base = strrchr(files[k], '/') ? strrchr(files[k], '/') + 1 : files[k];
		r->name = base;
		const char *in = o.uart_in;
		if (!in && strncmp(base, "uartline", 8) == 0 && access(uart_default, R_OK) == 0)
			in = uart_default;
		if ((rc = run_one(files[k], in, &o, dir, r)))
			break;
		if (port) {
			print_port(r, o.json, k == 0);
		} else {
			struct row4 w = row4(r);
			print4(base, &w, r, o.json, k == 0);
		}
		fflush(stdout);
	}
	rmdir(dir);
	if (!rc && !port) {
		/* the paper's average: weighted by each benchmark's share of the loads */
		struct row4 avg;
		memset(&avg, 0, sizeof avg);
		uint64_t loads = 0;
		for (int k = 0; k < nfiles; k++)
			loads += all[k].diff.loads;
		for (int k = 0; k < nfiles && loads; k++) {
			struct row4 w = row4(&all[k]);
			double f = (double)all[k].diff.loads / (double)loads;
			avg.ld += f * w.ld, avg.st += f * w.st, avg.tot += f * w.tot, avg.daf += f * w.daf;
			avg.dafd += f * w.dafd, avg.r_daf += f * w.r_daf, avg.r_dafd += f * w.r_dafd;
			avg.r_nexus += f * w.r_nexus, avg.r_gzip += f * w.r_gzip;
		}
		struct row4 paper = {0.70, 0.83, 0.74, 2.94, 2.26, 3.82, 4.97, 1.59, 3.46};
		if (o.json) {
			printf("], \"average_weighted_by_loads\": ");
			print4("average", &avg, &(struct run){.insns = 0}, 1, 1);
			printf(", \"paper_average\": ");
			print4("paper", &paper, &(struct run){.insns = 0}, 1, 1);
		} else {
			print4("average", &avg, NULL, 0, 0);
			print4("paper (MiBench)", &paper, NULL, 0, 0);
			printf("(average weighted by each firmware's share of the loads, as the paper; DAF bits include the\n"
			       " executed bits of conditional memory instructions and escapes, DAF.md; ratios are against\n"
			       " 32 bits per executed memory-referencing instruction)\n");
		}
	}
	if (o.json)
		printf("%s}\n", port || rc ? "]" : "");
	free(all);
	return rc;
}

int daf_bench(int argc, char **argv) { return bench_common(argc, argv, 0); }
int bench_trace_port(int argc, char **argv) { return bench_common(argc, argv, 1); }
