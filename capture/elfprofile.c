/* The architecture profile an ARM ELF was built for, from its build
 * attributes (the .ARM.attributes section, "Addenda to, and Errata in, the
 * ABI for the ARM Architecture", section 2): the capture picks the target
 * by it and refuses firmware built for the other one (TARGET-M7.md). */
#include "elfprofile.h"
#include <citcat/capture.h>
#include "input.h"

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <string.h>
#include <unistd.h>

#define SHT_ARM_ATTRIBUTES_ 0x70000003u
#define TAG_FILE 1
#define TAG_CPU_ARCH_PROFILE 7

static int uleb(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
	*v = 0;
	for (unsigned sh = 0; *p < end && sh < 64; sh += 7) {
		uint8_t b = *(*p)++;
		*v |= (uint64_t)(b & 0x7f) << sh;
		if (!(b & 0x80))
			return 0;
	}
	return -1;
}

static int skip_ntbs(const uint8_t **p, const uint8_t *end)
{
	const uint8_t *z = memchr(*p, 0, (size_t)(end - *p));
	if (!z)
		return -1;
	*p = z + 1;
	return 0;
}

/* The profile in the "aeabi" file-scope attributes of SEC, 0 when absent. */
static int profile_in(const uint8_t *p, const uint8_t *end)
{
	if (p >= end || *p++ != 'A') /* format version */
		return 0;
	while (end - p >= 4) {
		uint32_t len = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
		if (len < 4 || len > (size_t)(end - p))
			return 0;
		const uint8_t *sub = p + 4, *send = p + len;
		p = send;
		const uint8_t *name = sub;
		if (skip_ntbs(&sub, send) || strcmp((const char *)name, "aeabi") != 0)
			continue;
		while (send - sub >= 5) {
			uint8_t tag = *sub;
			uint32_t slen = (uint32_t)sub[1] | (uint32_t)sub[2] << 8 | (uint32_t)sub[3] << 16 | (uint32_t)sub[4] << 24;
			if (slen < 5 || slen > (size_t)(send - sub))
				return 0;
			const uint8_t *q = sub + 5, *qend = sub + slen;
			sub = qend;
			if (tag != TAG_FILE)
				continue;
			while (q < qend) {
				uint64_t t, v;
				if (uleb(&q, qend, &t))
					return 0;
				if (t == TAG_CPU_ARCH_PROFILE)
					return uleb(&q, qend, &v) ? 0 : (int)(v & 0xff);
				/* string tags: 4, 5, 67 and odd tags above 32; 32 is a ULEB then a string */
				if (t == 4 || t == 5 || t == 67 || (t > 32 && (t & 1))) {
					if (skip_ntbs(&q, qend))
						return 0;
				} else if (uleb(&q, qend, &v) || (t == 32 && skip_ntbs(&q, qend))) {
					return 0;
				}
			}
		}
	}
	return 0;
}

int cc_elf_arm_profile(const char *path)
{
	if (elf_version(EV_CURRENT) == EV_NONE)
		return -1;
	int fd;
	if (cc_input_open_fd(path, CC_IN_FILE, &fd, NULL)) /* the input rules (common/input.h) */
		return -1;
	Elf *e = elf_begin(fd, ELF_C_READ, NULL);
	int prof = e ? 0 : -1;
	Elf_Scn *scn = NULL;
	while (e && (scn = elf_nextscn(e, scn)) != NULL) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_ARM_ATTRIBUTES_)
			continue;
		Elf_Data *d = elf_getdata(scn, NULL);
		if (d && d->d_buf && d->d_size)
			prof = profile_in(d->d_buf, (const uint8_t *)d->d_buf + d->d_size);
		break;
	}
	if (e)
		elf_end(e);
	close(fd);
	return prof;
}

int citcat_elf_arm_profile(const char *path)
{
	return path ? cc_elf_arm_profile(path) : CITCAT_ERR_INVAL;
}
