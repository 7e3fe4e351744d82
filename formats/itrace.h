/* The native full instruction trace ("itrace").  Byte layout: ITRACE.md
 * beside this file.  Internal header: the whole API is public,
 * <citcat/itrace.h>. */
#ifndef CITCAT_ITRACE_H
#define CITCAT_ITRACE_H

#include <citcat/itrace.h>

#include "citcat.h"

/* Whether a new writer encodes on its own thread (formats/itrace.c, "the
 * encoder thread"); 0, the default, encodes on the caller's thread and leaves
 * LZ4 and the writes to the container's thread (cc_writer_threads).  The
 * encoder thread measured slower on a quiet 2-core machine (REPLAY.md), so
 * it is off; the bytes are the same either way. */
extern int itrace_encoder_thread;

/* Appends N A32 instruction records without accesses, at PC, PC + 4, ...,
 * with the words WORDS[0..N-1]: the same bytes, chunk boundaries and
 * errors as N calls of citcat_itrace_write, in one call (the replayer's
 * block engine hands over the access-free part of a run this way, session
 * 11).  Returns 0 or the first call's error (the records before it are
 * written). */
int itrace_write_a32_seq(struct citcat_itrace_writer *w, uint64_t pc, const uint32_t *words, uint32_t n);
/* The same for N Thumb instruction records without accesses: record I has
 * WORDS[I] and SIZES[I] (2 or 4) bytes, at PC plus the sizes before it. */
int itrace_write_t32_seq(struct citcat_itrace_writer *w, uint64_t pc, const uint32_t *words, const uint8_t *sizes,
			 uint32_t n);

#endif
