/* stub/stub.S: the code in every stub process. No libc, no stack.
 * _start maps the shared ops page, unmaps every other host mapping (but the
 * vDSO range the kernel names in r12/r13) and stops;
 * stub_batch runs the kernel's host calls from the ops page until one fails
 * or the list ends, then stops with int3: rbx = the op it stopped at (the
 * end marker if none failed), r15 = the last result (rax too on a
 * failure); continued from there, it enters the doorbell loop. stub_bell
 * runs batches without a ptrace stop, or ends one with the same int3 if
 * the kernel asks (stub.h). A clone op with a child entry sends the new
 * thread there. */
#include "stub.h"

	.text
	.globl	_start
_start:
	/* mmap(STUB_OPS, STUB_OPS_SIZE, PROT_READ, MAP_SHARED|MAP_FIXED, 1, 0) */
	mov	$9, %eax
	movabs	$STUB_OPS, %rdi
	mov	$STUB_OPS_SIZE, %esi
	mov	$1, %edx
	mov	$0x11, %r10d
	mov	$STUB_OPS_FD, %r8d
	xor	%r9d, %r9d
	syscall
	mov	%rax, %rbx
	/* close(STUB_OPS_FD) */
	mov	$3, %eax
	mov	$STUB_OPS_FD, %edi
	syscall
	/* munmap(0, r12) and munmap(r13, STUB_BASE - r13): everything below
	 * the stub but [r12, r13), the host's vDSO and its data pages, which
	 * the kernel keeps for the guests (it sets r12 and r13 at the exec
	 * stop; exec zeroes them: munmap(0, 0) fails and the second unmaps
	 * all). */
	mov	$11, %eax
	xor	%edi, %edi
	mov	%r12, %rsi
	syscall
	mov	$11, %eax
	mov	%r13, %rdi
	movabs	$STUB_BASE, %rsi
	sub	%r13, %rsi
	syscall
	mov	$11, %eax
	movabs	$STUB_END, %rdi
	movabs	$(STUB_TASK_TOP - STUB_END), %rsi
	syscall
	mov	%rbx, %rax
	int3
1:	jmp	1b

	/* The kernel enters here: STUB_BATCH in stub.h. ebp = 0: the ops
	 * end with int3. */
	.org	STUB_BATCH - STUB_CODE
	.globl	stub_batch
stub_batch:
	xor	%ebp, %ebp
	jmp	run_ops

	/* A guest thread the kernel retires leaves through here: exit(0)
	 * ends this host thread only. STUB_EXIT_THREAD in stub.h. */
	.org	STUB_EXIT_THREAD - STUB_CODE
	.globl	stub_exit_thread
stub_exit_thread:
	mov	$60, %eax
	xor	%edi, %edi
	syscall
	int3

	/* seccomp backend: a new guest thread boxes itself (stub.h
	 * STUB_GUEST_INIT); from here on every call it makes traps. */
	.org	STUB_GUEST_INIT - STUB_CODE
	.globl	stub_guest_init
stub_guest_init:
	mov	$317, %eax
	mov	$1, %edi
	mov	$8, %esi
	movabs	$STUB_GUEST_PROG, %rdx
	syscall
	int3
4:	jmp	4b

	/* The doorbell loop (stub.h STUB_BELL): r14 is the last bell value
	 * run; ebp = STUB_BELL_REPORT of the batch: 1, the ops end with the
	 * report, the length of a datagram sent from the read-only ops page;
	 * 0, with int3 as stub_batch's. */
	.org	STUB_BELL - STUB_CODE
	.globl	stub_bell
stub_bell:
	xor	%r14d, %r14d
5:	movabs	$STUB_BELL_WORD, %rdi
	mov	(%rdi), %eax
	cmp	%eax, %r14d
	jne	6f
	/* futex(STUB_BELL_WORD, FUTEX_WAIT, r14d, NULL) */
	mov	$202, %eax
	xor	%esi, %esi
	mov	%r14d, %edx
	xor	%r10d, %r10d
	syscall
	jmp	5b
6:	mov	%eax, %r14d
	mov	STUB_BELL_REPORT - STUB_BELL_WORD(%rdi), %ebp

	/* The ops from STUB_OPS until the end marker or a failure: rbx = the
	 * op it stopped at, r15 = the last result (rax too on a failure). */
run_ops:
	movabs	$STUB_OPS, %rbx
2:	mov	(%rbx), %rax
	cmp	$-1, %rax
	je	3f
	mov	8(%rbx), %rdi
	mov	16(%rbx), %rsi
	mov	24(%rbx), %rdx
	mov	32(%rbx), %r10
	mov	40(%rbx), %r8
	mov	48(%rbx), %r9
	syscall
	/* The new thread of a clone op with a child entry goes there. */
	test	%rax, %rax
	jnz	8f
	mov	56(%rbx), %rcx
	test	%rcx, %rcx
	jz	8f
	jmp	*%rcx
8:	mov	%rax, %r15
	cmp	$-4095, %rax
	jae	3f
	add	$STUB_OP_SIZE, %rbx
	jmp	2b
3:	test	%ebp, %ebp
	jnz	4f
	/* Continued from the int3 it waits for the next bell: the value the
	 * word has now counts as run (the kernel rings only once it sees the
	 * stop), so being continued without a ring runs nothing again. */
	movabs	$STUB_BELL_WORD, %rdi
	mov	(%rdi), %r14d
	int3
	jmp	5b
	/* write(STUB_SOCK_FD, STUB_OPS, 1 or 1 + errno) */
4:	mov	$1, %edx
	cmpq	$-1, (%rbx)
	je	7f
	sub	%rax, %rdx
7:	mov	$1, %eax
	mov	$STUB_SOCK_FD, %edi
	movabs	$STUB_OPS, %rsi
	syscall
	jmp	5b

	.section .bss
	.balign	4096
	.globl	stub_data
stub_data:
	.space	4096

	.section .note.GNU-stack, "", @progbits
