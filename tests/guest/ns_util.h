/* tests/guest/ns_util.h: what the namespace tests share: tap.h's count
 * and checks (check_err naming its errno), and in_child, which runs a part
 * in a child (that unshares without touching this process) and counts its
 * checks here. */
#ifndef TESTS_GUEST_NS_UTIL_H
#define TESTS_GUEST_NS_UTIL_H

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#define TAP_ERR_NAMED
#include "tap.h"

static inline void in_child(void (*fn)(void))
{
	int st, before = n;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		fn();
		fflush(stdout);
		_exit(n - before);
	}
	waitpid(pid, &st, 0);
	n += WIFEXITED(st) ? WEXITSTATUS(st) : 0;
	if (!WIFEXITED(st))
		check(0, "the child died");
}

/* What their parts share: checks of a value, a string, an errno (0 for
 * success) and results; one-byte handshakes over pipes; waits that go on
 * after a signal handler. */
static inline void check_eq(long got, long want, const char *what)
{
	if (got == want)
		printf("ok %d - %s\n", ++n, what);
	else
		printf("not ok %d - %s: got %ld, want %ld\n", ++n, what, got, want);
	fflush(stdout);
}

static inline void check_str(const char *got, const char *want, const char *what)
{
	if (!strcmp(got, want))
		printf("ok %d - %s\n", ++n, what);
	else
		printf("not ok %d - %s: got \"%s\", want \"%s\"\n", ++n, what, got, want);
	fflush(stdout);
}

/* e is an errno a process recorded, 0 for success. */
static inline void check_errno(long e, int want, const char *name, const char *what)
{
	errno = (int)e;
	check_err(e ? -1 : 0, want, name, what);
}

/* ... that wants a success. */
static inline void check_ok(long e, const char *what)
{
	if (e == 0)
		printf("ok %d - %s\n", ++n, what);
	else
		printf("not ok %d - %s: errno %ld\n", ++n, what, e);
	fflush(stdout);
}

/* The errno of a call that returns -1 on failure, 0 if it did not fail. */
static inline long err_of(long r)
{
	return r == -1 ? errno : 0;
}

static inline int put(int fd)
{
	return write(fd, "x", 1) == 1;
}

static inline int get(int fd)
{
	ssize_t r;
	char c;

	do
		r = read(fd, &c, 1);
	while (r == -1 && errno == EINTR);
	return r == 1;
}

static inline void wait_eof(int fd)
{
	while (get(fd))
		;
}

/* waitpid that goes on after a signal: the status, -1 on error. */
static inline int reap(pid_t pid)
{
	int st;
	pid_t r;

	do
		r = waitpid(pid, &st, 0);
	while (r == -1 && errno == EINTR);
	return r == pid ? st : -1;
}

static inline int exited(int st, int code)
{
	return st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == code;
}

#endif
