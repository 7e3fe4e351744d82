/* AES reader: a position or address delta must land in the 32-bit address
 * space (AES.md).  A delta near 2^63 used to overflow a signed sum
 * (undefined behaviour, found by fuzz_aes under clang's UBSan; GCC narrows
 * the sum under the cast, so its UBSan never saw it) and deltas of 2^32 or
 * more aliased valid addresses.  Records are wrapped in a valid container
 * as the fuzz targets do; each case is read to its first error. */
#include "aes.h"
#include "check.h"
#include "fuzz/wrap.h"

static const struct {
	const char *what;
	uint8_t rec[20];
	size_t len;
	int records, code; /* records read before CODE (0: the end) */
} cases[] = {
	{"IRQ to epc 1, then a delta of 2^63 - 1",
	 {0x00, 0x00, 0x02, 0x00, 0x00, 0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}, 15, 1,
	 CITCAT_ERR_CORRUPT},
	{"IRQ to epc 0xffffffff, then back by 0xffffffff to 0",
	 {0x00, 0x00, 0xfe, 0xff, 0xff, 0xff, 0x1f, 0x00, 0x00, 0xfd, 0xff, 0xff, 0xff, 0x1f}, 14, 2, 0},
	{"IRQ to epc 2^32 (an alias of 0)", {0x00, 0x00, 0x80, 0x80, 0x80, 0x80, 0x20}, 7, 0, CITCAT_ERR_CORRUPT},
	{"DMA of one byte to 2^32 - 1", {0x01, 0x00, 0x00, 0xfe, 0xff, 0xff, 0xff, 0x1f, 0x01, 0xaa}, 10, 1, 0},
	{"DMA of one byte to -1", {0x01, 0x00, 0x00, 0x01, 0x01, 0xaa}, 6, 0, CITCAT_ERR_CORRUPT},
	{"input read at address -1", {0x02, 0x01, 0x00}, 3, 0, CITCAT_ERR_CORRUPT},
	{"input read at 0x40000000", {0x02, 0x80, 0x80, 0x80, 0x80, 0x08, 0x00}, 7, 1, 0},
};

int main(void)
{
	uint8_t meta[32] = {0};
	meta[14] = 1; /* 65536 traced instructions */
	for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
		size_t blen = 0;
		uint32_t nrec = (uint32_t)cases[k].records + (cases[k].code != 0);
		uint8_t *b = wrap_container("CAES\r\n\x1a\n", CITCAT_AES_VERSION, meta, sizeof meta, cases[k].rec,
					    cases[k].len, nrec, &blen);
		CHECK(b != NULL);
		struct citcat_aes_reader *r;
		struct citcat_aes_rec rec;
		CHECK_EQ(citcat_aes_reader_open_mem(&r, b, blen), 0);
		int st, n = 0;
		while ((st = citcat_aes_next(r, &rec)) == 1)
			n++;
		if (n != cases[k].records || st != cases[k].code)
			fprintf(stderr, "%s: %d records, then %d (%s)\n", cases[k].what, n, st,
				citcat_aes_reader_error(r)->msg);
		CHECK_EQ(n, cases[k].records);
		CHECK_EQ(st, cases[k].code);
		citcat_aes_reader_close(r);
		free(b);
	}
	CHECK_DONE();
}
