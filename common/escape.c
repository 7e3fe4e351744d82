/* Output escaping: see escape.h. */
#include "escape.h"

#include <stdio.h>
#include <string.h>

size_t cc_utf8_len(const unsigned char *p, size_t n)
{
	if (!n)
		return 0;
	unsigned c = p[0];
	if (c < 0x80)
		return 1;
	size_t k;
	unsigned min, v;
	if (c >= 0xc2 && c <= 0xdf)
		k = 2, min = 0x80, v = c & 0x1f;
	else if (c >= 0xe0 && c <= 0xef)
		k = 3, min = 0x800, v = c & 0x0f;
	else if (c >= 0xf0 && c <= 0xf4)
		k = 4, min = 0x10000, v = c & 0x07;
	else
		return 0; /* a continuation byte, 0xc0/0xc1 (overlong) or above 0xf4 */
	if (n < k)
		return 0;
	for (size_t i = 1; i < k; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		v = v << 6 | (p[i] & 0x3f);
	}
	if (v < min || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))
		return 0; /* overlong, beyond Unicode, or a surrogate */
	return k;
}

struct sink {
	char *out;
	size_t cap, len, written;
	int full;
};

/* Appends the N bytes at P whole, or, once they do not fit, nothing more
 * at all: an escape is never cut.  LEN counts what the whole needs. */
static void put(struct sink *k, const char *p, size_t n)
{
	if (!k->full && k->written + n < k->cap) {
		memcpy(k->out + k->written, p, n);
		k->written += n;
	} else {
		k->full = 1;
	}
	k->len += n;
}

static void put_text_byte(struct sink *k, unsigned char c)
{
	char b[8];
	const char *named = c == '\n' ? "\\n" : c == '\t' ? "\\t" : c == '\r' ? "\\r" : c == '\\' ? "\\\\" : NULL;
	if (named)
		put(k, named, 2);
	else {
		snprintf(b, sizeof b, "\\x%02x", c);
		put(k, b, 4);
	}
}

size_t cc_escape(enum cc_esc style, const char *s, size_t len, char *out, size_t cap)
{
	struct sink k = {out, cap, 0, 0, 0};
	const unsigned char *p = (const unsigned char *)s;
	if (len == (size_t)-1)
		len = s ? strlen(s) : 0;
	int quote = 0, lead = 0;
	if (style == CC_ESC_CSV && len) {
		lead = p[0] == '=' || p[0] == '+' || p[0] == '-' || p[0] == '@' || p[0] == '\t' || p[0] == '\r';
		quote = lead || p[0] == ' ' || p[len - 1] == ' ';
		for (size_t i = 0; i < len && !quote; i++)
			quote = p[i] == ',' || p[i] == '"' || p[i] == '\r' || p[i] == '\n';
		if (quote)
			put(&k, "\"", 1);
		if (lead)
			put(&k, "'", 1);
	}
	for (size_t i = 0; i < len;) {
		unsigned c = p[i];
		size_t u = cc_utf8_len(p + i, len - i);
		char b[8];
		if (style == CC_ESC_JSON) {
			if (u == 0) {
				put(&k, "\\ufffd", 6);
				i++;
				continue;
			}
			if (c == '"' || c == '\\') {
				b[0] = '\\', b[1] = (char)c;
				put(&k, b, 2);
			} else if (c < 0x20) {
				const char *named = c == '\n' ? "\\n" : c == '\t' ? "\\t" : c == '\r' ? "\\r" : c == '\b' ? "\\b"
						    : c == '\f' ? "\\f" : NULL;
				if (named)
					put(&k, named, 2);
				else {
					snprintf(b, sizeof b, "\\u%04x", c);
					put(&k, b, 6);
				}
			} else {
				put(&k, (const char *)p + i, u);
			}
			i += u;
			continue;
		}
		/* CSV and terminal text */
		if (u == 0) {
			put_text_byte(&k, (unsigned char)c);
			i++;
			continue;
		}
		if (u == 2 && c == 0xc2 && p[i + 1] < 0xa0) { /* C1 controls, U+0080..U+009F */
			snprintf(b, sizeof b, "\\u%04x", p[i + 1]);
			put(&k, b, 6);
		} else if (style == CC_ESC_CSV && (c == '\t' || c == '\r' || c == '\n')) {
			put(&k, (const char *)p + i, 1); /* inside quotes: kept as they are */
		} else if (style == CC_ESC_CSV && c == '"') {
			put(&k, "\"\"", 2);
		} else if (c < 0x20 || c == 0x7f || (style == CC_ESC_TEXT && c == '\\')) {
			put_text_byte(&k, (unsigned char)c);
		} else {
			put(&k, (const char *)p + i, u);
		}
		i += u;
	}
	if (quote)
		put(&k, "\"", 1);
	if (cap)
		out[k.written] = 0;
	return k.len;
}
