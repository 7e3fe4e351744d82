/* The replayer.  Internal header: the public API is <citcat/replay.h>.
 * (The benchmarks' bare baseline is cc_bare_run, bench/bench_bare.h.) */
#ifndef CITCAT_REPLAY_H
#define CITCAT_REPLAY_H

#include <citcat/replay.h>

#include "citcat.h"

/* Translations the block engine may make Unicorn redo before it opens a
 * new engine in the same state (replay.c blk_renew); tests lower it. */
extern unsigned replay_renew_after;
/* The instructions auto judges blocks over (replay.c blk_window), also
 * the first stretch the code hook over everything runs; tests shorten it
 * to make auto switch often. */
extern unsigned replay_auto_window;
/* The interrupts entered at a cut inside a block the first way (the engine
 * of blocks translates the block up to the cut) before the second engine
 * may open for them (replay.c blk_cut2); tests raise it. */
extern unsigned replay_cuts_open;

#endif
