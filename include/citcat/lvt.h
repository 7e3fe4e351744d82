/* libcitcat public API: what a first-access load-value trace (LVT,
 * formats/LVT.md) file tells without the program: its target
 * configuration, where its traced interval starts and how it stopped, the
 * trace module's totals and the container's sizes.  Decoding it into an
 * instruction trace needs the firmware: citcat_lvt_replay_run in
 * <citcat/replay.h>. */
#ifndef CITCAT_PUBLIC_LVT_H
#define CITCAT_PUBLIC_LVT_H

#include <citcat/base.h>
#include <citcat/capture.h>
#include <citcat/target.h>

#ifdef __cplusplus
extern "C" {
#endif

struct citcat_lvt_info {
	struct citcat_target_config cfg; /* the target the trace was captured on (its D-cache filters) */
	unsigned gran_shift;             /* the first-access flag granule: 0 a byte, 2 a 32-bit word */
	int has_start;                   /* 0: no traced interval (the trace start point was never reached) */
	/* with HAS_START: the PC at the start point, how the interval ended
	 * (0 exit, 1 command, 2 limit: the STOP record's reason) and the trace
	 * module's totals the STOP record carries */
	uint32_t start_pc;
	unsigned stop_reason;
	struct citcat_lvt_stats st;
	uint64_t file_bytes;    /* the file as stored (LZ4 chunks, header, end marker) */
	uint64_t payload_bytes; /* the record stream as the trace port sends it (chunk padding included) */
	uint64_t chunks;
};

/* Reads the LVT at PATH ("-" = stdin) into *INFO (caller-owned).  Reads the
 * whole file (checksums, totals) but decodes only its first and last
 * chunks.  Returns 0, CITCAT_ERR_INVAL for a NULL PATH or INFO, or the
 * error (ERR, may be NULL, says where). */
CITCAT_API int citcat_lvt_info(const char *path, struct citcat_lvt_info *info, struct citcat_errinfo *err);

#ifdef __cplusplus
}
#endif

#endif
