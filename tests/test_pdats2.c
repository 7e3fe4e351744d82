/* PDATS II: Table 3 of the paper byte for byte (version 1, and version 2
 * worked by hand), version 2's size, successor and run predictions on a
 * hand-worked Thumb-2 loop, zone choice, escapes, mode records, the 64-bit
 * variant, LZ4 wrapping and malformed input. */
#include "addr_testutil.h"
#include "bytes.h"

static struct citcat_addr_config cfg(int bits, int lz4)
{
	struct citcat_addr_config c = {sizeof c, CITCAT_ADDR_PDATS2, (unsigned)bits, 4, lz4, 0, 0};
	return c;
}

static void test_table3(void)
{
	struct citcat_ref refs[29];
	table3_load(refs);
	struct citcat_addr_config c = cfg(32, 0);
	c.version = 1; /* the paper's layout */
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
	f[4] = 4;
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


/* Version 2 of Table 3 (table3.h: 30 bytes, worked by hand). */
static void test_table3_v2(void)
{
	struct citcat_ref refs[29];
	table3_load(refs);
	struct citcat_addr_config c = cfg(32, 0);
	c.version = 2; /* the version 3 reader reads it (decode_equals below) */
	size_t len;
	uint64_t payload;
	uint8_t *f = encode_mem(&c, refs, 29, &len, &payload);
	CHECK(f != NULL);
	if (!f)
		return;
	static const uint8_t hdr[8] = {'P', 'D', 'T', '2', 2, 32, 4, 0};
	CHECK(memcmp(f, hdr, 8) == 0);
	CHECK_EQ(payload, 30);
	CHECK_EQ(decoded_payload(f, len), 30);
	check_records(f + 8, len - 8, table3_pdats2_v2, sizeof table3_pdats2_v2 / sizeof *table3_pdats2_v2, 30);
	CHECK_EQ(len, 8 + 30 + 2 + 12);
	CHECK(f[38] == 0x3f && f[39] == 0x00); /* the end: escape kind 31 */
	CHECK_EQ(cc_get64(f + 40), 29);
	CHECK(decode_equals(f, len, CITCAT_ADDR_AUTO, refs, 29));
	for (size_t cut = 0; cut < len; cut++) {
		uint64_t off;
		if (decode_error(f, cut, &off) >= 0) {
			fprintf(stderr, "v2: truncation at %zu not detected\n", cut);
			check_failures++;
		}
	}
	for (size_t i = 8; i < 38; i++) {
		f[i] ^= 0x10;
		uint64_t off;
		CHECK(decode_error(f, len, &off) < 0);
		f[i] ^= 0x10;
	}
	uint64_t off;
	f[4] = 4;
	CHECK_EQ(decode_error(f, len, &off), CITCAT_ERR_VERSION);
	CHECK_EQ(off, 4);
	f[4] = 2;
	f[7] = 2; /* a reserved flag bit */
	CHECK_EQ(decode_error(f, len, &off), CITCAT_ERR_CORRUPT);
	CHECK_EQ(off, 7);
	f[7] = 0;
	free(f);
}

static void thumb_loop_load(struct citcat_ref *refs)
{
	for (int i = 0; i < 25; i++) {
		refs[i].type = thumb_loop_refs[i].type;
		refs[i].addr = thumb_loop_refs[i].addr;
		refs[i].size = 0;
	}
}

/* The Thumb-2 loop of table3.h: 20 bytes, record by record. */
static void test_thumb_loop(void)
{
	struct citcat_ref refs[25];
	thumb_loop_load(refs);
	struct citcat_addr_config c = cfg(32, 0);
	c.version = 2;
	size_t len;
	uint64_t payload;
	uint8_t *f = encode_mem(&c, refs, 25, &len, &payload);
	CHECK(f != NULL);
	if (!f)
		return;
	static const uint8_t hdr[8] = {'P', 'D', 'T', '2', 2, 32, 4, 0};
	CHECK(memcmp(f, hdr, 8) == 0);
	CHECK_EQ(payload, 20);
	CHECK_EQ(decoded_payload(f, len), 20);
	check_records(f + 8, len - 8, thumb_loop_pdats2, sizeof thumb_loop_pdats2 / sizeof *thumb_loop_pdats2, 20);
	CHECK(decode_equals(f, len, CITCAT_ADDR_PDATS2, refs, 25));
	struct citcat_addr_reader *r;
	CHECK_EQ(citcat_addr_reader_open_mem(&r, f, len, CITCAT_ADDR_AUTO), 0);
	CHECK_EQ(citcat_addr_reader_istride(r), 4); /* the header's: the mode record changes it later */
	citcat_addr_reader_close(r);
	for (size_t cut = 0; cut < len; cut++) {
		uint64_t off;
		if (decode_error(f, cut, &off) >= 0) {
			fprintf(stderr, "thumb loop: truncation at %zu not detected\n", cut);
			check_failures++;
		}
	}
	/* the mode record's stride must be 1, 2, 4 or 8: reported at its byte */
	uint64_t off;
	CHECK_EQ(f[8 + 7], 0x82);
	f[8 + 7] = 0x83;
	CHECK_EQ(decode_error(f, len, &off), CITCAT_ERR_CORRUPT);
	CHECK_EQ(off, 8 + 7);
	f[8 + 7] = 0x82;
	/* a reserved escape kind */
	f[8 + 5] = 0x28;
	CHECK_EQ(decode_error(f, len, &off), CITCAT_ERR_CORRUPT);
	CHECK_EQ(off, 8 + 5);
	free(f);

	/* begun with stride 2 and two sizes (a Thumb writer): no mode record,
	 * the header says it; and the 64-bit variant with LZ4 */
	c.istride = 2;
	c.isizes = 1;
	f = encode_mem(&c, refs, 25, &len, &payload);
	CHECK(f && f[6] == 2 && f[7] == 1);
	CHECK(f && decode_equals(f, len, CITCAT_ADDR_AUTO, refs, 25));
	free(f);
	c = cfg(64, 1);
	f = encode_mem(&c, refs, 25, &len, &payload);
	CHECK(f && decode_equals(f, len, CITCAT_ADDR_AUTO, refs, 25));
	free(f);
	/* version 1 cannot say two sizes */
	c = cfg(32, 0);
	c.version = 1;
	c.isizes = 1;
	struct citcat_addr_writer *w;
	CHECK_EQ(citcat_addr_writer_open(&w, NULL, &c), CITCAT_ERR_INVAL);
	citcat_addr_writer_abort(w);
	c.version = 4;
	c.isizes = 0;
	CHECK_EQ(citcat_addr_writer_open(&w, NULL, &c), CITCAT_ERR_INVAL);
	citcat_addr_writer_abort(w);
}

/* Version 3 of the Thumb-2 loop (table3.h, worked by hand): (a) from a
 * writer begun with stride 4 (18 bytes), (b) begun with stride 2 and two
 * sizes (16 bytes); encode gives the bytes, decode the references; a size
 * byte cut off is a truncation at its offset. */
static void test_thumb_loop_v3(void)
{
	struct citcat_ref refs[25];
	thumb_loop_load(refs);
	for (int b = 0; b < 2; b++) {
		struct citcat_addr_config c = cfg(32, 0); /* version 0: the latest, 3 */
		if (b)
			c.istride = 2, c.isizes = 1;
		const struct table3_rec *recs = b ? thumb_loop_pdats2_v3t : thumb_loop_pdats2_v3;
		size_t nrec = b ? sizeof thumb_loop_pdats2_v3t / sizeof *recs : sizeof thumb_loop_pdats2_v3 / sizeof *recs;
		uint64_t want = b ? 16 : 18, payload;
		size_t len;
		uint8_t *f = encode_mem(&c, refs, 25, &len, &payload);
		CHECK(f != NULL);
		if (!f)
			return;
		const uint8_t hdr[8] = {'P', 'D', 'T', '2', 3, 32, b ? 2 : 4, (uint8_t)b};
		CHECK(memcmp(f, hdr, 8) == 0);
		CHECK_EQ(payload, want);
		CHECK_EQ(decoded_payload(f, len), want);
		check_records(f + 8, len - 8, recs, nrec, want);
		CHECK_EQ(len, 8 + want + 2 + 12);
		CHECK(f[8 + want] == 0x3f && f[8 + want + 1] == 0x00);
		CHECK(decode_equals(f, len, CITCAT_ADDR_AUTO, refs, 25));
		struct citcat_addr_reader *r;
		CHECK_EQ(citcat_addr_reader_open_mem(&r, f, len, CITCAT_ADDR_AUTO), 0);
		CHECK_EQ(citcat_addr_reader_version(r), 3);
		citcat_addr_reader_close(r);
		for (size_t cut = 0; cut < len; cut++) {
			uint64_t off;
			if (decode_error(f, cut, &off) >= 0) {
				fprintf(stderr, "v3 thumb loop %d: truncation at %zu not detected\n", b, cut);
				check_failures++;
			}
		}
		for (size_t i = 8; i < 8 + want; i++) {
			f[i] ^= 0x10;
			uint64_t off;
			CHECK(decode_error(f, len, &off) < 0);
			f[i] ^= 0x10;
		}
		uint64_t off;
		/* the file cut just before its size byte: 34 after (b)'s first
		 * record (3 bytes at offset 8), 1a after (a)'s #4 (at 16) */
		size_t sb = b ? 8 + 3 : 8 + 2 + 3 + 3 + 1;
		CHECK_EQ(f[sb], b ? 0x34 : 0x1a);
		CHECK_EQ(decode_error(f, sb, &off), CITCAT_ERR_TRUNCATED);
		CHECK_EQ(off, sb);
		/* header: version 4 is unknown; a reserved flag bit is corrupt */
		f[4] = 4;
		CHECK_EQ(decode_error(f, len, &off), CITCAT_ERR_VERSION);
		CHECK_EQ(off, 4);
		f[4] = 3;
		f[7] |= 0x80;
		CHECK_EQ(decode_error(f, len, &off), CITCAT_ERR_CORRUPT);
		CHECK_EQ(off, 7);
		f[7] &= 0x7f;
		CHECK(decode_equals(f, len, CITCAT_ADDR_AUTO, refs, 25));
		free(f);
		/* version 2 of (b) carries no size byte: v3 saved bytes */
		c.version = 2;
		uint8_t *g = encode_mem(&c, refs, 25, &len, &payload);
		CHECK(g && g[4] == 2 && payload > want);
		CHECK(g && decode_equals(g, len, CITCAT_ADDR_AUTO, refs, 25));
		free(g);
	}
	/* PDATS (the first format) has no version 3 */
	struct citcat_addr_config c = cfg(32, 0);
	c.fmt = CITCAT_ADDR_PDATS;
	c.version = 3;
	struct citcat_addr_writer *w;
	CHECK_EQ(citcat_addr_writer_open(&w, NULL, &c), CITCAT_ERR_INVAL);
	citcat_addr_writer_abort(w);
}

/* Version 3's window, worked by hand: a Thumb writer (stride 2, two sizes);
 * fetch 100 (record 1: +80 strides, 40 80 00; its bit, 0 for the
 * instruction at 0, guessed L = 2, opens size byte SB after it), then ND
 * reads 2000, 2004, ... (records 2..ND+1: b0 00 20, then 88 = zone 0 +4),
 * then fetch 104: 100 is 4 bytes long, bit 1, a fetch of the last data
 * record (its count 1: 89).  With ND = 15, 15 records have begun after SB:
 * the bit goes into SB (02).  With ND = 16 SB's free bits are dropped (SB
 * stays 00) and a new size byte, 01, follows the data record. */
static void test_v3_window(void)
{
	for (unsigned nd = 15; nd <= 16; nd++) {
		struct citcat_ref refs[20];
		size_t n = 0;
		refs[n++] = (struct citcat_ref){0x100, 0, CITCAT_REF_IFETCH};
		for (unsigned i = 0; i < nd; i++)
			refs[n++] = (struct citcat_ref){0x2000 + 4 * i, 0, CITCAT_REF_READ};
		refs[n++] = (struct citcat_ref){0x104, 0, CITCAT_REF_IFETCH};
		uint8_t want[32];
		size_t k = 0;
		want[k++] = 0x40, want[k++] = 0x80, want[k++] = 0x00, want[k++] = nd == 15 ? 0x02 : 0x00;
		want[k++] = 0xb0, want[k++] = 0x00, want[k++] = 0x20;
		for (unsigned i = 1; i < nd; i++)
			want[k++] = i + 1 == nd ? 0x89 : 0x88;
		if (nd == 16)
			want[k++] = 0x01;
		CHECK_EQ(k, nd == 15 ? 21 : 23);
		struct citcat_addr_config c = cfg(32, 0);
		c.istride = 2;
		c.isizes = 1;
		size_t len;
		uint8_t *f = encode_mem(&c, refs, n, &len, NULL); /* (its payload count is before the last settles) */
		CHECK(f != NULL);
		if (!f)
			return;
		CHECK_EQ(decoded_payload(f, len), k);
		CHECK(len == 8 + k + 14 && memcmp(f + 8, want, k) == 0);
		CHECK(decode_equals(f, len, CITCAT_ADDR_AUTO, refs, n));
		free(f);
	}
}

/* Long runs, long predicted data runs (past 31 and 255), odd addresses
 * (stride 1), a jump to itself, far jumps and every escape, in both
 * versions: decode gives the references back. */
static void test_v2_paths(void)
{
	enum { N = 6000 };
	static struct citcat_ref refs[N];
	size_t n = 0;
	uint64_t pc = 0x8000;
	for (int it = 0; it < 4; it++) {
		for (int i = 0; i < 300; i++) { /* a straight run with a load at its start */
			refs[n++] = (struct citcat_ref){pc, 0, 2};
			if (i == 0)
				refs[n++] = (struct citcat_ref){0x20000000u + 8u * (unsigned)it, 0, 0};
			pc += (i % 3) ? 2 : 4;
		}
		refs[n++] = (struct citcat_ref){pc, 0, 2}; /* a jump to itself, twice */
		refs[n++] = (struct citcat_ref){pc, 0, 2};
		refs[n++] = (struct citcat_ref){0x90000000u, 0, 2}; /* far */
		refs[n++] = (struct citcat_ref){0x90000004u, 0, 3};
		refs[n++] = (struct citcat_ref){0x10, 0, 4};
		refs[n++] = (struct citcat_ref){0x3000, 0, 5};
		refs[n++] = (struct citcat_ref){0x3000, 0, 6};
		refs[n++] = (struct citcat_ref){0x90000005u, 0, 2}; /* odd: stride 1 */
		refs[n++] = (struct citcat_ref){0x90000006u, 0, 1};
		pc = 0x8000;
	}
	for (unsigned v = 1; v <= 3; v++)
		for (int bits = 32; bits <= 64; bits += 32) {
			struct citcat_addr_config c = cfg(bits, 0);
			c.version = v;
			size_t len;
			uint8_t *f = encode_mem(&c, refs, n, &len, NULL);
			CHECK(f && decode_equals(f, len, CITCAT_ADDR_PDATS2, refs, n));
			free(f);
		}
}

int main(void)
{
	test_table3();
	test_table3_v2();
	test_thumb_loop();
	test_thumb_loop_v3();
	test_v3_window();
	test_v2_paths();
	test_escapes_and_64();
	test_malformed();
	CHECK_DONE();
}
