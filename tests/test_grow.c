/* cc_grow (common/grow.h): the sizes it grows to, the MAX bound, the size
 * overflow check, and that an error leaves the array as it was. */
#include "check.h"
#include "grow.h"

#include <stdint.h>

int main(void)
{
	uint32_t *v = NULL;
	size_t cap = 0;
	/* empty: FIRST elements, or NEED when that is more */
	CHECK_EQ(cc_grow(&v, &cap, 1, sizeof *v, 4, SIZE_MAX), 0);
	CHECK(v != NULL);
	CHECK_EQ(cap, 4);
	for (uint32_t i = 0; i < 4; i++)
		v[i] = i;
	/* fits: nothing changes */
	uint32_t *was = v;
	CHECK_EQ(cc_grow(&v, &cap, 4, sizeof *v, 4, SIZE_MAX), 0);
	CHECK(v == was);
	CHECK_EQ(cap, 4);
	/* one more: twice the capacity, contents kept */
	CHECK_EQ(cc_grow(&v, &cap, 5, sizeof *v, 4, SIZE_MAX), 0);
	CHECK_EQ(cap, 8);
	for (uint32_t i = 0; i < 4; i++)
		CHECK_EQ(v[i], i);
	v[7] = 7; /* ASan: the new capacity is really there */
	/* more than twice: exactly NEED */
	CHECK_EQ(cc_grow(&v, &cap, 100, sizeof *v, 4, SIZE_MAX), 0);
	CHECK_EQ(cap, 100);
	v[99] = 99;
	/* MAX caps the doubling (not below NEED) ... */
	CHECK_EQ(cc_grow(&v, &cap, 101, sizeof *v, 4, 150), 0);
	CHECK_EQ(cap, 150);
	v[149] = 149;
	/* ... and NEED beyond MAX is a limit error, the array untouched */
	was = v;
	CHECK_EQ(cc_grow(&v, &cap, 151, sizeof *v, 4, 150), CITCAT_ERR_LIMIT);
	CHECK(v == was);
	CHECK_EQ(cap, 150);
	CHECK_EQ(v[149], 149);
	/* a byte size that overflows size_t is refused, not wrapped */
	CHECK_EQ(cc_grow(&v, &cap, SIZE_MAX / 2, sizeof *v, 4, SIZE_MAX), CITCAT_ERR_NOMEM);
	CHECK(v == was);
	CHECK_EQ(cap, 150);
	/* doubling near SIZE_MAX does not wrap to a small size either (no
	 * allocation is tried: ASan would abort on it) */
	size_t huge = SIZE_MAX / 2 + 2;
	uint16_t *h = NULL;
	CHECK_EQ(cc_grow(&h, &huge, huge + 1, sizeof *h, 1, SIZE_MAX), CITCAT_ERR_NOMEM);
	CHECK(h == NULL);
	CHECK_EQ(huge, SIZE_MAX / 2 + 2);
	free(v);
	/* an element type other than the pointer's: any object pointer works */
	struct pair {
		uint64_t a, b;
	} *p = NULL;
	size_t pcap = 0;
	CHECK_EQ(cc_grow(&p, &pcap, 3, sizeof *p, 2, SIZE_MAX), 0);
	CHECK_EQ(pcap, 3);
	p[2].b = 1;
	free(p);
	CHECK_DONE();
}
