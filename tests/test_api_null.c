/* Every exported libcitcat function called with NULL handles and NULL
 * pointer arguments (include/citcat/base.h): int functions return
 * CITCAT_ERR_INVAL (or the value their declaration documents for NULL),
 * accessors NULL or 0, close/free/abort/fini/default are no-ops, and
 * nothing crashes.  Then every *_open with a valid &h but a NULL required
 * argument: CITCAT_ERR_INVAL and *h NULL or a handle holding the error;
 * and every writer open that fails on its file: *h holds the error.
 *
 * Every call goes through one of the macros below; api_null_cover.sh fails
 * when a function libcitcat.so exports (nm -D) has no such call here, so a
 * new export must be added to this file.  Public headers only.
 * Usage: test_api_null */
#include <citcat/citcat.h>

#include "check.h"

#include <string.h>

/* int/enum result must be CITCAT_ERR_INVAL */
#define INVAL(fn, args) CHECK_EQ((int)fn args, CITCAT_ERR_INVAL)
/* a documented integer value for NULL */
#define VALUE(fn, args, v) CHECK_EQ((long long)(fn args), (long long)(v))
/* a pointer result that must be NULL */
#define NUL(fn, args) CHECK((fn args) == NULL)
/* a name function: never NULL, "?" for a bad value */
#define NAMEQ(fn, args) CHECK((fn args) != NULL && strcmp(fn args, "?") == 0)
/* a string that must be there */
#define NONNULL(fn, args) CHECK((fn args) != NULL)
/* no effect, no crash */
#define VOID(fn, args) fn args

static void all_null(void)
{
	/* addr.h */
	NUL(citcat_addr_fmt_name, (99));
	VALUE(citcat_addr_fmt_parse, (NULL), 0);
	VALUE(citcat_addr_sniff, (NULL, 8), 0);
	INVAL(citcat_addr_writer_open, (NULL, NULL, NULL));
	INVAL(citcat_addr_put, (NULL, NULL));
	INVAL(citcat_addr_writer_finish, (NULL));
	INVAL(citcat_addr_writer_close, (NULL));
	INVAL(citcat_addr_writer_take, (NULL, NULL, NULL));
	VOID(citcat_addr_writer_abort, (NULL));
	NUL(citcat_addr_writer_error, (NULL));
	VALUE(citcat_addr_writer_payload_bytes, (NULL), 0);
	VALUE(citcat_addr_writer_refs, (NULL), 0);
	INVAL(citcat_addr_reader_open, (NULL, NULL, 0));
	INVAL(citcat_addr_reader_open_mem, (NULL, NULL, 0, 0));
	INVAL(citcat_addr_next, (NULL, NULL));
	VALUE(citcat_addr_reader_fmt, (NULL), 0);
	VALUE(citcat_addr_reader_lz4, (NULL), 0);
	VALUE(citcat_addr_reader_addr_bits, (NULL), 0);
	VALUE(citcat_addr_reader_istride, (NULL), 0);
	VALUE(citcat_addr_reader_payload_bytes, (NULL), 0);
	VALUE(citcat_addr_reader_version, (NULL), 0);
	VALUE(citcat_addr_reader_tvp, (NULL), 0);
	NUL(citcat_addr_reader_error, (NULL));
	VOID(citcat_addr_reader_close, (NULL));

	/* aes.h */
	INVAL(citcat_aes_measure, (NULL, NULL, NULL));
	NAMEQ(citcat_aes_kind_name, (9999));
	VALUE(citcat_aes_is_counter, (NULL, 0), 0);
	INVAL(citcat_aes_writer_open, (NULL, NULL, NULL, NULL));
	INVAL(citcat_aes_write, (NULL, NULL));
	INVAL(citcat_aes_writer_close, (NULL));
	VOID(citcat_aes_writer_abort, (NULL));
	NUL(citcat_aes_writer_error, (NULL));
	INVAL(citcat_aes_reader_open, (NULL, NULL));
	INVAL(citcat_aes_reader_open_mem, (NULL, NULL, 0));
	NUL(citcat_aes_trace_id, (NULL));
	INVAL(citcat_aes_next, (NULL, NULL));
	VALUE(citcat_aes_pending_repeats, (NULL), 0);
	VALUE(citcat_aes_skip_repeats, (NULL), 0);
	NUL(citcat_aes_reader_error, (NULL));
	VOID(citcat_aes_reader_close, (NULL));
	INVAL(citcat_aes_extract, (NULL, NULL, NULL, NULL, NULL, NULL));
	INVAL(citcat_aes_extract_segment, (NULL, 0, NULL, NULL, NULL, NULL, NULL));
	INVAL(citcat_aes_extract_all, (NULL, NULL, NULL, NULL, NULL, NULL, NULL));
	INVAL(citcat_aes_reader_open_segment, (NULL, NULL, 0));
	INVAL(citcat_aes_segments, (NULL, NULL, NULL));

	/* base.h */
	NONNULL(citcat_errstr, (-12345));
	NONNULL(citcat_version, ());

	/* capture.h */
	VOID(citcat_capture_config_default, (NULL));
	INVAL(citcat_elf_arm_profile, (NULL));
	INVAL(citcat_capture_run, (NULL, NULL, NULL, NULL, NULL, NULL));

	/* cat.h */
	NAMEQ(citcat_stop_reason_name, (9999));
	NAMEQ(citcat_fault_kind_name, (9999));
	NAMEQ(citcat_cat_kind_name, (9999));
	INVAL(citcat_cat_writer_open, (NULL, NULL, NULL));
	INVAL(citcat_cat_writer_open_elf, (NULL, NULL, NULL, NULL));
	INVAL(citcat_cat_write, (NULL, NULL));
	INVAL(citcat_cat_writer_close, (NULL));
	VOID(citcat_cat_writer_abort, (NULL));
	NUL(citcat_cat_writer_error, (NULL));
	VALUE(citcat_cat_writer_bytes, (NULL), 0);
	INVAL(citcat_cat_reader_open, (NULL, NULL));
	INVAL(citcat_cat_reader_open_mem, (NULL, NULL, 0));
	NUL(citcat_cat_config, (NULL));
	INVAL(citcat_cat_next, (NULL, NULL));
	VALUE(citcat_cat_reader_offset, (NULL), 0);
	INVAL(citcat_cat_reader_seek_segment, (NULL, 1));
	VALUE(citcat_cat_reader_file_size, (NULL), 0);
	NUL(citcat_cat_reader_error, (NULL));
	NUL(citcat_cat_elf, (NULL));
	VOID(citcat_cat_reader_close, (NULL));
	INVAL(citcat_cat_writer_m7_fault, (NULL, NULL));
	INVAL(citcat_cat_m7_fault, (NULL, NULL));
	/* target.h: the Cortex-M7 fault status */
	INVAL(citcat_m7_fault_describe, (NULL, NULL, 0));
	NAMEQ(citcat_m7_exception_name, (9999));

	/* image.h */
	INVAL(citcat_image_alloc, (NULL));
	VOID(citcat_image_free, (NULL));
	INVAL(citcat_image_add, (NULL, 0, NULL, 0));
	INVAL(citcat_image_load_elf, (NULL, NULL, NULL, NULL));
	INVAL(citcat_image_read, (NULL, 0, NULL, 0));
	VALUE(citcat_image_segments, (NULL), 0);
	VOID(citcat_image_segment, (NULL, 0, NULL, NULL, NULL));
	VALUE(citcat_image_bytes, (NULL), 0);

	/* ims.h */
	INVAL(citcat_ims_extract, (NULL, NULL, NULL, NULL, NULL, NULL));
	INVAL(citcat_ims_extract_segment, (NULL, 0, NULL, NULL, NULL, NULL, NULL));
	INVAL(citcat_ims_write, (NULL, NULL, NULL));
	INVAL(citcat_ims_read, (NULL, NULL, NULL));
	INVAL(citcat_ims_read_mem, (NULL, 0, NULL, NULL));
	INVAL(citcat_ims_extract_all, (NULL, NULL, NULL, NULL, NULL, NULL, NULL));
	INVAL(citcat_ims_read_segment, (NULL, 0, NULL, NULL));
	INVAL(citcat_ims_read_segment_mem, (NULL, 0, 0, NULL, NULL));
	INVAL(citcat_ims_segments, (NULL, NULL, NULL));
	VOID(citcat_ims_fini, (NULL));

	/* itrace.h */
	INVAL(citcat_itrace_writer_open, (NULL, NULL, CITCAT_ISA_ARM_A32));
	INVAL(citcat_itrace_write, (NULL, NULL));
	INVAL(citcat_itrace_writer_cut, (NULL));
	INVAL(citcat_itrace_writer_close, (NULL));
	VOID(citcat_itrace_writer_abort, (NULL));
	NUL(citcat_itrace_writer_error, (NULL));
	VALUE(citcat_itrace_writer_bytes, (NULL), 0);
	INVAL(citcat_itrace_reader_open, (NULL, NULL));
	INVAL(citcat_itrace_reader_open_mem, (NULL, NULL, 0));
	INVAL(citcat_itrace_next, (NULL, NULL));
	VOID(citcat_itrace_reader_dma, (NULL, 1));
	VALUE(citcat_itrace_isa, (NULL), 0);
	NUL(citcat_itrace_reader_error, (NULL));
	VOID(citcat_itrace_reader_close, (NULL));
	VALUE(citcat_itrace_rec_equal, (NULL, NULL), 0);
	INVAL(citcat_itrace_writer_m7_fault, (NULL, NULL));
	INVAL(citcat_itrace_m7_fault, (NULL, NULL));

	/* profile.h */
	INVAL(citcat_profile_open, (NULL, NULL, NULL, NULL));
	INVAL(citcat_profile_bus, (NULL, NULL));
	INVAL(citcat_profile_record, (NULL, NULL));
	INVAL(citcat_profile_totals, (NULL, NULL));
	INVAL(citcat_profile_write, (NULL, NULL, NULL, NULL));
	VOID(citcat_profile_close, (NULL));

	/* replay.h */
	VOID(citcat_replay_config_default, (NULL));
	INVAL(citcat_replay_run, (NULL, NULL, NULL));
	VOID(citcat_lvt_replay_config_default, (NULL));
	INVAL(citcat_lvt_replay_run, (NULL, NULL, NULL));
	INVAL(citcat_cat_replay_open, (NULL, NULL, NULL, NULL));
	NUL(citcat_cat_replay_ims, (NULL));
	NUL(citcat_cat_replay_ims_path, (NULL));
	NUL(citcat_cat_replay_aes_path, (NULL));
	INVAL(citcat_cat_replay_run, (NULL, NULL, NULL, NULL));
	VOID(citcat_cat_replay_close, (NULL));

	INVAL(citcat_capture_run_lvt_raw, (NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));

	/* lvt.h, disasm.h */
	INVAL(citcat_lvt_info, (NULL, NULL, NULL));
	INVAL(citcat_disasm_open, (NULL));
	INVAL(citcat_disasm_insn, (NULL, 0, 0, 4, 0, NULL, 0, NULL, 0));
	VOID(citcat_disasm_close, (NULL));

	/* listing.h */
	INVAL(citcat_listing_writer_open, (NULL, NULL, CITCAT_ISA_ARM_A32, NULL));
	INVAL(citcat_listing_write, (NULL, NULL));
	INVAL(citcat_listing_writer_close, (NULL, NULL));
	VOID(citcat_listing_writer_abort, (NULL));
	VOID(citcat_listing_set_symbols, (NULL, NULL));
	VOID(citcat_listing_set_m7_fault, (NULL, NULL));
	VOID(citcat_listing_set_index, (NULL, 0));
	NUL(citcat_listing_writer_error, (NULL));

	/* cursor.h, gdbserver.h */
	VOID(citcat_cursor_config_default, (NULL));
	INVAL(citcat_cursor_open, (NULL, NULL));
	VOID(citcat_cursor_close, (NULL));
	NUL(citcat_cursor_error, (NULL));
	NUL(citcat_cursor_divergence, (NULL));
	INVAL(citcat_cursor_info, (NULL, NULL));
	INVAL(citcat_cursor_set_interrupt, (NULL, NULL, NULL));
	VALUE(citcat_cursor_now, (NULL), 0);
	INVAL(citcat_cursor_when, (NULL, NULL));
	INVAL(citcat_cursor_regs, (NULL, NULL));
	INVAL(citcat_cursor_read, (NULL, 0, NULL, 0, NULL));
	INVAL(citcat_cursor_break, (NULL, 0, 1));
	INVAL(citcat_cursor_watch, (NULL, 0, 4, CITCAT_CURSOR_WATCH_WRITE, 1));
	INVAL(citcat_cursor_seek, (NULL, 0, NULL));
	INVAL(citcat_cursor_run, (NULL, 0, 0, NULL));
	INVAL(citcat_cursor_events, (NULL, 0, NULL, 0, NULL));
	INVAL(citcat_cursor_usage, (NULL, NULL));
	VOID(citcat_gdbserver_config_default, (NULL));
	/* convert.h */
	VOID(citcat_convert_config_default, (NULL));
	INVAL(citcat_convert, (NULL, NULL, NULL, NULL, NULL));
	INVAL(citcat_bench_formats, (NULL, 0, NULL, NULL, NULL));
	INVAL(citcat_dump_open, (NULL, NULL, NULL, NULL, NULL));
	NUL(citcat_dump_format, (NULL));
	INVAL(citcat_dump_run, (NULL, NULL, NULL));
	VOID(citcat_dump_close, (NULL));
	INVAL(citcat_gdbserver_serve, (NULL, NULL, NULL, NULL));
	INVAL(citcat_gdbserver_refuse, (NULL, NULL));

	/* sdclsp.h */
	INVAL(citcat_sdclsp_config_init, (NULL, CITCAT_SDCLSP_R));
	INVAL(citcat_sdclsp_config_parse, (NULL, NULL, NULL));
	INVAL(citcat_sdclsp_config_check, (NULL, NULL));
	NAMEQ(citcat_sdclsp_variant_name, (99));
	INVAL(citcat_sdclsp_encoder_alloc, (NULL, NULL, NULL, NULL));
	VOID(citcat_sdclsp_encoder_free, (NULL));
	INVAL(citcat_sdclsp_encode_insn, (NULL, 0, 0));
	INVAL(citcat_sdclsp_encode_insn_isa, (NULL, 0, 0, 4, 0));
	INVAL(citcat_sdclsp_encode_irq, (NULL, 0));
	INVAL(citcat_sdclsp_encoder_finish, (NULL));
	NUL(citcat_sdclsp_encoder_stats, (NULL));
	NUL(citcat_sdclsp_encoder_error, (NULL));
	INVAL(citcat_sdclsp_decoder_open, (NULL, NULL, NULL));
	INVAL(citcat_sdclsp_decoder_open_mem, (NULL, NULL, 0, NULL));
	INVAL(citcat_sdclsp_decoder_next, (NULL, NULL));
	INVAL(citcat_sdclsp_decoder_next_isa, (NULL, NULL, NULL, NULL));
	NUL(citcat_sdclsp_decoder_config, (NULL));
	NUL(citcat_sdclsp_decoder_error, (NULL));
	VOID(citcat_sdclsp_decoder_close, (NULL));
	INVAL(citcat_sdclsp_read_summary, (NULL, NULL, NULL, NULL));
	INVAL(citcat_sdclsp_read_summary_stop, (NULL, NULL, NULL, NULL, NULL, NULL));
	VALUE(citcat_sdclsp_is_magic, (NULL, 8), 0);
	VALUE(citcat_sdclsp_probe, (NULL), 0);

	/* bench.h */
	INVAL(citcat_bench_unicorn_version, (NULL, 0));
	INVAL(citcat_bench_capture, (NULL, 0, NULL, NULL, NULL, NULL, NULL));
	INVAL(citcat_bench_replay, (NULL, 0, NULL, NULL));
	INVAL(citcat_bench_bare_run, (0, NULL, NULL, NULL, NULL, NULL));
	INVAL(citcat_bench_prepare, (NULL, NULL, NULL, NULL, NULL));
	VOID(citcat_bench_prep_remove, (NULL));
	VALUE(citcat_bench_driver_insns, (NULL, 0), 0);
	INVAL(citcat_bench_extract, (NULL, NULL, NULL, NULL, NULL, NULL, NULL));
	INVAL(citcat_bench_daf, (NULL, NULL, NULL, 0, NULL, NULL));
	INVAL(citcat_bench_port_sizes, (NULL, NULL, NULL, NULL, NULL, NULL));
	INVAL(citcat_bench_sdclsp, (NULL, NULL, NULL, NULL));
	/* format.h */
	NUL(citcat_format_get, (CITCAT_FMT_COUNT));
	NUL(citcat_format_by_name, (NULL));
	NUL(citcat_format_by_suffix, (NULL, NULL));
	NUL(citcat_format_sniff, (NULL, 64));
	INVAL(citcat_format_detect, (NULL, NULL, NULL, NULL));
	INVAL(citcat_format_detect_mem, (NULL, 0, NULL, NULL, NULL));

	/* target.h, trace_id.h */
	VOID(citcat_target_config_default, (NULL));
	/* info figures (itrace.h, cat.h) */
	INVAL(citcat_itrace_reader_info, (NULL, NULL, NULL, NULL));
	INVAL(citcat_cat_reader_info, (NULL, NULL, NULL, NULL));
	/* segments (itrace.h, cat.h) */
	INVAL(citcat_itrace_merge, (NULL, 0, NULL, 0, NULL, NULL, NULL, NULL, NULL));
	INVAL(citcat_file_compare, (NULL, NULL, NULL, NULL, NULL));
	INVAL(citcat_cat_segments, (NULL, NULL, NULL, NULL, NULL));
	/* wet.h */
	NAMEQ(citcat_wet_stream_name, (99));
	VOID(citcat_wet_build_config_default, (NULL));
	INVAL(citcat_wet_build, (NULL, NULL, NULL));
	INVAL(citcat_wet_open, (NULL, NULL));
	INVAL(citcat_wet_open_mem, (NULL, NULL, 0));
	VOID(citcat_wet_close, (NULL));
	NUL(citcat_wet_error, (NULL));
	VOID(citcat_wet_info, (NULL, NULL));
	INVAL(citcat_wet_walk, (NULL, NULL));
	INVAL(citcat_wet_slice, (NULL, 0, 0, NULL, NULL, NULL, NULL));
	INVAL(citcat_cache_config_check, (NULL, NULL));
	VALUE(citcat_trace_hash_event, (42, NULL), 42);
	VOID(citcat_trace_id_make, (NULL, 0, 0, 0, 0, NULL));
	/* io.h */
	INVAL(citcat_outfile_open, (NULL, "x", CITCAT_OUT_PLAIN, NULL));
	INVAL(citcat_outfile_write, (NULL, "x", 1));
	INVAL(citcat_outfile_sink, (NULL, "x", 1));
	VALUE(citcat_outfile_bytes, (NULL), 0);
	INVAL(citcat_outfile_commit, (NULL, NULL));
	VOID(citcat_outfile_abort, (NULL));
	INVAL(citcat_outfile_finish, (NULL, 0, NULL, NULL));
	INVAL(citcat_outfile_errinfo, (NULL, NULL));
	NUL(citcat_outfile_stream, (NULL));
	INVAL(citcat_outfile_take, (NULL, NULL, NULL));
	VOID(citcat_outfile_commit_on_stop, (0));
	VOID(citcat_outfile_remove_temps, ());
	INVAL(citcat_input_open, (NULL, "x", 0, NULL));
	INVAL(citcat_input_open_mem, (NULL, "x", 1, NULL));
	INVAL(citcat_input_read, (NULL, NULL, 0));
	INVAL(citcat_input_peek, (NULL, NULL, 0));
	INVAL(citcat_input_wrap, (NULL));
	VALUE(citcat_input_offset, (NULL), 0);
	NUL(citcat_input_error, (NULL));
	VOID(citcat_input_close, (NULL));
	VOID(citcat_input_stdin_mode, (CITCAT_STDIN_SPOOL));
	VALUE(citcat_input_stdin_bytes, (), 0);
	NUL(citcat_wrap_name, (CITCAT_WRAP_NONE));
	VALUE(citcat_wrap_by_suffix, (NULL, NULL), CITCAT_WRAP_NONE);
	VOID(citcat_guard_enable, (0));
	INVAL(citcat_guard_check, (NULL, 1, NULL, 0, NULL, NULL));
	VOID(citcat_stop_clear, ());
	VALUE(citcat_stop_requested, (), 0);
	VOID(citcat_stop_request, (0));
	VOID(citcat_stop_clear, ());
	/* escape.h */
	VALUE(citcat_escape, (CITCAT_ESC_JSON, NULL, 1, NULL, 0), 0);
	VALUE(citcat_escape, (99, "x", 1, NULL, 0), 0);
	/* base.h */
	VALUE(citcat_errinfo_set, (NULL, CITCAT_ERR_IO, 0, NULL), CITCAT_ERR_IO);
	/* symbols.h */
	INVAL(citcat_symbols_open, (NULL, NULL, NULL));
	INVAL(citcat_symbols_open_flags, (NULL, NULL, 0, NULL));
	VOID(citcat_symbols_close, (NULL));
	VALUE(citcat_symbols_has_lines, (NULL), 0);
	NUL(citcat_symbols_warning, (NULL));
	INVAL(citcat_symbols_lookup, (NULL, 0, NULL));
	INVAL(citcat_symbols_function, (NULL, NULL, NULL, NULL));
	INVAL(citcat_symbols_frames, (NULL, 0, NULL, 0));
	NUL(citcat_symbols_label, (NULL, 0));
	VALUE(citcat_symbols_describe, (NULL, 0, NULL, 0), 0);
	INVAL(citcat_symbols_describe, (NULL, 0, NULL, 8));
	INVAL(citcat_elf_build_id, (NULL, NULL, 0, NULL, NULL));
	INVAL(citcat_elf_build_id_flags, (NULL, 0, NULL, 0, NULL, NULL));
}

/* *h is NULL or holds an error with code RC; the matching close takes it. */
#define OPEN_INVAL(h, call, errfn, closefn)                                                        \
	do {                                                                                       \
		h = (void *)1;                                                                     \
		CHECK_EQ(call, CITCAT_ERR_INVAL);                                                  \
		CHECK(h != (void *)1);                                                             \
		CHECK(!h || (errfn(h) && errfn(h)->code == CITCAT_ERR_INVAL));                     \
		closefn(h);                                                                        \
	} while (0)

/* A valid &h with a NULL required argument. */
static void open_null_args(void)
{
	struct citcat_cat_writer *cw;
	struct citcat_aes_writer *aw;
	struct citcat_cat_reader *cr;
	struct citcat_itrace_reader *ir;
	struct citcat_aes_reader *ar;
	struct citcat_addr_reader *dr;
	struct citcat_sdclsp_decoder *sd;
	struct citcat_target_config tc;
	citcat_target_config_default(&tc);
	struct citcat_trace_id id = {0};

	OPEN_INVAL(cw, citcat_cat_writer_open(&cw, "unused.cat", NULL), citcat_cat_writer_error, citcat_cat_writer_abort);
	OPEN_INVAL(cw, citcat_cat_writer_open_elf(&cw, "unused.cat", NULL, NULL), citcat_cat_writer_error, citcat_cat_writer_abort);
	OPEN_INVAL(aw, citcat_aes_writer_open(&aw, "unused.aes", NULL, &tc), citcat_aes_writer_error, citcat_aes_writer_abort);
	OPEN_INVAL(aw, citcat_aes_writer_open(&aw, "unused.aes", &id, NULL), citcat_aes_writer_error, citcat_aes_writer_abort);
	OPEN_INVAL(cr, citcat_cat_reader_open_mem(&cr, NULL, 16), citcat_cat_reader_error, citcat_cat_reader_close);
	OPEN_INVAL(ir, citcat_itrace_reader_open_mem(&ir, NULL, 16), citcat_itrace_reader_error, citcat_itrace_reader_close);
	OPEN_INVAL(ar, citcat_aes_reader_open_mem(&ar, NULL, 16), citcat_aes_reader_error, citcat_aes_reader_close);
	OPEN_INVAL(dr, citcat_addr_reader_open_mem(&dr, NULL, 16, CITCAT_ADDR_AUTO), citcat_addr_reader_error,
		   citcat_addr_reader_close);
	OPEN_INVAL(sd, citcat_sdclsp_decoder_open(&sd, "unused.sdc", NULL), citcat_sdclsp_decoder_error,
		   citcat_sdclsp_decoder_close);
	OPEN_INVAL(sd, citcat_sdclsp_decoder_open_mem(&sd, "x", 1, NULL), citcat_sdclsp_decoder_error,
		   citcat_sdclsp_decoder_close);
	struct citcat_wet *we;
	OPEN_INVAL(we, citcat_wet_open(&we, NULL), citcat_wet_error, citcat_wet_close);
	OPEN_INVAL(we, citcat_wet_open_mem(&we, NULL, 16), citcat_wet_error, citcat_wet_close);
	struct citcat_cursor *cu;
	OPEN_INVAL(cu, citcat_cursor_open(&cu, NULL), citcat_cursor_error, citcat_cursor_close);
	struct citcat_cursor_config cc;
	citcat_cursor_config_default(&cc); /* neither IMS + AES nor a CAT */
	OPEN_INVAL(cu, citcat_cursor_open(&cu, &cc), citcat_cursor_error, citcat_cursor_close);
	cc.cat_path = "unused.cat";
	cc.budget = 1000; /* below the minimum */
	OPEN_INVAL(cu, citcat_cursor_open(&cu, &cc), citcat_cursor_error, citcat_cursor_close);
	struct citcat_cat_replay *crh = (struct citcat_cat_replay *)&tc; /* must become NULL */
	CHECK_EQ(citcat_cat_replay_open(&crh, NULL, NULL, NULL), CITCAT_ERR_INVAL);
	CHECK(crh == NULL);

	/* a live handle with a NULL required pointer */
	struct citcat_image *img = NULL;
	CHECK_EQ(citcat_image_alloc(&img), 0);
	CHECK_EQ(citcat_image_add(img, 0, NULL, 4), CITCAT_ERR_INVAL);
	CHECK_EQ(citcat_image_read(img, 0, NULL, 4), CITCAT_ERR_INVAL);
	CHECK_EQ(citcat_image_load_elf(img, NULL, NULL, NULL), CITCAT_ERR_INVAL);
	citcat_image_free(img);
}

/* A writer open that fails on the file gives its detail through the handle
 * (base.h), like the readers: code _IO and a message naming the path. */
#define OPEN_IO(h, call, errfn, abortfn)                                                           \
	do {                                                                                       \
		h = NULL;                                                                          \
		CHECK_EQ(call, CITCAT_ERR_IO);                                                     \
		CHECK(h != NULL);                                                                  \
		CHECK(h && errfn(h)->code == CITCAT_ERR_IO && strstr(errfn(h)->msg, NODIR));        \
		abortfn(h);                                                                        \
	} while (0)
#define NODIR "/nonexistent-citcat-dir/out"

static void writer_open_detail(void)
{
	struct citcat_target_config tc;
	citcat_target_config_default(&tc);
	struct citcat_trace_id id = {0};
	struct citcat_addr_config ac = {sizeof ac, CITCAT_ADDR_DIN, 0, 0, 0, 0, 0};
	struct citcat_cat_writer *cw;
	struct citcat_itrace_writer *iw;
	struct citcat_aes_writer *aw;
	struct citcat_addr_writer *dw;
	OPEN_IO(cw, citcat_cat_writer_open(&cw, NODIR, &tc), citcat_cat_writer_error, citcat_cat_writer_abort);
	OPEN_IO(cw, citcat_cat_writer_open_elf(&cw, NODIR, &tc, NULL), citcat_cat_writer_error, citcat_cat_writer_abort);
	OPEN_IO(iw, citcat_itrace_writer_open(&iw, NODIR, CITCAT_ISA_ARM_A32), citcat_itrace_writer_error,
		citcat_itrace_writer_abort);
	OPEN_IO(aw, citcat_aes_writer_open(&aw, NODIR, &id, &tc), citcat_aes_writer_error, citcat_aes_writer_abort);
	OPEN_IO(dw, citcat_addr_writer_open(&dw, NODIR, &ac), citcat_addr_writer_error, citcat_addr_writer_abort);
}

int main(void)
{
	all_null();
	open_null_args();
	writer_open_detail();
	CHECK_DONE();
}
