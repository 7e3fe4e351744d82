/* Per-line profiles in valgrind's callgrind format: see CALLGRIND.md and
 * include/citcat/profile.h. */
#include <citcat/profile.h>
#include "armdec.h"
#include "outfile.h"
#include <citcat/symbols.h>

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NEV CITCAT_PROF_EVENTS
#define MAX_DEPTH 4096   /* open calls followed; deeper ones are counted as lost */
#define MAX_PENDING 64   /* D-cache fills between two records (an entry's, then an instruction's) */
#define NO_ID UINT32_MAX

/* ---- interned names (functions, files) ---- */

struct names {
	char **s;
	uint32_t n, cap;
	uint32_t *slot; /* open hash over s */
	uint32_t nslot;
};

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ull;
	for (; *s; s++)
		h = (h ^ (uint8_t)*s) * 1099511628211ull;
	return h;
}

/* The id of S (copied), NO_ID when out of memory. */
static uint32_t intern(struct names *t, const char *s)
{
	if ((t->n + 1) * 2 > t->nslot) {
		uint32_t ns = t->nslot ? t->nslot * 2 : 256;
		uint32_t *sl = malloc(ns * sizeof *sl);
		if (!sl)
			return NO_ID;
		for (uint32_t i = 0; i < ns; i++)
			sl[i] = NO_ID;
		for (uint32_t k = 0; k < t->n; k++) {
			uint32_t h = (uint32_t)hash_str(t->s[k]) & (ns - 1);
			while (sl[h] != NO_ID)
				h = (h + 1) & (ns - 1);
			sl[h] = k;
		}
		free(t->slot);
		t->slot = sl;
		t->nslot = ns;
	}
	uint32_t h = (uint32_t)hash_str(s) & (t->nslot - 1);
	while (t->slot[h] != NO_ID) {
		if (strcmp(t->s[t->slot[h]], s) == 0)
			return t->slot[h];
		h = (h + 1) & (t->nslot - 1);
	}
	if (t->n == t->cap) {
		uint32_t nc = t->cap ? t->cap * 2 : 256;
		char **ns = realloc(t->s, nc * sizeof *ns);
		if (!ns)
			return NO_ID;
		t->s = ns;
		t->cap = nc;
	}
	char *copy = strdup(s);
	if (!copy)
		return NO_ID;
	t->s[t->n] = copy;
	t->slot[h] = t->n;
	return t->n++;
}

static void names_free(struct names *t)
{
	for (uint32_t i = 0; i < t->n; i++)
		free(t->s[i]);
	free(t->s);
	free(t->slot);
}

/* ---- generic open-addressed map from a 64-bit key to a record index ---- */

struct imap {
	uint64_t *key;
	uint32_t *val;
	uint32_t n, nslot;
};

static uint64_t mix(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdull;
	k ^= k >> 33;
	k *= 0xc4ceb9fe1a85ec53ull;
	return k ^ (k >> 33);
}

/* The slot holding KEY, or the free slot where it would go. */
static uint32_t imap_find(const struct imap *m, uint64_t key)
{
	uint32_t h = (uint32_t)mix(key) & (m->nslot - 1);
	while (m->val[h] != NO_ID && m->key[h] != key)
		h = (h + 1) & (m->nslot - 1);
	return h;
}

static int imap_grow(struct imap *m)
{
	if ((m->n + 1) * 2 <= m->nslot)
		return 0;
	struct imap g = {.nslot = m->nslot ? m->nslot * 2 : 1024, .n = m->n};
	g.key = malloc(g.nslot * sizeof *g.key);
	g.val = malloc(g.nslot * sizeof *g.val);
	if (!g.key || !g.val) {
		free(g.key);
		free(g.val);
		return CITCAT_ERR_NOMEM;
	}
	for (uint32_t i = 0; i < g.nslot; i++)
		g.val[i] = NO_ID;
	for (uint32_t i = 0; i < m->nslot; i++)
		if (m->val[i] != NO_ID) {
			uint32_t h = imap_find(&g, m->key[i]);
			g.key[h] = m->key[i];
			g.val[h] = m->val[i];
		}
	free(m->key);
	free(m->val);
	*m = g;
	return 0;
}

/* ---- the profile ---- */

/* One function of an instruction's inline chain, beyond the first: called
 * (inlined) from FN_CALLER at CALL_FILE:CALL_LINE. */
struct inl {
	uint32_t caller_fn, call_file, call_line, fn;
	uint64_t instance;
};

/* What is known of one instruction address (and word). */
struct pcent {
	uint64_t pc;
	uint32_t word;
	uint8_t size, link;  /* link: BL/BLX, a call when it goes elsewhere than pc + size */
	uint8_t ninl;        /* inlined functions (inl[first .. first + ninl)) */
	uint32_t fn, file, line;           /* the innermost function and the source line */
	uint32_t base_fn, base_file, base_line; /* the function the address lies in, and the position in it */
	uint32_t first;                    /* index of its inline chain in struct citcat_profile.inl */
};

/* Self costs of one (function, file, line). */
struct cost {
	uint32_t fn, file, line;
	uint64_t c[NEV];
};

/* A call edge: CALLS times from (caller fn, file, line) to (callee fn), its
 * target position and inclusive costs. */
struct edge {
	uint32_t fn, file, line;         /* the caller and where */
	uint32_t cfn, cfile, cline;      /* the callee and its first position */
	uint64_t calls;
	uint64_t c[NEV];
};

/* An open call or exception entry. */
struct frame {
	uint64_t ret;   /* where execution goes on after it */
	uint32_t edge;  /* its call edge */
	uint32_t site;  /* the calling instruction's pcent (its inline edges get the inclusive cost too) */
	uint64_t t0[NEV];
};

struct citcat_profile {
	struct citcat_symbols *syms;
	struct armdec dec;
	struct citcat_target_config cfg;
	int have_cfg;
	struct names fns, files;
	uint32_t unknown_fn, unknown_file;
	struct pcent *pe;
	uint32_t npe, cappe;
	struct imap pemap; /* (pc, word) -> pe */
	struct inl *inl;
	uint32_t ninl, capinl;
	struct cost *cost;
	uint32_t ncost, capcost;
	struct imap costmap; /* (fn, file, line) -> cost */
	struct edge *edge;
	uint32_t nedge, capedge;
	struct imap edgemap; /* (caller fn, file, line, callee fn) -> edge */
	struct frame *stack;
	uint32_t depth;
	uint64_t lost_calls;
	uint64_t total[NEV];
	/* between records: what the next instruction is charged with */
	uint64_t pend_i, pend_wb, pend_dma;
	uint32_t pend_d[MAX_PENDING], npend_d, pend_line;
	uint64_t carry[NEV];  /* an exception entry's misses, for the handler's first instruction */
	/* the instruction before, and an entry waiting for its handler */
	int have_prev;
	uint32_t prev;        /* pcent */
	uint64_t prev_inst[CITCAT_SYM_MAX_FRAMES];
	uint32_t prev_ninl;
	int flow_done;        /* where the instruction before went was taken already (at an entry) */
	int entry_pending;
	uint64_t entry_ret;
	int nomem;
};

static int grow(void **p, uint32_t *cap, uint32_t n, size_t elem)
{
	if (n < *cap)
		return 0;
	uint32_t nc = *cap ? *cap * 2 : 1024;
	void *np = realloc(*p, (size_t)nc * elem);
	if (!np)
		return CITCAT_ERR_NOMEM;
	*p = np;
	*cap = nc;
	return 0;
}

int citcat_profile_open(struct citcat_profile **pp, const char *elf_path, const struct citcat_target_config *cfg,
			struct citcat_errinfo *err)
{
	struct citcat_errinfo dummy;
	if (!err)
		err = &dummy;
	memset(err, 0, sizeof *err);
	err->offset = UINT64_MAX;
	if (!pp || !elf_path)
		return citcat_errinfo_set(err, CITCAT_ERR_INVAL, UINT64_MAX, "no profile or firmware path");
	*pp = NULL;
	struct citcat_profile *p = calloc(1, sizeof *p);
	if (!p)
		return citcat_errinfo_set(err, CITCAT_ERR_NOMEM, UINT64_MAX, "out of memory");
	int rc = citcat_symbols_open(&p->syms, elf_path, err);
	if (!rc && (rc = armdec_init(&p->dec)) != 0)
		citcat_errinfo_set(err, rc, UINT64_MAX, "Capstone cannot decode ARM code");
	p->stack = rc ? NULL : malloc(MAX_DEPTH * sizeof *p->stack);
	if (!rc && !p->stack)
		rc = citcat_errinfo_set(err, CITCAT_ERR_NOMEM, UINT64_MAX, "out of memory");
	if (!rc) {
		p->unknown_fn = intern(&p->fns, "???");
		p->unknown_file = intern(&p->files, "???");
		if (p->unknown_fn == NO_ID || p->unknown_file == NO_ID)
			rc = citcat_errinfo_set(err, CITCAT_ERR_NOMEM, UINT64_MAX, "out of memory");
	}
	if (rc) {
		citcat_profile_close(p);
		return rc;
	}
	if (cfg) {
		p->cfg = *cfg;
		p->have_cfg = 1;
	}
	*pp = p;
	return 0;
}

void citcat_profile_close(struct citcat_profile *p)
{
	if (!p)
		return;
	citcat_symbols_close(p->syms);
	armdec_fini(&p->dec);
	names_free(&p->fns);
	names_free(&p->files);
	free(p->pe);
	free(p->pemap.key);
	free(p->pemap.val);
	free(p->inl);
	free(p->cost);
	free(p->costmap.key);
	free(p->costmap.val);
	free(p->edge);
	free(p->edgemap.key);
	free(p->edgemap.val);
	free(p->stack);
	free(p);
}

static uint32_t file_id(struct citcat_profile *p, const char *f)
{
	uint32_t id = f && f[0] ? intern(&p->files, f) : p->unknown_file;
	if (id == NO_ID)
		p->nomem = 1;
	return id == NO_ID ? p->unknown_file : id;
}

static uint32_t fn_id(struct citcat_profile *p, const char *f)
{
	uint32_t id = f && f[0] ? intern(&p->fns, f) : p->unknown_fn;
	if (id == NO_ID)
		p->nomem = 1;
	return id == NO_ID ? p->unknown_fn : id;
}

/* The function PC lies in (frame 0 of its inline chain) and the position
 * in it: PC's own line, or where its outermost inlined call sits. */
static void base_pos(struct citcat_profile *p, uint64_t pc, uint32_t *fn, uint32_t *file, uint32_t *line)
{
	struct citcat_symloc loc;
	citcat_symbols_lookup(p->syms, pc, &loc);
	struct citcat_symframe fr[CITCAT_SYM_MAX_FRAMES];
	int nf = citcat_symbols_frames(p->syms, pc, fr, CITCAT_SYM_MAX_FRAMES);
	*fn = fn_id(p, nf > 0 ? fr[0].func : citcat_symbols_label(p->syms, pc));
	*file = file_id(p, nf > 1 ? fr[1].call_file : loc.file);
	*line = nf > 1 ? (fr[1].call_line > 0 ? (uint32_t)fr[1].call_line : 0) : loc.line > 0 ? (uint32_t)loc.line : 0;
}

/* The pcent of an instruction record, made on first sight: its symbol,
 * line, inline chain and whether it is a call.  Keyed by (pc, word), so
 * code that changes is seen anew. */
static struct pcent *pcent_of(struct citcat_profile *p, const struct citcat_itrace_rec *rec)
{
	uint64_t key = (rec->pc & 0xffffffffu) | ((uint64_t)rec->word << 32);
	if (p->pemap.nslot) {
		uint32_t h = imap_find(&p->pemap, key);
		if (p->pemap.val[h] != NO_ID && p->pe[p->pemap.val[h]].pc == rec->pc)
			return &p->pe[p->pemap.val[h]];
	}
	if (imap_grow(&p->pemap) || grow((void **)&p->pe, &p->cappe, p->npe, sizeof *p->pe)) {
		p->nomem = 1;
		return NULL;
	}
	struct pcent *e = &p->pe[p->npe];
	memset(e, 0, sizeof *e);
	e->pc = rec->pc;
	e->word = rec->word;
	e->size = rec->size ? rec->size : 4;
	struct armdec_class c;
	armdec_classify_isa(&p->dec, (uint32_t)rec->pc, rec->word, e->size, rec->thumb, &c);
	e->link = c.link && (c.flow == ARMDEC_DIRECT_U || c.flow == ARMDEC_DIRECT_C || c.flow == ARMDEC_INDIRECT ||
			     c.flow == ARMDEC_THUMB);
	struct citcat_symloc loc;
	citcat_symbols_lookup(p->syms, rec->pc, &loc);
	struct citcat_symframe fr[CITCAT_SYM_MAX_FRAMES];
	int nf = citcat_symbols_frames(p->syms, rec->pc, fr, CITCAT_SYM_MAX_FRAMES);
	if (nf < 0)
		nf = 0;
	e->file = file_id(p, loc.file);
	e->line = loc.line > 0 ? (uint32_t)loc.line : 0;
	/* code outside every sized function (a vector table) goes by the label before it */
	e->base_fn = fn_id(p, nf ? fr[0].func : citcat_symbols_label(p->syms, rec->pc));
	e->fn = nf ? fn_id(p, fr[nf - 1].func) : e->base_fn;
	e->first = p->ninl;
	for (int i = 1; i < nf; i++) {
		if (grow((void **)&p->inl, &p->capinl, p->ninl, sizeof *p->inl)) {
			p->nomem = 1;
			break;
		}
		p->inl[p->ninl++] = (struct inl){.caller_fn = fn_id(p, fr[i - 1].func),
						 .call_file = file_id(p, fr[i].call_file),
						 .call_line = fr[i].call_line > 0 ? (uint32_t)fr[i].call_line : 0,
						 .fn = fn_id(p, fr[i].func),
						 .instance = fr[i].instance};
		e->ninl++;
	}
	/* where in the function the address lies in: its own line, or where
	 * the outermost inlined call sits */
	e->base_file = e->ninl ? p->inl[e->first].call_file : e->file;
	e->base_line = e->ninl ? p->inl[e->first].call_line : e->line;
	uint32_t h = imap_find(&p->pemap, key);
	if (p->pemap.val[h] == NO_ID) { /* (a pc above 4 GiB with the same key stays uncached) */
		p->pemap.key[h] = key;
		p->pemap.val[h] = p->npe;
		p->pemap.n++;
	}
	return &p->pe[p->npe++];
}

static struct cost *cost_of(struct citcat_profile *p, uint32_t fn, uint32_t file, uint32_t line)
{
	uint64_t key = ((uint64_t)fn << 42) ^ ((uint64_t)file << 21) ^ line;
	if (imap_grow(&p->costmap)) {
		p->nomem = 1;
		return NULL;
	}
	uint32_t h = imap_find(&p->costmap, key);
	for (; p->costmap.val[h] != NO_ID; h = (h + 1) & (p->costmap.nslot - 1)) {
		struct cost *c = &p->cost[p->costmap.val[h]];
		if (p->costmap.key[h] == key && c->fn == fn && c->file == file && c->line == line)
			return c;
	}
	if (grow((void **)&p->cost, &p->capcost, p->ncost, sizeof *p->cost)) {
		p->nomem = 1;
		return NULL;
	}
	struct cost *c = &p->cost[p->ncost];
	memset(c, 0, sizeof *c);
	c->fn = fn;
	c->file = file;
	c->line = line;
	p->costmap.key[h] = key;
	p->costmap.val[h] = p->ncost++;
	p->costmap.n++;
	return c;
}

/* The edge from (FN, FILE, LINE) to CFN, made with the callee position
 * (CFILE, CLINE) on first sight; NO_ID when out of memory. */
static uint32_t edge_of(struct citcat_profile *p, uint32_t fn, uint32_t file, uint32_t line, uint32_t cfn, uint32_t cfile,
			uint32_t cline)
{
	uint64_t key = mix(((uint64_t)fn << 32) | cfn) ^ (((uint64_t)file << 32) | line);
	if (imap_grow(&p->edgemap)) {
		p->nomem = 1;
		return NO_ID;
	}
	uint32_t h = imap_find(&p->edgemap, key);
	for (; p->edgemap.val[h] != NO_ID; h = (h + 1) & (p->edgemap.nslot - 1)) {
		struct edge *e = &p->edge[p->edgemap.val[h]];
		if (p->edgemap.key[h] == key && e->fn == fn && e->file == file && e->line == line && e->cfn == cfn)
			return p->edgemap.val[h];
	}
	if (grow((void **)&p->edge, &p->capedge, p->nedge, sizeof *p->edge)) {
		p->nomem = 1;
		return NO_ID;
	}
	struct edge *e = &p->edge[p->nedge];
	memset(e, 0, sizeof *e);
	*e = (struct edge){.fn = fn, .file = file, .line = line, .cfn = cfn, .cfile = cfile, .cline = cline};
	p->edgemap.key[h] = key;
	p->edgemap.val[h] = p->nedge;
	p->edgemap.n++;
	return p->nedge++;
}

static void add(uint64_t *to, const uint64_t *c)
{
	for (int k = 0; k < NEV; k++)
		to[k] += c[k];
}

/* The inline edge of level I (0-based in E's chain). */
static uint32_t inline_edge(struct citcat_profile *p, const struct pcent *e, uint32_t i)
{
	const struct inl *in = &p->inl[e->first + i];
	/* the callee's position: the line the chain's next level is inlined at,
	 * or the instruction's own line for the innermost */
	uint32_t cfile = i + 1 < e->ninl ? p->inl[e->first + i + 1].call_file : e->file;
	uint32_t cline = i + 1 < e->ninl ? p->inl[e->first + i + 1].call_line : e->line;
	return edge_of(p, in->caller_fn, in->call_file, in->call_line, in->fn, cfile, cline);
}

/* Closes the open frames down to and including K: each one's inclusive cost
 * is what the run cost since it opened, given to its edge and to the inline
 * edges around its call site. */
static void pop_to(struct citcat_profile *p, uint32_t k)
{
	while (p->depth > k) {
		struct frame *f = &p->stack[--p->depth];
		uint64_t d[NEV];
		for (int j = 0; j < NEV; j++)
			d[j] = p->total[j] - f->t0[j];
		if (f->edge != NO_ID)
			add(p->edge[f->edge].c, d);
		if (f->site != NO_ID) {
			const struct pcent *s = &p->pe[f->site];
			for (uint32_t i = 0; i < s->ninl; i++) {
				uint32_t ie = inline_edge(p, s, i);
				if (ie != NO_ID)
					add(p->edge[ie].c, d);
			}
		}
	}
}

/* Opens a call (or entry) from the instruction SITE to the function CFN,
 * first reached at (CFILE, CLINE), returning to RET. */
static void push(struct citcat_profile *p, uint64_t ret, uint32_t site, uint32_t cfn, uint32_t cfile, uint32_t cline)
{
	if (p->depth == MAX_DEPTH) {
		p->lost_calls++;
		return;
	}
	const struct pcent *s = site != NO_ID ? &p->pe[site] : NULL;
	uint32_t e = edge_of(p, s ? s->fn : p->unknown_fn, s ? s->file : p->unknown_file, s ? s->line : 0, cfn, cfile,
			     cline);
	if (e != NO_ID)
		p->edge[e].calls++;
	struct frame *f = &p->stack[p->depth++];
	f->ret = ret;
	f->edge = e;
	f->site = site;
	memcpy(f->t0, p->total, sizeof f->t0);
}

int citcat_profile_bus(struct citcat_profile *p, const struct citcat_cat_event *ev)
{
	if (!p || !ev)
		return CITCAT_ERR_INVAL;
	switch (ev->kind) {
	case CITCAT_CAT_FILL_I:
		p->pend_i++;
		break;
	case CITCAT_CAT_FILL_D:
		if (p->npend_d < MAX_PENDING)
			p->pend_d[p->npend_d++] = ev->addr;
		else
			p->carry[CITCAT_PROF_D1MR]++; /* more than an instruction can cause: counted as read misses */
		p->pend_line = ev->len;
		break;
	case CITCAT_CAT_WRITEBACK:
		p->pend_wb++;
		break;
	case CITCAT_CAT_DMA:
		p->pend_dma++;
		break;
	default:
		break;
	}
	return 0;
}

/* The pending D-cache fills, each charged as a read or a write miss by the
 * first of REC's accesses in its line (a fill none explains: a read). */
static void charge_fills(struct citcat_profile *p, const struct citcat_itrace_rec *rec, uint64_t *c)
{
	for (uint32_t i = 0; i < p->npend_d; i++) {
		uint64_t lo = p->pend_d[i], hi = lo + (p->pend_line ? p->pend_line : 1);
		int write = 0;
		for (uint32_t k = 0; k < rec->n_acc; k++) {
			const struct citcat_access *a = &rec->acc[k];
			if (a->uncached || a->addr + a->size <= lo || a->addr >= hi)
				continue;
			write = a->write;
			break;
		}
		c[write ? CITCAT_PROF_D1MW : CITCAT_PROF_D1MR]++;
	}
	p->npend_d = 0;
}

/* Execution went from the instruction before to PC (the next instruction,
 * or the EPC of an entry taken in between), which lies in function FN at
 * (FILE, LINE).  Returns: reaching an open frame's return address closes
 * it (and any opened inside it: a longjmp, a handler left by another way).
 * Calls: a BL/BLX that went elsewhere than its next instruction. */
static void flow(struct citcat_profile *p, uint64_t pc, uint32_t fn, uint32_t file, uint32_t line)
{
	if (!p->have_prev)
		return;
	const struct pcent *prev = &p->pe[p->prev];
	if (pc == prev->pc + prev->size)
		return;
	for (uint32_t k = p->depth; k-- > 0;)
		if (p->stack[k].ret == pc) {
			pop_to(p, k);
			break;
		}
	prev = &p->pe[p->prev];
	if (prev->link)
		push(p, prev->pc + prev->size, p->prev, fn, file, line);
}

int citcat_profile_record(struct citcat_profile *p, const struct citcat_itrace_rec *rec)
{
	if (!p || !rec)
		return CITCAT_ERR_INVAL;
	if (p->nomem)
		return CITCAT_ERR_NOMEM;
	if (rec->kind == CITCAT_REC_IRQ) {
		/* an interrupt or exception entry: the misses of its stacking (the
		 * Cortex-M7's) go to the handler's first instruction, and the entry
		 * is a call from the instruction before it, returning at its EPC.
		 * The instruction before went to the EPC: a return or call it made
		 * is taken first. */
		if (!p->flow_done) {
			uint32_t fn, file, line;
			base_pos(p, rec->pc, &fn, &file, &line);
			flow(p, rec->pc, fn, file, line);
			p->flow_done = 1;
		}
		charge_fills(p, rec, p->carry);
		p->entry_pending = 1;
		p->entry_ret = rec->pc;
		return p->nomem ? CITCAT_ERR_NOMEM : 0;
	}
	if (rec->kind != CITCAT_REC_INSN)
		return 0;
	const struct pcent *e = pcent_of(p, rec);
	if (!e)
		return CITCAT_ERR_NOMEM;
	uint32_t ei = (uint32_t)(e - p->pe);
	if (!p->flow_done)
		flow(p, rec->pc, e->base_fn, e->base_file, e->base_line);
	/* an entry, whose handler this is */
	if (p->entry_pending) {
		push(p, p->entry_ret, p->have_prev ? p->prev : NO_ID, e->base_fn, e->base_file, e->base_line);
		p->entry_pending = 0;
	}
	/* this instruction's costs */
	uint64_t c[NEV];
	memcpy(c, p->carry, sizeof c);
	memset(p->carry, 0, sizeof p->carry);
	c[CITCAT_PROF_IR]++;
	for (uint32_t k = 0; k < rec->n_acc; k++) {
		const struct citcat_access *a = &rec->acc[k];
		c[a->uncached ? (a->write ? CITCAT_PROF_UW : CITCAT_PROF_UR) : a->write ? CITCAT_PROF_DW : CITCAT_PROF_DR]++;
	}
	c[CITCAT_PROF_I1MR] += p->pend_i;
	c[CITCAT_PROF_D1WB] += p->pend_wb;
	c[CITCAT_PROF_DMA] += p->pend_dma;
	p->pend_i = p->pend_wb = p->pend_dma = 0;
	charge_fills(p, rec, c);
	struct cost *sc = cost_of(p, e->fn, e->file, e->line);
	if (!sc)
		return CITCAT_ERR_NOMEM;
	add(sc->c, c);
	add(p->total, c);
	/* inlined calls: entered when the chain's copy at that level is new */
	e = &p->pe[ei];
	for (uint32_t i = 0; i < e->ninl; i++) {
		uint32_t ie = inline_edge(p, e, i);
		if (ie == NO_ID)
			return CITCAT_ERR_NOMEM;
		int entered = i >= p->prev_ninl;
		for (uint32_t j = 0; j <= i && !entered; j++)
			entered = p->prev_inst[j] != p->inl[e->first + j].instance;
		p->edge[ie].calls += (uint64_t)entered;
		add(p->edge[ie].c, c);
	}
	for (uint32_t i = 0; i < e->ninl && i < CITCAT_SYM_MAX_FRAMES; i++)
		p->prev_inst[i] = p->inl[e->first + i].instance;
	p->prev_ninl = e->ninl;
	p->prev = ei;
	p->have_prev = 1;
	p->flow_done = 0;
	return p->nomem ? CITCAT_ERR_NOMEM : 0;
}

int citcat_profile_totals(const struct citcat_profile *p, uint64_t *totals)
{
	if (!p || !totals)
		return CITCAT_ERR_INVAL;
	memcpy(totals, p->total, sizeof p->total);
	return 0;
}

/* ---- the file ---- */

struct out {
	struct cc_outfile *o;
	char buf[1 << 16];
	size_t len;
	int err;
};

static void flush_out(struct out *w)
{
	if (w->len && !w->err && cc_outfile_write(w->o, w->buf, w->len))
		w->err = errno ? errno : EIO;
	w->len = 0;
}

static void pf(struct out *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void pf(struct out *w, const char *fmt, ...)
{
	if (sizeof w->buf - w->len < 8192)
		flush_out(w);
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(w->buf + w->len, sizeof w->buf - w->len, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof w->buf - w->len) { /* a name longer than the buffer: cut */
		w->len = sizeof w->buf - 1;
		w->buf[w->len - 1] = '\n';
		return;
	}
	w->len += (size_t)n;
}

static void costs(struct out *w, const uint64_t *c)
{
	int last = NEV;
	while (last > 0 && !c[last - 1])
		last--; /* trailing zero events may be left out */
	for (int k = 0; k < last; k++)
		pf(w, " %llu", (unsigned long long)c[k]);
	pf(w, "\n");
}

/* Name compression (CALLGRIND.md): "(id) name" the first time, "(id)" after. */
static void name(struct out *w, const char *spec, const struct names *t, uint8_t *seen, uint32_t id)
{
	if (seen[id])
		pf(w, "%s=(%u)\n", spec, id + 1);
	else
		pf(w, "%s=(%u) %s\n", spec, id + 1, t->s[id]);
	seen[id] = 1;
}

static int cmp_cost(const void *a, const void *b)
{
	const struct cost *x = a, *y = b;
	if (x->fn != y->fn)
		return x->fn < y->fn ? -1 : 1;
	if (x->file != y->file)
		return x->file < y->file ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

static int cmp_edge(const void *a, const void *b)
{
	const struct edge *x = a, *y = b;
	if (x->fn != y->fn)
		return x->fn < y->fn ? -1 : 1;
	if (x->file != y->file)
		return x->file < y->file ? -1 : 1;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return x->cfn < y->cfn ? -1 : x->cfn > y->cfn;
}

static const char *const ev_names[NEV] = {"Ir", "Dr", "Dw", "I1mr", "D1mr", "D1mw", "D1wb", "Ur", "Uw", "DMA"};
int citcat_profile_write(struct citcat_profile *p, const char *path, const char *cmd, struct citcat_errinfo *err)
{
	struct citcat_errinfo dummy;
	if (!err)
		err = &dummy;
	memset(err, 0, sizeof *err);
	err->offset = UINT64_MAX;
	if (!p || !path)
		return citcat_errinfo_set(err, CITCAT_ERR_INVAL, UINT64_MAX, "no profile or output path");
	if (p->nomem)
		return citcat_errinfo_set(err, CITCAT_ERR_NOMEM, UINT64_MAX, "out of memory while profiling");
	pop_to(p, 0); /* calls still open at the end cost what ran since they opened */
	if (p->nomem)
		return citcat_errinfo_set(err, CITCAT_ERR_NOMEM, UINT64_MAX, "out of memory while profiling");
	uint8_t *fseen = calloc(p->fns.n ? p->fns.n : 1, 1), *lseen = calloc(p->files.n ? p->files.n : 1, 1);
	struct out *w = calloc(1, sizeof *w);
	if (!fseen || !lseen || !w) {
		free(fseen);
		free(lseen);
		free(w);
		return citcat_errinfo_set(err, CITCAT_ERR_NOMEM, UINT64_MAX, "out of memory");
	}
	int rc = cc_outfile_open(&w->o, path, 0, err);
	if (rc) {
		free(fseen);
		free(lseen);
		free(w);
		return rc;
	}
	qsort(p->cost, p->ncost, sizeof *p->cost, cmp_cost);
	qsort(p->edge, p->nedge, sizeof *p->edge, cmp_edge);
	/* the maps' indices are stale from here: the profile takes no more records */
	p->nomem = 1;
	pf(w, "# callgrind format\nversion: 1\ncreator: citcat %s\n", CITCAT_VERSION_STRING);
	if (cmd)
		pf(w, "cmd: %s\n", cmd);
	if (p->have_cfg) {
		const struct citcat_cache_config *cc[2] = {&p->cfg.icache, &p->cfg.dcache};
		for (int k = 0; k < 2; k++)
			pf(w, "desc: %s cache: %u B, %u B, %u-way associative\n", k ? "D1" : "I1", cc[k]->size, cc[k]->line,
			   cc[k]->ways);
	}
	if (p->lost_calls)
		pf(w, "# %llu calls deeper than %u were not followed\n", (unsigned long long)p->lost_calls, MAX_DEPTH);
	pf(w, "positions: line\nevents:");
	for (int k = 0; k < NEV; k++)
		pf(w, " %s", ev_names[k]);
	pf(w, "\n");
	pf(w, "summary:");
	costs(w, p->total);
	/* per function: its self costs line by line, then its calls */
	uint32_t ci = 0, ej = 0;
	while (ci < p->ncost || ej < p->nedge) {
		uint32_t fn = ci < p->ncost ? p->cost[ci].fn : UINT32_MAX;
		if (ej < p->nedge && p->edge[ej].fn < fn)
			fn = p->edge[ej].fn;
		uint32_t fl = ci < p->ncost && p->cost[ci].fn == fn ? p->cost[ci].file : p->edge[ej].file;
		pf(w, "\n");
		name(w, "fl", &p->files, lseen, fl);
		name(w, "fn", &p->fns, fseen, fn);
		uint32_t cur = fl;
		for (; ci < p->ncost && p->cost[ci].fn == fn; ci++) {
			const struct cost *c = &p->cost[ci];
			if (c->file != cur) {
				name(w, "fi", &p->files, lseen, c->file);
				cur = c->file;
			}
			pf(w, "%u", c->line);
			costs(w, c->c);
		}
		for (; ej < p->nedge && p->edge[ej].fn == fn; ej++) {
			const struct edge *e = &p->edge[ej];
			if (e->file != cur) {
				name(w, "fi", &p->files, lseen, e->file);
				cur = e->file;
			}
			name(w, "cfi", &p->files, lseen, e->cfile);
			name(w, "cfn", &p->fns, fseen, e->cfn);
			pf(w, "calls=%llu %u\n%u", (unsigned long long)e->calls, e->cline, e->line);
			costs(w, e->c);
		}
	}
	pf(w, "\ntotals:");
	costs(w, p->total);
	flush_out(w);
	int werr = w->err;
	if (werr) {
		cc_outfile_abort(w->o);
		rc = citcat_errinfo_set(err, CITCAT_ERR_IO, UINT64_MAX, "writing the profile failed: %s", strerror(werr));
	} else {
		rc = cc_outfile_commit(w->o, err);
	}
	free(w);
	free(fseen);
	free(lseen);
	return rc;
}
