/* citcat bench all / bench capture: every phase of the tool chain timed
 * against one honest bare-Unicorn baseline (bench/bench_bare.h, <citcat/bench.h>; issue 14
 * part 1).  Benchmarks print numbers; they never pass or fail on time. */
#include "cli.h"
#include <citcat/bench.h>

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char bench_all_help[] =
	"usage: citcat bench all|capture [FIRMWARE.elf...] [--json] [--formats LIST]\n\n"
	"For each firmware (default: the long examples matmul_long and sha256_long; the\n"
	"target from the ELF, as capture chooses it), in\n"
	"this process and in this order: capture to a CAT; capture with the oracle\n"
	"itrace (also with files written inline, '1 thread', and with --engine auto,\n"
	"'(block)'); extract the IMS; extract the AES; replay with --verify against the\n"
	"CAT (no output); replay writing the itrace; the bare baseline; and (bench all)\n"
	"convert the itrace to each format of LIST (default\n"
	"din,xdin,pdats,pdats2,sdclsp; champsim and text, at about 1 Minsn/s, on\n"
	"request; output discarded).\n"
	"The bare baseline is plain Unicorn with no hooks running the traced interval\n"
	"from the IMS start state, device reads fed from the AES, interrupts and DMA\n"
	"applied at their recorded instruction, each executed WFI a NOP: the recorded\n"
	"path, checked at every interrupt (and, by an untimed second engine, at every\n"
	"instruction; on the Cortex-M7 the exception model does entries, svc and\n"
	"returns: capture/TARGET-M7.md).  Only uc_emu_start is timed there; for\n"
	"capture and replay the run loop is timed and set-up is on its own line.\n"
	"'bare + empty hooks' is that baseline with an empty code hook on every\n"
	"instruction and an empty memory hook on every RAM access: the ceiling of\n"
	"any model built on per-instruction hooks.  'bare + empty block+mem hooks'\n"
	"has an empty block hook and the memory hook only, and 'bare + empty mem hook'\n"
	"the memory hook alone: the floor of any model that sees every data access\n"
	"(the block engines).\n"
	"Figures: seconds, Minsn/s (instructions of that phase: capture counts the\n"
	"boot before the trace start too) and the ratio to the bare Minsn/s.\n"
	"Files are compressed and written on a second thread (common/container.c);\n"
	"the phases marked '1 thread' do that inline, for comparison.\n"
	"bench capture prints the capture and extraction phases only.\n";

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

struct phase {
	char name[40];
	uint64_t insns;
	double run_s, setup_s;
};

struct fw {
	uint64_t insns, traced;
	struct citcat_bench_bare bare;
	struct phase ph[32];
	int n;
};

static void discard(void *ctx, uint8_t b) {}
static int cap_progress(void *ctx, uint64_t insns) { return cli_interrupted(); }

static int rep_progress(void *ctx, uint64_t insns, uint64_t total) { return cli_interrupted(); }

static struct phase *add(struct fw *f, const char *name, uint64_t insns, double run, double setup)
{
	struct phase *p = &f->ph[f->n++];
	snprintf(p->name, sizeof p->name, "%s", name);
	p->insns = insns;
	p->run_s = run;
	p->setup_s = setup;
	return p;
}

static int replay_phase_engine(struct fw *f, const char *name, const char *ims, const char *aes, const char *cat,
			       const char *out, const char *elf, unsigned engine, unsigned flags)
{
	struct citcat_replay_config c;
	citcat_replay_config_default(&c);
	c.engine = engine;
	c.ims_path = ims;
	c.aes_path = aes;
	c.verify_cat = cat;
	c.out_path = out;
	c.progress = rep_progress;
	struct citcat_bench_replay b = {.size = sizeof b};
	struct citcat_errinfo err;
	int r = citcat_bench_replay(&c, flags, &b, &err);
	if (r == CITCAT_ERR_DIVERGED)
		return cli_fail("bench: %s: the replay diverged (%s check at instruction %llu)", elf, b.res.div.check,
				(unsigned long long)b.res.div.insn_index), EXIT_CHECK;
	if (r)
		return cli_errinfo(b.res.err_path ? b.res.err_path : elf, &err);
	add(f, name, b.res.insns, b.run_s, b.setup_s);
	return 0;
}

static int replay_phase(struct fw *f, const char *name, const char *ims, const char *aes, const char *cat,
			const char *out, const char *elf)
{
	return replay_phase_engine(f, name, ims, aes, cat, out, elf, CITCAT_REPLAY_ENGINE_INSN, 0);
}

/* Converts ITR to FMT, writing to /dev/null through standard output. */
static int convert_phase(struct fw *f, const char *itr, const char *fmt)
{
	char *argv[] = {"convert", (char *)itr, "-o", "-", "--to", (char *)fmt, NULL};
	fflush(stdout);
	int saved = dup(1), nul = open("/dev/null", O_WRONLY);
	if (saved < 0 || nul < 0 || dup2(nul, 1) < 0)
		return cli_fail("bench: cannot redirect standard output");
	close(nul);
	double t0 = now_s();
	int r = cmd_convert(6, argv);
	fflush(stdout);
	double t1 = now_s();
	dup2(saved, 1);
	close(saved);
	if (r)
		return cli_fail("bench: converting to %s failed", fmt), r;
	char name[40];
	snprintf(name, sizeof name, "convert %s", fmt);
	add(f, name, f->traced, t1 - t0, 0);
	return 0;
}

/* One timed capture of the prepared run (its configuration CFG) as the
 * phase NAME; the oracle, when written, is removed. */
static int capture_phase(struct fw *f, const char *name, const struct citcat_capture_config *cfg, unsigned flags,
			 const char *elf, const char *cat, const char *orc)
{
	struct citcat_bench_capture b = {.size = sizeof b};
	struct citcat_errinfo err;
	if (citcat_bench_capture(cfg, flags, elf, cat, orc, &b, &err))
		return cli_errinfo(elf, &err);
	if (orc)
		remove(orc);
	add(f, name, b.res.insns, b.run_s, b.setup_s);
	return 0;
}

/* One bare baseline of KIND as the phase NAME. */
static int bare_phase(struct fw *f, const char *name, unsigned kind, const struct citcat_bench_prep *bp)
{
	struct citcat_bench_bare hk = {.size = sizeof hk};
	struct citcat_errinfo err;
	if (citcat_bench_bare_run(kind, bp->ims, bp->aes, bp->itr, &hk, &err))
		return cli_errinfo(bp->ims, &err);
	add(f, name, hk.insns, hk.run_s, hk.setup_s);
	return 0;
}

static int bench_fw(const char *elf, const char *dir, int all, const char *formats, struct fw *f)
{
	static struct citcat_bench_prep bp;
	bp.size = sizeof bp;
	struct citcat_capture_config cfg;
	citcat_capture_config_default(&cfg);
	cfg.engine = CITCAT_CAPTURE_ENGINE_INSN; /* the insn phases; the block engine is timed below */
	cfg.target.seed = 1;
	cfg.uart_tx = discard;
	cfg.progress = cap_progress;
	struct citcat_errinfo err;
	int rc = citcat_bench_prepare(&cfg, elf, dir, &bp, &err);
	if (rc < 0)
		return cli_errinfo(bp.err_path, &err);
	if (rc)
		return rc;
	const char *cat = bp.cat, *orc = bp.orc, *ims_p = bp.ims, *aes_p = bp.aes, *itr = bp.itr;
	f->insns = bp.cap.res.insns;
	f->traced = bp.cap.res.traced_insns;
	add(f, "capture (CAT)", bp.cap.res.insns, bp.cap.run_s, bp.cap.setup_s);
	rc = EXIT_USAGE;
	if (capture_phase(f, "capture + oracle", &cfg, 0, elf, cat, orc))
		goto out;
	/* the same with every file compressed and written inline (no thread) */
	if (capture_phase(f, "capture + oracle, 1 thread", &cfg, CITCAT_BENCH_INLINE_WRITES, elf, cat, orc))
		goto out;
	/* the capture's block engine (capture/TARGET.md "The block engine");
	 * auto, so that a run it does not take is timed on the insn engine;
	 * the files are the same as the insn engine's */
	struct citcat_capture_config bcfg = cfg;
	bcfg.engine = CITCAT_CAPTURE_ENGINE_AUTO;
	if (capture_phase(f, "capture (block)", &bcfg, 0, elf, cat, NULL))
		goto out;
	if (capture_phase(f, "capture + oracle (block)", &bcfg, 0, elf, cat, orc))
		goto out;
	add(f, "ims", f->traced, bp.ims_s, 0);
	add(f, "aes", f->traced, bp.aes_s, 0);
	if ((rc = replay_phase(f, "replay --verify", ims_p, aes_p, cat, NULL, elf)))
		goto out;
	/* the block engine (replay/REPLAY.md "Block-granular replay"); auto, so
	 * that a run it does not take is timed on the insn engine */
	if ((rc = replay_phase_engine(f, "replay --verify (block)", ims_p, aes_p, cat, NULL, elf, CITCAT_REPLAY_ENGINE_AUTO, 0)))
		goto out;
	remove(cat);
	if ((rc = replay_phase_engine(f, "replay -> itrace, 1 thread", ims_p, aes_p, NULL, itr, elf,
				      CITCAT_REPLAY_ENGINE_INSN, CITCAT_BENCH_INLINE_WRITES)))
		goto out;
	if ((rc = replay_phase(f, "replay -> itrace", ims_p, aes_p, NULL, itr, elf)))
		goto out;
	if ((rc = replay_phase_engine(f, "replay -> itrace (block)", ims_p, aes_p, NULL, itr, elf, CITCAT_REPLAY_ENGINE_AUTO, 0)))
		goto out;
	rc = EXIT_USAGE;
	f->bare.size = sizeof f->bare;
	if (citcat_bench_bare_run(CITCAT_BENCH_BARE, ims_p, aes_p, itr, &f->bare, &err)) {
		cli_errinfo(ims_p, &err);
		goto out;
	}
	/* the ceiling of per-instruction hooks */
	if (bare_phase(f, "bare + empty hooks", CITCAT_BENCH_BARE_HOOKS, &bp))
		goto out;
	/* the floor of the block engines: every access hooked, no instruction */
	if (bare_phase(f, "bare + empty block+mem hooks", CITCAT_BENCH_BARE_FLOOR_BLOCK, &bp) ||
	    bare_phase(f, "bare + empty mem hook", CITCAT_BENCH_BARE_FLOOR_MEM, &bp))
		goto out;
	if (all) {
		char list[256], *save = NULL;
		snprintf(list, sizeof list, "%s", formats);
		for (char *fmt = strtok_r(list, ",", &save); fmt; fmt = strtok_r(NULL, ",", &save))
			if ((rc = convert_phase(f, itr, fmt)))
				goto out;
	}
	rc = 0;
out:
	citcat_bench_prep_remove(&bp);
	return rc;
}

static double mips(uint64_t n, double s) { return s > 0 ? (double)n / s / 1e6 : 0.0; }

int bench_all(int argc, char **argv, int all)
{
	int json = 0, nfiles = 0;
	const char *files[256];
	const char *formats = "din,xdin,pdats,pdats2,sdclsp"; /* champsim, text: ~1 Minsn/s, on request */
	for (int i = 1; i < argc; i++) {
		if (cli_is_help(argv[i])) {
			fputs(bench_all_help, stdout);
			return EXIT_OK;
		}
		if (strcmp(argv[i], "--json") == 0)
			json = 1;
		else if (strcmp(argv[i], "--formats") == 0 && i + 1 < argc)
			formats = argv[++i];
		else if (argv[i][0] == '-')
			return cli_usage_error("bench", "unknown option '%s'", argv[i]);
		else if (nfiles < 256)
			files[nfiles++] = argv[i];
	}
	if (nfiles == 0) {
		const char *ex[16];
		int n = (int)cli_default_examples(ex, 16, 1);
		for (int k = 0; k < n; k++)
			if (strstr(ex[k], "_long.elf"))
				files[nfiles++] = ex[k];
		if (!nfiles)
			return cli_fail("bench: no firmware given and no built long examples found (build the examples "
					"target, or set CITCAT_EXAMPLES_DIR)");
	}
	char dir[] = "/tmp/citcat-bench-all-XXXXXX";
	if (!mkdtemp(dir))
		return cli_fail("bench: cannot create a temporary directory");
	int rc = EXIT_OK, printed = 0;
	char ucv[32];
	citcat_bench_unicorn_version(ucv, sizeof ucv);
	if (json)
		printf("{\"benchmark\": \"%s\", \"unicorn\": \"%s\", \"runs\": [", all ? "all" : "capture", ucv);
	else
		printf("engine: Unicorn %s (ratios compare only between runs on one Unicorn version)\n", ucv);
	for (int k = 0; k < nfiles; k++) {
		static struct fw f;
		memset(&f, 0, sizeof f);
		const char *name = strrchr(files[k], '/') ? strrchr(files[k], '/') + 1 : files[k];
		int one = bench_fw(files[k], dir, all, formats, &f);
		if (one == 1) {
			fprintf(stderr, "citcat bench: %s never starts tracing; skipped\n", name);
			continue;
		}
		if (one) {
			rc = one;
			break;
		}
		double bare = mips(f.bare.insns, f.bare.run_s);
		if (json) {
			printf("%s{\"firmware\": \"%s\", \"instructions\": %llu, \"traced_instructions\": %llu, "
			       "\"bare\": {\"instructions\": %llu, \"seconds\": %.4f, \"setup_seconds\": %.4f, "
			       "\"outside_seconds\": %.4f, \"minsn_s\": %.2f, \"segments\": %llu, \"interrupts\": %llu, "
			       "\"dma\": %llu, \"wfi_addresses\": %llu, \"device_reads\": %llu, \"device_reads_recorded\": %llu, "
			       "\"path_ok\": %s, \"sync_entries\": %llu, \"it_failed\": %llu}, \"phases\": [",
			       printed ? ", " : "", name, (unsigned long long)f.insns, (unsigned long long)f.traced,
			       (unsigned long long)f.bare.insns, f.bare.run_s, f.bare.setup_s, f.bare.outside_s, bare,
			       (unsigned long long)f.bare.segments, (unsigned long long)f.bare.irqs,
			       (unsigned long long)f.bare.dma, (unsigned long long)f.bare.wfis,
			       (unsigned long long)f.bare.dev_reads, (unsigned long long)f.bare.dev_reads_recorded,
			       f.bare.path_ok ? "true" : "false", (unsigned long long)f.bare.sync_entries,
			       (unsigned long long)f.bare.it_failed);
			for (int i = 0; i < f.n; i++) {
				double m = mips(f.ph[i].insns, f.ph[i].run_s);
				printf("%s{\"phase\": \"%s\", \"instructions\": %llu, \"seconds\": %.4f, \"setup_seconds\": %.4f, "
				       "\"minsn_s\": %.2f, \"ratio\": %.3f}",
				       i ? ", " : "", f.ph[i].name, (unsigned long long)f.ph[i].insns, f.ph[i].run_s,
				       f.ph[i].setup_s, m, bare > 0 ? m / bare : 0.0);
			}
			printf("]}");
		} else {
			printf("%s: %llu instructions (%llu traced)\n", name, (unsigned long long)f.insns,
			       (unsigned long long)f.traced);
			printf("  %-30s %10s %10s %10s %7s\n", "phase", "seconds", "set-up s", "Minsn/s", "ratio");
			printf("  %-30s %10.3f %10.3f %10.2f %7.3f   (%llu segments, %llu irqs, %llu DMA, path %s)\n",
			       "bare Unicorn", f.bare.run_s, f.bare.setup_s, bare, 1.0, (unsigned long long)f.bare.segments,
			       (unsigned long long)f.bare.irqs, (unsigned long long)f.bare.dma,
			       f.bare.path_ok ? "as recorded" : "DIFFERS from the recording");
			if (!f.bare.path_ok)
				printf("  (bare path: pc 0x%08x where the recording has 0x%08x; %llu of %llu device reads used)\n",
				       f.bare.first_bad_pc, f.bare.want_pc, (unsigned long long)f.bare.dev_reads,
				       (unsigned long long)f.bare.dev_reads_recorded);
			for (int i = 0; i < f.n; i++) {
				double m = mips(f.ph[i].insns, f.ph[i].run_s);
				printf("  %-30s %10.3f %10.3f %10.2f %7.3f\n", f.ph[i].name, f.ph[i].run_s, f.ph[i].setup_s, m,
				       bare > 0 ? m / bare : 0.0);
			}
		}
		fflush(stdout);
		printed++;
	}
	rmdir(dir);
	if (json)
		printf("]}\n");
	else
		printf("(ratio = phase Minsn/s / bare Minsn/s; bare: plain Unicorn on the recorded path from the IMS\n"
		       " start state, only uc_emu_start timed; conversions write to /dev/null)\n");
	return rc;
}
