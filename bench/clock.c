/* bench/clock.c: cost of clock_gettime(CLOCK_MONOTONIC) through libc, which
 * takes the vDSO when the auxv names one (no system call).
 * usage: clock [N [R]]   (N calls in total, default 10000000, R rounds, default 7) */
#include "bench.h"

int main(int argc, char **argv)
{
	struct timespec ts;
	long n;
	int r;
	bench_args(argc, argv, 1, 10000000, &n, &r);
	volatile long sink = 0;
	BENCH_LOOP("clock_gettime", n, r,
		   (clock_gettime(CLOCK_MONOTONIC, &ts), sink += ts.tv_nsec));
	return sink < 0;
}
