/* Fuzz target: the symbolizer (common/symbols.c, libdwfl/libdw underneath)
 * on arbitrary bytes as a firmware ELF.  Whatever the bytes:
 *  - citcat_symbols_open either succeeds or fails with an input error code
 *    (never a caller-mistake or internal code) and a message;
 *  - on success every lookup returns 0 or 1, a found function contains the
 *    address (start <= addr < start + size, offset = addr - start), a found
 *    line is positive with a file name, describe's text is terminated and no
 *    longer than the buffer, and a function found by name has a non-empty
 *    range [start, end). */
#include <citcat/symbols.h>
#include "tmpdir.h"

#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char *path;
	if (!path)
		path = fuzz_path("input.elf");
	fuzz_write_file(path, data, size);
	struct citcat_symbols *s = NULL;
	struct citcat_errinfo err;
	int rc = citcat_symbols_open(&s, path, &err);
	if (rc) {
		if (rc == CITCAT_ERR_INVAL || rc == CITCAT_ERR_INTERNAL || !err.msg[0] || s)
			abort();
		return 0;
	}
	uint64_t probes[] = {0, 4, 0x100, 0x368, 0x400, 0x484, 0x1000, 0x8000, 0xfffffffc};
	for (size_t i = 0; i < sizeof probes / sizeof *probes; i++) {
		struct citcat_symloc loc;
		int f = citcat_symbols_lookup(s, probes[i], &loc);
		if (f != 0 && f != 1)
			abort();
		if (loc.func && (loc.func_start > probes[i] || probes[i] - loc.func_start >= loc.func_size ||
				 loc.offset != probes[i] - loc.func_start))
			abort();
		if (loc.file && loc.line <= 0)
			abort();
		char buf[48];
		int n = citcat_symbols_describe(s, probes[i], buf, sizeof buf);
		if (n < 0 || strlen(buf) >= sizeof buf || (n < (int)sizeof buf && strlen(buf) != (size_t)n))
			abort();
	}
	uint64_t lo, hi;
	static const char *const names[] = {"main", "_start", "citcat_irq_dispatch", ""};
	for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
		int f = citcat_symbols_function(s, names[i], &lo, &hi);
		if (f != 0 && f != 1)
			abort();
		if (f == 1 && lo >= hi)
			abort();
	}
	citcat_symbols_close(s);
	return 0;
}
