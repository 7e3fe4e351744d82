/* cc_grow: the one doubling realloc of the library's growable arrays.
 *
 *   if (cc_grow(&v->items, &v->cap, v->n + 1, sizeof *v->items, 1024, SIZE_MAX))
 *           return CITCAT_ERR_NOMEM;
 *   v->items[v->n++] = x;
 *
 * PTR is the address of the array pointer (any object pointer type; NULL
 * with *CAP 0 to start), *CAP its capacity in elements of ELEM bytes.  When
 * NEED elements do not fit, the array is reallocated to the larger of NEED
 * and twice *CAP (FIRST when *CAP is 0), but to at most MAX elements, and
 * *PTR and *CAP are updated.  Returns 0 (also when NEED already fits),
 * CITCAT_ERR_LIMIT when NEED exceeds MAX, or CITCAT_ERR_NOMEM when the
 * allocation fails or its byte size would overflow size_t; on an error
 * *PTR and *CAP are unchanged, so the caller still owns (and frees) the old
 * array. */
#ifndef CITCAT_GROW_H
#define CITCAT_GROW_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "citcat.h"

static inline int cc_grow(void *ptr, size_t *cap, size_t need, size_t elem, size_t first, size_t max)
{
	if (need <= *cap)
		return 0;
	if (need > max)
		return CITCAT_ERR_LIMIT;
	size_t nc = *cap ? (*cap > SIZE_MAX / 2 ? SIZE_MAX : *cap * 2) : first;
	if (nc < need)
		nc = need;
	if (nc > max)
		nc = max;
	if (elem && nc > SIZE_MAX / elem)
		return CITCAT_ERR_NOMEM;
	/* *PTR is some T *: read and written as bytes, so any object pointer
	 * type works without a cast at every call (all have one representation
	 * on the platforms citcat supports) */
	void *old, *p;
	memcpy(&old, ptr, sizeof old);
	size_t bytes = nc * elem;
	p = realloc(old, bytes ? bytes : 1);
	if (!p)
		return CITCAT_ERR_NOMEM;
	memcpy(ptr, &p, sizeof p);
	*cap = nc;
	return 0;
}

#endif
