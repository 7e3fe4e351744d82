/* common/symbols: every function symbol and a sample of line-table rows of a
 * real firmware ELF against binutils' nm and addr2line (an independent
 * reader of the same symbol table and DWARF), plus the error paths.
 * usage: test_symbols FIRMWARE.elf NM ADDR2LINE SCRATCH_DIR */
#include "check.h"
#include <citcat/symbols.h>

#include <string.h>

#define MAXF 2048

struct fn {
	char name[128];
	unsigned long addr, size;
};

int main(int argc, char **argv)
{
	if (argc != 5) {
		fprintf(stderr, "usage: test_symbols FIRMWARE.elf NM ADDR2LINE SCRATCH_DIR\n");
		return 2;
	}
	const char *elf = argv[1];
	struct citcat_errinfo err;
	struct citcat_symbols *s = NULL;

	/* error paths */
	char path[4096];
	CHECK_EQ(citcat_symbols_open(NULL, elf, &err), CITCAT_ERR_INVAL);
	snprintf(path, sizeof path, "%s/missing.elf", argv[4]);
	remove(path);
	CHECK_EQ(citcat_symbols_open(&s, path, &err), CITCAT_ERR_IO);
	CHECK(s == NULL);
	snprintf(path, sizeof path, "%s/empty.elf", argv[4]);
	FILE *f = fopen(path, "wb");
	CHECK(f != NULL);
	if (f)
		fclose(f);
	CHECK_EQ(citcat_symbols_open(&s, path, &err), CITCAT_ERR_EMPTY);
	f = fopen(path, "wb");
	if (f) {
		fputs("#!/bin/sh\necho not an ELF\n", f);
		fclose(f);
	}
	CHECK_EQ(citcat_symbols_open(&s, path, &err), CITCAT_ERR_MAGIC);
	CHECK(strstr(err.msg, "ELF") != NULL);
	f = fopen(path, "wb");
	if (f) {
		fputs("\177ELF truncated", f);
		fclose(f);
	}
	CHECK_EQ(citcat_symbols_open(&s, path, &err), CITCAT_ERR_CORRUPT);
	citcat_symbols_close(NULL);

	CHECK_EQ(citcat_symbols_open(&s, elf, &err), 0);
	if (!s) {
		fprintf(stderr, "open %s: %s\n", elf, err.msg);
		return 1;
	}
	CHECK(citcat_symbols_has_lines(s));

	/* every sized function symbol nm lists, by name and by address */
	static struct fn fns[MAXF];
	size_t nf = 0;
	char cmd[8192], line[1024];
	snprintf(cmd, sizeof cmd, "'%s' -S --defined-only '%s'", argv[2], elf);
	FILE *p = popen(cmd, "r");
	CHECK(p != NULL);
	while (p && fgets(line, sizeof line, p) && nf < MAXF) {
		struct fn *x = &fns[nf];
		char type;
		if (sscanf(line, "%lx %lx %c %127s", &x->addr, &x->size, &type, x->name) == 4 && (type == 'T' || type == 't'))
			nf++;
	}
	if (p)
		pclose(p);
	CHECK(nf > 20);
	unsigned checked = 0;
	for (size_t i = 0; i < nf; i++) {
		int dup = 0;
		for (size_t j = 0; j < nf; j++)
			dup += strcmp(fns[i].name, fns[j].name) == 0;
		if (dup != 1)
			continue; /* a static name used twice: by-name lookup is ambiguous */
		uint64_t lo = 0, hi = 0;
		CHECK_EQ(citcat_symbols_function(s, fns[i].name, &lo, &hi), 1);
		CHECK_EQ(lo, fns[i].addr);
		CHECK_EQ(hi, fns[i].addr + fns[i].size);
		uint64_t mid = fns[i].addr + (fns[i].size / 2 & ~3ul);
		struct citcat_symloc loc;
		CHECK_EQ(citcat_symbols_lookup(s, mid, &loc), 1);
		/* aliases (printf and iprintf share their code): any name nm gives that address and size */
		int alias = 0;
		for (size_t j = 0; j < nf && loc.func; j++)
			alias |= fns[j].addr == fns[i].addr && fns[j].size == fns[i].size && strcmp(loc.func, fns[j].name) == 0;
		CHECK(alias);
		CHECK_EQ(loc.func_start, fns[i].addr);
		CHECK_EQ(loc.offset, mid - fns[i].addr);
		/* the first and the last halfword belong to it too (a Thumb
		 * symbol's value has bit 0 set: the function starts one below) */
		uint64_t edge[2] = {fns[i].addr, fns[i].addr + fns[i].size - 2};
		for (int k = 0; k < 2; k++) {
			CHECK_EQ(citcat_symbols_lookup(s, edge[k], &loc), 1);
			CHECK_EQ(loc.func_start, fns[i].addr);
			CHECK_EQ(loc.offset, edge[k] - fns[i].addr);
		}
		checked++;
	}
	CHECK(checked > 20);
	uint64_t lo, hi;
	CHECK_EQ(citcat_symbols_function(s, "no_such_function_here", &lo, &hi), 0);
	CHECK_EQ(citcat_symbols_function(s, NULL, &lo, &hi), CITCAT_ERR_INVAL);

	/* the line of the first and middle instruction of each function, against
	 * addr2line (the same question, asked twice, is answered from the cache) */
	unsigned lines = 0, names = 0;
	for (size_t i = 0; i < nf && i < 200; i++) {
		uint64_t a[2] = {fns[i].addr, fns[i].addr + (fns[i].size / 2 & ~3ul)};
		for (int k = 0; k < 2; k++) {
			/* -f -i: the innermost inlined function first, the function
			 * the address lies in last, then its file:line; the first row's
			 * file:line is the innermost one */
			snprintf(cmd, sizeof cmd, "'%s' -f -i -e '%s' 0x%llx", argv[3], elf, (unsigned long long)a[k]);
			p = popen(cmd, "r");
			char fname[1024] = "", row[1024];
			int nrow = 0;
			while (p && fgets(row, sizeof row, p)) {
				row[strcspn(row, "\n")] = 0;
				if (nrow % 2 == 0)
					snprintf(fname, sizeof fname, "%s", row);
				else if (nrow == 1)
					snprintf(line, sizeof line, "%s", row);
				nrow++;
			}
			if (p)
				pclose(p);
			if (nrow < 2)
				continue;
			/* where addr2line's function (DWARF's name: "__sinit" for GCC's
			 * clone "__sinit.part.0") is one nm lists at this address,
			 * citcat names that function or an alias of it, at offset 0 */
			int named_here = 0, alias = 0;
			struct citcat_symloc nl;
			CHECK_EQ(citcat_symbols_lookup(s, a[k], &nl), 1);
			for (size_t j = 0; j < nf; j++) {
				size_t fl = strlen(fname);
				if (fns[j].addr != a[k])
					continue;
				named_here |= strcmp(fname, fns[j].name) == 0 ||
					      (strncmp(fname, fns[j].name, fl) == 0 && fns[j].name[fl] == '.');
				alias |= nl.func && strcmp(nl.func, fns[j].name) == 0;
			}
			if (k == 0 && named_here) {
				if (!alias)
					fprintf(stderr, "0x%llx: addr2line says %s+0x0, citcat %s+0x%llx\n",
						(unsigned long long)a[k], fname, nl.func ? nl.func : "?",
						(unsigned long long)nl.offset);
				CHECK(alias);
				CHECK_EQ(nl.offset, 0);
				names++;
			}
			char *colon = strrchr(line, ':');
			if (line[0] == '?' || !colon)
				continue; /* addr2line knows no line: nothing to compare */
			*colon = 0;
			int want = atoi(colon + 1);
			if (want <= 0)
				continue;
			for (int rep = 0; rep < 2; rep++) {
				struct citcat_symloc loc;
				CHECK_EQ(citcat_symbols_lookup(s, a[k], &loc), 1);
				CHECK_EQ(loc.line, want);
				const char *b1 = loc.file ? strrchr(loc.file, '/') : NULL, *b2 = strrchr(line, '/');
				CHECK(loc.file && strcmp(b1 ? b1 + 1 : loc.file, b2 ? b2 + 1 : line) == 0);
			}
			lines++;
		}
	}
	CHECK(lines > 20);
	CHECK(names > 20);

	/* describe: "func+0xOFF (file:line)", and "" for an address outside everything */
	char buf[256];
	CHECK(citcat_symbols_describe(s, fns[0].addr + 4, buf, sizeof buf) > 0);
	char want[200];
	snprintf(want, sizeof want, "%s+0x4", fns[0].name);
	CHECK(strncmp(buf, want, strlen(want)) == 0);
	CHECK_EQ(citcat_symbols_describe(s, 0xfffff000u, buf, sizeof buf), 0);
	CHECK_EQ(buf[0], 0);
	CHECK(citcat_symbols_describe(s, fns[0].addr + 4, buf, 8) > 7); /* truncated, still terminated */
	CHECK_EQ(strlen(buf), 7);
	citcat_symbols_close(s);
	CHECK_DONE();
}
