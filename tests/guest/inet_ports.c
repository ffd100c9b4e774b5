/* Ephemeral ports are picked at random in net.ipv4.ip_local_port_range,
 * each pick afresh (Linux's inet_csk_find_open_port for bind to port 0,
 * __inet_hash_connect for connect), not the last one plus one: skas gave
 * 48459, 48460, 48461... which another process could guess. */
#include <arpa/inet.h>
#include <stdio.h>
#include <sys/socket.h>
#include <unistd.h>

#include "tap.h"

#define N 8

/* The local ports of N sockets of type bound to port 0 (bind) or
 * connected (UDP connect) on 127.0.0.1. */
static int ports(int type, int by_connect, int out[N])
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t n;
	int i, s;

	for (i = 0; i < N; i++) {
		s = socket(AF_INET, type, 0);
		a.sin_port = by_connect ? htons(9) : 0;
		if (s < 0 || (by_connect ? connect(s, (void *)&a, sizeof(a))
					 : bind(s, (void *)&a, sizeof(a))) < 0)
			return -1;
		n = sizeof(a);
		if (getsockname(s, (void *)&a, &n) < 0)
			return -1;
		out[i] = ntohs(a.sin_port);
	}
	return 0;
}

/* No run of picks each one or two past the last. */
static int scattered(const int p[N])
{
	int i, steps = 0;

	for (i = 1; i < N; i++)
		if (p[i] - p[i - 1] == 1 || p[i] - p[i - 1] == 2)
			steps++;
	return steps < N - 1;
}

static int in_range(const int p[N])
{
	int i;

	for (i = 0; i < N; i++)
		if (p[i] < 32768 || p[i] > 60999)
			return 0;
	return 1;
}

int main(void)
{
	int p[N];

	check(ports(SOCK_STREAM, 0, p) == 0, "8 TCP sockets bound to port 0");
	check(in_range(p), "in the ephemeral range");
	check(scattered(p), "not one after another");
	check(ports(SOCK_DGRAM, 1, p) == 0, "8 UDP sockets connected");
	check(in_range(p), "in the ephemeral range");
	check(scattered(p), "not one after another");
	return 0;
}
