/* CAT writer/reader: every event kind round-trips (with and without
 * timestamps, across chunks), and bad files give the right error. */
#include "cat.h"
#include "check.h"
#include "fuzz/wrap.h"

#include <string.h>
#include <unistd.h>

static uint8_t line[32], dma[8];
/* SYNC replacement states for the configuration being written: 0 where the
 * cache is not random, else a nonzero base */
static uint32_t sync_gi, sync_gd;

static struct citcat_cat_event mk(unsigned i)
{
	struct citcat_cat_event e;
	memset(&e, 0, sizeof e);
	e.kind = (uint8_t)(1 + i % 11);
	e.cycle = 1000 + 7 * (uint64_t)i;
	switch (e.kind) {
	case CITCAT_CAT_FILL_I: case CITCAT_CAT_FILL_D: case CITCAT_CAT_WRITEBACK:
		e.addr = 0x1000 + 32 * (i % 977);
		e.len = 32;
		e.data = line;
		break;
	case CITCAT_CAT_WRITE: case CITCAT_CAT_UREAD: case CITCAT_CAT_UWRITE:
		e.size = (uint8_t)(e.kind == CITCAT_CAT_WRITE ? 1u << (i % 3) : 4);
		e.addr = e.kind == CITCAT_CAT_WRITE ? 0x2000 + i % 100 : 0x40000000 + 4 * (i % 64);
		e.value = (i * 2654435761u) & (e.size == 4 ? 0xffffffffu : e.size == 2 ? 0xffffu : 0xffu);
		break;
	case CITCAT_CAT_DMA:
		e.addr = 0x8000 + 8 * i;
		e.len = 8;
		e.data = dma;
		e.bcount = i * 3;
		e.pc = 0x100 + 4 * (i % 50);
		break;
	case CITCAT_CAT_IRQ:
		e.line = (uint8_t)(i % 4);
		e.bcount = i * 3 + 1;
		e.pc = 0x200 + 4 * (i % 9);
		break;
	case CITCAT_CAT_SYNC:
		e.pc = 0x44 + 4 * i;
		e.repl_state[0] = sync_gi ? (sync_gi + i) | 1 : 0;
		e.repl_state[1] = sync_gd ? (sync_gd - i) | 0x80000000u : 0;
		break;
	case CITCAT_CAT_STOP:
		e.line = CITCAT_STOP_EXIT;
		e.insns = i * 11;
		e.bcount = i;
		e.cycle = e.cycle; /* STOP's cycle field is the total */
		break;
	}
	return e;
}

static int same(const struct citcat_cat_event *a, const struct citcat_cat_event *b, int ts)
{
	if (a->kind != b->kind || (ts && a->cycle != b->cycle))
		return 0;
	switch (a->kind) {
	case CITCAT_CAT_FILL_I: case CITCAT_CAT_FILL_D: case CITCAT_CAT_WRITEBACK:
		return a->addr == b->addr && a->len == b->len && memcmp(a->data, b->data, a->len) == 0;
	case CITCAT_CAT_WRITE: case CITCAT_CAT_UREAD: case CITCAT_CAT_UWRITE:
		return a->addr == b->addr && a->size == b->size && a->value == b->value;
	case CITCAT_CAT_DMA:
		return a->addr == b->addr && a->len == b->len && !memcmp(a->data, b->data, a->len) && a->bcount == b->bcount &&
		       a->pc == b->pc;
	case CITCAT_CAT_IRQ:
		return a->line == b->line && a->bcount == b->bcount && a->pc == b->pc;
	case CITCAT_CAT_SYNC:
		return a->pc == b->pc && a->repl_state[0] == b->repl_state[0] && a->repl_state[1] == b->repl_state[1];
	case CITCAT_CAT_STOP:
		return a->line == b->line && a->insns == b->insns && a->bcount == b->bcount && a->cycle == b->cycle;
	}
	return 1;
}

static int count_events(const char *path, int *code)
{
	struct citcat_cat_reader *r;
	struct citcat_cat_event e;
	int rc = citcat_cat_reader_open(&r, path), n = 0;
	if (rc == 0)
		while ((rc = citcat_cat_next(r, &e)) == 1)
			n++;
	*code = rc;
	citcat_cat_reader_close(r);
	return n;
}

/* Reads one SYNC from a container wrapping PAYLOAD (version VERSION): the
 * reader's status (1 = an event) and the event. */
static int read_sync(const struct citcat_target_config *cfg, uint16_t version, const uint8_t *payload, size_t len,
		     struct citcat_cat_event *ev)
{
	uint8_t meta[CITCAT_TARGET_META_LEN];
	citcat_target_config_encode(cfg, meta);
	size_t n = 0;
	uint8_t *b = wrap_container("CCAT\r\n\x1a\n", version, meta, sizeof meta, payload, len, 1, &n);
	struct citcat_cat_reader *r;
	int rc = citcat_cat_reader_open_mem(&r, b, n);
	if (rc == 0)
		rc = citcat_cat_next(r, ev);
	if (rc < 0 && version < CITCAT_CAT_MIN_VERSION)
		CHECK_EQ(citcat_cat_reader_error(r)->offset, 8);
	citcat_cat_reader_close(r);
	free(b);
	return rc;
}

/* SYNC carries the caches' random-replacement states at P (CAT.md v2): its
 * bytes as specified, and states that do not fit the policy refused. */
static void test_sync_state(const char *path)
{
	struct citcat_target_config cfg;
	citcat_target_config_default(&cfg);
	cfg.dcache.repl = CITCAT_REPL_RANDOM; /* I-cache LRU: no generator */
	struct citcat_cat_writer *w;
	CHECK_EQ(citcat_cat_writer_open(&w, path, &cfg), 0);
	struct citcat_cat_event e = {.kind = CITCAT_CAT_SYNC, .pc = 0x44, .repl_state = {1, 0x80}};
	CHECK_EQ(citcat_cat_write(w, &e), CITCAT_ERR_INVAL); /* a state for the LRU I-cache */
	e.repl_state[0] = 0;
	e.repl_state[1] = 0;
	CHECK_EQ(citcat_cat_write(w, &e), CITCAT_ERR_INVAL); /* 0 for the random D-cache */
	e.repl_state[1] = 0x80;
	CHECK_EQ(citcat_cat_write(w, &e), 0);
	CHECK_EQ(citcat_cat_writer_close(w), 0);
	/* kind 10, varint P = 0x44, varint GI = 0, varint GD = 0x80 (two bytes) */
	static const uint8_t want[] = {0x0a, 0x44, 0x00, 0x80, 0x01};
	uint8_t file[256];
	FILE *f = fopen(path, "rb");
	size_t n = fread(file, 1, sizeof file, f);
	fclose(f);
	size_t chunk = 16 + CITCAT_TARGET_META_LEN + 4;
	CHECK(n == chunk + 24 + sizeof want + 24);
	CHECK(n > chunk + 24 && file[chunk + 16] == 0); /* stored uncompressed */
	CHECK(n > chunk + 24 + sizeof want && memcmp(file + chunk + 24, want, sizeof want) == 0);
	struct citcat_cat_event got;
	CHECK_EQ(read_sync(&cfg, CITCAT_CAT_VERSION, want, sizeof want, &got), 1);
	CHECK(got.kind == CITCAT_CAT_SYNC && got.pc == 0x44 && got.repl_state[0] == 0 && got.repl_state[1] == 0x80);

	static const uint8_t zero_random[] = {0x0a, 0x44, 0x00, 0x00};
	static const uint8_t state_lru[] = {0x0a, 0x44, 0x01, 0x80, 0x01};
	static const uint8_t wide[] = {0x0a, 0x44, 0x00, 0xff, 0xff, 0xff, 0xff, 0x1f};
	static const uint8_t wide_pc[] = {0x0a, 0xff, 0xff, 0xff, 0xff, 0x1f, 0x00, 0x01};
	static const uint8_t flags[] = {0x1a, 0x44, 0x00, 0x80, 0x01};
	static const uint8_t cut[] = {0x0a, 0x44, 0x00};
	CHECK_EQ(read_sync(&cfg, CITCAT_CAT_VERSION, zero_random, sizeof zero_random, &got), CITCAT_ERR_CORRUPT);
	CHECK_EQ(read_sync(&cfg, CITCAT_CAT_VERSION, state_lru, sizeof state_lru, &got), CITCAT_ERR_CORRUPT);
	CHECK_EQ(read_sync(&cfg, CITCAT_CAT_VERSION, wide, sizeof wide, &got), CITCAT_ERR_CORRUPT);
	CHECK_EQ(read_sync(&cfg, CITCAT_CAT_VERSION, wide_pc, sizeof wide_pc, &got), CITCAT_ERR_CORRUPT);
	CHECK_EQ(read_sync(&cfg, CITCAT_CAT_VERSION, flags, sizeof flags, &got), CITCAT_ERR_CORRUPT);
	CHECK_EQ(read_sync(&cfg, CITCAT_CAT_VERSION, cut, sizeof cut, &got), CITCAT_ERR_CORRUPT);
	/* the largest state is fine */
	static const uint8_t top[] = {0x0a, 0x44, 0x00, 0xff, 0xff, 0xff, 0xff, 0x0f};
	CHECK_EQ(read_sync(&cfg, CITCAT_CAT_VERSION, top, sizeof top, &got), 1);
	CHECK(got.repl_state[1] == 0xffffffffu);
	/* version 1 (SYNC without states) is refused at the version field */
	static const uint8_t v1[] = {0x0a, 0x44};
	CHECK_EQ(read_sync(&cfg, 1, v1, sizeof v1, &got), CITCAT_ERR_VERSION);
}

/* Sets cflags bit 1 (CC_CHUNK_MARK) on the one chunk of a container made
 * by wrap_container, after its META_LEN-byte metadata, and reseals it. */
static void mark_chunk(uint8_t *b, uint32_t meta_len)
{
	uint8_t *c = b + 16 + meta_len + 4;
	uint32_t len = (uint32_t)c[8] | (uint32_t)c[9] << 8 | (uint32_t)c[10] << 16 | (uint32_t)c[11] << 24;
	c[16] |= 2;
	XXH32_state_t *st = XXH32_createState();
	XXH32_reset(st, 0);
	XXH32_update(st, c, 20);
	XXH32_update(st, c + 24, len);
	wrap_put32(c + 20, XXH32_digest(st));
	XXH32_freeState(st);
}

/* One event in a chunk, marked or not, of a version VERSION file: the
 * reader's status and, on an error, its file offset in *OFF. */
static int read_marked(const struct citcat_target_config *cfg, uint16_t version, int marked, const uint8_t *payload,
		       size_t len, struct citcat_cat_event *ev, uint64_t *off)
{
	uint8_t meta[CITCAT_TARGET_META_LEN];
	citcat_target_config_encode(cfg, meta);
	size_t n = 0;
	uint8_t *b = wrap_container("CCAT\r\n\x1a\n", version, meta, sizeof meta, payload, len, 1, &n);
	if (marked)
		mark_chunk(b, sizeof meta);
	struct citcat_cat_reader *r;
	int rc = citcat_cat_reader_open_mem(&r, b, n);
	if (rc == 0)
		rc = citcat_cat_next(r, ev);
	*off = citcat_cat_reader_error(r)->offset;
	citcat_cat_reader_close(r);
	free(b);
	return rc;
}

/* Version 6 (CAT.md): a chunk is marked (cflags bit 1) exactly when its
 * first event is a CKPT; the flag is reserved before version 6.  A file
 * written with checkpoints opens at segment K by the chunk headers, and
 * its end marker's totals still check out. */
static void test_ckpt_marks(const char *path)
{
	struct citcat_target_config cfg;
	citcat_target_config_default(&cfg);
	static const uint8_t ck[] = {0x0c, 0xa8, 0x07, 0xb6, 0xc3, 0x01, 0xe4, 0x0a, 0x00, 0x00};
	static const uint8_t sync[] = {0x09, 0x80, 0x01, 0x00, 0x00}; /* SYNC at 0x80 */
	struct citcat_cat_event got;
	uint64_t off;
	const uint64_t chunk = 16 + CITCAT_TARGET_META_LEN + 4; /* the chunk's file offset */
	CHECK_EQ(read_marked(&cfg, 6, 1, ck, sizeof ck, &got, &off), 1);
	CHECK(got.kind == CITCAT_CAT_CKPT && got.pc == 0x3a8 && got.insns == 25014);
	CHECK_EQ(read_marked(&cfg, 6, 0, ck, sizeof ck, &got, &off), CITCAT_ERR_CORRUPT); /* not marked */
	CHECK_EQ(read_marked(&cfg, 6, 1, sync, sizeof sync, &got, &off), CITCAT_ERR_CORRUPT); /* marked, no CKPT */
	CHECK_EQ(read_marked(&cfg, 5, 1, ck, sizeof ck, &got, &off), CITCAT_ERR_CORRUPT); /* reserved in v5 */
	CHECK_EQ(off, chunk + 16);
	CHECK_EQ(read_marked(&cfg, 6, 0, sync, sizeof sync, &got, &off), 1);
	/* a CKPT after another event of its chunk */
	static const uint8_t late[] = {0x09, 0x80, 0x01, 0x00, 0x00, 0x0c, 0xa8, 0x07, 0xb6, 0xc3, 0x01, 0xe4, 0x0a, 0x00, 0x00};
	uint8_t meta[CITCAT_TARGET_META_LEN];
	citcat_target_config_encode(&cfg, meta);
	size_t n = 0;
	uint8_t *b = wrap_container("CCAT\r\n\x1a\n", 6, meta, sizeof meta, late, sizeof late, 2, &n);
	struct citcat_cat_reader *r;
	CHECK_EQ(citcat_cat_reader_open_mem(&r, b, n), 0);
	CHECK_EQ(citcat_cat_next(r, &got), 1);
	CHECK_EQ(citcat_cat_next(r, &got), CITCAT_ERR_CORRUPT);
	CHECK_EQ(citcat_cat_reader_error(r)->offset, chunk + 24); /* the payload, byte 5 in the message */
	citcat_cat_reader_close(r);
	free(b);

	/* written: SYNC, a fill, CKPT 1, a write, CKPT 2, a write, STOP */
	struct citcat_cat_writer *w;
	CHECK_EQ(citcat_cat_writer_open(&w, path, &cfg), 0);
	static uint8_t fill[32];
	const struct citcat_cat_event evs[] = {
		{.kind = CITCAT_CAT_SYNC, .pc = 0x80},
		{.kind = CITCAT_CAT_FILL_I, .addr = 0x80, .data = fill},
		{.kind = CITCAT_CAT_CKPT, .pc = 0x100, .insns = 10, .bcount = 3},
		{.kind = CITCAT_CAT_WRITE, .addr = 0x400, .size = 4, .value = 7},
		{.kind = CITCAT_CAT_CKPT, .pc = 0x200, .insns = 20, .bcount = 6},
		{.kind = CITCAT_CAT_WRITE, .addr = 0x404, .size = 4, .value = 9},
		{.kind = CITCAT_CAT_STOP, .line = CITCAT_STOP_EXIT, .insns = 30, .bcount = 8},
	};
	for (size_t i = 0; i < sizeof evs / sizeof *evs; i++)
		CHECK_EQ(citcat_cat_write(w, &evs[i]), 0);
	CHECK_EQ(citcat_cat_writer_close(w), 0);
	int code;
	CHECK_EQ(count_events(path, &code), 7);
	CHECK_EQ(code, 0);
	for (uint64_t k = 1; k <= 3; k++) {
		CHECK_EQ(citcat_cat_reader_open(&r, path), 0);
		CHECK_EQ(citcat_cat_reader_seek_segment(r, k), 1);
		int rc, m = 0;
		while ((rc = citcat_cat_next(r, &got)) == 1) {
			if (m++ == 0)
				CHECK(got.kind == CITCAT_CAT_CKPT && got.insns == 10 * k);
		}
		CHECK_EQ(rc, 0); /* the end marker's totals count the chunks passed over */
		CHECK_EQ(m, k == 3 ? 0 : k == 1 ? 5 : 3);
		CHECK_EQ(citcat_cat_reader_seek_segment(r, 1), CITCAT_ERR_INVAL); /* after reading */
		citcat_cat_reader_close(r);
	}
	CHECK_EQ(citcat_cat_reader_open(&r, path), 0);
	CHECK_EQ(citcat_cat_reader_seek_segment(r, 0), 0); /* segment 0: from the start */
	citcat_cat_reader_close(r);
	unlink(path);
}

/* CKPT (CAT.md v5): hand-encoded bytes, refused before version 5, bad
 * fields refused; the delta state is untouched (an IRQ after it still
 * decodes against the previous IRQ).  Read as version 5 files: from
 * version 6 on a CKPT must start a marked chunk (test_ckpt_marks). */
static void test_ckpt(void)
{
	struct citcat_target_config cfg;
	citcat_target_config_default(&cfg);
	/* kind 12; P_k 0x3a8 = a8 07; insns 25014 = b6 c3 01; bcount 1380 = e4 0a; GI 0; GD 0 */
	static const uint8_t ck[] = {0x0c, 0xa8, 0x07, 0xb6, 0xc3, 0x01, 0xe4, 0x0a, 0x00, 0x00};
	struct citcat_cat_event got;
	CHECK_EQ(read_sync(&cfg, 5, ck, sizeof ck, &got), 1);
	CHECK(got.kind == CITCAT_CAT_CKPT && got.pc == 0x3a8 && got.insns == 25014 && got.bcount == 1380 &&
	      got.repl_state[0] == 0 && got.repl_state[1] == 0);
	CHECK_EQ(read_sync(&cfg, 4, ck, sizeof ck, &got), CITCAT_ERR_CORRUPT); /* unknown kind before v5 */
	static const uint8_t flags[] = {0x1c, 0xa8, 0x07, 0xb6, 0xc3, 0x01, 0xe4, 0x0a, 0x00, 0x00};
	static const uint8_t state_lru[] = {0x0c, 0xa8, 0x07, 0xb6, 0xc3, 0x01, 0xe4, 0x0a, 0x01, 0x00};
	static const uint8_t wide_pc[] = {0x0c, 0xff, 0xff, 0xff, 0xff, 0x1f, 0x00, 0x00, 0x00, 0x00};
	static const uint8_t cut[] = {0x0c, 0xa8, 0x07, 0xb6, 0xc3, 0x01, 0xe4, 0x0a, 0x00};
	CHECK_EQ(read_sync(&cfg, 5, flags, sizeof flags, &got), CITCAT_ERR_CORRUPT);
	CHECK_EQ(read_sync(&cfg, 5, state_lru, sizeof state_lru, &got), CITCAT_ERR_CORRUPT);
	CHECK_EQ(read_sync(&cfg, 5, wide_pc, sizeof wide_pc, &got), CITCAT_ERR_CORRUPT);
	CHECK_EQ(read_sync(&cfg, 5, cut, sizeof cut, &got), CITCAT_ERR_CORRUPT);
	/* IRQ (bcount +5, epc +0x10), CKPT, IRQ (bcount +1, epc +4): the second
	 * IRQ's deltas are from the first IRQ, not from the CKPT */
	static const uint8_t seq[] = {0x88, 0x05, 0x20, 0x0c, 0xa8, 0x07, 0x02, 0x06, 0x00, 0x00, 0x88, 0x01, 0x08};
	uint8_t meta[CITCAT_TARGET_META_LEN];
	citcat_target_config_encode(&cfg, meta);
	size_t n = 0;
	uint8_t *b = wrap_container("CCAT\r\n\x1a\n", 5, meta, sizeof meta, seq, sizeof seq, 3, &n);
	struct citcat_cat_reader *r;
	CHECK_EQ(citcat_cat_reader_open_mem(&r, b, n), 0);
	CHECK_EQ(citcat_cat_next(r, &got), 1);
	CHECK(got.kind == CITCAT_CAT_IRQ && got.bcount == 5 && got.pc == 0x10);
	CHECK_EQ(citcat_cat_next(r, &got), 1);
	CHECK(got.kind == CITCAT_CAT_CKPT && got.pc == 0x3a8 && got.insns == 2 && got.bcount == 6);
	CHECK_EQ(citcat_cat_next(r, &got), 1);
	CHECK(got.kind == CITCAT_CAT_IRQ && got.line == 8 && got.bcount == 6 && got.pc == 0x14);
	citcat_cat_reader_close(r);
	free(b);
}

/* STOP with an abnormal end (CAT.md v3, STOP): the bytes as specified,
 * hand-encoded, and what a version 2 file or a bad field must not carry. */
static void test_stop_fault(const char *path)
{
	struct citcat_target_config cfg;
	citcat_target_config_default(&cfg);
	/* kind 11 | reason 3 << 4; insns 5, branches 2, cycles 9; fault kind 1
	 * (read); PC 0x1234 = b4 24; address 0x30000000 = 80 80 80 80 03 */
	static const uint8_t fault[] = {0x3b, 0x05, 0x02, 0x09, 0x01, 0xb4, 0x24, 0x80, 0x80, 0x80, 0x80, 0x03};
	struct citcat_cat_event got;
	CHECK_EQ(read_sync(&cfg, CITCAT_CAT_VERSION, fault, sizeof fault, &got), 1);
	CHECK(got.kind == CITCAT_CAT_STOP && got.line == CITCAT_STOP_FAULT && got.insns == 5 && got.bcount == 2 &&
	      got.cycle == 9 && got.value == CITCAT_FAULT_READ && got.pc == 0x1234 && got.addr == 0x30000000u);
	/* version 2 has no reason 3; WFI deadlock (4) and interrupted (5) carry no fault */
	CHECK_EQ(read_sync(&cfg, 2, fault, sizeof fault, &got), CITCAT_ERR_CORRUPT);
	static const uint8_t wfi[] = {0x4b, 0x05, 0x02, 0x09}, intr[] = {0x5b, 0x05, 0x02, 0x09};
	CHECK_EQ(read_sync(&cfg, CITCAT_CAT_VERSION, wfi, sizeof wfi, &got), 1);
	CHECK(got.line == CITCAT_STOP_WFI_DEADLOCK && got.value == 0 && got.pc == 0 && got.addr == 0);
	CHECK_EQ(read_sync(&cfg, CITCAT_CAT_VERSION, intr, sizeof intr, &got), 1);
	CHECK(got.line == CITCAT_STOP_INTERRUPTED);
	static const uint8_t reason6[] = {0x6b, 0x05, 0x02, 0x09};
	static const uint8_t kind0[] = {0x3b, 0x05, 0x02, 0x09, 0x00, 0x00, 0x00};
	static const uint8_t kind11[] = {0x3b, 0x05, 0x02, 0x09, 0x0b, 0x00, 0x00};
	static const uint8_t wide_addr[] = {0x3b, 0x05, 0x02, 0x09, 0x01, 0x00, 0x80, 0x80, 0x80, 0x80, 0x10};
	static const uint8_t cut[] = {0x3b, 0x05, 0x02, 0x09, 0x01, 0xb4};
	CHECK_EQ(read_sync(&cfg, CITCAT_CAT_VERSION, reason6, sizeof reason6, &got), CITCAT_ERR_CORRUPT);
	CHECK_EQ(read_sync(&cfg, CITCAT_CAT_VERSION, kind0, sizeof kind0, &got), CITCAT_ERR_CORRUPT);
	CHECK_EQ(read_sync(&cfg, CITCAT_CAT_VERSION, kind11, sizeof kind11, &got), CITCAT_ERR_CORRUPT);
	CHECK_EQ(read_sync(&cfg, CITCAT_CAT_VERSION, wide_addr, sizeof wide_addr, &got), CITCAT_ERR_CORRUPT);
	CHECK_EQ(read_sync(&cfg, CITCAT_CAT_VERSION, cut, sizeof cut, &got), CITCAT_ERR_CORRUPT);
	/* the writer: the same bytes; no reason 6, no fault without a kind */
	struct citcat_cat_writer *w;
	CHECK_EQ(citcat_cat_writer_open(&w, path, &cfg), 0);
	struct citcat_cat_event e = {.kind = CITCAT_CAT_STOP, .line = 6, .insns = 5, .bcount = 2, .cycle = 9};
	CHECK_EQ(citcat_cat_write(w, &e), CITCAT_ERR_INVAL);
	e.line = CITCAT_STOP_FAULT;
	CHECK_EQ(citcat_cat_write(w, &e), CITCAT_ERR_INVAL);
	e.value = CITCAT_FAULT_READ;
	e.pc = 0x1234;
	e.addr = 0x30000000u;
	CHECK_EQ(citcat_cat_write(w, &e), 0);
	CHECK_EQ(citcat_cat_writer_close(w), 0);
	uint8_t file[256];
	FILE *f = fopen(path, "rb");
	size_t n = fread(file, 1, sizeof file, f);
	fclose(f);
	size_t at = 16 + CITCAT_TARGET_META_LEN + 4 + 24; /* header, metadata, its checksum, chunk header */
	CHECK(n >= at + sizeof fault && memcmp(file + at, fault, sizeof fault) == 0);
}

/* Reads the first event of a container wrapping PAYLOAD (version VERSION)
 * and the Cortex-M7 fault status the reader then reports. */
static int read_m7_status(const struct citcat_target_config *cfg, uint16_t version, const uint8_t *payload, size_t len,
			  struct citcat_cat_event *ev, struct citcat_m7_fault *f, int *has)
{
	uint8_t meta[CITCAT_TARGET_META_LEN];
	citcat_target_config_encode(cfg, meta);
	size_t n = 0;
	uint8_t *b = wrap_container("CCAT\r\n\x1a\n", version, meta, sizeof meta, payload, len, 1, &n);
	struct citcat_cat_reader *r;
	int rc = citcat_cat_reader_open_mem(&r, b, n);
	*has = -1;
	if (rc == 0)
		rc = citcat_cat_next(r, ev);
	if (rc == 1)
		*has = citcat_cat_m7_fault(r, f);
	citcat_cat_reader_close(r);
	free(b);
	return rc;
}

/* Version 7: the Cortex-M7 fault status after a STOP of fault kind 11
 * (CAT.md, STOP), hand-encoded: a load from the wild pointer 0x80000090
 * with BusFault disabled, escalated to HardFault (exception 3): CFSR
 * 0x8200 (PRECISERR | BFARVALID), HFSR 0x40000000 (FORCED), BFAR
 * 0x80000090; no MMFAR (MMARVALID clear). */
static void test_stop_m7_status(const char *path)
{
	struct citcat_target_config cfg;
	citcat_target_config_default(&cfg);
	cfg.isa = CITCAT_TARGET_CORTEX_M7;
	/* STOP | fault << 4; insns 5, branches 2, cycles 9; kind 11; PC 0x598;
	 * exception 3; CFSR; HFSR; BFAR */
	static const uint8_t stop[] = {0x3b, 0x05, 0x02, 0x09, 0x0b, 0x98, 0x0b, 0x03, 0x80, 0x84, 0x02,
				       0x80, 0x80, 0x80, 0x80, 0x04, 0x90, 0x81, 0x80, 0x80, 0x08};
	struct citcat_cat_event got;
	struct citcat_m7_fault f;
	int has;
	CHECK_EQ(read_m7_status(&cfg, 7, stop, sizeof stop, &got, &f, &has), 1);
	CHECK(got.kind == CITCAT_CAT_STOP && got.value == CITCAT_FAULT_EXCEPTION && got.pc == 0x598 && got.addr == 3);
	CHECK_EQ(has, 1);
	CHECK(f.exc == 3 && f.cfsr == 0x8200 && f.hfsr == 0x40000000u && f.mmfar == 0 && f.bfar == 0x80000090u);
	char text[200];
	CHECK(citcat_m7_fault_describe(&f, text, sizeof text) > 0);
	CHECK(strcmp(text, "HardFault FORCED PRECISERR, BFAR 0x80000090") == 0);
	/* version 6 has no status: the STOP ends at the exception number */
	CHECK_EQ(read_m7_status(&cfg, 6, stop, 8, &got, &f, &has), 1);
	CHECK_EQ(has, 0);
	CHECK(f.cfsr == 0 && f.bfar == 0);
	/* cut short, and a BFAR wider than 32 bits */
	CHECK_EQ(read_m7_status(&cfg, 7, stop, sizeof stop - 1, &got, &f, &has), CITCAT_ERR_CORRUPT);
	uint8_t wide[sizeof stop];
	memcpy(wide, stop, sizeof stop);
	wide[sizeof stop - 1] = 0x10; /* 0x100000010 */
	CHECK_EQ(read_m7_status(&cfg, 7, wide, sizeof wide, &got, &f, &has), CITCAT_ERR_CORRUPT);
	/* MMARVALID without BFARVALID: MMFAR follows, no BFAR */
	static const uint8_t mm[] = {0x3b, 0x05, 0x02, 0x09, 0x0b, 0x98, 0x0b, 0x04, 0x82, 0x01, 0x00, 0x44};
	CHECK_EQ(read_m7_status(&cfg, 7, mm, sizeof mm, &got, &f, &has), 1);
	CHECK(has == 1 && f.exc == 4 && f.cfsr == 0x82 && f.hfsr == 0 && f.mmfar == 0x44 && f.bfar == 0);
	citcat_m7_fault_describe(&f, text, sizeof text);
	CHECK(strcmp(text, "MemManage DACCVIOL, MMFAR 0x00000044") == 0);
	/* the writer: the same bytes; an isa 1 writer takes no status */
	struct citcat_cat_writer *w;
	CHECK_EQ(citcat_cat_writer_open(&w, path, &cfg), 0);
	struct citcat_m7_fault set = {.exc = 3, .cfsr = 0x8200, .hfsr = 0x40000000u, .bfar = 0x80000090u};
	CHECK_EQ(citcat_cat_writer_m7_fault(w, &set), 0);
	struct citcat_cat_event e = {.kind = CITCAT_CAT_STOP, .line = CITCAT_STOP_FAULT, .insns = 5, .bcount = 2, .cycle = 9,
				     .value = CITCAT_FAULT_EXCEPTION, .pc = 0x598, .addr = 3};
	CHECK_EQ(citcat_cat_write(w, &e), 0);
	CHECK_EQ(citcat_cat_writer_close(w), 0);
	uint8_t file[256];
	FILE *fp = fopen(path, "rb");
	size_t n = fp ? fread(file, 1, sizeof file, fp) : 0;
	if (fp)
		fclose(fp);
	size_t at = 16 + CITCAT_TARGET_META_LEN + 4 + 24; /* header, metadata, its checksum, chunk header */
	CHECK(n >= at + sizeof stop && memcmp(file + at, stop, sizeof stop) == 0);
	struct citcat_target_config a;
	citcat_target_config_default(&a);
	CHECK_EQ(citcat_cat_writer_open(&w, path, &a), 0);
	CHECK_EQ(citcat_cat_writer_m7_fault(w, &set), CITCAT_ERR_INVAL);
	citcat_cat_writer_abort(w);
	CHECK_EQ(citcat_cat_writer_m7_fault(NULL, &set), CITCAT_ERR_INVAL);
	CHECK_EQ(citcat_cat_m7_fault(NULL, &f), CITCAT_ERR_INVAL);
	CHECK_EQ(citcat_m7_fault_describe(NULL, text, sizeof text), CITCAT_ERR_INVAL);
}

int main(void)
{
	for (int i = 0; i < 32; i++)
		line[i] = (uint8_t)(i * 7);
	for (int i = 0; i < 8; i++)
		dma[i] = (uint8_t)(0xa0 + i);
	char path[] = "/tmp/citcat-test-cat-XXXXXX";
	close(mkstemp(path));
	const unsigned N = 120000; /* several chunks */
	for (int ts = 0; ts < 2; ts++) {
		struct citcat_target_config cfg;
		citcat_target_config_default(&cfg);
		cfg.icache.line = 32;
		cfg.dcache.line = 32;
		cfg.timestamps = (uint32_t)ts;
		cfg.seed = 99;
		/* pass 0: only the D-cache random; pass 1: both */
		cfg.icache.repl = ts ? CITCAT_REPL_RANDOM : CITCAT_REPL_LRU;
		cfg.dcache.repl = CITCAT_REPL_RANDOM;
		sync_gi = ts ? 0x9e3779b9u : 0;
		sync_gd = 0xffffffffu;
		struct citcat_cat_writer *w;
		CHECK_EQ(citcat_cat_writer_open(&w, path, &cfg), 0);
		for (unsigned i = 0; i < N; i++) {
			struct citcat_cat_event e = mk(i);
			CHECK_EQ(citcat_cat_write(w, &e), 0);
		}
		CHECK_EQ(citcat_cat_writer_close(w), 0);
		struct citcat_cat_reader *r;
		CHECK_EQ(citcat_cat_reader_open(&r, path), 0);
		const struct citcat_target_config *rc = citcat_cat_config(r);
		CHECK(rc->seed == 99 && rc->timestamps == (uint32_t)ts && rc->dcache.size == 16384 && rc->pen_miss == 20);
		struct citcat_cat_event got;
		unsigned n = 0;
		int st;
		while ((st = citcat_cat_next(r, &got)) == 1) {
			struct citcat_cat_event want = mk(n);
			if (!same(&got, &want, ts)) {
				fprintf(stderr, "event %u (kind %u) differs\n", n, want.kind);
				CHECK(0);
				break;
			}
			n++;
		}
		CHECK_EQ(st, 0);
		CHECK_EQ(n, N);
		citcat_cat_reader_close(r);
	}

	/* Bad files. */
	FILE *f = fopen(path, "rb");
	fseek(f, 0, SEEK_END);
	long size = ftell(f);
	rewind(f);
	char *buf = malloc((size_t)size);
	CHECK(fread(buf, 1, (size_t)size, f) == (size_t)size);
	fclose(f);
	char bad[] = "/tmp/citcat-test-catbad-XXXXXX";
	close(mkstemp(bad));
	int code;
#define TRY(len, expect)                                  \
	do {                                              \
		FILE *g = fopen(bad, "wb");               \
		fwrite(buf, 1, (size_t)(len), g);         \
		fclose(g);                                \
		count_events(bad, &code);                 \
		CHECK_EQ(code, expect);                   \
	} while (0)
	TRY(0, CITCAT_ERR_EMPTY);
	TRY(5, CITCAT_ERR_TRUNCATED);
	TRY(size - 3, CITCAT_ERR_TRUNCATED);
	TRY(size / 2, CITCAT_ERR_TRUNCATED);
	buf[size / 2] ^= 1;
	TRY(size, CITCAT_ERR_CHECKSUM);
	buf[size / 2] ^= 1;
	buf[8] = CITCAT_CAT_VERSION + 1;
	TRY(size, CITCAT_ERR_VERSION);
	buf[8] = CITCAT_CAT_VERSION;
	memcpy(buf, "CITR", 4); /* an itrace is the wrong kind of file */
	TRY(size, CITCAT_ERR_MAGIC);
	memcpy(buf, "CCAT", 4);
	buf[16 + 8] = 0x7f; /* absurd RAM size in the header: caught by its checksum */
	TRY(size, CITCAT_ERR_CHECKSUM);
	free(buf);

	/* Records in a valid container (as fuzz_cat builds them), each case
	 * read to its first error: a delta that leaves the 32-bit address
	 * space is malformed (CAT.md; it used to overflow a signed sum,
	 * undefined behaviour, found by fuzz_cat); deltas to the edges are
	 * fine.  (SYNC's flags and P: test_sync_state.) */
	static const struct {
		uint8_t rec[16];
		size_t len;
		int events, code; /* events read before CODE (0: the end) */
	} cases[] = {
		/* IRQ to epc 1, then a delta of 2^63 - 1 */
		{{0x08, 0x00, 0x02, 0x08, 0x00, 0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}, 15, 1,
		 CITCAT_ERR_CORRUPT},
		/* IRQ to epc 0xffffffff, then back by 0xffffffff to 0 */
		{{0x08, 0x00, 0xfe, 0xff, 0xff, 0xff, 0x1f, 0x08, 0x00, 0xfd, 0xff, 0xff, 0xff, 0x1f}, 14, 2, 0},
		/* IRQ to epc 2^32 (an alias of 0) */
		{{0x08, 0x00, 0x80, 0x80, 0x80, 0x80, 0x20}, 7, 0, CITCAT_ERR_CORRUPT},
		/* a one-byte write 1 below address 0 */
		{{0x04, 0x01, 0x00}, 3, 0, CITCAT_ERR_CORRUPT},
		/* an uncached read at 0xffffffff, then one byte further */
		{{0x05, 0xfe, 0xff, 0xff, 0xff, 0x1f, 0x00, 0x05, 0x02, 0x00}, 10, 1, CITCAT_ERR_CORRUPT},
	};
	for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
		struct citcat_target_config cfg;
		citcat_target_config_default(&cfg);
		uint8_t meta[CITCAT_TARGET_META_LEN];
		citcat_target_config_encode(&cfg, meta);
		size_t blen = 0;
		uint8_t *b = wrap_container("CCAT\r\n\x1a\n", CITCAT_CAT_VERSION, meta, sizeof meta, cases[k].rec,
					    cases[k].len, (uint32_t)cases[k].events + (cases[k].code != 0), &blen);
		struct citcat_cat_reader *r;
		struct citcat_cat_event e;
		CHECK(b != NULL);
		CHECK_EQ(citcat_cat_reader_open_mem(&r, b, blen), 0);
		int st, n = 0;
		while ((st = citcat_cat_next(r, &e)) == 1)
			n++;
		if (n != cases[k].events || st != cases[k].code)
			fprintf(stderr, "case %zu: %d events then %d\n", k, n, st);
		CHECK_EQ(n, cases[k].events);
		CHECK_EQ(st, cases[k].code);
		citcat_cat_reader_close(r);
		free(b);
	}
	unlink(bad);
	unlink(path);
	test_sync_state(path);
	test_stop_fault(path);
	test_stop_m7_status(path);
	test_ckpt_marks(path);
	test_ckpt();
	unlink(path);
	CHECK_DONE();
}
