/* net/icmp.c: ICMP on loopback. Two kinds of sockets, as Linux's:
 * - raw ICMP sockets (SOCK_RAW, IPPROTO_ICMP or IPPROTO_ICMPV6; CAP_NET_RAW)
 *   send ICMP messages as the caller wrote them (IPv4: checksum and all;
 *   with IP_HDRINCL the IP header too) and receive a copy of every ICMP
 *   packet that arrives, their own included, that their bound and
 *   connected addresses and their ICMP_FILTER/ICMP6_FILTER let through:
 *   IPv4 ones with the IP header, IPv6 ones without;
 * - "ping" sockets (SOCK_DGRAM, IPPROTO_ICMP or IPPROTO_ICMPV6; a group in
 *   net.ipv4.ping_group_range) send only echo requests, whose identifier
 *   (the socket's port) and checksum the kernel fills in, and receive the
 *   echo replies to that identifier, without IP header.
 * The stack answers an echo request to any local address (127.0.0.0/8,
 * ::1) with a checksum that adds up, as icmp_echo and icmpv6_echo_reply.
 * A packet is delivered at once: the raw sockets' copies first, then the
 * ICMP layer's work, so a raw socket reads a request before its reply.
 * A queued packet starts with struct icmp_meta (its source, TTL or hop
 * limit, TOS or traffic class); readiness and the queue are the AF_UNIX
 * datagram code's, as UDP's.
 * Differs from Linux: raw sockets of other protocols (and IPPROTO_RAW)
 * are EPROTONOSUPPORT, IPV6_HDRINCL is EINVAL; an IP_HDRINCL packet is
 * dropped unless it is a whole (unfragmented) ICMP packet to a local
 * address; IPv4 options are not kept. ICMP errors (the stack's port
 * unreachable for UDP, or one a raw socket sends) reach the UDP socket
 * whose datagram they quote (udp_err) and no other: ping and raw sockets'
 * error queues stay empty. /proc/net/snmp's Icmp counters stay 0;
 * sock_diag has no raw sockets (ss reads /proc/net/raw, net/proc.c). */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "net/inet.h"
#include "net/ip.h"
#include "net/netns.h"
#include "kernel/task.h"
#include "kernel/cred.h"
#include "kernel/sched.h"
#include "abi/linux/errno.h"

#define CAP_NET_RAW	 13
#define ICMP_OVERHEAD	 768 /* truesize past the payload, as UDP's */
#define ICMP_ECHOREPLY	 0
#define ICMP_ECHO	 8
#define ICMP_EXT_ECHO	 42
#define ICMP_EXT_REPLY	 43
#define ICMPV6_ECHO	 128
#define ICMPV6_REPLY	 129
#define ICMPV6_EXT_ECHO	 160
#define ICMPV6_EXT_REPLY 161
#define ICMP_FILTER	 1 /* SOL_RAW, IPv4 */
#define ICMP6_FILTER	 1 /* SOL_ICMPV6 */
#define IPV6_CHECKSUM	 7
#define IPV6_HDRINCL	 36
#define IP_HDRINCL	 3
#define IP_DF		 0x4000
#define GID_T_MAX	 0x7fffffffL

struct icmp_meta {
	uint8_t src[16], dst[16];
	bool v4;
	uint8_t ttl, tos; /* IPv6: the hop limit and the traffic class */
};

/* A packet on its way: v4, the whole IPv4 packet (header of hl bytes,
 * then the ICMP message); v6, the ICMPv6 message (hl 0). */
struct packet {
	const struct net_ns *net; /* the namespace whose lo carries it */
	struct icmp_meta m;
	uint8_t dst[16];
	const uint8_t *data;
	size_t len, hl;
};

static struct list_head raw_socks = LIST_HEAD_INIT(raw_socks); /* by port_link */
static uint32_t ping_range[2] = { 1, 0 };		       /* none, Linux's default */

void icmp_ping_range(uint32_t range[2])
{
	range[0] = ping_range[0];
	range[1] = ping_range[1];
}

/* ipv4_ping_group_range: an empty range is stored as "1 0". */
int icmp_set_ping_range(long lo, long hi)
{
	if (lo < 0 || hi < 0 || lo > GID_T_MAX || hi > GID_T_MAX)
		return -EINVAL;
	if (hi < lo)
		lo = 1, hi = 0;
	ping_range[0] = (uint32_t)lo;
	ping_range[1] = (uint32_t)hi;
	return 0;
}

/* check_current_group_range: the effective group or a supplementary one. */
static bool may_ping(const struct cred *c)
{
	int i;

	if (c->egid >= ping_range[0] && c->egid <= ping_range[1])
		return true;
	for (i = 0; i < c->ngroups; i++)
		if (c->groups[i] >= ping_range[0] && c->groups[i] <= ping_range[1])
			return true;
	return false;
}

static bool is_raw(const struct inet_sock *in)
{
	return in->u.sk.type == LINUX_SOCK_RAW;
}

static bool is_v6(const struct inet_sock *in)
{
	return in->u.sk.family == LINUX_AF_INET6;
}

static uint32_t csum_v6_pseudo(const uint8_t src[16], const uint8_t dst[16], size_t len)
{
	return ip_csum_v6_pseudo(src, dst, len, LINUX_IPPROTO_ICMPV6);
}

/* to's socket filter (sock_queue_rcv_skb's sk_filter): it reads from the
 * IP header on (a raw IPv4 socket's, skip 0) or from the ICMP header on,
 * with the IP header before; false if it drops the packet, else *keep is
 * how many bytes from skip on it keeps. */
static bool icmp_filter_run(struct inet_sock *to, const struct packet *p, size_t skip, size_t *keep)
{
	uint8_t *buf;
	bool kept;

	*keep = p->len - skip;
	if (!to->u.sk.filter)
		return true;
	if (p->m.v4)
		return ip_filter(&to->u.sk, true, p->data, p->len, skip, 1, keep);
	buf = malloc(40 + p->len); /* an ICMPv6 message: its IPv6 header first */
	if (!buf)
		return false; /* dropped, as the filter may have */
	ip6_header(buf, p->len, p->m.src, p->dst, p->m.ttl, p->m.tos, LINUX_IPPROTO_ICMPV6);
	memcpy(buf + 40, p->data, p->len);
	kept = ip_filter(&to->u.sk, false, buf, 40 + p->len, 40 + skip, 1, keep);
	free(buf);
	return kept;
}

static void queue_copy(struct inet_sock *to, const struct packet *p, size_t skip)
{
	size_t size, keep;
	struct skb *skb;

	if (!icmp_filter_run(to, p, skip, &keep))
		return;
	size = sizeof(p->m) + skip + keep;
	/* sock_queue_rcv_skb: a queue already past SO_RCVBUF drops it */
	if (to->rmem >= (size_t)to->u.sk.rcvbuf || !sock_mem_charge(p->len + ICMP_OVERHEAD))
		return;
	skb = malloc(sizeof(*skb) + size);
	if (!skb) {
		sock_mem_uncharge(p->len + ICMP_OVERHEAD);
		return;
	}
	memset(skb, 0, sizeof(*skb));
	skb->len = size;
	skb->consumed = sizeof(p->m) + skip;
	skb->truesize = p->len + ICMP_OVERHEAD;
	memcpy(skb->data, &p->m, sizeof(p->m));
	memcpy(skb->data + offsetof(struct icmp_meta, dst), p->dst, 16);
	memcpy(skb->data + sizeof(p->m), p->data, skip + keep);
	to->rmem += skb->truesize;
	unix_queue_skb(&to->u, skb);
}

/* icmp_filter, icmpv6_filter: a type whose bit is set is dropped. */
static bool filtered(const struct inet_sock *in, const struct packet *p)
{
	unsigned type;

	if (p->len - p->hl < (p->m.v4 ? 8 : 4))
		return true; /* shorter than the header the filter reads */
	type = p->data[p->hl];
	if (p->m.v4)
		return type < 32 && (in->icmp_filter[0] & (1u << type));
	return in->icmp_filter[type >> 5] & (1u << (type & 31));
}

/* ping_rcv: an echo reply goes to the ping socket of its identifier
 * (the newest, when SO_REUSEADDR shares one) bound to its destination. */
static void ping_rcv(const struct packet *p)
{
	const uint8_t *ic = p->data + p->hl;
	uint16_t ident = (uint16_t)(ic[4] << 8 | ic[5]);
	struct inet_sock *o, *to = NULL;

	list_for_each_entry(o, inet_table(LINUX_IPPROTO_ICMP, ident), port_link)
	{
		if (o->sport == ident && o->u.sk.net == p->net && !o->u.dead &&
		    is_v6(o) != p->m.v4 && inet_covers(o, p->dst))
			to = o;
	}
	if (to)
		queue_copy(to, p, p->hl);
}

static void deliver(const struct packet *p);

/* icmp_err_convert: the errno of each code of an IPv4 destination
 * unreachable and whether it is a hard error (a connected socket without
 * IP_RECVERR hears of it); icmpv6_err_convert's for IPv6. */
static const struct {
	uint8_t err, hard;
} unreach4[16] = {
	{ ENETUNREACH, 0 }, { EHOSTUNREACH, 0 }, { ENOPROTOOPT, 1 }, { ECONNREFUSED, 1 },
	{ EMSGSIZE, 0 },    { EOPNOTSUPP, 0 },	 { ENETUNREACH, 1 }, { EHOSTDOWN, 1 },
	{ ENONET, 1 },	    { ENETUNREACH, 1 },	 { EHOSTUNREACH, 1 }, { ENETUNREACH, 0 },
	{ EHOSTUNREACH, 0 }, { EHOSTUNREACH, 1 }, { EHOSTUNREACH, 1 }, { EHOSTUNREACH, 1 },
},
  unreach6[7] = {
	  { ENETUNREACH, 0 }, { EACCES, 1 },	   { EHOSTUNREACH, 0 }, { EHOSTUNREACH, 0 },
	  { ECONNREFUSED, 1 }, { EACCES, 1 },	   { EACCES, 1 },
};

/* icmp_unreach (with __udp4_lib_err) and icmpv6_notify (__udp6_lib_err):
 * an error quoting a UDP datagram goes to its sender; others (and those
 * about other protocols) reach no socket but the raw ones. Path MTU
 * errors count as hard (IP_PMTUDISC_WANT, the default). */
static void icmp_err(const struct packet *p)
{
	const uint8_t *ic = p->data + p->hl, *q = ic + 8;
	size_t ql = p->len - p->hl - 8, qhl;
	struct udp_icmp_err e = { .net = p->net, .v4 = p->m.v4, .type = ic[0], .code = ic[1] };
	uint8_t src[16] = { [10] = 0xff, [11] = 0xff }, dst[16] = { [10] = 0xff, [11] = 0xff };

	if (p->m.v4) {
		if (e.type == 3 && e.code == 4) {
			e.err = EMSGSIZE, e.hard = true, e.info = (uint32_t)(ic[6] << 8 | ic[7]);
		} else if (e.type == 3) {
			if (e.code > 15)
				return; /* past NR_ICMP_UNREACH */
			e.err = unreach4[e.code].err;
			e.hard = unreach4[e.code].hard;
		} else if (e.type == 11) {
			e.err = EHOSTUNREACH; /* time exceeded */
		} else if (e.type == 12) {
			e.err = EPROTO, e.hard = true, e.info = ic[4]; /* the pointer */
		} else {
			return;
		}
		if (ql < 20 || (q[0] >> 4) != 4 || (q[0] & 15) < 5)
			return;
		qhl = (size_t)(q[0] & 15) * 4;
		if (ql < qhl + 8 || (q[9] != LINUX_IPPROTO_UDP && q[9] != LINUX_IPPROTO_UDPLITE))
			return;
		e.proto = q[9];
		memcpy(src + 12, q + 12, 4);
		memcpy(dst + 12, q + 16, 4);
	} else {
		e.info = (uint32_t)ic[4] << 24 | (uint32_t)ic[5] << 16 | ic[6] << 8 | ic[7];
		if (e.type == 1) {
			e.err = e.code < 7 ? unreach6[e.code].err : EPROTO;
			e.hard = e.code < 7 ? unreach6[e.code].hard : true;
		} else if (e.type == 2) {
			e.err = EMSGSIZE, e.hard = true; /* packet too big */
		} else if (e.type == 3) {
			e.err = EHOSTUNREACH; /* time exceeded */
		} else if (e.type == 4) {
			e.err = EPROTO, e.hard = true;
		} else {
			return;
		}
		qhl = 40;
		if (ql < qhl + 8 || (q[0] >> 4) != 6 ||
		    (q[6] != LINUX_IPPROTO_UDP && q[6] != LINUX_IPPROTO_UDPLITE))
			return;
		e.proto = q[6];
		memcpy(src, q + 8, 16);
		memcpy(dst, q + 24, 16);
	}
	e.src = src;
	e.dst = dst;
	e.sport = (uint16_t)(q[qhl] << 8 | q[qhl + 1]);
	e.dport = (uint16_t)(q[qhl + 2] << 8 | q[qhl + 3]);
	e.offender = p->m.src;
	e.ttl = p->m.ttl;
	e.tos = p->m.tos;
	e.payload = q + qhl + 8;
	e.len = ql - qhl - 8;
	udp_err(&e);
}

/* icmp_global_allow: net.ipv4.icmp_msgs_burst (50) errors at once, then
 * icmp_msgs_per_sec (1000) a second, also on loopback, per namespace.
 * (Linux spends a random 0 to 2 credits a message; skas one.) */
static bool icmp_allow(struct net_ns *net)
{
	int64_t now = sched_now_ns(), incr = (now - net->icmp_last) / 1000000;

	if (incr > 0) {
		net->icmp_credit = net->icmp_credit + incr < 50 ? net->icmp_credit + incr : 50;
		net->icmp_last = now;
	}
	if (net->icmp_credit <= 0)
		return false;
	net->icmp_credit--;
	return true;
}

void icmp_port_unreach(struct net_ns *net, bool v4, int proto, uint16_t cscov,
		       const uint8_t src[16], uint16_t sport, const uint8_t dst[16], uint16_t dport,
		       const uint8_t *data, size_t len, uint8_t ttl, uint8_t tos)
{
	/* icmp_send quotes what fits in 576 bytes, icmp6_send in 1280 */
	size_t hl = v4 ? 20 : 40, orig = hl + 8 + len, max = v4 ? 576 - 28 : 1280 - 48;
	size_t q = orig < max ? orig : max, off = v4 ? 20 : 0;
	struct packet p = { .net = net, .m.v4 = v4, .hl = off };
	uint8_t *buf;

	if (!icmp_allow(net) || !(buf = calloc(1, off + 8 + hl + 8 + len)))
		return;
	/* the datagram as it went, in the quote: IP and UDP headers */
	ip_udp_packet(buf + off + 8, v4, proto, cscov, src, sport, dst, dport, data, len, ttl, tos,
		      ip_next_id());
	/* the error, from the address that was sent to */
	buf[off] = v4 ? 3 : 1;
	buf[off + 1] = v4 ? 3 : 4; /* port unreachable */
	memcpy(p.m.src, dst, 16);
	memcpy(p.dst, src, 16);
	p.m.ttl = 64;
	p.m.tos = v4 ? (uint8_t)((tos & 0x1e) | 0xc0) : tos; /* IPTOS_PREC_INTERNETCONTROL */
	if (v4) {
		ip_set_csum(buf + off, 8 + q, 2, 0);
		ip4_header(buf, 8 + q, p.m.src, p.dst, p.m.ttl, p.m.tos, 0, LINUX_IPPROTO_ICMP,
			   ip_next_id());
	} else {
		ip_set_csum(buf, 8 + q, 2, csum_v6_pseudo(p.m.src, p.dst, 8 + q));
	}
	p.data = buf;
	p.len = off + 8 + q;
	deliver(&p);
	free(buf);
}

/* icmp_echo, icmpv6_echo_reply: the request's header (code and all) and
 * data back, from the address it went to, with the stack's TTL or hop
 * limit and the request's TOS or traffic class. */
static void echo_reply(const struct packet *req)
{
	size_t n = req->len - req->hl;
	uint8_t *buf = malloc(20 + n);
	struct packet r = {
		.net = req->net, .m.v4 = req->m.v4, .data = buf, .hl = req->m.v4 ? 20 : 0
	};

	/* a forged source (IP_HDRINCL) off loopback: no route back */
	if (!buf || (inet_is_v4(req->m.src) ? req->m.src[12] != 127
					    : memcmp(req->m.src, req->dst, 16) != 0)) {
		free(buf);
		return;
	}
	memcpy(r.m.src, req->dst, 16);
	memcpy(r.dst, req->m.src, 16);
	r.m.ttl = 64;
	r.m.tos = req->m.tos;
	r.len = r.hl + n;
	memcpy(buf + r.hl, req->data + req->hl, n);
	if (r.m.v4) {
		buf[20] = ICMP_ECHOREPLY;
		ip_set_csum(buf + 20, n, 2, 0);
		ip4_header(buf, n, r.m.src, r.dst, r.m.ttl, r.m.tos, 0, LINUX_IPPROTO_ICMP,
			   ip_next_id());
	} else {
		buf[0] = ICMPV6_REPLY;
		ip_set_csum(buf, n, 2, csum_v6_pseudo(r.m.src, r.dst, n));
	}
	deliver(&r);
	free(buf);
}

/* A packet arrives: raw_local_deliver, then icmp_rcv/icmpv6_rcv, which
 * drop a message shorter than its header or with a wrong checksum. */
static void deliver(const struct packet *p)
{
	const uint8_t *ic = p->data + p->hl;
	size_t n = p->len - p->hl;
	struct inet_sock *o, *next;
	uint32_t pseudo;

	list_for_each_entry_safe(o, next, &raw_socks, port_link)
	{
		if (o->u.dead || o->u.sk.net != p->net || is_v6(o) == p->m.v4 ||
		    !inet_covers(o, p->dst) ||
		    (o->connected && memcmp(o->daddr, p->m.src, 16) != 0) || filtered(o, p))
			continue;
		queue_copy(o, p, 0);
	}
	if (n < 8)
		return;
	pseudo = p->m.v4 ? 0 : csum_v6_pseudo(p->m.src, p->dst, n);
	if (ip_csum_fold(ip_csum_add(pseudo, ic, n)) != 0)
		return;
	if (ic[0] == (p->m.v4 ? ICMP_ECHO : ICMPV6_ECHO)) {
		if (!inet_is_bcast(p->dst)) /* icmp_echo_ignore_broadcasts */
			echo_reply(p);
	} else if (p->m.v4 ? ic[0] == ICMP_ECHOREPLY || ic[0] == ICMP_EXT_REPLY
			   : ic[0] == ICMPV6_REPLY || ic[0] == ICMPV6_EXT_REPLY)
		ping_rcv(p);
	else
		icmp_err(p);
}

int icmp_create(int family, int type, int protocol, struct socket **out)
{
	const struct cred *c = &current->proc->cred;
	int icmp = family == LINUX_AF_INET ? LINUX_IPPROTO_ICMP : LINUX_IPPROTO_ICMPV6;
	struct inet_sock *in;

	if (type == LINUX_SOCK_RAW) {
		/* inet_create: the protocol's lookup, then the capability */
		if (protocol == 0)
			return -EPROTONOSUPPORT;
		if (!net_capable(task_net(current), CAP_NET_RAW))
			return -EPERM;
		if (protocol != icmp)
			return -EPROTONOSUPPORT; /* differs: ICMP only */
	} else if (!may_ping(c)) {
		return -EACCES; /* ping_init_sock */
	}
	in = inet_alloc(family, type, icmp);
	if (!in)
		return -ENOMEM;
	/* INET_PROTOSW_REUSE: SO_REUSEADDR is on */
	sock_setsockopt(&in->u.sk, LINUX_SOL_SOCKET, LINUX_SO_REUSEADDR, &(int){ 1 }, sizeof(int));
	in->csum_off = is_raw(in) && is_v6(in) ? 2 : -1;
	if (is_raw(in)) {
		/* the protocol is its port (inet_num), and stays */
		in->sport = (uint16_t)icmp;
		in->port_locked = true;
		list_add_tail(&in->port_link, &raw_socks);
	} else if (is_v6(in)) {
		in->v6only = true;
	}
	*out = &in->u.sk;
	return 0;
}

/* raw_bind, rawv6_bind, ping_check_bind_addr and ping_bind. */
static int icmp_bind(struct task *t, struct socket *s, const struct linux_sockaddr_storage *a,
		     int len)
{
	struct inet_sock *in = inet_sk(s), *o;
	bool v6 = is_v6(in), raw = is_raw(in);
	uint8_t addr[16], any[16] = { 0 };
	uint16_t port = 0;
	bool group;
	int ret;

	(void)t;
	if (len < (v6 ? (raw ? LINUX_SIN6_LEN_RFC2133 : (int)sizeof(struct linux_sockaddr_in6))
		      : (int)sizeof(struct linux_sockaddr_in)))
		return -EINVAL;
	if (v6 && a->ss_family != LINUX_AF_INET6)
		return raw ? -EINVAL : -EAFNOSUPPORT;
	if (!v6) {
		struct linux_sockaddr_storage b = *a;

		if (raw) /* raw_bind looks at no family */
			b.ss_family = LINUX_AF_INET;
		ret = inet_parse_v4(&b, len, true, addr, &port);
	} else {
		ret = inet_parse_addr(in, a, len, true, addr, &port);
	}
	if (ret < 0)
		return ret;
	if (v6 && !raw && addr[0] == 0xff)
		return -EINVAL; /* not unicast */
	if (v6 && inet_is_v4(addr))
		return raw ? -EADDRNOTAVAIL : -EINVAL;
	if (raw && s->state != SS_CLOSE)
		return -EINVAL; /* connected */
	if (!v6)
		memcpy(any + 10, "\xff\xff", 2);
	/* IPv4 multicast or the broadcast: raw sockets take them (to hear
	 * on), ping sockets do not; else a local address or any */
	group = v6 ? raw && addr[0] == 0xff
		   : (addr[12] & 0xf0) == 0xe0 || !memcmp(addr + 12, "\xff\xff\xff\xff", 4) ||
				inet_is_bcast(addr);
	if (group ? !raw
		  : memcmp(addr, any, 16) != 0 &&
			    (v6 ? !s->net->lo_up || memcmp(addr, any, 15) != 0 || addr[15] != 1
				: s->net->lo_has_v4 && addr[12] != 127))
		return -EADDRNOTAVAIL;
	if (raw) {
		memcpy(in->saddr, addr, 16);
		in->addr_locked = memcmp(addr, any, 16) != 0 && !group;
		return 0;
	}
	if (in->sport)
		return -EINVAL;
	if (port) {
		/* ping_get_port: taken unless both share with SO_REUSEADDR */
		list_for_each_entry(o, inet_table(LINUX_IPPROTO_ICMP, port), port_link)
		{
			if (o->sport == port && o != in && o->u.sk.net == s->net &&
			    (!sock_reuseaddr(&o->u.sk) || !sock_reuseaddr(s)))
				return -EADDRINUSE;
		}
		inet_hash_port(in, port);
	} else if (inet_autobind(in) < 0) {
		return -EADDRINUSE;
	}
	memcpy(in->saddr, addr, 16);
	in->addr_locked = memcmp(addr, any, 16) != 0;
	in->port_locked = in->port_named = port != 0;
	return 0;
}

/* The destination of a send (ping_v4_sendmsg, ping_v6_sendmsg,
 * raw_sendmsg, rawv6_sendmsg), made concrete. */
static int send_dest(struct inet_sock *in, const struct kmsg *m, uint8_t dst[16])
{
	const struct linux_sockaddr_storage *a = &m->name;
	bool v6 = is_v6(in), raw = is_raw(in);
	struct linux_sockaddr_in6 sin6;
	uint16_t port;
	int ret;

	/* raw sockets take a name of length 0 as none; ping sockets see it */
	if (raw ? m->has_name && m->namelen > 0 : m->has_name) {
		if (!v6) {
			struct linux_sockaddr_storage b = *a;

			if (m->namelen < (int)sizeof(struct linux_sockaddr_in))
				return -EINVAL;
			if (b.ss_family != LINUX_AF_INET &&
			    !(raw && b.ss_family == LINUX_AF_UNSPEC))
				return -EAFNOSUPPORT;
			b.ss_family = LINUX_AF_INET; /* raw: AF_UNSPEC as AF_INET */
			ret = inet_parse_v4(&b, m->namelen, false, dst, &port);
			if (ret < 0)
				return ret;
		} else {
			if (m->namelen <
			    (raw ? LINUX_SIN6_LEN_RFC2133 : (int)sizeof(struct linux_sockaddr_in6)))
				return -EINVAL;
			if (a->ss_family != LINUX_AF_INET6 && !(raw && a->ss_family == 0))
				return -EAFNOSUPPORT;
			memcpy(&sin6, a, LINUX_SIN6_LEN_RFC2133);
			memcpy(dst, sin6.sin6_addr, 16);
			/* rawv6_sendmsg: the port names the protocol */
			port = __builtin_bswap16(sin6.sin6_port);
			if (raw && port && port != LINUX_IPPROTO_ICMPV6)
				return -EINVAL;
		}
	} else {
		if (!in->connected)
			return -EDESTADDRREQ;
		memcpy(dst, in->daddr, 16);
	}
	if (v6 && inet_is_v4(dst))
		return raw ? -ENETUNREACH : -EINVAL;
	if (m->scm.ip_bad)
		return -EINVAL;
	return inet_route(in, dst);
}

/* raw_send_hdrinc: the caller's IPv4 header, its total length, source (if
 * 0), identification (if 0) and checksum filled in; then ip_rcv's checks
 * on loopback, and an ICMP packet to a local address is delivered. */
static long send_hdrincl(struct inet_sock *in, uint8_t *buf, size_t len, const uint8_t route[16])
{
	struct packet p = { .net = in->u.sk.net, .m.v4 = true, .data = buf, .len = len };
	size_t hl = len ? (size_t)(buf[0] & 15) * 4 : 0;
	uint8_t src[16], dst[16];

	if (!len || hl > len)
		return -EINVAL;
	if (hl < 20)
		return (long)len; /* sent as it is, and dropped by ip_rcv */
	inet_source(in, route, src);
	if (!memcmp(buf + 12, "\0\0\0\0", 4))
		memcpy(buf + 12, src + 12, 4);
	ip_put16(buf + 2, (unsigned)len);
	if (!buf[4] && !buf[5])
		ip_put16(buf + 4, ip_next_id());
	ip_set_csum(buf, hl, 10, 0);
	memcpy(dst, route, 12);
	memcpy(dst + 12, buf + 16, 4);
	memcpy(p.m.src, route, 12);
	memcpy(p.m.src + 12, buf + 12, 4);
	memcpy(p.dst, dst, 16);
	p.hl = hl;
	p.m.ttl = buf[8];
	p.m.tos = buf[1];
	/* ip_rcv and ip_local_deliver: IPv4, not a fragment, local */
	if ((buf[0] >> 4) == 4 && !((buf[6] & 0x3f) | buf[7]) && buf[9] == LINUX_IPPROTO_ICMP &&
	    inet_route(in, dst) == 0 && !memcmp(dst + 12, buf + 16, 4))
		deliver(&p);
	return (long)len;
}

static long icmp_sendmsg(struct task *t, struct socket *s, struct kmsg *m, unsigned flags)
{
	struct inet_sock *in = inet_sk(s);
	bool v6 = is_v6(in), raw = is_raw(in);
	size_t len = m->iter.count, off = v6 ? 0 : 20;
	struct packet p = { .net = s->net, .m.v4 = !v6 };
	uint8_t hdr[8], *buf;
	long err;

	(void)t;
	scm_destroy(&m->scm);
	if (!raw && inet_autobind(in) < 0)
		return -EAGAIN; /* inet_send_prepare */
	if (len > 0xffff)
		return -EMSGSIZE;
	if (!raw && len < sizeof(hdr))
		return -EINVAL;
	if (flags & LINUX_MSG_OOB)
		return -EOPNOTSUPP;
	if (!raw) {
		/* ping_common_sendmsg: the header first, then its type */
		if (iter_copy_from(&m->iter, hdr, sizeof(hdr)) < 0)
			return -EFAULT;
		if (hdr[1] != 0 || (v6 ? hdr[0] != ICMPV6_ECHO && hdr[0] != ICMPV6_EXT_ECHO
				       : hdr[0] != ICMP_ECHO && hdr[0] != ICMP_EXT_ECHO))
			return -EINVAL;
	}
	err = send_dest(in, m, p.dst);
	if (err == 0 && inet_is_bcast(p.dst) && !sock_broadcast(s))
		err = -EACCES; /* RTCF_BROADCAST without SO_BROADCAST */
	if (err == 0)
		err = inet_source(in, p.dst, p.m.src);
	if (err == 0)
		err = inet_pktinfo_source(&m->scm, !v6, p.m.src);
	if (err < 0)
		return err;
	/* __ip_append_data: the IPv4 header must fit in 64 KiB too */
	if (!v6 && !(raw && in->hdrincl) && len > 0xffff - 20)
		return -EMSGSIZE;
	inet_send_ip(in, &m->scm, !v6, &p.m.ttl, &p.m.tos);
	buf = malloc(off + len);
	if (!buf)
		return -ENOMEM;
	if (raw && in->hdrincl && !v6) {
		err = iter_copy_from(&m->iter, buf, len) < 0 ? -EFAULT
							     : send_hdrincl(in, buf, len, p.dst);
		free(buf);
		return err;
	}
	if (!raw) {
		memcpy(buf + off, hdr, sizeof(hdr));
		ip_put16(buf + off + 4, in->sport); /* the identifier is ours */
	}
	if (iter_copy_from(&m->iter, buf + off + (raw ? 0 : sizeof(hdr)),
			   len - (raw ? 0 : sizeof(hdr))) < 0) {
		free(buf);
		return -EFAULT;
	}
	if (!raw)
		ip_set_csum(buf + off, len, 2, v6 ? csum_v6_pseudo(p.m.src, p.dst, len) : 0);
	else if (v6 && in->csum_off >= 0) {
		/* rawv6_push_pending_frames: the offset must leave room */
		if ((size_t)in->csum_off + 1 >= len) {
			free(buf);
			return -EINVAL;
		}
		ip_set_csum(buf, len, (size_t)in->csum_off, csum_v6_pseudo(p.m.src, p.dst, len));
	}
	if (!v6)
		ip4_header(buf, len, p.m.src, p.dst, p.m.ttl, p.m.tos, IP_DF, LINUX_IPPROTO_ICMP,
			   ip_next_id());
	p.data = buf;
	p.len = off + len;
	p.hl = off;
	deliver(&p);
	free(buf);
	return (long)len;
}

/* raw_recvmsg, rawv6_recvmsg and ping_recvmsg. */
static long icmp_recvmsg(struct task *t, struct socket *s, struct kmsg *m, unsigned flags)
{
	struct inet_sock *in = inet_sk(s);
	struct icmp_meta meta;
	struct skb *skb;
	size_t dlen;
	long err;

	(void)t;
	if (flags & LINUX_MSG_OOB)
		return -EOPNOTSUPP;
	if (flags & LINUX_MSG_ERRQUEUE)
		return -EAGAIN; /* the error queue is always empty */
	err = inet_dgram_wait(in, flags, &skb);
	if (!skb)
		return err;
	memcpy(&meta, skb->data, sizeof(meta));
	dlen = skb->len - skb->consumed;
	if (m->want_name)
		m->namelen = inet_fill_addr(s->family, meta.src, 0, &m->name);
	sock_recv_timestamp(s, skb->tstamp, &m->scm);
	inet_recv_ip(in, meta.v4, meta.ttl, meta.tos, meta.dst, &m->scm);
	err = inet_dgram_copy(in, skb, m, flags);
	/* MSG_TRUNC asks raw sockets for the whole length */
	return err >= 0 && is_raw(in) && (flags & LINUX_MSG_TRUNC) ? (long)dlen : err;
}

/* SIOCINQ: the first packet's length, as raw_ioctl and udp's. */
static long icmp_inq(struct socket *s)
{
	struct unix_sock *u = unix_sk(s);
	struct skb *skb = unix_next_skb(u, NULL);

	return skb ? (long)(skb->len - skb->consumed) : 0;
}

static int get_int(const void *val, unsigned len)
{
	int v = 0;

	if (len >= sizeof(int))
		memcpy(&v, val, sizeof(v));
	else if (len >= 1)
		v = *(const unsigned char *)val;
	return v;
}

/* do_raw_setsockopt, do_rawv6_setsockopt, rawv6_seticmpfilter and
 * IP_HDRINCL; the rest is inet's. */
static int icmp_setsockopt(struct socket *s, int level, int name, const void *val, unsigned len)
{
	struct inet_sock *in = inet_sk(s);
	bool v6 = is_v6(in), raw = is_raw(in);
	int v;

	if (raw && level == LINUX_SOL_RAW && !v6) {
		if (name != ICMP_FILTER)
			return -ENOPROTOOPT;
		memcpy(in->icmp_filter, val, len < 4 ? len : 4);
		return 0;
	}
	if (raw && v6 && level == LINUX_SOL_ICMPV6) {
		if (name != ICMP6_FILTER)
			return -ENOPROTOOPT;
		memcpy(in->icmp_filter, val, len < 32 ? len : 32);
		return 0;
	}
	if (raw && v6 &&
	    (level == LINUX_SOL_RAW ||
	     (level == LINUX_SOL_IPV6 && (name == IPV6_CHECKSUM || name == IPV6_HDRINCL)))) {
		if (len < sizeof(int))
			return -EINVAL;
		v = get_int(val, len);
		if (name == IPV6_HDRINCL)
			return -EINVAL; /* differs: not here */
		if (name != IPV6_CHECKSUM)
			return -ENOPROTOOPT;
		/* RFC 3542: not at SOL_IPV6 for ICMPv6; an even offset */
		if (level == LINUX_SOL_IPV6 || (v > 0 && (v & 1)))
			return -EINVAL;
		in->csum_off = v < 0 ? -1 : v;
		return 0;
	}
	if (level == LINUX_SOL_IP && name == IP_HDRINCL && !v6) {
		if (!raw)
			return -ENOPROTOOPT;
		in->hdrincl = get_int(val, len) != 0;
		return 0;
	}
	return inet_setsockopt(s, level, name, val, len);
}

static int icmp_getsockopt(struct socket *s, int level, int name, void *val, int *len)
{
	struct inet_sock *in = inet_sk(s);
	bool v6 = is_v6(in), raw = is_raw(in);
	int v, max = 4;

	if (raw && ((level == LINUX_SOL_RAW && !v6 && name == ICMP_FILTER) ||
		    (level == LINUX_SOL_ICMPV6 && v6 && name == ICMP6_FILTER))) {
		if (*len < 0)
			return -EINVAL;
		max = v6 ? 32 : 4;
		*len = *len < max ? *len : max;
		memcpy(val, in->icmp_filter, (size_t)*len);
		return 0;
	}
	if (raw && v6 &&
	    (level == LINUX_SOL_RAW ||
	     (level == LINUX_SOL_IPV6 && (name == IPV6_CHECKSUM || name == IPV6_HDRINCL)))) {
		if (name == IPV6_CHECKSUM)
			v = in->csum_off;
		else if (name == IPV6_HDRINCL)
			v = 0;
		else
			return -ENOPROTOOPT;
		*len = (unsigned)*len < sizeof(int) ? *len : (int)sizeof(int);
		memcpy(val, &v, (size_t)*len);
		return 0;
	}
	if (raw && !v6 && level == LINUX_SOL_RAW)
		return -ENOPROTOOPT; /* do_raw_getsockopt: ICMP_FILTER only */
	if (level == LINUX_SOL_IP && name == IP_HDRINCL && !v6) {
		if (*len < 0)
			return -EINVAL;
		v = in->hdrincl;
		*len = *len < (int)sizeof(v) ? (*len > 0 ? 1 : 0) : (int)sizeof(v);
		memcpy(val, &v, (size_t)*len);
		return 0;
	}
	return inet_getsockopt(s, level, name, val, len);
}

static void icmp_release(struct socket *s)
{
	struct inet_sock *in = inet_sk(s);

	inet_unhash(in);
	inet_mc_release(in);
	unix_release_sock(&in->u, false);
	in->rmem = 0;
}

const struct proto_ops icmp_ops = {
	.bind = icmp_bind,
	.connect = udp_connect,
	.socketpair = inet_socketpair,
	.listen = sock_no_listen,
	.accept = sock_no_accept,
	.getname = inet_getname,
	.sendmsg = icmp_sendmsg,
	.recvmsg = icmp_recvmsg,
	.shutdown = inet_shutdown,
	.poll = unix_dgram_poll,
	.inq = icmp_inq,
	.peercred = unix_peercred,
	.setsockopt = icmp_setsockopt,
	.getsockopt = icmp_getsockopt,
	.release = icmp_release,
	.destroy = inet_destroy,
};
