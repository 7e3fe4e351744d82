/* itrace_write_blk without a memo, as the session 11 calls
 * itrace_write_a32_seq and itrace_write_t32_seq (below) hand it over: runs of A32 and Thumb (2- and 4-byte) instruction records
 * without accesses handed over in one call give the
 * file that one citcat_itrace_write per record gives, byte for byte, over
 * many chunks (so across chunk boundaries, where the encoder state resets),
 * inline, with the container's compression thread and with the encoder
 * thread, also where the word table holds the same PC and word in the
 * other state; the records read back; a Cortex-M7 writer refuses an A32 record
 * either way and takes a Thumb one, and a bad Thumb size is refused; NULL
 * is refused and N = 0 writes nothing.
 *
 * itrace_write_blk (session 12): decoded blocks executed many times, in
 * runs, with the block's memo of the word table, give the file that one
 * citcat_itrace_write per record gives (and itrace_write_blk without
 * memos), also when a record at a PC that shares a block's table slot
 * replaces its entry between two runs of the block, when a chunk fills in
 * the middle of a run of 0x00 records (one hot block makes sure), after cuts (also between two
 * runs of one block execution, the next run then following the last PC), after a block's words
 * change (its owner zeroes the memo), in A32 and Thumb, and with two
 * writers taking turns on the same blocks and memos; the memos are taken. */
#include "check.h"
#include "container.h"
#include "scratch_dir.h"
#include "itrace.h"

#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

enum { RUNS = 60000 };

/* One run without a memo: N A32 records at PC, PC + 4, ... with the words
 * WORDS[0..N-1] (the session 11 writer call, now itrace_write_blk). */
static int itrace_write_a32_seq(struct citcat_itrace_writer *w, uint64_t pc, const uint32_t *words, uint32_t n)
{
	struct itrace_blk b = {pc, words, NULL, n, NULL};
	return itrace_write_blk(w, &b, pc, 0, n);
}

/* The same for N Thumb records: record I has WORDS[I] and SIZES[I] (2 or
 * 4) bytes, at PC plus the sizes before it; no sizes is refused here (the
 * writer would take the run as A32). */
static int itrace_write_t32_seq(struct citcat_itrace_writer *w, uint64_t pc, const uint32_t *words,
				const uint8_t *sizes, uint32_t n)
{
	if (n && !sizes)
		return CITCAT_ERR_INVAL;
	struct itrace_blk b = {pc, words, sizes, n, NULL};
	return itrace_write_blk(w, &b, pc, 0, n);
}

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

/* ---- itrace_write_blk with memos ---- */
enum { BLKS = 48, BLK_MAX = 40, EXECS = 100000 };
struct tblk {
	uint64_t pc;
	uint32_t n, word[BLK_MAX];
	uint8_t size[BLK_MAX], thumb;
	uint64_t memo; /* shared by both writers (write_blks) */
};
static struct tblk blks[BLKS];

static void blks_init(void)
{
	rng = 777;
	for (int i = 0; i < BLKS; i++) {
		struct tblk *b = &blks[i];
		memset(b, 0, sizeof *b);
		b->thumb = i % 3 == 2;
		/* blocks 0..7 at 0x8000 + 0x100 i; 8..15 at the same table
		 * slots 16 KiB higher (A32: (pc >> 2) & 4095), so they evict
		 * each other's entries */
		b->pc = i < 16 ? 0x8000 + (uint64_t)(i % 8) * 0x100 + (i >= 8 ? 0x4000 : 0) : 0x20000 + (uint64_t)i * 0x200;
		b->n = 2 + next_rand() % (BLK_MAX - 1);
		for (uint32_t k = 0; k < b->n; k++) {
			b->size[k] = b->thumb && next_rand() % 2 ? 2 : 4;
			b->word[k] = 0xe0800000u | (next_rand() & 0xfffff);
			if (b->size[k] == 2)
				b->word[k] &= 0xffff;
		}
	}
}

/* Writes EXECS block executions to PATH (to both PATH and PATH2 in turns,
 * when PATH2): each block execution in runs, the access-free records of a
 * run by MODE 0 one citcat_itrace_write each, 1 itrace_write_blk without a
 * memo, 2 with the block's memo; the run's last record, with 0..2
 * accesses, by citcat_itrace_write.  Now and then: a cut (between block executions or runs), a record at the
 * PC of one of a block's instructions plus 16 KiB (its table slot), a
 * changed word in a block.  Both writers use the blocks' memos.  *MEMOS counts the blocks whose memo was set at
 * a run's start. */
static int write_blks(const char *path, const char *path2, int mode, long *memos)
{
	struct citcat_itrace_writer *ws[2] = {NULL, NULL};
	int rc = citcat_itrace_writer_open(&ws[0], path, CITCAT_ISA_ARM_A32);
	if (!rc && path2)
		rc = citcat_itrace_writer_open(&ws[1], path2, CITCAT_ISA_ARM_A32);
	blks_init();
	rng = 4242;
	*memos = 0;
	static struct citcat_itrace_rec r;
	for (int e = 0; e < EXECS && !rc; e++) {
		struct citcat_itrace_writer *w = ws[path2 ? (e / 1000) % 2 : 0];
		uint32_t x = next_rand();
		struct tblk *b = &blks[x % 8 ? (x >> 3) % 16 : (x >> 3) % BLKS]; /* mostly the evicting ones */
		if (x % 5003 == 7) { /* the block's code changes: its owner zeroes the memo */
			uint32_t k = (x >> 4) % b->n;
			b->word[k] ^= 0x10;
			b->memo = 0;
		}
		if (x % 997 == 3) { /* a record sharing one of the block's table slots */
			memset(&r, 0, sizeof r);
			r.kind = CITCAT_REC_INSN;
			r.pc = b->pc + 0x4000 * (1 + (x >> 20) % 3);
			r.word = x;
			r.size = 4;
			if ((rc = citcat_itrace_write(w, &r)))
				break;
		}
		if (x % 30011 == 11 && (rc = citcat_itrace_writer_cut(w)))
			break;
		uint64_t pc = b->pc;
		for (uint32_t from = 0; from < b->n && !rc;) {
			uint32_t to = from + 1 + next_rand() % (b->n - from); /* the run from..to-1 */
			*memos += b->memo != 0;
			if (mode == 0) {
				for (uint32_t k = from; k + 1 < to && !rc; k++) {
					memset(&r, 0, sizeof r);
					r.kind = CITCAT_REC_INSN;
					r.pc = pc;
					r.word = b->word[k];
					r.size = b->size[k];
					r.thumb = b->thumb;
					rc = citcat_itrace_write(w, &r);
					pc += b->size[k];
				}
			} else {
				struct itrace_blk ib = {b->pc, b->word, b->thumb ? b->size : NULL, b->n, mode == 2 ? &b->memo : NULL};
				rc = itrace_write_blk(w, &ib, pc, from, to - 1 - from);
				for (uint32_t k = from; k + 1 < to; k++)
					pc += b->size[k];
			}
			memset(&r, 0, sizeof r);
			r.kind = CITCAT_REC_INSN;
			r.pc = pc;
			r.word = b->word[to - 1];
			r.size = b->size[to - 1];
			r.thumb = b->thumb;
			r.n_acc = next_rand() % 3;
			for (uint32_t k = 0; k < r.n_acc; k++) {
				r.acc[k].addr = 0x40000 + next_rand() % 64 * 4;
				r.acc[k].size = 4;
				r.acc[k].value = k;
			}
			if (!rc)
				rc = citcat_itrace_write(w, &r);
			pc += b->size[to - 1];
			from = to;
			if (!rc && next_rand() % 9973 == 1) /* a cut between two runs: the next one follows */
				rc = citcat_itrace_writer_cut(w);
		}
	}
	for (int i = 0; i < 2; i++)
		if (ws[i]) {
			if (rc)
				citcat_itrace_writer_abort(ws[i]);
			else
				rc = citcat_itrace_writer_close(ws[i]);
		}
	return rc;
}

static void test_blk_memo(void)
{
	long m0, m1, m2;
	CHECK_EQ(write_blks(scratch_at("b0"), NULL, 0, &m0), 0);
	CHECK_EQ(write_blks(scratch_at("b1"), NULL, 1, &m1), 0);
	CHECK_EQ(write_blks(scratch_at("b2"), NULL, 2, &m2), 0);
	CHECK(scratch_same_files(scratch_at("b0"), scratch_at("b1")));
	CHECK(scratch_same_files(scratch_at("b0"), scratch_at("b2")));
	CHECK_EQ(m0, 0);
	CHECK(m2 > EXECS); /* the memos were taken (about 2 runs an execution) */
	/* several chunks, most of them full */
	struct cc_reader *cr;
	const uint8_t *data;
	size_t len;
	uint32_t nrec;
	int chunks = 0, k;
	CHECK_EQ(cc_reader_open(&cr, scratch_at("b2"), "CITR\r\n\x1a\n", CITCAT_ITRACE_VERSION), 0);
	while ((k = cc_reader_next_chunk(cr, &data, &len, &nrec)) == 1)
		chunks++;
	CHECK_EQ(k, 0);
	CHECK(chunks >= 3);
	cc_reader_close(cr);
	/* two writers taking turns on the same blocks and memos: a memo one
	 * writer set never matches the other's epoch (itrace.c) */
	CHECK_EQ(write_blks(scratch_at("c0"), scratch_at("d0"), 0, &m0), 0);
	CHECK_EQ(write_blks(scratch_at("c2"), scratch_at("d2"), 2, &m2), 0);
	CHECK(scratch_same_files(scratch_at("c0"), scratch_at("c2")));
	CHECK(scratch_same_files(scratch_at("d0"), scratch_at("d2")));
	/* one hot 40-instruction block, one run an execution: nearly all of
	 * the file is runs of 0x00, so each chunk fills in the middle of one */
	for (int mode = 0; mode < 2; mode++) {
		struct citcat_itrace_writer *w;
		static struct citcat_itrace_rec r;
		uint32_t word[40];
		uint64_t memo = 0;
		for (uint32_t j = 0; j < 40; j++)
			word[j] = 0xe2811000u + j;
		struct itrace_blk ib = {0x8000, word, NULL, 40, &memo};
		CHECK_EQ(citcat_itrace_writer_open(&w, scratch_at(mode ? "h1" : "h0"), CITCAT_ISA_ARM_A32), 0);
		int rc = 0;
		for (int e = 0; e < 60000 && !rc; e++) {
			memset(&r, 0, sizeof r);
			r.kind = CITCAT_REC_INSN;
			r.size = 4;
			for (uint32_t j = 0; j < 39 && !mode && !rc; j++) {
				r.pc = 0x8000 + 4 * j;
				r.word = word[j];
				rc = citcat_itrace_write(w, &r);
			}
			if (mode)
				rc = itrace_write_blk(w, &ib, 0x8000, 0, 39);
			r.pc = 0x8000 + 4 * 39;
			r.word = word[39];
			if (!rc)
				rc = citcat_itrace_write(w, &r);
		}
		CHECK_EQ(rc, 0);
		CHECK_EQ(citcat_itrace_writer_close(w), 0);
		CHECK(!mode || memo != 0);
	}
	CHECK(scratch_same_files(scratch_at("h0"), scratch_at("h1")));
	const char *names[] = {"b0", "b1", "b2", "c0", "d0", "c2", "d2", "h0", "h1"};
	for (unsigned i = 0; i < sizeof names / sizeof names[0]; i++)
		remove(scratch_at(names[i]));
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

	test_blk_memo();
	cc_writer_threads = 0;
	test_blk_memo();
	cc_writer_threads = 1;
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
