/* The replayer.  Internal header: the public API is <citcat/replay.h>.
 * (The benchmarks' bare baseline is cc_bare_run, capture/bench_bare.h.) */
#ifndef CITCAT_REPLAY_H
#define CITCAT_REPLAY_H

#include <citcat/replay.h>

#include "citcat.h"

#endif
