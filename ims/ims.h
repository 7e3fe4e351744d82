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

#endif
