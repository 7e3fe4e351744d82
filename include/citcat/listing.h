/* libcitcat public API: a readable text listing of an instruction trace,
 * as `citcat convert RUN.itrace -o RUN.txt` (or --to text) writes it.  Meant for people: there is
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
#ifndef CITCAT_PUBLIC_LISTING_H
#define CITCAT_PUBLIC_LISTING_H

#include <citcat/base.h>
#include <citcat/itrace.h>
#include <citcat/target.h>

#ifdef __cplusplus
extern "C" {
#endif

struct citcat_listing_writer;
struct citcat_symbols;

/* Opens PATH for the listing ("-" = standard output).  The file appears
 * only when citcat_listing_writer_close succeeds.  ISA is
 * CITCAT_ISA_ARM_A32 (A32 and Thumb records) or CITCAT_ISA_ARMV7M.
 * Returns 0, CITCAT_ERR_INVAL for a NULL W, CITCAT_ERR_UNSUPPORTED for
 * another ISA or when Capstone cannot be opened, or an I/O error; ERR (may
 * be NULL) gets the detail.  On failure *W is NULL. */
CITCAT_API int citcat_listing_writer_open(struct citcat_listing_writer **w, const char *path, enum citcat_isa isa,
					  struct citcat_errinfo *err);
/* Appends the line(s) of one record.  Instructions are numbered from 0 in
 * the order written; interrupt entries do not take a number.  Returns 0,
 * CITCAT_ERR_INVAL for a NULL W or REC, or an error code (sticky; details
 * in citcat_listing_writer_error). */
CITCAT_API int citcat_listing_write(struct citcat_listing_writer *w, const struct citcat_itrace_rec *rec);
/* Completes the file and frees W.  Returns 0, CITCAT_ERR_INVAL for a NULL
 * W, or an error code (ERR, may be NULL, gets the detail); on failure no
 * file is left. */
CITCAT_API int citcat_listing_writer_close(struct citcat_listing_writer *w, struct citcat_errinfo *err);
/* Drops the listing being written and frees W.  Accepts NULL. */
CITCAT_API void citcat_listing_writer_abort(struct citcat_listing_writer *w);
/* Adds the source lines described above from SYMS (not owned; must
 * outlive W; NULL turns them off).  No effect for a NULL W. */
CITCAT_API void citcat_listing_set_symbols(struct citcat_listing_writer *w, struct citcat_symbols *syms);
/* The Cortex-M7 fault status (citcat_itrace_m7_fault) the next STOP of
 * fault kind 11 names, instead of the exception number alone; NULL: none.
 * No effect for a NULL W. */
CITCAT_API void citcat_listing_set_m7_fault(struct citcat_listing_writer *w, const struct citcat_m7_fault *f);
/* Numbers the next instruction written INDEX (and the ones after it from
 * there), for listing a part of a trace with its own instruction numbers;
 * the next instruction also gets a source line.  No effect for a NULL W. */
CITCAT_API void citcat_listing_set_index(struct citcat_listing_writer *w, uint64_t index);
/* The writer's last error (owned by W), or NULL for NULL. */
CITCAT_API const struct citcat_errinfo *citcat_listing_writer_error(const struct citcat_listing_writer *w);

#ifdef __cplusplus
}
#endif

#endif
