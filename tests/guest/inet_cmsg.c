/* UDP's IP-level control messages on loopback: IP_RECVTTL and IP_RECVTOS
 * (AF_INET), IPV6_RECVHOPLIMIT and IPV6_RECVTCLASS (AF_INET6) report
 * what the sender's IP header said: the socket's IP_TTL, IP_TOS,
 * IPV6_UNICAST_HOPS, IPV6_TCLASS, or the IP_TTL, IP_TOS, IPV6_HOPLIMIT,
 * IPV6_TCLASS messages of its sendmsg (a hop limit of -1: the socket's;
 * out of range: EINVAL); a control buffer too short is MSG_CTRUNC. skas once had none
 * of the options (ENOPROTOOPT) and ignored the messages (CPython's
 * test_socket RecvmsgRFC3542AncillaryUDP6Test). */
#include "inet_util.h"

#include <stdlib.h>

/* sendmsg of "x" from s to port on ip (family fam) with one int control
 * message (level, type) unless level is -1; a byte if len is 1. */
static long send_with(int s, int fam, int port, int level, int type, int v, int len)
{
	struct sockaddr_in a4 = sin4("127.0.0.1", port);
	struct sockaddr_in6 a6 = sin6("::1", port);
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(int))];
	} u;
	struct iovec iov = { "x", 1 };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
	unsigned char b = (unsigned char)v;

	if (fam == AF_INET) {
		mh.msg_name = &a4;
		mh.msg_namelen = sizeof(a4);
	} else {
		mh.msg_name = &a6;
		mh.msg_namelen = sizeof(a6);
	}
	if (level != -1) {
		memset(&u, 0, sizeof(u));
		u.h.cmsg_level = level;
		u.h.cmsg_type = type;
		u.h.cmsg_len = CMSG_LEN(len);
		if (len == 1)
			memcpy(CMSG_DATA(&u.h), &b, 1);
		else
			memcpy(CMSG_DATA(&u.h), &v, sizeof(v));
		mh.msg_control = &u;
		mh.msg_controllen = CMSG_SPACE(len);
	}
	return sendmsg(s, &mh, 0);
}

/* Receives one datagram; describes its control messages into out as
 * "level/type=value ..." (IP_TOS's one byte), and MSG_CTRUNC. */
static void recv_desc(int s, size_t ctl, char *out, size_t outlen)
{
	char buf[8], cbuf[256];
	struct iovec iov = { buf, sizeof(buf) };
	struct msghdr mh = {
		.msg_iov = &iov, .msg_iovlen = 1, .msg_control = cbuf, .msg_controllen = ctl
	};
	struct cmsghdr *c;
	size_t at = 0;

	out[0] = 0;
	memset(cbuf, 0, sizeof(cbuf));
	if (recvmsg(s, &mh, MSG_DONTWAIT) != 1) {
		snprintf(out, outlen, "recvmsg: %s", ename(errno));
		return;
	}
	for (c = CMSG_FIRSTHDR(&mh); c; c = CMSG_NXTHDR(&mh, c)) {
		int v = -1;

		if (c->cmsg_len == CMSG_LEN(1))
			v = *(unsigned char *)CMSG_DATA(c);
		else if (c->cmsg_len >= CMSG_LEN(sizeof(int)))
			memcpy(&v, CMSG_DATA(c), sizeof(v));
		at += snprintf(out + at, outlen - at, "%d/%d=%d(%zu) ", c->cmsg_level, c->cmsg_type,
			       v, (size_t)c->cmsg_len);
	}
	snprintf(out + at, outlen - at, "%s", (mh.msg_flags & MSG_CTRUNC) ? "CTRUNC" : "-");
}

static int on(int s, int level, int name, int v)
{
	return setsockopt(s, level, name, &v, sizeof(v));
}

static void v4(void)
{
	int r = socket(AF_INET, SOCK_DGRAM, 0), s = socket(AF_INET, SOCK_DGRAM, 0), port;
	struct sockaddr_in a = sin4("127.0.0.1", 0);
	char d[256];

	bind(r, (struct sockaddr *)&a, sizeof(a));
	port = port_of(r);
	check(on(r, IPPROTO_IP, IP_RECVTTL, 1) == 0 && on(r, IPPROTO_IP, IP_RECVTOS, 1) == 0,
	      "IP_RECVTTL, IP_RECVTOS");
	send_with(s, AF_INET, port, -1, 0, 0, 0);
	recv_desc(r, 256, d, sizeof(d));
	printf("# default: %s\n", d);
	check(!strcmp(d, "0/2=64(20) 0/1=0(17) -"), "TTL 64, TOS 0 by default");
	check(on(s, IPPROTO_IP, IP_TTL, 9) == 0 && on(s, IPPROTO_IP, IP_TOS, 0x20) == 0,
	      "the sender's IP_TTL 9, IP_TOS 0x20");
	send_with(s, AF_INET, port, -1, 0, 0, 0);
	recv_desc(r, 256, d, sizeof(d));
	check(!strcmp(d, "0/2=9(20) 0/1=32(17) -"), "they arrive");
	send_with(s, AF_INET, port, IPPROTO_IP, IP_TTL, 3, sizeof(int));
	recv_desc(r, 256, d, sizeof(d));
	check(!strcmp(d, "0/2=3(20) 0/1=32(17) -"), "an IP_TTL message of 3 wins");
	send_with(s, AF_INET, port, IPPROTO_IP, IP_TOS, 0x10, 1);
	recv_desc(r, 256, d, sizeof(d));
	check(!strcmp(d, "0/2=9(20) 0/1=16(17) -"), "an IP_TOS message of one byte");
	errno = 0;
	check_err(send_with(s, AF_INET, port, IPPROTO_IP, IP_TTL, 0, sizeof(int)), EINVAL,
		  "an IP_TTL message of 0: EINVAL");
	check_err(send_with(s, AF_INET, port, IPPROTO_IP, IP_TOS, 256, sizeof(int)), EINVAL,
		  "an IP_TOS message of 256: EINVAL");
	send_with(s, AF_INET, port, -1, 0, 0, 0);
	recv_desc(r, CMSG_SPACE(sizeof(int)), d, sizeof(d));
	check(!strcmp(d, "0/2=9(20) CTRUNC"), "room for one: the TTL and MSG_CTRUNC");
	close(r);
	close(s);
}

static void v6(void)
{
	int r = socket(AF_INET6, SOCK_DGRAM, 0), s = socket(AF_INET6, SOCK_DGRAM, 0), port;
	struct sockaddr_in6 a = sin6("::1", 0);
	char d[256];

	bind(r, (struct sockaddr *)&a, sizeof(a));
	port = port_of(r);
	check(on(r, IPPROTO_IPV6, IPV6_RECVHOPLIMIT, 1) == 0 &&
		      on(r, IPPROTO_IPV6, IPV6_RECVTCLASS, 1) == 0,
	      "IPV6_RECVHOPLIMIT, IPV6_RECVTCLASS");
	send_with(s, AF_INET6, port, -1, 0, 0, 0);
	recv_desc(r, 256, d, sizeof(d));
	printf("# default: %s\n", d);
	check(!strcmp(d, "41/52=64(20) 41/67=0(20) -"), "hop limit 64, class 0 by default");
	check(on(s, IPPROTO_IPV6, IPV6_UNICAST_HOPS, 7) == 0 &&
		      on(s, IPPROTO_IPV6, IPV6_TCLASS, 0x40) == 0,
	      "the sender's IPV6_UNICAST_HOPS 7, IPV6_TCLASS 0x40");
	send_with(s, AF_INET6, port, -1, 0, 0, 0);
	recv_desc(r, 256, d, sizeof(d));
	check(!strcmp(d, "41/52=7(20) 41/67=64(20) -"), "they arrive");
	send_with(s, AF_INET6, port, IPPROTO_IPV6, IPV6_HOPLIMIT, 5, sizeof(int));
	recv_desc(r, 256, d, sizeof(d));
	check(!strcmp(d, "41/52=5(20) 41/67=64(20) -"), "an IPV6_HOPLIMIT message of 5 wins");
	send_with(s, AF_INET6, port, IPPROTO_IPV6, IPV6_HOPLIMIT, -1, sizeof(int));
	recv_desc(r, 256, d, sizeof(d));
	check(!strcmp(d, "41/52=7(20) 41/67=64(20) -"),
	      "an IPV6_HOPLIMIT message of -1: the socket's");
	send_with(s, AF_INET6, port, IPPROTO_IPV6, IPV6_TCLASS, 0x80, sizeof(int));
	recv_desc(r, 256, d, sizeof(d));
	check(!strcmp(d, "41/52=7(20) 41/67=128(20) -"), "an IPV6_TCLASS message of 0x80 wins");
	check_err(send_with(s, AF_INET6, port, IPPROTO_IPV6, IPV6_HOPLIMIT, 256, sizeof(int)),
		  EINVAL, "an IPV6_HOPLIMIT message of 256: EINVAL");
	check_err(send_with(s, AF_INET6, port, IPPROTO_IPV6, IPV6_TCLASS, 1, 1), EINVAL,
		  "an IPV6_TCLASS message of one byte: EINVAL");
	send_with(s, AF_INET6, port, -1, 0, 0, 0);
	recv_desc(r, sizeof(struct cmsghdr) + 2, d, sizeof(d));
	check(!strcmp(d, "41/52=-1(18) CTRUNC"), "room for a header and 2 bytes: cut, MSG_CTRUNC");
	close(r);
	close(s);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	v4();
	v6();
	return 0;
}
