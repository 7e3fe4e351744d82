/* citcat bench gdb: the replay cursor's speed and memory as citcat gdb uses
 * it (issue 33; replay/CURSOR.md).  A benchmark: it prints numbers and never
 * fails on time. */
#include "cli.h"
#include <citcat/bench.h>

#include <citcat/cursor.h>

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char bench_gdb_help[] =
	"usage: citcat bench gdb [FIRMWARE.elf...] [--samples N] [--watch ADDR] [--interval N] [--budget SIZE]\n"
	"                       [--json]\n\n"
	"For each firmware: capture it (seed 1) to a temporary directory, extract the\n"
	"IMS and AES, time a plain replay (citcat replay, no output), then, for the\n"
	"snapshot budget at its default, at half of it and at 2 MiB, each in a child\n"
	"process whose peak resident memory is reported:\n"
	"  - the first continue from instant 0 to the end (snapshots taken);\n"
	"  - reverse-stepi at N points spread over the run (default 10), reached by\n"
	"    running forwards: the first one re-executes from the snapshot before\n"
	"    (cold), the nine after it use the chain of snapshots the first left;\n"
	"  - reverse-continue from the end to a write watchpoint on a word written\n"
	"    near the start and never again (--watch ADDR, or the ELF's object A, the\n"
	"    input matrix of matmul, else input, sha256's DMA buffer),\n"
	"    against a forward re-execution of the same span by the cursor and the\n"
	"    plain replay's time for it.\n"
	"--interval N: instructions between snapshots moving forwards (default 1M, as\n"
	"citcat gdb --interval); --budget SIZE: that budget alone.\n"
	"Times are CPU seconds of the process (wall seconds in the JSON too).  With\n"
	"no files: matmul_long and sha256_long of the built-in examples.\n";

/* The address of the data object NAME in the ELF at PATH (0: none). */
static uint32_t object_addr(const char *path, const char *name)
{
	uint32_t addr = 0;
	if (elf_version(EV_CURRENT) == EV_NONE)
		return 0;
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return 0;
	Elf *e = elf_begin(fd, ELF_C_READ, NULL);
	Elf_Scn *scn = NULL;
	while (e && !addr && (scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB)
			continue;
		Elf_Data *d = elf_getdata(scn, NULL);
		size_t n = sh.sh_entsize ? sh.sh_size / sh.sh_entsize : 0;
		for (size_t i = 0; d && i < n; i++) {
			GElf_Sym sym;
			const char *nm;
			if (gelf_getsym(d, (int)i, &sym) && GELF_ST_TYPE(sym.st_info) == STT_OBJECT &&
			    (nm = elf_strptr(e, sh.sh_link, sym.st_name)) && !strcmp(nm, name)) {
				addr = (uint32_t)sym.st_value;
				break;
			}
		}
	}
	if (e)
		elf_end(e);
	close(fd);
	return addr;
}

static double cpu_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

#define MAXS 32

struct row {
	int ok;
	char why[200];
	uint64_t budget, insns;
	double first_cont_cpu, first_cont_wall;
	unsigned nsamp;
	double rsi_cold[MAXS], rsi_warm_mean, rsi_warm_max; /* CPU seconds */
	uint64_t hit;
	double rc_cpu, rc_wall, span_cpu;
	uint64_t peak, snapshots, taken, dropped;
	long maxrss_kb;
};

static int run_to(struct citcat_cursor *c, int backward, unsigned flags, struct citcat_cursor_stop *st)
{
	return citcat_cursor_run(c, backward, flags, st);
}

static void discard(void *ctx, uint8_t b) {}

/* One budget, in this (child) process. */
static void measure(const struct citcat_bench_prep *p, uint32_t watch, uint64_t budget, uint64_t interval, unsigned nsamp,
		    struct row *r)
{
	memset(r, 0, sizeof *r);
	r->budget = budget;
	r->nsamp = nsamp;
	struct citcat_cursor_config cc;
	citcat_cursor_config_default(&cc);
	cc.ims_path = p->ims;
	cc.aes_path = p->aes;
	cc.budget = budget;
	if (interval)
		cc.interval = interval;
	cc.chain = UINT64_MAX; /* the cold reverse-stepi: arrived at by running, no chain */
	struct citcat_cursor *c;
	struct citcat_cursor_stop st;
	if (citcat_cursor_open(&c, &cc)) {
		snprintf(r->why, sizeof r->why, "%s", citcat_cursor_error(c)->msg);
		citcat_cursor_close(c);
		return;
	}
	struct citcat_cursor_info info;
	citcat_cursor_info(c, &info);
	r->insns = info.insns;
	double w0 = cli_now(), c0 = cpu_s();
	if (run_to(c, 0, 0, &st) || st.reason != CITCAT_CURSOR_END) {
		snprintf(r->why, sizeof r->why, "the first continue stopped (%u)", st.reason);
		goto out;
	}
	r->first_cont_cpu = cpu_s() - c0;
	r->first_cont_wall = cli_now() - w0;

	/* reverse-stepi, cold: each point reached by running forwards from the
	 * one before (no restore, no chain) */
	citcat_cursor_seek(c, 0, &st);
	for (unsigned i = 0; i < nsamp; i++) {
		uint64_t at = info.insns / (2 * nsamp) + (uint64_t)i * info.insns / nsamp;
		if (citcat_cursor_seek(c, at, &st) || st.insn != at)
			break;
		c0 = cpu_s();
		citcat_cursor_run(c, 1, CITCAT_CURSOR_RUN_STEP, &st);
		r->rsi_cold[i] = cpu_s() - c0;
	}

	/* reverse-continue from the end to the last write of WATCH, made near
	 * the start */
	if (watch) {
		citcat_cursor_seek(c, UINT64_MAX, &st);
		citcat_cursor_watch(c, watch, 4, CITCAT_CURSOR_WATCH_WRITE, 1);
		w0 = cli_now();
		c0 = cpu_s();
		int rc = run_to(c, 1, 0, &st);
		r->rc_cpu = cpu_s() - c0;
		r->rc_wall = cli_now() - w0;
		if (!rc && st.reason == CITCAT_CURSOR_WATCH) {
			r->hit = st.insn;
			citcat_cursor_watch(c, watch, 4, CITCAT_CURSOR_WATCH_WRITE, 0);
			/* the same span forwards, re-executed by the cursor */
			c0 = cpu_s();
			run_to(c, 0, 0, &st);
			r->span_cpu = cpu_s() - c0;
		}
	}
	struct citcat_cursor_usage u;
	citcat_cursor_usage(c, &u);
	r->peak = u.peak;
	r->snapshots = u.snapshots;
	r->taken = u.taken;
	r->dropped = u.dropped;
	citcat_cursor_close(c);

	/* reverse-stepi with the default chain: 9 more after a first one at
	 * three points (a cursor of its own, taking its snapshots on the way) */
	citcat_cursor_config_default(&cc);
	cc.ims_path = p->ims;
	cc.aes_path = p->aes;
	cc.budget = budget;
	if (interval)
		cc.interval = interval;
	if (citcat_cursor_open(&c, &cc) == 0) {
		double sum = 0, max = 0;
		unsigned n = 0;
		for (int i = 1; i <= 3; i++) {
			uint64_t at = info.insns * (uint64_t)i / 4;
			if (citcat_cursor_seek(c, at, &st) || st.insn != at)
				break;
			citcat_cursor_run(c, 1, CITCAT_CURSOR_RUN_STEP, &st);
			for (int k = 0; k < 9; k++) {
				c0 = cpu_s();
				citcat_cursor_run(c, 1, CITCAT_CURSOR_RUN_STEP, &st);
				double d = cpu_s() - c0;
				sum += d;
				max = d > max ? d : max;
				n++;
			}
		}
		r->rsi_warm_mean = n ? sum / n : 0;
		r->rsi_warm_max = max;
	}
	r->ok = 1;
out:
	citcat_cursor_close(c);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

int bench_gdb(int argc, char **argv)
{
	const char *files[16];
	size_t nf = 0;
	int json = 0;
	uint64_t nsamp = 10, watch_addr = 0, interval = 0, one_budget = 0;
	for (int i = 1; i < argc; i++) {
		if (cli_is_help(argv[i])) {
			fputs(bench_gdb_help, stdout);
			return EXIT_OK;
		} else if (strcmp(argv[i], "--json") == 0) {
			json = 1;
		} else if (strcmp(argv[i], "--samples") == 0 && i + 1 < argc) {
			if (cli_parse_u64(argv[++i], &nsamp) || nsamp == 0 || nsamp > MAXS)
				return cli_usage_error("bench gdb", "bad sample count '%s' (1 to %d)", argv[i], MAXS);
		} else if (strcmp(argv[i], "--watch") == 0 && i + 1 < argc) {
			if (cli_parse_u64(argv[++i], &watch_addr) || watch_addr > UINT32_MAX)
				return cli_usage_error("bench gdb", "bad address '%s'", argv[i]);
		} else if (strcmp(argv[i], "--interval") == 0 && i + 1 < argc) {
			if (cli_parse_count(argv[++i], &interval) || interval == 0)
				return cli_usage_error("bench gdb", "bad interval '%s'", argv[i]);
		} else if (strcmp(argv[i], "--budget") == 0 && i + 1 < argc) {
			if (cli_parse_size(argv[++i], &one_budget) || one_budget < CITCAT_CURSOR_BUDGET_MIN)
				return cli_usage_error("bench gdb", "bad snapshot budget '%s' (at least 1M)", argv[i]);
		} else if (argv[i][0] == '-') {
			return cli_usage_error("bench gdb", "unknown option '%s'", argv[i]);
		} else if (nf < 16) {
			files[nf++] = argv[i];
		}
	}
	if (!nf) {
		const char *all[32];
		size_t n = cli_default_examples(all, 32, 1);
		for (size_t i = 0; i < n; i++)
			if (strstr(all[i], "matmul_long.elf") || strstr(all[i], "sha256_long.elf"))
				files[nf++] = all[i];
		if (!nf)
			return cli_fail("bench gdb: no firmware given and the built-in matmul_long/sha256_long not found");
	}
	char dir[] = "/tmp/citcat-bench-gdb-XXXXXX";
	if (!mkdtemp(dir))
		return cli_fail("cannot create a temporary directory");
	if (json)
		printf("[");
	else
		printf("%-16s %6s %7s %9s | %-28s | %9s %9s %6s %7s | %11s %6s %8s\n", "firmware", "budget", "Minsn",
		       "1st cont", "reverse-stepi ms cold/warm", "rev-cont", "fwd span", "ratio", "/replay", "snapshots",
		       "peak", "max RSS");
	int rc = EXIT_OK;
	for (size_t f = 0; f < nf; f++) {
		static struct citcat_bench_prep p;
		p.size = sizeof p;
		struct citcat_capture_config pcfg;
		citcat_capture_config_default(&pcfg);
		pcfg.engine = CITCAT_CAPTURE_ENGINE_INSN;
		pcfg.target.seed = 1;
		pcfg.uart_tx = discard;
		struct citcat_errinfo perr;
		int r = citcat_bench_prepare(&pcfg, files[f], dir, &p, &perr);
		if (r < 0)
			r = cli_errinfo(p.err_path, &perr);
		if (r) {
			rc = r == 1 ? rc : r;
			continue;
		}
		/* the plain replay (block engine where it takes the run), no output */
		struct citcat_replay_config rcfg;
		citcat_replay_config_default(&rcfg);
		rcfg.ims_path = p.ims;
		rcfg.aes_path = p.aes;
		struct citcat_replay_result res;
		struct citcat_errinfo err;
		double c0 = cpu_s();
		int prc = citcat_replay_run(&rcfg, &res, &err);
		double plain_cpu = cpu_s() - c0;
		uint64_t insns = res.insns;
		/* a word written near the start and never again: the first of
		 * matmul's input matrix A, of sha256's DMA input buffer; --watch */
		uint32_t watch = watch_addr;
		for (int w = 0; !watch && w < 2; w++)
			watch = object_addr(files[f], w ? "input" : "A");
		const char *name = strrchr(files[f], '/') ? strrchr(files[f], '/') + 1 : files[f];
		uint64_t budgets[3] = {CITCAT_CURSOR_BUDGET_DEFAULT, CITCAT_CURSOR_BUDGET_DEFAULT / 2, 2ull << 20};
		int nb = 3;
		if (one_budget) {
			budgets[0] = one_budget;
			nb = 1;
		}
		uint64_t hit = 0;
		for (int b = 0; b < nb; b++) {
			int fd[2];
			struct row row;
			memset(&row, 0, sizeof row);
			fflush(stdout);
			if (pipe(fd) == 0) {
				pid_t pid = fork();
				if (pid == 0) {
					close(fd[0]);
					measure(&p, watch, budgets[b], interval, (unsigned)nsamp, &row);
					ssize_t wr = write(fd[1], &row, sizeof row);
					_exit(wr == (ssize_t)sizeof row ? 0 : 1);
				}
				close(fd[1]);
				ssize_t got = 0, k;
				while (got < (ssize_t)sizeof row && (k = read(fd[0], (char *)&row + got, sizeof row - (size_t)got)) > 0)
					got += k;
				close(fd[0]);
				struct rusage ru;
				int status;
				if (pid > 0 && wait4(pid, &status, 0, &ru) == pid)
					row.maxrss_kb = ru.ru_maxrss;
				if (got != (ssize_t)sizeof row)
					row.ok = 0;
			}
			if (row.ok)
				hit = row.hit;
			double cold[MAXS];
			memcpy(cold, row.rsi_cold, sizeof cold);
			qsort(cold, row.nsamp, sizeof *cold, cmp_double);
			double med = row.nsamp ? cold[row.nsamp / 2] : 0, mx = row.nsamp ? cold[row.nsamp - 1] : 0;
			double span_plain = insns && row.hit <= insns ? plain_cpu * (double)(insns - row.hit) / (double)insns : 0;
			if (json) {
				printf("%s{\"firmware\": \"%s\", \"budget\": %llu, \"ok\": %d, \"insns\": %llu, \"plain_replay_cpu_s\": %.3f, "
				       "\"plain_replay_rc\": %d, \"first_continue_cpu_s\": %.3f, \"first_continue_wall_s\": %.3f, "
				       "\"rsi_cold_median_s\": %.4f, \"rsi_cold_max_s\": %.4f, \"rsi_warm_mean_s\": %.5f, "
				       "\"rsi_warm_max_s\": %.5f, \"watch\": %u, \"watch_hit\": %llu, \"rev_cont_cpu_s\": %.3f, "
				       "\"rev_cont_wall_s\": %.3f, \"span_forward_cpu_s\": %.3f, \"span_plain_replay_cpu_s\": %.3f, "
				       "\"snapshots\": %llu, \"taken\": %llu, \"dropped\": %llu, \"snapshot_peak_bytes\": %llu, "
				       "\"max_rss_kb\": %ld}",
				       f || b ? ", " : "", name, (unsigned long long)budgets[b], row.ok, (unsigned long long)row.insns,
				       plain_cpu, prc, row.first_cont_cpu, row.first_cont_wall, med, mx, row.rsi_warm_mean,
				       row.rsi_warm_max, watch, (unsigned long long)row.hit, row.rc_cpu,
				       row.rc_wall, row.span_cpu, span_plain, (unsigned long long)row.snapshots,
				       (unsigned long long)row.taken, (unsigned long long)row.dropped,
				       (unsigned long long)row.peak, row.maxrss_kb);
				continue;
			}
			if (!row.ok) {
				printf("%-14s %8lluM  failed: %s\n", name, (unsigned long long)(budgets[b] >> 20), row.why);
				continue;
			}
			char rsi[48];
			snprintf(rsi, sizeof rsi, "%.1f/%.2f, max %.1f", 1e3 * med, 1e3 * row.rsi_warm_mean, 1e3 * mx);
			printf("%-16s %5lluM %7.1f %8.2fs | %-28s | %8.2fs %8.2fs %6.2f %7.2f | %5llu (-%llu) %5.1fM %7.0fM\n",
			       name, (unsigned long long)(budgets[b] >> 20), (double)row.insns / 1e6, row.first_cont_cpu, rsi,
			       row.rc_cpu, row.span_cpu, row.span_cpu > 0 ? row.rc_cpu / row.span_cpu : 0,
			       span_plain > 0 ? row.rc_cpu / span_plain : 0, (unsigned long long)row.snapshots,
			       (unsigned long long)row.dropped, (double)row.peak / 1048576.0, (double)row.maxrss_kb / 1024.0);
		}
		if (!json)
			printf("%-14s plain replay %.2fs CPU (%llu instructions, %.1f Minsn/s; %.2fs for the span); the "
			       "watchpoint on 0x%08x stopped at instant %llu\n",
			       name, plain_cpu, (unsigned long long)insns, plain_cpu > 0 ? (double)insns / plain_cpu / 1e6 : 0,
			       insns && hit <= insns ? plain_cpu * (double)(insns - hit) / (double)insns : 0, watch,
			       (unsigned long long)hit);
		citcat_bench_prep_remove(&p);
	}
	if (json)
		printf("]\n");
	else
		printf("1st cont: the first continue from instant 0 to the end, CPU seconds; reverse-stepi: CPU milliseconds, "
		       "the median of the first at each point (cold) / the mean of the nine after one (warm), and the "
		       "largest cold one;\nrev-cont: reverse-continue from the end to the last write of the watched word; "
		       "fwd span: the cursor re-executing that span forwards; ratio = rev-cont / fwd span (the target: "
		       "under 2);\n/replay = rev-cont / the plain replay's time for the span (its block engine); snapshots "
		       "kept (thinned); peak snapshot bytes; the child's peak RSS.\n");
	rmdir(dir);
	return rc;
}
