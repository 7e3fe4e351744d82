/* First-access flags (figure 2 of the data-trace-filtering paper) against
 * hand-worked access sequences, and the LVT bit stream against hand-encoded
 * bytes (formats/LVT.md). */
#include "cache.h"
#include "check.h"
#include "container.h"
#include "fa.h"
#include "lvt.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* What the trace module does for one access (capture/lvt_tm.c): the cache
 * access of every line it touches (as machine/bus.c), then the FA rule.
 * Returns 1 for an FA hit ('1' on the trace), 0 for a traced value. */
static int access_fa(struct cache *c, uint32_t addr, unsigned size, int write)
{
	int wt = c->cfg.write_through;
	for (uint32_t ln = addr >> c->line_shift; ln <= (addr + size - 1) >> c->line_shift; ln++) {
		struct cache_res r;
		cache_access(c, ln, write, !(write && wt), write && !wt, &r);
	}
	if (write) {
		fa_mark(c, addr, size);
		return -1;
	}
	if (fa_load_hit(c, addr, size))
		return 1;
	fa_mark(c, addr, size);
	return 0;
}
#define LOAD(a, n) access_fa(&c, a, n, 0)
#define STORE(a, n) access_fa(&c, a, n, 1)

static void fa_rules(void)
{
	/* 2 sets x 2 ways of 32-byte lines, LRU: lines 0x100, 0x140, 0x180 share set 0 */
	struct citcat_cache_config cfg = {128, 2, 32, CITCAT_REPL_LRU, 0, 1};
	struct cache c;
	CHECK_EQ(cache_init(&c, &cfg), 0);
	CHECK_EQ(cache_fa_enable(&c, 1), CITCAT_ERR_INVAL);
	CHECK_EQ(cache_fa_enable(&c, 0), 0);
	CHECK_EQ(LOAD(0x100, 4), 0); /* miss: traced, flags of 0x100..0x103 set */
	CHECK_EQ(LOAD(0x100, 4), 1); /* FA hit */
	CHECK_EQ(LOAD(0x102, 2), 1); /* inside the flagged bytes */
	CHECK_EQ(LOAD(0x104, 4), 0); /* cache hit, flags clear: traced (figure 2, lines 5-8) */
	CHECK_EQ(LOAD(0x104, 1), 1);
	CHECK_EQ(LOAD(0x103, 2), 1); /* 0x103 and 0x104, both flagged */
	CHECK_EQ(LOAD(0x107, 2), 0); /* 0x108 not flagged yet: traced, 0x107..0x108 flagged */
	STORE(0x109, 1);             /* stores set flags (figure 2, store part) */
	STORE(0x10a, 2);
	CHECK_EQ(LOAD(0x108, 4), 1); /* 0x108 by the load, 0x109..0x10b by the stores */
	CHECK_EQ(LOAD(0x10b, 2), 0); /* 0x10c never flagged */
	/* a miss clears the flags of the newly filled line: evict 0x100 (LRU) */
	CHECK_EQ(LOAD(0x140, 4), 0);
	CHECK_EQ(LOAD(0x180, 4), 0); /* evicts 0x100, the least recently used */
	CHECK_EQ(cache_slot(&c, 0x100 >> 5), -1);
	CHECK_EQ(LOAD(0x100, 4), 0); /* refilled: flags cleared, traced again */
	CHECK_EQ(LOAD(0x100, 4), 1);
	/* external invalidation clears the whole line's flags */
	long s = cache_slot(&c, 0x180 >> 5);
	CHECK(s >= 0 && c.fa[s * c.fa_words] == 0xf);
	CHECK_EQ(cache_invalidate_line(&c, 0x180 >> 5), 0);
	CHECK_EQ(c.fa[s * c.fa_words], 0);
	CHECK_EQ(LOAD(0x180, 4), 0);
	CHECK_EQ(LOAD(0x180, 4), 1);
	cache_invalidate_all(&c); /* cache maintenance: INV_D */
	for (size_t i = 0; i < (size_t)c.nsets * c.ways * c.fa_words; i++)
		CHECK_EQ(c.fa[i], 0);
	CHECK_EQ(LOAD(0x180, 4), 0);
	/* an access across two lines checks and sets both */
	CHECK_EQ(LOAD(0x11e, 4), 0); /* 0x11e..0x121: lines 0x100 and 0x120 both miss */
	CHECK_EQ(LOAD(0x11e, 4), 1);
	CHECK_EQ(LOAD(0x11f, 2), 1);
	CHECK_EQ(LOAD(0x11c, 4), 0); /* 0x11c, 0x11d clear */
	cache_fini(&c);

	/* word granules: only a whole word sets its flag */
	struct citcat_cache_config w = {128, 2, 32, CITCAT_REPL_LRU, 0, 1};
	CHECK_EQ(cache_init(&c, &w), 0);
	CHECK_EQ(cache_fa_enable(&c, 2), 0);
	CHECK_EQ(LOAD(0x200, 1), 0);
	CHECK_EQ(LOAD(0x200, 1), 0); /* a byte load never sets a word flag */
	CHECK_EQ(LOAD(0x200, 4), 0);
	CHECK_EQ(LOAD(0x201, 1), 1);
	CHECK_EQ(LOAD(0x202, 2), 1);
	STORE(0x204, 1); /* a byte store to an unflagged word sets nothing */
	CHECK_EQ(LOAD(0x204, 1), 0);
	STORE(0x208, 4);
	CHECK_EQ(LOAD(0x20a, 2), 1);
	STORE(0x209, 1); /* a byte store to a flagged word keeps it flagged */
	CHECK_EQ(LOAD(0x208, 4), 1);
	CHECK_EQ(LOAD(0x20e, 4), 0); /* touches words 0x20c and 0x210, neither flagged */
	CHECK_EQ(LOAD(0x20e, 4), 0); /* and covers neither whole */
	STORE(0x20c, 8);             /* STRD-sized: two words */
	CHECK_EQ(LOAD(0x20e, 4), 1);
	cache_fini(&c);

	/* write-through without write-allocate: a store that misses sets nothing */
	struct citcat_cache_config t = {128, 2, 32, CITCAT_REPL_LRU, 1, 1};
	CHECK_EQ(cache_init(&c, &t), 0);
	CHECK_EQ(cache_fa_enable(&c, 0), 0);
	STORE(0x300, 4);
	CHECK_EQ(cache_slot(&c, 0x300 >> 5), -1);
	CHECK_EQ(LOAD(0x300, 4), 0);
	STORE(0x304, 4); /* a store hit sets flags */
	CHECK_EQ(LOAD(0x304, 4), 1);
	cache_fini(&c);
}

/* The first chunk's payload of the LVT at PATH, and its record count. */
static size_t first_chunk(const char *path, uint8_t *out, size_t max, uint32_t *nrec, int which)
{
	struct cc_reader *r;
	size_t n = 0;
	if (cc_reader_open(&r, path, "CLVT\r\n\x1a\n", CITCAT_LVT_VERSION) == 0) {
		const uint8_t *d;
		for (int i = 0; i <= which; i++)
			if (cc_reader_next_chunk(r, &d, &n, nrec) != 1)
				n = 0;
		if (n <= max)
			memcpy(out, d, n);
	}
	cc_reader_close(r);
	return n;
}

static void format(void)
{
	char path[] = "/tmp/test_lvt_XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	close(fd);
	struct citcat_target_config cfg;
	citcat_target_config_default(&cfg);
	struct citcat_lvt_writer *w;
	CHECK_EQ(citcat_lvt_writer_open(&w, path, &cfg, 1), CITCAT_ERR_INVAL);
	CHECK_EQ(citcat_lvt_writer_open(&w, path, &cfg, 0), 0);
	struct citcat_lvt_rec start = {.kind = CITCAT_LVT_START};
	CHECK_EQ(citcat_lvt_put_event(w, &start), 0);
	CHECK_EQ(citcat_lvt_put_hit(w), 0);
	CHECK_EQ(citcat_lvt_put_value(w, 0xAB, 1), 0);
	CHECK_EQ(citcat_lvt_put_hit(w), 0);
	struct citcat_lvt_rec irq = {.kind = CITCAT_LVT_IRQ, .line = 3, .bcount = 5, .pc = 0x18};
	CHECK_EQ(citcat_lvt_put_event(w, &irq), 0);
	CHECK_EQ(citcat_lvt_put_value(w, 0x1122334455667788ull, 8), 0);
	struct citcat_lvt_rec stop = {.kind = CITCAT_LVT_STOP, .line = CITCAT_STOP_EXIT, .st = {.insns = 9, .bcount = 5, .loads = 3, .hits = 2}};
	CHECK_EQ(citcat_lvt_put_event(w, &stop), 0);
	CHECK_EQ(citcat_lvt_writer_close(w), 0);
	/* nothing after STOP; a writer error is kept and the file dropped */
	struct citcat_lvt_writer *w2;
	char path2[] = "/tmp/test_lvt_XXXXXX";
	close(mkstemp(path2));
	remove(path2);
	CHECK_EQ(citcat_lvt_writer_open(&w2, path2, &cfg, 2), 0);
	CHECK_EQ(citcat_lvt_put_event(w2, &start), 0);
	CHECK_EQ(citcat_lvt_put_event(w2, &stop), 0);
	CHECK_EQ(citcat_lvt_put_hit(w2), CITCAT_ERR_INVAL);
	CHECK_EQ(citcat_lvt_put_value(w2, 1, 9), CITCAT_ERR_INVAL);
	CHECK_EQ(citcat_lvt_writer_close(w2), CITCAT_ERR_INVAL);
	CHECK(access(path2, F_OK) != 0);

	/* Hand-encoded (LSB first): START = 00 + type 2 (0100) + 1376 zero bits (39 registers, SCTLR, the code hash and the D-cache state),
	 * so byte 0 = 0x08 and bytes 1..171 zero; bit 1382 HIT (byte 172 =
	 * 0x40); bits 1383-1384 '01' and 0xAB from bit 1385 (byte 173 = 0x57,
	 * byte 174 bit 0 = 1), HIT at bit 1393 (byte 174 = 0x03); IRQ from bit
	 * 1394: 00, type 0000, line 3 (1100), bcount 5, pc zz(0x18) = 0x30. */
	uint8_t buf[256];
	uint32_t nrec = 0;
	size_t n = first_chunk(path, buf, sizeof buf, &nrec, 0);
	CHECK_EQ(nrec, 6);
	CHECK(n > 175);
	CHECK_EQ(buf[0], 0x08);
	int zero = 1;
	for (int i = 1; i < 172; i++)
		zero &= buf[i] == 0;
	CHECK(zero);
	CHECK_EQ(buf[172], 0x40);
	CHECK_EQ(buf[173], 0x57);
	/* byte 174: bit0 = 1 (0xAB bit 7), bit1 = HIT, bits 2-7 = '00' + type 0 bits 0-3 */
	CHECK_EQ(buf[174], 0x03);
	/* byte 175: bits 1400..1407 = line 3 (bits 1,1,0,0) then bcount 5 bits 0..3 (1,0,1,0) */
	CHECK_EQ(buf[175], 0x53);
	/* STOP alone in the second chunk */
	n = first_chunk(path, buf, sizeof buf, &nrec, 1);
	CHECK_EQ(nrec, 1);
	CHECK_EQ(buf[0] & 0x3f, 0x0c); /* 00 + type 3 (1100) */

	/* read back */
	struct citcat_lvt_reader *r;
	struct citcat_lvt_rec e;
	CHECK_EQ(citcat_lvt_reader_open(&r, path), 0);
	CHECK_EQ(citcat_lvt_gran_shift(r), 0);
	CHECK_EQ(citcat_lvt_peek(r), CITCAT_LVT_START);
	CHECK_EQ(citcat_lvt_next(r, 0, &e), 1);
	CHECK_EQ(e.kind, CITCAT_LVT_START);
	CHECK_EQ(citcat_lvt_next(r, 4, &e), 1);
	CHECK_EQ(e.kind, CITCAT_LVT_HIT);
	CHECK_EQ(citcat_lvt_next(r, 1, &e), 1);
	CHECK(e.kind == CITCAT_LVT_VALUE && e.value == 0xAB);
	CHECK_EQ(citcat_lvt_next(r, 2, &e), 1);
	CHECK_EQ(e.kind, CITCAT_LVT_HIT);
	CHECK_EQ(citcat_lvt_peek(r), CITCAT_LVT_IRQ);
	CHECK_EQ(citcat_lvt_next(r, 0, &e), 1);
	CHECK(e.kind == CITCAT_LVT_IRQ && e.line == 3 && e.bcount == 5 && e.pc == 0x18);
	CHECK_EQ(citcat_lvt_next(r, 0, &e), CITCAT_ERR_CORRUPT); /* a value where no load is served */
	citcat_lvt_reader_close(r);
	CHECK_EQ(citcat_lvt_reader_open(&r, path), 0);
	for (int i = 0; i < 5; i++)
		CHECK_EQ(citcat_lvt_next(r, i == 2 ? 1 : 4, &e), 1);
	CHECK_EQ(citcat_lvt_next(r, 8, &e), 1);
	CHECK(e.kind == CITCAT_LVT_VALUE && e.value == 0x1122334455667788ull);
	CHECK_EQ(citcat_lvt_next(r, 0, &e), 1);
	CHECK(e.kind == CITCAT_LVT_STOP && e.st.insns == 9 && e.st.loads == 3 && e.st.hits == 2);
	CHECK_EQ(citcat_lvt_peek(r), 0);
	citcat_lvt_reader_close(r);

	struct citcat_lvt_summary s;
	struct citcat_errinfo err;
	CHECK_EQ(citcat_lvt_summary(path, &s, &err), 0);
	CHECK(s.has_start && s.stop.kind == CITCAT_LVT_STOP && s.stop.st.insns == 9 && s.chunks == 2);
	/* bits before STOP: 1382 (START with SCTLR) + 1 + 10 + 1 + (6 + 4 + 8 + 8) + (2 + 64) */
	CHECK_EQ(s.stop.st.bits, 1382 + 1 + 10 + 1 + 26 + 66);
	remove(path);
}

/* Copies the LVT at SRC to DST as container version VERSION, chunk for
 * chunk (the reader's rules for an older version). */
static int rewrite_version(const char *src, const char *dst, uint16_t version)
{
	struct cc_reader *r = NULL;
	struct cc_writer *w = NULL;
	if (cc_reader_open(&r, src, "CLVT\r\n\x1a\n", CITCAT_LVT_VERSION))
		return cc_reader_close(r), -1;
	uint32_t ml, nrec;
	const uint8_t *m = cc_reader_meta(r, &ml), *d;
	size_t len;
	int rc = cc_writer_open(&w, dst, "CLVT\r\n\x1a\n", version, m, ml, 0);
	while (!rc && cc_reader_next_chunk(r, &d, &len, &nrec) == 1) {
		uint8_t *p = cc_writer_reserve(w, len);
		if (!p) {
			rc = -1;
			break;
		}
		memcpy(p, d, len);
		cc_writer_commit(w, len, nrec);
		rc = cc_writer_flush(w);
	}
	cc_reader_close(r);
	if (rc) {
		cc_writer_abort(w);
		return rc;
	}
	return cc_writer_close(w);
}

/* Version 2 on the Cortex-M7: the IRQ record's line field is 6 bits, the
 * exception number (LVT.md, "The Cortex-M7"); a version 1 file is read
 * with its 4-bit lines on the ARMv7-A target and refused on the M7. */
static void format_m7(void)
{
	char path[] = "/tmp/test_lvt_XXXXXX", old[] = "/tmp/test_lvt_XXXXXX";
	close(mkstemp(path));
	close(mkstemp(old));
	struct citcat_target_config cfg;
	citcat_target_config_default(&cfg);
	cfg.isa = CITCAT_TARGET_CORTEX_M7;
	struct citcat_lvt_writer *w;
	CHECK_EQ(citcat_lvt_writer_open(&w, path, &cfg, 0), 0);
	struct citcat_lvt_rec start = {.kind = CITCAT_LVT_START};
	struct citcat_lvt_rec irq = {.kind = CITCAT_LVT_IRQ, .line = 64, .bcount = 5, .pc = 0x18};
	CHECK_EQ(citcat_lvt_put_event(w, &start), 0);
	CHECK_EQ(citcat_lvt_put_event(w, &irq), CITCAT_ERR_INVAL); /* 64 does not fit 6 bits */
	citcat_lvt_writer_abort(w);
	CHECK_EQ(citcat_lvt_writer_open(&w, path, &cfg, 0), 0);
	irq.line = 47; /* IRQ 31, the last line modelled */
	CHECK_EQ(citcat_lvt_put_event(w, &start), 0);
	CHECK_EQ(citcat_lvt_put_event(w, &irq), 0);
	struct citcat_lvt_rec stop = {.kind = CITCAT_LVT_STOP, .line = CITCAT_STOP_EXIT, .st = {.insns = 9, .bcount = 5}};
	CHECK_EQ(citcat_lvt_put_event(w, &stop), 0);
	CHECK_EQ(citcat_lvt_writer_close(w), 0);
	/* Hand-encoded: START is bits 0..1381 as in format(); IRQ from bit
	 * 1382: 00, type 0000, line 47 (1,1,1,1,0,1 from bit 1388), bcount 5
	 * (1,0,1,0,0,0,0,0 from bit 1394), pc zz(0x18) = 0x30 from bit 1402.
	 * Byte 172 = 0x00, 173 = 0xF0 (bits 1388-1391), 174 = 0x16 (bit 1393
	 * = line bit 5, bits 1394 and 1396 = bcount), 175 = 0xC0 (pc bits 4, 5). */
	uint8_t buf[256];
	uint32_t nrec = 0;
	size_t n = first_chunk(path, buf, sizeof buf, &nrec, 0);
	CHECK_EQ(nrec, 2);
	CHECK_EQ(n, 177); /* 1382 + 28 = 1410 bits, padded to 177 bytes */
	CHECK_EQ(buf[172], 0x00);
	CHECK_EQ(buf[173], 0xF0);
	CHECK_EQ(buf[174], 0x16);
	CHECK_EQ(buf[175], 0xC0);
	struct citcat_lvt_reader *r;
	struct citcat_lvt_rec e;
	CHECK_EQ(citcat_lvt_reader_open(&r, path), 0);
	CHECK_EQ(citcat_lvt_config(r)->isa, CITCAT_TARGET_CORTEX_M7);
	CHECK_EQ(citcat_lvt_next(r, 0, &e), 1);
	CHECK_EQ(citcat_lvt_next(r, 0, &e), 1);
	CHECK(e.kind == CITCAT_LVT_IRQ && e.line == 47 && e.bcount == 5 && e.pc == 0x18);
	citcat_lvt_reader_close(r);
	/* the same file as version 1: refused at the configuration (offset 16) */
	CHECK_EQ(rewrite_version(path, old, 1), 0);
	CHECK_EQ(citcat_lvt_reader_open(&r, old), CITCAT_ERR_CORRUPT);
	CHECK(strstr(citcat_lvt_reader_error(r)->msg, "version 1") && citcat_lvt_reader_error(r)->offset == 16);
	citcat_lvt_reader_close(r);
	/* exception number 1 (reset) is no record's: the reader refuses it */
	CHECK_EQ(citcat_lvt_writer_open(&w, path, &cfg, 0), 0);
	irq.line = 1;
	CHECK_EQ(citcat_lvt_put_event(w, &start), 0);
	CHECK_EQ(citcat_lvt_put_event(w, &irq), 0);
	CHECK_EQ(citcat_lvt_put_event(w, &stop), 0);
	CHECK_EQ(citcat_lvt_writer_close(w), 0);
	CHECK_EQ(citcat_lvt_reader_open(&r, path), 0);
	CHECK_EQ(citcat_lvt_next(r, 0, &e), 1);
	CHECK_EQ(citcat_lvt_next(r, 0, &e), CITCAT_ERR_CORRUPT);
	CHECK(strstr(citcat_lvt_reader_error(r)->msg, "exception number out of range") != NULL);
	citcat_lvt_reader_close(r);
	/* an ARMv7-A file of version 1 (START without SCTLR) is still read,
	 * 4-bit lines; a version 1 writer refuses the M7 and TE */
	citcat_target_config_default(&cfg);
	CHECK_EQ(lvt_writer_open_version(&w, old, &cfg, 0, 1), 0);
	irq.line = 15;
	struct citcat_lvt_rec te = {.kind = CITCAT_LVT_START, .sctlr = CITCAT_LVT_SCTLR_TE};
	CHECK_EQ(citcat_lvt_put_event(w, &te), CITCAT_ERR_INVAL);
	citcat_lvt_writer_abort(w);
	CHECK_EQ(lvt_writer_open_version(&w, old, &cfg, 0, 1), 0);
	CHECK_EQ(citcat_lvt_put_event(w, &start), 0);
	CHECK_EQ(citcat_lvt_put_event(w, &irq), 0);
	CHECK_EQ(citcat_lvt_put_event(w, &stop), 0);
	CHECK_EQ(citcat_lvt_writer_close(w), 0);
	n = first_chunk(old, buf, sizeof buf, &nrec, 0);
	CHECK_EQ(n, 172); /* START 1350 bits + IRQ 26: 1376 bits, 32 fewer than version 2 */
	cfg.isa = CITCAT_TARGET_CORTEX_M7;
	CHECK_EQ(lvt_writer_open_version(&w, old, &cfg, 0, 1), CITCAT_ERR_INVAL);
	citcat_target_config_default(&cfg);
	CHECK_EQ(citcat_lvt_reader_open(&r, old), 0);
	CHECK_EQ(citcat_lvt_next(r, 0, &e), 1);
	CHECK_EQ(citcat_lvt_next(r, 0, &e), 1);
	CHECK(e.kind == CITCAT_LVT_IRQ && e.line == 15 && e.bcount == 5 && e.pc == 0x18);
	CHECK_EQ(citcat_lvt_next(r, 0, &e), 1);
	CHECK_EQ(e.kind, CITCAT_LVT_STOP);
	citcat_lvt_reader_close(r);
	remove(path);
	remove(old);
}

int main(void)
{
	fa_rules();
	format();
	format_m7();
	CHECK_DONE();
}
