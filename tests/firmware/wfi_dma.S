@ A long sleep that does end: a 60 MiB DMA transfer (needs --ram 64M) with its interrupt on
@ (line 2 enabled), then WFI, then EXIT 0.  With --dma-burst 1 the sleep
@ takes millions of device steps; with a short --dma-in file the transfer
@ ends early at the file's end and the core wakes at once.
	.arm
	.section .text
	.global _start
_start:
	ldr	r4, =0x40000000
	ldr	r0, =0x00100000
	str	r0, [r4, #0x500]	@ DMA DST
	ldr	r0, =0x03c00000
	str	r0, [r4, #0x504]	@ DMA LEN: 60 MiB
	mov	r0, #4
	str	r0, [r4, #0x204]	@ INTC ENABLE: line 2 (DMA)
	mov	r0, #3
	str	r0, [r4, #0x508]	@ DMA CTRL: start, interrupt on
	wfi
	mov	r0, #0
	str	r0, [r4]		@ EXIT 0
	b	.
