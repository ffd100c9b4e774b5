/* bench/signal.c: kill(self) + handler + sigreturn, per signal. The work
 * runs in a child: pid 1 (as the program is under skas) takes signals too,
 * but a child keeps native and skas runs alike. usage: signal [N [R]] */
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"

static volatile sig_atomic_t hits;

static void on_usr1(int sig)
{
	(void)sig;
	hits++;
}

int main(int argc, char **argv)
{
	struct sigaction sa;
	long n;
	int r, st;
	pid_t p, me;

	bench_args(argc, argv, 1, 10000, &n, &r);
	p = fork();
	if (p == 0) {
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_usr1;
		sigaction(SIGUSR1, &sa, NULL);
		me = getpid();
		BENCH_LOOP("signal", n, r, kill(me, SIGUSR1));
		_exit(0);
	}
	waitpid(p, &st, 0);
	return 0;
}
