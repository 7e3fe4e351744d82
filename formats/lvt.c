/* LVT writer and reader: see LVT.md.  Records are a bit stream, least
 * significant bit first, packed into the container's chunks; a chunk ends
 * on a byte boundary with zero padding, and every chunk decodes on its own
 * (the delta state is reset at each). */
#include "lvt.h"
#include "input.h"
#include "bytes.h"
#include "container.h"
#include "m7excnum.h"

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <xxhash.h>

#define MAGIC "CLVT\r\n\x1a\n"
#define CHUNK (1u << 20)
#define MAXREC 256 /* bytes: the largest record (START: 2 + 4 + 40 * 32 + 64 + 32 bits) with room to spare */

enum { EV_IRQ = 0, EV_DMA = 1, EV_START = 2, EV_STOP = 3 };

/* ---- writer ---- */

struct citcat_lvt_writer {
	struct cc_writer *cw;
	uint64_t acc;   /* bits not yet stored, low bits first */
	unsigned nacc;  /* how many (< 32 between calls) */
	size_t chunk_bytes;
	uint64_t bits;
	uint64_t bcount; /* delta state, reset at each chunk */
	uint32_t pc, dma_next;
	int started, stopped;
	unsigned lbits; /* width of the IRQ record's line field (LVT.md): 4 ARMv7-A, 6 Cortex-M7 */
	int v1;         /* writing version 1 (lvt_writer_open_version): START without SCTLR */
	struct citcat_errinfo err;
};

/* The IRQ record's line field: an interrupt line 0..15 on the ARMv7-A
 * target, an exception number 2..47 on the Cortex-M7 (version 2). */
static unsigned line_bits(const struct citcat_target_config *cfg)
{
	return cfg->isa == CITCAT_TARGET_CORTEX_M7 ? 6 : 4;
}

static void encode_meta(const struct citcat_target_config *cfg, unsigned gs, uint8_t *meta)
{
	memset(meta, 0, CITCAT_LVT_META_LEN);
	citcat_target_config_encode(cfg, meta);
	meta[CITCAT_TARGET_META_LEN] = (uint8_t)gs;
}

int citcat_lvt_writer_open(struct citcat_lvt_writer **out, const char *path, const struct citcat_target_config *cfg,
			   unsigned gran_shift)
{
	return lvt_writer_open_version(out, path, cfg, gran_shift, CITCAT_LVT_VERSION);
}

int lvt_writer_open_version(struct citcat_lvt_writer **out, const char *path, const struct citcat_target_config *cfg,
			    unsigned gran_shift, unsigned version)
{
	*out = NULL;
	if (version < 1 || version > CITCAT_LVT_VERSION || (version < 2 && cfg->isa != CITCAT_TARGET_ARMV7A))
		return CITCAT_ERR_INVAL;
	const char *why;
	uint8_t meta[CITCAT_LVT_META_LEN];
	struct citcat_target_config chk;
	if (gran_shift != 0 && gran_shift != 2)
		return CITCAT_ERR_INVAL;
	encode_meta(cfg, gran_shift, meta);
	if (citcat_target_config_decode(meta, CITCAT_TARGET_META_LEN, &chk, &why))
		return CITCAT_ERR_INVAL;
	struct citcat_lvt_writer *w = calloc(1, sizeof *w);
	if (!w)
		return CITCAT_ERR_NOMEM;
	int rc = cc_writer_open(&w->cw, path, MAGIC, (uint16_t)version, meta, sizeof meta, CHUNK);
	if (rc) {
		free(w);
		return rc;
	}
	w->lbits = line_bits(cfg);
	w->v1 = version < 2;
	*out = w;
	return 0;
}

static int werr(struct citcat_lvt_writer *w)
{
	if (!w->err.code)
		w->err = *cc_writer_error(w->cw);
	if (!w->err.code)
		citcat_errinfo_set(&w->err, CITCAT_ERR_INTERNAL, UINT64_MAX, "LVT writer failed");
	return w->err.code;
}

/* N <= 32 bits of V. */
static inline int put_bits(struct citcat_lvt_writer *w, uint64_t v, unsigned n)
{
	if (n < 64)
		v &= (1ull << n) - 1;
	w->acc |= v << w->nacc;
	w->nacc += n;
	w->bits += n;
	if (w->nacc >= 32) {
		uint8_t *p = cc_writer_reserve_fast(w->cw, 4);
		if (!p)
			return werr(w);
		cc_put32(p, (uint32_t)w->acc);
		cc_writer_commit_fast(w->cw, 4, 0);
		w->chunk_bytes += 4;
		w->acc >>= 32;
		w->nacc -= 32;
	}
	return 0;
}

static int put_uvar(struct citcat_lvt_writer *w, uint64_t v)
{
	uint8_t b[CC_UVAR_MAX];
	size_t n = cc_put_uvar(b, v);
	for (size_t i = 0; i < n; i++)
		if (put_bits(w, b[i], 8))
			return w->err.code;
	return 0;
}

/* Stores the pending bits (zero-padded to a byte) and closes the chunk. */
static int end_chunk(struct citcat_lvt_writer *w)
{
	if (w->nacc) {
		unsigned nb = (w->nacc + 7) / 8;
		uint8_t *p = cc_writer_reserve(w->cw, nb);
		if (!p)
			return werr(w);
		for (unsigned i = 0; i < nb; i++)
			p[i] = (uint8_t)(w->acc >> (8 * i));
		cc_writer_commit(w->cw, nb, 0);
		w->acc = 0;
		w->nacc = 0;
	}
	if (cc_writer_flush(w->cw))
		return werr(w);
	w->chunk_bytes = 0;
	w->bcount = 0;
	w->pc = 0;
	w->dma_next = 0;
	return 0;
}

/* Every record starts with room for the largest one in the chunk, so no
 * record spans two chunks. */
static inline int begin(struct citcat_lvt_writer *w)
{
	if (w->err.code)
		return w->err.code;
	if (w->stopped)
		return citcat_errinfo_set(&w->err, CITCAT_ERR_INVAL, UINT64_MAX, "LVT record after STOP");
	if (w->chunk_bytes + MAXREC > CHUNK && end_chunk(w))
		return w->err.code;
	cc_writer_commit_fast(w->cw, 0, 1);
	return 0;
}

int citcat_lvt_put_hit(struct citcat_lvt_writer *w)
{
	if (begin(w))
		return w->err.code;
	return put_bits(w, 1, 1);
}

int citcat_lvt_put_value(struct citcat_lvt_writer *w, uint64_t value, unsigned size)
{
	if (size < 1 || size > 8)
		return citcat_errinfo_set(&w->err, CITCAT_ERR_INVAL, UINT64_MAX, "LVT value of %u bytes", size);
	if (begin(w) || put_bits(w, 2, 2)) /* '0' then '1' */
		return w->err.code;
	if (size <= 4)
		return put_bits(w, value, 8 * size);
	if (put_bits(w, value, 32))
		return w->err.code;
	return put_bits(w, value >> 32, 8 * size - 32);
}

int citcat_lvt_put_event(struct citcat_lvt_writer *w, const struct citcat_lvt_rec *e)
{
	if (w->err.code)
		return w->err.code;
	if (e->kind == CITCAT_LVT_STOP && end_chunk(w)) /* STOP alone in the last chunk */
		return w->err.code;
	uint64_t bits_before = w->bits;
	if (begin(w) || put_bits(w, 0, 2))
		return w->err.code;
	switch (e->kind) {
	case CITCAT_LVT_IRQ:
	case CITCAT_LVT_DMA:
		if (e->bcount < w->bcount || (e->kind == CITCAT_LVT_IRQ && e->line >= 1u << w->lbits) ||
		    (e->kind == CITCAT_LVT_DMA && (e->len == 0 || e->len > 4096)))
			return citcat_errinfo_set(&w->err, CITCAT_ERR_INVAL, UINT64_MAX, "bad LVT event");
		put_bits(w, e->kind == CITCAT_LVT_IRQ ? EV_IRQ : EV_DMA, 4);
		if (e->kind == CITCAT_LVT_IRQ)
			put_bits(w, e->line, w->lbits);
		put_uvar(w, e->bcount - w->bcount);
		put_uvar(w, cc_zigzag((int64_t)e->pc - (int64_t)w->pc));
		w->bcount = e->bcount;
		w->pc = e->pc;
		if (e->kind == CITCAT_LVT_DMA) {
			put_uvar(w, cc_zigzag((int64_t)e->addr - (int64_t)w->dma_next));
			put_uvar(w, e->len);
			w->dma_next = e->addr + e->len;
		}
		break;
	case CITCAT_LVT_START:
		if (w->started)
			return citcat_errinfo_set(&w->err, CITCAT_ERR_INVAL, UINT64_MAX, "second LVT START record");
		w->started = 1;
		put_bits(w, EV_START, 4);
		for (int i = 0; i < CITCAT_LVT_REGS; i++)
			put_bits(w, e->regs[i], 32);
		if ((e->sctlr & ~(uint32_t)CITCAT_LVT_SCTLR_TE) || (w->v1 && e->sctlr))
			return citcat_errinfo_set(&w->err, CITCAT_ERR_INVAL, UINT64_MAX,
						  "LVT START: SCTLR bits other than TE, or TE in a version 1 file");
		if (!w->v1)
			put_bits(w, e->sctlr, 32);
		put_bits(w, e->code_hash, 32);
		put_bits(w, e->code_hash >> 32, 32);
		put_bits(w, e->dc_rng, 32);
		break;
	case CITCAT_LVT_STOP: {
		const struct citcat_lvt_stats *s = &e->st;
		if (e->line > CITCAT_STOP_LIMIT)
			return citcat_errinfo_set(&w->err, CITCAT_ERR_INVAL, UINT64_MAX, "bad LVT stop reason");
		put_bits(w, EV_STOP, 4);
		put_bits(w, e->line, 2);
		const uint64_t v[] = {s->insns, s->bcount, s->loads, s->hits, s->ureads, s->value_bytes,
				      s->raw_bytes, s->irqs, s->dmas, bits_before};
		for (size_t i = 0; i < sizeof v / sizeof *v; i++)
			put_uvar(w, v[i]);
		if (!w->err.code)
			end_chunk(w);
		w->stopped = 1;
		break;
	}
	default:
		return citcat_errinfo_set(&w->err, CITCAT_ERR_INVAL, UINT64_MAX, "unknown LVT record kind %u", e->kind);
	}
	return w->err.code;
}

uint64_t citcat_lvt_writer_bits(const struct citcat_lvt_writer *w) { return w->bits; }

int citcat_lvt_writer_close(struct citcat_lvt_writer *w)
{
	if (!w)
		return CITCAT_ERR_INVAL;
	int rc = w->err.code;
	if (!rc && end_chunk(w))
		rc = w->err.code;
	return cc_stream_writer_end(w, rc);
}

void citcat_lvt_writer_abort(struct citcat_lvt_writer *w) { cc_stream_writer_abort(w); }

const struct citcat_errinfo *citcat_lvt_writer_error(const struct citcat_lvt_writer *w) { return &w->err; }

/* ---- reading bits ---- */

/* One chunk's payload as a bit string, with the per-chunk delta state. */
struct bitcur {
	const uint8_t *buf;
	size_t len;     /* bytes */
	uint64_t pos;   /* bits */
	uint64_t bcount;
	uint32_t pc, dma_next;
	unsigned lbits; /* the IRQ line field's width (line_bits), 0 = 4 */
	int v1;         /* a version 1 stream: START has no SCTLR word */
};

static int get_bits(struct bitcur *c, unsigned n, uint64_t *out)
{
	if (c->pos + n > (uint64_t)c->len * 8)
		return -1;
	uint64_t v = 0;
	for (unsigned i = 0; i < n;) {
		unsigned off = (unsigned)(c->pos & 7), take = 8 - off;
		if (take > n - i)
			take = n - i;
		v |= (uint64_t)((c->buf[c->pos >> 3] >> off) & ((1u << take) - 1)) << i;
		i += take;
		c->pos += take;
	}
	*out = v;
	return 0;
}

static int get_uvar(struct bitcur *c, uint64_t *out)
{
	uint64_t v = 0, b;
	for (unsigned shift = 0;; shift += 7) {
		if (shift > 63 || get_bits(c, 8, &b))
			return -1;
		if (shift == 63 && (b & 0x7e))
			return -1;
		v |= (b & 0x7f) << shift;
		if (!(b & 0x80))
			break;
	}
	*out = v;
	return 0;
}

/* Decodes one record at C.  SIZE as for citcat_lvt_next.  PEEK: decode only
 * the kind and leave C where it was.  Returns the kind, or -1 with *WHY. */
static int decode(struct bitcur *c, unsigned size, int peek, struct citcat_lvt_rec *e, const char **why)
{
	uint64_t start = c->pos, b, v;
	int kind;
	*why = "record runs past the end of its chunk";
	if (get_bits(c, 1, &b))
		return -1;
	if (b) {
		kind = CITCAT_LVT_HIT;
	} else {
		if (get_bits(c, 1, &b))
			return -1;
		if (b) {
			kind = CITCAT_LVT_VALUE;
		} else {
			if (get_bits(c, 4, &b))
				return -1;
			if (b > EV_STOP)
				return *why = "reserved event type", -1;
			static const int kinds[] = {CITCAT_LVT_IRQ, CITCAT_LVT_DMA, CITCAT_LVT_START, CITCAT_LVT_STOP};
			kind = kinds[b];
		}
	}
	if (peek) {
		c->pos = start;
		return kind;
	}
	if (kind == CITCAT_LVT_HIT || kind == CITCAT_LVT_VALUE) { /* per load: not the whole record */
		e->size = 0;
		e->value = 0;
	} else {
		memset(e, 0, sizeof *e);
	}
	e->kind = (uint8_t)kind;
	switch (kind) {
	case CITCAT_LVT_HIT:
		break;
	case CITCAT_LVT_VALUE:
		if (size == 0)
			return *why = "a load value where no load is being served", -1;
		e->size = (uint8_t)size;
		if (size > 4) {
			if (get_bits(c, 32, &v) || get_bits(c, 8 * size - 32, &b))
				return -1;
			e->value = v | b << 32;
		} else if (get_bits(c, 8 * size, &e->value)) {
			return -1;
		}
		break;
	case CITCAT_LVT_IRQ:
	case CITCAT_LVT_DMA:
		if (kind == CITCAT_LVT_IRQ) {
			if (get_bits(c, c->lbits ? c->lbits : 4, &b))
				return -1;
			if (c->lbits == 6 && (b < M7EXC_NMI || b >= M7EXC_NEXC))
				return *why = "exception number out of range (2..47)", -1;
			e->line = (uint8_t)b;
		}
		if (get_uvar(c, &v))
			return *why = "branch count truncated or too long", -1;
		if (v > UINT64_MAX - c->bcount)
			return *why = "branch count overflows", -1;
		c->bcount += v;
		e->bcount = c->bcount;
		if (get_uvar(c, &v))
			return *why = "position truncated or too long", -1;
		if (cc_add_delta32(c->pc, v, &c->pc))
			return *why = "position outside the 32-bit address space", -1;
		e->pc = c->pc;
		if (kind == CITCAT_LVT_DMA) {
			if (get_uvar(c, &v))
				return *why = "DMA address truncated or too long", -1;
			if (cc_add_delta32(c->dma_next, v, &e->addr))
				return *why = "DMA address outside the 32-bit address space", -1;
			if (get_uvar(c, &v))
				return *why = "DMA length truncated or too long", -1;
			if (v == 0 || v > 4096)
				return *why = "DMA length out of range (1..4096)", -1;
			e->len = (uint32_t)v;
			c->dma_next = e->addr + e->len;
		}
		break;
	case CITCAT_LVT_START:
		for (int i = 0; i < CITCAT_LVT_REGS; i++) {
			if (get_bits(c, 32, &v))
				return -1;
			e->regs[i] = (uint32_t)v;
		}
		if (!c->v1) { /* version 2: SCTLR, TE only (LVT.md) */
			if (get_bits(c, 32, &v))
				return -1;
			if (v & ~(uint64_t)CITCAT_LVT_SCTLR_TE)
				return *why = "START: SCTLR reserved bits set (only TE, bit 30, is kept)", -1;
			e->sctlr = (uint32_t)v;
		}
		if (get_bits(c, 32, &v) || get_bits(c, 32, &b))
			return -1;
		e->code_hash = v | b << 32;
		if (get_bits(c, 32, &v))
			return -1;
		e->dc_rng = (uint32_t)v;
		break;
	case CITCAT_LVT_STOP: {
		if (get_bits(c, 2, &b))
			return -1;
		if (b > CITCAT_STOP_LIMIT)
			return *why = "unknown stop reason", -1;
		e->line = (uint8_t)b;
		uint64_t *f[] = {&e->st.insns, &e->st.bcount, &e->st.loads, &e->st.hits, &e->st.ureads,
				 &e->st.value_bytes, &e->st.raw_bytes, &e->st.irqs, &e->st.dmas, &e->st.bits};
		for (size_t i = 0; i < sizeof f / sizeof *f; i++)
			if (get_uvar(c, f[i]))
				return *why = "stop totals truncated or too long", -1;
		if (e->st.hits > e->st.loads || e->st.ureads > e->st.loads - e->st.hits)
			return *why = "stop totals inconsistent (more hits or device reads than loads)", -1;
		e->bcount = e->st.bcount;
		break;
	}
	}
	return kind;
}

/* ---- reader ---- */

struct citcat_lvt_reader {
	struct cc_reader *cr;
	struct citcat_target_config cfg;
	unsigned gs, lbits;
	int v1;
	struct bitcur c;
	uint32_t nrec, seen;
	int have_chunk, started, stopped;
	uint64_t records;
	uint64_t rec_chunk_off, rec_bit;
	struct citcat_errinfo err;
};

static int decode_meta(const uint8_t *m, uint32_t ml, unsigned version, struct citcat_target_config *cfg, unsigned *gs,
		       struct citcat_errinfo *err)
{
	const char *why = NULL;
	if (ml != CITCAT_LVT_META_LEN)
		return citcat_errinfo_set(err, CITCAT_ERR_CORRUPT, 12, "LVT header: metadata is %u bytes, expected %u", ml,
					  CITCAT_LVT_META_LEN);
	int roff = citcat_target_config_reserved(m, &why);
	if (citcat_target_config_decode(m, CITCAT_TARGET_META_LEN, cfg, &why))
		return citcat_errinfo_set(err, CITCAT_ERR_CORRUPT, 16 + (roff >= 0 ? (unsigned)roff : 0), "LVT header: %s", why);
	if (version < 2 && cfg->isa != CITCAT_TARGET_ARMV7A) /* version 1 had the ARMv7-A target only (LVT.md) */
		return citcat_errinfo_set(err, CITCAT_ERR_CORRUPT, 16, "LVT header: isa %u in a version 1 LVT (ARMv7-A only)",
					  cfg->isa);
	if (m[96] != 0 && m[96] != 2)
		return citcat_errinfo_set(err, CITCAT_ERR_CORRUPT, 16 + 96, "LVT header: FA granule code %u (0 byte or 2 word)",
					  m[96]);
	for (unsigned i = 97; i < 100; i++)
		if (m[i])
			return citcat_errinfo_set(err, CITCAT_ERR_CORRUPT, 16 + i, "LVT header: reserved byte %u is not zero", i);
	*gs = m[96];
	return 0;
}

static int reader_init(void *obj)
{
	struct citcat_lvt_reader *r = obj;
	uint32_t ml;
	const uint8_t *m = cc_reader_meta(r->cr, &ml);
	int rc = decode_meta(m, ml, cc_reader_version(r->cr), &r->cfg, &r->gs, &r->err);
	r->lbits = line_bits(&r->cfg);
	r->v1 = cc_reader_version(r->cr) < 2;
	return rc;
}

static const struct cc_stream_kind reader_kind = {MAGIC, CITCAT_LVT_VERSION, sizeof(struct citcat_lvt_reader), offsetof(struct citcat_lvt_reader, err),
							reader_init};

CC_STREAM_READER_FUNCS(citcat_lvt_reader, struct citcat_lvt_reader, &reader_kind)

const struct citcat_target_config *citcat_lvt_config(const struct citcat_lvt_reader *r) { return &r->cfg; }
unsigned citcat_lvt_gran_shift(const struct citcat_lvt_reader *r) { return r->gs; }
const struct citcat_errinfo *citcat_lvt_reader_error(const struct citcat_lvt_reader *r) { return &r->err; }

void citcat_lvt_reader_pos(const struct citcat_lvt_reader *r, uint64_t *chunk_offset, uint64_t *bit)
{
	*chunk_offset = r->rec_chunk_off;
	*bit = r->rec_bit;
}

static int rfail(struct citcat_lvt_reader *r, uint64_t bit, const char *what)
{
	int rc = cc_reader_fail(r->cr, CITCAT_ERR_CORRUPT, (size_t)(bit >> 3), "LVT record (bit %u of that byte): %s",
				(unsigned)(bit & 7), what);
	r->err = *cc_reader_error(r->cr);
	return rc;
}

/* Makes the next record readable: finishes the current chunk (its padding
 * must be zero and end the payload) and loads the next.  1, 0 at the end
 * of the file, or an error. */
static int advance(struct citcat_lvt_reader *r)
{
	if (r->err.code)
		return r->err.code;
	while (!r->have_chunk || r->seen == r->nrec) {
		if (r->have_chunk) {
			struct bitcur *c = &r->c;
			uint64_t b;
			unsigned pad = (unsigned)((8 - (c->pos & 7)) & 7);
			if (get_bits(c, pad, &b) || b)
				return rfail(r, c->pos, "padding after the chunk's last record is not zero");
			if (c->pos != (uint64_t)c->len * 8)
				return rfail(r, c->pos, "bytes follow the chunk's last record (more than its header's record count)");
			r->have_chunk = 0;
		}
		size_t len;
		const uint8_t *buf;
		int rc = cc_reader_next_chunk(r->cr, &buf, &len, &r->nrec);
		if (rc < 0) {
			r->err = *cc_reader_error(r->cr);
			return rc;
		}
		if (rc == 0) {
			if (r->started && !r->stopped)
				return citcat_errinfo_set(&r->err, CITCAT_ERR_TRUNCATED, cc_reader_file_size(r->cr),
							  "the LVT ends without its STOP record");
			return 0;
		}
		memset(&r->c, 0, sizeof r->c);
		r->c.buf = buf;
		r->c.len = len;
		r->c.lbits = r->lbits;
		r->c.v1 = r->v1;
		r->seen = 0;
		r->have_chunk = 1;
		if (r->nrec == 0)
			return rfail(r, 0, "a chunk with no records");
	}
	return 1;
}

int citcat_lvt_peek(struct citcat_lvt_reader *r)
{
	int rc = advance(r);
	if (rc <= 0)
		return rc;
	const char *why;
	int k = decode(&r->c, 0, 1, NULL, &why);
	return k < 0 ? rfail(r, r->c.pos, why) : k;
}

int citcat_lvt_next(struct citcat_lvt_reader *r, unsigned size, struct citcat_lvt_rec *e)
{
	int rc = advance(r);
	if (rc <= 0)
		return rc;
	if (size > 8)
		return citcat_errinfo_set(&r->err, CITCAT_ERR_INVAL, UINT64_MAX, "load size %u", size);
	const char *why;
	uint64_t at = r->c.pos;
	r->rec_chunk_off = cc_reader_chunk_offset(r->cr);
	r->rec_bit = at;
	int k = decode(&r->c, size, 0, e, &why);
	if (k < 0)
		return rfail(r, at, why);
	if (r->stopped)
		return rfail(r, at, "record after the STOP record");
	if (!r->records && k != CITCAT_LVT_START)
		return rfail(r, at, "the first record is not START");
	if (r->records && k == CITCAT_LVT_START)
		return rfail(r, at, "a second START record");
	if (k == CITCAT_LVT_STOP)
		r->stopped = 1;
	r->started = 1;
	r->records++;
	r->seen++;
	return 1;
}

/* ---- summary ---- */

int citcat_lvt_summary(const char *path, struct citcat_lvt_summary *s, struct citcat_errinfo *err)
{
	struct citcat_errinfo dummy;
	if (!err)
		err = &dummy;
	memset(s, 0, sizeof *s);
	memset(err, 0, sizeof *err);
	struct cc_reader *cr = NULL;
	int rc = cc_reader_open(&cr, path, MAGIC, CITCAT_LVT_VERSION);
	if (rc) {
		*err = *cc_reader_error(cr);
		cc_reader_close(cr);
		return rc;
	}
	uint32_t ml;
	const uint8_t *m = cc_reader_meta(cr, &ml);
	if ((rc = decode_meta(m, ml, cc_reader_version(cr), &s->cfg, &s->gran_shift, err))) {
		cc_reader_close(cr);
		return rc;
	}
	uint8_t last[MAXREC];
	size_t last_len = 0;
	uint64_t last_off = 0;
	const char *why;
	for (;;) {
		const uint8_t *buf;
		size_t len;
		uint32_t nrec;
		rc = cc_reader_next_chunk(cr, &buf, &len, &nrec);
		if (rc <= 0)
			break;
		if (s->chunks++ == 0) {
			struct bitcur c = {.buf = buf, .len = len, .lbits = line_bits(&s->cfg), .v1 = cc_reader_version(cr) < 2};
			if (decode(&c, 0, 0, &s->start, &why) != CITCAT_LVT_START) {
				rc = citcat_errinfo_set(err, CITCAT_ERR_CORRUPT, cc_reader_chunk_offset(cr),
							"LVT: the first record is not a valid START record");
				break;
			}
			s->has_start = 1;
		}
		s->payload_bytes += len;
		last_len = nrec == 1 && len <= sizeof last ? len : 0;
		if (last_len)
			memcpy(last, buf, len);
		last_off = cc_reader_chunk_offset(cr);
	}
	if (rc < 0 && !err->code)
		*err = *cc_reader_error(cr);
	if (rc == 0 && s->chunks) {
		struct bitcur c = {.buf = last, .len = last_len, .lbits = line_bits(&s->cfg), .v1 = cc_reader_version(cr) < 2};
		if (!last_len || decode(&c, 0, 0, &s->stop, &why) != CITCAT_LVT_STOP || c.len * 8 - c.pos >= 8)
			rc = citcat_errinfo_set(err, CITCAT_ERR_CORRUPT, last_off,
						"LVT: the last chunk does not hold exactly a STOP record");
	}
	s->file_bytes = cc_reader_file_size(cr);
	cc_reader_close(cr);
	return rc;
}

/* The public summary (citcat/lvt.h): citcat_lvt_summary's figures. */
int citcat_lvt_info(const char *path, struct citcat_lvt_info *info, struct citcat_errinfo *err)
{
	if (!path || !info)
		return citcat_errinfo_set(err, CITCAT_ERR_INVAL, UINT64_MAX, "NULL argument");
	struct citcat_lvt_summary s;
	int rc = citcat_lvt_summary(path, &s, err);
	if (rc)
		return rc;
	memset(info, 0, sizeof *info);
	info->cfg = s.cfg;
	info->gran_shift = s.gran_shift;
	info->has_start = s.has_start;
	if (s.has_start) {
		info->start_pc = s.start.regs[15];
		info->stop_reason = s.stop.line;
	}
	info->st = s.stop.st;
	info->file_bytes = s.file_bytes;
	info->payload_bytes = s.payload_bytes;
	info->chunks = s.chunks;
	return 0;
}

/* ---- the code the decoder takes from the binary ---- */

int citcat_lvt_code_ranges(const char *path, struct citcat_lvt_range *out, int max, struct citcat_errinfo *err)
{
	if (elf_version(EV_CURRENT) == EV_NONE)
		return citcat_errinfo_set(err, CITCAT_ERR_INTERNAL, UINT64_MAX, "libelf initialisation failed");
	int fd;
	struct citcat_errinfo ie;
	if (cc_input_open_fd(path, CC_IN_FILE, &fd, &ie)) /* the input rules (common/input.h) */
		return citcat_errinfo_set(err, ie.code, UINT64_MAX, "%s: %s", path, ie.msg);
	Elf *e = elf_begin(fd, ELF_C_READ, NULL);
	size_t n = 0;
	int k = 0, rc = 0;
	if (!e || elf_kind(e) != ELF_K_ELF || elf_getphdrnum(e, &n) != 0) {
		rc = citcat_errinfo_set(err, CITCAT_ERR_MAGIC, 0, "%s: not an ELF executable", path);
	} else {
		for (size_t i = 0; i < n; i++) {
			GElf_Phdr ph;
			if (!gelf_getphdr(e, (int)i, &ph)) {
				rc = citcat_errinfo_set(err, CITCAT_ERR_CORRUPT, UINT64_MAX, "%s: bad program header %zu", path, i);
				break;
			}
			if (ph.p_type != PT_LOAD || !(ph.p_flags & PF_X) || ph.p_filesz == 0)
				continue;
			if (ph.p_paddr + ph.p_filesz > 0x100000000ull) {
				rc = citcat_errinfo_set(err, CITCAT_ERR_CORRUPT, UINT64_MAX, "%s: segment beyond 4 GiB", path);
				break;
			}
			if (k < max)
				out[k] = (struct citcat_lvt_range){(uint32_t)ph.p_paddr, (uint32_t)ph.p_filesz};
			k++;
		}
	}
	if (e)
		elf_end(e);
	close(fd);
	return rc ? rc : k;
}

uint64_t citcat_lvt_code_hash(const uint8_t *mem, uint32_t base, const struct citcat_lvt_range *r, int n)
{
	XXH64_state_t *st = XXH64_createState();
	if (!st)
		return 0;
	XXH64_reset(st, 0);
	for (int i = 0; i < n; i++) {
		uint8_t h[8];
		cc_put32(h, r[i].addr);
		cc_put32(h + 4, r[i].len);
		XXH64_update(st, h, 8);
		XXH64_update(st, mem + (r[i].addr - base), r[i].len);
	}
	uint64_t v = XXH64_digest(st);
	XXH64_freeState(st);
	return v;
}
