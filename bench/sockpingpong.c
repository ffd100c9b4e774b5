/* bench/sockpingpong.c: one byte back and forth over a UNIX stream
 * socketpair between two processes; ns per round trip.
 * usage: sockpingpong [N [R]] */
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"

static int sv[2];

static void round_trip(void)
{
	char c = 'x';

	if (write(sv[0], &c, 1) != 1 || read(sv[0], &c, 1) != 1)
		exit(1);
}

int main(int argc, char **argv)
{
	long n;
	int r, st;
	pid_t p;

	bench_args(argc, argv, 1, 10000, &n, &r);
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) < 0)
		return 1;
	p = fork();
	if (p == 0) {
		char c;

		close(sv[0]);
		while (read(sv[1], &c, 1) == 1)
			if (write(sv[1], &c, 1) != 1)
				break;
		_exit(0);
	}
	close(sv[1]);
	BENCH_LOOP("sockpingpong", n, r, round_trip());
	close(sv[0]);
	waitpid(p, &st, 0);
	return 0;
}
