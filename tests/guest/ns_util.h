/* tests/guest/ns_util.h: what the namespace tests share: tap.h's count
 * and checks (check_err naming its errno), and in_child, which runs a part
 * in a child (that unshares without touching this process) and counts its
 * checks here. */
#ifndef TESTS_GUEST_NS_UTIL_H
#define TESTS_GUEST_NS_UTIL_H

#include <errno.h>
#include <stdio.h>
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

#endif
