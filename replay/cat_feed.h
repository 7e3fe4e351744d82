/* The --verify CAT, read, decoded and hashed ahead of the replay
 * (REPLAY.md "session 11: --verify").
 *
 * A feed owns a CAT reader and hands its events out one at a time, each
 * with the state of the trace id's bookkeeping after it (IMS.md: the trace
 * id hashes the events from SYNC to STOP, or, for segment K, from its start
 * marker to the next one).  With a reader thread (the default, when the
 * thread can be started) the decoding, the decompression and the chained
 * XXH64 run beside the replay, into a bounded ring of batches; the consumer
 * sees exactly the sequence of results the reader gives inline: the same
 * events in the same order, an error (or the end) at the same position,
 * after every event before it, and nothing after it.  So a divergence the
 * replay finds before the reader's error position still wins, as inline. */
#ifndef CITCAT_REPLAY_CAT_FEED_H
#define CITCAT_REPLAY_CAT_FEED_H

#include "citcat/cat.h"

#include <stdint.h>

/* Whether feeds opened from now on read on a second thread (1, the default)
 * or inline (0).  The results are the same either way; tests and benchmarks
 * switch it to compare. */
extern int cat_feed_thread;

/* The trace id's inputs, final once an event with STOPPED set was handed
 * out (citcat_trace_id_make). */
struct cat_feed_id {
	uint64_t hash, insns, bcount;
	uint32_t start;
};

struct cat_feed;

/* Takes over the open reader R (closed by cat_feed_close, also on failure)
 * and feeds segment SEG's slice (SEG >= 0: from its start marker to the
 * next one; SEG > 0 seeks there first when the file can: CAT.md version 6)
 * or the whole trace (SEG < 0).  Returns 0 or CITCAT_ERR_NOMEM (then *F is
 * NULL and R closed). */
int cat_feed_open(struct cat_feed **f, struct citcat_cat_reader *r, int64_t seg);
/* The same, on a reader thread only when THREAD (and cat_feed_thread) is
 * non-zero: the replay's model thread reads the CAT inline (REPLAY.md
 * "session 12: the model thread"). */
int cat_feed_open_ex(struct cat_feed **f, struct citcat_cat_reader *r, int64_t seg, int thread);
/* The next event: returns 1 and points *EV at it (valid until the next
 * call; with SEG > 0 the branch counts of IRQ, EXC and DMA events are
 * relative to the segment's start, as its AES counts them), or the reader's
 * 0 (end of file) or error, again at every later call.  Updates *SYNCED
 * and *STOPPED (the start of the trace or segment, its end, read). */
int cat_feed_next(struct cat_feed *f, const struct citcat_cat_event **ev, int *synced, int *stopped);
/* The trace id's inputs (valid once STOPPED was reported). */
const struct cat_feed_id *cat_feed_id(const struct cat_feed *f);
/* The reader, for its configuration and its error (after cat_feed_next
 * returned the error).  Owned by F. */
struct citcat_cat_reader *cat_feed_reader(const struct cat_feed *f);
/* Stops the thread, closes the reader, frees F.  Accepts NULL. */
void cat_feed_close(struct cat_feed *f);

#endif
