/* machine/core.h's granule bitmap (capture/TARGET.md and replay/REPLAY.md
 * "Two engines"): core_gran_mark and core_gran_any against a plain
 * reference, one bit per 64-byte granule, for accesses and blocks at every
 * offset near a map byte's edges, the RAM's end and beyond it.
 * core_gran_mark marks a range within one byte of the map, or across two,
 * with masks instead of its loop; a wrong mask there marks the wrong code,
 * and a store into code would not drop the other engine's translation of
 * it. */
#include "check.h"
#include "core.h"

#include <string.h>

#define RAM (64u * 8 * 6) /* 6 bytes of map: 48 granules */

static uint8_t ref[RAM / 64 / 8 + 1], map[RAM / 64 / 8 + 1];

/* Does granule G hold a byte of [OFF, OFF + LEN), cut at the RAM's end? */
static int ref_hit(unsigned g, uint32_t off, uint32_t len)
{
	uint64_t lo = off, hi = (uint64_t)off + len;
	if (hi > RAM)
		hi = RAM;
	return lo < hi && lo < (uint64_t)g * 64 + 64 && (uint64_t)g * 64 < hi;
}

static void ref_mark(uint32_t off, uint32_t len)
{
	for (unsigned g = 0; g < RAM / 64; g++)
		if (ref_hit(g, off, len))
			ref[g / 8] |= (uint8_t)(1u << (g % 8));
}

static int ref_any(uint32_t off, uint32_t len)
{
	for (unsigned g = 0; g < RAM / 64; g++)
		if (ref_hit(g, off, len) && (ref[g / 8] >> (g % 8) & 1))
			return 1;
	return 0;
}

int main(void)
{
	static const uint32_t lens[] = {0, 1, 2, 4, 8, 63, 64, 65, 128, 448, 512, 513, 1000, RAM, 0xFFFFFFFFu};
	static const uint32_t plens[] = {1, 4, 8, 65, 600};
	/* one mark at a time into an empty map, at and near every granule's
	 * edges and past the RAM's end, then probes over the whole map */
	for (uint32_t g = 0; g < RAM / 64 + 2; g++)
		for (uint32_t d = 0; d < 64; d += 21) /* 0, 21, 42, 63 */
			for (size_t i = 0; i < sizeof lens / sizeof *lens; i++) {
				uint32_t off = g * 64 + d;
				memset(ref, 0, sizeof ref);
				memset(map, 0, sizeof map);
				ref_mark(off, lens[i]);
				core_gran_mark(map, RAM, off, lens[i]);
				if (memcmp(ref, map, sizeof map)) {
					CHECK(memcmp(ref, map, sizeof map) == 0);
					fprintf(stderr, "  mark %u+%u\n", off, lens[i]);
					CHECK_DONE();
				}
				for (uint32_t p = 0; p < RAM + 70; p += 37)
					for (size_t j = 0; j < sizeof plens / sizeof *plens; j++)
						if (core_gran_any(map, RAM, p, plens[j]) != ref_any(p, plens[j])) {
							CHECK_EQ(core_gran_any(map, RAM, p, plens[j]), ref_any(p, plens[j]));
							fprintf(stderr, "  mark %u+%u, probe %u+%u\n", off, lens[i], p, plens[j]);
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
