/* itrace_write_a32_seq and itrace_write_t32_seq (formats/itrace.h,
 * session 11): runs of A32 and Thumb (2- and 4-byte) instruction records
 * without accesses handed over in one call give the
 * file that one citcat_itrace_write per record gives, byte for byte, over
 * many chunks (so across chunk boundaries, where the encoder state resets),
 * inline, with the container's compression thread and with the encoder
 * thread, also where the word table holds the same PC and word in the
 * other state; the records read back; a Cortex-M7 writer refuses an A32 record
 * either way and takes a Thumb one, and a bad Thumb size is refused; NULL
 * is refused and N = 0 writes nothing. */
#include "check.h"
#include "container.h"
#include "scratch_dir.h"
#include "itrace.h"

#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

enum { RUNS = 60000 };

static uint32_t rng = 12345;
static uint32_t next_rand(void)
{
	rng = rng * 1103515245u + 12345u;
	return rng >> 8;
}

/* Run I: its start PC, its length (1..24 records, the last one with 0..2
 * accesses, as the replayer's block engine retires a run), its state (odd
 * runs are Thumb, with 2- and 4-byte instructions), its records' PCs,
 * sizes and words (from a small set, so the word table both hits and
 * misses). */
struct run {
	uint64_t pc[24];
	uint32_t len, thumb, word[24];
	uint8_t size[24];
};
static void run_at(int i, struct run *u, struct citcat_itrace_rec *last)
{
	rng = (uint32_t)i * 2654435761u + 1;
	uint32_t x = next_rand();
	uint64_t pc = x % 3 ? 0x1000 + (x >> 4) % 0x3000 * 4 : 0xfffffff0u + (uint64_t)(x % 8) * 4; /* also past 2^32 */
	u->thumb = i & 1;
	u->len = 1 + next_rand() % 24;
	for (uint32_t k = 0; k < u->len; k++) {
		u->pc[k] = pc;
		u->size[k] = u->thumb && next_rand() % 2 ? 2 : 4;
		u->word[k] = 0xe2800000u | (next_rand() % 5 ? (uint32_t)((pc >> 2) + k) & 0xff : next_rand());
		if (u->size[k] == 2)
			u->word[k] &= 0xffff;
		pc += u->size[k];
	}
	memset(last, 0, sizeof *last);
	last->kind = CITCAT_REC_INSN;
	last->pc = u->pc[u->len - 1];
	last->word = u->word[u->len - 1];
	last->size = u->size[u->len - 1];
	last->thumb = (uint8_t)u->thumb;
	last->n_acc = next_rand() % 3;
	for (uint32_t k = 0; k < last->n_acc; k++) {
		last->acc[k].addr = 0x40000 + next_rand() % 4096 * 4;
		last->acc[k].size = 4;
		last->acc[k].write = k & 1;
		last->acc[k].value = next_rand();
	}
}

/* Writes every run to PATH, the access-free records with one
 * itrace_write_a32_seq or itrace_write_t32_seq per run when SEQ, else one
 * citcat_itrace_write each. */
static int write_file(const char *path, int seq)
{
	struct citcat_itrace_writer *w;
	static struct citcat_itrace_rec r, last;
	struct run u;
	int rc = citcat_itrace_writer_open(&w, path, CITCAT_ISA_ARM_A32);
	for (int i = 0; i < RUNS && !rc; i++) {
		run_at(i, &u, &last);
		if (i % 7 == 3) { /* the run's first word at its PC in the other state: the table entry's state differs */
			memset(&r, 0, sizeof r);
			r.kind = CITCAT_REC_INSN;
			r.pc = u.pc[0];
			r.word = u.word[0];
			r.size = 4;
			r.thumb = !u.thumb;
			rc = citcat_itrace_write(w, &r);
		}
		if (rc)
			break;
		if (seq) {
			rc = u.thumb ? itrace_write_t32_seq(w, u.pc[0], u.word, u.size, u.len - 1)
				     : itrace_write_a32_seq(w, u.pc[0], u.word, u.len - 1);
		} else {
			for (uint32_t k = 0; k + 1 < u.len && !rc; k++) {
				memset(&r, 0, sizeof r);
				r.kind = CITCAT_REC_INSN;
				r.pc = u.pc[k];
				r.word = u.word[k];
				r.thumb = (uint8_t)u.thumb;
				r.size = u.thumb || k % 2 ? u.size[k] : 0; /* A32 writers may say 0 for 4 */
				rc = citcat_itrace_write(w, &r);
			}
		}
		if (!rc)
			rc = citcat_itrace_write(w, &last);
		if (!rc && i % 29989 == 5)
			rc = citcat_itrace_writer_cut(w);
	}
	if (rc) {
		citcat_itrace_writer_abort(w);
		return rc;
	}
	return citcat_itrace_writer_close(w);
}

int main(void)
{
	CHECK(scratch_make("/tmp/citcat-itseq-XXXXXX"));
	CHECK_EQ(write_file(scratch_at("rec"), 0), 0);
	CHECK_EQ(write_file(scratch_at("seq"), 1), 0);
	CHECK(scratch_same_files(scratch_at("rec"), scratch_at("seq")));
	cc_writer_threads = 0; /* everything on this thread */
	CHECK_EQ(write_file(scratch_at("seq0"), 1), 0);
	CHECK(scratch_same_files(scratch_at("rec"), scratch_at("seq0")));
	cc_writer_threads = 1;
	itrace_encoder_thread = 1; /* the general path, record by record */
	CHECK_EQ(write_file(scratch_at("seqt"), 1), 0);
	itrace_encoder_thread = 0;
	CHECK(scratch_same_files(scratch_at("rec"), scratch_at("seqt")));

	/* several chunks, so the encoder state was reset in the middle of runs */
	struct cc_reader *cr;
	const uint8_t *data;
	size_t len;
	uint32_t nrec;
	int chunks = 0, full = 0, k;
	CHECK_EQ(cc_reader_open(&cr, scratch_at("seq"), "CITR\r\n\x1a\n", CITCAT_ITRACE_VERSION), 0);
	while ((k = cc_reader_next_chunk(cr, &data, &len, &nrec)) == 1) {
		chunks++;
		full += len > (1u << 20) - 4096; /* ended for want of room (REC_MAX), not at a cut */
	}
	CHECK_EQ(k, 0);
	CHECK(chunks >= 5); /* 3 cuts (one after the first runs) and full chunks */
	CHECK(full >= 2);
	cc_reader_close(cr);

	/* the records read back */
	struct citcat_itrace_reader *rd;
	static struct citcat_itrace_rec got, last;
	struct run u;
	CHECK_EQ(citcat_itrace_reader_open(&rd, scratch_at("seq")), 0);
	int bad = 0;
	for (int i = 0; i < RUNS && !bad; i++) {
		run_at(i, &u, &last);
		if (i % 7 == 3)
			bad = citcat_itrace_next(rd, &got) != 1 || got.pc != u.pc[0] || got.word != u.word[0] || got.thumb == u.thumb;
		for (uint32_t j = 0; j + 1 < u.len && !bad; j++)
			bad = citcat_itrace_next(rd, &got) != 1 || got.kind != CITCAT_REC_INSN || got.pc != u.pc[j] ||
			      got.word != u.word[j] || got.size != u.size[j] || got.thumb != u.thumb || got.n_acc;
		bad = bad || citcat_itrace_next(rd, &got) != 1 || !citcat_itrace_rec_equal(&got, &last);
	}
	CHECK(!bad);
	CHECK_EQ(citcat_itrace_next(rd, &got), 0);
	citcat_itrace_reader_close(rd);

	/* refused as citcat_itrace_write refuses: NULL, and A32 on the M7 */
	uint32_t wd = 0xe1a00000u;
	struct citcat_itrace_writer *w;
	CHECK_EQ(itrace_write_a32_seq(NULL, 0x1000, &wd, 1), CITCAT_ERR_INVAL);
	CHECK_EQ(citcat_itrace_writer_open(&w, scratch_at("m7"), CITCAT_ISA_ARMV7M), 0);
	CHECK_EQ(itrace_write_a32_seq(w, 0x1000, &wd, 1), CITCAT_ERR_INVAL);
	CHECK_EQ(itrace_write_a32_seq(w, 0x1000, NULL, 1), CITCAT_ERR_INVAL);
	uint8_t sz = 2;
	CHECK_EQ(itrace_write_t32_seq(NULL, 0x1000, &wd, &sz, 1), CITCAT_ERR_INVAL);
	CHECK_EQ(itrace_write_t32_seq(w, 0x1000, &wd, NULL, 1), CITCAT_ERR_INVAL);
	CHECK_EQ(itrace_write_t32_seq(w, 0x1000, &wd, &sz, 1), CITCAT_ERR_INVAL); /* 2 bytes, word > 0xffff */
	sz = 3;
	wd = 0xbf00;
	CHECK_EQ(itrace_write_t32_seq(w, 0x1000, &wd, &sz, 1), CITCAT_ERR_INVAL);
	sz = 2;
	CHECK_EQ(itrace_write_t32_seq(w, 0x1000, &wd, &sz, 1), 0); /* Thumb is the M7's state */
	citcat_itrace_writer_abort(w);
	CHECK_EQ(citcat_itrace_writer_open(&w, scratch_at("empty"), CITCAT_ISA_ARM_A32), 0);
	CHECK_EQ(itrace_write_a32_seq(w, 0x1000, NULL, 0), 0);
	CHECK_EQ(citcat_itrace_writer_close(w), 0);
	CHECK_EQ(citcat_itrace_reader_open(&rd, scratch_at("empty")), 0);
	CHECK_EQ(citcat_itrace_next(rd, &got), 0);
	citcat_itrace_reader_close(rd);
	remove(scratch_at("empty"));
	remove(scratch_at("rec"));
	remove(scratch_at("seq"));
	remove(scratch_at("seq0"));
	remove(scratch_at("seqt"));
	CHECK_EQ(scratch_entries(), 0);

	/* a write error inside a run (EFBIG past RLIMIT_FSIZE, the chunks
	 * written on this thread) is returned, and close leaves no file */
	struct rlimit old;
	cc_writer_threads = 0;
	CHECK_EQ(scratch_limit_fsize(1 << 20, &old), 0);
	int rc = write_file(scratch_at("big"), 1);
	setrlimit(RLIMIT_FSIZE, &old);
	cc_writer_threads = 1;
	CHECK_EQ(rc, CITCAT_ERR_IO);
	CHECK_EQ(scratch_entries(), 0);
	rmdir(scratch_dir);
	CHECK_DONE();
}
