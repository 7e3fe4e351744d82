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

#endif
