/* <citcat/bench.h> from a program built on the public headers only: the
 * figures that are properties of the run, not of the clock, agree with
 * each other and with what the run must give.
 *  - prepare: the capture traced, the IMS and AES files exist, the
 *    extraction's COUNTER records are the AES's;
 *  - the timed replay writes the itrace and replays every traced
 *    instruction; the bare baseline and its hooked variants execute the
 *    same count on the recorded path (path_ok), and report the replay's
 *    interrupts and DMA;
 *  - the driver's instructions up to DUMP_DONE are a non-zero part of it;
 *  - extract: ims_raw = 4 x 39 register slots + memory bytes, file sizes
 *    non-zero, the same traced count; port sizes: the CAT's raw records
 *    outweigh its LZ4 file; DAF: the DAF's count of instructions is the
 *    replay's and DAFDiff is never more bits than DAF;
 *  - a result struct whose size is too small is CITCAT_ERR_INVAL, and so
 *    is an unknown baseline kind.
 * Usage: test_bench_api FIRMWARE.elf WORKDIR */
#include <citcat/citcat.h>

#include "check.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void discard(void *ctx, uint8_t b) {}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: test_bench_api FIRMWARE.elf WORKDIR\n");
		return 2;
	}
	const char *elf = argv[1], *dir = argv[2];
	mkdir(dir, 0777);
	char ver[32];
	CHECK_EQ(citcat_bench_unicorn_version(ver, sizeof ver), 0);
	CHECK(ver[0] >= '1' && ver[0] <= '9');

	struct citcat_capture_config cfg;
	citcat_capture_config_default(&cfg);
	cfg.target.seed = 1;
	cfg.uart_tx = discard;
	static struct citcat_bench_prep p;
	p.size = sizeof p;
	struct citcat_errinfo err;
	CHECK_EQ(citcat_bench_prepare(&cfg, elf, dir, &p, &err), 0);
	CHECK(p.cap.res.traced);
	CHECK(p.cap.res.traced_insns > 0 && p.cap.res.traced_insns <= p.cap.res.insns);
	CHECK(p.cap.run_s > 0 && p.cap.run_s <= p.cap.res.seconds);

	struct citcat_replay_config rc;
	citcat_replay_config_default(&rc);
	rc.ims_path = p.ims;
	rc.aes_path = p.aes;
	rc.out_path = p.itr;
	struct citcat_bench_replay r = {.size = sizeof r};
	CHECK_EQ(citcat_bench_replay(&rc, CITCAT_BENCH_INLINE_WRITES, &r, &err), 0);
	CHECK_EQ(r.res.insns, p.cap.res.traced_insns);
	CHECK(r.run_s > 0 && r.setup_s >= 0);

	for (unsigned k = CITCAT_BENCH_BARE; k <= CITCAT_BENCH_BARE_FLOOR_MEM; k++) {
		struct citcat_bench_bare b = {.size = sizeof b};
		CHECK_EQ(citcat_bench_bare_run(k, p.ims, p.aes, p.itr, &b, &err), 0);
		CHECK_EQ(b.insns, r.res.insns);
		CHECK(b.path_ok);
		CHECK_EQ(b.irqs, r.res.irqs);
		CHECK_EQ(b.dma, r.res.dma);
		CHECK_EQ(b.dev_reads, b.dev_reads_recorded);
	}
	struct citcat_bench_bare small = {.size = sizeof small - 8};
	CHECK_EQ(citcat_bench_bare_run(CITCAT_BENCH_BARE, p.ims, p.aes, p.itr, &small, &err), CITCAT_ERR_INVAL);
	small.size = sizeof small;
	CHECK_EQ(citcat_bench_bare_run(9, p.ims, p.aes, p.itr, &small, &err), CITCAT_ERR_INVAL);

	uint64_t drv = citcat_bench_driver_insns(p.itr, p.dev_base);
	CHECK(drv > 0 && drv < r.res.insns);

	char daf[700], addr[700], ims2[700], aes2[700];
	snprintf(daf, sizeof daf, "%s/run.daf", dir);
	snprintf(addr, sizeof addr, "%s/run.addr", dir);
	snprintf(ims2, sizeof ims2, "%s/two.ims", dir);
	snprintf(aes2, sizeof aes2, "%s/two.aes", dir);
	struct citcat_bench_daf d = {.size = sizeof d};
	CHECK_EQ(citcat_bench_daf(p.itr, daf, addr, CITCAT_BENCH_DAF_SDCLSP, &d, &err), 0);
	CHECK_EQ(d.insns, r.res.insns);
	CHECK(d.mem_insns > 0 && d.raw_bits == 32 * d.mem_insns);
	CHECK(d.diff.bits <= d.raw.bits && d.sdc_bits > 0);
	struct stat st;
	CHECK(stat(addr, &st) == 0 && (uint64_t)st.st_size == 4 * d.mem_insns);
	remove(addr);
	remove(daf);

	struct citcat_bench_port ps = {.size = sizeof ps};
	CHECK_EQ(citcat_bench_port_sizes(p.cat, p.itr, ims2, aes2, &ps, &err), 0);
	CHECK(ps.cat_raw > ps.cat_file && ps.cat_file > 0 && ps.itrace_file > 0);
	CHECK(ps.ims_file > 0 && ps.aes_file > 0);
	remove(ims2);
	remove(aes2);
	citcat_bench_prep_remove(&p);
	CHECK(stat(p.cat, &st) != 0 && stat(p.ims, &st) != 0);

	struct citcat_bench_extract x = {.size = sizeof x};
	CHECK_EQ(citcat_bench_extract(&cfg, elf, p.cat, p.ims, p.aes, &x, &err), 0);
	CHECK_EQ(x.insns, r.res.insns);
	CHECK_EQ(x.ims_raw, 4u * 39 + x.ims_mem);
	CHECK(x.cat_bytes > 0 && x.ims_file > 0);
	citcat_bench_prep_remove(&p);
	rmdir(dir);
	CHECK_DONE();
}
