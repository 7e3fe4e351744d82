/* citcat/profile.h against a profile worked out by hand (issue 35): the
 * code of tests/firmware/profile_golden.S (main at 0x1000 calls leaf twice;
 * an interrupt to irq is taken right where leaf returns to), fed as a
 * replay hands it out, and the callgrind file it must give, line by line.
 * usage: test_profile PROFILE_GOLDEN.elf PROFILE_GOLDEN.S SCRATCH_DIR */
#include "check.h"

#include <citcat/citcat.h>
#include <stdio.h>
#include <string.h>

static struct citcat_itrace_rec insn(uint32_t pc, uint32_t word)
{
	struct citcat_itrace_rec r;
	memset(&r, 0, sizeof r);
	r.kind = CITCAT_REC_INSN;
	r.pc = pc;
	r.word = word;
	r.size = 4;
	return r;
}

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: test_profile PROFILE_GOLDEN.elf PROFILE_GOLDEN.S SCRATCH_DIR\n");
		return 2;
	}
	struct citcat_target_config cfg;
	citcat_target_config_default(&cfg);
	struct citcat_profile *p;
	struct citcat_errinfo err;
	CHECK_EQ(citcat_profile_open(&p, argv[1], &cfg, &err), 0);
	if (!p) {
		fprintf(stderr, "%s\n", err.msg);
		return 1;
	}
	struct citcat_cat_event fill_i = {.kind = CITCAT_CAT_FILL_I, .addr = 0x1000, .len = 32};
	struct citcat_cat_event fill_d = {.kind = CITCAT_CAT_FILL_D, .addr = 0x2000, .len = 32};
	struct citcat_itrace_rec bl1 = insn(0x1000, 0xeb000001), bl2 = insn(0x1004, 0xeb000000), spin = insn(0x1008, 0xeafffffe);
	struct citcat_itrace_rec ldr = insn(0x100c, 0xe5910000), bx = insn(0x1010, 0xe12fff1e), subs = insn(0x1014, 0xe25ef004);
	ldr.n_acc = 1;
	ldr.acc[0] = (struct citcat_access){.addr = 0x2004, .value = 7, .size = 4};
	struct citcat_itrace_rec irq = {.kind = CITCAT_REC_IRQ, .line = 3, .pc = 0x1004};
	/* the run: its bus events come before the record of the instruction that made them */
	CHECK_EQ(citcat_profile_bus(p, &fill_i), 0);
	CHECK_EQ(citcat_profile_record(p, &bl1), 0);  /* main:8, an I-fill */
	CHECK_EQ(citcat_profile_bus(p, &fill_d), 0);
	CHECK_EQ(citcat_profile_record(p, &ldr), 0);  /* leaf:15, a read and its D-fill */
	CHECK_EQ(citcat_profile_record(p, &bx), 0);   /* leaf:16, back to 0x1004 ... */
	CHECK_EQ(citcat_profile_record(p, &irq), 0);  /* ... where an interrupt is taken */
	CHECK_EQ(citcat_profile_record(p, &subs), 0); /* irq:21, back to 0x1004 */
	CHECK_EQ(citcat_profile_record(p, &bl2), 0);  /* main:9 */
	CHECK_EQ(citcat_profile_record(p, &ldr), 0);  /* leaf:15, a read that hits */
	CHECK_EQ(citcat_profile_record(p, &bx), 0);   /* leaf:16, back to 0x1008 */
	CHECK_EQ(citcat_profile_record(p, &spin), 0); /* main:10 */
	uint64_t tot[CITCAT_PROF_EVENTS];
	CHECK_EQ(citcat_profile_totals(p, tot), 0);
	CHECK(tot[CITCAT_PROF_IR] == 8 && tot[CITCAT_PROF_DR] == 2 && tot[CITCAT_PROF_I1MR] == 1 &&
	      tot[CITCAT_PROF_D1MR] == 1 && tot[CITCAT_PROF_DW] == 0 && tot[CITCAT_PROF_D1MW] == 0);
	char out[4096];
	snprintf(out, sizeof out, "%s/golden.callgrind", argv[3]);
	CHECK_EQ(citcat_profile_write(p, out, "golden", &err), 0);
	citcat_profile_close(p);

	/* By hand.  Events: Ir Dr Dw I1mr D1mr D1mw D1wb Ur Uw DMA (trailing
	 * zeros left out).  Self: main 8: 1 instruction, 1 I-fill; 9, 10: 1
	 * each; leaf 15: 2 instructions, 2 reads, 1 D-fill; 16: 2; irq 21: 1.
	 * Calls: main 8 -> leaf, once, inclusive ldr + bx (Ir 2, Dr 1, D1mr 1:
	 * it returned to 0x1004 before the interrupt); the interrupt entry from
	 * leaf 16 (the instruction before it) -> irq, inclusive Ir 1; main 9 ->
	 * leaf once, Ir 2, Dr 1.  Ids: (1) is "???", the unknown function and
	 * file, so main is (2), leaf (3), irq (4), the source file (2). */
	char want[8192];
	snprintf(want, sizeof want,
		 "# callgrind format\nversion: 1\ncreator: citcat %s\ncmd: golden\n"
		 "desc: I1 cache: 16384 B, 32 B, 4-way associative\ndesc: D1 cache: 16384 B, 32 B, 4-way associative\n"
		 "positions: line\nevents: Ir Dr Dw I1mr D1mr D1mw D1wb Ur Uw DMA\nsummary: 8 2 0 1 1\n"
		 "\nfl=(2) %s\nfn=(2) main\n8 1 0 0 1\n9 1\n10 1\n"
		 "cfi=(2)\ncfn=(3) leaf\ncalls=1 15\n8 2 1 0 0 1\n"
		 "cfi=(2)\ncfn=(3)\ncalls=1 15\n9 2 1\n"
		 "\nfl=(2)\nfn=(3)\n15 2 2 0 0 1\n16 2\n"
		 "cfi=(2)\ncfn=(4) irq\ncalls=1 21\n16 1\n"
		 "\nfl=(2)\nfn=(4)\n21 1\n"
		 "\ntotals: 8 2 0 1 1\n",
		 CITCAT_VERSION_STRING, argv[2]);
	char got[8192];
	FILE *f = fopen(out, "rb");
	size_t n = f ? fread(got, 1, sizeof got - 1, f) : 0;
	if (f)
		fclose(f);
	got[n] = 0;
	CHECK(strcmp(got, want) == 0);
	if (strcmp(got, want) != 0)
		fprintf(stderr, "--- want\n%s--- got\n%s", want, got);
	remove(out);

	/* errors: no ELF, not an ELF; writing to a directory */
	CHECK(citcat_profile_open(&p, "/nonexistent/fw.elf", NULL, &err) < 0 && p == NULL);
	CHECK(citcat_profile_open(&p, argv[2], NULL, &err) < 0 && p == NULL); /* the .S is no ELF */
	CHECK_EQ(citcat_profile_open(&p, argv[1], NULL, &err), 0);
	CHECK(citcat_profile_write(p, argv[3], NULL, &err) < 0); /* a directory */
	citcat_profile_close(p);
	CHECK_DONE();
}
