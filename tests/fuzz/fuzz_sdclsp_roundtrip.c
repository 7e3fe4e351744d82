/* Round-trip fuzz target: the input drives a walk through the synthetic
 * program (branch outcomes, jump-table targets, interrupts) and picks the
 * configuration; decode(encode(walk)) must give back exactly the walk's
 * instruction addresses, or the target aborts. */
#include "sdclsp.h"
#include "../sdclsp_synth.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../membuf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const configs[] = {
	"sdclsp:b:16x4,64", "sdclsp:e:16x4,64", "sdclsp:r:32x4,128", "sdclsp:r:2x1,2:hist=2",
	"sdclsp:e:8x8,32:repl=lru:maxsl=7", "sdclsp:b:64x1,4:repl=fifo:maxsl=1", "sdclsp:e:32x4,128:sa=always",
	"sdclsp:r:256x4,1024:u=29:shift=0", "sdclsp:e:4x2,8:u=1", "sdclsp:b:8x4,32:maxsl=300",
};


int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct citcat_image *img;
	static uint8_t code[SYNTH_WORDS * 4];
	if (!img) {
		synth_bytes(code);
		if (citcat_image_alloc(&img) < 0 || citcat_image_add(img, SYNTH_BASE, code, sizeof code) < 0)
			abort();
	}
	if (size < 2)
		return 0;
	struct sdclsp_config c;
	if (sdclsp_config_parse(&c, configs[data[0] % (sizeof configs / sizeof *configs)], NULL) < 0)
		abort();
	struct synth_walk w;
	synth_init(&w, 0, data[1] % 16 ? 4u + data[1] % 16 : 0);
	w.bytes = data + 2;
	w.n = size - 2;
	size_t events = 8 * size, n = 0;
	uint32_t *want = malloc(events * sizeof *want);
	struct membuf out = {0};
	struct sdclsp_encoder *e;
	if (!want || sdclsp_encoder_alloc(&e, &c, mem_sink, &out) < 0)
		abort();
	for (size_t i = 0; i < events; i++) {
		uint32_t pc, word;
		int rc;
		if (synth_step(&w, &pc, &word)) {
			rc = sdclsp_encode_irq(e, pc);
		} else {
			rc = sdclsp_encode_insn(e, pc, word);
			want[n++] = pc;
		}
		if (rc < 0)
			abort();
	}
	if (sdclsp_encoder_finish(e) < 0)
		abort();
	sdclsp_encoder_free(e);
	struct sdclsp_decoder *d;
	uint64_t pc;
	size_t k = 0;
	int rc = sdclsp_decoder_open_mem(&d, out.p, out.len, img);
	while (rc >= 0 && (rc = sdclsp_decoder_next(d, &pc)) == 1) {
		if (k >= n || pc != want[k]) {
			fprintf(stderr, "round trip differs at instruction %zu\n", k);
			abort();
		}
		k++;
	}
	if (rc != 0 || k != n) {
		fprintf(stderr, "round trip: %d, %zu of %zu: %s\n", rc, k, n, sdclsp_decoder_error(d)->msg);
		abort();
	}
	sdclsp_decoder_close(d);
	free(want);
	free(out.p);
	return 0;
}
