/* The native full instruction trace ("itrace").  Byte layout: ITRACE.md
 * beside this file.  Internal header: the whole API is public,
 * <citcat/itrace.h>. */
#ifndef CITCAT_ITRACE_H
#define CITCAT_ITRACE_H

#include <citcat/itrace.h>

#include "citcat.h"

#endif
