/* The set-up that citcat bench all/capture (bench_run.c) and bench replay
 * (bench_replay.c) share: capture a firmware (seed 1, UART output
 * discarded) to a CAT in a directory, then extract its IMS and AES there.
 * Benchmarks only; internal to the CLI. */
#ifndef CITCAT_BENCH_PREP_H
#define CITCAT_BENCH_PREP_H

#include "aes.h"
#include "capture.h"
#include "ims.h"

struct bench_prep {
	char cat[600], ims[600], aes[600], itr[600], orc[600]; /* paths in the directory */
	struct citcat_capture_config cfg; /* the capture's configuration (reusable for more captures) */
	struct citcat_capture_result cap; /* the CAT capture */
	double cap_run_s;                 /* its run loop alone */
	uint32_t dev_base;                /* of the IMS's target */
	double ims_s, aes_s;              /* extraction times */
	struct citcat_aes_stats aes_stats;
};

/* Names the files of P in DIR and fills its capture configuration
 * (PROGRESS may be NULL). */
void bench_prep_init(struct bench_prep *p, const char *dir, int (*progress)(void *ctx, uint64_t insns));

/* Captures ELF to P's CAT, then (when the run was traced) extracts the IMS
 * and AES next to it.  Returns 0; 1 when the firmware never starts tracing
 * (nothing left behind); or an exit code after printing the error.  On
 * failure the files made so far are removed (bench_prep_remove). */
int bench_prepare(struct bench_prep *p, const char *elf);

/* Removes every file of P (those that exist). */
void bench_prep_remove(const struct bench_prep *p);

#endif
