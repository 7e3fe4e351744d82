/* Fuzz target: the CAT reader never crashes or reads out of bounds, and
 * every event it returns is well formed (kind, access size and value width,
 * line length and alignment, DMA length, interrupt line, stop reason).
 * An input starting "CCAT" is read as a whole file; any other input is
 * [configuration byte][records] and is wrapped in a valid container
 * (wrap_cat_input() in wrap.h) so the record decoder is reached despite the
 * checksums.  A wrapped chunk is read twice: with the record count taken from
 * the first read, the second reaches the end marker when every record
 * decoded. */
#include "cat.h"
#include "wrap.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Reads every event; returns how many were read before the end or an
 * error, and aborts on an event the reader should not have returned. */
static uint32_t read_all(const uint8_t *buf, size_t len)
{
	struct citcat_cat_reader *r;
	struct citcat_cat_event ev;
	uint32_t n = 0;
	if (citcat_cat_reader_open_mem(&r, buf, len) == 0) {
		const struct citcat_target_config *c = citcat_cat_config(r);
		volatile uint8_t sink = 0;
		while (citcat_cat_next(r, &ev) == 1) {
			n++;
			switch (ev.kind) {
			case CITCAT_CAT_FILL_I: case CITCAT_CAT_FILL_D: case CITCAT_CAT_WRITEBACK: {
				uint32_t line = ev.kind == CITCAT_CAT_FILL_I ? c->icache.line : c->dcache.line;
				if (ev.len != line || (ev.addr & (line - 1)))
					abort();
				sink ^= ev.data[0] ^ ev.data[ev.len - 1];
				break;
			}
			case CITCAT_CAT_DMA:
				if (ev.len == 0 || ev.len > 4096)
					abort();
				sink ^= ev.data[0] ^ ev.data[ev.len - 1];
				break;
			case CITCAT_CAT_WRITE: case CITCAT_CAT_UREAD: case CITCAT_CAT_UWRITE:
				/* a WRITE may also be 3 or 8 bytes (CAT.md, version 7) */
				if ((ev.size != 1 && ev.size != 2 && ev.size != 4 &&
				     !(ev.kind == CITCAT_CAT_WRITE && (ev.size == 3 || ev.size == 8))) ||
				    (ev.size < 8 && ev.value >> (8 * ev.size)))
					abort();
				break;
			case CITCAT_CAT_IRQ:
				if (ev.line > 15 || c->isa != CITCAT_TARGET_ARMV7A)
					abort();
				break;
			case CITCAT_CAT_EXC: /* the Cortex-M7's (CAT.md, version 5) */
				if (ev.value < 2 || ev.value > 511 || c->isa != CITCAT_TARGET_CORTEX_M7)
					abort();
				break;
			case CITCAT_CAT_STOP:
				if (ev.line >= CITCAT_STOP_REASONS ||
				    (ev.line == CITCAT_STOP_FAULT) != (ev.value != 0) || ev.value >= CITCAT_FAULT_KINDS)
					abort();
				break;
			case CITCAT_CAT_START: case CITCAT_CAT_SYNC: case CITCAT_CAT_CKPT:
				break;
			default:
				abort();
			}
			if (!c->timestamps && ev.cycle && ev.kind != CITCAT_CAT_STOP)
				abort();
		}
		(void)sink;
	}
	citcat_cat_reader_close(r);
	return n;
}

static uint32_t cat_meta(int target, const uint8_t *data, size_t size, uint8_t *meta, const uint8_t **rec, size_t *len)
{
	_Static_assert(CITCAT_TARGET_META_LEN <= WRAP_META_MAX, "wrap.h metadata buffer");
	wrap_cat_input(data, size, target ? CITCAT_TARGET_CORTEX_M7 : CITCAT_TARGET_ARMV7A, meta, rec, len);
	return CITCAT_TARGET_META_LEN;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size >= 4 && memcmp(data, "CCAT", 4) == 0) {
		read_all(data, size);
		return 0;
	}
	/* the records are read as the A target's, then as the Cortex-M7's; in
	 * the current version, and in version 5, where a CKPT may sit anywhere
	 * in an unmarked chunk (the wrapped chunk is never marked) */
	wrap_read_both_targets("CCAT\r\n\x1a\n", CITCAT_CAT_VERSION, data, size, cat_meta, read_all);
	wrap_read_both_targets("CCAT\r\n\x1a\n", 5, data, size, cat_meta, read_all);
	return 0;
}
