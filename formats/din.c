/* Dinero text traces: traditional din ("label address") and Dinero IV's
 * extended xdin ("r|w|i|m|c|v address size"), as DIN.md specifies. */
#include "addr_int.h"

#include <string.h>

static const char xdin_labels[CITCAT_REF_NTYPES] = {'r', 'w', 'i', 'm', 0, 'c', 'v'};

static inline size_t put_hex(uint8_t *p, uint64_t v)
{
	static const char digits[] = "0123456789abcdef";
	int n = v ? (64 - __builtin_clzll(v) + 3) / 4 : 1;
	for (int i = n - 1; i >= 0; i--, v >>= 4)
		p[i] = (uint8_t)digits[v & 15];
	return (size_t)n;
}

int din_put(struct citcat_addr_writer *w, const struct citcat_ref *ref)
{
	unsigned t = ref->type;
	uint8_t label;
	if (w->fmt == CITCAT_ADDR_DIN) {
		if (t > CITCAT_REF_FLUSH)
			return addr_werr(w, CITCAT_ERR_INVAL, "%s references have no din label",
					 t == CITCAT_REF_COPYB ? "copy-back" : "invalidate");
		label = (uint8_t)('0' + t);
	} else {
		if (!xdin_labels[t])
			return addr_werr(w, CITCAT_ERR_INVAL, "flush references have no xdin label");
		label = (uint8_t)xdin_labels[t];
	}
	if (w->len + 48 > ADDR_OUTBUF && addr_wflush(w))
		return w->err.code;
	uint8_t *p = w->buf + w->len, *s = p;
	*p++ = label;
	*p++ = ' ';
	p += put_hex(p, ref->addr);
	if (w->fmt == CITCAT_ADDR_XDIN) {
		*p++ = ' ';
		p += put_hex(p, ref->size ? ref->size : 4);
	}
	*p++ = '\n';
	w->len += (size_t)(p - s);
	w->payload += (size_t)(p - s);
	w->refs++;
	return 0;
}

static inline int hexval(uint8_t c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c |= 0x20;
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}
static inline int blank(uint8_t c) { return c == ' ' || c == '\t' || c == '\r'; }

/* Parses a hex number (optional 0x) at *PP; at most MAXBITS significant bits. */
static int parse_hex(struct citcat_addr_reader *r, const uint8_t **pp, const uint8_t *end, uint64_t line_off,
		     const uint8_t *line, unsigned maxbits, const char *what, uint64_t *out)
{
	const uint8_t *p = *pp;
	if (end - p >= 2 && p[0] == '0' && (p[1] | 0x20) == 'x' && end - p >= 3 && hexval(p[2]) >= 0)
		p += 2;
	const uint8_t *start = p;
	uint64_t v = 0;
	int d;
	while (p < end && (d = hexval(*p)) >= 0) {
		if (v >> (maxbits - 4))
			return addr_rerr(r, CITCAT_ERR_LIMIT, line_off + (uint64_t)(start - line),
					 "%s runs past %u bits", what, maxbits);
		v = v << 4 | (uint64_t)d;
		p++;
	}
	if (p == start)
		return addr_rerr(r, CITCAT_ERR_CORRUPT, line_off + (uint64_t)(p - line), "%s: expected a hex number", what);
	if (p < end && !blank(*p))
		return addr_rerr(r, CITCAT_ERR_CORRUPT, line_off + (uint64_t)(p - line), "%s: unexpected character '%c'",
				 what, *p >= 0x20 && *p < 0x7f ? *p : '?');
	*pp = p;
	*out = v;
	return 0;
}

int din_next(struct citcat_addr_reader *r, struct citcat_ref *ref)
{
	for (;;) {
		/* find a whole line in the window */
		const uint8_t *line = r->buf + r->pos, *nl;
		size_t avail = r->end - r->pos;
		while (!(nl = memchr(line, '\n', avail))) {
			if (avail > ADDR_LINE_MAX)
				return addr_rerr(r, CITCAT_ERR_LIMIT, addr_roff(r), "line longer than %d bytes",
						 ADDR_LINE_MAX);
			long n = addr_fill(r, avail + 1);
			if (n < 0)
				return (int)n;
			line = r->buf + r->pos;
			if ((size_t)n == avail) { /* input ends: a last line without a newline */
				nl = line + avail;
				break;
			}
			avail = (size_t)n;
		}
		if (nl == line && r->pos == r->end) {
			r->payload_end = addr_roff(r);
			r->done = 1;
			return 0;
		}
		uint64_t off = addr_roff(r);
		const uint8_t *p = line, *end = nl;
		r->pos += (size_t)(nl - line) + (nl < r->buf + r->end);
		while (p < end && blank(*p))
			p++;
		if (p == end)
			continue; /* blank line */
		unsigned t;
		if (r->fmt == CITCAT_ADDR_DIN) {
			if (*p < '0' || *p > '4')
				return addr_rerr(r, CITCAT_ERR_CORRUPT, off + (uint64_t)(p - line),
						 "din label must be 0..4, not '%c'", *p >= 0x20 && *p < 0x7f ? *p : '?');
			t = *p - '0';
		} else {
			const char *q = *p ? memchr(xdin_labels, *p, sizeof xdin_labels) : NULL;
			if (!q)
				return addr_rerr(r, CITCAT_ERR_CORRUPT, off + (uint64_t)(p - line),
						 "xdin label must be r, w, i, m, c or v, not '%c'",
						 *p >= 0x20 && *p < 0x7f ? *p : '?');
			t = (unsigned)(q - xdin_labels);
		}
		p++;
		if (p == end || !blank(*p))
			return addr_rerr(r, CITCAT_ERR_CORRUPT, off + (uint64_t)(p - line), "expected a blank after the label");
		while (p < end && blank(*p))
			p++;
		uint64_t a, size = 0;
		int rc = parse_hex(r, &p, end, off, line, 64, "address", &a);
		if (rc)
			return rc;
		if (r->fmt == CITCAT_ADDR_XDIN) {
			while (p < end && blank(*p))
				p++;
			if ((rc = parse_hex(r, &p, end, off, line, 32, "size", &size)))
				return rc;
		}
		/* anything after the fields is ignored, as Dinero does */
		ref->addr = a;
		ref->type = (uint8_t)t;
		ref->size = (uint32_t)size;
		r->refs++;
		return 1;
	}
}
