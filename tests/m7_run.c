/* m7_run ELF: runs a Cortex-M7 firmware built with examples/bsp-m7 on
 * Unicorn with citcat's exception model (machine/m7exc.c) and a minimal
 * stand-in for the citcat devices: SYSCTL (EXIT, ID), the UART's TX (to
 * stdout), the cycle counter (one cycle per instruction), ENTROPY (fixed
 * generators), SCRATCH and CLOCK_HZ, the timer, the interrupt
 * controller (lines latch into PENDING; a line pending and enabled holds
 * NVIC IRQ n pending while that IRQ is not active, the level-sensitive
 * wiring TARGET-M7.md proposes), the cache-maintenance registers (no
 * caches here: accepted and ignored) and the trace module (CMD, the dump
 * slots and DUMP_DONE are recorded).  No caches, no CAT: this checks the
 * BSP and the exception model on real firmware, not the capture.
 *
 * Prints the UART output, then "exit N", and checks the driver's dump
 * against what the core held at P (PC = citcat_trace_point's address, given
 * as the second argument, and SP, MSP, PSP, PRIMASK, CONTROL, xPSR.T).
 * Returns the firmware's exit status, or 100 + reason when the run failed. */
#include "citcat_regs.h"
#include "m7exc.h"

#include <citcat/base.h>
#include <citcat/image.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RAM_SIZE (16u << 20)
#define DEV_BASE 0x40000000u
#define MAX_HOOKS 50000000ull

static struct {
	uc_engine *uc;
	struct m7exc m;
	uint64_t cycles, hooks, entries, returns;
	uint32_t last_pc;
	uint32_t it_addr, it_end; /* no exception entry inside an IT block */
	int done, err;
	uint32_t exit_code;
	uint32_t intc_pending, intc_enable, cycles_hi, scratch, rng;
	uint32_t timer_period, timer_on, timer_ticks;
	uint64_t timer_next;
	uint32_t dump[64];
	uint32_t dump_done;
	int tracing;
	uint32_t p_sp, p_msp, p_psp, p_primask, p_control, p_xpsr; /* read at P */
	uint32_t trace_point;
	int at_p;
} r;

static uint32_t rd(int reg)
{
	uint32_t v = 0;
	uc_reg_read(r.uc, reg, &v);
	return v;
}

static void fail(int code, const char *msg)
{
	if (!r.err) {
		fprintf(stderr, "m7_run: %s (pc 0x%08x)\n", msg, r.last_pc);
		r.err = code;
	}
	uc_emu_stop(r.uc);
}

static int bus_access(void *ctx, uint32_t addr, int write, uint32_t *v)
{
	(void)ctx;
	if (addr > RAM_SIZE - 4 || (addr & 3))
		return -1;
	return (write ? uc_mem_write(r.uc, addr, v, 4) : uc_mem_read(r.uc, addr, v, 4)) != UC_ERR_OK;
}

/* NVIC IRQ n follows the controller's line n (level-sensitive). */
static void wire_lines(void)
{
	uint32_t asserted = r.intc_pending & r.intc_enable;
	for (int n = 0; n < 4; n++) {
		uint64_t bit = 1ull << (M7EXC_IRQ0 + n);
		if ((asserted >> n) & 1) {
			if (!(r.m.active & bit))
				r.m.pending |= bit;
		} else
			r.m.pending &= ~bit;
	}
}

/* TARGET.md's timer: every PERIOD cycles TICKS counts and line 0 latches. */
static void timer_step(void)
{
	if (r.timer_on && r.timer_period && r.cycles >= r.timer_next) {
		uint64_t k = (r.cycles - r.timer_next) / r.timer_period + 1;
		r.timer_ticks += (uint32_t)k;
		r.timer_next += k * r.timer_period;
		r.intc_pending |= 1u << CITCAT_IRQ_TIMER;
	}
}

static void report_error(int rc)
{
	char msg[200];
	snprintf(msg, sizeof msg, "%s: %s %s at pc 0x%08x (address 0x%08x)",
		 rc == M7EXC_E_NOHANDLER ? "no handler" : rc == M7EXC_E_LOCKUP ? "lockup" : "exception model error",
		 m7exc_name(r.m.err_exc), r.m.err_what ? r.m.err_what : "", r.m.err_pc, r.m.err_addr);
	fail(10, msg);
}

static void hcode(uc_engine *uc, uint64_t a, uint32_t size, void *u)
{
	(void)uc, (void)size, (void)u;
	if (++r.hooks > MAX_HOOKS) {
		fail(11, "instruction limit");
		return;
	}
	if (r.at_p) { /* the boundary after the INV_I store: P */
		r.at_p = 0;
		r.trace_point = (uint32_t)a;
		r.p_sp = rd(UC_ARM_REG_SP);
		r.p_msp = rd(UC_ARM_REG_MSP);
		r.p_psp = rd(UC_ARM_REG_PSP);
		r.p_primask = rd(UC_ARM_REG_PRIMASK);
		r.p_control = rd(UC_ARM_REG_CONTROL);
		r.p_xpsr = rd(UC_ARM_REG_XPSR);
	}
	r.last_pc = (uint32_t)a;
	r.cycles++;
	m7exc_systick_advance(&r.m, 1);
	timer_step();
	wire_lines();
	if (a > r.it_addr && a < r.it_end)
		return;
	uint16_t hw = 0;
	uc_mem_read(r.uc, a, &hw, 2);
	uint32_t end = m7exc_it_block_end(r.uc, (uint32_t)a, hw);
	if (end) {
		r.it_addr = (uint32_t)a;
		r.it_end = end;
	}
	int rc = m7exc_boundary(&r.m, (uint32_t)a);
	if (rc < 0)
		report_error(rc);
	r.entries += rc == 1;
}

static void hintr(uc_engine *uc, uint32_t intno, void *u)
{
	(void)uc, (void)u;
	uint32_t pc = rd(UC_ARM_REG_PC);
	int rc = intno == 2 ? m7exc_svc(&r.m, pc)
		 : intno == 8 ? m7exc_return(&r.m, pc | 1u, r.last_pc)
		 : intno == 7 ? m7exc_fault(&r.m, M7EXC_F_BKPT, pc, 0)
			      : -100;
	r.entries += rc == 1;
	r.returns += intno == 8 && rc == 0;
	if (rc == -100)
		fail(12, "unexpected Unicorn interrupt");
	else if (rc < 0)
		report_error(rc);
}

static bool hinvalid(uc_engine *uc, void *u)
{
	(void)uc, (void)u;
	int rc = m7exc_fault(&r.m, M7EXC_F_UNDEFINSTR, rd(UC_ARM_REG_PC), 0);
	if (rc < 0) {
		report_error(rc);
		return false;
	}
	return true;
}

static bool hunmapped(uc_engine *uc, uc_mem_type t, uint64_t a, int s, int64_t v, void *u)
{
	(void)uc, (void)t, (void)s, (void)v, (void)u;
	char msg[80];
	snprintf(msg, sizeof msg, "access to nothing at 0x%08llx", (unsigned long long)a);
	fail(13, msg);
	return false;
}

static uint64_t scs_read(uc_engine *uc, uint64_t off, unsigned size, void *u)
{
	(void)uc, (void)u;
	uint32_t v = 0;
	if (m7exc_scs_read(&r.m, (uint32_t)off, size, &v))
		fail(14, "bad SCS read");
	return v;
}

static void scs_write(uc_engine *uc, uint64_t off, unsigned size, uint64_t v, void *u)
{
	(void)uc, (void)u;
	if (m7exc_scs_write(&r.m, (uint32_t)off, size, (uint32_t)v))
		fail(15, "bad SCS write");
}

static uint64_t dev_read(uc_engine *uc, uint64_t off, unsigned size, void *u)
{
	(void)uc, (void)size, (void)u;
	uint32_t a = DEV_BASE + (uint32_t)off;
	switch (a) {
	case CITCAT_SYSCTL_ID: return CITCAT_SYSCTL_ID_VALUE;
	case CITCAT_SYSCTL_SCRATCH: return r.scratch;
	case CITCAT_SYSCTL_CLOCK_HZ: return 100000000u;
	case CITCAT_ENTROPY_RANDOM: /* xorshift32: any value will do for the stand-in */
		r.rng ^= r.rng << 13;
		r.rng ^= r.rng >> 17;
		r.rng ^= r.rng << 5;
		return r.rng;
	case CITCAT_ENTROPY_SENSOR: return (r.rng = r.rng * 1664525u + 1013904223u) >> 20; /* 12 bits */
	case CITCAT_CYCLES_LO: r.cycles_hi = (uint32_t)(r.cycles >> 32); return (uint32_t)r.cycles;
	case CITCAT_CYCLES_HI: return r.cycles_hi;
	case CITCAT_INTC_PENDING: return r.intc_pending;
	case CITCAT_INTC_ENABLE: return r.intc_enable;
	case CITCAT_INTC_CLAIM:
		for (uint32_t i = 0; i < 32; i++)
			if ((r.intc_pending & r.intc_enable) >> i & 1)
				return i;
		return CITCAT_INTC_NONE;
	case CITCAT_UART_STATUS: return CITCAT_UART_ST_TXREADY | CITCAT_UART_ST_RXEND;
	case CITCAT_TIMER_PERIOD: return r.timer_period;
	case CITCAT_TIMER_CTRL: return r.timer_on;
	case CITCAT_TIMER_REMAIN: return r.timer_on && r.timer_period ? (uint32_t)(r.timer_next - r.cycles) : 0;
	case CITCAT_TIMER_TICKS: return r.timer_ticks;
	}
	char msg[64];
	snprintf(msg, sizeof msg, "unmodelled device read at 0x%08x", a);
	fail(16, msg);
	return 0;
}

static void dev_write(uc_engine *uc, uint64_t off, unsigned size, uint64_t v64, void *u)
{
	(void)uc, (void)size, (void)u;
	uint32_t a = DEV_BASE + (uint32_t)off, v = (uint32_t)v64;
	if (a >= CITCAT_TRACE_REG(0) && a < CITCAT_TRACE_DUMP_DONE) {
		r.dump[(a - CITCAT_TRACE_REG(0)) / 4] = v;
		return;
	}
	switch (a) {
	case CITCAT_SYSCTL_EXIT: r.exit_code = v; r.done = 1; uc_emu_stop(r.uc); return;
	case CITCAT_UART_DATA: putchar((int)(v & 0xff)); return;
	case CITCAT_UART_CTRL: return;
	case CITCAT_SYSCTL_SCRATCH: r.scratch = v; return;
	case CITCAT_TIMER_PERIOD: r.timer_period = v; r.timer_next = r.cycles + v; return;
	case CITCAT_TIMER_CTRL:
		if ((v & 1) && !r.timer_on)
			r.timer_next = r.cycles + r.timer_period;
		r.timer_on = v & 1;
		return;
	case CITCAT_INTC_ENABLE: r.intc_enable = v; return;
	case CITCAT_INTC_ACK: r.intc_pending &= ~v; return;
	case CITCAT_INTC_SET: r.intc_pending |= v; return;
	case CITCAT_CACHE_INV_I: r.at_p = r.tracing; return;
	case CITCAT_CACHE_INV_D: case CITCAT_CACHE_CLEAN_INV_D: case CITCAT_CACHE_CLEAN_D: return;
	case CITCAT_TRACE_CMD: r.tracing = v == CITCAT_TRACE_CMD_TRC1; return;
	case CITCAT_TRACE_DUMP_DONE: r.dump_done = v; return;
	}
	char msg[64];
	snprintf(msg, sizeof msg, "unmodelled device write at 0x%08x", a);
	fail(17, msg);
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: m7_run ELF TRACE_POINT_ADDRESS\n");
		return 2;
	}
	uint32_t want_p = (uint32_t)strtoul(argv[2], NULL, 0);
	struct citcat_image *img = NULL;
	struct citcat_errinfo ei = {0};
	uint64_t entry;
	if (citcat_image_alloc(&img) || citcat_image_load_elf(img, argv[1], &entry, &ei)) {
		fprintf(stderr, "m7_run: %s: %s\n", argv[1], ei.msg);
		return 2;
	}
	uc_hook hk;
	if (uc_open(UC_ARCH_ARM, UC_MODE_THUMB | UC_MODE_MCLASS, &r.uc) ||
	    uc_ctl_set_cpu_model(r.uc, UC_CPU_ARM_CORTEX_M7) || uc_mem_map(r.uc, 0, RAM_SIZE, UC_PROT_ALL) ||
	    uc_mmio_map(r.uc, DEV_BASE, 0x10000, dev_read, NULL, dev_write, NULL) ||
	    uc_mmio_map(r.uc, M7EXC_SCS_BASE, M7EXC_SCS_SIZE, scs_read, NULL, scs_write, NULL) ||
	    uc_hook_add(r.uc, &hk, UC_HOOK_CODE, hcode, NULL, 1, 0) ||
	    uc_hook_add(r.uc, &hk, UC_HOOK_INTR, hintr, NULL, 1, 0) ||
	    uc_hook_add(r.uc, &hk, UC_HOOK_INSN_INVALID, hinvalid, NULL, 1, 0) ||
	    uc_hook_add(r.uc, &hk, UC_HOOK_MEM_UNMAPPED, hunmapped, NULL, 1, 0)) {
		fprintf(stderr, "m7_run: Unicorn set-up failed\n");
		return 100;
	}
	for (size_t i = 0; i < citcat_image_segments(img); i++) {
		uint64_t a, n;
		const uint8_t *d;
		citcat_image_segment(img, i, &a, &n, &d);
		if (a + n > RAM_SIZE || uc_mem_write(r.uc, a, d, n)) {
			fprintf(stderr, "m7_run: segment at 0x%llx outside RAM\n", (unsigned long long)a);
			return 2;
		}
	}
	citcat_image_free(img);
	r.rng = 0x9E3779B9u;
	m7exc_init(&r.m, r.uc, (struct m7exc_bus){bus_access, NULL});
	int rc = m7exc_reset_core(&r.m);
	if (rc < 0) {
		report_error(rc);
		return 100 + r.err;
	}
	while (!r.done && !r.err) {
		uint32_t pc = rd(UC_ARM_REG_PC);
		uc_err e = uc_emu_start(r.uc, pc | 1u, 0xFFFFFFF0u, 0, 0);
		if (e != UC_ERR_OK && !r.err) {
			fprintf(stderr, "m7_run: %s at pc 0x%08x\n", uc_strerror(e), rd(UC_ARM_REG_PC));
			r.err = 18;
		}
		if (!r.done && !r.err && e == UC_ERR_OK) {
			/* back from a wfi (PC after it), or from a fault entry in the
			 * invalid-instruction hook: a wfi sleeps until SysTick fires */
			uint16_t prev = 0;
			uc_mem_read(r.uc, rd(UC_ARM_REG_PC) - 2, &prev, 2);
			if (prev == 0xbf30 && !m7exc_wants_entry(&r.m)) {
				uint64_t due = m7exc_systick_due(&r.m);
				if (r.timer_on && r.timer_period && (r.intc_enable & 1u) && r.timer_next - r.cycles < due)
					due = r.timer_next > r.cycles ? r.timer_next - r.cycles : 0;
				if (due == UINT64_MAX) {
					fail(19, "wfi with nothing to wake the core");
					break;
				}
				r.cycles += due;
				m7exc_systick_advance(&r.m, due);
				timer_step();
				wire_lines();
			}
		}
	}
	uc_close(r.uc);
	fflush(stdout);
	if (r.err)
		return 100 + r.err;
	printf("exit %u\n", r.exit_code);
	fprintf(stderr, "m7_run: %llu code hooks, %llu exception entries, %llu returns\n", (unsigned long long)r.hooks,
		(unsigned long long)r.entries, (unsigned long long)r.returns);

	/* the driver's dump against the core's state at P */
	int bad = 0;
#define DUMP_CHECK(slot, want)                                                                             \
	do {                                                                                               \
		if (r.dump[slot] != (want)) {                                                              \
			fprintf(stderr, "m7_run: dump slot %d = 0x%08x, want 0x%08x\n", slot, r.dump[slot], \
				(unsigned)(want));                                                          \
			bad = 1;                                                                           \
		}                                                                                          \
	} while (0)
	DUMP_CHECK(24, 0); /* nothing beyond the 23 slots (was never written) */
	if (r.dump_done != 23 || r.trace_point != want_p) {
		fprintf(stderr, "m7_run: DUMP_DONE %u (want 23), P 0x%08x (want 0x%08x)\n", r.dump_done, r.trace_point,
			want_p);
		bad = 1;
	}
	DUMP_CHECK(0, 0x40000100u);
	DUMP_CHECK(1, CITCAT_TRACE_CMD_TRC1);
	DUMP_CHECK(13, r.p_sp);
	DUMP_CHECK(15, want_p);
	DUMP_CHECK(16, r.p_xpsr | 0x01000000u);
	DUMP_CHECK(17, r.p_msp);
	DUMP_CHECK(18, r.p_psp);
	DUMP_CHECK(19, r.p_primask);
	DUMP_CHECK(19, 1);
	DUMP_CHECK(22, r.p_control);
	if (bad)
		return 120;
	return (int)r.exit_code;
}
