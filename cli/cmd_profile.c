/* citcat profile: a run's per-line and per-function profile in valgrind's
 * callgrind format (formats/CALLGRIND.md), for callgrind_annotate and
 * KCachegrind.  The run is replayed from the CAT (its IMS and AES extracted
 * into a temporary directory, as the report does) and verified against it
 * on the way; the profile itself is the library's (citcat/profile.h). */
#include "cli.h"
#include <citcat/ims.h>
#include <citcat/replay.h>
#include <citcat/symbols.h>

#include <citcat/profile.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char profile_help[] =
	"usage: citcat profile RUN.cat -o RUN.callgrind [--elf FIRMWARE.elf] [--itrace RUN.itrace]\n\n"
	"Writes the run's profile in valgrind's callgrind format: costs per source line\n"
	"and per function (inlined functions as functions of their own, entered from\n"
	"their call site), call edges from the run's calls, returns and interrupt\n"
	"entries with inclusive costs.  Events: Ir (instructions), Dr, Dw (cacheable\n"
	"data reads, writes), I1mr, D1mr, D1mw (I-cache fills, D-cache fills by a read,\n"
	"by a write: citcat's cache model, exactly the CAT's), D1wb (write-backs), Ur,\n"
	"Uw (uncached device reads, writes), DMA (transfers).  Read it with\n"
	"callgrind_annotate RUN.callgrind or kcachegrind RUN.callgrind.  The run is\n"
	"replayed from the CAT and its bus trace verified against it (exit 1 if it\n"
	"differs).\n"
	"  -o FILE          the profile ('-' for standard output)\n"
	"  --elf FILE       the firmware ELF (default: the one the CAT records, when its\n"
	"                   build id still matches)\n"
	"  --itrace FILE    the run's instruction trace, compared with the replay too\n";

struct prof_ctx {
	struct citcat_profile *p;
	struct cli_progress pr;
};

static int on_bus(void *ctx, const struct citcat_cat_event *ev)
{
	return citcat_profile_bus(((struct prof_ctx *)ctx)->p, ev);
}

static int on_record(void *ctx, const struct citcat_itrace_rec *rec)
{
	return citcat_profile_record(((struct prof_ctx *)ctx)->p, rec);
}

static int progress_cb(void *ctx, uint64_t done, uint64_t total)
{
	cli_progress_update(&((struct prof_ctx *)ctx)->pr, done, total, "insn");
	return cli_interrupted();
}

/* The firmware the CAT records, when its build id matches (cli_symbols_from_cat). */
static int recorded_elf(const char *cat, char *elf, size_t n)
{
	struct citcat_symbols *s = NULL;
	cli_symbols_from_cat(cat, &s, elf, n);
	int ok = s != NULL;
	citcat_symbols_close(s);
	return ok;
}

int cmd_profile(int argc, char **argv)
{
	const char *cat = NULL, *out = NULL, *elf = NULL, *itrace = NULL;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (cli_is_help(a)) {
			fputs(profile_help, stdout);
			return EXIT_OK;
		} else if (strcmp(a, "-o") == 0 && i + 1 < argc) {
			out = argv[++i];
		} else if (strcmp(a, "--elf") == 0 && i + 1 < argc) {
			elf = argv[++i];
		} else if (strcmp(a, "--itrace") == 0 && i + 1 < argc) {
			itrace = argv[++i];
		} else if (a[0] == '-' && a[1]) {
			return cli_usage_error("profile", "unknown or incomplete option '%s'", a);
		} else if (!cat) {
			cat = a;
		} else {
			return cli_usage_error("profile", "unexpected argument '%s'", a);
		}
	}
	if (!cat || !out)
		return cli_usage_error("profile", "need RUN.cat and -o RUN.callgrind");
	const char *ins[] = {cat, elf, itrace}, *outs[] = {out};
	if (cli_check_distinct(ins, 3, outs, 1))
		return EXIT_USAGE;
	static char recorded[4096];
	if (!elf) {
		if (!recorded_elf(cat, recorded, sizeof recorded))
			return cli_fail("%s: no firmware ELF with symbols for this CAT: give --elf FIRMWARE.elf", cat);
		elf = recorded;
	}
	const char *tmpdir = getenv("TMPDIR");
	char dirbuf[4096];
	snprintf(dirbuf, sizeof dirbuf, "%s/citcat-profile-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
	char *d = mkdtemp(dirbuf);
	if (!d)
		return cli_fail("cannot make a temporary directory: %s", strerror(errno));
	int status = EXIT_USAGE;
	struct citcat_cat_replay *h = NULL;
	struct citcat_errinfo err = {0};
	struct prof_ctx pc = {0};
	cli_progress_init(&pc.pr, "profile");
	double t0 = cli_now();
	if (citcat_cat_replay_open(&h, cat, d, &err)) {
		cli_errinfo(cat, &err);
		goto done;
	}
	if (citcat_profile_open(&pc.p, elf, &citcat_cat_replay_ims(h)->cfg, &err)) {
		cli_errinfo(elf, &err);
		goto done;
	}
	struct citcat_replay_config c;
	citcat_replay_config_default(&c);
	c.oracle = itrace;
	c.on_record = on_record;
	c.record_ctx = &pc;
	c.bus = on_bus;
	c.bus_ctx = &pc;
	c.progress = progress_cb;
	c.progress_ctx = &pc;
	struct citcat_replay_result res;
	int rc = citcat_cat_replay_run(h, &c, &res, &err);
	cli_progress_done(&pc.pr);
	if (rc == CITCAT_ERR_DIVERGED) {
		fprintf(stderr, "citcat profile: the replay diverged (%s check at instruction #%llu): expected %s, found %s\n",
			res.div.check, (unsigned long long)res.div.insn_index, res.div.expected, res.div.found);
		status = EXIT_CHECK;
		goto done;
	}
	if (rc) {
		if (!err.msg[0])
			snprintf(err.msg, sizeof err.msg, "%s", citcat_errstr(rc));
		cli_errinfo(res.err_path ? res.err_path : "profile", &err);
		goto done;
	}
	char cmd[8400];
	snprintf(cmd, sizeof cmd, "%s (firmware %s)", cat, elf);
	if (citcat_profile_write(pc.p, out, cmd, &err)) {
		cli_errinfo(out, &err);
		goto done;
	}
	uint64_t tot[CITCAT_PROF_EVENTS];
	citcat_profile_totals(pc.p, tot);
	cli_note("profile", "%llu instructions, %llu I-cache and %llu D-cache fills; %s written in %.2f s",
		(unsigned long long)tot[CITCAT_PROF_IR], (unsigned long long)tot[CITCAT_PROF_I1MR],
		(unsigned long long)(tot[CITCAT_PROF_D1MR] + tot[CITCAT_PROF_D1MW]), out, cli_now() - t0);
	status = EXIT_OK;
done:
	citcat_profile_close(pc.p);
	citcat_cat_replay_close(h);
	rmdir(d);
	return status;
}
