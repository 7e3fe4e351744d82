/* The Cortex-M7 part of the IMS/AES replayer (REPLAY.md, "The Cortex-M7";
 * capture/TARGET-M7.md): citcat's exception model (machine/m7exc.c) driven
 * call for call as the capture model drives it (capture/target_m7.c), its
 * stacking and unstacking through the replayer's memory system, and the
 * oracle's exception-entry records.  Internal to replay.c. */
#ifndef CITCAT_REPLAY_M7_H
#define CITCAT_REPLAY_M7_H

#include "replay_int.h"
#include "ims.h"
#include "m7entry.h"
#include "m7exc.h"

/* What the replayer does for the M7 part (CTX is its own context). */
struct replay_m7_ops {
	void (*close)(void *ctx);                                   /* close the record being built */
	void (*emit)(void *ctx, const struct citcat_itrace_rec *r); /* write a record (itrace, oracle) */
	/* whether the recorded end is this fault (it then ends the run): 1 yes */
	int (*fault)(void *ctx, unsigned kind, uint32_t pc, uint32_t addr);
	void *ctx;
	/* optional (the LVT decoder): LOAD serves a 4-byte read of the model
	 * (vector, unstacking) after its D-cache access, filling RAM and *V,
	 * 0 or -1 (the run failed); STORE follows a stacking write's */
	int (*load)(void *ctx, uint32_t addr, uint32_t *v);
	void (*store)(void *ctx, uint32_t addr);
	/* retire the condition-failed instructions of an IT block before A, as
	 * the replayer's code hook does (an IBUSERR inside a block) */
	void (*skipped)(void *ctx, uint32_t a);
	/* optional (a replay session, replay_sess.h): each 4-byte access the
	 * model makes to RAM, before a write is made */
	void (*access)(void *ctx, uint32_t addr, int write);
};

struct replay_m7 {
	struct m7exc exc;
	struct replay_core *c;
	struct replay_m7_ops ops;
	struct m7entry entry;           /* the entry record being collected (m7_bus) */
	int ckpt;                       /* the start point is a checkpoint (its SCS state loaded) */
};

/* The engine for the M7 (core_open_m7, the device window served by READ and
 * WRITE, the SCS by SCS_READ and SCS_WRITE, all with context CTX), the hooks
 * H plus INVALID, the exception model, and the registers at P from the
 * 23-slot dump REGS (TARGET-M7.md).  Refuses (CITCAT_ERR_UNSUPPORTED) a
 * start point in handler mode: the replay starts with nothing active or
 * pending (REPLAY.md).  Returns 0 or the error (recorded in C). */
int replay_m7_open(struct replay_m7 *m, struct replay_core *c, const char *ims_path, uint32_t dev_base,
		   uint32_t dev_size, uc_cb_mmio_read_t read, uc_cb_mmio_write_t write, uc_cb_mmio_read_t scs_read,
		   uc_cb_mmio_write_t scs_write, const struct core_hooks *h, uc_cb_hookinsn_invalid_t invalid, void *ctx,
		   const struct arm_state *regs);

/* Sets the registers of the engine UC to the M7 dump REGS: r0-r12, MSP,
 * PSP, PRIMASK, BASEPRI, FAULTMASK, CONTROL written from handler mode
 * (QEMU's MSR ignores them unprivileged), then xPSR (the mode, and SP per
 * CONTROL.SPSEL), LR and PC.  Returns 0, -1 for a Unicorn error, or 1 when
 * the resulting SP is not the dumped SP (an inconsistent dump). */
int replay_m7_set_state(uc_engine *uc, const struct arm_state *regs);

/* The recorded asynchronous exception EXC at the boundary before A: the
 * CAT's EXC event (for --verify), the entry through m7exc_enter, its
 * oracle record.  Returns 1 taken, 0 failed (recorded). */
int replay_m7_enter(struct replay_m7 *m, int exc, uint32_t a);

/* Unicorn's interrupt hook on the M7: svc (2), bkpt (7), EXC_RETURN (8). */
void replay_m7_intr(struct replay_m7 *m, uint32_t intno);

/* An access of TYPE to the unmapped address ADDR (UC_HOOK_MEM_UNMAPPED),
 * as the capture's hook_unmapped_m7: a data access (PRECISERR) or an
 * instruction fetch (IBUSERR, the instruction at PC) outside an IT block is
 * a BusFault, taken now (C->resume tells replay_run to go on at the
 * handler), or the recorded end when it cannot be taken.  Returns 1 when
 * handled so, 0 for the caller's A-target handling (inside an IT block). */
int replay_m7_unmapped(struct replay_m7 *m, uc_mem_type type, uint32_t addr);

/* A device window write of SIZE bytes at offset OFF, before anything else
 * is done with it: a 4-byte aligned write to a register no device accepts
 * (target_dev_writable, the capture's table), or of another size than 4
 * bytes or unaligned, is dropped by the M7's bus as in the capture, an
 * imprecise BusFault pending in the model (m7exc_imprecise): returns 1 and
 * the caller records nothing; so is any write after a precise fault of the
 * same instruction (nothing pending).  0 for every other write. */
int replay_m7_dev_write_dropped(struct replay_m7 *m, uint32_t off, unsigned size);

/* Precise device and SCS bus errors (TARGET-M7.md, "BusFault (device and
 * SCS bus errors)"), decided as the capture decides them, from the static
 * device table (target_dev_readable) and the model's SCS map:
 *  - replay_m7_dev_read_fault: a read of SIZE bytes at device window
 *    offset OFF (address ADDR) that no device serves, or not 4 bytes
 *    aligned, or any read after such an error of the same instruction;
 *  - replay_m7_scs_read_fault: an SCS read m7exc_scs_read refuses (or after
 *    such an error);
 *  - replay_m7_scs_write_fault: an SCS write the model refused.
 * Each notes the fault (m7exc_precise_note) and returns 1 (for a read, *V
 * is the value to give Unicorn; the caller records nothing and consumes no
 * input), or 0 (inside an IT block, after the run ended: the caller goes on
 * as before).  replay_m7_precise_take, first thing in the next code hook or
 * unmapped-access hook, restores the registers and takes the BusFault;
 * returns 1 when there was one (the hook returns). */
int replay_m7_precise_on(const struct replay_m7 *m);
int replay_m7_dev_read_fault(struct replay_m7 *m, uint32_t off, unsigned size, uint32_t addr, uint64_t *v);
int replay_m7_scs_read_fault(struct replay_m7 *m, uint32_t off, unsigned size, uint64_t *v);
int replay_m7_scs_write_fault(struct replay_m7 *m, uint32_t off);
int replay_m7_precise_take(struct replay_m7 *m);

/* An undefined instruction (UsageFault UNDEFINSTR).  Returns whether
 * Unicorn goes on. */
int replay_m7_invalid(struct replay_m7 *m);

/* Before an SCS write: the model's register write (TARGET-M7.md, SCB ...),
 * made first as in the capture.  Returns 0, or -1 when the SCS refuses it
 * (a bus error, which the caller checks against the recorded end). */
int replay_m7_scs_write(struct replay_m7 *m, uint32_t off, unsigned size, uint32_t v);

/* A read of an SCS configuration register the replay depends on (VTOR,
 * AIRCR, CCR, SHPR1-3, the SHCSR fault enables, IPR0-7) took the recorded
 * value V: when the model holds another, reports the divergence ("SCS
 * state").  The register was then set before the trace start point, where
 * the replay cannot see it (REPLAY.md, "The Cortex-M7"), or, for a segment
 * that starts at a checkpoint (M->ckpt), the checkpoint's SCS state does
 * not hold it. */
void replay_m7_scs_check(struct replay_m7 *m, uint32_t off, unsigned size, uint32_t v);

#endif
