/* tests/scenario/hostnet.c: the guest side of hostnet.sh: a client of the
 * host's servers on 127.0.0.1 (and a server of its own), one mode per run,
 * printing one line of results per check. Built static by hostnet.sh.
 *   hostnet tcp PORT | nbtcp PORT | udp PORT | refused PORT | serve |
 *           eintr | many PORT (reads "open N" / "close" / "quit" on stdin) */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/mman.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/errqueue.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sendfile.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

static struct sockaddr_in addr_of(int port)
{
	struct sockaddr_in a;

	memset(&a, 0, sizeof(a));
	a.sin_family = AF_INET;
	a.sin_port = htons((unsigned short)port);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	return a;
}

static const char *err_name(int e)
{
	switch (e) {
	case 0:
		return "0";
	case EINPROGRESS:
		return "EINPROGRESS";
	case ECONNREFUSED:
		return "ECONNREFUSED";
	case EISCONN:
		return "EISCONN";
	case EALREADY:
		return "EALREADY";
	case EAGAIN:
		return "EAGAIN";
	case EINTR:
		return "EINTR";
	case EINVAL:
		return "EINVAL";
	case EFAULT:
		return "EFAULT";
	case EAFNOSUPPORT:
		return "EAFNOSUPPORT";
	case ENOPROTOOPT:
		return "ENOPROTOOPT";
	case ENOTCONN:
		return "ENOTCONN";
	case EPERM:
		return "EPERM";
	case EACCES:
		return "EACCES";
	case EPROTONOSUPPORT:
		return "EPROTONOSUPPORT";
	case EPIPE:
		return "EPIPE";
	case EOPNOTSUPP:
		return "EOPNOTSUPP";
	case ESOCKTNOSUPPORT:
		return "ESOCKTNOSUPPORT";
	case EMSGSIZE:
		return "EMSGSIZE";
	case EBADF:
		return "EBADF";
	default:
		return strerror(e);
	}
}

#define RES(call) ((call) < 0 ? err_name(errno) : "0")

static char big_buf[70000];
static int pipes;

static void on_pipe(int sig)
{
	(void)sig;
	pipes++;
}

/* Blocking connect, send, MSG_WAITALL recv, the names, options, ioctls,
 * a hostile address and fstat. */
static int do_tcp(int port)
{
	struct sockaddr_in a = addr_of(port), me, peer;
	socklen_t ml = sizeof(me), pl = sizeof(peer), ol;
	char buf[64] = "";
	int s = socket(AF_INET, SOCK_STREAM, 0), v = 1, n = -1, err = -1;
	struct stat st;

	printf("connect %s\n", RES(connect(s, (struct sockaddr *)&a, sizeof(a))));
	printf("connect again %s\n", RES(connect(s, (struct sockaddr *)&a, sizeof(a))));
	getsockname(s, (struct sockaddr *)&me, &ml);
	getpeername(s, (struct sockaddr *)&peer, &pl);
	printf("peer port %d, local ephemeral %d\n", ntohs(peer.sin_port) == port,
	       ntohs(me.sin_port) >= 1024);
	printf("nodelay %s", RES(setsockopt(s, IPPROTO_TCP, TCP_NODELAY, &v, sizeof(v))));
	v = 0;
	ol = sizeof(v);
	getsockopt(s, IPPROTO_TCP, TCP_NODELAY, &v, &ol);
	printf(" %d\n", v != 0);
	ol = sizeof(err);
	getsockopt(s, SOL_SOCKET, SO_ERROR, &err, &ol);
	printf("SO_ERROR %d, unknown option %s\n", err,
	       RES(setsockopt(s, SOL_SOCKET, 9999, &v, sizeof(v))));
	{
		struct tcp_info ti;
		char cc[16] = "";
		socklen_t tl = sizeof(ti), cl = sizeof(cc);

		memset(&ti, 0, sizeof(ti));
		printf("TCP_INFO %s", RES(getsockopt(s, IPPROTO_TCP, TCP_INFO, &ti, &tl)));
		printf(" len %d established %d", tl == sizeof(ti),
		       ti.tcpi_state == TCP_ESTABLISHED);
		printf(", TCP_CONGESTION %s",
		       RES(getsockopt(s, IPPROTO_TCP, TCP_CONGESTION, cc, &cl)));
		printf(" named %d\n", cc[0] != 0 && cl > 0);
	}
	printf("send %zd\n", send(s, "hello world", 11, 0));
	printf("recv waitall %zd ", recv(s, buf, 11, MSG_WAITALL));
	printf("'%s'\n", buf);
	send(s, "x", 1, 0);
	while (ioctl(s, FIONREAD, &n) == 0 && n == 0)
		usleep(1000);
	printf("FIONREAD %d\n", n);
	printf("bad addr %s", RES(connect(s, (struct sockaddr *)8, sizeof(a))));
	printf(" %s\n", RES(bind(s, (struct sockaddr *)&a, 3)));
	fstat(s, &st);
	printf("fstat socket %d\n", S_ISSOCK(st.st_mode));
	memset(buf, 'z', sizeof(buf));
	send(s, "dropped", 7, 0);
	while (ioctl(s, FIONREAD, &n) == 0 && n < 8)
		usleep(1000);
	printf("recv MSG_TRUNC %zd", recv(s, buf, 8, MSG_TRUNC));
	printf(" buffer untouched %d\n", buf[0] == 'z' && buf[7] == 'z');
	printf("shutdown %s, ", RES(shutdown(s, SHUT_WR)));
	recv(s, buf, 1, 0);
	printf("eof %zd\n", recv(s, buf, sizeof(buf), 0));
	signal(SIGPIPE, on_pipe);
	printf("send after SHUT_WR %s", RES(send(s, "x", 1, 0)));
	printf(" SIGPIPE %d,", pipes);
	printf(" MSG_NOSIGNAL %s", RES(send(s, "x", 1, MSG_NOSIGNAL)));
	printf(" SIGPIPE %d\n", pipes);
	close(s);
	return 0;
}

/* Non-blocking connect, poll and epoll readiness, MSG_DONTWAIT. */
static int do_nbtcp(int port)
{
	struct sockaddr_in a = addr_of(port);
	int s = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0), r, err = -1, ep;
	struct pollfd p = { .fd = s, .events = POLLOUT };
	struct epoll_event ev = { .events = EPOLLIN }, got;
	socklen_t ol = sizeof(err);
	char buf[16];

	r = connect(s, (struct sockaddr *)&a, sizeof(a));
	printf("connect %s\n", r == 0 || errno == EINPROGRESS ? "EINPROGRESS" : err_name(errno));
	printf("poll %d", poll(&p, 1, 10000));
	printf(" out %d\n", !!(p.revents & POLLOUT));
	getsockopt(s, SOL_SOCKET, SO_ERROR, &err, &ol);
	printf("SO_ERROR %d, connect again %s\n", err,
	       RES(connect(s, (struct sockaddr *)&a, sizeof(a))));
	printf("recv dontwait %s\n", RES(recv(s, buf, sizeof(buf), MSG_DONTWAIT)));
	ep = epoll_create1(0);
	epoll_ctl(ep, EPOLL_CTL_ADD, s, &ev);
	printf("epoll before %d\n", epoll_wait(ep, &got, 1, 0));
	send(s, "ping", 4, 0);
	printf("epoll %d", epoll_wait(ep, &got, 1, 10000));
	printf(" in %d\n", !!(got.events & EPOLLIN));
	r = (int)recv(s, buf, sizeof(buf), 0);
	printf("recv %d\n", r);
	close(s);
	return 0;
}

static volatile int ios;

static void on_io(int sig)
{
	(void)sig;
	ios++;
}

/* sendto/recvfrom echo, the source, MSG_PEEK, MSG_TRUNC. */
static int do_udp(int port)
{
	struct sockaddr_in a = addr_of(port), from;
	socklen_t fl = sizeof(from);
	char buf[64] = "";
	int s = socket(AF_INET, SOCK_DGRAM, 0);
	struct iovec iov = { buf, 4 };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
	ssize_t r;

	printf("sendto %zd\n", sendto(s, "datagram", 8, 0, (struct sockaddr *)&a, sizeof(a)));
	printf("peek %zd\n", recv(s, buf, sizeof(buf), MSG_PEEK));
	r = recvfrom(s, buf, sizeof(buf), 0, (struct sockaddr *)&from, &fl);
	printf("recvfrom %zd '%.*s' from port %d\n", r, (int)r, buf, ntohs(from.sin_port) == port);
	sendto(s, "0123456789", 10, 0, (struct sockaddr *)&a, sizeof(a));
	r = recvmsg(s, &mh, MSG_TRUNC);
	printf("recvmsg trunc %zd flags %d\n", r, !!(mh.msg_flags & MSG_TRUNC));
	{
		struct mmsghdr mm[2];
		struct iovec io[2] = { { "one", 3 }, { "three", 5 } };
		char b1[8], b2[8];
		struct iovec ri[2] = { { b1, sizeof(b1) }, { b2, sizeof(b2) } };

		memset(mm, 0, sizeof(mm));
		for (int i = 0; i < 2; i++) {
			mm[i].msg_hdr.msg_iov = &io[i];
			mm[i].msg_hdr.msg_iovlen = 1;
			mm[i].msg_hdr.msg_name = &a;
			mm[i].msg_hdr.msg_namelen = sizeof(a);
		}
		printf("sendmmsg %d", sendmmsg(s, mm, 2, 0));
		memset(mm, 0, sizeof(mm));
		for (int i = 0; i < 2; i++) {
			mm[i].msg_hdr.msg_iov = &ri[i];
			mm[i].msg_hdr.msg_iovlen = 1;
		}
		r = 0;
		while (r < 2) { /* the echo's datagrams may come apart */
			int k = recvmmsg(s, mm + r, 2 - (int)r, MSG_WAITFORONE, NULL);

			if (k <= 0)
				break;
			r += k;
		}
		/* in either order: the echo server's threads race */
		printf(" recvmmsg %zd: %u bytes\n", r, mm[0].msg_len + mm[1].msg_len);
	}
	printf("bad family %s\n",
	       RES(sendto(s, "x", 1, 0, (struct sockaddr *)&(struct sockaddr){ .sa_family = 99 },
			  sizeof(a))));
	printf("bad len %s\n", RES(sendto(s, "x", 1, 0, (struct sockaddr *)&a, 200)));
	close(s);
	{ /* O_ASYNC: SIGIO when a datagram comes */
		struct sockaddr_in me = addr_of(0);
		socklen_t ml = sizeof(me);
		int c = socket(AF_INET, SOCK_DGRAM, 0), i;

		s = socket(AF_INET, SOCK_DGRAM, 0);
		signal(SIGIO, on_io);
		bind(s, (struct sockaddr *)&me, sizeof(me));
		getsockname(s, (struct sockaddr *)&me, &ml);
		fcntl(s, F_SETOWN, getpid());
		fcntl(s, F_SETFL, O_ASYNC | O_NONBLOCK);
		sendto(c, "x", 1, 0, (struct sockaddr *)&me, sizeof(me));
		for (i = 0; i < 10000 && !ios; i++)
			usleep(1000);
		printf("SIGIO %d, recv %zd\n", ios > 0, recv(s, buf, sizeof(buf), 0));
		close(c);
		close(s);
	}
	return 0;
}

/* Hostile and wrong arguments: Linux's errnos, never a crash. */
static int do_hostile(int port)
{
	struct sockaddr_in a = addr_of(port);
	struct sockaddr_in6 a6;
	int t = socket(AF_INET, SOCK_STREAM, 0), u = socket(AF_INET, SOCK_DGRAM, 0), v = 0;
	socklen_t ol = sizeof(v);
	char buf[16], ctl[64];
	struct iovec iov = { buf, sizeof(buf) };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct cmsghdr *cm;
	int n;

	memset(&a6, 0, sizeof(a6));
	a6.sin6_family = AF_INET6;
	printf("socket: stream/udp %s", RES(socket(AF_INET, SOCK_STREAM, IPPROTO_UDP)));
	printf(", seqpacket %s", RES(socket(AF_INET, SOCK_SEQPACKET, 0)));
	printf(", proto 99 %s", RES(socket(AF_INET6, SOCK_DGRAM, 99)));
	/* ICMP echo sockets: what net.ipv4.ping_group_range allows (this
	 * host's "1 0": nobody, EACCES natively and inside alike) */
	printf(", icmp %s\n", RES(socket(AF_INET, SOCK_DGRAM, IPPROTO_ICMP)));
	printf("bind: len 0 %s", RES(bind(u, (struct sockaddr *)&a, 0)));
	printf(", len -1 %s", RES(bind(u, (struct sockaddr *)&a, -1)));
	printf(", len 129 %s", RES(bind(u, (struct sockaddr *)&a, 129)));
	printf(", NULL %s", RES(bind(u, NULL, sizeof(a))));
	printf(", v6 on v4 %s\n", RES(bind(u, (struct sockaddr *)&a6, sizeof(a6))));
	printf("connect: AF_UNIX %s",
	       RES(connect(t, (struct sockaddr *)&(struct sockaddr){ .sa_family = AF_UNIX },
			   sizeof(a))));
	printf(", short %s\n", RES(connect(t, (struct sockaddr *)&a, 15)));
	printf("unconnected: getpeername %s",
	       RES(getpeername(t, (struct sockaddr *)&a6, &(socklen_t){ sizeof(a6) })));
	printf(", shutdown %s", RES(shutdown(t, SHUT_RD)));
	printf(", how 5 %s", RES(shutdown(t, 5)));
	printf(", send %s", RES(send(t, "x", 1, MSG_NOSIGNAL)));
	printf(", recv %s", RES(recv(t, buf, 1, MSG_DONTWAIT)));
	printf(", accept %s", RES(accept(t, NULL, NULL)));
	printf(", listen udp %s\n", RES(listen(u, 1)));
	printf("sockopt: NULL val %s", RES(setsockopt(t, SOL_SOCKET, SO_KEEPALIVE, NULL, 4)));
	printf(", short %s", RES(setsockopt(t, IPPROTO_TCP, TCP_NODELAY, &v, 2)));
	printf(", bad len ptr %s", RES(getsockopt(t, SOL_SOCKET, SO_TYPE, &v, NULL)));
	printf(", bad val %s", RES(getsockopt(t, IPPROTO_TCP, TCP_NODELAY, (void *)8, &ol)));
	ol = (socklen_t)-1;
	printf(", len -1 %s", RES(getsockopt(t, IPPROTO_TCP, TCP_NODELAY, &v, &ol)));
	if (getenv("HOSTNET_UNSUPPORTED")) { /* not passed on: see README */
		printf(", timestamping %s", RES(setsockopt(u, SOL_SOCKET, SO_TIMESTAMPING, &v, 4)));
		printf(", options %s", RES(setsockopt(u, IPPROTO_IP, IP_OPTIONS, &v, 4)));
		printf(", fastopen %s",
		       RES(sendto(socket(AF_INET, SOCK_STREAM, 0), "x", 1, MSG_FASTOPEN,
				  (struct sockaddr *)&a, sizeof(a))));
	}
	printf("\n");
	printf("sendto: len 1 %s", RES(sendto(u, "x", 1, 0, (struct sockaddr *)&a, 1)));
	printf(", bad buf %s", RES(sendto(u, (void *)8, 4, 0, (struct sockaddr *)&a, sizeof(a))));
	printf(", 70000 bytes %s\n",
	       RES(sendto(u, big_buf, 70000, 0, (struct sockaddr *)&a, sizeof(a))));
	mh.msg_name = &a;
	mh.msg_namelen = sizeof(a);
	mh.msg_iov = (void *)8;
	printf("sendmsg: bad iov %s", RES(sendmsg(u, &mh, 0)));
	mh.msg_iov = &iov;
	mh.msg_iovlen = 5000;
	printf(", 5000 iovs %s", RES(sendmsg(u, &mh, 0)));
	mh.msg_iovlen = 1;
	iov.iov_len = 1;
	memset(ctl, 0, sizeof(ctl));
	mh.msg_control = ctl;
	mh.msg_controllen = sizeof(ctl);
	cm = CMSG_FIRSTHDR(&mh);
	cm->cmsg_len = 200;
	printf(", bad cmsg %s", RES(sendmsg(u, &mh, 0)));
	cm->cmsg_len = CMSG_LEN(1);
	cm->cmsg_level = IPPROTO_IP;
	cm->cmsg_type = IP_TTL;
	mh.msg_controllen = CMSG_SPACE(1);
	printf(", short IP_TTL %s", RES(sendmsg(u, &mh, 0)));
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), &(int){ 7 }, sizeof(int));
	mh.msg_controllen = CMSG_SPACE(sizeof(int));
	printf(", IP_TTL 7 %s\n", RES(sendmsg(u, &mh, 0)));
	recv(u, buf, sizeof(buf), 0); /* the echo */
	sendto(u, "abc", 3, 0, (struct sockaddr *)&a, sizeof(a));
	while (ioctl(u, FIONREAD, &n) == 0 && n == 0)
		usleep(1000);
	printf("recv: bad buf %s", RES(recv(u, (void *)8, 4, 0)));
	printf(", then %s", RES(recv(u, buf, 4, MSG_DONTWAIT)));
	printf(", bad from %s\n",
	       RES(recvfrom(u, buf, 4, MSG_DONTWAIT, (void *)8, &(socklen_t){ 16 })));
	return 0;
}

/* recvmsg's control messages a UDP socket asks for, sent to itself. */
static int do_cmsg(void)
{
	struct sockaddr_in a = addr_of(0);
	socklen_t al = sizeof(a);
	int s = socket(AF_INET, SOCK_DGRAM, 0), on = 1, tos = 0x10;
	char buf[8], ctl[512];
	struct iovec iov = { buf, sizeof(buf) };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct cmsghdr *cm;
	struct timeval now;

	bind(s, (struct sockaddr *)&a, sizeof(a));
	getsockname(s, (struct sockaddr *)&a, &al);
	setsockopt(s, SOL_SOCKET, SO_TIMESTAMP, &on, sizeof(on));
	setsockopt(s, IPPROTO_IP, IP_PKTINFO, &on, sizeof(on));
	setsockopt(s, IPPROTO_IP, IP_RECVTTL, &on, sizeof(on));
	setsockopt(s, IPPROTO_IP, IP_RECVTOS, &on, sizeof(on));
	setsockopt(s, IPPROTO_IP, IP_RECVORIGDSTADDR, &on, sizeof(on));
	setsockopt(s, IPPROTO_IP, IP_TOS, &tos, sizeof(tos));
	for (int round = 0; round < 2; round++) {
		sendto(s, "cm", 2, 0, (struct sockaddr *)&a, sizeof(a));
		mh.msg_control = ctl;
		mh.msg_controllen = round ? 40 : sizeof(ctl); /* then too small */
		printf("recvmsg %zd", recvmsg(s, &mh, 0));
		printf(", ctrunc %d:", !!(mh.msg_flags & MSG_CTRUNC));
		gettimeofday(&now, NULL);
		for (cm = CMSG_FIRSTHDR(&mh); cm; cm = CMSG_NXTHDR(&mh, cm)) {
			printf(" %d/%d/%zu", cm->cmsg_level, cm->cmsg_type, (size_t)cm->cmsg_len);
			if (cm->cmsg_level == SOL_SOCKET && cm->cmsg_type == SCM_TIMESTAMP) {
				struct timeval tv;

				memcpy(&tv, CMSG_DATA(cm), sizeof(tv));
				printf("=%s",
				       tv.tv_sec > now.tv_sec - 3600 && tv.tv_sec <= now.tv_sec
					       ? "now"
					       : "wrong");
			} else if (cm->cmsg_level == IPPROTO_IP && cm->cmsg_type == IP_PKTINFO) {
				struct in_pktinfo pi;

				memcpy(&pi, CMSG_DATA(cm), sizeof(pi));
				printf("=lo:%d,%s", pi.ipi_ifindex == 1,
				       pi.ipi_addr.s_addr == htonl(INADDR_LOOPBACK) ? "127.0.0.1"
										    : "?");
			} else if (cm->cmsg_level == IPPROTO_IP && cm->cmsg_type == IP_TTL) {
				printf("=%d", *(int *)CMSG_DATA(cm));
			} else if (cm->cmsg_level == IPPROTO_IP && cm->cmsg_type == IP_TOS) {
				printf("=%#x", *(unsigned char *)CMSG_DATA(cm));
			}
		}
		printf("\n");
	}
	return 0;
}

/* IP_RECVERR: a datagram to a closed port, the ICMP error as POLLERR, the
 * pending error, then MSG_ERRQUEUE's message (the glibc resolver sets
 * IP_RECVERR and gives up without it). */
static int do_errqueue(int port)
{
	struct sockaddr_in a = addr_of(port), from;
	int s = socket(AF_INET, SOCK_DGRAM, 0), on = 1;
	struct pollfd p = { .fd = s, .events = POLLIN };
	char buf[16] = "", ctl[256];
	struct iovec iov = { buf, sizeof(buf) };
	struct msghdr mh = { .msg_name = &from,
			     .msg_namelen = sizeof(from),
			     .msg_iov = &iov,
			     .msg_iovlen = 1,
			     .msg_control = ctl,
			     .msg_controllen = sizeof(ctl) };
	struct cmsghdr *cm;
	ssize_t r;

	printf("IP_RECVERR %s", RES(setsockopt(s, IPPROTO_IP, IP_RECVERR, &on, sizeof(on))));
	printf(", empty queue %s\n", RES(recvmsg(s, &mh, MSG_ERRQUEUE)));
	sendto(s, "probe", 5, 0, (struct sockaddr *)&a, sizeof(a));
	printf("poll %d", poll(&p, 1, 10000));
	printf(" err %d", !!(p.revents & POLLERR));
	r = recvmsg(s, &mh, MSG_ERRQUEUE);
	printf(", errqueue %zd '%.*s' flags %d:", r, r > 0 ? (int)r : 0, buf,
	       !!(mh.msg_flags & MSG_ERRQUEUE));
	for (cm = CMSG_FIRSTHDR(&mh); cm; cm = CMSG_NXTHDR(&mh, cm)) {
		struct sock_extended_err ee;

		memcpy(&ee, CMSG_DATA(cm), sizeof(ee));
		printf(" %d/%d/%zu errno %s origin %d type %d code %d", cm->cmsg_level,
		       cm->cmsg_type, (size_t)cm->cmsg_len, err_name((int)ee.ee_errno),
		       ee.ee_origin, ee.ee_type, ee.ee_code);
	}
	printf(", to port %d\n", ntohs(from.sin_port) == port);
	printf("then: pending %s", RES(recv(s, buf, sizeof(buf), MSG_DONTWAIT)));
	printf(", queue %s\n", RES(recvmsg(s, &mh, MSG_ERRQUEUE)));
	return 0;
}

/* AF_INET6 to the host's IPv4 server, as ::ffff:127.0.0.1. */
static int do_v6(int port)
{
	struct sockaddr_in6 a;
	int s = socket(AF_INET6, SOCK_STREAM, 0), v = -1;
	socklen_t ol = sizeof(v);
	char buf[8] = "";

	if (s < 0) {
		printf("socket %s\n", err_name(errno));
		return 0;
	}
	memset(&a, 0, sizeof(a));
	a.sin6_family = AF_INET6;
	a.sin6_port = htons((unsigned short)port);
	inet_pton(AF_INET6, "::ffff:127.0.0.1", &a.sin6_addr);
	getsockopt(s, IPPROTO_IPV6, IPV6_V6ONLY, &v, &ol);
	printf("v6only %d\n", v);
	printf("connect %s\n", RES(connect(s, (struct sockaddr *)&a, sizeof(a))));
	printf("short len %s\n", RES(connect(s, (struct sockaddr *)&a, 8)));
	send(s, "six", 3, 0);
	printf("recv %zd '%s'\n", recv(s, buf, 3, MSG_WAITALL), buf);
	close(s);
	return 0;
}

static int do_refused(int port)
{
	struct sockaddr_in a = addr_of(port);
	int s = socket(AF_INET, SOCK_STREAM, 0), err = -1;
	struct pollfd p;
	socklen_t ol = sizeof(err);

	printf("blocking %s\n", RES(connect(s, (struct sockaddr *)&a, sizeof(a))));
	close(s);
	s = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
	if (connect(s, (struct sockaddr *)&a, sizeof(a)) < 0 && errno == EINPROGRESS) {
		p.fd = s;
		p.events = POLLOUT;
		poll(&p, 1, 10000);
		getsockopt(s, SOL_SOCKET, SO_ERROR, &err, &ol);
		printf("nonblocking %s\n", err_name(err));
	} else {
		printf("nonblocking %s\n", err_name(errno));
	}
	close(s);
	{
		struct timeval tv = { 5, 0 };
		char c;

		s = socket(AF_INET, SOCK_DGRAM, 0);
		setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
		connect(s, (struct sockaddr *)&a, sizeof(a));
		send(s, "x", 1, 0);
		printf("udp connected %s\n", RES(recv(s, &c, 1, 0)));
		close(s);
	}
	return 0;
}

/* 9 MiB through the echo server: a child sends (blocking sends of 1 MiB
 * that the host takes in parts, then a sendfile) while the parent reads
 * the same socket, shared by fork. */
static int do_bulk(int port)
{
	struct sockaddr_in a = addr_of(port);
	int s = socket(AF_INET, SOCK_STREAM, 0), i, status;
	static char big[1 << 20], buf[65536];
	unsigned long total = 0, sum = 0;
	char path[] = "/tmp/hostnet.XXXXXX";
	ssize_t r;
	pid_t pid;

	for (i = 0; i < (int)sizeof(big); i++)
		big[i] = (char)(i * 7 + i / 4096);
	if (connect(s, (struct sockaddr *)&a, sizeof(a)) < 0) {
		printf("connect %s\n", err_name(errno));
		return 0;
	}
	pid = fork();
	if (pid == 0) {
		int fd = mkstemp(path);
		off_t off = 0;

		for (i = 0; i < 8; i++)
			if ((r = send(s, big, sizeof(big), 0)) != (ssize_t)sizeof(big))
				printf("short send %zd\n", r);
		write(fd, big, sizeof(big));
		unlink(path);
		r = sendfile(s, fd, &off, sizeof(big));
		if (r != (ssize_t)sizeof(big))
			printf("short sendfile %zd\n", r);
		shutdown(s, SHUT_WR);
		_exit(0);
	}
	while ((r = read(s, buf, sizeof(buf))) > 0) {
		for (i = 0; i < r; i++)
			sum = (sum ^ (unsigned char)buf[i]) * 1099511628211UL; /* FNV-1a */
		total += (unsigned long)r;
	}
	waitpid(pid, &status, 0);
	printf("bulk %lu sum %lx, writer status %d\n", total, sum, status);
	return 0;
}

/* Listens on 127.0.0.1, says the port, serves one line. */
static int do_serve(void)
{
	struct sockaddr_in a = addr_of(0), peer;
	socklen_t al = sizeof(a), pl = sizeof(peer);
	int s = socket(AF_INET, SOCK_STREAM, 0), c, v = 1, acc = 0;
	socklen_t ol = sizeof(acc);
	char buf[64];
	ssize_t r;

	setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &v, sizeof(v));
	bind(s, (struct sockaddr *)&a, sizeof(a));
	listen(s, 4);
	getsockopt(s, SOL_SOCKET, SO_ACCEPTCONN, &acc, &ol);
	getsockname(s, (struct sockaddr *)&a, &al);
	printf("port %d\n", ntohs(a.sin_port));
	fflush(stdout);
	c = accept4(s, (struct sockaddr *)&peer, &pl, SOCK_CLOEXEC);
	r = read(c, buf, sizeof(buf));
	fprintf(stderr, "acceptconn %d, accepted from loopback %d, cloexec %d, read %zd\n", acc,
		peer.sin_addr.s_addr == htonl(INADDR_LOOPBACK), fcntl(c, F_GETFD) == FD_CLOEXEC, r);
	write(c, "guest-served\n", 13);
	close(c);
	close(s);
	return 0;
}

static int hits;
static int self_fd = -1;
static struct sockaddr_in self_addr;

static void on_alarm(int sig)
{
	(void)sig;
	hits++;
	if (self_fd >= 0) /* with SA_RESTART: the restarted recv gets this */
		sendto(self_fd, "late", 4, 0, (struct sockaddr *)&self_addr, sizeof(self_addr));
}

static int full_listener = -1;

static void on_alarm_accept(int sig)
{
	(void)sig;
	hits++;
	close(accept(full_listener, NULL, NULL)); /* room for the next SYN */
}

/* A blocking connect to a listener whose queue is full (its SYN dropped:
 * Linux tries again after a second) and a signal: EINTR, a second
 * connect waits on and ends at SO_SNDTIMEO with EALREADY, a non-blocking
 * one is EALREADY, and under SA_RESTART it goes on until the listener
 * has room (the handler takes the queued connection). */
static int do_connect_eintr(void)
{
	struct sockaddr_in a = addr_of(0);
	socklen_t al = sizeof(a);
	struct itimerval it = { .it_value = { 0, 100000 } };
	struct timeval tv = { 0, 100000 };
	struct sigaction sa;
	int first = socket(AF_INET, SOCK_STREAM, 0), c = socket(AF_INET, SOCK_STREAM, 0), fl;

	full_listener = socket(AF_INET, SOCK_STREAM, 0);
	bind(full_listener, (struct sockaddr *)&a, sizeof(a));
	getsockname(full_listener, (struct sockaddr *)&a, &al);
	listen(full_listener, 0);
	connect(first, (struct sockaddr *)&a, sizeof(a)); /* fills the queue */
	hits = 0;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sigaction(SIGALRM, &sa, NULL);
	setitimer(ITIMER_REAL, &it, NULL);
	printf("connect to a full queue: %s", RES(connect(c, (struct sockaddr *)&a, sizeof(a))));
	printf(", hits %d", hits);
	setsockopt(c, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	printf(", again %s", RES(connect(c, (struct sockaddr *)&a, sizeof(a))));
	fl = fcntl(c, F_GETFL);
	fcntl(c, F_SETFL, fl | O_NONBLOCK);
	printf(", non-blocking %s\n", RES(connect(c, (struct sockaddr *)&a, sizeof(a))));
	close(c);
	c = socket(AF_INET, SOCK_STREAM, 0);
	sa.sa_handler = on_alarm_accept;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGALRM, &sa, NULL);
	setitimer(ITIMER_REAL, &it, NULL);
	printf("under SA_RESTART: %s", RES(connect(c, (struct sockaddr *)&a, sizeof(a))));
	printf(", hits %d\n", hits);
	return 0;
}

/* A blocking recv and a signal: EINTR without SA_RESTART, restarted with
 * it, EAGAIN at SO_RCVTIMEO; a blocking accept likewise. */
static int do_eintr(void)
{
	struct sigaction sa;
	struct itimerval it = { .it_value = { 0, 100000 } };
	struct timeval tv = { 0, 100000 };
	int s = socket(AF_INET, SOCK_DGRAM, 0), l = socket(AF_INET, SOCK_STREAM, 0);
	socklen_t al = sizeof(self_addr);
	char buf[16];
	ssize_t r;

	self_addr = addr_of(0);
	bind(s, (struct sockaddr *)&self_addr, sizeof(self_addr));
	getsockname(s, (struct sockaddr *)&self_addr, &al);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sigaction(SIGALRM, &sa, NULL);
	setitimer(ITIMER_REAL, &it, NULL);
	printf("recv no SA_RESTART %s, hits %d\n", RES(recv(s, buf, sizeof(buf), 0)), hits);
	bind(l,
	     (struct sockaddr *)&(struct sockaddr_in){ .sin_family = AF_INET,
						       .sin_addr.s_addr = htonl(INADDR_LOOPBACK) },
	     sizeof(struct sockaddr_in));
	listen(l, 1);
	setitimer(ITIMER_REAL, &it, NULL);
	printf("accept no SA_RESTART %s, hits %d\n", RES(accept(l, NULL, NULL)), hits);
	sa.sa_flags = SA_RESTART;
	sigaction(SIGALRM, &sa, NULL);
	self_fd = socket(AF_INET, SOCK_DGRAM, 0);
	setitimer(ITIMER_REAL, &it, NULL);
	r = recv(s, buf, sizeof(buf), 0);
	printf("recv SA_RESTART %zd, hits %d\n", r, hits);
	setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	printf("recv SO_RCVTIMEO %s\n", RES(recv(s, buf, sizeof(buf), 0)));
	return do_connect_eintr();
}

/* Opens and closes sockets on command, so hostnet.sh can count the
 * kernel's host fds in between. */
static int do_many(int port)
{
	static int fds[1000];
	char line[64];
	int n = 0, i, k;

	printf("ready\n");
	fflush(stdout);
	while (fgets(line, sizeof(line), stdin)) {
		if (sscanf(line, "open %d", &k) == 1) {
			for (i = 0; i < k && n < 1000; i++) {
				struct sockaddr_in a = addr_of(port);
				int s = socket(AF_INET, i % 2 ? SOCK_DGRAM : SOCK_STREAM, 0);

				if (i % 2 == 0 && connect(s, (struct sockaddr *)&a, sizeof(a)) < 0)
					printf("connect %s\n", err_name(errno));
				fds[n++] = s;
				if (i % 4 == 0) { /* a dup and a fork's copy share it */
					int d = dup(s);
					pid_t pid = fork();

					if (pid == 0)
						_exit(0);
					waitpid(pid, NULL, 0);
					close(d);
				}
			}
			printf("opened %d\n", n);
		} else if (strncmp(line, "close", 5) == 0) {
			for (i = 0; i < n; i++)
				close(fds[i]);
			n = 0;
			printf("closed\n");
		} else {
			break;
		}
		fflush(stdout);
	}
	return 0;
}

/* Edge cases a review found: a receive into a buffer that faults part
 * way loses no data (the rest arrives by the next receive), TCP_INFO's
 * whole length, sendto with an address of length 0 on UDP, SO_PASSCRED
 * on UDP. */
static int do_edge(void)
{
	struct sockaddr_in a = addr_of(0);
	socklen_t al = sizeof(a), il = 512;
	static char data[8000], info[512], good[8000];
	char *p = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int l = socket(AF_INET, SOCK_STREAM, 0), c = socket(AF_INET, SOCK_STREAM, 0), s, on = 1;
	int u = socket(AF_INET, SOCK_DGRAM, 0);
	long got = 0, r;
	struct pollfd pf;

	if (p == MAP_FAILED || bind(l, (struct sockaddr *)&a, sizeof(a)) || listen(l, 1) ||
	    getsockname(l, (struct sockaddr *)&a, &al) ||
	    connect(c, (struct sockaddr *)&a, sizeof(a)) || (s = accept(l, NULL, NULL)) < 0)
		return 1;
	munmap(p + 4096, 4096);
	if (send(c, data, sizeof(data), 0) != sizeof(data))
		return 1;
	pf.fd = s;
	pf.events = POLLIN;
	poll(&pf, 1, 5000);
	r = recv(s, p, sizeof(data), 0); /* only its first page is there */
	if (r > 0)
		got += r;
	printf("recv into a buffer that faults at 4096: %s\n",
	       r < 0 ? (errno == EFAULT ? "EFAULT" : strerror(errno)) : "some bytes");
	while (got < (long)sizeof(data) && poll(&pf, 1, 2000) == 1 &&
	       (r = recv(s, good, sizeof(good), 0)) > 0)
		got += r;
	printf("all 8000 bytes arrived: %s\n", got == (long)sizeof(data) ? "yes" : "no");
	r = getsockopt(s, IPPROTO_TCP, TCP_INFO, info, &il);
	printf("TCP_INFO %s, length %u\n", RES(r), il);
	r = sendto(u, "x", 1, 0, (struct sockaddr *)&a, 0);
	printf("UDP sendto with address length 0: %s\n", RES(r));
	r = setsockopt(u, SOL_SOCKET, SO_PASSCRED, &on, sizeof(on));
	printf("SO_PASSCRED on UDP: %s\n", RES(r));
	return 0;
}

int main(int argc, char **argv)
{
	int port = argc > 2 ? atoi(argv[2]) : 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc < 2)
		return 2;
	if (!strcmp(argv[1], "tcp"))
		return do_tcp(port);
	if (!strcmp(argv[1], "nbtcp"))
		return do_nbtcp(port);
	if (!strcmp(argv[1], "udp"))
		return do_udp(port);
	if (!strcmp(argv[1], "errq"))
		return do_errqueue(port);
	if (!strcmp(argv[1], "cmsg"))
		return do_cmsg();
	if (!strcmp(argv[1], "hostile"))
		return do_hostile(port);
	if (!strcmp(argv[1], "bulk"))
		return do_bulk(port);
	if (!strcmp(argv[1], "v6"))
		return do_v6(port);
	if (!strcmp(argv[1], "refused"))
		return do_refused(port);
	if (!strcmp(argv[1], "serve"))
		return do_serve();
	if (!strcmp(argv[1], "eintr"))
		return do_eintr();
	if (!strcmp(argv[1], "many"))
		return do_many(port);
	if (!strcmp(argv[1], "edge"))
		return do_edge();
	return 2;
}
