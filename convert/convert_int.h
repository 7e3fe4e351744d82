/* Internal header of convert/ (the public API is <citcat/convert.h>): the
 * state of one conversion and how its converters report errors. */
#ifndef CITCAT_CONVERT_INT_H
#define CITCAT_CONVERT_INT_H

#include <citcat/convert.h>
#include <citcat/image.h>
#include <citcat/ims.h>

#include "citcat.h"
#include "addr.h"
#include "itrace.h"

struct cv {
	const char *in, *out;
	const char *from, *to; /* registry names (TO may carry options: "sdclsp:r:32x4,128") */
	struct citcat_convert_config c;
	struct citcat_convert_result *res;
	struct citcat_errinfo *err;
	/* the progress callback's item counter cadence is the caller's (2^20) */
};

/* Zeroes V and LOCAL, points V's result at LOCAL and its error at ERR
 * (cleared when not NULL): how every entry point of convert/ starts. */
void cv_init(struct cv *v, struct citcat_convert_result *local, struct citcat_errinfo *err);

/* Each fills the result and ERR and returns the (negative) code. */
/* an error of FILE, as its reader or writer reported it */
int cv_file(struct cv *v, const char *file, const struct citcat_errinfo *e);
/* a message naming its files itself (CODE: its code) */
int cv_msg(struct cv *v, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* a request that cannot be done (CITCAT_ERR_INVAL) */
int cv_usage(struct cv *v, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* the DAF's check (CITCAT_ERR_DIVERGED); appends to the message */
void cv_check_append(struct cv *v, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int cv_check_done(struct cv *v);
void cv_progress(struct cv *v, const char *what, uint64_t n, const char *unit);
/* the wrapper to write OUT in: the config's when positive, else OUT's suffix's */
int cv_out_wrap(const struct cv *v);

/* convert.c: the references of an itrace or an address trace */
struct ref_source {
	struct citcat_itrace_reader *it;
	struct citcat_addr_reader *ar;
	struct citcat_itrace_rec *rec;
	uint32_t next_acc; /* index into rec->acc; n_acc + 1 = instruction not yet given */
	int have_rec;
	int uncached;      /* give uncached (device) accesses too */
	int dma;           /* give DMA transfers as copy-back + invalidate pairs */
	uint64_t dma_at;   /* DMA record being given: next address, end, and whether its */
	uint64_t dma_end;  /* invalidate (1) or copy-back (0) comes next */
	int dma_inval;
	uint64_t dma_dropped, dma_dropped_bytes; /* DMA transfers left out (not DMA) */
};
/* FMT: the registry's name; UNCACHED: keep uncached accesses; DMA: turn
 * DMA records into references (DIN.md, "From an itrace"). */
int cv_src_open(struct cv *v, struct ref_source *s, const char *path, const char *fmt, int uncached, int dma);
/* 1 with *REF filled, 0 at the end, negative on error (cv_src_error). */
int cv_src_next(struct ref_source *s, struct citcat_ref *ref);
const struct citcat_errinfo *cv_src_error(const struct ref_source *s);
void cv_src_close(struct ref_source *s);
/* The format of PATH by its contents, else (a text format) by its suffix;
 * *F NULL when neither tells. */
struct citcat_format;
int cv_detect(struct cv *v, const char *path, const struct citcat_format **f);

/* convert_sdclsp.c: itrace -> SDC-LSP and SDC-LSP -> din; the program image */
int cv_sdclsp(struct cv *v);
int cv_load_image(struct cv *v, const char *path, struct citcat_image **img, struct citcat_ims *ims);
void cv_free_image(struct citcat_image *img, struct citcat_ims *ims);
/* convert_daf.c: FLOW --daf DAF */
int cv_daf(struct cv *v);

#endif
