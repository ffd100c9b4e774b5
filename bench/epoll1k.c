/* bench/epoll1k.c: epoll_wait over 1,000 idle pipes and one ready eventfd
 * (level-triggered, so every call reports it); ns per epoll_wait.
 * usage: epoll1k [N [R]] */
#include <stdint.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <unistd.h>

#include "bench.h"

#define IDLE 1000

static int ep;

static void wait_once(void)
{
	struct epoll_event ev[8];

	if (epoll_wait(ep, ev, 8, 0) != 1)
		exit(1);
}

int main(int argc, char **argv)
{
	struct epoll_event ev = { .events = EPOLLIN };
	struct rlimit rl;
	long n;
	int r, efd;

	bench_args(argc, argv, 1, 10000, &n, &r);
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < 2 * IDLE + 16) {
		rl.rlim_cur = rl.rlim_max < 4096 ? rl.rlim_max : 4096;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	ep = epoll_create1(0);
	if (ep < 0)
		return 1;
	for (int i = 0; i < IDLE; i++) {
		int p[2];

		if (pipe(p) < 0)
			return 2;
		ev.data.fd = p[0];
		if (epoll_ctl(ep, EPOLL_CTL_ADD, p[0], &ev) < 0)
			return 3;
	}
	efd = eventfd(1, 0);
	ev.data.fd = efd;
	if (efd < 0 || epoll_ctl(ep, EPOLL_CTL_ADD, efd, &ev) < 0)
		return 4;
	BENCH_LOOP("epoll1k", n, r, wait_once());
	return 0;
}
