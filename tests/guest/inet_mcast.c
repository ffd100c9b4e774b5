/* skas-test: netns: lo */
/* IPv4 multicast on the loopback, as Linux gives it in a network
 * namespace with only lo up: a group is joined on lo by its address or
 * index (INADDR_ANY asks a multicast route there is none of: ENODEV), a
 * datagram to a group leaves only through IP_MULTICAST_IF (else
 * ENETUNREACH) and comes back in on lo, IP_MULTICAST_LOOP or not, to the
 * sockets of its port bound to 0.0.0.0 or to the group that joined it or
 * keep IP_MULTICAST_ALL; once nobody holds the group, to none. The
 * options' errnos (EPROTO on TCP, EINVAL, EADDRINUSE, EADDRNOTAVAIL,
 * ENOBUFS past 20 groups), IP_MULTICAST_IF's forms and the source address
 * and TTL a receiver sees. IPv6 groups are joined on lo alike, but
 * nothing is sent to one: lo has no IPv6 multicast route (ENETUNREACH,
 * even with IPV6_MULTICAST_IF). skas said ENOPROTOOPT to every one. */
#include "inet_util.h"

#define IP_MULTICAST_ALL_  49
#define MCAST_JOIN_GROUP_  42
#define MCAST_LEAVE_GROUP_ 45

static int udp_on(const char *ip, int port)
{
	struct sockaddr_in a = sin4(ip, port);
	int s = socket(AF_INET, SOCK_DGRAM, 0), one = 1;

	setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	bind(s, (struct sockaddr *)&a, sizeof(a));
	return s;
}

static int mreq(int s, int opt, const char *group, const char *iface)
{
	struct ip_mreq m;

	inet_pton(AF_INET, group, &m.imr_multiaddr);
	inet_pton(AF_INET, iface, &m.imr_interface);
	return setsockopt(s, IPPROTO_IP, opt, &m, sizeof(m));
}

static int mreqn(int s, int opt, const char *group, int ifindex)
{
	struct ip_mreqn m;

	memset(&m, 0, sizeof(m));
	inet_pton(AF_INET, group, &m.imr_multiaddr);
	m.imr_ifindex = ifindex;
	return setsockopt(s, IPPROTO_IP, opt, &m, sizeof(m));
}

static int set_if(int s, const char *ip)
{
	struct in_addr a;

	inet_pton(AF_INET, ip, &a);
	return setsockopt(s, IPPROTO_IP, IP_MULTICAST_IF, &a, sizeof(a));
}

static long send_to(int s, const char *ip, int port)
{
	struct sockaddr_in a = sin4(ip, port);

	return sendto(s, "m", 1, 0, (struct sockaddr *)&a, sizeof(a));
}

static void options(void)
{
	int t = socket(AF_INET, SOCK_STREAM, 0), u = socket(AF_INET, SOCK_DGRAM, 0), i, r, v;
	struct group_req gr;
	struct in_addr got;
	socklen_t len;

	check_err(mreq(t, IP_ADD_MEMBERSHIP, "224.1.1.1", "127.0.0.1"), EPROTO,
		  "TCP: IP_ADD_MEMBERSHIP EPROTO");
	check_err(set_if(t, "127.0.0.1"), EINVAL, "TCP: IP_MULTICAST_IF EINVAL");
	check_err(mreq(u, IP_ADD_MEMBERSHIP, "10.1.1.1", "127.0.0.1"), EINVAL,
		  "join a unicast address: EINVAL");
	check_err(setsockopt(u, IPPROTO_IP, IP_ADD_MEMBERSHIP, "\xe0\1\1\1", 4), EINVAL,
		  "join with 4 bytes: EINVAL");
	check_err(mreq(u, IP_ADD_MEMBERSHIP, "224.1.1.1", "0.0.0.0"), ENODEV,
		  "join on INADDR_ANY (no multicast route): ENODEV");
	check_err(mreq(u, IP_ADD_MEMBERSHIP, "224.1.1.1", "10.0.0.1"), ENODEV,
		  "join on an address not local: ENODEV");
	check_err(mreqn(u, IP_ADD_MEMBERSHIP, "224.1.1.1", 7), ENODEV, "join on ifindex 7: ENODEV");
	check(mreq(u, IP_ADD_MEMBERSHIP, "224.1.1.5", "127.0.0.5") == 0, "join on 127.0.0.5 (lo)");
	check(mreqn(u, IP_ADD_MEMBERSHIP, "224.1.1.1", 1) == 0, "join on ifindex 1 (lo)");
	check_err(mreqn(u, IP_ADD_MEMBERSHIP, "224.1.1.1", 1), EADDRINUSE, "again: EADDRINUSE");
	check_err(mreq(u, IP_ADD_MEMBERSHIP, "224.1.1.1", "127.0.0.1"), EADDRINUSE,
		  "again through 127.0.0.1: EADDRINUSE");
	check_err(mreq(u, IP_DROP_MEMBERSHIP, "224.9.9.9", "127.0.0.1"), EADDRNOTAVAIL,
		  "leave a group not joined: EADDRNOTAVAIL");
	check_err(mreq(u, IP_DROP_MEMBERSHIP, "224.1.1.1", "0.0.0.0"), ENODEV,
		  "leave on INADDR_ANY: ENODEV");
	check(mreq(u, IP_DROP_MEMBERSHIP, "224.1.1.1", "127.0.0.1") == 0, "leave");
	check_err(mreq(u, IP_DROP_MEMBERSHIP, "224.1.1.1", "127.0.0.1"), EADDRNOTAVAIL,
		  "leave again: EADDRNOTAVAIL");
	len = 8;
	check_err(getsockopt(u, IPPROTO_IP, IP_ADD_MEMBERSHIP, &got, &len), ENOPROTOOPT,
		  "getsockopt IP_ADD_MEMBERSHIP: ENOPROTOOPT");
	for (i = 0, r = 0; i < 25 && r == 0; i++) {
		char g[32];

		snprintf(g, sizeof(g), "225.0.0.%d", i);
		r = mreq(u, IP_ADD_MEMBERSHIP, g, "127.0.0.1");
	}
	check(r < 0 && errno == ENOBUFS && i == 20, "the 20th group more: ENOBUFS");
	memset(&gr, 0, sizeof(gr));
	gr.gr_interface = 1;
	((struct sockaddr_in *)&gr.gr_group)->sin_family = AF_INET;
	inet_pton(AF_INET, "226.1.1.1", &((struct sockaddr_in *)&gr.gr_group)->sin_addr);
	check_err(setsockopt(u, IPPROTO_IP, MCAST_JOIN_GROUP_, &gr, sizeof(gr)), ENOBUFS,
		  "MCAST_JOIN_GROUP past the 20: ENOBUFS");
	check_err(setsockopt(u, IPPROTO_IP, MCAST_JOIN_GROUP_, &gr, 100), EINVAL,
		  "MCAST_JOIN_GROUP short: EINVAL");
	close(u);
	u = socket(AF_INET, SOCK_DGRAM, 0);
	check(setsockopt(u, IPPROTO_IP, MCAST_JOIN_GROUP_, &gr, sizeof(gr)) == 0,
	      "MCAST_JOIN_GROUP on a new socket");
	check(setsockopt(u, IPPROTO_IP, MCAST_LEAVE_GROUP_, &gr, sizeof(gr)) == 0,
	      "MCAST_LEAVE_GROUP");
	check(setsockopt(t, IPPROTO_IP, MCAST_JOIN_GROUP_, &gr, sizeof(gr)) == 0,
	      "MCAST_JOIN_GROUP takes a TCP socket");

	check_err(set_if(u, "10.0.0.1"), EADDRNOTAVAIL, "IP_MULTICAST_IF 10.0.0.1: EADDRNOTAVAIL");
	check_err(setsockopt(u, IPPROTO_IP, IP_MULTICAST_IF, "\x7f", 2), EINVAL,
		  "IP_MULTICAST_IF of 2 bytes: EINVAL");
	check(set_if(u, "127.0.0.9") == 0, "IP_MULTICAST_IF 127.0.0.9");
	len = sizeof(got);
	check(getsockopt(u, IPPROTO_IP, IP_MULTICAST_IF, &got, &len) == 0 && len == 4 &&
		      got.s_addr == htonl(0x7f000009),
	      "reads back as 127.0.0.9");
	check(mreqn(u, IP_MULTICAST_IF, "0.0.0.0", 1) == 0, "IP_MULTICAST_IF by ifindex 1");
	len = sizeof(got);
	check(getsockopt(u, IPPROTO_IP, IP_MULTICAST_IF, &got, &len) == 0 && got.s_addr == 0,
	      "reads back as 0.0.0.0");
	check_err(mreqn(u, IP_MULTICAST_IF, "0.0.0.0", 9), EADDRNOTAVAIL,
		  "IP_MULTICAST_IF ifindex 9: EADDRNOTAVAIL");
	check(set_if(u, "0.0.0.0") == 0, "IP_MULTICAST_IF INADDR_ANY: none");
	check(getint(u, IPPROTO_IP, IP_MULTICAST_ALL_) == 1, "IP_MULTICAST_ALL: 1");
	v = 5;
	check_err(setsockopt(u, IPPROTO_IP, IP_MULTICAST_ALL_, &v, sizeof(v)), EINVAL,
		  "IP_MULTICAST_ALL 5: EINVAL");
	close(u);
	close(t);
}

static void delivery(void)
{
	int a = udp_on("0.0.0.0", 0), port = port_of(a);
	int b = udp_on("0.0.0.0", port), c = udp_on("224.2.2.2", port),
	    d = udp_on("127.0.0.1", port);
	int e = udp_on("0.0.0.0", port), s = socket(AF_INET, SOCK_DGRAM, 0), off = 0, one = 1;
	struct sockaddr_in from;
	socklen_t fl = sizeof(from);
	char buf[8], cbuf[64];
	struct iovec iov = { buf, sizeof(buf) };
	struct msghdr mh = { .msg_iov = &iov,
			     .msg_iovlen = 1,
			     .msg_control = cbuf,
			     .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *cm;
	int ttl = -1;

	check_err(send_to(s, "224.2.2.2", port), ENETUNREACH,
		  "to a group without IP_MULTICAST_IF: ENETUNREACH");
	check(set_if(s, "127.0.0.1") == 0, "IP_MULTICAST_IF 127.0.0.1");
	check(send_to(s, "224.2.2.2", port) == 1, "sent to a group nobody joined");
	check(dgrams_pending(a) + dgrams_pending(b) + dgrams_pending(c) + dgrams_pending(d) +
			      dgrams_pending(e) ==
		      0,
	      "none has it");
	check(mreq(a, IP_ADD_MEMBERSHIP, "224.2.2.2", "127.0.0.1") == 0, "a joins");
	check(setsockopt(e, IPPROTO_IP, IP_MULTICAST_ALL_, &off, sizeof(off)) == 0,
	      "e turns IP_MULTICAST_ALL off");
	check(send_to(s, "224.2.2.2", port) == 1, "sent again");
	check(dgrams_pending(a) == 1 && dgrams_pending(b) == 1 && dgrams_pending(c) == 1,
	      "a (joined), b (IP_MULTICAST_ALL) and c (bound to the group) have it");
	check(dgrams_pending(d) == 0, "not one bound to 127.0.0.1");
	check(dgrams_pending(e) == 0, "not one without IP_MULTICAST_ALL that did not join");
	check(setsockopt(s, IPPROTO_IP, IP_MULTICAST_LOOP, &off, sizeof(off)) == 0 &&
		      send_to(s, "224.2.2.2", port) == 1 && dgrams_pending(a) == 1,
	      "IP_MULTICAST_LOOP 0: lo still takes it back");
	dgrams_pending(b);
	dgrams_pending(c);
	check(send_to(s, "224.3.3.3", port) == 1 && dgrams_pending(a) == 0 &&
		      dgrams_pending(b) == 0,
	      "another group: nobody");
	ttl = 3;
	setsockopt(s, IPPROTO_IP, IP_MULTICAST_TTL, &ttl, sizeof(ttl));
	setsockopt(a, IPPROTO_IP, IP_RECVTTL, &one, sizeof(one));
	send_to(s, "224.2.2.2", port);
	usleep(20000);
	ttl = -1;
	if (recvmsg(a, &mh, MSG_DONTWAIT) == 1)
		for (cm = CMSG_FIRSTHDR(&mh); cm; cm = CMSG_NXTHDR(&mh, cm))
			if (cm->cmsg_level == IPPROTO_IP && cm->cmsg_type == IP_TTL)
				memcpy(&ttl, CMSG_DATA(cm), sizeof(ttl));
	check(ttl == 3, "the receiver sees IP_MULTICAST_TTL's 3");
	dgrams_pending(b);
	dgrams_pending(c);
	check(set_if(s, "127.0.0.7") == 0 && send_to(s, "224.2.2.2", port) == 1 &&
		      (usleep(20000), recvfrom(b, buf, sizeof(buf), MSG_DONTWAIT,
					       (struct sockaddr *)&from, &fl)) == 1 &&
		      from.sin_addr.s_addr == htonl(0x7f000007),
	      "the source is IP_MULTICAST_IF's address");
	dgrams_pending(a);
	dgrams_pending(c);
	check(mreq(a, IP_DROP_MEMBERSHIP, "224.2.2.2", "127.0.0.1") == 0, "a leaves");
	check(send_to(s, "224.2.2.2", port) == 1 &&
		      dgrams_pending(a) + dgrams_pending(b) + dgrams_pending(c) == 0,
	      "nobody holds the group: nobody has it");
	check(mreq(e, IP_ADD_MEMBERSHIP, "224.2.2.2", "127.0.0.1") == 0, "e joins");
	close(e);
	check(send_to(s, "224.2.2.2", port) == 1 && dgrams_pending(a) + dgrams_pending(b) == 0,
	      "its close leaves the group");
	check(mreq(b, IP_ADD_MEMBERSHIP, "224.2.2.2", "127.0.0.1") == 0, "b joins");
	check(connect(s,
		      (struct sockaddr *)&(struct sockaddr_in){
			      AF_INET, htons(port), { htonl(0xe0020202) } },
		      sizeof(struct sockaddr_in)) == 0 &&
		      send(s, "c", 1, 0) == 1 && dgrams_pending(b) == 1,
	      "connect to the group, send");
	close(a);
	close(b);
	close(c);
	close(d);
	close(s);
}

static int mreq6(int s, int opt, const char *group, int ifindex)
{
	struct ipv6_mreq m;

	inet_pton(AF_INET6, group, &m.ipv6mr_multiaddr);
	m.ipv6mr_interface = (unsigned)ifindex;
	return setsockopt(s, IPPROTO_IPV6, opt, &m, sizeof(m));
}

static void ipv6(void)
{
	int t = socket(AF_INET6, SOCK_STREAM, 0), u = socket(AF_INET6, SOCK_DGRAM, 0), v;
	struct sockaddr_in6 a = sin6("::", 0), g;
	struct group_req gr;

	bind(u, (struct sockaddr *)&a, sizeof(a));
	check_err(mreq6(t, IPV6_ADD_MEMBERSHIP, "ff02::1:3", 1), EPROTO,
		  "TCP: IPV6_ADD_MEMBERSHIP EPROTO");
	v = 1;
	check_err(setsockopt(t, IPPROTO_IPV6, IPV6_MULTICAST_IF, &v, sizeof(v)), ENOPROTOOPT,
		  "TCP: IPV6_MULTICAST_IF ENOPROTOOPT");
	check_err(mreq6(u, IPV6_ADD_MEMBERSHIP, "ff02::1:3", 0), ENODEV,
		  "join on ifindex 0 (no route): ENODEV");
	check(mreq6(u, IPV6_ADD_MEMBERSHIP, "ff02::1:3", 1) == 0, "join on lo");
	check_err(mreq6(u, IPV6_ADD_MEMBERSHIP, "ff02::1:3", 1), EADDRINUSE, "again: EADDRINUSE");
	check_err(mreq6(u, IPV6_ADD_MEMBERSHIP, "ff02::1:3", 0), EADDRINUSE,
		  "again on ifindex 0: EADDRINUSE");
	check_err(mreq6(u, IPV6_ADD_MEMBERSHIP, "ff02::1:4", 7), ENODEV, "on ifindex 7: ENODEV");
	check_err(mreq6(u, IPV6_ADD_MEMBERSHIP, "::1", 1), EINVAL, "a unicast address: EINVAL");
	check_err(mreq6(u, IPV6_ADD_MEMBERSHIP, "::ffff:224.1.1.1", 1), EINVAL,
		  "a v4-mapped group: EINVAL");
	check_err(setsockopt(u, IPPROTO_IPV6, IPV6_ADD_MEMBERSHIP, &a.sin6_addr, 16), EINVAL,
		  "16 bytes: EINVAL");
	v = 9;
	check_err(setsockopt(u, IPPROTO_IPV6, IPV6_MULTICAST_IF, &v, sizeof(v)), ENODEV,
		  "IPV6_MULTICAST_IF 9: ENODEV");
	v = 1;
	check(setsockopt(u, IPPROTO_IPV6, IPV6_MULTICAST_IF, &v, sizeof(v)) == 0 &&
		      getint(u, IPPROTO_IPV6, IPV6_MULTICAST_IF) == 1,
	      "IPV6_MULTICAST_IF 1");
	g = sin6("ff02::1:3", port_of(u));
	check_err(sendto(u, "x", 1, 0, (struct sockaddr *)&g, sizeof(g)), ENETUNREACH,
		  "to the group: ENETUNREACH (no IPv6 multicast route on lo)");
	check(getint(u, IPPROTO_IPV6, 29 /* IPV6_MULTICAST_ALL */) == 1, "IPV6_MULTICAST_ALL 1");
	memset(&gr, 0, sizeof(gr));
	gr.gr_interface = 1;
	((struct sockaddr_in6 *)&gr.gr_group)->sin6_family = AF_INET6;
	inet_pton(AF_INET6, "ff02::1:9", &((struct sockaddr_in6 *)&gr.gr_group)->sin6_addr);
	check(setsockopt(u, IPPROTO_IPV6, MCAST_JOIN_GROUP_, &gr, sizeof(gr)) == 0,
	      "MCAST_JOIN_GROUP of an IPv6 group");
	check_err(setsockopt(u, IPPROTO_IPV6, MCAST_JOIN_GROUP_, &gr, sizeof(gr)), EADDRINUSE,
		  "again: EADDRINUSE");
	check(setsockopt(u, IPPROTO_IPV6, MCAST_LEAVE_GROUP_, &gr, sizeof(gr)) == 0,
	      "MCAST_LEAVE_GROUP");
	((struct sockaddr_in6 *)&gr.gr_group)->sin6_family = AF_INET;
	check_err(setsockopt(u, IPPROTO_IPV6, MCAST_JOIN_GROUP_, &gr, sizeof(gr)), EADDRNOTAVAIL,
		  "an AF_INET group at IPPROTO_IPV6: EADDRNOTAVAIL");
	check(mreq(u, IP_ADD_MEMBERSHIP, "224.1.1.1", "127.0.0.1") == 0,
	      "an IPv4 group on an AF_INET6 socket");
	check(mreq6(u, IPV6_DROP_MEMBERSHIP, "ff02::1:3", 1) == 0, "leave");
	check_err(mreq6(u, IPV6_DROP_MEMBERSHIP, "ff02::1:3", 1), EADDRNOTAVAIL,
		  "leave again: EADDRNOTAVAIL");
	close(t);
	close(u);
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	options();
	delivery();
	ipv6();
	return 0;
}
