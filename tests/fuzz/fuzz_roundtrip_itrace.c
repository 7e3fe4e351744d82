/* Round-trip fuzz target of the itrace encoder (roundtrip.h): decode,
 * encode (E1), decode E1 to the same records, encode again (E2), E1 == E2
 * byte for byte.  An input starting "CITR" is a whole file; any other is a
 * chunk's records, wrapped as fuzz_itrace.c does (the record count taken
 * from a first read). */
#include "itrace.h"
#include "roundtrip.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int open_mem(void **r, const void *buf, size_t len)
{
	return citcat_itrace_reader_open_mem((struct citcat_itrace_reader **)r, buf, len);
}
static int open_file(void **r, const char *path) { return citcat_itrace_reader_open((struct citcat_itrace_reader **)r, path); }
static int next(void *r, void *rec) { return citcat_itrace_next(r, rec); }
static void close_r(void *r) { citcat_itrace_reader_close(r); }
static int writer_open(void **w, const char *path, void *r)
{
	return citcat_itrace_writer_open((struct citcat_itrace_writer **)w, path, citcat_itrace_isa(r));
}
static int write_rec(void *w, const void *rec) { return citcat_itrace_write(w, rec); }
static int writer_close(void *w) { return citcat_itrace_writer_close(w); }
static void writer_abort(void *w) { citcat_itrace_writer_abort(w); }
static int same(const void *a, const void *b) { return citcat_itrace_rec_equal(a, b); }

static const struct rt_codec codec = {
	.e1 = "e1.itrace", .e2 = "e2.itrace", .rec_size = sizeof(struct citcat_itrace_rec),
	.open_mem = open_mem, .open_file = open_file, .next = next, .close = close_r,
	.writer_open = writer_open, .write = write_rec, .writer_close = writer_close, .writer_abort = writer_abort,
	.same = same,
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint8_t meta[8] = {CITCAT_ISA_ARM_A32};
	rt_fuzz(&codec, data, size, "CITR\r\n\x1a\n", CITCAT_ITRACE_VERSION, meta, sizeof meta, data, size);
	return 0;
}
