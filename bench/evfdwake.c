/* bench/evfdwake.c: eventfd wakeups between two processes: the parent
 * signals one eventfd and waits on another that the child signals back;
 * ns per round trip (two wakeups). usage: evfdwake [N [R]] */
#include <stdint.h>
#include <sys/eventfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"

static int ping, pong;

static void round_trip(void)
{
	uint64_t v = 1;

	if (write(ping, &v, 8) != 8 || read(pong, &v, 8) != 8)
		exit(1);
}

int main(int argc, char **argv)
{
	long n;
	int r, st;
	pid_t p;

	bench_args(argc, argv, 1, 10000, &n, &r);
	ping = eventfd(0, 0);
	pong = eventfd(0, 0);
	if (ping < 0 || pong < 0)
		return 1;
	p = fork();
	if (p == 0) {
		uint64_t v;

		while (read(ping, &v, 8) == 8) {
			if (v == 2)
				break; /* the parent is done */
			if (write(pong, &v, 8) != 8)
				break;
		}
		_exit(0);
	}
	BENCH_LOOP("evfdwake", n, r, round_trip());
	{
		uint64_t v = 2;

		if (write(ping, &v, 8) != 8)
			return 1;
	}
	waitpid(p, &st, 0);
	return 0;
}
