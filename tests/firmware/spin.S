@ The smallest firmware: `_start: b _start`.  Linked at 0x20000000 (outside
@ RAM) it must be refused by capture with an error, not a crash.
	.arm
	.section .text
	.global _start
_start:
	b	_start
