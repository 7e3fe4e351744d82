/* The replay cursor (include/citcat/cursor.h, replay/CURSOR.md): a replay
 * session (replay_sess.h) paused at any instant, snapshots taken while it
 * moves forwards into new ground, and backwards motion as re-execution
 * from the nearest earlier snapshot.
 *
 * Memory: a snapshot keeps the engine's context (uc_context_save), the
 * replayer's run state (struct replay_sess_state) and the RAM pages (with
 * their known-bytes bits) written since the snapshot before it, as they are
 * at its instant.  RAM at snapshot J is therefore, page by page, the copy in
 * the latest snapshot I <= J that holds the page, else the IMS's.  The
 * cursor tracks the pages written since the snapshot its state descends
 * from (BASE); restoring J rewrites exactly those pages and the pages of the
 * snapshots between BASE and J. */
#include "replay_sess.h"
#include "citcat.h"
#include "input.h"

#include <citcat/cat.h>
#include <citcat/cursor.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PAGE_SHIFT 12
#define PAGE (1u << PAGE_SHIFT)
#define KPAGE (PAGE / 8) /* the page's known-bytes bits */
#define POLL 65536       /* instructions between interrupt polls */
#define MAX_POINTS 1024  /* breakpoints, watchpoints */
#define NONE UINT64_MAX
/* The configuration's chain distance (cursor.h) */
#define CHAIN_MIN (k->cfg.chain)

struct spage {
	uint32_t no;   /* page number (from ram_base) */
	uint8_t *data; /* PAGE bytes, then KPAGE bytes of known bits */
};

struct snap {
	uint64_t insn;
	uint32_t pc; /* the next instruction (bit 0 clear) */
	struct replay_sess_state st;
	uc_context *ctx;
	struct spage *pages; /* sorted by page number */
	uint32_t npages;
	uint64_t bytes; /* what it counts against the budget */
};

/* A tentative stretch of execution that can be taken back: the state
 * where it started and the bytes (with their known bits) every write
 * replaced. */
struct undo {
	uint8_t *buf;
	size_t len, cap;
};

enum { M_SEEK, M_RUN, M_SCAN, M_EVENTS };

struct mark {
	int on;
	unsigned reason;
	uint64_t insn;
	uint32_t addr;
	unsigned watch, access;
	uint64_t event;
};

struct wp {
	uint32_t lo, hi; /* [lo, hi] */
	unsigned kind;
};

struct citcat_cursor {
	struct citcat_cursor_config cfg;
	struct citcat_errinfo err;
	int broken; /* an error left the replay unusable: every motion returns it */

	struct citcat_replay_result res; /* the session's divergence report */
	struct citcat_errinfo rerr;      /* the session's errors */
	struct replayer *p;
	struct replay_core *c;
	struct replay_sess_hooks hooks;
	void *aes_buf;
	size_t aes_len;
	char name_ims[300], name_aes[300];
	struct citcat_cursor_info info;
	const struct citcat_ims *ims;
	int m7;
	uint32_t npages;
	size_t ctx_size;

	/* where it stands */
	uint64_t now;
	int at_end; /* the session has run to the end of the recording: it can only be restored */
	int end_checked;
	int diverged;
	struct citcat_divergence div;
	int end_err; /* the history ends at an input error (ERR) rather than a divergence */

	/* snapshots, sorted by instant */
	struct snap *s;
	size_t ns, caps;
	size_t base;    /* the state descends from snapshot BASE ... */
	uint8_t *dirty; /* ... with these pages written since */
	uint64_t used, peak, taken, dropped, restores, replayed;
	uint64_t snap_next; /* the next instant to take a snapshot at, or to rebase at (NONE) */
	uint64_t chain_at;  /* the next point of a seek's chain (NONE) */
	uint64_t retry_at;  /* no room for a snapshot: not before this instant in new ground */
	uint8_t *fix;       /* restore's scratch bitmap of pages */

	/* a pause (replay_sess.h): the state at the pause point, restored after
	 * Unicorn stopped (possibly after the end of an IT block) */
	int paused, pause_skipped;
	uint32_t pause_pc;
	uc_context *pctx;
	struct replay_sess_state pst;
	int ghost;         /* between the pause and Unicorn's stop: writes are taken back */
	size_t ghost_mark; /* where the ghost's writes start in UNDO */
	int undo_on;
	struct undo undo;
	/* a tentative step (backwards single step with watchpoints) */
	int tentative;
	uc_context *tctx;
	struct replay_sess_state tst;
	uint32_t tpc;

	/* the motion in progress */
	int mode;
	uint64_t target; /* pause at this instant */
	uint64_t origin; /* where it started */
	uint64_t limit;  /* M_SCAN: candidates before this instant only */
	unsigned flags;
	uint64_t next_poll;
	int interrupted;
	struct mark hit;  /* M_RUN: the first stop */
	struct mark cand; /* M_SCAN: the latest candidate */
	struct citcat_cursor_event *ev; /* M_EVENTS */
	size_t ev_n, ev_got;
	uint64_t ev_from;
	/* events applied before instant 0's pause (at the first boundary) */
	struct citcat_cursor_event ev0[8];
	size_t nev0;
	int in_open;

	uint32_t *bp;
	size_t nbp;
	uint8_t bpf[512];
	struct wp *wp;
	size_t nwp;

	/* the stacking of an exception the model could not take at the last
	 * boundary: undone, the history ends before that attempt */
	struct end_word {
		uint32_t off;
		uint8_t old[4], known[4];
	} end_undo[16];
	size_t nend;
};

static int fail(struct citcat_cursor *k, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(struct citcat_cursor *k, int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	citcat_errinfo_vfirst(&k->err, code, UINT64_MAX, fmt, ap);
	va_end(ap);
	return code;
}

/* The error names its file PATH (the convention of base.h), when its
 * message does not already. */
static void name_file(struct citcat_cursor *k, const char *path)
{
	if (!path || strstr(k->err.msg, path))
		return;
	char m[sizeof k->err.msg];
	int n = snprintf(m, sizeof m, "%s: ", path);
	if (n < 0 || (size_t)n >= sizeof m)
		return;
	snprintf(m + n, sizeof m - (size_t)n, "%s", k->err.msg);
	memcpy(k->err.msg, m, sizeof m);
}

/* ---- RAM pages ---- */

static inline uint32_t page_bytes(const struct citcat_cursor *k, uint32_t no)
{
	uint32_t off = no << PAGE_SHIFT;
	return k->c->ram_size - off < PAGE ? k->c->ram_size - off : PAGE;
}

static inline void mark_dirty(struct citcat_cursor *k, uint32_t addr, uint32_t len)
{
	uint32_t off = addr - k->c->ram_base;
	if (off >= k->c->ram_size || !len)
		return;
	if (len > k->c->ram_size - off)
		len = k->c->ram_size - off;
	for (uint32_t no = off >> PAGE_SHIFT; no <= (off + len - 1) >> PAGE_SHIFT; no++)
		k->dirty[no >> 3] |= (uint8_t)(1u << (no & 7));
}

/* Page NO as the IMS has it: its bytes and known bits. */
static void ims_page(const struct citcat_cursor *k, uint32_t no, uint8_t *data, uint8_t *known)
{
	uint64_t lo = (uint64_t)k->c->ram_base + ((uint64_t)no << PAGE_SHIFT), hi = lo + page_bytes(k, no);
	memset(data, 0, PAGE);
	memset(known, 0, KPAGE);
	const struct citcat_image *img = k->ims->memory;
	size_t n = citcat_image_segments(img), a = 0, b = n;
	while (a < b) { /* the first segment ending after LO */
		size_t m = (a + b) / 2;
		uint64_t sa, sl;
		const uint8_t *d;
		citcat_image_segment(img, m, &sa, &sl, &d);
		if (sa + sl <= lo)
			a = m + 1;
		else
			b = m;
	}
	for (size_t i = a; i < n; i++) {
		uint64_t sa, sl;
		const uint8_t *d;
		citcat_image_segment(img, i, &sa, &sl, &d);
		if (sa >= hi)
			break;
		uint64_t from = sa > lo ? sa : lo, to = sa + sl < hi ? sa + sl : hi;
		memcpy(data + (from - lo), d + (from - sa), (size_t)(to - from));
		for (uint64_t x = from - lo; x < to - lo; x++)
			known[x >> 3] |= (uint8_t)(1u << (x & 7));
	}
}

/* Writes page NO into RAM and the known-bytes bitmap. */
static void put_page(struct citcat_cursor *k, uint32_t no, const uint8_t *data, const uint8_t *known)
{
	uint32_t off = no << PAGE_SHIFT, n = page_bytes(k, no);
	memcpy(k->c->ram + off, data, n);
	memcpy(k->c->known + (off >> 3), known, (n + 7) >> 3);
	uc_ctl_remove_cache(k->c->uc, k->c->ram_base + off, (uint64_t)k->c->ram_base + off + n);
}

/* ---- the undo log ---- */

/* Before a write of LEN bytes at ADDR (in RAM): keep what it replaces. */
static void undo_note(struct citcat_cursor *k, uint32_t addr, uint32_t len)
{
	uint32_t off = addr - k->c->ram_base;
	if (off >= k->c->ram_size)
		return;
	if (len > k->c->ram_size - off)
		len = k->c->ram_size - off;
	size_t need = 8 + 2 * (size_t)len;
	if (k->undo.cap - k->undo.len < need) {
		size_t cap = k->undo.cap ? k->undo.cap : 4096;
		while (cap - k->undo.len < need)
			cap *= 2;
		uint8_t *b = realloc(k->undo.buf, cap);
		if (!b) {
			k->broken = fail(k, CITCAT_ERR_NOMEM, "out of memory");
			return;
		}
		k->undo.buf = b;
		k->undo.cap = cap;
	}
	uint8_t *e = k->undo.buf + k->undo.len;
	memcpy(e, &off, 4);
	memcpy(e + 4, &len, 4);
	memcpy(e + 8, k->c->ram + off, len);
	for (uint32_t i = 0; i < len; i++)
		e[8 + len + i] = replay_kbit(k->c->known, off + i);
	k->undo.len += need;
}

/* Takes back the writes logged from FROM on, newest first, and forgets them. */
static void undo_apply(struct citcat_cursor *k, size_t from)
{
	/* the entries have variable length: walk forwards, then apply backwards */
	size_t n = 0;
	for (size_t at = from; at < k->undo.len; n++) {
		uint32_t len;
		memcpy(&len, k->undo.buf + at + 4, 4);
		at += 8 + 2 * (size_t)len;
	}
	while (n--) {
		size_t at = from, i = 0;
		uint32_t off = 0, len = 0;
		for (;;) {
			memcpy(&off, k->undo.buf + at, 4);
			memcpy(&len, k->undo.buf + at + 4, 4);
			if (i++ == n)
				break;
			at += 8 + 2 * (size_t)len;
		}
		const uint8_t *e = k->undo.buf + at;
		memcpy(k->c->ram + off, e + 8, len);
		for (uint32_t j = 0; j < len; j++)
			if (e[8 + len + j])
				replay_kset(k->c->known, off + j);
			else
				replay_kclr(k->c->known, off + j);
		uc_ctl_remove_cache(k->c->uc, k->c->ram_base + off, (uint64_t)k->c->ram_base + off + len);
	}
	k->undo.len = from;
}

/* ---- the engine's state ---- */

/* After a context restore: the PC at PC with its state, and the IT bits
 * of ITSTATE (Unicorn keeps them in translated code: a context saved in a
 * code hook has them 0, tests/test_unicorn_cursor.c). */
static void set_pc_it(struct citcat_cursor *k, uint32_t pc, uint8_t itstate, int thumb_known)
{
	uc_engine *uc = k->c->uc;
	int reg = k->m7 ? UC_ARM_REG_XPSR : UC_ARM_REG_CPSR;
	uint32_t psr = 0;
	uc_reg_read(uc, reg, &psr);
	int thumb = k->m7 || thumb_known || ((psr >> 5) & 1);
	uint32_t want = arm_psr_set_it(psr, itstate);
	if (want != psr)
		uc_reg_write(uc, reg, &want);
	uint32_t v = pc | (thumb ? 1u : 0u);
	uc_reg_write(uc, UC_ARM_REG_PC, &v);
}

/* ---- snapshots ---- */

static void snap_free(struct snap *s)
{
	for (uint32_t i = 0; i < s->npages; i++)
		free(s->pages[i].data);
	free(s->pages);
	if (s->ctx)
		uc_context_free(s->ctx);
	memset(s, 0, sizeof *s);
}

static uint64_t page_cost(void) { return PAGE + KPAGE + sizeof(struct spage); }

static void usage_add(struct citcat_cursor *k, int64_t d)
{
	k->used = (uint64_t)((int64_t)k->used + d);
	if (k->used > k->peak)
		k->peak = k->used;
}

/* Drops the snapshot whose neighbours are closest (not the first nor the
 * last): its pages go to the next one when that lacks them (they are its
 * pages too, unchanged since).  Returns 0 when none can go. */
static int thin(struct citcat_cursor *k)
{
	if (k->ns < 3)
		return 0;
	size_t v = 1;
	for (size_t i = 2; i + 1 < k->ns; i++)
		if (k->s[i + 1].insn - k->s[i - 1].insn < k->s[v + 1].insn - k->s[v - 1].insn)
			v = i;
	struct snap *a = &k->s[v], *b = &k->s[v + 1];
	if (k->base == v) { /* the state descends from V: from V - 1 with V's pages */
		for (uint32_t i = 0; i < a->npages; i++)
			k->dirty[a->pages[i].no >> 3] |= (uint8_t)(1u << (a->pages[i].no & 7));
		k->base = v - 1;
	} else if (k->base > v) {
		k->base--;
	}
	struct spage *m = malloc(((size_t)a->npages + b->npages) * sizeof *m);
	if (!m) {
		k->broken = fail(k, CITCAT_ERR_NOMEM, "out of memory");
		return 0;
	}
	uint32_t i = 0, j = 0, n = 0, moved = 0;
	while (i < a->npages || j < b->npages) {
		if (j == b->npages || (i < a->npages && a->pages[i].no < b->pages[j].no)) {
			m[n++] = a->pages[i++];
			moved++;
		} else if (i < a->npages && a->pages[i].no == b->pages[j].no) {
			free(a->pages[i++].data);
			m[n++] = b->pages[j++];
		} else {
			m[n++] = b->pages[j++];
		}
	}
	free(b->pages);
	b->pages = m;
	b->npages = n;
	int64_t freed = (int64_t)a->bytes - (int64_t)moved * (int64_t)page_cost();
	b->bytes += (uint64_t)moved * page_cost();
	a->npages = 0; /* its page data now belong to B or are freed */
	snap_free(a);
	memmove(k->s + v, k->s + v + 1, (k->ns - v - 1) * sizeof *k->s);
	k->ns--;
	usage_add(k, -freed);
	k->dropped++;
	return 1;
}

/* A snapshot of the state now (instant N, the instruction at PC next),
 * with the pages written since the last one; the budget is made room for
 * by thinning, and when that cannot, none is taken. */
static void take(struct citcat_cursor *k, uint64_t n, uint32_t pc, int resume)
{
	uint32_t nd;
	uint64_t need;
	for (;;) { /* thinning the snapshot the state descends from adds its pages */
		nd = 0;
		for (uint32_t no = 0; no < k->npages; no++)
			nd += (k->dirty[no >> 3] >> (no & 7)) & 1;
		need = (uint64_t)nd * page_cost() + k->ctx_size + sizeof(struct snap);
		if (k->used + need <= k->cfg.budget || !thin(k))
			break;
	}
	if (k->broken || k->used + need > k->cfg.budget)
		return;
	size_t at = k->ns ? k->base + 1 : 0; /* right after the one the state descends from */
	if (at < k->ns && k->s[at].insn <= n)
		return; /* not between BASE and the next one: cannot be */
	if (k->ns == k->caps) {
		size_t cap = k->caps ? 2 * k->caps : 64;
		struct snap *s = realloc(k->s, cap * sizeof *s);
		if (!s) {
			k->broken = fail(k, CITCAT_ERR_NOMEM, "out of memory");
			return;
		}
		k->s = s;
		k->caps = cap;
	}
	struct snap one, *s = &one;
	memset(s, 0, sizeof *s);
	if (uc_context_alloc(k->c->uc, &s->ctx) || (nd && !(s->pages = malloc(nd * sizeof *s->pages)))) {
		snap_free(s);
		k->broken = fail(k, CITCAT_ERR_NOMEM, "out of memory");
		return;
	}
	uc_context_save(k->c->uc, s->ctx);
	replay_sess_save(k->p, &s->st);
	s->st.resume = resume;
	s->insn = n;
	s->pc = pc;
	for (uint32_t no = 0; no < k->npages; no++) {
		if (!((k->dirty[no >> 3] >> (no & 7)) & 1))
			continue;
		uint8_t *d = malloc(PAGE + KPAGE);
		if (!d) {
			snap_free(s);
			k->broken = fail(k, CITCAT_ERR_NOMEM, "out of memory");
			return;
		}
		uint32_t off = no << PAGE_SHIFT, nb = page_bytes(k, no);
		memset(d, 0, PAGE + KPAGE);
		memcpy(d, k->c->ram + off, nb);
		memcpy(d + PAGE, k->c->known + (off >> 3), (nb + 7) >> 3);
		s->pages[s->npages++] = (struct spage){no, d};
	}
	s->bytes = need;
	memmove(k->s + at + 1, k->s + at, (k->ns - at) * sizeof *k->s);
	k->s[at] = one;
	k->ns++;
	k->base = at;
	memset(k->dirty, 0, (k->npages + 7) / 8);
	usage_add(k, (int64_t)need);
	k->taken++;
}

/* The latest snapshot at or before instant N (strictly before, when BEFORE). */
static size_t snap_at(const struct citcat_cursor *k, uint64_t n, int before)
{
	size_t a = 0, b = k->ns;
	while (a < b) {
		size_t m = (a + b) / 2;
		if (before ? k->s[m].insn < n : k->s[m].insn <= n)
			a = m + 1;
		else
			b = m;
	}
	return a ? a - 1 : 0;
}

/* The next instant where the state meets a snapshot (rebase) or should get
 * one: an interval into new ground, or the next point of a seek's chain
 * (CHAIN_AT). */
static void snap_plan(struct citcat_cursor *k, uint64_t now)
{
	if (k->tentative || !k->ns) {
		k->snap_next = k->ns ? NONE : 0;
		return;
	}
	uint64_t next;
	if (k->base + 1 < k->ns)
		next = k->s[k->base + 1].insn;
	else
		next = k->s[k->base].insn + k->cfg.interval > now ? k->s[k->base].insn + k->cfg.interval : now + 1;
	if (k->retry_at > next && k->base + 1 == k->ns)
		next = k->retry_at;
	if (k->chain_at != NONE && k->chain_at > now && k->chain_at < next)
		next = k->chain_at;
	k->snap_next = next;
}

/* At an executed instruction's boundary, instant N: meet a snapshot (the
 * state is that snapshot's: nothing written since) or take one: an
 * interval into new ground, or a point of a seek's chain. */
static void snap_point(struct citcat_cursor *k, uint64_t n, uint32_t a)
{
	if (n < k->snap_next || k->tentative)
		return;
	if (!k->ns) { /* snapshot 0, at instant 0 */
		take(k, n, a, 1);
		snap_plan(k, n);
		return;
	}
	int fresh = k->base + 1 == k->ns;
	if (!fresh && k->s[k->base + 1].insn == n) {
		k->base++;
		memset(k->dirty, 0, (k->npages + 7) / 8);
	} else if (n == k->chain_at || (fresh && n >= k->s[k->base].insn + k->cfg.interval && n >= k->retry_at)) {
		uint64_t before = k->taken;
		take(k, n, a, 1);
		if (k->taken == before && fresh) /* no room: try again an interval on */
			k->retry_at = n + k->cfg.interval;
	}
	if (k->chain_at != NONE && n >= k->chain_at)
		k->chain_at = k->target != NONE && k->target > n && k->target - n > CHAIN_MIN ? n + (k->target - n) / 2 : NONE;
	snap_plan(k, n);
}

/* Restores snapshot J: the pages that differ between the state now and J
 * (those written since BASE and those of the snapshots between BASE and J)
 * from the latest snapshot at or before J holding each, else the IMS. */
static int restore(struct citcat_cursor *k, size_t j)
{
	size_t lo = k->base < j ? k->base : j, hi = k->base < j ? j : k->base;
	size_t nb = (k->npages + 7) / 8;
	memcpy(k->fix, k->dirty, nb);
	for (size_t i = lo + 1; i <= hi; i++)
		for (uint32_t x = 0; x < k->s[i].npages; x++)
			k->fix[k->s[i].pages[x].no >> 3] |= (uint8_t)(1u << (k->s[i].pages[x].no & 7));
	uint32_t todo = 0;
	for (uint32_t no = 0; no < k->npages; no++)
		todo += (k->fix[no >> 3] >> (no & 7)) & 1;
	for (size_t i = j + 1; i-- > 0 && todo;)
		for (uint32_t x = 0; x < k->s[i].npages; x++) {
			uint32_t no = k->s[i].pages[x].no;
			if ((k->fix[no >> 3] >> (no & 7)) & 1) {
				put_page(k, no, k->s[i].pages[x].data, k->s[i].pages[x].data + PAGE);
				k->fix[no >> 3] &= (uint8_t)~(1u << (no & 7));
				todo--;
			}
		}
	if (todo) {
		uint8_t data[PAGE], known[KPAGE];
		for (uint32_t no = 0; no < k->npages; no++)
			if ((k->fix[no >> 3] >> (no & 7)) & 1) {
				ims_page(k, no, data, known);
				put_page(k, no, data, known);
			}
	}
	const struct snap *s = &k->s[j];
	if (uc_context_restore(k->c->uc, s->ctx))
		return k->broken = fail(k, CITCAT_ERR_UNICORN, "Unicorn: restoring a snapshot's registers failed");
	set_pc_it(k, s->pc, s->st.itstate, 0);
	int rc = replay_sess_restore(k->p, &s->st);
	if (rc) {
		k->broken = fail(k, rc, "%s", k->rerr.msg);
		return rc;
	}
	k->base = j;
	memset(k->dirty, 0, nb);
	k->now = s->insn;
	k->at_end = 0;
	k->restores++;
	snap_plan(k, k->now);
	return 0;
}

/* ---- the session's hooks ---- */

static void plan_at(struct citcat_cursor *k)
{
	uint64_t at = k->target;
	if (k->next_poll < at)
		at = k->next_poll;
	if (k->snap_next < at)
		at = k->snap_next;
	replay_sess_set_at(k->p, at);
}

static int pause_here(struct citcat_cursor *k, uint32_t a, int skipped)
{
	uc_context_save(k->c->uc, k->pctx);
	replay_sess_save(k->p, &k->pst);
	k->pst.resume = !skipped;
	k->pause_pc = a;
	k->pause_skipped = skipped;
	k->paused = 1;
	k->ghost = 1;
	k->ghost_mark = k->undo.len;
	replay_sess_pause(k->p, !skipped);
	return 1;
}

static int bp_has(const struct citcat_cursor *k, uint32_t a)
{
	for (size_t i = 0; i < k->nbp; i++)
		if (k->bp[i] == a)
			return 1;
	return 0;
}

static void cand(struct citcat_cursor *k, unsigned reason, uint64_t n, uint32_t addr, unsigned watch, unsigned access,
		 uint64_t event)
{
	/* the latest wins; at the same instant a watched access wins (the
	 * step behind is reversed over first) */
	if (k->cand.on && (n < k->cand.insn || (n == k->cand.insn && k->cand.reason == CITCAT_CURSOR_WATCH)))
		return;
	k->cand = (struct mark){1, reason, n, addr, watch, access, event};
}

static int sess_boundary(void *ctx, uint32_t a, int skipped)
{
	struct citcat_cursor *k = ctx;
	uint64_t n = k->c->insns;
	if (k->broken)
		return pause_here(k, a, skipped);
	if (n >= k->next_poll) {
		k->next_poll = n + POLL;
		if (k->cfg.interrupt && k->cfg.interrupt(k->cfg.interrupt_ctx)) {
			k->interrupted = 1;
			return pause_here(k, a, skipped);
		}
	}
	if (!skipped)
		snap_point(k, n, a);
	if (k->broken || n >= k->target)
		return pause_here(k, a, skipped);
	if (k->nbp && bp_has(k, a)) {
		if (k->mode == M_RUN && n > k->origin) {
			k->hit = (struct mark){1, CITCAT_CURSOR_BREAK, n, a, 0, 0, 0};
			return pause_here(k, a, skipped);
		}
		if (k->mode == M_SCAN && n < k->limit)
			cand(k, CITCAT_CURSOR_BREAK, n, a, 0, 0, 0);
	}
	plan_at(k);
	return 0;
}

/* An access of SIZE bytes at ADDR in the step now executing (that ends at
 * instant c->insns): a watchpoint it meets. */
static void watch_check(struct citcat_cursor *k, uint32_t addr, uint32_t size, int write)
{
	uint32_t last = addr + size - 1;
	for (size_t i = 0; i < k->nwp; i++) {
		const struct wp *w = &k->wp[i];
		if (last < w->lo || addr > w->hi || !(w->kind & (write ? CITCAT_CURSOR_WATCH_WRITE : CITCAT_CURSOR_WATCH_READ)))
			continue;
		uint32_t at = addr > w->lo ? addr : w->lo;
		unsigned acc = write ? CITCAT_CURSOR_WATCH_WRITE : CITCAT_CURSOR_WATCH_READ;
		uint64_t end = k->c->insns, step = end ? end - 1 : 0;
		if (k->mode == M_RUN && !k->hit.on) {
			/* stop before this step: at STEP, once the state is whole
			 * again (the next boundary), by seeking back */
			k->hit = (struct mark){1, CITCAT_CURSOR_WATCH, step, at, w->kind, acc, 0};
			if (end < k->target)
				k->target = end;
			replay_sess_set_at(k->p, end);
		} else if (k->mode == M_SCAN && end <= k->limit) {
			cand(k, CITCAT_CURSOR_WATCH, end, at, w->kind, acc, 0);
		}
		return;
	}
}

static void sess_mem(void *ctx, uint32_t addr, unsigned size, int write)
{
	struct citcat_cursor *k = ctx;
	if (write) {
		if (k->undo_on)
			undo_note(k, addr, size);
		mark_dirty(k, addr, size);
	}
	if (k->nwp && !k->ghost)
		watch_check(k, addr, size, write);
}

/* The exception model's access: as the core's, and at the end of a run that
 * stops at an exception the model could not take (no handler, a lockup),
 * its stacking writes are kept to be taken back (reached_end). */
static void sess_model(void *ctx, uint32_t addr, int write)
{
	struct citcat_cursor *k = ctx;
	if (write && k->c->insns == k->info.insns && k->info.stop_reason == CITCAT_STOP_FAULT &&
	    k->nend < sizeof k->end_undo / sizeof *k->end_undo) {
		uint32_t off = addr - k->c->ram_base;
		if (off < k->c->ram_size && k->c->ram_size - off >= 4) {
			struct end_word *e = &k->end_undo[k->nend++];
			e->off = off;
			memcpy(e->old, k->c->ram + off, 4);
			for (int i = 0; i < 4; i++)
				e->known[i] = (uint8_t)replay_kbit(k->c->known, off + (uint32_t)i);
		}
	}
	sess_mem(ctx, addr, 4, write);
}

static void sess_dma(void *ctx, uint32_t addr, uint32_t len)
{
	struct citcat_cursor *k = ctx;
	if (k->undo_on)
		undo_note(k, addr, len);
	mark_dirty(k, addr, len);
	if (k->nwp && !k->ghost)
		watch_check(k, addr, len, 1);
}

static void sess_event(void *ctx, const struct citcat_aes_rec *rec, uint64_t index)
{
	struct citcat_cursor *k = ctx;
	const struct replay_core *c = k->c;
	int async = rec->kind == CITCAT_AES_IRQ || rec->kind == CITCAT_AES_DMA;
	uint64_t n = async ? c->insns : c->cur_index;
	struct citcat_cursor_event e = {index, n, rec->kind, rec->line, rec->addr, rec->pc,
					rec->kind == CITCAT_AES_DMA ? rec->len : rec->size, rec->value};
	if (rec->kind == CITCAT_AES_IRQ)
		e.addr = 0;
	if (k->in_open && k->nev0 < sizeof k->ev0 / sizeof *k->ev0)
		k->ev0[k->nev0++] = e;
	if (k->mode == M_EVENTS && index >= k->ev_from && k->ev_got < k->ev_n) {
		k->ev[k->ev_got++] = e;
		if (k->ev_got == k->ev_n) { /* pause at the next boundary */
			k->target = c->insns;
			replay_sess_set_at(k->p, c->insns);
		}
	}
	if (!async || !(k->flags & CITCAT_CURSOR_RUN_EVENTS))
		return;
	uint32_t where = rec->kind == CITCAT_AES_DMA ? rec->addr : rec->pc;
	if (k->mode == M_RUN && !k->hit.on && n > k->origin) {
		k->hit = (struct mark){1, CITCAT_CURSOR_EVENT, n, where, 0, 0, index};
		if (n < k->target)
			k->target = n;
		replay_sess_set_at(k->p, n);
	} else if (k->mode == M_SCAN && n < k->limit) {
		cand(k, CITCAT_CURSOR_EVENT, n, where, 0, 0, index);
	}
}

/* ---- motion ---- */

/* The run ended (the session is done): the end's checks once, and the
 * history's last instant. */
static void reached_end(struct citcat_cursor *k)
{
	const struct replay_core *c = k->c;
	k->at_end = 1;
	k->now = c->insns;
	if (!k->end_checked) {
		k->end_checked = 1;
		int rc = replay_sess_end_check(k->p);
		if (rc) {
			k->end_err = rc != CITCAT_ERR_DIVERGED;
			return;
		}
		/* a fault of the last instruction: the history ends before it */
		k->info.last = k->info.stop_reason == CITCAT_STOP_FAULT && c->insns && c->cur_index == c->insns - 1
				       ? c->insns - 1
				       : c->insns;
	}
	/* an exception the model could not take at this boundary (an
	 * instruction fetch from nothing with no handler): its stacking
	 * writes are taken back, the last instant is the state before it */
	if (k->info.last == c->insns)
		while (k->nend) {
			const struct end_word *e = &k->end_undo[--k->nend];
			memcpy(k->c->ram + e->off, e->old, 4);
			for (uint32_t i = 0; i < 4; i++)
				if (e->known[i])
					replay_kset(k->c->known, e->off + i);
				else
					replay_kclr(k->c->known, e->off + i);
		}
	k->nend = 0;
}

/* Runs the session from the state now until it pauses (0) or the run ends
 * (1: the end of the recording; CITCAT_ERR_DIVERGED or an input error: the
 * replay failed, K->diverged set and the last instant known). */
static int go(struct citcat_cursor *k)
{
	if (k->broken)
		return k->broken;
	if (k->at_end)
		return 1;
	uint64_t start = k->now;
	k->paused = 0;
	k->interrupted = 0;
	k->nend = 0;
	k->next_poll = k->now + POLL;
	snap_plan(k, k->now);
	plan_at(k);
	replay_sess_run(k->p);
	if (k->paused) {
		undo_apply(k, k->ghost_mark);
		k->ghost = 0;
		if (uc_context_restore(k->c->uc, k->pctx))
			return k->broken = fail(k, CITCAT_ERR_UNICORN, "Unicorn: restoring the registers failed");
		set_pc_it(k, k->pause_pc, k->pst.itstate, k->pause_skipped);
		int rc = replay_sess_restore(k->p, &k->pst);
		if (rc)
			return k->broken = fail(k, rc, "%s", k->rerr.msg);
		k->paused = 0;
		k->now = k->pst.insns;
		k->replayed += k->now - start;
		return k->broken ? k->broken : 0;
	}
	k->replayed += k->c->insns - start;
	if (k->c->done && !k->c->failed) {
		reached_end(k);
		if (!k->c->failed)
			return 1;
	}
	/* the replay failed: a divergence or an input error; the history ends
	 * before the instruction where it was found */
	k->diverged = 1;
	k->end_err = k->c->failed != 1;
	if (k->end_err)
		k->err = k->rerr;
	else
		k->div = k->res.div;
	uint64_t at = k->c->failed == 1 ? k->res.div.insn_index : k->c->cur_index;
	/* found again before the pause point of that instant (in its
	 * boundary's checks): the history ends one before */
	if (k->info.last != NONE && at >= k->info.last && k->target == k->info.last)
		at = k->info.last ? k->info.last - 1 : 0;
	k->at_end = 1;
	k->now = k->c->insns;
	if (k->info.last == NONE || at < k->info.last)
		k->info.last = at;
	return k->end_err ? k->rerr.code : CITCAT_ERR_DIVERGED;
}

/* To instant N (clamped to the history), stopping for nothing.  Returns
 * 0 (at N, or where an interrupt stopped it), 1 when the history ended
 * before N (the cursor is at its last instant), or an error. */
static int seek_to(struct citcat_cursor *k, uint64_t n)
{
	uint64_t want = n;
	for (int tries = 0; tries < 4; tries++) {
		if (k->info.last != NONE && n > k->info.last)
			n = k->info.last;
		if (n == k->now && (!k->at_end || k->info.last == k->now))
			return n == want ? 0 : 1;
		size_t j = snap_at(k, n, 0);
		int restored = 0;
		if (k->at_end || k->now > n || k->s[j].insn > k->now) {
			int rc = restore(k, j);
			if (rc)
				return rc;
			restored = 1;
		}
		if (k->now == n)
			return n == want ? 0 : 1;
		k->mode = M_SEEK;
		k->target = n;
		/* a seek that went back to a snapshot (backwards motion, a jump)
		 * leaves a chain; one that only runs on is like a continue */
		k->chain_at = restored && CHAIN_MIN != NONE && n - k->now > CHAIN_MIN ? k->now + (n - k->now) / 2 : NONE;
		int rc = go(k);
		k->target = NONE;
		k->chain_at = NONE;
		if (rc == 0)
			return k->now == want || k->interrupted ? 0 : 1;
		if (rc < 0 && !k->diverged)
			return rc;
		/* the end, or a failure: the history's last instant is known
		 * now; go there (a fault's and a divergence's instant is before
		 * the state the session stopped in) */
	}
	return k->broken ? k->broken : fail(k, CITCAT_ERR_INTERNAL, "the replay cannot reach instant %llu",
					     (unsigned long long)n);
}

static void stop_here(struct citcat_cursor *k, struct citcat_cursor_stop *st, unsigned reason)
{
	memset(st, 0, sizeof *st);
	st->reason = reason;
	st->insn = k->now;
}

static void stop_mark(struct citcat_cursor *k, struct citcat_cursor_stop *st, const struct mark *m)
{
	stop_here(k, st, m->reason);
	st->addr = m->addr;
	st->watch = m->watch;
	st->access = m->access;
	st->event = m->event;
}

/* The end of the history, forwards. */
static int stop_end(struct citcat_cursor *k, struct citcat_cursor_stop *st)
{
	if (k->info.last != NONE && k->now != k->info.last) {
		int rc = seek_to(k, k->info.last);
		if (rc < 0 && rc != CITCAT_ERR_DIVERGED)
			return rc;
	}
	stop_here(k, st, k->diverged ? CITCAT_CURSOR_DIVERGED : CITCAT_CURSOR_END);
	return k->diverged && k->end_err ? k->err.code : 0;
}

static int run_forward(struct citcat_cursor *k, unsigned flags, struct citcat_cursor_stop *st)
{
	if (k->info.last != NONE && k->now >= k->info.last)
		return stop_end(k, st);
	k->mode = M_RUN;
	k->flags = flags;
	k->origin = k->now;
	k->hit.on = 0;
	k->target = flags & CITCAT_CURSOR_RUN_STEP ? k->now + 1 : NONE;
	int rc = go(k);
	k->target = NONE;
	k->mode = M_SEEK;
	struct mark h = k->hit;
	if (h.on && h.reason == CITCAT_CURSOR_WATCH) { /* before the step that made the access */
		int r2 = seek_to(k, h.insn);
		if (r2 < 0)
			return r2;
		stop_mark(k, st, &h);
		return 0;
	}
	if (rc == 0) {
		if (k->interrupted)
			stop_here(k, st, CITCAT_CURSOR_INTERRUPTED);
		else if (h.on)
			stop_mark(k, st, &h);
		else
			stop_here(k, st, CITCAT_CURSOR_STEP);
		return 0;
	}
	if (rc < 0 && rc != CITCAT_ERR_DIVERGED && !k->diverged)
		return rc;
	return stop_end(k, st);
}

/* Backwards one instruction; with watchpoints, the step is made again from
 * there, tentatively, to see whether it accessed one (it then stays). */
static int step_back(struct citcat_cursor *k, struct citcat_cursor_stop *st)
{
	uint64_t to = k->now - 1;
	int rc = seek_to(k, to);
	if (rc)
		return rc < 0 ? rc : 0;
	if (!k->nwp) {
		stop_here(k, st, CITCAT_CURSOR_STEP);
		return 0;
	}
	uc_context_save(k->c->uc, k->tctx);
	replay_sess_save(k->p, &k->tst);
	uint32_t pc;
	uc_reg_read(k->c->uc, UC_ARM_REG_PC, &pc);
	k->tpc = pc & ~1u;
	k->tentative = 1;
	k->undo_on = 1;
	k->undo.len = 0;
	k->mode = M_SCAN;
	k->flags = 0;
	k->limit = to + 2;
	k->cand.on = 0;
	k->target = to + 1;
	rc = go(k);
	k->target = NONE;
	k->mode = M_SEEK;
	k->tentative = 0;
	k->undo_on = 0;
	if (rc == 0 && k->cand.on && k->cand.reason == CITCAT_CURSOR_WATCH) {
		k->undo.len = 0;
		snap_plan(k, k->now);
		stop_mark(k, st, &k->cand);
		return 0;
	}
	if (rc < 0)
		return rc;
	/* take the step back */
	undo_apply(k, 0);
	if (uc_context_restore(k->c->uc, k->tctx))
		return k->broken = fail(k, CITCAT_ERR_UNICORN, "Unicorn: restoring the registers failed");
	set_pc_it(k, k->tpc, k->tst.itstate, 0);
	rc = replay_sess_restore(k->p, &k->tst);
	if (rc)
		return k->broken = fail(k, rc, "%s", k->rerr.msg);
	k->now = to;
	k->at_end = 0;
	snap_plan(k, k->now);
	stop_here(k, st, CITCAT_CURSOR_STEP);
	return 0;
}

static int run_backward(struct citcat_cursor *k, unsigned flags, struct citcat_cursor_stop *st)
{
	if (k->now == 0) {
		stop_here(k, st, CITCAT_CURSOR_BEGIN);
		return 0;
	}
	if (flags & CITCAT_CURSOR_RUN_STEP)
		return step_back(k, st);
	uint64_t from = k->now, hi = from;
	for (;;) {
		size_t j = snap_at(k, hi, 1);
		uint64_t lo = k->s[j].insn; /* J may move: the scan can take and thin snapshots */
		int rc = restore(k, j);
		if (rc)
			return rc;
		k->cand.on = 0;
		if (k->nbp && k->now < from) {
			uint32_t pc;
			uc_reg_read(k->c->uc, UC_ARM_REG_PC, &pc);
			if (bp_has(k, pc & ~1u))
				cand(k, CITCAT_CURSOR_BREAK, k->now, pc & ~1u, 0, 0, 0);
		}
		k->mode = M_SCAN;
		k->flags = flags;
		k->limit = from;
		k->target = hi;
		rc = go(k);
		k->target = NONE;
		k->mode = M_SEEK;
		if (rc < 0)
			return rc;
		if (k->interrupted) {
			stop_here(k, st, CITCAT_CURSOR_INTERRUPTED);
			return 0;
		}
		if (k->cand.on) {
			struct mark m = k->cand;
			rc = seek_to(k, m.insn);
			if (rc < 0)
				return rc;
			stop_mark(k, st, &m);
			return 0;
		}
		if (lo == 0) {
			rc = seek_to(k, 0);
			if (rc < 0)
				return rc;
			stop_here(k, st, CITCAT_CURSOR_BEGIN);
			return 0;
		}
		hi = lo;
	}
}

/* ---- opening ---- */

/* The AES of the CAT at PATH into memory (K->aes_buf): extracted into a
 * scratch directory, read back, removed. */
static int aes_from_cat(struct citcat_cursor *k, const char *cat)
{
	const char *tmp = getenv("TMPDIR");
	char dir[512], path[600];
	snprintf(dir, sizeof dir, "%s/citcat-cursor-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir))
		return fail(k, CITCAT_ERR_IO, "cannot create a scratch directory in %s: %s", tmp && *tmp ? tmp : "/tmp",
			    strerror(errno));
	snprintf(path, sizeof path, "%s/run.aes", dir);
	struct citcat_errinfo e = {0};
	int rc = citcat_aes_extract(cat, path, NULL, k->cfg.progress, k->cfg.progress_ctx, &e);
	if (rc) {
		k->err = e;
	} else {
		struct cc_input *in = NULL;
		rc = cc_input_open(&in, path, &e);
		size_t cap = 1 << 16;
		uint8_t *buf = rc ? NULL : malloc(cap);
		if (!rc && !buf)
			rc = CITCAT_ERR_NOMEM;
		while (!rc) {
			if (cap - k->aes_len < (1 << 16)) {
				uint8_t *b = realloc(buf, cap * 2);
				if (!b) {
					rc = CITCAT_ERR_NOMEM;
					break;
				}
				buf = b;
				cap *= 2;
			}
			long n = cc_input_read(in, buf + k->aes_len, cap - k->aes_len);
			if (n < 0) {
				rc = (int)n;
				e = *cc_input_error(in);
			} else if (n == 0) {
				break;
			}
			k->aes_len += n > 0 ? (size_t)n : 0;
		}
		cc_input_close(in);
		if (rc) {
			free(buf);
			k->aes_len = 0;
			if (rc == CITCAT_ERR_NOMEM)
				fail(k, rc, "out of memory");
			else
				k->err = e;
		} else {
			k->aes_buf = buf;
		}
	}
	unlink(path);
	rmdir(dir);
	return rc;
}

void citcat_cursor_config_default(struct citcat_cursor_config *c)
{
	if (!c)
		return;
	memset(c, 0, sizeof *c);
	c->size = sizeof *c;
	c->budget = CITCAT_CURSOR_BUDGET_DEFAULT;
	c->interval = CITCAT_CURSOR_INTERVAL_DEFAULT;
	c->chain = CITCAT_CURSOR_CHAIN_DEFAULT;
}

int citcat_cursor_open(struct citcat_cursor **out, const struct citcat_cursor_config *ucfg)
{
	if (!out)
		return CITCAT_ERR_INVAL;
	*out = NULL;
	struct citcat_cursor *k = calloc(1, sizeof *k);
	if (!k)
		return CITCAT_ERR_NOMEM;
	*out = k;
	k->err.offset = UINT64_MAX;
	k->info.last = NONE;
	k->target = NONE;
	k->chain_at = NONE;
	k->snap_next = 0;
	if (cc_config_from_user(&k->cfg, sizeof k->cfg, ucfg,
				offsetof(struct citcat_cursor_config, cat_path) + sizeof k->cfg.cat_path))
		return fail(k, CITCAT_ERR_INVAL, "bad cursor configuration");
	const struct citcat_cursor_config *cfg = &k->cfg;
	int files = cfg->ims_path && cfg->aes_path;
	if (files == !!cfg->cat_path || (!files && (cfg->ims_path || cfg->aes_path)))
		return fail(k, CITCAT_ERR_INVAL, "a cursor opens a run from its IMS and AES, or from its CAT");
	if (!k->cfg.budget)
		k->cfg.budget = CITCAT_CURSOR_BUDGET_DEFAULT;
	if (k->cfg.budget < CITCAT_CURSOR_BUDGET_MIN)
		return fail(k, CITCAT_ERR_INVAL, "a snapshot budget of %llu bytes is below the minimum, %llu",
			    (unsigned long long)k->cfg.budget, (unsigned long long)CITCAT_CURSOR_BUDGET_MIN);
	if (!k->cfg.interval)
		k->cfg.interval = CITCAT_CURSOR_INTERVAL_DEFAULT;
	if (!k->cfg.chain)
		k->cfg.chain = CITCAT_CURSOR_CHAIN_DEFAULT;
	struct citcat_ims ims;
	memset(&ims, 0, sizeof ims);
	int rc;
	if (cfg->cat_path) {
		snprintf(k->name_ims, sizeof k->name_ims, "%s (its IMS)", cfg->cat_path);
		snprintf(k->name_aes, sizeof k->name_aes, "%s (its AES)", cfg->cat_path);
		struct citcat_errinfo e = {0};
		if ((rc = citcat_ims_extract(cfg->cat_path, &ims, NULL, cfg->progress, cfg->progress_ctx, &e))) {
			citcat_ims_fini(&ims);
			k->err = e;
			name_file(k, cfg->cat_path);
			return rc;
		}
		if ((rc = aes_from_cat(k, cfg->cat_path))) {
			citcat_ims_fini(&ims);
			name_file(k, cfg->cat_path);
			return rc;
		}
	} else {
		snprintf(k->name_ims, sizeof k->name_ims, "%s", cfg->ims_path);
		snprintf(k->name_aes, sizeof k->name_aes, "%s", cfg->aes_path);
		struct citcat_errinfo e = {0};
		if ((rc = citcat_ims_read(cfg->ims_path, &ims, &e))) {
			citcat_ims_fini(&ims);
			k->err = e;
			name_file(k, cfg->ims_path);
			return rc;
		}
	}
	k->hooks = (struct replay_sess_hooks){k, sess_boundary, sess_mem, sess_model, sess_dma, sess_event};
	if ((rc = replay_sess_open(&k->p, &ims, k->name_ims, k->name_aes, cfg->cat_path ? NULL : cfg->aes_path,
				   k->aes_buf, k->aes_len, &k->hooks, &k->res, &k->rerr))) {
		k->err = k->rerr;
		name_file(k, k->res.err_path);
		return rc;
	}
	k->c = replay_sess_core(k->p);
	k->ims = replay_sess_ims(k->p);
	k->m7 = k->ims->cfg.isa == CITCAT_TARGET_CORTEX_M7;
	struct citcat_aes_rec end;
	if ((rc = replay_sess_end_record(k->p, &end, &k->info.events, &k->info.exit_value, &k->info.have_exit))) {
		k->err = k->rerr;
		return rc;
	}
	k->info.isa = k->ims->cfg.isa;
	k->info.insns = k->ims->id.insns;
	k->info.stop_reason = end.line;
	if (end.line == CITCAT_STOP_FAULT) {
		k->info.fault = (unsigned)end.value;
		k->info.fault_pc = end.pc;
		k->info.fault_addr = end.addr;
	}
	k->info.ram_base = k->ims->cfg.ram_base;
	k->info.ram_size = k->ims->cfg.ram_size;
	k->info.dev_base = k->ims->cfg.dev_base;
	k->info.dev_size = k->ims->cfg.dev_size;
	k->npages = (k->c->ram_size + PAGE - 1) >> PAGE_SHIFT;
	k->dirty = calloc(1, (k->npages + 7) / 8);
	k->fix = calloc(1, (k->npages + 7) / 8);
	if (!k->dirty || !k->fix || uc_context_alloc(k->c->uc, &k->pctx) || uc_context_alloc(k->c->uc, &k->tctx))
		return fail(k, CITCAT_ERR_NOMEM, "out of memory");
	k->ctx_size = uc_context_size(k->c->uc);
	/* instant 0: the first boundary's events applied, snapshot 0 taken
	 * there */
	k->in_open = 1;
	k->mode = M_SEEK;
	k->target = 0;
	rc = go(k);
	k->target = NONE;
	k->in_open = 0;
	if (!k->ns && !k->broken) { /* the run ended before its first instruction */
		take(k, 0, 0, 0);
		if (!k->ns && !k->broken)
			return fail(k, CITCAT_ERR_LIMIT, "no room for the first snapshot in a budget of %llu bytes",
				    (unsigned long long)k->cfg.budget);
	}
	if (k->broken)
		return k->broken;
	if (rc < 0 && k->now == 0 && k->diverged) {
		if (k->end_err)
			return k->err.code;
		const struct citcat_divergence *d = &k->div;
		return citcat_errinfo_set(&k->err, CITCAT_ERR_DIVERGED, UINT64_MAX,
					  "the replay diverged at its first instruction (%s): expected %s, found %s",
					  d->check, d->expected, d->found);
	}
	return 0;
}

void citcat_cursor_close(struct citcat_cursor *k)
{
	if (!k)
		return;
	for (size_t i = 0; i < k->ns; i++)
		snap_free(&k->s[i]);
	free(k->s);
	if (k->pctx)
		uc_context_free(k->pctx);
	if (k->tctx)
		uc_context_free(k->tctx);
	replay_sess_close(k->p);
	free(k->aes_buf);
	free(k->dirty);
	free(k->fix);
	free(k->undo.buf);
	free(k->bp);
	free(k->wp);
	free(k);
}

const struct citcat_errinfo *citcat_cursor_error(const struct citcat_cursor *k) { return k ? &k->err : NULL; }

const struct citcat_divergence *citcat_cursor_divergence(const struct citcat_cursor *k)
{
	return k && k->diverged && !k->end_err ? &k->div : NULL;
}

int citcat_cursor_info(const struct citcat_cursor *k, struct citcat_cursor_info *info)
{
	if (!k || !info || !k->c)
		return CITCAT_ERR_INVAL;
	*info = k->info;
	return 0;
}

uint64_t citcat_cursor_now(const struct citcat_cursor *k) { return k ? k->now : 0; }

int citcat_cursor_set_interrupt(struct citcat_cursor *k, int (*interrupt)(void *ctx), void *ctx)
{
	if (!k)
		return CITCAT_ERR_INVAL;
	k->cfg.interrupt = interrupt;
	k->cfg.interrupt_ctx = ctx;
	return 0;
}

int citcat_cursor_when(const struct citcat_cursor *k, struct citcat_cursor_when *w)
{
	if (!k || !w || !k->c)
		return CITCAT_ERR_INVAL;
	struct replay_sess_state st;
	replay_sess_save(k->p, &st);
	w->insn = k->now;
	w->bcount = st.bcount;
	w->next_event = st.aes_count ? st.aes_count - 1 : 0;
	w->have_cycles = 0;
	w->cycle_lo = w->cycle_hi = 0;
	if (!k->cfg.cat_path || !k->ims->cfg.timestamps)
		return 0;
	/* AES record N is the Nth IRQ/EXC, DMA, UREAD or UWRITE event after
	 * the CAT's SYNC (aes/aes.c, to_rec) */
	struct citcat_cat_reader *r;
	if (citcat_cat_reader_open(&r, k->cfg.cat_path)) {
		citcat_cat_reader_close(r);
		return 0;
	}
	struct citcat_cat_event ev;
	uint64_t n = 0, lo = 0;
	int synced = 0, rc;
	while ((rc = citcat_cat_next(r, &ev)) == 1) {
		if (ev.kind == CITCAT_CAT_SYNC && !synced) {
			synced = 1;
			lo = ev.cycle;
			continue;
		}
		if (!synced)
			continue;
		if (ev.kind == CITCAT_CAT_STOP) {
			w->have_cycles = 1;
			w->cycle_lo = lo;
			w->cycle_hi = ev.cycle;
			break;
		}
		if (ev.kind != CITCAT_CAT_IRQ && ev.kind != CITCAT_CAT_EXC && ev.kind != CITCAT_CAT_DMA &&
		    ev.kind != CITCAT_CAT_UREAD && ev.kind != CITCAT_CAT_UWRITE)
			continue;
		if (n++ == w->next_event) {
			w->have_cycles = 1;
			w->cycle_lo = lo;
			w->cycle_hi = ev.cycle;
			break;
		}
		lo = ev.cycle;
	}
	citcat_cat_reader_close(r);
	return 0;
}

int citcat_cursor_regs(const struct citcat_cursor *k, struct citcat_cursor_regs *r)
{
	if (!k || !r || !k->c)
		return CITCAT_ERR_INVAL;
	memset(r, 0, sizeof *r);
	uc_engine *uc = k->c->uc;
	static const int gpr[16] = {UC_ARM_REG_R0, UC_ARM_REG_R1, UC_ARM_REG_R2,  UC_ARM_REG_R3,
				    UC_ARM_REG_R4, UC_ARM_REG_R5, UC_ARM_REG_R6,  UC_ARM_REG_R7,
				    UC_ARM_REG_R8, UC_ARM_REG_R9, UC_ARM_REG_R10, UC_ARM_REG_R11,
				    UC_ARM_REG_R12, UC_ARM_REG_SP, UC_ARM_REG_LR, UC_ARM_REG_PC};
	for (int i = 0; i < 16; i++)
		uc_reg_read(uc, gpr[i], &r->r[i]);
	r->r[15] &= ~1u;
	r->m_profile = k->m7;
	if (k->m7) {
		uc_reg_read(uc, UC_ARM_REG_XPSR, &r->cpsr);
		uc_reg_read(uc, UC_ARM_REG_MSP, &r->msp);
		uc_reg_read(uc, UC_ARM_REG_PSP, &r->psp);
		uc_reg_read(uc, UC_ARM_REG_PRIMASK, &r->primask);
		uc_reg_read(uc, UC_ARM_REG_BASEPRI, &r->basepri);
		uc_reg_read(uc, UC_ARM_REG_FAULTMASK, &r->faultmask);
		uc_reg_read(uc, UC_ARM_REG_CONTROL, &r->control);
		const struct m7exc *x = replay_sess_m7(k->p);
		if (x) {
			r->cfsr = x->cfsr;
			r->hfsr = x->hfsr;
			r->mmfar = x->mmfar;
			r->bfar = x->bfar;
		}
		r->thumb = 1;
	} else {
		uc_reg_read(uc, UC_ARM_REG_CPSR, &r->cpsr);
		unsigned mode = r->cpsr & 0x1f;
		if (mode != 0x10 && mode != 0x1f)
			uc_reg_read(uc, UC_ARM_REG_SPSR, &r->spsr);
		r->thumb = (r->cpsr >> 5) & 1;
	}
	return 0;
}

int citcat_cursor_read(const struct citcat_cursor *k, uint32_t addr, void *buf, size_t len, size_t *got)
{
	if (!k || (!buf && len) || !got || !k->c)
		return CITCAT_ERR_INVAL;
	const struct replay_core *c = k->c;
	size_t n = 0;
	int kind = CITCAT_CURSOR_MEM_RAM;
	while (n < len) {
		uint32_t a = addr + (uint32_t)n, off = a - c->ram_base;
		if ((uint64_t)addr + n > UINT32_MAX) {
			kind = CITCAT_CURSOR_MEM_NONE;
			break;
		}
		if (off < c->ram_size) {
			if (!replay_kbit(c->known, off)) {
				kind = CITCAT_CURSOR_MEM_UNKNOWN;
				break;
			}
			((uint8_t *)buf)[n++] = c->ram[off];
			continue;
		}
		if (a - k->info.dev_base < k->info.dev_size)
			kind = CITCAT_CURSOR_MEM_DEVICE;
		else if (k->m7 && a - M7EXC_SCS_BASE < M7EXC_SCS_SIZE)
			kind = CITCAT_CURSOR_MEM_SCS;
		else
			kind = CITCAT_CURSOR_MEM_NONE;
		break;
	}
	*got = n;
	return kind;
}

int citcat_cursor_break(struct citcat_cursor *k, uint32_t addr, int on)
{
	if (!k || !k->c)
		return CITCAT_ERR_INVAL;
	addr &= ~1u;
	if (on) {
		if (k->nbp == MAX_POINTS)
			return CITCAT_ERR_LIMIT;
		if (!(k->nbp & 15)) {
			uint32_t *b = realloc(k->bp, (k->nbp + 16) * sizeof *b);
			if (!b)
				return CITCAT_ERR_NOMEM;
			k->bp = b;
		}
		k->bp[k->nbp++] = addr;
	} else {
		size_t i = 0;
		while (i < k->nbp && k->bp[i] != addr)
			i++;
		if (i == k->nbp)
			return CITCAT_ERR_EOF;
		k->bp[i] = k->bp[--k->nbp];
	}
	memset(k->bpf, 0, sizeof k->bpf);
	for (size_t i = 0; i < k->nbp; i++)
		k->bpf[(k->bp[i] >> 4) & 511] |= (uint8_t)(1u << ((k->bp[i] >> 1) & 7));
	replay_sess_set_bpf(k->p, k->nbp ? k->bpf : NULL);
	return 0;
}

int citcat_cursor_watch(struct citcat_cursor *k, uint32_t addr, uint32_t len, unsigned kind, int on)
{
	if (!k || !k->c || !len || (uint64_t)addr + len - 1 > UINT32_MAX || kind < CITCAT_CURSOR_WATCH_READ ||
	    kind > CITCAT_CURSOR_WATCH_ACCESS)
		return CITCAT_ERR_INVAL;
	struct wp w = {addr, addr + len - 1, kind};
	if (on) {
		if (k->nwp == MAX_POINTS)
			return CITCAT_ERR_LIMIT;
		if (!(k->nwp & 15)) {
			struct wp *b = realloc(k->wp, (k->nwp + 16) * sizeof *b);
			if (!b)
				return CITCAT_ERR_NOMEM;
			k->wp = b;
		}
		k->wp[k->nwp++] = w;
		return 0;
	}
	for (size_t i = 0; i < k->nwp; i++)
		if (k->wp[i].lo == w.lo && k->wp[i].hi == w.hi && k->wp[i].kind == kind) {
			k->wp[i] = k->wp[--k->nwp];
			return 0;
		}
	return CITCAT_ERR_EOF;
}

int citcat_cursor_seek(struct citcat_cursor *k, uint64_t insn, struct citcat_cursor_stop *st)
{
	if (!k || !st || !k->c)
		return CITCAT_ERR_INVAL;
	if (k->broken)
		return k->broken;
	int rc = seek_to(k, insn);
	if (rc < 0 && rc != CITCAT_ERR_DIVERGED)
		return rc;
	if (k->interrupted) {
		stop_here(k, st, CITCAT_CURSOR_INTERRUPTED);
		return 0;
	}
	if (k->now != insn)
		return stop_end(k, st);
	stop_here(k, st, CITCAT_CURSOR_STEP);
	return 0;
}

int citcat_cursor_run(struct citcat_cursor *k, int backward, unsigned flags, struct citcat_cursor_stop *st)
{
	if (!k || !st || !k->c || (flags & ~(unsigned)(CITCAT_CURSOR_RUN_EVENTS | CITCAT_CURSOR_RUN_STEP)))
		return CITCAT_ERR_INVAL;
	if (k->broken)
		return k->broken;
	return backward ? run_backward(k, flags, st) : run_forward(k, flags, st);
}

int citcat_cursor_events(struct citcat_cursor *k, uint64_t from, struct citcat_cursor_event *ev, size_t n, size_t *got)
{
	if (!k || !got || (!ev && n) || !k->c)
		return CITCAT_ERR_INVAL;
	*got = 0;
	if (k->broken)
		return k->broken;
	uint64_t back = k->now;
	/* the events before snapshot 0's pause were kept at open */
	for (size_t i = 0; i < k->nev0 && *got < n; i++)
		if (k->ev0[i].index >= from)
			ev[(*got)++] = k->ev0[i];
	if (*got == n || from >= k->info.events)
		return 0;
	uint64_t start = from > k->nev0 ? from : k->nev0;
	if (*got)
		start = ev[*got - 1].index + 1;
	size_t j = 0;
	for (size_t i = 0; i < k->ns; i++)
		if (k->s[i].st.aes_count && k->s[i].st.aes_count - 1 <= start)
			j = i;
	int rc = restore(k, j);
	if (rc)
		return rc;
	k->mode = M_EVENTS;
	k->ev = ev;
	/* no further than the last one asked for that the run has */
	k->ev_n = k->info.events - start < n - *got ? *got + (size_t)(k->info.events - start) : n;
	k->ev_got = *got;
	k->ev_from = start;
	k->target = NONE;
	rc = go(k);
	k->mode = M_SEEK;
	k->target = NONE;
	*got = k->ev_got;
	k->ev = NULL;
	if (rc < 0 && rc != CITCAT_ERR_DIVERGED)
		return rc;
	rc = seek_to(k, back);
	return rc < 0 && rc != CITCAT_ERR_DIVERGED ? rc : 0;
}

int citcat_cursor_usage(const struct citcat_cursor *k, struct citcat_cursor_usage *u)
{
	if (!k || !u || !k->c)
		return CITCAT_ERR_INVAL;
	memset(u, 0, sizeof *u);
	u->budget = k->cfg.budget;
	u->used = k->used;
	u->peak = k->peak;
	u->snapshots = k->ns;
	u->taken = k->taken;
	u->dropped = k->dropped;
	u->first = k->ns ? k->s[0].insn : 0;
	u->last = k->ns ? k->s[k->ns - 1].insn : 0;
	u->interval = k->cfg.interval;
	u->restores = k->restores;
	u->replayed = k->replayed;
	return 0;
}
