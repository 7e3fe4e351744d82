/* PDATS II (Johnson, "PDATS II: Improved Compression of Address Traces"),
 * with the bit layout PDATS2.md derives from the paper's Table 3.
 *
 * The encoder writes each record as soon as it starts and keeps the index
 * of its header byte: a following sequential instruction fetch only
 * increments that byte (the count is its low field in both record kinds),
 * which keeps the common case to a compare and an increment. */
#include "addr_int.h"

#define P2_ESC_END 31 /* escape kind: end of records */

static inline unsigned len_for(int64_t v, unsigned wide)
{
	if (v >= -128 && v <= 127)
		return 1;
	if (v >= -32768 && v <= 32767)
		return 2;
	return wide;
}

/* The escape: an instruction header with the 1-byte offset code, count
 * field KIND, and offset byte +1 (which a canonical encoder never writes
 * that way: +1 has its own code). */
static int p2_escape(struct citcat_addr_writer *w, unsigned kind, uint64_t addr)
{
	uint8_t *p = w->buf + w->len;
	p[0] = (uint8_t)(0x20 | kind);
	p[1] = 0x01;
	size_t k = 2;
	if (kind != P2_ESC_END) {
		addr_puts(p + 2, addr, w->bits / 8);
		k += w->bits / 8;
	}
	addr_count_packet(w, k);
	w->pmax = 0;
	return 0;
}

int pdats2_put(struct citcat_addr_writer *w, const struct citcat_ref *ref)
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
	if (w->len + ADDR_REC_MAX > ADDR_OUTBUF && addr_wflush(w))
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
		return p2_escape(w, t, a);
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

int pdats2_finish(struct citcat_addr_writer *w)
{
	if (w->len + ADDR_REC_MAX > ADDR_OUTBUF && addr_wflush(w))
		return w->err.code;
	p2_escape(w, P2_ESC_END, 0);
	w->payload -= 2; /* the end marker is not part of the record stream */
	return addr_write_trailer(w);
}

int pdats2_next(struct citcat_addr_reader *r, struct citcat_ref *ref)
{
	if (r->pseq) {
		r->pseq--;
		r->ilast = (r->ilast + (1u << r->ishift)) & r->mask;
		return addr_run_ref(r, ref, r->ilast, CITCAT_REF_IFETCH);
	}
	long avail = addr_record_bytes(r);
	if (avail < 0)
		return (int)avail;
	const uint8_t *p = r->buf + r->pos;
	uint8_t h = p[0];
	unsigned wide = r->bits / 8;
	ref->size = 0;
	if (!(h & 0x80)) {
		unsigned code = (h >> 5) & 3, cnt = h & 31;
		unsigned n = code == 0 ? 0 : code == 1 ? 1 : code == 2 ? 2 : wide;
		if ((size_t)avail < 1 + n)
			return addr_rerr(r, CITCAT_ERR_TRUNCATED, addr_roff(r),
					 "instruction record cut short: needs %u bytes, %ld left", 1 + n, avail);
		int64_t q = code == 0 ? 1 : addr_gets(p + 1, n);
		if (code == 1 && q == 1) { /* escape */
			if (cnt == P2_ESC_END) {
				r->payload_end = addr_roff(r);
				r->pos += 2;
				addr_hash_stop(r, r->pos);
				int rc = addr_read_trailer(r);
				return rc < 0 ? rc : 0;
			}
			if (cnt >= CITCAT_REF_NTYPES)
				return addr_rerr(r, CITCAT_ERR_CORRUPT, addr_roff(r), "reserved escape kind %u", cnt);
			if ((size_t)avail < 2 + wide)
				return addr_rerr(r, CITCAT_ERR_TRUNCATED, addr_roff(r),
						 "escape record cut short: needs %u bytes, %ld left", 2 + wide, avail);
			uint64_t a = (uint64_t)addr_gets(p + 2, wide) & r->mask;
			r->pos += 2 + wide;
			if (cnt == CITCAT_REF_IFETCH)
				r->ilast = a;
			ref->addr = a;
			ref->type = (uint8_t)cnt;
			r->refs++;
			return 1;
		}
		r->pos += 1 + n;
		r->ilast = (r->ilast + ((uint64_t)q << r->ishift)) & r->mask;
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
		return addr_rerr(r, CITCAT_ERR_TRUNCATED, addr_roff(r), "data record cut short: needs %u bytes, %ld left",
				 1 + n, avail);
	int64_t d = code < 5 ? small[code] : addr_gets(p + 1, n);
	r->pos += 1 + n;
	uint64_t a = (r->zone[z] + (uint64_t)d) & r->mask;
	r->zone[z] = a;
	r->pseq = h & 3;
	ref->addr = a;
	ref->type = (h >> 6) & 1;
	r->refs++;
	return 1;
}
