/* Symbolizer over elfutils' libdwfl.  The module is reported "offline"
 * (an ELF file, not a process), so addresses are the link-time ones the
 * trace carries.  Debug information is taken from the ELF itself only:
 * find_debuginfo declines, so no separate debug file or debuginfod server
 * is ever looked for. */
#include <citcat/symbols.h>
#include "input.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The cache is direct-mapped on the address in halfwords: Thumb code puts
 * an instruction at every even address, and a slot per word made the two
 * halves of each word evict each other (issue 35: 10-20x slower symbols on
 * Thumb code). */
#define SYM_SLOTS 8192

struct sym_slot {
	uint64_t addr;
	int valid, found;
	struct citcat_symloc loc;
};

/* One sized function symbol: the table lookups search by address (sorted
 * by start) instead of libdwfl's dwfl_module_addrinfo, which scans the whole
 * symbol table on every call and keeps an ARM symbol's Thumb bit in its
 * start. */
struct sym_fn {
	uint64_t start, size;
	uint64_t maxend; /* the largest start + size of this entry and every one before it */
	const char *name;
	int rank; /* lower is preferred among symbols of the same start: FUNC before NOTYPE, GLOBAL, WEAK, LOCAL */
	int func; /* STT_FUNC */
};

struct citcat_symbols {
	Dwfl *dwfl;
	Dwfl_Module *mod;
	int has_lines;
	char warning[160]; /* "" or why names will be missing */
	struct sym_fn *fn;
	size_t nfn;
	struct sym_fn *lab; /* every code symbol, sized or not (mapping symbols apart), by address */
	size_t nlab;
	struct sym_slot slot[SYM_SLOTS];
};

static int fn_cmp(const void *a, const void *b)
{
	const struct sym_fn *x = a, *y = b;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	if (x->size != y->size)
		return x->size > y->size ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* The table of sized function symbols (STT_FUNC, and untyped ones, which
 * hand-written assembly without .type leaves), sorted by start.  An ARM
 * STT_FUNC symbol's value has bit 0 set when the function is Thumb code
 * (ELF for the ARM Architecture, 5.5.3 "Symbol Values"): the function
 * starts at the value with that bit cleared, as every ARM tool (nm,
 * addr2line, objdump, GDB) reads it. */
static int load_functions(struct citcat_symbols *s)
{
	GElf_Addr bias = 0;
	Elf *elf = dwfl_module_getelf(s->mod, &bias);
	GElf_Ehdr eh;
	int arm = elf && gelf_getehdr(elf, &eh) && eh.e_machine == EM_ARM;
	int n = dwfl_module_getsymtab(s->mod);
	if (n <= 0)
		return 0;
	s->fn = calloc((size_t)n, sizeof *s->fn);
	s->lab = calloc((size_t)n, sizeof *s->lab);
	if (!s->fn || !s->lab)
		return CITCAT_ERR_NOMEM;
	for (int i = 0; i < n; i++) {
		GElf_Sym sym;
		GElf_Addr addr;
		const char *name = dwfl_module_getsym_info(s->mod, i, &sym, &addr, NULL, NULL, NULL);
		int type = GELF_ST_TYPE(sym.st_info), bind = GELF_ST_BIND(sym.st_info);
		if (!name || !name[0] || sym.st_shndx == SHN_UNDEF || sym.st_shndx == SHN_ABS ||
		    (type != STT_FUNC && type != STT_NOTYPE))
			continue;
		if (name[0] != '$') /* ARM mapping symbols ($a, $t, $d) name no code */
			s->lab[s->nlab++] = (struct sym_fn){.start = arm && type == STT_FUNC ? addr & ~(GElf_Addr)1 : addr,
							    .name = name,
							    .rank = (type == STT_FUNC ? 0 : 4) +
								    (bind == STB_GLOBAL ? 0 : bind == STB_WEAK ? 1 : 2),
							    .func = type == STT_FUNC};
		if (!sym.st_size)
			continue;
		struct sym_fn *f = &s->fn[s->nfn++];
		f->start = arm && type == STT_FUNC ? addr & ~(GElf_Addr)1 : addr;
		f->size = sym.st_size;
		f->name = name;
		f->func = type == STT_FUNC;
		f->rank = (type == STT_FUNC ? 0 : 4) + (bind == STB_GLOBAL ? 0 : bind == STB_WEAK ? 1 : 2);
	}
	qsort(s->fn, s->nfn, sizeof *s->fn, fn_cmp);
	qsort(s->lab, s->nlab, sizeof *s->lab, fn_cmp);
	uint64_t maxend = 0;
	for (size_t i = 0; i < s->nfn; i++) {
		if (s->fn[i].start + s->fn[i].size > maxend)
			maxend = s->fn[i].start + s->fn[i].size;
		s->fn[i].maxend = maxend;
	}
	return 0;
}

/* The innermost sized function symbol containing ADDR (the one starting
 * last; of several starting there, the preferred), NULL when none does. */
static const struct sym_fn *find_function(const struct citcat_symbols *s, uint64_t addr)
{
	size_t lo = 0, hi = s->nfn; /* first entry starting after ADDR */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (s->fn[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	const struct sym_fn *best = NULL;
	for (size_t i = lo; i-- > 0 && s->fn[i].maxend > addr;) {
		const struct sym_fn *f = &s->fn[i];
		if (best && f->start != best->start)
			break;
		if (addr - f->start < f->size)
			best = f; /* of the same start, a lower index is preferred */
	}
	return best;
}

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
	int rc = load_functions(s);
	if (rc) {
		citcat_symbols_close(s);
		return citcat_errinfo_set(err, rc, UINT64_MAX, "out of memory");
	}
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
	free(s->fn);
	free(s->lab);
	free(s);
}

int citcat_symbols_has_lines(const struct citcat_symbols *s) { return s ? s->has_lines : 0; }

static int lookup_uncached(struct citcat_symbols *s, uint64_t addr, struct citcat_symloc *loc)
{
	memset(loc, 0, sizeof *loc);
	/* only a sized symbol says that the address lies inside it; an
	 * unsized one (a label, an ARM mapping symbol) is merely the nearest */
	const struct sym_fn *f = find_function(s, addr);
	if (f) {
		loc->func = f->name;
		loc->func_start = f->start;
		loc->func_size = f->size;
		loc->offset = addr - f->start;
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
	struct sym_slot *e = &s->slot[(addr >> 1) & (SYM_SLOTS - 1)];
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
	for (size_t i = 0; i < s->nfn; i++) {
		if (s->fn[i].func && strcmp(s->fn[i].name, name) == 0) {
			*start = s->fn[i].start;
			*end = s->fn[i].start + s->fn[i].size;
			return 1;
		}
	}
	return 0;
}

const char *citcat_symbols_label(struct citcat_symbols *s, uint64_t addr)
{
	if (!s)
		return NULL;
	size_t lo = 0, hi = s->nlab; /* first label after ADDR */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (s->lab[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	/* of several at that address, the first in sort order (the preferred) */
	size_t k = lo - 1;
	while (k > 0 && s->lab[k - 1].start == s->lab[k].start)
		k--;
	return s->lab[k].name;
}

/* DW_AT_name of DIE, through its abstract origin or specification */
static const char *die_name(Dwarf_Die *die)
{
	Dwarf_Attribute a;
	const char *n = dwarf_attr_integrate(die, DW_AT_name, &a) ? dwarf_formstring(&a) : NULL;
	return n && n[0] ? n : NULL;
}

int citcat_symbols_frames(struct citcat_symbols *s, uint64_t addr, struct citcat_symframe *frames, int max)
{
	if (!s || !frames || max <= 0)
		return CITCAT_ERR_INVAL;
	/* only inside a sized function symbol: DWARF alone is no guide, since
	 * the linker's --gc-sections leaves the DWARF of the functions it
	 * dropped at address 0 */
	int n = 0;
	const struct sym_fn *f = find_function(s, addr);
	if (!f)
		return 0;
	frames[n++] = (struct citcat_symframe){.func = f->name};
	if (!s->has_lines)
		return n;
	Dwarf_Addr bias = 0;
	Dwarf_Die *cu = dwfl_module_addrdie(s->mod, (Dwarf_Addr)addr, &bias);
	Dwarf_Die *inner = NULL, *scopes = NULL;
	/* the scopes at ADDR run innermost first, but beyond an inlined
	 * subroutine they follow its abstract definition (libdw): take the
	 * innermost function-like scope, and its concrete parents from
	 * dwarf_getscopes_die */
	int ni = cu ? dwarf_getscopes(cu, (Dwarf_Addr)addr - bias, &inner) : 0;
	int ns = 0;
	for (int i = 0; i < ni; i++) {
		int tag = dwarf_tag(&inner[i]);
		if (tag == DW_TAG_inlined_subroutine || tag == DW_TAG_subprogram) {
			ns = dwarf_getscopes_die(&inner[i], &scopes);
			break;
		}
	}
	free(inner);
	if (ns < 0)
		ns = 0;
	int sub = -1; /* the outermost subprogram of the chain */
	for (int i = 0; i < ns; i++)
		if (dwarf_tag(&scopes[i]) == DW_TAG_subprogram)
			sub = i;
	Dwarf_Files *files = NULL;
	size_t nfiles = 0;
	if (sub > 0 && dwarf_getsrcfiles(cu, &files, &nfiles) != 0)
		files = NULL;
	for (int i = sub - 1; i >= 0 && n > 0 && n < max; i--) {
		if (dwarf_tag(&scopes[i]) != DW_TAG_inlined_subroutine)
			continue;
		Dwarf_Attribute a;
		Dwarf_Word file = 0, line = 0;
		if (dwarf_attr(&scopes[i], DW_AT_call_file, &a))
			dwarf_formudata(&a, &file);
		if (dwarf_attr(&scopes[i], DW_AT_call_line, &a))
			dwarf_formudata(&a, &line);
		const char *fname = files && file < nfiles ? dwarf_filesrc(files, file, NULL, NULL) : NULL;
		const char *name = die_name(&scopes[i]);
		frames[n++] = (struct citcat_symframe){.func = name ? name : "?",
						       .call_file = fname,
						       .call_line = (int)line,
						       .instance = dwarf_dieoffset(&scopes[i])};
	}
	free(scopes);
	return n;
}

int citcat_symbols_describe(struct citcat_symbols *s, uint64_t addr, char *buf, size_t n)
{
	struct citcat_symloc loc;
	if (!buf && n)
		return CITCAT_ERR_INVAL;
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
