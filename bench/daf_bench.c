/* The data-address filtering measurement of `citcat bench daf` and
 * `bench trace-port` (include/citcat/bench.h, citcat_bench_daf): DAF and
 * DAFDiff (formats/DAF.md) of an itrace, the raw-address and Nexus-like
 * baselines, an rSDC-LSP stream count, and the DAFDiff decoder over the
 * same flow, every access checked.  Nothing here prints. */
#include "bench_int.h"
#include "daf.h"
#include "outfile.h"
#include "sdclsp.h"
#include "stop.h"
#include <citcat/bench.h>
#include <citcat/itrace.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* An error whose message is complete (names its files): ERR_PATH NULL. */
#define FAIL(code, ...) (r->err_path = NULL, citcat_errinfo_set(err, code, UINT64_MAX, __VA_ARGS__))
/* An error of a reader, writer or decoder E about PATH. */
#define ERRI(path, e) (r->err_path = (path), bench_errinfo_copy(err, (e)))

/* Closes the address file's stream and commits it: 0, or -1 (aborted). */
static void stats_copy(struct citcat_bench_daf_stats *d, const struct citcat_daf_stats *s);

static int scratch_close(FILE *f, struct cc_outfile *o)
{
	if (!f)
		return 0;
	if (fclose(f) != 0) {
		cc_outfile_abort(o);
		return -1;
	}
	return cc_outfile_commit(o, NULL) ? -1 : 0;
}

#define BATCH 65536

/* A batch of the flow, read from the itrace before any timing starts. */
struct batch {
	uint64_t pc[BATCH];
	uint32_t word[BATCH];
	uint8_t size[BATCH], thumb[BATCH]; /* of each instruction (Thumb-2: issue 11) */
	uint8_t irq[BATCH];
	uint8_t line[BATCH]; /* IRQ: the line (the M7: the exception number) */
	uint32_t off[BATCH + 1]; /* accesses of entry i: acc[off[i] .. off[i+1]) */
	struct citcat_access *acc;
	size_t cap;
	int n;
};

static int batch_fill(struct citcat_itrace_reader *r, struct batch *b, struct citcat_itrace_rec *rec)
{
	b->n = 0;
	b->off[0] = 0;
	int rc = 1;
	while (b->n < BATCH && (rc = citcat_itrace_next(r, rec)) == 1) {
		int i = b->n;
		size_t need = b->off[i] + rec->n_acc;
		if (need > b->cap) {
			size_t cap = b->cap ? 2 * b->cap : 1 << 16;
			struct citcat_access *a = realloc(b->acc, cap * sizeof *a);
			if (!a)
				return CITCAT_ERR_NOMEM;
			b->acc = a;
			b->cap = cap;
		}
		b->pc[i] = rec->pc;
		b->word[i] = rec->word;
		b->size[i] = rec->size ? rec->size : 4;
		b->thumb[i] = rec->thumb;
		b->irq[i] = rec->kind == CITCAT_REC_IRQ;
		b->line[i] = rec->line;
		memcpy(b->acc + b->off[i], rec->acc, rec->n_acc * sizeof *rec->acc);
		b->off[i + 1] = (uint32_t)need;
		b->n++;
	}
	return rc < 0 ? rc : b->n > 0;
}



/* Speeds are measured in thread CPU time: the machines this runs on are
 * shared, and wall time would measure the neighbours. */
static double cpu_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}



/* Nexus-like differential data address: XOR with the previous address, sent
 * in 6-bit groups up to the highest non-zero one, each with a 2-bit header
 * (the NEXS baseline of SDCLSP.md applied to data addresses). */
static unsigned nexus_bits(uint32_t x)
{
	unsigned g = 1;
	while (g < 6 && x >> (6 * g))
		g++;
	return 8 * g;
}

/* Encodes the itrace IT (raw and DAFDiff, DAFDiff into DAF_PATH, timed), the
 * baselines, and with SDC set an rSDC-LSP stream count; then decodes
 * DAF_PATH over the itrace's flow (timed) and checks every access. */
static int measure(const char *itrace, const char *daf_path, const char *addr_path, int sdc, struct citcat_bench_daf *r,
		   struct citcat_errinfo *err)
{
	struct batch *b = calloc(1, sizeof *b);
	struct citcat_itrace_rec *rec = malloc(sizeof *rec), *erec = malloc(sizeof *erec);
	struct citcat_itrace_reader *it = NULL;
	struct citcat_daf_writer *wr = NULL, *wd = NULL;
	struct citcat_daf_decoder *d = NULL;
	struct sdclsp_encoder *e = NULL;
	FILE *af = NULL;
	struct cc_outfile *afo = NULL;
	int rc = 0, status = 0;
	if (!b || !rec || !erec) {
		status = FAIL(CITCAT_ERR_NOMEM, "out of memory");
		goto out;
	}
	if (citcat_itrace_reader_open(&it, itrace) < 0) {
		status = ERRI(itrace, citcat_itrace_reader_error(it));
		goto out;
	}
	int m7 = citcat_itrace_isa(it) == CITCAT_ISA_ARMV7M; /* entries carry their accesses (DAF.md, "The Cortex-M7") */
	if (citcat_daf_writer_open_isa(&wr, NULL, CITCAT_DAF_RAW, m7) < 0 ||
	    citcat_daf_writer_open_isa(&wd, daf_path, CITCAT_DAF_DIFF, m7) < 0) {
		status = FAIL(CITCAT_ERR_IO, "%s: cannot create", daf_path);
		goto out;
	}
	if (sdc) {
		struct sdclsp_config sc;
		struct citcat_errinfo serr;
		if (sdclsp_config_parse(&sc, "sdclsp:r:32x4,128", &serr) < 0) {
			status = FAIL(CITCAT_ERR_IO, "SDC-LSP set-up failed");
			goto out;
		}
		/* Thumb code needs the ARMv7 stream (SDCLSP.md, "Thumb"): a first pass
		 * looks for it, so A32 runs keep their A32 figures */
		struct citcat_itrace_reader *pre = NULL;
		if (citcat_itrace_reader_open(&pre, itrace) == 0)
			while (citcat_itrace_next(pre, rec) == 1)
				if (rec->kind == CITCAT_REC_INSN && rec->thumb) {
					sc.isa = CITCAT_SDCLSP_ISA_ARMV7;
					break;
				}
		citcat_itrace_reader_close(pre);
		if (sdclsp_encoder_alloc(&e, &sc, NULL, NULL) < 0) {
			status = FAIL(CITCAT_ERR_IO, "SDC-LSP set-up failed");
			goto out;
		}
	}
	if (cc_outfile_open(&afo, addr_path, CC_OUT_PLAIN | CC_OUT_NOSYNC, err)) {
		afo = NULL;
		r->err_path = addr_path;
		status = err && err->code ? err->code : CITCAT_ERR_IO;
		goto out;
	}
	if (!(af = cc_outfile_stream(afo))) {
		cc_outfile_abort(afo);
		afo = NULL;
		status = FAIL(CITCAT_ERR_IO, "%s: cannot write", addr_path);
		goto out;
	}
	uint32_t prev = 0;
	while ((rc = batch_fill(it, b, rec)) == 1) {
		rc = 0;
		double t0 = cpu_now();
		for (int i = 0; i < b->n && !rc; i++)
			if (!b->irq[i])
				rc = citcat_daf_write_isa(wd, b->pc[i], b->word[i], b->size[i], b->thumb[i], b->acc + b->off[i], b->off[i + 1] - b->off[i]);
			else if (m7)
				rc = citcat_daf_write_entry(wd, b->line[i], b->acc + b->off[i], b->off[i + 1] - b->off[i]);
		r->enc_s += cpu_now() - t0;
		for (int i = 0; i < b->n && !rc; i++) {
			if (b->irq[i]) {
				if (m7)
					rc = citcat_daf_write_entry(wr, b->line[i], b->acc + b->off[i], b->off[i + 1] - b->off[i]);
				if (e && !rc)
					rc = sdclsp_encode_irq(e, b->pc[i]);
				continue;
			}
			rc = citcat_daf_write_isa(wr, b->pc[i], b->word[i], b->size[i], b->thumb[i], b->acc + b->off[i], b->off[i + 1] - b->off[i]);
			if (!rc && e)
				rc = sdclsp_encode_insn_isa(e, b->pc[i], b->word[i], b->size[i], b->thumb[i]);
			if (b->off[i + 1] > b->off[i]) {
				uint32_t a = (uint32_t)b->acc[b->off[i]].addr;
				uint8_t le[4] = {(uint8_t)a, (uint8_t)(a >> 8), (uint8_t)(a >> 16), (uint8_t)(a >> 24)};
				fwrite(le, 1, 4, af);
				r->nexus_bits += nexus_bits(a ^ prev);
				prev = a;
				r->mem_insns++;
			}
		}
		if (rc)
			break;
		if (cc_stop_requested()) {
			status = FAIL(CITCAT_ERR_INTERRUPTED, "interrupted");
			goto out;
		}
	}
	if (rc < 0) {
		if (citcat_daf_writer_error(wd)->code)
			status = ERRI(itrace, citcat_daf_writer_error(wd));
		else if (citcat_daf_writer_error(wr)->code)
			status = ERRI(itrace, citcat_daf_writer_error(wr));
		else
			status = ERRI(itrace, citcat_itrace_reader_error(it));
		goto out;
	}
	if (e && sdclsp_encoder_finish(e) < 0) {
		status = FAIL(CITCAT_ERR_IO, "%s: SDC-LSP encoding failed", itrace);
		goto out;
	}
	if (e)
		r->sdc_bits = sdclsp_encoder_stats(e)->bits;
	stats_copy(&r->raw, citcat_daf_writer_stats(wr));
	stats_copy(&r->diff, citcat_daf_writer_stats(wd));
	r->insns = r->diff.insns;
	r->raw_bits = 32 * r->mem_insns;
	citcat_daf_writer_close(wr);
	wr = NULL;
	double t0 = cpu_now();
	rc = citcat_daf_writer_close(wd);
	r->enc_s += cpu_now() - t0;
	wd = NULL;
	if (rc < 0) {
		status = FAIL(CITCAT_ERR_IO, "%s: writing failed", daf_path);
		goto out;
	}
	if (scratch_close(af, afo)) {
		af = NULL;
		status = FAIL(CITCAT_ERR_IO, "%s: write failed", addr_path);
		goto out;
	}
	af = NULL;

	/* decode over the same flow */
	citcat_itrace_reader_close(it);
	it = NULL;
	if (citcat_itrace_reader_open(&it, itrace) < 0 || citcat_daf_decoder_open(&d, daf_path) < 0) {
		status = FAIL(CITCAT_ERR_IO, "%s: cannot reopen", itrace);
		goto out;
	}
	uint64_t k = 0;
	uint32_t *nacc = malloc(BATCH * sizeof *nacc);
	uint64_t *last = malloc(BATCH * sizeof *last);
	while (nacc && last && (rc = batch_fill(it, b, rec)) == 1) {
		double t1 = cpu_now();
		rc = 0;
		for (int i = 0; i < b->n && rc >= 0; i++) {
			if (b->irq[i]) {
				if (!m7)
					continue;
				/* REC still holds the instruction before, which the entry may correct */
				uint64_t fixes = citcat_daf_decoder_stats(d)->fixes;
				if ((rc = citcat_daf_decode_entry(d, erec, rec)) < 0)
					break;
				if (rc == 0) {
					status = FAIL(CITCAT_ERR_CORRUPT, "%s: entry record %llu of the itrace is not in the DAF", daf_path,
							  (unsigned long long)(k + (uint64_t)i));
					break;
				}
				if (citcat_daf_decoder_stats(d)->fixes != fixes && i > 0 && !b->irq[i - 1]) {
					nacc[i - 1] = rec->n_acc;
					last[i - 1] = rec->n_acc ? rec->acc[rec->n_acc - 1].addr : 0;
				}
				nacc[i] = erec->n_acc;
				last[i] = erec->n_acc ? erec->acc[erec->n_acc - 1].addr : 0;
				continue;
			}
			rc = citcat_daf_decode_isa(d, b->pc[i], b->word[i], b->size[i], b->thumb[i], rec);
			nacc[i] = rec->n_acc;
			last[i] = rec->n_acc ? rec->acc[rec->n_acc - 1].addr : 0;
		}
		if (status)
			break;
		r->dec_s += cpu_now() - t1;
		if (rc < 0) {
			status = ERRI(daf_path, citcat_daf_decoder_error(d));
			break;
		}
		for (int i = 0; i < b->n; i++, k++) {
			uint32_t n = b->off[i + 1] - b->off[i];
			if ((!b->irq[i] || m7) && (nacc[i] != n || (n && last[i] != b->acc[b->off[i + 1] - 1].addr))) {
				status = FAIL(CITCAT_ERR_CORRUPT, "%s: instruction at 0x%08llx: DAF decoding differs from the itrace", daf_path,
						  (unsigned long long)b->pc[i]);
				break;
			}
		}
		if (status)
			break;
	}
	if (!status && (!nacc || !last))
		status = FAIL(CITCAT_ERR_NOMEM, "out of memory");
	free(nacc);
	free(last);
	if (!status && rc < 0)
		status = ERRI(itrace, citcat_itrace_reader_error(it));
	if (!status && m7 && citcat_daf_decode_entry(d, erec, rec) != 0)
		status = FAIL(CITCAT_ERR_CORRUPT, "%s: an entry after the last instruction that the itrace does not have", daf_path);
	if (!status && citcat_daf_decoder_finish(d) < 0)
		status = ERRI(daf_path, citcat_daf_decoder_error(d));
out:
	if (af) {
		scratch_close(af, afo);
		remove(addr_path);
	}
	citcat_daf_writer_abort(wr);
	citcat_daf_writer_abort(wd);
	citcat_daf_decoder_close(d);
	sdclsp_encoder_free(e);
	citcat_itrace_reader_close(it);
	if (b)
		free(b->acc);
	free(b);
	free(rec);
	free(erec);
	return status;
}


static void stats_copy(struct citcat_bench_daf_stats *d, const struct citcat_daf_stats *s)
{
	d->insns = s->insns;
	d->loads = s->loads;
	d->stores = s->stores;
	d->loads_traced = s->loads_traced;
	d->stores_traced = s->stores_traced;
	d->cond_bits = s->cond_bits;
	d->escapes = s->escapes;
	d->records = s->records;
	d->bits = s->bits;
	d->entries = s->entries;
	d->returns = s->returns;
	d->fixes = s->fixes;
}

int citcat_bench_daf(const char *itrace, const char *daf_path, const char *addr_path, unsigned flags,
		     struct citcat_bench_daf *out, struct citcat_errinfo *err)
{
	if (!itrace || !daf_path || !addr_path || !out)
		return citcat_errinfo_set(err, CITCAT_ERR_INVAL, UINT64_MAX, "a NULL argument");
	struct citcat_bench_daf o;
	memset(&o, 0, sizeof o);
	o.size = sizeof o;
	if (bench_out_fill(out, &o, sizeof o))
		return citcat_errinfo_set(err, CITCAT_ERR_INVAL, UINT64_MAX, "a too small result size");
	int rc = measure(itrace, daf_path, addr_path, (flags & CITCAT_BENCH_DAF_SDCLSP) != 0, &o, err);
	if (rc)
		remove(addr_path);
	bench_out_fill(out, &o, sizeof o);
	return rc;
}
