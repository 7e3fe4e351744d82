/* Text listing of an itrace.  Disassembly goes through Capstone's
 * cs_disasm_iter with one cs_insn for the whole run; since traces repeat the
 * same few thousand instructions, the text of each (pc, word) is kept in a
 * small direct-mapped table, which makes the listing several times faster
 * than disassembling every record and keeps memory bounded. */
#include "armdec.h"
#include "listing.h"
#include "cat.h"
#include "input.h"
#include "outfile.h"
#include <citcat/symbols.h>

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DIS_SLOTS 4096
#define DIS_TEXT 128
#define OUTBUF (64u << 10)
#define ACC_COLUMN 72 /* index, pc, word and 40 characters of disassembly */

struct dis_slot {
	uint32_t pc, word;
	int valid; /* 1 + size + 8 * thumb of the text's instruction; 0: empty */
	char text[DIS_TEXT]; /* "mnemonic operands", mnemonic padded to 8 */
};

struct citcat_listing_writer {
	struct cc_outfile *out;
	struct armdec dec; /* the shared ARM decoder */
	struct dis_slot *dis;
	unsigned it_left; /* Thumb instructions left in the IT block being listed */
	int m7;           /* a Cortex-M7 itrace (isa 2) */
	uint64_t index;
	struct citcat_symbols *syms;
	int src_valid; /* src_func/src_file/src_line describe the last listed instruction */
	const char *src_func, *src_file;
	int src_line;
	int has_m7f; /* the next STOP of fault kind 11 has this Cortex-M7 fault status */
	struct citcat_m7_fault m7f;
	char buf[OUTBUF];
	size_t len;
	struct citcat_errinfo err;
};

static int lerr(struct citcat_listing_writer *w, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int lerr(struct citcat_listing_writer *w, int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	code = citcat_errinfo_vfirst(&w->err, code, UINT64_MAX, fmt, ap);
	va_end(ap);
	return code;
}

static void writer_free(struct citcat_listing_writer *w)
{
	armdec_fini(&w->dec);
	free(w->dis);
	free(w);
}

int citcat_listing_writer_open(struct citcat_listing_writer **wp, const char *path, enum citcat_isa isa,
			       struct citcat_errinfo *err)
{
	struct citcat_errinfo dummy;
	err = cc_errinfo_start(err, &dummy);
	if (!wp)
		return err->code = CITCAT_ERR_INVAL;
	*wp = NULL;
	if (isa != CITCAT_ISA_ARM_A32 && isa != CITCAT_ISA_ARMV7M) {
		snprintf(err->msg, sizeof err->msg, "instruction set %d has no disassembler here", (int)isa);
		return err->code = CITCAT_ERR_UNSUPPORTED;
	}
	struct citcat_listing_writer *w = calloc(1, sizeof *w);
	if (!w || !(w->dis = calloc(DIS_SLOTS, sizeof *w->dis))) {
		free(w);
		snprintf(err->msg, sizeof err->msg, "out of memory");
		return err->code = CITCAT_ERR_NOMEM;
	}
	if (armdec_init(&w->dec)) {
		writer_free(w);
		snprintf(err->msg, sizeof err->msg, "Capstone cannot disassemble ARM code");
		return err->code = CITCAT_ERR_UNSUPPORTED;
	}
	/* the M profile: Capstone's M-class Thumb names the special registers
	 * (PRIMASK, BASEPRI, ...) of mrs and msr */
	w->m7 = isa == CITCAT_ISA_ARMV7M;
	if (w->m7 && cs_option(w->dec.cst, CS_OPT_MODE, CS_MODE_THUMB | CS_MODE_MCLASS) != CS_ERR_OK) {
		writer_free(w);
		snprintf(err->msg, sizeof err->msg, "Capstone cannot disassemble M-profile Thumb code");
		return err->code = CITCAT_ERR_UNSUPPORTED;
	}
	int wrap = cc_wrap_by_suffix(path, NULL); /* LIST.txt.zst, LIST.txt.lz4 */
	int rc = cc_outfile_open(&w->out, path, wrap == CC_WRAP_XZ ? CC_OUT_PLAIN : wrap, err);
	if (rc) {
		writer_free(w);
		return rc;
	}
	w->len = (size_t)snprintf(w->buf, OUTBUF, "# citcat instruction listing, %s\n#%9s  %-8s  %-8s  %-*s%s\n",
				  w->m7 ? "Cortex-M7 (ARMv7-M Thumb)" : "ARMv7-A (ARM and Thumb-2)", "index", "pc", "word",
				  ACC_COLUMN - 32,
				  "instruction", "accesses: R/W size address = value");
	*wp = w;
	return 0;
}

/* The instruction of SIZE bytes in Thumb state when THUMB (the Capstone mode
 * switches per instruction). */
static const char *disassemble(struct citcat_listing_writer *w, uint32_t pc, uint32_t word, unsigned size, int thumb)
{
	struct dis_slot *s = &w->dis[((pc >> 2) ^ ((pc & 2) << 10)) & (DIS_SLOTS - 1)];
	int key = 1 + (int)size + 8 * thumb;
	/* Capstone's iterating decoder carries an IT instruction's block into
	 * the next decodes (they show the block's conditions): an IT and its
	 * block are decoded every time, in order, so that state never reaches
	 * another instruction through the cache. */
	int in_it = thumb && (w->it_left || (size == 2 && (word & 0xff00) == 0xbf00 && (word & 0xf)));
	if (w->it_left)
		w->it_left--;
	else if (in_it)
		w->it_left = 4 - (unsigned)__builtin_ctz(word & 0xf); /* the block's length: 4 - trailing zeros of the mask */
	if (!in_it && s->valid == key && s->pc == pc && s->word == word)
		return s->text;
	const cs_insn *in = armdec_decode_isa(&w->dec, pc, word, size, thumb);
	if (in) {
		if (in->op_str[0])
			snprintf(s->text, sizeof s->text, "%-7.31s %.88s", in->mnemonic, in->op_str);
		else
			snprintf(s->text, sizeof s->text, "%.31s", in->mnemonic);
	} else if (size == 2) {
		snprintf(s->text, sizeof s->text, ".short  0x%04x", word);
	} else if (thumb) {
		snprintf(s->text, sizeof s->text, ".inst.w 0x%04x%04x", word & 0xffff, word >> 16);
	} else {
		snprintf(s->text, sizeof s->text, ".word   0x%08x", word);
	}
	s->pc = pc;
	s->word = word;
	s->valid = key;
	return s->text;
}

static int flush(struct citcat_listing_writer *w)
{
	if (w->len && cc_outfile_write(w->out, w->buf, w->len))
		return lerr(w, CITCAT_ERR_IO, "writing the listing failed: %s", strerror(errno));
	w->len = 0;
	return 0;
}

/* The longest line: 64 accesses of about 45 characters each. */
#define MAX_LINE (400 + CITCAT_ITRACE_MAX_ACC * 48) /* with a source line */

/* Appends the accesses of REC at P (the line began at LINE; ROOM bytes are
 * left from P), in a column of their own when the text allows.  Returns the
 * new end. */
static char *put_accesses(char *p, const char *line, size_t room, const struct citcat_itrace_rec *rec)
{
	int pad = ACC_COLUMN - (int)(p - line);
	if (pad < 1)
		pad = 1;
	memset(p, ' ', (size_t)pad);
	p += pad;
	room -= (size_t)pad;
	for (uint32_t k = 0; k < rec->n_acc; k++) {
		const struct citcat_access *a = &rec->acc[k];
		int n = snprintf(p, room, "%s%c%u 0x%08llx = 0x%0*llx", k ? "  " : "", a->write ? 'W' : 'R', a->size,
				 (unsigned long long)a->addr, 2 * (a->size ? a->size : 1), (unsigned long long)a->value);
		p += n;
		room -= (size_t)n;
	}
	return p;
}

/* The Cortex-M7 exception numbers' names (ARMv7-M B1.5.2). */
static const char *m7_exc_name(unsigned exc, char *buf, size_t n)
{
	static const char *const names[16] = {[2] = "NMI",	    [3] = "HardFault", [4] = "MemManage",
					      [5] = "BusFault",     [6] = "UsageFault", [11] = "SVCall",
					      [12] = "DebugMonitor", [14] = "PendSV",	[15] = "SysTick"};
	if (exc >= 16)
		snprintf(buf, n, "IRQ %u", exc - 16);
	else
		snprintf(buf, n, "%s", names[exc] ? names[exc] : "reserved");
	return buf;
}

int citcat_listing_write(struct citcat_listing_writer *w, const struct citcat_itrace_rec *rec)
{
	if (!w || !rec)
		return CITCAT_ERR_INVAL;
	if (w->err.code)
		return w->err.code;
	if (rec->kind == CITCAT_REC_INSN && rec->n_acc > CITCAT_ITRACE_MAX_ACC)
		return lerr(w, CITCAT_ERR_INVAL, "record with %u accesses", rec->n_acc);
	if (w->len + MAX_LINE > OUTBUF && flush(w))
		return w->err.code;
	char *p = w->buf + w->len, *start = p;
	size_t room = OUTBUF - w->len;
	int n;
	if (rec->kind == CITCAT_REC_IRQ) {
		w->src_valid = 0;
		if (!w->m7) {
			n = snprintf(p, room, "%10s  interrupt line %u, EPC 0x%08llx\n", "--", rec->line,
				     (unsigned long long)rec->pc);
			w->len += (size_t)n;
			return 0;
		}
		/* the M7's entry: its stacking writes and vector read (ITRACE.md) */
		if (rec->n_acc > CITCAT_ITRACE_MAX_ACC)
			return lerr(w, CITCAT_ERR_INVAL, "record with %u accesses", rec->n_acc);
		char name[24];
		n = snprintf(p, room, "%10s  exception %u (%s), return address 0x%08llx", "--", rec->line,
			     m7_exc_name(rec->line, name, sizeof name), (unsigned long long)rec->pc);
		p += n;
		if (rec->n_acc)
			p = put_accesses(p, start, room - (size_t)(p - start), rec);
		*p++ = '\n';
		w->len += (size_t)(p - start);
		return 0;
	}
	if (rec->kind == CITCAT_REC_STOP) {
		/* the abnormal end, after the last instruction (ITRACE.md) */
		char where[192] = "";
		if (w->syms && citcat_symbols_describe(w->syms, rec->pc, where + 1, sizeof where - 1) > 0)
			where[0] = ' '; /* " func+0xOFF (file:line)" after the PC */
		char status[200];
		if (rec->line == CITCAT_STOP_FAULT && rec->word == CITCAT_FAULT_EXCEPTION && w->has_m7f &&
		    citcat_m7_fault_describe(&w->m7f, status, sizeof status) >= 0)
			n = snprintf(p, room, "%10s  fault at 0x%08llx%s: %s: %s\n", "--", (unsigned long long)rec->pc, where,
				     citcat_fault_kind_name(rec->word), status);
		else if (rec->line == CITCAT_STOP_FAULT && rec->word == CITCAT_FAULT_EXCEPTION)
			n = snprintf(p, room, "%10s  fault at 0x%08llx%s: %s: exception %u (%s)\n", "--",
				     (unsigned long long)rec->pc, where, citcat_fault_kind_name(rec->word), rec->fault_addr,
				     citcat_m7_exception_name(rec->fault_addr));
		else if (rec->line == CITCAT_STOP_FAULT)
			n = snprintf(p, room, "%10s  fault at 0x%08llx%s: %s, address 0x%08x\n", "--", (unsigned long long)rec->pc,
				     where, citcat_fault_kind_name(rec->word), rec->fault_addr);
		else
			n = snprintf(p, room, "%10s  %s at 0x%08llx%s\n", "--", citcat_stop_reason_name(rec->line),
				     (unsigned long long)rec->pc, where);
		w->len += (size_t)n;
		return 0;
	}
	if (rec->kind != CITCAT_REC_INSN)
		return lerr(w, CITCAT_ERR_INVAL, "unknown record kind %u", rec->kind);
	if (w->syms) {
		struct citcat_symloc loc = {0};
		if (citcat_symbols_lookup(w->syms, rec->pc, &loc) > 0 &&
		    (!w->src_valid || loc.func != w->src_func || loc.file != w->src_file || loc.line != w->src_line)) {
			char d[160];
			citcat_symbols_describe(w->syms, rec->pc, d, sizeof d);
			p += snprintf(p, room, "%12s; %s\n", "", d);
		}
		w->src_valid = 1;
		w->src_func = loc.func;
		w->src_file = loc.file;
		w->src_line = loc.line;
	}
	char *line = p; /* the instruction line, after any source line */
	unsigned isz = rec->size ? rec->size : 4;
	char wtxt[12]; /* A32: the word; Thumb: the halfwords in memory order, as objdump shows them */
	if (!rec->thumb)
		snprintf(wtxt, sizeof wtxt, "%08x", rec->word);
	else if (isz == 2)
		snprintf(wtxt, sizeof wtxt, "%04x    ", rec->word & 0xffff);
	else
		snprintf(wtxt, sizeof wtxt, "%04x%04x", rec->word & 0xffff, rec->word >> 16);
	n = snprintf(p, room - (size_t)(p - start), "%10llu  %08llx  %s  %s", (unsigned long long)w->index++, (unsigned long long)rec->pc,
		     wtxt, disassemble(w, (uint32_t)rec->pc, rec->word, isz, rec->thumb));
	p += n;
	if (rec->n_acc) /* accesses start in a column of their own when the text allows */
		p = put_accesses(p, line, room - (size_t)(p - start), rec);
	*p++ = '\n';
	w->len += (size_t)(p - start);
	return 0;
}

int citcat_listing_writer_close(struct citcat_listing_writer *w, struct citcat_errinfo *err)
{
	if (!w)
		return citcat_errinfo_set(err, CITCAT_ERR_INVAL, UINT64_MAX, "citcat_listing_writer_close: NULL writer");
	int rc = cc_outfile_finish(w->out, w->err.code ? w->err.code : flush(w), &w->err, err);
	writer_free(w);
	return rc;
}

void citcat_listing_writer_abort(struct citcat_listing_writer *w)
{
	if (!w)
		return;
	cc_outfile_abort(w->out);
	writer_free(w);
}

void citcat_listing_set_m7_fault(struct citcat_listing_writer *w, const struct citcat_m7_fault *f)
{
	if (!w)
		return;
	w->has_m7f = f != NULL;
	if (f)
		w->m7f = *f;
}

void citcat_listing_set_symbols(struct citcat_listing_writer *w, struct citcat_symbols *syms)
{
	if (!w)
		return;
	w->syms = syms;
	w->src_valid = 0;
}

void citcat_listing_set_index(struct citcat_listing_writer *w, uint64_t index)
{
	if (!w)
		return;
	w->index = index;
	w->src_valid = 0;
}

const struct citcat_errinfo *citcat_listing_writer_error(const struct citcat_listing_writer *w)
{
	return w ? &w->err : NULL;
}
