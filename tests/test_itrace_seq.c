/* itrace_write_a32_seq (formats/itrace.h, session 11): runs of A32
 * instruction records without accesses handed over in one call give the
 * file that one citcat_itrace_write per record gives, byte for byte, over
 * many chunks (so across chunk boundaries, where the encoder state resets),
 * inline, with the container's compression thread and with the encoder
 * thread, also where the word table holds the same PC and word in Thumb
 * state; the records read back; a Cortex-M7 writer refuses an A32 record
 * either way; NULL is refused and N = 0 writes nothing. */
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
 * accesses, as the replayer's block engine retires a run) and its words
 * (from a small set, so the word table both hits and misses). */
static void run_at(int i, uint64_t *pc, uint32_t *len, uint32_t words[24], struct citcat_itrace_rec *last)
{
	rng = (uint32_t)i * 2654435761u + 1;
	uint32_t x = next_rand();
	*pc = x % 3 ? 0x1000 + (x >> 4) % 0x3000 * 4 : 0xfffffff0u + (uint64_t)(x % 8) * 4; /* also past 2^32 */
	*len = 1 + next_rand() % 24;
	for (uint32_t k = 0; k < *len; k++)
		words[k] = 0xe2800000u | (next_rand() % 5 ? (uint32_t)((*pc >> 2) + k) & 0xff : next_rand());
	memset(last, 0, sizeof *last);
	last->kind = CITCAT_REC_INSN;
	last->pc = *pc + 4 * (*len - 1);
	last->word = words[*len - 1];
	last->size = 4;
	last->n_acc = next_rand() % 3;
	for (uint32_t k = 0; k < last->n_acc; k++) {
		last->acc[k].addr = 0x40000 + next_rand() % 4096 * 4;
		last->acc[k].size = 4;
		last->acc[k].write = k & 1;
		last->acc[k].value = next_rand();
	}
}

/* Writes every run to PATH, the access-free records with one
 * itrace_write_a32_seq per run when SEQ, else one citcat_itrace_write each. */
static int write_file(const char *path, int seq)
{
	struct citcat_itrace_writer *w;
	static struct citcat_itrace_rec r, last;
	uint32_t words[24], len;
	uint64_t pc;
	int rc = citcat_itrace_writer_open(&w, path, CITCAT_ISA_ARM_A32);
	for (int i = 0; i < RUNS && !rc; i++) {
		run_at(i, &pc, &len, words, &last);
		if (i % 7 == 3) { /* the run's first word in Thumb state at its PC: the table entry's state differs */
			memset(&r, 0, sizeof r);
			r.kind = CITCAT_REC_INSN;
			r.pc = pc;
			r.word = words[0];
			r.size = 4;
			r.thumb = 1;
			rc = citcat_itrace_write(w, &r);
		}
		if (rc)
			break;
		if (seq) {
			rc = itrace_write_a32_seq(w, pc, words, len - 1);
		} else {
			for (uint32_t k = 0; k + 1 < len && !rc; k++) {
				memset(&r, 0, sizeof r);
				r.kind = CITCAT_REC_INSN;
				r.pc = pc + 4 * k;
				r.word = words[k];
				r.size = k % 2 ? 4 : 0; /* A32 writers may say 0 for 4 */
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
	uint32_t words[24], n;
	uint64_t pc;
	CHECK_EQ(citcat_itrace_reader_open(&rd, scratch_at("seq")), 0);
	int bad = 0;
	for (int i = 0; i < RUNS && !bad; i++) {
		run_at(i, &pc, &n, words, &last);
		if (i % 7 == 3)
			bad = citcat_itrace_next(rd, &got) != 1 || got.pc != pc || got.word != words[0] || !got.thumb;
		for (uint32_t j = 0; j + 1 < n && !bad; j++)
			bad = citcat_itrace_next(rd, &got) != 1 || got.kind != CITCAT_REC_INSN || got.pc != pc + 4 * j ||
			      got.word != words[j] || got.size != 4 || got.thumb || got.n_acc;
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
