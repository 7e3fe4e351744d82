/* Round-trip fuzz target of the CAT encoder (roundtrip.h): decode, encode
 * (E1) with the input's configuration, decode E1 to the same events, encode
 * again (E2), E1 == E2 byte for byte.  Inputs as for fuzz_cat.c: a whole
 * file ("CCAT"), or [configuration byte][records] wrapped in a container
 * (the record count taken from a first read).
 *
 * A STOP's timestamp is not kept: the reader puts its cycle total in CYCLE
 * (cat.h), so E1 records the total as the timestamp.  Every other field
 * comes back. */
#include "cat.h"
#include "roundtrip.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int same(const void *pa, const void *pb)
{
	const struct citcat_cat_event *a = pa, *b = pb;
	return a->kind == b->kind && a->size == b->size && a->line == b->line && a->addr == b->addr &&
	       a->value == b->value && a->len == b->len && a->bcount == b->bcount && a->pc == b->pc &&
	       a->insns == b->insns && a->cycle == b->cycle && a->repl_state[0] == b->repl_state[0] &&
	       a->repl_state[1] == b->repl_state[1] && (a->len == 0 || memcmp(a->data, b->data, a->len) == 0);
}

static int open_mem(void **r, const void *buf, size_t len)
{
	return citcat_cat_reader_open_mem((struct citcat_cat_reader **)r, buf, len);
}
static int open_file(void **r, const char *path) { return citcat_cat_reader_open((struct citcat_cat_reader **)r, path); }
static int next(void *r, void *rec) { return citcat_cat_next(r, rec); }
static void close_r(void *r) { citcat_cat_reader_close(r); }
static int writer_open(void **w, const char *path, void *r)
{
	return citcat_cat_writer_open((struct citcat_cat_writer **)w, path, citcat_cat_config(r));
}
static int write_rec(void *w, const void *rec) { return citcat_cat_write(w, rec); }
static int writer_close(void *w) { return citcat_cat_writer_close(w); }
static void writer_abort(void *w) { citcat_cat_writer_abort(w); }

static const struct rt_codec codec = {
	.e1 = "e1.cat", .e2 = "e2.cat", .rec_size = sizeof(struct citcat_cat_event),
	.open_mem = open_mem, .open_file = open_file, .next = next, .close = close_r,
	.writer_open = writer_open, .write = write_rec, .writer_close = writer_close, .writer_abort = writer_abort,
	.same = same,
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t meta[CITCAT_TARGET_META_LEN];
	const uint8_t *rec;
	size_t len;
	wrap_cat_input(data, size, CITCAT_TARGET_ARMV7A, meta, &rec, &len);
	rt_fuzz(&codec, data, size, "CCAT\r\n\x1a\n", CITCAT_CAT_VERSION, meta, sizeof meta, rec, len);
	return 0;
}
