/* The --verify CAT feed (replay/cat_feed.c): with its reader thread and
 * inline it hands out exactly what the CAT reader gives, in order, with the
 * reader's end or first error at the same position (and again after it);
 * the trace id's inputs are those IMS.md defines (the chained hash of the
 * events from SYNC to STOP, or from segment K's start marker to the next
 * one, worked out here with citcat_trace_hash_event directly); a segment's
 * IRQ and DMA branch counts are relative to its start; the thread pauses at
 * a segment's end and reads on when asked; closing it early never hangs. */
#include "cat.h"
#include "cat_feed.h"
#include "check.h"
#include "citcat/trace_id.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NEV 60000 /* events between SYNC and STOP: several 1 MiB chunks */
#define SEGS 3    /* with checkpoints: CKPTs after every NEV / SEGS events */

static uint8_t big[4096];

/* Event I of the test trace (1 <= I <= NEV), data in BUF. */
static struct citcat_cat_event mk(unsigned i, uint8_t *buf)
{
	struct citcat_cat_event e;
	memset(&e, 0, sizeof e);
	switch (i % 7) {
	case 0: case 1: case 2: case 3:
		e.kind = CITCAT_CAT_FILL_D;
		e.addr = 0x10000 + 32 * (i % 4096);
		e.len = 32;
		for (unsigned k = 0; k < 32; k++)
			buf[k] = (uint8_t)(i * 31 + k);
		e.data = buf;
		break;
	case 4:
		e.kind = CITCAT_CAT_WRITEBACK;
		e.addr = 0x20000 + 32 * (i % 512);
		e.len = 32;
		memset(buf, (int)(i & 0xff), 32);
		e.data = buf;
		break;
	case 5: /* a DMA of up to 4096 bytes: batches end early for them */
		e.kind = CITCAT_CAT_DMA;
		e.len = i % 5 == 0 ? 4096 : 1 + i % 200;
		e.addr = 0x30000;
		e.data = big;
		e.bcount = 10 + i;
		e.pc = 0x400 + 4 * (i % 16);
		break;
	default:
		e.kind = CITCAT_CAT_IRQ;
		e.line = (uint8_t)(i % 3);
		e.bcount = 10 + i;
		e.pc = 0x500 + 4 * (i % 8);
	}
	return e;
}

/* Writes the test CAT: START, SYNC, NEV events (with CKPT markers when
 * CKPT), STOP, and two events after it (read, not hashed). */
static void write_cat(const char *path, int ckpt)
{
	struct citcat_target_config cfg;
	citcat_target_config_default(&cfg);
	struct citcat_cat_writer *w;
	CHECK_EQ(citcat_cat_writer_open(&w, path, &cfg), 0);
	uint8_t buf[32];
	struct citcat_cat_event e = {.kind = CITCAT_CAT_START};
	CHECK_EQ(citcat_cat_write(w, &e), 0);
	e = (struct citcat_cat_event){.kind = CITCAT_CAT_SYNC, .pc = 0x100};
	CHECK_EQ(citcat_cat_write(w, &e), 0);
	for (unsigned i = 1; i <= NEV; i++) {
		if (ckpt && i % (NEV / SEGS) == 0) {
			e = (struct citcat_cat_event){.kind = CITCAT_CAT_CKPT, .pc = 0x200 + i, .insns = 5ull * i, .bcount = 10 + i};
			CHECK_EQ(citcat_cat_write(w, &e), 0);
		}
		e = mk(i, buf);
		CHECK_EQ(citcat_cat_write(w, &e), 0);
	}
	e = (struct citcat_cat_event){.kind = CITCAT_CAT_STOP, .insns = 5ull * NEV + 3, .bcount = 20 + NEV, .cycle = 99};
	CHECK_EQ(citcat_cat_write(w, &e), 0);
	for (unsigned i = 1; i <= 2; i++) {
		e = mk(i, buf);
		CHECK_EQ(citcat_cat_write(w, &e), 0);
	}
	CHECK_EQ(citcat_cat_writer_close(w), 0);
}

static int same_event(const struct citcat_cat_event *a, const struct citcat_cat_event *b)
{
	return a->kind == b->kind && a->size == b->size && a->line == b->line && a->addr == b->addr && a->value == b->value &&
	       a->len == b->len && (!a->len || memcmp(a->data, b->data, a->len) == 0) && a->bcount == b->bcount &&
	       a->pc == b->pc && a->insns == b->insns && a->repl_state[0] == b->repl_state[0] &&
	       a->repl_state[1] == b->repl_state[1];
}

/* Feeds PATH's segment SEG (-1: the whole trace) with the thread on or off
 * against a plain reader of the same file, event by event, up to the end
 * or the first error; then checks the trace id's inputs against a hash
 * worked out here.  Returns the number of events before the end. */
static uint64_t check_feed(const char *path, int64_t seg, int threaded, int *final_rc, uint64_t *err_off)
{
	cat_feed_thread = threaded;
	struct citcat_cat_reader *fr = NULL, *pr = NULL;
	int orc = citcat_cat_reader_open(&fr, path);
	CHECK_EQ(citcat_cat_reader_open(&pr, path), orc);
	if (orc) { /* a corrupt header: the replay reports it before any feed */
		*final_rc = orc;
		*err_off = citcat_cat_reader_error(fr)->offset;
		citcat_cat_reader_close(fr);
		citcat_cat_reader_close(pr);
		return 0;
	}
	if (seg > 0)
		CHECK_EQ(citcat_cat_reader_seek_segment(pr, (uint64_t)seg), 1);
	struct cat_feed *f;
	CHECK_EQ(cat_feed_open(&f, fr, seg), 0);
	cat_feed_thread = 1;
	uint64_t n = 0, hash = 0, insns = 0, bcount = 0, base_i = 0, base_b = 0, markers = seg > 0 ? (uint64_t)seg : 0;
	uint32_t start = 0;
	int in = 0, out = 0, synced = 0, stopped = 0, rc, prc;
	const struct citcat_cat_event *ev;
	struct citcat_cat_event pe;
	for (;;) {
		rc = cat_feed_next(f, &ev, &synced, &stopped);
		prc = citcat_cat_next(pr, &pe);
		CHECK_EQ(rc, prc);
		if (rc != 1 || prc != 1)
			break;
		n++;
		/* the trace id as IMS.md defines it */
		int marker = pe.kind == CITCAT_CAT_SYNC || pe.kind == CITCAT_CAT_CKPT;
		if (seg < 0 ? pe.kind == CITCAT_CAT_SYNC && !in : marker && markers == (uint64_t)seg && !in) {
			in = 1;
			start = pe.pc;
			base_i = pe.kind == CITCAT_CAT_CKPT ? pe.insns : 0;
			base_b = pe.kind == CITCAT_CAT_CKPT ? pe.bcount : 0;
			hash = citcat_trace_hash_event(0, &pe);
		} else if (in && !out) {
			hash = citcat_trace_hash_event(hash, &pe);
			if (seg < 0 ? pe.kind == CITCAT_CAT_STOP : marker || pe.kind == CITCAT_CAT_STOP) {
				out = 1;
				insns = pe.insns - base_i;
				bcount = pe.bcount - base_b;
			}
		}
		if (marker)
			markers++;
		CHECK_EQ(synced, in);
		CHECK_EQ(stopped, out);
		if (seg > 0 && (pe.kind == CITCAT_CAT_IRQ || pe.kind == CITCAT_CAT_DMA))
			pe.bcount -= base_b;
		if (!same_event(ev, &pe)) {
			fprintf(stderr, "event %llu differs (kind %u / %u)\n", (unsigned long long)n, ev->kind, pe.kind);
			CHECK(0);
			break;
		}
	}
	*final_rc = rc;
	*err_off = rc < 0 ? citcat_cat_reader_error(cat_feed_reader(f))->offset : 0;
	if (rc < 0) {
		CHECK_EQ(citcat_cat_reader_error(cat_feed_reader(f))->offset, citcat_cat_reader_error(pr)->offset);
		CHECK(strcmp(citcat_cat_reader_error(cat_feed_reader(f))->msg, citcat_cat_reader_error(pr)->msg) == 0);
	}
	/* the end or error again at every later call */
	CHECK_EQ(cat_feed_next(f, &ev, &synced, &stopped), rc);
	CHECK_EQ(cat_feed_next(f, &ev, &synced, &stopped), rc);
	if (out) {
		const struct cat_feed_id *id = cat_feed_id(f);
		CHECK(id->hash == hash);
		CHECK_EQ(id->insns, insns);
		CHECK_EQ(id->bcount, bcount);
		CHECK_EQ(id->start, start);
	}
	cat_feed_close(f);
	citcat_cat_reader_close(pr);
	return n;
}

/* Flips one byte at OFF of SRC into DST. */
static void corrupt(const char *src, const char *dst, long off)
{
	FILE *in = fopen(src, "rb"), *out = fopen(dst, "wb");
	CHECK(in && out);
	int c, pos = 0;
	while ((c = getc(in)) != EOF)
		putc(pos++ == off ? c ^ 0x40 : c, out);
	fclose(in);
	fclose(out);
}

static long file_size(const char *path)
{
	FILE *f = fopen(path, "rb");
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fclose(f);
	return n;
}

int main(void)
{
	char dir[] = "/tmp/citcat-catfeed-XXXXXX", plain[64], seg[64], bad[64];
	if (!mkdtemp(dir))
		return 1;
	snprintf(plain, sizeof plain, "%s/plain.cat", dir);
	snprintf(seg, sizeof seg, "%s/seg.cat", dir);
	snprintf(bad, sizeof bad, "%s/bad.cat", dir);
	for (unsigned k = 0; k < sizeof big; k++)
		big[k] = (uint8_t)(k * 7 + (k >> 8));
	write_cat(plain, 0);
	write_cat(seg, 1);

	/* the whole trace, both ways: every event (START, SYNC, NEV, STOP, the
	 * two after it), then the end */
	for (int t = 0; t <= 1; t++) {
		int rc;
		uint64_t off;
		CHECK_EQ(check_feed(plain, -1, t, &rc, &off), NEV + 5);
		CHECK_EQ(rc, 0);
		CHECK_EQ(check_feed(seg, -1, t, &rc, &off), NEV + 5 + SEGS);
		CHECK_EQ(rc, 0);
		/* segments: 0 from SYNC, 1 and 2 seeked to; the feed reads on past
		 * the segment's end marker only when asked (here: to the end) */
		for (int64_t s = 0; s < SEGS; s++) {
			uint64_t n = check_feed(seg, s, t, &rc, &off);
			CHECK_EQ(rc, 0);
			CHECK(n > 0);
		}
	}

	/* a corrupt byte anywhere: the same events, then the same error at the
	 * same offset, whether the thread reads or not */
	long size = file_size(plain);
	for (long off = 16; off < size; off += size / 23 + 1) {
		corrupt(plain, bad, off);
		int rc0, rc1;
		uint64_t o0, o1;
		uint64_t n0 = check_feed(bad, -1, 0, &rc0, &o0), n1 = check_feed(bad, -1, 1, &rc1, &o1);
		CHECK_EQ(n0, n1);
		CHECK_EQ(rc0, rc1);
		CHECK_EQ(o0, o1);
		if (off > 200) /* past the header: an error inside the events */
			CHECK(rc0 < 0);
	}

	/* closed early: before any event, after a few, mid-segment */
	for (int k = 0; k < 3; k++) {
		struct citcat_cat_reader *r;
		CHECK_EQ(citcat_cat_reader_open(&r, seg), 0);
		struct cat_feed *f;
		CHECK_EQ(cat_feed_open(&f, r, k - 1), 0);
		const struct citcat_cat_event *ev;
		int synced = 0, stopped = 0;
		for (int i = 0; i < k * 3000; i++)
			CHECK_EQ(cat_feed_next(f, &ev, &synced, &stopped), 1);
		cat_feed_close(f);
	}
	cat_feed_close(NULL);
	remove(plain);
	remove(seg);
	remove(bad);
	rmdir(dir);
	CHECK_DONE();
}
