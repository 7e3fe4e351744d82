@ WFI that nothing can wake: the timer runs, but its interrupt line (0) is
@ disabled and no other line is enabled, so the core would sleep forever.
@ TARGET.md makes this an error; capture used to spin advancing the timer.
	.arm
	.section .text
	.global _start
_start:
	ldr	r4, =0x40000000
	mov	r0, #1000
	str	r0, [r4, #0x300]	@ TIMER PERIOD
	mov	r0, #1
	str	r0, [r4, #0x304]	@ TIMER CTRL: running
	mov	r0, #0
	str	r0, [r4, #0x204]	@ INTC ENABLE: no line
	wfi
	str	r0, [r4]		@ EXIT 0 (never reached)
	b	.
