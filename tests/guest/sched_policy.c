/* Scheduling policies and priorities: sched_setscheduler, sched_setparam,
 * sched_setattr and their getters, per thread; the range and policy checks;
 * SCHED_RESET_ON_FORK; sched_rr_get_interval; setpriority per thread and
 * what /proc/PID/stat shows; and for an unprivileged caller (a child that
 * drops to uid 54321, which no other process has) RLIMIT_NICE and
 * RLIMIT_RTPRIO of 0 (raising them needs CAP_SYS_RESOURCE, which a
 * container's root may lack) and the owner rules. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "tap.h"

#ifndef SCHED_RESET_ON_FORK
#define SCHED_RESET_ON_FORK 0x40000000
#endif
#ifndef SCHED_IDLE
#define SCHED_IDLE 5
#endif
#ifndef SCHED_BATCH
#define SCHED_BATCH 3
#endif

struct attr {
	uint32_t size, policy;
	uint64_t flags;
	int32_t nice;
	uint32_t prio;
	uint64_t runtime, deadline, period;
	uint32_t util_min, util_max;
};

static void expect(long r, int want, const char *what)
{
	int e = r < 0 ? errno : 0;

	printf("%s %d - %s\n", e == want ? "ok" : "not ok", ++n, what);
	if (e != want)
		printf("# got %s, want %s\n", e ? strerror(e) : "0", want ? strerror(want) : "0");
}

static void expect_val(long r, long want, const char *what)
{
	printf("%s %d - %s\n", r == want ? "ok" : "not ok", ++n, what);
	if (r != want)
		printf("# got %ld, want %ld\n", r, want);
}

/* glibc's and musl's wrappers differ (musl's sched_setscheduler is
 * ENOSYS): the system calls themselves. */
static long setsched(int pid, int policy, int prio)
{
	struct sched_param sp = { .sched_priority = prio };

	return syscall(SYS_sched_setscheduler, pid, policy, &sp);
}

static long setparam(int pid, int prio)
{
	struct sched_param sp = { .sched_priority = prio };

	return syscall(SYS_sched_setparam, pid, &sp);
}

static long getsched(int pid)
{
	return syscall(SYS_sched_getscheduler, pid);
}

static long getparam(int pid)
{
	struct sched_param sp = { .sched_priority = -1 };

	return syscall(SYS_sched_getparam, pid, &sp) < 0 ? -1 : sp.sched_priority;
}

static long setattr(int pid, struct attr *a, unsigned flags)
{
	return syscall(SYS_sched_setattr, pid, a, flags);
}

static long getattr(int pid, struct attr *a, unsigned size)
{
	memset(a, 0xff, sizeof(*a));
	return syscall(SYS_sched_getattr, pid, a, size, 0);
}

/* The system call's value, 20 - nice (the libcs' wrappers return nice). */
static long getprio(int which, int who)
{
	return syscall(SYS_getpriority, which, who);
}

static long getnice(int tid)
{
	return getprio(PRIO_PROCESS, tid);
}

/* Fields 18 (priority), 19 (nice), 40 (rt_priority), 41 (policy) of
 * /proc/self/task/TID/stat, as one string. */
static void stat_fields(int tid, char *out, size_t len)
{
	char path[64], buf[1024], *s;
	long f[64];
	FILE *fp;
	int i;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", tid);
	fp = fopen(path, "r");
	out[0] = 0;
	if (!fp)
		return;
	if (!fgets(buf, sizeof(buf), fp) || !(s = strrchr(buf, ')'))) {
		fclose(fp);
		return;
	}
	fclose(fp);
	s += 2;
	for (i = 3; i <= 41 && *s; i++) {
		f[i] = strtol(s, &s, 10);
		if (i == 3) /* the state letter */
			f[i] = 0, s = strchr(s, ' ');
		while (*s == ' ')
			s++;
	}
	snprintf(out, len, "%ld %ld %ld %ld", f[18], f[19], f[40], f[41]);
}

static void expect_stat(const char *want, const char *what)
{
	char got[128];

	stat_fields((int)syscall(SYS_gettid), got, sizeof(got));
	printf("%s %d - /proc stat priority, nice, rt_priority, policy: %s\n",
	       strcmp(got, want) ? "not ok" : "ok", ++n, what);
	if (strcmp(got, want))
		printf("# got %s, want %s\n", got, want);
}

static void ranges(void)
{
	struct attr a;
	static const int pol[] = { SCHED_OTHER, SCHED_FIFO, SCHED_RR, SCHED_BATCH, SCHED_IDLE, 6 };
	static const int maxp[] = { 0, 99, 99, 0, 0, 0 }, minp[] = { 0, 1, 1, 0, 0, 0 };
	char what[64];
	int i;

	for (i = 0; i < 6; i++) {
		snprintf(what, sizeof(what), "priority range of policy %d", pol[i]);
		check(sched_get_priority_max(pol[i]) == maxp[i] &&
			      sched_get_priority_min(pol[i]) == minp[i],
		      what);
	}
	expect(sched_get_priority_max(4), EINVAL, "priority max of policy 4");
	expect(sched_get_priority_min(-1), EINVAL, "priority min of policy -1");
	expect(sched_get_priority_max(8), EINVAL, "priority max of policy 8");
	expect_val(getsched(0), SCHED_OTHER, "SCHED_OTHER at start");
	expect_val(getparam(0), 0, "priority 0 at start");
	expect(getattr(0, &a, sizeof(a)), 0, "sched_getattr");
	check(a.size == sizeof(a) && a.policy == 0 && a.flags == 0 && a.nice == 0 && a.prio == 0,
	      "sched_getattr: size, SCHED_OTHER, nice 0, priority 0");
	expect(getsched(-1), EINVAL, "getscheduler pid -1");
	expect(getsched(999999), ESRCH, "getscheduler of no one");
	expect(syscall(SYS_sched_getparam, 0, NULL), EINVAL, "getparam NULL");
	expect(syscall(SYS_sched_getparam, 0, (void *)8), EFAULT, "getparam of a bad pointer");
	expect(syscall(SYS_sched_setscheduler, 0, SCHED_OTHER, NULL), EINVAL, "setscheduler NULL");
	expect(syscall(SYS_sched_setscheduler, 0, SCHED_OTHER, (void *)8), EFAULT,
	       "setscheduler of a bad pointer");
	expect(setsched(-1, SCHED_OTHER, 0), EINVAL, "setscheduler pid -1");
	expect(setsched(999999, SCHED_OTHER, 0), ESRCH, "setscheduler of no one");
	expect(setsched(0, -1, 0), EINVAL, "policy -1");
	expect(setsched(0, 4, 0), EINVAL, "policy 4");
	expect(setsched(0, SCHED_OTHER, 1), EINVAL, "SCHED_OTHER priority 1");
	expect(setsched(0, SCHED_FIFO, 0), EINVAL, "SCHED_FIFO priority 0");
	expect(setsched(0, SCHED_FIFO, 100), EINVAL, "SCHED_FIFO priority 100");
	expect(setsched(0, SCHED_FIFO, -1), EINVAL, "SCHED_FIFO priority -1");
	expect(setsched(0, 6, 0), EINVAL, "SCHED_DEADLINE through setscheduler");
	expect(setparam(0, 1), EINVAL, "setparam 1 under SCHED_OTHER");
	expect(setparam(0, 0), 0, "setparam 0 under SCHED_OTHER");
}

static void policies(void)
{
	struct timespec ts;
	struct attr a;
	pid_t pid;
	int st;

	expect(setsched(0, SCHED_FIFO, 10), 0, "SCHED_FIFO 10");
	expect_val(getsched(0), SCHED_FIFO, "getscheduler");
	expect_val(getparam(0), 10, "getparam");
	expect_stat("-11 0 10 1", "SCHED_FIFO 10");
	expect(getattr(0, &a, sizeof(a)), 0, "sched_getattr");
	check(a.policy == SCHED_FIFO && a.prio == 10 && a.nice == 0 && a.runtime == 0 &&
		      a.flags == 0,
	      "sched_getattr: SCHED_FIFO 10");
	expect(sched_rr_get_interval(0, &ts), 0, "rr_get_interval");
	check(ts.tv_sec == 0 && ts.tv_nsec == 0, "SCHED_FIFO: 0");
	expect(setparam(0, 20), 0, "setparam 20");
	expect_val(getparam(0), 20, "getparam");
	expect(setparam(0, 0), EINVAL, "setparam 0 under SCHED_FIFO");
	expect(setsched(0, SCHED_RR | SCHED_RESET_ON_FORK, 5), 0, "SCHED_RR|SCHED_RESET_ON_FORK 5");
	expect_val(getsched(0), SCHED_RR | SCHED_RESET_ON_FORK, "getscheduler shows the flag");
	expect(getattr(0, &a, sizeof(a)), 0, "sched_getattr");
	check(a.policy == SCHED_RR && a.prio == 5 && a.flags == 1, "sched_getattr: the flag");
	expect(sched_rr_get_interval(0, &ts), 0, "rr_get_interval");
	check(ts.tv_sec == 0 && ts.tv_nsec == 100000000, "SCHED_RR: 100 ms");
	expect(sched_rr_get_interval(-1, &ts), EINVAL, "rr_get_interval of pid -1");
	expect(sched_rr_get_interval(999999, &ts), ESRCH, "rr_get_interval of no one");
	fflush(stdout);
	pid = fork();
	if (pid == 0)
		_exit(getsched(0) == SCHED_OTHER && getparam(0) == 0 && getnice(0) == 20 ? 0 : 1);
	check(pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	      "the fork child is SCHED_OTHER, priority 0, nice 0");
	expect(setparam(0, 7), 0, "setparam keeps the flag");
	expect_val(getsched(0), SCHED_RR | SCHED_RESET_ON_FORK, "getscheduler");
	expect(setsched(0, SCHED_OTHER, 0), 0, "back to SCHED_OTHER (root clears the flag)");
	expect_val(getsched(0), SCHED_OTHER, "getscheduler");

	/* sched_setattr */
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.nice = -5;
	expect(setattr(0, &a, 0), 0, "setattr SCHED_OTHER nice -5");
	expect_val(getnice(0), 25, "getpriority: 20 - nice");
	expect_stat("15 -5 0 0", "nice -5");
	a.nice = -100;
	expect(setattr(0, &a, 0), 0, "setattr nice -100");
	expect_val(getnice(0), 40, "is clamped to -20");
	a.nice = 0;
	expect(setattr(0, &a, 1), EINVAL, "setattr flags 1");
	expect(setattr(-1, &a, 0), EINVAL, "setattr pid -1");
	expect(setattr(0, NULL, 0), EINVAL, "setattr NULL");
	expect(setattr(0, (void *)8, 0), EFAULT, "setattr of a bad pointer");
	expect(setattr(999999, &a, 0), ESRCH, "setattr of no one");
	a.size = 0;
	expect(setattr(0, &a, 0), 0, "size 0 is the first version's");
	expect_val(getnice(0), 20, "nice 0");
	a.size = 47;
	expect(setattr(0, &a, 0), E2BIG, "size 47");
	expect_val(a.size, 56, "E2BIG writes back the size the kernel knows");
	{
		char big[80] = { 0 };

		memcpy(big, &a, sizeof(a));
		((struct attr *)big)->size = sizeof(big);
		expect(setattr(0, (struct attr *)big, 0), 0, "a bigger size, zeros past the end");
		big[70] = 1;
		expect(setattr(0, (struct attr *)big, 0), E2BIG, "non-zero past the end");
		expect_val(((struct attr *)big)->size, 56, "and the size written back");
	}
	a.size = 4097;
	expect(setattr(0, &a, 0), E2BIG, "size 4097");
	a.size = sizeof(a);
	a.flags = 0x80;
	expect(setattr(0, &a, 0), EINVAL, "sched_flags 0x80");
	a.flags = 0x10000000;
	expect(setattr(0, &a, 0), EINVAL, "SCHED_FLAG_SUGOV");
	a.flags = 0;
	a.policy = 6;
	expect(setattr(0, &a, 0), EINVAL, "SCHED_DEADLINE without parameters");
	a.runtime = 2000000;
	a.deadline = 1000000;
	expect(setattr(0, &a, 0), EINVAL, "SCHED_DEADLINE runtime > deadline");
	a.policy = 7 + 1;
	expect(setattr(0, &a, 0), EINVAL, "policy 8");
	a.policy = (uint32_t)-1;
	expect(setattr(0, &a, 0), EINVAL, "policy -1");
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.policy = SCHED_FIFO;
	a.prio = 30;
	expect(setattr(0, &a, 0), 0, "setattr SCHED_FIFO 30");
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.flags = 0x18; /* SCHED_FLAG_KEEP_ALL */
	expect(setattr(0, &a, 0), 0, "setattr keeping policy and parameters");
	expect_val(getparam(0), 30, "still priority 30");
	a.flags = 0x08; /* SCHED_FLAG_KEEP_POLICY */
	a.prio = 40;
	expect(setattr(0, &a, 0), 0, "setattr keeping the policy");
	expect_val(getsched(0) * 1000 + getparam(0), SCHED_FIFO * 1000 + 40, "SCHED_FIFO 40");
	expect(getattr(0, &a, 47), EINVAL, "getattr size 47");
	expect(getattr(0, &a, 4097), EINVAL, "getattr size 4097");
	expect(syscall(SYS_sched_getattr, 0, &a, sizeof(a), 1), EINVAL, "getattr flags 1");
	expect(getattr(0, &a, 48), 0, "getattr size 48");
	check(a.size == 48 && a.policy == SCHED_FIFO && a.prio == 40 && a.util_min == 0xffffffff,
	      "48 bytes written, the size says so");
	{
		static struct attr page[4096 / sizeof(struct attr) + 1];

		expect(syscall(SYS_sched_getattr, 0, page, 4096, 0), 0, "getattr size 4096");
		expect_val(page[0].size, 56, "the size the kernel knows");
	}
	expect(setsched(0, SCHED_BATCH, 0), 0, "SCHED_BATCH");
	expect_stat("20 0 0 3", "SCHED_BATCH");
	expect(setsched(0, SCHED_IDLE, 0), 0, "SCHED_IDLE");
	expect_val(getsched(0), SCHED_IDLE, "getscheduler");
	expect(setsched(0, SCHED_OTHER, 0), 0, "SCHED_OTHER");
}

static int thread_tid;
static volatile int thread_go;

static void *thread_fn(void *arg)
{
	(void)arg;
	thread_tid = (int)syscall(SYS_gettid);
	while (!thread_go)
		usleep(1000);
	return NULL;
}

static void threads(void)
{
	pthread_t th;

	check(setpgid(0, 0) == 0 || getpgrp() == getpid(), "a process group of its own");
	expect(setpriority(PRIO_PROCESS, 0, 3), 0, "nice 3");
	check(pthread_create(&th, NULL, thread_fn, NULL) == 0, "a thread");
	while (!__atomic_load_n(&thread_tid, __ATOMIC_SEQ_CST))
		usleep(1000);
	expect_val(getnice(thread_tid), 17, "the thread has its creator's nice");
	expect(setpriority(PRIO_PROCESS, thread_tid, 6), 0, "the thread's nice to 6");
	expect_val(getnice(thread_tid), 14, "the thread's nice");
	expect_val(getnice(0), 17, "the caller's is its own");
	expect(setsched(thread_tid, SCHED_RR, 3), 0, "the thread to SCHED_RR");
	expect_val(getsched(thread_tid), SCHED_RR, "the thread's policy");
	expect_val(getsched(0), SCHED_OTHER, "the caller's");
	expect_val(getprio(PRIO_PGRP, 0), 17, "PRIO_PGRP: the highest of its threads");
	expect(setpriority(PRIO_PGRP, 0, 2), 0, "PRIO_PGRP: all threads");
	expect_val(getnice(thread_tid), 18, "the thread's nice");
	expect(setpriority(PRIO_PGRP, 0, 0), 0, "PRIO_PGRP: back to 0");
	expect(setpriority(3, 0, 0), EINVAL, "which 3");
	expect(setpriority(PRIO_PROCESS, 999999, 0), ESRCH, "setpriority of no one");
	expect(getprio(PRIO_PROCESS, 999999), ESRCH, "getpriority of no one");
	expect(getprio(PRIO_USER, 4242), ESRCH, "getpriority of a user with no process");
	thread_go = 1;
	pthread_join(th, NULL);
}

/* A child as uid 54321 (no CAP_SYS_NICE) with RLIMIT_NICE and
 * RLIMIT_RTPRIO as given. */
static void unprivileged(int rlim_nice, int rlim_rtprio)
{
	struct rlimit rn = { rlim_nice, rlim_nice }, rr = { rlim_rtprio, rlim_rtprio };
	int parent = getpid(), st;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		struct attr a;

		if (setrlimit(RLIMIT_NICE, &rn) || setrlimit(RLIMIT_RTPRIO, &rr) || setuid(54321)) {
			printf("not ok - drop privileges: %s\n", strerror(errno));
			_exit(1);
		}
		printf("# RLIMIT_NICE %d, RLIMIT_RTPRIO %d\n", rlim_nice, rlim_rtprio);
		expect(setpriority(PRIO_PROCESS, 0, 5), 0, "nice 5");
		expect(setpriority(PRIO_PROCESS, 0, 4), rlim_nice >= 16 ? 0 : EACCES, "nice 4");
		expect(setpriority(PRIO_PROCESS, 0, -10), rlim_nice >= 30 ? 0 : EACCES, "nice -10");
		expect(setpriority(PRIO_PROCESS, 0, -11), EACCES, "nice -11");
		expect(setpriority(PRIO_PROCESS, parent, 10), EPERM, "another user's process");
		expect(setsched(parent, SCHED_OTHER, 0), EPERM, "another user's policy");
		expect_val(getsched(parent), SCHED_OTHER, "another user's policy can be read");
		setpriority(PRIO_PROCESS, 0, 5);
		memset(&a, 0, sizeof(a));
		a.size = sizeof(a);
		a.nice = 4;
		expect(setattr(0, &a, 0), rlim_nice >= 16 ? 0 : EPERM, "setattr nice 4");
		a.nice = 6;
		expect(setattr(0, &a, 0), 0, "setattr nice 6");
		expect(setsched(0, SCHED_FIFO, 1), rlim_rtprio ? 0 : EPERM, "SCHED_FIFO 1");
		expect(setsched(0, SCHED_FIFO, 11), EPERM, "SCHED_FIFO 11");
		if (rlim_rtprio) {
			expect(setparam(0, 10), 0, "setparam 10");
			expect(setsched(0, SCHED_RR | SCHED_RESET_ON_FORK, 10), 0,
			       "SCHED_RR|SCHED_RESET_ON_FORK");
			expect(setsched(0, SCHED_RR, 10), EPERM, "clearing SCHED_RESET_ON_FORK");
			expect(setparam(0, 9), 0, "setparam keeps it");
			expect(setsched(0, SCHED_OTHER | SCHED_RESET_ON_FORK, 0), 0,
			       "back to SCHED_OTHER");
		}
		expect(setpriority(PRIO_USER, 0, 7), 0, "PRIO_USER: the caller's threads");
		expect_val(getprio(PRIO_USER, 0), 13, "PRIO_USER: nice 7");
		expect(setpriority(PRIO_USER, 0, 6), EACCES, "PRIO_USER: nice 6");
		expect(setsched(0, SCHED_BATCH, 0), 0, "SCHED_BATCH");
		expect(setsched(0, SCHED_IDLE, 0), 0, "SCHED_IDLE");
		expect(setsched(0, SCHED_OTHER, 0), rlim_nice >= 14 ? 0 : EPERM,
		       "out of SCHED_IDLE (as nice 6)");
		memset(&a, 0, sizeof(a));
		a.size = sizeof(a);
		a.policy = 6;
		a.runtime = 1000000;
		a.deadline = a.period = 10000000;
		expect(setattr(0, &a, 0), EPERM, "SCHED_DEADLINE");
		fflush(stdout);
		_exit(0);
	}
	check(pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	      "the unprivileged child");
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	ranges();
	policies();
	threads();
	unprivileged(0, 0);
	return 0;
}
