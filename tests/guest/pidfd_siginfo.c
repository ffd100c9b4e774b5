/* pidfd_send_signal's siginfo and scopes, as Linux 6.9+: a caller's own
 * siginfo is checked before the permission (EFAULT, EINVAL, EPERM for
 * posing as kill() or the kernel towards another process, a process
 * group, or from a thread that is not the one the pidfd names), signal 0
 * with a siginfo only asks; PIDFD_SIGNAL_THREAD is SI_TKILL, the others
 * SI_USER; a process group takes a queued siginfo; permission is the
 * uid rules or CAP_KILL, not euid 0 (a zombie's too). A host older than
 * 6.9 says EINVAL to the scope flags: those checks accept that. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "caps.h"
#include "tap.h"

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_pidfd_send_signal
#define SYS_pidfd_send_signal 424
#endif

static volatile int got_code, got_value, got_count;

static void on_usr1(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	got_code = si->si_code;
	got_value = si->si_value.sival_int;
	got_count++;
}

static long psend(int fd, int sig, siginfo_t *si, unsigned flags)
{
	return syscall(SYS_pidfd_send_signal, fd, sig, si, flags);
}

static void queued(siginfo_t *si, int sig, int code, int value)
{
	memset(si, 0, sizeof(*si));
	si->si_signo = sig;
	si->si_code = code;
	si->si_pid = getpid();
	si->si_uid = getuid();
	si->si_value.sival_int = value;
}

static int self_fd;

static void *from_thread(void *arg)
{
	siginfo_t si;
	long r;

	queued(&si, SIGUSR1, SI_USER, 0);
	r = psend(self_fd, SIGUSR1, &si, 0);
	*(int *)arg = r == -1 ? errno : 0;
	return NULL;
}

int main(void)
{
	struct sigaction sa;
	siginfo_t si;
	int st, err, old, child_fd, pfd[2];
	pthread_t th;
	pid_t c;
	long r;
	char b;

	setvbuf(stdout, NULL, _IONBF, 0);
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_usr1;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGUSR1, &sa, NULL);
	self_fd = syscall(SYS_pidfd_open, getpid(), 0);

	r = psend(self_fd, SIGUSR1, NULL, 0);
	check(r == 0 && got_count == 1 && got_code == SI_USER, "no siginfo, no scope: SI_USER");
	r = psend(self_fd, SIGUSR1, NULL, 1);
	old = r == -1 && errno == EINVAL;
	check(old || (r == 0 && got_count == 2 && got_code == SI_TKILL),
	      "PIDFD_SIGNAL_THREAD: SI_TKILL (or EINVAL before 6.9)");
	r = psend(self_fd, SIGUSR1, NULL, 2);
	check((old && r == -1 && errno == EINVAL) || (r == 0 && got_code == SI_USER),
	      "PIDFD_SIGNAL_THREAD_GROUP: SI_USER (or EINVAL before 6.9)");
	got_count = 0;
	queued(&si, SIGUSR1, SI_QUEUE, 42);
	r = psend(self_fd, SIGUSR1, &si, 0);
	check(r == 0 && got_count == 1 && got_code == SI_QUEUE && got_value == 42,
	      "a queued siginfo to oneself arrives as given");
	queued(&si, SIGUSR1, SI_USER, 0);
	r = psend(self_fd, SIGUSR1, &si, 0);
	check(r == 0 && got_count == 2 && got_code == SI_USER, "SI_USER to oneself: allowed");
	queued(&si, SIGUSR2, SI_QUEUE, 0);
	r = psend(self_fd, SIGUSR1, &si, 0);
	check(r == -1 && errno == EINVAL, "si_signo not the signal: EINVAL");
	r = psend(self_fd, SIGUSR1, (siginfo_t *)8, 0);
	check(r == -1 && errno == EFAULT, "a bad siginfo pointer: EFAULT");
	err = -1;
	pthread_create(&th, NULL, from_thread, &err);
	pthread_join(th, NULL);
	check(err == EPERM, "SI_USER from another thread of the process: EPERM");

	/* a child: signal 0 with a siginfo only asks; posing is EPERM */
	if (pipe(pfd) < 0)
		return 1;
	c = fork();
	if (c == 0) {
		close(pfd[1]);
		if (read(pfd[0], &b, 1) < 0)
			_exit(1);
		_exit(0);
	}
	close(pfd[0]);
	child_fd = syscall(SYS_pidfd_open, c, 0);
	queued(&si, 0, SI_QUEUE, 0);
	r = psend(child_fd, 0, &si, 0);
	check(r == 0, "signal 0 with a queued siginfo: 0");
	queued(&si, 0, SI_USER, 0);
	r = psend(child_fd, 0, &si, 0);
	check(r == -1 && errno == EPERM, "signal 0 posing as kill() to a child: EPERM");
	queued(&si, SIGUSR1, SI_KERNEL, 0);
	r = psend(child_fd, SIGUSR1, &si, 0);
	check(r == -1 && errno == EPERM, "posing as the kernel to a child: EPERM");
	r = psend(child_fd, 0, NULL, 4);
	check(r == -1 && errno == (old ? EINVAL : ESRCH),
	      "PIDFD_SIGNAL_PROCESS_GROUP of a child that leads no group: ESRCH");
	close(pfd[1]);
	waitpid(c, &st, 0);

	/* a process group: a queued siginfo goes; SI_USER is posing even to
	 * one's own group (in a child that leads a group of its own) */
	c = fork();
	if (c == 0) {
		int fd;

		setpgid(0, 0);
		fd = syscall(SYS_pidfd_open, getpid(), 0);
		got_count = 0;
		queued(&si, SIGUSR1, SI_QUEUE, 7);
		r = psend(fd, SIGUSR1, &si, 4);
		check((old && r == -1 && errno == EINVAL) ||
			      (r == 0 && got_count == 1 && got_code == SI_QUEUE && got_value == 7),
		      "PIDFD_SIGNAL_PROCESS_GROUP with a queued siginfo (or EINVAL before 6.9)");
		queued(&si, SIGUSR1, SI_USER, 0);
		r = psend(fd, SIGUSR1, &si, 4);
		check(r == -1 && errno == (old ? EINVAL : EPERM),
		      "PIDFD_SIGNAL_PROCESS_GROUP posing as kill(), even to one's own: EPERM");
		_exit(n);
	}
	waitpid(c, &st, 0);
	n = WEXITSTATUS(st); /* its checks were counted there */

	/* another user: the siginfo's faults come before the permission */
	c = fork();
	if (c == 0) {
		check(setuid(1000) == 0, "setuid(1000)");
		r = psend(self_fd, SIGUSR1, (siginfo_t *)8, 0);
		check(r == -1 && errno == EFAULT, "another user, a bad siginfo: EFAULT first");
		r = psend(self_fd, 0, NULL, 0);
		check(r == -1 && errno == EPERM, "another user, signal 0: EPERM");
		queued(&si, SIGUSR1, SI_QUEUE, 0);
		r = psend(self_fd, SIGUSR1, &si, 0);
		check(r == -1 && errno == EPERM, "another user, a queued siginfo: EPERM");
		_exit(n);
	}
	waitpid(c, &st, 0);
	n = WEXITSTATUS(st);

	/* root without CAP_KILL: the uid rules only, zombies included */
	if (pipe(pfd) < 0)
		return 1;
	c = fork();
	if (c == 0) {
		close(pfd[1]);
		if (setuid(1000) != 0)
			_exit(1);
		if (read(pfd[0], &b, 1) < 0)
			_exit(1);
		_exit(0);
	}
	close(pfd[0]);
	child_fd = syscall(SYS_pidfd_open, c, 0);
	usleep(50000); /* its setuid */
	if (caps_drop(CAP_KILL) < 0)
		check(0, "capset");
	r = kill(c, 0);
	check(r == -1 && errno == EPERM, "root without CAP_KILL, another user's process: EPERM");
	r = psend(child_fd, 0, NULL, 0);
	check(r == -1 && errno == EPERM, "... through a pidfd: EPERM");
	caps_change(CAP_KILL, 1, 1);
	close(pfd[1]);
	memset(&si, 0, sizeof(si));
	waitid(P_PID, c, &si, WEXITED | WNOWAIT);
	caps_drop(CAP_KILL);
	r = kill(c, 0);
	check(r == -1 && errno == EPERM, "... its zombie: EPERM");
	caps_change(CAP_KILL, 1, 1);
	r = kill(c, 0);
	check(r == 0, "with CAP_KILL again: 0");
	waitpid(c, &st, 0);
	return 0;
}
