/* libcitcat: constructing instruction traces from cache-filtered address
 * traces.  The umbrella header of the public API: include this one.
 *
 *   base.h      status codes, struct citcat_errinfo, conventions, version
 *   target.h    the modelled target's configuration
 *   cat.h       the cache-filtered address trace (CAT): reader and writer
 *   itrace.h    the full instruction trace: reader and writer
 *   trace_id.h  the id of a traced interval
 *   image.h     sparse memory images (firmware code)
 *   ims.h       the initial machine state: extraction, reader and writer
 *   aes.h       the asynchronous event schedule: extraction, reader, writer
 *   addr.h      address traces: Dinero din/xdin, PDATS, PDATS II
 *   sdclsp.h    SDC-LSP program-flow streams: encoder and decoder
 *   capture.h   running firmware on the modelled target, recording the CAT
 *   replay.h    regenerating and verifying the instruction trace
 *   cursor.h    a replayed run positioned at any instant, forwards and backwards
 *   gdbserver.h GDB's remote serial protocol over a cursor (citcat gdb)
 *   profile.h   per-line profiles of a replayed run in callgrind format
 *   wet.h       whole execution traces: build one while replaying, query it
 *
 * Link with `pkg-config --cflags --libs citcat` or, in CMake,
 * find_package(citcat) and target_link_libraries(... citcat::citcat). */
#ifndef CITCAT_PUBLIC_CITCAT_H
#define CITCAT_PUBLIC_CITCAT_H

#include <citcat/base.h>
#include <citcat/target.h>
#include <citcat/cat.h>
#include <citcat/itrace.h>
#include <citcat/trace_id.h>
#include <citcat/image.h>
#include <citcat/ims.h>
#include <citcat/aes.h>
#include <citcat/addr.h>
#include <citcat/sdclsp.h>
#include <citcat/capture.h>
#include <citcat/replay.h>
#include <citcat/lvt.h>
#include <citcat/disasm.h>
#include <citcat/listing.h>
#include <citcat/cursor.h>
#include <citcat/gdbserver.h>
#include <citcat/profile.h>
#include <citcat/wet.h>
#include <citcat/io.h>
#include <citcat/escape.h>
#include <citcat/symbols.h>
#include <citcat/bench.h>

#endif
