/* din and xdin: tolerant reading, canonical writing, unrepresentable types
 * and malformed lines with their byte offsets. */
#include "addr_testutil.h"

static void test_read_tolerant(void)
{
	static const char in[] = "2 430d70\n"
				 "  0 0x1000ACAC trailing text\n"
				 "\n"
				 "1\t7fff00ac\r\n"
				 "3 0\n"
				 "4 ffffffffffffffff\n"
				 "2 430d74"; /* no final newline */
	struct citcat_ref want[] = {{0x430d70, 0, 2}, {0x1000acac, 0, 0}, {0x7fff00ac, 0, 1},
				    {0, 0, 3},        {UINT64_MAX, 0, 4},  {0x430d74, 0, 2}};
	CHECK(decode_equals((const uint8_t *)in, sizeof in - 1, CITCAT_ADDR_AUTO, want, 6));
	/* canonical output */
	struct citcat_addr_config c = {sizeof c, CITCAT_ADDR_DIN, 0, 0, 0, 0, 0};
	size_t len;
	uint8_t *f = encode_mem(&c, want, 6, &len, NULL);
	static const char canon[] = "2 430d70\n0 1000acac\n1 7fff00ac\n3 0\n4 ffffffffffffffff\n2 430d74\n";
	CHECK(f && len == sizeof canon - 1 && memcmp(f, canon, len) == 0);
	free(f);
}

static void test_xdin(void)
{
	static const char in[] = "i 8000 4\nr 0x20001000 0x2\nw 20001004 1 junk\nm 10 4\nc 20 20\nv 40 20\n";
	struct citcat_ref want[] = {{0x8000, 4, 2}, {0x20001000, 2, 0}, {0x20001004, 1, 1},
				    {0x10, 4, 3},   {0x20, 0x20, 5},    {0x40, 0x20, 6}};
	CHECK(decode_equals((const uint8_t *)in, sizeof in - 1, CITCAT_ADDR_AUTO, want, 6));
	struct citcat_addr_config c = {sizeof c, CITCAT_ADDR_XDIN, 0, 0, 0, 0, 0};
	size_t len;
	uint8_t *f = encode_mem(&c, want, 6, &len, NULL);
	static const char canon[] = "i 8000 4\nr 20001000 2\nw 20001004 1\nm 10 4\nc 20 20\nv 40 20\n";
	CHECK(f && len == sizeof canon - 1 && memcmp(f, canon, len) == 0);
	free(f);
	/* flush has no xdin label; copy-back none in din */
	struct citcat_addr_writer *w;
	struct citcat_ref fl = {0, 0, 4}, cb = {0, 0, 5};
	CHECK_EQ(citcat_addr_writer_open(&w, NULL, &c), 0);
	CHECK_EQ(citcat_addr_put(w, &fl), CITCAT_ERR_INVAL);
	citcat_addr_writer_abort(w);
	c.fmt = CITCAT_ADDR_DIN;
	CHECK_EQ(citcat_addr_writer_open(&w, NULL, &c), 0);
	CHECK_EQ(citcat_addr_put(w, &cb), CITCAT_ERR_INVAL);
	citcat_addr_writer_abort(w);
}

static void test_errors(void)
{
	uint64_t off;
	static const char big[] = "2 1\n0 123456789abcdef01\n";
	CHECK_EQ(decode_error((const uint8_t *)big, sizeof big - 1, &off), CITCAT_ERR_LIMIT);
	CHECK_EQ(off, 6);
	static const char lab[] = "2 1\n2 2\n7 3\n";
	CHECK_EQ(decode_error((const uint8_t *)lab, sizeof lab - 1, &off), CITCAT_ERR_CORRUPT);
	CHECK_EQ(off, 8);
	static const char nohex[] = "2 1\n2 zz\n";
	CHECK_EQ(decode_error((const uint8_t *)nohex, sizeof nohex - 1, &off), CITCAT_ERR_CORRUPT);
	CHECK_EQ(off, 6);
	static const char glued[] = "2 1\n2 12g4\n";
	CHECK_EQ(decode_error((const uint8_t *)glued, sizeof glued - 1, &off), CITCAT_ERR_CORRUPT);
	CHECK_EQ(off, 8);
	static const char nosize[] = "i 1 4\ni 2\n";
	CHECK_EQ(decode_error((const uint8_t *)nosize, sizeof nosize - 1, &off), CITCAT_ERR_CORRUPT);
	CHECK_EQ(off, 9);
	CHECK_EQ(decode_error((const uint8_t *)"hello", 5, &off), CITCAT_ERR_MAGIC);
	/* a line too long */
	char *lng = malloc(10000);
	memset(lng, ' ', 10000);
	memcpy(lng, "2 1\n", 4);
	CHECK_EQ(decode_error((const uint8_t *)lng, 10000, &off), CITCAT_ERR_LIMIT);
	CHECK_EQ(off, 4);
	free(lng);
}

static void test_long_stream(void)
{
	/* larger than the I/O buffers, to cross refills mid-line */
	enum { N = 100000 };
	struct citcat_ref *refs = malloc(N * sizeof *refs);
	for (int i = 0; i < N; i++) {
		refs[i].type = (uint8_t)(i % 5);
		refs[i].addr = (uint64_t)i * 0x9e3779b97f4a7c15ull >> (i % 60);
		refs[i].size = 0;
	}
	for (int fmt = CITCAT_ADDR_DIN; fmt <= CITCAT_ADDR_PDATS2; fmt++) {
		if (fmt == CITCAT_ADDR_XDIN)
			continue; /* no flush label */
		for (int lz4 = 0; lz4 < 2; lz4++) {
			struct citcat_addr_config c = {sizeof c, fmt, 64, 4, lz4, 0, 0};
			size_t len;
			uint8_t *f = encode_mem(&c, refs, N, &len, NULL);
			CHECK(f && decode_equals(f, len, fmt, refs, N));
			free(f);
		}
	}
	free(refs);
}

int main(void)
{
	test_read_tolerant();
	test_xdin();
	test_errors();
	test_long_stream();
	CHECK_DONE();
}
