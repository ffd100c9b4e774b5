/*
 * Signals as the x86-64 kernel ABI defines them: numbers, the struct that
 * rt_sigaction(2) takes (not glibc's), sigaltstack's stack_t, siginfo and
 * its si_code values. A signal set is one uint64_t, bit (sig - 1).
 */
#ifndef ABI_LINUX_SIGNAL_H
#define ABI_LINUX_SIGNAL_H

#include <stddef.h>
#include <stdint.h>

#define LINUX_SIGHUP	1
#define LINUX_SIGINT	2
#define LINUX_SIGQUIT	3
#define LINUX_SIGILL	4
#define LINUX_SIGTRAP	5
#define LINUX_SIGABRT	6
#define LINUX_SIGIOT	6
#define LINUX_SIGBUS	7
#define LINUX_SIGFPE	8
#define LINUX_SIGKILL	9
#define LINUX_SIGUSR1	10
#define LINUX_SIGSEGV	11
#define LINUX_SIGUSR2	12
#define LINUX_SIGPIPE	13
#define LINUX_SIGALRM	14
#define LINUX_SIGTERM	15
#define LINUX_SIGSTKFLT 16
#define LINUX_SIGCHLD	17
#define LINUX_SIGCONT	18
#define LINUX_SIGSTOP	19
#define LINUX_SIGTSTP	20
#define LINUX_SIGTTIN	21
#define LINUX_SIGTTOU	22
#define LINUX_SIGURG	23
#define LINUX_SIGXCPU	24
#define LINUX_SIGXFSZ	25
#define LINUX_SIGVTALRM 26
#define LINUX_SIGPROF	27
#define LINUX_SIGWINCH	28
#define LINUX_SIGIO	29
#define LINUX_SIGPOLL	LINUX_SIGIO
#define LINUX_SIGPWR	30
#define LINUX_SIGSYS	31
#define LINUX_SIGRTMIN	32
#define LINUX_SIGRTMAX	64
#define LINUX_NSIG	64

/* the kernel sigset_t; rt_sig*() insist on sigsetsize == 8 */
#define LINUX_SIGSET_SIZE  8
#define LINUX_SIGMASK(sig) (UINT64_C(1) << ((sig)-1))

/* sa_flags */
#define LINUX_SA_NOCLDSTOP	0x00000001
#define LINUX_SA_NOCLDWAIT	0x00000002
#define LINUX_SA_SIGINFO	0x00000004
#define LINUX_SA_UNSUPPORTED	0x00000400
#define LINUX_SA_EXPOSE_TAGBITS 0x00000800
#define LINUX_SA_RESTORER	0x04000000
#define LINUX_SA_ONSTACK	0x08000000
#define LINUX_SA_RESTART	0x10000000
#define LINUX_SA_NODEFER	0x40000000
#define LINUX_SA_RESETHAND	0x80000000

/* handler values */
#define LINUX_SIG_DFL 0
#define LINUX_SIG_IGN 1

/* rt_sigprocmask(2) how */
#define LINUX_SIG_BLOCK	  0
#define LINUX_SIG_UNBLOCK 1
#define LINUX_SIG_SETMASK 2

/* rt_sigaction(2) on x86-64: the mask comes last, unlike glibc's layout */
struct linux_sigaction {
	uint64_t handler;  /* guest address, or LINUX_SIG_DFL/LINUX_SIG_IGN */
	uint64_t flags;	   /* LINUX_SA_* */
	uint64_t restorer; /* guest address, with LINUX_SA_RESTORER */
	uint64_t mask;
};
_Static_assert(sizeof(struct linux_sigaction) == 32, "linux_sigaction size");
_Static_assert(offsetof(struct linux_sigaction, flags) == 8, "linux_sigaction flags");
_Static_assert(offsetof(struct linux_sigaction, restorer) == 16, "linux_sigaction restorer");
_Static_assert(offsetof(struct linux_sigaction, mask) == 24, "linux_sigaction mask");

/* sigaltstack(2) */
struct linux_stack_t {
	uint64_t ss_sp; /* guest address */
	int32_t ss_flags;
	uint32_t pad;
	uint64_t ss_size;
};
_Static_assert(sizeof(struct linux_stack_t) == 24, "linux_stack_t size");
_Static_assert(offsetof(struct linux_stack_t, ss_flags) == 8, "linux_stack_t ss_flags");
_Static_assert(offsetof(struct linux_stack_t, ss_size) == 16, "linux_stack_t ss_size");

#define LINUX_SS_ONSTACK    1
#define LINUX_SS_DISABLE    2
#define LINUX_SS_AUTODISARM (1U << 31)
#define LINUX_MINSIGSTKSZ   2048
#define LINUX_SIGSTKSZ	    8192

/* sigval_t: an int or a guest address */
union linux_sigval {
	int32_t sival_int;
	uint64_t sival_ptr;
};

/*
 * siginfo_t, 128 bytes. The union at offset 16 follows asm-generic/siginfo.h
 * on a 64-bit arch; which member is live depends on the signal and si_code.
 */
struct linux_siginfo {
	int32_t si_signo;
	int32_t si_errno;
	int32_t si_code;
	int32_t pad0;
	union {
		uint8_t pad[112];
		/* kill(2), tkill(2), SI_USER */
		struct {
			int32_t pid;
			uint32_t uid;
		} kill;
		/* POSIX timers, SI_TIMER */
		struct {
			int32_t tid;
			int32_t overrun;
			union linux_sigval sigval;
			int32_t sys_private; /* not passed to the guest */
		} timer;
		/* rt_sigqueueinfo(2), SI_QUEUE */
		struct {
			int32_t pid;
			uint32_t uid;
			union linux_sigval sigval;
		} rt;
		/* SIGCHLD */
		struct {
			int32_t pid;
			uint32_t uid;
			int32_t status;
			int64_t utime; /* clock ticks */
			int64_t stime;
		} sigchld;
		/* SIGILL, SIGFPE, SIGSEGV, SIGBUS, SIGTRAP */
		struct {
			uint64_t addr; /* guest address */
			union {
				int32_t trapno;
				int16_t addr_lsb; /* BUS_MCEERR_* */
				struct {
					uint64_t pad;
					uint64_t lower;
					uint64_t upper;
				} addr_bnd; /* SEGV_BNDERR */
				struct {
					uint64_t pad;
					uint32_t pkey;
				} addr_pkey; /* SEGV_PKUERR */
				struct {
					uint64_t data;
					uint32_t type;
					uint32_t flags;
				} perf; /* TRAP_PERF */
			};
		} sigfault;
		/* SIGPOLL */
		struct {
			int64_t band;
			int32_t fd;
		} sigpoll;
		/* SIGSYS */
		struct {
			uint64_t call_addr; /* guest address */
			int32_t syscall;
			uint32_t arch; /* AUDIT_ARCH_* */
		} sigsys;
	} fields;
};
_Static_assert(sizeof(struct linux_siginfo) == 128, "linux_siginfo size");
_Static_assert(offsetof(struct linux_siginfo, si_code) == 8, "linux_siginfo si_code");
_Static_assert(offsetof(struct linux_siginfo, fields) == 16, "linux_siginfo fields");
_Static_assert(offsetof(struct linux_siginfo, fields.timer.sigval) == 24, "linux_siginfo sigval");
_Static_assert(offsetof(struct linux_siginfo, fields.timer.sys_private) == 32,
	       "linux_siginfo sys_private");
_Static_assert(offsetof(struct linux_siginfo, fields.sigchld.status) == 24, "linux_siginfo status");
_Static_assert(offsetof(struct linux_siginfo, fields.sigchld.utime) == 32, "linux_siginfo utime");
_Static_assert(offsetof(struct linux_siginfo, fields.sigchld.stime) == 40, "linux_siginfo stime");
_Static_assert(offsetof(struct linux_siginfo, fields.sigfault.addr_lsb) == 24,
	       "linux_siginfo addr_lsb");
_Static_assert(offsetof(struct linux_siginfo, fields.sigfault.addr_bnd.lower) == 32,
	       "linux_siginfo lower");
_Static_assert(offsetof(struct linux_siginfo, fields.sigfault.addr_pkey.pkey) == 32,
	       "linux_siginfo pkey");
_Static_assert(offsetof(struct linux_siginfo, fields.sigpoll.fd) == 24, "linux_siginfo fd");
_Static_assert(offsetof(struct linux_siginfo, fields.sigsys.arch) == 28, "linux_siginfo arch");

/* si_code values for any signal */
#define LINUX_SI_USER	  0
#define LINUX_SI_KERNEL	  0x80
#define LINUX_SI_QUEUE	  (-1)
#define LINUX_SI_TIMER	  (-2)
#define LINUX_SI_MESGQ	  (-3)
#define LINUX_SI_ASYNCIO  (-4)
#define LINUX_SI_SIGIO	  (-5)
#define LINUX_SI_TKILL	  (-6)
#define LINUX_SI_DETHREAD (-7)
#define LINUX_SI_ASYNCNL  (-60)

/* SIGILL */
#define LINUX_ILL_ILLOPC 1
#define LINUX_ILL_ILLOPN 2
#define LINUX_ILL_ILLADR 3
#define LINUX_ILL_ILLTRP 4
#define LINUX_ILL_PRVOPC 5
#define LINUX_ILL_PRVREG 6
#define LINUX_ILL_COPROC 7
#define LINUX_ILL_BADSTK 8

/* SIGFPE */
#define LINUX_FPE_INTDIV 1
#define LINUX_FPE_INTOVF 2
#define LINUX_FPE_FLTDIV 3
#define LINUX_FPE_FLTOVF 4
#define LINUX_FPE_FLTUND 5
#define LINUX_FPE_FLTRES 6
#define LINUX_FPE_FLTINV 7
#define LINUX_FPE_FLTSUB 8
#define LINUX_FPE_FLTUNK 14

/* SIGSEGV */
#define LINUX_SEGV_MAPERR 1
#define LINUX_SEGV_ACCERR 2
#define LINUX_SEGV_BNDERR 3
#define LINUX_SEGV_PKUERR 4

/* SIGBUS */
#define LINUX_BUS_ADRALN    1
#define LINUX_BUS_ADRERR    2
#define LINUX_BUS_OBJERR    3
#define LINUX_BUS_MCEERR_AR 4
#define LINUX_BUS_MCEERR_AO 5

/* SIGTRAP */
#define LINUX_TRAP_BRKPT  1
#define LINUX_TRAP_TRACE  2
#define LINUX_TRAP_BRANCH 3
#define LINUX_TRAP_HWBKPT 4
#define LINUX_TRAP_UNK	  5
#define LINUX_TRAP_PERF	  6

/* SIGCHLD */
#define LINUX_CLD_EXITED    1
#define LINUX_CLD_KILLED    2
#define LINUX_CLD_DUMPED    3
#define LINUX_CLD_TRAPPED   4
#define LINUX_CLD_STOPPED   5
#define LINUX_CLD_CONTINUED 6

/* SIGPOLL (not the poll(2) event bits) */
#define LINUX_POLL_IN  1
#define LINUX_POLL_OUT 2
#define LINUX_POLL_MSG 3
#define LINUX_POLL_ERR 4
#define LINUX_POLL_PRI 5
#define LINUX_POLL_HUP 6

/* SIGSYS */
#define LINUX_SYS_SECCOMP	1
#define LINUX_SYS_USER_DISPATCH 2

/* The x86-64 signal frame (arch/x86/include/uapi/asm/sigcontext.h, ucontext.h). */
struct linux_sigcontext {
	uint64_t r8, r9, r10, r11, r12, r13, r14, r15;
	uint64_t rdi, rsi, rbp, rbx, rdx, rax, rcx, rsp, rip, eflags;
	uint16_t cs, gs, fs, ss;
	uint64_t err, trapno, oldmask, cr2;
	uint64_t fpstate; /* guest address of the FPU/XSAVE state, or 0 */
	uint64_t reserved1[8];
};
_Static_assert(sizeof(struct linux_sigcontext) == 256, "linux_sigcontext size");
_Static_assert(offsetof(struct linux_sigcontext, eflags) == 136, "linux_sigcontext eflags");
_Static_assert(offsetof(struct linux_sigcontext, fpstate) == 184, "linux_sigcontext fpstate");

struct linux_ucontext {
	uint64_t uc_flags;
	uint64_t uc_link;
	struct linux_stack_t uc_stack;
	struct linux_sigcontext uc_mcontext;
	uint64_t uc_sigmask;
};
_Static_assert(sizeof(struct linux_ucontext) == 304, "linux_ucontext size");

#define LINUX_UC_FP_XSTATE	    0x1
#define LINUX_UC_SIGCONTEXT_SS	    0x2
#define LINUX_UC_STRICT_RESTORE_SS  0x4
#define LINUX_FP_XSTATE_MAGIC1	    0x46505853U
#define LINUX_FP_XSTATE_MAGIC2	    0x46505845U
#define LINUX_FP_XSTATE_MAGIC2_SIZE 4
#define LINUX_FXSAVE_SIZE	    512
#define LINUX_FPX_SW_BYTES_OFFSET   464

struct linux_fpx_sw_bytes {
	uint32_t magic1;
	uint32_t extended_size;
	uint64_t xfeatures;
	uint32_t xstate_size;
	uint32_t padding[7];
};
_Static_assert(sizeof(struct linux_fpx_sw_bytes) == 48, "linux_fpx_sw_bytes size");

/* signalfd(2): one record per signal read, 128 bytes (linux/signalfd.h). */
#define LINUX_SFD_CLOEXEC  02000000
#define LINUX_SFD_NONBLOCK 00004000

struct linux_signalfd_siginfo {
	uint32_t ssi_signo;
	int32_t ssi_errno;
	int32_t ssi_code;
	uint32_t ssi_pid;
	uint32_t ssi_uid;
	int32_t ssi_fd;
	uint32_t ssi_tid;
	uint32_t ssi_band;
	uint32_t ssi_overrun;
	uint32_t ssi_trapno;
	int32_t ssi_status;
	int32_t ssi_int;
	uint64_t ssi_ptr;
	uint64_t ssi_utime;
	uint64_t ssi_stime;
	uint64_t ssi_addr;
	uint16_t ssi_addr_lsb;
	uint16_t pad2;
	int32_t ssi_syscall;
	uint64_t ssi_call_addr;
	uint32_t ssi_arch;
	uint8_t pad[28];
};
_Static_assert(sizeof(struct linux_signalfd_siginfo) == 128, "linux_signalfd_siginfo size");
_Static_assert(offsetof(struct linux_signalfd_siginfo, ssi_ptr) == 48, "ssi_ptr");
_Static_assert(offsetof(struct linux_signalfd_siginfo, ssi_addr_lsb) == 80, "ssi_addr_lsb");
_Static_assert(offsetof(struct linux_signalfd_siginfo, ssi_call_addr) == 88, "ssi_call_addr");

/* sigevent for timer_create(2) and mq_notify(2): 64 bytes. */
#define LINUX_SIGEV_SIGNAL    0
#define LINUX_SIGEV_NONE      1
#define LINUX_SIGEV_THREAD    2
#define LINUX_SIGEV_THREAD_ID 4

struct linux_sigevent {
	union linux_sigval sigev_value;
	int32_t sigev_signo;
	int32_t sigev_notify;
	union {
		int32_t pad[12];
		int32_t tid; /* SIGEV_THREAD_ID */
	} un;
};
_Static_assert(sizeof(struct linux_sigevent) == 64, "linux_sigevent size");
_Static_assert(offsetof(struct linux_sigevent, un.tid) == 16, "linux_sigevent tid");

#endif /* ABI_LINUX_SIGNAL_H */
