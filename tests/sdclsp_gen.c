/* Test tool: writes a synthetic itrace of the program in sdclsp_synth.s
 * (tests/data/sdclsp_synth.elf) and, optionally, the din the decoder must
 * give back.  usage: sdclsp_gen OUT.itrace SEED EVENTS IRQ_RATE [WANT.din] */
#include "itrace.h"
#include "sdclsp_synth.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	if (argc < 5) {
		fprintf(stderr, "usage: sdclsp_gen OUT.itrace SEED EVENTS IRQ_RATE [WANT.din]\n");
		return 2;
	}
	struct citcat_itrace_writer *w;
	static struct citcat_itrace_rec rec;
	struct synth_walk sw;
	FILE *din = argc > 5 ? fopen(argv[5], "w") : NULL;
	if (citcat_itrace_writer_open(&w, argv[1], CITCAT_ISA_ARM_A32) < 0 || (argc > 5 && !din)) {
		fprintf(stderr, "sdclsp_gen: cannot create output\n");
		return 1;
	}
	synth_init(&sw, strtoull(argv[2], NULL, 0), (unsigned)strtoul(argv[4], NULL, 0));
	unsigned long n = strtoul(argv[3], NULL, 0);
	for (unsigned long i = 0; i < n; i++) {
		uint32_t pc, word;
		memset(&rec, 0, sizeof rec);
		if (synth_step(&sw, &pc, &word)) {
			rec.kind = CITCAT_REC_IRQ;
			rec.line = 1;
		} else {
			rec.word = word;
			if (din)
				fprintf(din, "2 %x\n", pc);
		}
		rec.pc = pc;
		if (citcat_itrace_write(w, &rec) < 0) {
			fprintf(stderr, "sdclsp_gen: %s\n", citcat_itrace_writer_error(w)->msg);
			citcat_itrace_writer_abort(w);
			return 1;
		}
	}
	if (din && fclose(din) != 0)
		return 1;
	return citcat_itrace_writer_close(w) < 0;
}
