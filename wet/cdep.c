/* Dynamic control dependences for the WET: the shadow stack of
 * activations, the per-function dynamic CFG, post-dominators and the
 * static and dynamic control dependences (cdep.h, WET.md). */
#include "cdep.h"

#include "citcat.h"
#include "grow.h"

#include <stdlib.h>
#include <string.h>

#define NONE UINT32_MAX
#define EXIT_NODE 0xFFFFFFFEu /* edge target: the function's exit */
#define MAX_FRAMES (1u << 20)

enum { FR_ROOT, FR_CALL, FR_IRQ };

struct map64 { /* u64 key -> u32 value; val 0 = empty slot (values stored + 1) */
	uint64_t *k;
	uint32_t *v;
	size_t cap, n;
};

static size_t mhash(uint64_t k, size_t cap)
{
	return (size_t)((k * 0x9E3779B97F4A7C15ull) >> 17) & (cap - 1);
}

static int map_grow(struct map64 *m)
{
	size_t nc = m->cap ? m->cap * 2 : 1024;
	uint64_t *k = calloc(nc, sizeof *k);
	uint32_t *v = calloc(nc, sizeof *v);
	if (!k || !v) {
		free(k);
		free(v);
		return -1;
	}
	for (size_t i = 0; i < m->cap; i++)
		if (m->v[i]) {
			size_t h = mhash(m->k[i], nc);
			while (v[h])
				h = (h + 1) & (nc - 1);
			k[h] = m->k[i];
			v[h] = m->v[i];
		}
	free(m->k);
	free(m->v);
	m->k = k;
	m->v = v;
	m->cap = nc;
	return 0;
}

/* Value of KEY, or NONE. */
static uint32_t map_get(const struct map64 *m, uint64_t key)
{
	if (!m->cap)
		return NONE;
	for (size_t h = mhash(key, m->cap); m->v[h]; h = (h + 1) & (m->cap - 1))
		if (m->k[h] == key)
			return m->v[h] - 1;
	return NONE;
}

/* Value of KEY; inserts VAL when absent (*ADDED set).  -1 out of memory. */
static int map_put(struct map64 *m, uint64_t key, uint32_t val, uint32_t *out, int *added)
{
	if ((m->n + 1) * 2 > m->cap && map_grow(m))
		return -1;
	size_t h = mhash(key, m->cap);
	for (; m->v[h]; h = (h + 1) & (m->cap - 1))
		if (m->k[h] == key) {
			*out = m->v[h] - 1;
			*added = 0;
			return 0;
		}
	m->k[h] = key;
	m->v[h] = val + 1;
	m->n++;
	*out = val;
	*added = 1;
	return 0;
}

struct frame {
	uint8_t kind;
	uint32_t ret, mode, sp;
	uint32_t func;      /* NONE until its first instance */
	uint32_t last_node; /* pass 1: node of its last instance */
	uint64_t call1;     /* INDEX + 1 of the call (FR_CALL) */
	uint64_t serial;    /* pass 2 */
	size_t undo_start;
};

struct undo {
	uint32_t node;
	uint64_t last, serial;
};

struct wet_cd {
	int pass; /* 1 or 2 */
	struct map64 funcs;    /* entry pc -> function id */
	struct map64 nodes;    /* func << 32 | pc -> node id */
	struct map64 edges;    /* from << 32 | to -> edge id */
	uint32_t nfunc, nnode, nedge;
	uint32_t *node_func; size_t node_func_cap;
	uint64_t *edge;        size_t edge_cap; /* from << 32 | to */
	/* after analysis */
	uint32_t *cd_first, *cd_list; /* CSR: controlling branch nodes per node */
	uint8_t *branch;
	uint64_t ncd, nbranch;
	uint64_t *last, *serial;
	/* shadow stack */
	struct frame *fr;
	size_t nfr, fr_cap;
	struct undo *undo;
	size_t nundo, undo_cap;
	uint64_t serial_next;
	uint64_t prev_serial;   /* pass 2: activation of the previous instance, 0 after a push */
	struct map64 back;      /* back edges (from << 32 | to) of the CFGs */
	uint64_t nback;
	uint32_t mode_mask;     /* the bits of the CPSR argument that are the mode */
};

int wet_is_call(uint32_t word)
{
	unsigned cond = word >> 28;
	if ((word & 0xFE000000u) == 0xFA000000u)
		return 1; /* BLX immediate (unconditional space) */
	if (cond == 15)
		return 0;
	return (word & 0x0F000000u) == 0x0B000000u || (word & 0x0FFFFFF0u) == 0x012FFF30u;
}

int wet_is_call_thumb(uint32_t word, unsigned size)
{
	uint32_t hw1 = word & 0xffff, hw2 = word >> 16;
	if (size == 2)
		return (hw1 & 0xFF87) == 0x4780; /* BLX Rm (T1) */
	if ((hw1 & 0xF800) != 0xF000)
		return 0;
	return (hw2 & 0xD000) == 0xD000 || (hw2 & 0xD001) == 0xC000; /* BL (T1), BLX immediate (T2) */
}

static int push_frame(struct wet_cd *cd, uint8_t kind, uint32_t ret, uint32_t mode, uint32_t sp, uint64_t call1)
{
	int rc = cc_grow(&cd->fr, &cd->fr_cap, cd->nfr + 1, sizeof *cd->fr, 64, MAX_FRAMES);
	if (rc)
		return rc;
	struct frame *f = &cd->fr[cd->nfr++];
	memset(f, 0, sizeof *f);
	f->kind = kind;
	f->ret = ret;
	f->mode = mode;
	f->sp = sp;
	f->func = NONE;
	f->last_node = NONE;
	f->call1 = call1;
	f->serial = ++cd->serial_next;
	f->undo_start = cd->nundo;
	cd->prev_serial = 0;
	return 0;
}

static int add_edge(struct wet_cd *cd, uint32_t from, uint32_t to)
{
	uint32_t id;
	int added;
	uint64_t key = (uint64_t)from << 32 | to;
	if (map_put(&cd->edges, key, cd->nedge, &id, &added))
		return CITCAT_ERR_NOMEM;
	if (!added)
		return 0;
	if (cc_grow(&cd->edge, &cd->edge_cap, cd->nedge + 1, sizeof *cd->edge, 1024, SIZE_MAX))
		return CITCAT_ERR_NOMEM;
	cd->edge[cd->nedge++] = key;
	return 0;
}

static int pop_frame(struct wet_cd *cd)
{
	struct frame *f = &cd->fr[--cd->nfr];
	if (cd->pass == 1)
		return f->last_node != NONE ? add_edge(cd, f->last_node, EXIT_NODE) : 0;
	while (cd->nundo > f->undo_start) {
		const struct undo *u = &cd->undo[--cd->nundo];
		cd->last[u->node] = u->last;
		cd->serial[u->node] = u->serial;
	}
	return 0;
}

static void reset_stack(struct wet_cd *cd)
{
	cd->nfr = 0;
	cd->nundo = 0;
	cd->serial_next = 0;
	push_frame(cd, FR_ROOT, 0, 0, 0, 0); /* the stack has room: fr_cap >= 64 after open */
}

int wet_cd_open(struct wet_cd **cdp)
{
	struct wet_cd *cd = calloc(1, sizeof *cd);
	*cdp = cd;
	if (!cd)
		return CITCAT_ERR_NOMEM;
	cd->pass = 1;
	cd->mode_mask = 0x1f;
	if (push_frame(cd, FR_ROOT, 0, 0, 0, 0))
		return CITCAT_ERR_NOMEM;
	return 0;
}

void wet_cd_close(struct wet_cd *cd)
{
	if (!cd)
		return;
	free(cd->funcs.k); free(cd->funcs.v);
	free(cd->nodes.k); free(cd->nodes.v);
	free(cd->edges.k); free(cd->edges.v);
	free(cd->back.k); free(cd->back.v);
	free(cd->node_func);
	free(cd->edge);
	free(cd->cd_first);
	free(cd->cd_list);
	free(cd->branch);
	free(cd->last);
	free(cd->serial);
	free(cd->fr);
	free(cd->undo);
	free(cd);
}

void wet_cd_set_mode_mask(struct wet_cd *cd, uint32_t mask)
{
	cd->mode_mask = mask;
}

int wet_cd_irq(struct wet_cd *cd, uint32_t epc, uint32_t cpsr, uint32_t sp)
{
	return push_frame(cd, FR_IRQ, epc, cpsr & cd->mode_mask, sp, 0);
}

int wet_cd_insn(struct wet_cd *cd, uint64_t index, uint32_t pc, uint32_t word, int passed, uint32_t cpsr,
		uint32_t sp, uint64_t *parent, int *cont)
{
	return wet_cd_insn_isa(cd, index, pc, word, 4, 0, passed, cpsr, sp, parent, cont);
}

int wet_cd_insn_isa(struct wet_cd *cd, uint64_t index, uint32_t pc, uint32_t word, unsigned size, int thumb,
		    int passed, uint32_t cpsr, uint32_t sp, uint64_t *parent, int *cont)
{
	int rc;
	/* a return to the top activation's caller pops it */
	while (cd->nfr > 1) {
		const struct frame *t = &cd->fr[cd->nfr - 1];
		if (t->func == NONE || t->ret != pc || t->mode != (cpsr & cd->mode_mask) || t->sp != sp)
			break;
		if ((rc = pop_frame(cd)))
			return rc;
	}
	struct frame *t = &cd->fr[cd->nfr - 1];
	uint32_t node;
	if (cd->pass == 1) {
		int added;
		if (t->func == NONE) {
			if (map_put(&cd->funcs, pc, cd->nfunc, &t->func, &added))
				return CITCAT_ERR_NOMEM;
			cd->nfunc += (uint32_t)added;
		}
		if (map_put(&cd->nodes, (uint64_t)t->func << 32 | pc, cd->nnode, &node, &added))
			return CITCAT_ERR_NOMEM;
		if (added) {
			if (cc_grow(&cd->node_func, &cd->node_func_cap, cd->nnode + 1, sizeof *cd->node_func, 1024, SIZE_MAX))
				return CITCAT_ERR_NOMEM;
			cd->node_func[cd->nnode++] = t->func;
		}
		if (t->last_node != NONE && (rc = add_edge(cd, t->last_node, node)))
			return rc;
		t->last_node = node;
	} else {
		if (t->func == NONE && (t->func = map_get(&cd->funcs, pc)) == NONE)
			return CITCAT_ERR_INTERNAL;
		if ((node = map_get(&cd->nodes, (uint64_t)t->func << 32 | pc)) == NONE)
			return CITCAT_ERR_INTERNAL;
		uint64_t best = 0;
		for (uint32_t i = cd->cd_first[node]; i < cd->cd_first[node + 1]; i++) {
			uint32_t a = cd->cd_list[i];
			if (cd->serial[a] == t->serial && cd->last[a] > best)
				best = cd->last[a];
		}
		if (!best && t->kind == FR_CALL)
			best = t->call1;
		*parent = best;
		/* the path goes on: same activation as the previous instance, with
		 * no push in between, along an edge that is not a back edge */
		*cont = cd->prev_serial == t->serial && t->last_node != NONE &&
			map_get(&cd->back, (uint64_t)t->last_node << 32 | node) == NONE;
		t->last_node = node;
		cd->prev_serial = t->serial;
		if (cd->branch[node]) {
			if (cd->serial[node] != t->serial) {
				if (cc_grow(&cd->undo, &cd->undo_cap, cd->nundo + 1, sizeof *cd->undo, 1024, SIZE_MAX))
					return CITCAT_ERR_NOMEM;
				cd->undo[cd->nundo++] = (struct undo){node, cd->last[node], cd->serial[node]};
				cd->serial[node] = t->serial;
			}
			cd->last[node] = index + 1;
		}
	}
	/* the return address: the next instruction (a Thumb call's LR has
	 * bit 0 set, the instance that returns there has a 2-aligned PC) */
	if (passed && (thumb ? wet_is_call_thumb(word, size) : wet_is_call(word)))
		return push_frame(cd, FR_CALL, pc + (thumb ? size : 4), cpsr & cd->mode_mask, sp, index + 1);
	return 0;
}

static int cmp_u64(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
	return a < b ? -1 : a > b;
}

/* Post-dominators of one function (local nodes 0..m-1, EXIT = m) by
 * Cooper, Harvey and Kennedy's algorithm on the reverse CFG. */
struct fgraph {
	uint32_t m;
	uint32_t *sfirst, *slist; /* successors (local; m = EXIT) */
	uint32_t *pfirst, *plist; /* predecessors, EXIT's included */
	uint32_t *po, *order, *ipdom;
	uint32_t *stk, *spos;
};

static uint32_t intersect(const struct fgraph *g, uint32_t a, uint32_t b)
{
	while (a != b) {
		while (g->po[a] < g->po[b])
			a = g->ipdom[a];
		while (g->po[b] < g->po[a])
			b = g->ipdom[b];
	}
	return a;
}

static int postdom(struct fgraph *g)
{
	uint32_t m = g->m, n = 0, sp = 0;
	for (uint32_t i = 0; i <= m; i++)
		g->po[i] = NONE, g->ipdom[i] = NONE;
	/* iterative DFS from EXIT over predecessor edges; po = postorder number */
	uint8_t *seen = calloc(m + 1, 1);
	if (!seen)
		return CITCAT_ERR_NOMEM;
	g->stk[sp] = m;
	g->spos[sp++] = g->pfirst[m];
	seen[m] = 1;
	while (sp) {
		uint32_t v = g->stk[sp - 1];
		if (g->spos[sp - 1] < g->pfirst[v + 1]) {
			uint32_t u = g->plist[g->spos[sp - 1]++];
			if (!seen[u]) {
				seen[u] = 1;
				g->stk[sp] = u;
				g->spos[sp++] = g->pfirst[u];
			}
		} else {
			g->order[n] = v;
			g->po[v] = n++;
			sp--;
		}
	}
	free(seen);
	if (n != m + 1)
		return CITCAT_ERR_INTERNAL; /* a node that cannot reach the exit: impossible by construction */
	g->ipdom[m] = m;
	for (int changed = 1; changed;) {
		changed = 0;
		for (uint32_t i = n - 1; i-- > 0;) { /* reverse postorder, EXIT (po n-1) excluded */
			uint32_t v = g->order[i], nw = NONE;
			for (uint32_t j = g->sfirst[v]; j < g->sfirst[v + 1]; j++) {
				uint32_t s = g->slist[j];
				if (g->ipdom[s] != NONE)
					nw = nw == NONE ? s : intersect(g, s, nw);
			}
			if (nw != g->ipdom[v]) {
				g->ipdom[v] = nw;
				changed = 1;
			}
		}
	}
	return 0;
}

/* Back edges of one function: the retreating edges of a depth-first
 * search from its entry (local node 0: the first instance of every
 * activation is its entry, created first), successors in node-id order (the
 * sorted edge list). */
static int back_edges(struct wet_cd *cd, struct fgraph *g, const uint32_t *fn)
{
	uint32_t m = g->m, sp = 0;
	uint8_t *state = calloc((size_t)m + 1, 1); /* 0 new, 1 on the stack, 2 done */
	if (!state)
		return CITCAT_ERR_NOMEM;
	if (m) {
		g->stk[sp] = 0;
		g->spos[sp++] = g->sfirst[0];
		state[0] = 1;
	}
	while (sp) {
		uint32_t v = g->stk[sp - 1];
		if (g->spos[sp - 1] < g->sfirst[v + 1]) {
			uint32_t u = g->slist[g->spos[sp - 1]++];
			if (u == m)
				continue;
			if (state[u] == 1) {
				uint32_t id;
				int added;
				if (map_put(&cd->back, (uint64_t)fn[v] << 32 | fn[u], 0, &id, &added)) {
					free(state);
					return CITCAT_ERR_NOMEM;
				}
				cd->nback += (uint64_t)added;
			} else if (!state[u]) {
				state[u] = 1;
				g->stk[sp] = u;
				g->spos[sp++] = g->sfirst[u];
			}
		} else {
			state[v] = 2;
			sp--;
		}
	}
	free(state);
	return 0;
}

int wet_cd_analyse(struct wet_cd *cd)
{
	int rc = 0;
	while (cd->nfr > 0 && !rc) {
		if (cd->nfr == 1) { /* the root: close it too */
			struct frame *f = &cd->fr[0];
			rc = f->last_node != NONE ? add_edge(cd, f->last_node, EXIT_NODE) : 0;
			cd->nfr = 0;
		} else {
			rc = pop_frame(cd);
		}
	}
	if (rc)
		return rc;
	uint32_t N = cd->nnode, F = cd->nfunc, E = cd->nedge;
	/* edges sorted by source; nodes grouped by function */
	qsort(cd->edge, E, sizeof *cd->edge, cmp_u64);
	uint32_t *ffirst = calloc((size_t)F + 1, sizeof *ffirst), *fnodes = malloc(((size_t)N + 1) * sizeof *fnodes);
	uint32_t *local = malloc(((size_t)N + 1) * sizeof *local), *efirst = calloc((size_t)N + 1, sizeof *efirst);
	uint64_t *pairs = NULL;
	size_t npairs = 0, pcap = 0;
	cd->branch = calloc((size_t)N + 1, 1);
	cd->last = calloc((size_t)N + 1, sizeof *cd->last);
	cd->serial = calloc((size_t)N + 1, sizeof *cd->serial);
	cd->cd_first = calloc((size_t)N + 2, sizeof *cd->cd_first);
	struct fgraph g = {0};
	size_t gcap = (size_t)N + 2;
	g.sfirst = malloc(gcap * sizeof(uint32_t));
	g.pfirst = calloc(gcap + 1, sizeof(uint32_t));
	g.slist = malloc(((size_t)E + 1) * sizeof(uint32_t));
	g.plist = malloc(((size_t)E + 1) * sizeof(uint32_t));
	g.po = malloc(gcap * sizeof(uint32_t));
	g.order = malloc(gcap * sizeof(uint32_t));
	g.ipdom = malloc(gcap * sizeof(uint32_t));
	g.stk = malloc(gcap * sizeof(uint32_t));
	g.spos = malloc(gcap * sizeof(uint32_t));
	if (!ffirst || !fnodes || !local || !efirst || !cd->branch || !cd->last || !cd->serial || !cd->cd_first ||
	    !g.sfirst || !g.pfirst || !g.slist || !g.plist || !g.po || !g.order || !g.ipdom || !g.stk || !g.spos) {
		rc = CITCAT_ERR_NOMEM;
		goto out;
	}
	for (uint32_t i = 0; i < N; i++)
		ffirst[cd->node_func[i] + 1]++;
	for (uint32_t f = 0; f < F; f++)
		ffirst[f + 1] += ffirst[f];
	{
		uint32_t *fill = calloc((size_t)F + 1, sizeof *fill);
		if (!fill) {
			rc = CITCAT_ERR_NOMEM;
			goto out;
		}
		for (uint32_t i = 0; i < N; i++) {
			uint32_t f = cd->node_func[i];
			local[i] = fill[f];
			fnodes[ffirst[f] + fill[f]++] = i;
		}
		free(fill);
	}
	for (uint32_t e = 0; e < E; e++)
		efirst[(uint32_t)(cd->edge[e] >> 32) + 1]++;
	for (uint32_t i = 0; i < N; i++)
		efirst[i + 1] += efirst[i];
	for (uint32_t f = 0; f < F; f++) {
		uint32_t m = ffirst[f + 1] - ffirst[f];
		const uint32_t *fn = fnodes + ffirst[f];
		g.m = m;
		/* successors, local */
		uint32_t ns = 0;
		for (uint32_t l = 0; l < m; l++) {
			g.sfirst[l] = ns;
			for (uint32_t e = efirst[fn[l]]; e < efirst[fn[l] + 1]; e++) {
				uint32_t to = (uint32_t)cd->edge[e];
				g.slist[ns++] = to == EXIT_NODE ? m : local[to];
			}
			if (ns - g.sfirst[l] >= 2) {
				cd->branch[fn[l]] = 1;
				cd->nbranch++;
			}
		}
		g.sfirst[m] = g.sfirst[m + 1] = ns;
		/* predecessors */
		memset(g.pfirst, 0, ((size_t)m + 3) * sizeof(uint32_t));
		for (uint32_t j = 0; j < ns; j++)
			g.pfirst[g.slist[j] + 1]++;
		for (uint32_t l = 0; l <= m; l++)
			g.pfirst[l + 1] += g.pfirst[l];
		for (uint32_t l = 0; l < m; l++)
			for (uint32_t j = g.sfirst[l]; j < g.sfirst[l + 1]; j++)
				g.plist[g.pfirst[g.slist[j]]++] = l;
		for (uint32_t l = m + 1; l-- > 0;)
			g.pfirst[l + 1] = g.pfirst[l];
		g.pfirst[0] = 0;
		if ((rc = postdom(&g)))
			goto out;
		if ((rc = back_edges(cd, &g, fn)))
			goto out;
		/* control dependences: for each branch edge A -> B, B and its
		 * post-dominators up to ipdom(A) (excluded) depend on A */
		for (uint32_t a = 0; a < m; a++) {
			if (g.sfirst[a + 1] - g.sfirst[a] < 2)
				continue;
			for (uint32_t j = g.sfirst[a]; j < g.sfirst[a + 1]; j++)
				for (uint32_t r = g.slist[j]; r != g.ipdom[a] && r != m; r = g.ipdom[r]) {
					if (cc_grow(&pairs, &pcap, npairs + 1, sizeof *pairs, 4096, SIZE_MAX)) {
						rc = CITCAT_ERR_NOMEM;
						goto out;
					}
					pairs[npairs++] = (uint64_t)fn[r] << 32 | fn[a];
				}
		}
	}
	qsort(pairs, npairs, sizeof *pairs, cmp_u64);
	size_t u = 0;
	for (size_t i = 0; i < npairs; i++)
		if (!u || pairs[i] != pairs[u - 1])
			pairs[u++] = pairs[i];
	if (!(cd->cd_list = malloc((u ? u : 1) * sizeof *cd->cd_list))) {
		rc = CITCAT_ERR_NOMEM;
		goto out;
	}
	for (size_t i = 0; i < u; i++) {
		cd->cd_list[i] = (uint32_t)pairs[i];
		cd->cd_first[(pairs[i] >> 32) + 1]++;
	}
	for (uint32_t i = 0; i < N; i++)
		cd->cd_first[i + 1] += cd->cd_first[i];
	cd->ncd = u;
	cd->pass = 2;
	reset_stack(cd);
out:
	free(ffirst);
	free(fnodes);
	free(local);
	free(efirst);
	free(pairs);
	free(g.sfirst); free(g.pfirst); free(g.slist); free(g.plist);
	free(g.po); free(g.order); free(g.ipdom); free(g.stk); free(g.spos);
	return rc;
}

void wet_cd_counts(const struct wet_cd *cd, uint64_t out[6])
{
	out[0] = cd->nfunc;
	out[1] = cd->nnode;
	out[2] = cd->nedge;
	out[3] = cd->nbranch;
	out[4] = cd->ncd;
	out[5] = cd->nback;
}
