/* bench/bench.h: shared timing helpers for the skas micro-benchmarks.
 *
 * Every benchmark does the same thing: run N operations split over R rounds,
 * time each round with CLOCK_MONOTONIC, and print one line
 *     NAME min_ns=X median_ns=Y n=N rounds=R
 * where X and Y are nanoseconds per operation (the minimum and the median of
 * the R per-round figures). One untimed warm-up round comes first.
 *
 * Programs are built with `gcc -O2 -static` and must stay single-process
 * (skas has no fork/clone yet). */
#ifndef SKAS_BENCH_H
#define SKAS_BENCH_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BENCH_MAX_ROUNDS 101

static inline long long bench_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static inline int bench_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* argv[argi] = N (default def_n), argv[argi+1] = R (default 7). */
static inline void bench_args(int argc, char **argv, int argi, long def_n, long *n, int *r)
{
	*n = def_n;
	*r = 7;
	if (argc > argi)
		*n = atol(argv[argi]);
	if (argc > argi + 1)
		*r = atoi(argv[argi + 1]);
	if (*r < 1)
		*r = 1;
	if (*r > BENCH_MAX_ROUNDS)
		*r = BENCH_MAX_ROUNDS;
	if (*n < *r)
		*n = *r;
}

/* Sort the per-round figures and print the summary line. */
static inline void bench_report(const char *name, double *per_op, int r, long n)
{
	qsort(per_op, (size_t)r, sizeof per_op[0], bench_cmp_double);
	double median = (r % 2) ? per_op[r / 2] : (per_op[r / 2 - 1] + per_op[r / 2]) / 2;
	printf("%s min_ns=%.1f median_ns=%.1f n=%ld rounds=%d\n", name, per_op[0], median, n, r);
	fflush(stdout);
}

/* BENCH_LOOP(name, n, r, body): run `body` n times in r timed rounds (after
 * one untimed warm-up round of n/r/10+1 iterations) and report. `body` is a
 * statement; it is inlined, so the loop itself adds ~1 ns per op. */
#define BENCH_LOOP(name, n, r, body)                                         \
	do {                                                                 \
		long per_round_ = (n) / (r);                                 \
		double res_[BENCH_MAX_ROUNDS];                               \
		for (long i_ = 0; i_ < per_round_ / 10 + 1; i_++) {          \
			body;                                                \
		}                                                            \
		for (int k_ = 0; k_ < (r); k_++) {                           \
			long long t0_ = bench_now_ns();                      \
			for (long i_ = 0; i_ < per_round_; i_++) {           \
				body;                                        \
			}                                                    \
			long long t1_ = bench_now_ns();                      \
			res_[k_] = (double)(t1_ - t0_) / (double)per_round_; \
		}                                                            \
		bench_report((name), res_, (r), per_round_ *(r));            \
	} while (0)

#endif
