/* citcat bench daf (the paper's Table 4 for our target) and citcat bench
 * trace-port (what every way citcat can trace a run costs on the trace
 * port).  Each firmware is captured once in this process (CAT and oracle
 * itrace in a temporary directory, seed 1); an .itrace argument is used as
 * it is (bench daf only).  Numbers are printed, never judged. */
#include "addr.h"
#include "aes.h"
#include "capture.h"
#include "cli.h"
#include "container.h"
#include "daf.h"
#include "elfprofile.h"
#include "ims.h"
#include "itrace.h"
#include "sdclsp.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#ifndef CITCAT_DEFAULT_EXAMPLE_DATA_DIR
#define CITCAT_DEFAULT_EXAMPLE_DATA_DIR "examples/data"
#endif

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

struct run {
	const char *name;
	uint64_t insns, mem_insns, raw_bits, nexus_bits, gzip_bytes;
	struct citcat_daf_stats raw, diff;
	double enc_s, dec_s;
	/* trace-port figures (bench trace-port) */
	uint64_t cat_raw, cat_file, ims_file, aes_file, itrace_file, sdc_bits;
	uint64_t lvt_bits; /* the LVT's record bits, same capture and D-cache (capture/LVT.md) */
	long din_xz;
};

/* Speeds are measured in thread CPU time: the machines this runs on are
 * shared, and wall time would measure the neighbours. */
static double cpu_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t fsize(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 ? (uint64_t)st.st_size : 0;
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
static int measure(const char *itrace, const char *daf_path, const char *addr_path, int sdc, struct run *r)
{
	struct batch *b = calloc(1, sizeof *b);
	struct citcat_itrace_rec *rec = malloc(sizeof *rec), *erec = malloc(sizeof *erec);
	struct citcat_itrace_reader *it = NULL;
	struct citcat_daf_writer *wr = NULL, *wd = NULL;
	struct citcat_daf_decoder *d = NULL;
	struct sdclsp_encoder *e = NULL;
	FILE *af = NULL;
	struct citcat_outfile *afo = NULL;
	int rc = 0, status = 0;
	if (!b || !rec || !erec) {
		status = cli_fail("out of memory");
		goto out;
	}
	if (citcat_itrace_reader_open(&it, itrace) < 0) {
		status = cli_errinfo(itrace, citcat_itrace_reader_error(it));
		goto out;
	}
	int m7 = citcat_itrace_isa(it) == CITCAT_ISA_ARMV7M; /* entries carry their accesses (DAF.md, "The Cortex-M7") */
	if (citcat_daf_writer_open_isa(&wr, NULL, CITCAT_DAF_RAW, m7) < 0 ||
	    citcat_daf_writer_open_isa(&wd, daf_path, CITCAT_DAF_DIFF, m7) < 0) {
		status = cli_fail("%s: cannot create", daf_path);
		goto out;
	}
	if (sdc) {
		struct sdclsp_config sc;
		struct citcat_errinfo err;
		if (sdclsp_config_parse(&sc, "sdclsp:r:32x4,128", &err) < 0) {
			status = cli_fail("SDC-LSP set-up failed");
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
			status = cli_fail("SDC-LSP set-up failed");
			goto out;
		}
	}
	if (!(af = cli_scratch_open(addr_path, &afo))) {
		status = EXIT_USAGE;
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
		if (cli_interrupted()) {
			status = cli_fail("interrupted");
			goto out;
		}
	}
	if (rc < 0) {
		if (citcat_daf_writer_error(wd)->code)
			status = cli_errinfo(itrace, citcat_daf_writer_error(wd));
		else if (citcat_daf_writer_error(wr)->code)
			status = cli_errinfo(itrace, citcat_daf_writer_error(wr));
		else
			status = cli_errinfo(itrace, citcat_itrace_reader_error(it));
		goto out;
	}
	if (e && sdclsp_encoder_finish(e) < 0) {
		status = cli_fail("%s: SDC-LSP encoding failed", itrace);
		goto out;
	}
	if (e)
		r->sdc_bits = sdclsp_encoder_stats(e)->bits;
	r->raw = *citcat_daf_writer_stats(wr);
	r->diff = *citcat_daf_writer_stats(wd);
	r->insns = r->diff.insns;
	r->raw_bits = 32 * r->mem_insns;
	citcat_daf_writer_close(wr);
	wr = NULL;
	double t0 = cpu_now();
	rc = citcat_daf_writer_close(wd);
	r->enc_s += cpu_now() - t0;
	wd = NULL;
	if (rc < 0) {
		status = cli_fail("%s: writing failed", daf_path);
		goto out;
	}
	if (cli_scratch_close(af, afo)) {
		af = NULL;
		status = cli_fail("%s: write failed", addr_path);
		goto out;
	}
	af = NULL;
	r->gzip_bytes = (uint64_t)cli_compressed_size("gzip -1 -c", addr_path);
	remove(addr_path);

	/* decode over the same flow */
	citcat_itrace_reader_close(it);
	it = NULL;
	if (citcat_itrace_reader_open(&it, itrace) < 0 || citcat_daf_decoder_open(&d, daf_path) < 0) {
		status = cli_fail("%s: cannot reopen", itrace);
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
					status = cli_fail("%s: entry record %llu of the itrace is not in the DAF", daf_path,
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
			status = cli_errinfo(daf_path, citcat_daf_decoder_error(d));
			break;
		}
		for (int i = 0; i < b->n; i++, k++) {
			uint32_t n = b->off[i + 1] - b->off[i];
			if ((!b->irq[i] || m7) && (nacc[i] != n || (n && last[i] != b->acc[b->off[i + 1] - 1].addr))) {
				status = cli_fail("%s: instruction at 0x%08llx: DAF decoding differs from the itrace", daf_path,
						  (unsigned long long)b->pc[i]);
				break;
			}
		}
		if (status)
			break;
	}
	if (!status && (!nacc || !last))
		status = cli_fail("out of memory");
	free(nacc);
	free(last);
	if (!status && rc < 0)
		status = cli_errinfo(itrace, citcat_itrace_reader_error(it));
	if (!status && m7 && citcat_daf_decode_entry(d, erec, rec) != 0)
		status = cli_fail("%s: an entry after the last instruction that the itrace does not have", daf_path);
	if (!status && citcat_daf_decoder_finish(d) < 0)
		status = cli_errinfo(daf_path, citcat_daf_decoder_error(d));
out:
	if (af) {
		cli_scratch_close(af, afo);
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

static void discard(void *ctx, uint8_t b) {}

struct opts {
	int json, port, xz;
	struct citcat_capture_config c;
	const char *uart_in;
};

/* Captures ELF (or takes an itrace) and measures it into R. */
static int run_one(const char *file, const char *uart_in, const struct opts *o, const char *dir, struct run *r)
{
	char cat[600], itrace[600], daf[600], addr[600], ims[600], aes[600], din[600], lvt[600];
	snprintf(lvt, sizeof lvt, "%s/run.lvt", dir);
	snprintf(cat, sizeof cat, "%s/run.cat", dir);
	snprintf(itrace, sizeof itrace, "%s/run.itrace", dir);
	snprintf(daf, sizeof daf, "%s/run.daf", dir);
	snprintf(addr, sizeof addr, "%s/run.addr", dir);
	snprintf(ims, sizeof ims, "%s/run.ims", dir);
	snprintf(aes, sizeof aes, "%s/run.aes", dir);
	snprintf(din, sizeof din, "%s/run.din", dir);
	const char *src = file;
	int rc = 0, status = 0;
	if (!cli_has_suffix(file, ".itrace")) {
		struct citcat_capture_config c = o->c;
		c.uart_in = uart_in;
		if (cc_elf_arm_profile(file) == 'M') /* the target from the ELF, as citcat capture chooses it */
			c.target.isa = CITCAT_TARGET_CORTEX_M7;
		if (o->port)
			c.lvt_path = lvt; /* the LVT of the same run, at the configured D-cache */
		struct citcat_capture_result res;
		struct citcat_errinfo err = {0};
		if ((rc = citcat_capture_run(&c, file, o->port ? cat : NULL, itrace, &res, &err)))
			return cli_errinfo(file, &err);
		if (!res.traced) {
			remove(cat);
			remove(itrace);
			remove(lvt);
			return cli_fail("%s never reached a trace start point", file);
		}
		if (o->port) {
			r->lvt_bits = res.lvt.bits;
		}
		src = itrace;
	} else if (o->port) {
		return cli_fail("bench trace-port: %s: give firmware, not an itrace (the CAT is needed)", file);
	}
	status = measure(src, daf, addr, o->port, r);
	if (!status && o->port) {
		struct citcat_ims im;
		struct citcat_ims_stats ist;
		struct citcat_aes_stats ast;
		struct citcat_errinfo err = {0};
		r->cat_file = fsize(cat);
		r->cat_raw = container_raw(cat);
		r->itrace_file = fsize(itrace);
		rc = citcat_ims_extract(cat, &im, &ist, NULL, NULL, &err);
		if (!rc) {
			rc = citcat_ims_write(&im, ims, &err);
			citcat_ims_fini(&im);
		}
		if (!rc)
			rc = citcat_aes_extract(cat, aes, &ast, NULL, NULL, &err);
		if (rc)
			status = cli_errinfo(cat, &err);
		r->ims_file = fsize(ims);
		r->aes_file = fsize(aes);
		r->din_xz = -1;
		if (!status && o->xz) {
			struct convert_opts co = {.image = NULL, .lz4 = 0};
			if (!(status = addr_convert(itrace, "itrace", din, "din", &co)))
				r->din_xz = cli_compressed_size("xz -9 -c", din);
		}
	}
	remove(cat);
	remove(itrace);
	remove(daf);
	remove(ims);
	remove(aes);
	remove(din);
	remove(lvt);
	return status;
}

static double per(uint64_t a, uint64_t b) { return b ? (double)a / (double)b : 0.0; }
static double filt(uint64_t traced, uint64_t all) { return all ? 1.0 - (double)traced / (double)all : 0.0; }

/* Table 4's row for R. */
struct row4 {
	double ld, st, tot, daf, dafd, r_daf, r_dafd, r_nexus, r_gzip;
};

static struct row4 row4(const struct run *r)
{
	struct row4 w;
	const struct citcat_daf_stats *s = &r->diff;
	w.ld = filt(s->loads_traced, s->loads);
	w.st = filt(s->stores_traced, s->stores);
	w.tot = filt(s->loads_traced + s->stores_traced, s->loads + s->stores);
	w.daf = per(r->raw.bits, r->insns);
	w.dafd = per(r->diff.bits, r->insns);
	w.r_daf = per(r->raw_bits, r->raw.bits);
	w.r_dafd = per(r->raw_bits, r->diff.bits);
	w.r_nexus = per(r->raw_bits, r->nexus_bits);
	w.r_gzip = per(r->raw_bits, 8 * r->gzip_bytes);
	return w;
}

static void print4(const char *name, const struct row4 *w, const struct run *r, int json, int first)
{
	if (json) {
		printf("%s{\"firmware\": \"%s\", \"instructions\": %llu, \"loads\": %llu, \"stores\": %llu, "
		       "\"filtering\": {\"ld\": %.4f, \"st\": %.4f, \"total\": %.4f}, "
		       "\"bits_per_instruction\": {\"daf\": %.4f, \"dafdiff\": %.4f}, "
		       "\"compression_ratio\": {\"daf\": %.3f, \"dafdiff\": %.3f, \"nexus\": %.3f, \"gzip1\": %.3f}, "
		       "\"cond_bits\": %llu, \"escapes\": %llu, \"exceptions\": %llu, \"encode_minsn_s\": %.1f, "
		       "\"decode_minsn_s\": %.1f}",
		       first ? "" : ", ", name, (unsigned long long)r->insns, (unsigned long long)r->diff.loads,
		       (unsigned long long)r->diff.stores, w->ld, w->st, w->tot, w->daf, w->dafd, w->r_daf, w->r_dafd,
		       w->r_nexus, w->r_gzip, (unsigned long long)r->diff.cond_bits, (unsigned long long)r->diff.escapes,
		       (unsigned long long)r->diff.entries, r->enc_s > 0 ? (double)r->insns / r->enc_s / 1e6 : 0.0,
		       r->dec_s > 0 ? (double)r->insns / r->dec_s / 1e6 : 0.0);
		return;
	}
	printf("%-14s %5.2f %5.2f %5.2f  %6.2f %6.2f  %8.2f %8.2f %6.2f %7.2f", name, w->ld, w->st, w->tot, w->daf,
	       w->dafd, w->r_daf, w->r_dafd, w->r_nexus, w->r_gzip);
	if (r)
		printf("  %11llu %7.1f %7.1f", (unsigned long long)r->insns,
		       r->enc_s > 0 ? (double)r->insns / r->enc_s / 1e6 : 0.0,
		       r->dec_s > 0 ? (double)r->insns / r->dec_s / 1e6 : 0.0);
	printf("\n");
}

static void print_port(const struct run *r, int json, int first)
{
	double n = (double)r->insns;
	double sdc = (double)r->sdc_bits / n;
	double xz = r->din_xz >= 0 ? 8.0 * (double)r->din_xz / n : -1;
	if (json) {
		printf("%s{\"firmware\": \"%s\", \"instructions\": %llu, \"bits_per_instruction\": {\"cat_raw\": %.5f, "
		       "\"cat_lz4\": %.5f, \"ims_aes\": %.5f, \"lvt\": %.5f, \"daf\": %.5f, \"dafdiff\": %.5f, "
		       "\"rsdclsp\": %.5f, \"daf_rsdclsp\": %.5f, \"dafdiff_rsdclsp\": %.5f, \"itrace\": %.5f, ",
		       first ? "" : ", ", r->name, (unsigned long long)r->insns, 8.0 * (double)r->cat_raw / n,
		       8.0 * (double)r->cat_file / n, 8.0 * (double)(r->ims_file + r->aes_file) / n,
		       (double)r->lvt_bits / n, (double)r->raw.bits / n, (double)r->diff.bits / n, sdc, sdc + (double)r->raw.bits / n,
		       sdc + (double)r->diff.bits / n, 8.0 * (double)r->itrace_file / n);
		if (xz >= 0)
			printf("\"din_xz9\": %.5f}}", xz);
		else
			printf("\"din_xz9\": null}}");
		return;
	}
	printf("%-14s %11llu %8.4f %8.4f %8.4f %7.4f %7.4f %7.4f %7.4f %8.4f %8.4f %8.3f", r->name,
	       (unsigned long long)r->insns, 8.0 * (double)r->cat_raw / n, 8.0 * (double)r->cat_file / n,
	       8.0 * (double)(r->ims_file + r->aes_file) / n, (double)r->lvt_bits / n, (double)r->raw.bits / n, (double)r->diff.bits / n,
	       sdc, sdc + (double)r->raw.bits / n, sdc + (double)r->diff.bits / n, 8.0 * (double)r->itrace_file / n);
	if (xz >= 0)
		printf(" %8.4f\n", xz);
	else
		printf(" %8s\n", "-");
}

static const char daf_help[] =
	"usage: citcat bench daf [FIRMWARE.elf|RUN.itrace...] [--json] [--seed N] [--uart-in F] [--max-insns N]\n\n"
	"Data-address filtering (formats/DAF.md) in the layout of the paper's Table 4:\n"
	"filtering rates for loads, stores and all memory-referencing instructions;\n"
	"DAF (raw addresses) and DAFDiff trace-port bits per instruction; compression\n"
	"ratios of DAF, DAFDiff, a Nexus-like differential encoding and gzip -1 against\n"
	"the raw address trace (32 bits per memory-referencing instruction).  Also the\n"
	"encode (DAFDiff writer, to a file) and decode (partial replay over the itrace's\n"
	"flow) speed in M instructions per CPU second; every decoded access is checked\n"
	"(outside the timing).  Firmware is\n"
	"captured in this process (seed 1).  With no files, the built-in examples.\n";

static const char port_help[] =
	"usage: citcat bench trace-port [FIRMWARE.elf...] [--json] [--no-xz] [--seed N] [--uart-in F] [--max-insns N]\n\n"
	"Runs each firmware once and prints, in bits per traced instruction, what each\n"
	"way of tracing it costs on the trace port (formats/TRACEPORTS.md): the CAT\n"
	"(raw records and the LZ4 container file), IMS+AES files, the first-access LVT\n"
	"(record bits, same run and D-cache), DAF and DAFDiff alone and with rSDC-LSP [32x4,128], the full itrace\n"
	"file, and the din under xz -9 (--no-xz skips it: slow on long runs).\n"
	"With no files, the built-in examples.\n";

static int bench_common(int argc, char **argv, int port)
{
	struct opts o;
	memset(&o, 0, sizeof o);
	o.port = port;
	o.xz = 1;
	citcat_capture_config_default(&o.c);
	o.c.target.seed = 1;
	o.c.uart_tx = discard;
	const char *cmd = port ? "bench trace-port" : "bench daf";
	const char *files[256];
	int nfiles = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (cli_is_help(a)) {
			fputs(port ? port_help : daf_help, stdout);
			return EXIT_OK;
		} else if (strcmp(a, "--json") == 0) {
			o.json = 1;
		} else if (port && strcmp(a, "--no-xz") == 0) {
			o.xz = 0;
		} else if (strcmp(a, "--seed") == 0 && i + 1 < argc) {
			if (cli_parse_u64(argv[++i], &o.c.target.seed))
				return cli_usage_error(cmd, "bad seed '%s'", argv[i]);
		} else if (strcmp(a, "--max-insns") == 0 && i + 1 < argc) {
			if (cli_parse_count(argv[++i], &o.c.max_insns) || !o.c.max_insns)
				return cli_usage_error(cmd, "bad instruction count '%s'", argv[i]);
		} else if (strcmp(a, "--uart-in") == 0 && i + 1 < argc) {
			o.uart_in = argv[++i];
		} else if (a[0] == '-') {
			return cli_usage_error(cmd, "unknown or incomplete option '%s'", a);
		} else if (nfiles < 256) {
			files[nfiles++] = a;
		}
	}
	static char uart_default[512];
	int defaults = nfiles == 0;
	if (defaults) {
		nfiles = cli_default_examples(files, 16, 0);
		if (!nfiles)
			return cli_fail("%s: no firmware given and no built examples found (set CITCAT_EXAMPLES_DIR)", cmd);
	}
	snprintf(uart_default, sizeof uart_default, "%s/uartline.txt", CITCAT_DEFAULT_EXAMPLE_DATA_DIR);
	char dir[] = "/tmp/citcat-bench-daf-XXXXXX";
	if (!mkdtemp(dir))
		return cli_fail("%s: cannot create a temporary directory", cmd);
	struct run *all = calloc((size_t)nfiles, sizeof *all);
	int rc = all ? 0 : cli_fail("out of memory");
	if (o.json)
		printf("{\"benchmark\": \"%s\", \"runs\": [", port ? "trace-port" : "daf");
	else if (port)
		printf("bits per traced instruction on the trace port\n%-14s %11s %8s %8s %8s %7s %7s %7s %7s %8s %8s %8s "
		       "%8s\n", "firmware", "insns", "CAT raw", "CAT LZ4", "IMS+AES", "LVT", "DAF", "DAFDiff", "rSDC",
		       "DAF+rSDC", "Diff+rSDC", "itrace", "din xz9");
	else
		printf("%-14s %5s %5s %5s  %6s %6s  %8s %8s %6s %7s  %11s %7s %7s\n", "", "LD", "ST", "Total", "DAF",
		       "DAFDif", "DAF", "DAFDif", "Nexus", "gzip-1", "insns", "enc M/s", "dec M/s");
	if (!o.json && !port)
		printf("%-14s %-17s  %-13s  %-33s\n", "firmware", "filtering rates", "bits/insn", "compression ratio");
	for (int k = 0; k < nfiles && !rc; k++) {
		struct run *r = &all[k];
		const char *base = strrchr(files[k], '/') ? strrchr(files[k], '/') + 1 : files[k];
		r->name = base;
		const char *in = o.uart_in;
		if (!in && strncmp(base, "uartline", 8) == 0 && access(uart_default, R_OK) == 0)
			in = uart_default;
		if ((rc = run_one(files[k], in, &o, dir, r)))
			break;
		if (port) {
			print_port(r, o.json, k == 0);
		} else {
			struct row4 w = row4(r);
			print4(base, &w, r, o.json, k == 0);
		}
		fflush(stdout);
	}
	rmdir(dir);
	if (!rc && !port) {
		/* the paper's average: weighted by each benchmark's share of the loads */
		struct row4 avg;
		memset(&avg, 0, sizeof avg);
		uint64_t loads = 0;
		for (int k = 0; k < nfiles; k++)
			loads += all[k].diff.loads;
		for (int k = 0; k < nfiles && loads; k++) {
			struct row4 w = row4(&all[k]);
			double f = (double)all[k].diff.loads / (double)loads;
			avg.ld += f * w.ld, avg.st += f * w.st, avg.tot += f * w.tot, avg.daf += f * w.daf;
			avg.dafd += f * w.dafd, avg.r_daf += f * w.r_daf, avg.r_dafd += f * w.r_dafd;
			avg.r_nexus += f * w.r_nexus, avg.r_gzip += f * w.r_gzip;
		}
		struct row4 paper = {0.70, 0.83, 0.74, 2.94, 2.26, 3.82, 4.97, 1.59, 3.46};
		if (o.json) {
			printf("], \"average_weighted_by_loads\": ");
			print4("average", &avg, &(struct run){.insns = 0}, 1, 1);
			printf(", \"paper_average\": ");
			print4("paper", &paper, &(struct run){.insns = 0}, 1, 1);
		} else {
			print4("average", &avg, NULL, 0, 0);
			print4("paper (MiBench)", &paper, NULL, 0, 0);
			printf("(average weighted by each firmware's share of the loads, as the paper; DAF bits include the\n"
			       " executed bits of conditional memory instructions and escapes, DAF.md; ratios are against\n"
			       " 32 bits per executed memory-referencing instruction)\n");
		}
	}
	if (o.json)
		printf("%s}\n", port || rc ? "]" : "");
	free(all);
	return rc;
}

int daf_bench(int argc, char **argv) { return bench_common(argc, argv, 0); }
int bench_trace_port(int argc, char **argv) { return bench_common(argc, argv, 1); }
