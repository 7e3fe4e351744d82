/* Output escaping in one place (issue 29): every string citcat did not
 * make itself (a symbol name from an ELF, a path recorded in a CAT, a file
 * name) goes through one of these before it reaches JSON, CSV or a
 * terminal.
 *
 * - CC_ESC_JSON: the inside of a JSON string (RFC 8259), always valid
 *   UTF-8: '"' and '\' escaped, control characters as \n, \t, \r, \b, \f
 *   or \u00XX, and every byte that is not part of valid UTF-8 (a stray
 *   0xff, an overlong form, a surrogate) as U+FFFD, the replacement
 *   character.  Valid multi-byte characters pass unchanged.
 * - CC_ESC_CSV: one CSV field (RFC 4180): quoted with '"' doubled when it
 *   holds a comma, a quote, CR or LF, or starts or ends with a space; a
 *   field starting with '=', '+', '-', '@', TAB or CR (which spreadsheets
 *   take for a formula) gets a leading apostrophe, inside quotes, so that
 *   it is shown as text ('=cmd|...).  Control characters other than TAB,
 *   CR and LF, and bytes that are not valid UTF-8, are written as for
 *   CC_ESC_TEXT.
 * - CC_ESC_TEXT: terminal text: printable characters and valid UTF-8 pass;
 *   '\' becomes "\\"; newline, tab and carriage return become \n, \t, \r;
 *   other control characters (C0, DEL, and the C1 range U+0080..U+009F) and
 *   bytes that are not valid UTF-8 become \xHH (C1: \u00HH), so nothing a
 *   file holds can move the cursor, change colours or forge a line.
 *
 * Library code: these fill buffers, they never print. */
#ifndef CITCAT_ESCAPE_H
#define CITCAT_ESCAPE_H

#include <stddef.h>

enum cc_esc { CC_ESC_JSON, CC_ESC_CSV, CC_ESC_TEXT };

/* Escapes the LEN bytes at S (LEN (size_t)-1: up to its NUL) in style STYLE
 * into OUT (CAP bytes, always NUL-terminated when CAP > 0; an escape is
 * never cut in the middle).  Returns the length the whole escaped string
 * needs, without the NUL (as snprintf): the output was complete when that
 * is below CAP. */
size_t cc_escape(enum cc_esc style, const char *s, size_t len, char *out, size_t cap);

/* The length of the valid UTF-8 sequence starting the N bytes at P (1..4),
 * or 0 when P does not start one (invalid or truncated).  ASCII: 1. */
size_t cc_utf8_len(const unsigned char *p, size_t n);

#endif
