/* The LVT decoder (the software debugger of figure 3 of the data-trace-
 * filtering paper): regenerates the complete instruction trace of a traced
 * interval from the first-access load-value trace and the program binary
 * alone, with a Unicorn ISS and a software D-cache carrying the same
 * first-access flags as the trace module's (machine/fa.h).  See
 * replay/REPLAY.md, "The LVT decoder". */
#ifndef CITCAT_LVT_REPLAY_H
#define CITCAT_LVT_REPLAY_H

#include "replay.h"

struct citcat_lvt_replay_config {
	size_t size;            /* sizeof(struct citcat_lvt_replay_config) */
	const char *lvt_path;   /* required */
	const char *image_path; /* the firmware ELF, required: code only is taken from it */
	const char *out_path;   /* regenerated itrace, or NULL */
	const char *oracle;     /* ground-truth itrace to compare with, or NULL */
	/* Called about every million instructions; non-zero stops the run. */
	int (*progress)(void *ctx, uint64_t insns, uint64_t total);
	void *progress_ctx;
};

void citcat_lvt_replay_config_default(struct citcat_lvt_replay_config *c);

/* Runs the decoder.  Returns 0 when the interval was regenerated and every
 * check held (RES->insns instructions; RES->oracle_records compared);
 * CITCAT_ERR_DIVERGED when a check failed (RES->div says where: the
 * instruction index, branch count and PC; no output file is left); another
 * error for unusable input (ERR says which file, RES->err_path names it, and
 * where). */
int citcat_lvt_replay_run(const struct citcat_lvt_replay_config *cfg, struct citcat_replay_result *res,
			  struct citcat_errinfo *err);

#endif
