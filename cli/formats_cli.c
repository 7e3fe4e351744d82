/* The tool's format table: see formats_cli.h. */
#include "formats_cli.h"
#include "input.h"
#include "outfile.h"

#include <string.h>

/* The describers take (path, json); addr_info also takes the format name. */
static int info_cat(const char *p, const struct citcat_format *f, int json) { return cat_info(p, json); }
static int info_itrace(const char *p, const struct citcat_format *f, int json) { return itrace_info(p, json); }
static int info_ims(const char *p, const struct citcat_format *f, int json) { return ims_info(p, json); }
static int info_aes(const char *p, const struct citcat_format *f, int json) { return aes_info(p, json); }
static int info_lvt(const char *p, const struct citcat_format *f, int json) { return lvt_info(p, json); }
static int info_sdclsp(const char *p, const struct citcat_format *f, int json) { return sdclsp_info(p, json); }
static int info_addr(const char *p, const struct citcat_format *f, int json) { return addr_info(p, f->name, json); }
static int convert_text(const char *in, const char *from, const char *out, const char *to,
			const struct convert_opts *o)
{
	return text_convert(in, from, out, o);
}

static int convert_champsim(const char *in, const char *from, const char *out, const char *to,
			    const struct convert_opts *o)
{
	return champsim_convert(in, from, out, o);
}

static const struct cli_format table[CITCAT_FMT_COUNT] = {
	[CITCAT_FMT_CAT] = {.dump = citcat_dump_cat, .info = info_cat},
	[CITCAT_FMT_ITRACE] = {.dump = citcat_dump_itrace, .info = info_itrace, .convert = addr_convert},
	[CITCAT_FMT_IMS] = {.dump = citcat_dump_ims, .info = info_ims},
	[CITCAT_FMT_AES] = {.dump = citcat_dump_aes, .info = info_aes},
	[CITCAT_FMT_LVT] = {.dump = citcat_dump_lvt, .info = info_lvt},
	[CITCAT_FMT_DAF] = {.dump = citcat_dump_daf},
	[CITCAT_FMT_DIN] = {.dump = citcat_dump_addr, .info = info_addr, .convert = addr_convert},
	[CITCAT_FMT_XDIN] = {.dump = citcat_dump_addr, .info = info_addr, .convert = addr_convert},
	[CITCAT_FMT_PDATS] = {.dump = citcat_dump_addr, .info = info_addr, .convert = addr_convert},
	[CITCAT_FMT_PDATS2] = {.dump = citcat_dump_addr, .info = info_addr, .convert = addr_convert},
	[CITCAT_FMT_SDCLSP] = {.dump = citcat_dump_sdclsp, .info = info_sdclsp, .convert = sdclsp_convert},
	[CITCAT_FMT_TEXT] = {.convert = convert_text},
	[CITCAT_FMT_CHAMPSIM] = {.convert = convert_champsim},
};

const struct cli_format *cli_format(const struct citcat_format *f)
{
	static const struct cli_format none;
	return f && f->id > 0 && f->id < CITCAT_FMT_COUNT ? &table[f->id] : &none;
}

/* Standard input is read once: its head is peeked (and put back for the
 * reader that follows) and recognised in memory.  Enough for any wrapper
 * whose first block decodes within that much. */
#define STDIN_HEAD (256u << 10)

int cli_detect(const char *path, const struct citcat_format **f)
{
	struct citcat_errinfo err = {0};
	int rc;
	*f = NULL;
	if (strcmp(path, "-") == 0) {
		uint8_t *head = malloc(STDIN_HEAD);
		long n = head ? cli_read_head(path, head, STDIN_HEAD) : -1;
		rc = n < 0 ? citcat_errinfo_set(&err, cli_interrupted() ? CITCAT_ERR_INTERRUPTED : CITCAT_ERR_IO, UINT64_MAX,
						"%s", cli_interrupted() ? "interrupted" : "cannot read standard input")
			   : citcat_format_detect_mem(head, (size_t)n, f, NULL, &err);
		free(head);
	} else {
		rc = citcat_format_detect(path, f, NULL, &err);
	}
	if (rc)
		return cli_errinfo(path, &err);
	if (!*f) {
		const struct citcat_format *s = citcat_format_by_suffix(path, NULL);
		if (s && (s->flags & CITCAT_FMT_F_SUFFIX_NAMES))
			*f = s;
	}
	return 0;
}

int cli_file_version(const char *path, const struct citcat_format *f)
{
	size_t at, width;
	switch (f ? f->id : CITCAT_FMT_NONE) {
	case CITCAT_FMT_CAT: case CITCAT_FMT_ITRACE: case CITCAT_FMT_IMS: case CITCAT_FMT_AES: case CITCAT_FMT_LVT:
	case CITCAT_FMT_DAF: case CITCAT_FMT_WET: case CITCAT_FMT_SDCLSP:
		at = 8, width = 2; /* after the 8-byte magic, little-endian */
		break;
	case CITCAT_FMT_PDATS: case CITCAT_FMT_PDATS2:
		at = 4, width = 1;
		break;
	default:
		return -1;
	}
	struct cc_input *in = NULL;
	uint8_t *head = NULL;
	int rc;
	if (strcmp(path, "-") == 0) {
		head = malloc(STDIN_HEAD);
		long n = head ? cli_read_head(path, head, STDIN_HEAD) : -1;
		rc = n < 0 ? -1 : cc_input_open_mem(&in, head, (size_t)n, NULL);
	} else {
		rc = cc_input_open(&in, path, NULL);
	}
	const uint8_t *p;
	int v = -1;
	if (rc == 0 && cc_input_peek(in, &p, at + width) == (long)(at + width))
		v = width == 2 ? p[at] | p[at + 1] << 8 : p[at];
	cc_input_close(in);
	free(head);
	return v;
}

int cli_out_wrap(const char *out, int opt)
{
	if (opt > 0)
		return opt;
	int w = cc_wrap_by_suffix(out, NULL);
	return w == CC_WRAP_LZ4 ? CC_OUT_LZ4 : w == CC_WRAP_ZSTD ? CC_OUT_ZSTD : w == CC_WRAP_TVP ? CC_OUT_TVP : CC_OUT_PLAIN;
}
