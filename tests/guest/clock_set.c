/* settimeofday and clock_settime: every check Linux makes before it asks
 * for CAP_SYS_TIME (clocks that cannot be set, bad pointers, times out of
 * range, CPU-time clocks of no task, fd clocks of no fd), then EPERM once
 * CAP_SYS_TIME is dropped from the effective set. With the capability
 * nothing is tried: natively as root it would change the machine's clock
 * (under skas it is EPERM even then: scenario processes.sh). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/time.h>

#include "caps.h"
#define TAP_ERR_NAMED
#include "tap.h"

static long settime(clockid_t clk, const struct timespec *ts)
{
	return syscall(SYS_clock_settime, clk, ts);
}

static long settod(const struct timeval *tv, const void *tz)
{
	return syscall(SYS_settimeofday, tv, tz);
}

int main(void)
{
	struct timespec ok = { 1000000000, 0 }, ts;
	struct timeval tv = { 1000000000, 0 };
	void *bad = (void *)8;
	clockid_t self_clock;
	int fdclk = (int)((~(clockid_t)1000) << 3 | 3); /* FD_TO_CLOCKID(1000) */

	setvbuf(stdout, NULL, _IOLBF, 0);

	/* clocks that cannot be set: the clock is checked before the pointer */
	check_err(settime(CLOCK_MONOTONIC, &ok), EINVAL, "EINVAL",
		  "clock_settime(CLOCK_MONOTONIC)");
	check_err(settime(CLOCK_MONOTONIC, bad), EINVAL, "EINVAL",
		  "clock_settime(CLOCK_MONOTONIC, bad pointer)");
	check_err(settime(CLOCK_BOOTTIME, &ok), EINVAL, "EINVAL", "clock_settime(CLOCK_BOOTTIME)");
	check_err(settime(CLOCK_TAI, &ok), EINVAL, "EINVAL", "clock_settime(CLOCK_TAI)");
	check_err(settime(CLOCK_MONOTONIC_RAW, &ok), EINVAL, "EINVAL",
		  "clock_settime(CLOCK_MONOTONIC_RAW)");
	check_err(settime(CLOCK_REALTIME_COARSE, &ok), EINVAL, "EINVAL",
		  "clock_settime(CLOCK_REALTIME_COARSE)");
	check_err(settime(CLOCK_PROCESS_CPUTIME_ID, &ok), EINVAL, "EINVAL",
		  "clock_settime(CLOCK_PROCESS_CPUTIME_ID)");
	check_err(settime(CLOCK_THREAD_CPUTIME_ID, &ok), EINVAL, "EINVAL",
		  "clock_settime(CLOCK_THREAD_CPUTIME_ID)");
	check_err(settime(100, &ok), EINVAL, "EINVAL", "clock_settime(100)");

	/* CLOCK_REALTIME: the pointer, then the time */
	check_err(settime(CLOCK_REALTIME, NULL), EFAULT, "EFAULT", "clock_settime(REALTIME, NULL)");
	check_err(settime(CLOCK_REALTIME, bad), EFAULT, "EFAULT",
		  "clock_settime(REALTIME, bad pointer)");
	ts = (struct timespec){ -1, 0 };
	check_err(settime(CLOCK_REALTIME, &ts), EINVAL, "EINVAL", "a negative time");
	ts = (struct timespec){ 0, 1000000000 };
	check_err(settime(CLOCK_REALTIME, &ts), EINVAL, "EINVAL", "tv_nsec 10^9");
	ts = (struct timespec){ 0, -1 };
	check_err(settime(CLOCK_REALTIME, &ts), EINVAL, "EINVAL", "tv_nsec -1");
	ts = (struct timespec){ 9223372036LL - 30LL * 365 * 24 * 3600, 0 };
	check_err(settime(CLOCK_REALTIME, &ts), EINVAL, "EINVAL",
		  "30 years short of ktime_t's end");

	/* CPU-time clocks of no task, fd clocks of no fd: the pointer first */
	check_err(settime((~(clockid_t)999999) << 3 | 2, &ok), EINVAL, "EINVAL",
		  "the CPU clock of no process");
	check_err(settime((~(clockid_t)999999) << 3 | 2, bad), EFAULT, "EFAULT",
		  "the CPU clock of no process, bad pointer");
	check_err(settime((~(clockid_t)0) << 3 | 3, &ok), EINVAL, "EINVAL",
		  "CPU clock type 3 (none)");
	check_err(settime(fdclk, &ok), EINVAL, "EINVAL", "the fd clock of a closed fd");
	check_err(settime(fdclk, bad), EFAULT, "EFAULT",
		  "the fd clock of a closed fd, bad pointer");

	/* settimeofday: tv, its microseconds, tz, then the time */
	check_err(settod(bad, NULL), EFAULT, "EFAULT", "settimeofday(bad pointer)");
	tv = (struct timeval){ 1000000000, 1000001 };
	check_err(settod(&tv, bad), EINVAL, "EINVAL", "tv_usec 10^6+1 (before tz is read)");
	tv = (struct timeval){ 1000000000, -1 };
	check_err(settod(&tv, NULL), EINVAL, "EINVAL", "tv_usec -1");
	tv = (struct timeval){ 1000000000, 1000000 };
	check_err(settod(&tv, bad), EINVAL, "EINVAL", "tv_usec 10^6 (before tz is read)");
	check_err(settod(&tv, NULL), EINVAL, "EINVAL", "tv_usec 10^6");
	tv = (struct timeval){ 1000000000, 999999 };
	check_err(settod(&tv, bad), EFAULT, "EFAULT", "tv_usec 999999; bad tz");
	tv = (struct timeval){ -1, 0 };
	check_err(settod(&tv, NULL), EINVAL, "EINVAL", "a negative time");
	check_err(settod(NULL, bad), EFAULT, "EFAULT", "settimeofday(NULL, bad tz)");

	/* Without CAP_SYS_TIME: EPERM, whatever is asked */
	check(caps_drop(CAP_SYS_TIME) == 0, "capset drops CAP_SYS_TIME from the effective set");
	if (caps_has(CAP_SYS_TIME) != 0) {
		check(0, "CAP_SYS_TIME is gone (not trying to set the clock)");
		return 1;
	}
	check_err(settime(CLOCK_REALTIME, &ok), EPERM, "EPERM", "clock_settime(CLOCK_REALTIME)");
	check_err(settod(&tv, NULL), EINVAL, "EINVAL", "a bad time is still EINVAL first");
	tv = (struct timeval){ 1000000000, 0 };
	check_err(settod(&tv, NULL), EPERM, "EPERM", "settimeofday(a time)");
	check_err(settod(NULL, NULL), EPERM, "EPERM", "settimeofday(NULL, NULL)");
	check(clock_getcpuclockid(0, &self_clock) == 0, "clock_getcpuclockid(0)");
	check_err(settime(self_clock, &ok), EPERM, "EPERM", "a CPU clock is never set");
	return 0;
}
