/* The initial machine state (IMS): its extraction from a CAT, and the
 * public reader and writer calls, which check a Cortex-M7 checkpoint's SCS
 * slots against the exception model.  Byte layout and reader: IMS.md and
 * imsfile.h in formats/.  Internal header: the public API is <citcat/ims.h>
 * (and the trace id, <citcat/trace_id.h>). */
#ifndef CITCAT_IMS_H
#define CITCAT_IMS_H

#include <citcat/ims.h>
#include <citcat/trace_id.h>

#include "armcore.h"
#include "cat.h"
#include "citcat.h"
#include "image.h"
#include "imsfile.h" /* the file format: metadata size, M7 slots, the reader under a given check */

#endif
