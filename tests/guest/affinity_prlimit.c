/* sched_setaffinity's mask is what sched_getaffinity reports after, for
 * the thread and for another process by pid, and a fork child inherits
 * it (taskset -c 0 nproc said every CPU under skas); prlimit64 reads and
 * sets another process's limits (prlimit --pid was ESRCH for every other
 * pid), with Linux's permission rule and errno order. */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#define TAP_FLUSH
#include "tap.h"

static long prl(pid_t pid, int res, const struct rlimit *nw, struct rlimit *old)
{
	long r = syscall(SYS_prlimit64, pid, res, nw, old);

	return r < 0 ? -errno : r;
}

/* The mask of pid is exactly {cpu}. */
static int only(pid_t pid, int cpu)
{
	cpu_set_t s;

	CPU_ZERO(&s);
	if (sched_getaffinity(pid, sizeof(s), &s) < 0)
		return 0;
	return CPU_COUNT(&s) == 1 && CPU_ISSET(cpu, &s);
}

int main(void)
{
	cpu_set_t all, one;
	int ncpu, p[2], q[2], status;
	struct rlimit r, got;
	pid_t child;
	char c;

	CPU_ZERO(&all);
	check(sched_getaffinity(0, sizeof(all), &all) == 0, "sched_getaffinity");
	ncpu = CPU_COUNT(&all);
	CPU_ZERO(&one);
	CPU_SET(0, &one);
	check(sched_setaffinity(0, sizeof(one), &one) == 0 && only(0, 0),
	      "set to CPU 0: reads back");
	if (pipe(p) < 0 || pipe(q) < 0)
		return 1;
	child = fork();
	if (child == 0) {
		struct rlimit mine;

		c = only(0, 0) ? 'y' : 'n';
		write(q[1], &c, 1);
		read(p[0], &c, 1); /* the parent has set our limit */
		getrlimit(RLIMIT_NOFILE, &mine);
		c = mine.rlim_cur == 50 ? 'y' : 'n';
		write(q[1], &c, 1);
		read(p[0], &c, 1);
		/* unprivileged now: the parent's limits are not ours to read */
		if (setresgid(1000, 1000, 1000) < 0 || setresuid(1000, 1000, 1000) < 0)
			_exit(3);
		c = prl(getppid(), RLIMIT_NOFILE, NULL, &mine) == -EPERM ? 'y' : 'n';
		write(q[1], &c, 1);
		c = prl(getpid(), RLIMIT_NOFILE, NULL, &mine) == 0 ? 'y' : 'n';
		write(q[1], &c, 1);
		_exit(0);
	}
	check(read(q[0], &c, 1) == 1 && c == 'y', "a fork child inherits the mask");
	check(only(child, 0), "the child's mask by its pid");
	if (ncpu > 1) {
		CPU_ZERO(&one);
		CPU_SET(1, &one);
		check(sched_setaffinity(child, sizeof(one), &one) == 0 && only(child, 1) &&
			      only(0, 0),
		      "another process's mask set by pid: its own only");
	} else {
		check(1, "another process's mask set by pid: its own only");
	}
	r.rlim_cur = 50;
	r.rlim_max = 60;
	check(prl(child, RLIMIT_NOFILE, &r, NULL) == 0, "prlimit64 sets the child's limit");
	check(prl(child, RLIMIT_NOFILE, NULL, &got) == 0 && got.rlim_cur == 50 &&
		      got.rlim_max == 60,
	      "and reads it back by pid");
	check(getrlimit(RLIMIT_NOFILE, &got) == 0 && got.rlim_cur != 50, "ours is unchanged");
	write(p[1], "x", 1);
	check(read(q[0], &c, 1) == 1 && c == 'y', "the child sees its new limit");
	check(prl(child, 999, NULL, &got) == -EINVAL, "a bad resource: EINVAL");
	write(p[1], "x", 1);
	check(read(q[0], &c, 1) == 1 && c == 'y', "an unprivileged child: EPERM for its parent");
	check(read(q[0], &c, 1) == 1 && c == 'y', "and its own by pid");
	check(waitpid(child, &status, 0) == child && WIFEXITED(status) && !WEXITSTATUS(status),
	      "the child exits");
	check(prl(child, RLIMIT_NOFILE, NULL, &got) == -ESRCH, "a reaped pid: ESRCH");
	check(prl(child, 999, NULL, &got) == -ESRCH, "ESRCH before EINVAL");
	check(prl(-1, RLIMIT_NOFILE, NULL, &got) == -ESRCH, "pid -1: ESRCH");
	check(prl(0, RLIMIT_NOFILE, NULL, (struct rlimit *)8) == -EFAULT, "EFAULT");
	CPU_ZERO(&one);
	check(sched_setaffinity(0, sizeof(one), &one) == -1 && errno == EINVAL,
	      "an empty mask: EINVAL");
	check(sched_setaffinity(0, sizeof(all), &all) == 0 &&
		      sched_getaffinity(0, sizeof(one), &one) == 0 && CPU_EQUAL(&one, &all),
	      "back to every CPU");
	return 0;
}
