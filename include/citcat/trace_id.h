/* libcitcat public API: the trace id, which names one traced interval of
 * one capture.  The IMS and the AES extracted from the same CAT carry the
 * same id, so a mismatched pair is caught before a replay. */
#ifndef CITCAT_PUBLIC_TRACE_ID_H
#define CITCAT_PUBLIC_TRACE_ID_H

#include <citcat/base.h>
#include <citcat/cat.h>

#ifdef __cplusplus
extern "C" {
#endif

struct citcat_trace_id {
	uint64_t hash;  /* XXH64 of the CAT's configuration, P and its totals */
	uint32_t start_pc; /* P */
	uint64_t insns; /* instructions in the traced interval */
};

/* The trace id of a CAT: a hash of its configuration, P, the STOP totals
 * and every event of the traced interval (so runs that differ only in their
 * device inputs differ too).  Feed each event from SYNC to STOP, in order,
 * through citcat_trace_hash_event starting from 0 (it returns the new
 * hash; H unchanged for a NULL EV), then make the id (no effect when CFG or
 * ID is NULL). */
CITCAT_API uint64_t citcat_trace_hash_event(uint64_t h, const struct citcat_cat_event *ev);
CITCAT_API void citcat_trace_id_make(const struct citcat_target_config *cfg, uint32_t start_pc, uint64_t insns,
				     uint64_t branches, uint64_t events_hash, struct citcat_trace_id *id);

#ifdef __cplusplus
}
#endif

#endif
