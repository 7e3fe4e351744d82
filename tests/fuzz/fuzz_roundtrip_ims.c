/* Round-trip fuzz target of the IMS encoder (roundtrip.h): read, write (E1),
 * read E1 to the same state (configuration, trace id, registers,
 * replacement states, memory byte for byte), write again (E2), E1 == E2
 * byte for byte.  An IMS is one state, so for the generic loop it is a
 * stream of one record (a pointer to the state read).  Inputs as for
 * fuzz_ims.c: a whole file ("CIMS"), or [nrec byte][runs] wrapped in a
 * container with the default target configuration (1 MiB RAM at 0x100000). */
#include "ims.h"
#include "roundtrip.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int same_memory(const struct citcat_image *a, const struct citcat_image *b)
{
	size_t n = citcat_image_segments(a);
	if (n != citcat_image_segments(b))
		return 0;
	for (size_t i = 0; i < n; i++) {
		uint64_t aa, al, ba, bl;
		const uint8_t *ad, *bd;
		citcat_image_segment(a, i, &aa, &al, &ad);
		citcat_image_segment(b, i, &ba, &bl, &bd);
		if (aa != ba || al != bl || memcmp(ad, bd, al) != 0)
			return 0;
	}
	return 1;
}

static int same(const void *pa, const void *pb)
{
	const struct citcat_ims *a = *(const struct citcat_ims *const *)pa, *b = *(const struct citcat_ims *const *)pb;
	return memcmp(&a->cfg, &b->cfg, sizeof a->cfg) == 0 && a->id.hash == b->id.hash &&
	       a->id.start_pc == b->id.start_pc && a->id.insns == b->id.insns &&
	       memcmp(&a->regs, &b->regs, sizeof a->regs) == 0 && a->repl_state[0] == b->repl_state[0] &&
	       a->repl_state[1] == b->repl_state[1] && a->sctlr == b->sctlr && same_memory(a->memory, b->memory);
}

struct ims_reader {
	struct citcat_ims ims;
	int ok, given;
};

static int opened(void **r, struct ims_reader *x, int rc)
{
	x->ok = rc == 0;
	*r = x;
	return rc;
}
static struct ims_reader *reader_alloc(void)
{
	struct ims_reader *x = calloc(1, sizeof *x);
	if (!x)
		abort();
	return x;
}
static int open_mem(void **r, const void *buf, size_t len)
{
	struct ims_reader *x = reader_alloc();
	struct citcat_errinfo e;
	return opened(r, x, citcat_ims_read_mem(buf, len, &x->ims, &e));
}
static int open_file(void **r, const char *path)
{
	struct ims_reader *x = reader_alloc();
	struct citcat_errinfo e;
	return opened(r, x, citcat_ims_read(path, &x->ims, &e));
}
static int next(void *r, void *rec)
{
	struct ims_reader *x = r;
	if (x->given)
		return 0;
	x->given = 1;
	*(struct citcat_ims **)rec = &x->ims;
	return 1;
}
static void close_r(void *r)
{
	struct ims_reader *x = r;
	if (x && x->ok)
		citcat_ims_fini(&x->ims);
	free(x);
}
static int writer_open(void **w, const char *path, void *r)
{
	(void)r;
	*w = strdup(path);
	return *w ? 0 : -1;
}
static int write_rec(void *w, const void *rec)
{
	struct citcat_errinfo e;
	return citcat_ims_write(*(struct citcat_ims *const *)rec, w, &e);
}
static int writer_close(void *w)
{
	free(w);
	return 0;
}
static void writer_abort(void *w) { free(w); }

static const struct rt_codec codec = {
	.e1 = "e1.ims", .e2 = "e2.ims", .rec_size = sizeof(struct citcat_ims *),
	.open_mem = open_mem, .open_file = open_file, .next = next, .close = close_r,
	.writer_open = writer_open, .write = write_rec, .writer_close = writer_close, .writer_abort = writer_abort,
	.same = same,
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size >= 4 && memcmp(data, "CIMS", 4) == 0) {
		rt_round_trip(&codec, data, size);
		return 0;
	}
	size_t len;
	uint8_t *b = wrap_ims_input(data, size, &len);
	if (b)
		rt_round_trip(&codec, b, len);
	free(b);
	return 0;
}
