/* The tool's format table: see formats_cli.h. */
#include "formats_cli.h"
#include <citcat/io.h>

#include <string.h>

/* The describers take (path, json); addr_info also takes the format name. */
static int info_cat(const char *p, const struct citcat_format *f, int json) { return cat_info(p, json); }
static int info_itrace(const char *p, const struct citcat_format *f, int json) { return itrace_info(p, json); }
static int info_ims(const char *p, const struct citcat_format *f, int json) { return ims_info(p, json); }
static int info_aes(const char *p, const struct citcat_format *f, int json) { return aes_info(p, json); }
static int info_lvt(const char *p, const struct citcat_format *f, int json) { return lvt_info(p, json); }
static int info_sdclsp(const char *p, const struct citcat_format *f, int json) { return sdclsp_info(p, json); }
static int info_addr(const char *p, const struct citcat_format *f, int json) { return addr_info(p, f->name, json); }
static const struct cli_format table[CITCAT_FMT_COUNT] = {
	[CITCAT_FMT_CAT] = {.info = info_cat},
	[CITCAT_FMT_ITRACE] = {.info = info_itrace},
	[CITCAT_FMT_IMS] = {.info = info_ims},
	[CITCAT_FMT_AES] = {.info = info_aes},
	[CITCAT_FMT_LVT] = {.info = info_lvt},
	[CITCAT_FMT_DIN] = {.info = info_addr},
	[CITCAT_FMT_XDIN] = {.info = info_addr},
	[CITCAT_FMT_PDATS] = {.info = info_addr},
	[CITCAT_FMT_PDATS2] = {.info = info_addr},
	[CITCAT_FMT_SDCLSP] = {.info = info_sdclsp},
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
	struct citcat_input *in = NULL;
	uint8_t *head = NULL;
	int rc;
	if (strcmp(path, "-") == 0) {
		head = malloc(STDIN_HEAD);
		long n = head ? cli_read_head(path, head, STDIN_HEAD) : -1;
		rc = n < 0 ? -1 : citcat_input_open_mem(&in, head, (size_t)n, NULL);
	} else {
		rc = citcat_input_open(&in, path, 0, NULL);
	}
	const uint8_t *p;
	int v = -1;
	if (rc == 0 && citcat_input_peek(in, &p, at + width) == (long)(at + width))
		v = width == 2 ? p[at] | p[at + 1] << 8 : p[at];
	citcat_input_close(in);
	free(head);
	return v;
}
