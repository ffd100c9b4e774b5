/* tests/guest/ns_util.h: what the namespace tests share: the TAP-style
 * count and checks, and in_child, which runs a part in a child (that
 * unshares without touching this process) and counts its checks here. */
#ifndef TESTS_GUEST_NS_UTIL_H
#define TESTS_GUEST_NS_UTIL_H

#include <errno.h>
#include <stdio.h>
#include <unistd.h>
#include <sys/wait.h>

static int n;

static inline void check(int cond, const char *what)
{
	printf("%s %d - %s\n", cond ? "ok" : "not ok", ++n, what);
}

static inline void check_err(long r, int want, const char *name, const char *what)
{
	int e = errno;

	if (r == -1 && e == want)
		printf("ok %d - %s -> %s\n", ++n, what, name);
	else
		printf("not ok %d - %s: got %ld (errno %d), want %s\n", ++n, what, r,
		       r == -1 ? e : 0, name);
}

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

#endif
