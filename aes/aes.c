/* AES extraction (AES.md, in formats/).  The file format is formats/aesfile.c. */
#include "aes.h"
#include "bytes.h"
#include "citcat_regs.h"
#include "container.h"
#include "segidx.h"

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAGIC CITCAT_AES_MAGIC

int citcat_aes_is_counter(const struct citcat_target_config *cfg, uint32_t addr)
{
	if (!cfg)
		return 0;
	return addr - cfg->dev_base - CITCAT_DEV_OFF(CITCAT_CYCLES_BASE) < CITCAT_CYCLES_HI + 4 - CITCAT_CYCLES_BASE;
}

/* ---- extraction ---- */

/* A segment's counts at its start marker, and at its end when that is the
 * next CKPT (ims.c, extract). */
struct seg_base {
	uint64_t insns, bcount, end_insns, end_bcount;
	int end_is_ckpt;
};

/* First pass: the trace id needs the STOP totals at the end of the CAT. */
static int scan_id(const char *cat_path, int64_t seg, struct citcat_trace_id *id, struct citcat_target_config *cfg,
		   struct seg_base *sb, struct citcat_errinfo *err)
{
	struct citcat_cat_reader *r;
	struct citcat_cat_event ev;
	int rc = citcat_cat_reader_open(&r, cat_path), synced = 0, stopped = 0;
	uint32_t pc = 0;
	uint64_t insns = 0, br = 0, ehash = 0;
	int64_t markers = 0;
	if (!rc) {
		*cfg = *citcat_cat_config(r);
		if (seg > 0 && citcat_cat_reader_seek_segment(r, (uint64_t)seg) == 1)
			markers = seg; /* opened at its checkpoint (ims.c, extract) */
		while ((rc = citcat_cat_next(r, &ev)) == 1) {
			if (seg >= 0 && (ev.kind == CITCAT_CAT_SYNC || ev.kind == CITCAT_CAT_CKPT)) {
				/* the segment's markers (ims.c, extract, checks their order) */
				if (markers++ == seg + 1) {
					ehash = citcat_trace_hash_event(ehash, &ev);
					stopped = 1;
					insns = ev.insns - sb->insns;
					br = ev.bcount - sb->bcount;
					sb->end_insns = insns;
					sb->end_bcount = br;
					sb->end_is_ckpt = 1;
					rc = 0;
					break;
				}
				if (markers - 1 == seg) {
					synced = 1;
					pc = ev.pc;
					sb->insns = ev.kind == CITCAT_CAT_CKPT ? ev.insns : 0;
					sb->bcount = ev.kind == CITCAT_CAT_CKPT ? ev.bcount : 0;
					ehash = citcat_trace_hash_event(ehash, &ev);
				}
				continue;
			}
			if (seg >= 0 && ev.kind == CITCAT_CAT_STOP && synced && !stopped) {
				stopped = 1;
				insns = ev.insns - sb->insns;
				br = ev.bcount - sb->bcount;
				ehash = citcat_trace_hash_event(ehash, &ev);
				continue;
			}
			if (ev.kind == CITCAT_CAT_SYNC && !synced) {
				synced = 1;
				pc = ev.pc;
			} else if (ev.kind == CITCAT_CAT_STOP && synced && !stopped) {
				stopped = 1;
				insns = ev.insns;
				br = ev.bcount;
				ehash = citcat_trace_hash_event(ehash, &ev);
			}
			if (synced && !stopped)
				ehash = citcat_trace_hash_event(ehash, &ev);
		}
	}
	if (rc < 0) {
		if (err && r)
			*err = *citcat_cat_reader_error(r);
		citcat_cat_reader_close(r);
		return rc;
	}
	citcat_cat_reader_close(r);
	if (seg > 0 && !synced)
		return citcat_errinfo_set(err, CITCAT_ERR_INVAL, UINT64_MAX, "the CAT has %s%lld segment%s, no segment %lld",
					  markers == seg ? "at most " : "", (long long)markers, markers == 1 ? "" : "s", (long long)seg);
	if (!synced)
		return citcat_errinfo_set(err, CITCAT_ERR_CORRUPT, UINT64_MAX, "the CAT has no trace start point (the firmware never ran the CITCAT driver)");
	if (!stopped)
		return citcat_errinfo_set(err, CITCAT_ERR_TRUNCATED, UINT64_MAX, "the CAT has no STOP marker");
	citcat_trace_id_make(cfg, pc, insns, br, ehash, id);
	return 0;
}

/* The AES record for CAT event EV (counts already rebased) into *A: 1, 0
 * when the event has none (the replay regenerates it), or an error. */
static int to_rec(const struct citcat_cat_event *ev, const struct citcat_target_config *cfg, struct citcat_aes_rec *a,
		  struct citcat_aes_stats *st, struct citcat_cat_reader *r, struct citcat_errinfo *err)
{
	int rc;
	memset(a, 0, sizeof *a);
	switch (ev->kind) {
	case CITCAT_CAT_IRQ:
	case CITCAT_CAT_EXC: /* the writer encodes it by the configuration's ISA */
		a->kind = CITCAT_AES_IRQ;
		a->line = ev->line;
		if (ev->kind == CITCAT_CAT_EXC) {
			if (ev->value < CITCAT_AES_M7_EXC_MIN || ev->value > CITCAT_AES_M7_EXC_MAX) {
				rc = citcat_errinfo_set(err, CITCAT_ERR_UNSUPPORTED, citcat_cat_reader_offset(r),
							"exception %llu: the Cortex-M7 model has exceptions 2..47 only",
							(unsigned long long)ev->value);
				return rc;
			}
			a->line = (uint8_t)ev->value;
		}
		a->pc = ev->pc;
		a->bcount = ev->bcount;
		break;
	case CITCAT_CAT_DMA:
		a->kind = CITCAT_AES_DMA;
		a->addr = ev->addr;
		a->len = ev->len;
		a->data = ev->data;
		a->pc = ev->pc;
		a->bcount = ev->bcount;
		st->dma_bytes += ev->len;
		break;
	case CITCAT_CAT_UREAD:
	case CITCAT_CAT_UWRITE:
		a->kind = ev->kind == CITCAT_CAT_UWRITE ? CITCAT_AES_OUTPUT
			 : citcat_aes_is_counter(cfg, ev->addr) ? CITCAT_AES_COUNTER : CITCAT_AES_INPUT;
		a->addr = ev->addr;
		a->size = ev->size;
		a->value = ev->value;
		break;
	case CITCAT_CAT_STOP:
		a->kind = CITCAT_AES_END;
		a->insns = ev->insns;
		a->bcount = ev->bcount;
		a->line = ev->line;
		if (ev->line == CITCAT_STOP_FAULT) {
			a->value = ev->value;
			a->pc = ev->pc;
			a->addr = ev->addr;
		}
		break;
	default:
		return 0; /* fills, write-backs, writes: the replay regenerates them */
	}
	return 1;
}

static int extract(const char *cat_path, int64_t seg, const char *out_path, struct citcat_aes_stats *st,
		   int (*progress)(void *ctx, uint64_t done, uint64_t total), void *pctx, struct citcat_errinfo *err)
{
	if (!cat_path || !out_path)
		return CITCAT_ERR_INVAL;
	struct citcat_aes_stats dummy;
	if (!st)
		st = &dummy;
	memset(st, 0, sizeof *st);
	struct citcat_trace_id id;
	struct citcat_target_config cfg;
	struct seg_base sb = {0};
	int rc = scan_id(cat_path, seg, &id, &cfg, &sb, err);
	if (rc)
		return rc;
	struct citcat_cat_reader *r;
	struct citcat_aes_writer *w = NULL;
	if ((rc = citcat_cat_reader_open(&r, cat_path))) {
		if (err && r)
			*err = *citcat_cat_reader_error(r);
		citcat_cat_reader_close(r);
		return rc;
	}
	if ((rc = citcat_aes_writer_open(&w, out_path, &id, &cfg))) {
		citcat_cat_reader_close(r);
		rc = citcat_errinfo_set(err, rc, UINT64_MAX, "cannot create %s: %s", out_path, rc == CITCAT_ERR_IO ? strerror(errno) : citcat_errstr(rc));
		citcat_aes_writer_abort(w);
		return rc;
	}
	struct citcat_cat_event ev;
	int synced = 0;
	uint64_t n = 0;
	int64_t markers = 0;
	if (seg > 0 && citcat_cat_reader_seek_segment(r, (uint64_t)seg) == 1)
		markers = seg; /* as scan_id */
	while ((rc = citcat_cat_next(r, &ev)) == 1) {
		if ((++n & 0xffff) == 0 && progress &&
		    progress(pctx, citcat_cat_reader_offset(r), citcat_cat_reader_file_size(r))) {
			rc = citcat_errinfo_set(err, CITCAT_ERR_INTERRUPTED, UINT64_MAX, "interrupted");
			break;
		}
		if (seg >= 0 && (ev.kind == CITCAT_CAT_SYNC || ev.kind == CITCAT_CAT_CKPT)) {
			if (markers++ == seg + 1) /* the segment ends at the instruction limit */
				ev = (struct citcat_cat_event){.kind = CITCAT_CAT_STOP, .line = CITCAT_STOP_LIMIT,
							       .insns = ev.insns, .bcount = ev.bcount};
			else {
				synced |= markers - 1 == seg;
				continue;
			}
		} else if (ev.kind == CITCAT_CAT_SYNC) {
			synced = 1;
			continue;
		}
		if (!synced)
			continue;
		/* a segment's counts are relative to its start point */
		if (ev.kind == CITCAT_CAT_IRQ || ev.kind == CITCAT_CAT_EXC || ev.kind == CITCAT_CAT_DMA || ev.kind == CITCAT_CAT_STOP) {
			ev.bcount -= sb.bcount;
			ev.insns -= ev.kind == CITCAT_CAT_STOP ? sb.insns : 0;
		}
		struct citcat_aes_rec a;
		if ((rc = to_rec(&ev, &cfg, &a, st, r, err)) < 0)
			goto fail;
		if (rc == 0)
			continue;
		st->records[a.kind]++;
		if ((rc = citcat_aes_write(w, &a))) {
			citcat_errinfo_set(err, rc, UINT64_MAX, "writing %s failed", out_path);
			break;
		}
		if (a.kind == CITCAT_AES_END)
			break;
	}
fail:
	if (rc < 0 && rc != CITCAT_ERR_INTERRUPTED && err && !err->msg[0])
		*err = *citcat_cat_reader_error(r);
	if (rc < 0 && err && r && citcat_cat_reader_error(r)->code == rc)
		*err = *citcat_cat_reader_error(r);
	citcat_cat_reader_close(r);
	if (rc < 0) {
		citcat_aes_writer_abort(w);
		return rc;
	}
	rc = citcat_aes_writer_close(w);
	if (rc)
		return citcat_errinfo_set(err, rc, UINT64_MAX, "writing %s failed: %s", out_path, rc == CITCAT_ERR_IO ? strerror(errno) : citcat_errstr(rc));
	return 0;
}

int citcat_aes_extract(const char *cat_path, const char *out_path, struct citcat_aes_stats *st,
		       int (*progress)(void *ctx, uint64_t done, uint64_t total), void *pctx,
		       struct citcat_errinfo *err)
{
	return extract(cat_path, -1, out_path, st, progress, pctx, err);
}

int citcat_aes_extract_segment(const char *cat_path, uint64_t segment, const char *out_path,
			       struct citcat_aes_stats *st, int (*progress)(void *ctx, uint64_t done, uint64_t total),
			       void *pctx, struct citcat_errinfo *err)
{
	if (segment > INT64_MAX - 2)
		return citcat_errinfo_set(err, CITCAT_ERR_INVAL, UINT64_MAX, "segment %llu does not exist",
					  (unsigned long long)segment);
	return extract(cat_path, (int64_t)segment, out_path, st, progress, pctx, err);
}

/* ---- every segment into one file (common/SEGIDX.md) ---- */

struct seg_id {
	struct citcat_trace_id id;
	uint64_t insns, bcount; /* at the segment's start marker */
};

/* First pass: each segment's trace id (ims.c hashes the same events). */
static int scan_all_ids(const char *cat_path, struct seg_id **out, uint64_t *nout, struct citcat_target_config *cfg,
			struct citcat_errinfo *err)
{
	struct citcat_cat_reader *r;
	struct citcat_cat_event ev;
	int rc = citcat_cat_reader_open(&r, cat_path), synced = 0, stopped = 0;
	uint64_t ehash = 0, n = 0, cap = 0;
	struct seg_id cur = {0}, *v = NULL;
	if (!rc) {
		*cfg = *citcat_cat_config(r);
		while ((rc = citcat_cat_next(r, &ev)) == 1) {
			int marker = ev.kind == CITCAT_CAT_SYNC || ev.kind == CITCAT_CAT_CKPT;
			if (stopped || (!synced && !marker))
				continue;
			if ((ev.kind == CITCAT_CAT_SYNC) == synced && marker) {
				rc = citcat_errinfo_set(err, CITCAT_ERR_CORRUPT, citcat_cat_reader_offset(r),
							ev.kind == CITCAT_CAT_SYNC ? "a second trace start point"
										   : "a checkpoint before the trace start point");
				break;
			}
			if (synced)
				ehash = citcat_trace_hash_event(ehash, &ev);
			if (synced && (marker || ev.kind == CITCAT_CAT_STOP)) { /* a segment's end */
				if (n == cap) {
					uint64_t c = cap ? 2 * cap : 16;
					struct seg_id *nv = c <= CC_SEGIDX_MAX ? realloc(v, c * sizeof *nv) : NULL;
					if (!nv) {
						rc = citcat_errinfo_set(err, CITCAT_ERR_LIMIT, UINT64_MAX, "more than %u segments",
									CC_SEGIDX_MAX);
						break;
					}
					v = nv;
					cap = c;
				}
				citcat_trace_id_make(cfg, cur.id.start_pc, ev.insns - cur.insns, ev.bcount - cur.bcount, ehash,
						     &cur.id);
				v[n++] = cur;
				stopped = ev.kind == CITCAT_CAT_STOP;
			}
			if (marker) { /* a segment's start */
				synced = 1;
				cur = (struct seg_id){.id.start_pc = ev.pc};
				cur.insns = ev.kind == CITCAT_CAT_CKPT ? ev.insns : 0;
				cur.bcount = ev.kind == CITCAT_CAT_CKPT ? ev.bcount : 0;
				ehash = citcat_trace_hash_event(0, &ev);
			}
		}
	}
	if (rc < 0) {
		if (err && r && citcat_cat_reader_error(r)->code == rc)
			*err = *citcat_cat_reader_error(r);
		citcat_cat_reader_close(r);
		free(v);
		return rc;
	}
	citcat_cat_reader_close(r);
	if (!synced) {
		free(v);
		return citcat_errinfo_set(err, CITCAT_ERR_CORRUPT, UINT64_MAX, "the CAT has no trace start point (the firmware never ran the CITCAT driver)");
	}
	if (!stopped) {
		free(v);
		return citcat_errinfo_set(err, CITCAT_ERR_TRUNCATED, UINT64_MAX, "the CAT has no STOP marker");
	}
	*out = v;
	*nout = n;
	return 0;
}

int citcat_aes_extract_all(const char *cat_path, const char *out_path, uint64_t *nseg, struct citcat_aes_stats *st,
			   int (*progress)(void *ctx, uint64_t done, uint64_t total), void *pctx,
			   struct citcat_errinfo *err)
{
	if (!cat_path || !out_path)
		return CITCAT_ERR_INVAL;
	struct citcat_aes_stats dummy;
	if (!st)
		st = &dummy;
	memset(st, 0, sizeof *st);
	struct seg_id *ids = NULL;
	uint64_t n = 0, k = 0;
	struct citcat_target_config cfg;
	char dir[4200], path[4300];
	int rc = scan_all_ids(cat_path, &ids, &n, &cfg, err);
	if (rc)
		return rc;
	if ((rc = cc_segidx_scratch(dir, sizeof dir, err))) {
		free(ids);
		return rc;
	}
	struct citcat_cat_reader *r;
	struct citcat_aes_writer *w = NULL;
	if ((rc = citcat_cat_reader_open(&r, cat_path))) {
		if (err && r)
			*err = *citcat_cat_reader_error(r);
		goto out;
	}
	struct citcat_cat_event ev;
	uint64_t cnt = 0;
	int synced = 0;
	while ((rc = citcat_cat_next(r, &ev)) == 1) {
		if ((++cnt & 0xffff) == 0 && progress &&
		    progress(pctx, citcat_cat_reader_offset(r), citcat_cat_reader_file_size(r))) {
			rc = citcat_errinfo_set(err, CITCAT_ERR_INTERRUPTED, UINT64_MAX, "interrupted");
			break;
		}
		if (ev.kind == CITCAT_CAT_SYNC || ev.kind == CITCAT_CAT_CKPT) {
			if (synced) { /* segment K ends at the instruction limit */
				struct citcat_aes_rec a = {.kind = CITCAT_AES_END, .line = CITCAT_STOP_LIMIT,
							   .insns = ev.insns - ids[k].insns, .bcount = ev.bcount - ids[k].bcount};
				st->records[a.kind]++;
				if ((rc = citcat_aes_write(w, &a)))
					citcat_aes_writer_abort(w);
				else
					rc = citcat_aes_writer_close(w); /* frees W */
				if (rc) {
					w = NULL;
					citcat_errinfo_set(err, rc, UINT64_MAX, "writing segment %llu failed", (unsigned long long)k);
					break;
				}
				w = NULL;
				k++;
			}
			synced = 1;
			if (k >= n) {
				rc = citcat_errinfo_set(err, CITCAT_ERR_CORRUPT, citcat_cat_reader_offset(r), "the CAT changed between passes");
				break;
			}
			cc_segidx_member_path(path, sizeof path, dir, k);
			if ((rc = citcat_aes_writer_open(&w, path, &ids[k].id, &cfg))) {
				citcat_errinfo_set(err, rc, UINT64_MAX, "cannot create %s: %s", path, rc == CITCAT_ERR_IO ? strerror(errno) : citcat_errstr(rc));
				break;
			}
			continue;
		}
		if (!synced)
			continue;
		if (ev.kind == CITCAT_CAT_IRQ || ev.kind == CITCAT_CAT_EXC || ev.kind == CITCAT_CAT_DMA || ev.kind == CITCAT_CAT_STOP) {
			ev.bcount -= ids[k].bcount;
			ev.insns -= ev.kind == CITCAT_CAT_STOP ? ids[k].insns : 0;
		}
		struct citcat_aes_rec a;
		if ((rc = to_rec(&ev, &cfg, &a, st, r, err)) < 0)
			break;
		if (rc == 0)
			continue;
		st->records[a.kind]++;
		if ((rc = citcat_aes_write(w, &a))) {
			citcat_errinfo_set(err, rc, UINT64_MAX, "writing segment %llu failed", (unsigned long long)k);
			break;
		}
		if (a.kind == CITCAT_AES_END) {
			rc = citcat_aes_writer_close(w);
			w = NULL;
			if (rc)
				citcat_errinfo_set(err, rc, UINT64_MAX, "writing segment %llu failed", (unsigned long long)k);
			else
				k++;
			break;
		}
	}
	if (rc < 0 && err && r && citcat_cat_reader_error(r)->code == rc)
		*err = *citcat_cat_reader_error(r);
	if (rc >= 0 && k != n)
		rc = citcat_errinfo_set(err, CITCAT_ERR_CORRUPT, UINT64_MAX, "the CAT changed between passes");
	citcat_cat_reader_close(r);
	citcat_aes_writer_abort(w);
	if (rc >= 0) {
		struct cc_segidx_entry *e = calloc(n, sizeof *e);
		rc = e ? 0 : citcat_errinfo_set(err, CITCAT_ERR_NOMEM, UINT64_MAX, "out of memory");
		for (uint64_t i = 0; !rc && i < n; i++) {
			e[i].insns = ids[i].insns;
			e[i].bcount = ids[i].bcount;
		}
		if (!rc)
			rc = cc_segidx_write_scratch(out_path, MAGIC, CITCAT_AES_SEG_VERSION, n, dir, e, err);
		free(e);
	}
out:
	if (nseg)
		*nseg = n;
	cc_segidx_scratch_free(dir, n);
	free(ids);
	return rc < 0 ? rc : 0;
}
