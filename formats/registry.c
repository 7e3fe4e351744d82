/* The format registry: see registry.h. */
#include "registry.h"
#include "addr.h"
#include "input.h"

#include <string.h>

/* The container formats (common/CONTAINER.md): a 4-byte tag and \r\n\x1a\n. */
static int container(const uint8_t *h, size_t n, const char tag[4])
{
	return n >= 8 && memcmp(h, tag, 4) == 0 && memcmp(h + 4, "\r\n\x1a\n", 4) == 0;
}
static int sniff_cat(const uint8_t *h, size_t n) { return container(h, n, "CCAT"); }
static int sniff_itrace(const uint8_t *h, size_t n) { return container(h, n, "CITR"); }
static int sniff_ims(const uint8_t *h, size_t n) { return container(h, n, "CIMS"); }
static int sniff_aes(const uint8_t *h, size_t n) { return container(h, n, "CAES"); }
static int sniff_lvt(const uint8_t *h, size_t n) { return container(h, n, "CLVT"); }
static int sniff_daf(const uint8_t *h, size_t n) { return container(h, n, "CDAF"); }
static int sniff_sdclsp(const uint8_t *h, size_t n) { return container(h, n, "CSDC"); }
static int sniff_wet(const uint8_t *h, size_t n) { return n >= 8 && memcmp(h, "CITCWET\0", 8) == 0; }
static int sniff_din(const uint8_t *h, size_t n) { return citcat_addr_sniff(h, n) == CITCAT_ADDR_DIN; }
static int sniff_xdin(const uint8_t *h, size_t n) { return citcat_addr_sniff(h, n) == CITCAT_ADDR_XDIN; }
static int sniff_pdats(const uint8_t *h, size_t n) { return citcat_addr_sniff(h, n) == CITCAT_ADDR_PDATS; }
static int sniff_pdats2(const uint8_t *h, size_t n) { return citcat_addr_sniff(h, n) == CITCAT_ADDR_PDATS2; }

/* Indexed by id.  Sniffing tries the entries in this order. */
static const struct citcat_format formats[CITCAT_FMT_COUNT] = {
	[CITCAT_FMT_CAT] = {CITCAT_FMT_CAT, "cat", "cache-filtered address trace (CAT)", {".cat"}, sniff_cat, 0, 0},
	[CITCAT_FMT_ITRACE] = {CITCAT_FMT_ITRACE, "itrace", "native instruction trace", {".itrace"}, sniff_itrace, 0, 0},
	[CITCAT_FMT_IMS] = {CITCAT_FMT_IMS, "ims", "initial machine state (IMS)", {".ims"}, sniff_ims, 0, 0},
	[CITCAT_FMT_AES] = {CITCAT_FMT_AES, "aes", "asynchronous event schedule (AES)", {".aes"}, sniff_aes, 0, 0},
	[CITCAT_FMT_LVT] = {CITCAT_FMT_LVT, "lvt", "first-access load-value trace (LVT)", {".lvt"}, sniff_lvt, 0, 0},
	[CITCAT_FMT_DAF] = {CITCAT_FMT_DAF, "daf", "data-address filtering trace (DAF)", {".daf"}, sniff_daf, 0, 0},
	[CITCAT_FMT_WET] = {CITCAT_FMT_WET, "wet", "whole execution trace (WET)", {".wet"}, sniff_wet, 0, 0},
	[CITCAT_FMT_DIN] = {CITCAT_FMT_DIN, "din", "Dinero traditional text", {".din"}, sniff_din, CITCAT_ADDR_DIN,
			    CITCAT_FMT_F_SUFFIX_NAMES},
	[CITCAT_FMT_XDIN] = {CITCAT_FMT_XDIN, "xdin", "Dinero IV extended text", {".xdin"}, sniff_xdin, CITCAT_ADDR_XDIN,
			     CITCAT_FMT_F_SUFFIX_NAMES},
	[CITCAT_FMT_PDATS] = {CITCAT_FMT_PDATS, "pdats", "PDATS address trace", {".pdats"}, sniff_pdats, CITCAT_ADDR_PDATS, 0},
	[CITCAT_FMT_PDATS2] = {CITCAT_FMT_PDATS2, "pdats2", "PDATS II address trace", {".pdats2"}, sniff_pdats2,
			       CITCAT_ADDR_PDATS2, 0},
	[CITCAT_FMT_SDCLSP] = {CITCAT_FMT_SDCLSP, "sdclsp", "SDC-LSP program-flow stream", {".sdc"}, sniff_sdclsp, 0, 0},
	[CITCAT_FMT_TEXT] = {CITCAT_FMT_TEXT, "text", "disassembled listing", {".txt"}, NULL, 0, 0},
	/* written only (formats/CHAMPSIM.md); .champsim.xz is compressed by the writer itself */
	[CITCAT_FMT_CHAMPSIM] = {CITCAT_FMT_CHAMPSIM, "champsim", "ChampSim input_instr trace", {".champsim"}, NULL, 0, 0},
};

const struct citcat_format *citcat_format_get(int id)
{
	return id > CITCAT_FMT_NONE && id < CITCAT_FMT_COUNT ? &formats[id] : NULL;
}

const struct citcat_format *citcat_format_by_name(const char *name)
{
	if (!name)
		return NULL;
	size_t n = strcspn(name, ":");
	for (int id = 1; id < CITCAT_FMT_COUNT; id++)
		if (strlen(formats[id].name) == n && strncmp(name, formats[id].name, n) == 0)
			return &formats[id];
	return NULL;
}

const struct citcat_format *citcat_format_by_suffix(const char *path, int *wrap)
{
	size_t len;
	int w = cc_wrap_by_suffix(path, &len);
	if (wrap)
		*wrap = w;
	for (int id = 1; path && id < CITCAT_FMT_COUNT; id++)
		for (const char *const *s = formats[id].suffixes; *s; s++) {
			size_t k = strlen(*s);
			if (len > k && strncmp(path + len - k, *s, k) == 0)
				return &formats[id];
		}
	return NULL;
}

const struct citcat_format *citcat_format_sniff(const uint8_t *head, size_t n)
{
	if (!head)
		return NULL;
	for (int id = 1; id < CITCAT_FMT_COUNT; id++)
		if (formats[id].sniff && formats[id].sniff(head, n))
			return &formats[id];
	return NULL;
}

static int detect(struct cc_input *in, const struct citcat_format **f, int *wrap, struct citcat_errinfo *err)
{
	const uint8_t *p;
	long n = cc_input_peek(in, &p, CITCAT_FMT_HEAD);
	if (wrap)
		*wrap = cc_input_wrap(in);
	if (n < 0) {
		if (err)
			*err = *cc_input_error(in);
	} else if (n == 0) {
		n = citcat_errinfo_set(err, CITCAT_ERR_EMPTY, 0, cc_input_wrap(in) ? "the %s-compressed file holds nothing"
								       : "file is empty", cc_wrap_name(cc_input_wrap(in)));
	} else {
		*f = citcat_format_sniff(p, (size_t)n);
		n = 0;
	}
	cc_input_close(in);
	return (int)n;
}

int citcat_format_detect(const char *path, const struct citcat_format **f, int *wrap, struct citcat_errinfo *err)
{
	struct cc_input *in;
	if (!path || !f)
		return citcat_errinfo_set(err, CITCAT_ERR_INVAL, UINT64_MAX, "NULL argument");
	*f = NULL;
	int rc = cc_input_open(&in, path, err);
	return rc ? rc : detect(in, f, wrap, err);
}

int citcat_format_detect_mem(const void *buf, size_t n, const struct citcat_format **f, int *wrap,
			     struct citcat_errinfo *err)
{
	struct cc_input *in;
	if (!buf || !f)
		return citcat_errinfo_set(err, CITCAT_ERR_INVAL, UINT64_MAX, "NULL argument");
	*f = NULL;
	int rc = cc_input_open_mem(&in, buf, n, err);
	return rc ? rc : detect(in, f, wrap, err);
}
