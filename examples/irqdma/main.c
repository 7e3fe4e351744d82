/*
 * irqdma - compute kernels under a fast periodic timer interrupt and a DMA
 * stream restarted from its completion interrupt: the shape of a user's
 * firmware (issue 31's benchmark corpus), on ARM, Thumb-2 and the M7.
 *
 * The main loop runs a fixed set of kernels per iteration (a linked list
 * sorted, searched and reversed, a small integer matrix product, a
 * number-scanning state machine, CRC-16 over every result) and folds the
 * oldest DMA buffer the engine has delivered into a running sum.  The timer
 * handler runs every TICK cycles (and samples the cycle counter); the
 * DMA-done handler hands the filled buffer over and restarts the stream into
 * the next free buffer of a ring at once, so the engine streams whenever the
 * main loop keeps up.  With --dma-in FILE the input runs out: a short
 * completion stops the stream (citcat_dma_input_ended, capture/TARGET.md
 * "Restarting after the input has ended") and the kernels go on under the
 * timer alone.
 *
 * Self-check: the kernels of the first iterations, run again at the end with
 * interrupts masked, give the CRCs they gave under interrupts; every buffer
 * handed over was consumed exactly once; the bytes consumed are the bytes
 * the engine reported.
 *
 * -DITERS=n   main-loop iterations (default 80: about 3 M instructions)
 * -DTICK=c    timer period in cycles (default 3000)
 * -DCHUNK=b   DMA transfer length in bytes (default 512)
 */
#include <stdint.h>
#include <stdio.h>

#include "citcat_target.h"

#ifndef ITERS
#define ITERS 80u
#endif
#ifndef TICK
#define TICK 3000u
#endif
#ifndef CHUNK
#define CHUNK 512u
#endif
#define NBUF 4u
#define NNODES 48u
#define MDIM 10u
#define NCHECK 4u

/* ---- the DMA ring ---- */
static uint8_t ring[NBUF][CHUNK] __attribute__((aligned(32)));
static volatile uint32_t ring_len[NBUF]; /* bytes delivered into each buffer */
static volatile uint32_t head, tail;     /* filled: tail..head-1; the engine fills HEAD when busy */
static volatile int dma_busy, dma_ended, stopping;
static volatile uint32_t dma_bytes, dma_irqs;
static volatile uint32_t ticks, tick_cycles;

static void dma_next(void)
{
    if (!dma_ended && !stopping && head - tail < NBUF - 1u) { /* a free buffer besides the one consumed */
        dma_busy = 1;
        citcat_dma_start(ring[head % NBUF], CHUNK, 1);
    } else {
        dma_busy = 0;
    }
}

void citcat_irq_dma_done(void)
{
    uint32_t n = citcat_dma_count();
    dma_irqs++;
    dma_busy = 0;
    if (n) {
        ring_len[head % NBUF] = n;
        dma_bytes += n;
        head++;
    }
    if (n < CHUNK || citcat_dma_input_ended())
        dma_ended = 1;
    dma_next();
}

void citcat_irq_timer(void)
{
    ticks++;
    tick_cycles ^= citcat_cycles32();
}

/* ---- the kernels ---- */
struct node {
    struct node *next;
    int32_t key;
    uint32_t val;
};
static struct node nodes[NNODES];

static uint16_t crc16(uint16_t crc, uint32_t v)
{
    for (int i = 0; i < 32; i++) {
        uint16_t bit = (uint16_t)((crc ^ v) & 1u);
        crc >>= 1;
        v >>= 1;
        if (bit)
            crc ^= 0xA001u;
    }
    return crc;
}

static uint32_t lcg(uint32_t *s)
{
    *s = *s * 1103515245u + 12345u;
    return *s >> 8;
}

static uint16_t list_kernel(uint32_t seed, uint16_t crc)
{
    struct node *h = NULL;
    for (uint32_t i = 0; i < NNODES; i++) { /* insertion-sorted build */
        struct node *n = &nodes[i], **pp = &h;
        n->key = (int32_t)(lcg(&seed) & 0xffffu) - 0x8000;
        n->val = i;
        while (*pp && (*pp)->key < n->key)
            pp = &(*pp)->next;
        n->next = *pp;
        *pp = n;
    }
    for (uint32_t k = 0; k < 8; k++) { /* searches */
        int32_t want = (int32_t)(lcg(&seed) & 0xffffu) - 0x8000;
        uint32_t pos = 0;
        for (struct node *n = h; n && n->key < want; n = n->next)
            pos++;
        crc = crc16(crc, pos);
    }
    struct node *r = NULL; /* reversal */
    while (h) {
        struct node *nx = h->next;
        h->next = r;
        r = h;
        h = nx;
    }
    for (struct node *n = r; n; n = n->next)
        crc = crc16(crc, (uint32_t)n->key ^ n->val);
    return crc;
}

static int32_t ma[MDIM][MDIM], mb[MDIM][MDIM], mc[MDIM][MDIM];

static uint16_t matrix_kernel(uint32_t seed, uint16_t crc)
{
    for (uint32_t i = 0; i < MDIM; i++)
        for (uint32_t j = 0; j < MDIM; j++) {
            ma[i][j] = (int32_t)(lcg(&seed) & 0xff) - 128;
            mb[i][j] = (int32_t)(lcg(&seed) & 0xff) - 128;
        }
    for (uint32_t i = 0; i < MDIM; i++)
        for (uint32_t j = 0; j < MDIM; j++) {
            int32_t s = 0;
            for (uint32_t k = 0; k < MDIM; k++)
                s += ma[i][k] * mb[k][j];
            mc[i][j] = s;
        }
    uint32_t acc = 0;
    for (uint32_t i = 0; i < MDIM; i++)
        acc += (uint32_t)mc[i][i] ^ (uint32_t)mc[i][MDIM - 1 - i];
    return crc16(crc, acc);
}

/* Classifies the numbers of a generated text: integers, decimals, exponents,
 * invalid tokens (the state machine of a parser). */
static uint16_t state_kernel(uint32_t seed, uint16_t crc)
{
    static const char alphabet[] = "0123456789+-.eE, x";
    char text[160];
    for (uint32_t i = 0; i < sizeof text - 1; i++)
        text[i] = alphabet[lcg(&seed) % (sizeof alphabet - 1)];
    text[sizeof text - 1] = 0;
    uint32_t count[5] = {0, 0, 0, 0, 0};
    int st = 0; /* 0 start, 1 sign, 2 int, 3 dot, 4 frac, 5 exp, 6 expsign, 7 expint, 8 bad */
    for (const char *p = text;; p++) {
        char c = *p;
        if (c == ',' || c == ' ' || c == 0) {
            count[st == 2 ? 0 : st == 4 ? 1 : st == 7 ? 2 : st == 0 ? 4 : 3]++;
            st = 0;
            if (!c)
                break;
            continue;
        }
        int digit = c >= '0' && c <= '9';
        switch (st) {
        case 0: st = digit ? 2 : (c == '+' || c == '-') ? 1 : c == '.' ? 3 : 8; break;
        case 1: st = digit ? 2 : c == '.' ? 3 : 8; break;
        case 2: st = digit ? 2 : c == '.' ? 4 : (c == 'e' || c == 'E') ? 5 : 8; break;
        case 3: st = digit ? 4 : 8; break;
        case 4: st = digit ? 4 : (c == 'e' || c == 'E') ? 5 : 8; break;
        case 5: st = digit ? 7 : (c == '+' || c == '-') ? 6 : 8; break;
        case 6: st = digit ? 7 : 8; break;
        case 7: st = digit ? 7 : 8; break;
        default: break;
        }
    }
    for (int i = 0; i < 5; i++)
        crc = crc16(crc, count[i]);
    return crc;
}

static uint16_t kernels(uint32_t it)
{
    uint16_t crc = 0xffffu;
    crc = list_kernel(it * 2654435761u + 1u, crc);
    crc = matrix_kernel(it * 40503u + 7u, crc);
    crc = state_kernel(it * 69069u + 3u, crc);
    return crc;
}

/* ---- the DMA consumer ---- */
static uint32_t fl_a = 1, fl_b, fl_bytes;

/* Folds the oldest delivered buffer, if any, into the sum and frees it: one
 * buffer an iteration, so the stream runs at the kernels' pace. */
static void consume(void)
{
    if (tail == head)
        return;
    const uint8_t *p = ring[tail % NBUF];
    uint32_t n = ring_len[tail % NBUF];
    for (uint32_t i = 0; i < n; i++) {
        fl_a += p[i];
        fl_b += fl_a;
    }
    fl_bytes += n;
    citcat_irq_mask();
    tail++;
    if (!dma_busy) /* the stream stalled on a full ring: restart it */
        dma_next();
    citcat_irq_unmask();
}

int main(void)
{
    static uint16_t first[NCHECK];
    uint16_t all = 0;
    uint32_t consumed = 0;
    int failed = 0;

    citcat_irq_enable_line(CITCAT_IRQ_TIMER);
    citcat_irq_enable_line(CITCAT_IRQ_DMA_DONE);
    citcat_timer_start(TICK);
    citcat_irq_mask();
    dma_next();
    citcat_irq_unmask();

    for (uint32_t it = 0; it < ITERS; it++) {
        uint16_t c = kernels(it);
        if (it < NCHECK)
            first[it] = c;
        all = crc16(all, c);
        uint32_t before = tail;
        consume();
        consumed += tail - before;
    }
    citcat_irq_mask();
    citcat_timer_stop();
    stopping = 1;
    while (dma_busy) { /* the transfer in flight completes (its line is enabled) */
        citcat_wfi();
        citcat_irq_unmask();
        citcat_irq_mask();
    }
    citcat_irq_disable_line(CITCAT_IRQ_TIMER);
    citcat_irq_disable_line(CITCAT_IRQ_DMA_DONE);
    citcat_irq_unmask();
    while (tail != head) {
        uint32_t before = tail;
        consume();
        consumed += tail - before;
    }

    for (uint32_t it = 0; it < NCHECK && it < ITERS; it++)
        if (kernels(it) != first[it]) {
            printf("irqdma: kernels of iteration %lu differ under interrupts\n", (unsigned long)it);
            failed = 1;
        }
    if (consumed != head || fl_bytes != dma_bytes) {
        printf("irqdma: %lu buffers (%lu bytes) delivered, %lu (%lu bytes) consumed\n", (unsigned long)head,
               (unsigned long)dma_bytes, (unsigned long)consumed, (unsigned long)fl_bytes);
        failed = 1;
    }
    printf("irqdma: %lu iterations crc=0x%04x, %lu ticks, %lu DMA interrupts, %lu bytes sum=0x%08lx%s %s\n",
           (unsigned long)ITERS, all, (unsigned long)ticks, (unsigned long)dma_irqs, (unsigned long)dma_bytes,
           (unsigned long)(fl_b ^ (fl_a << 16)), dma_ended ? " (input ended)" : "", failed ? "FAIL" : "OK");
    return failed;
}
