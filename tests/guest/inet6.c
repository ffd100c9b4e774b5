/* AF_INET6 on loopback: ::1 and ::, IPv4 clients of a dual-stack
 * listener seen as ::ffff:127.0.0.1, IPV6_V6ONLY (no IPv4, no clash with
 * an AF_INET socket on the same port, only before bind), the clashes of
 * a dual-stack bind, EADDRNOTAVAIL, sockaddr_in6 lengths, and UDP from
 * IPv4 and IPv6 senders to a socket on ::; what an AF_INET6 UDP socket
 * takes as a destination (an AF_INET sockaddr, AF_UNSPEC as none, a name
 * of length 0), its options' errors and lengths, and connect to :: from a
 * socket bound to a mapped address (127.0.0.1). */
#include "inet_util.h"

#include <netinet/tcp.h>
#include <signal.h>
#include <stdlib.h>

static int listener6(const char *ip, int v6only)
{
	struct sockaddr_in6 a = sin6(ip, 0);
	int s = socket(AF_INET6, SOCK_STREAM, 0);

	if (v6only)
		setsockopt(s, IPPROTO_IPV6, IPV6_V6ONLY, &v6only, sizeof(v6only));
	if (bind(s, (struct sockaddr *)&a, sizeof(a)) < 0 || listen(s, 4) < 0)
		return -1;
	return s;
}

static void test_tcp(void)
{
	int l = listener6("::", 0), port = port_of(l), c, a, p, one = 1;
	char ip[64];
	socklen_t len;
	struct sockaddr_in6 to6 = sin6("::1", port);
	struct sockaddr_in to4 = sin4("127.0.0.1", port);

	check(l >= 0 && getint(l, IPPROTO_IPV6, IPV6_V6ONLY) == 0, "listen on ::, dual stack");
	check(name_of(l, 0, ip, &p, &len) == AF_INET6 && !strcmp(ip, "::") &&
		      len == sizeof(struct sockaddr_in6),
	      "getsockname: :: in a sockaddr_in6");
	c = socket(AF_INET6, SOCK_STREAM, 0);
	check(connect(c, (struct sockaddr *)&to6, sizeof(to6)) == 0, "connect to ::1");
	a = accept(l, NULL, NULL);
	name_of(a, 1, ip, &p, NULL);
	check(!strcmp(ip, "::1") && p == port_of(c), "the peer is ::1");
	name_of(c, 0, ip, &p, NULL);
	check(!strcmp(ip, "::1"), "the client is ::1");
	close(a);
	close(c);

	c = socket(AF_INET, SOCK_STREAM, 0);
	check(connect(c, (struct sockaddr *)&to4, sizeof(to4)) == 0, "an IPv4 client");
	struct sockaddr_in6 peer;
	socklen_t plen = sizeof(peer);
	a = accept(l, (struct sockaddr *)&peer, &plen);
	inet_ntop(AF_INET6, &peer.sin6_addr, ip, sizeof(ip));
	check(plen == sizeof(peer) && peer.sin6_family == AF_INET6 &&
		      !strcmp(ip, "::ffff:127.0.0.1") && ntohs(peer.sin6_port) == port_of(c),
	      "accepted as ::ffff:127.0.0.1");
	name_of(a, 0, ip, &p, NULL);
	check(!strcmp(ip, "::ffff:127.0.0.1") && p == port, "its local name is mapped too");
	check(write(c, "v4", 2) == 2 && read(a, ip, 2) == 2, "data");
	close(a);
	close(c);

	c = socket(AF_INET6, SOCK_STREAM, 0);
	struct sockaddr_in6 mapped = sin6("::ffff:127.0.0.1", port);
	check(connect(c, (struct sockaddr *)&mapped, sizeof(mapped)) == 0,
	      "an AF_INET6 client to ::ffff:127.0.0.1");
	name_of(c, 0, ip, &p, NULL);
	check(!strcmp(ip, "::ffff:127.0.0.1"), "its source is mapped");
	a = accept(l, NULL, NULL);
	close(a);
	close(c);

	/* a dual-stack listener holds the IPv4 port too */
	int s4 = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in b4 = sin4("127.0.0.1", port);
	check_err(bind(s4, (struct sockaddr *)&b4, sizeof(b4)), EADDRINUSE,
		  "AF_INET bind beside a dual-stack ::");
	close(s4);
	close(l);

	l = listener6("::", 1);
	port = port_of(l);
	check(getint(l, IPPROTO_IPV6, IPV6_V6ONLY) == 1, "IPV6_V6ONLY set");
	check_err(setsockopt(l, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one)), EINVAL,
		  "IPV6_V6ONLY after bind");
	to4 = sin4("127.0.0.1", port);
	c = socket(AF_INET, SOCK_STREAM, 0);
	check_err(connect(c, (struct sockaddr *)&to4, sizeof(to4)), ECONNREFUSED,
		  "IPv4 client of a v6-only listener");
	close(c);
	/* Natively another host socket may hold the same IPv4 port by chance
	 * (the native tests run beside each other): then a fresh v6-only
	 * listener, a few times. */
	for (int tries = 0;; tries++) {
		int r;

		s4 = socket(AF_INET, SOCK_STREAM, 0);
		r = bind(s4, (struct sockaddr *)&to4, sizeof(to4));
		close(s4);
		if (r == 0 || errno != EADDRINUSE || tries == 4) {
			check(r == 0, "AF_INET bind beside a v6-only ::");
			break;
		}
		close(l);
		l = listener6("::", 1);
		port = port_of(l);
		to4 = sin4("127.0.0.1", port);
	}
	c = socket(AF_INET6, SOCK_STREAM, 0);
	setsockopt(c, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one));
	mapped = sin6("::ffff:127.0.0.1", port);
	check_err(connect(c, (struct sockaddr *)&mapped, sizeof(mapped)), ENETUNREACH,
		  "v6-only to a mapped address");
	check_err(bind(c, (struct sockaddr *)&mapped, sizeof(mapped)), EINVAL,
		  "v6-only bind to a mapped address");
	struct sockaddr_in6 any = sin6("::", port);
	check(connect(c, (struct sockaddr *)&any, sizeof(any)) == 0, "connect to :: is ::1");
	name_of(c, 1, ip, &p, NULL);
	check(!strcmp(ip, "::1") && p == port, "the peer is ::1");
	close(c);
	close(l);

	c = socket(AF_INET6, SOCK_STREAM, 0);
	struct sockaddr_in6 doc = sin6("2001:db8::1", 0);
	check_err(bind(c, (struct sockaddr *)&doc, sizeof(doc)), EADDRNOTAVAIL, "bind 2001:db8::1");
	check_err(bind(c, (struct sockaddr *)&doc, 23), EINVAL, "short sockaddr_in6");
	struct sockaddr_in wrong = sin4("127.0.0.1", 0);
	check_err(bind(c, (struct sockaddr *)&wrong, sizeof(doc)), EAFNOSUPPORT,
		  "AF_INET address to AF_INET6");
	check(name_of(c, 0, ip, &p, &len) == AF_INET6 && !strcmp(ip, "::") && p == 0 &&
		      len == sizeof(struct sockaddr_in6),
	      "unbound: ::, port 0");
	close(c);
}

static void test_udp(void)
{
	int s = socket(AF_INET6, SOCK_DGRAM, 0), c4 = socket(AF_INET, SOCK_DGRAM, 0),
	    c6 = socket(AF_INET6, SOCK_DGRAM, 0);
	struct sockaddr_in6 a = sin6("::", 0), from;
	socklen_t fl = sizeof(from);
	char buf[16], ip[64];

	int m1 = -1, tc = 0x20;
	check(setsockopt(s, IPPROTO_IPV6, IPV6_TCLASS, &tc, sizeof(tc)) == 0 &&
		      getint(s, IPPROTO_IPV6, IPV6_TCLASS) == 0x20 &&
		      setsockopt(s, IPPROTO_IPV6, IPV6_TCLASS, &m1, sizeof(m1)) == 0 &&
		      getint(s, IPPROTO_IPV6, IPV6_TCLASS) == 0,
	      "IPV6_TCLASS, and -1 for its default");
	bind(s, (struct sockaddr *)&a, sizeof(a));
	struct sockaddr_in to4 = sin4("127.0.0.1", port_of(s));
	struct sockaddr_in6 to6 = sin6("::1", port_of(s));
	check(sendto(c4, "four", 4, 0, (struct sockaddr *)&to4, sizeof(to4)) == 4 &&
		      recvfrom(s, buf, sizeof(buf), 0, (struct sockaddr *)&from, &fl) == 4,
	      "UDP from IPv4 to ::");
	inet_ntop(AF_INET6, &from.sin6_addr, ip, sizeof(ip));
	check(fl == sizeof(from) && !strcmp(ip, "::ffff:127.0.0.1") &&
		      ntohs(from.sin6_port) == port_of(c4),
	      "from ::ffff:127.0.0.1");
	fl = sizeof(from);
	check(sendto(c6, "six", 3, 0, (struct sockaddr *)&to6, sizeof(to6)) == 3 &&
		      recvfrom(s, buf, sizeof(buf), 0, (struct sockaddr *)&from, &fl) == 3,
	      "UDP from IPv6");
	inet_ntop(AF_INET6, &from.sin6_addr, ip, sizeof(ip));
	check(!strcmp(ip, "::1") && ntohs(from.sin6_port) == port_of(c6), "from ::1");
	fl = sizeof(from);
	check(sendto(s, "back", 4, 0, (struct sockaddr *)&from, sizeof(from)) == 4 &&
		      recv(c6, buf, sizeof(buf), 0) == 4,
	      "and back");
	close(s);
	close(c4);
	close(c6);
}

/* connect() of an AF_INET6 UDP socket takes an AF_INET sockaddr (the IPv4
 * code's) after a disconnect too: glibc's getaddrinfo sorts its answers
 * so, and a server that binds the first (python's http.server) binds
 * 0.0.0.0, not ::, as natively. */
static void test_udp_connect_v4(void)
{
	int s = socket(AF_INET6, SOCK_DGRAM, 0), one = 1;
	struct sockaddr_in6 any6 = sin6("::", 8123), name;
	struct sockaddr_in any4 = sin4("0.0.0.0", 8123), sh = sin4("127.0.0.1", 8123);
	struct sockaddr un = { .sa_family = AF_UNSPEC };
	socklen_t len = sizeof(name);
	char ip[64];

	check(connect(s, (struct sockaddr *)&any6, sizeof(any6)) == 0, "UDP6 connect to ::");
	getsockname(s, (struct sockaddr *)&name, &len);
	inet_ntop(AF_INET6, &name.sin6_addr, ip, sizeof(ip));
	printf("# source %s\n", ip);
	check(connect(s, &un, sizeof(un)) == 0, "disconnect");
	check(connect(s, (struct sockaddr *)&any4, sizeof(any4)) == 0,
	      "UDP6 connect to an AF_INET 0.0.0.0");
	len = sizeof(name);
	getsockname(s, (struct sockaddr *)&name, &len);
	inet_ntop(AF_INET6, &name.sin6_addr, ip, sizeof(ip));
	printf("# source %s, length %u\n", ip, len);
	check_err(connect(s, (struct sockaddr *)&sh, sizeof(sh) - 1), EINVAL,
		  "an AF_INET address too short");
	close(s);
	s = socket(AF_INET6, SOCK_DGRAM, 0);
	setsockopt(s, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one));
	check_err(connect(s, (struct sockaddr *)&sh, sizeof(sh)), EAFNOSUPPORT,
		  "V6ONLY: an AF_INET address");
	close(s);
}

static void test_hostile(void)
{
	int r4 = socket(AF_INET, SOCK_DGRAM, 0), s = socket(AF_INET6, SOCK_DGRAM, 0), v, one = 1;
	struct sockaddr_in lo = sin4("127.0.0.1", 0), to4;
	struct sockaddr_in6 un;
	char buf[8], ip[64];
	socklen_t len;
	int port;

	bind(r4, (struct sockaddr *)&lo, sizeof(lo));
	to4 = sin4("127.0.0.1", port_of(r4));
	check(sendto(s, "4", 1, 0, (struct sockaddr *)&to4, sizeof(to4)) == 1 &&
		      recv(r4, buf, sizeof(buf), MSG_DONTWAIT) == 1,
	      "AF_INET6 UDP sends to a sockaddr_in");
	check_err(sendto(s, "4", 1, 0, (struct sockaddr *)&to4, 8), EINVAL, "a short sockaddr_in");
	check_err(sendto(s, "4", 1, 0, (struct sockaddr *)&to4, 0), EINVAL, "a name of length 0");
	check_err(sendto(s, "4", 1, 0, (struct sockaddr *)&to4, 1), EINVAL, "a name of 1 byte");
	un = sin6("::1", 9);
	un.sin6_family = AF_UNSPEC;
	check_err(sendto(s, "4", 1, 0, (struct sockaddr *)&un, sizeof(un)), EDESTADDRREQ,
		  "AF_UNSPEC is no name: EDESTADDRREQ");
	un.sin6_family = 99;
	check_err(sendto(s, "4", 1, 0, (struct sockaddr *)&un, sizeof(un)), EINVAL,
		  "family 99: EINVAL");
	close(s);
	s = socket(AF_INET6, SOCK_DGRAM, 0);
	setsockopt(s, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one));
	check_err(sendto(s, "4", 1, 0, (struct sockaddr *)&to4, 10), ENETUNREACH,
		  "v6-only to a (short) sockaddr_in");
	len = sizeof(v);
	check_err(getsockopt(s, IPPROTO_TCP, TCP_NODELAY, &v, &len), ENOPROTOOPT,
		  "getsockopt SOL_TCP on AF_INET6 UDP");
	len = -1;
	check(getsockopt(s, IPPROTO_IPV6, IPV6_V6ONLY, &v, &len) == 0 && len == sizeof(int) &&
		      v == 1,
	      "IPV6_V6ONLY with length -1: an int");
	unsigned char b = 1;
	check_err(setsockopt(s, IPPROTO_IPV6, IPV6_UNICAST_HOPS, &b, 1), EINVAL,
		  "IPV6_UNICAST_HOPS of a byte");
	check_err(setsockopt(s, IPPROTO_IPV6, 9999, &b, 1), ENOPROTOOPT, "an unknown IPv6 option");
	close(s);
	close(r4);

	s = socket(AF_INET6, SOCK_STREAM, 0);
	v = 0xff;
	check(setsockopt(s, IPPROTO_IPV6, IPV6_TCLASS, &v, sizeof(v)) == 0 &&
		      getint(s, IPPROTO_IPV6, IPV6_TCLASS) == 0xfc,
	      "IPV6_TCLASS 0xff on TCP: 0xfc");
	close(s);

	/* connect to :: from a socket bound to ::ffff:127.0.0.2 */
	int l = socket(AF_INET6, SOCK_STREAM, 0), c = socket(AF_INET6, SOCK_STREAM, 0);
	struct sockaddr_in6 a = sin6("::ffff:127.0.0.1", 0);
	bind(l, (struct sockaddr *)&a, sizeof(a));
	listen(l, 1);
	a = sin6("::ffff:127.0.0.2", 0);
	bind(c, (struct sockaddr *)&a, sizeof(a));
	a = sin6("::", port_of(l));
	check(connect(c, (struct sockaddr *)&a, sizeof(a)) == 0,
	      "bound to ::ffff:127.0.0.2, connect to ::");
	name_of(c, 1, ip, &port, NULL);
	check(!strcmp(ip, "::ffff:127.0.0.1") && port == port_of(l), "reaches ::ffff:127.0.0.1");
	close(c);
	close(l);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	signal(SIGPIPE, SIG_IGN);
	test_tcp();
	test_udp();
	test_udp_connect_v4();
	test_hostile();
	return 0;
}
