/* citcat convert ... --to text: the itrace as a readable listing
 * (formats/listing.h).  Streams record by record; with --elf the listing
 * carries function+offset and file:line, and --from-insn/--count,
 * --function and --pc list a part of the trace with its own instruction
 * numbers (reading stops once --count instructions are listed). */
#include "cli.h"
#include "itrace.h"
#include "listing.h"
#include <citcat/symbols.h>

#include <string.h>

int text_convert(const char *in, const char *from, const char *out, const struct convert_opts *o)
{
	if (strcmp(from, "itrace") != 0)
		return cli_fail("%s: a text listing is made from an itrace, not from %s", in, from);
	if (o->function && !o->elf)
		return cli_usage_error("convert", "--function NAME needs --elf FIRMWARE.elf");
	struct citcat_symbols *syms = NULL;
	if (o->elf && cli_open_symbols(o->elf, &syms))
		return EXIT_USAGE;
	int ranged = o->pc_range;
	uint64_t lo = o->pc_lo, hi = o->pc_hi;
	if (o->function) {
		uint64_t flo, fhi;
		if (citcat_symbols_function(syms, o->function, &flo, &fhi) != 1) {
			citcat_symbols_close(syms);
			return cli_fail("%s: no function named '%s'", o->elf, o->function);
		}
		/* with --pc as well: the intersection */
		if (!ranged || flo > lo)
			lo = flo;
		if (!ranged || fhi < hi)
			hi = fhi;
		ranged = 1;
	}
	struct citcat_itrace_reader *r;
	if (citcat_itrace_reader_open(&r, in)) {
		cli_errinfo(in, citcat_itrace_reader_error(r));
		citcat_itrace_reader_close(r);
		citcat_symbols_close(syms);
		return EXIT_USAGE;
	}
	struct citcat_listing_writer *w;
	struct citcat_errinfo err;
	if (citcat_listing_writer_open(&w, out, citcat_itrace_isa(r), &err)) {
		citcat_itrace_reader_close(r);
		citcat_symbols_close(syms);
		return cli_errinfo(out, &err);
	}
	citcat_listing_set_symbols(w, syms);
	static struct citcat_itrace_rec rec;
	struct cli_progress pr;
	cli_progress_init(&pr, "convert");
	uint64_t n = 0, index = 0, listed = 0, next_listed = 0;
	int rc;
	while ((rc = citcat_itrace_next(r, &rec)) == 1) {
		int insn = rec.kind == CITCAT_REC_INSN;
		/* an interrupt entry is listed in the window, and with an address
		 * range when its return address lies inside */
		int want = index >= o->from_insn && (!ranged || (rec.pc >= lo && rec.pc < hi));
		if (want) {
			if (insn && index != next_listed)
				citcat_listing_set_index(w, index);
			struct citcat_m7_fault m7f;
			if (rec.kind == CITCAT_REC_STOP && citcat_itrace_m7_fault(r, &m7f) == 1)
				citcat_listing_set_m7_fault(w, &m7f);
			if (citcat_listing_write(w, &rec)) {
				cli_progress_done(&pr);
				err = *citcat_listing_writer_error(w);
				citcat_listing_writer_abort(w);
				citcat_itrace_reader_close(r);
				citcat_symbols_close(syms);
				return cli_errinfo(out, &err);
			}
			if (insn) {
				next_listed = index + 1;
				if (++listed == o->count)
					break;
			}
		}
		index += insn;
		if ((++n & 0xfffff) == 0) {
			cli_progress_update(&pr, n, 0, "rec");
			if (cli_interrupted()) {
				rc = CITCAT_ERR_INTERRUPTED;
				break;
			}
		}
	}
	cli_progress_done(&pr);
	citcat_symbols_close(syms);
	citcat_listing_set_symbols(w, NULL);
	if (rc < 0) {
		citcat_listing_writer_abort(w);
		if (rc == CITCAT_ERR_INTERRUPTED)
			cli_fail("convert: interrupted; no output written");
		else
			cli_errinfo(in, citcat_itrace_reader_error(r));
		citcat_itrace_reader_close(r);
		return EXIT_USAGE;
	}
	citcat_itrace_reader_close(r);
	if (citcat_listing_writer_close(w, &err))
		return cli_errinfo(out, &err);
	return EXIT_OK;
}
