/* Fuzz target: the SDC-LSP decoder must never crash, hang or read out of
 * bounds.  The input is used twice: as a whole file (header parsing, LZ4
 * frame, blocks), and as the record bits of a stream with a valid header,
 * block framing and trailer (first byte: the configuration), decoded
 * against the synthetic program image, so that the record decoder itself is
 * exercised instead of stopping at the checksums. */
#include "bytes.h"
#include "sdclsp.h"
#include "../sdclsp_synth.h"

#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_INSNS 2000000u

static const char *const configs[] = {
	"sdclsp:b:16x4,64", "sdclsp:e:16x4,64", "sdclsp:r:32x4,128", "sdclsp:r:2x1,2:hist=2",
	"sdclsp:e:8x8,32:repl=lru:maxsl=65536", "sdclsp:b:64x1,4:repl=fifo:maxsl=1", "sdclsp:e:32x4,128:sa=always",
	"sdclsp:r:256x4,1024:u=29:shift=0",
};

static int hdr_sink(void *ctx, const void *buf, size_t len)
{
	uint8_t *h = ctx;
	if (len == SDCLSP_HEADER_LEN)
		memcpy(h, buf, len);
	return 0;
}

static void decode(const uint8_t *buf, size_t len, const struct citcat_image *img)
{
	struct sdclsp_decoder *d;
	uint64_t pc;
	unsigned n = 0;
	int rc = sdclsp_decoder_open_mem(&d, buf, len, img);
	while (rc >= 0 && n++ < MAX_INSNS && (rc = sdclsp_decoder_next(d, &pc)) == 1)
		;
	sdclsp_decoder_close(d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct citcat_image *img;
	static uint8_t code[SYNTH_WORDS * 4];
	if (!img) {
		synth_bytes(code);
		if (citcat_image_alloc(&img) < 0 || citcat_image_add(img, SYNTH_BASE, code, sizeof code) < 0)
			abort();
	}
	decode(data, size, img);
	if (size < 1 || size > SDCLSP_BLOCK_MAX)
		return 0;

	struct sdclsp_config c;
	struct sdclsp_encoder *e;
	if (sdclsp_config_parse(&c, configs[data[0] % (sizeof configs / sizeof *configs)], NULL) < 0)
		abort();
	size_t len = size - 1, total = SDCLSP_HEADER_LEN + 8 + len + 8 + SDCLSP_TRAILER_LEN;
	uint8_t *f = malloc(total), *p = f;
	if (!f)
		return 0;
	if (sdclsp_encoder_alloc(&e, &c, hdr_sink, f) < 0)
		abort();
	sdclsp_encoder_free(e);
	p += SDCLSP_HEADER_LEN;
	/* the last byte's low three bits trim the bit count */
	uint32_t nbits = (uint32_t)(len * 8) - (len ? (data[size - 1] & 7) : 0);
	cc_put32(p, nbits);
	cc_put32(p + 4, XXH32(data + 1, (nbits + 7) / 8, 0));
	memcpy(p + 8, data + 1, (nbits + 7) / 8);
	p += 8 + (nbits + 7) / 8;
	if (!nbits)
		p -= 8; /* an empty block would be the end block */
	memset(p, 0, 8);
	p += 8;
	memset(p, 0, 64);
	cc_put32(p + 64, XXH32(p, 64, 0));
	p += SDCLSP_TRAILER_LEN;
	decode(f, (size_t)(p - f), img);
	free(f);
	return 0;
}
