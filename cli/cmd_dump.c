/* citcat dump: every record of a file, one per line, as text, CSV or JSON
 * Lines.  The library recognises the file and hands out its records
 * (citcat_dump_open, citcat_dump_run: <citcat/convert.h>); this file only
 * prints them.  Columns: formats/DUMP.md. */
#include "cli.h"
#include <citcat/convert.h>
#include <citcat/symbols.h>

#include <string.h>

static const char dump_help[] =
	"usage: citcat dump [--csv|--json] [--from N] [--count K] [--elf FW.elf]\n"
	"                   [--itrace RUN.itrace] [--image RUN.ims|FW.elf] FILE\n\n"
	"Prints the records of a CAT, itrace, AES, IMS, din/xdin, PDATS, PDATS II, LVT,\n"
	"DAF or SDC-LSP file (recognised by its contents), one per line, with its record\n"
	"number and the fields that apply to it: a CAT event with its bus position and\n"
	"timestamp (when recorded), an itrace, LVT or DAF record with its instruction\n"
	"index, an AES record with its instruction boundary (branch count, PC), an\n"
	"SDC-LSP stream with the index of its first instruction.  Columns: formats/DUMP.md.\n"
	"  --csv       comma-separated values, with a header line naming the columns\n"
	"  --json      one JSON object per line (JSON Lines)\n"
	"  --from N    start at record N (numbered from 0)\n"
	"  --count K   print at most K records\n"
	"  --elf FW    name each record's pc: two more columns, func (function+0xOFF)\n"
	"              and src (file:line), empty where the ELF does not know the pc\n"
	"  --itrace T  LVT, DAF: the program flow, an itrace of the same run (capture\n"
	"              --oracle, or what replay regenerated); their records decode\n"
	"              only against the instructions executed\n"
	"  --image I   SDC-LSP: the program image (the run's IMS or the firmware ELF)\n"
	"The file is read as a stream: memory stays bounded whatever its length.\n";

enum style { TEXT, CSV, JSON };

struct printer {
	enum style style;
	const struct citcat_dump_schema *sc;
	struct cli_progress pr;
	struct citcat_symbols *syms; /* --elf, or NULL */
};

/* With --elf: the record's pc (its "pc" column) as FUNC ("name+0xOFF") and
 * SRC ("file:line"), both empty when unknown or when it has no pc. */
static void where(const struct printer *p, const struct citcat_dump_rec *r, char *func, size_t fn, char *src,
		  size_t sn)
{
	func[0] = src[0] = 0;
	for (size_t i = 0; i < r->n; i++) {
		if (strcmp(p->sc->cols[r->f[i].col], "pc") != 0)
			continue;
		struct citcat_symloc loc;
		if (citcat_symbols_lookup(p->syms, r->f[i].u, &loc) != 1)
			return;
		if (loc.func)
			snprintf(func, fn, "%s+0x%llx", loc.func, (unsigned long long)loc.offset);
		if (loc.file && loc.line > 0) {
			const char *b = strrchr(loc.file, '/');
			snprintf(src, sn, "%s:%d", b ? b + 1 : loc.file, loc.line);
		}
		return;
	}
}

/* A string made from a file's contents (a symbol name, a source path):
 * escaped for the style (common/escape.h), so that no name can forge a
 * JSON record, shift a CSV column, start a spreadsheet formula or move the
 * terminal's cursor. */
static void put_str(enum style style, const char *s)
{
	if (style == JSON)
		cli_put_json(stdout, s);
	else if (style == CSV)
		cli_put_csv(stdout, s);
	else {
		char esc[1024];
		fputs(cli_escape_text(s, esc, sizeof esc), stdout);
	}
}

static void put_field(const struct citcat_dump_field *f, int quote, enum style style)
{
	const char *q = quote ? "\"" : "";
	switch (f->type) {
	case CITCAT_DUMP_UINT:
		printf("%llu", (unsigned long long)f->u);
		break;
	case CITCAT_DUMP_HEX:
		printf("%s0x%0*llx%s", q, f->width, (unsigned long long)f->u, q);
		break;
	case CITCAT_DUMP_STR:
		fputs(q, stdout);
		put_str(style, f->s);
		fputs(q, stdout);
		break;
	default:
		fputs(q, stdout);
		for (size_t i = 0; i < f->len; i++)
			printf("%02x", f->data[i]);
		fputs(q, stdout);
		break;
	}
}

static int p_begin(void *ctx, const struct citcat_dump_schema *sc)
{
	struct printer *p = ctx;
	p->sc = sc;
	if (p->style == CSV)
		for (size_t i = 0; i < sc->ncols; i++)
			printf("%s%s", sc->cols[i], i + 1 < sc->ncols ? "," : p->syms ? ",func,src\n" : "\n");
	return 0;
}

static int p_record(void *ctx, const struct citcat_dump_rec *r)
{
	struct printer *p = ctx;
	char func[160], src[160];
	if (p->syms)
		where(p, r, func, sizeof func, src, sizeof src);
	switch (p->style) {
	case TEXT:
		printf("%llu %s", (unsigned long long)r->rec, r->kind);
		for (size_t i = 0; i < r->n; i++) {
			printf(" %s=", p->sc->cols[r->f[i].col]);
			put_field(&r->f[i], 0, p->style);
		}
		if (p->syms && func[0]) {
			fputs(" func=", stdout);
			put_str(TEXT, func);
		}
		if (p->syms && src[0]) {
			fputs(" src=", stdout);
			put_str(TEXT, src);
		}
		break;
	case CSV: {
		printf("%llu,%s", (unsigned long long)r->rec, r->kind);
		size_t k = 0;
		for (size_t c = 2; c < p->sc->ncols; c++) {
			putchar(',');
			if (k < r->n && r->f[k].col == c)
				put_field(&r->f[k++], 0, p->style);
		}
		if (p->syms) {
			putchar(',');
			put_str(CSV, func);
			putchar(',');
			put_str(CSV, src);
		}
		break;
	}
	case JSON:
		printf("{\"rec\": %llu, \"kind\": \"%s\"", (unsigned long long)r->rec, r->kind);
		for (size_t i = 0; i < r->n; i++) {
			printf(", \"%s\": ", p->sc->cols[r->f[i].col]);
			put_field(&r->f[i], r->f[i].type != CITCAT_DUMP_UINT, p->style);
		}
		if (p->syms && func[0]) {
			fputs(", \"func\": \"", stdout);
			put_str(JSON, func);
			putchar('"');
		}
		if (p->syms && src[0]) {
			fputs(", \"src\": \"", stdout);
			put_str(JSON, src);
			putchar('"');
		}
		putchar('}');
		break;
	}
	putchar('\n');
	return ferror(stdout) ? CITCAT_ERR_IO : 0;
}

static int p_progress(void *ctx, uint64_t n)
{
	struct printer *p = ctx;
	cli_progress_update(&p->pr, n, 0, "rec");
	if (ferror(stdout))
		return CITCAT_ERR_IO;
	return cli_interrupted() ? CITCAT_ERR_INTERRUPTED : 0;
}

int cmd_dump(int argc, char **argv)
{
	enum style style = TEXT;
	const char *path = NULL, *elf = NULL;
	struct citcat_dump_config o = {.size = sizeof o};
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (cli_is_help(a)) {
			fputs(dump_help, stdout);
			return EXIT_OK;
		} else if (strcmp(a, "--elf") == 0) {
			if (i + 1 >= argc)
				return cli_usage_error("dump", "--elf needs a file");
			elf = argv[++i];
		} else if (strcmp(a, "--itrace") == 0 || strcmp(a, "--image") == 0) {
			if (i + 1 >= argc)
				return cli_usage_error("dump", "%s needs a file", a);
			*(a[3] == 't' ? &o.itrace : &o.image) = argv[++i];
		} else if (strcmp(a, "--csv") == 0 || strcmp(a, "--json") == 0) {
			enum style s = a[2] == 'c' ? CSV : JSON;
			if (style != TEXT && style != s)
				return cli_usage_error("dump", "--csv and --json exclude each other");
			style = s;
		} else if (strcmp(a, "--from") == 0 || strcmp(a, "--count") == 0) {
			if (i + 1 >= argc)
				return cli_usage_error("dump", "%s needs a number", a);
			uint64_t v;
			if (cli_parse_u64(argv[++i], &v))
				return cli_usage_error("dump", "%s: '%s' is not a number", a, argv[i]);
			*(a[2] == 'f' ? &o.from : &o.count) = v;
			o.has_count |= a[2] == 'c';
		} else if (a[0] == '-' && a[1]) {
			return cli_usage_error("dump", "unknown option '%s'", a);
		} else if (!path) {
			path = a;
		} else {
			return cli_usage_error("dump", "one file at a time");
		}
	}
	if (!path)
		return cli_usage_error("dump", "no file given");
	/* the format registry picks the dumper (<citcat/convert.h>) */
	struct citcat_dump *d;
	struct citcat_convert_result res = {.size = sizeof res};
	struct citcat_errinfo err = {0};
	if (citcat_dump_open(&d, path, &o, &res, &err))
		return res.what == CITCAT_CONVERT_REQUEST ? cli_usage_error("dump", "%s", res.msg)
		       : res.what == CITCAT_CONVERT_FILE  ? cli_errinfo(res.file, &err)
							  : cli_fail("%s", res.msg);
	struct printer p = {.style = style};
	if (elf && cli_open_symbols(elf, &p.syms)) {
		citcat_dump_close(d);
		return EXIT_USAGE;
	}
	if (!elf && strcmp(citcat_dump_format(d), "cat") == 0) /* the firmware the CAT records, build id checked */
		cli_symbols_from_cat(path, &p.syms, NULL, 0);
	cli_progress_init(&p.pr, "dumping");
	struct citcat_dump_sink sink = {p_begin, p_record, p_progress, &p};
	int rc = citcat_dump_run(d, &sink, &err);
	cli_progress_done(&p.pr);
	citcat_symbols_close(p.syms);
	citcat_dump_close(d);
	if (rc == CITCAT_ERR_INTERRUPTED)
		return cli_fail("dump: interrupted");
	if (rc == CITCAT_ERR_IO && !err.code)
		return EXIT_USAGE; /* standard output failed: cli_close_stdout says why */
	if (rc < 0) {
		if (!err.code)
			citcat_errinfo_set(&err, rc, UINT64_MAX, "%s", citcat_errstr(rc));
		return cli_errinfo(path, &err);
	}
	return EXIT_OK;
}
