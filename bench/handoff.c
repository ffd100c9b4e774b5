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
 * usage: handoff [N [R]]   (N round trips per option, default 100000; R rounds) */
#define _GNU_SOURCE
#include "bench.h"
#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <signal.h>
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

enum { NOTIF_SYNC = 1, NOTIF_EPOLL = 2 };

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
	if (how & NOTIF_EPOLL) {
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

		if (ep >= 0 && epoll_wait(ep, &ev, 1, -1) < 0)
			break;
		memset(&req, 0, sizeof(req));
		if (ioctl(listener, SECCOMP_IOCTL_NOTIF_RECV, &req) < 0)
			break;
		memset(&resp, 0, sizeof(resp));
		resp.id = req.id;
		resp.val = 1;
		ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, &resp);
	}
	collect(name);
out:
	close(sv[0]);
	if (ep >= 0)
		close(ep);
	if (listener >= 0)
		close(listener);
	waitpid(pid, &status, 0);
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
	return sink < 0;
}
