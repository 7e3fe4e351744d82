/* The initial machine state (IMS): the registers at the trace start point P,
 * the memory the traced run reads as it was at P, and the target
 * configuration.  Extracted from a CAT (`citcat ims`), consumed by the
 * replayer.  Byte layout: IMS.md beside this file. */
#ifndef CITCAT_IMS_H
#define CITCAT_IMS_H

#include "armcore.h"
#include "cat.h"
#include "citcat.h"
#include "image.h"

#define CITCAT_IMS_VERSION 2 /* readers accept this version only (IMS.md, Version changes) */
/* Bytes of IMS metadata (IMS.md). */
#define CITCAT_IMS_META_LEN (CITCAT_TARGET_META_LEN + 20 + 4 * ARM_SLOTS + 8)

/* Identifies one traced interval of one capture; the IMS and AES extracted
 * from the same CAT carry the same id, so a mismatched pair is caught. */
struct citcat_trace_id {
	uint64_t hash;  /* XXH64 of the CAT's configuration, P and its totals */
	uint32_t start_pc; /* P */
	uint64_t insns; /* instructions in the traced interval */
};

struct citcat_ims {
	struct citcat_target_config cfg;
	struct citcat_trace_id id;
	struct arm_state regs;        /* slot order, TARGET.md */
	uint32_t repl_state[2];       /* I-, D-cache random-replacement generator at P (0 unless random) */
	struct citcat_image *memory;  /* bytes known at P (owned) */
};

/* Extraction statistics. */
struct citcat_ims_stats {
	uint64_t lines_filled;     /* distinct lines whose first appearance was a fill */
	uint64_t bytes_dma_first;  /* bytes written by DMA before any fill showed them */
	uint64_t bytes_write_first;/* bytes written through before any fill showed them */
	uint64_t events;
};

/* Streams through the CAT at CAT_PATH and builds the IMS.  Memory use is
 * bounded by the RAM size, whatever the trace length.  PROGRESS (may be
 * NULL) is called now and then with bytes read / file size and may return
 * non-zero to stop (CITCAT_ERR_INTERRUPTED).  On error fills ERR. */
int citcat_ims_extract(const char *cat_path, struct citcat_ims *ims, struct citcat_ims_stats *st,
		       int (*progress)(void *ctx, uint64_t done, uint64_t total), void *pctx,
		       struct citcat_errinfo *err);

/* Writes IMS to PATH (temporary name, renamed when complete). */
int citcat_ims_write(const struct citcat_ims *ims, const char *path, struct citcat_errinfo *err);
/* Reads an IMS file; on error fills ERR (file offset and message). */
int citcat_ims_read(const char *path, struct citcat_ims *ims, struct citcat_errinfo *err);
int citcat_ims_read_mem(const void *buf, size_t len, struct citcat_ims *ims, struct citcat_errinfo *err);
/* Streams an IMS without loading its memory: reads and checks the metadata
 * into IMS (whose MEMORY stays NULL), then calls RUN with each memory run in
 * file order (DATA valid during the call).  A negative code from RUN
 * stops the read and is returned (ERR then names the run's position).
 * Memory stays bounded by one chunk. */
typedef int (*citcat_ims_run_fn)(void *ctx, uint64_t addr, const uint8_t *data, size_t n);
int citcat_ims_read_runs(const char *path, struct citcat_ims *ims, citcat_ims_run_fn run, void *ctx,
			 struct citcat_errinfo *err);
/* Releases what an IMS owns (not the struct itself). */
void citcat_ims_fini(struct citcat_ims *ims);

/* The trace id of a CAT: a hash of its configuration, P, the STOP totals
 * and every event of the traced interval (so runs that differ only in their
 * device inputs differ too).  Feed each event from SYNC to STOP, in order,
 * through citcat_trace_hash_event starting from 0, then make the id. */
uint64_t citcat_trace_hash_event(uint64_t h, const struct citcat_cat_event *ev);
void citcat_trace_id_make(const struct citcat_target_config *cfg, uint32_t start_pc, uint64_t insns,
			  uint64_t branches, uint64_t events_hash, struct citcat_trace_id *id);

#endif
