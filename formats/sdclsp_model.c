/* SDC-LSP model shared by encoder and decoder: the branch classifier and the
 * SDC/LSP/LVSA/AOLC state. */
#include "sdclsp_model.h"

#include <stdlib.h>
#include <string.h>

#define CLS_SLOTS (1u << SDC_CLS_BITS)

int sdc_classifier_init(struct sdc_classifier *c)
{
	memset(c, 0, sizeof *c);
	int rc = armdec_init(&c->dec);
	if (rc)
		return rc == CITCAT_ERR_NOMEM ? rc : CITCAT_ERR_INTERNAL;
	c->tab = malloc(CLS_SLOTS * sizeof *c->tab);
	if (!c->tab) {
		sdc_classifier_fini(c);
		return CITCAT_ERR_NOMEM;
	}
	for (size_t i = 0; i < CLS_SLOTS; i++)
		c->tab[i].pc = UINT64_MAX;
	return 0;
}

void sdc_classifier_fini(struct sdc_classifier *c)
{
	armdec_fini(&c->dec);
	free(c->tab);
	memset(c, 0, sizeof *c);
}

/* The classification of one A32 word, by the shared ARM decoder; its flow
 * kinds are the SDC kinds one for one. */
static void classify_word(struct sdc_classifier *c, uint64_t spc, uint32_t word, unsigned size,
			  struct sdc_cls_entry *e)
{
	static const uint8_t kind[] = {
		[ARMDEC_PLAIN] = SDC_PLAIN, [ARMDEC_DIRECT_U] = SDC_DIRECT_U, [ARMDEC_DIRECT_C] = SDC_DIRECT_C,
		[ARMDEC_INDIRECT] = SDC_INDIRECT, [ARMDEC_THUMB] = SDC_UNSUPPORTED,
	};
	struct armdec_class ac;
	int thumb = (int)(spc & 1);
	armdec_classify_isa(&c->dec, (uint32_t)spc & ~1u, word, size, thumb, &ac);
	e->kind = kind[ac.flow];
	e->size = (uint8_t)size;
	/* targets as stream addresses: a Thumb branch stays in Thumb state */
	e->target = ac.flow == ARMDEC_DIRECT_U || ac.flow == ARMDEC_DIRECT_C ? ac.target | (uint32_t)thumb : ac.target;
	if (ac.flow == ARMDEC_THUMB && c->armv7) {
		/* BLX imm (SDCLSP.md, "Thumb"): a direct call into the other state;
		 * an ARM target is word-aligned (Align(PC, 4) + imm from Thumb) */
		e->kind = SDC_DIRECT_U;
		e->target = thumb ? ac.target & ~3u : ac.target | 1u;
	}
}

const struct sdc_cls_entry *sdc_classify(struct sdc_classifier *c, uint64_t pc, uint32_t word)
{
	return sdc_classify_isa(c, pc, word, 4);
}

const struct sdc_cls_entry *sdc_classify_isa(struct sdc_classifier *c, uint64_t spc, uint32_t word, unsigned size)
{
	struct sdc_cls_entry *e = &c->tab[sdc_cls_slot(spc)];
	if (e->pc != spc || e->word != word) { /* new, evicted, or code changed under us */
		e->pc = spc;
		e->word = word;
		classify_word(c, spc, word, size, e);
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
