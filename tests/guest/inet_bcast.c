/* skas-test: netns: lo */
/* The loopback's broadcast address, 127.255.255.255: a datagram to it
 * wants SO_BROADCAST (EACCES, also for connect, ICMP raw and ping
 * sockets) and goes to every UDP socket of its port bound to 0.0.0.0 or
 * to it (an AF_INET6 one on :: too), the sender's own included, but not
 * to one on 127.0.0.1 or a connected one's other peer; nobody answers it
 * with ICMP. TCP cannot connect to it (ENETUNREACH); an echo request to
 * it is seen by raw sockets and not answered. */
#include "inet_util.h"

#include <fcntl.h>
#include <poll.h>
#include <netinet/ip_icmp.h>

static int bound(int fam, const char *ip, int port)
{
	int s = socket(fam, SOCK_DGRAM, 0), one = 1;

	setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (fam == AF_INET) {
		struct sockaddr_in a = sin4(ip, port);
		bind(s, (struct sockaddr *)&a, sizeof(a));
	} else {
		struct sockaddr_in6 a = sin6(ip, port);
		bind(s, (struct sockaddr *)&a, sizeof(a));
	}
	return s;
}

int main(void)
{
	int a = bound(AF_INET, "0.0.0.0", 0), port = port_of(a), one = 1;
	int b = bound(AF_INET, "0.0.0.0", port), c = bound(AF_INET, "127.0.0.1", port);
	int d = bound(AF_INET, "127.255.255.255", port), e = bound(AF_INET6, "::", port);
	int s = socket(AF_INET, SOCK_DGRAM, 0);
	struct sockaddr_in bc = sin4("127.255.255.255", port), bc0 = sin4("127.255.255.255", 9);

	setvbuf(stdout, NULL, _IONBF, 0);
	check(port_of(d) == port, "bind to the broadcast address");
	check_err(sendto(s, "x", 1, 0, (struct sockaddr *)&bc, sizeof(bc)), EACCES,
		  "sendto without SO_BROADCAST");
	check_err(connect(s, (struct sockaddr *)&bc, sizeof(bc)), EACCES,
		  "connect without SO_BROADCAST");
	check(setsockopt(s, SOL_SOCKET, SO_BROADCAST, &one, sizeof(one)) == 0, "SO_BROADCAST");
	check(sendto(s, "x", 1, 0, (struct sockaddr *)&bc, sizeof(bc)) == 1, "sendto");
	printf("on 0.0.0.0: %d %d, on 127.0.0.1: %d, on 127.255.255.255: %d, on ::: %d\n",
	       dgrams_pending(a), dgrams_pending(b), dgrams_pending(c), dgrams_pending(d),
	       dgrams_pending(e));
	check(setsockopt(a, SOL_SOCKET, SO_BROADCAST, &one, sizeof(one)) == 0, "SO_BROADCAST");
	check(sendto(a, "y", 1, 0, (struct sockaddr *)&bc, sizeof(bc)) == 1, "sendto from a");
	printf("its own: %d, the other: %d\n", dgrams_pending(a), dgrams_pending(b));
	/* nobody on the port: no ICMP, no error */
	int r = socket(AF_INET, SOCK_RAW, IPPROTO_ICMP);
	setsockopt(s, SOL_IP, IP_RECVERR, &one, sizeof(one));
	check(sendto(s, "z", 1, 0, (struct sockaddr *)&bc0, sizeof(bc0)) == 1, "to a free port");
	check(dgrams_pending(r) == 0, "no ICMP");
	check_err(recv(s, (char[8]){ 0 }, 8, MSG_ERRQUEUE | MSG_DONTWAIT), EAGAIN, "no error");
	check(connect(s, (struct sockaddr *)&bc, sizeof(bc)) == 0, "connect with SO_BROADCAST");
	check(send(s, "w", 1, 0) == 1, "send");
	printf("connected send: on 0.0.0.0: %d\n", dgrams_pending(b));
	dgrams_pending(a);
	dgrams_pending(c);
	dgrams_pending(d);
	dgrams_pending(e);

	/* TCP */
	int t = socket(AF_INET, SOCK_STREAM, 0);
	check_err(connect(t, (struct sockaddr *)&bc, sizeof(bc)), ENETUNREACH, "TCP connect");

	/* ICMP */
	struct icmphdr h = { .type = ICMP_ECHO };
	struct sockaddr_in bci = sin4("127.255.255.255", 0);
	uint8_t pkt[8];
	memcpy(pkt, &h, sizeof(h));
	pkt[2] = 0xf7, pkt[3] = 0xff; /* the checksum of this header */
	int q = socket(AF_INET, SOCK_RAW, IPPROTO_ICMP);
	check_err(sendto(q, pkt, 8, 0, (struct sockaddr *)&bci, sizeof(bci)), EACCES,
		  "raw: without SO_BROADCAST");
	setsockopt(q, SOL_SOCKET, SO_BROADCAST, &one, sizeof(one));
	check(sendto(q, pkt, 8, 0, (struct sockaddr *)&bci, sizeof(bci)) == 8, "raw: with it");
	check(dgrams_pending(q) == 1, "the request only: no reply");
	dgrams_pending(r);
	int fd = open("/proc/sys/net/ipv4/ping_group_range", O_WRONLY);
	write(fd, "0 0", 3);
	close(fd);
	int p = socket(AF_INET, SOCK_DGRAM, IPPROTO_ICMP);
	check_err(sendto(p, pkt, 8, 0, (struct sockaddr *)&bci, sizeof(bci)), EACCES,
		  "ping: without SO_BROADCAST");
	setsockopt(p, SOL_SOCKET, SO_BROADCAST, &one, sizeof(one));
	check(sendto(p, pkt, 8, 0, (struct sockaddr *)&bci, sizeof(bci)) == 8, "ping: with it");
	check(dgrams_pending(p) == 0, "no reply");
	fd = open("/proc/sys/net/ipv4/ping_group_range", O_WRONLY);
	write(fd, "1 0", 3);
	close(fd);
	return 0;
}
