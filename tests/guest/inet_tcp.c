/* AF_INET TCP on loopback: socket options, bind (ephemeral ports,
 * EADDRINUSE and SO_REUSEADDR, EADDRNOTAVAIL, EINVAL), listen and the
 * accept queue in order, connect and ECONNREFUSED, getsockname and
 * getpeername, data with MSG_PEEK/MSG_DONTWAIT, shutdown and EOF, EPIPE
 * and SIGPIPE, resets (close with data unread, a listener closed with a
 * connection queued), nonblocking connect and accept, poll and epoll
 * readiness, 127.0.0.2 and 0.0.0.0 as destinations, and a client in a
 * forked child moving a megabyte; a connect to a full listener waits
 * (EINPROGRESS, not writable, EALREADY, SO_SNDTIMEO's EINPROGRESS, the
 * next connect() reporting the end, shutdown of a waiting one), and the
 * option lengths and IP_TOS's ECN bits; getpeername of an ended
 * connection (TCP_CLOSE) is ENOTCONN. Children never print. */
#include "inet_util.h"

#include <fcntl.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>

static int tcp(void)
{
	return socket(AF_INET, SOCK_STREAM, 0);
}

/* A listener on ip, port 0. */
static int listener(const char *ip, int backlog)
{
	struct sockaddr_in a = sin4(ip, 0);
	int s = tcp();

	if (bind(s, (struct sockaddr *)&a, sizeof(a)) < 0 || listen(s, backlog) < 0)
		return -1;
	return s;
}

static int connect_to(const char *ip, int port)
{
	struct sockaddr_in a = sin4(ip, port);
	int c = tcp();

	if (connect(c, (struct sockaddr *)&a, sizeof(a)) < 0) {
		close(c);
		return -1;
	}
	return c;
}

static void test_create(void)
{
	int sv[2];
	int s = tcp();

	check(s >= 0, "socket(AF_INET, SOCK_STREAM)");
	check(getint(s, SOL_SOCKET, SO_TYPE) == SOCK_STREAM, "SO_TYPE");
	check(getint(s, SOL_SOCKET, SO_DOMAIN) == AF_INET, "SO_DOMAIN");
	check(getint(s, SOL_SOCKET, SO_PROTOCOL) == IPPROTO_TCP, "SO_PROTOCOL");
	check(getint(s, SOL_SOCKET, SO_ACCEPTCONN) == 0, "SO_ACCEPTCONN 0");
	check(getint(s, IPPROTO_TCP, TCP_NODELAY) == 0, "TCP_NODELAY off");
	int one = 1, v = 30;
	check(setsockopt(s, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one)) == 0 &&
		      getint(s, IPPROTO_TCP, TCP_NODELAY) == 1,
	      "TCP_NODELAY set");
	check(setsockopt(s, IPPROTO_TCP, TCP_KEEPIDLE, &v, sizeof(v)) == 0 &&
		      getint(s, IPPROTO_TCP, TCP_KEEPIDLE) == 30,
	      "TCP_KEEPIDLE 30");
	check(setsockopt(s, SOL_SOCKET, SO_KEEPALIVE, &one, sizeof(one)) == 0 &&
		      getint(s, SOL_SOCKET, SO_KEEPALIVE) == 1,
	      "SO_KEEPALIVE");
	check(setsockopt(s, SOL_SOCKET, SO_REUSEPORT, &one, sizeof(one)) == 0 &&
		      getint(s, SOL_SOCKET, SO_REUSEPORT) == 1,
	      "SO_REUSEPORT");
	v = 4096;
	check(setsockopt(s, SOL_SOCKET, SO_RCVBUF, &v, sizeof(v)) == 0 &&
		      getint(s, SOL_SOCKET, SO_RCVBUF) == 8192,
	      "SO_RCVBUF doubled");
	check(setsockopt(s, IPPROTO_IP, IP_TTL, &v, sizeof(v)) == -1 && errno == EINVAL,
	      "IP_TTL 4096 is EINVAL");
	v = 7;
	check(setsockopt(s, IPPROTO_IP, IP_TTL, &v, sizeof(v)) == 0 &&
		      getint(s, IPPROTO_IP, IP_TTL) == 7,
	      "IP_TTL 7");
	check_err(setsockopt(s, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one)), ENOPROTOOPT,
		  "IPV6_V6ONLY on AF_INET");
	close(s);
	check_err(socketpair(AF_INET, SOCK_STREAM, 0, sv), EOPNOTSUPP, "socketpair(AF_INET)");
	check_err(socket(AF_INET, SOCK_SEQPACKET, 0), ESOCKTNOSUPPORT, "AF_INET SOCK_SEQPACKET");
	check_err(socket(AF_INET, SOCK_STREAM, IPPROTO_UDP), EPROTONOSUPPORT,
		  "SOCK_STREAM with IPPROTO_UDP");
	s = socket(AF_INET, SOCK_STREAM, IPPROTO_TCP);
	check(s >= 0, "socket with IPPROTO_TCP");
	close(s);
}

static void test_bind(void)
{
	struct sockaddr_in a = sin4("127.0.0.1", 0), b;
	char ip[64];
	int port = -1, s = tcp(), t = tcp(), one = 1;
	socklen_t len = 0;

	check(name_of(s, 0, ip, &port, &len) == AF_INET && !strcmp(ip, "0.0.0.0") && port == 0 &&
		      len == sizeof(struct sockaddr_in),
	      "unbound: getsockname 0.0.0.0:0");
	check(bind(s, (struct sockaddr *)&a, sizeof(a)) == 0, "bind 127.0.0.1:0");
	name_of(s, 0, ip, &port, &len);
	check(!strcmp(ip, "127.0.0.1") && port >= 32768 && port <= 60999,
	      "an ephemeral port of 32768-60999");
	check_err(bind(s, (struct sockaddr *)&a, sizeof(a)), EINVAL, "bind twice");
	b = sin4("127.0.0.1", port);
	check_err(bind(t, (struct sockaddr *)&b, sizeof(b)), EADDRINUSE, "same port");
	b = sin4("0.0.0.0", port);
	check_err(bind(t, (struct sockaddr *)&b, sizeof(b)), EADDRINUSE, "same port, INADDR_ANY");
	check_err(bind(t, (struct sockaddr *)&b, sizeof(b) - 1), EINVAL, "short address");
	b.sin_family = AF_INET6;
	check_err(bind(t, (struct sockaddr *)&b, sizeof(b)), EAFNOSUPPORT, "AF_INET6 address");
	b = sin4("192.0.2.1", 0);
	check_err(bind(t, (struct sockaddr *)&b, sizeof(b)), EADDRNOTAVAIL, "bind 192.0.2.1");
	close(s);
	close(t);

	/* SO_REUSEADDR on both: bound together, but only one listens */
	s = tcp();
	t = tcp();
	setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	setsockopt(t, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	bind(s, (struct sockaddr *)&a, sizeof(a));
	b = sin4("127.0.0.1", port_of(s));
	check(bind(t, (struct sockaddr *)&b, sizeof(b)) == 0,
	      "SO_REUSEADDR: same port bound twice");
	check(listen(s, 1) == 0, "first listens");
	check_err(listen(t, 1), EADDRINUSE, "second listen");
	close(t);
	t = tcp();
	setsockopt(t, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	check_err(bind(t, (struct sockaddr *)&b, sizeof(b)), EADDRINUSE,
		  "SO_REUSEADDR: not beside a listener");
	close(s);
	check(bind(t, (struct sockaddr *)&b, sizeof(b)) == 0, "free again once closed");
	close(t);

	/* listen without bind: an ephemeral port on INADDR_ANY */
	s = tcp();
	check(listen(s, 1) == 0, "listen unbound");
	name_of(s, 0, ip, &port, NULL);
	check(!strcmp(ip, "0.0.0.0") && port != 0, "it is bound to 0.0.0.0 and a port");
	check(getint(s, SOL_SOCKET, SO_ACCEPTCONN) == 1, "SO_ACCEPTCONN 1");
	close(s);
}

static void test_connect(void)
{
	char ip[64], ip2[64];
	int port, cport, aport, l = listener("127.0.0.1", 5), c, a;
	struct sockaddr_in peer;
	socklen_t plen = sizeof(peer);
	char buf[16];

	port = port_of(l);
	c = connect_to("127.0.0.1", port);
	check(c >= 0, "connect");
	name_of(c, 0, ip, &cport, NULL);
	check(!strcmp(ip, "127.0.0.1") && cport != 0 && cport != port, "client: own port");
	name_of(c, 1, ip, &aport, NULL);
	check(!strcmp(ip, "127.0.0.1") && aport == port, "client: getpeername is the listener");
	a = accept(l, (struct sockaddr *)&peer, &plen);
	check(a >= 0 && plen == sizeof(peer) && peer.sin_family == AF_INET &&
		      ntohs(peer.sin_port) == cport &&
		      peer.sin_addr.s_addr == htonl(INADDR_LOOPBACK),
	      "accept: the client's address");
	name_of(a, 0, ip, &aport, NULL);
	name_of(a, 1, ip2, &cport, NULL);
	check(!strcmp(ip, "127.0.0.1") && aport == port && !strcmp(ip2, "127.0.0.1") &&
		      cport == ntohs(peer.sin_port),
	      "accepted: getsockname and getpeername");

	check(write(c, "hello", 5) == 5, "write");
	check(recv(a, buf, sizeof(buf), MSG_PEEK) == 5 && !memcmp(buf, "hello", 5), "MSG_PEEK");
	int avail = -1;
	check(ioctl(a, FIONREAD, &avail) == 0 && avail == 5, "FIONREAD 5");
	check(read(a, buf, sizeof(buf)) == 5 && !memcmp(buf, "hello", 5), "read");
	check_err(recv(a, buf, sizeof(buf), MSG_DONTWAIT), EAGAIN, "MSG_DONTWAIT on empty");
	check(shutdown(c, SHUT_WR) == 0, "shutdown(SHUT_WR)");
	check(read(a, buf, sizeof(buf)) == 0, "EOF after the peer's SHUT_WR");
	check(write(a, "back", 4) == 4 && read(c, buf, sizeof(buf)) == 4,
	      "the other way still works");
	check_err(send(c, "x", 1, MSG_NOSIGNAL), EPIPE, "send after SHUT_WR");
	struct sockaddr_in again = sin4("127.0.0.1", port);
	check_err(connect(c, (struct sockaddr *)&again, sizeof(again)), EISCONN, "connect twice");
	check_err(connect(l, (struct sockaddr *)&again, sizeof(again)), EISCONN,
		  "connect on a listener");
	close(a);
	check(read(c, buf, sizeof(buf)) == 0, "EOF after close");
	close(c);

	/* SHUT_RD is local: the peer still writes and the data is read */
	c = connect_to("127.0.0.1", port);
	a = accept(l, NULL, NULL);
	check(shutdown(c, SHUT_RD) == 0 && write(a, "late", 4) == 4,
	      "a peer's SHUT_RD does not stop writes");
	check(read(c, buf, sizeof(buf)) == 4 && read(c, buf, sizeof(buf)) == 0,
	      "it reads them, then EOF");
	close(a);
	close(c);

	/* the peer is gone: writes end in EPIPE (Linux: after its reset) */
	c = connect_to("127.0.0.1", port);
	a = accept(l, NULL, NULL);
	close(a);
	long r;
	int i;
	for (i = 0; i < 10 && (r = send(c, "x", 1, MSG_NOSIGNAL)) == 1; i++)
		usleep(1000);
	check_err(r, EPIPE, "writing to a closed peer");
	close(c);

	/* exactly: the first write after the peer's close is sent (its
	 * reset comes back: SO_ERROR EPIPE, both ways shut), the next EPIPE.
	 * skas once said EPIPE at once (CPython's test_socket
	 * NetworkConnectionBehaviourTest: a server's late send) */
	c = connect_to("127.0.0.1", port);
	a = accept(l, NULL, NULL);
	close(a);
	check(send(c, "x", 1, MSG_NOSIGNAL) == 1, "the first write after the peer's close is sent");
	check(getint(c, SOL_SOCKET, SO_ERROR) == EPIPE, "then SO_ERROR: EPIPE (its reset)");
	{
		struct pollfd pf = { c, POLLIN | POLLOUT | POLLRDHUP, 0 };

		check(poll(&pf, 1, 0) == 1 &&
			      pf.revents == (POLLIN | POLLOUT | POLLHUP | POLLRDHUP),
		      "it polls POLLIN|POLLOUT|POLLHUP|POLLRDHUP");
	}
	check_err(send(c, "x", 1, MSG_NOSIGNAL), EPIPE, "the second write: EPIPE");
	check(read(c, buf, sizeof(buf)) == 0, "a read: EOF");
	close(c);

	/* a megabyte written after it: the reset stops it partway (skas
	 * took all of it, and asyncio's sendfile to a peer that closed
	 * midway never failed: CPython's test_sendfile) */
	c = connect_to("127.0.0.1", port);
	{
		int sb = 4096;

		setsockopt(c, SOL_SOCKET, SO_SNDBUF, &sb, sizeof(sb));
	}
	a = accept(l, NULL, NULL);
	close(a);
	{
		static char mb[1 << 20];
		long r1 = send(c, mb, sizeof(mb), MSG_NOSIGNAL);

		check(r1 > 0 && r1 < (long)sizeof(mb), "a megabyte after the close: part is taken");
		check_err(send(c, mb, sizeof(mb), MSG_NOSIGNAL), EPIPE, "the rest: EPIPE");
	}
	close(c);

	/* close with data unread is a reset */
	c = connect_to("127.0.0.1", port);
	a = accept(l, NULL, NULL);
	write(c, "unread", 6);
	usleep(1000);
	close(a);
	check_err(read(c, buf, sizeof(buf)), ECONNRESET, "close with data unread: ECONNRESET");
	close(c);

	/* a write is told of the reset first (ECONNRESET, taken: no
	 * SO_ERROR after it), then EPIPE */
	c = connect_to("127.0.0.1", port);
	a = accept(l, NULL, NULL);
	write(c, "unread", 6);
	usleep(1000);
	close(a);
	check_err(send(c, "x", 1, MSG_NOSIGNAL), ECONNRESET, "a write after a reset: ECONNRESET");
	check(getint(c, SOL_SOCKET, SO_ERROR) == 0, "SO_ERROR: taken");
	check_err(send(c, "x", 1, MSG_NOSIGNAL), EPIPE, "the next write: EPIPE");
	close(c);

	/* so is a close with SO_LINGER of 0; data sent before it is read first */
	c = connect_to("127.0.0.1", port);
	a = accept(l, NULL, NULL);
	struct linger lg = { 1, 0 };
	check(setsockopt(a, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg)) == 0, "SO_LINGER 0");
	write(a, "last", 4);
	usleep(1000);
	close(a);
	check(read(c, buf, sizeof(buf)) == 4, "the data before the reset");
	check_err(read(c, buf, sizeof(buf)), ECONNRESET, "then ECONNRESET");
	close(c);
	close(l);

	/* nobody listens on a port bound without listen */
	l = tcp();
	struct sockaddr_in any = sin4("127.0.0.1", 0);
	bind(l, (struct sockaddr *)&any, sizeof(any));
	c = tcp();
	again = sin4("127.0.0.1", port_of(l));
	check_err(connect(c, (struct sockaddr *)&again, sizeof(again)), ECONNREFUSED,
		  "connect to a port without listener");
	check(getint(c, SOL_SOCKET, SO_ERROR) == 0, "SO_ERROR then 0");
	check_err(recv(c, buf, 1, 0), ENOTCONN, "recv unconnected");
	check_err(send(c, buf, 1, MSG_NOSIGNAL), EPIPE, "send unconnected");
	check_err(getpeername(c, (struct sockaddr *)&peer, &plen), ENOTCONN, "getpeername");
	check_err(accept(c, NULL, NULL), EINVAL, "accept on a socket not listening");
	struct sockaddr_in far = sin4("127.0.0.1", port_of(l));
	far.sin_family = AF_INET6;
	check_err(connect(c, (struct sockaddr *)&far, sizeof(far)), EAFNOSUPPORT,
		  "connect with AF_INET6 address");
	close(c);
	close(l);
}

static void test_queue(void)
{
	int l = listener("127.0.0.1", 8), c[4], i, ok = 1, port = port_of(l);
	char buf[8];

	for (i = 0; i < 4; i++) {
		c[i] = connect_to("127.0.0.1", port);
		if (c[i] < 0 || write(c[i], &"0123"[i], 1) != 1)
			ok = 0;
	}
	check(ok, "four connections queued");
	struct pollfd p = { l, POLLIN, 0 };
	check(poll(&p, 1, 0) == 1 && p.revents == POLLIN, "listener POLLIN");
	for (i = 0; i < 4; i++) {
		struct sockaddr_in peer;
		socklen_t plen = sizeof(peer);
		int a = accept(l, (struct sockaddr *)&peer, &plen);

		if (a < 0 || ntohs(peer.sin_port) != port_of(c[i]) || read(a, buf, 1) != 1 ||
		    buf[0] != "0123"[i])
			ok = 0;
		close(a);
	}
	check(ok, "accepted in order, each with its data");
	check(poll(&p, 1, 0) == 0, "listener idle");
	for (i = 0; i < 4; i++)
		close(c[i]);

	/* a listener closed with a connection in its queue resets it */
	c[0] = connect_to("127.0.0.1", port);
	close(l);
	check_err(read(c[0], buf, 1), ECONNRESET, "listener closed before accept");
	close(c[0]);
}

static void test_nonblocking(void)
{
	int l = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0), c, a, port;
	struct sockaddr_in sa = sin4("127.0.0.1", 0);
	struct pollfd p;

	bind(l, (struct sockaddr *)&sa, sizeof(sa));
	listen(l, 4);
	port = port_of(l);
	check_err(accept(l, NULL, NULL), EAGAIN, "nonblocking accept, empty queue");
	c = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
	sa = sin4("127.0.0.1", port);
	check_err(connect(c, (struct sockaddr *)&sa, sizeof(sa)), EINPROGRESS,
		  "nonblocking connect");
	p = (struct pollfd){ c, POLLOUT, 0 };
	check(poll(&p, 1, 5000) == 1 && p.revents == POLLOUT, "then writable");
	check(getint(c, SOL_SOCKET, SO_ERROR) == 0, "SO_ERROR 0");
	p = (struct pollfd){ l, POLLIN, 0 };
	poll(&p, 1, 5000);
	a = accept4(l, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
	check(a >= 0 && (fcntl(a, F_GETFD) & FD_CLOEXEC) && (fcntl(a, F_GETFL) & O_NONBLOCK),
	      "accept4 CLOEXEC|NONBLOCK");

	p = (struct pollfd){ a, POLLIN | POLLOUT | POLLRDHUP, 0 };
	check(poll(&p, 1, 0) == 1 && p.revents == POLLOUT, "accepted: POLLOUT only");
	write(c, "z", 1);
	p.revents = 0;
	poll(&p, 1, 5000);
	check(p.revents == (POLLIN | POLLOUT), "POLLIN with data");
	int ep = epoll_create1(0);
	struct epoll_event ev = { .events = EPOLLIN | EPOLLRDHUP, .data.u32 = 7 }, out;
	epoll_ctl(ep, EPOLL_CTL_ADD, a, &ev);
	check(epoll_wait(ep, &out, 1, 0) == 1 && out.events == EPOLLIN && out.data.u32 == 7,
	      "epoll EPOLLIN");
	char ch;
	read(a, &ch, 1);
	check(epoll_wait(ep, &out, 1, 0) == 0, "epoll idle once read");
	shutdown(c, SHUT_WR);
	check(epoll_wait(ep, &out, 1, 5000) == 1 && out.events == (EPOLLIN | EPOLLRDHUP),
	      "epoll EPOLLIN|EPOLLRDHUP after the peer's SHUT_WR");
	close(ep);
	close(a);
	close(c);

	/* refused: EINPROGRESS, then POLLERR and SO_ERROR */
	c = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
	close(l);
	l = tcp();
	sa = sin4("127.0.0.1", 0);
	bind(l, (struct sockaddr *)&sa, sizeof(sa));
	sa = sin4("127.0.0.1", port_of(l));
	check_err(connect(c, (struct sockaddr *)&sa, sizeof(sa)), EINPROGRESS,
		  "nonblocking connect, nobody listens");
	p = (struct pollfd){ c, POLLOUT, 0 };
	check(poll(&p, 1, 5000) == 1 && (p.revents & (POLLOUT | POLLERR)) == (POLLOUT | POLLERR),
	      "POLLOUT|POLLERR");
	check(getint(c, SOL_SOCKET, SO_ERROR) == ECONNREFUSED, "SO_ERROR ECONNREFUSED");
	check(getint(c, SOL_SOCKET, SO_ERROR) == 0, "SO_ERROR cleared");
	close(c);
	close(l);
}

static void test_addresses(void)
{
	int l = listener("127.0.0.2", 4), c, a, port;
	char ip[64];
	int p;

	check(l >= 0, "listen on 127.0.0.2");
	port = port_of(l);
	check_err(connect_to("127.0.0.3", port), ECONNREFUSED, "127.0.0.3: not that listener");
	c = connect_to("127.0.0.2", port);
	check(c >= 0, "connect to 127.0.0.2");
	a = accept(l, NULL, NULL);
	name_of(c, 0, ip, &p, NULL);
	check(!strcmp(ip, "127.0.0.1"), "client's source is 127.0.0.1");
	name_of(a, 0, ip, &p, NULL);
	check(!strcmp(ip, "127.0.0.2") && p == port, "server's end is 127.0.0.2");
	close(a);
	close(c);
	close(l);

	l = listener("0.0.0.0", 4);
	port = port_of(l);
	c = connect_to("0.0.0.0", port);
	check(c >= 0, "connect to 0.0.0.0 reaches INADDR_ANY's listener");
	name_of(c, 1, ip, &p, NULL);
	check(!strcmp(ip, "127.0.0.1") && p == port, "the peer is 127.0.0.1");
	a = accept(l, NULL, NULL);
	close(a);
	close(c);
	c = connect_to("127.1.2.3", port);
	check(c >= 0, "127.1.2.3 is local too");
	a = accept(l, NULL, NULL);
	name_of(a, 0, ip, &p, NULL);
	check(!strcmp(ip, "127.1.2.3"), "and the accepted end is named so");
	close(a);
	close(c);
	close(l);
}

/* A child sends a megabyte, then reads one back from the parent. */
static void test_fork(void)
{
	enum { TOTAL = 1 << 20 };
	int l = listener("127.0.0.1", 1), port = port_of(l);
	static char buf[65536];
	long got = 0, r;
	pid_t pid = fork();

	if (pid == 0) {
		int c = connect_to("127.0.0.1", port);
		long sent = 0, back = 0;

		if (c < 0)
			_exit(2);
		memset(buf, 'm', sizeof(buf));
		while (sent < TOTAL) {
			r = write(c, buf, sizeof(buf));
			if (r <= 0)
				_exit(3);
			sent += r;
		}
		shutdown(c, SHUT_WR);
		while ((r = read(c, buf, sizeof(buf))) > 0)
			back += r;
		_exit(back == TOTAL ? 0 : 4);
	}
	int a = accept(l, NULL, NULL);
	while ((r = read(a, buf, sizeof(buf))) > 0)
		got += r;
	for (r = 0; r < TOTAL; r += sizeof(buf))
		if (write(a, buf, sizeof(buf)) != sizeof(buf))
			break;
	close(a);
	check(got == TOTAL, "a megabyte from the child");
	check(child_exit(pid) == 0, "and back to it");

	/* SIGPIPE kills a writer to a closed connection */
	pid = fork();
	if (pid == 0) {
		int c = connect_to("127.0.0.1", port);

		signal(SIGPIPE, SIG_DFL);
		read(c, buf, 1); /* the parent closed */
		for (;;) {
			if (write(c, "x", 1) < 0)
				_exit(5);
			usleep(1000);
		}
	}
	a = accept(l, NULL, NULL);
	close(a);
	check(child_exit(pid) == 128 + SIGPIPE, "SIGPIPE");
	close(l);
}

/* Poll for ev up to 10 s (Linux retransmits the SYN a full listener
 * dropped after 1 s; skas lets it in at once). */
static int wait_for(int fd, short ev)
{
	struct pollfd p = { fd, ev, 0 };

	return poll(&p, 1, 10000) == 1 ? p.revents : 0;
}

static void test_full_listener(void)
{
	int l = listener("127.0.0.1", 0), c1, c2, c3, a, v;
	struct sockaddr_in to = sin4("127.0.0.1", port_of(l));
	struct timeval tv = { 0, 50000 };
	struct pollfd p;
	socklen_t len = sizeof(v);
	char ch = 0, ip[64];
	int port;

	c1 = tcp();
	check(connect(c1, (struct sockaddr *)&to, sizeof(to)) == 0, "backlog 0: one connects");
	c2 = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
	check_err(connect(c2, (struct sockaddr *)&to, sizeof(to)), EINPROGRESS,
		  "the next, nonblocking: EINPROGRESS");
	p = (struct pollfd){ c2, POLLIN | POLLOUT, 0 };
	check(poll(&p, 1, 0) == 0, "and it waits: not writable");
	check_err(connect(c2, (struct sockaddr *)&to, sizeof(to)), EALREADY, "connect again");
	check_err(getpeername(c2, (struct sockaddr *)&to, &len), ENOTCONN, "no peer yet");
	check(getint(c2, SOL_SOCKET, SO_ERROR) == 0, "no error");
	check_err(send(c2, "x", 1, MSG_NOSIGNAL), EAGAIN, "send: EAGAIN");
	check_err(recv(c2, &ch, 1, 0), EAGAIN, "recv: EAGAIN");
	a = accept(l, NULL, NULL);
	check(a >= 0, "accept the first");
	close(a);
	check(wait_for(c2, POLLOUT) == POLLOUT, "then the waiting one is in");
	check(connect(c2, (struct sockaddr *)&to, sizeof(to)) == 0,
	      "connect again says it is made");
	check_err(connect(c2, (struct sockaddr *)&to, sizeof(to)), EISCONN, "then EISCONN");
	check(send(c2, "y", 1, 0) == 1, "send");
	a = accept(l, NULL, NULL);
	check(a >= 0 && recv(a, &ch, 1, 0) == 1 && ch == 'y', "accepted, with its data");
	close(a);
	close(c1);

	/* full again (c2's end is accepted, so queue c3's) */
	c3 = tcp();
	check(connect(c3, (struct sockaddr *)&to, sizeof(to)) == 0, "fill the queue again");
	c1 = tcp();
	setsockopt(c1, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	check_err(connect(c1, (struct sockaddr *)&to, sizeof(to)), EINPROGRESS,
		  "blocking, SO_SNDTIMEO: EINPROGRESS");
	fcntl(c1, F_SETFL, O_NONBLOCK);
	check_err(connect(c1, (struct sockaddr *)&to, sizeof(to)), EALREADY, "still waiting");
	name_of(c1, 0, ip, &port, NULL);
	check(!strcmp(ip, "127.0.0.1") && port > 0, "its source is chosen");
	check(shutdown(c1, SHUT_RDWR) == 0, "shutdown of a waiting connect");
	check(getint(c1, SOL_SOCKET, SO_ERROR) == ECONNRESET, "SO_ERROR: ECONNRESET");
	close(c1);
	close(a = accept(l, NULL, NULL));
	close(c3);

	/* a refused nonblocking connect: the next connect says so */
	close(l);
	c1 = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
	check_err(connect(c1, (struct sockaddr *)&to, sizeof(to)), EINPROGRESS,
		  "nonblocking connect to nobody");
	check(wait_for(c1, POLLOUT) & POLLERR, "refused");
	check_err(connect(c1, (struct sockaddr *)&to, sizeof(to)), ECONNREFUSED,
		  "connect again: ECONNREFUSED");
	close(c1);

	/* option lengths and IP_TOS's ECN bits */
	c1 = tcp();
	v = 0xff;
	check(setsockopt(c1, IPPROTO_IP, IP_TOS, &v, sizeof(v)) == 0 &&
		      getint(c1, IPPROTO_IP, IP_TOS) == 0xfc,
	      "IP_TOS 0xff on TCP: 0xfc");
	unsigned char b = 1;
	check_err(setsockopt(c1, IPPROTO_TCP, TCP_NODELAY, &b, 1), EINVAL, "TCP_NODELAY of a byte");
	check_err(setsockopt(c1, IPPROTO_TCP, TCP_NODELAY, NULL, 1), EINVAL, "...before any copy");
	len = -1;
	check_err(getsockopt(c1, IPPROTO_TCP, TCP_NODELAY, &v, &len), EINVAL, "length -1");
	len = sizeof(v);
	check_err(getsockopt(c1, IPPROTO_IPV6, IPV6_V6ONLY, &v, &len), EOPNOTSUPP,
		  "getsockopt SOL_IPV6 on AF_INET");
	check_err(getsockopt(c1, IPPROTO_UDP, 1, &v, &len), EOPNOTSUPP,
		  "getsockopt SOL_UDP on TCP");
	check_err(setsockopt(c1, IPPROTO_UDP, 1, &v, sizeof(v)), ENOPROTOOPT,
		  "setsockopt SOL_UDP on TCP");
	check_err(socket(AF_INET, SOCK_STREAM, -1), EINVAL, "protocol -1");
	check_err(socket(AF_INET, SOCK_RAW, -1), EINVAL, "raw, protocol -1");
	close(c1);
}

/* getpeername of a connection that has ended (TCP_CLOSE: a reset came,
 * or a FIN went each way) is ENOTCONN, while data sent before a reset
 * is still read; a half-closed one (CLOSE_WAIT, FIN_WAIT2) keeps its
 * peer. ssl.py's wrap_socket tells "closed before TLS handshake with
 * data" by this (test_ssl's TestPreHandshakeClose). */
static int peer_errno(int fd)
{
	struct sockaddr_in p;
	socklen_t plen = sizeof(p);

	return getpeername(fd, (struct sockaddr *)&p, &plen) == 0 ? 0 : errno;
}

/* A connection to l's port whose client sends its FIN, then resets
 * (SO_LINGER 0): the accepted end, in CLOSE_WAIT when the reset came. */
static int close_wait_reset(int l, int port)
{
	struct linger lg = { 1, 0 };
	int c = connect_to("127.0.0.1", port), a = accept(l, NULL, NULL);

	shutdown(c, SHUT_WR);
	wait_for(a, POLLRDHUP);
	setsockopt(c, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg));
	close(c);
	return a;
}

static void test_closed(void)
{
	int l = listener("127.0.0.1", 4), port = port_of(l), c, a, c2;
	struct linger lg = { 1, 0 };
	char buf[8];

	/* a reset after data: no peer, the data first, then ECONNRESET */
	c = connect_to("127.0.0.1", port);
	a = accept(l, NULL, NULL);
	check(peer_errno(a) == 0, "established: getpeername");
	setsockopt(c, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg));
	write(c, "DEL", 3);
	close(c);
	check(wait_for(a, POLLRDHUP) & POLLHUP, "reset: POLLHUP");
	check(peer_errno(a) == ENOTCONN, "reset with data: getpeername ENOTCONN");
	check(recv(a, buf, 1, MSG_DONTWAIT) == 1, "the data is still read");
	check(recv(a, buf, sizeof(buf), MSG_DONTWAIT) == 2, "all of it");
	check_err(recv(a, buf, 1, MSG_DONTWAIT), ECONNRESET, "then ECONNRESET");
	check(recv(a, buf, 1, MSG_DONTWAIT) == 0, "then EOF");
	check(peer_errno(a) == ENOTCONN, "still no peer");
	close(a);

	/* the side that closes with data unread resets the other one */
	c = connect_to("127.0.0.1", port);
	a = accept(l, NULL, NULL);
	write(a, "x", 1);
	wait_for(c, POLLIN);
	close(c);
	check(wait_for(a, POLLRDHUP) & POLLHUP, "unread reset: POLLHUP");
	check(peer_errno(a) == ENOTCONN, "close with data unread: peer's getpeername ENOTCONN");
	close(a);

	/* a FIN keeps the peer (CLOSE_WAIT); a write there is answered by
	 * a reset, which ends it */
	c = connect_to("127.0.0.1", port);
	a = accept(l, NULL, NULL);
	close(c);
	wait_for(a, POLLRDHUP);
	check(peer_errno(a) == 0, "peer closed (CLOSE_WAIT): getpeername");
	check(send(a, "x", 1, MSG_NOSIGNAL) == 1, "the write after it");
	wait_for(a, POLLHUP);
	check(peer_errno(a) == ENOTCONN, "after the peer's reset: getpeername ENOTCONN");
	close(a);

	/* a reset in CLOSE_WAIT is EPIPE (tcp_reset), and the FIN before
	 * it makes a read EOF, not the error */
	a = close_wait_reset(l, port);
	check(wait_for(a, POLLERR) & POLLERR, "CLOSE_WAIT, then a reset: POLLERR");
	check(recv(a, buf, 1, MSG_DONTWAIT) == 0, "a read: EOF");
	check(getint(a, SOL_SOCKET, SO_ERROR) == EPIPE, "SO_ERROR: EPIPE");
	check_err(send(a, "x", 1, MSG_NOSIGNAL), EPIPE, "then a write: EPIPE");
	close(a);
	a = close_wait_reset(l, port);
	wait_for(a, POLLERR);
	check_err(send(a, "x", 1, MSG_NOSIGNAL), EPIPE, "a write first: EPIPE, not ECONNRESET");
	check(recv(a, buf, 1, MSG_DONTWAIT) == 0 && getint(a, SOL_SOCKET, SO_ERROR) == 0,
	      "then EOF, no error");
	close(a);

	/* SHUT_WR, then the peer's close: TIME_WAIT, no peer */
	c = connect_to("127.0.0.1", port);
	a = accept(l, NULL, NULL);
	shutdown(c, SHUT_WR);
	check(peer_errno(c) == 0, "SHUT_WR (FIN_WAIT): getpeername");
	check(peer_errno(a) == 0, "its peer (CLOSE_WAIT): getpeername");
	close(a);
	check(wait_for(c, POLLRDHUP) & POLLHUP, "then the peer's FIN: POLLHUP");
	check(peer_errno(c) == ENOTCONN, "TIME_WAIT: getpeername ENOTCONN");
	close(c);

	/* SHUT_WR both ways: both ended; SHUT_RDWR on one end only: neither */
	c = connect_to("127.0.0.1", port);
	a = accept(l, NULL, NULL);
	shutdown(c, SHUT_WR);
	wait_for(a, POLLRDHUP);
	shutdown(a, SHUT_WR);
	wait_for(c, POLLRDHUP);
	check(peer_errno(a) == ENOTCONN, "SHUT_WR after the peer's (LAST_ACK acked): ENOTCONN");
	check(peer_errno(c) == ENOTCONN, "and the peer's (TIME_WAIT): ENOTCONN");
	close(c);
	close(a);
	c = connect_to("127.0.0.1", port);
	a = accept(l, NULL, NULL);
	shutdown(c, SHUT_RDWR);
	wait_for(a, POLLRDHUP);
	check(peer_errno(c) == 0 && peer_errno(a) == 0, "SHUT_RDWR on one end: both keep the peer");
	shutdown(a, SHUT_RD);
	check(peer_errno(a) == 0, "SHUT_RD sends nothing: still the peer");
	close(c);
	close(a);

	/* a listener closed with a connection queued resets it */
	c = connect_to("127.0.0.1", port);
	c2 = connect_to("127.0.0.1", port);
	close(l);
	check(wait_for(c, POLLRDHUP) & POLLHUP, "listener closed: POLLHUP");
	check(peer_errno(c) == ENOTCONN && peer_errno(c2) == ENOTCONN,
	      "queued connections reset: getpeername ENOTCONN");
	close(c);
	close(c2);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	signal(SIGPIPE, SIG_IGN);
	test_create();
	test_bind();
	test_connect();
	test_queue();
	test_nonblocking();
	test_addresses();
	test_fork();
	test_full_listener();
	test_closed();
	return 0;
}
