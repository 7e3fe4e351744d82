/* The input format of the fuzz_replay target: a "recipe" from which the
 * harness builds an IMS/AES pair with the library's own writers, so that
 * mutations of registers, memory, record fields, record order and
 * instruction counts reach the replayer instead of stopping at the
 * containers' checksums.  tests/fuzz/replay_recipe.c turns a real IMS/AES
 * pair into a recipe (the seeds); fuzz_replay.c reads it.  Little-endian,
 * no padding; the parser is lenient: whatever is missing at the end of the
 * input is cut off there, so every byte string is a recipe.
 *
 *   flags     u8   bit 0: write the regenerated itrace too
 *                  bit 1: give the AES a different trace id (mismatched pair)
 *   config    96   target configuration, CAT metadata layout (CAT.md)
 *   insns     u32  instructions in the traced interval (the IMS's trace id)
 *   regs      39 x u32, register-dump slot order; slot 15 = P
 *   repl      2 x u32, the I- and D-cache random-replacement generators at P
 *             (IMS version 2; 0 for a cache without random replacement; the
 *             harness makes it 0 there, and 1 for a random cache whose state is 0)
 *   nruns     u16  memory runs that follow
 *   run       u32 offset from the RAM base (modulo the RAM size),
 *             u16 n: bits 14..0 length, bit 15: the run is one byte repeated
 *             (then one byte follows, else n bytes)
 *   then AES records up to the end of the input, each a kind byte k:
 *     k % 8 = 0 IRQ      u8 line (mod 16), u32 epc, u32 bcount
 *             1 DMA      u32 addr, u32 pc, u32 bcount, u16 len-1 (mod 4096), data
 *             2 INPUT, 3 OUTPUT, 4 COUNTER
 *                        u32 addr, u8 size code (mod 3: 1, 2, 4 bytes), u32 value
 *                        (cut to the size)
 *             5 END      u32 insns, u32 bcount, u8 stop reason (mod 3)
 *             6 REPEAT   u16 n: the last INPUT/OUTPUT/COUNTER record n+1 more times
 *             7          nothing (a spacer)
 */
#ifndef CITCAT_FUZZ_REPLAY_RECIPE_H
#define CITCAT_FUZZ_REPLAY_RECIPE_H

#define RECIPE_FLAG_OUT 1u
#define RECIPE_FLAG_MISMATCH 2u
#define RECIPE_HEADER (1 + 96 + 4 + 39 * 4 + 8 + 2)

enum { RK_IRQ, RK_DMA, RK_INPUT, RK_OUTPUT, RK_COUNTER, RK_END, RK_REPEAT, RK_SPACER };

#endif
