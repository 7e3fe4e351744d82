/* The native full instruction trace ("itrace").  Byte layout: ITRACE.md
 * beside this file.  Internal header: the whole API is public,
 * <citcat/itrace.h>. */
#ifndef CITCAT_ITRACE_H
#define CITCAT_ITRACE_H

#include <citcat/itrace.h>

#include "citcat.h"

/* Whether a new writer encodes on its own thread (formats/itrace.c, "the
 * encoder thread"); 0, the default, encodes on the caller's thread and leaves
 * LZ4 and the writes to the container's thread (cc_writer_threads).  The
 * encoder thread measured slower on a quiet 2-core machine (REPLAY.md), so
 * it is off; the bytes are the same either way. */
extern int itrace_encoder_thread;

/* A decoded block of instructions (the replayer's and the capture's struct
 * rblk, machine/replay_block.h) as itrace_write_blk reads it: N instructions
 * from PC, with the words WORD[0..N-1], of SIZE[I] bytes (2 or 4) in Thumb
 * state, or A32 (4 bytes each) when SIZE is NULL.  MEMO, when not NULL, is
 * the block's memo of the writer's word table: the writer's table epoch at
 * which it found every instruction of the block in the table (0 when the
 * block was decoded; the block's owner keeps it and must zero it whenever
 * the block's words change). */
struct itrace_blk {
	uint64_t pc;
	const uint32_t *word;
	const uint8_t *size;
	uint32_t n;
	uint64_t *memo;
};

/* Appends the records of B's instructions FROM..FROM+N-1, the first at PC,
 * without accesses: the same bytes, chunk boundaries and errors as N calls
 * of citcat_itrace_write, in one call (the block engines of replay and
 * capture hand over the access-free part of a run this way).  While B's
 * memo equals the writer's table epoch (none of the block's table entries
 * has been replaced since, and no chunk has started), each record that
 * follows the one before is the byte 0x00 (ITRACE.md) and the run is a
 * memset; after a run whose words were all in the table the writer checks
 * the whole block and sets the memo when it is.  Returns 0 or the first
 * record's error (the records before it are written). */
int itrace_write_blk(struct citcat_itrace_writer *w, const struct itrace_blk *b, uint64_t pc, uint32_t from, uint32_t n);

/* citcat_itrace_writer_open for the itrace of one segment of a
 * checkpointed run: SEG = the segment number K + 1 goes into the metadata
 * (ITRACE.md), so that merge can refuse segments given twice, out of order
 * or mixed with a whole run's itrace; SEG 0 is a whole run's; above 2^24 - 1
 * (metadata bytes 1..3) CITCAT_ERR_INVAL. */
int itrace_writer_open_segment(struct citcat_itrace_writer **w, const char *path, enum citcat_isa isa, uint32_t seg);
/* The segment number + 1 a reader's file carries, or 0. */
uint32_t itrace_reader_segment(const struct citcat_itrace_reader *r);

#endif
