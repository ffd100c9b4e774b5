/* Signals that land while a process makes system calls back to back: each
 * one runs its handler exactly once and no call returns a wrong result
 * (under skas's seccomp platform they race the trap of the call: taken or
 * not yet taken by the kernel, answered or not yet). Also a process whose
 * other thread is blocked in a call exits at once, and a blocked read that
 * a handler interrupts with SA_RESTART gets its data. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tap.h"

#define NSIGNALS 300
static volatile sig_atomic_t handled, done;
static int ack_fd;

static void on_usr1(int sig)
{
	char c = 1;

	(void)sig;
	handled++;
	if (write(ack_fd, &c, 1) != 1)
		_exit(3);
}

static void on_usr2(int sig)
{
	(void)sig;
	done = 1;
}

static void set_handler(int sig, void (*fn)(int), int flags)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = fn;
	sa.sa_flags = flags;
	sigaction(sig, &sa, NULL);
}

/* The child makes calls back to back; the parent signals it NSIGNALS
 * times, one at a time (the handler acknowledges through a pipe). */
static void storm(void)
{
	int ack[2], st, i, got = 0;
	pid_t c, me = getpid();
	char b;

	if (pipe(ack) < 0)
		return;
	c = fork();
	if (c == 0) {
		long bad = 0, calls = 0;

		ack_fd = ack[1];
		set_handler(SIGUSR1, on_usr1, 0);
		set_handler(SIGUSR2, on_usr2, 0);
		b = 0;
		if (write(ack[1], &b, 1) != 1) /* ready */
			_exit(3);
		while (!done) {
			if (syscall(SYS_getppid) != me)
				bad++;
			if (syscall(SYS_getpid) != getpid())
				bad++;
			calls++;
		}
		_exit(bad ? 1 : handled == NSIGNALS ? 0 : 2);
	}
	close(ack[1]);
	if (read(ack[0], &b, 1) != 1)
		return;
	for (i = 0; i < NSIGNALS; i++) {
		kill(c, SIGUSR1);
		if (read(ack[0], &b, 1) != 1)
			break;
		got++;
	}
	kill(c, SIGUSR2);
	waitpid(c, &st, 0);
	close(ack[0]);
	check(got == NSIGNALS, "every signal's handler ran while the child made calls");
	check(WIFEXITED(st) && WEXITSTATUS(st) != 1, "no call returned a wrong result");
	check(WIFEXITED(st) && WEXITSTATUS(st) == 0, "each handler ran exactly once");
}

static int block_fd;

static void *blocked_reader(void *arg)
{
	char b;

	(void)arg;
	if (read(block_fd, &b, 1) >= 0)
		return NULL;
	return NULL;
}

static void exit_with_blocked_thread(void)
{
	int p[2], st;
	pid_t c;

	if (pipe(p) < 0)
		return;
	c = fork();
	if (c == 0) {
		pthread_t t;
		struct timespec ts = { 0, 50000000 };

		block_fd = p[0];
		pthread_create(&t, NULL, blocked_reader, NULL);
		nanosleep(&ts, NULL);
		_exit(7); /* exit_group: the blocked thread goes too */
	}
	waitpid(c, &st, 0);
	close(p[0]);
	close(p[1]);
	check(WIFEXITED(st) && WEXITSTATUS(st) == 7,
	      "exit_group with another thread blocked in read");
}

static void restarted_read(void)
{
	int p[2], st;
	pid_t c;
	char b = 0;
	ssize_t r;

	if (pipe(p) < 0)
		return;
	set_handler(SIGUSR1, on_usr2, SA_RESTART);
	done = 0;
	c = fork();
	if (c == 0) {
		struct timespec ts = { 0, 100000000 };

		nanosleep(&ts, NULL);
		kill(getppid(), SIGUSR1);
		nanosleep(&ts, NULL);
		if (write(p[1], "x", 1) != 1)
			_exit(1);
		_exit(0);
	}
	r = read(p[0], &b, 1);
	waitpid(c, &st, 0);
	check(r == 1 && b == 'x' && done,
	      "SA_RESTART: a blocked read gets its data after the handler");
	close(p[0]);
	close(p[1]);
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	alarm(60);
	storm();
	exit_with_blocked_thread();
	restarted_read();
	return 0;
}
