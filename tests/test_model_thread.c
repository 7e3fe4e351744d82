/* The replay's model thread (replay/model_pipe.c, REPLAY.md "session 12:
 * the model thread"): `--verify` with the memory-system model on a second
 * thread gives what the inline model gives, byte for byte:
 *
 *   1. a good run verifies on the thread itself (no inline run made again:
 *      model_pipe_redos stays 0), with the same bus-event count and the
 *      same written itrace;
 *   2. a CAT with one line fill's data changed (IMS and AES extracted from
 *      it, so the trace ids agree and the replay diverges there, early,
 *      while the replay's thread runs far ahead of the model's): the same
 *      result, divergence report (position, history, registers, bytes),
 *      exit code, and no itrace left behind;
 *   3. the CAT with one byte flipped at each of 24 places through the file:
 *      the same result code, error message and offset, and result;
 *   4. (2) again with a stop request (the CLI's Ctrl-C) raised once the
 *      thread has found the difference and kept from then on, as the CLI's
 *      flag is: the difference is reported, as inline, where it is found
 *      before the stop request (session 12 reported "interrupted").
 *
 * Usage: test_model_thread CITCAT-CLI EX_OUT/matmul.cat EX_OUT/matmul.x.ims
 * EX_OUT/matmul.x.aes SCRATCH-DIR (matmul: its CAT has write-backs after
 * the trace start point to edit).
 *
 * With `m7 EDITED.aes` after them the run is a Cortex-M7 one (session 13:
 * tests/model_thread_m7.sh gives m7cap's, with SysTick, PendSV, SVC, nested
 * NVIC interrupts and a UsageFault, each entry's stacking written by the
 * exception model through bus_data and uc_mem_write): the good run must
 * have had interrupts, and part 2's difference is an exception entry (EXC
 * event) instead of a line's data: the AES with one exception's number
 * changed (tests/m7rep_edit), the IMS and CAT as they are. */
#include "check.h"
#include "citcat/cat.h"
#include "citcat/replay.h"
#include "model_pipe.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct outcome {
	int rc;
	struct citcat_errinfo err;
	struct citcat_replay_result res;
	int out_exists;
};

/* 4: the progress callback, a stop request raised once the model thread has
 * found a difference (model_pipe_redos moved past STOP_BASE), then kept */
static unsigned long stop_base;
static int stop_raised;
static int stop_after_thread_found(void *ctx, uint64_t insns, uint64_t total)
{
	(void)ctx, (void)insns, (void)total;
	stop_raised |= model_pipe_redos != stop_base;
	return stop_raised;
}
static int (*progress)(void *ctx, uint64_t insns, uint64_t total);

static void run(const char *ims, const char *aes, const char *cat, const char *out, unsigned mode, struct outcome *o)
{
	struct citcat_replay_config c;
	citcat_replay_config_default(&c);
	c.ims_path = ims;
	c.aes_path = aes;
	c.verify_cat = cat;
	c.out_path = out;
	c.model_thread = mode;
	c.progress = progress;
	memset(o, 0, sizeof *o);
	if (out)
		unlink(out);
	o->rc = citcat_replay_run(&c, &o->res, &o->err);
	o->res.seconds = 0;
	o->out_exists = out && access(out, F_OK) == 0;
}

static void same(const struct outcome *a, const struct outcome *b, const char *what)
{
	int ok = a->rc == b->rc && a->err.code == b->err.code && a->err.offset == b->err.offset &&
		 strcmp(a->err.msg, b->err.msg) == 0 && memcmp(&a->res, &b->res, sizeof a->res) == 0 &&
		 a->out_exists == b->out_exists;
	if (!ok)
		fprintf(stderr, "%s: thread rc %d '%s' @%llu (%s at %llu: %s), inline rc %d '%s' @%llu (%s at %llu: %s)\n",
			what, a->rc, a->err.msg, (unsigned long long)a->err.offset,
			a->res.div.check ? a->res.div.check : "-", (unsigned long long)a->res.div.insn_index,
			a->res.div.found, b->rc, b->err.msg, (unsigned long long)b->err.offset,
			b->res.div.check ? b->res.div.check : "-", (unsigned long long)b->res.div.insn_index,
			b->res.div.found);
	CHECK(ok);
}

static long fsize(const char *p)
{
	struct stat st;
	return stat(p, &st) ? -1 : (long)st.st_size;
}

static int same_file(const char *a, const char *b)
{
	FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
	int r = fa && fb;
	while (r) {
		int x = fgetc(fa), y = fgetc(fb);
		if (x != y)
			r = 0;
		if (x == EOF || y == EOF)
			break;
	}
	if (fa)
		fclose(fa);
	if (fb)
		fclose(fb);
	return r;
}

/* Copies the CAT SRC to DST with the data of the first write-back, or of a
 * D-line fill of a line filled before, changed (a first fill would only
 * change the IMS extracted from it); returns its event number or 0. */
static uint64_t edit_cat(const char *src, const char *dst)
{
	struct citcat_cat_reader *r = NULL;
	struct citcat_cat_writer *w = NULL;
	if (citcat_cat_reader_open(&r, src) || citcat_cat_writer_open(&w, dst, citcat_cat_config(r))) {
		citcat_cat_reader_close(r);
		citcat_cat_writer_abort(w);
		return 0;
	}
	static uint32_t seen[4096];
	unsigned nseen = 0;
	uint64_t n = 0, edited = 0;
	int synced = 0;
	struct citcat_cat_event ev;
	uint8_t buf[4096];
	while (citcat_cat_next(r, &ev) == 1) {
		n++;
		synced |= ev.kind == CITCAT_CAT_SYNC; /* the replay compares from P on */
		if (synced && !edited && (ev.kind == CITCAT_CAT_FILL_D || ev.kind == CITCAT_CAT_WRITEBACK) && ev.len <= sizeof buf) {
			unsigned k = 0;
			while (k < nseen && seen[k] != ev.addr)
				k++;
			if (k < nseen || ev.kind == CITCAT_CAT_WRITEBACK) {
				memcpy(buf, ev.data, ev.len);
				buf[ev.len - 1] ^= 0x5a;
				ev.data = buf;
				edited = n;
			} else if (nseen < 4096) {
				seen[nseen++] = ev.addr;
			}
		}
		if (citcat_cat_write(w, &ev)) {
			edited = 0;
			break;
		}
	}
	citcat_cat_reader_close(r);
	if (citcat_cat_writer_close(w))
		return 0;
	return edited;
}

int main(int argc, char **argv)
{
	if (argc != 6 && !(argc == 8 && strcmp(argv[6], "m7") == 0)) {
		fprintf(stderr, "usage: test_model_thread CITCAT RUN.cat RUN.ims RUN.aes DIR [m7 EDITED.aes]\n");
		return 2;
	}
	int m7 = argc == 8;
	const char *cli = argv[1], *cat = argv[2], *ims = argv[3], *aes = argv[4], *dir = argv[5];
	char cmd[24000], p_out_t[4096], p_out_i[4096], p_cat[4096], p_ims[4096], p_aes[4096], p_bad[4096];
	mkdir(dir, 0777);
	snprintf(p_out_t, sizeof p_out_t, "%s/thread.itrace", dir);
	snprintf(p_out_i, sizeof p_out_i, "%s/inline.itrace", dir);
	snprintf(p_cat, sizeof p_cat, "%s/edited.cat", dir);
	snprintf(p_ims, sizeof p_ims, "%s/edited.ims", dir);
	snprintf(p_aes, sizeof p_aes, "%s/edited.aes", dir);
	snprintf(p_bad, sizeof p_bad, "%s/flipped.cat", dir);

	/* 1. the good run, on the thread itself */
	struct outcome t, i;
	unsigned long redos = model_pipe_redos;
	run(ims, aes, cat, p_out_t, CITCAT_REPLAY_MODEL_THREAD, &t);
	CHECK_EQ(model_pipe_redos, redos);
	run(ims, aes, cat, p_out_i, CITCAT_REPLAY_MODEL_INLINE, &i);
	CHECK_EQ(t.rc, 0);
	CHECK(t.res.bus_events > (m7 ? 300 : 1000));
	if (m7)
		CHECK(t.res.irqs >= 10);
	same(&t, &i, "good run");
	CHECK(same_file(p_out_t, p_out_i));
	uint64_t good_insns = t.res.insns;

	/* 2. an early bus divergence, the replay's thread far ahead */
	if (m7) {
		snprintf(p_cat, sizeof p_cat, "%s", cat);
		snprintf(p_ims, sizeof p_ims, "%s", ims);
		snprintf(p_aes, sizeof p_aes, "%s", argv[7]);
	} else {
		uint64_t k = edit_cat(cat, p_cat);
		CHECK(k > 0);
		snprintf(cmd, sizeof cmd, "'%s' ims '%s' -o '%s' 2>/dev/null && '%s' aes '%s' -o '%s' 2>/dev/null", cli,
			 p_cat, p_ims, cli, p_cat, p_aes);
		CHECK_EQ(system(cmd), 0);
	}
	redos = model_pipe_redos;
	run(p_ims, p_aes, p_cat, p_out_t, CITCAT_REPLAY_MODEL_THREAD, &t);
	CHECK_EQ(model_pipe_redos, redos + 1); /* found on the thread, reported inline */
	run(p_ims, p_aes, p_cat, p_out_i, CITCAT_REPLAY_MODEL_INLINE, &i);
	CHECK_EQ(t.rc, CITCAT_ERR_DIVERGED);
	CHECK(t.res.div.check && strcmp(t.res.div.check, "bus trace") == 0);
	CHECK(t.res.div.have_regs);
	CHECK(m7 || t.res.div.have_data);
	CHECK(!t.out_exists);
	same(&t, &i, m7 ? "edited exception" : "edited fill");
	/* the producer was far ahead: the divergence is within the first
	 * ring's worth of events, the run much longer */
	if (!m7)
		CHECK(t.res.div.insn_index < good_insns / 2);

	/* 4. (2) with a Ctrl-C after the thread found the difference */
	progress = stop_after_thread_found;
	stop_base = model_pipe_redos;
	stop_raised = 0;
	struct outcome s;
	run(p_ims, p_aes, p_cat, p_out_t, CITCAT_REPLAY_MODEL_THREAD, &s);
	CHECK_EQ(model_pipe_redos, stop_base + 1);
	CHECK(stop_raised); /* the stop request was seen by the run made again */
	CHECK_EQ(s.rc, CITCAT_ERR_DIVERGED);
	same(&s, &i, "edited fill, stop request after the thread found it");
	stop_base = model_pipe_redos; /* inline: never raised */
	stop_raised = 0;
	run(p_ims, p_aes, p_cat, p_out_i, CITCAT_REPLAY_MODEL_INLINE, &s);
	CHECK(!stop_raised);
	same(&s, &i, "edited fill inline, with the progress callback");
	progress = NULL;

	/* 3. a byte flipped at 24 places */
	long size = fsize(cat);
	CHECK(size > 1000);
	FILE *f = fopen(cat, "rb");
	uint8_t *buf = malloc((size_t)size);
	CHECK(f && buf && fread(buf, 1, (size_t)size, f) == (size_t)size);
	if (f)
		fclose(f);
	for (int n = 0; n < 24 && buf; n++) {
		long pos = 5 + (size - 10) * n / 23;
		buf[pos] ^= 0x10;
		f = fopen(p_bad, "wb");
		CHECK(f && fwrite(buf, 1, (size_t)size, f) == (size_t)size);
		if (f)
			fclose(f);
		buf[pos] ^= 0x10;
		run(ims, aes, p_bad, p_out_t, CITCAT_REPLAY_MODEL_THREAD, &t);
		run(ims, aes, p_bad, p_out_i, CITCAT_REPLAY_MODEL_INLINE, &i);
		char what[64];
		snprintf(what, sizeof what, "byte %ld flipped", pos);
		CHECK(t.rc != 0);
		same(&t, &i, what);
	}
	free(buf);
	CHECK_DONE();
}
