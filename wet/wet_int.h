/* Internal: constants of the WET file layout (WET.md) shared by the
 * builder and the reader. */
#ifndef CITCAT_WET_INT_H
#define CITCAT_WET_INT_H

#include <citcat/wet.h>
#include "itrace.h"

#include <stddef.h>
#include <stdint.h>

#define WET_MAGIC "CITCWET\0"
#define WET_FOOT_MAGIC "CWETEND\0"
#define WET_VERSION 7
#define WET_HDR_LEN 16
#define WET_FOOT_LEN 64
#define WET_IDX_HDR 96                   /* index header */
#define WET_SEG_HDR 40                   /* per segment in the index, before its blocks */
#define WET_SEG_BLOCK 24                 /* per block of a segment */
#define WET_SEG_ENTRY (WET_SEG_HDR + 4 * WET_SEG_BLOCK)
#define WET_NODE_MAX_INSNS 1024          /* instructions a node may hold */
#define WET_SEG_DEFAULT (1u << 16)
#define WET_BLOCK_MAX (1u << 20)         /* instructions or node executions of a segment */
#define WET_MAX_INSNS 0xFFFFFFFEull      /* a run's instructions (the builder's RAM shadow holds INDEX + 1 in 32 bits) */
#define WET_GRAPH_MAX (256u << 20)       /* the node table, compressed or not */

enum { WET_NODE_BLOCK = 0, WET_NODE_IRQ = 1, WET_NODE_PATH = 2 };

/* The record hash of a segment (WET.md "Index"): every instruction and
 * interrupt entry the replay hands out, in order, folded into 64 bits one
 * word at a time (a rotate, an exclusive or and a multiply per word: the
 * replay walks hash every record they see). */
static inline uint64_t wet_hstep(uint64_t h, uint64_t x)
{
	return ((h << 27 | h >> 37) ^ x) * 0x9E3779B97F4A7C15ull;
}
static inline uint64_t wet_rec_hash(uint64_t h, const struct citcat_itrace_rec *r)
{
	h = wet_hstep(h, (uint64_t)(uint32_t)r->pc | (uint64_t)r->word << 32);
	h = wet_hstep(h, (uint64_t)r->kind | (uint64_t)r->line << 8 | (uint64_t)r->size << 16 | (uint64_t)r->thumb << 24 |
			   (uint64_t)r->n_acc << 32);
	for (uint32_t k = 0; k < r->n_acc; k++) {
		const struct citcat_access *a = &r->acc[k];
		h = wet_hstep(h, (uint64_t)(uint32_t)a->addr | (uint64_t)a->size << 32 | (uint64_t)a->write << 40);
		h = wet_hstep(h, a->value);
	}
	return h;
}

/* The node table's compression (xz, WET.md "Graph"): 0 or -1. */
int wet_xz_pack(const uint8_t *in, size_t n, uint8_t **out, size_t *outn);
/* Unpacks exactly N bytes into OUT: 0, or -1 (not a valid stream of that
 * length), -2 (out of memory). */
int wet_xz_unpack(const uint8_t *in, size_t inlen, uint8_t *out, size_t n);

#endif
