/* citcat convert: picks the source and target formats and hands the work to
 * the module that owns them. */
#include "cli.h"

#include <string.h>

static const char convert_help[] =
	"usage: citcat convert IN -o OUT [--from FMT] [--to FMT] [--image FILE] [--lz4] [--daf RUN.daf]\n"
	"       citcat convert RUN.itrace -o OUT.txt [--elf FW.elf] [--from-insn N] [--count K]\n"
	"                      [--function NAME] [--pc LO:HI]\n\n"
	"Converts a trace between formats.  FMT is inferred from IN's contents and\n"
	"OUT's suffix when not given.\n"
	"  itrace   native full instruction trace (.itrace)\n"
	"  din      Dinero traditional text, 'label address' (.din)\n"
	"  xdin     Dinero IV extended text, 'r|w|i|m|c|v address size' (.xdin)\n"
	"  pdats    PDATS packed differential address trace (.pdats)\n"
	"  pdats2   PDATS II (.pdats2)\n"
	"  sdclsp[:b|e|r][:SETSxWAYS,NP]  SDC/LSP program-flow stream (.sdc)\n"
	"  text     readable listing with disassembly, from an itrace only (.txt)\n"
	"Options:\n"
	"  -o OUT        output file ('-' for standard output)\n"
	"  --image FILE  program image (IMS or firmware ELF) to decode an SDC/LSP stream\n"
	"  --lz4         wrap PDATS/PDATS II output in an LZ4 frame (also: a .lz4 suffix)\n"
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

static const char *by_suffix(const char *path)
{
	const char *p = path;
	static const struct { const char *suf, *fmt; } t[] = {
		{".itrace", "itrace"}, {".din", "din"}, {".xdin", "xdin"}, {".pdats", "pdats"},
		{".pdats2", "pdats2"}, {".pdats.lz4", "pdats"}, {".pdats2.lz4", "pdats2"},
		{".sdc", "sdclsp"}, {".sdc.lz4", "sdclsp"}, {".txt", "text"},
	};
	for (size_t i = 0; i < sizeof t / sizeof *t; i++)
		if (cli_has_suffix(p, t[i].suf))
			return t[i].fmt;
	return NULL;
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
	if (!from) {
		uint8_t head[64];
		long n = cli_read_head(in, head, sizeof head);
		if (n < 0)
			return cli_fail("%s: cannot open", in);
		if (n >= 8 && memcmp(head, "CITR\r\n\x1a\n", 8) == 0)
			from = "itrace";
		else if (!(from = sdclsp_detect(in, head, (size_t)n)))
			from = addr_detect(in, head, (size_t)n);
		if (!from && !(from = by_suffix(in)))
			return cli_usage_error("convert", "cannot tell the format of %s; use --from", in);
	}
	if (!to && !(to = by_suffix(out)))
		return cli_usage_error("convert", "cannot tell the output format from '%s'; use --to", out);
	if (o.daf)
		return daf_convert(in, from, out, to, &o);
	if (strcmp(to, "text") == 0)
		return text_convert(in, from, out, &o);
	if (o.elf || o.function || o.from_insn || o.count || o.pc_range)
		return cli_usage_error("convert", "--elf, --function, --from-insn, --count and --pc are for --to text");
	if (strncmp(from, "sdclsp", 6) == 0 || strncmp(to, "sdclsp", 6) == 0)
		return sdclsp_convert(in, from, out, to, &o);
	return addr_convert(in, from, out, to, &o);
}
