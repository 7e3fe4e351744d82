/* The model thread (model_pipe.h, REPLAY.md "session 12: the model
 * thread", "session 13").  The slots are 8 bytes, {addr, info} (bus.h's
 * struct bus_log_ev); a value V takes a slot of its own, {V's low half, its
 * high half}:
 *
 *   IFETCH    {addr, kind}                                 one slot
 *   DATA      {addr, kind | size << 8}                     a load: one slot
 *             {addr, kind | size << 8 | 1 << 12}, {value}  a store: two
 *   UNCACHED  {addr, kind | size << 8 | write << 12}, {value}
 *   DMA       {addr, kind | len << 8}, {bcount}, {pc, 0}, the bytes (8 a slot)
 *   IRQ       {epc, kind | line << 8}, {bcount}
 *   EXC       {pc, kind}, {bcount}, {exception number}
 *
 * A load's value is not written: the model reads a load's address and size
 * only (bus_data_slow's value is a write-through store's).  A batch is
 * handed over whole (one lock), never an event at a time: session 11
 * measured that a per-record hand-over costs more than the work it moves
 * (REPLAY.md "The encoder thread, measured again"); and the consumer, once
 * it has emptied the ring and sleeps, is woken only when MP_WAKE batches
 * wait (or the last), not at each one. */
#include "model_pipe.h"
#include "citcat/base.h"
#include "container.h" /* cc_thread_start */

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

unsigned long model_pipe_redos;

/* batches waiting before the sleeping consumer is woken */
#define MP_WAKE (MODEL_PIPE_NBATCH / 2)

struct mp_batch {
	struct bus_log_ev ev[MODEL_PIPE_SLOTS];
	uint32_t n;
	int last;
};

struct model_pipe {
	struct bus *prod, *cons;
	struct mp_batch *b;
	pthread_mutex_t mu;
	pthread_cond_t cv_full, cv_free;
	uint64_t head, tail; /* batches handed over, batches finished (under MU) */
	int failed;          /* the consumer stopped (under MU) */
	int c_sleeps, p_sleeps; /* the consumer, the producer wait (under MU) */
	int cfail;           /* the same, the consumer's own copy */
	void (*stopped)(void *ctx);
	void *ctx;
	int told;
	pthread_t th;
};

static void mp_store(struct bus *b, uint32_t addr, unsigned size, uint64_t v)
{
	uint32_t off = addr - b->ram_base;
	for (unsigned k = 0; k < size; k++, v >>= 8)
		if (off + k < b->ram_size)
			b->ram[off + k] = (uint8_t)v;
}

/* the value slot E */
static inline uint64_t mp_value(const struct bus_log_ev *e) { return e->addr | (uint64_t)e->info << 32; }

static void mp_process(struct model_pipe *mp, const struct bus_log_ev *e, uint32_t n)
{
	struct bus *b = mp->cons;
	for (uint32_t i = 0; i < n && !mp->cfail;) {
		uint32_t info = e[i].info;
		switch (info & 0xff) {
		case BUS_EV_IFETCH:
			bus_ifetch_line(b, e[i].addr);
			i++;
			break;
		case BUS_EV_DATA: {
			unsigned size = (info >> 8) & 15;
			if (!(info & 1u << 12)) {
				bus_data(b, e[i].addr, size, 0, 0);
				i++;
				break;
			}
			uint64_t v = mp_value(&e[i + 1]);
			bus_data(b, e[i].addr, size, 1, v);
			mp_store(b, e[i].addr, size, v); /* Unicorn stores after the memory hook */
			i += 2;
			break;
		}
		case BUS_EV_UNCACHED:
			bus_uncached(b, e[i].addr, (info >> 8) & 15, (info >> 12) & 1, mp_value(&e[i + 1]));
			i += 2;
			break;
		case BUS_EV_DMA: {
			uint32_t len = info >> 8;
			bus_dma(b, e[i].addr, (const uint8_t *)&e[i + 3], len, mp_value(&e[i + 1]), e[i + 2].addr);
			i += 3 + (len + 7) / 8;
			break;
		}
		case BUS_EV_IRQ:
			bus_irq(b, info >> 8, e[i].addr, mp_value(&e[i + 1]));
			i += 2;
			break;
		case BUS_EV_EXC: {
			struct citcat_cat_event ev = {.kind = CITCAT_CAT_EXC, .value = mp_value(&e[i + 2]), .pc = e[i].addr,
						      .bcount = mp_value(&e[i + 1])};
			bus_marker(b, &ev);
			i += 3;
			break;
		}
		default: /* cannot happen: bus.c writes only the kinds above */
			mp->cfail = 1;
			break;
		}
	}
}

static void *mp_thread(void *arg)
{
	struct model_pipe *mp = arg;
	for (;;) {
		pthread_mutex_lock(&mp->mu);
		while (mp->tail == mp->head) {
			mp->c_sleeps = 1;
			pthread_cond_wait(&mp->cv_full, &mp->mu);
			mp->c_sleeps = 0;
		}
		pthread_mutex_unlock(&mp->mu);
		struct mp_batch *bt = &mp->b[mp->tail % MODEL_PIPE_NBATCH];
		if (!mp->cfail)
			mp_process(mp, bt->ev, bt->n);
		int last = bt->last;
		pthread_mutex_lock(&mp->mu);
		mp->tail++;
		mp->failed = mp->cfail;
		if (mp->p_sleeps)
			pthread_cond_signal(&mp->cv_free);
		pthread_mutex_unlock(&mp->mu);
		if (last)
			return NULL;
	}
}

/* Hands the current batch over (LAST: the final one) and, unless LAST,
 * waits for a free one.  Returns whether the consumer has stopped. */
static int mp_hand_over(struct model_pipe *mp, int last)
{
	struct bus *p = mp->prod;
	struct mp_batch *bt = &mp->b[mp->head % MODEL_PIPE_NBATCH];
	bt->n = (uint32_t)(p->log_pos - bt->ev);
	bt->last = last;
	pthread_mutex_lock(&mp->mu);
	mp->head++;
	/* a consumer busy with earlier batches goes on to this one itself */
	if (mp->c_sleeps && (last || mp->head - mp->tail >= MP_WAKE))
		pthread_cond_signal(&mp->cv_full);
	while (!last && mp->head - mp->tail >= MODEL_PIPE_NBATCH) {
		mp->p_sleeps = 1;
		pthread_cond_wait(&mp->cv_free, &mp->mu);
		mp->p_sleeps = 0;
	}
	int failed = mp->failed;
	pthread_mutex_unlock(&mp->mu);
	if (!last) {
		p->log_pos = mp->b[mp->head % MODEL_PIPE_NBATCH].ev;
		p->log_end = p->log_pos + MODEL_PIPE_SLOTS;
	}
	return failed;
}

static void mp_full(struct bus *p, unsigned need)
{
	struct model_pipe *mp = p->log_ctx;
	(void)need; /* a whole batch is free after the hand-over; NEED is far below it */
	if (mp->told) { /* the consumer has stopped: drop */
		p->log_pos = p->log_end - MODEL_PIPE_SLOTS;
		return;
	}
	if (mp_hand_over(mp, 0)) {
		mp->told = 1;
		mp->stopped(mp->ctx);
	}
}

int model_pipe_start(struct model_pipe **out, struct bus *prod, struct bus *cons, const int *halt,
		     void (*stopped)(void *ctx), void *ctx)
{
	*out = NULL;
	struct model_pipe *mp = calloc(1, sizeof *mp);
	if (!mp)
		return CITCAT_ERR_NOMEM;
	if (posix_memalign((void **)&mp->b, 64, MODEL_PIPE_NBATCH * sizeof *mp->b)) {
		free(mp);
		return CITCAT_ERR_NOMEM;
	}
	mp->prod = prod;
	mp->cons = cons;
	mp->stopped = stopped;
	mp->ctx = ctx;
	pthread_cond_init(&mp->cv_free, NULL);
	/* the thread blocks every signal: Ctrl-C reaches the replay's thread */
	if (cc_thread_start(&mp->th, &mp->mu, &mp->cv_full, mp_thread, mp)) {
		pthread_cond_destroy(&mp->cv_free);
		free(mp->b);
		free(mp);
		return CITCAT_ERR_UNSUPPORTED;
	}
	prod->log_pos = mp->b[0].ev;
	prod->log_end = prod->log_pos + MODEL_PIPE_SLOTS;
	prod->log_full = mp_full;
	prod->log_ctx = mp;
	prod->log_halt = halt;
	prod->mode = BUS_LOG;
	*out = mp;
	return 0;
}

void model_pipe_fail(struct model_pipe *mp) { mp->cfail = 1; }

int model_pipe_finish(struct model_pipe *mp)
{
	if (!mp)
		return 0;
	if (mp->told)
		mp->prod->log_pos = mp->prod->log_end - MODEL_PIPE_SLOTS; /* nothing to hand over */
	mp_hand_over(mp, 1);
	pthread_join(mp->th, NULL);
	int failed = mp->cfail;
	pthread_cond_destroy(&mp->cv_free);
	pthread_cond_destroy(&mp->cv_full);
	pthread_mutex_destroy(&mp->mu);
	free(mp->b);
	free(mp);
	return failed;
}
