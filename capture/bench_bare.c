/* The shared bare-Unicorn baseline of the benchmarks (bench_bare.h). */
#include "bench_bare.h"

#include "armcore.h"
#include "core.h"

#include <citcat/aes.h>
#include <citcat/ims.h>
#include <citcat/itrace.h>

#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BARE_MAX_WFI 4096

struct bare {
	uc_engine *uc;
	struct citcat_aes_reader *dev; /* device reads, in order */
	uint64_t reads;
	uint8_t *ram;
	uint32_t ram_base, ram_size;
	uint32_t wfi[BARE_MAX_WFI];
	unsigned nwfi;
};

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t bare_read(uc_engine *uc, uint64_t off, unsigned size, void *ctx)
{
	struct bare *b = ctx;
	struct citcat_aes_rec rec;
	while (citcat_aes_next(b->dev, &rec) == 1)
		if (rec.kind == CITCAT_AES_INPUT || rec.kind == CITCAT_AES_COUNTER) {
			b->reads++;
			return rec.value;
		}
	return 0;
}

static void bare_write(uc_engine *uc, uint64_t off, unsigned size, uint64_t value, void *ctx) {}

/* Makes the WFI at PC a NOP of the same condition (A32 hint 0). */
static void nop_wfi(struct bare *b, uint32_t pc)
{
	uint32_t w, off = pc - b->ram_base;
	memcpy(&w, b->ram + off, 4);
	if (!core_is_wfi(w))
		return;
	w = (w & 0xF0000000u) | 0x0320F000u;
	memcpy(b->ram + off, &w, 4);
	core_code_changed(b->uc, pc, 4);
}

static int patch_wfi(struct bare *b, uint32_t pc)
{
	for (unsigned i = 0; i < b->nwfi; i++)
		if (b->wfi[i] == pc)
			return 0;
	if (b->nwfi == BARE_MAX_WFI || pc - b->ram_base > b->ram_size - 4)
		return -1;
	b->wfi[b->nwfi++] = pc;
	nop_wfi(b, pc);
	return 0;
}

static void empty_code(uc_engine *uc, uint64_t a, uint32_t size, void *ctx) {}
static void empty_mem(uc_engine *uc, uc_mem_type type, uint64_t a, int size, int64_t value, void *ctx) {}

static int bare_run(const char *ims_path, const char *aes_path, const char *itrace_path, struct cc_bare_result *r,
		    struct citcat_errinfo *err, int hooks);

int cc_bare_run(const char *ims_path, const char *aes_path, const char *itrace_path, struct cc_bare_result *r,
		struct citcat_errinfo *err)
{
	return bare_run(ims_path, aes_path, itrace_path, r, err, 0);
}

int cc_bare_run_hooked(const char *ims_path, const char *aes_path, const char *itrace_path, struct cc_bare_result *r,
		       struct citcat_errinfo *err)
{
	return bare_run(ims_path, aes_path, itrace_path, r, err, 1);
}

static int bare_run(const char *ims_path, const char *aes_path, const char *itrace_path, struct cc_bare_result *r,
		    struct citcat_errinfo *err, int hooks)
{
	memset(r, 0, sizeof *r);
	r->path_ok = 1;
	double t0 = now_s();
	struct citcat_ims ims;
	int rc = citcat_ims_read(ims_path, &ims, err);
	if (rc)
		return rc;
	if (ims.cfg.isa != CITCAT_TARGET_ARMV7A) { /* an A core would run the M7's code wrongly */
		citcat_ims_fini(&ims);
		return citcat_errinfo_set(err, CITCAT_ERR_UNSUPPORTED, UINT64_MAX, "%s: no bare baseline on the Cortex-M7 target",
					  ims_path);
	}
	struct bare *b = calloc(1, sizeof *b);
	struct citcat_aes_reader *ev = NULL;
	struct citcat_itrace_reader *it = NULL;
	if (!b) {
		citcat_ims_fini(&ims);
		return citcat_errinfo_set(err, CITCAT_ERR_NOMEM, UINT64_MAX, "out of memory");
	}
	b->ram_base = ims.cfg.ram_base;
	b->ram_size = ims.cfg.ram_size;
	if ((rc = citcat_aes_reader_open(&b->dev, aes_path))) {
		*err = *citcat_aes_reader_error(b->dev);
		goto out;
	}
	if ((rc = citcat_aes_reader_open(&ev, aes_path))) {
		*err = *citcat_aes_reader_error(ev);
		goto out;
	}
	if ((rc = citcat_itrace_reader_open(&it, itrace_path))) {
		*err = *citcat_itrace_reader_error(it);
		goto out;
	}
	citcat_itrace_reader_dma(it, 1);
	b->ram = aligned_alloc(4096, b->ram_size);
	if (!b->ram) {
		rc = citcat_errinfo_set(err, CITCAT_ERR_NOMEM, UINT64_MAX, "out of memory");
		goto out;
	}
	memset(b->ram, 0, b->ram_size);
	for (size_t i = 0; i < citcat_image_segments(ims.memory); i++) {
		uint64_t addr, len;
		const uint8_t *data;
		citcat_image_segment(ims.memory, i, &addr, &len, &data);
		if (addr < b->ram_base || addr + len > (uint64_t)b->ram_base + b->ram_size) {
			rc = citcat_errinfo_set(err, CITCAT_ERR_CORRUPT, UINT64_MAX, "%s: memory outside RAM", ims_path);
			goto out;
		}
		memcpy(b->ram + (addr - b->ram_base), data, (size_t)len);
	}
	uc_err ue = core_open(&b->uc, b->ram_base, b->ram_size, b->ram, ims.cfg.dev_base, ims.cfg.dev_size, bare_read,
			      bare_write, b);
	if (!ue)
		ue = (uc_err)arm_set_state(b->uc, &ims.regs);
	uc_hook hk;
	if (!ue && hooks)
		ue = uc_hook_add(b->uc, &hk, UC_HOOK_CODE, empty_code, NULL, 1, 0);
	if (!ue && hooks)
		ue = uc_hook_add(b->uc, &hk, UC_HOOK_MEM_READ | UC_HOOK_MEM_WRITE, empty_mem, NULL, b->ram_base,
				 (uint64_t)b->ram_base + b->ram_size - 1);
	if (ue) {
		rc = citcat_errinfo_set(err, CITCAT_ERR_UNICORN, UINT64_MAX, "Unicorn set-up failed: %s", uc_strerror(ue));
		goto out;
	}
	uint32_t pc = ims.regs.slot[ARM_SLOT_PC];
	double t1 = now_s();
	r->setup_s = t1 - t0;
	struct citcat_itrace_rec rec;
	struct citcat_aes_rec ar;
	for (;;) {
		double ta = now_s();
		uint64_t n = 0;
		int event = 0, got;
		while ((got = citcat_itrace_next(it, &rec)) == 1) {
			if (rec.kind == CITCAT_REC_INSN) {
				n++;
				if (core_is_wfi(rec.word) && patch_wfi(b, (uint32_t)rec.pc)) {
					rc = citcat_errinfo_set(err, CITCAT_ERR_LIMIT, UINT64_MAX,
								"more than %d WFI addresses", BARE_MAX_WFI);
					goto out;
				}
			} else if (rec.kind == CITCAT_REC_IRQ || rec.kind == CITCAT_REC_DMA) {
				event = 1;
				break;
			}
		}
		if (got < 0) {
			rc = citcat_errinfo_set(err, got, UINT64_MAX, "%s: %s", itrace_path,
						citcat_itrace_reader_error(it)->msg);
			goto out;
		}
		r->outside_s += now_s() - ta;
		if (n) {
			double tr = now_s();
			ue = uc_emu_start(b->uc, pc, CORE_UNTIL, 0, n);
			r->run_s += now_s() - tr;
			r->segments++;
			r->insns += n;
			uc_reg_read(b->uc, UC_ARM_REG_PC, &pc);
			if (ue) {
				rc = citcat_errinfo_set(err, CITCAT_ERR_UNICORN, UINT64_MAX,
							"bare Unicorn run stopped early at 0x%08x: %s", pc, uc_strerror(ue));
				goto out;
			}
		}
		if (!event)
			break;
		ta = now_s();
		/* the AES record of this event: its boundary PC is the check */
		int ok = 0;
		while (citcat_aes_next(ev, &ar) == 1) {
			if (ar.kind == CITCAT_AES_INPUT || ar.kind == CITCAT_AES_COUNTER) {
				r->dev_reads_recorded++;
				continue;
			}
			if (ar.kind == CITCAT_AES_OUTPUT)
				continue;
			ok = (ar.kind == CITCAT_AES_IRQ && rec.kind == CITCAT_REC_IRQ) ||
			     (ar.kind == CITCAT_AES_DMA && rec.kind == CITCAT_REC_DMA);
			break;
		}
		if (!ok) {
			rc = citcat_errinfo_set(err, CITCAT_ERR_CORRUPT, UINT64_MAX,
						"%s and %s disagree on the interrupt and DMA schedule", aes_path, itrace_path);
			goto out;
		}
		if (ar.pc != pc && r->path_ok) {
			r->path_ok = 0;
			r->first_bad_pc = pc;
			r->want_pc = ar.pc;
		}
		if (ar.kind == CITCAT_AES_IRQ) {
			if (arm_take_irq(b->uc, pc)) {
				rc = citcat_errinfo_set(err, CITCAT_ERR_UNICORN, UINT64_MAX, "IRQ entry failed");
				goto out;
			}
			uc_reg_read(b->uc, UC_ARM_REG_PC, &pc);
			r->irqs++;
		} else {
			if (ar.addr < b->ram_base || (uint64_t)ar.addr + ar.len > (uint64_t)b->ram_base + b->ram_size) {
				rc = citcat_errinfo_set(err, CITCAT_ERR_CORRUPT, UINT64_MAX, "%s: DMA outside RAM", aes_path);
				goto out;
			}
			memcpy(b->ram + (ar.addr - b->ram_base), ar.data, ar.len);
			core_code_changed(b->uc, ar.addr, ar.len);
			for (unsigned i = 0; i < b->nwfi; i++)
				if (b->wfi[i] - ar.addr < ar.len)
					nop_wfi(b, b->wfi[i]);
			r->dma++;
		}
		r->outside_s += now_s() - ta;
	}
	while (citcat_aes_next(ev, &ar) == 1)
		if (ar.kind == CITCAT_AES_INPUT || ar.kind == CITCAT_AES_COUNTER)
			r->dev_reads_recorded++;
	r->dev_reads = b->reads;
	r->wfis = b->nwfi;
	if (r->dev_reads != r->dev_reads_recorded)
		r->path_ok = 0;
out:
	if (b->uc)
		uc_close(b->uc);
	citcat_itrace_reader_close(it);
	citcat_aes_reader_close(ev);
	citcat_aes_reader_close(b->dev);
	free(b->ram);
	free(b);
	citcat_ims_fini(&ims);
	return rc;
}
