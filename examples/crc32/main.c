/*
 * crc32 - CRC-32 (IEEE 802.3) over DMA-delivered input.
 *
 * Exercises: DMA transfers into a double buffer while the CPU computes (the
 * engine snoops and invalidates lines the CPU has cached), the DMA-done
 * interrupt, WFI used as "wait for event" with IRQs masked, D-cache fills of
 * the 1 KiB table, uncached device reads and writes.
 *
 * Self-check: the table-driven and the bitwise CRC of the same stream must
 * agree, and the table-driven CRC of "123456789" must be 0xCBF43926 (the
 * standard check value).  The input (--dma-in FILE or the seeded generator)
 * is not assumed to have any particular content; a file shorter than the
 * requested length ends the stream early.
 *
 * Build with -DSCALE=n for n times the input (default 1: 32 KiB, about 2.5
 * million instructions).
 */
#include <stdint.h>
#include <stdio.h>

#include "citcat_target.h"

#ifndef SCALE
#define SCALE 1
#endif

#define CHUNK 4096u
#define TOTAL (32768u * (SCALE))

static uint8_t buf[2][CHUNK] __attribute__((aligned(32)));
static uint32_t table[256];
static volatile int dma_done;

void citcat_irq_dma_done(void) { dma_done = 1; }

static void make_table(void)
{
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++)
            c = (c & 1) ? (c >> 1) ^ 0xEDB88320u : c >> 1;
        table[i] = c;
    }
}

/* Running CRC state (pre-inverted), table-driven. */
static uint32_t crc_table_update(uint32_t crc, const uint8_t *p, uint32_t n)
{
    while (n--)
        crc = table[(crc ^ *p++) & 0xFFu] ^ (crc >> 8);
    return crc;
}

/* The same, one bit at a time, without the table. */
static uint32_t crc_bitwise_update(uint32_t crc, const uint8_t *p, uint32_t n)
{
    while (n--) {
        crc ^= *p++;
        for (int k = 0; k < 8; k++)
            crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
    }
    return crc;
}

/* Start a transfer into buf[b] that raises line 2 when done. */
static void dma_fill(int b, uint32_t len)
{
    dma_done = 0;
    citcat_dma_start(buf[b], len, 1);
}

/* Sleep until the DMA-done handler has run. */
static uint32_t dma_finish(void)
{
    citcat_irq_mask();
    while (!dma_done) {
        citcat_wfi();       /* wakes on the pending line even with I = 1 */
        citcat_irq_unmask(); /* the handler runs here */
        citcat_irq_mask();
    }
    citcat_irq_unmask();
    return citcat_dma_count();
}

int main(void)
{
    static const char check[] = "123456789";
    uint32_t crc_t = 0xFFFFFFFFu, crc_b = 0xFFFFFFFFu, total = 0;
    int cur = 0, failed = 0;

    make_table();
    if ((crc_table_update(0xFFFFFFFFu, (const uint8_t *)check, 9) ^ 0xFFFFFFFFu) != 0xCBF43926u) {
        printf("crc32: check value of \"123456789\" is wrong\n");
        failed = 1;
    }

    citcat_irq_enable_line(CITCAT_IRQ_DMA_DONE);
    citcat_irq_unmask();

    /* Double buffering: while buf[cur] is checksummed the engine fills the
     * other buffer. */
    dma_fill(cur, CHUNK);
    uint32_t got = dma_finish();
    while (got > 0) {
        uint32_t want = TOTAL - total - got;
        int next = cur ^ 1;
        if (want > CHUNK)
            want = CHUNK;
        /* the next transfer only after a full one: a short one means the
         * input ended, and a restart would only complete again with COUNT 0
         * (capture/TARGET.md: restarting after the input has ended) */
        int more = want > 0 && got == CHUNK;
        if (more)
            dma_fill(next, want);
        crc_t = crc_table_update(crc_t, buf[cur], got);
        crc_b = crc_bitwise_update(crc_b, buf[cur], got);
        total += got;
        got = more ? dma_finish() : 0;
        cur = next;
    }
    citcat_irq_mask();
    citcat_irq_disable_line(CITCAT_IRQ_DMA_DONE);

    crc_t ^= 0xFFFFFFFFu;
    crc_b ^= 0xFFFFFFFFu;
    if (crc_t != crc_b) {
        printf("crc32: table 0x%08lx != bitwise 0x%08lx\n", (unsigned long)crc_t, (unsigned long)crc_b);
        failed = 1;
    }
    printf("crc32: %lu bytes crc=0x%08lx %s\n", (unsigned long)total, (unsigned long)crc_t,
           failed ? "FAIL" : "OK");
    return failed;
}
