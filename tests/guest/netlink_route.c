/* skas-test: netns: lo */
/* AF_NETLINK, NETLINK_ROUTE, as in a network namespace holding only lo
 * (the native side runs in one): socket types and protocols, bind and the
 * port chosen (the pid, then negative), getsockname, the dumps of links,
 * addresses and routes attribute by attribute, RTM_GETLINK by index and
 * name, NLM_F_ACK, NLMSG_ERROR with the request echoed (or capped),
 * NETLINK_GET_STRICT_CHK's checks and filters (a dump's error in its
 * NLMSG_DONE), malformed messages (dropped silently, as Linux), several
 * requests in one datagram, MSG_PEEK|MSG_TRUNC, read/write, recvfrom's
 * kernel address, poll, SO_RCVBUF overflow as ENOBUFS, a socket sending to
 * another, a change request without CAP_NET_ADMIN (EPERM), and the SOL_NETLINK
 * options. What Linux leaves to chance (IFLA_AF_SPEC's devconf, the
 * addresses' timestamps) is not printed. */
#include "inet_util.h"

#include "netlink_util.h"

#include <poll.h>
#include <stdlib.h>

static unsigned seq = 100;

static int nl(int type)
{
	int fd = socket(AF_NETLINK, type, NETLINK_ROUTE);

	if (fd < 0)
		printf("socket: %s\n", ename(errno));
	return fd;
}

/* Sends one request of type with a fixed part and attributes. */
static long req(int fd, int type, int flags, const void *body, size_t blen)
{
	char buf[512];
	struct nlmsghdr *h = (struct nlmsghdr *)buf;

	memset(buf, 0, sizeof(buf));
	h->nlmsg_len = NLMSG_LENGTH(blen);
	h->nlmsg_type = type;
	h->nlmsg_flags = flags;
	h->nlmsg_seq = ++seq;
	memcpy(NLMSG_DATA(h), body, blen);
	return send(fd, buf, h->nlmsg_len, 0);
}

static void print_bytes(const unsigned char *d, int len)
{
	unsigned sum = 0;

	for (int i = 0; i < len; i++)
		sum = sum * 31 + d[i];
	printf(" sum %#x:", sum);
	for (int i = 0; i < len && i < 16; i++)
		printf(" %02x", d[i]);
	printf("%s\n", len > 16 ? " ..." : "");
}

/* IFLA_AF_SPEC's families and their attributes (family 0), or those of
 * one family. */
static void nested(int family, struct rtattr *outer)
{
	int len = RTA_PAYLOAD(outer);

	for (struct rtattr *a = RTA_DATA(outer); RTA_OK(a, len); a = RTA_NEXT(a, len)) {
		if (!family) {
			printf("     family %d len %d\n", a->rta_type, RTA_PAYLOAD(a));
			nested(a->rta_type, a);
			continue;
		}
		printf("      attr %d len %d", a->rta_type, RTA_PAYLOAD(a));
		if (family == AF_INET6 && a->rta_type == IFLA_INET6_CACHEINFO) {
			unsigned ci[4];

			memcpy(ci, RTA_DATA(a), sizeof(ci));
			printf(": max_reasm_len %u retrans_time %u\n", ci[0], ci[3]);
			continue;
		}
		print_bytes(RTA_DATA(a), RTA_PAYLOAD(a));
	}
}

static void print_attr(int msgtype, struct rtattr *a)
{
	int type = a->rta_type & NLA_TYPE_MASK, len = RTA_PAYLOAD(a);
	unsigned char *d = RTA_DATA(a);
	char s[64];

	if (msgtype == RTM_NEWLINK && (type == IFLA_AF_SPEC || type == IFLA_PROTINFO)) {
		/* per family (AF_SPEC) or IPv6's alone (PROTINFO): the
		 * settings, but for IPv6's times (a random reachable time) */
		printf("    attr %d len %d\n", type, len);
		nested(type == IFLA_PROTINFO ? AF_INET6 : 0, a);
		return;
	}
	if (msgtype == RTM_NEWROUTE && type == RTA_CACHEINFO) {
		printf("    attr %d len %d\n", type, len); /* use counts */
		return;
	}
	if ((msgtype == RTM_NEWADDR && type == IFA_CACHEINFO)) {
		struct ifa_cacheinfo ci;

		memcpy(&ci, d, sizeof(ci));
		printf("    attr %d: prefered %u valid %u\n", type, ci.ifa_prefered, ci.ifa_valid);
		return;
	}
	printf("    attr %d%s len %d:", type, a->rta_type & NLA_F_NESTED ? " nested" : "", len);
	if ((msgtype == RTM_NEWLINK && (type == IFLA_IFNAME || type == IFLA_QDISC)) ||
	    (msgtype == RTM_NEWADDR && type == IFA_LABEL)) {
		printf(" \"%s\"\n", (char *)d);
		return;
	}
	if ((msgtype == RTM_NEWADDR && (type == IFA_ADDRESS || type == IFA_LOCAL)) ||
	    (msgtype == RTM_NEWROUTE && (type == RTA_DST || type == RTA_PREFSRC))) {
		inet_ntop(len == 4 ? AF_INET : AF_INET6, d, s, sizeof(s));
		printf(" %s\n", s);
		return;
	}
	for (int i = 0; i < len && i < 40; i++)
		printf(" %02x", d[i]);
	printf("%s\n", len > 40 ? " ..." : "");
}

static void print_msg(struct nlmsghdr *h)
{
	int hl = 0;

	printf("  type %d flags %#x seq %s pid %s", h->nlmsg_type, h->nlmsg_flags,
	       h->nlmsg_seq == seq ? "=" : "!", h->nlmsg_pid == 0 ? "0" : "port");
	if (h->nlmsg_type == NLMSG_DONE || h->nlmsg_type == NLMSG_ERROR) {
		int err;

		memcpy(&err, NLMSG_DATA(h), sizeof(err));
		printf(" len %u error %d", h->nlmsg_len, err);
		if (h->nlmsg_type == NLMSG_ERROR && h->nlmsg_len >= NLMSG_LENGTH(4 + 16)) {
			struct nlmsghdr e;

			memcpy(&e, (char *)NLMSG_DATA(h) + 4, sizeof(e));
			printf(" (echo: len %u type %d)", e.nlmsg_len, e.nlmsg_type);
		}
		printf("\n");
		return;
	}
	if (h->nlmsg_type == RTM_NEWLINK) {
		struct ifinfomsg *i = NLMSG_DATA(h);

		printf(" link family %d type %d index %d flags %#x change %#x\n", i->ifi_family,
		       i->ifi_type, i->ifi_index, i->ifi_flags, i->ifi_change);
		hl = sizeof(*i);
	} else if (h->nlmsg_type == RTM_NEWADDR) {
		struct ifaddrmsg *a = NLMSG_DATA(h);

		printf(" addr family %d prefixlen %d flags %#x scope %d index %d\n", a->ifa_family,
		       a->ifa_prefixlen, a->ifa_flags, a->ifa_scope, a->ifa_index);
		hl = sizeof(*a);
	} else if (h->nlmsg_type == RTM_NEWROUTE) {
		struct rtmsg *r = NLMSG_DATA(h);

		printf(" route family %d dst_len %d src_len %d tos %d table %d protocol %d scope "
		       "%d "
		       "type %d flags %#x\n",
		       r->rtm_family, r->rtm_dst_len, r->rtm_src_len, r->rtm_tos, r->rtm_table,
		       r->rtm_protocol, r->rtm_scope, r->rtm_type, r->rtm_flags);
		hl = sizeof(*r);
	} else if (h->nlmsg_type == RTM_NEWRULE) {
		unsigned char *r = NLMSG_DATA(h);

		printf(" rule family %d dst_len %d src_len %d tos %d table %d action %d\n", r[0],
		       r[1], r[2], r[3], r[4], r[7]);
		hl = 12;
	} else {
		printf(" len %u\n", h->nlmsg_len);
		return;
	}
	int alen = h->nlmsg_len - NLMSG_LENGTH(hl);

	for (struct rtattr *a = (struct rtattr *)((char *)NLMSG_DATA(h) + NLMSG_ALIGN(hl));
	     RTA_OK(a, alen); a = RTA_NEXT(a, alen))
		print_attr(h->nlmsg_type, a);
}

/* Reads and prints every datagram queued (a datagram per line group). */
static int drain(int fd, const char *what)
{
	static char buf[65536];
	int datagrams = 0;

	printf("%s:\n", what);
	for (;;) {
		struct sockaddr_nl from;
		socklen_t fl = sizeof(from);
		long n =
			recvfrom(fd, buf, sizeof(buf), MSG_DONTWAIT, (struct sockaddr *)&from, &fl);

		if (n < 0) {
			if (errno != EAGAIN)
				printf(" recv: %s\n", ename(errno));
			break;
		}
		datagrams++;
		printf(" datagram from family %d pid %u groups %u namelen %d\n", from.nl_family,
		       from.nl_pid, from.nl_groups, (int)fl);
		for (struct nlmsghdr *h = (struct nlmsghdr *)buf; NLMSG_OK(h, n);
		     h = NLMSG_NEXT(h, n))
			print_msg(h);
	}
	if (!datagrams)
		printf(" nothing\n");
	return datagrams;
}

static void sockets(void)
{
	static const int protos[] = { 1, 3, 13, 17, 31, 32, -1 };
	int fd;

	for (unsigned i = 0; i < sizeof(protos) / sizeof(protos[0]); i++) {
		errno = 0;
		fd = socket(AF_NETLINK, SOCK_RAW, protos[i]);
		printf("protocol %d: %s\n", protos[i], fd < 0 ? ename(errno) : "ok");
		if (fd >= 0)
			close(fd);
	}
	for (int type = 1; type <= 10; type++) {
		errno = 0;
		fd = socket(AF_NETLINK, type, NETLINK_ROUTE);
		printf("type %d: %s\n", type, fd < 0 ? ename(errno) : "ok");
		if (fd >= 0)
			close(fd);
	}
}

static void binding(void)
{
	struct sockaddr_nl a = { .nl_family = AF_NETLINK }, got;
	socklen_t len = sizeof(got);
	int s1 = nl(SOCK_RAW), s2 = nl(SOCK_DGRAM), s3 = nl(SOCK_RAW), s4 = nl(SOCK_RAW);
	int dom = 0, type = 0, proto = -1;

	getsockname(s1, (struct sockaddr *)&got, &len);
	printf("unbound: family %d pid %u groups %u len %d\n", got.nl_family, got.nl_pid,
	       got.nl_groups, (int)len);
	len = sizeof(dom);
	getsockopt(s1, SOL_SOCKET, SO_DOMAIN, &dom, &len);
	getsockopt(s1, SOL_SOCKET, SO_TYPE, &type, &len);
	getsockopt(s1, SOL_SOCKET, SO_PROTOCOL, &proto, &len);
	printf("domain %d type %d protocol %d\n", dom, type, proto);
	check(bind(s1, (struct sockaddr *)&a, sizeof(a)) == 0, "bind 0");
	len = sizeof(got);
	getsockname(s1, (struct sockaddr *)&got, &len);
	check(got.nl_pid == (unsigned)getpid(), "the first port is the pid");
	errno = 0;
	check(bind(s1, (struct sockaddr *)&a, sizeof(a)) < 0 && errno == EINVAL,
	      "bind 0 once bound: EINVAL (not the same port)");
	a.nl_pid = getpid() + 1;
	errno = 0;
	check(bind(s1, (struct sockaddr *)&a, sizeof(a)) < 0 && errno == EINVAL,
	      "another port once bound: EINVAL");
	a.nl_pid = 0;
	check(bind(s2, (struct sockaddr *)&a, sizeof(a)) == 0, "bind 0 (a second socket)");
	len = sizeof(got);
	getsockname(s2, (struct sockaddr *)&got, &len);
	check((int)got.nl_pid < 0, "the second port is negative");
	a.nl_pid = got.nl_pid;
	errno = 0;
	check(bind(s3, (struct sockaddr *)&a, sizeof(a)) < 0 && errno == EADDRINUSE,
	      "a port taken: EADDRINUSE");
	a.nl_pid = 0;
	errno = 0;
	check(bind(s3, (struct sockaddr *)&a, sizeof(a) - 1) < 0 && errno == EINVAL,
	      "short address: EINVAL");
	a.nl_family = AF_INET;
	errno = 0;
	check(bind(s3, (struct sockaddr *)&a, sizeof(a)) < 0 && errno == EINVAL,
	      "wrong family: EINVAL");
	a.nl_family = AF_NETLINK;
	a.nl_pid = 0x7eadbeef;
	a.nl_groups = RTMGRP_LINK | RTMGRP_IPV4_IFADDR;
	check(bind(s3, (struct sockaddr *)&a, sizeof(a)) == 0, "bind a chosen port and groups");
	len = sizeof(got);
	getsockname(s3, (struct sockaddr *)&got, &len);
	printf("chosen: pid %#x groups %#x\n", got.nl_pid, got.nl_groups);
	len = sizeof(got);
	memset(&got, 0xff, sizeof(got));
	check(getpeername(s3, (struct sockaddr *)&got, &len) == 0, "getpeername unconnected");
	printf("peer: family %d pid %u groups %u\n", got.nl_family, got.nl_pid, got.nl_groups);
	/* the kernel's reply comes to an unbound socket's automatic port */
	check(req(s4, RTM_GETLINK, NLM_F_REQUEST, &(struct ifinfomsg){ .ifi_index = 1 },
		  sizeof(struct ifinfomsg)) == NLMSG_LENGTH(sizeof(struct ifinfomsg)),
	      "send autobinds");
	len = sizeof(got);
	getsockname(s4, (struct sockaddr *)&got, &len);
	check(got.nl_pid != 0, "autobound");
	close(s1);
	close(s2);
	close(s3);
	close(s4);
}

static void dumps(void)
{
	int fd = nl(SOCK_RAW), dg = nl(SOCK_DGRAM);
	struct rtgenmsg g = { AF_UNSPEC };
	struct ifaddrmsg ifa = { 0 };
	struct rtmsg rtm = { 0 };

	req(fd, RTM_GETLINK, NLM_F_REQUEST | NLM_F_DUMP, &g, sizeof(g));
	drain(fd, "link dump (rtgenmsg)");
	req(dg, RTM_GETLINK, NLM_F_REQUEST | NLM_F_DUMP, &(struct ifinfomsg){ 0 },
	    sizeof(struct ifinfomsg));
	drain(dg, "link dump (SOCK_DGRAM, ifinfomsg)");
	req(fd, RTM_GETLINK, NLM_F_REQUEST | NLM_F_DUMP,
	    &(struct ifinfomsg){ .ifi_family = AF_INET6 }, sizeof(struct ifinfomsg));
	drain(fd, "link dump AF_INET6");
	{
		struct {
			struct ifinfomsg i;
			struct rtattr a;
			unsigned mask;
		} skip = { { 0 }, { RTA_LENGTH(4), IFLA_EXT_MASK }, RTEXT_FILTER_SKIP_STATS };

		req(fd, RTM_GETLINK, NLM_F_REQUEST | NLM_F_DUMP, &skip, sizeof(skip));
		drain(fd, "link dump, RTEXT_FILTER_SKIP_STATS");
	}
	req(fd, RTM_GETADDR, NLM_F_REQUEST | NLM_F_DUMP, &g, sizeof(g));
	drain(fd, "addr dump AF_UNSPEC");
	ifa.ifa_family = AF_INET;
	req(fd, RTM_GETADDR, NLM_F_REQUEST | NLM_F_DUMP, &ifa, sizeof(ifa));
	drain(fd, "addr dump AF_INET");
	ifa.ifa_family = AF_INET6;
	req(fd, RTM_GETADDR, NLM_F_REQUEST | NLM_F_DUMP, &ifa, sizeof(ifa));
	drain(fd, "addr dump AF_INET6");
	req(fd, RTM_GETROUTE, NLM_F_REQUEST | NLM_F_DUMP, &rtm, sizeof(rtm));
	drain(fd, "route dump AF_UNSPEC");
	rtm.rtm_family = AF_INET;
	rtm.rtm_table = RT_TABLE_MAIN; /* ignored without strict checks */
	req(fd, RTM_GETROUTE, NLM_F_REQUEST | NLM_F_DUMP, &rtm, sizeof(rtm));
	drain(fd, "route dump AF_INET");
	rtm.rtm_family = AF_INET;
	rtm.rtm_flags = RTM_F_CLONED;
	req(fd, RTM_GETROUTE, NLM_F_REQUEST | NLM_F_DUMP, &rtm, sizeof(rtm));
	drain(fd, "route dump AF_INET, cloned");
	req(fd, RTM_GETNEIGH, NLM_F_REQUEST | NLM_F_DUMP, &g, sizeof(g));
	drain(fd, "neighbour dump");
	for (int f = 0; f < 3; f++) {
		unsigned char frh[12] = { f == 0 ? AF_UNSPEC : f == 1 ? AF_INET : AF_INET6 };

		req(fd, RTM_GETRULE, NLM_F_REQUEST | NLM_F_DUMP, frh, sizeof(frh));
		drain(fd, "rule dump");
	}
	close(fd);
	close(dg);
}

static void gets(void)
{
	int fd = nl(SOCK_RAW), one = 1;
	struct {
		struct ifinfomsg i;
		struct rtattr a;
		char name[20];
	} byname = { { 0 }, { RTA_LENGTH(3), IFLA_IFNAME }, "lo" };
	struct ifinfomsg ifi = { .ifi_index = 1 };

	req(fd, RTM_GETLINK, NLM_F_REQUEST, &ifi, sizeof(ifi));
	drain(fd, "getlink index 1");
	req(fd, RTM_GETLINK, NLM_F_REQUEST | NLM_F_ACK, &byname, NLMSG_ALIGN(sizeof(ifi)) + 8);
	drain(fd, "getlink name lo, with ack");
	strcpy(byname.name, "nope");
	byname.a.rta_len = RTA_LENGTH(5);
	req(fd, RTM_GETLINK, NLM_F_REQUEST, &byname, NLMSG_ALIGN(sizeof(ifi)) + 12);
	drain(fd, "getlink name nope");
	strcpy(byname.name, "0123456789abcdefg");
	byname.a.rta_len = RTA_LENGTH(18);
	req(fd, RTM_GETLINK, NLM_F_REQUEST, &byname, NLMSG_ALIGN(sizeof(ifi)) + 24);
	drain(fd, "getlink name too long");
	ifi.ifi_index = 7;
	req(fd, RTM_GETLINK, NLM_F_REQUEST, &ifi, sizeof(ifi));
	drain(fd, "getlink index 7");
	ifi.ifi_index = 0;
	req(fd, RTM_GETLINK, NLM_F_REQUEST, &ifi, sizeof(ifi));
	drain(fd, "getlink no index or name");
	req(fd, RTM_GETLINK, NLM_F_REQUEST, &ifi, 1);
	drain(fd, "getlink short ifinfomsg");
	setsockopt(fd, SOL_NETLINK_, NETLINK_CAP_ACK, &one, sizeof(one));
	ifi.ifi_index = 7;
	req(fd, RTM_GETLINK, NLM_F_REQUEST, &ifi, sizeof(ifi));
	drain(fd, "getlink index 7, NETLINK_CAP_ACK");
	close(fd);
}

/* RTM_GETROUTE of one destination: local ones route to lo, others are
 * unreachable. */
static void route_get(void)
{
	int fd = nl(SOCK_RAW);
	struct {
		struct rtmsg r;
		struct rtattr a;
		unsigned char addr[16];
		struct rtattr sa;
		unsigned char src[16];
	} q;
	static const struct {
		int family;
		const char *dst, *src;
	} cases[] = {
		{ AF_INET, "127.0.0.1", NULL },
		{ AF_INET, "127.1.2.3", NULL },
		{ AF_INET, "8.8.8.8", NULL },
		{ AF_INET, "127.0.0.1", "127.0.0.2" },
		{ AF_INET, "127.0.0.1", "10.0.0.1" },
		{ AF_INET6, "::1", NULL },
		{ AF_INET6, "::2", NULL },
	};

	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int alen = cases[i].family == AF_INET ? 4 : 16;
		size_t len;

		memset(&q, 0, sizeof(q));
		q.r.rtm_family = cases[i].family;
		q.r.rtm_dst_len = alen * 8;
		q.a.rta_type = RTA_DST;
		q.a.rta_len = RTA_LENGTH(alen);
		inet_pton(cases[i].family, cases[i].dst, q.addr);
		len = sizeof(q.r) + RTA_ALIGN(q.a.rta_len);
		if (cases[i].src) {
			/* the source follows the destination's padded attribute */
			struct rtattr sa = { RTA_LENGTH(4), RTA_SRC };
			unsigned char *p = (unsigned char *)&q + len;

			q.r.rtm_src_len = 32;
			memcpy(p, &sa, sizeof(sa));
			inet_pton(AF_INET, cases[i].src, p + sizeof(sa));
			len += RTA_LENGTH(4);
		}
		req(fd, RTM_GETROUTE, NLM_F_REQUEST, &q, len);
		printf("route get %s from %s ", cases[i].dst, cases[i].src ? cases[i].src : "-");
		drain(fd, "");
	}
	close(fd);
}

static void strict(void)
{
	int fd = nl(SOCK_RAW), one = 1;
	struct ifinfomsg ifi = { .ifi_index = 3 };
	struct ifaddrmsg ifa = { .ifa_family = AF_INET, .ifa_prefixlen = 8 };
	struct rtmsg rtm = { .rtm_family = AF_INET, .rtm_table = RT_TABLE_MAIN };

	check(setsockopt(fd, SOL_NETLINK_, NETLINK_GET_STRICT_CHK, &one, sizeof(one)) == 0,
	      "NETLINK_GET_STRICT_CHK");
	req(fd, RTM_GETLINK, NLM_F_REQUEST | NLM_F_DUMP, &ifi, sizeof(ifi));
	drain(fd, "strict: link dump with an index");
	req(fd, RTM_GETLINK, NLM_F_REQUEST | NLM_F_DUMP, &ifi, 1);
	drain(fd, "strict: link dump with a short header");
	req(fd, RTM_GETADDR, NLM_F_REQUEST | NLM_F_DUMP, &ifa, sizeof(ifa));
	drain(fd, "strict: addr dump with a prefix length");
	ifa.ifa_prefixlen = 0;
	ifa.ifa_index = 2;
	req(fd, RTM_GETADDR, NLM_F_REQUEST | NLM_F_DUMP, &ifa, sizeof(ifa));
	drain(fd, "strict: addr dump of index 2");
	ifa.ifa_index = 1;
	ifa.ifa_family = AF_UNSPEC;
	req(fd, RTM_GETADDR, NLM_F_REQUEST | NLM_F_DUMP, &ifa, sizeof(ifa));
	drain(fd, "strict: addr dump of index 1");
	req(fd, RTM_GETROUTE, NLM_F_REQUEST | NLM_F_DUMP, &rtm, sizeof(rtm));
	drain(fd, "strict: route dump, table main");
	rtm.rtm_table = RT_TABLE_LOCAL;
	req(fd, RTM_GETROUTE, NLM_F_REQUEST | NLM_F_DUMP, &rtm, sizeof(rtm));
	drain(fd, "strict: route dump, table local");
	rtm.rtm_table = 0;
	rtm.rtm_family = AF_UNSPEC;
	req(fd, RTM_GETROUTE, NLM_F_REQUEST | NLM_F_DUMP, &rtm, sizeof(rtm));
	drain(fd, "strict: route dump, all");
	rtm.rtm_scope = RT_SCOPE_HOST;
	req(fd, RTM_GETROUTE, NLM_F_REQUEST | NLM_F_DUMP, &rtm, sizeof(rtm));
	drain(fd, "strict: route dump with a scope");
	rtm.rtm_scope = 0;
	rtm.rtm_flags = RTM_F_CLONED;
	req(fd, RTM_GETROUTE, NLM_F_REQUEST | NLM_F_DUMP, &rtm, sizeof(rtm));
	drain(fd, "strict: route dump, cloned");
	{
		unsigned char frh[12] = { AF_INET, 0, 0, 0, RT_TABLE_MAIN };

		req(fd, RTM_GETRULE, NLM_F_REQUEST | NLM_F_DUMP, frh, sizeof(frh));
		drain(fd, "strict: rule dump with a table");
	}
	close(fd);
}

static void malformed(void)
{
	int fd = nl(SOCK_RAW);
	struct nlmsghdr h = { 12, RTM_GETLINK, NLM_F_REQUEST, 1, 0 };
	char two[2 * NLMSG_LENGTH(sizeof(struct ifinfomsg))];
	struct nlmsghdr *t;

	check(send(fd, &h, sizeof(h), 0) == sizeof(h), "send a short nlmsg_len");
	drain(fd, "nlmsg_len 12");
	h.nlmsg_len = 100;
	send(fd, &h, sizeof(h), 0);
	drain(fd, "nlmsg_len past the datagram");
	send(fd, "abc", 3, 0);
	drain(fd, "3 bytes");
	errno = 0;
	check(send(fd, "", 0, 0) < 0 && errno == ENODATA, "an empty send: ENODATA");
	h.nlmsg_len = 16;
	h.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	h.nlmsg_seq = ++seq;
	send(fd, &h, sizeof(h), 0);
	drain(fd, "no body, with ack");
	h.nlmsg_type = NLMSG_NOOP;
	h.nlmsg_seq = ++seq;
	send(fd, &h, sizeof(h), 0);
	drain(fd, "NLMSG_NOOP with ack");
	h.nlmsg_type = RTM_GETLINK;
	h.nlmsg_flags = NLM_F_ACK; /* not a request */
	h.nlmsg_seq = ++seq;
	send(fd, &h, sizeof(h), 0);
	drain(fd, "not a request, with ack");
	req(fd, 200, NLM_F_REQUEST, "x", 1);
	drain(fd, "type 200");
	/* two requests in one datagram: each answered in turn */
	memset(two, 0, sizeof(two));
	t = (struct nlmsghdr *)two;
	*t = (struct nlmsghdr){ NLMSG_LENGTH(sizeof(struct ifinfomsg)), RTM_GETLINK, NLM_F_REQUEST,
				++seq, 0 };
	((struct ifinfomsg *)NLMSG_DATA(t))->ifi_index = 1;
	t = (struct nlmsghdr *)(two + NLMSG_LENGTH(sizeof(struct ifinfomsg)));
	*t = (struct nlmsghdr){ NLMSG_LENGTH(sizeof(struct ifinfomsg)), RTM_GETLINK,
				NLM_F_REQUEST | NLM_F_ACK, seq, 0 };
	((struct ifinfomsg *)NLMSG_DATA(t))->ifi_index = 9;
	send(fd, two, sizeof(two), 0);
	drain(fd, "two requests in a datagram");
	close(fd);
}

static void io(void)
{
	int fd = nl(SOCK_RAW), small = 1, got = 0;
	char buf[65536];
	struct pollfd p = { fd, POLLIN | POLLOUT, 0 };
	struct sockaddr_nl from;
	socklen_t fl = sizeof(from);
	struct msghdr mh = { 0 };
	struct iovec iov = { buf, 16 };
	struct {
		struct nlmsghdr h;
		struct ifinfomsg i;
	} r = { { sizeof(r), RTM_GETLINK, NLM_F_REQUEST, 1, 0 }, { .ifi_index = 1 } };
	long n, full;

	poll(&p, 1, 0);
	printf("poll before: %#x\n", p.revents);
	errno = 0;
	check(recv(fd, buf, sizeof(buf), MSG_DONTWAIT) < 0 && errno == EAGAIN, "empty: EAGAIN");
	check(write(fd, &r, sizeof(r)) == sizeof(r), "write a request");
	poll(&p, 1, 0);
	printf("poll after: %#x\n", p.revents);
	full = recv(fd, NULL, 0, MSG_PEEK | MSG_TRUNC);
	check(full > (long)sizeof(r), "MSG_PEEK|MSG_TRUNC: the size");
	n = recvfrom(fd, buf, sizeof(buf), MSG_PEEK, (struct sockaddr *)&from, &fl);
	check(n == full, "MSG_PEEK: the datagram");
	printf("from: family %d pid %u groups %u len %d\n", from.nl_family, from.nl_pid,
	       from.nl_groups, (int)fl);
	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	n = recvmsg(fd, &mh, 0);
	check(n == 16 && (mh.msg_flags & MSG_TRUNC), "a short read: MSG_TRUNC, the rest lost");
	errno = 0;
	check(recv(fd, buf, sizeof(buf), MSG_DONTWAIT) < 0 && errno == EAGAIN, "then empty");
	write(fd, &r, sizeof(r));
	n = recv(fd, buf, 16, MSG_TRUNC);
	check(n == full, "MSG_TRUNC: the full length");
	write(fd, &r, sizeof(r));
	n = read(fd, buf, sizeof(buf));
	check(n == full, "read");
	/* a receive buffer too small for the replies: ENOBUFS, then more */
	setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &small, sizeof(small));
	for (int i = 0; i < 20; i++)
		write(fd, &r, sizeof(r));
	for (int i = 0; i < 30; i++) {
		n = recv(fd, buf, sizeof(buf), MSG_DONTWAIT);
		if (n < 0 && errno == ENOBUFS)
			got++;
		if (n < 0 && errno == EAGAIN)
			break;
	}
	check(got == 1, "an overrun: ENOBUFS once");
	close(fd);
}

static void options(void)
{
	int fd = nl(SOCK_RAW), v = 1, out;
	socklen_t len;
	static const int opts[] = { NETLINK_BROADCAST_ERROR, NETLINK_NO_ENOBUFS,
				    NETLINK_LISTEN_ALL_NSID, NETLINK_CAP_ACK,
				    NETLINK_EXT_ACK,	     NETLINK_GET_STRICT_CHK };
	unsigned groups[4];

	for (unsigned i = 0; i < sizeof(opts) / sizeof(opts[0]); i++) {
		out = -1;
		len = sizeof(out);
		getsockopt(fd, SOL_NETLINK_, opts[i], &out, &len);
		printf("option %d: %d", opts[i], out);
		v = 1;
		setsockopt(fd, SOL_NETLINK_, opts[i], &v, sizeof(v));
		len = sizeof(out);
		getsockopt(fd, SOL_NETLINK_, opts[i], &out, &len);
		printf(" -> %d (len %d)\n", out, (int)len);
	}
	len = 2;
	errno = 0;
	printf("short getsockopt: %d %s\n",
	       getsockopt(fd, SOL_NETLINK_, NETLINK_EXT_ACK, &out, &len), ename(errno));
	errno = 0;
	printf("RX_RING: %d %s\n", setsockopt(fd, SOL_NETLINK_, NETLINK_RX_RING, &v, sizeof(v)),
	       ename(errno));
	errno = 0;
	printf("SOL_IP option: %d %s\n", setsockopt(fd, SOL_IP, IP_TTL, &v, sizeof(v)),
	       ename(errno));
	for (int g = 0; g <= 40; g += 8) {
		v = g ? g : 1;
		errno = 0;
		printf("join %d: %s\n", v,
		       setsockopt(fd, SOL_NETLINK_, NETLINK_ADD_MEMBERSHIP, &v, sizeof(v))
			       ? ename(errno)
			       : "ok");
	}
	v = 0;
	errno = 0;
	printf("join 0: %s\n", setsockopt(fd, SOL_NETLINK_, NETLINK_ADD_MEMBERSHIP, &v, sizeof(v))
				       ? ename(errno)
				       : "ok");
	v = 9;
	setsockopt(fd, SOL_NETLINK_, NETLINK_DROP_MEMBERSHIP, &v, sizeof(v));
	memset(groups, 0, sizeof(groups));
	len = sizeof(groups);
	getsockopt(fd, SOL_NETLINK_, NETLINK_LIST_MEMBERSHIPS, groups, &len);
	printf("memberships: %#x %#x (len %d)\n", groups[0], groups[1], (int)len);
	close(fd);
}

/* One socket to another, by port: the sender's port comes with it. */
static void peers(void)
{
	int a = nl(SOCK_RAW), b = nl(SOCK_RAW);
	struct sockaddr_nl an = { .nl_family = AF_NETLINK }, bn = an, from;
	socklen_t len = sizeof(an), fl = sizeof(from);
	char buf[64];
	long n;

	bind(a, (struct sockaddr *)&an, sizeof(an));
	getsockname(a, (struct sockaddr *)&an, &len);
	bind(b, (struct sockaddr *)&bn, sizeof(bn));
	len = sizeof(bn);
	getsockname(b, (struct sockaddr *)&bn, &len);
	check(sendto(b, "hello", 5, 0, (struct sockaddr *)&an, sizeof(an)) == 5, "send to a port");
	n = recvfrom(a, buf, sizeof(buf), MSG_DONTWAIT, (struct sockaddr *)&from, &fl);
	check(n == 5 && memcmp(buf, "hello", 5) == 0, "received");
	check(from.nl_pid == bn.nl_pid, "from the sender's port");
	an.nl_pid = 0x12345678;
	errno = 0;
	check(sendto(b, "x", 1, 0, (struct sockaddr *)&an, sizeof(an)) < 0 && errno == ECONNREFUSED,
	      "to a port nobody holds: ECONNREFUSED");
	close(a);
	close(b);
}

/* Changes need CAP_NET_ADMIN (EPERM without it, before anything else). */
static void unprivileged(void)
{
	pid_t pid = fork();
	int status;

	if (pid == 0) {
		int fd, err = -1;
		struct {
			struct nlmsghdr h;
			struct ifaddrmsg a;
			struct rtattr ra;
			unsigned char addr[4];
		} r = { { sizeof(r), RTM_NEWADDR, NLM_F_REQUEST | NLM_F_ACK | NLM_F_CREATE, 1, 0 },
			{ AF_INET, 8, 0, 0, 1 },
			{ RTA_LENGTH(4), IFA_LOCAL },
			{ 10, 9, 8, 7 } };
		char buf[256];

		if (setgid(65534) < 0 || setuid(65534) < 0)
			_exit(2);
		fd = socket(AF_NETLINK, SOCK_RAW, NETLINK_ROUTE);
		send(fd, &r, sizeof(r), 0);
		if (recv(fd, buf, sizeof(buf), 0) >= 20)
			memcpy(&err, buf + 16, sizeof(err));
		_exit(err == -EPERM ? 0 : 1);
	}
	waitpid(pid, &status, 0);
	check(WIFEXITED(status) && WEXITSTATUS(status) == 0, "RTM_NEWADDR as nobody: EPERM");
}

/* Random requests of the GET types (which change nothing, natively
 * either): every answer is well formed, and the socket still works. */
static void garbage(void)
{
	static const int types[] = { RTM_GETLINK, RTM_GETADDR, RTM_GETROUTE, RTM_GETNEIGH,
				     RTM_GETRULE };
	int fd = nl(SOCK_RAW), one = 1, bad = 0;
	unsigned seed = 12345;
	static char buf[65536];
	unsigned char msg[256];

	setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &(int){ 1 << 20 }, sizeof(int));
	for (int i = 0; i < 3000; i++) {
		struct nlmsghdr *h = (struct nlmsghdr *)msg;
		int len;

		if (i == 1500)
			setsockopt(fd, SOL_NETLINK_, NETLINK_GET_STRICT_CHK, &one, sizeof(one));
		for (unsigned j = 0; j < sizeof(msg); j++) {
			seed = seed * 1103515245 + 12345;
			msg[j] = (unsigned char)(seed >> 16);
		}
		len = 16 + (int)(seed % 200);
		h->nlmsg_len = (seed >> 8) % 4 ? (unsigned)len : (unsigned)(seed % 300);
		h->nlmsg_type = types[(seed >> 4) % 5];
		h->nlmsg_flags = (uint16_t)((seed >> 12) & 0x3ff) | NLM_F_REQUEST;
		/* the attributes (after a fixed part of 16 bytes at most) are
		 * short ones, of any length field */
		send(fd, msg, len, 0);
		for (;;) {
			long n = recv(fd, buf, sizeof(buf), MSG_DONTWAIT);

			if (n < 0)
				break;
			for (struct nlmsghdr *r = (struct nlmsghdr *)buf; n > 0;
			     r = NLMSG_NEXT(r, n))
				if (!NLMSG_OK(r, n)) {
					bad++;
					break;
				}
		}
	}
	check(bad == 0, "random requests: answers well formed");
	req(fd, RTM_GETLINK, NLM_F_REQUEST, &(struct ifinfomsg){ .ifi_index = 1 },
	    sizeof(struct ifinfomsg));
	check(recv(fd, buf, sizeof(buf), 0) > 0 &&
		      ((struct nlmsghdr *)buf)->nlmsg_type == RTM_NEWLINK,
	      "then a request answered");
	close(fd);
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	sockets();
	binding();
	dumps();
	gets();
	route_get();
	strict();
	malformed();
	io();
	options();
	peers();
	unprivileged();
	garbage();
	return 0;
}
