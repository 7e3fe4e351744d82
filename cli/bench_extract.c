/* citcat bench extract: IMS and AES extraction speed and the size of what
 * they produce (the thesis's figure 5 for our target).  Each firmware is
 * captured in this process to a temporary directory with a fixed seed, then
 * extracted; the numbers are printed, never judged. */
#include "cli.h"
#include <citcat/bench.h>

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef CITCAT_DEFAULT_EXAMPLE_DATA_DIR
#define CITCAT_DEFAULT_EXAMPLE_DATA_DIR "examples/data"
#endif

static const char help[] =
	"usage: citcat bench extract [FIRMWARE.elf...] [--json] [--seed N] [--uart-in F] [--max-insns N]\n\n"
	"Captures each firmware in this process (CAT in a temporary directory, seed 1\n"
	"unless --seed), then times citcat_ims_extract + citcat_ims_write and\n"
	"citcat_aes_extract, and prints: MB/s of CAT processed, IMS raw bytes (registers\n"
	"+ memory bytes) and file bytes, AES raw and LZ4 bytes per record kind, traced\n"
	"instructions per AES file byte, and IMS+AES bits per traced instruction.\n"
	"With no files, the built-in examples are used (uartline with its input file).\n";

struct result {
	const char *name;
	uint64_t insns, cat_bytes, ims_raw, ims_mem, ims_file;
	double seconds;
	struct aes_sizes aes;
};

static void discard(void *ctx, uint8_t b) {}

static int run_one(const char *elf, const struct citcat_capture_config *base, const char *uart_in, const char *dir,
		   struct result *out)
{
	char cat[600], ims_path[600], aes_path[600];
	snprintf(cat, sizeof cat, "%s/run.cat", dir);
	snprintf(ims_path, sizeof ims_path, "%s/run.ims", dir);
	snprintf(aes_path, sizeof aes_path, "%s/run.aes", dir);
	struct citcat_capture_config c = *base;
	c.uart_in = uart_in;
	struct citcat_bench_extract x = {.size = sizeof x};
	struct citcat_errinfo err = {0};
	int rc = citcat_bench_extract(&c, elf, cat, ims_path, aes_path, &x, &err);
	if (rc == 1)
		return cli_fail("bench extract: %s never reached a trace start point", elf);
	if (rc)
		return cli_errinfo(x.err_path ? x.err_path : elf, &err);
	out->seconds = x.seconds;
	out->ims_mem = x.ims_mem;
	rc = aes_measure(aes_path, &out->aes, &err);
	if (rc)
		cli_errinfo(aes_path, &err);
	out->insns = x.insns;
	out->cat_bytes = x.cat_bytes;
	out->ims_file = x.ims_file;
	out->ims_raw = x.ims_raw;
	remove(cat);
	remove(ims_path);
	remove(aes_path);
	return rc ? EXIT_USAGE : 0;
}

static void print_text(const struct result *r)
{
	double mbs = r->seconds > 0 ? (double)r->cat_bytes / r->seconds / 1e6 : 0;
	uint64_t araw = 0, az = 0;
	for (int k = 0; k < CITCAT_AES_KINDS; k++) {
		araw += r->aes.raw[k];
		az += r->aes.z[k];
	}
	printf("%-14s %11llu %10llu %8.3f %7.1f %9llu %8llu %9llu %8llu %8llu %9.1f %8.4f\n", r->name,
	       (unsigned long long)r->insns, (unsigned long long)r->cat_bytes, r->seconds, mbs,
	       (unsigned long long)r->ims_raw, (unsigned long long)r->ims_file, (unsigned long long)araw,
	       (unsigned long long)az, (unsigned long long)r->aes.file_bytes,
	       r->aes.file_bytes ? (double)r->insns / (double)r->aes.file_bytes : 0.0,
	       r->insns ? 8.0 * (double)(r->ims_file + r->aes.file_bytes) / (double)r->insns : 0.0);
}

static void print_kinds_text(const struct result *r)
{
	printf("%-14s", r->name);
	for (int k = 0; k < CITCAT_AES_KINDS - 1; k++)
		printf(" %8llu/%-8llu", (unsigned long long)r->aes.raw[k], (unsigned long long)r->aes.z[k]);
	printf("\n");
}

static void print_json(const struct result *r, int first)
{
	double mbs = r->seconds > 0 ? (double)r->cat_bytes / r->seconds / 1e6 : 0;
	printf("%s{\"firmware\": \"%s\", \"instructions\": %llu, \"cat_bytes\": %llu, \"extract_seconds\": %.4f, "
	       "\"cat_mb_s\": %.2f, \"ims\": {\"memory_bytes\": %llu, \"raw_bytes\": %llu, \"file_bytes\": %llu}, "
	       "\"aes\": {\"records\": {",
	       first ? "" : ", ", r->name, (unsigned long long)r->insns, (unsigned long long)r->cat_bytes, r->seconds, mbs,
	       (unsigned long long)r->ims_mem, (unsigned long long)r->ims_raw, (unsigned long long)r->ims_file);
	for (int k = 0; k < CITCAT_AES_KINDS - 1; k++)
		printf("%s\"%s\": %llu", k ? ", " : "", citcat_aes_kind_name((unsigned)k), (unsigned long long)r->aes.count[k]);
	printf("}, \"raw_bytes\": {");
	for (int k = 0; k < CITCAT_AES_KINDS - 1; k++)
		printf("%s\"%s\": %llu", k ? ", " : "", citcat_aes_kind_name((unsigned)k), (unsigned long long)r->aes.raw[k]);
	printf("}, \"compressed_bytes\": {");
	for (int k = 0; k < CITCAT_AES_KINDS - 1; k++)
		printf("%s\"%s\": %llu", k ? ", " : "", citcat_aes_kind_name((unsigned)k), (unsigned long long)r->aes.z[k]);
	printf("}, \"file_bytes\": %llu, \"instructions_per_byte\": %.2f}, \"ims_aes_bits_per_insn\": %.5f}",
	       (unsigned long long)r->aes.file_bytes,
	       r->aes.file_bytes ? (double)r->insns / (double)r->aes.file_bytes : 0.0,
	       r->insns ? 8.0 * (double)(r->ims_file + r->aes.file_bytes) / (double)r->insns : 0.0);
}

int bench_extract(int argc, char **argv)
{
	int json = 0, nfiles = 0;
	const char *files[256], *uart_in = NULL;
	struct citcat_capture_config c;
	citcat_capture_config_default(&c);
	c.target.seed = 1;
	c.uart_tx = discard;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (cli_is_help(a)) {
			fputs(help, stdout);
			return EXIT_OK;
		} else if (strcmp(a, "--json") == 0) {
			json = 1;
		} else if (strcmp(a, "--seed") == 0 && i + 1 < argc) {
			if (cli_parse_u64(argv[++i], &c.target.seed))
				return cli_usage_error("bench extract", "bad seed '%s'", argv[i]);
		} else if (strcmp(a, "--max-insns") == 0 && i + 1 < argc) {
			if (cli_parse_count(argv[++i], &c.max_insns) || !c.max_insns)
				return cli_usage_error("bench extract", "bad instruction count '%s'", argv[i]);
		} else if (strcmp(a, "--uart-in") == 0 && i + 1 < argc) {
			uart_in = argv[++i];
		} else if (a[0] == '-') {
			return cli_usage_error("bench extract", "unknown or incomplete option '%s'", a);
		} else if (nfiles < 256) {
			files[nfiles++] = a;
		}
	}
	static char uart_default[512];
	int defaults = nfiles == 0;
	if (defaults) {
		nfiles = cli_default_examples(files, 16, 0);
		if (!nfiles)
			return cli_fail("bench extract: no firmware given and no built examples found (set CITCAT_EXAMPLES_DIR)");
		snprintf(uart_default, sizeof uart_default, "%s/uartline.txt", CITCAT_DEFAULT_EXAMPLE_DATA_DIR);
	}
	char dir[] = "/tmp/citcat-bench-extract-XXXXXX";
	if (!mkdtemp(dir))
		return cli_fail("bench extract: cannot create a temporary directory");
	struct result tot;
	memset(&tot, 0, sizeof tot);
	tot.name = "total";
	if (json)
		printf("{\"benchmark\": \"extract\", \"runs\": [");
	else
		printf("%-14s %11s %10s %8s %7s %9s %8s %9s %8s %8s %9s %8s\n", "firmware", "insns", "CAT B", "extr s",
		       "MB/s", "IMS raw", "IMS file", "AES raw", "AES LZ4", "AES file", "insn/AESB", "bits/insn");
	struct result *all = calloc((size_t)nfiles, sizeof *all);
	int rc = all ? 0 : cli_fail("out of memory");
	for (int k = 0; k < nfiles && !rc; k++) {
		struct result *r = &all[k];
		const char *base = strrchr(files[k], '/') ? strrchr(files[k], '/') + 1 : files[k];
		r->name = base;
		const char *in = uart_in;
		if (!in && defaults && strncmp(base, "uartline", 8) == 0 && access(uart_default, R_OK) == 0)
			in = uart_default;
		if ((rc = run_one(files[k], &c, in, dir, r)))
			break;
		if (json)
			print_json(r, k == 0);
		else
			print_text(r);
		fflush(stdout);
		tot.insns += r->insns;
		tot.cat_bytes += r->cat_bytes;
		tot.seconds += r->seconds;
		tot.ims_mem += r->ims_mem;
		tot.ims_raw += r->ims_raw;
		tot.ims_file += r->ims_file;
		tot.aes.file_bytes += r->aes.file_bytes;
		for (int i = 0; i < CITCAT_AES_KINDS; i++) {
			tot.aes.count[i] += r->aes.count[i];
			tot.aes.raw[i] += r->aes.raw[i];
			tot.aes.z[i] += r->aes.z[i];
		}
	}
	rmdir(dir);
	if (rc) {
		free(all);
		if (json)
			printf("]}\n");
		return rc;
	}
	if (json) {
		printf("], \"total\": ");
		print_json(&tot, 1);
		printf("}\n");
	} else {
		print_text(&tot);
		printf("\nAES bytes per record kind, raw/LZ4 (each kind's records through an LZ4 frame of its own)\n");
		printf("%-14s", "firmware");
		for (int k = 0; k < CITCAT_AES_KINDS - 1; k++)
			printf(" %17s", citcat_aes_kind_name((unsigned)k));
		printf("\n");
		for (int k = 0; k < nfiles; k++)
			print_kinds_text(&all[k]);
		print_kinds_text(&tot);
		printf("(MB/s = CAT bytes / seconds of IMS extract+write and AES extract; IMS raw = 4 bytes per\n"
		       " register + the memory bytes; bits/insn = 8 x (IMS file + AES file) / traced instructions)\n");
	}
	free(all);
	return EXIT_OK;
}
