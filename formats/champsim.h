/* ChampSim trace export: one 64-byte `input_instr` record per retired
 * instruction of an itrace, ARM registers mapped as ChampSim's converters do
 * for non-x86 traces.  Byte layout and mapping: CHAMPSIM.md beside this
 * file. */
#ifndef CITCAT_CHAMPSIM_H
#define CITCAT_CHAMPSIM_H

#include "citcat.h"
#include "itrace.h"

#define CITCAT_CHAMPSIM_REC 64 /* bytes per record */

/* ChampSim's special register numbers (its inc/trace_instruction.h). */
#define CITCAT_CHAMPSIM_REG_SP 6
#define CITCAT_CHAMPSIM_REG_FLAGS 25
#define CITCAT_CHAMPSIM_REG_IP 26

struct citcat_champsim_stats {
	uint64_t records;      /* instructions written */
	uint64_t branches;     /* of which is_branch */
	uint64_t taken;        /* of which branch_taken */
	uint64_t irqs;         /* interrupt entries (no record of their own) */
	uint64_t mem_dropped;  /* memory operands beyond 4 sources / 2 destinations, or at address 0 */
	uint64_t reg_dropped;  /* register operands beyond 4 sources / 2 destinations */
};

struct citcat_champsim_writer;

/* Opens PATH ("-" = stdout) through cc_outfile; XZ: compress the records
 * with liblzma (an .xz stream, as ChampSim reads).  UNCACHED: give uncached
 * (device) accesses memory operands too (by default they are left out, as
 * in din).  Returns 0 or an error code, with details in *ERR (may be NULL). */
int citcat_champsim_writer_open(struct citcat_champsim_writer **w, const char *path, int xz, int uncached,
				struct citcat_errinfo *err);
/* Takes the itrace's records in order: instructions, interrupt entries
 * (which decide whether the instruction before them branched), DMA
 * records (ignored) and an abnormal end (the STOP of a crashed run: no
 * record of its own; its PC is the last instruction's successor when it
 * is not that instruction, as for a fetch fault).  A record is written one instruction late, when the
 * next PC is known.  Returns 0 or an error code (sticky). */
int citcat_champsim_write(struct citcat_champsim_writer *w, const struct citcat_itrace_rec *rec);
/* Writes the last record, completes the file and frees W.  Returns 0 or an
 * error (details in *ERR; the output is then removed). */
int citcat_champsim_writer_close(struct citcat_champsim_writer *w, struct citcat_errinfo *err);
/* Drops the output; frees W.  Accepts NULL. */
void citcat_champsim_writer_abort(struct citcat_champsim_writer *w);
const struct citcat_errinfo *citcat_champsim_writer_error(const struct citcat_champsim_writer *w);
const struct citcat_champsim_stats *citcat_champsim_writer_stats(const struct citcat_champsim_writer *w);

/* Encodes one instruction (REC, an instruction record) whose successor is
 * at NEXT_PC (HAVE_NEXT 0: the trace ends after it) into the 64 bytes at
 * OUT.  Exposed for tests; D is the shared ARM decoder. */
struct armdec;
void citcat_champsim_encode(struct armdec *d, const struct citcat_itrace_rec *rec, int have_next, uint64_t next_pc,
			    int uncached, uint8_t out[CITCAT_CHAMPSIM_REC], struct citcat_champsim_stats *st);

#endif
