/* The asynchronous event schedule (AES).  Byte layout: AES.md beside this
 * file.  Internal header: the public API is <citcat/aes.h>; this adds the
 * raw-record access the benchmarks use, which is not exported. */
#ifndef CITCAT_AES_H
#define CITCAT_AES_H

#include <citcat/aes.h>

#include "citcat.h"
#include "ims.h"

/* The encoded bytes of the last record read (a repeat record for the first
 * copy of a run, nothing for the further copies), for per-kind size
 * accounting.  Valid until the next read. */
const uint8_t *citcat_aes_last_raw(const struct citcat_aes_reader *r, size_t *len);

#endif
