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
 *  - every instance's control parent equals the reference's, computed here
 *    independently of wet/cdep.c: the activations from its own shadow
 *    stack, each function's dynamic CFG from the in-memory trace,
 *    post-dominator sets by iterative data flow over bit sets (not the
 *    dominator-tree algorithm), control dependence straight from its
 *    definition (B depends on A when B post-dominates a successor of A and
 *    does not strictly post-dominate A), and the dynamic parent as the most
 *    recent instance of a controlling statement in the same activation
 *    (else the activation's call; none for the first activation and for
 *    interrupt handlers), and no handler instance has a control parent
 *    outside its handler;
 *  - backward and forward slices of at least 20 instances equal a BFS over
 *    the reference's data and control dependence lists.
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
#include <citcat/wet.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REQ(c, ...) do { if (!(c)) { fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #c); fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); exit(1); } } while (0)

struct ev { /* an interrupt entry or DMA transfer before instruction AT */
	uint64_t at;
	int dma;
	uint32_t a, b;
	/* a Cortex-M7 entry: its accesses (stacking, vector) and the registers
	 * after it (xPSR in the CPSR slot, CONTROL in the SPSR slot) */
	uint32_t nacc;
	struct citcat_access acc[9];
	uint32_t regs[CITCAT_OBS_NREGS];
};

struct ref {
	int m7; /* a Cortex-M7 run (isa 2) */
	uint64_t n, cap;
	uint32_t *pc, *word, (*regs)[CITCAT_OBS_NREGS];
	uint8_t *size, *thumb, *it; /* per instance: 2 or 4 bytes, Thumb state, IT state before it */
	struct wet_itk itk;
	uint32_t cpsr; /* before the next instruction, as the register model has it */
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
	uint64_t *cdp; /* control parent INDEX + 1, 0 none */
	uint64_t ncdp, handler_insns;
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
	if (r->kind == CITCAT_REC_IRQ && f->m7) {
		f->ev = grow(f->ev, &f->ev_cap, f->nev + 1, sizeof *f->ev);
		struct ev *e = &f->ev[f->nev++];
		*e = (struct ev){f->n, 0, r->line, (uint32_t)r->pc, r->n_acc < 9 ? r->n_acc : 9, {{0}}, {0}};
		memcpy(e->acc, r->acc, e->nacc * sizeof *r->acc);
		memcpy(e->regs, regs, sizeof e->regs);
		f->itk.it = 0;
		f->cpsr = regs[CITCAT_OBS_CPSR];
		return 0;
	}
	if (r->kind == CITCAT_REC_IRQ) {
		f->ev = grow(f->ev, &f->ev_cap, f->nev + 1, sizeof *f->ev);
		f->ev[f->nev++] = (struct ev){f->n, 0, r->line, (uint32_t)r->pc, 0, {{0}}, {0}};
		REQ(wet_itk_irq(&f->itk, (uint32_t)r->pc) == 0, "a nested interrupt over an IT block");
		f->cpsr = (f->cpsr & ~0x1fu) | 0x92u;
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
		c = f->cap;
		f->size = grow(f->size, &c, f->n + 1, 1);
		c = f->cap;
		f->thumb = grow(f->thumb, &c, f->n + 1, 1);
		c = f->cap;
		f->it = grow(f->it, &c, f->n + 1, 1);
		f->cap = c;
	}
	f->pc[f->n] = (uint32_t)r->pc;
	f->word[f->n] = r->word;
	f->size[f->n] = r->thumb ? r->size : 4;
	f->thumb[f->n] = r->thumb;
	f->it[f->n] = (uint8_t)f->itk.it;
	if (!f->m7) /* the M7's: compute_deps_m7, which finds the exception returns */
		wet_itk_step(&f->itk, r->word, f->size[f->n], r->thumb, f->cpsr, regs[CITCAT_OBS_CPSR]);
	f->cpsr = regs[CITCAT_OBS_CPSR];
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
	f->ev[f->nev++] = (struct ev){f->n, 1, addr, len, 0, {{0}}, {0}};
	return 0;
}

static int obs_start(void *ctx, const uint32_t *regs)
{
	memcpy(((struct ref *)ctx)->start, regs, sizeof ((struct ref *)ctx)->start);
	((struct ref *)ctx)->cpsr = regs[CITCAT_OBS_CPSR];
	return 0;
}

static int cmp_desc(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
	return a < b ? 1 : a > b ? -1 : 0;
}

#define ADDP(w) do { uint64_t w_ = (w); int dup_ = !w_; for (unsigned q_ = 0; q_ < np && !dup_; q_++) dup_ = p[q_] == w_; if (!dup_) p[np++] = w_; } while (0)

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
		wet_decode_isa(dec, f->pc[j], f->word[j], f->size[j], f->thumb[j], f->it[j], &du);
		int passed = wet_cond_passed(du.cond, cpsr);
		uint64_t p[600];
		unsigned np = 0;
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

/* The Cortex-M7 register model (WET.md "Cortex-M7"), written here from
 * TARGET-M7.md rather than taken from wet_build.c: locations through
 * wet_phys_m (SP by the stack in use); an entry copies the producers of
 * R0-R3, R12, LR and the flags to the stacked words (a full stacking:
 * eight ascending word writes and the vector read) and clears LR's; a
 * fault taken at the instruction just before (return address = its PC)
 * undoes that instruction's register writes; an exception return, found
 * here by its effect (in handler mode, the last eight accesses are
 * ascending word reads whose seventh, the stacked return address, is
 * where execution goes next), defines R0-R3, R12, LR, the flags, the SP
 * it returns to, CONTROL and FAULTMASK. */
static int m7_is_return(const struct ref *f, uint64_t j, uint64_t e_next, const uint32_t *st)
{
	if (!(st[CITCAT_OBS_CPSR] & 0x1ff) || f->acc_n[j] < 8 || j + 1 >= f->n)
		return 0;
	const struct citcat_access *a = f->acc + f->acc_first[j] + f->acc_n[j] - 8;
	for (unsigned k = 0; k < 8; k++)
		if (a[k].write || a[k].size != 4 || (k && a[k].addr != a[k - 1].addr + 4))
			return 0;
	uint32_t next = e_next < f->nev && f->ev[e_next].at == j + 1 && !f->ev[e_next].dma ? f->ev[e_next].b : f->pc[j + 1];
	return ((uint32_t)a[6].value & ~1u) == next;
}

static void compute_deps_m7(struct ref *f, struct wet_decoder *dec, uint32_t ram_base, uint32_t ram_size)
{
	uint64_t *mem = calloc(ram_size, sizeof *mem); /* INDEX + 1 */
	uint64_t reg[WET_NPHYS] = {0};
	REQ(mem != NULL, "out of memory");
	f->dep_first = malloc(f->n * sizeof *f->dep_first);
	f->dep_n = malloc(f->n * sizeof *f->dep_n);
	uint64_t e = 0, defs_checked = 0, returns = 0, undone = 0, it_returns = 0;
	unsigned ul = 0, it = 0; /* the IT state before j */
	uint8_t uph[64];
	uint64_t uold[64];
#define SETW(ph, w) do { uph[ul] = (uint8_t)(ph); uold[ul++] = reg[ph]; reg[ph] = (w); } while (0)
	for (uint64_t j = 0; j < f->n; j++) {
		const uint32_t *st = j ? f->regs[j - 1] : f->start; /* the state before j */
		int after_irq = 0;
		for (; e < f->nev && f->ev[e].at == j; e++) {
			const struct ev *v = &f->ev[e];
			if (v->dma) {
				for (uint32_t i = 0; i < v->b; i++)
					mem[v->a + i - ram_base] = 0;
				continue;
			}
			if (!after_irq && j && v->a >= 3 && v->a <= 6 && v->b == f->pc[j - 1]) {
				while (ul) { /* the instruction before faulted */
					ul--;
					reg[uph[ul]] = uold[ul];
				}
				undone++;
			}
			int full = v->nacc == 9;
			for (unsigned k = 0; k < 8 && full; k++)
				full = v->acc[k].write && v->acc[k].size == 4 && (!k || v->acc[k].addr == v->acc[k - 1].addr + 4);
			static const int src[8] = {0, 1, 2, 3, 12, 14, -1, 25};
			for (unsigned k = 0; k < v->nacc; k++)
				if (v->acc[k].write && v->acc[k].addr - ram_base < ram_size)
					for (unsigned i = 0; i < v->acc[k].size; i++)
						mem[v->acc[k].addr + i - ram_base] = full && k < 8 && src[k] >= 0 ? reg[src[k]] : 0;
			reg[14] = 0;
			st = v->regs;
			after_irq = 1;
			it = 0; /* an entry clears it */
		}
		ul = 0;
		f->it[j] = (uint8_t)it;
		it = wet_it_next(it, f->word[j], f->size[j], 1);
		uint32_t xpsr = st[CITCAT_OBS_CPSR];
		int psp = !(xpsr & 0x1ff) && (st[CITCAT_OBS_SPSR] & 2);
		struct wet_du du;
		wet_decode_isa(dec, f->pc[j], f->word[j], f->size[j], 1, f->it[j], &du);
		int passed = wet_cond_passed(du.cond, xpsr);
		uint64_t p[600];
		unsigned np = 0;
		if (passed) {
			for (unsigned i = 0; i < du.nuse; i++)
				ADDP(reg[wet_phys_m(du.use[i], psp)]);
			for (unsigned i = 0; i < du.nsuse; i++)
				ADDP(reg[wet_phys_sys(du.suse[i])]);
		} else {
			ADDP(reg[25]);
		}
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
		/* the def set is complete, where the mode, CONTROL and the special
		 * registers stay (entries, returns, MSR of a stack pointer or
		 * CONTROL move SP) */
		const uint32_t *aft = f->regs[j];
		if ((xpsr & 0x1ff) == (aft[CITCAT_OBS_CPSR] & 0x1ff) && st[CITCAT_OBS_SPSR] == aft[CITCAT_OBS_SPSR] && !du.nsdef) {
			for (unsigned r = 0; r <= WET_R_FLAGS; r++) {
				int listed = 0;
				for (unsigned i = 0; passed && i < du.ndef; i++)
					listed |= du.def[i] == r;
				uint32_t b0 = r < 15 ? st[r] : st[CITCAT_OBS_CPSR] >> 27;
				uint32_t a0 = r < 15 ? aft[r] : aft[CITCAT_OBS_CPSR] >> 27;
				REQ(listed || b0 == a0, "instruction %" PRIu64 " (pc 0x%08x, word %08x) changed r%u (%08x -> %08x) "
					"though its def set leaves it out", j, f->pc[j], f->word[j], r, b0, a0);
			}
			defs_checked++;
		}
		if (passed) {
			for (unsigned i = 0; i < du.ndef; i++)
				SETW(wet_phys_m(du.def[i], psp), j + 1);
			for (unsigned i = 0; i < du.nsdef; i++)
				SETW(wet_phys_sys(du.sdef[i]), j + 1);
			for (uint32_t k = 0; k < f->acc_n[j]; k++)
				if (a[k].write && a[k].addr - ram_base < ram_size)
					for (unsigned i = 0; i < a[k].size; i++)
						mem[a[k].addr + i - ram_base] = j + 1;
			if (m7_is_return(f, j, e, st)) {
				static const unsigned gp[7] = {0, 1, 2, 3, 12, 14, 25};
				for (unsigned i = 0; i < 7; i++)
					SETW(gp[i], j + 1);
				/* the SP it returns to: thread mode on the PSP when CONTROL.SPSEL is set after it */
				SETW(!(aft[CITCAT_OBS_CPSR] & 0x1ff) && (aft[CITCAT_OBS_SPSR] & 2) ? 15 : 13, j + 1);
				SETW(wet_phys_sys(WET_SYS_CONTROL), j + 1);
				SETW(wet_phys_sys(WET_SYS_FAULTMASK), j + 1);
				/* it resumes with the unstacked xPSR's IT state (IT[1:0]
				 * at 26:25, IT[7:2] at 15:10): not 0 after a precise fault
				 * inside an IT block (m7it) */
				uint32_t x = (uint32_t)f->acc[f->acc_first[j] + f->acc_n[j] - 1].value;
				it = ((x >> 25) & 3u) | ((x >> 10) & 0x3fu) << 2;
				if (it)
					it_returns++;
				returns++;
			}
		}
	}
#undef SETW
	REQ(defs_checked > f->n / 2, "too few def sets checked");
	printf("M7 model: %" PRIu64 " exception returns (%" PRIu64 " into an IT block), %" PRIu64
	       " faulted instructions undone, %" PRIu64 " def sets checked\n",
	       returns, it_returns, undone, defs_checked);
	free(mem);
}

/* ---- control dependences, independently of wet/cdep.c ---- */
#define RF_ROOT 0
#define RF_CALL 1
#define RF_IRQ 2

struct rfn { /* a function: its statements (PCs) and their successors */
	uint32_t entry, m;
	uint32_t *pc;           /* local node -> pc */
	uint32_t **succ, *nsucc; /* local successors; m = EXIT */
};

struct ract { /* an activation */
	int kind;
	uint32_t ret, mode, sp;
	int64_t fn;       /* -1 until its first instance */
	int64_t last;     /* local node of its last instance, -1 none */
	uint64_t call1, first, lastj;
};

/* A call that links, written here from the ARM ARM rather than taken from
 * cdep.c: A32 BL, BLX immediate and register; Thumb BL (T1: 11110 ...,
 * 11x1 ...), BLX immediate (T2: 11110 ..., 11x0 ... 0) and BLX Rm
 * (0100 0111 1 Rm 000).  PASSED: the condition (A32 field or IT) held. */
static int is_call_ref(uint32_t word, unsigned size, int thumb, int passed)
{
	if (thumb) {
		uint32_t h1 = word & 0xffff, h2 = word >> 16;
		if (!passed)
			return 0;
		if (size == 2)
			return (h1 & 0xff87) == 0x4780;
		return (h1 >> 11) == 0x1e && ((h2 >> 14) & 3) == 3 && ((h2 >> 12) & 1 || !(h2 & 1));
	}
	if (word >> 25 == 0x7D) /* 1111 101x: BLX immediate */
		return 1;
	if (!passed || word >> 28 == 15)
		return 0;
	return ((word >> 24) & 15) == 11 || (word & 0x0FFFFFF0u) == 0x012FFF30u;
}

static void add_succ(struct rfn *fn, uint32_t from, uint32_t to)
{
	for (uint32_t i = 0; i < fn->nsucc[from]; i++)
		if (fn->succ[from][i] == to)
			return;
	fn->succ[from] = realloc(fn->succ[from], (fn->nsucc[from] + 1) * sizeof **fn->succ);
	REQ(fn->succ[from] != NULL, "out of memory");
	fn->succ[from][fn->nsucc[from]++] = to;
}

static uint32_t fn_node(struct rfn *fn, uint32_t pc)
{
	for (uint32_t i = fn->m; i-- > 0;) /* linear: functions are small */
		if (fn->pc[i] == pc)
			return i;
	fn->pc = realloc(fn->pc, (fn->m + 1) * sizeof *fn->pc);
	fn->succ = realloc(fn->succ, (fn->m + 1) * sizeof *fn->succ);
	fn->nsucc = realloc(fn->nsucc, (fn->m + 1) * sizeof *fn->nsucc);
	REQ(fn->pc && fn->succ && fn->nsucc, "out of memory");
	fn->pc[fn->m] = pc;
	fn->succ[fn->m] = NULL;
	fn->nsucc[fn->m] = 0;
	return fn->m++;
}

static void compute_cdeps(struct ref *f)
{
	struct rfn *fns = NULL;
	uint64_t nfn = 0, fn_cap = 0, nact = 0, act_cap = 0;
	struct ract *act = NULL;
	uint64_t *stack = NULL, depth = 0, st_cap = 0;
	uint32_t *iact = malloc(f->n * sizeof *iact), *inode = malloc(f->n * sizeof *inode);
	REQ(iact && inode, "out of memory");
#define PUSH_ACT(K, RET, MODE, SP, CALL1) do { \
		act = grow(act, &act_cap, nact + 1, sizeof *act); \
		act[nact] = (struct ract){(K), (RET), (MODE), (SP), -1, -1, (CALL1), 0, 0}; \
		stack = grow(stack, &st_cap, depth + 1, sizeof *stack); \
		stack[depth++] = nact++; } while (0)
	PUSH_ACT(RF_ROOT, 0, 0, 0, 0);
	uint32_t cpsr = f->start[CITCAT_OBS_CPSR], sp = f->start[CITCAT_OBS_SP];
	uint32_t mctl = f->start[CITCAT_OBS_SPSR]; /* M7: CONTROL */
#define MODE(c) (f->m7 ? ((c) & 0x1ff) | (uint32_t)(!((c) & 0x1ff) && (mctl & 2)) << 9 : (c) & 0x1f)
	uint64_t e = 0;
	for (uint64_t j = 0; j < f->n; j++) {
		for (; e < f->nev && f->ev[e].at == j; e++)
			if (!f->ev[e].dma && f->m7) {
				/* the interrupted state from the stacked frame: IPSR of the
				 * stacked xPSR, the PSP when EXC_RETURN says so, SP =
				 * frame + 0x20 (+ 4 with the stacked alignment bit) */
				const struct ev *v = &f->ev[e];
				uint32_t m, s;
				if (v->nacc == 9 && v->acc[0].write) {
					uint32_t sx = (uint32_t)v->acc[7].value;
					m = (sx & 0x1ff) | (uint32_t)(v->regs[CITCAT_OBS_LR] == 0xFFFFFFFDu) << 9;
					s = (uint32_t)v->acc[0].addr + 0x20 + (sx >> 9 & 1) * 4;
				} else { /* a stacking error: the state before the entry as the observer showed it */
					int sync = j && e && !(f->ev[e - 1].at == j && !f->ev[e - 1].dma) &&
						   (cpsr & 0x1ff) == v->a && ((j > 1 ? f->regs[j - 2] : f->start)[CITCAT_OBS_CPSR] & 0x1ff) != v->a;
					const uint32_t *pre = sync ? (j > 1 ? f->regs[j - 2] : f->start) : NULL;
					m = pre ? (pre[CITCAT_OBS_CPSR] & 0x1ff) | (uint32_t)(!(pre[CITCAT_OBS_CPSR] & 0x1ff) && (pre[CITCAT_OBS_SPSR] & 2)) << 9 : MODE(cpsr);
					s = pre ? pre[CITCAT_OBS_SP] : sp;
				}
				PUSH_ACT(RF_IRQ, v->b, m, s, 0);
				cpsr = v->regs[CITCAT_OBS_CPSR];
				mctl = v->regs[CITCAT_OBS_SPSR];
				sp = v->regs[CITCAT_OBS_SP];
			} else if (!f->ev[e].dma) {
				PUSH_ACT(RF_IRQ, f->ev[e].b, cpsr & 0x1f, sp, 0);
				cpsr = (cpsr & ~0x1fu) | 0x92u;
			}
		uint32_t pc = f->pc[j];
		while (depth > 1) {
			struct ract *t = &act[stack[depth - 1]];
			if (t->fn < 0 || t->ret != pc || t->mode != MODE(cpsr) || t->sp != sp)
				break;
			add_succ(&fns[t->fn], (uint32_t)t->last, UINT32_MAX); /* EXIT, renumbered below */
			depth--;
		}
		struct ract *t = &act[stack[depth - 1]];
		if (t->fn < 0) {
			uint64_t q = 0;
			while (q < nfn && fns[q].entry != pc)
				q++;
			if (q == nfn) {
				fns = grow(fns, &fn_cap, nfn + 1, sizeof *fns);
				memset(&fns[nfn], 0, sizeof *fns);
				fns[nfn++].entry = pc;
			}
			t->fn = (int64_t)q;
			t->first = j;
		}
		struct rfn *fn = &fns[t->fn];
		uint32_t node = fn_node(fn, pc);
		if (t->last >= 0)
			add_succ(fn, (uint32_t)t->last, node);
		t->last = node;
		t->lastj = j;
		iact[j] = (uint32_t)stack[depth - 1];
		inode[j] = node;
		/* the condition: A32 bits 31:28; Thumb, the IT state's or a B<c>'s
		 * (not a call) */
		unsigned cond = f->thumb[j] ? (f->it[j] & 15 ? f->it[j] >> 4 : 14u) : f->word[j] >> 28;
		int passed = cond >= 14 || wet_cond_passed(cond, cpsr);
		if (is_call_ref(f->word[j], f->size[j], f->thumb[j], passed))
			PUSH_ACT(RF_CALL, pc + f->size[j], MODE(cpsr), sp, j + 1);
		cpsr = f->regs[j][CITCAT_OBS_CPSR];
		mctl = f->regs[j][CITCAT_OBS_SPSR];
		sp = f->regs[j][CITCAT_OBS_SP];
	}
	for (uint64_t d = depth; d-- > 0;)
		if (act[stack[d]].fn >= 0)
			add_succ(&fns[act[stack[d]].fn], (uint32_t)act[stack[d]].last, UINT32_MAX);
	/* per function: EXIT = m; post-dominator bit sets; controllers */
	uint32_t ***ctl = malloc((nfn ? nfn : 1) * sizeof *ctl), **nctl = malloc((nfn ? nfn : 1) * sizeof *nctl);
	REQ(ctl && nctl, "out of memory");
	for (uint64_t q = 0; q < nfn; q++) {
		struct rfn *fn = &fns[q];
		uint32_t m = fn->m, words = (m + 1 + 63) / 64;
		for (uint32_t a = 0; a < m; a++)
			for (uint32_t i = 0; i < fn->nsucc[a]; i++)
				if (fn->succ[a][i] == UINT32_MAX)
					fn->succ[a][i] = m;
		uint64_t *pd = malloc((size_t)(m + 1) * words * sizeof *pd);
		REQ(pd != NULL, "out of memory");
		for (uint32_t v = 0; v <= m; v++)
			for (uint32_t w = 0; w < words; w++)
				pd[(size_t)v * words + w] = v == m ? 0 : ~0ull;
		pd[(size_t)m * words + m / 64] |= 1ull << (m % 64);
		for (int changed = 1; changed;) {
			changed = 0;
			for (uint32_t v = m; v-- > 0;) {
				uint64_t *row = pd + (size_t)v * words;
				for (uint32_t w = 0; w < words; w++) {
					uint64_t x = ~0ull;
					for (uint32_t i = 0; i < fn->nsucc[v]; i++)
						x &= pd[(size_t)fn->succ[v][i] * words + w];
					if (w == v / 64)
						x |= 1ull << (v % 64);
					if (x != row[w])
						row[w] = x, changed = 1;
				}
			}
		}
#define PD(v, b) ((pd[(size_t)(v) * words + (b) / 64] >> ((b) % 64)) & 1)
		ctl[q] = calloc(m ? m : 1, sizeof **ctl);
		nctl[q] = calloc(m ? m : 1, sizeof **nctl);
		REQ(ctl[q] && nctl[q], "out of memory");
		for (uint32_t b = 0; b < m; b++)
			for (uint32_t a = 0; a < m; a++) {
				int dep = 0;
				for (uint32_t i = 0; i < fn->nsucc[a] && !dep; i++)
					dep = PD(fn->succ[a][i], b) && (b == a || !PD(a, b));
				if (dep) {
					ctl[q][b] = realloc(ctl[q][b], (nctl[q][b] + 1) * sizeof ***ctl);
					REQ(ctl[q][b] != NULL, "out of memory");
					ctl[q][b][nctl[q][b]++] = a;
				}
			}
#undef PD
		free(pd);
	}
	/* dynamic parents: per activation, the last instance of each statement */
	f->cdp = calloc(f->n, sizeof *f->cdp);
	uint64_t **lastv = calloc(nact, sizeof *lastv);
	REQ(f->cdp && lastv, "out of memory");
	for (uint64_t j = 0; j < f->n; j++) {
		uint32_t a = iact[j];
		const struct ract *t = &act[a];
		if (!lastv[a]) {
			lastv[a] = calloc(fns[t->fn].m, sizeof **lastv);
			REQ(lastv[a] != NULL, "out of memory");
		}
		uint64_t best = 0;
		for (uint32_t i = 0; i < nctl[t->fn][inode[j]]; i++) {
			uint64_t x = lastv[a][ctl[t->fn][inode[j]][i]];
			best = x > best ? x : best;
		}
		if (!best && t->kind == RF_CALL)
			best = t->call1;
		f->cdp[j] = best;
		f->ncdp += best != 0;
		lastv[a][inode[j]] = j + 1;
		if (j == t->lastj) {
			free(lastv[a]);
			lastv[a] = NULL;
		}
	}
	/* handlers: no control parent outside the handler (nested activations
	 * inside a handler are not IRQ activations and may reach their call) */
	for (uint64_t j = 0; j < f->n; j++) {
		const struct ract *t = &act[iact[j]];
		if (t->kind == RF_IRQ) {
			f->handler_insns++;
			REQ(!f->cdp[j] || f->cdp[j] - 1 >= t->first, "handler instruction %" PRIu64 " has control parent %" PRIu64
			    " before the handler's first instruction %" PRIu64, j, f->cdp[j] - 1, t->first);
		}
	}
	for (uint64_t q = 0; q < nfn; q++) {
		for (uint32_t i = 0; i < fns[q].m; i++) {
			free(fns[q].succ[i]);
			free(ctl[q][i]);
		}
		free(fns[q].pc); free(fns[q].succ); free(fns[q].nsucc);
		free(ctl[q]); free(nctl[q]);
	}
	free(ctl); free(nctl); free(fns); free(act); free(stack); free(iact); free(inode); free(lastv);
#undef PUSH_ACT
#undef MODE
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
	REQ(in->size == f->size[j] && in->thumb == f->thumb[j] && in->itstate == f->it[j],
	    "instruction %" PRIu64 " (pc 0x%08x): size %u, Thumb %u, IT state 0x%02x; reference %u, %u, 0x%02x", j, in->pc,
	    in->size, in->thumb, in->itstate, f->size[j], f->thumb[j], f->it[j]);
	REQ(in->n_acc == f->acc_n[j], "instruction %" PRIu64 ": %u accesses, reference %u", j, in->n_acc, f->acc_n[j]);
	const struct citcat_access *a = f->acc + f->acc_first[j];
	for (uint32_t k = 0; k < in->n_acc; k++)
		REQ(in->acc[k].addr == a[k].addr && in->acc[k].size == a[k].size && in->acc[k].write == a[k].write &&
		    in->acc[k].value == a[k].value, "instruction %" PRIu64 ": access %u differs", j, k);
	REQ(in->n_dep == f->dep_n[j], "instruction %" PRIu64 " (pc 0x%08x): %u producers, reference %u", j, in->pc, in->n_dep,
	    f->dep_n[j]);
	for (uint32_t k = 0; k < in->n_dep; k++)
		REQ(in->dep[k] == f->dep[f->dep_first[j] + k], "instruction %" PRIu64 ": producer %u differs", j, k);
	REQ(in->has_ctrl == (f->cdp[j] != 0) && (!in->has_ctrl || in->ctrl == f->cdp[j] - 1),
	    "instruction %" PRIu64 " (pc 0x%08x): control parent %s%" PRIu64 ", reference %s%" PRIu64, j, in->pc,
	    in->has_ctrl ? "" : "none ", in->ctrl, f->cdp[j] ? "" : "none ", f->cdp[j] - 1);
	struct wet_du du;
	wet_decode_isa(c->dec, in->pc, in->word, f->size[j], f->thumb[j], f->it[j], &du);
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

/* The accesses of IN, when the walk asked for them (version 5: tier 1 for
 * addresses and access values is resolved differently with and without
 * the other streams). */
static int acc_check(const struct ref *f, const struct citcat_wet_insn *in)
{
	uint64_t j = in->index;
	REQ(in->n_acc == f->acc_n[j], "instruction %" PRIu64 ": %u accesses, reference %u", j, in->n_acc, f->acc_n[j]);
	const struct citcat_access *a = f->acc + f->acc_first[j];
	for (uint32_t k = 0; k < in->n_acc; k++)
		REQ(in->acc[k].addr == a[k].addr && in->acc[k].size == a[k].size && in->acc[k].write == a[k].write &&
		    in->acc[k].value == a[k].value, "instruction %" PRIu64 ": access %u differs", j, k);
	return 0;
}

/* Accesses alone. */
static int acc_cb(void *ctx, const struct citcat_wet_insn *in)
{
	struct wctx *c = ctx;
	uint64_t j = in->index;
	REQ(j == c->expect, "accesses walk delivered instruction %" PRIu64 ", expected %" PRIu64, j, c->expect);
	c->expect += c->backward ? (uint64_t)-1 : 1;
	c->seen++;
	REQ(in->n_acc == c->f->acc_n[j], "instruction %" PRIu64 ": %u accesses, reference %u", j, in->n_acc, c->f->acc_n[j]);
	return acc_check(c->f, in);
}

/* A walk with values (and perhaps accesses) only: the results. */
static int val_cb(void *ctx, const struct citcat_wet_insn *in)
{
	struct wctx *c = ctx;
	struct ref *f = c->f;
	uint64_t j = in->index;
	REQ(j == c->expect, "values walk delivered instruction %" PRIu64 ", expected %" PRIu64, j, c->expect);
	c->expect += c->backward ? (uint64_t)-1 : 1;
	c->seen++;
	REQ(in->pc == f->pc[j], "instruction %" PRIu64 ": pc differs", j);
	struct wet_du du;
	wet_decode_isa(c->dec, in->pc, in->word, f->size[j], f->thumb[j], f->it[j], &du);
	int passed = du.cond >= 14 || wet_cond_passed(du.cond, j ? f->regs[j - 1][CITCAT_OBS_CPSR] : f->start[CITCAT_OBS_CPSR]);
	REQ(in->executed == passed, "instruction %" PRIu64 ": condition %d, reference %d", j, in->executed, passed);
	REQ(in->n_val == (passed ? du.ndef : 0u), "instruction %" PRIu64 ": %u results", j, in->n_val);
	for (unsigned k = 0; k < in->n_val; k++) {
		unsigned d = du.def[k];
		uint32_t v = d < 15 ? f->regs[j][d] : d == WET_R_FLAGS ? f->regs[j][CITCAT_OBS_CPSR] >> 27 : f->regs[j][CITCAT_OBS_SPSR];
		REQ(in->val[k] == v, "instruction %" PRIu64 ": result %u is %08x, snapshot %08x", j, k, in->val[k], v);
	}
	return in->n_acc ? acc_check(f, in) : 0; /* a walk with accesses (a value walk has none) */
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
		if (f->cdp[j])
			mark[f->cdp[j] - 1] = 1;
	}
	return n;
}

static uint64_t ref_forward(const struct ref *f, uint64_t start, uint8_t *mark)
{
	memset(mark, 0, f->n);
	mark[start] = 1;
	uint64_t n = 1;
	for (uint64_t j = start + 1; j < f->n; j++) {
		if (f->cdp[j] && mark[f->cdp[j] - 1]) {
			mark[j] = 1;
			n++;
			continue;
		}
		for (uint32_t k = 0; k < f->dep_n[j]; k++)
			if (mark[f->dep[f->dep_first[j] + k]]) {
				mark[j] = 1;
				n++;
				break;
			}
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
	{
		struct citcat_ims im;
		struct citcat_errinfo er;
		REQ(citcat_ims_read(argv[1], &im, &er) == 0, "%s", er.msg);
		f.m7 = im.cfg.isa == CITCAT_ISA_M7;
		citcat_ims_fini(&im);
	}
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
	if (f.m7)
		compute_deps_m7(&f, dec, ims.cfg.ram_base, ims.cfg.ram_size);
	else
		compute_deps(&f, dec, ims.cfg.ram_base, ims.cfg.ram_size);
	compute_cdeps(&f);

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
	/* register results alone (tier 1: the backward walk then resolves each
	 * segment's tuples from the node and pattern streams only), and a
	 * range starting mid-run, both ways: every value equals the snapshot */
	for (int back = 0; back < 2; back++) {
		struct wctx c = {&f, dec, back ? f.n - 1 : 0, 0, back};
		struct citcat_wet_walk wk = {.backward = back, .by_index = 1, .what = CITCAT_WET_W_VAL, .from = 0,
					     .to = UINT64_MAX, .cb = val_cb, .ctx = &c};
		REQ(citcat_wet_walk(w, &wk) == 0, "values walk: %s", citcat_wet_error(w)->msg);
		REQ(c.seen == f.n, "values walk saw %" PRIu64 " of %" PRIu64, c.seen, f.n);
		uint64_t lo = f.n / 3, hi = f.n - f.n / 5;
		struct wctx rg = {&f, dec, back ? hi : lo, 0, back};
		wk.from = lo;
		wk.to = hi;
		wk.ctx = &rg;
		wk.what = CITCAT_WET_W_VAL | CITCAT_WET_W_ACC;
		REQ(citcat_wet_walk(w, &wk) == 0, "values walk %" PRIu64 "..%" PRIu64 ": %s", lo, hi, citcat_wet_error(w)->msg);
		REQ(rg.seen == hi - lo + 1, "values walk saw %" PRIu64 " of %" PRIu64, rg.seen, hi - lo + 1);
		/* accesses alone (version 5: tier-1 segments are collected
		 * from the access streams only), the whole run and a range */
		struct wctx ac = {&f, dec, back ? f.n - 1 : 0, 0, back};
		struct citcat_wet_walk wa = {.backward = back, .by_index = 1, .what = CITCAT_WET_W_ACC, .from = 0,
					     .to = UINT64_MAX, .cb = acc_cb, .ctx = &ac};
		REQ(citcat_wet_walk(w, &wa) == 0, "accesses walk: %s", citcat_wet_error(w)->msg);
		REQ(ac.seen == f.n, "accesses walk saw %" PRIu64 " of %" PRIu64, ac.seen, f.n);
		struct wctx ar = {&f, dec, back ? hi : lo, 0, back};
		wa.from = lo;
		wa.to = hi;
		wa.ctx = &ar;
		REQ(citcat_wet_walk(w, &wa) == 0, "accesses walk %" PRIu64 "..%" PRIu64 ": %s", lo, hi, citcat_wet_error(w)->msg);
		REQ(ar.seen == hi - lo + 1, "accesses walk saw %" PRIu64 " of %" PRIu64, ar.seen, hi - lo + 1);
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
	printf("wet reference: %" PRIu64 " instructions, %" PRIu64 " interrupts/DMA, %" PRIu64 " producers, %" PRIu64
	       " control parents, %" PRIu64 " instructions in handlers: walks both ways exact; %u backward and %u forward"
	       " slices equal (avg %.1f / %.1f instances)\n",
	       f.n, f.nev, f.ndep, f.ncdp, f.handler_insns, ns, ns, (double)tb / ns, (double)tf / ns);
	citcat_wet_close(w);
	wet_decoder_close(dec);
	citcat_ims_fini(&ims);
	free(mark);
	free(f.size); free(f.thumb); free(f.it);
	free(f.pc); free(f.word); free(f.regs); free(f.acc_first); free(f.acc_n); free(f.acc); free(f.ev);
	free(f.dep_first); free(f.dep_n); free(f.dep); free(f.cdp);
	return 0;
}
