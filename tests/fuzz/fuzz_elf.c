/* Fuzz target: the firmware ELF loader, then a short capture of what it
 * loaded.  Whatever the bytes:
 *  - citcat_image_load_elf either fails with an error code and a message,
 *    or returns segments sorted, non-overlapping and non-adjacent;
 *  - citcat_capture_run ends (the instruction limit bounds it) with 0 or an
 *    input/target error that carries a message, never an internal error or
 *    a caller-mistake code;
 *  - on success the CAT and the oracle it wrote read back to their end
 *    markers, and the run retired no more than the limit; on failure it
 *    left neither file behind.
 * The target is the default one with 4 MiB of RAM at 0 (the capture model
 * clears all of RAM per run: 16 MiB made each input four times slower) and
 * a small instruction limit.  tests/firmware/tiny.S fits and runs to its
 * interrupts within the limit; the examples (linked for 16 MiB) load, then
 * stop at their first stack access. */
#include "capture.h"
#include "image.h"
#include "itrace.h"
#include "tmpdir.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_INSNS 20000u

static void uart_drop(void *ctx, uint8_t b)
{
	(void)ctx;
	(void)b;
}

static int input_error(int rc)
{
	return rc < 0 && rc != CITCAT_ERR_INTERNAL && rc != CITCAT_ERR_INVAL;
}

static void check_loader(const char *path)
{
	struct citcat_image *img;
	struct citcat_errinfo err = {0};
	uint64_t entry;
	if (citcat_image_alloc(&img))
		abort();
	int rc = citcat_image_load_elf(img, path, &entry, &err);
	if (rc) {
		if (!input_error(rc) || !err.msg[0])
			abort();
	} else {
		uint64_t prev_end = 0;
		for (size_t i = 0; i < citcat_image_segments(img); i++) {
			uint64_t addr, len;
			const uint8_t *p;
			citcat_image_segment(img, i, &addr, &len, &p);
			if (!len || (i && addr <= prev_end))
				abort(); /* empty, unsorted, overlapping or adjacent */
			prev_end = addr + len;
		}
	}
	citcat_image_free(img);
}

static void read_back(const char *cat, const char *orc)
{
	struct citcat_cat_reader *cr;
	struct citcat_cat_event ev;
	int rc = citcat_cat_reader_open(&cr, cat);
	if (rc == 0)
		while ((rc = citcat_cat_next(cr, &ev)) == 1)
			;
	citcat_cat_reader_close(cr);
	if (rc)
		abort(); /* capture said success but wrote a CAT its reader rejects */
	struct citcat_itrace_reader *ir;
	static struct citcat_itrace_rec rec;
	rc = citcat_itrace_reader_open(&ir, orc);
	if (rc == 0)
		while ((rc = citcat_itrace_next(ir, &rec)) == 1)
			;
	citcat_itrace_reader_close(ir);
	if (rc)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char *elf, *cat, *orc;
	if (!elf) {
		elf = fuzz_path("in.elf");
		cat = fuzz_path("out.cat");
		orc = fuzz_path("out.itrace");
	}
	fuzz_write_file(elf, data, size);
	check_loader(elf);

	struct citcat_capture_config c;
	citcat_capture_config_default(&c);
	c.target.seed = 1;
	c.target.ram_size = 4u << 20;
	c.max_insns = MAX_INSNS;
	c.uart_tx = uart_drop;
	struct citcat_capture_result res;
	struct citcat_errinfo err = {0};
	unlink(cat);
	unlink(orc);
	int rc = citcat_capture_run(&c, elf, cat, orc, &res, &err);
	if (rc == 0) {
		if (res.insns > MAX_INSNS)
			abort();
		read_back(cat, orc);
	} else {
		if (!input_error(rc) || !err.msg[0])
			abort();
		if (fuzz_exists(cat) || fuzz_exists(orc))
			abort(); /* partial output left behind */
	}
	return 0;
}
