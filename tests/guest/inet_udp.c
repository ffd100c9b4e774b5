/* AF_INET UDP on loopback: sendto/recvfrom with source addresses, an
 * unbound sender's ephemeral port, MSG_PEEK, MSG_TRUNC, FIONREAD, a
 * connected socket (send without address, getpeername, it hears only its
 * peer, ECONNREFUSED from a port nobody holds), connect(AF_UNSPEC), the
 * size limit, EDESTADDRREQ, shutdown, poll, and an echo through a forked
 * child; hostile arguments in Linux's order (an unbound sender's port comes
 * before any check, a name of length 0, sizes before flags, MSG_OOB),
 * SO_RCVBUF (a datagram larger than it still gets into an empty queue), a
 * faulting receive losing the datagram, SHUT_RD, IP options as a byte,
 * IP_TOS. Children never print. */
#include "inet_util.h"

#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <netinet/udp.h>

static int udp(void)
{
	return socket(AF_INET, SOCK_DGRAM, 0);
}

static int bound(const char *ip)
{
	struct sockaddr_in a = sin4(ip, 0);
	int s = udp();

	bind(s, (struct sockaddr *)&a, sizeof(a));
	return s;
}

static void test_basic(void)
{
	int a = bound("127.0.0.1"), b = bound("127.0.0.1"), c = udp(), avail = -1;
	struct sockaddr_in to = sin4("127.0.0.1", port_of(b)), from;
	socklen_t flen = sizeof(from);
	char buf[64], ip[64];
	int port;

	check(getint(a, SOL_SOCKET, SO_TYPE) == SOCK_DGRAM &&
		      getint(a, SOL_SOCKET, SO_PROTOCOL) == IPPROTO_UDP,
	      "SO_TYPE, SO_PROTOCOL");
	check(sendto(a, "hello", 5, 0, (struct sockaddr *)&to, sizeof(to)) == 5, "sendto");
	check(sendto(a, "world!", 6, 0, (struct sockaddr *)&to, sizeof(to)) == 6, "sendto again");
	check(ioctl(b, FIONREAD, &avail) == 0 && avail == 5, "FIONREAD: the first datagram");
	struct pollfd p = { b, POLLIN | POLLOUT, 0 };
	check(poll(&p, 1, 0) == 1 && p.revents == (POLLIN | POLLOUT), "POLLIN|POLLOUT");
	check(recv(b, buf, sizeof(buf), MSG_PEEK) == 5, "MSG_PEEK");
	check(recvfrom(b, buf, sizeof(buf), 0, (struct sockaddr *)&from, &flen) == 5 &&
		      !memcmp(buf, "hello", 5) && flen == sizeof(from) &&
		      from.sin_family == AF_INET && ntohs(from.sin_port) == port_of(a) &&
		      from.sin_addr.s_addr == htonl(INADDR_LOOPBACK),
	      "recvfrom: data and the sender's address");
	struct msghdr mh;
	struct iovec iov = { buf, 3 };
	memset(&mh, 0, sizeof(mh));
	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	check(recvmsg(b, &mh, 0) == 3 && (mh.msg_flags & MSG_TRUNC), "cut: MSG_TRUNC");
	check_err(recv(b, buf, sizeof(buf), MSG_DONTWAIT), EAGAIN, "empty");

	/* an unbound sender gets a port; its address stays 0.0.0.0 */
	check(sendto(c, "x", 1, 0, (struct sockaddr *)&to, sizeof(to)) == 1, "unbound sendto");
	flen = sizeof(from);
	recvfrom(b, buf, sizeof(buf), 0, (struct sockaddr *)&from, &flen);
	name_of(c, 0, ip, &port, NULL);
	check(!strcmp(ip, "0.0.0.0") && port != 0 && port == ntohs(from.sin_port),
	      "it was given an ephemeral port");
	check_err(send(c, "x", 1, 0), EDESTADDRREQ, "send without address");
	struct sockaddr_in zero = sin4("127.0.0.1", 0);
	check_err(sendto(c, "x", 1, 0, (struct sockaddr *)&zero, sizeof(zero)), EINVAL,
		  "sendto port 0");
	check_err(sendto(c, "x", 1, 0, (struct sockaddr *)&to, sizeof(to) - 1), EINVAL,
		  "sendto short address");
	static char big[65600];
	check(sendto(c, big, 65507, 0, (struct sockaddr *)&to, sizeof(to)) == 65507 &&
		      recv(b, big, sizeof(big), 0) == 65507,
	      "65507 bytes: the largest");
	check_err(sendto(c, big, 65508, 0, (struct sockaddr *)&to, sizeof(to)), EMSGSIZE,
		  "65508 bytes");
	check(recv(b, buf, sizeof(buf), MSG_DONTWAIT | MSG_TRUNC) == -1, "nothing else came");
	check_err(listen(b, 1), EOPNOTSUPP, "listen");
	check_err(shutdown(b, SHUT_RDWR), ENOTCONN, "shutdown unconnected");
	check(recv(b, buf, sizeof(buf), 0) == 0, "but it is shut down: recv 0");
	close(a);
	close(b);
	close(c);
}

static void test_connected(void)
{
	int a = bound("127.0.0.1"), b = udp(), c = bound("127.0.0.1"), port;
	struct sockaddr_in to = sin4("127.0.0.1", port_of(a)), un;
	char buf[64], ip[64];

	check(connect(b, (struct sockaddr *)&to, sizeof(to)) == 0, "connect");
	name_of(b, 0, ip, &port, NULL);
	check(!strcmp(ip, "127.0.0.1") && port != 0, "connect binds 127.0.0.1 and a port");
	name_of(b, 1, ip, &port, NULL);
	check(!strcmp(ip, "127.0.0.1") && port == port_of(a), "getpeername");
	check(send(b, "to-a", 4, 0) == 4 && recv(a, buf, sizeof(buf), 0) == 4, "send to the peer");
	struct sockaddr_in tb = sin4("127.0.0.1", port_of(b));
	check(sendto(c, "stranger", 8, 0, (struct sockaddr *)&tb, sizeof(tb)) == 8,
	      "a stranger sends to it");
	check(sendto(a, "peer", 4, 0, (struct sockaddr *)&tb, sizeof(tb)) == 4, "the peer sends");
	check(recv(b, buf, sizeof(buf), 0) == 4 && !memcmp(buf, "peer", 4),
	      "only the peer's datagram arrives");
	check_err(recv(b, buf, sizeof(buf), MSG_DONTWAIT), EAGAIN, "the stranger's was not taken");

	memset(&un, 0, sizeof(un));
	un.sin_family = AF_UNSPEC;
	check(connect(b, (struct sockaddr *)&un, sizeof(un)) == 0, "connect(AF_UNSPEC)");
	check_err(getpeername(b, (struct sockaddr *)&un, &(socklen_t){ sizeof(un) }), ENOTCONN,
		  "no peer any more");
	check(sendto(c, "again", 5, 0, (struct sockaddr *)&tb, sizeof(tb)) == 5 ||
		      errno == ECONNREFUSED,
	      "send to its old port");

	/* a port nobody holds: the connected socket hears ECONNREFUSED */
	int d = bound("127.0.0.1"), dead = port_of(d);
	close(d);
	to = sin4("127.0.0.1", dead);
	connect(c, (struct sockaddr *)&to, sizeof(to));
	check(send(c, "lost", 4, 0) == 4, "send to a closed port");
	struct pollfd p = { c, POLLIN, 0 };
	poll(&p, 1, 2000);
	check(p.revents & POLLERR, "POLLERR");
	check_err(recv(c, buf, sizeof(buf), MSG_DONTWAIT), ECONNREFUSED, "recv: ECONNREFUSED");
	check_err(recv(c, buf, sizeof(buf), MSG_DONTWAIT), EAGAIN, "reported once");
	close(a);
	close(b);
	close(c);

	/* after SHUT_WR a send is EPIPE, without SIGPIPE */
	pid_t pid = fork();
	if (pid == 0) {
		int u = bound("127.0.0.1");

		signal(SIGPIPE, SIG_DFL);
		to = sin4("127.0.0.1", port_of(u));
		connect(u, (struct sockaddr *)&to, sizeof(to));
		shutdown(u, SHUT_WR);
		_exit(send(u, "x", 1, 0) == -1 && errno == EPIPE ? 0 : 1);
	}
	check(child_exit(pid) == 0, "send after SHUT_WR: EPIPE, no SIGPIPE");
}

/* The child echoes datagrams back to their sender until "end". */
static void test_echo(void)
{
	int srv = bound("127.0.0.1"), port = port_of(srv), ok = 1, i;
	pid_t pid = fork();

	if (pid == 0) {
		char buf[256];
		struct sockaddr_in from;

		for (;;) {
			socklen_t fl = sizeof(from);
			ssize_t r =
				recvfrom(srv, buf, sizeof(buf), 0, (struct sockaddr *)&from, &fl);

			if (r < 0)
				_exit(1);
			if (r == 3 && !memcmp(buf, "end", 3))
				_exit(0);
			sendto(srv, buf, r, 0, (struct sockaddr *)&from, fl);
		}
	}
	int c = udp();
	struct sockaddr_in to = sin4("127.0.0.1", port);
	for (i = 0; i < 20; i++) {
		char msg[32], buf[32];
		int len = snprintf(msg, sizeof(msg), "datagram %d", i);
		struct sockaddr_in from;
		socklen_t fl = sizeof(from);

		if (sendto(c, msg, len, 0, (struct sockaddr *)&to, sizeof(to)) != len ||
		    recvfrom(c, buf, sizeof(buf), 0, (struct sockaddr *)&from, &fl) != len ||
		    memcmp(buf, msg, len) || ntohs(from.sin_port) != port)
			ok = 0;
	}
	check(ok, "20 datagrams echoed by a child, from its port");
	sendto(c, "end", 3, 0, (struct sockaddr *)&to, sizeof(to));
	check(child_exit(pid) == 0, "child done");
	close(c);
	close(srv);
}

static void test_hostile(void)
{
	int r = bound("127.0.0.1"), s = udp(), v;
	struct sockaddr_in to = sin4("127.0.0.1", port_of(r)), bad = to;
	static char big[65536];
	char buf[8];
	socklen_t l;

	check_err(sendto(s, "x", 1, 0, (struct sockaddr *)&to, 0), EINVAL,
		  "sendto with an address of length 0");
	check(port_of(s) > 0, "the sender got its port first");
	check_err(sendto(s, "x", 1, 0, (struct sockaddr *)&to, sizeof(to) - 1), EINVAL,
		  "sendto with a short address");
	close(s);
	s = udp();
	bad.sin_family = AF_INET6;
	check_err(sendto(s, "x", 1, 0, (struct sockaddr *)&bad, sizeof(bad)), EAFNOSUPPORT,
		  "sendto an AF_INET6 family");
	check(port_of(s) > 0, "bound all the same");
	close(s);
	s = udp();
	check_err(connect(s, (struct sockaddr *)&bad, sizeof(bad)), EAFNOSUPPORT,
		  "connect to an AF_INET6 family");
	check(port_of(s) > 0, "bound all the same (inet_dgram_connect)");
	close(s);
	s = udp();
	check_err(sendto(s, big, sizeof(big), MSG_OOB, (struct sockaddr *)&to, sizeof(to)),
		  EMSGSIZE, "65536 bytes with MSG_OOB: the size first");
	check_err(sendto(s, "x", 1, MSG_OOB, (struct sockaddr *)&to, sizeof(to)), EOPNOTSUPP,
		  "MSG_OOB");
	check_err(recv(r, buf, 1, MSG_OOB | MSG_DONTWAIT), EAGAIN, "recv ignores MSG_OOB");
	check_err(socket(AF_INET, SOCK_DGRAM, -1), EINVAL, "protocol -1");
	check_err(socket(AF_INET, SOCK_DGRAM, 263), EINVAL, "protocol 263");

	/* SO_RCVBUF: a queue past it drops, an empty one takes anything */
	v = 1;
	setsockopt(r, SOL_SOCKET, SO_RCVBUF, &v, sizeof(v));
	check(getint(r, SOL_SOCKET, SO_RCVBUF) < 3000, "SO_RCVBUF at its least");
	check(sendto(s, big, 3000, 0, (struct sockaddr *)&to, sizeof(to)) == 3000 &&
		      sendto(s, big, 3000, 0, (struct sockaddr *)&to, sizeof(to)) == 3000,
	      "two datagrams larger than SO_RCVBUF sent");
	check(recv(r, big, sizeof(big), MSG_DONTWAIT) == 3000, "the first got in");
	check_err(recv(r, big, sizeof(big), MSG_DONTWAIT), EAGAIN, "the second was dropped");
	v = 65536;
	setsockopt(r, SOL_SOCKET, SO_RCVBUF, &v, sizeof(v));

	/* a receive that faults loses the datagram; a peek keeps it */
	sendto(s, "abc", 3, 0, (struct sockaddr *)&to, sizeof(to));
	check_err(recv(r, (void *)8, 3, MSG_PEEK | MSG_DONTWAIT), EFAULT, "peek to a bad buffer");
	check_err(recv(r, (void *)8, 3, MSG_DONTWAIT), EFAULT, "recv to a bad buffer");
	check_err(recv(r, buf, 3, MSG_DONTWAIT), EAGAIN, "the datagram is gone");

	/* SHUT_RD on an unbound-peer socket: ENOTCONN, yet shut; a
	 * nonblocking read says EAGAIN, and datagrams still come */
	check_err(shutdown(r, SHUT_RD), ENOTCONN, "SHUT_RD unconnected");
	check_err(recv(r, buf, 3, MSG_DONTWAIT), EAGAIN, "then MSG_DONTWAIT: EAGAIN");
	check(sendto(s, "def", 3, 0, (struct sockaddr *)&to, sizeof(to)) == 3 &&
		      recv(r, buf, 3, MSG_DONTWAIT) == 3,
	      "a datagram still gets in after SHUT_RD");
	check(recv(r, buf, 3, 0) == 0, "a blocking read: end of data");
	check_err(shutdown(r, 3), EINVAL, "shutdown 3");
	check_err(shutdown(r, -1), EINVAL, "shutdown -1");
	close(r);

	/* connected to port 0: no peer name */
	struct sockaddr_in p0 = sin4("127.0.0.1", 0);
	r = udp();
	check(connect(r, (struct sockaddr *)&p0, sizeof(p0)) == 0, "connect to port 0");
	l = sizeof(p0);
	check_err(getpeername(r, (struct sockaddr *)&p0, &l), ENOTCONN, "its getpeername");
	close(r);

	/* IP options: a byte will do; IP_TOS is a byte */
	unsigned char c = 9;
	check(setsockopt(s, IPPROTO_IP, IP_TTL, &c, 1) == 0 && getint(s, IPPROTO_IP, IP_TTL) == 9,
	      "IP_TTL from one byte");
	check(setsockopt(s, IPPROTO_IP, IP_TOS, &c, 0) == 0 && getint(s, IPPROTO_IP, IP_TOS) == 0,
	      "IP_TOS of length 0 is 0");
	check_err(setsockopt(s, IPPROTO_IP, IP_TTL, &c, 0), EINVAL, "IP_TTL of length 0");
	v = 0x1ff;
	check(setsockopt(s, IPPROTO_IP, IP_TOS, &v, sizeof(v)) == 0 &&
		      getint(s, IPPROTO_IP, IP_TOS) == 0xff,
	      "IP_TOS 0x1ff is 0xff");
	v = 0;
	l = 2;
	check(getsockopt(s, IPPROTO_IP, IP_TTL, &v, &l) == 0 && l == 1 && v == 9,
	      "IP_TTL into 2 bytes: one");
	l = -1;
	check_err(getsockopt(s, IPPROTO_UDP, UDP_CORK, &v, &l), EINVAL, "UDP_CORK length -1");

	/* groups: bind takes them */
	r = udp();
	struct sockaddr_in g = sin4("224.0.0.1", 0);
	check(bind(r, (struct sockaddr *)&g, sizeof(g)) == 0, "bind 224.0.0.1");
	close(r);
	r = udp();
	g = sin4("255.255.255.255", 0);
	check(bind(r, (struct sockaddr *)&g, sizeof(g)) == 0, "bind 255.255.255.255");
	close(r);
	close(s);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	signal(SIGPIPE, SIG_IGN);
	test_basic();
	test_connected();
	test_echo();
	test_hostile();
	return 0;
}
