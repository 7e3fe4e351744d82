/* citcat info for LVT files, and citcat bench lvt: the replica of Table 2 of
 * the data-trace-filtering paper (first-access hit rate and trace-port
 * bandwidth over D-cache sizes and lines), compression over the raw
 * load-value trace, gzip -1 of it, and LVT encode/decode speed. */
#include "cli.h"
#include "formats_cli.h"
#include <citcat/capture.h>
#include <citcat/lvt.h>
#include <citcat/replay.h>

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const repl_names[] = {"lru", "fifo", "plru", "random"};
static const char *const stop_names[] = {"exit", "command", "limit"};

int lvt_info(const char *path, int json)
{
	int version = cli_file_version(path, citcat_format_get(CITCAT_FMT_LVT)); /* before "-" is read */
	struct citcat_lvt_info s;
	struct citcat_errinfo err;
	if (citcat_lvt_info(path, &s, &err))
		return cli_errinfo(path, &err);
	const struct citcat_lvt_stats *st = &s.st;
	const struct citcat_cache_config *d = &s.cfg.dcache;
	double bpi = st->insns ? (double)st->bits / (double)st->insns : 0.0;
	/* the paper's rate: FA hits per cached load (device reads are never hits) */
	double hr = st->loads > st->ureads ? (double)st->hits / (double)(st->loads - st->ureads) : 0.0;
	double cr = st->bits ? 8.0 * (double)st->raw_bytes / (double)st->bits : 0.0;
	if (json) {
		printf("{\"kind\": \"lvt\", \"version\": %d, \"granule\": \"%s\", \"traced\": %s, \"instructions\": %llu, "
		       "\"branches\": %llu, \"stop\": \"%s\", \"trace_start_pc\": %u, \"loads\": %llu, \"fa_hits\": %llu, "
		       "\"fa_hit_rate\": %.6f, \"device_reads\": %llu, \"value_bytes\": %llu, \"raw_load_value_bytes\": %llu, "
		       "\"interrupts\": %llu, \"dma\": %llu, \"stream_bits\": %llu, \"bits_per_instruction\": %.6f, "
		       "\"compression_ratio\": %.4f, \"payload_bytes\": %llu, \"file_bytes\": %llu, "
		       "\"dcache\": \"%u:%u:%u:%s\", \"dcache_write\": \"%s\"}\n",
		       version, s.gran_shift ? "word" : "byte", s.has_start ? "true" : "false",
		       (unsigned long long)st->insns, (unsigned long long)st->bcount,
		       s.has_start ? stop_names[s.stop_reason] : "none", s.has_start ? s.start_pc : 0,
		       (unsigned long long)st->loads, (unsigned long long)st->hits, hr, (unsigned long long)st->ureads,
		       (unsigned long long)st->value_bytes, (unsigned long long)st->raw_bytes, (unsigned long long)st->irqs,
		       (unsigned long long)st->dmas, (unsigned long long)st->bits, bpi, cr, (unsigned long long)s.payload_bytes,
		       (unsigned long long)s.file_bytes, d->size, d->ways, d->line, repl_names[d->repl],
		       d->write_through ? "wt" : "wb");
		return EXIT_OK;
	}
	printf("%s: first-access load-value trace (LVT v%d), %s\n", path, version,
	       s.cfg.isa == CITCAT_TARGET_CORTEX_M7 ? "Cortex-M7" : "ARMv7-A");
	printf("  D-cache      %u bytes, %u-way, %u-byte lines, %s, %s; FA flag per %s\n", d->size, d->ways, d->line,
	       repl_names[d->repl], d->write_through ? "write-through" : "write-back", s.gran_shift ? "word" : "byte");
	if (!s.has_start) {
		printf("  no traced interval (the firmware never reached a trace start point)\n");
		return EXIT_OK;
	}
	printf("  trace        start at 0x%08x, %llu instructions, %llu branches, stopped by %s\n", s.start_pc,
	       (unsigned long long)st->insns, (unsigned long long)st->bcount, stop_names[s.stop_reason]);
	printf("  loads        %llu (%llu device reads), first-access hits %llu (%.4f of cached loads)\n", (unsigned long long)st->loads,
	       (unsigned long long)st->ureads, (unsigned long long)st->hits, hr);
	printf("  events       %llu interrupts, %llu external writes (DMA)\n", (unsigned long long)st->irqs,
	       (unsigned long long)st->dmas);
	printf("  stream       %llu bits (%.4f per instruction); values %llu of %llu load-value bytes; ratio %.2f\n",
	       (unsigned long long)st->bits, bpi, (unsigned long long)st->value_bytes, (unsigned long long)st->raw_bytes, cr);
	printf("  file         %llu bytes (payload %llu bytes in %llu chunks)\n", (unsigned long long)s.file_bytes,
	       (unsigned long long)s.payload_bytes, (unsigned long long)s.chunks);
	return EXIT_OK;
}

/* ---- bench lvt ---- */

static void discard(void *ctx, uint8_t b) {}

/* The raw load-value trace goes to a scratch file, then through `gzip -1`. */
static void raw_to_pipe(void *ctx, const uint8_t *b, unsigned n) { fwrite(b, 1, n, (FILE *)ctx); }

static int progress_none(void *ctx, uint64_t insns) { return cli_interrupted(); }

#define NSIZES 5
#define NLINES 2
static const uint32_t sizes[NSIZES] = {4096, 8192, 16384, 32768, 65536};
static const uint32_t lines[NLINES] = {32, 64};
/* Table 2 of the paper, row "Average" (32-byte lines), and its gzip column. */
static const double paper_hr[NSIZES] = {0.82, 0.88, 0.94, 0.97, 0.98};
static const double paper_bpi[NSIZES] = {1.53, 0.93, 0.66, 0.46, 0.40};
static const double paper_gzip = 2.40;

struct bench_row {
	const char *name;
	uint64_t insns;
	struct citcat_lvt_stats st[NLINES][NSIZES];
	uint64_t lvt_bytes[NLINES][NSIZES];
	uint64_t raw_bytes, gzip_bytes, gzip_insns;
};

static int run_one(const char *elf, const struct citcat_capture_config *base, uint32_t size, uint32_t line,
		   const char *tmp, FILE *gz, struct citcat_capture_result *res)
{
	struct citcat_capture_config c = *base;
	c.target.dcache = (struct citcat_cache_config){size, 4, line, CITCAT_REPL_PLRU, 0, 2};
	c.lvt_path = tmp;
	struct citcat_errinfo err;
	int rc = citcat_capture_run_lvt_raw(&c, elf, NULL, NULL, gz ? raw_to_pipe : NULL, gz, res, &err);
	if (rc)
		cli_errinfo(elf, &err);
	return rc;
}

static double hit_rate(const struct citcat_lvt_stats *st)
{
	return st->loads > st->ureads ? (double)st->hits / (double)(st->loads - st->ureads) : 0.0;
}

/* Load-weighted averages, as the paper's (WITH_LONG: include the *_long runs). */
struct avg {
	double hr[NLINES][NSIZES], bpi[NLINES][NSIZES], cr[NLINES][NSIZES], gz;
};
static void average(const struct bench_row *rows, int n, int with_long, struct avg *a)
{
	memset(a, 0, sizeof *a);
	double wsum = 0;
	for (int k = 0; k < n; k++)
		if (with_long || !strstr(rows[k].name, "_long"))
			wsum += (double)rows[k].st[0][0].loads;
	for (int k = 0; k < n; k++) {
		const struct bench_row *r = &rows[k];
		if (!with_long && strstr(r->name, "_long"))
			continue;
		double w = wsum > 0 ? (double)r->st[0][0].loads / wsum : 0;
		for (int l = 0; l < NLINES; l++)
			for (int s = 0; s < NSIZES; s++) {
				const struct citcat_lvt_stats *st = &r->st[l][s];
				a->hr[l][s] += w * hit_rate(st);
				a->bpi[l][s] += w * (st->insns ? (double)st->bits / (double)st->insns : 0);
				a->cr[l][s] += w * (st->bits ? 8.0 * (double)st->raw_bytes / (double)st->bits : 0);
			}
		a->gz += w * (r->gzip_insns ? 8.0 * (double)r->gzip_bytes / (double)r->gzip_insns : 0);
	}
}

static const char *base_name(const char *p) { return strrchr(p, '/') ? strrchr(p, '/') + 1 : p; }

int bench_lvt(int argc, char **argv)
{
	int json = 0, nfiles = 0, speed = 1, table = 1;
	const char *files[64], *uart_in = NULL;
	for (int i = 1; i < argc; i++) {
		if (cli_is_help(argv[i])) {
			printf("usage: citcat bench lvt [FIRMWARE.elf...] [--json] [--no-table] [--no-speed] [--uart-in FILE]\n\n"
			       "Captures each firmware with the first-access load-value trace for D-caches of 4,\n"
			       "8, 16, 32 and 64 KB with 32- and 64-byte lines (4-way, PLRU, write-back, as in\n"
			       "the paper) and prints the first-access hit rate, the trace-port bandwidth in\n"
			       "bits per instruction, the compression ratio over the raw load-value trace and\n"
			       "gzip -1 of that raw trace (from the 4 KB / 32-byte run), laid out like Table 2\n"
			       "of the paper with its average row beside ours.  Then LVT encode speed (capture\n"
			       "with the LVT against the same capture without) and decode speed, in million\n"
			       "target instructions per second.  With no files: the examples and the long runs.\n");
			return EXIT_OK;
		}
		if (strcmp(argv[i], "--json") == 0)
			json = 1;
		else if (strcmp(argv[i], "--no-speed") == 0)
			speed = 0;
		else if (strcmp(argv[i], "--no-table") == 0)
			table = 0;
		else if (strcmp(argv[i], "--uart-in") == 0 && i + 1 < argc)
			uart_in = argv[++i];
		else if (argv[i][0] == '-')
			return cli_usage_error("bench lvt", "unknown option '%s'", argv[i]);
		else if (nfiles < 64)
			files[nfiles++] = argv[i];
	}
	static char uart_default[512];
	if (nfiles == 0) {
		nfiles = cli_default_examples(files, 16, 1);
		if (!nfiles)
			return cli_fail("bench lvt: no firmware given and no built examples found (set CITCAT_EXAMPLES_DIR)");
		if (!uart_in) {
			snprintf(uart_default, sizeof uart_default, "%s/uartline.txt", CITCAT_DEFAULT_EXAMPLE_DATA_DIR);
			uart_in = uart_default;
		}
	}
	char tmp[] = "/tmp/citcat-bench-lvt-XXXXXX";
	int fd = mkstemp(tmp);
	if (fd < 0)
		return cli_fail("bench lvt: cannot create a temporary file");
	close(fd);
	char gztmp[] = "/tmp/citcat-bench-gz-XXXXXX";
	fd = mkstemp(gztmp);
	if (fd < 0) {
		remove(tmp);
		return cli_fail("bench lvt: cannot create a temporary file");
	}
	close(fd);
	struct citcat_capture_config base;
	citcat_capture_config_default(&base);
	base.target.seed = 1;
	base.uart_tx = discard;
	base.progress = progress_none;
	struct bench_row *rows = calloc((size_t)nfiles, sizeof *rows);
	if (!rows)
		return cli_fail("bench lvt: out of memory");
	int rc = EXIT_OK;
	for (int k = 0; k < nfiles; k++)
		rows[k].name = base_name(files[k]);
	for (int k = 0; k < nfiles && rc == EXIT_OK && table; k++) {
		struct bench_row *r = &rows[k];
		base.uart_in = uart_in && strstr(r->name, "uartline") ? uart_in : NULL;
		for (int l = 0; l < NLINES && rc == EXIT_OK; l++)
			for (int s = 0; s < NSIZES && rc == EXIT_OK; s++) {
				FILE *gz = NULL;
				struct citcat_outfile *gzo = NULL;
				if (l == 0 && s == 0 && !(gz = cli_scratch_open(gztmp, &gzo)))
					rc = EXIT_USAGE;
				struct citcat_capture_result res;
				if (rc || run_one(files[k], &base, sizes[s], lines[l], tmp, gz, &res) || cli_interrupted())
					rc = EXIT_USAGE;
				if (gz) {
					long z = cli_scratch_close(gz, gzo) ? -1 : cli_compressed_size("gzip -1 -c", gztmp);
					r->gzip_bytes = z > 0 ? (uint64_t)z : 0;
					r->raw_bytes = res.lvt.raw_bytes;
					r->gzip_insns = res.lvt.insns;
				}
				r->st[l][s] = res.lvt;
				r->lvt_bytes[l][s] = res.lvt_bytes;
				r->insns = res.lvt.insns;
			}
		if (!json && rc == EXIT_OK && !cli_quiet)
			fprintf(stderr, "bench lvt: %s done\n", r->name);
	}
	remove(gztmp);
	if (rc) {
		remove(tmp);
		free(rows);
		return rc;
	}
	struct avg all, shrt;
	average(rows, nfiles, 1, &all);
	average(rows, nfiles, 0, &shrt);
	if (json)
		printf("{\"benchmark\": \"lvt\"");
	if (table && json) {
		printf(", \"dcache\": \"4-way plru write-back\", \"sizes\": [4096, 8192, 16384, 32768, "
		       "65536], \"lines\": [32, 64], \"runs\": [");
		for (int k = 0; k < nfiles; k++) {
			const struct bench_row *r = &rows[k];
			printf("%s{\"firmware\": \"%s\", \"instructions\": %llu, \"raw_load_value_bytes\": %llu, "
			       "\"gzip1_bytes\": %llu, \"gzip1_bits_per_insn\": %.4f",
			       k ? ", " : "", r->name, (unsigned long long)r->insns, (unsigned long long)r->raw_bytes,
			       (unsigned long long)r->gzip_bytes,
			       r->gzip_insns ? 8.0 * (double)r->gzip_bytes / (double)r->gzip_insns : 0.0);
			for (int l = 0; l < NLINES; l++) {
				printf(", \"line%u\": [", lines[l]);
				for (int s = 0; s < NSIZES; s++) {
					const struct citcat_lvt_stats *st = &r->st[l][s];
					printf("%s{\"size\": %u, \"loads\": %llu, \"fa_hits\": %llu, \"fa_hit_rate\": %.4f, "
					       "\"stream_bits\": %llu, \"bits_per_insn\": %.4f, \"compression_ratio\": %.3f, "
					       "\"lvt_file_bytes\": %llu}",
					       s ? ", " : "", sizes[s], (unsigned long long)st->loads, (unsigned long long)st->hits,
					       hit_rate(st), (unsigned long long)st->bits,
					       st->insns ? (double)st->bits / (double)st->insns : 0.0,
					       st->bits ? 8.0 * (double)st->raw_bytes / (double)st->bits : 0.0,
					       (unsigned long long)r->lvt_bytes[l][s]);
				}
				printf("]");
			}
			printf("}");
		}
		printf("], \"average\": {\"gzip1_bits_per_insn\": %.4f", all.gz);
		for (int l = 0; l < NLINES; l++) {
			printf(", \"line%u\": [", lines[l]);
			for (int s = 0; s < NSIZES; s++)
				printf("%s{\"size\": %u, \"fa_hit_rate\": %.4f, \"bits_per_insn\": %.4f, \"compression_ratio\": %.3f}",
				       s ? ", " : "", sizes[s], all.hr[l][s], all.bpi[l][s], all.cr[l][s]);
			printf("]");
		}
		printf("}, \"average_without_long_runs\": {\"gzip1_bits_per_insn\": %.4f", shrt.gz);
		for (int l = 0; l < NLINES; l++) {
			printf(", \"line%u\": [", lines[l]);
			for (int s = 0; s < NSIZES; s++)
				printf("%s{\"size\": %u, \"fa_hit_rate\": %.4f, \"bits_per_insn\": %.4f, \"compression_ratio\": %.3f}",
				       s ? ", " : "", sizes[s], shrt.hr[l][s], shrt.bpi[l][s], shrt.cr[l][s]);
			printf("]");
		}
		printf("}, \"paper_average\": {\"fa_hit_rate\": [0.82, 0.88, 0.94, 0.97, 0.98], "
		       "\"bits_per_insn\": [1.53, 0.93, 0.66, 0.46, 0.40], \"gzip1_bits_per_insn\": 2.40, "
		       "\"compression_ratio\": {\"4096\": 5.3, \"16384\": 12.4, \"65536\": 20.6}}");
	} else if (table) {
		for (int l = 0; l < NLINES; l++) {
			printf("\nFirst-access hit rate and trace-port bandwidth (bits/instruction), %u-byte lines, 4-way PLRU "
			       "write-back D-cache%s\n", lines[l], l == 0 ? " (the paper's Table 2)" : "");
			printf("%-14s %12s  %5s %5s %5s %5s %5s   %5s %5s %5s %5s %5s  %6s %5s\n", "firmware", "insns", "4KB", "8KB",
			       "16KB", "32KB", "64KB", "4KB", "8KB", "16KB", "32KB", "64KB", "gzip-1", "dev");
			for (int k = 0; k < nfiles; k++) {
				const struct bench_row *r = &rows[k];
				printf("%-14s %12llu ", r->name, (unsigned long long)r->insns);
				for (int s = 0; s < NSIZES; s++) {
					const struct citcat_lvt_stats *st = &r->st[l][s];
					printf(" %5.2f", hit_rate(st));
				}
				printf("  ");
				for (int s = 0; s < NSIZES; s++) {
					const struct citcat_lvt_stats *st = &r->st[l][s];
					printf(" %5.2f", st->insns ? (double)st->bits / (double)st->insns : 0.0);
				}
				printf("  %6.2f %5.1f\n", r->gzip_insns ? 8.0 * (double)r->gzip_bytes / (double)r->gzip_insns : 0.0,
				       r->st[l][0].loads ? 100.0 * (double)r->st[l][0].ureads / (double)r->st[l][0].loads : 0.0);
			}
			for (int v = 0; v < 2; v++) {
				const struct avg *g = v ? &shrt : &all;
				printf("%-28s", v ? "average without long runs" : "average");
				for (int s = 0; s < NSIZES; s++)
					printf(" %5.2f", g->hr[l][s]);
				printf("  ");
				for (int s = 0; s < NSIZES; s++)
					printf(" %5.2f", g->bpi[l][s]);
				printf("  %6.2f\n", g->gz);
			}
			if (l == 0) {
				printf("%-28s", "paper average");
				for (int s = 0; s < NSIZES; s++)
					printf(" %5.2f", paper_hr[s]);
				printf("  ");
				for (int s = 0; s < NSIZES; s++)
					printf(" %5.2f", paper_bpi[s]);
				printf("  %6.2f\n", paper_gzip);
			}
			printf("compression ratio over the raw load-value trace, average (without long runs):");
			for (int s = 0; s < NSIZES; s++)
				printf(" %uKB %.1f (%.1f)", sizes[s] / 1024, all.cr[l][s], shrt.cr[l][s]);
			printf("%s\n", l == 0 ? "   (paper: 4KB 5.3, 16KB 12.4, 64KB 20.6)" : "");
		}
		printf("(hit rate: FA hits per cached load; averages weighted by loads, as the paper's; bits/instruction:\n"
		       " every bit of the LVT stream per retired instruction, an LDM counting once; gzip-1: of the raw\n"
		       " load-value trace of the 4 KB / 32-byte run; dev: device reads, always traced, per 100 loads)\n");
	}
	if (speed) {
		/* encode: the same capture (16 KB / 32-byte PLRU D-cache, no CAT) with
		 * and without the LVT; decode: the LVT decoder with no output file */
		double t_cap = 0, t_lvt = 0, t_dec = 0;
		uint64_t n_cap = 0, n_dec = 0;
		if (json)
			printf(", \"speed\": [");
		else
			printf("\n%-14s %12s %12s %12s %12s  (M target instructions/s)\n", "firmware", "insns", "capture",
			       "capture+LVT", "LVT decode");
		for (int k = 0; k < nfiles && rc == EXIT_OK; k++) {
			struct citcat_capture_config c = base;
			c.uart_in = uart_in && strstr(rows[k].name, "uartline") ? uart_in : NULL;
			c.target.dcache = (struct citcat_cache_config){16384, 4, 32, CITCAT_REPL_PLRU, 0, 2};
			struct citcat_capture_result r0, r1;
			struct citcat_errinfo err;
			if (citcat_capture_run(&c, files[k], NULL, NULL, &r0, &err)) {
				rc = cli_errinfo(files[k], &err);
				break;
			}
			c.lvt_path = tmp;
			if (citcat_capture_run(&c, files[k], NULL, NULL, &r1, &err)) {
				rc = cli_errinfo(files[k], &err);
				break;
			}
			struct citcat_lvt_replay_config lc;
			citcat_lvt_replay_config_default(&lc);
			lc.lvt_path = tmp;
			lc.image_path = files[k];
			struct citcat_replay_result rr;
			int d = citcat_lvt_replay_run(&lc, &rr, &err);
			if (d) {
				rc = d == CITCAT_ERR_DIVERGED ? cli_fail("bench lvt: %s: the LVT decoder diverged (%s check)",
									 files[k], rr.div.check)
							      : cli_errinfo(files[k], &err);
				break;
			}
			double a = (double)r0.insns / r0.seconds / 1e6, b = (double)r1.insns / r1.seconds / 1e6,
			       e = (double)rr.insns / rr.seconds / 1e6;
			if (json)
				printf("%s{\"firmware\": \"%s\", \"instructions\": %llu, \"capture_minsn_s\": %.2f, "
				       "\"capture_lvt_minsn_s\": %.2f, \"decode_minsn_s\": %.2f}",
				       k ? ", " : "", rows[k].name, (unsigned long long)r1.insns, a, b, e);
			else
				printf("%-14s %12llu %12.2f %12.2f %12.2f\n", rows[k].name, (unsigned long long)r1.insns, a, b, e);
			t_cap += r0.seconds;
			t_lvt += r1.seconds;
			n_cap += r1.insns;
			t_dec += rr.seconds;
			n_dec += rr.insns;
		}
		if (rc == EXIT_OK) {
			if (json)
				printf("], \"speed_total\": {\"capture_minsn_s\": %.2f, \"capture_lvt_minsn_s\": %.2f, "
				       "\"decode_minsn_s\": %.2f}",
				       (double)n_cap / t_cap / 1e6, (double)n_cap / t_lvt / 1e6, (double)n_dec / t_dec / 1e6);
			else
				printf("%-14s %12llu %12.2f %12.2f %12.2f\n(capture: all instructions run; decode: the traced "
				       "interval, no output file)\n",
				       "total", (unsigned long long)n_cap, (double)n_cap / t_cap / 1e6,
				       (double)n_cap / t_lvt / 1e6, (double)n_dec / t_dec / 1e6);
		}
	}
	if (json && rc == EXIT_OK)
		printf("}\n");
	remove(tmp);
	free(rows);
	return rc;
}
