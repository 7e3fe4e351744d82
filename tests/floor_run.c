/* The block engines' floor alone, for a profiler (tests/floor_ratio_cg.sh):
 * runs citcat_bench_bare_run's CITCAT_BENCH_BARE_FLOOR_BLOCK baseline (an
 * empty block hook and memory hook, the floor `citcat bench corpus`
 * prints) on a run's IMS, AES and replayed itrace, and prints the
 * instructions it ran.  Not a test: a benchmark helper.
 *
 *   floor_run RUN.ims RUN.aes RUN.itrace */
#include <citcat/bench.h>

#include <stdio.h>

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: floor_run RUN.ims RUN.aes RUN.itrace\n");
		return 2;
	}
	struct citcat_bench_bare b = {.size = sizeof b};
	struct citcat_errinfo err;
	if (citcat_bench_bare_run(CITCAT_BENCH_BARE_FLOOR_BLOCK, argv[1], argv[2], argv[3], &b, &err)) {
		fprintf(stderr, "floor_run: %s\n", err.msg);
		return 1;
	}
	printf("floor_run: %llu instructions, %llu segments, path %s\n", (unsigned long long)b.insns,
	       (unsigned long long)b.segments, b.path_ok ? "ok" : "LEFT");
	return b.path_ok ? 0 : 1;
}
