/*
 * ldrex_align - an LDREX at an address that is not word-aligned (issue 36):
 * an alignment abort, on the ARMv7-A target whatever SCTLR.A (fault kind 9,
 * "abort"), on the Cortex-M7 where citcat models no UsageFault UNALIGNED
 * (the same abort; TARGET-M7.md, "Accesses that cross a line").  Unicorn
 * 2.0.1 reports the load to UC_HOOK_MEM_READ before it aborts and never to
 * READ_AFTER (tests/test_unicorn_split.c); the capture took READ without an
 * oracle and READ_AFTER with one, so the two CATs differed by the line the
 * aborted load filled, and replay --verify alone (READ) diverged from a CAT
 * captured with --oracle.  Both now hook READ_AFTER (machine/core.h).
 * tests/fidelity/roundtrip.sh checks it, expecting exit status 3.
 */
#include <stdint.h>
#include <stdio.h>

static uint8_t b[64] __attribute__((aligned(64)));

int main(void)
{
	uint32_t v;
	printf("ldrex_align: go\n");
	__asm__ volatile("ldrex %0, [%1]" : "=r"(v) : "r"(b + 5) : "memory");
	printf("ldrex_align: not reached %08lx\n", (unsigned long)v);
	return 1;
}
