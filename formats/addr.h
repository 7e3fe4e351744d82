/* Address traces: Dinero text (din, xdin), PDATS and PDATS II.
 *
 * All four formats carry the same thing, a sequence of memory references
 * (type + address, and for xdin a size), so they share one reader and one
 * writer handle; the format is chosen when the handle is opened.  Byte
 * layouts: DIN.md, PDATS.md and PDATS2.md beside this file.
 *
 * Streaming: a reader hands out one reference per call into caller memory
 * and a writer takes one reference per call; memory stays bounded (a few
 * 64 KiB buffers) whatever the length of the trace.
 *
 * Errors: functions return 0 / 1 or a negative citcat_err; the details
 * (code, byte offset, message) are in the handle's citcat_errinfo.  For a
 * file wrapped in an LZ4 frame, offsets count bytes of the unwrapped
 * stream. */
#ifndef CITCAT_ADDR_H
#define CITCAT_ADDR_H

/* Internal header: the whole API is public, <citcat/addr.h>. */
#include <citcat/addr.h>

#include "citcat.h"

#endif
