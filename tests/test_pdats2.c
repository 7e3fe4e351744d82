/* PDATS II: Table 3 of the paper byte for byte, zone choice, escapes, the
 * 64-bit variant, LZ4 wrapping and malformed input. */
#include "addr_testutil.h"
#include "bytes.h"

static struct citcat_addr_config cfg(int bits, int lz4)
{
	struct citcat_addr_config c = {sizeof c, CITCAT_ADDR_PDATS2, (unsigned)bits, 4, lz4};
	return c;
}

static void test_table3(void)
{
	struct citcat_ref refs[29];
	table3_load(refs);
	struct citcat_addr_config c = cfg(32, 0);
	size_t len;
	uint64_t payload;
	uint8_t *f = encode_mem(&c, refs, 29, &len, &payload);
	CHECK(f != NULL);
	if (!f)
		return;
	static const uint8_t hdr[8] = {'P', 'D', 'T', '2', 1, 32, 4, 0};
	CHECK(memcmp(f, hdr, 8) == 0);
	CHECK_EQ(payload, 28);
	CHECK_EQ(decoded_payload(f, len), 28);
	check_records(f + 8, len - 8, table3_pdats2, sizeof table3_pdats2 / sizeof *table3_pdats2, 28);
	/* end marker, then the trailer: 29 references */
	CHECK_EQ(len, 8 + 28 + 2 + 12);
	CHECK(f[36] == 0x3f && f[37] == 0x01);
	CHECK_EQ(cc_get64(f + 38), 29);
	CHECK(decode_equals(f, len, CITCAT_ADDR_AUTO, refs, 29));

	/* every truncation is an error, never a silent short trace */
	for (size_t cut = 0; cut < len; cut++) {
		uint64_t off;
		int rc = decode_error(f, cut, &off);
		if (rc >= 0) {
			fprintf(stderr, "truncation at %zu not detected (rc %d)\n", cut, rc);
			check_failures++;
		}
	}
	/* a flipped bit in a record is caught (by decoding or by the checksum) */
	for (size_t i = 8; i < 36; i++) {
		f[i] ^= 0x10;
		uint64_t off;
		CHECK(decode_error(f, len, &off) < 0);
		f[i] ^= 0x10;
	}
	/* bad header */
	uint64_t off;
	f[4] = 9;
	CHECK_EQ(decode_error(f, len, &off), CITCAT_ERR_VERSION);
	CHECK_EQ(off, 4);
	f[4] = 1;
	f[5] = 48;
	CHECK_EQ(decode_error(f, len, &off), CITCAT_ERR_CORRUPT);
	CHECK_EQ(off, 5);
	f[5] = 32;
	f[6] = 3;
	CHECK_EQ(decode_error(f, len, &off), CITCAT_ERR_CORRUPT);
	f[6] = 4;
	/* truncated record: the 4-byte offset of row 11 cut short, reported at the record */
	CHECK_EQ(decode_error(f, 8 + 19, &off), CITCAT_ERR_TRUNCATED);
	CHECK_EQ(off, 8 + 17);
	free(f);

	/* with LZ4 */
	c.lz4 = 1;
	f = encode_mem(&c, refs, 29, &len, &payload);
	CHECK(f && f[0] == 0x04 && f[1] == 0x22 && f[2] == 0x4d && f[3] == 0x18);
	CHECK_EQ(payload, 28);
	CHECK(f && decode_equals(f, len, CITCAT_ADDR_AUTO, refs, 29));
	free(f);
}

static void test_escapes_and_64(void)
{
	struct citcat_ref refs[] = {
		{0x8000, 0, 2}, {0x8004, 0, 2}, {0x8006, 0, 2}, /* not a whole stride: escape */
		{0x800a, 0, 2}, {0x2000, 0, 3}, {0x0, 0, 4},    /* misc, flush */
		{0x3000, 0, 5}, {0x3000, 0, 6}, {0x800e, 0, 2}, {0x10, 0, 0}, {0x10, 0, 0}, {0x10, 0, 1},
		{0xfffffff0, 0, 0}, {0x14, 0, 1}, {0xfffffff8, 0, 0}, {0x8012, 0, 2},
	};
	size_t n = sizeof refs / sizeof *refs, len;
	struct citcat_addr_config c = cfg(32, 0);
	uint8_t *f = encode_mem(&c, refs, n, &len, NULL);
	CHECK(f && decode_equals(f, len, CITCAT_ADDR_PDATS2, refs, n));
	free(f);
	/* a 64-bit address does not fit a 32-bit file */
	struct citcat_ref big[] = {{0x123456789abcull, 0, 0}, {0xffffffff00000000ull, 0, 2},
				   {0x4, 0, 2}, {0x123456789ab0ull, 0, 1}, {0x7ffffffffffffffcull, 0, 2}};
	struct citcat_addr_writer *w;
	CHECK_EQ(citcat_addr_writer_open(&w, NULL, &c), 0);
	CHECK_EQ(citcat_addr_put(w, &big[0]), CITCAT_ERR_LIMIT);
	citcat_addr_writer_abort(w);
	c = cfg(64, 0);
	f = encode_mem(&c, big, 5, &len, NULL);
	CHECK(f && f[5] == 64);
	CHECK(f && decode_equals(f, len, CITCAT_ADDR_PDATS2, big, 5));
	free(f);
	/* bad arguments */
	CHECK_EQ(citcat_addr_put(NULL, &big[0]), CITCAT_ERR_INVAL);
	c.istride = 3;
	CHECK_EQ(citcat_addr_writer_open(&w, NULL, &c), CITCAT_ERR_INVAL);
	citcat_addr_writer_abort(w);
	CHECK_EQ(citcat_addr_reader_open_mem(NULL, "", 0, 0), CITCAT_ERR_INVAL);
}

static void test_malformed(void)
{
	uint64_t off;
	/* empty, bad magic */
	CHECK_EQ(decode_error((const uint8_t *)"", 0, &off), CITCAT_ERR_EMPTY);
	CHECK_EQ(decode_error((const uint8_t *)"PDTX\1\40\4\0", 8, &off), CITCAT_ERR_MAGIC);
	/* header only: no end marker */
	static const uint8_t h[] = {'P', 'D', 'T', '2', 1, 32, 4, 0};
	CHECK_EQ(decode_error(h, sizeof h, &off), CITCAT_ERR_TRUNCATED);
	CHECK_EQ(off, 8);
	/* reserved escape kind */
	static const uint8_t esc[] = {'P', 'D', 'T', '2', 1, 32, 4, 0, 0x2a, 0x01, 0, 0, 0, 0};
	CHECK_EQ(decode_error(esc, sizeof esc, &off), CITCAT_ERR_CORRUPT);
	CHECK_EQ(off, 8);
	/* a trailer whose count is past the references present */
	static const uint8_t cnt[] = {'P', 'D', 'T', '2', 1, 32, 4, 0, 0x00, 0x3f, 0x01, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
	CHECK_EQ(decode_error(cnt, sizeof cnt, &off), CITCAT_ERR_CORRUPT);
	CHECK_EQ(off, 11);
	/* an 8-byte offset record in a 64-bit file, cut short */
	static const uint8_t w64[] = {'P', 'D', 'T', '2', 1, 64, 4, 0, 0x60, 1, 2, 3, 4, 5, 6};
	CHECK_EQ(decode_error(w64, sizeof w64, &off), CITCAT_ERR_TRUNCATED);
	CHECK_EQ(off, 8);
}

int main(void)
{
	test_table3();
	test_escapes_and_64();
	test_malformed();
	CHECK_DONE();
}
