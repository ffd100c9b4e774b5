/* skas-test: netns: lo */
/* IP_PKTINFO and IPV6_RECVPKTINFO on UDP: the control message a datagram
 * brings (the interface, lo; the address it was sent to; IPv4's
 * ipi_spec_dst, the address a reply comes from), before IP_TTL's and
 * IPV6_HOPLIMIT's; an AF_INET6 socket's IPv4 datagram as IPV6_PKTINFO
 * with a mapped address, and IPv4's own when it asked for that too; and
 * IP_PKTINFO/IPV6_PKTINFO in sendmsg choosing the source address, with
 * Linux's errnos. Raw ICMP sockets report them too: a request to
 * 127.0.0.4 and its reply to 127.0.0.1, an ICMPv6 one to ::1. */
#include "inet_util.h"

#include <stdint.h>

static int bound(int fam, const char *ip)
{
	int s = socket(fam, SOCK_DGRAM, 0);

	if (fam == AF_INET) {
		struct sockaddr_in a = sin4(ip, 0);
		bind(s, (struct sockaddr *)&a, sizeof(a));
	} else {
		struct sockaddr_in6 a = sin6(ip, 0);
		bind(s, (struct sockaddr *)&a, sizeof(a));
	}
	return s;
}

/* Receives one datagram and prints its control messages and source. */
static void show(int fd, const char *what)
{
	char buf[64], ctl[256], ip[64], ip2[64];
	struct sockaddr_storage from;
	struct iovec iov = { buf, sizeof(buf) };
	struct msghdr mh = { .msg_name = &from,
			     .msg_namelen = sizeof(from),
			     .msg_iov = &iov,
			     .msg_iovlen = 1,
			     .msg_control = ctl,
			     .msg_controllen = sizeof(ctl) };
	struct cmsghdr *cm;
	long r;

	usleep(10000);
	r = recvmsg(fd, &mh, MSG_DONTWAIT);
	if (r < 0) {
		printf("%s: %s\n", what, ename(errno));
		return;
	}
	if (from.ss_family == AF_INET)
		inet_ntop(AF_INET, &((struct sockaddr_in *)&from)->sin_addr, ip, 64);
	else
		inet_ntop(AF_INET6, &((struct sockaddr_in6 *)&from)->sin6_addr, ip, 64);
	printf("%s: %ld bytes from %s, flags %#x\n", what, r, ip, mh.msg_flags);
	for (cm = CMSG_FIRSTHDR(&mh); cm; cm = CMSG_NXTHDR(&mh, cm)) {
		printf("  level %d type %d len %zu", cm->cmsg_level, cm->cmsg_type,
		       (size_t)cm->cmsg_len);
		if (cm->cmsg_level == SOL_IP && cm->cmsg_type == IP_PKTINFO) {
			struct in_pktinfo pi;

			memcpy(&pi, CMSG_DATA(cm), sizeof(pi));
			printf(": ifindex %d spec_dst %s addr %s", pi.ipi_ifindex,
			       inet_ntop(AF_INET, &pi.ipi_spec_dst, ip, 64),
			       inet_ntop(AF_INET, &pi.ipi_addr, ip2, 64));
		} else if (cm->cmsg_level == SOL_IPV6 && cm->cmsg_type == IPV6_PKTINFO) {
			struct in6_pktinfo pi;

			memcpy(&pi, CMSG_DATA(cm), sizeof(pi));
			printf(": ifindex %d addr %s", pi.ipi6_ifindex,
			       inet_ntop(AF_INET6, &pi.ipi6_addr, ip, 64));
		}
		printf("\n");
	}
}

/* sendmsg of "x" to dst with one control message: its result. */
static long send_ctl(int fd, const void *dst, socklen_t dl, int level, int type, const void *data,
		     size_t len)
{
	char ctl[CMSG_SPACE(64)];
	struct iovec iov = { "x", 1 };
	struct msghdr mh = { .msg_name = (void *)dst,
			     .msg_namelen = dl,
			     .msg_iov = &iov,
			     .msg_iovlen = 1,
			     .msg_control = ctl,
			     .msg_controllen = CMSG_SPACE(len) };
	struct cmsghdr *cm = CMSG_FIRSTHDR(&mh);

	memset(ctl, 0, sizeof(ctl));
	cm->cmsg_level = level;
	cm->cmsg_type = type;
	cm->cmsg_len = CMSG_LEN(len);
	memcpy(CMSG_DATA(cm), data, len);
	return sendmsg(fd, &mh, 0);
}

/* Every packet a raw socket has, its control messages in hex. */
static void raw_show(int r)
{
	unsigned char b[256], c[256];
	struct iovec v = { b, sizeof(b) };
	struct msghdr m = { .msg_iov = &v, .msg_iovlen = 1, .msg_control = c };

	usleep(10000);
	for (m.msg_controllen = sizeof(c); recvmsg(r, &m, MSG_DONTWAIT) >= 0;
	     m.msg_controllen = sizeof(c)) {
		for (struct cmsghdr *h = CMSG_FIRSTHDR(&m); h; h = CMSG_NXTHDR(&m, h)) {
			printf(" [%d %d %zu:", h->cmsg_level, h->cmsg_type, (size_t)h->cmsg_len);
			for (size_t i = 0; i < h->cmsg_len - CMSG_LEN(0); i++)
				printf("%02x", CMSG_DATA(h)[i]);
			printf("]");
		}
		printf("\n");
	}
}

static void raw_pktinfo(void)
{
	int one = 1, r = socket(AF_INET, SOCK_RAW, IPPROTO_ICMP);
	int r6 = socket(AF_INET6, SOCK_RAW, IPPROTO_ICMPV6);
	unsigned char p[8] = { 8, 0, 0xf7, 0xff }, q[8] = { 128 };
	struct sockaddr_in a = sin4("127.0.0.4", 0);
	struct sockaddr_in6 b = sin6("::1", 0);

	setsockopt(r, SOL_IP, IP_PKTINFO, &one, sizeof(one));
	sendto(r, p, sizeof(p), 0, (struct sockaddr *)&a, sizeof(a));
	raw_show(r);
	setsockopt(r6, SOL_IPV6, IPV6_RECVPKTINFO, &one, sizeof(one));
	sendto(r6, q, sizeof(q), 0, (struct sockaddr *)&b, sizeof(b));
	raw_show(r6);
	close(r);
	close(r6);
}

int main(void)
{
	int r = bound(AF_INET, "0.0.0.0"), s = bound(AF_INET, "127.0.0.1"), one = 1;
	struct sockaddr_in to = sin4("127.0.0.9", port_of(r)),
			   bc = sin4("127.255.255.255", port_of(r));

	setvbuf(stdout, NULL, _IONBF, 0);
	check(getint(r, SOL_IP, IP_PKTINFO) == 0, "IP_PKTINFO off");
	check(setsockopt(r, SOL_IP, IP_PKTINFO, &one, sizeof(one)) == 0 &&
		      getint(r, SOL_IP, IP_PKTINFO) == 1,
	      "IP_PKTINFO on");
	sendto(s, "a", 1, 0, (struct sockaddr *)&to, sizeof(to));
	show(r, "to 127.0.0.9");
	setsockopt(r, SOL_IP, IP_RECVTTL, &one, sizeof(one));
	setsockopt(s, SOL_SOCKET, SO_BROADCAST, &one, sizeof(one));
	sendto(s, "b", 1, 0, (struct sockaddr *)&bc, sizeof(bc));
	show(r, "to the broadcast address, with IP_RECVTTL");

	/* sendmsg's IP_PKTINFO: the source */
	int u = socket(AF_INET, SOCK_DGRAM, 0);
	struct in_pktinfo pi;
	memset(&pi, 0, sizeof(pi));
	inet_pton(AF_INET, "127.0.0.7", &pi.ipi_spec_dst);
	check(send_ctl(u, &to, sizeof(to), SOL_IP, IP_PKTINFO, &pi, sizeof(pi)) == 1,
	      "from 127.0.0.7");
	show(r, "sent with ipi_spec_dst 127.0.0.7");
	pi.ipi_ifindex = 1;
	check(send_ctl(u, &to, sizeof(to), SOL_IP, IP_PKTINFO, &pi, sizeof(pi)) == 1, "ifindex 1");
	show(r, "and ifindex 1");
	pi.ipi_ifindex = 9;
	check_err(send_ctl(u, &to, sizeof(to), SOL_IP, IP_PKTINFO, &pi, sizeof(pi)), ENODEV,
		  "ifindex 9");
	pi.ipi_ifindex = 0;
	inet_pton(AF_INET, "10.0.0.1", &pi.ipi_spec_dst);
	check_err(send_ctl(u, &to, sizeof(to), SOL_IP, IP_PKTINFO, &pi, sizeof(pi)), ENETUNREACH,
		  "a source not local");
	check_err(send_ctl(u, &to, sizeof(to), SOL_IP, IP_PKTINFO, &pi, sizeof(pi) - 1), EINVAL,
		  "a short in_pktinfo");
	memset(&pi, 0, sizeof(pi));
	check(send_ctl(u, &to, sizeof(to), SOL_IP, IP_PKTINFO, &pi, sizeof(pi)) == 1,
	      "a source of 0.0.0.0: the usual");
	show(r, "with 0.0.0.0");
	int bu = bound(AF_INET, "127.0.0.1");
	inet_pton(AF_INET, "127.0.0.6", &pi.ipi_spec_dst);
	check(send_ctl(bu, &to, sizeof(to), SOL_IP, IP_PKTINFO, &pi, sizeof(pi)) == 1,
	      "a bound socket");
	show(r, "bound to 127.0.0.1, sent with 127.0.0.6");

	/* IPv6 */
	int r6 = bound(AF_INET6, "::"), s6 = bound(AF_INET6, "::1");
	struct sockaddr_in6 to6 = sin6("::1", port_of(r6)),
			    tom = sin6("::ffff:127.0.0.3", port_of(r6));
	check(setsockopt(r6, SOL_IPV6, IPV6_RECVPKTINFO, &one, sizeof(one)) == 0 &&
		      getint(r6, SOL_IPV6, IPV6_RECVPKTINFO) == 1,
	      "IPV6_RECVPKTINFO on");
	setsockopt(r6, SOL_IPV6, IPV6_RECVHOPLIMIT, &one, sizeof(one));
	sendto(s6, "c", 1, 0, (struct sockaddr *)&to6, sizeof(to6));
	show(r6, "v6 to ::1");
	int s4 = socket(AF_INET, SOCK_DGRAM, 0);
	struct sockaddr_in t4 = sin4("127.0.0.3", port_of(r6));
	sendto(s4, "d", 1, 0, (struct sockaddr *)&t4, sizeof(t4));
	show(r6, "v4 to an AF_INET6 socket");
	setsockopt(r6, SOL_IP, IP_PKTINFO, &one, sizeof(one));
	sendto(s4, "e", 1, 0, (struct sockaddr *)&t4, sizeof(t4));
	show(r6, "and with its IP_PKTINFO");
	(void)tom;
	struct in6_pktinfo p6;
	memset(&p6, 0, sizeof(p6));
	inet_pton(AF_INET6, "::1", &p6.ipi6_addr);
	int u6 = socket(AF_INET6, SOCK_DGRAM, 0);
	check(send_ctl(u6, &to6, sizeof(to6), SOL_IPV6, IPV6_PKTINFO, &p6, sizeof(p6)) == 1,
	      "IPV6_PKTINFO ::1");
	show(r6, "v6 sent with ::1");
	inet_pton(AF_INET6, "2001:db8::1", &p6.ipi6_addr);
	check_err(send_ctl(u6, &to6, sizeof(to6), SOL_IPV6, IPV6_PKTINFO, &p6, sizeof(p6)), EINVAL,
		  "a v6 source not local");
	memset(&p6, 0, sizeof(p6));
	p6.ipi6_ifindex = 5;
	check_err(send_ctl(u6, &to6, sizeof(to6), SOL_IPV6, IPV6_PKTINFO, &p6, sizeof(p6)), ENODEV,
		  "a v6 ifindex 5");
	check_err(send_ctl(u6, &to6, sizeof(to6), SOL_IPV6, IPV6_PKTINFO, &p6, sizeof(p6) - 4),
		  EINVAL, "a short in6_pktinfo");
	raw_pktinfo();
	return 0;
}
