/* libcitcat public API: escaping a string citcat did not make itself (a
 * symbol name from an ELF, a path recorded in a CAT, a file name) before it
 * reaches JSON, CSV or a terminal, as every citcat command does.
 *
 * - CITCAT_ESC_JSON: the inside of a JSON string (RFC 8259), always valid
 *   UTF-8: '"' and '\' escaped, control characters as \n, \t, \r, \b, \f or
 *   \u00XX, every byte that is not valid UTF-8 as U+FFFD.
 * - CITCAT_ESC_CSV: one CSV field (RFC 4180), quoted when needed; a field
 *   that a spreadsheet would take for a formula ('=', '+', '-', '@', TAB,
 *   CR first) gets a leading apostrophe.
 * - CITCAT_ESC_TEXT: terminal text: printable characters and valid UTF-8
 *   pass, '\' becomes "\\", newline, tab and CR become \n, \t, \r, other
 *   control characters and invalid bytes become \xHH (C1: \u00HH), so
 *   nothing a file holds can move the cursor or forge a line. */
#ifndef CITCAT_PUBLIC_ESCAPE_H
#define CITCAT_PUBLIC_ESCAPE_H

#include <citcat/base.h>

#ifdef __cplusplus
extern "C" {
#endif

enum citcat_esc { CITCAT_ESC_JSON, CITCAT_ESC_CSV, CITCAT_ESC_TEXT };

/* Escapes the LEN bytes at S (LEN (size_t)-1: up to its NUL) in STYLE
 * (enum citcat_esc) into OUT (CAP bytes, NUL-terminated when CAP > 0; an
 * escape is never cut in the middle).  Returns the length the whole escaped
 * string needs without the NUL, as snprintf does: the output is complete
 * when that is below CAP.  A bad STYLE, or S or OUT NULL where bytes were
 * asked for, returns 0 with OUT empty. */
CITCAT_API size_t citcat_escape(int style, const char *s, size_t len, char *out, size_t cap);

#ifdef __cplusplus
}
#endif

#endif
