/* Fuzz target: the AES reader never crashes or reads out of bounds, its
 * work follows the input's size (long repeat runs are skipped, not read),
 * and every record it returns is well formed (kind, size, value width, DMA
 * length, raw bytes).  An input starting "CAES" is read as a whole file
 * (and segments 0..2 of a segment bundle through its index, SEGIDX.md);
 * any other input is a chunk's records, wrapped in a valid container
 * (wrap.h) so the record decoder is reached despite the checksums. */
#include "aes.h"
#include "wrap.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* WHICH < 0: the file's only segment; else segment WHICH of a bundle
 * (common/SEGIDX.md) */
static void read_seg(const uint8_t *buf, size_t len, int which)
{
	struct citcat_aes_reader *r;
	struct citcat_aes_rec rec;
	if ((which < 0 ? citcat_aes_reader_open_mem(&r, buf, len)
		     : citcat_aes_reader_open_segment_mem(&r, buf, len, (uint64_t)which)) == 0) {
		volatile uint8_t sink = 0;
		while (citcat_aes_next(r, &rec) == 1) {
			if (rec.kind >= CITCAT_AES_KINDS)
				abort();
			if (rec.kind == CITCAT_AES_DMA) {
				if (rec.len == 0 || rec.len > 4096)
					abort();
				sink ^= rec.data[0] ^ rec.data[rec.len - 1];
			}
			if (rec.kind >= CITCAT_AES_INPUT && rec.kind <= CITCAT_AES_COUNTER &&
			    ((rec.size != 1 && rec.size != 2 && rec.size != 4) || (rec.value >> (8 * rec.size))))
				abort();
			size_t n;
			const uint8_t *raw = citcat_aes_last_raw(r, &n);
			if (n)
				sink ^= raw[0] ^ raw[n - 1];
			/* short runs are read copy by copy; long ones (a REPEAT
			 * may claim the file's whole instruction count) skipped */
			uint64_t left = citcat_aes_pending_repeats(r);
			if (left > 4096 && citcat_aes_skip_repeats(r) != left)
				abort();
		}
		(void)sink;
	}
	citcat_aes_reader_close(r);
}

static void read_all(const uint8_t *buf, size_t len)
{
	for (int k = -1; k < 3; k++)
		read_seg(buf, len, k);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size >= 4 && memcmp(data, "CAES", 4) == 0) {
		read_all(data, size);
		return 0;
	}
	uint8_t meta[32] = {0};
	meta[14] = 1; /* 65536 traced instructions: bounds REPEAT counts */
	size_t len;
	uint8_t *b = wrap_container("CAES\r\n\x1a\n", CITCAT_AES_VERSION, meta, sizeof meta, data, size, 1, &len);
	if (b)
		read_all(b, len);
	free(b);
	return 0;
}
