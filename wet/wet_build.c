/* WET construction while replaying (WET.md).  The replayer's observer hands
 * over every record with the register file after it.  Pass 1 recovers
 * each function's dynamic CFG for the control dependences; pass 2 cuts the
 * run into node executions and codes, per segment of the run, the node
 * ids, the condition outcomes and events, the data producers and the
 * control parents with the models the reader runs too (segcode.h).  The
 * values (register results, access addresses and values) are not stored:
 * the file embeds the IMS and AES, and a query regenerates them by
 * replaying.  Memory is bounded by the segment size, the static code (node
 * table, decode cache, the models) and the RAM shadow, never by the length
 * of the run. */
#include "bytes.h"
#include "cdep.h"
#include "defuse.h"
#include "aes.h"
#include "ims.h"
#include "input.h"
#include "itrace.h"
#include "outfile.h"
#include "segcode.h"
#include "segidx.h"
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

struct dcache_ent { /* decoded instruction, by (pc, word, instruction set, IT state) */
	uint32_t pc, word;
	uint8_t isa, it;
	int used;
	struct wet_du du;
};

struct node {
	uint32_t kind, pc, n, hash;
	uint32_t first; /* its first statement in the statement table */
};

struct seg_ent {
	uint64_t first_insn, first_ts;
	uint64_t reach; /* the smallest INDEX its instances name as producer or control parent */
	uint64_t hash;  /* of its records (wet_rec_hash) */
	uint32_t n_insns, n_nodes;
	uint64_t off[WET_NBLOCKS];
	uint32_t len[WET_NBLOCKS];
	uint64_t bhash[WET_NBLOCKS];
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
	/* node table and its statements */
	struct node *nodes;
	size_t nnodes, nodes_cap;
	uint32_t *nh; /* hash -> node id + 1 */
	size_t nh_cap;
	struct wet_stmt *st;
	size_t nst, st_cap;
	struct wet_node *wn; /* the node table as the models read it */
	size_t wn_cap;
	/* the node being executed: per instance its statement, condition
	 * outcome, register bank before it, exception return (M7: 1 to the
	 * MSP, 2 to the PSP), control parent (INDEX + 1) and memory producers
	 * (INDEX + 1, distinct: mem[moff[k] .. moff[k + 1])) */
	uint32_t blk_pc[WET_NODE_MAX_INSNS], blk_word[WET_NODE_MAX_INSNS];
	uint8_t blk_isa[WET_NODE_MAX_INSNS], blk_it[WET_NODE_MAX_INSNS];
	uint8_t blk_passed[WET_NODE_MAX_INSNS], blk_bank[WET_NODE_MAX_INSNS], blk_excret[WET_NODE_MAX_INSNS];
	uint64_t blk_parent[WET_NODE_MAX_INSNS];
	uint32_t blk_moff[WET_NODE_MAX_INSNS + 1];
	uint64_t *mem;
	size_t mem_cap;
	uint32_t blk_n;
	/* the segment: its models and encoders, events, conditional instances
	 * (statement, outcome) for the cond block, and the record hash */
	struct wet_sc sc;
	struct wet_event *ev;
	size_t nev, ev_cap;
	struct { uint32_t stmt; uint8_t passed; } *cond;
	size_t ncond, cond_cap;
	uint32_t pred_bank; /* the register bank the reader expects before the next instance */
	uint64_t seg_hash;
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
	uint32_t *mem_w[NPAGES];   /* per RAM byte, its last writer as INDEX + 1, 0 none */
	uint32_t ram_base, ram_size;
	/* the Cortex-M7 (isa 2) */
	int m7;
	struct m7trk m7t;
	int m7_cut;          /* the last instance was an exception return: cut before the next */
	/* embedded files and the graph */
	uint64_t ims_off, ims_len, ims_hash, aes_off, aes_len, aes_hash, graph_raw;
};

/* The register bank of a CPSR (A target; defuse.c's banks) or of the M7
 * state (1: the PSP is in use). */
static uint32_t a_bank(uint32_t cpsr)
{
	switch (cpsr & 0x1f) {
	case 0x13: return 1;
	case 0x12: return 2;
	case 0x17: return 3;
	case 0x1b: return 4;
	case 0x11: return 5;
	default: return 0;
	}
}

static inline uint32_t cur_bank(const struct builder *b)
{
	return b->m7 ? (uint32_t)wet_m7_psp(b->cpsr, b->m7t.regs[CITCAT_OBS_SPSR]) : a_bank(b->cpsr);
}

/* The mode word the shadow stack compares (cdep.h). */
static inline uint32_t cd_mode(const struct builder *b)
{
	return b->m7 ? m7_mode(b->cpsr, b->m7t.regs[CITCAT_OBS_SPSR]) : b->cpsr;
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

/* Keeps the models' view of the node and statement tables current. */
static int sc_tables(struct builder *b)
{
	if (wet_sc_tables(&b->sc, b->st, (uint32_t)b->nst, b->wn, (uint32_t)b->nnodes))
		return berr(b, CITCAT_ERR_NOMEM, "out of memory");
	return 0;
}

/* The id of the node (KIND, PC; its statements' WORDS, addresses PCS,
 * instruction sets ISA and IT states ITS, N of each), added when new. */
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
		const struct node *x = &b->nodes[b->nh[h] - 1];
		if (x->hash != hv || x->kind != kind || x->pc != pc || x->n != n)
			continue;
		uint32_t k = 0;
		for (; k < n; k++) {
			const struct wet_stmt *s = &b->st[x->first + k];
			if (s->word != words[k] || s->pc != pcs[k] || s->isa != isa[k] || s->it != its[k])
				break;
		}
		if (k == n) {
			*id = b->nh[h] - 1;
			return 0;
		}
	}
	if (cc_grow(&b->nodes, &b->nodes_cap, b->nnodes + 1, sizeof *b->nodes, 1024, SIZE_MAX) ||
	    cc_grow(&b->wn, &b->wn_cap, b->nnodes + 1, sizeof *b->wn, 1024, SIZE_MAX) ||
	    cc_grow(&b->st, &b->st_cap, b->nst + n, sizeof *b->st, 4096, SIZE_MAX))
		return CITCAT_ERR_NOMEM;
	struct node *x = &b->nodes[b->nnodes];
	*x = (struct node){kind, pc, n, hv, (uint32_t)b->nst};
	b->wn[b->nnodes] = (struct wet_node){(uint8_t)(kind & 0xff), (uint8_t)(kind >> 8), pc, n, (uint32_t)b->nst};
	for (uint32_t k = 0; k < n; k++) {
		struct wet_stmt *s = &b->st[b->nst + k];
		const struct wet_du *du = decode(b, pcs[k], words[k], isa[k], its[k]);
		if (!du)
			return CITCAT_ERR_NOMEM;
		*s = (struct wet_stmt){.pc = pcs[k], .word = words[k], .isa = isa[k], .it = its[k], .node = (uint32_t)b->nnodes};
		s->du = *du;
		s->conditional = du->cond != 14 && du->cond != 15;
		s->load = (uint8_t)wet_is_load_isa(words[k], wet_isa_size(isa[k]), isa[k] != WET_ISA_A32);
	}
	b->nst += n;
	b->nh[h] = (uint32_t)b->nnodes + 1;
	*id = (uint32_t)b->nnodes++;
	return 0;
}

static int add_event(struct builder *b, uint32_t pos, unsigned type, uint32_t val)
{
	if (cc_grow(&b->ev, &b->ev_cap, b->nev + 1, sizeof *b->ev, 256, SIZE_MAX))
		return berr(b, CITCAT_ERR_NOMEM, "out of memory");
	b->ev[b->nev++] = (struct wet_event){pos, (uint8_t)type, val};
	return 0;
}

/* A node execution of node ID begins: its id goes to the node block. */
static void emit_node(struct builder *b, uint32_t id)
{
	wet_sc_node(&b->sc, id);
	b->seg_nodes++;
	b->ts++;
}

/* Closes the open node execution: its node, then per instance the events
 * the reader needs, the condition outcome and the producers and control
 * parent through the models (segcode.h). */
static int close_block(struct builder *b)
{
	if (!b->blk_n)
		return 0;
	int path = b->cfg->node_kind == CITCAT_WET_NODES_PATH;
	uint32_t id;
	int rc = node_id(b, path ? WET_NODE_PATH : WET_NODE_BLOCK, b->blk_pc[0], b->blk_n, b->blk_word, b->blk_pc,
			 b->blk_isa, b->blk_it, &id);
	if (rc || (rc = sc_tables(b)))
		return berr(b, rc, "out of memory");
	emit_node(b, id);
	uint64_t first = b->insns - b->blk_n;
	uint32_t s0 = b->nodes[id].first;
	uint64_t prod[256], par;
	uint32_t np;
	for (uint32_t k = 0; k < b->blk_n; k++) {
		uint64_t index = first + k;
		uint32_t pos = (uint32_t)(index - b->seg_first_insn), stmt = s0 + k;
		if (b->blk_bank[k] != b->pred_bank && add_event(b, pos, WET_EV_BANK, b->blk_bank[k]))
			return b->err.code;
		b->pred_bank = b->blk_bank[k];
		if (b->blk_excret[k] && add_event(b, pos, WET_EV_EXCRET, b->blk_excret[k] - 1u))
			return b->err.code;
		if (b->st[stmt].conditional) {
			if (cc_grow(&b->cond, &b->cond_cap, b->ncond + 1, sizeof *b->cond, 4096, SIZE_MAX))
				return berr(b, CITCAT_ERR_NOMEM, "out of memory");
			b->cond[b->ncond].stmt = stmt;
			b->cond[b->ncond++].passed = b->blk_passed[k];
		}
		int need_ev = 0;
		if (wet_sc_insn(&b->sc, stmt, index, b->blk_passed[k], b->blk_bank[k], b->blk_excret[k], 0,
				b->mem + b->blk_moff[k], b->blk_moff[k + 1] - b->blk_moff[k], b->blk_parent[k], prod, &np, &par,
				&need_ev))
			return berr(b, CITCAT_ERR_LIMIT, "instruction %llu has more producers than a WET records",
				    (unsigned long long)index);
		if (need_ev && add_event(b, pos, WET_EV_MEMREAD, 0))
			return b->err.code;
		for (uint32_t i = 0; i < np; i++)
			if (prod[i] + 1 < b->seg_reach)
				b->seg_reach = prod[i] + 1;
		if (par && par < b->seg_reach)
			b->seg_reach = par;
		b->res->deps += np;
		b->res->cdeps += par != 0;
	}
	b->blk_n = 0;
	return 0;
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

/* Starts the segment whose first instance is the next one. */
static int begin_segment(struct builder *b)
{
	b->seg_first_insn = b->insns;
	b->seg_first_ts = b->ts + 1;
	b->seg_insns = b->seg_nodes = 0;
	b->seg_reach = UINT64_MAX;
	b->seg_hash = 0;
	b->nev = b->ncond = 0;
	b->pred_bank = UINT32_MAX; /* the first instance's bank is always an event */
	if (wet_sc_begin(&b->sc, b->insns, b->cfg->seg_insns))
		return berr(b, CITCAT_ERR_NOMEM, "out of memory");
	return 0;
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
	e->n_insns = b->seg_insns;
	e->n_nodes = b->seg_nodes;
	e->hash = b->seg_hash;
	/* the cond block: the events, then the outcomes */
	uint32_t nev = (uint32_t)b->nev;
	if (sc_tables(b))
		return b->err.code;
	wet_sc_events(&b->sc, b->ev, &nev, nev, b->seg_insns);
	for (size_t i = 0; i < b->ncond; i++)
		wet_sc_cond(&b->sc, b->cond[i].stmt, b->cond[i].passed);
	if (wet_sc_finish(&b->sc))
		return berr(b, CITCAT_ERR_NOMEM, "out of memory");
	b->res->events += b->nev;
	for (unsigned k = 0; k < WET_NBLOCKS; k++) {
		const struct wet_rc *r = &b->sc.rc[k];
		e->off[k] = b->off;
		e->len[k] = (uint32_t)r->n;
		e->bhash[k] = XXH64(r->buf, r->n, 0);
		b->res->stream[k].bytes += r->n;
		int rc = write_bytes(b, r->buf, r->n);
		if (rc)
			return rc;
	}
	b->res->stream[CITCAT_WET_S_NODE].values += b->seg_nodes;
	b->res->stream[CITCAT_WET_S_COND].values += b->ncond + b->nev;
	b->res->stream[CITCAT_WET_S_CDEP].values += b->seg_insns;
	return begin_segment(b);
}

static int seg_full(const struct builder *b)
{
	return b->seg_insns >= b->cfg->seg_insns || b->seg_nodes >= WET_BLOCK_MAX - WET_NODE_MAX_INSNS;
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
	if (b->insns >= WET_MAX_INSNS)
		return berr(b, CITCAT_ERR_LIMIT, "more than %llu instructions: beyond this WET version's limit",
			    (unsigned long long)WET_MAX_INSNS);
	const struct wet_du *du = decode(b, pc, r->word, isa, it);
	if (!du)
		return berr(b, CITCAT_ERR_NOMEM, "out of memory");
	uint32_t pos = b->blk_n; /* the statement's position in its node */
	b->blk_pc[pos] = pc;
	b->blk_isa[pos] = (uint8_t)isa;
	b->blk_it[pos] = (uint8_t)it;
	b->blk_word[pos] = r->word;
	int passed = wet_cond_passed(du->cond, b->cpsr);
	b->blk_passed[pos] = (uint8_t)passed;
	b->blk_bank[pos] = (uint8_t)cur_bank(b);
	b->blk_parent[pos] = parent;
	if (!pos)
		b->blk_moff[0] = 0;
	/* the memory producers: the last writers of the RAM bytes it reads
	 * (device reads, and bytes not written in the run or written by DMA,
	 * have none); the register ones follow from the models */
	uint32_t m0 = b->blk_moff[pos], nm = 0;
	if (cc_grow(&b->mem, &b->mem_cap, (size_t)m0 + 64u * 8u, sizeof *b->mem, 4096, SIZE_MAX))
		return berr(b, CITCAT_ERR_NOMEM, "out of memory");
	for (uint32_t k = 0; k < r->n_acc; k++) {
		const struct citcat_access *a = &r->acc[k];
		if (a->write || (uint32_t)a->addr - b->ram_base >= b->ram_size)
			continue;
		for (unsigned i = 0; i < a->size; i++) {
			uint32_t *s = mem_slot(b, (uint32_t)a->addr + i, 0);
			uint64_t w = s ? *s : 0;
			int dup = !w;
			for (uint32_t q = 0; q < nm && !dup; q++)
				dup = b->mem[m0 + q] == w;
			if (!dup)
				b->mem[m0 + nm++] = w;
		}
	}
	b->blk_moff[pos + 1] = m0 + nm;
	uint64_t me = b->insns + 1; /* as a shadow entry */
	uint32_t exc;
	b->blk_excret[pos] = 0;
	if (passed && b->m7 && m7_exc_return(r, b->m7t.regs, &exc)) {
		/* an exception return: the unstacking defines R0-R3, R12, LR,
		 * xPSR (the flags), the SP it returns to, CONTROL (SPSEL) and
		 * FAULTMASK (WET.md "Cortex-M7"); an event tells the reader */
		b->blk_excret[pos] = exc == 0xFFFFFFFDu ? 2 : 1;
		b->m7_cut = 1;
		ret_it = m7_ret_it(r);
	}
	if (passed) {
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
	b->res->accesses += r->n_acc;
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
	b->seg_hash = wet_rec_hash(b->seg_hash, r);
	b->blk_n++;
	b->insns++;
	b->seg_insns++;
	return 0;
}

/* An interrupt or exception entry: a node of its own. */
static int entry_node(struct builder *b, const struct citcat_itrace_rec *r, uint64_t *stacked)
{
	uint32_t id;
	int rc = node_id(b, WET_NODE_IRQ | (uint32_t)r->line << 8, (uint32_t)r->pc, 0, NULL, NULL, NULL, NULL, &id);
	if (rc || (rc = sc_tables(b)))
		return berr(b, rc, "out of memory");
	emit_node(b, id);
	wet_sc_irq(&b->sc, &b->wn[id], stacked);
	b->seg_hash = wet_rec_hash(b->seg_hash, r);
	b->res->irqs++;
	return 0;
}

/* A Cortex-M7 exception entry (REGS: after it; WET.md "Cortex-M7").  A
 * fault taken at the instruction just before (its return address) means
 * that instruction did not complete: the models undo its register writes.
 * The eight stacking writes copy the producers of R0-R3, R12, LR and the
 * flags (xPSR) to the stacked words, the return address has none; LR =
 * EXC_RETURN has no producer; SP, CONTROL and the masks keep theirs.  */
static int m7_on_entry(struct builder *b, const struct citcat_itrace_rec *r, const uint32_t *regs)
{
	if (b->m7t.last_insn && r->line >= 3 && r->line <= 6 && (uint32_t)r->pc == b->m7t.last_pc)
		b->m7_cut = 0;
	uint32_t mode, sp;
	m7_entry(&b->m7t, r, regs, &mode, &sp);
	int rc = wet_cd_irq(b->cd, (uint32_t)r->pc, mode, sp);
	if (rc)
		return berr(b, rc, "control dependences: %s", citcat_errstr(rc));
	uint64_t stk[8];
	if (entry_node(b, r, stk))
		return b->err.code;
	int full = r->n_acc == 9;
	for (uint32_t k = 0; k < 8 && full; k++)
		full = r->acc[k].write && r->acc[k].size == 4 && (!k || r->acc[k].addr == r->acc[k - 1].addr + 4);
	for (uint32_t k = 0; k < r->n_acc; k++) {
		const struct citcat_access *a = &r->acc[k];
		if (!a->write || (uint32_t)a->addr - b->ram_base >= b->ram_size)
			continue;
		uint64_t w = full && k < 8 ? stk[k] : 0;
		for (unsigned i = 0; i < a->size; i++) {
			uint32_t *s = mem_slot(b, (uint32_t)a->addr + i, 1);
			if (!s)
				return berr(b, CITCAT_ERR_NOMEM, "out of memory");
			*s = (uint32_t)w;
		}
	}
	b->itk.it = 0;
	b->cpsr = regs[CITCAT_OBS_CPSR];
	b->sp = regs[CITCAT_OBS_SP];
	b->pred_bank = 0; /* handler mode: the MSP */
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
	if (entry_node(b, r, NULL))
		return b->err.code;
	(void)wet_itk_irq(&b->itk, (uint32_t)r->pc); /* pass 1 refused the nested case */
	b->cpsr = irq_cpsr(b->cpsr);
	b->pred_bank = 2; /* IRQ mode */
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
	if (!c)
		return;
	memset(c, 0, sizeof *c);
	c->size = sizeof *c;
}

static const char *const stream_names[CITCAT_WET_NSTREAMS] = {"node", "cond", "dep", "cdep", "ims", "aes"};

const char *citcat_wet_stream_name(unsigned s)
{
	return s < CITCAT_WET_NSTREAMS ? stream_names[s] : "?";
}

/* Copies the unwrapped bytes of the IMS or AES at PATH (member SEGMENT -
 * 1 of a segment bundle when SEGMENT) into the WET: its offset, length
 * and XXH64. */
static int copy_section(struct builder *b, const char *path, const char *magic, uint16_t bundle, uint64_t segment,
			uint64_t *off, uint64_t *len, uint64_t *hash)
{
	struct citcat_errinfo e = {0};
	*off = b->off;
	XXH64_state_t *xs = XXH64_createState();
	if (!xs)
		return berr(b, CITCAT_ERR_NOMEM, "out of memory");
	XXH64_reset(xs, 0);
	int rc = 0;
	if (segment) {
		struct cc_segidx *sx = NULL;
		const uint8_t *p;
		size_t n;
		struct cc_segidx_entry ent;
		rc = cc_segidx_open(&sx, path, magic, bundle, &e);
		if (!rc && !sx)
			rc = citcat_errinfo_set(&e, CITCAT_ERR_INVAL, UINT64_MAX, "not a segment bundle");
		if (!rc)
			rc = cc_segidx_member(sx, segment - 1, &p, &n, &ent, &e);
		if (!rc) {
			XXH64_update(xs, p, n);
			rc = write_bytes(b, p, n);
		}
		cc_segidx_close(sx);
	} else {
		struct cc_input *in = NULL;
		rc = cc_input_open(&in, path, &e);
		uint8_t buf[CC_INPUT_BUF];
		long n;
		while (!rc && (n = cc_input_read(in, buf, sizeof buf)) != 0) {
			if (n < 0) {
				e = *cc_input_error(in);
				rc = (int)n;
				break;
			}
			XXH64_update(xs, buf, (size_t)n);
			rc = write_bytes(b, buf, (size_t)n);
		}
		cc_input_close(in);
	}
	*len = b->off - *off;
	*hash = XXH64_digest(xs);
	XXH64_freeState(xs);
	if (rc && !b->err.code) {
		b->res->replay.err_path = path;
		b->err = e;
		b->err.code = rc;
	}
	return rc;
}

/* Embedded files, graph, index and footer, after the last segment. */
static int write_tail(struct builder *b)
{
	const struct citcat_wet_build_config *c = b->cfg;
	if (copy_section(b, c->ims_path, "CIMS\r\n\x1a\n", CITCAT_IMS_SEG_VERSION, c->capture_segment, &b->ims_off,
			 &b->ims_len, &b->ims_hash) ||
	    copy_section(b, c->aes_path, "CAES\r\n\x1a\n", CITCAT_AES_SEG_VERSION, c->capture_segment, &b->aes_off,
			 &b->aes_len, &b->aes_hash))
		return b->err.code;
	b->res->stream[CITCAT_WET_S_IMS].bytes = b->ims_len;
	b->res->stream[CITCAT_WET_S_AES].bytes = b->aes_len;
	/* the node table (WET.md "Graph"), xz-compressed */
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
			const struct wet_stmt *s = &b->st[x->first + k];
			if (x->kind == WET_NODE_PATH) {
				cc_put32(p, s->pc);
				p += 4;
			}
			cc_put32(p, s->word);
			p[4] = s->isa;
			p[5] = s->it;
		}
	}
	uint8_t *z = NULL;
	size_t zlen = 0;
	int rc = wet_xz_pack(g, glen, &z, &zlen);
	free(g);
	if (rc)
		return berr(b, CITCAT_ERR_NOMEM, "cannot compress the node table");
	uint64_t ghash = XXH64(z, zlen, 0);
	rc = write_bytes(b, z, zlen);
	free(z);
	if (rc)
		return rc;
	b->res->graph_bytes = zlen;
	b->res->graph_raw_bytes = glen;
	uint64_t ioff = b->off;
	size_t ilen = WET_IDX_HDR + WET_SEG_ENTRY * b->nsegs;
	uint8_t *x = calloc(1, ilen);
	if (!x)
		return berr(b, CITCAT_ERR_NOMEM, "out of memory");
	cc_put64(x, b->insns);
	cc_put64(x + 8, b->ts);
	cc_put64(x + 16, b->res->irqs);
	cc_put32(x + 24, (uint32_t)b->nsegs);
	cc_put32(x + 28, WET_NBLOCKS);
	cc_put64(x + 32, b->ims_off);
	cc_put64(x + 40, b->ims_len);
	cc_put64(x + 48, b->ims_hash);
	cc_put64(x + 56, b->aes_off);
	cc_put64(x + 64, b->aes_len);
	cc_put64(x + 72, b->aes_hash);
	cc_put64(x + 80, glen);
	cc_put32(x + 88, b->m7 ? 1u : 0u);
	p = x + WET_IDX_HDR;
	for (size_t i = 0; i < b->nsegs; i++) {
		const struct seg_ent *e = &b->segs[i];
		cc_put64(p, e->first_insn);
		cc_put64(p + 8, e->first_ts);
		cc_put32(p + 16, e->n_insns);
		cc_put32(p + 20, e->n_nodes);
		cc_put64(p + 24, e->reach);
		cc_put64(p + 32, e->hash);
		p += WET_SEG_HDR;
		for (unsigned k = 0; k < WET_NBLOCKS; k++, p += WET_SEG_BLOCK) {
			cc_put64(p, e->off[k]);
			cc_put32(p + 8, e->len[k]);
			cc_put64(p + 16, e->bhash[k]);
		}
	}
	uint64_t ihash = XXH64(x, ilen, 0);
	rc = write_bytes(b, x, ilen);
	free(x);
	if (rc)
		return rc;
	uint8_t f[WET_FOOT_LEN] = {0};
	cc_put64(f, goff);
	cc_put64(f + 8, zlen);
	cc_put64(f + 16, ioff);
	cc_put64(f + 24, ilen);
	cc_put64(f + 32, ghash);
	cc_put64(f + 40, ihash);
	memcpy(f + 48, WET_FOOT_MAGIC, 8);
	cc_put32(f + 56, XXH32(f, 56, 0));
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
	wet_sc_open(&b->sc, 1, b->m7);
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
	if ((rc = begin_segment(b))) {
		*err = b->err;
		goto out;
	}
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
		res->stream[CITCAT_WET_S_DEP].values = res->deps;
		res->mem_deps = b->sc.n_mem;
		res->mem_predicted = b->sc.n_mem_hit;
		res->cdep_predicted = b->sc.n_cd_hit;
		res->reg_coded = b->sc.n_reg_init;
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
	wet_sc_close(&b->sc);
	free(b->dc);
	free(b->nodes);
	free(b->nh);
	free(b->st);
	free(b->wn);
	free(b->mem);
	free(b->ev);
	free(b->cond);
	free(b->segs);
	for (size_t i = 0; i < NPAGES; i++)
		free(b->mem_w[i]);
	free(b);
	return rc;
}
