/* Test helper for tests/m7rep.sh: rewrites one thing of a Cortex-M7 IMS or
 * AES so that the file stays well formed (valid checksums) but says
 * something else, for the replayer to refuse or to report as a divergence.
 *
 *   m7rep_edit meta IN OUT OFF BYTE   metadata byte OFF := BYTE, header checksum redone
 *   m7rep_edit exc IN OUT N DELTA     the AES's Nth exception record (0-based): number += DELTA
 *   m7rep_edit move IN OUT N DELTA    ... its branch count += DELTA
 *   m7rep_edit drop IN OUT N 0        ... left out
 *   m7rep_edit input IN OUT ADDR DELTA  the AES's first input record read from ADDR: value += DELTA
 *   m7rep_edit catstat IN OUT 0 DELTA   a CAT whose STOP of fault kind 11 records BFAR + DELTA (issue 35)
 *   m7rep_edit itstat IN OUT 0 DELTA    an itrace whose STOP of fault kind 11 records BFAR + DELTA
 * Exit 0 done, 2 usage or I/O error, 3 no such record. */
#include "aes.h"
#include "cat.h"
#include "container_seal.h"
#include "itrace.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int meta_edit(const char *in, const char *out, unsigned long off, unsigned byte)
{
	struct container_buf c;
	if (container_read(in, &c) || off >= c.meta)
		return 2;
	c.b[16 + off] = (unsigned char)byte;
	return container_seal_write(out, &c) ? 2 : 0;
}

/* The CAT IN copied event by event to OUT, the M7 fault status of its
 * kind 11 STOP with BFAR + DELTA. */
static int cat_stat(const char *in, const char *out, long delta)
{
	struct citcat_cat_reader *r;
	struct citcat_cat_writer *w = NULL;
	int rc = citcat_cat_reader_open(&r, in), found = 0;
	if (!rc) {
		const struct citcat_cat_elf *e = citcat_cat_elf(r);
		rc = citcat_cat_writer_open_elf(&w, out, citcat_cat_config(r), e && e->path[0] ? e->path : NULL);
	}
	struct citcat_cat_event ev;
	while (!rc && (rc = citcat_cat_next(r, &ev)) == 1) {
		struct citcat_m7_fault f;
		if (ev.kind == CITCAT_CAT_STOP && citcat_cat_m7_fault(r, &f) == 1) {
			f.bfar += (uint32_t)delta;
			citcat_cat_writer_m7_fault(w, &f);
			found = 1;
		}
		rc = citcat_cat_write(w, &ev);
	}
	if (!rc)
		rc = citcat_cat_writer_close(w);
	else
		citcat_cat_writer_abort(w);
	citcat_cat_reader_close(r);
	return rc ? 2 : found ? 0 : 3;
}

/* The same for an itrace. */
static int itrace_stat(const char *in, const char *out, long delta)
{
	struct citcat_itrace_reader *r;
	struct citcat_itrace_writer *w = NULL;
	int rc = citcat_itrace_reader_open(&r, in), found = 0;
	if (!rc)
		rc = citcat_itrace_writer_open(&w, out, citcat_itrace_isa(r));
	citcat_itrace_reader_dma(r, 1);
	static struct citcat_itrace_rec rec;
	while (!rc && (rc = citcat_itrace_next(r, &rec)) == 1) {
		struct citcat_m7_fault f;
		if (rec.kind == CITCAT_REC_STOP && citcat_itrace_m7_fault(r, &f) == 1) {
			f.bfar += (uint32_t)delta;
			citcat_itrace_writer_m7_fault(w, &f);
			found = 1;
		}
		rc = citcat_itrace_write(w, &rec);
	}
	if (!rc)
		rc = citcat_itrace_writer_close(w);
	else
		citcat_itrace_writer_abort(w);
	citcat_itrace_reader_close(r);
	return rc ? 2 : found ? 0 : 3;
}

int main(int argc, char **argv)
{
	if (argc != 6) {
		fprintf(stderr, "usage: m7rep_edit meta|exc|move|drop|input IN OUT N VALUE\n");
		return 2;
	}
	const char *op = argv[1], *in = argv[2], *out = argv[3];
	unsigned long nth = strtoul(argv[4], NULL, 0);
	long delta = strtol(argv[5], NULL, 0);
	if (!strcmp(op, "meta"))
		return meta_edit(in, out, nth, (unsigned)delta);
	if (!strcmp(op, "catstat"))
		return cat_stat(in, out, delta);
	if (!strcmp(op, "itstat"))
		return itrace_stat(in, out, delta);
	struct citcat_aes_reader *r;
	struct citcat_aes_writer *w = NULL;
	struct citcat_target_config cfg;
	citcat_target_config_default(&cfg);
	cfg.isa = 2;
	int rc = citcat_aes_reader_open(&r, in), found = 0;
	if (!rc)
		rc = citcat_aes_writer_open(&w, out, citcat_aes_trace_id(r), &cfg);
	unsigned long k = 0;
	struct citcat_aes_rec rec;
	while (!rc && (rc = citcat_aes_next(r, &rec)) == 1) {
		rc = 0;
		if (!strcmp(op, "input")) {
			if (rec.kind == CITCAT_AES_INPUT && rec.addr == nth && !found) {
				found = 1;
				rec.value += (uint64_t)delta;
			}
		} else if (rec.kind == CITCAT_AES_IRQ && k++ == nth) {
			found = 1;
			if (!strcmp(op, "drop"))
				continue;
			if (!strcmp(op, "exc"))
				rec.line = (uint8_t)(rec.line + delta);
			else
				rec.bcount += (uint64_t)delta;
		}
		rc = citcat_aes_write(w, &rec);
	}
	if (!rc)
		rc = citcat_aes_writer_close(w);
	else
		citcat_aes_writer_abort(w);
	citcat_aes_reader_close(r);
	if (rc) {
		fprintf(stderr, "m7rep_edit: %s\n", citcat_errstr(rc));
		return 2;
	}
	return found ? 0 : 3;
}
