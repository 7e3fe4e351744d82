/* Internal to the replayers (replay.c, lvt_replay.c): not installed. */
#ifndef CITCAT_REPLAY_INT_H
#define CITCAT_REPLAY_INT_H

#include "replay.h"

#include <stdarg.h>
#include <stdint.h>
#include <time.h>

/* Fills D with a divergence found at instruction INDEX (branch count BCOUNT,
 * PC): the check, the expected text, FOUND_FMT formatted with AP, and the
 * last min(INSNS, CITCAT_REPLAY_HISTORY) instructions from the ring
 * HIST_PC/HIST_WORD, indexed by instruction number modulo its size. */
void replay_divergence_fill(struct citcat_divergence *d, const char *check, uint64_t index, uint64_t bcount,
			    uint32_t pc, const char *expected, uint64_t insns, const uint32_t *hist_pc,
			    const uint32_t *hist_word, const char *found_fmt, va_list ap);

/* The instruction-trace check: RC is what citcat_itrace_next returned for
 * the oracle's next record WANT (1 a record, 0 its end), GOT the regenerated
 * record.  Returns 0 when they are equal; otherwise 1 with both described
 * in WANT_TEXT and GOT_TEXT for the divergence report. */
int replay_oracle_differs(int rc, const struct citcat_itrace_rec *want, const struct citcat_itrace_rec *got,
			  char want_text[200], char got_text[200]);

/* Monotonic seconds, for the result's run time. */
static inline double replay_now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

#endif
