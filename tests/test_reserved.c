/* Reserved bits and bytes: every reader rejects a file in which any of them
 * is not zero, with CITCAT_ERR_CORRUPT at the byte offset of the field
 * (CONTAINER.md, CAT.md, ITRACE.md, AES.md, IMS.md, LVT.md, DAF.md,
 * SDCLSP.md, PDATS.md, PDATS2.md).  Each case starts from a valid header
 * (checked to open first), sets one reserved bit, recomputes the header
 * checksum so that only the reserved field is wrong, and expects the error.
 * The offsets are the specs' tables, written out here by hand. */
#include "addr.h"
#include "aes.h"
#include "cat.h"
#include "check.h"
#include "daf.h"
#include "fuzz/wrap.h"
#include "image.h"
#include "ims.h"
#include "itrace.h"
#include "lvt.h"
#include "membuf.h"
#include "sdclsp.h"

#include <stdio.h>
#include <xxhash.h>

enum kind { K_CAT, K_ITRACE, K_AES, K_IMS, K_LVT, K_DAF };

static const char *const magics[] = {"CCAT\r\n\x1a\n", "CITR\r\n\x1a\n", "CAES\r\n\x1a\n",
				     "CIMS\r\n\x1a\n", "CLVT\r\n\x1a\n", "CDAF\r\n\x1a\n"};
static const uint16_t versions[] = {CITCAT_CAT_VERSION, CITCAT_ITRACE_VERSION, CITCAT_AES_VERSION,
				    CITCAT_IMS_VERSION, 1, 1};
static const char *const names[] = {"CAT", "itrace", "AES", "IMS", "LVT", "DAF"};

/* Opens an in-memory container of kind K; returns the reader's status and
 * the error offset in *OFF. */
static int open_kind(enum kind k, const uint8_t *b, size_t n, uint64_t *off)
{
	int rc = 0;
	*off = UINT64_MAX;
	switch (k) {
	case K_CAT: {
		struct citcat_cat_reader *r;
		rc = citcat_cat_reader_open_mem(&r, b, n);
		if (rc)
			*off = citcat_cat_reader_error(r)->offset;
		citcat_cat_reader_close(r);
		break;
	}
	case K_ITRACE: {
		struct citcat_itrace_reader *r;
		rc = citcat_itrace_reader_open_mem(&r, b, n);
		if (rc)
			*off = citcat_itrace_reader_error(r)->offset;
		citcat_itrace_reader_close(r);
		break;
	}
	case K_AES: {
		struct citcat_aes_reader *r;
		rc = citcat_aes_reader_open_mem(&r, b, n);
		if (rc)
			*off = citcat_aes_reader_error(r)->offset;
		citcat_aes_reader_close(r);
		break;
	}
	case K_IMS: {
		struct citcat_ims ims;
		struct citcat_errinfo e = {0};
		rc = citcat_ims_read_mem(b, n, &ims, &e);
		if (rc)
			*off = e.offset;
		else
			citcat_ims_fini(&ims);
		break;
	}
	case K_LVT: {
		struct citcat_lvt_reader *r;
		rc = citcat_lvt_reader_open_mem(&r, b, n);
		if (rc)
			*off = citcat_lvt_reader_error(r)->offset;
		citcat_lvt_reader_close(r);
		break;
	}
	case K_DAF: {
		struct citcat_daf_decoder *d;
		rc = citcat_daf_decoder_open_mem(&d, b, n);
		if (rc)
			*off = citcat_daf_decoder_error(d)->offset;
		citcat_daf_decoder_close(d);
		break;
	}
	}
	return rc;
}

/* A valid metadata block of each kind. */
static uint32_t make_meta(enum kind k, uint8_t *m)
{
	struct citcat_target_config cfg;
	citcat_target_config_default(&cfg);
	memset(m, 0, CITCAT_IMS_META_LEN);
	switch (k) {
	case K_CAT:
		citcat_target_config_encode(&cfg, m);
		return CITCAT_TARGET_META_LEN;
	case K_ITRACE:
		m[0] = CITCAT_ISA_ARM_A32;
		return 8;
	case K_AES:
		m[20] = 0x00, m[23] = 0x40; /* device base 0x40000000 */
		return 32;
	case K_IMS:
		citcat_target_config_encode(&cfg, m);
		return CITCAT_IMS_META_LEN;
	case K_LVT:
		citcat_target_config_encode(&cfg, m);
		return CITCAT_LVT_META_LEN;
	case K_DAF:
		m[0] = 1, m[1] = 1, m[4] = 0x18;
		return 8;
	}
	return 0;
}

/* Sets bit BIT of metadata byte MOFF (or, MOFF < 0, of the container
 * header's flags, file byte 10 + BIT / 8) and expects CORRUPT at WANT. */
static void expect_reserved(enum kind k, int moff, unsigned bit, uint64_t want)
{
	uint8_t meta[CITCAT_IMS_META_LEN];
	uint32_t ml = make_meta(k, meta);
	if (moff >= 0)
		meta[moff] |= (uint8_t)(1u << bit);
	size_t n;
	uint8_t *b = wrap_container(magics[k], versions[k], meta, ml, NULL, 0, 0, &n);
	if (moff < 0) {
		b[10 + bit / 8] |= (uint8_t)(1u << (bit % 8));
		wrap_put32(b + 16 + ml, XXH32(b, 16 + ml, 0));
	}
	uint64_t off;
	int rc = open_kind(k, b, n, &off);
	if (rc != CITCAT_ERR_CORRUPT || off != want) {
		fprintf(stderr, "%s: reserved bit %u of %s byte %d: rc %d offset %lld, want %d at %llu\n", names[k], bit,
			moff < 0 ? "header flags" : "metadata", moff < 0 ? (int)(10 + bit / 8) : moff, rc, (long long)off,
			CITCAT_ERR_CORRUPT, (unsigned long long)want);
		check_failures++;
	}
	free(b);
}

static void test_containers(void)
{
	for (int k = K_CAT; k <= K_DAF; k++) {
		/* the unmodified header opens */
		uint8_t meta[CITCAT_IMS_META_LEN];
		uint32_t ml = make_meta((enum kind)k, meta);
		size_t n;
		uint8_t *b = wrap_container(magics[k], versions[k], meta, ml, NULL, 0, 0, &n);
		uint64_t off;
		int rc = open_kind((enum kind)k, b, n, &off);
		if (rc) {
			fprintf(stderr, "%s: the valid header does not open (%d at %lld)\n", names[k], rc, (long long)off);
			check_failures++;
		}
		free(b);
		/* CONTAINER.md: header flags (u16 at file offset 10) are reserved */
		for (unsigned bit = 0; bit < 16; bit++)
			expect_reserved((enum kind)k, -1, bit, 10); /* the u16 field's offset */
	}
	/* ITRACE.md: bytes 4..7 flags (none defined for isa 1; bytes 1..3: the
	 * segment number, issue 29) */
	for (int i = 4; i < 8; i++)
		for (unsigned bit = 0; bit < 8; bit++)
			expect_reserved(K_ITRACE, i, bit, 16 + (unsigned)i);
	/* AES.md: byte 24 is the target (0 ARM, 1 Cortex-M7: bits 1..7 must be
	 * 0), bytes 25..31 reserved */
	for (int i = 24; i < 32; i++)
		for (unsigned bit = i == 24; bit < 8; bit++)
			expect_reserved(K_AES, i, bit, 16 + (unsigned)i);
	/* CAT.md: in the 96-byte configuration (also the start of the IMS and
	 * LVT metadata): I-cache write-through byte 33 (the I-cache is never
	 * written), the caches' reserved u16 at 34 and 54, flag bits 1..31 at 72 */
	static const enum kind cfg_kinds[] = {K_CAT, K_IMS, K_LVT};
	for (size_t j = 0; j < 3; j++) {
		enum kind k = cfg_kinds[j];
		for (unsigned bit = 0; bit < 8; bit++) {
			expect_reserved(k, 33, bit, 16 + 33);
			expect_reserved(k, 34, bit, 16 + 34);
			expect_reserved(k, 35, bit, 16 + 35);
			expect_reserved(k, 54, bit, 16 + 54);
			expect_reserved(k, 55, bit, 16 + 55);
			if (bit) /* bit 0 of the D-cache byte 53 is write-through; 1 is valid */
				expect_reserved(k, 53, bit, 16 + 53);
			expect_reserved(k, 72, bit ? bit : 1, 16 + 72);
			expect_reserved(k, 73, bit, 16 + 72);
			expect_reserved(k, 74, bit, 16 + 72);
			expect_reserved(k, 75, bit, 16 + 72);
		}
	}
	/* LVT.md: bytes 97..99; DAF.md: bytes 2..3 */
	for (int i = 97; i < 100; i++)
		for (unsigned bit = 0; bit < 8; bit++)
			expect_reserved(K_LVT, i, bit, 16 + (unsigned)i);
	for (int i = 2; i < 4; i++)
		for (unsigned bit = 0; bit < 8; bit++)
			expect_reserved(K_DAF, i, bit, 16 + (unsigned)i);
}

/* SDCLSP.md: header bytes 33..35 reserved (checksum at 36 over 0..35). */
static void test_sdclsp(void)
{
	struct sdclsp_config c;
	CHECK_EQ(sdclsp_config_init(&c, SDCLSP_R), 0);
	struct membuf mb = {0};
	struct sdclsp_encoder *e;
	CHECK_EQ(sdclsp_encoder_alloc(&e, &c, mem_sink, &mb), 0);
	CHECK_EQ(sdclsp_encoder_finish(e), 0);
	sdclsp_encoder_free(e);
	CHECK(mb.len >= 40);
	struct citcat_image *img;
	CHECK_EQ(citcat_image_alloc(&img), 0);
	for (int i = 33; i < 36; i++)
		for (unsigned bit = 0; bit < 8; bit++) {
			uint8_t *b = malloc(mb.len);
			memcpy(b, mb.p, mb.len);
			b[i] |= (uint8_t)(1u << bit);
			wrap_put32(b + 36, XXH32(b, 36, 0));
			struct sdclsp_decoder *d;
			int rc = sdclsp_decoder_open_mem(&d, b, mb.len, img);
			CHECK_EQ(rc, CITCAT_ERR_CORRUPT);
			if (d)
				CHECK_EQ(sdclsp_decoder_error(d)->offset, i);
			sdclsp_decoder_close(d);
			free(b);
		}
	citcat_image_free(img);
	free(mb.p);
}

/* PDATS.md: header bytes 6..7 reserved, in version 2 byte 6's bits 1..7;
 * PDATS2.md: byte 7, in versions 2 and 3 its bits 1..7 (bit 0: instructions
 * of two sizes). */
static void test_pdats(void)
{
	for (unsigned version = 1; version <= 3; version++)
	for (int fmt = version == 3 ? CITCAT_ADDR_PDATS2 : CITCAT_ADDR_PDATS; fmt <= CITCAT_ADDR_PDATS2; fmt++) {
		struct citcat_addr_config cfg = {sizeof cfg, fmt, 32, 4, 0, version, 0};
		struct citcat_addr_writer *w;
		CHECK_EQ(citcat_addr_writer_open(&w, NULL, &cfg), 0);
		struct citcat_ref ref = {0x1000, 0, 2};
		CHECK_EQ(citcat_addr_put(w, &ref), 0);
		uint8_t *buf;
		size_t len;
		CHECK_EQ(citcat_addr_writer_take(w, &buf, &len), 0);
		CHECK_EQ(buf[4], version);
		for (int i = fmt == CITCAT_ADDR_PDATS ? 6 : 7; i < 8; i++)
			for (unsigned bit = i == (fmt == CITCAT_ADDR_PDATS ? 6 : 7) && version >= 2; bit < 8; bit++) {
				buf[i] ^= (uint8_t)(1u << bit);
				struct citcat_addr_reader *r;
				int rc = citcat_addr_reader_open_mem(&r, buf, len, fmt);
				struct citcat_ref got;
				if (rc == 0)
					rc = citcat_addr_next(r, &got);
				CHECK_EQ(rc, CITCAT_ERR_CORRUPT);
				CHECK_EQ(citcat_addr_reader_error(r)->offset, i);
				citcat_addr_reader_close(r);
				buf[i] ^= (uint8_t)(1u << bit);
			}
		free(buf);
	}
}

int main(void)
{
	test_containers();
	test_sdclsp();
	test_pdats();
	CHECK_DONE();
}
