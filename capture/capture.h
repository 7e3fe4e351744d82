/* The modelled target (TARGET.md) and its trace module.  Internal header:
 * the public API is <citcat/capture.h>; this adds the benchmark baselines,
 * which are not exported. */
#ifndef CITCAT_CAPTURE_H
#define CITCAT_CAPTURE_H

#include <citcat/capture.h>

#include "cat.h"
#include "lvt.h"

/* What only benchmarks ask of a capture. */
struct cc_capture_bench {
	int bare; /* baseline: plain Unicorn, no hooks, no caches, no trace, for CFG->max_insns */
	/* With an LVT: receives every load value of the traced interval (the
	 * unfiltered load-value trace). */
	void (*lvt_raw)(void *ctx, const uint8_t *bytes, unsigned n);
	void *lvt_raw_ctx;
	/* When not NULL: receives the seconds spent inside uc_emu_start (and
	 * the hooks it calls), without loading, set-up and closing files. */
	double *run_seconds;
};

/* citcat_capture_run with the benchmark options B (NULL: none). */
int cc_capture_run_bench(const struct citcat_capture_config *cfg, const struct cc_capture_bench *b, const char *elf,
			 const char *cat_path, const char *oracle_path, struct citcat_capture_result *res,
			 struct citcat_errinfo *err);

#endif
