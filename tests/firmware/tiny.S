@ A tiny hand-written firmware for the capture tests: starts tracing with the
@ CITCAT driver sequence, loops over memory (fills, dirty write-backs), reads
@ devices, takes timer interrupts (including one inside a `b .` loop), runs
@ a short DMA, and exits with 0.
	.arm
	.section .text
	.global _start
vectors:
	b	_start			@ 0x00 reset
	b	.			@ 0x04 undef
	b	.			@ 0x08 svc
	b	.			@ 0x0c pabort
	b	.			@ 0x10 dabort
	b	.			@ 0x14
	b	irq			@ 0x18 irq
	b	.			@ 0x1c fiq

_start:
	cps	#0x12			@ IRQ mode stack
	ldr	sp, =0x00100000
	cps	#0x13			@ SVC mode stack
	ldr	sp, =0x000f0000
	ldr	r4, =0x40000000
	@ --- CITCAT driver (simplified: registers hold known values at P) ---
	ldr	r0, =0x54524331
	str	r0, [r4, #0xf00]	@ TRC1
	str	r0, [r4, #0x108]	@ CLEAN_INV_D
	str	r0, [r4, #0x100]	@ INV_I -> the next instruction is P
P:	add	r1, r4, #0xf00
	str	r0, [r1, #0x40]		@ r0
	mov	r2, #39
	str	r2, [r1, #0xfc]		@ DUMP_DONE
	@ --- memory loop: stride through 64 KiB, writing (dirty lines) ---
	ldr	r5, =0x00200000
	mov	r6, #0
1:	ldr	r7, [r5, r6]
	add	r7, r7, r6
	str	r7, [r5, r6]
	add	r6, r6, #32
	cmp	r6, #0x10000
	blt	1b
	@ --- devices: cycle counter, entropy ---
	ldr	r0, [r4, #0x600]
	ldr	r0, [r4, #0x700]
	@ --- DMA 64 bytes to 0x300000, polling ---
	ldr	r0, =0x00300000
	str	r0, [r4, #0x500]
	mov	r0, #64
	str	r0, [r4, #0x504]
	mov	r0, #1
	str	r0, [r4, #0x508]
2:	ldr	r0, [r4, #0x50c]
	tst	r0, #1
	bne	2b
	ldr	r0, =0x00300000
	ldr	r1, [r0]		@ read DMA data
	@ --- timer interrupts: period 500 cycles, enable line 0 ---
	mov	r0, #1
	str	r0, [r4, #0x204]	@ INTC ENABLE line 0
	mov	r0, #500
	str	r0, [r4, #0x300]
	mov	r0, #1
	str	r0, [r4, #0x304]
	mov	r8, #0			@ tick counter (incremented by the handler)
	cpsie	i
3:	cmp	r8, #3
	blt	3b			@ wait for three ticks
	ldr	r9, =wait_here
	mov	r10, #0
wait_here:
	cmp	r10, #0
	beq	wait_here		@ a b . style loop; the handler sets r10
	wfi				@ sleep until the next tick
	cpsid	i
	mov	r0, #0
	str	r0, [r4, #0x304]	@ timer off
	ldr	r0, =0x53544F50
	str	r0, [r4, #0xf00]	@ STOP
	mov	r0, #0
	str	r0, [r4, #0]		@ EXIT 0
	b	.

irq:
	push	{r0, r1}
	mov	r0, #1
	ldr	r1, =0x40000208
	str	r0, [r1]		@ ACK line 0
	add	r8, r8, #1
	cmp	r8, #4
	movge	r10, #1
	pop	{r0, r1}
	subs	pc, lr, #4
	.ltorg
