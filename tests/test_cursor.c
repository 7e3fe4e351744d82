/* The replay cursor (include/citcat/cursor.h) against the oracle: a real
 * capture's ground-truth itrace and the replayer's own observer.
 *
 * At sampled instants, reached in a shuffled order (so forwards and
 * backwards, through restores):
 *  - the PC and the Thumb state are those of the oracle's record of the
 *    instruction at that index;
 *  - every RAM load of that instruction reads, in the cursor's memory at
 *    that instant, the value the oracle recorded; every store's value is
 *    there at the next instant (unless the same instruction or a DMA
 *    transfer at that boundary overwrote it);
 *  - the register file equals what the replayer's observer saw after the
 *    instruction before (citcat_replay_run, a separate plain replay), the
 *    IT bits aside (the observer reads them 0 inside an IT block) and the
 *    PC, which is the oracle's (the observer reads the next executed
 *    instruction's: after a condition-failed one's in an IT block).
 * Stops inside IT blocks, then ten single steps through them and on.
 * Then: 1000 single steps forwards and 1000 backwards return to the same
 * registers through the oracle's PCs; a breakpoint stops forwards at the
 * first and backwards at the last execution of its address the oracle
 * has; a write watchpoint stops forwards at the instruction that makes the
 * first write (before it) and backwards after the last one; with events,
 * forward runs stop at the oracle's interrupt entries and DMA transfers;
 * the events list gives them at the same instants; the end is the
 * oracle's length.  Each with the default budget and with the minimum
 * budget and a short interval, where snapshots must be thinned and the
 * budget is never exceeded.
 *
 * Usage: test_cursor ORACLE.itrace RUN.cat WORK_DIR (the IMS and AES are
 * extracted there; the cursor opens both them and the CAT). */
#include <citcat/citcat.h>
#include <citcat/cursor.h>

#include "check.h"

#include <stdlib.h>
#include <string.h>

#define IT_MASK 0x0600FC00u

struct acc {
	uint32_t addr, size, write;
	uint64_t value;
	int uncached;
};

static uint64_t n_insn;
static uint32_t *pc, *first_acc;
static uint64_t it_at[64]; /* instructions right after a Thumb IT instruction (inside its block) */
static size_t n_it;
static uint64_t n_it_seen;
static uint8_t *thumb, *nacc, *after_irq, *after_dma; /* after_*: an event at the boundary after instruction i */
static struct acc *accs;
static uint64_t n_accs;
struct ev {
	uint64_t insn;
	int irq;
	uint32_t a;
};
static struct ev *evs;
static size_t n_evs;

static void *grow(void *p, uint64_t n, size_t sz)
{
	void *q = realloc(p, (size_t)n * sz);
	if (!q) {
		fprintf(stderr, "out of memory\n");
		exit(2);
	}
	return q;
}

static void load_oracle(const char *path)
{
	struct citcat_itrace_reader *r;
	if (citcat_itrace_reader_open(&r, path)) {
		fprintf(stderr, "%s: %s\n", path, citcat_itrace_reader_error(r)->msg);
		exit(2);
	}
	citcat_itrace_reader_dma(r, 1);
	struct citcat_itrace_rec rec;
	uint64_t cap = 0, acap = 0, ecap = 0;
	while (citcat_itrace_next(r, &rec) == 1) {
		if (rec.kind == CITCAT_REC_INSN) {
			if (n_insn + 1 >= cap) {
				cap = cap ? 2 * cap : 1 << 16;
				pc = grow(pc, cap, 4);
				first_acc = grow(first_acc, cap, 4);
				thumb = grow(thumb, cap, 1);
				nacc = grow(nacc, cap, 1);
				after_irq = grow(after_irq, cap, 1);
				after_dma = grow(after_dma, cap, 1);
			}
			/* an IT instruction (1011 1111 cond mask, mask not 0): keep
			 * every 97th of them, up to 64, to stop inside blocks */
			if (rec.thumb && rec.size == 2 && (rec.word & 0xff00) == 0xbf00 && (rec.word & 0x0f) &&
			    n_it_seen++ % 97 == 0 && n_it < 64)
				it_at[n_it++] = n_insn + 1;
			pc[n_insn] = (uint32_t)rec.pc;
			thumb[n_insn] = rec.thumb;
			nacc[n_insn] = (uint8_t)rec.n_acc;
			first_acc[n_insn] = (uint32_t)n_accs;
			after_irq[n_insn] = after_dma[n_insn] = 0;
			for (uint32_t i = 0; i < rec.n_acc; i++) {
				if (n_accs == acap)
					accs = grow(accs, acap = acap ? 2 * acap : 1 << 16, sizeof *accs);
				accs[n_accs++] = (struct acc){(uint32_t)rec.acc[i].addr, rec.acc[i].size, rec.acc[i].write,
							      rec.acc[i].value, rec.acc[i].uncached};
			}
			n_insn++;
		} else if (rec.kind == CITCAT_REC_IRQ || rec.kind == CITCAT_REC_DMA) {
			if (n_insn)
				(rec.kind == CITCAT_REC_IRQ ? after_irq : after_dma)[n_insn - 1] = 1;
			if (n_evs == ecap)
				evs = grow(evs, ecap = ecap ? 2 * ecap : 256, sizeof *evs);
			evs[n_evs++] = (struct ev){n_insn, rec.kind == CITCAT_REC_IRQ, (uint32_t)rec.pc};
		}
	}
	citcat_itrace_reader_close(r);
}

/* the observer's registers after instruction i, for sampled i */
#define NSAMP 64
static uint64_t samp[NSAMP];
static uint32_t samp_regs[NSAMP][CITCAT_OBS_NREGS];
static uint64_t obs_k;

static int obs_record(void *ctx, const struct citcat_itrace_rec *rec, const uint32_t regs[CITCAT_OBS_NREGS])
{
	(void)ctx;
	if (rec->kind != CITCAT_REC_INSN)
		return 0;
	for (int i = 0; i < NSAMP; i++)
		if (samp[i] == obs_k)
			memcpy(samp_regs[i], regs, sizeof samp_regs[i]);
	obs_k++;
	return 0;
}

static uint64_t rng = 88172645463325252ull;
static uint64_t rnd(uint64_t n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return n ? rng % n : 0;
}

static int seek(struct citcat_cursor *c, uint64_t n)
{
	struct citcat_cursor_stop st;
	int rc = citcat_cursor_seek(c, n, &st);
	CHECK_EQ(rc, 0);
	CHECK_EQ(st.insn, n);
	CHECK_EQ(citcat_cursor_now(c), n);
	return rc;
}

static uint64_t le(const uint8_t *b, unsigned n)
{
	uint64_t v = 0;
	for (unsigned i = n; i-- > 0;)
		v = v << 8 | b[i];
	return v;
}

/* The PC and Thumb state at instant N are the oracle's; the loads of
 * instruction N read what the cursor's memory holds. */
static void check_at(struct citcat_cursor *c, uint64_t n)
{
	struct citcat_cursor_regs r;
	CHECK_EQ(citcat_cursor_regs(c, &r), 0);
	if (n >= n_insn)
		return;
	if (r.r[15] != pc[n] || r.thumb != thumb[n]) {
		fprintf(stderr, "instant %llu: pc 0x%08x thumb %d, oracle 0x%08x %d\n", (unsigned long long)n, r.r[15],
			r.thumb, pc[n], thumb[n]);
		check_failures++;
		return;
	}
	for (uint32_t i = 0; i < nacc[n]; i++) {
		const struct acc *a = &accs[first_acc[n] + i];
		if (a->write || a->uncached)
			continue;
		uint8_t b[8];
		size_t got = 0;
		int kind = citcat_cursor_read(c, a->addr, b, a->size, &got);
		/* a load after a store of the same instruction (swp, an
		 * exception return's unstacking after nothing) reads the old
		 * value only when no earlier access of it wrote there */
		int written = 0;
		for (uint32_t j = 0; j < i; j++)
			written |= accs[first_acc[n] + j].write && accs[first_acc[n] + j].addr == a->addr;
		if (written)
			continue;
		if (kind != CITCAT_CURSOR_MEM_RAM || got != a->size || le(b, a->size) != a->value) {
			fprintf(stderr, "instant %llu: load of 0x%08x (%u bytes): kind %d got %zu value 0x%llx, oracle 0x%llx\n",
				(unsigned long long)n, a->addr, a->size, kind, got, (unsigned long long)le(b, a->size),
				(unsigned long long)a->value);
			check_failures++;
		}
	}
}

/* The stores of instruction N-1 are in memory at instant N. */
static void check_stores(struct citcat_cursor *c, uint64_t n)
{
	if (!n || n > n_insn || after_dma[n - 1])
		return;
	uint64_t i0 = first_acc[n - 1];
	for (uint32_t i = 0; i < nacc[n - 1]; i++) {
		const struct acc *a = &accs[i0 + i];
		if (!a->write || a->uncached)
			continue;
		int later = 0;
		for (uint32_t j = i + 1; j < nacc[n - 1]; j++)
			later |= accs[i0 + j].write && accs[i0 + j].addr < a->addr + a->size &&
				 a->addr < accs[i0 + j].addr + accs[i0 + j].size;
		if (later)
			continue;
		uint8_t b[8];
		size_t got = 0;
		citcat_cursor_read(c, a->addr, b, a->size, &got);
		if (got != a->size || le(b, a->size) != a->value) {
			fprintf(stderr, "instant %llu: the store to 0x%08x is not in memory\n", (unsigned long long)n, a->addr);
			check_failures++;
		}
	}
}

static void check_regs(struct citcat_cursor *c, int m7)
{
	for (int i = 0; i < NSAMP; i++) {
		uint64_t k = samp[i];
		if (k + 1 >= n_insn || after_irq[k])
			continue;
		seek(c, k + 1);
		struct citcat_cursor_regs r;
		citcat_cursor_regs(c, &r);
		int bad = 0;
		for (int j = 0; j < 15; j++)
			bad |= r.r[j] != samp_regs[i][j];
		/* the PC: the oracle's (check_at); the observer reads the next
		 * executed instruction's, which is later when the next one is
		 * a condition-failed one in an IT block (no code hook) */
		bad |= r.r[15] != pc[k + 1];
		bad |= (r.cpsr & ~IT_MASK) != (samp_regs[i][CITCAT_OBS_CPSR] & ~IT_MASK);
		if (m7)
			bad |= r.control != samp_regs[i][CITCAT_OBS_SPSR];
		if (bad) {
			fprintf(stderr, "instant %llu: registers differ from the observer's:", (unsigned long long)k + 1);
			for (int j = 0; j < 17; j++)
				fprintf(stderr, " %x/%x", j < 16 ? r.r[j] : r.cpsr, samp_regs[i][j]);
			fprintf(stderr, "\n");
			check_failures++;
		}
	}
}

static void run_checks(const char *ims, const char *aes, const char *cat, uint64_t budget, uint64_t interval, int m7)
{
	struct citcat_cursor_config cfg;
	citcat_cursor_config_default(&cfg);
	if (cat) {
		cfg.cat_path = cat;
	} else {
		cfg.ims_path = ims;
		cfg.aes_path = aes;
	}
	cfg.budget = budget;
	cfg.interval = interval;
	struct citcat_cursor *c;
	int rc = citcat_cursor_open(&c, &cfg);
	if (rc) {
		fprintf(stderr, "open: %s\n", citcat_cursor_error(c)->msg);
		check_failures++;
		citcat_cursor_close(c);
		return;
	}
	struct citcat_cursor_info info;
	CHECK_EQ(citcat_cursor_info(c, &info), 0);
	CHECK_EQ(info.insns, n_insn);
	CHECK_EQ(citcat_cursor_now(c), 0);
	check_at(c, 0);

	/* sampled instants in a shuffled order */
	uint64_t pts[200];
	size_t np = 0;
	pts[np++] = 0;
	pts[np++] = n_insn - 1;
	pts[np++] = n_insn / 2;
	while (np < 200)
		pts[np++] = rnd(n_insn);
	for (size_t i = 0; i < np; i++) {
		seek(c, pts[i]);
		check_at(c, pts[i]);
		check_stores(c, pts[i]);
		if (pts[i] + 1 < n_insn) { /* and the one after, forwards */
			seek(c, pts[i] + 1);
			check_stores(c, pts[i] + 1);
			check_at(c, pts[i] + 1);
		}
	}
	check_regs(c, m7);

	/* stops inside IT blocks (the ITSTATE restored into the CPSR/xPSR),
	 * then steps on through the rest of the block and beyond */
	for (size_t i = 0; i < n_it; i++) {
		if (it_at[i] + 12 >= n_insn)
			continue;
		seek(c, it_at[i]);
		check_at(c, it_at[i]);
		struct citcat_cursor_stop st1;
		for (uint64_t k = 1; k <= 10; k++) {
			CHECK_EQ(citcat_cursor_run(c, 0, CITCAT_CURSOR_RUN_STEP, &st1), 0);
			check_at(c, it_at[i] + k);
		}
		/* and back into the block, by a snapshot and a run */
		seek(c, it_at[i] + 1);
		check_at(c, it_at[i] + 1);
		seek(c, it_at[i] + 6);
		check_at(c, it_at[i] + 6);
	}

	/* 1000 steps forwards, 1000 back */
	uint64_t mid = n_insn / 3;
	seek(c, mid);
	struct citcat_cursor_regs r0, r1;
	citcat_cursor_regs(c, &r0);
	struct citcat_cursor_stop st;
	for (int i = 0; i < 1000 && mid + i + 1 < n_insn; i++) {
		CHECK_EQ(citcat_cursor_run(c, 0, CITCAT_CURSOR_RUN_STEP, &st), 0);
		CHECK_EQ(st.reason, CITCAT_CURSOR_STEP);
		CHECK_EQ(st.insn, mid + i + 1);
		struct citcat_cursor_regs r;
		citcat_cursor_regs(c, &r);
		if (r.r[15] != pc[mid + i + 1]) {
			CHECK_EQ(r.r[15], pc[mid + i + 1]);
			break;
		}
	}
	for (int i = 0; i < 1000 && citcat_cursor_now(c) > mid; i++) {
		uint64_t was = citcat_cursor_now(c);
		CHECK_EQ(citcat_cursor_run(c, 1, CITCAT_CURSOR_RUN_STEP, &st), 0);
		CHECK_EQ(st.insn, was - 1);
		struct citcat_cursor_regs r;
		citcat_cursor_regs(c, &r);
		if (r.r[15] != pc[was - 1]) {
			CHECK_EQ(r.r[15], pc[was - 1]);
			break;
		}
	}
	CHECK_EQ(citcat_cursor_now(c), mid);
	citcat_cursor_regs(c, &r1);
	CHECK(memcmp(&r0, &r1, sizeof r0) == 0);

	/* a breakpoint: the first execution after instant 0 forwards, the
	 * last before the end backwards */
	uint32_t bpa = pc[n_insn / 3];
	uint64_t first = 0, last = 0;
	for (uint64_t i = 1; i < n_insn; i++)
		if (pc[i] == bpa) {
			if (!first)
				first = i;
			last = i;
		}
	CHECK_EQ(citcat_cursor_break(c, bpa, 1), 0);
	seek(c, 0);
	CHECK_EQ(citcat_cursor_run(c, 0, 0, &st), 0);
	CHECK_EQ(st.reason, CITCAT_CURSOR_BREAK);
	CHECK_EQ(st.insn, first);
	CHECK_EQ(st.addr, bpa);
	CHECK_EQ(citcat_cursor_seek(c, UINT64_MAX, &st), 0);
	CHECK_EQ(st.reason, CITCAT_CURSOR_END);
	CHECK_EQ(st.insn, n_insn);
	CHECK_EQ(citcat_cursor_run(c, 1, 0, &st), 0);
	CHECK_EQ(st.reason, CITCAT_CURSOR_BREAK);
	CHECK_EQ(st.insn, last);
	check_at(c, last);
	CHECK_EQ(citcat_cursor_break(c, bpa, 0), 0);
	CHECK_EQ(citcat_cursor_break(c, bpa, 0), CITCAT_ERR_EOF);

	/* a write watchpoint on a word stored about halfway */
	uint32_t wa = 0;
	for (uint64_t i = n_insn / 2; i < n_insn && !wa; i++)
		for (uint32_t j = 0; j < nacc[i]; j++)
			if (accs[first_acc[i] + j].write && !accs[first_acc[i] + j].uncached) {
				wa = accs[first_acc[i] + j].addr;
				break;
			}
	if (wa) {
		uint64_t wfirst = UINT64_MAX, wlast = 0;
		for (uint64_t i = 0; i < n_insn; i++)
			for (uint32_t j = 0; j < nacc[i]; j++) {
				const struct acc *a = &accs[first_acc[i] + j];
				if (a->write && !a->uncached && a->addr <= wa && wa < a->addr + a->size) {
					if (wfirst == UINT64_MAX)
						wfirst = i;
					wlast = i;
				}
			}
		CHECK_EQ(citcat_cursor_watch(c, wa, 1, CITCAT_CURSOR_WATCH_WRITE, 1), 0);
		seek(c, 0);
		CHECK_EQ(citcat_cursor_run(c, 0, 0, &st), 0);
		CHECK_EQ(st.reason, CITCAT_CURSOR_WATCH);
		CHECK_EQ(st.insn, wfirst);
		CHECK_EQ(st.addr, wa);
		CHECK_EQ(st.access, CITCAT_CURSOR_WATCH_WRITE);
		check_at(c, wfirst);
		/* a single step here stops before the access: no motion */
		CHECK_EQ(citcat_cursor_run(c, 0, CITCAT_CURSOR_RUN_STEP, &st), 0);
		CHECK_EQ(st.reason, CITCAT_CURSOR_WATCH);
		CHECK_EQ(st.insn, wfirst);
		CHECK_EQ(citcat_cursor_seek(c, UINT64_MAX, &st), 0);
		CHECK_EQ(citcat_cursor_run(c, 1, 0, &st), 0);
		CHECK_EQ(st.reason, CITCAT_CURSOR_WATCH);
		CHECK_EQ(st.insn, wlast + 1);
		/* backwards over it: a single step back stays too */
		CHECK_EQ(citcat_cursor_run(c, 1, CITCAT_CURSOR_RUN_STEP, &st), 0);
		CHECK_EQ(st.reason, CITCAT_CURSOR_WATCH);
		CHECK_EQ(st.insn, wlast + 1);
		check_at(c, wlast + 1);
		CHECK_EQ(citcat_cursor_watch(c, wa, 1, CITCAT_CURSOR_WATCH_WRITE, 0), 0);
		CHECK_EQ(citcat_cursor_run(c, 1, CITCAT_CURSOR_RUN_STEP, &st), 0);
		CHECK_EQ(st.reason, CITCAT_CURSOR_STEP);
		CHECK_EQ(st.insn, wlast);
		check_at(c, wlast);
	}

	/* events: a forward run with CITCAT_CURSOR_RUN_EVENTS stops at the
	 * oracle's asynchronous events (the AES's), the list has them too */
	seek(c, 0);
	size_t ne = 0;
	for (size_t i = 0; i < n_evs && ne < 20; i++) {
		const struct ev *e = &evs[i];
		if (e->insn == 0 || (i && evs[i - 1].insn == e->insn))
			continue;
		/* on the M7 the oracle's entries include synchronous ones (not
		 * in the AES): look for the next asynchronous stop instead */
		CHECK_EQ(citcat_cursor_run(c, 0, CITCAT_CURSOR_RUN_EVENTS, &st), 0);
		if (m7 && st.insn != e->insn) {
			seek(c, e->insn);
			continue;
		}
		CHECK_EQ(st.reason, CITCAT_CURSOR_EVENT);
		CHECK_EQ(st.insn, e->insn);
		check_at(c, st.insn);
		ne++;
	}
	struct citcat_cursor_event *list = calloc(info.events ? info.events : 1, sizeof *list);
	size_t got = 0;
	uint64_t here = citcat_cursor_now(c);
	CHECK_EQ(citcat_cursor_events(c, 0, list, info.events, &got), 0);
	CHECK_EQ(got, info.events);
	CHECK_EQ(citcat_cursor_now(c), here);
	size_t matched = 0;
	for (size_t i = 0; i < got; i++) {
		if (list[i].kind != CITCAT_AES_IRQ && list[i].kind != CITCAT_AES_DMA)
			continue;
		int found = 0;
		for (size_t j = 0; j < n_evs && !found; j++)
			found = evs[j].insn == list[i].insn && evs[j].irq == (list[i].kind == CITCAT_AES_IRQ);
		if (!found) {
			fprintf(stderr, "event %zu (%s) at instant %llu is not in the oracle there\n", i,
				citcat_aes_kind_name(list[i].kind), (unsigned long long)list[i].insn);
			check_failures++;
		}
		matched++;
	}
	/* an event's instant: seek there, the event has just happened */
	if (got) {
		size_t k = got / 2;
		struct citcat_cursor_event one;
		size_t g1 = 0;
		CHECK_EQ(citcat_cursor_events(c, list[k].index, &one, 1, &g1), 0);
		CHECK_EQ(g1, 1);
		CHECK_EQ(one.insn, list[k].insn);
	}
	free(list);
	fprintf(stderr, "  %llu instructions, %zu events (%zu interrupt/DMA), %zu event stops checked, %zu IT blocks stopped in\n",
		(unsigned long long)n_insn, got, matched, ne, n_it);

	/* the end */
	CHECK_EQ(citcat_cursor_seek(c, UINT64_MAX, &st), 0);
	CHECK_EQ(st.reason, CITCAT_CURSOR_END);
	CHECK_EQ(citcat_cursor_run(c, 0, 0, &st), 0);
	CHECK_EQ(st.reason, CITCAT_CURSOR_END);
	CHECK_EQ(st.insn, n_insn);
	CHECK_EQ(citcat_cursor_info(c, &info), 0);
	CHECK_EQ(info.last, n_insn);
	seek(c, 0);
	CHECK_EQ(citcat_cursor_run(c, 1, 0, &st), 0);
	CHECK_EQ(st.reason, CITCAT_CURSOR_BEGIN);

	struct citcat_cursor_usage u;
	CHECK_EQ(citcat_cursor_usage(c, &u), 0);
	CHECK(u.used <= u.budget);
	CHECK(u.peak <= u.budget);
	CHECK(u.snapshots >= 1);
	fprintf(stderr, "  budget %llu: %llu snapshots kept (%llu taken, %llu dropped), peak %llu bytes, %llu restores, "
			"%llu instructions replayed\n",
		(unsigned long long)u.budget, (unsigned long long)u.snapshots, (unsigned long long)u.taken,
		(unsigned long long)u.dropped, (unsigned long long)u.peak, (unsigned long long)u.restores,
		(unsigned long long)u.replayed);
	if (budget == CITCAT_CURSOR_BUDGET_MIN && n_insn > 40 * interval)
		CHECK(u.dropped > 0);
	citcat_cursor_close(c);
}

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: test_cursor ORACLE.itrace RUN.cat WORK_DIR\n");
		return 2;
	}
	load_oracle(argv[1]);
	if (n_insn < 3000) {
		fprintf(stderr, "%s: too short a run to test with\n", argv[1]);
		return 2;
	}
	char ims_path[1024], aes_path[1024];
	snprintf(ims_path, sizeof ims_path, "%s/run.ims", argv[3]);
	snprintf(aes_path, sizeof aes_path, "%s/run.aes", argv[3]);
	struct citcat_ims ims;
	memset(&ims, 0, sizeof ims);
	struct citcat_errinfo err;
	if (citcat_ims_extract(argv[2], &ims, NULL, NULL, NULL, &err) || citcat_ims_write(&ims, ims_path, &err) ||
	    citcat_aes_extract(argv[2], aes_path, NULL, NULL, NULL, &err)) {
		fprintf(stderr, "extraction: %s\n", err.msg);
		return 2;
	}
	int m7 = ims.cfg.isa == CITCAT_TARGET_CORTEX_M7;
	citcat_ims_fini(&ims);
	for (int i = 0; i < NSAMP; i++)
		samp[i] = rnd(n_insn);
	struct citcat_replay_observer obs = {.record = obs_record};
	struct citcat_replay_config rc;
	citcat_replay_config_default(&rc);
	rc.ims_path = ims_path;
	rc.aes_path = aes_path;
	rc.observer = &obs;
	struct citcat_replay_result res;
	if (citcat_replay_run(&rc, &res, &err)) {
		fprintf(stderr, "replay: %s\n", err.msg);
		return 2;
	}
	fprintf(stderr, "IMS + AES, default budget, interval 65536:\n");
	run_checks(ims_path, aes_path, NULL, 0, 65536, m7);
	fprintf(stderr, "IMS + AES, minimum budget, interval 4096:\n");
	run_checks(ims_path, aes_path, NULL, CITCAT_CURSOR_BUDGET_MIN, 4096, m7);
	fprintf(stderr, "CAT, default budget, interval 32768:\n");
	run_checks(NULL, NULL, argv[2], 0, 32768, m7);
	free(pc);
	free(first_acc);
	free(thumb);
	free(nacc);
	free(after_irq);
	free(after_dma);
	free(accs);
	free(evs);
	CHECK_DONE();
}
