/* Test helper: an encoder byte sink that collects its output in memory and
 * can be reset between runs (unlike cc_outfile's one-shot memory mode). */
#ifndef CITCAT_TEST_MEMBUF_H
#define CITCAT_TEST_MEMBUF_H

#include "citcat.h"
#include <stdlib.h>
#include <string.h>

struct membuf {
	uint8_t *p;
	size_t len, cap;
};

static inline int mem_sink(void *ctx, const void *buf, size_t len)
{
	struct membuf *m = ctx;
	if (m->len + len > m->cap) {
		size_t nc = m->cap ? m->cap : 1 << 16;
		while (nc < m->len + len)
			nc *= 2;
		uint8_t *q = realloc(m->p, nc);
		if (!q)
			return CITCAT_ERR_NOMEM;
		m->p = q;
		m->cap = nc;
	}
	memcpy(m->p + m->len, buf, len);
	m->len += len;
	return 0;
}

#endif
