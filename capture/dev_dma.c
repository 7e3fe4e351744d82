/* DMA engine (TARGET.md): bursts from --dma-in (or the seeded generator)
 * into RAM every --dma-interval cycles while busy; line 2 on completion. */
#include "target_int.h"

#include <string.h>

#define R(reg) ((uint32_t)(CITCAT_DMA_##reg - CITCAT_DMA_BASE))

static int dma_read(struct target *t, uint32_t off, uint32_t *v)
{
	switch (off) {
	case R(DST): *v = t->dma_dst; return 0;
	case R(LEN): *v = t->dma_len; return 0;
	case R(STATUS): *v = t->dma_status; return 0;
	case R(COUNT): *v = t->dma_count; return 0;
	}
	return -1;
}

static int dma_write(struct target *t, uint32_t off, uint32_t v)
{
	switch (off) {
	case R(DST): t->dma_dst = v; return 0;
	case R(LEN): t->dma_len = v; return 0;
	case R(CTRL):
		t->dma_irq = (v >> 1) & 1;
		if ((v & 1) && !(t->dma_status & 1)) {
			t->dma_count = 0;
			t->dma_status = t->dma_len ? 1 : 2;
			t->dma_next = t->bus.cycle + t->cfg->target.dma_interval;
			if (!t->dma_len && t->dma_irq)
				t->intc_pending |= 1u << CITCAT_IRQ_DMA_DONE;
		}
		return 0;
	}
	return -1;
}

static uint64_t dma_next_event(const struct target *t)
{
	return (t->dma_status & 1) ? t->dma_next : UINT64_MAX;
}

static void dma_burst(struct target *t, uint64_t now, uint32_t pc)
{
	const struct citcat_target_config *c = &t->cfg->target;
	uint32_t left = t->dma_len - t->dma_count, addr = t->dma_dst + t->dma_count;
	uint32_t to_line = c->dcache.line - (addr & (c->dcache.line - 1));
	uint32_t n = c->dma_burst < left ? c->dma_burst : left;
	if (n > to_line)
		n = to_line;
	uint8_t buf[256];
	if (t->dma_in) {
		n = (uint32_t)fread(buf, 1, n, t->dma_in);
	} else {
		for (uint32_t i = 0; i < n; i += 8) {
			uint64_t v = splitmix(&t->rng_dma);
			memcpy(buf + i, &v, n - i < 8 ? n - i : 8);
		}
	}
	if (n) {
		if (addr < t->ram_base || (uint64_t)addr + n > (uint64_t)t->ram_base + t->ram_size) {
			target_fail(t, CITCAT_ERR_TARGET, "DMA destination 0x%08x is outside RAM", addr);
			return;
		}
		bus_dma(&t->bus, addr, buf, n, t->bcount, pc);
		if (t->oracle && t->synced) {
			/* after the instruction before this boundary (a WFI still open while asleep) */
			target_flush_oracle(t);
			struct citcat_itrace_rec dma = {.kind = CITCAT_REC_DMA, .pc = addr, .word = n};
			if (citcat_itrace_write(t->oracle, &dma))
				target_fail(t, CITCAT_ERR_IO, "writing the oracle trace");
		}
		if (t->lvt && t->synced)
			lvt_tm_dma(t->lvt, addr, n, t->bcount, pc);
		t->dma_count += n;
	}
	if (n == 0 || t->dma_count == t->dma_len) {
		t->dma_status = 2 | (n == 0 ? 4 : 0);
		if (t->dma_irq)
			t->intc_pending |= 1u << CITCAT_IRQ_DMA_DONE;
	} else {
		t->dma_next += c->dma_interval;
	}
}

/* line 2 when the transfer ends with its interrupt on (and a transfer always
 * ends: its length is finite, and the input stream's end or a destination
 * outside RAM end it early) */
static uint64_t dma_next_wakeup(const struct target *t)
{
	return (t->intc_enable & (1u << CITCAT_IRQ_DMA_DONE)) && t->dma_irq ? dma_next_event(t) : UINT64_MAX;
}

static int dma_writable(uint32_t off)
{
	return off == R(DST) || off == R(LEN) || off == R(CTRL);
}

/* the offsets dma_read serves (struct device's readable) */
static int dma_readable(uint32_t off)
{
	return off == R(DST) || off == R(LEN) || off == R(STATUS) || off == R(COUNT);
}

const struct device dev_dma = {"dma", CITCAT_DEV_OFF(CITCAT_DMA_BASE), 0x100, dma_read, dma_write, dma_next_event, dma_burst,
			       dma_next_wakeup, dma_writable, dma_readable, target_no_loud_reads, 0};
