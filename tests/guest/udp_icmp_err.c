/* skas-test: netns: lo */
/* ICMP port unreachable on loopback: a datagram to a port nobody holds
 * makes the stack answer with ICMP (IPv4 type 3 code 3, IPv6 type 1 code
 * 4) quoting the datagram, which a raw socket sees; the sending UDP
 * socket hears of it as Linux's __udp4_lib_err/__udp6_lib_err say: a
 * connected one as ECONNREFUSED on its next call, and one with
 * IP_RECVERR/IPV6_RECVERR (connected or not) also in its error queue:
 * POLLERR, SO_ERROR, recvmsg(MSG_ERRQUEUE) with the datagram's payload,
 * its destination as the name and a sock_extended_err with the offender;
 * one without, unconnected, hears nothing. A raw socket shows the error:
 * its headers, the quoted IP and UDP headers (checksums verified, the
 * IPv4 id aside) and payload. */
#include "inet_util.h"

#include <poll.h>
#include <stdint.h>
#include <netinet/ip.h>

/* linux/errqueue.h's (musl has no kernel headers) */
struct sock_extended_err {
	uint32_t ee_errno;
	uint8_t ee_origin, ee_type, ee_code, ee_pad;
	uint32_t ee_info, ee_data;
};

#ifndef IPV6_RECVERR
#define IPV6_RECVERR 25
#endif

static int udp(int fam)
{
	return socket(fam, SOCK_DGRAM, 0);
}

/* A port nobody holds: one bound and closed again. */
static int free_port(int fam)
{
	int s = udp(fam), p;
	struct sockaddr_storage ss;
	socklen_t l = sizeof(ss);

	memset(&ss, 0, sizeof(ss));
	ss.ss_family = (sa_family_t)fam;
	bind(s, (struct sockaddr *)&ss,
	     fam == AF_INET ? sizeof(struct sockaddr_in) : sizeof(struct sockaddr_in6));
	getsockname(s, (struct sockaddr *)&ss, &l);
	p = ntohs(((struct sockaddr_in *)&ss)->sin_port);
	close(s);
	return p;
}

static short revents(int fd)
{
	struct pollfd p = { fd, POLLIN | POLLOUT, 0 };

	poll(&p, 1, 0);
	return p.revents;
}

/* Reads one error from the queue and prints what it holds. */
static void read_err(int fd, size_t bufsize, const char *what)
{
	char buf[600], ctl[256], ip[64];
	struct sockaddr_storage name;
	struct iovec iov = { buf, bufsize };
	struct msghdr mh = { .msg_name = &name,
			     .msg_namelen = sizeof(name),
			     .msg_iov = &iov,
			     .msg_iovlen = 1,
			     .msg_control = ctl,
			     .msg_controllen = sizeof(ctl) };
	long r = recvmsg(fd, &mh, MSG_ERRQUEUE);
	struct cmsghdr *cm;

	if (r < 0) {
		printf("%s: %s\n", what, ename(errno));
		return;
	}
	printf("%s: %ld bytes '%.*s' flags %#x name", what, r, (int)(r < 20 ? r : 20), buf,
	       mh.msg_flags & (MSG_ERRQUEUE | MSG_TRUNC | MSG_CTRUNC));
	if (name.ss_family == AF_INET)
		printf(" %s:%s",
		       inet_ntop(AF_INET, &((struct sockaddr_in *)&name)->sin_addr, ip, 64),
		       ((struct sockaddr_in *)&name)->sin_port ? "port" : "0");
	else
		printf(" [%s]:%s",
		       inet_ntop(AF_INET6, &((struct sockaddr_in6 *)&name)->sin6_addr, ip, 64),
		       ((struct sockaddr_in6 *)&name)->sin6_port ? "port" : "0");
	printf(" namelen %u\n", (unsigned)mh.msg_namelen);
	for (cm = CMSG_FIRSTHDR(&mh); cm; cm = CMSG_NXTHDR(&mh, cm)) {
		printf("  cmsg level %d type %d len %zu", cm->cmsg_level, cm->cmsg_type,
		       (size_t)cm->cmsg_len);
		if ((cm->cmsg_level == SOL_IP && cm->cmsg_type == IP_RECVERR) ||
		    (cm->cmsg_level == SOL_IPV6 && cm->cmsg_type == IPV6_RECVERR)) {
			struct sock_extended_err ee;
			struct sockaddr_storage off;

			memcpy(&ee, CMSG_DATA(cm), sizeof(ee));
			memset(&off, 0, sizeof(off));
			memcpy(&off, CMSG_DATA(cm) + sizeof(ee),
			       cm->cmsg_len - CMSG_LEN(sizeof(ee)));
			printf(": errno %s origin %d type %d code %d pad %d info %u data %u "
			       "offender ",
			       ename((int)ee.ee_errno), ee.ee_origin, ee.ee_type, ee.ee_code,
			       ee.ee_pad, ee.ee_info, ee.ee_data);
			if (off.ss_family == AF_INET)
				printf("%s",
				       inet_ntop(AF_INET, &((struct sockaddr_in *)&off)->sin_addr,
						 ip, 64));
			else if (off.ss_family == AF_INET6)
				printf("%s", inet_ntop(AF_INET6,
						       &((struct sockaddr_in6 *)&off)->sin6_addr,
						       ip, 64));
			else
				printf("family %d", off.ss_family);
		}
		printf("\n");
	}
}

static void test_family(int fam)
{
	const char *lo = fam == AF_INET ? "127.0.0.1" : "::1";
	int port = free_port(fam), s, one = 1;
	struct sockaddr_storage to;
	socklen_t tl = fam == AF_INET ? sizeof(struct sockaddr_in) : sizeof(struct sockaddr_in6);
	char buf[64];
	int lvl = fam == AF_INET ? SOL_IP : SOL_IPV6,
	    opt = fam == AF_INET ? IP_RECVERR : IPV6_RECVERR;

	memset(&to, 0, sizeof(to));
	if (fam == AF_INET)
		*(struct sockaddr_in *)&to = sin4(lo, port);
	else
		*(struct sockaddr_in6 *)&to = sin6(lo, port);
	printf("# %s\n", fam == AF_INET ? "IPv4" : "IPv6");

	/* unconnected, no IP_RECVERR: nothing */
	s = udp(fam);
	check(sendto(s, "abc", 3, 0, (struct sockaddr *)&to, tl) == 3, "sendto a closed port");
	usleep(20000);
	check(revents(s) == POLLOUT, "unconnected: no POLLERR");
	check_err(recv(s, buf, sizeof(buf), MSG_DONTWAIT), EAGAIN, "unconnected: nothing");
	check_err(recv(s, buf, sizeof(buf), MSG_ERRQUEUE), EAGAIN, "an empty error queue");
	close(s);

	/* unconnected with IP_RECVERR */
	s = udp(fam);
	check(setsockopt(s, lvl, opt, &one, sizeof(one)) == 0 && getint(s, lvl, opt) == 1,
	      "IP_RECVERR on");
	check(sendto(s, "first datagram", 14, 0, (struct sockaddr *)&to, tl) == 14, "sendto");
	usleep(20000);
	printf("revents %#x\n", revents(s));
	/* the pending error is the next send's */
	check_err(sendto(s, "lost", 4, 0, (struct sockaddr *)&to, tl), ECONNREFUSED,
		  "the next sendto says it");
	check(sendto(s, "second", 6, 0, (struct sockaddr *)&to, tl) == 6, "then sends");
	usleep(20000);
	check(getint(s, SOL_SOCKET, SO_ERROR) == ECONNREFUSED, "SO_ERROR: ECONNREFUSED");
	check(getint(s, SOL_SOCKET, SO_ERROR) == 0, "cleared by reading it");
	printf("revents after SO_ERROR %#x\n", revents(s));
	read_err(s, sizeof(buf), "first error");
	printf("SO_ERROR now %d\n", getint(s, SOL_SOCKET, SO_ERROR));
	read_err(s, 4, "second error, cut");
	printf("SO_ERROR then %d revents %#x\n", getint(s, SOL_SOCKET, SO_ERROR), revents(s));
	read_err(s, sizeof(buf), "no third");
	/* and a plain read reports the error once */
	sendto(s, "x", 1, 0, (struct sockaddr *)&to, tl);
	usleep(20000);
	check_err(recv(s, buf, sizeof(buf), MSG_DONTWAIT), ECONNREFUSED, "recv: ECONNREFUSED");
	check_err(recv(s, buf, sizeof(buf), MSG_DONTWAIT), EAGAIN, "then EAGAIN");
	read_err(s, sizeof(buf), "still queued");
	/* IP_RECVERR turned off empties the queue */
	sendto(s, "q", 1, 0, (struct sockaddr *)&to, tl);
	usleep(20000);
	getint(s, SOL_SOCKET, SO_ERROR);
	printf("queued: revents %#x\n", revents(s));
	int zero = 0;
	setsockopt(s, lvl, opt, &zero, sizeof(zero));
	printf("off: revents %#x\n", revents(s));
	read_err(s, sizeof(buf), "after IP_RECVERR off");
	close(s);

	/* connected, no IP_RECVERR: ECONNREFUSED, no queue */
	s = udp(fam);
	connect(s, (struct sockaddr *)&to, tl);
	check(send(s, "y", 1, 0) == 1, "connected send");
	usleep(20000);
	printf("connected revents %#x\n", revents(s));
	check_err(send(s, "y", 1, 0), ECONNREFUSED, "connected: the next send ECONNREFUSED");
	read_err(s, sizeof(buf), "connected, no queue");
	close(s);
}

/* A UDP checksum (at 6 of the datagram d) as Linux leaves it on
 * loopback: "partial" (the pseudo-header's sum only, for the device to
 * finish), "full" or "other". */
static const char *sum_kind(const uint8_t *d, size_t n, uint32_t pseudo)
{
	uint16_t field = (uint16_t)(d[6] << 8 | d[7]), part = (uint16_t)~csum(NULL, 0, pseudo);

	if (field == part)
		return "partial";
	return csum(d, n, pseudo) == 0 ? "full" : "other";
}

/* The port unreachable a raw socket sees, IPv4 (with its IP header) or
 * IPv6 (without). */
static void raw_view(int fam)
{
	int r = socket(fam, SOCK_RAW, fam == AF_INET ? IPPROTO_ICMP : IPPROTO_ICMPV6);
	int u = udp(fam), port = free_port(fam);
	struct sockaddr_storage to;
	socklen_t tl = fam == AF_INET ? sizeof(struct sockaddr_in) : sizeof(struct sockaddr_in6);
	uint8_t b[700];
	char payload[600];
	long n;

	memset(payload, 'p', sizeof(payload));
	memset(&to, 0, sizeof(to));
	if (fam == AF_INET)
		*(struct sockaddr_in *)&to = sin4("127.0.0.1", port);
	else
		*(struct sockaddr_in6 *)&to = sin6("::1", port);
	/* a long payload: the quote is cut at 576 (IPv4) or 1280 bytes */
	sendto(u, payload, sizeof(payload), 0, (struct sockaddr *)&to, tl);
	usleep(20000);
	n = recv(r, b, sizeof(b), MSG_DONTWAIT);
	if (fam == AF_INET && n >= 56) {
		const uint8_t *ic = b + 20, *q = ic + 8, *uh = q + 20;
		uint8_t whole[8 + sizeof(payload)];

		/* the UDP checksum covers the whole datagram, the quote not */
		memcpy(whole, uh, 8);
		memcpy(whole + 8, payload, sizeof(payload));
		printf("raw v4: len %ld tos %#x ttl %d ipsum %s; icmp %d/%d sum %s; quoted tos %d "
		       "ttl "
		       "%d proto %d frag %#x tot %d; udp len %d sum %s ports %s\n",
		       n, b[1], b[8], csum(b, 20, 0) ? "BAD" : "ok", ic[0], ic[1],
		       csum(ic, (size_t)n - 20, 0) ? "BAD" : "ok", q[1], q[8], q[9],
		       q[6] << 8 | q[7], q[2] << 8 | q[3], uh[4] << 8 | uh[5],
		       sum_kind(whole, sizeof(whole),
				(uint32_t)(q[12] << 8 | q[13]) + (q[14] << 8 | q[15]) +
					(q[16] << 8 | q[17]) + (q[18] << 8 | q[19]) + 17 +
					sizeof(whole)),
		       (uh[2] << 8 | uh[3]) == port ? "ok" : "WRONG");
	} else if (fam == AF_INET6 && n >= 56) {
		const uint8_t *q = b + 8, *uh = q + 40;
		uint8_t whole[8 + sizeof(payload)];
		uint32_t pseudo = 17 + sizeof(whole);

		memcpy(whole, uh, 8);
		memcpy(whole + 8, payload, sizeof(payload));
		for (int i = 8; i < 40; i += 2)
			pseudo += (uint32_t)(q[i] << 8 | q[i + 1]);
		printf("raw v6: len %ld icmp %d/%d; quoted v%d plen %d next %d hops %d; udp len %d "
		       "sum %s port %s\n",
		       n, b[0], b[1], q[0] >> 4, q[4] << 8 | q[5], q[6], q[7], uh[4] << 8 | uh[5],
		       sum_kind(whole, sizeof(whole), pseudo),
		       (uh[2] << 8 | uh[3]) == port ? "ok" : "WRONG");
	} else {
		printf("raw %d: %ld\n", fam, n);
	}
	close(r);
	close(u);
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	raw_view(AF_INET);
	raw_view(AF_INET6);
	test_family(AF_INET);
	test_family(AF_INET6);
	/* an AF_INET6 socket's IPv4 datagram: the IPv4 option counts */
	int s = socket(AF_INET6, SOCK_DGRAM, 0), one = 1;
	struct sockaddr_in6 m = sin6("::ffff:127.0.0.1", free_port(AF_INET));
	setsockopt(s, SOL_IP, IP_RECVERR, &one, sizeof(one));
	sendto(s, "mapped", 6, 0, (struct sockaddr *)&m, sizeof(m));
	usleep(20000);
	read_err(s, 64, "v4-mapped, IP_RECVERR");
	setsockopt(s, SOL_IPV6, IPV6_RECVERR, &one, sizeof(one));
	sendto(s, "mapped", 6, 0, (struct sockaddr *)&m, sizeof(m));
	usleep(20000);
	read_err(s, 64, "v4-mapped, both");
	close(s);
	return 0;
}
