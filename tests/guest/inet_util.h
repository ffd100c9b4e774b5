/* Helpers of the AF_INET/AF_INET6 guest tests (inet_tcp, inet_udp,
 * inet6, icmp_sock...): TAP lines, errno names, addresses, an option's
 * value, the Internet checksum. Ports are always ephemeral
 * (bind to port 0) so that parallel native runs never collide; a port is
 * printed only as "nonzero" or compared with another. */
#ifndef INET_UTIL_H
#define INET_UTIL_H

#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#define TAP_ENAME
#include "tap.h"

static inline struct sockaddr_in sin4(const char *ip, int port)
{
	struct sockaddr_in a;

	memset(&a, 0, sizeof(a));
	a.sin_family = AF_INET;
	a.sin_port = htons(port);
	inet_pton(AF_INET, ip, &a.sin_addr);
	return a;
}

static inline struct sockaddr_in6 sin6(const char *ip, int port)
{
	struct sockaddr_in6 a;

	memset(&a, 0, sizeof(a));
	a.sin6_family = AF_INET6;
	a.sin6_port = htons(port);
	inet_pton(AF_INET6, ip, &a.sin6_addr);
	return a;
}

/* The local (peer: remote) address of fd as "ip" and its port. */
static inline int name_of(int fd, int peer, char *ip, int *port, socklen_t *len)
{
	struct sockaddr_storage ss;
	socklen_t l = sizeof(ss);
	int r = peer ? getpeername(fd, (struct sockaddr *)&ss, &l)
		     : getsockname(fd, (struct sockaddr *)&ss, &l);

	if (r < 0)
		return -1;
	if (len)
		*len = l;
	if (ss.ss_family == AF_INET) {
		struct sockaddr_in *a = (struct sockaddr_in *)&ss;

		inet_ntop(AF_INET, &a->sin_addr, ip, 64);
		*port = ntohs(a->sin_port);
	} else {
		struct sockaddr_in6 *a = (struct sockaddr_in6 *)&ss;

		inet_ntop(AF_INET6, &a->sin6_addr, ip, 64);
		*port = ntohs(a->sin6_port);
	}
	return ss.ss_family;
}

static inline int port_of(int fd)
{
	char ip[64];
	int port = -1;

	name_of(fd, 0, ip, &port, NULL);
	return port;
}

/* An int socket option's value, or -1. */
/* How many datagrams fd has queued, after a moment for them to arrive;
 * they are read. */
static inline int dgrams_pending(int fd)
{
	char buf[64];
	int n = 0;

	usleep(20000);
	while (recv(fd, buf, sizeof(buf), MSG_DONTWAIT) >= 0)
		n++;
	return n;
}

static inline int getint(int fd, int level, int name)
{
	int v = -1;
	socklen_t l = sizeof(v);

	getsockopt(fd, level, name, &v, &l);
	return v;
}

/* The Internet checksum of n bytes at p, sum (a pseudo-header's) added:
 * 0 when a message holding its checksum adds up. */
static inline uint16_t csum(const void *p, size_t n, uint32_t sum)
{
	const uint8_t *b = p;

	for (; n > 1; n -= 2, b += 2)
		sum += (uint32_t)(b[0] << 8 | b[1]);
	if (n)
		sum += (uint32_t)b[0] << 8;
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

static inline int child_exit(pid_t pid)
{
	int st;

	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

#endif
