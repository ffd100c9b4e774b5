/* bench/nanosleep.c: a short sleep, nanosleep of 100 us, start to end:
 * what a timer's resolution and the wakeup add to it (natively the
 * host's timer slack, 50 us by default). usage: nanosleep [N [R]] */
#include <time.h>

#include "bench.h"

int main(int argc, char **argv)
{
	struct timespec ts = { 0, 100000 };
	long n;
	int r;

	bench_args(argc, argv, 1, 2000, &n, &r);
	BENCH_LOOP("nanosleep", n, r, nanosleep(&ts, NULL));
	return 0;
}
