/* The shared bare-Unicorn baseline of the benchmarks (bench_bare.h). */
#include "bench_bare.h"
#include "bench_int.h"

#include "armcore.h"
#include "core.h"
#include "m7exc.h"
#include "replay_m7.h"
#include "thumb.h"

#include <citcat/aes.h>
#include <citcat/ims.h>
#include <citcat/itrace.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void cc_unicorn_version(char *buf, size_t n)
{
	/* uc_version's value: major << 24 | minor << 16 | patch << 8 | extra */
	unsigned v = uc_version(NULL, NULL);
	snprintf(buf, n, "%u.%u.%u", v >> 24 & 0xff, v >> 16 & 0xff, v >> 8 & 0xff);
}

#define BARE_MAX_WFI 4096

/* One engine: the timed one (E_RUN) or the untimed shadow (E_SHADOW) that
 * finds how many instructions Unicorn counts in each segment. */
struct eng {
	uc_engine *uc;
	struct citcat_aes_reader *dev; /* device reads, in order */
	uint64_t reads;
	uint8_t *ram;
	uint32_t ram_base, ram_size;
	uint32_t pc; /* where the next uc_emu_start begins (bit 0: Thumb) */
	/* the Cortex-M7 (isa 2): citcat's exception model, as the replayer drives it */
	int m7;
	struct m7exc exc;
	int m7_failed; /* an exception Unicorn reported that the baseline does not follow */
	uint32_t m7_fail_intno, m7_fail_pc;
	/* the shadow: its own reading of the itrace, record for record */
	struct citcat_itrace_reader *it;
	struct citcat_itrace_rec rec;
	int have;            /* REC read, not yet matched */
	uint64_t want, took; /* itrace instructions of this segment, and matched so far */
	uint64_t counted;    /* of them, those Unicorn ran a code hook for (= counts) */
	unsigned it_left;    /* instructions left in the current IT block */
	int bad, end;        /* left the recorded path; the itrace ended */
	uint32_t bad_pc, bad_want;
};

enum { E_RUN, E_SHADOW };

struct bare {
	struct eng e[2];
	uint32_t wfi[BARE_MAX_WFI];
	unsigned nwfi;
};

static uint64_t bare_read(uc_engine *uc, uint64_t off, unsigned size, void *ctx)
{
	struct eng *e = ctx;
	struct citcat_aes_rec rec;
	while (citcat_aes_next(e->dev, &rec) == 1)
		if (rec.kind == CITCAT_AES_INPUT || rec.kind == CITCAT_AES_COUNTER) {
			e->reads++;
			return rec.value;
		}
	return 0;
}

static void bare_write(uc_engine *uc, uint64_t off, unsigned size, uint64_t value, void *ctx) {}

/* Makes the WFI at PC (bit 0: in Thumb state) a NOP of the same condition
 * (A32 hint 0) in engine E; in Thumb state the NOP of the same size (T1
 * 0xBF30 -> 0xBF00, T2 0xF3AF 0x8003 -> 0xF3AF 0x8000). */
static void nop_wfi(struct eng *e, uint32_t pc)
{
	int thumb = pc & 1;
	pc &= ~1u;
	uint32_t w, off = pc - e->ram_base;
	if (thumb) {
		uint16_t hw[2];
		memcpy(hw, e->ram + off, 4);
		unsigned size = thumb_size(hw[0]);
		if (!thumb_is_wfi(thumb_word_at(e->ram + off, size), size))
			return;
		if (size == 2)
			hw[0] = 0xBF00u;
		else
			hw[1] = 0x8000u;
		memcpy(e->ram + off, hw, size);
		core_code_changed(e->uc, pc, size);
		return;
	}
	memcpy(&w, e->ram + off, 4);
	if (!core_is_wfi(w))
		return;
	w = (w & 0xF0000000u) | 0x0320F000u;
	memcpy(e->ram + off, &w, 4);
	core_code_changed(e->uc, pc, 4);
}

/* PC: bit 0 set for a WFI in Thumb state. */
static int patch_wfi(struct bare *b, uint32_t pc)
{
	for (unsigned i = 0; i < b->nwfi; i++)
		if (b->wfi[i] == pc)
			return 0;
	if (b->nwfi == BARE_MAX_WFI || pc - b->e[0].ram_base > b->e[0].ram_size - 4)
		return -1;
	b->wfi[b->nwfi++] = pc;
	nop_wfi(&b->e[E_RUN], pc);
	nop_wfi(&b->e[E_SHADOW], pc);
	return 0;
}

/* The M7's data side for the exception model (struct m7exc_bus): the
 * stacking and unstacking words straight in RAM (no cache: there is none
 * in the baseline). */
static int bare_m7_bus(void *ctx, uint32_t addr, int write, uint32_t *v)
{
	struct eng *e = ctx;
	uint32_t off = addr - e->ram_base;
	if ((addr & 3) || off >= e->ram_size || e->ram_size - off < 4)
		return -1;
	if (write)
		return uc_mem_write(e->uc, addr, v, 4) ? -1 : 0; /* drops any translation of the word */
	memcpy(v, e->ram + off, 4);
	return 0;
}

/* SCS writes update the exception model (priorities, VTOR, CCR.STKALIGN:
 * what the entries and returns depend on); SCS reads are device reads fed
 * from the AES, as the replayer does (bare_read). */
static void bare_scs_write(uc_engine *uc, uint64_t off, unsigned size, uint64_t value, void *ctx)
{
	struct eng *e = ctx;
	m7exc_scs_write(&e->exc, (uint32_t)off, size, (uint32_t)value);
}

/* What the M7 core does when Unicorn reports an svc (2) or an EXC_RETURN
 * loaded into PC (8): the exception model's entry or return with its
 * stacking or unstacking, inside the run as on hardware (an interrupt hook
 * costs nothing per instruction).  Anything else stops the run: the
 * recorded examples have none. */
static void bare_m7_intr(uc_engine *uc, uint32_t intno, void *ctx)
{
	struct eng *e = ctx;
	uint32_t pc = 0;
	uc_reg_read(uc, UC_ARM_REG_PC, &pc);
	int rc = -1;
	if (intno == 2)
		rc = m7exc_svc(&e->exc, pc);
	else if (intno == 8)
		rc = m7exc_return(&e->exc, pc | 1u, pc);
	if (rc < 0 && !e->m7_failed) {
		e->m7_failed = 1;
		e->m7_fail_intno = intno;
		e->m7_fail_pc = pc;
		uc_emu_stop(uc);
	}
}

/* The shadow's code hook: matches the instruction at A with the next
 * instruction record of the itrace.  Records it skips are the
 * condition-failed instructions of an IT block, for which Unicorn runs no
 * code hook and so counts nothing (TARGET.md, CPU): they are why the timed
 * run cannot simply count the itrace's instructions.  Stops before the
 * first instruction after the segment's WANT records. */
static void shadow_code(uc_engine *uc, uint64_t address, uint32_t size, void *ctx)
{
	struct eng *s = ctx;
	uint32_t a = (uint32_t)address;
	for (;;) {
		if (s->took == s->want) {
			uc_emu_stop(uc);
			return;
		}
		while (!s->have) {
			int got = citcat_itrace_next(s->it, &s->rec);
			if (got != 1) {
				s->end = 1;
				uc_emu_stop(uc);
				return;
			}
			s->have = s->rec.kind == CITCAT_REC_INSN;
		}
		int match = (uint32_t)s->rec.pc == a;
		if (!match && !s->it_left) {
			s->bad = 1;
			s->bad_pc = a;
			s->bad_want = (uint32_t)s->rec.pc;
			uc_emu_stop(uc);
			return;
		}
		s->have = 0;
		s->took++;
		if (s->it_left)
			s->it_left--;
		if (s->rec.thumb && thumb_is_it(s->rec.word, s->rec.size))
			s->it_left = 4u - (unsigned)__builtin_ctz(s->rec.word & 0xfu); /* the mask's length */
		if (match) {
			s->counted++;
			return;
		}
	}
}

/* The next IRQ or DMA record of the AES, counting the device reads passed
 * on the way.  Returns 1, or 0 at the end. */
static int next_event(struct citcat_aes_reader *ev, struct citcat_aes_rec *ar, struct citcat_bench_bare *r)
{
	while (citcat_aes_next(ev, ar) == 1) {
		if (ar->kind == CITCAT_AES_INPUT || ar->kind == CITCAT_AES_COUNTER) {
			r->dev_reads_recorded++;
			continue;
		}
		if (ar->kind == CITCAT_AES_OUTPUT)
			continue;
		return ar->kind == CITCAT_AES_IRQ || ar->kind == CITCAT_AES_DMA;
	}
	return 0;
}

static void empty_code(uc_engine *uc, uint64_t a, uint32_t size, void *ctx) {}
static void empty_block(uc_engine *uc, uint64_t a, uint32_t size, void *ctx) {}
static void empty_mem(uc_engine *uc, uc_mem_type type, uint64_t a, int size, int64_t value, void *ctx) {}

/* Opens engine E with the IMS's memory and registers.  HOOKS: 1 the empty
 * hooks (cc_bare_run_hooked), 2 the shadow's code hook, 3 an empty block
 * hook and the empty memory hook, 4 the empty memory hook alone
 * (cc_bare_run_floor). */
static int eng_open(struct eng *e, const struct citcat_ims *ims, const char *ims_path, const char *aes_path,
		    const char *itrace_path, int hooks, struct citcat_errinfo *err)
{
	int rc;
	e->m7 = ims->cfg.isa == CITCAT_TARGET_CORTEX_M7;
	e->ram_base = ims->cfg.ram_base;
	e->ram_size = ims->cfg.ram_size;
	if ((rc = citcat_aes_reader_open(&e->dev, aes_path))) {
		*err = *citcat_aes_reader_error(e->dev);
		return rc;
	}
	if (hooks == 2) {
		if ((rc = citcat_itrace_reader_open(&e->it, itrace_path))) {
			*err = *citcat_itrace_reader_error(e->it);
			return rc;
		}
	}
	e->ram = aligned_alloc(4096, e->ram_size);
	if (!e->ram)
		return citcat_errinfo_set(err, CITCAT_ERR_NOMEM, UINT64_MAX, "out of memory");
	memset(e->ram, 0, e->ram_size);
	for (size_t i = 0; i < citcat_image_segments(ims->memory); i++) {
		uint64_t addr, len;
		const uint8_t *data;
		citcat_image_segment(ims->memory, i, &addr, &len, &data);
		if (addr < e->ram_base || addr + len > (uint64_t)e->ram_base + e->ram_size)
			return citcat_errinfo_set(err, CITCAT_ERR_CORRUPT, UINT64_MAX, "%s: memory outside RAM", ims_path);
		memcpy(e->ram + (addr - e->ram_base), data, (size_t)len);
	}
	uc_err ue;
	uc_hook hk;
	if (e->m7) {
		ue = core_open_m7(&e->uc, e->ram_base, e->ram_size, e->ram, ims->cfg.dev_base, ims->cfg.dev_size, bare_read,
				  bare_write, bare_read, bare_scs_write, e);
		if (!ue) {
			m7exc_init(&e->exc, e->uc, (struct m7exc_bus){bare_m7_bus, e});
			int s = replay_m7_set_state(e->uc, &ims->regs); /* the 23-slot dump, as the replayer restores it */
			if (s > 0)
				return citcat_errinfo_set(err, CITCAT_ERR_CORRUPT, UINT64_MAX,
							  "%s: the register dump is inconsistent (SP is not the MSP or PSP "
							  "that CONTROL selects)",
							  ims_path);
			ue = s < 0 ? UC_ERR_EXCEPTION : UC_ERR_OK;
		}
		if (!ue)
			ue = uc_hook_add(e->uc, &hk, UC_HOOK_INTR, bare_m7_intr, e, 1, 0);
		e->pc = ims->regs.slot[M7_SLOT_PC] | 1u;
	} else {
		ue = core_open(&e->uc, e->ram_base, e->ram_size, e->ram, ims->cfg.dev_base, ims->cfg.dev_size, bare_read,
			       bare_write, e);
		if (!ue)
			ue = (uc_err)arm_set_state(e->uc, &ims->regs);
		if (!ue) /* SCTLR.TE as at P, as the replayer restores it */
			ue = (uc_err)arm_set_sctlr_te(e->uc, (ims->sctlr & ARM_SCTLR_TE) != 0);
		if (!ue) /* bit 0 of the start address selects the state: CPSR.T */
			e->pc = thumb_resume_pc(e->uc);
	}
	if (!ue && hooks == 1)
		ue = uc_hook_add(e->uc, &hk, UC_HOOK_CODE, empty_code, NULL, 1, 0);
	if (!ue && hooks == 3)
		ue = uc_hook_add(e->uc, &hk, UC_HOOK_BLOCK, empty_block, NULL, 1, 0);
	if (!ue && (hooks == 1 || hooks == 3 || hooks == 4))
		ue = uc_hook_add(e->uc, &hk, UC_HOOK_MEM_READ | UC_HOOK_MEM_WRITE, empty_mem, NULL, e->ram_base,
				 (uint64_t)e->ram_base + e->ram_size - 1);
	if (!ue && hooks == 2)
		ue = uc_hook_add(e->uc, &hk, UC_HOOK_CODE, shadow_code, e, 1, 0);
	if (ue)
		return citcat_errinfo_set(err, CITCAT_ERR_UNICORN, UINT64_MAX, "Unicorn set-up failed: %s", uc_strerror(ue));
	return 0;
}

static void eng_close(struct eng *e)
{
	if (e->uc)
		uc_close(e->uc);
	citcat_itrace_reader_close(e->it);
	citcat_aes_reader_close(e->dev);
	free(e->ram);
}

/* After a uc_emu_start of E that returned UE. */
static int eng_check(struct eng *e, uc_err ue, struct citcat_errinfo *err)
{
	e->pc = thumb_resume_pc(e->uc) | (uint32_t)e->m7;
	if (e->m7_failed)
		return citcat_errinfo_set(err, CITCAT_ERR_UNSUPPORTED, UINT64_MAX,
					  "bare Unicorn run: exception %u from Unicorn at 0x%08x is not followed by the "
					  "Cortex-M7 baseline",
					  e->m7_fail_intno, e->m7_fail_pc);
	if (ue)
		return citcat_errinfo_set(err, CITCAT_ERR_UNICORN, UINT64_MAX, "bare Unicorn run stopped early at 0x%08x: %s",
					  e->pc & ~1u, uc_strerror(ue));
	return 0;
}

/* The recorded event AR on engine E, between segments. */
static int eng_event(struct bare *b, struct eng *e, const struct citcat_aes_rec *ar, struct citcat_errinfo *err)
{
	uint32_t pc = e->pc & ~1u;
	if (ar->kind == CITCAT_AES_IRQ) {
		/* the M7: the recorded exception at its recorded boundary,
		 * whatever the priorities say, as the replayer does */
		if (e->m7 ? m7exc_enter(&e->exc, ar->line, pc) < 0 : arm_take_irq(e->uc, pc) != 0)
			return citcat_errinfo_set(err, CITCAT_ERR_UNICORN, UINT64_MAX, "%s entry failed at 0x%08x",
						  e->m7 ? "exception" : "IRQ", pc);
		e->pc = thumb_resume_pc(e->uc) | (uint32_t)e->m7;
		return 0;
	}
	memcpy(e->ram + (ar->addr - e->ram_base), ar->data, ar->len);
	core_code_changed(e->uc, ar->addr, ar->len);
	for (unsigned i = 0; i < b->nwfi; i++)
		if ((b->wfi[i] & ~1u) - ar->addr < ar->len)
			nop_wfi(e, b->wfi[i]);
	return 0;
}

static int bare_run(const char *ims_path, const char *aes_path, const char *itrace_path, struct citcat_bench_bare *r,
		    struct citcat_errinfo *err, int hooks);

int cc_bare_run(const char *ims_path, const char *aes_path, const char *itrace_path, struct citcat_bench_bare *r,
		struct citcat_errinfo *err)
{
	return bare_run(ims_path, aes_path, itrace_path, r, err, 0);
}

int cc_bare_run_hooked(const char *ims_path, const char *aes_path, const char *itrace_path, struct citcat_bench_bare *r,
		       struct citcat_errinfo *err)
{
	return bare_run(ims_path, aes_path, itrace_path, r, err, 1);
}

int cc_bare_run_floor(const char *ims_path, const char *aes_path, const char *itrace_path, int block,
		      struct citcat_bench_bare *r, struct citcat_errinfo *err)
{
	return bare_run(ims_path, aes_path, itrace_path, r, err, block ? 3 : 4);
}

static void path_bad(struct citcat_bench_bare *r, uint32_t pc, uint32_t want)
{
	if (r->path_ok) {
		r->path_ok = 0;
		r->first_bad_pc = pc;
		r->want_pc = want;
	}
}

/* The timed part of a segment, alone in a function of its own so that a
 * profiler can count it without the rest (tests/floor_ratio_cg.sh runs
 * callgrind with --toggle-collect=bare_timed_start).  COUNT > 0 makes
 * Unicorn 2.0.1 add its own counting code hook (uc.c, uc_emu_start:
 * hook_count_cb over every address, inserted first and kept while counts
 * are given), so every baseline, the floors included, runs a code-hook call
 * per instruction (bench_bare.h; tests/test_unicorn.c pins its effect on
 * the memory hook's PC). */
__attribute__((noinline)) static uc_err bare_timed_start(uc_engine *uc, uint32_t pc, uint64_t count)
{
	return uc_emu_start(uc, pc, CORE_UNTIL, 0, count);
}

static int bare_run(const char *ims_path, const char *aes_path, const char *itrace_path, struct citcat_bench_bare *r,
		    struct citcat_errinfo *err, int hooks)
{
	memset(r, 0, sizeof *r);
	r->path_ok = 1;
	double t0 = bench_now();
	struct citcat_ims ims;
	int rc = citcat_ims_read(ims_path, &ims, err);
	if (rc)
		return rc;
	int m7 = ims.cfg.isa == CITCAT_TARGET_CORTEX_M7;
	if (m7 && (ims.regs.slot[M7_SLOT_XPSR] & 0x1ffu)) { /* as the replayer (replay_m7_open) */
		citcat_ims_fini(&ims);
		return citcat_errinfo_set(err, CITCAT_ERR_UNSUPPORTED, UINT64_MAX,
					  "%s: the trace starts in handler mode; the Cortex-M7 baseline starts in thread mode",
					  ims_path);
	}
	struct bare *b = calloc(1, sizeof *b);
	struct citcat_aes_reader *ev = NULL;
	struct citcat_itrace_reader *it = NULL;
	if (!b) {
		citcat_ims_fini(&ims);
		return citcat_errinfo_set(err, CITCAT_ERR_NOMEM, UINT64_MAX, "out of memory");
	}
	struct eng *e = &b->e[E_RUN], *s = &b->e[E_SHADOW];
	if ((rc = eng_open(e, &ims, ims_path, aes_path, itrace_path, hooks, err)) ||
	    (rc = eng_open(s, &ims, ims_path, aes_path, itrace_path, 2, err)))
		goto out;
	if ((rc = citcat_aes_reader_open(&ev, aes_path))) {
		*err = *citcat_aes_reader_error(ev);
		goto out;
	}
	if ((rc = citcat_itrace_reader_open(&it, itrace_path))) {
		*err = *citcat_itrace_reader_error(it);
		goto out;
	}
	citcat_itrace_reader_dma(it, 1);
	double t1 = bench_now();
	r->setup_s = t1 - t0;
	struct citcat_itrace_rec rec;
	struct citcat_aes_rec ar;
	int have_ar = 0; /* AR holds the next IRQ or DMA record, not yet applied */
	for (;;) {
		double ta = bench_now();
		uint64_t n = 0;
		int event = 0, got;
		while ((got = citcat_itrace_next(it, &rec)) == 1) {
			if (rec.kind == CITCAT_REC_INSN) {
				n++;
				int wfi = rec.thumb ? thumb_is_wfi(rec.word, rec.size) : core_is_wfi(rec.word);
				if (wfi && patch_wfi(b, (uint32_t)rec.pc | rec.thumb)) {
					rc = citcat_errinfo_set(err, CITCAT_ERR_LIMIT, UINT64_MAX,
								"more than %d WFI addresses", BARE_MAX_WFI);
					goto out;
				}
			} else if (rec.kind == CITCAT_REC_IRQ || rec.kind == CITCAT_REC_DMA) {
				/* On the M7 the itrace's entry records are also those of
				 * svc (and faults), which the core takes itself inside
				 * the run (bare_m7_intr); a scheduled one is the next
				 * AES IRQ record, with the same exception number and
				 * boundary PC (= the stacked return address). */
				if (m7 && rec.kind == CITCAT_REC_IRQ) {
					if (!have_ar)
						have_ar = next_event(ev, &ar, r);
					if (!have_ar || ar.kind != CITCAT_AES_IRQ || ar.line != rec.line ||
					    ar.pc != (uint32_t)rec.pc) {
						r->sync_entries++;
						continue;
					}
				}
				event = 1;
				break;
			}
		}
		if (got < 0) {
			rc = citcat_errinfo_set(err, got, UINT64_MAX, "%s: %s", itrace_path,
						citcat_itrace_reader_error(it)->msg);
			goto out;
		}
		if (n) {
			/* the shadow finds how many of the N instructions Unicorn
			 * counts (untimed) */
			s->want = n;
			s->took = s->counted = 0;
			uc_err ue = uc_emu_start(s->uc, s->pc, CORE_UNTIL, 0, 0);
			if (!s->bad && !s->end && (rc = eng_check(s, ue, err)))
				goto out;
			s->pc = thumb_resume_pc(s->uc) | (uint32_t)m7;
			if (s->bad) {
				path_bad(r, s->bad_pc, s->bad_want);
				rc = citcat_errinfo_set(err, CITCAT_ERR_CORRUPT, UINT64_MAX,
							"bare Unicorn run left the path of %s at 0x%08x (recorded 0x%08x)",
							itrace_path, s->bad_pc, s->bad_want);
				goto out;
			}
			r->outside_s += bench_now() - ta;
			uint64_t c = s->counted;
			double tr = bench_now();
			ue = bare_timed_start(e->uc, e->pc, c);
			r->run_s += bench_now() - tr;
			ta = bench_now();
			r->segments++;
			r->insns += n;
			r->it_failed += n - c;
			if ((rc = eng_check(e, ue, err)))
				goto out;
			if (e->pc != s->pc && !s->end)
				path_bad(r, e->pc & ~1u, s->pc & ~1u);
		}
		if (!event) {
			r->outside_s += bench_now() - ta;
			break;
		}
		/* the AES record of this event: its boundary PC is the check */
		if (!have_ar)
			have_ar = next_event(ev, &ar, r);
		int ok = have_ar && ((ar.kind == CITCAT_AES_IRQ && rec.kind == CITCAT_REC_IRQ) ||
				     (ar.kind == CITCAT_AES_DMA && rec.kind == CITCAT_REC_DMA));
		have_ar = 0;
		if (!ok) {
			rc = citcat_errinfo_set(err, CITCAT_ERR_CORRUPT, UINT64_MAX,
						"%s and %s disagree on the interrupt and DMA schedule", aes_path, itrace_path);
			goto out;
		}
		if (ar.pc != (e->pc & ~1u))
			path_bad(r, e->pc & ~1u, ar.pc);
		if (ar.kind == CITCAT_AES_DMA &&
		    (ar.addr < e->ram_base || (uint64_t)ar.addr + ar.len > (uint64_t)e->ram_base + e->ram_size)) {
			rc = citcat_errinfo_set(err, CITCAT_ERR_CORRUPT, UINT64_MAX, "%s: DMA outside RAM", aes_path);
			goto out;
		}
		if ((rc = eng_event(b, e, &ar, err)) || (rc = eng_event(b, s, &ar, err)))
			goto out;
		if (ar.kind == CITCAT_AES_IRQ)
			r->irqs++;
		else
			r->dma++;
		r->outside_s += bench_now() - ta;
	}
	if (have_ar) { /* a scheduled entry the itrace does not have */
		rc = citcat_errinfo_set(err, CITCAT_ERR_CORRUPT, UINT64_MAX,
					"%s and %s disagree on the interrupt and DMA schedule", aes_path, itrace_path);
		goto out;
	}
	while (citcat_aes_next(ev, &ar) == 1)
		if (ar.kind == CITCAT_AES_INPUT || ar.kind == CITCAT_AES_COUNTER)
			r->dev_reads_recorded++;
	r->dev_reads = e->reads;
	r->wfis = b->nwfi;
	if (r->dev_reads != r->dev_reads_recorded)
		r->path_ok = 0;
out:
	eng_close(e);
	eng_close(s);
	citcat_itrace_reader_close(it);
	citcat_aes_reader_close(ev);
	free(b);
	citcat_ims_fini(&ims);
	return rc;
}
