@ Interrupt lines the CAT cannot carry (TARGET.md, Interrupt controller):
@ the firmware enables and sets lines 16 and 31 with interrupts unmasked.
@ The controller has lines 0..14 only, so no interrupt is taken and
@ ENABLE and PENDING read back 0.  Exit value: 0 when so; otherwise bit 0
@ an interrupt was taken (before, line 16 was recorded in the CAT as line
@ 0), bit 1 ENABLE kept a high bit, bit 2 PENDING did.  Then line 3 (a
@ line the CAT carries) is set and must be taken exactly once: bit 3 when
@ it is not.  Recording starts (TRC1) without a register dump: the CAT
@ holds the one IRQ event and no traced interval.
	.arm
	.section .text
	.global _start
_start:
	b	reset
	b	.		@ undefined
	b	.		@ SVC
	b	.		@ prefetch abort
	b	.		@ data abort
	b	.
	b	irq		@ IRQ at 0x18
	b	.		@ FIQ
reset:
	ldr	r4, =0x40000000
	ldr	r0, =0x54524331
	str	r0, [r4, #0xf00]	@ TRC1: record from here (the CAT's events)
	mov	r5, #0		@ interrupts taken
	mov	r6, #0		@ lines claimed, ORed
	ldr	r0, =0x80010000	@ lines 31 and 16
	str	r0, [r4, #0x204]	@ INTC ENABLE
	str	r0, [r4, #0x210]	@ INTC SET
	cpsie	i
	nop
	nop
	nop
	nop
	cpsid	i
	mov	r7, #0
	cmp	r5, #0
	orrne	r7, r7, #1
	ldr	r1, [r4, #0x204]	@ ENABLE
	cmp	r1, #0
	orrne	r7, r7, #2
	ldr	r1, [r4, #0x200]	@ PENDING
	cmp	r1, #0
	orrne	r7, r7, #4
	mov	r0, #8		@ line 3
	str	r0, [r4, #0x204]
	str	r0, [r4, #0x210]
	cpsie	i
	nop
	nop
	cpsid	i
	cmp	r5, #1
	cmpeq	r6, #3
	orrne	r7, r7, #8
	str	r7, [r4]	@ EXIT
	b	.
irq:					@ r8, r9 are the handler's alone: no stack
	ldr	r8, [r4, #0x20c]	@ CLAIM
	add	r5, r5, #1
	orr	r6, r6, r8
	mov	r9, #1
	lsl	r9, r9, r8
	str	r9, [r4, #0x208]	@ ACK
	subs	pc, lr, #4
