/* EPOLLEXCLUSIVE: the errno rules of epoll_ctl(2) (ADD only, a few event
 * bits, no epoll target, no MOD of an exclusive item), and the wakeups:
 * of epolls that wait on one file with EPOLLEXCLUSIVE, a write wakes the
 * first one (in ADD order) whose epoll_wait sleeps, not all; one without a
 * sleeper passes the wakeup on; items without the flag all wake. Each
 * thread waits on its own epoll. Every write comes once each thread sleeps
 * (its /proc/self/task/TID/stat says S), and the check comes once the
 * threads a write should wake have run, then a settle time for any others
 * (load can only hide a wrong wakeup, never make one). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/syscall.h>

#include "tap.h"

#define NT     4
#define SETTLE 200 /* ms for threads to block, or woken ones to run */
#define QUIT   100

static void check_errno(long r, int want, const char *what)
{
	int e = errno;

	if (r == -1 && e == want)
		printf("ok %d - %s\n", ++n, what);
	else
		printf("not ok %d - %s: got %ld errno %d, want errno %d\n", ++n, what, r,
		       r == -1 ? e : 0, want);
}

static int ctl(int ep, int op, int fd, uint32_t events)
{
	struct epoll_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.events = events;
	ev.data.u64 = fd;
	return epoll_ctl(ep, op, fd, &ev);
}

static void msleep(int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

static void errno_rules(void)
{
	int ep = epoll_create1(0), ep2 = epoll_create1(0), efd = eventfd(0, 0),
	    efd2 = eventfd(0, 0);
	int fd = open("/proc/self/exe", O_RDONLY);
	const uint32_t X = EPOLLEXCLUSIVE;

	check(ctl(ep, EPOLL_CTL_ADD, efd, X | EPOLLIN) == 0, "ADD EXCLUSIVE|IN");
	check_errno(ctl(ep, EPOLL_CTL_ADD, efd, X | EPOLLIN), EEXIST, "ADD it again: EEXIST");
	check_errno(ctl(ep, EPOLL_CTL_MOD, efd, EPOLLIN), EINVAL, "MOD of an exclusive item");
	check_errno(ctl(ep, EPOLL_CTL_MOD, efd, X | EPOLLIN), EINVAL, "MOD with EXCLUSIVE");
	check(ctl(ep, EPOLL_CTL_DEL, efd, X | EPOLLONESHOT) == 0, "DEL ignores the event");
	check_errno(ctl(ep, EPOLL_CTL_MOD, efd2, X | EPOLLIN), EINVAL,
		    "MOD with EXCLUSIVE of no item: EINVAL first");
	check(ctl(ep, EPOLL_CTL_ADD, efd2, EPOLLIN) == 0, "ADD IN");
	check_errno(ctl(ep, EPOLL_CTL_MOD, efd2, X | EPOLLIN), EINVAL,
		    "MOD adding EXCLUSIVE to an item");
	check_errno(ctl(ep, EPOLL_CTL_ADD, efd, X | EPOLLIN | EPOLLONESHOT), EINVAL,
		    "EXCLUSIVE|ONESHOT");
	check_errno(ctl(ep, EPOLL_CTL_ADD, efd, X | EPOLLRDNORM), EINVAL, "EXCLUSIVE|RDNORM");
	check_errno(ctl(ep, EPOLL_CTL_ADD, efd, X | EPOLLPRI), EINVAL, "EXCLUSIVE|PRI");
	check_errno(ctl(ep, EPOLL_CTL_ADD, efd, X | EPOLLRDHUP), EINVAL, "EXCLUSIVE|RDHUP");
	check_errno(ctl(ep, EPOLL_CTL_ADD, efd, X | EPOLLIN | 0x10000), EINVAL,
		    "EXCLUSIVE with an unknown bit");
	check_errno(ctl(ep, EPOLL_CTL_ADD, ep2, X | EPOLLIN), EINVAL, "EXCLUSIVE on an epoll");
	check_errno(ctl(ep, EPOLL_CTL_ADD, fd, X | EPOLLIN), EPERM,
		    "EXCLUSIVE on a regular file: EPERM");
	check(ctl(ep, EPOLL_CTL_ADD, efd,
		  X | EPOLLIN | EPOLLOUT | EPOLLERR | EPOLLHUP | EPOLLET | EPOLLWAKEUP) == 0,
	      "ADD EXCLUSIVE with every allowed bit");
	check(ctl(ep, EPOLL_CTL_DEL, efd, 0) == 0 && ctl(ep, EPOLL_CTL_ADD, efd, X) == 0,
	      "ADD EXCLUSIVE alone");
	close(fd);
	close(efd2);
	close(efd);
	close(ep2);
	close(ep);
}

/* Thread i waits once on ep[i]; got[i] says what woke it. */
static int ep[NT], got[NT];
static volatile int tid[NT];
static int done;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

static void *waiter(void *arg)
{
	int i = (int)(intptr_t)arg, j, r;
	struct epoll_event evs[4];

	tid[i] = (int)syscall(SYS_gettid);
	r = epoll_wait(ep[i], evs, 4, 20000);
	pthread_mutex_lock(&mu);
	got[i] = r < 0 ? -1 : 0;
	for (j = 0; j < r; j++)
		got[i] |= evs[j].data.u64 == QUIT ? 2 : 1;
	done++;
	pthread_mutex_unlock(&mu);
	return NULL;
}

static int ndone(void)
{
	int d;

	pthread_mutex_lock(&mu);
	d = done;
	pthread_mutex_unlock(&mu);
	return d;
}

/* Is thread i asleep (in its epoll_wait, its only blocking call)? */
static int asleep(int i)
{
	char path[64], buf[256], *p;
	int fd, len;

	if (!tid[i])
		return 0;
	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", tid[i]);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return 0;
	len = (int)read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (len <= 0)
		return 0;
	buf[len] = 0;
	p = strrchr(buf, ')');
	return p && p[1] == ' ' && p[2] == 'S';
}

/* Waits (up to 20 s) until every thread not yet done sleeps. */
static void all_asleep(void)
{
	int i, tries;

	for (tries = 0; tries < 20000; tries++) {
		int ok = 1;

		pthread_mutex_lock(&mu);
		for (i = 0; i < NT; i++)
			if (!got[i] && !asleep(i))
				ok = 0;
		pthread_mutex_unlock(&mu);
		if (ok)
			return;
		msleep(1);
	}
}

/* Waits (up to 20 s) until at least k threads are done, then SETTLE. */
static void until_done(int k)
{
	int tries;

	for (tries = 0; tries < 20000 && ndone() < k; tries++)
		msleep(1);
	msleep(SETTLE);
}

static int ones(const char *s)
{
	int k = 0;

	for (; *s; s++)
		k += *s == '1';
	return k;
}

static void kick(int fd)
{
	uint64_t one = 1;

	if (write(fd, &one, 8) != 8)
		check(0, "eventfd write");
}

static void report(const char *what)
{
	char buf[64] = "";
	int i;

	pthread_mutex_lock(&mu);
	for (i = 0; i < NT; i++)
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%d", got[i]);
	pthread_mutex_unlock(&mu);
	printf("# %s: %s\n", what, buf);
}

/* excl: a bitmask of the threads whose item is EPOLLEXCLUSIVE. After one
 * write, wake1 threads should have run; after a second one wake2. */
static void scenario(const char *name, unsigned excl, const char *want1, const char *want2)
{
	pthread_t th[NT];
	int efd = eventfd(0, 0), quit = eventfd(0, 0), i;
	char got1[NT + 1], got2[NT + 1], what[128];

	done = 0;
	for (i = 0; i < NT; i++) {
		got[i] = 0;
		ep[i] = epoll_create1(0);
		ctl(ep[i], EPOLL_CTL_ADD, efd, EPOLLIN | (excl & (1u << i) ? EPOLLEXCLUSIVE : 0));
		ctl(ep[i], EPOLL_CTL_ADD, quit, EPOLLIN);
	}
	/* The quit item's data says QUIT. */
	for (i = 0; i < NT; i++) {
		struct epoll_event ev = { .events = EPOLLIN, .data.u64 = QUIT };

		epoll_ctl(ep[i], EPOLL_CTL_MOD, quit, &ev);
	}
	for (i = 0; i < NT; i++)
		pthread_create(&th[i], NULL, waiter, (void *)(intptr_t)i);
	all_asleep();
	kick(efd);
	until_done(ones(want1));
	pthread_mutex_lock(&mu);
	for (i = 0; i < NT; i++)
		got1[i] = '0' + got[i];
	pthread_mutex_unlock(&mu);
	got1[NT] = 0;
	all_asleep();
	kick(efd);
	until_done(ones(want2));
	pthread_mutex_lock(&mu);
	for (i = 0; i < NT; i++)
		got2[i] = '0' + got[i];
	pthread_mutex_unlock(&mu);
	got2[NT] = 0;
	kick(quit);
	for (i = 0; i < NT; i++)
		pthread_join(th[i], NULL);
	report(name);
	snprintf(what, sizeof(what), "%s: first write wakes %s (got %s)", name, want1, got1);
	check(strcmp(got1, want1) == 0, what);
	snprintf(what, sizeof(what), "%s: second write wakes %s (got %s)", name, want2, got2);
	check(strcmp(got2, want2) == 0, what);
	check(ndone() == NT, "every thread came back");
	for (i = 0; i < NT; i++)
		close(ep[i]);
	close(efd);
	close(quit);
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	errno_rules();
	/* Each digit: 0 still asleep, 1 woken by the eventfd. */
	scenario("all exclusive", 0xf, "1000", "1100");
	scenario("none exclusive", 0, "1111", "1111");
	scenario("two of four exclusive", 0xa, "1110", "1111");
	scenario("last two exclusive", 0xc, "1110", "1111");
	return 0;
}
