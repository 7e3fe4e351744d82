/* WET reader and queries (WET.md).  Opening checks the header, footer,
 * graph and index; stream blocks are read, checksummed and decoded one
 * segment at a time, so memory is bounded by the segment size and the
 * static graph whatever the length of the run. */
#include "bistream.h"
#include "bytes.h"
#include "defuse.h"
#include "input.h"
#include "tier1.h"
#include "wet_int.h"
#include "grow.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>
#include <sys/stat.h>
#include <unistd.h>

struct rnode {
	uint8_t kind, line;
	uint32_t pc, n;
	uint32_t first; /* index of its first statement in stmt[] */
	uint32_t ngroups, gfirst; /* tier 1: its value groups, from grp[gfirst] */
};

struct rgrp { /* a value group of a node (tier 1) */
	uint32_t key;   /* the key of its pattern values */
	uint32_t width; /* results in its tuple */
};

struct rtup { /* a unique tuple of the open segment */
	uint32_t node, g, off;
};

/* Version 5, tier 1 of one access stream (addresses or values) in the
 * open segment: the unique values with their keys (collected backwards,
 * then sorted by key and, within a key, by ordinal), and per key its run
 * of them and how many precede the walk's position. */
struct rkey {
	uint32_t key, start, total, cnt;
};
struct acct {
	uint32_t *lk, *lv; /* collected: key, value */
	size_t n, cap;
	uint64_t *srt;     /* key << 32 | position, sorted */
	uint32_t *sval;    /* the values in that order */
	size_t srt_cap;
	struct rkey *ht;   /* open addressing on the key; total 0: empty */
	size_t ht_cap;
};

struct rstmt {
	uint32_t pc, word;
	uint8_t isa, it; /* instruction set (WET_ISA_*) and IT state before it (version 6) */
	struct wet_du du;
	/* local edges (WET.md): INDEX distances of the producers its node
	 * implies, when its condition held ([0..nloc)) and when it failed */
	uint8_t nloc, nloc_failed;
	uint16_t loc[WET_DU_MAX], loc_failed;
	/* tier 1: its group (WET_GROUP_NONE: no results) and the position of
	 * its first result in the group's tuple */
	uint16_t grp, slot;
};

struct rseg {
	uint64_t first_insn, first_ts;
	uint64_t reach; /* no instance of it names a producer or control parent below this INDEX */
	uint32_t n_insns, n_nodes;
	uint64_t off[CITCAT_WET_NSTREAMS];
	uint32_t len[CITCAT_WET_NSTREAMS], count[CITCAT_WET_NSTREAMS];
	uint64_t hash[CITCAT_WET_NSTREAMS];
};

struct citcat_wet {
	FILE *f;
	char *path;
	uint64_t size;
	struct citcat_errinfo err;
	struct rnode *nodes;
	uint32_t nnodes;
	struct rstmt *stmt;
	struct rgrp *grp;
	uint32_t ngrp;
	struct rseg *segs;
	uint32_t nsegs;
	uint64_t insns, node_execs, irqs;
	struct citcat_wet_stream_size ssize[CITCAT_WET_NSTREAMS];
	uint8_t *buf;
	size_t buf_cap;
	struct wet_cursor cur[CITCAT_WET_NSTREAMS];
	struct citcat_wet_insn in;
	/* tier 1, for the open segment: its unique values decoded, its tuples
	 * (forward order), the tuples created before the walk's position, the
	 * current node execution's tuple per group; while collecting, the
	 * tuples are found in backward order */
	uint32_t *uv, *ukeys;
	size_t uv_cap, ukeys_cap;
	struct rtup *tup;
	size_t ntup, tup_cap;
	uint64_t tcnt;
	int collect;
	uint32_t pat[WET_NODE_MAX_INSNS];
	/* version 4, shared labels: the open node execution's dep values
	 * (eref) and stored producers (eprod), edge by edge (instance, then
	 * nearest first), from efirst[k] for its k-th instance (enum_[k] of
	 * them); its labels' producers in order (lprod) */
	uint64_t *eprod, *lprod;
	uint32_t *eref;
	size_t e_cap;
	uint32_t efirst[WET_NODE_MAX_INSNS], enum_[WET_NODE_MAX_INSNS];
	uint32_t cur_k; /* the statement's position in its node, for labels() */
	/* version 5: tier 1 of the addresses [0] and access values [1] */
	struct acct acc[2];
};

static int werr(struct citcat_wet *w, int code, uint64_t off, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static int werr(struct citcat_wet *w, int code, uint64_t off, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	w->err.code = code;
	w->err.offset = off;
	vsnprintf(w->err.msg, sizeof w->err.msg, fmt, ap);
	va_end(ap);
	return code;
}

const struct citcat_errinfo *citcat_wet_error(const struct citcat_wet *w) { return &w->err; }

static int read_at(struct citcat_wet *w, uint64_t off, void *buf, size_t len)
{
	if (off > w->size || len > w->size - off)
		return werr(w, CITCAT_ERR_TRUNCATED, w->size, "%zu bytes at offset %llu lie past the end of the file", len,
			    (unsigned long long)off);
	if (fseeko(w->f, (off_t)off, SEEK_SET) || fread(buf, 1, len, w->f) != len)
		return werr(w, CITCAT_ERR_IO, off, "read failed");
	return 0;
}

static uint8_t *load(struct citcat_wet *w, uint64_t off, size_t len)
{
	if (len > w->buf_cap) {
		uint8_t *p = realloc(w->buf, len);
		if (!p) {
			werr(w, CITCAT_ERR_NOMEM, off, "out of memory");
			return NULL;
		}
		w->buf = p;
		w->buf_cap = len;
	}
	return read_at(w, off, w->buf, len) ? NULL : w->buf;
}

static int parse_graph(struct citcat_wet *w, const uint8_t *g, size_t len, uint64_t goff, struct wet_decoder *dec)
{
	if (len < 4)
		return werr(w, CITCAT_ERR_CORRUPT, goff, "graph section shorter than its count");
	uint32_t n = cc_get32(g);
	if (n > (len - 4) / 12)
		return werr(w, CITCAT_ERR_CORRUPT, goff, "graph: %u nodes cannot fit in %zu bytes", n, len);
	if (!(w->nodes = calloc(n ? n : 1, sizeof *w->nodes)))
		return werr(w, CITCAT_ERR_NOMEM, goff, "out of memory");
	w->nnodes = n;
	size_t pos = 4, nst = 0;
	for (uint32_t i = 0; i < n; i++) {
		if (len - pos < 12)
			return werr(w, CITCAT_ERR_CORRUPT, goff + pos, "graph: node %u is truncated", i);
		const uint8_t *p = g + pos;
		struct rnode *x = &w->nodes[i];
		x->kind = p[0];
		x->line = p[1];
		x->pc = cc_get32(p + 4);
		x->n = cc_get32(p + 8);
		if (p[2] || p[3])
			return werr(w, CITCAT_ERR_CORRUPT, goff + pos + 2, "graph: node %u: reserved bytes are not zero", i);
		if (x->kind > WET_NODE_PATH || (x->kind != WET_NODE_IRQ && (x->line || !x->n || x->n > WET_NODE_MAX_INSNS)) ||
		    (x->kind == WET_NODE_IRQ && x->n))
			return werr(w, CITCAT_ERR_CORRUPT, goff + pos, "graph: node %u has an invalid kind or length", i);
		if (x->pc & 1)
			return werr(w, CITCAT_ERR_CORRUPT, goff + pos + 4, "graph: node %u has an invalid address", i);
		pos += 12;
		size_t per = x->kind == WET_NODE_PATH ? 10 : 6;
		if ((len - pos) / per < x->n)
			return werr(w, CITCAT_ERR_CORRUPT, goff + pos, "graph: node %u's instructions are truncated", i);
		/* version 6: per statement its instruction set and the IT state
		 * before it; addresses aligned to the instruction set, a basic
		 * block's consecutive, each IT state the one its predecessor leaves */
		uint64_t next = x->pc;
		for (uint32_t k = 0; k < x->n; k++) {
			size_t at = pos + per * (size_t)k, wo = at + (x->kind == WET_NODE_PATH ? 4 : 0);
			uint32_t a = x->kind == WET_NODE_PATH ? cc_get32(g + at) : (uint32_t)next, word = cc_get32(g + wo);
			unsigned isa = g[wo + 4], it = g[wo + 5];
			if (isa > WET_ISA_T32)
				return werr(w, CITCAT_ERR_CORRUPT, goff + wo + 4, "graph: node %u: instruction set %u is not 0, 1 or 2", i, isa);
			if ((isa == WET_ISA_A32 && it) || (!(it & 15) && it))
				return werr(w, CITCAT_ERR_CORRUPT, goff + wo + 5, "graph: node %u: invalid IT state 0x%02x", i, it);
			if (isa == WET_ISA_T16 && word >> 16)
				return werr(w, CITCAT_ERR_CORRUPT, goff + wo, "graph: node %u: a 16-bit instruction word above 0xffff", i);
			if ((x->kind == WET_NODE_BLOCK && next + wet_isa_size(isa) > 0x100000000ull) ||
			    a & (isa == WET_ISA_A32 ? 3u : 1u) || (k == 0 && a != x->pc))
				return werr(w, CITCAT_ERR_CORRUPT, goff + at, "graph: node %u has an invalid address", i);
			size_t pw = wo - per; /* the statement before (k > 0) */
			if (k && x->kind == WET_NODE_BLOCK && (isa == WET_ISA_A32) != (g[pw + 4] == WET_ISA_A32))
				return werr(w, CITCAT_ERR_CORRUPT, goff + wo + 4, "graph: basic block %u changes instruction set", i);
			if (k && it != wet_it_next(g[pw + 5], cc_get32(g + pw), wet_isa_size(g[pw + 4]), g[pw + 4] != WET_ISA_A32))
				return werr(w, CITCAT_ERR_CORRUPT, goff + wo + 5,
					    "graph: node %u: IT state 0x%02x does not follow from the statement before", i, it);
			next += wet_isa_size(isa);
		}
		x->first = (uint32_t)nst;
		nst += x->n;
		pos += per * (size_t)x->n;
	}
	if (pos != len)
		return werr(w, CITCAT_ERR_CORRUPT, goff + pos, "graph: trailing bytes");
	if (!(w->stmt = calloc(nst ? nst : 1, sizeof *w->stmt)))
		return werr(w, CITCAT_ERR_NOMEM, goff, "out of memory");
	size_t gcap = 0;
	pos = 4;
	for (uint32_t i = 0; i < n; i++) {
		pos += 12;
		uint32_t next = w->nodes[i].pc;
		for (uint32_t k = 0; k < w->nodes[i].n; k++, pos += 6) {
			struct rstmt *s = &w->stmt[w->nodes[i].first + k];
			if (w->nodes[i].kind == WET_NODE_PATH) {
				s->pc = cc_get32(g + pos);
				pos += 4;
			} else {
				s->pc = next;
			}
			s->word = cc_get32(g + pos);
			s->isa = g[pos + 4];
			s->it = g[pos + 5];
			next = s->pc + wet_isa_size(s->isa);
			wet_decode_isa(dec, s->pc, s->word, wet_isa_size(s->isa), s->isa != WET_ISA_A32, s->it, &s->du);
		}
		/* tier 1: the value groups */
		if (w->nodes[i].n) {
			const struct wet_du *dp[WET_NODE_MAX_INSNS];
			uint32_t words[WET_NODE_MAX_INSNS];
			uint8_t isa[WET_NODE_MAX_INSNS];
			uint16_t gr[WET_NODE_MAX_INSNS];
			for (uint32_t k = 0; k < w->nodes[i].n; k++) {
				dp[k] = &w->stmt[w->nodes[i].first + k].du;
				words[k] = w->stmt[w->nodes[i].first + k].word;
				isa[k] = w->stmt[w->nodes[i].first + k].isa;
			}
			int ng = wet_value_groups_isa(dp, words, isa, w->nodes[i].n, gr);
			if (ng < 0)
				return werr(w, CITCAT_ERR_NOMEM, goff, "out of memory");
			if (cc_grow(&w->grp, &gcap, (size_t)w->ngrp + (size_t)ng, sizeof *w->grp, 64, SIZE_MAX))
				return werr(w, CITCAT_ERR_NOMEM, goff, "out of memory");
			w->nodes[i].gfirst = w->ngrp;
			w->nodes[i].ngroups = (uint32_t)ng;
			for (int gi = 0; gi < ng; gi++)
				w->grp[w->ngrp + (uint32_t)gi] = (struct rgrp){0, 0};
			for (uint32_t k = 0; k < w->nodes[i].n; k++) {
				struct rstmt *st = &w->stmt[w->nodes[i].first + k];
				st->grp = gr[k];
				if (gr[k] == WET_GROUP_NONE)
					continue;
				struct rgrp *G = &w->grp[w->ngrp + gr[k]];
				if (!G->width)
					G->key = WET_KEY(st->pc, gr[k]);
				st->slot = (uint16_t)G->width;
				G->width += st->du.ndef;
			}
			w->ngrp += (uint32_t)ng;
		}
		/* local edges, from the statements before each one */
		uint16_t def[WET_R_FLAGS + 1] = {0};
		for (uint32_t k = 0; k < w->nodes[i].n; k++) {
			struct rstmt *s = &w->stmt[w->nodes[i].first + k];
			uint64_t d[WET_DU_MAX];
			s->nloc = (uint8_t)wet_local_producers(&s->du, 1, k, def, d);
			for (unsigned q = 0; q < s->nloc; q++)
				s->loc[q] = (uint16_t)d[q];
			s->nloc_failed = (uint8_t)wet_local_producers(&s->du, 0, k, def, d);
			s->loc_failed = s->nloc_failed ? (uint16_t)d[0] : 0;
			for (unsigned q = 0; q < s->du.ndef; q++)
				if (s->du.def[q] <= WET_R_FLAGS && s->du.def[q] != 13 && s->du.def[q] != 14)
					def[s->du.def[q]] = s->du.cond == 14 ? (uint16_t)(k + 1) : 0;
		}
	}
	return 0;
}

static int parse_index(struct citcat_wet *w, const uint8_t *x, size_t len, uint64_t ioff, uint64_t goff)
{
	if (len < WET_IDX_HDR)
		return werr(w, CITCAT_ERR_CORRUPT, ioff, "index shorter than its header");
	w->insns = cc_get64(x);
	w->node_execs = cc_get64(x + 8);
	w->irqs = cc_get64(x + 16);
	uint32_t ns = cc_get32(x + 24), nk = cc_get32(x + 28);
	if (nk != CITCAT_WET_NSTREAMS)
		return werr(w, CITCAT_ERR_CORRUPT, ioff + 28, "index: %u streams per segment, this version has %u", nk,
			    CITCAT_WET_NSTREAMS);
	size_t per = WET_SEG_HDR + WET_SEG_STREAM * CITCAT_WET_NSTREAMS;
	if ((len - WET_IDX_HDR) / per != ns || (len - WET_IDX_HDR) % per)
		return werr(w, CITCAT_ERR_CORRUPT, ioff + 24, "index: %u segments do not match its length %zu", ns, len);
	if (!(w->segs = calloc(ns ? ns : 1, sizeof *w->segs)))
		return werr(w, CITCAT_ERR_NOMEM, ioff, "out of memory");
	w->nsegs = ns;
	uint64_t insn = 0, ts = 1, off = WET_HDR_LEN;
	const uint8_t *p = x + WET_IDX_HDR;
	for (uint32_t i = 0; i < ns; i++) {
		uint64_t at = ioff + (uint64_t)(p - x);
		struct rseg *s = &w->segs[i];
		s->first_insn = cc_get64(p);
		s->first_ts = cc_get64(p + 8);
		s->reach = cc_get64(p + 24);
		s->n_insns = cc_get32(p + 16);
		s->n_nodes = cc_get32(p + 20);
		if (s->first_insn != insn || s->first_ts != ts || s->n_nodes > WET_BLOCK_MAX || s->n_insns > WET_BLOCK_MAX ||
		    (!s->n_nodes && !s->n_insns))
			return werr(w, CITCAT_ERR_CORRUPT, at, "index: segment %u does not follow the one before", i);
		if (s->reach > s->first_insn)
			return werr(w, CITCAT_ERR_CORRUPT, at + 24, "index: segment %u reaches back to %llu, after its start", i,
				    (unsigned long long)s->reach);
		insn += s->n_insns;
		ts += s->n_nodes;
		p += WET_SEG_HDR;
		for (unsigned k = 0; k < CITCAT_WET_NSTREAMS; k++, p += WET_SEG_STREAM) {
			s->off[k] = cc_get64(p);
			s->len[k] = cc_get32(p + 8);
			s->count[k] = cc_get32(p + 12);
			s->hash[k] = cc_get64(p + 16);
			if (s->off[k] != off || s->len[k] > goff - off || s->count[k] > WET_BLOCK_MAX)
				return werr(w, CITCAT_ERR_CORRUPT, ioff + (uint64_t)(p - x),
					    "index: segment %u, stream %s: block out of place", i, citcat_wet_stream_name(k));
			off += s->len[k];
			w->ssize[k].values += s->count[k];
			w->ssize[k].bytes += s->len[k];
		}
		if (s->count[CITCAT_WET_S_NODE] != s->n_nodes || s->count[CITCAT_WET_S_ACCN] != s->n_insns ||
		    s->count[CITCAT_WET_S_DEPN] != s->n_insns || s->count[CITCAT_WET_S_CDEP] != s->n_insns)
			return werr(w, CITCAT_ERR_CORRUPT, at, "index: segment %u: stream counts disagree", i);
		/* version 5: a pattern stream is empty (the plain form) or holds
		 * one value per access, and then its unique values are fewer */
		for (unsigned a = 0; a < 2; a++) {
			unsigned u = a ? CITCAT_WET_S_AVAL : CITCAT_WET_S_AADDR, q = a ? CITCAT_WET_S_AVPAT : CITCAT_WET_S_APAT;
			uint32_t na = s->count[CITCAT_WET_S_AKIND];
			if (s->count[q] ? s->count[q] != na || s->count[u] > na : s->count[u] != na)
				return werr(w, CITCAT_ERR_CORRUPT, at, "index: segment %u: streams %s and %s do not match its %u accesses",
					    i, citcat_wet_stream_name(u), citcat_wet_stream_name(q), na);
		}
	}
	if (off != goff)
		return werr(w, CITCAT_ERR_CORRUPT, ioff, "index: the blocks do not fill the stream section");
	if (insn != w->insns || ts - 1 != w->node_execs)
		return werr(w, CITCAT_ERR_CORRUPT, ioff, "index: totals do not match the segments");
	return 0;
}

/* A WET compressed as a whole (.lz4, .zst, .xz: the input layer,
 * common/input.h) or read from standard input ("-") is unwrapped into an
 * anonymous temporary file, streaming: queries seek, so they need a
 * regular file.  Offsets in later errors count bytes of the unwrapped
 * WET, as the input layer's do.  A plain file is left to fopen (w->f
 * stays NULL). */
static int open_unwrapped(struct citcat_wet *w, const char *path)
{
	struct cc_input *in = NULL;
	struct citcat_errinfo e = {0};
	int rc = cc_input_open(&in, path, &e);
	if (rc) {
		cc_input_close(in);
		return werr(w, rc, e.offset, "%s", e.msg[0] ? e.msg : citcat_errstr(rc));
	}
	struct stat st; /* a FIFO or a device named as the WET is read once, as "-" */
	if (cc_input_wrap(in) == CC_WRAP_NONE && strcmp(path, "-") && stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
		cc_input_close(in);
		return 0;
	}
	FILE *t = tmpfile();
	if (!t) {
		cc_input_close(in);
		return werr(w, CITCAT_ERR_IO, UINT64_MAX, "cannot create a temporary file to unwrap the WET into");
	}
	w->f = t;
	uint8_t b[CC_INPUT_BUF];
	long n;
	while ((n = cc_input_read(in, b, sizeof b)) > 0)
		if (fwrite(b, 1, (size_t)n, t) != (size_t)n) {
			cc_input_close(in);
			return werr(w, CITCAT_ERR_IO, UINT64_MAX, "cannot write the unwrapped WET to a temporary file");
		}
	if (n < 0) {
		const struct citcat_errinfo *ie = cc_input_error(in);
		rc = werr(w, (int)n, ie->offset, "%s", ie->msg[0] ? ie->msg : citcat_errstr((int)n));
	}
	cc_input_close(in);
	if (!rc && fflush(t))
		rc = werr(w, CITCAT_ERR_IO, UINT64_MAX, "cannot write the unwrapped WET to a temporary file");
	return rc;
}

static int wet_open_file(struct citcat_wet **wp, const char *path, const void *buf, size_t len)
{
	int rc;
	struct citcat_wet *w = calloc(1, sizeof *w);
	*wp = w;
	if (!w)
		return CITCAT_ERR_NOMEM;
	w->err.offset = UINT64_MAX;
	if (path && (rc = open_unwrapped(w, path)))
		return rc;
	if (!w->f && path) { /* the input layer's rules (common/input.h) */
		struct citcat_errinfo e = {0};
		int fd;
		if ((rc = cc_input_open_fd(path, 0, &fd, &e)))
			return werr(w, rc, e.offset, "%s", e.msg);
		if (!(w->f = fdopen(fd, "rb"))) {
			close(fd);
			return werr(w, CITCAT_ERR_NOMEM, UINT64_MAX, "out of memory");
		}
	}
	if (!w->f && !(w->f = len ? fmemopen((void *)buf, len, "rb") : NULL))
		return werr(w, CITCAT_ERR_EMPTY, 0, "empty file");
	if (fseeko(w->f, 0, SEEK_END))
		return werr(w, CITCAT_ERR_IO, UINT64_MAX, "not seekable (a WET must be a regular file)");
	w->size = (uint64_t)ftello(w->f);
	if (!w->size)
		return werr(w, CITCAT_ERR_EMPTY, 0, "empty file");
	uint8_t h[WET_HDR_LEN], f[WET_FOOT_LEN];
	if (w->size < WET_HDR_LEN)
		return werr(w, CITCAT_ERR_TRUNCATED, w->size, "shorter than a WET header");
	if (read_at(w, 0, h, sizeof h))
		return w->err.code;
	if (memcmp(h, WET_MAGIC, 8))
		return werr(w, CITCAT_ERR_MAGIC, 0, "not a WET file");
	if (cc_get32(h + 12) != XXH32(h, 12, 0))
		return werr(w, CITCAT_ERR_CHECKSUM, 12, "header checksum mismatch");
	if (cc_get16(h + 8) != WET_VERSION)
		return werr(w, CITCAT_ERR_VERSION, 8, "WET version %u (this build reads %u)", cc_get16(h + 8), WET_VERSION);
	if (cc_get16(h + 10))
		return werr(w, CITCAT_ERR_CORRUPT, 10, "reserved header bytes are not zero");
	if (w->size < WET_HDR_LEN + WET_FOOT_LEN)
		return werr(w, CITCAT_ERR_TRUNCATED, w->size, "file ends before its footer");
	uint64_t fo = w->size - WET_FOOT_LEN;
	if (read_at(w, fo, f, sizeof f))
		return w->err.code;
	if (memcmp(f + 48, WET_FOOT_MAGIC, 8))
		return werr(w, CITCAT_ERR_TRUNCATED, fo + 48, "no footer at the end (truncated or extended file)");
	if (cc_get32(f + 56) != XXH32(f, 56, 0))
		return werr(w, CITCAT_ERR_CHECKSUM, fo + 56, "footer checksum mismatch");
	if (cc_get32(f + 60))
		return werr(w, CITCAT_ERR_CORRUPT, fo + 60, "reserved footer bytes are not zero");
	uint64_t goff = cc_get64(f), glen = cc_get64(f + 8), ioff = cc_get64(f + 16), ilen = cc_get64(f + 24);
	if (goff < WET_HDR_LEN || goff > fo || glen > fo - goff || ioff != goff + glen || ilen != fo - ioff ||
	    glen > (256u << 20) || ilen > (256u << 20))
		return werr(w, CITCAT_ERR_CORRUPT, fo, "footer: section offsets are inconsistent with the file size");
	uint8_t *g = malloc(glen ? glen : 1), *x = malloc(ilen ? ilen : 1);
	struct wet_decoder *dec = NULL;
	rc = 0;
	if (!g || !x || wet_decoder_open(&dec))
		rc = werr(w, CITCAT_ERR_NOMEM, UINT64_MAX, "out of memory");
	if (!rc)
		rc = read_at(w, goff, g, glen);
	if (!rc && XXH64(g, glen, 0) != cc_get64(f + 32))
		rc = werr(w, CITCAT_ERR_CHECKSUM, goff, "graph section checksum mismatch");
	if (!rc)
		rc = read_at(w, ioff, x, ilen);
	if (!rc && XXH64(x, ilen, 0) != cc_get64(f + 40))
		rc = werr(w, CITCAT_ERR_CHECKSUM, ioff, "index checksum mismatch");
	if (!rc)
		rc = parse_graph(w, g, glen, goff, dec);
	if (!rc)
		rc = parse_index(w, x, ilen, ioff, goff);
	free(g);
	free(x);
	wet_decoder_close(dec);
	return rc;
}

int citcat_wet_open(struct citcat_wet **w, const char *path)
{
	return wet_open_file(w, path, NULL, 0);
}

int citcat_wet_open_mem(struct citcat_wet **w, const void *buf, size_t len)
{
	return wet_open_file(w, NULL, buf, len);
}

void citcat_wet_close(struct citcat_wet *w)
{
	if (!w)
		return;
	if (w->f)
		fclose(w->f);
	for (unsigned k = 0; k < CITCAT_WET_NSTREAMS; k++)
		wet_cursor_fini(&w->cur[k]);
	free(w->nodes);
	free(w->stmt);
	free(w->grp);
	free(w->uv);
	free(w->ukeys);
	free(w->tup);
	free(w->eprod);
	free(w->lprod);
	free(w->eref);
	for (unsigned a = 0; a < 2; a++) {
		free(w->acc[a].lk);
		free(w->acc[a].lv);
		free(w->acc[a].srt);
		free(w->acc[a].sval);
		free(w->acc[a].ht);
	}
	free(w->segs);
	free(w->buf);
	free(w);
}

void citcat_wet_info(const struct citcat_wet *w, struct citcat_wet_info *info)
{
	memset(info, 0, sizeof *info);
	info->insns = w->insns;
	info->node_execs = w->node_execs;
	info->irqs = w->irqs;
	info->nodes = w->nnodes;
	info->segments = w->nsegs;
	info->file_bytes = w->size;
	memcpy(info->stream, w->ssize, sizeof info->stream);
}

/* Loads stream K of segment S into its cursor, positioned at the end. */
static int open_stream(struct citcat_wet *w, const struct rseg *s, unsigned k)
{
	wet_cursor_fini(&w->cur[k]);
	uint8_t *b = load(w, s->off[k], s->len[k]);
	if (!b)
		return w->err.code;
	if (XXH64(b, s->len[k], 0) != s->hash[k])
		return werr(w, CITCAT_ERR_CHECKSUM, s->off[k], "stream block %s: checksum mismatch", citcat_wet_stream_name(k));
	const char *why;
	size_t at;
	int rc = wet_cursor_load(&w->cur[k], b, s->len[k], &why, &at);
	if (rc == -1)
		return werr(w, CITCAT_ERR_NOMEM, s->off[k], "out of memory");
	if (rc)
		return werr(w, CITCAT_ERR_CORRUPT, s->off[k] + at, "stream block %s: %s", citcat_wet_stream_name(k), why);
	if (w->cur[k].m != s->count[k])
		return werr(w, CITCAT_ERR_CORRUPT, s->off[k] + 4, "stream block %s: %u values, the index says %u",
			    citcat_wet_stream_name(k), w->cur[k].m, s->count[k]);
	return 0;
}

/* One value of stream K (key KEY) in the walk's direction. */
static int get(struct citcat_wet *w, const struct rseg *s, unsigned k, uint32_t key, int back, uint32_t *v)
{
	int rc = back ? wet_cursor_prev(&w->cur[k], key, v) : wet_cursor_next(&w->cur[k], key, v);
	if (rc == 1)
		return 0;
	return werr(w, CITCAT_ERR_CORRUPT, s->off[k], "stream block %s: %s", citcat_wet_stream_name(k),
		    rc ? "inconsistent codes" : "fewer values than the segment needs");
}

static unsigned stream_mask(int what)
{
	unsigned m = 1u << CITCAT_WET_S_NODE;
	if (what & CITCAT_WET_W_ACC)
		m |= 1u << CITCAT_WET_S_ACCN | 1u << CITCAT_WET_S_AKIND | 1u << CITCAT_WET_S_AADDR | 1u << CITCAT_WET_S_AVAL |
		     1u << CITCAT_WET_S_AVALHI | 1u << CITCAT_WET_S_APAT | 1u << CITCAT_WET_S_AVPAT;
	if (what & CITCAT_WET_W_DEP)
		m |= 1u << CITCAT_WET_S_COND | 1u << CITCAT_WET_S_DEPN | 1u << CITCAT_WET_S_DEP | 1u << CITCAT_WET_S_CDEP;
	if (what & CITCAT_WET_W_VAL) /* the unique values are decoded apart (load_values) */
		m |= 1u << CITCAT_WET_S_COND | 1u << CITCAT_WET_S_VPAT;
	return m;
}

static size_t key_slot(uint32_t key, size_t cap)
{
	return (size_t)(((uint64_t)key * 0x9E3779B97F4A7C15ull) >> 32) & (cap - 1); /* high bits: keys are PCs */
}

static struct rkey *acc_key(struct acct *t, uint32_t key)
{
	if (!t->ht_cap)
		return NULL;
	size_t h = key_slot(key, t->ht_cap);
	while (t->ht[h].total && t->ht[h].key != key)
		h = (h + 1) & (t->ht_cap - 1);
	return t->ht[h].total ? &t->ht[h] : NULL;
}

/* Version 5: one address (A 0) or access value (A 1) of key KEY in
 * direction BACK, from the plain stream or through the pattern stream
 * (WET.md, "Tier 1 for access addresses and values").  While collecting
 * (always backwards) a new value is taken from the unique stream and
 * noted, and *V is not known. */
static int acc_value(struct citcat_wet *w, const struct rseg *s, unsigned a, uint32_t key, int back, uint32_t *v)
{
	unsigned u = a ? CITCAT_WET_S_AVAL : CITCAT_WET_S_AADDR, q = a ? CITCAT_WET_S_AVPAT : CITCAT_WET_S_APAT;
	if (!s->count[q])
		return get(w, s, u, key, back, v);
	uint32_t p;
	int rc = get(w, s, q, key, back, &p);
	if (rc)
		return rc;
	struct acct *t = &w->acc[a];
	*v = 0;
	if (w->collect) {
		if (p)
			return 0;
		if ((rc = get(w, s, u, key, 1, v)))
			return rc;
		if (t->n == t->cap) {
			size_t nc = t->cap ? 2 * t->cap : 4096;
			uint32_t *x = realloc(t->lk, nc * sizeof *x), *y = x ? realloc(t->lv, nc * sizeof *y) : NULL;
			if (x)
				t->lk = x;
			if (!y)
				return werr(w, CITCAT_ERR_NOMEM, UINT64_MAX, "out of memory");
			t->lv = y;
			t->cap = nc;
		}
		t->lk[t->n] = key;
		t->lv[t->n++] = *v;
		return 0;
	}
	struct rkey *e = acc_key(t, key);
	uint32_t ord;
	if (!p) {
		if (!e || (back ? !e->cnt : e->cnt >= e->total))
			return werr(w, CITCAT_ERR_CORRUPT, s->off[q], "stream block %s: a new value of a static access the segment does not hold",
				    citcat_wet_stream_name(q));
		ord = back ? --e->cnt : e->cnt++;
	} else {
		ord = p - 1;
		if (!e || ord >= e->cnt)
			return werr(w, CITCAT_ERR_CORRUPT, s->off[q], "stream block %s: pattern %u names a value not yet stored",
				    citcat_wet_stream_name(q), p);
	}
	*v = t->sval[e->start + ord];
	return 0;
}

static int cmp_u64r(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, c = *(const uint64_t *)y;
	return a < c ? -1 : a > c;
}

/* Version 5: after the collecting pass, sorts the unique values of access
 * stream A by key and ordinal and sets each key's count for a walk in
 * direction BACK (all of them before the end, none before the start). */
static int acc_tables(struct citcat_wet *w, unsigned a, int back)
{
	struct acct *t = &w->acc[a];
	size_t n = t->n;
	if (n > t->srt_cap) {
		uint64_t *x = realloc(t->srt, n * sizeof *x);
		if (x)
			t->srt = x;
		uint32_t *y = x ? realloc(t->sval, n * sizeof *y) : NULL;
		if (!y)
			return werr(w, CITCAT_ERR_NOMEM, UINT64_MAX, "out of memory");
		t->sval = y;
		t->srt_cap = n;
	}
	size_t cap = 16;
	while (cap < 2 * (n + 1))
		cap *= 2;
	if (cap > t->ht_cap) {
		struct rkey *h = realloc(t->ht, cap * sizeof *h);
		if (!h)
			return werr(w, CITCAT_ERR_NOMEM, UINT64_MAX, "out of memory");
		t->ht = h;
		t->ht_cap = cap;
	}
	memset(t->ht, 0, t->ht_cap * sizeof *t->ht);
	/* collected backwards: position n - 1 - i is the i-th value in order */
	for (size_t i = 0; i < n; i++)
		t->srt[i] = (uint64_t)t->lk[i] << 32 | (uint32_t)(n - 1 - i);
	if (n > 1)
		qsort(t->srt, n, sizeof *t->srt, cmp_u64r);
	for (size_t i = 0; i < n; i++) {
		uint32_t key = (uint32_t)(t->srt[i] >> 32), pos = (uint32_t)t->srt[i];
		t->sval[i] = t->lv[n - 1 - pos];
		if (i && key == (uint32_t)(t->srt[i - 1] >> 32))
			continue;
		size_t h = key_slot(key, t->ht_cap);
		while (t->ht[h].total)
			h = (h + 1) & (t->ht_cap - 1);
		size_t j = i;
		while (j < n && (uint32_t)(t->srt[j] >> 32) == key)
			j++;
		t->ht[h] = (struct rkey){key, (uint32_t)i, (uint32_t)(j - i), back ? (uint32_t)(j - i) : 0};
	}
	return 0;
}

/* Reads the labels of instance IN (statement ST) in direction BACK. */
static int labels(struct citcat_wet *w, const struct rseg *s, const struct rstmt *st, unsigned mask, int back,
		  uint32_t cpsr_unknown)
{
	struct citcat_wet_insn *in = &w->in;
	uint32_t v;
	int rc;
	in->executed = 1;
	if (mask & (1u << CITCAT_WET_S_COND) && st->du.cond != 14 && st->du.cond != 15) {
		if ((rc = get(w, s, CITCAT_WET_S_COND, in->pc, back, &v)))
			return rc;
		if (v > 1)
			return werr(w, CITCAT_ERR_CORRUPT, s->off[CITCAT_WET_S_COND], "condition value %u is not 0 or 1", v);
		in->executed = (int)v;
	}
	in->n_acc = 0;
	if (mask & (1u << CITCAT_WET_S_ACCN)) {
		uint32_t n;
		if ((rc = get(w, s, CITCAT_WET_S_ACCN, in->pc, back, &n)))
			return rc;
		if (n > 64)
			return werr(w, CITCAT_ERR_CORRUPT, s->off[CITCAT_WET_S_ACCN], "%u accesses in one instruction", n);
		in->n_acc = n;
		for (uint32_t j = 0; j < n; j++) {
			uint32_t a = back ? n - 1 - j : j, kind, addr, lo, hi = 0, key = WET_KEY(in->pc, a);
			if ((rc = get(w, s, CITCAT_WET_S_AKIND, key, back, &kind)) || (rc = acc_value(w, s, 0, key, back, &addr)) ||
			    (rc = acc_value(w, s, 1, key, back, &lo)))
				return rc;
			unsigned size = kind & 0x7f;
			if ((kind & ~0xffu) || (size != 1 && size != 2 && size != 4 && size != 8))
				return werr(w, CITCAT_ERR_CORRUPT, s->off[CITCAT_WET_S_AKIND], "invalid access kind 0x%x", kind);
			if (size == 8 && (rc = get(w, s, CITCAT_WET_S_AVALHI, key, back, &hi)))
				return rc;
			in->acc[a].addr = addr;
			in->acc[a].size = (uint8_t)size;
			in->acc[a].write = (uint8_t)(kind >> 7);
			in->acc[a].value = lo | (uint64_t)hi << 32;
		}
	}
	in->n_dep = 0;
	if (mask & (1u << CITCAT_WET_S_DEPN)) {
		/* the stored producers, resolved from the shared labels by
		 * node_deps() */
		uint32_t n = w->enum_[w->cur_k];
		const uint64_t *ep = n ? w->eprod + w->efirst[w->cur_k] : NULL;
		for (uint32_t o = 0; o < n; o++) {
			if (ep[o] >= in->index || (o && ep[o] >= ep[o - 1]))
				return werr(w, CITCAT_ERR_CORRUPT, s->off[CITCAT_WET_S_DEP],
					    "producers of instruction %llu are not before it, distinct and nearest first",
					    (unsigned long long)in->index);
			in->dep[o] = ep[o];
		}
		in->n_dep = n;
		/* plus the local edges the node implies, nearest first */
		const uint16_t *loc = in->executed ? st->loc : &st->loc_failed;
		unsigned nloc = in->executed ? st->nloc : st->nloc_failed;
		for (unsigned q = 0; q < nloc; q++) {
			uint64_t p = in->index - loc[q]; /* loc[q] <= the statement's position <= index */
			unsigned at = 0;
			while (at < in->n_dep && in->dep[at] > p)
				at++;
			if (at < in->n_dep && in->dep[at] == p)
				return werr(w, CITCAT_ERR_CORRUPT, s->off[CITCAT_WET_S_DEP],
					    "stored producer %llu of instruction %llu is a local edge", (unsigned long long)p,
					    (unsigned long long)in->index);
			if (in->n_dep == 256)
				return werr(w, CITCAT_ERR_CORRUPT, s->off[CITCAT_WET_S_DEPN], "more than 256 producers of one instruction");
			memmove(in->dep + at + 1, in->dep + at, (in->n_dep - at) * sizeof in->dep[0]);
			in->dep[at] = p;
			in->n_dep++;
		}
		/* the control parent, after the producers */
		if ((rc = get(w, s, CITCAT_WET_S_CDEP, in->pc, back, &v)))
			return rc;
		if (v > in->index || (v && in->index - v < s->reach))
			return werr(w, CITCAT_ERR_CORRUPT, s->off[CITCAT_WET_S_CDEP], "control parent distance %u at instruction %llu",
				    v, (unsigned long long)in->index);
		in->has_ctrl = v != 0;
		in->ctrl = in->index - v;
	} else {
		in->has_ctrl = 0;
		in->ctrl = 0;
	}
	in->n_val = 0;
	if (mask & (1u << CITCAT_WET_S_VPAT) && !w->collect && in->executed && st->grp != WET_GROUP_NONE) {
		/* from the node execution's tuple (node_patterns checked it fits) */
		in->n_val = st->du.ndef;
		memcpy(in->val, w->uv + w->tup[w->pat[st->grp]].off + st->slot, st->du.ndef * sizeof in->val[0]);
	}
	(void)cpsr_unknown;
	return 0;
}

#define WALK_SKIP 0x7fffffff

/* Version 4: the stored producers of a node execution of ND whose first
 * instance is FIRST, in direction BACK (WET.md, "Shared labels"): every
 * instance's depn and dep values, then each edge's producer, resolved in
 * execution order. */
static int node_deps(struct citcat_wet *w, const struct rseg *s, const struct rnode *nd, uint64_t first, int back)
{
	const struct rstmt *st = &w->stmt[nd->first];
	uint32_t ne = 0, n;
	int rc;
	/* the counts and values, in the walk's direction */
	for (uint32_t j = 0; j < nd->n; j++) {
		uint32_t k = back ? nd->n - 1 - j : j;
		if ((rc = get(w, s, CITCAT_WET_S_DEPN, st[k].pc, back, &n)))
			return rc;
		if (n > 255)
			return werr(w, CITCAT_ERR_CORRUPT, s->off[CITCAT_WET_S_DEPN], "%u stored producers of one instruction", n);
		w->enum_[k] = n;
		ne += n;
	}
	if (ne > w->e_cap) { /* at most 1024 x 255 */
		size_t nc = (ne + 4095u) & ~(size_t)4095;
		uint64_t *a = realloc(w->eprod, nc * sizeof *a), *b = a ? realloc(w->lprod, nc * sizeof *b) : NULL;
		if (a)
			w->eprod = a;
		if (b)
			w->lprod = b;
		uint32_t *c = b ? realloc(w->eref, nc * sizeof *c) : NULL;
		if (!c)
			return werr(w, CITCAT_ERR_NOMEM, UINT64_MAX, "out of memory");
		w->eref = c;
		w->e_cap = nc;
	}
	for (uint32_t k = 0, e = 0; k < nd->n; k++) {
		w->efirst[k] = e;
		e += w->enum_[k];
	}
	for (uint32_t j = 0; j < nd->n; j++) {
		uint32_t k = back ? nd->n - 1 - j : j;
		for (uint32_t i = 0; i < w->enum_[k]; i++) {
			uint32_t o = back ? w->enum_[k] - 1 - i : i;
			if ((rc = get(w, s, CITCAT_WET_S_DEP, WET_KEY(st[k].pc, o), back, &w->eref[w->efirst[k] + o])))
				return rc;
		}
	}
	/* each edge's producer, in execution order: an even value is a new
	 * label (2 x distance), an odd one names an earlier label */
	uint32_t nl = 0;
	for (uint32_t k = 0, e = 0; k < nd->n; k++)
		for (uint32_t o = 0; o < w->enum_[k]; o++, e++) {
			uint32_t v = w->eref[e];
			if (!(v & 1)) {
				uint32_t d = v / 2;
				if (!d || d > first + k - s->reach)
					return werr(w, CITCAT_ERR_CORRUPT, s->off[CITCAT_WET_S_DEP],
						    "label distance %u at instruction %llu (zero, or before the segment's reach)", d,
						    (unsigned long long)(first + k));
				w->eprod[e] = w->lprod[nl++] = first + k - d;
			} else if (v / 2 >= nl) {
				return werr(w, CITCAT_ERR_CORRUPT, s->off[CITCAT_WET_S_DEP],
					    "a producer of instruction %llu names label %u of %u created so far",
					    (unsigned long long)(first + k), v / 2 + 1, nl);
			} else {
				w->eprod[e] = w->lprod[v / 2];
			}
		}
	return 0;
}

/* Tier 1: the pattern values of a node execution (node ID) in direction
 * BACK.  While collecting, notes the tuples it creates; otherwise resolves
 * each group's tuple into w->pat. */
static int node_patterns(struct citcat_wet *w, const struct rseg *s, uint32_t id, int back)
{
	const struct rnode *nd = &w->nodes[id];
	for (uint32_t j = 0; j < nd->ngroups; j++) {
		uint32_t g = back ? nd->ngroups - 1 - j : j, v;
		const struct rgrp *G = &w->grp[nd->gfirst + g];
		int rc = get(w, s, CITCAT_WET_S_VPAT, G->key, back, &v);
		if (rc)
			return rc;
		if (w->collect) {
			if (v)
				continue;
			if (cc_grow(&w->tup, &w->tup_cap, w->ntup + 1, sizeof *w->tup, 1024, SIZE_MAX))
				return werr(w, CITCAT_ERR_NOMEM, UINT64_MAX, "out of memory");
			w->tup[w->ntup++] = (struct rtup){id, g, 0};
			continue;
		}
		uint64_t ord;
		if (!v) {
			ord = back ? --w->tcnt : w->tcnt++;
		} else {
			ord = v - 1;
			if (ord >= w->tcnt)
				return werr(w, CITCAT_ERR_CORRUPT, s->off[CITCAT_WET_S_VPAT],
					    "value pattern %u names a tuple not yet stored (%llu so far)", v, (unsigned long long)w->tcnt);
		}
		if (ord >= w->ntup || w->tup[ord].node != id || w->tup[ord].g != g)
			return werr(w, CITCAT_ERR_CORRUPT, s->off[CITCAT_WET_S_VPAT], "value pattern %u names a tuple of another group", v);
		w->pat[g] = (uint32_t)ord;
	}
	return 0;
}

/* One pass over segment SI's open cursors in direction BACK, calling the
 * walk's callback when CALL is set. */
static int segment_pass(struct citcat_wet *w, const struct citcat_wet_walk *wk, uint32_t si, unsigned mask, int back,
			int call)
{
	const struct rseg *s = &w->segs[si];
	int rc;
	struct citcat_wet_insn *in = &w->in;
	uint64_t idx = back ? s->first_insn + s->n_insns : s->first_insn; /* next (fwd) or one past (back) */
	uint64_t ts = back ? s->first_ts + s->n_nodes - 1 : s->first_ts;
	for (uint32_t e = 0; e < s->n_nodes; e++, ts += back ? (uint64_t)-1 : 1) {
		uint32_t id;
		if ((rc = get(w, s, CITCAT_WET_S_NODE, 0, back, &id)))
			return rc;
		if (id >= w->nnodes)
			return werr(w, CITCAT_ERR_CORRUPT, s->off[CITCAT_WET_S_NODE], "node id %u of %u", id, w->nnodes);
		const struct rnode *nd = &w->nodes[id];
		if ((back ? idx - s->first_insn : s->first_insn + s->n_insns - idx) < nd->n)
			return werr(w, CITCAT_ERR_CORRUPT, s->off[CITCAT_WET_S_NODE], "nodes hold more instructions than the segment");
		if (mask & (1u << CITCAT_WET_S_VPAT) && (rc = node_patterns(w, s, id, back)))
			return rc;
		if (mask & (1u << CITCAT_WET_S_DEPN) && (rc = node_deps(w, s, nd, back ? idx - nd->n : idx, back)))
			return rc;
		for (uint32_t j = 0; j < nd->n; j++) {
			uint32_t k = back ? nd->n - 1 - j : j;
			in->index = back ? --idx : idx++;
			in->ts = ts;
			in->pc = w->stmt[nd->first + k].pc;
			w->cur_k = k;
			in->word = w->stmt[nd->first + k].word;
			in->size = (uint8_t)wet_isa_size(w->stmt[nd->first + k].isa);
			in->thumb = w->stmt[nd->first + k].isa != WET_ISA_A32;
			in->itstate = w->stmt[nd->first + k].it;
			if ((rc = labels(w, s, &w->stmt[nd->first + k], mask, back, 0)))
				return rc;
			int inr = call && (wk->by_index ? in->index >= wk->from && in->index <= wk->to : ts >= wk->from && ts <= wk->to);
			if (inr && (rc = wk->cb(wk->ctx, in)))
				return rc;
		}
	}
	if (idx != (back ? s->first_insn : s->first_insn + s->n_insns))
		return werr(w, CITCAT_ERR_CORRUPT, s->off[CITCAT_WET_S_NODE], "nodes hold fewer instructions than the segment");
	for (unsigned k = 0; k < CITCAT_WET_NSTREAMS; k++)
		if (mask & (1u << k) && w->cur[k].p != (back ? 0 : (int64_t)w->cur[k].m))
			return werr(w, CITCAT_ERR_CORRUPT, s->off[k], "stream block %s holds more values than the segment uses",
				    citcat_wet_stream_name(k));
	return 0;
}

/* Tier 1: after the collecting pass, places the segment's tuples (found
 * in backward order) in the unique-value stream and decodes it whole. */
static int load_values(struct citcat_wet *w, const struct rseg *s)
{
	for (size_t i = 0, j = w->ntup ? w->ntup - 1 : 0; i < j; i++, j--) {
		struct rtup t = w->tup[i];
		w->tup[i] = w->tup[j];
		w->tup[j] = t;
	}
	uint64_t m = 0;
	for (size_t i = 0; i < w->ntup; i++) {
		w->tup[i].off = (uint32_t)m;
		m += w->grp[w->nodes[w->tup[i].node].gfirst + w->tup[i].g].width;
		if (m > WET_BLOCK_MAX)
			break;
	}
	if (m != s->count[CITCAT_WET_S_UVAL])
		return werr(w, CITCAT_ERR_CORRUPT, s->off[CITCAT_WET_S_UVAL],
			    "stream block uval: the patterns need %llu values, it holds %u", (unsigned long long)m,
			    s->count[CITCAT_WET_S_UVAL]);
	if (m > w->uv_cap || m > w->ukeys_cap) {
		uint32_t *a = realloc(w->uv, (m ? m : 1) * sizeof *a);
		if (a)
			w->uv = a;
		uint32_t *b = realloc(w->ukeys, (m ? m : 1) * sizeof *b);
		if (b)
			w->ukeys = b;
		if (!a || !b)
			return werr(w, CITCAT_ERR_NOMEM, UINT64_MAX, "out of memory");
		w->uv_cap = w->ukeys_cap = m;
	}
	size_t at = 0;
	for (size_t i = 0; i < w->ntup; i++) {
		const struct rnode *nd = &w->nodes[w->tup[i].node];
		for (uint32_t k = 0; k < nd->n; k++) {
			const struct rstmt *st = &w->stmt[nd->first + k];
			if (st->grp == w->tup[i].g)
				for (unsigned j = 0; j < st->du.ndef; j++)
					w->ukeys[at + st->slot + j] = WET_KEY(st->pc, j);
		}
		at += w->grp[nd->gfirst + w->tup[i].g].width;
	}
	int rc = open_stream(w, s, CITCAT_WET_S_UVAL);
	if (rc)
		return rc;
	struct wet_cursor *c = &w->cur[CITCAT_WET_S_UVAL];
	if (wet_cursor_rewind(c, w->ukeys))
		return werr(w, CITCAT_ERR_CORRUPT, s->off[CITCAT_WET_S_UVAL], "stream block uval: inconsistent codes");
	for (uint64_t i = 0; i < m; i++)
		if ((rc = get(w, s, CITCAT_WET_S_UVAL, w->ukeys[i], 0, &w->uv[i])))
			return rc;
	return 0;
}

/* Blocks are stored at their end: a forward walk first walks the segment
 * back to its start (keyed codes need the statements in lockstep). */
static int walk_segment(struct citcat_wet *w, const struct citcat_wet_walk *wk, uint32_t si)
{
	const struct rseg *s = &w->segs[si];
	unsigned mask = stream_mask(wk->what);
	int rc;
	for (unsigned k = 0; k < CITCAT_WET_NSTREAMS; k++)
		if (mask & (1u << k) && (rc = open_stream(w, s, k)))
			return rc;
	/* version 5: tier-1 access streams of this segment */
	unsigned acc_mask = stream_mask(CITCAT_WET_W_ACC) & ~(1u << CITCAT_WET_S_NODE);
	int ta = mask & (1u << CITCAT_WET_S_APAT) && s->count[CITCAT_WET_S_APAT],
	    tv = mask & (1u << CITCAT_WET_S_AVPAT) && s->count[CITCAT_WET_S_AVPAT], tr = (mask >> CITCAT_WET_S_VPAT) & 1;
	if (!ta && !tv && !tr) {
		if (!wk->backward && (rc = segment_pass(w, wk, si, mask, 1, 0)))
			return rc;
		return segment_pass(w, wk, si, mask, wk->backward, 1);
	}
	/* tier 1: a backward pass collects the segment's tuples and new access
	 * values (a forward walk makes it over every stream, which also
	 * rewinds them; a backward one over the nodes, the patterns and the
	 * access streams, which are then loaded again at their end), then the
	 * unique values are decoded and sorted.  The unique access streams
	 * are not walked again. */
	unsigned np = 1u << CITCAT_WET_S_NODE | (tr ? 1u << CITCAT_WET_S_VPAT : 0) | (ta || tv ? acc_mask : 0);
	w->collect = 1;
	w->ntup = 0;
	w->acc[0].n = w->acc[1].n = 0;
	rc = segment_pass(w, wk, si, wk->backward ? np : mask, 1, 0);
	w->collect = 0;
	if (rc || (tr && (rc = load_values(w, s))) || (ta && (rc = acc_tables(w, 0, wk->backward))) ||
	    (tv && (rc = acc_tables(w, 1, wk->backward))))
		return rc;
	unsigned real = mask & ~(ta ? 1u << CITCAT_WET_S_AADDR : 0) & ~(tv ? 1u << CITCAT_WET_S_AVAL : 0);
	w->tcnt = 0;
	if (wk->backward) {
		w->tcnt = w->ntup;
		for (unsigned k = 0; k < CITCAT_WET_NSTREAMS; k++)
			if (np & real & (1u << k) && (rc = open_stream(w, s, k)))
				return rc;
	}
	return segment_pass(w, wk, si, real, wk->backward, 1);
}

int citcat_wet_walk(struct citcat_wet *w, const struct citcat_wet_walk *wk)
{
	uint32_t n = w->nsegs;
	for (uint32_t j = 0; j < n; j++) {
		uint32_t si = wk->backward ? n - 1 - j : j;
		const struct rseg *s = &w->segs[si];
		uint64_t lo = wk->by_index ? s->first_insn : s->first_ts;
		uint64_t cnt = wk->by_index ? s->n_insns : s->n_nodes;
		if (!cnt || lo > wk->to || lo + cnt - 1 < wk->from)
			continue;
		if (wk->progress && wk->progress(wk->progress_ctx, j, n))
			return werr(w, CITCAT_ERR_INTERRUPTED, UINT64_MAX, "interrupted");
		int rc = walk_segment(w, wk, si);
		if (rc)
			return rc;
	}
	return 0;
}

/* ---- slices ---- */

struct set64 { /* open addressing; keys are INDEX + 1; 0 empty, ~0 removed */
	uint64_t *k;
	size_t cap, n, used;
};

static int set_grow(struct set64 *s)
{
	/* rehash at the same size when removed slots fill it: growing on
	 * tombstones would double the table for ever on a long slice */
	size_t nc = s->cap ? s->cap : 1024;
	while ((s->n + 1) * 4 >= nc)
		nc *= 2;
	uint64_t *k = calloc(nc, sizeof *k);
	if (!k)
		return -1;
	for (size_t i = 0; i < s->cap; i++)
		if (s->k[i] && s->k[i] != ~0ull) {
			size_t h = (size_t)(s->k[i] * 0x9E3779B97F4A7C15ull >> 20) & (nc - 1);
			while (k[h])
				h = (h + 1) & (nc - 1);
			k[h] = s->k[i];
		}
	free(s->k);
	s->k = k;
	s->cap = nc;
	s->used = s->n;
	return 0;
}

static size_t set_find(const struct set64 *s, uint64_t key)
{
	size_t h = (size_t)(key * 0x9E3779B97F4A7C15ull >> 20) & (s->cap - 1);
	while (s->k[h] && s->k[h] != key)
		h = (h + 1) & (s->cap - 1);
	return h;
}

static int set_has(const struct set64 *s, uint64_t idx)
{
	return s->cap && s->k[set_find(s, idx + 1)] == idx + 1;
}

static int set_add(struct set64 *s, uint64_t idx)
{
	if ((s->used + 1) * 2 >= s->cap && set_grow(s))
		return -1;
	size_t h = (size_t)((idx + 1) * 0x9E3779B97F4A7C15ull >> 20) & (s->cap - 1), tomb = SIZE_MAX;
	while (s->k[h] && s->k[h] != idx + 1) {
		if (s->k[h] == ~0ull && tomb == SIZE_MAX)
			tomb = h;
		h = (h + 1) & (s->cap - 1);
	}
	if (s->k[h] == idx + 1)
		return 0;
	if (tomb != SIZE_MAX)
		h = tomb;
	else
		s->used++;
	s->k[h] = idx + 1;
	s->n++;
	return 0;
}

static void set_del(struct set64 *s, uint64_t idx)
{
	if (!s->cap)
		return;
	size_t h = set_find(s, idx + 1);
	if (s->k[h] == idx + 1) {
		s->k[h] = ~0ull;
		s->n--;
	}
}

/* Forward slices: one bit per instance from the start on, in pages of
 * 2^16 instances allocated as members appear and freed once no later
 * segment reaches back into them (WET.md, "Queries"). */
struct bitpages {
	uint64_t base;
	uint64_t **pg;
	size_t npg;
};

static int bp_has(const struct bitpages *b, uint64_t idx)
{
	if (idx < b->base)
		return 0;
	uint64_t o = idx - b->base;
	size_t pgi = (size_t)(o >> 16);
	return pgi < b->npg && b->pg[pgi] && (b->pg[pgi][(o >> 6) & 1023] >> (o & 63)) & 1;
}

static int bp_add(struct bitpages *b, uint64_t idx)
{
	uint64_t o = idx - b->base;
	size_t pgi = (size_t)(o >> 16);
	if (!b->pg[pgi] && !(b->pg[pgi] = calloc(1024, sizeof(uint64_t))))
		return -1;
	b->pg[pgi][(o >> 6) & 1023] |= 1ull << (o & 63);
	return 0;
}

struct slice_ctx {
	struct set64 set;
	struct bitpages fw;
	uint64_t start, last; /* last: the latest member */
	int forward;
	int (*cb)(void *ctx, const struct citcat_wet_insn *in);
	void *ctx;
	int nomem;
};

static int slice_cb(void *ctx, const struct citcat_wet_insn *in)
{
	struct slice_ctx *c = ctx;
	int member;
	if (c->forward) {
		member = in->index == c->start || (in->has_ctrl && bp_has(&c->fw, in->ctrl));
		for (uint32_t i = 0; i < in->n_dep && !member; i++)
			member = bp_has(&c->fw, in->dep[i]);
		if (!member)
			return 0;
		if (bp_add(&c->fw, in->index))
			return c->nomem = 1, CITCAT_ERR_NOMEM;
		c->last = in->index;
	} else {
		member = in->index == c->start || set_has(&c->set, in->index);
		if (!member)
			return 0;
		set_del(&c->set, in->index);
		for (uint32_t i = 0; i < in->n_dep; i++)
			if (set_add(&c->set, in->dep[i]))
				return c->nomem = 1, CITCAT_ERR_NOMEM;
		if (in->has_ctrl && set_add(&c->set, in->ctrl))
			return c->nomem = 1, CITCAT_ERR_NOMEM;
	}
	int rc = c->cb(c->ctx, in);
	if (rc)
		return rc;
	if (!c->forward && !c->set.n)
		return WALK_SKIP; /* nothing more is wanted */
	return 0;
}

int citcat_wet_slice(struct citcat_wet *w, uint64_t index, int forward,
		     int (*cb)(void *ctx, const struct citcat_wet_insn *in), void *ctx,
		     int (*progress)(void *ctx, uint64_t done, uint64_t total), void *progress_ctx)
{
	if (index >= w->insns)
		return werr(w, CITCAT_ERR_INVAL, UINT64_MAX, "instruction %llu is past the end of the run (%llu instructions)",
			    (unsigned long long)index, (unsigned long long)w->insns);
	struct slice_ctx c = {.start = index, .forward = forward, .cb = cb, .ctx = ctx};
	int rc = 0;
	if (forward) {
		c.fw.base = index;
		c.fw.npg = (size_t)((w->insns - index) >> 16) + 1;
		c.last = index;
		uint64_t *reach = malloc((w->nsegs + 1) * sizeof *reach);
		if (!reach || !(c.fw.pg = calloc(c.fw.npg, sizeof *c.fw.pg))) {
			free(reach);
			return werr(w, CITCAT_ERR_NOMEM, UINT64_MAX, "out of memory");
		}
		/* reach[j]: no instance of segment j or later names an instance
		 * below it, so member bits below it are never asked for again */
		reach[w->nsegs] = UINT64_MAX;
		for (uint32_t j = w->nsegs; j-- > 0;)
			reach[j] = w->segs[j].reach < reach[j + 1] ? w->segs[j].reach : reach[j + 1];
		struct citcat_wet_walk wk = {.backward = 0, .by_index = 1, .what = CITCAT_WET_W_DEP, .from = index,
					     .to = UINT64_MAX, .cb = slice_cb, .ctx = &c};
		size_t freed = 0; /* pages below this one are freed */
		for (uint32_t j = 0; j < w->nsegs && !rc; j++) {
			const struct rseg *s = &w->segs[j];
			if (!s->n_insns || s->first_insn + s->n_insns - 1 < index)
				continue;
			if (c.last < reach[j])
				break; /* no later instance can name a member: the slice is complete */
			for (; freed < c.fw.npg && index + ((uint64_t)freed + 1) * 65536 <= reach[j]; freed++) {
				free(c.fw.pg[freed]);
				c.fw.pg[freed] = NULL;
			}
			if (progress && progress(progress_ctx, j, w->nsegs)) {
				rc = werr(w, CITCAT_ERR_INTERRUPTED, UINT64_MAX, "interrupted");
				break;
			}
			rc = walk_segment(w, &wk, j);
		}
		free(reach);
	} else {
		/* segment by segment downwards, skipping segments nothing wanted lies in */
		struct citcat_wet_walk wk = {.backward = 1, .by_index = 1, .what = CITCAT_WET_W_DEP, .from = 0,
					     .to = index, .cb = slice_cb, .ctx = &c};
		for (uint32_t j = w->nsegs; j-- > 0 && !rc;) {
			const struct rseg *s = &w->segs[j];
			if (s->first_insn > index || !s->n_insns)
				continue;
			if (s->first_insn + s->n_insns - 1 < index) {
				uint64_t max = 0;
				int any = 0;
				for (size_t i = 0; i < c.set.cap; i++)
					if (c.set.k[i] && c.set.k[i] != ~0ull && c.set.k[i] - 1 >= max)
						max = c.set.k[i] - 1, any = 1;
				if (!any)
					break;
				if (max < s->first_insn)
					continue;
			}
			if (progress && progress(progress_ctx, w->nsegs - j, w->nsegs)) {
				rc = werr(w, CITCAT_ERR_INTERRUPTED, UINT64_MAX, "interrupted");
				break;
			}
			rc = walk_segment(w, &wk, j);
		}
		if (rc == WALK_SKIP)
			rc = 0;
	}
	if (c.nomem)
		rc = werr(w, CITCAT_ERR_NOMEM, UINT64_MAX, "out of memory");
	free(c.set.k);
	for (size_t i = 0; i < c.fw.npg; i++)
		free(c.fw.pg[i]);
	free(c.fw.pg);
	return rc;
}
