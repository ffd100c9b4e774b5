/* Clocks and getrandom. Raw syscalls for the clock errno cases: the libc
 * wrappers go through the vDSO natively. */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/time.h>

#define TAP_ERR_RET
#include "tap.h"

#ifndef GRND_NONBLOCK
#define GRND_NONBLOCK 1
#define GRND_RANDOM   2
#endif

static int valid(const struct timespec *t)
{
	return t->tv_sec >= 0 && t->tv_nsec >= 0 && t->tv_nsec < 1000000000L;
}

static int le(const struct timespec *a, const struct timespec *b)
{
	return a->tv_sec < b->tv_sec || (a->tv_sec == b->tv_sec && a->tv_nsec <= b->tv_nsec);
}

static void clock_ok(clockid_t id, const char *name)
{
	struct timespec a, b;
	char what[96];
	long r1, r2;

	r1 = syscall(SYS_clock_gettime, id, &a);
	r2 = syscall(SYS_clock_gettime, id, &b);
	snprintf(what, sizeof what, "%s: raw clock_gettime works, valid and non-decreasing", name);
	check(r1 == 0 && r2 == 0 && valid(&a) && valid(&b) && le(&a, &b), what);
}

static void on_alarm(int sig)
{
	(void)sig;
}

int main(void)
{
	struct timespec m1, m2, rt;
	struct timeval tv;
	unsigned char r1[16], r2[16];
	time_t now;
	long r;
	int i, ok;

	check(clock_gettime(CLOCK_MONOTONIC, &m1) == 0, "clock_gettime(CLOCK_MONOTONIC)");
	ok = 1;
	for (i = 0; i < 1000; i++) {
		if (clock_gettime(CLOCK_MONOTONIC, &m2) != 0 || !valid(&m2) || !le(&m1, &m2))
			ok = 0;
		m1 = m2;
	}
	check(ok, "CLOCK_MONOTONIC is non-decreasing over 1000 reads");

	check(clock_gettime(CLOCK_REALTIME, &rt) == 0 && valid(&rt),
	      "clock_gettime(CLOCK_REALTIME)");
	now = time(NULL);
	/* time() reads the coarse clock, up to a tick behind: -1 happens
	 * when a second starts between the two reads. */
	check(now - rt.tv_sec >= -1 && now - rt.tv_sec <= 2,
	      "CLOCK_REALTIME is within 2 s of time(NULL)");
	check(rt.tv_sec > 1600000000L, "CLOCK_REALTIME is after 2020");
	check(gettimeofday(&tv, NULL) == 0, "gettimeofday");
	check(tv.tv_usec >= 0 && tv.tv_usec < 1000000, "gettimeofday: tv_usec in range");
	check(tv.tv_sec - rt.tv_sec >= 0 && tv.tv_sec - rt.tv_sec <= 2,
	      "gettimeofday is within 2 s of CLOCK_REALTIME");
	r = syscall(SYS_gettimeofday, &tv, NULL);
	check(r == 0 && tv.tv_sec - rt.tv_sec >= 0 && tv.tv_sec - rt.tv_sec <= 2,
	      "raw gettimeofday");
	check(syscall(SYS_gettimeofday, NULL, NULL) == 0, "raw gettimeofday(NULL, NULL) returns 0");

	clock_ok(CLOCK_REALTIME, "CLOCK_REALTIME");
	clock_ok(CLOCK_MONOTONIC, "CLOCK_MONOTONIC");
	clock_ok(CLOCK_MONOTONIC_RAW, "CLOCK_MONOTONIC_RAW");
	clock_ok(CLOCK_REALTIME_COARSE, "CLOCK_REALTIME_COARSE");
	clock_ok(CLOCK_MONOTONIC_COARSE, "CLOCK_MONOTONIC_COARSE");
	clock_ok(CLOCK_BOOTTIME, "CLOCK_BOOTTIME");
	clock_ok(CLOCK_PROCESS_CPUTIME_ID, "CLOCK_PROCESS_CPUTIME_ID");
	clock_ok(CLOCK_THREAD_CPUTIME_ID, "CLOCK_THREAD_CPUTIME_ID");

	errno = 0;
	check_err(syscall(SYS_clock_gettime, 1000, &rt), EINVAL, "clock_gettime(1000)");
	errno = 0;
	check_err(syscall(SYS_clock_gettime, 16, &rt), EINVAL, "clock_gettime(16)");
	errno = 0;
	check_err(clock_gettime((clockid_t)1000, &rt), EINVAL, "libc clock_gettime(1000)");

	/* getrandom */
	memset(r1, 0, sizeof r1);
	memset(r2, 0, sizeof r2);
	check(syscall(SYS_getrandom, r1, 16, 0) == 16, "getrandom 16 bytes returns 16");
	check(syscall(SYS_getrandom, r2, 16, GRND_NONBLOCK) == 16,
	      "getrandom GRND_NONBLOCK returns 16");
	check(memcmp(r1, r2, 16) != 0, "two getrandom results differ");
	check(syscall(SYS_getrandom, r2, 0, 0) == 0, "getrandom of 0 bytes returns 0");
	check(syscall(SYS_getrandom, r2, 16, GRND_RANDOM) == 16,
	      "getrandom GRND_RANDOM returns 16");
	errno = 0;
	check_err(syscall(SYS_getrandom, r1, 16, 0x100), EINVAL, "getrandom with bad flags");
	{
		static unsigned char big[1 << 16];
		check(syscall(SYS_getrandom, big, sizeof big, 0) == (long)sizeof big,
		      "getrandom of 64 KiB returns 64 KiB");
	}
	{
		struct timespec zero = { 0, 0 };

		check(clock_nanosleep(CLOCK_MONOTONIC_RAW, 0, &zero, NULL) == EOPNOTSUPP &&
			      clock_nanosleep(CLOCK_MONOTONIC_COARSE, 0, &zero, NULL) ==
				      EOPNOTSUPP &&
			      clock_nanosleep(CLOCK_REALTIME_COARSE, 0, &zero, NULL) == EOPNOTSUPP,
		      "clock_nanosleep on a clock without sleeps: EOPNOTSUPP");
		check(clock_nanosleep(CLOCK_THREAD_CPUTIME_ID, 0, &zero, NULL) == EINVAL,
		      "clock_nanosleep on the caller's thread CPU clock: EINVAL");
		check(clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &zero, NULL) == 0,
		      "clock_nanosleep to an absolute time in the past: 0");
	}
	{
		/* the longest sleeps: until a signal (the deadline once
		 * overflowed and the sleep ended at once) */
		struct timespec far = { 9223372035, 999999999 };
		struct sigaction sa;

		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_alarm;
		sigaction(SIGALRM, &sa, NULL);
		alarm(1);
		errno = 0;
		check(syscall(SYS_nanosleep, &far, NULL) == -1 && errno == EINTR,
		      "nanosleep for 9223372035.999999999 s: until a signal (EINTR)");
		alarm(1);
		check(clock_nanosleep(CLOCK_MONOTONIC, 0, &far, NULL) == EINTR,
		      "clock_nanosleep for as long: the same");
		alarm(1);
		check(clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &far, NULL) == EINTR,
		      "and to that absolute time");
	}
	return 0;
}
