/* kernel/switch.S: switching kernel stacks. kswitch(from, to) saves the
 * callee-saved registers on the current stack, stores its rsp in *from and
 * continues on *to. A new stack starts in kstack_trampoline with the entry
 * function in r13 and its argument in r12 (see sched.c). */
	.text
	.globl	kswitch
	.type	kswitch, @function
kswitch:
	push	%rbp
	push	%rbx
	push	%r12
	push	%r13
	push	%r14
	push	%r15
	mov	%rsp, (%rdi)
	mov	(%rsi), %rsp
	pop	%r15
	pop	%r14
	pop	%r13
	pop	%r12
	pop	%rbx
	pop	%rbp
	ret
	.size	kswitch, .-kswitch

	.globl	kstack_trampoline
	.type	kstack_trampoline, @function
kstack_trampoline:
	mov	%r12, %rdi
	call	*%r13
	ud2
	.size	kstack_trampoline, .-kstack_trampoline

	.section .note.GNU-stack, "", @progbits
