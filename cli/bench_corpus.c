/* citcat bench corpus: the capture and replay phases on runs that look like
 * users' (issue 31): short runs where set-up counts, interrupt- and
 * DMA-heavy firmware, Thumb and the Cortex-M7, and the long runs, each
 * phase against the floor of its engine (bare Unicorn with the same empty
 * hooks, the same run) and against the insn engine.  A benchmark: it
 * prints numbers and never passes or fails on them (replay/REPLAY.md
 * "Interrupts, DMA and the block engine"). */
#include "cli.h"
#include <citcat/bench.h>
#include <citcat/io.h>

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char bench_corpus_help[] =
	"usage: citcat bench corpus [NAME...] [--short|--long] [--json]\n\n"
	"Runs the benchmark corpus (default: all of it) from the built examples\n"
	"(CITCAT_EXAMPLES_DIR, default the build's): every short example in ARM and\n"
	"Thumb, irqdma (a fast timer interrupt and a DMA stream restarted from its\n"
	"completion interrupt) on ARM, Thumb and the Cortex-M7, with and without its\n"
	"DMA input running out, and the long runs (matmul_long, sha256_long, and\n"
	"irqdma_big cut at 100 M instructions with its 4 MiB DMA input used up at\n"
	"about a quarter).  Each run is captured with --seed 1 and timed, in this\n"
	"process: capture and capture + oracle with each engine; replay --verify\n"
	"and replay -> itrace with the insn, block and auto engines; and the two\n"
	"floors, bare Unicorn on the recorded path with an empty block hook and\n"
	"memory hook (the block engines' floor) or with an empty code hook and\n"
	"memory hook (the insn engine's).  Each phase prints its seconds (the run\n"
	"loop; set-up apart), Minsn/s, its ratio to the floor of its engine and\n"
	"its ratio to the same phase on the insn engine.  'refused': the block\n"
	"engine does not take the run (the Cortex-M7).\n";

struct corpus_run {
	const char *name, *elf; /* ELF relative to the examples directory */
	int uart;               /* UART input (a few lines of text) */
	uint32_t dma_bytes;     /* DMA input of this many bytes (0: the seeded generator) */
	uint64_t max_insns;
	int is_long;
};

static const struct corpus_run corpus[] = {
	{"crc32", "crc32.elf", 0, 0, 0, 0}, {"crc32_thumb", "crc32_thumb.elf", 0, 0, 0, 0},
	{"sha256", "sha256.elf", 0, 0, 0, 0}, {"sha256_thumb", "sha256_thumb.elf", 0, 0, 0, 0},
	{"qsort", "qsort.elf", 0, 0, 0, 0}, {"qsort_thumb", "qsort_thumb.elf", 0, 0, 0, 0},
	{"matmul", "matmul.elf", 0, 0, 0, 0}, {"matmul_thumb", "matmul_thumb.elf", 0, 0, 0, 0},
	{"strsearch", "strsearch.elf", 0, 0, 0, 0}, {"strsearch_thumb", "strsearch_thumb.elf", 0, 0, 0, 0},
	{"dijkstra", "dijkstra.elf", 0, 0, 0, 0}, {"dijkstra_thumb", "dijkstra_thumb.elf", 0, 0, 0, 0},
	{"sched", "sched.elf", 0, 0, 0, 0}, {"sched_thumb", "sched_thumb.elf", 0, 0, 0, 0},
	{"uartline", "uartline.elf", 1, 0, 0, 0}, {"uartline_thumb", "uartline_thumb.elf", 1, 0, 0, 0},
	{"counter", "counter.elf", 0, 0, 0, 0}, {"counter_thumb", "counter_thumb.elf", 0, 0, 0, 0},
	{"idle", "idle.elf", 0, 0, 0, 0}, {"idle_thumb", "idle_thumb.elf", 0, 0, 0, 0},
	{"sched_m7", "m7/sched_m7.elf", 0, 0, 0, 0}, {"crc32_m7", "m7/crc32_m7.elf", 0, 0, 0, 0},
	{"irqdma", "irqdma.elf", 0, 0, 0, 0}, {"irqdma_thumb", "irqdma_thumb.elf", 0, 0, 0, 0},
	{"irqdma_m7", "m7/irqdma_m7.elf", 0, 0, 0, 0},
	{"irqdma_dmaend", "irqdma.elf", 0, 16384, 0, 0}, {"irqdma_dmaend_thumb", "irqdma_thumb.elf", 0, 16384, 0, 0},
	{"matmul_long", "matmul_long.elf", 0, 0, 0, 1}, {"sha256_long", "sha256_long.elf", 0, 0, 0, 1},
	{"irqdma_100M", "irqdma_big.elf", 0, 4194304, 100000000, 1},
	{"irqdma_100M_thumb", "irqdma_big_thumb.elf", 0, 4194304, 100000000, 1},
	{"irqdma_100M_m7", "m7/irqdma_big_m7.elf", 0, 4194304, 100000000, 1},
};

/* A phase: its run loop's seconds and instructions, set-up apart; FAMILY
 * 0 for the insn engine's floor, 1 for the block engines' (when blocks ran
 * without the code hook: auto may choose the insn engine); REFUSED when
 * the engine does not take the run. */
struct cphase {
	const char *name;
	int family, refused;
	uint64_t insns;
	double run_s, setup_s;
};

static void discard(void *ctx, uint8_t b) {}
static int cap_progress(void *ctx, uint64_t insns) { return cli_interrupted(); }
static int rep_progress(void *ctx, uint64_t insns, uint64_t total) { return cli_interrupted(); }

static int replay_phase(struct cphase *ph, const struct citcat_bench_prep *bp, int verify, int itrace, unsigned engine,
			const char *name)
{
	struct citcat_replay_config c;
	citcat_replay_config_default(&c);
	c.engine = engine;
	c.ims_path = bp->ims;
	c.aes_path = bp->aes;
	c.verify_cat = verify ? bp->cat : NULL;
	c.out_path = itrace ? bp->itr : NULL;
	c.progress = rep_progress;
	struct citcat_bench_replay b = {.size = sizeof b};
	struct citcat_errinfo err;
	int r = citcat_bench_replay(&c, 0, &b, &err);
	const struct citcat_replay_result res = b.res;
	/* the floor of the engine that ran: auto may run the insn engine */
	*ph = (struct cphase){name, res.blk_blocks > 0, 0, res.insns, b.run_s, b.setup_s};
	if (r == CITCAT_ERR_UNSUPPORTED && engine == CITCAT_REPLAY_ENGINE_BLOCK) {
		ph->refused = 1;
		return 0;
	}
	if (r == CITCAT_ERR_DIVERGED)
		return cli_fail("bench: %s: the replay diverged (%s check at instruction %llu)", name, res.div.check,
				(unsigned long long)res.div.insn_index), EXIT_CHECK;
	if (r)
		return cli_errinfo(res.err_path ? res.err_path : name, &err);
	return 0;
}

static int capture_phase(struct cphase *ph, const struct citcat_bench_prep *bp, const struct citcat_capture_config *pcfg,
			 const char *elf, int oracle, unsigned engine, const char *name)
{
	struct citcat_capture_config cfg = *pcfg;
	cfg.engine = engine;
	struct citcat_bench_capture b = {.size = sizeof b};
	struct citcat_errinfo err;
	if (citcat_bench_capture(&cfg, 0, elf, bp->cat, oracle ? bp->orc : NULL, &b, &err))
		return cli_errinfo(elf, &err);
	remove(bp->orc);
	*ph = (struct cphase){name, b.res.blk_blocks > 0, 0, b.res.insns, b.run_s, b.setup_s};
	return 0;
}

/* Writes N bytes of a fixed pseudo-random stream to PATH. */
static int write_input(const char *path, uint32_t n)
{
	struct citcat_outfile *o = NULL;
	if (citcat_outfile_open(&o, path, CITCAT_OUT_PLAIN, NULL))
		return -1;
	uint64_t s = 0x5eedc17ca7ull;
	uint8_t buf[4096];
	for (uint32_t done = 0; done < n;) {
		uint32_t k = n - done < sizeof buf ? n - done : (uint32_t)sizeof buf;
		for (uint32_t i = 0; i < k; i++) {
			s ^= s << 13, s ^= s >> 7, s ^= s << 17;
			buf[i] = (uint8_t)s;
		}
		if (citcat_outfile_write(o, buf, k)) {
			citcat_outfile_abort(o);
			return -1;
		}
		done += k;
	}
	return citcat_outfile_commit(o, NULL);
}

static double mips(uint64_t n, double s) { return s > 0 ? (double)n / s / 1e6 : 0.0; }

static int bench_one(const struct corpus_run *cr, const char *exdir, const char *dir, int json, int printed)
{
	char elf[600], dma[600] = "", uart[600] = "";
	snprintf(elf, sizeof elf, "%s/%s", exdir, cr->elf);
	if (access(elf, R_OK) != 0) {
		fprintf(stderr, "citcat bench: %s: no %s (not built); skipped\n", cr->name, elf);
		return -1;
	}
	static struct citcat_bench_prep bp;
	bp.size = sizeof bp;
	struct citcat_capture_config cfg;
	citcat_capture_config_default(&cfg);
	cfg.engine = CITCAT_CAPTURE_ENGINE_INSN; /* the insn phases first */
	cfg.target.seed = 1;
	cfg.uart_tx = discard;
	cfg.progress = cap_progress;
	cfg.max_insns = cr->max_insns;
	if (cr->dma_bytes) {
		snprintf(dma, sizeof dma, "%s/dma.bin", dir);
		if (write_input(dma, cr->dma_bytes))
			return cli_fail("bench: cannot write %s", dma);
		cfg.dma_in = dma;
	}
	if (cr->uart) {
		static const char text[] = "the quick brown fox\njumps over the lazy dog\nciteable cats trace\n";
		snprintf(uart, sizeof uart, "%s/uart.txt", dir);
		struct citcat_outfile *o = NULL;
		if (citcat_outfile_open(&o, uart, CITCAT_OUT_PLAIN, NULL))
			return cli_fail("bench: cannot write %s", uart);
		if (citcat_outfile_write(o, text, sizeof text - 1)) {
			citcat_outfile_abort(o);
			return cli_fail("bench: cannot write %s", uart);
		}
		if (citcat_outfile_commit(o, NULL))
			return cli_fail("bench: cannot write %s", uart);
		cfg.uart_in = uart;
	}
	struct citcat_errinfo err;
	int rc = citcat_bench_prepare(&cfg, elf, dir, &bp, &err);
	if (rc < 0)
		return cli_errinfo(bp.err_path, &err);
	if (rc)
		return -1;
	struct cphase ph[16];
	int n = 0;
	ph[n++] = (struct cphase){"capture (insn)", 0, 0, bp.cap.res.insns, bp.cap.run_s, bp.cap.setup_s};
	/* the replays first: the captures below overwrite the CAT (the same bytes) */
	if (!rc)
		rc = replay_phase(&ph[n++], &bp, 1, 0, CITCAT_REPLAY_ENGINE_INSN, "replay --verify (insn)");
	if (!rc)
		rc = replay_phase(&ph[n++], &bp, 1, 0, CITCAT_REPLAY_ENGINE_BLOCK, "replay --verify (block)");
	if (!rc)
		rc = replay_phase(&ph[n++], &bp, 1, 0, CITCAT_REPLAY_ENGINE_AUTO, "replay --verify (auto)");
	if (!rc)
		rc = replay_phase(&ph[n++], &bp, 0, 1, CITCAT_REPLAY_ENGINE_INSN, "replay -> itrace (insn)");
	if (!rc)
		rc = replay_phase(&ph[n++], &bp, 0, 1, CITCAT_REPLAY_ENGINE_BLOCK, "replay -> itrace (block)");
	if (!rc)
		rc = replay_phase(&ph[n++], &bp, 0, 1, CITCAT_REPLAY_ENGINE_AUTO, "replay -> itrace (auto)");
	if (!rc)
		rc = capture_phase(&ph[n++], &bp, &cfg, elf, 0, CITCAT_CAPTURE_ENGINE_AUTO, "capture (block)");
	if (!rc)
		rc = capture_phase(&ph[n++], &bp, &cfg, elf, 1, CITCAT_CAPTURE_ENGINE_INSN, "capture + oracle (insn)");
	if (!rc)
		rc = capture_phase(&ph[n++], &bp, &cfg, elf, 1, CITCAT_CAPTURE_ENGINE_AUTO, "capture + oracle (block)");
	struct citcat_bench_bare floor[2] = {{.size = sizeof floor[0]}, {.size = sizeof floor[1]}}, bare = {.size = sizeof bare};
	if (!rc && (citcat_bench_bare_run(CITCAT_BENCH_BARE_HOOKS, bp.ims, bp.aes, bp.itr, &floor[0], &err) ||
		    citcat_bench_bare_run(CITCAT_BENCH_BARE_FLOOR_BLOCK, bp.ims, bp.aes, bp.itr, &floor[1], &err) ||
		    citcat_bench_bare_run(CITCAT_BENCH_BARE, bp.ims, bp.aes, bp.itr, &bare, &err)))
		rc = cli_errinfo(bp.ims, &err);
	citcat_bench_prep_remove(&bp);
	if (dma[0])
		remove(dma);
	if (uart[0])
		remove(uart);
	if (rc)
		return rc;
	double fl[2] = {mips(floor[0].insns, floor[0].run_s), mips(floor[1].insns, floor[1].run_s)};
	/* each phase's insn counterpart: the phase of the same kind, engine insn */
	static const int insn_of[] = {0, 1, 1, 1, 4, 4, 4, 0, 8, 8};
	if (json) {
		printf("%s{\"run\": \"%s\", \"instructions\": %llu, \"traced_instructions\": %llu, \"interrupts\": %llu, "
		       "\"dma\": %llu, \"bare_minsn_s\": %.2f, \"floor_insn_minsn_s\": %.2f, \"floor_block_minsn_s\": %.2f, "
		       "\"phases\": [",
		       printed ? ", " : "", cr->name, (unsigned long long)bp.cap.res.insns, (unsigned long long)bp.cap.res.traced_insns,
		       (unsigned long long)floor[1].irqs, (unsigned long long)floor[1].dma, mips(bare.insns, bare.run_s),
		       fl[0], fl[1]);
		for (int i = 0; i < n; i++) {
			double m = mips(ph[i].insns, ph[i].run_s), mi = mips(ph[insn_of[i]].insns, ph[insn_of[i]].run_s);
			if (ph[i].refused)
				printf("%s{\"phase\": \"%s\", \"refused\": true}", i ? ", " : "", ph[i].name);
			else
				printf("%s{\"phase\": \"%s\", \"seconds\": %.4f, \"setup_seconds\": %.4f, \"minsn_s\": %.2f, "
				       "\"to_floor\": %.3f, \"to_insn\": %.3f}",
				       i ? ", " : "", ph[i].name, ph[i].run_s, ph[i].setup_s, m, fl[ph[i].family] > 0 ? m / fl[ph[i].family] : 0.0,
				       mi > 0 ? m / mi : 0.0);
		}
		printf("]}");
	} else {
		printf("%s: %llu instructions (%llu traced), %llu interrupts, %llu DMA transfers\n", cr->name,
		       (unsigned long long)bp.cap.res.insns, (unsigned long long)bp.cap.res.traced_insns,
		       (unsigned long long)floor[1].irqs, (unsigned long long)floor[1].dma);
		printf("  %-28s %9s %9s %9s %8s %8s\n", "phase", "seconds", "set-up s", "Minsn/s", "/floor", "/insn");
		printf("  %-28s %9.3f %9.3f %9.2f\n", "bare Unicorn", bare.run_s, bare.setup_s, mips(bare.insns, bare.run_s));
		printf("  %-28s %9.3f %9.3f %9.2f %8.3f\n", "floor (code+mem hooks)", floor[0].run_s, floor[0].setup_s, fl[0], 1.0);
		printf("  %-28s %9.3f %9.3f %9.2f %8.3f\n", "floor (block+mem hooks)", floor[1].run_s, floor[1].setup_s, fl[1], 1.0);
		for (int i = 0; i < n; i++) {
			if (ph[i].refused) {
				printf("  %-28s   refused\n", ph[i].name);
				continue;
			}
			double m = mips(ph[i].insns, ph[i].run_s), mi = mips(ph[insn_of[i]].insns, ph[insn_of[i]].run_s);
			printf("  %-28s %9.3f %9.3f %9.2f %8.3f %8.3f\n", ph[i].name, ph[i].run_s, ph[i].setup_s, m,
			       fl[ph[i].family] > 0 ? m / fl[ph[i].family] : 0.0, mi > 0 ? m / mi : 0.0);
		}
	}
	fflush(stdout);
	return 0;
}

int bench_corpus(int argc, char **argv)
{
	int json = 0, which = 0; /* 0 all, 1 short, 2 long */
	const char *names[64];
	int nnames = 0;
	for (int i = 1; i < argc; i++) {
		if (cli_is_help(argv[i])) {
			fputs(bench_corpus_help, stdout);
			return EXIT_OK;
		}
		if (strcmp(argv[i], "--json") == 0)
			json = 1;
		else if (strcmp(argv[i], "--short") == 0)
			which = 1;
		else if (strcmp(argv[i], "--long") == 0)
			which = 2;
		else if (argv[i][0] == '-')
			return cli_usage_error("bench", "unknown option '%s'", argv[i]);
		else if (nnames < 64)
			names[nnames++] = argv[i];
	}
	for (int k = 0; k < nnames; k++) {
		int found = 0;
		for (size_t i = 0; i < sizeof corpus / sizeof *corpus; i++)
			found |= strcmp(corpus[i].name, names[k]) == 0;
		if (!found)
			return cli_usage_error("bench", "no run '%s' in the corpus (citcat bench corpus --help)", names[k]);
	}
	const char *exdir = getenv("CITCAT_EXAMPLES_DIR");
	if (!exdir)
		exdir = CITCAT_DEFAULT_EXAMPLES_DIR;
	char dir[] = "/tmp/citcat-bench-corpus-XXXXXX";
	if (!mkdtemp(dir))
		return cli_fail("bench: cannot create a temporary directory");
	char ucv[32];
	citcat_bench_unicorn_version(ucv, sizeof ucv);
	if (json)
		printf("{\"benchmark\": \"corpus\", \"unicorn\": \"%s\", \"runs\": [", ucv);
	else
		printf("engine: Unicorn %s (ratios compare only between runs on one Unicorn version)\n", ucv);
	int rc = EXIT_OK, printed = 0;
	for (size_t i = 0; i < sizeof corpus / sizeof *corpus && !rc; i++) {
		const struct corpus_run *cr = &corpus[i];
		int want = nnames == 0 && (which == 0 || (which == 1) != cr->is_long);
		for (int k = 0; k < nnames; k++)
			want |= strcmp(cr->name, names[k]) == 0;
		if (!want)
			continue;
		int one = bench_one(cr, exdir, dir, json, printed);
		if (one > 0)
			rc = one;
		else if (one == 0)
			printed++;
	}
	rmdir(dir);
	if (json)
		printf("]}\n");
	else
		printf("(/floor: Minsn/s over the floor of the phase's engine, bare Unicorn with the same empty hooks on the\n"
		       " recorded path; /insn: over the same phase on the insn engine; seconds: the run loop, set-up apart)\n");
	return rc;
}
