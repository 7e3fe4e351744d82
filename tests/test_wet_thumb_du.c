/* The WET's def-use decoder on Thumb code (issue 11, wet/defuse.h
 * wet_decode_isa), checked against a replayed run: for every instruction,
 * Thumb or ARM, decoded with the CPSR before it,
 *   - its condition (from the IT state or a conditional branch's
 *     encoding) agrees with the run: an instruction whose condition
 *     failed changes no register r0-r14 and not the flags;
 *   - its def set is complete: a register r0-r14, or the flags, that the
 *     instruction changed is in its def set (when no interrupt entered
 *     and the mode did not change);
 *   - its use set holds the flags when it is conditional;
 *   - wet_is_load_isa (tier 1's node inputs) holds exactly for the
 *     instructions that read memory when their condition held;
 *   - an instruction with a memory operand (not PLD/PLI/STREX) made data
 *     accesses exactly when its condition held (so a wrong IT state, which
 *     would let a skipped load or store pass, is caught).
 * Also a few encodings worked by hand (16-bit S forms inside and outside
 * an IT block, MRS/MSR, the exception return, IT itself).
 * The IT state is tracked from the instructions (wet_it_next), saved at
 * an interrupt entry and restored when the handler returns to the
 * interrupted mode.
 * Usage: test_wet_thumb_du [RUN.ims RUN.aes]  (without a run: the hand
 * cases only).  Exit 0, or 1 naming the first instruction at fault. */
#include "armdec.h"
#include "defuse.h"
#include "tier1.h"

#include "citcat.h"
#include "replay.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REQ(c, ...) do { if (!(c)) { fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #c); \
	fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); exit(1); } } while (0)

static int has(const uint8_t *set, unsigned n, unsigned r)
{
	for (unsigned i = 0; i < n; i++)
		if (set[i] == r)
			return 1;
	return 0;
}

struct ctx {
	struct wet_decoder *dec;
	struct armdec ad;
	uint64_t mem_checked;
	uint32_t before[CITCAT_OBS_NREGS];
	int irq;
	unsigned itstate, saved_it;
	uint64_t n, thumb, it, failed, checked, loads;
};

static int obs_record(void *vc, const struct citcat_itrace_rec *r, const uint32_t *regs)
{
	struct ctx *c = vc;
	if (r->kind != CITCAT_REC_INSN) {
		c->irq = 1;
		c->saved_it = c->itstate;
		c->itstate = 0;
		return 0;
	}
	uint32_t cpsr = c->before[CITCAT_OBS_CPSR];
	struct wet_du du;
	wet_decode_isa(c->dec, (uint32_t)r->pc, r->word, r->size, r->thumb, c->itstate, &du);
	int passed = wet_cond_passed(du.cond, cpsr);
	c->thumb += r->thumb;
	c->it += r->thumb && (c->itstate & 15);
	c->failed += !passed;
	int is_it = r->thumb && r->size == 2 && (r->word & 0xFF00) == 0xBF00 && (r->word & 15);
	const cs_insn *ci = is_it ? NULL : armdec_decode_isa(&c->ad, (uint32_t)r->pc, r->word, r->size, r->thumb);
	int memop = 0; /* (an IT instruction is not decoded: Capstone would keep its state) */
	if (ci && ci->id != ARM_INS_PLD &&
	    ci->id != ARM_INS_PLI && ci->id != ARM_INS_STREX && ci->id != ARM_INS_STREXB && ci->id != ARM_INS_STREXH &&
	    ci->id != ARM_INS_STREXD)
		for (unsigned i = 0; i < ci->detail->arm.op_count; i++)
			memop |= ci->detail->arm.operands[i].type == ARM_OP_MEM;
	if (passed && !is_it) {
		int reads = 0;
		for (unsigned k = 0; k < r->n_acc; k++)
			reads |= !r->acc[k].write;
		REQ(wet_is_load_isa(r->word, r->size, r->thumb) == reads, "instruction %" PRIu64 " (pc 0x%08x, %s size %u word "
			"%08x): wet_is_load_isa says %d, yet it %s memory", c->n, (unsigned)r->pc, r->thumb ? "Thumb" : "ARM",
		    r->size, r->word, !reads, reads ? "read" : "read no");
		c->loads += reads;
	}
	if (memop) {
		REQ((r->n_acc > 0) == passed, "instruction %" PRIu64 " (pc 0x%08x, %s word %08x, IT state %02x): condition %u %s, "
			"yet %u data accesses", c->n, (unsigned)r->pc, r->thumb ? "Thumb" : "ARM", r->word, c->itstate, du.cond,
		    passed ? "held" : "failed", r->n_acc);
		c->mem_checked++;
	}
	if (du.cond != 14 && du.cond != 15)
		REQ(has(du.use, du.nuse, WET_R_FLAGS), "instruction %" PRIu64 " (pc 0x%08x, word %08x): conditional, no flags read",
		    c->n, (unsigned)r->pc, r->word);
	if (!c->irq && (cpsr & 0x1f) == (regs[CITCAT_OBS_CPSR] & 0x1f)) {
		for (unsigned k = 0; k <= WET_R_FLAGS; k++) {
			uint32_t b0 = k < 15 ? c->before[k] : c->before[CITCAT_OBS_CPSR] >> 27;
			uint32_t a0 = k < 15 ? regs[k] : regs[CITCAT_OBS_CPSR] >> 27;
			if (b0 == a0)
				continue;
			REQ(passed, "instruction %" PRIu64 " (pc 0x%08x, %s word %08x, cpsr %08x): condition %u failed, yet r%u changed "
				    "(%08x -> %08x)", c->n, (unsigned)r->pc, r->thumb ? "Thumb" : "ARM", r->word, cpsr, du.cond, k, b0, a0);
			REQ(has(du.def, du.ndef, k), "instruction %" PRIu64 " (pc 0x%08x, %s size %u word %08x, cpsr %08x) changed %s%u "
				    "(%08x -> %08x) though its def set leaves it out", c->n, (unsigned)r->pc, r->thumb ? "Thumb" : "ARM",
			    r->size, r->word, cpsr, k < 15 ? "r" : "the flags ", k < 15 ? k : 0, b0, a0);
		}
		c->checked++;
	}
	c->itstate = wet_it_next(c->itstate, r->word, r->size, r->thumb);
	if ((cpsr & 0x1f) == 0x12 && (regs[CITCAT_OBS_CPSR] & 0x1f) != 0x12)
		c->itstate = c->saved_it; /* the handler returned */
	memcpy(c->before, regs, sizeof c->before);
	c->irq = 0;
	c->n++;
	return 0;
}

static int obs_dma(void *vc, uint32_t addr, uint32_t len)
{
	(void)vc;
	(void)addr;
	(void)len;
	return 0;
}

static int obs_start(void *vc, const uint32_t *regs)
{
	memcpy(((struct ctx *)vc)->before, regs, sizeof ((struct ctx *)vc)->before);
	return 0;
}

/* One hand-worked Thumb decode: DEF/USE list the logical registers
 * expected (terminated by 255), COND the condition. */
static void hand(struct wet_decoder *d, const char *what, uint32_t word, unsigned size, unsigned it, unsigned cond,
		 const uint8_t *def, const uint8_t *use)
{
	struct wet_du du;
	wet_decode_isa(d, 0x1000, word, size, 1, it, &du);
	REQ(du.cond == cond, "%s: condition %u, expected %u", what, du.cond, cond);
	unsigned nd = 0, nu = 0;
	for (; def[nd] != 255; nd++)
		REQ(has(du.def, du.ndef, def[nd]), "%s: def set lacks %u", what, def[nd]);
	for (; use[nu] != 255; nu++)
		REQ(has(du.use, du.nuse, use[nu]), "%s: use set lacks %u", what, use[nu]);
	REQ(du.ndef == nd && du.nuse == nu, "%s: %u defs, %u uses; expected %u, %u", what, du.ndef, du.nuse, nd, nu);
}

#define F WET_R_FLAGS
#define S WET_R_SPSR
#define L(...) ((const uint8_t[]){__VA_ARGS__, 255})
#define NONE ((const uint8_t[]){255})

int main(int argc, char **argv)
{
	REQ(argc == 1 || argc == 3, "usage: test_wet_thumb_du [RUN.ims RUN.aes]");
	struct ctx c = {0};
	REQ(wet_decoder_open(&c.dec) == 0 && armdec_init(&c.ad) == 0, "capstone");
	/* ITSTATE: IT EQ with one instruction left is 0x08 (firstcond 0000,
	 * mask 1000), IT NE 0x18; outside a block 0.  ITTE EQ (0xbf06: mask
	 * 0110) gives EQ, EQ, NE, then nothing: 0x06, 0x0c, 0x18, 0 */
	unsigned in_it_eq = 0x08, in_it_ne = 0x18, out = 0;
	unsigned st = wet_it_next(0, 0xbf06, 2, 1), s2 = wet_it_next(st, 0x1888, 2, 1), s3 = wet_it_next(s2, 0x1888, 2, 1);
	REQ(st == 0x06 && s2 == 0x0c && s3 == 0x18 && wet_it_next(s3, 0x1888, 2, 1) == 0, "ITTE EQ: %02x %02x %02x", st, s2, s3);
	/* the tracker (wet_itk): an IRQ entry inside ITTE EQ (state 0x0c) saves
	 * it and clears it; the handler (IRQ mode 0x12) runs outside IT; its
	 * return to SVC (0x13) restores 0x0c, and the next record must be at
	 * EPC 0x2002.  Worked by hand, each refusal case too. */
	{
		struct wet_itk k = {0};
		k.it = 0x0c;
		REQ(wet_itk_irq(&k, 0x2002) == 0 && k.it == 0 && k.saved == 0x0c, "IRQ entry: it %02x saved %02x", k.it, k.saved);
		wet_itk_step(&k, 0x4770, 2, 1, 0x92, 0x92); /* bx lr in the handler: still IRQ mode */
		REQ(k.it == 0 && !k.check, "handler step: it %02x", k.it);
		wet_itk_step(&k, 0x8f04f3de, 4, 1, 0x92, 0x13); /* subs pc, lr, #4 */
		REQ(k.it == 0x0c && k.check && k.epc == 0x2002, "return: it %02x check %d", k.it, k.check);
		struct wet_itk n = k; /* another entry at the EPC before its instruction: fine */
		REQ(wet_itk_irq(&n, 0x2002) == 0 && n.saved == 0x0c, "entry at EPC after the return");
		n = k; /* at another address: the handler did not return there */
		REQ(wet_itk_irq(&n, 0x3000) == -1, "entry away from EPC after the return");
		wet_itk_step(&k, 0x1888, 2, 1, 0x13, 0x13); /* the instruction at EPC: 0x0c -> 0x18 */
		REQ(k.it == 0x18 && !k.check, "after the return: it %02x", k.it);
		REQ(wet_itk_irq(&k, 0x2004) == 0 && wet_itk_irq(&k, 0x4000) == -1, "nested entry over a saved IT state");
		struct wet_itk z = {0}; /* nested entries with nothing saved: fine */
		REQ(wet_itk_irq(&z, 0x2000) == 0 && wet_itk_irq(&z, 0x4000) == 0, "nested entries outside IT blocks");
	}
	/* adds r0, r1, r2 (0x1888): outside IT it sets the flags; inside an
	 * IT EQ block it is addeq r0, r1, r2: no flags written, flags read */
	hand(c.dec, "adds r0, r1, r2", 0x1888, 2, out, 14, L(0, F), L(1, 2));
	hand(c.dec, "addeq r0, r1, r2", 0x1888, 2, in_it_eq, 0, L(0), L(1, 2, F));
	/* IT EQ (0xbf08): reads and writes nothing, and leaves no IT state
	 * behind in the decoder: adds decodes as adds again */
	hand(c.dec, "it eq", 0xbf08, 2, out, 14, NONE, NONE);
	hand(c.dec, "adds after it", 0x1888, 2, out, 14, L(0, F), L(1, 2));
	/* cmp r0, #1 (0x2801) sets the flags inside an IT block too */
	hand(c.dec, "cmpne r0, #1", 0x2801, 2, in_it_ne, 1, L(F), L(0, F));
	/* beq (0xd001): a conditional branch, its condition in the encoding */
	hand(c.dec, "beq", 0xd001, 2, out, 0, NONE, L(F));
	/* mrs r0, spsr (f3ff 8000): r0 from the SPSR; msr cpsr_f, r1 (f381
	 * 8800): the flags from r1; subs pc, lr, #4 (f3de 8f04): SPSR to CPSR */
	hand(c.dec, "mrs r0, spsr", 0x8000f3ffu, 4, out, 14, L(0), L(S));
	hand(c.dec, "msr cpsr_f, r1", 0x8800f381u, 4, out, 14, L(F), L(1));
	hand(c.dec, "subs pc, lr, #4", 0x8f04f3deu, 4, out, 14, L(F), L(14, S));
	/* loads (tier 1: a load's results are a node input of their own) */
	static const struct { const char *what; uint32_t word; unsigned size; int load; } ld[] = {
		{"ldr r0, [r1]", 0x6808, 2, 1}, {"str r0, [r1]", 0x6008, 2, 0}, {"pop {r4, pc}", 0xbd10, 2, 1},
		{"push {r4, lr}", 0xb510, 2, 0}, {"ldr r0, [pc, #4]", 0x4801, 2, 1}, {"ldrsh r0, [r1, r2]", 0x5e88, 2, 1},
		{"strb r0, [r1, r2]", 0x5488, 2, 0}, {"ldrh r0, [r1]", 0x8808, 2, 1}, {"ldr r0, [sp]", 0x9800, 2, 1},
		{"str r0, [sp]", 0x9000, 2, 0}, {"ldmia r0!, {r1}", 0xc802, 2, 1}, {"adds r0, r1, r2", 0x1888, 2, 0},
		{"ldr.w r0, [r1, #4]", 0x0004f8d1u, 4, 1}, {"str.w r0, [r1, #4]", 0x0004f8c1u, 4, 0},
		{"pld [r1]", 0xf000f891u, 4, 0}, {"ldrd r0, r1, [r2]", 0x0100e9d2u, 4, 1}, {"strd r0, r1, [r2]", 0x0100e9c2u, 4, 0},
		{"tbb [r0, r1]", 0xf001e8d0u, 4, 1}, {"ldr.w pc, [sp], #4", 0xfb04f85du, 4, 1}, {"bl", 0xf800f000u, 4, 0},
		{"pop.w {r4, pc}", 0x8010e8bdu, 4, 1}, {"stmdb sp!, {r4, lr}", 0x4010e92du, 4, 0},
	};
	for (unsigned i = 0; i < sizeof ld / sizeof ld[0]; i++)
		REQ(wet_is_load_isa(ld[i].word, ld[i].size, 1) == ld[i].load, "%s: wet_is_load_isa is %d", ld[i].what, !ld[i].load);
	REQ(wet_is_load_isa(0xe5910000u, 4, 0) == 1 && wet_is_load_isa(0xe5810000u, 4, 0) == 0, "A32: ldr/str r0, [r1]");
	if (argc == 3) {
		struct citcat_replay_observer obs = {&c, obs_record, obs_dma, obs_start, NULL};
		struct citcat_replay_config rc;
		citcat_replay_config_default(&rc);
		rc.ims_path = argv[1];
		rc.aes_path = argv[2];
		rc.observer = &obs;
		struct citcat_replay_result res;
		struct citcat_errinfo err;
		REQ(citcat_replay_run(&rc, &res, &err) == 0, "replay: %s", err.msg);
		REQ(c.thumb > 0, "no Thumb instruction in the run");
		REQ(c.checked > c.n / 2, "too few instructions checked (%" PRIu64 " of %" PRIu64 ")", c.checked, c.n);
		printf("test_wet_thumb_du: %" PRIu64 " instructions (%" PRIu64 " Thumb, %" PRIu64 " in IT blocks, %" PRIu64
		       " condition failed), %" PRIu64 " def sets and %" PRIu64 " memory instructions checked, %" PRIu64 " loads\n", c.n,
		       c.thumb, c.it, c.failed, c.checked, c.mem_checked, c.loads);
	}
	wet_decoder_close(c.dec);
	armdec_fini(&c.ad);
	printf("test_wet_thumb_du: ok\n");
	return 0;
}
