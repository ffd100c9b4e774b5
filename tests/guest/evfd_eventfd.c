/* eventfd and eventfd2: the counter, EFD_SEMAPHORE, EFD_NONBLOCK,
 * EFD_CLOEXEC, short reads and writes, overflow, blocking reads and writes
 * woken by a child, a signal interrupting a read, poll/select readiness and
 * fstat. Children never print: they report through their exit status. */
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
#include <sys/eventfd.h>
#include <sys/select.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#define TAP_ENAME
#include "tap.h"

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static long wr(int fd, uint64_t v)
{
	return write(fd, &v, sizeof(v));
}

static uint64_t rd(int fd)
{
	uint64_t v = 0;

	if (read(fd, &v, sizeof(v)) != sizeof(v))
		return (uint64_t)-1;
	return v;
}

static short revents(int fd, short events)
{
	struct pollfd p = { fd, events, 0 };

	if (poll(&p, 1, 0) < 0)
		return -1;
	return p.revents;
}

static int child_exit(pid_t pid)
{
	int st;

	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static void test_counter(void)
{
	int fd = eventfd(3, 0);
	uint64_t v;

	check(fd >= 0, "eventfd(3, 0)");
	check(rd(fd) == 3, "read gives the initial count");
	check(wr(fd, 5) == 8 && wr(fd, 7) == 8, "two writes");
	check(rd(fd) == 12, "read gives their sum and resets it");
	check_err(read(fd, &v, 4), EINVAL, "read of 4 bytes");
	check_err(write(fd, &v, 4), EINVAL, "write of 4 bytes");
	check_err(wr(fd, UINT64_MAX), EINVAL, "write of 0xffffffffffffffff");
	check(wr(fd, 0) == 8, "write of 0 succeeds");
	check(fcntl(fd, F_SETFL, O_NONBLOCK) == 0, "F_SETFL O_NONBLOCK");
	check_err(read(fd, &v, 8), EAGAIN, "read at 0 (made nonblocking)");
	{
		char big[16];

		check(wr(fd, 9) == 8 && read(fd, big, sizeof(big)) == 8,
		      "read of 16 bytes gives 8");
	}
	close(fd);

	fd = syscall(SYS_eventfd, 7);
	check(fd >= 0 && rd(fd) == 7, "eventfd (the old call) with a count");
	close(fd);
}

static void test_flags(void)
{
	int fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	uint64_t v;

	check(fd >= 0, "eventfd(0, EFD_NONBLOCK|EFD_CLOEXEC)");
	check(fcntl(fd, F_GETFD) == FD_CLOEXEC, "close-on-exec set");
	check((fcntl(fd, F_GETFL) & (O_ACCMODE | O_NONBLOCK)) == (O_RDWR | O_NONBLOCK),
	      "O_RDWR|O_NONBLOCK");
	check_err(read(fd, &v, 8), EAGAIN, "nonblocking read at 0");
	close(fd);
	fd = eventfd(0, 0);
	check(fcntl(fd, F_GETFD) == 0 && (fcntl(fd, F_GETFL) & O_NONBLOCK) == 0,
	      "no flags: no close-on-exec, blocking");
	close(fd);
	check_err(syscall(SYS_eventfd2, 0, 8), EINVAL, "eventfd2 with an unknown flag");
	check_err(syscall(SYS_eventfd2, 0, O_APPEND), EINVAL, "eventfd2 with O_APPEND");
}

static void test_semaphore(void)
{
	int fd = eventfd(3, EFD_SEMAPHORE | EFD_NONBLOCK);
	uint64_t v;

	check(rd(fd) == 1 && rd(fd) == 1 && rd(fd) == 1, "EFD_SEMAPHORE: three reads of 1");
	check_err(read(fd, &v, 8), EAGAIN, "EFD_SEMAPHORE: then EAGAIN");
	wr(fd, 2);
	check(rd(fd) == 1 && revents(fd, POLLIN) == POLLIN, "EFD_SEMAPHORE: still readable");
	close(fd);
}

static void test_overflow_and_poll(void)
{
	int fd = eventfd(0, EFD_NONBLOCK);

	check(revents(fd, POLLIN | POLLOUT) == POLLOUT, "at 0: POLLOUT only");
	wr(fd, 1);
	check(revents(fd, POLLIN | POLLOUT) == (POLLIN | POLLOUT), "at 1: POLLIN|POLLOUT");
	check(wr(fd, UINT64_MAX - 2) == 8, "write up to 0xfffffffffffffffe");
	check(revents(fd, POLLIN | POLLOUT) == POLLIN, "at the maximum: POLLIN only");
	check_err(wr(fd, 1), EAGAIN, "write past the maximum");
	check(wr(fd, 0) == 8, "write of 0 at the maximum");
	check(rd(fd) == UINT64_MAX - 1, "read gives 0xfffffffffffffffe");
	{
		fd_set r, w;
		struct timeval tv = { 0, 0 };

		FD_ZERO(&r);
		FD_ZERO(&w);
		FD_SET(fd, &r);
		FD_SET(fd, &w);
		check(select(fd + 1, &r, &w, NULL, &tv) == 1 && !FD_ISSET(fd, &r) &&
			      FD_ISSET(fd, &w),
		      "select: writable, not readable");
	}
	close(fd);
}

static void test_blocking(void)
{
	int fd = eventfd(0, 0);
	pid_t pid = fork();

	if (pid == 0) {
		sleep_ms(30);
		_exit(wr(fd, 42) == 8 ? 0 : 1);
	}
	check(rd(fd) == 42, "blocking read woken by a child's write");
	check(child_exit(pid) == 0, "child wrote");

	wr(fd, UINT64_MAX - 1);
	pid = fork();
	if (pid == 0) {
		sleep_ms(30);
		_exit(rd(fd) == UINT64_MAX - 1 ? 0 : 1);
	}
	check(wr(fd, 5) == 8, "blocking write woken by a child's read");
	check(child_exit(pid) == 0, "child read");
	check(rd(fd) == 5, "the blocked write went in");
	close(fd);
}

static volatile sig_atomic_t got;

static void on_usr1(int sig)
{
	(void)sig;
	got = 1;
}

static void test_signal(void)
{
	struct sigaction sa;
	int fd = eventfd(0, 0);
	uint64_t v;
	long r;
	pid_t pid;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sigaction(SIGUSR1, &sa, NULL);
	pid = fork();
	if (pid == 0) {
		sleep_ms(30);
		kill(getppid(), SIGUSR1);
		_exit(0);
	}
	r = read(fd, &v, 8);
	check_err(r, EINTR, "a signal interrupts a blocking read");
	check(got == 1, "the handler ran");
	child_exit(pid);

	sa.sa_flags = SA_RESTART;
	sigaction(SIGUSR1, &sa, NULL);
	got = 0;
	pid = fork();
	if (pid == 0) {
		sleep_ms(30);
		kill(getppid(), SIGUSR1);
		sleep_ms(30);
		_exit(wr(fd, 3) == 8 ? 0 : 1);
	}
	check(rd(fd) == 3 && got == 1, "with SA_RESTART the read goes on after the handler");
	check(child_exit(pid) == 0, "child wrote after the signal");
	close(fd);
}

static void test_stat(void)
{
	int fd = eventfd(0, 0);
	struct stat st;

	check(fstat(fd, &st) == 0, "fstat");
	check((st.st_mode & S_IFMT) == 0 && (st.st_mode & 07777) == 0600,
	      "anonymous inode: mode 0600, no type");
	check(st.st_nlink == 1, "one link");
	check(lseek(fd, 0, SEEK_CUR) == 0, "lseek is a no-op giving 0");
	close(fd);
	check_err(rd(fd) == (uint64_t)-1 ? -1 : 0, EBADF, "read after close");
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	test_counter();
	test_flags();
	test_semaphore();
	test_overflow_and_poll();
	test_blocking();
	test_signal();
	test_stat();
	return 0;
}
