/* IMS extraction and file format: see IMS.md. */
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

#define MAGIC "CIMS\r\n\x1a\n"
#define META_LEN CITCAT_IMS_META_LEN
#define RUN_MAX 4096 /* bytes of memory per record */

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

void citcat_ims_fini(struct citcat_ims *ims)
{
	if (!ims)
		return;
	citcat_image_free(ims->memory);
	ims->memory = NULL;
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

/* The M7's SCS slots 23..38 (IMS.md, "The Cortex-M7"): all 0 (a segment
 * starting at P), or, in a segment that starts in the checkpoint's NMI
 * (IPSR = 2), registers the exception model reads back as dumped
 * (m7exc_load_ckpt: no reserved or read-only bit set).  Returns -1 when
 * they are fine, else the first bad slot with *WHY. */
static int m7_scs_check(const struct citcat_ims *ims, const char **why)
{
	if (ims->cfg.isa != CITCAT_ISA_M7)
		return -1;
	int first = -1;
	for (int k = M7_SLOT_SCS; k < M7_CKPT_SLOTS && first < 0; k++)
		if (ims->regs.slot[k])
			first = k;
	if (first < 0)
		return -1;
	if ((ims->regs.slot[M7_SLOT_XPSR] & 0x1ffu) != M7EXC_NMI) {
		*why = "holds SCS state, but the segment does not start in the checkpoint's NMI (IPSR 2); must be 0";
		return first;
	}
	struct m7exc x;
	m7exc_init(&x, NULL, (struct m7exc_bus){NULL, NULL});
	int bad = m7exc_load_ckpt(&x, &ims->regs.slot[M7_SLOT_SCS]);
	*why = "is not a value the SCS register reads (reserved or read-only bits, or an AIRCR without 0xFA05)";
	return bad ? M7_SLOT_SCS + bad - 1 : -1;
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

/* ---- file format ---- */

int citcat_ims_write(const struct citcat_ims *ims, const char *path, struct citcat_errinfo *err)
{
	if (!ims || !path)
		return CITCAT_ERR_INVAL;
	uint8_t meta[META_LEN], *p = meta;
	citcat_target_config_encode(&ims->cfg, p);
	p += CITCAT_TARGET_META_LEN;
	cc_put64(p, ims->id.hash);
	cc_put32(p + 8, ims->id.start_pc);
	cc_put64(p + 12, ims->id.insns);
	p += 20;
	for (int k = 0; k < ARM_SLOTS; k++, p += 4)
		cc_put32(p, ims->regs.slot[k]);
	cc_put32(p, ims->repl_state[0]);
	cc_put32(p + 4, ims->repl_state[1]);
	cc_put32(p + 8, ims->sctlr);
	if (ims->sctlr & ~(ims->cfg.isa == CITCAT_ISA_M7 ? 0u : ARM_SCTLR_TE))
		return citcat_errinfo_set(err, CITCAT_ERR_INVAL, UINT64_MAX,
					  "%s: SCTLR 0x%08x has bits the IMS does not carry (TE only, none on the Cortex-M7)", path,
					  ims->sctlr);
	const char *why;
	int bad = m7_scs_check(ims, &why);
	if (bad >= 0)
		return citcat_errinfo_set(err, CITCAT_ERR_INVAL, UINT64_MAX, "%s: Cortex-M7 register slot %d (0x%08x) %s",
					  path, bad, ims->regs.slot[bad], why);
	if (!cache_repl_state_valid(&ims->cfg.icache, ims->repl_state[0]) ||
	    !cache_repl_state_valid(&ims->cfg.dcache, ims->repl_state[1]))
		return citcat_errinfo_set(err, CITCAT_ERR_INVAL, UINT64_MAX,
					  "%s: replacement state does not fit the cache policy (0 unless random)", path);
	struct cc_writer *w;
	int rc = cc_writer_open(&w, path, MAGIC, CITCAT_IMS_VERSION, meta, sizeof meta, 0);
	if (rc)
		return citcat_errinfo_set(err, rc, UINT64_MAX, "%s", cc_writer_open_error()->msg);
	size_t nseg = ims->memory ? citcat_image_segments(ims->memory) : 0;
	uint64_t last_end = 0;
	for (size_t i = 0; i < nseg; i++) {
		uint64_t addr, len;
		const uint8_t *data;
		citcat_image_segment(ims->memory, i, &addr, &len, &data);
		for (uint64_t o = 0; o < len; o += RUN_MAX) {
			uint32_t n = (uint32_t)(len - o < RUN_MAX ? len - o : RUN_MAX);
			uint8_t *b = cc_writer_reserve(w, 2 * CC_UVAR_MAX + n);
			if (!b) {
				rc = cc_writer_error(w)->code;
				cc_writer_abort(w);
				return citcat_errinfo_set(err, rc, UINT64_MAX, "writing %s failed", path);
			}
			/* Chunks decode alone: the first run of a chunk is relative to 0. */
			if (cc_writer_chunk_used(w) == 0)
				last_end = 0;
			uint8_t *q = b;
			q += cc_put_uvar(q, addr + o - last_end);
			q += cc_put_uvar(q, n);
			memcpy(q, data + o, n);
			q += n;
			last_end = addr + o + n;
			cc_writer_commit(w, (size_t)(q - b), 1);
		}
	}
	rc = cc_writer_close(w);
	if (rc)
		return citcat_errinfo_set(err, rc, UINT64_MAX, "writing %s failed: %s", path, rc == CITCAT_ERR_IO ? strerror(errno) : citcat_errstr(rc));
	return 0;
}

static int add_run(void *ctx, uint64_t addr, const uint8_t *data, size_t n)
{
	return citcat_image_add(ctx, addr, data, n);
}

/* Reads and checks the metadata into IMS, then hands each memory run to RUN
 * (into IMS's own image when RUN is NULL). */
static int ims_load(struct cc_reader *r, struct citcat_ims *ims, citcat_ims_run_fn run, void *ctx,
		    struct citcat_errinfo *err)
{
	memset(ims, 0, sizeof *ims);
	if (cc_reader_version(r) != CITCAT_IMS_VERSION) /* 1 lacks the generators, 2 and 3 SCTLR (IMS.md) */
		return citcat_errinfo_set(err, CITCAT_ERR_VERSION, 8,
					  "format version %u is not supported (this build reads IMS version %u and segment bundles "
					  "of version %u only; extract again from a new capture)",
					  cc_reader_version(r), CITCAT_IMS_VERSION, CITCAT_IMS_SEG_VERSION);
	uint32_t ml;
	const uint8_t *m = cc_reader_meta(r, &ml);
	const char *why = NULL;
	if (ml != META_LEN)
		return citcat_errinfo_set(err, CITCAT_ERR_CORRUPT, 12, "IMS metadata is %u bytes, expected %u", ml, (unsigned)META_LEN);
	int roff = citcat_target_config_reserved(m, &why);
	int rc = citcat_target_config_decode(m, ml, &ims->cfg, &why);
	if (rc)
		return citcat_errinfo_set(err, rc, 16 + (roff >= 0 ? (unsigned)roff : 0), "IMS configuration: %s", why);
	const uint8_t *p = m + CITCAT_TARGET_META_LEN;
	ims->id.hash = cc_get64(p);
	ims->id.start_pc = cc_get32(p + 8);
	ims->id.insns = cc_get64(p + 12);
	p += 20;
	const uint8_t *slot0 = p;
	for (int k = 0; k < ARM_SLOTS; k++, p += 4)
		ims->regs.slot[k] = cc_get32(p);
	int bad = m7_scs_check(ims, &why); /* the M7's slots 23..38: 0, or a checkpoint's SCS state */
	if (bad >= 0)
		return citcat_errinfo_set(err, CITCAT_ERR_CORRUPT, 16 + (uint64_t)(slot0 + 4 * bad - m),
					  "IMS register slot %d is 0x%08x on the Cortex-M7: it %s", bad, ims->regs.slot[bad], why);
	for (int k = 0; k < 2; k++, p += 4) {
		const struct citcat_cache_config *cc = k ? &ims->cfg.dcache : &ims->cfg.icache;
		ims->repl_state[k] = cc_get32(p);
		if (!cache_repl_state_valid(cc, ims->repl_state[k]))
			return citcat_errinfo_set(err, CITCAT_ERR_CORRUPT, 16 + (uint64_t)(p - m),
						  "IMS %s-cache replacement state 0x%08x: %s", k ? "D" : "I", ims->repl_state[k],
						  cc->repl == CITCAT_REPL_RANDOM ? "0 is impossible for random replacement"
										 : "must be 0 without random replacement");
	}
	ims->sctlr = cc_get32(p);
	if (ims->sctlr & ~(ims->cfg.isa == CITCAT_ISA_M7 ? 0u : ARM_SCTLR_TE))
		return citcat_errinfo_set(err, CITCAT_ERR_CORRUPT, 16 + (uint64_t)(p - m),
					  "IMS SCTLR 0x%08x: %s", ims->sctlr,
					  ims->cfg.isa == CITCAT_ISA_M7 ? "must be 0 on the Cortex-M7 (it has no SCTLR)"
									: "reserved bits set (only TE, bit 30, may be 1)");
	if (!run) {
		if ((rc = citcat_image_alloc(&ims->memory)))
			return citcat_errinfo_set(err, rc, UINT64_MAX, "out of memory");
		run = add_run;
		ctx = ims->memory;
	}
	const uint8_t *data;
	size_t len;
	uint32_t nrec;
	uint64_t ram_end = (uint64_t)ims->cfg.ram_base + ims->cfg.ram_size;
	while ((rc = cc_reader_next_chunk(r, &data, &len, &nrec)) == 1) {
		const uint8_t *q = data, *end = data + len;
		uint64_t last_end = 0, gap, n;
		uint32_t k = 0;
		while (q < end) {
			const uint8_t *start = q;
			if (cc_get_uvar(&q, end, &gap) || cc_get_uvar(&q, end, &n) || n == 0 || n > RUN_MAX ||
			    (uint64_t)(end - q) < n) {
				rc = cc_reader_fail(r, CITCAT_ERR_CORRUPT, (size_t)(start - data), "IMS memory run malformed");
				break;
			}
			uint64_t addr = last_end + gap;
			if (addr < last_end || addr < ims->cfg.ram_base || addr + n > ram_end) {
				rc = cc_reader_fail(r, CITCAT_ERR_CORRUPT, (size_t)(start - data),
						    "IMS memory run at 0x%llx lies outside RAM", (unsigned long long)addr);
				break;
			}
			if ((rc = run(ctx, addr, q, (size_t)n))) {
				if (!cc_reader_error(r)->code)
					cc_reader_fail(r, rc, (size_t)(start - data), "stopped at the memory run at 0x%llx",
						       (unsigned long long)addr);
				break;
			}
			q += n;
			last_end = addr + n;
			k++;
		}
		if (rc < 0)
			break;
		if (k != nrec) {
			rc = cc_reader_fail(r, CITCAT_ERR_CORRUPT, len, "chunk holds %u runs, header says %u", k, nrec);
			break;
		}
	}
	if (rc < 0) {
		if (err)
			*err = *cc_reader_error(r);
		citcat_ims_fini(ims);
		return rc;
	}
	return 0;
}

/* Reads segment K of PATH (or of the LEN bytes at BUF when PATH is NULL);
 * K = UINT64_MAX: the file's only segment. */
static int read_any(const char *path, const void *buf, size_t len, uint64_t k, struct citcat_ims *ims,
		    citcat_ims_run_fn run, void *ctx, struct cc_segidx_entry *ent, struct citcat_errinfo *err)
{
	memset(ims, 0, sizeof *ims); /* citcat_ims_fini is right after a failure too */
	struct cc_segidx *sx = NULL;
	struct cc_reader *r = NULL;
	int rc = path ? cc_segidx_open(&sx, path, MAGIC, CITCAT_IMS_SEG_VERSION, err)
		      : cc_segidx_open_mem(&sx, buf, len, MAGIC, CITCAT_IMS_SEG_VERSION, err);
	if (rc)
		return rc;
	uint64_t base = 0;
	if (!sx) { /* a single-segment file, read by path as it is */
		if (k != UINT64_MAX && k != 0)
			return citcat_errinfo_set(err, CITCAT_ERR_INVAL, UINT64_MAX, "the file holds 1 segment, no segment %llu",
						  (unsigned long long)k);
		if (ent)
			*ent = (struct cc_segidx_entry){0};
		rc = cc_reader_open(&r, path, MAGIC, CITCAT_IMS_VERSION);
	} else {
		const uint8_t *p;
		size_t n;
		struct cc_segidx_entry e;
		if (k == UINT64_MAX && cc_segidx_count(sx) != 1) {
			rc = citcat_errinfo_set(err, CITCAT_ERR_INVAL, UINT64_MAX,
						"the file holds %llu segments: choose one (--segment K, or replay --jobs)",
						(unsigned long long)cc_segidx_count(sx));
			cc_segidx_close(sx);
			return rc;
		}
		if ((rc = cc_segidx_member(sx, k == UINT64_MAX ? 0 : k, &p, &n, &e, err))) {
			cc_segidx_close(sx);
			return rc;
		}
		if (ent)
			*ent = e;
		base = e.offset;
		rc = cc_reader_open_mem(&r, p, n, MAGIC, CITCAT_IMS_VERSION);
	}
	if (!rc)
		rc = ims_load(r, ims, run, ctx, err);
	else if (err && r)
		*err = *cc_reader_error(r);
	cc_reader_close(r);
	cc_segidx_close(sx);
	if (rc && err && err->offset != UINT64_MAX)
		err->offset += base; /* the member's offsets are the file's minus its start */
	return rc;
}

int citcat_ims_read(const char *path, struct citcat_ims *ims, struct citcat_errinfo *err)
{
	if (!path || !ims)
		return CITCAT_ERR_INVAL;
	return read_any(path, NULL, 0, UINT64_MAX, ims, NULL, NULL, NULL, err);
}

int citcat_ims_read_segment(const char *path, uint64_t segment, struct citcat_ims *ims, struct citcat_errinfo *err)
{
	if (!path || !ims || segment == UINT64_MAX)
		return CITCAT_ERR_INVAL;
	return read_any(path, NULL, 0, segment, ims, NULL, NULL, NULL, err);
}

int citcat_ims_segments(const char *path, uint64_t *n, struct citcat_errinfo *err)
{
	if (!path || !n)
		return CITCAT_ERR_INVAL;
	return cc_segidx_segments(path, MAGIC, CITCAT_IMS_SEG_VERSION, n, err);
}

int citcat_ims_read_runs(const char *path, struct citcat_ims *ims, citcat_ims_run_fn run, void *ctx,
			 struct citcat_errinfo *err)
{
	if (!run)
		return citcat_errinfo_set(err, CITCAT_ERR_INVAL, UINT64_MAX, "no run callback");
	return read_any(path, NULL, 0, UINT64_MAX, ims, run, ctx, NULL, err);
}

int citcat_ims_read_mem(const void *buf, size_t len, struct citcat_ims *ims, struct citcat_errinfo *err)
{
	if (!ims || (!buf && len))
		return CITCAT_ERR_INVAL;
	return read_any(NULL, buf, len, UINT64_MAX, ims, NULL, NULL, NULL, err);
}

int citcat_ims_read_segment_mem(const void *buf, size_t len, uint64_t segment, struct citcat_ims *ims,
				struct citcat_errinfo *err)
{
	if (!ims || (!buf && len) || segment == UINT64_MAX)
		return CITCAT_ERR_INVAL;
	return read_any(NULL, buf, len, segment, ims, NULL, NULL, NULL, err);
}
