/* citcat: command dispatcher. */
#include "cli.h"

#include <string.h>

struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
};

static const struct command commands[] = {
	{"capture", cmd_capture, "run firmware on the modelled target and record its CAT"},
	{"ims", cmd_ims, "extract the initial machine state (IMS) from a CAT"},
	{"aes", cmd_aes, "extract the asynchronous event schedule (AES) from a CAT"},
	{"replay", cmd_replay, "regenerate the instruction trace from IMS + AES and verify it"},
	{"plan", cmd_plan, "write one replay command per segment of a checkpointed CAT"},
	{"merge", cmd_merge, "join the itraces of consecutive segments into one"},
	{"info", cmd_info, "describe a trace file (CAT, itrace, din, PDATS, SDC/LSP ...)"},
	{"convert", cmd_convert, "convert between trace formats"},
	{"dump", cmd_dump, "print every record of a trace file, one per line (text, CSV, JSON)"},
	{"report", cmd_report, "write an HTML report of a run (inline SVG charts, optional CSV)"},
	{"profile", cmd_profile, "write a run's per-line profile for callgrind_annotate and KCachegrind"},
	{"wet", cmd_wet, "build or query a whole execution trace (WET) of a run"},
	{"bench", cmd_bench, "measure speed and density (reports numbers, never fails on time)"},
};

static void usage(FILE *f)
{
	fprintf(f, "usage: citcat [--version] [--help] COMMAND [ARGS...]\n\n"
		   "Turns the cache-filtered address trace (CAT) a bus monitor records into the\n"
		   "exact instruction trace of the processor.\n\nCommands:\n");
	for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
		fprintf(f, "  %-9s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "\n'citcat COMMAND --help' describes a command.  A file argument of '-'\n"
		   "means standard input or output where that makes sense.\n\n"
		   "Options take their value as the next argument or after '=' (--seed=1).\n\n"
		   "Exit status: 0 success; 1 a check failed (divergence, verification\n"
		   "mismatch); 2 usage or input error (bad arguments, unreadable, truncated or\n"
		   "corrupted input); 3 capture only: the target stopped abnormally (fault,\n"
		   "WFI deadlock, interrupted) and the trace is valid up to there.\n");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (cli_is_help(argv[1]) || strcmp(argv[1], "help") == 0) {
		if (argc > 2)
			for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
				if (strcmp(argv[2], commands[i].name) == 0) {
					char *a[] = {argv[2], "--help", NULL};
					return cli_close_stdout(commands[i].run(2, a));
				}
		usage(stdout);
		return cli_close_stdout(EXIT_OK);
	}
	if (strcmp(argv[1], "--version") == 0) {
		printf("citcat %s\n", CITCAT_VERSION_STRING);
		return cli_close_stdout(EXIT_OK);
	}
	cli_catch_signals();
	argv = cli_split_long_opts(argc, argv, &argc);
	const char *names[sizeof commands / sizeof *commands];
	for (size_t i = 0; i < sizeof commands / sizeof *commands; i++) {
		if (strcmp(argv[1], commands[i].name) == 0)
			return cli_close_stdout(commands[i].run(argc - 1, argv + 1));
		names[i] = commands[i].name;
	}
	const char *near = cli_did_you_mean(argv[1], names, sizeof names / sizeof *names);
	if (near) {
		fprintf(stderr, "citcat: '%s' is not a citcat command. Did you mean '%s'?\n", argv[1], near);
		return EXIT_USAGE;
	}
	fprintf(stderr, "citcat: '%s' is not a citcat command.\n\n", argv[1]);
	usage(stderr);
	return EXIT_USAGE;
}
