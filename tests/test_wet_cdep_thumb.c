/* Control dependences of Thumb code (issue 11, WET.md "Control
 * dependences"): a run worked by hand through both passes of wet_cd, with
 * a 4-byte call (BL T1) and a 2-byte one (BLX Rm T1), whose activations
 * must end at PC + 4 and PC + 2, and an interrupt taken in Thumb state
 * (its return address is the interrupted instruction's PC, in SVC mode).
 *
 * The run (SVC mode, T set: CPSR 0x33, SP 0x8000 outside the handler):
 *   INDEX  0  0x1000  movs r0, #1     2001       main
 *   INDEX  1  0x1002  bl   f          f000 f800  call, returns to 0x1006
 *   INDEX  2  0x2000  cmp  r0, #0     2800       f
 *   INDEX  3  0x2002  beq  0x2006     d000       not taken
 *   INDEX  4  0x2004  movs r1, #2     2102
 *             IRQ, return address 0x2006
 *   INDEX  5  0x0018  subs pc, lr, #4 e25ef004   handler (A32, IRQ mode, SP 0x7000)
 *   INDEX  6  0x2006  bx   lr         4770       back in f
 *   INDEX  7  0x1006  movs r3, #0     2300       back in main
 *   INDEX  8  0x1008  blx  r3         4798       call, returns to 0x100a
 *   INDEX  9  0x2000  cmp  r0, #0     2800       f again
 *   INDEX 10  0x2002  beq  0x2006     d000       taken
 *   INDEX 11  0x2006  bx   lr         4770
 *   INDEX 12  0x100a  movs r4, #0     2400       main
 * f's CFG: 2000 -> 2002 -> {2004, 2006}, 2004 -> 2006 -> EXIT; the
 * post-dominator of 2002 is 2006, so 2004 alone is control dependent on
 * 2002 (one branch node, one pair); three functions (main, f, handler).
 * Control parents (INDEX + 1, 0: none): main's instances have none; f's
 * have its call (1 + 1 = 2, then 8 + 1 = 9) except 0x2004, whose parent is
 * the beq (3 + 1 = 4); the handler's have none.  Treating the BL as A32 (not
 * a call) or returning to PC + 4 after BLX Rm gives other parents. */
#include "cdep.h"

#include <inttypes.h>
#include <stdio.h>

#define REQ(c, ...) do { if (!(c)) { fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #c); \
	fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); return 1; } } while (0)

struct step {
	uint32_t pc, word;
	unsigned size;
	int thumb;
	uint32_t cpsr, sp;
	int irq_before; /* an interrupt entry before this instruction, its return address the previous one's next */
	uint64_t parent;
};

static const struct step run[] = {
	{0x1000, 0x2001, 2, 1, 0x33, 0x8000, 0, 0},
	{0x1002, 0xF800F000u, 4, 1, 0x33, 0x8000, 0, 0},
	{0x2000, 0x2800, 2, 1, 0x33, 0x8000, 0, 2},
	{0x2002, 0xD000, 2, 1, 0x33, 0x8000, 0, 2},
	{0x2004, 0x2102, 2, 1, 0x33, 0x8000, 0, 4},
	{0x0018, 0xE25EF004u, 4, 0, 0x92, 0x7000, 1, 0},
	{0x2006, 0x4770, 2, 1, 0x33, 0x8000, 0, 2},
	{0x1006, 0x2300, 2, 1, 0x33, 0x8000, 0, 0},
	{0x1008, 0x4798, 2, 1, 0x33, 0x8000, 0, 0},
	{0x2000, 0x2800, 2, 1, 0x33, 0x8000, 0, 9},
	{0x2002, 0xD000, 2, 1, 0x33, 0x8000, 0, 9},
	{0x2006, 0x4770, 2, 1, 0x33, 0x8000, 0, 9},
	{0x100A, 0x2400, 2, 1, 0x33, 0x8000, 0, 0},
};
#define N (sizeof run / sizeof run[0])

static int pass(struct wet_cd *cd, int two)
{
	for (uint64_t i = 0; i < N; i++) {
		const struct step *s = &run[i];
		if (s->irq_before)
			REQ(wet_cd_irq(cd, 0x2006, run[i - 1].cpsr, run[i - 1].sp) == 0, "irq before %" PRIu64, i);
		uint64_t parent = 99;
		int cont = 0;
		REQ(wet_cd_insn_isa(cd, i, s->pc, s->word, s->size, s->thumb, 1, s->cpsr, s->sp, &parent, &cont) == 0,
		    "instance %" PRIu64, i);
		if (two)
			REQ(parent == s->parent, "instance %" PRIu64 " (0x%04x): parent %" PRIu64 ", expected %" PRIu64, i,
			    s->pc, parent, s->parent);
	}
	return 0;
}

int main(void)
{
	/* the call encodings */
	REQ(wet_is_call_thumb(0xF800F000u, 4), "BL T1");
	REQ(wet_is_call_thumb(0xE800F000u, 4), "BLX T2 (immediate)");
	REQ(!wet_is_call_thumb(0xE801F000u, 4), "BLX T2 with H set is undefined");
	REQ(!wet_is_call_thumb(0xB800F000u, 4), "B T4 does not link");
	REQ(!wet_is_call_thumb(0x8000F000u, 4), "B<c> T3 does not link");
	REQ(wet_is_call_thumb(0x4798, 2) && wet_is_call_thumb(0x47F0, 2), "BLX Rm (r3, lr)");
	REQ(!wet_is_call_thumb(0x4770, 2) && !wet_is_call_thumb(0x4718, 2), "BX does not link");
	REQ(!wet_is_call_thumb(0xF000, 2), "a lone halfword");
	REQ(!wet_is_call(0xF800F000u), "the BL's bytes as A32 are no call (so the test below can fail)");

	struct wet_cd *cd;
	REQ(wet_cd_open(&cd) == 0, "open");
	int rc = pass(cd, 0);
	if (!rc)
		rc = wet_cd_analyse(cd);
	uint64_t c[6];
	if (!rc) {
		wet_cd_counts(cd, c);
		if (c[0] != 3 || c[3] != 1 || c[4] != 1) {
			fprintf(stderr, "FAIL: %" PRIu64 " functions, %" PRIu64 " branch nodes, %" PRIu64
				" pairs (expected 3, 1, 1)\n", c[0], c[3], c[4]);
			rc = 1;
		}
	}
	if (!rc)
		rc = pass(cd, 1);
	wet_cd_close(cd);
	if (rc)
		return 1;
	printf("ok: Thumb calls and returns, an interrupt in Thumb state\n");
	return 0;
}
