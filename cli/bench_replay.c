/* citcat bench replay: replay speed against bare Unicorn, and the tracing
 * dilation (thesis section 5.2).  Benchmarks print numbers; they never fail
 * on time. */
#include "cli.h"
#include <citcat/bench.h>

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char bench_replay_help[] =
	"usage: citcat bench replay [FIRMWARE.elf...] [--json]\n\n"
	"For each firmware, in this process: capture it (seed 1) to a temporary\n"
	"directory, extract the IMS and AES, then time the replay writing the full\n"
	"instruction trace (no --verify, no --oracle) against the bare baseline of\n"
	"citcat bench all (plain Unicorn on the recorded path from the trace start).\n"
	"Prints replay and bare Minsn/s and their ratio, and the tracing dilation:\n"
	"the instructions the CITCAT driver adds after the start point P (up to its\n"
	"DUMP_DONE store) as a share of all traced instructions.  The model adds no\n"
	"instructions per interrupt or per cycle-counter read: the trace module\n"
	"records interrupts and device reads itself.  With no files, the built-in\n"
	"examples are used (CITCAT_EXAMPLES_DIR overrides where they are).\n";


struct run {
	uint64_t insns, irqs, dma, counter_reads, driver;
	double replay_s, bare_s;
};

/* Capture, extract and replay one firmware in DIR.  Returns 0, 1 when the
 * firmware never starts tracing (skipped), or an exit code after printing. */
static void discard(void *ctx, uint8_t b) {}

/* Capture, extract and replay one firmware in DIR.  Returns 0, 1 when the
 * firmware never starts tracing (skipped), or an exit code after printing. */
static int bench_one(const char *elf, const char *dir, struct run *out)
{
	static struct citcat_bench_prep bp;
	bp.size = sizeof bp;
	struct citcat_capture_config cfg;
	citcat_capture_config_default(&cfg);
	cfg.engine = CITCAT_CAPTURE_ENGINE_INSN;
	cfg.target.seed = 1;
	cfg.uart_tx = discard;
	struct citcat_errinfo err;
	int rc = citcat_bench_prepare(&cfg, elf, dir, &bp, &err);
	if (rc < 0)
		return cli_errinfo(bp.err_path, &err);
	if (rc)
		return rc;
	rc = EXIT_USAGE;
	struct citcat_replay_config rc_cfg;
	citcat_replay_config_default(&rc_cfg);
	rc_cfg.ims_path = bp.ims;
	rc_cfg.aes_path = bp.aes;
	rc_cfg.out_path = bp.itr;
	struct citcat_bench_replay b = {.size = sizeof b};
	int r = citcat_bench_replay(&rc_cfg, 0, &b, &err);
	struct citcat_replay_result *res = &b.res;
	if (r == CITCAT_ERR_DIVERGED) {
		cli_fail("bench replay: %s: the replay diverged (%s check at instruction %llu); run citcat replay for details",
			 elf, res->div.check, (unsigned long long)res->div.insn_index);
		rc = EXIT_CHECK;
		goto out;
	}
	if (r) {
		cli_errinfo(res->err_path ? res->err_path : elf, &err);
		goto out;
	}
	/* the shared honest baseline (bench/bench_bare.h) */
	struct citcat_bench_bare br = {.size = sizeof br};
	if (citcat_bench_bare_run(CITCAT_BENCH_BARE, bp.ims, bp.aes, bp.itr, &br, &err)) {
		cli_errinfo(bp.ims, &err);
		goto out;
	}
	out->insns = res->insns;
	out->irqs = res->irqs;
	out->dma = res->dma;
	out->counter_reads = bp.aes_stats.records[CITCAT_AES_COUNTER];
	out->replay_s = res->seconds;
	out->bare_s = br.run_s;
	out->driver = citcat_bench_driver_insns(bp.itr, bp.dev_base);
	rc = 0;
out:
	citcat_bench_prep_remove(&bp);
	return rc;
}

static double mips(uint64_t n, double s) { return s > 0 ? (double)n / s / 1e6 : 0.0; }

int bench_replay(int argc, char **argv)
{
	int json = 0, nfiles = 0;
	const char *files[256];
	for (int i = 1; i < argc; i++) {
		if (cli_is_help(argv[i])) {
			fputs(bench_replay_help, stdout);
			return EXIT_OK;
		}
		if (strcmp(argv[i], "--json") == 0)
			json = 1;
		else if (argv[i][0] == '-')
			return cli_usage_error("bench replay", "unknown option '%s'", argv[i]);
		else if (nfiles < 256)
			files[nfiles++] = argv[i];
	}
	if (nfiles == 0) {
		nfiles = cli_default_examples(files, 16, 0);
		if (!nfiles)
			return cli_fail("bench replay: no firmware given and no built examples found (set CITCAT_EXAMPLES_DIR)");
	}
	char dir[] = "/tmp/citcat-bench-replay-XXXXXX";
	if (!mkdtemp(dir))
		return cli_fail("bench replay: cannot create a temporary directory");
	struct run sum = {0};
	int printed = 0, rc = EXIT_OK;
	char ucv[32];
	citcat_bench_unicorn_version(ucv, sizeof ucv);
	if (json)
		printf("{\"benchmark\": \"replay\", \"unicorn\": \"%s\", \"runs\": [", ucv);
	else {
		printf("engine: Unicorn %s (ratios compare only between runs on one Unicorn version)\n", ucv);
		printf("%-14s %12s %8s %8s %7s %8s %10s\n", "firmware", "insns", "replay", "bare", "ratio", "driver",
		       "dilation");
	}
	for (int k = 0; k < nfiles; k++) {
		struct run r = {0};
		const char *name = strrchr(files[k], '/') ? strrchr(files[k], '/') + 1 : files[k];
		int one = bench_one(files[k], dir, &r);
		if (one == 1) {
			fprintf(stderr, "citcat bench replay: %s never starts tracing; skipped\n", name);
			continue;
		}
		if (one) {
			rc = one;
			break;
		}
		double rep = mips(r.insns, r.replay_s), bare = mips(r.insns, r.bare_s);
		double dil = r.insns ? 100.0 * (double)r.driver / (double)r.insns : 0.0;
		if (json)
			printf("%s{\"firmware\": \"%s\", \"instructions\": %llu, \"interrupts\": %llu, \"dma\": %llu, "
			       "\"counter_reads\": %llu, \"replay_minsn_s\": %.2f, \"bare_minsn_s\": %.2f, \"ratio\": %.3f, "
			       "\"driver_insns\": %llu, \"dilation_percent\": %.4f}",
			       printed ? ", " : "", name, (unsigned long long)r.insns, (unsigned long long)r.irqs,
			       (unsigned long long)r.dma, (unsigned long long)r.counter_reads, rep, bare, bare > 0 ? rep / bare : 0.0,
			       (unsigned long long)r.driver, dil);
		else
			printf("%-14s %12llu %8.2f %8.2f %7.3f %8llu %9.4f%%\n", name, (unsigned long long)r.insns, rep, bare,
			       bare > 0 ? rep / bare : 0.0, (unsigned long long)r.driver, dil);
		fflush(stdout);
		printed++;
		sum.insns += r.insns;
		sum.irqs += r.irqs;
		sum.counter_reads += r.counter_reads;
		sum.driver += r.driver;
		sum.replay_s += r.replay_s;
		sum.bare_s += r.bare_s;
	}
	rmdir(dir);
	double rep = mips(sum.insns, sum.replay_s), bare = mips(sum.insns, sum.bare_s);
	double ratio = bare > 0 ? rep / bare : 0.0;
	double dil = sum.insns ? 100.0 * (double)sum.driver / (double)sum.insns : 0.0;
	if (json) {
		printf("], \"total\": {\"instructions\": %llu, \"interrupts\": %llu, \"counter_reads\": %llu, "
		       "\"replay_minsn_s\": %.2f, \"bare_minsn_s\": %.2f, \"ratio\": %.3f, \"driver_insns\": %llu, "
		       "\"dilation_percent\": %.4f, \"per_interrupt_insns\": 0, \"per_counter_read_insns\": 0}, "
		       "\"ratio\": %.3f}\n",
		       (unsigned long long)sum.insns, (unsigned long long)sum.irqs, (unsigned long long)sum.counter_reads, rep,
		       bare, ratio, (unsigned long long)sum.driver, dil, ratio);
	} else {
		printf("%-14s %12llu %8.2f %8.2f %7.3f %8llu %9.4f%%\n", "total", (unsigned long long)sum.insns, rep, bare,
		       ratio, (unsigned long long)sum.driver, dil);
		printf("(Minsn/s of replayed instructions writing the full itrace; ratio = replay / bare Unicorn.\n"
		       " driver = instructions of the CITCAT driver from P to its DUMP_DONE store; dilation = driver / insns.\n"
		       " Per-event tracing cost: 0 instructions for each of the %llu interrupts and %llu cycle-counter reads,\n"
		       " since the trace module records interrupts and device reads itself (the thesis's R4400 needed\n"
		       " 9 per interrupt and 3 per Count read).)\n",
		       (unsigned long long)sum.irqs, (unsigned long long)sum.counter_reads);
	}
	return rc;
}
