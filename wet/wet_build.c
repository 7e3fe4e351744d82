/* WET construction while replaying (WET.md).  The replayer's observer hands
 * over every record with the register file after it; from it the builder
 * keeps, per segment of the run, one stream per kind of label and, for the
 * dependences, a shadow of every register and RAM byte naming the last
 * instance that wrote it.  Memory is bounded by the segment size, the
 * static code (node table, decode cache) and the RAM shadow, never by the
 * length of the run. */
#include "bistream.h"
#include "bytes.h"
#include "cdep.h"
#include "defuse.h"
#include "ims.h"
#include "itrace.h"
#include "outfile.h"
#include "tier1.h"
#include "wet_int.h"
#include "ckpt.h"
#include "grow.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <xxhash.h>

#define PAGE_BITS 12
#define NPAGES (1u << (32 - PAGE_BITS))

struct u32vec {
	uint32_t *v;
	size_t n, cap;
};

static int vpush(struct u32vec *a, uint32_t x)
{
	if (cc_grow(&a->v, &a->cap, a->n + 1, sizeof *a->v, 4096, SIZE_MAX))
		return -1;
	a->v[a->n++] = x;
	return 0;
}

struct dcache_ent { /* decoded instruction, by (pc, word, instruction set, IT state) */
	uint32_t pc, word;
	uint8_t isa, it;
	int used;
	struct wet_du du;
};

struct node {
	uint32_t kind, pc, n, hash;
	uint32_t *words;
	uint32_t *pcs;  /* each statement's address (stored for path nodes) */
	uint8_t *isa, *its; /* each statement's instruction set (WET_ISA_*) and IT state before it */
	/* tier 1: value groups (tier1.h); per statement its group and the
	 * position of its first result in the group's tuple; per group its
	 * tuple's width and offset in a node execution's results, and the
	 * statements in group order (gorder[gstart[g] .. gstart[g+1])) */
	uint32_t ngroups;
	uint16_t *grp, *slot, *gorder;
	uint32_t *gwidth, *goff, *gstart;
	uint8_t *ndef;
};

struct tup_ent { /* a unique tuple of the segment */
	uint32_t node, g, hash, off, ord;
};

struct seg_ent {
	uint64_t first_insn, first_ts;
	uint64_t reach; /* the smallest INDEX its instances name as producer or control parent */
	uint32_t n_insns, n_nodes;
	uint64_t off[CITCAT_WET_NSTREAMS];
	uint32_t len[CITCAT_WET_NSTREAMS], count[CITCAT_WET_NSTREAMS];
	uint64_t hash[CITCAT_WET_NSTREAMS];
};

/* The Cortex-M7 register model's view of the run (WET.md "Cortex-M7"),
 * driven alike by both passes: the observer's CPSR slot holds xPSR and its
 * SPSR slot CONTROL (replay.h).  The registers after the last record; the
 * mode and SP before the last instruction (a synchronous entry's
 * instruction already shows the entry's registers: the state it
 * interrupted is the one before it). */
struct m7trk {
	uint32_t regs[CITCAT_OBS_NREGS];
	uint32_t pxpsr, pctrl, psp;
	int last_insn;
	uint32_t last_pc;
};

/* The mode word for the control dependences' shadow stack: IPSR and
 * whether thread mode runs on the PSP (mask 0x3ff). */
static uint32_t m7_mode(uint32_t xpsr, uint32_t ctrl)
{
	return (xpsr & 0x1ff) | (uint32_t)wet_m7_psp(xpsr, ctrl) << 9;
}

/* An exception entry (REGS: after it): the mode word and SP of the
 * interrupted state. */
static void m7_entry(struct m7trk *t, const struct citcat_itrace_rec *r, const uint32_t *regs, uint32_t *mode,
		     uint32_t *sp)
{
	const uint32_t *c = t->regs;
	if (t->last_insn && (c[CITCAT_OBS_CPSR] & 0x1ff) == r->line && (t->pxpsr & 0x1ff) != r->line) {
		*mode = m7_mode(t->pxpsr, t->pctrl);
		*sp = t->psp;
	} else {
		*mode = m7_mode(c[CITCAT_OBS_CPSR], c[CITCAT_OBS_SPSR]);
		*sp = c[CITCAT_OBS_SP];
	}
	memcpy(t->regs, regs, sizeof t->regs);
	t->last_insn = 0;
}

static void m7_insn(struct m7trk *t, const struct citcat_itrace_rec *r, const uint32_t *regs)
{
	t->pxpsr = t->regs[CITCAT_OBS_CPSR];
	t->pctrl = t->regs[CITCAT_OBS_SPSR];
	t->psp = t->regs[CITCAT_OBS_SP];
	memcpy(t->regs, regs, sizeof t->regs);
	t->last_insn = 1;
	t->last_pc = (uint32_t)r->pc;
}

/* Whether the instruction R, executed with registers BEFORE, is an
 * exception return (TARGET-M7.md "Return"): in handler mode, its record
 * ends with the eight unstacking reads (4 bytes each, ascending
 * addresses), and the value it loaded into the PC is an EXC_RETURN: the
 * register of a 16-bit BX, else the 4-byte read before the unstacking
 * (POP, LDM, LDR of the PC load it last).  *EXC gets the value. */
static int m7_exc_return(const struct citcat_itrace_rec *r, const uint32_t *before, uint32_t *exc)
{
	uint32_t n = r->n_acc;
	if (!(before[CITCAT_OBS_CPSR] & 0x1ff) || n < 8)
		return 0;
	for (uint32_t k = n - 8; k < n; k++)
		if (r->acc[k].write || r->acc[k].size != 4 || (k > n - 8 && r->acc[k].addr != r->acc[k - 1].addr + 4))
			return 0;
	uint32_t v;
	if (r->size == 2 && (r->word & 0xff87) == 0x4700)
		v = before[(r->word >> 3) & 15];
	else if (n >= 9 && !r->acc[n - 9].write && r->acc[n - 9].size == 4)
		v = (uint32_t)r->acc[n - 9].value;
	else
		return 0;
	*exc = v;
	return v == 0xFFFFFFF1u || v == 0xFFFFFFF9u || v == 0xFFFFFFFDu;
}

/* The IT state an exception return R resumes with: the unstacked xPSR's
 * (its last read) IT bits, IT[1:0] at 26:25 and IT[7:2] at 15:10; not 0
 * when a precise fault inside an IT block stacked them (TARGET-M7.md "IT
 * blocks and bus errors"). */
static unsigned m7_ret_it(const struct citcat_itrace_rec *r)
{
	uint32_t x = (uint32_t)r->acc[r->n_acc - 1].value;
	return ((x >> 25) & 3u) | ((x >> 10) & 0x3fu) << 2;
}

struct builder {
	const struct citcat_wet_build_config *cfg;
	struct citcat_wet_build_result *res;
	struct citcat_errinfo err;
	struct cc_outfile *out;
	uint64_t off;
	struct wet_decoder *dec;
	struct dcache_ent *dc;
	size_t dc_cap, dc_n;
	/* node table */
	struct node *nodes;
	size_t nnodes, nodes_cap;
	uint32_t *nh; /* hash -> node id + 1 */
	size_t nh_cap;
	/* the node being executed */
	uint32_t blk_pc[WET_NODE_MAX_INSNS], blk_word[WET_NODE_MAX_INSNS];
	uint8_t blk_isa[WET_NODE_MAX_INSNS], blk_it[WET_NODE_MAX_INSNS];
	uint32_t blk_n;
	/* per location r0-r12 and the flags: 1 + the position in the node of
	 * the last statement that defines it, if that statement is
	 * unconditional; 0 otherwise (local edges, WET.md) */
	uint16_t blk_def[WET_R_FLAGS + 1];
	/* the node's register results, per statement (0 when its condition
	 * failed), and how many slots the open node holds */
	uint32_t blk_val[WET_NODE_MAX_INSNS][WET_DU_MAX];
	uint32_t blk_nval;
	uint32_t tup[WET_NODE_MAX_INSNS * WET_DU_MAX];
	/* unique tuples of the segment (tier 1): hash table, and their number */
	struct tup_ent *tt;
	size_t tt_cap, tt_n;
	/* segment */
	struct u32vec s[CITCAT_WET_NSTREAMS], key[CITCAT_WET_NSTREAMS]; /* values and their keys */
	uint64_t seg_first_insn, seg_first_ts, seg_reach; /* seg_reach: as INDEX + 1, UINT64_MAX none yet */
	uint32_t seg_insns, seg_nodes;
	struct seg_ent *segs;
	size_t nsegs, segs_cap;
	/* run state */
	uint64_t insns, ts;
	uint32_t cpsr; /* before the next instruction */
	uint32_t sp;   /* the same: SP in the current mode (for the shadow stack) */
	struct wet_itk itk; /* the IT state (Thumb) */
	struct wet_cd *cd; /* control dependences */
	uint64_t reg_w[WET_NPHYS]; /* last writer INDEX + 1, 0 = none (initial state) */
	uint32_t *mem_w[NPAGES];   /* per RAM byte, the same (as INDEX + 1) */
	uint64_t prod[256];
	/* version 4, shared labels (section 3.3): the stored producers of the
	 * open node's instances (as INDEX + 1), nearest first per instance, and
	 * how many each instance has; labels at the node's close */
	uint64_t *nprod, *nlab;
	uint32_t *ncre;
	size_t nprod_n, nprod_cap;
	uint16_t blk_nst[WET_NODE_MAX_INSNS];
	uint32_t ram_base, ram_size;
	/* the Cortex-M7 (isa 2) */
	int m7;
	struct m7trk m7t;
	int m7_cut;          /* the last instance was an exception return: cut before the next */
	uint8_t undo_phys[WET_DU_MAX + 16];
	uint64_t undo_old[WET_DU_MAX + 16];
	unsigned nundo;      /* the last instance's register writes, undone when it faulted */
};

/* Physical location of logical register R before the next instruction. */
static inline unsigned phys(const struct builder *b, unsigned r)
{
	return b->m7 ? wet_phys_m(r, wet_m7_psp(b->cpsr, b->m7t.regs[CITCAT_OBS_SPSR])) : wet_phys(r, b->cpsr);
}

/* The mode word the shadow stack compares (cdep.h). */
static inline uint32_t cd_mode(const struct builder *b)
{
	return b->m7 ? m7_mode(b->cpsr, b->m7t.regs[CITCAT_OBS_SPSR]) : b->cpsr;
}

static inline void set_reg_w(struct builder *b, unsigned ph, uint64_t w)
{
	if (b->m7 && b->nundo < sizeof b->undo_phys) {
		b->undo_phys[b->nundo] = (uint8_t)ph;
		b->undo_old[b->nundo++] = b->reg_w[ph];
	}
	b->reg_w[ph] = w;
}

static int berr(struct builder *b, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int berr(struct builder *b, int code, const char *fmt, ...)
{
	if (!b->err.code) {
		va_list ap;
		va_start(ap, fmt);
		b->err.code = code;
		b->err.offset = UINT64_MAX;
		vsnprintf(b->err.msg, sizeof b->err.msg, fmt, ap);
		va_end(ap);
	}
	return code;
}

static size_t dc_hash(uint32_t pc, uint32_t word, unsigned isa, unsigned it)
{
	return (size_t)(pc * 0x9E3779B1u ^ word * 0x85EBCA77u ^ (isa << 8 | it) * 0xC2B2AE3Du);
}

static const struct wet_du *decode(struct builder *b, uint32_t pc, uint32_t word, unsigned isa, unsigned it)
{
	if (b->dc_n * 2 >= b->dc_cap) {
		size_t nc = b->dc_cap ? b->dc_cap * 2 : 4096;
		struct dcache_ent *n = calloc(nc, sizeof *n);
		if (!n)
			return NULL;
		for (size_t i = 0; i < b->dc_cap; i++)
			if (b->dc[i].used) {
				size_t h = dc_hash(b->dc[i].pc, b->dc[i].word, b->dc[i].isa, b->dc[i].it) & (nc - 1);
				while (n[h].used)
					h = (h + 1) & (nc - 1);
				n[h] = b->dc[i];
			}
		free(b->dc);
		b->dc = n;
		b->dc_cap = nc;
	}
	size_t h = dc_hash(pc, word, isa, it) & (b->dc_cap - 1);
	while (b->dc[h].used &&
	       (b->dc[h].pc != pc || b->dc[h].word != word || b->dc[h].isa != isa || b->dc[h].it != it))
		h = (h + 1) & (b->dc_cap - 1);
	if (!b->dc[h].used) {
		b->dc[h].used = 1;
		b->dc[h].pc = pc;
		b->dc[h].word = word;
		b->dc[h].isa = (uint8_t)isa;
		b->dc[h].it = (uint8_t)it;
		wet_decode_isa(b->dec, pc, word, wet_isa_size(isa), isa != WET_ISA_A32, it, &b->dc[h].du);
		b->dc_n++;
	}
	return &b->dc[h].du;
}

static uint32_t node_hash(uint32_t kind, uint32_t pc, uint32_t n, const uint32_t *words, const uint32_t *pcs,
			  const uint8_t *isa, const uint8_t *its)
{
	uint32_t h = XXH32(words, n * sizeof *words, pc ^ (kind << 31) ^ (n << 20));
	if (kind == WET_NODE_PATH) /* a basic block's addresses follow from its start and sizes */
		h = XXH32(pcs, n * sizeof *pcs, h);
	unsigned thumb = 0; /* A32 nodes hash as before version 6: no cost on A32 code */
	for (uint32_t k = 0; k < n; k++)
		thumb |= isa[k];
	if (thumb) {
		h = XXH32(isa, n, h);
		h = XXH32(its, n, h);
	}
	return h;
}

/* Tier 1: the value groups of node X (tier1.h). */
static int node_groups(struct builder *b, struct node *x)
{
	x->ngroups = 0;
	if (!x->n)
		return 0;
	struct wet_du *du = malloc(x->n * sizeof *du);
	const struct wet_du **dp = malloc(x->n * sizeof *dp);
	x->grp = malloc(x->n * sizeof *x->grp);
	x->slot = malloc(x->n * sizeof *x->slot);
	x->gorder = malloc(x->n * sizeof *x->gorder);
	x->ndef = malloc(x->n);
	x->gwidth = calloc(x->n, sizeof *x->gwidth);
	x->goff = calloc(x->n + 1, sizeof *x->goff);
	x->gstart = calloc(x->n + 1, sizeof *x->gstart);
	int rc = CITCAT_ERR_NOMEM;
	if (!du || !dp || !x->grp || !x->slot || !x->gorder || !x->ndef || !x->gwidth || !x->goff || !x->gstart)
		goto out;
	for (uint32_t k = 0; k < x->n; k++) {
		const struct wet_du *d = decode(b, x->pcs[k], x->words[k], x->isa[k], x->its[k]);
		if (!d)
			goto out;
		du[k] = *d; /* the decode cache may move */
		dp[k] = &du[k];
		x->ndef[k] = du[k].ndef;
	}
	int ng = wet_value_groups_isa(dp, x->words, x->isa, x->n, x->grp);
	if (ng < 0)
		goto out;
	x->ngroups = (uint32_t)ng;
	for (uint32_t k = 0; k < x->n; k++)
		if (x->grp[k] != WET_GROUP_NONE) {
			x->slot[k] = (uint16_t)x->gwidth[x->grp[k]];
			x->gwidth[x->grp[k]] += x->ndef[k];
			x->gstart[x->grp[k] + 1]++;
		}
	for (uint32_t g = 0; g < x->ngroups; g++) {
		x->goff[g + 1] = x->goff[g] + x->gwidth[g];
		x->gstart[g + 1] += x->gstart[g];
	}
	uint32_t fill[WET_NODE_MAX_INSNS];
	memcpy(fill, x->gstart, x->ngroups * sizeof *fill);
	for (uint32_t k = 0; k < x->n; k++)
		if (x->grp[k] != WET_GROUP_NONE)
			x->gorder[fill[x->grp[k]]++] = (uint16_t)k;
	b->res->groups += x->ngroups;
	rc = 0;
out:
	free(du);
	free(dp);
	return rc;
}

/* The id of the node (KIND, PC; its statements' WORDS, addresses PCS,
 * instruction sets ISA and IT states ITS, N of each), added when new. */
static int node_groups(struct builder *b, struct node *x);
static int node_id(struct builder *b, uint32_t kind, uint32_t pc, uint32_t n, const uint32_t *words,
		   const uint32_t *pcs, const uint8_t *isa, const uint8_t *its, uint32_t *id)
{
	if (b->nnodes * 2 >= b->nh_cap) {
		size_t nc = b->nh_cap ? b->nh_cap * 2 : 1024;
		uint32_t *t = calloc(nc, sizeof *t);
		if (!t)
			return CITCAT_ERR_NOMEM;
		for (size_t i = 0; i < b->nnodes; i++) {
			size_t h = b->nodes[i].hash & (nc - 1);
			while (t[h])
				h = (h + 1) & (nc - 1);
			t[h] = (uint32_t)i + 1;
		}
		free(b->nh);
		b->nh = t;
		b->nh_cap = nc;
	}
	uint32_t hv = node_hash(kind, pc, n, words, pcs, isa, its);
	size_t h = hv & (b->nh_cap - 1);
	for (; b->nh[h]; h = (h + 1) & (b->nh_cap - 1)) {
		struct node *x = &b->nodes[b->nh[h] - 1];
		if (x->hash == hv && x->kind == kind && x->pc == pc && x->n == n &&
		    (!n || (memcmp(x->words, words, n * sizeof *words) == 0 && memcmp(x->pcs, pcs, n * sizeof *pcs) == 0 &&
			    memcmp(x->isa, isa, n) == 0 && memcmp(x->its, its, n) == 0))) {
			*id = b->nh[h] - 1;
			return 0;
		}
	}
	if (cc_grow(&b->nodes, &b->nodes_cap, b->nnodes + 1, sizeof *b->nodes, 1024, SIZE_MAX))
		return CITCAT_ERR_NOMEM;
	struct node *x = &b->nodes[b->nnodes];
	x->kind = kind;
	x->pc = pc;
	x->n = n;
	x->hash = hv;
	x->words = NULL;
	x->pcs = NULL;
	x->isa = x->its = NULL;
	x->ngroups = 0;
	x->grp = x->slot = x->gorder = NULL;
	x->gwidth = x->goff = x->gstart = NULL;
	x->ndef = NULL;
	b->nh[h] = (uint32_t)b->nnodes + 1;
	*id = (uint32_t)b->nnodes++; /* counted now: the node is freed with the others if what follows fails */
	if (n) {
		if (!(x->words = malloc(n * sizeof *words)) || !(x->pcs = malloc(n * sizeof *pcs)) || !(x->isa = malloc(n)) ||
		    !(x->its = malloc(n)))
			return CITCAT_ERR_NOMEM;
		memcpy(x->words, words, n * sizeof *words);
		memcpy(x->pcs, pcs, n * sizeof *pcs);
		memcpy(x->isa, isa, n);
		memcpy(x->its, its, n);
	}
	return node_groups(b, x);
}

/* Appends V to stream K with key KEY (the statement's address). */
static inline int spush(struct builder *b, unsigned k, uint32_t key, uint32_t v)
{
	return vpush(&b->s[k], v) | vpush(&b->key[k], key);
}

static int emit_node(struct builder *b, uint32_t kind, uint32_t pc, uint32_t n, uint32_t *idp)
{
	uint32_t id;
	int rc = node_id(b, kind, pc, n, b->blk_word, b->blk_pc, b->blk_isa, b->blk_it, &id);
	if (rc)
		return berr(b, rc, "out of memory");
	if (spush(b, CITCAT_WET_S_NODE, 0, id))
		return berr(b, CITCAT_ERR_NOMEM, "out of memory");
	b->seg_nodes++;
	b->ts++;
	if (idp)
		*idp = id;
	return 0;
}

/* Tier 1: the register results of the node execution just closed (node
 * ID), one pattern value per group: 0 and the tuple's values when the
 * segment has not seen the tuple, else its ordinal + 1. */
static int emit_values(struct builder *b, uint32_t id)
{
	const struct node *x = &b->nodes[id];
	if (!x->ngroups)
		return 0;
	for (uint32_t k = 0; k < x->n; k++)
		if (x->grp[k] != WET_GROUP_NONE)
			memcpy(b->tup + x->goff[x->grp[k]] + x->slot[k], b->blk_val[k], x->ndef[k] * sizeof b->tup[0]);
	for (uint32_t g = 0; g < x->ngroups; g++) {
		const uint32_t *t = b->tup + x->goff[g];
		uint32_t wd = x->gwidth[g], key = WET_KEY(x->pcs[x->gorder[x->gstart[g]]], g);
		if ((b->tt_n + 1) * 2 > b->tt_cap) {
			size_t nc = b->tt_cap ? b->tt_cap * 2 : 4096;
			struct tup_ent *n = calloc(nc, sizeof *n);
			if (!n)
				return CITCAT_ERR_NOMEM;
			for (size_t i = 0; i < b->tt_cap; i++)
				if (b->tt[i].ord) {
					size_t h = b->tt[i].hash & (nc - 1);
					while (n[h].ord)
						h = (h + 1) & (nc - 1);
					n[h] = b->tt[i];
				}
			free(b->tt);
			b->tt = n;
			b->tt_cap = nc;
		}
		uint32_t hv = XXH32(t, wd * sizeof *t, id * 0x9E3779B1u + g);
		size_t h = hv & (b->tt_cap - 1);
		for (; b->tt[h].ord; h = (h + 1) & (b->tt_cap - 1)) {
			const struct tup_ent *e = &b->tt[h];
			if (e->hash == hv && e->node == id && e->g == g && !memcmp(b->s[CITCAT_WET_S_UVAL].v + e->off, t, wd * sizeof *t))
				break;
		}
		if (b->tt[h].ord) { /* ord is the ordinal + 1 */
			if (spush(b, CITCAT_WET_S_VPAT, key, b->tt[h].ord))
				return CITCAT_ERR_NOMEM;
			continue;
		}
		b->tt[h] = (struct tup_ent){id, g, hv, (uint32_t)b->s[CITCAT_WET_S_UVAL].n, (uint32_t)++b->tt_n};
		int fail = spush(b, CITCAT_WET_S_VPAT, key, 0);
		for (uint32_t j = x->gstart[g]; j < x->gstart[g + 1]; j++) {
			uint32_t k = x->gorder[j], pc = x->pcs[k];
			for (unsigned i = 0; i < x->ndef[k]; i++)
				fail |= spush(b, CITCAT_WET_S_UVAL, WET_KEY(pc, i), b->blk_val[k][i]);
		}
		if (fail)
			return CITCAT_ERR_NOMEM;
		b->res->tuples++;
	}
	return 0;
}

static int cmp_u64(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, c = *(const uint64_t *)y;
	return a < c ? -1 : a > c;
}

/* Shared labels (WET.md, "Shared labels"): the stored producers of the
 * node execution just closed, edge by edge in order (instance, then
 * nearest producer first).  The first edge naming a producer holds its
 * label, 2 x the INDEX distance from its consumer to the producer; every
 * later edge naming the same producer refers to the label: 2 x its
 * ordinal among the node execution's labels + 1. */
static int emit_labels(struct builder *b)
{
	size_t n = b->nprod_n;
	uint64_t first = b->insns - b->blk_n + 1; /* the node's first instance, as a shadow entry */
	/* each edge's creator: sorted by (producer, edge), a producer's first
	 * edge comes first */
	for (size_t e = 0; e < n; e++)
		b->nlab[e] = b->nprod[e] << 20 | e;
	if (n > 1)
		qsort(b->nlab, n, sizeof *b->nlab, cmp_u64);
	uint32_t crt = 0;
	for (size_t i = 0; i < n; i++) {
		uint32_t e = (uint32_t)(b->nlab[i] & 0xfffff);
		if (!i || b->nlab[i] >> 20 != b->nlab[i - 1] >> 20) {
			b->ncre[e] = UINT32_MAX; /* creates the label */
			crt = e;
		} else {
			b->ncre[e] = crt;
		}
	}
	int fail = 0;
	uint32_t nl = 0;
	size_t e = 0;
	for (uint32_t k = 0; k < b->blk_n; k++)
		for (unsigned o = 0; o < b->blk_nst[k]; o++, e++) {
			uint32_t key = WET_KEY(b->blk_pc[k], o);
			if (b->ncre[e] == UINT32_MAX) {
				b->nlab[e] = nl++; /* the sort is done: nlab holds the creators' ordinals */
				fail |= spush(b, CITCAT_WET_S_DEP, key, 2 * (uint32_t)(first + k - b->nprod[e]));
			} else {
				fail |= spush(b, CITCAT_WET_S_DEP, key, 2 * (uint32_t)b->nlab[b->ncre[e]] + 1);
			}
		}
	b->res->dep_labels += nl;
	b->nprod_n = 0;
	return fail ? CITCAT_ERR_NOMEM : 0;
}

static int close_block(struct builder *b)
{
	if (!b->blk_n)
		return 0;
	int path = b->cfg->node_kind == CITCAT_WET_NODES_PATH;
	uint32_t id;
	int rc = emit_node(b, path ? WET_NODE_PATH : WET_NODE_BLOCK, b->blk_pc[0], b->blk_n, &id);
	if (!rc && (rc = emit_values(b, id)))
		berr(b, rc, "out of memory");
	if (!rc && (rc = emit_labels(b)))
		berr(b, rc, "out of memory");
	b->blk_n = 0;
	b->blk_nval = 0;
	memset(b->blk_def, 0, sizeof b->blk_def);
	return rc;
}

static int write_bytes(struct builder *b, const void *p, size_t n)
{
	if (cc_outfile_write(b->out, p, n)) {
		struct citcat_errinfo e = {0};
		int rc = cc_outfile_errinfo(b->out, &e); /* with the reason (common/outfile.h) */
		return berr(b, rc ? rc : CITCAT_ERR_IO, "%s", e.msg[0] ? e.msg : "write failed");
	}
	b->off += n;
	return 0;
}

/* Tier 1 for an access stream (version 5, WET.md "Tier 1 for access
 * addresses and values"): X[0..N) with keys K (the static access) becomes
 * a pattern stream PAT (per value: 0 when the segment has not had it for
 * its key, else the ordinal + 1 of the equal earlier value of that key)
 * and the unique values UNI, in order, each with its key. */
static int acc_tier1(const uint32_t *x, const uint32_t *k, size_t n, struct u32vec *pat, struct u32vec *patk,
		     struct u32vec *uni, struct u32vec *unik)
{
	size_t cap = 16;
	while (cap < 2 * (n + 1))
		cap *= 2;
	/* (key, value) -> ordinal + 1; key -> values of that key so far */
	uint64_t *hk = calloc(cap, sizeof *hk);
	uint32_t *hv = calloc(cap, sizeof *hv), *ck = calloc(cap, sizeof *ck), *cv = calloc(cap, sizeof *cv);
	int fail = !hk || !hv || !ck || !cv;
	pat->n = patk->n = uni->n = unik->n = 0;
	for (size_t i = 0; i < n && !fail; i++) {
		uint32_t key = k[i], v = x[i];
		uint64_t kx = (uint64_t)key << 32 | v;
		size_t h = (size_t)(XXH64(&kx, sizeof kx, 0) & (cap - 1));
		while (hv[h] && hk[h] != kx)
			h = (h + 1) & (cap - 1);
		if (hv[h]) {
			fail |= vpush(pat, hv[h]) | vpush(patk, key);
			continue;
		}
		size_t c = (size_t)(XXH32(&key, sizeof key, 1) & (cap - 1));
		while (cv[c] && ck[c] != key)
			c = (c + 1) & (cap - 1);
		ck[c] = key;
		hk[h] = kx;
		hv[h] = ++cv[c];
		fail |= vpush(pat, 0) | vpush(patk, key) | vpush(uni, v) | vpush(unik, key);
	}
	free(hk);
	free(hv);
	free(ck);
	free(cv);
	return fail ? -1 : 0;
}

static int flush_segment(struct builder *b)
{
	if (!b->seg_insns && !b->seg_nodes)
		return 0;
	if (cc_grow(&b->segs, &b->segs_cap, b->nsegs + 1, sizeof *b->segs, 256, SIZE_MAX))
		return berr(b, CITCAT_ERR_NOMEM, "out of memory");
	struct seg_ent *e = &b->segs[b->nsegs++];
	e->first_insn = b->seg_first_insn;
	e->first_ts = b->seg_first_ts;
	e->reach = b->seg_reach == UINT64_MAX || b->seg_reach - 1 > b->seg_first_insn ? b->seg_first_insn : b->seg_reach - 1;
	b->seg_reach = UINT64_MAX;
	e->n_insns = b->seg_insns;
	e->n_nodes = b->seg_nodes;
	uint8_t *blk[CITCAT_WET_NSTREAMS] = {0};
	size_t len[CITCAT_WET_NSTREAMS];
	unsigned method[CITCAT_WET_NSTREAMS];
	int rc = 0;
	for (unsigned k = 0; k < CITCAT_WET_NSTREAMS && !rc; k++) {
		if (b->s[k].n > WET_BLOCK_MAX)
			rc = berr(b, CITCAT_ERR_INTERNAL, "stream block too long");
		else if (wet_block_encode(b->s[k].v, b->key[k].v, (uint32_t)b->s[k].n, &blk[k], &len[k], &method[k]))
			rc = berr(b, CITCAT_ERR_NOMEM, "out of memory");
	}
	/* version 5: the addresses and the access values in tier-1 form (their
	 * pattern stream, apat or avpat, is empty until here) when that is
	 * smaller than the plain block and the empty pattern block */
	static const unsigned plain[2] = {CITCAT_WET_S_AADDR, CITCAT_WET_S_AVAL},
			      patst[2] = {CITCAT_WET_S_APAT, CITCAT_WET_S_AVPAT};
	for (unsigned a = 0; a < 2 && !rc; a++) {
		unsigned u = plain[a], q = patst[a];
		if (!b->s[u].n)
			continue;
		struct u32vec pat = {0}, patk = {0}, uni = {0}, unik = {0};
		uint8_t *pb = NULL, *ub = NULL;
		size_t pl = 0, ul = 0;
		unsigned pm = 0, um = 0;
		if (acc_tier1(b->s[u].v, b->key[u].v, b->s[u].n, &pat, &patk, &uni, &unik) ||
		    wet_block_encode(pat.v, patk.v, (uint32_t)pat.n, &pb, &pl, &pm) ||
		    wet_block_encode(uni.v, unik.v, (uint32_t)uni.n, &ub, &ul, &um)) {
			rc = berr(b, CITCAT_ERR_NOMEM, "out of memory");
		} else if (pl + ul < len[u] + len[q]) {
			free(blk[u]);
			free(blk[q]);
			blk[u] = ub;
			len[u] = ul;
			method[u] = um;
			blk[q] = pb;
			len[q] = pl;
			method[q] = pm;
			ub = pb = NULL;
			b->s[u].n = uni.n;
			b->s[q].n = pat.n;
			b->res->acc_tier1[a]++;
		}
		free(pb);
		free(ub);
		free(pat.v);
		free(patk.v);
		free(uni.v);
		free(unik.v);
	}
	for (unsigned k = 0; k < CITCAT_WET_NSTREAMS; k++) {
		if (!rc) {
			e->off[k] = b->off;
			e->len[k] = (uint32_t)len[k];
			e->count[k] = (uint32_t)b->s[k].n;
			e->hash[k] = XXH64(blk[k], len[k], 0);
			b->res->stream[k].values += b->s[k].n;
			b->res->stream[k].bytes += len[k];
			b->res->stream[k].method[method[k]]++;
			rc = write_bytes(b, blk[k], len[k]);
		}
		free(blk[k]);
		b->s[k].n = 0;
		b->key[k].n = 0;
	}
	if (rc)
		return rc;
	if (b->tt_n)
		memset(b->tt, 0, b->tt_cap * sizeof *b->tt);
	b->tt_n = 0;
	b->seg_first_insn = b->insns;
	b->seg_first_ts = b->ts + 1;
	b->seg_insns = b->seg_nodes = 0;
	return 0;
}

static int seg_full(const struct builder *b)
{
	if (b->seg_insns >= b->cfg->seg_insns)
		return 1;
	for (unsigned k = 0; k < CITCAT_WET_NSTREAMS; k++)
		if (b->s[k].n > WET_BLOCK_MAX - 2048)
			return 1;
	/* the open node's results and patterns join the streams when it closes */
	if (b->s[CITCAT_WET_S_UVAL].n + b->blk_nval > WET_BLOCK_MAX - 2048 ||
	    b->s[CITCAT_WET_S_VPAT].n + b->blk_n > WET_BLOCK_MAX - 2048 ||
	    b->s[CITCAT_WET_S_DEP].n + b->nprod_n > WET_BLOCK_MAX - 2048)
		return 1;
	return 0;
}

static uint32_t *mem_slot(struct builder *b, uint32_t a, int create)
{
	uint32_t **pg = &b->mem_w[a >> PAGE_BITS];
	if (!*pg) {
		if (!create)
			return NULL;
		if (!(*pg = calloc(1u << PAGE_BITS, sizeof **pg)))
			return NULL;
	}
	return &(*pg)[a & ((1u << PAGE_BITS) - 1)];
}

static void add_prod(struct builder *b, unsigned *np, uint64_t w)
{
	if (!w)
		return;
	for (unsigned i = 0; i < *np; i++)
		if (b->prod[i] == w)
			return;
	if (*np < 256)
		b->prod[(*np)++] = w;
}

/* Whether an instruction's condition held, as the shadow stack sees it
 * (both passes use this; IT: the IT state before it). */
static int cd_passed(const struct citcat_itrace_rec *r, unsigned it, uint32_t cpsr)
{
	unsigned cond = wet_cond_isa(r->word, r->size, r->thumb, it);
	return cond >= 14 || wet_cond_passed(cond, cpsr);
}

/* The register model's CPSR after an interrupt entry from CPSR: IRQ mode,
 * IRQs masked, ARM state and the IT state cleared (the records give each
 * handler instruction's state; the IT state is tracked apart, wet_itk). */
static uint32_t irq_cpsr(uint32_t cpsr)
{
	return (cpsr & ~(0x1fu | 0x20u | 0x0600fc00u)) | 0x12u | 0x80u;
}

static int cmp_desc(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, c = *(const uint64_t *)y;
	return a < c ? 1 : a > c ? -1 : 0;
}

static int on_insn(struct builder *b, const struct citcat_itrace_rec *r, const uint32_t *regs)
{
	uint32_t pc = (uint32_t)r->pc;
	uint64_t parent = 0;
	int cont = 0;
	unsigned isa = wet_isa_of(r->size, r->thumb), it = b->itk.it, ret_it = 0;
	int rc = wet_cd_insn_isa(b->cd, b->insns, pc, r->word, wet_isa_size(isa), isa != WET_ISA_A32,
				 cd_passed(r, it, b->cpsr), cd_mode(b), b->sp, &parent, &cont);
	if (rc)
		return berr(b, rc, "control dependences: %s at instruction %llu",
			    rc == CITCAT_ERR_INTERNAL ? "the second pass differs from the first" : citcat_errstr(rc),
			    (unsigned long long)b->insns);
	/* a basic block ends before a non-consecutive address or a change of
	 * instruction set; a path before a back edge, a call, a return or an
	 * interrupt (cdep.h); both where the IT state is not the one the
	 * node's last statement leaves (an exception return restored it), so
	 * that a node's IT states follow from its first */
	uint32_t l = b->blk_n - 1;
	int cut = b->blk_n &&
		  (b->cfg->node_kind == CITCAT_WET_NODES_BB
			   ? pc != b->blk_pc[l] + wet_isa_size(b->blk_isa[l]) || (isa == WET_ISA_A32) != (b->blk_isa[l] == WET_ISA_A32)
			   : !cont);
	cut |= b->m7_cut;
	b->m7_cut = 0;
	cut |= b->blk_n && it != wet_it_next(b->blk_it[l], b->blk_word[l], wet_isa_size(b->blk_isa[l]), b->blk_isa[l] != WET_ISA_A32);
	if (b->blk_n && (cut || b->blk_n == WET_NODE_MAX_INSNS || seg_full(b)))
		if (close_block(b))
			return b->err.code;
	if (!b->blk_n && seg_full(b) && flush_segment(b))
		return b->err.code;
	if (b->insns >= (1u << 31) - 1) /* a label is 2 x an INDEX distance in 32 bits */
		return berr(b, CITCAT_ERR_LIMIT, "more than 2^31-1 instructions: beyond this WET version's limit");
	const struct wet_du *du = decode(b, pc, r->word, isa, it);
	if (!du)
		return berr(b, CITCAT_ERR_NOMEM, "out of memory");
	uint32_t pos = b->blk_n; /* the statement's position in its node */
	if (!pos)
		memset(b->blk_def, 0, sizeof b->blk_def);
	b->blk_pc[b->blk_n] = pc;
	b->blk_isa[b->blk_n] = (uint8_t)isa;
	b->blk_it[b->blk_n] = (uint8_t)it;
	b->blk_word[b->blk_n++] = r->word;
	uint64_t me = b->insns + 1; /* as a shadow entry */
	int passed = wet_cond_passed(du->cond, b->cpsr);
	int fail = 0;
	if (du->cond != 14 && du->cond != 15)
		fail |= spush(b, CITCAT_WET_S_COND, pc, (uint32_t)passed);
	/* uses */
	unsigned np = 0;
	if (passed) {
		for (unsigned i = 0; i < du->nuse; i++)
			add_prod(b, &np, b->reg_w[phys(b, du->use[i])]);
		if (b->m7)
			for (unsigned i = 0; i < du->nsuse; i++)
				add_prod(b, &np, b->reg_w[wet_phys_sys(du->suse[i])]);
	} else {
		add_prod(b, &np, b->reg_w[phys(b, WET_R_FLAGS)]);
	}
	fail |= spush(b, CITCAT_WET_S_ACCN, pc, r->n_acc);
	for (uint32_t k = 0; k < r->n_acc; k++) {
		const struct citcat_access *a = &r->acc[k];
		uint32_t key = WET_KEY(pc, k);
		fail |= spush(b, CITCAT_WET_S_AKIND, key, a->size | (a->write ? 0x80u : 0));
		fail |= spush(b, CITCAT_WET_S_AADDR, key, (uint32_t)a->addr);
		fail |= spush(b, CITCAT_WET_S_AVAL, key, (uint32_t)a->value);
		if (a->size == 8)
			fail |= spush(b, CITCAT_WET_S_AVALHI, key, (uint32_t)(a->value >> 32));
		if (!a->write && (uint32_t)a->addr - b->ram_base < b->ram_size)
			for (unsigned i = 0; i < a->size; i++) {
				uint32_t *s = mem_slot(b, (uint32_t)a->addr + i, 0);
				add_prod(b, &np, s ? *s : 0);
			}
	}
	if (np == 256)
		return berr(b, CITCAT_ERR_LIMIT, "instruction %llu has more producers than a WET records",
			    (unsigned long long)b->insns);
	qsort(b->prod, np, sizeof b->prod[0], cmp_desc);
	/* local edges: a producer that the node's statements imply is not
	 * stored (the reader infers it the same way) */
	uint64_t inf[WET_DU_MAX + 1];
	unsigned ninf = wet_local_producers(du, passed, pos, b->blk_def, inf);
	unsigned nst = 0;
	for (unsigned i = 0; i < np; i++) {
		int local = 0;
		for (unsigned q = 0; q < ninf && !local; q++)
			local = b->prod[i] == me - inf[q];
		if (!local)
			b->prod[nst++] = b->prod[i];
	}
	if (np - nst != ninf)
		return berr(b, CITCAT_ERR_INTERNAL, "instruction %llu (pc 0x%08x): a local edge is not a producer",
			    (unsigned long long)b->insns, pc);
	b->res->local_deps += ninf;
	fail |= spush(b, CITCAT_WET_S_DEPN, pc, nst);
	/* the stored producers wait for the node's labels (emit_labels) */
	if (nst && b->nprod_n + nst > b->nprod_cap) {
		size_t nc = (size_t)WET_NODE_MAX_INSNS * 256; /* a node's most */
		uint64_t *p = realloc(b->nprod, nc * sizeof *p), *q = p ? realloc(b->nlab, nc * sizeof *q) : NULL;
		if (p)
			b->nprod = p;
		if (q)
			b->nlab = q;
		uint32_t *c = q ? realloc(b->ncre, nc * sizeof *c) : NULL;
		if (!c)
			return berr(b, CITCAT_ERR_NOMEM, "out of memory");
		b->ncre = c;
		b->nprod_cap = nc;
	}
	if (nst)
		memcpy(b->nprod + b->nprod_n, b->prod, nst * sizeof *b->prod);
	b->nprod_n += nst;
	b->blk_nst[pos] = (uint16_t)nst;
	for (unsigned i = 0; i < du->ndef; i++)
		if (du->def[i] <= WET_R_FLAGS && du->def[i] != 13 && du->def[i] != 14)
			b->blk_def[du->def[i]] = du->cond == 14 ? (uint16_t)(pos + 1) : 0;
	b->res->deps += np;
	for (unsigned i = 0; i < nst; i++) /* local producers lie in the node, in the segment */
		if (b->prod[i] < b->seg_reach)
			b->seg_reach = b->prod[i];
	if (parent && parent < b->seg_reach)
		b->seg_reach = parent;
	fail |= spush(b, CITCAT_WET_S_CDEP, pc, parent ? (uint32_t)(me - parent) : 0);
	b->res->cdeps += parent != 0;
	/* defs: the results wait in the node for tier 1 (0 when the condition failed) */
	memset(b->blk_val[pos], 0, du->ndef * sizeof b->blk_val[pos][0]);
	b->blk_nval += du->ndef;
	b->nundo = 0;
	if (passed) {
		for (unsigned i = 0; i < du->ndef; i++) {
			unsigned d = du->def[i];
			uint32_t v = d < 15 ? regs[d] : d == WET_R_FLAGS ? regs[CITCAT_OBS_CPSR] >> 27 : regs[CITCAT_OBS_SPSR];
			b->blk_val[pos][i] = v;
			set_reg_w(b, phys(b, d), me);
		}
		uint32_t exc;
		if (b->m7) {
			for (unsigned i = 0; i < du->nsdef; i++)
				set_reg_w(b, wet_phys_sys(du->sdef[i]), me);
			/* an exception return: the unstacking defines R0-R3, R12,
			 * LR, xPSR (the flags), the SP it returns to, CONTROL
			 * (SPSEL) and FAULTMASK (WET.md "Cortex-M7") */
			if (m7_exc_return(r, b->m7t.regs, &exc)) {
				static const uint8_t gp[6] = {0, 1, 2, 3, 12, 14};
				for (unsigned i = 0; i < 6; i++)
					set_reg_w(b, gp[i], me);
				set_reg_w(b, 25, me);
				set_reg_w(b, exc == 0xFFFFFFFDu ? 15 : 13, me);
				set_reg_w(b, wet_phys_sys(WET_SYS_CONTROL), me);
				set_reg_w(b, wet_phys_sys(WET_SYS_FAULTMASK), me);
				b->m7_cut = 1;
				ret_it = m7_ret_it(r);
			}
		}
		b->res->regvals += du->ndef;
		for (uint32_t k = 0; k < r->n_acc; k++) {
			const struct citcat_access *a = &r->acc[k];
			if (a->write && (uint32_t)a->addr - b->ram_base < b->ram_size)
				for (unsigned i = 0; i < a->size; i++) {
					uint32_t *s = mem_slot(b, (uint32_t)a->addr + i, 1);
					if (!s)
						return berr(b, CITCAT_ERR_NOMEM, "out of memory");
					*s = (uint32_t)me;
				}
		}
	}
	if (fail)
		return berr(b, CITCAT_ERR_NOMEM, "out of memory");
	if (b->m7) {
		b->itk.it = wet_it_next(b->itk.it, r->word, r->size, 1);
		if (b->m7_cut)
			b->itk.it = ret_it; /* resumes with the frame's IT state */
		m7_insn(&b->m7t, r, regs);
	} else {
		wet_itk_step(&b->itk, r->word, r->thumb ? r->size : 4u, r->thumb, b->cpsr, regs[CITCAT_OBS_CPSR]);
	}
	b->cpsr = regs[CITCAT_OBS_CPSR];
	b->sp = regs[CITCAT_OBS_SP];
	b->insns++;
	b->seg_insns++;
	return 0;
}

/* A Cortex-M7 exception entry (REGS: after it; WET.md "Cortex-M7"): a
 * node of its own.  A fault taken at the instruction just before (its
 * return address) means that instruction did not complete: its register
 * writes are undone.  The eight stacking writes copy the producers of
 * R0-R3, R12, LR and the flags (xPSR) to the stacked words, the return
 * address has none; LR = EXC_RETURN has no producer; SP, CONTROL and the
 * masks keep theirs.  */
static int m7_on_entry(struct builder *b, const struct citcat_itrace_rec *r, const uint32_t *regs)
{
	if (b->m7t.last_insn && r->line >= 3 && r->line <= 6 && (uint32_t)r->pc == b->m7t.last_pc) {
		while (b->nundo) {
			b->nundo--;
			b->reg_w[b->undo_phys[b->nundo]] = b->undo_old[b->nundo];
		}
		b->m7_cut = 0;
	}
	b->nundo = 0;
	uint32_t mode, sp;
	m7_entry(&b->m7t, r, regs, &mode, &sp);
	int rc = wet_cd_irq(b->cd, (uint32_t)r->pc, mode, sp);
	if (rc)
		return berr(b, rc, "control dependences: %s", citcat_errstr(rc));
	if (emit_node(b, WET_NODE_IRQ | (uint32_t)r->line << 8, (uint32_t)r->pc, 0, NULL))
		return b->err.code;
	static const uint8_t src[8] = {0, 1, 2, 3, 12, 14, 255, 25};
	int full = r->n_acc == 9;
	for (uint32_t k = 0; k < 8 && full; k++)
		full = r->acc[k].write && r->acc[k].size == 4 && (!k || r->acc[k].addr == r->acc[k - 1].addr + 4);
	for (uint32_t k = 0; k < r->n_acc; k++) {
		const struct citcat_access *a = &r->acc[k];
		if (!a->write || (uint32_t)a->addr - b->ram_base >= b->ram_size)
			continue;
		uint64_t w = full && k < 8 && src[k] != 255 ? b->reg_w[src[k]] : 0;
		for (unsigned i = 0; i < a->size; i++) {
			uint32_t *s = mem_slot(b, (uint32_t)a->addr + i, 1);
			if (!s)
				return berr(b, CITCAT_ERR_NOMEM, "out of memory");
			*s = (uint32_t)w;
		}
	}
	b->reg_w[14] = 0;
	b->itk.it = 0;
	b->cpsr = regs[CITCAT_OBS_CPSR];
	b->sp = regs[CITCAT_OBS_SP];
	b->res->irqs++;
	return 0;
}

static int observe_record(void *ctx, const struct citcat_itrace_rec *r, const uint32_t *regs)
{
	struct builder *b = ctx;
	if (r->kind == CITCAT_REC_INSN)
		return on_insn(b, r, regs);
	/* an interrupt entry: a node of its own; the hardware writes LR_irq
	 * (no producer: it is the return address) and copies CPSR into
	 * SPSR_irq, so SPSR_irq's producer is whatever last wrote the flags:
	 * the interrupted code's dependences pass through the handler intact */
	if (close_block(b))
		return b->err.code;
	if (b->m7)
		return m7_on_entry(b, r, regs);
	int rc = wet_cd_irq(b->cd, (uint32_t)r->pc, b->cpsr, b->sp);
	if (rc)
		return berr(b, rc, "control dependences: %s", citcat_errstr(rc));
	if (emit_node(b, WET_NODE_IRQ | (uint32_t)r->line << 8, (uint32_t)r->pc, 0, NULL))
		return b->err.code;
	uint32_t after = irq_cpsr(b->cpsr);
	(void)wet_itk_irq(&b->itk, (uint32_t)r->pc); /* pass 1 refused the nested case */
	b->reg_w[wet_phys(WET_R_SPSR, after)] = b->reg_w[wet_phys(WET_R_FLAGS, b->cpsr)];
	b->reg_w[wet_phys(14, after)] = 0;
	b->cpsr = after;
	b->res->irqs++;
	return 0;
}

static int observe_dma(void *ctx, uint32_t addr, uint32_t len)
{
	struct builder *b = ctx;
	for (uint32_t i = 0; i < len; i++) {
		uint32_t *s = mem_slot(b, addr + i, 0);
		if (s)
			*s = 0; /* written from outside: no producer in the run */
	}
	return 0;
}

static int observe_start(void *ctx, const uint32_t *regs)
{
	struct builder *b = ctx;
	memcpy(b->m7t.regs, regs, sizeof b->m7t.regs);
	b->cpsr = regs[CITCAT_OBS_CPSR];
	b->sp = regs[CITCAT_OBS_SP];
	return 0;
}

/* ---- pass 1: the dynamic CFG of every function, for the control
 * dependences (cdep.h) ---- */
struct pass1 {
	struct wet_cd *cd;
	uint32_t cpsr, sp;
	struct wet_itk itk;
	uint64_t insns;
	struct citcat_errinfo err;
	int m7;
	struct m7trk m7t;
	int m7_cut;
};

static int p1_record(void *ctx, const struct citcat_itrace_rec *r, const uint32_t *regs)
{
	struct pass1 *p = ctx;
	int rc;
	/* The WET models IRQ-mode entries only (WET.md): refuse what it would
	 * get wrong rather than answer wrongly. */
	if (r->kind == CITCAT_REC_IRQ && r->line == CITCAT_CKPT_LINE && !p->m7) /* on the M7, 15 is SysTick */
		return citcat_errinfo_set(&p->err, CITCAT_ERR_UNSUPPORTED, UINT64_MAX,
					  "a segment checkpoint after instruction %llu; the WET does not model "
					  "checkpointed captures (capture without --checkpoint-every)",
					  (unsigned long long)p->insns);
	if (p->m7 && r->kind != CITCAT_REC_INSN) { /* as the second pass (m7_on_entry) */
		uint32_t mode, sp;
		m7_entry(&p->m7t, r, regs, &mode, &sp);
		if ((rc = wet_cd_irq(p->cd, (uint32_t)r->pc, mode, sp)))
			return citcat_errinfo_set(&p->err, rc, UINT64_MAX, "control dependences: %s", citcat_errstr(rc));
		p->itk.it = 0;
		p->cpsr = regs[CITCAT_OBS_CPSR];
		p->sp = regs[CITCAT_OBS_SP];
		return 0;
	}
	if (p->m7) {
		uint64_t unused;
		int unused2;
		uint32_t exc;
		int passed = cd_passed(r, p->itk.it, p->cpsr);
		if ((rc = wet_cd_insn_isa(p->cd, p->insns, (uint32_t)r->pc, r->word, r->size, 1, passed,
					  m7_mode(p->cpsr, p->m7t.regs[CITCAT_OBS_SPSR]), p->sp, &unused, &unused2)))
			return citcat_errinfo_set(&p->err, rc, UINT64_MAX, "control dependences: %s", citcat_errstr(rc));
		p->itk.it = wet_it_next(p->itk.it, r->word, r->size, 1);
		if (passed && m7_exc_return(r, p->m7t.regs, &exc))
			p->itk.it = m7_ret_it(r);
		m7_insn(&p->m7t, r, regs);
		p->cpsr = regs[CITCAT_OBS_CPSR];
		p->sp = regs[CITCAT_OBS_SP];
		p->insns++;
		return 0;
	}
	if (r->kind != CITCAT_REC_INSN) {
		if ((rc = wet_cd_irq(p->cd, (uint32_t)r->pc, p->cpsr, p->sp)))
			return citcat_errinfo_set(&p->err, rc, UINT64_MAX, "control dependences: %s", citcat_errstr(rc));
		p->cpsr = irq_cpsr(p->cpsr);
		if (wet_itk_irq(&p->itk, (uint32_t)r->pc))
			return citcat_errinfo_set(&p->err, CITCAT_ERR_UNSUPPORTED, UINT64_MAX,
						  "an interrupt entry after instruction %llu: a handler that interrupted an "
						  "IT block has not returned to it; the WET models one saved IT state",
						  (unsigned long long)p->insns);
		return 0;
	}
	if (p->itk.check && (uint32_t)r->pc != p->itk.epc)
		return citcat_errinfo_set(&p->err, CITCAT_ERR_UNSUPPORTED, UINT64_MAX,
					  "instruction %llu at 0x%08x: a handler that interrupted an IT block left IRQ "
					  "mode without returning to 0x%08x; the WET cannot tell its IT state",
					  (unsigned long long)p->insns, (unsigned)r->pc, (unsigned)p->itk.epc);
	uint64_t unused;
	int unused2;
	if ((rc = wet_cd_insn_isa(p->cd, p->insns, (uint32_t)r->pc, r->word, r->thumb ? r->size : 4u, r->thumb,
				  cd_passed(r, p->itk.it, p->cpsr), p->cpsr, p->sp, &unused, &unused2)))
		return citcat_errinfo_set(&p->err, rc, UINT64_MAX, "control dependences: %s", citcat_errstr(rc));
	wet_itk_step(&p->itk, r->word, r->thumb ? r->size : 4u, r->thumb, p->cpsr, regs[CITCAT_OBS_CPSR]);
	p->cpsr = regs[CITCAT_OBS_CPSR];
	p->sp = regs[CITCAT_OBS_SP];
	p->insns++;
	return 0;
}

static int p1_start(void *ctx, const uint32_t *regs)
{
	struct pass1 *p = ctx;
	memcpy(p->m7t.regs, regs, sizeof p->m7t.regs);
	p->cpsr = regs[CITCAT_OBS_CPSR];
	p->sp = regs[CITCAT_OBS_SP];
	/* an A-target run that starts in FIQ, abort or undefined mode (a
	 * segment of a checkpointed capture cut alone): the model has no
	 * banked FIQ r8-r12 and no entries into those modes (WET.md
	 * "Checkpointed captures") */
	unsigned m = p->cpsr & 0x1f;
	if (!p->m7 && (m == 0x11 || m == 0x17 || m == 0x1b))
		return citcat_errinfo_set(&p->err, CITCAT_ERR_UNSUPPORTED, UINT64_MAX,
					  "the run starts in %s mode (CPSR 0x%08x): the WET models the A target's "
					  "runs from reset and IRQ-mode entries, not segments of checkpointed captures",
					  m == 0x11 ? "FIQ" : m == 0x17 ? "abort" : "undefined", (unsigned)p->cpsr);
	return 0;
}

void citcat_wet_build_config_default(struct citcat_wet_build_config *c)
{
	memset(c, 0, sizeof *c);
	c->struct_size = sizeof *c;
}

static const char *const stream_names[CITCAT_WET_NSTREAMS] = {
	"node", "cond", "accn", "akind", "aaddr", "aval", "avalhi", "uval", "depn", "dep", "cdep", "vpat", "apat", "avpat"};

const char *citcat_wet_stream_name(unsigned s)
{
	return s < CITCAT_WET_NSTREAMS ? stream_names[s] : "?";
}

/* Graph, index and footer, after the last segment. */
static int write_tail(struct builder *b)
{
	uint64_t goff = b->off;
	size_t glen = 4;
	for (size_t i = 0; i < b->nnodes; i++)
		glen += 12 + (b->nodes[i].kind == WET_NODE_PATH ? 10 : 6) * (size_t)b->nodes[i].n;
	uint8_t *g = malloc(glen);
	if (!g)
		return berr(b, CITCAT_ERR_NOMEM, "out of memory");
	cc_put32(g, (uint32_t)b->nnodes);
	uint8_t *p = g + 4;
	for (size_t i = 0; i < b->nnodes; i++) {
		const struct node *x = &b->nodes[i];
		p[0] = (uint8_t)(x->kind & 0xff);
		p[1] = (uint8_t)(x->kind >> 8);
		p[2] = p[3] = 0;
		cc_put32(p + 4, x->pc);
		cc_put32(p + 8, x->n);
		p += 12;
		for (uint32_t k = 0; k < x->n; k++, p += 6) {
			if (x->kind == WET_NODE_PATH) {
				cc_put32(p, x->pcs[k]);
				p += 4;
			}
			cc_put32(p, x->words[k]);
			p[4] = x->isa[k];
			p[5] = x->its[k];
		}
	}
	uint64_t ghash = XXH64(g, glen, 0);
	int rc = write_bytes(b, g, glen);
	free(g);
	if (rc)
		return rc;
	uint64_t ioff = b->off;
	size_t per = WET_SEG_HDR + WET_SEG_STREAM * CITCAT_WET_NSTREAMS;
	size_t ilen = WET_IDX_HDR + per * b->nsegs;
	uint8_t *x = calloc(1, ilen);
	if (!x)
		return berr(b, CITCAT_ERR_NOMEM, "out of memory");
	cc_put64(x, b->insns);
	cc_put64(x + 8, b->ts);
	cc_put64(x + 16, b->res->irqs);
	cc_put32(x + 24, (uint32_t)b->nsegs);
	cc_put32(x + 28, CITCAT_WET_NSTREAMS);
	p = x + WET_IDX_HDR;
	for (size_t i = 0; i < b->nsegs; i++) {
		const struct seg_ent *e = &b->segs[i];
		cc_put64(p, e->first_insn);
		cc_put64(p + 8, e->first_ts);
		cc_put64(p + 24, e->reach);
		cc_put32(p + 16, e->n_insns);
		cc_put32(p + 20, e->n_nodes);
		p += WET_SEG_HDR;
		for (unsigned k = 0; k < CITCAT_WET_NSTREAMS; k++, p += WET_SEG_STREAM) {
			cc_put64(p, e->off[k]);
			cc_put32(p + 8, e->len[k]);
			cc_put32(p + 12, e->count[k]);
			cc_put64(p + 16, e->hash[k]);
		}
	}
	uint64_t ihash = XXH64(x, ilen, 0);
	rc = write_bytes(b, x, ilen);
	free(x);
	if (rc)
		return rc;
	uint8_t f[WET_FOOT_LEN] = {0};
	cc_put64(f, goff);
	cc_put64(f + 8, glen);
	cc_put64(f + 16, ioff);
	cc_put64(f + 24, ilen);
	cc_put64(f + 32, ghash);
	cc_put64(f + 40, ihash);
	memcpy(f + 48, WET_FOOT_MAGIC, 8);
	cc_put32(f + 56, XXH32(f, 56, 0));
	b->res->graph_bytes = glen;
	uint64_t stmts = 0;
	for (size_t i = 0; i < b->nnodes; i++)
		stmts += b->nodes[i].n;
	b->res->node_stmts = stmts;
	b->res->index_bytes = ilen;
	b->res->nodes = b->nnodes;
	b->res->segments = b->nsegs;
	return write_bytes(b, f, sizeof f);
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int citcat_wet_build(const struct citcat_wet_build_config *cfg, struct citcat_wet_build_result *res,
		     struct citcat_errinfo *err)
{
	struct citcat_errinfo dummy;
	int rc = cc_run_start(&err, &dummy, res, sizeof *res);
	if (rc)
		return rc;
	struct citcat_wet_build_config c; /* older or newer callers both work (citcat/base.h) */
	if (cc_config_from_user(&c, sizeof c, cfg, offsetof(struct citcat_wet_build_config, out_path) + sizeof c.out_path) ||
	    !c.ims_path || !c.aes_path || !c.out_path)
		return citcat_errinfo_set(err, CITCAT_ERR_INVAL, UINT64_MAX, "incomplete configuration");
	double t0 = now_s();
	if (!c.seg_insns)
		c.seg_insns = WET_SEG_DEFAULT;
	if (c.node_kind != CITCAT_WET_NODES_PATH && c.node_kind != CITCAT_WET_NODES_BB)
		return citcat_errinfo_set(err, CITCAT_ERR_INVAL, UINT64_MAX, "unknown node kind %d", c.node_kind);
	if (c.seg_insns > WET_BLOCK_MAX / 2)
		return citcat_errinfo_set(err, CITCAT_ERR_INVAL, UINT64_MAX, "segment size above %u", WET_BLOCK_MAX / 2);
	struct builder *b = calloc(1, sizeof *b);
	if (!b)
		return citcat_errinfo_set(err, CITCAT_ERR_NOMEM, UINT64_MAX, "out of memory");
	b->cfg = &c;
	b->res = res;
	b->seg_first_ts = 1;
	b->seg_reach = UINT64_MAX;
	struct citcat_ims ims;
	if ((rc = c.capture_segment ? citcat_ims_read_segment(c.ims_path, c.capture_segment - 1, &ims, err)
				    : citcat_ims_read(c.ims_path, &ims, err))) {
		res->replay.err_path = c.ims_path;
		free(b);
		return rc;
	}
	b->ram_base = ims.cfg.ram_base;
	b->ram_size = ims.cfg.ram_size;
	uint32_t isa = ims.cfg.isa;
	citcat_ims_fini(&ims);
	/* a Cortex-M7 run: the M-profile register model (WET.md "Cortex-M7") */
	b->m7 = isa == CITCAT_ISA_M7;
	if (c.capture_segment && !b->m7) {
		rc = citcat_errinfo_set(err, CITCAT_ERR_UNSUPPORTED, UINT64_MAX,
					"--segment %llu: the WET of a checkpointed capture's segment is built for "
					"Cortex-M7 runs only (the A target's checkpoints enter FIQ mode, whose banked "
					"r8-r12 the WET does not model)",
					(unsigned long long)(c.capture_segment - 1));
		res->replay.err_path = c.ims_path;
		goto out;
	}
	if (wet_decoder_open(&b->dec)) {
		rc = citcat_errinfo_set(err, CITCAT_ERR_NOMEM, UINT64_MAX, "cannot open Capstone");
		goto out;
	}
	if ((rc = cc_outfile_open(&b->out, c.out_path, 0, err)))
		goto out;
	uint8_t h[WET_HDR_LEN] = {0};
	memcpy(h, WET_MAGIC, 8);
	cc_put16(h + 8, WET_VERSION);
	cc_put32(h + 12, XXH32(h, 12, 0));
	if ((rc = write_bytes(b, h, sizeof h))) {
		*err = b->err;
		goto out;
	}
	if (wet_cd_open(&b->cd)) {
		rc = citcat_errinfo_set(err, CITCAT_ERR_NOMEM, UINT64_MAX, "out of memory");
		goto out;
	}
	struct citcat_replay_config rcfg;
	citcat_replay_config_default(&rcfg);
	rcfg.ims_path = c.ims_path;
	rcfg.aes_path = c.aes_path;
	rcfg.segment = c.capture_segment;
	rcfg.progress = c.progress;
	rcfg.progress_ctx = c.progress_ctx;
	/* pass 1: the CFG of every function, then the control dependences */
	struct pass1 p1 = {.cd = b->cd, .m7 = b->m7};
	if (b->m7)
		wet_cd_set_mode_mask(b->cd, 0x3ff);
	struct citcat_replay_observer obs1 = {&p1, p1_record, NULL, p1_start, &p1.err};
	rcfg.observer = &obs1;
	rc = citcat_replay_run(&rcfg, &res->replay, err);
	if (!rc && (rc = wet_cd_analyse(b->cd)))
		citcat_errinfo_set(err, rc, UINT64_MAX, "control dependences: %s", citcat_errstr(rc));
	if (rc)
		goto out;
	wet_cd_counts(b->cd, res->cfg);
	/* pass 2: the WET */
	struct citcat_replay_observer obs = {b, observe_record, observe_dma, observe_start, &b->err};
	rcfg.observer = &obs;
	rc = citcat_replay_run(&rcfg, &res->replay, err);
	if (!rc && !close_block(b) && !flush_segment(b))
		write_tail(b);
	if (!rc && b->err.code) {
		rc = b->err.code;
		*err = b->err;
	}
	if (!rc) {
		res->file_bytes = b->off;
		rc = cc_outfile_commit(b->out, err);
		b->out = NULL;
	}
out:
	res->insns = b->insns;
	res->node_execs = b->ts;
	res->seconds = now_s() - t0;
	cc_outfile_abort(b->out);
	wet_decoder_close(b->dec);
	wet_cd_close(b->cd);
	free(b->dc);
	for (size_t i = 0; i < b->nnodes; i++) {
		struct node *x = &b->nodes[i];
		free(x->words);
		free(x->pcs);
		free(x->isa);
		free(x->its);
		free(x->grp);
		free(x->slot);
		free(x->gorder);
		free(x->gwidth);
		free(x->goff);
		free(x->gstart);
		free(x->ndef);
	}
	free(b->tt);
	free(b->nprod);
	free(b->nlab);
	free(b->ncre);
	free(b->nodes);
	free(b->nh);
	free(b->segs);
	for (unsigned k = 0; k < CITCAT_WET_NSTREAMS; k++) {
		free(b->s[k].v);
		free(b->key[k].v);
	}
	for (size_t i = 0; i < NPAGES; i++)
		free(b->mem_w[i]);
	free(b);
	return rc;
}
