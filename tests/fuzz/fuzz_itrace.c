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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint32_t read_all(const uint8_t *buf, size_t len)
{
	static struct citcat_itrace_rec rec;
	struct citcat_itrace_reader *r;
	uint32_t n = 0;
	if (citcat_itrace_reader_open_mem(&r, buf, len) == 0) {
		citcat_itrace_reader_dma(r, 1);
		while (citcat_itrace_next(r, &rec) == 1) {
			n++;
			if (rec.kind == CITCAT_REC_DMA) {
				if (rec.n_acc || rec.pc > UINT32_MAX || rec.word == 0 || rec.word > CITCAT_ITRACE_MAX_DMA)
					abort();
				continue;
			}
			if (rec.kind == CITCAT_REC_IRQ) {
				if (rec.line > 63 || rec.n_acc)
					abort();
				continue;
			}
			if (rec.kind != CITCAT_REC_INSN || rec.n_acc > CITCAT_ITRACE_MAX_ACC)
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size >= 4 && memcmp(data, "CITR", 4) == 0) {
		read_all(data, size);
		return 0;
	}
	static const uint8_t meta[8] = {CITCAT_ISA_ARM_A32};
	size_t blen;
	uint32_t nrec = 1;
	for (int pass = 0; pass < 2; pass++) {
		uint8_t *b = wrap_container("CITR\r\n\x1a\n", CITCAT_ITRACE_VERSION, meta, sizeof meta, data, size, nrec, &blen);
		if (!b)
			return 0;
		uint32_t n = read_all(b, blen);
		free(b);
		if (n == nrec || !n)
			break;
		nrec = n;
	}
	return 0;
}
