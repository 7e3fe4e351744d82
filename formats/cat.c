/* CAT writer and reader: see CAT.md. */
#include "cat.h"
#include "bytes.h"
#include "cachecfg.h"
#include "container.h"
#include <citcat/symbols.h>

#include <limits.h>

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAGIC "CCAT\r\n\x1a\n"
#define CHUNK (1u << 20)

void citcat_target_config_default(struct citcat_target_config *c)
{
	if (!c)
		return;
	memset(c, 0, sizeof *c);
	c->isa = 1;
	c->ram_base = 0;
	c->ram_size = 16u << 20;
	c->dev_base = CITCAT_DEV_BASE;
	c->dev_size = CITCAT_DEV_SIZE;
	c->icache = (struct citcat_cache_config){16384, 4, 32, CITCAT_REPL_LRU, 0, 1};
	c->dcache = (struct citcat_cache_config){16384, 4, 32, CITCAT_REPL_LRU, 0, 2};
	c->pen_miss = 20;
	c->pen_wb = 20;
	c->pen_uncached = 10;
	c->dma_interval = 4;
	c->dma_burst = 8;
	c->uart_rate = 2000;
}

static void enc_cache(const struct citcat_cache_config *k, uint8_t *p)
{
	cc_put32(p, k->size);
	cc_put32(p + 4, k->ways);
	cc_put32(p + 8, k->line);
	p[12] = k->repl;
	p[13] = k->write_through;
	cc_put16(p + 14, 0);
	cc_put32(p + 16, k->seed);
}

static void dec_cache(const uint8_t *p, struct citcat_cache_config *k)
{
	k->size = cc_get32(p);
	k->ways = cc_get32(p + 4);
	k->line = cc_get32(p + 8);
	k->repl = p[12];
	k->write_through = p[13];
	k->seed = cc_get32(p + 16);
}

void citcat_target_config_encode(const struct citcat_target_config *c, uint8_t *p)
{
	cc_put32(p, c->isa);
	cc_put32(p + 4, c->ram_base);
	cc_put32(p + 8, c->ram_size);
	cc_put32(p + 12, c->dev_base);
	cc_put32(p + 16, c->dev_size);
	enc_cache(&c->icache, p + 20);
	enc_cache(&c->dcache, p + 40);
	cc_put32(p + 60, c->pen_miss);
	cc_put32(p + 64, c->pen_wb);
	cc_put32(p + 68, c->pen_uncached);
	cc_put32(p + 72, c->timestamps);
	cc_put64(p + 76, c->seed);
	cc_put32(p + 84, c->dma_interval);
	cc_put32(p + 88, c->dma_burst);
	cc_put32(p + 92, c->uart_rate);
}

int citcat_target_config_reserved(const uint8_t *p, const char **why)
{
	static const struct {
		unsigned off, len;
		const char *what;
	} res[] = {
		{33, 1, "I-cache write-through byte is not 0 (the I-cache is never written)"},
		{34, 2, "I-cache reserved bytes are not 0"},
		{54, 2, "D-cache reserved bytes are not 0"},
	};
	for (size_t i = 0; i < sizeof res / sizeof *res; i++)
		for (unsigned k = 0; k < res[i].len; k++)
			if (p[res[i].off + k])
				return *why = res[i].what, (int)(res[i].off + k);
	if (p[53] > 1)
		return *why = "D-cache write-through byte is neither 0 nor 1", 53;
	if (cc_get32(p + 72) & ~1u)
		return *why = "reserved configuration flag bits are set", 72;
	return -1;
}

int citcat_target_config_decode(const uint8_t *p, size_t len, struct citcat_target_config *c, const char **why)
{
	if (len < CITCAT_TARGET_META_LEN)
		return *why = "target configuration is too short", CITCAT_ERR_CORRUPT;
	if (citcat_target_config_reserved(p, why) >= 0)
		return CITCAT_ERR_CORRUPT;
	c->isa = cc_get32(p);
	c->ram_base = cc_get32(p + 4);
	c->ram_size = cc_get32(p + 8);
	c->dev_base = cc_get32(p + 12);
	c->dev_size = cc_get32(p + 16);
	dec_cache(p + 20, &c->icache);
	dec_cache(p + 40, &c->dcache);
	c->pen_miss = cc_get32(p + 60);
	c->pen_wb = cc_get32(p + 64);
	c->pen_uncached = cc_get32(p + 68);
	c->timestamps = cc_get32(p + 72);
	c->seed = cc_get64(p + 76);
	c->dma_interval = cc_get32(p + 84);
	c->dma_burst = cc_get32(p + 88);
	c->uart_rate = cc_get32(p + 92);
	if (c->isa != CITCAT_TARGET_ARMV7A && c->isa != CITCAT_TARGET_CORTEX_M7)
		return *why = "unknown ISA in the target configuration", CITCAT_ERR_UNSUPPORTED;
	if (c->ram_size == 0 || c->ram_size > (1u << 30) || (c->ram_size & 4095) || (c->ram_base & 4095) ||
	    (uint64_t)c->ram_base + c->ram_size > c->dev_base)
		return *why = "impossible RAM size or base", CITCAT_ERR_CORRUPT;
	if (c->dev_base != CITCAT_DEV_BASE || c->dev_size != CITCAT_DEV_SIZE)
		return *why = "unknown device window", CITCAT_ERR_UNSUPPORTED;
	if (cache_config_check(&c->icache, why) || cache_config_check(&c->dcache, why))
		return CITCAT_ERR_CORRUPT;
	if (c->timestamps > 1)
		return *why = "unknown configuration flags", CITCAT_ERR_CORRUPT;
	return 0;
}

static const char *const kind_names[CITCAT_CAT_KINDS] = {
	"?", "fill_i", "fill_d", "writeback", "write", "uncached_read", "uncached_write",
	"dma", "irq", "start", "sync", "stop", "ckpt", "exc",
};

const char *citcat_cat_kind_name(unsigned kind) { return kind < CITCAT_CAT_KINDS ? kind_names[kind] : "?"; }

static const char *const stop_names[CITCAT_STOP_REASONS] = {
	"exit", "command", "insn-limit", "fault", "wfi-deadlock", "interrupted",
};

const char *citcat_stop_reason_name(unsigned r) { return r < CITCAT_STOP_REASONS ? stop_names[r] : "?"; }

static const char *const fault_names[CITCAT_FAULT_KINDS] = {
	"?", "bus error (read of an unmapped address)", "bus error (write to an unmapped address)",
	"bus error (instruction fetch outside RAM)", "bus error (device register read)",
	"bus error (device register write)", "undefined instruction", "supervisor call (SVC)", "breakpoint (BKPT)",
	"abort", "branch into Thumb state", "exception that cannot be taken (Cortex-M7)",
};

const char *citcat_fault_kind_name(unsigned k) { return k && k < CITCAT_FAULT_KINDS ? fault_names[k] : "?"; }

const char *citcat_m7_exception_name(unsigned exc)
{
	static const char *const names[16] = {"?",	  "Reset",	"NMI",	      "HardFault",
					      "MemManage", "BusFault",	"UsageFault", "?",
					      "?",	   "?",		"?",	      "SVCall",
					      "DebugMonitor", "?",	"PendSV",     "SysTick"};
	return exc < 16 ? names[exc] : exc < 512 ? "IRQ" : "?";
}

int citcat_m7_fault_describe(const struct citcat_m7_fault *f, char *buf, size_t n)
{
	if (!f || !buf)
		return CITCAT_ERR_INVAL;
	/* the status bits by name, HFSR first (the escalation), then CFSR's
	 * MMFSR, BFSR, UFSR (ARMv7-M ARM, B3.2.15 and B3.2.16) */
	static const struct {
		int hfsr;
		uint32_t bit;
		const char *name;
	} bits[] = {
		{1, 1u << 1, "VECTTBL"},   {1, 1u << 30, "FORCED"},	 {1, 1u << 31, "DEBUGEVT"},
		{0, 1u << 0, "IACCVIOL"},  {0, 1u << 1, "DACCVIOL"},	 {0, 1u << 3, "MUNSTKERR"},
		{0, 1u << 4, "MSTKERR"},   {0, 1u << 5, "MLSPERR"},	 {0, 1u << 8, "IBUSERR"},
		{0, 1u << 9, "PRECISERR"}, {0, 1u << 10, "IMPRECISERR"}, {0, 1u << 11, "UNSTKERR"},
		{0, 1u << 12, "STKERR"},   {0, 1u << 13, "LSPERR"},	 {0, 1u << 16, "UNDEFINSTR"},
		{0, 1u << 17, "INVSTATE"}, {0, 1u << 18, "INVPC"},	 {0, 1u << 19, "NOCP"},
		{0, 1u << 24, "UNALIGNED"}, {0, 1u << 25, "DIVBYZERO"},
	};
	size_t len = 0;
#define PUT(...)                                                                                   \
	do {                                                                                       \
		int k_ = snprintf(buf + (len < n ? len : n), len < n ? n - len : 0, __VA_ARGS__); \
		len += k_ > 0 ? (size_t)k_ : 0;                                                    \
	} while (0)
	if (n)
		buf[0] = 0;
	if (f->exc >= 16)
		PUT("IRQ %u", f->exc - 16);
	else
		PUT("%s", citcat_m7_exception_name(f->exc));
	for (size_t i = 0; i < sizeof bits / sizeof *bits; i++)
		if ((bits[i].hfsr ? f->hfsr : f->cfsr) & bits[i].bit)
			PUT(" %s", bits[i].name);
	if (f->cfsr & CITCAT_M7_CFSR_MMARVALID)
		PUT(", MMFAR 0x%08x", f->mmfar);
	if (f->cfsr & CITCAT_M7_CFSR_BFARVALID)
		PUT(", BFAR 0x%08x", f->bfar);
#undef PUT
	return len > INT32_MAX ? INT32_MAX : (int)len;
}

/* Per-chunk delta state (reset at every chunk, so chunks decode alone). */
struct dstate {
	uint32_t mem_addr, dev_addr, pc;
	uint64_t bcount, cycle;
};

struct citcat_cat_writer {
	struct cc_writer *cw;
	struct citcat_target_config cfg;
	struct dstate st;
	struct citcat_m7_fault m7f; /* what a STOP of fault kind 11 records (version 7) */
	struct citcat_errinfo err;
};

struct citcat_cat_reader {
	struct cc_reader *cr;
	struct citcat_target_config cfg;
	struct cc_cursor cur;
	struct dstate st;
	struct citcat_errinfo err;
	unsigned max_stop; /* the highest stop reason the file's version has */
	int has_ckpt;      /* version 5 and later: kind 12 CKPT exists */
	int has_mark;      /* version 6 and later: every CKPT starts a marked chunk */
	int has_wsize;     /* version 8 and later: WRITE size codes 3 (8 bytes) and 4 (3 bytes) */
	int started;       /* an event was read */
	int has_elf;
	struct citcat_cat_elf elf; /* version 4: the firmware, when recorded */
	int has_m7f_field;          /* version 7 and later: a STOP of fault kind 11 has the M7 fault status */
	int has_m7f;                /* such a STOP was read: M7F holds its status */
	struct citcat_m7_fault m7f;
};

/* The ELF record after the configuration (CAT.md, "Metadata"): build-id
 * length, a reserved byte, path length (u16), build id, path. */
#define ELF_REC_HEAD 4

int citcat_cat_writer_open_elf(struct citcat_cat_writer **out, const char *path, const struct citcat_target_config *cfg,
			       const char *elf_path)
{
	if (!out)
		return CITCAT_ERR_INVAL;
	*out = NULL;
	if (!cfg)
		return CITCAT_ERR_INVAL;
	const char *why;
	uint8_t meta[CITCAT_TARGET_META_LEN + ELF_REC_HEAD + CITCAT_CAT_BUILD_ID_MAX + CITCAT_CAT_ELF_PATH_MAX];
	size_t mlen = CITCAT_TARGET_META_LEN;
	citcat_target_config_encode(cfg, meta);
	struct citcat_target_config chk;
	if (citcat_target_config_decode(meta, CITCAT_TARGET_META_LEN, &chk, &why))
		return CITCAT_ERR_INVAL;
	if (elf_path) {
		char abs[PATH_MAX];
		const char *p = realpath(elf_path, abs) ? abs : elf_path;
		size_t plen = strlen(p), blen = 0;
		uint8_t *rec = meta + CITCAT_TARGET_META_LEN;
		if (plen > CITCAT_CAT_ELF_PATH_MAX)
			plen = 0; /* too long to record: recorded as unknown */
		if (citcat_elf_build_id(elf_path, rec + ELF_REC_HEAD, CITCAT_CAT_BUILD_ID_MAX, &blen, NULL) != 1)
			blen = 0;
		rec[0] = (uint8_t)blen;
		rec[1] = 0;
		cc_put16(rec + 2, (uint16_t)plen);
		memcpy(rec + ELF_REC_HEAD + blen, p, plen);
		mlen += ELF_REC_HEAD + blen + plen;
	}
	struct citcat_cat_writer *w = calloc(1, sizeof *w);
	if (!w)
		return CITCAT_ERR_NOMEM;
	w->cfg = *cfg;
	int rc = cc_writer_open(&w->cw, path, MAGIC, CITCAT_CAT_VERSION, meta, (uint32_t)mlen, CHUNK);
	*out = w; /* holds the error: the caller aborts it (citcat/base.h) */
	if (rc)
		return citcat_errinfo_set(&w->err, rc, UINT64_MAX, "%s", cc_writer_open_error()->msg);
	return 0;
}

int citcat_cat_writer_open(struct citcat_cat_writer **out, const char *path, const struct citcat_target_config *cfg)
{
	return citcat_cat_writer_open_elf(out, path, cfg, NULL);
}

/* The size code of an access of SIZE bytes (CAT.md, "Size codes"), or -1
 * when the record cannot hold it: 1, 2 and 4 bytes for every kind; for a
 * WRITE also 8 (a doubleword store, STREXD) and 3 (the part of a store
 * that falls in one line, when a write-through store crossing a line is
 * split at the boundary), both from version 8.  Before version 8 the
 * writer wrote any other size as code 2 (4 bytes), and the reader's
 * address predictor then ran ahead of the writer's (issue 36). */
static int size_code(unsigned kind, unsigned size)
{
	switch (size) {
	case 1: return 0;
	case 2: return 1;
	case 4: return 2;
	case 8: return kind == CITCAT_CAT_WRITE ? 3 : -1;
	case 3: return kind == CITCAT_CAT_WRITE ? 4 : -1;
	default: return -1;
	}
}

/* The access size a size code stands for (0 for a code the format has not). */
static unsigned code_size(unsigned code) { return code < 4 ? 1u << code : code == 4 ? 3 : 0; }

int citcat_cat_writer_m7_fault(struct citcat_cat_writer *w, const struct citcat_m7_fault *f)
{
	if (!w || !f || w->cfg.isa != CITCAT_TARGET_CORTEX_M7)
		return CITCAT_ERR_INVAL;
	w->m7f = *f;
	return 0;
}

int citcat_cat_write(struct citcat_cat_writer *w, const struct citcat_cat_event *ev)
{
	if (!w || !ev)
		return CITCAT_ERR_INVAL;
	uint32_t len = ev->kind == CITCAT_CAT_FILL_I ? w->cfg.icache.line
		       : (ev->kind == CITCAT_CAT_FILL_D || ev->kind == CITCAT_CAT_WRITEBACK) ? w->cfg.dcache.line
		       : ev->kind == CITCAT_CAT_DMA ? ev->len : 0;
	if (ev->kind == 0 || ev->kind >= CITCAT_CAT_KINDS ||
	    (ev->kind == CITCAT_CAT_DMA && (ev->len == 0 || ev->len > 4096)))
		return CITCAT_ERR_INVAL;
	/* the M7 records exceptions as EXC, the A target interrupts as IRQ (CAT.md) */
	int m7 = w->cfg.isa == CITCAT_TARGET_CORTEX_M7;
	if ((ev->kind == CITCAT_CAT_EXC && (!m7 || ev->value < 2 || ev->value > 511)) || (ev->kind == CITCAT_CAT_IRQ && m7) ||
	    (ev->kind == CITCAT_CAT_STOP && ev->line == CITCAT_STOP_FAULT && ev->value == CITCAT_FAULT_EXCEPTION && !m7))
		return CITCAT_ERR_INVAL;
	if (ev->kind == CITCAT_CAT_IRQ && ev->line > 15)
		return CITCAT_ERR_INVAL; /* the 4-bit line field (CAT.md): never truncated to another line */
	if ((ev->kind == CITCAT_CAT_WRITE || ev->kind == CITCAT_CAT_UREAD || ev->kind == CITCAT_CAT_UWRITE) &&
	    (size_code(ev->kind, ev->size) < 0 || (ev->size < 8 && ev->value >> (8 * ev->size))))
		return CITCAT_ERR_INVAL; /* a size the record has no code for, or a value wider than it */
	if (ev->kind == CITCAT_CAT_STOP &&
	    (ev->line >= CITCAT_STOP_REASONS ||
	     (ev->line == CITCAT_STOP_FAULT && (ev->value == 0 || ev->value >= CITCAT_FAULT_KINDS))))
		return CITCAT_ERR_INVAL;
	if ((ev->kind == CITCAT_CAT_SYNC || ev->kind == CITCAT_CAT_CKPT) && (!cache_repl_state_valid(&w->cfg.icache, ev->repl_state[0]) ||
					   !cache_repl_state_valid(&w->cfg.dcache, ev->repl_state[1])))
		return CITCAT_ERR_INVAL; /* a file its reader would reject */
	/* version 6: a checkpoint starts a marked chunk (CAT.md), so that a
	 * reader can open a segment by the chunk headers alone */
	uint8_t *buf = ev->kind == CITCAT_CAT_CKPT && cc_writer_mark(w->cw) ? NULL : cc_writer_reserve(w->cw, 96 + len);
	if (!buf) {
		w->err = *cc_writer_error(w->cw);
		return w->err.code;
	}
	struct dstate *s = &w->st;
	if (cc_writer_chunk_used(w->cw) == 0)
		memset(s, 0, sizeof *s);
	uint8_t *p = buf;
	uint8_t *head = p++;
	unsigned flags = 0;
	if (w->cfg.timestamps) {
		p += cc_put_uvar(p, ev->cycle - s->cycle);
		s->cycle = ev->cycle;
	}
	switch (ev->kind) {
	case CITCAT_CAT_FILL_I:
	case CITCAT_CAT_FILL_D:
	case CITCAT_CAT_WRITEBACK:
	case CITCAT_CAT_DMA:
		p += cc_put_uvar(p, cc_zigzag((int64_t)ev->addr - (int64_t)s->mem_addr));
		s->mem_addr = ev->addr + len;
		if (ev->kind == CITCAT_CAT_DMA) {
			p += cc_put_uvar(p, ev->len);
			p += cc_put_uvar(p, ev->bcount - s->bcount);
			s->bcount = ev->bcount;
			p += cc_put_uvar(p, cc_zigzag((int64_t)ev->pc - (int64_t)s->pc));
			s->pc = ev->pc;
		}
		memcpy(p, ev->data, len);
		p += len;
		break;
	case CITCAT_CAT_WRITE:
		flags = (unsigned)size_code(ev->kind, ev->size);
		p += cc_put_uvar(p, cc_zigzag((int64_t)ev->addr - (int64_t)s->mem_addr));
		s->mem_addr = ev->addr + ev->size;
		p += cc_put_uvar(p, ev->value);
		break;
	case CITCAT_CAT_UREAD:
	case CITCAT_CAT_UWRITE:
		flags = (unsigned)size_code(ev->kind, ev->size);
		p += cc_put_uvar(p, cc_zigzag((int64_t)ev->addr - (int64_t)s->dev_addr));
		s->dev_addr = ev->addr;
		p += cc_put_uvar(p, ev->value);
		break;
	case CITCAT_CAT_EXC:
		p += cc_put_uvar(p, ev->value);
		/* fall through */
	case CITCAT_CAT_IRQ:
		if (ev->kind == CITCAT_CAT_IRQ)
			flags = ev->line & 15;
		p += cc_put_uvar(p, ev->bcount - s->bcount);
		s->bcount = ev->bcount;
		p += cc_put_uvar(p, cc_zigzag((int64_t)ev->pc - (int64_t)s->pc));
		s->pc = ev->pc;
		break;
	case CITCAT_CAT_START:
		break;
	case CITCAT_CAT_SYNC:
		p += cc_put_uvar(p, ev->pc);
		p += cc_put_uvar(p, ev->repl_state[0]);
		p += cc_put_uvar(p, ev->repl_state[1]);
		s->pc = ev->pc;
		s->bcount = 0;
		break;
	case CITCAT_CAT_CKPT: /* absolute values, like STOP; the delta state is unchanged */
		p += cc_put_uvar(p, ev->pc);
		p += cc_put_uvar(p, ev->insns);
		p += cc_put_uvar(p, ev->bcount);
		p += cc_put_uvar(p, ev->repl_state[0]);
		p += cc_put_uvar(p, ev->repl_state[1]);
		break;
	case CITCAT_CAT_STOP:
		flags = ev->line & 15;
		p += cc_put_uvar(p, ev->insns);
		p += cc_put_uvar(p, ev->bcount);
		p += cc_put_uvar(p, ev->cycle);
		if (ev->line == CITCAT_STOP_FAULT) {
			p += cc_put_uvar(p, ev->value);
			p += cc_put_uvar(p, ev->pc);
			p += cc_put_uvar(p, ev->addr);
			if (ev->value == CITCAT_FAULT_EXCEPTION) { /* version 7: the M7 fault status */
				p += cc_put_uvar(p, w->m7f.cfsr);
				p += cc_put_uvar(p, w->m7f.hfsr);
				if (w->m7f.cfsr & CITCAT_M7_CFSR_MMARVALID)
					p += cc_put_uvar(p, w->m7f.mmfar);
				if (w->m7f.cfsr & CITCAT_M7_CFSR_BFARVALID)
					p += cc_put_uvar(p, w->m7f.bfar);
			}
		}
		break;
	}
	*head = (uint8_t)(ev->kind | (flags << 4));
	cc_writer_commit(w->cw, (size_t)(p - buf), 1);
	return 0;
}

int citcat_cat_writer_close(struct citcat_cat_writer *w) { return w ? cc_stream_writer_end(w, 0) : CITCAT_ERR_INVAL; }
void citcat_cat_writer_abort(struct citcat_cat_writer *w) { cc_stream_writer_abort(w); }

const struct citcat_errinfo *citcat_cat_writer_error(const struct citcat_cat_writer *w) { return w ? &w->err : NULL; }
uint64_t citcat_cat_writer_bytes(const struct citcat_cat_writer *w) { return w ? cc_writer_bytes(w->cw) : 0; }

/* ---- reader ---- */

/* Version 4: the ELF record after the configuration, N bytes at P (file
 * offset 16 + 96). */
static int read_elf_rec(struct citcat_cat_reader *r, const uint8_t *p, uint32_t n)
{
	const uint64_t base = 16 + CITCAT_TARGET_META_LEN;
	const char *why = NULL;
	uint64_t off = base;
	uint32_t blen = n >= ELF_REC_HEAD ? p[0] : 0, plen = n >= ELF_REC_HEAD ? cc_get16(p + 2) : 0;
	if (n < ELF_REC_HEAD)
		why = "the ELF record is cut short";
	else if (blen > CITCAT_CAT_BUILD_ID_MAX)
		why = "the ELF record's build id is longer than 64 bytes";
	else if (p[1] && (off = base + 1))
		why = "the ELF record's reserved byte is not 0";
	else if (plen > CITCAT_CAT_ELF_PATH_MAX && (off = base + 2))
		why = "the ELF record's path is longer than 4095 bytes";
	else if (n != ELF_REC_HEAD + blen + plen && (off = 12))
		why = "the metadata length does not match the ELF record's";
	else if (memchr(p + ELF_REC_HEAD + blen, 0, plen)) {
		off = base + (uint64_t)((const uint8_t *)memchr(p + ELF_REC_HEAD + blen, 0, plen) - p);
		why = "the ELF record's path contains a NUL byte";
	}
	if (why) {
		r->err.code = CITCAT_ERR_CORRUPT;
		r->err.offset = off;
		snprintf(r->err.msg, sizeof r->err.msg, "CAT header: %s", why);
		return r->err.code;
	}
	r->has_elf = 1;
	r->elf.build_id_len = (uint8_t)blen;
	memcpy(r->elf.build_id, p + ELF_REC_HEAD, blen);
	memcpy(r->elf.path, p + ELF_REC_HEAD + blen, plen);
	r->elf.path[plen] = 0;
	return 0;
}

static int reader_init(void *obj)
{
	struct citcat_cat_reader *r = obj;
	if (cc_reader_version(r->cr) < CITCAT_CAT_MIN_VERSION) {
		/* version 1 lacks the replacement state at P (CAT.md, Version changes) */
		r->err.code = CITCAT_ERR_VERSION;
		r->err.offset = 8;
		snprintf(r->err.msg, sizeof r->err.msg,
			 "format version %u is not supported (this build reads CAT versions %u to %u; capture again)",
			 cc_reader_version(r->cr), CITCAT_CAT_MIN_VERSION, CITCAT_CAT_VERSION);
		return r->err.code;
	}
	/* version 2 has the normal ends only (CAT.md, Version changes) */
	r->max_stop = cc_reader_version(r->cr) == 2 ? CITCAT_STOP_LIMIT : CITCAT_STOP_REASONS - 1;
	r->has_ckpt = cc_reader_version(r->cr) >= 5;
	r->has_mark = cc_reader_version(r->cr) >= 6;
	r->has_m7f_field = cc_reader_version(r->cr) >= 7;
	r->has_wsize = cc_reader_version(r->cr) >= 8;
	if (r->has_mark)
		cc_reader_allow_mark(r->cr);
	uint32_t ml;
	const uint8_t *m = cc_reader_meta(r->cr, &ml);
	const char *why = NULL;
	int roff = ml >= CITCAT_TARGET_META_LEN ? citcat_target_config_reserved(m, &why) : -1;
	int rc = citcat_target_config_decode(m, ml, &r->cfg, &why);
	if (rc) {
		r->err.code = rc;
		r->err.offset = 16 + (roff >= 0 ? (unsigned)roff : 0);
		snprintf(r->err.msg, sizeof r->err.msg, "CAT header: %s", why);
		return rc;
	}
	if (r->cfg.isa == CITCAT_TARGET_CORTEX_M7 && cc_reader_version(r->cr) < 5) {
		r->err.code = CITCAT_ERR_CORRUPT;
		r->err.offset = 16;
		snprintf(r->err.msg, sizeof r->err.msg, "CAT header: isa 2 (Cortex-M7) in a version %u file (from version 5 on)",
			 cc_reader_version(r->cr));
		return r->err.code;
	}
	if (cc_reader_version(r->cr) >= 4 && ml > CITCAT_TARGET_META_LEN)
		rc = read_elf_rec(r, m + CITCAT_TARGET_META_LEN, ml - CITCAT_TARGET_META_LEN);
	return rc;
}

static const struct cc_stream_kind reader_kind = {MAGIC, CITCAT_CAT_VERSION, sizeof(struct citcat_cat_reader), offsetof(struct citcat_cat_reader, err),
							reader_init};

CC_STREAM_READER_FUNCS(citcat_cat_reader, struct citcat_cat_reader, &reader_kind)

int citcat_cat_m7_fault(const struct citcat_cat_reader *r, struct citcat_m7_fault *f)
{
	if (!r || !f)
		return CITCAT_ERR_INVAL;
	if (!r->has_m7f) {
		memset(f, 0, sizeof *f);
		return 0;
	}
	*f = r->m7f;
	return 1;
}

const struct citcat_target_config *citcat_cat_config(const struct citcat_cat_reader *r) { return r ? &r->cfg : NULL; }
const struct citcat_errinfo *citcat_cat_reader_error(const struct citcat_cat_reader *r) { return r ? &r->err : NULL; }
const struct citcat_cat_elf *citcat_cat_elf(const struct citcat_cat_reader *r) { return r && r->has_elf ? &r->elf : NULL; }
uint64_t citcat_cat_reader_offset(const struct citcat_cat_reader *r) { return r ? cc_reader_chunk_offset(r->cr) : 0; }

int citcat_cat_reader_seek_segment(struct citcat_cat_reader *r, uint64_t k)
{
	if (!r || r->started)
		return CITCAT_ERR_INVAL;
	if (!r->has_mark || k == 0 || r->err.code)
		return 0;
	cc_reader_skip_to_mark(r->cr, k);
	return 1;
}
uint64_t citcat_cat_reader_file_size(const struct citcat_cat_reader *r) { return r ? cc_reader_file_size(r->cr) : 0; }

static int bad(struct citcat_cat_reader *r, const uint8_t *at, const char *what)
{
	return cc_stream_bad(r->cr, &r->cur, &r->err, at, "CAT event", what);
}

int citcat_cat_next(struct citcat_cat_reader *r, struct citcat_cat_event *ev)
{
	if (!r || !ev)
		return CITCAT_ERR_INVAL;
	if (r->err.code)
		return r->err.code;
	r->started = 1;
	int rc = cc_stream_next(r->cr, &r->cur, &r->err);
	if (rc <= 0)
		return rc;
	if (rc == 2)
		memset(&r->st, 0, sizeof r->st);
	struct dstate *s = &r->st;
	const uint8_t *p = r->cur.p, *end = r->cur.end, *start = p;
	uint8_t h = *p++;
	unsigned kind = h & 15, flags = h >> 4;
	/* version 6: a chunk is marked exactly when its first event is a CKPT */
	if (r->has_mark && (kind == CITCAT_CAT_CKPT || rc == 2) &&
	    (kind == CITCAT_CAT_CKPT) != (rc == 2 && cc_reader_chunk_marked(r->cr)))
		return bad(r, start, kind != CITCAT_CAT_CKPT ? "a marked chunk that does not start with a checkpoint"
				     : rc == 2 ? "a checkpoint starting a chunk that is not marked"
						: "a checkpoint that does not start its chunk");
	uint64_t v;
	memset(ev, 0, sizeof *ev);
	ev->kind = (uint8_t)kind;
	if (r->cfg.timestamps) {
		CC_GETV(v, "timestamp truncated");
		s->cycle += v;
		ev->cycle = s->cycle;
	}
	switch (kind) {
	case CITCAT_CAT_FILL_I:
	case CITCAT_CAT_FILL_D:
	case CITCAT_CAT_WRITEBACK:
	case CITCAT_CAT_DMA: {
		if (flags)
			return bad(r, start, "reserved flag bits set");
		CC_GETD(ev->addr, s->mem_addr, "address truncated");
		uint32_t len = kind == CITCAT_CAT_FILL_I ? r->cfg.icache.line : r->cfg.dcache.line;
		if (kind == CITCAT_CAT_DMA) {
			CC_GETV(v, "DMA length truncated");
			if (v == 0 || v > 4096)
				return bad(r, start, "DMA length out of range (1..4096)");
			len = (uint32_t)v;
			CC_GETV(v, "DMA branch count truncated");
			s->bcount += v;
			ev->bcount = s->bcount;
			CC_GETD(s->pc, s->pc, "DMA position truncated");
			ev->pc = s->pc;
		} else if (ev->addr & (len - 1)) {
			return bad(r, start, "line address not aligned to the line size");
		}
		if ((size_t)(end - p) < len)
			return bad(r, start, "data truncated");
		ev->len = len;
		ev->data = p;
		p += len;
		s->mem_addr = ev->addr + len;
		break;
	}
	case CITCAT_CAT_WRITE:
	case CITCAT_CAT_UREAD:
	case CITCAT_CAT_UWRITE:
		/* codes 3 (8 bytes) and 4 (3 bytes) are a WRITE's, from version 8 */
		if (flags > (kind == CITCAT_CAT_WRITE && r->has_wsize ? 4u : 2u))
			return bad(r, start, "bad access size code");
		ev->size = (uint8_t)code_size(flags);
		if (kind == CITCAT_CAT_WRITE) {
			CC_GETD(ev->addr, s->mem_addr, "address truncated");
			s->mem_addr = ev->addr + ev->size;
		} else {
			CC_GETD(ev->addr, s->dev_addr, "address truncated");
			s->dev_addr = ev->addr;
		}
		CC_GETV(ev->value, "value truncated");
		if (ev->size < 8 && (ev->value >> (8 * ev->size)))
			return bad(r, start, "value wider than the access");
		break;
	case CITCAT_CAT_EXC:
		if (r->cfg.isa != CITCAT_TARGET_CORTEX_M7)
			return bad(r, start, "exception event in a CAT that is not of the Cortex-M7");
		if (flags)
			return bad(r, start, "reserved flag bits set");
		CC_GETV(ev->value, "exception number truncated");
		if (ev->value < 2 || ev->value > 511)
			return bad(r, start, "exception number out of range (2..511)");
		/* fall through */
	case CITCAT_CAT_IRQ:
		if (kind == CITCAT_CAT_IRQ && r->cfg.isa == CITCAT_TARGET_CORTEX_M7)
			return bad(r, start, "interrupt event in a Cortex-M7 CAT (its exceptions are EXC events)");
		if (kind == CITCAT_CAT_IRQ)
			ev->line = (uint8_t)flags;
		CC_GETV(v, "interrupt branch count truncated");
		s->bcount += v;
		ev->bcount = s->bcount;
		CC_GETD(s->pc, s->pc, "interrupt EPC truncated");
		ev->pc = s->pc;
		break;
	case CITCAT_CAT_START:
		if (flags)
			return bad(r, start, "reserved flag bits set");
		break;
	case CITCAT_CAT_SYNC:
	case CITCAT_CAT_CKPT:
		if (kind == CITCAT_CAT_CKPT && !r->has_ckpt)
			return bad(r, start, "unknown event kind");
		if (flags)
			return bad(r, start, "reserved flag bits set");
		CC_GETV(v, kind == CITCAT_CAT_SYNC ? "sync PC truncated" : "checkpoint P_k truncated");
		if (v > UINT32_MAX)
			return bad(r, start, kind == CITCAT_CAT_SYNC ? "sync PC wider than 32 bits" : "checkpoint P_k wider than 32 bits");
		ev->pc = (uint32_t)v;
		if (kind == CITCAT_CAT_CKPT) {
			CC_GETV(ev->insns, "checkpoint counts truncated");
			CC_GETV(ev->bcount, "checkpoint counts truncated");
		}
		for (int k = 0; k < 2; k++) {
			const struct citcat_cache_config *cc = k ? &r->cfg.dcache : &r->cfg.icache;
			CC_GETV(v, "replacement state truncated");
			if (v > UINT32_MAX || !cache_repl_state_valid(cc, (uint32_t)v))
				return bad(r, start, cc->repl == CITCAT_REPL_RANDOM
							     ? "sync replacement state of a random-replacement cache is 0 or wider than 32 bits"
							     : "sync replacement state is not 0 for a cache without random replacement");
			ev->repl_state[k] = (uint32_t)v;
		}
		if (kind == CITCAT_CAT_SYNC) {
			s->pc = ev->pc;
			s->bcount = 0;
		}
		break;
	case CITCAT_CAT_STOP:
		if (flags > r->max_stop)
			return bad(r, start, "unknown stop reason");
		ev->line = (uint8_t)flags;
		CC_GETV(ev->insns, "stop totals truncated");
		CC_GETV(ev->bcount, "stop totals truncated");
		CC_GETV(ev->cycle, "stop totals truncated");
		if (flags == CITCAT_STOP_FAULT) {
			CC_GETV(ev->value, "fault truncated");
			if (ev->value == 0 || ev->value >= CITCAT_FAULT_KINDS ||
			    (ev->value == CITCAT_FAULT_EXCEPTION && r->cfg.isa != CITCAT_TARGET_CORTEX_M7))
				return bad(r, start, "unknown fault kind");
			CC_GETV(v, "fault PC truncated");
			if (v > UINT32_MAX)
				return bad(r, start, "fault PC wider than 32 bits");
			ev->pc = (uint32_t)v;
			CC_GETV(v, "fault address truncated");
			if (v > UINT32_MAX)
				return bad(r, start, "fault address wider than 32 bits");
			ev->addr = (uint32_t)v;
			if (ev->value == CITCAT_FAULT_EXCEPTION && r->has_m7f_field) {
				/* version 7: CFSR, HFSR, and the fault address registers CFSR marks valid */
				uint64_t f[4] = {0, 0, 0, 0};
				CC_GETV(f[0], "M7 fault status truncated");
				CC_GETV(f[1], "M7 fault status truncated");
				if (f[0] & CITCAT_M7_CFSR_MMARVALID)
					CC_GETV(f[2], "M7 fault status truncated");
				if (f[0] & CITCAT_M7_CFSR_BFARVALID)
					CC_GETV(f[3], "M7 fault status truncated");
				for (int k = 0; k < 4; k++)
					if (f[k] > UINT32_MAX)
						return bad(r, start, "M7 fault status wider than 32 bits");
				r->m7f = (struct citcat_m7_fault){.exc = ev->addr,
								  .cfsr = (uint32_t)f[0],
								  .hfsr = (uint32_t)f[1],
								  .mmfar = (uint32_t)f[2],
								  .bfar = (uint32_t)f[3]};
				r->has_m7f = 1;
			}
		}
		break;
	default:
		return bad(r, start, "unknown event kind");
	}
	r->cur.p = p;
	return 1;
}

/* ---- citcat info's figures ---- */

int citcat_cat_reader_info(struct citcat_cat_reader *r, struct citcat_cat_info *info,
			   int (*progress)(void *ctx, uint64_t done, uint64_t total), void *ctx)
{
	if (!r || !info || info->size < offsetof(struct citcat_cat_info, m7_fault) + sizeof info->m7_fault)
		return CITCAT_ERR_INVAL;
	struct citcat_cat_info f = {.size = info->size, .stop = -1};
	f.version = cc_reader_version(r->cr);
	int synced = 0, rc;
	/* the firmware's exit value: its write to EXIT, when the trace module
	 * was still recording (the STOP that follows has reason EXIT) */
	int32_t last_exit_write = 0;
	int have_exit_write = 0;
	uint64_t count = 0;
	struct citcat_cat_event ev;
	while ((rc = citcat_cat_next(r, &ev)) == 1) {
		f.events[ev.kind]++;
		if (ev.kind == CITCAT_CAT_SYNC)
			synced = 1;
		if (!synced)
			f.before_start[ev.kind]++;
		if (ev.kind == CITCAT_CAT_STOP) {
			f.insns = ev.insns;
			f.branches = ev.bcount;
			f.cycles = ev.cycle;
			f.stop = ev.line;
			if (f.stop == CITCAT_STOP_EXIT)
				f.exit_value = last_exit_write, f.has_exit_value = have_exit_write;
			f.fault_kind = (uint32_t)ev.value;
			f.fault_pc = ev.pc;
			f.fault_addr = ev.addr;
			f.has_m7_fault = citcat_cat_m7_fault(r, &f.m7_fault) == 1;
		} else if (ev.kind == CITCAT_CAT_UWRITE && ev.addr == r->cfg.dev_base) {
			last_exit_write = (int32_t)(uint32_t)ev.value;
			have_exit_write = 1;
		} else if (ev.kind == CITCAT_CAT_SYNC) {
			f.sync_pc = ev.pc;
			f.repl_state[0] = ev.repl_state[0];
			f.repl_state[1] = ev.repl_state[1];
		} else if (ev.kind == CITCAT_CAT_DMA) {
			f.dma_bytes += ev.len;
		}
		if ((++count & 0x3fff) == 0 && progress &&
		    progress(ctx, citcat_cat_reader_offset(r), citcat_cat_reader_file_size(r)))
			return citcat_errinfo_set(&r->err, CITCAT_ERR_INTERRUPTED, UINT64_MAX, "interrupted");
	}
	if (rc < 0)
		return rc;
	f.file_bytes = citcat_cat_reader_file_size(r);
	memcpy(info, &f, info->size < sizeof f ? info->size : sizeof f);
	return 0;
}
