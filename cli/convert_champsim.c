/* citcat convert RUN.itrace -o RUN.champsim[.xz]: the ChampSim export
 * (formats/CHAMPSIM.md).  All format work is in formats/champsim.c. */
#include "champsim.h"
#include "cli.h"

#include <string.h>

int champsim_convert(const char *in, const char *from, const char *out, const struct convert_opts *o)
{
	if (strcmp(from, "itrace") != 0)
		return cli_fail("%s: a ChampSim trace is made from an itrace, not from %s", in, from);
	struct citcat_itrace_reader *r;
	if (citcat_itrace_reader_open(&r, in)) {
		cli_errinfo(in, citcat_itrace_reader_error(r));
		citcat_itrace_reader_close(r);
		return EXIT_USAGE;
	}
	struct citcat_champsim_writer *w;
	struct citcat_errinfo err;
	int xz = cli_has_suffix(out, ".xz");
	if (citcat_champsim_writer_open(&w, out, xz, o && o->uncached, &err)) {
		citcat_itrace_reader_close(r);
		return cli_errinfo(out, &err);
	}
	static struct citcat_itrace_rec rec;
	struct cli_progress pr;
	cli_progress_init(&pr, "convert");
	uint64_t n = 0;
	int rc;
	while ((rc = citcat_itrace_next(r, &rec)) == 1) {
		if (citcat_champsim_write(w, &rec)) {
			cli_progress_done(&pr);
			err = *citcat_champsim_writer_error(w);
			citcat_champsim_writer_abort(w);
			citcat_itrace_reader_close(r);
			/* a record the writer cannot take is the input's; a failed
			 * write the output's */
			return cli_errinfo(err.code == CITCAT_ERR_INVAL ? in : out, &err);
		}
		if ((++n & 0xfffff) == 0) {
			cli_progress_update(&pr, n, 0, "rec");
			if (cli_interrupted()) {
				rc = CITCAT_ERR_INTERRUPTED;
				break;
			}
		}
	}
	cli_progress_done(&pr);
	if (rc < 0) {
		citcat_champsim_writer_abort(w);
		if (rc == CITCAT_ERR_INTERRUPTED)
			cli_fail("convert: interrupted; no output written");
		else
			cli_errinfo(in, citcat_itrace_reader_error(r));
		citcat_itrace_reader_close(r);
		return EXIT_USAGE;
	}
	citcat_itrace_reader_close(r);
	if (citcat_champsim_writer_close(w, &err))
		return cli_errinfo(out, &err);
	return EXIT_OK;
}
