/* skas-test: timeout: 120 */
/* A small syscall fuzzer (issue 9, "hostile guests"): a seeded xorshift
 * picks COUNT calls (default 20000) from a list and gives them hostile
 * arguments: NULL, (void *)1, kernel and non-canonical addresses, buffers
 * that run into an unmapped page, huge and negative lengths, junk flags,
 * bad and real fds, paths too long or unterminated. The test passes when
 * the kernel under it survives: it prints only "ok 1 - fuzzer survived N
 * calls", natively and under skas (the calls' results differ between the
 * two and are never printed). Under the ASan build of skas the run must
 * leave no sanitizer report.
 *
 * The list is safe to run natively as root: no signal to another process,
 * no host-wide setting (clock, hostname, mounts, modules, IPC objects that
 * outlive us), no raw or network sockets (AF_UNIX only), paths only inside
 * a private directory under /tmp (names over [a-e], no "..", no leading
 * "/"), fds only the ones the test opened (never 0, 1, 2; its character
 * device is a null node it makes there, not the host's /dev/null, whose
 * mode and owner fchmod and fchown would change), memory calls only
 * inside a scratch region at a fixed address, and every pointer the
 * kernel writes through points at a scratch region too. A repeating
 * 5 ms ITIMER_REAL (SIGALRM, no SA_RESTART) breaks any call that blocks.
 *
 * usage: fuzz_syscalls [SEED [COUNT]]; FUZZ_TRACE=1 writes each call to
 * stderr before making it (to find the call that hurt a kernel). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <sys/un.h>

#define PG	 4096UL
#define MAP_BASE 0x100000000000UL /* the region memory calls may change */
#define MAP_NPG	 256UL
#define MAP_END	 (MAP_BASE + MAP_NPG * PG)
#define ARG_BASE 0x110000000000UL /* structs and buffers, between guards */
#define ARG_NPG	 16UL
#define ARG_END	 (ARG_BASE + ARG_NPG * PG)
#define DATA	 (ARG_BASE + 8 * PG) /* pages 8..15: plain buffers */
#define MAXFD	 31		     /* fds 3..MAXFD are fair game */

static uint64_t rng;

static uint64_t rnd(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 0x2545f4914f6cdd1dULL;
}

static uint64_t pick(const uint64_t *v, size_t n)
{
	return v[rnd() % n];
}
#define PICK(...)                               \
	pick((const uint64_t[]){ __VA_ARGS__ }, \
	     sizeof((const uint64_t[]){ __VA_ARGS__ }) / sizeof(uint64_t))

/* Argument kinds. */
enum {
	Z,	 /* 0 */
	FD,	 /* an fd the test may touch (3..31), or a bad one */
	DIRFD,	 /* AT_FDCWD or FD */
	MFD,	 /* -1 (anonymous) or FD */
	PATH,	 /* a name inside the private directory, or a bad string */
	BUF,	 /* a pointer into a scratch region, or a bad one */
	LEN,	 /* any length, huge ones too */
	SLEN,	 /* a length below 64 KiB: calls that copy data */
	INT,	 /* small, big or negative */
	FLAGS,	 /* a few random bits */
	MODE,	 /* file mode bits */
	OFLAGS,	 /* open flags */
	ATFL,	 /* AT_* flags */
	SIGNO,	 /* a signal nobody sends us, or an invalid one */
	PID,	 /* 0, us, or no process */
	UID,	 /* 0, 65534, -1, random */
	MADDR,	 /* a page (or not) inside the scratch mapping region */
	MLEN,	 /* a length that stays inside it from the previous argument */
	PROT,	 /* PROT_* */
	MFLAGS,	 /* MAP_* with MAP_FIXED(_NOREPLACE) always */
	ADVICE,	 /* MADV_* but the ones that poison host pages */
	OFF,	 /* file offsets */
	IOV,	 /* an iovec array; the next CNT argument is its length */
	CNT,	 /* a count: the previous array's, or a hostile one */
	MSG,	 /* a struct msghdr */
	MMSG,	 /* struct mmsghdr[]; the next CNT argument is its length */
	SADDR,	 /* a struct sockaddr (AF_UNIX names inside the directory) */
	SALEN,	 /* its length */
	TS,	 /* a short, invalid, NULL or bad struct timespec */
	TSNN,	 /* the same, never NULL (calls NULL makes wait forever) */
	TV,	 /* a struct timeval for select */
	SIGSET,	 /* a sigset without SIGALRM */
	SSZ,	 /* a sigset size */
	PSEL6,	 /* pselect6's { sigset *, size } */
	MS,	 /* a poll timeout in ms */
	IOCTL,	 /* an ioctl request that cannot reach beyond our fds */
	FCNTL,	 /* an fcntl command but F_SETOWN/F_SETSIG (signals to others) */
	XNAME,	 /* an xattr name */
	HOW,	 /* a struct open_how */
	HOWSZ,	 /* its size */
	CLOCK,	 /* a clock id */
	SOCKDOM, /* AF_UNIX or an invalid domain */
	SOCKTY,	 /* a socket type */
};

struct call {
	long nr;
	const char *name;
	unsigned char arg[6];
};

/* x86-64 numbers; the names are for FUZZ_TRACE. Left out: anything that
 * ends or replaces the process (exit, execve, fork, clone, rt_sigreturn,
 * brk, arch_prctl, prctl, seccomp, personality, setrlimit), waits by design
 * (pause, rt_sigsuspend), signals a process (kill, tkill, tgkill,
 * rt_sigqueueinfo, pidfd_send_signal, timer_create, alarm, setitimer),
 * reaches other processes (ptrace, process_vm_*, process_madvise,
 * move_pages, migrate_pages, pidfd_getfd), changes the host (mount family,
 * chroot, pivot_root, swapon, reboot, kexec, modules, sethostname, time,
 * acct, quotactl, syslog, ioperm, iopl, vhangup, sync, mknod), credentials
 * and scheduling classes (set*id, capset, sched_setscheduler, setpriority,
 * ioprio_set), objects that outlive us or run calls for us (SysV IPC,
 * mq_*, keys, io_uring, aio, bpf, perf, fanotify, userfaultfd, landlock),
 * open_by_handle_at, and pkey_alloc/pkey_free (freeing key 0 and taking it
 * back with access disabled would fault on every page we own). Nr 335
 * raises SIGILL on some hosts, so the unused numbers tried are others. */
static const struct call calls[] = {
	{ 0, "read", { FD, BUF, LEN } },
	{ 1, "write", { FD, BUF, LEN } },
	{ 2, "open", { PATH, OFLAGS, MODE } },
	{ 3, "close", { FD } },
	{ 4, "stat", { PATH, BUF } },
	{ 5, "fstat", { FD, BUF } },
	{ 6, "lstat", { PATH, BUF } },
	{ 7, "poll", { BUF, CNT, MS } },
	{ 8, "lseek", { FD, OFF, INT } },
	{ 9, "mmap", { MADDR, MLEN, PROT, MFLAGS, MFD, OFF } },
	{ 10, "mprotect", { MADDR, MLEN, PROT } },
	{ 11, "munmap", { MADDR, MLEN } },
	{ 13, "rt_sigaction", { SIGNO, BUF, BUF, SSZ } },
	{ 14, "rt_sigprocmask", { INT, SIGSET, BUF, SSZ } },
	{ 16, "ioctl", { FD, IOCTL, BUF } },
	{ 17, "pread64", { FD, BUF, LEN, OFF } },
	{ 18, "pwrite64", { FD, BUF, LEN, OFF } },
	{ 19, "readv", { FD, IOV, CNT } },
	{ 20, "writev", { FD, IOV, CNT } },
	{ 21, "access", { PATH, INT } },
	{ 22, "pipe", { BUF } },
	{ 23, "select", { CNT, BUF, BUF, BUF, TV } },
	{ 24, "sched_yield", { Z } },
	{ 25, "mremap", { MADDR, MLEN, MLEN, FLAGS, MADDR } },
	{ 26, "msync", { MADDR, MLEN, FLAGS } },
	{ 27, "mincore", { MADDR, MLEN, BUF } },
	{ 28, "madvise", { MADDR, MLEN, ADVICE } },
	{ 32, "dup", { FD } },
	{ 33, "dup2", { FD, FD } },
	{ 35, "nanosleep", { TSNN, BUF } },
	{ 36, "getitimer", { INT, BUF } },
	{ 39, "getpid", { Z } },
	{ 40, "sendfile", { FD, FD, BUF, SLEN } },
	{ 41, "socket", { SOCKDOM, SOCKTY, INT } },
	{ 42, "connect", { FD, SADDR, SALEN } },
	{ 43, "accept", { FD, BUF, BUF } },
	{ 44, "sendto", { FD, BUF, LEN, FLAGS, SADDR, SALEN } },
	{ 45, "recvfrom", { FD, BUF, LEN, FLAGS, BUF, BUF } },
	{ 46, "sendmsg", { FD, MSG, FLAGS } },
	{ 47, "recvmsg", { FD, MSG, FLAGS } },
	{ 48, "shutdown", { FD, INT } },
	{ 49, "bind", { FD, SADDR, SALEN } },
	{ 50, "listen", { FD, INT } },
	{ 51, "getsockname", { FD, BUF, BUF } },
	{ 52, "getpeername", { FD, BUF, BUF } },
	{ 53, "socketpair", { SOCKDOM, SOCKTY, INT, BUF } },
	{ 54, "setsockopt", { FD, INT, INT, BUF, SLEN } },
	{ 55, "getsockopt", { FD, INT, INT, BUF, BUF } },
	{ 61, "wait4", { PID, BUF, FLAGS, BUF } },
	{ 63, "uname", { BUF } },
	{ 72, "fcntl", { FD, FCNTL, BUF } },
	{ 73, "flock", { FD, INT } },
	{ 74, "fsync", { FD } },
	{ 75, "fdatasync", { FD } },
	{ 76, "truncate", { PATH, OFF } },
	{ 77, "ftruncate", { FD, OFF } },
	{ 78, "getdents", { FD, BUF, LEN } },
	{ 79, "getcwd", { BUF, LEN } },
	{ 80, "chdir", { PATH } },
	{ 81, "fchdir", { FD } },
	{ 82, "rename", { PATH, PATH } },
	{ 83, "mkdir", { PATH, MODE } },
	{ 84, "rmdir", { PATH } },
	{ 85, "creat", { PATH, MODE } },
	{ 86, "link", { PATH, PATH } },
	{ 87, "unlink", { PATH } },
	{ 88, "symlink", { PATH, PATH } },
	{ 89, "readlink", { PATH, BUF, LEN } },
	{ 90, "chmod", { PATH, MODE } },
	{ 91, "fchmod", { FD, MODE } },
	{ 92, "chown", { PATH, UID, UID } },
	{ 93, "fchown", { FD, UID, UID } },
	{ 94, "lchown", { PATH, UID, UID } },
	{ 95, "umask", { MODE } },
	{ 96, "gettimeofday", { BUF, BUF } },
	{ 97, "getrlimit", { INT, BUF } },
	{ 98, "getrusage", { INT, BUF } },
	{ 99, "sysinfo", { BUF } },
	{ 100, "times", { BUF } },
	{ 102, "getuid", { Z } },
	{ 104, "getgid", { Z } },
	{ 107, "geteuid", { Z } },
	{ 108, "getegid", { Z } },
	{ 110, "getppid", { Z } },
	{ 111, "getpgrp", { Z } },
	{ 115, "getgroups", { INT, BUF } },
	{ 118, "getresuid", { BUF, BUF, BUF } },
	{ 120, "getresgid", { BUF, BUF, BUF } },
	{ 121, "getpgid", { PID } },
	{ 124, "getsid", { PID } },
	{ 125, "capget", { BUF, BUF } },
	{ 127, "rt_sigpending", { BUF, SSZ } },
	{ 128, "rt_sigtimedwait", { SIGSET, BUF, TSNN, SSZ } },
	{ 131, "sigaltstack", { BUF, BUF } },
	{ 132, "utime", { PATH, BUF } },
	{ 134, "uselib", { PATH } },
	{ 136, "ustat", { INT, BUF } },
	{ 137, "statfs", { PATH, BUF } },
	{ 138, "fstatfs", { FD, BUF } },
	{ 139, "sysfs", { INT, INT, BUF } },
	{ 140, "getpriority", { INT, PID } },
	{ 143, "sched_getparam", { PID, BUF } },
	{ 145, "sched_getscheduler", { PID } },
	{ 146, "sched_get_priority_max", { INT } },
	{ 147, "sched_get_priority_min", { INT } },
	{ 148, "sched_rr_get_interval", { PID, BUF } },
	{ 149, "mlock", { MADDR, MLEN } },
	{ 150, "munlock", { MADDR, MLEN } },
	{ 152, "munlockall", { Z } },
	{ 187, "readahead", { FD, OFF, SLEN } },
	{ 188, "setxattr", { PATH, XNAME, BUF, SLEN, INT } },
	{ 189, "lsetxattr", { PATH, XNAME, BUF, SLEN, INT } },
	{ 190, "fsetxattr", { FD, XNAME, BUF, SLEN, INT } },
	{ 191, "getxattr", { PATH, XNAME, BUF, LEN } },
	{ 192, "lgetxattr", { PATH, XNAME, BUF, LEN } },
	{ 193, "fgetxattr", { FD, XNAME, BUF, LEN } },
	{ 194, "listxattr", { PATH, BUF, LEN } },
	{ 195, "llistxattr", { PATH, BUF, LEN } },
	{ 196, "flistxattr", { FD, BUF, LEN } },
	{ 197, "removexattr", { PATH, XNAME } },
	{ 198, "lremovexattr", { PATH, XNAME } },
	{ 199, "fremovexattr", { FD, XNAME } },
	{ 201, "time", { BUF } },
	{ 202, "futex", { BUF, INT, INT, TS, BUF, INT } },
	{ 203, "sched_setaffinity", { PID, SLEN, BUF } },
	{ 204, "sched_getaffinity", { PID, LEN, BUF } },
	{ 211, "get_thread_area", { BUF } },
	{ 213, "epoll_create", { INT } },
	{ 217, "getdents64", { FD, BUF, LEN } },
	{ 218, "set_tid_address", { BUF } },
	{ 221, "fadvise64", { FD, OFF, SLEN, INT } },
	{ 223, "timer_settime", { INT, FLAGS, BUF, BUF } },
	{ 224, "timer_gettime", { INT, BUF } },
	{ 225, "timer_getoverrun", { INT } },
	{ 226, "timer_delete", { INT } },
	{ 228, "clock_gettime", { CLOCK, BUF } },
	{ 229, "clock_getres", { CLOCK, BUF } },
	{ 230, "clock_nanosleep", { CLOCK, FLAGS, TSNN, BUF } },
	{ 232, "epoll_wait", { FD, BUF, CNT, MS } },
	{ 233, "epoll_ctl", { FD, INT, FD, BUF } },
	{ 235, "utimes", { PATH, BUF } },
	{ 237, "mbind", { MADDR, MLEN, INT, BUF, INT, FLAGS } },
	{ 238, "set_mempolicy", { INT, BUF, INT } },
	{ 239, "get_mempolicy", { BUF, BUF, INT, MADDR, FLAGS } },
	{ 247, "waitid", { INT, PID, BUF, FLAGS, BUF } },
	{ 253, "inotify_init", { Z } },
	{ 254, "inotify_add_watch", { FD, PATH, FLAGS } },
	{ 255, "inotify_rm_watch", { FD, INT } },
	{ 257, "openat", { DIRFD, PATH, OFLAGS, MODE } },
	{ 258, "mkdirat", { DIRFD, PATH, MODE } },
	{ 260, "fchownat", { DIRFD, PATH, UID, UID, ATFL } },
	{ 261, "futimesat", { DIRFD, PATH, BUF } },
	{ 262, "newfstatat", { DIRFD, PATH, BUF, ATFL } },
	{ 263, "unlinkat", { DIRFD, PATH, ATFL } },
	{ 264, "renameat", { DIRFD, PATH, DIRFD, PATH } },
	{ 265, "linkat", { DIRFD, PATH, DIRFD, PATH, ATFL } },
	{ 266, "symlinkat", { PATH, DIRFD, PATH } },
	{ 267, "readlinkat", { DIRFD, PATH, BUF, LEN } },
	{ 268, "fchmodat", { DIRFD, PATH, MODE, ATFL } },
	{ 269, "faccessat", { DIRFD, PATH, INT } },
	{ 270, "pselect6", { CNT, BUF, BUF, BUF, TS, PSEL6 } },
	{ 271, "ppoll", { BUF, CNT, TS, SIGSET, SSZ } },
	{ 273, "set_robust_list", { BUF, LEN } },
	{ 274, "get_robust_list", { PID, BUF, BUF } },
	{ 275, "splice", { FD, BUF, FD, BUF, SLEN, FLAGS } },
	{ 276, "tee", { FD, FD, SLEN, FLAGS } },
	{ 277, "sync_file_range", { FD, OFF, OFF, FLAGS } },
	{ 278, "vmsplice", { FD, IOV, CNT, FLAGS } },
	{ 280, "utimensat", { DIRFD, PATH, BUF, ATFL } },
	{ 281, "epoll_pwait", { FD, BUF, CNT, MS, SIGSET, SSZ } },
	{ 282, "signalfd", { FD, SIGSET, SSZ } },
	{ 283, "timerfd_create", { CLOCK, FLAGS } },
	{ 284, "eventfd", { INT } },
	{ 285, "fallocate", { FD, INT, OFF, SLEN } },
	{ 286, "timerfd_settime", { FD, FLAGS, BUF, BUF } },
	{ 287, "timerfd_gettime", { FD, BUF } },
	{ 288, "accept4", { FD, BUF, BUF, FLAGS } },
	{ 289, "signalfd4", { FD, SIGSET, SSZ, FLAGS } },
	{ 290, "eventfd2", { INT, FLAGS } },
	{ 291, "epoll_create1", { FLAGS } },
	{ 292, "dup3", { FD, FD, FLAGS } },
	{ 293, "pipe2", { BUF, FLAGS } },
	{ 294, "inotify_init1", { FLAGS } },
	{ 295, "preadv", { FD, IOV, CNT, OFF, OFF } },
	{ 296, "pwritev", { FD, IOV, CNT, OFF, OFF } },
	{ 299, "recvmmsg", { FD, MMSG, CNT, FLAGS, TS } },
	{ 302, "prlimit64", { PID, INT, Z, BUF } },
	{ 303, "name_to_handle_at", { DIRFD, PATH, BUF, BUF, ATFL } },
	{ 307, "sendmmsg", { FD, MMSG, CNT, FLAGS } },
	{ 309, "getcpu", { BUF, BUF, BUF } },
	{ 312, "kcmp", { PID, PID, INT, INT, INT } },
	{ 316, "renameat2", { DIRFD, PATH, DIRFD, PATH, FLAGS } },
	{ 318, "getrandom", { BUF, LEN, FLAGS } },
	{ 319, "memfd_create", { PATH, FLAGS } },
	{ 324, "membarrier", { INT, FLAGS, INT } },
	{ 325, "mlock2", { MADDR, MLEN, FLAGS } },
	{ 326, "copy_file_range", { FD, BUF, FD, BUF, SLEN, FLAGS } },
	{ 327, "preadv2", { FD, IOV, CNT, OFF, OFF, FLAGS } },
	{ 328, "pwritev2", { FD, IOV, CNT, OFF, OFF, FLAGS } },
	{ 329, "pkey_mprotect", { MADDR, MLEN, PROT, INT } },
	{ 332, "statx", { DIRFD, PATH, ATFL, FLAGS, BUF } },
	{ 434, "pidfd_open", { PID, FLAGS } },
	{ 436, "close_range", { FD, INT, FLAGS } },
	{ 437, "openat2", { DIRFD, PATH, HOW, HOWSZ } },
	{ 439, "faccessat2", { DIRFD, PATH, INT, ATFL } },
	{ 441, "epoll_pwait2", { FD, BUF, CNT, TS, SIGSET, SSZ } },
	{ 449, "futex_waitv", { BUF, CNT, FLAGS, TS, CLOCK } },
	{ 450, "set_mempolicy_home_node", { MADDR, MLEN, INT, FLAGS } },
	{ 451, "cachestat", { FD, BUF, BUF, FLAGS } },
	{ 452, "fchmodat2", { DIRFD, PATH, MODE, ATFL } },
	{ 454, "futex_wake", { BUF, INT, INT, FLAGS } },
	{ 455, "futex_wait", { BUF, INT, INT, FLAGS, TS, CLOCK } },
	{ 456, "futex_requeue", { BUF, FLAGS, INT, INT } },
	{ 457, "statmount", { BUF, BUF, LEN, FLAGS } },
	{ 458, "listmount", { BUF, BUF, LEN, FLAGS } },
	{ 459, "lsm_get_self_attr", { INT, BUF, BUF, FLAGS } },
	{ 461, "lsm_list_modules", { BUF, BUF, FLAGS } },
	{ 462, "mseal", { MADDR, MLEN, FLAGS } },
	/* numbers no kernel has */
	{ -1, "nr -1", { INT, INT, INT } },
	{ 0x3fffffff, "nr 0x3fffffff", { INT, INT, INT } },
	{ 400, "nr 400", { INT, INT, INT } },
	{ 511, "nr 511", { INT, INT, INT } },
	{ 1000, "nr 1000", { INT, INT, INT } },
};
#define NCALLS (sizeof(calls) / sizeof(calls[0]))

static char dir[64];	   /* the private directory */
static sigset_t base_mask; /* what the fuzzer runs with */
static int self_pid;
static uint64_t last_cnt; /* the length of the array just made */
static bool have_cnt;

static void *arg_page(int i)
{
	return (void *)(ARG_BASE + (uint64_t)i * PG);
}

/* A pointer the kernel may read or write through. */
static uint64_t gen_buf(void)
{
	switch (rnd() % 16) {
	case 0:
		return 0;
	case 1:
		return 1;
	case 2:
		return 0xffffffff81000000UL; /* kernel */
	case 3:
		return 0x8000000000000000UL; /* non-canonical */
	case 4:
		return 0x7ffffffff000UL; /* the last user page, never mapped */
	case 5:
		return ARG_END - rnd() % 64; /* runs into the guard page */
	case 6:
	case 7:
		return MAP_BASE + rnd() % (MAP_NPG * PG);
	default:
		return ARG_BASE + rnd() % (ARG_NPG * PG);
	}
}

static uint64_t gen_len(void)
{
	return PICK(0, 1, 7, 64, 4096, 4097, 65536, rnd() % 70000, rnd() % 300, 1UL << 31,
		    1UL << 40, ~0UL, 0x7fffffff, (uint64_t)-4096);
}

static uint64_t gen_fd(void)
{
	if (rnd() % 8)
		return 3 + rnd() % (MAXFD - 2);
	return PICK((uint64_t)-1, 32767, 0x7fffffff, 0x80000000, (uint64_t)-100);
}

/* A safe name over a small alphabet (so that calls meet each other's
 * files), in page p; or a string that is bad in itself. */
static uint64_t gen_path(int p)
{
	char *s = arg_page(p);
	int i, n;

	switch (rnd() % 24) {
	case 0:
		return 0;
	case 1:
		return 1;
	case 2:
		return 0xffffffff81000000UL;
	case 3: /* unterminated up to the guard page */
		s = (char *)ARG_END - 1 - rnd() % 32;
		for (i = 0; s + i < (char *)ARG_END; i++)
			s[i] = 'a';
		return (uint64_t)s;
	case 4:
		s[0] = 0;
		return (uint64_t)s;
	case 5:
		strcpy(s, ".");
		return (uint64_t)s;
	case 6: /* a name past NAME_MAX */
		memset(s, 'a', 300);
		s[300] = 0;
		return (uint64_t)s;
	case 7: /* a path past PATH_MAX, in the data pages */
		s = (char *)DATA;
		for (i = 0; i < 5000; i += 2)
			s[i] = 'a', s[i + 1] = '/';
		s[5000] = 0;
		return (uint64_t)s;
	}
	n = 1 + rnd() % 3;
	for (i = 0; i < n; i++)
		*s++ = 'a' + rnd() % 5;
	if (rnd() % 4 == 0) {
		*s++ = '/';
		n = 1 + rnd() % 2;
		for (i = 0; i < n; i++)
			*s++ = 'a' + rnd() % 5;
	}
	if (rnd() % 8 == 0)
		*s++ = '/';
	*s = 0;
	return (uint64_t)arg_page(p);
}

/* An iovec array in page p, each base a scratch pointer. */
static uint64_t gen_iov(int p)
{
	struct iovec *v = arg_page(p);
	unsigned i, n = rnd() % 9;

	for (i = 0; i < n; i++) {
		v[i].iov_base = (void *)gen_buf();
		v[i].iov_len = rnd() % 4 ? rnd() % 8192 : gen_len();
	}
	last_cnt = n;
	have_cnt = true;
	return rnd() % 16 ? (uint64_t)v : gen_buf();
}

static void fill_sockaddr(struct sockaddr_un *a, socklen_t *len)
{
	int i, n;

	memset(a, 0, sizeof(*a));
	a->sun_family = AF_UNIX;
	switch (rnd() % 4) {
	case 0: /* abstract, named so that no host socket answers */
		n = 1 + rnd() % 3;
		memcpy(a->sun_path, "\0skas-fuzz-", 11);
		for (i = 0; i < n; i++)
			a->sun_path[11 + i] = 'a' + rnd() % 5;
		*len = offsetof(struct sockaddr_un, sun_path) + 11 + n;
		return;
	case 1: /* another family, junk after it */
		for (i = 0; i < (int)sizeof(*a); i++)
			((char *)a)[i] = (char)rnd();
		a->sun_family = PICK(AF_INET, AF_INET6, AF_UNSPEC, 255, 0xffff);
		*len = rnd() % (sizeof(*a) + 8);
		return;
	default: /* a name in the private directory */
		n = 1 + rnd() % 3;
		for (i = 0; i < n; i++)
			a->sun_path[i] = 'a' + rnd() % 5;
		*len = rnd() % 8 ? sizeof(*a) : (socklen_t)PICK(0, 1, 2, 200, -1);
		return;
	}
}

static uint64_t gen_saddr(int p, uint64_t *salen)
{
	socklen_t len;

	fill_sockaddr(arg_page(p), &len);
	*salen = len;
	return rnd() % 12 ? (uint64_t)arg_page(p) : gen_buf();
}

/* A control message: fds (ours or bad), credentials, or junk. */
static void fill_control(struct msghdr *m, char *buf)
{
	struct cmsghdr *c = (struct cmsghdr *)buf;
	int i, n = 1 + rnd() % 4;

	switch (rnd() % 4) {
	case 0:
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(n * sizeof(int));
		for (i = 0; i < n; i++)
			((int *)CMSG_DATA(c))[i] = (int)gen_fd();
		m->msg_controllen = CMSG_SPACE(n * sizeof(int));
		break;
	case 1:
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_CREDENTIALS;
		c->cmsg_len = CMSG_LEN(12);
		for (i = 0; i < 12; i++)
			CMSG_DATA(c)[i] = (unsigned char)rnd();
		m->msg_controllen = CMSG_SPACE(12);
		break;
	case 2:
		for (i = 0; i < 64; i++)
			buf[i] = (char)rnd();
		m->msg_controllen = rnd() % 80;
		break;
	default:
		m->msg_control = NULL;
		m->msg_controllen = rnd() % 2 ? 0 : 16;
		return;
	}
	m->msg_control = buf;
}

static void fill_msghdr(struct msghdr *m, char *room)
{
	struct sockaddr_un *a = (struct sockaddr_un *)room;
	struct iovec *v = (struct iovec *)(room + 128);
	socklen_t len;
	unsigned i, n = rnd() % 5;

	memset(m, 0, sizeof(*m));
	if (rnd() % 2) {
		fill_sockaddr(a, &len);
		m->msg_name = a;
		m->msg_namelen = len;
	}
	for (i = 0; i < n; i++) {
		v[i].iov_base = (void *)gen_buf();
		v[i].iov_len = rnd() % 4 ? rnd() % 8192 : gen_len();
	}
	m->msg_iov = rnd() % 16 ? v : (struct iovec *)gen_buf();
	m->msg_iovlen = rnd() % 16 ? n : gen_len();
	fill_control(m, room + 256);
	m->msg_flags = (int)rnd();
}

static uint64_t gen_msg(int p)
{
	char *pg = arg_page(p);

	fill_msghdr((struct msghdr *)pg, pg + 512);
	return rnd() % 16 ? (uint64_t)pg : gen_buf();
}

static uint64_t gen_mmsg(int p)
{
	struct mmsghdr *h = arg_page(p);
	unsigned i, n = rnd() % 5;

	for (i = 0; i < n; i++) {
		fill_msghdr(&h[i].msg_hdr, (char *)arg_page(p) + 512 + i * 640);
		h[i].msg_len = (unsigned)rnd();
	}
	last_cnt = n;
	have_cnt = true;
	return rnd() % 16 ? (uint64_t)h : gen_buf();
}

static uint64_t gen_ts(int p, bool null_ok)
{
	struct timespec *ts = arg_page(p);

	switch (rnd() % 10) {
	case 0:
		if (null_ok)
			return 0;
		/* fall through */
	case 1:
		return gen_buf();
	case 2:
		ts->tv_sec = 0;
		ts->tv_nsec = 1000000000; /* EINVAL */
		break;
	case 3:
		ts->tv_sec = -1;
		ts->tv_nsec = 0;
		break;
	case 4:
		ts->tv_sec = 0;
		ts->tv_nsec = 0;
		break;
	default:
		ts->tv_sec = 0;
		ts->tv_nsec = (long)(rnd() % 2000000);
		break;
	}
	return (uint64_t)ts;
}

/* A signal mask for the calls that wait under one: never SIGALRM, which
 * ends every wait; so no pointer to memory the test does not fill. */
static uint64_t gen_sigset(int p)
{
	uint64_t *set = arg_page(p);

	if (rnd() % 10 == 0)
		return PICK(0, 1, 0xffffffff81000000UL, 0x8000000000000000UL, ARG_END - 4);
	set[0] = rnd() & ~(1ULL << (SIGALRM - 1));
	set[1] = rnd();
	return (uint64_t)set;
}

static uint64_t gen_maddr(void)
{
	uint64_t a = MAP_BASE + PG * (rnd() % MAP_NPG);

	return rnd() % 16 ? a : a + 1 + rnd() % 64;
}

/* After an address in the region, a length that stays inside it; after
 * anything else (mremap's new length), at most the region's size. */
static uint64_t gen_mlen(uint64_t addr)
{
	uint64_t room = addr >= MAP_BASE && addr < MAP_END ? MAP_END - addr : MAP_NPG * PG;

	switch (rnd() % 8) {
	case 0:
		return 0;
	case 1:
		return room;
	case 2:
		return 1 + rnd() % room;
	default:
		return PG * (1 + rnd() % (room / PG ? room / PG : 1));
	}
}

static uint64_t gen_mflags(void)
{
	uint64_t f = PICK(MAP_PRIVATE, MAP_PRIVATE, MAP_SHARED, MAP_SHARED_VALIDATE, 0);

	f |= rnd() % 4 ? MAP_FIXED : MAP_FIXED_NOREPLACE;
	if (rnd() % 4)
		f |= MAP_ANONYMOUS;
	if (rnd() % 4 == 0)
		f |= PICK(MAP_NORESERVE, MAP_POPULATE, MAP_LOCKED, MAP_GROWSDOWN, MAP_STACK,
			  MAP_HUGETLB, MAP_SYNC, MAP_DENYWRITE, MAP_NONBLOCK, 0x4000000);
	return f;
}

static uint64_t gen_oflags(void)
{
	uint64_t f = rnd() % 3; /* O_RDONLY, O_WRONLY, O_RDWR */
	int i;

	for (i = rnd() % 4; i > 0; i--)
		f |= PICK(O_CREAT, O_CREAT, O_EXCL, O_TRUNC, O_APPEND, O_NONBLOCK, O_DIRECTORY,
			  O_NOFOLLOW, O_CLOEXEC, O_TMPFILE, O_PATH, O_DIRECT, O_SYNC, O_NOATIME,
			  O_NOCTTY, 0x40000000);
	return f;
}

static uint64_t gen(int kind, int i, uint64_t *a)
{
	uint64_t v;

	switch (kind) {
	case Z:
		return 0;
	case FD:
		return gen_fd();
	case DIRFD:
		return rnd() % 2 ? (uint64_t)AT_FDCWD : gen_fd();
	case MFD:
		return rnd() % 2 ? (uint64_t)-1 : gen_fd();
	case PATH:
		return gen_path(i);
	case BUF:
		return gen_buf();
	case LEN:
		return gen_len();
	case SLEN:
		return rnd() % 8 ? rnd() % 65536 : PICK(0, 1, 65535);
	case INT:
		return PICK(0, 1, 2, 3, (uint64_t)-1, rnd() % 64, rnd() % 64, (uint32_t)rnd(),
			    rnd(), 0x7fffffff, 0x80000000);
	case FLAGS:
		v = 0;
		for (int k = rnd() % 4; k > 0; k--)
			v |= 1ULL << (rnd() % 32);
		return v;
	case MODE:
		return rnd() % 8 ? rnd() % 010000 : rnd();
	case OFLAGS:
		return gen_oflags();
	case ATFL:
		return rnd() % 3 ? PICK(0, AT_SYMLINK_NOFOLLOW, AT_REMOVEDIR, AT_SYMLINK_FOLLOW,
					AT_EMPTY_PATH, AT_NO_AUTOMOUNT, AT_STATX_FORCE_SYNC,
					AT_EACCESS)
				 : (uint32_t)rnd();
	case SIGNO:
		return PICK(0, SIGUSR1, SIGUSR2, SIGWINCH, SIGURG, SIGCHLD, SIGCONT, 64, 65,
			    (uint64_t)-1, 1000);
	case PID:
		return PICK(0, (uint64_t)self_pid, (uint64_t)-1, 4194304, 0x7fffffff, 0x80000000);
	case UID:
		return PICK(0, 65534, (uint64_t)-1, 0xffffffff, (uint32_t)rnd());
	case MADDR:
		return gen_maddr();
	case MLEN:
		return gen_mlen(i ? a[i - 1] : 0);
	case PROT:
		return rnd() % 8 ? rnd() % 8
				 : PICK(PROT_GROWSDOWN | PROT_READ, PROT_GROWSUP, 0x10,
					(uint32_t)rnd());
	case MFLAGS:
		return gen_mflags();
	case ADVICE:
		return PICK(MADV_NORMAL, MADV_RANDOM, MADV_SEQUENTIAL, MADV_WILLNEED, MADV_DONTNEED,
			    MADV_FREE, MADV_REMOVE, MADV_DONTFORK, MADV_DOFORK, MADV_MERGEABLE,
			    MADV_UNMERGEABLE, MADV_HUGEPAGE, MADV_NOHUGEPAGE, MADV_DONTDUMP,
			    MADV_DODUMP, MADV_WIPEONFORK, MADV_KEEPONFORK, 20, 21, 22, 23, 25, 99,
			    12345, (uint64_t)-1);
	case OFF:
		return PICK(0, 1, 4096, rnd() % 100000, 1UL << 40, (uint64_t)-1, 1UL << 63,
			    0x7fffffffffffffffUL, (uint64_t)-4096);
	case IOV:
		return gen_iov(i);
	case CNT:
		v = have_cnt ? last_cnt : rnd() % 17;
		have_cnt = false;
		return rnd() % 4 ? v : PICK(0, 1, 1024, 1025, 0x7fffffff, (uint64_t)-1);
	case MSG:
		return gen_msg(i);
	case MMSG:
		return gen_mmsg(i);
	case SADDR:
		return gen_saddr(i, &last_cnt);
	case SALEN:
		v = last_cnt;
		last_cnt = 0;
		return rnd() % 8 ? v : PICK(0, 1, 200, (uint64_t)-1);
	case TS:
		return gen_ts(i, true);
	case TSNN:
		return gen_ts(i, false);
	case TV: {
		struct timeval *tv = arg_page(i);

		tv->tv_sec = rnd() % 4 ? 0 : -1;
		tv->tv_usec = rnd() % 4 ? (long)(rnd() % 2000) : 2000000;
		return rnd() % 8 ? (uint64_t)tv : gen_buf();
	}
	case SIGSET:
		return gen_sigset(i);
	case SSZ:
		return rnd() % 5 ? 8 : PICK(0, 4, 16, 128, (uint64_t)-1);
	case PSEL6: {
		uint64_t *pair = (uint64_t *)((char *)arg_page(i) + 2048);

		pair[0] = gen_sigset(i);
		pair[1] = rnd() % 5 ? 8 : 16;
		return rnd() % 8 ? (uint64_t)pair : gen_buf();
	}
	case MS:
		return PICK(0, 0, 1, 2, (uint64_t)-1);
	case IOCTL: /* FIONREAD FIONBIO FIOCLEX FIONCLEX FIOASYNC TCGETS TCSETS
		     * TIOCGWINSZ TIOCGPGRP FIGETBSZ FS_IOC_GETFLAGS FIOQSIZE
		     * SIOCGIFCONF SIOCATMARK TIOCINQ(=FIONREAD) junk */
		return PICK(0x541b, 0x5421, 0x5451, 0x5450, 0x5452, 0x5401, 0x5402, 0x5413, 0x540f,
			    2, 0x80086601, 0x5460, 0x8912, 0x8905, 0, 0xdeadbeef,
			    (uint32_t)rnd() & 0xff);
	case FCNTL: /* all but F_SETOWN(_EX), F_SETSIG and F_SETPIPE_SZ */
		return PICK(F_DUPFD, F_GETFD, F_SETFD, F_GETFL, F_SETFL, F_GETLK, F_SETLK, F_SETLKW,
			    F_GETOWN, F_GETSIG, F_OFD_GETLK, F_OFD_SETLK, F_OFD_SETLKW,
			    F_DUPFD_CLOEXEC, F_GETPIPE_SZ, F_GETLEASE, F_SETLEASE, F_NOTIFY,
			    F_ADD_SEALS, F_GET_SEALS, F_GETOWN_EX, 9999, (uint64_t)-1);
	case XNAME: {
		static const char *const names[] = {
			"user.a", "user.bb", "trusted.t", "security.s", "system.posix_acl_access",
			"",	  "x",	     "user.",
		};
		char *s = arg_page(i);

		if (rnd() % 10 == 0)
			return gen_path(i);
		strcpy(s, names[rnd() % (sizeof(names) / sizeof(names[0]))]);
		return (uint64_t)s;
	}
	case HOW: {
		uint64_t *how = arg_page(i);

		how[0] = rnd() % 4 ? gen_oflags() : rnd();
		how[1] = rnd() % 4 ? rnd() % 010000 : rnd();
		how[2] = rnd() % 2 ? 0 : rnd() & 0x3f;
		how[3] = rnd() % 8 ? 0 : rnd();
		return rnd() % 12 ? (uint64_t)how : gen_buf();
	}
	case HOWSZ:
		return rnd() % 5 ? 24 : PICK(0, 8, 32, 4096, (uint64_t)-1);
	case CLOCK:
		return PICK(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12, (uint64_t)-1, 100,
			    (uint64_t)(int64_t)(~(uint64_t)self_pid << 3 | 2));
	case SOCKDOM:
		return PICK(AF_UNIX, AF_UNIX, AF_UNIX, 255, (uint64_t)-1, 0);
	case SOCKTY:
		return PICK(SOCK_STREAM, SOCK_DGRAM, SOCK_SEQPACKET, SOCK_RAW, 0, 99) |
		       (rnd() % 2 ? SOCK_NONBLOCK : 0) | (rnd() % 2 ? SOCK_CLOEXEC : 0);
	}
	return 0;
}

static void on_alarm(int sig)
{
	(void)sig;
}

/* The fds the calls start from: 3..MAXFD (what they make lands there too). */
static void open_fds(void)
{
	int p[2], sv[2];

	syscall(SYS_close_range, 3, ~0U, 0); /* a make jobserver, say */
	open(dir, O_RDONLY | O_DIRECTORY);
	open("f", O_RDWR | O_CREAT, 0644);
	/* A character device of its own (see the top) */
	if (mknod("n", S_IFCHR | 0666, makedev(1, 3)) < 0 || open("n", O_RDWR) < 0)
		open("f", O_RDONLY);
	if (pipe2(p, O_NONBLOCK) < 0 || socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0, sv))
		return;
	socketpair(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK, 0, sv);
	memfd_create("fuzz", 0);
	syscall(SYS_eventfd2, 0, O_NONBLOCK);
	syscall(SYS_epoll_create1, 0);
	mkdir("d", 0755);
	open("d", O_RDONLY | O_DIRECTORY);
}

/* Removes name under dfd, whatever modes the calls left on it. */
static void remove_tree(int dfd, const char *name)
{
	struct dirent *e;
	struct stat st;
	DIR *d;
	int fd;

	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISDIR(st.st_mode)) {
		unlinkat(dfd, name, 0);
		return;
	}
	fchmodat(dfd, name, 0700, 0);
	fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
	d = fd >= 0 ? fdopendir(fd) : NULL;
	while (d && (e = readdir(d)))
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			remove_tree(dirfd(d), e->d_name);
	if (d)
		closedir(d);
	unlinkat(dfd, name, AT_REMOVEDIR);
}

static void cleanup(void)
{
	struct itimerval off = { { 0, 0 }, { 0, 0 } };

	setitimer(ITIMER_REAL, &off, NULL);
	sigprocmask(SIG_SETMASK, &base_mask, NULL);
	if (chdir("/") < 0)
		return;
	for (int i = 0; i < 3; i++) /* readdir may miss what goes meanwhile */
		remove_tree(AT_FDCWD, dir);
}

static int setup(void)
{
	struct sigaction sa;
	struct itimerval tick = { { 0, 5000 }, { 0, 5000 } };
	char *guard;

	strcpy(dir, "/tmp/fuzz_syscalls.XXXXXX");
	if (!mkdtemp(dir) || chdir(dir) < 0)
		return -1;
	if (mmap((void *)MAP_BASE, MAP_NPG * PG, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED)
		return -1;
	guard = mmap((void *)(ARG_BASE - PG), (ARG_NPG + 2) * PG, PROT_NONE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	if (guard == MAP_FAILED || mprotect((void *)ARG_BASE, ARG_NPG * PG, PROT_READ | PROT_WRITE))
		return -1;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL); /* writes to a closed pipe or socket */
	sigaction(SIGIO, &sa, NULL);   /* O_ASYNC, F_NOTIFY */
	sigaction(SIGXFSZ, &sa, NULL);
	sa.sa_handler = on_alarm; /* no SA_RESTART: a blocked call ends EINTR */
	sigaction(SIGALRM, &sa, NULL);
	sigemptyset(&base_mask);
	sigprocmask(SIG_SETMASK, &base_mask, NULL);
	self_pid = getpid();
	open_fds();
	return setitimer(ITIMER_REAL, &tick, NULL);
}

static long now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec;
}

int main(int argc, char **argv)
{
	unsigned long seed = argc > 1 ? strtoul(argv[1], NULL, 0) : 0x5eed;
	long count = argc > 2 ? strtol(argv[2], NULL, 0) : 20000, n;
	bool trace = getenv("FUZZ_TRACE") != NULL;
	long start = now_s();
	uint64_t a[6];
	long ret;
	int i;

	rng = seed * 0x9e3779b97f4a7c15ULL + 1;
	if (setup() < 0) {
		printf("not ok 1 - fuzzer set-up: %s\n", strerror(errno));
		cleanup();
		return 1;
	}
	for (n = 0; n < count; n++) {
		const struct call *c = &calls[rnd() % NCALLS];

		for (i = 0; i < 6; i++)
			a[i] = gen(c->arg[i], i, a);
		if (trace) /* the call first: it shows even if it hurts */
			fprintf(stderr, "%ld %s(%#lx, %#lx, %#lx, %#lx, %#lx, %#lx)", n, c->name,
				a[0], a[1], a[2], a[3], a[4], a[5]);
		ret = syscall(c->nr, a[0], a[1], a[2], a[3], a[4], a[5]);
		if (trace)
			fprintf(stderr, " = %ld%s%s\n", ret, ret < 0 ? " " : "",
				ret < 0 ? strerror(errno) : "");
		if (c->nr == SYS_rt_sigprocmask)
			sigprocmask(SIG_SETMASK, &base_mask, NULL);
		if (n % 64 == 63) { /* keep fds and the directory within reach */
			syscall(SYS_close_range, MAXFD + 1, ~0U, 0);
			chmod(dir, 0700);
			if (chdir(dir) < 0)
				break;
		}
		if (n % 1024 == 1023 && now_s() - start > 60)
			break;
	}
	cleanup();
	if (n < count) {
		printf("not ok 1 - fuzzer stopped after %ld of %ld calls\n", n, count);
		return 1;
	}
	printf("ok 1 - fuzzer survived %ld calls\n", n);
	return 0;
}
