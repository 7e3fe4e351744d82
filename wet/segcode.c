/* The models of a WET segment, shared by the builder and the reader
 * (segcode.h; WET.md "Segment blocks"). */
#include "segcode.h"
#include "wet_int.h"

#include <stdlib.h>
#include <string.h>

int wet_sc_open(struct wet_sc *sc, int enc, int m7)
{
	memset(sc, 0, sizeof *sc);
	sc->enc = enc;
	sc->m7 = m7;
	sc->rm.m7 = m7;
	return 0;
}

void wet_sc_close(struct wet_sc *sc)
{
	for (unsigned k = 0; k < WET_NBLOCKS; k++)
		if (sc->enc)
			wet_rc_free(&sc->rc[k]);
	free(sc->sst);
	free(sc->n1);
	free(sc->istmt);
	memset(sc, 0, sizeof *sc);
}

static int grow(void **p, size_t *cap, size_t need, size_t elem)
{
	if (need <= *cap)
		return 0;
	size_t nc = *cap ? *cap : 256;
	while (nc < need)
		nc *= 2;
	void *q = realloc(*p, nc * elem);
	if (!q)
		return -1;
	memset((char *)q + *cap * elem, 0, (nc - *cap) * elem); /* generation 0: never current */
	*p = q;
	*cap = nc;
	return 0;
}

int wet_sc_tables(struct wet_sc *sc, const struct wet_stmt *st, uint32_t nstmts, const struct wet_node *nd,
		  uint32_t nnodes)
{
	sc->st = st;
	sc->nd = nd;
	sc->nstmts = nstmts;
	sc->nnodes = nnodes;
	if (grow((void **)&sc->sst, &sc->sst_cap, nstmts ? nstmts : 1, sizeof *sc->sst) ||
	    grow((void **)&sc->n1, &sc->n1_cap, (size_t)nnodes + 1, sizeof *sc->n1))
		return -1;
	return 0;
}

int wet_sc_begin(struct wet_sc *sc, uint64_t first, uint32_t n_insns)
{
	sc->first = first;
	if (++sc->gen == 0) { /* wrapped: make every tag stale by hand */
		memset(sc->sst, 0, sc->sst_cap * sizeof *sc->sst);
		memset(sc->n1, 0, sc->n1_cap * sizeof *sc->n1);
		memset(sc->n2, 0, sizeof sc->n2);
		memset(sc->keys, 0, sizeof sc->keys);
		sc->gen = 1;
	}
	if (grow((void **)&sc->istmt, &sc->istmt_cap, n_insns ? n_insns : 1, sizeof *sc->istmt))
		return -1;
	if (sc->enc)
		for (unsigned k = 0; k < WET_NBLOCKS; k++)
			wet_rc_enc_init(&sc->rc[k]);
	sc->prev = sc->pprev = 0;
	struct wet_gamma *g[] = {&sc->g_node, &sc->g_evn, &sc->g_evgap, &sc->g_evval, &sc->g_reg,
				 &sc->g_mcount, &sc->g_mlit, &sc->g_mdelta, &sc->g_cdlit};
	for (unsigned i = 0; i < sizeof g / sizeof g[0]; i++)
		wet_gamma_init(g[i]);
	sc->p_n2 = sc->p_n1 = WET_P_HALF;
	wet_prob_init(sc->p_evtype, 4);
	sc->p_msign = WET_P_HALF;
	wet_prob_init(sc->p_cdnone, 2);
	/* the register model: every location unknown to the reader (the
	 * builder's writers stay: they are the truth a first read codes) */
	sc->rm.known = 0;
	sc->rm.nundo = 0;
	sc->rm.last_insn = 0;
	sc->rm.last_pc = 0;
	sc->corrupt = 0;
	sc->why = NULL;
	return 0;
}

int wet_sc_finish(struct wet_sc *sc)
{
	int rc = 0;
	for (unsigned k = 0; k < WET_NBLOCKS; k++)
		rc |= wet_rc_enc_finish(&sc->rc[k]);
	return rc;
}

int wet_sc_overrun(const struct wet_sc *sc)
{
	for (unsigned k = 0; k < WET_NBLOCKS; k++)
		if (wet_rc_dec_overrun(&sc->rc[k]))
			return 1;
	return 0;
}

static int bad(struct wet_sc *sc, unsigned block, const char *why)
{
	if (!sc->corrupt) {
		sc->corrupt = 1;
		sc->why = why;
		sc->bad_block = block;
	}
	return -1;
}

/* A decision "the prediction holds": bit 1. */
static inline int hit(struct wet_rc *r, wet_prob *p, int h)
{
	return wet_rc_bit(r, p, h);
}

static inline struct wet_sc_st *sst(struct wet_sc *sc, uint32_t s)
{
	struct wet_sc_st *e = &sc->sst[s];
	if (e->gen != sc->gen) {
		memset(e, 0, sizeof *e);
		e->gen = sc->gen;
		wet_prob_init(e->pc4, 4);
		e->pmc = WET_P_HALF;
		wet_prob_init(e->pcd, 4);
	}
	return e;
}

/* ---- node ids ---- */

uint32_t wet_sc_node(struct wet_sc *sc, uint32_t id)
{
	struct wet_rc *r = &sc->rc[WET_B_NODE];
	uint32_t h = (sc->prev * 0x9E3779B1u) ^ (sc->pprev * 0x85EBCA77u + 0x27d4eb2fu);
	h ^= h >> 15;
	h *= 0xC2B2AE3Du;
	struct wet_sc_n2 *e2 = &sc->n2[h >> (32 - WET_SC_N2BITS)];
	uint32_t tag = h | 1;
	int v2 = e2->gen == sc->gen && e2->tag == tag;
	struct wet_sc_n1 *e1 = &sc->n1[sc->prev];
	int v1 = e1->gen == sc->gen;
	uint32_t out = id;
	int done = 0;
	if (v2 && hit(r, &e2->p, sc->enc && id + 1 == e2->pred)) {
		out = e2->pred - 1;
		done = 1;
	}
	if (!done && v1 && (!v2 || e1->pred != e2->pred) && hit(r, &e1->p, sc->enc && id + 1 == e1->pred)) {
		out = e1->pred - 1;
		done = 1;
	}
	if (!done) {
		uint64_t v = wet_rc_gamma(r, &sc->g_node, id);
		if (v >= sc->nnodes) {
			bad(sc, WET_B_NODE, "a node id past the node table");
			v = 0;
		}
		out = (uint32_t)v;
	}
	if (!v2) {
		e2->gen = sc->gen;
		e2->tag = tag;
		e2->p = WET_P_HALF;
	}
	e2->pred = out + 1;
	if (!v1) {
		e1->gen = sc->gen;
		e1->p = WET_P_HALF;
	}
	e1->pred = out + 1;
	sc->pprev = sc->prev;
	sc->prev = out + 1;
	return out;
}

/* ---- events and condition outcomes ---- */

int wet_sc_events(struct wet_sc *sc, struct wet_event *ev, uint32_t *n, uint32_t cap, uint32_t n_insns)
{
	struct wet_rc *r = &sc->rc[WET_B_COND];
	uint64_t cnt = wet_rc_gamma(r, &sc->g_evn, sc->enc ? *n : 0);
	if (cnt > cap)
		return bad(sc, WET_B_COND, "more events than the segment can hold");
	*n = (uint32_t)cnt;
	uint64_t pos = 0;
	for (uint32_t i = 0; i < cnt; i++) {
		uint64_t gap = wet_rc_gamma(r, &sc->g_evgap, sc->enc ? ev[i].pos - pos : 0);
		if (gap >= n_insns || pos + gap >= n_insns)
			return bad(sc, WET_B_COND, "an event past the segment's last instance");
		pos += gap;
		uint32_t type = wet_rc_tree(r, sc->p_evtype, 2, sc->enc ? ev[i].type : 0);
		uint64_t val = 0;
		if (type == WET_EV_BANK || type == WET_EV_EXCRET)
			val = wet_rc_gamma(r, &sc->g_evval, sc->enc ? ev[i].val : 0);
		if (type > WET_EV_MEMREAD || (type == WET_EV_BANK && val > (sc->m7 ? 1u : 5u)) ||
		    (type == WET_EV_EXCRET && (!sc->m7 || val > 1)))
			return bad(sc, WET_B_COND, "an invalid event");
		ev[i].pos = (uint32_t)pos;
		ev[i].type = (uint8_t)type;
		ev[i].val = (uint32_t)val;
	}
	return 0;
}

int wet_sc_cond(struct wet_sc *sc, uint32_t stmt, int passed)
{
	struct wet_sc_st *e = sst(sc, stmt);
	int b = wet_rc_bit(&sc->rc[WET_B_COND], &e->pc4[e->hist & 3], passed);
	e->hist = (uint8_t)((e->hist << 1 | b) & 3);
	return b;
}

/* ---- the register model ---- */

static const uint32_t bank_cpsr[6] = {0x10, 0x13, 0x12, 0x17, 0x1b, 0x11};

static inline unsigned phys(const struct wet_sc *sc, unsigned r)
{
	return sc->m7 ? wet_phys_m(r, (int)sc->rm.bank) : wet_phys(r, bank_cpsr[sc->rm.bank]);
}

/* The writer of location PH; a location the segment has not touched yet
 * codes its writer before the segment (0 none, else the INDEX distance
 * back from the segment's first instance). */
static inline uint64_t rm_get(struct wet_sc *sc, unsigned ph)
{
	struct wet_regm *m = &sc->rm;
	if (!((m->known >> ph) & 1)) {
		uint64_t d = sc->enc && m->w[ph] ? sc->first + 1 - m->w[ph] : 0;
		d = wet_rc_gamma(&sc->rc[WET_B_DEP], &sc->g_reg, d);
		if (!sc->enc) {
			if (d > sc->first) {
				bad(sc, WET_B_DEP, "a register writer before the run's start");
				d = 0;
			}
			m->w[ph] = d ? sc->first + 1 - d : 0;
		}
		m->known |= 1ull << ph;
		sc->n_reg_init++;
	}
	return m->w[ph];
}

static inline void rm_set(struct wet_sc *sc, unsigned ph, uint64_t w)
{
	struct wet_regm *m = &sc->rm;
	if (m->m7 && m->nundo < WET_RM_UNDO) {
		m->undo_ph[m->nundo] = (uint8_t)ph;
		m->undo_w[m->nundo] = m->w[ph];
		m->undo_known[m->nundo++] = (uint8_t)((m->known >> ph) & 1);
	}
	m->w[ph] = w;
	m->known |= 1ull << ph;
}

void wet_sc_irq(struct wet_sc *sc, const struct wet_node *nd, uint64_t *stacked)
{
	struct wet_regm *m = &sc->rm;
	if (!sc->m7) {
		/* the entry copies CPSR into SPSR_irq: SPSR_irq's producer is the
		 * flags' last writer; LR_irq has none (WET.md "Model") */
		uint64_t f = rm_get(sc, wet_phys(WET_R_FLAGS, 0x12));
		unsigned sp = wet_phys(WET_R_SPSR, 0x12), lr = wet_phys(14, 0x12);
		m->w[sp] = f;
		m->w[lr] = 0;
		m->known |= 1ull << sp | 1ull << lr;
		m->bank = 2;
		return;
	}
	/* a fault taken at the instruction just before: it did not complete,
	 * its register writes are undone (WET.md "Cortex-M7") */
	if (m->last_insn && nd->line >= 3 && nd->line <= 6 && nd->pc == m->last_pc)
		while (m->nundo) {
			m->nundo--;
			unsigned ph = m->undo_ph[m->nundo];
			m->w[ph] = m->undo_w[m->nundo];
			m->known = (m->known & ~(1ull << ph)) | (uint64_t)m->undo_known[m->nundo] << ph;
		}
	m->nundo = 0;
	if (stacked) { /* the writers a full stacking copies (the builder's truth) */
		static const uint8_t src[8] = {0, 1, 2, 3, 12, 14, 255, 25};
		for (unsigned k = 0; k < 8; k++)
			stacked[k] = src[k] == 255 ? 0 : m->w[src[k]];
	}
	m->w[14] = 0; /* LR = EXC_RETURN */
	m->known |= 1ull << 14;
	m->bank = 0; /* handler mode runs on the MSP */
	m->last_insn = 0;
}

/* ---- one instance: data producers and control parent ---- */

/* Sorts V[0..N) descending (N is small: an instance's producers). */
static void sort_desc(uint64_t *v, uint32_t n)
{
	for (uint32_t i = 1; i < n; i++) {
		uint64_t x = v[i];
		uint32_t j = i;
		for (; j && v[j - 1] < x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

static inline struct wet_sc_key *key_get(struct wet_sc *sc, uint32_t stmt, uint32_t o)
{
	uint32_t k = stmt * 256u + o + 1;
	struct wet_sc_key *e = &sc->keys[(k * 0x9E3779B1u) >> (32 - WET_SC_KEYBITS)];
	if (e->gen != sc->gen || e->key != k) {
		memset(e, 0, sizeof *e);
		e->gen = sc->gen;
		e->key = k;
		wet_prob_init(e->p, 6);
	}
	return e;
}

/* One memory producer (INDEX + 1: P, 0 for the decoder) of the O-th
 * memory producer of an instance INDEX of STMT. */
static uint64_t mem_prod(struct wet_sc *sc, uint32_t stmt, uint32_t o, uint64_t index, uint64_t p)
{
	struct wet_rc *r = &sc->rc[WET_B_DEP];
	struct wet_sc_key *e = key_get(sc, stmt, o);
	uint64_t pred[4];
	unsigned np = 0;
	/* the latest instance of the last producer's statement; the same
	 * distance; the same producer; the producer plus the last stride */
	if (e->lasts) {
		uint64_t l = sst(sc, e->lasts - 1)->last;
		pred[np++] = l;
	} else {
		pred[np++] = 0;
	}
	pred[np++] = e->lastdist && e->lastdist <= index ? index + 1 - e->lastdist : 0;
	pred[np++] = e->lastprod;
	pred[np++] = e->lastprod && e->stride ? (uint64_t)((int64_t)e->lastprod + e->stride) : 0;
	uint64_t out = 0;
	for (unsigned j = 0; j < np && !out; j++) {
		uint64_t v = pred[j];
		if (!v || v > index)
			continue;
		int dup = 0;
		for (unsigned q = 0; q < j; q++)
			dup |= pred[q] == v;
		if (dup)
			continue;
		if (hit(r, &e->p[j], sc->enc && p == v))
			out = v;
	}
	if (out)
		sc->n_mem_hit++;
	if (!out) {
		if (e->lastprod) {
			int neg = wet_rc_bit(r, &sc->p_msign, sc->enc && p < e->lastprod);
			uint64_t mag = wet_rc_gamma(r, &sc->g_mdelta, sc->enc ? (neg ? e->lastprod - p : p - e->lastprod) - 1 : 0);
			if (mag == UINT64_MAX || (neg ? mag + 1 >= e->lastprod : mag + 1 > index - e->lastprod)) {
				bad(sc, WET_B_DEP, "a memory producer outside the run");
				return 0;
			}
			out = neg ? e->lastprod - mag - 1 : e->lastprod + mag + 1;
		} else {
			uint64_t d = wet_rc_gamma(r, &sc->g_mlit, sc->enc ? index - p : 0); /* 1 <= p <= index */
			if (d >= index) {
				bad(sc, WET_B_DEP, "a memory producer outside the run");
				return 0;
			}
			out = index - d;
		}
	}
	if (!out || out > index) {
		bad(sc, WET_B_DEP, "a memory producer that is not before its consumer");
		return 0;
	}
	e->stride = e->lastprod ? (int64_t)out - (int64_t)e->lastprod : 0;
	e->lastprod = out;
	e->lastdist = index + 1 - out;
	e->lasts = out - 1 >= sc->first ? sc->istmt[out - 1 - sc->first] : 0;
	sc->n_mem++;
	return out;
}

/* The control parent (INDEX + 1, 0 none; P the encoder's). */
static uint64_t ctrl_parent(struct wet_sc *sc, struct wet_sc_st *e, uint64_t index, uint64_t p)
{
	struct wet_rc *r = &sc->rc[WET_B_CDEP];
	uint64_t v1 = 0;
	for (unsigned c = 0; c < 4 && e->cand[c]; c++) {
		uint64_t l = sst(sc, e->cand[c] - 1)->last;
		if (l > v1)
			v1 = l;
	}
	uint64_t v2 = e->cdist && e->cdist <= index ? index + 1 - e->cdist : 0;
	uint64_t out = UINT64_MAX;
	if (v1 && hit(r, &e->pcd[0], sc->enc && p == v1))
		out = v1;
	else if (v2 && v2 != v1 && hit(r, &e->pcd[1], sc->enc && p == v2))
		out = v2;
	else if (hit(r, &e->pcd[2], sc->enc && p == 0))
		out = 0;
	if (out != UINT64_MAX) {
		sc->n_cd_hit++;
	} else {
		uint64_t d = wet_rc_gamma(r, &sc->g_cdlit, sc->enc ? index - p : 0); /* p - 1 < index */
		if (d >= index) {
			bad(sc, WET_B_CDEP, "a control parent that is not before its instance");
			return 0;
		}
		out = index - d;
	}
	sc->n_cd++;
	e->cdist = out ? index + 1 - out : 0;
	if (out && out - 1 >= sc->first) {
		uint32_t s = sc->istmt[out - 1 - sc->first];
		unsigned c = 0;
		while (c < 3 && e->cand[c] && e->cand[c] != s)
			c++;
		memmove(e->cand + 1, e->cand, c * sizeof e->cand[0]);
		e->cand[0] = s;
	}
	return out;
}

int wet_sc_insn(struct wet_sc *sc, uint32_t stmt, uint64_t index, int passed, uint32_t bank, unsigned excret,
		int memread, const uint64_t *mem, uint32_t nmem, uint64_t parent, uint64_t *prod, uint32_t *nprod,
		uint64_t *par, int *need_ev)
{
	const struct wet_stmt *s = &sc->st[stmt];
	const struct wet_du *du = &s->du;
	struct wet_regm *m = &sc->rm;
	uint64_t me = index + 1;
	uint32_t np = 0;
	m->bank = bank;
	/* register producers (the builder's add_prod order: uses, then the
	 * M7's special registers; distinct) */
#define ADD(w)                                                                                                          \
	do {                                                                                                            \
		uint64_t w_ = (w);                                                                                      \
		int d_ = !w_;                                                                                           \
		for (uint32_t q_ = 0; q_ < np && !d_; q_++)                                                            \
			d_ = prod[q_] == w_;                                                                            \
		if (!d_)                                                                                                \
			prod[np++] = w_;                                                                                \
	} while (0)
	if (passed) {
		for (unsigned i = 0; i < du->nuse; i++)
			ADD(rm_get(sc, phys(sc, du->use[i])));
		if (sc->m7)
			for (unsigned i = 0; i < du->nsuse; i++)
				ADD(rm_get(sc, wet_phys_sys(du->suse[i])));
	} else {
		ADD(rm_get(sc, phys(sc, WET_R_FLAGS)));
	}
	uint32_t nreg = np;
	/* memory producers */
	struct wet_sc_st *e = sst(sc, stmt);
	int cand = passed && (s->load || excret || memread);
	uint64_t mt[256];
	uint32_t nm = 0;
	if (sc->enc) {
		for (uint32_t i = 0; i < nmem; i++) {
			int dup = 0;
			for (uint32_t q = 0; q < nreg && !dup; q++)
				dup = prod[q] == mem[i];
			for (uint32_t q = 0; q < nm && !dup; q++)
				dup = mt[q] == mem[i];
			if (!dup) {
				if (nm + nreg >= 255)
					return -1; /* 255 producers at most (WET.md "Model") */
				mt[nm++] = mem[i];
			}
		}
		sort_desc(mt, nm);
		if (nm && !cand) {
			*need_ev = 1;
			cand = 1;
		}
	}
	if (cand) {
		struct wet_rc *r = &sc->rc[WET_B_DEP];
		uint64_t cnt;
		if (hit(r, &e->pmc, sc->enc && nm == e->mcount))
			cnt = e->mcount;
		else
			cnt = wet_rc_gamma(r, &sc->g_mcount, nm);
		if (cnt > 255 || cnt + nreg > 255)
			return bad(sc, WET_B_DEP, "more producers than an instance may have");
		e->mcount = (uint16_t)cnt;
		for (uint32_t o = 0; o < cnt; o++) {
			uint64_t p = mem_prod(sc, stmt, o, index, sc->enc ? mt[o] : 0);
			if (!p)
				return -1;
			if (o && p >= prod[np - 1])
				return bad(sc, WET_B_DEP, "memory producers not nearest first and distinct");
			for (uint32_t q = 0; q < nreg; q++)
				if (prod[q] == p)
					return bad(sc, WET_B_DEP, "a memory producer that is also a register producer");
			prod[np++] = p;
		}
	}
	sort_desc(prod, np);
	for (uint32_t i = 0; i < np; i++)
		prod[i]--; /* INDEX */
	*nprod = np;
#undef ADD
	/* the register model's writes */
	m->nundo = 0;
	if (passed) {
		for (unsigned i = 0; i < du->ndef; i++)
			rm_set(sc, phys(sc, du->def[i]), me);
		if (sc->m7) {
			for (unsigned i = 0; i < du->nsdef; i++)
				rm_set(sc, wet_phys_sys(du->sdef[i]), me);
			if (excret) { /* WET.md "Cortex-M7": the unstacking's definitions */
				static const uint8_t gp[6] = {0, 1, 2, 3, 12, 14};
				for (unsigned i = 0; i < 6; i++)
					rm_set(sc, gp[i], me);
				rm_set(sc, 25, me);
				rm_set(sc, excret == 2 ? 15 : 13, me);
				rm_set(sc, wet_phys_sys(WET_SYS_CONTROL), me);
				rm_set(sc, wet_phys_sys(WET_SYS_FAULTMASK), me);
			}
		}
	}
	m->last_insn = 1;
	m->last_pc = s->pc;
	/* the control parent */
	uint64_t pp = ctrl_parent(sc, e, index, sc->enc ? parent : 0);
	if (sc->corrupt)
		return -1;
	*par = pp;
	e->last = me;
	sc->istmt[index - sc->first] = stmt + 1;
	return 0;
}
