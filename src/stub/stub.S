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
	movabs	$STUB_OPS_END, %rdi
	movabs	$(STUB_TASK_TOP - STUB_OPS_END), %rsi
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
	jmp	sys_exit

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
	cmp	$47, %rax
	je	fill_msghdr
	cmp	$STUB_OP_XRSTOR, %rax
	je	op_xrstor
	cmp	$STUB_OP_CMPXCHG, %rax
	je	op_cmpxchg
	cmp	$STUB_OP_FUTEX_OP, %rax
	je	op_futex_op
run_call:
	syscall
	/* The new thread of a clone op with a child entry goes there. */
	test	%rax, %rax
	jnz	op_result
	mov	56(%rbx), %rcx
	test	%rcx, %rcx
	jz	op_result
	jmp	*%rcx
op_result:
	mov	%rax, %r15
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

	/* sigsys backend: a new guest thread (stub.h STUB_SIGSYS_INIT); r10
	 * is its slot + STUB_SLOT_TID. Any failure ends in hlt: the stub
	 * dies (SIGSEGV). */
	.org	STUB_SIGSYS_INIT - STUB_CODE
	.globl	stub_sigsys_init
stub_sigsys_init:
	mov	%r10, %rbx
	and	$~(STUB_SLOT_SIZE - 1), %rbx
	/* sigaltstack(&{ slot + STUB_SLOT_STACK, 0, the rest }, NULL) */
	lea	STUB_SLOT_STACK(%rbx), %rax
	mov	%rax, STUB_SLOT_SS(%rbx)
	movq	$0, STUB_SLOT_SS + 8(%rbx)
	movq	$(STUB_SLOT_SIZE - STUB_SLOT_STACK), STUB_SLOT_SS + 16(%rbx)
	mov	$131, %eax
	lea	STUB_SLOT_SS(%rbx), %rdi
	xor	%esi, %esi
	syscall
	test	%rax, %rax
	jnz	1f
	/* rt_sigprocmask(SIG_SETMASK, &0, NULL, 8) */
	movq	$0, STUB_SLOT_ZERO(%rbx)
	mov	$14, %eax
	mov	$2, %edi
	lea	STUB_SLOT_ZERO(%rbx), %rsi
	xor	%edx, %edx
	mov	$8, %r10d
	syscall
	test	%rax, %rax
	jnz	1f
	/* sched_setaffinity(0, STUB_G_CPUS_SIZE, STUB_G_CPUS) */
	mov	$203, %eax
	xor	%edi, %edi
	mov	$STUB_G_CPUS_SIZE, %esi
	movabs	$STUB_G_CPUS, %rdx
	syscall
	test	%rax, %rax
	jnz	1f
	/* seccomp(SECCOMP_SET_MODE_FILTER, 0, STUB_GUEST_PROG) */
	mov	$317, %eax
	mov	$1, %edi
	xor	%esi, %esi
	movabs	$STUB_GUEST_PROG, %rdx
	syscall
	test	%rax, %rax
	jnz	1f
	/* The first trap: the kernel answers it with the thread's start. */
	mov	$39, %eax
	syscall
1:	hlt

	/* The handler of SIGSYS, the faults and the interrupt: rdi = signo,
	 * rsi = the siginfo, rdx = the ucontext, rsp on the slot's stack
	 * (stub.h). Every register is the guest's again after the return. */
	.org	STUB_SIGSYS_HANDLER - STUB_CODE
	.globl	stub_sigsys_handler
stub_sigsys_handler:
	mov	%rsp, %rbx
	and	$~(STUB_SLOT_SIZE - 1), %rbx
	movabs	$STUB_SLOTS, %rax
	mov	%rbx, %rcx
	sub	%rax, %rcx
	cmp	$STUB_SLOTS_SIZE, %rcx
	jae	9f /* not on a slot: a forged signal stack */
	mov	%edi, STUB_SLOT_SIGNO(%rbx)
	mov	%rsi, STUB_SLOT_INFO(%rbx)
	mov	%rdx, STUB_SLOT_UC(%rbx)
	/* Without FSGSBASE the guest cannot change its bases but through
	 * the kernel, which keeps them (STUB_G_FSGS). */
	movabs	$STUB_G_FSGS, %rax
	cmpl	$0, (%rax)
	je	8f
	rdfsbase %rax
	mov	%rax, STUB_SLOT_FSBASE(%rbx)
	rdgsbase %rax
	mov	%rax, STUB_SLOT_GSBASE(%rbx)
8:	/* Posted; xchg is a full barrier: the kernel's sleep flag is read
	 * after the post is visible (the kernel sets it, then looks). */
	mov	$STUB_SLOT_POSTED, %eax
	xchg	%eax, STUB_SLOT_STATE(%rbx)
	movabs	$STUB_G_SLEEP, %rax
	cmpl	$0, (%rax)
	je	wake_done
	mov	$1, %eax
	mov	$STUB_WAKE_FD, %edi
	movabs	$STUB_G_ONE, %rsi
	mov	$8, %edx
	jmp	sys_wake
wake_done:
	/* Spin STUB_G_SPIN TSC ticks for the answer, then sleep. */
	rdtsc
	shl	$32, %rdx
	or	%rax, %rdx
	mov	%rdx, %r12
	movabs	$STUB_G_SPIN, %rax
	mov	(%rax), %r13
2:	cmpl	$STUB_SLOT_ANSWER, STUB_SLOT_STATE(%rbx)
	je	5f
	pause
	rdtsc
	shl	$32, %rdx
	or	%rax, %rdx
	sub	%r12, %rdx
	cmp	%r13, %rdx
	jb	2b
	mov	$STUB_SLOT_POSTED, %eax
	mov	$STUB_SLOT_SLEEP, %ecx
	lock cmpxchg %ecx, STUB_SLOT_STATE(%rbx)
	jne	wait_done
3:	/* futex(&state, FUTEX_WAIT, SLEEP, NULL): not private, the kernel
	 * wakes it through its own mapping */
	mov	$202, %eax
	lea	STUB_SLOT_STATE(%rbx), %rdi
	xor	%esi, %esi
	mov	$STUB_SLOT_SLEEP, %edx
	xor	%r10d, %r10d
	jmp	sys_wait
wait_done:
	cmpl	$STUB_SLOT_ANSWER, STUB_SLOT_STATE(%rbx)
	jne	3b
5:	movabs	$STUB_G_FSGS, %rax
	cmpl	$0, (%rax)
	je	set_bases
	mov	STUB_SLOT_SET(%rbx), %ecx
	test	$1, %ecx
	jz	6f
	mov	STUB_SLOT_SETFS(%rbx), %rax
	wrfsbase %rax
6:	test	$2, %ecx
	jz	bases_done
	mov	STUB_SLOT_SETGS(%rbx), %rax
	wrgsbase %rax
bases_done:
	movl	$0, STUB_SLOT_SET(%rbx)
	movl	$STUB_SLOT_RUN, STUB_SLOT_STATE(%rbx)
	/* rt_sigreturn with rsp just past the frame's return address */
	add	$8, %rsp
	mov	$15, %eax
	jmp	sys_return
9:	hlt

	/* Without FSGSBASE: each base the kernel changed, one
	 * arch_prctl(ARCH_SET_FS or ARCH_SET_GS) at a time, its bit cleared
	 * first; back here after each. */
set_bases:
	testl	$1, STUB_SLOT_SET(%rbx)
	jz	1f
	andl	$~1, STUB_SLOT_SET(%rbx)
	mov	$158, %eax
	mov	$0x1002, %edi
	mov	STUB_SLOT_SETFS(%rbx), %rsi
	jmp	sys_arch_prctl
1:	testl	$2, STUB_SLOT_SET(%rbx)
	jz	bases_done
	andl	$~2, STUB_SLOT_SET(%rbx)
	mov	$158, %eax
	mov	$0x1001, %edi
	mov	STUB_SLOT_SETGS(%rbx), %rsi
	jmp	sys_arch_prctl

	/* The system calls a guest thread may make, each from here only. */
	.org	STUB_SYS_WAKE - STUB_CODE
sys_wake:
	syscall
	jmp	wake_done
	.org	STUB_SYS_WAIT - STUB_CODE
sys_wait:
	syscall
	jmp	wait_done
	.org	STUB_SYS_RETURN - STUB_CODE
sys_return:
	syscall
	hlt
	.org	STUB_SYS_EXIT - STUB_CODE
sys_exit:
	syscall
	hlt
	.org	STUB_SYS_ARCH_PRCTL - STUB_CODE
sys_arch_prctl:
	syscall
	jmp	set_bases

	/* A signal handler's start (stub.h STUB_SIG_START): the FPU saved
	 * to the frame and reset as below (same RFBM), then the handler's
	 * rax, rdx and rsi. */
	.org	STUB_SIG_START - STUB_CODE, 0xcc
	.globl	stub_sig_start
stub_sig_start:
	mov	STUB_SIGFRAME_SIZE + 8(%rsp), %rsi
	mov	$0xfffbffff, %eax
	mov	$-1, %edx
	.org	STUB_SIG_XSAVE - STUB_CODE, 0x90
	xsave64	(%rsi)
	xrstor64 stub_fpu_init(%rip)
	mov	$0, %eax
	lea	STUB_SIGFRAME_UC(%rsp), %rdx
	lea	STUB_SIGFRAME_INFO(%rsp), %rsi
	jmp	*STUB_SIGFRAME_SIZE(%rsp)
	.org	STUB_SIG_END - STUB_CODE, 0xcc

	/* The end of rt_sigreturn (stub.h STUB_SIGRET): the iretq takes
	 * its frame from the first five slots. */
	.if	STUB_SR_RIP || STUB_SR_CS != 8 || STUB_SR_RFLAGS != 16 || STUB_SR_RSP != 24 || STUB_SR_SS != 32
	.error	"the IRET frame must be the first slots"
	.endif
	.org	STUB_SIGRET - STUB_CODE, 0xcc
	.globl	stub_sigret
stub_sigret:
	mov	STUB_SR_IMAGE(%rsp), %rcx
	mov	$0xfffbffff, %eax
	mov	$0, %edx
	.org	STUB_SIGRET_XRSTOR - STUB_CODE, 0x90
	xrstor64 (%rcx)
	mov	STUB_SR_RAX(%rsp), %rax
	mov	STUB_SR_RDX(%rsp), %rdx
	mov	STUB_SR_RCX(%rsp), %rcx
	iretq
	.org	STUB_SIGRET_END - STUB_CODE, 0xcc

	/* A recycled thread's start of a new program (stub.h
	 * STUB_EXEC_START). RFBM: every component but AMX tile data (never
	 * the guest's: XFD may trap it). mov, xrstor and jmp leave the flags
	 * as the kernel set them. */
	.org	STUB_EXEC_START - STUB_CODE, 0xcc
	.globl	stub_exec_start
stub_exec_start:
	mov	%rcx, stub_data + (STUB_EXEC_ENTRY - STUB_DATA)(%rip)
	mov	$0xfffbffff, %eax
	mov	$-1, %edx
	xrstor64 stub_fpu_init(%rip)
	mov	$0, %eax
	mov	$0, %ecx
	mov	$0, %edx
	jmp	*stub_data + (STUB_EXEC_ENTRY - STUB_DATA)(%rip)

	/* Its image: FCW and MXCSR at their defaults (MXCSR is loaded
	 * whatever XSTATE_BV says), an XSAVE header of zeros: every
	 * component in its initial state. */
	.org	STUB_FPU_INIT - STUB_CODE, 0xcc
stub_fpu_init:
	.word	0x37f
	.org	STUB_FPU_INIT - STUB_CODE + 24, 0
	.long	0x1f80
	.org	STUB_FPU_INIT - STUB_CODE + 576, 0

	/* A cmpxchg op (stub.h STUB_OP_CMPXCHG): the word at rdi, esi
	 * expected, edx new; 0 or -EAGAIN (mov leaves ZF alone). A fault
	 * of the lock cmpxchg goes on at STUB_CMPXCHG_FAULT: -EFAULT. */
	.org	STUB_CMPXCHG - STUB_CODE, 0xcc
op_cmpxchg:
	mov	%esi, %eax
	lock cmpxchg %edx, (%rdi)
	mov	$0, %eax
	je	op_result
	mov	$-11, %rax
	jmp	op_result
	.org	STUB_CMPXCHG_FAULT - STUB_CODE, 0xcc
	mov	$-14, %rax
	jmp	op_result

	/* A recvmsg op: its header at rsi (stub.h STUB_MSG_*), written
	 * afresh (a guest thread may have changed it), then the call. */
fill_msghdr:
	movq	$0, (%rsi)
	movq	$0, 8(%rsi)
	lea	STUB_MSG_IOV(%rsi), %rcx
	mov	%rcx, 16(%rsi)
	movq	$1, 24(%rsi)
	lea	STUB_MSG_CONTROL(%rsi), %rcx
	mov	%rcx, 32(%rsi)
	movq	$STUB_MSG_CONTROL_LEN, 40(%rsi)
	movq	$0, 48(%rsi)
	lea	STUB_MSG_BYTE(%rsi), %rcx
	mov	%rcx, STUB_MSG_IOV(%rsi)
	movq	$1, STUB_MSG_IOV + 8(%rsi)
	jmp	run_call

	/* An xrstor op (stub.h STUB_OP_XRSTOR): the image at rdi, the
	 * RFBM of STUB_EXEC_START. */
op_xrstor:
	mov	$0xfffbffff, %eax
	mov	$-1, %edx
	xrstor64 (%rdi)
	xor	%eax, %eax
	jmp	op_result

	/* A futex op (stub.h STUB_OP_FUTEX_OP): the word at rdi, the
	 * operation in esi (0 SET, 1 ADD, 2 OR, 3 ANDN, 4 XOR; the kernel
	 * gives no other), the argument in edx; the old value in eax
	 * (zero-extended: never an error). A fault goes on at
	 * STUB_FUTEX_OP_FAULT: -EFAULT. */
	.org	STUB_FUTEX_OP - STUB_CODE, 0xcc
op_futex_op:
	test	%esi, %esi
	jnz	1f
	xchg	%edx, (%rdi)
	mov	%edx, %eax
	jmp	op_result
1:	cmp	$1, %esi
	jne	2f
	lock xadd %edx, (%rdi)
	mov	%edx, %eax
	jmp	op_result
2:	mov	(%rdi), %eax
3:	mov	%eax, %ecx
	cmp	$2, %esi
	jne	4f
	or	%edx, %ecx
	jmp	6f
4:	cmp	$3, %esi
	jne	5f
	mov	%edx, %r8d
	not	%r8d
	and	%r8d, %ecx
	jmp	6f
5:	xor	%edx, %ecx
6:	lock cmpxchg %ecx, (%rdi)
	jne	3b
	jmp	op_result
	.org	STUB_FUTEX_OP_FAULT - STUB_CODE, 0xcc
	mov	$-14, %rax
	jmp	op_result

	.section .bss
	.balign	4096
	.globl	stub_data
stub_data:
	.space	4096

	.section .note.GNU-stack, "", @progbits
