/* platform/platform.h: the host-support interface — the stock-kernel
 * replacement for the 2002 design's /proc/mm and ptrace extensions.
 * An address space (struct pf_mm) is a stub process; a guest thread
 * (struct pf_thread) is a host thread in it that runs until it traps.
 * Nothing outside platform/ knows which backend runs. Plain C types only. */
#ifndef PLATFORM_PLATFORM_H
#define PLATFORM_PLATFORM_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

struct pf_mm;
struct pf_thread;

/* General registers, in the order of the x86-64 ptrace user_regs_struct. */
struct pf_regs {
	uint64_t r15, r14, r13, r12, rbp, rbx, r11, r10, r9, r8;
	uint64_t rax, rcx, rdx, rsi, rdi, orig_rax, rip, cs, eflags, rsp, ss;
	uint64_t fs_base, gs_base, ds, es, fs, gs;
};

enum pf_event_kind {
	PF_EV_SYSCALL,	 /* nr, args, ip, sp */
	PF_EV_FAULT,	 /* a synchronous fault: signo, code, addr, access, ip */
	PF_EV_SIGNAL,	 /* a host signal to the thread that is not a fault */
	PF_EV_GONE,	 /* the host thread died under us (stub killed) */
	PF_EV_INTERRUPT, /* stopped because the kernel asked (interrupt) */
};

enum pf_access { PF_ACCESS_UNKNOWN, PF_ACCESS_READ, PF_ACCESS_WRITE, PF_ACCESS_EXEC };

struct pf_event {
	enum pf_event_kind kind;
	uint64_t nr;
	bool compat; /* PF_EV_SYSCALL: not the x86-64 ABI (int 0x80, i386 numbers) */
	uint64_t args[6];
	uint64_t ip, sp;
	int signo, code;
	uint64_t addr;
	enum pf_access access;
	/* PF_EV_FAULT SIGTRAP TRAP_HWBKPT of a breakpoint hwbp_arm armed:
	 * DR6's bit of the one that fired (0 from the other platforms) */
	unsigned dr6;
};

/* An event for a thread: owner is what was given to thread_new. */
typedef void (*pf_event_fn)(void *owner, const struct pf_event *ev);

/* The host's vDSO, kept in every fresh address space at base: its data
 * pages ([vvar], [vvar_vclock]) and code ([vdso], an ELF image at
 * base + ehdr_off), contiguous, in address order. */
enum pf_vdso_kind { PF_VDSO_VVAR, PF_VDSO_VVAR_VCLOCK, PF_VDSO_CODE };

struct pf_vdso {
	uint64_t base, size, ehdr_off;
	int nparts;
	struct {
		uint64_t off, len;
		int prot; /* PROT_* */
		enum pf_vdso_kind kind;
	} part[4];
};

struct host_cputime;

/* One range of mm_writev: len bytes from src to the guest's addr. */
struct pf_iov {
	uint64_t addr;
	const void *src;
	size_t len;
};
#define PF_WRITEV_MAX 16

struct platform_ops {
	const char *name;
	/* 0 if the host supports the backend (NULL: always). */
	int (*probe)(void);
	int (*init)(void);
	/* Address spaces. mm_new: a fresh empty one (a fork of the zygote);
	 * mm_copy: a copy-on-write copy of src (a host fork of its stub);
	 * mm_put: drop it, the stub and its threads die; every pf_thread of
	 * mm must have been put before. */
	int (*mm_new)(struct pf_mm **out);
	int (*mm_copy)(struct pf_mm *src, struct pf_mm **out);
	void (*mm_put)(struct pf_mm *mm);
	/* Queued until mm_flush (or the next run or memory access). host_fd is
	 * the kernel's fd, or -1 for anonymous memory; flags are host MAP_*. */
	int (*mm_map)(struct pf_mm *mm, uint64_t addr, uint64_t len, int prot, int flags,
		      int host_fd, uint64_t off);
	int (*mm_unmap)(struct pf_mm *mm, uint64_t addr, uint64_t len);
	int (*mm_protect)(struct pf_mm *mm, uint64_t addr, uint64_t len, int prot);
	int (*mm_advise)(struct pf_mm *mm, uint64_t addr, uint64_t len, int advice);
	/* Moves pages: mremap(MAYMOVE|FIXED) in the stub; new_addr ==
	 * old_addr resizes the host mapping in place (mremap without
	 * flags), which stays one host mapping. */
	int (*mm_move)(struct pf_mm *mm, uint64_t old_addr, uint64_t old_len, uint64_t new_len,
		       uint64_t new_addr);
	int (*mm_flush)(struct pf_mm *mm);
	/* Empties mm for an exec by its one thread, which it keeps: every
	 * host mapping but the stub's and [keep, keep + keep_len) (the vDSO;
	 * keep_len 0: none) goes, and the stub's scratch page is cleared.
	 * Queued like mm_unmap. */
	int (*mm_recycle)(struct pf_mm *mm, uint64_t keep, uint64_t keep_len);
	/* Guest memory, by the host's page protections only: the caller checks
	 * VMAs first. Return bytes moved (maybe short) or -EFAULT. */
	long (*mm_read)(struct pf_mm *mm, void *dst, uint64_t src, size_t n);
	long (*mm_write)(struct pf_mm *mm, uint64_t dst, const void *src, size_t n);
	/* May be NULL: n mm_writes (n <= PF_WRITEV_MAX) in one host call;
	 * 0 if every byte was written, else -EFAULT. */
	int (*mm_writev)(struct pf_mm *mm, const struct pf_iov *v, int n);
	/* Atomically, as one locked instruction in mm (guest threads run
	 * meanwhile): if the aligned 32-bit word at addr is old, it becomes
	 * new. 0 if it was, -EAGAIN if not, -EFAULT if mm is gone. The word
	 * must be mapped writable (the caller checks VMAs and reads it
	 * first). */
	int (*mm_cmpxchg32)(struct pf_mm *mm, uint64_t addr, uint32_t old, uint32_t new);
	/* FUTEX_WAKE_OP's operation op (0 SET, 1 ADD, 2 OR, 3 ANDN, 4 XOR)
	 * with arg on the aligned 32-bit word at addr, atomically in mm (one
	 * locked instruction or a lock cmpxchg loop, in place): 0 with the
	 * old value in *old, or -EFAULT. The word must be mapped writable
	 * (the caller checks VMAs first). */
	int (*mm_futex_op)(struct pf_mm *mm, uint64_t addr, int op, uint32_t arg, uint32_t *old);
	/* The host pid of the stub, for tests and the log. */
	int (*mm_host_pid)(struct pf_mm *mm);

	/* Threads: a new host thread in mm, stopped; it runs from regs once
	 * resumed. owner comes back with each event. */
	int (*thread_new)(struct pf_mm *mm, void *owner, struct pf_thread **out);
	/* May be NULL. thread_new, the thread starting with src's FPU/SSE/AVX
	 * state (a fork's, a clone's) with no host call for it but the read
	 * of src's: copy_fpu's work without its write. -EOPNOTSUPP if it
	 * cannot (then thread_new and copy_fpu). */
	int (*thread_new_fpu)(struct pf_mm *mm, void *owner, struct pf_thread *src,
			      struct pf_thread **out);
	void (*thread_put)(struct pf_thread *th);
	/* May be NULL. Whether th, from thread_new or thread_new_fpu, is a
	 * host thread that ran another guest thread before (a spare the
	 * backend kept): the host's counts for it go on from there. */
	bool (*thread_reused)(struct pf_thread *th);
	/* mm goes with the thread put next (its last): that thread need not
	 * leave on its own first, mm_put ends them together. */
	void (*mm_doom)(struct pf_mm *mm);
	/* Ends doomed mm together with th, its last thread, when th is the
	 * only guest thread its stub ever had: puts th, kills the stub and
	 * waits for the host to reap it. *out and *maxrss_kb are then the
	 * host's count of everything the stub ran (th, and the control
	 * thread's work for it), from that reaping: 0. -EBUSY, nothing done,
	 * if the stub had other guest threads (theirs were counted at their
	 * end) or is gone. May be NULL. */
	int (*mm_reap)(struct pf_mm *mm, struct pf_thread *th, struct host_cputime *out,
		       long *maxrss_kb);
	/* The host tid of the thread, for CPU accounting (may be NULL: a
	 * backend without one reports no CPU time). */
	int (*thread_host_tid)(struct pf_thread *th);
	int (*get_regs)(struct pf_thread *th, struct pf_regs *regs);
	int (*set_regs)(struct pf_thread *th, const struct pf_regs *regs);
	/* May be NULL. For exec, on a thread that ran another program: sets
	 * the registers (rcx 0) as set_regs does and puts the FPU/SSE/AVX
	 * state in its initial state (Linux's after exec), with no host call
	 * more than set_regs. -EOPNOTSUPP if it cannot (then set_regs and
	 * fpu_set). */
	int (*exec_regs)(struct pf_thread *th, const struct pf_regs *regs);
	/* May be NULL. For a signal handler's start (regs: rsp the frame,
	 * rdx its ucontext, rsi its siginfo, rax 0), the frame laid out as
	 * stub.h's STUB_SIG_START says: sets the registers as set_regs does;
	 * on its way the thread saves its FPU state into the frame and puts
	 * it in its initial state (Linux's at a handler's start), with no
	 * host call more than set_regs. -EOPNOTSUPP if it cannot (then
	 * fpu_get, set_regs and fpu_set). */
	int (*handler_regs)(struct pf_thread *th, const struct pf_regs *regs);
	/* May be NULL. For the end of rt_sigreturn, regs' rsp the frame
	 * returned from, laid out as stub.h's STUB_SIGRET says: sets the
	 * registers as set_regs does, to finish there; the FPU is restored
	 * on the way, with no host call more than set_regs. -EOPNOTSUPP if
	 * it cannot (then set_regs and fpu_set). */
	int (*sigreturn_regs)(struct pf_thread *th, const struct pf_regs *regs);
	/* May be NULL. With sigreturn_regs: puts STUB_SIGRET's slots (size
	 * bytes) where th alone reads them, with no host call, and returns
	 * their address, for the registers' rsp instead of the frame; 0 if it
	 * cannot (the caller then writes them at the frame). */
	uint64_t (*sigreturn_slots)(struct pf_thread *th, const void *slots, size_t size);
	/* Sets the result of the system call the thread trapped on. */
	void (*set_result)(struct pf_thread *th, long ret);
	/* Back to guest user mode until the next event. */
	int (*resume)(struct pf_thread *th);
	/* Makes a thread running guest code stop soon with PF_EV_INTERRUPT
	 * (or another event it reaches first). */
	int (*interrupt)(struct pf_thread *th);
	/* Copies the FPU/SSE/AVX state of src into dst (fork, clone). */
	int (*copy_fpu)(struct pf_thread *dst, struct pf_thread *src);
	/* The thread's FPU state in XSAVE layout (FXSAVE's first 512 bytes,
	 * then the XSAVE header and components): returns its size or -errno.
	 * fpu_set takes such a buffer back; the host checks it (-EINVAL). */
	long (*fpu_get)(struct pf_thread *th, void *buf, size_t size);
	int (*fpu_set)(struct pf_thread *th, const void *buf, size_t size);
	/* May be NULL: the kernel keeps the debug registers (and arms them
	 * by hwbp_arm, if there is one). The thread's debug register
	 * n (0-7, struct user's u_debugreg) read into *val, or written from
	 * it, with the host's own checks and errors (Linux's: EIO for 4 and
	 * 5, EINVAL for an address past user space or a DR7 it cannot arm,
	 * ENOSPC); a hit is a PF_EV_FAULT SIGTRAP (TRAP_HWBKPT). A thread
	 * put with them set loses them (a spare starts clean). */
	int (*debugreg)(struct pf_thread *th, int n, uint64_t *val, bool write);
	/* With debugreg: all of them 0, DR7 first (none armed meanwhile). */
	int (*debugreg_clear)(struct pf_thread *th);
	/* May be NULL; for a platform without debugreg, whose debug
	 * registers the kernel keeps (and checks) itself: arms th's
	 * hardware breakpoints as they now are, bit i of mask breakpoint i
	 * at addr[i] with its 4 bits of DR7 in lt[i] (length above type),
	 * and disarms the others. A hit is a PF_EV_FAULT SIGTRAP
	 * (TRAP_HWBKPT) with its bit in dr6. -errno where the host cannot
	 * arm them (they then never fire; the platform logs why, once). A
	 * thread put loses them. */
	int (*hwbp_arm)(struct pf_thread *th, unsigned mask, const uint64_t addr[4],
			const uint8_t lt[4]);

	/* The vDSO of fresh address spaces, or NULL if they have none (the
	 * op itself may be NULL). The kernel moves its parts together with
	 * mm_move (their distances must stay: the code finds its data by them). */
	const struct pf_vdso *(*vdso)(void);

	/* Events: poll delivers every pending event without blocking; wait
	 * blocks for at least one. Both return how many were delivered. */
	int (*poll)(pf_event_fn fn);
	int (*wait)(pf_event_fn fn);
	/* May be NULL: wait, returning 0 after timeout_ns (0: a poll). */
	int (*wait_for)(pf_event_fn fn, int64_t timeout_ns);
	/* May be NULL. Before the idle loop blocks in the event loop: looks
	 * for traps for a while (a poll is cheap) and returns how many it
	 * delivered; with none, a trap from now on wakes the event loop, and
	 * the platform may shorten *timeout_ns (-1: none) for a look of its
	 * own (the idle loop polls it after the wait). */
	int (*spin)(pf_event_fn fn, int64_t *timeout_ns);
	/* Guest threads run on the CPUs the kernel does not use (a trap is
	 * a handoff between CPUs), not on the kernel's (kernel/cpus.c). */
	bool threads_apart;
};

extern const struct platform_ops *platform;
extern const struct platform_ops platform_ptrace;
extern const struct platform_ops platform_seccomp;
extern const struct platform_ops platform_sigsys;

int platform_select(const char *name);
/* Settles the default (falls back to ptrace where seccomp cannot run) and
 * returns the name of the backend that runs. */
const char *platform_resolve(void);

#endif
