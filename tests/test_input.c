/* The input layer (common/input.h) and the zstd/LZ4 output of cc_outfile:
 * bytes written through each wrapper read back identical in odd-sized
 * pieces, with peeks in between; a wrapper cut short is TRUNCATED and a
 * damaged one CORRUPT, both at an offset inside the compressed file;
 * gzip and bzip2 are refused by name; the registry recognises a wrapped
 * file by what is inside. */
#include "check.h"
#include "input.h"
#include "outfile.h"
#include "registry.h"

#include <string.h>

#define N (3u << 20)

static uint8_t *wrapped(const uint8_t *src, size_t n, int wrap, size_t *len)
{
	struct cc_outfile *o;
	uint8_t *buf = NULL;
	CHECK_EQ(cc_outfile_open(&o, NULL, wrap, NULL), 0);
	for (size_t i = 0; i < n; i += 100000) /* several writes */
		CHECK_EQ(cc_outfile_write(o, src + i, n - i < 100000 ? n - i : 100000), 0);
	CHECK_EQ(cc_outfile_take(o, &buf, len), 0);
	return buf;
}

/* Reads everything in pieces of 1..9999 bytes; returns the final status. */
static long read_all(const uint8_t *z, size_t zlen, uint8_t *out, size_t cap, size_t *got, struct citcat_errinfo *e)
{
	struct cc_input *in;
	long rc = cc_input_open_mem(&in, z, zlen, e);
	*got = 0;
	if (rc)
		return rc;
	size_t step = 1;
	for (;;) {
		const uint8_t *p;
		uint8_t seen[7];
		long pk = cc_input_peek(in, &p, 7);
		if (pk > 0)
			memcpy(seen, p, (size_t)pk);
		size_t want = step % 9999 + 1;
		if (want > cap - *got)
			want = cap - *got;
		long k = cc_input_read(in, out + *got, want ? want : 1);
		if (k <= 0) {
			rc = k;
			break;
		}
		if (pk > 0) /* the read starts with what the peek showed */
			CHECK(memcmp(out + *got, seen, (size_t)(k < pk ? k : pk)) == 0);
		*got += (size_t)k;
		step = step * 7 + 3;
	}
	if (rc)
		*e = *cc_input_error(in);
	cc_input_close(in);
	return rc;
}

int main(void)
{
	uint8_t *src = malloc(N), *back = malloc(N + 16);
	uint32_t x = 1;
	for (size_t i = 0; i < N; i++) { /* compressible but not trivial */
		x = x * 1103515245u + 12345u;
		src[i] = (uint8_t)(i % 251 < 200 ? i % 13 : x >> 24);
	}
	memcpy(src, "PDT2\x01\x20\x04\x00", 8); /* a PDATS II head for the registry */
	static const int wraps[] = {CC_OUT_PLAIN, CC_OUT_LZ4, CC_OUT_ZSTD};
	for (int w = 0; w < 3; w++) {
		size_t zlen, got;
		struct citcat_errinfo e = {0};
		uint8_t *z = wrapped(src, N, wraps[w], &zlen);
		CHECK(z != NULL);
		CHECK_EQ(cc_wrap_sniff(z, zlen), wraps[w]); /* CC_OUT_* and CC_WRAP_* agree */
		CHECK_EQ(read_all(z, zlen, back, N + 16, &got, &e), 0);
		CHECK_EQ(got, N);
		CHECK(memcmp(back, src, N) == 0);
		const struct citcat_format *f;
		int wr = -1;
		CHECK_EQ(citcat_format_detect_mem(z, zlen, &f, &wr, NULL), 0);
		CHECK(f && f->id == CITCAT_FMT_PDATS2);
		CHECK_EQ(wr, wraps[w]);
		if (wraps[w] != CC_OUT_PLAIN) {
			/* cut short: truncated, at an offset inside the compressed bytes */
			CHECK_EQ(read_all(z, zlen / 2, back, N + 16, &got, &e), CITCAT_ERR_TRUNCATED);
			CHECK(e.offset <= zlen / 2 && e.offset > 0);
			CHECK(got < N);
			/* damaged in the middle: corrupt (LZ4 and zstd carry checksums) */
			for (size_t i = zlen / 2; i < zlen / 2 + 8; i++)
				z[i] ^= 0x5a;
			long rc = read_all(z, zlen, back, N + 16, &got, &e);
			CHECK(rc == CITCAT_ERR_CORRUPT);
			CHECK(e.offset <= zlen && strstr(e.msg, "corrupt") != NULL);
		}
		free(z);
	}
	/* an xz stream made by the xz tool: 'hello\n' */
	static const uint8_t xz[] = {
		0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00, 0x00, 0x04, 0xe6, 0xd6, 0xb4, 0x46, 0x02, 0x00, 0x21, 0x01,
		0x16, 0x00, 0x00, 0x00, 0x74, 0x2f, 0xe5, 0xa3, 0x01, 0x00, 0x05, 0x68, 0x65, 0x6c, 0x6c, 0x6f,
		0x0a, 0x00, 0x00, 0x00, 0xa5, 0x60, 0x97, 0xf1, 0x94, 0xf6, 0xfd, 0xe0, 0x00, 0x01, 0x1e, 0x06,
		0xc1, 0x2f, 0xa4, 0x1d, 0x1f, 0xb6, 0xf3, 0x7d, 0x01, 0x00, 0x00, 0x00, 0x00, 0x04, 0x59, 0x5a,
	};
	size_t got;
	struct citcat_errinfo e = {0};
	CHECK_EQ(read_all(xz, sizeof xz, back, 64, &got, &e), 0);
	CHECK(got == 6 && memcmp(back, "hello\n", 6) == 0);
	CHECK_EQ(read_all(xz, sizeof xz - 10, back, 64, &got, &e), CITCAT_ERR_TRUNCATED);
	/* compressors citcat does not read */
	struct cc_input *in;
	CHECK_EQ(cc_input_open_mem(&in, "\x1f\x8b\x08\x00\x00", 5, &e), CITCAT_ERR_UNSUPPORTED);
	CHECK(strcmp(e.msg, "compressed with gzip; decompress first") == 0 && e.offset == 0);
	CHECK_EQ(cc_input_open_mem(&in, "BZh91AY&SY", 10, &e), CITCAT_ERR_UNSUPPORTED);
	CHECK(strcmp(e.msg, "compressed with bzip2; decompress first") == 0);
	/* empty and suffixes */
	CHECK_EQ(read_all(NULL, 0, back, 64, &got, &e), 0);
	CHECK_EQ(got, 0);
	size_t stem;
	CHECK_EQ(cc_wrap_by_suffix("a.pdats2.zst", &stem), CC_WRAP_ZSTD);
	CHECK_EQ(stem, 8);
	CHECK(citcat_format_by_suffix("run.din.lz4", NULL) == citcat_format_get(CITCAT_FMT_DIN));
	CHECK(citcat_format_by_name("sdclsp:r:32x4,128") == citcat_format_get(CITCAT_FMT_SDCLSP));
	free(src);
	free(back);
	CHECK_DONE();
}
