/*
 * uartline - read text lines from UART RX, transform them, write them out.
 *
 * Input: --uart-in FILE (for example examples/data/uartline.txt).  Without
 * it (the RX input is exhausted at once, or nothing arrives for two
 * watchdog periods) a built-in default text is used, so the program also
 * runs with no options.
 *
 * Exercises: UART RX interrupts (one byte per interrupt at the default
 * --uart-rate), a ring buffer shared between the IRQ handler and main,
 * WFI as a race-free wait (checked with IRQs masked), a watchdog timer
 * interrupt, UART TX.
 *
 * For each line it prints "NNN|<ROT13 of the line>|<line reversed>".
 * Self-check: ROT13 applied twice and reversal applied twice give the line
 * back; the byte count of the lines plus their terminators equals the bytes
 * received; no byte was lost by the ring buffer.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "citcat_target.h"

#define RING 256u /* power of two */
#define MAXLINE 160u
#define WATCHDOG_CYCLES 200000u

static volatile uint8_t ring[RING];
static volatile uint32_t ring_head, ring_tail; /* head: written by the handler */
static volatile uint32_t received, overflow;
static volatile uint32_t quiet_periods;

static const char default_text[] =
    "The quick brown fox jumps over the lazy dog.\n"
    "CITCAT: constructing instruction traces from cache-filtered address traces.\n"
    "Hello, UART!\n"
    "\n"
    "0123456789 abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ\n"
    "last line without a newline";

/* Move every byte the UART holds into the ring.  Called by the RX handler
 * and, with IRQs masked, by rx_getc(): a byte that arrived before the RX
 * interrupt was enabled raised no interrupt and must be picked up here. */
static void rx_drain(void)
{
    while (citcat_uart_status() & CITCAT_UART_ST_RXAVAIL) {
        uint8_t c = (uint8_t)citcat_uart_getc_now();
        if (ring_head - ring_tail < RING)
            ring[ring_head++ % RING] = c;
        else
            overflow++;
        received++;
        quiet_periods = 0;
    }
}

void citcat_irq_uart_rx(void) { rx_drain(); }

void citcat_irq_timer(void) { quiet_periods++; }

/* Next input byte, or -1 at the end of the input. */
static int rx_getc(void)
{
    citcat_irq_mask();
    while (ring_tail == ring_head) {
        uint32_t st = citcat_uart_status();
        if (st & CITCAT_UART_ST_RXAVAIL) {
            rx_drain();
            continue;
        }
        if ((st & CITCAT_UART_ST_RXEND) || quiet_periods >= 2) {
            citcat_irq_unmask();
            return -1;
        }
        citcat_wfi();        /* RX byte or watchdog tick: wakes even with I = 1 */
        citcat_irq_unmask(); /* let the handler run */
        citcat_irq_mask();
    }
    int c = ring[ring_tail++ % RING];
    citcat_irq_unmask();
    return c;
}

static const char *src_text;
static uint32_t src_pos;

static int next_char(void)
{
    if (src_text)
        return src_text[src_pos] ? (unsigned char)src_text[src_pos++] : -1;
    return rx_getc();
}

static void rot13(char *dst, const char *src, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        char c = src[i];
        if (c >= 'a' && c <= 'z')
            c = (char)('a' + (c - 'a' + 13) % 26);
        else if (c >= 'A' && c <= 'Z')
            c = (char)('A' + (c - 'A' + 13) % 26);
        dst[i] = c;
    }
}

static void reverse(char *dst, const char *src, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        dst[i] = src[n - 1 - i];
}

int main(void)
{
    char line[MAXLINE + 1], a[MAXLINE + 1], b[MAXLINE + 1];
    uint32_t nlines = 0, nbytes = 0, len = 0;
    int failed = 0, c;

    citcat_irq_enable_line(CITCAT_IRQ_UART_RX);
    citcat_irq_enable_line(CITCAT_IRQ_TIMER);
    citcat_uart_rx_irq(1);
    citcat_timer_start(WATCHDOG_CYCLES);
    citcat_irq_unmask();

    /* Decide the source: the first byte, or the default text if none. */
    c = rx_getc();
    if (c < 0) {
        src_text = default_text;
        c = next_char();
    }
    for (; c >= 0 || len > 0; c = next_char()) {
        nbytes += c >= 0;
        if (c >= 0 && c != '\n' && c != '\r' && len < MAXLINE) {
            line[len++] = (char)c;
            continue;
        }
        if (c == '\r') /* CR LF or lone CR: the line ends at LF/next char */
            continue;
        line[len] = 0;
        rot13(a, line, len);
        reverse(b, line, len);
        a[len] = b[len] = 0;
        printf("%03lu|%s|%s\n", (unsigned long)++nlines, a, b);
        /* self-check: both transforms are involutions */
        char back[MAXLINE + 1];
        rot13(back, a, len);
        if (memcmp(back, line, len) != 0)
            failed = 1;
        reverse(back, b, len);
        if (memcmp(back, line, len) != 0)
            failed = 1;
        if (c >= 0 && c != '\n')
            line[0] = (char)c, len = 1; /* overlong line split: the char that did not fit */
        else
            len = 0;
        if (c < 0)
            break;
    }

    citcat_irq_mask();
    citcat_timer_stop();
    citcat_uart_rx_irq(0);
    if (!src_text && (overflow || nbytes != received)) {
        printf("uartline: received %lu bytes, consumed %lu, %lu lost\n", (unsigned long)received,
               (unsigned long)nbytes, (unsigned long)overflow);
        failed = 1;
    }
    if (src_text && nbytes != strlen(default_text)) {
        printf("uartline: consumed %lu of %lu default bytes\n", (unsigned long)nbytes,
               (unsigned long)strlen(default_text));
        failed = 1;
    }
    printf("uartline: %lu lines, %lu bytes from %s %s\n", (unsigned long)nlines, (unsigned long)nbytes,
           src_text ? "the default text" : "UART RX", failed ? "FAIL" : "OK");
    return failed;
}
