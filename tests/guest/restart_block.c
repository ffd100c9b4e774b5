/* Calls that a stop interrupts and restart_syscall(2) continues (Linux's
 * restart_block): poll goes on with its fds to its end after SIGSTOP and
 * SIGCONT, also when an earlier nanosleep was interrupted by a handler
 * (whose restart must not be the one taken: rt_sigreturn forgets it); a
 * timed futex wait ends at its first deadline, not later by the time
 * stopped; the same poll under a handler is EINTR. */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define FUTEX_WAIT 0 /* musl has no linux/futex.h */

#define TAP_FLUSH
#include "tap.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void on_alrm(int sig)
{
	(void)sig;
}

/* Stops and continues pid after ms milliseconds, for stopped_ms. */
static void stop_cont(pid_t pid, int ms, int stopped_ms)
{
	usleep(ms * 1000);
	kill(pid, SIGSTOP);
	usleep(stopped_ms * 1000);
	kill(pid, SIGCONT);
}

static int status_of(pid_t pid)
{
	int st;

	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

int main(void)
{
	int p[2], st;
	pid_t pid;
	uint32_t *word;

	/* 1: poll after an interrupted nanosleep, stopped and continued */
	if (pipe(p))
		return 1;
	pid = fork();
	if (pid == 0) {
		struct sigaction sa = { .sa_handler = on_alrm };
		struct timespec ts = { 100, 0 }, rem;
		struct pollfd pf = { .fd = p[0], .events = POLLIN };
		int r;

		sigaction(SIGALRM, &sa, NULL);
		alarm(1);
		r = nanosleep(&ts, &rem);
		if (r != -1 || errno != EINTR)
			_exit(1);
		alarm(0);
		r = poll(&pf, 1, 5000);
		_exit(r == 1 ? 0 : r == 0 ? 2 : 3);
	}
	close(p[0]);
	usleep(1300000);
	stop_cont(pid, 100, 100);
	usleep(200000);
	check(write(p[1], "x", 1) == 1, "a byte to the pipe");
	st = status_of(pid);
	check(st == 0, "poll, stopped after a handler ended a nanosleep: the byte comes");
	close(p[1]);

	/* 2: poll with a timeout and nothing to read: 0 at its end, no EINTR */
	if (pipe(p))
		return 1;
	pid = fork();
	if (pid == 0) {
		struct pollfd pf = { .fd = p[0], .events = POLLIN };
		int r = poll(&pf, 1, 700);

		_exit(r == 0 ? 0 : r < 0 && errno == EINTR ? 4 : 5);
	}
	stop_cont(pid, 100, 100);
	check(status_of(pid) == 0, "poll(700 ms), stopped and continued: 0, not EINTR");
	close(p[0]);
	close(p[1]);

	/* 3: a timed futex wait keeps its deadline across a stop */
	word = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (word == MAP_FAILED)
		return 1;
	*word = 0;
	pid = fork();
	if (pid == 0) {
		struct timespec ts = { 1, 0 };
		double t0 = now(), dt;
		long r = syscall(SYS_futex, word, FUTEX_WAIT, 0, &ts, NULL, 0);

		dt = now() - t0;
		if (r != -1 || errno != ETIMEDOUT)
			_exit(errno == EINTR ? 6 : 7);
		/* stopped from 0.2 s to 1.7 s: Linux ends it at the
		 * continue; a wait begun again would end near 2.7 s */
		_exit(dt < 2.3 ? 0 : 8);
	}
	stop_cont(pid, 200, 1500);
	check(status_of(pid) == 0, "FUTEX_WAIT(1 s), stopped 1.5 s: ETIMEDOUT at the continue");

	/* 4: poll ended by a handler is EINTR, even with SA_RESTART */
	pid = fork();
	if (pid == 0) {
		struct sigaction sa = { .sa_handler = on_alrm, .sa_flags = SA_RESTART };
		struct pollfd pf = { .fd = -1 };
		int r;

		sigaction(SIGALRM, &sa, NULL);
		alarm(1);
		r = poll(&pf, 1, 3000);
		_exit(r == -1 && errno == EINTR ? 0 : 9);
	}
	check(status_of(pid) == 0, "poll ended by an SA_RESTART handler: EINTR");

	/* 5: a timed futex wait ended by an SA_RESTART handler: EINTR */
	pid = fork();
	if (pid == 0) {
		struct sigaction sa = { .sa_handler = on_alrm, .sa_flags = SA_RESTART };
		struct timespec ts = { 3, 0 };
		long r;

		sigaction(SIGALRM, &sa, NULL);
		alarm(1);
		r = syscall(SYS_futex, word, FUTEX_WAIT, 0, &ts, NULL, 0);
		_exit(r == -1 && errno == EINTR ? 0 : 10);
	}
	check(status_of(pid) == 0, "timed FUTEX_WAIT ended by an SA_RESTART handler: EINTR");
	return 0;
}
