/* Cache and bus model against hand-computed access sequences. */
#include "bus.h"
#include "cache.h"
#include "check.h"

#include <string.h>

static int miss(struct cache *c, uint32_t ln)
{
	struct cache_res r;
	cache_access(c, ln, 0, 1, 0, &r);
	return !r.hit;
}

static void seq(enum citcat_repl repl, uint32_t size, uint32_t ways, const uint32_t *lines, const char *expect)
{
	struct citcat_cache_config cfg = {size, ways, 16, (uint8_t)repl, 0, 7};
	struct cache c;
	CHECK_EQ(cache_init(&c, &cfg), 0);
	for (size_t i = 0; expect[i]; i++) {
		int m = miss(&c, lines[i]);
		if (m != (expect[i] == 'm')) {
			fprintf(stderr, "policy %d: access %zu (line %u) expected %s\n", repl, i, lines[i],
				expect[i] == 'm' ? "miss" : "hit");
			CHECK(0);
		}
	}
	cache_fini(&c);
}

/* ---- bus: record events ---- */
static struct citcat_cat_event evs[64];
static int nev;
static void rec(void *ctx, const struct citcat_cat_event *ev)
{
	if (nev < 64)
		evs[nev++] = *ev;
}

/* Random replacement from a given generator state, against the xorshift
 * sequence worked by hand (TARGET.md, "Random replacement": G ^= G << 13;
 * G ^= G >> 17; G ^= G << 5; victim = G mod WAYS).  From G = 1 the states
 * are 0x00042021, 0x04080601, 0x9DCCA8C5, 0x1255994F, 0x8EF917D1,
 * 0x2C6F5BD0, 0x25B2331A, 0x19F91CB2 (the first two worked bit by bit:
 * 1 -> 0x2001 -> 0x2001 -> 0x42021; 0x42021 -> 0x84000021 -> 0x84004221 ->
 * 0x04080601), so in 4 ways the victims are ways 1 1 1 3 1 0 2 2. */
static void test_random_sequence(void)
{
	struct citcat_cache_config cfg = {64, 4, 16, CITCAT_REPL_RANDOM, 0, 7}; /* one set of 4 ways */
	struct cache c;
	struct cache_res r;
	CHECK_EQ(cache_init(&c, &cfg), 0);
	CHECK_EQ(cache_repl_state(&c), 7);
	/* filling invalid ways and hitting do not step the generator */
	for (uint32_t ln = 0; ln < 4; ln++)
		CHECK(miss(&c, ln));
	for (uint32_t ln = 0; ln < 4; ln++)
		CHECK(!miss(&c, ln));
	CHECK_EQ(cache_repl_state(&c), 7);
	/* nor does any maintenance: invalidation does not reset it */
	CHECK_EQ(cache_invalidate_line(&c, 2), 0);
	cache_invalidate_all(&c);
	CHECK_EQ(cache_repl_state(&c), 7);
	for (uint32_t ln = 0; ln < 4; ln++)
		CHECK(miss(&c, ln)); /* ways 0..3 hold lines 0..3 */
	CHECK_EQ(cache_repl_state(&c), 7);

	CHECK_EQ(cache_set_repl_state(&c, 0), CITCAT_ERR_INVAL); /* impossible for xorshift */
	CHECK_EQ(cache_repl_state(&c), 7);
	CHECK_EQ(cache_set_repl_state(&c, 1), 0);
	static const struct {
		uint32_t ln;
		int write;
		uint32_t state;
		int victim; /* line evicted, -1 none (hit) */
		int dirty;
	} step[] = {
		{4, 0, 0x00042021u, 1, 0},  /* way 1 */
		{5, 0, 0x04080601u, 4, 0},  /* way 1 */
		{6, 1, 0x9dcca8c5u, 5, 0},  /* way 1, line 6 dirty */
		{7, 0, 0x1255994fu, 3, 0},  /* way 3 */
		{0, 0, 0x1255994fu, -1, 0}, /* hit in way 0: no step */
		{8, 0, 0x8ef917d1u, 6, 1},  /* way 1: the dirty line 6 */
		{9, 0, 0x2c6f5bd0u, 0, 0},  /* way 0 */
		{10, 0, 0x25b2331au, 2, 0}, /* way 2 */
		{7, 0, 0x25b2331au, -1, 0}, /* hit in way 3 */
		{11, 0, 0x19f91cb2u, 10, 0},/* way 2 */
	};
	for (size_t i = 0; i < sizeof step / sizeof *step; i++) {
		cache_access(&c, step[i].ln, step[i].write, 1, step[i].write, &r);
		CHECK_EQ(r.hit, step[i].victim < 0);
		CHECK_EQ(cache_repl_state(&c), step[i].state);
		CHECK_EQ(r.evicted_dirty, step[i].dirty);
		if (step[i].dirty)
			CHECK_EQ(r.victim_line, step[i].victim);
		if (step[i].victim >= 0)
			CHECK(!cache_probe(&c, (uint32_t)step[i].victim, NULL));
	}
	/* left: 9 8 11 7 */
	static const uint32_t left[] = {9, 8, 11, 7};
	for (int i = 0; i < 4; i++)
		CHECK(cache_probe(&c, left[i], NULL));
	/* a write miss without allocation (write-through) chooses no victim */
	cache_access(&c, 12, 1, 0, 0, &r);
	CHECK(!r.hit && cache_repl_state(&c) == 0x19f91cb2u && !cache_probe(&c, 12, NULL));
	cache_fini(&c);

	/* a direct-mapped random cache still steps (victim G mod 1 = way 0) */
	struct citcat_cache_config dm = {32, 1, 16, CITCAT_REPL_RANDOM, 0, 0}; /* seed 0 means 0x9E3779B9 */
	CHECK_EQ(cache_init(&c, &dm), 0);
	CHECK_EQ(cache_repl_state(&c), 0x9e3779b9u);
	CHECK(miss(&c, 0) && miss(&c, 2)); /* set 0: fill, then a victim */
	/* 0x9E3779B9 ^ 0xEF372000 = 0x710059B9; ^ 0x3880 = 0x71006139;
	 * ^ 0x200C2720 = 0x510C4619 */
	CHECK_EQ(cache_repl_state(&c), 0x510c4619u);
	cache_fini(&c);

	/* without random replacement there is no generator: state 0, only 0 loads */
	struct citcat_cache_config lru = {64, 4, 16, CITCAT_REPL_LRU, 0, 7};
	CHECK_EQ(cache_init(&c, &lru), 0);
	CHECK_EQ(cache_repl_state(&c), 0);
	CHECK_EQ(cache_set_repl_state(&c, 5), CITCAT_ERR_INVAL);
	CHECK_EQ(cache_set_repl_state(&c, 0), 0);
	CHECK(cache_repl_state_valid(&lru, 0) && !cache_repl_state_valid(&lru, 1));
	CHECK(cache_repl_state_valid(&cfg, 1) && !cache_repl_state_valid(&cfg, 0));
	cache_fini(&c);
}

/* Through the bus: cache maintenance, DMA snoops and the I-side snoop of the
 * D-cache leave both generators alone; only victim choices step them, each
 * cache its own. */
static void test_random_bus(void)
{
	static uint8_t ram[1 << 12];
	struct citcat_target_config tc;
	citcat_target_config_default(&tc);
	tc.ram_size = sizeof ram;
	tc.icache = (struct citcat_cache_config){32, 2, 16, CITCAT_REPL_RANDOM, 0, 1}; /* one set of 2 ways */
	tc.dcache = (struct citcat_cache_config){32, 2, 16, CITCAT_REPL_RANDOM, 0, 1};
	struct bus b;
	struct bus_sink sink = {rec, NULL};
	CHECK_EQ(bus_init(&b, &tc, ram, sink), 0);
	bus_data(&b, 0x100, 4, 1, 1); /* D: fill, dirty */
	bus_data(&b, 0x110, 4, 0, 0); /* D: fill; the set is full */
	bus_ifetch(&b, 0x100);        /* I: snoops D (writes 0x100 back), fill */
	bus_ifetch(&b, 0x120);
	CHECK(cache_repl_state(&b.ic) == 1 && cache_repl_state(&b.dc) == 1);
	uint8_t d[8] = {0};
	bus_dma(&b, 0x110, d, 8, 0, 0); /* snoop: invalidates in both */
	bus_uncached(&b, CITCAT_DEV_BASE + BUS_CLEAN_INV_D, 4, 1, 0);
	bus_uncached(&b, CITCAT_DEV_BASE + BUS_INV_D, 4, 1, 0);
	bus_uncached(&b, CITCAT_DEV_BASE + BUS_CLEAN_D, 4, 1, 0);
	bus_uncached(&b, CITCAT_DEV_BASE + BUS_INV_I, 4, 1, 0);
	CHECK(cache_repl_state(&b.ic) == 1 && cache_repl_state(&b.dc) == 1);
	bus_data(&b, 0x100, 4, 0, 0);
	bus_data(&b, 0x110, 4, 0, 0);
	bus_data(&b, 0x120, 4, 0, 0); /* D victim: G 1 -> 0x42021, way 1 */
	CHECK(cache_repl_state(&b.dc) == 0x42021u && cache_repl_state(&b.ic) == 1);
	CHECK(cache_probe(&b.dc, 0x100 >> 4, NULL) && !cache_probe(&b.dc, 0x110 >> 4, NULL));
	bus_fini(&b);
}

/* cache_access against a reference written from TARGET.md's definitions,
 * which looks at every way on every access (no shortcut for the way its set
 * used last, cache_hit_last): a random mix of reads, writes with and without
 * allocation and dirtying, repeated accesses to one line (the shortcut's
 * case), line invalidations, cleans and whole-cache invalidations, for each
 * policy and 1, 2 and 4 ways; hit, write-back victim, contents, dirty bits
 * and the hit and miss counters must agree after every step. */
struct rcache {
	uint32_t sets, ways;
	uint32_t tag[64];
	uint8_t valid[64], dirty[64], mru[64];
	uint64_t stamp[64], clock, hits, misses;
	uint32_t rng;
	enum citcat_repl repl;
};

static void r_touch(struct rcache *m, uint32_t base, uint32_t w)
{
	m->mru[base + w] = 1;
	for (uint32_t i = 0; i < m->ways; i++)
		if (!m->mru[base + i])
			return;
	for (uint32_t i = 0; i < m->ways; i++)
		m->mru[base + i] = i == w;
}

static void r_access(struct rcache *m, uint32_t ln, int alloc, int mark, struct cache_res *r)
{
	uint32_t base = (ln % m->sets) * m->ways;
	m->clock++;
	r->hit = 0;
	r->evicted_dirty = 0;
	for (uint32_t w = 0; w < m->ways; w++)
		if (m->valid[base + w] && m->tag[base + w] == ln) {
			m->hits++;
			if (m->repl == CITCAT_REPL_LRU)
				m->stamp[base + w] = m->clock;
			if (m->repl == CITCAT_REPL_PLRU)
				r_touch(m, base, w);
			if (mark)
				m->dirty[base + w] = 1;
			r->hit = 1;
			return;
		}
	m->misses++;
	if (!alloc)
		return;
	uint32_t v = m->ways;
	for (uint32_t w = 0; w < m->ways && v == m->ways; w++)
		if (!m->valid[base + w])
			v = w;
	if (v == m->ways) {
		v = 0;
		if (m->repl == CITCAT_REPL_LRU || m->repl == CITCAT_REPL_FIFO) {
			for (uint32_t w = 1; w < m->ways; w++)
				if (m->stamp[base + w] < m->stamp[base + v])
					v = w;
		} else if (m->repl == CITCAT_REPL_PLRU) {
			for (v = 0; v < m->ways && m->mru[base + v]; v++)
				;
			if (v == m->ways)
				v = 0;
		} else {
			uint32_t x = m->rng;
			x ^= x << 13;
			x ^= x >> 17;
			x ^= x << 5;
			m->rng = x;
			v = x % m->ways;
		}
		if (m->dirty[base + v]) {
			r->evicted_dirty = 1;
			r->victim_line = m->tag[base + v];
		}
	}
	m->valid[base + v] = 1;
	m->tag[base + v] = ln;
	m->dirty[base + v] = (uint8_t)(mark != 0);
	m->stamp[base + v] = m->clock;
	if (m->repl == CITCAT_REPL_PLRU)
		r_touch(m, base, v);
}

static void test_against_reference(void)
{
	static const uint32_t wayss[] = {1, 2, 4};
	for (int repl = CITCAT_REPL_LRU; repl <= CITCAT_REPL_RANDOM; repl++)
		for (int wi = 0; wi < 3; wi++) {
			uint32_t ways = wayss[wi];
			struct citcat_cache_config cfg = {2 * ways * 16, ways, 16, (uint8_t)repl, 0, 99};
			struct cache c;
			CHECK_EQ(cache_init(&c, &cfg), 0);
			struct rcache m;
			memset(&m, 0, sizeof m);
			m.sets = 2;
			m.ways = ways;
			m.repl = (enum citcat_repl)repl;
			m.rng = 99;
			uint32_t x = 12345 + (uint32_t)repl * 7 + ways, ln = 0;
			int bad = 0;
			for (int i = 0; i < 20000 && !bad; i++) {
				x = x * 1103515245u + 12345u;
				uint32_t k = (x >> 16) & 63;
				if (k < 40) { /* an access: the same line again half of the time */
					if (k & 1)
						ln = (x >> 8) % (3 * ways + 2);
					int wr = (x >> 24) & 1, alloc = !(wr && ((x >> 25) & 3) == 0), mark = wr && alloc;
					struct cache_res a, b;
					memset(&a, 0, sizeof a);
					memset(&b, 0, sizeof b);
					cache_access(&c, ln, wr, alloc, mark, &a);
					r_access(&m, ln, alloc, mark, &b);
					bad = a.hit != b.hit || a.evicted_dirty != b.evicted_dirty ||
					      (a.evicted_dirty && a.victim_line != b.victim_line);
				} else if (k < 52) { /* hits only: the shortcut's case */
					struct cache_res a, b;
					cache_access(&c, ln, 0, 1, 0, &a);
					r_access(&m, ln, 1, 0, &b);
					bad = a.hit != b.hit || a.evicted_dirty != b.evicted_dirty;
				} else if (k < 58) {
					uint32_t l = (x >> 8) % (3 * ways + 2);
					int da = cache_invalidate_line(&c, l), db = 0;
					for (uint32_t w = 0; w < ways; w++) {
						uint32_t j = (l % 2) * ways + w;
						if (m.valid[j] && m.tag[j] == l) {
							db = m.dirty[j];
							m.valid[j] = m.dirty[j] = m.mru[j] = 0;
						}
					}
					bad = da != db;
				} else if (k < 62) {
					uint32_t l = (x >> 8) % (3 * ways + 2);
					cache_clean_line(&c, l);
					for (uint32_t w = 0; w < ways; w++)
						if (m.valid[(l % 2) * ways + w] && m.tag[(l % 2) * ways + w] == l)
							m.dirty[(l % 2) * ways + w] = 0;
				} else if ((x >> 8) % 16 == 0) {
					cache_invalidate_all(&c);
					memset(m.valid, 0, sizeof m.valid);
					memset(m.dirty, 0, sizeof m.dirty);
					memset(m.mru, 0, sizeof m.mru);
				}
				for (uint32_t l = 0; l < 3 * ways + 2 && !bad; l++) {
					int da, db = 0, pa = cache_probe(&c, l, &da), pb = 0;
					for (uint32_t w = 0; w < ways; w++)
						if (m.valid[(l % 2) * ways + w] && m.tag[(l % 2) * ways + w] == l)
							pb = 1, db = m.dirty[(l % 2) * ways + w];
					bad = pa != pb || (pa && da != db);
				}
				bad |= c.hits != m.hits || c.misses != m.misses;
				if (bad)
					fprintf(stderr, "policy %d, %u ways: step %d (line %u) differs from the reference\n", repl,
						ways, i, ln);
			}
			CHECK(!bad);
			cache_fini(&c);
		}
}

int main(void)
{
	/* 2 sets x 2 ways (64 bytes, 16-byte lines): lines 0,2,4 share set 0. */
	static const uint32_t s1[] = {0, 2, 0, 4, 2, 0};
	seq(CITCAT_REPL_LRU, 64, 2, s1, "mmhmmm");
	seq(CITCAT_REPL_FIFO, 64, 2, s1, "mmhmhm");
	seq(CITCAT_REPL_PLRU, 64, 2, s1, "mmhmmm");
	/* 1 set x 4 ways: PLRU and LRU part ways on the 7th access. */
	static const uint32_t s2[] = {0, 1, 2, 3, 0, 4, 2, 5, 3, 0};
	seq(CITCAT_REPL_LRU, 64, 4, s2, "mmmmhmhmmm");
	seq(CITCAT_REPL_PLRU, 64, 4, s2, "mmmmhmhmhm");
	seq(CITCAT_REPL_FIFO, 64, 4, s2, "mmmmhmhmhm"); /* evicts 0, then 1 */

	/* Random replacement is deterministic for a seed and evicts only on a full set. */
	{
		struct citcat_cache_config cfg = {64, 4, 16, CITCAT_REPL_RANDOM, 0, 12345};
		struct cache a, b;
		CHECK_EQ(cache_init(&a, &cfg), 0);
		CHECK_EQ(cache_init(&b, &cfg), 0);
		for (uint32_t i = 0; i < 4; i++)
			CHECK(miss(&a, i) && miss(&b, i));
		for (uint32_t i = 0; i < 4; i++)
			CHECK(!miss(&a, i));
		for (uint32_t i = 0; i < 4; i++)
			CHECK(!miss(&b, i));
		for (uint32_t i = 10; i < 200; i++)
			CHECK_EQ(miss(&a, i % 13), miss(&b, i % 13));
		cache_fini(&a);
		cache_fini(&b);
	}

	/* Dirty eviction reports the victim. */
	{
		struct citcat_cache_config cfg = {64, 2, 16, CITCAT_REPL_LRU, 0, 0};
		struct cache c;
		struct cache_res r;
		CHECK_EQ(cache_init(&c, &cfg), 0);
		cache_access(&c, 0, 1, 1, 1, &r); /* write miss, allocate dirty */
		CHECK(!r.hit && !r.evicted_dirty);
		cache_access(&c, 2, 0, 1, 0, &r);
		cache_access(&c, 4, 0, 1, 0, &r); /* evicts 0 (LRU), dirty */
		CHECK(!r.hit && r.evicted_dirty && r.victim_line == 0);
		cache_access(&c, 0, 0, 1, 0, &r); /* evicts 2, clean */
		CHECK(!r.hit && !r.evicted_dirty);
		cache_fini(&c);
	}

	/* Bad geometries are refused. */
	{
		const char *why;
		struct citcat_cache_config bad1 = {100, 4, 32, 0, 0, 0}, bad2 = {16384, 4, 24, 0, 0, 0},
					   bad3 = {16384, 3, 32, 0, 0, 0}, good = {16384, 4, 32, 0, 0, 0};
		CHECK(cache_config_check(&bad1, &why) < 0);
		CHECK(cache_config_check(&bad2, &why) < 0);
		CHECK(cache_config_check(&bad3, &why) < 0);
		CHECK_EQ(cache_config_check(&good, &why), 0);
	}

	/* ---- bus ---- */
	static uint8_t ram[1 << 16];
	for (size_t i = 0; i < sizeof ram; i++)
		ram[i] = (uint8_t)i;
	struct citcat_target_config tc;
	citcat_target_config_default(&tc);
	tc.ram_size = sizeof ram;
	tc.icache = (struct citcat_cache_config){64, 2, 16, CITCAT_REPL_LRU, 0, 0};
	tc.dcache = (struct citcat_cache_config){64, 2, 16, CITCAT_REPL_LRU, 0, 0};
	struct bus b;
	struct bus_sink sink = {rec, NULL};
	CHECK_EQ(bus_init(&b, &tc, ram, sink), 0);

	/* read miss -> fill; write to it -> dirty; two more lines in the set ->
	 * write-back before the fill that evicts it */
	nev = 0;
	bus_data(&b, 0x100, 4, 0, 0);
	bus_data(&b, 0x104, 4, 1, 0xdeadbeef);
	bus_data(&b, 0x120, 4, 0, 0);
	bus_data(&b, 0x140, 4, 0, 0);
	CHECK_EQ(nev, 4);
	CHECK(evs[0].kind == CITCAT_CAT_FILL_D && evs[0].addr == 0x100 && evs[0].len == 16);
	CHECK(evs[1].kind == CITCAT_CAT_FILL_D && evs[1].addr == 0x120);
	CHECK(evs[2].kind == CITCAT_CAT_WRITEBACK && evs[2].addr == 0x100);
	CHECK(evs[3].kind == CITCAT_CAT_FILL_D && evs[3].addr == 0x140);
	CHECK_EQ(b.cycle, 3 * 20 + 20);

	/* an unaligned word across lines touches both, lower first */
	nev = 0;
	bus_data(&b, 0x20e, 4, 0, 0);
	CHECK_EQ(nev, 2);
	CHECK(evs[0].addr == 0x200 && evs[1].addr == 0x210);

	/* I-fetch of a line dirty in the D-cache writes it back first */
	nev = 0;
	bus_data(&b, 0x300, 4, 1, 1); /* allocate + dirty */
	CHECK_EQ(nev, 1);
	bus_ifetch(&b, 0x304);
	CHECK_EQ(nev, 3);
	CHECK(evs[1].kind == CITCAT_CAT_WRITEBACK && evs[1].addr == 0x300);
	CHECK(evs[2].kind == CITCAT_CAT_FILL_I && evs[2].addr == 0x300);
	bus_ifetch(&b, 0x308); /* same line: nothing */
	CHECK_EQ(nev, 3);

	/* DMA into a dirty line: write-back, then the transfer; the next read misses */
	nev = 0;
	bus_data(&b, 0x400, 4, 1, 5);
	uint8_t d[8] = {1, 2, 3, 4, 5, 6, 7, 8};
	bus_dma(&b, 0x404, d, 8, 17, 0x1234);
	CHECK_EQ(nev, 3);
	CHECK(evs[1].kind == CITCAT_CAT_WRITEBACK && evs[1].addr == 0x400);
	CHECK(evs[2].kind == CITCAT_CAT_DMA && evs[2].addr == 0x404 && evs[2].len == 8 && evs[2].bcount == 17 &&
	      evs[2].pc == 0x1234);
	CHECK(memcmp(ram + 0x404, d, 8) == 0);
	bus_data(&b, 0x408, 4, 0, 0);
	CHECK(nev == 4 && evs[3].kind == CITCAT_CAT_FILL_D && evs[3].addr == 0x400);

	/* maintenance: CLEAN_INV_D writes back dirty lines; INV_I empties the I side */
	nev = 0;
	bus_data(&b, 0x500, 4, 1, 9);
	bus_uncached(&b, CITCAT_DEV_BASE + BUS_CLEAN_INV_D, 4, 1, 0);
	CHECK(nev == 3 && evs[1].kind == CITCAT_CAT_UWRITE && evs[2].kind == CITCAT_CAT_WRITEBACK && evs[2].addr == 0x500);
	bus_data(&b, 0x500, 4, 0, 0);
	CHECK(nev == 4 && evs[3].kind == CITCAT_CAT_FILL_D);
	bus_uncached(&b, CITCAT_DEV_BASE + BUS_INV_I, 4, 1, 0);
	bus_ifetch(&b, 0x304);
	CHECK(nev == 6 && evs[5].kind == CITCAT_CAT_FILL_I);
	bus_fini(&b);

	/* write-through, no write-allocate */
	tc.dcache.write_through = 1;
	CHECK_EQ(bus_init(&b, &tc, ram, sink), 0);
	nev = 0;
	bus_data(&b, 0x600, 2, 1, 0xabcd); /* miss: straight to the bus */
	bus_data(&b, 0x600, 4, 0, 0);      /* not allocated: read miss fills */
	bus_data(&b, 0x602, 1, 1, 0x7f);   /* hit: still written through */
	CHECK_EQ(nev, 3);
	CHECK(evs[0].kind == CITCAT_CAT_WRITE && evs[0].addr == 0x600 && evs[0].size == 2 && evs[0].value == 0xabcd);
	CHECK(evs[1].kind == CITCAT_CAT_FILL_D);
	CHECK(evs[2].kind == CITCAT_CAT_WRITE && evs[2].size == 1);
	bus_uncached(&b, CITCAT_DEV_BASE + BUS_CLEAN_D, 4, 1, 0);
	CHECK_EQ(nev, 4); /* nothing dirty in write-through */
	bus_fini(&b);
	test_random_sequence();
	test_random_bus();
	test_against_reference();
	CHECK_DONE();
}
