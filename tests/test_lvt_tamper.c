/* Tampering with a real LVT is reported at the instruction that consumes the
 * damaged record.  The test captures a firmware with its LVT and ground
 * truth, maps every load record to the instruction that consumes it (by
 * walking the LVT in step with the ground truth's reads), then damages the
 * trace-port bit stream itself (inside the decompressed chunk, re-sealed in
 * a valid container, as if the bits had been corrupted at the trace port):
 *  - flips the header bit of an FA hit and of a traced value,
 *  - drops a traced value (its 2 header bits and value bits) from the stream;
 * and checks where the decoder reports it.
 * Usage: test_lvt_tamper FIRMWARE.elf WORKDIR [m7]  (m7: captured on the Cortex-M7) */
#include "capture.h"
#include "check.h"
#include "container.h"
#include "itrace.h"
#include "lvt.h"
#include "lvt_replay.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct loadrec {
	uint64_t chunk_off, bit, insn;
	uint8_t kind, size;
};

static struct loadrec *recs;
static size_t nrecs;

static void discard(void *ctx, uint8_t b) {}

/* Every load record of LVT with the index of the instruction consuming it. */
static int map_records(const char *lvt, const char *oracle)
{
	struct citcat_lvt_reader *r = NULL;
	struct citcat_itrace_reader *o = NULL;
	static struct citcat_itrace_rec rec;
	struct citcat_lvt_rec e;
	size_t cap = 0;
	uint64_t insn = 0;
	int rc = citcat_lvt_reader_open(&r, lvt) || citcat_itrace_reader_open(&o, oracle) || citcat_lvt_next(r, 0, &e) != 1;
	while (!rc && citcat_itrace_next(o, &rec) == 1) {
		/* a Cortex-M7 exception entry's record holds its vector read, made
		 * after the instruction retired last (the decoder's current one) */
		int entry = rec.kind != CITCAT_REC_INSN;
		if (entry && !rec.n_acc)
			continue;
		for (uint32_t i = 0; i < rec.n_acc && !rc; i++) {
			if (rec.acc[i].write)
				continue;
			int k;
			while ((k = citcat_lvt_peek(r)) > 0 && k != CITCAT_LVT_HIT && k != CITCAT_LVT_VALUE)
				if (citcat_lvt_next(r, 0, &e) != 1)
					k = -1;
			if (k <= 0 || citcat_lvt_next(r, rec.acc[i].size, &e) != 1) {
				rc = 1;
				break;
			}
			if (nrecs == cap) {
				cap = cap ? 2 * cap : 4096;
				recs = realloc(recs, cap * sizeof *recs);
			}
			struct loadrec *l = &recs[nrecs++];
			citcat_lvt_reader_pos(r, &l->chunk_off, &l->bit);
			l->insn = entry && insn ? insn - 1 : insn;
			l->kind = e.kind;
			l->size = rec.acc[i].size;
		}
		insn += !entry;
	}
	citcat_lvt_reader_close(r);
	citcat_itrace_reader_close(o);
	return rc;
}

/* Copies SRC to DST, flipping bit BIT of the chunk at CHUNK_OFF (DROP = 0)
 * or removing DROP bits from there (and one record from its count). */
static int tamper(const char *src, const char *dst, uint64_t chunk_off, uint64_t bit, unsigned drop)
{
	struct cc_reader *r = NULL;
	struct cc_writer *w = NULL;
	if (cc_reader_open(&r, src, "CLVT\r\n\x1a\n", CITCAT_LVT_VERSION))
		return cc_reader_close(r), -1;
	uint32_t ml;
	const uint8_t *m = cc_reader_meta(r, &ml);
	int rc = cc_writer_open(&w, dst, "CLVT\r\n\x1a\n", CITCAT_LVT_VERSION, m, ml, 0);
	const uint8_t *d;
	size_t len;
	uint32_t nrec;
	while (!rc && cc_reader_next_chunk(r, &d, &len, &nrec) == 1) {
		uint8_t *buf = calloc(1, len + 1);
		memcpy(buf, d, len);
		size_t out = len;
		if (cc_reader_chunk_offset(r) == chunk_off) {
			if (!drop) {
				buf[bit >> 3] ^= (uint8_t)(1u << (bit & 7));
			} else {
				uint64_t total = (uint64_t)len * 8;
				uint8_t *nb = calloc(1, len + 1);
				for (uint64_t i = 0, j = 0; i < total; i++) {
					if (i >= bit && i < bit + drop)
						continue;
					if ((buf[i >> 3] >> (i & 7)) & 1)
						nb[j >> 3] |= (uint8_t)(1u << (j & 7));
					j++;
				}
				free(buf);
				buf = nb;
				out = (size_t)((total - drop + 7) / 8);
				nrec--;
			}
		}
		uint8_t *p = cc_writer_reserve(w, out);
		if (!p)
			rc = -1;
		else {
			memcpy(p, buf, out);
			cc_writer_commit(w, out, nrec);
			rc = cc_writer_flush(w);
		}
		free(buf);
	}
	cc_reader_close(r);
	if (rc) {
		cc_writer_abort(w);
		return rc;
	}
	return cc_writer_close(w);
}

/* Decodes the tampered LVT; returns 1 when the damage was reported at
 * instruction WANT (a divergence there, or an input error naming it).  An
 * input error may also name PREV, the instruction of the load before: after
 * each load the replayer peeks at the next record to see whether an event
 * is due (replay/lvt_replay.c, fetch_event), so a header damaged into an
 * invalid record is found there. */
static int reported_at(const char *lvt, const char *elf, const char *oracle, uint64_t want, uint64_t prev,
		       const char *what)
{
	struct citcat_lvt_replay_config c;
	citcat_lvt_replay_config_default(&c);
	c.lvt_path = lvt;
	c.image_path = elf;
	c.oracle = oracle;
	struct citcat_replay_result res;
	struct citcat_errinfo err;
	int rc = citcat_lvt_replay_run(&c, &res, &err);
	char tag[40], tag_prev[40];
	snprintf(tag, sizeof tag, "#%llu ", (unsigned long long)want);
	snprintf(tag_prev, sizeof tag_prev, "#%llu ", (unsigned long long)prev);
	int ok;
	if (rc == CITCAT_ERR_DIVERGED) {
		ok = res.div.insn_index == want;
		fprintf(stderr, "%s%s: diverged (%s check) at #%llu, want #%llu: %s / %s\n", what, oracle ? " +oracle" : "",
			res.div.check, (unsigned long long)res.div.insn_index, (unsigned long long)want, res.div.expected,
			res.div.found);
	} else {
		strncat(err.msg, " ", sizeof err.msg - strlen(err.msg) - 1);
		ok = rc < 0 && (strstr(err.msg, tag) != NULL || strstr(err.msg, tag_prev) != NULL);
		fprintf(stderr, "%s%s: rc %d: %s (want #%llu)\n", what, oracle ? " +oracle" : "", rc, err.msg,
			(unsigned long long)want);
	}
	return ok;
}

int main(int argc, char **argv)
{
	if (argc != 3 && argc != 4) {
		fprintf(stderr, "usage: test_lvt_tamper FIRMWARE.elf WORKDIR [m7]\n");
		return 2;
	}
	const char *elf = argv[1];
	char lvt[512], orc[512], bad[512];
	mkdir(argv[2], 0777);
	snprintf(lvt, sizeof lvt, "%s/run.lvt", argv[2]);
	snprintf(orc, sizeof orc, "%s/run.itrace", argv[2]);
	snprintf(bad, sizeof bad, "%s/bad.lvt", argv[2]);
	struct citcat_capture_config c;
	citcat_capture_config_default(&c);
	c.target.seed = 1;
	if (argc > 3 && strcmp(argv[3], "m7") == 0)
		c.target.isa = CITCAT_TARGET_CORTEX_M7;
	c.uart_tx = discard;
	c.lvt_path = lvt;
	c.max_insns = 400000; /* enough for every kind of record; keeps the dozen decodes short */
	struct citcat_capture_result res;
	struct citcat_errinfo err;
	CHECK_EQ(citcat_capture_run(&c, elf, NULL, orc, &res, &err), 0);
	CHECK_EQ(map_records(lvt, orc), 0);
	CHECK(nrecs > 100);
	CHECK_EQ(nrecs, res.lvt.loads);
	/* the untouched LVT decodes */
	struct citcat_lvt_replay_config rc;
	citcat_lvt_replay_config_default(&rc);
	rc.lvt_path = lvt;
	rc.image_path = elf;
	rc.oracle = orc;
	struct citcat_replay_result rr;
	CHECK_EQ(citcat_lvt_replay_run(&rc, &rr, &err), 0);

	/* targets spread over the trace, at least NRECS / 64 records apart per kind */
	int flips_hit = 0, flips_val = 0, drops = 0;
	size_t gap = nrecs / 64, next_hit = nrecs / 10, next_val = nrecs / 10, next_drop = nrecs / 10 + gap / 2;
	for (size_t i = nrecs / 10; i < nrecs && (flips_hit < 3 || flips_val < 3 || drops < 5); i++) {
		const struct loadrec *l = &recs[i];
		/* the flip: header bit of an FA hit ('1' -> '0') or of a value ('01' -> '11') */
		int hitflip = l->kind == CITCAT_LVT_HIT && flips_hit < 3 && i >= next_hit;
		int valflip = l->kind == CITCAT_LVT_VALUE && flips_val < 3 && i >= next_val;
		if (hitflip || valflip) {
			CHECK_EQ(tamper(lvt, bad, l->chunk_off, l->bit, 0), 0);
			CHECK(reported_at(bad, elf, NULL, l->insn, recs[i - 1].insn,
					  hitflip ? "flipped FA-hit header" : "flipped value header"));
			hitflip ? (flips_hit++, next_hit = i + gap) : (flips_val++, next_val = i + gap);
		} else if (l->kind == CITCAT_LVT_VALUE && drops < 5 && i >= next_drop) {
			CHECK_EQ(tamper(lvt, bad, l->chunk_off, l->bit, 2 + 8u * l->size), 0);
			/* with the ground truth: at the consuming instruction */
			CHECK(reported_at(bad, elf, orc, l->insn, l->insn, "dropped value"));
			drops++;
			next_drop = i + gap;
		}
	}
	CHECK(flips_hit == 3 && flips_val == 3 && drops == 5);
	remove(bad);
	free(recs);
	CHECK_DONE();
}
