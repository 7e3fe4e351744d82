/* Test helper: copies a citcat container, giving it another kind's magic
 * (first four bytes), optionally another format version, and a valid header
 * checksum, so a reader sees a well-formed file of the wrong content rather
 * than a checksum or version error.
 * Usage: container_retag IN OUT TAG [VERSION]   (TAG: CCAT, CITR, CIMS or CAES) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

int main(int argc, char **argv)
{
	if ((argc != 4 && argc != 5) || strlen(argv[3]) != 4) {
		fprintf(stderr, "usage: container_retag IN OUT TAG [VERSION]\n");
		return 2;
	}
	FILE *f = fopen(argv[1], "rb");
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
	if (16 + meta + 4 > (unsigned long)n)
		return 2;
	memcpy(b, argv[3], 4);
	if (argc == 5) {
		unsigned long v = strtoul(argv[4], NULL, 10);
		b[8] = (unsigned char)v;
		b[9] = (unsigned char)(v >> 8);
	}
	unsigned h = XXH32(b, 16 + meta, 0);
	for (int i = 0; i < 4; i++)
		b[16 + meta + i] = (unsigned char)(h >> (8 * i));
	f = fopen(argv[2], "wb");
	if (!f || fwrite(b, 1, (size_t)n, f) != (size_t)n || fclose(f))
		return 2;
	free(b);
	return 0;
}
