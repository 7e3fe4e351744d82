/* Round-trip fuzz target of the AES encoder (roundtrip.h): decode, encode
 * (E1) under the input's trace id, decode E1 to the same records, encode
 * again (E2), E1 == E2 byte for byte.  REPEAT copies are records like any
 * other on both sides (the writer makes its own runs); inputs whose REPEATs
 * stand for more than RT_MAX_RECORDS records are skipped, since a REPEAT
 * count is bounded only by the instruction count the file claims.  Inputs
 * as for fuzz_aes.c: a whole file ("CAES"), or records wrapped in a
 * container claiming 65536 instructions (the record count taken from a
 * first read, where a REPEAT counts once). */
#include "aes.h"
#include "roundtrip.h"

#define RT_MAX_RECORDS 200000

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int same(const void *pa, const void *pb)
{
	const struct citcat_aes_rec *a = pa, *b = pb;
	return a->kind == b->kind && a->line == b->line && a->size == b->size && a->addr == b->addr && a->pc == b->pc &&
	       a->value == b->value && a->bcount == b->bcount && a->len == b->len && a->insns == b->insns &&
	       (a->len == 0 || memcmp(a->data, b->data, a->len) == 0);
}

static int same_header(void *ra, void *rb)
{
	const struct citcat_trace_id *a = citcat_aes_trace_id(ra), *b = citcat_aes_trace_id(rb);
	return a->hash == b->hash && a->start_pc == b->start_pc && a->insns == b->insns;
}

static int too_many(void *r, long n)
{
	uint64_t pending = citcat_aes_pending_repeats(r);
	return pending > RT_MAX_RECORDS || (uint64_t)n + pending > RT_MAX_RECORDS;
}

static void count_one(void *r) { citcat_aes_skip_repeats(r); }

static int open_mem(void **r, const void *buf, size_t len)
{
	return citcat_aes_reader_open_mem((struct citcat_aes_reader **)r, buf, len);
}
static int open_file(void **r, const char *path) { return citcat_aes_reader_open((struct citcat_aes_reader **)r, path); }
static int next(void *r, void *rec) { return citcat_aes_next(r, rec); }
static void close_r(void *r) { citcat_aes_reader_close(r); }
static int writer_open(void **w, const char *path, void *r)
{
	struct citcat_target_config cfg;
	citcat_target_config_default(&cfg); /* the writer takes only the device base and the target from it */
	cfg.isa = citcat_aes_isa(r);      /* an M7 AES's records carry exception numbers (AES.md) */
	return citcat_aes_writer_open((struct citcat_aes_writer **)w, path, citcat_aes_trace_id(r), &cfg);
}
static int write_rec(void *w, const void *rec) { return citcat_aes_write(w, rec); }
static int writer_close(void *w) { return citcat_aes_writer_close(w); }
static void writer_abort(void *w) { citcat_aes_writer_abort(w); }

static const struct rt_codec codec = {
	.e1 = "e1.aes", .e2 = "e2.aes", .rec_size = sizeof(struct citcat_aes_rec),
	.open_mem = open_mem, .open_file = open_file, .next = next, .close = close_r,
	.writer_open = writer_open, .write = write_rec, .writer_close = writer_close, .writer_abort = writer_abort,
	.same = same, .same_header = same_header, .too_many = too_many, .count_one = count_one,
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t meta[32] = {0};
	meta[14] = 1; /* 65536 traced instructions: bounds REPEAT counts */
	rt_fuzz(&codec, data, size, "CAES\r\n\x1a\n", CITCAT_AES_VERSION, meta, sizeof meta, data, size);
	return 0;
}
