/* CAT writer/reader: every event kind round-trips (with and without
 * timestamps, across chunks), and bad files give the right error. */
#include "cat.h"
#include "check.h"
#include "fuzz/wrap.h"

#include <string.h>
#include <unistd.h>

static uint8_t line[32], dma[8];

static struct citcat_cat_event mk(unsigned i)
{
	struct citcat_cat_event e;
	memset(&e, 0, sizeof e);
	e.kind = (uint8_t)(1 + i % 11);
	e.cycle = 1000 + 7 * (uint64_t)i;
	switch (e.kind) {
	case CITCAT_CAT_FILL_I: case CITCAT_CAT_FILL_D: case CITCAT_CAT_WRITEBACK:
		e.addr = 0x1000 + 32 * (i % 977);
		e.len = 32;
		e.data = line;
		break;
	case CITCAT_CAT_WRITE: case CITCAT_CAT_UREAD: case CITCAT_CAT_UWRITE:
		e.size = (uint8_t)(e.kind == CITCAT_CAT_WRITE ? 1u << (i % 3) : 4);
		e.addr = e.kind == CITCAT_CAT_WRITE ? 0x2000 + i % 100 : 0x40000000 + 4 * (i % 64);
		e.value = (i * 2654435761u) & (e.size == 4 ? 0xffffffffu : e.size == 2 ? 0xffffu : 0xffu);
		break;
	case CITCAT_CAT_DMA:
		e.addr = 0x8000 + 8 * i;
		e.len = 8;
		e.data = dma;
		e.bcount = i * 3;
		e.pc = 0x100 + 4 * (i % 50);
		break;
	case CITCAT_CAT_IRQ:
		e.line = (uint8_t)(i % 4);
		e.bcount = i * 3 + 1;
		e.pc = 0x200 + 4 * (i % 9);
		break;
	case CITCAT_CAT_SYNC:
		e.pc = 0x44;
		break;
	case CITCAT_CAT_STOP:
		e.line = CITCAT_STOP_EXIT;
		e.insns = i * 11;
		e.bcount = i;
		e.cycle = e.cycle; /* STOP's cycle field is the total */
		break;
	}
	return e;
}

static int same(const struct citcat_cat_event *a, const struct citcat_cat_event *b, int ts)
{
	if (a->kind != b->kind || (ts && a->cycle != b->cycle))
		return 0;
	switch (a->kind) {
	case CITCAT_CAT_FILL_I: case CITCAT_CAT_FILL_D: case CITCAT_CAT_WRITEBACK:
		return a->addr == b->addr && a->len == b->len && memcmp(a->data, b->data, a->len) == 0;
	case CITCAT_CAT_WRITE: case CITCAT_CAT_UREAD: case CITCAT_CAT_UWRITE:
		return a->addr == b->addr && a->size == b->size && a->value == b->value;
	case CITCAT_CAT_DMA:
		return a->addr == b->addr && a->len == b->len && !memcmp(a->data, b->data, a->len) && a->bcount == b->bcount &&
		       a->pc == b->pc;
	case CITCAT_CAT_IRQ:
		return a->line == b->line && a->bcount == b->bcount && a->pc == b->pc;
	case CITCAT_CAT_SYNC:
		return a->pc == b->pc;
	case CITCAT_CAT_STOP:
		return a->line == b->line && a->insns == b->insns && a->bcount == b->bcount && a->cycle == b->cycle;
	}
	return 1;
}

static int count_events(const char *path, int *code)
{
	struct citcat_cat_reader *r;
	struct citcat_cat_event e;
	int rc = citcat_cat_reader_open(&r, path), n = 0;
	if (rc == 0)
		while ((rc = citcat_cat_next(r, &e)) == 1)
			n++;
	*code = rc;
	citcat_cat_reader_close(r);
	return n;
}

int main(void)
{
	for (int i = 0; i < 32; i++)
		line[i] = (uint8_t)(i * 7);
	for (int i = 0; i < 8; i++)
		dma[i] = (uint8_t)(0xa0 + i);
	char path[] = "/tmp/citcat-test-cat-XXXXXX";
	close(mkstemp(path));
	const unsigned N = 120000; /* several chunks */
	for (int ts = 0; ts < 2; ts++) {
		struct citcat_target_config cfg;
		citcat_target_config_default(&cfg);
		cfg.icache.line = 32;
		cfg.dcache.line = 32;
		cfg.timestamps = (uint32_t)ts;
		cfg.seed = 99;
		struct citcat_cat_writer *w;
		CHECK_EQ(citcat_cat_writer_open(&w, path, &cfg), 0);
		for (unsigned i = 0; i < N; i++) {
			struct citcat_cat_event e = mk(i);
			CHECK_EQ(citcat_cat_write(w, &e), 0);
		}
		CHECK_EQ(citcat_cat_writer_close(w), 0);
		struct citcat_cat_reader *r;
		CHECK_EQ(citcat_cat_reader_open(&r, path), 0);
		const struct citcat_target_config *rc = citcat_cat_config(r);
		CHECK(rc->seed == 99 && rc->timestamps == (uint32_t)ts && rc->dcache.size == 16384 && rc->pen_miss == 20);
		struct citcat_cat_event got;
		unsigned n = 0;
		int st;
		while ((st = citcat_cat_next(r, &got)) == 1) {
			struct citcat_cat_event want = mk(n);
			if (!same(&got, &want, ts)) {
				fprintf(stderr, "event %u (kind %u) differs\n", n, want.kind);
				CHECK(0);
				break;
			}
			n++;
		}
		CHECK_EQ(st, 0);
		CHECK_EQ(n, N);
		citcat_cat_reader_close(r);
	}

	/* Bad files. */
	FILE *f = fopen(path, "rb");
	fseek(f, 0, SEEK_END);
	long size = ftell(f);
	rewind(f);
	char *buf = malloc((size_t)size);
	CHECK(fread(buf, 1, (size_t)size, f) == (size_t)size);
	fclose(f);
	char bad[] = "/tmp/citcat-test-catbad-XXXXXX";
	close(mkstemp(bad));
	int code;
#define TRY(len, expect)                                  \
	do {                                              \
		FILE *g = fopen(bad, "wb");               \
		fwrite(buf, 1, (size_t)(len), g);         \
		fclose(g);                                \
		count_events(bad, &code);                 \
		CHECK_EQ(code, expect);                   \
	} while (0)
	TRY(0, CITCAT_ERR_EMPTY);
	TRY(5, CITCAT_ERR_TRUNCATED);
	TRY(size - 3, CITCAT_ERR_TRUNCATED);
	TRY(size / 2, CITCAT_ERR_TRUNCATED);
	buf[size / 2] ^= 1;
	TRY(size, CITCAT_ERR_CHECKSUM);
	buf[size / 2] ^= 1;
	buf[8] = 2; /* version 2 */
	TRY(size, CITCAT_ERR_VERSION);
	buf[8] = 1;
	memcpy(buf, "CITR", 4); /* an itrace is the wrong kind of file */
	TRY(size, CITCAT_ERR_MAGIC);
	memcpy(buf, "CCAT", 4);
	buf[16 + 8] = 0x7f; /* absurd RAM size in the header: caught by its checksum */
	TRY(size, CITCAT_ERR_CHECKSUM);
	free(buf);

	/* Records in a valid container (as fuzz_cat builds them), each case
	 * read to its first error: a SYNC with flag bits set or a P wider
	 * than 32 bits is malformed (CAT.md), and so is a delta that leaves the
	 * 32-bit address space (it used to overflow a signed sum, undefined
	 * behaviour, found by fuzz_cat); deltas to the edges are fine. */
	static const struct {
		uint8_t rec[16];
		size_t len;
		int events, code; /* events read before CODE (0: the end) */
	} cases[] = {
		{{0x0a, 0x44}, 2, 1, 0},
		{{0x1a, 0x44}, 2, 0, CITCAT_ERR_CORRUPT},
		{{0x0a, 0x80, 0x80, 0x80, 0x80, 0x10}, 6, 0, CITCAT_ERR_CORRUPT},
		/* IRQ to epc 1, then a delta of 2^63 - 1 */
		{{0x08, 0x00, 0x02, 0x08, 0x00, 0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}, 15, 1,
		 CITCAT_ERR_CORRUPT},
		/* IRQ to epc 0xffffffff, then back by 0xffffffff to 0 */
		{{0x08, 0x00, 0xfe, 0xff, 0xff, 0xff, 0x1f, 0x08, 0x00, 0xfd, 0xff, 0xff, 0xff, 0x1f}, 14, 2, 0},
		/* IRQ to epc 2^32 (an alias of 0) */
		{{0x08, 0x00, 0x80, 0x80, 0x80, 0x80, 0x20}, 7, 0, CITCAT_ERR_CORRUPT},
		/* a one-byte write 1 below address 0 */
		{{0x04, 0x01, 0x00}, 3, 0, CITCAT_ERR_CORRUPT},
		/* an uncached read at 0xffffffff, then one byte further */
		{{0x05, 0xfe, 0xff, 0xff, 0xff, 0x1f, 0x00, 0x05, 0x02, 0x00}, 10, 1, CITCAT_ERR_CORRUPT},
	};
	for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
		struct citcat_target_config cfg;
		citcat_target_config_default(&cfg);
		uint8_t meta[CITCAT_TARGET_META_LEN];
		citcat_target_config_encode(&cfg, meta);
		size_t blen = 0;
		uint8_t *b = wrap_container("CCAT\r\n\x1a\n", CITCAT_CAT_VERSION, meta, sizeof meta, cases[k].rec,
					    cases[k].len, (uint32_t)cases[k].events + (cases[k].code != 0), &blen);
		struct citcat_cat_reader *r;
		struct citcat_cat_event e;
		CHECK(b != NULL);
		CHECK_EQ(citcat_cat_reader_open_mem(&r, b, blen), 0);
		int st, n = 0;
		while ((st = citcat_cat_next(r, &e)) == 1)
			n++;
		if (n != cases[k].events || st != cases[k].code)
			fprintf(stderr, "case %zu: %d events then %d\n", k, n, st);
		CHECK_EQ(n, cases[k].events);
		CHECK_EQ(st, cases[k].code);
		citcat_cat_reader_close(r);
		free(b);
	}
	unlink(bad);
	unlink(path);
	CHECK_DONE();
}
