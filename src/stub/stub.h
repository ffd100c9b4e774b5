/* stub/stub.h: where the stub lives in every guest address space, and the
 * layout of its pages. Shared by the stub's assembly and by platform/.
 * Plain numbers only: this header is included from assembly too. */
#ifndef STUB_STUB_H
#define STUB_STUB_H

/* Top of the user range on x86-64 (TASK_SIZE). */
#define STUB_TASK_TOP 0x7ffffffff000

/* The stub's pages: 16 MiB below the top, inside the range a native process
 * uses only for its randomized stack. The guest never sees them. The image
 * is linked for two places, and skas takes the high one unless something
 * holds it already (stub_place): skas itself, when skas runs inside skas,
 * whose inner stubs then live 16 MiB lower. The assembly is built once for
 * each (STUB_LINK_BASE); C code reads the place chosen at start. */
#define STUB_BASE_HIGH 0x7fffff000000
#define STUB_BASE_LOW  0x7ffffe000000
#ifdef __ASSEMBLER__
#define STUB_BASE STUB_LINK_BASE
#else
extern unsigned long stub_base;
#define STUB_BASE stub_base
#endif
#define STUB_CODE     STUB_BASE		   /* r-x: _start and the batch loop */
#define STUB_DATA     (STUB_BASE + 0x1000) /* rw-: recvmsg scratch, per stub */
#define STUB_OPS      (STUB_BASE + 0x2000) /* r--: shared with the kernel */
#define STUB_OPS_SIZE 0x4000
#define STUB_OPS_END  (STUB_OPS + STUB_OPS_SIZE)
/* sigsys backend: one page shared read-only by every stub (STUB_G_*). */
#define STUB_GLOBAL (STUB_OPS_END)
/* sigsys backend: a slot per guest thread (STUB_SLOT_*), rw-, shared with
 * the kernel (the same memfd as the ops page, after it). */
#define STUB_SLOTS	(STUB_BASE + 0x400000)
#define STUB_SLOT_SIZE	0x2000
#define STUB_MAX_SLOTS	511
#define STUB_SLOTS_SIZE (STUB_SLOT_SIZE * STUB_MAX_SLOTS)
#define STUB_END	(STUB_SLOTS + STUB_SLOTS_SIZE)

/* Entry of the batch loop (stub.S puts it here with .org). */
#define STUB_BATCH (STUB_CODE + 0x80)
/* Where a retired guest thread is sent to exit on its own. */
#define STUB_EXIT_THREAD (STUB_CODE + 0x100)

/* ptrace and seccomp backends: a recycled guest thread starts a new
 * program here (exec), rcx = the program's entry, every other register as
 * the program gets it: the FPU/SSE/AVX state is put in its initial state
 * (xrstor of STUB_FPU_INIT, XSTATE_BV 0), then rax, rcx and rdx are zeroed
 * and it jumps to the entry (kept at STUB_EXEC_ENTRY for the jump: the
 * scratch page, not the guest's stack), the flags untouched. No host
 * call: the thread's FPU costs no ptrace write of its own. */
#define STUB_EXEC_START (STUB_CODE + 0x700)
/* ptrace and seccomp backends: a signal handler's start. rsp = the
 * signal frame; just after the frame's struct (at STUB_SIGFRAME_SIZE, in
 * the gap below the FPU area) the handler's address, then the FPU area's;
 * every register as the handler gets it but rax, rdx and rsi. The
 * thread's FPU state is saved in the frame's area (xsave: the kernel
 * wrote the software bytes and the header's zeros), then put in its
 * initial state as at STUB_EXEC_START; rax is zeroed, rdx = the frame's
 * ucontext, rsi its siginfo, and it jumps to the handler, the flags
 * untouched. Nothing is written outside the frame. A thread that stops
 * inside (STUB_SIG_START to STUB_SIG_END) before it reaches the handler
 * is taken there by the kernel first (signal.c signal_settle_stub), so
 * the next frame, a tracer and a core dump see the handler's entry. */
#define STUB_SIG_START (STUB_CODE + 0x640)
#define STUB_SIG_XSAVE \
	(STUB_CODE + 0x658) /* its xsave: the frame's area holds the state after it */
#define STUB_SIG_END	   (STUB_CODE + 0x680)
#define STUB_SIGFRAME_UC   8   /* offsetof(struct rt_sigframe, uc) */
#define STUB_SIGFRAME_INFO 312 /* offsetof(struct rt_sigframe, info) */
#define STUB_SIGFRAME_SIZE 440 /* sizeof(struct rt_sigframe) */
/* ptrace and seccomp backends: the end of rt_sigreturn. rsp = the
 * thread's STUB_SR_SLOTS place, or the frame returned from, whose first
 * bytes (dead now) hold them; only read. The slots below: an
 * IRET frame (rip, cs, rflags, rsp, ss: the context returned to), the
 * rax, rdx and rcx returned to, and the address of the FPU image to
 * restore (standard XSAVE form, 64-aligned, above the slots: the frame's
 * own, or STUB_FPU_INIT). Every other register is as returned to. xrstor
 * of the image (RFBM as at STUB_EXEC_START), the three registers, then
 * iretq: rip, rsp and the flags at once (a TF returned to traps after the
 * first instruction there, as in Linux). A thread that stops inside is
 * taken to the context returned to by the kernel first, as above. */
#define STUB_SIGRET	   (STUB_CODE + 0x6a0)
#define STUB_SIGRET_XRSTOR (STUB_CODE + 0x6b0) /* its xrstor: the state is back after it */
#define STUB_SIGRET_END	   (STUB_CODE + 0x6e0)
#define STUB_SR_RIP	   0
#define STUB_SR_CS	   8
#define STUB_SR_RFLAGS	   16
#define STUB_SR_RSP	   24
#define STUB_SR_SS	   32
#define STUB_SR_RAX	   40
#define STUB_SR_RDX	   48
#define STUB_SR_RCX	   56
#define STUB_SR_IMAGE	   64
#define STUB_SR_SIZE	   72		       /* the slots' size */
#define STUB_FPU_INIT	   (STUB_CODE + 0x740) /* 576 bytes, 64-aligned, r-x */
#define STUB_EXEC_ENTRY	   (STUB_DATA + 0xff8)

/* The doorbell loop (the control thread's resting place between batches):
 * it waits on STUB_BELL_WORD (FUTEX_WAIT) until the word differs from the
 * last value it ran, runs the ops from STUB_OPS, and reports the end with
 * write(STUB_SOCK_FD, STUB_OPS, len): len 1 if every op succeeded, else
 * 1 + the failing op's errno. The length is the whole report: nothing a
 * guest thread could write is read back. If STUB_BELL_REPORT is 0 the
 * batch ends with stub_batch's int3 instead (a clone's new pid is read
 * from the registers); a control thread continued from that int3 (or from
 * stub_batch's) goes back to this loop. */
#define STUB_BELL (STUB_CODE + 0x200)

/* seccomp backend: a new guest thread installs its own filter here
 * (seccomp(SET_MODE_FILTER, NEW_LISTENER, STUB_GUEST_PROG)) and stops with
 * int3, rax = the listener fd or -errno. */
#define STUB_GUEST_INIT (STUB_CODE + 0x180)

/* sigsys backend (platform/sigsys). A guest thread runs under a filter
 * that turns every system call into SIGSYS, save the few below that only
 * the stub's code at their fixed addresses may make. Its handler (for
 * SIGSYS, the faults and the kernel's interrupt signal) runs on the
 * thread's slot, an alternate signal stack whose first bytes are the
 * mailbox: it posts the signal's frame there, spins, then sleeps on the
 * state word until the kernel has answered (the kernel edits the frame in
 * place), and returns with rt_sigreturn. A new thread starts at
 * STUB_SIGSYS_INIT with r10 = its slot + STUB_SLOT_TID (the clone's
 * child_tid): it takes its slot as signal stack, boxes itself and traps. */
#define STUB_SIGSYS_INIT    (STUB_CODE + 0x300)
#define STUB_SIGSYS_HANDLER (STUB_CODE + 0x400)
/* The stub's own system calls, one syscall instruction each (the filter
 * allows a call only from its own: the address after the instruction). */
#define STUB_SYS_WAKE	(STUB_CODE + 0x600) /* write(STUB_WAKE_FD, STUB_G_ONE, 8) */
#define STUB_SYS_WAIT	(STUB_CODE + 0x608) /* futex(slot, FUTEX_WAIT, SLEEP, 0) */
#define STUB_SYS_RETURN (STUB_CODE + 0x610) /* rt_sigreturn */
#define STUB_SYS_EXIT	(STUB_CODE + 0x618) /* exit(0): a retired thread */
/* arch_prctl(ARCH_SET_FS or ARCH_SET_GS, base): a base the kernel changed,
 * on a host without FSGSBASE only (STUB_G_FSGS 0). */
#define STUB_SYS_ARCH_PRCTL (STUB_CODE + 0x620)
#define STUB_WAKE_FD	    2 /* the kernel's eventfd */
/* The interrupt: the kernel's tgkill to a thread running guest code. */
#define STUB_SIG_INTERRUPT 12 /* SIGUSR2 */

/* The mailbox at the start of each slot. */
#define STUB_SLOT_STATE	 0x00  /* u32 STUB_SLOT_RUN ... (the futex word) */
#define STUB_SLOT_SIGNO	 0x04  /* u32: the signal the handler took */
#define STUB_SLOT_INFO	 0x08  /* u64: its siginfo (in the slot) */
#define STUB_SLOT_UC	 0x10  /* u64: its ucontext (in the slot) */
#define STUB_SLOT_FSBASE 0x18  /* u64: fs base at the trap */
#define STUB_SLOT_GSBASE 0x20  /* u64: gs base at the trap */
#define STUB_SLOT_SETFS	 0x28  /* u64: fs base to set (STUB_SLOT_SET bit 0) */
#define STUB_SLOT_SETGS	 0x30  /* u64: gs base to set (bit 1) */
#define STUB_SLOT_SET	 0x38  /* u32: what the kernel changed */
#define STUB_SLOT_TID	 0x3c  /* u32: the host tid; 0 once the thread is gone */
#define STUB_SLOT_SS	 0x40  /* stack_t: the init's sigaltstack argument */
#define STUB_SLOT_ZERO	 0x58  /* u64 0: the init's signal mask */
#define STUB_SLOT_STACK	 0x100 /* the signal stack: from here to the slot's end */
#define STUB_SLOT_RUN	 0     /* guest code runs */
#define STUB_SLOT_POSTED 1     /* trapped: the kernel may take it; the handler spins */
#define STUB_SLOT_SLEEP	 2     /* as POSTED, the handler sleeps: wake the word */
#define STUB_SLOT_ANSWER 3     /* the kernel is done with the frame */

/* The global page. */
#define STUB_G_SLEEP (STUB_GLOBAL + 0)	/* u32: the kernel sleeps: a trap wakes it */
#define STUB_G_SPIN  (STUB_GLOBAL + 8)	/* u64: TSC ticks a handler spins before it sleeps */
#define STUB_G_ONE   (STUB_GLOBAL + 16) /* u64 1: what a wake writes */
/* u32: 1 where the host has FSGSBASE: the handler reads the bases at a
 * trap (the guest may change them itself) and writes changed ones with
 * wrfsbase/wrgsbase; 0: the kernel keeps them, the handler sets a changed
 * one with arch_prctl (STUB_SYS_ARCH_PRCTL). */
#define STUB_G_FSGS (STUB_GLOBAL + 24)
/* The CPUs a guest thread may run on (a cpu_set_t of STUB_G_CPUS_SIZE
 * bytes): every CPU skas was given. Its stub's control thread stays on the
 * kernel's, where a batch costs no wakeup across CPUs. */
#define STUB_G_CPUS	 (STUB_GLOBAL + 64)
#define STUB_G_CPUS_SIZE 128

/* A sigaction (the kernel's layout) for the handler, in the payload. */
#define STUB_SIGACTION (STUB_PAYLOAD + 0xf00)

/* An op is 8 quadwords: nr, six arguments, the child entry: if nonzero, a
 * clone's new thread (where the call returns 0) jumps there instead of
 * running the rest of the batch. nr == -1 ends a batch. */
#define STUB_OP_SIZE 64
#define STUB_MAX_OPS 128
/* An op that is no system call: xrstor of the standard-form XSAVE image at
 * its first argument (64-aligned, in the read-only ops page: at
 * STUB_FPU_IMAGE), every component but AMX tile data; its result 0. It
 * sets the control thread's own FPU/SSE/AVX state, which a guest thread
 * it creates next starts with (a clone copies it): a fork's or a new
 * thread's state with no ptrace write to the new thread. */
#define STUB_OP_XRSTOR (-2)
/* An op that is no system call: lock cmpxchg of the 32-bit word at its
 * first argument, from the second argument's low half to the third's;
 * its result 0 if the word held the expected value (and now the new
 * one), else -EAGAIN (a failing op: the batch ends there). The kernel
 * checks that the word is mapped and writable first: a fault here is the
 * stub's. Linux's futex_atomic_cmpxchg_inatomic, for the PI futexes. */
#define STUB_OP_CMPXCHG (-3)
/* Its code, at a fixed place: a fault of its locked instruction (a page
 * gone under a mapping the kernel found readable and writable: a host
 * process truncated a volume's file) is fixed up by the kernel, as Linux's
 * exception table: the stub goes on at STUB_CMPXCHG_FAULT, whose result is
 * -EFAULT. A fault anywhere else in the control thread kills the stub. */
#define STUB_CMPXCHG	   (STUB_CODE + 0x980)
#define STUB_CMPXCHG_FAULT (STUB_CMPXCHG + 0x20)
/* An op that is no system call: FUTEX_WAKE_OP's operation (its second
 * argument: SET, ADD, OR, ANDN, XOR) with the third's low half on the
 * 32-bit word at the first, done in place as Linux's
 * arch_futex_atomic_op_inuser (xchg, lock xadd, or a lock cmpxchg loop);
 * its result the word's old value, which the kernel reads from the
 * control thread's registers (the batch ends in a stop, as a clone's).
 * The kernel checks the word first, as for STUB_OP_CMPXCHG, and a fault
 * of its code, at its own fixed place, goes on at STUB_FUTEX_OP_FAULT
 * (-EFAULT). */
#define STUB_OP_FUTEX_OP    (-4)
#define STUB_FUTEX_OP	    (STUB_CODE + 0xa40)
#define STUB_FUTEX_OP_FAULT (STUB_FUTEX_OP + 0x60)
/* The rest of the ops area carries data the ops point at (BPF programs). */
#define STUB_PAYLOAD	  (STUB_OPS + STUB_OP_SIZE * STUB_MAX_OPS)
#define STUB_PAYLOAD_SIZE (STUB_OPS_SIZE - STUB_OP_SIZE * STUB_MAX_OPS)
/* STUB_OP_XRSTOR's image: where the payload's first part held the stub
 * filter, which only the zygote's boot batch reads (every other ops page
 * has a dead copy). */
#define STUB_FPU_IMAGE	   STUB_PAYLOAD
#define STUB_FPU_IMAGE_MAX (STUB_SIGACTION - STUB_FPU_IMAGE)
/* Its last word before the second half: the doorbell (a 32-bit counter
 * only the kernel writes). */
#define STUB_BELL_WORD (STUB_PAYLOAD + 0x1000 - 8)
/* The word after it: 1 if the batch rung ends with the report, 0 if with
 * an int3 (written before the bell). */
#define STUB_BELL_REPORT (STUB_BELL_WORD + 4)
/* Its second half: the guest threads' filter (struct sock_fprog, then the
 * program), written once at boot. */
#define STUB_GUEST_PROG	     (STUB_PAYLOAD + 0x1000)
#define STUB_GUEST_PROG_SIZE 0x800
/* ptrace and seccomp backends: after it, to the payload's end, each guest
 * thread's slots for STUB_SIGRET (STUB_SR_*), one STUB_SR_SLOT_SIZE place
 * each: the kernel writes them in its view of the page, with no host
 * call; the thread, pointed at them (rsp), only reads them. */
#define STUB_SR_SLOTS	  (STUB_GUEST_PROG + STUB_GUEST_PROG_SIZE)
#define STUB_SR_SLOT_SIZE 128
#define STUB_SR_NSLOTS	  ((STUB_PAYLOAD_SIZE - 0x1000 - STUB_GUEST_PROG_SIZE) / STUB_SR_SLOT_SIZE)

/* The recvmsg header of an fd-receiving op (struct stub_data in
 * platform/ptrace/ptrace.h, at the op's second argument, STUB_DATA): the
 * stub writes it afresh before each such op, in its own guest-writable
 * page, so the kernel need not. msghdr (56 bytes), then its one iovec,
 * the byte it receives, and the control buffer. */
#define STUB_MSG_IOV	     56
#define STUB_MSG_BYTE	     72
#define STUB_MSG_CONTROL     80
#define STUB_MSG_CONTROL_LEN 64

/* Host fds in a stub: 0 is the kernel's socket; fds handed in for one batch
 * arrive at 1, 2, ... and are closed before the batch ends. */
#define STUB_SOCK_FD 0
#define STUB_OPS_FD  1 /* only at exec of the zygote, closed by _start */
/* sigsys backend: fd 2 is the kernel's eventfd (STUB_WAKE_FD), for good. */

#endif
