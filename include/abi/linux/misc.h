/*
 * Smaller x86-64 Linux ABI pieces: arch_prctl codes, getrandom and prctl
 * options, clock ids, personality, robust futex list, clone/clone3 flags
 * and struct clone_args, wait(2) options and futex operations.
 */
#ifndef ABI_LINUX_MISC_H
#define ABI_LINUX_MISC_H

#include <stddef.h>
#include <stdint.h>

/* arch_prctl(2) (asm/prctl.h) */
#define LINUX_ARCH_SET_GS		0x1001
#define LINUX_ARCH_SET_FS		0x1002
#define LINUX_ARCH_GET_FS		0x1003
#define LINUX_ARCH_GET_GS		0x1004
#define LINUX_ARCH_GET_CPUID		0x1011
#define LINUX_ARCH_SET_CPUID		0x1012
#define LINUX_ARCH_GET_XCOMP_SUPP	0x1021
#define LINUX_ARCH_GET_XCOMP_PERM	0x1022
#define LINUX_ARCH_REQ_XCOMP_PERM	0x1023
#define LINUX_ARCH_GET_XCOMP_GUEST_PERM 0x1024
#define LINUX_ARCH_REQ_XCOMP_GUEST_PERM 0x1025
#define LINUX_ARCH_MAP_VDSO_X32		0x2001
#define LINUX_ARCH_MAP_VDSO_32		0x2002
#define LINUX_ARCH_MAP_VDSO_64		0x2003
#define LINUX_XFEATURE_XTILE_DATA	18 /* AMX: with 17, XTILE_CFG */
#define LINUX_XFEATURE_MAX		20

/* getrandom(2) */
#define LINUX_GRND_NONBLOCK 0x0001
#define LINUX_GRND_RANDOM   0x0002
#define LINUX_GRND_INSECURE 0x0004

/* prctl(2) options (linux/prctl.h) */
#define LINUX_PR_SET_PDEATHSIG		  1
#define LINUX_PR_GET_PDEATHSIG		  2
#define LINUX_PR_GET_DUMPABLE		  3
#define LINUX_PR_SET_DUMPABLE		  4
#define LINUX_PR_GET_KEEPCAPS		  7
#define LINUX_PR_SET_KEEPCAPS		  8
#define LINUX_PR_SET_NAME		  15
#define LINUX_PR_GET_NAME		  16
#define LINUX_PR_GET_SECCOMP		  21
#define LINUX_PR_SET_SECCOMP		  22
#define LINUX_PR_CAPBSET_READ		  23
#define LINUX_PR_CAPBSET_DROP		  24
#define LINUX_PR_GET_TIMING		  13
#define LINUX_PR_SET_TIMING		  14
#define LINUX_PR_GET_TSC		  25
#define LINUX_PR_SET_TSC		  26
#define LINUX_PR_GET_SECUREBITS		  27
#define LINUX_PR_SET_SECUREBITS		  28
#define LINUX_PR_SET_TIMERSLACK		  29
#define LINUX_PR_GET_TIMERSLACK		  30
#define LINUX_PR_TASK_PERF_EVENTS_DISABLE 31
#define LINUX_PR_TASK_PERF_EVENTS_ENABLE  32
#define LINUX_PR_MCE_KILL		  33
#define LINUX_PR_MCE_KILL_GET		  34
#define LINUX_PR_SET_MM			  35
#define LINUX_PR_SET_CHILD_SUBREAPER	  36
#define LINUX_PR_GET_CHILD_SUBREAPER	  37
#define LINUX_PR_SET_NO_NEW_PRIVS	  38
#define LINUX_PR_GET_NO_NEW_PRIVS	  39
#define LINUX_PR_GET_TID_ADDRESS	  40
#define LINUX_PR_SET_THP_DISABLE	  41
#define LINUX_PR_GET_THP_DISABLE	  42
/* PR_SET_THP_DISABLE's third argument (Linux 6.18) */
#define LINUX_PR_THP_DISABLE_EXCEPT_ADVISED (1 << 1)
#define LINUX_PR_CAP_AMBIENT		    47
#define LINUX_PR_GET_SPECULATION_CTRL	    52
#define LINUX_PR_SET_IO_FLUSHER		    57
#define LINUX_PR_GET_IO_FLUSHER		    58
#define LINUX_PR_SET_MDWE		    65
#define LINUX_PR_GET_MDWE		    66
#define LINUX_PR_MDWE_REFUSE_EXEC_GAIN	    1
#define LINUX_PR_MDWE_NO_INHERIT	    2
#define LINUX_PR_SET_SPECULATION_CTRL	    53
#define LINUX_PR_SET_PTRACER		    0x59616d61
#define LINUX_PR_SET_PTRACER_ANY	    (~(uint64_t)0)
#define LINUX_PR_SET_VMA		    0x53564d41
#define LINUX_PR_GET_AUXV		    0x41555856
#define LINUX_PR_SET_VMA_ANON_NAME	    0

/* PR_SET_NAME/PR_GET_NAME buffer, NUL included (TASK_COMM_LEN) */
#define LINUX_TASK_COMM_LEN 16

/* clock ids for clock_gettime(2) and friends */
#define LINUX_CLOCK_REALTIME	       0
#define LINUX_CLOCK_MONOTONIC	       1
#define LINUX_CLOCK_PROCESS_CPUTIME_ID 2
#define LINUX_CLOCK_THREAD_CPUTIME_ID  3
#define LINUX_CLOCK_MONOTONIC_RAW      4
#define LINUX_CLOCK_REALTIME_COARSE    5
#define LINUX_CLOCK_MONOTONIC_COARSE   6
#define LINUX_CLOCK_BOOTTIME	       7
#define LINUX_CLOCK_REALTIME_ALARM     8
#define LINUX_CLOCK_BOOTTIME_ALARM     9
#define LINUX_CLOCK_SGI_CYCLE	       10 /* unused; EINVAL */
#define LINUX_CLOCK_TAI		       11
#define LINUX_MAX_CLOCKS	       16

/* clock_nanosleep(2), timer_settime(2) flags */
#define LINUX_TIMER_ABSTIME 0x01

/* setitimer(2) which */
#define LINUX_ITIMER_REAL    0
#define LINUX_ITIMER_VIRTUAL 1
#define LINUX_ITIMER_PROF    2

/* personality(2): the type in the low byte, flags above */
#define LINUX_PER_LINUX		 0x0000
#define LINUX_PER_LINUX32	 0x0008
#define LINUX_PER_MASK		 0x00ff
#define LINUX_UNAME26		 0x0020000
#define LINUX_ADDR_NO_RANDOMIZE	 0x0040000
#define LINUX_FDPIC_FUNCPTRS	 0x0080000
#define LINUX_MMAP_PAGE_ZERO	 0x0100000
#define LINUX_ADDR_COMPAT_LAYOUT 0x0200000
#define LINUX_READ_IMPLIES_EXEC	 0x0400000
#define LINUX_ADDR_LIMIT_32BIT	 0x0800000
#define LINUX_SHORT_INODE	 0x1000000
#define LINUX_WHOLE_SECONDS	 0x2000000
#define LINUX_STICKY_TIMEOUTS	 0x4000000
#define LINUX_ADDR_LIMIT_3GB	 0x8000000

/* set_robust_list(2): the guest's list head, all guest addresses */
struct linux_robust_list_head {
	uint64_t list_next;   /* struct robust_list { next } */
	int64_t futex_offset; /* from a list entry to its futex word */
	uint64_t list_op_pending;
};
_Static_assert(sizeof(struct linux_robust_list_head) == 24, "linux_robust_list_head size");
_Static_assert(offsetof(struct linux_robust_list_head, futex_offset) == 8,
	       "linux_robust_list_head futex_offset");
_Static_assert(offsetof(struct linux_robust_list_head, list_op_pending) == 16,
	       "linux_robust_list_head list_op_pending");

/* clone(2)/clone3(2) flags; the low byte of clone(2)'s flags is the exit signal */
#define LINUX_CSIGNAL		   0x000000ff
#define LINUX_CLONE_NEWTIME	   0x00000080 /* unshare/clone3 only */
#define LINUX_CLONE_VM		   0x00000100
#define LINUX_CLONE_FS		   0x00000200
#define LINUX_CLONE_FILES	   0x00000400
#define LINUX_CLONE_SIGHAND	   0x00000800
#define LINUX_CLONE_PIDFD	   0x00001000
#define LINUX_CLONE_PTRACE	   0x00002000
#define LINUX_CLONE_VFORK	   0x00004000
#define LINUX_CLONE_PARENT	   0x00008000
#define LINUX_CLONE_THREAD	   0x00010000
#define LINUX_CLONE_NEWNS	   0x00020000
#define LINUX_CLONE_SYSVSEM	   0x00040000
#define LINUX_CLONE_SETTLS	   0x00080000
#define LINUX_CLONE_PARENT_SETTID  0x00100000
#define LINUX_CLONE_CHILD_CLEARTID 0x00200000
#define LINUX_CLONE_DETACHED	   0x00400000 /* ignored */
#define LINUX_CLONE_UNTRACED	   0x00800000
#define LINUX_CLONE_CHILD_SETTID   0x01000000
#define LINUX_CLONE_NEWCGROUP	   0x02000000
#define LINUX_CLONE_NEWUTS	   0x04000000
#define LINUX_CLONE_NEWIPC	   0x08000000
#define LINUX_CLONE_NEWUSER	   0x10000000
#define LINUX_CLONE_NEWPID	   0x20000000
#define LINUX_CLONE_NEWNET	   0x40000000
#define LINUX_CLONE_IO		   0x80000000
#define LINUX_CLONE_CLEAR_SIGHAND  0x100000000ULL /* clone3 only */
#define LINUX_CLONE_INTO_CGROUP	   0x200000000ULL /* clone3 only */

/* clone3(2); the guest passes its size, which may be any published version */
struct linux_clone_args {
	uint64_t flags;
	uint64_t pidfd;	     /* guest address of an int */
	uint64_t child_tid;  /* guest address */
	uint64_t parent_tid; /* guest address */
	uint64_t exit_signal;
	uint64_t stack; /* guest address of the lowest byte */
	uint64_t stack_size;
	uint64_t tls;
	uint64_t set_tid; /* guest address of a pid_t array */
	uint64_t set_tid_size;
	uint64_t cgroup; /* fd, with LINUX_CLONE_INTO_CGROUP */
};
_Static_assert(sizeof(struct linux_clone_args) == 88, "linux_clone_args size");
_Static_assert(offsetof(struct linux_clone_args, exit_signal) == 32,
	       "linux_clone_args exit_signal");
_Static_assert(offsetof(struct linux_clone_args, tls) == 56, "linux_clone_args tls");
_Static_assert(offsetof(struct linux_clone_args, set_tid) == 64, "linux_clone_args set_tid");
_Static_assert(offsetof(struct linux_clone_args, cgroup) == 80, "linux_clone_args cgroup");

#define LINUX_CLONE_ARGS_SIZE_VER0 64
#define LINUX_CLONE_ARGS_SIZE_VER1 80
#define LINUX_CLONE_ARGS_SIZE_VER2 88

/* wait4(2)/waitid(2) options */
#define LINUX_WNOHANG	 0x00000001
#define LINUX_WUNTRACED	 0x00000002
#define LINUX_WSTOPPED	 LINUX_WUNTRACED
#define LINUX_WEXITED	 0x00000004
#define LINUX_WCONTINUED 0x00000008
#define LINUX_WNOWAIT	 0x01000000
#define LINUX_WNOTHREAD	 0x20000000 /* __WNOTHREAD */
#define LINUX_WALL	 0x40000000 /* __WALL */
#define LINUX_WCLONE	 0x80000000 /* __WCLONE */

/* waitid(2) idtype */
#define LINUX_P_ALL   0
#define LINUX_P_PID   1
#define LINUX_P_PGID  2
#define LINUX_P_PIDFD 3

/* futex(2) operations; the op argument is cmd | flags */
#define LINUX_FUTEX_WAIT	    0
#define LINUX_FUTEX_WAKE	    1
#define LINUX_FUTEX_FD		    2 /* removed in 2.6.26: ENOSYS */
#define LINUX_FUTEX_REQUEUE	    3
#define LINUX_FUTEX_CMP_REQUEUE	    4
#define LINUX_FUTEX_WAKE_OP	    5
#define LINUX_FUTEX_LOCK_PI	    6
#define LINUX_FUTEX_UNLOCK_PI	    7
#define LINUX_FUTEX_TRYLOCK_PI	    8
#define LINUX_FUTEX_WAIT_BITSET	    9
#define LINUX_FUTEX_WAKE_BITSET	    10
#define LINUX_FUTEX_WAIT_REQUEUE_PI 11
#define LINUX_FUTEX_CMP_REQUEUE_PI  12
#define LINUX_FUTEX_LOCK_PI2	    13
#define LINUX_FUTEX_PRIVATE_FLAG    128
#define LINUX_FUTEX_CLOCK_REALTIME  256
#define LINUX_FUTEX_CMD_MASK	    (~(LINUX_FUTEX_PRIVATE_FLAG | LINUX_FUTEX_CLOCK_REALTIME))

#define LINUX_FUTEX_BITSET_MATCH_ANY 0xffffffff

/* the futex word of a PI or robust lock */
#define LINUX_FUTEX_WAITERS	0x80000000
#define LINUX_FUTEX_OWNER_DIED	0x40000000
#define LINUX_FUTEX_TID_MASK	0x3fffffff
#define LINUX_ROBUST_LIST_LIMIT 2048

/* FUTEX_WAKE_OP: op = (op << 28) | (cmp << 24) | (oparg << 12) | cmparg */
#define LINUX_FUTEX_OP_SET	   0
#define LINUX_FUTEX_OP_ADD	   1
#define LINUX_FUTEX_OP_OR	   2
#define LINUX_FUTEX_OP_ANDN	   3
#define LINUX_FUTEX_OP_XOR	   4
#define LINUX_FUTEX_OP_OPARG_SHIFT 8 /* oparg is 1 << oparg */
#define LINUX_FUTEX_OP_CMP_EQ	   0
#define LINUX_FUTEX_OP_CMP_NE	   1
#define LINUX_FUTEX_OP_CMP_LT	   2
#define LINUX_FUTEX_OP_CMP_LE	   3
#define LINUX_FUTEX_OP_CMP_GT	   4
#define LINUX_FUTEX_OP_CMP_GE	   5

#endif /* ABI_LINUX_MISC_H */
