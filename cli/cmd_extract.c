/* citcat ims / citcat aes: extraction from a CAT; info for IMS and AES files. */
#include "cli.h"
#include "formats_cli.h"
#include <citcat/aes.h>
#include <citcat/ims.h>

#include <stdlib.h>
#include <string.h>

static int progress_cb(void *ctx, uint64_t done, uint64_t total)
{
	cli_progress_update(ctx, done, total, "B");
	return cli_interrupted();
}

/* --segment K (replay/SEGMENTS.md): *SEG = K + 1, 0 without the option */
static int parse_io(const char *cmd, const char *help, int argc, char **argv, const char **in, const char **out,
		    uint64_t *seg)
{
	*in = *out = NULL;
	*seg = 0;
	for (int i = 1; i < argc; i++) {
		if (cli_is_help(argv[i])) {
			fputs(help, stdout);
			return -1;
		} else if (strcmp(argv[i], "-o") == 0 && i + 1 < argc) {
			*out = argv[++i];
		} else if (strcmp(argv[i], "--segment") == 0 && i + 1 < argc) {
			if (cli_parse_u64(argv[++i], seg) || *seg >= UINT32_MAX)
				return cli_usage_error(cmd, "bad segment number '%s'", argv[i]);
			++*seg;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			return cli_usage_error(cmd, "unknown or incomplete option '%s'", argv[i]);
		} else if (!*in) {
			*in = argv[i];
		} else {
			return cli_usage_error(cmd, "unexpected argument '%s'", argv[i]);
		}
	}
	if (!*in || !*out)
		return cli_usage_error(cmd, "need RUN.cat and -o OUT");
	return cli_check_distinct(in, 1, out, 1);
}

int cmd_ims(int argc, char **argv)
{
	const char *in, *out;
	uint64_t seg;
	int r = parse_io("ims", "usage: citcat ims RUN.cat -o RUN.ims [--segment K]\n\n"
				"Extracts the initial machine state at the trace start point: the registers the\n"
				"CITCAT driver dumped, each memory byte's value from its line's first fill (bytes\n"
				"DMA or write-through stores wrote first are left out: the run never reads their\n"
				"initial value), and the target configuration.  Format: ims/IMS.md.\n"
				"A CAT captured with --checkpoint-every gives one file holding every segment\n"
				"behind an index (IMS version 3, common/SEGIDX.md; replay --segment K / --jobs N).\n"
				"--segment K: segment K alone, as a version-4 IMS (replay/SEGMENTS.md).\n",
			 argc, argv, &in, &out, &seg);
	if (r)
		return r < 0 ? EXIT_OK : r;
	struct citcat_ims ims;
	struct citcat_ims_stats st;
	struct citcat_errinfo err = {0};
	struct cli_progress pr;
	cli_progress_init(&pr, "ims");
	uint64_t nseg = 0;
	int rc = seg ? citcat_ims_extract_segment(in, seg - 1, &ims, &st, progress_cb, &pr, &err)
		     : citcat_ims_extract_all(in, out, &nseg, &st, progress_cb, &pr, &err);
	cli_progress_done(&pr);
	if (rc)
		return cli_errinfo(in, &err);
	if (!seg) { /* every segment, with an index when more than one (common/SEGIDX.md) */
		if (!cli_quiet)
			fprintf(stderr, "citcat ims: %llu segment%s, %llu lines filled\n", (unsigned long long)nseg,
			nseg == 1 ? "" : "s", (unsigned long long)st.lines_filled);
		return EXIT_OK;
	}
	rc = citcat_ims_write(&ims, out, &err);
	uint64_t bytes = citcat_image_bytes(ims.memory);
	citcat_ims_fini(&ims);
	if (rc)
		return cli_errinfo(out, &err);
	if (!cli_quiet)
		fprintf(stderr, "citcat ims: %llu memory bytes in %llu lines, %d registers, start 0x%08x, %llu instructions\n",
		(unsigned long long)bytes, (unsigned long long)st.lines_filled,
		ims.cfg.isa == CITCAT_TARGET_CORTEX_M7 ? CITCAT_IMS_M7_SLOTS : CITCAT_IMS_ARM_SLOTS, ims.id.start_pc,
		(unsigned long long)ims.id.insns);
	return EXIT_OK;
}

int cmd_aes(int argc, char **argv)
{
	const char *in, *out;
	uint64_t seg;
	int r = parse_io("aes", "usage: citcat aes RUN.cat -o RUN.aes [--segment K]\n\n"
				"Extracts the asynchronous event schedule: interrupts and DMA transfers at their\n"
				"instruction boundary (branch count, PC), the device input queue, the device\n"
				"output log and the cycle-counter history.  Format: aes/AES.md.\n"
				"A CAT captured with --checkpoint-every gives one file holding every segment\n"
				"behind an index (AES version 4, common/SEGIDX.md; replay --segment K / --jobs N).\n"
				"--segment K: segment K alone, as a version-3 AES, its counts relative to the\n"
				"segment's start (replay/SEGMENTS.md).\n",
			 argc, argv, &in, &out, &seg);
	if (r)
		return r < 0 ? EXIT_OK : r;
	struct citcat_aes_stats st;
	struct citcat_errinfo err = {0};
	struct cli_progress pr;
	cli_progress_init(&pr, "aes");
	uint64_t nseg = 0;
	int rc = seg ? citcat_aes_extract_segment(in, seg - 1, out, &st, progress_cb, &pr, &err)
		     : citcat_aes_extract_all(in, out, &nseg, &st, progress_cb, &pr, &err);
	cli_progress_done(&pr);
	if (rc)
		return cli_errinfo(in, &err);
	if (nseg > 1)
		if (!cli_quiet)
			fprintf(stderr, "citcat aes: %llu segments\n", (unsigned long long)nseg);
	if (!cli_quiet)
		fprintf(stderr, "citcat aes: %llu interrupts, %llu DMA transfers (%llu bytes), %llu inputs, %llu outputs, %llu counter reads\n",
		(unsigned long long)st.records[CITCAT_AES_IRQ], (unsigned long long)st.records[CITCAT_AES_DMA],
		(unsigned long long)st.dma_bytes, (unsigned long long)st.records[CITCAT_AES_INPUT],
		(unsigned long long)st.records[CITCAT_AES_OUTPUT], (unsigned long long)st.records[CITCAT_AES_COUNTER]);
	return EXIT_OK;
}

static const char *const slot_names[CITCAT_IMS_ARM_SLOTS] = {
	"r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9", "r10", "r11", "r12", "sp", "lr", "pc", "cpsr",
	"sp_usr", "lr_usr", "sp_svc", "lr_svc", "spsr_svc", "sp_irq", "lr_irq", "spsr_irq", "sp_abt", "lr_abt",
	"spsr_abt", "sp_und", "lr_und", "spsr_und", "r8_fiq", "r9_fiq", "r10_fiq", "r11_fiq", "r12_fiq", "sp_fiq",
	"lr_fiq", "spsr_fiq"};
/* the Cortex-M7's 23 (capture/TARGET-M7.md, register dump), and the SCS
 * state of a segment that starts at a checkpoint (slots 23..38) */
static const char *const m7_slot_names[CITCAT_IMS_M7_CKPT_SLOTS] = {
	"r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9", "r10", "r11", "r12", "sp", "lr", "pc", "xpsr",
	"msp", "psp", "primask", "basepri", "faultmask", "control", "vtor", "aircr", "ccr", "shcsr", "shpr1", "shpr2",
	"shpr3", "iabr0", "ipr0", "ipr1", "ipr2", "ipr3", "ipr4", "ipr5", "ipr6", "ipr7"};

static long file_size(const char *path) { return (long)cli_file_bytes(path); }

/* info on an IMS or AES segment bundle (common/SEGIDX.md): each segment's
 * start point, length and trace id, read through the index. */
static int bundle_info(const char *path, int json, int is_ims, uint64_t n, int version)
{
	if (json)
		printf("{\"kind\": \"%s\", \"version\": %d, \"segments\": [", is_ims ? "ims" : "aes", version);
	else
		printf("%s: %s segment bundle (%s v%d), %llu segments\n", path,
		       is_ims ? "initial machine states" : "asynchronous event schedules", is_ims ? "IMS" : "AES", version,
		       (unsigned long long)n);
	uint64_t total = 0;
	for (uint64_t k = 0; k < n; k++) {
		struct citcat_trace_id id;
		struct citcat_errinfo err = {0};
		if (is_ims) {
			struct citcat_ims ims;
			int rc = citcat_ims_read_segment(path, k, &ims, &err);
			id = ims.id;
			citcat_ims_fini(&ims);
			if (rc)
				return cli_errinfo(path, &err);
		} else {
			struct citcat_aes_reader *r;
			if (citcat_aes_reader_open_segment(&r, path, k)) {
				int e = cli_errinfo(path, citcat_aes_reader_error(r));
				citcat_aes_reader_close(r);
				return e;
			}
			id = *citcat_aes_trace_id(r);
			citcat_aes_reader_close(r);
		}
		if (json)
			printf("%s{\"start_pc\": %u, \"first_instruction\": %llu, \"instructions\": %llu, \"trace_id\": \"%016llx\"}",
			       k ? ", " : "", id.start_pc, (unsigned long long)total, (unsigned long long)id.insns,
			       (unsigned long long)id.hash);
		else
			printf("  segment %-6llu start 0x%08x at instruction %llu, %llu instructions, trace id %016llx\n",
			       (unsigned long long)k, id.start_pc, (unsigned long long)total, (unsigned long long)id.insns,
			       (unsigned long long)id.hash);
		total += id.insns;
	}
	if (json)
		printf("], \"instructions\": %llu}\n", (unsigned long long)total);
	else
		printf("  total      %llu instructions\n", (unsigned long long)total);
	return EXIT_OK;
}

int ims_info(const char *path, int json)
{
	int version = cli_file_version(path, citcat_format_get(CITCAT_FMT_IMS)); /* before "-" is read */
	uint64_t nb = 1;
	struct citcat_errinfo berr = {0};
	if (strcmp(path, "-") != 0 && citcat_ims_segments(path, &nb, &berr) == 0 && nb > 1)
		return bundle_info(path, json, 1, nb, version);
	struct citcat_ims ims;
	struct citcat_errinfo err = {0};
	if (citcat_ims_read(path, &ims, &err))
		return cli_errinfo(path, &err);
	uint64_t mem = citcat_image_bytes(ims.memory);
	size_t nseg = citcat_image_segments(ims.memory);
	/* raw: registers 4 bytes each + the memory bytes themselves (no
	 * addresses; the thesis's figure 5 counts 8 bytes per (address, word)
	 * pair instead); compressed: the file itself */
	/* an M7 checkpoint's segment: the SCS state too (CCR is never 0 there) */
	const int m7 = ims.cfg.isa == CITCAT_TARGET_CORTEX_M7;
	const int ns = m7 && ims.regs.slot[CITCAT_IMS_M7_SLOT_SCS + 2] ? CITCAT_IMS_M7_CKPT_SLOTS
	               : m7 ? CITCAT_IMS_M7_SLOTS : CITCAT_IMS_ARM_SLOTS;
	const char *const *names = m7 ? m7_slot_names : slot_names;
	const char *target = cli_target_name(ims.cfg.isa);
	uint64_t raw = 4u * (unsigned)ns + mem;
	long fsize = file_size(path);
	if (json) {
		printf("{\"kind\": \"ims\", \"version\": %d, \"target\": \"%s\", \"start_pc\": %u, \"instructions\": %llu, "
		       "\"replacement_state\": [%u, %u], \"registers\": {",
		       version, cli_target_id(ims.cfg.isa), ims.id.start_pc, (unsigned long long)ims.id.insns, ims.repl_state[0],
		       ims.repl_state[1]);
		for (int k = 0; k < ns; k++)
			printf("%s\"%s\": %u", k ? ", " : "", names[k], ims.regs.slot[k]);
		printf("}, \"register_count\": %d, \"sctlr_te\": %u, \"memory_bytes\": %llu, \"memory_runs\": %zu, "
		       "\"raw_bytes\": %llu, \"file_bytes\": %ld, \"trace_id\": \"%016llx\"}\n",
		       ns, (ims.sctlr >> 30) & 1, (unsigned long long)mem, nseg, (unsigned long long)raw, fsize,
		       (unsigned long long)ims.id.hash);
	} else {
		printf("%s: initial machine state (IMS v%d), trace id %016llx\n", path, version,
		       (unsigned long long)ims.id.hash);
		printf("  target     %s\n", target);
		printf("  start      0x%08x, %llu instructions in the traced interval\n", ims.id.start_pc,
		       (unsigned long long)ims.id.insns);
		if (ims.cfg.icache.repl == CITCAT_REPL_RANDOM || ims.cfg.dcache.repl == CITCAT_REPL_RANDOM)
			printf("  random     replacement state at P: I-cache 0x%08x, D-cache 0x%08x\n", ims.repl_state[0],
			       ims.repl_state[1]);
		if (ims.cfg.isa != CITCAT_TARGET_CORTEX_M7)
			printf("  SCTLR.TE   %u (exceptions entered in %s state)\n", (ims.sctlr >> 30) & 1,
			       ims.sctlr ? "Thumb" : "ARM");
		printf("  registers  %d\n", ns);
		for (int k = 0; k < ns; k++)
			printf("%s%-8s 0x%08x%s", k % 4 == 0 ? "    " : "  ", names[k], ims.regs.slot[k],
			       k % 4 == 3 || k == ns - 1 ? "\n" : "");
		printf("  memory     %llu bytes in %zu runs\n", (unsigned long long)mem, nseg);
		printf("  size       %llu bytes raw, %ld bytes in the file\n", (unsigned long long)raw, fsize);
	}
	citcat_ims_fini(&ims);
	return EXIT_OK;
}

int aes_info(const char *path, int json)
{
	int version = cli_file_version(path, citcat_format_get(CITCAT_FMT_AES)); /* before "-" is read */
	uint64_t nb = 1;
	struct citcat_errinfo berr = {0};
	if (strcmp(path, "-") != 0 && citcat_aes_segments(path, &nb, &berr) == 0 && nb > 1)
		return bundle_info(path, json, 0, nb, version);
	struct citcat_aes_sizes sz;
	struct citcat_errinfo err = {0};
	if (citcat_aes_measure(path, &sz, &err))
		return cli_errinfo(path, &err);
	uint64_t total_raw = 0, total_z = 0;
	for (int k = 0; k < CITCAT_AES_KINDS; k++) {
		total_raw += sz.raw[k];
		total_z += sz.z[k];
	}
	double ipb = sz.file_bytes ? (double)sz.insns / (double)sz.file_bytes : 0;
	if (json) {
		printf("{\"kind\": \"aes\", \"version\": %d, \"target\": \"%s\", \"instructions\": %llu, \"records\": {",
		       version, cli_target_id(sz.isa), (unsigned long long)sz.insns);
		for (int k = 0; k < CITCAT_AES_KINDS - 1; k++)
			printf("%s\"%s\": %llu", k ? ", " : "", citcat_aes_kind_name((unsigned)k), (unsigned long long)sz.count[k]);
		printf("}, \"raw_bytes\": {");
		for (int k = 0; k < CITCAT_AES_KINDS - 1; k++)
			printf("%s\"%s\": %llu", k ? ", " : "", citcat_aes_kind_name((unsigned)k), (unsigned long long)sz.raw[k]);
		printf("}, \"compressed_bytes\": {");
		for (int k = 0; k < CITCAT_AES_KINDS - 1; k++)
			printf("%s\"%s\": %llu", k ? ", " : "", citcat_aes_kind_name((unsigned)k), (unsigned long long)sz.z[k]);
		printf("}, \"dma_bytes\": %llu, \"file_bytes\": %llu, \"instructions_per_byte\": %.2f, \"trace_id\": \"%016llx\"}\n",
		       (unsigned long long)sz.dma_bytes, (unsigned long long)sz.file_bytes, ipb,
		       (unsigned long long)sz.id.hash);
	} else {
		printf("%s: asynchronous event schedule (AES v%d), trace id %016llx\n", path, version,
		       (unsigned long long)sz.id.hash);
		printf("  target     %s\n", cli_target_name(sz.isa));
		printf("  %-10s %10s %12s %12s\n", "record", "count", "raw bytes", "LZ4 bytes");
		for (int k = 0; k < CITCAT_AES_KINDS - 1; k++)
			printf("  %-10s %10llu %12llu %12llu\n", citcat_aes_kind_name((unsigned)k), (unsigned long long)sz.count[k],
			       (unsigned long long)sz.raw[k], (unsigned long long)sz.z[k]);
		printf("  %-10s %10s %12llu %12llu\n", "total", "", (unsigned long long)total_raw, (unsigned long long)total_z);
		printf("  file       %llu bytes for %llu instructions: %.1f instructions per byte\n",
		       (unsigned long long)sz.file_bytes, (unsigned long long)sz.insns, ipb);
	}
	return EXIT_OK;
}
