/* tests/guest/oob_util.h: what the out-of-band tests (tcp_oob, unix_oob,
 * oob_random) share: a loopback TCP connection, SIGURG's count, and
 * SIOCATMARK, FIONREAD, poll and a read as values to check. Include after
 * tap.h with TAP_ENAME. */
#ifndef TESTS_GUEST_OOB_UTIL_H
#define TESTS_GUEST_OOB_UTIL_H

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

static volatile int sigurgs;

static inline void on_urg(int sig)
{
	(void)sig;
	sigurgs++;
}

/* A connection on 127.0.0.1: *c connected to *a; returns the listener. */
static inline int tcp_pair(int *c, int *a)
{
	struct sockaddr_in sa = { .sin_family = AF_INET,
				  .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(sa);
	int l = socket(AF_INET, SOCK_STREAM, 0);

	bind(l, (struct sockaddr *)&sa, sizeof(sa));
	listen(l, 1);
	getsockname(l, (struct sockaddr *)&sa, &len);
	*c = socket(AF_INET, SOCK_STREAM, 0);
	check(connect(*c, (struct sockaddr *)&sa, sizeof(sa)) == 0, "connected");
	*a = accept(l, NULL, NULL);
	return l;
}

/* SIOCATMARK's answer, or -errno. */
static inline int at_mark(int fd)
{
	int v = -1;

	return ioctl(fd, SIOCATMARK, &v) < 0 ? -errno : v;
}

/* FIONREAD's count, or -errno. */
static inline int inq(int fd)
{
	int v = -1;

	return ioctl(fd, FIONREAD, &v) < 0 ? -errno : v;
}

/* poll's POLLIN and POLLPRI, at once. */
static inline short revents(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN | POLLPRI };

	return poll(&p, 1, 0) == 1 ? p.revents : 0;
}

/* A recv of up to 63 bytes with flags: what it read, or its errno's name,
 * is want. */
static inline void check_read(int fd, int flags, const char *want, const char *what)
{
	char buf[64], line[160];
	long r = recv(fd, buf, sizeof(buf) - 1, flags);
	const char *got;

	if (r >= 0)
		buf[r] = 0;
	got = r < 0 ? ename(errno) : buf;
	snprintf(line, sizeof(line), "%s: \"%s\"", what, got);
	check(strcmp(got, want) == 0, line);
}

#endif
