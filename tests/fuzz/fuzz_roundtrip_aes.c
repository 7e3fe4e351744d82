/* Round-trip fuzz target of the AES encoder (roundtrip.h): decode, encode
 * (E1) under the input's trace id, decode E1 to the same records, encode
 * again (E2), E1 == E2 byte for byte.  REPEAT copies are records like any
 * other on both sides (the writer makes its own runs); inputs whose REPEATs
 * stand for more than RT_MAX_RECORDS records are skipped, since a REPEAT
 * count is bounded only by the instruction count the file claims.  Inputs
 * as for fuzz_aes.c: a whole file ("CAES"), or records wrapped in a
 * container claiming 65536 instructions (the record count taken from a
 * first read). */
#include "aes.h"
#include "roundtrip.h"
#include "wrap.h"

#define RT_MAX_RECORDS 200000

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int same_rec(const struct citcat_aes_rec *a, const struct citcat_aes_rec *b)
{
	return a->kind == b->kind && a->line == b->line && a->size == b->size && a->addr == b->addr && a->pc == b->pc &&
	       a->value == b->value && a->bcount == b->bcount && a->len == b->len && a->insns == b->insns &&
	       (a->len == 0 || memcmp(a->data, b->data, a->len) == 0);
}

static long encode(const uint8_t *buf, size_t len, const char *path)
{
	struct citcat_aes_reader *r;
	struct citcat_aes_writer *w = NULL;
	struct citcat_aes_rec rec;
	struct citcat_target_config cfg;
	citcat_target_config_default(&cfg); /* the writer takes only the device base from it */
	long n = 0;
	int rc = citcat_aes_reader_open_mem(&r, buf, len);
	if (rc == 0 && citcat_aes_writer_open(&w, path, citcat_aes_trace_id(r), &cfg) != 0)
		rt_fail("cannot create the output");
	while (rc == 0 && (rc = citcat_aes_next(r, &rec)) == 1) {
		rc = 0;
		uint64_t pending = citcat_aes_pending_repeats(r);
		if (pending > RT_MAX_RECORDS || (uint64_t)++n + pending > RT_MAX_RECORDS) {
			rc = -1; /* too many copies to go through one by one */
			break;
		}
		if (citcat_aes_write(w, &rec) != 0)
			rt_fail("the writer refused a record the reader returned");
	}
	citcat_aes_reader_close(r);
	if (rc < 0) {
		citcat_aes_writer_abort(w);
		return -1;
	}
	if (citcat_aes_writer_close(w) != 0)
		rt_fail("closing the output failed");
	return n;
}

static void round_trip(const uint8_t *buf, size_t len)
{
	char *e1 = fuzz_path("e1.aes"), *e2 = fuzz_path("e2.aes");
	long n = encode(buf, len, e1);
	if (n >= 0) {
		struct citcat_aes_reader *a, *b;
		struct citcat_aes_rec ra, rb;
		if (citcat_aes_reader_open_mem(&a, buf, len) || citcat_aes_reader_open(&b, e1))
			rt_fail("reopening failed");
		const struct citcat_trace_id *ia = citcat_aes_trace_id(a), *ib = citcat_aes_trace_id(b);
		if (ia->hash != ib->hash || ia->start_pc != ib->start_pc || ia->insns != ib->insns)
			rt_fail("E1 has another trace id");
		int ka, kb;
		do {
			ka = citcat_aes_next(a, &ra);
			kb = citcat_aes_next(b, &rb);
			if (ka != kb || (ka == 1 && !same_rec(&ra, &rb)))
				rt_fail("E1 decodes to other records");
		} while (ka == 1);
		citcat_aes_reader_close(a);
		citcat_aes_reader_close(b);
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
	struct citcat_aes_reader *r;
	struct citcat_aes_rec rec;
	uint32_t n = 0;
	if (citcat_aes_reader_open_mem(&r, buf, len) == 0)
		while (citcat_aes_next(r, &rec) == 1) {
			citcat_aes_skip_repeats(r); /* the chunk's nrec counts a REPEAT once */
			n++;
		}
	citcat_aes_reader_close(r);
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size >= 4 && memcmp(data, "CAES", 4) == 0) {
		round_trip(data, size);
		return 0;
	}
	uint8_t meta[32] = {0};
	meta[14] = 1; /* 65536 traced instructions: bounds REPEAT counts */
	size_t blen;
	uint8_t *b = wrap_container("CAES\r\n\x1a\n", CITCAT_AES_VERSION, meta, sizeof meta, data, size, 1, &blen);
	uint32_t n = b ? count(b, blen) : 0;
	free(b);
	if (!n)
		return 0;
	b = wrap_container("CAES\r\n\x1a\n", CITCAT_AES_VERSION, meta, sizeof meta, data, size, n, &blen);
	if (b)
		round_trip(b, blen);
	free(b);
	return 0;
}
