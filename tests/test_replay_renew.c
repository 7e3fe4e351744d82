/* The block engine replaces Unicorn's engine by a new one in the same state
 * when the translations it made Unicorn redo pass a budget (replay.c
 * blk_renew, replay/REPLAY.md "Interrupts, DMA and the block engine"), so
 * that a long run's memory stays bounded.  With the budget lowered to 16
 * the engine is replaced dozens of times on irqdma (interrupts entered at
 * cuts inside blocks, DMA inside blocks), and the replay must still be
 * exact: --verify and --oracle pass, and the itrace is the insn engine's
 * byte for byte.
 *
 * With a sixth argument `auto`: auto's switches between blocks and the
 * code hook over everything (replay.c blk_window, replay/REPLAY.md "Blocks
 * with a code hook of their own, and auto's start") must keep the replay
 * exact.  With auto's window shortened to 4,096 instructions it switches
 * dozens of times on irqdma: with records kept (a cut counts 25,000
 * instructions, so a window with a cut goes to the code hook over
 * everything, one without goes back) and with --verify alone (2,500).
 * Both must pass --verify (and --oracle), the itrace must be the insn
 * engine's byte for byte, and the summary must show the switches
 * (translation drops) and blocks run between them, or the test proved
 * nothing about those paths.
 * Usage: test_replay_renew RUN.ims RUN.aes RUN.cat RUN.oracle OUT_DIR [auto] */
#include "check.h"
#include "citcat/replay.h"
#include "replay.h"

#include <stdio.h>
#include <string.h>

static int replay(const char *ims, const char *aes, const char *cat, const char *orc, const char *out, unsigned engine,
		  struct citcat_replay_result *res)
{
	struct citcat_replay_config c;
	citcat_replay_config_default(&c);
	c.engine = engine;
	c.ims_path = ims;
	c.aes_path = aes;
	c.verify_cat = cat;
	c.oracle = orc;
	c.out_path = out;
	struct citcat_errinfo err;
	int rc = citcat_replay_run(&c, res, &err);
	if (rc)
		fprintf(stderr, "replay (engine %u): %d %s %s\n", engine, rc, res->diverged ? res->div.check : err.msg,
			res->diverged ? res->div.found : "");
	return rc;
}

static int same_file(const char *a, const char *b)
{
	FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
	int same = fa && fb;
	while (same) {
		int ca = fgetc(fa), cb = fgetc(fb);
		same = ca == cb;
		if (ca == EOF || cb == EOF)
			break;
	}
	if (fa)
		fclose(fa);
	if (fb)
		fclose(fb);
	return same;
}

static void show(const char *what, const struct citcat_replay_result *r)
{
	fprintf(stderr, "%s: %llu blocks, %llu engine switches, %llu interrupts at or inside blocks, %llu DMA inside blocks\n",
		what, (unsigned long long)r->blk_blocks, (unsigned long long)r->blk_flushes,
		(unsigned long long)r->blk_irq_stops, (unsigned long long)r->blk_dma_inline);
}

int main(int argc, char **argv)
{
	int aut = argc == 7 && strcmp(argv[6], "auto") == 0;
	if (argc != 6 && !aut) {
		fprintf(stderr, "usage: test_replay_renew RUN.ims RUN.aes RUN.cat RUN.oracle OUT_DIR [auto]\n");
		return 2;
	}
	char a[600], b[600];
	snprintf(a, sizeof a, "%s/%s.itrace", argv[5], aut ? "auto" : "renew");
	snprintf(b, sizeof b, "%s/insn.itrace", argv[5]);
	struct citcat_replay_result res;
	CHECK_EQ(replay(argv[1], argv[2], argv[3], argv[4], b, CITCAT_REPLAY_ENGINE_INSN, &res), 0);
	CHECK_EQ(res.blk_renewals, 0);
	CHECK_EQ(res.blk_flushes, 0);
	if (aut) {
		replay_auto_window = 4096;
		/* records kept: -o, --verify and --oracle */
		CHECK_EQ(replay(argv[1], argv[2], argv[3], argv[4], a, CITCAT_REPLAY_ENGINE_AUTO, &res), 0);
		show("auto, records", &res);
		CHECK(res.blk_flushes >= 10);
		CHECK(res.blk_blocks > 1000);
		CHECK(res.blk_irq_stops > 5);
		CHECK(same_file(a, b));
		/* --verify alone (blk_retire_arm, no records) */
		CHECK_EQ(replay(argv[1], argv[2], argv[3], NULL, NULL, CITCAT_REPLAY_ENGINE_AUTO, &res), 0);
		show("auto, --verify", &res);
		CHECK(res.blk_flushes >= 100);
		CHECK(res.blk_blocks > 10000);
		CHECK_DONE();
	}
	/* the first 96 interrupts at a cut are entered by cutting the block in
	 * the engine of blocks (its churn renews it), the rest in the second
	 * engine (blk_cut2): both ways, and renewals with the second open */
	replay_renew_after = 16;
	replay_cuts_open = 96;
	CHECK_EQ(replay(argv[1], argv[2], argv[3], argv[4], a, CITCAT_REPLAY_ENGINE_BLOCK, &res), 0);
	fprintf(stderr, "%llu new engines, %llu engine switches, %llu interrupts at or inside blocks, %llu DMA transfers inside blocks\n",
		(unsigned long long)res.blk_renewals, (unsigned long long)res.blk_flushes, (unsigned long long)res.blk_irq_stops,
		(unsigned long long)res.blk_dma_inline);
	CHECK(res.blk_renewals >= 10);
	CHECK(res.blk_flushes > 100); /* the second engine, in and out */
	CHECK(res.blk_irq_stops > 100);
	CHECK(res.blk_dma_inline > 100);
	CHECK(same_file(a, b));
	CHECK_DONE();
}
