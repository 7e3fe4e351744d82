/* citcat convert: parses the options, calls citcat_convert
 * (<citcat/convert.h>: the format registry picks the converter) and prints
 * its errors and warnings. */
#include "cli.h"
#include <citcat/convert.h>
#include <citcat/escape.h>
#include <citcat/io.h>

#include <string.h>

static const char convert_help[] =
	"usage: citcat convert IN -o OUT [--from FMT] [--to FMT] [--image FILE] [--lz4|--zstd|--tvp] [--uncached]\n"
	"                      [--daf RUN.daf]\n"
	"       citcat convert RUN.itrace -o OUT.txt [--elf FW.elf] [--from-insn N] [--count K]\n"
	"                      [--function NAME] [--pc LO:HI]\n\n"
	"Converts a trace between formats.  FMT is inferred from IN's contents and\n"
	"OUT's suffix when not given.  IN may be wrapped in LZ4, zstd, xz or TVP; an OUT\n"
	"name ending in .lz4, .zst or .tvp (RUN.pdats2.tvp) is written in that wrapper.\n"
	"  itrace   native full instruction trace (.itrace)\n"
	"  din      Dinero traditional text, 'label address' (.din)\n"
	"  xdin     Dinero IV extended text, 'r|w|i|m|c|v address size' (.xdin)\n"
	"  pdats    PDATS packed differential address trace (.pdats)\n"
	"  pdats2   PDATS II (.pdats2)\n"
	"  sdclsp[:b|e|r][:SETSxWAYS,NP]  SDC/LSP program-flow stream (.sdc)\n"
	"  text     readable listing with disassembly, from an itrace only (.txt)\n"
	"  champsim ChampSim input_instr records, from an itrace only (.champsim, .champsim.xz)\n"
	"Options:\n"
	"  -o OUT        output file ('-' for standard output)\n"
	"  --image FILE  program image (IMS or firmware ELF) to decode an SDC/LSP stream\n"
	"  --lz4         wrap the output in an LZ4 frame (also: a .lz4 suffix)\n"
	"  --zstd        wrap the output in a zstd frame (also: a .zst suffix)\n"
	"  --tvp         write a TVP container (also: a .tvp suffix): din, xdin, PDATS and PDATS II\n"
	"                as a value-prediction model (formats/TVP_MODEL.md), denser than xz -9;\n"
	"                any other format's bytes LZMA2-packed (common/TVP.md)\n"
	"  --uncached    itrace (or FLOW --daf) -> din/xdin/pdats/pdats2/champsim: keep the uncached\n"
	"                device accesses, which no cache sees and which are left out by default\n"
	"  --daf FILE    rebuild the data accesses from a DAF trace (formats/DAF.md) over the\n"
	"                program flow IN: an itrace (checked against its accesses) or an\n"
	"                SDC-LSP stream with --image; OUT is din, xdin, pdats or pdats2\n"
	"Text listings (--to text):\n"
	"  --elf FILE       the firmware ELF: a '; function+0xOFF (file:line)' line where\n"
	"                   the function or source line changes\n"
	"  --from-insn N    start at instruction N (counted from 0; numbers stay the trace's)\n"
	"  --count K        list at most K instructions\n"
	"  --function NAME  only instructions inside function NAME (needs --elf)\n"
	"  --pc LO:HI       only instructions at LO <= pc < HI (interrupt entries: by return address)\n";

static void on_progress(void *ctx, const char *what, uint64_t done, const char *unit)
{
	struct cli_progress *p = ctx;
	p->what = what;
	cli_progress_update(p, done, 0, unit);
}

static void on_warn(void *ctx, const char *file, const char *msg)
{
	char p[1024];
	fprintf(stderr, "citcat: warning: %s: %s\n", cli_escape_text(file, p, sizeof p), msg);
}

/* citcat_convert with O, its errors printed; WARN: the DMA warning (not for
 * another command's scratch file).  An exit status. */
static int run_convert(const char *in, const char *from, const char *out, const char *to, const struct convert_opts *o)
{
	struct citcat_convert_config c;
	citcat_convert_config_default(&c);
	struct cli_progress pr;
	c.from = from;
	c.to = to;
	c.wrap = o->lz4;
	c.uncached = o->uncached;
	c.image = o->image;
	c.daf = o->daf;
	c.elf = o->elf;
	c.function = o->function;
	c.from_insn = o->from_insn;
	c.count = o->count;
	c.pc_range = o->pc_range;
	c.pc_lo = o->pc_lo;
	c.pc_hi = o->pc_hi;
	c.progress = on_progress;
	c.warn = on_warn;
	c.ctx = &pr;
	struct citcat_convert_result res = {.size = sizeof res};
	struct citcat_errinfo err;
	cli_progress_init(&pr, "convert");
	int rc = citcat_convert(in, out, &c, &res, &err);
	cli_progress_done(&pr);
	if (rc < 0) {
		switch (res.what) {
		case CITCAT_CONVERT_FILE:
			return cli_errinfo(res.file, &err);
		case CITCAT_CONVERT_REQUEST:
			return cli_usage_error("convert", "%s", res.msg);
		case CITCAT_CONVERT_CHECK:
			fprintf(stderr, "citcat: %s\n", res.msg);
			return EXIT_CHECK;
		default:
			return cli_fail("%s", res.msg[0] ? res.msg : citcat_errstr(rc));
		}
	}
	if (res.dma_dropped && !o->scratch) /* a cache simulator fed this misses what the DMA engine did to the caches */
		fprintf(stderr,
			"citcat convert: warning: %s leaves out the %llu DMA transfers (%llu bytes) of %s: %s cannot "
			"say that a DMA engine wrote memory, so a cache simulator fed it (Dinero IV) keeps lines the "
			"transfers invalidated and counts other fills than the CAT; xdin carries them (-o RUN.xdin, "
			"formats/DIN.md)\n",
			out, (unsigned long long)res.dma_dropped, (unsigned long long)res.dma_dropped_bytes, in, res.to);
	return EXIT_OK;
}

int addr_convert(const char *in, const char *from, const char *out, const char *to, const struct convert_opts *o)
{
	struct convert_opts none = {.lz4 = -1};
	return run_convert(in, from, out, to, o ? o : &none);
}

int sdclsp_convert(const char *in, const char *from, const char *out, const char *to, const struct convert_opts *o)
{
	return run_convert(in, from, out, to, o);
}

int cmd_convert(int argc, char **argv)
{
	const char *in = NULL, *out = NULL, *from = NULL, *to = NULL;
	struct convert_opts o = {.image = NULL, .lz4 = -1};
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (cli_is_help(a)) {
			fputs(convert_help, stdout);
			return EXIT_OK;
		} else if (strcmp(a, "-o") == 0 && i + 1 < argc) {
			out = argv[++i];
		} else if (strcmp(a, "--from") == 0 && i + 1 < argc) {
			from = argv[++i];
		} else if (strcmp(a, "--to") == 0 && i + 1 < argc) {
			to = argv[++i];
		} else if (strcmp(a, "--image") == 0 && i + 1 < argc) {
			o.image = argv[++i];
		} else if (strcmp(a, "--daf") == 0 && i + 1 < argc) {
			o.daf = argv[++i];
		} else if (strcmp(a, "--elf") == 0 && i + 1 < argc) {
			o.elf = argv[++i];
		} else if (strcmp(a, "--function") == 0 && i + 1 < argc) {
			o.function = argv[++i];
		} else if (strcmp(a, "--from-insn") == 0 && i + 1 < argc) {
			if (cli_parse_u64(argv[++i], &o.from_insn))
				return cli_usage_error("convert", "bad instruction number '%s'", argv[i]);
		} else if (strcmp(a, "--count") == 0 && i + 1 < argc) {
			if (cli_parse_u64(argv[++i], &o.count) || !o.count)
				return cli_usage_error("convert", "bad instruction count '%s'", argv[i]);
		} else if (strcmp(a, "--pc") == 0 && i + 1 < argc) {
			char buf[64], *colon;
			snprintf(buf, sizeof buf, "%s", argv[++i]);
			if (!(colon = strchr(buf, ':')) || (*colon = 0, cli_parse_u64(buf, &o.pc_lo)) ||
			    cli_parse_u64(colon + 1, &o.pc_hi) || o.pc_lo >= o.pc_hi)
				return cli_usage_error("convert", "bad address range '%s' (LO:HI, LO < HI)", argv[i]);
			o.pc_range = 1;
		} else if (strcmp(a, "--lz4") == 0) {
			o.lz4 = 1;
		} else if (strcmp(a, "--zstd") == 0) {
			o.lz4 = 2;
		} else if (strcmp(a, "--tvp") == 0) {
			o.lz4 = 4; /* CC_OUT_TVP */
		} else if (strcmp(a, "--uncached") == 0) {
			o.uncached = 1;
		} else if (a[0] == '-' && a[1]) {
			return cli_usage_error("convert", "unknown or incomplete option '%s'", a);
		} else if (!in) {
			in = a;
		} else {
			return cli_usage_error("convert", "unexpected argument '%s'", a);
		}
	}
	if (!in || !out)
		return cli_usage_error("convert", "need an input file and -o OUT");
	const char *ins[] = {in, o.image, o.elf};
	if (cli_check_distinct(ins, 3, &out, 1))
		return EXIT_USAGE;
	return run_convert(in, from, out, to, &o);
}
