/* Round trips through the command-line tool:
 *   itrace -> din -> {pdats, pdats2} [+ .lz4, .zst, .tvp] -> din   must be identical,
 *   itrace -> {din, xdin}.tvp -> {din, xdin}                       likewise (TVP's model),
 *   itrace -> xdin -> pdats2 -> din                                likewise,
 * the din holds one reference per instruction and per data access, and an
 * LZ4-wrapped file unwraps with the stock `lz4 -d` to the plain file.
 *
 * usage: test_addr_roundtrip CITCAT [ITRACE...]
 * Without ITRACE files it writes synthetic ones (loops, calls, loads and
 * stores, load/store-multiple runs, interrupts, a 64-bit address) first.
 * tests/CMakeLists.txt's citcat_addr_roundtrip() registers it per trace. */
#include "check.h"
#include "itrace.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *citcat;
static char dir[] = "/tmp/citcat-rt-XXXXXX";

static int run(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int run(const char *fmt, ...)
{
	char cmd[4096];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(cmd, sizeof cmd, fmt, ap);
	va_end(ap);
	int rc = system(cmd);
	if (rc != 0)
		fprintf(stderr, "failed (%d): %s\n", rc, cmd);
	return rc;
}

static int same_file(const char *a, const char *b) { return run("cmp -s '%s' '%s'", a, b) == 0; }

static uint64_t x = 88172645463325252ull;
static uint64_t rnd(void) { return x ^= x << 13, x ^= x >> 7, x ^= x << 17; }

/* A synthetic program trace; returns the references it implies. */
static uint64_t synth_itrace(const char *path, unsigned long ninsn, int wide)
{
	struct citcat_itrace_writer *w;
	static struct citcat_itrace_rec r;
	uint64_t refs = 0, sp = 0x20008000, pc = 0x8000;
	if (citcat_itrace_writer_open(&w, path, CITCAT_ISA_ARM_A32))
		return 0;
	for (unsigned long i = 0; i < ninsn; i++) {
		memset(&r, 0, sizeof r);
		r.kind = CITCAT_REC_INSN;
		r.pc = pc;
		r.word = 0xe1a00000u + (uint32_t)(pc & 0xfff);
		unsigned k = (unsigned)(rnd() % 16);
		if (k < 3) { /* load or store */
			r.n_acc = 1;
			r.acc[0].addr = k == 0 ? sp + 4 * (rnd() % 8) : 0x20000000 + 4 * (rnd() % 512);
			r.acc[0].size = (uint8_t)(k == 2 ? 1 : 4);
			r.acc[0].write = (uint8_t)(rnd() & 1);
		} else if (k == 3 && rnd() % 4 == 0) { /* push/pop multiple: one access per word */
			r.n_acc = 2 + (unsigned)(rnd() % 7);
			int wr = rnd() & 1;
			for (unsigned a = 0; a < r.n_acc; a++) {
				r.acc[a].addr = sp - 4 * r.n_acc + 4 * a;
				r.acc[a].size = 4;
				r.acc[a].write = (uint8_t)wr;
			}
		} else if (k == 4 && wide && rnd() % 64 == 0) { /* a peripheral above 4 GiB */
			r.n_acc = 1;
			r.acc[0].addr = 0x100000000ull + 4 * (rnd() % 16);
			r.acc[0].size = 4;
		}
		refs += 1 + r.n_acc;
		if (citcat_itrace_write(w, &r))
			goto fail;
		if (k == 5 && rnd() % 8 == 0)
			pc = 0x8000 + 4 * (rnd() % 4096); /* call or jump */
		else if (k == 6 && rnd() % 2 == 0)
			pc -= 4 * (rnd() % 12); /* loop back */
		else
			pc += 4;
		if (rnd() % 2000 == 0) { /* interrupt: no reference of its own */
			memset(&r, 0, sizeof r);
			r.kind = CITCAT_REC_IRQ;
			r.line = 3;
			r.pc = pc;
			if (citcat_itrace_write(w, &r))
				goto fail;
			pc = 0x18;
		}
	}
	if (citcat_itrace_writer_close(w))
		return 0;
	return refs;
fail:
	citcat_itrace_writer_abort(w);
	return 0;
}

static uint64_t count_itrace_refs(const char *path)
{
	struct citcat_itrace_reader *r;
	static struct citcat_itrace_rec rec;
	uint64_t n = 0;
	if (citcat_itrace_reader_open(&r, path) == 0)
		while (citcat_itrace_next(r, &rec) == 1)
			if (rec.kind == CITCAT_REC_INSN || rec.kind == CITCAT_REC_IRQ) {
				/* the fetch, then the cacheable accesses; a Cortex-M7
				 * exception entry's accesses, no fetch (DIN.md) */
				n += rec.kind == CITCAT_REC_INSN;
				for (uint32_t i = 0; i < rec.n_acc; i++)
					n += !rec.acc[i].uncached;
			}
	citcat_itrace_reader_close(r);
	return n;
}

static uint64_t count_lines(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint64_t n = 0;
	int c;
	if (!f)
		return UINT64_MAX;
	while ((c = getc(f)) != EOF)
		n += c == '\n';
	fclose(f);
	return n;
}

static void roundtrip(const char *itrace)
{
	char din[600], out[600], back[600];
	snprintf(din, sizeof din, "%s/a.din", dir);
	CHECK_EQ(run("'%s' convert '%s' -o '%s'", citcat, itrace, din), 0);
	CHECK_EQ(count_lines(din), count_itrace_refs(itrace));
	static const char *via[] = {"pdats", "pdats2", "pdats.lz4", "pdats2.lz4", "pdats2.zst", "pdats.tvp", "pdats2.tvp",
				    "din.tvp"};
	for (int i = 0; i < 8; i++) {
		snprintf(out, sizeof out, "%s/b.%s", dir, via[i]);
		snprintf(back, sizeof back, "%s/c.din", dir);
		CHECK_EQ(run("'%s' convert '%s' -o '%s'", citcat, din, out), 0);
		CHECK_EQ(run("'%s' convert '%s' -o '%s'", citcat, out, back), 0);
		if (!same_file(din, back))
			fprintf(stderr, "%s: din -> %s -> din differs\n", itrace, via[i]), check_failures++;
		/* directly from the itrace, too (of the second tiers, TVP's model only:
		 * it must drop the fetch sizes the itrace gives) */
		if (i >= 4 && strcmp(via[i], "pdats2.tvp") != 0)
			continue;
		CHECK_EQ(run("'%s' convert '%s' -o '%s'", citcat, itrace, out), 0);
		CHECK_EQ(run("'%s' convert '%s' -o '%s'", citcat, out, back), 0);
		if (!same_file(din, back))
			fprintf(stderr, "%s: itrace -> %s -> din differs\n", itrace, via[i]), check_failures++;
		if (strstr(via[i], ".lz4") && run("command -v lz4 >/dev/null") == 0) {
			char plain[600], un[600];
			snprintf(plain, sizeof plain, "%s/p.%.*s", dir, (int)(strlen(via[i]) - 4), via[i]);
			snprintf(un, sizeof un, "%s/u.bin", dir);
			CHECK_EQ(run("'%s' convert '%s' -o '%s'", citcat, din, plain), 0);
			CHECK_EQ(run("lz4 -q -d -f '%s' '%s'", out, un), 0);
			if (!same_file(plain, un))
				fprintf(stderr, "%s: lz4 -d of %s differs from the plain file\n", itrace, via[i]),
					check_failures++;
		}
	}
	/* xdin (sizes, DMA copy-back and invalidate) through TVP's model */
	char x1[600], x2[600];
	snprintf(x1, sizeof x1, "%s/f.xdin", dir);
	snprintf(x2, sizeof x2, "%s/f.xdin.tvp", dir);
	CHECK_EQ(run("'%s' convert '%s' -o '%s'", citcat, itrace, x1), 0);
	CHECK_EQ(run("'%s' convert '%s' -o '%s'", citcat, itrace, x2), 0);
	CHECK_EQ(run("'%s' convert '%s' -o '%s.back.xdin'", citcat, x2, x1), 0);
	snprintf(x2, sizeof x2, "%s/f.xdin.back.xdin", dir);
	if (!same_file(x1, x2))
		fprintf(stderr, "%s: itrace -> xdin.tvp -> xdin differs\n", itrace), check_failures++;
	/* pdats <-> pdats2 directly, and the xdin route */
	char p1[600], p2[600];
	snprintf(p1, sizeof p1, "%s/d.pdats", dir);
	snprintf(p2, sizeof p2, "%s/d.pdats2", dir);
	CHECK_EQ(run("'%s' convert '%s' -o '%s'", citcat, din, p1), 0);
	CHECK_EQ(run("'%s' convert '%s' -o '%s'", citcat, p1, p2), 0);
	CHECK_EQ(run("'%s' convert '%s' -o '%s'", citcat, p2, back), 0);
	CHECK(same_file(din, back));
	snprintf(out, sizeof out, "%s/e.xdin", dir);
	CHECK_EQ(run("'%s' convert '%s' -o '%s'", citcat, itrace, out), 0);
	/* DMA transfers are xdin copy-back/invalidate pairs, which din cannot hold */
	CHECK_EQ(run("grep -v '^[cv] ' '%s' >'%s.core'; mv '%s.core' '%s'", out, out, out, out), 0);
	CHECK_EQ(run("'%s' convert '%s' -o '%s'", citcat, out, p2), 0);
	CHECK_EQ(run("'%s' convert '%s' -o '%s'", citcat, p2, back), 0);
	CHECK(same_file(din, back));
	/* info agrees on the count */
	CHECK_EQ(run("'%s' info --json '%s' | grep -q '\"refs\": %llu,'", citcat, p2,
		     (unsigned long long)count_itrace_refs(itrace)), 0);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: test_addr_roundtrip CITCAT [ITRACE...]\n");
		return 2;
	}
	citcat = argv[1];
	if (!mkdtemp(dir))
		return 2;
	if (argc > 2) {
		for (int i = 2; i < argc; i++)
			roundtrip(argv[i]);
	} else {
		char p[600];
		snprintf(p, sizeof p, "%s/synth32.itrace", dir);
		CHECK(synth_itrace(p, 200000, 0) > 0);
		roundtrip(p);
		snprintf(p, sizeof p, "%s/synth64.itrace", dir);
		CHECK(synth_itrace(p, 50000, 1) > 0);
		roundtrip(p);
		/* the 64-bit one must have come out as the 64-bit variant */
		CHECK_EQ(run("'%s' info --json '%s/d.pdats2' | grep -q '\"addr_bits\": 64'", citcat, dir), 0);
	}
	run("rm -rf '%s'", dir);
	CHECK_DONE();
}
