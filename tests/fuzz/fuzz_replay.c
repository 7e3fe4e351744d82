/* Fuzz target: the replayer on container-valid IMS/AES pairs.  The input is
 * a recipe (replay_recipe.h): registers, memory runs, AES records and
 * instruction counts, from which the IMS and AES are written with the
 * library's own writers.  Whatever the recipe, the replay must end within
 * its instruction count (at most MAX_INSNS) in one of three ways:
 *  - exact (0): every instruction of the interval replayed, the AES used up
 *    to its END record; with an output, the itrace reads back with exactly
 *    that many instruction and interrupt records;
 *  - a divergence (CITCAT_ERR_DIVERGED), with the check named;
 *  - an input error with a message: the pair is unusable as a recording
 *    (bad configuration, memory or DMA outside RAM, missing END, records
 *    after END).  A checksum, magic or version error would mean the
 *    library's reader rejects what its writer wrote, and an internal,
 *    Unicorn or caller-mistake code a bug: both abort.
 * In every failure case no output file is left behind.
 * With CITCAT_FUZZ_EXPECT_EXACT set in the environment, anything but an
 * exact replay aborts (the test that keeps the real seeds deep). */
#include "aes.h"
#include "ims.h"
#include "itrace.h"
#include "replay.h"
#include "replay_recipe.h"
#include "tmpdir.h"

#include <stdarg.h>
#include <sys/mman.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_INSNS 40000u
#define MAX_RAM (16u << 20)
#define MAX_CACHE (1u << 20)

__attribute__((format(printf, 1, 2), noreturn)) static void die(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

struct cur {
	const uint8_t *p;
	size_t n;
	int eof; /* a read ran past the end */
};

static uint32_t get(struct cur *c, unsigned bytes)
{
	uint32_t v = 0;
	if (c->n < bytes) {
		c->eof = 1;
		c->n = 0;
		return 0;
	}
	for (unsigned i = 0; i < bytes; i++)
		v |= (uint32_t)c->p[i] << (8 * i);
	c->p += bytes;
	c->n -= bytes;
	return v;
}

/* Builds the IMS memory from the runs: a copy of RAM (zero pages mapped
 * from the kernel, so only the pages the runs touch are ever faulted in) and the list of runs given,
 * then one image segment per stretch the runs cover (adding run by run
 * would merge segments over and over). */
struct span {
	uint32_t off, len;
};

static int span_cmp(const void *a, const void *b)
{
	const struct span *x = a, *y = b;
	return x->off < y->off ? -1 : x->off > y->off;
}

static int build_memory(struct cur *c, const struct citcat_target_config *cfg, struct citcat_image *img)
{
	unsigned nruns = get(c, 2), n = 0;
	uint8_t *ram = mmap(NULL, cfg->ram_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct span *sp = malloc((nruns + 1) * sizeof *sp);
	if (ram == MAP_FAILED || !sp)
		die("out of memory");
	for (unsigned i = 0; i < nruns && !c->eof; i++) {
		uint32_t off = get(c, 4) % cfg->ram_size, v = get(c, 2);
		uint32_t len = v & 0x7fff, fill = v & 0x8000;
		if (len > cfg->ram_size - off)
			len = cfg->ram_size - off;
		if (fill) {
			uint8_t b = (uint8_t)get(c, 1);
			if (c->eof)
				break;
			memset(ram + off, b, len);
		} else {
			if (len > c->n)
				len = (uint32_t)c->n; /* the input ends inside the run */
			memcpy(ram + off, c->p, len);
			c->p += len;
			c->n -= len;
		}
		if (len)
			sp[n++] = (struct span){off, len};
	}
	qsort(sp, n, sizeof *sp, span_cmp);
	int rc = 0;
	for (unsigned i = 0; i < n && !rc;) {
		uint64_t a = sp[i].off, e = a + sp[i].len;
		for (i++; i < n && sp[i].off <= e; i++)
			if (sp[i].off + (uint64_t)sp[i].len > e)
				e = sp[i].off + (uint64_t)sp[i].len;
		rc = citcat_image_add(img, cfg->ram_base + a, ram + a, (size_t)(e - a));
	}
	munmap(ram, cfg->ram_size);
	free(sp);
	return rc;
}

/* Writes the AES records of the rest of the recipe.  Returns 0, or < 0 when
 * the writer refused a record (the recipe is then skipped). */
static int write_aes(struct cur *c, struct citcat_aes_writer *w)
{
	static uint8_t dma[4096];
	struct citcat_aes_rec last = {0};
	int have_last = 0;
	while (c->n) {
		struct citcat_aes_rec r = {0};
		unsigned k = get(c, 1) % 8;
		r.kind = (uint8_t)k;
		switch (k) {
		case RK_IRQ:
			r.line = (uint8_t)(get(c, 1) % 16);
			r.pc = get(c, 4);
			r.bcount = get(c, 4);
			break;
		case RK_DMA:
			r.addr = get(c, 4);
			r.pc = get(c, 4);
			r.bcount = get(c, 4);
			r.len = get(c, 2) % 4096 + 1;
			if (r.len > c->n)
				return c->eof = 1, 0;
			memcpy(dma, c->p, r.len);
			c->p += r.len;
			c->n -= r.len;
			r.data = dma;
			break;
		case RK_INPUT:
		case RK_OUTPUT:
		case RK_COUNTER:
			r.addr = get(c, 4);
			r.size = (uint8_t)(1u << (get(c, 1) % 3));
			r.value = get(c, 4);
			if (r.size < 4)
				r.value &= (1u << (8 * r.size)) - 1;
			break;
		case RK_END:
			r.insns = get(c, 4);
			r.bcount = get(c, 4);
			r.line = (uint8_t)(get(c, 1) % 3);
			break;
		case RK_REPEAT: {
			unsigned n = get(c, 2) + 1;
			if (c->eof)
				return 0;
			for (unsigned i = 0; have_last && i < n; i++)
				if (citcat_aes_write(w, &last))
					return -1;
			continue;
		}
		default:
			continue;
		}
		if (c->eof)
			return 0; /* a record cut off by the end of the input is dropped */
		if (citcat_aes_write(w, &r))
			return -1;
		if (k >= RK_INPUT && k <= RK_COUNTER) {
			last = r;
			have_last = 1;
		}
	}
	return 0;
}

static int input_error(int rc)
{
	return rc == CITCAT_ERR_CORRUPT || rc == CITCAT_ERR_TRUNCATED || rc == CITCAT_ERR_LIMIT ||
	       rc == CITCAT_ERR_UNSUPPORTED;
}

/* The regenerated itrace holds exactly the replayed instructions and
 * interrupts. */
static void check_output(const char *path, const struct citcat_replay_result *res)
{
	static struct citcat_itrace_rec rec;
	struct citcat_itrace_reader *r;
	uint64_t insns = 0, irqs = 0;
	int rc = citcat_itrace_reader_open(&r, path);
	if (rc == 0)
		while ((rc = citcat_itrace_next(r, &rec)) == 1)
			rec.kind == CITCAT_REC_IRQ ? irqs++ : rec.kind == CITCAT_REC_INSN ? insns++ : 0; /* STOP: an abnormal end */
	if (rc)
		die("the regenerated itrace does not read back: %s", citcat_itrace_reader_error(r)->msg);
	citcat_itrace_reader_close(r);
	if (insns != res->insns || irqs != res->irqs)
		die("the itrace holds %llu instructions and %llu interrupts, the replay reported %llu and %llu",
		    (unsigned long long)insns, (unsigned long long)irqs, (unsigned long long)res->insns,
		    (unsigned long long)res->irqs);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char *ims_path, *aes_path, *out_path;
	static int expect_exact = -1;
	if (!ims_path) {
		ims_path = fuzz_path("in.ims");
		aes_path = fuzz_path("in.aes");
		out_path = fuzz_path("out.itrace");
		expect_exact = getenv("CITCAT_FUZZ_EXPECT_EXACT") != NULL;
	}
	if (size < RECIPE_HEADER)
		return 0;
	struct cur c = {data, size, 0};
	unsigned flags = get(&c, 1);
	struct citcat_ims ims = {0};
	const char *why;
	if (citcat_target_config_decode(c.p, 96, &ims.cfg, &why))
		return 0; /* the IMS reader's business (fuzz_ims) */
	c.p += 96;
	c.n -= 96;
	if (ims.cfg.ram_size > MAX_RAM)
		ims.cfg.ram_size = MAX_RAM; /* bounded time and memory per input */
	if (ims.cfg.icache.size > MAX_CACHE || ims.cfg.dcache.size > MAX_CACHE)
		return 0;
	uint32_t total = get(&c, 4);
	if (total > MAX_INSNS)
		total %= MAX_INSNS + 1;
	for (int i = 0; i < ARM_SLOTS; i++)
		ims.regs.slot[i] = get(&c, 4);
	ims.repl_state[0] = get(&c, 4);
	ims.repl_state[1] = get(&c, 4);
	/* a generator state only for a cache with random replacement, never 0
	 * there (IMS.md): the IMS writer refuses anything else, which is the
	 * IMS reader's business (fuzz_ims), not the replayer's */
	for (int k = 0; k < 2; k++) {
		const struct citcat_cache_config *cc = k ? &ims.cfg.dcache : &ims.cfg.icache;
		if (cc->repl != CITCAT_REPL_RANDOM)
			ims.repl_state[k] = 0;
		else if (!ims.repl_state[k])
			ims.repl_state[k] = 1;
	}
	ims.id.hash = 0x63697463617466ull; /* any value both files share */
	ims.id.start_pc = ims.regs.slot[ARM_SLOT_PC];
	ims.id.insns = total;
	if (citcat_image_alloc(&ims.memory))
		die("out of memory");
	struct citcat_errinfo err = {0};
	struct citcat_aes_writer *w = NULL;
	struct citcat_trace_id aid = ims.id;
	if (flags & RECIPE_FLAG_MISMATCH)
		aid.hash ^= 1;
	if (build_memory(&c, &ims.cfg, ims.memory) || citcat_aes_writer_open(&w, aes_path, &aid, &ims.cfg))
		die("cannot build the IMS memory or open the AES writer");
	if (write_aes(&c, w)) {
		citcat_aes_writer_abort(w);
		citcat_ims_fini(&ims);
		return 0;
	}
	if (citcat_aes_writer_close(w) || citcat_ims_write(&ims, ims_path, &err))
		die("writing the AES or the IMS failed: %s", err.msg);
	citcat_ims_fini(&ims);

	struct citcat_replay_config cfg;
	citcat_replay_config_default(&cfg);
	cfg.ims_path = ims_path;
	cfg.aes_path = aes_path;
	cfg.out_path = flags & RECIPE_FLAG_OUT ? out_path : NULL;
	struct citcat_replay_result res;
	unlink(out_path);
	int rc = citcat_replay_run(&cfg, &res, &err);
	if (res.insns > total)
		die("replayed %llu instructions of an interval of %u", (unsigned long long)res.insns, total);
	if (rc == 0) {
		if (res.diverged || res.insns != total)
			die("exact, but diverged %d after %llu of %u instructions", res.diverged,
			    (unsigned long long)res.insns, total);
		if (cfg.out_path)
			check_output(out_path, &res);
		return 0;
	}
	if (rc == CITCAT_ERR_DIVERGED) {
		if (!res.diverged || !res.div.check)
			die("a divergence without a report");
	} else if (!input_error(rc) || !err.msg[0]) {
		die("replay ended with %d (%s): %s", rc, citcat_errstr(rc), err.msg);
	}
	if (fuzz_exists(out_path))
		die("an output was left behind after %d", rc);
	if (expect_exact)
		die("expected an exact replay, got %s: %s", citcat_errstr(rc),
		    rc == CITCAT_ERR_DIVERGED ? res.div.check : err.msg);
	return 0;
}
