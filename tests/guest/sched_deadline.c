/* SCHED_DEADLINE (sched_setattr, policy 6; the calls are made raw: musl
 * has no sched_getscheduler) and its admission control: a thread with
 * runtime <= deadline <= period gets the policy and reads its parameters
 * back (sched_getattr, sched_getscheduler, a 0 round-robin interval); the
 * same parameters again change nothing; a deadline task cannot fork or
 * make a thread (EAGAIN) nor narrow its affinity (EBUSY, also for a mask
 * of absent CPUs only); with SCHED_RESET_ON_FORK its child forks as
 * SCHED_OTHER. SCHED_FLAG_KEEP_PARAMS keeps its own flags. Threads each asking
 * for 30% of a CPU are admitted while the total stays within 95% of every
 * CPU (sched_rt_runtime_us / sched_rt_period_us), one more is EBUSY; once
 * they have exited (and a period passed) the bandwidth is free again. A
 * thread whose affinity leaves out a CPU is EPERM; bad parameters are
 * EINVAL; an unprivileged process is EPERM. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#define TAP_FLUSH
#define TAP_ENAME
#include "tap.h"

#ifndef SCHED_DEADLINE
#define SCHED_DEADLINE 6
#endif
#ifndef SCHED_RESET_ON_FORK
#define SCHED_RESET_ON_FORK 0x40000000
#endif
#define SCHED_FLAG_RESET_ON_FORK 0x01
#define SCHED_FLAG_DL_OVERRUN	 0x04
#define SCHED_FLAG_KEEP_PARAMS	 0x10
#define MS			 1000000ULL

struct attr {
	uint32_t size, policy;
	uint64_t flags;
	int32_t nice;
	uint32_t priority;
	uint64_t runtime, deadline, period;
	uint32_t util_min, util_max;
};

static int set_dl(uint64_t runtime, uint64_t deadline, uint64_t period, uint64_t flags)
{
	struct attr a = { .size = sizeof(a),
			  .policy = SCHED_DEADLINE,
			  .flags = flags,
			  .runtime = runtime,
			  .deadline = deadline,
			  .period = period };

	return (int)syscall(SYS_sched_setattr, 0, &a, 0);
}

static int set_other(void)
{
	struct attr a = { .size = sizeof(a), .policy = SCHED_OTHER };

	return (int)syscall(SYS_sched_setattr, 0, &a, 0);
}

static void *nothing(void *arg)
{
	return arg;
}

/* The admission round: n threads each ask for 30%, after all of them
 * exist; the results come back in ok[]. */
static pthread_barrier_t ready, done;
static int results[64];

static void *ask(void *arg)
{
	int i = (int)(intptr_t)arg;

	pthread_barrier_wait(&ready);
	results[i] = set_dl(30 * MS, 100 * MS, 100 * MS, 0) == 0 ? 0 : errno;
	pthread_barrier_wait(&done);
	return NULL;
}

/* How many of n threads got the policy; the others' errors must be EBUSY. */
static int admission_round(int n, int *others_busy)
{
	pthread_t th[64];
	int i, got = 0;

	pthread_barrier_init(&ready, NULL, (unsigned)n + 1);
	pthread_barrier_init(&done, NULL, (unsigned)n + 1);
	for (i = 0; i < n; i++)
		pthread_create(&th[i], NULL, ask, (void *)(intptr_t)i);
	pthread_barrier_wait(&ready);
	pthread_barrier_wait(&done);
	*others_busy = 1;
	for (i = 0; i < n; i++) {
		pthread_join(th[i], NULL);
		if (results[i] == 0)
			got++;
		else if (results[i] != EBUSY)
			*others_busy = 0;
	}
	pthread_barrier_destroy(&ready);
	pthread_barrier_destroy(&done);
	return got;
}

int main(void)
{
	struct attr a;
	struct timespec ts;
	cpu_set_t set;
	pthread_t th;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	int fit, busy, st, err;
	pid_t pid;

	/* 95% of each CPU in 20-bit fixed point, over 30% each */
	fit = (int)((((950000ULL << 20) / 1000000) * (uint64_t)ncpu) /
		    ((30 * MS << 20) / (100 * MS)));
	check(ncpu >= 1 && fit + 1 <= 64, "the CPUs and the threads that fit");

	check_err(set_dl(20 * MS, 10 * MS, 100 * MS, 0), EINVAL, "runtime past the deadline");
	check_err(set_dl(10 * MS, 200 * MS, 100 * MS, 0), EINVAL, "deadline past the period");
	check_err(set_dl(512, 10 * MS, 100 * MS, 0), EINVAL, "runtime under 1024 ns");

	check(set_dl(10 * MS, 30 * MS, 100 * MS, 0) == 0,
	      "sched_setattr SCHED_DEADLINE 10/30/100 ms");
	check((int)syscall(SYS_sched_getscheduler, 0) == SCHED_DEADLINE,
	      "sched_getscheduler: SCHED_DEADLINE");
	memset(&a, 0, sizeof(a));
	check(syscall(SYS_sched_getattr, 0, &a, sizeof(a), 0) == 0 && a.policy == SCHED_DEADLINE &&
		      a.runtime == 10 * MS && a.deadline == 30 * MS && a.period == 100 * MS &&
		      a.flags == 0,
	      "sched_getattr: the policy and its three times");
	check(sched_rr_get_interval(0, &ts) == 0 && ts.tv_sec == 0 && ts.tv_nsec == 0,
	      "sched_rr_get_interval: 0");
	check(set_dl(10 * MS, 30 * MS, 100 * MS, 0) == 0, "the same again: nothing to change");
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.policy = SCHED_DEADLINE;
	a.flags = SCHED_FLAG_KEEP_PARAMS | SCHED_FLAG_DL_OVERRUN;
	a.priority = 5;
	check(syscall(SYS_sched_setattr, 0, &a, 0) == 0,
	      "SCHED_FLAG_KEEP_PARAMS: its own parameters");
	memset(&a, 0, sizeof(a));
	check(syscall(SYS_sched_getattr, 0, &a, sizeof(a), 0) == 0 && a.flags == 0 &&
		      a.runtime == 10 * MS,
	      "and its flags, not the caller's DL_OVERRUN");
	pid = fork();
	if (pid == 0)
		_exit(0);
	err = pid < 0 ? errno : 0;
	if (pid > 0)
		waitpid(pid, NULL, 0);
	check(pid < 0 && err == EAGAIN, "fork: EAGAIN");
	check(pthread_create(&th, NULL, nothing, NULL) == EAGAIN, "pthread_create: EAGAIN");
	if (ncpu > 1) {
		CPU_ZERO(&set);
		CPU_SET(0, &set);
		check_err(sched_setaffinity(0, sizeof(set), &set), EBUSY,
			  "sched_setaffinity to CPU 0");
	} else {
		check(1, "sched_setaffinity to CPU 0 (one CPU: not tried)");
	}
	CPU_ZERO(&set);
	CPU_SET(ncpu + 5 < CPU_SETSIZE ? ncpu + 5 : CPU_SETSIZE - 1, &set);
	check_err(sched_setaffinity(0, sizeof(set), &set), EBUSY,
		  "sched_setaffinity to a CPU that is not there");

	check(set_dl(10 * MS, 30 * MS, 100 * MS, SCHED_FLAG_RESET_ON_FORK) == 0,
	      "SCHED_FLAG_RESET_ON_FORK");
	check((int)syscall(SYS_sched_getscheduler, 0) == (SCHED_DEADLINE | SCHED_RESET_ON_FORK),
	      "sched_getscheduler: SCHED_DEADLINE | SCHED_RESET_ON_FORK");
	pid = fork();
	if (pid == 0)
		_exit((int)syscall(SYS_sched_getscheduler, 0) == SCHED_OTHER ? 0 : 1);
	check(pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	      "then fork works, the child SCHED_OTHER");
	check(set_other() == 0 && (int)syscall(SYS_sched_getscheduler, 0) == SCHED_OTHER,
	      "back to SCHED_OTHER");

	check(admission_round(fit + 1, &busy) == fit && busy,
	      "threads asking 30% each: as many as fit in 95% of the CPUs, the next EBUSY");
	ts.tv_sec = 0;
	ts.tv_nsec = 500 * 1000000L;
	nanosleep(&ts, NULL);
	check(admission_round(fit, &busy) == fit && busy, "after they exited: as many again");

	if (ncpu > 1) {
		CPU_ZERO(&set);
		CPU_SET(0, &set);
		check(sched_setaffinity(0, sizeof(set), &set) == 0, "affinity to CPU 0");
		check_err(set_dl(10 * MS, 30 * MS, 100 * MS, 0), EPERM,
			  "SCHED_DEADLINE with an affinity short of the CPUs");
		for (int i = 0; i < ncpu && i < CPU_SETSIZE; i++)
			CPU_SET(i, &set);
		sched_setaffinity(0, sizeof(set), &set);
	} else {
		check(1, "affinity to CPU 0 (one CPU: not tried)");
		check(1, "SCHED_DEADLINE with an affinity short of the CPUs (not tried)");
	}

	pid = fork();
	if (pid == 0) {
		if (setuid(65534) != 0)
			_exit(2);
		_exit(set_dl(10 * MS, 30 * MS, 100 * MS, 0) == -1 && errno == EPERM ? 0 : 1);
	}
	check(pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	      "an unprivileged process: EPERM");
	return 0;
}
