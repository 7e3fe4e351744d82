/* The ARM architecture profile an ELF was built for (capture/elfprofile.c).
 * Internal module. */
#ifndef CITCAT_ELFPROFILE_H
#define CITCAT_ELFPROFILE_H

#include <stdint.h>

/* Tag_CPU_arch_profile of the ELF at PATH: 'A', 'R', 'M' or 'S'; 0 when it
 * has no ARM build attributes or none naming the profile; -1 when the file
 * cannot be read as an ELF (the loader reports that better). */
int cc_elf_arm_profile(const char *path);

#endif
