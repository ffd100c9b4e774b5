/* bench/handoff.c: what one trapped system call costs with each mechanism a
 * platform backend can use, between two processes pinned to one CPU (the
 * way skas runs its kernel and stubs). Prints one bench.h line per option:
 *   native          getppid, no trap
 *   ptrace-sysemu   PTRACE_SYSEMU stop, the tracer answers with POKEUSER rax
 *   notif           seccomp USER_NOTIF, the supervisor answers with NOTIF_SEND
 *   notif-sync      the same with SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP (6.6)
 *   notif-epoll     notif as skas's trap path has it: the supervisor waits
 *                   in epoll_wait before each RECV, and a second filter of
 *                   the stub allowlist's length runs under the notifying one
 *   notif-spin      notif-epoll's supervisor on the other CPU, spinning on
 *                   epoll_wait(0) instead of sleeping in it: the trapping
 *                   thread still sleeps until the answer wakes it
 *   sigsys          SECCOMP_RET_TRAP: the SIGSYS handler answers in the same
 *                   process (the floor of any design with a handler)
 *   sigsys-futex    the handler hands the call to the supervisor through a
 *                   shared page and a futex, both on one CPU
 *   sigsys-spin     the same, the supervisor on the other CPU, both sides
 *                   spinning on the shared page (no host call per trap; two
 *                   CPUs busy all the time); left out on one CPU
 * usage: handoff [N [R]]   (N round trips per option, default 100000; R rounds) */
#define _GNU_SOURCE
#include "bench.h"
#include <errno.h>
#include <linux/filter.h>
#include <linux/futex.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stddef.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef SECCOMP_IOCTL_NOTIF_SET_FLAGS
#define SECCOMP_IOCTL_NOTIF_SET_FLAGS SECCOMP_IOW(4, __u64)
#endif
#ifndef SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP
#define SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP 1
#endif

static long n_total;
static double *results; /* shared with the child */
static int rounds;

static void pin(void)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

/* The traced/filtered child: R rounds of getppid loops, each timed. */
static void child_loop(void)
{
	long per = n_total / rounds, i;
	int r;

	for (r = -1; r < rounds; r++) {
		long long t0 = bench_now_ns();
		double d;

		for (i = 0; i < (r < 0 ? per / 10 + 1 : per); i++)
			syscall(SYS_getppid);
		d = (double)(bench_now_ns() - t0) / (double)per;
		if (r >= 0)
			results[r] = d;
	}
	_exit(0);
}

static void collect(const char *name)
{
	double per_op[BENCH_MAX_ROUNDS];
	int r;

	for (r = 0; r < rounds; r++)
		if ((per_op[r] = results[r]) <= 0)
			break;
	if (r == rounds)
		bench_report(name, per_op, rounds, n_total);
	else
		printf("%s failed\n", name);
	memset(results, 0, sizeof(double) * BENCH_MAX_ROUNDS);
}

static void bench_sysemu(void)
{
	int status;
	pid_t pid;

	pid = fork();
	if (pid == 0) {
		ptrace(PTRACE_TRACEME, 0, 0, 0);
		raise(SIGSTOP);
		child_loop();
	}
	waitpid(pid, &status, 0);
	ptrace(PTRACE_SETOPTIONS, pid, 0, PTRACE_O_EXITKILL);
	for (;;) {
		struct user_regs_struct regs;

		if (ptrace(PTRACE_SYSEMU, pid, 0, 0) < 0 || waitpid(pid, &status, 0) < 0 ||
		    !WIFSTOPPED(status))
			break;
		ptrace(PTRACE_GETREGS, pid, 0, &regs);
		/* Anything but getppid is the end (exit_group). */
		if (regs.orig_rax != SYS_getppid) {
			kill(pid, SIGKILL);
			break;
		}
		ptrace(PTRACE_POKEUSER, pid, offsetof(struct user_regs_struct, rax), 1);
	}
	collect("ptrace-sysemu");
	waitpid(pid, &status, 0);
}

/* notify getppid, allow the rest */
static struct sock_filter notif_filter[] = {
	BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_getppid, 0, 1),
	BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF),
	BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
};

/* A filter of ~40 instructions that allows everything: numbers compared
 * one after another, as libseccomp lays out the stub's allowlist. */
static struct sock_filter long_filter[2 + 2 * 20];

static int long_filter_len(void)
{
	int n = 0, i;

	long_filter[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
							offsetof(struct seccomp_data, nr));
	for (i = 0; i < 20; i++) {
		long_filter[n++] =
			(struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 1000 + i, 0, 1);
		long_filter[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	}
	long_filter[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	return n;
}

enum { NOTIF_SYNC = 1, NOTIF_EPOLL = 2, NOTIF_SPIN = 4 };

static void bench_notif(const char *name, int how)
{
	struct sock_fprog prog = { sizeof(notif_filter) / sizeof(notif_filter[0]), notif_filter };
	int sv[2], status, listener = -1, ep = -1;
	pid_t pid;

	if (pipe(sv) < 0)
		return;
	pid = fork();
	if (pid == 0) {
		int fd;

		prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
		if (how & NOTIF_EPOLL) {
			struct sock_fprog lp = { (unsigned short)long_filter_len(), long_filter };

			syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &lp);
		}
		fd = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER,
			     &prog);
		if (write(sv[1], &fd, sizeof(fd)) != sizeof(fd))
			_exit(1);
		close(sv[1]);
		usleep(100000);
		child_loop();
	}
	close(sv[1]);
	{
		int fd = -1, pidfd = syscall(SYS_pidfd_open, pid, 0);

		if (read(sv[0], &fd, sizeof(fd)) == sizeof(fd) && fd >= 0 && pidfd >= 0)
			listener = syscall(SYS_pidfd_getfd, pidfd, fd, 0);
		close(pidfd);
	}
	if (listener < 0) {
		printf("%s unavailable: %s\n", name, strerror(errno));
		kill(pid, SIGKILL);
		goto out;
	}
	if ((how & NOTIF_SYNC) && ioctl(listener, SECCOMP_IOCTL_NOTIF_SET_FLAGS,
					SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP) < 0) {
		printf("%s unavailable: %s\n", name, strerror(errno));
		kill(pid, SIGKILL);
		goto out;
	}
	if (how & NOTIF_SPIN) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(1, &set);
		sched_setaffinity(0, sizeof(set), &set);
	}
	if (how & (NOTIF_EPOLL | NOTIF_SPIN)) {
		struct epoll_event ev = { .events = EPOLLIN };

		ep = epoll_create1(EPOLL_CLOEXEC);
		if (ep < 0 || epoll_ctl(ep, EPOLL_CTL_ADD, listener, &ev) < 0) {
			printf("%s unavailable: %s\n", name, strerror(errno));
			kill(pid, SIGKILL);
			goto out;
		}
	}
	for (;;) {
		struct seccomp_notif req;
		struct seccomp_notif_resp resp;
		struct epoll_event ev;

		if (how & NOTIF_SPIN) {
			int k;

			while ((k = epoll_wait(ep, &ev, 1, 0)) == 0)
				;
			if (k < 0)
				break;
		} else if (ep >= 0 && epoll_wait(ep, &ev, 1, -1) < 0)
			break;
		memset(&req, 0, sizeof(req));
		if (ioctl(listener, SECCOMP_IOCTL_NOTIF_RECV, &req) < 0)
			break;
		memset(&resp, 0, sizeof(resp));
		resp.id = req.id;
		resp.val = 1;
		ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, &resp);
	}
	if (how & NOTIF_SPIN)
		pin();
	collect(name);
out:
	close(sv[0]);
	if (ep >= 0)
		close(ep);
	if (listener >= 0)
		close(listener);
	waitpid(pid, &status, 0);
}

/* The shared page of the sigsys modes: seq counts calls, ack answers. */
struct handoff_page {
	_Atomic unsigned seq, ack;
	long nr, val;
};
static struct handoff_page *hp;
static int spin_mode; /* sigsys-spin: both sides spin instead of futex waits */

static long sys_futex(_Atomic unsigned *uaddr, int op, unsigned val)
{
	return syscall(SYS_futex, uaddr, op, val, NULL, NULL, 0);
}

/* trap getppid, allow the rest */
static struct sock_filter trap_filter[] = {
	BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_getppid, 0, 1),
	BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRAP),
	BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
};

static void sigsys_self(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)si;
	((ucontext_t *)uc)->uc_mcontext.gregs[REG_RAX] = 1;
}

static void sigsys_handoff(int sig, siginfo_t *si, void *uc)
{
	unsigned seq = atomic_load(&hp->seq) + 1;

	(void)sig;
	hp->nr = si->si_syscall;
	atomic_store(&hp->seq, seq);
	if (spin_mode) {
		while (atomic_load(&hp->ack) != seq)
			__builtin_ia32_pause();
	} else {
		sys_futex(&hp->seq, FUTEX_WAKE, 1);
		while (atomic_load(&hp->ack) != seq)
			sys_futex(&hp->ack, FUTEX_WAIT, seq - 1);
	}
	((ucontext_t *)uc)->uc_mcontext.gregs[REG_RAX] = hp->val;
}

/* how: 0 sigsys, 1 sigsys-futex, 2 sigsys-spin */
static void bench_sigsys(const char *name, int how)
{
	struct sock_fprog prog = { sizeof(trap_filter) / sizeof(trap_filter[0]), trap_filter };
	struct sigaction sa;
	int status;
	pid_t pid;

	memset(hp, 0, sizeof(*hp));
	spin_mode = how == 2;
	if (spin_mode) {
		cpu_set_t set;

		/* The supervisor's CPU: 1 (the child stays on 0). */
		CPU_ZERO(&set);
		CPU_SET(1, &set);
		if (sched_setaffinity(0, sizeof(set), &set) < 0) {
			printf("%s unavailable: no CPU 1\n", name);
			return;
		}
		pin();
	}
	pid = fork();
	if (pid == 0) {
		memset(&sa, 0, sizeof(sa));
		sa.sa_sigaction = how ? sigsys_handoff : sigsys_self;
		sa.sa_flags = SA_SIGINFO;
		sigaction(SIGSYS, &sa, NULL);
		prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
		if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) < 0)
			_exit(1);
		child_loop();
	}
	if (how) {
		cpu_set_t set;
		unsigned seen = 0;

		if (spin_mode) {
			CPU_ZERO(&set);
			CPU_SET(1, &set);
			sched_setaffinity(0, sizeof(set), &set);
		}
		/* The child's end: waitpid WNOHANG between waits (a futex wait
		 * is cut short every 10 ms to look). */
		for (;;) {
			unsigned seq = atomic_load(&hp->seq);

			if (seq == seen) {
				if (spin_mode) {
					for (int i = 0; i < 100000 && atomic_load(&hp->seq) == seen;
					     i++)
						__builtin_ia32_pause();
				} else {
					struct timespec ts = { 0, 10000000 };

					syscall(SYS_futex, &hp->seq, FUTEX_WAIT, seen, &ts, NULL,
						0);
				}
				if (atomic_load(&hp->seq) == seen &&
				    waitpid(pid, &status, WNOHANG) == pid)
					break;
				continue;
			}
			hp->val = hp->nr == SYS_getppid ? 1 : -ENOSYS;
			seen = seq;
			atomic_store(&hp->ack, seq);
			if (!spin_mode)
				sys_futex(&hp->ack, FUTEX_WAKE, 1);
		}
		pin();
		collect(name);
		return;
	}
	waitpid(pid, &status, 0);
	collect(name);
}

int main(int argc, char **argv)
{
	volatile long sink = 0;

	bench_args(argc, argv, 1, 100000, &n_total, &rounds);
	results = mmap(NULL, sizeof(double) * BENCH_MAX_ROUNDS, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (results == MAP_FAILED)
		return 1;
	pin();
	BENCH_LOOP("native", n_total, rounds, sink += syscall(SYS_getppid));
	bench_sysemu();
	bench_notif("notif", 0);
	bench_notif("notif-sync", NOTIF_SYNC);
	bench_notif("notif-epoll", NOTIF_EPOLL);
	bench_notif("notif-spin", NOTIF_SPIN);
	hp = mmap(NULL, sizeof(*hp), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (hp == MAP_FAILED)
		return 1;
	bench_sigsys("sigsys", 0);
	bench_sigsys("sigsys-futex", 1);
	bench_sigsys("sigsys-spin", 2);
	return sink < 0;
}
