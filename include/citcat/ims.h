/* libcitcat public API: the initial machine state (IMS): the registers at
 * the trace start point P, the memory the traced run reads as it was at P,
 * and the target configuration.  Extracted from a CAT, consumed by the
 * replayer.  Byte layout: IMS.md. */
#ifndef CITCAT_PUBLIC_IMS_H
#define CITCAT_PUBLIC_IMS_H

#include <citcat/base.h>
#include <citcat/image.h>
#include <citcat/target.h>
#include <citcat/trace_id.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CITCAT_IMS_VERSION 4 /* one segment; readers accept this version only (IMS.md, Version changes) */
#define CITCAT_IMS_SEG_VERSION 5 /* a segment bundle: version-4 members behind an index (common/SEGIDX.md) */

/* A full ARM register state in the trace module's register-dump slot order
 * (TARGET.md): r0-r15 (slot 15 = PC), CPSR (16), then the banked SP, LR and
 * SPSR of every mode and r8-r12 of FIQ. */
#define CITCAT_REG_SLOTS 39
/* The slots a state fills (TARGET.md, TARGET-M7.md "Checkpoints"): all 39
 * on the ARMv7-A; on the Cortex-M7 r0-r15, xPSR, MSP, PSP, PRIMASK,
 * BASEPRI, FAULTMASK and CONTROL (23), and at a checkpoint, where a segment
 * may start, the SCS registers in slots 23 to 38 too (39). */
enum {
	CITCAT_IMS_ARM_SLOTS = 39,
	CITCAT_IMS_M7_SLOTS = 23,
	CITCAT_IMS_M7_SLOT_SCS = 23,
	CITCAT_IMS_M7_CKPT_SLOTS = 39
};
struct citcat_regs {
	uint32_t slot[CITCAT_REG_SLOTS];
};

struct citcat_ims {
	struct citcat_target_config cfg;
	struct citcat_trace_id id;
	struct citcat_regs regs;      /* slot order, TARGET.md */
	uint32_t repl_state[2];       /* I-, D-cache random-replacement generator at P (0 unless random) */
	uint32_t sctlr;               /* SCTLR at P, the bits the model follows: TE (bit 30, exceptions
				       * taken in Thumb state) only; every other bit 0, and 0 on the M7 */
	struct citcat_image *memory;  /* bytes known at P (owned; citcat_ims_fini frees it) */
};

/* Extraction statistics. */
struct citcat_ims_stats {
	uint64_t lines_filled;     /* distinct lines whose first appearance was a fill */
	uint64_t bytes_dma_first;  /* bytes written by DMA before any fill showed them */
	uint64_t bytes_write_first;/* bytes written through before any fill showed them */
	uint64_t events;
};

/* Streams through the CAT at CAT_PATH and fills *IMS (caller-owned struct;
 * release what it holds with citcat_ims_fini, also after a failure) and *ST
 * (may be NULL).  Memory use is bounded by the RAM size, whatever the trace
 * length.  PROGRESS (may be NULL) is called now and then with bytes read /
 * file size and may return non-zero to stop (CITCAT_ERR_INTERRUPTED).
 * Returns 0 or an error: CITCAT_ERR_INVAL (NULL CAT_PATH or IMS), the CAT
 * reader's errors, _CORRUPT (no trace start point, an impossible event
 * order); ERR (may be NULL) says which byte of the CAT and why. */
CITCAT_API int citcat_ims_extract(const char *cat_path, struct citcat_ims *ims, struct citcat_ims_stats *st,
				  int (*progress)(void *ctx, uint64_t done, uint64_t total), void *pctx,
				  struct citcat_errinfo *err);
/* The same for segment SEGMENT of a CAT captured with checkpoints
 * (replay/SEGMENTS.md): the state at its start point (SYNC for segment 0,
 * the SEGMENT-th CKPT otherwise), memory from the segment's own first
 * fills, a trace id over the segment's events (start marker to the next
 * CKPT or the STOP) with its own instruction count.  A CAT without
 * checkpoints has one segment, 0, whose IMS equals citcat_ims_extract's.
 * CITCAT_ERR_INVAL when the CAT has no segment SEGMENT. */
CITCAT_API int citcat_ims_extract_segment(const char *cat_path, uint64_t segment, struct citcat_ims *ims,
					  struct citcat_ims_stats *st,
					  int (*progress)(void *ctx, uint64_t done, uint64_t total), void *pctx,
					  struct citcat_errinfo *err);

/* Writes IMS to PATH ("-" = stdout; temporary name, renamed when complete).
 * Returns 0, CITCAT_ERR_INVAL (NULL IMS or PATH), _NOMEM or _IO (ERR says
 * why). */
CITCAT_API int citcat_ims_write(const struct citcat_ims *ims, const char *path, struct citcat_errinfo *err);
/* Reads the IMS file PATH ("-" = stdin), or LEN bytes at BUF, into *IMS
 * (release with citcat_ims_fini, also after a failure).  Returns 0 or an
 * error: CITCAT_ERR_INVAL (NULL argument), _IO, _EMPTY, _MAGIC, _VERSION,
 * _TRUNCATED, _CHECKSUM, _CORRUPT, _LIMIT, _NOMEM; ERR (may be NULL) holds
 * the file offset and a message. */
CITCAT_API int citcat_ims_read(const char *path, struct citcat_ims *ims, struct citcat_errinfo *err);
CITCAT_API int citcat_ims_read_mem(const void *buf, size_t len, struct citcat_ims *ims, struct citcat_errinfo *err);
/* Extracts every segment of the CAT (one for a CAT without checkpoints)
 * into OUT_PATH in one pass: a version-4 IMS when there is one segment, a
 * version-5 segment bundle otherwise (common/SEGIDX.md).  Members go
 * through a scratch directory under $TMPDIR (or /tmp).  *NSEG (may be NULL)
 * gets the segment count.  Errors as citcat_ims_extract, plus _IO. */
CITCAT_API int citcat_ims_extract_all(const char *cat_path, const char *out_path, uint64_t *nseg,
				      struct citcat_ims_stats *st,
				      int (*progress)(void *ctx, uint64_t done, uint64_t total), void *pctx,
				      struct citcat_errinfo *err);
/* citcat_ims_read reads a file's only segment (a bundle of several is
 * CITCAT_ERR_INVAL); these read segment SEGMENT of a bundle (0 of a
 * single-segment file) through its index, without decoding the others. */
CITCAT_API int citcat_ims_read_segment(const char *path, uint64_t segment, struct citcat_ims *ims,
				       struct citcat_errinfo *err);
CITCAT_API int citcat_ims_read_segment_mem(const void *buf, size_t len, uint64_t segment, struct citcat_ims *ims,
					   struct citcat_errinfo *err);
/* The number of segments in the IMS file PATH (1 unless a bundle). */
CITCAT_API int citcat_ims_segments(const char *path, uint64_t *n, struct citcat_errinfo *err);
/* Releases what an IMS owns (not the struct itself), leaving it zeroed.
 * Accepts NULL. */
CITCAT_API void citcat_ims_fini(struct citcat_ims *ims);

#ifdef __cplusplus
}
#endif

#endif
