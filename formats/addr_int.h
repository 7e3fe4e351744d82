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
#define ADDR_INBUF (64u << 10)  /* window of a reader */
#define ADDR_REC_MAX 16         /* no record (or trailer) is longer */
#define ADDR_LINE_MAX 4096      /* longest din/xdin line accepted */
#define ADDR_HDR_LEN 8          /* PDATS and PDATS II file header */
#define ADDR_TRAILER_LEN 12     /* u64 reference count + u32 XXH32 */

#define PDATS_MAGIC "PDTS"
#define PDATS2_MAGIC "PDT2"
#define ADDR_VERSION 1

struct citcat_addr_writer {
	int fmt;
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
};

struct citcat_addr_reader {
	int fmt;
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
};

int addr_werr(struct citcat_addr_writer *w, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int addr_rerr(struct citcat_addr_reader *r, int code, uint64_t off, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* Moves the staged bytes to the output (hashing them when w->hashing). */
int addr_wflush(struct citcat_addr_writer *w);
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

#endif
