/* Tampering with the IMS or AES of a real capture is caught where it
 * happens.  Each case rewrites one thing through the library's writers
 * (aes/aes.h, ims/ims.h), replays through the library to check where the
 * divergence is reported, then through `citcat replay` to check the exit
 * status, the report and that no output trace is left behind.
 *
 * Usage: test_replay CITCAT EXAMPLES_DIR WORK_DIR
 * EXAMPLES_DIR holds the fixture captures sched.cat/.itrace (interrupts,
 * device input) and crc32.cat/.itrace (DMA), made with --seed 1. */
#include "aes.h"
#include "check.h"
#include "ims.h"
#include "itrace.h"
#include "replay.h"

#include <dirent.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *citcat, *exdir, *work, *fwdir; /* fwdir: the firmware ELFs (optional) */

static char *path(const char *name, const char *suffix)
{
	static char buf[8][1024];
	static int k;
	char *p = buf[k++ & 7];
	snprintf(p, sizeof buf[0], "%s/%s%s", work, name, suffix);
	return p;
}

static char *expath(const char *name, const char *suffix)
{
	static char buf[4][1024];
	static int k;
	char *p = buf[k++ & 3];
	snprintf(p, sizeof buf[0], "%s/%s%s", exdir, name, suffix);
	return p;
}

static int exists(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0;
}

/* True when WORK holds a temporary file of an outfile (PATH.tmp-XXXXXX). */
static int temp_left(void)
{
	DIR *d = opendir(work);
	int found = 0;
	struct dirent *e;
	while (d && (e = readdir(d)))
		if (strstr(e->d_name, ".tmp-"))
			found = 1;
	if (d)
		closedir(d);
	return found;
}

/* Runs citcat with ARGV (NULL-terminated, without the program), standard
 * error into ERRBUF.  Returns the exit status, or -1. */
static int run_cli(const char *const *args, char *errbuf, size_t n)
{
	const char *errfile = path("cli", ".stderr");
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		const char *argv[32];
		int k = 0;
		argv[k++] = citcat;
		for (int i = 0; args[i] && k < 31; i++)
			argv[k++] = args[i];
		argv[k] = NULL;
		int fd = open(errfile, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		int nul = open("/dev/null", O_WRONLY);
		if (fd < 0 || nul < 0)
			_exit(127);
		dup2(fd, 2);
		dup2(nul, 1);
		execv(citcat, (char *const *)argv);
		_exit(127);
	}
	int st;
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -1;
	FILE *f = fopen(errfile, "rb");
	size_t got = f ? fread(errbuf, 1, n - 1, f) : 0;
	errbuf[got] = 0;
	if (f)
		fclose(f);
	return WEXITSTATUS(st);
}

/* ---- the ground truth: positions in the oracle ---- */

/* Walks the oracle with the branch-counter rule of TARGET.md.  Stops at the
 * boundary (BCOUNT, PC) of an IRQ (want_irq) or of an instruction (DMA),
 * returning the number of instructions before it, or -1. */
static int64_t oracle_boundary(const char *oracle, uint64_t bcount, uint32_t pc, int want_irq)
{
	struct citcat_itrace_reader *r;
	if (citcat_itrace_reader_open(&r, oracle)) {
		citcat_itrace_reader_close(r);
		return -1;
	}
	static struct citcat_itrace_rec rec;
	uint64_t bc = 0, idx = 0;
	int first = 1, skip = 0;
	uint64_t expect = 0;
	int64_t found = -1;
	while (citcat_itrace_next(r, &rec) == 1) {
		if (first) { /* the first record is the instruction at P */
			expect = rec.pc;
			first = 0;
		}
		if (!skip && rec.pc != expect)
			bc++;
		if (rec.kind == CITCAT_REC_IRQ) {
			skip = 1;
			expect = rec.pc; /* the EPC boundary was counted once */
			if (want_irq && bc == bcount && rec.pc == pc) {
				found = (int64_t)idx;
				break;
			}
			continue;
		}
		skip = 0;
		if (!want_irq && bc == bcount && rec.pc == pc) {
			found = (int64_t)idx;
			break;
		}
		idx++;
		expect = rec.pc + 4;
	}
	citcat_itrace_reader_close(r);
	return found;
}

/* The last interrupt entry of the oracle before instruction BEFORE: the
 * instructions before it, its line and EPC; -1 when there is none. */
static int64_t oracle_last_irq(const char *oracle, uint64_t before, unsigned *line, uint32_t *epc)
{
	struct citcat_itrace_reader *r;
	if (citcat_itrace_reader_open(&r, oracle)) {
		citcat_itrace_reader_close(r);
		return -1;
	}
	static struct citcat_itrace_rec rec;
	uint64_t idx = 0;
	int64_t found = -1;
	while (idx < before && citcat_itrace_next(r, &rec) == 1) {
		if (rec.kind == CITCAT_REC_IRQ) {
			found = (int64_t)idx;
			*line = rec.line;
			*epc = (uint32_t)rec.pc;
		} else {
			idx++;
		}
	}
	citcat_itrace_reader_close(r);
	return found;
}

/* The oracle instruction making the Nth (0-based) device access of kind
 * WRITE at an address that is not (COUNTER) / is the cycle counter: its index
 * and PC.  Device accesses are those at DEV_BASE and above. */
static int64_t oracle_device_access(const char *oracle, const struct citcat_target_config *cfg, uint64_t n,
				    uint32_t *pc)
{
	struct citcat_itrace_reader *r;
	if (citcat_itrace_reader_open(&r, oracle)) {
		citcat_itrace_reader_close(r);
		return -1;
	}
	static struct citcat_itrace_rec rec;
	uint64_t idx = 0, seen = 0;
	int64_t found = -1;
	while (found < 0 && citcat_itrace_next(r, &rec) == 1) {
		if (rec.kind != CITCAT_REC_INSN)
			continue;
		for (uint32_t k = 0; k < rec.n_acc; k++) {
			const struct citcat_access *a = &rec.acc[k];
			if (a->write || a->addr < cfg->dev_base || citcat_aes_is_counter(cfg, (uint32_t)a->addr))
				continue;
			if (seen++ == n) {
				found = (int64_t)idx;
				*pc = (uint32_t)rec.pc;
			}
		}
		idx++;
	}
	citcat_itrace_reader_close(r);
	return found;
}

/* The first instruction that reads RAM: its index, PC and the address. */
static int64_t oracle_first_ram_read(const char *oracle, const struct citcat_target_config *cfg, uint32_t *pc,
				     uint32_t *addr)
{
	struct citcat_itrace_reader *r;
	if (citcat_itrace_reader_open(&r, oracle)) {
		citcat_itrace_reader_close(r);
		return -1;
	}
	static struct citcat_itrace_rec rec;
	uint64_t idx = 0;
	int64_t found = -1;
	while (found < 0 && citcat_itrace_next(r, &rec) == 1) {
		if (rec.kind != CITCAT_REC_INSN)
			continue;
		for (uint32_t k = 0; k < rec.n_acc && found < 0; k++)
			if (!rec.acc[k].write && rec.acc[k].addr < (uint64_t)cfg->ram_base + cfg->ram_size) {
				found = (int64_t)idx;
				*pc = (uint32_t)rec.pc;
				*addr = (uint32_t)rec.acc[k].addr;
			}
		idx++;
	}
	citcat_itrace_reader_close(r);
	return found;
}

/* ---- rewriting an AES ---- */

/* Called for every record with its 0-based number among records of its
 * kind; returns 0 to drop it.  May modify *REC. */
typedef int (*aes_edit_fn)(struct citcat_aes_rec *rec, uint64_t nth, void *ctx);

static int copy_aes(const char *src, const char *dst, const struct citcat_target_config *cfg, aes_edit_fn fn,
		    void *ctx)
{
	struct citcat_aes_reader *r;
	struct citcat_aes_writer *w = NULL;
	int rc = citcat_aes_reader_open(&r, src);
	if (!rc)
		rc = citcat_aes_writer_open(&w, dst, citcat_aes_trace_id(r), cfg);
	uint64_t nth[CITCAT_AES_KINDS] = {0};
	struct citcat_aes_rec rec;
	while (!rc && (rc = citcat_aes_next(r, &rec)) == 1) {
		rc = 0;
		if (fn(&rec, nth[rec.kind]++, ctx))
			rc = citcat_aes_write(w, &rec);
	}
	if (!rc)
		rc = citcat_aes_writer_close(w);
	else
		citcat_aes_writer_abort(w);
	citcat_aes_reader_close(r);
	return rc;
}

struct edit {
	unsigned kind;
	uint64_t nth;
	int drop;
	struct citcat_aes_rec orig; /* the record as it was */
};

static int edit_one(struct citcat_aes_rec *rec, uint64_t nth, void *ctx)
{
	struct edit *e = ctx;
	if (rec->kind != e->kind || nth != e->nth)
		return 1;
	e->orig = *rec;
	e->orig.data = NULL;
	if (e->drop)
		return 0;
	if (rec->kind == CITCAT_AES_IRQ)
		rec->bcount++;
	else
		rec->value ^= 0x1;
	return 1;
}

/* ---- running the replay ---- */

static int replay_engine(const char *ims, const char *aes, const char *cat, const char *oracle, unsigned engine,
			 struct citcat_replay_result *res)
{
	struct citcat_replay_config c;
	citcat_replay_config_default(&c);
	c.ims_path = ims;
	c.aes_path = aes;
	c.verify_cat = cat;
	c.oracle = oracle;
	c.engine = engine;
	struct citcat_errinfo err;
	int rc = citcat_replay_run(&c, res, &err);
	if (rc && rc != CITCAT_ERR_DIVERGED)
		fprintf(stderr, "replay error %d: %s\n", rc, err.msg);
	return rc;
}

/* The same divergence, and the same history of the last instructions
 * before it, from engine ENGINE as in D (the block engine writes its
 * history ring only when it is read: replay.c, hist_flush) */
static void same_report(const char *ims, const char *aes, const char *cat, const char *oracle, unsigned engine,
			const struct citcat_divergence *d)
{
	struct citcat_replay_result r;
	CHECK_EQ(replay_engine(ims, aes, cat, oracle, engine, &r), CITCAT_ERR_DIVERGED);
	const struct citcat_divergence *e = &r.div;
	CHECK(e->check && d->check && strcmp(e->check, d->check) == 0);
	CHECK_EQ(e->insn_index, d->insn_index);
	CHECK_EQ(e->bcount, d->bcount);
	CHECK_EQ(e->pc, d->pc);
	CHECK_EQ(e->nhist, d->nhist);
	for (unsigned i = 0; i < d->nhist && i < e->nhist; i++) {
		CHECK_EQ(e->hist_index[i], d->hist_index[i]);
		CHECK_EQ(e->hist_pc[i], d->hist_pc[i]);
		CHECK_EQ(e->hist_word[i], d->hist_word[i]);
		CHECK_EQ(e->hist_size[i], d->hist_size[i]);
		CHECK_EQ(e->hist_thumb[i], d->hist_thumb[i]);
	}
}

/* A replay with the default engine; a divergence it reports must be the
 * same, history included, under the insn and the block engine. */
static int replay_lib(const char *ims, const char *aes, const char *cat, const char *oracle,
		      struct citcat_replay_result *res)
{
	int rc = replay_engine(ims, aes, cat, oracle, CITCAT_REPLAY_ENGINE_AUTO, res);
	if (rc == CITCAT_ERR_DIVERGED) {
		same_report(ims, aes, cat, oracle, CITCAT_REPLAY_ENGINE_INSN, &res->div);
		same_report(ims, aes, cat, oracle, CITCAT_REPLAY_ENGINE_BLOCK, &res->div);
	}
	return rc;
}

static void show(const char *what, const struct citcat_replay_result *res)
{
	const struct citcat_divergence *d = &res->div;
	printf("%s: %s check at instruction #%llu (branch count %llu, pc 0x%08x)\n  expected: %s\n  found:    %s\n",
	       what, d->check, (unsigned long long)d->insn_index, (unsigned long long)d->bcount, d->pc, d->expected,
	       d->found);
}

/* The CLI on the tampered pair: exit 1, the report names the check, index,
 * branch count, PC, expected and found, lists disassembled instructions, and
 * leaves no output trace. */
static void check_cli(const char *name, const char *ims, const char *aes, const struct citcat_divergence *d)
{
	char err[8192], want[200];
	const char *out = path("tampered", ".itrace");
	remove(out);
	const char *args[] = {"replay", ims, aes, "-o", out, "--verify", expath(name, ".cat"), "--oracle",
			      expath(name, ".itrace"), NULL};
	int rc = run_cli(args, err, sizeof err);
	CHECK_EQ(rc, 1);
	CHECK(strstr(err, "DIVERGED") != NULL);
	snprintf(want, sizeof want, "%s check failed at instruction #%llu (branch count %llu, pc 0x%08x)", d->check,
		 (unsigned long long)d->insn_index, (unsigned long long)d->bcount, d->pc);
	CHECK(strstr(err, want) != NULL);
	CHECK(strstr(err, "expected: ") != NULL && strstr(err, "found:    ") != NULL);
	/* disassembled history lines: "#index 0xPC: WORD  mnemonic" */
	if (d->nhist) { /* none before the first instruction */
		CHECK(strstr(err, "last instructions before it") != NULL);
		char hist[64];
		snprintf(hist, sizeof hist, "#%-10llu 0x%08x: %08x  ", (unsigned long long)d->hist_index[d->nhist - 1],
			 d->hist_pc[d->nhist - 1], d->hist_word[d->nhist - 1]);
		const char *h = strstr(err, hist);
		CHECK(h && h[strlen(hist)] >= 'a' && h[strlen(hist)] <= 'z'); /* a mnemonic */
	}
	CHECK(!exists(out));
	CHECK(!temp_left());
	/* issue 12: the register file (pc as the library read it), the last
	 * interrupt entry, the data diff */
	char line[200];
	if (d->have_regs) {
		snprintf(line, sizeof line, " pc 0x%08x", d->regs[15]);
		CHECK(strstr(err, "registers there:") != NULL && strstr(err, line) != NULL);
		snprintf(line, sizeof line, "cpsr 0x%08x", d->cpsr);
		CHECK(strstr(err, line) != NULL);
	}
	if (d->have_irq)
		snprintf(line, sizeof line, "last interrupt entry: line %u after instruction #%llu, return address 0x%08x",
			 d->irq_line, (unsigned long long)d->irq_index, d->irq_epc);
	else
		snprintf(line, sizeof line, "last interrupt entry: none before it");
	CHECK(strstr(err, line) != NULL);
	if (d->have_data) {
		snprintf(line, sizeof line, "data: first difference at byte %u of the %u bytes at 0x%08x", d->data_off,
			 d->data_len, d->data_addr);
		CHECK(strstr(err, line) != NULL);
		CHECK(strstr(err, " ^^") != NULL);
	}
	if (check_failures)
		fprintf(stderr, "citcat replay said:\n%s\n", err);
	/* with --elf: the same report, the pc named function+0xOFF (file:line) */
	if (fwdir) {
		char elf[4096];
		snprintf(elf, sizeof elf, "%s/%s.elf", fwdir, name);
		const char *eargs[] = {"replay", ims, aes, "--verify", expath(name, ".cat"), "--oracle", expath(name, ".itrace"),
				       "--elf", elf, NULL};
		CHECK_EQ(run_cli(eargs, err, sizeof err), 1);
		snprintf(want, sizeof want, "(branch count %llu, pc 0x%08x ", (unsigned long long)d->bcount, d->pc);
		const char *w = strstr(err, want);
		CHECK(w != NULL);
		/* "FUNCTION+0xOFF (FILE:LINE))" ends the line */
		const char *eol = w ? strchr(w, '\n') : NULL, *plus = w ? strstr(w, "+0x") : NULL,
			   *paren = plus ? strstr(plus, " (") : NULL, *colon = paren ? strchr(paren, ':') : NULL;
		CHECK(eol && plus && paren && colon && colon < eol && eol[-1] == ')' && eol[-2] == ')' && colon[1] >= '1' &&
		      colon[1] <= '9');
		CHECK(strstr(err, "last instructions before it") == NULL || strstr(err, "  <") != NULL);
	}
}

static void check_last_is(const struct citcat_divergence *d, uint64_t index, uint32_t pc)
{
	/* the report's history ends with the instruction at which it was found
	 * when that instruction had started (a data access, a device read) */
	CHECK(d->nhist > 0);
	if (d->nhist) {
		CHECK_EQ(d->hist_index[d->nhist - 1], index);
		CHECK_EQ(d->hist_pc[d->nhist - 1], pc);
	}
}

/* ---- the cases ---- */

static void prepare(const char *name, struct citcat_ims *ims)
{
	struct citcat_errinfo err;
	struct citcat_ims_stats ist;
	struct citcat_aes_stats ast;
	int rc = citcat_ims_extract(expath(name, ".cat"), ims, &ist, NULL, NULL, &err);
	CHECK_EQ(rc, 0);
	if (rc)
		fprintf(stderr, "%s: %s\n", name, err.msg);
	CHECK_EQ(citcat_ims_write(ims, path(name, ".ims"), &err), 0);
	CHECK_EQ(citcat_aes_extract(expath(name, ".cat"), path(name, ".aes"), &ast, NULL, NULL, &err), 0);
	struct citcat_replay_result res;
	/* untouched, the pair replays exactly */
	CHECK_EQ(replay_lib(path(name, ".ims"), path(name, ".aes"), expath(name, ".cat"), expath(name, ".itrace"), &res), 0);
	CHECK(!res.diverged);
}

/* (a) an interrupt moved by one branch */
static void irq_moved(const struct citcat_ims *ims)
{
	const char *name = "sched";
	struct edit e = {.kind = CITCAT_AES_IRQ, .nth = 3};
	CHECK_EQ(copy_aes(path(name, ".aes"), path("irq_moved", ".aes"), &ims->cfg, edit_one, &e), 0);
	int64_t at = oracle_boundary(expath(name, ".itrace"), e.orig.bcount, e.orig.pc, 1);
	CHECK(at >= 0);
	struct citcat_replay_result res;
	/* with every check: found at the boundary itself, the instruction at the EPC */
	CHECK_EQ(replay_lib(path(name, ".ims"), path("irq_moved", ".aes"), expath(name, ".cat"), expath(name, ".itrace"), &res),
		 CITCAT_ERR_DIVERGED);
	show("irq moved (verify+oracle)", &res);
	CHECK(strcmp(res.div.check, "instruction trace") == 0 || strcmp(res.div.check, "bus trace") == 0 ||
	      strcmp(res.div.check, "interrupt schedule") == 0);
	CHECK_EQ(res.div.insn_index, at);
	CHECK_EQ(res.div.pc, e.orig.pc);
	CHECK_EQ(res.div.bcount, e.orig.bcount);
	/* the last interrupt entry before it, as the oracle has it (interrupt 2 of sched's) */
	unsigned iline = 0;
	uint32_t iepc = 0;
	int64_t last = oracle_last_irq(expath(name, ".itrace"), (uint64_t)at, &iline, &iepc);
	CHECK(last >= 0);
	CHECK(res.div.have_irq);
	CHECK_EQ(res.div.irq_index, last);
	CHECK_EQ(res.div.irq_line, iline);
	CHECK_EQ(res.div.irq_epc, iepc);
	CHECK(!res.div.have_data);
	check_cli(name, path(name, ".ims"), path("irq_moved", ".aes"), &res.div);
	/* with the AES alone: the schedule notices the branch count passing, at
	 * or after the boundary */
	CHECK_EQ(replay_lib(path(name, ".ims"), path("irq_moved", ".aes"), NULL, NULL, &res), CITCAT_ERR_DIVERGED);
	show("irq moved (AES only)", &res);
	CHECK((int64_t)res.div.insn_index >= at);
	CHECK(res.div.bcount >= e.orig.bcount);
	/* with the bus trace only */
	CHECK_EQ(replay_lib(path(name, ".ims"), path("irq_moved", ".aes"), expath(name, ".cat"), NULL, &res),
		 CITCAT_ERR_DIVERGED);
	show("irq moved (verify)", &res);
	CHECK((int64_t)res.div.insn_index >= at);
	CHECK(res.div.bcount >= e.orig.bcount);
}

/* (b) a device input value changed */
static void input_changed(const struct citcat_ims *ims)
{
	const char *name = "sched";
	struct edit e = {.kind = CITCAT_AES_INPUT, .nth = 100};
	CHECK_EQ(copy_aes(path(name, ".aes"), path("input", ".aes"), &ims->cfg, edit_one, &e), 0);
	uint32_t pc = 0;
	int64_t at = oracle_device_access(expath(name, ".itrace"), &ims->cfg, e.nth, &pc);
	CHECK(at >= 0);
	struct citcat_replay_result res;
	/* the oracle alone: the first differing record is the reading instruction */
	CHECK_EQ(replay_lib(path(name, ".ims"), path("input", ".aes"), NULL, expath(name, ".itrace"), &res),
		 CITCAT_ERR_DIVERGED);
	show("input changed (oracle)", &res);
	CHECK(strcmp(res.div.check, "instruction trace") == 0);
	CHECK_EQ(res.div.insn_index, at);
	CHECK_EQ(res.div.pc, pc);
	check_last_is(&res.div, (uint64_t)at, pc);
	/* every check: the bus trace's uncached read differs at that instruction */
	CHECK_EQ(replay_lib(path(name, ".ims"), path("input", ".aes"), expath(name, ".cat"), expath(name, ".itrace"), &res),
		 CITCAT_ERR_DIVERGED);
	show("input changed (verify+oracle)", &res);
	CHECK_EQ(res.div.insn_index, at);
	CHECK_EQ(res.div.pc, pc);
	char v[40];
	snprintf(v, sizeof v, "0x%llx", (unsigned long long)(e.orig.value ^ 1));
	CHECK(strstr(res.div.found, v) != NULL);
	check_cli(name, path(name, ".ims"), path("input", ".aes"), &res.div);
}

/* (c) a DMA transfer dropped */
static void dma_dropped(const struct citcat_ims *ims)
{
	const char *name = "crc32";
	struct edit e = {.kind = CITCAT_AES_DMA, .nth = 1000, .drop = 1};
	CHECK_EQ(copy_aes(path(name, ".aes"), path("dma", ".aes"), &ims->cfg, edit_one, &e), 0);
	CHECK(e.orig.kind == CITCAT_AES_DMA);
	int64_t at = oracle_boundary(expath(name, ".itrace"), e.orig.bcount, e.orig.pc, 0);
	CHECK(at >= 0);
	struct citcat_replay_result res;
	CHECK_EQ(replay_lib(path(name, ".ims"), path("dma", ".aes"), expath(name, ".cat"), expath(name, ".itrace"), &res),
		 CITCAT_ERR_DIVERGED);
	show("DMA dropped (verify+oracle)", &res);
	CHECK(strcmp(res.div.check, "bus trace") == 0 || strcmp(res.div.check, "instruction trace") == 0);
	CHECK((int64_t)res.div.insn_index >= at);
	CHECK(res.div.bcount >= e.orig.bcount);
	/* the bus trace, or the oracle (itrace v2 records DMA transfers),
	 * expected the transfer itself */
	char want[80], want_it[80];
	snprintf(want, sizeof want, "dma 0x%08x len %u at branch %llu pc 0x%08x", e.orig.addr, e.orig.len,
		 (unsigned long long)e.orig.bcount, e.orig.pc);
	snprintf(want_it, sizeof want_it, "DMA transfer of %u bytes to 0x%08x", e.orig.len, e.orig.addr);
	CHECK(strstr(res.div.expected, want) != NULL || strstr(res.div.expected, want_it) != NULL);
	check_cli(name, path(name, ".ims"), path("dma", ".aes"), &res.div);
	/* the oracle alone finds it too, at the boundary of the transfer: the
	 * oracle's DMA record is missing from the replay */
	CHECK_EQ(replay_lib(path(name, ".ims"), path("dma", ".aes"), NULL, expath(name, ".itrace"), &res),
		 CITCAT_ERR_DIVERGED);
	show("DMA dropped (oracle)", &res);
	CHECK((int64_t)res.div.insn_index >= at);
	CHECK(strstr(res.div.expected, want_it) != NULL);
}

/* (d) one byte of the IMS memory flipped */
static void ims_flipped(const char *name, const struct citcat_ims *ims)
{
	struct citcat_errinfo err;
	struct citcat_replay_result res;
	/* d1: a byte of the instruction at P, fetched first */
	uint32_t p = ims->id.start_pc;
	uint8_t b;
	CHECK_EQ(citcat_image_read(ims->memory, p, &b, 1), 0);
	b ^= 0x04;
	CHECK_EQ(citcat_image_add(ims->memory, p, &b, 1), 0);
	CHECK_EQ(citcat_ims_write(ims, path("flip_code", ".ims"), &err), 0);
	b ^= 0x04;
	CHECK_EQ(citcat_image_add(ims->memory, p, &b, 1), 0);
	CHECK_EQ(replay_lib(path("flip_code", ".ims"), path(name, ".aes"), expath(name, ".cat"), expath(name, ".itrace"), &res),
		 CITCAT_ERR_DIVERGED);
	show("IMS code byte flipped (verify+oracle)", &res);
	CHECK(strcmp(res.div.check, "bus trace") == 0);
	CHECK_EQ(res.div.insn_index, 0);
	CHECK_EQ(res.div.pc, p);
	check_cli(name, path("flip_code", ".ims"), path(name, ".aes"), &res.div);
	CHECK_EQ(replay_lib(path("flip_code", ".ims"), path(name, ".aes"), NULL, expath(name, ".itrace"), &res),
		 CITCAT_ERR_DIVERGED);
	show("IMS code byte flipped (oracle)", &res);
	CHECK_EQ(res.div.insn_index, 0);
	CHECK_EQ(res.div.pc, p);

	/* d2: a byte of the first data the run reads */
	uint32_t pc = 0, addr = 0;
	int64_t at = oracle_first_ram_read(expath(name, ".itrace"), &ims->cfg, &pc, &addr);
	CHECK(at > 0);
	CHECK_EQ(citcat_image_read(ims->memory, addr, &b, 1), 0);
	b ^= 0x80;
	CHECK_EQ(citcat_image_add(ims->memory, addr, &b, 1), 0);
	CHECK_EQ(citcat_ims_write(ims, path("flip_data", ".ims"), &err), 0);
	b ^= 0x80;
	CHECK_EQ(citcat_image_add(ims->memory, addr, &b, 1), 0);
	CHECK_EQ(replay_lib(path("flip_data", ".ims"), path(name, ".aes"), expath(name, ".cat"), expath(name, ".itrace"), &res),
		 CITCAT_ERR_DIVERGED);
	show("IMS data byte flipped (verify+oracle)", &res);
	CHECK(strcmp(res.div.check, "bus trace") == 0);
	CHECK_EQ(res.div.insn_index, at);
	CHECK_EQ(res.div.pc, pc);
	CHECK(strstr(res.div.found, "different data") != NULL);
	check_last_is(&res.div, (uint64_t)at, pc);
	/* the diff: the line holding ADDR, the flipped byte the first (and only) difference */
	CHECK(res.div.have_data);
	CHECK(addr >= res.div.data_addr && addr < res.div.data_addr + res.div.data_len);
	CHECK_EQ(res.div.data_off, addr - res.div.data_addr);
	CHECK(res.div.data_win <= res.div.data_off && res.div.data_off < res.div.data_win + res.div.data_n);
	CHECK(res.div.data_off - res.div.data_win < 16);
	for (uint32_t k = 0; k < res.div.data_n && k < 64; k++)
		CHECK_EQ(res.div.data_expected[k] ^ res.div.data_found[k],
			 res.div.data_win + k == res.div.data_off ? 0x80 : 0);
	/* the register file was read at the reading instruction */
	CHECK(res.div.have_regs);
	CHECK_EQ(res.div.regs[15], pc);
	check_cli(name, path("flip_data", ".ims"), path(name, ".aes"), &res.div);
	CHECK_EQ(replay_lib(path("flip_data", ".ims"), path(name, ".aes"), NULL, expath(name, ".itrace"), &res),
		 CITCAT_ERR_DIVERGED);
	show("IMS data byte flipped (oracle)", &res);
	CHECK(strcmp(res.div.check, "instruction trace") == 0);
	CHECK_EQ(res.div.insn_index, at);
	CHECK_EQ(res.div.pc, pc);
}

/* A DMA transfer over code Unicorn has already translated must change what
 * runs next, as in the capture model (TARGET.md: DMA snoops both caches).
 * A hand-built IMS/AES: P calls X (add r0, r0, #1) twice, and a DMA transfer
 * between the calls rewrites X as add r0, r0, #16; r0 is stored at the end. */
static void dma_over_code(void)
{
	struct citcat_ims ims;
	memset(&ims, 0, sizeof ims);
	citcat_target_config_default(&ims.cfg);
	ims.id = (struct citcat_trace_id){.hash = 0x5eed, .start_pc = 0x1000, .insns = 10};
	ims.regs.slot[1] = 0x2000;   /* r1: where r0 is stored */
	ims.regs.slot[13] = 0x8000;  /* sp */
	ims.regs.slot[15] = 0x1000;  /* P */
	ims.regs.slot[16] = 0x600001d3; /* SVC, IRQs masked */
	static const uint32_t main_code[] = {
		0xe3a00000, /* 1000: mov r0, #0 */
		0xeb00003d, /* 1004: bl 0x1100 */
		0xe320f000, /* 1008: nop */
		0xeb00003b, /* 100c: bl 0x1100 (the DMA lands before it) */
		0xe5810000, /* 1010: str r0, [r1] */
		0xeafffffe, /* 1014: b . */
	};
	static const uint32_t x_code[] = {0xe2800001 /* add r0, r0, #1 */, 0xe12fff1e /* bx lr */};
	CHECK_EQ(citcat_image_alloc(&ims.memory), 0);
	uint8_t buf[64];
	for (unsigned i = 0; i < 6; i++)
		memcpy(buf + 4 * i, &main_code[i], 4); /* little-endian host */
	CHECK_EQ(citcat_image_add(ims.memory, 0x1000, buf, 24), 0);
	memcpy(buf, x_code, 8);
	CHECK_EQ(citcat_image_add(ims.memory, 0x1100, buf, 8), 0);
	struct citcat_errinfo err;
	CHECK_EQ(citcat_ims_write(&ims, path("dma_code", ".ims"), &err), 0);
	struct citcat_aes_writer *w = NULL;
	CHECK_EQ(citcat_aes_writer_open(&w, path("dma_code", ".aes"), &ims.id, &ims.cfg), 0);
	static const uint8_t add16[4] = {0x10, 0x00, 0x80, 0xe2};
	/* branch count 2 at 0x100c: the bl to X and its return */
	struct citcat_aes_rec dma = {.kind = CITCAT_AES_DMA, .addr = 0x1100, .len = 4, .data = add16, .bcount = 2, .pc = 0x100c};
	/* at the end, after 10 instructions: bl, bx lr, bl, bx lr and the taken
	 * b . (the boundary after it is at 0x1014 again) = 5 branches; the
	 * replayer checks the END's count since abnormal ends (issue 12) */
	struct citcat_aes_rec end = {.kind = CITCAT_AES_END, .insns = 10, .bcount = 5};
	CHECK_EQ(citcat_aes_write(w, &dma), 0);
	CHECK_EQ(citcat_aes_write(w, &end), 0);
	CHECK_EQ(citcat_aes_writer_close(w), 0);
	citcat_ims_fini(&ims);

	struct citcat_replay_config c;
	citcat_replay_config_default(&c);
	c.ims_path = path("dma_code", ".ims");
	c.aes_path = path("dma_code", ".aes");
	c.out_path = path("dma_code", ".itrace");
	struct citcat_replay_result res;
	int rc = citcat_replay_run(&c, &res, &err);
	CHECK_EQ(rc, 0);
	if (rc)
		fprintf(stderr, "dma_over_code: %s %s\n", res.diverged ? res.div.check : err.msg, res.diverged ? res.div.found : "");
	CHECK_EQ(res.dma, 1);
	/* the store of r0: 1 + 16 */
	struct citcat_itrace_reader *r;
	static struct citcat_itrace_rec rec;
	int64_t stored = -1;
	if (citcat_itrace_reader_open(&r, c.out_path) == 0)
		while (citcat_itrace_next(r, &rec) == 1)
			if (rec.kind == CITCAT_REC_INSN && rec.pc == 0x1010 && rec.n_acc == 1)
				stored = (int64_t)rec.acc[0].value;
	citcat_itrace_reader_close(r);
	CHECK_EQ(stored, 17);
}

/* A Thumb run's data byte flipped in the IMS: the divergence, found in a
 * data access inside a block, and its history are the same under the insn
 * and the block engine (replay_lib), with --verify alone (the block
 * engine's Thumb retire without records, blk_retire_tv) and with the
 * oracle too.  The run is captured here from FIRMWARE_DIR's sched_thumb. */
static void thumb_flipped(void)
{
	char elf[4096], err[8192];
	snprintf(elf, sizeof elf, "%s/sched_thumb.elf", fwdir);
	const char *name = "sched_thumb";
	char cat[1024], itr[1024];
	snprintf(cat, sizeof cat, "%s", path(name, ".cat"));
	snprintf(itr, sizeof itr, "%s", path(name, ".itrace"));
	const char *args[] = {"capture", elf, "--seed", "1", "-q", "-o", cat, "--oracle", itr, "--uart-out", "/dev/null", NULL};
	CHECK_EQ(run_cli(args, err, sizeof err), 0);
	struct citcat_errinfo e;
	struct citcat_ims ims;
	struct citcat_ims_stats ist;
	struct citcat_aes_stats ast;
	memset(&ims, 0, sizeof ims);
	CHECK_EQ(citcat_ims_extract(cat, &ims, &ist, NULL, NULL, &e), 0);
	CHECK_EQ(citcat_aes_extract(cat, path(name, ".aes"), &ast, NULL, NULL, &e), 0);
	uint32_t pc = 0, addr = 0;
	uint8_t b;
	int64_t at = oracle_first_ram_read(itr, &ims.cfg, &pc, &addr);
	CHECK(at > 0);
	CHECK_EQ(citcat_image_read(ims.memory, addr, &b, 1), 0);
	b ^= 0x80;
	CHECK_EQ(citcat_image_add(ims.memory, addr, &b, 1), 0);
	CHECK_EQ(citcat_ims_write(&ims, path("flip_thumb", ".ims"), &e), 0);
	b ^= 0x80;
	CHECK_EQ(citcat_image_add(ims.memory, addr, &b, 1), 0);
	struct citcat_replay_result res;
	/* an interrupt moved by one branch, late in the run: found at a
	 * boundary after many blocks retired without records */
	struct edit ed = {.kind = CITCAT_AES_IRQ, .nth = 40};
	CHECK_EQ(citcat_ims_write(&ims, path(name, ".ims"), &e), 0);
	CHECK_EQ(copy_aes(path(name, ".aes"), path("irq_thumb", ".aes"), &ims.cfg, edit_one, &ed), 0);
	CHECK_EQ(replay_lib(path(name, ".ims"), path("irq_thumb", ".aes"), cat, NULL, &res), CITCAT_ERR_DIVERGED);
	show("Thumb irq moved (verify)", &res);
	CHECK(res.div.nhist == CITCAT_REPLAY_HISTORY);
	CHECK_EQ(replay_lib(path(name, ".ims"), path("irq_thumb", ".aes"), cat, itr, &res), CITCAT_ERR_DIVERGED);
	show("Thumb irq moved (verify+oracle)", &res);
	CHECK_EQ(replay_lib(path("flip_thumb", ".ims"), path(name, ".aes"), cat, NULL, &res), CITCAT_ERR_DIVERGED);
	show("Thumb IMS data byte flipped (verify)", &res);
	CHECK(res.div.nhist > 1);
	CHECK_EQ(replay_lib(path("flip_thumb", ".ims"), path(name, ".aes"), cat, itr, &res), CITCAT_ERR_DIVERGED);
	show("Thumb IMS data byte flipped (verify+oracle)", &res);
	citcat_ims_fini(&ims);
}

int main(int argc, char **argv)
{
	if (argc != 4 && argc != 5) {
		fprintf(stderr, "usage: test_replay CITCAT EXAMPLES_DIR WORK_DIR [FIRMWARE_DIR]\n");
		return 2;
	}
	fwdir = argc == 5 ? argv[4] : NULL;
	citcat = argv[1];
	exdir = argv[2];
	work = argv[3];
	mkdir(work, 0755);
	struct citcat_ims sched, crc;
	dma_over_code();
	memset(&sched, 0, sizeof sched);
	memset(&crc, 0, sizeof crc);
	prepare("sched", &sched);
	prepare("crc32", &crc);
	if (check_failures)
		CHECK_DONE();
	irq_moved(&sched);
	input_changed(&sched);
	dma_dropped(&crc);
	ims_flipped("sched", &sched);
	if (fwdir)
		thumb_flipped();
	citcat_ims_fini(&sched);
	citcat_ims_fini(&crc);
	CHECK_DONE();
}
