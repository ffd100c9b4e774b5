/* host/evloop.c: the kernel's wait for host fds and timeouts, used by the
 * idle loop when something besides the platform's traps can wake a task.
 * A task's wait is one-shot (host_evloop_add/del); a watch calls its
 * function every time its fd is ready until paused or removed. */
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
static unsigned sigchld_reads; /* SIGCHLDs taken here (host_evloop_sigchld_count) */

/* Persistent watches (host_evloop_watch): the kernel's own readers of
 * host fds (the console), not tasks. */
#define MAX_WATCHES 8
struct watch {
	int fd; /* -1: free */
	bool write, paused;
	void (*fn)(void *arg);
	void *arg;
};
static struct watch watches[MAX_WATCHES] = { [0 ... MAX_WATCHES - 1] = { .fd = -1 } };

static struct watch *watch_of(const void *cookie)
{
	const struct watch *w = cookie;

	return w >= watches && w < watches + MAX_WATCHES ? (struct watch *)w : NULL;
}

static struct watch *watch_find(int fd)
{
	int i;

	for (i = 0; i < MAX_WATCHES; i++)
		if (watches[i].fd == fd)
			return &watches[i];
	return NULL;
}

int host_evloop_watch(int fd, bool write, void (*fn)(void *arg), void *arg)
{
	struct watch *w = watch_find(-1);
	struct epoll_event ev = { .events = write ? EPOLLOUT : EPOLLIN };

	if (!w)
		return -ENOSPC;
	ev.data.ptr = w;
	if (epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &ev) < 0)
		return -errno;
	*w = (struct watch){ .fd = fd, .write = write, .fn = fn, .arg = arg };
	nwatched++;
	return 0;
}

int host_evloop_watch_pause(int fd, bool paused)
{
	struct watch *w = watch_find(fd);
	struct epoll_event ev = { .events = 0 };

	if (!w || fd < 0)
		return -ENOENT;
	if (w->paused == paused)
		return 0;
	ev.events = paused ? 0 : (w->write ? EPOLLOUT : EPOLLIN);
	ev.data.ptr = w;
	if (epoll_ctl(epfd, EPOLL_CTL_MOD, fd, &ev) < 0)
		return -errno;
	w->paused = paused;
	nwatched += paused ? -1 : 1;
	return 0;
}

int host_evloop_unwatch(int fd)
{
	struct watch *w = watch_find(fd);

	if (!w || fd < 0)
		return -ENOENT;
	epoll_ctl(epfd, EPOLL_CTL_DEL, fd, NULL);
	if (!w->paused)
		nwatched--;
	w->fd = -1;
	return 0;
}

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

unsigned host_evloop_sigchld_count(void)
{
	return sigchld_reads;
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
			sigchld_reads++;
			continue;
		}
		if (watch_of(evs[i].data.ptr)) {
			struct watch *w = watch_of(evs[i].data.ptr);

			if (w->fd >= 0 && !w->paused)
				w->fn(w->arg);
			continue;
		}
		fn(evs[i].data.ptr);
	}
	return n;
}
