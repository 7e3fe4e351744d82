/* The measurements behind `citcat bench` (include/citcat/bench.h): timed
 * captures and replays, the bare baseline, the shared set-up (capture,
 * then extract), the extraction and trace-port sizes.  The CLI formats
 * the figures; nothing here prints. */
#include "bench_int.h"
#include "bench_bare.h"
#include "capture.h"
#include "container.h"
#include "elfprofile.h"
#include "armcore.h"
#include "citcat_regs.h"
#include <citcat/bench.h>
#include <citcat/image.h>
#include <citcat/ims.h>
#include <citcat/itrace.h>

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

double bench_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int bench_errinfo_copy(struct citcat_errinfo *dst, const struct citcat_errinfo *e)
{
	if (!e)
		return citcat_errinfo_set(dst, CITCAT_ERR_NOMEM, UINT64_MAX, "out of memory");
	if (dst)
		*dst = *e;
	return e->code ? e->code : CITCAT_ERR_IO;
}

int bench_out_fill(void *dst, const void *src, size_t own)
{
	size_t size;
	memcpy(&size, dst, sizeof size);
	if (size < own) /* every result struct is in its first version */
		return CITCAT_ERR_INVAL;
	memcpy((char *)dst + sizeof size, (const char *)src + sizeof size, own - sizeof size);
	return 0;
}

static uint64_t fsize(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 ? (uint64_t)st.st_size : 0;
}

int citcat_bench_unicorn_version(char *buf, size_t n)
{
	if (!buf || !n)
		return CITCAT_ERR_INVAL;
	cc_unicorn_version(buf, n);
	return 0;
}

/* The capture with FLAGS into *OUT (a full-size struct of ours). */
static int capture(const struct citcat_capture_config *ucfg, unsigned flags, const char *elf, const char *cat,
		   const char *orc, struct citcat_bench_capture *out, struct citcat_errinfo *err)
{
	struct citcat_capture_config cfg;
	citcat_capture_config_default(&cfg);
	memcpy(&cfg, ucfg, ucfg->size < sizeof cfg ? ucfg->size : sizeof cfg);
	cfg.size = sizeof cfg;
	if ((flags & CITCAT_BENCH_TARGET_FROM_ELF) && cc_elf_arm_profile(elf) == 'M')
		cfg.target.isa = CITCAT_TARGET_CORTEX_M7; /* as citcat capture chooses it */
	out->isa = cfg.target.isa;
	double run = 0;
	struct cc_capture_bench b = {.run_seconds = &run};
	int saved = cc_writer_threads;
	if (flags & CITCAT_BENCH_INLINE_WRITES)
		cc_writer_threads = 0;
	int rc = cc_capture_run_bench(&cfg, &b, elf, cat, orc, &out->res, err);
	cc_writer_threads = saved;
	out->run_s = run;
	out->setup_s = out->res.seconds - run;
	return rc;
}

int citcat_bench_capture(const struct citcat_capture_config *cfg, unsigned flags, const char *elf,
			 const char *cat_path, const char *oracle_path, struct citcat_bench_capture *out,
			 struct citcat_errinfo *err)
{
	if (!cfg || !elf || !out || cfg->size < offsetof(struct citcat_capture_config, target) || out->size < sizeof *out)
		return citcat_errinfo_set(err, CITCAT_ERR_INVAL, UINT64_MAX, "a NULL argument or a too small size");
	struct citcat_bench_capture o;
	memset(&o, 0, sizeof o);
	o.size = sizeof o;
	int rc = capture(cfg, flags, elf, cat_path, oracle_path, &o, err);
	if (bench_out_fill(out, &o, sizeof o))
		return citcat_errinfo_set(err, CITCAT_ERR_INVAL, UINT64_MAX, "a too small result size");
	return rc;
}

struct rep_timer {
	int (*progress)(void *ctx, uint64_t insns, uint64_t total);
	void *ctx;
	double start;
};

static int rep_progress(void *ctx, uint64_t insns, uint64_t total)
{
	struct rep_timer *t = ctx;
	if (insns == 0 && t->start == 0)
		t->start = bench_now();
	return t->progress ? t->progress(t->ctx, insns, total) : 0;
}

int citcat_bench_replay(const struct citcat_replay_config *ucfg, unsigned flags, struct citcat_bench_replay *out,
			struct citcat_errinfo *err)
{
	if (!ucfg || !out || ucfg->size < offsetof(struct citcat_replay_config, out_path) || out->size < sizeof *out)
		return citcat_errinfo_set(err, CITCAT_ERR_INVAL, UINT64_MAX, "a NULL argument or a too small size");
	struct citcat_replay_config cfg;
	citcat_replay_config_default(&cfg);
	memcpy(&cfg, ucfg, ucfg->size < sizeof cfg ? ucfg->size : sizeof cfg);
	cfg.size = sizeof cfg;
	struct rep_timer t = {cfg.progress, cfg.progress_ctx, 0};
	cfg.progress = rep_progress;
	cfg.progress_ctx = &t;
	struct citcat_bench_replay o;
	memset(&o, 0, sizeof o);
	o.size = sizeof o;
	int saved = cc_writer_threads;
	if (flags & CITCAT_BENCH_INLINE_WRITES)
		cc_writer_threads = 0;
	double t0 = bench_now();
	int rc = citcat_replay_run(&cfg, &o.res, err);
	double t1 = bench_now();
	cc_writer_threads = saved;
	o.run_s = t1 - t.start;
	o.setup_s = t.start - t0;
	if (bench_out_fill(out, &o, sizeof o))
		return citcat_errinfo_set(err, CITCAT_ERR_INVAL, UINT64_MAX, "a too small result size");
	return rc;
}

int citcat_bench_bare_run(unsigned kind, const char *ims_path, const char *aes_path, const char *itrace_path,
			  struct citcat_bench_bare *out, struct citcat_errinfo *err)
{
	if (!ims_path || !aes_path || !itrace_path || !out || kind > CITCAT_BENCH_BARE_FLOOR_MEM || out->size < sizeof *out)
		return citcat_errinfo_set(err, CITCAT_ERR_INVAL, UINT64_MAX, "a NULL argument, an unknown kind or a too small size");
	struct citcat_bench_bare o;
	memset(&o, 0, sizeof o);
	int rc;
	switch (kind) {
	case CITCAT_BENCH_BARE: rc = cc_bare_run(ims_path, aes_path, itrace_path, &o, err); break;
	case CITCAT_BENCH_BARE_HOOKS: rc = cc_bare_run_hooked(ims_path, aes_path, itrace_path, &o, err); break;
	default:
		rc = cc_bare_run_floor(ims_path, aes_path, itrace_path, kind == CITCAT_BENCH_BARE_FLOOR_BLOCK, &o, err);
		break;
	}
	o.size = sizeof o; /* the runs zero O */
	if (bench_out_fill(out, &o, sizeof o))
		return citcat_errinfo_set(err, CITCAT_ERR_INVAL, UINT64_MAX, "a too small result size");
	return rc;
}

void citcat_bench_prep_remove(const struct citcat_bench_prep *p)
{
	if (!p)
		return;
	remove(p->cat);
	remove(p->orc);
	remove(p->ims);
	remove(p->aes);
	remove(p->itr);
}

/* The set-up into P (a full-size struct of ours); *WHICH: the file an
 * error concerns (0 the ELF, 1 the CAT, 2 the IMS). */
static int prepare(struct citcat_capture_config *cfg, const char *elf, struct citcat_bench_prep *p, int *which,
		   struct citcat_errinfo *err)
{
	*which = 0;
	int rc = capture(cfg, CITCAT_BENCH_TARGET_FROM_ELF, elf, p->cat, NULL, &p->cap, err);
	cfg->target.isa = p->cap.isa;
	if (rc)
		return rc;
	if (!p->cap.res.traced) {
		citcat_bench_prep_remove(p);
		return 1;
	}
	struct citcat_ims ims;
	struct citcat_ims_stats ist;
	double t0 = bench_now();
	*which = 1;
	if ((rc = citcat_ims_extract(p->cat, &ims, &ist, NULL, NULL, err)))
		return rc;
	p->dev_base = ims.cfg.dev_base;
	rc = citcat_ims_write(&ims, p->ims, err);
	citcat_ims_fini(&ims);
	if (rc) {
		*which = 2;
		return rc;
	}
	p->ims_s = bench_now() - t0;
	t0 = bench_now();
	if ((rc = citcat_aes_extract(p->cat, p->aes, &p->aes_stats, NULL, NULL, err)))
		return rc;
	p->aes_s = bench_now() - t0;
	return 0;
}

int citcat_bench_prepare(struct citcat_capture_config *cfg, const char *elf, const char *dir,
			 struct citcat_bench_prep *out, struct citcat_errinfo *err)
{
	if (!cfg || !elf || !dir || !out || cfg->size < offsetof(struct citcat_capture_config, target))
		return citcat_errinfo_set(err, CITCAT_ERR_INVAL, UINT64_MAX, "a NULL argument or a too small size");
	size_t size = out->size;
	if (size < sizeof *out)
		return citcat_errinfo_set(err, CITCAT_ERR_INVAL, UINT64_MAX, "a too small result size");
	memset(out, 0, sizeof *out);
	out->size = size;
	struct citcat_bench_prep *p = out;
	snprintf(p->cat, sizeof p->cat, "%s/run.cat", dir);
	snprintf(p->ims, sizeof p->ims, "%s/run.ims", dir);
	snprintf(p->aes, sizeof p->aes, "%s/run.aes", dir);
	snprintf(p->itr, sizeof p->itr, "%s/run.itrace", dir);
	snprintf(p->orc, sizeof p->orc, "%s/oracle.itrace", dir);
	p->cap.size = sizeof p->cap;
	int which = 0;
	int rc = prepare(cfg, elf, p, &which, err);
	if (rc < 0) {
		p->err_path = which == 0 ? elf : which == 1 ? p->cat : p->ims;
		citcat_bench_prep_remove(p);
	}
	return rc;
}

uint64_t citcat_bench_driver_insns(const char *itrace, uint32_t dev_base)
{
	struct citcat_itrace_reader *r = NULL;
	static struct citcat_itrace_rec rec;
	uint64_t n = 0, found = 0;
	if (itrace && citcat_itrace_reader_open(&r, itrace) == 0) {
		while (!found && citcat_itrace_next(r, &rec) == 1) {
			if (rec.kind != CITCAT_REC_INSN)
				continue;
			n++;
			for (uint32_t k = 0; k < rec.n_acc; k++)
				if (rec.acc[k].write && rec.acc[k].addr == (uint64_t)dev_base + CITCAT_DEV_OFF(CITCAT_TRACE_DUMP_DONE))
					found = n;
		}
	}
	citcat_itrace_reader_close(r);
	return found;
}

int citcat_bench_extract(const struct citcat_capture_config *cfg, const char *elf, const char *cat_path,
			 const char *ims_path, const char *aes_path, struct citcat_bench_extract *out,
			 struct citcat_errinfo *err)
{
	if (!cfg || !elf || !cat_path || !ims_path || !aes_path || !out)
		return citcat_errinfo_set(err, CITCAT_ERR_INVAL, UINT64_MAX, "a NULL argument");
	struct citcat_bench_extract o;
	memset(&o, 0, sizeof o);
	o.size = sizeof o;
	if (bench_out_fill(out, &o, sizeof o))
		return citcat_errinfo_set(err, CITCAT_ERR_INVAL, UINT64_MAX, "a too small result size");
	out->err_path = elf;
	struct citcat_capture_result res;
	int rc = citcat_capture_run(cfg, elf, cat_path, NULL, &res, err);
	if (rc)
		return rc;
	if (!res.traced) {
		remove(cat_path);
		return 1;
	}
	struct citcat_ims ims;
	struct citcat_ims_stats ist;
	struct citcat_aes_stats ast;
	double t0 = bench_now();
	rc = citcat_ims_extract(cat_path, &ims, &ist, NULL, NULL, err);
	if (!rc) {
		rc = citcat_ims_write(&ims, ims_path, err);
		o.ims_mem = citcat_image_bytes(ims.memory);
		citcat_ims_fini(&ims);
	}
	if (!rc)
		rc = citcat_aes_extract(cat_path, aes_path, &ast, NULL, NULL, err);
	o.seconds = bench_now() - t0;
	if (rc) {
		remove(cat_path);
		remove(ims_path);
		return rc;
	}
	o.insns = res.traced_insns;
	o.cat_bytes = fsize(cat_path);
	o.ims_file = fsize(ims_path);
	o.ims_raw = 4u * ARM_SLOTS + o.ims_mem; /* as citcat info counts it */
	o.err_path = NULL;
	bench_out_fill(out, &o, sizeof o);
	return 0;
}

/* Raw (decompressed) record bytes of a container. */
static uint64_t container_raw(const char *path)
{
	struct cc_reader *r;
	uint64_t raw = 0;
	if (cc_reader_open(&r, path, NULL, UINT16_MAX) == 0) {
		const uint8_t *p;
		size_t n;
		uint32_t nr;
		while (cc_reader_next_chunk(r, &p, &n, &nr) == 1)
			raw += n;
	}
	cc_reader_close(r);
	return raw;
}

int citcat_bench_port_sizes(const char *cat_path, const char *itrace_path, const char *ims_path,
			    const char *aes_path, struct citcat_bench_port *out, struct citcat_errinfo *err)
{
	if (!cat_path || !itrace_path || !ims_path || !aes_path || !out)
		return citcat_errinfo_set(err, CITCAT_ERR_INVAL, UINT64_MAX, "a NULL argument");
	struct citcat_bench_port o;
	memset(&o, 0, sizeof o);
	o.size = sizeof o;
	if (bench_out_fill(out, &o, sizeof o))
		return citcat_errinfo_set(err, CITCAT_ERR_INVAL, UINT64_MAX, "a too small result size");
	struct citcat_ims im;
	struct citcat_ims_stats ist;
	struct citcat_aes_stats ast;
	o.cat_file = fsize(cat_path);
	o.cat_raw = container_raw(cat_path);
	o.itrace_file = fsize(itrace_path);
	int rc = citcat_ims_extract(cat_path, &im, &ist, NULL, NULL, err);
	if (!rc) {
		rc = citcat_ims_write(&im, ims_path, err);
		citcat_ims_fini(&im);
	}
	if (!rc)
		rc = citcat_aes_extract(cat_path, aes_path, &ast, NULL, NULL, err);
	o.ims_file = fsize(ims_path);
	o.aes_file = fsize(aes_path);
	bench_out_fill(out, &o, sizeof o);
	return rc;
}
