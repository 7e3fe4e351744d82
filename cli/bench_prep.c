/* The benchmarks' shared set-up (bench_prep.h). */
#include "bench_prep.h"
#include "bench_bare.h"
#include "cli.h"
#include "elfprofile.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

static void discard(void *ctx, uint8_t b) {}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void bench_prep_init(struct bench_prep *p, const char *dir, int (*progress)(void *ctx, uint64_t insns))
{
	memset(p, 0, sizeof *p);
	snprintf(p->cat, sizeof p->cat, "%s/run.cat", dir);
	snprintf(p->ims, sizeof p->ims, "%s/run.ims", dir);
	snprintf(p->aes, sizeof p->aes, "%s/run.aes", dir);
	snprintf(p->itr, sizeof p->itr, "%s/run.itrace", dir);
	snprintf(p->orc, sizeof p->orc, "%s/oracle.itrace", dir);
	citcat_capture_config_default(&p->cfg);
	p->cfg.engine = CITCAT_CAPTURE_ENGINE_INSN; /* the insn phases; bench_run.c times the block engine */
	p->cfg.target.seed = 1;
	p->cfg.uart_tx = discard;
	p->cfg.progress = progress;
}

void bench_prep_remove(const struct bench_prep *p)
{
	remove(p->cat);
	remove(p->orc);
	remove(p->ims);
	remove(p->aes);
	remove(p->itr);
}

int bench_prepare(struct bench_prep *p, const char *elf)
{
	struct citcat_errinfo err;
	struct cc_capture_bench b = {.run_seconds = &p->cap_run_s};
	if (cc_elf_arm_profile(elf) == 'M') /* the target from the ELF, as citcat capture chooses it */
		p->cfg.target.isa = CITCAT_TARGET_CORTEX_M7;
	if (cc_capture_run_bench(&p->cfg, &b, elf, p->cat, NULL, &p->cap, &err))
		return cli_errinfo(elf, &err);
	if (!p->cap.traced) {
		bench_prep_remove(p);
		return 1;
	}
	struct citcat_ims ims;
	struct citcat_ims_stats ist;
	double t0 = now_s();
	if (citcat_ims_extract(p->cat, &ims, &ist, NULL, NULL, &err)) {
		cli_errinfo(p->cat, &err);
		goto fail;
	}
	p->dev_base = ims.cfg.dev_base;
	int wrc = citcat_ims_write(&ims, p->ims, &err);
	citcat_ims_fini(&ims);
	if (wrc) {
		cli_errinfo(p->ims, &err);
		goto fail;
	}
	p->ims_s = now_s() - t0;
	t0 = now_s();
	if (citcat_aes_extract(p->cat, p->aes, &p->aes_stats, NULL, NULL, &err)) {
		cli_errinfo(p->cat, &err);
		goto fail;
	}
	p->aes_s = now_s() - t0;
	return 0;
fail:
	bench_prep_remove(p);
	return EXIT_USAGE;
}
