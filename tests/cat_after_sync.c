/* Test helper: prints the CAT's event counts after its trace start point
 * (SYNC), one "kind=count" per line, for the example extraction checks. */
#include "cat.h"

#include <stdio.h>

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: cat_after_sync RUN.cat\n");
		return 2;
	}
	struct citcat_cat_reader *r;
	struct citcat_cat_event ev;
	uint64_t n[CITCAT_CAT_KINDS] = {0};
	int synced = 0, rc = citcat_cat_reader_open(&r, argv[1]);
	while (rc == 0 && (rc = citcat_cat_next(r, &ev)) == 1) {
		rc = 0;
		if (ev.kind == CITCAT_CAT_SYNC)
			synced = 1;
		else if (synced)
			n[ev.kind]++;
	}
	if (rc < 0) {
		fprintf(stderr, "%s: %s\n", argv[1], citcat_cat_reader_error(r)->msg);
		citcat_cat_reader_close(r);
		return 2;
	}
	citcat_cat_reader_close(r);
	for (unsigned k = 1; k < CITCAT_CAT_KINDS; k++)
		printf("%s=%llu\n", citcat_cat_kind_name(k), (unsigned long long)n[k]);
	return synced ? 0 : 1;
}
