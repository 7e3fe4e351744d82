/* libcitcat public API: per-line and per-function profiles of a run, written
 * in valgrind's callgrind format, which callgrind_annotate and KCachegrind
 * read.  Byte layout and what each event counts: formats/CALLGRIND.md.
 *
 * A profile is fed a replay as it runs: the regenerated bus events
 * (citcat_replay_config.bus: line fills, write-backs, DMA) and the
 * instruction trace's records (citcat_replay_observer.record), in the order
 * the replay hands them out (an instruction's own bus events come before its
 * record).  Each instruction's costs go to its source line in the innermost
 * function it executes in, inlined ones included (DWARF, elfutils' libdw);
 * calls and returns (BL/BLX to a target, back to the return address) and
 * interrupt or exception entries (back to their return address) become call
 * edges with inclusive costs, and so does each entry into an inlined copy of
 * a function.  Memory grows with the firmware's code (one entry per
 * instruction address, function and line), never with the trace's length. */
#ifndef CITCAT_PUBLIC_PROFILE_H
#define CITCAT_PUBLIC_PROFILE_H

#include <citcat/base.h>
#include <citcat/cat.h>
#include <citcat/itrace.h>
#include <citcat/target.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The events, in the order of the file's "events:" line (CALLGRIND.md). */
enum citcat_profile_event {
	CITCAT_PROF_IR = 0,   /* Ir: instructions retired */
	CITCAT_PROF_DR,       /* Dr: cacheable data reads of the instruction */
	CITCAT_PROF_DW,       /* Dw: cacheable data writes */
	CITCAT_PROF_I1MR,     /* I1mr: I-cache line fills of its fetch */
	CITCAT_PROF_D1MR,     /* D1mr: D-cache line fills caused by a read */
	CITCAT_PROF_D1MW,     /* D1mw: D-cache line fills caused by a write (write-allocate) */
	CITCAT_PROF_D1WB,     /* D1wb: dirty lines written back (evicted, or snooped by DMA) */
	CITCAT_PROF_UR,       /* Ur: uncached (device) reads */
	CITCAT_PROF_UW,       /* Uw: uncached (device) writes */
	CITCAT_PROF_DMA,      /* DMA: DMA transfers at the boundary before the instruction */
	CITCAT_PROF_EVENTS
};

struct citcat_profile;

/* Opens a profile of a run of the firmware ELF_PATH (its symbols and DWARF
 * line and inline information), on the target CFG (may be NULL: its caches
 * are then not described in the file).  Returns 0, CITCAT_ERR_INVAL (NULL P
 * or ELF_PATH), _NOMEM, or the symbolizer's error (_IO, _MAGIC, _EMPTY,
 * _CORRUPT); ERR (may be NULL) gets the detail.  On failure *P is NULL. */
CITCAT_API int citcat_profile_open(struct citcat_profile **p, const char *elf_path,
				   const struct citcat_target_config *cfg, struct citcat_errinfo *err);
/* One regenerated bus event (FILL_I, FILL_D, WRITEBACK, DMA count; others
 * are ignored).  Returns 0, or CITCAT_ERR_INVAL for NULL arguments. */
CITCAT_API int citcat_profile_bus(struct citcat_profile *p, const struct citcat_cat_event *ev);
/* One itrace record (instructions and interrupt or exception entries; DMA
 * and STOP records are ignored).  Returns 0, CITCAT_ERR_INVAL (NULL
 * arguments) or CITCAT_ERR_NOMEM. */
CITCAT_API int citcat_profile_record(struct citcat_profile *p, const struct citcat_itrace_rec *rec);
/* The run's totals so far, per event (CITCAT_PROF_EVENTS values).  Returns
 * 0, or CITCAT_ERR_INVAL for NULL arguments. */
CITCAT_API int citcat_profile_totals(const struct citcat_profile *p, uint64_t *totals);
/* Ends the run (calls still open count up to here) and writes the profile
 * to PATH ("-" = stdout) in callgrind format, with CMD as its "cmd:" line
 * (may be NULL).  The file appears only when complete.  Returns 0, or
 * CITCAT_ERR_INVAL, _NOMEM, _IO; ERR (may be NULL) gets the detail.  Call
 * it once. */
CITCAT_API int citcat_profile_write(struct citcat_profile *p, const char *path, const char *cmd,
				    struct citcat_errinfo *err);
/* Frees P.  Accepts NULL. */
CITCAT_API void citcat_profile_close(struct citcat_profile *p);

#ifdef __cplusplus
}
#endif

#endif
