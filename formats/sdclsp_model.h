/* Internal: state shared by the SDC-LSP encoder and decoder.  Both update it
 * through these functions only, so the software copies evolve exactly as the
 * encoder's (the paper's "exact software copies"). */
#ifndef CITCAT_SDCLSP_MODEL_H
#define CITCAT_SDCLSP_MODEL_H

#include "armdec.h"
#include "sdclsp.h"

/* ---- ARM A32 control-flow classification, cached per static PC ----
 * The cache is direct-mapped with a fixed size (SDCLSP.md, "Classification
 * cache"): a new PC evicts the one in its slot, so memory is bounded
 * whatever the number of distinct PCs. */
#define SDC_CLS_BITS 16
enum sdc_kind {
	SDC_PLAIN = 0,   /* does not write the PC: continues at pc + 4 */
	SDC_DIRECT_U,    /* B/BL, always: continues at the target, does not end a stream */
	SDC_DIRECT_C,    /* B/BL with a condition: ends a stream when taken */
	SDC_INDIRECT,    /* any other PC write (returns, exception returns, BX...) */
	SDC_UNSUPPORTED, /* BLX imm: switches to Thumb */
};

struct sdc_cls_entry {
	uint64_t pc;     /* UINT64_MAX: empty; the stream address (bit 0: Thumb) */
	uint32_t word;
	uint32_t target; /* direct branches: a stream address (bit 0: Thumb) */
	uint8_t kind;
	uint8_t size;    /* 2 or 4 */
};

struct sdc_classifier {
	struct armdec dec; /* the shared ARM decoder (armdec.h) */
	int armv7;         /* CITCAT_SDCLSP_ISA_ARMV7: BLX imm is a direct call that switches state */
	struct sdc_cls_entry *tab; /* 1 << SDC_CLS_BITS slots */
};

/* Bits 17..2 of the PC; a Thumb halfword address (bit 1 set) flips the top
 * bit, so two Thumb neighbours do not evict each other. */
static inline size_t sdc_cls_slot(uint64_t pc)
{
	return (size_t)((pc >> 2) ^ (((pc >> 1) & 1) << (SDC_CLS_BITS - 1))) & ((1u << SDC_CLS_BITS) - 1);
}

int sdc_classifier_init(struct sdc_classifier *c);
void sdc_classifier_fini(struct sdc_classifier *c);
/* Returns the entry for PC/WORD, decoding WORD with Capstone when PC is not
 * cached or its word changed (evicting the PC in its slot).  Never NULL;
 * the entry is valid until the next call. */
const struct sdc_cls_entry *sdc_classify(struct sdc_classifier *c, uint64_t pc, uint32_t word);
/* The same for the stream address SPC (bit 0: Thumb) of an instruction of
 * SIZE bytes. */
const struct sdc_cls_entry *sdc_classify_isa(struct sdc_classifier *c, uint64_t spc, uint32_t word, unsigned size);
/* Lookup only: NULL when PC is not cached (never classified, or evicted). */
static inline const struct sdc_cls_entry *sdc_cls_find(const struct sdc_classifier *c, uint64_t pc)
{
	const struct sdc_cls_entry *e = &c->tab[sdc_cls_slot(pc)];
	return e->pc == pc ? e : NULL;
}

/* ---- SDC, LSP, LVSA, AOLC ---- */
struct sdc_model {
	struct sdclsp_config cfg;
	unsigned si_bits, sl_bits, set_bits, way_bits;
	uint32_t tag_mask;   /* SA bits the SDC compares: all, or the lower 32-u for r */
	uint32_t *tag_sa, *tag_sl; /* per entry */
	uint8_t *valid, *mru;
	uint64_t *stamp, clock; /* LRU */
	uint32_t *fifo;         /* per set */
	uint32_t *lsp;
	uint32_t hist[SDCLSP_MAX_HIST]; /* hist[0] = most recent SI */
	uint32_t lvsa;          /* e: last full SA's upper bits; r: last stream's */
	unsigned aolc_bits, aolc_mon;
};

int sdc_model_init(struct sdc_model *m, const struct sdclsp_config *c);
void sdc_model_fini(struct sdc_model *m);

static inline uint32_t sdc_set_of(const struct sdc_model *m, uint32_t sa, uint32_t sl)
{
	return ((sa >> m->cfg.shift) ^ sl) & (m->cfg.n_set - 1);
}
/* Entry index of (SA, SL) in its set, or -1. */
static inline int sdc_lookup(const struct sdc_model *m, uint32_t set, uint32_t sa, uint32_t sl)
{
	uint32_t base = set * m->cfg.n_way, tag = sa & m->tag_mask;
	for (uint32_t w = 0; w < m->cfg.n_way; w++) {
		uint32_t i = base + w;
		if (m->valid[i] && m->tag_sa[i] == tag && m->tag_sl[i] == sl)
			return (int)i;
	}
	return -1;
}
/* Marks entry I used (replacement state). */
void sdc_touch(struct sdc_model *m, uint32_t i);
/* Picks a victim in SET, fills it with (SA, SL) and touches it; returns its
 * index or -1 when the set has no usable way (set 0 of a 1-way SDC). */
int sdc_insert(struct sdc_model *m, uint32_t set, uint32_t sa, uint32_t sl);

static inline uint32_t sdc_lsp_index(const struct sdc_model *m)
{
	if (m->cfg.hist == 1)
		return m->hist[0] & (m->cfg.n_p - 1);
	uint32_t x = 0;
	for (unsigned j = 0; j < m->cfg.hist && j < SDCLSP_MAX_HIST; j++)
		x ^= m->hist[j] << j;
	return x & (m->cfg.n_p - 1);
}
static inline void sdc_hist_push(struct sdc_model *m, uint32_t si)
{
	for (unsigned j = m->cfg.hist - 1; j > 0 && j < SDCLSP_MAX_HIST; j--)
		m->hist[j] = m->hist[j - 1];
	m->hist[0] = si;
}
/* After one LSP-hit run record covering RUN streams (1 .. 2^aolc_bits). */
static inline void sdc_aolc_update(struct sdc_model *m, uint32_t run)
{
	uint32_t cap = 1u << m->aolc_bits;
	if (run >= cap)
		m->aolc_mon = m->aolc_mon + 3 > 15 ? 15 : m->aolc_mon + 3;
	else if (run < cap / 2 && m->aolc_mon > 0)
		m->aolc_mon--;
	if (m->aolc_mon == 15) {
		if (m->aolc_bits < SDCLSP_AOLC_MAX_BITS)
			m->aolc_bits++;
		m->aolc_mon = 8;
	} else if (m->aolc_mon == 0) {
		if (m->aolc_bits > 0)
			m->aolc_bits--;
		m->aolc_mon = 8;
	}
}

#endif
