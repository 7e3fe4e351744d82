/* Round-trip fuzz target of the CAT encoder (roundtrip.h): decode, encode
 * (E1) with the input's configuration, decode E1 to the same events, encode
 * again (E2), E1 == E2 byte for byte.  Inputs as for fuzz_cat.c: a whole
 * file ("CCAT"), or [configuration byte][records] wrapped in a container
 * (the record count taken from a first read). */
#include "cat.h"
#include "roundtrip.h"
#include "wrap.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int same_event(const struct citcat_cat_event *a, const struct citcat_cat_event *b)
{
	return a->kind == b->kind && a->size == b->size && a->line == b->line && a->addr == b->addr &&
	       a->value == b->value && a->len == b->len && a->bcount == b->bcount && a->pc == b->pc &&
	       a->insns == b->insns && a->cycle == b->cycle && a->repl_state[0] == b->repl_state[0] &&
	       a->repl_state[1] == b->repl_state[1] && (a->len == 0 || memcmp(a->data, b->data, a->len) == 0);
}

static long encode(const uint8_t *buf, size_t len, const char *path)
{
	struct citcat_cat_reader *r;
	struct citcat_cat_writer *w = NULL;
	struct citcat_cat_event ev;
	long n = 0;
	int rc = citcat_cat_reader_open_mem(&r, buf, len);
	if (rc == 0 && citcat_cat_writer_open(&w, path, citcat_cat_config(r)) != 0)
		rt_fail("cannot create the output (or the writer refuses the reader's configuration)");
	while (rc == 0 && (rc = citcat_cat_next(r, &ev)) == 1) {
		if (citcat_cat_write(w, &ev) != 0)
			rt_fail("the writer refused an event the reader returned");
		rc = 0;
		n++;
	}
	citcat_cat_reader_close(r);
	if (rc < 0) {
		citcat_cat_writer_abort(w);
		return -1;
	}
	if (citcat_cat_writer_close(w) != 0)
		rt_fail("closing the output failed");
	return n;
}

static void round_trip(const uint8_t *buf, size_t len)
{
	char *e1 = fuzz_path("e1.cat"), *e2 = fuzz_path("e2.cat");
	long n = encode(buf, len, e1);
	if (n >= 0) {
		struct citcat_cat_reader *a, *b;
		struct citcat_cat_event ea, eb;
		if (citcat_cat_reader_open_mem(&a, buf, len) || citcat_cat_reader_open(&b, e1))
			rt_fail("reopening failed");
		int ka, kb;
		do {
			ka = citcat_cat_next(a, &ea);
			kb = citcat_cat_next(b, &eb);
			/* A STOP's timestamp is not kept: the reader puts its cycle
			 * total in CYCLE (cat.h), so E1 records the total as the
			 * timestamp.  Every other field comes back. */
			if (ka != kb || (ka == 1 && !same_event(&ea, &eb)))
				rt_fail("E1 decodes to other events");
		} while (ka == 1);
		citcat_cat_reader_close(a);
		citcat_cat_reader_close(b);
		size_t l1;
		uint8_t *b1 = rt_slurp(e1, &l1);
		if (encode(b1, l1, e2) != n)
			rt_fail("E1 does not decode to its end");
		free(b1);
		rt_same_files(e1, e2);
	}
	free(e1);
	free(e2);
}

static uint32_t count(const uint8_t *buf, size_t len)
{
	struct citcat_cat_reader *r;
	struct citcat_cat_event ev;
	uint32_t n = 0;
	if (citcat_cat_reader_open_mem(&r, buf, len) == 0)
		while (citcat_cat_next(r, &ev) == 1)
			n++;
	citcat_cat_reader_close(r);
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size >= 4 && memcmp(data, "CCAT", 4) == 0) {
		round_trip(data, size);
		return 0;
	}
	static const uint32_t lines[4] = {32, 16, 64, 8};
	struct citcat_target_config cfg;
	citcat_target_config_default(&cfg);
	unsigned sel = size ? data[0] : 0;
	cfg.timestamps = sel & 1;
	cfg.icache.line = lines[(sel >> 1) & 3];
	cfg.dcache.line = lines[(sel >> 3) & 3];
	uint8_t meta[CITCAT_TARGET_META_LEN];
	citcat_target_config_encode(&cfg, meta);
	const uint8_t *rec = size ? data + 1 : data;
	size_t len = size ? size - 1 : 0, blen;
	uint8_t *b = wrap_container("CCAT\r\n\x1a\n", CITCAT_CAT_VERSION, meta, sizeof meta, rec, len, 1, &blen);
	uint32_t n = b ? count(b, blen) : 0;
	free(b);
	if (!n)
		return 0;
	b = wrap_container("CCAT\r\n\x1a\n", CITCAT_CAT_VERSION, meta, sizeof meta, rec, len, n, &blen);
	if (b)
		round_trip(b, blen);
	free(b);
	return 0;
}
