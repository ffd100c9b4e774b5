/* host/evloop.c: the kernel's wait for host fds and timeouts, used by the
 * idle loop when something besides the platform's traps can wake a task. */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include "host/host.h"

static int epfd = -1;
static int sigchld_fd = -1; /* stub events wake the epoll wait too */
static int nwatched;

int host_evloop_init(void)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.ptr = &sigchld_fd };
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	if (sigprocmask(SIG_BLOCK, &set, NULL) < 0)
		return -errno;
	sigchld_fd = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
	epfd = epoll_create1(EPOLL_CLOEXEC);
	if (sigchld_fd < 0 || epfd < 0)
		return -errno;
	if (epoll_ctl(epfd, EPOLL_CTL_ADD, sigchld_fd, &ev) < 0)
		return -errno;
	return 0;
}

int host_evloop_add(int fd, bool write, void *cookie)
{
	struct epoll_event ev = { .events = (write ? EPOLLOUT : EPOLLIN) | EPOLLONESHOT,
				  .data.ptr = cookie };

	if (epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &ev) < 0) {
		if (errno != EEXIST || epoll_ctl(epfd, EPOLL_CTL_MOD, fd, &ev) < 0)
			return -errno;
		return 0;
	}
	nwatched++;
	return 0;
}

int host_evloop_del(int fd)
{
	if (epoll_ctl(epfd, EPOLL_CTL_DEL, fd, NULL) < 0)
		return -errno;
	nwatched--;
	return 0;
}

bool host_evloop_busy(void)
{
	return nwatched > 0;
}

int host_evloop_wait(int64_t timeout_ns, void (*fn)(void *cookie))
{
	struct epoll_event evs[16];
	int i, n, ms;

	if (timeout_ns < 0)
		ms = -1;
	else
		ms = (int)((timeout_ns + 999999) / 1000000);
	n = epoll_wait(epfd, evs, 16, ms);
	if (n < 0)
		return errno == EINTR ? 0 : -errno;
	for (i = 0; i < n; i++) {
		if (evs[i].data.ptr == &sigchld_fd) {
			struct signalfd_siginfo si[8];

			while (read(sigchld_fd, si, sizeof(si)) > 0)
				;
			continue;
		}
		fn(evs[i].data.ptr);
	}
	return n;
}
