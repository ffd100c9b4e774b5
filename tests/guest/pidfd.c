/* pidfd_open, pidfd_send_signal (to a pidfd or a /proc/PID directory),
 * waitid(P_PIDFD), clone3(CLONE_PIDFD). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tap.h"

#ifndef CLONE_PIDFD
#define CLONE_PIDFD 0x1000
#endif
#ifndef P_PIDFD
#define P_PIDFD 3
#endif

static const char *ename(int e)
{
	switch (e) {
	case EINVAL:
		return "EINVAL";
	case ESRCH:
		return "ESRCH";
	case EBADF:
		return "EBADF";
	case ECHILD:
		return "ECHILD";
	default:
		return "other";
	}
}

static int readable(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, 0) == 1 && (p.revents & POLLIN);
}

struct clone_args_v0 {
	uint64_t flags, pidfd, child_tid, parent_tid, exit_signal, stack, stack_size, tls;
};

/* Is SIGUSR1 pending as this thread sees it (its own and the process's)? */
static void *pending_in_thread(void *arg)
{
	sigset_t pend;

	(void)arg;
	sigpending(&pend);
	return (void *)(intptr_t)sigismember(&pend, SIGUSR1);
}

int main(void)
{
	int pipefd[2], pfd, st;
	siginfo_t si;
	long r;
	pid_t c;
	char b;

	setvbuf(stdout, NULL, _IONBF, 0);
	if (pipe(pipefd) < 0)
		return 1;
	c = fork();
	if (c == 0) {
		close(pipefd[1]);
		read(pipefd[0], &b, 1);
		_exit(3);
	}
	pfd = syscall(SYS_pidfd_open, c, 0);
	check(pfd >= 0, "pidfd_open of a child");
	check(!readable(pfd), "a live child's pidfd is not readable");
	check((fcntl(pfd, F_GETFD) & FD_CLOEXEC) != 0, "pidfds are close-on-exec");
	r = syscall(SYS_pidfd_send_signal, pfd, SIGKILL, NULL, 0x100);
	check(r == -1 && errno == EINVAL, "pidfd_send_signal with flags -> EINVAL");
	r = syscall(SYS_pidfd_send_signal, pfd, SIGKILL, NULL, 0);
	check(r == 0, "pidfd_send_signal SIGKILL");
	{
		struct pollfd p = { .fd = pfd, .events = POLLIN };

		check(poll(&p, 1, 5000) == 1, "the pidfd polls readable once the child died");
	}
	memset(&si, 0, sizeof(si));
	r = waitid(P_PIDFD, pfd, &si, WEXITED);
	check(r == 0 && si.si_code == CLD_KILLED && si.si_status == SIGKILL,
	      "waitid(P_PIDFD) reports CLD_KILLED by SIGKILL");
	r = syscall(SYS_pidfd_send_signal, pfd, SIGTERM, NULL, 0);
	printf("# send to a reaped process: %s\n", r == 0 ? "0" : ename(errno));
	check(r == -1 && errno == ESRCH, "pidfd_send_signal to a reaped process -> ESRCH");
	r = waitid(P_PIDFD, pfd, &si, WEXITED | WNOHANG);
	check(r == -1 && errno == ECHILD, "waitid on a reaped pidfd -> ECHILD");
	close(pfd);
	close(pipefd[0]);
	close(pipefd[1]);

	r = syscall(SYS_pidfd_open, 0x3fffffff, 0);
	check(r == -1 && errno == ESRCH, "pidfd_open of no process -> ESRCH");
	r = syscall(SYS_pidfd_open, getpid(), 12345);
	check(r == -1 && errno == EINVAL, "pidfd_open with bad flags -> EINVAL");
	r = waitid(P_PIDFD, 0, &si, WEXITED);
	check(r == -1 && (errno == EBADF || errno == EINVAL),
	      "waitid(P_PIDFD) on a non-pidfd fails");
	r = waitid(P_PIDFD, -1, &si, WEXITED);
	check(r == -1 && errno == EINVAL, "waitid(P_PIDFD, -1) -> EINVAL");

	{
		struct clone_args_v0 ca;
		int cpfd = -1;

		memset(&ca, 0, sizeof(ca));
		ca.flags = CLONE_PIDFD;
		ca.pidfd = (uintptr_t)&cpfd;
		ca.exit_signal = SIGCHLD;
		c = syscall(SYS_clone3, &ca, sizeof(ca));
		if (c == 0)
			_exit(7);
		check(c > 0 && cpfd >= 0, "clone3(CLONE_PIDFD) gives a pidfd");
		r = waitid(P_PIDFD, cpfd, &si, WEXITED);
		check(r == 0 && si.si_code == CLD_EXITED && si.si_status == 7,
		      "waitid on the clone3 pidfd: exit 7");
		close(cpfd);
	}
	/* PIDFD_SIGNAL_THREAD and _THREAD_GROUP (Linux 6.9): thread-directed
	 * is pending on the leader only, process-directed is seen by every
	 * thread. A host older than 6.9 says EINVAL natively: each check
	 * then accepts that, so that native and skas print the same. */
	{
		sigset_t set, pend;
		pthread_t th;
		int self = syscall(SYS_pidfd_open, getpid(), 0), other = -1, old;
		bool leader = false;

		sigemptyset(&set);
		sigaddset(&set, SIGUSR1);
		sigprocmask(SIG_BLOCK, &set, NULL);
		r = syscall(SYS_pidfd_send_signal, self, SIGUSR1, NULL, 1);
		old = r == -1 && errno == EINVAL;
		if (r == 0) {
			sigpending(&pend);
			leader = sigismember(&pend, SIGUSR1);
			pthread_create(&th, NULL, pending_in_thread, NULL);
			pthread_join(th, (void **)&other);
			sigwaitinfo(&set, &si);
		}
		check(old || (r == 0 && leader && other == 0),
		      "PIDFD_SIGNAL_THREAD: pending on the leader only (or EINVAL before 6.9)");
		r = syscall(SYS_pidfd_send_signal, self, SIGUSR1, NULL, 2);
		other = -1;
		if (r == 0) {
			pthread_create(&th, NULL, pending_in_thread, NULL);
			pthread_join(th, (void **)&other);
			sigwaitinfo(&set, &si);
		}
		check((old && r == -1 && errno == EINVAL) || (r == 0 && other == 1),
		      "PIDFD_SIGNAL_THREAD_GROUP: seen by another thread (or EINVAL before 6.9)");
		r = syscall(SYS_pidfd_send_signal, self, SIGUSR1, NULL, 3);
		check(r == -1 && errno == EINVAL, "two scope flags: EINVAL");
		close(self);
	}
	/* An open /proc/PID directory is a pidfd to pidfd_send_signal
	 * (test_signal's test_pidfd_send_signal); a zombie takes a signal
	 * through either; a reaped one is ESRCH; /proc/PID/task/TID and
	 * other /proc fds are EBADF. */
	{
		sigset_t set, pend;
		char path[64];
		int dir, zfd, zdir, task, file;

		sigemptyset(&set);
		sigaddset(&set, SIGUSR2);
		sigprocmask(SIG_BLOCK, &set, NULL);
		dir = open("/proc/self", O_RDONLY | O_DIRECTORY);
		r = syscall(SYS_pidfd_send_signal, dir, SIGUSR2, NULL, 0);
		sigpending(&pend);
		check(r == 0 && sigismember(&pend, SIGUSR2), "a /proc/self fd signals the process");
		if (sigismember(&pend, SIGUSR2))
			sigwaitinfo(&set, &si);
		snprintf(path, sizeof(path), "/proc/self/task/%d", getpid());
		task = open(path, O_RDONLY | O_DIRECTORY);
		r = syscall(SYS_pidfd_send_signal, task, 0, NULL, 0);
		check(task >= 0 && r == -1 && errno == EBADF, "a /proc/PID/task/TID fd: EBADF");
		file = open("/proc/self/stat", O_RDONLY);
		r = syscall(SYS_pidfd_send_signal, file, 0, NULL, 0);
		check(file >= 0 && r == -1 && errno == EBADF, "a /proc/self/stat fd: EBADF");
		close(dir);
		close(task);
		close(file);

		c = fork();
		if (c == 0)
			_exit(0);
		zfd = syscall(SYS_pidfd_open, c, 0);
		snprintf(path, sizeof(path), "/proc/%d", c);
		zdir = open(path, O_RDONLY | O_DIRECTORY);
		waitid(P_PID, c, &si, WEXITED | WNOWAIT);
		r = syscall(SYS_pidfd_send_signal, zfd, SIGTERM, NULL, 0);
		printf("# pidfd to a zombie: %s\n", r == 0 ? "0" : ename(errno));
		check(r == 0, "pidfd_send_signal to a zombie: 0");
		r = syscall(SYS_pidfd_send_signal, zdir, SIGTERM, NULL, 0);
		check(zdir >= 0 && r == 0, "through its /proc directory: 0");
		waitpid(c, &st, 0);
		r = syscall(SYS_pidfd_send_signal, zdir, SIGTERM, NULL, 0);
		check(r == -1 && errno == ESRCH, "its /proc directory once reaped: ESRCH");
		close(zfd);
		close(zdir);
	}
	r = waitpid(-1, &st, WNOHANG);
	check(r == -1 && errno == ECHILD, "no children left");
	return 0;
}
