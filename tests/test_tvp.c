/* TVP (common/TVP.md, formats/TVP_MODEL.md): the model's streams for a
 * hand-worked Thumb-2 loop, unpacked here from the container by the spec
 * with liblzma itself; mode 0 through the output and input layers; every
 * address-trace format and variant in mode 1 (64-bit addresses, long
 * events, several blocks); truncation and damage anywhere are errors. */
#include "addr_testutil.h"
#include "bytes.h"
#include "input.h"
#include "outfile.h"
#include "registry.h"
#include "tvp.h"

#include <lzma.h>
#include <xxhash.h>

static uint8_t *tvp_encode(int fmt, unsigned version, unsigned bits, const struct citcat_ref *refs, size_t n,
			   size_t *len)
{
	struct citcat_addr_config c = {sizeof c, fmt, bits, 4, CC_OUT_TVP, version, 0};
	return encode_mem(&c, refs, n, len, NULL);
}

/* Unpacks the first block of a mode-1 container as TVP.md says; fills the
 * six raw streams.  Returns the block's count, 0 on a parse failure. */
static uint32_t unpack_block(const uint8_t *f, size_t len, uint8_t raw[6][256], size_t rlen[6])
{
	if (len < 20 + 4 + 6 * 4 + 2 * 4 + 4 || memcmp(f, "\x89TVP", 4) || f[4] != 1 || f[5] != 1 ||
	    XXH32(f, 16, 0) != cc_get32(f + 16))
		return 0;
	const uint8_t *b = f + 20;
	uint32_t count = cc_get32(b);
	size_t graw[2] = {0, 0}, gpack[2], at = 4 + 6 * 4 + 2 * 4 + 4;
	for (int s = 0; s < 6; s++) {
		rlen[s] = cc_get32(b + 4 + 4 * s);
		if (rlen[s] > 256)
			return 0;
		graw[s == 5] += rlen[s];
	}
	for (int g = 0; g < 2; g++)
		gpack[g] = cc_get32(b + 28 + 4 * g);
	uint8_t out[2][1536];
	for (int g = 0; g < 2; g++) {
		if (!graw[g])
			continue;
		lzma_options_lzma lo;
		lzma_lzma_preset(&lo, 0);
		lo.dict_size = 1u << f[6 + g];
		lzma_filter flt[2] = {{LZMA_FILTER_LZMA2, &lo}, {LZMA_VLI_UNKNOWN, NULL}};
		lzma_stream z = LZMA_STREAM_INIT;
		if (lzma_raw_decoder(&z, flt) != LZMA_OK)
			return 0;
		z.next_in = b + at;
		z.avail_in = gpack[g];
		z.next_out = out[g];
		z.avail_out = graw[g];
		lzma_ret ret = lzma_code(&z, LZMA_RUN);
		size_t left = z.avail_out;
		lzma_end(&z);
		if (ret != LZMA_OK || left)
			return 0;
		at += gpack[g];
	}
	size_t pos[2] = {0, 0};
	for (int s = 0; s < 6; s++) {
		memcpy(raw[s], out[s == 5] + pos[s == 5], rlen[s]);
		pos[s == 5] += rlen[s];
	}
	return count;
}

static void check_stream(const char *name, const uint8_t *got, size_t n, const uint8_t *want, size_t wn)
{
	if (n != wn || (n && memcmp(got, want, n))) {
		fprintf(stderr, "stream %s: %zu bytes, want %zu:", name, n, wn);
		for (size_t i = 0; i < n; i++)
			fprintf(stderr, " %02x", got[i]);
		fprintf(stderr, "\n");
		check_failures++;
	}
}

/* The Thumb-2 loop of table3.h, worked by hand under TVP_MODEL.md:
 * events 100+R2000, 102, 106, 108, 10c (all new: fetch code 2, the
 * differences zigzagged; the load's shape and address missed), 100+R2004
 * (10c never left before: code 2; the slot predicts 2000 + 2000: a miss),
 * then 14 perfect events (a run token 13: the loop's successors, the
 * load's stride 4 from 2004), then 110 (10c's successor was 100: code 2). */
static void test_golden(void)
{
	struct citcat_ref refs[25];
	for (int i = 0; i < 25; i++)
		refs[i] = (struct citcat_ref){thumb_loop_refs[i].addr, 0, thumb_loop_refs[i].type};
	size_t len;
	uint8_t *f = tvp_encode(CITCAT_ADDR_DIN, 0, 32, refs, 25, &len);
	CHECK(f != NULL);
	if (!f)
		return;
	/* the descriptor: din, version 0, 64-bit, no stride, no flags */
	static const uint8_t desc[8] = {1, 0, 64, 0, 0, 0, 0, 0};
	CHECK(memcmp(f + 8, desc, 8) == 0);
	uint8_t raw[6][256];
	size_t rlen[6];
	CHECK_EQ(unpack_block(f, len, raw, rlen), 25);
	static const uint8_t tok[] = {0xd4, 0xc0, 0xc0, 0xc0, 0xc0, 0xc4, 0x0d, 0xc0};
	static const uint8_t acode[] = {0x03, 0x03};
	static const uint8_t fetch[] = {0x80, 0x04, 0x04, 0x08, 0x04, 0x08, 0x17, 0x08};
	static const uint8_t shape[] = {0x01, 0x00};
	static const uint8_t addr[] = {0x00, 0x20, 0x00, 0x00, 0x04, 0x20, 0x00, 0x00};
	check_stream("token", raw[0], rlen[0], tok, sizeof tok);
	check_stream("address code", raw[1], rlen[1], acode, sizeof acode);
	check_stream("fetch", raw[2], rlen[2], fetch, sizeof fetch);
	check_stream("shape", raw[3], rlen[3], shape, sizeof shape);
	check_stream("size", raw[4], rlen[4], NULL, 0);
	check_stream("address", raw[5], rlen[5], addr, sizeof addr);
	CHECK(decode_equals(f, len, CITCAT_ADDR_AUTO, refs, 25));
	/* the end block follows the one block: 0, the total 25, its checksum */
	CHECK_EQ(cc_get32(f + len - 16), 0);
	CHECK_EQ(cc_get64(f + len - 12), 25);
	/* every truncation and every flipped bit is an error, never a short trace */
	for (size_t cut = 0; cut < len; cut++) {
		uint64_t off;
		if (decode_error(f, cut, &off) >= 0) {
			fprintf(stderr, "truncation at %zu not detected\n", cut);
			check_failures++;
		}
	}
	for (size_t i = 0; i < len; i++)
		for (int bit = 0; bit < 8; bit++) {
			f[i] ^= (uint8_t)(1 << bit);
			uint64_t off;
			int rc = decode_error(f, len, &off);
			if (rc >= 0 || (off != UINT64_MAX && off >= len)) {
				fprintf(stderr, "byte %zu bit %d flipped: rc %d offset %llu\n", i, bit, rc,
					(unsigned long long)off);
				check_failures++;
			}
			f[i] ^= (uint8_t)(1 << bit);
		}
	uint64_t off;
	f[4] = 2;
	CHECK_EQ(decode_error(f, len, &off), CITCAT_ERR_VERSION);
	CHECK_EQ(off, 4);
	f[4] = 1;
	/* the registry sees the format inside; a reader asked for another refuses */
	const struct citcat_format *fm;
	int wrap;
	CHECK_EQ(citcat_format_detect_mem(f, len, &fm, &wrap, NULL), 0);
	CHECK(fm && fm->id == CITCAT_FMT_DIN);
	CHECK_EQ(wrap, CC_WRAP_TVP);
	struct citcat_addr_reader *r;
	CHECK_EQ(citcat_addr_reader_open_mem(&r, f, len, CITCAT_ADDR_PDATS2), CITCAT_ERR_MAGIC);
	citcat_addr_reader_close(r);
	CHECK_EQ(citcat_addr_reader_open_mem(&r, f, len, CITCAT_ADDR_DIN), 0);
	CHECK_EQ(citcat_addr_reader_tvp(r), 1);
	CHECK_EQ(citcat_addr_reader_lz4(r), CC_WRAP_TVP);
	citcat_addr_reader_close(r);
	free(f);
}

static uint64_t rnd_state = 0x9e3779b97f4a7c15ull;
static uint64_t rnd(void) { return rnd_state ^= rnd_state << 13, rnd_state ^= rnd_state >> 7, rnd_state ^= rnd_state << 17; }

/* A trace with loops, strided and random data, load/store multiples, events
 * longer than 255 references, data before the first fetch, every type the
 * format holds and sizes.  WIDE: addresses above 4 GiB. */
static size_t synth(struct citcat_ref *v, size_t n, int fmt, int wide)
{
	size_t k = 0;
	uint64_t pc = 0x8000, heap = 0x20000000;
	v[k++] = (struct citcat_ref){0x1000, 4, CITCAT_REF_WRITE}; /* before any fetch */
	while (k < n - 400) {
		unsigned r = (unsigned)(rnd() % 100);
		v[k++] = (struct citcat_ref){pc, (r & 1) ? 2 : 4, CITCAT_REF_IFETCH};
		if (r < 20) { /* the slot after K (GCC's order, until clang's -Wunsequenced named it) */
			uint64_t a = heap + 4 * ((k + 1) % 64);
			v[k++] = (struct citcat_ref){a, 4, CITCAT_REF_READ};
		} else if (r < 25)
			v[k++] = (struct citcat_ref){0x30000000 + 4 * (rnd() % 100000), 1, CITCAT_REF_WRITE};
		else if (r < 26)
			for (int i = 0; i < 300; i++) /* longer than an event holds */
				v[k++] = (struct citcat_ref){0x20008000 + 4u * (unsigned)i, 4, CITCAT_REF_WRITE};
		else if (r < 27 && fmt != CITCAT_ADDR_XDIN)
			v[k++] = (struct citcat_ref){0x40, 0, CITCAT_REF_FLUSH};
		else if (r < 28 && fmt != CITCAT_ADDR_DIN)
			v[k++] = (struct citcat_ref){0x2000, 8, CITCAT_REF_COPYB}, v[k++] = (struct citcat_ref){0x2000, 8, CITCAT_REF_INVAL};
		else if (r < 29)
			v[k++] = (struct citcat_ref){0x50000000, 4, CITCAT_REF_MISC};
		else if (r < 30 && wide)
			v[k++] = (struct citcat_ref){0x123400000000ull + 8 * (rnd() % 1000), 8, CITCAT_REF_READ};
		pc = r < 8 ? 0x8000 + 2 * (rnd() % 512) : pc + ((r & 1) ? 2 : 4);
	}
	if (fmt != CITCAT_ADDR_XDIN)
		for (size_t i = 0; i < k; i++)
			v[i].size = 0; /* what the format's reader gives */
	return k;
}

static void test_formats(void)
{
	enum { N = 400000 };
	static struct citcat_ref refs[N];
	static const struct {
		int fmt;
		unsigned version, bits;
		int wide;
	} cases[] = {
		{CITCAT_ADDR_DIN, 0, 64, 0},    {CITCAT_ADDR_DIN, 0, 64, 1},     {CITCAT_ADDR_XDIN, 0, 64, 0},
		{CITCAT_ADDR_PDATS, 1, 32, 0},  {CITCAT_ADDR_PDATS, 2, 64, 1},   {CITCAT_ADDR_PDATS2, 1, 32, 0},
		{CITCAT_ADDR_PDATS2, 2, 32, 0}, {CITCAT_ADDR_PDATS2, 2, 64, 1},
	};
	for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
		size_t n = synth(refs, N, cases[c].fmt, cases[c].wide), len;
		uint8_t *f = tvp_encode(cases[c].fmt, cases[c].version, cases[c].bits, refs, n, &len);
		CHECK(f != NULL);
		if (!f)
			continue;
		struct citcat_addr_reader *r;
		struct citcat_ref got;
		CHECK_EQ(citcat_addr_reader_open_mem(&r, f, len, CITCAT_ADDR_AUTO), 0);
		CHECK_EQ(citcat_addr_reader_fmt(r), cases[c].fmt);
		CHECK_EQ(citcat_addr_reader_addr_bits(r), cases[c].bits);
		CHECK_EQ(citcat_addr_reader_version(r), cases[c].version);
		size_t i = 0;
		int rc, ok = 1;
		while ((rc = citcat_addr_next(r, &got)) == 1) {
			if (i >= n || got.type != refs[i].type || got.addr != refs[i].addr || got.size != refs[i].size) {
				fprintf(stderr, "case %zu ref %zu: got %u %llx %u\n", c, i, got.type,
					(unsigned long long)got.addr, got.size);
				ok = 0;
				break;
			}
			i++;
		}
		CHECK(ok && rc == 0 && i == n);
		citcat_addr_reader_close(r);
		free(f);
	}
	/* random data addresses: several blocks (each stream at most 1 MiB a
	 * block); a damaged later block names its offset */
	size_t n = 0;
	for (uint64_t pc = 0x8000; n + 4 <= N; pc = 0x8000 + 4 * (n % 64)) {
		refs[n++] = (struct citcat_ref){pc, 0, CITCAT_REF_IFETCH};
		for (int j = 0; j < 3; j++)
			refs[n++] = (struct citcat_ref){0x20000000 + 4 * (rnd() % 0x1000000), 0, CITCAT_REF_READ};
	}
	size_t len;
	uint8_t *f = tvp_encode(CITCAT_ADDR_PDATS2, 2, 32, refs, n, &len);
	CHECK(f && decode_equals(f, len, CITCAT_ADDR_PDATS2, refs, n));
	CHECK(f && cc_get32(f + 20) < n);
	if (f) {
		f[len - len / 4] ^= 0x40;
		uint64_t off;
		CHECK(decode_error(f, len, &off) < 0);
		CHECK(off > 20 && off <= len - len / 4); /* at the damaged block, not past the damage */
	}
	free(f);
	/* a format's own limits hold in TVP as in the format */
	struct citcat_addr_config c = {sizeof c, CITCAT_ADDR_DIN, 0, 0, CC_OUT_TVP, 0, 0};
	struct citcat_addr_writer *w;
	CHECK_EQ(citcat_addr_writer_open(&w, NULL, &c), 0);
	struct citcat_ref cb = {0x10, 4, CITCAT_REF_COPYB};
	CHECK_EQ(citcat_addr_put(w, &cb), CITCAT_ERR_INVAL);
	citcat_addr_writer_abort(w);
	c.fmt = CITCAT_ADDR_PDATS2;
	c.addr_bits = 32;
	CHECK_EQ(citcat_addr_writer_open(&w, NULL, &c), 0);
	struct citcat_ref big = {0x100000000ull, 0, CITCAT_REF_READ};
	CHECK_EQ(citcat_addr_put(w, &big), CITCAT_ERR_LIMIT);
	citcat_addr_writer_abort(w);
	/* an empty trace */
	f = tvp_encode(CITCAT_ADDR_PDATS2, 2, 32, NULL, 0, &len);
	CHECK(f && len == 20 + 16);
	CHECK(f && decode_equals(f, len, CITCAT_ADDR_PDATS2, NULL, 0));
	free(f);
}

/* Mode 0: any bytes through the output layer and back through the input layer. */
static void test_bytes(void)
{
	static const size_t sizes[] = {0, 1, 5000, (3u << 20) + 17};
	for (size_t t = 0; t < sizeof sizes / sizeof *sizes; t++) {
		size_t n = sizes[t];
		uint8_t *src = malloc(n + 1), *back = malloc(n + 1);
		for (size_t i = 0; i < n; i++)
			src[i] = (uint8_t)(i % 300 < 200 ? i % 7 : rnd());
		if (n >= 8)
			memcpy(src, "CITR\r\n\x1a\n", 8); /* an itrace's head, for the registry */
		struct cc_outfile *o;
		CHECK_EQ(cc_outfile_open(&o, NULL, CC_OUT_TVP, NULL), 0);
		CHECK_EQ(cc_outfile_write(o, src, n / 2), 0);
		CHECK_EQ(cc_outfile_write(o, src + n / 2, n - n / 2), 0);
		uint8_t *z;
		size_t zlen;
		CHECK_EQ(cc_outfile_take(o, &z, &zlen), 0);
		CHECK_EQ(cc_wrap_sniff(z, zlen), CC_WRAP_TVP);
		CHECK_EQ(z[5], 0); /* mode 0 */
		struct cc_input *in;
		struct citcat_errinfo e = {0};
		CHECK_EQ(cc_input_open_mem(&in, z, zlen, &e), 0);
		CHECK_EQ(cc_input_wrap(in), CC_WRAP_TVP);
		long got = 0, k;
		while ((k = cc_input_read(in, back + got, n + 1 - (size_t)got)) > 0)
			got += k;
		CHECK_EQ(k, 0);
		CHECK_EQ(got, (long)n);
		CHECK(memcmp(back, src, n) == 0);
		cc_input_close(in);
		if (n >= 8) {
			const struct citcat_format *fm;
			CHECK_EQ(citcat_format_detect_mem(z, zlen, &fm, NULL, NULL), 0);
			CHECK(fm && fm->id == CITCAT_FMT_ITRACE);
		}
		/* cut short or damaged (sampled; the big one at a few places): an
		 * error with an offset in the file */
		size_t step = n > 100000 ? zlen / 5 + 1 : zlen / 97 + 1;
		for (size_t cut = 0; cut < zlen; cut += step) {
			int rc = cc_input_open_mem(&in, z, cut, &e);
			got = 0;
			while (!rc && (k = cc_input_read(in, back, n + 1)) > 0)
				got += k;
			if (!rc)
				rc = (int)k, e = *cc_input_error(in);
			if (rc >= 0 && cut >= 6) {
				fprintf(stderr, "mode 0, %zu bytes cut to %zu: no error\n", zlen, cut);
				check_failures++;
			}
			cc_input_close(in);
		}
		for (size_t i = 0; i < zlen; i += step) {
			z[i] ^= 0x21;
			int rc = cc_input_open_mem(&in, z, zlen, &e);
			while (!rc && (k = cc_input_read(in, back, n + 1)) > 0)
				;
			if (!rc)
				rc = (int)k, e = *cc_input_error(in);
			if (rc >= 0 && i >= 4) {
				fprintf(stderr, "mode 0, byte %zu damaged: no error\n", i);
				check_failures++;
			}
			if (rc < 0)
				CHECK(e.offset == UINT64_MAX || e.offset <= zlen);
			cc_input_close(in);
			z[i] ^= 0x21;
		}
		free(z);
		free(src);
		free(back);
	}
}

int main(void)
{
	test_golden();
	test_formats();
	test_bytes();
	CHECK_DONE();
}
