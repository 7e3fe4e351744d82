/* IMS extraction (IMS.md, in formats/), and the public reader and writer:
 * the file format (formats/imsfile.c) with the exception model's check of
 * the M7's SCS slots. */
#include "ims.h"
#include "m7exc.h"
#include "bytes.h"
#include "cache.h"
#include "citcat_regs.h"
#include "container.h"
#include "segidx.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define XXH_STATIC_LINKING_ONLY
#include <xxhash.h>

#define MAGIC CITCAT_IMS_MAGIC

uint64_t citcat_trace_hash_event(uint64_t h, const struct citcat_cat_event *ev)
{
	if (!ev)
		return h;
	/* every field but the timestamp, which replay does not need */
	uint8_t b[40];
	b[0] = ev->kind;
	b[1] = ev->size;
	b[2] = ev->line;
	b[3] = 0;
	cc_put32(b + 4, ev->addr);
	/* a SYNC has no value: its replacement states take the value's place */
	cc_put64(b + 8, ev->kind == CITCAT_CAT_SYNC ? (uint64_t)ev->repl_state[1] << 32 | ev->repl_state[0] : ev->value);
	cc_put64(b + 16, ev->bcount);
	cc_put32(b + 24, ev->pc);
	cc_put64(b + 28, ev->insns);
	cc_put32(b + 36, ev->len);
	h = XXH64(b, sizeof b, h);
	return ev->len && ev->data ? XXH64(ev->data, ev->len, h) : h;
}

void citcat_trace_id_make(const struct citcat_target_config *cfg, uint32_t start_pc, uint64_t insns,
			  uint64_t branches, uint64_t events_hash, struct citcat_trace_id *id)
{
	if (!cfg || !id)
		return;
	uint8_t buf[CITCAT_TARGET_META_LEN + 20];
	citcat_target_config_encode(cfg, buf);
	cc_put32(buf + CITCAT_TARGET_META_LEN, start_pc);
	cc_put64(buf + CITCAT_TARGET_META_LEN + 4, insns);
	cc_put64(buf + CITCAT_TARGET_META_LEN + 12, branches);
	id->hash = XXH64(buf, sizeof buf, events_hash);
	id->start_pc = start_pc;
	id->insns = insns;
}

/* ---- extraction ---- */

/* Per-byte state while scanning: SEEN = its first appearance has been
 * decided (a fill gave its initial value, or a DMA / write-through store
 * wrote it before any fill showed it, so its initial value is never used). */
struct extract {
	uint8_t *mem;   /* RAM-sized: initial values */
	uint8_t *seen;  /* bitmap: first appearance decided */
	uint8_t *known; /* bitmap: value known (from a fill) */
	uint32_t base, size;
	/* the RAM pages (PAGE bytes) this segment touched: only they are
	 * scanned and cleared at its end, so a segment costs what it touched,
	 * not the RAM size (issue 29: 19,000 segments took 260 s) */
	uint8_t *pmark;  /* bitmap: page listed */
	uint32_t *pages; /* listed pages, in touch order */
	size_t npages, pcap;
};
#define PAGE_SHIFT 12u

static inline int bit(const uint8_t *m, uint32_t i) { return (m[i >> 3] >> (i & 7)) & 1; }
static inline void setbit(uint8_t *m, uint32_t i) { m[i >> 3] |= (uint8_t)(1u << (i & 7)); }

static int in_ram(const struct extract *x, uint32_t addr, uint32_t len)
{
	return addr >= x->base && (uint64_t)addr + len <= (uint64_t)x->base + x->size;
}

/* Lists the pages of [OFF, OFF + LEN); 0 or CITCAT_ERR_NOMEM. */
static int touch(struct extract *x, uint32_t off, uint32_t len)
{
	for (uint32_t p = off >> PAGE_SHIFT; len && p <= (off + len - 1) >> PAGE_SHIFT; p++) {
		if (bit(x->pmark, p))
			continue;
		if (x->npages == x->pcap) {
			size_t cap = x->pcap ? 2 * x->pcap : 256;
			uint32_t *q = realloc(x->pages, cap * sizeof *q);
			if (!q)
				return CITCAT_ERR_NOMEM;
			x->pages = q;
			x->pcap = cap;
		}
		setbit(x->pmark, p);
		x->pages[x->npages++] = p;
	}
	return 0;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

/* Clears what the listed pages hold, for the next segment. */
static void reset_pages(struct extract *x)
{
	for (size_t k = 0; k < x->npages; k++) {
		uint32_t p = x->pages[k], from = p << (PAGE_SHIFT - 3), n = 1u << (PAGE_SHIFT - 3);
		if (from + n > x->size / 8 + 1)
			n = x->size / 8 + 1 - from;
		memset(x->seen + from, 0, n);
		memset(x->known + from, 0, n);
		x->pmark[p >> 3] &= (uint8_t)~(1u << (p & 7));
	}
	x->npages = 0;
}

static void first_fill(struct extract *x, uint32_t addr, const uint8_t *data, uint32_t len, struct citcat_ims_stats *st)
{
	uint32_t off = addr - x->base;
	int any = 0;
	for (uint32_t i = 0; i < len; i++) {
		if (bit(x->seen, off + i))
			continue;
		setbit(x->seen, off + i);
		setbit(x->known, off + i);
		x->mem[off + i] = data[i];
		any = 1;
	}
	st->lines_filled += any;
}

static void first_write(struct extract *x, uint32_t addr, uint32_t len, uint64_t *counter)
{
	uint32_t off = addr - x->base;
	for (uint32_t i = 0; i < len; i++)
		if (!bit(x->seen, off + i)) {
			setbit(x->seen, off + i);
			(*counter)++;
		}
}

/* The dump slots a segment starting at a marker of KIND holds: the M7's
 * checkpoint driver adds the SCS state (TARGET-M7.md, "Checkpoints"). */
static int marker_slots(uint32_t isa, int kind)
{
	return isa == CITCAT_ISA_M7 && kind == CITCAT_CAT_CKPT ? M7_CKPT_SLOTS : citcat_ims_dump_slots(isa);
}


/* The end of a segment (or of the whole interval): checks the register dump
 * and builds the trace id and memory image into IMS. */
static int finish(struct extract *x, const struct citcat_target_config *cfg, struct citcat_ims *ims, uint64_t slots,
		  int nslots, int dump_done, uint32_t start_pc, uint64_t insns, uint64_t branches, uint64_t ehash,
		  struct citcat_errinfo *err)
{
	int rc;
	if (dump_done && nslots == ARM_DUMP_SLOTS && slots == (1ull << ARM_SLOTS) - 1) /* all but SCTLR */
		return citcat_errinfo_set(err, CITCAT_ERR_CORRUPT, UINT64_MAX,
					  "the register dump has 39 slots and no SCTLR (slot 39): the firmware's CITCAT driver "
					  "predates IMS version 4; rebuild it with the current BSP (examples/bsp)");
	if (!dump_done || slots != (1ull << nslots) - 1)
		return citcat_errinfo_set(err, CITCAT_ERR_CORRUPT, UINT64_MAX,
					  "the register dump is incomplete (%d of %d slots, DUMP_DONE %s)", __builtin_popcountll(slots),
					  nslots, dump_done ? "seen" : "missing");
	if (ims->regs.slot[ARM_SLOT_PC] != start_pc)
		return citcat_errinfo_set(err, CITCAT_ERR_CORRUPT, UINT64_MAX, "the dumped PC 0x%08x is not the trace start point 0x%08x",
					  ims->regs.slot[ARM_SLOT_PC], start_pc);
	citcat_trace_id_make(cfg, start_pc, insns, branches, ehash, &ims->id);
	/* Runs of known bytes become the memory image: only the pages the
	 * segment touched can hold any, in address order; a run goes on into
	 * the next page when that one was touched too. */
	if ((rc = citcat_image_alloc(&ims->memory)))
		return rc;
	if (x->npages) /* qsort takes no NULL, even for 0 elements */
		qsort(x->pages, x->npages, sizeof *x->pages, cmp_u32);
	uint64_t rs = UINT64_MAX; /* the open run's start */
	for (size_t k = 0; k < x->npages; k++) {
		uint64_t lo = (uint64_t)x->pages[k] << PAGE_SHIFT, hi = lo + (1u << PAGE_SHIFT);
		if (hi > x->size)
			hi = x->size;
		for (uint64_t i = lo; i < hi; i++) {
			int kn = bit(x->known, (uint32_t)i);
			if (kn && rs == UINT64_MAX)
				rs = i;
			else if (!kn && rs != UINT64_MAX) {
				if ((rc = citcat_image_add(ims->memory, x->base + (uint32_t)rs, x->mem + rs, (uint32_t)(i - rs))))
					return rc;
				rs = UINT64_MAX;
			}
		}
		int next_adjacent = k + 1 < x->npages && x->pages[k + 1] == x->pages[k] + 1;
		if (rs != UINT64_MAX && !next_adjacent) {
			if ((rc = citcat_image_add(ims->memory, x->base + (uint32_t)rs, x->mem + rs, (uint32_t)(hi - rs))))
				return rc;
			rs = UINT64_MAX;
		}
	}
	return 0;
}

#define SEG_ALL (-2) /* every segment in turn, each handed to a callback */
typedef int (*seg_fn)(void *ctx, uint64_t k, const struct citcat_ims *ims, uint64_t base_insns, uint64_t base_bcount);

/* SEG = -1: the whole traced interval, from SYNC to STOP.  SEG = K >= 0: the
 * K-th segment of a checkpointed CAT (replay/SEGMENTS.md), from its start
 * marker (SYNC for K = 0, the K-th CKPT otherwise) to the next CKPT or the
 * STOP, with counts relative to the start marker. */
static int extract(const char *cat_path, int64_t seg, struct citcat_ims *ims, struct citcat_ims_stats *st,
		   int (*progress)(void *ctx, uint64_t done, uint64_t total), void *pctx, seg_fn cb, void *cbctx,
		   struct citcat_errinfo *err)
{
	if (!cat_path || !ims)
		return CITCAT_ERR_INVAL;
	struct citcat_ims_stats dummy;
	if (!st)
		st = &dummy;
	memset(st, 0, sizeof *st);
	memset(ims, 0, sizeof *ims);
	struct citcat_cat_reader *r;
	int rc = citcat_cat_reader_open(&r, cat_path);
	if (rc) {
		if (err)
			*err = *citcat_cat_reader_error(r);
		citcat_cat_reader_close(r);
		return rc;
	}
	const struct citcat_target_config *cfg = citcat_cat_config(r);
	ims->cfg = *cfg;
	struct extract x = {.base = cfg->ram_base, .size = cfg->ram_size};
	x.mem = calloc(1, cfg->ram_size);
	x.seen = calloc(1, cfg->ram_size / 8 + 1);
	x.known = calloc(1, cfg->ram_size / 8 + 1);
	x.pmark = calloc(1, (cfg->ram_size >> PAGE_SHIFT) / 8 + 1);
	uint64_t slots = 0; /* dump slots seen, one bit each */
	int nslots = citcat_ims_dump_slots(cfg->isa); /* at a checkpoint on the M7: 39 (marker_slots) */
	int synced = 0, dump_done = 0, stopped = 0;
	uint32_t start_pc = 0;
	uint64_t insns = 0, branches = 0, n = 0, ehash = 0, base_insns = 0, base_bcount = 0;
	int64_t markers = 0; /* start markers seen: SYNC, then each CKPT */
	struct citcat_cat_event ev;
	if (!x.mem || !x.seen || !x.known || !x.pmark) {
		rc = citcat_errinfo_set(err, CITCAT_ERR_NOMEM, UINT64_MAX, "out of memory for a %u-byte RAM image", cfg->ram_size);
		goto out;
	}
	/* segment K > 0 of a version 6 CAT: open it at its checkpoint's chunk,
	 * the chunks before it passed over unread (CAT.md) */
	if (seg > 0 && citcat_cat_reader_seek_segment(r, (uint64_t)seg) == 1)
		markers = seg;
	while ((rc = citcat_cat_next(r, &ev)) == 1) {
		if ((++n & 0xffff) == 0 && progress &&
		    progress(pctx, citcat_cat_reader_offset(r), citcat_cat_reader_file_size(r))) {
			rc = citcat_errinfo_set(err, CITCAT_ERR_INTERRUPTED, UINT64_MAX, "interrupted");
			goto out;
		}
		if (seg == SEG_ALL && (ev.kind == CITCAT_CAT_SYNC || ev.kind == CITCAT_CAT_CKPT)) {
			if ((ev.kind == CITCAT_CAT_SYNC) != (markers == 0)) {
				rc = citcat_errinfo_set(err, CITCAT_ERR_CORRUPT, citcat_cat_reader_offset(r),
							ev.kind == CITCAT_CAT_SYNC ? "a second trace start point"
										   : "a checkpoint before the trace start point");
				goto out;
			}
			if (markers++ > 0) { /* the end of segment MARKERS - 2 */
				ehash = citcat_trace_hash_event(ehash, &ev);
				if ((rc = finish(&x, cfg, ims, slots, nslots, dump_done, start_pc, ev.insns - base_insns,
						 ev.bcount - base_bcount, ehash, err)) ||
				    (rc = cb(cbctx, (uint64_t)markers - 2, ims, base_insns, base_bcount)))
					goto out;
				citcat_image_free(ims->memory);
				ims->memory = NULL;
				memset(&ims->regs, 0, sizeof ims->regs);
				ims->sctlr = 0;
				reset_pages(&x);
				slots = 0;
				dump_done = 0;
			}
			synced = 1;
			start_pc = ev.pc;
			base_insns = ev.kind == CITCAT_CAT_CKPT ? ev.insns : 0;
			base_bcount = ev.kind == CITCAT_CAT_CKPT ? ev.bcount : 0;
			nslots = marker_slots(cfg->isa, ev.kind);
			ims->repl_state[0] = ev.repl_state[0];
			ims->repl_state[1] = ev.repl_state[1];
			ehash = citcat_trace_hash_event(0, &ev);
			continue;
		}
		if (seg >= 0 && (ev.kind == CITCAT_CAT_SYNC || ev.kind == CITCAT_CAT_CKPT)) {
			if ((ev.kind == CITCAT_CAT_SYNC) != (markers == 0)) {
				rc = citcat_errinfo_set(err, CITCAT_ERR_CORRUPT, citcat_cat_reader_offset(r),
							ev.kind == CITCAT_CAT_SYNC ? "a second trace start point"
										   : "a checkpoint before the trace start point");
				goto out;
			}
			if (markers++ == seg + 1) { /* the segment's end: like a STOP */
				ehash = citcat_trace_hash_event(ehash, &ev);
				stopped = 1;
				insns = ev.insns - base_insns;
				branches = ev.bcount - base_bcount;
				break;
			}
			if (markers - 1 != seg)
				continue;
			synced = 1;
			start_pc = ev.pc;
			base_insns = ev.kind == CITCAT_CAT_CKPT ? ev.insns : 0;
			base_bcount = ev.kind == CITCAT_CAT_CKPT ? ev.bcount : 0;
			nslots = marker_slots(cfg->isa, ev.kind);
			ims->repl_state[0] = ev.repl_state[0];
			ims->repl_state[1] = ev.repl_state[1];
			ehash = citcat_trace_hash_event(ehash, &ev);
			continue;
		}
		if (ev.kind == CITCAT_CAT_SYNC) {
			if (synced) {
				rc = citcat_errinfo_set(err, CITCAT_ERR_CORRUPT, citcat_cat_reader_offset(r), "a second trace start point");
				goto out;
			}
			synced = 1;
			start_pc = ev.pc;
			ims->repl_state[0] = ev.repl_state[0];
			ims->repl_state[1] = ev.repl_state[1];
			ehash = citcat_trace_hash_event(ehash, &ev);
			continue;
		}
		if (!synced)
			continue; /* before P: the driver's cache clean */
		ehash = citcat_trace_hash_event(ehash, &ev);
		if (stopped) {
			rc = citcat_errinfo_set(err, CITCAT_ERR_CORRUPT, citcat_cat_reader_offset(r), "events after the STOP marker");
			goto out;
		}
		st->events++;
		switch (ev.kind) {
		case CITCAT_CAT_FILL_I:
		case CITCAT_CAT_FILL_D:
		case CITCAT_CAT_DMA:
		case CITCAT_CAT_WRITE:
		case CITCAT_CAT_WRITEBACK: {
			uint32_t len = ev.kind == CITCAT_CAT_WRITE ? ev.size : ev.len;
			if (!in_ram(&x, ev.addr, len)) {
				rc = citcat_errinfo_set(err, CITCAT_ERR_CORRUPT, citcat_cat_reader_offset(r),
					  "%s at 0x%08x lies outside RAM", citcat_cat_kind_name(ev.kind), ev.addr);
				goto out;
			}
			if ((rc = touch(&x, ev.addr - x.base, len))) {
				citcat_errinfo_set(err, rc, UINT64_MAX, "out of memory");
				goto out;
			}
			if (ev.kind == CITCAT_CAT_FILL_I || ev.kind == CITCAT_CAT_FILL_D)
				first_fill(&x, ev.addr, ev.data, len, st);
			else if (ev.kind == CITCAT_CAT_DMA)
				first_write(&x, ev.addr, len, &st->bytes_dma_first);
			else if (ev.kind == CITCAT_CAT_WRITE)
				first_write(&x, ev.addr, len, &st->bytes_write_first);
			/* a write-back shows data the core wrote: its line was filled
			 * (write-allocate) before it could be dirty */
			break;
		}
		case CITCAT_CAT_UWRITE: {
			uint32_t off = ev.addr - cfg->dev_base;
			const uint32_t reg0 = CITCAT_DEV_OFF(CITCAT_TRACE_REG(0));
			if (off >= reg0 && off < reg0 + 4 * (uint32_t)nslots && !dump_done) {
				uint32_t k = (off - reg0) / 4;
				if (!(slots & (1ull << k))) { /* the first write holds the value at P */
					slots |= 1ull << k;
					if (k == ARM_SLOT_SCTLR) /* the model follows TE only (IMS.md) */
						ims->sctlr = (uint32_t)ev.value & ARM_SCTLR_TE;
					else
						ims->regs.slot[k] = (uint32_t)ev.value;
				}
			} else if (off == CITCAT_DEV_OFF(CITCAT_TRACE_DUMP_DONE) && !dump_done) {
				dump_done = 1;
			}
			break;
		}
		case CITCAT_CAT_STOP:
			stopped = 1;
			insns = ev.insns - base_insns;
			branches = ev.bcount - base_bcount;
			break;
		default:
			break;
		}
	}
	if (rc < 0) {
		if (err)
			*err = *citcat_cat_reader_error(r);
		goto out;
	}
	if (rc >= 0 && seg > 0 && !synced) {
		rc = citcat_errinfo_set(err, CITCAT_ERR_INVAL, UINT64_MAX, "the CAT has %s%lld segment%s, no segment %lld",
					markers == seg ? "at most " : "", (long long)markers, markers == 1 ? "" : "s", (long long)seg);
		goto out;
	}
	if (!synced) {
		rc = citcat_errinfo_set(err, CITCAT_ERR_CORRUPT, UINT64_MAX, "the CAT has no trace start point (the firmware never ran the CITCAT driver)");
		goto out;
	}
	if (!stopped) {
		rc = citcat_errinfo_set(err, CITCAT_ERR_TRUNCATED, UINT64_MAX, "the CAT has no STOP marker");
		goto out;
	}
	if (seg >= 0 && rc == 1)
		rc = 0; /* stopped at the segment's end marker */
	if ((rc = finish(&x, cfg, ims, slots, nslots, dump_done, start_pc, insns, branches, ehash, err)))
		goto out;
	if (seg == SEG_ALL)
		rc = cb(cbctx, (uint64_t)(markers > 0 ? markers - 1 : 0), ims, base_insns, base_bcount);
out:
	if (rc < 0)
		citcat_ims_fini(ims);
	free(x.mem);
	free(x.seen);
	free(x.known);
	free(x.pmark);
	free(x.pages);
	citcat_cat_reader_close(r);
	return rc < 0 ? rc : 0;
}

int citcat_ims_extract(const char *cat_path, struct citcat_ims *ims, struct citcat_ims_stats *st,
		       int (*progress)(void *ctx, uint64_t done, uint64_t total), void *pctx,
		       struct citcat_errinfo *err)
{
	return extract(cat_path, -1, ims, st, progress, pctx, NULL, NULL, err);
}

int citcat_ims_extract_segment(const char *cat_path, uint64_t segment, struct citcat_ims *ims,
			       struct citcat_ims_stats *st, int (*progress)(void *ctx, uint64_t done, uint64_t total),
			       void *pctx, struct citcat_errinfo *err)
{
	if (segment > INT64_MAX - 2)
		return citcat_errinfo_set(err, CITCAT_ERR_INVAL, UINT64_MAX, "segment %llu does not exist",
					  (unsigned long long)segment);
	return extract(cat_path, (int64_t)segment, ims, st, progress, pctx, NULL, NULL, err);
}

/* Every segment into one file (SEGIDX.md): each segment's IMS is written as
 * a member into a scratch directory when its end marker is read, then the
 * members are copied into OUT_PATH behind one index. */
struct all_ctx {
	char dir[4200];
	struct cc_segidx_entry *e;
	uint64_t n, cap;
	struct citcat_errinfo *err;
};

static int all_seg(void *ctx, uint64_t k, const struct citcat_ims *ims, uint64_t base_insns, uint64_t base_bcount)
{
	struct all_ctx *a = ctx;
	char path[4300];
	if (k != a->n)
		return citcat_errinfo_set(a->err, CITCAT_ERR_CORRUPT, UINT64_MAX, "segment %llu out of order",
					  (unsigned long long)k);
	if (a->n == a->cap) {
		uint64_t c = a->cap ? 2 * a->cap : 16;
		struct cc_segidx_entry *e = c <= CC_SEGIDX_MAX ? realloc(a->e, c * sizeof *e) : NULL;
		if (!e)
			return citcat_errinfo_set(a->err, CITCAT_ERR_LIMIT, UINT64_MAX, "more than %u segments", CC_SEGIDX_MAX);
		a->e = e;
		a->cap = c;
	}
	a->e[k] = (struct cc_segidx_entry){0, 0, base_insns, base_bcount};
	cc_segidx_member_path(path, sizeof path, a->dir, k);
	int rc = citcat_ims_write(ims, path, a->err);
	if (!rc)
		a->n++;
	return rc;
}

int citcat_ims_extract_all(const char *cat_path, const char *out_path, uint64_t *nseg, struct citcat_ims_stats *st,
			   int (*progress)(void *ctx, uint64_t done, uint64_t total), void *pctx,
			   struct citcat_errinfo *err)
{
	if (!cat_path || !out_path)
		return CITCAT_ERR_INVAL;
	struct all_ctx a = {.err = err};
	struct citcat_ims ims;
	int rc = cc_segidx_scratch(a.dir, sizeof a.dir, err);
	if (rc)
		return rc;
	rc = extract(cat_path, SEG_ALL, &ims, st, progress, pctx, all_seg, &a, err);
	citcat_ims_fini(&ims);
	if (!rc)
		rc = cc_segidx_write_scratch(out_path, MAGIC, CITCAT_IMS_SEG_VERSION, a.n, a.dir, a.e, err);
	if (nseg)
		*nseg = a.n;
	cc_segidx_scratch_free(a.dir, a.n);
	free(a.e);
	return rc;
}

/* ---- the public reader and writer: the file format (imsfile.c) with the
 * exception model's check ---- */

/* The exception model's part of the M7's SCS slot check (imsfile.h,
 * citcat_ims_scs_check_fn; the format checks that the slots are 0 unless
 * the segment starts in the checkpoint's NMI): registers the exception model
 * reads back as dumped (m7exc_load_ckpt: no reserved or read-only bit set).
 * Returns -1 when they are fine, else the first bad slot with *WHY. */
static int m7_scs_check(const struct citcat_ims *ims, const char **why)
{
	struct m7exc x;
	m7exc_init(&x, NULL, (struct m7exc_bus){NULL, NULL});
	int bad = m7exc_load_ckpt(&x, &ims->regs.slot[M7_SLOT_SCS]);
	*why = "is not a value the SCS register reads (reserved or read-only bits, or an AIRCR without 0xFA05)";
	return bad ? M7_SLOT_SCS + bad - 1 : -1;
}

int citcat_ims_write(const struct citcat_ims *ims, const char *path, struct citcat_errinfo *err)
{
	if (!ims || !path)
		return CITCAT_ERR_INVAL;
	return citcat_ims_file_write(ims, path, m7_scs_check, err);
}

int citcat_ims_read(const char *path, struct citcat_ims *ims, struct citcat_errinfo *err)
{
	if (!path || !ims)
		return CITCAT_ERR_INVAL;
	return citcat_ims_file_read(path, NULL, 0, UINT64_MAX, ims, NULL, NULL, m7_scs_check, err);
}

int citcat_ims_read_segment(const char *path, uint64_t segment, struct citcat_ims *ims, struct citcat_errinfo *err)
{
	if (!path || !ims || segment == UINT64_MAX)
		return CITCAT_ERR_INVAL;
	return citcat_ims_file_read(path, NULL, 0, segment, ims, NULL, NULL, m7_scs_check, err);
}

int citcat_ims_read_mem(const void *buf, size_t len, struct citcat_ims *ims, struct citcat_errinfo *err)
{
	if (!ims || (!buf && len))
		return CITCAT_ERR_INVAL;
	return citcat_ims_file_read(NULL, buf, len, UINT64_MAX, ims, NULL, NULL, m7_scs_check, err);
}

int citcat_ims_read_segment_mem(const void *buf, size_t len, uint64_t segment, struct citcat_ims *ims,
				struct citcat_errinfo *err)
{
	if (!ims || (!buf && len) || segment == UINT64_MAX)
		return CITCAT_ERR_INVAL;
	return citcat_ims_file_read(NULL, buf, len, segment, ims, NULL, NULL, m7_scs_check, err);
}
