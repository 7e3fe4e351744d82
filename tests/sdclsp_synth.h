/* Test helper: a synthetic ARM A32 program (sdclsp_synth.s, assembled at
 * 0x8000) and a walker that produces a plausible retired-instruction
 * sequence through it: loops, calls, conditional calls and returns, an
 * indirect jump through a table, a 301-instruction straight run (longer
 * than the default maximum stream length), and interrupts whose handler
 * returns with `subs pc, lr, #4`.  Branch outcomes and jump-table targets
 * come from a seeded generator or from fuzzer bytes.  The walker knows the
 * control flow from kinds written next to each word at authoring time, not
 * from Capstone, so it checks the library's classifier independently. */
#ifndef CITCAT_SDCLSP_SYNTH_H
#define CITCAT_SDCLSP_SYNTH_H

#include <stdint.h>
#include <stddef.h>

enum { W_PLAIN, W_B, W_BL, W_RET, W_JT, W_ERET, W_DATA };

/* Generated at authoring time from tests/sdclsp_synth.s: arm-none-eabi-as +
 * ld -Ttext=0x8000, objdump -d; the walker kinds come from the mnemonics. */
#define SYNTH_BASE 0x8000u
#define SYNTH_IRQ_HANDLER 0x8540u
static const struct { uint32_t word; uint8_t kind; } synth_code[] = {
	{0xe3a00000, W_PLAIN}, /* 8000 */
	{0xe3a01000, W_PLAIN}, /* 8004 */
	{0xeb000012, W_BL}, /* 8008 */
	{0xe2811001, W_PLAIN}, /* 800c */
	{0xe3510005, W_PLAIN}, /* 8010 */
	{0xbafffffb, W_B}, /* 8014 */
	{0xe59f2544, W_PLAIN}, /* 8018 */
	{0xe2003003, W_PLAIN}, /* 801c */
	{0xe792f103, W_JT}, /* 8020 */
	{0xe2844001, W_PLAIN}, /* 8024 */
	{0xea000006, W_B}, /* 8028 */
	{0xe2844002, W_PLAIN}, /* 802c */
	{0xeb000015, W_BL}, /* 8030 */
	{0xea000003, W_B}, /* 8034 */
	{0xeb00000e, W_BL}, /* 8038 */
	{0xea000001, W_B}, /* 803c */
	{0xe1a00000, W_PLAIN}, /* 8040 */
	{0xe1a00000, W_PLAIN}, /* 8044 */
	{0xe2800001, W_PLAIN}, /* 8048 */
	{0xe3500064, W_PLAIN}, /* 804c */
	{0x1affffeb, W_B}, /* 8050 */
	{0xeaffffe9, W_B}, /* 8054 */
	{0xe92d4010, W_PLAIN}, /* 8058 */
	{0xe3100001, W_PLAIN}, /* 805c */
	{0x03a05001, W_PLAIN}, /* 8060 */
	{0x12855002, W_PLAIN}, /* 8064 */
	{0x0b000002, W_BL}, /* 8068 */
	{0x0a000000, W_B}, /* 806c */
	{0xe2855003, W_PLAIN}, /* 8070 */
	{0xe8bd8010, W_RET}, /* 8074 */
	{0xe3500003, W_PLAIN}, /* 8078 */
	{0x012fff1e, W_RET}, /* 807c */
	{0xe2866001, W_PLAIN}, /* 8080 */
	{0x18bd0001, W_PLAIN}, /* 8084 */
	{0xe1a0f00e, W_RET}, /* 8088 */
	{0xe2888001, W_PLAIN}, /* 808c */
	{0xe2888001, W_PLAIN}, /* 8090 */
	{0xe2888001, W_PLAIN}, /* 8094 */
	{0xe2888001, W_PLAIN}, /* 8098 */
	{0xe2888001, W_PLAIN}, /* 809c */
	{0xe2888001, W_PLAIN}, /* 80a0 */
	{0xe2888001, W_PLAIN}, /* 80a4 */
	{0xe2888001, W_PLAIN}, /* 80a8 */
	{0xe2888001, W_PLAIN}, /* 80ac */
	{0xe2888001, W_PLAIN}, /* 80b0 */
	{0xe2888001, W_PLAIN}, /* 80b4 */
	{0xe2888001, W_PLAIN}, /* 80b8 */
	{0xe2888001, W_PLAIN}, /* 80bc */
	{0xe2888001, W_PLAIN}, /* 80c0 */
	{0xe2888001, W_PLAIN}, /* 80c4 */
	{0xe2888001, W_PLAIN}, /* 80c8 */
	{0xe2888001, W_PLAIN}, /* 80cc */
	{0xe2888001, W_PLAIN}, /* 80d0 */
	{0xe2888001, W_PLAIN}, /* 80d4 */
	{0xe2888001, W_PLAIN}, /* 80d8 */
	{0xe2888001, W_PLAIN}, /* 80dc */
	{0xe2888001, W_PLAIN}, /* 80e0 */
	{0xe2888001, W_PLAIN}, /* 80e4 */
	{0xe2888001, W_PLAIN}, /* 80e8 */
	{0xe2888001, W_PLAIN}, /* 80ec */
	{0xe2888001, W_PLAIN}, /* 80f0 */
	{0xe2888001, W_PLAIN}, /* 80f4 */
	{0xe2888001, W_PLAIN}, /* 80f8 */
	{0xe2888001, W_PLAIN}, /* 80fc */
	{0xe2888001, W_PLAIN}, /* 8100 */
	{0xe2888001, W_PLAIN}, /* 8104 */
	{0xe2888001, W_PLAIN}, /* 8108 */
	{0xe2888001, W_PLAIN}, /* 810c */
	{0xe2888001, W_PLAIN}, /* 8110 */
	{0xe2888001, W_PLAIN}, /* 8114 */
	{0xe2888001, W_PLAIN}, /* 8118 */
	{0xe2888001, W_PLAIN}, /* 811c */
	{0xe2888001, W_PLAIN}, /* 8120 */
	{0xe2888001, W_PLAIN}, /* 8124 */
	{0xe2888001, W_PLAIN}, /* 8128 */
	{0xe2888001, W_PLAIN}, /* 812c */
	{0xe2888001, W_PLAIN}, /* 8130 */
	{0xe2888001, W_PLAIN}, /* 8134 */
	{0xe2888001, W_PLAIN}, /* 8138 */
	{0xe2888001, W_PLAIN}, /* 813c */
	{0xe2888001, W_PLAIN}, /* 8140 */
	{0xe2888001, W_PLAIN}, /* 8144 */
	{0xe2888001, W_PLAIN}, /* 8148 */
	{0xe2888001, W_PLAIN}, /* 814c */
	{0xe2888001, W_PLAIN}, /* 8150 */
	{0xe2888001, W_PLAIN}, /* 8154 */
	{0xe2888001, W_PLAIN}, /* 8158 */
	{0xe2888001, W_PLAIN}, /* 815c */
	{0xe2888001, W_PLAIN}, /* 8160 */
	{0xe2888001, W_PLAIN}, /* 8164 */
	{0xe2888001, W_PLAIN}, /* 8168 */
	{0xe2888001, W_PLAIN}, /* 816c */
	{0xe2888001, W_PLAIN}, /* 8170 */
	{0xe2888001, W_PLAIN}, /* 8174 */
	{0xe2888001, W_PLAIN}, /* 8178 */
	{0xe2888001, W_PLAIN}, /* 817c */
	{0xe2888001, W_PLAIN}, /* 8180 */
	{0xe2888001, W_PLAIN}, /* 8184 */
	{0xe2888001, W_PLAIN}, /* 8188 */
	{0xe2888001, W_PLAIN}, /* 818c */
	{0xe2888001, W_PLAIN}, /* 8190 */
	{0xe2888001, W_PLAIN}, /* 8194 */
	{0xe2888001, W_PLAIN}, /* 8198 */
	{0xe2888001, W_PLAIN}, /* 819c */
	{0xe2888001, W_PLAIN}, /* 81a0 */
	{0xe2888001, W_PLAIN}, /* 81a4 */
	{0xe2888001, W_PLAIN}, /* 81a8 */
	{0xe2888001, W_PLAIN}, /* 81ac */
	{0xe2888001, W_PLAIN}, /* 81b0 */
	{0xe2888001, W_PLAIN}, /* 81b4 */
	{0xe2888001, W_PLAIN}, /* 81b8 */
	{0xe2888001, W_PLAIN}, /* 81bc */
	{0xe2888001, W_PLAIN}, /* 81c0 */
	{0xe2888001, W_PLAIN}, /* 81c4 */
	{0xe2888001, W_PLAIN}, /* 81c8 */
	{0xe2888001, W_PLAIN}, /* 81cc */
	{0xe2888001, W_PLAIN}, /* 81d0 */
	{0xe2888001, W_PLAIN}, /* 81d4 */
	{0xe2888001, W_PLAIN}, /* 81d8 */
	{0xe2888001, W_PLAIN}, /* 81dc */
	{0xe2888001, W_PLAIN}, /* 81e0 */
	{0xe2888001, W_PLAIN}, /* 81e4 */
	{0xe2888001, W_PLAIN}, /* 81e8 */
	{0xe2888001, W_PLAIN}, /* 81ec */
	{0xe2888001, W_PLAIN}, /* 81f0 */
	{0xe2888001, W_PLAIN}, /* 81f4 */
	{0xe2888001, W_PLAIN}, /* 81f8 */
	{0xe2888001, W_PLAIN}, /* 81fc */
	{0xe2888001, W_PLAIN}, /* 8200 */
	{0xe2888001, W_PLAIN}, /* 8204 */
	{0xe2888001, W_PLAIN}, /* 8208 */
	{0xe2888001, W_PLAIN}, /* 820c */
	{0xe2888001, W_PLAIN}, /* 8210 */
	{0xe2888001, W_PLAIN}, /* 8214 */
	{0xe2888001, W_PLAIN}, /* 8218 */
	{0xe2888001, W_PLAIN}, /* 821c */
	{0xe2888001, W_PLAIN}, /* 8220 */
	{0xe2888001, W_PLAIN}, /* 8224 */
	{0xe2888001, W_PLAIN}, /* 8228 */
	{0xe2888001, W_PLAIN}, /* 822c */
	{0xe2888001, W_PLAIN}, /* 8230 */
	{0xe2888001, W_PLAIN}, /* 8234 */
	{0xe2888001, W_PLAIN}, /* 8238 */
	{0xe2888001, W_PLAIN}, /* 823c */
	{0xe2888001, W_PLAIN}, /* 8240 */
	{0xe2888001, W_PLAIN}, /* 8244 */
	{0xe2888001, W_PLAIN}, /* 8248 */
	{0xe2888001, W_PLAIN}, /* 824c */
	{0xe2888001, W_PLAIN}, /* 8250 */
	{0xe2888001, W_PLAIN}, /* 8254 */
	{0xe2888001, W_PLAIN}, /* 8258 */
	{0xe2888001, W_PLAIN}, /* 825c */
	{0xe2888001, W_PLAIN}, /* 8260 */
	{0xe2888001, W_PLAIN}, /* 8264 */
	{0xe2888001, W_PLAIN}, /* 8268 */
	{0xe2888001, W_PLAIN}, /* 826c */
	{0xe2888001, W_PLAIN}, /* 8270 */
	{0xe2888001, W_PLAIN}, /* 8274 */
	{0xe2888001, W_PLAIN}, /* 8278 */
	{0xe2888001, W_PLAIN}, /* 827c */
	{0xe2888001, W_PLAIN}, /* 8280 */
	{0xe2888001, W_PLAIN}, /* 8284 */
	{0xe2888001, W_PLAIN}, /* 8288 */
	{0xe2888001, W_PLAIN}, /* 828c */
	{0xe2888001, W_PLAIN}, /* 8290 */
	{0xe2888001, W_PLAIN}, /* 8294 */
	{0xe2888001, W_PLAIN}, /* 8298 */
	{0xe2888001, W_PLAIN}, /* 829c */
	{0xe2888001, W_PLAIN}, /* 82a0 */
	{0xe2888001, W_PLAIN}, /* 82a4 */
	{0xe2888001, W_PLAIN}, /* 82a8 */
	{0xe2888001, W_PLAIN}, /* 82ac */
	{0xe2888001, W_PLAIN}, /* 82b0 */
	{0xe2888001, W_PLAIN}, /* 82b4 */
	{0xe2888001, W_PLAIN}, /* 82b8 */
	{0xe2888001, W_PLAIN}, /* 82bc */
	{0xe2888001, W_PLAIN}, /* 82c0 */
	{0xe2888001, W_PLAIN}, /* 82c4 */
	{0xe2888001, W_PLAIN}, /* 82c8 */
	{0xe2888001, W_PLAIN}, /* 82cc */
	{0xe2888001, W_PLAIN}, /* 82d0 */
	{0xe2888001, W_PLAIN}, /* 82d4 */
	{0xe2888001, W_PLAIN}, /* 82d8 */
	{0xe2888001, W_PLAIN}, /* 82dc */
	{0xe2888001, W_PLAIN}, /* 82e0 */
	{0xe2888001, W_PLAIN}, /* 82e4 */
	{0xe2888001, W_PLAIN}, /* 82e8 */
	{0xe2888001, W_PLAIN}, /* 82ec */
	{0xe2888001, W_PLAIN}, /* 82f0 */
	{0xe2888001, W_PLAIN}, /* 82f4 */
	{0xe2888001, W_PLAIN}, /* 82f8 */
	{0xe2888001, W_PLAIN}, /* 82fc */
	{0xe2888001, W_PLAIN}, /* 8300 */
	{0xe2888001, W_PLAIN}, /* 8304 */
	{0xe2888001, W_PLAIN}, /* 8308 */
	{0xe2888001, W_PLAIN}, /* 830c */
	{0xe2888001, W_PLAIN}, /* 8310 */
	{0xe2888001, W_PLAIN}, /* 8314 */
	{0xe2888001, W_PLAIN}, /* 8318 */
	{0xe2888001, W_PLAIN}, /* 831c */
	{0xe2888001, W_PLAIN}, /* 8320 */
	{0xe2888001, W_PLAIN}, /* 8324 */
	{0xe2888001, W_PLAIN}, /* 8328 */
	{0xe2888001, W_PLAIN}, /* 832c */
	{0xe2888001, W_PLAIN}, /* 8330 */
	{0xe2888001, W_PLAIN}, /* 8334 */
	{0xe2888001, W_PLAIN}, /* 8338 */
	{0xe2888001, W_PLAIN}, /* 833c */
	{0xe2888001, W_PLAIN}, /* 8340 */
	{0xe2888001, W_PLAIN}, /* 8344 */
	{0xe2888001, W_PLAIN}, /* 8348 */
	{0xe2888001, W_PLAIN}, /* 834c */
	{0xe2888001, W_PLAIN}, /* 8350 */
	{0xe2888001, W_PLAIN}, /* 8354 */
	{0xe2888001, W_PLAIN}, /* 8358 */
	{0xe2888001, W_PLAIN}, /* 835c */
	{0xe2888001, W_PLAIN}, /* 8360 */
	{0xe2888001, W_PLAIN}, /* 8364 */
	{0xe2888001, W_PLAIN}, /* 8368 */
	{0xe2888001, W_PLAIN}, /* 836c */
	{0xe2888001, W_PLAIN}, /* 8370 */
	{0xe2888001, W_PLAIN}, /* 8374 */
	{0xe2888001, W_PLAIN}, /* 8378 */
	{0xe2888001, W_PLAIN}, /* 837c */
	{0xe2888001, W_PLAIN}, /* 8380 */
	{0xe2888001, W_PLAIN}, /* 8384 */
	{0xe2888001, W_PLAIN}, /* 8388 */
	{0xe2888001, W_PLAIN}, /* 838c */
	{0xe2888001, W_PLAIN}, /* 8390 */
	{0xe2888001, W_PLAIN}, /* 8394 */
	{0xe2888001, W_PLAIN}, /* 8398 */
	{0xe2888001, W_PLAIN}, /* 839c */
	{0xe2888001, W_PLAIN}, /* 83a0 */
	{0xe2888001, W_PLAIN}, /* 83a4 */
	{0xe2888001, W_PLAIN}, /* 83a8 */
	{0xe2888001, W_PLAIN}, /* 83ac */
	{0xe2888001, W_PLAIN}, /* 83b0 */
	{0xe2888001, W_PLAIN}, /* 83b4 */
	{0xe2888001, W_PLAIN}, /* 83b8 */
	{0xe2888001, W_PLAIN}, /* 83bc */
	{0xe2888001, W_PLAIN}, /* 83c0 */
	{0xe2888001, W_PLAIN}, /* 83c4 */
	{0xe2888001, W_PLAIN}, /* 83c8 */
	{0xe2888001, W_PLAIN}, /* 83cc */
	{0xe2888001, W_PLAIN}, /* 83d0 */
	{0xe2888001, W_PLAIN}, /* 83d4 */
	{0xe2888001, W_PLAIN}, /* 83d8 */
	{0xe2888001, W_PLAIN}, /* 83dc */
	{0xe2888001, W_PLAIN}, /* 83e0 */
	{0xe2888001, W_PLAIN}, /* 83e4 */
	{0xe2888001, W_PLAIN}, /* 83e8 */
	{0xe2888001, W_PLAIN}, /* 83ec */
	{0xe2888001, W_PLAIN}, /* 83f0 */
	{0xe2888001, W_PLAIN}, /* 83f4 */
	{0xe2888001, W_PLAIN}, /* 83f8 */
	{0xe2888001, W_PLAIN}, /* 83fc */
	{0xe2888001, W_PLAIN}, /* 8400 */
	{0xe2888001, W_PLAIN}, /* 8404 */
	{0xe2888001, W_PLAIN}, /* 8408 */
	{0xe2888001, W_PLAIN}, /* 840c */
	{0xe2888001, W_PLAIN}, /* 8410 */
	{0xe2888001, W_PLAIN}, /* 8414 */
	{0xe2888001, W_PLAIN}, /* 8418 */
	{0xe2888001, W_PLAIN}, /* 841c */
	{0xe2888001, W_PLAIN}, /* 8420 */
	{0xe2888001, W_PLAIN}, /* 8424 */
	{0xe2888001, W_PLAIN}, /* 8428 */
	{0xe2888001, W_PLAIN}, /* 842c */
	{0xe2888001, W_PLAIN}, /* 8430 */
	{0xe2888001, W_PLAIN}, /* 8434 */
	{0xe2888001, W_PLAIN}, /* 8438 */
	{0xe2888001, W_PLAIN}, /* 843c */
	{0xe2888001, W_PLAIN}, /* 8440 */
	{0xe2888001, W_PLAIN}, /* 8444 */
	{0xe2888001, W_PLAIN}, /* 8448 */
	{0xe2888001, W_PLAIN}, /* 844c */
	{0xe2888001, W_PLAIN}, /* 8450 */
	{0xe2888001, W_PLAIN}, /* 8454 */
	{0xe2888001, W_PLAIN}, /* 8458 */
	{0xe2888001, W_PLAIN}, /* 845c */
	{0xe2888001, W_PLAIN}, /* 8460 */
	{0xe2888001, W_PLAIN}, /* 8464 */
	{0xe2888001, W_PLAIN}, /* 8468 */
	{0xe2888001, W_PLAIN}, /* 846c */
	{0xe2888001, W_PLAIN}, /* 8470 */
	{0xe2888001, W_PLAIN}, /* 8474 */
	{0xe2888001, W_PLAIN}, /* 8478 */
	{0xe2888001, W_PLAIN}, /* 847c */
	{0xe2888001, W_PLAIN}, /* 8480 */
	{0xe2888001, W_PLAIN}, /* 8484 */
	{0xe2888001, W_PLAIN}, /* 8488 */
	{0xe2888001, W_PLAIN}, /* 848c */
	{0xe2888001, W_PLAIN}, /* 8490 */
	{0xe2888001, W_PLAIN}, /* 8494 */
	{0xe2888001, W_PLAIN}, /* 8498 */
	{0xe2888001, W_PLAIN}, /* 849c */
	{0xe2888001, W_PLAIN}, /* 84a0 */
	{0xe2888001, W_PLAIN}, /* 84a4 */
	{0xe2888001, W_PLAIN}, /* 84a8 */
	{0xe2888001, W_PLAIN}, /* 84ac */
	{0xe2888001, W_PLAIN}, /* 84b0 */
	{0xe2888001, W_PLAIN}, /* 84b4 */
	{0xe2888001, W_PLAIN}, /* 84b8 */
	{0xe2888001, W_PLAIN}, /* 84bc */
	{0xe2888001, W_PLAIN}, /* 84c0 */
	{0xe2888001, W_PLAIN}, /* 84c4 */
	{0xe2888001, W_PLAIN}, /* 84c8 */
	{0xe2888001, W_PLAIN}, /* 84cc */
	{0xe2888001, W_PLAIN}, /* 84d0 */
	{0xe2888001, W_PLAIN}, /* 84d4 */
	{0xe2888001, W_PLAIN}, /* 84d8 */
	{0xe2888001, W_PLAIN}, /* 84dc */
	{0xe2888001, W_PLAIN}, /* 84e0 */
	{0xe2888001, W_PLAIN}, /* 84e4 */
	{0xe2888001, W_PLAIN}, /* 84e8 */
	{0xe2888001, W_PLAIN}, /* 84ec */
	{0xe2888001, W_PLAIN}, /* 84f0 */
	{0xe2888001, W_PLAIN}, /* 84f4 */
	{0xe2888001, W_PLAIN}, /* 84f8 */
	{0xe2888001, W_PLAIN}, /* 84fc */
	{0xe2888001, W_PLAIN}, /* 8500 */
	{0xe2888001, W_PLAIN}, /* 8504 */
	{0xe2888001, W_PLAIN}, /* 8508 */
	{0xe2888001, W_PLAIN}, /* 850c */
	{0xe2888001, W_PLAIN}, /* 8510 */
	{0xe2888001, W_PLAIN}, /* 8514 */
	{0xe2888001, W_PLAIN}, /* 8518 */
	{0xe2888001, W_PLAIN}, /* 851c */
	{0xe2888001, W_PLAIN}, /* 8520 */
	{0xe2888001, W_PLAIN}, /* 8524 */
	{0xe2888001, W_PLAIN}, /* 8528 */
	{0xe2888001, W_PLAIN}, /* 852c */
	{0xe2888001, W_PLAIN}, /* 8530 */
	{0xe2888001, W_PLAIN}, /* 8534 */
	{0xe2888001, W_PLAIN}, /* 8538 */
	{0xe12fff1e, W_RET}, /* 853c */
	{0xe24dd004, W_PLAIN}, /* 8540 */
	{0xe2877001, W_PLAIN}, /* 8544 */
	{0xe3570002, W_PLAIN}, /* 8548 */
	{0xc2877000, W_PLAIN}, /* 854c */
	{0xe25ef004, W_ERET}, /* 8550 */
	{0x00008024, W_DATA}, /* 8554 */
	{0x0000802c, W_DATA}, /* 8558 */
	{0x00008038, W_DATA}, /* 855c */
	{0x00008040, W_DATA}, /* 8560 */
	{0x00008554, W_DATA}, /* 8564 */
};

#define SYNTH_WORDS (sizeof synth_code / sizeof synth_code[0])
#define SYNTH_TABLE 0x8554u

struct synth_walk {
	uint64_t rng;
	const uint8_t *bytes; /* when set, choices come from these bytes (fuzzing) */
	size_t n, pos;
	unsigned irq_rate;    /* one interrupt in about this many instructions; 0: none */
	uint32_t pc;
	uint32_t stack[64];
	int sp;
	uint32_t epc[4];
	int isp;
};

static inline void synth_init(struct synth_walk *w, uint64_t seed, unsigned irq_rate)
{
	w->rng = seed * 0x9E3779B97F4A7C15ull + 1;
	w->bytes = NULL;
	w->n = w->pos = 0;
	w->irq_rate = irq_rate;
	w->pc = SYNTH_BASE;
	w->sp = w->isp = 0;
}

static inline uint32_t synth_rand(struct synth_walk *w)
{
	if (w->bytes)
		return w->pos < w->n ? w->bytes[w->pos++] : 0;
	w->rng ^= w->rng << 13;
	w->rng ^= w->rng >> 7;
	w->rng ^= w->rng << 17;
	return (uint32_t)(w->rng >> 16);
}

/* Next event: returns 0 for an instruction (*PC, *WORD) or 1 for an
 * interrupt entry (*PC = EPC). */
static inline int synth_step(struct synth_walk *w, uint32_t *pc, uint32_t *word)
{
	if (w->irq_rate && w->isp == 0 && synth_rand(w) % w->irq_rate == 0) {
		w->epc[w->isp++] = w->pc;
		*pc = w->pc;
		w->pc = SYNTH_IRQ_HANDLER;
		return 1;
	}
	uint32_t a = w->pc, i = (a - SYNTH_BASE) / 4;
	if (a < SYNTH_BASE || i >= SYNTH_WORDS || synth_code[i].kind == W_DATA) {
		a = w->pc = SYNTH_BASE;
		i = 0;
	}
	uint32_t wd = synth_code[i].word, next = a + 4;
	int cond = (wd >> 28) != 0xe;
	uint32_t target = a + 8 + (uint32_t)((int32_t)(wd << 8) >> 6);
	/* backward branches mostly taken, others half the time */
	int taken = !cond || (synth_code[i].kind == W_B && target < a ? synth_rand(w) % 8 != 0 : synth_rand(w) & 1);
	switch (synth_code[i].kind) {
	case W_B:
		if (taken)
			next = target;
		break;
	case W_BL:
		if (taken) {
			if (w->sp < 64)
				w->stack[w->sp++] = a + 4;
			next = target;
		}
		break;
	case W_RET:
		if (taken)
			next = w->sp ? w->stack[--w->sp] : SYNTH_BASE;
		break;
	case W_JT:
		next = synth_code[(SYNTH_TABLE - SYNTH_BASE) / 4 + (synth_rand(w) & 3)].word;
		break;
	case W_ERET:
		next = w->isp ? w->epc[--w->isp] : SYNTH_BASE;
		break;
	default:
		break;
	}
	*pc = a;
	*word = wd;
	w->pc = next;
	return 0;
}

/* The program's bytes, little-endian, for a citcat_image. */
static inline void synth_bytes(uint8_t *out)
{
	for (size_t i = 0; i < SYNTH_WORDS; i++)
		for (int b = 0; b < 4; b++)
			out[4 * i + b] = (uint8_t)(synth_code[i].word >> (8 * b));
}

#endif
