/* Test tool: writes an itrace of straight-line code with N distinct PCs
 * (0, 4, 8, ...: one `mov r0, r0` each; after the last, execution jumps back
 * to 0 as after an exception) repeated PASSES times (0: without end), to
 * measure what a trace with many distinct PCs costs the tools and to feed
 * them endless input.  OUT.itrace may be '-' for standard output.
 * usage: pcs_gen OUT.itrace N [PASSES] */
#include "itrace.h"

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: pcs_gen OUT.itrace N [PASSES]\n");
		return 2;
	}
	unsigned long n = strtoul(argv[2], NULL, 0), passes = argc > 3 ? strtoul(argv[3], NULL, 0) : 1;
	struct citcat_itrace_writer *w;
	static struct citcat_itrace_rec rec;
	if (n == 0 || n > (1ul << 30) || citcat_itrace_writer_open(&w, argv[1], CITCAT_ISA_ARM_A32) < 0) {
		fprintf(stderr, "pcs_gen: bad N or cannot create %s\n", argv[1]);
		return 2;
	}
	rec.kind = CITCAT_REC_INSN;
	rec.word = 0xE1A00000u;
	for (unsigned long p = 0; passes == 0 || p < passes; p++)
		for (unsigned long i = 0; i < n; i++) {
			rec.pc = 4 * (uint64_t)i;
			if (citcat_itrace_write(w, &rec) < 0) {
				fprintf(stderr, "pcs_gen: %s\n", citcat_itrace_writer_error(w)->msg);
				citcat_itrace_writer_abort(w);
				return 1;
			}
		}
	return citcat_itrace_writer_close(w) < 0;
}
