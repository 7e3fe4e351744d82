/* The replayer (chapter 3 of the CITCAT thesis, the seven-step procedure):
 * initialise a Unicorn core from the IMS, execute, and at every instruction
 * boundary consult the AES for an interrupt or DMA transfer due exactly
 * there (branch count and PC both equal); uncached reads take the next
 * value of the device input queue (or counter history), uncached writes are
 * checked against the output log.  The memory system (capture/bus.c) is
 * driven call for call as in the capture model, so the bus trace it reports
 * can be compared with the recorded CAT.
 *
 * The hook structure mirrors capture/target.c on purpose; the Unicorn
 * behaviours it relies on are listed there and pinned by tests/test_unicorn.c.
 * In particular a divergence found inside a memory hook or MMIO callback
 * calls uc_emu_stop there, which abandons the instruction: harmless, since
 * the run ends. */
#include "replay.h"
#include "replay_int.h"
#include "aes.h"
#include "armcore.h"
#include "bus.h"
#include "core.h"
#include "ims.h"
#include "itrace.h"
#include "thumb.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unicorn/unicorn.h>

struct replayer {
	const struct citcat_replay_config *cfg;
	struct citcat_replay_result *res;
	struct citcat_errinfo *err;
	uc_engine *uc;
	struct citcat_ims ims;
	struct bus bus;
	uint8_t *ram, *known; /* RAM and a bitmap of bytes whose value is known */
	uint32_t ram_base, ram_size;

	struct citcat_aes_reader *aes;
	struct citcat_aes_rec next; /* lookahead */
	int next_valid;
	int next_async;             /* next is an interrupt or DMA record */
	uint64_t total;             /* instructions in the traced interval */

	struct citcat_cat_reader *cat;
	/* the --verify CAT's trace id, built as its events are read (IMS.md) */
	uint64_t cat_hash, cat_insns, cat_bcount, cat_read;
	uint32_t cat_start;
	int cat_synced, cat_stopped;
	struct citcat_itrace_reader *orc;
	struct citcat_itrace_writer *out;

	uint64_t bcount, insns;
	uint64_t cur_index; /* index of the instruction at cur_pc */
	uint32_t expect_pc, cur_pc;
	uint8_t itstate; /* ITSTATE after the last retired instruction (capture/thumb.h) */
	uint8_t last_size, last_thumb; /* of the last retired instruction */
	int after_exception, done, failed;
	int fault_seen; /* the recorded fault was reproduced (AES END, CITCAT_STOP_FAULT) */
	struct citcat_itrace_rec cur, orec;
	int cur_valid;
	uint32_t hist_pc[CITCAT_REPLAY_HISTORY], hist_word[CITCAT_REPLAY_HISTORY];
	uint64_t hist_index[CITCAT_REPLAY_HISTORY];
	int irq_seen; /* the last interrupt entry, for the divergence report */
	unsigned irq_line;
	uint32_t irq_epc;
	uint64_t irq_index;
};

static inline int kbit(const uint8_t *m, uint32_t i) { return (m[i >> 3] >> (i & 7)) & 1; }
static inline void kset(uint8_t *m, uint32_t i) { m[i >> 3] |= (uint8_t)(1u << (i & 7)); }

/* The next event of the --verify CAT, hashed into its trace id from SYNC to
 * STOP inclusive, as the extractors do. */
static int cat_next(struct replayer *p, struct citcat_cat_event *ev)
{
	int rc = citcat_cat_next(p->cat, ev);
	if (rc != 1)
		return rc;
	p->cat_read++;
	if (ev->kind == CITCAT_CAT_SYNC && !p->cat_synced) {
		p->cat_synced = 1;
		p->cat_start = ev->pc;
	}
	if (p->cat_synced && !p->cat_stopped) {
		p->cat_hash = citcat_trace_hash_event(p->cat_hash, ev);
		if (ev->kind == CITCAT_CAT_STOP) {
			p->cat_stopped = 1;
			p->cat_insns = ev->insns;
			p->cat_bcount = ev->bcount;
		}
	}
	return rc;
}

void replay_divergence_fill(struct citcat_divergence *d, const char *check, uint64_t index, uint64_t bcount,
			    uint32_t pc, const char *expected, uint64_t insns, const uint32_t *hist_pc,
			    const uint32_t *hist_word, const char *found_fmt, va_list ap)
{
	d->check = check;
	d->insn_index = index;
	d->bcount = bcount;
	d->pc = pc;
	snprintf(d->expected, sizeof d->expected, "%s", expected);
	vsnprintf(d->found, sizeof d->found, found_fmt, ap);
	unsigned n = insns < CITCAT_REPLAY_HISTORY ? (unsigned)insns : CITCAT_REPLAY_HISTORY;
	d->nhist = n;
	for (unsigned i = 0; i < n; i++) {
		uint64_t idx = insns - n + i;
		unsigned k = (unsigned)(idx % CITCAT_REPLAY_HISTORY);
		d->hist_pc[i] = hist_pc[k];
		d->hist_word[i] = hist_word[k];
		d->hist_index[i] = idx;
	}
}

int replay_oracle_differs(int rc, const struct citcat_itrace_rec *want, const struct citcat_itrace_rec *got,
			  char want_text[200], char got_text[200])
{
	if (rc == 1 && citcat_itrace_rec_equal(got, want))
		return 0;
	const struct citcat_itrace_rec *v[2] = {want, got};
	char *s[2] = {want_text, got_text};
	for (int i = 0; i < 2; i++) {
		if (i == 0 && rc == 0) {
			snprintf(want_text, 200, "the end of the trace");
			continue;
		}
		if (v[i]->kind == CITCAT_REC_IRQ) {
			snprintf(s[i], 200, "interrupt line %u, EPC 0x%08llx", v[i]->line, (unsigned long long)v[i]->pc);
		} else if (v[i]->kind == CITCAT_REC_DMA) {
			snprintf(s[i], 200, "DMA transfer of %u bytes to 0x%08llx", v[i]->word, (unsigned long long)v[i]->pc);
		} else if (v[i]->kind == CITCAT_REC_STOP) {
			snprintf(s[i], 200, "%s at 0x%08llx (fault kind %u, address 0x%08x)", citcat_stop_reason_name(v[i]->line),
				 (unsigned long long)v[i]->pc, v[i]->word, v[i]->fault_addr);
		} else {
			int n = snprintf(s[i], 200, "0x%08llx: %08x", (unsigned long long)v[i]->pc, v[i]->word);
			for (uint32_t k = 0; k < v[i]->n_acc && n < 180; k++)
				n += snprintf(s[i] + n, (size_t)(200 - n), " %c%u[0x%llx]=0x%llx", v[i]->acc[k].write ? 'W' : 'R',
					      v[i]->acc[k].size, (unsigned long long)v[i]->acc[k].addr,
					      (unsigned long long)v[i]->acc[k].value);
		}
	}
	return 1;
}

static void diverge(struct replayer *p, const char *check, const char *fmt_exp, const char *found_fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Records the first divergence and stops the core. */
static void diverge(struct replayer *p, const char *check, const char *expected, const char *found_fmt, ...)
{
	if (p->failed)
		return;
	p->failed = 1;
	p->res->diverged = 1;
	/* not p->insns: once the instruction has started (a data access, a
	 * device read, its record being closed) that already counts it */
	va_list ap;
	va_start(ap, found_fmt);
	replay_divergence_fill(&p->res->div, check, p->cur_index, p->bcount, p->cur_pc, expected, p->insns, p->hist_pc,
			       p->hist_word, found_fmt, ap);
	va_end(ap);
	struct citcat_divergence *d = &p->res->div;
	static const int regids[17] = {UC_ARM_REG_R0, UC_ARM_REG_R1, UC_ARM_REG_R2, UC_ARM_REG_R3, UC_ARM_REG_R4,
				       UC_ARM_REG_R5, UC_ARM_REG_R6, UC_ARM_REG_R7, UC_ARM_REG_R8, UC_ARM_REG_R9,
				       UC_ARM_REG_R10, UC_ARM_REG_R11, UC_ARM_REG_R12, UC_ARM_REG_SP, UC_ARM_REG_LR,
				       UC_ARM_REG_PC, UC_ARM_REG_CPSR};
	uint32_t v[17];
	void *vp[17];
	for (int i = 0; i < 17; i++)
		vp[i] = &v[i];
	if (p->uc && uc_reg_read_batch(p->uc, (int *)regids, vp, 17) == UC_ERR_OK) {
		d->have_regs = 1;
		memcpy(d->regs, v, sizeof d->regs);
		d->cpsr = v[16];
	}
	d->have_irq = p->irq_seen;
	d->irq_line = p->irq_line;
	d->irq_epc = p->irq_epc;
	d->irq_index = p->irq_index;
	uc_emu_stop(p->uc);
}

static int fail(struct replayer *p, int code, uint64_t off, const char *fmt, ...)
{
	if (!p->failed) {
		va_list ap;
		va_start(ap, fmt);
		p->err->code = code;
		p->err->offset = off;
		vsnprintf(p->err->msg, sizeof p->err->msg, fmt, ap);
		va_end(ap);
		p->failed = 2;
		if (p->uc)
			uc_emu_stop(p->uc);
	}
	return code;
}

/* An input file is unusable: keep its reader's error and say which file. */
static void input_error(struct replayer *p, const char *path, const struct citcat_errinfo *e)
{
	if (p->failed)
		return;
	*p->err = *e;
	p->res->err_path = path;
	p->failed = 2;
	if (p->uc)
		uc_emu_stop(p->uc);
}

static void next_aes(struct replayer *p)
{
	int rc = citcat_aes_next(p->aes, &p->next);
	p->next_valid = rc == 1;
	p->next_async = rc == 1 && (p->next.kind == CITCAT_AES_DMA || p->next.kind == CITCAT_AES_IRQ);
	if (rc < 0) {
		input_error(p, p->cfg->aes_path, citcat_aes_reader_error(p->aes));
	} else if (rc == 0) {
		fail(p, CITCAT_ERR_TRUNCATED, UINT64_MAX, "%s: the AES ends without its END record", p->cfg->aes_path);
	}
}

static void describe_event(char *buf, size_t n, const struct citcat_cat_event *e)
{
	switch (e->kind) {
	case CITCAT_CAT_FILL_I: case CITCAT_CAT_FILL_D: case CITCAT_CAT_WRITEBACK:
		snprintf(buf, n, "%s 0x%08x", citcat_cat_kind_name(e->kind), e->addr);
		break;
	case CITCAT_CAT_WRITE: case CITCAT_CAT_UREAD: case CITCAT_CAT_UWRITE:
		snprintf(buf, n, "%s 0x%08x size %u value 0x%llx", citcat_cat_kind_name(e->kind), e->addr, e->size,
			 (unsigned long long)e->value);
		break;
	case CITCAT_CAT_DMA:
		snprintf(buf, n, "dma 0x%08x len %u at branch %llu pc 0x%08x", e->addr, e->len,
			 (unsigned long long)e->bcount, e->pc);
		break;
	case CITCAT_CAT_IRQ:
		snprintf(buf, n, "irq line %u at branch %llu epc 0x%08x", e->line, (unsigned long long)e->bcount, e->pc);
		break;
	default:
		snprintf(buf, n, "%s", citcat_cat_kind_name(e->kind));
	}
}

static void observe_failed(struct replayer *p, int rc);

/* For the report of a bus event whose data differ: where the first
 * differing byte is, and the recorded and regenerated bytes around it. */
static void keep_data_diff(struct citcat_divergence *d, const struct citcat_cat_event *want,
			   const struct citcat_cat_event *got)
{
	uint32_t n = want->len < got->len ? want->len : got->len, off = 0;
	while (off < n && want->data[off] == got->data[off])
		off++;
	d->have_data = 1;
	d->data_addr = want->addr;
	d->data_len = want->len;
	d->data_off = off;
	d->data_win = off & ~15u;
	d->data_n = n - d->data_win < 64 ? n - d->data_win : 64;
	memcpy(d->data_expected, want->data + d->data_win, d->data_n);
	memcpy(d->data_found, got->data + d->data_win, d->data_n);
}

/* --verify: each regenerated bus transaction against the next recorded one
 * (everything but timestamps). */
static void sink_event(void *ctx, const struct citcat_cat_event *ev)
{
	struct replayer *p = ctx;
	p->res->bus_events++;
	if (p->cfg->bus && !p->failed) {
		int orc = p->cfg->bus(p->cfg->bus_ctx, ev);
		if (orc) {
			if (p->cfg->observer)
				observe_failed(p, orc);
			else
				fail(p, orc, UINT64_MAX, "the bus observer stopped the replay");
		}
	}
	if (!p->cat || p->failed)
		return;
	struct citcat_cat_event rec;
	int rc;
	do
		rc = cat_next(p, &rec);
	while (rc == 1 && (rec.kind == CITCAT_CAT_START || rec.kind == CITCAT_CAT_SYNC));
	char got[200], want[200];
	describe_event(got, sizeof got, ev);
	if (rc < 0) {
		input_error(p, p->cfg->verify_cat, citcat_cat_reader_error(p->cat));
		return;
	}
	if (rc == 0 || rec.kind == CITCAT_CAT_STOP) {
		diverge(p, "bus trace", "no more bus events (the recording has ended)", "%s", got);
		return;
	}
	describe_event(want, sizeof want, &rec);
	int same = rec.kind == ev->kind && rec.addr == ev->addr;
	if (same) {
		switch (ev->kind) {
		case CITCAT_CAT_FILL_I: case CITCAT_CAT_FILL_D: case CITCAT_CAT_WRITEBACK: case CITCAT_CAT_DMA:
			same = rec.len == ev->len && memcmp(rec.data, ev->data, ev->len) == 0 &&
			       (ev->kind != CITCAT_CAT_DMA || (rec.bcount == ev->bcount && rec.pc == ev->pc));
			if (!same)
				snprintf(got + strlen(got), sizeof got - strlen(got), " (different data)");
			break;
		case CITCAT_CAT_WRITE: case CITCAT_CAT_UREAD: case CITCAT_CAT_UWRITE:
			same = rec.size == ev->size && rec.value == ev->value;
			break;
		case CITCAT_CAT_IRQ:
			same = rec.line == ev->line && rec.bcount == ev->bcount && rec.pc == ev->pc;
			break;
		}
	}
	if (!same) {
		diverge(p, "bus trace", want, "%s", got);
		if (strstr(got, "(different data)"))
			keep_data_diff(&p->res->div, &rec, ev);
	}
}

static void oracle_compare(struct replayer *p, const struct citcat_itrace_rec *r)
{
	if (!p->orc || p->failed)
		return;
	int rc = citcat_itrace_next(p->orc, &p->orec);
	if (rc < 0) {
		input_error(p, p->cfg->oracle, citcat_itrace_reader_error(p->orc));
		return;
	}
	p->res->oracle_records++;
	char want[200], got[200];
	if (replay_oracle_differs(rc, &p->orec, r, want, got))
		diverge(p, "instruction trace", want, "%s", got);
}

static const int obs_regs[CITCAT_OBS_NREGS] = {
	UC_ARM_REG_R0, UC_ARM_REG_R1, UC_ARM_REG_R2, UC_ARM_REG_R3, UC_ARM_REG_R4, UC_ARM_REG_R5,
	UC_ARM_REG_R6, UC_ARM_REG_R7, UC_ARM_REG_R8, UC_ARM_REG_R9, UC_ARM_REG_R10, UC_ARM_REG_R11,
	UC_ARM_REG_R12, UC_ARM_REG_SP, UC_ARM_REG_LR, UC_ARM_REG_PC, UC_ARM_REG_CPSR, UC_ARM_REG_SPSR};

/* The observer's error stops the run like an input error. */
static void observe_failed(struct replayer *p, int rc)
{
	const struct citcat_errinfo *e = p->cfg->observer->obs_err;
	if (e && e->code)
		fail(p, rc, e->offset, "%s", e->msg);
	else
		fail(p, rc, UINT64_MAX, "the observer stopped the replay");
}

static void observe(struct replayer *p, const struct citcat_itrace_rec *r)
{
	const struct citcat_replay_observer *o = p->cfg->observer;
	uint32_t regs[CITCAT_OBS_NREGS];
	void *vals[CITCAT_OBS_NREGS];
	for (int i = 0; i < CITCAT_OBS_NREGS; i++)
		vals[i] = &regs[i];
	if (!o->record || p->failed)
		return;
	if (uc_reg_read_batch(p->uc, (int *)obs_regs, vals, CITCAT_OBS_NREGS)) {
		fail(p, CITCAT_ERR_UNICORN, UINT64_MAX, "reading the registers failed");
		return;
	}
	int rc = o->record(o->ctx, r, regs);
	if (rc)
		observe_failed(p, rc);
}

static inline void emit_record(struct replayer *p, const struct citcat_itrace_rec *r)
{
	if (p->cfg->on_record && !p->failed && r->kind != CITCAT_REC_DMA) {
		int rc = p->cfg->on_record(p->cfg->record_ctx, r);
		if (rc)
			fail(p, rc < 0 ? rc : CITCAT_ERR_INTERRUPTED, UINT64_MAX,
			     "the record callback stopped the replay");
	}
	if (p->cfg->observer && r->kind != CITCAT_REC_STOP && r->kind != CITCAT_REC_DMA) /* observers see executed core records only */
		observe(p, r);
	if (p->out && citcat_itrace_write(p->out, r))
		fail(p, CITCAT_ERR_IO, UINT64_MAX, "%s: %s", p->cfg->out_path, citcat_itrace_writer_error(p->out)->msg);
	if (p->orc)
		oracle_compare(p, r);
}

static void add_access(struct replayer *p, uint32_t addr, unsigned size, int write, uint64_t value, int uncached)
{
	if (!p->cur_valid || p->cur.n_acc >= CITCAT_ITRACE_MAX_ACC)
		return;
	core_record_access(&p->cur, addr, size, write, value, uncached);
}

static int expected_fault(struct replayer *p, unsigned kind, uint32_t pc, uint32_t addr);

static inline int known_range(struct replayer *p, uint32_t addr, unsigned size)
{
	uint32_t off = addr - p->ram_base;
	if ((off & 7) + size <= 8) { /* within one bitmap byte: one mask test */
		unsigned m = ((1u << size) - 1) << (off & 7);
		return (p->known[off >> 3] & m) == m;
	}
	for (unsigned i = 0; i < size; i++)
		if (!kbit(p->known, off + i))
			return 0;
	return 1;
}

static void hook_mem(uc_engine *uc, uc_mem_type type, uint64_t addr, int size, int64_t value, void *ctx)
{
	struct replayer *p = ctx;
	if (p->done) /* after a reproduced fault: the instruction ends there */
		return;
	int w = type == UC_MEM_WRITE;
	uint64_t v = (uint64_t)value;
	if (size < 8)
		v &= (1ull << (8 * size)) - 1;
	uint32_t a = (uint32_t)addr, off = a - p->ram_base;
	if (w) {
		for (int i = 0; i < size; i++)
			kset(p->known, off + (uint32_t)i);
	} else if (!known_range(p, a, (unsigned)size)) {
		diverge(p, "memory image", "a read of memory the IMS holds", "a %d-byte read of 0x%08x, which the IMS does not hold",
			size, a);
		return;
	}
	bus_data(&p->bus, a, (unsigned)size, w, v);
	add_access(p, a, (unsigned)size, w, v, 0);
}

static uint64_t mmio_read(uc_engine *uc, uint64_t off, unsigned size, void *ctx)
{
	struct replayer *p = ctx;
	uint32_t addr = p->ims.cfg.dev_base + (uint32_t)off;
	int counter = citcat_aes_is_counter(&p->ims.cfg, addr);
	unsigned want_kind = counter ? CITCAT_AES_COUNTER : CITCAT_AES_INPUT;
	if (p->failed || p->done || expected_fault(p, CITCAT_FAULT_DEV_READ, p->cur_pc, addr))
		return 0;
	if (!p->next_valid || p->next.kind != want_kind || p->next.addr != addr || p->next.size != size) {
		char exp[200];
		if (p->next_valid && (p->next.kind == CITCAT_AES_INPUT || p->next.kind == CITCAT_AES_COUNTER))
			snprintf(exp, sizeof exp, "a %u-byte %s read of 0x%08x", p->next.size,
				 citcat_aes_kind_name(p->next.kind), p->next.addr);
		else
			snprintf(exp, sizeof exp, "the next event to be a %s record, not a device read",
				 p->next_valid ? citcat_aes_kind_name(p->next.kind) : "(none)");
		diverge(p, counter ? "counter history" : "device input queue", exp, "a %u-byte read of 0x%08x", size, addr);
		return 0;
	}
	uint64_t v = p->next.value;
	next_aes(p);
	bus_uncached(&p->bus, addr, size, 0, v);
	add_access(p, addr, size, 0, v, 1);
	return v;
}

static void mmio_write(uc_engine *uc, uint64_t off, unsigned size, uint64_t value, void *ctx)
{
	struct replayer *p = ctx;
	uint32_t addr = p->ims.cfg.dev_base + (uint32_t)off;
	if (size < 8)
		value &= (1ull << (8 * size)) - 1;
	if (p->failed || p->done || expected_fault(p, CITCAT_FAULT_DEV_WRITE, p->cur_pc, addr))
		return;
	if (!p->next_valid || p->next.kind != CITCAT_AES_OUTPUT || p->next.addr != addr || p->next.size != size ||
	    p->next.value != value) {
		char exp[200];
		if (p->next_valid && p->next.kind == CITCAT_AES_OUTPUT)
			snprintf(exp, sizeof exp, "a %u-byte write of 0x%llx to 0x%08x", p->next.size,
				 (unsigned long long)p->next.value, p->next.addr);
		else
			snprintf(exp, sizeof exp, "the next event to be a %s record, not a device write",
				 p->next_valid ? citcat_aes_kind_name(p->next.kind) : "(none)");
		diverge(p, "device output log", exp, "a %u-byte write of 0x%llx to 0x%08x", size, (unsigned long long)value, addr);
		return;
	}
	next_aes(p);
	bus_uncached(&p->bus, addr, size, 1, value);
	add_access(p, addr, size, 1, value, 1);
}

static inline void close_record(struct replayer *p)
{
	if (!p->cur_valid)
		return;
	p->cur_valid = 0;
	emit_record(p, &p->cur);
}

/* The run's abnormal end (ITRACE.md, STOP): the last record. */
static void emit_stop(struct replayer *p, unsigned reason, uint32_t pc, unsigned fault, uint32_t addr)
{
	struct citcat_itrace_rec end = {.kind = CITCAT_REC_STOP, .line = (uint8_t)reason, .pc = pc, .word = fault,
					.fault_addr = addr};
	emit_record(p, &end);
}

/* A fault at PC (the instruction executing, or for a fetch the address
 * fetched): when the AES's END record is exactly this fault after exactly
 * these instructions, the replay has reproduced the recorded end (CAT.md,
 * STOP): close the faulting instruction's record, add the STOP record and
 * end the run.  Returns 0 when it is not the recorded fault (the caller
 * reports the divergence it would report anyway). */
static int expected_fault(struct replayer *p, unsigned kind, uint32_t pc, uint32_t addr)
{
	const struct citcat_aes_rec *e = &p->next;
	if (p->failed || p->done || !p->next_valid || e->kind != CITCAT_AES_END || e->line != CITCAT_STOP_FAULT ||
	    e->value != kind || e->pc != pc || e->addr != addr || e->insns != p->insns)
		return 0;
	close_record(p);
	emit_stop(p, CITCAT_STOP_FAULT, pc, kind, addr);
	p->fault_seen = 1;
	p->done = 1;
	uc_emu_stop(p->uc);
	return 1;
}

/* Applies the AES events due at this boundary: DMA transfers and at most one
 * interrupt.  Returns 1 when an interrupt was taken. */
static int async_events(struct replayer *p, uint32_t a)
{
	while (p->next_valid && (p->next.kind == CITCAT_AES_DMA || p->next.kind == CITCAT_AES_IRQ)) {
		if (p->next.bcount != p->bcount || p->next.pc != a) {
			if (p->next.bcount < p->bcount) {
				char exp[200];
				snprintf(exp, sizeof exp, "%s at branch %llu, pc 0x%08x", p->next.kind == CITCAT_AES_IRQ ? "an interrupt" : "a DMA transfer",
					 (unsigned long long)p->next.bcount, p->next.pc);
				diverge(p, p->next.kind == CITCAT_AES_IRQ ? "interrupt schedule" : "DMA schedule", exp,
					"branch %llu passed without reaching pc 0x%08x", (unsigned long long)p->next.bcount, p->next.pc);
			}
			return 0;
		}
		if (p->next.kind == CITCAT_AES_DMA) {
			const struct citcat_aes_rec *d = &p->next;
			if (d->addr < p->ram_base || (uint64_t)d->addr + d->len > (uint64_t)p->ram_base + p->ram_size) {
				fail(p, CITCAT_ERR_CORRUPT, UINT64_MAX, "%s: DMA transfer to 0x%08x lies outside RAM", p->cfg->aes_path, d->addr);
				return 0;
			}
			bus_dma(&p->bus, d->addr, d->data, d->len, d->bcount, d->pc);
			struct citcat_itrace_rec dma = {.kind = CITCAT_REC_DMA, .pc = d->addr, .word = d->len};
			emit_record(p, &dma);
			int orc = p->cfg->observer && p->cfg->observer->dma ? p->cfg->observer->dma(p->cfg->observer->ctx, d->addr, d->len) : 0;
			if (orc)
				observe_failed(p, orc);
			for (uint32_t i = 0; i < d->len; i++)
				kset(p->known, d->addr - p->ram_base + i);
			p->res->dma++;
			next_aes(p);
			continue;
		}
		uint32_t cpsr;
		uc_reg_read(p->uc, UC_ARM_REG_CPSR, &cpsr);
		if (p->itstate) {
			diverge(p, "interrupt schedule", "an interrupt outside IT blocks (TARGET.md)",
				"an interrupt recorded inside an IT block (ITSTATE 0x%02x)", p->itstate);
			return 0;
		}
		if (cpsr & ARM_CPSR_I) {
			diverge(p, "interrupt schedule", "interrupts enabled (CPSR.I = 0) for the recorded interrupt",
				"CPSR 0x%08x with interrupts masked", cpsr);
			return 0;
		}
		unsigned line = p->next.line;
		bus_irq(&p->bus, line, a, p->bcount);
		struct citcat_itrace_rec irq = {.kind = CITCAT_REC_IRQ, .line = (uint8_t)line, .pc = a};
		emit_record(p, &irq);
		p->irq_seen = 1;
		p->irq_line = line;
		p->irq_epc = a;
		p->irq_index = p->insns;
		if (arm_take_irq(p->uc, a))
			fail(p, CITCAT_ERR_UNICORN, UINT64_MAX, "IRQ entry failed");
		p->res->irqs++;
		p->after_exception = 1;
		next_aes(p);
		return 1;
	}
	return 0;
}

/* The instruction at A (SIZE bytes, WORD, THUMB state) retires, as in the
 * capture model (capture/target.c, retire). */
static void retire(struct replayer *p, uint32_t a, unsigned size, uint32_t word, int thumb)
{
	thumb_ifetch(&p->bus, a, size);
	unsigned k = (unsigned)(p->insns % CITCAT_REPLAY_HISTORY);
	p->hist_pc[k] = a;
	p->hist_word[k] = word;
	p->hist_index[k] = p->insns;
	p->insns++;
	p->bus.cycle++;
	p->expect_pc = a + size;
	p->itstate = thumb_is_it(word, size) ? (uint8_t)(word & 0xff) : thumb_it_advance(p->itstate);
	p->last_size = (uint8_t)size;
	p->last_thumb = (uint8_t)thumb;
	p->cur.kind = CITCAT_REC_INSN;
	p->cur.pc = a;
	p->cur.word = word;
	p->cur.size = (uint8_t)size;
	p->cur.thumb = (uint8_t)thumb;
	p->cur.n_acc = 0;
	p->cur_valid = 1;
}

/* The condition-failed instructions of an IT block that Unicorn ran no code
 * hook for, as in the capture model (capture/target.c, it_skipped). */
static void it_skipped(struct replayer *p, uint32_t a)
{
	uint32_t cpsr;
	uc_reg_read(p->uc, UC_ARM_REG_CPSR, &cpsr);
	while (p->itstate && a != p->expect_pc && !p->failed && !thumb_cond_passed(p->itstate >> 4, cpsr)) {
		uint32_t pc = p->expect_pc, off = pc - p->ram_base;
		uint16_t hw;
		if (off >= p->ram_size || p->ram_size - off < 4 || !known_range(p, pc, 2))
			break;
		memcpy(&hw, p->ram + off, 2);
		unsigned size = thumb_size(hw);
		if (!known_range(p, pc, size) || p->insns == p->total)
			break;
		retire(p, pc, size, thumb_word_at(p->ram + off, size), 1);
		close_record(p);
	}
}

static void hook_code(uc_engine *uc, uint64_t address, uint32_t size, void *ctx)
{
	struct replayer *p = ctx;
	uint32_t a = (uint32_t)address;
	if (p->failed || p->done) {
		/* again: a PC write after the stop (the IRQ entry that follows a
		 * divergence found in bus_irq) makes Unicorn resume, and the run
		 * would go on forever with every hook returning here */
		uc_emu_stop(uc);
		return;
	}
	close_record(p);
	if (p->itstate && !p->after_exception)
		it_skipped(p, a);
	if (core_branched(a, p->expect_pc, p->after_exception))
		p->bcount++;
	p->after_exception = 0;
	p->cur_pc = a;
	p->cur_index = p->insns;
	if (p->insns == p->total) {
		/* the end of the traced interval; an abnormal one is reproduced
		 * or checked here when it lies at this boundary (CAT.md, STOP) */
		const struct citcat_aes_rec *e = p->next_valid && p->next.kind == CITCAT_AES_END ? &p->next : NULL;
		if (e && e->line == CITCAT_STOP_FAULT && (e->value == CITCAT_FAULT_FETCH || e->value == CITCAT_FAULT_THUMB)) {
			int real = e->value == CITCAT_FAULT_THUMB ? size != 4 : a - p->ram_base >= p->ram_size;
			if (!real || !expected_fault(p, (unsigned)e->value, a, a)) {
				char exp[200];
				snprintf(exp, sizeof exp, "%s at 0x%08x", citcat_fault_kind_name((unsigned)e->value), e->pc);
				diverge(p, "fault", exp, "%s at 0x%08x", real ? "the fault" : "an instruction", a);
			}
			return;
		}
		if (e && e->line == CITCAT_STOP_WFI_DEADLOCK) {
			unsigned k = (unsigned)((p->insns + CITCAT_REPLAY_HISTORY - 1) % CITCAT_REPLAY_HISTORY);
			if (!p->insns || !(p->last_thumb ? thumb_is_wfi(p->hist_word[k], p->last_size) : core_is_wfi(p->hist_word[k]))) {
				diverge(p, "stop", "a WFI as the last instruction (the recording ended asleep)",
					"the last instruction is not a WFI");
				return;
			}
			close_record(p);
			emit_stop(p, CITCAT_STOP_WFI_DEADLOCK, p->hist_pc[k], 0, 0);
		} else if (e && e->line == CITCAT_STOP_INTERRUPTED) {
			emit_stop(p, CITCAT_STOP_INTERRUPTED, a, 0, 0);
		}
		p->done = 1;
		uc_emu_stop(uc);
		return;
	}
	if (p->cfg->max_insns && p->insns >= p->cfg->max_insns) {
		fail(p, CITCAT_ERR_LIMIT, UINT64_MAX,
		     "stopped at the instruction limit after %llu of the %llu instructions the IMS claims; every check held "
		     "that far, but the replay is incomplete, so no output is left",
		     (unsigned long long)p->insns, (unsigned long long)p->total);
		return;
	}
	/* The AES is consulted only when its next record could be due here, or
	 * its boundary has been passed (a divergence async_events reports). */
	if (p->next_async && (p->next.pc == a || p->next.bcount < p->bcount) && (async_events(p, a) || p->failed))
		return;
	if (a - p->ram_base >= p->ram_size || p->ram_size - (a - p->ram_base) < size) {
		diverge(p, "instruction fetch", "an instruction in RAM", "a fetch from 0x%08x", a);
		return;
	}
	if (!known_range(p, a, size)) {
		diverge(p, "memory image", "an instruction the IMS holds", "a fetch from 0x%08x, which the IMS does not hold", a);
		return;
	}
	uint32_t word = thumb_word_at(p->ram + (a - p->ram_base), size);
	int thumb = thumb_state(uc, a, size);
	retire(p, a, size, word, thumb);
	if (thumb ? thumb_is_wfi(word, size) : core_is_wfi(word))
		thumb_wfi_retire(uc, a, size, thumb); /* the wake-up is in the AES */
	if (p->cfg->progress && (p->insns & 0xfffff) == 0 && p->cfg->progress(p->cfg->progress_ctx, p->insns, p->total))
		fail(p, CITCAT_ERR_INTERRUPTED, UINT64_MAX, "interrupted after %llu instructions", (unsigned long long)p->insns);
}

static bool hook_unmapped(uc_engine *uc, uc_mem_type type, uint64_t addr, int size, int64_t value, void *ctx)
{
	struct replayer *p = ctx;
	uint32_t a = (uint32_t)addr;
	if (p->done)
		return false;
	if (type == UC_MEM_FETCH_UNMAPPED) {
		/* no code hook ran for A: the branch-counter rule, as in hook_code
		 * (and as the capture model applies it to such a fetch) */
		if (a != p->expect_pc && !p->after_exception)
			p->bcount++;
		p->after_exception = 0;
		p->cur_pc = a;
		p->cur_index = p->insns;
		if (expected_fault(p, CITCAT_FAULT_FETCH, a, a))
			return false;
	} else if (expected_fault(p, type == UC_MEM_WRITE_UNMAPPED ? CITCAT_FAULT_WRITE : CITCAT_FAULT_READ, p->cur_pc,
				  a)) {
		return false;
	}
	diverge(p, "memory map", "accesses within RAM and the device window", "an access to unmapped 0x%08llx",
		(unsigned long long)addr);
	return false;
}

static void hook_intr(uc_engine *uc, uint32_t intno, void *ctx)
{
	struct replayer *p = ctx;
	/* the capture model's mapping (capture/target.c, hook_intr) */
	unsigned kind = intno == 1 ? CITCAT_FAULT_UNDEF : intno == 2 ? CITCAT_FAULT_SVC : intno == 7 ? CITCAT_FAULT_BKPT
														  : CITCAT_FAULT_ABORT;
	if (expected_fault(p, kind, p->cur_pc, 0))
		return;
	diverge(p, "exception", "no exception other than the recorded interrupts", "exception %u (SVC, undefined or abort)", intno);
}

void citcat_replay_config_default(struct citcat_replay_config *c)
{
	if (!c)
		return;
	memset(c, 0, sizeof *c);
	c->size = sizeof *c;
}

/* Loads the IMS into RAM and the known-bytes bitmap. */
static int load_memory(struct replayer *p)
{
	size_t n = citcat_image_segments(p->ims.memory);
	for (size_t i = 0; i < n; i++) {
		uint64_t addr, len;
		const uint8_t *data;
		citcat_image_segment(p->ims.memory, i, &addr, &len, &data);
		if (addr < p->ram_base || addr + len > (uint64_t)p->ram_base + p->ram_size)
			return fail(p, CITCAT_ERR_CORRUPT, UINT64_MAX, "%s: memory at 0x%08llx lies outside RAM", p->cfg->ims_path,
				    (unsigned long long)addr);
		memcpy(p->ram + (addr - p->ram_base), data, (size_t)len);
		for (uint64_t b = 0; b < len; b++)
			kset(p->known, (uint32_t)(addr - p->ram_base + b));
	}
	return 0;
}

/* --verify: a CAT of another capture with the same configuration and start
 * point passes the checks made before the replay, and would then be reported
 * as a divergence.  Its trace id tells: read it to its STOP (after a
 * divergence the rest is still unread) and compare the id with the IMS's.
 * A different id replaces the divergence with an input error. */
static void check_cat_id(struct replayer *p)
{
	struct citcat_cat_event ev;
	int r = 1;
	while (!p->cat_stopped && (r = cat_next(p, &ev)) == 1)
		if ((p->cat_read & 0xffff) == 0 && p->cfg->progress &&
		    p->cfg->progress(p->cfg->progress_ctx, p->insns, p->total)) {
			p->failed = 0;
			fail(p, CITCAT_ERR_INTERRUPTED, UINT64_MAX, "interrupted");
			return;
		}
	if (r < 0) {
		p->failed = 0;
		p->res->diverged = 0;
		input_error(p, p->cfg->verify_cat, citcat_cat_reader_error(p->cat));
		return;
	}
	struct citcat_trace_id id;
	citcat_trace_id_make(citcat_cat_config(p->cat), p->cat_start, p->cat_insns, p->cat_bcount, p->cat_hash, &id);
	if (p->cat_stopped && id.hash == p->ims.id.hash)
		return;
	p->failed = 0;
	p->res->diverged = 0;
	fail(p, CITCAT_ERR_CORRUPT, UINT64_MAX, "%s is not the CAT %s was extracted from (trace id %016llx, expected %016llx)",
	     p->cfg->verify_cat, p->cfg->ims_path, p->cat_stopped ? (unsigned long long)id.hash : 0ull,
	     (unsigned long long)p->ims.id.hash);
}

int citcat_replay_run(const struct citcat_replay_config *ucfg, struct citcat_replay_result *res,
		      struct citcat_errinfo *err)
{
	struct citcat_errinfo dummy;
	if (!err)
		err = &dummy;
	memset(err, 0, sizeof *err);
	if (!res)
		return citcat_errinfo_set(err, CITCAT_ERR_INVAL, UINT64_MAX, "no result struct");
	memset(res, 0, sizeof *res);
	/* the caller's struct may be older or newer than ours (citcat/base.h) */
	struct citcat_replay_config cfgv;
	const struct citcat_replay_config *cfg = &cfgv;
	if (cc_config_from_user(&cfgv, sizeof cfgv, ucfg, offsetof(struct citcat_replay_config, aes_path) +
							 sizeof cfgv.aes_path) ||
	    !cfg->ims_path || !cfg->aes_path)
		return citcat_errinfo_set(err, CITCAT_ERR_INVAL, UINT64_MAX,
					  "bad replay configuration (IMS and AES required)");
	struct replayer *p = calloc(1, sizeof *p);
	if (!p)
		return CITCAT_ERR_NOMEM;
	p->cfg = cfg;
	p->res = res;
	p->err = err;
	double t0 = replay_now_s();
	int rc = 0;

	if ((rc = citcat_ims_read(cfg->ims_path, &p->ims, err))) {
		res->err_path = cfg->ims_path;
		goto out;
	}
	p->ram_base = p->ims.cfg.ram_base;
	p->ram_size = p->ims.cfg.ram_size;
	if ((rc = citcat_aes_reader_open(&p->aes, cfg->aes_path))) {
		input_error(p, cfg->aes_path, citcat_aes_reader_error(p->aes));
		goto out;
	}
	const struct citcat_trace_id *aid = citcat_aes_trace_id(p->aes);
	if (aid->hash != p->ims.id.hash) {
		rc = fail(p, CITCAT_ERR_CORRUPT, UINT64_MAX,
			  "%s and %s come from different captures (trace ids %016llx and %016llx)", cfg->ims_path,
			  cfg->aes_path, (unsigned long long)p->ims.id.hash, (unsigned long long)aid->hash);
		goto out;
	}
	p->total = p->ims.id.insns;
	if (cfg->verify_cat) {
		if ((rc = citcat_cat_reader_open(&p->cat, cfg->verify_cat))) {
			input_error(p, cfg->verify_cat, citcat_cat_reader_error(p->cat));
			goto out;
		}
		/* the CAT must be the one the IMS came from; skip to its start point */
		struct citcat_cat_event ev;
		uint32_t start = 0, repl[2] = {0, 0};
		while ((rc = cat_next(p, &ev)) == 1 && ev.kind != CITCAT_CAT_SYNC)
			;
		if (rc == 1) {
			start = ev.pc;
			repl[0] = ev.repl_state[0];
			repl[1] = ev.repl_state[1];
		}
		if (rc < 0) {
			input_error(p, cfg->verify_cat, citcat_cat_reader_error(p->cat));
			goto out;
		}
		if (rc != 1 || start != p->ims.id.start_pc || repl[0] != p->ims.repl_state[0] || repl[1] != p->ims.repl_state[1] ||
		    memcmp(citcat_cat_config(p->cat), &p->ims.cfg, sizeof p->ims.cfg) != 0) {
			rc = fail(p, CITCAT_ERR_CORRUPT, UINT64_MAX, "%s is not the CAT %s was extracted from", cfg->verify_cat,
				  cfg->ims_path);
			goto out;
		}
		rc = 0;
	}
	if (cfg->oracle && (rc = citcat_itrace_reader_open(&p->orc, cfg->oracle))) {
		input_error(p, cfg->oracle, citcat_itrace_reader_error(p->orc));
		goto out;
	}
	if (p->orc) /* DMA records are compared too */
		citcat_itrace_reader_dma(p->orc, 1);
	/* zero pages from the kernel, faulted in as the run touches them:
	 * clearing the whole RAM up front cost more than short replays */
	p->ram = mmap(NULL, p->ram_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p->ram == MAP_FAILED)
		p->ram = NULL;
	p->known = calloc(1, p->ram_size / 8 + 1);
	if (!p->ram || !p->known) {
		rc = fail(p, CITCAT_ERR_NOMEM, UINT64_MAX, "out of memory");
		goto out;
	}
	if ((rc = load_memory(p)))
		goto out;
	struct bus_sink sink = {sink_event, p};
	if ((rc = bus_init(&p->bus, &p->ims.cfg, p->ram, sink))) {
		fail(p, rc, UINT64_MAX, "%s: unusable cache configuration", cfg->ims_path);
		goto out;
	}
	/* the random-replacement generators as the trace module recorded them
	 * at P (TARGET.md): the caches are empty, but the generators are not
	 * reset by invalidation */
	if (cache_set_repl_state(&p->bus.ic, p->ims.repl_state[0]) || cache_set_repl_state(&p->bus.dc, p->ims.repl_state[1])) {
		rc = fail(p, CITCAT_ERR_CORRUPT, UINT64_MAX, "%s: replacement state does not fit the cache policy", cfg->ims_path);
		goto out;
	}
	uc_err ue = core_open(&p->uc, p->ram_base, p->ram_size, p->ram, p->ims.cfg.dev_base, p->ims.cfg.dev_size,
			      mmio_read, mmio_write, p);
	/* bus_dma writes RAM behind Unicorn's back, as in the capture model */
	p->bus.code_changed = core_code_changed;
	p->bus.code_ctx = p->uc;
	int itr = cfg->out_path || cfg->oracle || cfg->observer || cfg->on_record;
	struct core_hooks hooks = {hook_code, hook_mem, UC_HOOK_MEM_WRITE | (itr ? UC_HOOK_MEM_READ_AFTER : UC_HOOK_MEM_READ),
				   hook_unmapped, hook_intr};
	if (!ue)
		ue = core_add_hooks(p->uc, &hooks, p, p->ram_base, p->ram_size);
	if (!ue)
		ue = (uc_err)arm_set_state(p->uc, &p->ims.regs);
	if (ue) {
		rc = fail(p, CITCAT_ERR_UNICORN, UINT64_MAX, "Unicorn set-up failed: %s", uc_strerror(ue));
		goto out;
	}
	if (cfg->out_path && (rc = citcat_itrace_writer_open(&p->out, cfg->out_path, CITCAT_ISA_ARM_A32))) {
		fail(p, rc, UINT64_MAX, "%s: cannot create the instruction trace: %s", cfg->out_path,
		     rc == CITCAT_ERR_IO ? strerror(errno) : citcat_errstr(rc));
		goto out;
	}
	if (cfg->observer && cfg->observer->start) {
		uint32_t regs[CITCAT_OBS_NREGS];
		void *vals[CITCAT_OBS_NREGS];
		for (int i = 0; i < CITCAT_OBS_NREGS; i++)
			vals[i] = &regs[i];
		if (uc_reg_read_batch(p->uc, (int *)obs_regs, vals, CITCAT_OBS_NREGS) ||
		    (rc = cfg->observer->start(cfg->observer->ctx, regs))) {
			observe_failed(p, rc ? rc : CITCAT_ERR_UNICORN);
			rc = err->code;
			goto out;
		}
	}
	next_aes(p);
	if (cfg->progress && cfg->progress(cfg->progress_ctx, 0, p->total))
		fail(p, CITCAT_ERR_INTERRUPTED, UINT64_MAX, "interrupted before the first instruction");
	p->expect_pc = p->ims.regs.slot[ARM_SLOT_PC] & ~1u;
	uint32_t pc = p->expect_pc | ((p->ims.regs.slot[ARM_SLOT_CPSR] >> 5) & 1); /* bit 0 selects the state */
	while (!p->failed && !p->done) {
		ue = uc_emu_start(p->uc, pc, CORE_UNTIL, 0, 0);
		if (p->failed || p->done)
			break;
		pc = thumb_resume_pc(p->uc);
		if (ue == UC_ERR_INSN_INVALID && expected_fault(p, CITCAT_FAULT_UNDEF, pc & ~1u, 0))
			break; /* as the capture model: Unicorn stops at an undefined instruction */
		if (ue) {
			diverge(p, "execution", "the recorded run to continue", "Unicorn stopped at 0x%08x: %s", pc, uc_strerror(ue));
			break;
		}
		/* Unicorn ends a run, without an error or a code hook, when the PC
		 * reaches the until address: restarting there would loop forever
		 * (found by fuzz_replay).  It lies above RAM, so it is a fetch. */
		if ((pc & ~1u) == CORE_UNTIL) {
			pc &= ~1u;
			if (pc != p->expect_pc && !p->after_exception)
				p->bcount++; /* as in hook_unmapped */
			p->cur_pc = pc;
			p->cur_index = p->insns;
			if (!expected_fault(p, CITCAT_FAULT_FETCH, pc, pc))
				diverge(p, "instruction fetch", "an ARM instruction in RAM", "a fetch from 0x%08x", pc);
			break;
		}
	}
	if (!p->failed) {
		/* the run is complete: every record must have been used */
		if (!p->next_valid || p->next.kind != CITCAT_AES_END)
			diverge(p, "event schedule", "the END record", "unused %s record(s) remain",
				p->next_valid ? citcat_aes_kind_name(p->next.kind) : "?");
		else if (p->next.insns != p->insns)
			diverge(p, "event schedule", "the END record's instruction count", "%llu instructions",
				(unsigned long long)p->insns);
		else if (p->next.bcount != p->bcount)
			diverge(p, "event schedule", "the END record's branch count", "%llu branches",
				(unsigned long long)p->bcount);
		else if (p->next.line == CITCAT_STOP_FAULT && !p->fault_seen) {
			char exp[200];
			snprintf(exp, sizeof exp, "%s at 0x%08x, address 0x%08x", citcat_fault_kind_name((unsigned)p->next.value),
				 p->next.pc, p->next.addr);
			diverge(p, "fault", exp, "no fault");
		}
	}
	if (!p->failed) {
		/* read past the END record to the container's end marker, so a
		 * truncated or extended AES is not taken as complete */
		struct citcat_aes_rec extra;
		int r2 = citcat_aes_next(p->aes, &extra);
		if (r2 < 0)
			input_error(p, cfg->aes_path, citcat_aes_reader_error(p->aes));
		else if (r2 == 1)
			fail(p, CITCAT_ERR_CORRUPT, UINT64_MAX, "%s: records follow the END record", cfg->aes_path);
	}
	if (!p->failed && p->orc) {
		int r2 = citcat_itrace_next(p->orc, &p->orec);
		if (r2 == 1)
			diverge(p, "instruction trace", "more instructions (the oracle goes on)", "the end of the replay");
		else if (r2 < 0)
			input_error(p, cfg->oracle, citcat_itrace_reader_error(p->orc));
	}
	if (!p->failed && p->cat) {
		struct citcat_cat_event ev;
		int r2 = cat_next(p, &ev);
		if (r2 == 1 && ev.kind != CITCAT_CAT_STOP) {
			char want[200];
			describe_event(want, sizeof want, &ev);
			diverge(p, "bus trace", want, "the end of the replay");
		} else if (r2 < 0) {
			input_error(p, cfg->verify_cat, citcat_cat_reader_error(p->cat));
		}
		/* the rest of the CAT (after STOP) up to its end marker */
		while (!p->failed && r2 == 1 && (r2 = cat_next(p, &ev)) == 1)
			;
		if (!p->failed && r2 < 0)
			input_error(p, cfg->verify_cat, citcat_cat_reader_error(p->cat));
	}
	if (p->cat && p->failed != 2)
		check_cat_id(p);
	if (p->failed == 1) {
		rc = CITCAT_ERR_DIVERGED;
	} else if (p->failed) {
		rc = err->code ? err->code : CITCAT_ERR_INTERNAL;
	} else if (p->out) {
		rc = citcat_itrace_writer_close(p->out);
		p->out = NULL;
		if (rc)
			fail(p, rc, UINT64_MAX, "%s: writing the instruction trace failed: %s", cfg->out_path,
			     rc == CITCAT_ERR_IO ? strerror(errno) : citcat_errstr(rc));
	}
out:
	res->insns = p->insns;
	res->seconds = replay_now_s() - t0;
	citcat_itrace_writer_abort(p->out);
	citcat_itrace_reader_close(p->orc);
	citcat_cat_reader_close(p->cat);
	citcat_aes_reader_close(p->aes);
	if (p->uc)
		uc_close(p->uc);
	if (p->bus.ic.tag)
		bus_fini(&p->bus);
	citcat_ims_fini(&p->ims);
	if (p->ram)
		munmap(p->ram, p->ram_size);
	free(p->known);
	free(p);
	return rc;
}

/* The bare baseline's device window: reads take the AES's device input and
 * counter values in order, so polling loops see what the recorded run saw
 * and the path stays the recorded one until the first interrupt or DMA
 * matters; writes are dropped.  No per-instruction cost. */
static uint64_t bare_mmio_read(uc_engine *uc, uint64_t off, unsigned size, void *ctx)
{
	struct citcat_aes_rec rec;
	while (citcat_aes_next(ctx, &rec) == 1)
		if (rec.kind == CITCAT_AES_INPUT || rec.kind == CITCAT_AES_COUNTER)
			return rec.value;
	return 0;
}

static void bare_mmio_write(uc_engine *uc, uint64_t off, unsigned size, uint64_t value, void *ctx) {}

double citcat_replay_bare_seconds(const char *ims_path, const char *aes_path, uint64_t insns,
				  struct citcat_errinfo *err)
{
	struct citcat_ims ims;
	if (citcat_ims_read(ims_path, &ims, err))
		return -1;
	struct citcat_aes_reader *aes = NULL;
	if (aes_path && citcat_aes_reader_open(&aes, aes_path)) {
		if (err)
			*err = *citcat_aes_reader_error(aes);
		citcat_aes_reader_close(aes);
		citcat_ims_fini(&ims);
		return -1;
	}
	uint8_t *ram = aligned_alloc(4096, ims.cfg.ram_size);
	double t = -1;
	uc_engine *uc = NULL;
	if (ram) {
		memset(ram, 0, ims.cfg.ram_size);
		for (size_t i = 0; i < citcat_image_segments(ims.memory); i++) {
			uint64_t addr, len;
			const uint8_t *data;
			citcat_image_segment(ims.memory, i, &addr, &len, &data);
			memcpy(ram + (addr - ims.cfg.ram_base), data, (size_t)len);
		}
		/* Unicorn ends uc_emu_start at a WFI (the core halts), which would
		 * time a fraction of INSNS: make every WFI a NOP, so a firmware that
		 * sleeps spins instead (no interrupt ever comes here) */
		for (uint32_t off = 0; off + 4 <= ims.cfg.ram_size; off += 4) {
			uint32_t w;
			memcpy(&w, ram + off, 4);
			if (core_is_wfi(w)) {
				w = (w & 0xF0000000u) | 0x0320F000u;
				memcpy(ram + off, &w, 4);
			}
		}
		/* same code, same start state, no hooks; without an AES the device
		 * window is plain memory, so the path differs after the first device
		 * access */
		uc_err ue = core_open(&uc, ims.cfg.ram_base, ims.cfg.ram_size, ram, ims.cfg.dev_base, ims.cfg.dev_size,
				      aes ? bare_mmio_read : NULL, bare_mmio_write, aes);
		if (!ue)
			ue = (uc_err)arm_set_state(uc, &ims.regs);
		if (!ue) {
			double t0 = replay_now_s();
			ue = uc_emu_start(uc, ims.regs.slot[ARM_SLOT_PC], CORE_UNTIL, 0, insns);
			t = replay_now_s() - t0;
		}
		if (ue) { /* an error stops it early: the time would not be for INSNS */
			t = -1;
			if (err) {
				uint32_t pc = 0;
				if (uc)
					uc_reg_read(uc, UC_ARM_REG_PC, &pc);
				err->code = CITCAT_ERR_UNICORN;
				err->offset = UINT64_MAX;
				snprintf(err->msg, sizeof err->msg, "bare Unicorn run stopped early at 0x%08x: %s", pc,
					 uc_strerror(ue));
			}
		}
	} else if (err) {
		err->code = CITCAT_ERR_NOMEM;
		err->offset = UINT64_MAX;
		snprintf(err->msg, sizeof err->msg, "out of memory");
	}
	if (uc)
		uc_close(uc);
	citcat_aes_reader_close(aes);
	free(ram);
	citcat_ims_fini(&ims);
	return t;
}
