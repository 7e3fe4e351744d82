/* The IMS file format (IMS.md beside this file): its reader and writer.
 * Internal header: the public API is <citcat/ims.h> (and the trace id,
 * <citcat/trace_id.h>); this adds the metadata size, the register-slot
 * names of the Cortex-M7 and the reader and writer under the check that
 * needs the exception model.  The extraction that builds an IMS from a CAT,
 * and the public reader and writer calls that add the exception model's
 * check, are ims/ (ims.h). */
#ifndef CITCAT_IMSFILE_H
#define CITCAT_IMSFILE_H

#include <citcat/ims.h>
#include <citcat/trace_id.h>

#include "armslots.h"
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
/* The file's magic (IMS.md), of a single IMS and of a segment bundle. */
#define CITCAT_IMS_MAGIC "CIMS\r\n\x1a\n"

/* The check of a Cortex-M7 IMS's SCS slots 23..38 (IMS.md, "The
 * Cortex-M7") that needs the exception model: called only when they are
 * not all 0 and the segment starts in the checkpoint's NMI (IPSR = 2), which
 * the format checks itself.  Returns -1 when they are fine, else the first
 * bad slot with *WHY.  ims/ims.c passes the exception model's (machine/m7exc.c). */
typedef int (*citcat_ims_scs_check_fn)(const struct citcat_ims *ims, const char **why);

/* Streams an IMS without loading its memory: reads and checks the metadata
 * into IMS (whose MEMORY stays NULL), then calls RUN with each memory run in
 * file order (DATA valid during the call).  A negative code from RUN
 * stops the read and is returned (ERR then names the run's position).
 * Memory stays bounded by one chunk.  The format's checks only: the SCS
 * slots' check of the exception model (citcat_ims_scs_check_fn) is not made. */
typedef int (*citcat_ims_run_fn)(void *ctx, uint64_t addr, const uint8_t *data, size_t n);
int citcat_ims_read_runs(const char *path, struct citcat_ims *ims, citcat_ims_run_fn run, void *ctx,
			 struct citcat_errinfo *err);

/* citcat_ims_write (<citcat/ims.h>) with the SCS slots checked by CHECK
 * (NULL: by the format's rule only). */
int citcat_ims_file_write(const struct citcat_ims *ims, const char *path, citcat_ims_scs_check_fn check,
			  struct citcat_errinfo *err);
/* Reads segment K of PATH (or of the LEN bytes at BUF when PATH is NULL);
 * K = UINT64_MAX: the file's only segment.  Each memory run goes to RUN
 * (into IMS's own image when RUN is NULL); the SCS slots are checked by
 * CHECK (NULL: by the format's rule only).  The public readers of
 * <citcat/ims.h> are this with the exception model's check. */
int citcat_ims_file_read(const char *path, const void *buf, size_t len, uint64_t k, struct citcat_ims *ims,
			 citcat_ims_run_fn run, void *ctx, citcat_ims_scs_check_fn check, struct citcat_errinfo *err);

#endif
