/* kill() to a process group: kill(-pgid) reaches every member (and only
 * them), kill(0) the caller's own group, a group whose only member is a
 * zombie still counts (0), a group with no member is ESRCH, and
 * setpgid into a group of another session or of no process fails. */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/wait.h>

#include "tap.h"

static void on_usr1(int sig)
{
	(void)sig;
	_exit(42);
}

/* A child in process group pgid (0: its own) that exits 42 on SIGUSR1,
 * or 7 after 10 s; its pid once it is in the group. */
static pid_t member(pid_t pgid, int pipefd[2])
{
	pid_t pid = fork();
	char c = 1;

	if (pid == 0) {
		signal(SIGUSR1, on_usr1);
		setpgid(0, pgid);
		if (write(pipefd[1], &c, 1) != 1)
			_exit(9);
		sleep(10);
		_exit(7);
	}
	setpgid(pid, pgid ? pgid : pid); /* no race with the child's own call */
	if (read(pipefd[0], &c, 1) != 1)
		printf("# read failed\n");
	return pid;
}

static int status_of(pid_t pid)
{
	int st;

	if (waitpid(pid, &st, 0) != pid)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 100 + WTERMSIG(st);
}

int main(void)
{
	int p[2], st;
	pid_t a, b, c, other, z;

	signal(SIGUSR1, SIG_IGN); /* the test itself ignores what it sends */
	if (pipe(p) < 0)
		return 1;

	/* a, b in a's group; other in its own group */
	a = member(0, p);
	b = member(a, p);
	other = member(0, p);
	check(getpgid(b) == a, "setpgid into a sibling's group");
	check(kill(-a, SIGUSR1) == 0, "kill(-pgid) -> 0");
	check(status_of(a) == 42 && status_of(b) == 42, "both members got the signal");
	check(kill(other, 0) == 0, "the process outside the group did not");
	kill(other, SIGKILL);
	check(status_of(other) == 100 + SIGKILL, "(it dies of SIGKILL)");
	errno = 0;
	check(kill(-a, SIGUSR1) == -1 && errno == ESRCH, "a group with no member left -> ESRCH");

	/* kill(0): the caller's own group, from a child that made one */
	c = fork();
	if (c == 0) {
		pid_t g;

		setpgid(0, 0);
		g = member(getpid(), p);
		signal(SIGUSR1, SIG_IGN);
		if (kill(0, SIGUSR1) != 0)
			_exit(1);
		_exit(status_of(g) == 42 ? 0 : 2);
	}
	check(status_of(c) == 0, "kill(0) reaches the caller's group, not the caller (ignored)");

	/* a zombie member still makes the group exist */
	z = fork();
	if (z == 0) {
		setpgid(0, 0);
		_exit(3);
	}
	setpgid(z, z);
	while (waitid(P_PID, z, NULL, WEXITED | WNOWAIT) < 0 && errno == EINTR)
		;
	errno = 0;
	check(kill(-z, SIGUSR1) == 0, "a group whose only member is a zombie -> 0");
	check(waitpid(z, &st, 0) == z && WEXITSTATUS(st) == 3, "the zombie is reaped");
	errno = 0;
	check(kill(-z, SIGUSR1) == -1 && errno == ESRCH, "and then its group is gone -> ESRCH");

	errno = 0;
	check(setpgid(0, 999999) == -1 && errno == EPERM,
	      "setpgid to a group nobody is in -> EPERM");
	printf("1..%d\n", n);
	return 0;
}
