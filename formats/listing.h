/* A readable text listing of an instruction trace, written by `citcat
 * convert RUN.itrace -o RUN.txt` (or --to text).  Meant for people: there is
 * no reader.  Layout, one line per record, after two '#' header lines:
 *
 *   instruction:  INDEX  PC  WORD  MNEMONIC OPERANDS  ACCESS  ACCESS ...
 *        9  000004a0  e5933000  ldr     r3, [r3]        R4 0x00001234 = 0x00000007
 *   interrupt:            --  interrupt line L, EPC 0xXXXXXXXX
 *   abnormal end:         --  fault at 0xPC: KIND, address 0xADDR
 *                         --  fault at 0xPC: KIND: HardFault FORCED PRECISERR, BFAR 0xADDR   (Cortex-M7)
 *                         --  wfi-deadlock at 0xPC
 *
 * INDEX counts instructions from 0 (interrupt entries take none); PC and
 * WORD are 8 hex digits; the disassembly is Capstone's (ARM mode), or
 * ".word 0x..." when it cannot decode the word; each access is R or W, its
 * size in bytes, the address and the value in 2*size hex digits, in program
 * order, starting at column 73 when the disassembly leaves room.  An
 * interrupt line sits between the last instruction before the interrupt and
 * the first of the handler, as in the itrace.
 *
 * With symbols (citcat_listing_set_symbols), a source line precedes each
 * instruction whose function or source line differs from the previous
 * listed instruction's (and the first one after a gap or an interrupt line):
 *
 *              ; FUNCTION+0xOFF (FILE:LINE)
 *
 * twelve spaces and "; ", then citcat_symbols_describe's text for its PC;
 * addresses no symbol or line covers get none.  The abnormal end's PC is
 * followed by that text too. */
#ifndef CITCAT_LISTING_H
#define CITCAT_LISTING_H

#include "itrace.h"

struct citcat_listing_writer;
struct citcat_symbols;

/* Opens PATH for the listing ("-" = standard output; NULL = in memory, see
 * cc_outfile).  The file appears only when citcat_listing_writer_close
 * succeeds.  ISA must be CITCAT_ISA_ARM_A32.  Returns 0, CITCAT_ERR_INVAL for
 * a bad argument, CITCAT_ERR_UNSUPPORTED when Capstone cannot be opened, or
 * an I/O error; ERR (may be NULL) gets the detail.  On failure *W is NULL. */
int citcat_listing_writer_open(struct citcat_listing_writer **w, const char *path, enum citcat_isa isa,
			       struct citcat_errinfo *err);
/* Appends the line(s) of one record.  Instructions are numbered from 0 in
 * the order written; interrupt entries do not take a number.  Returns 0 or an
 * error code (sticky; details in citcat_listing_writer_error). */
int citcat_listing_write(struct citcat_listing_writer *w, const struct citcat_itrace_rec *rec);
/* Completes the file and frees W.  Returns 0 or an error code (ERR gets the
 * detail); on failure no file is left. */
int citcat_listing_writer_close(struct citcat_listing_writer *w, struct citcat_errinfo *err);
/* Drops the listing being written and frees W.  Accepts NULL. */
void citcat_listing_writer_abort(struct citcat_listing_writer *w);
/* Adds the source lines described above from SYMS (not owned; must
 * outlive W; NULL turns them off). */
void citcat_listing_set_symbols(struct citcat_listing_writer *w, struct citcat_symbols *syms);
/* The Cortex-M7 fault status (citcat_itrace_m7_fault) the next STOP of
 * fault kind 11 names, instead of the exception number alone; NULL: none. */
void citcat_listing_set_m7_fault(struct citcat_listing_writer *w, const struct citcat_m7_fault *f);
/* Numbers the next instruction written INDEX (and the ones after it from
 * there), for listing a part of a trace with its own instruction numbers;
 * the next instruction also gets a source line. */
void citcat_listing_set_index(struct citcat_listing_writer *w, uint64_t index);
const struct citcat_errinfo *citcat_listing_writer_error(const struct citcat_listing_writer *w);

#endif
