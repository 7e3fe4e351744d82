/* citcat replay: regenerate the instruction trace from IMS + AES and check it. */
#include "cli.h"
#include <citcat/disasm.h>
#include <citcat/ims.h>
#include <citcat/replay.h>
#include <citcat/symbols.h>

#include <stdlib.h>
#include <string.h>

static const char replay_help[] =
	"usage: citcat replay RUN.ims RUN.aes [-o OUT.itrace] [--verify RUN.cat] [--oracle RUN.itrace]\n"
	"       citcat replay RUN.ims RUN.aes --jobs N [-o OUT.itrace] [--verify RUN.cat] [--oracle RUN.itrace]\n"
	"       citcat replay RUN.ims RUN.aes --segment K [-o SEG.itrace] [--verify RUN.cat]\n"
	"       citcat replay RUN.cat --jobs N [-o OUT.itrace] [--verify RUN.cat] [--engine E]\n"
	"       citcat replay --lvt RUN.lvt --image FIRMWARE.elf [-o OUT.itrace] [--oracle RUN.itrace]\n\n"
	"Runs the traced interval again on a Unicorn ARM core initialised from the IMS,\n"
	"with interrupts, DMA and device values from the AES only, and writes the\n"
	"complete instruction trace.\n"
	"  -o FILE          the regenerated instruction trace (itrace; '-' for standard output)\n"
	"  --verify CAT     re-simulate the caches and compare the regenerated bus trace\n"
	"                   with the recorded CAT, event for event (timestamps aside)\n"
	"  --oracle ITRACE  compare the instruction trace with the ground truth\n"
	"  --jobs N         IMS and AES holding several segments (ims/aes of a CAT captured\n"
	"                   with --checkpoint-every): replay them on N threads, one itrace\n"
	"                   (without --jobs: one after the other); or RUN.cat: extract and\n"
	"                   replay its segments.  Each segment is checked against its\n"
	"                   slice with --verify; the itrace is identical to the serial\n"
	"                   replay's (replay/SEGMENTS.md)\n"
	"  --segment K      replay segment K of the IMS and AES (through their index), or\n"
	"                   files that are segment K (citcat ims/aes --segment K): --verify compares with the\n"
	"                   CAT's slice of that segment (replay/SEGMENTS.md)\n"
	"  --max-insns N    stop after N instructions if the traced interval is longer\n"
	"  --engine E       auto (default: block when it takes the run, else insn),\n"
	"                   insn (a code hook on every instruction) or block (a block\n"
	"                   hook, per instruction only where needed; refuses a run it\n"
	"                   does not take, saying why); the output is the same\n"
	"                   (replay/REPLAY.md); with --jobs, every segment (block: one\n"
	"                   refused segment fails all)\n"
	"  --model          drive the cache and bus model even without --verify (its\n"
	"                   events then go nowhere; for tests and timing; serial only):\n"
	"                   without --verify it is skipped, the output is the same\n"
	"                   (replay/REPLAY.md, \"When the memory-system model runs\")\n"
	"  --elf FW.elf     name functions and source lines (function+0xOFF (file:line))\n"
	"                   in a divergence report\n"
	"                   (exit 2, no output left: the trace would be incomplete)\n"
	"On a terminal the progress line shows the length the IMS claims and an ETA.\n"
	"  --lvt LVT        decode a first-access load-value trace instead (formats/LVT.md):\n"
	"                   the firmware's code from --image, every load value from the LVT\n"
	"                   or the decoder's own D-cache with first-access flags\n"
	"Exit status: 0 when the replay completed and every requested check held;\n"
	"1 on a divergence (reported with the instruction index, branch count, PC, the\n"
	"last instructions, expected versus found, the register file, the last interrupt\n"
	"entry, and for a bus event with different data a hex diff of it); 2 on a usage or input error,\n"
	"an interruption (Ctrl-C, SIGTERM, SIGHUP) or the --max-insns limit.\n";

/* Prints "  #index  pc: word  mnemonic operands" with the shared decoder
 * (NULL: none could be set up), decoding SIZE bytes in Thumb state when
 * THUMB (SIZE 0: an A32 word), and "  <function+0xOFF (file:line)>" when
 * SYMS knows the pc. */
static void print_insn(struct citcat_disasm *dec, struct citcat_symbols *syms, uint64_t index, uint32_t pc, uint32_t word,
		       unsigned size, int thumb, const char *mark)
{
	if (size != 2)
		size = 4;
	char mnem[64], ops[192];
	int in = citcat_disasm_insn(dec, pc, word, size, thumb, mnem, sizeof mnem, ops, sizeof ops) == 0;
	char where[200] = "";
	if (syms && citcat_symbols_describe(syms, pc, where + 3, sizeof where - 4) > 0) {
		memcpy(where, "  <", 3);
		strcat(where, ">");
	}
	fprintf(stderr, "  %s #%-10llu 0x%08x: %0*x%s  %s %s%s\n", mark, (unsigned long long)index, pc, size == 2 ? 4 : 8,
		word, size == 2 ? "    " : "",
		in ? mnem : "(undecodable)", in ? ops : "", where);
}

/* The extras of issue 12: register file, last interrupt entry, and the
 * bytes of a bus event whose data differ, 16 a row, differences marked. */
static void print_divergence_state(const struct citcat_divergence *d, struct citcat_symbols *syms)
{
	char buf[256];
	if (d->have_regs) {
		static const char *const names[16] = {"r0", "r1", "r2",  "r3",  "r4",  "r5", "r6", "r7",
						      "r8", "r9", "r10", "r11", "r12", "sp", "lr", "pc"};
		fprintf(stderr, "  registers there:\n");
		for (int i = 0; i < 16; i++)
			fprintf(stderr, "%s%3s 0x%08x%s", i % 4 ? "  " : "    ", names[i], d->regs[i], i % 4 == 3 ? "\n" : "");
		if (d->m_profile) /* xPSR: the exception number in IPSR, T in bit 24 */
			if (d->cpsr & 0x1ff)
				fprintf(stderr, "    xpsr 0x%08x (handler mode, exception %u%s)\n", d->cpsr, d->cpsr & 0x1ff,
					d->cpsr & 0x01000000 ? ", Thumb" : ", T clear");
			else
				fprintf(stderr, "    xpsr 0x%08x (thread mode%s)\n", d->cpsr, d->cpsr & 0x01000000 ? ", Thumb" : ", T clear");
		else
			fprintf(stderr, "    cpsr 0x%08x (mode 0x%02x%s%s)\n", d->cpsr, d->cpsr & 0x1f, d->cpsr & 0x80 ? ", IRQ masked" : "",
				d->cpsr & 0x20 ? ", Thumb" : "");
		if (syms && citcat_symbols_describe(syms, d->regs[14], buf, sizeof buf) > 0)
			fprintf(stderr, "    lr is in %s\n", buf);
	}
	if (d->have_irq)
		fprintf(stderr, "  last interrupt entry: line %u after instruction #%llu, return address %s\n", d->irq_line,
			(unsigned long long)d->irq_index, cli_describe_pc(syms, d->irq_epc, buf, sizeof buf));
	else
		fprintf(stderr, "  last interrupt entry: none before it\n");
	if (d->have_data) {
		fprintf(stderr, "  data: first difference at byte %u of the %u bytes at 0x%08x (0x%08x)\n", d->data_off,
			d->data_len, d->data_addr, d->data_addr + d->data_off);
		for (uint32_t row = 0; row < d->data_n; row += 16) {
			uint32_t k, end = row + 16 < d->data_n ? row + 16 : d->data_n;
			fprintf(stderr, "    +0x%03x expected", d->data_win + row);
			for (k = row; k < end; k++)
				fprintf(stderr, " %02x", d->data_expected[k]);
			fprintf(stderr, "\n           found   ");
			for (k = row; k < end; k++)
				fprintf(stderr, " %02x", d->data_found[k]);
			fprintf(stderr, "\n                   ");
			for (k = row; k < end; k++)
				fputs(d->data_expected[k] != d->data_found[k] ? " ^^" : "   ", stderr);
			fputc('\n', stderr);
		}
	}
}

static int progress_cb(void *ctx, uint64_t insns, uint64_t total)
{
	cli_progress_update(ctx, insns, total, "insn");
	return cli_interrupted();
}

/* CITCAT_MODEL_THREAD=0 in the environment keeps the memory-system model
 * on the replay's thread, =1 puts it on its own whenever it can (for tests
 * and timing; REPLAY.md "session 12: the model thread"). */
unsigned cli_model_thread(void)
{
	const char *e = getenv("CITCAT_MODEL_THREAD");
	if (e && strcmp(e, "0") == 0)
		return CITCAT_REPLAY_MODEL_INLINE;
	return e && strcmp(e, "1") == 0 ? CITCAT_REPLAY_MODEL_THREAD : CITCAT_REPLAY_MODEL_AUTO;
}

int cmd_replay(int argc, char **argv)
{
	struct citcat_replay_config c;
	citcat_replay_config_default(&c);
	c.model_thread = cli_model_thread();
	const char *pos[2] = {NULL, NULL};
	int npos = 0, quiet = 0;
	uint64_t jobs = 0;
	const char *elf = NULL;
	struct citcat_lvt_replay_config lc;
	citcat_lvt_replay_config_default(&lc);
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (cli_is_help(a)) {
			fputs(replay_help, stdout);
			return EXIT_OK;
		} else if (strcmp(a, "-o") == 0 && i + 1 < argc) {
			c.out_path = argv[++i];
		} else if (strcmp(a, "--verify") == 0 && i + 1 < argc) {
			c.verify_cat = argv[++i];
		} else if (strcmp(a, "--oracle") == 0 && i + 1 < argc) {
			c.oracle = argv[++i];
		} else if (strcmp(a, "--jobs") == 0 && i + 1 < argc) {
			if (cli_parse_u64(argv[++i], &jobs) || jobs == 0 || jobs > 256)
				return cli_usage_error("replay", "bad job count '%s' (1 to 256)", argv[i]);
		} else if (strcmp(a, "--segment") == 0 && i + 1 < argc) {
			if (cli_parse_u64(argv[++i], &c.verify_segment) || c.verify_segment >= UINT32_MAX)
				return cli_usage_error("replay", "bad segment number '%s'", argv[i]);
			c.verify_segment++;
		} else if (strcmp(a, "--engine") == 0 && i + 1 < argc) {
			const char *e = argv[++i];
			if (strcmp(e, "insn") == 0)
				c.engine = CITCAT_REPLAY_ENGINE_INSN;
			else if (strcmp(e, "block") == 0)
				c.engine = CITCAT_REPLAY_ENGINE_BLOCK;
			else if (strcmp(e, "auto") == 0)
				c.engine = CITCAT_REPLAY_ENGINE_AUTO;
			else
				return cli_usage_error("replay", "bad engine '%s' (insn, block or auto)", e);
		} else if (strcmp(a, "--max-insns") == 0 && i + 1 < argc) {
			if (cli_parse_count(argv[++i], &c.max_insns) || c.max_insns == 0)
				return cli_usage_error("replay", "bad instruction count '%s'", argv[i]);
		} else if (strcmp(a, "--lvt") == 0 && i + 1 < argc) {
			lc.lvt_path = argv[++i];
		} else if (strcmp(a, "--elf") == 0 && i + 1 < argc) {
			elf = argv[++i];
		} else if (strcmp(a, "--image") == 0 && i + 1 < argc) {
			lc.image_path = argv[++i];
		} else if (strcmp(a, "--model") == 0) {
			c.always_model = 1;
		} else if (strcmp(a, "-q") == 0 || strcmp(a, "--quiet") == 0) {
			quiet = 1;
		} else if (a[0] == '-' && a[1]) {
			return cli_usage_error("replay", "unknown or incomplete option '%s'", a);
		} else if (npos < 2) {
			pos[npos++] = a;
		} else {
			return cli_usage_error("replay", "unexpected argument '%s'", a);
		}
	}
	if (npos == 2 && !lc.lvt_path) { /* IMS and AES segment bundles (common/SEGIDX.md) */
		uint64_t nseg = 1;
		struct citcat_errinfo e = {0};
		if (strcmp(pos[0], "-") != 0 && citcat_ims_segments(pos[0], &nseg, &e))
			return cli_errinfo(pos[0], &e);
		if (jobs && c.verify_segment)
			return cli_usage_error("replay", "--jobs replays every segment; --segment K replays one");
		if (nseg > 1 && c.verify_segment) {
			c.segment = c.verify_segment; /* segment K of the bundles, verified against its slice */
		} else if (nseg > 1 || jobs) {
			if (c.max_insns || elf || c.always_model)
				return cli_usage_error("replay", "--max-insns, --elf and --model take one segment (--segment K)");
			const char *ins[] = {pos[0], pos[1], c.verify_cat, c.oracle};
			if (cli_check_distinct(ins, 4, &c.out_path, 1))
				return EXIT_USAGE;
			return replay_jobs_files(NULL, pos[0], pos[1], jobs ? (unsigned)jobs : 1, c.out_path, c.verify_cat,
						 c.oracle, c.engine, quiet);
		}
	}
	if (jobs) { /* segment-parallel replay of a checkpointed CAT (replay/SEGMENTS.md) */
		if (npos != 1 || lc.lvt_path || c.oracle || c.max_insns || c.verify_segment || elf || c.always_model)
			return cli_usage_error("replay", "--jobs takes RUN.cat, -o, --verify and --engine only");
		const char *ins[] = {pos[0], c.verify_cat};
		if (cli_check_distinct(ins, 2, &c.out_path, 1))
			return EXIT_USAGE;
		return replay_jobs(pos[0], (unsigned)jobs, c.out_path, c.verify_cat, c.engine, quiet);
	}
	if (lc.lvt_path && (npos || !lc.image_path || c.verify_cat))
		return cli_usage_error("replay", "--lvt takes --image FIRMWARE.elf, and no IMS, AES or --verify");
	if (!lc.lvt_path && npos != 2)
		return cli_usage_error("replay", "need RUN.ims and RUN.aes");
	c.ims_path = pos[0];
	c.aes_path = pos[1];
	const char *ins[] = {c.ims_path, c.aes_path, c.verify_cat, c.oracle, lc.lvt_path, lc.image_path, elf};
	if (cli_check_distinct(ins, 7, &c.out_path, 1))
		return EXIT_USAGE;
	struct citcat_symbols *syms = NULL;
	if (elf && cli_open_symbols(elf, &syms))
		return EXIT_USAGE;
	struct cli_progress pr;
	cli_progress_init(&pr, "replay");
	c.progress = progress_cb;
	c.progress_ctx = &pr;
	struct citcat_replay_result res;
	struct citcat_errinfo err;
	int rc;
	if (lc.lvt_path) {
		lc.out_path = c.out_path;
		lc.oracle = c.oracle;
		lc.progress = progress_cb;
		lc.progress_ctx = &pr;
		rc = citcat_lvt_replay_run(&lc, &res, &err);
	} else {
		rc = citcat_replay_run(&c, &res, &err);
	}
	cli_progress_done(&pr);
	if (rc != CITCAT_ERR_DIVERGED) {
		citcat_symbols_close(syms);
		syms = NULL;
	}
	if (rc == CITCAT_ERR_DIVERGED) {
		const struct citcat_divergence *d = &res.div;
		char where[256];
		fprintf(stderr, "citcat replay: DIVERGED: %s check failed at instruction #%llu (branch count %llu, pc %s)\n",
			d->check, (unsigned long long)d->insn_index, (unsigned long long)d->bcount,
			cli_describe_pc(syms, d->pc, where, sizeof where));
		fprintf(stderr, "  expected: %s\n  found:    %s\n", d->expected, d->found);
		struct citcat_disasm *dec = NULL;
		citcat_disasm_open(&dec); /* NULL when it cannot: "(undecodable)" */
		if (d->nhist) {
			fprintf(stderr, "  last instructions before it (> marks the one where it was found):\n");
			for (unsigned i = 0; i < d->nhist; i++)
				print_insn(dec, syms, d->hist_index[i], d->hist_pc[i], d->hist_word[i],
					   d->hist_size[i], d->hist_thumb[i], d->hist_index[i] == d->insn_index ? ">" : " ");
		}
		citcat_disasm_close(dec);
		print_divergence_state(d, syms);
		citcat_symbols_close(syms);
		return EXIT_CHECK;
	}
	if (rc) {
		if (!err.msg[0])
			snprintf(err.msg, sizeof err.msg, "%s", citcat_errstr(rc));
		return cli_errinfo(res.err_path ? res.err_path : "replay", &err);
	}
	if (!quiet) {
		fprintf(stderr, "citcat replay: %llu instructions, %llu interrupts, %llu DMA transfers in %.2f s (%.1f Minsn/s)",
			(unsigned long long)res.insns, (unsigned long long)res.irqs, (unsigned long long)res.dma, res.seconds,
			res.seconds > 0 ? (double)res.insns / res.seconds / 1e6 : 0.0);
		if (c.verify_cat)
			fprintf(stderr, "; bus trace verified (%llu events)", (unsigned long long)res.bus_events);
		if (c.oracle)
			fprintf(stderr, "; instruction trace equals the oracle (%llu records)", (unsigned long long)res.oracle_records);
		fputc('\n', stderr);
		if (res.blk_blocks || res.blk_hooks || res.blk_flushes)
			fprintf(stderr,
				"  block engine: %llu blocks without the code hook, %llu interrupts entered at or inside blocks, "
				"%llu DMA transfers inside blocks, %llu blocks run per instruction, %llu engine switches, %llu new engines\n",
				(unsigned long long)res.blk_blocks, (unsigned long long)res.blk_irq_stops,
				(unsigned long long)res.blk_dma_inline, (unsigned long long)res.blk_hooks,
				(unsigned long long)res.blk_flushes, (unsigned long long)res.blk_renewals);
	}
	return EXIT_OK;
}
