/* PDATS: the original Packed Differential Address and Time Stamp format
 * (Johnson & Ha 1994), as PDATS.md specifies it, and its version 2, whose
 * default instruction offset is "the next instruction" of either size
 * (Thumb-2; PDATS.md, "Version 2"). */
#include "addr_int.h"

#define PDATS_END 0x07  /* type 7, no repeat, code 0: end of records */
#define PDATS_MODE 0x27 /* version 2: type 7, code 1: a mode byte follows */

/* Writes the pending record: header, repeat count, offset. */
static int pdats_emit(struct citcat_addr_writer *w)
{
	if (w->len + ADDR_REC_MAX > ADDR_OUTBUF && addr_wflush(w))
		return w->err.code;
	uint8_t *p = w->buf + w->len;
	int64_t sd = addr_sext(w->pdelta, w->bits);
	unsigned code, n;
	/* Code 0 (+4) is used for instruction fetches only, as Table 3 of the
	 * PDATS II paper does (its row 19 stores a +4 write in two bytes).
	 * Version 2: code 0 of an instruction fetch is the next instruction,
	 * whatever its size, and nothing else. */
	if (w->ptype == CITCAT_REF_IFETCH && (w->version == 1 ? sd == 4 : w->pnext))
		code = 0, n = 0;
	else if (sd >= -128 && sd <= 127)
		code = 1, n = 1;
	else if (sd >= -32768 && sd <= 32767)
		code = 2, n = 2;
	else
		code = 3, n = w->bits / 8;
	size_t k = 0;
	p[k++] = (uint8_t)((w->prep ? 0x80 : 0) | code << 5 | w->ptype);
	if (w->prep)
		p[k++] = (uint8_t)w->prep;
	addr_puts(p + k, w->pdelta, n);
	k += n;
	addr_count_packet(w, k);
	w->ppend = 0;
	return 0;
}

/* Version 2: the stream turns to instructions of two sizes. */
static int pdats_mode(struct citcat_addr_writer *w)
{
	if (w->ppend && pdats_emit(w))
		return w->err.code;
	if (w->len + ADDR_REC_MAX > ADDR_OUTBUF && addr_wflush(w))
		return w->err.code;
	w->buf[w->len] = PDATS_MODE;
	w->buf[w->len + 1] = 1;
	addr_count_packet(w, 2);
	addr_pred_reset(&w->pred, 1, 4, 2, 1);
	return 0;
}

int pdats_put(struct citcat_addr_writer *w, const struct citcat_ref *ref)
{
	unsigned t = ref->type;
	uint64_t pc = w->last[t], d = (ref->addr - pc) & w->mask;
	int next = 0;
	if (t == CITCAT_REF_IFETCH && w->version != 1) {
		if (!w->pred.var && (d & 3) == 2 && pdats_mode(w)) /* a halfword step: Thumb */
			return w->err.code;
		next = d == addr_pred_size(&w->pred, pc);
		addr_pred_learn(&w->pred, pc, ref->addr, w->mask, 0);
	}
	w->last[t] = ref->addr;
	w->refs++;
	if (w->ppend && w->ptype == t && w->pnext == next && (next || w->pdelta == d) && w->prep < 255) {
		w->prep++;
		return 0;
	}
	if (w->ppend && pdats_emit(w))
		return w->err.code;
	w->ppend = 1;
	w->ptype = (uint8_t)t;
	w->pdelta = d;
	w->pnext = next;
	w->prep = 0;
	return 0;
}

int pdats_finish(struct citcat_addr_writer *w)
{
	if (w->ppend && pdats_emit(w))
		return w->err.code;
	if (w->len + ADDR_REC_MAX > ADDR_OUTBUF && addr_wflush(w))
		return w->err.code;
	w->buf[w->len++] = PDATS_END;
	return addr_write_trailer(w);
}

/* One reference of the pending record: the address after LAST[T]. */
static inline uint64_t pdats_step(struct citcat_addr_reader *r, unsigned t)
{
	uint64_t pc = r->last[t], a;
	if (t != CITCAT_REF_IFETCH || r->version == 1)
		return (pc + r->pdelta) & r->mask;
	a = r->pnext ? (pc + addr_pred_size(&r->pred, pc)) & r->mask : (pc + r->pdelta) & r->mask;
	addr_pred_learn(&r->pred, pc, a, r->mask, 0);
	return a;
}

int pdats_next(struct citcat_addr_reader *r, struct citcat_ref *ref)
{
	if (r->prep) {
		r->prep--;
		uint64_t a = pdats_step(r, r->ptype);
		r->last[r->ptype] = a;
		return addr_run_ref(r, ref, a, r->ptype);
	}
	for (;;) {
		long avail = addr_record_bytes(r);
		if (avail < 0)
			return (int)avail;
		const uint8_t *p = r->buf + r->pos;
		uint8_t h = p[0];
		unsigned t = h & 7, code = (h >> 5) & 3, rep = 0;
		if (h == PDATS_END) {
			r->payload_end = addr_roff(r);
			r->pos++;
			addr_hash_stop(r, r->pos);
			int rc = addr_read_trailer(r);
			return rc < 0 ? rc : 0;
		}
		if (h == PDATS_MODE && r->version != 1) {
			if (avail < 2)
				return addr_rerr(r, CITCAT_ERR_TRUNCATED, addr_roff(r), "mode record cut short");
			if (p[1] > 1)
				return addr_rerr(r, CITCAT_ERR_CORRUPT, addr_roff(r) + 1, "mode record: mode %u is not 0 or 1",
						 p[1]);
			addr_pred_reset(&r->pred, 1, 4, 2, p[1]);
			r->pos += 2;
			continue;
		}
		if (t == 7)
			return addr_rerr(r, CITCAT_ERR_CORRUPT, addr_roff(r), "reference type 7 is reserved (header 0x%02x)", h);
		if (h & 0x18)
			return addr_rerr(r, CITCAT_ERR_UNSUPPORTED, addr_roff(r),
					 "time-stamp code %u is not supported (header 0x%02x)", (h >> 3) & 3, h);
		size_t k = 1;
		if (h & 0x80) {
			if (avail < 2)
				return addr_rerr(r, CITCAT_ERR_TRUNCATED, addr_roff(r), "repeat count past the end of the file");
			rep = p[k++];
			if (!rep)
				return addr_rerr(r, CITCAT_ERR_CORRUPT, addr_roff(r) + 1, "repeat count 0 with the repeat flag set");
		}
		unsigned n = code == 0 ? 0 : code == 1 ? 1 : code == 2 ? 2 : r->bits / 8;
		if ((size_t)avail < k + n)
			return addr_rerr(r, CITCAT_ERR_TRUNCATED, addr_roff(r), "record cut short: needs %zu bytes, %ld left",
					 k + n, avail);
		uint64_t d = code == 0 ? 4 : (uint64_t)addr_gets(p + k, n);
		k += n;
		r->pos += k;
		r->ptype = (uint8_t)t;
		r->pdelta = d & r->mask;
		r->pnext = code == 0; /* version 2 instruction fetches: the next instruction */
		r->prep = rep;
		uint64_t a = pdats_step(r, t);
		r->last[t] = a;
		ref->addr = a;
		ref->type = (uint8_t)t;
		ref->size = 0;
		r->refs++;
		return 1;
	}
}
