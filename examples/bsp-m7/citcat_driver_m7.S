/*
 * citcat_driver_m7.S - the CITCAT driver for the modelled Cortex-M7
 * target, in Thumb-2.
 *
 *   void citcat_trace_start(void);
 *   void citcat_trace_stop(void);
 *   void citcat_trace_ckpt(void);   (the checkpoint handler's, startup.S)
 *
 * The contract of the A target's driver (examples/bsp/citcat_driver.S and
 * capture/TARGET.md "Trace module"): with interrupts masked, write TRC1 to
 * the trace CMD register, CLEAN_INV_D, then INV_I; the boundary right after
 * the INV_I store is the trace start point P; then store, with uncached
 * stores to REG[k], the value every register had at P, write DUMP_DONE =
 * the number of slots, and return with everything restored.  No cached data
 * access between P and DUMP_DONE (registers only: mov/mrs/adr, no literal
 * pool).
 *
 * The M7 register layout (CITCAT_M7_SLOT_* in citcat_m7.h, TARGET-M7.md):
 *   0..12  r0..r12       13 SP (the one in use)   14 LR   15 PC = P
 *   16 xPSR (APSR | IPSR, with EPSR.T = 1; MRS reads T as 0, so it is added)
 *   17 MSP   18 PSP   19 PRIMASK   20 BASEPRI   21 FAULTMASK   22 CONTROL
 *   DUMP_DONE = 23.
 * citcat_trace_ckpt (TARGET-M7.md "Checkpoints") then reads 16 SCS
 * registers into 23 VTOR, 24 AIRCR, 25 CCR, 26 SHCSR, 27..29 SHPR1..3,
 * 30 IABR0, 31..38 IPR0..7, and writes DUMP_DONE = 39.
 * Values at P:
 *   r0  = 0x40000100 (the cache-maintenance base, used as the store base:
 *         Thumb-2 stores take positive 12-bit offsets, and CMD, INV_I,
 *         CLEAN_INV_D and every slot are within 0x40000100 + 0..0xEFC)
 *   r1  = 0x54524331 ('TRC1')
 *   r2  = the caller's r2
 *   r3  = the caller's PRIMASK (restored at the end)
 *   r4..r12, r14 = the caller's
 *   SP  = the caller's SP - 16 (r0..r3 saved on the stack)
 *   PRIMASK = 1
 * Must be called privileged (thread mode with CONTROL.nPRIV = 0, or a
 * handler): MRS of MSP, PSP and the masks reads 0 when unprivileged.
 */
    .syntax unified
    .thumb
    .text

#define BASE_LO         0x0100          /* 0x40000100: CITCAT_CACHE_BASE */
#define BASE_HI         0x4000
#define INV_I           0x000           /* 0x40000100 */
#define CLEAN_INV_D     0x008           /* 0x40000108 */
#define CMD             0xE00           /* 0x40000F00 */
#define REG(k)          (0xE40 + 4 * (k))
#define DUMP_DONE       0xEFC
#define NSLOTS          23
#define NSLOTS_CKPT     39              /* citcat_trace_ckpt: 23 + 16 SCS slots */

/*
 * DRIVER NAME, POINT, SCS: the driver body.  SCS = 1 (citcat_trace_ckpt,
 * the checkpoint's, TARGET-M7.md "Checkpoints"): after the 23 register
 * slots, 16 SCS registers are read (uncached SCS reads, recorded like any)
 * and stored to slots 23..38, and DUMP_DONE = 39.  r1 and r2 are free by
 * then (dumped, and restored by the final pop).
 */
    .macro SCSDUMP slot, off
    ldr.w   r1, [r2, #\off]
    str.w   r1, [r0, #REG(\slot)]
    .endm

    .macro DRIVER name, point, scs
    .global \name
    .type   \name, %function
    .balign 32
    .thumb_func
\name:
    push    {r0-r3}
    mrs     r3, primask             @ the caller's mask
    cpsid   i                       @ no exception from here to the end of the dump
    movw    r0, #BASE_LO
    movt    r0, #BASE_HI
    movw    r1, #0x4331
    movt    r1, #0x5452             @ 'TRC1'
    str.w   r1, [r0, #CMD]          @ arm the trace: recording starts
    str.w   r1, [r0, #CLEAN_INV_D]  @ write back dirty D lines, invalidate D
    str.w   r1, [r0, #INV_I]        @ invalidate I: the next boundary is P
    .global \point
\point:                            @ P (P_k for the checkpoint's)
    str.w   r0, [r0, #REG(0)]
    str.w   r1, [r0, #REG(1)]
    str.w   r2, [r0, #REG(2)]
    str.w   r3, [r0, #REG(3)]
    str.w   r4, [r0, #REG(4)]
    str.w   r5, [r0, #REG(5)]
    str.w   r6, [r0, #REG(6)]
    str.w   r7, [r0, #REG(7)]
    str.w   r8, [r0, #REG(8)]
    str.w   r9, [r0, #REG(9)]
    str.w   r10, [r0, #REG(10)]
    str.w   r11, [r0, #REG(11)]
    str.w   r12, [r0, #REG(12)]
    str.w   sp, [r0, #REG(13)]
    str.w   lr, [r0, #REG(14)]
    adr.w   r1, \point             @ r1 already dumped: reuse it
    str.w   r1, [r0, #REG(15)]      @ P (even: an address, not a Thumb pointer)
    mrs     r2, xpsr                @ flags unchanged since P (nothing sets them)
    orr     r2, r2, #0x01000000     @ EPSR.T, which MRS reads as 0
    str.w   r2, [r0, #REG(16)]
    mrs     r1, msp
    str.w   r1, [r0, #REG(17)]
    mrs     r1, psp
    str.w   r1, [r0, #REG(18)]
    mrs     r1, primask
    str.w   r1, [r0, #REG(19)]
    mrs     r1, basepri
    str.w   r1, [r0, #REG(20)]
    mrs     r1, faultmask
    str.w   r1, [r0, #REG(21)]
    mrs     r1, control
    str.w   r1, [r0, #REG(22)]
    .if \scs
    movw    r2, #0xE000
    movt    r2, #0xE000             @ the SCS base 0xE000E000
    SCSDUMP 23, 0xD08               @ VTOR
    SCSDUMP 24, 0xD0C               @ AIRCR (PRIGROUP)
    SCSDUMP 25, 0xD14               @ CCR
    SCSDUMP 26, 0xD24               @ SHCSR (enables, active bits)
    SCSDUMP 27, 0xD18               @ SHPR1..3
    SCSDUMP 28, 0xD1C
    SCSDUMP 29, 0xD20
    SCSDUMP 30, 0x300               @ IABR0 (active IRQs)
    SCSDUMP 31, 0x400               @ IPR0..7
    SCSDUMP 32, 0x404
    SCSDUMP 33, 0x408
    SCSDUMP 34, 0x40C
    SCSDUMP 35, 0x410
    SCSDUMP 36, 0x414
    SCSDUMP 37, 0x418
    SCSDUMP 38, 0x41C
    mov.w   r1, #NSLOTS_CKPT        @ not movs: the flags stay as at P
    .else
    mov.w   r1, #NSLOTS             @ not movs: the flags stay as at P
    .endif
    str.w   r1, [r0, #DUMP_DONE]    @ the dump is complete
    msr     primask, r3             @ the caller's mask
    pop     {r0-r3}
    bx      lr
    .size   \name, . - \name
    .endm

    DRIVER  citcat_trace_start, citcat_trace_point, 0
    DRIVER  citcat_trace_ckpt, citcat_ckpt_point, 1

    .global citcat_trace_stop
    .type   citcat_trace_stop, %function
    .thumb_func
citcat_trace_stop:
    push    {r0, r1}
    movw    r0, #BASE_LO
    movt    r0, #BASE_HI
    movw    r1, #0x4F50
    movt    r1, #0x5354             @ 'STOP'
    str.w   r1, [r0, #CMD]
    pop     {r0, r1}
    bx      lr
    .size   citcat_trace_stop, . - citcat_trace_stop
