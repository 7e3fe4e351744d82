/* Test helper: copies a citcat container, giving it another kind's magic
 * (first four bytes), optionally another format version, and a valid header
 * checksum, so a reader sees a well-formed file of the wrong content rather
 * than a checksum or version error.
 * Usage: container_retag IN OUT TAG [VERSION]   (TAG: CCAT, CITR, CIMS or CAES) */
#include "container_seal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	if ((argc != 4 && argc != 5) || strlen(argv[3]) != 4) {
		fprintf(stderr, "usage: container_retag IN OUT TAG [VERSION]\n");
		return 2;
	}
	struct container_buf c;
	if (container_read(argv[1], &c))
		return 2;
	memcpy(c.b, argv[3], 4);
	if (argc == 5) {
		unsigned long v = strtoul(argv[4], NULL, 10);
		c.b[8] = (unsigned char)v;
		c.b[9] = (unsigned char)(v >> 8);
	}
	return container_seal_write(argv[2], &c) ? 2 : 0;
}
