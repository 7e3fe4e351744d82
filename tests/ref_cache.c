/* A reference cache simulator for the Dinero interop check (formats/DIN.md,
 * "Agreement with the model"): reads an xdin trace (Dinero IV's extended din:
 * "r|w|i|m|c|v ADDRESS SIZE", hex) and simulates split L1 I and D caches
 * from the textbook definition, the way Dinero IV does, independently of
 * machine/cache.c:
 *
 * - a reference of SIZE bytes touches every line it overlaps, lowest first;
 * - each set is a list of (tag, dirty) kept in recency order (LRU: a hit
 *   moves the line to the front) or in fill order (FIFO: hits change
 *   nothing); a miss that allocates fills an empty way if there is one,
 *   else evicts the last line of the list (least recently used / first
 *   filled) and counts a write-back when that line is dirty;
 * - write-back (default): a write miss allocates like a read and the line
 *   becomes dirty; write-through (--wt): every write goes to memory (counted
 *   per line touched), a write miss allocates nothing;
 * - i goes to the I-cache, r, w and m to the D-cache; c (copy-back) writes
 *   back the D line holding ADDRESS if it is dirty and keeps it; v
 *   (invalidate) drops the line holding ADDRESS from both caches, dirty data
 *   included.
 *
 * A reference that overlaps several lines is one reference (Dinero IV's
 * "multi-block refs" count them, per cache: multi_i, multi_d), made of one
 * piece per line; in write-through mode write_bytes sums the bytes of the
 * write pieces (Dinero's "Bytes To Memory" there; the CAT's WRITE sizes).
 *
 * Usage: ref_cache --icache SIZE:WAYS:LINE:lru|fifo --dcache ... [--wt] FILE.xdin
 * Prints {"fill_i": N, "fill_d": N, "writeback": N, "write": N, "write_bytes": N,
 * "multi_i": N, "multi_d": N}. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct way {
	uint64_t line; /* address >> line shift */
	int dirty;
};

struct cache {
	unsigned sets, ways, shift, fifo;
	unsigned *used; /* valid lines per set */
	struct way *w;  /* set s: w[s * ways .. + used[s]), front = most recent (LRU) / newest fill (FIFO) */
};

static int parse_geom(const char *s, struct cache *c)
{
	unsigned long size, ways, line;
	char pol[8] = "";
	char *e;
	size = strtoul(s, &e, 10);
	if (*e == 'K' || *e == 'k')
		size <<= 10, e++;
	if (*e != ':')
		return -1;
	ways = strtoul(e + 1, &e, 10);
	if (*e != ':')
		return -1;
	line = strtoul(e + 1, &e, 10);
	if (*e == ':')
		snprintf(pol, sizeof pol, "%s", e + 1);
	else if (*e)
		return -1;
	if (!ways || !line || (line & (line - 1)) || size % (ways * line))
		return -1;
	c->sets = (unsigned)(size / (ways * line));
	c->ways = (unsigned)ways;
	c->shift = 0;
	while ((1ul << c->shift) < line)
		c->shift++;
	if (!pol[0] || strcmp(pol, "lru") == 0)
		c->fifo = 0;
	else if (strcmp(pol, "fifo") == 0)
		c->fifo = 1;
	else
		return -1; /* plru and random are not what Dinero models */
	c->used = calloc(c->sets, sizeof *c->used);
	c->w = calloc((size_t)c->sets * c->ways, sizeof *c->w);
	return c->used && c->w ? 0 : -1;
}

static uint64_t fill_i, fill_d, writeback, writes, write_bytes, multi_i, multi_d;

/* Index of LN in its set's list, or -1. */
static long find(const struct cache *c, uint64_t ln)
{
	unsigned s = (unsigned)(ln % c->sets);
	struct way *w = c->w + (size_t)s * c->ways;
	for (unsigned i = 0; i < c->used[s]; i++)
		if (w[i].line == ln)
			return i;
	return -1;
}

static void to_front(struct way *w, unsigned i)
{
	struct way t = w[i];
	memmove(w + 1, w, i * sizeof *w);
	w[0] = t;
}

static void remove_at(struct cache *c, unsigned s, unsigned i)
{
	struct way *w = c->w + (size_t)s * c->ways;
	memmove(w + i, w + i + 1, (c->used[s] - i - 1) * sizeof *w);
	c->used[s]--;
}

/* One line-sized piece of a reference. */
static void access_line(struct cache *c, uint64_t ln, int write, int wt, uint64_t *fills)
{
	unsigned s = (unsigned)(ln % c->sets);
	struct way *w = c->w + (size_t)s * c->ways;
	long i = find(c, ln);
	if (write && wt)
		writes++;
	if (i >= 0) {
		if (!c->fifo)
			to_front(w, (unsigned)i);
		if (write && !wt)
			w[c->fifo ? i : 0].dirty = 1;
		return;
	}
	if (write && wt)
		return; /* no write-allocate */
	if (c->used[s] == c->ways) { /* evict the last of the list */
		if (w[c->ways - 1].dirty)
			writeback++;
		c->used[s]--;
	}
	memmove(w + 1, w, c->used[s] * sizeof *w);
	w[0] = (struct way){ln, write && !wt};
	c->used[s]++;
	(*fills)++;
}

static void invalidate(struct cache *c, uint64_t addr)
{
	uint64_t ln = addr >> c->shift;
	long i = find(c, ln);
	if (i >= 0)
		remove_at(c, (unsigned)(ln % c->sets), (unsigned)i);
}

int main(int argc, char **argv)
{
	struct cache ic = {0}, dc = {0};
	int wt = 0, have_i = 0, have_d = 0;
	const char *path = NULL;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--icache") == 0 && i + 1 < argc)
			have_i = parse_geom(argv[++i], &ic) == 0;
		else if (strcmp(argv[i], "--dcache") == 0 && i + 1 < argc)
			have_d = parse_geom(argv[++i], &dc) == 0;
		else if (strcmp(argv[i], "--wt") == 0)
			wt = 1;
		else
			path = argv[i];
	}
	if (!have_i || !have_d || !path) {
		fprintf(stderr, "usage: ref_cache --icache S:W:L[:lru|fifo] --dcache S:W:L[:lru|fifo] [--wt] FILE.xdin\n");
		return 2;
	}
	FILE *f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "ref_cache: cannot open %s\n", path);
		return 2;
	}
	char buf[256];
	uint64_t n = 0;
	while (fgets(buf, sizeof buf, f)) {
		char label;
		uint64_t addr, size;
		n++;
		if (sscanf(buf, " %c %" SCNx64 " %" SCNx64, &label, &addr, &size) != 3 || size == 0) {
			fprintf(stderr, "ref_cache: %s: line %" PRIu64 ": not an xdin reference\n", path, n);
			return 2;
		}
		struct cache *c = label == 'i' ? &ic : &dc;
		switch (label) {
		case 'i': case 'r': case 'w': case 'm': {
			uint64_t first = addr >> c->shift, last = (addr + size - 1) >> c->shift;
			if (last != first)
				(*(c == &ic ? &multi_i : &multi_d))++;
			for (uint64_t ln = first; ln <= last; ln++) {
				access_line(c, ln, label == 'w', c == &dc && wt, c == &ic ? &fill_i : &fill_d);
				if (label == 'w' && wt) { /* the piece of the reference inside line ln */
					uint64_t lo = ln << c->shift, hi = lo + (1ull << c->shift);
					write_bytes += (addr + size < hi ? addr + size : hi) - (addr > lo ? addr : lo);
				}
			}
			break;
		}
		case 'c': {
			long i = find(&dc, addr >> dc.shift);
			if (i >= 0) {
				struct way *w = dc.w + (size_t)((addr >> dc.shift) % dc.sets) * dc.ways + i;
				if (w->dirty)
					writeback++;
				w->dirty = 0;
			}
			break;
		}
		case 'v':
			invalidate(&ic, addr);
			invalidate(&dc, addr);
			break;
		default:
			fprintf(stderr, "ref_cache: %s: line %" PRIu64 ": label '%c'\n", path, n, label);
			return 2;
		}
	}
	fclose(f);
	printf("{\"fill_i\": %" PRIu64 ", \"fill_d\": %" PRIu64 ", \"writeback\": %" PRIu64 ", \"write\": %" PRIu64
	       ", \"write_bytes\": %" PRIu64 ", \"multi_i\": %" PRIu64 ", \"multi_d\": %" PRIu64 "}\n",
	       fill_i, fill_d, writeback, writes, write_bytes, multi_i, multi_d);
	free(ic.used);
	free(ic.w);
	free(dc.used);
	free(dc.w);
	return 0;
}
