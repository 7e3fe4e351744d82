/* Random replacement replays exactly because the trace module records each
 * cache's replacement generator at the trace start point P (TARGET.md,
 * "Random replacement"; CAT.md, SYNC).  The example firmware runs its
 * start-up code with the caches on before the driver starts tracing (a warm
 * start), so the generators have moved on from their reset values by P.
 * Replayed from the recorded state the run is exact; replayed from the reset
 * value, as CAT/IMS version 1 had to, the same run diverges at a write-back
 * of a different victim line, which is the defect this guards against.
 *
 * Usage: test_replay_random FIRMWARE.elf WORK_DIR   (qsort: many D victims) */
#include "aes.h"
#include "capture.h"
#include "check.h"
#include "ims.h"
#include "replay.h"

#include <string.h>
#include <sys/stat.h>

static const char *work;

/* WORK/NAME in a buffer of the caller's */
static char *path(char *buf, const char *name)
{
	snprintf(buf, 1024, "%s/%s", work, name);
	return buf;
}

/* The SYNC event of CAT (its replacement states), or -1. */
static int read_sync(const char *cat, uint32_t st[2])
{
	struct citcat_cat_reader *r;
	struct citcat_cat_event ev;
	int rc = citcat_cat_reader_open(&r, cat), found = -1;
	if (rc == 0)
		while ((rc = citcat_cat_next(r, &ev)) == 1)
			if (ev.kind == CITCAT_CAT_SYNC) {
				st[0] = ev.repl_state[0];
				st[1] = ev.repl_state[1];
				found = 0;
			}
	citcat_cat_reader_close(r);
	return rc == 0 ? found : -1;
}

/* Copies SRC to DST with the SYNC's replacement states replaced by ST. */
static int copy_cat(const char *src, const char *dst, const uint32_t st[2])
{
	struct citcat_cat_reader *r;
	struct citcat_cat_writer *w = NULL;
	struct citcat_cat_event ev;
	int rc = citcat_cat_reader_open(&r, src);
	if (rc == 0)
		rc = citcat_cat_writer_open(&w, dst, citcat_cat_config(r));
	while (rc == 0 && (rc = citcat_cat_next(r, &ev)) == 1) {
		if (ev.kind == CITCAT_CAT_SYNC) {
			ev.repl_state[0] = st[0];
			ev.repl_state[1] = st[1];
		}
		rc = citcat_cat_write(w, &ev);
	}
	if (rc == 0) {
		rc = citcat_cat_writer_close(w);
		w = NULL;
	}
	citcat_cat_writer_abort(w);
	citcat_cat_reader_close(r);
	return rc;
}

/* IMS and AES from CAT, written as PREFIX.ims / PREFIX.aes. */
static void extract(const char *cat, const char *prefix, struct citcat_ims *ims)
{
	char ip[1100], ap[1100];
	snprintf(ip, sizeof ip, "%s.ims", prefix);
	snprintf(ap, sizeof ap, "%s.aes", prefix);
	struct citcat_errinfo err;
	struct citcat_aes_stats ast;
	CHECK_EQ(citcat_ims_extract(cat, ims, NULL, NULL, NULL, &err), 0);
	CHECK_EQ(citcat_ims_write(ims, ip, &err), 0);
	CHECK_EQ(citcat_aes_extract(cat, ap, &ast, NULL, NULL, &err), 0);
}

static int replay(const char *prefix, const char *cat, const char *oracle, struct citcat_replay_result *res,
		  struct citcat_errinfo *err)
{
	char ip[1100], ap[1100];
	snprintf(ip, sizeof ip, "%s.ims", prefix);
	snprintf(ap, sizeof ap, "%s.aes", prefix);
	struct citcat_replay_config c;
	citcat_replay_config_default(&c);
	c.ims_path = ip;
	c.aes_path = ap;
	c.verify_cat = cat;
	c.oracle = oracle;
	return citcat_replay_run(&c, res, err);
}

static void discard(void *ctx, uint8_t b) {}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: test_replay_random FIRMWARE.elf WORK_DIR\n");
		return 2;
	}
	work = argv[2];
	mkdir(work, 0755);
	struct citcat_capture_config cc;
	citcat_capture_config_default(&cc);
	cc.target.seed = 1;
	cc.target.icache.repl = CITCAT_REPL_RANDOM;
	cc.target.dcache.repl = CITCAT_REPL_RANDOM;
	cc.uart_tx = discard;
	const uint32_t reset[2] = {cc.target.icache.seed, cc.target.dcache.seed};
	CHECK(reset[0] != 0 && reset[1] != 0); /* the seeds are the reset states */
	char cat[1024], oracle[1024], run[1024], cat0[1024], run0[1024];
	path(cat, "run.cat");
	path(oracle, "run.itrace");
	path(run, "run");
	path(cat0, "reset.cat");
	path(run0, "reset");
	struct citcat_capture_result cres;
	struct citcat_errinfo err;
	int rc = citcat_capture_run(&cc, argv[1], cat, oracle, &cres, &err);
	CHECK_EQ(rc, 0);
	if (rc) {
		fprintf(stderr, "capture: %s\n", err.msg);
		CHECK_DONE();
	}
	CHECK_EQ(cres.exit_code, 0);

	/* the trace module recorded the generators at P; the D-cache's had
	 * moved on during start-up (otherwise this test would prove nothing) */
	uint32_t at_p[2] = {0, 0};
	CHECK_EQ(read_sync(cat, at_p), 0);
	printf("replacement state at P: I 0x%08x, D 0x%08x (reset: 0x%08x, 0x%08x)\n", at_p[0], at_p[1], reset[0], reset[1]);
	CHECK(at_p[0] != 0 && at_p[1] != 0);
	CHECK(at_p[1] != reset[1]);

	/* carried into the IMS; the replay from it is exact */
	struct citcat_ims ims;
	extract(cat, run, &ims);
	CHECK(ims.repl_state[0] == at_p[0] && ims.repl_state[1] == at_p[1]);
	struct citcat_replay_result res;
	rc = replay(run, cat, oracle, &res, &err);
	CHECK_EQ(rc, 0);
	CHECK(!res.diverged && res.insns == cres.traced_insns && res.oracle_records >= res.insns);
	if (rc)
		fprintf(stderr, "replay: %s%s\n", res.diverged ? res.div.check : "", res.diverged ? "" : err.msg);
	uint64_t trace_id = ims.id.hash;
	citcat_ims_fini(&ims);

	/* the same capture as if the trace module had recorded the reset
	 * values (what a version-1 replay assumed): the bus trace diverges */
	CHECK_EQ(copy_cat(cat, cat0, reset), 0);
	extract(cat0, run0, &ims);
	CHECK(ims.repl_state[0] == reset[0] && ims.repl_state[1] == reset[1]);
	CHECK(ims.id.hash != trace_id); /* the trace id covers the states */
	citcat_ims_fini(&ims);
	rc = replay(run0, cat0, oracle, &res, &err);
	CHECK_EQ(rc, CITCAT_ERR_DIVERGED);
	CHECK(res.diverged && strcmp(res.div.check, "bus trace") == 0);
	if (res.diverged)
		printf("from the reset state: %s check at instruction #%llu: expected %s, found %s\n", res.div.check,
		       (unsigned long long)res.div.insn_index, res.div.expected, res.div.found);
	/* caches are invisible to the core: only the bus trace can tell */
	rc = replay(run0, NULL, oracle, &res, &err);
	CHECK_EQ(rc, 0);

	/* an IMS is refused against a CAT whose recorded states differ */
	rc = replay(run0, cat, NULL, &res, &err);
	CHECK_EQ(rc, CITCAT_ERR_CORRUPT);
	CHECK(strstr(err.msg, "is not the CAT") != NULL);
	CHECK_DONE();
}
