/* Round trip on real runs: for every (RUN.itrace, FIRMWARE.elf) pair given,
 * every variant and several configurations, decode(encode(trace)) must equal
 * the trace's instruction address sequence, interrupts included.
 * usage: test_sdclsp_roundtrip RUN.itrace FIRMWARE.elf [RUN2.itrace FW2.elf...] */
#include "check.h"
#include "itrace.h"
#include "sdclsp.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "membuf.h"


static const char *specs[] = {
	"sdclsp:b:8x4,32", "sdclsp:e:8x4,32", "sdclsp:r:8x4,32",
	"sdclsp:b:32x4,128", "sdclsp:e:32x4,128", "sdclsp:r:32x4,128",
	"sdclsp:b:256x4,1024", "sdclsp:e:256x4,1024", "sdclsp:r:256x4,1024",
	"sdclsp:r:16x2,64:repl=lru:hist=2", "sdclsp:e:64x1,64:repl=fifo:maxsl=32",
	"sdclsp:b:16x4,64:sa=always:shift=2",
};

static void one(const char *trace, const struct citcat_image *img, const char *spec)
{
	struct sdclsp_config c;
	struct citcat_errinfo err;
	CHECK_EQ(sdclsp_config_parse(&c, spec, &err), 0);
	struct citcat_itrace_reader *r;
	static struct citcat_itrace_rec rec;
	/* a trace with Thumb code needs the ARMv7 stream (SDCLSP.md, "Thumb") */
	CHECK_EQ(citcat_itrace_reader_open(&r, trace), 0);
	while (citcat_itrace_next(r, &rec) == 1)
		if (rec.kind == CITCAT_REC_INSN && rec.thumb) {
			c.isa = CITCAT_SDCLSP_ISA_ARMV7;
			break;
		}
	citcat_itrace_reader_close(r);
	struct sdclsp_encoder *e;
	struct membuf out = {0};
	int rc = citcat_itrace_reader_open(&r, trace);
	CHECK_EQ(rc, 0);
	CHECK_EQ(sdclsp_encoder_alloc(&e, &c, mem_sink, &out), 0);
	while (rc == 0 && (rc = citcat_itrace_next(r, &rec)) == 1)
		rc = rec.kind == CITCAT_REC_IRQ ? sdclsp_encode_irq(e, rec.pc) : sdclsp_encode_insn_isa(e, rec.pc, rec.word, rec.size, rec.thumb);
	if (rc < 0)
		fprintf(stderr, "%s %s: %s\n", trace, spec, sdclsp_encoder_error(e)->msg);
	CHECK_EQ(rc, 0);
	CHECK_EQ(sdclsp_encoder_finish(e), 0);
	sdclsp_encoder_free(e);
	citcat_itrace_reader_close(r);

	struct sdclsp_decoder *d;
	uint64_t pc, n = 0, bad = 0;
	unsigned size = 0;
	int thumb = 0;
	CHECK_EQ(sdclsp_decoder_open_mem(&d, out.p, out.len, img), 0);
	CHECK_EQ(citcat_itrace_reader_open(&r, trace), 0);
	while ((rc = citcat_itrace_next(r, &rec)) == 1) {
		if (rec.kind == CITCAT_REC_IRQ)
			continue;
		int k = sdclsp_decoder_next_isa(d, &pc, &size, &thumb);
		if (k != 1 || pc != rec.pc || size != rec.size || thumb != rec.thumb) {
			if (!bad++)
				fprintf(stderr, "%s %s: instruction %llu: %s 0x%llx, want 0x%llx\n", trace, spec,
					(unsigned long long)n, k == 1 ? "got" : sdclsp_decoder_error(d)->msg,
					(unsigned long long)pc, (unsigned long long)rec.pc);
			if (k != 1)
				break;
		}
		n++;
	}
	CHECK_EQ(bad, 0);
	if (!bad)
		CHECK_EQ(sdclsp_decoder_next(d, &pc), 0);
	printf("%s %s: %llu instructions, %.4f bits/instruction\n", trace, spec, (unsigned long long)n,
	       n ? out.len * 8.0 / n : 0.0);
	sdclsp_decoder_close(d);
	citcat_itrace_reader_close(r);
	free(out.p);
}

int main(int argc, char **argv)
{
	if (argc < 3 || argc % 2 == 0) {
		fprintf(stderr, "usage: test_sdclsp_roundtrip RUN.itrace FIRMWARE.elf [...]\n");
		return 2;
	}
	for (int i = 1; i + 1 < argc; i += 2) {
		struct citcat_image *img;
		struct citcat_errinfo err;
		uint64_t entry;
		CHECK_EQ(citcat_image_alloc(&img), 0);
		int rc = citcat_image_load_elf(img, argv[i + 1], &entry, &err);
		if (rc < 0) {
			fprintf(stderr, "%s: %s\n", argv[i + 1], err.msg);
			return 1;
		}
		for (size_t s = 0; s < sizeof specs / sizeof *specs; s++)
			one(argv[i], img, specs[s]);
		citcat_image_free(img);
	}
	CHECK_DONE();
}
