/* Fuzz target: TVP (common/TVP.md, formats/TVP_MODEL.md).  The bytes go to
 * the address-trace reader and the input layer as a file; then, since
 * mutated bytes almost never pass the container's checksums, they are read
 * as [descriptor choice][count, 4][six stream lengths, 2 each][streams] and
 * packed into a valid mode-1 container (common/tvp.h's writer), so the
 * model's decoder meets arbitrary streams.  Nothing may crash, hang or read
 * out of bounds; a decoded reference must fit its file's width. */
#include "addr.h"
#include "input.h"
#include "tvp.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct membuf {
	uint8_t *p;
	size_t len, cap;
};

static int sink(void *ctx, const void *buf, size_t len)
{
	struct membuf *m = ctx;
	if (m->len + len > m->cap) {
		size_t c = (m->len + len) * 2;
		uint8_t *p = realloc(m->p, c);
		if (!p)
			return CITCAT_ERR_NOMEM;
		m->p = p;
		m->cap = c;
	}
	memcpy(m->p + m->len, buf, len);
	m->len += len;
	return 0;
}

static void read_trace(const uint8_t *buf, size_t len)
{
	struct citcat_addr_reader *r;
	struct citcat_ref ref;
	if (citcat_addr_reader_open_mem(&r, buf, len, CITCAT_ADDR_AUTO) == 0) {
		unsigned bits = citcat_addr_reader_addr_bits(r);
		for (long i = 0; i < (1L << 22) && citcat_addr_next(r, &ref) == 1; i++)
			if (bits == 32 && ref.addr > 0xffffffffu)
				abort();
	}
	citcat_addr_reader_close(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	read_trace(data, size);
	struct cc_input *in;
	if (cc_input_open_mem(&in, data, size, NULL) == 0) {
		static uint8_t buf[65536];
		for (int i = 0; i < 256 && cc_input_read(in, buf, sizeof buf) > 0; i++)
			;
		cc_input_close(in);
	}
	if (size < 17)
		return 0;
	/* descriptors: din, xdin, PDATS II 32-bit version 2, PDATS 64-bit version 1 */
	static const uint8_t descs[4][8] = {{1, 0, 64}, {2, 0, 64}, {4, 2, 32, 2, 1}, {3, 1, 64}};
	static const struct cc_tvp_group_opts opts[2] = {{.preset = 1, .dict_log = 16, .lc = 3},
							 {.preset = 1, .dict_log = 16, .lp = 2, .pb = 2}};
	static const unsigned group[6] = {0, 0, 0, 0, 0, 1};
	uint32_t count = (uint32_t)data[1] | (uint32_t)data[2] << 8 | (uint32_t)data[3] << 16;
	const uint8_t *raw[6];
	size_t len[6], at = 17;
	for (int s = 0; s < 6; s++) {
		len[s] = (size_t)(data[5 + 2 * s] | data[6 + 2 * s] << 8);
		if (len[s] > size - at)
			len[s] = size - at;
		raw[s] = data + at;
		at += len[s];
	}
	struct membuf m = {0};
	struct cc_tvp_writer *w;
	if (cc_tvp_writer_open(&w, CC_TVP_TRACE, descs[data[0] & 3], 2, opts, sink, &m, NULL) == 0) {
		int rc = count ? cc_tvp_write_block(w, count, 6, raw, len, group, 1) : 0;
		if (!rc && !cc_tvp_write_end(w, count))
			read_trace(m.p, m.len);
	}
	cc_tvp_writer_free(w);
	free(m.p);
	return 0;
}
