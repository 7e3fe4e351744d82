/* Internal: the reader and writer objects shared by din.c, pdats.c,
 * pdats2.c and addr.c (buffered I/O, LZ4 frame out, checksum, errors). */
#ifndef CITCAT_ADDR_INT_H
#define CITCAT_ADDR_INT_H

#include "addr.h"
#include "bytes.h"

#include <lz4frame.h>
#include <stdio.h>
#define XXH_STATIC_LINKING_ONLY
#include <xxhash.h>

#define ADDR_OUTBUF (64u << 10) /* raw staging buffer of a writer */
#define ADDR_OUTSLACK 4096      /* allocated beyond ADDR_OUTBUF: PDATS II version 3's size bytes
				 * written after a record without a room check (at most ~80) and the
				 * bytes kept behind an open size byte (P2_SWIN records) */
#define ADDR_INBUF (64u << 10)  /* window of a reader */
#define ADDR_REC_MAX 16         /* no record (or trailer) is longer */
#define ADDR_LINE_MAX 4096      /* longest din/xdin line accepted */
#define ADDR_HDR_LEN 8          /* PDATS and PDATS II file header */
#define ADDR_TRAILER_LEN 12     /* u64 reference count + u32 XXH32 */

#define PDATS_MAGIC "PDTS"
#define PDATS2_MAGIC "PDT2"
#define ADDR_VERSION 2 /* PDATS: the version written by default; 1 is still read (and written on request) */
#define PDATS2_VERSION 3 /* PDATS II: the version written by default; 1 and 2 are still read (and written on request) */
#define P2_SWIN 16 /* PDATS II version 3: a size byte's unread bits are dropped once this many records began after it */

/* Version 2's instruction predictions (PDATS.md and PDATS2.md, "Version
 * 2"): tables indexed by an instruction address's key, the address shifted
 * right by log2 of the stride, modulo ADDR_PRED_ENTRIES.  Encoder and
 * decoder keep the same tables and update them by the same rule after
 * every instruction fetch. */
#define ADDR_PRED_BITS 16
#define ADDR_PRED_ENTRIES (1u << ADDR_PRED_BITS)

struct addr_pred {
	unsigned shift;      /* key: (address >> shift) mod ADDR_PRED_ENTRIES */
	unsigned fixed;      /* the instruction size when !var */
	unsigned s1, s2;     /* the two instruction sizes learned when var (s2 = 2 s1) */
	int var;             /* instructions of two sizes: the size is learned per address */
	unsigned step;       /* the size learned most recently (the guess for an unknown address) */
	uint8_t *size;       /* learned size per key, 0 unknown */
	/* PDATS II only */
	uint8_t *run;        /* fetches after a data reference per key: 0 none, else >= 3 */
	uint64_t *target;    /* the last jump target per key ... */
	uint8_t *tvalid;     /* ... whether there is one ... */
	uint8_t *taken;      /* ... and whether the last fetch after the key's instruction went there */
};

/* Allocates the tables (the PDATS II ones when BRANCHES); 0 or NOMEM. */
int addr_pred_init(struct addr_pred *p, int branches);
/* Sets the mode and clears every table (a mode record, or the start). */
void addr_pred_reset(struct addr_pred *p, unsigned shift, unsigned fixed, unsigned s1, int var);
void addr_pred_free(struct addr_pred *p);
static inline unsigned addr_pred_key(const struct addr_pred *p, uint64_t a)
{
	return (unsigned)(a >> p->shift) & (ADDR_PRED_ENTRIES - 1);
}
/* The size of the instruction at PC, as learned. */
static inline unsigned addr_pred_size(const struct addr_pred *p, uint64_t pc)
{
	if (!p->var)
		return p->fixed;
	unsigned s = p->size[addr_pred_key(p, pc)];
	return s ? s : p->step;
}
/* After an instruction fetch at A that followed the one at PC: learns the
 * size of the one at PC when the step is one of the two sizes; with
 * BRANCHES, whether A was the next instruction or a jump, and the jump's
 * target.  MASK: the address mask. */
static inline void addr_pred_learn(struct addr_pred *p, uint64_t pc, uint64_t a, uint64_t mask, int branches)
{
	uint64_t d = (a - pc) & mask;
	unsigned k = addr_pred_key(p, pc);
	if (p->var && (d == p->s1 || d == p->s2)) {
		p->size[k] = (uint8_t)d;
		p->step = (unsigned)d;
	}
	if (!branches)
		return;
	if (d == addr_pred_size(p, pc)) {
		p->taken[k] = 0;
	} else {
		p->target[k] = a;
		p->tvalid[k] = 1;
		p->taken[k] = 1;
	}
}
/* PDATS II: the predicted successor of the instruction at PC: where the
 * last fetch after it went, the jump target or the next instruction. */
static inline uint64_t addr_pred_succ(const struct addr_pred *p, uint64_t pc, uint64_t mask)
{
	unsigned k = addr_pred_key(p, pc);
	return p->taken[k] ? p->target[k] : (pc + addr_pred_size(p, pc)) & mask;
}
/* PDATS II: the other successor: the next instruction after a jump; else
 * the last jump target, else the next instruction were its size the other
 * one (PDATS2.md). */
static inline uint64_t addr_pred_other(const struct addr_pred *p, uint64_t pc, uint64_t mask)
{
	unsigned k = addr_pred_key(p, pc);
	unsigned n = addr_pred_size(p, pc);
	if (p->taken[k])
		return (pc + n) & mask;
	if (p->tvalid[k])
		return p->target[k];
	return (pc + (p->var ? p->s1 + p->s2 - n : 2 * p->fixed)) & mask;
}

struct citcat_addr_writer {
	int fmt;
	unsigned version; /* PDATS: 1 or 2; PDATS II: 1, 2 or 3 */
	unsigned bits, ishift;
	uint64_t mask;
	int lz4;
	/* output */
	struct cc_outfile *out;
	int to_mem;
	uint8_t *mem; /* in-memory result, once finished */
	size_t memlen;
	uint8_t *buf; /* ADDR_OUTBUF bytes; records are staged here */
	size_t len;
	int hashing;
	XXH32_state_t xh;
	uint64_t payload, refs;
	int failed;
	int finished; /* 1 done, negative failed */
	struct citcat_errinfo err;
	/* PDATS: last address per type, and the pending (type, offset, repeats) */
	uint64_t last[8];
	int ppend;
	uint8_t ptype;
	uint64_t pdelta;
	unsigned prep;
	/* PDATS II: last instruction, zone bases, most recently used zone, and
	 * the open record: its header byte is buf[phdr], its count pcount of
	 * at most pmax (0 when no record is open) */
	uint64_t ilast, zone[2];
	int zmru;
	size_t phdr;
	unsigned pcount, pmax;
	/* version 2 */
	struct addr_pred pred;
	int dpend;          /* PDATS II: the data record at buf[phdr] waits for its fetch count */
	unsigned dwant;     /* ... which count 3 would mean */
	unsigned dgot;      /* ... and the next-instruction fetches seen since */
	int ron;            /* PDATS II: a data reference's run of next-instruction fetches is open */
	unsigned rkey, rlen; /* ... its key and length so far */
	int pnext;          /* PDATS: the pending record is "the next instruction" */
	/* PDATS II version 3: size bits (PDATS2.md, "Version 3") */
	uint64_t nrec;      /* records begun */
	size_t sbpos;       /* the open size byte is buf[sbpos] ... */
	unsigned sfree;     /* ... with this many bits free (0: none open) ... */
	uint64_t sr0;       /* ... written after record number sr0 */
	unsigned dn;        /* the size bits of the fetches a data record waits for (dpend): */
	uint8_t didx[256];  /* ... the fetch's number in the run (1..255) ... */
	uint8_t dval[256];  /* ... and its bit */
	struct tvp_model *tvp; /* a TVP trace container instead (addr_tvp.c) */
};

struct citcat_addr_reader {
	int fmt;
	unsigned version; /* PDATS and PDATS II: the file's version */
	unsigned bits, ishift;
	uint64_t mask;
	int lz4;
	/* input: the file or buffer, any outer wrapper peeled off */
	struct cc_input *in;
	uint8_t *buf; /* window: buf[pos..end) unread, buf[0] at stream offset base */
	size_t pos, end;
	uint64_t base;
	int hashing;
	size_t hashed; /* buf[0..hashed) already hashed */
	XXH32_state_t xh;
	uint64_t payload_start, payload_end;
	uint64_t refs;
	int done;
	struct citcat_errinfo err;
	/* PDATS: last address per type; pending repeats of (ptype, pdelta) */
	uint64_t last[8];
	uint8_t ptype;
	uint64_t pdelta;
	unsigned prep;
	/* PDATS II: last instruction, zones, pending sequential instructions */
	uint64_t ilast, zone[2];
	unsigned pseq;
	/* version 2 */
	struct addr_pred pred;
	int pnext;           /* PDATS: the pending repeats are "the next instruction" */
	int ron;             /* PDATS II: a data reference's run is open: key, length */
	unsigned rkey, rlen;
	/* PDATS II version 3: records begun; the size byte being read: its
	 * unread bits (low first), how many, and the record it followed */
	uint64_t nrec, sr0;
	unsigned sbyte, sleft;
	struct tvp_model *tvp; /* a TVP trace container (addr_tvp.c) */
	/* references decoded ahead (TVP): rbuf[rpos..rn) are given first */
	const struct citcat_ref *rbuf;
	unsigned rpos, rn;
};

int addr_werr(struct citcat_addr_writer *w, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int addr_rerr(struct citcat_addr_reader *r, int code, uint64_t off, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* Moves the staged bytes to the output (hashing them when w->hashing). */
int addr_wflush(struct citcat_addr_writer *w);
/* Moves the staged bytes buf[0..upto) to the output and the rest to the
 * front of the buffer. */
int addr_wflush_part(struct citcat_addr_writer *w, size_t upto);
/* Makes at least NEED bytes readable at buf[pos] unless the input ends
 * first.  Returns the bytes available (may be < NEED at the end) or an error. */
long addr_fill(struct citcat_addr_reader *r, size_t need);
/* Stream offset of buf[pos]. */
static inline uint64_t addr_roff(const struct citcat_addr_reader *r) { return r->base + r->pos; }
/* Before a PDATS / PDATS II record: buffers up to ADDR_REC_MAX bytes and
 * returns how many are available (at least 1), or an error (a truncated
 * file when the records end without their end marker). */
long addr_record_bytes(struct citcat_addr_reader *r);
/* Hashes the window up to buf[upto] and stops hashing. */
void addr_hash_stop(struct citcat_addr_reader *r, size_t upto);
/* Reads and checks the 12-byte trailer at buf[pos]; then the input must end. */
int addr_read_trailer(struct citcat_addr_reader *r);
/* Appends the trailer and completes the hash. */
int addr_write_trailer(struct citcat_addr_writer *w);

/* Sign-extends the low BITS bits of V. */
static inline int64_t addr_sext(uint64_t v, unsigned bits)
{
	return bits >= 64 ? (int64_t)v : (int64_t)(v << (64 - bits)) >> (64 - bits);
}
/* Little-endian signed integers of 1, 2, 4 or 8 bytes. */
static inline int64_t addr_gets(const uint8_t *p, unsigned n)
{
	switch (n) {
	case 1: return (int8_t)p[0];
	case 2: return (int16_t)cc_get16(p);
	case 4: return (int32_t)cc_get32(p);
	default: return (int64_t)cc_get64(p);
	}
}
static inline void addr_puts(uint8_t *p, uint64_t v, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* Accounts for K bytes of a flushed packet: they are both output and payload. */
static inline void addr_count_packet(struct citcat_addr_writer *w, size_t k)
{
	w->len += k;
	w->payload += k;
}

/* Per-format halves (din.c, pdats.c, pdats2.c). */
/* One reference of a run the reader holds (a PDATS repeat, a PDATS II
 * sequential run): ADDR of TYPE, no size.  Returns 1. */
static inline int addr_run_ref(struct citcat_addr_reader *r, struct citcat_ref *ref, uint64_t addr, unsigned type)
{
	ref->addr = addr;
	ref->type = (uint8_t)type;
	ref->size = 0;
	r->refs++;
	return 1;
}

int din_put(struct citcat_addr_writer *w, const struct citcat_ref *ref);
int din_next(struct citcat_addr_reader *r, struct citcat_ref *ref);
int pdats_put(struct citcat_addr_writer *w, const struct citcat_ref *ref);
int pdats_finish(struct citcat_addr_writer *w);
int pdats_next(struct citcat_addr_reader *r, struct citcat_ref *ref);
int pdats2_put(struct citcat_addr_writer *w, const struct citcat_ref *ref);
int pdats2_finish(struct citcat_addr_writer *w);
int pdats2_next(struct citcat_addr_reader *r, struct citcat_ref *ref);
/* TVP mode 1 (addr_tvp.c, TVP_MODEL.md): any of the four formats as a
 * value-prediction model.  The writer's outfile is plain; it writes the
 * container itself. */
struct tvp_model;
int tvp_writer_open(struct citcat_addr_writer *w, unsigned stride, unsigned isizes);
int tvp_put(struct citcat_addr_writer *w, const struct citcat_ref *ref);
int tvp_finish(struct citcat_addr_writer *w);
int tvp_reader_open(struct citcat_addr_reader *r);
int tvp_next(struct citcat_addr_reader *r, struct citcat_ref *ref);
void tvp_model_free(struct tvp_model *m);

#endif
