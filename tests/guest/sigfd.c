/* signalfd and signalfd4: flags, the mask (SIGKILL/SIGSTOP dropped,
 * updated in place), reads of one and several records with their siginfo
 * fields, EAGAIN, EINVAL for a short buffer, a blocking read woken by a
 * child's kill, poll/select/epoll readiness as signals arrive and are
 * taken, thread-directed signals, and a forked child reading its own
 * signals through the inherited fd. Children report by exit status. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#define TAP_ENAME
#include "tap.h"

static long sfd4(int fd, const sigset_t *m, size_t size, int flags)
{
	return syscall(SYS_signalfd4, fd, m, size, flags);
}

static short revents(int fd)
{
	struct pollfd p = { fd, POLLIN, 0 };

	if (poll(&p, 1, 0) < 0)
		return -1;
	return p.revents;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static int child_exit(pid_t pid)
{
	int st;

	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static void test_flags(void)
{
	sigset_t m;
	int fd, fl;

	sigemptyset(&m);
	sigaddset(&m, SIGUSR1);
	check_err(sfd4(-1, &m, 8, 1), EINVAL, "signalfd4 with an unknown flag");
	check_err(sfd4(-1, &m, 4, 0), EINVAL, "sizemask 4");
	check_err(sfd4(-1, &m, 16, 0), EINVAL, "sizemask 16");
	check_err(sfd4(-1, (void *)8, 8, 0), EFAULT, "mask at a bad address");
	check_err(sfd4(12345, &m, 8, 0), EBADF, "fd not open");
	check_err(sfd4(1, &m, 8, 0), EINVAL, "fd not a signalfd");
	fd = (int)sfd4(-1, &m, 8, SFD_CLOEXEC | SFD_NONBLOCK);
	check(fd >= 0, "signalfd4(SFD_CLOEXEC|SFD_NONBLOCK)");
	fl = fcntl(fd, F_GETFL);
	check(fl >= 0 && (fl & O_NONBLOCK) && (fl & O_ACCMODE) == O_RDWR, "O_RDWR|O_NONBLOCK");
	check(fcntl(fd, F_GETFD) == FD_CLOEXEC, "FD_CLOEXEC");
	check(sfd4(fd, &m, 8, 0) == fd, "updating the mask returns the same fd");
	close(fd);
	fd = (int)syscall(SYS_signalfd, -1, &m, 8);
	check(fd >= 0 && fcntl(fd, F_GETFD) == 0 && !(fcntl(fd, F_GETFL) & O_NONBLOCK),
	      "signalfd(2): no flags");
	check_err(write(fd, &m, 8), EINVAL, "write");
	close(fd);
}

static void test_read(void)
{
	struct signalfd_siginfo si[4];
	sigset_t m;
	union sigval v;
	int fd;
	long r;

	sigemptyset(&m);
	sigaddset(&m, SIGUSR1);
	sigaddset(&m, SIGUSR2);
	sigaddset(&m, SIGRTMIN);
	sigprocmask(SIG_BLOCK, &m, NULL);
	sigaddset(&m, SIGKILL);
	fd = signalfd(-1, &m, SFD_NONBLOCK);
	check(fd >= 0, "signalfd for USR1 USR2 RTMIN (and KILL, ignored)");
	check_err(read(fd, si, sizeof(si)), EAGAIN, "read with nothing pending");
	check(revents(fd) == 0, "poll: not readable");
	kill(getpid(), SIGUSR1);
	check(revents(fd) == POLLIN, "poll: readable after kill");
	check_err(read(fd, si, 127), EINVAL, "read of 127 bytes");
	r = read(fd, si, sizeof(si));
	check(r == sizeof(si[0]), "read gives one record");
	check(si[0].ssi_signo == SIGUSR1 && si[0].ssi_code == SI_USER &&
		      si[0].ssi_pid == (uint32_t)getpid() && si[0].ssi_uid == getuid(),
	      "SIGUSR1: SI_USER, pid and uid");
	check(revents(fd) == 0, "not readable once taken");
	v.sival_int = 42;
	sigqueue(getpid(), SIGRTMIN, v);
	v.sival_int = 43;
	sigqueue(getpid(), SIGRTMIN, v);
	syscall(SYS_tgkill, getpid(), gettid(), SIGUSR2);
	r = read(fd, si, sizeof(si));
	check(r == 3 * (long)sizeof(si[0]), "read gives three records");
	check(si[0].ssi_signo == SIGUSR2 && si[0].ssi_code == SI_TKILL,
	      "thread's SIGUSR2 first, SI_TKILL");
	check(si[1].ssi_signo == (uint32_t)SIGRTMIN && si[1].ssi_code == SI_QUEUE &&
		      si[1].ssi_int == 42 && si[2].ssi_int == 43,
	      "then the two SIGRTMIN instances in order, with their values");
	check(sigismember(&m, SIGKILL) && signalfd(fd, &m, 0) == fd, "mask update");
	kill(getpid(), SIGUSR1);
	sigemptyset(&m);
	sigaddset(&m, SIGUSR2);
	check(signalfd(fd, &m, 0) == fd && revents(fd) == 0,
	      "mask without USR1: pending USR1 not readable");
	sigaddset(&m, SIGUSR1);
	signalfd(fd, &m, 0);
	check(revents(fd) == POLLIN, "mask with USR1 again: readable");
	check(read(fd, si, sizeof(si)) == sizeof(si[0]) && si[0].ssi_signo == SIGUSR1, "and read");
	close(fd);
}

static void test_wait(void)
{
	struct signalfd_siginfo si;
	struct epoll_event ev = { .events = EPOLLIN };
	sigset_t m;
	fd_set rf;
	struct timeval tv = { 0, 0 };
	int fd, ep, go[2];
	pid_t pid;

	sigemptyset(&m);
	sigaddset(&m, SIGUSR1);
	sigaddset(&m, SIGCHLD);
	sigprocmask(SIG_BLOCK, &m, NULL);
	fd = signalfd(-1, &m, 0);
	ep = epoll_create1(0);
	ev.data.fd = fd;
	check(epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev) == 0, "epoll_ctl ADD of the signalfd");
	check(epoll_wait(ep, &ev, 1, 0) == 0, "epoll: nothing yet");
	pid = fork();
	if (pid == 0) {
		sleep_ms(50);
		kill(getppid(), SIGUSR1);
		_exit(0);
	}
	check(epoll_wait(ep, &ev, 1, 5000) == 1 && ev.data.fd == fd,
	      "epoll_wait woken by the child's kill");
	check(read(fd, &si, sizeof(si)) == sizeof(si) && si.ssi_signo == SIGUSR1 &&
		      si.ssi_pid == (uint32_t)pid,
	      "read: SIGUSR1 from the child");
	/* blocking read: the child's SIGCHLD */
	check(read(fd, &si, sizeof(si)) == sizeof(si) && si.ssi_signo == SIGCHLD &&
		      si.ssi_code == CLD_EXITED && si.ssi_pid == (uint32_t)pid &&
		      si.ssi_status == 0,
	      "blocking read: SIGCHLD, CLD_EXITED, pid, status 0");
	check(child_exit(pid) == 0, "child reaped");
	/* the child signals only once the parent has looked (a sleep alone
	 * raced a slow fork under a sanitizer build) */
	if (pipe(go) < 0)
		go[0] = go[1] = -1;
	pid = fork();
	if (pid == 0) {
		char c;

		if (read(go[0], &c, 1) == 1)
			sleep_ms(50);
		kill(getppid(), SIGUSR1);
		_exit(0);
	}
	close(go[0]);
	FD_ZERO(&rf);
	FD_SET(fd, &rf);
	check(select(fd + 1, &rf, NULL, NULL, &tv) == 0, "select: not readable");
	if (write(go[1], "g", 1) != 1)
		printf("# go: %s\n", strerror(errno));
	close(go[1]);
	FD_SET(fd, &rf);
	check(select(fd + 1, &rf, NULL, NULL, NULL) == 1 && FD_ISSET(fd, &rf),
	      "select woken by a signal");
	check(read(fd, &si, sizeof(si)) == sizeof(si) && si.ssi_signo == SIGUSR1, "read it");
	check(child_exit(pid) == 0, "child reaped");
	/* drop the second SIGCHLD */
	while (revents(fd) == POLLIN)
		read(fd, &si, sizeof(si));
	close(ep);
	close(fd);
}

static void test_fork(void)
{
	struct signalfd_siginfo si;
	sigset_t m;
	int fd;
	pid_t pid;

	sigemptyset(&m);
	sigaddset(&m, SIGUSR2);
	sigprocmask(SIG_BLOCK, &m, NULL);
	fd = signalfd(-1, &m, SFD_NONBLOCK);
	pid = fork();
	if (pid == 0) {
		/* The child reads its own queue through the inherited fd. */
		if (read(fd, &si, sizeof(si)) != -1 || errno != EAGAIN)
			_exit(1);
		kill(getpid(), SIGUSR2);
		if (read(fd, &si, sizeof(si)) != sizeof(si) || si.ssi_signo != SIGUSR2 ||
		    si.ssi_pid != (uint32_t)getpid())
			_exit(2);
		_exit(0);
	}
	check(child_exit(pid) == 0, "a forked child reads its own signals");
	check(revents(fd) == 0, "the parent has nothing");
	close(fd);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	test_flags();
	test_read();
	test_wait();
	test_fork();
	return 0;
}
