/* Symbols for the places a person reads an address (issue 12): one helper
 * to open a firmware ELF's symbolizer with a diagnostic, and one to write
 * a PC as "0xPC func+0xOFF (file:line)". */
#include "cli.h"
#include "symbols.h"

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
