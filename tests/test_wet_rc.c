/* The WET's second tier (version 7, WET.md "Second tier: the range coder"
 * and "Segment blocks"): every value coded comes back, in both modes of
 * the shared model code.
 *  1. The range coder: random bits at probabilities from 0.001 to 0.999,
 *     gamma values at the edges (0, 1, 2^32, 2^64 - 2) and random ones,
 *     direct bits and bit-trees round trip; a decision that always goes
 *     the same way costs about a thousandth of a bit (100,000 such bits in
 *     fewer than 40 bytes: the paper's bidirectional codes cost a bit per
 *     value at least); a block cut short is noticed (overrun), a block
 *     whose first byte is not 0 is refused.
 *  2. The segment models (segcode.c): random segments of a made-up node
 *     table (A32 and Thumb statements, conditional ones, loads, calls,
 *     interrupt entries, register-bank and exception-return events on the
 *     Cortex-M7 model) are coded with true producers, control parents and
 *     outcomes drawn at random, then decoded: every node id, event,
 *     outcome, producer list and control parent equals what was coded,
 *     and the decoded producer lists are what the register model and the
 *     memory producers give (the encoder's own output).  A flipped byte in
 *     a block gives a decode error or a different answer, never a crash
 *     (memory checked in the sanitizer build). */
#include "rc.h"
#include "segcode.h"
#include "wet_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REQ(c, ...) do { if (!(c)) { fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #c); \
	fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); exit(1); } } while (0)

static uint64_t rng = 88172645463325252ull;
static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static void test_coder(void)
{
	enum { N = 200000 };
	static uint8_t bits[N];
	static uint64_t vals[N];
	static unsigned kinds[N];
	struct wet_rc e = {0}, d;
	wet_rc_enc_init(&e);
	wet_prob p[8];
	wet_prob_init(p, 8);
	wet_prob tree[256];
	wet_prob_init(tree, 256);
	struct wet_gamma g;
	wet_gamma_init(&g);
	static const uint64_t edge[] = {0, 1, 2, 3, 0xffffffffull, 0x100000000ull, UINT64_MAX - 1, 1ull << 63};
	for (unsigned i = 0; i < N; i++) {
		kinds[i] = (unsigned)(rnd() % 4);
		uint64_t r = rnd();
		switch (kinds[i]) {
		case 0: { /* a bit with probability k/8 (k = i % 8, but 0.001 and 0.999 too) */
			unsigned k = i % 8;
			uint64_t thr = k == 0 ? 18446744073709551ull : k == 7 ? UINT64_MAX - 18446744073709551ull : (UINT64_MAX / 8) * k;
			bits[i] = r < thr;
			wet_rc_bit(&e, &p[k], bits[i]);
			break;
		}
		case 1:
			vals[i] = i < 64 ? edge[i % 8] : r >> (r % 64);
			if (vals[i] == UINT64_MAX)
				vals[i]--;
			wet_rc_gamma(&e, &g, vals[i]);
			break;
		case 2:
			vals[i] = r >> 40;
			wet_rc_direct(&e, vals[i], 24);
			break;
		default:
			vals[i] = r & 255;
			wet_rc_tree(&e, tree, 8, (uint32_t)vals[i]);
		}
	}
	REQ(wet_rc_enc_finish(&e) == 0, "out of memory");
	REQ(wet_rc_dec_init(&d, e.buf, e.n) == 0, "a coded block refused");
	wet_prob_init(p, 8);
	wet_prob_init(tree, 256);
	wet_gamma_init(&g);
	for (unsigned i = 0; i < N; i++) {
		switch (kinds[i]) {
		case 0: REQ(wet_rc_bit(&d, &p[i % 8], 0) == bits[i], "bit %u", i); break;
		case 1: REQ(wet_rc_gamma(&d, &g, 0) == vals[i], "gamma %u: %llu", i, (unsigned long long)vals[i]); break;
		case 2: REQ(wet_rc_direct(&d, 0, 24) == vals[i], "direct %u", i); break;
		default: REQ(wet_rc_tree(&d, tree, 8, 0) == vals[i], "tree %u", i);
		}
	}
	REQ(!wet_rc_dec_overrun(&d), "the decoder read past the block");
	REQ(d.pos == d.len, "the decoder stopped at byte %zu of %zu", d.pos, d.len);
	/* the floor: a decision that always holds */
	wet_rc_enc_init(&e);
	wet_prob q = WET_P_HALF;
	for (unsigned i = 0; i < 100000; i++)
		wet_rc_bit(&e, &q, 1);
	REQ(wet_rc_enc_finish(&e) == 0, "out of memory");
	REQ(e.n < 40, "100000 predictable bits took %zu bytes", e.n);
	size_t full = e.n;
	REQ(wet_rc_dec_init(&d, e.buf, full) == 0, "refused");
	q = WET_P_HALF;
	for (unsigned i = 0; i < 100000; i++)
		REQ(wet_rc_bit(&d, &q, 0) == 1, "bit %u", i);
	REQ(!wet_rc_dec_overrun(&d), "overrun");
	/* cut short: the decoder notices */
	wet_rc_enc_init(&e);
	wet_gamma_init(&g);
	for (unsigned i = 0; i < 1000; i++)
		wet_rc_gamma(&e, &g, rnd());
	wet_rc_enc_finish(&e);
	REQ(wet_rc_dec_init(&d, e.buf, e.n / 2) == 0, "refused");
	wet_gamma_init(&g);
	for (unsigned i = 0; i < 1000; i++)
		wet_rc_gamma(&d, &g, 0);
	REQ(wet_rc_dec_overrun(&d), "a block cut in half decoded without running past its end");
	e.buf[0] = 1;
	REQ(wet_rc_dec_init(&d, e.buf, e.n) == -1, "a first byte of 1 accepted");
	REQ(wet_rc_dec_init(&d, e.buf, 4) == -1, "a 4-byte block accepted");
	wet_rc_free(&e);
	printf("range coder: %u mixed values round trip; 100000 predictable bits in %zu bytes\n", N, full);
}

/* ---- the segment models ---- */

enum { NST = 64, NND = 12, MAXI = 3000 };
static struct wet_stmt st[NST];
static struct wet_node nd[NND];

/* A made-up node table: 10 nodes of 1-8 statements (some conditional,
 * some loads, some calls, some Thumb) and two interrupt nodes. */
static void make_table(struct wet_decoder *dec)
{
	static const uint32_t a32[] = {
		0xe3a00001, /* mov r0, #1 */
		0xe0801000, /* add r1, r0, r0 */
		0x10802001, /* addne r2, r0, r1 */
		0xe5913004, /* ldr r3, [r1, #4] */
		0xe8bd4010, /* pop {r4, lr} */
		0xe1530002, /* cmp r3, r2 */
		0xeb000010, /* bl */
		0xe5802000, /* str r2, [r0] */
		0x03a04002, /* moveq r4, #2 */
		0xe12fff1e, /* bx lr */
	};
	static const uint32_t t16[] = {0x1c48 /* adds r0, r1, #1 */, 0x6808 /* ldr r0, [r1] */, 0x4288 /* cmp r0, r1 */,
				       0xbd10 /* pop {r4, pc} */};
	uint32_t s = 0;
	for (uint32_t i = 0; i < NND; i++) {
		struct wet_node *x = &nd[i];
		if (i >= 10) {
			*x = (struct wet_node){WET_NODE_IRQ, (uint8_t)(i == 10 ? 3 : 15), 0x2000, 0, s};
			continue;
		}
		uint32_t n = 1 + i % 6 + (i == 3 ? 2 : 0);
		*x = (struct wet_node){WET_NODE_PATH, 0, 0x1000 + 0x100 * i, n, s};
		for (uint32_t k = 0; k < n; k++, s++) {
			struct wet_stmt *t = &st[s];
			int thumb = i >= 7;
			t->isa = thumb ? WET_ISA_T16 : WET_ISA_A32;
			t->word = thumb ? t16[(i + k) % 4] : a32[(i * 3 + k) % 10];
			t->pc = x->pc + (thumb ? 2 : 4) * k;
			t->it = 0;
			t->node = i;
			wet_decode_isa(dec, t->pc, t->word, wet_isa_size(t->isa), thumb, 0, &t->du);
			t->conditional = t->du.cond != 14 && t->du.cond != 15;
			t->load = (uint8_t)((t->word & 0x0c100000) == 0x04100000 || t->word == 0xe8bd4010 || t->word == 0x6808 ||
					    t->word == 0xbd10);
		}
	}
	REQ(s <= NST, "table");
}

struct inst { /* what the encoder codes, per instance */
	uint32_t stmt;
	uint8_t passed, bank, excret, memread;
	uint32_t nmem;
	uint64_t mem[6];
	uint64_t parent;
	/* the encoder's answers */
	uint32_t np;
	uint64_t prod[256], par;
};

static void test_models(int m7, unsigned rounds)
{
	struct wet_decoder *dec;
	REQ(wet_decoder_open(&dec) == 0, "capstone");
	make_table(dec);
	static struct inst in[MAXI];
	static uint32_t nodes[MAXI];
	static struct wet_event ev[3 * MAXI + 1], dev[3 * MAXI + 1];
	uint64_t total = 0, bytes = 0;
	for (unsigned round = 0; round < rounds; round++) {
		uint64_t first = round * 100000ull + (rnd() % 5000);
		struct wet_sc e, d;
		REQ(wet_sc_open(&e, 1, m7) == 0 && wet_sc_tables(&e, st, NST, nd, NND) == 0, "open");
		REQ(wet_sc_open(&d, 0, m7) == 0 && wet_sc_tables(&d, st, NST, nd, NND) == 0, "open");
		/* the builder's truth before the segment: some writers, some none */
		for (unsigned ph = 0; ph < WET_NPHYS; ph++)
			e.rm.w[ph] = first && rnd() % 3 ? 1 + rnd() % first : 0;
		REQ(wet_sc_begin(&e, first, MAXI) == 0, "begin");
		uint32_t ni = 0, nn = 0, nev = 0;
		uint32_t bank = 0, pred_bank = UINT32_MAX;
		while (ni < MAXI - 16) {
			uint32_t id = (uint32_t)(rnd() % 8 < 7 ? (nn ? (nodes[nn - 1] + 1 + rnd() % 2) % 10 : 0) : 10 + rnd() % 2);
			nodes[nn++] = id;
			wet_sc_node(&e, id);
			if (nd[id].kind == WET_NODE_IRQ) {
				wet_sc_irq(&e, &nd[id], NULL);
				pred_bank = m7 ? 0 : 2;
				bank = pred_bank;
				continue;
			}
			for (uint32_t k = 0; k < nd[id].n; k++, ni++) {
				struct inst *x = &in[ni];
				memset(x, 0, sizeof *x);
				x->stmt = nd[id].first + k;
				x->passed = st[x->stmt].conditional ? (uint8_t)(rnd() % 3 != 0) : 1;
				if (rnd() % 50 == 0)
					bank = (uint32_t)(rnd() % (m7 ? 2 : 6));
				x->bank = (uint8_t)bank;
				if (bank != pred_bank)
					ev[nev++] = (struct wet_event){ni, WET_EV_BANK, bank};
				pred_bank = bank;
				if (m7 && x->passed && rnd() % 40 == 0) {
					x->excret = (uint8_t)(1 + rnd() % 2);
					ev[nev++] = (struct wet_event){ni, WET_EV_EXCRET, x->excret - 1u};
				}
				uint64_t index = first + ni;
				if (x->passed && (st[x->stmt].load || x->excret || rnd() % 30 == 0) && index)
					for (uint32_t q = 0, nm = (uint32_t)(rnd() % 4); q < nm; q++) {
						uint64_t p = rnd() % 3 ? index - rnd() % (ni + 1) : 1 + rnd() % index;
						if (p >= 1 && p <= index)
							x->mem[x->nmem++] = p;
					}
				x->parent = 0;
				if (index && rnd() % 4) {
					uint64_t span = ni + 1 < index ? ni + 1 : index;
					x->parent = 1 + (rnd() % 2 ? index - 1 - rnd() % span : rnd() % index);
				}
				int need = 0;
				REQ(wet_sc_insn(&e, x->stmt, index, x->passed, x->bank, x->excret, 0, x->mem, x->nmem, x->parent,
						x->prod, &x->np, &x->par, &need) == 0, "encode");
				REQ(x->par == x->parent, "the encoder's parent");
				if (need) {
					x->memread = 1;
					ev[nev++] = (struct wet_event){ni, WET_EV_MEMREAD, 0};
				}
				/* the encoder's producers: distinct, nearest first, before the instance */
				for (uint32_t q = 0; q < x->np; q++)
					REQ(x->prod[q] < index && (!q || x->prod[q] < x->prod[q - 1]), "producer order");
				for (uint32_t q = 0; q < x->nmem; q++) {
					int found = 0;
					for (uint32_t r = 0; r < x->np; r++)
						found |= x->prod[r] == x->mem[q] - 1;
					REQ(found, "memory producer %llu missing", (unsigned long long)x->mem[q] - 1);
				}
			}
		}
		uint32_t n_events = nev;
		REQ(wet_sc_events(&e, ev, &n_events, n_events, ni) == 0, "events");
		for (uint32_t i = 0; i < ni; i++)
			if (st[in[i].stmt].conditional)
				wet_sc_cond(&e, in[i].stmt, in[i].passed);
		REQ(wet_sc_finish(&e) == 0, "finish");
		/* decode */
		REQ(wet_sc_begin(&d, first, ni) == 0, "begin");
		for (unsigned k = 0; k < WET_NBLOCKS; k++) {
			REQ(wet_rc_dec_init(&d.rc[k], e.rc[k].buf, e.rc[k].n) == 0, "block %u", k);
			bytes += e.rc[k].n;
		}
		for (uint32_t i = 0; i < nn; i++)
			REQ(wet_sc_node(&d, 0) == nodes[i], "node execution %u", i);
		uint32_t dn;
		REQ(wet_sc_events(&d, dev, &dn, 3 * MAXI + 1, ni) == 0, "events: %s", d.why);
		REQ(dn == nev, "%u events, coded %u", dn, nev);
		for (uint32_t i = 0; i < nev; i++)
			REQ(dev[i].pos == ev[i].pos && dev[i].type == ev[i].type && dev[i].val == ev[i].val, "event %u", i);
		for (uint32_t i = 0; i < ni; i++)
			if (st[in[i].stmt].conditional)
				REQ(wet_sc_cond(&d, in[i].stmt, 0) == in[i].passed, "outcome %u", i);
		uint32_t ei = 0, i = 0, dbank = 0;
		for (uint32_t j = 0; j < nn; j++) {
			if (nd[nodes[j]].kind == WET_NODE_IRQ) {
				wet_sc_irq(&d, &nd[nodes[j]], NULL);
				dbank = m7 ? 0 : 2;
				continue;
			}
			for (uint32_t k = 0; k < nd[nodes[j]].n; k++, i++) {
				unsigned excret = 0;
				int memread = 0;
				for (; ei < dn && dev[ei].pos == i; ei++) {
					if (dev[ei].type == WET_EV_BANK)
						dbank = dev[ei].val;
					else if (dev[ei].type == WET_EV_EXCRET)
						excret = dev[ei].val + 1;
					else
						memread = 1;
				}
				uint64_t prod[256], par;
				uint32_t np;
				int need;
				REQ(wet_sc_insn(&d, in[i].stmt, first + i, in[i].passed, dbank, excret, memread, NULL, 0, 0, prod, &np,
						&par, &need) == 0, "decode instance %u: %s", i, d.why);
				REQ(np == in[i].np && !memcmp(prod, in[i].prod, np * sizeof prod[0]), "instance %u: producers differ", i);
				REQ(par == in[i].par, "instance %u: control parent %llu, coded %llu", i, (unsigned long long)par,
				    (unsigned long long)in[i].par);
			}
		}
		REQ(!wet_sc_overrun(&d), "overrun");
		total += ni;
		/* a flipped byte: an error or another answer, never a crash */
		unsigned k = (unsigned)(rnd() % WET_NBLOCKS);
		if (e.rc[k].n > 6) {
			e.rc[k].buf[1 + rnd() % (e.rc[k].n - 1)] ^= (uint8_t)(1 + rnd() % 255);
			REQ(wet_sc_begin(&d, first, ni) == 0, "begin");
			for (unsigned q = 0; q < WET_NBLOCKS; q++)
				wet_rc_dec_init(&d.rc[q], e.rc[q].buf, e.rc[q].n);
			for (uint32_t j = 0; j < nn && !d.corrupt; j++)
				wet_sc_node(&d, 0);
			wet_sc_events(&d, dev, &dn, 3 * MAXI + 1, ni);
		}
		wet_sc_close(&e);
		wet_sc_close(&d);
	}
	wet_decoder_close(dec);
	printf("segment models (%s): %u segments, %llu instances round trip in %llu bytes\n", m7 ? "Cortex-M7" : "A target",
	       rounds, (unsigned long long)total, (unsigned long long)bytes);
}

int main(void)
{
	test_coder();
	test_models(0, 40);
	test_models(1, 40);
	return 0;
}
