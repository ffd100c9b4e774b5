/* bench/thread.c: pthread_create + pthread_join of a thread that returns
 * at once, per operation (a new host thread under skas, or a spare one).
 * usage: thread [N [R]] */
#include "bench.h"
#include <pthread.h>

static void *nothing(void *arg)
{
	return arg;
}

static void create_join(void)
{
	pthread_t t;

	if (pthread_create(&t, NULL, nothing, NULL) == 0)
		pthread_join(t, NULL);
}

int main(int argc, char **argv)
{
	long n;
	int r;

	bench_args(argc, argv, 1, 1000, &n, &r);
	BENCH_LOOP("thread", n, r, create_join());
	return 0;
}
