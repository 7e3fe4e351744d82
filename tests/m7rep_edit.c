/* Test helper for tests/m7rep.sh: rewrites one thing of a Cortex-M7 IMS or
 * AES so that the file stays well formed (valid checksums) but says
 * something else, for the replayer to refuse or to report as a divergence.
 *
 *   m7rep_edit meta IN OUT OFF BYTE   metadata byte OFF := BYTE, header checksum redone
 *   m7rep_edit exc IN OUT N DELTA     the AES's Nth exception record (0-based): number += DELTA
 *   m7rep_edit move IN OUT N DELTA    ... its branch count += DELTA
 *   m7rep_edit drop IN OUT N 0        ... left out
 *   m7rep_edit input IN OUT ADDR DELTA  the AES's first input record read from ADDR: value += DELTA
 * Exit 0 done, 2 usage or I/O error, 3 no such record. */
#include "aes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

static int meta_edit(const char *in, const char *out, unsigned long off, unsigned byte)
{
	FILE *f = fopen(in, "rb");
	if (!f)
		return 2;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	rewind(f);
	unsigned char *b = malloc(n > 0 ? (size_t)n : 1);
	if (!b || n < 20 || fread(b, 1, (size_t)n, f) != (size_t)n)
		return 2;
	fclose(f);
	unsigned long meta = b[12] | b[13] << 8 | (unsigned long)b[14] << 16 | (unsigned long)b[15] << 24;
	if (off >= meta || 16 + meta + 4 > (unsigned long)n)
		return 2;
	b[16 + off] = (unsigned char)byte;
	unsigned h = XXH32(b, 16 + meta, 0); /* CONTAINER.md: hcheck */
	for (int i = 0; i < 4; i++)
		b[16 + meta + i] = (unsigned char)(h >> (8 * i));
	f = fopen(out, "wb");
	if (!f || fwrite(b, 1, (size_t)n, f) != (size_t)n || fclose(f))
		return 2;
	free(b);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc != 6) {
		fprintf(stderr, "usage: m7rep_edit meta|exc|move|drop|input IN OUT N VALUE\n");
		return 2;
	}
	const char *op = argv[1], *in = argv[2], *out = argv[3];
	unsigned long nth = strtoul(argv[4], NULL, 0);
	long delta = strtol(argv[5], NULL, 0);
	if (!strcmp(op, "meta"))
		return meta_edit(in, out, nth, (unsigned)delta);
	struct citcat_aes_reader *r;
	struct citcat_aes_writer *w = NULL;
	struct citcat_target_config cfg;
	citcat_target_config_default(&cfg);
	cfg.isa = 2;
	int rc = citcat_aes_reader_open(&r, in), found = 0;
	if (!rc)
		rc = citcat_aes_writer_open(&w, out, citcat_aes_trace_id(r), &cfg);
	unsigned long k = 0;
	struct citcat_aes_rec rec;
	while (!rc && (rc = citcat_aes_next(r, &rec)) == 1) {
		rc = 0;
		if (!strcmp(op, "input")) {
			if (rec.kind == CITCAT_AES_INPUT && rec.addr == nth && !found) {
				found = 1;
				rec.value += (uint64_t)delta;
			}
		} else if (rec.kind == CITCAT_AES_IRQ && k++ == nth) {
			found = 1;
			if (!strcmp(op, "drop"))
				continue;
			if (!strcmp(op, "exc"))
				rec.line = (uint8_t)(rec.line + delta);
			else
				rec.bcount += (uint64_t)delta;
		}
		rc = citcat_aes_write(w, &rec);
	}
	if (!rc)
		rc = citcat_aes_writer_close(w);
	else
		citcat_aes_writer_abort(w);
	citcat_aes_reader_close(r);
	if (rc) {
		fprintf(stderr, "m7rep_edit: %s\n", citcat_errstr(rc));
		return 2;
	}
	return found ? 0 : 3;
}
