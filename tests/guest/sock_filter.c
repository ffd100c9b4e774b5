/* skas-test: netns: lo */
/* Classic BPF socket filters (SO_ATTACH_FILTER, SO_DETACH_FILTER,
 * SO_LOCK_FILTER, SO_GET_FILTER) on AF_UNIX, netlink, UDP (IPv4 and 6:
 * the UDP header and IP header as loopback carries them, lo's Ethernet
 * header, the device's ancillary values) and raw ICMP sockets: Linux's
 * checks of a program (its errors, and in which order), the lock, reading
 * the program back; a filter run on each datagram the socket receives:
 * dropped (the sender is not told), cut to the length it returns, or
 * kept, by what it loads (words in network order, halves, bytes, LEN,
 * IND, MSH, the network header's offsets, scratch words, the ALU, X, the
 * ancillary loads a socket without a device has); none on a stream; a
 * netlink socket's filter on the kernel's replies. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#define TAP_ENAME
#include "tap.h"
#include "seccomp_abi.h"
#include "netlink_util.h"

#ifndef SO_ATTACH_FILTER
#define SO_ATTACH_FILTER 26
#define SO_DETACH_FILTER 27
#endif
#ifndef SO_LOCK_FILTER
#define SO_LOCK_FILTER 44
#endif

#define SKF_AD_OFF	   (-0x1000)
#define SKF_AD_PROTOCOL	   0
#define SKF_AD_PKTTYPE	   4
#define SKF_AD_IFINDEX	   8
#define SKF_AD_NLATTR	   12
#define SKF_AD_NLATTR_NEST 16
#define SKF_AD_ALU_XOR_X   40
#define SKF_AD_MAX	   64
#define SKF_NET_OFF	   (-0x100000)
#define SKF_LL_OFF	   (-0x200000)
#define RET(k)		   BPF_STMT(BPF_RET | BPF_K, k)
#define N(prog)		   (sizeof(prog) / sizeof(prog[0]))

static int attach(int fd, struct sock_filter *p, unsigned short len)
{
	struct sock_fprog f = { len, p };

	return setsockopt(fd, SOL_SOCKET, SO_ATTACH_FILTER, &f, sizeof(f));
}

/* A datagram pair, the receiver's end nonblocking. */
static void pair(int type, int sv[2])
{
	if (socketpair(AF_UNIX, type, 0, sv) < 0)
		exit(1);
}

/* What the receiver gets of one message: its length, -1 (errno) if none. */
static long through(int sv[2], const void *msg, size_t len, char *out, size_t cap)
{
	long r = send(sv[0], msg, len, 0);

	if (r != (long)len)
		return -2;
	return recv(sv[1], out, cap, MSG_DONTWAIT);
}

/* Runs prog on a datagram of msg: what got through ("-" for nothing). */
static void run(const char *what, struct sock_filter *prog, unsigned short n, const void *msg,
		size_t len)
{
	char buf[256];
	int sv[2];
	long r;

	pair(SOCK_DGRAM, sv);
	if (attach(sv[1], prog, n) < 0) {
		printf("%s: attach: %s\n", what, ename(errno));
		close(sv[0]);
		close(sv[1]);
		return;
	}
	r = through(sv, msg, len, buf, sizeof(buf));
	if (r < 0)
		printf("%s: %s\n", what, r == -2 ? "send failed" : ename(errno));
	else
		printf("%s: %ld \"%.*s\"\n", what, r, (int)r, buf);
	close(sv[0]);
	close(sv[1]);
}

static void checks(void)
{
	struct sock_filter ok[] = { RET(0xffff) }, bad[4097];
	struct sock_filter got[4];
	struct sock_fprog f = { 1, ok };
	socklen_t len;
	int fd = socket(AF_UNIX, SOCK_DGRAM, 0), one = 1, zero = 0, val;
	struct {
		const char *what;
		struct sock_filter p[3];
		unsigned short n;
	} inval[] = {
		{ "no return last", { BPF_STMT(BPF_LD | BPF_IMM, 1) }, 1 },
		{ "a jump past the end",
		  { BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 1, 1, 0), RET(0) },
		  2 },
		{ "a JA past the end", { BPF_STMT(BPF_JMP | BPF_JA, 1), RET(0) }, 2 },
		{ "a division by 0", { BPF_STMT(BPF_ALU | BPF_DIV | BPF_K, 0), RET(0) }, 2 },
		{ "a modulo by 0", { BPF_STMT(BPF_ALU | BPF_MOD | BPF_K, 0), RET(0) }, 2 },
		{ "a shift by 32", { BPF_STMT(BPF_ALU | BPF_LSH | BPF_K, 32), RET(0) }, 2 },
		{ "scratch word 16", { BPF_STMT(BPF_ST, 16), RET(0) }, 2 },
		{ "a scratch word never stored", { BPF_STMT(BPF_LD | BPF_MEM, 3), RET(0) }, 2 },
		{ "an unknown code", { BPF_STMT(0xff, 0), RET(0) }, 2 },
		{ "ancillary 64",
		  { BPF_STMT(BPF_LD | BPF_W | BPF_ABS, SKF_AD_OFF + SKF_AD_MAX), RET(0) },
		  2 },
		{ "ancillary 2",
		  { BPF_STMT(BPF_LD | BPF_W | BPF_ABS, SKF_AD_OFF + 2), RET(0) },
		  2 },
	};
	size_t i;

	check(attach(fd, ok, 1) == 0, "attach a filter");
	check_err(setsockopt(fd, SOL_SOCKET, SO_ATTACH_FILTER, &f, sizeof(f) - 1), EINVAL,
		  "an optlen short of struct sock_fprog");
	check_err(setsockopt(fd, SOL_SOCKET, SO_ATTACH_FILTER, &f, sizeof(f) + 4), EINVAL,
		  "an optlen past it");
	check_err(attach(fd, NULL, 1), EINVAL, "no program");
	check_err(attach(fd, ok, 0), EINVAL, "length 0");
	memset(bad, 0, sizeof(bad));
	bad[4096] = (struct sock_filter)RET(0);
	check_err(attach(fd, bad, 4097), EINVAL, "4097 instructions");
	check_err(attach(fd, (struct sock_filter *)8, 1), EFAULT, "a bad pointer");
	for (i = 0; i < N(inval); i++)
		check_err(attach(fd, inval[i].p, inval[i].n), EINVAL, inval[i].what);
	{
		struct sock_filter anc[] = {
			BPF_STMT(BPF_LD | BPF_B | BPF_ABS, SKF_AD_OFF + SKF_AD_PKTTYPE),
			BPF_STMT(BPF_ST, 1),
			BPF_STMT(BPF_LDX | BPF_MEM, 1),
			RET(0xffff),
		};
		check(attach(fd, anc, N(anc)) == 0, "an ancillary byte load, a stored word");
	}

	/* SO_GET_FILTER: lengths in instructions */
	len = 0;
	check(getsockopt(fd, SOL_SOCKET, SO_ATTACH_FILTER, got, &len) == 0 && len == 4,
	      "SO_GET_FILTER with length 0: the count");
	len = 3;
	check_err(getsockopt(fd, SOL_SOCKET, SO_ATTACH_FILTER, got, &len), EINVAL,
		  "SO_GET_FILTER short of it");
	len = 100;
	memset(got, 0, sizeof(got));
	check(getsockopt(fd, SOL_SOCKET, SO_ATTACH_FILTER, got, &len) == 0 && len == 4 &&
		      got[0].code == (BPF_LD | BPF_B | BPF_ABS) &&
		      got[0].k == (unsigned)(SKF_AD_OFF + SKF_AD_PKTTYPE) && got[3].k == 0xffff,
	      "SO_GET_FILTER: the program as given");

	check(setsockopt(fd, SOL_SOCKET, SO_DETACH_FILTER, &zero, sizeof(zero)) == 0, "detach");
	check_err(setsockopt(fd, SOL_SOCKET, SO_DETACH_FILTER, &zero, sizeof(zero)), ENOENT,
		  "detach with none");
	len = 100;
	check(getsockopt(fd, SOL_SOCKET, SO_ATTACH_FILTER, got, &len) == 0 && len == 0,
	      "SO_GET_FILTER with none: 0");
	len = (socklen_t)-1;
	check_err(getsockopt(fd, SOL_SOCKET, SO_ATTACH_FILTER, got, &len), EINVAL,
		  "SO_GET_FILTER with a negative length");

	/* SO_LOCK_FILTER */
	attach(fd, ok, 1);
	len = sizeof(val);
	check(getsockopt(fd, SOL_SOCKET, SO_LOCK_FILTER, &val, &len) == 0 && val == 0,
	      "not locked");
	check(setsockopt(fd, SOL_SOCKET, SO_LOCK_FILTER, &one, sizeof(one)) == 0, "lock");
	check(getsockopt(fd, SOL_SOCKET, SO_LOCK_FILTER, &val, &len) == 0 && val == 1, "locked");
	check_err(attach(fd, ok, 1), EPERM, "attach when locked");
	check_err(attach(fd, inval[0].p, 1), EPERM, "a bad program when locked: EPERM first");
	check_err(setsockopt(fd, SOL_SOCKET, SO_DETACH_FILTER, &zero, sizeof(zero)), EPERM,
		  "detach when locked");
	check_err(setsockopt(fd, SOL_SOCKET, SO_LOCK_FILTER, &zero, sizeof(zero)), EPERM, "unlock");
	check(setsockopt(fd, SOL_SOCKET, SO_LOCK_FILTER, &one, sizeof(one)) == 0, "lock again");
	close(fd);
}

/* A UDP datagram of 20 bytes from port 47001 to a socket on port 47002
 * with prog: how many bytes arrive (-1: none), what is printed if what. */
static long udp_run(const char *what, int v6, struct sock_filter *prog, unsigned short n)
{
	struct sockaddr_in6 a6 = { .sin6_family = AF_INET6, .sin6_addr = IN6ADDR_LOOPBACK_INIT };
	struct sockaddr_in a4 = { .sin_family = AF_INET,
				  .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	struct sockaddr *a = v6 ? (struct sockaddr *)&a6 : (struct sockaddr *)&a4;
	socklen_t alen = v6 ? sizeof(a6) : sizeof(a4);
	int tx = socket(v6 ? AF_INET6 : AF_INET, SOCK_DGRAM, 0);
	int rx = socket(v6 ? AF_INET6 : AF_INET, SOCK_DGRAM, 0);
	char buf[2048];
	long r;

	a4.sin_port = a6.sin6_port = htons(47001);
	bind(tx, a, alen);
	a4.sin_port = a6.sin6_port = htons(47002);
	bind(rx, a, alen);
	if (attach(rx, prog, n) < 0)
		printf("%s: attach: %s\n", what ? what : "a value", ename(errno));
	sendto(tx, "0123456789abcdefghij", 20, 0, a, alen);
	r = recv(rx, buf, sizeof(buf), MSG_DONTWAIT);
	if (what && r < 0)
		printf("%s: %s\n", what, ename(errno));
	else if (what)
		printf("%s: %ld \"%.*s\"\n", what, r, (int)r, buf);
	close(tx);
	close(rx);
	return r;
}

/* What a load sees, a nibble at a time: "ld; rsh; and #15; add #8; ret a"
 * keeps 8 + the nibble bytes, so that much data arrives. */
static void udp_value(const char *what, int v6, unsigned code, int k)
{
	unsigned value = 0, shift;

	for (shift = 0; shift < 32; shift += 4) {
		struct sock_filter prog[] = {
			BPF_STMT(code, (unsigned)k),
			BPF_STMT(BPF_ALU | BPF_RSH | BPF_K, shift),
			BPF_STMT(BPF_ALU | BPF_AND | BPF_K, 15),
			BPF_STMT(BPF_ALU | BPF_ADD | BPF_K, 8),
			BPF_STMT(BPF_RET | BPF_A, 0),
		};
		long r = udp_run(NULL, v6, prog, N(prog));

		value |= (unsigned)(r < 0 ? 0 : r) << shift;
	}
	printf("%s: %#x\n", what, value);
}

static void udp_filters(void)
{
	struct sock_filter drop[] = { RET(0) }, cut[] = { RET(10) }, cap[] = { RET(3) };
	struct sock_filter port[] = {
		BPF_STMT(BPF_LD | BPF_H | BPF_ABS, 2), /* the UDP header's destination */
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 47002, 0, 1),
		RET(0xffff),
		RET(0),
	};
	int v6;

	for (v6 = 0; v6 < 2; v6++) {
		printf("UDP, IPv%d:\n", v6 ? 6 : 4);
		udp_run("  drop", v6, drop, N(drop));
		udp_run("  cut to 10: 2 bytes of data", v6, cut, N(cut));
		udp_run("  3: the header at least", v6, cap, N(cap));
		udp_run("  by destination port", v6, port, N(port));
		udp_value("  UDP ports", v6, BPF_LD | BPF_W | BPF_ABS, 0);
		udp_value("  UDP length and checksum (partial)", v6, BPF_LD | BPF_W | BPF_ABS, 4);
		udp_value("  LEN", v6, BPF_LD | BPF_W | BPF_LEN, 0);
		/* IPv6's flow label is Linux's hash of the flow: its first byte only */
		udp_value(v6 ? "  IP's first byte" : "  IP's first word", v6,
			  BPF_LD | (v6 ? BPF_B : BPF_W) | BPF_ABS, SKF_NET_OFF);
		if (v6) /* IPv4's identification is Linux's hash */
			udp_value("  IPv6 payload length", v6, BPF_LD | BPF_H | BPF_ABS,
				  SKF_NET_OFF + 4);
		udp_value("  IP's bytes 6-7 (v4: DF)", v6, BPF_LD | BPF_H | BPF_ABS,
			  SKF_NET_OFF + 6);
		udp_value("  IP's TTL, or v6's source", v6, BPF_LD | BPF_B | BPF_ABS,
			  SKF_NET_OFF + 8);
		udp_value("  IP's byte 9 (v4: protocol)", v6, BPF_LD | BPF_B | BPF_ABS,
			  SKF_NET_OFF + 9);
		udp_value("  destination's last word", v6, BPF_LD | BPF_W | BPF_ABS,
			  SKF_NET_OFF + (v6 ? 36 : 16));
		udp_value("  the Ethernet type", v6, BPF_LD | BPF_H | BPF_ABS, SKF_LL_OFF + 12);
		udp_value("  an Ethernet address", v6, BPF_LD | BPF_W | BPF_ABS, SKF_LL_OFF);
		udp_value("  PROTOCOL", v6, BPF_LD | BPF_W | BPF_ABS, SKF_AD_OFF + SKF_AD_PROTOCOL);
		udp_value("  PKTTYPE", v6, BPF_LD | BPF_W | BPF_ABS, SKF_AD_OFF + SKF_AD_PKTTYPE);
		udp_value("  IFINDEX", v6, BPF_LD | BPF_W | BPF_ABS, SKF_AD_OFF + SKF_AD_IFINDEX);
		udp_value("  HATYPE", v6, BPF_LD | BPF_W | BPF_ABS, SKF_AD_OFF + 28);
	}
}

/* A raw ICMP socket sees its own echo request and the reply: a filter
 * that reads the IP header's protocol and the ICMP type keeps the reply
 * only, cut to the IP and ICMP headers. */
static void icmp_filter_raw(void)
{
	struct sock_filter reply[] = {
		BPF_STMT(BPF_LD | BPF_B | BPF_ABS, 9), /* from the IP header on */
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 1, 0, 3),
		BPF_STMT(BPF_LDX | BPF_B | BPF_MSH, 0),
		BPF_STMT(BPF_LD | BPF_B | BPF_IND, 0), /* the ICMP type */
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 1, 0),
		RET(0),
		RET(28),
	};
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	unsigned char req[16] = { 8, 0, 0, 0, 0x12, 0x34, 0, 1, 'p', 'i', 'n', 'g' }, buf[256];
	unsigned sum = 0;
	int fd = socket(AF_INET, SOCK_RAW, IPPROTO_ICMP), i;
	long r;

	if (fd < 0) {
		printf("raw ICMP: %s\n", ename(errno));
		return;
	}
	for (i = 0; i < 16; i += 2)
		sum += (unsigned)(req[i] << 8 | req[i + 1]);
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	req[2] = (unsigned char)(~sum >> 8);
	req[3] = (unsigned char)~sum;
	check(attach(fd, reply, N(reply)) == 0, "a filter on a raw ICMP socket");
	sendto(fd, req, sizeof(req), 0, (struct sockaddr *)&a, sizeof(a));
	r = recv(fd, buf, sizeof(buf), MSG_DONTWAIT);
	printf("raw ICMP: %ld bytes, type %d, id %02x%02x\n", r, r > 20 ? buf[20] : -1,
	       r > 25 ? buf[24] : 0, r > 25 ? buf[25] : 0);
	r = recv(fd, buf, sizeof(buf), MSG_DONTWAIT);
	printf("raw ICMP, then: %s\n", r < 0 ? ename(errno) : "more");
	close(fd);

	/* ICMPv6: the data starts at the ICMPv6 header, the IPv6 header
	 * before it says next header 58 */
	{
		struct sock_filter reply6[] = {
			BPF_STMT(BPF_LD | BPF_B | BPF_ABS, SKF_NET_OFF + 6),
			BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 58, 0, 3),
			BPF_STMT(BPF_LD | BPF_B | BPF_ABS, 0),
			BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 129, 1, 0),
			RET(0),
			RET(8),
		};
		struct sockaddr_in6 a6 = { .sin6_family = AF_INET6,
					   .sin6_addr = IN6ADDR_LOOPBACK_INIT };

		fd = socket(AF_INET6, SOCK_RAW, IPPROTO_ICMPV6);
		check(attach(fd, reply6, N(reply6)) == 0, "a filter on a raw ICMPv6 socket");
		req[0] = 128;
		req[2] = req[3] = 0; /* the kernel sums ICMPv6 */
		sendto(fd, req, sizeof(req), 0, (struct sockaddr *)&a6, sizeof(a6));
		r = recv(fd, buf, sizeof(buf), MSG_DONTWAIT);
		printf("raw ICMPv6: %ld bytes, type %d\n", r, r > 0 ? buf[0] : -1);
		r = recv(fd, buf, sizeof(buf), MSG_DONTWAIT);
		printf("raw ICMPv6, then: %s\n", r < 0 ? ename(errno) : "more");
		close(fd);
	}
}

int main(void)
{
	static const char msg[] = "ABCDEFGHIJ";
	struct sock_filter drop[] = { RET(0) }, cut3[] = { RET(3) }, all[] = { RET(0xffffffff) };
	struct sock_filter word[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0x41424344, 0, 1),
		RET(0xffff),
		RET(0),
	};
	struct sock_filter half_byte[] = {
		BPF_STMT(BPF_LD | BPF_H | BPF_ABS, 2), /* "CD" */
		BPF_STMT(BPF_MISC | BPF_TAX, 0),
		BPF_STMT(BPF_LD | BPF_B | BPF_ABS, 9),	     /* 'J' */
		BPF_STMT(BPF_ALU | BPF_ADD | BPF_X, 0),	     /* 0x4344 + 0x4a */
		BPF_STMT(BPF_ALU | BPF_SUB | BPF_K, 0x4386), /* 8 */
		BPF_STMT(BPF_RET | BPF_A, 0),
	};
	struct sock_filter past_end[] = {
		BPF_STMT(BPF_LD | BPF_B | BPF_ABS, 10),
		RET(0xffff),
	};
	struct sock_filter len_ind[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_LEN, 0), /* 10 */
		BPF_STMT(BPF_MISC | BPF_TAX, 0),
		BPF_STMT(BPF_LD | BPF_B | BPF_IND, -3), /* msg[7] 'H' */
		BPF_STMT(BPF_ALU | BPF_AND | BPF_K, 7), /* 0x48 & 7 = 0 */
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 1),
		RET(5),
		RET(0),
	};
	struct sock_filter msh[] = {
		BPF_STMT(BPF_LDX | BPF_B | BPF_MSH, 1), /* ('B' & 15) * 4 = 8 */
		BPF_STMT(BPF_MISC | BPF_TXA, 0),
		BPF_STMT(BPF_RET | BPF_A, 0),
	};
	struct sock_filter alu[] = {
		BPF_STMT(BPF_LD | BPF_IMM, 100),
		BPF_STMT(BPF_ST, 0),
		BPF_STMT(BPF_ALU | BPF_MUL | BPF_K, 3),	 /* 300 */
		BPF_STMT(BPF_ALU | BPF_DIV | BPF_K, 7),	 /* 42 */
		BPF_STMT(BPF_ALU | BPF_MOD | BPF_K, 10), /* 2 */
		BPF_STMT(BPF_ALU | BPF_LSH | BPF_K, 4),	 /* 32 */
		BPF_STMT(BPF_ALU | BPF_OR | BPF_K, 5),	 /* 37 */
		BPF_STMT(BPF_ALU | BPF_XOR | BPF_K, 1),	 /* 36 */
		BPF_STMT(BPF_ALU | BPF_RSH | BPF_K, 2),	 /* 9 */
		BPF_STMT(BPF_ALU | BPF_NEG, 0),		 /* -9 */
		BPF_STMT(BPF_LDX | BPF_MEM, 0),		 /* 100 */
		BPF_STMT(BPF_ALU | BPF_ADD | BPF_X, 0),	 /* 91 */
		BPF_JUMP(BPF_JMP | BPF_JGT | BPF_K, 90, 0, 2),
		BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, 1, 0, 1),
		RET(4),
		RET(0),
	};
	struct sock_filter div_x0[] = {
		BPF_STMT(BPF_LDX | BPF_IMM, 0),
		BPF_STMT(BPF_LD | BPF_IMM, 5),
		BPF_STMT(BPF_ALU | BPF_DIV | BPF_X, 0),
		RET(0xffff),
	};
	struct sock_filter net_off[] = {
		BPF_STMT(BPF_LD | BPF_B | BPF_ABS, SKF_NET_OFF + 1),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 'B', 0, 1),
		RET(6),
		RET(0),
	};
	struct sock_filter ll_off[] = {
		BPF_STMT(BPF_LD | BPF_B | BPF_ABS, SKF_LL_OFF),
		RET(0xffff),
	};
	struct sock_filter anc[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, SKF_AD_OFF + SKF_AD_PROTOCOL),
		BPF_STMT(BPF_MISC | BPF_TAX, 0),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, SKF_AD_OFF + SKF_AD_PKTTYPE),
		BPF_STMT(BPF_ALU | BPF_ADD | BPF_X, 0),
		BPF_STMT(BPF_LDX | BPF_IMM, 2),
		BPF_STMT(BPF_LD | BPF_IMM, 7),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, SKF_AD_OFF + SKF_AD_ALU_XOR_X), /* 5 */
		BPF_STMT(BPF_RET | BPF_A, 0),
	};
	struct sock_filter ifindex[] = {
		BPF_STMT(BPF_LD | BPF_IMM, 5),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, SKF_AD_OFF + SKF_AD_IFINDEX),
		RET(0xffff),
	};
	/* an attribute of 0xffff bytes first, in a long datagram: no hang */
	struct sock_filter nlattr_long[] = {
		BPF_STMT(BPF_LD | BPF_IMM, 0),
		BPF_STMT(BPF_LDX | BPF_IMM, 7),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, SKF_AD_OFF + SKF_AD_NLATTR),
		BPF_STMT(BPF_ALU | BPF_ADD | BPF_K, 1),
		BPF_STMT(BPF_RET | BPF_A, 0),
	};
	static unsigned char big[70000];
	/* Attributes: {len 8, type 5, "abcd"}, {len 12, type 3|NESTED, {len 8, type 9, ...}} */
	static const unsigned char attrs[] = { 8, 0,	5, 0, 'a', 'b', 'c', 'd', 12,  0,
					       3, 0x80, 8, 0, 9,   0,	'x', 'y', 'z', 'w' };
	struct sock_filter nlattr[] = {
		BPF_STMT(BPF_LD | BPF_IMM, 0),
		BPF_STMT(BPF_LDX | BPF_IMM, 3),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, SKF_AD_OFF + SKF_AD_NLATTR), /* 8 */
		BPF_STMT(BPF_LDX | BPF_IMM, 9),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, SKF_AD_OFF + SKF_AD_NLATTR_NEST), /* 12 */
		BPF_STMT(BPF_ST, 0),
		BPF_STMT(BPF_LDX | BPF_IMM, 7),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, SKF_AD_OFF + SKF_AD_NLATTR), /* none: 0 */
		BPF_STMT(BPF_LDX | BPF_MEM, 0),
		BPF_STMT(BPF_ALU | BPF_ADD | BPF_X, 0),
		BPF_STMT(BPF_RET | BPF_A, 0),
	};
	char buf[8192];
	int sv[2];
	long r;

	checks();
	udp_filters();
	icmp_filter_raw();
	run("drop", drop, N(drop), msg, 10);
	run("cut to 3", cut3, N(cut3), msg, 10);
	run("keep all", all, N(all), msg, 10);
	run("a word in network order", word, N(word), msg, 10);
	run("a word that differs", word, N(word), "ABCE", 4);
	run("a half and a byte", half_byte, N(half_byte), msg, 10);
	run("a byte past the end", past_end, N(past_end), msg, 10);
	run("LEN and IND", len_ind, N(len_ind), msg, 10);
	run("MSH", msh, N(msh), msg, 10);
	run("the ALU and scratch words", alu, N(alu), msg, 10);
	run("a division by an X of 0", div_x0, N(div_x0), msg, 10);
	run("SKF_NET_OFF: the data", net_off, N(net_off), msg, 10);
	run("SKF_LL_OFF: no link layer", ll_off, N(ll_off), msg, 10);
	run("protocol, type, XOR", anc, N(anc), msg, 10);
	run("IFINDEX: no device, A returned", ifindex, N(ifindex), msg, 10);
	big[0] = big[1] = 0xff;
	big[2] = 1;
	run("NLATTR over a 0xffff-byte attribute", nlattr_long, N(nlattr_long), big, sizeof(big));
	run("an empty datagram kept", all, N(all), "", 0);
	run("an empty datagram dropped", drop, N(drop), "", 0);
	run("NLATTR, NLATTR_NEST", nlattr, N(nlattr), attrs, sizeof(attrs));

	/* A dropped datagram takes no room: the next one fits. */
	pair(SOCK_DGRAM, sv);
	attach(sv[1], word, N(word));
	r = send(sv[0], "XXXX", 4, 0);
	check(r == 4, "the sender of a dropped datagram is told nothing");
	r = through(sv, "ABCDE", 5, buf, sizeof(buf));
	check(r == 5, "the next one arrives alone");
	close(sv[0]);
	close(sv[1]);

	/* seqpacket: filtered as datagrams; a stream: never */
	pair(SOCK_SEQPACKET, sv);
	attach(sv[1], cut3, N(cut3));
	r = through(sv, msg, 10, buf, sizeof(buf));
	printf("seqpacket: %ld\n", r);
	close(sv[0]);
	close(sv[1]);
	pair(SOCK_STREAM, sv);
	check(attach(sv[1], drop, N(drop)) == 0, "a stream takes a filter");
	r = through(sv, msg, 10, buf, sizeof(buf));
	printf("stream: %ld\n", r);
	close(sv[0]);
	close(sv[1]);

	/* netlink: the kernel's reply to a request goes through the filter */
	{
		int fd = socket(AF_NETLINK, SOCK_RAW, NETLINK_ROUTE);
		struct {
			struct nlmsghdr h;
			unsigned char family, pad[3];
		} req = { { sizeof(req), 18 /* RTM_GETLINK */, NLM_F_REQUEST | NLM_F_DUMP, 1, 0 },
			  0,
			  { 0 } };
		struct sock_filter first[] = {
			BPF_STMT(BPF_LD | BPF_H | BPF_ABS, 4), /* nlmsg_type, little-endian */
			BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0x1000 /* RTM_NEWLINK */, 0, 1),
			RET(16),
			RET(0),
		};

		attach(fd, first, N(first));
		send(fd, &req, sizeof(req), 0);
		r = recv(fd, buf, sizeof(buf), MSG_DONTWAIT);
		printf("netlink: %ld, type %d\n", r,
		       r >= 16 ? ((struct nlmsghdr *)buf)->nlmsg_type : -1);
		r = recv(fd, buf, sizeof(buf), MSG_DONTWAIT);
		printf("netlink, then: %s\n", r < 0 ? ename(errno) : "more");
		close(fd);
	}
	return 0;
}
