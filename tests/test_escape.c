/* common/escape.c: JSON always valid UTF-8, CSV per RFC 4180 and safe from
 * formulas, terminal text with control characters escaped (issue 29,
 * defects 8 and 9).  The expectations are written out by hand from the
 * RFCs' rules, not taken from the escaper's own output. */
#include "check.h"
#include "escape.h"

#include <string.h>

static void is(enum cc_esc style, const char *in, size_t len, const char *want)
{
	char out[256];
	size_t n = cc_escape(style, in, len, out, sizeof out);
	CHECK_EQ(n, strlen(want));
	if (strcmp(out, want) != 0)
		fprintf(stderr, "style %d: got '%s', want '%s'\n", style, out, want);
	CHECK(strcmp(out, want) == 0);
}

/* Every byte of OUT is valid UTF-8 and no raw control character or
 * unescaped quote is left (a JSON string's inside). */
static int json_clean(const char *s)
{
	for (size_t i = 0; s[i];) {
		size_t k = cc_utf8_len((const unsigned char *)s + i, strlen(s + i));
		if (!k || (unsigned char)s[i] < 0x20)
			return 0;
		if (s[i] == '\\') {
			i += 2;
			continue;
		}
		if (s[i] == '"')
			return 0;
		i += k;
	}
	return 1;
}

int main(void)
{
	/* JSON: the forged record of defect 8 stays one string */
	is(CC_ESC_JSON, "m\", \"kind\": \"exit\", \"pc\": \"0xdeadbeef", (size_t)-1,
	   "m\\\", \\\"kind\\\": \\\"exit\\\", \\\"pc\\\": \\\"0xdeadbeef");
	is(CC_ESC_JSON, "a\\b\n\t\x01", (size_t)-1, "a\\\\b\\n\\t\\u0001");
	/* defect 9: a 0xff byte, an overlong '/', a surrogate, a cut sequence */
	is(CC_ESC_JSON, "x\xffy", (size_t)-1, "x\\ufffdy");
	is(CC_ESC_JSON, "\xc0\xaf", (size_t)-1, "\\ufffd\\ufffd");
	is(CC_ESC_JSON, "\xed\xa0\x80", (size_t)-1, "\\ufffd\\ufffd\\ufffd");
	is(CC_ESC_JSON, "\xe2\x82", (size_t)-1, "\\ufffd\\ufffd");
	/* valid UTF-8 passes: é, €, 😀 */
	is(CC_ESC_JSON, "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80", (size_t)-1, "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80");
	/* an embedded NUL with an explicit length */
	is(CC_ESC_JSON, "a\0b", 3, "a\\u0000b");
	/* every byte value alone: the result is always clean JSON */
	for (int b = 0; b < 256; b++) {
		char in[2] = {(char)b, 0}, out[16];
		cc_escape(CC_ESC_JSON, in, 1, out, sizeof out);
		CHECK(json_clean(out));
	}

	/* CSV (RFC 4180): plain fields unquoted; comma, quote, CR, LF quoted,
	 * quotes doubled */
	is(CC_ESC_CSV, "main+0x10", (size_t)-1, "main+0x10");
	is(CC_ESC_CSV, "a,b", (size_t)-1, "\"a,b\"");
	is(CC_ESC_CSV, "say \"hi\"", (size_t)-1, "\"say \"\"hi\"\"\"");
	is(CC_ESC_CSV, "two\nlines", (size_t)-1, "\"two\nlines\"");
	/* formulas: a leading =, +, -, @ becomes text */
	is(CC_ESC_CSV, "=cmd|' /C calc'!A0", (size_t)-1, "\"'=cmd|' /C calc'!A0\"");
	is(CC_ESC_CSV, "+1", (size_t)-1, "\"'+1\"");
	is(CC_ESC_CSV, "-2", (size_t)-1, "\"'-2\"");
	is(CC_ESC_CSV, "@SUM(A1)", (size_t)-1, "\"'@SUM(A1)\"");
	is(CC_ESC_CSV, "", (size_t)-1, "");
	/* controls and bad bytes as in text */
	is(CC_ESC_CSV, "a\x1b[31mb", (size_t)-1, "a\\x1b[31mb");

	/* terminal text: escapes and newlines cannot reach the terminal */
	is(CC_ESC_TEXT, "/tmp/x\x1b[2Jy\nz", (size_t)-1, "/tmp/x\\x1b[2Jy\\nz");
	is(CC_ESC_TEXT, "a\\b", (size_t)-1, "a\\\\b");
	is(CC_ESC_TEXT, "\x7f\xff", (size_t)-1, "\\x7f\\xff");
	is(CC_ESC_TEXT, "\xc2\x9b" "1m", (size_t)-1, "\\u009b1m"); /* C1 CSI */
	is(CC_ESC_TEXT, "caf\xc3\xa9", (size_t)-1, "caf\xc3\xa9");

	/* truncation: never inside an escape, always terminated, the full
	 * length returned */
	char small[8];
	size_t n = cc_escape(CC_ESC_TEXT, "ab\x1b\x1b\x1b", (size_t)-1, small, sizeof small);
	CHECK_EQ(n, 14);
	CHECK(strcmp(small, "ab\\x1b") == 0);
	CHECK_EQ(cc_escape(CC_ESC_JSON, "abc", (size_t)-1, small, 0), 3);
	CHECK_DONE();
}
