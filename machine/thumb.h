/* Thumb-2 at instruction boundaries, shared by the capture model and the
 * replayers (TARGET.md, CPU): instruction size, the instruction word as the
 * itrace records it, WFI in both states, the IT-block state that Unicorn
 * 2.0.1 does not show in its hooks, and the instruction fetch of a 4-byte
 * instruction that crosses an I-cache line.  Internal module. */
#ifndef CITCAT_THUMB_H
#define CITCAT_THUMB_H

#include "bus.h"

#include <stdint.h>
#include <string.h>
#include <unicorn/unicorn.h>

/* The size of the Thumb instruction whose first halfword is HW: 4 when its
 * top five bits are 0b11101, 0b11110 or 0b11111 (ARMv7-A ARM, A6.1). */
static inline unsigned thumb_size(uint16_t hw) { return (hw >> 11) >= 0x1d ? 4 : 2; }

/* The instruction word of the instruction of SIZE bytes at P, as the itrace
 * records it: its bytes as a little-endian number (a 32-bit Thumb
 * instruction therefore has its first halfword in bits 15..0). */
static inline uint32_t thumb_word_at(const uint8_t *p, unsigned size)
{
	uint32_t w = 0;
	/* little-endian host (CMakeLists.txt checks).  Fixed-size copies for
	 * the two sizes: a memcpy of a variable size is a call to libc's
	 * memmove per instruction, about 10% of a capture (perf, sha256_long);
	 * a halfword through a 16-bit variable, since 2 bytes copied into W
	 * went through the stack and stalled its 32-bit reload (a third of the
	 * Thumb block engine's retirement, perf, matmul_long_thumb) */
	if (size == 4) {
		memcpy(&w, p, 4);
	} else if (size == 2) {
		uint16_t h;
		memcpy(&h, p, 2);
		w = h;
	} else {
		memcpy(&w, p, size);
	}
	return w;
}

/* WFI in Thumb state: T1 0xBF30, T2 0xF3AF 0x8003 (as thumb_word_at reads
 * it: 0x8003F3AF). */
static inline int thumb_is_wfi(uint32_t word, unsigned size)
{
	return size == 2 ? word == 0xBF30u : word == 0x8003F3AFu;
}

/* ITSTATE (ARMv7-A ARM, A2.5.2) as the model tracks it: bits 7..4 the
 * condition of the next instruction, bits 3..0 the mask; 0 outside an IT
 * block.  Unicorn keeps it in translated code only (CPSR.IT reads 0 in a
 * code hook, tests/test_unicorn_thumb.c) and skips the code hook of an
 * instruction in an IT block whose condition fails, so the model follows it
 * itself. */
static inline int thumb_is_it(uint32_t word, unsigned size)
{
	return size == 2 && (word & 0xff00u) == 0xbf00u && (word & 0xfu) != 0;
}
/* The ITSTATE after the instruction retired with state IT. */
static inline uint8_t thumb_it_advance(uint8_t it)
{
	return (it & 7) == 0 ? 0 : (uint8_t)((it & 0xe0) | ((it << 1) & 0x1f));
}

/* Whether condition COND (0..14) passes with the flags of CPSR. */
static inline int thumb_cond_passed(unsigned cond, uint32_t cpsr)
{
	int n = (cpsr >> 31) & 1, z = (cpsr >> 30) & 1, c = (cpsr >> 29) & 1, v = (cpsr >> 28) & 1, r;
	switch (cond >> 1) {
	case 0: r = z; break;
	case 1: r = c; break;
	case 2: r = n; break;
	case 3: r = v; break;
	case 4: r = c && !z; break;
	case 5: r = n == v; break;
	case 6: r = n == v && !z; break;
	default: return 1; /* AL (0b1111 does not occur in an IT block) */
	}
	return (cond & 1) ? !r : r;
}

/* The instruction fetch of the SIZE-byte instruction at A: a 4-byte Thumb
 * instruction at the last halfword of an I-cache line fetches both lines,
 * lower first (TARGET.md, Caches). */
static inline void thumb_ifetch(struct bus *b, uint32_t a, unsigned size)
{
	bus_ifetch(b, a);
	if (((a + size - 1) >> b->iline_shift) != (a >> b->iline_shift))
		bus_ifetch(b, a + size - 1);
}

/* Whether the SIZE-byte instruction at A, in a code hook, is in Thumb
 * state: a 2-byte one or one at a halfword address is; otherwise CPSR.T
 * says (Unicorn's CPSR.T is current in a code hook). */
static inline int thumb_state(uc_engine *uc, uint32_t a, unsigned size)
{
	if (size == 2 || (a & 2))
		return 1;
	uint32_t cpsr;
	uc_reg_read(uc, UC_ARM_REG_CPSR, &cpsr);
	return (cpsr >> 5) & 1;
}

/* The same from BLOCK_THUMB, CPSR.T as the block hook of the translation
 * block read it (struct core_hooks, block_thumb): a block is in one state,
 * so no register read per instruction. */
static inline int thumb_state_in(uint32_t a, unsigned size, int block_thumb)
{
	return size == 2 || (a & 2) || block_thumb;
}
/* A WFI at A (SIZE bytes, THUMB state) retires: continue after it instead
 * of Unicorn's halt.  A PC write selects the state by bit 0 (Unicorn 2.0.1,
 * tests/test_unicorn_thumb.c), so the Thumb bit goes with it. */
static inline uc_err thumb_wfi_retire(uc_engine *uc, uint32_t a, unsigned size, int thumb)
{
	uint32_t next = (a + size) | (thumb ? 1u : 0u);
	return uc_reg_write(uc, UC_ARM_REG_PC, &next);
}

/* The address to restart uc_emu_start at after it returned: the PC with
 * bit 0 = CPSR.T, since uc_emu_start's begin address selects the state. */
static inline uint32_t thumb_resume_pc(uc_engine *uc)
{
	uint32_t pc, cpsr;
	uc_reg_read(uc, UC_ARM_REG_PC, &pc);
	uc_reg_read(uc, UC_ARM_REG_CPSR, &cpsr);
	return (pc & ~1u) | ((cpsr >> 5) & 1);
}

#endif
