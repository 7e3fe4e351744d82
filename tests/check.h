/* Minimal unit-test helpers: each test program returns non-zero on the first
 * failed check, printing where it failed. */
#ifndef CITCAT_CHECK_H
#define CITCAT_CHECK_H

#include <stdio.h>
#include <stdlib.h>

static int check_failures;

#define CHECK(cond)                                                                          \
	do {                                                                                 \
		if (!(cond)) {                                                               \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
			check_failures++;                                                    \
		}                                                                            \
	} while (0)

#define CHECK_EQ(a, b)                                                                                    \
	do {                                                                                              \
		long long va_ = (long long)(a), vb_ = (long long)(b);                                      \
		if (va_ != vb_) {                                                                          \
			fprintf(stderr, "%s:%d: check failed: %s == %s (%lld != %lld)\n", __FILE__, __LINE__, #a, \
				#b, va_, vb_);                                                             \
			check_failures++;                                                          \
		}                                                                                  \
	} while (0)

#define CHECK_DONE() return check_failures ? (fprintf(stderr, "%d check(s) failed\n", check_failures), 1) : 0

#endif
