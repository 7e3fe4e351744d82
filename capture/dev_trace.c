/* The trace module's registers (TARGET.md): CMD arms and stops the
 * recording; the register-dump slots and DUMP_DONE are recorded as uncached
 * writes (the extractors read them from the CAT). */
#include "target_int.h"

#define R(reg) ((uint32_t)(CITCAT_TRACE_##reg - CITCAT_TRACE_BASE))

static int trace_write(struct target *t, uint32_t off, uint32_t v)
{
	if (off == R(CMD)) {
		if (v == CITCAT_TRACE_CMD_TRC1 && !t->recording && !t->ended) {
			t->recording = 1;
			struct citcat_cat_event ev = {.kind = CITCAT_CAT_START};
			bus_marker(&t->bus, &ev);
		} else if (v == CITCAT_TRACE_CMD_STOP && t->recording) {
			t->stop_pending = 1;
			t->stop_reason = CITCAT_STOP_COMMAND;
		}
		return 0;
	}
	if (off >= R(REG(0)) && off <= R(DUMP_DONE))
		return 0; /* register dump slots: recorded as uncached writes */
	return -1;
}

static int trace_writable(uint32_t off)
{
	return off == R(CMD) || (off >= R(REG(0)) && off <= R(DUMP_DONE));
}

const struct device dev_trace = {"trace", CITCAT_DEV_OFF(CITCAT_TRACE_BASE), 0x100, NULL, trace_write, NULL, NULL, NULL,
				 trace_writable, NULL, NULL, 0};
