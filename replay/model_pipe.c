/* The model thread (model_pipe.h, REPLAY.md "session 12: the model
 * thread").  The slots' layout is bus.c's (BUS_LOG):
 *
 *   IFETCH    {addr, kind}                                one slot
 *   DATA      {addr, kind | size << 8 | write << 12, value}
 *   UNCACHED  {addr, kind | size << 8 | write << 12, value}
 *   DMA       {addr, kind | len << 8, bcount}, {pc, 0, 0}, the bytes
 *   IRQ       {epc, kind | line << 8, bcount}
 *   EXC       {pc, kind, bcount}, {0, 0, exception number}
 *
 * A batch is handed over whole (one lock, one signal), never an event at a
 * time: session 11 measured that a per-record hand-over costs more than the
 * work it moves (REPLAY.md "The encoder thread, measured again"). */
#include "model_pipe.h"
#include "citcat/base.h"
#include "container.h" /* cc_thread_start */

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

unsigned long model_pipe_redos;

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
			unsigned size = (info >> 8) & 15, w = (info >> 12) & 1;
			bus_data(b, e[i].addr, size, (int)w, e[i].value);
			if (w) /* Unicorn stores after the memory hook */
				mp_store(b, e[i].addr, size, e[i].value);
			i++;
			break;
		}
		case BUS_EV_UNCACHED:
			bus_uncached(b, e[i].addr, (info >> 8) & 15, (info >> 12) & 1, e[i].value);
			i++;
			break;
		case BUS_EV_DMA: {
			uint32_t len = info >> 8;
			bus_dma(b, e[i].addr, (const uint8_t *)&e[i + 2], len, e[i].value, e[i + 1].addr);
			i += 2 + (len + 15) / 16;
			break;
		}
		case BUS_EV_IRQ:
			bus_irq(b, info >> 8, e[i].addr, e[i].value);
			i++;
			break;
		case BUS_EV_EXC: {
			struct citcat_cat_event ev = {.kind = CITCAT_CAT_EXC, .value = e[i + 1].value, .pc = e[i].addr,
						      .bcount = e[i].value};
			bus_marker(b, &ev);
			i += 2;
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
		while (mp->tail == mp->head)
			pthread_cond_wait(&mp->cv_full, &mp->mu);
		pthread_mutex_unlock(&mp->mu);
		struct mp_batch *bt = &mp->b[mp->tail % MODEL_PIPE_NBATCH];
		if (!mp->cfail)
			mp_process(mp, bt->ev, bt->n);
		int last = bt->last;
		pthread_mutex_lock(&mp->mu);
		mp->tail++;
		mp->failed = mp->cfail;
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
	pthread_cond_signal(&mp->cv_full);
	while (!last && mp->head - mp->tail >= MODEL_PIPE_NBATCH)
		pthread_cond_wait(&mp->cv_free, &mp->mu);
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
