/* UDP-Lite (udplite(7)): socket(AF_INET or AF_INET6, SOCK_DGRAM,
 * IPPROTO_UDPLITE) is UDP with ports of its own and a checksum coverage:
 * UDPLITE_SEND_CSCOV (at SOL_UDPLITE or SOL_UDP; below 8 is 8, past 65535
 * is 65535, 0 is all) makes a datagram longer than it partially covered,
 * and a receiver that set UDPLITE_RECV_CSCOV drops one covered less than
 * it asked (all, for 0). A UDP socket reads both as 0 and may not set
 * them (ENOPROTOOPT). /proc/net/udplite lists the sockets. skas said
 * EPROTONOSUPPORT (CPython's test_socket: 224 errors). */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define TAP_ENAME
#include "tap.h"

#define UDPLITE	   136
#define SEND_CSCOV 10
#define RECV_CSCOV 11

static int getv(int s, int level, int name)
{
	int v = -1;
	socklen_t l = sizeof(v);

	return getsockopt(s, level, name, &v, &l) < 0 ? -errno : v;
}

static int setv(int s, int level, int name, int v)
{
	return setsockopt(s, level, name, &v, sizeof(v)) < 0 ? -errno : 0;
}

/* What s received within 200 ms: its length, or -1 for nothing. */
static int rcv(int s)
{
	struct pollfd p = { s, POLLIN, 0 };
	char b[64];

	if (poll(&p, 1, 200) <= 0)
		return -1;
	return (int)recv(s, b, sizeof(b), 0);
}

static int sent_got(int c, int s, const struct sockaddr_in *a, const char *data)
{
	if (sendto(c, data, strlen(data), 0, (const void *)a, sizeof(*a)) != (ssize_t)strlen(data))
		return -2;
	return rcv(s);
}

static int in_proc(const char *path, int port)
{
	char line[512], want[16];
	FILE *f = fopen(path, "r");
	int found = 0;

	snprintf(want, sizeof(want), ":%04X ", port);
	while (f && fgets(line, sizeof(line), f))
		if (strstr(line, want))
			found = 1;
	if (f)
		fclose(f);
	return found;
}

int main(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	struct sockaddr_in6 a6 = { .sin6_family = AF_INET6, .sin6_addr = IN6ADDR_LOOPBACK_INIT };
	socklen_t l = sizeof(a);
	int s, c, u, s6, c6, r;

	s = socket(AF_INET, SOCK_DGRAM, UDPLITE);
	c = socket(AF_INET, SOCK_DGRAM, UDPLITE);
	u = socket(AF_INET, SOCK_DGRAM, 0);
	check(s >= 0 && c >= 0, "two AF_INET UDP-Lite sockets");
	check(getv(s, SOL_SOCKET, SO_PROTOCOL) == UDPLITE, "SO_PROTOCOL: 136");
	check(bind(s, (void *)&a, l) == 0 && getsockname(s, (void *)&a, &l) == 0, "bound");
	check(in_proc("/proc/net/udplite", ntohs(a.sin_port)), "in /proc/net/udplite");
	check(!in_proc("/proc/net/udp", ntohs(a.sin_port)), "not in /proc/net/udp");
	check(sent_got(c, s, &a, "hello") == 5, "a datagram");
	check(sent_got(u, s, &a, "x") == -1, "a UDP datagram to its port: not for it");

	check(getv(c, UDPLITE, SEND_CSCOV) == 0 && getv(c, UDPLITE, RECV_CSCOV) == 0,
	      "coverages 0 at first");
	r = 20;
	check_err(setsockopt(u, UDPLITE, SEND_CSCOV, &r, sizeof(r)), ENOPROTOOPT,
		  "a UDP socket's: ENOPROTOOPT");
	check(getv(u, IPPROTO_UDP, SEND_CSCOV) == 0 && getv(u, UDPLITE, RECV_CSCOV) == 0,
	      "a UDP socket reads 0");
	check(setv(c, UDPLITE, SEND_CSCOV, 3) == 0 && getv(c, IPPROTO_UDP, SEND_CSCOV) == 8,
	      "3 is 8");
	check(setv(c, IPPROTO_UDP, SEND_CSCOV, 70000) == 0 && getv(c, UDPLITE, SEND_CSCOV) == 65535,
	      "70000 is 65535, at SOL_UDP too");
	check(setv(c, UDPLITE, SEND_CSCOV, -5) == 0 && getv(c, UDPLITE, SEND_CSCOV) == 8,
	      "-5 is 8");
	check(setv(c, UDPLITE, SEND_CSCOV, 0) == 0 && getv(c, UDPLITE, SEND_CSCOV) == 0, "0 is 0");
	{
		char small[2] = { 0 };
		socklen_t sl = sizeof(small);

		check_err(setsockopt(c, UDPLITE, SEND_CSCOV, small, 2), EINVAL, "a short value");
		check(getsockopt(c, UDPLITE, SEND_CSCOV, small, &sl) == 0 && sl == 2,
		      "a short buffer: cut");
	}

	/* coverage 10 of a 10-byte datagram (18 with the header): partial */
	setv(c, UDPLITE, SEND_CSCOV, 10);
	check(sent_got(c, s, &a, "0123456789") == 10, "partial, the receiver asked nothing: taken");
	setv(s, UDPLITE, RECV_CSCOV, 12);
	check(sent_got(c, s, &a, "0123456789") == -1, "covered 10, 12 asked: dropped");
	check(sent_got(c, s, &a, "z") == 1, "covered 10 of 9: all of it, taken");
	setv(c, UDPLITE, SEND_CSCOV, 12);
	check(sent_got(c, s, &a, "0123456789") == 10, "covered 12, 12 asked: taken");
	setv(s, UDPLITE, RECV_CSCOV, 0);
	check(sent_got(c, s, &a, "0123456789") == -1, "covered 12, all asked: dropped");
	setv(c, UDPLITE, SEND_CSCOV, 0);
	check(sent_got(c, s, &a, "0123456789") == 10, "all covered, all asked: taken");

	/* a connected socket hears the port unreachable of a closed one */
	check(connect(c, (void *)&a, l) == 0, "connected");
	close(s);
	r = (int)write(c, "x", 1);
	usleep(20000);
	errno = 0;
	check(r == 1 && write(c, "x", 1) < 0 && errno == ECONNREFUSED,
	      "its peer closed: ECONNREFUSED");

	s6 = socket(AF_INET6, SOCK_DGRAM, UDPLITE);
	c6 = socket(AF_INET6, SOCK_DGRAM, UDPLITE);
	l = sizeof(a6);
	check(s6 >= 0 && c6 >= 0 && bind(s6, (void *)&a6, l) == 0 &&
		      getsockname(s6, (void *)&a6, &l) == 0,
	      "AF_INET6 too");
	check(in_proc("/proc/net/udplite6", ntohs(a6.sin6_port)), "in /proc/net/udplite6");
	check(sendto(c6, "abc", 3, 0, (void *)&a6, l) == 3 && rcv(s6) == 3, "a datagram");
	check_err(socket(AF_INET, SOCK_STREAM, UDPLITE), EPROTONOSUPPORT, "no stream");
	return 0;
}
