/* libcitcat public API: the ARM disassembler citcat's listings and reports
 * use (Capstone): one instruction at a time, A32 or Thumb (T16/T32), as the
 * itrace records it (formats/ITRACE.md: WORD holds its bytes as a
 * little-endian number).  A handle is not thread-safe: one per thread. */
#ifndef CITCAT_PUBLIC_DISASM_H
#define CITCAT_PUBLIC_DISASM_H

#include <citcat/base.h>

#ifdef __cplusplus
extern "C" {
#endif

struct citcat_disasm;

/* Opens a disassembler into *D.  Returns 0; CITCAT_ERR_INVAL for a NULL D;
 * CITCAT_ERR_UNSUPPORTED when the Capstone linked has no ARM, or
 * CITCAT_ERR_NOMEM (*D is then NULL). */
CITCAT_API int citcat_disasm_open(struct citcat_disasm **d);

/* Decodes the instruction WORD at PC: SIZE bytes (2 or 4; any other value
 * is 4) in Thumb state when THUMB, else an A32 word.  Writes its mnemonic
 * ("ldr", "bne", ...) to MNEMONIC (MN bytes) and its operands ("r0, [r1,
 * #4]") to OPERANDS (ON bytes), truncated and NUL-terminated.  Returns 0;
 * CITCAT_ERR_CORRUPT when it does not decode (as SIZE bytes exactly), the
 * buffers then empty strings; CITCAT_ERR_INVAL for a NULL D, MNEMONIC or
 * OPERANDS or a zero MN or ON. */
CITCAT_API int citcat_disasm_insn(struct citcat_disasm *d, uint32_t pc, uint32_t word, unsigned size, int thumb,
				  char *mnemonic, size_t mn, char *operands, size_t on);

/* Frees D.  Accepts NULL. */
CITCAT_API void citcat_disasm_close(struct citcat_disasm *d);

#ifdef __cplusplus
}
#endif

#endif
