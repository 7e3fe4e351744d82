/* Shared by the bench/ library's sources; internal. */
#ifndef CITCAT_BENCH_INT_H
#define CITCAT_BENCH_INT_H

#include <stddef.h>

/* Copies the result SRC (OWN bytes, starting with its size_t size) into
 * DST, whose size member the caller set, keeping DST's size.  Returns 0,
 * or -1 when DST's size is below OWN (every result struct of bench.h is in
 * its first version, so that is a too small size). */
int bench_out_fill(void *dst, const void *src, size_t own);

#endif
