/* The initial machine state (IMS).  Byte layout: IMS.md beside this file.
 * Internal header: the public API is <citcat/ims.h> (and the trace id,
 * <citcat/trace_id.h>); this adds the metadata size and the register-slot
 * names of the ARM core. */
#ifndef CITCAT_IMS_H
#define CITCAT_IMS_H

#include <citcat/ims.h>
#include <citcat/trace_id.h>

#include "armcore.h"
#include "cat.h"
#include "citcat.h"
#include "image.h"

/* Bytes of IMS metadata (IMS.md). */
#define CITCAT_IMS_META_LEN (CITCAT_TARGET_META_LEN + 20 + 4 * ARM_SLOTS + 8)

/* Streams an IMS without loading its memory: reads and checks the metadata
 * into IMS (whose MEMORY stays NULL), then calls RUN with each memory run in
 * file order (DATA valid during the call).  A negative code from RUN
 * stops the read and is returned (ERR then names the run's position).
 * Memory stays bounded by one chunk. */
typedef int (*citcat_ims_run_fn)(void *ctx, uint64_t addr, const uint8_t *data, size_t n);
int citcat_ims_read_runs(const char *path, struct citcat_ims *ims, citcat_ims_run_fn run, void *ctx,
			 struct citcat_errinfo *err);
#endif
