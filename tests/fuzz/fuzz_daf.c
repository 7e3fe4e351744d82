/* Fuzz target: the DAF decoder never crashes, hangs or reads out of bounds,
 * whatever the bytes.  An input starting "CDAF" is read as a whole file;
 * any other input is [encoding byte][nrec byte][record bits] wrapped in a
 * valid container (wrap.h) so the record decoder is reached despite the
 * checksums.  The program flow is a fixed loop of instructions that need
 * every kind of record: an address, an executed bit, an escape. */
#include "daf.h"
#include "wrap.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const uint32_t flow[] = {
	0xe5900000, /* ldr r0, [r0]        address (r0 reloaded each time) */
	0x15991000, /* ldrne r1, [r9]      executed bit [+ address] */
	0xe1090091, /* swp r0, r1, [r9]    escape */
	0xe8b00006, /* ldmia r0!, {r1, r2} address */
	0xe3a01010, /* mov r1, #16         nothing */
	0xe7923001, /* ldr r3, [r2, r1]    address, recovers r2 */
};

static void decode(const uint8_t *buf, size_t len)
{
	static struct citcat_itrace_rec rec;
	struct citcat_daf_decoder *d;
	if (citcat_daf_decoder_open_mem(&d, buf, len) == 0) {
		int rc = 1;
		for (uint32_t i = 0; i < 600 && rc == 1; i++)
			rc = citcat_daf_decode(d, 0x1000 + 4 * i, flow[i % (sizeof flow / sizeof *flow)], &rec);
		if (rc == 1)
			citcat_daf_decoder_finish(d);
	}
	citcat_daf_decoder_close(d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size >= 4 && memcmp(data, "CDAF", 4) == 0) {
		decode(data, size);
		return 0;
	}
	if (size < 2)
		return 0;
	uint8_t meta[8] = {1, (uint8_t)(1 + (data[0] & 1)), 0, 0, 0x18, 0, 0, 0};
	size_t len;
	uint8_t *buf = wrap_container("CDAF\r\n\x1a\n", 1, meta, sizeof meta, data + 2, size - 2, data[1], &len);
	if (buf)
		decode(buf, len);
	free(buf);
	return 0;
}
