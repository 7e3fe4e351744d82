/* PDATS: Table 3 of the PDATS II paper (PDATS column) byte for byte, in
 * version 1 and 2 (the same records: one instruction size), version 2's
 * next instruction of either size on a hand-worked Thumb-2 loop, repeat
 * counts, all reference types, and malformed input. */
#include "addr_testutil.h"
#include "bytes.h"

static void test_table3(unsigned version)
{
	struct citcat_ref refs[29];
	table3_load(refs);
	struct citcat_addr_config c = {sizeof c, CITCAT_ADDR_PDATS, 32, 0, 0, version, 0};
	size_t len;
	uint64_t payload;
	uint8_t *f = encode_mem(&c, refs, 29, &len, &payload);
	CHECK(f != NULL);
	if (!f)
		return;
	const uint8_t hdr[8] = {'P', 'D', 'T', 'S', (uint8_t)version, 32, 0, 0};
	CHECK(memcmp(f, hdr, 8) == 0);
	CHECK_EQ(decoded_payload(f, len), 46);
	check_records(f + 8, len - 8, table3_pdats, sizeof table3_pdats / sizeof *table3_pdats, 46);
	CHECK_EQ(len, 8 + 46 + 1 + 12);
	CHECK_EQ(f[54], 0x07);
	CHECK_EQ(cc_get64(f + 55), 29);
	CHECK(decode_equals(f, len, CITCAT_ADDR_AUTO, refs, 29));
	for (size_t cut = 0; cut < len; cut++) {
		uint64_t off;
		if (decode_error(f, cut, &off) >= 0) {
			fprintf(stderr, "truncation at %zu not detected\n", cut);
			check_failures++;
		}
	}
	uint64_t off;
	/* repeat count byte past the end: row 5's record is at payload byte 16 */
	CHECK_EQ(decode_error(f, 8 + 17, &off), CITCAT_ERR_TRUNCATED);
	CHECK_EQ(off, 8 + 16);
	/* repeat count 0 */
	f[8 + 17] = 0;
	CHECK_EQ(decode_error(f, len, &off), CITCAT_ERR_CORRUPT);
	CHECK_EQ(off, 8 + 17);
	f[8 + 17] = 3;
	/* time-stamp bits */
	f[8] |= 0x08;
	CHECK_EQ(decode_error(f, len, &off), CITCAT_ERR_UNSUPPORTED);
	CHECK_EQ(off, 8);
	f[8] = 0x6f; /* type 7 */
	CHECK_EQ(decode_error(f, len, &off), CITCAT_ERR_CORRUPT);
	f[8] = 0x62;
	/* checksum */
	f[len - 1] ^= 1;
	CHECK_EQ(decode_error(f, len, &off), CITCAT_ERR_CHECKSUM);
	f[len - 1] ^= 1;
	CHECK(decode_equals(f, len, CITCAT_ADDR_PDATS, refs, 29));
	free(f);
	c.lz4 = 1;
	f = encode_mem(&c, refs, 29, &len, &payload);
	CHECK(f && decode_equals(f, len, CITCAT_ADDR_AUTO, refs, 29));
	free(f);
}

static void test_repeats_types(void)
{
	enum { N = 2000 };
	static struct citcat_ref refs[N];
	for (int i = 0; i < N; i++) {
		refs[i].type = (uint8_t)(i < 1000 ? 2 : i % 7); /* a 1000-long run: repeat counts saturate at 255 */
		refs[i].addr = i < 1000 ? 0x1000 + 4u * (unsigned)i : (uint64_t)(i * 7919) & 0xffffffff;
		refs[i].size = 0;
	}
	struct citcat_addr_config c = {sizeof c, CITCAT_ADDR_PDATS, 32, 0, 0, 0, 0};
	size_t len;
	uint8_t *f = encode_mem(&c, refs, N, &len, NULL);
	CHECK(f && decode_equals(f, len, CITCAT_ADDR_PDATS, refs, N));
	free(f);
	c.addr_bits = 64;
	refs[5].addr = 0xfedcba9876543210ull;
	f = encode_mem(&c, refs, N, &len, NULL);
	CHECK(f && decode_equals(f, len, CITCAT_ADDR_PDATS, refs, N));
	free(f);
}

/* The Thumb-2 loop of table3.h: 34 bytes, record by record. */
static void test_thumb_loop(void)
{
	struct citcat_ref refs[25];
	for (int i = 0; i < 25; i++)
		refs[i] = (struct citcat_ref){thumb_loop_refs[i].addr, 0, thumb_loop_refs[i].type};
	struct citcat_addr_config c = {sizeof c, CITCAT_ADDR_PDATS, 32, 0, 0, 0, 0};
	size_t len;
	uint64_t payload;
	uint8_t *f = encode_mem(&c, refs, 25, &len, &payload);
	CHECK(f != NULL);
	if (!f)
		return;
	static const uint8_t hdr[8] = {'P', 'D', 'T', 'S', 2, 32, 0, 0};
	CHECK(memcmp(f, hdr, 8) == 0);
	CHECK_EQ(decoded_payload(f, len), 34); /* the writer counts its last record at finish */
	check_records(f + 8, len - 8, thumb_loop_pdats, sizeof thumb_loop_pdats / sizeof *thumb_loop_pdats, 34);
	CHECK(decode_equals(f, len, CITCAT_ADDR_PDATS, refs, 25));
	for (size_t cut = 0; cut < len; cut++) {
		uint64_t off;
		if (decode_error(f, cut, &off) >= 0) {
			fprintf(stderr, "thumb loop: truncation at %zu not detected\n", cut);
			check_failures++;
		}
	}
	uint64_t off;
	f[8 + 7] = 2; /* the mode byte: 0 or 1 */
	CHECK_EQ(decode_error(f, len, &off), CITCAT_ERR_CORRUPT);
	CHECK_EQ(off, 8 + 7);
	f[8 + 7] = 1;
	f[6] = 2; /* a reserved flag bit */
	CHECK_EQ(decode_error(f, len, &off), CITCAT_ERR_CORRUPT);
	CHECK_EQ(off, 6);
	f[6] = 0;
	free(f);
	/* begun with two sizes: no mode record, flag bit 0 set */
	c.isizes = 1;
	f = encode_mem(&c, refs, 25, &len, &payload);
	CHECK(f && f[6] == 1);
	CHECK(f && decode_equals(f, len, CITCAT_ADDR_AUTO, refs, 25));
	free(f);
}

int main(void)
{
	test_table3(1);
	test_table3(2);
	test_thumb_loop();
	test_repeats_types();
	CHECK_DONE();
}
