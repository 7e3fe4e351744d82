/* The GNU build id of an ELF file (the NT_GNU_BUILD_ID note, written by
 * `ld --build-id`), read with libelf.  The CAT records it beside the ELF's
 * path so that later commands can find the firmware's symbols and check
 * that the file is still the one captured (formats/CAT.md). */
#ifndef CITCAT_ELFID_H
#define CITCAT_ELFID_H

#include "citcat.h"

#include <stddef.h>
#include <stdint.h>

/* Reads PATH's build id into ID (CAP bytes) and *LEN.  Returns 1 when
 * found, 0 when the ELF has none, CITCAT_ERR_IO (cannot open),
 * CITCAT_ERR_MAGIC (not an ELF file), CITCAT_ERR_LIMIT (a build id longer
 * than CAP); ERR (may be NULL) says more. */
int citcat_elf_build_id(const char *path, uint8_t *id, size_t cap, size_t *len, struct citcat_errinfo *err);
/* The same with the input layer's FLAGS (common/input.h): CC_IN_RECORDED
 * for a path read from a file (a CAT's firmware), which is opened only
 * when it names a regular file. */
int citcat_elf_build_id_flags(const char *path, unsigned flags, uint8_t *id, size_t cap, size_t *len,
			      struct citcat_errinfo *err);

#endif
