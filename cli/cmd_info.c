/* citcat info: recognises a file by its contents (formats/registry.h) and
 * describes it. */
#include "formats_cli.h"
#include <citcat/cat.h>
#include <citcat/io.h>
#include <citcat/itrace.h>
#include <citcat/symbols.h>

#include <errno.h>
#include <string.h>

static const char info_help[] =
	"usage: citcat info [--json] [--elf FIRMWARE.elf] FILE\n\n"
	"Describes a trace file, recognised by its contents: a CAT (configuration and\n"
	"event counts), an itrace (instructions, interrupts, accesses), IMS, AES,\n"
	"din/xdin text, PDATS, PDATS II or an SDC/LSP stream.  A file wrapped in LZ4,\n"
	"zstd or xz is described by what is inside.\n"
	"  --json   print one JSON object instead of text\n"
	"  --elf FIRMWARE.elf\n"
	"           name the function and source line of a fault's PC (a CAT's fault is\n"
	"           named without it too when the CAT records its firmware: see dump)\n";

static const char *info_elf;
const char *cli_info_elf(void) { return info_elf; }

static int itrace_progress(void *ctx, uint64_t insns, uint64_t total)
{
	(void)total;
	if ((insns & 0xfffff) == 0)
		cli_progress_update(ctx, insns, 0, "insn");
	return cli_interrupted();
}

int itrace_info(const char *path, int json)
{
	struct citcat_itrace_reader *r;
	int rc = citcat_itrace_reader_open(&r, path);
	if (rc) {
		cli_errinfo(path, citcat_itrace_reader_error(r));
		citcat_itrace_reader_close(r);
		return EXIT_USAGE;
	}
	struct citcat_symbols *syms = NULL;
	if (info_elf && cli_open_symbols(info_elf, &syms)) {
		citcat_itrace_reader_close(r);
		return EXIT_USAGE;
	}
	struct citcat_itrace_info f = {.size = sizeof f};
	struct cli_progress pr;
	cli_progress_init(&pr, "reading");
	rc = citcat_itrace_reader_info(r, &f, itrace_progress, &pr);
	cli_progress_done(&pr);
	if (rc == CITCAT_ERR_INTERRUPTED) {
		citcat_itrace_reader_close(r);
		citcat_symbols_close(syms);
		return cli_fail("info: interrupted");
	}
	if (rc < 0) {
		cli_errinfo(path, citcat_itrace_reader_error(r));
		citcat_itrace_reader_close(r);
		citcat_symbols_close(syms);
		return EXIT_USAGE;
	}
	int version = (int)f.version;
	enum citcat_isa isa = f.isa;
	uint64_t insns = f.insns, irqs = f.irqs, reads = f.reads, writes = f.writes, seq = f.sequential, dma = f.dma,
		 dma_bytes = f.dma_bytes, uncached = f.uncached;
	const struct citcat_m7_fault *m7f = f.has_m7_fault ? &f.m7_fault : NULL;
	citcat_itrace_reader_close(r);
	long size = (long)cli_file_bytes(path);
	if (json) {
		printf("{\"kind\": \"itrace\", \"version\": %d, \"isa\": \"%s\", \"instructions\": %llu, \"interrupts\": %llu, "
		       "\"reads\": %llu, \"writes\": %llu, \"uncached_accesses\": %llu, \"dma_transfers\": %llu, "
		       "\"dma_bytes\": %llu, \"file_bytes\": %ld, \"bytes_per_instruction\": %.4f",
		       version, isa == CITCAT_ISA_ARMV7M ? "armv7-m" : "arm", (unsigned long long)insns, (unsigned long long)irqs,
		       (unsigned long long)reads, (unsigned long long)writes, (unsigned long long)uncached, (unsigned long long)dma,
		       (unsigned long long)dma_bytes, size, insns ? (double)size / (double)insns : 0.0);
		if (f.stopped)
			printf(", \"stop\": \"%s\", \"stop_pc\": %llu", citcat_stop_reason_name(f.stop_reason),
			       (unsigned long long)f.stop_pc);
		if (f.stopped && f.stop_reason == CITCAT_STOP_FAULT)
			printf(", \"fault\": \"%s\", \"fault_addr\": %u", citcat_fault_kind_name(f.fault_kind), f.fault_addr);
		if (f.stopped)
			cli_json_fault(syms, (uint32_t)f.stop_pc, m7f, 1);
		printf("}\n");
	} else {
		printf("%s: native instruction trace (itrace v%d), %s\n", path, version,
		       isa == CITCAT_ISA_ARMV7M ? "Cortex-M7 (ARMv7-M, Thumb)" : "ARMv7 (A32/Thumb)");
		printf("  instructions      %llu (%.1f%% sequential)\n", (unsigned long long)insns,
		       insns ? 100.0 * (double)seq / (double)insns : 0.0);
		printf("  interrupts        %llu\n", (unsigned long long)irqs);
		printf("  data reads        %llu\n", (unsigned long long)reads);
		printf("  data writes       %llu\n", (unsigned long long)writes);
		printf("  uncached          %llu of those accesses (device window)\n", (unsigned long long)uncached);
		printf("  DMA transfers     %llu (%llu bytes)\n", (unsigned long long)dma, (unsigned long long)dma_bytes);
		printf("  file bytes        %ld (%.3f per instruction)\n", size, insns ? (double)size / (double)insns : 0.0);
		char text[512], where[256];
		if (f.stopped && f.stop_reason == CITCAT_STOP_FAULT)
			printf("  ended by          %s\n", cli_describe_fault(syms, f.fault_kind, (uint32_t)f.stop_pc, f.fault_addr,
								      m7f, text, sizeof text));
		else if (f.stopped)
			printf("  ended by          %s at %s\n", citcat_stop_reason_name(f.stop_reason),
			       cli_describe_pc(syms, f.stop_pc, where, sizeof where));
	}
	citcat_symbols_close(syms);
	return EXIT_OK;
}

int cmd_info(int argc, char **argv)
{
	int json = 0;
	const char *path = NULL;
	for (int i = 1; i < argc; i++) {
		if (cli_is_help(argv[i])) {
			fputs(info_help, stdout);
			return EXIT_OK;
		} else if (strcmp(argv[i], "--json") == 0) {
			json = 1;
		} else if (strcmp(argv[i], "--elf") == 0) {
			if (++i >= argc)
				return cli_usage_error("info", "--elf needs FIRMWARE.elf");
			info_elf = argv[i];
		} else if (argv[i][0] == '-' && argv[i][1]) {
			return cli_usage_error("info", "unknown option '%s'", argv[i]);
		} else if (!path) {
			path = argv[i];
		} else {
			return cli_usage_error("info", "one file at a time");
		}
	}
	if (!path)
		return cli_usage_error("info", "no file given");
	const struct citcat_format *f;
	if (cli_detect(path, &f))
		return EXIT_USAGE;
	if (!f)
		return cli_fail("%s: offset 0: not a file citcat recognises", path);
	if (!cli_format(f)->info)
		return cli_fail("%s: a %s; `citcat info` cannot describe it", path, f->what);
	int rc = cli_format(f)->info(path, f, json);
	/* an outer TVP container (mode 0) on any other format: say so (the
	 * address traces say it on their first line) */
	int wrap = 0;
	const struct citcat_format *g;
	if (rc == EXIT_OK && !json && !f->addr_fmt && strcmp(path, "-") != 0 &&
	    citcat_format_detect(path, &g, &wrap, NULL) == 0 && wrap == CITCAT_WRAP_TVP)
		printf("  wrapper           TVP container, LZMA2 blocks (common/TVP.md)\n");
	return rc;
}
