/* Brute-force reference for the WET (issue 10): replays the run with an
 * observer keeping the whole trace in memory (PCs, accesses, register
 * snapshots), computes every answer directly from it, and compares with
 * what the WET file returns through the library:
 *  - the control flow, forwards and backwards, equals the itrace's PCs;
 *  - every instance's accesses equal the itrace's;
 *  - every instance's producers equal the reference's (a last-writer table
 *    over registers, flags, SPSRs and RAM bytes, recomputed here);
 *  - every register result equals the snapshot after the instruction;
 *  - the decoder's def sets are complete: a register it does not list as
 *    written keeps its value across the instruction (checked on every
 *    instance, from the snapshots);
 *  - backward and forward slices of at least 20 instances equal a BFS over
 *    the reference's dependence lists.
 * It also writes the expected text answers of `citcat wet query` (cf, loads,
 * addrs, three slices) to OUTDIR for the CLI test to diff against.
 * Usage: test_wet_ref RUN.ims RUN.aes RUN.itrace RUN.wet OUTDIR [SPACED]
 * SPACED (default 16) evenly spaced slice starts are taken besides the last
 * instance, 4 loads and up to 3 instances in interrupt handlers; the
 * sanitizer build passes fewer (exactness is checked by the release build,
 * the sanitizers check the same paths for memory errors). */
#include "defuse.h"
#include "ims.h"
#include "itrace.h"
#include "replay.h"
#include "wet.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REQ(c, ...) do { if (!(c)) { fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #c); fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); exit(1); } } while (0)

struct ev { /* an interrupt entry or DMA transfer before instruction AT */
	uint64_t at;
	int dma;
	uint32_t a, b;
};

struct ref {
	uint64_t n, cap;
	uint32_t *pc, *word, (*regs)[CITCAT_OBS_NREGS];
	uint32_t *acc_first, *acc_n;
	struct citcat_access *acc;
	uint64_t nacc, acc_cap;
	struct ev *ev;
	uint64_t nev, ev_cap;
	uint32_t start[CITCAT_OBS_NREGS];
	/* results */
	uint64_t *dep_first;
	uint32_t *dep_n;
	uint64_t *dep;
	uint64_t ndep, dep_cap;
};

static void *grow(void *p, uint64_t *cap, uint64_t need, size_t elem)
{
	if (need <= *cap)
		return p;
	uint64_t nc = *cap ? *cap : 1024;
	while (nc < need)
		nc *= 2;
	p = realloc(p, nc * elem);
	REQ(p != NULL, "out of memory");
	*cap = nc;
	return p;
}

static int obs_record(void *ctx, const struct citcat_itrace_rec *r, const uint32_t *regs)
{
	struct ref *f = ctx;
	if (r->kind == CITCAT_REC_IRQ) {
		f->ev = grow(f->ev, &f->ev_cap, f->nev + 1, sizeof *f->ev);
		f->ev[f->nev++] = (struct ev){f->n, 0, r->line, (uint32_t)r->pc};
		return 0;
	}
	if (f->n == f->cap) {
		uint64_t c = f->cap;
		f->pc = grow(f->pc, &c, f->n + 1, sizeof *f->pc);
		c = f->cap;
		f->word = grow(f->word, &c, f->n + 1, sizeof *f->word);
		c = f->cap;
		f->regs = grow(f->regs, &c, f->n + 1, sizeof *f->regs);
		c = f->cap;
		f->acc_first = grow(f->acc_first, &c, f->n + 1, sizeof *f->acc_first);
		c = f->cap;
		f->acc_n = grow(f->acc_n, &c, f->n + 1, sizeof *f->acc_n);
		f->cap = c;
	}
	f->pc[f->n] = (uint32_t)r->pc;
	f->word[f->n] = r->word;
	memcpy(f->regs[f->n], regs, sizeof f->regs[0]);
	f->acc = grow(f->acc, &f->acc_cap, f->nacc + r->n_acc, sizeof *f->acc);
	f->acc_first[f->n] = (uint32_t)f->nacc;
	f->acc_n[f->n] = r->n_acc;
	memcpy(f->acc + f->nacc, r->acc, r->n_acc * sizeof *r->acc);
	f->nacc += r->n_acc;
	f->n++;
	return 0;
}

static int obs_dma(void *ctx, uint32_t addr, uint32_t len)
{
	struct ref *f = ctx;
	f->ev = grow(f->ev, &f->ev_cap, f->nev + 1, sizeof *f->ev);
	f->ev[f->nev++] = (struct ev){f->n, 1, addr, len};
	return 0;
}

static int obs_start(void *ctx, const uint32_t *regs)
{
	memcpy(((struct ref *)ctx)->start, regs, sizeof ((struct ref *)ctx)->start);
	return 0;
}

static int cmp_desc(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
	return a < b ? 1 : a > b ? -1 : 0;
}

/* Last-writer recomputation, straight over the in-memory trace: full
 * arrays, no pages, no streams. */
static void compute_deps(struct ref *f, struct wet_decoder *dec, uint32_t ram_base, uint32_t ram_size)
{
	uint64_t *mem = calloc(ram_size, sizeof *mem); /* INDEX + 1 */
	uint64_t reg[WET_NPHYS] = {0};
	REQ(mem != NULL, "out of memory");
	f->dep_first = malloc(f->n * sizeof *f->dep_first);
	f->dep_n = malloc(f->n * sizeof *f->dep_n);
	uint32_t cpsr = f->start[CITCAT_OBS_CPSR];
	uint64_t e = 0, defs_checked = 0;
	for (uint64_t j = 0; j < f->n; j++) {
		const uint32_t *before = j ? f->regs[j - 1] : f->start;
		int after_irq = 0;
		for (; e < f->nev && f->ev[e].at == j; e++) {
			if (f->ev[e].dma) {
				for (uint32_t i = 0; i < f->ev[e].b; i++)
					mem[f->ev[e].a + i - ram_base] = 0;
			} else {
				uint32_t irq = (cpsr & ~0x1fu) | 0x92u;
				reg[wet_phys(WET_R_SPSR, irq)] = reg[wet_phys(WET_R_FLAGS, cpsr)];
				reg[wet_phys(14, irq)] = 0;
				cpsr = irq;
				after_irq = 1;
			}
		}
		struct wet_du du;
		wet_decode(dec, f->pc[j], f->word[j], &du);
		int passed = wet_cond_passed(du.cond, cpsr);
		uint64_t p[600];
		unsigned np = 0;
#define ADDP(w) do { uint64_t w_ = (w); int dup_ = !w_; for (unsigned q_ = 0; q_ < np && !dup_; q_++) dup_ = p[q_] == w_; if (!dup_) p[np++] = w_; } while (0)
		if (passed)
			for (unsigned i = 0; i < du.nuse; i++)
				ADDP(reg[wet_phys(du.use[i], cpsr)]);
		else
			ADDP(reg[wet_phys(WET_R_FLAGS, cpsr)]);
		const struct citcat_access *a = f->acc + f->acc_first[j];
		for (uint32_t k = 0; k < f->acc_n[j]; k++)
			if (!a[k].write && a[k].addr - ram_base < ram_size)
				for (unsigned i = 0; i < a[k].size; i++)
					ADDP(mem[a[k].addr + i - ram_base]);
		qsort(p, np, sizeof p[0], cmp_desc);
		f->dep = grow(f->dep, &f->dep_cap, f->ndep + np, sizeof *f->dep);
		f->dep_first[j] = f->ndep;
		f->dep_n[j] = np;
		for (unsigned i = 0; i < np; i++)
			f->dep[f->ndep++] = p[i] - 1;
		/* the def set is complete: what it leaves out keeps its value */
		const uint32_t *aft = f->regs[j];
		if (!after_irq && (before[CITCAT_OBS_CPSR] & 0x1f) == (aft[CITCAT_OBS_CPSR] & 0x1f)) {
			for (unsigned r = 0; r <= WET_R_FLAGS; r++) {
				int listed = 0;
				for (unsigned i = 0; passed && i < du.ndef; i++)
					listed |= du.def[i] == r;
				uint32_t b0 = r < 15 ? before[r] : before[CITCAT_OBS_CPSR] >> 27;
				uint32_t a0 = r < 15 ? aft[r] : aft[CITCAT_OBS_CPSR] >> 27;
				REQ(listed || b0 == a0, "instruction %" PRIu64 " (pc 0x%08x, word %08x) changed r%u (%08x -> %08x) "
					"though its def set leaves it out", j, f->pc[j], f->word[j], r, b0, a0);
			}
			defs_checked++;
		}
		if (passed) {
			for (unsigned i = 0; i < du.ndef; i++)
				reg[wet_phys(du.def[i], cpsr)] = j + 1;
			for (uint32_t k = 0; k < f->acc_n[j]; k++)
				if (a[k].write && a[k].addr - ram_base < ram_size)
					for (unsigned i = 0; i < a[k].size; i++)
						mem[a[k].addr + i - ram_base] = j + 1;
		}
		cpsr = aft[CITCAT_OBS_CPSR];
	}
	REQ(defs_checked > f->n / 2, "too few def sets checked");
	free(mem);
}

/* ---- comparison of the WET walk with the reference ---- */
struct wctx {
	struct ref *f;
	struct wet_decoder *dec;
	uint64_t expect, seen;
	int backward;
};

static int walk_cb(void *ctx, const struct citcat_wet_insn *in)
{
	struct wctx *c = ctx;
	struct ref *f = c->f;
	uint64_t j = in->index;
	REQ(j == c->expect, "walk delivered instruction %" PRIu64 ", expected %" PRIu64, j, c->expect);
	c->expect += c->backward ? (uint64_t)-1 : 1;
	c->seen++;
	REQ(in->pc == f->pc[j] && in->word == f->word[j], "instruction %" PRIu64 ": pc/word differ", j);
	REQ(in->n_acc == f->acc_n[j], "instruction %" PRIu64 ": %u accesses, reference %u", j, in->n_acc, f->acc_n[j]);
	const struct citcat_access *a = f->acc + f->acc_first[j];
	for (uint32_t k = 0; k < in->n_acc; k++)
		REQ(in->acc[k].addr == a[k].addr && in->acc[k].size == a[k].size && in->acc[k].write == a[k].write &&
		    in->acc[k].value == a[k].value, "instruction %" PRIu64 ": access %u differs", j, k);
	REQ(in->n_dep == f->dep_n[j], "instruction %" PRIu64 " (pc 0x%08x): %u producers, reference %u", j, in->pc, in->n_dep,
	    f->dep_n[j]);
	for (uint32_t k = 0; k < in->n_dep; k++)
		REQ(in->dep[k] == f->dep[f->dep_first[j] + k], "instruction %" PRIu64 ": producer %u differs", j, k);
	struct wet_du du;
	wet_decode(c->dec, in->pc, in->word, &du);
	if (in->executed) {
		REQ(in->n_val == du.ndef, "instruction %" PRIu64 ": %u results", j, in->n_val);
		for (unsigned k = 0; k < du.ndef; k++) {
			unsigned d = du.def[k];
			uint32_t v = d < 15 ? f->regs[j][d] : d == WET_R_FLAGS ? f->regs[j][CITCAT_OBS_CPSR] >> 27 : f->regs[j][CITCAT_OBS_SPSR];
			REQ(in->val[k] == v, "instruction %" PRIu64 ": result %u is %08x, snapshot %08x", j, k, in->val[k], v);
		}
	}
	return 0;
}

/* ---- slices over the reference ---- */
static uint64_t ref_backward(const struct ref *f, uint64_t start, uint8_t *mark)
{
	memset(mark, 0, f->n);
	mark[start] = 1;
	uint64_t n = 0;
	for (uint64_t j = start + 1; j-- > 0;) {
		if (!mark[j])
			continue;
		n++;
		for (uint32_t k = 0; k < f->dep_n[j]; k++)
			mark[f->dep[f->dep_first[j] + k]] = 1;
	}
	return n;
}

static uint64_t ref_forward(const struct ref *f, uint64_t start, uint8_t *mark)
{
	memset(mark, 0, f->n);
	mark[start] = 1;
	uint64_t n = 1;
	for (uint64_t j = start + 1; j < f->n; j++)
		for (uint32_t k = 0; k < f->dep_n[j]; k++)
			if (mark[f->dep[f->dep_first[j] + k]]) {
				mark[j] = 1;
				n++;
				break;
			}
	return n;
}

struct sctx {
	const uint8_t *mark;
	uint64_t n, last;
	int forward;
};

static int slice_cb(void *ctx, const struct citcat_wet_insn *in)
{
	struct sctx *s = ctx;
	REQ(s->mark[in->index], "slice holds instruction %" PRIu64 ", the reference's does not", in->index);
	REQ(!s->n || (s->forward ? in->index > s->last : in->index < s->last), "slice order");
	s->last = in->index;
	s->n++;
	return 0;
}

static FILE *out_file(const char *dir, const char *name)
{
	char p[4096];
	snprintf(p, sizeof p, "%s/%s", dir, name);
	FILE *o = fopen(p, "w");
	REQ(o != NULL, "cannot create %s", p);
	return o;
}

int main(int argc, char **argv)
{
	REQ(argc == 6 || argc == 7, "usage: test_wet_ref RUN.ims RUN.aes RUN.itrace RUN.wet OUTDIR [SPACED]");
	unsigned spaced = argc == 7 ? (unsigned)atoi(argv[6]) : 16;
	REQ(spaced >= 3 && spaced <= 30, "SPACED from 3 to 30");
	struct ref f = {0};
	struct citcat_replay_observer obs = {&f, obs_record, obs_dma, obs_start, NULL};
	struct citcat_replay_config rc;
	citcat_replay_config_default(&rc);
	rc.ims_path = argv[1];
	rc.aes_path = argv[2];
	rc.observer = &obs;
	struct citcat_replay_result res;
	struct citcat_errinfo err;
	REQ(citcat_replay_run(&rc, &res, &err) == 0, "replay: %s", err.msg);
	struct citcat_ims ims;
	REQ(citcat_ims_read(argv[1], &ims, &err) == 0, "%s", err.msg);
	struct wet_decoder *dec;
	REQ(wet_decoder_open(&dec) == 0, "capstone");
	compute_deps(&f, dec, ims.cfg.ram_base, ims.cfg.ram_size);

	/* the itrace (the capture's ground truth) against the observed trace,
	 * and the expected CLI answers from the itrace alone */
	struct citcat_itrace_reader *ir;
	REQ(citcat_itrace_reader_open(&ir, argv[3]) == 0, "%s", citcat_itrace_reader_error(ir)->msg);
	static struct citcat_itrace_rec r;
	FILE *cf = out_file(argv[5], "cf.txt"), *ld = out_file(argv[5], "loads.txt"), *ad = out_file(argv[5], "addrs.txt");
	uint64_t j = 0;
	int k;
	while ((k = citcat_itrace_next(ir, &r)) == 1) {
		if (r.kind != CITCAT_REC_INSN)
			continue;
		REQ(j < f.n && r.pc == f.pc[j] && r.n_acc == f.acc_n[j], "itrace record %" PRIu64 " differs from the replay", j);
		fprintf(cf, "0x%08x\n", (uint32_t)r.pc);
		for (uint32_t q = 0; q < r.n_acc; q++) {
			const struct citcat_access *a = &r.acc[q];
			fprintf(ad, "%" PRIu64 " 0x%08x 0x%08x %u 0x%" PRIx64 "\n", j, (uint32_t)r.pc, (uint32_t)a->addr, a->size, a->value);
			if (!a->write)
				fprintf(ld, "%" PRIu64 " 0x%08x 0x%08x %u 0x%" PRIx64 "\n", j, (uint32_t)r.pc, (uint32_t)a->addr, a->size,
					a->value);
		}
		j++;
	}
	REQ(k == 0 && j == f.n, "itrace ends early or has an error");
	citcat_itrace_reader_close(ir);
	fclose(cf);
	fclose(ld);
	fclose(ad);

	struct citcat_wet *w;
	REQ(citcat_wet_open(&w, argv[4]) == 0, "%s", citcat_wet_error(w)->msg);
	struct citcat_wet_info info;
	citcat_wet_info(w, &info);
	REQ(info.insns == f.n, "WET has %" PRIu64 " instructions, the run %" PRIu64, info.insns, f.n);
	uint64_t nirq = 0;
	for (uint64_t e = 0; e < f.nev; e++)
		nirq += !f.ev[e].dma;
	REQ(info.irqs == nirq, "WET has %" PRIu64 " interrupts, the run %" PRIu64, info.irqs, nirq);
	for (int back = 0; back < 2; back++) {
		struct wctx c = {&f, dec, back ? f.n - 1 : 0, 0, back};
		struct citcat_wet_walk wk = {.backward = back, .by_index = 1,
					     .what = CITCAT_WET_W_ACC | CITCAT_WET_W_DEP | CITCAT_WET_W_VAL, .from = 0,
					     .to = UINT64_MAX, .cb = walk_cb, .ctx = &c};
		REQ(citcat_wet_walk(w, &wk) == 0, "walk: %s", citcat_wet_error(w)->msg);
		REQ(c.seen == f.n, "walk saw %" PRIu64 " of %" PRIu64, c.seen, f.n);
	}
	/* slices: 24 starting points: evenly spaced, plus the last instance,
	 * plus loads, plus instances inside interrupt handlers */
	uint64_t starts[40];
	unsigned ns = 0;
	for (unsigned i = 0; i < spaced; i++)
		starts[ns++] = f.n * (2 * i + 1) / (2 * spaced);
	starts[ns++] = f.n - 1;
	for (uint64_t q = f.n / 3, got = 0; q < f.n && got < 4; q += 997)
		if (f.acc_n[q] && !f.acc[f.acc_first[q]].write)
			starts[ns++] = q, got++;
	for (uint64_t e = 0, got = 0; e < f.nev && got < 3; e += 1 + f.nev / 4)
		if (!f.ev[e].dma && f.ev[e].at + 5 < f.n)
			starts[ns++] = f.ev[e].at + 5, got++;
	uint8_t *mark = malloc(f.n);
	REQ(mark != NULL, "out of memory");
	uint64_t tb = 0, tf = 0;
	for (unsigned i = 0; i < ns; i++) {
		for (int fw = 0; fw < 2; fw++) {
			uint64_t want = fw ? ref_forward(&f, starts[i], mark) : ref_backward(&f, starts[i], mark);
			struct sctx s = {mark, 0, 0, fw};
			REQ(citcat_wet_slice(w, starts[i], fw, slice_cb, &s, NULL, NULL) == 0, "slice: %s", citcat_wet_error(w)->msg);
			REQ(s.n == want, "%s slice of %" PRIu64 ": %" PRIu64 " instances, reference %" PRIu64,
			    fw ? "forward" : "backward", starts[i], s.n, want);
			*(fw ? &tf : &tb) += want;
			if (i < 3) { /* expected CLI answers */
				char name[64];
				snprintf(name, sizeof name, "%s%u.txt", fw ? "fslice" : "slice", i);
				FILE *o = out_file(argv[5], name);
				for (uint64_t q = 0; q < f.n; q++)
					if (mark[q])
						fprintf(o, "%" PRIu64 "\n", q);
				fclose(o);
			}
		}
	}
	FILE *o = out_file(argv[5], "starts.txt");
	for (unsigned i = 0; i < 2; i++)
		fprintf(o, "%" PRIu64 "\n", starts[i]);
	fclose(o);
	printf("wet reference: %" PRIu64 " instructions, %" PRIu64 " interrupts/DMA, %" PRIu64
	       " producers: walks both ways exact; %u backward and %u forward slices equal (avg %.1f / %.1f instances)\n",
	       f.n, f.nev, f.ndep, ns, ns, (double)tb / ns, (double)tf / ns);
	citcat_wet_close(w);
	wet_decoder_close(dec);
	citcat_ims_fini(&ims);
	free(mark);
	free(f.pc); free(f.word); free(f.regs); free(f.acc_first); free(f.acc_n); free(f.acc); free(f.ev);
	free(f.dep_first); free(f.dep_n); free(f.dep);
	return 0;
}
