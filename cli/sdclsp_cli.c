/* SDC-LSP command-line glue: `info` and `bench sdclsp` (conversion to and
 * from .sdc streams is citcat_convert, <citcat/convert.h>). */
#include "cli.h"
#include "formats_cli.h"
#include "itrace.h"
#include <citcat/io.h>
#include "sdclsp.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int stop_requested(void *ctx) { return cli_interrupted(); }

static double ratio(uint64_t a, uint64_t b) { return b ? (double)a / (double)b : 0.0; }

int sdclsp_info(const char *path, int json)
{
	int version = cli_file_version(path, citcat_format_get(CITCAT_FMT_SDCLSP)); /* before "-" is read */
	struct sdclsp_config c;
	struct sdclsp_stats s;
	struct citcat_errinfo err;
	if (sdclsp_read_summary_stop(path, &c, &s, stop_requested, NULL, &err) < 0)
		return cli_errinfo(path, &err);
	static const char *repl[] = {"mru", "lru", "fifo"};
	if (json) {
		printf("{\"kind\": \"sdclsp\", \"version\": %d, \"variant\": \"%s\", \"n_set\": %u, \"n_way\": %u, \"n_p\": %u, "
		       "\"shift\": %u, \"u\": %u, \"max_sl\": %u, \"history\": %u, \"replacement\": \"%s\", "
		       "\"sa_always\": %s, \"instructions\": %llu, \"streams\": %llu, \"bits\": %llu, "
		       "\"hr_sdc\": %.6f, \"hr_lsp\": %.6f, \"bits_per_instruction\": %.6f, "
		       "\"msdc\": %.6f, \"hsdc\": %.6f, \"hlsp\": %.6f}\n",
		       version, sdclsp_variant_name(c.variant), c.n_set, c.n_way, c.n_p, c.shift, c.u, c.max_sl, c.hist,
		       repl[c.repl], (c.flags & SDCLSP_FLAG_SA_ALWAYS) ? "true" : "false",
		       (unsigned long long)s.instructions, (unsigned long long)s.streams, (unsigned long long)s.bits,
		       ratio(s.sdc_hits, s.streams), ratio(s.lsp_hits, s.streams), ratio(s.bits, s.instructions),
		       ratio(s.msdc_bits, s.bits), ratio(s.hsdc_bits, s.bits), ratio(s.hlsp_bits, s.bits));
	} else {
		printf("%s: SDC-LSP stream (v%d), %sSDC-LSP [%ux%u, %u], shift %u, u %u, max SL %u, history %u, %s%s\n",
		       path, version, sdclsp_variant_name(c.variant), c.n_set, c.n_way, c.n_p, c.shift, c.u, c.max_sl, c.hist,
		       repl[c.repl], (c.flags & SDCLSP_FLAG_SA_ALWAYS) ? ", SA on every miss" : "");
		printf("  instructions  %llu\n  streams       %llu (avg SL %.2f)\n  bits          %llu (%.4f per instruction)\n",
		       (unsigned long long)s.instructions, (unsigned long long)s.streams,
		       ratio(s.instructions, s.streams), (unsigned long long)s.bits, ratio(s.bits, s.instructions));
		printf("  hit rates     SDC %.4f, LSP %.4f\n", ratio(s.sdc_hits, s.streams), ratio(s.lsp_hits, s.streams));
		printf("  output share  mSDCt %.1f%%, hSDCt %.1f%%, hLSPt %.1f%%\n", 100 * ratio(s.msdc_bits, s.bits),
		       100 * ratio(s.hsdc_bits, s.bits), 100 * ratio(s.hlsp_bits, s.bits));
	}
	return EXIT_OK;
}

/* ---- bench ---- */

struct trace {
	uint32_t *pc, *word; /* word == 0 and pc odd: an interrupt entry (EPC = pc & ~1) */
	uint8_t *sz;         /* an instruction's size, + 8 in Thumb state (issue 11) */
	size_t n, cap;
	uint64_t insns;
	int thumb;           /* some instruction is in Thumb state: CITCAT_SDCLSP_ISA_ARMV7 */
};

static int trace_load(const char *path, struct trace *t)
{
	struct citcat_itrace_reader *r;
	static struct citcat_itrace_rec rec;
	int rc = citcat_itrace_reader_open(&r, path);
	memset(t, 0, sizeof *t);
	while (rc == 0 && (rc = citcat_itrace_next(r, &rec)) == 1) {
		if (rec.kind == CITCAT_REC_STOP) {
			rc = 0;
			continue;
		}
		if (t->n == t->cap) {
			size_t nc = t->cap ? 2 * t->cap : 1 << 16;
			uint32_t *a = realloc(t->pc, nc * 4), *b = a ? realloc(t->word, nc * 4) : NULL;
			uint8_t *z = b ? realloc(t->sz, nc) : NULL;
			if (a)
				t->pc = a;
			if (b)
				t->word = b;
			if (!z)
				return cli_fail("out of memory");
			t->sz = z;
			t->cap = nc;
		}
		if (rec.kind == CITCAT_REC_IRQ) {
			t->pc[t->n] = (uint32_t)rec.pc | 1;
			t->sz[t->n] = 0;
			t->word[t->n++] = 0;
		} else {
			t->pc[t->n] = (uint32_t)rec.pc;
			t->sz[t->n] = (uint8_t)((rec.size ? rec.size : 4) | (rec.thumb ? 8 : 0));
			t->thumb |= rec.thumb;
			t->word[t->n++] = rec.word;
			t->insns++;
		}
		rc = 0;
	}
	if (rc < 0)
		cli_errinfo(path, citcat_itrace_reader_error(r));
	citcat_itrace_reader_close(r);
	return rc < 0 ? EXIT_USAGE : 0;
}

/* The image a decoder needs, rebuilt from the words the trace executed. */
static int trace_image(const struct trace *t, struct citcat_image **img)
{
	size_t cap = 1 << 12, used = 0;
	uint32_t *set = calloc(cap, 4);
	if (!set || citcat_image_alloc(img) < 0)
		return -1;
	for (size_t i = 0; i < t->n; i++) {
		uint32_t pc = t->pc[i];
		if (pc & 1)
			continue;
		size_t h = (pc * 0x9E3779B1u >> 8) & (cap - 1);
		while (set[h] && set[h] != pc + 1)
			h = (h + 1) & (cap - 1);
		if (set[h])
			continue;
		set[h] = pc + 1;
		uint8_t b[4] = {(uint8_t)t->word[i], (uint8_t)(t->word[i] >> 8), (uint8_t)(t->word[i] >> 16),
				(uint8_t)(t->word[i] >> 24)};
		citcat_image_add(*img, pc, b, t->sz[i] & 7u);
		if (++used * 2 > cap) { /* grow */
			uint32_t *ns = calloc(cap * 2, 4);
			if (!ns)
				return -1;
			for (size_t k = 0; k < cap; k++)
				if (set[k]) {
					size_t g = ((set[k] - 1) * 0x9E3779B1u >> 8) & (2 * cap - 1);
					while (ns[g])
						g = (g + 1) & (2 * cap - 1);
					ns[g] = set[k];
				}
			free(set);
			set = ns;
			cap *= 2;
		}
	}
	free(set);
	return 0;
}

static void desc_sink(void *ctx, uint32_t sa, uint32_t sl, int inferable)
{
	uint8_t b[6] = {0};
	if (!inferable)
		b[0] = (uint8_t)sa, b[1] = (uint8_t)(sa >> 8), b[2] = (uint8_t)(sa >> 16), b[3] = (uint8_t)(sa >> 24);
	b[4] = (uint8_t)sl;
	b[5] = (uint8_t)(sl >> 8);
	fwrite(b, 1, 6, ctx);
}

static int run_encoder(const struct trace *t, const struct sdclsp_config *c, sdclsp_sink_fn sink, void *ctx,
		       FILE *desc, struct sdclsp_stats *st)
{
	struct sdclsp_encoder *e;
	int rc = sdclsp_encoder_alloc(&e, c, sink, ctx);
	if (rc < 0)
		return rc;
	if (desc)
		sdclsp_encoder_set_stream_cb(e, desc_sink, desc);
	for (size_t i = 0; i < t->n && rc == 0; i++)
		rc = (t->pc[i] & 1)  ? sdclsp_encode_irq(e, t->pc[i] & ~1u)
		     : t->thumb ? sdclsp_encode_insn_isa(e, t->pc[i], t->word[i], t->sz[i] & 7u, t->sz[i] >> 3)
				  : sdclsp_encode_insn(e, t->pc[i], t->word[i]);
	if (rc == 0)
		rc = sdclsp_encoder_finish(e);
	if (st)
		*st = *sdclsp_encoder_stats(e);
	sdclsp_encoder_free(e);
	return rc;
}


#define NSIZES 6
static const uint32_t bench_sets[NSIZES] = {8, 16, 32, 64, 128, 256};

struct bench_row {
	uint64_t insns, streams, fbase, base, nexs;
	long gzip, xz;
	uint64_t bits[3][NSIZES], sdc[3][NSIZES], lsp[3][NSIZES];
	double enc_mips, dec_mips;
};

static int bench_one(const char *path, struct bench_row *row)
{
	struct trace t;
	int status = trace_load(path, &t);
	if (status)
		return status;
	memset(row, 0, sizeof *row);
	row->insns = t.insns;
	char dpath[] = "/tmp/citcat-bench-XXXXXX";
	int fd = mkstemp(dpath); /* a name of our own, replaced by the outfile */
	struct citcat_outfile *dout = NULL;
	FILE *desc = NULL;
	if (fd >= 0) {
		close(fd);
		desc = cli_scratch_open(dpath, &dout);
	}
	for (int v = 0; v < 3; v++)
		for (int s = 0; s < NSIZES; s++) {
			struct sdclsp_config c;
			struct sdclsp_stats st;
			sdclsp_config_init(&c, (enum sdclsp_variant)(SDCLSP_B + v));
			if (t.thumb)
				c.isa = CITCAT_SDCLSP_ISA_ARMV7;
			c.n_set = bench_sets[s];
			c.n_p = bench_sets[s] * 4;
			int rc = run_encoder(&t, &c, NULL, NULL, v == 0 && s == 0 ? desc : NULL, &st);
			if (rc < 0) {
				status = cli_fail("%s: %s", path, citcat_errstr(rc));
				goto out;
			}
			row->bits[v][s] = st.bits;
			row->sdc[v][s] = st.sdc_hits;
			row->lsp[v][s] = st.lsp_hits;
			row->streams = st.streams;
			row->fbase = st.fbase_bits;
			row->base = st.base_bits;
			row->nexs = st.nexs_bits;
		}
	if (desc) {
		int bad = cli_scratch_close(desc, dout);
		desc = NULL;
		if (bad) {
			status = cli_fail("%s: write failed", dpath);
			goto out;
		}
		row->gzip = cli_compressed_size("gzip -1 -c", dpath);
		row->xz = cli_compressed_size("xz -9 -c", dpath);
	}
	/* speed: rSDC-LSP [32x4, 128] into memory and back, best of three */
	struct sdclsp_config c;
	struct citcat_image *img = NULL;
	sdclsp_config_init(&c, SDCLSP_R);
	if (t.thumb)
		c.isa = CITCAT_SDCLSP_ISA_ARMV7;
	if (trace_image(&t, &img) < 0) {
		status = cli_fail("out of memory");
		goto out;
	}
	double best_e = 1e30, best_d = 1e30;
	for (int k = 0; k < 3; k++) {
		struct citcat_outfile *mo;
		uint8_t *mp = NULL;
		size_t ml = 0;
		if (citcat_outfile_open(&mo, NULL, 0, NULL) < 0) {
			status = cli_fail("out of memory");
			break;
		}
		double t0 = cli_now();
		run_encoder(&t, &c, citcat_outfile_sink, mo, NULL, NULL);
		int trc = citcat_outfile_take(mo, &mp, &ml);
		double t1 = cli_now();
		struct sdclsp_decoder *d;
		uint64_t pc, n = 0, x = 0;
		int rc = trc < 0 ? trc : sdclsp_decoder_open_mem(&d, mp, ml, img);
		while (rc >= 0 && (rc = sdclsp_decoder_next(d, &pc)) == 1)
			x ^= pc, n++;
		double t2 = cli_now();
		if (rc < 0 || n != t.insns) {
			status = cli_fail("%s: round trip failed: %s", path, trc < 0 ? citcat_errstr(trc) : sdclsp_decoder_error(d)->msg);
			if (trc >= 0)
				sdclsp_decoder_close(d);
			free(mp);
			break;
		}
		sdclsp_decoder_close(d);
		free(mp);
		best_e = t1 - t0 < best_e ? t1 - t0 : best_e;
		best_d = t2 - t1 < best_d ? t2 - t1 : best_d;
		(void)x;
	}
	row->enc_mips = t.insns / best_e / 1e6;
	row->dec_mips = t.insns / best_d / 1e6;
	citcat_image_free(img);
out:
	if (desc)
		cli_scratch_close(desc, dout);
	if (fd >= 0)
		unlink(dpath);
	free(t.pc);
	free(t.word);
	free(t.sz);
	return status;
}

static void bench_print(const char *name, const struct bench_row *r, int json, int first)
{
	static const char vn[3] = {'b', 'e', 'r'};
	double n = r->insns ? (double)r->insns : 1;
	if (json) {
		printf("%s{\"file\": \"%s\", \"instructions\": %llu, \"streams\": %llu, \"fbase\": %.4f, \"base\": %.4f, "
		       "\"nexs\": %.4f, \"gzip1\": %.4f, \"xz9\": %.4f, \"encode_mips\": %.1f, \"decode_mips\": %.1f, "
		       "\"configs\": [",
		       first ? "" : ", ", name, (unsigned long long)r->insns, (unsigned long long)r->streams,
		       r->fbase / n, r->base / n, r->nexs / n, r->gzip * 8 / n, r->xz * 8 / n, r->enc_mips,
		       r->dec_mips);
		for (int s = 0; s < NSIZES; s++) {
			printf("%s{\"sdc\": \"%ux4\", \"lsp\": %u", s ? ", " : "", bench_sets[s], bench_sets[s] * 4);
			for (int v = 0; v < 3; v++)
				printf(", \"%c\": {\"bits_per_instruction\": %.4f, \"hr_sdc\": %.4f, \"hr_lsp\": %.4f}",
				       vn[v], r->bits[v][s] / n, ratio(r->sdc[v][s], r->streams),
				       ratio(r->lsp[v][s], r->streams));
			printf("}");
		}
		printf("]}");
		return;
	}
	printf("%s: %llu instructions, %llu streams (avg SL %.1f)\n", name, (unsigned long long)r->insns,
	       (unsigned long long)r->streams, ratio(r->insns, r->streams));
	printf("  baselines bits/ins: fBASE %.3f  BASE %.3f  NEXS %.3f  gzip -1 %.3f  xz -9 %.3f\n", r->fbase / n,
	       r->base / n, r->nexs / n, r->gzip * 8 / n, r->xz * 8 / n);
	printf("  %-14s %9s %9s %9s %8s %8s\n", "[SDC, LSP]", "bSDC-LSP", "eSDC-LSP", "rSDC-LSP", "hrSDC", "hrLSP");
	for (int s = 0; s < NSIZES; s++) {
		char cfg[32];
		snprintf(cfg, sizeof cfg, "[%ux4, %u]", bench_sets[s], bench_sets[s] * 4);
		printf("  %-14s %9.4f %9.4f %9.4f %8.4f %8.4f\n", cfg, r->bits[0][s] / n, r->bits[1][s] / n,
		       r->bits[2][s] / n, ratio(r->sdc[0][s], r->streams), ratio(r->lsp[0][s], r->streams));
	}
	printf("  speed rSDC-LSP [32x4, 128]: encode %.1f, decode %.1f million instructions/s\n", r->enc_mips,
	       r->dec_mips);
}

int sdclsp_bench(int argc, char **argv)
{
	int json = 0, nfiles = 0, status = 0;
	for (int i = 1; i < argc; i++) {
		if (cli_is_help(argv[i])) {
			printf("usage: citcat bench sdclsp FILE.itrace... [--json]\n\n"
			       "Bits per instruction of bSDC-, eSDC- and rSDC-LSP for [8x4, 32] .. [256x4, 1024]\n"
			       "beside fBASE, BASE, NEXS and gzip -1 / xz -9 of the (SA/-, SL) sequence; hit rates\n"
			       "(of bSDC-LSP); encode and decode speed of rSDC-LSP [32x4, 128].  The last row sums\n"
			       "all files (weighted by instruction count).\n");
			return EXIT_OK;
		} else if (strcmp(argv[i], "--json") == 0) {
			json = 1;
		} else if (argv[i][0] == '-') {
			return cli_usage_error("bench", "unknown option '%s'", argv[i]);
		} else {
			nfiles++;
		}
	}
	if (!nfiles)
		return cli_usage_error("bench", "bench sdclsp needs itrace files (no example traces are built in yet)");
	struct bench_row tot, r;
	memset(&tot, 0, sizeof tot);
	double enc = 0, dec = 0;
	int first = 1;
	if (json)
		printf("{\"files\": [");
	for (int i = 1; i < argc; i++) {
		if (argv[i][0] == '-')
			continue;
		if ((status = bench_one(argv[i], &r)) != 0)
			break;
		bench_print(argv[i], &r, json, first);
		first = 0;
		tot.insns += r.insns;
		tot.streams += r.streams;
		tot.fbase += r.fbase;
		tot.base += r.base;
		tot.nexs += r.nexs;
		tot.gzip += r.gzip;
		tot.xz += r.xz;
		for (int v = 0; v < 3; v++)
			for (int s = 0; s < NSIZES; s++) {
				tot.bits[v][s] += r.bits[v][s];
				tot.sdc[v][s] += r.sdc[v][s];
				tot.lsp[v][s] += r.lsp[v][s];
			}
		enc += r.insns / r.enc_mips;
		dec += r.insns / r.dec_mips;
	}
	tot.enc_mips = enc > 0 ? tot.insns / enc : 0;
	tot.dec_mips = dec > 0 ? tot.insns / dec : 0;
	if (json) {
		printf("], \"total\": ");
		bench_print("total", &tot, 1, 1);
		printf("}\n");
	} else if (!status && nfiles > 1) {
		bench_print("total", &tot, 0, 1);
	}
	return status;
}
