/* ioprio_set and ioprio_get: classes, levels and hints as Linux keeps them
 * (a 16-bit value), the values refused (NONE with a level, classes 4-7,
 * bad "which"), ESRCH, a thread's own priority, inheritance by fork and
 * threads (not of class NONE), a process group's best effective priority
 * (an unset one follows nice), and EPERM for RT and for another user's
 * process without CAP_SYS_NICE. A user's (IOPRIO_WHO_USER) is not asked:
 * natively it spans the host's processes. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "caps.h"
#define TAP_ERR_NAMED
#include "tap.h"

#define WHO_PROCESS	  1
#define WHO_PGRP	  2
#define VAL(class, level) ((class) << 13 | (level))
enum { NONE, RT, BE, IDLE };

static void check_val(long got, long want, const char *what)
{
	if (got == want)
		printf("ok %d - %s: %#lx\n", ++n, what, got);
	else
		printf("not ok %d - %s: got %#lx (errno %d), want %#lx\n", ++n, what, got,
		       got == -1 ? errno : 0, want);
}

static long ioset(int which, int who, int v)
{
	return syscall(SYS_ioprio_set, which, who, v);
}

static long ioget(int which, int who)
{
	return syscall(SYS_ioprio_get, which, who);
}

/* A value's class and level as an exit status, and back. */
#define TO_STATUS(v)   ((int)(((v) >> 13 & 7) << 3 | ((v)&7)))
#define FROM_STATUS(s) VAL((s) >> 3, (s)&7)

/* A child that reports its own ioprio_get(PROCESS, 0) (class and level)
 * as its exit status. */
static int child_ioprio(void)
{
	pid_t pid = fork();
	int st;

	if (pid == 0)
		_exit(TO_STATUS(ioget(WHO_PROCESS, 0)));
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -1;
	return FROM_STATUS(WEXITSTATUS(st));
}

static long thread_got;
static pid_t thread_tid;
static pthread_barrier_t bar;

static void *thread_fn(void *arg)
{
	(void)arg;
	thread_got = ioget(WHO_PROCESS, 0);
	thread_tid = (pid_t)syscall(SYS_gettid);
	pthread_barrier_wait(&bar); /* the main thread sets ours */
	pthread_barrier_wait(&bar);
	thread_got = ioget(WHO_PROCESS, 0);
	return NULL;
}

/* Until /proc/self/task lists this thread alone (at most ~5 s). */
static void wait_one_thread(void)
{
	int tries, k;

	for (tries = 0; tries < 5000; tries++) {
		DIR *d = opendir("/proc/self/task");
		struct dirent *e;

		k = 0;
		while (d && (e = readdir(d)))
			k += e->d_name[0] != '.';
		if (d)
			closedir(d);
		if (k <= 1)
			return;
		usleep(1000);
	}
}

static int run(void)
{
	int p[2], q[2], st;
	pthread_t th;
	pid_t other;
	char c;

	check(setpgid(0, 0) == 0, "our own process group");
	check(setpriority(PRIO_PROCESS, 0, 5) == 0, "nice 5");

	/* values, as kept */
	check(ioset(WHO_PROCESS, 0, VAL(NONE, 0)) == 0, "set NONE");
	check_val(ioget(WHO_PROCESS, 0), 0, "get: 0, not what nice makes");
	check(ioset(WHO_PROCESS, 0, VAL(BE, 3)) == 0, "set BE 3");
	check_val(ioget(WHO_PROCESS, 0), VAL(BE, 3), "get BE 3");
	check(ioset(WHO_PROCESS, getpid(), VAL(IDLE, 7)) == 0, "set IDLE 7 by pid");
	check_val(ioget(WHO_PROCESS, getpid()), VAL(IDLE, 7), "get by pid");
	check(ioset(WHO_PROCESS, 0, VAL(BE, 1) | 5 << 3) == 0, "set BE 1 with hint 5");
	check_val(ioget(WHO_PROCESS, 0), VAL(BE, 1) | 5 << 3, "the hint is kept");
	check(ioset(WHO_PROCESS, 0, 0x10000 | VAL(BE, 2)) == 0, "set bit 16 | BE 2");
	check_val(ioget(WHO_PROCESS, 0), VAL(BE, 2), "16 bits are kept");
	check(ioset(WHO_PROCESS, 0, VAL(NONE, 0) | 1 << 3) == 0, "class NONE with a hint");
	check_val(ioget(WHO_PROCESS, 0), 1 << 3, "is kept");

	/* refused */
	check_err(ioset(WHO_PROCESS, 0, VAL(NONE, 1)), EINVAL, "EINVAL", "NONE at level 1");
	check_err(ioset(WHO_PROCESS, 0, VAL(4, 0)), EINVAL, "EINVAL", "class 4");
	check_err(ioset(WHO_PROCESS, 0, VAL(7, 0)), EINVAL, "EINVAL", "class 7");
	check_err(ioset(WHO_PROCESS, 0, -1), EINVAL, "EINVAL", "-1");
	check_err(ioset(0, 0, VAL(BE, 0)), EINVAL, "EINVAL", "set, which 0");
	check_err(ioset(4, 0, VAL(BE, 0)), EINVAL, "EINVAL", "set, which 4");
	check_err(ioget(0, 0), EINVAL, "EINVAL", "get, which 0");
	check_err(ioget(4, 0), EINVAL, "EINVAL", "get, which 4");
	check_err(ioget(INT_MIN, 0), EINVAL, "EINVAL", "get, which INT_MIN");
	check_err(ioset(INT_MIN, 0, VAL(BE, 0)), EINVAL, "EINVAL", "set, which INT_MIN");
	check_err(ioset(WHO_PROCESS, 999999, VAL(BE, 0)), ESRCH, "ESRCH", "set, no such pid");
	check_err(ioget(WHO_PROCESS, 999999), ESRCH, "ESRCH", "get, no such pid");
	check_err(ioget(WHO_PGRP, 999999), ESRCH, "ESRCH", "get, no such process group");

	/* fork inherits a class, not NONE */
	check(ioset(WHO_PROCESS, 0, VAL(IDLE, 0)) == 0, "set IDLE 0");
	check_val(child_ioprio(), VAL(IDLE, 0), "a child has IDLE 0");
	check(ioset(WHO_PROCESS, 0, 1 << 3) == 0, "set NONE with a hint");
	check_val(child_ioprio(), 0, "a child has 0");

	/* threads: inherit; set by tid, one thread only */
	check(ioset(WHO_PROCESS, 0, VAL(BE, 6)) == 0, "set BE 6");
	pthread_barrier_init(&bar, NULL, 2);
	check(pthread_create(&th, NULL, thread_fn, NULL) == 0, "a thread");
	pthread_barrier_wait(&bar);
	check_val(thread_got, VAL(BE, 6), "the thread has BE 6");
	check(ioset(WHO_PROCESS, thread_tid, VAL(BE, 1)) == 0, "set the thread's BE 1 by tid");
	check_val(ioget(WHO_PROCESS, thread_tid), VAL(BE, 1), "get by tid");
	pthread_barrier_wait(&bar);
	pthread_join(th, NULL);
	/* pthread_join returns once the thread's tid is cleared, before Linux
	 * takes it out of the group: its BE 1 would count there a moment. */
	wait_one_thread();
	check_val(thread_got, VAL(BE, 1), "the thread saw BE 1");
	check_val(ioget(WHO_PROCESS, 0), VAL(BE, 6), "ours is still BE 6");

	/* the process group: the best (lowest) effective value; an unset
	 * one is BE at (nice + 20) / 5 */
	check(pipe(p) == 0, "a pipe");
	other = fork();
	if (other == 0) {
		close(p[1]);
		read(p[0], &c, 1);
		_exit(TO_STATUS(ioget(WHO_PROCESS, 0)));
	}
	check(other > 0, "a child in our group, BE 6");
	check(ioset(WHO_PROCESS, 0, VAL(NONE, 0)) == 0, "ours unset (nice 5: BE 5)");
	check_val(ioget(WHO_PGRP, 0), VAL(BE, 5), "group: BE 5 (ours)");
	check(ioset(WHO_PROCESS, other, VAL(BE, 2)) == 0, "the child's BE 2");
	check_val(ioget(WHO_PGRP, getpgrp()), VAL(BE, 2), "group: BE 2 (the child's)");
	check(ioset(WHO_PROCESS, other, VAL(RT, 7)) == 0, "the child's RT 7");
	check_val(ioget(WHO_PGRP, 0), VAL(RT, 7), "group: RT 7 (class RT first)");
	check(ioset(WHO_PGRP, 0, VAL(IDLE, 3)) == 0, "set the group's IDLE 3");
	check_val(ioget(WHO_PROCESS, 0), VAL(IDLE, 3), "ours is IDLE 3");
	close(p[1]);
	check(waitpid(other, &st, 0) == other && WIFEXITED(st) &&
		      FROM_STATUS(WEXITSTATUS(st)) == VAL(IDLE, 3),
	      "the child's is IDLE 3");
	close(p[0]);

	/* without CAP_SYS_NICE (nor CAP_SYS_ADMIN): RT, and another user's
	 * process, are EPERM */
	check(pipe(p) == 0 && pipe(q) == 0, "two pipes");
	other = fork();
	if (other == 0) {
		close(p[1]);
		if (setresuid(65534, 65534, 65534) != 0)
			_exit(1);
		write(q[1], "u", 1);
		read(p[0], &c, 1);
		_exit(0);
	}
	check(read(q[0], &c, 1) == 1, "a child of another user");
	check(ioset(WHO_PROCESS, other, VAL(BE, 4)) == 0, "as root, its priority");
	check(caps_drop(CAP_SYS_NICE) == 0 && caps_drop(CAP_SYS_ADMIN) == 0,
	      "capset drops CAP_SYS_NICE and CAP_SYS_ADMIN");
	check_err(ioset(WHO_PROCESS, other, VAL(BE, 4)), EPERM, "EPERM", "another user's process");
	check_err(ioset(WHO_PROCESS, 0, VAL(RT, 0)), EPERM, "EPERM", "RT");
	check(ioset(WHO_PROCESS, 0, VAL(BE, 0)) == 0, "BE is still fine");
	close(p[1]);
	waitpid(other, &st, 0);
	close(p[0]);
	return 0;
}

/* The checks run in a child: under skas this program may be pid 1, a
 * session leader, which cannot have a process group of its own. */
int main(void)
{
	pid_t pid;
	int st;

	setvbuf(stdout, NULL, _IOLBF, 0);
	pid = fork();
	if (pid == 0)
		_exit(run());
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return 1;
	return WEXITSTATUS(st);
}
