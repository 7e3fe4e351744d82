/* The node table's compression (WET.md "Graph"): an xz stream, LZMA2 at
 * its strongest preset with a dictionary no larger than the table. */
#include "wet_int.h"

#include <lzma.h>
#include <stdlib.h>

int wet_xz_pack(const uint8_t *in, size_t n, uint8_t **out, size_t *outn)
{
	lzma_options_lzma opt;
	if (lzma_lzma_preset(&opt, 9 | LZMA_PRESET_EXTREME))
		return -1;
	uint32_t dict = 4096;
	while (dict < n && dict < (1u << 26))
		dict *= 2;
	opt.dict_size = dict;
	lzma_filter f[2] = {{LZMA_FILTER_LZMA2, &opt}, {LZMA_VLI_UNKNOWN, NULL}};
	size_t cap = lzma_stream_buffer_bound(n), pos = 0;
	uint8_t *b = malloc(cap ? cap : 1);
	if (!b)
		return -1;
	if (lzma_stream_buffer_encode(f, LZMA_CHECK_NONE, NULL, in, n, b, &pos, cap) != LZMA_OK) {
		free(b);
		return -1;
	}
	*out = b;
	*outn = pos;
	return 0;
}

int wet_xz_unpack(const uint8_t *in, size_t inlen, uint8_t *out, size_t n)
{
	uint64_t memlimit = 128u << 20;
	size_t ip = 0, op = 0;
	lzma_ret r = lzma_stream_buffer_decode(&memlimit, 0, NULL, in, &ip, inlen, out, &op, n);
	if (r == LZMA_MEM_ERROR)
		return -2;
	return r == LZMA_OK && ip == inlen && op == n ? 0 : -1;
}
