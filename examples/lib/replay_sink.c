/* Replays a traced interval from its IMS and AES and consumes the
 * instruction trace in memory, through the replayer's on_record callback:
 * the place to feed a cache simulator.  Here it counts instructions,
 * interrupts and data accesses; no file is written.
 *   cc replay_sink.c $(pkg-config --cflags --libs citcat) -o replay_sink
 *   ./replay_sink RUN.ims RUN.aes */
#include <citcat/citcat.h>

#include <stdio.h>

struct counts {
	uint64_t insns, irqs, reads, writes;
};

static int on_record(void *ctx, const struct citcat_itrace_rec *rec)
{
	struct counts *c = ctx;
	if (rec->kind == CITCAT_REC_IRQ) {
		c->irqs++;
		return 0;
	}
	c->insns++;
	for (uint32_t i = 0; i < rec->n_acc; i++) /* rec->acc[i].addr, .size: a cache simulator's input */
		rec->acc[i].write ? c->writes++ : c->reads++;
	return 0; /* a negative citcat_err would stop the replay */
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: replay_sink RUN.ims RUN.aes\n");
		return 2;
	}
	struct counts c = {0};
	struct citcat_replay_config cfg;
	citcat_replay_config_default(&cfg);
	cfg.ims_path = argv[1];
	cfg.aes_path = argv[2];
	cfg.on_record = on_record;
	cfg.record_ctx = &c;
	struct citcat_replay_result res;
	struct citcat_errinfo err;
	int rc = citcat_replay_run(&cfg, &res, &err);
	if (rc < 0) {
		fprintf(stderr, "replay: %s\n", err.msg[0] ? err.msg : citcat_errstr(rc));
		return rc == CITCAT_ERR_DIVERGED ? 1 : 2;
	}
	printf("instructions %llu\ninterrupts %llu\ndata reads %llu\ndata writes %llu\n", (unsigned long long)c.insns,
	       (unsigned long long)c.irqs, (unsigned long long)c.reads, (unsigned long long)c.writes);
	return 0;
}
