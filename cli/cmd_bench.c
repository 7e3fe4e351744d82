/* citcat bench: speed and density measurements.  Benchmarks print numbers;
 * they never pass or fail on time. */
#include "cli.h"

#include <string.h>

static const char bench_help[] =
	"usage: citcat bench WHAT [ARGS...]\n\n"
	"  all [FIRMWARE.elf...] [--json]      every phase against one honest bare baseline\n"
	"  capture [FIRMWARE.elf...] [--json]  capture and extraction phases against that baseline\n"
	"  corpus [NAME...] [--json]           users' runs (interrupts, DMA, short, Thumb, M7, long): each\n"
	"                                      phase against its engine's floor and the insn engine\n"
	"  formats [FILE...] [--json]          din/PDATS/PDATS II speed and density\n"
	"  sdclsp [FILE...] [--json]           SDC/LSP bits per instruction and speed\n"
	"  extract [FIRMWARE.elf...] [--json]  IMS/AES extraction MB/s, record sizes, bits/insn\n"
	"  replay [FIRMWARE.elf...] [--json]   replay vs bare Unicorn, tracing dilation\n"
	"  lvt [FIRMWARE.elf...] [--json]      first-access load-value trace: Table 2 replica, speed\n"
	"  daf [FIRMWARE.elf...] [--json]      data-address filtering: the paper's Table 4, speed\n"
	"  trace-port [FIRMWARE.elf...] [--json]  bits/insn of every way citcat traces a run\n"
	"  gdb [FIRMWARE.elf...] [--json]      the replay cursor: reverse-stepi, reverse-continue, memory\n"
	"With no files, the built-in examples are used (all, capture: the long ones).\n";

int cmd_bench(int argc, char **argv)
{
	if (argc < 2 || cli_is_help(argv[1])) {
		fputs(bench_help, argc < 2 ? stderr : stdout);
		return argc < 2 ? EXIT_USAGE : EXIT_OK;
	}
	if (strcmp(argv[1], "capture") == 0 || strcmp(argv[1], "all") == 0)
		return bench_all(argc - 1, argv + 1, strcmp(argv[1], "all") == 0);
	if (strcmp(argv[1], "corpus") == 0)
		return bench_corpus(argc - 1, argv + 1);
	if (strcmp(argv[1], "formats") == 0)
		return addr_bench(argc - 1, argv + 1);
	if (strcmp(argv[1], "extract") == 0)
		return bench_extract(argc - 1, argv + 1);
	if (strcmp(argv[1], "sdclsp") == 0)
		return sdclsp_bench(argc - 1, argv + 1);
	if (strcmp(argv[1], "replay") == 0)
		return bench_replay(argc - 1, argv + 1);
	if (strcmp(argv[1], "lvt") == 0)
		return bench_lvt(argc - 1, argv + 1);
	if (strcmp(argv[1], "daf") == 0)
		return daf_bench(argc - 1, argv + 1);
	if (strcmp(argv[1], "trace-port") == 0)
		return bench_trace_port(argc - 1, argv + 1);
	if (strcmp(argv[1], "gdb") == 0)
		return bench_gdb(argc - 1, argv + 1);
	return cli_usage_error("bench", "unknown benchmark '%s'", argv[1]);
}
