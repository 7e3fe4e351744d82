/* citcat merge: joins the itraces of consecutive segments of a checkpointed
 * run by splicing their chunks (replay/SEGMENTS.md "Merge", ITRACE.md
 * "Chunks").  Internal: <citcat/itrace.h>'s citcat_itrace_merge wraps it. */
#ifndef CITCAT_ITRACE_MERGE_H
#define CITCAT_ITRACE_MERGE_H

#include "citcat.h"

struct itrace_merge_result {
	uint64_t records, chunks;
	uint64_t checked; /* records decoded by the CHECK pass (0 without it) */
};

/* Writes OUT: the header of IN[0] (itrace version 3, every input's
 * metadata the same), every chunk of IN[0], IN[1], ... copied as stored,
 * and an end marker with the totals.  No record is re-encoded; each chunk's
 * header and checksum and each input's end marker are checked as read.  At
 * each seam, the first and last chunks are decoded to check continuity: the
 * earlier input ends with the record of a checkpoint's INV_I store (where a
 * segment ends, replay/SEGMENTS.md) and not with an abnormal end, and the
 * later one's first instruction is at the PC that follows it.  With CHECK,
 * every input is also decoded record by record (citcat_itrace_next).  The
 * segment numbers in the inputs' metadata (ITRACE.md) must be all zero or
 * all set, each one more than the one before: a segment given twice, out
 * of order, or beside a whole run's itrace is refused.  STOP,
 * when not NULL, is polled once per chunk; 1 stops with
 * CITCAT_ERR_INTERRUPTED.  Returns 0 or an error in ERR with *ERR_INPUT the
 * index of the input it is about (NIN: the output).  On error OUT is not
 * left behind. */
int itrace_merge(const char *const *in, size_t nin, const char *out, int check, int (*stop)(void *), void *stop_ctx,
		 struct itrace_merge_result *res, struct citcat_errinfo *err, size_t *err_input);

#endif
