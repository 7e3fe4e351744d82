/* Internal interfaces of the citcat command-line tool.  The tool is a thin
 * layer over libcitcat: it parses arguments, prints results and errors, shows
 * progress on a terminal, and maps failures to exit codes. */
#ifndef CITCAT_CLI_H
#define CITCAT_CLI_H

#include <citcat/aes.h>
#include <citcat/base.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* Exit codes (documented in README.md and `citcat --help`). */
#define EXIT_OK 0
#define EXIT_CHECK 1 /* a check failed: divergence, verification mismatch */
#define EXIT_USAGE 2 /* usage or input error */
#define EXIT_ABNORMAL 3 /* capture: the target stopped abnormally (fault, WFI deadlock, interrupted); valid trace */

/* ---- utilities (util.c) ---- */
/* -q/--quiet was given (main.c takes it from every command's arguments). */
extern int cli_quiet;
/* Prints "citcat CMD: message" on standard error unless -q: summaries and
 * other chatter, never errors or warnings. */
void cli_note(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* S escaped for a terminal (<citcat/escape.h>, CITCAT_ESC_TEXT) into OUT (N
 * bytes); returns OUT.  For names that come from files or the user. */
const char *cli_escape_text(const char *s, char *out, size_t n);
/* Prints S escaped as the inside of a JSON string (valid UTF-8 always) or
 * as one CSV field (RFC 4180, formula-safe) on F. */
void cli_put_json(FILE *f, const char *s);
void cli_put_csv(FILE *f, const char *s);
/* Prints "citcat: PATH: offset N: message" for an error from the library
 * (path and message escaped for the terminal). */
int cli_errinfo(const char *path, const struct citcat_errinfo *e);
/* Prints "citcat: message" and returns EXIT_USAGE. */
int cli_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int cli_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Parses a size with an optional K/M/G suffix (powers of 1024, then an
 * optional B or iB).  Numbers are decimal, or hex after 0x; no spaces, signs
 * or trailing characters; more than 64 bits is an error.  0 or -1. */
int cli_parse_size(const char *s, uint64_t *out);
/* The same numbers without a suffix.  Every numeric option goes through
 * one of the two. */
int cli_parse_u64(const char *s, uint64_t *out);
/* A count (instructions, records) with an optional decimal suffix K, M, G
 * or T (10^3 .. 10^12: 100M is a hundred million); otherwise as
 * cli_parse_u64.  0 or -1. */
int cli_parse_count(const char *s, uint64_t *out);
/* Splits every "--opt=value" argument into "--opt" "value" (GNU style), so
 * every command accepts both forms.  Returns ARGV itself when there is none
 * (the new vector lives as long as the process); *OUT_ARGC is the count. */
char **cli_split_long_opts(int argc, char **argv, int *out_argc);
/* The name among NAMES closest to WORD (at most two edits), or NULL. */
const char *cli_did_you_mean(const char *word, const char *const *names, size_t n);
/* True when ARG is -h or --help. */
int cli_is_help(const char *arg);
/* Reads up to N bytes of the start of PATH; returns bytes read or -1.  For
 * "-" the bytes are put back on standard input for the reader that follows. */
long cli_read_head(const char *path, uint8_t *buf, size_t n);
/* Before anything is written: prints why and returns EXIT_USAGE when an
 * output is the same file (st_dev, st_ino) as an input or an earlier
 * output, else 0.  NULL entries are skipped, "-" is descriptor 0 (input) or
 * 1 (output); outputs that do not exist yet and character devices (they
 * store nothing) cannot clash. */
int cli_check_distinct(const char *const *in, size_t nin, const char *const *out, size_t nout);
/* Makes standard output a stream that remembers why a write failed (main
 * calls it first), for cli_close_stdout's message. */
void cli_watch_stdout(void);
/* Flushes and closes standard output at exit: returns STATUS, or
 * EXIT_USAGE with a message when STATUS is 0 and a write failed. */
int cli_close_stdout(int status);
/* The size in bytes of the input PATH, for info's "file bytes": a regular
 * file's size; for "-", standard input's (common/input.h,
 * citcat_input_stdin_bytes: call it after the reader reached the end); -1
 * when unknown (a FIFO, a device). */
long long cli_file_bytes(const char *path);
/* A scratch file a benchmark writes and removes itself, through an
 * outfile like every output (not fsync'ed): a stdio stream on PATH, or
 * NULL with the reason printed.  cli_scratch_close commits it (0) or
 * removes it after a write error (-1); NULL F: nothing to do. */
struct citcat_outfile;
FILE *cli_scratch_open(const char *path, struct citcat_outfile **o);
int cli_scratch_close(FILE *f, struct citcat_outfile *o);
/* Suffix test, case-sensitive. */
int cli_has_suffix(const char *s, const char *suf);
/* The built example firmware the benchmarks default to (CITCAT_EXAMPLES_DIR,
 * or the build tree's examples/), with the two long runs when WITH_LONG:
 * stores up to MAX paths (static storage) in FILES, returns how many exist. */
size_t cli_default_examples(const char **files, size_t max, int with_long);
/* Bytes CMD (a shell filter such as "xz -9 -c") makes of PATH, or -1. */
long cli_compressed_size(const char *cmd, const char *path);
/* Catches SIGINT/SIGTERM/SIGHUP so long commands stop cleanly (removing
 * partial output): the handler raises the process's stop flag
 * (common/stop.h), which the library's long loops and every read poll;
 * cli_interrupted() tells whether one arrived.  The handler is installed
 * without SA_RESTART, so a read blocked on a pipe or a FIFO returns at
 * once.  A second signal exits at once with status 130, temporary outputs
 * removed. */
void cli_catch_signals(void);
int cli_interrupted(void);
/* Monotonic seconds. */
double cli_now(void);

/* Progress on standard error when it is a terminal, at most ~5 times a second. */
struct cli_progress {
	int enabled;
	int shown; /* a progress line is on the terminal now */
	double last, start;
	const char *what;
};
void cli_progress_init(struct cli_progress *p, const char *what);
void cli_progress_update(struct cli_progress *p, uint64_t done, uint64_t total, const char *unit);
void cli_progress_done(struct cli_progress *p);
/* Clears the progress line, if one is shown, so that other output (the
 * firmware's UART) starts on a line of its own; the next update redraws it. */
void cli_progress_clear(struct cli_progress *p);

/* ---- commands ---- */
int cmd_capture(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_convert(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_wet(int argc, char **argv);
int cmd_dump(int argc, char **argv); /* cmd_dump.c */

/* Options `convert` passes to the format modules. */
struct convert_opts {
	const char *image; /* --image: program image (IMS or ELF), for sdclsp decoding */
	int lz4;           /* --lz4: wrap the output in an LZ4 frame (-1: by suffix) */
	const char *daf;   /* --daf: data-address filtering trace to replay over the flow IN */
	int uncached;      /* --uncached: itrace -> address trace keeps device accesses */
	int scratch;       /* OUT is another command's temporary file (report): no warning naming it */
	/* --to text only (convert_text.c): symbols and which part to list */
	const char *elf;            /* --elf FW.elf: function+offset and file:line lines */
	const char *function;       /* --function NAME: only instructions inside it (needs --elf) */
	uint64_t from_insn, count;  /* --from-insn N, --count K (0: to the end) */
	int pc_range;               /* --pc LO:HI given: only LO <= pc < HI */
	uint64_t pc_lo, pc_hi;
};

/* ---- address-trace formats: din, xdin, pdats, pdats2 (addr_cli.c) ---- */
/* Converts IN (format FROM: itrace, din, xdin, pdats, pdats2) to OUT (format TO). */
int addr_convert(const char *in, const char *from, const char *out, const char *to, const struct convert_opts *o);
/* itrace -> ChampSim input_instr records (convert_champsim.c). */
int champsim_convert(const char *in, const char *from, const char *out, const struct convert_opts *o);
int addr_info(const char *path, const char *fmt, int json);
int addr_bench(int argc, char **argv);

/* ---- program-flow streams: SDC/LSP (sdclsp_cli.c) ---- */
/* TO or FROM starts with "sdclsp" (TO may carry ":b|e|r:SETSxWAYS,NP"). */
int sdclsp_convert(const char *in, const char *from, const char *out, const char *to, const struct convert_opts *o);
int sdclsp_info(const char *path, int json);
int sdclsp_bench(int argc, char **argv);
/* The program image of --image: an IMS (*IMG then belongs to *IMS) or an ELF. */
struct citcat_ims;
struct citcat_image;
int sdclsp_load_image(const char *path, struct citcat_image **img, struct citcat_ims *ims);

/* ---- data-address filtering (daf_cli.c, bench_daf.c) ---- */
/* IN is the program flow (itrace, or SDC-LSP with o->image); o->daf the DAF trace. */
int daf_convert(const char *in, const char *from, const char *out, const char *to, const struct convert_opts *o);
int daf_bench(int argc, char **argv);
int bench_trace_port(int argc, char **argv);

/* ---- itrace and CAT (cmd_info.c, capture) ---- */
int itrace_info(const char *path, int json);
int cat_info(const char *path, int json);
int ims_info(const char *path, int json);
int aes_info(const char *path, int json);
/* Per AES record kind: records, their encoded bytes, and those bytes through
 * an LZ4 frame of their own: the library's (citcat_aes_measure, citcat/aes.h;
 * shared by info, the report and bench).  These two names stay until
 * bench_extract.c says citcat_aes_sizes and citcat_aes_measure. */
#define aes_sizes citcat_aes_sizes
#define aes_measure citcat_aes_measure
int bench_extract(int argc, char **argv);
int cmd_ims(int argc, char **argv);
int cmd_aes(int argc, char **argv);
int cmd_replay(int argc, char **argv);
int cmd_plan(int argc, char **argv);  /* cmd_segments.c */
int cmd_merge(int argc, char **argv); /* cmd_segments.c */
/* citcat replay RUN.cat --jobs N (cmd_segments.c): an exit status; ENGINE
 * (CITCAT_REPLAY_ENGINE_*) replays every segment */
int replay_jobs(const char *cat, unsigned njobs, const char *out, const char *verify, unsigned engine, int quiet);
/* CITCAT_MODEL_THREAD in the environment: CITCAT_REPLAY_MODEL_* (cmd_replay.c). */
unsigned cli_model_thread(void);
int replay_jobs_files(const char *cat, const char *ims, const char *aes, unsigned njobs, const char *out,
		      const char *verify, const char *oracle, unsigned engine, int quiet);
int bench_all(int argc, char **argv, int all); /* bench all / capture (bench_run.c) */
int bench_corpus(int argc, char **argv); /* bench corpus (bench_corpus.c) */
/* ---- replay (issue 4) ---- */
/* convert --to text: IN (format FROM, which must be itrace) as a listing. */
int text_convert(const char *in, const char *from, const char *out, const struct convert_opts *o);
int bench_replay(int argc, char **argv);
/* ---- first-access load-value trace (lvt_cli.c) ---- */
int lvt_info(const char *path, int json);
int bench_lvt(int argc, char **argv);

/* ---- symbols for people (symbols_cli.c, issue 12) ---- */
struct citcat_symbols;
/* Opens the symbolizer of PATH, printing why not (returns EXIT_USAGE) on
 * failure; 0 and *S set on success. */
int cli_open_symbols(const char *path, struct citcat_symbols **s);
/* Writes "0xPC" and, when SYMS (may be NULL) knows it, " FUNC+0xOFF
 * (FILE:LINE)" into BUF (N bytes, always terminated); returns BUF.  For the
 * divergence report, capture's fault message and dump. */
const char *cli_describe_pc(struct citcat_symbols *syms, uint64_t pc, char *buf, size_t n);
/* "KIND at 0xPC func+0xOFF (file:line), address 0xADDR" for a fault of
 * KIND at PC (SYMS may be NULL), and for the Cortex-M7's kind 11 "... at
 * ...: HardFault FORCED PRECISERR, BFAR 0x..." from its fault status M7
 * (NULL for a CAT before version 7: the exception alone).  Written into BUF
 * (N bytes); returns BUF.  For info, the listing and the report. */
struct citcat_m7_fault;
const char *cli_describe_fault(struct citcat_symbols *syms, unsigned kind, uint32_t pc, uint32_t addr,
			       const struct citcat_m7_fault *m7, char *buf, size_t n);
/* info --json's fault members, each followed by ", " (LEAD: preceded by
 * it): "fault_function" and "fault_source" when SYMS knows PC, and
 * "m7_fault" (exception, cfsr, hfsr, mmfar, bfar, text) when M7 is not NULL. */
void cli_json_fault(struct citcat_symbols *syms, uint32_t pc, const struct citcat_m7_fault *m7, int lead);
/* info --elf FIRMWARE.elf (cmd_info.c): the ELF to name a fault's function
 * and line by, or NULL. */
const char *cli_info_elf(void);
/* The firmware a version 4 CAT records (capture/CAT.md): printed by info
 * (E may be NULL: nothing), and used for symbols when --elf is not given:
 * *S is the ELF's symbolizer when its build id still matches the recorded
 * one (ELF, N bytes, gets its path), else NULL with a warning on standard
 * error (none when the CAT records no firmware).  Always returns 0. */
struct citcat_cat_elf;
void cli_print_cat_elf(const struct citcat_cat_elf *e, int json);
int cli_symbols_from_cat(const char *cat_path, struct citcat_symbols **s, char *elf, size_t n);
/* The same, for the path alone: ELF (N bytes) gets the recorded firmware
 * when its build id still matches, else "" (with the warning).  Returns 0. */
int cli_recorded_elf(const char *cat_path, char *elf, size_t n);
int cmd_report(int argc, char **argv);
int cmd_gdb(int argc, char **argv); /* cmd_gdb.c */
int bench_gdb(int argc, char **argv); /* bench_gdb.c */
int cmd_profile(int argc, char **argv); /* cmd_profile.c */

/* The modelled target a configuration's isa names (TARGET.md, TARGET-M7.md). */
static inline const char *cli_target_name(uint32_t isa)
{
	return isa == 1 ? "ARMv7-A (A32/Thumb)" : isa == 2 ? "Cortex-M7 (ARMv7-M, Thumb)" : "unknown target";
}
static inline const char *cli_target_id(uint32_t isa) { return isa == 1 ? "armv7-a" : isa == 2 ? "cortex-m7" : "?"; }

#endif
