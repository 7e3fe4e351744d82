/* ChampSim export: see CHAMPSIM.md. */
#include "champsim.h"
#include "armdec.h"
#include "bytes.h"
#include "outfile.h"

#include <errno.h>
#include <lzma.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NDST 2
#define NSRC 4
#define OUTBUF (64u << 10)
#define LINE 64 /* ChampSim's default block size: one memory operand per block */
/* The .xz output (CHAMPSIM.md, ".xz"): liblzma's multithreaded encoder at
 * preset 3, one thread per processor.  On ChampSim records preset 3
 * compresses as well as the default 6 (qsort's 225 MB: 817 KB against 845
 * KB) in a twentieth of the time (2.5 s against 56 s of CPU): the default's
 * binary-tree match finder crawls over their long repeats. */
#define XZ_PRESET 3
#define XZ_MAX_THREADS 16

struct citcat_champsim_writer {
	struct cc_outfile *out;
	struct armdec dec;
	int xz, xz_open, uncached;
	lzma_stream lz;
	struct citcat_itrace_rec prev; /* the instruction waiting for its successor */
	int have_prev;
	uint8_t buf[OUTBUF];
	size_t len;
	uint8_t zbuf[OUTBUF];
	struct citcat_champsim_stats st;
	struct citcat_errinfo err;
};

static int werr(struct citcat_champsim_writer *w, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int werr(struct citcat_champsim_writer *w, int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	code = citcat_errinfo_vfirst(&w->err, code, UINT64_MAX, fmt, ap);
	va_end(ap);
	return code;
}

/* A Capstone ARM register as a ChampSim register number (CHAMPSIM.md,
 * "Registers"), 0 for one that has none. */
static uint8_t map_reg(unsigned r)
{
	unsigned n;
	if (r >= ARM_REG_R0 && r <= ARM_REG_R12)
		n = r - ARM_REG_R0;
	else if (r == ARM_REG_SP)
		n = 13;
	else if (r == ARM_REG_LR)
		n = 14;
	else if (r == ARM_REG_PC)
		n = 15;
	else if (r == ARM_REG_CPSR || r == ARM_REG_APSR || r == ARM_REG_APSR_NZCV)
		return 64; /* CVP-1's flags register */
	else
		return 0;
	return n == 0 ? 67 : n == 6 ? 65 : (uint8_t)n; /* cvp2champsim's translations of 0 and 6 */
}

/* Adds V to the sorted set S of capacity CAP holding *N; 1 if it did not fit. */
static int add_sorted(uint8_t *s, unsigned cap, unsigned *n, uint8_t v)
{
	unsigned i = 0;
	while (i < *n && s[i] < v)
		i++;
	if (i < *n && s[i] == v)
		return 0;
	if (*n == cap) {
		if (i == cap)
			return 1;
		memmove(s + i + 1, s + i, cap - i - 1); /* the largest falls off */
		s[i] = v;
		return 1;
	}
	memmove(s + i + 1, s + i, *n - i);
	s[i] = v;
	(*n)++;
	return 0;
}

static int add_mem(uint64_t *m, unsigned cap, unsigned *n, uint64_t addr)
{
	if (addr == 0)
		return 1; /* ChampSim reads address 0 as "no operand" */
	for (unsigned i = 0; i < *n; i++)
		if (m[i] / LINE == addr / LINE)
			return 0;
	if (*n == cap)
		return 1;
	m[(*n)++] = addr;
	return 0;
}

void citcat_champsim_encode(struct armdec *d, const struct citcat_itrace_rec *rec, int have_next, uint64_t next_pc,
			    int uncached, uint8_t out[CITCAT_CHAMPSIM_REC], struct citcat_champsim_stats *st)
{
	struct armdec_class c;
	unsigned isz = rec->size ? rec->size : 4; /* 0: an A32 record (itrace.h) */
	armdec_classify_isa(d, (uint32_t)rec->pc, rec->word, isz, rec->thumb, &c);
	uint8_t dst[NDST] = {0}, src[NSRC] = {0};
	uint64_t dmem[NDST] = {0}, smem[NSRC] = {0};
	unsigned nd = 0, ns = 0, nmd = 0, nms = 0;
	int branch = c.flow == ARMDEC_DIRECT_U || c.flow == ARMDEC_DIRECT_C || c.flow == ARMDEC_INDIRECT ||
		     c.flow == ARMDEC_THUMB; /* BLX imm: a call that switches state */
	int taken = have_next ? next_pc != rec->pc + isz : branch && !c.cond;
	if (branch) {
		/* the registers ChampSim infers the branch type from (its
		 * inc/instruction.h), set as its converters set them */
		dst[nd++] = CITCAT_CHAMPSIM_REG_IP;
		if (c.cond) { /* conditional: reads IP and FLAGS, writes IP */
			src[ns++] = CITCAT_CHAMPSIM_REG_IP;
			src[ns++] = CITCAT_CHAMPSIM_REG_FLAGS;
		} else if (c.link) { /* call: reads IP and SP, writes IP and SP (+ the target register) */
			dst[nd++] = CITCAT_CHAMPSIM_REG_SP;
			src[ns++] = CITCAT_CHAMPSIM_REG_IP;
			src[ns++] = CITCAT_CHAMPSIM_REG_SP;
			if (c.flow == ARMDEC_INDIRECT)
				for (unsigned i = 0; i < c.nrd && ns < NSRC; i++)
					if (map_reg(c.rd[i]) && c.rd[i] != ARM_REG_PC)
						src[ns++] = map_reg(c.rd[i]);
		} else if (c.ret) { /* return: reads SP, writes IP and SP */
			dst[nd++] = CITCAT_CHAMPSIM_REG_SP;
			src[ns++] = CITCAT_CHAMPSIM_REG_SP;
		} else if (c.exc_ret) { /* exception return: reads IP and SP, writes IP -> BRANCH_OTHER */
			src[ns++] = CITCAT_CHAMPSIM_REG_IP;
			src[ns++] = CITCAT_CHAMPSIM_REG_SP;
		} else if (c.flow == ARMDEC_INDIRECT) { /* indirect jump: reads other registers only */
			for (unsigned i = 0; i < c.nrd; i++) {
				uint8_t r = map_reg(c.rd[i]);
				if (r && r != 64 && ns < NSRC) {
					unsigned k = 0;
					while (k < ns && src[k] != r)
						k++;
					if (k == ns)
						src[ns++] = r;
				}
			}
			if (!ns)
				src[ns++] = 15; /* the PC as a data operand */
		} /* direct jump: writes IP only */
	} else {
		for (unsigned i = 0; i < c.nwr; i++)
			if (map_reg(c.wr[i]))
				st->reg_dropped += (uint64_t)add_sorted(dst, NDST, &nd, map_reg(c.wr[i]));
		for (unsigned i = 0; i < c.nrd; i++)
			if (map_reg(c.rd[i]))
				st->reg_dropped += (uint64_t)add_sorted(src, NSRC, &ns, map_reg(c.rd[i]));
		if (c.cond)
			st->reg_dropped += (uint64_t)add_sorted(src, NSRC, &ns, 64);
	}
	for (uint32_t i = 0; i < rec->n_acc; i++) {
		const struct citcat_access *a = &rec->acc[i];
		if (a->uncached && !uncached)
			continue;
		st->mem_dropped += (uint64_t)(a->write ? add_mem(dmem, NDST, &nmd, a->addr) : add_mem(smem, NSRC, &nms, a->addr));
	}
	memset(out, 0, CITCAT_CHAMPSIM_REC);
	cc_put64(out, rec->pc);
	out[8] = (uint8_t)branch;
	out[9] = (uint8_t)(branch && taken);
	memcpy(out + 10, dst, NDST);
	memcpy(out + 12, src, NSRC);
	for (unsigned i = 0; i < NDST; i++)
		cc_put64(out + 16 + 8 * i, dmem[i]);
	for (unsigned i = 0; i < NSRC; i++)
		cc_put64(out + 32 + 8 * i, smem[i]);
	st->records++;
	st->branches += (uint64_t)branch;
	st->taken += (uint64_t)(branch && taken);
}

static int emit(struct citcat_champsim_writer *w, const void *p, size_t n)
{
	if (cc_outfile_write(w->out, p, n))
		return werr(w, CITCAT_ERR_IO, "writing the ChampSim trace failed: %s", strerror(errno));
	return 0;
}

/* Sends the buffered records to the file, through xz when asked; FINISH
 * ends the xz stream. */
static int flush(struct citcat_champsim_writer *w, int finish)
{
	if (!w->xz) {
		int rc = w->len ? emit(w, w->buf, w->len) : 0;
		w->len = 0;
		return rc;
	}
	w->lz.next_in = w->buf;
	w->lz.avail_in = w->len;
	for (;;) {
		w->lz.next_out = w->zbuf;
		w->lz.avail_out = sizeof w->zbuf;
		lzma_ret r = lzma_code(&w->lz, finish ? LZMA_FINISH : LZMA_RUN);
		if (r != LZMA_OK && r != LZMA_STREAM_END)
			return werr(w, r == LZMA_MEM_ERROR ? CITCAT_ERR_NOMEM : CITCAT_ERR_INTERNAL, "xz compression failed (%d)",
				    (int)r);
		size_t n = sizeof w->zbuf - w->lz.avail_out;
		if (n && emit(w, w->zbuf, n))
			return w->err.code;
		if (finish ? r == LZMA_STREAM_END : w->lz.avail_in == 0)
			break;
	}
	w->len = 0;
	return 0;
}

static void writer_free(struct citcat_champsim_writer *w)
{
	if (w->xz_open)
		lzma_end(&w->lz);
	armdec_fini(&w->dec);
	free(w);
}

int citcat_champsim_writer_open(struct citcat_champsim_writer **wp, const char *path, int xz, int uncached,
				struct citcat_errinfo *err)
{
	struct citcat_errinfo dummy;
	err = cc_errinfo_start(err, &dummy);
	if (!wp)
		return err->code = CITCAT_ERR_INVAL;
	*wp = NULL;
	struct citcat_champsim_writer *w = calloc(1, sizeof *w);
	if (!w) {
		snprintf(err->msg, sizeof err->msg, "out of memory");
		return err->code = CITCAT_ERR_NOMEM;
	}
	int rc = armdec_init(&w->dec);
	if (rc) {
		writer_free(w);
		snprintf(err->msg, sizeof err->msg, "Capstone cannot decode ARM code");
		return err->code = rc;
	}
	w->xz = xz != 0;
	w->uncached = uncached != 0;
	if (w->xz) {
		lzma_stream init = LZMA_STREAM_INIT;
		w->lz = init;
		/* the blocks (3 x the preset's dictionary) depend on the preset
		 * only, so the file is the same whatever the thread count */
		uint32_t threads = lzma_cputhreads();
		lzma_mt mt = {.flags = 0,
			      .threads = threads < 1 ? 1 : threads > XZ_MAX_THREADS ? XZ_MAX_THREADS : threads,
			      .block_size = 0,
			      .timeout = 0,
			      .preset = XZ_PRESET,
			      .check = LZMA_CHECK_CRC64};
		if (lzma_stream_encoder_mt(&w->lz, &mt) != LZMA_OK) {
			writer_free(w);
			snprintf(err->msg, sizeof err->msg, "cannot set up the xz encoder");
			return err->code = CITCAT_ERR_NOMEM;
		}
		w->xz_open = 1;
	}
	if ((rc = cc_outfile_open(&w->out, path, 0, err))) {
		writer_free(w);
		return rc;
	}
	*wp = w;
	return 0;
}

static int put_prev(struct citcat_champsim_writer *w, int have_next, uint64_t next_pc)
{
	if (!w->have_prev)
		return 0;
	if (w->len + CITCAT_CHAMPSIM_REC > OUTBUF && flush(w, 0))
		return w->err.code;
	citcat_champsim_encode(&w->dec, &w->prev, have_next, next_pc, w->uncached, w->buf + w->len, &w->st);
	w->len += CITCAT_CHAMPSIM_REC;
	w->have_prev = 0;
	return 0;
}

int citcat_champsim_write(struct citcat_champsim_writer *w, const struct citcat_itrace_rec *rec)
{
	if (w->err.code)
		return w->err.code;
	switch (rec->kind) {
	case CITCAT_REC_INSN:
		if (rec->n_acc > CITCAT_ITRACE_MAX_ACC)
			return werr(w, CITCAT_ERR_INVAL, "record with %u accesses", rec->n_acc);
		if (put_prev(w, 1, rec->pc))
			return w->err.code;
		w->prev = *rec;
		w->have_prev = 1;
		return 0;
	case CITCAT_REC_IRQ: /* the interrupted instruction went on at the EPC */
		w->st.irqs++;
		w->st.mem_dropped += rec->n_acc; /* an M7 entry's stacking and vector read (CHAMPSIM.md) */
		return put_prev(w, 1, rec->pc);
	case CITCAT_REC_DMA:
		return 0;
	case CITCAT_REC_STOP:
		/* an abnormal end, the last record (ITRACE.md): when it names
		 * another PC than the last instruction's (a fetch fault's target,
		 * the first instruction not executed when interrupted), that is
		 * where execution went on; a faulting instruction or a deadlocked
		 * WFI is itself the last one */
		if (w->have_prev && rec->pc != w->prev.pc)
			return put_prev(w, 1, rec->pc);
		return 0;
	default:
		return werr(w, CITCAT_ERR_INVAL, "unknown record kind %u", rec->kind);
	}
}

int citcat_champsim_writer_close(struct citcat_champsim_writer *w, struct citcat_errinfo *err)
{
	int rc = w->err.code;
	if (!rc && !put_prev(w, 0, 0))
		rc = flush(w, 1);
	rc = cc_outfile_finish(w->out, rc ? rc : w->err.code, &w->err, err);
	writer_free(w);
	return rc;
}

void citcat_champsim_writer_abort(struct citcat_champsim_writer *w)
{
	if (!w)
		return;
	cc_outfile_abort(w->out);
	writer_free(w);
}

const struct citcat_errinfo *citcat_champsim_writer_error(const struct citcat_champsim_writer *w) { return &w->err; }
const struct citcat_champsim_stats *citcat_champsim_writer_stats(const struct citcat_champsim_writer *w) { return &w->st; }
