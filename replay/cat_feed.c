/* The --verify CAT feed: cat_feed.h.
 *
 * The reader thread fills batches of decoded events (each FILL, WRITEBACK
 * and DMA's bytes copied into the batch, since the reader's buffer is
 * reused) in a ring of FEED_NBATCH; the replay takes them one by one and
 * hands a batch back when it moves on to the next.  One mutex and
 * condition variable guard the two counters; the signal goes only to a side
 * that waits.  The thread stops at the reader's end or first error (the
 * last item it publishes) and, for a segment, after the segment's end
 * marker until the replay asks for more (a segment's replay reads no further
 * unless the replay ran on past the end, and the rest of a long CAT is not
 * worth decoding for nothing). */
#include "cat_feed.h"
#include "container.h" /* cc_thread_start */
#include "ims.h"       /* citcat_trace_hash_event */

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

int cat_feed_thread = 1;

#define FEED_BATCH 512                /* events per batch */
#define FEED_ARENA (32u << 10)        /* event bytes per batch, before the last event's */
#define FEED_SLACK 4096u              /* the longest event data: a DMA (CAT.md; lines are at most 256) */
#define FEED_NBATCH 8

struct feed_item {
	struct citcat_cat_event ev;
	int rc;
	uint8_t synced, stopped;
};

struct feed_batch {
	uint32_t n;
	uint32_t used;
	struct feed_item item[FEED_BATCH];
	uint8_t arena[FEED_ARENA + FEED_SLACK];
};

/* The trace id's bookkeeping (what replay.c's cat_next did inline). */
struct feed_state {
	int64_t seg, markers;
	uint64_t base_insns, base_bcount;
	int synced, stopped;
	struct cat_feed_id id;
};

struct cat_feed {
	struct citcat_cat_reader *r;
	struct feed_state st;
	struct cat_feed_id id; /* the consumer's copy, taken at STOPPED */
	int id_final;
	int threaded;

	/* inline */
	struct feed_item one;
	int one_final; /* ONE holds the reader's end or error */

	/* the thread; HEAD and TAIL count batches published and handed back */
	pthread_t th;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct feed_batch *ring;
	uint64_t head, tail;
	int quit, more, pwait, cwait;
	int paused; /* the thread published the segment's end and waits for MORE */
	struct feed_batch *cur; /* the consumer's batch */
	uint32_t ci;
	struct feed_item last; /* the final item, handed out again at later calls */
	int have_last;
};

/* One event through the bookkeeping.  STOPPED set here makes ID final. */
static void feed_step(struct feed_state *s, struct citcat_cat_event *ev)
{
	if (s->seg >= 0 && (ev->kind == CITCAT_CAT_SYNC || ev->kind == CITCAT_CAT_CKPT)) {
		/* a segment's slice: from its start marker to the next one */
		int64_t k = s->markers++;
		if (k == s->seg) {
			s->synced = 1;
			s->id.start = ev->pc;
			s->base_insns = ev->kind == CITCAT_CAT_CKPT ? ev->insns : 0;
			s->base_bcount = ev->kind == CITCAT_CAT_CKPT ? ev->bcount : 0;
		} else if (k == s->seg + 1 && s->synced && !s->stopped) {
			s->id.hash = citcat_trace_hash_event(s->id.hash, ev);
			s->stopped = 1;
			s->id.insns = ev->insns - s->base_insns;
			s->id.bcount = ev->bcount - s->base_bcount;
			return;
		}
	} else if (ev->kind == CITCAT_CAT_SYNC && !s->synced && s->seg < 0) {
		s->synced = 1;
		s->id.start = ev->pc;
	}
	if (s->synced && !s->stopped) {
		s->id.hash = citcat_trace_hash_event(s->id.hash, ev);
		if (ev->kind == CITCAT_CAT_STOP) {
			s->stopped = 1;
			s->id.insns = ev->insns - s->base_insns;
			s->id.bcount = ev->bcount - s->base_bcount;
		}
	}
	/* hashed as recorded; compared as the segment's AES counts them */
	if (s->seg > 0 && (ev->kind == CITCAT_CAT_IRQ || ev->kind == CITCAT_CAT_EXC || ev->kind == CITCAT_CAT_DMA))
		ev->bcount -= s->base_bcount;
}

/* Reads one event into IT (its bytes where the reader keeps them). */
static void feed_read(struct cat_feed *f, struct feed_item *it)
{
	it->rc = citcat_cat_next(f->r, &it->ev);
	if (it->rc == 1)
		feed_step(&f->st, &it->ev);
	it->synced = (uint8_t)f->st.synced;
	it->stopped = (uint8_t)f->st.stopped;
}

static void *feed_main(void *arg)
{
	struct cat_feed *f = arg;
	int final = 0;
	while (!final) {
		pthread_mutex_lock(&f->mu);
		/* a full ring: wait until half of it is free (fewer wake-ups) */
		if (f->head - f->tail == FEED_NBATCH)
			while (!f->quit && f->head - f->tail > FEED_NBATCH / 2) {
				f->pwait = 1;
				pthread_cond_wait(&f->cv, &f->mu);
			}
		while (!f->quit && f->paused && !f->more) {
			f->pwait = 1;
			pthread_cond_wait(&f->cv, &f->mu);
		}
		f->pwait = 0;
		int quit = f->quit;
		pthread_mutex_unlock(&f->mu);
		if (quit)
			break;
		struct feed_batch *b = &f->ring[f->head % FEED_NBATCH];
		int pause = 0;
		b->n = 0;
		b->used = 0;
		while (b->n < FEED_BATCH && b->used <= FEED_ARENA) {
			struct feed_item *it = &b->item[b->n++];
			int was_stopped = f->st.stopped;
			feed_read(f, it);
			if (it->rc != 1) {
				final = 1;
				break;
			}
			if (it->ev.len && it->ev.data) {
				memcpy(b->arena + b->used, it->ev.data, it->ev.len);
				it->ev.data = b->arena + b->used;
				b->used += it->ev.len;
			}
			if (!was_stopped && f->st.stopped && f->st.seg >= 0) {
				pause = 1; /* the segment's end marker: wait until asked */
				break;
			}
		}
		pthread_mutex_lock(&f->mu);
		f->head++;
		if (pause)
			f->paused = 1;
		if (f->cwait)
			pthread_cond_signal(&f->cv);
		pthread_mutex_unlock(&f->mu);
	}
	return NULL;
}

int cat_feed_open(struct cat_feed **fp, struct citcat_cat_reader *r, int64_t seg)
{
	return cat_feed_open_ex(fp, r, seg, cat_feed_thread);
}

int cat_feed_open_ex(struct cat_feed **fp, struct citcat_cat_reader *r, int64_t seg, int thread)
{
	struct cat_feed *f = calloc(1, sizeof *f);
	*fp = f;
	if (!f) {
		citcat_cat_reader_close(r);
		return CITCAT_ERR_NOMEM;
	}
	f->r = r;
	f->st.seg = seg;
	/* a version 6 CAT opens at the segment's checkpoint, the chunks before
	 * it passed over unread (CAT.md) */
	if (seg > 0 && citcat_cat_reader_seek_segment(r, (uint64_t)seg) == 1)
		f->st.markers = seg;
	if (thread && (f->ring = malloc(FEED_NBATCH * sizeof *f->ring)) != NULL) {
		if (cc_thread_start(&f->th, &f->mu, &f->cv, feed_main, f) == 0)
			f->threaded = 1;
		else {
			free(f->ring);
			f->ring = NULL;
		}
	}
	return 0;
}

static const struct feed_item *feed_take(struct cat_feed *f)
{
	if (!f->threaded) {
		if (!f->one_final) {
			feed_read(f, &f->one);
			f->one_final = f->one.rc != 1;
		}
		return &f->one;
	}
	if (f->cur && f->ci < f->cur->n) {
		const struct feed_item *it = &f->cur->item[f->ci++];
		if (it->rc != 1) {
			f->last = *it;
			f->have_last = 1;
		}
		return it;
	}
	if (f->have_last)
		return &f->last;
	pthread_mutex_lock(&f->mu);
	if (f->cur) { /* hand the batch back */
		f->tail++;
		f->cur = NULL;
	}
	while (f->head == f->tail) {
		if (f->paused)
			f->more = 1; /* past the segment's end: read on */
		if (f->pwait) /* the ring is empty: whatever it waits for */
			pthread_cond_signal(&f->cv);
		f->cwait = 1;
		pthread_cond_wait(&f->cv, &f->mu);
	}
	f->cwait = 0;
	if (f->pwait && (f->head - f->tail <= FEED_NBATCH / 2 || f->more))
		pthread_cond_signal(&f->cv);
	f->cur = &f->ring[f->tail % FEED_NBATCH];
	pthread_mutex_unlock(&f->mu);
	f->ci = 0;
	return feed_take(f);
}

int cat_feed_next(struct cat_feed *f, const struct citcat_cat_event **ev, int *synced, int *stopped)
{
	const struct feed_item *it = feed_take(f);
	*ev = &it->ev;
	*synced = it->synced;
	if (it->stopped && !f->id_final) {
		f->id = f->st.id; /* final: the thread no longer changes it */
		f->id_final = 1;
	}
	*stopped = it->stopped;
	return it->rc;
}

const struct cat_feed_id *cat_feed_id(const struct cat_feed *f) { return &f->id; }
struct citcat_cat_reader *cat_feed_reader(const struct cat_feed *f) { return f->r; }

void cat_feed_close(struct cat_feed *f)
{
	if (!f)
		return;
	if (f->threaded) {
		pthread_mutex_lock(&f->mu);
		f->quit = 1;
		pthread_cond_broadcast(&f->cv);
		pthread_mutex_unlock(&f->mu);
		pthread_join(f->th, NULL);
		pthread_mutex_destroy(&f->mu);
		pthread_cond_destroy(&f->cv);
	}
	free(f->ring);
	citcat_cat_reader_close(f->r);
	free(f);
}
