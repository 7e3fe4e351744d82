/* AES file format: see AES.md.  The extraction is aes/aes.c. */
#include "aesfile.h"
#include "bytes.h"
#include "container.h"
#include "segidx.h"

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAGIC CITCAT_AES_MAGIC
#define META_LEN 32
#define K_REPEAT 6
#define TAB 256 /* last value per device word, per kind */

static const char *const names[CITCAT_AES_KINDS] = {"irq", "dma", "input", "output", "counter", "end"};
const char *citcat_aes_kind_name(unsigned k) { return k < CITCAT_AES_KINDS ? names[k] : "?"; }

/* Delta state, reset at each chunk (chunks decode alone). */
struct tab_ent {
	uint32_t addr;
	uint32_t valid;
	uint64_t value;
};
struct astate {
	uint64_t bcount;
	uint32_t pc, dma_next;
	uint32_t last_addr[3]; /* INPUT, OUTPUT, COUNTER */
	struct tab_ent tab[3][TAB];
};

static void astate_reset(struct astate *s) { memset(s, 0, sizeof *s); }

static struct tab_ent *tab_slot(struct astate *s, unsigned kind, uint32_t addr)
{
	return &s->tab[kind - CITCAT_AES_INPUT][(addr >> 2) & (TAB - 1)];
}

struct citcat_aes_writer {
	struct cc_writer *cw;
	uint32_t dev_base, isa;
	struct astate st;
	struct citcat_aes_rec prev; /* last queue record written, for repeats */
	int have_prev;
	uint64_t repeat;            /* pending repeats of PREV */
	struct citcat_errinfo err;
};

struct citcat_aes_reader {
	struct cc_reader *cr;
	struct citcat_trace_id id;
	struct cc_cursor cur;
	struct astate st;
	struct citcat_aes_rec prev;
	int have_prev;
	unsigned max_stop; /* the highest stop reason the file's version has */
	uint32_t isa;      /* metadata (version 3), else 1 */
	uint64_t repeat; /* copies of PREV still to return */
	size_t last_bytes;
	const uint8_t *last_raw;
	struct citcat_errinfo err;
	struct cc_segidx *sx;        /* a bundle's mapping (common/SEGIDX.md), or NULL */
	uint64_t base;               /* the member's file offset */
	struct citcat_errinfo err_abs; /* ERR with file offsets (citcat_aes_reader_error) */
};

/* ---- writer ---- */

int citcat_aes_writer_open(struct citcat_aes_writer **out, const char *path, const struct citcat_trace_id *id,
			   const struct citcat_target_config *cfg)
{
	if (!out)
		return CITCAT_ERR_INVAL;
	*out = NULL;
	if (!id || !cfg)
		return CITCAT_ERR_INVAL;
	struct citcat_aes_writer *w = calloc(1, sizeof *w);
	if (!w)
		return CITCAT_ERR_NOMEM;
	uint8_t meta[META_LEN] = {0};
	cc_put64(meta, id->hash);
	cc_put32(meta + 8, id->start_pc);
	cc_put64(meta + 12, id->insns);
	cc_put32(meta + 20, cfg->dev_base);
	meta[24] = cfg->isa == 2; /* the target: 0 ARM, 1 the Cortex-M7 */
	w->dev_base = cfg->dev_base;
	w->isa = cfg->isa;
	int rc = cc_writer_open(&w->cw, path, MAGIC, CITCAT_AES_VERSION, meta, sizeof meta, 0);
	*out = w; /* holds the error: the caller aborts it (citcat/base.h) */
	if (rc)
		return citcat_errinfo_set(&w->err, rc, UINT64_MAX, "%s", cc_writer_open_error()->msg);
	return 0;
}

static unsigned size_code(unsigned size) { return size == 1 ? 0 : size == 2 ? 1 : 2; }

static int put(struct citcat_aes_writer *w, const struct citcat_aes_rec *r);

static int flush_repeat(struct citcat_aes_writer *w)
{
	if (!w->repeat)
		return 0;
	uint8_t *b = cc_writer_reserve(w->cw, 1 + CC_UVAR_MAX);
	if (!b)
		return w->err = *cc_writer_error(w->cw), w->err.code;
	if (cc_writer_chunk_used(w->cw) == 0) {
		/* a repeat cannot start a chunk: write the record itself again */
		uint64_t n = w->repeat;
		w->repeat = 0;
		w->have_prev = 0;
		int rc = put(w, &w->prev);
		if (rc || n == 1)
			return rc;
		w->repeat = n - 1;
		return flush_repeat(w);
	}
	b[0] = K_REPEAT;
	size_t n = 1 + cc_put_uvar(b + 1, w->repeat);
	cc_writer_commit(w->cw, n, 1);
	w->repeat = 0;
	return 0;
}

static int is_queue(unsigned k) { return k == CITCAT_AES_INPUT || k == CITCAT_AES_OUTPUT || k == CITCAT_AES_COUNTER; }

static int put(struct citcat_aes_writer *w, const struct citcat_aes_rec *r)
{
	uint32_t len = r->kind == CITCAT_AES_DMA ? r->len : 0;
	uint8_t *b = cc_writer_reserve(w->cw, 1 + 5 * CC_UVAR_MAX + 1 + len);
	if (!b)
		return w->err = *cc_writer_error(w->cw), w->err.code;
	struct astate *s = &w->st;
	if (cc_writer_chunk_used(w->cw) == 0)
		astate_reset(s);
	uint8_t *p = b + 1;
	unsigned h = r->kind;
	switch (r->kind) {
	case CITCAT_AES_IRQ:
		if (w->isa == 2) { /* the M7: bit 7, then the exception number */
			h |= 0x80;
			p += cc_put_uvar(p, r->line);
		} else {
			h |= (unsigned)(r->line & 15) << 3;
		}
		p += cc_put_uvar(p, r->bcount - s->bcount);
		p += cc_put_uvar(p, cc_zigzag((int64_t)r->pc - (int64_t)s->pc));
		s->bcount = r->bcount;
		s->pc = r->pc;
		break;
	case CITCAT_AES_DMA:
		p += cc_put_uvar(p, r->bcount - s->bcount);
		p += cc_put_uvar(p, cc_zigzag((int64_t)r->pc - (int64_t)s->pc));
		p += cc_put_uvar(p, cc_zigzag((int64_t)r->addr - (int64_t)s->dma_next));
		p += cc_put_uvar(p, r->len);
		memcpy(p, r->data, r->len);
		p += r->len;
		s->bcount = r->bcount;
		s->pc = r->pc;
		s->dma_next = r->addr + r->len;
		break;
	case CITCAT_AES_INPUT:
	case CITCAT_AES_OUTPUT:
	case CITCAT_AES_COUNTER: {
		unsigned q = r->kind - CITCAT_AES_INPUT;
		struct tab_ent *t = tab_slot(s, r->kind, r->addr);
		int same_addr = r->addr == s->last_addr[q];
		int have = t->valid && t->addr == r->addr;
		/* bit 4: input/output: the value equals the last one at this
		 * address; counter: the value is a delta from it */
		int vflag = r->kind == CITCAT_AES_COUNTER ? have : have && t->value == r->value;
		h |= (unsigned)(same_addr << 3) | (unsigned)(vflag << 4) | (size_code(r->size) << 5);
		if (!same_addr)
			p += cc_put_uvar(p, cc_zigzag((int64_t)r->addr - (int64_t)s->last_addr[q]));
		if (r->kind == CITCAT_AES_COUNTER && vflag)
			p += cc_put_uvar(p, cc_zigzag((int64_t)(r->value - t->value)));
		else if (!vflag)
			p += cc_put_uvar(p, r->value);
		s->last_addr[q] = r->addr;
		t->addr = r->addr;
		t->valid = 1;
		t->value = r->value;
		break;
	}
	case CITCAT_AES_END:
		if (r->line >= CITCAT_STOP_REASONS ||
		    (r->line == CITCAT_STOP_FAULT && (r->value == 0 || r->value >= CITCAT_FAULT_KINDS)))
			return CITCAT_ERR_INVAL;
		p += cc_put_uvar(p, r->insns);
		p += cc_put_uvar(p, r->bcount);
		*p++ = r->line;
		if (r->line == CITCAT_STOP_FAULT) {
			*p++ = (uint8_t)r->value;
			p += cc_put_uvar(p, r->pc);
			p += cc_put_uvar(p, r->addr);
		}
		break;
	default:
		return CITCAT_ERR_INVAL;
	}
	b[0] = (uint8_t)h;
	cc_writer_commit(w->cw, (size_t)(p - b), 1);
	w->prev = *r;
	w->prev.data = NULL;
	w->have_prev = is_queue(r->kind);
	return 0;
}

int citcat_aes_write(struct citcat_aes_writer *w, const struct citcat_aes_rec *r)
{
	if (!w || !r)
		return CITCAT_ERR_INVAL;
	if (r->kind >= CITCAT_AES_KINDS || (r->kind == CITCAT_AES_DMA && (!r->len || r->len > 4096)))
		return CITCAT_ERR_INVAL;
	if (r->kind == CITCAT_AES_IRQ && (w->isa == 2 ? r->line < CITCAT_AES_M7_EXC_MIN || r->line > CITCAT_AES_M7_EXC_MAX
						   : r->line > 15))
		return CITCAT_ERR_INVAL;
	/* Polling loops read the same register and get the same value many
	 * times in a row: such runs become one repeat record. */
	if (w->have_prev && is_queue(r->kind) && r->kind == w->prev.kind && r->addr == w->prev.addr &&
	    r->size == w->prev.size && r->value == w->prev.value) {
		w->repeat++;
		return 0;
	}
	int rc = flush_repeat(w);
	return rc ? rc : put(w, r);
}

int citcat_aes_writer_close(struct citcat_aes_writer *w)
{
	if (!w)
		return CITCAT_ERR_INVAL;
	return cc_stream_writer_end(w, flush_repeat(w));
}

void citcat_aes_writer_abort(struct citcat_aes_writer *w) { cc_stream_writer_abort(w); }

const struct citcat_errinfo *citcat_aes_writer_error(const struct citcat_aes_writer *w) { return w ? &w->err : NULL; }

/* ---- reader ---- */

static int reader_init(void *obj)
{
	struct citcat_aes_reader *r = obj;
	uint32_t ml;
	const uint8_t *m = cc_reader_meta(r->cr, &ml);
	if (ml != META_LEN)
		return citcat_errinfo_set(&r->err, CITCAT_ERR_CORRUPT, 12, "AES metadata is %u bytes, expected %u", ml, META_LEN);
	/* version 3 has the target at 24 (AES.md, Metadata): 0 ARM, 1 M7 */
	unsigned res0 = cc_reader_version(r->cr) >= 3 ? 25 : 24;
	if (res0 == 25 && m[24] > 1)
		return citcat_errinfo_set(&r->err, CITCAT_ERR_CORRUPT, 16 + 24,
					  "AES metadata: unknown target %u (0 ARM, 1 Cortex-M7)", m[24]);
	r->isa = res0 == 25 && m[24] ? 2 : 1;
	for (unsigned i = res0; i < META_LEN; i++)
		if (m[i]) /* reserved (AES.md, Metadata) */
			return citcat_errinfo_set(&r->err, CITCAT_ERR_CORRUPT, 16 + i,
						  "AES metadata: reserved byte %u is 0x%02x, not 0", i, m[i]);
	r->id.hash = cc_get64(m);
	r->id.start_pc = cc_get32(m + 8);
	r->id.insns = cc_get64(m + 12);
	/* version 1 has the normal ends only (AES.md, Version changes) */
	r->max_stop = cc_reader_version(r->cr) == 1 ? CITCAT_STOP_LIMIT : CITCAT_STOP_REASONS - 1;
	return 0;
}

static const struct cc_stream_kind reader_kind = {MAGIC, CITCAT_AES_VERSION, sizeof(struct citcat_aes_reader), offsetof(struct citcat_aes_reader, err),
							reader_init};

/* Opens segment K of PATH (or of LEN bytes at BUF when PATH is NULL); K =
 * UINT64_MAX: the file's only segment. */
static int open_any(struct citcat_aes_reader **out, const char *path, const void *buf, size_t len, uint64_t k)
{
	if (!out)
		return CITCAT_ERR_INVAL;
	*out = NULL;
	struct citcat_errinfo e = {0};
	struct cc_segidx *sx = NULL;
	if (!path && !buf && len) { /* base.h: a handle holding the error */
		struct citcat_aes_reader *r = calloc(1, sizeof *r);
		if (r)
			citcat_errinfo_set(&r->err, CITCAT_ERR_INVAL, UINT64_MAX, "no buffer");
		*out = r;
		return CITCAT_ERR_INVAL;
	}
	const uint8_t *p = buf;
	size_t n = len;
	struct cc_segidx_entry ent = {0};
	int rc = path ? cc_segidx_open(&sx, path, MAGIC, CITCAT_AES_SEG_VERSION, &e)
		      : cc_segidx_open_mem(&sx, buf, len, MAGIC, CITCAT_AES_SEG_VERSION, &e);
	if (!rc && sx && k == UINT64_MAX && cc_segidx_count(sx) != 1)
		rc = citcat_errinfo_set(&e, CITCAT_ERR_INVAL, UINT64_MAX,
					"the file holds %llu segments: choose one (--segment K, or replay --jobs)",
					(unsigned long long)cc_segidx_count(sx));
	if (!rc && sx)
		rc = cc_segidx_member(sx, k == UINT64_MAX ? 0 : k, &p, &n, &ent, &e);
	if (!rc && !sx && k != UINT64_MAX && k != 0)
		rc = citcat_errinfo_set(&e, CITCAT_ERR_INVAL, UINT64_MAX, "the file holds 1 segment, no segment %llu",
					(unsigned long long)k);
	if (rc) {
		cc_segidx_close(sx);
		struct citcat_aes_reader *r = calloc(1, sizeof *r);
		if (r)
			r->err = e;
		*out = r;
		return rc;
	}
	void *obj;
	rc = sx || !path ? cc_stream_open(&obj, &reader_kind, NULL, p, n) : cc_stream_open(&obj, &reader_kind, path, NULL, 0);
	struct citcat_aes_reader *r = obj;
	if (r) {
		r->sx = sx;
		r->base = ent.offset;
	} else {
		cc_segidx_close(sx);
	}
	*out = r;
	return rc;
}

int citcat_aes_reader_open(struct citcat_aes_reader **out, const char *path)
{
	return path ? open_any(out, path, NULL, 0, UINT64_MAX) : (out ? *out = NULL, CITCAT_ERR_INVAL : CITCAT_ERR_INVAL);
}

int citcat_aes_reader_open_mem(struct citcat_aes_reader **out, const void *buf, size_t len)
{
	return open_any(out, NULL, buf, len, UINT64_MAX);
}

int citcat_aes_reader_open_segment(struct citcat_aes_reader **out, const char *path, uint64_t segment)
{
	if (!path || segment == UINT64_MAX) {
		if (out)
			*out = NULL;
		return CITCAT_ERR_INVAL;
	}
	return open_any(out, path, NULL, 0, segment);
}

int citcat_aes_reader_open_segment_mem(struct citcat_aes_reader **out, const void *buf, size_t len, uint64_t segment)
{
	if ((!buf && len) || segment == UINT64_MAX) {
		if (out)
			*out = NULL;
		return CITCAT_ERR_INVAL;
	}
	return open_any(out, NULL, buf, len, segment);
}

int citcat_aes_segments(const char *path, uint64_t *n, struct citcat_errinfo *err)
{
	if (!path || !n)
		return CITCAT_ERR_INVAL;
	return cc_segidx_segments(path, MAGIC, CITCAT_AES_SEG_VERSION, n, err);
}

void citcat_aes_reader_close(struct citcat_aes_reader *r)
{
	if (!r)
		return;
	struct cc_segidx *sx = r->sx;
	cc_stream_close(r);
	cc_segidx_close(sx);
}

const struct citcat_trace_id *citcat_aes_trace_id(const struct citcat_aes_reader *r) { return r ? &r->id : NULL; }
uint32_t citcat_aes_isa(const struct citcat_aes_reader *r) { return r ? r->isa : 0; }
const struct citcat_errinfo *citcat_aes_reader_error(const struct citcat_aes_reader *r)
{
	if (!r || !r->base)
		return r ? &r->err : NULL;
	/* a bundle member's offsets count from the member's start */
	struct citcat_aes_reader *m = (struct citcat_aes_reader *)r;
	m->err_abs = r->err;
	if (m->err_abs.offset != UINT64_MAX)
		m->err_abs.offset += r->base;
	return &m->err_abs;
}
const uint8_t *citcat_aes_last_raw(const struct citcat_aes_reader *r, size_t *len)
{
	*len = r->last_bytes;
	return r->last_raw;
}

uint64_t citcat_aes_pending_repeats(const struct citcat_aes_reader *r) { return r ? r->repeat : 0; }

uint64_t citcat_aes_skip_repeats(struct citcat_aes_reader *r)
{
	if (!r)
		return 0;
	uint64_t n = r->repeat;
	r->repeat = 0;
	return n;
}

static int bad(struct citcat_aes_reader *r, const uint8_t *at, const char *what)
{
	return cc_stream_bad(r->cr, &r->cur, &r->err, at, "AES record", what);
}

int citcat_aes_next(struct citcat_aes_reader *r, struct citcat_aes_rec *rec)
{
	if (!r || !rec)
		return CITCAT_ERR_INVAL;
	if (r->err.code)
		return r->err.code;
	if (r->repeat) {
		r->repeat--;
		*rec = r->prev;
		r->last_bytes = 0;
		return 1;
	}
	int rc = cc_stream_next(r->cr, &r->cur, &r->err);
	if (rc <= 0)
		return rc;
	if (rc == 2) {
		astate_reset(&r->st);
		r->have_prev = 0;
	}
	struct astate *s = &r->st;
	const uint8_t *p = r->cur.p, *end = r->cur.end, *start = p;
	uint8_t h = *p++;
	unsigned kind = h & 7;
	uint64_t v;
	memset(rec, 0, sizeof *rec);
	rec->kind = (uint8_t)kind;
	switch (kind) {
	case CITCAT_AES_IRQ:
		if (r->isa == 2) { /* the M7: bit 7 set, then the exception number */
			if (h != 0x80)
				return bad(r, start, "M7 exception record: bit 7 clear or reserved bits set");
			CC_GETV(v, "exception truncated");
			if (v < CITCAT_AES_M7_EXC_MIN || v > CITCAT_AES_M7_EXC_MAX)
				return bad(r, start, "M7 exception number out of range (2..47)");
			rec->line = (uint8_t)v;
		} else {
			if (h & 0x80)
				return bad(r, start, "reserved bit set");
			rec->line = (h >> 3) & 15;
		}
		CC_GETV(v, "interrupt truncated");
		s->bcount += v;
		CC_GETD(s->pc, s->pc, "interrupt truncated");
		rec->bcount = s->bcount;
		rec->pc = s->pc;
		break;
	case CITCAT_AES_DMA:
		if (h >> 3)
			return bad(r, start, "reserved bits set");
		CC_GETV(v, "DMA truncated");
		s->bcount += v;
		CC_GETD(s->pc, s->pc, "DMA truncated");
		CC_GETD(rec->addr, s->dma_next, "DMA truncated");
		CC_GETV(v, "DMA truncated");
		if (v == 0 || v > 4096)
			return bad(r, start, "DMA length out of range (1..4096)");
		rec->len = (uint32_t)v;
		if ((uint64_t)(end - p) < v)
			return bad(r, start, "DMA data truncated");
		rec->data = p;
		p += v;
		rec->bcount = s->bcount;
		rec->pc = s->pc;
		s->dma_next = rec->addr + rec->len;
		break;
	case CITCAT_AES_INPUT:
	case CITCAT_AES_OUTPUT:
	case CITCAT_AES_COUNTER: {
		unsigned q = kind - CITCAT_AES_INPUT, sc = (h >> 5) & 3;
		if (sc > 2 || (h & 0x80))
			return bad(r, start, "bad size code");
		rec->size = (uint8_t)(1u << sc);
		if (h & 8) {
			rec->addr = s->last_addr[q];
		} else {
			CC_GETD(rec->addr, s->last_addr[q], "address truncated");
		}
		struct tab_ent *t = tab_slot(s, kind, rec->addr);
		int have = t->valid && t->addr == rec->addr;
		if (h & 16) {
			if (!have)
				return bad(r, start, "value refers to an unknown previous value");
			if (kind == CITCAT_AES_COUNTER) {
				CC_GETV(v, "counter delta truncated");
				rec->value = t->value + (uint64_t)cc_unzigzag(v);
			} else {
				rec->value = t->value;
			}
		} else {
			CC_GETV(rec->value, "value truncated");
		}
		if (rec->size < 8 && (rec->value >> (8 * rec->size)))
			return bad(r, start, "value wider than its size");
		s->last_addr[q] = rec->addr;
		t->addr = rec->addr;
		t->valid = 1;
		t->value = rec->value;
		break;
	}
	case CITCAT_AES_END:
		if (h >> 3)
			return bad(r, start, "reserved bits set");
		CC_GETV(rec->insns, "end record truncated");
		CC_GETV(rec->bcount, "end record truncated");
		if (p >= end || *p > r->max_stop)
			return bad(r, start, "end record: bad stop reason");
		rec->line = *p++;
		if (rec->line == CITCAT_STOP_FAULT) {
			if (p >= end)
				return bad(r, start, "end record truncated");
			rec->value = *p++;
			if (rec->value == 0 || rec->value >= CITCAT_FAULT_KINDS)
				return bad(r, start, "end record: unknown fault kind");
			CC_GETV(v, "end record truncated");
			if (v > UINT32_MAX)
				return bad(r, start, "end record: fault PC wider than 32 bits");
			rec->pc = (uint32_t)v;
			CC_GETV(v, "end record truncated");
			if (v > UINT32_MAX)
				return bad(r, start, "end record: fault address wider than 32 bits");
			rec->addr = (uint32_t)v;
		}
		break;
	case K_REPEAT:
		if (h >> 3 || !r->have_prev)
			return bad(r, start, "repeat without a record to repeat");
		CC_GETV(v, "repeat count truncated");
		if (v == 0)
			return bad(r, start, "repeat count 0");
		/* Each copy is a device access to the same address by another
		 * instruction, so a run is never longer than the traced interval;
		 * without this bound a 13-byte record would expand to 2^63. */
		if (v > r->id.insns)
			return bad(r, start, "repeat count exceeds the traced instructions");
		r->cur.p = p;
		r->repeat = v - 1;
		*rec = r->prev;
		r->last_raw = start;
		r->last_bytes = (size_t)(p - start);
		return 1;
	default:
		return bad(r, start, "unknown record kind");
	}
	r->cur.p = p;
	r->last_raw = start;
	r->last_bytes = (size_t)(p - start);
	r->prev = *rec;
	r->have_prev = is_queue(kind);
	return 1;
}
