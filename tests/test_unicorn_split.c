/* What Unicorn 2.0.1 reports to the memory hooks for accesses that cross a
 * D-cache line, a page of its own or an alignment boundary, and for the
 * exclusive and swap accesses, on the Cortex-A9 (ARM state, SCTLR.A = 0)
 * and the Cortex-M7: what capture/TARGET.md "Accesses that cross a line"
 * and machine/core.h (core_read_echo) rely on (issue 36).  If an update of
 * Debian's libunicorn changes one of them, this test says which. */
#include "check.h"
#include "core.h"

#include <string.h>
#include <unicorn/unicorn.h>

struct call {
	int write;
	uint32_t a;
	int size;
	uint64_t v;
};
static struct call calls[16];
static int ncalls, filter, intr_no;
static struct core_rsplit rs;

static void hmem(uc_engine *uc, uc_mem_type t, uint64_t a, int s, int64_t v, void *u)
{
	if (filter && t == UC_MEM_READ && core_read_echo(&rs, (uint32_t)a, (unsigned)s))
		return;
	if (ncalls < 16)
		calls[ncalls++] = (struct call){t == UC_MEM_WRITE, (uint32_t)a, s, (uint64_t)v};
}

static void hintr(uc_engine *uc, uint32_t no, void *u)
{
	intr_no = (int)no;
	uc_emu_stop(uc);
}

/* A core (the M7 when M7) with 1 MiB of RAM at 0, CODE at 0x100, the
 * memory hook on reads (READ_AFTER when AFTER) and writes. */
static uc_engine *open_core(int m7, int after, const void *code, size_t len)
{
	uc_engine *uc;
	CHECK_EQ(uc_open(UC_ARCH_ARM, m7 ? UC_MODE_THUMB | UC_MODE_MCLASS : UC_MODE_ARM, &uc), UC_ERR_OK);
	CHECK_EQ(uc_ctl_set_cpu_model(uc, m7 ? UC_CPU_ARM_CORTEX_M7 : UC_CPU_ARM_CORTEX_A9), UC_ERR_OK);
	CHECK_EQ(uc_mem_map(uc, 0, 1 << 20, UC_PROT_ALL), UC_ERR_OK);
	uc_mem_write(uc, 0x100, code, len);
	uc_hook h;
	CHECK_EQ(uc_hook_add(uc, &h, (after ? UC_HOOK_MEM_READ_AFTER : UC_HOOK_MEM_READ) | UC_HOOK_MEM_WRITE, hmem, NULL, 0,
			     (1 << 20) - 1),
		 UC_ERR_OK);
	CHECK_EQ(uc_hook_add(uc, &h, UC_HOOK_INTR, hintr, NULL, 1, 0), UC_ERR_OK);
	uint32_t ps = 0;
	/* uc_ctl_get_page_size, spelt out: Unicorn 2.0.1's UC_CTL_READ shifts
	 * the int 2 left by 30 (undefined; UBSan stops there) */
	CHECK_EQ(uc_ctl(uc, (uc_control_type)((unsigned)UC_CTL_UC_PAGE_SIZE | (1u << 26) | ((unsigned)UC_CTL_IO_READ << 30)), &ps),
		 UC_ERR_OK);
	CHECK_EQ(ps, CORE_PAGE); /* the page core_read_echo knows */
	return uc;
}

/* Runs the instruction at PC (LEN bytes; Thumb on the M7) with r0 = R0,
 * r1 = 0x11223344, r4 = 0x55667788, r5 = 0x99aabbcc. */
static void run1(uc_engine *uc, int m7, uint32_t pc, uint32_t len, uint32_t r0)
{
	uint32_t r1 = 0x11223344, r4 = 0x55667788, r5 = 0x99aabbcc, sp = 0x8000;
	uc_reg_write(uc, UC_ARM_REG_R0, &r0);
	uc_reg_write(uc, UC_ARM_REG_R1, &r1);
	uc_reg_write(uc, UC_ARM_REG_R4, &r4);
	uc_reg_write(uc, UC_ARM_REG_R5, &r5);
	uc_reg_write(uc, UC_ARM_REG_SP, &sp);
	ncalls = 0;
	intr_no = -1;
	memset(&rs, 0, sizeof rs);
	uc_emu_start(uc, pc | (uint32_t)m7, pc + len, 0, 0);
}

static int is(int k, int write, uint32_t a, int size)
{
	return k < ncalls && calls[k].write == write && calls[k].a == a && calls[k].size == size;
}

/* A32 at 0x100, one instruction each 4 bytes */
enum { STR, LDR, STRH, LDRH, LDM, STM, LDRD, STRD, LDREX, STREX, LDREXD, STREXD, SWP, N_A32 };
static const uint32_t a32[N_A32] = {
	0xe5801000, /* str r1, [r0] */
	0xe5902000, /* ldr r2, [r0] */
	0xe1c010b0, /* strh r1, [r0] */
	0xe1d020b0, /* ldrh r2, [r0] */
	0xe8900030, /* ldm r0, {r4, r5} */
	0xe8800030, /* stm r0, {r4, r5} */
	0xe1c040d0, /* ldrd r4, r5, [r0] */
	0xe1c040f0, /* strd r4, r5, [r0] */
	0xe1902f9f, /* ldrex r2, [r0] */
	0xe1803f91, /* strex r3, r1, [r0] */
	0xe1b04f9f, /* ldrexd r4, r5, [r0] */
	0xe1a03f94, /* strexd r3, r4, r5, [r0] */
	0xe1002091, /* swp r2, r1, [r0] */
};
#define A(i) (0x100 + 4 * (i))

static void test_a9(void)
{
	for (int after = 0; after < 2; after++) {
		uc_engine *uc = open_core(0, after, a32, sizeof a32);
		/* 1. A load crossing a page (1 KiB): to READ the load, then the
		 * two aligned loads Unicorn makes it from; to READ_AFTER once. */
		run1(uc, 0, A(LDR), 4, 0x53fe);
		CHECK(is(0, 0, 0x53fe, 4));
		CHECK_EQ(ncalls, after ? 1 : 3);
		if (!after)
			CHECK(is(1, 0, 0x53fc, 4) && is(2, 0, 0x5400, 4));
		run1(uc, 0, A(LDRH), 4, 0x57ff);
		CHECK(is(0, 0, 0x57ff, 2));
		CHECK_EQ(ncalls, after ? 1 : 3);
		if (!after)
			CHECK(is(1, 0, 0x57fe, 2) && is(2, 0, 0x5800, 2));
		/* core_read_echo drops the two and only them */
		filter = 1;
		run1(uc, 0, A(LDR), 4, 0x5ffd);
		CHECK(ncalls == 1 && is(0, 0, 0x5ffd, 4));
		filter = 0;
		/* 2. A load crossing a line (32 or 64 bytes) but no page: once. */
		run1(uc, 0, A(LDR), 4, 0x503d);
		CHECK(ncalls == 1 && is(0, 0, 0x503d, 4));
		run1(uc, 0, A(LDRH), 4, 0x503f);
		CHECK(ncalls == 1 && is(0, 0, 0x503f, 2));
		/* 3. A store crossing a page or a line: once, with the whole value. */
		run1(uc, 0, A(STR), 4, 0x53fd);
		CHECK(ncalls == 1 && is(0, 1, 0x53fd, 4) && calls[0].v == 0x11223344);
		run1(uc, 0, A(STRH), 4, 0x53ff);
		CHECK(ncalls == 1 && is(0, 1, 0x53ff, 2) && calls[0].v == 0x3344);
		uint8_t m[4];
		uc_mem_read(uc, 0x53ff, m, 2);
		CHECK(m[0] == 0x44 && m[1] == 0x33);
		/* 4. SCTLR.A = 0 and Unicorn 2.0.1: LDM, STM, LDRD and STRD at an
		 * address that is not word-aligned raise no alignment fault (the
		 * architecture's Alignment fault is not modelled): one 4-byte
		 * access per word at the unaligned addresses, in ascending order. */
		for (int op = LDM; op <= STRD; op++) {
			run1(uc, 0, A(op), 4, 0x5001);
			int w = op == STM || op == STRD;
			CHECK(intr_no == -1 && ncalls == 2 && is(0, w, 0x5001, 4) && is(1, w, 0x5005, 4));
		}
		/* 5. Exclusives and SWP, aligned: LDREX one load; STREX with the
		 * monitor open a load and a store (a compare-and-swap), with it
		 * closed nothing; LDREXD one 8-byte load, STREXD an 8-byte load
		 * and store; SWP a load and a store.  An unaligned LDREX is an
		 * abort (EXCP_DATA_ABORT, 4), after its read was reported to READ
		 * (never to READ_AFTER). */
		run1(uc, 0, A(LDREX), 4, 0x6000);
		CHECK(ncalls == 1 && is(0, 0, 0x6000, 4));
		run1(uc, 0, A(STREX), 4, 0x6000);
		CHECK(ncalls == 2 && is(0, 0, 0x6000, 4) && is(1, 1, 0x6000, 4));
		run1(uc, 0, A(STREX), 4, 0x6000);
		CHECK_EQ(ncalls, 0);
		run1(uc, 0, A(LDREXD), 4, 0x6008);
		CHECK(ncalls == 1 && is(0, 0, 0x6008, 8));
		run1(uc, 0, A(STREXD), 4, 0x6008);
		CHECK(ncalls == 2 && is(0, 0, 0x6008, 8) && is(1, 1, 0x6008, 8) && calls[1].v == 0x99aabbcc55667788ull);
		run1(uc, 0, A(SWP), 4, 0x6010);
		CHECK(ncalls == 2 && is(0, 0, 0x6010, 4) && is(1, 1, 0x6010, 4));
		run1(uc, 0, A(LDREX), 4, 0x6001);
		CHECK(intr_no == 4 && ncalls == !after && (after || is(0, 0, 0x6001, 4)));
		run1(uc, 0, A(SWP), 4, 0x6011); /* the same for an unaligned SWP */
		CHECK(intr_no == 4 && ncalls == !after && (after || is(0, 0, 0x6011, 4)));
		uc_close(uc);
	}
}

/* T32 at 0x100 (arm-none-eabi-as -mcpu=cortex-m7) */
static const uint8_t t32[] = {
	0x01, 0x60,             /* 0x100 str r1, [r0] */
	0x02, 0x68,             /* 0x102 ldr r2, [r0] */
	0x02, 0x88,             /* 0x104 ldrh r2, [r0] */
	0x90, 0xe8, 0x30, 0x00, /* 0x106 ldmia.w r0, {r4, r5} */
	0x50, 0xe8, 0x00, 0x2f, /* 0x10a ldrex r2, [r0] */
	0x40, 0xe8, 0x00, 0x13, /* 0x10e strex r3, r1, [r0] */
	0xd0, 0xe9, 0x00, 0x45, /* 0x112 ldrd r4, r5, [r0] */
};

static void test_m7(void)
{
	for (int after = 0; after < 2; after++) {
		uc_engine *uc = open_core(1, after, t32, sizeof t32);
		run1(uc, 1, 0x102, 2, 0x53fe); /* across a page: as on the A9 */
		CHECK(is(0, 0, 0x53fe, 4));
		CHECK_EQ(ncalls, after ? 1 : 3);
		if (!after)
			CHECK(is(1, 0, 0x53fc, 4) && is(2, 0, 0x5400, 4));
		run1(uc, 1, 0x104, 2, 0x57ff);
		CHECK_EQ(ncalls, after ? 1 : 3);
		filter = 1;
		run1(uc, 1, 0x104, 2, 0x57ff);
		CHECK(ncalls == 1 && is(0, 0, 0x57ff, 2));
		filter = 0;
		run1(uc, 1, 0x102, 2, 0x503d); /* across a line */
		CHECK(ncalls == 1 && is(0, 0, 0x503d, 4));
		run1(uc, 1, 0x100, 2, 0x53fd);
		CHECK(ncalls == 1 && is(0, 1, 0x53fd, 4) && calls[0].v == 0x11223344);
		/* LDM and LDRD not word-aligned: performed, no UsageFault
		 * UNALIGNED (the architecture's is not modelled either) */
		run1(uc, 1, 0x106, 4, 0x5001);
		CHECK(intr_no == -1 && ncalls == 2 && is(0, 0, 0x5001, 4) && is(1, 0, 0x5005, 4));
		run1(uc, 1, 0x112, 4, 0x5002);
		CHECK(intr_no == -1 && ncalls == 2 && is(0, 0, 0x5002, 4) && is(1, 0, 0x5006, 4));
		/* LDREX/STREX as on the A9 */
		run1(uc, 1, 0x10a, 4, 0x6000);
		CHECK(ncalls == 1 && is(0, 0, 0x6000, 4));
		run1(uc, 1, 0x10e, 4, 0x6000);
		CHECK(ncalls == 2 && is(0, 0, 0x6000, 4) && is(1, 1, 0x6000, 4));
		run1(uc, 1, 0x10a, 4, 0x6001);
		CHECK(intr_no == 4 && ncalls == !after && (after || is(0, 0, 0x6001, 4)));
		uc_close(uc);
	}
}

/* core_read_echo on its own: a genuine load of the aligned word after a
 * page-crossing one is an access once the echoes have come, and echoes
 * that never come (the load faulted) do not eat the next load. */
static void test_filter(void)
{
	struct core_rsplit s;
	memset(&s, 0, sizeof s);
	CHECK_EQ(core_read_echo(&s, 0x13fe, 4), 0);
	CHECK_EQ(core_read_echo(&s, 0x13fc, 4), 1);
	CHECK_EQ(core_read_echo(&s, 0x1400, 4), 1);
	CHECK_EQ(core_read_echo(&s, 0x13fc, 4), 0); /* ldr rX, [rY, #-2] after it */
	CHECK_EQ(core_read_echo(&s, 0x13ff, 2), 0);
	CHECK_EQ(core_read_echo(&s, 0x2000, 4), 0); /* not an echo: forgotten */
	CHECK_EQ(core_read_echo(&s, 0x1400, 2), 0);
	CHECK_EQ(core_read_echo(&s, 0x13fd, 1), 0); /* a byte never crosses */
	CHECK_EQ(core_read_echo(&s, 0x13fc, 4), 0);
	CHECK_EQ(core_read_echo(&s, 0x103d, 4), 0); /* a line, not a page */
	CHECK_EQ(core_read_echo(&s, 0x103c, 4), 0);
}

int main(void)
{
	test_a9();
	test_m7();
	test_filter();
	CHECK_DONE();
}
