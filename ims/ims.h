/* The initial machine state (IMS).  Byte layout: IMS.md beside this file.
 * Internal header: the public API is <citcat/ims.h> (and the trace id,
 * <citcat/trace_id.h>); this adds the metadata size and the register-slot
 * names of the ARM core. */
#ifndef CITCAT_IMS_H
#define CITCAT_IMS_H

#include <citcat/ims.h>
#include <citcat/trace_id.h>

#include "armcore.h"
#include "cat.h"
#include "citcat.h"
#include "image.h"

/* The Cortex-M7's register dump (configuration isa 2, capture/TARGET-M7.md):
 * the first 23 of the 39 slots, the others 0 in the IMS (IMS.md). */
enum {
	CITCAT_ISA_M7 = 2,
	M7_SLOT_SP = 13, M7_SLOT_LR = 14, M7_SLOT_PC = 15, M7_SLOT_XPSR = 16, M7_SLOT_MSP = 17, M7_SLOT_PSP = 18,
	M7_SLOT_PRIMASK = 19, M7_SLOT_BASEPRI = 20, M7_SLOT_FAULTMASK = 21, M7_SLOT_CONTROL = 22,
	M7_SLOTS = 23,
	/* a segment that starts at a checkpoint (TARGET-M7.md, "Checkpoints"):
	 * slots 23..38 hold the SCS registers of m7exc_ckpt_regs */
	M7_SLOT_SCS = 23, M7_CKPT_SLOTS = 39
};

/* The register slots the dump of ISA fills at P: 23 on the M7, 39
 * otherwise (at a checkpoint the M7 fills 39: M7_CKPT_SLOTS). */
static inline int citcat_ims_nslots(uint32_t isa) { return isa == CITCAT_ISA_M7 ? M7_SLOTS : ARM_SLOTS; }
/* The slots the driver of ISA writes before DUMP_DONE: 23 on the M7, 40 on
 * the ARMv7-A core (the 39 registers and SCTLR, slot 39). */
static inline int citcat_ims_dump_slots(uint32_t isa) { return isa == CITCAT_ISA_M7 ? M7_SLOTS : ARM_DUMP_SLOTS; }

/* Bytes of IMS metadata (IMS.md): configuration, trace id, registers, the
 * two generator states, SCTLR. */
#define CITCAT_IMS_META_LEN (CITCAT_TARGET_META_LEN + 20 + 4 * ARM_SLOTS + 8 + 4)
/* Where SCTLR lies in the metadata (file offset: 16 more). */
#define CITCAT_IMS_META_SCTLR (CITCAT_IMS_META_LEN - 4)

/* Streams an IMS without loading its memory: reads and checks the metadata
 * into IMS (whose MEMORY stays NULL), then calls RUN with each memory run in
 * file order (DATA valid during the call).  A negative code from RUN
 * stops the read and is returned (ERR then names the run's position).
 * Memory stays bounded by one chunk. */
typedef int (*citcat_ims_run_fn)(void *ctx, uint64_t addr, const uint8_t *data, size_t n);
int citcat_ims_read_runs(const char *path, struct citcat_ims *ims, citcat_ims_run_fn run, void *ctx,
			 struct citcat_errinfo *err);
#endif
