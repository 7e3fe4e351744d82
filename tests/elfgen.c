/* Test tool: writes a small 32-bit little-endian ARM executable ELF with the
 * PT_LOAD segments asked for, to feed the ELF loader hostile or odd inputs
 * that a linker would not make (segments outside RAM, wrapping past 4 GiB,
 * huge memory sizes, thousands of overlapping segments).
 *
 * usage: elfgen OUT.elf ENTRY SEG...
 *   SEG = ADDR,FILESZ,MEMSZ[,COUNT[,STEP]]: COUNT segments (default 1), the
 *   first at ADDR, each next one STEP bytes higher (default 0: all at ADDR).
 * Every segment's file bytes are the same words, stored once, so a file of
 * a few hundred bytes can claim gigabytes: `b .` (0xEAFFFFFE), or the word
 * in the environment variable ELFGEN_FILL. */
#include "bytes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct seg {
	uint32_t addr, filesz, memsz;
};

int main(int argc, char **argv)
{
	if (argc < 4) {
		fprintf(stderr, "usage: elfgen OUT.elf ENTRY ADDR,FILESZ,MEMSZ[,COUNT[,STEP]]...\n");
		return 2;
	}
	struct seg *s = NULL;
	size_t n = 0;
	uint32_t maxfile = 0;
	for (int i = 3; i < argc; i++) {
		unsigned long long v[5] = {0, 0, 0, 1, 0};
		char *p = argv[i], *end;
		for (int k = 0; k < 5 && *p; k++) {
			v[k] = strtoull(p, &end, 0);
			if (end == p || (*end && *end != ',')) {
				fprintf(stderr, "elfgen: bad segment '%s'\n", argv[i]);
				return 2;
			}
			p = *end ? end + 1 : end;
		}
		if (n + v[3] > 0xfff0) {
			fprintf(stderr, "elfgen: too many segments\n");
			return 2;
		}
		struct seg *ns = realloc(s, (n + v[3]) * sizeof *s);
		if (!ns)
			return 2;
		s = ns;
		for (unsigned long long k = 0; k < v[3]; k++)
			s[n++] = (struct seg){(uint32_t)(v[0] + k * v[4]), (uint32_t)v[1], (uint32_t)v[2]};
		if (v[1] > maxfile)
			maxfile = (uint32_t)v[1];
	}
	if (maxfile > (1u << 20)) {
		fprintf(stderr, "elfgen: file sizes above 1 MiB are not needed\n");
		return 2;
	}
	size_t phoff = 52, dataoff = phoff + 32 * n, total = dataoff + maxfile;
	uint8_t *b = calloc(1, total);
	if (!b)
		return 2;
	memcpy(b, "\x7f" "ELF\x01\x01\x01", 7);
	cc_put16(b + 16, 2);  /* ET_EXEC */
	cc_put16(b + 18, 40); /* EM_ARM */
	cc_put32(b + 20, 1);
	cc_put32(b + 24, (uint32_t)strtoul(argv[2], NULL, 0));
	cc_put32(b + 28, (uint32_t)phoff);
	cc_put32(b + 36, 0x05000000u); /* EABI version 5 */
	cc_put16(b + 40, 52);
	cc_put16(b + 42, 32);
	cc_put16(b + 44, (uint16_t)n);
	cc_put16(b + 46, 40);
	for (size_t i = 0; i < n; i++) {
		uint8_t *ph = b + phoff + 32 * i;
		cc_put32(ph, 1); /* PT_LOAD */
		cc_put32(ph + 4, (uint32_t)dataoff);
		cc_put32(ph + 8, s[i].addr);
		cc_put32(ph + 12, s[i].addr);
		cc_put32(ph + 16, s[i].filesz);
		cc_put32(ph + 20, s[i].memsz);
		cc_put32(ph + 24, 7);
		cc_put32(ph + 28, 4);
	}
	const char *fill = getenv("ELFGEN_FILL");
	uint32_t word = fill ? (uint32_t)strtoul(fill, NULL, 0) : 0xEAFFFFFEu;
	for (uint32_t k = 0; k + 4 <= maxfile; k += 4)
		cc_put32(b + dataoff + k, word);
	FILE *f = fopen(argv[1], "wb");
	if (!f || fwrite(b, 1, total, f) != total || fclose(f) != 0) {
		fprintf(stderr, "elfgen: cannot write %s\n", argv[1]);
		return 1;
	}
	free(b);
	free(s);
	return 0;
}
