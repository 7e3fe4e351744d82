/* citcat: command dispatcher.  What holds for every command is set up
 * here, once (issue 29): the file guard (an output is never an input,
 * citcat_guard_enable), how standard input is read (citcat_input_stdin_mode;
 * <citcat/io.h> both), the signal
 * policy (SIGINT, SIGTERM, SIGHUP raise the stop flag every long loop
 * polls; an interrupted command never exits 0), and -q/--quiet.  Every
 * command's files are declared in tests/conformance/commands.txt, which
 * the conformance test checks against this table (tests/conformance.sh). */
#include "cli.h"
#include <citcat/io.h>

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
	{"gdb", cmd_gdb, "serve a replayed run to GDB, forwards and backwards (time-travel debugging)"},
};

/* Commands that read "-" once, as a stream: a pipe on standard input is
 * read as it comes instead of being copied first (CITCAT_STDIN_STREAM). */
static const char *const stream_stdin[] = {"info", "convert", "dump", "capture"};
/* Commands that parse -q themselves (they also read cli_quiet). */
static const char *const own_quiet[] = {"capture", "replay"};

static int listed(const char *name, const char *const *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(name, list[i]) == 0)
			return 1;
	return 0;
}

int cli_quiet;

/* Removes every -q/--quiet from ARGV (from index 1), setting cli_quiet;
 * returns the new count. */
static int take_quiet(int argc, char **argv)
{
	int k = 1;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-q") == 0 || strcmp(argv[i], "--quiet") == 0)
			cli_quiet = 1;
		else
			argv[k++] = argv[i];
	}
	argv[k] = NULL;
	return k;
}

/* Runs command C over ARGC/ARGV (ARGV[0] its name) under the rules above. */
static int run_command(const struct command *c, int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if (strcmp(argv[i], "-q") == 0 || strcmp(argv[i], "--quiet") == 0)
			cli_quiet = 1;
	if (!listed(c->name, own_quiet, sizeof own_quiet / sizeof *own_quiet))
		argc = take_quiet(argc, argv);
	citcat_input_stdin_mode(listed(c->name, stream_stdin, sizeof stream_stdin / sizeof *stream_stdin) ? CITCAT_STDIN_STREAM
												: CITCAT_STDIN_SPOOL);
	citcat_guard_enable(1);
	int rc = c->run(argc, argv);
	if (rc == EXIT_OK && cli_interrupted() && !cli_is_help(argc > 1 ? argv[1] : "")) {
		/* whatever the command did with the signal, it did not finish */
		fprintf(stderr, "citcat %s: interrupted\n", c->name);
		rc = EXIT_USAGE;
	}
	return rc;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: citcat [--version] [--help] COMMAND [ARGS...]\n\n"
		   "Turns the cache-filtered address trace (CAT) a bus monitor records into the\n"
		   "exact instruction trace of the processor.\n\nCommands:\n");
	for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
		fprintf(f, "  %-9s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "\n'citcat COMMAND --help' describes a command.  A file argument of '-'\n"
		   "means standard input or output where that makes sense.\n\n"
		   "Options take their value as the next argument or after '=' (--seed=1).\n"
		   "Every command takes -q (--quiet): no summary or other chatter on standard\n"
		   "error, only errors and warnings.\n\n"
		   "Exit status: 0 success; 1 a check failed (divergence, verification\n"
		   "mismatch); 2 usage or input error (bad arguments, unreadable, truncated or\n"
		   "corrupted input, an output refused or failed: no partial output is left),\n"
		   "or interrupted (SIGINT, SIGTERM, SIGHUP; a second one: 130 at once);\n"
		   "3 capture only: the target stopped abnormally (fault, WFI deadlock,\n"
		   "interrupted) and the trace is valid up to there.\n");
}

int main(int argc, char **argv)
{
	cli_watch_stdout();
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
			return cli_close_stdout(run_command(&commands[i], argc - 1, argv + 1));
		names[i] = commands[i].name;
	}
	const char *near = cli_did_you_mean(argv[1], names, sizeof names / sizeof *names);
	if (near) {
		fprintf(stderr, "citcat: '%s' is not a citcat command. Did you mean '%s'?\n", argv[1], near);
		return EXIT_USAGE;
	}
	char shown[256];
	cli_escape_text(argv[1], shown, sizeof shown);
	fprintf(stderr, "citcat: '%s' is not a citcat command; see 'citcat --help'\n", shown);
	return EXIT_USAGE;
}
