/* Symbols for the places a person reads an address (issue 12): one helper
 * to open a firmware ELF's symbolizer with a diagnostic, and one to write
 * a PC as "0xPC func+0xOFF (file:line)". */
#include "cli.h"
#include "cat.h"
#include "elfid.h"
#include "symbols.h"

#include <string.h>

#include <stdio.h>

int cli_open_symbols(const char *path, struct citcat_symbols **s)
{
	struct citcat_errinfo err;
	if (citcat_symbols_open(s, path, &err))
		return cli_errinfo(path, &err);
	return 0;
}

const char *cli_describe_pc(struct citcat_symbols *syms, uint64_t pc, char *buf, size_t n)
{
	if (!n)
		return buf;
	int len = snprintf(buf, n, "0x%08llx", (unsigned long long)pc);
	if (syms && len > 0 && (size_t)len + 1 < n) {
		buf[len] = ' ';
		if (citcat_symbols_describe(syms, pc, buf + len + 1, n - (size_t)len - 1) <= 0)
			buf[len] = 0;
	}
	return buf;
}

/* ---- the firmware recorded in a CAT (CAT.md, version 4) ---- */

static void hex(const uint8_t *p, size_t n, char *out)
{
	for (size_t i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", p[i]);
	out[2 * n] = 0;
}

void cli_print_cat_elf(const struct citcat_cat_elf *e, int json)
{
	if (!e || !e->path[0])
		return;
	char id[2 * CITCAT_CAT_BUILD_ID_MAX + 1];
	hex(e->build_id, e->build_id_len, id);
	if (!json) {
		printf("  firmware   %s (build id %s)\n", e->path, e->build_id_len ? id : "none");
		return;
	}
	fputs("\"elf\": {\"path\": \"", stdout);
	for (const char *c = e->path; *c; c++) {
		if (*c == '"' || *c == '\\')
			printf("\\%c", *c);
		else if ((unsigned char)*c < 0x20)
			printf("\\u%04x", (unsigned char)*c);
		else
			putchar(*c);
	}
	if (e->build_id_len)
		printf("\", \"build_id\": \"%s\"}, ", id);
	else
		fputs("\", \"build_id\": null}, ", stdout);
}

int cli_symbols_from_cat(const char *cat_path, struct citcat_symbols **s, char *elf, size_t n)
{
	*s = NULL;
	if (n)
		elf[0] = 0;
	if (strcmp(cat_path, "-") == 0) /* standard input cannot be read twice */
		return 0;
	struct citcat_cat_reader *r;
	if (citcat_cat_reader_open(&r, cat_path)) { /* the command itself reports a bad CAT */
		citcat_cat_reader_close(r);
		return 0;
	}
	const struct citcat_cat_elf *e = citcat_cat_elf(r);
	char want[2 * CITCAT_CAT_BUILD_ID_MAX + 1], got[2 * CITCAT_CAT_BUILD_ID_MAX + 1];
	uint8_t id[CITCAT_CAT_BUILD_ID_MAX];
	size_t len = 0;
	struct citcat_errinfo err = {0};
	if (e && e->path[0]) {
		hex(e->build_id, e->build_id_len, want);
		int rc = citcat_elf_build_id(e->path, id, sizeof id, &len, &err);
		hex(id, len, got);
		if (!e->build_id_len)
			fprintf(stderr, "citcat: warning: %s records the firmware %s without a build id, so it cannot be "
					"checked: no symbols (give --elf)\n",
				cat_path, e->path);
		else if (rc < 0)
			fprintf(stderr, "citcat: warning: %s: the firmware %s: %s: no symbols\n", cat_path, e->path,
				err.msg[0] ? err.msg : citcat_errstr(rc));
		else if (len != e->build_id_len || memcmp(id, e->build_id, len) != 0)
			fprintf(stderr, "citcat: warning: %s: build id %s, but %s was captured from build id %s: "
					"rebuilt since? no symbols (give --elf)\n",
				e->path, len ? got : "none", cat_path, want);
		else if (citcat_symbols_open(s, e->path, &err))
			fprintf(stderr, "citcat: warning: %s: %s: no symbols\n", e->path,
				err.msg[0] ? err.msg : citcat_errstr(err.code));
		else if (n)
			snprintf(elf, n, "%s", e->path);
	}
	citcat_cat_reader_close(r);
	return 0;
}

int cli_recorded_elf(const char *cat_path, char *elf, size_t n)
{
	struct citcat_symbols *s = NULL;
	int rc = cli_symbols_from_cat(cat_path, &s, elf, n);
	citcat_symbols_close(s);
	return rc;
}
