/* libcitcat public API: symbols and source lines of a firmware ELF, for the places a person reads
 * an address: the text listing, the divergence report, capture's fault
 * message, the HTML report.  Built on elfutils' libdwfl (symbol table) and
 * libdw (DWARF line tables); nothing is parsed by hand.
 *
 * One symbolizer per ELF, opened once; its function symbols are read once
 * into a table sorted by address (an ARM STT_FUNC symbol's Thumb bit
 * cleared, as nm, addr2line and GDB read it), and lookups are cached in a
 * small direct-mapped table, since traces visit the same few thousand
 * addresses millions of times.  The library never prints: the caller formats (see
 * citcat_symbols_describe). */
#ifndef CITCAT_PUBLIC_SYMBOLS_H
#define CITCAT_PUBLIC_SYMBOLS_H

#include <citcat/base.h>

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct citcat_symbols;

/* What is known about one address.  Strings belong to the symbolizer and
 * stay valid until it is closed; NULL / 0 when unknown. */
struct citcat_symloc {
	const char *func;    /* the function (sized symbol) containing the address */
	uint64_t func_start; /* its first address (of a Thumb function, the symbol's value with bit 0 cleared) */
	uint64_t func_size;  /* its size in bytes */
	uint64_t offset;     /* address - func_start */
	const char *file;    /* source file of the line table row (as DWARF names it) */
	int line;            /* its line, > 0 when known */
};

/* Opens the ELF at PATH.  Returns 0, CITCAT_ERR_INVAL for a NULL argument,
 * CITCAT_ERR_IO when the file cannot be read, CITCAT_ERR_MAGIC when it is
 * not an ELF file, CITCAT_ERR_NOMEM; ERR (may be NULL) gets the detail.
 * An ELF without DWARF is accepted: lookups then give symbols only.  On
 * failure *S is NULL. */
CITCAT_API int citcat_symbols_open(struct citcat_symbols **s, const char *path, struct citcat_errinfo *err);
/* The same with the input layer's FLAGS (citcat/io.h: CITCAT_IN_RECORDED
 * for a path read from a file, a CAT's firmware). */
CITCAT_API int citcat_symbols_open_flags(struct citcat_symbols **s, const char *path, unsigned flags, struct citcat_errinfo *err);
/* Frees S.  Accepts NULL. */
CITCAT_API void citcat_symbols_close(struct citcat_symbols *s);
/* Whether the ELF has DWARF line tables (1) or not (0). */
CITCAT_API int citcat_symbols_has_lines(const struct citcat_symbols *s);
/* Why lookups will find no function names (a symbol table that does not
 * read, or none), or NULL. */
CITCAT_API const char *citcat_symbols_warning(const struct citcat_symbols *s);

/* Fills LOC for ADDR.  Returns 1 when a function or a source line was
 * found, 0 when neither (LOC is then all NULL / 0), CITCAT_ERR_INVAL for
 * NULL arguments. */
CITCAT_API int citcat_symbols_lookup(struct citcat_symbols *s, uint64_t addr, struct citcat_symloc *loc);

/* The address range [*START, *END) of the function (sized symbol of type
 * FUNC) named NAME.  Returns 1 when found, 0 when there is no such
 * function, CITCAT_ERR_INVAL for NULL arguments. */
CITCAT_API int citcat_symbols_function(struct citcat_symbols *s, const char *name, uint64_t *start, uint64_t *end);

/* One function of the chain an address executes in: the function the
 * address lies in (frame 0), then each function inlined into the one
 * before it, the innermost last (DWARF inlined subroutines, libdw). */
struct citcat_symframe {
	const char *func;      /* frame 0: the sized function symbol's name; then DWARF's */
	const char *call_file; /* frames 1 on: where in the frame before it the call was inlined */
	int call_line;
	uint64_t instance; /* frames 1 on: which inlined copy (its DIE's offset); 0 for frame 0 */
};
#define CITCAT_SYM_MAX_FRAMES 16

/* Fills FRAMES (room for MAX) with the chain at ADDR and returns how many
 * there are (0 when no sized function symbol covers ADDR; at most MAX, the
 * innermost dropped beyond that), or CITCAT_ERR_INVAL for NULL arguments.  Strings
 * belong to the symbolizer.  Not cached: callers keep what they need. */
CITCAT_API int citcat_symbols_frames(struct citcat_symbols *s, uint64_t addr, struct citcat_symframe *frames, int max);

/* The name of the code symbol nearest at or below ADDR, sized or not (a
 * label such as a vector table's; ARM mapping symbols apart), or NULL: a
 * name for code no function symbol covers.  NULL for a NULL S. */
CITCAT_API const char *citcat_symbols_label(struct citcat_symbols *s, uint64_t addr);

/* Writes "func+0xOFF (file.c:LINE)" for ADDR into BUF (N bytes, always
 * terminated): the file without its directories; either part is left out
 * when unknown, and "" is written when both are.  Returns the length
 * snprintf would have written (0 when nothing is known). */
CITCAT_API int citcat_symbols_describe(struct citcat_symbols *s, uint64_t addr, char *buf, size_t n);

/* The GNU build id of an ELF file (the NT_GNU_BUILD_ID note, written by
 * `ld --build-id`), read with libelf.  The CAT records it beside the ELF's
 * path so that later commands can find the firmware's symbols and check
 * that the file is still the one captured (formats/CAT.md).
 *
 * Reads PATH's build id into ID (CAP bytes) and *LEN.  Returns 1 when
 * found, 0 when the ELF has none, CITCAT_ERR_IO (cannot open),
 * CITCAT_ERR_MAGIC (not an ELF file), CITCAT_ERR_LIMIT (a build id longer
 * than CAP); ERR (may be NULL) says more. */
CITCAT_API int citcat_elf_build_id(const char *path, uint8_t *id, size_t cap, size_t *len, struct citcat_errinfo *err);
/* The same with an input FLAGS (citcat/io.h): CITCAT_IN_RECORDED for a path
 * read from a file (a CAT's firmware), which is opened only when it names a
 * regular file. */
CITCAT_API int citcat_elf_build_id_flags(const char *path, unsigned flags, uint8_t *id, size_t cap, size_t *len,
					 struct citcat_errinfo *err);

#ifdef __cplusplus
}
#endif

#endif
