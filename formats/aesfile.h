/* The AES file format (AES.md beside this file): its reader and writer.
 * Internal header: the public API is <citcat/aes.h>; this adds the
 * raw-record access the benchmarks use, which is not exported.  The
 * extraction that builds an AES from a CAT is aes/ (aes.h). */
#ifndef CITCAT_AESFILE_H
#define CITCAT_AESFILE_H

#include <citcat/aes.h>

#include "citcat.h"

/* The file's magic (AES.md), of a single AES and of a segment bundle. */
#define CITCAT_AES_MAGIC "CAES\r\n\x1a\n"

/* The encoded bytes of the last record read (a repeat record for the first
 * copy of a run, nothing for the further copies), for per-kind size
 * accounting.  Valid until the next read. */
const uint8_t *citcat_aes_last_raw(const struct citcat_aes_reader *r, size_t *len);

/* The target's ISA from the metadata (AES.md): 1 ARM (A32/Thumb; every
 * version 1 and 2 file), 2 the Cortex-M7, whose IRQ records carry an
 * exception number in LINE.  0 for NULL. */
uint32_t citcat_aes_isa(const struct citcat_aes_reader *r);

/* citcat_aes_reader_open_segment over LEN bytes at BUF (the fuzz targets). */
int citcat_aes_reader_open_segment_mem(struct citcat_aes_reader **r, const void *buf, size_t len, uint64_t segment);

/* The exception numbers an M7 IRQ record may carry (AES.md): 2..47. */
#define CITCAT_AES_M7_EXC_MIN 2
#define CITCAT_AES_M7_EXC_MAX 47

#endif
