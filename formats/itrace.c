/* itrace encoder and decoder: see ITRACE.md. */
#include "itrace.h"
#include "bytes.h"
#include "container.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAGIC "CITR\r\n\x1a\n"
#define WT_SIZE 4096
#define REC_MAX (1 + CC_UVAR_MAX + 1 + 4 + CC_UVAR_MAX + CITCAT_ITRACE_MAX_ACC * (1 + CC_UVAR_MAX + 8))
#define CHUNK (1u << 20)
/* STOP records (ITRACE.md): the abnormal stop reasons and fault kinds of
 * formats/cat.h (enum citcat_stop_reason, enum citcat_fault_kind) */
#define STOP_FIRST 3
#define STOP_FAULT 3
#define STOP_LAST 5
#define FAULT_KINDS 11 /* isa 1; isa 2 adds kind 11 (CAT.md) */

/* One entry per slot, so a lookup touches one cache line.  Every entry
 * starts empty (ITRACE.md): PC WT_EMPTY and an ISA code no instruction has,
 * so that no instruction's word is ever omitted against it. */
#define WT_EMPTY UINT64_MAX
#define WT_NO_ISA 0xff
struct wt_ent {
	uint64_t pc;
	uint32_t word;
	uint8_t isa; /* version 3 ISA code: 0 A32, 1 16-bit Thumb, 2 32-bit Thumb */
};
struct wtab {
	struct wt_ent e[WT_SIZE];
};

struct state {
	uint64_t next_pc, last_addr;
	struct wtab wt;
};

static void state_reset(struct state *s)
{
	s->next_pc = 0;
	s->last_addr = 0;
	for (unsigned i = 0; i < WT_SIZE; i++)
		s->wt.e[i] = (struct wt_ent){WT_EMPTY, 0, WT_NO_ISA};
}

struct enc_thread;
struct citcat_itrace_writer;
static void th_start(struct citcat_itrace_writer *w);
static inline void writer_reset(struct citcat_itrace_writer *w);

/* Metadata flags (ITRACE.md): bit 0, defined for isa 2 only: a STOP of
 * fault kind 11 carries the Cortex-M7 fault status. */
#define META_M7_FAULT 0x01

struct citcat_itrace_writer {
	struct cc_writer *cw;
	enum citcat_isa isa;
	struct citcat_m7_fault m7f; /* what a STOP of fault kind 11 records (isa 2) */
	struct state st;    /* the encoder's: on the encoder thread when there is one */
	struct citcat_errinfo err;
	struct enc_thread *th; /* the encoder thread, or NULL: records are encoded inline */
	uint8_t *bp;        /* the batch being filled (with TH) */
	size_t blen;
	/* The word table's epoch (itrace.h, itrace_write_blk): bumped at every
	 * state reset and whenever a table entry that held an instruction is
	 * replaced; unique to this writer (its top 24 bits are the writer's
	 * number), never 0. */
	uint64_t epoch;
};

/* The writer's state reset at a chunk start: a new table epoch. */
static inline void writer_reset(struct citcat_itrace_writer *w)
{
	state_reset(&w->st);
	w->epoch++;
}

struct citcat_itrace_reader {
	struct cc_reader *cr;
	enum citcat_isa isa;
	struct cc_cursor cur;
	struct state st;
	struct citcat_errinfo err;
	int want_dma;
	unsigned version; /* 2: every instruction is A32 (ITRACE.md, Version changes) */
	int stopped;      /* a STOP was read: it must be the last record */
	uint32_t segment; /* metadata bytes 1..3: the segment number + 1, or 0 */
	int m7f_field;    /* metadata flag bit 0: a STOP of fault kind 11 carries the M7 fault status */
	int has_m7f;      /* such a STOP was read: M7F holds its status */
	struct citcat_m7_fault m7f;
};

uint32_t itrace_reader_segment(const struct citcat_itrace_reader *r) { return r ? r->segment : 0; }

/* The word-table slot of PC: an A32 PC's slot is that of version 2; the
 * halfword between two words takes a slot 2048 away (ITRACE.md). */
static inline unsigned wt_index(uint64_t pc) { return (unsigned)((pc >> 2) ^ ((pc & 2) << 10)) & (WT_SIZE - 1); }

/* Encodes the N accesses at ACC at P (ITRACE.md, item 4); returns the end,
 * or NULL for an access size the format cannot hold. */
static uint8_t *put_accs(struct state *s, uint8_t *p, const struct citcat_access *acc, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		const struct citcat_access *a = &acc[i];
		unsigned sc = a->size == 1 ? 0 : a->size == 2 ? 1 : a->size == 4 ? 2 : a->size == 8 ? 3 : 4;
		if (sc == 4)
			return NULL;
		int seq = a->addr == s->last_addr;
		*p++ = (uint8_t)((a->write ? 0x80 : 0) | (sc << 5) | (seq ? 0x10 : 0) | (a->uncached ? 0x08 : 0));
		if (!seq)
			p += cc_put_uvar(p, cc_zigzag((int64_t)(a->addr - s->last_addr)));
		switch (sc) { /* little-endian, as ITRACE.md says */
		case 0: *p = (uint8_t)a->value; break;
		case 1: cc_put16(p, (uint16_t)a->value); break;
		case 2: cc_put32(p, (uint32_t)a->value); break;
		default: cc_put64(p, a->value); break;
		}
		p += a->size;
		s->last_addr = a->addr + a->size;
	}
	return p;
}

int citcat_itrace_writer_open(struct citcat_itrace_writer **out, const char *path, enum citcat_isa isa)
{
	return itrace_writer_open_segment(out, path, isa, 0);
}

int itrace_writer_open_segment(struct citcat_itrace_writer **out, const char *path, enum citcat_isa isa, uint32_t seg)
{
	if (!out)
		return CITCAT_ERR_INVAL;
	*out = NULL;
	if (isa != CITCAT_ISA_ARM_A32 && isa != CITCAT_ISA_ARMV7M)
		return CITCAT_ERR_INVAL;
	if (seg > 0xffffff) /* 24 bits: more than CC_SEGIDX_MAX segments */
		return CITCAT_ERR_INVAL;
	struct citcat_itrace_writer *w = calloc(1, sizeof *w);
	if (!w)
		return CITCAT_ERR_NOMEM;
	w->isa = isa;
	static atomic_uint_fast64_t writers;
	w->epoch = ((uint64_t)(atomic_fetch_add(&writers, 1) + 1) << 40) | 1;
	/* bytes 1..3: the segment number + 1, or 0 (ITRACE.md, Metadata); an
	 * isa 2 trace's STOP of fault kind 11 carries the fault status (flag bit 0) */
	uint8_t meta[8] = {(uint8_t)isa, (uint8_t)seg, (uint8_t)(seg >> 8), (uint8_t)(seg >> 16),
			   isa == CITCAT_ISA_ARMV7M ? META_M7_FAULT : 0, 0, 0, 0};
	int rc = cc_writer_open(&w->cw, path, MAGIC, CITCAT_ITRACE_VERSION, meta, sizeof meta, CHUNK);
	state_reset(&w->st);
	if (!rc && cc_writer_threads && itrace_encoder_thread)
		th_start(w);
	*out = w; /* holds the error: the caller aborts it (citcat/base.h) */
	if (rc)
		return citcat_errinfo_set(&w->err, rc, UINT64_MAX, "%s", cc_writer_open_error()->msg);
	return 0;
}

/* Whether W may take REC (citcat_itrace_write's CITCAT_ERR_INVAL cases),
 * checked on the caller's thread so that encoding cannot fail but by I/O. */
static int rec_valid(const struct citcat_itrace_writer *w, const struct citcat_itrace_rec *rec)
{
	if (rec->n_acc > CITCAT_ITRACE_MAX_ACC || rec->kind > CITCAT_REC_DMA || (rec->kind == CITCAT_REC_IRQ && rec->line > 63) ||
	    (rec->kind == CITCAT_REC_DMA && (rec->word == 0 || rec->word > CITCAT_ITRACE_MAX_DMA)))
		return 0;
	int m7 = w->isa == CITCAT_ISA_ARMV7M;
	/* entries carry accesses and an exception number (>= 2) on the M7 only;
	 * the M7 has no ARM state; fault kind 11 is the M7's (ITRACE.md) */
	if ((rec->kind == CITCAT_REC_IRQ && (m7 ? rec->line < 2 : rec->n_acc != 0)) ||
	    (m7 && rec->kind == CITCAT_REC_INSN && !rec->thumb) ||
	    (!m7 && rec->kind == CITCAT_REC_STOP && rec->word >= FAULT_KINDS))
		return 0;
	if (rec->kind == CITCAT_REC_INSN &&
	    (rec->thumb > 1 || (rec->thumb ? rec->size != 2 && rec->size != 4 : rec->size != 0 && rec->size != 4) ||
	     (rec->size == 2 && rec->word > 0xffff)))
		return 0;
	if (rec->kind == CITCAT_REC_STOP &&
	    (rec->line < STOP_FIRST || rec->line > STOP_LAST || rec->pc > UINT32_MAX ||
	     (rec->line == STOP_FAULT) != (rec->word != 0) || rec->word > 255 || (rec->line != STOP_FAULT && rec->fault_addr)))
		return 0;
	uint32_t n = rec->kind == CITCAT_REC_INSN || rec->kind == CITCAT_REC_IRQ ? rec->n_acc : 0;
	for (uint32_t i = 0; i < n; i++) {
		unsigned z = rec->acc[i].size;
		if (z != 1 && z != 2 && z != 4 && z != 8)
			return 0;
	}
	return 1;
}

/* Encodes REC, valid (rec_valid), into W's container (ITRACE.md). */
static int encode(struct citcat_itrace_writer *w, const struct citcat_itrace_rec *rec)
{
	int m7 = w->isa == CITCAT_ISA_ARMV7M;
	uint8_t *buf = cc_writer_reserve_fast(w->cw, REC_MAX);
	if (!buf)
		return cc_writer_error(w->cw)->code;
	struct state *s = &w->st;
	/* Each chunk decodes on its own: at a chunk start, reset as the decoder will. */
	if (w->cw->len == 0)
		writer_reset(w);
	uint8_t *p = buf;
	if (rec->kind == CITCAT_REC_IRQ) {
		*p++ = (uint8_t)(0x40 | rec->line);
		p += cc_put_uvar(p, rec->pc);
		if (m7) { /* the exception entry's accesses (ITRACE.md, isa 2) */
			p += cc_put_uvar(p, rec->n_acc);
			if (!(p = put_accs(s, p, rec->acc, rec->n_acc)))
				return CITCAT_ERR_INVAL;
		}
	} else if (rec->kind == CITCAT_REC_STOP) {
		*p++ = (uint8_t)(0xC0 | rec->line);
		p += cc_put_uvar(p, rec->pc);
		if (rec->line == STOP_FAULT) {
			*p++ = (uint8_t)rec->word;
			p += cc_put_uvar(p, rec->fault_addr);
			if (m7 && rec->word == FAULT_KINDS) { /* kind 11: the M7 fault status */
				p += cc_put_uvar(p, w->m7f.cfsr);
				p += cc_put_uvar(p, w->m7f.hfsr);
				if (w->m7f.cfsr & CITCAT_M7_CFSR_MMARVALID)
					p += cc_put_uvar(p, w->m7f.mmfar);
				if (w->m7f.cfsr & CITCAT_M7_CFSR_BFARVALID)
					p += cc_put_uvar(p, w->m7f.bfar);
			}
		}
	} else if (rec->kind == CITCAT_REC_DMA) {
		*p++ = 0x80;
		p += cc_put_uvar(p, rec->pc);
		p += cc_put_uvar(p, rec->word);
	} else {
		unsigned idx = wt_index(rec->pc), size = rec->size ? rec->size : 4;
		uint8_t isa = !rec->thumb ? 0 : size == 2 ? 1 : 2;
		int pc_expl = rec->pc != s->next_pc;
		struct wt_ent *te = &s->wt.e[idx];
		int w_expl = !(te->pc == rec->pc && te->word == rec->word && te->isa == isa);
		uint32_t n = rec->n_acc;
		*p++ = (uint8_t)((pc_expl << 5) | (w_expl << 4) | (n < 15 ? n : 15));
		if (pc_expl)
			p += cc_put_uvar(p, cc_zigzag((int64_t)(rec->pc - s->next_pc)));
		if (w_expl) {
			*p++ = isa;
			if (size == 2)
				cc_put16(p, (uint16_t)rec->word);
			else
				cc_put32(p, rec->word);
			p += size;
			w->epoch += te->pc != WT_EMPTY; /* an entry replaced */
			te->pc = rec->pc;
			te->word = rec->word;
			te->isa = isa;
		}
		if (n >= 15)
			p += cc_put_uvar(p, n - 15);
		if (!(p = put_accs(s, p, rec->acc, n)))
			return CITCAT_ERR_INVAL;
		s->next_pc = rec->pc + size;
	}
	cc_writer_commit_fast(w->cw, (size_t)(p - buf), 1);
	return 0;
}

int itrace_encoder_thread = 0;

/* ---- the encoder thread (issue 14) ----
 * With cc_writer_threads and itrace_encoder_thread set (off by default:
 * formats/itrace.h), citcat_itrace_write on the
 * caller's thread (Unicorn's, in capture and replay) only checks a record
 * and copies it, its fixed-size head and its accesses (RAW_HDR + n_acc x
 * 24 bytes), into a batch.  A full batch goes to the encoder thread through
 * a bounded queue: QLEN batches of BATCH bytes in all (1 MiB of raw
 * records), the caller waiting when every batch is taken.  The thread
 * encodes the records exactly as the inline path does and compresses and
 * writes the chunks itself (the container's own thread is stopped,
 * cc_writer_inline), so the file's bytes are those of the inline writer.
 * The thread's first error (an I/O error, with the file offset of the chunk
 * whose write failed) stays in the queue and reaches the caller at the next
 * hand-over, citcat_itrace_writer_bytes or close; an abort drops the queued
 * batches and the temporary file.  The thread blocks every signal, so
 * Ctrl-C and SIGTERM reach the caller's thread as before. */
#define BATCH (128u << 10)
#define QLEN 8
#define RAW_HDR offsetof(struct citcat_itrace_rec, acc)
#define KIND_CUT 0xff /* a batch entry that ends the chunk (citcat_itrace_writer_cut) */
_Static_assert(RAW_HDR % 8 == 0 && sizeof(struct citcat_access) % 8 == 0, "batch records stay 8-byte aligned");

struct enc_thread {
	pthread_t th;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	uint8_t *buf[QLEN];
	size_t len[QLEN];
	/* the filled batches are buf[head], buf[head + 1], ... (COUNT of them,
	 * mod QLEN, the oldest first; the thread works on buf[head] until it
	 * drops it from the count); the caller fills buf[(head + count) % QLEN] */
	unsigned head, count;
	int quit, drop;
	int waiting; /* the caller waits for the thread (a free batch, or idle) */
	struct citcat_errinfo err; /* the thread's first error */
	int err_errno;
};

/* Encodes the batch of N bytes at B (on the encoder thread); the first error into E. */
static void encode_batch(struct citcat_itrace_writer *w, const uint8_t *b, size_t n, struct citcat_errinfo *e, int *en)
{
	for (size_t off = 0; off < n;) {
		const struct citcat_itrace_rec *rec = (const void *)(b + off);
		int rc;
		if (rec->kind == KIND_CUT) {
			rc = cc_writer_flush(w->cw);
			off += RAW_HDR;
		} else {
			rc = encode(w, rec);
			off += RAW_HDR + (size_t)rec->n_acc * sizeof rec->acc[0];
		}
		if (rc) {
			*en = errno;
			*e = *cc_writer_error(w->cw);
			if (e->offset == UINT64_MAX)
				e->offset = cc_writer_bytes(w->cw); /* where the failed chunk write began */
			return;
		}
	}
}

static void *th_main(void *arg)
{
	struct citcat_itrace_writer *w = arg;
	struct enc_thread *t = w->th;
	pthread_mutex_lock(&t->mu);
	for (;;) {
		while (!t->count && !t->quit)
			pthread_cond_wait(&t->cv, &t->mu);
		if (t->drop || !t->count)
			break;
		const uint8_t *b = t->buf[t->head];
		size_t n = t->len[t->head];
		int failed = t->err.code != 0;
		pthread_mutex_unlock(&t->mu);
		struct citcat_errinfo e = {0};
		int en = 0;
		if (!failed)
			encode_batch(w, b, n, &e, &en);
		pthread_mutex_lock(&t->mu);
		if (e.code && !t->err.code) {
			t->err = e;
			t->err_errno = en;
		}
		t->head = (t->head + 1) % QLEN;
		t->count--;
		if (t->waiting)
			pthread_cond_broadcast(&t->cv);
	}
	pthread_mutex_unlock(&t->mu);
	return NULL;
}

/* Takes over the thread's error (called locked); returns W's. */
static int th_err(struct citcat_itrace_writer *w)
{
	struct enc_thread *t = w->th;
	if (t->err.code && !w->err.code) {
		w->err = t->err;
		errno = t->err_errno;
	}
	return w->err.code;
}

/* Queues the batch being filled and takes the next free one (waiting for
 * it); returns W's error. */
static int hand_over(struct citcat_itrace_writer *w)
{
	struct enc_thread *t = w->th;
	pthread_mutex_lock(&t->mu);
	t->len[(t->head + t->count) % QLEN] = w->blen;
	/* the thread sleeps only when the queue is empty; waking it once half
	 * the queue is full, not for every batch, saves most of the futex
	 * wake-ups and context switches */
	if (++t->count == QLEN / 2)
		pthread_cond_broadcast(&t->cv);
	t->waiting = 1;
	while (t->count == QLEN && !t->err.code)
		pthread_cond_wait(&t->cv, &t->mu);
	t->waiting = 0;
	if (!th_err(w))
		w->bp = t->buf[(t->head + t->count) % QLEN];
	pthread_mutex_unlock(&t->mu);
	w->blen = 0;
	return w->err.code;
}

/* Waits until the thread has written every batch handed over. */
static void th_idle(struct citcat_itrace_writer *w)
{
	struct enc_thread *t = w->th;
	pthread_mutex_lock(&t->mu);
	pthread_cond_broadcast(&t->cv); /* the thread waits for a half-full queue */
	t->waiting = 1;
	while (t->count && !t->err.code)
		pthread_cond_wait(&t->cv, &t->mu);
	t->waiting = 0;
	th_err(w);
	pthread_mutex_unlock(&t->mu);
}

static inline int enqueue(struct citcat_itrace_writer *w, const struct citcat_itrace_rec *rec)
{
	uint32_t na = rec->kind == KIND_CUT ? 0 : rec->n_acc;
	size_t n = RAW_HDR + (size_t)na * sizeof rec->acc[0];
	if (BATCH - w->blen < n && hand_over(w))
		return w->err.code;
	/* fixed-size copies: a variable-length memcpy of these few bytes
	 * becomes a `rep movs`, whose start-up cost was most of the copy */
	uint8_t *d = w->bp + w->blen;
	memcpy(d, rec, RAW_HDR);
	for (uint32_t i = 0; i < na; i++)
		memcpy(d + RAW_HDR + i * sizeof rec->acc[0], &rec->acc[i], sizeof rec->acc[0]);
	w->blen += n;
	return 0;
}

/* Ends the thread: after it has encoded every queued batch, or at once
 * dropping them (DROP).  Returns W's error. */
static int th_stop(struct citcat_itrace_writer *w, int drop)
{
	struct enc_thread *t = w->th;
	pthread_mutex_lock(&t->mu);
	t->quit = 1;
	t->drop |= drop;
	pthread_cond_broadcast(&t->cv);
	pthread_mutex_unlock(&t->mu);
	pthread_join(t->th, NULL);
	int rc = th_err(w);
	pthread_mutex_destroy(&t->mu);
	pthread_cond_destroy(&t->cv);
	for (unsigned i = 0; i < QLEN; i++)
		free(t->buf[i]);
	free(t);
	w->th = NULL;
	return rc;
}

/* Starts W's encoder thread; without one (no memory, no thread) W encodes inline. */
static void th_start(struct citcat_itrace_writer *w)
{
	struct enc_thread *t = calloc(1, sizeof *t);
	if (!t)
		return;
	for (unsigned i = 0; i < QLEN; i++)
		/* room for a whole struct past the end: the thread reads records in place */
		if (!(t->buf[i] = malloc(BATCH + sizeof(struct citcat_itrace_rec)))) {
			for (unsigned k = 0; k < i; k++)
				free(t->buf[k]);
			free(t);
			return;
		}
	w->th = t;
	if (cc_thread_start(&t->th, &t->mu, &t->cv, th_main, w)) {
		for (unsigned i = 0; i < QLEN; i++)
			free(t->buf[i]);
		free(t);
		w->th = NULL;
		return;
	}
	w->bp = t->buf[0];
	w->blen = 0;
	cc_writer_inline(w->cw); /* the encoder thread compresses and writes too */
}

/* REC's header as an A32 instruction at PC with WORD and no accesses (the
 * access array is left as it is: N_ACC is 0). */
static void rec_a32(struct citcat_itrace_rec *r, uint64_t pc, uint32_t word)
{
	r->kind = CITCAT_REC_INSN;
	r->line = 0;
	r->size = 4;
	r->thumb = 0;
	r->word = word;
	r->pc = pc;
	r->fault_addr = 0;
	r->n_acc = 0;
}

/* The access-size code of ITRACE.md (item 4) by size; 4 marks a size the
 * format cannot hold. */
static const uint8_t size_code[9] = {4, 0, 1, 4, 2, 4, 4, 4, 3};

/* The inline writer's path for an instruction record while the chunk has
 * room for the longest record (issue 14): checks and encodes REC in one
 * pass, its bytes exactly those of rec_valid + encode.  The decoder state
 * changes and the record is committed only at the end, so an invalid
 * record (CITCAT_ERR_INVAL) leaves the writer as it was.  Returns 1 when
 * the chunk lacks the room (or the writer has an error): the caller then
 * takes the general path. */
static inline __attribute__((always_inline)) int write_insn_fast(struct citcat_itrace_writer *w,
								 const struct citcat_itrace_rec *rec)
{
	struct cc_writer *cw = w->cw;
	if (cw->cap - cw->len < REC_MAX || cw->err.code)
		return 1;
	uint32_t n = rec->n_acc;
	unsigned size = rec->size, thumb = rec->thumb;
	if (n > CITCAT_ITRACE_MAX_ACC || thumb > 1)
		return CITCAT_ERR_INVAL;
	if (thumb) {
		if ((size != 2 && size != 4) || (size == 2 && rec->word > 0xffff))
			return CITCAT_ERR_INVAL;
	} else {
		if (w->isa == CITCAT_ISA_ARMV7M || (size != 0 && size != 4))
			return CITCAT_ERR_INVAL;
		size = 4;
	}
	struct state *s = &w->st;
	if (cw->len == 0) /* a chunk start: reset as the decoder will */
		writer_reset(w);
	uint64_t pc = rec->pc;
	uint8_t isa = !thumb ? 0 : size == 2 ? 1 : 2;
	struct wt_ent *te = &s->wt.e[wt_index(pc)];
	int pc_expl = pc != s->next_pc;
	int w_expl = !(te->pc == pc && te->word == rec->word && te->isa == isa);
	uint8_t *buf = cw->buf + cw->len, *p = buf;
	*p++ = (uint8_t)((pc_expl << 5) | (w_expl << 4) | (n < 15 ? n : 15));
	if (pc_expl)
		p += cc_put_uvar(p, cc_zigzag((int64_t)(pc - s->next_pc)));
	if (w_expl) {
		*p++ = isa;
		if (size == 2)
			cc_put16(p, (uint16_t)rec->word);
		else
			cc_put32(p, rec->word);
		p += size;
	}
	if (n >= 15)
		p += cc_put_uvar(p, n - 15);
	uint64_t last = s->last_addr;
	for (uint32_t i = 0; i < n; i++) {
		const struct citcat_access *a = &rec->acc[i];
		unsigned z = a->size, sc = z <= 8 ? size_code[z] : 4;
		if (sc == 4)
			return CITCAT_ERR_INVAL;
		int seq = a->addr == last;
		*p++ = (uint8_t)((a->write ? 0x80 : 0) | (sc << 5) | (seq ? 0x10 : 0) | (a->uncached ? 0x08 : 0));
		if (!seq)
			p += cc_put_uvar(p, cc_zigzag((int64_t)(a->addr - last)));
		/* all 8 bytes, little-endian; the next field overwrites those past
		 * SIZE (REC_MAX reserves 8 for every value) */
		cc_put64(p, a->value);
		p += z;
		last = a->addr + z;
	}
	s->last_addr = last;
	if (w_expl) {
		w->epoch += te->pc != WT_EMPTY; /* an entry replaced */
		te->pc = pc;
		te->word = rec->word;
		te->isa = isa;
	}
	s->next_pc = pc + size;
	cc_writer_commit_fast(cw, (size_t)(p - buf), 1);
	return 0;
}

/* write_insn_fast for an access-free record (PC, WORD, ISA code, SIZE
 * bytes), valid, while the chunk has room for the longest record.  Returns
 * whether the word was found in the table. */
static inline __attribute__((always_inline)) int put_plain(struct citcat_itrace_writer *w, uint64_t pc, uint32_t word,
							    uint8_t isa, unsigned size)
{
	struct cc_writer *cw = w->cw;
	struct state *s = &w->st;
	if (cw->len == 0) /* a chunk start: reset as the decoder will */
		writer_reset(w);
	struct wt_ent *te = &s->wt.e[wt_index(pc)];
	int pc_expl = pc != s->next_pc;
	int w_expl = !(te->pc == pc && te->word == word && te->isa == isa);
	uint8_t *buf = cw->buf + cw->len, *p = buf;
	*p++ = (uint8_t)((pc_expl << 5) | (w_expl << 4));
	if (pc_expl)
		p += cc_put_uvar(p, cc_zigzag((int64_t)(pc - s->next_pc)));
	if (w_expl) {
		*p++ = isa;
		if (size == 2)
			cc_put16(p, (uint16_t)word);
		else
			cc_put32(p, word);
		p += size;
		w->epoch += te->pc != WT_EMPTY; /* an entry replaced */
		te->pc = pc;
		te->word = word;
		te->isa = isa;
	}
	s->next_pc = pc + size;
	cc_writer_commit_fast(cw, (size_t)(p - buf), 1);
	return !w_expl;
}

/* Whether every instruction of B is in W's word table now, as a valid
 * record of W (a Thumb size 2 or 4, a 2-byte word below 0x10000; A32 only
 * on an A32 writer), with no state reset pending. */
static int blk_in_table(const struct citcat_itrace_writer *w, const struct itrace_blk *b)
{
	if (w->cw->len == 0 || (!b->size && w->isa != CITCAT_ISA_ARM_A32))
		return 0;
	uint64_t pc = b->pc;
	for (uint32_t i = 0; i < b->n; i++) {
		unsigned size = b->size ? b->size[i] : 4;
		uint8_t isa = !b->size ? 0 : size == 2 ? 1 : 2;
		if (b->size && ((size != 2 && size != 4) || (size == 2 && b->word[i] > 0xffff)))
			return 0;
		const struct wt_ent *te = &w->st.wt.e[wt_index(pc)];
		if (te->pc != pc || te->word != b->word[i] || te->isa != isa)
			return 0;
		pc += size;
	}
	return 1;
}

int itrace_write_blk(struct citcat_itrace_writer *w, const struct itrace_blk *b, uint64_t pc, uint32_t from, uint32_t n)
{
	if (!w || !b || (n && (!b->word || from > b->n || n > b->n - from)))
		return CITCAT_ERR_INVAL;
	struct cc_writer *cw = w->cw;
	struct state *s = &w->st;
	const uint32_t *words = b->word + from;
	const uint8_t *sizes = b->size ? b->size + from : NULL;
	uint64_t *memo = b->memo;
	int hits = 1; /* every record so far found its word in the table */
	for (uint32_t i = 0; i < n;) {
		uint32_t word = words[i];
		unsigned size = sizes ? sizes[i] : 4;
		/* write_insn_fast's conditions; else the general path, record by
		 * record (a full chunk, the encoder thread, an error, an A32
		 * record for the M7, an invalid Thumb size) */
		if (w->th || w->err.code || cw->cap - cw->len < REC_MAX || cw->err.code ||
		    (sizes ? (size != 2 && size != 4) || (size == 2 && word > 0xffff) : w->isa != CITCAT_ISA_ARM_A32)) {
			struct citcat_itrace_rec r;
			rec_a32(&r, pc, word);
			r.size = (uint8_t)size;
			r.thumb = sizes != NULL;
			int rc = citcat_itrace_write(w, &r);
			if (rc)
				return rc;
			hits = 0;
			pc += size;
			i++;
			continue;
		}
		if (memo && *memo == w->epoch && cw->len) {
			/* every word of the block is in the table (ITRACE.md):
			 * a record that does not follow the PC before is the byte
			 * 0x20 and the PC's difference, as put_plain writes it (a
			 * helper shared by the two, write_insn_fast and encode
			 * cost 0.03-0.25% more host instructions on every replay
			 * -> itrace measured: GCC allocated the registers of
			 * itrace_write_blk and citcat_itrace_write differently;
			 * stop 48) */
			if (pc != s->next_pc) {
				uint8_t *p = cw->buf + cw->len;
				p[0] = 0x20;
				size_t l = 1 + cc_put_uvar(p + 1, cc_zigzag((int64_t)(pc - s->next_pc)));
				cc_writer_commit_fast(cw, l, 1);
				pc += size;
				s->next_pc = pc;
				i++;
				continue;
			}
			/* and one that follows is the byte 0x00, as many as the
			 * chunk's room check lets through */
			size_t k = cw->cap - cw->len - REC_MAX + 1;
			if (k > n - i)
				k = n - i;
			memset(cw->buf + cw->len, 0, k);
			cc_writer_commit_fast(cw, k, (uint32_t)k);
			if (sizes)
				for (size_t j = 0; j < k; j++)
					pc += sizes[i + j];
			else
				pc += 4 * k;
			i += (uint32_t)k;
			s->next_pc = pc;
			continue;
		}
		hits &= put_plain(w, pc, word, !sizes ? 0 : size == 2 ? 1 : 2, size);
		pc += size;
		i++;
	}
	/* a run whose words were all found: the block may be whole in the
	 * table (a run that missed is not checked, so blocks that evict each
	 * other do not pay for the check on every run).  With the encoder
	 * thread the table and the epoch are that thread's: never read here
	 * (the general path above is taken first). */
	if (!w->th && memo && hits && n && *memo != w->epoch && blk_in_table(w, b))
		*memo = w->epoch;
	return 0;
}

int citcat_itrace_write(struct citcat_itrace_writer *w, const struct citcat_itrace_rec *rec)
{
	if (!w || !rec)
		return CITCAT_ERR_INVAL;
	if (rec->kind == CITCAT_REC_INSN && !w->th && !w->err.code) {
		int rc = write_insn_fast(w, rec);
		if (rc <= 0)
			return rc;
	}
	if (!rec_valid(w, rec))
		return CITCAT_ERR_INVAL;
	if (w->err.code)
		return w->err.code;
	if (w->th)
		return enqueue(w, rec);
	int rc = encode(w, rec);
	if (rc)
		w->err = *cc_writer_error(w->cw);
	return rc;
}

int citcat_itrace_writer_cut(struct citcat_itrace_writer *w)
{
	if (!w)
		return CITCAT_ERR_INVAL;
	if (w->err.code)
		return w->err.code;
	if (w->th) {
		struct citcat_itrace_rec cut = {.kind = KIND_CUT};
		return enqueue(w, &cut);
	}
	if (cc_writer_flush(w->cw))
		w->err = *cc_writer_error(w->cw);
	return w->err.code;
}

int citcat_itrace_writer_close(struct citcat_itrace_writer *w)
{
	if (!w)
		return CITCAT_ERR_INVAL;
	int rc = w->err.code;
	if (w->th) {
		if (!rc && w->blen)
			rc = hand_over(w);
		rc = th_stop(w, rc != 0) ? w->err.code : rc;
	}
	return cc_stream_writer_end(w, rc);
}

void citcat_itrace_writer_abort(struct citcat_itrace_writer *w)
{
	if (w && w->th)
		th_stop(w, 1);
	cc_stream_writer_abort(w);
}

const struct citcat_errinfo *citcat_itrace_writer_error(const struct citcat_itrace_writer *w)
{
	return w ? &w->err : NULL;
}
uint64_t citcat_itrace_writer_bytes(const struct citcat_itrace_writer *w)
{
	if (!w)
		return 0;
	if (w->th)
		th_idle((struct citcat_itrace_writer *)w); /* every batch handed over is written */
	return cc_writer_bytes(w->cw);
}

/* ---- reader ---- */

static int reader_init(void *obj)
{
	struct citcat_itrace_reader *r = obj;
	uint32_t ml;
	const uint8_t *m = cc_reader_meta(r->cr, &ml);
	if (ml < 8 || (m[0] != CITCAT_ISA_ARM_A32 && !(m[0] == CITCAT_ISA_ARMV7M && cc_reader_version(r->cr) >= 3))) {
		r->err.code = CITCAT_ERR_UNSUPPORTED;
		r->err.offset = 16;
		snprintf(r->err.msg, sizeof r->err.msg, "itrace metadata names an unknown ISA (%u)", ml ? m[0] : 0);
		return r->err.code;
	}
	if (cc_reader_version(r->cr) < 2) {
		/* Version 1 lacks the uncached flags and DMA records that exact
		 * Dinero output needs; reading it as version 2 would call every
		 * device access cacheable. */
		r->err.code = CITCAT_ERR_UNSUPPORTED;
		r->err.offset = 8;
		snprintf(r->err.msg, sizeof r->err.msg,
			 "itrace version %u is no longer read (version 2 adds uncached flags and DMA records): "
			 "regenerate it with this citcat's capture --oracle or replay -o",
			 cc_reader_version(r->cr));
		return r->err.code;
	}
	if (ml != 8) {
		r->err.code = CITCAT_ERR_CORRUPT;
		r->err.offset = 12;
		snprintf(r->err.msg, sizeof r->err.msg, "itrace metadata is %u bytes, expected 8", ml);
		return r->err.code;
	}
	for (unsigned i = 4; i < 8; i++)
		if (m[i] && !(i == 4 && m[i] == META_M7_FAULT && m[0] == CITCAT_ISA_ARMV7M)) {
			/* flags 4..7 (ITRACE.md): only bit 0 of byte 4 is defined,
			 * in isa 2 traces; bytes 1..3 hold the segment */
			r->err.code = CITCAT_ERR_CORRUPT;
			r->err.offset = 16 + i;
			snprintf(r->err.msg, sizeof r->err.msg, "itrace metadata: flags byte %u is 0x%02x, not 0", i, m[i]);
			return r->err.code;
		}
	r->segment = (uint32_t)m[1] | (uint32_t)m[2] << 8 | (uint32_t)m[3] << 16;
	r->isa = (enum citcat_isa)m[0];
	r->version = cc_reader_version(r->cr);
	r->m7f_field = (m[4] & META_M7_FAULT) != 0;
	return 0;
}

static const struct cc_stream_kind reader_kind = {MAGIC, CITCAT_ITRACE_VERSION, sizeof(struct citcat_itrace_reader), offsetof(struct citcat_itrace_reader, err),
							reader_init};

CC_STREAM_READER_FUNCS(citcat_itrace_reader, struct citcat_itrace_reader, &reader_kind)

enum citcat_isa citcat_itrace_isa(const struct citcat_itrace_reader *r) { return r ? r->isa : (enum citcat_isa)0; }

int citcat_itrace_m7_fault(const struct citcat_itrace_reader *r, struct citcat_m7_fault *f)
{
	if (!r || !f)
		return CITCAT_ERR_INVAL;
	if (!r->has_m7f) {
		memset(f, 0, sizeof *f);
		return 0;
	}
	*f = r->m7f;
	return 1;
}

int citcat_itrace_writer_m7_fault(struct citcat_itrace_writer *w, const struct citcat_m7_fault *f)
{
	if (!w || !f || w->isa != CITCAT_ISA_ARMV7M)
		return CITCAT_ERR_INVAL;
	w->m7f = *f;
	return 0;
}
const struct citcat_errinfo *citcat_itrace_reader_error(const struct citcat_itrace_reader *r)
{
	return r ? &r->err : NULL;
}

void citcat_itrace_reader_dma(struct citcat_itrace_reader *r, int want)
{
	if (r)
		r->want_dma = want != 0;
}

static int bad(struct citcat_itrace_reader *r, const uint8_t *at, const char *what)
{
	return cc_stream_bad(r->cr, &r->cur, &r->err, at, "itrace", what);
}

static int itrace_next1(struct citcat_itrace_reader *r, struct citcat_itrace_rec *rec);

int citcat_itrace_next(struct citcat_itrace_reader *r, struct citcat_itrace_rec *rec)
{
	if (!r || !rec)
		return CITCAT_ERR_INVAL;
	if (r->err.code)
		return r->err.code;
	for (;;) {
		int rc = itrace_next1(r, rec);
		if (rc != 1 || rec->kind != CITCAT_REC_DMA || r->want_dma)
			return rc;
	}
}

/* Decodes REC->n_acc accesses at *P into REC->acc (ITRACE.md, item 4). */
static int get_accs(struct citcat_itrace_reader *r, const uint8_t **pp, const uint8_t *end, const uint8_t *start,
		    struct citcat_itrace_rec *rec)
{
	struct state *s = &r->st;
	const uint8_t *p = *pp;
	uint64_t v;
	for (uint32_t i = 0; i < rec->n_acc; i++) {
		struct citcat_access *a = &rec->acc[i];
		if (p >= end)
			return bad(r, start, "access truncated");
		uint8_t ab = *p++;
		if (ab & 0x07)
			return bad(r, p - 1, "reserved access bits set");
		a->write = ab >> 7;
		a->uncached = (ab >> 3) & 1;
		a->size = (uint8_t)(1u << ((ab >> 5) & 3));
		if (ab & 0x10) {
			a->addr = s->last_addr;
		} else {
			if (cc_get_uvar(&p, end, &v))
				return bad(r, start, "access address truncated or oversized");
			a->addr = s->last_addr + (uint64_t)cc_unzigzag(v);
		}
		if ((size_t)(end - p) < a->size)
			return bad(r, start, "access value truncated");
		a->value = 0;
		for (unsigned b = 0; b < a->size; b++)
			a->value |= (uint64_t)p[b] << (8 * b);
		p += a->size;
		s->last_addr = a->addr + a->size;
	}
	*pp = p;
	return 0;
}

static int itrace_next1(struct citcat_itrace_reader *r, struct citcat_itrace_rec *rec)
{
	int rc = cc_stream_next(r->cr, &r->cur, &r->err);
	if (rc <= 0)
		return rc;
	if (rc == 2)
		state_reset(&r->st);
	struct state *s = &r->st;
	const uint8_t *p = r->cur.p, *end = r->cur.end, *start = p;
	if (r->stopped) /* nothing follows an abnormal end (ITRACE.md) */
		return bad(r, start, "a record after the STOP record, which must be the last");
	uint8_t h = *p++;
	uint64_t v;
	rec->size = 0;
	rec->thumb = 0;
	switch (h >> 6) {
	case 2:
		if (h != 0x80)
			return bad(r, start, "reserved bits set in a DMA record");
		rec->kind = CITCAT_REC_DMA;
		rec->line = 0;
		rec->n_acc = 0;
		rec->fault_addr = 0;
		if (cc_get_uvar(&p, end, &rec->pc) || rec->pc > UINT32_MAX)
			return bad(r, start, "DMA address truncated or above 32 bits");
		if (cc_get_uvar(&p, end, &v) || v == 0 || v > CITCAT_ITRACE_MAX_DMA)
			return bad(r, start, "DMA length truncated, 0 or above 4096");
		rec->word = (uint32_t)v;
		break;
	case 1:
		rec->kind = CITCAT_REC_IRQ;
		rec->line = h & 63;
		rec->n_acc = 0;
		rec->word = 0;
		rec->fault_addr = 0;
		if (cc_get_uvar(&p, end, &rec->pc))
			return bad(r, start, "interrupt record truncated or oversized EPC");
		if (r->isa == CITCAT_ISA_ARMV7M) { /* exception entry (ITRACE.md, isa 2) */
			if (rec->line < 2)
				return bad(r, start, "exception number 0 or 1 in an entry record");
			if (rec->pc > UINT32_MAX)
				return bad(r, start, "return address wider than 32 bits");
			if (cc_get_uvar(&p, end, &v) || v > CITCAT_ITRACE_MAX_ACC)
				return bad(r, start, "entry access count truncated or above 64");
			rec->n_acc = (uint32_t)v;
			if ((rc = get_accs(r, &p, end, start, rec)))
				return rc;
		}
		break;
	case 3:
		rec->kind = CITCAT_REC_STOP;
		rec->line = h & 63;
		rec->n_acc = 0;
		rec->word = 0;
		rec->fault_addr = 0;
		if (rec->line < STOP_FIRST || rec->line > STOP_LAST)
			return bad(r, start, "unknown stop reason");
		if (cc_get_uvar(&p, end, &rec->pc) || rec->pc > UINT32_MAX)
			return bad(r, start, "stop record truncated or PC wider than 32 bits");
		if (rec->line == STOP_FAULT) {
			if (p >= end)
				return bad(r, start, "stop record truncated");
			rec->word = *p++;
			if (rec->word == 0 || rec->word >= FAULT_KINDS + (r->isa == CITCAT_ISA_ARMV7M))
				return bad(r, start, "unknown fault kind");
			if (cc_get_uvar(&p, end, &v) || v > UINT32_MAX)
				return bad(r, start, "fault address truncated or wider than 32 bits");
			rec->fault_addr = (uint32_t)v;
			if (rec->word == FAULT_KINDS && r->m7f_field) { /* the M7 fault status */
				uint64_t f[4] = {0, 0, 0, 0};
				for (int k = 0; k < 4; k++) {
					if ((k == 2 && !(f[0] & CITCAT_M7_CFSR_MMARVALID)) ||
					    (k == 3 && !(f[0] & CITCAT_M7_CFSR_BFARVALID)))
						continue;
					if (cc_get_uvar(&p, end, &f[k]) || f[k] > UINT32_MAX)
						return bad(r, start, "M7 fault status truncated or wider than 32 bits");
				}
				r->m7f = (struct citcat_m7_fault){.exc = rec->fault_addr,
								  .cfsr = (uint32_t)f[0],
								  .hfsr = (uint32_t)f[1],
								  .mmfar = (uint32_t)f[2],
								  .bfar = (uint32_t)f[3]};
				r->has_m7f = 1;
			}
		}
		r->stopped = 1;
		break;
	case 0: {
		rec->kind = CITCAT_REC_INSN;
		rec->line = 0;
		if (h & 0x20) {
			if (cc_get_uvar(&p, end, &v))
				return bad(r, start, "instruction PC truncated or oversized");
			rec->pc = s->next_pc + (uint64_t)cc_unzigzag(v);
		} else {
			rec->pc = s->next_pc;
		}
		unsigned idx = r->version < 3 ? (unsigned)(rec->pc >> 2) & (WT_SIZE - 1) : wt_index(rec->pc);
		uint8_t isa = 0;
		if (h & 0x10) {
			if (r->version >= 3) {
				if (p >= end)
					return bad(r, start, "instruction ISA byte truncated");
				isa = *p++;
				if (isa > 2 || (isa == 0 && r->isa == CITCAT_ISA_ARMV7M))
					return bad(r, p - 1, isa ? "unknown instruction ISA code" : "A32 instruction in a Cortex-M7 trace");
			}
			unsigned size = isa == 1 ? 2 : 4;
			if ((size_t)(end - p) < size)
				return bad(r, start, "instruction word truncated");
			rec->word = size == 2 ? cc_get16(p) : cc_get32(p);
			p += size;
			s->wt.e[idx].pc = rec->pc;
			s->wt.e[idx].word = rec->word;
			s->wt.e[idx].isa = isa;
		} else {
			if (s->wt.e[idx].pc != rec->pc || s->wt.e[idx].isa == WT_NO_ISA) /* an empty slot holds no word */
				return bad(r, start, "instruction word omitted but not known for this PC");
			rec->word = s->wt.e[idx].word;
			isa = s->wt.e[idx].isa;
		}
		rec->size = isa == 1 ? 2 : 4;
		rec->thumb = isa != 0;
		uint64_t n = h & 15;
		if (n == 15) {
			if (cc_get_uvar(&p, end, &v) || v > CITCAT_ITRACE_MAX_ACC - 15)
				return bad(r, start, "access count truncated or above 64");
			n += v;
		}
		rec->n_acc = (uint32_t)n;
		if ((rc = get_accs(r, &p, end, start, rec)))
			return rc;
		s->next_pc = rec->pc + rec->size;
		break;
	}
	default:
		return bad(r, start, "reserved record kind");
	}
	r->cur.p = p;
	return 1;
}

int citcat_itrace_rec_equal(const struct citcat_itrace_rec *a, const struct citcat_itrace_rec *b)
{
	if (!a || !b)
		return 0;
	if (a->kind != b->kind || a->pc != b->pc)
		return 0;
	if (a->kind == CITCAT_REC_IRQ && a->line != b->line)
		return 0;
	if (a->kind == CITCAT_REC_STOP)
		return a->line == b->line && a->word == b->word && a->fault_addr == b->fault_addr;
	if (a->kind == CITCAT_REC_DMA)
		return a->word == b->word;
	if (a->kind == CITCAT_REC_IRQ ? a->n_acc != b->n_acc /* an M7 entry's accesses; none on the A target */
				       : (a->word != b->word || a->n_acc != b->n_acc || a->thumb != b->thumb ||
					  (a->size ? a->size : 4) != (b->size ? b->size : 4))) /* size 0: 4, as the writer takes it */
		return 0;
	for (uint32_t i = 0; i < a->n_acc; i++) {
		const struct citcat_access *x = &a->acc[i], *y = &b->acc[i];
		if (x->addr != y->addr || x->size != y->size || x->write != y->write || x->value != y->value ||
		    x->uncached != y->uncached)
			return 0;
	}
	return 1;
}

/* ---- citcat info's figures ---- */

int citcat_itrace_reader_info(struct citcat_itrace_reader *r, struct citcat_itrace_info *info,
			      int (*progress)(void *ctx, uint64_t done, uint64_t total), void *ctx)
{
	if (!r || !info || info->size < offsetof(struct citcat_itrace_info, m7_fault) + sizeof info->m7_fault)
		return CITCAT_ERR_INVAL;
	struct citcat_itrace_info f = {.size = info->size};
	struct citcat_itrace_rec rec;
	uint64_t last = 0;
	int rc;
	f.version = cc_reader_version(r->cr);
	f.isa = r->isa;
	citcat_itrace_reader_dma(r, 1);
	while ((rc = citcat_itrace_next(r, &rec)) == 1) {
		if (rec.kind == CITCAT_REC_IRQ) {
			f.irqs++;
			continue;
		}
		if (rec.kind == CITCAT_REC_STOP) { /* an abnormal end: the last record */
			f.stopped = 1;
			f.stop_reason = rec.line;
			f.stop_pc = rec.pc;
			f.fault_kind = rec.word;
			f.fault_addr = rec.fault_addr;
			f.has_m7_fault = citcat_itrace_m7_fault(r, &f.m7_fault) == 1;
			continue;
		}
		if (rec.kind == CITCAT_REC_DMA) {
			f.dma++;
			f.dma_bytes += rec.word;
			continue;
		}
		if (f.insns && rec.pc == last + 4)
			f.sequential++;
		last = rec.pc;
		f.insns++;
		for (uint32_t i = 0; i < rec.n_acc; i++) {
			rec.acc[i].write ? f.writes++ : f.reads++;
			f.uncached += rec.acc[i].uncached;
		}
		if ((f.insns & 0x3fff) == 0 && progress && progress(ctx, f.insns, 0))
			return citcat_errinfo_set(&r->err, CITCAT_ERR_INTERRUPTED, UINT64_MAX, "interrupted");
	}
	if (rc < 0)
		return rc;
	memcpy(info, &f, info->size < sizeof f ? info->size : sizeof f);
	return 0;
}
