/* skas-test: netns: lo */
/* ICMP on loopback: raw ICMP sockets (CAP_NET_RAW; each sees every ICMP
 * packet that arrives, its own echo request and the stack's reply, with
 * the IPv4 header; ICMP_FILTER; IP_HDRINCL; connect and bind narrowing
 * what it hears; a bad checksum answered by nobody) and "ping" datagram
 * sockets (net.ipv4.ping_group_range; the identifier is the port, the
 * kernel fills it and the checksum; only echo requests; replies by
 * identifier), IPv4 and IPv6 (ICMP6_FILTER, the checksum the kernel
 * always computes, IPV6_CHECKSUM), with errnos in Linux's order and the
 * IP_RECVTTL/IPV6_RECVHOPLIMIT and SO_TIMESTAMP control messages. The
 * IPv4 identification field (and so the header checksum) is the
 * kernel's choice: checked, not printed. Runs as root; a child that
 * becomes nobody checks EPERM. */
#include "inet_util.h"

#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <stdlib.h>
#include <netinet/icmp6.h>
#include <netinet/ip.h>
#include <netinet/ip_icmp.h>
#include <sys/time.h>

#ifndef ICMP_FILTER
#define ICMP_FILTER 1
#endif
#ifndef SOL_RAW
#define SOL_RAW 255
#endif
#ifndef SOL_ICMPV6
#define SOL_ICMPV6 58
#endif
#ifndef IPV6_CHECKSUM
#define IPV6_CHECKSUM 7
#endif

/* Receives one packet (after 20 ms) with a control buffer and prints its
 * messages: a receive time's type, length and whether it is now, the
 * others' first int. Returns recvmsg's result. */
static long recv_show(int fd, uint8_t *buf, size_t size)
{
	char ctl[256];
	struct iovec iov = { buf, size };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct timeval now;
	long r;

	mh.msg_control = ctl;
	mh.msg_controllen = sizeof(ctl);
	usleep(20000);
	gettimeofday(&now, NULL);
	r = recvmsg(fd, &mh, MSG_DONTWAIT);
	for (struct cmsghdr *cm = r < 0 ? NULL : CMSG_FIRSTHDR(&mh); cm;
	     cm = CMSG_NXTHDR(&mh, cm)) {
		int64_t sec = 0;
		int v = 0;

		if (cm->cmsg_level == SOL_SOCKET) { /* SO_TIMESTAMP(NS): seconds first */
			memcpy(&sec, CMSG_DATA(cm), sizeof(sec));
			printf("cmsg type %d len %zu, %s\n", cm->cmsg_type, (size_t)cm->cmsg_len,
			       sec <= now.tv_sec && sec >= now.tv_sec - 2 ? "now" : "WRONG");
			continue;
		}
		memcpy(&v, CMSG_DATA(cm), sizeof(v));
		printf("cmsg level %d type %d len %zu value %d\n", cm->cmsg_level, cm->cmsg_type,
		       (size_t)cm->cmsg_len, v);
	}
	return r;
}

/* Prints the line of file that starts with prefix. */
static void show_line(const char *file, const char *prefix)
{
	FILE *f = fopen(file, "r");
	char line[128];

	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, prefix, strlen(prefix)))
			printf("%s: %s", file, line);
	if (f)
		fclose(f);
}

/* An echo request (type, id, seq) with n bytes of data after it; the
 * checksum right (or off by one with bad). */
static size_t echo(uint8_t *buf, int type, int id, int seq, size_t n, int bad)
{
	struct icmphdr h = { .type = (uint8_t)type };
	uint16_t c;
	size_t i;

	h.un.echo.id = htons((uint16_t)id);
	h.un.echo.sequence = htons((uint16_t)seq);
	memcpy(buf, &h, sizeof(h));
	for (i = 0; i < n; i++)
		buf[sizeof(h) + i] = (uint8_t)(i * 7 + seq);
	c = csum(buf, sizeof(h) + n, 0);
	c = htons((uint16_t)(c + (bad ? 1 : 0)));
	memcpy(buf + 2, &c, 2);
	return sizeof(h) + n;
}

/* One received packet, described: the IPv4 header's fields (the id and
 * header checksum only as "ok"), the ICMP type, code, id, seq, whether
 * its checksum is right, the length, and the sender. */
static void show4(const char *what, const uint8_t *b, long n, const struct sockaddr_in *from)
{
	struct iphdr ip;
	char src[32], dst[32], sndr[32];
	int hl;

	if (n < (long)sizeof(ip)) {
		printf("# %s: %ld bytes\n", what, n);
		return;
	}
	memcpy(&ip, b, sizeof(ip));
	hl = ip.ihl * 4;
	inet_ntop(AF_INET, &ip.saddr, src, sizeof(src));
	inet_ntop(AF_INET, &ip.daddr, dst, sizeof(dst));
	inet_ntop(AF_INET, &from->sin_addr, sndr, sizeof(sndr));
	printf("%s: len %ld v%d ihl %d tos %d tot %d frag %#x ttl %d proto %d ipsum %s %s > %s"
	       " from %s port %d; icmp type %d code %d id %d seq %d sum %s\n",
	       what, n, ip.version, ip.ihl, ip.tos, ntohs(ip.tot_len), ntohs(ip.frag_off), ip.ttl,
	       ip.protocol, csum(b, (size_t)hl, 0) == 0 ? "ok" : "BAD", src, dst, sndr,
	       ntohs(from->sin_port), b[hl], b[hl + 1], b[hl + 4] << 8 | b[hl + 5],
	       b[hl + 6] << 8 | b[hl + 7], csum(b + hl, (size_t)(n - hl), 0) == 0 ? "ok" : "BAD");
}

/* Receives one packet (n bytes at most) within 1 s, or -1. */
static long rcv(int fd, uint8_t *buf, size_t n, struct sockaddr_storage *from, int flags,
		int *mflags)
{
	struct pollfd p = { fd, POLLIN, 0 };
	struct iovec iov = { buf, n };
	struct msghdr mh;
	long r;

	memset(&mh, 0, sizeof(mh));
	mh.msg_name = from;
	mh.msg_namelen = sizeof(*from);
	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	if (poll(&p, 1, 1000) != 1)
		return -1;
	r = recvmsg(fd, &mh, flags | MSG_DONTWAIT);
	if (mflags)
		*mflags = mh.msg_flags;
	return r;
}

/* What is left to read, drained: the number of packets. */
static int drain(int fd)
{
	uint8_t buf[256];
	int n = 0;

	while (recv(fd, buf, sizeof(buf), MSG_DONTWAIT) >= 0)
		n++;
	return n;
}

static void test_raw4(void)
{
	struct sockaddr_in lo = sin4("127.0.0.1", 0), far = sin4("10.1.2.3", 0);
	struct sockaddr_storage from;
	uint8_t pkt[256], buf[512];
	int r = socket(AF_INET, SOCK_RAW, IPPROTO_ICMP), mf = 0;
	size_t n;
	long got;

	check_err(socket(AF_INET, SOCK_RAW, 0), EPROTONOSUPPORT, "raw, protocol 0");
	check(r >= 0, "raw ICMP socket as root");
	check(getint(r, SOL_SOCKET, SO_TYPE) == SOCK_RAW &&
		      getint(r, SOL_SOCKET, SO_PROTOCOL) == IPPROTO_ICMP,
	      "SO_TYPE, SO_PROTOCOL");
	n = echo(pkt, ICMP_ECHO, 0x1234, 1, 24, 0);
	check(sendto(r, pkt, n, 0, (struct sockaddr *)&lo, sizeof(lo)) == (long)n, "echo sent");
	got = rcv(r, buf, sizeof(buf), &from, 0, NULL);
	show4("its own request", buf, got, (struct sockaddr_in *)&from);
	check(got == (long)(n + 20) && !memcmp(buf + 20, pkt, n), "the request as sent");
	got = rcv(r, buf, sizeof(buf), &from, 0, NULL);
	show4("the reply", buf, got, (struct sockaddr_in *)&from);
	check(got == (long)(n + 20) && !memcmp(buf + 28, pkt + 8, n - 8), "the reply's data");
	check(drain(r) == 0, "nothing more");

	/* ICMP_FILTER: a set bit drops that type */
	uint32_t f = 1u << ICMP_ECHO, g = 0;
	socklen_t fl = sizeof(g);
	check(setsockopt(r, SOL_RAW, ICMP_FILTER, &f, sizeof(f)) == 0, "ICMP_FILTER");
	check(getsockopt(r, SOL_RAW, ICMP_FILTER, &g, &fl) == 0 && g == f && fl == 4,
	      "ICMP_FILTER read back");
	fl = 64;
	check(getsockopt(r, SOL_RAW, ICMP_FILTER, &g, &fl) == 0 && fl == 4, "a long buffer: 4");
	fl = 4;
	check_err(getsockopt(r, SOL_RAW, 2, &g, &fl), ENOPROTOOPT, "another SOL_RAW option");
	n = echo(pkt, ICMP_ECHO, 0x1234, 2, 8, 0);
	sendto(r, pkt, n, 0, (struct sockaddr *)&lo, sizeof(lo));
	got = rcv(r, buf, sizeof(buf), &from, 0, NULL);
	check(got == (long)(n + 20) && buf[20] == ICMP_ECHOREPLY, "filtered: only the reply");
	check(drain(r) == 0, "and nothing else");

	/* a bad checksum: seen by raw sockets, answered by nobody */
	f = 0;
	setsockopt(r, SOL_RAW, ICMP_FILTER, &f, sizeof(f));
	n = echo(pkt, ICMP_ECHO, 0x1234, 3, 8, 1);
	sendto(r, pkt, n, 0, (struct sockaddr *)&lo, sizeof(lo));
	got = rcv(r, buf, sizeof(buf), &from, 0, NULL);
	check(got == (long)(n + 20) && buf[20] == ICMP_ECHO, "a bad checksum is seen");
	usleep(50000);
	check(drain(r) == 0, "and not answered");

	/* another destination in 127/8, a short buffer */
	struct sockaddr_in lo5 = sin4("127.0.0.5", 0);
	n = echo(pkt, ICMP_ECHO, 7, 4, 40, 0);
	sendto(r, pkt, n, 0, (struct sockaddr *)&lo5, sizeof(lo5));
	got = rcv(r, buf, 30, &from, 0, &mf);
	check(got == 30 && (mf & MSG_TRUNC), "cut: MSG_TRUNC");
	got = rcv(r, buf, 30, &from, MSG_TRUNC, &mf);
	check(got == (long)(n + 20) && (mf & MSG_TRUNC), "MSG_TRUNC: the whole length");
	check(buf[20] == ICMP_ECHOREPLY && !memcmp(buf + 12, "\x7f\0\0\x05", 4),
	      "the reply comes from 127.0.0.5");

	/* an ICMP message shorter than its header: no raw socket sees it */
	check(sendto(r, pkt, 4, 0, (struct sockaddr *)&lo, sizeof(lo)) == 4, "4 bytes");
	usleep(20000);
	check(drain(r) == 0, "too short for ICMP_FILTER: dropped");

	/* sendto's checks */
	check_err(sendto(r, pkt, n, 0, (struct sockaddr *)&far, sizeof(far)), ENETUNREACH,
		  "off loopback");
	check_err(sendto(r, pkt, n, 0, (struct sockaddr *)&lo, 8), EINVAL, "a short name");
	struct sockaddr_in6 l6 = sin6("::1", 0);
	check_err(sendto(r, pkt, n, 0, (struct sockaddr *)&l6, sizeof(l6)), EAFNOSUPPORT,
		  "an AF_INET6 name");
	check_err(send(r, pkt, n, 0), EDESTADDRREQ, "no name");
	check_err(sendto(r, pkt, n, MSG_OOB, (struct sockaddr *)&lo, sizeof(lo)), EOPNOTSUPP,
		  "MSG_OOB");
	check_err(sendto(r, pkt, 70000, 0, (struct sockaddr *)&lo, sizeof(lo)), EMSGSIZE,
		  "past 64 KiB");
	static uint8_t big[65535];
	check_err(sendto(r, big, 65516, 0, (struct sockaddr *)&lo, sizeof(lo)), EMSGSIZE,
		  "no room for the IP header");
	check(sendto(r, big, 65515, 0, (struct sockaddr *)&lo, sizeof(lo)) == 65515, "65515 bytes");
	check(drain(r) == 1, "seen (no echo: not a request)");
	show_line("/proc/net/sockstat", "RAW:");
	check_err(recv(r, buf, sizeof(buf), MSG_OOB), EOPNOTSUPP, "recv MSG_OOB");
	check_err(recv(r, buf, sizeof(buf), MSG_ERRQUEUE | MSG_DONTWAIT), EAGAIN,
		  "an empty error queue");
	struct sockaddr_in un = lo;
	un.sin_family = AF_UNSPEC;
	n = echo(pkt, ICMP_ECHO, 9, 5, 0, 0);
	check(sendto(r, pkt, n, 0, (struct sockaddr *)&un, sizeof(un)) == (long)n,
	      "AF_UNSPEC is taken as AF_INET");
	check(drain(r) == 2, "request and reply");

	/* IP_HDRINCL: the caller's header, id and source filled in */
	int one = 1;
	struct iphdr ip = { .version = 4, .ihl = 5, .ttl = 9, .protocol = IPPROTO_ICMP };
	ip.daddr = htonl(0x7f000001);
	ip.tos = 0x10;
	n = echo(pkt + 20, ICMP_ECHO, 0x4321, 6, 16, 0);
	memcpy(pkt, &ip, sizeof(ip));
	check(setsockopt(r, SOL_IP, IP_HDRINCL, &one, sizeof(one)) == 0 &&
		      getint(r, SOL_IP, IP_HDRINCL) == 1,
	      "IP_HDRINCL");
	check(sendto(r, pkt, n + 20, 0, (struct sockaddr *)&lo, sizeof(lo)) == (long)(n + 20),
	      "a packet with its header");
	got = rcv(r, buf, sizeof(buf), &from, 0, NULL);
	show4("hdrincl request", buf, got, (struct sockaddr_in *)&from);
	got = rcv(r, buf, sizeof(buf), &from, 0, NULL);
	show4("hdrincl reply", buf, got, (struct sockaddr_in *)&from);
	/* a forged source off loopback: delivered, no route back */
	ip.saddr = htonl(0x0a000001);
	memcpy(pkt, &ip, sizeof(ip));
	check(sendto(r, pkt, n + 20, 0, (struct sockaddr *)&lo, sizeof(lo)) == (long)(n + 20),
	      "from 10.0.0.1");
	got = rcv(r, buf, sizeof(buf), &from, 0, NULL);
	show4("forged request", buf, got, (struct sockaddr_in *)&from);
	usleep(20000);
	check(drain(r) == 0, "no reply");
	pkt[0] = 0x4f; /* ihl 15: past the packet */
	check_err(sendto(r, pkt, 40, 0, (struct sockaddr *)&lo, sizeof(lo)), EINVAL,
		  "an ihl past the packet");
	one = 0;
	setsockopt(r, SOL_IP, IP_HDRINCL, &one, sizeof(one));
	check(drain(r) == 0, "nothing else");

	/* connect: only packets from the peer; bind: only to the address */
	int c = socket(AF_INET, SOCK_RAW, IPPROTO_ICMP);
	struct sockaddr_in lo2 = sin4("127.0.0.2", 0);
	check(connect(c, (struct sockaddr *)&lo2, sizeof(lo2)) == 0, "connect a raw socket");
	n = echo(pkt, ICMP_ECHO, 11, 7, 4, 0);
	check(send(c, pkt, n, 0) == (long)n, "send to the peer");
	sendto(r, pkt, n, 0, (struct sockaddr *)&lo, sizeof(lo));
	usleep(20000);
	check(drain(c) == 1, "the connected one hears only 127.0.0.2's reply");
	check(drain(r) == 4, "the other hears all four");
	struct sockaddr_in far9 = sin4("10.9.9.9", 0);
	check_err(bind(c, (struct sockaddr *)&far9, sizeof(far9)), EINVAL,
		  "bind when connected, before the address");
	close(c);
	int b = socket(AF_INET, SOCK_RAW, IPPROTO_ICMP);
	struct sockaddr_in lo3 = sin4("127.0.0.3", 0);
	check(bind(b, (struct sockaddr *)&lo3, sizeof(lo3)) == 0, "bind a raw socket");
	sendto(r, pkt, n, 0, (struct sockaddr *)&lo3, sizeof(lo3));
	sendto(r, pkt, n, 0, (struct sockaddr *)&lo, sizeof(lo));
	usleep(20000);
	check(drain(b) == 1, "the bound one hears only the request to 127.0.0.3");
	drain(r);
	close(b);

	/* control messages: the TTL and a receive time */
	setsockopt(r, SOL_IP, IP_RECVTTL, &(int){ 1 }, sizeof(int));
	setsockopt(r, SOL_SOCKET, SO_TIMESTAMP, &(int){ 1 }, sizeof(int));
	n = echo(pkt, ICMP_ECHO, 1, 8, 8, 0);
	sendto(r, pkt, n, 0, (struct sockaddr *)&lo, sizeof(lo));
	check(recv_show(r, buf, sizeof(buf)) == (long)(n + 20), "recvmsg");
	drain(r);
	close(r);
}

static void test_ping4(void)
{
	struct sockaddr_in lo = sin4("127.0.0.1", 0), any = sin4("0.0.0.0", 0);
	struct sockaddr_storage from;
	uint8_t pkt[256], buf[512];
	char range[64] = "";
	int fd, p, q, r;
	size_t n;
	long got;

	fd = open("/proc/sys/net/ipv4/ping_group_range", O_RDONLY);
	got = read(fd, range, sizeof(range) - 1);
	close(fd);
	printf("ping_group_range: %s", got > 0 ? range : "?\n");
	check_err(socket(AF_INET, SOCK_DGRAM, IPPROTO_ICMP), EACCES, "no group in the range");
	fd = open("/proc/sys/net/ipv4/ping_group_range", O_WRONLY);
	check(write(fd, "5 2", 3) == 3, "an empty range is taken");
	close(fd);
	fd = open("/proc/sys/net/ipv4/ping_group_range", O_RDONLY);
	memset(range, 0, sizeof(range));
	got = read(fd, range, sizeof(range) - 1);
	close(fd);
	printf("after 5 2: %s", got > 0 ? range : "?\n");
	fd = open("/proc/sys/net/ipv4/ping_group_range", O_WRONLY);
	check_err(write(fd, "0 4294967295", 12), EINVAL, "past the largest gid");
	close(fd);
	fd = open("/proc/sys/net/ipv4/ping_group_range", O_WRONLY);
	check(write(fd, "0 0", 3) == 3, "root's group");
	close(fd);

	p = socket(AF_INET, SOCK_DGRAM, IPPROTO_ICMP);
	check(p >= 0, "a ping socket");
	check(getint(p, SOL_SOCKET, SO_PROTOCOL) == IPPROTO_ICMP, "SO_PROTOCOL");
	check(port_of(p) == 0, "unbound: no identifier yet");
	n = echo(pkt, ICMP_ECHO, 0xbeef, 1, 20, 1); /* its id and checksum are the kernel's */
	check(sendto(p, pkt, n, 0, (struct sockaddr *)&lo, sizeof(lo)) == (long)n, "sendto");
	int ident = port_of(p);
	check(ident > 0, "an identifier now");
	got = rcv(p, buf, sizeof(buf), &from, 0, NULL);
	struct sockaddr_in *f4 = (struct sockaddr_in *)&from;
	check(got == (long)n && buf[0] == ICMP_ECHOREPLY && buf[1] == 0 &&
		      (buf[4] << 8 | buf[5]) == ident && (buf[6] << 8 | buf[7]) == 1 &&
		      !memcmp(buf + 8, pkt + 8, n - 8) && csum(buf, n, 0) == 0,
	      "the reply: ICMP only, our identifier, a right checksum");
	check(f4->sin_family == AF_INET && f4->sin_port == 0 &&
		      f4->sin_addr.s_addr == htonl(0x7f000001),
	      "from 127.0.0.1, port 0");

	/* a raw socket sees the ping socket's traffic */
	r = socket(AF_INET, SOCK_RAW, IPPROTO_ICMP);
	n = echo(pkt, ICMP_ECHO, 0, 2, 4, 0);
	sendto(p, pkt, n, 0, (struct sockaddr *)&lo, sizeof(lo));
	got = rcv(p, buf, sizeof(buf), &from, 0, NULL);
	check(got == (long)n && (buf[6] << 8 | buf[7]) == 2, "the second reply");
	usleep(20000);
	check(drain(r) == 2, "the raw socket saw request and reply");

	/* a raw socket's echo reply with our identifier comes to us */
	n = echo(pkt, ICMP_ECHO, ident, 3, 4, 0);
	sendto(r, pkt, n, 0, (struct sockaddr *)&lo, sizeof(lo));
	got = rcv(p, buf, sizeof(buf), &from, 0, NULL);
	check(got == (long)n && (buf[6] << 8 | buf[7]) == 3, "a raw socket's request: its reply");
	drain(r);

	/* sendto's checks, in Linux's order */
	check_err(sendto(p, pkt, 7, 0, (struct sockaddr *)&lo, sizeof(lo)), EINVAL,
		  "shorter than an ICMP header");
	check_err(sendto(p, pkt, 70000, 0, (struct sockaddr *)&lo, sizeof(lo)), EMSGSIZE,
		  "past 64 KiB");
	check_err(sendto(p, pkt, n, MSG_OOB, (struct sockaddr *)&lo, sizeof(lo)), EOPNOTSUPP,
		  "MSG_OOB");
	n = echo(pkt, ICMP_TIMESTAMP, 0, 4, 12, 0);
	check_err(sendto(p, pkt, n, 0, (struct sockaddr *)&lo, sizeof(lo)), EINVAL,
		  "not an echo request");
	n = echo(pkt, ICMP_ECHO, 0, 4, 4, 0);
	check_err(sendto(p, pkt, n, 0, (struct sockaddr *)&lo, 8), EINVAL, "a short name");
	struct sockaddr_in un = lo;
	un.sin_family = AF_UNSPEC;
	check_err(sendto(p, pkt, n, 0, (struct sockaddr *)&un, sizeof(un)), EAFNOSUPPORT,
		  "AF_UNSPEC");
	check_err(send(p, pkt, n, 0), EDESTADDRREQ, "no name");
	check_err(sendto(p, pkt, n, 0,
			 (struct sockaddr *)&(struct sockaddr_in){
				 .sin_family = AF_INET, .sin_addr.s_addr = htonl(0x0a000001) },
			 sizeof(lo)),
		  ENETUNREACH, "off loopback");
	check(connect(p, (struct sockaddr *)&lo, sizeof(lo)) == 0, "connect");
	check(send(p, pkt, n, 0) == (long)n, "send when connected");
	got = rcv(p, buf, sizeof(buf), &from, 0, NULL);
	check(got == (long)n && (buf[6] << 8 | buf[7]) == 4, "its reply");
	struct pollfd pf = { p, POLLIN | POLLOUT, 0 };
	check(poll(&pf, 1, 0) == 1 && pf.revents == POLLOUT, "poll: writable, nothing to read");
	close(p);

	/* bind: the identifier is the port; no privilege below 1024 */
	p = socket(AF_INET, SOCK_DGRAM, IPPROTO_ICMP);
	q = socket(AF_INET, SOCK_DGRAM, IPPROTO_ICMP);
	struct sockaddr_in b = sin4("127.0.0.1", 99);
	check(bind(p, (struct sockaddr *)&b, sizeof(b)) == 0 && port_of(p) == 99, "bind to 99");
	check_err(bind(p, (struct sockaddr *)&any, sizeof(any)), EINVAL, "bound already");
	check(getint(p, SOL_SOCKET, SO_REUSEADDR) == 1, "SO_REUSEADDR is on from the start");
	check(bind(q, (struct sockaddr *)&b, sizeof(b)) == 0, "so the identifier is shared");
	close(q);
	q = socket(AF_INET, SOCK_DGRAM, IPPROTO_ICMP);
	setsockopt(q, SOL_SOCKET, SO_REUSEADDR, &(int){ 0 }, sizeof(int));
	check_err(bind(q, (struct sockaddr *)&b, sizeof(b)), EADDRINUSE,
		  "the same identifier without SO_REUSEADDR");
	struct sockaddr_in far = sin4("10.0.0.1", 0);
	check_err(bind(q, (struct sockaddr *)&far, sizeof(far)), EADDRNOTAVAIL, "not local");
	struct sockaddr_in mc = sin4("224.0.0.1", 0);
	check_err(bind(q, (struct sockaddr *)&mc, sizeof(mc)), EADDRNOTAVAIL, "multicast");
	check_err(bind(q, (struct sockaddr *)&b, 8), EINVAL, "a short address");
	close(q);
	q = socket(AF_INET, SOCK_DGRAM, IPPROTO_ICMP);
	int one = 1;
	setsockopt(p, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	setsockopt(q, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	check(bind(q, (struct sockaddr *)&b, sizeof(b)) == 0, "SO_REUSEADDR on both: shared");
	close(q);
	n = echo(pkt, ICMP_ECHO, 0, 5, 4, 0);
	struct sockaddr_in lo9 = sin4("127.0.0.9", 0);
	sendto(p, pkt, n, 0, (struct sockaddr *)&lo9, sizeof(lo9));
	usleep(20000);
	check(drain(p) == 1, "bound to 127.0.0.1: the reply from 127.0.0.9 comes");
	q = socket(AF_INET, SOCK_RAW, IPPROTO_ICMP);
	struct sockaddr_in lo7 = sin4("127.0.0.7", 0);
	bind(q, (struct sockaddr *)&lo7, sizeof(lo7));
	n = echo(pkt, ICMP_ECHO, 99, 5, 4, 0);
	sendto(q, pkt, n, 0, (struct sockaddr *)&lo, sizeof(lo));
	usleep(20000);
	check(drain(p) == 0, "a reply to 127.0.0.7 with its identifier does not");
	check(drain(q) == 1, "the raw socket bound to 127.0.0.7 hears only the reply");
	close(q);
	setsockopt(p, SOL_IP, IP_RECVTTL, &one, sizeof(one));
	setsockopt(p, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof(one));
	sendto(p, pkt, n, 0, (struct sockaddr *)&lo, sizeof(lo));
	check(recv_show(p, buf, sizeof(buf)) == (long)n, "a reply from 127.0.0.1");
	close(p);
	close(r);

	/* nobody, whose group is outside the range, may open neither */
	pid_t pid = fork();
	if (pid == 0) {
		if (setgid(65534) || setuid(65534))
			_exit(9);
		int e1 = socket(AF_INET, SOCK_RAW, IPPROTO_ICMP) < 0 ? errno : 0;
		int e2 = socket(AF_INET, SOCK_DGRAM, IPPROTO_ICMP) < 0 ? errno : 0;
		_exit(e1 == EPERM && e2 == EACCES ? 0 : 1);
	}
	check(child_exit(pid) == 0, "nobody: raw EPERM, ping EACCES");
	fd = open("/proc/sys/net/ipv4/ping_group_range", O_WRONLY);
	write(fd, "1 0", 3);
	close(fd);
}

static void test_v6(void)
{
	struct sockaddr_in6 lo = sin6("::1", 0), from;
	uint8_t pkt[256], buf[512];
	int r = socket(AF_INET6, SOCK_RAW, IPPROTO_ICMPV6), p;
	socklen_t l;
	size_t n;
	long got;

	check(r >= 0, "raw ICMPv6 socket");
	check(getint(r, SOL_RAW, IPV6_CHECKSUM) == 2, "its checksum offset is 2");
	check_err(setsockopt(r, SOL_IPV6, IPV6_CHECKSUM, &(int){ 4 }, sizeof(int)), EINVAL,
		  "IPV6_CHECKSUM at SOL_IPV6");
	check_err(setsockopt(r, SOL_RAW, IPV6_CHECKSUM, &(int){ 3 }, sizeof(int)), EINVAL,
		  "an odd offset");
	check(setsockopt(r, SOL_RAW, IPV6_CHECKSUM, &(int){ 2 }, sizeof(int)) == 0,
	      "offset 2 again");
	n = echo(pkt, ICMP6_ECHO_REQUEST, 0x66, 1, 16, 0);
	pkt[2] = pkt[3] = 0x55; /* whatever: the kernel computes it */
	check(sendto(r, pkt, n, 0, (struct sockaddr *)&lo, sizeof(lo)) == (long)n, "echo sent");
	got = rcv(r, buf, sizeof(buf), (struct sockaddr_storage *)&from, 0, NULL);
	check(got == (long)n && buf[0] == ICMP6_ECHO_REQUEST, "its own request, no IP header");
	printf("v6 request checksum %02x%02x\n", buf[2], buf[3]);
	got = rcv(r, buf, sizeof(buf), (struct sockaddr_storage *)&from, 0, NULL);
	check(got == (long)n && buf[0] == ICMP6_ECHO_REPLY && !memcmp(buf + 4, pkt + 4, n - 4),
	      "the reply");
	printf("v6 reply checksum %02x%02x from port %d\n", buf[2], buf[3], ntohs(from.sin6_port));
	check_err(sendto(r, pkt, 3, 0, (struct sockaddr *)&lo, sizeof(lo)), EINVAL,
		  "shorter than the checksum");

	struct icmp6_filter f6, g6;
	ICMP6_FILTER_SETBLOCKALL(&f6);
	ICMP6_FILTER_SETPASS(ICMP6_ECHO_REPLY, &f6);
	check(setsockopt(r, SOL_ICMPV6, ICMP6_FILTER, &f6, sizeof(f6)) == 0, "ICMP6_FILTER");
	l = sizeof(g6);
	check(getsockopt(r, SOL_ICMPV6, ICMP6_FILTER, &g6, &l) == 0 && l == sizeof(g6) &&
		      !memcmp(&f6, &g6, sizeof(f6)),
	      "read back");
	setsockopt(r, SOL_IPV6, IPV6_RECVHOPLIMIT, &(int){ 1 }, sizeof(int));
	n = echo(pkt, ICMP6_ECHO_REQUEST, 0x66, 2, 16, 0);
	sendto(r, pkt, n, 0, (struct sockaddr *)&lo, sizeof(lo));
	check(recv_show(r, buf, sizeof(buf)) == (long)n && buf[0] == ICMP6_ECHO_REPLY,
	      "filtered: the reply only");
	check(drain(r) == 0, "nothing else");
	check_err(setsockopt(r, SOL_RAW, ICMP_FILTER, &(int){ 0 }, sizeof(int)), ENOPROTOOPT,
		  "ICMP_FILTER on ICMPv6");
	int b6 = socket(AF_INET6, SOCK_RAW, IPPROTO_ICMPV6);
	struct sockaddr_in6 mc6 = sin6("ff05::1", 0);
	check(bind(b6, (struct sockaddr *)&mc6, sizeof(mc6)) == 0,
	      "a raw ICMPv6 socket binds a group");
	show_line("/proc/net/sockstat6", "RAW6:");
	close(b6);

	int fd = open("/proc/sys/net/ipv4/ping_group_range", O_WRONLY);
	write(fd, "0 0", 3);
	close(fd);
	p = socket(AF_INET6, SOCK_DGRAM, IPPROTO_ICMPV6);
	check(p >= 0, "an ICMPv6 ping socket");
	check(getint(p, SOL_IPV6, IPV6_V6ONLY) == 1, "IPV6_V6ONLY");
	n = echo(pkt, ICMP6_ECHO_REQUEST, 0, 9, 10, 1);
	check(sendto(p, pkt, n, 0, (struct sockaddr *)&lo, sizeof(lo)) == (long)n, "sendto");
	got = rcv(p, buf, sizeof(buf), (struct sockaddr_storage *)&from, 0, NULL);
	check(got == (long)n && buf[0] == ICMP6_ECHO_REPLY &&
		      (buf[4] << 8 | buf[5]) == port_of(p) && (buf[6] << 8 | buf[7]) == 9,
	      "the reply");
	struct sockaddr_in6 m = sin6("::ffff:127.0.0.1", 0);
	check_err(sendto(p, pkt, n, 0, (struct sockaddr *)&m, sizeof(m)), EINVAL,
		  "a v4-mapped address");
	n = echo(pkt, ICMP_ECHO, 0, 9, 10, 0);
	check_err(sendto(p, pkt, n, 0, (struct sockaddr *)&lo, sizeof(lo)), EINVAL,
		  "an ICMPv4 echo");
	usleep(20000);
	check(drain(r) == 1, "the raw socket saw the ping socket's reply");
	close(p);
	close(r);
	fd = open("/proc/sys/net/ipv4/ping_group_range", O_WRONLY);
	write(fd, "1 0", 3);
	close(fd);
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	test_raw4();
	test_ping4();
	test_v6();
	return 0;
}
