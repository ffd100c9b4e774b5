/* adjtimex and clock_adjtime, reading: modes 0 gives the clock state and
 * the same fields twice, adjtime(2)'s ADJ_OFFSET_SS_READ, ADJ_ADJTIME
 * without SINGLESHOT (EINVAL), bad pointers, clocks that cannot be
 * adjusted (EOPNOTSUPP) and bad clock ids (EINVAL). Setting is not tried:
 * natively as root it would change the machine's clock. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/timex.h>

#define TAP_ERR_NAMED
#include "tap.h"

int main(void)
{
	struct timex a, b;
	int s1, s2;

	setvbuf(stdout, NULL, _IOLBF, 0);
	memset(&a, 0, sizeof(a));
	s1 = adjtimex(&a);
	check(s1 >= 0 && s1 <= 5, "adjtimex(modes 0): a clock state (TIME_OK..TIME_ERROR)");
	check(a.tick > 0 && a.precision >= 0 && a.tolerance > 0, "tick, precision, tolerance");
	check(a.time.tv_sec > 1000000000, "time is now");
	memset(&b, 0, sizeof(b));
	s2 = (int)syscall(SYS_clock_adjtime, CLOCK_REALTIME, &b);
	check(s2 == s1 && b.tick == a.tick && b.status == a.status && b.maxerror >= 0,
	      "clock_adjtime(CLOCK_REALTIME) reads the same");
	memset(&b, 0, sizeof(b));
	b.modes = ADJ_OFFSET_SS_READ;
	check(adjtimex(&b) >= 0, "ADJ_OFFSET_SS_READ");
	memset(&b, 0, sizeof(b));
	b.modes = 0x8000; /* ADJ_ADJTIME alone */
	check_err(adjtimex(&b), EINVAL, "EINVAL", "ADJ_ADJTIME without SINGLESHOT");
	check_err(syscall(SYS_adjtimex, (void *)8), EFAULT, "EFAULT", "adjtimex bad pointer");
	check_err(syscall(SYS_clock_adjtime, CLOCK_MONOTONIC, &b), EOPNOTSUPP, "EOPNOTSUPP",
		  "clock_adjtime(CLOCK_MONOTONIC)");
	check_err(syscall(SYS_clock_adjtime, CLOCK_PROCESS_CPUTIME_ID, &b), EOPNOTSUPP,
		  "EOPNOTSUPP", "clock_adjtime(CLOCK_PROCESS_CPUTIME_ID)");
	check_err(syscall(SYS_clock_adjtime, 100, &b), EINVAL, "EINVAL", "clock_adjtime(100)");
	check_err(syscall(SYS_clock_adjtime, CLOCK_REALTIME, (void *)8), EFAULT, "EFAULT",
		  "clock_adjtime bad pointer");
	{
		struct timeval old;

		check(adjtime(NULL, &old) == 0, "adjtime(NULL, &old) reads");
	}
	return 0;
}
