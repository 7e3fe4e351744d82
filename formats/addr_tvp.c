/* TVP mode 1: an address trace as the streams of a value-prediction model
 * (formats/TVP_MODEL.md), in the TVP container of common/tvp.h.
 *
 * The references are grouped into events: an instruction fetch and the
 * data references that follow it.  For each event the model predicts the
 * fetch address from the instruction before (its last two successors), the
 * number and types of the data references and their sizes from the fetched
 * instruction's last event, and each data address from the same
 * instruction's same slot (last address plus stride, last address) or the
 * trace's last data address.  An event that all predictions get right
 * costs a fraction of a bit (runs of them are counted); the others write a
 * token saying what missed and the missed values into their own streams,
 * which LZMA2 packs block by block. */
#include "addr_int.h"
#include "outfile.h"
#include "tvp.h"

#include <stdlib.h>
#include <string.h>

enum { S_SYM, S_ACODE, S_PC, S_SHAPE, S_SIZE, S_DADDR, S_COUNT };
static const unsigned stream_group[S_COUNT] = {0, 0, 0, 0, 0, 1};
static const char *const stream_name[S_COUNT] = {"token", "address-code", "fetch", "shape", "size", "address"};

#define T_BITS 16
#define T_MASK ((1u << T_BITS) - 1)
#define EV_MAX 255                /* data references in one event */
#define BLOCK_REFS (1u << 24)     /* references in one block, at most */
#define NOSHAPE UINT64_MAX        /* a shape the table cannot hold (more than 16 references) */
#define TOK_WIDE 0x81             /* control token: data addresses take 8 bytes from here on */
#define OUT_MAX 2048

/* Packing (TVP_MODEL.md, "Packing"): the control streams (normal mode),
 * the addresses (4- or 8-byte values: position bits 2, fast mode, which
 * finds their few matches at a third of the cost).  Chosen on the examples
 * for density at well under a tenth of xz -9's time. */
static const struct cc_tvp_group_opts pack_opts[2] = {
	{.preset = 6, .dict_log = 22, .lc = 3, .lp = 0, .pb = 0, .nice_len = 32, .fast = 0},
	{.preset = 6, .dict_log = 22, .lc = 0, .lp = 2, .pb = 2, .nice_len = 16, .fast = 1},
};

struct pent {
	uint64_t succ, alt; /* the last two successors of the instruction */
	uint64_t shape;     /* its event's data references: count and types */
	uint32_t fsize;     /* its fetch's size */
	uint32_t succkey;   /* decoder: pkey(succ), off the perfect run's chain of loads */
};
struct dent {
	uint64_t last, stride; /* the slot's last address and the step to it */
	uint32_t size;
};

struct tvp_model {
	struct pent *pt;
	struct dent *dt;
	uint64_t pc, rec; /* the last fetch; the last data address */
	unsigned pckey;   /* pkey(pc) */
	uint64_t mask;    /* decoder: the address mask (predictions of a crafted file stay in range) */
	int wide;
	uint64_t total;   /* references so far */
	/* encoder */
	struct cc_tvp_writer *cw;
	uint8_t *s[S_COUNT];
	size_t len[S_COUNT];
	unsigned run;     /* perfect events not yet written (< 128) */
	uint64_t brefs;   /* references in the block */
	/* the event being coded: predicted as its references come */
	int ev_open, ev_fetch;
	unsigned ev_c, ev_key, nd;
	uint64_t ev_pcdiff, ev_shape; /* the fetch difference (code 2); the shape predicted */
	uint32_t ev_fsize;
	int ev_miss;                  /* bit 0 shape, 1 size, 2 an address code, 3 8-byte addresses needed */
	uint64_t da[EV_MAX];
	uint32_t ds[EV_MAX];
	uint8_t dtype[EV_MAX], dcode[EV_MAX];
	/* decoder */
	struct cc_tvp_reader *cr;
	const uint8_t *rs[S_COUNT];
	size_t rpos[S_COUNT], rlen[S_COUNT];
	uint64_t bcount, bgot, block_at;
	unsigned prun;    /* perfect events still to give from a run token */
	int in_block, ended;
	struct citcat_ref out[OUT_MAX];
	unsigned opos, on;
};

static inline unsigned pkey(uint64_t a) { return (unsigned)((a >> 1) ^ (a >> 17) ^ (a >> 33)) & T_MASK; }
/* Slot j of key k: slot 0 beside the instruction's own entry (the tables
 * are touched where the code is: few pages), the others at odd strides. */
static inline unsigned dkey(unsigned k, unsigned j) { return (k + j * 0x9e37u) & T_MASK; }
static inline uint64_t zz(uint64_t v) { return v << 1 ^ (uint64_t)((int64_t)v >> 63); }
static inline uint64_t unzz(uint64_t v) { return v >> 1 ^ (0 - (v & 1)); }

/* The shape of NT references of types T: the count and 3 bits per type. */
static inline uint64_t shape_of(unsigned nt, const uint8_t *t)
{
	if (nt > 16)
		return NOSHAPE;
	uint64_t s = nt;
	for (unsigned j = 0; j < nt; j++)
		s |= (uint64_t)t[j] << (8 + 3 * j);
	return s;
}

static struct tvp_model *model_new(void)
{
	struct tvp_model *m = calloc(1, sizeof *m);
	if (!m)
		return NULL;
	m->pt = calloc(1u << T_BITS, sizeof *m->pt);
	m->dt = calloc(1u << T_BITS, sizeof *m->dt);
	if (!m->pt || !m->dt) {
		free(m->pt);
		free(m->dt);
		free(m);
		return NULL;
	}
	return m;
}

/* ---- writer ---- */

/* The most bytes one event adds to each stream. */
static const size_t ev_room[S_COUNT] = {3, 2 * EV_MAX / 8 + 8, 10, EV_MAX + 1, 5 * (EV_MAX + 1), 8 * EV_MAX};

static int tvp_sink(void *ctx, const void *buf, size_t len)
{
	struct citcat_addr_writer *w = ctx;
	int rc = cc_outfile_write(w->out, buf, len);
	if (!rc)
		w->payload += len;
	return rc;
}

static int werr_from(struct citcat_addr_writer *w, int rc)
{
	const struct citcat_errinfo *e = cc_tvp_writer_error(w->tvp->cw);
	return addr_werr(w, rc, "%s", e->msg[0] ? e->msg : citcat_errstr(rc));
}

static inline void put8(struct tvp_model *m, unsigned s, unsigned b) { m->s[s][m->len[s]++] = (uint8_t)b; }
static inline void putv(struct tvp_model *m, unsigned s, uint64_t v)
{
	while (v >= 0x80) {
		put8(m, s, (unsigned)(v & 0x7f) | 0x80);
		v >>= 7;
	}
	put8(m, s, (unsigned)v);
}

static int flush_block(struct citcat_addr_writer *w, int last)
{
	struct tvp_model *m = w->tvp;
	if (m->run) {
		put8(m, S_SYM, m->run - 1);
		m->run = 0;
	}
	if (!m->brefs)
		return 0;
	const uint8_t *raw[S_COUNT];
	for (unsigned s = 0; s < S_COUNT; s++)
		raw[s] = m->s[s];
	int rc = cc_tvp_write_block(m->cw, m->brefs, S_COUNT, raw, m->len, stream_group, last);
	if (rc)
		return werr_from(w, rc);
	memset(m->len, 0, sizeof m->len);
	m->brefs = 0;
	return 0;
}

/* Ends the event: a perfect one joins the run; the others write their
 * token and their missed values. */
static int end_event(struct citcat_addr_writer *w)
{
	struct tvp_model *m = w->tvp;
	unsigned nd = m->nd;
	struct pent *e = &m->pt[m->ev_key];
	m->ev_open = 0;
	if (nd != (unsigned)(m->ev_shape & 0xff) || m->ev_shape == NOSHAPE)
		m->ev_miss |= 1;
	if (m->ev_miss & 1)
		e->shape = shape_of(nd, m->dtype);
	if (m->ev_c == 0 && !m->ev_miss) {
		m->brefs += 1 + nd;
		if (++m->run == 128) {
			put8(m, S_SYM, 127);
			m->run = 0;
		}
		return 0;
	}
	/* something is written: room for it in this block? (a perfect event
	 * writes nothing but its share of a run, flushed with the block) */
	for (unsigned s = 0; s < S_COUNT; s++)
		if (m->len[s] + ev_room[s] > CC_TVP_BLOCK_MAX) {
			int rc = flush_block(w, 0);
			if (rc)
				return rc;
			break;
		}
	m->brefs += (unsigned)m->ev_fetch + nd;
	if (m->run) {
		put8(m, S_SYM, m->run - 1);
		m->run = 0;
	}
	if ((m->ev_miss & 8) && !m->wide) {
		put8(m, S_SYM, TOK_WIDE);
		m->wide = 1;
	}
	unsigned miss = (unsigned)m->ev_miss;
	put8(m, S_SYM, 0x80 | m->ev_c << 5 | (miss & 1) << 4 | (miss & 2) << 2 | (miss & 4));
	if (m->ev_c == 2)
		putv(m, S_PC, m->ev_pcdiff);
	if (miss & 1) {
		put8(m, S_SHAPE, nd);
		for (unsigned j = 0; j < nd; j++)
			put8(m, S_SHAPE, m->dtype[j]);
	}
	if (miss & 2) {
		if (m->ev_fetch)
			putv(m, S_SIZE, m->ev_fsize);
		for (unsigned j = 0; j < nd; j++)
			putv(m, S_SIZE, m->ds[j]);
	}
	if (miss & 4) {
		for (unsigned j = 0; j < nd; j += 4) {
			unsigned b = 0;
			for (unsigned i = 0; i < 4 && j + i < nd; i++)
				b |= (unsigned)m->dcode[j + i] << (2 * i);
			put8(m, S_ACODE, b);
		}
		unsigned n = m->wide ? 8 : 4;
		for (unsigned j = 0; j < nd; j++)
			if (m->dcode[j] == 3) {
				addr_puts(m->s[S_DADDR] + m->len[S_DADDR], m->da[j], n);
				m->len[S_DADDR] += n;
			}
	}
	return 0;
}

/* Starts an event: with a fetch at F of SIZE, or without (FETCH 0). */
static void start_event(struct tvp_model *m, int fetch, uint64_t f, uint32_t size)
{
	unsigned key;
	m->ev_open = 1;
	m->ev_fetch = fetch;
	m->nd = 0;
	m->ev_miss = 0;
	if (fetch) {
		struct pent *e = &m->pt[m->pckey];
		m->ev_c = f == e->succ ? 0 : f == e->alt ? 1 : 2;
		if (m->ev_c == 2)
			m->ev_pcdiff = zz(f - m->pc);
		if (f != e->succ) {
			e->alt = e->succ;
			e->succ = f;
		}
		m->pc = f;
		key = m->pckey = pkey(f);
		struct pent *g = &m->pt[key];
		if (size != g->fsize) {
			m->ev_miss |= 2;
			g->fsize = size;
		}
		m->ev_fsize = size;
	} else {
		m->ev_c = 3;
		key = pkey(m->pc + 1); /* a fetch-less event: its own entry */
	}
	m->ev_key = key;
	m->ev_shape = m->pt[key].shape;
}

int tvp_put(struct citcat_addr_writer *w, const struct citcat_ref *ref)
{
	struct tvp_model *m = w->tvp;
	unsigned t = ref->type;
	uint32_t size = 0;
	if (w->fmt <= CITCAT_ADDR_XDIN) {
		/* what the inner format keeps (DIN.md): din and xdin lack some
		 * types; only xdin has sizes, printed as 4 when unknown */
		if (w->fmt == CITCAT_ADDR_DIN && t > CITCAT_REF_FLUSH)
			return addr_werr(w, CITCAT_ERR_INVAL, "%s references have no din label",
					 t == CITCAT_REF_COPYB ? "copy-back" : "invalidate");
		if (w->fmt == CITCAT_ADDR_XDIN && t == CITCAT_REF_FLUSH)
			return addr_werr(w, CITCAT_ERR_INVAL, "flush references have no xdin label");
		if (w->fmt == CITCAT_ADDR_XDIN)
			size = ref->size ? ref->size : 4;
	}
	w->refs++;
	if (t == CITCAT_REF_IFETCH || !m->ev_open || m->nd == EV_MAX) {
		if (m->ev_open) {
			int rc = end_event(w);
			if (rc)
				return rc;
		}
		if (m->brefs + EV_MAX + 1 > BLOCK_REFS) {
			int rc = flush_block(w, 0);
			if (rc)
				return rc;
		}
		start_event(m, t == CITCAT_REF_IFETCH, ref->addr, size);
		if (t == CITCAT_REF_IFETCH)
			return 0;
	}
	/* a data reference: its shape, size and address, predicted now */
	unsigned j = m->nd++;
	uint64_t a = ref->addr;
	if (j >= 16 || t != (unsigned)(m->ev_shape >> (8 + 3 * j) & 7))
		m->ev_miss |= 1;
	struct dent *d = &m->dt[dkey(m->ev_key, j)];
	unsigned k = a == d->last + d->stride ? 0 : a == d->last ? 1 : a == m->rec ? 2 : 3;
	if (k) {
		m->ev_miss |= 4;
		if (k == 3 && a > 0xffffffffu)
			m->ev_miss |= 8;
	}
	if (size != d->size) {
		m->ev_miss |= 2;
		d->size = size;
	}
	d->stride = a - d->last;
	d->last = a;
	m->rec = a;
	m->da[j] = a;
	m->ds[j] = size;
	m->dtype[j] = (uint8_t)t;
	m->dcode[j] = (uint8_t)k;
	return 0;
}

int tvp_finish(struct citcat_addr_writer *w)
{
	struct tvp_model *m = w->tvp;
	int rc = m->ev_open ? end_event(w) : 0;
	if (!rc)
		rc = flush_block(w, 1);
	if (!rc && (rc = cc_tvp_write_end(m->cw, w->refs)) != 0)
		return werr_from(w, rc);
	w->payload -= 16 + CC_TVP_HDR_LEN; /* the header and the end block are not payload */
	return rc;
}

int tvp_writer_open(struct citcat_addr_writer *w, unsigned stride, unsigned isizes)
{
	struct tvp_model *m = w->tvp = model_new();
	if (!m)
		return addr_werr(w, CITCAT_ERR_NOMEM, "out of memory");
	for (unsigned s = 0; s < S_COUNT; s++)
		if (!(m->s[s] = malloc(CC_TVP_BLOCK_MAX)))
			return addr_werr(w, CITCAT_ERR_NOMEM, "out of memory");
	/* the descriptor: which format this trace is, for readers (TVP_MODEL.md) */
	uint8_t desc[8] = {(uint8_t)w->fmt, 0, (uint8_t)w->bits, 0, 0, 0, 0, 0};
	if (w->fmt == CITCAT_ADDR_PDATS || w->fmt == CITCAT_ADDR_PDATS2) {
		desc[1] = (uint8_t)w->version;
		desc[3] = w->fmt == CITCAT_ADDR_PDATS2 ? (uint8_t)stride : 0;
		desc[4] = w->version >= 2 && isizes ? 1 : 0;
	} else {
		desc[2] = 64;
	}
	int rc = cc_tvp_writer_open(&m->cw, CC_TVP_TRACE, desc, 2, pack_opts, tvp_sink, w, &w->err);
	if (rc)
		return addr_werr(w, rc, "%s", w->err.msg);
	return 0;
}

void tvp_model_free(struct tvp_model *m)
{
	if (!m)
		return;
	cc_tvp_writer_free(m->cw);
	cc_tvp_reader_free(m->cr);
	for (unsigned s = 0; s < S_COUNT; s++)
		free(m->s[s]);
	free(m->pt);
	free(m->dt);
	free(m);
}

/* ---- reader ---- */

static long tvp_source(void *ctx, uint8_t *buf, size_t n)
{
	struct citcat_addr_reader *r = ctx;
	size_t got = 0;
	while (got < n) {
		if (r->pos == r->end) {
			long k = addr_fill(r, 1);
			if (k < 0)
				return k;
			if (k == 0)
				break;
		}
		size_t k = r->end - r->pos < n - got ? r->end - r->pos : n - got;
		memcpy(buf + got, r->buf + r->pos, k);
		r->pos += k;
		got += k;
	}
	return (long)got;
}

static int rerr_from(struct citcat_addr_reader *r, int rc)
{
	const struct citcat_errinfo *e = cc_tvp_reader_error(r->tvp->cr);
	if (e->msg[0])
		r->err = *e;
	r->done = rc;
	return rc;
}

static int corrupt(struct citcat_addr_reader *r, const char *what, unsigned s)
{
	return addr_rerr(r, CITCAT_ERR_CORRUPT, r->tvp->block_at, "TVP trace block: %s (%s stream)", what, stream_name[s]);
}

static inline int get8(struct tvp_model *m, unsigned s, unsigned *v)
{
	if (m->rpos[s] == m->rlen[s])
		return -1;
	*v = m->rs[s][m->rpos[s]++];
	return 0;
}

static inline int getv(struct tvp_model *m, unsigned s, uint64_t *v)
{
	uint64_t x = 0;
	for (unsigned sh = 0; sh < 64; sh += 7) {
		unsigned b;
		if (get8(m, s, &b))
			return -1;
		x |= (uint64_t)(b & 0x7f) << sh;
		if (!(b & 0x80)) {
			*v = x;
			return 0;
		}
	}
	return -1;
}

/* Events that every prediction got, from the pending run, into out[] while
 * there is room: 0, or -1 when a table's shape cannot be one (a crafted
 * file).  The hot loop of decoding: locals only. */
static int dec_run(struct tvp_model *m)
{
	struct pent *pt = m->pt;
	struct dent *dt = m->dt;
	uint64_t mask = m->mask, rec = m->rec, f = m->pc;
	unsigned key = m->pckey, run = m->prun, on = m->on;
	struct citcat_ref *out = m->out;
	int rc = 0;
	while (run && on < OUT_MAX - EV_MAX - 1) {
		f = pt[key].succ;
		key = pt[key].succkey;
		const struct pent *e = &pt[key];
		uint64_t shape = e->shape;
		if (shape == NOSHAPE) {
			rc = -1;
			break;
		}
		struct citcat_ref *o = out + on;
		o->addr = f;
		o->size = e->fsize;
		o->type = CITCAT_REF_IFETCH;
		unsigned nd = (unsigned)(shape & 0xff);
		for (unsigned j = 0; j < nd; j++) {
			struct dent *d = &dt[dkey(key, j)];
			uint64_t a = (d->last + d->stride) & mask;
			d->last = a;
			o[1 + j].addr = a;
			o[1 + j].size = d->size;
			o[1 + j].type = (uint8_t)(shape >> (8 + 3 * j) & 7);
			rec = a;
		}
		on += 1 + nd;
		run--;
	}
	m->bgot += on - m->on;
	m->pc = f;
	m->pckey = key;
	m->rec = rec;
	m->prun = run;
	m->on = on;
	return rc;
}

/* An event with token T. */
static int dec_event(struct citcat_addr_reader *r, unsigned t)
{
	struct tvp_model *m = r->tvp;
	unsigned c = (t >> 5) & 3, key;
	struct citcat_ref *o = m->out + m->on;
	if (c != 3) {
		struct pent *e = &m->pt[m->pckey];
		uint64_t f;
		if (c == 0) {
			f = e->succ;
		} else if (c == 1) {
			f = e->alt;
		} else {
			uint64_t d;
			if (getv(m, S_PC, &d))
				return corrupt(r, "a fetch address is missing", S_PC);
			f = (m->pc + unzz(d)) & m->mask;
		}
		key = pkey(f);
		if (f != e->succ) {
			e->alt = e->succ;
			e->succ = f;
			e->succkey = key;
		}
		m->pc = f;
		m->pckey = key;
		o->addr = f;
		o->type = CITCAT_REF_IFETCH;
		o++;
	} else {
		key = pkey(m->pc + 1);
	}
	struct pent *e = &m->pt[key];
	unsigned nd;
	uint8_t type[EV_MAX];
	if (t & 0x10) {
		if (get8(m, S_SHAPE, &nd))
			return corrupt(r, "a shape is missing", S_SHAPE);
		for (unsigned j = 0; j < nd; j++) {
			unsigned ty;
			if (get8(m, S_SHAPE, &ty))
				return corrupt(r, "a shape is cut short", S_SHAPE);
			if (ty >= CITCAT_REF_NTYPES || ty == CITCAT_REF_IFETCH)
				return corrupt(r, "a data reference of instruction-fetch or reserved type", S_SHAPE);
			type[j] = (uint8_t)ty;
		}
		e->shape = shape_of(nd, type);
	} else {
		if (e->shape == NOSHAPE)
			return corrupt(r, "a predicted shape that the table cannot hold", S_SYM);
		nd = (unsigned)(e->shape & 0xff);
		for (unsigned j = 0; j < nd; j++)
			type[j] = (uint8_t)(e->shape >> (8 + 3 * j) & 7);
	}
	if (c == 3 && nd == 0)
		return corrupt(r, "an event with no reference", S_SYM);
	if (c != 3) {
		if (t & 8) {
			uint64_t v;
			if (getv(m, S_SIZE, &v) || v > 0xffffffffu)
				return corrupt(r, "a fetch size is missing or too large", S_SIZE);
			e->fsize = (uint32_t)v;
		}
		o[-1].size = e->fsize;
	}
	uint8_t code[EV_MAX];
	if (!(t & 4))
		memset(code, 0, nd);
	else {
		for (unsigned j = 0; j < nd; j += 4) {
			unsigned b;
			if (get8(m, S_ACODE, &b))
				return corrupt(r, "address codes are missing", S_ACODE);
			for (unsigned i = 0; i < 4 && j + i < nd; i++)
				code[j + i] = (uint8_t)(b >> (2 * i) & 3);
		}
	}
	unsigned wbytes = m->wide ? 8 : 4;
	for (unsigned j = 0; j < nd; j++) {
		struct dent *d = &m->dt[dkey(key, j)];
		uint64_t a;
		switch (code[j]) {
		case 0: a = (d->last + d->stride) & m->mask; break;
		case 1: a = d->last; break;
		case 2: a = m->rec; break;
		default:
			if (m->rlen[S_DADDR] - m->rpos[S_DADDR] < wbytes)
				return corrupt(r, "a data address is missing", S_DADDR);
			a = 0;
			for (unsigned i = 0; i < wbytes; i++)
				a |= (uint64_t)m->rs[S_DADDR][m->rpos[S_DADDR]++] << (8 * i);
		}
		if (t & 8) {
			uint64_t v;
			if (getv(m, S_SIZE, &v) || v > 0xffffffffu)
				return corrupt(r, "a data size is missing or too large", S_SIZE);
			d->size = (uint32_t)v;
		}
		d->stride = a - d->last;
		d->last = a;
		m->rec = a;
		o[j].addr = a;
		o[j].size = d->size;
		o[j].type = type[j];
	}
	m->on += (c != 3) + nd;
	return 0;
}

/* Reads the next block's streams; 1, 0 at the end (checked), or an error. */
static int next_block(struct citcat_addr_reader *r)
{
	struct tvp_model *m = r->tvp;
	m->block_at = cc_tvp_reader_offset(m->cr);
	uint64_t count;
	int rc = cc_tvp_read_block(m->cr, S_COUNT, stream_group, &count, m->rs, m->rlen);
	if (rc < 0)
		return rerr_from(r, rc);
	if (rc == 0) {
		if (count != m->total)
			return addr_rerr(r, CITCAT_ERR_CORRUPT, m->block_at + 4,
					 "TVP: the end block counts %llu references, the blocks hold %llu",
					 (unsigned long long)count, (unsigned long long)m->total);
		r->payload_end = addr_roff(r) - 16;
		m->ended = 1;
		return 0;
	}
	memset(m->rpos, 0, sizeof m->rpos);
	m->bcount = count;
	m->bgot = 0;
	m->in_block = 1;
	return 1;
}

/* Fills out[] with the next events; 1, 0 at the end, or an error. */
static int refill(struct citcat_addr_reader *r)
{
	struct tvp_model *m = r->tvp;
	m->opos = m->on = 0;
	while (m->on < OUT_MAX - EV_MAX - 1) {
		unsigned before = m->on;
		if (m->prun) {
			if (dec_run(m))
				return corrupt(r, "a predicted shape that the table cannot hold", S_SYM);
			continue;
		}
		if (!m->in_block) {
			if (m->ended)
				break;
			int rc = next_block(r);
			if (rc < 0)
				return rc;
			if (rc == 0)
				break;
		}
		unsigned t;
		if (get8(m, S_SYM, &t)) {
			/* the block's end: every stream used up, every reference given */
			for (unsigned s = 0; s < S_COUNT; s++)
				if (m->rpos[s] != m->rlen[s])
					return corrupt(r, "bytes left over at the block's end", s);
			if (m->bgot != m->bcount)
				return addr_rerr(r, CITCAT_ERR_CORRUPT, m->block_at,
						 "TVP trace block: counts %llu references but holds %llu",
						 (unsigned long long)m->bcount, (unsigned long long)m->bgot);
			m->total += m->bcount;
			m->in_block = 0;
			continue;
		}
		if (t < 0x80) {
			m->prun = t + 1;
			continue;
		}
		if (t & 3) {
			if (t != TOK_WIDE || m->mask != UINT64_MAX)
				return corrupt(r, t != TOK_WIDE ? "a reserved token" : "8-byte addresses in a 32-bit trace", S_SYM);
			m->wide = 1;
			continue;
		}
		int rc = dec_event(r, t);
		if (rc)
			return rc;
		m->bgot += m->on - before;
	}
	return m->on > 0;
}

int tvp_next(struct citcat_addr_reader *r, struct citcat_ref *ref)
{
	struct tvp_model *m = r->tvp;
	int rc = refill(r);
	if (rc <= 0) {
		if (rc == 0)
			r->done = 1;
		return rc;
	}
	/* citcat_addr_next gives the rest of the buffer itself */
	r->rbuf = m->out;
	r->rpos = 1;
	r->rn = m->on;
	*ref = m->out[0];
	r->refs++;
	return 1;
}

/* Reads a mode-1 container's header (in the window) and starts its model. */
int tvp_reader_open(struct citcat_addr_reader *r)
{
	uint8_t h[CC_TVP_HDR_LEN];
	struct cc_tvp_header th;
	if (tvp_source(r, h, sizeof h) != (long)sizeof h)
		return r->done < 0 ? r->done : addr_rerr(r, CITCAT_ERR_TRUNCATED, 0, "TVP: header cut short");
	int rc = cc_tvp_parse_header(h, &th, &r->err);
	if (rc)
		return r->done = rc;
	const uint8_t *d = th.desc;
	unsigned fmt = d[0], v = d[1], bits = d[2], s = d[3], fl = d[4];
	int pd = fmt == CITCAT_ADDR_PDATS || fmt == CITCAT_ADDR_PDATS2, at = -1;
	if (fmt < CITCAT_ADDR_DIN || fmt > CITCAT_ADDR_PDATS2)
		at = 8;
	else if (pd ? v < 1 || v > (fmt == CITCAT_ADDR_PDATS2 ? PDATS2_VERSION : ADDR_VERSION) : v != 0)
		at = 9;
	else if (pd ? bits != 32 && bits != 64 : bits != 64)
		at = 10;
	else if (fmt == CITCAT_ADDR_PDATS2 ? s != 1 && s != 2 && s != 4 && s != 8 : s != 0)
		at = 11;
	else if (fl > (pd && v >= 2 ? 1u : 0u))
		at = 12;
	for (unsigned i = 5; at < 0 && i < 8; i++)
		if (d[i])
			at = 8 + (int)i;
	if (at >= 0)
		return addr_rerr(r, CITCAT_ERR_CORRUPT, (uint64_t)at, "TVP: bad trace descriptor byte %u", d[at - 8]);
	struct tvp_model *m = r->tvp = model_new();
	if (!m)
		return addr_rerr(r, CITCAT_ERR_NOMEM, UINT64_MAX, "out of memory");
	if ((rc = cc_tvp_reader_open(&m->cr, &th, tvp_source, r, &r->err)) != 0)
		return r->done = rc;
	r->fmt = (int)fmt;
	r->version = v;
	r->bits = bits;
	r->mask = m->mask = bits == 64 ? UINT64_MAX : 0xffffffffu;
	r->ishift = s == 1 ? 0 : s == 2 ? 1 : s == 4 ? 2 : s == 8 ? 3 : 0;
	return 0;
}
