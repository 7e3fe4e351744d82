/* Runs a firmware on the modelled target and counts its CAT events per kind
 * in memory, through the capture's event sink: no file is written.
 *   cc capture_sink.c $(pkg-config --cflags --libs citcat) -o capture_sink
 *   ./capture_sink FIRMWARE.elf [SEED] */
#include <citcat/citcat.h>

#include <stdio.h>
#include <stdlib.h>

static int count(void *ctx, const struct citcat_cat_event *ev)
{
	uint64_t *n = ctx;
	n[ev->kind % CITCAT_CAT_KINDS]++;
	return 0; /* a negative citcat_err would stop the run */
}

int main(int argc, char **argv)
{
	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: capture_sink FIRMWARE.elf [SEED]\n");
		return 2;
	}
	uint64_t n[CITCAT_CAT_KINDS] = {0};
	struct citcat_capture_config cfg;
	citcat_capture_config_default(&cfg);
	if (argc == 3)
		cfg.target.seed = strtoull(argv[2], NULL, 0);
	cfg.on_event = count;
	cfg.event_ctx = n;
	struct citcat_capture_result res;
	struct citcat_errinfo err;
	int rc = citcat_capture_run(&cfg, argv[1], NULL, NULL, &res, &err);
	if (rc < 0) {
		fprintf(stderr, "%s: %s\n", argv[1], err.msg[0] ? err.msg : citcat_errstr(rc));
		return 2;
	}
	for (unsigned k = 1; k < CITCAT_CAT_KINDS; k++)
		if (citcat_cat_kind_name(k)[0] != '?') /* a kind reserved for a later version */
			printf("%-15s %llu\n", citcat_cat_kind_name(k), (unsigned long long)n[k]);
	return 0;
}
