/* Fuzz target: the itrace reader must never crash, hang or read out of
 * bounds, whatever the bytes, and every record it returns is well formed
 * (kind, interrupt line, access count, sizes, value widths, DMA lengths).  An input
 * starting "CITR" is read as a whole file; any other input is a chunk's
 * records, wrapped in a valid container (wrap.h) so the record decoder is
 * reached despite the checksums.  The chunk is read twice: with the record
 * count taken from the first read, the second reaches the end marker when
 * every record decoded. */
#include "itrace.h"
#include "wrap.h"

#include <citcat/cat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint32_t read_all(const uint8_t *buf, size_t len)
{
	static struct citcat_itrace_rec rec;
	struct citcat_itrace_reader *r;
	uint32_t n = 0;
	if (citcat_itrace_reader_open_mem(&r, buf, len) == 0) {
		int m7 = citcat_itrace_isa(r) == CITCAT_ISA_ARMV7M;
		citcat_itrace_reader_dma(r, 1);
		while (citcat_itrace_next(r, &rec) == 1) {
			n++;
			if (rec.kind == CITCAT_REC_DMA) {
				if (rec.n_acc || rec.pc > UINT32_MAX || rec.word == 0 || rec.word > CITCAT_ITRACE_MAX_DMA)
					abort();
				continue;
			}
			if (rec.kind == CITCAT_REC_IRQ) { /* a Cortex-M7 entry carries accesses (ITRACE.md, isa 2) */
				if (rec.line > 63 || (m7 ? rec.line < 2 : rec.n_acc != 0))
					abort();
			} else if (rec.kind == CITCAT_REC_STOP) {
				if (rec.n_acc || rec.word >= CITCAT_FAULT_KINDS || (!m7 && rec.word == CITCAT_FAULT_EXCEPTION))
					abort();
				continue;
			} else if (rec.kind != CITCAT_REC_INSN || (m7 && !rec.thumb)) {
				abort();
			}
			if (rec.n_acc > CITCAT_ITRACE_MAX_ACC)
				abort();
			for (uint32_t i = 0; i < rec.n_acc; i++) {
				const struct citcat_access *a = &rec.acc[i];
				if ((a->size != 1 && a->size != 2 && a->size != 4 && a->size != 8) || a->write > 1 || a->uncached > 1 ||
				    (a->size < 8 && (a->value >> (8 * a->size))))
					abort();
			}
		}
	}
	citcat_itrace_reader_close(r);
	return n;
}

/* the itrace metadata: 8 bytes, the first the isa */
static uint32_t itrace_meta(int target, const uint8_t *data, size_t size, uint8_t *meta, const uint8_t **rec,
			    size_t *len)
{
	meta[0] = target ? CITCAT_ISA_ARMV7M : CITCAT_ISA_ARM_A32;
	*rec = data;
	*len = size;
	return 8;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size >= 4 && memcmp(data, "CITR", 4) == 0) {
		read_all(data, size);
		return 0;
	}
	/* the records are read as an A-target trace, then as a Cortex-M7 one */
	wrap_read_both_targets("CITR\r\n\x1a\n", CITCAT_ITRACE_VERSION, data, size, itrace_meta, read_all);
	return 0;
}
