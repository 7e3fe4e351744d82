/* machine/core.h's granule bitmap (capture/TARGET.md and replay/REPLAY.md
 * "Two engines"): core_gran_mark and core_gran_any against a plain
 * reference, one bit per 64-byte granule, for accesses and blocks at every
 * offset near a map byte's edges, the RAM's end and beyond it.  The two
 * functions take a one-byte shortcut when the granules share a byte of the
 * map; a wrong mask there marks or finds the wrong code, and a capture or
 * replay would run stale translations. */
#include "check.h"
#include "core.h"

#include <string.h>

#define RAM (64u * 8 * 6) /* 6 bytes of map: 48 granules */

static uint8_t ref[RAM / 64 / 8 + 1], map[RAM / 64 / 8 + 1];

static void ref_mark(uint32_t off, uint32_t len)
{
	for (uint64_t a = off; a < (uint64_t)off + len && a < RAM; a++)
		ref[a / 64 / 8] |= (uint8_t)(1u << (a / 64 % 8));
}

static int ref_any(uint32_t off, uint32_t len)
{
	for (uint64_t a = off; a < (uint64_t)off + len && a < RAM; a++)
		if (ref[a / 64 / 8] >> (a / 64 % 8) & 1)
			return 1;
	return 0;
}

int main(void)
{
	static const uint32_t lens[] = {0, 1, 2, 4, 8, 63, 64, 65, 128, 448, 512, 513, 1000, RAM, 0xFFFFFFFFu};
	/* one mark at a time into an empty map, then every probe */
	for (uint32_t off = 0; off < RAM + 130; off += 7)
		for (size_t i = 0; i < sizeof lens / sizeof *lens; i++) {
			memset(ref, 0, sizeof ref);
			memset(map, 0, sizeof map);
			ref_mark(off, lens[i]);
			core_gran_mark(map, RAM, off, lens[i]);
			CHECK(memcmp(ref, map, sizeof map) == 0);
			for (uint32_t p = 0; p < RAM + 70; p += 13)
				for (size_t j = 0; j < sizeof lens / sizeof *lens; j++)
					if (core_gran_any(map, RAM, p, lens[j]) != ref_any(p, lens[j])) {
						CHECK_EQ(core_gran_any(map, RAM, p, lens[j]), ref_any(p, lens[j]));
						fprintf(stderr, "  mark %u+%u, probe %u+%u\n", off, lens[i], p, lens[j]);
						CHECK_DONE();
					}
		}
	/* marks accumulate and never clear */
	memset(ref, 0, sizeof ref);
	memset(map, 0, sizeof map);
	for (uint32_t k = 0; k < 200; k++) {
		uint32_t off = (k * 2654435761u) % (RAM + 64), len = (k * 40503u) % 300;
		ref_mark(off, len);
		core_gran_mark(map, RAM, off, len);
		CHECK(memcmp(ref, map, sizeof map) == 0);
	}
	CHECK_DONE();
}
