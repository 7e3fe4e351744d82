/* Fuzz target: the DAF decoder never crashes, hangs or reads out of bounds,
 * whatever the bytes.  An input starting "CDAF" is read as a whole file;
 * any other input is [encoding byte][nrec byte][record bits] wrapped in a
 * valid container (wrap.h) so the record decoder is reached despite the
 * checksums (bit 1 of the encoding byte: a version 2 container, ISA 2, and
 * a flow that mixes Thumb code in; bit 2: a version 3 Cortex-M7 file, ISA 3,
 * whose entry list, entry records, corrections and return records are
 * reached through a Thumb flow with the entries drained at every boundary).
 * The program flow is a fixed loop of instructions that need every kind of
 * record: an address, an executed bit, an escape. */
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

/* Thumb (DAF.md, "T32"): word, size */
static const uint32_t tflow[][2] = {
	{0x6800, 2},       /* ldr r0, [r0]        address */
	{0xbf18, 2},       /* it ne */
	{0x6815, 2},       /* ldrne r5, [r2]      executed bit [+ address] */
	{0xf001e8df, 4},   /* tbb [pc, r1]        address unless r1 valid */
	{0xe8500f00, 4},   /* ldrex r0, [r0]      escape */
	{0xbd10, 2},       /* pop {r4, pc}        address */
	{0x6702e9d2, 4},   /* ldrd r6, r7, [r2, #8] */
	{0x2140, 2},       /* movs r1, #0x40      nothing */
};

/* The Cortex-M7 (DAF.md, "The Cortex-M7"): word, size */
static const uint32_t mflow[][2] = {
	{0xb510, 2},       /* push {r4, lr}       address */
	{0x6800, 2},       /* ldr r0, [r0]        address */
	{0xbf18, 2},       /* it ne */
	{0x6815, 2},       /* ldrne r5, [r2]      executed bit [+ address] */
	{0x4770, 2},       /* bx lr               a return record in handler mode */
	{0xdf00, 2},       /* svc 0               nothing (its entry follows) */
	{0xe8500f00, 4},   /* ldrex r0, [r0]      escape */
	{0xbd10, 2},       /* pop {r4, pc}        address [+ return record] */
};

static void decode_m7(struct citcat_daf_decoder *d)
{
	static struct citcat_itrace_rec rec, ent;
	int rc = 1, have = 0;
	uint32_t pc = 0x1000;
	for (uint32_t i = 0; i < 600 && rc >= 0; i++) {
		while ((rc = citcat_daf_decode_entry(d, &ent, have ? &rec : NULL)) == 1)
			have = 0;
		if (rc < 0)
			return;
		const uint32_t *t = mflow[i % (sizeof mflow / sizeof *mflow)];
		rc = citcat_daf_decode_isa(d, pc, t[0], t[1], 1, &rec);
		have = rc == 1;
		pc += t[1];
	}
	if (rc == 1 && citcat_daf_decode_entry(d, &ent, &rec) == 0)
		citcat_daf_decoder_finish(d);
}

static void decode(const uint8_t *buf, size_t len)
{
	static struct citcat_itrace_rec rec;
	struct citcat_daf_decoder *d;
	int ok = citcat_daf_decoder_open_mem(&d, buf, len) == 0;
	if (ok && citcat_daf_decoder_m7(d)) {
		decode_m7(d);
	} else if (ok) {
		int rc = 1;
		uint32_t pc = 0x1000;
		for (uint32_t i = 0; i < 600 && rc == 1; i++) {
			if (i % 3 == 2) { /* Thumb (refused by a version 1 file) */
				const uint32_t *t = tflow[(i / 3) % (sizeof tflow / sizeof *tflow)];
				rc = citcat_daf_decode_isa(d, pc, t[0], t[1], 1, &rec);
				pc += t[1];
			} else {
				pc = (pc + 3) & ~3u;
				rc = citcat_daf_decode(d, pc, flow[i % (sizeof flow / sizeof *flow)], &rec);
				pc += 4;
			}
		}
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
	unsigned v2 = (data[0] >> 1) & 1, m7 = (data[0] >> 2) & 1;
	uint8_t meta[8] = {(uint8_t)(m7 ? 3 : 1 + v2), (uint8_t)(1 + (data[0] & 1)), 0, 0, m7 ? 0 : 0x18, 0, 0, 0};
	size_t len;
	uint8_t *buf = wrap_container("CDAF\r\n\x1a\n", (uint16_t)(m7 ? 3 : 1 + v2), meta, sizeof meta, data + 2, size - 2,
				      data[1], &len);
	if (buf)
		decode(buf, len);
	free(buf);
	return 0;
}
