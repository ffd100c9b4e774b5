/* host/evloop.c: the kernel's wait for host fds and timeouts, used by the
 * idle loop when something besides the platform's traps can wake a task.
 * A watch calls its function every time its fd is ready until paused or
 * removed; an edge watch (a host-fd file's wait queue) at each readiness
 * event only, so a ready fd nobody reads costs nothing. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <string.h>
#include <ucontext.h>
#include <stdint.h>
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include "host/host.h"

static int epfd = -1;
static int sigchld_fd = -1; /* stub events wake the epoll wait too */
static int nwatched;
/* SIGCHLDs taken here or by sigchld_handler (host_evloop_sigchld_count) */
static volatile unsigned sigchld_reads;
/* Bumped by every signal handler of skas's (SIGCHLD while unblocked, the
 * forwarded signals): a wait through host_*_unless ends if it changed
 * since the caller's look (host_wake_seen). */
static volatile unsigned wake_count;
static long platform_mark; /* the epoll data of the platform's own fd */
/* SIGCHLD blocked again outside host_evloop_wait (a platform's wait
 * for one stub) after a time unblocked, since host_evloop_wait's last wait */
static bool sigchld_count_only;

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

int host_evloop_watch_platform(int fd)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.ptr = &platform_mark };

	return epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &ev) < 0 ? -errno : 0;
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

/* An edge watch's epoll data is its address with the low bit set: watches
 * and the SIGCHLD fd are never odd. */
#define EDGE_TAG 1UL

static struct host_edge_watch *edge_of(const struct epoll_event *ev)
{
	return ev->data.u64 & EDGE_TAG
		       ? (struct host_edge_watch *)(uintptr_t)(ev->data.u64 & ~EDGE_TAG)
		       : NULL;
}

static int edge_add(struct host_edge_watch *w, int fd, uint32_t events)
{
	struct epoll_event ev = { .events = events | EPOLLET, .data.u64 = (uintptr_t)w | EDGE_TAG };

	if (epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &ev) < 0)
		return -errno;
	w->fd = fd;
	nwatched++;
	return 0;
}

int host_evloop_edge_add(struct host_edge_watch *w, int fd, bool write)
{
	return edge_add(w, fd, write ? EPOLLOUT : EPOLLIN);
}

int host_evloop_edge_add_rw(struct host_edge_watch *w, int fd)
{
	return edge_add(w, fd, EPOLLIN | EPOLLOUT | EPOLLRDHUP | EPOLLPRI);
}

void host_evloop_edge_del(struct host_edge_watch *w)
{
	if (w->fd < 0)
		return;
	epoll_ctl(epfd, EPOLL_CTL_DEL, w->fd, NULL);
	w->fd = -1;
	nwatched--;
}

static void edge_run(const struct epoll_event *ev)
{
	struct host_edge_watch *w = edge_of(ev);

	if (w->fd >= 0)
		w->fn(w->arg, ev->events & (EPOLLIN | EPOLLPRI | EPOLLOUT | EPOLLERR | EPOLLHUP));
}

void host_evloop_edge_flush(void)
{
	struct epoll_event evs[64];
	int i, n, nedge;

	/* The level-triggered fds (SIGCHLD, watches) stay ready for the idle
	 * loop; they are fewer than a batch, so a full batch with edge events
	 * in it means there may be more. */
	do {
		n = epoll_wait(epfd, evs, 64, 0);
		for (i = nedge = 0; i < n; i++) {
			if (edge_of(&evs[i])) {
				edge_run(&evs[i]);
				nedge++;
			}
		}
	} while (n == 64 && nedge);
}

unsigned host_evloop_sigchld_count(void)
{
	return sigchld_reads;
}

unsigned host_wake_seen(void)
{
	return wake_count;
}

bool host_evloop_busy(void)
{
	return nwatched > 0;
}

int host_evloop_wait(int64_t timeout_ns)
{
	struct epoll_event evs[16];
	unsigned seen = wake_count;
	int i, n;

	/* A SIGCHLD the handler took meanwhile is in the count only: the
	 * idle loop must look at the platform before it waits. So since
	 * SIGCHLD was last blocked elsewhere (a platform's wait for one
	 * stub): the platform may not have looked at the count since. */
	if (host_sigchld_block() || sigchld_count_only)
		timeout_ns = 0;
	sigchld_count_only = false;
	if (host_signals_pending())
		timeout_ns = 0;
	n = (int)host_epoll_wait_unless(epfd, evs, 16, timeout_ns, seen);
	if (n < 0)
		return n == -EINTR ? 0 : n;
	for (i = 0; i < n; i++) {
		if (edge_of(&evs[i])) {
			edge_run(&evs[i]);
			continue;
		}
		if (evs[i].data.ptr == &sigchld_fd) {
			struct signalfd_siginfo si[8];

			/* One read: SIGCHLD is pending once at most (per
			 * thread and per process: both fit). Taken by the
			 * platform meanwhile (EAGAIN), it is reaped all the
			 * same. */
			ssize_t r = read(sigchld_fd, si, sizeof(si));

			(void)r;
			sigchld_reads++;
			continue;
		}
		if (watch_of(evs[i].data.ptr)) {
			struct watch *w = watch_of(evs[i].data.ptr);

			if (w->fd >= 0 && !w->paused)
				w->fn(w->arg);
		}
	}
	return n;
}

/* The kernel's blocking waits, each bounded by labels: a signal of
 * skas's own (a SIGCHLD while unblocked, a forwarded one) that comes after
 * the caller's look at wake_count but before the syscall instruction has
 * run (or while it waits: SA_RESTART backs rip up to the instruction)
 * sends it to the cancel label instead, with -EINTR; one that comes after
 * the call returned leaves it alone. So a signal is never left waiting
 * for the next event (host_wake_window). Each returns -errno. */
__asm__(".pushsection .text\n"
	".type host_ioctl_seen, @function\n"
	"host_ioctl_seen:\n"	 /* (fd, req, arg, &count, seen) */
	"	mov $16, %eax\n" /* SYS_ioctl */
	"host_ioctl_seen_check:\n"
	"	cmp (%rcx), %r8d\n"
	"	jne host_seen_cancel\n"
	"host_ioctl_seen_call:\n"
	"	syscall\n"
	"	ret\n"
	".size host_ioctl_seen, .-host_ioctl_seen\n"
	".type host_wait4_seen, @function\n"
	"host_wait4_seen:\n"	 /* (pid, status, options, &count, seen) */
	"	mov $61, %eax\n" /* SYS_wait4, no rusage */
	"	xor %r10d, %r10d\n"
	"host_wait4_seen_check:\n"
	"	cmp (%rcx), %r8d\n"
	"	jne host_seen_cancel\n"
	"host_wait4_seen_call:\n"
	"	syscall\n"
	"	ret\n"
	".size host_wait4_seen, .-host_wait4_seen\n"
	".type host_epoll_wait_seen, @function\n"
	"host_epoll_wait_seen:\n" /* (epfd, events, max, ms, &count, seen) */
	"	mov $232, %eax\n" /* SYS_epoll_wait */
	"	mov %rcx, %r10\n"
	"host_epoll_wait_seen_check:\n"
	"	cmp (%r8), %r9d\n"
	"	jne host_seen_cancel\n"
	"host_epoll_wait_seen_call:\n"
	"	syscall\n"
	"	ret\n"
	".size host_epoll_wait_seen, .-host_epoll_wait_seen\n"
	".type host_epoll_pwait2_seen, @function\n"
	"host_epoll_pwait2_seen:\n" /* (epfd, events, max, ts, &count, seen) */
	"	mov $441, %eax\n"   /* SYS_epoll_pwait2: no sigmask */
	"	mov %rcx, %r10\n"
	"host_epoll_pwait2_seen_check:\n"
	"	cmp (%r8), %r9d\n"
	"	jne host_seen_cancel\n"
	"	xor %r8d, %r8d\n"
	"	xor %r9d, %r9d\n"
	"host_epoll_pwait2_seen_call:\n"
	"	syscall\n"
	"	ret\n"
	".size host_epoll_pwait2_seen, .-host_epoll_pwait2_seen\n"
	"host_seen_cancel:\n"
	"	mov $-4, %rax\n" /* -EINTR */
	"	ret\n"
	".popsection\n");
long host_ioctl_seen(int fd, unsigned long req, void *arg, volatile unsigned *count, unsigned seen);
long host_wait4_seen(int pid, int *status, int options, volatile unsigned *count, unsigned seen);
long host_epoll_wait_seen(int fd, struct epoll_event *evs, int max, int ms,
			  volatile unsigned *count, unsigned seen);
long host_epoll_pwait2_seen(int fd, struct epoll_event *evs, int max, const struct timespec *ts,
			    volatile unsigned *count, unsigned seen);
extern const char host_ioctl_seen_check[], host_ioctl_seen_call[], host_wait4_seen_check[],
	host_wait4_seen_call[], host_epoll_wait_seen_check[], host_epoll_wait_seen_call[],
	host_epoll_pwait2_seen_check[], host_epoll_pwait2_seen_call[], host_seen_cancel[];

/* Each stub's window: from its look at the count to its syscall
 * instruction, both included. */
static const struct {
	const char *check, *call;
} windows[] = {
	{ host_ioctl_seen_check, host_ioctl_seen_call },
	{ host_wait4_seen_check, host_wait4_seen_call },
	{ host_epoll_wait_seen_check, host_epoll_wait_seen_call },
	{ host_epoll_pwait2_seen_check, host_epoll_pwait2_seen_call },
};

void host_wake_window(void *ucv)
{
	ucontext_t *uc = ucv;
	uintptr_t ip = (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
	size_t i;

	wake_count = wake_count + 1;
	for (i = 0; i < sizeof(windows) / sizeof(windows[0]); i++)
		if (ip >= (uintptr_t)windows[i].check && ip <= (uintptr_t)windows[i].call)
			uc->uc_mcontext.gregs[REG_RIP] = (greg_t)(uintptr_t)host_seen_cancel;
}

/* A timeout to the nanosecond where the host has epoll_pwait2 (Linux
 * 5.11): a guest's sleep of 100 us is not one of a millisecond. Older
 * hosts, and a container whose filter refuses the call (EPERM: skas's
 * own allowlist takes it), wait whole milliseconds, rounded up. */
long host_epoll_wait_unless(int fd, struct epoll_event *evs, int max, int64_t timeout_ns,
			    unsigned seen)
{
	static bool no_pwait2;
	struct timespec ts;
	long r;

	if (timeout_ns > 0 && !no_pwait2) {
		ts.tv_sec = timeout_ns / 1000000000;
		ts.tv_nsec = timeout_ns % 1000000000;
		r = host_epoll_pwait2_seen(fd, evs, max, &ts, &wake_count, seen);
		if (r != -ENOSYS && r != -EPERM)
			return r;
		no_pwait2 = true;
	}
	/* past INT_MAX ms (24.8 days), INT_MAX: a wait, not a wrap */
	if (timeout_ns > (int64_t)INT_MAX * 1000000)
		timeout_ns = (int64_t)INT_MAX * 1000000;
	return host_epoll_wait_seen(fd, evs, max,
				    timeout_ns < 0 ? -1 : (int)((timeout_ns + 999999) / 1000000),
				    &wake_count, seen);
}

long host_wait4_unless(int pid, int *status, int options, unsigned seen)
{
	return host_wait4_seen(pid, status, options, &wake_count, seen);
}

static bool sigchld_handled; /* unblocked, to sigchld_handler */

static void sigchld_handler(int sig, siginfo_t *si, void *ucv)
{
	(void)sig;
	(void)si;
	sigchld_reads = sigchld_reads + 1;
	host_wake_window(ucv);
}

int host_sigchld_unblock(void)
{
	static bool installed;
	sigset_t set;

	if (sigchld_handled)
		return 0;
	if (!installed) {
		struct sigaction sa;

		memset(&sa, 0, sizeof(sa));
		sa.sa_sigaction = sigchld_handler;
		sa.sa_flags = SA_SIGINFO | SA_RESTART;
		sigemptyset(&sa.sa_mask);
		if (sigaction(SIGCHLD, &sa, NULL) < 0)
			return -errno;
		installed = true;
	}
	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	if (sigprocmask(SIG_UNBLOCK, &set, NULL) < 0)
		return -errno;
	sigchld_handled = true;
	return 0;
}

bool host_sigchld_block(void)
{
	sigset_t set;

	if (!sigchld_handled)
		return false;
	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	sigprocmask(SIG_BLOCK, &set, NULL);
	sigchld_handled = false;
	sigchld_count_only = true;
	return true;
}

long host_ioctl_unless(int fd, unsigned long req, void *arg, unsigned seen)
{
	return host_ioctl_seen(fd, req, arg, &wake_count, seen);
}
