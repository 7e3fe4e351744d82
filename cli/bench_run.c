/* citcat bench all / bench capture: every phase of the tool chain timed
 * against one honest bare-Unicorn baseline (capture/bench_bare.h, issue 14
 * part 1).  Benchmarks print numbers; they never pass or fail on time. */
#include "aes.h"
#include "bench_bare.h"
#include "bench_prep.h"
#include "capture.h"
#include "cli.h"
#include "container.h"
#include "ims.h"
#include "replay.h"

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
	struct cc_bare_result bare;
	struct phase ph[32];
	int n;
};

static int cap_progress(void *ctx, uint64_t insns) { return cli_interrupted(); }

static double replay_start;
static int rep_progress(void *ctx, uint64_t insns, uint64_t total)
{
	if (insns == 0 && replay_start == 0)
		replay_start = now_s();
	return cli_interrupted();
}

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
			       const char *out, const char *elf, unsigned engine)
{
	struct citcat_replay_config c;
	citcat_replay_config_default(&c);
	c.engine = engine;
	c.ims_path = ims;
	c.aes_path = aes;
	c.verify_cat = cat;
	c.out_path = out;
	c.progress = rep_progress;
	struct citcat_replay_result res;
	struct citcat_errinfo err;
	replay_start = 0;
	double t0 = now_s();
	int r = citcat_replay_run(&c, &res, &err);
	double t1 = now_s();
	if (r == CITCAT_ERR_DIVERGED)
		return cli_fail("bench: %s: the replay diverged (%s check at instruction %llu)", elf, res.div.check,
				(unsigned long long)res.div.insn_index), EXIT_CHECK;
	if (r)
		return cli_errinfo(res.err_path ? res.err_path : elf, &err);
	add(f, name, res.insns, t1 - replay_start, replay_start - t0);
	return 0;
}

static int replay_phase(struct fw *f, const char *name, const char *ims, const char *aes, const char *cat,
			const char *out, const char *elf)
{
	return replay_phase_engine(f, name, ims, aes, cat, out, elf, CITCAT_REPLAY_ENGINE_INSN);
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

static int bench_fw(const char *elf, const char *dir, int all, const char *formats, struct fw *f)
{
	struct bench_prep bp;
	bench_prep_init(&bp, dir, cap_progress);
	int rc = bench_prepare(&bp, elf);
	if (rc)
		return rc;
	const char *cat = bp.cat, *orc = bp.orc, *ims_p = bp.ims, *aes_p = bp.aes, *itr = bp.itr;
	f->insns = bp.cap.insns;
	f->traced = bp.cap.traced_insns;
	add(f, "capture (CAT)", bp.cap.insns, bp.cap_run_s, bp.cap.seconds - bp.cap_run_s);
	struct citcat_capture_result res;
	struct citcat_errinfo err;
	rc = EXIT_USAGE;
	double run = 0;
	struct cc_capture_bench b = {.run_seconds = &run};
	if (cc_capture_run_bench(&bp.cfg, &b, elf, cat, orc, &res, &err)) {
		cli_errinfo(elf, &err);
		goto out;
	}
	remove(orc);
	add(f, "capture + oracle", res.insns, run, res.seconds - run);
	/* the same with every file compressed and written inline (no thread) */
	cc_writer_threads = 0;
	run = 0;
	int crc = cc_capture_run_bench(&bp.cfg, &b, elf, cat, orc, &res, &err);
	cc_writer_threads = 1;
	if (crc) {
		cli_errinfo(elf, &err);
		goto out;
	}
	remove(orc);
	add(f, "capture + oracle, 1 thread", res.insns, run, res.seconds - run);
	/* the capture's block engine (capture/TARGET.md "The block engine");
	 * auto, so that a run it does not take is timed on the insn engine;
	 * the files are the same as the insn engine's */
	struct citcat_capture_config bcfg = bp.cfg;
	bcfg.engine = CITCAT_CAPTURE_ENGINE_AUTO;
	run = 0;
	if (cc_capture_run_bench(&bcfg, &b, elf, cat, NULL, &res, &err)) {
		cli_errinfo(elf, &err);
		goto out;
	}
	add(f, "capture (block)", res.insns, run, res.seconds - run);
	run = 0;
	if (cc_capture_run_bench(&bcfg, &b, elf, cat, orc, &res, &err)) {
		cli_errinfo(elf, &err);
		goto out;
	}
	remove(orc);
	add(f, "capture + oracle (block)", res.insns, run, res.seconds - run);
	add(f, "ims", f->traced, bp.ims_s, 0);
	add(f, "aes", f->traced, bp.aes_s, 0);
	if ((rc = replay_phase(f, "replay --verify", ims_p, aes_p, cat, NULL, elf)))
		goto out;
	/* the block engine (replay/REPLAY.md "Block-granular replay"); auto, so
	 * that a run it does not take is timed on the insn engine */
	if ((rc = replay_phase_engine(f, "replay --verify (block)", ims_p, aes_p, cat, NULL, elf, CITCAT_REPLAY_ENGINE_AUTO)))
		goto out;
	remove(cat);
	cc_writer_threads = 0;
	rc = replay_phase(f, "replay -> itrace, 1 thread", ims_p, aes_p, NULL, itr, elf);
	cc_writer_threads = 1;
	if (rc || (rc = replay_phase(f, "replay -> itrace", ims_p, aes_p, NULL, itr, elf)))
		goto out;
	if ((rc = replay_phase_engine(f, "replay -> itrace (block)", ims_p, aes_p, NULL, itr, elf, CITCAT_REPLAY_ENGINE_AUTO)))
		goto out;
	rc = EXIT_USAGE;
	if (cc_bare_run(ims_p, aes_p, itr, &f->bare, &err)) {
		cli_errinfo(ims_p, &err);
		goto out;
	}
	struct cc_bare_result hk; /* the ceiling of per-instruction hooks (bench_bare.h) */
	if (cc_bare_run_hooked(ims_p, aes_p, itr, &hk, &err)) {
		cli_errinfo(ims_p, &err);
		goto out;
	}
	add(f, "bare + empty hooks", hk.insns, hk.run_s, hk.setup_s);
	/* the floor of the block engines: every access hooked, no instruction */
	if (cc_bare_run_floor(ims_p, aes_p, itr, 1, &hk, &err)) {
		cli_errinfo(ims_p, &err);
		goto out;
	}
	add(f, "bare + empty block+mem hooks", hk.insns, hk.run_s, hk.setup_s);
	if (cc_bare_run_floor(ims_p, aes_p, itr, 0, &hk, &err)) {
		cli_errinfo(ims_p, &err);
		goto out;
	}
	add(f, "bare + empty mem hook", hk.insns, hk.run_s, hk.setup_s);
	if (all) {
		char list[256], *save = NULL;
		snprintf(list, sizeof list, "%s", formats);
		for (char *fmt = strtok_r(list, ",", &save); fmt; fmt = strtok_r(NULL, ",", &save))
			if ((rc = convert_phase(f, itr, fmt)))
				goto out;
	}
	rc = 0;
out:
	bench_prep_remove(&bp);
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
	cc_unicorn_version(ucv, sizeof ucv);
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
