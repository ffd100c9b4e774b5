/* bench/touch.c: first touch of anonymous memory: mmap MiB of private
 * anonymous memory, write one byte per 4 KiB page, munmap; ns per page.
 * MADV_NOHUGEPAGE keeps the host from using 2 MiB pages, so each page is a
 * real fault. mmap/madvise/munmap are inside the timed region but amortised
 * over all pages. One untimed warm-up round comes first.
 * usage: touch [MIB [R]]   (default 256 MiB, 5 rounds) */
#include "bench.h"
#include <sys/mman.h>

int main(int argc, char **argv)
{
	long mib = argc > 1 ? atol(argv[1]) : 256;
	int r = argc > 2 ? atoi(argv[2]) : 5;
	if (mib < 1)
		mib = 1;
	if (r < 1)
		r = 1;
	if (r > BENCH_MAX_ROUNDS)
		r = BENCH_MAX_ROUNDS;
	size_t len = (size_t)mib << 20;
	size_t pages = len / 4096;
	double res[BENCH_MAX_ROUNDS];
	for (int k = -1; k < r; k++) { /* k == -1: warm-up (host-side first use) */
		long long t0 = bench_now_ns();
		volatile char *p =
			mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED) {
			perror("mmap");
			return 1;
		}
		madvise((void *)p, len, MADV_NOHUGEPAGE);
		for (size_t i = 0; i < pages; i++)
			p[i * 4096] = 1;
		munmap((void *)p, len);
		long long t1 = bench_now_ns();
		if (k >= 0)
			res[k] = (double)(t1 - t0) / (double)pages;
	}
	bench_report("touch4k", res, r, (long)pages * r);
	return 0;
}
