/* bench/pingpong.c: one byte back and forth over two pipes between two
 * processes; ns per round trip. usage: pingpong [N [R]] */
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"

static int to_child[2], to_parent[2];

static void round_trip(void)
{
	char c = 'x';

	if (write(to_child[1], &c, 1) != 1 || read(to_parent[0], &c, 1) != 1)
		exit(1);
}

int main(int argc, char **argv)
{
	long n;
	int r, st;
	pid_t p;

	bench_args(argc, argv, 1, 10000, &n, &r);
	if (pipe(to_child) < 0 || pipe(to_parent) < 0)
		return 1;
	p = fork();
	if (p == 0) {
		char c;

		close(to_child[1]);
		close(to_parent[0]);
		while (read(to_child[0], &c, 1) == 1)
			if (write(to_parent[1], &c, 1) != 1)
				break;
		_exit(0);
	}
	close(to_child[0]);
	close(to_parent[1]);
	BENCH_LOOP("pingpong", n, r, round_trip());
	close(to_child[1]);
	waitpid(p, &st, 0);
	return 0;
}
