/* citcat capture, info for CATs, and bench capture. */
#include "cli.h"
#include "formats_cli.h"
#include <citcat/io.h>
#include <citcat/capture.h>
#include <citcat/symbols.h>

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char capture_help[] =
	"usage: citcat capture FIRMWARE.elf -o RUN.cat [options]\n\n"
	"Runs firmware on the modelled target (capture/TARGET.md) and records the\n"
	"cache-filtered address trace the trace module sees on the bus.\n"
	"  -o FILE               CAT output ('-' for standard output)\n"
	"  --oracle FILE         also write the true full instruction trace (itrace)\n"
	"  --lvt FILE            also write the first-access load-value trace (formats/LVT.md;\n"
	"                        -o may then be left out)\n"
	"  --lvt-gran byte|word  first-access flag granule (default byte)\n"
	"  --daf FILE            also write the data-address filtering trace (DAFDiff;\n"
	"                        --daf-raw: raw addresses), formats/DAF.md\n"
	"  --icache S:W:L[:P]    I-cache size, ways, line bytes, policy lru|fifo|plru|random\n"
	"                        (default 16K:4:32:lru)\n"
	"  --dcache S:W:L[:P]    D-cache, same form (default 16K:4:32:lru)\n"
	"  --dcache-write wb|wt  write-back + write-allocate (default) or write-through\n"
	"  --penalty miss=N,wb=N,uncached=N   cycle penalties (default 20,20,10)\n"
	"  --ram SIZE            RAM size (default 16M)\n"
	"  --target T            armv7-a (capture/TARGET.md) or cortex-m7 (capture/TARGET-M7.md);\n"
	"                        default: the profile in the ELF's ARM attributes (M: cortex-m7)\n"
	"  --uart-in FILE        UART receive input     --uart-out FILE  transmit output\n"
	"                        (default: standard output, or standard error with -o -)\n"
	"  --uart-rate N         cycles per received byte (default 2000)\n"
	"  --dma-in FILE         DMA input stream (default: generator seeded by --seed)\n"
	"  --dma-burst N         DMA bytes per step (default 8)   --dma-interval N  cycles per step (4)\n"
	"  --entropy-in FILE     RANDOM register input (default: seeded generator)\n"
	"  --seed N              device-input seed (default: from the clock, printed)\n"
	"  --max-insns N         stop after N instructions (suffixes K, M, G: 100M)\n"
	"  --checkpoint-every N  a segment checkpoint every N instructions (at least 1000;\n"
	"                        capture/TARGET.md, Checkpoints)\n"
	"  --engine E            insn (a code hook on every instruction), block (A32 blocks\n"
	"                        without one where nothing can be due in them; refuses M7,\n"
	"                        LVT, DAF and checkpointed runs) or auto (default: block\n"
	"                        where it takes the run and blocks are seen to pay); the\n"
	"                        outputs are the same\n"
	"  --exit-status         exit with the firmware's exit value (modulo 256) when it\n"
	"                        ends by EXIT\n"
	"  --timestamps          record a bus-cycle timestamp with every event\n"
	"  --clock-hz N          nominal clock the firmware reads (citcat_clock_hz(); default\n"
	"                        100M): cycles / N = seconds, for CoreMark, Embench\n"
	"  -q, --quiet           no seed line and no summary on standard error\n"
	"Numbers are decimal, or hexadecimal after 0x; sizes take K, M or G.\n"
	"Exit status: 0 when the run ended by EXIT (any exit value, unless --exit-status),\n"
	"trace STOP or --max-insns; 3 when the target stopped abnormally: a fault (bus\n"
	"error, undefined instruction, SVC, abort), a WFI nothing can wake, or SIGINT/\n"
	"SIGTERM/SIGHUP; the outputs are then complete and valid up to that point, and\n"
	"the CAT's STOP names the reason (formats/CAT.md); 2 on a usage, input or target\n"
	"error (no output is left).\n";

/* Splits S at each SEP into at most MAX non-empty fields of BUF (a copy);
 * returns the number of fields, or -1 when S is too long, a field is empty
 * or there are more than MAX. */
static int split_fields(const char *s, char sep, char *buf, size_t bufsz, char **fields, int max)
{
	if (strlen(s) >= bufsz)
		return -1;
	strcpy(buf, s);
	int n = 0;
	for (char *p = buf;;) {
		char *e = strchr(p, sep);
		if (e)
			*e = 0;
		if (!*p || n == max)
			return -1;
		fields[n++] = p;
		if (!e)
			return n;
		p = e + 1;
	}
}

static int parse_cache(const char *s, struct citcat_cache_config *c)
{
	char buf[64], *parts[4] = {0};
	int n = split_fields(s, ':', buf, sizeof buf, parts, 4);
	uint64_t size, ways, line;
	if (n < 3 || cli_parse_size(parts[0], &size) || cli_parse_u64(parts[1], &ways) || cli_parse_size(parts[2], &line) ||
	    size > (64u << 20) || ways > 64 || line > 256)
		return -1;
	c->size = (uint32_t)size;
	c->ways = (uint32_t)ways;
	c->line = (uint32_t)line;
	if (n == 4) {
		static const char *const names[] = {"lru", "fifo", "plru", "random"};
		int found = -1;
		for (int i = 0; i < 4; i++)
			if (strcmp(parts[3], names[i]) == 0)
				found = i;
		if (found < 0)
			return -1;
		c->repl = (uint8_t)found;
	}
	const char *why;
	return citcat_cache_config_check(c, &why) ? -1 : 0;
}

/* UART output to a stream; the progress line (standard error, a terminal)
 * is cleared first so the two never share a line. */
struct uart_stream {
	FILE *f;
	struct cli_progress *pr;
	int mid_line; /* the last UART byte was not a newline: no progress line now */
};
static void uart_to_file(void *ctx, uint8_t b)
{
	struct uart_stream *u = ctx;
	if (u->pr->shown) {
		fflush(u->f);
		cli_progress_clear(u->pr);
	}
	fputc(b, u->f);
	u->mid_line = b != '\n';
	if (b == '\n' && u->pr->enabled)
		fflush(u->f); /* whole lines reach the terminal before the next progress line */
}
/* --uart-out goes through an outfile like every output: a regular file
 * appears only when the capture succeeds, and nothing that existed before
 * is ever removed.  Write errors are sticky and reported at commit. */
static void uart_to_outfile(void *ctx, uint8_t b) { citcat_outfile_write(ctx, &b, 1); }

/* The message for an abnormal end, in one place so that the fault PC can be
 * named by symbol (function+offset (file:line)) when the ELF has them. */
static void abnormal_end_message(char *buf, size_t n, const char *elf, const struct citcat_capture_result *res)
{
	/* the PC as "0xPC function+0xOFF (file:line)" when the ELF has symbols
	 * and debug info (common/symbols.h); plain "0xPC" otherwise */
	struct citcat_symbols *syms = NULL;
	if (citcat_symbols_open(&syms, elf, NULL))
		syms = NULL;
	char pc[256];
	if (res->stop == CITCAT_STOP_FAULT && res->has_m7_fault) {
		/* the Cortex-M7's fault status registers name what faulted */
		char status[200];
		citcat_m7_fault_describe(&res->m7_fault, status, sizeof status);
		snprintf(buf, n, "fault at %s: %s, after %llu instructions%s%s",
			 cli_describe_pc(syms, res->fault_pc, pc, sizeof pc), status, (unsigned long long)res->insns,
			 res->stop_detail[0] ? ": " : "", res->stop_detail);
	} else if (res->stop == CITCAT_STOP_FAULT)
		snprintf(buf, n, "fault at %s: %s, address 0x%08x, after %llu instructions%s%s",
			 cli_describe_pc(syms, res->fault_pc, pc, sizeof pc), citcat_fault_kind_name(res->fault_kind),
			 res->fault_addr, (unsigned long long)res->insns, res->stop_detail[0] ? ": " : "",
			 res->stop_detail); /* the M7 names the exception and the fault there */
	else if (res->stop == CITCAT_STOP_WFI_DEADLOCK)
		snprintf(buf, n, "WFI at %s can never wake: no enabled interrupt line has a source that can raise it "
			 "(%s), after %llu instructions", cli_describe_pc(syms, res->stop_pc, pc, sizeof pc), res->stop_detail,
			 (unsigned long long)res->insns);
	else
		snprintf(buf, n, "interrupted after %llu instructions, at %s", (unsigned long long)res->insns,
			 cli_describe_pc(syms, res->stop_pc, pc, sizeof pc));
	citcat_symbols_close(syms);
}

static int progress_cb(void *ctx, uint64_t insns)
{
	const struct uart_stream *u = ctx;
	if (!u->mid_line)
		cli_progress_update(u->pr, insns, 0, "insn");
	return cli_interrupted();
}

/* The target: --target, or else the profile the ELF says it was built for
 * (TARGET-M7.md, Capture); the capture refuses a mismatch either way. */
static void target_from_elf(struct citcat_capture_config *c, const char *elf)
{
	if (c->target.isa & 0x100)
		c->target.isa &= 0xff;
	else if (elf && citcat_elf_arm_profile(elf) == 'M')
		c->target.isa = CITCAT_TARGET_CORTEX_M7;
}

/* Options shared by capture and bench capture. */
static int parse_target_opt(int argc, char **argv, int *i, struct citcat_capture_config *c, int *seed_given)
{
	const char *a = argv[*i];
	const char *v = *i + 1 < argc ? argv[*i + 1] : NULL;
	uint64_t n;
#define NEED_VAL                                                                \
	do {                                                                    \
		if (!v)                                                         \
			return cli_usage_error("capture", "option %s needs a value", a); \
		(*i)++;                                                         \
	} while (0)
	if (strcmp(a, "--icache") == 0 || strcmp(a, "--dcache") == 0) {
		NEED_VAL;
		if (parse_cache(v, a[2] == 'i' ? &c->target.icache : &c->target.dcache))
			return cli_usage_error("capture", "bad cache geometry '%s' (want SIZE:WAYS:LINE[:lru|fifo|plru|random], power-of-two sets)", v);
	} else if (strcmp(a, "--dcache-write") == 0) {
		NEED_VAL;
		if (strcmp(v, "wb") && strcmp(v, "wt"))
			return cli_usage_error("capture", "--dcache-write takes wb or wt");
		c->target.dcache.write_through = strcmp(v, "wt") == 0;
	} else if (strcmp(a, "--penalty") == 0) {
		NEED_VAL;
		char buf[128], *items[3];
		int nitems = split_fields(v, ',', buf, sizeof buf, items, 3);
		if (nitems < 0)
			return cli_usage_error("capture", "bad --penalty '%s' (want up to three of miss=N,wb=N,uncached=N)", v);
		for (int k = 0; k < nitems; k++) {
			char *tok = items[k];
			char *eq = strchr(tok, '=');
			if (!eq || cli_parse_u64(eq + 1, &n) || n > 100000)
				return cli_usage_error("capture", "bad --penalty item '%s'", tok);
			*eq = 0;
			if (strcmp(tok, "miss") == 0)
				c->target.pen_miss = (uint32_t)n;
			else if (strcmp(tok, "wb") == 0)
				c->target.pen_wb = (uint32_t)n;
			else if (strcmp(tok, "uncached") == 0)
				c->target.pen_uncached = (uint32_t)n;
			else
				return cli_usage_error("capture", "unknown penalty '%s'", tok);
		}
	} else if (strcmp(a, "--ram") == 0) {
		NEED_VAL;
		if (cli_parse_size(v, &n) || n < 65536 || n > (1u << 30) || (n & 4095))
			return cli_usage_error("capture", "bad RAM size '%s' (64K..1G, a multiple of 4K)", v);
		c->target.ram_size = (uint32_t)n;
	} else if (strcmp(a, "--uart-in") == 0) {
		NEED_VAL;
		c->uart_in = v;
	} else if (strcmp(a, "--dma-in") == 0) {
		NEED_VAL;
		c->dma_in = v;
	} else if (strcmp(a, "--entropy-in") == 0) {
		NEED_VAL;
		c->entropy_in = v;
	} else if (strcmp(a, "--uart-rate") == 0 || strcmp(a, "--dma-burst") == 0 || strcmp(a, "--dma-interval") == 0) {
		NEED_VAL;
		if (cli_parse_u64(v, &n) || n == 0 || n > 1000000 || (a[2] == 'd' && a[6] == 'b' && (n > 256)))
			return cli_usage_error("capture", "bad value '%s' for %s", v, a);
		if (a[2] == 'u')
			c->target.uart_rate = (uint32_t)n;
		else if (a[6] == 'b')
			c->target.dma_burst = (uint32_t)n;
		else
			c->target.dma_interval = (uint32_t)n;
	} else if (strcmp(a, "--seed") == 0) {
		NEED_VAL;
		if (cli_parse_u64(v, &c->target.seed))
			return cli_usage_error("capture", "bad seed '%s'", v);
		*seed_given = 1;
	} else if (strcmp(a, "--max-insns") == 0) {
		NEED_VAL;
		if (cli_parse_count(v, &c->max_insns) || c->max_insns == 0)
			return cli_usage_error("capture", "bad instruction count '%s'", v);
	} else if (strcmp(a, "--checkpoint-every") == 0) {
		NEED_VAL;
		if (cli_parse_count(v, &c->checkpoint_every) || c->checkpoint_every < CITCAT_CHECKPOINT_MIN)
			return cli_usage_error("capture", "bad checkpoint interval '%s' (at least %u instructions)", v,
					       CITCAT_CHECKPOINT_MIN);
	} else if (strcmp(a, "--engine") == 0) {
		NEED_VAL;
		if (strcmp(v, "insn") == 0)
			c->engine = CITCAT_CAPTURE_ENGINE_INSN;
		else if (strcmp(v, "block") == 0)
			c->engine = CITCAT_CAPTURE_ENGINE_BLOCK;
		else if (strcmp(v, "auto") == 0)
			c->engine = CITCAT_CAPTURE_ENGINE_AUTO;
		else
			return cli_usage_error("capture", "bad engine '%s' (insn, block or auto)", v);
	} else if (strcmp(a, "--clock-hz") == 0) {
		NEED_VAL;
		if (cli_parse_count(v, &n) || n == 0 || n > UINT32_MAX)
			return cli_usage_error("capture", "bad clock '%s' (1 .. 4294967295 Hz; suffixes K, M, G)", v);
		c->clock_hz = (uint32_t)n;
	} else if (strcmp(a, "--timestamps") == 0) {
		c->target.timestamps = 1;
	} else if (strcmp(a, "--target") == 0) {
		NEED_VAL;
		if (strcmp(v, "armv7-a") == 0)
			c->target.isa = CITCAT_TARGET_ARMV7A;
		else if (strcmp(v, "cortex-m7") == 0)
			c->target.isa = CITCAT_TARGET_CORTEX_M7;
		else
			return cli_usage_error("capture", "unknown target '%s' (armv7-a or cortex-m7)", v);
		c->target.isa |= 0x100; /* given: not taken from the ELF (cleared in target_from_elf) */
	} else {
		return -1; /* not a target option */
	}
	return 0;
#undef NEED_VAL
}

int cmd_capture(int argc, char **argv)
{
	struct citcat_capture_config c;
	citcat_capture_config_default(&c);
	const char *elf = NULL, *out = NULL, *oracle = NULL, *uart_out = NULL;
	int seed_given = 0, quiet = 0, exit_status = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (cli_is_help(a)) {
			fputs(capture_help, stdout);
			return EXIT_OK;
		}
		int r = parse_target_opt(argc, argv, &i, &c, &seed_given);
		if (r > 0)
			return r;
		if (r == 0)
			continue;
		if (strcmp(a, "-o") == 0 && i + 1 < argc)
			out = argv[++i];
		else if (strcmp(a, "--oracle") == 0 && i + 1 < argc)
			oracle = argv[++i];
		else if (strcmp(a, "--lvt") == 0 && i + 1 < argc)
			c.lvt_path = argv[++i];
		else if (strcmp(a, "--lvt-gran") == 0 && i + 1 < argc) {
			if (strcmp(argv[i + 1], "byte") && strcmp(argv[i + 1], "word"))
				return cli_usage_error("capture", "--lvt-gran takes byte or word");
			c.lvt_gran_shift = strcmp(argv[++i], "word") == 0 ? 2 : 0;
		} else if (strcmp(a, "--daf") == 0 && i + 1 < argc)
			c.daf_path = argv[++i];
		else if (strcmp(a, "--daf-raw") == 0)
			c.daf_raw = 1;
		else if (strcmp(a, "--uart-out") == 0 && i + 1 < argc)
			uart_out = argv[++i];
		else if (strcmp(a, "-q") == 0 || strcmp(a, "--quiet") == 0)
			quiet = 1;
		else if (strcmp(a, "--exit-status") == 0)
			exit_status = 1;
		else if (a[0] == '-' && a[1])
			return cli_usage_error("capture", "unknown or incomplete option '%s'", a);
		else if (!elf)
			elf = a;
		else
			return cli_usage_error("capture", "unexpected argument '%s'", a);
	}
	if (!elf || (!out && !c.lvt_path))
		return cli_usage_error("capture", "need FIRMWARE.elf and -o RUN.cat (or --lvt RUN.lvt)");
	target_from_elf(&c, elf);
	if (oracle && strcmp(oracle, "-") == 0 && strcmp(out, "-") == 0)
		return cli_usage_error("capture", "the CAT and the oracle cannot both go to standard output");
	if (!seed_given) {
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		c.target.seed = (uint64_t)ts.tv_sec * 1000003u ^ (uint64_t)ts.tv_nsec;
		if (!quiet)
			fprintf(stderr, "citcat capture: seed %llu\n", (unsigned long long)c.target.seed);
	}
	const char *ins[] = {elf, c.uart_in, c.dma_in, c.entropy_in}, *outs[] = {out, oracle, uart_out, c.lvt_path, c.daf_path};
	if (cli_check_distinct(ins, 4, outs, 5))
		return EXIT_USAGE;
	FILE *uf = (out && strcmp(out, "-") == 0) || (c.lvt_path && strcmp(c.lvt_path, "-") == 0) ||
			   (oracle && strcmp(oracle, "-") == 0)
		   ? stderr
		   : stdout;
	struct citcat_outfile *uo = NULL;
	struct citcat_errinfo err;
	citcat_outfile_commit_on_stop(1); /* interrupted, the outputs are valid up to there (exit status 3) */
	if (uart_out && citcat_outfile_open(&uo, uart_out, 0, &err))
		return cli_errinfo(uart_out, &err);
	struct cli_progress pr;
	cli_progress_init(&pr, "capture");
	struct uart_stream us = {uf, &pr, 0};
	c.uart_tx = uo ? uart_to_outfile : uart_to_file;
	c.uart_ctx = uo ? (void *)uo : (void *)&us;
	c.progress = progress_cb;
	c.progress_ctx = &us;
	struct citcat_capture_result res;
	int rc = citcat_capture_run(&c, elf, out, oracle, &res, &err);
	cli_progress_done(&pr);
	fflush(uf);
	if (rc) {
		citcat_outfile_abort(uo);
		return cli_errinfo(elf, &err);
	}
	if (uo && citcat_outfile_commit(uo, &err))
		return cli_errinfo(uart_out, &err);
	if (!res.traced)
		fprintf(stderr, "citcat capture: warning: the firmware never reached a trace start point "
				"(no CITCAT driver call); the CAT holds no traced interval\n");
	if (res.blk_blocks && getenv("CITCAT_VERBOSE")) /* the engine's internals: not for normal output */
		fprintf(stderr, "citcat capture: block engine: %llu blocks without the code hook; %s at the stop\n",
			(unsigned long long)res.blk_blocks, res.blk_free_at_stop ? "taking blocks" : "backed off");
	if (!quiet) {
		static const char *const why[] = {"exit", "trace stop", "instruction limit", "fault", "WFI deadlock",
						  "interrupt"};
		fprintf(stderr,
			"citcat capture: %s after %llu instructions (%llu traced), %llu cycles, exit value %d; "
			"%llu CAT bytes (%.3f per traced instruction) in %.2f s\n",
			why[res.stop], (unsigned long long)res.insns, (unsigned long long)res.traced_insns,
			(unsigned long long)res.cycles, res.exit_code, (unsigned long long)res.cat_bytes,
			res.traced_insns ? (double)res.cat_bytes / (double)res.traced_insns : 0.0, res.seconds);
		if (c.lvt_path)
			fprintf(stderr, "citcat capture: LVT %llu bytes; %llu loads, first-access hit rate %.4f (of cached loads), %.3f bits/instruction\n",
				(unsigned long long)res.lvt_bytes, (unsigned long long)res.lvt.loads,
				res.lvt.loads > res.lvt.ureads ? (double)res.lvt.hits / (double)(res.lvt.loads - res.lvt.ureads) : 0.0,
				res.traced_insns ? (double)res.lvt.bits / (double)res.traced_insns : 0.0);
	}
	if (res.stop >= CITCAT_STOP_FAULT) {
		char msg[768];
		abnormal_end_message(msg, sizeof msg, elf, &res);
		fprintf(stderr, "citcat capture: %s; the trace is valid up to there (exit status 3)\n", msg);
		return EXIT_ABNORMAL;
	}
	if (exit_status && res.stop == CITCAT_STOP_EXIT)
		return res.exit_code & 255;
	return EXIT_OK;
}

/* ---- info ---- */

static const char *const repl_names[] = {"lru", "fifo", "plru", "random"};

struct cat_info_progress {
	struct cli_progress pr;
	unsigned calls;
};

static int cat_info_progress(void *ctx, uint64_t done, uint64_t total)
{
	struct cat_info_progress *p = ctx;
	if ((++p->calls & 3) == 0) /* every 65,536 events */
		cli_progress_update(&p->pr, done, total, "B");
	return cli_interrupted();
}

int cat_info(const char *path, int json)
{
	struct citcat_cat_reader *r;
	int rc = citcat_cat_reader_open(&r, path);
	if (rc) {
		cli_errinfo(path, citcat_cat_reader_error(r));
		citcat_cat_reader_close(r);
		return EXIT_USAGE;
	}
	const struct citcat_target_config *c = citcat_cat_config(r);
	struct citcat_cat_info f = {.size = sizeof f};
	struct cat_info_progress cp = {.calls = 0};
	cli_progress_init(&cp.pr, "reading");
	rc = citcat_cat_reader_info(r, &f, cat_info_progress, &cp);
	cli_progress_done(&cp.pr);
	if (rc == CITCAT_ERR_INTERRUPTED) {
		citcat_cat_reader_close(r);
		return cli_fail("info: interrupted");
	}
	if (rc < 0) {
		cli_errinfo(path, citcat_cat_reader_error(r));
		citcat_cat_reader_close(r);
		return EXIT_USAGE;
	}
	/* n: every event; pre: those recorded before the trace start point P
	 * (the SYNC marker), from the driver between TRC1 and P */
	const uint64_t *n = f.events, *pre = f.before_start;
	int version = (int)f.version, stop = f.stop, have_exit = f.has_exit_value;
	uint64_t insns = f.insns, branches = f.branches, cycles = f.cycles, dma_bytes = f.dma_bytes;
	uint32_t sync_pc = f.sync_pc, repl[2] = {f.repl_state[0], f.repl_state[1]};
	int32_t exit_value = f.exit_value;
	uint32_t fault_kind = f.fault_kind, fault_pc = f.fault_pc, fault_addr = f.fault_addr;
	const struct citcat_m7_fault *m7f = f.has_m7_fault ? &f.m7_fault : NULL;
	uint64_t size = f.file_bytes;
	/* an abnormal end is named by function and line: with info --elf, or
	 * from the firmware the CAT records (as dump does) */
	struct citcat_symbols *syms = NULL;
	if (cli_info_elf()) {
		if (cli_open_symbols(cli_info_elf(), &syms)) {
			citcat_cat_reader_close(r);
			return EXIT_USAGE;
		}
	} else if (stop >= CITCAT_STOP_FAULT) {
		cli_symbols_from_cat(path, &syms, NULL, 0);
	}
	if (json) {
		printf("{\"kind\": \"cat\", \"version\": %d, \"target\": \"%s\", \"events\": {", version,
		       cli_target_id(citcat_cat_config(r)->isa));
		for (int k = 1; k < CITCAT_CAT_KINDS; k++)
			if (citcat_cat_kind_name((unsigned)k)[0] != '?') /* a reserved kind */
				printf("%s\"%s\": %llu", k > 1 ? ", " : "", citcat_cat_kind_name((unsigned)k),
				       (unsigned long long)n[k]);
		for (int part = 0; part < 2; part++) {
			printf("}, \"events_%s\": {", part ? "traced" : "before_start");
			for (int k = 1; k < CITCAT_CAT_KINDS; k++)
				if (citcat_cat_kind_name((unsigned)k)[0] != '?')
					printf("%s\"%s\": %llu", k > 1 ? ", " : "", citcat_cat_kind_name((unsigned)k),
					       (unsigned long long)(part ? n[k] - pre[k] : pre[k]));
		}
		printf("}, \"instructions\": %llu, \"branches\": %llu, \"cycles\": %llu, \"dma_bytes\": %llu, "
		       "\"file_bytes\": %llu, \"bytes_per_instruction\": %.4f, \"trace_start_pc\": %u, "
		       "\"replacement_state\": [%u, %u], \"stop\": \"%s\", ",
		       (unsigned long long)insns, (unsigned long long)branches, (unsigned long long)cycles,
		       (unsigned long long)dma_bytes, (unsigned long long)size, insns ? (double)size / (double)insns : 0.0,
		       sync_pc, repl[0], repl[1], stop < 0 ? "none" : citcat_stop_reason_name((unsigned)stop));
		if (have_exit)
			printf("\"exit_value\": %d, ", (int)exit_value);
		else
			printf("\"exit_value\": null, ");
		if (stop == CITCAT_STOP_FAULT) {
			printf("\"fault\": \"%s\", \"fault_pc\": %u, \"fault_addr\": %u, ", citcat_fault_kind_name(fault_kind),
			       fault_pc, fault_addr);
			cli_json_fault(syms, fault_pc, m7f, 0);
		}
		cli_print_cat_elf(citcat_cat_elf(r), 1);
		printf("\"config\": {\"ram_base\": %u, \"ram_size\": %u, \"icache\": \"%u:%u:%u:%s\", "
		       "\"dcache\": \"%u:%u:%u:%s\", \"dcache_write\": \"%s\", \"penalty\": {\"miss\": %u, \"wb\": %u, "
		       "\"uncached\": %u}, \"timestamps\": %s, \"seed\": %llu}}\n",
		       c->ram_base, c->ram_size, c->icache.size, c->icache.ways, c->icache.line, repl_names[c->icache.repl],
		       c->dcache.size, c->dcache.ways, c->dcache.line, repl_names[c->dcache.repl],
		       c->dcache.write_through ? "wt" : "wb", c->pen_miss, c->pen_wb, c->pen_uncached,
		       c->timestamps ? "true" : "false", (unsigned long long)c->seed);
	} else {
		printf("%s: cache-filtered address trace (CAT v%d), %s\n", path, version,
		       cli_target_name(citcat_cat_config(r)->isa));
		printf("  RAM        0x%08x + %u bytes; devices at 0x%08x\n", c->ram_base, c->ram_size, c->dev_base);
		printf("  I-cache    %u bytes, %u-way, %u-byte lines, %s\n", c->icache.size, c->icache.ways, c->icache.line,
		       repl_names[c->icache.repl]);
		printf("  D-cache    %u bytes, %u-way, %u-byte lines, %s, %s\n", c->dcache.size, c->dcache.ways,
		       c->dcache.line, repl_names[c->dcache.repl], c->dcache.write_through ? "write-through" : "write-back");
		printf("  penalties  miss %u, write-back %u, uncached %u cycles; timestamps %s; seed %llu\n", c->pen_miss,
		       c->pen_wb, c->pen_uncached, c->timestamps ? "yes" : "no", (unsigned long long)c->seed);
		printf("  trace      start at 0x%08x, %llu instructions, %llu branches, %llu cycles, stopped by %s\n",
		       sync_pc, (unsigned long long)insns, (unsigned long long)branches, (unsigned long long)cycles,
		       stop < 0 ? "(no stop)" : citcat_stop_reason_name((unsigned)stop));
		if (have_exit)
			printf("  exit value %d\n", (int)exit_value);
		char text[512];
		if (stop == CITCAT_STOP_FAULT)
			printf("  fault      %s\n", cli_describe_fault(syms, fault_kind, fault_pc, fault_addr, m7f, text,
								 sizeof text));
		cli_print_cat_elf(citcat_cat_elf(r), 0);
		if (c->icache.repl == CITCAT_REPL_RANDOM || c->dcache.repl == CITCAT_REPL_RANDOM)
			printf("  random     replacement state at P: I-cache 0x%08x, D-cache 0x%08x\n", repl[0], repl[1]);
		printf("  events            total  before start    traced\n");
		for (int k = 1; k < CITCAT_CAT_KINDS; k++)
			if (citcat_cat_kind_name((unsigned)k)[0] != '?')
				printf("    %-15s %11llu %13llu %9llu\n", citcat_cat_kind_name((unsigned)k), (unsigned long long)n[k],
				       (unsigned long long)pre[k], (unsigned long long)(n[k] - pre[k]));
		printf("  file       %llu bytes, %.3f per instruction\n", (unsigned long long)size,
		       insns ? (double)size / (double)insns : 0.0);
	}
	citcat_symbols_close(syms);
	citcat_cat_reader_close(r);
	return EXIT_OK;
}
