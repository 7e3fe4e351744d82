/* Shared by the bench/ library's sources; internal. */
#ifndef CITCAT_BENCH_INT_H
#define CITCAT_BENCH_INT_H

#include <stddef.h>
#include <citcat/base.h>

/* Copies the result SRC (OWN bytes, starting with its size_t size) into
 * DST, whose size member the caller set, keeping DST's size.  Returns 0,
 * or -1 when DST's size is below OWN (every result struct of bench.h is in
 * its first version, so that is a too small size). */
int bench_out_fill(void *dst, const void *src, size_t own);

/* CLOCK_MONOTONIC in seconds: the wall clock every timed phase reads. */
double bench_now(void);

/* Copies the error E of a reader, writer or decoder into DST (may be NULL)
 * and returns its code (CITCAT_ERR_IO when it has none); a NULL E (the
 * object could not be allocated) is CITCAT_ERR_NOMEM, "out of memory". */
int bench_errinfo_copy(struct citcat_errinfo *dst, const struct citcat_errinfo *e);

#endif
