/* The frame the WET measurement tools share (wet_share.c,
 * wet_tier1_acc.c; WET.md, "Measured: ..."): "TOOL RUN.wet [SEG_INSNS]",
 * open the WET, walk it forwards once and close each segment at the end.
 * Each tool keeps its own per-instruction callback and segment flush. */
#ifndef CITCAT_TESTS_WET_TOOL_H
#define CITCAT_TESTS_WET_TOOL_H

#include <citcat/wet.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* Reads TOOL RUN.wet [SEG_INSNS] (SEG_INSNS into *SEG_INSNS, 65536 when
 * absent or 0, the builder's default) and opens RUN.wet; NULL, with the
 * usage or the error printed, when that fails. */
static struct citcat_wet *wet_tool_open(int argc, char **argv, const char *tool, uint64_t *seg_insns)
{
	if (argc < 2) {
		fprintf(stderr, "usage: %s RUN.wet [SEG_INSNS]\n", tool);
		return NULL;
	}
	*seg_insns = argc > 2 ? strtoull(argv[2], NULL, 0) : 65536;
	if (!*seg_insns)
		*seg_insns = 65536;
	struct citcat_wet *w = NULL;
	if (citcat_wet_open(&w, argv[1])) {
		fprintf(stderr, "%s: %s\n", argv[1], w ? citcat_wet_error(w)->msg : "cannot open");
		citcat_wet_close(w);
		return NULL;
	}
	return w;
}

/* Walks W (the file PATH) forwards through CB with the parts WHAT, then
 * calls FINISH (the last segment's flush) when the walk succeeded.  0, or 2
 * with the error (or "out of memory" when *OOM is set) printed and W
 * closed. */
static int wet_tool_walk(struct citcat_wet *w, const char *path, int what,
			 int (*cb)(void *ctx, const struct citcat_wet_insn *in), void (*finish)(void), const int *oom)
{
	struct citcat_wet_walk wk = {.backward = 0, .by_index = 0, .what = what, .from = 0, .to = UINT64_MAX,
				     .cb = cb, .ctx = NULL, .progress = NULL, .progress_ctx = NULL};
	int rc = citcat_wet_walk(w, &wk);
	if (!rc)
		finish();
	if (rc || *oom) {
		fprintf(stderr, "%s: %s\n", path, *oom ? "out of memory" : citcat_wet_error(w)->msg);
		citcat_wet_close(w);
		return 2;
	}
	return 0;
}

#endif
