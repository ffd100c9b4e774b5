/* Network namespaces seen through sockets and rtnetlink: SO_NETNS_COOKIE
 * is the namespace's (the same for two sockets of one namespace, another
 * after unshare(CLONE_NEWNET), the old one still for a socket made before
 * it; an optlen not 8 is EINVAL). Netlink ports are per namespace: one
 * taken before the unshare is free again after it. In the fresh namespace
 * the link dump holds lo only, index 1, loopback, down, operstate DOWN,
 * qdisc noop; there is no address and /proc/self/net/if_inet6 is empty.
 * With NETLINK_GET_STRICT_CHK a dump of the IPv4 local table, which lo
 * has not made yet, ends in ENOENT. RTM_NEWADDR 127.0.0.1/8 to lo, down,
 * is acked (EEXIST again with NLM_F_EXCL; a prefix length of 33 or no
 * IFA_LOCAL EINVAL, index 99 ENODEV): the sequence of bwrap
 * --unshare-net. RTM_NEWLINK IFF_UP brings lo up (RUNNING, operstate
 * UNKNOWN, qdisc noqueue) and gives it ::1, dumped after 127.0.0.1, and
 * one line of if_inet6. A UDP datagram to the port of a socket of the old
 * namespace finds nobody there (ECONNREFUSED) and the old socket gets
 * nothing. Taking lo down again takes ::1 away, keeps 127.0.0.1 and
 * leaves the qdisc noqueue (noop before the first up, address or not).
 * A second fresh namespace counts only its own sockets in
 * /proc/net/sockstat; SIOCSIFADDR gives its lo 127.0.0.1 (again: no
 * change) without bringing it up, as busybox's `ifconfig lo 127.0.0.1
 * up` does first; and the server end of an AF_UNIX connection to a
 * listener of the first namespace is in the connecting socket's
 * namespace (its SO_NETNS_COOKIE). SO_NETNS_COOKIE's optlen must be 8;
 * a 2-byte IFA_LOCAL is ERANGE. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <net/if.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/un.h>

#define TAP_ENAME
#include "tap.h"

#include "netlink_util.h"

#ifndef CLONE_NEWNET
#define CLONE_NEWNET 0x40000000
#endif
#ifndef SO_NETNS_COOKIE
#define SO_NETNS_COOKIE 71
#endif
#ifndef IFF_RUNNING
#define IFF_RUNNING 0x40
#endif
#ifndef NLM_F_EXCL
#define NLM_F_EXCL 0x200
#endif
#ifndef IFLA_OPERSTATE
#define IFLA_OPERSTATE 16
#endif
#ifndef IFA_F_PERMANENT
#define IFA_F_PERMANENT 0x80
#endif
#ifndef IF_OPER_UNKNOWN
#define IF_OPER_UNKNOWN 0
#endif
#ifndef IF_OPER_DOWN
#define IF_OPER_DOWN 2
#endif

/* The netlink port bound in both namespaces. */
#define PORT 0x7ffff123u

static unsigned seq = 1000;

/* A NETLINK_ROUTE socket, bound to port (0: the kernel's choice). */
static int nl_open(uint32_t port)
{
	struct sockaddr_nl a = { .nl_family = AF_NETLINK, .nl_pid = port };
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);

	if (fd >= 0 && bind(fd, (struct sockaddr *)&a, sizeof(a)) != 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* A request being built: the header, a fixed part, attributes. */
union msg {
	struct nlmsghdr h;
	char buf[512];
};

static void msg_start(union msg *m, int type, int flags, const void *body, size_t blen)
{
	memset(m, 0, sizeof(*m));
	m->h.nlmsg_len = NLMSG_LENGTH(blen);
	m->h.nlmsg_type = type;
	m->h.nlmsg_flags = flags;
	m->h.nlmsg_seq = ++seq;
	memcpy(NLMSG_DATA(&m->h), body, blen);
}

static void msg_attr(union msg *m, int type, const void *data, size_t len)
{
	struct rtattr *a = (struct rtattr *)(m->buf + NLMSG_ALIGN(m->h.nlmsg_len));

	a->rta_type = type;
	a->rta_len = RTA_LENGTH(len);
	memcpy(RTA_DATA(a), data, len);
	m->h.nlmsg_len = NLMSG_ALIGN(m->h.nlmsg_len) + RTA_ALIGN(a->rta_len);
}

/* One datagram, waiting up to 2 s for it: its length, or -1. */
static long nl_recv(int fd, char *buf, size_t size)
{
	struct pollfd p = { fd, POLLIN, 0 };

	if (poll(&p, 1, 2000) != 1)
		return -1;
	return recv(fd, buf, size, MSG_DONTWAIT);
}

/* The answers to a request: the messages of its sequence number other
 * than NLMSG_DONE and NLMSG_ERROR, one after another in buf, and how the
 * request ended: an NLMSG_DONE or an NLMSG_ERROR and its error. */
struct reply {
	char buf[65536];
	long len;
	int count;
	int end; /* NLMSG_DONE, NLMSG_ERROR, or 0: nothing (in 2 s) */
	int err;
};

static struct reply rep;

/* Sends m and reads the answers into rep until an NLMSG_DONE or an
 * NLMSG_ERROR or, for a request neither dump nor ack, the first answer. */
static struct reply *nl_talk(int fd, union msg *m)
{
	static char buf[65536];
	int once = !(m->h.nlmsg_flags & (NLM_F_DUMP | NLM_F_ACK));

	memset(&rep, 0, sizeof(rep));
	if (send(fd, m, m->h.nlmsg_len, 0) != (long)m->h.nlmsg_len)
		return &rep;
	while (!rep.end) {
		long n = nl_recv(fd, buf, sizeof(buf));

		if (n <= 0)
			break;
		for (struct nlmsghdr *h = (struct nlmsghdr *)buf; NLMSG_OK(h, n);
		     h = NLMSG_NEXT(h, n)) {
			if (h->nlmsg_seq != m->h.nlmsg_seq)
				continue;
			if (h->nlmsg_type == NLMSG_DONE || h->nlmsg_type == NLMSG_ERROR) {
				rep.end = h->nlmsg_type;
				if (h->nlmsg_len >= NLMSG_LENGTH(sizeof(int)))
					memcpy(&rep.err, NLMSG_DATA(h), sizeof(int));
				break;
			}
			if (rep.len + NLMSG_ALIGN(h->nlmsg_len) > sizeof(rep.buf))
				break;
			memcpy(rep.buf + rep.len, h, h->nlmsg_len);
			rep.len += NLMSG_ALIGN(h->nlmsg_len);
			rep.count++;
		}
		if (once && rep.count)
			break;
	}
	return &rep;
}

/* The error an NLMSG_ERROR acknowledging m carries, or 1 for none. */
static int nl_ack(int fd, union msg *m)
{
	struct reply *r = nl_talk(fd, m);

	return r->end == NLMSG_ERROR ? r->err : 1;
}

static void check_ack(int err, int want, const char *what)
{
	if (err == -want)
		printf("ok %d - %s -> %s\n", ++n, what, ename(want));
	else
		printf("not ok %d - %s: got %s%s, want %s\n", ++n, what, err > 0 ? "no ack" : "",
		       err > 0 ? "" : ename(-err), ename(want));
}

static void check_str(const char *got, const char *want, const char *what)
{
	if (strcmp(got, want) == 0)
		printf("ok %d - %s: %s\n", ++n, what, want);
	else
		printf("not ok %d - %s: got \"%s\", want \"%s\"\n", ++n, what, got, want);
}

/* What an RTM_NEWLINK says of a link. */
struct link {
	int index;
	unsigned flags;
	int operstate;
	char qdisc[32];
};

static void link_of(struct nlmsghdr *h, struct link *l)
{
	struct ifinfomsg *i = NLMSG_DATA(h);
	int len = h->nlmsg_len - NLMSG_LENGTH(sizeof(*i));

	memset(l, 0, sizeof(*l));
	l->index = i->ifi_index;
	l->flags = i->ifi_flags;
	l->operstate = -1;
	for (struct rtattr *a = (struct rtattr *)((char *)i + NLMSG_ALIGN(sizeof(*i)));
	     RTA_OK(a, len); a = RTA_NEXT(a, len)) {
		if (a->rta_type == IFLA_OPERSTATE && RTA_PAYLOAD(a) >= 1)
			l->operstate = *(unsigned char *)RTA_DATA(a);
		if (a->rta_type == IFLA_QDISC && RTA_PAYLOAD(a) < (int)sizeof(l->qdisc))
			memcpy(l->qdisc, RTA_DATA(a), RTA_PAYLOAD(a));
	}
}

/* RTM_GETLINK of index 1 into l: 0, or -1 for no RTM_NEWLINK. */
static int get_lo(int fd, struct link *l)
{
	struct ifinfomsg ifi = { .ifi_index = 1 };
	union msg m;
	struct reply *r;

	msg_start(&m, RTM_GETLINK, NLM_F_REQUEST, &ifi, sizeof(ifi));
	r = nl_talk(fd, &m);
	if (r->count != 1 || ((struct nlmsghdr *)r->buf)->nlmsg_type != RTM_NEWLINK)
		return -1;
	link_of((struct nlmsghdr *)r->buf, l);
	return 0;
}

/* An RTM_GETADDR dump of every family, as "inet 127.0.0.1/8 on 1, ..."
 * (the messages that are not RTM_NEWADDR as "type T"), or "none". */
static void addrs(int fd, char *out, size_t size)
{
	struct ifaddrmsg ifa = { .ifa_family = AF_UNSPEC };
	union msg m;
	struct reply *r;
	size_t used = 0;
	long len;

	msg_start(&m, RTM_GETADDR, NLM_F_REQUEST | NLM_F_DUMP, &ifa, sizeof(ifa));
	r = nl_talk(fd, &m);
	snprintf(out, size, "none");
	len = r->len;
	for (struct nlmsghdr *h = (struct nlmsghdr *)r->buf; NLMSG_OK(h, len);
	     h = NLMSG_NEXT(h, len)) {
		struct ifaddrmsg *a = NLMSG_DATA(h);
		int alen = h->nlmsg_len - NLMSG_LENGTH(sizeof(*a));
		char ip[64] = "?";

		if (h->nlmsg_type != RTM_NEWADDR) {
			used += snprintf(out + used, size - used, "%stype %d", used ? ", " : "",
					 h->nlmsg_type);
			continue;
		}
		for (struct rtattr *at = (struct rtattr *)((char *)a + NLMSG_ALIGN(sizeof(*a)));
		     RTA_OK(at, alen); at = RTA_NEXT(at, alen))
			if (at->rta_type == IFA_ADDRESS)
				inet_ntop(a->ifa_family, RTA_DATA(at), ip, sizeof(ip));
		used += snprintf(out + used, size - used, "%s%s %s/%d on %u", used ? ", " : "",
				 a->ifa_family == AF_INET    ? "inet"
				 : a->ifa_family == AF_INET6 ? "inet6"
							     : "?",
				 ip, a->ifa_prefixlen, a->ifa_index);
		if (used >= size)
			break;
	}
	if (r->end != NLMSG_DONE)
		snprintf(out, size, "no NLMSG_DONE");
}

/* RTM_NEWADDR of 127.0.0.1 to index with prefix length plen, with
 * IFA_LOCAL if local: the ack's error. */
static int newaddr(int fd, int index, int plen, int local, int flags)
{
	struct ifaddrmsg ifa = { .ifa_family = AF_INET,
				 .ifa_prefixlen = plen,
				 .ifa_flags = IFA_F_PERMANENT,
				 .ifa_scope = RT_SCOPE_HOST,
				 .ifa_index = index };
	struct in_addr lo = { htonl(INADDR_LOOPBACK) };
	union msg m;

	msg_start(&m, RTM_NEWADDR, flags, &ifa, sizeof(ifa));
	if (local)
		msg_attr(&m, IFA_LOCAL, &lo, sizeof(lo));
	msg_attr(&m, IFA_ADDRESS, &lo, sizeof(lo));
	return nl_ack(fd, &m);
}

/* RTM_NEWLINK of lo, IFF_UP set or clear: the ack's error. */
static int set_lo(int fd, int up)
{
	struct ifinfomsg ifi = { .ifi_index = 1,
				 .ifi_flags = up ? IFF_UP : 0,
				 .ifi_change = IFF_UP };
	union msg m;

	msg_start(&m, RTM_NEWLINK, NLM_F_REQUEST | NLM_F_ACK, &ifi, sizeof(ifi));
	return nl_ack(fd, &m);
}

/* /proc/self/net/if_inet6: its number of lines, the first in line. */
static int if_inet6(char *line, size_t size)
{
	FILE *f = fopen("/proc/self/net/if_inet6", "r");
	char buf[256];
	int lines = 0;

	line[0] = 0;
	if (!f)
		return -1;
	while (fgets(buf, sizeof(buf), f))
		if (lines++ == 0)
			snprintf(line, size, "%s", buf);
	fclose(f);
	return lines;
}

/* line is one of if_inet6 for ::1 on lo. */
static int is_lo6(const char *line)
{
	size_t len = strlen(line);

	while (len && line[len - 1] == '\n')
		len--;
	return strncmp(line, "00000000000000000000000000000001 ", 33) == 0 && len > 3 &&
	       strncmp(line + len - 3, " lo", 3) == 0;
}

static int cookie(int fd, uint64_t *c)
{
	socklen_t len = sizeof(*c);

	*c = 0;
	if (getsockopt(fd, SOL_SOCKET, SO_NETNS_COOKIE, c, &len) != 0 || len != sizeof(*c))
		return -1;
	return 0;
}

/* /proc/net/sockstat's "sockets: used" count, or -1. */
static int sockets_used(void)
{
	FILE *f = fopen("/proc/net/sockstat", "r");
	int n = -1;

	if (f) {
		if (fscanf(f, "sockets: used %d", &n) != 1)
			n = -1;
		fclose(f);
	}
	return n;
}

static struct sockaddr_in lo4(unsigned short port)
{
	struct sockaddr_in a;

	memset(&a, 0, sizeof(a));
	a.sin_family = AF_INET;
	a.sin_port = htons(port);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	return a;
}

int main(void)
{
	uint64_t ca, cb, cc, ca2, cn, cp, c128[2];
	struct sockaddr_un sun;
	uint32_t c32;
	socklen_t len;
	struct sockaddr_in sa;
	struct link l;
	struct reply *r;
	union msg m;
	char list[1024], line[256];
	int A, B, C, N1, N2, N3, P, U, fd, lines, ok, one = 1;
	unsigned short uport;
	char byte;

	/* 1: before the unshare */
	A = socket(AF_INET, SOCK_DGRAM, 0);
	B = socket(AF_UNIX, SOCK_STREAM, 0);
	check(cookie(A, &ca) == 0 && cookie(B, &cb) == 0 && ca != 0 && ca == cb,
	      "SO_NETNS_COOKIE: two sockets, the same nonzero cookie");
	len = sizeof(c32);
	check_err(getsockopt(A, SOL_SOCKET, SO_NETNS_COOKIE, &c32, &len), EINVAL,
		  "SO_NETNS_COOKIE, optlen 4");
	len = sizeof(c128);
	check_err(getsockopt(A, SOL_SOCKET, SO_NETNS_COOKIE, c128, &len), EINVAL,
		  "SO_NETNS_COOKIE, optlen 16");
	P = socket(AF_UNIX, SOCK_STREAM, 0);
	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	snprintf(sun.sun_path, sizeof(sun.sun_path), "/tmp/netns_rtnl.%d", (int)getpid());
	unlink(sun.sun_path);
	check(bind(P, (struct sockaddr *)&sun, sizeof(sun)) == 0 && listen(P, 4) == 0,
	      "an AF_UNIX listener P on a path");
	N1 = nl_open(PORT);
	check(N1 >= 0, "NETLINK_ROUTE bind to port 0x7ffff123");
	N2 = socket(AF_NETLINK, SOCK_RAW, NETLINK_ROUTE);
	{
		struct sockaddr_nl a = { .nl_family = AF_NETLINK, .nl_pid = PORT };

		check_err(bind(N2, (struct sockaddr *)&a, sizeof(a)), EADDRINUSE,
			  "another socket binds port 0x7ffff123");
	}
	close(N2);
	U = socket(AF_INET, SOCK_DGRAM, 0);
	sa = lo4(0);
	len = sizeof(sa);
	check(U >= 0 && bind(U, (struct sockaddr *)&sa, sizeof(sa)) == 0 &&
		      getsockname(U, (struct sockaddr *)&sa, &len) == 0 && sa.sin_port != 0,
	      "a UDP socket U bound to 127.0.0.1, its port from getsockname");
	uport = ntohs(sa.sin_port);

	check(unshare(CLONE_NEWNET) == 0, "unshare(CLONE_NEWNET)");

	C = socket(AF_INET, SOCK_DGRAM, 0);
	check(cookie(C, &cc) == 0 && cc != 0 && cc != ca,
	      "SO_NETNS_COOKIE: a socket made now, another cookie");
	check(cookie(A, &ca2) == 0 && ca2 == ca,
	      "SO_NETNS_COOKIE: a socket made before, the old cookie");
	close(C);

	/* 2 */
	N3 = nl_open(PORT);
	check(N3 >= 0, "NETLINK_ROUTE bind to port 0x7ffff123 in the new namespace");
	close(N3);
	close(N1);

	/* 3: lo, never up */
	fd = nl_open(0);
	check(fd >= 0, "a NETLINK_ROUTE socket");
	{
		struct ifinfomsg ifi = { 0 };

		msg_start(&m, RTM_GETLINK, NLM_F_REQUEST | NLM_F_DUMP, &ifi, sizeof(ifi));
	}
	r = nl_talk(fd, &m);
	ok = r->end == NLMSG_DONE && r->count == 1 &&
	     ((struct nlmsghdr *)r->buf)->nlmsg_type == RTM_NEWLINK;
	check(ok, "RTM_GETLINK dump: one link");
	if (ok)
		link_of((struct nlmsghdr *)r->buf, &l);
	else
		memset(&l, 0, sizeof(l));
	check(ok && l.index == 1 && (l.flags & IFF_LOOPBACK) && !(l.flags & IFF_UP),
	      "lo: index 1, IFF_LOOPBACK, not IFF_UP");
	check(ok && l.operstate == IF_OPER_DOWN, "lo: IFLA_OPERSTATE IF_OPER_DOWN");
	check_str(ok ? l.qdisc : "", "noop", "lo: IFLA_QDISC");
	addrs(fd, list, sizeof(list));
	check_str(list, "none", "RTM_GETADDR dump");
	lines = if_inet6(line, sizeof(line));
	check(lines == 0, "/proc/self/net/if_inet6 empty");

	/* 4: strict checks, a table not made yet */
	check(setsockopt(fd, SOL_NETLINK_, NETLINK_GET_STRICT_CHK, &one, sizeof(one)) == 0,
	      "NETLINK_GET_STRICT_CHK");
	{
		struct rtmsg rtm = { .rtm_family = AF_INET, .rtm_table = RT_TABLE_LOCAL };

		msg_start(&m, RTM_GETROUTE, NLM_F_REQUEST | NLM_F_DUMP, &rtm, sizeof(rtm));
	}
	r = nl_talk(fd, &m);
	check(r->count == 0 && r->end == NLMSG_DONE && r->err == -ENOENT,
	      "RTM_GETROUTE dump AF_INET, table local: NLMSG_DONE, ENOENT");
	close(fd);

	/* 5: an address to lo, down */
	fd = nl_open(0);
	check_ack(newaddr(fd, 1, 8, 1, NLM_F_REQUEST | NLM_F_ACK | NLM_F_CREATE | NLM_F_EXCL), 0,
		  "RTM_NEWADDR 127.0.0.1/8 to lo");
	check_ack(newaddr(fd, 1, 8, 1, NLM_F_REQUEST | NLM_F_ACK | NLM_F_CREATE | NLM_F_EXCL),
		  EEXIST, "the same again");
	addrs(fd, list, sizeof(list));
	check_str(list, "inet 127.0.0.1/8 on 1", "RTM_GETADDR dump");
	ok = get_lo(fd, &l) == 0;
	check_str(ok ? l.qdisc : "", "noop", "lo, given its address but never up: IFLA_QDISC");
	check_ack(newaddr(fd, 1, 33, 1, NLM_F_REQUEST | NLM_F_ACK | NLM_F_CREATE), EINVAL,
		  "RTM_NEWADDR, prefix length 33");
	check_ack(newaddr(fd, 1, 8, 0, NLM_F_REQUEST | NLM_F_ACK | NLM_F_CREATE), EINVAL,
		  "RTM_NEWADDR without IFA_LOCAL");
	check_ack(newaddr(fd, 99, 8, 1, NLM_F_REQUEST | NLM_F_ACK | NLM_F_CREATE), ENODEV,
		  "RTM_NEWADDR to index 99");
	{
		struct ifaddrmsg ifa = { .ifa_family = AF_INET,
					 .ifa_prefixlen = 8,
					 .ifa_index = 1 };
		uint16_t half = 0x7f;

		msg_start(&m, RTM_NEWADDR, NLM_F_REQUEST | NLM_F_ACK | NLM_F_CREATE, &ifa,
			  sizeof(ifa));
		msg_attr(&m, IFA_LOCAL, &half, sizeof(half));
		check_ack(nl_ack(fd, &m), ERANGE, "RTM_NEWADDR, a 2-byte IFA_LOCAL");
	}

	/* 6: lo up */
	check_ack(set_lo(fd, 1), 0, "RTM_NEWLINK lo IFF_UP");
	ok = get_lo(fd, &l) == 0;
	check(ok && (l.flags & IFF_UP) && (l.flags & IFF_RUNNING),
	      "RTM_GETLINK lo: IFF_UP and IFF_RUNNING");
	check(ok && l.operstate == IF_OPER_UNKNOWN, "lo: IFLA_OPERSTATE IF_OPER_UNKNOWN");
	check_str(ok ? l.qdisc : "", "noqueue", "lo: IFLA_QDISC");
	addrs(fd, list, sizeof(list));
	check_str(list, "inet 127.0.0.1/8 on 1, inet6 ::1/128 on 1", "RTM_GETADDR dump");
	lines = if_inet6(line, sizeof(line));
	check(lines == 1 && is_lo6(line), "/proc/self/net/if_inet6: one line, ::1 on lo");

	/* 7: U's port, from the new namespace */
	C = socket(AF_INET, SOCK_DGRAM, 0);
	sa = lo4(uport);
	check(connect(C, (struct sockaddr *)&sa, sizeof(sa)) == 0 && send(C, "x", 1, 0) == 1,
	      "UDP to 127.0.0.1:U's port: connect and send");
	{
		struct pollfd p = { C, POLLIN, 0 };

		poll(&p, 1, 1000);
	}
	check_err(recv(C, &byte, 1, MSG_DONTWAIT), ECONNREFUSED, "then recv");
	check_err(recv(U, &byte, 1, MSG_DONTWAIT), EAGAIN, "U (the old namespace) recv");
	close(C);

	/* 8: lo down again */
	check_ack(set_lo(fd, 0), 0, "RTM_NEWLINK lo not IFF_UP");
	ok = get_lo(fd, &l) == 0;
	check(ok && !(l.flags & IFF_UP), "RTM_GETLINK lo: not IFF_UP");
	check_str(ok ? l.qdisc : "", "noqueue", "lo: IFLA_QDISC");
	addrs(fd, list, sizeof(list));
	check_str(list, "inet 127.0.0.1/8 on 1", "RTM_GETADDR dump");
	lines = if_inet6(line, sizeof(line));
	check(lines == 0, "/proc/self/net/if_inet6 empty");

	close(fd);

	/* 9: another fresh namespace: its own socket count, busybox's
	 * `ifconfig lo 127.0.0.1 up`, and the server end of an AF_UNIX
	 * connection in the connecting socket's namespace */
	check(unshare(CLONE_NEWNET) == 0, "unshare(CLONE_NEWNET) again");
	check(sockets_used() == 0, "/proc/net/sockstat: sockets used 0");
	C = socket(AF_INET, SOCK_DGRAM, 0);
	check(sockets_used() == 1, "one socket made: sockets used 1");
	{
		struct ifreq ifr;
		struct sockaddr_in *sin = (struct sockaddr_in *)&ifr.ifr_addr;

		memset(&ifr, 0, sizeof(ifr));
		strcpy(ifr.ifr_name, "lo");
		*sin = lo4(0);
		check(ioctl(C, SIOCSIFADDR, &ifr) == 0, "SIOCSIFADDR lo 127.0.0.1");
		memset(&ifr.ifr_addr, 0, sizeof(ifr.ifr_addr));
		check(ioctl(C, SIOCGIFADDR, &ifr) == 0 &&
			      sin->sin_addr.s_addr == htonl(INADDR_LOOPBACK),
		      "SIOCGIFADDR lo: 127.0.0.1");
		check(ioctl(C, SIOCSIFADDR, &ifr) == 0, "SIOCSIFADDR lo 127.0.0.1 again");
		check(ioctl(C, SIOCGIFFLAGS, &ifr) == 0 && !(ifr.ifr_flags & IFF_UP),
		      "lo still down");
		ifr.ifr_flags |= IFF_UP;
		check(ioctl(C, SIOCSIFFLAGS, &ifr) == 0, "SIOCSIFFLAGS lo up");
	}
	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	check(connect(fd, (struct sockaddr *)&sun, sizeof(sun)) == 0, "connect to P's path");
	N2 = accept(P, NULL, NULL);
	check(N2 >= 0, "P accepts");
	check(cookie(fd, &cn) == 0 && cookie(N2, &cp) == 0 && cp == cn && cn != ca && cn != cc,
	      "the accepted end: the connecting socket's namespace cookie");
	close(N2);
	close(fd);
	close(C);
	close(P);
	unlink(sun.sun_path);
	close(A);
	close(B);
	close(U);
	return 0;
}
