/* IMS file format: see IMS.md.  The extraction, and the public reader and
 * writer with the exception model's check of the M7's SCS slots, are
 * ims/ims.c. */
#include "imsfile.h"
#include "bytes.h"
#include "cachecfg.h"
#include "container.h"
#include "m7excnum.h"
#include "segidx.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAGIC CITCAT_IMS_MAGIC
#define META_LEN CITCAT_IMS_META_LEN
#define RUN_MAX 4096 /* bytes of memory per record */

void citcat_ims_fini(struct citcat_ims *ims)
{
	if (!ims)
		return;
	citcat_image_free(ims->memory);
	ims->memory = NULL;
}

/* The M7's SCS slots 23..38 (IMS.md, "The Cortex-M7"): all 0 (a segment
 * starting at P), or, in a segment that starts in the checkpoint's NMI
 * (IPSR = 2), registers the exception model reads back as dumped
 * (CHECK, the exception model's: m7exc_load_ckpt, no reserved or read-only
 * bit set; NULL: not checked).  Returns -1 when they are fine, else the
 * first bad slot with *WHY. */
static int m7_scs_check(const struct citcat_ims *ims, citcat_ims_scs_check_fn check, const char **why)
{
	if (ims->cfg.isa != CITCAT_ISA_M7)
		return -1;
	int first = -1;
	for (int k = M7_SLOT_SCS; k < M7_CKPT_SLOTS && first < 0; k++)
		if (ims->regs.slot[k])
			first = k;
	if (first < 0)
		return -1;
	if ((ims->regs.slot[M7_SLOT_XPSR] & 0x1ffu) != M7EXC_NMI) {
		*why = "holds SCS state, but the segment does not start in the checkpoint's NMI (IPSR 2); must be 0";
		return first;
	}
	return check ? check(ims, why) : -1;
}

int citcat_ims_file_write(const struct citcat_ims *ims, const char *path, citcat_ims_scs_check_fn check,
			  struct citcat_errinfo *err)
{
	if (!ims || !path)
		return CITCAT_ERR_INVAL;
	uint8_t meta[META_LEN], *p = meta;
	citcat_target_config_encode(&ims->cfg, p);
	p += CITCAT_TARGET_META_LEN;
	cc_put64(p, ims->id.hash);
	cc_put32(p + 8, ims->id.start_pc);
	cc_put64(p + 12, ims->id.insns);
	p += 20;
	for (int k = 0; k < ARM_SLOTS; k++, p += 4)
		cc_put32(p, ims->regs.slot[k]);
	cc_put32(p, ims->repl_state[0]);
	cc_put32(p + 4, ims->repl_state[1]);
	cc_put32(p + 8, ims->sctlr);
	if (ims->sctlr & ~(ims->cfg.isa == CITCAT_ISA_M7 ? 0u : ARM_SCTLR_TE))
		return citcat_errinfo_set(err, CITCAT_ERR_INVAL, UINT64_MAX,
					  "%s: SCTLR 0x%08x has bits the IMS does not carry (TE only, none on the Cortex-M7)", path,
					  ims->sctlr);
	const char *why;
	int bad = m7_scs_check(ims, check, &why);
	if (bad >= 0)
		return citcat_errinfo_set(err, CITCAT_ERR_INVAL, UINT64_MAX, "%s: Cortex-M7 register slot %d (0x%08x) %s",
					  path, bad, ims->regs.slot[bad], why);
	if (!cache_repl_state_valid(&ims->cfg.icache, ims->repl_state[0]) ||
	    !cache_repl_state_valid(&ims->cfg.dcache, ims->repl_state[1]))
		return citcat_errinfo_set(err, CITCAT_ERR_INVAL, UINT64_MAX,
					  "%s: replacement state does not fit the cache policy (0 unless random)", path);
	struct cc_writer *w;
	int rc = cc_writer_open(&w, path, MAGIC, CITCAT_IMS_VERSION, meta, sizeof meta, 0);
	if (rc)
		return citcat_errinfo_set(err, rc, UINT64_MAX, "%s", cc_writer_open_error()->msg);
	size_t nseg = ims->memory ? citcat_image_segments(ims->memory) : 0;
	uint64_t last_end = 0;
	for (size_t i = 0; i < nseg; i++) {
		uint64_t addr, len;
		const uint8_t *data;
		citcat_image_segment(ims->memory, i, &addr, &len, &data);
		for (uint64_t o = 0; o < len; o += RUN_MAX) {
			uint32_t n = (uint32_t)(len - o < RUN_MAX ? len - o : RUN_MAX);
			uint8_t *b = cc_writer_reserve(w, 2 * CC_UVAR_MAX + n);
			if (!b) {
				rc = cc_writer_error(w)->code;
				cc_writer_abort(w);
				return citcat_errinfo_set(err, rc, UINT64_MAX, "writing %s failed", path);
			}
			/* Chunks decode alone: the first run of a chunk is relative to 0. */
			if (cc_writer_chunk_used(w) == 0)
				last_end = 0;
			uint8_t *q = b;
			q += cc_put_uvar(q, addr + o - last_end);
			q += cc_put_uvar(q, n);
			memcpy(q, data + o, n);
			q += n;
			last_end = addr + o + n;
			cc_writer_commit(w, (size_t)(q - b), 1);
		}
	}
	rc = cc_writer_close(w);
	if (rc)
		return citcat_errinfo_set(err, rc, UINT64_MAX, "writing %s failed: %s", path, rc == CITCAT_ERR_IO ? strerror(errno) : citcat_errstr(rc));
	return 0;
}

static int add_run(void *ctx, uint64_t addr, const uint8_t *data, size_t n)
{
	return citcat_image_add(ctx, addr, data, n);
}

/* Reads and checks the metadata into IMS (the SCS slots with CHECK), then
 * hands each memory run to RUN (into IMS's own image when RUN is NULL). */
static int ims_load(struct cc_reader *r, struct citcat_ims *ims, citcat_ims_run_fn run, void *ctx,
		    citcat_ims_scs_check_fn check, struct citcat_errinfo *err)
{
	memset(ims, 0, sizeof *ims);
	if (cc_reader_version(r) != CITCAT_IMS_VERSION) /* 1 lacks the generators, 2 and 3 SCTLR (IMS.md) */
		return citcat_errinfo_set(err, CITCAT_ERR_VERSION, 8,
					  "format version %u is not supported (this build reads IMS version %u and segment bundles "
					  "of version %u only; extract again from a new capture)",
					  cc_reader_version(r), CITCAT_IMS_VERSION, CITCAT_IMS_SEG_VERSION);
	uint32_t ml;
	const uint8_t *m = cc_reader_meta(r, &ml);
	const char *why = NULL;
	if (ml != META_LEN)
		return citcat_errinfo_set(err, CITCAT_ERR_CORRUPT, 12, "IMS metadata is %u bytes, expected %u", ml, (unsigned)META_LEN);
	int roff = citcat_target_config_reserved(m, &why);
	int rc = citcat_target_config_decode(m, ml, &ims->cfg, &why);
	if (rc)
		return citcat_errinfo_set(err, rc, 16 + (roff >= 0 ? (unsigned)roff : 0), "IMS configuration: %s", why);
	const uint8_t *p = m + CITCAT_TARGET_META_LEN;
	ims->id.hash = cc_get64(p);
	ims->id.start_pc = cc_get32(p + 8);
	ims->id.insns = cc_get64(p + 12);
	p += 20;
	const uint8_t *slot0 = p;
	for (int k = 0; k < ARM_SLOTS; k++, p += 4)
		ims->regs.slot[k] = cc_get32(p);
	int bad = m7_scs_check(ims, check, &why); /* the M7's slots 23..38: 0, or a checkpoint's SCS state */
	if (bad >= 0)
		return citcat_errinfo_set(err, CITCAT_ERR_CORRUPT, 16 + (uint64_t)(slot0 + 4 * bad - m),
					  "IMS register slot %d is 0x%08x on the Cortex-M7: it %s", bad, ims->regs.slot[bad], why);
	for (int k = 0; k < 2; k++, p += 4) {
		const struct citcat_cache_config *cc = k ? &ims->cfg.dcache : &ims->cfg.icache;
		ims->repl_state[k] = cc_get32(p);
		if (!cache_repl_state_valid(cc, ims->repl_state[k]))
			return citcat_errinfo_set(err, CITCAT_ERR_CORRUPT, 16 + (uint64_t)(p - m),
						  "IMS %s-cache replacement state 0x%08x: %s", k ? "D" : "I", ims->repl_state[k],
						  cc->repl == CITCAT_REPL_RANDOM ? "0 is impossible for random replacement"
										 : "must be 0 without random replacement");
	}
	ims->sctlr = cc_get32(p);
	if (ims->sctlr & ~(ims->cfg.isa == CITCAT_ISA_M7 ? 0u : ARM_SCTLR_TE))
		return citcat_errinfo_set(err, CITCAT_ERR_CORRUPT, 16 + (uint64_t)(p - m),
					  "IMS SCTLR 0x%08x: %s", ims->sctlr,
					  ims->cfg.isa == CITCAT_ISA_M7 ? "must be 0 on the Cortex-M7 (it has no SCTLR)"
									: "reserved bits set (only TE, bit 30, may be 1)");
	if (!run) {
		if ((rc = citcat_image_alloc(&ims->memory)))
			return citcat_errinfo_set(err, rc, UINT64_MAX, "out of memory");
		run = add_run;
		ctx = ims->memory;
	}
	const uint8_t *data;
	size_t len;
	uint32_t nrec;
	uint64_t ram_end = (uint64_t)ims->cfg.ram_base + ims->cfg.ram_size;
	while ((rc = cc_reader_next_chunk(r, &data, &len, &nrec)) == 1) {
		const uint8_t *q = data, *end = data + len;
		uint64_t last_end = 0, gap, n;
		uint32_t k = 0;
		while (q < end) {
			const uint8_t *start = q;
			if (cc_get_uvar(&q, end, &gap) || cc_get_uvar(&q, end, &n) || n == 0 || n > RUN_MAX ||
			    (uint64_t)(end - q) < n) {
				rc = cc_reader_fail(r, CITCAT_ERR_CORRUPT, (size_t)(start - data), "IMS memory run malformed");
				break;
			}
			uint64_t addr = last_end + gap;
			if (addr < last_end || addr < ims->cfg.ram_base || addr + n > ram_end) {
				rc = cc_reader_fail(r, CITCAT_ERR_CORRUPT, (size_t)(start - data),
						    "IMS memory run at 0x%llx lies outside RAM", (unsigned long long)addr);
				break;
			}
			if ((rc = run(ctx, addr, q, (size_t)n))) {
				if (!cc_reader_error(r)->code)
					cc_reader_fail(r, rc, (size_t)(start - data), "stopped at the memory run at 0x%llx",
						       (unsigned long long)addr);
				break;
			}
			q += n;
			last_end = addr + n;
			k++;
		}
		if (rc < 0)
			break;
		if (k != nrec) {
			rc = cc_reader_fail(r, CITCAT_ERR_CORRUPT, len, "chunk holds %u runs, header says %u", k, nrec);
			break;
		}
	}
	if (rc < 0) {
		if (err)
			*err = *cc_reader_error(r);
		citcat_ims_fini(ims);
		return rc;
	}
	return 0;
}

/* imsfile.h */
int citcat_ims_file_read(const char *path, const void *buf, size_t len, uint64_t k, struct citcat_ims *ims,
			 citcat_ims_run_fn run, void *ctx, citcat_ims_scs_check_fn check, struct citcat_errinfo *err)
{
	memset(ims, 0, sizeof *ims); /* citcat_ims_fini is right after a failure too */
	struct cc_segidx *sx = NULL;
	struct cc_reader *r = NULL;
	int rc = path ? cc_segidx_open(&sx, path, MAGIC, CITCAT_IMS_SEG_VERSION, err)
		      : cc_segidx_open_mem(&sx, buf, len, MAGIC, CITCAT_IMS_SEG_VERSION, err);
	if (rc)
		return rc;
	uint64_t base = 0;
	if (!sx) { /* a single-segment file, read by path as it is */
		if (k != UINT64_MAX && k != 0)
			return citcat_errinfo_set(err, CITCAT_ERR_INVAL, UINT64_MAX, "the file holds 1 segment, no segment %llu",
						  (unsigned long long)k);
		rc = cc_reader_open(&r, path, MAGIC, CITCAT_IMS_VERSION);
	} else {
		const uint8_t *p;
		size_t n;
		struct cc_segidx_entry e;
		if (k == UINT64_MAX && cc_segidx_count(sx) != 1) {
			rc = citcat_errinfo_set(err, CITCAT_ERR_INVAL, UINT64_MAX,
						"the file holds %llu segments: choose one (--segment K, or replay --jobs)",
						(unsigned long long)cc_segidx_count(sx));
			cc_segidx_close(sx);
			return rc;
		}
		if ((rc = cc_segidx_member(sx, k == UINT64_MAX ? 0 : k, &p, &n, &e, err))) {
			cc_segidx_close(sx);
			return rc;
		}
		base = e.offset;
		rc = cc_reader_open_mem(&r, p, n, MAGIC, CITCAT_IMS_VERSION);
	}
	if (!rc)
		rc = ims_load(r, ims, run, ctx, check, err);
	else if (err && r)
		*err = *cc_reader_error(r);
	cc_reader_close(r);
	cc_segidx_close(sx);
	if (rc && err && err->offset != UINT64_MAX)
		err->offset += base; /* the member's offsets are the file's minus its start */
	return rc;
}

int citcat_ims_segments(const char *path, uint64_t *n, struct citcat_errinfo *err)
{
	if (!path || !n)
		return CITCAT_ERR_INVAL;
	return cc_segidx_segments(path, MAGIC, CITCAT_IMS_SEG_VERSION, n, err);
}

int citcat_ims_read_runs(const char *path, struct citcat_ims *ims, citcat_ims_run_fn run, void *ctx,
			 struct citcat_errinfo *err)
{
	if (!run)
		return citcat_errinfo_set(err, CITCAT_ERR_INVAL, UINT64_MAX, "no run callback");
	return citcat_ims_file_read(path, NULL, 0, UINT64_MAX, ims, run, ctx, NULL, err);
}
