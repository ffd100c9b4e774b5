/* bench/getppid.c: cost of the cheapest system call, syscall(SYS_getppid).
 * usage: getppid [N [R]]   (N calls in total, default 1000000, R rounds, default 7) */
#include "bench.h"
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long n;
	int r;
	bench_args(argc, argv, 1, 1000000, &n, &r);
	volatile long sink = 0;
	BENCH_LOOP("getppid", n, r, sink += syscall(SYS_getppid));
	return sink < 0;
}
