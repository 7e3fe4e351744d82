/* The random-program campaign's harness (tests/fidelity/README.md), linked
 * with every generated program with -Wl,--wrap=main: main() becomes
 * __real_main, and this __wrap_main runs first.
 *
 * It reads one word from the entropy register (the campaign passes it with
 * --entropy-in, a 4-byte file): bit 31 set turns on a periodic timer
 * interrupt every 2000 + (bits 0..15) cycles (well above what the handler
 * takes, even with a 1 KiB write-through D-cache, so the program always
 * progresses); bit 30 also a DMA stream into a buffer of the harness's own,
 * 16 x (1 + bits 16..21) bytes per transfer, the next transfer started by
 * the timer's handler once the last one has completed, until the input
 * ends (--dma-in FILE; the seeded generator never ends).  (Restarted from
 * the DMA-done handler instead, a short transfer completing within a few
 * dozen cycles left the program almost none: the first campaign saw
 * programs of 2 K instructions not end within 2 M.)  The handlers touch
 * only the harness's own variables (and the timer's the GE bits) and the
 * DMA only its own buffer, so the
 * program's output (its checksum) must be the same with them and without:
 * what the campaign checks.  The word is an input of the run like any other
 * (the AES replays it), so one ELF serves every configuration. */
#include <stdint.h>

#include "citcat_target.h"

int __real_main(void);
int __wrap_main(void);

static volatile uint32_t fid_ticks, fid_dma_started, fid_dma_done;
static uint8_t fid_dma_buf[1024] __attribute__((aligned(64)));
static uint32_t fid_dma_len;

void citcat_irq_timer(void)
{
	uint32_t t = fid_ticks++, ge;
	/* the handler's own APSR.GE bits, unlike the interrupted code's: an
	 * exception return must restore the interrupted code's (fidgen's ge_
	 * checks its SEL; the M7 once kept the handler's, tests/ckpt_ge.sh) */
	__asm__ volatile("uadd8 %0, %1, %2" : "=r"(ge) : "r"(t * 0x9e3779b9u), "r"(~t * 0x85ebca6bu));
	(void)ge;
	if (fid_dma_len && fid_dma_done == fid_dma_started && citcat_dma_count() == fid_dma_len &&
	    !citcat_dma_input_ended()) {
		fid_dma_started++;
		citcat_dma_start(fid_dma_buf, fid_dma_len, 1);
	}
}

void citcat_irq_dma_done(void) { fid_dma_done++; }

int __wrap_main(void)
{
	uint32_t cfg = citcat_random();
	if (cfg >> 31) {
		citcat_irq_enable_line(CITCAT_IRQ_TIMER);
		if (cfg & (1u << 30)) {
			fid_dma_len = 16u * (1u + ((cfg >> 16) & 0x3fu));
			citcat_irq_enable_line(CITCAT_IRQ_DMA_DONE);
			fid_dma_started = 1;
			citcat_dma_start(fid_dma_buf, fid_dma_len, 1);
		}
		citcat_timer_start(2000u + (cfg & 0xffffu));
		citcat_irq_unmask();
	}
	int r = __real_main();
	if (cfg >> 31) {
		citcat_irq_mask();
		citcat_timer_stop();
	}
	return r;
}
