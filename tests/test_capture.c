/* Capture of the hand-written firmware tests/firmware/tiny.S, checked
 * against its own ground truth: exception entry as the architecture does it,
 * the branch counter's definition, interrupt and DMA positions, and that the
 * CAT and the oracle agree.  Usage: test_capture TINY.elf */
#include "capture.h"
#include "check.h"
#include "itrace.h"

#include <string.h>
#include <unistd.h>

static void collect(void *ctx, uint8_t b)
{
	char *s = ctx;
	size_t n = strlen(s);
	if (n < 255)
		s[n] = (char)b;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return 2;
	char cat[] = "/tmp/citcat-tcap-XXXXXX", orc[] = "/tmp/citcat-tcapo-XXXXXX";
	close(mkstemp(cat));
	close(mkstemp(orc));
	struct citcat_capture_config c;
	citcat_capture_config_default(&c);
	c.target.seed = 1;
	char uart[256] = "";
	c.uart_tx = collect;
	c.uart_ctx = uart;
	struct citcat_capture_result res;
	struct citcat_errinfo err;
	int rc = citcat_capture_run(&c, argv[1], cat, orc, &res, &err);
	if (rc)
		fprintf(stderr, "capture: %s\n", err.msg);
	CHECK_EQ(rc, 0);
	CHECK_EQ(res.exit_code, 0);
	CHECK_EQ(res.stop, CITCAT_STOP_EXIT); /* the trace stopped by command, then the run exited */
	CHECK(res.traced);

	/* Walk the oracle and the CAT together. */
	struct citcat_itrace_reader *ir;
	struct citcat_cat_reader *cr;
	CHECK_EQ(citcat_itrace_reader_open(&ir, orc), 0);
	CHECK_EQ(citcat_cat_reader_open(&cr, cat), 0);
	static struct citcat_itrace_rec r, prev;
	int have_prev = 0, after_irq = 0, irqs = 0, pending_lr = 0, pending_spsr = 0, dma_seen = 0;
	uint64_t bcount = 0, insns = 0, epc = 0;
	struct citcat_cat_event ev;
	/* CAT interrupt/DMA events in order, to check their positions. */
	uint64_t cat_irq_b[64], cat_irq_pc[64];
	int ncat_irq = 0;
	while (citcat_cat_next(cr, &ev) == 1) {
		if (ev.kind == CITCAT_CAT_IRQ && ncat_irq < 64) {
			cat_irq_b[ncat_irq] = ev.bcount;
			cat_irq_pc[ncat_irq++] = ev.pc;
		}
		if (ev.kind == CITCAT_CAT_DMA)
			dma_seen++;
		if (ev.kind == CITCAT_CAT_STOP) {
			CHECK_EQ(ev.insns, res.traced_insns);
		}
	}
	while (citcat_itrace_next(ir, &r) == 1) {
		if (r.kind == CITCAT_REC_IRQ) {
			/* the branch rule applies to the boundary before the entry */
			if (have_prev && r.pc != prev.pc + 4)
				bcount++;
			CHECK(irqs < ncat_irq);
			if (irqs < ncat_irq) {
				CHECK_EQ(cat_irq_pc[irqs], r.pc);
				CHECK_EQ(cat_irq_b[irqs], bcount);
			}
			irqs++;
			after_irq = 1;
			epc = r.pc;
			continue;
		}
		if (after_irq) {
			CHECK_EQ(r.pc, 0x18); /* the IRQ vector */
			pending_lr = pending_spsr = 1;
		} else if (have_prev && r.pc != prev.pc + 4) {
			bcount++;
		}
		for (uint32_t i = 0; i < r.n_acc; i++) {
			if (r.acc[i].write && r.acc[i].addr == 0x40000004) {
				if (pending_lr) {
					CHECK_EQ(r.acc[i].value, epc + 4); /* LR_irq = EPC + 4 */
					pending_lr = 0;
				} else if (pending_spsr) {
					CHECK_EQ(r.acc[i].value & 0x1f, 0x13); /* interrupted in SVC mode */
					CHECK(!(r.acc[i].value & 0x80));       /* with IRQs enabled */
					pending_spsr = 0;
				}
			}
		}
		if (have_prev && prev.word == 0xe25ef004 /* subs pc, lr, #4 */ && !after_irq)
			CHECK(r.pc == epc || r.pc == epc + 4); /* back to EPC (or past the b .) */
		after_irq = 0;
		prev = r;
		have_prev = 1;
		insns++;
	}
	CHECK_EQ(insns, res.traced_insns);
	CHECK_EQ(irqs, ncat_irq);
	CHECK(irqs >= 4);
	CHECK(dma_seen == 8); /* 64 bytes in 8-byte bursts */
	/* the branch counter total in the STOP event = the definition applied to the oracle */
	citcat_cat_reader_close(cr);
	CHECK_EQ(citcat_cat_reader_open(&cr, cat), 0);
	while (citcat_cat_next(cr, &ev) == 1)
		if (ev.kind == CITCAT_CAT_STOP)
			CHECK_EQ(ev.bcount, bcount);
	citcat_cat_reader_close(cr);
	citcat_itrace_reader_close(ir);

	/* A bad ELF: an error, and no output files. */
	unlink(cat);
	unlink(orc);
	rc = citcat_capture_run(&c, "/dev/null", cat, orc, &res, &err);
	CHECK(rc < 0);
	CHECK(access(cat, F_OK) != 0 && access(orc, F_OK) != 0);
	CHECK_DONE();
}
