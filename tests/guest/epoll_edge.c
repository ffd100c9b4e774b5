/* epoll exactness: EPOLLET reports on every wakeup of the file whose kind
 * (POLLIN, POLLOUT...) meets the item's events — a partial read then more
 * data, each write, a reader draining a full pipe — and not on wakeups of
 * the other kind (a reader's own read, a peer reading what we sent); ET on
 * eventfd, timerfd, signalfd, a pty and a nested epoll; items go when the
 * file they watch is released (its last fd closed), not before (dups). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/timerfd.h>

#include "tap.h"

static void check_errno(long r, int want, const char *what)
{
	int e = errno;

	if (r == -1 && e == want)
		printf("ok %d - %s\n", ++n, what);
	else
		printf("not ok %d - %s: got %ld errno %d, want errno %d\n", ++n, what, r,
		       r == -1 ? e : 0, want);
}

static int add(int ep, int fd, uint32_t events, uint64_t data)
{
	struct epoll_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.events = events;
	ev.data.u64 = data;
	return epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev);
}

/* How many events one wait gets; the first one's bits and data in *ev. */
static int waitn(int ep, int timeout, struct epoll_event *ev)
{
	struct epoll_event evs[8];
	int r = epoll_wait(ep, evs, 8, timeout);

	if (r > 0 && ev)
		*ev = evs[0];
	return r;
}

/* Exactly one event with these bits and data. */
static int wait1(int ep, int timeout, uint32_t events, uint64_t data)
{
	struct epoll_event ev;

	return waitn(ep, timeout, &ev) == 1 && ev.events == events && ev.data.u64 == data;
}

static void et_pipe_reads(void)
{
	int p[2], ep = epoll_create1(0);
	char buf[8];

	if (pipe2(p, O_NONBLOCK) < 0 || ep < 0 || add(ep, p[0], EPOLLIN | EPOLLET, 1) < 0) {
		check(0, "pipe ET set-up");
		return;
	}
	check(waitn(ep, 0, NULL) == 0, "pipe ET: nothing while empty");
	check(write(p[1], "abc", 3) == 3 && wait1(ep, 0, EPOLLIN, 1),
	      "pipe ET: a write is reported");
	check(waitn(ep, 0, NULL) == 0, "pipe ET: once");
	check(read(p[0], buf, 1) == 1 && waitn(ep, 0, NULL) == 0,
	      "pipe ET: the reader's own partial read reports nothing");
	check(write(p[1], "d", 1) == 1 && wait1(ep, 0, EPOLLIN, 1),
	      "pipe ET: more data after a partial read is reported at once");
	check(write(p[1], "e", 1) == 1 && wait1(ep, 0, EPOLLIN, 1),
	      "pipe ET: a second write with no read between is reported again");
	check(write(p[1], "f", 1) == 1 && write(p[1], "g", 1) == 1 && wait1(ep, 0, EPOLLIN, 1) &&
		      waitn(ep, 0, NULL) == 0,
	      "pipe ET: two writes before one wait: one event");
	check(read(p[0], buf, sizeof(buf)) == 6 && waitn(ep, 0, NULL) == 0,
	      "pipe ET: draining reports nothing");
	check(close(p[1]) == 0 && wait1(ep, 0, EPOLLHUP, 1), "pipe ET: the writer's close is HUP");
	close(p[0]);
	close(ep);
}

static void et_pipe_out(void)
{
	int p[2], ep = epoll_create1(0);
	static char big[4096];
	char buf[4096];
	long r;

	if (pipe2(p, O_NONBLOCK) < 0 || ep < 0 || add(ep, p[1], EPOLLOUT | EPOLLET, 2) < 0) {
		check(0, "pipe ET out set-up");
		return;
	}
	check(wait1(ep, 0, EPOLLOUT, 2) && waitn(ep, 0, NULL) == 0,
	      "pipe ET out: writable once at ADD");
	check(write(p[1], "abc", 3) == 3 && waitn(ep, 0, NULL) == 0,
	      "pipe ET out: the writer's own write reports nothing");
	check(read(p[0], buf, sizeof(buf)) == 3 && waitn(ep, 0, NULL) == 0,
	      "pipe ET out: a read of a pipe that was not full reports nothing");
	while ((r = write(p[1], big, sizeof(big))) > 0)
		;
	check(r < 0 && errno == EAGAIN && waitn(ep, 0, NULL) == 0, "pipe ET out: full, nothing");
	while (read(p[0], buf, sizeof(buf)) > 0)
		;
	check(wait1(ep, 0, EPOLLOUT, 2),
	      "pipe ET out: the reader draining a full pipe reports OUT");
	check(waitn(ep, 0, NULL) == 0, "pipe ET out: once");
	close(p[0]);
	check(wait1(ep, 0, EPOLLOUT | EPOLLERR, 2), "pipe ET out: the reader's close is ERR");
	close(p[1]);
	close(ep);
}

static void et_socket(void)
{
	int sv[2], ep = epoll_create1(0), ep2 = epoll_create1(0);
	char buf[16];

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0, sv) < 0 || ep < 0 || ep2 < 0 ||
	    add(ep, sv[0], EPOLLIN | EPOLLET, 3) < 0 ||
	    add(ep2, sv[0], EPOLLOUT | EPOLLET, 4) < 0) {
		check(0, "socket ET set-up");
		return;
	}
	check(waitn(ep, 0, NULL) == 0 && wait1(ep2, 0, EPOLLOUT, 4), "socket ET: writable at ADD");
	check(write(sv[1], "zz", 2) == 2 && wait1(ep, 0, EPOLLIN, 3), "socket ET: data reported");
	check(read(sv[0], buf, 1) == 1 && waitn(ep, 0, NULL) == 0,
	      "socket ET: the reader's own partial read reports nothing");
	check(write(sv[0], "ab", 2) == 2 && waitn(ep, 0, NULL) == 0 && waitn(ep2, 0, NULL) == 0,
	      "socket ET: our own write reports nothing");
	check(read(sv[1], buf, sizeof(buf)) == 2 && waitn(ep, 0, NULL) == 0,
	      "socket ET: the peer reading what we sent is no POLLIN for us");
	check(wait1(ep2, 0, EPOLLOUT, 4), "socket ET: ... but is POLLOUT (write space)");
	check(write(sv[1], "y", 1) == 1 && wait1(ep, 0, EPOLLIN, 3),
	      "socket ET: more data after a partial read is reported");
	close(sv[0]);
	close(sv[1]);
	close(ep);
	close(ep2);
}

static void et_eventfd(void)
{
	int efd = eventfd(0, EFD_NONBLOCK), ep = epoll_create1(0);
	uint64_t v = 1;

	if (efd < 0 || ep < 0 || add(ep, efd, EPOLLIN | EPOLLET, 5) < 0) {
		check(0, "eventfd ET set-up");
		return;
	}
	check(waitn(ep, 0, NULL) == 0, "eventfd ET: nothing at 0");
	check(write(efd, &v, 8) == 8 && wait1(ep, 0, EPOLLIN, 5), "eventfd ET: a write");
	check(write(efd, &v, 8) == 8 && wait1(ep, 0, EPOLLIN, 5),
	      "eventfd ET: another write, no read: reported again");
	check(waitn(ep, 0, NULL) == 0, "eventfd ET: once each");
	v = 0;
	check(write(efd, &v, 8) == 8 && wait1(ep, 0, EPOLLIN, 5),
	      "eventfd ET: even a write of 0 wakes (count still > 0)");
	check(read(efd, &v, 8) == 8 && v == 2 && waitn(ep, 0, NULL) == 0,
	      "eventfd ET: the read reports nothing");
	close(efd);
	close(ep);
}

static void et_timerfd(void)
{
	int tfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK), ep = epoll_create1(0);
	struct itimerspec its = { { 0, 20000000 }, { 0, 20000000 } };
	uint64_t ticks;

	if (tfd < 0 || ep < 0 || add(ep, tfd, EPOLLIN | EPOLLET, 6) < 0 ||
	    timerfd_settime(tfd, 0, &its, NULL) < 0) {
		check(0, "timerfd ET set-up");
		return;
	}
	check(wait1(ep, 2000, EPOLLIN, 6), "timerfd ET: the first expiry");
	/* Linux re-arms a periodic timerfd's hrtimer only at the read. */
	check(waitn(ep, 100, NULL) == 0, "timerfd ET: later expiries, unread, wake nobody");
	check(read(tfd, &ticks, 8) == 8 && ticks >= 2, "timerfd ET: the read counts them all");
	check(wait1(ep, 2000, EPOLLIN, 6), "timerfd ET: the next expiry after the read");
	memset(&its, 0, sizeof(its));
	timerfd_settime(tfd, 0, &its, NULL);
	check(read(tfd, &ticks, 8) < 0 && errno == EAGAIN, "timerfd ET: settime forgets ticks");
	check(waitn(ep, 50, NULL) == 0, "timerfd ET: disarmed, nothing");
	close(tfd);
	close(ep);
}

static void et_signalfd(void)
{
	sigset_t set;
	int sfd, ep = epoll_create1(0);
	struct signalfd_siginfo si;

	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGUSR2);
	sigprocmask(SIG_BLOCK, &set, NULL);
	sfd = signalfd(-1, &set, SFD_NONBLOCK);
	if (sfd < 0 || ep < 0 || add(ep, sfd, EPOLLIN | EPOLLET, 7) < 0) {
		check(0, "signalfd ET set-up");
		return;
	}
	check(waitn(ep, 0, NULL) == 0, "signalfd ET: nothing pending");
	check(raise(SIGUSR1) == 0 && wait1(ep, 0, EPOLLIN, 7), "signalfd ET: a signal");
	check(raise(SIGUSR2) == 0 && wait1(ep, 0, EPOLLIN, 7),
	      "signalfd ET: a second signal, unread, again");
	check(waitn(ep, 0, NULL) == 0, "signalfd ET: once each");
	check(read(sfd, &si, sizeof(si)) == sizeof(si) && read(sfd, &si, sizeof(si)) == sizeof(si),
	      "signalfd ET: both read");
	close(sfd);
	close(ep);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
}

static void et_pty(void)
{
	int m = posix_openpt(O_RDWR | O_NOCTTY), s, ep = epoll_create1(0);
	char buf[16];

	if (m < 0 || grantpt(m) < 0 || unlockpt(m) < 0 ||
	    (s = open(ptsname(m), O_RDWR | O_NOCTTY)) < 0 || ep < 0 ||
	    add(ep, m, EPOLLIN | EPOLLET, 8) < 0) {
		check(0, "pty ET set-up");
		return;
	}
	check(write(s, "x", 1) == 1 && wait1(ep, 2000, EPOLLIN, 8), "pty ET: output of the slave");
	check(write(s, "y", 1) == 1 && wait1(ep, 2000, EPOLLIN, 8),
	      "pty ET: more output, unread, again");
	check(read(m, buf, sizeof(buf)) == 2, "pty ET: both bytes there");
	close(s);
	close(m);
	close(ep);
}

static void et_nested(void)
{
	int p[2], in = epoll_create1(0), out = epoll_create1(0);
	char buf[8];

	if (pipe2(p, O_NONBLOCK) < 0 || in < 0 || out < 0 || add(in, p[0], EPOLLIN, 9) < 0 ||
	    add(out, in, EPOLLIN | EPOLLET, 10) < 0) {
		check(0, "nested ET set-up");
		return;
	}
	check(waitn(out, 0, NULL) == 0, "nested ET: nothing");
	check(write(p[1], "a", 1) == 1 && wait1(out, 0, EPOLLIN, 10), "nested ET: a write");
	check(waitn(out, 0, NULL) == 0, "nested ET: once");
	check(wait1(in, 0, EPOLLIN, 9) && waitn(out, 0, NULL) == 0,
	      "nested ET: the inner epoll_wait is no wakeup for the outer");
	check(write(p[1], "b", 1) == 1 && wait1(out, 0, EPOLLIN, 10),
	      "nested ET: another write, inner still ready: reported again");
	check(read(p[0], buf, sizeof(buf)) == 2 && waitn(out, 0, NULL) == 0,
	      "nested ET: the read reports nothing");
	close(in);
	check(waitn(out, 0, NULL) == 0 && write(p[1], "c", 1) == 1 && waitn(out, 0, NULL) == 0,
	      "nested: the inner epoll closed, its item went");
	close(p[0]);
	close(p[1]);
	close(out);
}

static void close_registered(void)
{
	int p[2], q[2], ep = epoll_create1(0), d;
	char buf[8];

	if (pipe2(p, O_NONBLOCK) < 0 || pipe2(q, O_NONBLOCK) < 0 || ep < 0 ||
	    add(ep, p[1], EPOLLOUT, 11) < 0) {
		check(0, "close set-up");
		return;
	}
	check(wait1(ep, 0, EPOLLOUT, 11), "close: the write end is writable");
	close(p[1]);
	check(read(p[0], buf, sizeof(buf)) == 0, "close: the reader gets EOF at once");
	check(waitn(ep, 0, NULL) == 0, "close: the epoll reports nothing for it");
	check_errno(epoll_ctl(ep, EPOLL_CTL_DEL, p[1], NULL), EBADF, "close: DEL after close");
	check(dup2(q[0], p[1]) == p[1] && add(ep, p[1], EPOLLIN, 12) == 0,
	      "close: the fd number, reused, adds afresh");
	check(epoll_ctl(ep, EPOLL_CTL_DEL, p[1], NULL) == 0, "close: and deletes");
	close(p[1]);
	close(p[0]);

	/* The classic gotcha: a dup keeps the file, so the item stays. */
	d = dup(q[0]);
	check(add(ep, q[0], EPOLLIN, 13) == 0 && close(q[0]) == 0, "dup: registered, then closed");
	check(write(q[1], "x", 1) == 1 && wait1(ep, 0, EPOLLIN, 13),
	      "dup: the dup keeps the item reporting");
	check_errno(epoll_ctl(ep, EPOLL_CTL_DEL, q[0], NULL), EBADF, "dup: DEL by the closed fd");
	check_errno(epoll_ctl(ep, EPOLL_CTL_DEL, d, NULL), ENOENT, "dup: DEL by the dup");
	close(d);
	check(waitn(ep, 0, NULL) == 0, "dup: the last close removes it");
	signal(SIGPIPE, SIG_IGN);
	check_errno(write(q[1], "y", 1), EPIPE, "dup: the writer sees no reader left");
	close(q[1]);
	close(ep);
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	et_pipe_reads();
	et_pipe_out();
	et_socket();
	et_eventfd();
	et_timerfd();
	et_signalfd();
	et_pty();
	et_nested();
	close_registered();
	printf("1..%d\n", n);
	return 0;
}
