/* PDATS II (Johnson, "PDATS II: Improved Compression of Address Traces"),
 * with the bit layout PDATS2.md derives from the paper's Table 3, and its
 * version 2: instructions of two sizes (Thumb-2), the predicted successor
 * of each instruction, and predicted runs after data references
 * (PDATS2.md, "Version 2"); version 3: the size of an instruction executed
 * for the first time as one size bit, packed 8 to a size byte across
 * records (PDATS2.md, "Version 3").
 *
 * The encoder writes each record as soon as it starts and keeps the index
 * of its header byte: a following predicted instruction fetch only
 * increments that byte (the count is its low field in both record kinds),
 * which keeps the common case to a compare and an increment.  Version 2's
 * data records wait for their count (dpend) until the run after them
 * reaches the predicted length or ends. */
#include "addr_int.h"

#define P2_ESC_END 31  /* escape kind: end of records */
#define P2_ESC_MODE 7  /* escape kind (version 2): instruction stride and sizes */
#define P2_MODE_VAR 0x80

static inline unsigned len_for(int64_t v, unsigned wide)
{
	if (v >= -128 && v <= 127)
		return 1;
	if (v >= -32768 && v <= 32767)
		return 2;
	return wide;
}

/* The escape byte after an instruction header with the 1-byte offset code:
 * version 1 uses +1 stride (which has its own code there), version 2 uses 0
 * (a jump to itself, which version 2 writes with two bytes). */
static inline unsigned esc_byte(unsigned version) { return version == 1 ? 0x01 : 0x00; }

/* Makes room for N more bytes in the staging buffer (no record may be open
 * for in-place updates across this: the caller closed it).  Version 3: a
 * size byte that may still take bits (a record later than nrec - P2_SWIN
 * may use it) stays in the buffer with everything after it. */
static inline int p2_room(struct citcat_addr_writer *w, size_t n)
{
	if (w->len + n <= ADDR_OUTBUF)
		return 0;
	if (w->sfree && w->nrec - w->sr0 < P2_SWIN) {
		size_t keep = w->sbpos;
		if (addr_wflush_part(w, keep))
			return w->err.code;
		w->sbpos = 0;
		w->phdr = w->phdr >= keep ? w->phdr - keep : 0; /* closed (see above) when flushed */
		return 0;
	}
	w->sfree = 0;
	if (addr_wflush(w))
		return w->err.code;
	return 0;
}

/* ---- version 3's size bits ---- */

/* Before a fetch at A after the instruction at PC, in size mode V = 1: when
 * that instruction's size is unknown, learns it from the step (S or 2S;
 * after a jump the guess L, which is then unchanged) and returns the size
 * bit the fetch carries (0 = S, 1 = 2S); else -1.  A step that is not a
 * multiple of S carries no bit: a mode record comes first and clears the
 * tables, and the fetch is looked at again. */
static inline int p2_cold(struct citcat_addr_writer *w, uint64_t pc, uint64_t a)
{
	struct addr_pred *p = &w->pred;
	unsigned k = addr_pred_key(p, pc);
	if (w->version < 3 || !p->var || p->size[k])
		return -1;
	uint64_t d = (a - pc) & w->mask;
	if (d & (p->s1 - 1))
		return -1;
	unsigned s = d == p->s1 || d == p->s2 ? (unsigned)d : p->step;
	p->size[k] = (uint8_t)s;
	p->step = s;
	return s == p->s2;
}

/* Writes size bit B of a fetch of record number nrec, the last record
 * written: into the open size byte when it has a free bit and fewer than
 * P2_SWIN records have begun after it; else in a new size byte at the end
 * of the buffer, which is after that record and the size bytes already
 * after it (the decoder reads it there).  Room: ADDR_OUTSLACK. */
static inline void p2_sbit(struct citcat_addr_writer *w, unsigned b)
{
	if (w->sfree && w->nrec - w->sr0 < P2_SWIN) {
		w->buf[w->sbpos] |= (uint8_t)(b << (8 - w->sfree));
		w->sfree--;
		return;
	}
	w->sbpos = w->len;
	w->buf[w->len++] = (uint8_t)b;
	w->payload++;
	w->sfree = 7;
	w->sr0 = w->nrec;
}

/* Writes the size bits of the waiting data record's fetches numbered below
 * UPTO, from its list's entry *I on; returns nothing (the list is in fetch
 * order). */
static inline void p2_dbits(struct citcat_addr_writer *w, unsigned *i, unsigned upto)
{
	while (*i < w->dn && w->didx[*i] < upto) {
		p2_sbit(w, w->dval[*i]);
		++*i;
	}
}

/* The escape: an instruction header with the 1-byte offset code, count
 * field KIND, and the escape byte; then the absolute address (kinds 0..6),
 * the mode byte (kind 7) or nothing (end). */
static void p2_escape(struct citcat_addr_writer *w, unsigned kind, uint64_t arg)
{
	uint8_t *p = w->buf + w->len;
	w->nrec++;
	p[0] = (uint8_t)(0x20 | kind);
	p[1] = (uint8_t)esc_byte(w->version);
	size_t k = 2;
	if (kind == P2_ESC_MODE) {
		p[k++] = (uint8_t)arg;
	} else if (kind != P2_ESC_END) {
		addr_puts(p + 2, arg, w->bits / 8);
		k += w->bits / 8;
	}
	addr_count_packet(w, k);
	w->pmax = 0;
}

/* ---- version 2 encoder ---- */

/* Writes instruction records of the predicted successor for N fetches
 * (32 per record); the last one stays open.  Version 3: the fetches are
 * numbers FIRST.. of a data record's run, and the size bits waiting for
 * them (from list entry *I) follow the record that holds them. */
static void p2_next_records(struct citcat_addr_writer *w, unsigned n, unsigned first, unsigned *i)
{
	while (n) {
		unsigned k = n > 32 ? 32 : n;
		w->phdr = w->len;
		w->buf[w->len++] = (uint8_t)(k - 1);
		w->payload++;
		w->nrec++;
		w->pcount = k - 1;
		n -= k;
		first += k;
		if (i)
			p2_dbits(w, i, first);
	}
	w->pmax = 31;
}

/* Settles a data record still waiting for its count: the fetches seen go
 * into its count when there are at most 2, else 2 of them do and the rest
 * follow as records of the predicted successor.  No more fetches can join
 * it. */
static int p2_settle(struct citcat_addr_writer *w)
{
	if (!w->dpend)
		return 0;
	w->dpend = 0;
	unsigned m = w->dgot;
	w->buf[w->phdr] |= (uint8_t)(m < 3 ? m : 2);
	w->pmax = 0;
	if (m < 3 && !w->dn)
		return 0;
	if (p2_room(w, 64)) /* 8 records and their size bytes (at most 32 + 8) */
		return w->err.code;
	/* version 3: the bits of fetches 1 and 2 (all when m < 3) follow
	 * the data record, the others the cc = 0 record holding their fetch */
	unsigned i = 0;
	p2_dbits(w, &i, 3);
	if (m >= 3)
		p2_next_records(w, m - 2, 3, &i); /* m < dwant <= 255: at most 8 records */
	w->dn = 0;
	return 0;
}

/* Ends a data reference's run (before any record that is not one of the
 * predicted successor): the run table learns its length. */
static inline void p2_end_run(struct citcat_addr_writer *w)
{
	if (w->ron && w->rlen >= 3)
		w->pred.run[w->rkey] = (uint8_t)(w->rlen > 255 ? 255 : w->rlen);
	w->ron = 0;
}

/* Before a record other than one of the predicted successor. */
static inline int p2_break(struct citcat_addr_writer *w)
{
	if (p2_settle(w))
		return w->err.code;
	p2_end_run(w);
	return p2_room(w, ADDR_REC_MAX);
}

static void p2_mode(struct citcat_addr_writer *w, unsigned shift, int var)
{
	unsigned s = 1u << shift;
	p2_escape(w, P2_ESC_MODE, s | (var ? P2_MODE_VAR : 0));
	w->ishift = shift;
	addr_pred_reset(&w->pred, shift, s, s, var);
}

static int p2v2_put(struct citcat_addr_writer *w, const struct citcat_ref *ref)
{
	uint64_t a = ref->addr, mask = w->mask;
	unsigned t = ref->type;
	w->refs++;
	if (t == CITCAT_REF_IFETCH) {
		uint64_t pc = w->ilast;
		int sb = p2_cold(w, pc, a); /* version 3: the size bit this fetch carries, or -1 */
		if (a == addr_pred_succ(&w->pred, pc, mask)) {
			/* the predicted successor: counted in the open record */
			addr_pred_learn(&w->pred, pc, a, mask, 1);
			w->ilast = a;
			w->rlen += w->ron;
			if (w->dpend) {
				++w->dgot;
				if (sb >= 0) { /* its place waits for the count */
					w->didx[w->dn] = (uint8_t)w->dgot;
					w->dval[w->dn++] = (uint8_t)sb;
				}
				if (w->dgot == w->dwant) { /* the predicted run: count code 3 */
					w->buf[w->phdr] |= 3;
					w->dpend = 0;
					w->pmax = 0;
					unsigned i = 0;
					p2_dbits(w, &i, 256);
					w->dn = 0;
				}
				return 0;
			}
			if (w->pcount < w->pmax) {
				w->buf[w->phdr]++;
				w->pcount++;
				if (sb >= 0)
					p2_sbit(w, (unsigned)sb);
				return 0;
			}
			if (p2_room(w, ADDR_REC_MAX))
				return w->err.code;
			p2_next_records(w, 1, 0, NULL);
			if (sb >= 0)
				p2_sbit(w, (unsigned)sb);
			return 0;
		}
		if (p2_break(w))
			return w->err.code;
		uint64_t d = (a - pc) & mask;
		if (d & ((1u << w->ishift) - 1)) {
			/* not a whole number of strides: Thumb code in a file begun
			 * with 4, or odd addresses: the stride becomes the largest
			 * power of two dividing the step, instructions of two sizes */
			p2_mode(w, (unsigned)__builtin_ctzll(d), 1);
			if (p2_room(w, ADDR_REC_MAX))
				return w->err.code;
			sb = p2_cold(w, pc, a);
			if (a == addr_pred_succ(&w->pred, pc, mask)) {
				addr_pred_learn(&w->pred, pc, a, mask, 1);
				w->ilast = a;
				p2_next_records(w, 1, 0, NULL);
				if (sb >= 0)
					p2_sbit(w, (unsigned)sb);
				return 0;
			}
		}
		/* a jump: the other successor, else the offset in strides in 1
		 * or 2 bytes (0, a jump to itself, in 2: 1 byte of 0 is the
		 * escape), else an escape with the address */
		uint8_t *p = w->buf + w->len;
		int64_t q = addr_sext(d, w->bits) >> w->ishift; /* exact: d is a multiple of the stride */
		unsigned n = a == addr_pred_other(&w->pred, pc, mask) ? 0 : q != 0 ? len_for(q, 4) : 2;
		if (n == 4) {
			p2_escape(w, CITCAT_REF_IFETCH, a);
		} else {
			p[0] = (uint8_t)(n == 0 ? 0x60 : n << 5);
			addr_puts(p + 1, (uint64_t)q, n);
			w->phdr = w->len;
			w->len += 1 + n;
			w->payload += 1 + n;
			w->nrec++;
			w->pcount = 0;
			w->pmax = 31;
		}
		if (sb >= 0)
			p2_sbit(w, (unsigned)sb);
		addr_pred_learn(&w->pred, pc, a, mask, 1);
		w->ilast = a;
		return 0;
	}
	if (p2_break(w))
		return w->err.code;
	if (t > CITCAT_REF_WRITE) {
		p2_escape(w, t, a);
		return 0;
	}
	/* Data: the zone with the shorter encoding; on a tie the one used less
	 * recently (PDATS2.md, "Choosing a zone").  Its count waits. */
	unsigned wide = w->bits / 8;
	int64_t s0 = addr_sext((a - w->zone[0]) & mask, w->bits);
	int64_t s1 = addr_sext((a - w->zone[1]) & mask, w->bits);
	unsigned l0 = (s0 == 0 || s0 == 4 || s0 == -4 || s0 == 8 || s0 == -8) ? 0 : len_for(s0, wide);
	unsigned l1 = (s1 == 0 || s1 == 4 || s1 == -4 || s1 == 8 || s1 == -8) ? 0 : len_for(s1, wide);
	int z = l0 < l1 ? 0 : l1 < l0 ? 1 : !w->zmru;
	int64_t sd = z ? s1 : s0;
	unsigned n = z ? l1 : l0, code;
	switch (sd) {
	case 0: code = 0; break;
	case 4: code = 1; break;
	case -4: code = 2; break;
	case 8: code = 3; break;
	case -8: code = 4; break;
	default: code = n == 1 ? 5 : n == 2 ? 6 : 7;
	}
	uint8_t *p = w->buf + w->len;
	p[0] = (uint8_t)(0x80 | t << 6 | code << 3 | (unsigned)z << 2);
	addr_puts(p + 1, (uint64_t)sd, n);
	w->phdr = w->len;
	w->len += 1 + n;
	w->payload += 1 + n;
	w->nrec++;
	w->zone[z] = a;
	w->zmru = z;
	unsigned key = addr_pred_key(&w->pred, w->ilast);
	w->dpend = 1;
	w->dgot = 0;
	w->dwant = w->pred.run[key] ? w->pred.run[key] : 3;
	w->pcount = 0;
	w->pmax = 0;
	w->ron = 1;
	w->rkey = key;
	w->rlen = 0;
	return 0;
}

/* ---- version 1 encoder (the paper's layout) ---- */

static int p2v1_put(struct citcat_addr_writer *w, const struct citcat_ref *ref)
{
	uint64_t a = ref->addr;
	unsigned t = ref->type;
	w->refs++;
	if (t == CITCAT_REF_IFETCH) {
		uint64_t stride = 1u << w->ishift;
		if (a == ((w->ilast + stride) & w->mask) && w->pcount < w->pmax) {
			w->buf[w->phdr]++;
			w->pcount++;
			w->ilast = a;
			return 0;
		}
	}
	if (p2_room(w, ADDR_REC_MAX))
		return w->err.code;
	uint8_t *p = w->buf + w->len;
	unsigned wide = w->bits / 8;
	if (t == CITCAT_REF_IFETCH) {
		int64_t sd = addr_sext((a - w->ilast) & w->mask, w->bits);
		if (sd & ((1 << w->ishift) - 1)) /* not a whole number of strides */
			return p2_escape(w, t, a), w->ilast = a, 0;
		int64_t q = sd >> w->ishift; /* arithmetic shift: exact, sd is a multiple */
		unsigned code, n;
		if (q == 1)
			code = 0, n = 0;
		else
			n = len_for(q, wide), code = n == 1 ? 1 : n == 2 ? 2 : 3;
		p[0] = (uint8_t)(code << 5);
		addr_puts(p + 1, (uint64_t)q, n);
		w->phdr = w->len;
		w->len += 1 + n;
		w->payload += 1 + n;
		w->pcount = 0;
		w->pmax = 31;
		w->ilast = a;
		return 0;
	}
	if (t > CITCAT_REF_WRITE)
		return p2_escape(w, t, a), 0;
	/* Data: the zone with the shorter encoding; on a tie the one used less
	 * recently (PDATS2.md, "Choosing a zone"). */
	int64_t s0 = addr_sext((a - w->zone[0]) & w->mask, w->bits);
	int64_t s1 = addr_sext((a - w->zone[1]) & w->mask, w->bits);
	unsigned l0 = (s0 == 0 || s0 == 4 || s0 == -4 || s0 == 8 || s0 == -8) ? 0 : len_for(s0, wide);
	unsigned l1 = (s1 == 0 || s1 == 4 || s1 == -4 || s1 == 8 || s1 == -8) ? 0 : len_for(s1, wide);
	int z = l0 < l1 ? 0 : l1 < l0 ? 1 : !w->zmru;
	int64_t sd = z ? s1 : s0;
	unsigned n = z ? l1 : l0, code;
	switch (sd) {
	case 0: code = 0; break;
	case 4: code = 1; break;
	case -4: code = 2; break;
	case 8: code = 3; break;
	case -8: code = 4; break;
	default: code = n == 1 ? 5 : n == 2 ? 6 : 7;
	}
	p[0] = (uint8_t)(0x80 | t << 6 | code << 3 | (unsigned)z << 2);
	addr_puts(p + 1, (uint64_t)sd, n);
	w->phdr = w->len;
	w->len += 1 + n;
	w->payload += 1 + n;
	w->pcount = 0;
	w->pmax = 3;
	w->zone[z] = a;
	w->zmru = z;
	return 0;
}

int pdats2_put(struct citcat_addr_writer *w, const struct citcat_ref *ref)
{
	return w->version == 1 ? p2v1_put(w, ref) : p2v2_put(w, ref);
}

int pdats2_finish(struct citcat_addr_writer *w)
{
	if (w->version == 1 ? p2_room(w, ADDR_REC_MAX) : p2_break(w))
		return w->err.code;
	p2_escape(w, P2_ESC_END, 0);
	w->payload -= 2; /* the end marker is not part of the record stream */
	return addr_write_trailer(w);
}

/* ---- decoder ---- */

/* Version 2: ends a data reference's run (PDATS2.md). */
static inline void p2r_end_run(struct citcat_addr_reader *r)
{
	if (r->ron && r->rlen >= 3)
		r->pred.run[r->rkey] = (uint8_t)(r->rlen > 255 ? 255 : r->rlen);
	r->ron = 0;
}

/* The next fetch of a run: the (predicted) successor of ilast. */
static inline uint64_t p2r_next(struct citcat_addr_reader *r)
{
	uint64_t pc = r->ilast;
	if (r->version == 1)
		return (pc + (1u << r->ishift)) & r->mask;
	uint64_t a = addr_pred_succ(&r->pred, pc, r->mask);
	addr_pred_learn(&r->pred, pc, a, r->mask, 1);
	return a;
}

/* Version 3, before a fetch after the instruction at ilast is decoded:
 * when V = 1 and its size is unknown, reads its size bit (PDATS2.md,
 * "Version 3").  Returns 0 or an error. */
static int p2r_sbit(struct citcat_addr_reader *r, unsigned k)
{
	unsigned b;
	if (r->sleft && r->nrec - r->sr0 < P2_SWIN) {
		b = r->sbyte & 1;
		r->sbyte >>= 1;
		r->sleft--;
	} else {
		/* a new size byte: the byte after the record being decoded
		 * (and the size bytes already read after it) */
		if (r->pos >= r->end) {
			long n = addr_fill(r, 1);
			if (n < 0)
				return (int)n;
			if (n == 0)
				return addr_rerr(r, CITCAT_ERR_TRUNCATED, addr_roff(r), "size byte cut short");
		}
		unsigned v = r->buf[r->pos++];
		b = v & 1;
		r->sbyte = v >> 1;
		r->sleft = 7;
		r->sr0 = r->nrec;
	}
	unsigned s = b ? r->pred.s2 : r->pred.s1;
	r->pred.size[k] = (uint8_t)s;
	r->pred.step = s;
	return 0;
}

/* Whether the fetch after ilast carries a size bit (version 3, V = 1,
 * the size of the instruction at ilast unknown): its key + 1, else 0. */
static inline unsigned p2r_bit_key(const struct citcat_addr_reader *r)
{
	if (r->version < 3 || !r->pred.var)
		return 0;
	unsigned k = addr_pred_key(&r->pred, r->ilast);
	return r->pred.size[k] ? 0 : k + 1;
}

static inline int p2r_cold(struct citcat_addr_reader *r)
{
	unsigned k1 = p2r_bit_key(r);
	return k1 ? p2r_sbit(r, k1 - 1) : 0;
}

/* An instruction fetch at A not of a run. */
static inline void p2r_jump(struct citcat_addr_reader *r, uint64_t a)
{
	if (r->version != 1)
		addr_pred_learn(&r->pred, r->ilast, a, r->mask, 1);
	r->ilast = a;
}

/* An escape record at P: returns 1 with *REF, 0 at the end, 2 after a mode
 * record (no reference: read on), or an error. */
static int p2_escape_rec(struct citcat_addr_reader *r, struct citcat_ref *ref, const uint8_t *p, long avail,
			 unsigned kind)
{
	unsigned wide = r->bits / 8;
	if (r->version != 1)
		p2r_end_run(r);
	if (kind == P2_ESC_END) {
		r->payload_end = addr_roff(r);
		r->pos += 2;
		addr_hash_stop(r, r->pos);
		int rc = addr_read_trailer(r);
		return rc < 0 ? rc : 0;
	}
	if (kind == P2_ESC_MODE && r->version != 1) {
		if (avail < 3)
			return addr_rerr(r, CITCAT_ERR_TRUNCATED, addr_roff(r), "mode record cut short");
		unsigned m = p[2], s = m & 0x7f;
		if (s != 1 && s != 2 && s != 4 && s != 8)
			return addr_rerr(r, CITCAT_ERR_CORRUPT, addr_roff(r) + 2,
					 "mode record: instruction stride %u is not 1, 2, 4 or 8", s);
		r->pos += 3;
		r->ishift = s == 1 ? 0 : s == 2 ? 1 : s == 4 ? 2 : 3;
		addr_pred_reset(&r->pred, r->ishift, s, s, (m & P2_MODE_VAR) != 0);
		return 2;
	}
	if (kind >= CITCAT_REF_NTYPES)
		return addr_rerr(r, CITCAT_ERR_CORRUPT, addr_roff(r), "reserved escape kind %u", kind);
	if ((size_t)avail < 2 + wide)
		return addr_rerr(r, CITCAT_ERR_TRUNCATED, addr_roff(r), "escape record cut short: needs %u bytes, %ld left",
				 2 + wide, avail);
	uint64_t a = (uint64_t)addr_gets(p + 2, wide) & r->mask;
	r->pos += 2 + wide;
	if (kind == CITCAT_REF_IFETCH) {
		int rc = p2r_cold(r);
		if (rc < 0)
			return rc;
		p2r_jump(r, a);
	}
	ref->addr = a;
	ref->type = (uint8_t)kind;
	r->refs++;
	return 1;
}

/* The next fetch of a run whose size bit is to be read first (version 3),
 * out of line: the common path of pdats2_next stays free of calls. */
__attribute__((noinline)) static int p2r_run_cold(struct citcat_addr_reader *r, struct citcat_ref *ref)
{
	int rc = p2r_cold(r);
	if (rc < 0)
		return rc;
	r->pseq--;
	r->ilast = p2r_next(r);
	return addr_run_ref(r, ref, r->ilast, CITCAT_REF_IFETCH);
}

/* The next record (out of line, as above). */
__attribute__((noinline)) static int p2r_record(struct citcat_addr_reader *r, struct citcat_ref *ref)
{
	for (;;) {
		long avail = addr_record_bytes(r);
		if (avail < 0)
			return (int)avail;
		const uint8_t *p = r->buf + r->pos;
		uint8_t h = p[0];
		r->nrec++;
		unsigned wide = r->bits / 8, v1 = r->version == 1;
		ref->size = 0;
		if (!(h & 0x80)) {
			unsigned code = (h >> 5) & 3, cnt = h & 31;
			unsigned n = code == 0 ? 0 : code == 1 ? 1 : code == 2 ? 2 : v1 ? wide : 0;
			if ((size_t)avail < 1 + n)
				return addr_rerr(r, CITCAT_ERR_TRUNCATED, addr_roff(r),
						 "instruction record cut short: needs %u bytes, %ld left", 1 + n, avail);
			int64_t q = code == 0 ? 1 : n ? addr_gets(p + 1, n) : 0;
			if (code == 1 && (uint64_t)q == esc_byte(r->version)) {
				int rc = p2_escape_rec(r, ref, p, avail, cnt);
				if (rc == 2)
					continue;
				return rc;
			}
			r->pos += 1 + n;
			if (!v1) {
				int rc = p2r_cold(r); /* may move the window: p is not used again */
				if (rc < 0)
					return rc;
			}
			if (v1) {
				r->ilast = (r->ilast + ((uint64_t)q << r->ishift)) & r->mask;
			} else if (code == 0) {
				r->ilast = p2r_next(r);
				r->rlen += 1 + cnt; /* a record of the predicted successor continues a data run */
			} else {
				p2r_end_run(r);
				uint64_t a = code == 3 ? addr_pred_other(&r->pred, r->ilast, r->mask)
						       : (r->ilast + ((uint64_t)q << r->ishift)) & r->mask;
				p2r_jump(r, a);
			}
			r->pseq = cnt;
			ref->addr = r->ilast;
			ref->type = CITCAT_REF_IFETCH;
			r->refs++;
			return 1;
		}
		static const int8_t small[5] = {0, 4, -4, 8, -8};
		unsigned code = (h >> 3) & 7, z = (h >> 2) & 1;
		unsigned n = code < 5 ? 0 : code == 5 ? 1 : code == 6 ? 2 : wide;
		if ((size_t)avail < 1 + n)
			return addr_rerr(r, CITCAT_ERR_TRUNCATED, addr_roff(r),
					 "data record cut short: needs %u bytes, %ld left", 1 + n, avail);
		int64_t d = code < 5 ? small[code] : addr_gets(p + 1, n);
		r->pos += 1 + n;
		uint64_t a = (r->zone[z] + (uint64_t)d) & r->mask;
		r->zone[z] = a;
		unsigned cnt = h & 3;
		if (!v1) {
			p2r_end_run(r);
			unsigned key = addr_pred_key(&r->pred, r->ilast);
			if (cnt == 3 && r->pred.run[key])
				cnt = r->pred.run[key];
			r->ron = 1;
			r->rkey = key;
			r->rlen = cnt;
		}
		r->pseq = cnt;
		ref->addr = a;
		ref->type = (h >> 6) & 1;
		r->refs++;
		return 1;
	}
}

int pdats2_next(struct citcat_addr_reader *r, struct citcat_ref *ref)
{
	if (r->pseq) {
		if (p2r_bit_key(r))
			return p2r_run_cold(r, ref);
		r->pseq--;
		r->ilast = p2r_next(r);
		return addr_run_ref(r, ref, r->ilast, CITCAT_REF_IFETCH);
	}
	return p2r_record(r, ref);
}
