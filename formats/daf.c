/* DAF writer (the trace module's output) and decoder (the debugger's
 * partial replay): see daf.h and DAF.md.  Both run the same RVU
 * (daf_rvu.c); the record bit stream is packed into container chunks. */
#include "daf.h"
#include "bytes.h"
#include "container.h"
#include "daf_rvu.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAGIC "CDAF\r\n\x1a\n"
#define META_LEN 8
#define ISA_A32 1   /* version 1: ARM state only */
#define ISA_ARMV7 2 /* version 2: ARM and Thumb state (A32 and T32 rules) */
#define ISA_ARMV7M 3 /* version 3: the Cortex-M7 (T32 rules, exception entries and returns) */
#define CHUNK (256u << 10)
#define REC_MAX 1024 /* bytes: an escape of 64 accesses is 64 * 39 + 18 bits */

/* ---- writer ---- */

/* A bit stream being built, most significant bit of each byte first. */
struct bitbuf {
	uint8_t *buf;
	size_t nbits; /* whole bytes in BUF, the rest in ACC */
	uint64_t acc; /* the last nbits % 8 bits, right-aligned */
};

struct citcat_daf_writer {
	struct cc_writer *cw; /* NULL: count only */
	int enc, m7;
	struct daf_rvu rvu;
	struct bitbuf rb;   /* the chunk's `first` and records */
	size_t firstbits;   /* bits of `first` at the start of RB */
	uint64_t first;     /* the chunk's first instruction */
	/* the Cortex-M7: the chunk's exception-entry list (DAF.md) and the
	 * assembled chunk */
	struct bitbuf eb, ob;
	uint32_t nexc;
	uint64_t elast;     /* boundary of the chunk's last entry (first at the start) */
	int last_insn;      /* the last thing written was an instruction (an entry may correct it) */
	/* an instruction whose accesses the model does not describe (a fault
	 * cut it short): its real accesses, which the next entry must carry */
	uint32_t fix_n;
	int fix_pending;
	struct citcat_access fix_acc[CITCAT_ITRACE_MAX_ACC];
	char fix_msg[256];
	uint32_t nrec; /* records in it */
	uint32_t prev; /* DAFDiff: last traced address of this chunk */
	struct citcat_daf_stats st;
	struct citcat_errinfo err;
};

static void bb_put(struct bitbuf *b, uint32_t v, unsigned n)
{
	unsigned have = (unsigned)(b->nbits & 7) + n; /* at most 39 */
	uint64_t a = b->acc << n | (v & (uint32_t)((1ull << n) - 1));
	size_t byte = b->nbits >> 3;
	while (have >= 8) {
		have -= 8;
		b->buf[byte++] = (uint8_t)(a >> have);
	}
	b->acc = a & ((1u << have) - 1);
	b->nbits += n;
}

/* Stores the partial last byte, zero padded (ACC is kept). */
static void bb_close(struct bitbuf *b)
{
	if (b->nbits & 7)
		b->buf[b->nbits >> 3] = (uint8_t)(b->acc << (8 - (b->nbits & 7)));
}

/* Appends the bits FROM.. of S (closed) to D. */
static void bb_copy(struct bitbuf *d, const struct bitbuf *s, size_t from)
{
	for (size_t i = from; i < s->nbits;) {
		unsigned k = s->nbits - i < 8 ? (unsigned)(s->nbits - i) : 8, sh = (unsigned)(i & 7);
		uint32_t x = (uint32_t)s->buf[i >> 3] << 8 | ((i >> 3) + 1 < (s->nbits + 7) >> 3 ? s->buf[(i >> 3) + 1] : 0);
		bb_put(d, (x >> (16 - sh - k)) & ((1u << k) - 1), k);
		i += k;
	}
}

static void bb_vnum(struct bitbuf *b, uint64_t v)
{
	do {
		uint32_t g = (uint32_t)(v & 0xff);
		v >>= 8;
		bb_put(b, v == 0, 1);
		bb_put(b, g, 8);
	} while (v);
}

static void put_bits(struct citcat_daf_writer *w, uint32_t v, unsigned n) { bb_put(&w->rb, v, n); }

/* The chunked number of DAF.md: 8-bit groups, low group first, each after a
 * header bit that is 1 on the last group. */
static void put_vnum(struct citcat_daf_writer *w, uint64_t v) { bb_vnum(&w->rb, v); }

static void put_addr(struct citcat_daf_writer *w, uint32_t a)
{
	if (w->enc == CITCAT_DAF_RAW) {
		put_bits(w, a, 32);
	} else {
		put_vnum(w, a ^ w->prev);
		w->prev = a;
	}
}

static int wfail(struct citcat_daf_writer *w, int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	w->err.code = code;
	w->err.offset = UINT64_MAX;
	vsnprintf(w->err.msg, sizeof w->err.msg, fmt, ap);
	va_end(ap);
	return code;
}

static int flush_chunk(struct citcat_daf_writer *w, uint32_t nrec)
{
	struct bitbuf *b = &w->rb;
	bb_close(&w->rb);
	if (w->m7 && nrec) { /* first, the entry list, the records (DAF.md, Chunks) */
		b = &w->ob;
		b->nbits = 0;
		b->acc = 0;
		bb_vnum(b, w->first);
		bb_vnum(b, w->nexc);
		bb_close(&w->eb);
		bb_copy(b, &w->eb, 0);
		bb_copy(b, &w->rb, w->firstbits);
		bb_close(b);
	}
	size_t n = (b->nbits + 7) >> 3;
	w->rb.acc = 0;
	w->eb.nbits = 0;
	w->eb.acc = 0;
	w->nexc = 0;
	if (w->cw && n) {
		uint8_t *p = cc_writer_reserve(w->cw, n);
		if (!p)
			return wfail(w, cc_writer_error(w->cw)->code, "%s", cc_writer_error(w->cw)->msg);
		memcpy(p, b->buf, n);
		cc_writer_commit(w->cw, n, nrec);
		if (cc_writer_flush(w->cw))
			return wfail(w, cc_writer_error(w->cw)->code, "%s", cc_writer_error(w->cw)->msg);
	}
	w->rb.nbits = 0;
	w->nrec = 0;
	w->prev = 0;
	return 0;
}

/* Starts a record, and the chunk with its first-instruction field if the
 * record opens one. */
static int begin_record(struct citcat_daf_writer *w)
{
	/* the M7: room for the entry list, one more entry and the nexc field too */
	if (w->nrec && w->rb.nbits + w->eb.nbits + 8 * REC_MAX + (w->m7 ? 160 : 0) > 8 * (size_t)CHUNK) {
		int rc = flush_chunk(w, w->nrec);
		if (rc)
			return rc;
	}
	if (w->nrec == 0) {
		w->first = w->elast = w->st.insns;
		put_vnum(w, w->st.insns);
		w->firstbits = w->rb.nbits;
	}
	w->nrec++;
	w->st.records++;
	return 0;
}

static void writer_free(struct citcat_daf_writer *w)
{
	free(w->rb.buf);
	free(w->eb.buf);
	free(w->ob.buf);
	free(w);
}

int citcat_daf_writer_open(struct citcat_daf_writer **out, const char *path, int encoding)
{
	return citcat_daf_writer_open_isa(out, path, encoding, 0);
}

int citcat_daf_writer_open_isa(struct citcat_daf_writer **out, const char *path, int encoding, int m7)
{
	*out = NULL;
	if (encoding != CITCAT_DAF_RAW && encoding != CITCAT_DAF_DIFF)
		return CITCAT_ERR_INVAL;
	struct citcat_daf_writer *w = calloc(1, sizeof *w);
	if (!w || !(w->rb.buf = malloc(CHUNK)) ||
	    (m7 && (!(w->eb.buf = malloc(CHUNK)) || !(w->ob.buf = malloc(CHUNK))))) {
		if (w)
			writer_free(w);
		return CITCAT_ERR_NOMEM;
	}
	*out = w;
	w->enc = encoding;
	w->m7 = !!m7;
	daf_rvu_reset(&w->rvu);
	w->rvu.blx_imm = 1;
	w->rvu.m7 = (uint8_t)w->m7;
	if (path) {
		uint8_t meta[META_LEN] = {w->m7 ? ISA_ARMV7M : ISA_ARMV7, (uint8_t)encoding, 0, 0};
		cc_put32(meta + 4, w->m7 ? 0 : DAF_IRQ_VECTOR);
		int rc = cc_writer_open(&w->cw, path, MAGIC, CITCAT_DAF_VERSION, meta, META_LEN, CHUNK);
		if (rc)
			return wfail(w, rc, "%s", cc_writer_open_error()->msg);
	}
	return 0;
}

static int same_accesses(const struct citcat_access *a, const struct citcat_access *b, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		if (a[i].addr != b[i].addr || a[i].size != b[i].size || a[i].write != b[i].write)
			return 0;
	return 1;
}

static unsigned size_code(unsigned size) { return size == 1 ? 0 : size == 2 ? 1 : size == 4 ? 2 : 3; }

int citcat_daf_write(struct citcat_daf_writer *w, uint64_t pc, uint32_t word, const struct citcat_access *acc,
		     uint32_t n_acc)
{
	return citcat_daf_write_isa(w, pc, word, 4, 0, acc, n_acc);
}

/* An escape's access list (DAF.md, Records). */
static int put_escape(struct citcat_daf_writer *w, uint32_t pc, const struct citcat_access *acc, uint32_t n_acc)
{
	put_vnum(w, n_acc);
	for (uint32_t i = 0; i < n_acc; i++) {
		if (acc[i].addr > UINT32_MAX)
			return wfail(w, CITCAT_ERR_INVAL, "instruction at 0x%08x: access above 4 GiB", pc);
		put_bits(w, size_code(acc[i].size), 2);
		put_bits(w, acc[i].write, 1);
		put_addr(w, (uint32_t)acc[i].addr);
	}
	return 0;
}

/* The M7: whether the last 8 of N accesses are an unstacking (eight 4-byte
 * reads at ascending addresses); its frame address in *FRAME. */
static int is_unstacking(const struct citcat_access *acc, uint32_t n, uint32_t *frame)
{
	if (n < 8)
		return 0;
	acc += n - 8;
	for (unsigned i = 0; i < 8; i++)
		if (acc[i].write || acc[i].size != 4 || acc[i].addr != acc[0].addr + 4 * i || acc[i].addr > UINT32_MAX)
			return 0;
	*frame = (uint32_t)acc[0].addr;
	return 1;
}

int citcat_daf_write_isa(struct citcat_daf_writer *w, uint64_t pc, uint32_t word, unsigned size, int thumb,
			 const struct citcat_access *acc, uint32_t n_acc)
{
	if (w->err.code)
		return w->err.code;
	if (pc > UINT32_MAX || n_acc > CITCAT_ITRACE_MAX_ACC || (thumb ? (size != 2 && size != 4) || (pc & 1) : size != 4) ||
	    (w->m7 && !thumb))
		return wfail(w, CITCAT_ERR_INVAL, "instruction %llu: pc, size, state or access count out of range",
			     (unsigned long long)w->st.insns);
	if (w->fix_pending)
		return wfail(w, CITCAT_ERR_UNSUPPORTED, "%s", w->fix_msg);
	struct daf_step s;
	daf_rvu_begin_isa(&w->rvu, (uint32_t)pc, word, size, thumb, &s);
	word = s.word;
	/* the M7: an instruction that may load EXC_RETURN into the PC in
	 * handler mode has a return record after its own; an exception return's
	 * eight unstacking reads follow its own accesses */
	int cand = w->m7 && w->rvu.depth && daf_m7_ret_candidate(word, size), ret = 0;
	uint32_t frame = 0, n_all = n_acc;
	if (cand && is_unstacking(acc, n_acc, &frame)) {
		uint32_t own = n_acc - 8;
		if (s.memop == DAF_MEM_ESCAPE)
			ret = 1;
		else if (s.memop == DAF_MEM_NONE)
			ret = own == 0;
		else
			ret = own == s.count;
		if (ret)
			n_acc = own;
	}
	int rc = 0, executed = n_acc > 0;
	uint32_t da = n_acc ? (uint32_t)acc[0].addr : 0;
	size_t rstart = 0;
	if (s.memop == DAF_MEM_ESCAPE) {
		if ((rc = begin_record(w)))
			return rc;
		rstart = w->rb.nbits;
		if ((rc = put_escape(w, (uint32_t)pc, acc, n_acc)))
			return rc;
		w->st.escapes++;
		if (executed) {
			if (acc[0].write)
				w->st.stores++, w->st.stores_traced++;
			else
				w->st.loads++, w->st.loads_traced++;
		}
	} else if (s.memop != DAF_MEM_NONE) {
		struct citcat_access want[16];
		int bad = 0;
		if (!executed && s.need != DAF_NEED_COND)
			bad = snprintf(w->fix_msg, sizeof w->fix_msg,
				       "instruction at 0x%08x (word %08x) made no data access; DAF cannot describe it",
				       (uint32_t)pc, word);
		if (executed) {
			unsigned n = daf_rvu_accesses(&s, da, want);
			if (n != n_acc || !same_accesses(want, acc, n))
				bad = snprintf(w->fix_msg, sizeof w->fix_msg,
					       "instruction at 0x%08x (word %08x) made data accesses the DAF model does not "
					       "describe", (uint32_t)pc, word);
		}
		if (bad && !w->m7)
			return wfail(w, CITCAT_ERR_UNSUPPORTED, "%s", w->fix_msg);
		if (bad) { /* the M7: a fault cut it short, and its entry follows with the real accesses
			    * (DAF.md, "The Cortex-M7"); the record says what the decoder will read */
			memcpy(w->fix_acc, acc, n_all * sizeof *acc);
			w->fix_n = n_all;
			w->fix_pending = 1;
			executed = 1;
			if (s.addr_known) /* the decoder's address, whatever the core did */
				da = s.addr;
		} else if (executed) {
			if (s.addr_known && s.addr != da)
				return wfail(w, CITCAT_ERR_INTERNAL,
					     "RVU bug: instruction at 0x%08x (word %08x) inferred address 0x%08x, real 0x%08x",
					     (uint32_t)pc, word, s.addr, da);
		}
		int traced = executed && !s.addr_known;
		if (s.need != DAF_NEED_NONE) {
			if ((rc = begin_record(w)))
				return rc;
			rstart = w->rb.nbits;
			if (s.need == DAF_NEED_COND) {
				put_bits(w, (uint32_t)executed, 1);
				w->st.cond_bits++;
			}
			if (traced)
				put_addr(w, da);
		}
		if (executed) {
			if (s.load)
				w->st.loads++, w->st.loads_traced += (uint64_t)traced;
			else
				w->st.stores++, w->st.stores_traced += (uint64_t)traced;
		}
	} else if (n_acc) {
		snprintf(w->fix_msg, sizeof w->fix_msg,
			 "instruction at 0x%08x (word %08x) accessed memory but the DAF model says it does not%s", (uint32_t)pc,
			 word, w->m7 && n_all >= 8 && !w->rvu.depth ? " (an exception return in what the DAF takes for thread "
								      "mode: the trace must start in thread mode)" : "");
		if (!w->m7)
			return wfail(w, CITCAT_ERR_UNSUPPORTED, "%s", w->fix_msg);
		memcpy(w->fix_acc, acc, n_all * sizeof *acc);
		w->fix_n = n_all;
		w->fix_pending = 1;
		n_acc = 0;
	}
	if (rstart)
		w->st.bits += w->rb.nbits - rstart;
	daf_rvu_end(&w->rvu, &s, executed, da);
	if (w->m7) {
		if (w->fix_pending && (s.memop == DAF_MEM_SINGLE || s.memop == DAF_MEM_MULTI)) {
			struct citcat_access want[16]; /* what the decoder makes of the record, corrected later */
			daf_rvu_m7_scan(&w->rvu, want, daf_rvu_accesses(&s, da, want));
		} else if (!w->fix_pending) {
			daf_rvu_m7_scan(&w->rvu, acc, n_acc);
		}
		if (cand) { /* the return record: returned?, then the frame at SP? or its address */
			if ((rc = begin_record(w)))
				return rc;
			rstart = w->rb.nbits;
			put_bits(w, (uint32_t)ret, 1);
			if (ret && w->fix_pending) /* the unstacking is in the correction */
				ret = 0;
			if (ret) {
				int at_sp = ((w->rvu.valid >> 13) & 1) && w->rvu.r[13] == frame;
				if ((w->rvu.valid >> 13) & 1)
					put_bits(w, (uint32_t)at_sp, 1);
				if (!at_sp)
					put_addr(w, frame);
				daf_rvu_m7_return(&w->rvu);
				w->st.returns++;
			}
			w->st.bits += w->rb.nbits - rstart;
		}
	}
	w->st.insns++;
	w->last_insn = 1;
	return 0;
}

int citcat_daf_write_entry(struct citcat_daf_writer *w, unsigned exc, const struct citcat_access *acc, uint32_t n_acc)
{
	if (w->err.code)
		return w->err.code;
	if (!w->m7 || exc < 2 || exc > 63 || n_acc > CITCAT_ITRACE_MAX_ACC)
		return wfail(w, CITCAT_ERR_INVAL, "exception entry %u before instruction %llu: not a Cortex-M7 DAF, or out of range",
			     exc, (unsigned long long)w->st.insns);
	int rc = begin_record(w);
	if (rc)
		return rc;
	/* the chunk's entry list: boundary (from the last entry or the chunk's first), number */
	size_t e0 = w->eb.nbits, r0 = w->rb.nbits;
	bb_vnum(&w->eb, w->st.insns - w->elast);
	bb_put(&w->eb, exc, 6);
	w->elast = w->st.insns;
	w->nexc++;
	/* the record: 1 = the modelled stacking and vector read, then the frame
	 * unless SP is known, the vector address unless VTOR is; 0 = the entry's
	 * accesses as an escape's */
	struct daf_rvu *r = &w->rvu;
	if (w->last_insn) { /* the correction bit: 1 = the instruction before made these accesses instead */
		put_bits(w, (uint32_t)w->fix_pending, 1);
		if (w->fix_pending) {
			if ((rc = put_escape(w, 0, w->fix_acc, w->fix_n)))
				return rc;
			daf_rvu_m7_scan(r, w->fix_acc, w->fix_n);
			r->valid = 0;
			w->fix_pending = 0;
			w->st.fixes++;
		}
		w->last_insn = 0;
	}
	int sp_ok = (r->valid >> 13) & 1, model = n_acc == 9;
	uint32_t frame = sp_ok ? daf_m7_frame(r->r[13]) : (n_acc ? (uint32_t)acc[0].addr : 0);
	uint32_t va = r->vtor_ok ? r->vtor + 4 * exc : (n_acc == 9 ? (uint32_t)acc[8].addr : 0);
	for (uint32_t i = 0; model && i < 8; i++)
		model = acc[i].write && acc[i].size == 4 && acc[i].addr == (uint64_t)frame + 4 * i && frame <= UINT32_MAX - 31;
	model = model && !acc[8].write && acc[8].size == 4 && acc[8].addr == va;
	put_bits(w, (uint32_t)model, 1);
	if (model) {
		if (!sp_ok)
			put_addr(w, frame);
		if (!r->vtor_ok)
			put_addr(w, va);
		r->vtor = va - 4 * exc;
		r->vtor_ok = 1;
	} else if ((rc = put_escape(w, 0, acc, n_acc))) {
		return rc;
	}
	daf_rvu_m7_scan(r, acc, n_acc);
	daf_rvu_m7_entry(r, frame, model || sp_ok);
	w->st.entries++;
	w->st.bits += (w->eb.nbits - e0) + (w->rb.nbits - r0);
	return 0;
}

int citcat_daf_writer_close(struct citcat_daf_writer *w)
{
	int rc = w->err.code;
	if (!rc && w->fix_pending)
		rc = wfail(w, CITCAT_ERR_UNSUPPORTED, "%s", w->fix_msg);
	if (!rc && w->nrec)
		rc = flush_chunk(w, w->nrec);
	if (!rc) { /* the end chunk: no records, the instruction count */
		put_vnum(w, w->st.insns);
		rc = flush_chunk(w, 0);
	}
	if (!rc && w->cw) {
		rc = cc_writer_close(w->cw);
		w->cw = NULL;
	}
	cc_writer_abort(w->cw);
	if (rc && w->err.code) /* gone with W: kept for the caller's message */
		cc_writer_keep_error(&w->err);
	writer_free(w);
	return rc;
}

void citcat_daf_writer_abort(struct citcat_daf_writer *w)
{
	if (!w)
		return;
	cc_writer_abort(w->cw);
	writer_free(w);
}

const struct citcat_errinfo *citcat_daf_writer_error(const struct citcat_daf_writer *w) { return &w->err; }
const struct citcat_daf_stats *citcat_daf_writer_stats(const struct citcat_daf_writer *w) { return &w->st; }

/* ---- decoder ---- */

struct citcat_daf_decoder {
	struct cc_reader *cr;
	int enc, isa;
	struct daf_rvu rvu;
	const uint8_t *data; /* current chunk */
	size_t len, bit;
	uint32_t nrec, seen;
	int have_chunk, ended;
	uint32_t prev;
	uint64_t pc; /* instruction being decoded, for messages */
	/* the Cortex-M7 (ISA 3) */
	int m7;
	uint64_t first;    /* the current chunk's first instruction */
	uint64_t end_insns; /* the end chunk's count (checked at the end of the flow) */
	size_t ebit;       /* the chunk's entry list: next entry */
	uint32_t eleft;    /* entries of the chunk not consumed (the loaded one included) */
	int e_have;        /* E_POS, E_EXC loaded */
	uint64_t e_pos;
	uint32_t e_exc;
	int last_insn;     /* the last thing decoded was an instruction (an entry may correct it) */
	struct citcat_daf_stats st;
	struct citcat_errinfo err;
};

static int dfail(struct citcat_daf_decoder *d, int code, const char *fmt, ...)
{
	char m[200];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(m, sizeof m, fmt, ap);
	va_end(ap);
	return cc_reader_fail(d->cr, code, d->bit >> 3, "DAF: instruction %llu at 0x%08llx: %s",
			      (unsigned long long)d->st.insns, (unsigned long long)d->pc, m);
}

static int get_bits(struct citcat_daf_decoder *d, unsigned n, uint32_t *v)
{
	if (d->bit + n > 8 * d->len)
		return dfail(d, CITCAT_ERR_CORRUPT, "record runs past the end of its chunk");
	/* 40 bits from the current byte, most significant first; n <= 32 */
	size_t byte = d->bit >> 3;
	unsigned sh = (unsigned)(d->bit & 7);
	uint64_t x = 0;
	for (unsigned k = 0; k < 5; k++)
		x = x << 8 | (byte + k < d->len ? d->data[byte + k] : 0);
	*v = n ? (uint32_t)((x >> (40 - sh - n)) & ((1ull << n) - 1)) : 0;
	d->bit += n;
	return 0;
}

static int get_vnum(struct citcat_daf_decoder *d, uint64_t *v, unsigned max_bits)
{
	uint64_t x = 0;
	for (unsigned shift = 0;; shift += 8) {
		uint32_t h, g;
		int rc;
		if ((rc = get_bits(d, 1, &h)) || (rc = get_bits(d, 8, &g)))
			return rc;
		if (shift >= max_bits || (shift + 8 > max_bits && (g >> (max_bits - shift))))
			return dfail(d, CITCAT_ERR_CORRUPT, "number wider than %u bits", max_bits);
		x |= (uint64_t)g << shift;
		if (h) {
			if (g == 0 && shift)
				return dfail(d, CITCAT_ERR_CORRUPT, "non-canonical number (a zero last group)");
			*v = x;
			return 0;
		}
	}
}

static int get_addr(struct citcat_daf_decoder *d, uint32_t *a)
{
	if (d->enc == CITCAT_DAF_RAW)
		return get_bits(d, 32, a);
	uint64_t x;
	int rc = get_vnum(d, &x, 32);
	if (rc)
		return rc;
	*a = d->prev ^ (uint32_t)x;
	d->prev = *a;
	return 0;
}

/* An access list as an escape's (DAF.md, Records) into REC. */
static int get_escape(struct citcat_daf_decoder *d, struct citcat_itrace_rec *rec)
{
	uint64_t n;
	int rc;
	if ((rc = get_vnum(d, &n, 64)))
		return rc;
	if (n > CITCAT_ITRACE_MAX_ACC)
		return dfail(d, CITCAT_ERR_LIMIT, "an access list of %llu accesses", (unsigned long long)n);
	for (uint32_t i = 0; i < n; i++) {
		uint32_t sz, wr, a;
		if ((rc = get_bits(d, 2, &sz)) || (rc = get_bits(d, 1, &wr)) || (rc = get_addr(d, &a)))
			return rc;
		rec->acc[i] = (struct citcat_access){.addr = a, .size = (uint8_t)(1u << sz), .write = (uint8_t)wr};
	}
	rec->n_acc = (uint32_t)n;
	return 0;
}

/* The end of a chunk: only zero padding may remain. */
static int chunk_done(struct citcat_daf_decoder *d)
{
	if (d->eleft)
		return dfail(d, CITCAT_ERR_CORRUPT, "%u exception entries of this chunk unused", d->eleft);
	if (8 * d->len - d->bit >= 8)
		return dfail(d, CITCAT_ERR_CORRUPT, "%zu bits left after the chunk's last record", 8 * d->len - d->bit);
	uint32_t pad;
	if (get_bits(d, (unsigned)(8 * d->len - d->bit), &pad))
		return d->err.code;
	if (pad)
		return dfail(d, CITCAT_ERR_CORRUPT, "padding bits after the chunk's last record are not zero");
	return 0;
}

static int next_chunk(struct citcat_daf_decoder *d)
{
	int rc = cc_reader_next_chunk(d->cr, &d->data, &d->len, &d->nrec);
	if (rc < 0)
		return rc;
	if (rc == 0)
		return dfail(d, CITCAT_ERR_TRUNCATED, "the file ends without its end chunk");
	d->bit = 0;
	d->seen = 0;
	d->prev = 0;
	d->have_chunk = 1;
	d->eleft = 0;
	d->e_have = 0;
	uint64_t first;
	if ((rc = get_vnum(d, &first, 64)))
		return rc;
	if (d->nrec == 0) { /* the end chunk */
		d->ended = 1;
		d->end_insns = first;
		if (!d->m7 && first != d->st.insns) /* the M7 opens it early: checked at the end */
			return dfail(d, CITCAT_ERR_CORRUPT, "the end chunk counts %llu instructions",
				     (unsigned long long)first);
		return chunk_done(d);
	}
	d->first = first;
	if (d->m7) { /* the entry list: checked here, consumed at the boundaries */
		uint64_t n, delta;
		uint32_t exc;
		if ((rc = get_vnum(d, &n, 32)))
			return rc;
		if (n > d->nrec)
			return dfail(d, CITCAT_ERR_CORRUPT, "a chunk of %u records lists %llu exception entries", d->nrec,
				     (unsigned long long)n);
		d->ebit = d->bit;
		for (uint64_t i = 0; i < n; i++) {
			if ((rc = get_vnum(d, &delta, 64)) || (rc = get_bits(d, 6, &exc)))
				return rc;
			if (exc < 2)
				return dfail(d, CITCAT_ERR_CORRUPT, "exception entry %llu of the chunk has number %u",
					     (unsigned long long)i, exc);
		}
		d->eleft = (uint32_t)n;
		d->e_pos = first;
		return 0;
	}
	if (first != d->st.insns)
		return dfail(d, CITCAT_ERR_CORRUPT, "the next chunk's first record belongs to instruction %llu",
			     (unsigned long long)first);
	return 0;
}

/* Positions the reader on the next record. */
static int begin_read(struct citcat_daf_decoder *d)
{
	int rc;
	if (d->ended)
		return dfail(d, CITCAT_ERR_CORRUPT, "needs a record after the end chunk");
	if (d->have_chunk && d->seen == d->nrec) {
		if ((rc = chunk_done(d)))
			return rc;
		d->have_chunk = 0;
	}
	if (!d->have_chunk && (rc = next_chunk(d)))
		return rc;
	if (d->ended)
		return dfail(d, CITCAT_ERR_CORRUPT, "needs a record, but the file has no more");
	if (d->m7 && d->seen == 0 && d->first != d->st.insns)
		return dfail(d, CITCAT_ERR_CORRUPT, "the next chunk's first record belongs to instruction %llu",
			     (unsigned long long)d->first);
	d->seen++;
	d->st.records++;
	return 0;
}

static int open_common(struct citcat_daf_decoder *d, int rc)
{
	if (rc)
		return rc;
	uint32_t mlen;
	const uint8_t *m = cc_reader_meta(d->cr, &mlen);
	if (mlen == META_LEN && (m[2] || m[3])) /* reserved (DAF.md, Metadata) */
		return cc_reader_fail_at(d->cr, CITCAT_ERR_CORRUPT, 16 + (m[2] ? 2 : 3),
					 "DAF metadata: reserved byte %d is 0x%02x, not 0", m[2] ? 2 : 3, m[2] ? m[2] : m[3]);
	unsigned ver = cc_reader_version(d->cr), want_isa = ver == 1 ? ISA_A32 : ISA_ARMV7;
	if (ver < 1)
		return cc_reader_fail(d->cr, CITCAT_ERR_VERSION, 8, "DAF version %u (this reader knows 1, 2 and 3)", ver);
	if (ver >= 3 && mlen == META_LEN && m[0] == ISA_ARMV7M)
		want_isa = ISA_ARMV7M;
	if (mlen == META_LEN && m[0] != want_isa)
		return cc_reader_fail_at(d->cr, CITCAT_ERR_CORRUPT, 16, "DAF metadata: ISA %u in a version %u file (want %s)",
					 m[0], ver, ver >= 3 ? "2 or 3" : want_isa == ISA_A32 ? "1" : "2");
	uint32_t vec = want_isa == ISA_ARMV7M ? 0 : DAF_IRQ_VECTOR;
	if (mlen == META_LEN && cc_get32(m + 4) != vec)
		return cc_reader_fail_at(d->cr, CITCAT_ERR_CORRUPT, 20, "DAF metadata: IRQ vector 0x%08x (want 0x%02x for ISA %u)",
					 cc_get32(m + 4), vec, m[0]);
	if (mlen != META_LEN || (m[1] != CITCAT_DAF_RAW && m[1] != CITCAT_DAF_DIFF))
		return cc_reader_fail(d->cr, CITCAT_ERR_CORRUPT, 0,
				      "DAF metadata: want 8 bytes, encoding 1 or 2, reserved 0, IRQ vector 0x18 (0 for ISA 3)");
	d->enc = m[1];
	d->isa = m[0];
	daf_rvu_reset(&d->rvu);
	d->rvu.blx_imm = d->isa != ISA_A32;
	d->m7 = d->isa == ISA_ARMV7M;
	d->rvu.m7 = (uint8_t)d->m7;
	return 0;
}

static int dec_alloc(struct citcat_daf_decoder **out)
{
	*out = calloc(1, sizeof **out);
	return *out ? 0 : CITCAT_ERR_NOMEM;
}

int citcat_daf_decoder_open(struct citcat_daf_decoder **d, const char *path)
{
	int rc = dec_alloc(d);
	if (rc)
		return rc;
	rc = cc_reader_open(&(*d)->cr, path, MAGIC, CITCAT_DAF_VERSION);
	return open_common(*d, rc);
}

int citcat_daf_decoder_open_mem(struct citcat_daf_decoder **d, const void *buf, size_t len)
{
	int rc = dec_alloc(d);
	if (rc)
		return rc;
	rc = cc_reader_open_mem(&(*d)->cr, buf, len, MAGIC, CITCAT_DAF_VERSION);
	return open_common(*d, rc);
}

int citcat_daf_decoder_encoding(const struct citcat_daf_decoder *d) { return d->enc; }

static int load_entry(struct citcat_daf_decoder *d);

int citcat_daf_decode(struct citcat_daf_decoder *d, uint64_t pc, uint32_t word, struct citcat_itrace_rec *rec)
{
	return citcat_daf_decode_isa(d, pc, word, 4, 0, rec);
}

int citcat_daf_decode_isa(struct citcat_daf_decoder *d, uint64_t pc, uint32_t word, unsigned size, int thumb,
			  struct citcat_itrace_rec *rec)
{
	if (cc_reader_error(d->cr)->code)
		return cc_reader_error(d->cr)->code;
	d->pc = pc;
	if (pc > UINT32_MAX || (thumb ? (pc & 1) || (size != 2 && size != 4) : (pc & 3) || size != 4))
		return dfail(d, CITCAT_ERR_CORRUPT, thumb ? "flow address or size not a Thumb instruction's"
							 : "flow address not a 32-bit word address");
	if (thumb && d->isa == ISA_A32)
		return dfail(d, CITCAT_ERR_CORRUPT, "a Thumb instruction in the flow, but this DAF (version 1) has A32 rules only");
	if (d->m7 && !thumb)
		return dfail(d, CITCAT_ERR_CORRUPT, "an ARM-state instruction in the flow of a Cortex-M7 DAF");
	if (d->m7 && d->have_chunk && d->eleft && (d->e_have || load_entry(d) == 0) && d->e_pos <= d->st.insns)
		return dfail(d, CITCAT_ERR_INVAL, "an exception entry is due before this instruction (citcat_daf_decode_entry)");
	if (d->err.code || cc_reader_error(d->cr)->code)
		return cc_reader_error(d->cr)->code ? cc_reader_error(d->cr)->code : d->err.code;
	struct daf_step s;
	daf_rvu_begin_isa(&d->rvu, (uint32_t)pc, word, size, thumb, &s);
	rec->kind = CITCAT_REC_INSN;
	rec->line = 0;
	rec->pc = pc;
	rec->word = s.word;
	rec->size = (uint8_t)size;
	rec->thumb = (uint8_t)thumb;
	rec->n_acc = 0;
	int rc, executed = 1;
	uint32_t da = s.addr, v;
	switch (s.need) {
	case DAF_NEED_ESCAPE: {
		if ((rc = begin_read(d)) || (rc = get_escape(d, rec)))
			return rc;
		d->st.escapes++;
		executed = rec->n_acc > 0;
		if (executed) {
			if (rec->acc[0].write)
				d->st.stores++, d->st.stores_traced++;
			else
				d->st.loads++, d->st.loads_traced++;
		}
		break;
	}
	case DAF_NEED_COND:
		if ((rc = begin_read(d)) || (rc = get_bits(d, 1, &v)))
			return rc;
		d->st.cond_bits++;
		executed = (int)v;
		if (executed && !s.addr_known && (rc = get_addr(d, &da)))
			return rc;
		break;
	case DAF_NEED_ADDR:
		if ((rc = begin_read(d)) || (rc = get_addr(d, &da)))
			return rc;
		break;
	default:
		break;
	}
	if ((s.memop == DAF_MEM_SINGLE || s.memop == DAF_MEM_MULTI) && executed) {
		rec->n_acc = daf_rvu_accesses(&s, da, rec->acc);
		int traced = !s.addr_known;
		if (s.load)
			d->st.loads++, d->st.loads_traced += (uint64_t)traced;
		else
			d->st.stores++, d->st.stores_traced += (uint64_t)traced;
	}
	int cand = d->m7 && d->rvu.depth && daf_m7_ret_candidate(s.word, size);
	daf_rvu_end(&d->rvu, &s, executed, da);
	if (d->m7) {
		daf_rvu_m7_scan(&d->rvu, rec->acc, rec->n_acc);
		if (cand) { /* the return record (DAF.md, "The Cortex-M7") */
			uint32_t ret, at_sp = 0, frame = 0;
			if ((rc = begin_read(d)) || (rc = get_bits(d, 1, &ret)))
				return rc;
			if (ret) {
				int sp_ok = (d->rvu.valid >> 13) & 1;
				if (sp_ok && (rc = get_bits(d, 1, &at_sp)))
					return rc;
				if (at_sp)
					frame = d->rvu.r[13];
				else if ((rc = get_addr(d, &frame)))
					return rc;
				if (rec->n_acc + 8 > CITCAT_ITRACE_MAX_ACC)
					return dfail(d, CITCAT_ERR_LIMIT, "an exception return after %u accesses", rec->n_acc);
				for (unsigned i = 0; i < 8; i++)
					rec->acc[rec->n_acc++] = (struct citcat_access){.addr = (uint32_t)(frame + 4 * i), .size = 4};
				daf_rvu_m7_return(&d->rvu);
				d->st.returns++;
			}
		}
	}
	d->st.insns++;
	d->last_insn = 1;
	return 1;
}

/* The M7: loads the chunk's next entry (boundary, number) from its list. */
static int load_entry(struct citcat_daf_decoder *d)
{
	size_t save = d->bit;
	uint64_t delta;
	d->bit = d->ebit;
	int rc = get_vnum(d, &delta, 64);
	if (!rc)
		rc = get_bits(d, 6, &d->e_exc);
	d->ebit = d->bit;
	d->bit = save;
	if (rc)
		return rc;
	d->e_pos += delta;
	d->e_have = 1;
	return 0;
}

int citcat_daf_decoder_m7(const struct citcat_daf_decoder *d) { return d->m7; }

int citcat_daf_decode_entry(struct citcat_daf_decoder *d, struct citcat_itrace_rec *rec, struct citcat_itrace_rec *last)
{
	int rc;
	if (cc_reader_error(d->cr)->code)
		return cc_reader_error(d->cr)->code;
	if (!d->m7)
		return 0;
	d->pc = 0;
	for (;;) {
		if (d->have_chunk && d->eleft) {
			if (!d->e_have && (rc = load_entry(d)))
				return rc;
			if (d->e_pos < d->st.insns)
				return dfail(d, CITCAT_ERR_CORRUPT, "an exception entry at instruction boundary %llu, which the "
					     "flow has passed", (unsigned long long)d->e_pos);
			if (d->e_pos > d->st.insns)
				return 0;
			break;
		}
		if (d->have_chunk && d->seen < d->nrec)
			return 0;
		if (d->ended)
			return 0;
		if (d->have_chunk) {
			if ((rc = chunk_done(d)))
				return rc;
			d->have_chunk = 0;
		}
		if ((rc = next_chunk(d)))
			return rc;
	}
	unsigned exc = d->e_exc;
	d->e_have = 0;
	d->eleft--;
	if (d->seen == d->nrec)
		return dfail(d, CITCAT_ERR_CORRUPT, "exception entry %u has no record left in its chunk", exc);
	uint32_t model, fix = 0;
	struct daf_rvu *r = &d->rvu;
	if ((rc = begin_read(d)) || (d->last_insn && (rc = get_bits(d, 1, &fix))))
		return rc;
	d->last_insn = 0;
	if (fix) { /* the instruction before made these accesses instead (a fault cut it short) */
		if (!last)
			return dfail(d, CITCAT_ERR_INVAL, "exception %u corrects the instruction before, which the caller "
				     "did not pass", exc);
		if ((rc = get_escape(d, last)))
			return rc;
		daf_rvu_m7_scan(r, last->acc, last->n_acc);
		r->valid = 0;
		d->st.fixes++;
	}
	if ((rc = get_bits(d, 1, &model)))
		return rc;
	int sp_ok = (r->valid >> 13) & 1;
	uint32_t frame = sp_ok ? daf_m7_frame(r->r[13]) : 0;
	rec->kind = CITCAT_REC_IRQ;
	rec->line = (uint8_t)exc;
	rec->pc = 0;
	rec->word = 0;
	rec->size = 0;
	rec->thumb = 0;
	rec->n_acc = 0;
	if (model) {
		uint32_t va = r->vtor_ok ? r->vtor + 4 * exc : 0;
		if ((!sp_ok && (rc = get_addr(d, &frame))) || (!r->vtor_ok && (rc = get_addr(d, &va))))
			return rc;
		if (frame > UINT32_MAX - 31)
			return dfail(d, CITCAT_ERR_CORRUPT, "exception %u: stacking frame at 0x%08x", exc, frame);
		for (unsigned i = 0; i < 8; i++)
			rec->acc[i] = (struct citcat_access){.addr = frame + 4 * i, .size = 4, .write = 1};
		rec->acc[8] = (struct citcat_access){.addr = va, .size = 4};
		rec->n_acc = 9;
		r->vtor = va - 4 * exc;
		r->vtor_ok = 1;
	} else if ((rc = get_escape(d, rec))) {
		return rc;
	}
	daf_rvu_m7_scan(r, rec->acc, rec->n_acc);
	daf_rvu_m7_entry(r, frame, model || sp_ok);
	d->st.entries++;
	return 1;
}

int citcat_daf_decoder_finish(struct citcat_daf_decoder *d)
{
	if (cc_reader_error(d->cr)->code)
		return cc_reader_error(d->cr)->code;
	int rc;
	d->pc = 0;
	if (d->have_chunk && !d->ended) {
		if (d->seen != d->nrec)
			return dfail(d, CITCAT_ERR_CORRUPT, "the flow ended with %u records of this chunk unused",
				     d->nrec - d->seen);
		if ((rc = chunk_done(d)))
			return rc;
		d->have_chunk = 0;
	}
	if (!d->ended) {
		if ((rc = next_chunk(d)))
			return rc;
		if (!d->ended)
			return dfail(d, CITCAT_ERR_CORRUPT, "the flow ended but the file has more records");
	}
	if (d->m7 && d->end_insns != d->st.insns)
		return dfail(d, CITCAT_ERR_CORRUPT, "the end chunk counts %llu instructions", (unsigned long long)d->end_insns);
	const uint8_t *p;
	size_t n;
	uint32_t nr;
	rc = cc_reader_next_chunk(d->cr, &p, &n, &nr);
	if (rc < 0)
		return rc;
	if (rc == 1)
		return dfail(d, CITCAT_ERR_CORRUPT, "a chunk follows the end chunk");
	return 0;
}

const struct citcat_daf_stats *citcat_daf_decoder_stats(const struct citcat_daf_decoder *d) { return &d->st; }

const struct citcat_errinfo *citcat_daf_decoder_error(const struct citcat_daf_decoder *d)
{
	if (!d->cr)
		return &d->err;
	return cc_reader_error(d->cr);
}

void citcat_daf_decoder_close(struct citcat_daf_decoder *d)
{
	if (!d)
		return;
	cc_reader_close(d->cr);
	free(d);
}
