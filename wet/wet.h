/* Whole execution traces (Zhang & Gupta, MICRO 2004) at the machine-
 * instruction level: one file holding a replayed run's control flow (node
 * executions with timestamps), register results, memory addresses and
 * values, and data dependences, every stream compressed with bidirectional
 * predictors so that queries walk it forwards or backwards in bounded
 * memory.  Byte layout and semantics: WET.md beside this file.
 *
 * Instances are numbered by INDEX, the instruction's position among the
 * instruction records of the itrace (interrupt entries are not counted),
 * from 0.  Timestamps number node executions from 1. */
#ifndef CITCAT_WET_H
#define CITCAT_WET_H

#include "citcat.h"
#include "replay.h"

/* Streams of a WET file, in their order in each segment. */
enum citcat_wet_stream {
	CITCAT_WET_S_NODE,   /* node id per node execution (timestamp) */
	CITCAT_WET_S_COND,   /* 1/0: condition passed, per conditional instruction */
	CITCAT_WET_S_ACCN,   /* number of data accesses, per instruction */
	CITCAT_WET_S_AKIND,  /* size | 0x80 for a write, per access */
	CITCAT_WET_S_AADDR,  /* address, per access; with apat (version 5), per new address of a static access */
	CITCAT_WET_S_AVAL,   /* value (low 32 bits), per access; with avpat (version 5), per new value of a static access */
	CITCAT_WET_S_AVALHI, /* high 32 bits, per 8-byte access */
	CITCAT_WET_S_UVAL,   /* unique register-result tuples of the segment (version 3, tier 1) */
	CITCAT_WET_S_DEPN,   /* number of producers, per instruction */
	CITCAT_WET_S_DEP,    /* per stored producer, nearest first: 2 x INDEX distance (a new label), or 2 x an earlier label of the node execution's ordinal + 1 (version 4) */
	CITCAT_WET_S_CDEP,   /* INDEX distance to the control parent, 0 none, per instruction (version 2) */
	CITCAT_WET_S_VPAT,   /* per node execution and value group: 0 new tuple, else its ordinal + 1 (version 3) */
	CITCAT_WET_S_APAT,   /* version 5, tier 1 for addresses: per access, 0 new address of its static access, else its ordinal + 1; empty when the segment stores aaddr whole */
	CITCAT_WET_S_AVPAT,  /* version 5, the same for the access values (aval) */
	CITCAT_WET_NSTREAMS
};
const char *citcat_wet_stream_name(unsigned s);

/* Node kinds (WET.md, "Model"): Ball-Larus paths of each function's
 * dynamic CFG, or runs of consecutive addresses (basic blocks). */
enum { CITCAT_WET_NODES_PATH = 0, CITCAT_WET_NODES_BB = 1 };

struct citcat_wet_build_config {
	size_t struct_size;   /* sizeof(struct citcat_wet_build_config) */
	const char *ims_path; /* required */
	const char *aes_path; /* required */
	const char *out_path; /* required: the WET file */
	uint32_t seg_insns;   /* instructions per segment (0: 65536) */
	int node_kind;        /* CITCAT_WET_NODES_PATH (default) or CITCAT_WET_NODES_BB */
	int (*progress)(void *ctx, uint64_t insns, uint64_t total);
	void *progress_ctx;
	/* 0: the IMS and AES files' only segment; K + 1: segment K of the IMS
	 * and AES segment bundles of a checkpointed capture (as
	 * citcat_replay_config.segment; WET.md "Checkpointed captures") */
	uint64_t capture_segment;
};
void citcat_wet_build_config_default(struct citcat_wet_build_config *c);

/* Sizes of one stream kind over the whole file. */
struct citcat_wet_stream_size {
	uint64_t values;  /* values in the stream */
	uint64_t bytes;   /* stored (tier-2) bytes */
	uint64_t method[6]; /* blocks per method: FCM, last-n, DFCM, D-last-n, keyed FCM, keyed stride */
};

struct citcat_wet_build_result {
	struct citcat_replay_result replay; /* the replay's result (divergence etc.) */
	uint64_t insns, irqs, node_execs, nodes, segments, deps;
	uint64_t cdeps;  /* instances with a control parent */
	uint64_t local_deps; /* producers inferred from the node (not stored) */
	uint64_t cfg[6]; /* functions, CFG nodes, CFG edges, branches, static control dependences, back edges */
	uint64_t node_stmts; /* statements held by the node table */
	uint64_t regvals;    /* register results of instances whose condition held (before tier 1) */
	uint64_t tuples, groups; /* unique tuples stored (tier 1); value groups of the node table */
	uint64_t file_bytes, graph_bytes, index_bytes;
	struct citcat_wet_stream_size stream[CITCAT_WET_NSTREAMS];
	double seconds;
	uint64_t dep_labels; /* version 4: labels stored for the stored (non-local) producers; the rest share one */
	uint64_t acc_tier1[2]; /* version 5: segments storing the addresses (0) and the access values (1) in tier-1 form */
};

/* Replays IMS + AES and writes the WET.  Returns 0, CITCAT_ERR_DIVERGED
 * (RES->replay.div says where; no file is left) or another error (ERR; for
 * an input file, RES->replay.err_path names it). */
int citcat_wet_build(const struct citcat_wet_build_config *cfg, struct citcat_wet_build_result *res,
		     struct citcat_errinfo *err);

/* ---- reading ---- */
struct citcat_wet;

/* Opens PATH and checks its header, footer, graph and index (each block's
 * checksum is checked when the block is used).  On failure *W may be set
 * so that citcat_wet_error() can be read; close it in every case. */
int citcat_wet_open(struct citcat_wet **w, const char *path);
/* The same on a buffer that outlives the reader (fuzz targets). */
int citcat_wet_open_mem(struct citcat_wet **w, const void *buf, size_t len);
void citcat_wet_close(struct citcat_wet *w);
const struct citcat_errinfo *citcat_wet_error(const struct citcat_wet *w);

struct citcat_wet_info {
	uint64_t insns, node_execs, irqs, nodes, segments, file_bytes;
	struct citcat_wet_stream_size stream[CITCAT_WET_NSTREAMS];
};
void citcat_wet_info(const struct citcat_wet *w, struct citcat_wet_info *info);

/* One instruction instance, as the walker delivers it. */
struct citcat_wet_insn {
	uint64_t index;     /* INDEX */
	uint64_t ts;        /* timestamp of its node execution */
	uint32_t pc, word;
	int executed;       /* condition passed */
	uint32_t n_acc;
	struct { uint32_t addr; uint8_t size, write; uint64_t value; } acc[64];
	uint32_t n_dep;
	uint64_t dep[256];  /* producers' INDEX, nearest first */
	int has_ctrl;       /* it has a control parent (read with CITCAT_WET_W_DEP) */
	uint64_t ctrl;      /* the control parent's INDEX */
	uint32_t n_val;
	uint32_t val[24];   /* register results, in def order */
	uint8_t size, thumb; /* the instruction's size (2 or 4) and state (1: Thumb) */
	uint8_t itstate;    /* the IT state before it (Thumb; 0 outside IT blocks) */
};

/* What a walk needs: the control flow always; the rest on request. */
enum { CITCAT_WET_W_ACC = 1, CITCAT_WET_W_DEP = 2, CITCAT_WET_W_VAL = 4 };

/* Walks the instances with timestamps in [T1, T2] (0, UINT64_MAX: all)
 * forwards or BACKWARD, or those with INDEX in [I1, I2] when BY_INDEX,
 * calling CB for each; CB returns non-zero to stop (that value is
 * returned).  PROGRESS (may be NULL) is called per segment.  Returns 0,
 * CB's value, or an error (details in citcat_wet_error). */
struct citcat_wet_walk {
	int backward, by_index, what;
	uint64_t from, to;
	int (*cb)(void *ctx, const struct citcat_wet_insn *in);
	void *ctx;
	int (*progress)(void *ctx, uint64_t done, uint64_t total);
	void *progress_ctx;
};
int citcat_wet_walk(struct citcat_wet *w, const struct citcat_wet_walk *walk);

/* Backward or forward WET slice of instance INDEX (through data and
 * control dependences): calls CB for every
 * instance of the slice (INDEX included), in descending INDEX order for a
 * backward slice, ascending for a forward one.  Returns 0, CB's non-zero
 * value, or an error. */
int citcat_wet_slice(struct citcat_wet *w, uint64_t index, int forward,
		     int (*cb)(void *ctx, const struct citcat_wet_insn *in), void *ctx,
		     int (*progress)(void *ctx, uint64_t done, uint64_t total), void *progress_ctx);

#endif
