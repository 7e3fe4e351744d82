.arm
.global _start
_start:
    mov r0,#0
outer:
    mov r1,#0
inner:
    bl  func_a
    add r1,r1,#1
    cmp r1,#5
    blt inner
    ldr r2,=table
    and r3,r0,#3
    ldr pc,[r2,r3,lsl #2]
case0:
    add r4,r4,#1
    b join
case1:
    add r4,r4,#2
    bl long_run
    b join
case2:
    bl func_b
    b join
case3:
    nop
    nop
join:
    add r0,r0,#1
    cmp r0,#100
    bne outer
    b _start
func_a:
    push {r4,lr}
    tst r0,#1
    moveq r5,#1
    addne r5,r5,#2
    bleq func_b
    beq fa_skip
    add r5,r5,#3
fa_skip:
    pop {r4,pc}
func_b:
    cmp r0,#3
    bxeq lr
    add r6,r6,#1
    ldmne sp!,{r0}
    mov pc,lr
long_run:
    .rept 300
    add r8,r8,#1
    .endr
    bx lr
irq_handler:
    sub sp,sp,#4
    add r7,r7,#1
    cmp r7,#2
    addgt r7,r7,#0
    subs pc,lr,#4
table:
    .word case0, case1, case2, case3
    .ltorg
