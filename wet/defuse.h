/* Internal: which registers an ARM (A32) instruction reads and writes, for
 * the WET's register dependences.  Capstone, through the shared decoder
 * formats/armdec.h, supplies the operand access
 * lists; the special cases it does not report (condition flags read by a
 * conditional instruction, MRS/MSR, exception returns restoring CPSR from
 * SPSR) are added here.  The PC is never a location: reading it gives a
 * constant and writing it is control flow.
 *
 * Logical registers: 0-12 r0-r12, 13 SP, 14 LR, WET_R_FLAGS (CPSR.NZCVQ/GE,
 * one location), WET_R_SPSR (the SPSR of the current mode).  wet_phys()
 * maps them to physical locations by processor mode (SP, LR and SPSR are
 * banked; FIQ's r8-r12 banks are not modelled: the target never uses FIQ). */
#ifndef CITCAT_WET_DEFUSE_H
#define CITCAT_WET_DEFUSE_H

#include <stdint.h>

#define WET_R_FLAGS 15
#define WET_R_SPSR 16
#define WET_DU_MAX 20
#define WET_NPHYS 31 /* physical locations */

/* A statement's instruction set and size, as the node table stores it
 * (version 6): A32 (4 bytes), Thumb 16-bit, Thumb 32-bit. */
enum { WET_ISA_A32 = 0, WET_ISA_T16 = 1, WET_ISA_T32 = 2 };
static inline unsigned wet_isa_size(unsigned isa) { return isa == WET_ISA_T16 ? 2 : 4; }
static inline unsigned wet_isa_of(unsigned size, int thumb) { return !thumb ? WET_ISA_A32 : size == 2 ? WET_ISA_T16 : WET_ISA_T32; }

struct wet_du {
	uint8_t cond;       /* condition field, 14 = always */
	uint8_t nuse, ndef;
	uint8_t use[WET_DU_MAX], def[WET_DU_MAX]; /* logical registers, no duplicates */
	/* M-profile special registers (WET_SYS_*) an MRS reads, an MSR or CPS
	 * writes (WET.md "Cortex-M7"): locations of the M7 register model
	 * only, never register results; the A target's builder ignores them */
	uint8_t nsuse, nsdef;
	uint8_t suse[2], sdef[2];
};

/* M-profile special registers (SYSm of MRS/MSR, ARMv7-M). */
enum { WET_SYS_MSP = 0, WET_SYS_PSP, WET_SYS_PRIMASK, WET_SYS_BASEPRI, WET_SYS_FAULTMASK, WET_SYS_CONTROL };

struct wet_decoder;
/* Returns 0 or -1 (the shared decoder, formats/armdec.h, could not be opened / out of memory). */
int wet_decoder_open(struct wet_decoder **d);
void wet_decoder_close(struct wet_decoder *d);
/* Fills DU for the instruction WORD at PC (an undecodable word reads and
 * writes nothing but still has its condition). */
void wet_decode(struct wet_decoder *d, uint32_t pc, uint32_t word, struct wet_du *du);

/* The same for an instruction of SIZE bytes (2 or 4) in Thumb state when
 * THUMB (WORD: its bytes as a little-endian number, as the itrace records
 * it; THUMB = 0 is wet_decode).  A Thumb instruction's condition is not in
 * its word (except a conditional branch's): ITSTATE is the IT state before
 * it (wet_it_next), which gives the condition of an instruction in an IT
 * block and tells a 16-bit data-processing instruction that it does not
 * set the flags there.  IT instructions themselves read and write nothing
 * (the IT state is not a location) and are never handed to Capstone, whose
 * Thumb decoder would carry their IT state into the next decodes. */
void wet_decode_isa(struct wet_decoder *d, uint32_t pc, uint32_t word, unsigned size, int thumb, unsigned itstate,
		    struct wet_du *du);
/* The condition field of an instruction (WORD, SIZE, THUMB, ITSTATE as
 * above): A32, bits 31:28; Thumb, the IT state's when in an IT block, a
 * conditional branch's (B<c> T1, T3), else 14.  wet_decode_isa's cond. */
unsigned wet_cond_isa(uint32_t word, unsigned size, int thumb, unsigned itstate);
/* The IT state after an instruction (WORD, SIZE, THUMB as above) executed
 * with IT state IT (ARMv7-A ITAdvance; an IT instruction starts a block).
 * The replayed CPSR does not show it reliably (the emulator keeps it
 * apart within a translated block), so a walker tracks it from 0. */
unsigned wet_it_next(unsigned it, uint32_t word, unsigned size, int thumb);

/* The IT state as a walker of the run tracks it (WET.md, "Thumb"): IT
 * before the next instruction; SAVED, the IT state an interrupt entry
 * saved with SPSR_irq, and EPC that entry's return address.  An entry
 * clears IT; an instruction advances it (wet_it_next), and one that leaves
 * IRQ mode (CPSR_BEFORE's mode IRQ, CPSR_AFTER's not: the handler's
 * return) restores the saved state.  The builder's two passes and the
 * reference test track it alike.  Where that rule would be a guess the
 * tracker says so, for the builder to refuse.  After a step that restored
 * a state other than 0, CHECK is set: the next record must be at EPC (the
 * handler left IRQ mode by returning, not by switching modes), an
 * instruction there or another entry with that EPC.  wet_itk_irq returns
 * -1 for an entry while the state saved by an earlier one is not 0 and not
 * yet restored (a nested interrupt over an interrupted IT block: one
 * SPSR_irq copy is modelled) or that CHECK finds at another EPC. */
struct wet_itk {
	unsigned it, saved;
	uint32_t epc;
	int pending, check;
};
static inline int wet_itk_irq(struct wet_itk *k, uint32_t epc)
{
	int nested = (k->pending && k->saved) || (k->check && epc != k->epc);
	k->check = 0;
	k->saved = k->it;
	k->epc = epc;
	k->pending = 1;
	k->it = 0;
	return nested ? -1 : 0;
}
static inline void wet_itk_step(struct wet_itk *k, uint32_t word, unsigned size, int thumb, uint32_t cpsr_before,
				uint32_t cpsr_after)
{
	k->it = wet_it_next(k->it, word, size, thumb);
	k->check = 0;
	if ((cpsr_before & 0x1f) == 0x12 && (cpsr_after & 0x1f) != 0x12) {
		k->it = k->saved;
		k->check = k->pending && k->saved;
		k->pending = 0;
	}
}

/* True when condition COND holds for CPSR. */
int wet_cond_passed(unsigned cond, uint32_t cpsr);
/* Physical location (0 .. WET_NPHYS-1) of logical register R in the mode of CPSR. */
unsigned wet_phys(unsigned r, uint32_t cpsr);

/* The Cortex-M7 register model (WET.md "Cortex-M7"): physical location of
 * logical register R when the stack in use is the PSP (PSP set) or the MSP:
 * r0-r12, MSP 13, LR 14 (not banked), PSP 15, the flags (APSR) 25; and of
 * special register S (WET_SYS_*): MSP 13, PSP 15, PRIMASK 26, BASEPRI 27,
 * FAULTMASK 28, CONTROL 29.  The stack in use: PSP in thread mode (xPSR's
 * IPSR 0) with CONTROL.SPSEL (bit 1) set, else MSP. */
static inline unsigned wet_phys_m(unsigned r, int psp)
{
	if (r < 13 || r == 14)
		return r;
	if (r == 13)
		return psp ? 15 : 13;
	return 25; /* the flags (an SPSR does not exist: no M-profile instruction names one) */
}
static inline unsigned wet_phys_sys(unsigned s)
{
	static const uint8_t slot[6] = {13, 15, 26, 27, 28, 29};
	return slot[s];
}
static inline int wet_m7_psp(uint32_t xpsr, uint32_t control)
{
	return !(xpsr & 0x1ff) && (control & 2);
}

#endif
