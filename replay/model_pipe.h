/* The replay's memory-system model on a second thread (REPLAY.md "session
 * 12: the model thread", "session 13").
 *
 * The replay's thread drives its struct bus in BUS_LOG mode (machine/bus.h):
 * every call that would reach the model becomes one or a few 8-byte slots
 * in a batch (model_pipe.c has the layout).  Full batches go through a
 * bounded ring (MODEL_PIPE_NBATCH batches of MODEL_PIPE_SLOTS slots) to a
 * consumer thread, which makes the same
 * calls in the same order on a second struct bus in BUS_MODEL mode, whose
 * sink compares with the CAT.  That bus has its own copy of RAM, kept as
 * the replay's RAM was at each call: the stores the slots carry are written
 * into it after their call, as Unicorn writes after its memory hook, and
 * bus_dma writes its bytes as inline.  Internal to replay/. */
#ifndef CITCAT_REPLAY_MODEL_PIPE_H
#define CITCAT_REPLAY_MODEL_PIPE_H

#include "bus.h"

#define MODEL_PIPE_SLOTS 8192 /* 64 KiB a batch */
#define MODEL_PIPE_NBATCH 8

struct model_pipe;

/* Runs made again inline after the thread found a difference or the CAT's
 * error (replay.c; for tests: tests/test_model_thread.c). */
extern unsigned long model_pipe_redos;

/* Starts the consumer thread.  PROD (the replay's bus) is switched to
 * BUS_LOG, writing nothing while *HALT is non-zero; CONS (BUS_MODEL, its
 * RAM the copy, no code_changed) is driven by the thread.  Once the
 * consumer has stopped (model_pipe_fail), the next hand-over calls
 * STOPPED(CTX) on the producer's thread and later slots are dropped.
 * Returns 0, or CITCAT_ERR_NOMEM / CITCAT_ERR_UNSUPPORTED (no thread: PROD
 * is left as it was, the caller drives its model inline). */
int model_pipe_start(struct model_pipe **mp, struct bus *prod, struct bus *cons, const int *halt,
		     void (*stopped)(void *ctx), void *ctx);

/* From CONS's sink, on the consumer's thread: the model's output differs
 * from the recording (or the CAT cannot be read); the consumer stops. */
void model_pipe_fail(struct model_pipe *mp);

/* Hands the last batch over, waits for the consumer to finish it, joins
 * and frees.  Returns 1 when the consumer stopped (model_pipe_fail), else
 * 0.  Accepts NULL (returns 0). */
int model_pipe_finish(struct model_pipe *mp);

#endif
