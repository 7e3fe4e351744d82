/* SDC-LSP model shared by encoder and decoder: the branch classifier and the
 * SDC/LSP/LVSA/AOLC state. */
#include "sdclsp_model.h"

#include <stdlib.h>
#include <string.h>

#define CLS_SLOTS (1u << SDC_CLS_BITS)

int sdc_classifier_init(struct sdc_classifier *c)
{
	memset(c, 0, sizeof *c);
	if (cs_open(CS_ARCH_ARM, CS_MODE_ARM, &c->cs) != CS_ERR_OK)
		return CITCAT_ERR_INTERNAL;
	c->cs_open = 1;
	cs_option(c->cs, CS_OPT_DETAIL, CS_OPT_ON);
	c->insn = cs_malloc(c->cs);
	c->tab = malloc(CLS_SLOTS * sizeof *c->tab);
	if (!c->insn || !c->tab) {
		sdc_classifier_fini(c);
		return CITCAT_ERR_NOMEM;
	}
	for (size_t i = 0; i < CLS_SLOTS; i++)
		c->tab[i].pc = UINT64_MAX;
	return 0;
}

void sdc_classifier_fini(struct sdc_classifier *c)
{
	if (c->insn)
		cs_free(c->insn, 1);
	if (c->cs_open)
		cs_close(&c->cs);
	free(c->tab);
	memset(c, 0, sizeof *c);
}

/* The classification of one A32 word; the only place that knows ARM. */
static void classify_word(struct sdc_classifier *c, uint64_t pc, uint32_t word, struct sdc_cls_entry *e)
{
	uint8_t b[4] = {(uint8_t)word, (uint8_t)(word >> 8), (uint8_t)(word >> 16), (uint8_t)(word >> 24)};
	const uint8_t *p = b;
	size_t n = 4;
	uint64_t addr = pc;
	e->kind = SDC_PLAIN;
	e->target = 0;
	if (!cs_disasm_iter(c->cs, &p, &n, &addr, c->insn))
		return; /* undefined: it does not branch (an exception would cut the stream) */
	cs_insn *in = c->insn;
	cs_arm *a = &in->detail->arm;
	int cond = a->cc != ARM_CC_AL && a->cc != ARM_CC_INVALID;
	if ((in->id == ARM_INS_B || in->id == ARM_INS_BL) && a->op_count >= 1 && a->operands[0].type == ARM_OP_IMM) {
		e->kind = cond ? SDC_DIRECT_C : SDC_DIRECT_U;
		e->target = (uint32_t)a->operands[0].imm;
		return;
	}
	if (in->id == ARM_INS_BLX && a->op_count >= 1 && a->operands[0].type == ARM_OP_IMM) {
		e->kind = SDC_UNSUPPORTED;
		return;
	}
	cs_regs rd, wr;
	uint8_t nrd = 0, nwr = 0;
	if (cs_regs_access(c->cs, in, rd, &nrd, wr, &nwr) == CS_ERR_OK)
		for (unsigned i = 0; i < nwr; i++)
			if (wr[i] == ARM_REG_PC)
				e->kind = SDC_INDIRECT;
}

const struct sdc_cls_entry *sdc_classify(struct sdc_classifier *c, uint64_t pc, uint32_t word)
{
	struct sdc_cls_entry *e = &c->tab[sdc_cls_slot(pc)];
	if (e->pc != pc || e->word != word) { /* new, evicted, or code changed under us */
		e->pc = pc;
		e->word = word;
		classify_word(c, pc, word, e);
	}
	return e;
}

static unsigned log2u(uint32_t v)
{
	unsigned n = 0;
	while ((1u << n) < v)
		n++;
	return n;
}

int sdc_model_init(struct sdc_model *m, const struct sdclsp_config *c)
{
	memset(m, 0, sizeof *m);
	m->cfg = *c;
	size_t n = (size_t)c->n_set * c->n_way;
	m->set_bits = log2u(c->n_set);
	m->way_bits = log2u(c->n_way);
	m->si_bits = m->set_bits + m->way_bits;
	m->sl_bits = log2u(c->max_sl);
	m->tag_mask = c->variant == SDCLSP_R ? (uint32_t)(0xffffffffull >> c->u) : 0xffffffffu;
	m->tag_sa = calloc(n, sizeof *m->tag_sa);
	m->tag_sl = calloc(n, sizeof *m->tag_sl);
	m->valid = calloc(n, 1);
	m->mru = calloc(n, 1);
	m->stamp = calloc(n, sizeof *m->stamp);
	m->fifo = calloc(c->n_set, sizeof *m->fifo);
	m->lsp = calloc(c->n_p, sizeof *m->lsp);
	m->aolc_bits = 0;
	m->aolc_mon = 8;
	if (!m->tag_sa || !m->tag_sl || !m->valid || !m->mru || !m->stamp || !m->fifo || !m->lsp) {
		sdc_model_fini(m);
		return CITCAT_ERR_NOMEM;
	}
	return 0;
}

void sdc_model_fini(struct sdc_model *m)
{
	free(m->tag_sa);
	free(m->tag_sl);
	free(m->valid);
	free(m->mru);
	free(m->stamp);
	free(m->fifo);
	free(m->lsp);
	memset(m, 0, sizeof *m);
}

/* Entry 0 (set 0, way 0) does not exist: its index is the miss code. */
static inline int usable(uint32_t i) { return i != 0; }

void sdc_touch(struct sdc_model *m, uint32_t i)
{
	switch (m->cfg.repl) {
	case SDCLSP_REPL_LRU:
		m->stamp[i] = ++m->clock;
		break;
	case SDCLSP_REPL_FIFO:
		break;
	default: {
		uint32_t base = i - i % m->cfg.n_way, all = 1;
		m->mru[i] = 1;
		for (uint32_t w = 0; w < m->cfg.n_way; w++)
			if (usable(base + w) && !m->mru[base + w])
				all = 0;
		if (all)
			for (uint32_t w = 0; w < m->cfg.n_way; w++)
				if (base + w != i)
					m->mru[base + w] = 0;
		break;
	}
	}
}

int sdc_insert(struct sdc_model *m, uint32_t set, uint32_t sa, uint32_t sl)
{
	uint32_t base = set * m->cfg.n_way, nw = m->cfg.n_way;
	int v = -1;
	for (uint32_t w = 0; w < nw && v < 0; w++)
		if (usable(base + w) && !m->valid[base + w])
			v = (int)(base + w);
	if (v < 0) {
		switch (m->cfg.repl) {
		case SDCLSP_REPL_LRU:
			for (uint32_t w = 0; w < nw; w++)
				if (usable(base + w) && (v < 0 || m->stamp[base + w] < m->stamp[v]))
					v = (int)(base + w);
			break;
		case SDCLSP_REPL_FIFO:
			for (uint32_t k = 0; k < nw && v < 0; k++) {
				uint32_t w = (m->fifo[set] + k) % nw;
				if (usable(base + w)) {
					v = (int)(base + w);
					m->fifo[set] = (w + 1) % nw;
				}
			}
			break;
		default:
			for (uint32_t w = 0; w < nw && v < 0; w++)
				if (usable(base + w) && !m->mru[base + w])
					v = (int)(base + w);
			for (uint32_t w = 0; w < nw && v < 0; w++)
				if (usable(base + w))
					v = (int)(base + w);
			break;
		}
	} else if (m->cfg.repl == SDCLSP_REPL_FIFO) {
		m->fifo[set] = ((uint32_t)v - base + 1) % nw;
	}
	if (v < 0)
		return -1;
	m->valid[v] = 1;
	m->tag_sa[v] = sa & m->tag_mask;
	m->tag_sl[v] = sl;
	sdc_touch(m, (uint32_t)v);
	return v;
}
