/* The GNU build id of an ELF file: see elfid.h. */
#include <citcat/symbols.h>
#include "input.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <libelf.h>
#include <string.h>
#include <unistd.h>

/* The build id in one SHT_NOTE section's DATA: 1, 0 or CITCAT_ERR_LIMIT. */
static int scan_notes(Elf_Data *data, uint8_t *id, size_t cap, size_t *len)
{
	GElf_Nhdr nh;
	size_t off = 0, name_off, desc_off, next;
	while (off < data->d_size && (next = gelf_getnote(data, off, &nh, &name_off, &desc_off)) > 0) {
		const char *name = (const char *)data->d_buf + name_off;
		if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 && memcmp(name, "GNU", 4) == 0) {
			if (nh.n_descsz > cap)
				return CITCAT_ERR_LIMIT;
			memcpy(id, (const uint8_t *)data->d_buf + desc_off, nh.n_descsz);
			*len = nh.n_descsz;
			return 1;
		}
		off = next;
	}
	return 0;
}

int citcat_elf_build_id(const char *path, uint8_t *id, size_t cap, size_t *len, struct citcat_errinfo *err)
{
	return citcat_elf_build_id_flags(path, 0, id, cap, len, err);
}

int citcat_elf_build_id_flags(const char *path, unsigned flags, uint8_t *id, size_t cap, size_t *len,
			      struct citcat_errinfo *err)
{
	if (!path || !id || !len)
		return CITCAT_ERR_INVAL;
	*len = 0;
	int fd, orc = cc_input_open_fd(path, flags | CC_IN_FILE, &fd, err); /* the input rules (input.h) */
	if (orc)
		return orc;
	elf_version(EV_CURRENT);
	Elf *e = elf_begin(fd, ELF_C_READ, NULL);
	int rc = 0;
	if (!e || elf_kind(e) != ELF_K_ELF) {
		rc = citcat_errinfo_set(err, CITCAT_ERR_MAGIC, 0, "not an ELF file");
		goto out;
	}
	size_t shstr = 0;
	if (elf_getshdrstrndx(e, &shstr) != 0)
		shstr = 0;
	for (Elf_Scn *scn = NULL; !rc && (scn = elf_nextscn(e, scn)) != NULL;) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh))
			continue;
		if (sh.sh_type == SHT_NOTE) {
			Elf_Data *data = elf_getdata(scn, NULL);
			if (data && data->d_buf)
				rc = scan_notes(data, id, cap, len);
			continue;
		}
		/* A linker script may keep the note out of the image as an INFO
		 * section, which ld types PROGBITS (examples/bsp/link.ld): libelf
		 * translates its bytes as notes all the same. */
		const char *name = shstr ? elf_strptr(e, shstr, sh.sh_name) : NULL;
		Elf_Data *raw = name && strcmp(name, ".note.gnu.build-id") == 0 ? elf_rawdata(scn, NULL) : NULL;
		if (!raw || !raw->d_buf || !raw->d_size)
			continue;
		void *buf = malloc(raw->d_size);
		if (!buf) {
			rc = citcat_errinfo_set(err, CITCAT_ERR_NOMEM, UINT64_MAX, "out of memory");
			break;
		}
		Elf_Data src = *raw, dst = *raw;
		src.d_type = dst.d_type = ELF_T_NHDR;
		dst.d_buf = buf;
		if (gelf_xlatetom(e, &dst, &src, (unsigned)elf_getident(e, NULL)[EI_DATA]))
			rc = scan_notes(&dst, id, cap, len);
		free(buf);
	}
	if (rc == CITCAT_ERR_LIMIT)
		citcat_errinfo_set(err, rc, UINT64_MAX, "build id longer than %zu bytes", cap);
out:
	if (e)
		elf_end(e);
	close(fd);
	return rc;
}
