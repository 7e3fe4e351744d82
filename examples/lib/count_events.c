/* Counts the events of a CAT per kind, with libcitcat's installed API only.
 *   cc count_events.c $(pkg-config --cflags --libs citcat) -o count_events */
#include <citcat/citcat.h>

#include <stdio.h>

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: count_events RUN.cat\n");
		return 2;
	}
	uint64_t n[CITCAT_CAT_KINDS] = {0};
	struct citcat_cat_event ev;
	struct citcat_cat_reader *r;
	int rc = citcat_cat_reader_open(&r, argv[1]);
	while (rc >= 0 && (rc = citcat_cat_next(r, &ev)) == 1)
		n[ev.kind % CITCAT_CAT_KINDS]++;
	if (rc < 0) { /* the reader names the byte at fault */
		const struct citcat_errinfo *e = citcat_cat_reader_error(r);
		fprintf(stderr, "%s: %s (offset %llu)\n", argv[1], e && e->msg[0] ? e->msg : citcat_errstr(rc),
			e ? (unsigned long long)e->offset : 0ull);
	}
	citcat_cat_reader_close(r); /* in every case: it accepts NULL */
	if (rc < 0)
		return 2;
	for (unsigned k = 1; k < CITCAT_CAT_KINDS; k++)
		if (citcat_cat_kind_name(k)[0] != '?') /* a kind reserved for a later version */
			printf("%-15s %llu\n", citcat_cat_kind_name(k), (unsigned long long)n[k]);
	return 0;
}
