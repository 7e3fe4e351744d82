/* Splicing merge of segment itraces: see itrace_merge.h, ITRACE.md
 * "Chunks" and replay/SEGMENTS.md "Merge". */
#include "itrace_merge.h"
#include "bytes.h"
#include "citcat_regs.h"
#include "container.h"
#include "itrace.h"
#include "input.h"
#include <citcat/cat.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#define MAGIC "CITR\r\n\x1a\n"

/* What the decoded first or last chunk of an input says about its seam. */
struct edge {
	int any_insn;       /* the chunk holds an instruction record */
	uint64_t first_pc;  /* the first instruction's PC */
	uint64_t last_next; /* after the last instruction: its PC + size */
	int last_inv_i;     /* the last record is an instruction that stores to INV_I */
	int last_stop;      /* the last record is an abnormal end */
};

/* Decodes the stored chunk C of an itrace whose header has VERSION and the
 * 8-byte metadata META, alone (each chunk decodes on its own, ITRACE.md),
 * into *E.  Errors name the chunk's file offset. */
static int decode_chunk(const struct cc_stored_chunk *c, uint16_t version, const uint8_t *meta, struct edge *e,
			struct citcat_errinfo *err)
{
	/* a one-chunk container: header, the chunk as stored, end marker */
	size_t hl = 16 + 8 + 4, n = hl + 24 + c->stored + 24;
	uint8_t *b = malloc(n);
	if (!b)
		return citcat_errinfo_set(err, CITCAT_ERR_NOMEM, UINT64_MAX, "out of memory for a chunk");
	memcpy(b, MAGIC, 8);
	cc_put16(b + 8, version);
	cc_put16(b + 10, 0);
	cc_put32(b + 12, 8);
	memcpy(b + 16, meta, 8);
	cc_put32(b + 24, XXH32(b, 24, 0));
	memcpy(b + hl, c->hdr, 24);
	memcpy(b + hl + 24, c->payload, c->stored);
	uint8_t *end = b + hl + 24 + c->stored;
	memcpy(end, "END", 4);
	cc_put64(end + 4, c->nrec);
	cc_put64(end + 12, c->raw_len);
	cc_put32(end + 20, XXH32(end, 20, 0));
	struct citcat_itrace_reader *r;
	static struct citcat_itrace_rec rec;
	int rc = citcat_itrace_reader_open_mem(&r, b, n);
	memset(e, 0, sizeof *e);
	if (!rc) {
		citcat_itrace_reader_dma(r, 1);
		while ((rc = citcat_itrace_next(r, &rec)) == 1) {
			e->last_stop = rec.kind == CITCAT_REC_STOP;
			e->last_inv_i = 0;
			if (rec.kind != CITCAT_REC_INSN)
				continue;
			if (!e->any_insn)
				e->first_pc = rec.pc;
			e->any_insn = 1;
			e->last_next = rec.pc + rec.size;
			for (uint32_t i = 0; i < rec.n_acc; i++)
				e->last_inv_i |= rec.acc[i].write && rec.acc[i].addr == CITCAT_CACHE_INV_I;
		}
	}
	if (rc < 0) {
		const struct citcat_errinfo *re = citcat_itrace_reader_error(r);
		citcat_errinfo_set(err, rc, c->offset, "chunk at file offset %llu does not decode: %s",
				   (unsigned long long)c->offset, re && re->msg[0] ? re->msg : citcat_errstr(rc));
	}
	citcat_itrace_reader_close(r);
	free(b);
	return rc < 0 ? rc : 0;
}

/* Decodes the whole of PATH record by record; the count into *N.  STOP is
 * polled every 65536 records (the reads poll the stop flag too). */
static int check_all(const char *path, uint64_t *n, int (*stop)(void *), void *stop_ctx, struct citcat_errinfo *err)
{
	struct citcat_itrace_reader *r;
	static struct citcat_itrace_rec rec;
	int rc = citcat_itrace_reader_open(&r, path);
	*n = 0;
	if (!rc) {
		citcat_itrace_reader_dma(r, 1);
		while ((rc = citcat_itrace_next(r, &rec)) == 1)
			if ((++*n & 0xffff) == 0 && stop && stop(stop_ctx)) {
				citcat_itrace_reader_close(r);
				return citcat_errinfo_set(err, CITCAT_ERR_INTERRUPTED, UINT64_MAX, "interrupted");
			}
	}
	if (rc < 0)
		*err = *citcat_itrace_reader_error(r);
	citcat_itrace_reader_close(r);
	return rc < 0 ? rc : 0;
}

int itrace_merge(const char *const *in, size_t nin, const char *out, int check, int (*stop)(void *), void *stop_ctx,
		 struct itrace_merge_result *res, struct citcat_errinfo *err, size_t *err_input)
{
	struct cc_writer *w = NULL;
	struct cc_reader *r = NULL;
	uint8_t meta0[8] = {0}, *last = NULL;
	size_t lastcap = 0;
	uint16_t version0 = 0;
	struct edge prev = {0};
	uint32_t seg0 = 0, prev_seg = 0;
	int prev_any = 0, rc = 0;
	size_t i = 0;
	memset(res, 0, sizeof *res);
	memset(err, 0, sizeof *err);

	for (; i < nin && !rc; i++) {
		if ((rc = cc_reader_open(&r, in[i], MAGIC, CITCAT_ITRACE_VERSION))) {
			*err = *cc_reader_error(r);
			break;
		}
		uint32_t ml;
		const uint8_t *meta = cc_reader_meta(r, &ml);
		uint16_t version = cc_reader_version(r);
		if (version != CITCAT_ITRACE_VERSION) {
			rc = citcat_errinfo_set(err, CITCAT_ERR_UNSUPPORTED, 8,
						"itrace version %u: merge splices version %u chunks only (regenerate the segment)",
						version, CITCAT_ITRACE_VERSION);
			break;
		}
		if (ml != 8) {
			rc = citcat_errinfo_set(err, CITCAT_ERR_CORRUPT, 12, "itrace metadata is not 8 bytes");
			break;
		}
		/* bytes 1..3: K + 1 for segment K's itrace (ITRACE.md) */
		uint32_t seg = (uint32_t)meta[1] | (uint32_t)meta[2] << 8 | (uint32_t)meta[3] << 16;
		if (i == 0) {
			memcpy(meta0, meta, 8);
			memset(meta0 + 1, 0, 3); /* the merge is a whole run's trace, or a part of one */
			seg0 = seg;
			version0 = version;
			if ((rc = cc_writer_open(&w, out, MAGIC, version0, meta0, 8, 0))) {
				citcat_errinfo_set(err, rc, UINT64_MAX, "%s", cc_writer_open_error()->msg);
				i = nin;
				break;
			}
			cc_writer_inline(w); /* chunks go out as they are: nothing to compress */
		} else if (meta[0] != meta0[0] || memcmp(meta + 4, meta0 + 4, 4)) { /* the ISA and the flags */
			rc = citcat_errinfo_set(err, CITCAT_ERR_INVAL, 16, "another ISA or metadata than %s", in[0]);
			break;
		}
		struct cc_stored_chunk c, lc = {0};
		struct edge first = {0};
		uint64_t nrec = 0, nch = 0;
		int k;
		while ((k = cc_reader_next_stored(r, &c)) == 1) {
			if (stop && stop(stop_ctx)) {
				rc = citcat_errinfo_set(err, CITCAT_ERR_INTERRUPTED, UINT64_MAX, "interrupted");
				break;
			}
			if (nch == 0 && (rc = decode_chunk(&c, version, meta0, &first, err)))
				break;
			/* keep the chunk: the input's last one is decoded at its end */
			if (lastcap < 24 + (size_t)c.stored) {
				free(last);
				lastcap = 24 + (size_t)c.stored;
				if (!(last = malloc(lastcap))) {
					lastcap = 0;
					rc = citcat_errinfo_set(err, CITCAT_ERR_NOMEM, UINT64_MAX, "out of memory");
					break;
				}
			}
			memcpy(last, c.hdr, 24);
			memcpy(last + 24, c.payload, c.stored);
			lc = c;
			lc.hdr = last;
			lc.payload = last + 24;
			if (cc_writer_put_stored(w, &c)) {
				*err = *cc_writer_error(w);
				i = nin;
				rc = err->code;
				break;
			}
			nrec += c.nrec;
			nch++;
		}
		if (rc)
			break;
		if (k < 0) {
			rc = k;
			*err = *cc_reader_error(r);
			break;
		}
		cc_reader_close(r);
		r = NULL;
		if (!nch)
			continue; /* an empty input: no seam of its own */

		/* the seam with the input before: it ends at a checkpoint's start
		 * point, and this one starts at the PC after it */
		if (prev_any && first.any_insn && first.first_pc != prev.last_next) {
			rc = citcat_errinfo_set(err, CITCAT_ERR_CORRUPT, UINT64_MAX,
						"its first instruction is at 0x%llx, not at 0x%llx after the end of %s",
						(unsigned long long)first.first_pc, (unsigned long long)prev.last_next,
						in[i - 1]);
			break;
		}
		struct edge end;
		if ((rc = decode_chunk(&lc, version, meta0, &end, err)))
			break;
		if (i + 1 < nin && end.last_stop) {
			rc = citcat_errinfo_set(err, CITCAT_ERR_INVAL, UINT64_MAX, "ends abnormally but is not the last segment");
			break;
		}
		if (i + 1 < nin && !end.last_inv_i) {
			rc = citcat_errinfo_set(err, CITCAT_ERR_INVAL, UINT64_MAX,
						"does not end at a checkpoint's start point (its last record is not the INV_I "
						"store), so it is not a segment that another follows");
			break;
		}
		/* the segment numbers: all or none, each the one after the last */
		if (i > 0 && (seg0 != 0) != (seg != 0)) {
			rc = citcat_errinfo_set(err, CITCAT_ERR_INVAL, 17, "%s, but %s %s: merge joins the itraces of consecutive "
						"segments (replay --segment K), and nothing else",
						seg ? "is a segment's itrace" : "is not a segment's itrace (a whole run's?)", in[0],
						seg0 ? "is one" : "is not");
			break;
		}
		if (i > 0 && seg && seg != prev_seg + 1) {
			if (seg == prev_seg)
				rc = citcat_errinfo_set(err, CITCAT_ERR_INVAL, 17, "is segment %u again (after %s): one segment given twice",
							seg - 1, in[i - 1]);
			else
				rc = citcat_errinfo_set(err, CITCAT_ERR_INVAL, 17, "is segment %u, but segment %u comes after %s (segment %u): "
							"give the segments in order, each once", seg - 1, prev_seg, in[i - 1], prev_seg - 1);
			break;
		}
		prev_seg = seg;
		if (check) {
			uint64_t n;
			if ((rc = check_all(in[i], &n, stop, stop_ctx, err)))
				break;
			if (n != nrec) {
				rc = citcat_errinfo_set(err, CITCAT_ERR_CORRUPT, UINT64_MAX,
							"%llu records decoded, the chunks say %llu", (unsigned long long)n,
							(unsigned long long)nrec);
				break;
			}
			res->checked += n;
		}
		prev = end;
		prev_any = end.any_insn; /* else nothing is known about the PC after it */
		res->records += nrec;
		res->chunks += nch;
	}
	cc_reader_close(r);
	free(last);
	if (rc) {
		*err_input = i < nin ? i : nin;
		cc_writer_abort(w);
		return rc;
	}
	if (!w) {
		*err_input = nin;
		return citcat_errinfo_set(err, CITCAT_ERR_INVAL, UINT64_MAX, "no input");
	}
	if ((rc = cc_writer_close(w))) { /* frees W */
		*err_input = nin;
		return citcat_errinfo_set(err, rc, UINT64_MAX, "writing the output failed: %s",
					  rc == CITCAT_ERR_IO ? strerror(errno) : citcat_errstr(rc));
	}
	return 0;
}

/* ---- the public calls of segment planning and merging ---- */

int citcat_itrace_merge(const char *const *in, size_t nin, const char *out, int check, int (*stop)(void *ctx),
			void *stop_ctx, struct citcat_itrace_merge_result *res, struct citcat_errinfo *err,
			size_t *err_input)
{
	struct citcat_errinfo e;
	size_t at = nin;
	if (!in || !nin || !out || !res)
		return citcat_errinfo_set(err, CITCAT_ERR_INVAL, UINT64_MAX, "no inputs, output or result");
	struct itrace_merge_result r;
	int rc = itrace_merge(in, nin, out, check, stop, stop_ctx, &r, &e, &at);
	res->records = r.records;
	res->chunks = r.chunks;
	res->checked = r.checked;
	if (err)
		*err = e;
	if (err_input)
		*err_input = at;
	return rc;
}

int citcat_file_compare(const char *a, const char *b, uint64_t *offset, struct citcat_errinfo *err, int *err_file)
{
	struct cc_input *fa = NULL, *fb = NULL;
	struct citcat_errinfo e = {0};
	if (!a || !b)
		return citcat_errinfo_set(err, CITCAT_ERR_INVAL, UINT64_MAX, "no file to compare");
	int rc = cc_input_open_flags(&fa, a, CC_IN_RAW, &e);
	if (!rc)
		rc = cc_input_open_flags(&fb, b, CC_IN_RAW, &e);
	if (rc) {
		if (err_file)
			*err_file = fa ? 1 : 0;
		if (err)
			*err = e;
		cc_input_close(fa);
		cc_input_close(fb);
		return rc;
	}
	enum { BUF = 1 << 16 };
	uint8_t *ba = malloc(2 * BUF), *bb = ba + BUF;
	uint64_t off = 0;
	int status = 0;
	if (!ba) {
		status = citcat_errinfo_set(err, CITCAT_ERR_NOMEM, UINT64_MAX, "out of memory");
		if (err_file)
			*err_file = 0;
	}
	while (ba) {
		long na = cc_input_read(fa, ba, BUF);
		long nb = cc_input_read(fb, bb, BUF);
		if (na < 0 || nb < 0) {
			if (err)
				*err = *cc_input_error(na < 0 ? fa : fb);
			if (err_file)
				*err_file = na < 0 ? 0 : 1;
			status = (na < 0 ? cc_input_error(fa) : cc_input_error(fb))->code;
			if (status >= 0)
				status = CITCAT_ERR_IO;
			break;
		}
		long n = na < nb ? na : nb, i = 0;
		while (i < n && ba[i] == bb[i])
			i++;
		if (i < n || na != nb) {
			if (offset)
				*offset = off + (uint64_t)i;
			status = i == n ? 2 : 1;
			break;
		}
		if (!na)
			break;
		off += (uint64_t)na;
	}
	free(ba);
	cc_input_close(fa);
	cc_input_close(fb);
	return status;
}

int citcat_cat_segments(const char *path, uint64_t *n, int (*stop)(void *ctx), void *stop_ctx,
			struct citcat_errinfo *err)
{
	if (!path || !n)
		return citcat_errinfo_set(err, CITCAT_ERR_INVAL, UINT64_MAX, "no CAT or count");
	struct citcat_cat_reader *r;
	int rc = citcat_cat_reader_open(&r, path), synced = 0;
	struct citcat_cat_event ev;
	uint64_t k = 0, seen = 0;
	*n = 0;
	while (rc == 0 && (rc = citcat_cat_next(r, &ev)) == 1) {
		rc = 0;
		if ((++seen & 0xffff) == 0 && stop && stop(stop_ctx)) {
			citcat_cat_reader_close(r);
			return citcat_errinfo_set(err, CITCAT_ERR_INTERRUPTED, UINT64_MAX, "interrupted");
		}
		synced |= ev.kind == CITCAT_CAT_SYNC;
		k += synced && ev.kind == CITCAT_CAT_CKPT;
	}
	if (rc < 0) {
		const struct citcat_errinfo *re = citcat_cat_reader_error(r);
		if (re && err)
			*err = *re;
		else if (err)
			*err = (struct citcat_errinfo){.code = rc, .offset = UINT64_MAX};
		citcat_cat_reader_close(r);
		return rc;
	}
	citcat_cat_reader_close(r);
	*n = synced ? k + 1 : 0;
	return 0;
}
