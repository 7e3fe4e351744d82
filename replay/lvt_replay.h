/* The LVT decoder (the software debugger of figure 3 of the data-trace-
 * filtering paper): regenerates the complete instruction trace of a traced
 * interval from the first-access load-value trace and the program binary
 * alone, with a Unicorn ISS and a software D-cache carrying the same
 * first-access flags as the trace module's (machine/fa.h).  See
 * replay/REPLAY.md, "The LVT decoder".  Its configuration and entry points
 * are public: citcat_lvt_replay_config, citcat_lvt_replay_config_default
 * and citcat_lvt_replay_run in <citcat/replay.h>. */
#ifndef CITCAT_LVT_REPLAY_H
#define CITCAT_LVT_REPLAY_H

#include "replay.h"

#endif
