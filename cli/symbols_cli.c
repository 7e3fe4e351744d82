/* Symbols for the places a person reads an address (issue 12): one helper
 * to open a firmware ELF's symbolizer with a diagnostic, and one to write
 * a PC as "0xPC func+0xOFF (file:line)". */
#include "cli.h"
#include <citcat/cat.h>
#include <citcat/symbols.h>
#include <citcat/io.h>
#include <citcat/symbols.h>

#include <string.h>

#include <stdio.h>

int cli_open_symbols(const char *path, struct citcat_symbols **s)
{
	struct citcat_errinfo err;
	if (citcat_symbols_open(s, path, &err))
		return cli_errinfo(path, &err);
	const char *w = citcat_symbols_warning(*s);
	if (w) {
		char p[1024];
		fprintf(stderr, "citcat: warning: %s: %s\n", cli_escape_text(path, p, sizeof p), w);
	}
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

const char *cli_describe_fault(struct citcat_symbols *syms, unsigned kind, uint32_t pc, uint32_t addr,
			       const struct citcat_m7_fault *m7, char *buf, size_t n)
{
	char where[256], status[200];
	cli_describe_pc(syms, pc, where, sizeof where);
	if (kind == CITCAT_FAULT_EXCEPTION && m7) {
		citcat_m7_fault_describe(m7, status, sizeof status);
		snprintf(buf, n, "%s at %s: %s", citcat_fault_kind_name(kind), where, status);
	} else if (kind == CITCAT_FAULT_EXCEPTION) { /* a CAT before version 7: the exception alone */
		if (addr >= 16)
			snprintf(buf, n, "%s at %s: IRQ %u (exception %u)", citcat_fault_kind_name(kind), where, addr - 16, addr);
		else
			snprintf(buf, n, "%s at %s: %s (exception %u)", citcat_fault_kind_name(kind), where,
				 citcat_m7_exception_name(addr), addr);
	} else {
		snprintf(buf, n, "%s at %s, address 0x%08x", citcat_fault_kind_name(kind), where, addr);
	}
	return buf;
}

/* S as the body of a JSON string */
static void json_body(const char *s)
{
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			printf("\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			printf("\\u%04x", (unsigned char)*s);
		else
			putchar(*s);
	}
}

void cli_json_fault(struct citcat_symbols *syms, uint32_t pc, const struct citcat_m7_fault *m7, int lead)
{
	const char *pre = lead ? ", " : "", *post = lead ? "" : ", ";
	struct citcat_symloc loc;
	if (syms && citcat_symbols_lookup(syms, pc, &loc) == 1) {
		if (loc.func) {
			printf("%s\"fault_function\": \"", pre);
			json_body(loc.func);
			printf("+0x%llx\"%s", (unsigned long long)loc.offset, post);
		}
		if (loc.file) {
			const char *b = strrchr(loc.file, '/');
			printf("%s\"fault_source\": \"", pre);
			json_body(b ? b + 1 : loc.file);
			printf(":%d\"%s", loc.line, post);
		}
	}
	if (!m7)
		return;
	char text[200];
	citcat_m7_fault_describe(m7, text, sizeof text);
	printf("%s\"m7_fault\": {\"exception\": %u, \"cfsr\": %u, \"hfsr\": %u, ", pre, m7->exc, m7->cfsr, m7->hfsr);
	if (m7->cfsr & CITCAT_M7_CFSR_MMARVALID)
		printf("\"mmfar\": %u, ", m7->mmfar);
	else
		fputs("\"mmfar\": null, ", stdout);
	if (m7->cfsr & CITCAT_M7_CFSR_BFARVALID)
		printf("\"bfar\": %u, ", m7->bfar);
	else
		fputs("\"bfar\": null, ", stdout);
	printf("\"text\": \"%s\"}%s", text, post);
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
	if (!json) { /* the path comes from the file: escaped (common/escape.h) */
		char p[4 * sizeof e->path + 1];
		printf("  firmware   %s (build id %s)\n", cli_escape_text(e->path, p, sizeof p), e->build_id_len ? id : "none");
		return;
	}
	fputs("\"elf\": {\"path\": \"", stdout);
	cli_put_json(stdout, e->path); /* valid UTF-8 whatever the bytes */
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
	char ep[4 * sizeof e->path + 1], cp[1024]; /* both escaped for the terminal */
	if (e && e->path[0]) {
		cli_escape_text(e->path, ep, sizeof ep);
		cli_escape_text(cat_path, cp, sizeof cp);
		hex(e->build_id, e->build_id_len, want);
		/* a path from the file: opened only when it names a regular file */
		int rc = citcat_elf_build_id_flags(e->path, CITCAT_IN_RECORDED, id, sizeof id, &len, &err);
		hex(id, len, got);
		if (!e->build_id_len)
			fprintf(stderr, "citcat: warning: %s records the firmware %s without a build id, so it cannot be "
					"checked: no symbols (give --elf)\n",
				cp, ep);
		else if (rc < 0)
			fprintf(stderr, "citcat: warning: %s: the firmware %s: %s: no symbols\n", cp, ep,
				err.msg[0] ? err.msg : citcat_errstr(rc));
		else if (len != e->build_id_len || memcmp(id, e->build_id, len) != 0)
			fprintf(stderr, "citcat: warning: %s: build id %s, but %s was captured from build id %s: "
					"rebuilt since? no symbols (give --elf)\n",
				ep, len ? got : "none", cp, want);
		else if (citcat_symbols_open_flags(s, e->path, CITCAT_IN_RECORDED, &err))
			fprintf(stderr, "citcat: warning: %s: %s: no symbols\n", ep,
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
