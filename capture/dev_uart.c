/* UART (TARGET.md): TX to the capture's uart_tx callback, RX from
 * --uart-in one byte every --uart-rate cycles after the previous was read. */
#include "target_int.h"

#define R(reg) ((uint32_t)(CITCAT_UART_##reg - CITCAT_UART_BASE))

static int uart_read(struct target *t, uint32_t off, uint32_t *v)
{
	switch (off) {
	case R(DATA):
		if (!t->uart_rx_avail) {
			*v = 0;
			return 0;
		}
		t->uart_rx_avail = 0;
		t->uart_next = t->bus.cycle + t->cfg->target.uart_rate;
		*v = t->uart_rx_byte;
		return 0;
	case R(STATUS):
		*v = (uint32_t)t->uart_rx_avail | 2u | (t->uart_in && t->uart_rx_eof && !t->uart_rx_avail ? 4u : 0u) |
		     (!t->uart_in ? 4u : 0u);
		return 0;
	case R(CTRL): *v = t->uart_irq; return 0;
	}
	return -1;
}

static int uart_write(struct target *t, uint32_t off, uint32_t v)
{
	switch (off) {
	case R(DATA):
		if (t->cfg->uart_tx)
			t->cfg->uart_tx(t->cfg->uart_ctx, (uint8_t)v);
		return 0;
	case R(CTRL): t->uart_irq = v & 1; return 0;
	}
	return -1;
}

static uint64_t uart_next_event(const struct target *t)
{
	return t->uart_in && !t->uart_rx_avail && !t->uart_rx_eof ? t->uart_next : UINT64_MAX;
}

static void uart_arrive(struct target *t, uint64_t now, uint32_t pc)
{
	int ch = fgetc(t->uart_in);
	if (ch == EOF) {
		t->uart_rx_eof = 1;
		return;
	}
	t->uart_rx_byte = (uint8_t)ch;
	t->uart_rx_avail = 1;
	if (t->uart_irq)
		t->intc_pending |= 1u << CITCAT_IRQ_UART_RX;
}

/* line 1 when a byte arrives with the RX interrupt on */
static uint64_t uart_next_wakeup(const struct target *t)
{
	return (t->intc_enable & (1u << CITCAT_IRQ_UART_RX)) && t->uart_irq ? uart_next_event(t) : UINT64_MAX;
}

static int uart_writable(uint32_t off)
{
	return off == R(DATA) || off == R(CTRL);
}

/* the offsets uart_read serves (struct device's readable) */
static int uart_readable(uint32_t off)
{
	return off == R(DATA) || off == R(STATUS) || off == R(CTRL);
}

/* struct device's loud_reads: a read of DATA while a byte is waiting takes
 * it and brings the next one's arrival UART_RATE cycles on (uart_read) */
static uint64_t uart_loud_reads(const struct target *t, uint64_t *delay)
{
	*delay = t->cfg->target.uart_rate;
	return t->uart_rx_avail ? 1ull << (R(DATA) / 4) : 0;
}

const struct device dev_uart = {"uart", CITCAT_DEV_OFF(CITCAT_UART_BASE), 0x100, uart_read, uart_write, uart_next_event,
				uart_arrive, uart_next_wakeup, uart_writable, uart_readable, uart_loud_reads, 1ull << (R(DATA) / 4)};
