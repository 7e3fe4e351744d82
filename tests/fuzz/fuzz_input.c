/* Fuzz target: the input layer (common/input.h) must never crash, hang or
 * read out of bounds on any bytes, wrapped (LZ4, zstd, xz) or not, and the
 * format detection on top of it (formats/registry.h) neither.  Whatever it
 * reads must be what it peeked. */
#include "input.h"
#include "registry.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct citcat_format *f;
	citcat_format_detect_mem(data, size, &f, NULL, NULL);
	struct cc_input *in;
	if (cc_input_open_mem(&in, data, size, NULL))
		return 0;
	static uint8_t buf[4096], seen[4096];
	const uint8_t *p;
	long n = cc_input_peek(in, &p, 100);
	if (n > 0)
		memcpy(seen, p, (size_t)n);
	long k = cc_input_read(in, buf, sizeof buf);
	if (n > 0 && k >= 0 && (k < n || memcmp(buf, seen, (size_t)n) != 0))
		abort(); /* a read that succeeds returns the bytes a peek showed */
	for (int i = 0; k > 0 && i < 4096; i++) /* at most 16 MiB decompressed */
		k = cc_input_read(in, buf, sizeof buf);
	cc_input_close(in);
	return 0;
}
