/* Symbolizer over elfutils' libdwfl.  The module is reported "offline"
 * (an ELF file, not a process), so addresses are the link-time ones the
 * trace carries.  Debug information is taken from the ELF itself only:
 * find_debuginfo declines, so no separate debug file or debuginfod server
 * is ever looked for. */
#include "symbols.h"
#include "input.h"

#include <elfutils/libdwfl.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SYM_SLOTS 4096

struct sym_slot {
	uint64_t addr;
	int valid, found;
	struct citcat_symloc loc;
};

struct citcat_symbols {
	Dwfl *dwfl;
	Dwfl_Module *mod;
	int has_lines;
	char warning[160]; /* "" or why names will be missing */
	struct sym_slot slot[SYM_SLOTS];
};

static int no_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname, Dwarf_Addr base,
			const char *file_name, const char *debuglink_file, GElf_Word debuglink_crc,
			char **debuginfo_file_name)
{
	return -1;
}

static const Dwfl_Callbacks offline_callbacks = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = no_debuginfo,
	.section_address = dwfl_offline_section_address,
};

int citcat_symbols_open(struct citcat_symbols **sp, const char *path, struct citcat_errinfo *err)
{
	return citcat_symbols_open_flags(sp, path, 0, err);
}

int citcat_symbols_open_flags(struct citcat_symbols **sp, const char *path, unsigned flags, struct citcat_errinfo *err)
{
	if (err) {
		memset(err, 0, sizeof *err);
		err->offset = UINT64_MAX;
	}
	if (!sp || !path)
		return citcat_errinfo_set(err, CITCAT_ERR_INVAL, UINT64_MAX, "no symbolizer or path");
	*sp = NULL;
	int fd, orc = cc_input_open_fd(path, flags | CC_IN_FILE, &fd, err); /* the input rules (input.h) */
	if (orc)
		return orc;
	unsigned char magic[4];
	ssize_t got = pread(fd, magic, 4, 0);
	if (got != 4 || memcmp(magic, "\177ELF", 4) != 0) {
		close(fd);
		if (got == 0)
			return citcat_errinfo_set(err, CITCAT_ERR_EMPTY, 0, "empty file, not an ELF file");
		return citcat_errinfo_set(err, CITCAT_ERR_MAGIC, 0, "not an ELF file (no \\177ELF magic)");
	}
	struct citcat_symbols *s = calloc(1, sizeof *s);
	if (!s) {
		close(fd);
		return citcat_errinfo_set(err, CITCAT_ERR_NOMEM, UINT64_MAX, "out of memory");
	}
	s->dwfl = dwfl_begin(&offline_callbacks);
	if (!s->dwfl) {
		close(fd);
		free(s);
		return citcat_errinfo_set(err, CITCAT_ERR_NOMEM, UINT64_MAX, "libdwfl: %s", dwfl_errmsg(-1));
	}
	dwfl_report_begin(s->dwfl);
	/* dwfl owns FD from here, also on failure */
	s->mod = dwfl_report_offline(s->dwfl, "firmware", path, fd);
	if (!s->mod || dwfl_report_end(s->dwfl, NULL, NULL) != 0) {
		int rc = citcat_errinfo_set(err, CITCAT_ERR_CORRUPT, 0, "unreadable ELF file: %s", dwfl_errmsg(-1));
		citcat_symbols_close(s);
		return rc;
	}
	Dwarf_Addr bias;
	s->has_lines = dwfl_module_getdwarf(s->mod, &bias) != NULL;
	/* a symbol table that does not read gives no names: say so once
	 * rather than leave every name out silently (issue 29) */
	int nsym = dwfl_module_getsymtab(s->mod);
	if (nsym < 0)
		snprintf(s->warning, sizeof s->warning, "its symbol table does not read (%s): no function names",
			 dwfl_errmsg(-1));
	else if (nsym == 0)
		snprintf(s->warning, sizeof s->warning, "it has no symbol table (stripped?): no function names");
	*sp = s;
	return 0;
}

const char *citcat_symbols_warning(const struct citcat_symbols *s) { return s && s->warning[0] ? s->warning : NULL; }

void citcat_symbols_close(struct citcat_symbols *s)
{
	if (!s)
		return;
	if (s->dwfl)
		dwfl_end(s->dwfl);
	free(s);
}

int citcat_symbols_has_lines(const struct citcat_symbols *s) { return s ? s->has_lines : 0; }

static int lookup_uncached(struct citcat_symbols *s, uint64_t addr, struct citcat_symloc *loc)
{
	memset(loc, 0, sizeof *loc);
	GElf_Off off = 0;
	GElf_Sym sym;
	const char *name = dwfl_module_addrinfo(s->mod, (GElf_Addr)addr, &off, &sym, NULL, NULL, NULL);
	/* only a sized symbol says that the address lies inside it; an
	 * unsized one (a label, an ARM mapping symbol) is merely the nearest */
	if (name && name[0] && sym.st_size && off < sym.st_size) {
		loc->func = name;
		loc->func_start = addr - off;
		loc->func_size = sym.st_size;
		loc->offset = off;
	}
	if (s->has_lines) {
		Dwfl_Line *l = dwfl_module_getsrc(s->mod, (Dwarf_Addr)addr);
		int line = 0;
		const char *file = l ? dwfl_lineinfo(l, NULL, &line, NULL, NULL, NULL) : NULL;
		if (file && line > 0) {
			loc->file = file;
			loc->line = line;
		}
	}
	return loc->func || loc->file;
}

int citcat_symbols_lookup(struct citcat_symbols *s, uint64_t addr, struct citcat_symloc *loc)
{
	if (!s || !loc)
		return CITCAT_ERR_INVAL;
	struct sym_slot *e = &s->slot[(addr >> 2) & (SYM_SLOTS - 1)];
	if (!e->valid || e->addr != addr) {
		e->found = lookup_uncached(s, addr, &e->loc);
		e->addr = addr;
		e->valid = 1;
	}
	*loc = e->loc;
	return e->found;
}

int citcat_symbols_function(struct citcat_symbols *s, const char *name, uint64_t *start, uint64_t *end)
{
	if (!s || !name || !start || !end)
		return CITCAT_ERR_INVAL;
	int n = dwfl_module_getsymtab(s->mod);
	for (int i = 0; i < n; i++) {
		GElf_Sym sym;
		GElf_Addr addr;
		const char *sn = dwfl_module_getsym_info(s->mod, i, &sym, &addr, NULL, NULL, NULL);
		if (sn && GELF_ST_TYPE(sym.st_info) == STT_FUNC && sym.st_size && strcmp(sn, name) == 0) {
			*start = addr;
			*end = addr + sym.st_size;
			return 1;
		}
	}
	return 0;
}

int citcat_symbols_describe(struct citcat_symbols *s, uint64_t addr, char *buf, size_t n)
{
	struct citcat_symloc loc;
	if (n)
		buf[0] = 0;
	if (citcat_symbols_lookup(s, addr, &loc) <= 0)
		return 0;
	int len = 0;
	if (loc.func)
		len = snprintf(buf, n, "%s+0x%llx", loc.func, (unsigned long long)loc.offset);
	if (loc.file) {
		const char *base = strrchr(loc.file, '/');
		base = base ? base + 1 : loc.file;
		size_t used = (size_t)len < n ? (size_t)len : n;
		len += snprintf(buf + used, n - used, "%s%s:%d", len ? " (" : "", base, loc.line);
		if (loc.func) {
			used = (size_t)len < n ? (size_t)len : n;
			len += snprintf(buf + used, n - used, ")");
		}
	}
	return len;
}
