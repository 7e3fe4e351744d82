/* The replayer.  Internal header: the public API is <citcat/replay.h>;
 * this adds the benchmark baseline, which is not exported. */
#ifndef CITCAT_REPLAY_H
#define CITCAT_REPLAY_H

#include <citcat/replay.h>

#include "citcat.h"

/* Benchmark baseline: the IMS's code on bare Unicorn (no hooks) for INSNS
 * instructions from the trace start point; returns seconds, or < 0 (ERR
 * says why, e.g. the run stopped early).  With AES_PATH (may be NULL),
 * device reads return the schedule's input and counter values in order, so
 * the path is the recorded one until the first interrupt or DMA transfer
 * matters; interrupts and DMA are never applied, and a WFI is a NOP. */
double citcat_replay_bare_seconds(const char *ims_path, const char *aes_path, uint64_t insns,
				  struct citcat_errinfo *err);

#endif
