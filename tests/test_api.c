/* The public API's uniform contracts (include/citcat/base.h), through the
 * shared library and the public headers only (this file sees no internal
 * header; CMake gives it include/ alone):
 *  - every function given a NULL handle returns CITCAT_ERR_INVAL, NULL or
 *    0, and close/free/abort accept NULL;
 *  - every *_open follows one failure convention: *H is NULL or a handle
 *    holding the error, and closing it is always right;
 *  - config structs follow pt_config_from_user: too small a size is
 *    CITCAT_ERR_INVAL, an older (shorter) struct reads the missing members
 *    as zero, a newer (longer) one has its extra members ignored;
 *  - capture's event sink and replay's on_record see exactly what the files
 *    hold: on FIRMWARE.elf (one with interrupts and DMA), every CAT event
 *    (per kind, and in order against the CAT written in the same run) and
 *    every itrace record (against the oracle);
 *  - issue 30 phase B's calls (phase_b): a CAT replayed by name, the AES's
 *    figures, the LVT's summary, decoder and unfiltered load-value trace,
 *    the disassembler and the listing writer, against the same run.
 * Usage: test_api [FIRMWARE.elf TMPDIR] */
#include <citcat/citcat.h>

#include "check.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

static void null_handles(void)
{
	struct citcat_cat_event cev;
	struct citcat_itrace_rec irec;
	struct citcat_aes_rec arec;
	struct citcat_ref ref = {0};
	uint64_t pc;
	uint8_t *buf;
	size_t len;

	CHECK_EQ(citcat_cat_writer_open(NULL, "x", NULL), CITCAT_ERR_INVAL);
	CHECK_EQ(citcat_cat_write(NULL, &cev), CITCAT_ERR_INVAL);
	CHECK_EQ(citcat_cat_writer_close(NULL), CITCAT_ERR_INVAL);
	citcat_cat_writer_abort(NULL);
	CHECK(citcat_cat_writer_error(NULL) == NULL);
	CHECK_EQ(citcat_cat_writer_bytes(NULL), 0);
	CHECK_EQ(citcat_cat_reader_open(NULL, "x"), CITCAT_ERR_INVAL);
	CHECK_EQ(citcat_cat_reader_open_mem(NULL, "x", 1), CITCAT_ERR_INVAL);
	CHECK(citcat_cat_config(NULL) == NULL);
	CHECK_EQ(citcat_cat_next(NULL, &cev), CITCAT_ERR_INVAL);
	CHECK_EQ(citcat_cat_reader_offset(NULL), 0);
	CHECK_EQ(citcat_cat_reader_file_size(NULL), 0);
	CHECK(citcat_cat_reader_error(NULL) == NULL);
	citcat_cat_reader_close(NULL);
	CHECK(strcmp(citcat_cat_kind_name(9999), "?") == 0);

	CHECK_EQ(citcat_itrace_writer_open(NULL, "x", CITCAT_ISA_ARM_A32), CITCAT_ERR_INVAL);
	CHECK_EQ(citcat_itrace_write(NULL, &irec), CITCAT_ERR_INVAL);
	CHECK_EQ(citcat_itrace_writer_close(NULL), CITCAT_ERR_INVAL);
	citcat_itrace_writer_abort(NULL);
	CHECK(citcat_itrace_writer_error(NULL) == NULL);
	CHECK_EQ(citcat_itrace_writer_bytes(NULL), 0);
	CHECK_EQ(citcat_itrace_reader_open(NULL, "x"), CITCAT_ERR_INVAL);
	CHECK_EQ(citcat_itrace_reader_open_mem(NULL, "x", 1), CITCAT_ERR_INVAL);
	CHECK_EQ(citcat_itrace_next(NULL, &irec), CITCAT_ERR_INVAL);
	CHECK_EQ(citcat_itrace_isa(NULL), 0);
	CHECK(citcat_itrace_reader_error(NULL) == NULL);
	citcat_itrace_reader_close(NULL);
	CHECK_EQ(citcat_itrace_rec_equal(NULL, &irec), 0);

	CHECK_EQ(citcat_aes_writer_open(NULL, "x", NULL, NULL), CITCAT_ERR_INVAL);
	CHECK_EQ(citcat_aes_write(NULL, &arec), CITCAT_ERR_INVAL);
	CHECK_EQ(citcat_aes_writer_close(NULL), CITCAT_ERR_INVAL);
	citcat_aes_writer_abort(NULL);
	CHECK(citcat_aes_writer_error(NULL) == NULL);
	CHECK_EQ(citcat_aes_reader_open(NULL, "x"), CITCAT_ERR_INVAL);
	CHECK_EQ(citcat_aes_reader_open_mem(NULL, "x", 1), CITCAT_ERR_INVAL);
	CHECK(citcat_aes_trace_id(NULL) == NULL);
	CHECK_EQ(citcat_aes_next(NULL, &arec), CITCAT_ERR_INVAL);
	CHECK_EQ(citcat_aes_pending_repeats(NULL), 0);
	CHECK_EQ(citcat_aes_skip_repeats(NULL), 0);
	CHECK(citcat_aes_reader_error(NULL) == NULL);
	citcat_aes_reader_close(NULL);
	CHECK_EQ(citcat_aes_is_counter(NULL, 0), 0);
	CHECK(strcmp(citcat_aes_kind_name(9999), "?") == 0);

	CHECK_EQ(citcat_addr_writer_open(NULL, "x", NULL), CITCAT_ERR_INVAL);
	CHECK_EQ(citcat_addr_put(NULL, &ref), CITCAT_ERR_INVAL);
	CHECK_EQ(citcat_addr_writer_finish(NULL), CITCAT_ERR_INVAL);
	CHECK_EQ(citcat_addr_writer_close(NULL), CITCAT_ERR_INVAL);
	CHECK_EQ(citcat_addr_writer_take(NULL, &buf, &len), CITCAT_ERR_INVAL);
	citcat_addr_writer_abort(NULL);
	CHECK(citcat_addr_writer_error(NULL) == NULL);
	CHECK_EQ(citcat_addr_writer_payload_bytes(NULL), 0);
	CHECK_EQ(citcat_addr_writer_refs(NULL), 0);
	CHECK_EQ(citcat_addr_reader_open(NULL, "x", 0), CITCAT_ERR_INVAL);
	CHECK_EQ(citcat_addr_reader_open_mem(NULL, "x", 1, 0), CITCAT_ERR_INVAL);
	CHECK_EQ(citcat_addr_next(NULL, &ref), CITCAT_ERR_INVAL);
	CHECK_EQ(citcat_addr_reader_fmt(NULL), 0);
	CHECK_EQ(citcat_addr_reader_lz4(NULL), 0);
	CHECK_EQ(citcat_addr_reader_addr_bits(NULL), 0);
	CHECK_EQ(citcat_addr_reader_istride(NULL), 0);
	CHECK_EQ(citcat_addr_reader_payload_bytes(NULL), 0);
	CHECK(citcat_addr_reader_error(NULL) == NULL);
	citcat_addr_reader_close(NULL);
	CHECK(citcat_addr_fmt_name(99) == NULL);
	CHECK_EQ(citcat_addr_fmt_parse(NULL), 0);
	CHECK_EQ(citcat_addr_sniff(NULL, 4), 0);

	struct citcat_sdclsp_config sc;
	struct citcat_sdclsp_stats ss;
	CHECK_EQ(citcat_sdclsp_config_init(NULL, CITCAT_SDCLSP_R), CITCAT_ERR_INVAL);
	CHECK_EQ(citcat_sdclsp_config_parse(NULL, "sdclsp", NULL), CITCAT_ERR_INVAL);
	CHECK_EQ(citcat_sdclsp_config_parse(&sc, NULL, NULL), CITCAT_ERR_INVAL);
	CHECK_EQ(citcat_sdclsp_config_check(NULL, NULL), CITCAT_ERR_INVAL);
	CHECK(strcmp(citcat_sdclsp_variant_name(99), "?") == 0);
	CHECK_EQ(citcat_sdclsp_encoder_alloc(NULL, &sc, NULL, NULL), CITCAT_ERR_INVAL);
	citcat_sdclsp_encoder_free(NULL);
	CHECK_EQ(citcat_sdclsp_encode_insn(NULL, 0, 0), CITCAT_ERR_INVAL);
	CHECK_EQ(citcat_sdclsp_encode_irq(NULL, 0), CITCAT_ERR_INVAL);
	CHECK_EQ(citcat_sdclsp_encoder_finish(NULL), CITCAT_ERR_INVAL);
	CHECK(citcat_sdclsp_encoder_stats(NULL) == NULL);
	CHECK(citcat_sdclsp_encoder_error(NULL) == NULL);
	CHECK_EQ(citcat_sdclsp_decoder_open(NULL, "x", NULL), CITCAT_ERR_INVAL);
	CHECK_EQ(citcat_sdclsp_decoder_open_mem(NULL, "x", 1, NULL), CITCAT_ERR_INVAL);
	CHECK_EQ(citcat_sdclsp_decoder_next(NULL, &pc), CITCAT_ERR_INVAL);
	CHECK(citcat_sdclsp_decoder_config(NULL) == NULL);
	CHECK(citcat_sdclsp_decoder_error(NULL) == NULL);
	citcat_sdclsp_decoder_close(NULL);
	CHECK_EQ(citcat_sdclsp_read_summary(NULL, &sc, &ss, NULL), CITCAT_ERR_INVAL);
	CHECK_EQ(citcat_sdclsp_read_summary_stop(NULL, &sc, &ss, NULL, NULL, NULL), CITCAT_ERR_INVAL);
	CHECK_EQ(citcat_sdclsp_is_magic(NULL, 8), 0);
	CHECK_EQ(citcat_sdclsp_probe(NULL), 0);

	CHECK_EQ(citcat_image_alloc(NULL), CITCAT_ERR_INVAL);
	citcat_image_free(NULL);
	CHECK_EQ(citcat_image_add(NULL, 0, "x", 1), CITCAT_ERR_INVAL);
	CHECK_EQ(citcat_image_load_elf(NULL, "x", NULL, NULL), CITCAT_ERR_INVAL);
	CHECK_EQ(citcat_image_read(NULL, 0, &pc, 1), CITCAT_ERR_INVAL);
	CHECK_EQ(citcat_image_segments(NULL), 0);
	citcat_image_segment(NULL, 0, NULL, NULL, NULL);
	CHECK_EQ(citcat_image_bytes(NULL), 0);

	struct citcat_ims ims;
	memset(&ims, 0, sizeof ims);
	CHECK_EQ(citcat_ims_extract(NULL, &ims, NULL, NULL, NULL, NULL), CITCAT_ERR_INVAL);
	CHECK_EQ(citcat_ims_extract("x", NULL, NULL, NULL, NULL, NULL), CITCAT_ERR_INVAL);
	CHECK_EQ(citcat_ims_write(NULL, "x", NULL), CITCAT_ERR_INVAL);
	CHECK_EQ(citcat_ims_read(NULL, &ims, NULL), CITCAT_ERR_INVAL);
	CHECK_EQ(citcat_ims_read("x", NULL, NULL), CITCAT_ERR_INVAL);
	CHECK_EQ(citcat_ims_read_mem(NULL, 1, &ims, NULL), CITCAT_ERR_INVAL);
	citcat_ims_fini(NULL);
	CHECK_EQ(citcat_aes_extract(NULL, "x", NULL, NULL, NULL, NULL), CITCAT_ERR_INVAL);
	CHECK_EQ(citcat_aes_extract("x", NULL, NULL, NULL, NULL, NULL), CITCAT_ERR_INVAL);
	CHECK_EQ(citcat_trace_hash_event(42, NULL), 42);
	citcat_trace_id_make(NULL, 0, 0, 0, 0, NULL);
	citcat_target_config_default(NULL);

	struct citcat_capture_result cres;
	struct citcat_replay_result rres;
	struct citcat_errinfo err;
	citcat_capture_config_default(NULL);
	citcat_replay_config_default(NULL);
	CHECK_EQ(citcat_capture_run(NULL, "x", NULL, NULL, &cres, &err), CITCAT_ERR_INVAL);
	CHECK_EQ(citcat_replay_run(NULL, &rres, &err), CITCAT_ERR_INVAL);
	CHECK(citcat_errstr(-12345) != NULL);
	CHECK(strcmp(citcat_version(), CITCAT_VERSION_STRING) == 0);
}

/* One failure convention for every *_open: *H is NULL or holds the error;
 * closing it is right in every case. */
static void open_failures(const char *missing, const char *nodir)
{
	struct citcat_cat_reader *cr = (void *)1;
	CHECK(citcat_cat_reader_open(&cr, missing) == CITCAT_ERR_IO);
	CHECK(!cr || citcat_cat_reader_error(cr)->code == CITCAT_ERR_IO);
	citcat_cat_reader_close(cr);
	struct citcat_itrace_reader *ir = (void *)1;
	CHECK(citcat_itrace_reader_open(&ir, missing) == CITCAT_ERR_IO);
	CHECK(!ir || citcat_itrace_reader_error(ir)->code == CITCAT_ERR_IO);
	citcat_itrace_reader_close(ir);
	struct citcat_aes_reader *ar = (void *)1;
	CHECK(citcat_aes_reader_open(&ar, missing) == CITCAT_ERR_IO);
	CHECK(!ar || citcat_aes_reader_error(ar)->code == CITCAT_ERR_IO);
	citcat_aes_reader_close(ar);
	struct citcat_addr_reader *dr = (void *)1;
	CHECK(citcat_addr_reader_open(&dr, missing, CITCAT_ADDR_AUTO) == CITCAT_ERR_IO);
	CHECK(!dr || citcat_addr_reader_error(dr)->code == CITCAT_ERR_IO);
	citcat_addr_reader_close(dr);
	struct citcat_image *img = NULL;
	CHECK(citcat_image_alloc(&img) == 0);
	struct citcat_sdclsp_decoder *sd = (void *)1;
	CHECK(citcat_sdclsp_decoder_open(&sd, missing, img) == CITCAT_ERR_IO);
	CHECK(!sd || citcat_sdclsp_decoder_error(sd)->code == CITCAT_ERR_IO);
	citcat_sdclsp_decoder_close(sd);
	citcat_image_free(img);

	struct citcat_target_config tc;
	citcat_target_config_default(&tc);
	struct citcat_trace_id id = {0};
	struct citcat_cat_writer *cw = (void *)1;
	CHECK(citcat_cat_writer_open(&cw, nodir, &tc) == CITCAT_ERR_IO);
	citcat_cat_writer_abort(cw);
	struct citcat_itrace_writer *iw = (void *)1;
	CHECK(citcat_itrace_writer_open(&iw, nodir, CITCAT_ISA_ARM_A32) == CITCAT_ERR_IO);
	citcat_itrace_writer_abort(iw);
	struct citcat_aes_writer *aw = (void *)1;
	CHECK(citcat_aes_writer_open(&aw, nodir, &id, &tc) == CITCAT_ERR_IO);
	citcat_aes_writer_abort(aw);
	struct citcat_addr_config ac = {sizeof ac, CITCAT_ADDR_DIN, 0, 0, 0, 0, 0};
	struct citcat_addr_writer *dw = (void *)1;
	CHECK(citcat_addr_writer_open(&dw, nodir, &ac) == CITCAT_ERR_IO);
	CHECK(!dw || citcat_addr_writer_error(dw)->code == CITCAT_ERR_IO);
	citcat_addr_writer_abort(dw);
}

/* An address-trace writer with an older (shorter) and a newer (longer)
 * config struct, and one too short to hold the format. */
static void config_sizes(void)
{
	struct {
		struct citcat_addr_config c;
		uint64_t future[4]; /* members a newer header would have */
	} newer;
	memset(&newer, 0xff, sizeof newer);
	newer.c = (struct citcat_addr_config){sizeof newer, CITCAT_ADDR_XDIN, 0, 0, 0, 0, 0};
	struct citcat_addr_writer *w;
	struct citcat_ref ref = {0x1000, 4, CITCAT_REF_READ};
	uint8_t *buf = NULL;
	size_t len = 0;
	CHECK(citcat_addr_writer_open(&w, NULL, &newer.c) == 0);
	CHECK(citcat_addr_put(w, &ref) == 0);
	CHECK(citcat_addr_writer_take(w, &buf, &len) == 0);
	CHECK(len == strlen("r 1000 4\n") && buf && memcmp(buf, "r 1000 4\n", len) == 0);
	free(buf);

	/* older: the struct ends after FMT; LZ4 (set to garbage beyond the size)
	 * must read as 0 */
	struct citcat_addr_config older;
	memset(&older, 0xff, sizeof older);
	older.size = offsetof(struct citcat_addr_config, fmt) + sizeof older.fmt;
	older.fmt = CITCAT_ADDR_XDIN;
	CHECK(citcat_addr_writer_open(&w, NULL, &older) == 0);
	CHECK(citcat_addr_put(w, &ref) == 0);
	buf = NULL;
	CHECK(citcat_addr_writer_take(w, &buf, &len) == 0);
	CHECK(len == strlen("r 1000 4\n") && buf && memcmp(buf, "r 1000 4\n", len) == 0);
	free(buf);

	older.size = offsetof(struct citcat_addr_config, fmt);
	w = (void *)1;
	CHECK(citcat_addr_writer_open(&w, NULL, &older) == CITCAT_ERR_INVAL);
	citcat_addr_writer_abort(w);

	struct citcat_replay_config rc;
	citcat_replay_config_default(&rc);
	CHECK_EQ(rc.size, sizeof rc);
	rc.ims_path = "x.ims";
	rc.aes_path = "x.aes";
	rc.size = offsetof(struct citcat_replay_config, aes_path);
	struct citcat_replay_result res;
	struct citcat_errinfo err;
	CHECK_EQ(citcat_replay_run(&rc, &res, &err), CITCAT_ERR_INVAL);
	struct citcat_capture_config cc;
	citcat_capture_config_default(&cc);
	CHECK_EQ(cc.size, sizeof cc);
	cc.size = 0;
	struct citcat_capture_result cres;
	CHECK_EQ(citcat_capture_run(&cc, "x.elf", NULL, NULL, &cres, &err), CITCAT_ERR_INVAL);
}

struct sink {
	uint64_t n[CITCAT_CAT_KINDS];
	struct citcat_cat_event ev[64]; /* the first events, for the order check */
	uint8_t data[64][64];
	uint64_t total, stop_after;
};

static int sink_event(void *ctx, const struct citcat_cat_event *ev)
{
	struct sink *s = ctx;
	if (s->stop_after && s->total == s->stop_after)
		return CITCAT_ERR_LIMIT;
	if (s->total < 64) {
		s->ev[s->total] = *ev;
		if (ev->data && ev->len <= 64)
			memcpy(s->data[s->total], ev->data, ev->len);
	}
	s->n[ev->kind % CITCAT_CAT_KINDS]++;
	s->total++;
	return 0;
}

static int failing_sink(void *ctx, const struct citcat_cat_event *ev)
{
	(void)ctx, (void)ev;
	return CITCAT_ERR_INTERNAL; /* never called when the struct is too short to hold it */
}

struct records {
	struct citcat_itrace_reader *oracle;
	uint64_t n, mismatches, irqs;
};

static int on_record(void *ctx, const struct citcat_itrace_rec *rec)
{
	struct records *r = ctx;
	static struct citcat_itrace_rec want;
	if (citcat_itrace_next(r->oracle, &want) != 1 || !citcat_itrace_rec_equal(&want, rec))
		r->mismatches++;
	r->irqs += rec->kind == CITCAT_REC_IRQ;
	r->n++;
	return 0;
}

static int stop_at_100(void *ctx, const struct citcat_itrace_rec *rec)
{
	(void)rec;
	return ++*(uint64_t *)ctx == 100 ? CITCAT_ERR_LIMIT : 0;
}

static void count_raw(void *ctx, const uint8_t *bytes, unsigned n)
{
	(void)bytes;
	*(uint64_t *)ctx += n;
}

/* Issue 30 phase B's calls: a CAT replayed by name, the AES's figures, the
 * LVT's summary, decoder and unfiltered trace, the disassembler and the
 * listing writer, each against what the run recorded. */
static void phase_b(const char *elf, const char *dir, const char *cat, const char *oracle, const char *aes_p,
		    const struct citcat_capture_result *cap, const struct citcat_replay_result *rres)
{
	struct citcat_errinfo err;
	struct stat st;
	/* a CAT by name, in a temporary directory of its own: the records are
	 * the oracle's, the IMS tells the interval's length beforehand */
	struct citcat_cat_replay *h = NULL;
	CHECK_EQ(citcat_cat_replay_open(&h, cat, NULL, &err), 0);
	CHECK(h != NULL);
	CHECK_EQ(citcat_cat_replay_ims(h)->id.insns, cap->traced_insns);
	char ims_tmp[600];
	snprintf(ims_tmp, sizeof ims_tmp, "%s", citcat_cat_replay_ims_path(h));
	CHECK(stat(ims_tmp, &st) == 0 && stat(citcat_cat_replay_aes_path(h), &st) == 0);
	struct records recs = {0};
	CHECK(citcat_itrace_reader_open(&recs.oracle, oracle) == 0);
	struct citcat_replay_config rcfg;
	citcat_replay_config_default(&rcfg);
	rcfg.on_record = on_record;
	rcfg.record_ctx = &recs;
	struct citcat_replay_result r2;
	CHECK_EQ(citcat_cat_replay_run(h, &rcfg, &r2, &err), 0);
	CHECK_EQ(recs.mismatches, 0);
	CHECK_EQ(r2.insns, cap->traced_insns);
	CHECK(r2.bus_events > 0); /* verified against the CAT */
	citcat_itrace_reader_close(recs.oracle);
	CHECK_EQ(citcat_cat_replay_run(h, NULL, &r2, &err), 0); /* the defaults, again */
	CHECK_EQ(r2.insns, cap->traced_insns);
	citcat_cat_replay_close(h);
	CHECK(stat(ims_tmp, &st) != 0); /* removed */
	/* in the caller's directory; a CAT that is not there */
	CHECK_EQ(citcat_cat_replay_open(&h, cat, dir, &err), 0);
	CHECK(strncmp(citcat_cat_replay_aes_path(h), dir, strlen(dir)) == 0);
	citcat_cat_replay_close(h);
	h = (struct citcat_cat_replay *)&st;
	CHECK(citcat_cat_replay_open(&h, "/nonexistent/citcat-test-api.cat", dir, &err) < 0);
	CHECK(h == NULL && err.msg[0]);

	/* the AES's figures are the replay's events */
	struct citcat_aes_sizes sz;
	CHECK_EQ(citcat_aes_measure(aes_p, &sz, &err), 0);
	CHECK_EQ(sz.count[CITCAT_AES_IRQ], rres->irqs);
	CHECK_EQ(sz.count[CITCAT_AES_DMA], rres->dma);
	CHECK_EQ(sz.insns, cap->traced_insns);
	CHECK(sz.file_bytes > 0 && sz.z[CITCAT_AES_IRQ] > 0);

	/* an LVT: its summary holds the capture's totals, the unfiltered trace
	 * has every load value's bytes, the decoder regenerates the oracle */
	char lvt[600];
	snprintf(lvt, sizeof lvt, "%s/api.lvt", dir);
	struct citcat_capture_config c;
	citcat_capture_config_default(&c);
	c.lvt_path = lvt;
	struct citcat_capture_result lres;
	uint64_t raw = 0;
	CHECK_EQ(citcat_capture_run_lvt_raw(&c, elf, NULL, NULL, count_raw, &raw, &lres, &err), 0);
	CHECK(raw > 0);
	CHECK_EQ(raw, lres.lvt.raw_bytes);
	struct citcat_lvt_info li;
	CHECK_EQ(citcat_lvt_info(lvt, &li, &err), 0);
	CHECK(li.has_start);
	CHECK_EQ(li.st.insns, lres.lvt.insns);
	CHECK_EQ(li.st.hits, lres.lvt.hits);
	CHECK(li.file_bytes > 0 && li.chunks > 0);
	struct citcat_lvt_replay_config lc;
	citcat_lvt_replay_config_default(&lc);
	lc.lvt_path = lvt;
	lc.image_path = elf;
	lc.oracle = oracle;
	CHECK_EQ(citcat_lvt_replay_run(&lc, &r2, &err), 0);
	CHECK_EQ(r2.insns, cap->traced_insns);
	CHECK_EQ(r2.oracle_records, rres->insns + rres->irqs + rres->dma); /* the oracle holds DMA records too */
	citcat_capture_config_default(&c); /* no LVT */
	CHECK_EQ(citcat_capture_run_lvt_raw(&c, elf, NULL, NULL, count_raw, &raw, &lres, &err), CITCAT_ERR_INVAL);

	/* the disassembler: A32 and Thumb, and a Thumb-2 prefix alone */
	struct citcat_disasm *d = NULL;
	char mn[32], ops[64];
	CHECK_EQ(citcat_disasm_open(&d), 0);
	CHECK_EQ(citcat_disasm_insn(d, 0x100, 0xe3a00001, 4, 0, mn, sizeof mn, ops, sizeof ops), 0);
	CHECK(strcmp(mn, "mov") == 0 && strcmp(ops, "r0, #1") == 0);
	CHECK_EQ(citcat_disasm_insn(d, 0x100, 0x2001, 2, 1, mn, sizeof mn, ops, sizeof ops), 0);
	CHECK(strcmp(mn, "movs") == 0 && strcmp(ops, "r0, #1") == 0);
	CHECK_EQ(citcat_disasm_insn(d, 0x100, 0xf000, 2, 1, mn, sizeof mn, ops, sizeof ops), CITCAT_ERR_CORRUPT);
	CHECK(mn[0] == 0 && ops[0] == 0);
	citcat_disasm_close(d);

	/* the listing writer: one instruction, numbered from its index */
	char txt[600];
	snprintf(txt, sizeof txt, "%s/api.txt", dir);
	struct citcat_listing_writer *w = NULL;
	CHECK_EQ(citcat_listing_writer_open(&w, txt, CITCAT_ISA_ARM_A32, &err), 0);
	citcat_listing_set_index(w, 41);
	struct citcat_itrace_rec rec = {.kind = CITCAT_REC_INSN, .pc = 0x100, .word = 0xe3a00001};
	CHECK_EQ(citcat_listing_write(w, &rec), 0);
	CHECK_EQ(citcat_listing_writer_close(w, &err), 0);
	FILE *f = fopen(txt, "r");
	char line[256], body[256] = "";
	while (f && fgets(line, sizeof line, f))
		if (line[0] != '#')
			snprintf(body, sizeof body, "%s", line);
	if (f)
		fclose(f);
	CHECK(strstr(body, "41") && strstr(body, "00000100") && strstr(body, "e3a00001") && strstr(body, "mov"));
}

static void callbacks(const char *elf, const char *dir)
{
	char cat[512], oracle[512], ims_p[512], aes_p[512];
	snprintf(cat, sizeof cat, "%s/api.cat", dir);
	snprintf(oracle, sizeof oracle, "%s/api.itrace", dir);
	snprintf(ims_p, sizeof ims_p, "%s/api.ims", dir);
	snprintf(aes_p, sizeof aes_p, "%s/api.aes", dir);
	mkdir(dir, 0777);

	/* a newer caller: its struct is longer than ours */
	struct {
		struct citcat_capture_config c;
		uint64_t future[4];
	} newer;
	memset(&newer, 0xff, sizeof newer);
	citcat_capture_config_default(&newer.c);
	newer.c.size = sizeof newer;
	static struct sink s;
	newer.c.on_event = sink_event;
	newer.c.event_ctx = &s;
	struct citcat_capture_result res;
	struct citcat_errinfo err;
	int rc = citcat_capture_run(&newer.c, elf, cat, oracle, &res, &err);
	if (rc)
		fprintf(stderr, "capture: %s\n", err.msg);
	CHECK_EQ(rc, 0);
	CHECK(res.traced);
	for (int k = 0; k < CITCAT_CAT_KINDS; k++)
		CHECK_EQ(s.n[k], res.events[k]);
	CHECK(s.n[CITCAT_CAT_IRQ] > 0 && s.n[CITCAT_CAT_DMA] > 0 && s.n[CITCAT_CAT_SYNC] == 1);
	/* the sink saw the CAT's events, in the CAT's order */
	struct citcat_cat_reader *r;
	struct citcat_cat_event ev;
	uint64_t i = 0;
	CHECK(citcat_cat_reader_open(&r, cat) == 0);
	while (citcat_cat_next(r, &ev) == 1) {
		if (i < 64 && i < s.total) {
			CHECK_EQ(ev.kind, s.ev[i].kind);
			CHECK_EQ(ev.addr, s.ev[i].addr);
			CHECK_EQ(ev.value, s.ev[i].value);
			CHECK_EQ(ev.len, s.ev[i].len);
			CHECK(!ev.len || ev.len > 64 || memcmp(ev.data, s.data[i], ev.len) == 0);
		}
		i++;
	}
	CHECK_EQ(i, s.total);
	citcat_cat_reader_close(r);

	/* an older caller: the struct ends before ON_EVENT, which must be
	 * ignored whatever lies beyond */
	struct citcat_capture_config older;
	citcat_capture_config_default(&older);
	older.size = offsetof(struct citcat_capture_config, on_event);
	older.on_event = failing_sink;
	struct citcat_capture_result res2;
	CHECK_EQ(citcat_capture_run(&older, elf, NULL, NULL, &res2, &err), 0);
	CHECK_EQ(res2.traced_insns, res.traced_insns);

	/* a sink's error stops the run with its code, and no output is left */
	char cat2[520];
	snprintf(cat2, sizeof cat2, "%s.stopped", cat);
	static struct sink s2;
	s2.stop_after = 10;
	struct citcat_capture_config c3;
	citcat_capture_config_default(&c3);
	c3.on_event = sink_event;
	c3.event_ctx = &s2;
	CHECK_EQ(citcat_capture_run(&c3, elf, cat2, NULL, &res2, &err), CITCAT_ERR_LIMIT);
	struct stat st;
	CHECK(stat(cat2, &st) != 0);

	/* IMS and AES through the public API, then a replay consumed in memory
	 * only: every record equals the oracle's */
	struct citcat_ims ims;
	memset(&ims, 0, sizeof ims);
	CHECK_EQ(citcat_ims_extract(cat, &ims, NULL, NULL, NULL, &err), 0);
	CHECK_EQ(citcat_ims_write(&ims, ims_p, &err), 0);
	citcat_ims_fini(&ims);
	CHECK_EQ(citcat_aes_extract(cat, aes_p, NULL, NULL, NULL, &err), 0);
	struct records recs = {0};
	CHECK(citcat_itrace_reader_open(&recs.oracle, oracle) == 0);
	struct citcat_replay_config rcfg;
	citcat_replay_config_default(&rcfg);
	rcfg.ims_path = ims_p;
	rcfg.aes_path = aes_p;
	rcfg.verify_cat = cat;
	rcfg.on_record = on_record;
	rcfg.record_ctx = &recs;
	struct citcat_replay_result rres;
	int rrc = citcat_replay_run(&rcfg, &rres, &err);
	if (rrc)
		fprintf(stderr, "replay: %s\n", err.msg);
	CHECK_EQ(rrc, 0);
	CHECK_EQ(recs.mismatches, 0);
	CHECK_EQ(recs.n, rres.insns + rres.irqs);
	CHECK_EQ(rres.insns, res.traced_insns);
	CHECK(recs.irqs > 0);
	struct citcat_itrace_rec extra;
	CHECK_EQ(citcat_itrace_next(recs.oracle, &extra), 0); /* the oracle has no more */
	citcat_itrace_reader_close(recs.oracle);
	phase_b(elf, dir, cat, oracle, aes_p, &res, &rres);

	/* the callback's error stops the replay with its code, no output left */
	char out[520];
	snprintf(out, sizeof out, "%s/api.replay.itrace", dir);
	uint64_t seen = 0;
	citcat_replay_config_default(&rcfg);
	rcfg.ims_path = ims_p;
	rcfg.aes_path = aes_p;
	rcfg.out_path = out;
	rcfg.on_record = stop_at_100;
	rcfg.record_ctx = &seen;
	CHECK_EQ(citcat_replay_run(&rcfg, &rres, &err), CITCAT_ERR_LIMIT);
	CHECK_EQ(seen, 100);
	CHECK(stat(out, &st) != 0);
}

int main(int argc, char **argv)
{
	null_handles();
	open_failures("/nonexistent/citcat-test-api", "/nonexistent/dir/citcat-test-api.out");
	config_sizes();
	if (argc == 3)
		callbacks(argv[1], argv[2]);
	CHECK_DONE();
}
