/*
 * blk_smc - code that changes between runs of the same block, for the
 * replayer's block engine (replay/REPLAY.md "The load hooks' cost": its
 * block cache skips the byte compare only while no write reached a cached
 * block's bytes).  A two-instruction function in RAM (r0 = IMM or
 * r0 = r0 + IMM, then a return) is called again and again at the same
 * address with the same size, and between the calls its first instruction
 * is changed:
 *  - by a CPU store of a new word (or halfword, Thumb): another immediate,
 *    or MOV turned into ADD and back;
 *  - by a DMA transfer of one byte from the DMA input into the immediate
 *    (any byte is a valid immediate of MOV and MOVS), run to its end by
 *    polling STATUS, with no CPU store into the function between its last
 *    call and the next (the function has its 64 bytes to itself: the
 *    block cache watches writes per 64-byte granule);
 *  - by a CPU byte store into the immediate.
 * Each call's result is checked against the immediate read back from RAM.
 * Replayed with every engine against the oracle (tests/replay_engines.sh,
 * CTest replay_engines_smc); a block engine that ran the old decode of the
 * function would give other words in its itrace.
 *
 * Built with -DSMC_TICK=N (blk_smc_irq): the function has NPAD adds after
 * its first instruction, and a timer interrupt every N cycles lands inside
 * its block and the callers' again and again.  The block engine enters
 * such an interrupt by running the block up to it in its second engine
 * (replay/REPLAY.md "Two engines"), which keeps translations of its own:
 * a store or a transfer into the function made while one engine runs must
 * reach the other's translation too.
 *
 * Self-check: exit 0 and "blk_smc: OK" only when every call returned what
 * its code says.
 */
#include <stdint.h>
#include <stdio.h>

#include "citcat_target.h"

#ifdef SMC_TICK
#define ROUNDS 400u
#define NPAD 6u
static volatile uint32_t ticks;
void citcat_irq_timer(void) { ticks++; }
#else
#define ROUNDS 120u
#define NPAD 0u
#endif

#if defined(__thumb__)
static volatile uint16_t code[32] __attribute__((aligned(64))); /* a granule of its own */
#define MOV_IMM(i) ((uint16_t)(0x2000u | ((i) & 0xffu))) /* movs r0, #i */
#define ADD_IMM(i) ((uint16_t)(0x3000u | ((i) & 0xffu))) /* adds r0, #i */
#define RET 0x4770u                                      /* bx lr */
#define ADD1 0x3001u                                     /* adds r0, #1 */
#define FN ((uint32_t (*)(uint32_t))((uintptr_t)code | 1u))
#else
static volatile uint32_t code[16] __attribute__((aligned(64))); /* a granule of its own */
#define MOV_IMM(i) (0xe3a00000u | ((i) & 0xffu)) /* mov r0, #i */
#define ADD_IMM(i) (0xe2800000u | ((i) & 0xffu)) /* add r0, r0, #i */
#define RET 0xe12fff1eu                          /* bx lr */
#define ADD1 0xe2800001u                        /* add r0, r0, #1 */
#define FN ((uint32_t (*)(uint32_t))(uintptr_t)code)
#endif

static uint32_t bad, sum;

/* calls the function a few times (so that the block is cached and run
 * from the cache) and checks each result */
static void call(uint32_t add, uint32_t imm)
{
    for (uint32_t k = 0; k < 3u; k++) {
        uint32_t x = sum & 0xffffu;
        __asm__ volatile("dsb\n isb" ::: "memory");
        uint32_t r = FN(x);
        bad += r != (add ? x + imm : imm) + NPAD;
        sum = sum * 33u + r;
    }
}

int main(void)
{
    for (uint32_t i = 1; i <= NPAD; i++)
        code[i] = ADD1;
    code[NPAD + 1] = RET;
#ifdef SMC_TICK
    citcat_irq_enable_line(CITCAT_IRQ_TIMER);
    citcat_timer_start(SMC_TICK);
    citcat_irq_unmask();
#endif
    for (uint32_t rep = 0; rep < ROUNDS; rep++) {
        uint32_t imm = (rep * 37u + 5u) & 0xffu, add = rep & 1u;
        code[0] = add ? ADD_IMM(imm) : MOV_IMM(imm); /* a CPU store */
        call(add, imm);
        code[0] = MOV_IMM(0);
        call(0, 0); /* cached and compared after the store: only the DMA changes it now */
        citcat_dma_start((void *)code, 1u, 0); /* the immediate, from the DMA input */
        while (citcat_dma_status() & CITCAT_DMA_ST_BUSY)
            ;
        call(0, code[0] & 0xffu);
        *(volatile uint8_t *)code = (uint8_t)(imm ^ 0x5au); /* a byte store */
        call(0, imm ^ 0x5au);
    }
#ifdef SMC_TICK
    citcat_irq_mask();
    citcat_timer_stop();
    printf("blk_smc: %lu ticks, ", (unsigned long)ticks);
#endif
    printf("blk_smc: sum=0x%08lx %s\n", (unsigned long)sum, bad ? "FAIL" : "OK");
    citcat_exit(bad ? 1u : 0u);
}
