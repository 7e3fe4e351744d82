/* The firmware record of CAT version 4 (formats/CAT.md, "The firmware"):
 * written by citcat_cat_writer_open_elf and read back; the configuration
 * alone in versions 3 and 4; every malformed record rejected at the offset
 * the spec names; no record read from a version 3 file. */
#include "bytes.h"
#include "cat.h"
#include "check.h"
#include "container.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define META CITCAT_TARGET_META_LEN

/* A CAT of VERSION whose metadata is the default configuration followed by
 * the N bytes at EXTRA, with one STOP event. */
static void write_raw(const char *path, unsigned version, const uint8_t *extra, size_t n)
{
	struct citcat_target_config cfg;
	citcat_target_config_default(&cfg);
	uint8_t meta[META + 256];
	citcat_target_config_encode(&cfg, meta);
	memcpy(meta + META, extra, n);
	struct cc_writer *w;
	CHECK_EQ(cc_writer_open(&w, path, "CCAT\r\n\x1a\n", version, meta, (uint32_t)(META + n), 4096), 0);
	CHECK_EQ(cc_writer_close(w), 0);
}

/* Opens PATH: the reader's code, its error offset in *OFF, the record in *E. */
static int open_cat(const char *path, uint64_t *off, struct citcat_cat_elf *e, int *has)
{
	struct citcat_cat_reader *r;
	int rc = citcat_cat_reader_open(&r, path);
	*off = rc ? citcat_cat_reader_error(r)->offset : 0;
	*has = 0;
	if (!rc && citcat_cat_elf(r)) {
		*e = *citcat_cat_elf(r);
		*has = 1;
	}
	citcat_cat_reader_close(r);
	return rc;
}

int main(void)
{
	char dir[] = "/tmp/citcat-test-cat-elf-XXXXXX";
	if (!mkdtemp(dir))
		return 1;
	char p[4200];
	snprintf(p, sizeof p, "%s/t.cat", dir);
	static struct citcat_cat_elf e;
	uint64_t off;
	int has;

	/* the writer: an ELF that does not exist is recorded by the path given,
	 * without a build id */
	struct citcat_target_config cfg;
	citcat_target_config_default(&cfg);
	struct citcat_cat_writer *w;
	CHECK_EQ(citcat_cat_writer_open_elf(&w, p, &cfg, "/no/such/fw.elf"), 0);
	CHECK_EQ(citcat_cat_writer_close(w), 0);
	CHECK_EQ(open_cat(p, &off, &e, &has), 0);
	CHECK(has && strcmp(e.path, "/no/such/fw.elf") == 0 && e.build_id_len == 0);
	/* ... and without one, nothing */
	CHECK_EQ(citcat_cat_writer_open(&w, p, &cfg), 0);
	CHECK_EQ(citcat_cat_writer_close(w), 0);
	CHECK_EQ(open_cat(p, &off, &e, &has), 0);
	CHECK(!has);

	/* a hand-made record: build id 01 02 03, path "/a/fw.elf" */
	uint8_t rec[64] = {3, 0, 9, 0, 1, 2, 3};
	memcpy(rec + 7, "/a/fw.elf", 9);
	write_raw(p, 4, rec, 16);
	CHECK_EQ(open_cat(p, &off, &e, &has), 0);
	CHECK(has && strcmp(e.path, "/a/fw.elf") == 0 && e.build_id_len == 3 && e.build_id[2] == 3);
	/* the same bytes in a version 3 file: not a record (and accepted, as
	 * version 3 readers did) */
	write_raw(p, 3, rec, 16);
	CHECK_EQ(open_cat(p, &off, &e, &has), 0);
	CHECK(!has);
	/* version 3 with the configuration alone: read as before */
	write_raw(p, 3, rec, 0);
	CHECK_EQ(open_cat(p, &off, &e, &has), 0);
	CHECK(!has);

	/* malformed records, each at its offset (CAT.md) */
	write_raw(p, 4, rec, 3); /* cut short */
	CHECK_EQ(open_cat(p, &off, &e, &has), CITCAT_ERR_CORRUPT);
	CHECK_EQ(off, 16 + META);
	write_raw(p, 4, rec, 15); /* length does not match B + L */
	CHECK_EQ(open_cat(p, &off, &e, &has), CITCAT_ERR_CORRUPT);
	CHECK_EQ(off, 12);
	rec[1] = 1; /* reserved byte */
	write_raw(p, 4, rec, 16);
	CHECK_EQ(open_cat(p, &off, &e, &has), CITCAT_ERR_CORRUPT);
	CHECK_EQ(off, 16 + META + 1);
	rec[1] = 0;
	rec[0] = 65; /* build id above 64 bytes */
	write_raw(p, 4, rec, 16);
	CHECK_EQ(open_cat(p, &off, &e, &has), CITCAT_ERR_CORRUPT);
	CHECK_EQ(off, 16 + META);
	rec[0] = 3;
	cc_put16(rec + 2, 4096); /* path above 4095 bytes */
	write_raw(p, 4, rec, 16);
	CHECK_EQ(open_cat(p, &off, &e, &has), CITCAT_ERR_CORRUPT);
	CHECK_EQ(off, 16 + META + 2);
	cc_put16(rec + 2, 9);
	rec[7 + 4] = 0; /* a NUL in the path: at its own offset */
	write_raw(p, 4, rec, 16);
	CHECK_EQ(open_cat(p, &off, &e, &has), CITCAT_ERR_CORRUPT);
	CHECK_EQ(off, 16 + META + 4 + 3 + 4);

	unlink(p);
	rmdir(dir);
	CHECK_DONE();
}
