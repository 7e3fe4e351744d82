/* Round-trip fuzz target of the itrace encoder (roundtrip.h): decode,
 * encode (E1), decode E1 to the same records, encode again (E2), E1 == E2
 * byte for byte.  An input starting "CITR" is a whole file; any other is a
 * chunk's records, wrapped as fuzz_itrace.c does (the record count taken
 * from a first read). */
#include "itrace.h"
#include "roundtrip.h"
#include "wrap.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct citcat_itrace_rec ra, rb;

/* Writes every record of BUF to PATH; the number of records, or -1 when
 * BUF does not decode to its end (nothing to round-trip). */
static long encode(const uint8_t *buf, size_t len, const char *path)
{
	struct citcat_itrace_reader *r;
	struct citcat_itrace_writer *w = NULL;
	long n = 0;
	int rc = citcat_itrace_reader_open_mem(&r, buf, len);
	if (rc == 0 && citcat_itrace_writer_open(&w, path, citcat_itrace_isa(r)) != 0)
		rt_fail("cannot create the output");
	while (rc == 0 && (rc = citcat_itrace_next(r, &ra)) == 1) {
		if (citcat_itrace_write(w, &ra) != 0)
			rt_fail("the writer refused a record the reader returned");
		rc = 0;
		n++;
	}
	citcat_itrace_reader_close(r);
	if (rc < 0) {
		citcat_itrace_writer_abort(w);
		return -1;
	}
	if (citcat_itrace_writer_close(w) != 0)
		rt_fail("closing the output failed");
	return n;
}

static void round_trip(const uint8_t *buf, size_t len)
{
	char *e1 = fuzz_path("e1.itrace"), *e2 = fuzz_path("e2.itrace");
	long n = encode(buf, len, e1);
	if (n >= 0) {
		/* decode(E1) gives the input's records back, in order */
		struct citcat_itrace_reader *a, *b;
		if (citcat_itrace_reader_open_mem(&a, buf, len) || citcat_itrace_reader_open(&b, e1))
			rt_fail("reopening failed");
		int ka, kb;
		do {
			ka = citcat_itrace_next(a, &ra);
			kb = citcat_itrace_next(b, &rb);
			if (ka != kb || (ka == 1 && !citcat_itrace_rec_equal(&ra, &rb)))
				rt_fail("E1 decodes to other records");
		} while (ka == 1);
		citcat_itrace_reader_close(a);
		citcat_itrace_reader_close(b);
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
	struct citcat_itrace_reader *r;
	uint32_t n = 0;
	if (citcat_itrace_reader_open_mem(&r, buf, len) == 0)
		while (citcat_itrace_next(r, &ra) == 1)
			n++;
	citcat_itrace_reader_close(r);
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size >= 4 && memcmp(data, "CITR", 4) == 0) {
		round_trip(data, size);
		return 0;
	}
	static const uint8_t meta[8] = {CITCAT_ISA_ARM_A32};
	size_t blen;
	uint8_t *b = wrap_container("CITR\r\n\x1a\n", CITCAT_ITRACE_VERSION, meta, sizeof meta, data, size, 1, &blen);
	uint32_t n = b ? count(b, blen) : 0;
	free(b);
	if (!n)
		return 0;
	b = wrap_container("CITR\r\n\x1a\n", CITCAT_ITRACE_VERSION, meta, sizeof meta, data, size, n, &blen);
	if (b)
		round_trip(b, blen);
	free(b);
	return 0;
}
