/* The segment index of IMS version 3 / AES version 4 bundles
 * (common/SEGIDX.md): a hand-built bundle whose every offset is worked out
 * below, read back field for field, and each malformation refused with the
 * file offset of the bad field. */
#include "bytes.h"
#include "segidx.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define XXH_INLINE_ALL
#include <xxhash.h>

static int failures;
#define CHECK(c)                                                                 \
	do {                                                                     \
		if (!(c)) {                                                      \
			fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #c); \
			failures++;                                              \
		}                                                                \
	} while (0)

#define MAGIC "CIMS\r\n\x1a\n"
/* The layout, by hand:
 *   0   header: magic, version 3, flags 0, XXH32 of bytes 0..11 at 12
 *   16  member 0, 44 bytes (the smallest a container can be)
 *   60  member 1, 50 bytes
 *   110 index: "SIX\0", count 2 (114), reserved 0 (118),
 *       entry 0 at 122: offset 16, length 44, insns 0, bcount 0
 *       entry 1 at 154: offset 60 (154), length 50 (162), insns 20014 (170), bcount 3200 (178)
 *       XXH32 of bytes 110..185 at 186
 *   190 trailer: "SIDX", index offset 110 (194), XXH32 of bytes 190..201 at 202
 *   206 end of file */
#define SIZE 206
static uint8_t b[SIZE + 64];

static void seal(size_t size, uint64_t ioff, uint32_t n)
{
	cc_put32(b + 12, XXH32(b, 12, 0));
	if (ioff + 12 + 32 * (uint64_t)n + 4 <= size)
		cc_put32(b + ioff + 12 + 32 * n, XXH32(b + ioff, 12 + 32 * (size_t)n, 0));
	cc_put32(b + size - 4, XXH32(b + size - 16, 12, 0));
}

static void build(void)
{
	memset(b, 0, sizeof b);
	memcpy(b, MAGIC, 8);
	cc_put16(b + 8, 3);
	memset(b + 16, 0xa0, 44);
	memset(b + 60, 0xa1, 50);
	memcpy(b + 110, "SIX", 4);
	cc_put32(b + 114, 2);
	cc_put64(b + 122, 16);
	cc_put64(b + 130, 44);
	cc_put64(b + 154, 60);
	cc_put64(b + 162, 50);
	cc_put64(b + 170, 20014);
	cc_put64(b + 178, 3200);
	memcpy(b + 190, "SIDX", 4);
	cc_put64(b + 194, 110);
	seal(SIZE, 110, 2);
}

/* Opens the bundle (SIZE bytes) and expects error CODE at file offset OFF. */
static void refused(size_t size, int code, uint64_t off, int line)
{
	struct cc_segidx *sx = NULL;
	struct citcat_errinfo err = {0};
	int rc = cc_segidx_open_mem(&sx, b, size, MAGIC, 3, &err);
	if (rc != code || err.offset != off) {
		fprintf(stderr, "line %d: got %d at %llu (%s), expected %d at %llu\n", line, rc,
			(unsigned long long)err.offset, err.msg, code, (unsigned long long)off);
		failures++;
	}
	CHECK(!sx);
	cc_segidx_close(sx);
	build();
}
#define REFUSED(size, code, off) refused(size, code, off, __LINE__)

int main(void)
{
	struct cc_segidx *sx;
	struct citcat_errinfo err = {0};
	const uint8_t *p;
	size_t len;
	struct cc_segidx_entry e;

	build();
	CHECK(cc_segidx_open_mem(&sx, b, SIZE, MAGIC, 3, &err) == 0);
	CHECK(cc_segidx_is_bundle(sx) && cc_segidx_count(sx) == 2);
	CHECK(cc_segidx_member(sx, 0, &p, &len, &e, &err) == 0 && p == b + 16 && len == 44 && e.insns == 0);
	CHECK(cc_segidx_member(sx, 1, &p, &len, &e, &err) == 0 && p == b + 60 && len == 50 && e.offset == 60 &&
	      e.length == 50 && e.insns == 20014 && e.bcount == 3200);
	CHECK(cc_segidx_member(sx, 2, &p, &len, &e, &err) == CITCAT_ERR_INVAL && strstr(err.msg, "holds 2 segments"));
	cc_segidx_close(sx);

	/* not a bundle (version 2): one member, the whole buffer */
	cc_put16(b + 8, 2);
	CHECK(cc_segidx_open_mem(&sx, b, SIZE, MAGIC, 3, &err) == 0 && !cc_segidx_is_bundle(sx) &&
	      cc_segidx_count(sx) == 1);
	CHECK(cc_segidx_member(sx, 0, &p, &len, &e, &err) == 0 && p == b && len == SIZE);
	CHECK(cc_segidx_member(sx, 1, &p, &len, &e, &err) == CITCAT_ERR_INVAL);
	cc_segidx_close(sx);
	build();

	/* header: reserved flags, checksum */
	cc_put16(b + 10, 1), seal(SIZE, 110, 2), REFUSED(SIZE, CITCAT_ERR_CORRUPT, 10);
	b[12] ^= 1, REFUSED(SIZE, CITCAT_ERR_CHECKSUM, 12);
	/* truncated: the trailer is gone */
	REFUSED(SIZE - 6, CITCAT_ERR_TRUNCATED, SIZE - 6 - 16);
	REFUSED(40, CITCAT_ERR_TRUNCATED, 40);
	/* trailer checksum; index offset past the end or into the header */
	b[194] ^= 1, REFUSED(SIZE, CITCAT_ERR_CHECKSUM, 202);
	cc_put64(b + 194, 300), seal(SIZE, 300, 2), REFUSED(SIZE, CITCAT_ERR_CORRUPT, 194);
	cc_put64(b + 194, 8), seal(SIZE, 8, 2), REFUSED(SIZE, CITCAT_ERR_CORRUPT, 194);
	cc_put64(b + 194, 100), seal(SIZE, 110, 2), REFUSED(SIZE, CITCAT_ERR_CORRUPT, 100); /* no "SIX" there */
	/* count: 0, absurd, disagreeing with the index's length */
	cc_put32(b + 114, 0), seal(SIZE, 110, 0), REFUSED(SIZE, CITCAT_ERR_CORRUPT, 114);
	cc_put32(b + 114, 0x7fffffff), seal(SIZE, 110, 2), REFUSED(SIZE, CITCAT_ERR_CORRUPT, 114);
	cc_put32(b + 114, 3), seal(SIZE, 110, 3), REFUSED(SIZE, CITCAT_ERR_CORRUPT, 114);
	cc_put32(b + 114, 1), seal(SIZE, 110, 1), REFUSED(SIZE, CITCAT_ERR_CORRUPT, 114);
	/* reserved index field; index checksum */
	cc_put32(b + 118, 1), seal(SIZE, 110, 2), REFUSED(SIZE, CITCAT_ERR_CORRUPT, 118);
	b[170] ^= 1, REFUSED(SIZE, CITCAT_ERR_CHECKSUM, 186);
	/* members: overlapping, with a gap, not starting at 16, running past
	 * the index, ending before it, too short */
	cc_put64(b + 154, 50), seal(SIZE, 110, 2), REFUSED(SIZE, CITCAT_ERR_CORRUPT, 154);
	cc_put64(b + 154, 62), seal(SIZE, 110, 2), REFUSED(SIZE, CITCAT_ERR_CORRUPT, 154);
	cc_put64(b + 122, 0), seal(SIZE, 110, 2), REFUSED(SIZE, CITCAT_ERR_CORRUPT, 122);
	cc_put64(b + 162, 60), seal(SIZE, 110, 2), REFUSED(SIZE, CITCAT_ERR_CORRUPT, 162);
	cc_put64(b + 162, UINT64_MAX - 10), seal(SIZE, 110, 2), REFUSED(SIZE, CITCAT_ERR_CORRUPT, 162);
	cc_put64(b + 162, 46), seal(SIZE, 110, 2), REFUSED(SIZE, CITCAT_ERR_CORRUPT, 162);
	cc_put64(b + 130, 43), cc_put64(b + 154, 59), cc_put64(b + 162, 51), seal(SIZE, 110, 2),
		REFUSED(SIZE, CITCAT_ERR_CORRUPT, 130);
	/* positions: segment 0 not at 0, segment 1 not after it */
	cc_put64(b + 138, 5), seal(SIZE, 110, 2), REFUSED(SIZE, CITCAT_ERR_CORRUPT, 138);
	cc_put64(b + 170, 0), seal(SIZE, 110, 2), REFUSED(SIZE, CITCAT_ERR_CORRUPT, 170);
	cc_put64(b + 170, 0), cc_put64(b + 178, 0), seal(SIZE, 110, 2), REFUSED(SIZE, CITCAT_ERR_CORRUPT, 170);

	if (failures)
		fprintf(stderr, "test_segidx: %d failure(s)\n", failures);
	else
		printf("test_segidx: ok\n");
	return failures != 0;
}
