/* The figures of an AES file per record kind (citcat_aes_measure,
 * citcat/aes.h): what `citcat info` prints for an AES, and what the report
 * and `bench extract` weigh the schedule by. */
#include "aesfile.h"
#include "citcat.h"
#include <citcat/io.h>

#include <lz4frame.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Per record kind: the records' encoded bytes, and those same bytes run
 * through an LZ4 frame of their own (the "compressed" column of the thesis's
 * figure 5, for our encodings), streamed so memory stays bounded. */
struct kind_acc {
	LZ4F_cctx *cctx;
	uint64_t count, raw, z;
};

#define ZOUT (LZ4F_HEADER_SIZE_MAX + (1u << 18))

static void acc_add(struct kind_acc *a, uint8_t *zout, const uint8_t *p, size_t n)
{
	a->raw += n;
	if (!a->cctx) {
		if (LZ4F_isError(LZ4F_createCompressionContext(&a->cctx, LZ4F_VERSION)))
			return;
		size_t h = LZ4F_compressBegin(a->cctx, zout, ZOUT, NULL);
		a->z += LZ4F_isError(h) ? 0 : h;
	}
	size_t r = LZ4F_compressUpdate(a->cctx, zout, ZOUT, p, n, NULL);
	a->z += LZ4F_isError(r) ? 0 : r;
}

static void acc_end(struct kind_acc *a, uint8_t *zout)
{
	if (!a->cctx)
		return;
	size_t r = LZ4F_compressEnd(a->cctx, zout, ZOUT, NULL);
	a->z += LZ4F_isError(r) ? 0 : r;
	LZ4F_freeCompressionContext(a->cctx);
	a->cctx = NULL;
}

/* The file's size: standard input's bytes read so far for "-", -1 when it
 * is not a regular file. */
static long long file_bytes(const char *path)
{
	if (strcmp(path, "-") == 0)
		return (long long)citcat_input_stdin_bytes();
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode) ? (long long)st.st_size : -1;
}

int citcat_aes_measure(const char *path, struct citcat_aes_sizes *sz, struct citcat_errinfo *err)
{
	struct citcat_errinfo dummy;
	err = cc_errinfo_start(err, &dummy);
	if (!path || !sz)
		return citcat_errinfo_set(err, CITCAT_ERR_INVAL, UINT64_MAX, "citcat_aes_measure: NULL argument");
	memset(sz, 0, sizeof *sz);
	struct citcat_aes_reader *r;
	int rc = citcat_aes_reader_open(&r, path);
	if (rc) {
		*err = *citcat_aes_reader_error(r);
		citcat_aes_reader_close(r);
		return rc;
	}
	uint8_t *zout = malloc(ZOUT);
	if (!zout) {
		citcat_aes_reader_close(r);
		return citcat_errinfo_set(err, CITCAT_ERR_NOMEM, UINT64_MAX, "out of memory");
	}
	struct kind_acc acc[CITCAT_AES_KINDS];
	memset(acc, 0, sizeof acc);
	struct citcat_aes_rec rec;
	uint64_t nrec = 0;
	int own_rc = 0; /* an error found here rather than by the reader */
	while ((rc = citcat_aes_next(r, &rec)) == 1) {
		struct kind_acc *a = &acc[rec.kind];
		/* copies of a repeated record are counted, not read one by one:
		 * a REPEAT may claim up to the file's own instruction count */
		uint64_t copies = citcat_aes_skip_repeats(r);
		if (copies >= UINT64_MAX - a->count) {
			own_rc = citcat_errinfo_set(err, CITCAT_ERR_CORRUPT, UINT64_MAX,
						    "its REPEAT records claim more than 2^64 %s records",
						    citcat_aes_kind_name(rec.kind));
			break;
		}
		a->count += copies + 1;
		if ((++nrec & 0x3fff) == 0 && citcat_stop_requested()) {
			own_rc = citcat_errinfo_set(err, CITCAT_ERR_INTERRUPTED, UINT64_MAX, "interrupted");
			break;
		}
		size_t nb;
		const uint8_t *raw = citcat_aes_last_raw(r, &nb);
		if (nb)
			acc_add(a, zout, raw, nb);
		if (rec.kind == CITCAT_AES_END)
			sz->insns = rec.insns;
		if (rec.kind == CITCAT_AES_DMA)
			sz->dma_bytes += rec.len;
	}
	for (int k = 0; k < CITCAT_AES_KINDS; k++) {
		acc_end(&acc[k], zout);
		sz->count[k] = acc[k].count;
		sz->raw[k] = acc[k].raw;
		sz->z[k] = acc[k].z;
	}
	free(zout);
	if (own_rc) {
		citcat_aes_reader_close(r);
		return own_rc;
	}
	if (rc < 0) {
		*err = *citcat_aes_reader_error(r);
		citcat_aes_reader_close(r);
		return rc;
	}
	sz->id = *citcat_aes_trace_id(r);
	sz->isa = citcat_aes_isa(r);
	citcat_aes_reader_close(r);
	long long fsize = file_bytes(path);
	sz->file_bytes = fsize > 0 ? (uint64_t)fsize : 0;
	return 0;
}
